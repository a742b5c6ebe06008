"""The HTTP service with a winnability atlas (`serve --atlas DIR`): deals say what the atlas holds,
solutions of decided deals come from it (unwinnable at once, winnable with ?verdict_only=true),
a winning line is still solved and replayed."""

from __future__ import annotations

import json

import pytest

pytest.importorskip("fastapi")

from click.testing import CliRunner  # noqa: E402
from fastapi.testclient import TestClient  # noqa: E402

import halfmoon  # noqa: E402
import halfmoon
from halfmoon.cli.main import main  # noqa: E402
from halfmoon.cli.server import ServiceConfig, create_app  # noqa: E402
from halfmoon.solver.games.halfmoon.adapter import ADAPTER  # noqa: E402


@pytest.fixture(scope="module")
def atlas_dir(tmp_path_factory):
    directory = tmp_path_factory.mktemp("http-atlas") / "hm"
    halfmoon.atlas.build("16:20", directory, shard_bits=10, workers=1)  # deal 18 is unwinnable, 16 winnable
    return directory


@pytest.fixture(scope="module")
def client(atlas_dir, tmp_path_factory):
    config = ServiceConfig(db_path=tmp_path_factory.mktemp("http-atlas") / "r.sqlite3", workers=1, wait_default=20.0,
                           atlas_path=atlas_dir)
    with TestClient(create_app(config), raise_server_exceptions=False) as test_client:
        yield test_client


def test_a_deal_says_what_the_atlas_holds(client):
    lost = client.get("/v1/deals/hm1-n-aaaaaas").json()
    assert lost["code"] == "HM1-N-AAAAAAS" and lost["piles"] == halfmoon.deal("HM1-N-AAAAAAS").to_json()["piles"]
    assert lost["winnability"] == {"code": "HM1-N-AAAAAAS", "game": "halfmoon", "number": 18, "verdict": "unwinnable",
                                   "done": True, "source": "atlas", "solver_version": ADAPTER.solver_version,
                                   "shard": "HM1-N.s10.0000000.atlas"}
    assert client.get("/v1/deals/HM1-N-AAAAABA").json()["winnability"]["done"] is False
    assert client.get("/v1/deals/EL1-N-AAAAAAB").json()["winnability"]["verdict"] is None  # no EL shards
    assert "winnability" not in client.get("/v1/deals/SH1-2-AAAAAAB").json()


def test_solutions_from_the_atlas_and_a_line_still_solved(client, atlas_dir):
    lost = client.get("/v1/deals/HM1-N-AAAAAAS/solution")
    assert lost.status_code == 200, lost.text
    data = lost.json()
    cli = json.loads(CliRunner().invoke(main, ["solve", "HM1-N-AAAAAAS", "--atlas", str(atlas_dir), "--json"]).output)
    assert {k: v for k, v in data.items() if k != "seconds"} == {k: v for k, v in cli.items() if k != "seconds"}
    assert data["source"] == "atlas" and data["verdict"] == "unwinnable" and data["moves"] is None and data["cached"]
    quick = client.get("/v1/deals/HM1-N-AAAAAAQ/solution?verdict_only=true").json()
    assert quick["source"] == "atlas" and quick["verdict"] == "winnable" and quick["moves"] is None
    full = client.get("/v1/deals/HM1-N-AAAAAAQ/solution").json()
    assert full["source"] == "solver" and full["verdict"] == "winnable" and ADAPTER.line_wins(16, " ".join(full["moves"]))
    elsewhere = client.get("/v1/deals/HM1-N-AAAAABA/solution?verdict_only=true").json()
    assert elsewhere["source"] == "solver"  # not in the atlas: solved
    stats = client.get("/v1/stats").json()
    assert stats["atlas"]["games"] == ["HM1-N"] and stats["atlas"]["lookups"] >= 4
    assert stats["solutions"]["from_atlas"] == 2 and stats["service"]["config"]["atlas_path"] == str(atlas_dir)


def test_serve_refuses_a_missing_atlas_in_one_line(tmp_path):
    result = CliRunner().invoke(main, ["serve", "--port", "0", "--atlas", str(tmp_path / "none"),
                                       "--db", str(tmp_path / "r.sqlite3")])
    assert result.exit_code == 3 and result.output.strip() == f"error: atlas {tmp_path / 'none'}: no such directory"
