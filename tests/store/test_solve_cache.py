"""`halfmoon solve` and the results store: a stored answer stands in only for the question asked."""

from __future__ import annotations

import json

from click.testing import CliRunner

from halfmoon.cli.main import main
from halfmoon.solver import catalogue
from halfmoon.solver.games.family.adapter import PURE_CHANCE_PRESETS
from halfmoon.solver.games.family.presets import load_preset
from halfmoon.solver.store import open_store


def run(*args: str):
    return CliRunner().invoke(main, list(args))


def solve_json(*args: str) -> dict:
    result = run("solve", *args, "--json")
    assert result.exit_code == 0, result.output
    return json.loads(result.output)


def test_solve_answers_from_the_store_the_second_time_and_says_so(tmp_path):
    db = str(tmp_path / "r.sqlite3")
    first = solve_json("HM1-N-AAAAAAB", "--db", db)
    assert first["cached"] is False
    with open_store(db) as store:
        row = store.get("HM1-N-AAAAAAB", catalogue.solitaire("HM").solver_version)
        assert row.verdict == "winnable" and row.line == " ".join(first["moves"])
        # Doctor the stored record so the next answer can only have come from the store.
        store._conn.execute("UPDATE results SET method = 'from-store'")
    second = solve_json("HM1-N-AAAAAAB", "--db", db)
    assert second["cached"] is True and second["method"] == "from-store" and second["moves"] == first["moves"]
    assert second["cards"] == first["cards"]
    fresh = solve_json("HM1-N-AAAAAAB", "--db", db, "--no-cache")
    assert fresh["cached"] is False and fresh["method"] != "from-store" and fresh["verdict"] == "winnable"


def test_an_explicit_method_or_seed_is_never_answered_from_the_store(tmp_path):
    db = str(tmp_path / "r.sqlite3")
    assert solve_json("HM1-N-AAAAAAA", "--db", db, "--node-limit", "200000")["cached"] is False
    by_cpsat = solve_json("HM1-N-AAAAAAA", "--db", db, "--method", "cpsat", "--time-limit", "30")
    assert by_cpsat["cached"] is False and by_cpsat["method"] in ("cpsat", "none")
    seeded = solve_json("HM1-N-AAAAAAB", "--db", db, "--seed", "3")
    assert seeded["cached"] is False
    assert solve_json("HM1-N-AAAAAAB", "--db", db)["cached"] is True  # the seeded answer was stored


def test_a_stored_line_that_does_not_replay_is_not_trusted(tmp_path):
    db = str(tmp_path / "r.sqlite3")
    assert run("solve", "HM1-N-AAAAAAB", "--db", db, "--json").exit_code == 0
    with open_store(db) as store:
        store._conn.execute("UPDATE results SET line = '1+2', method = 'forged'")
    again = solve_json("HM1-N-AAAAAAB", "--db", db)
    assert again["method"] != "forged" and again["verdict"] == "winnable" and again["cached"] is False


def test_an_unknown_is_redone_under_a_bigger_budget(tmp_path):
    db = str(tmp_path / "r.sqlite3")
    tight = solve_json("HM1-N-AAAAAAB", "--db", db, "--method", "search", "--node-limit", "3")
    assert tight["verdict"] == "unknown" and tight["stopped"] == "nodes"
    again = solve_json("HM1-N-AAAAAAB", "--db", db, "--node-limit", "3")
    assert again["verdict"] == "unknown" or again["cached"] is False
    bigger = solve_json("HM1-N-AAAAAAB", "--db", db, "--node-limit", "50000")
    assert bigger["verdict"] == "winnable" and bigger["cached"] is False


def test_no_cache_writes_nothing(tmp_path):
    db = tmp_path / "r.sqlite3"
    assert run("solve", "HM1-N-AAAAAAB", "--db", str(db), "--no-cache", "--json").exit_code == 0
    assert not db.exists()


def test_the_catalogue_agrees_with_the_preset_files():
    for row in catalogue.games():
        if row.preset is not None:
            assert load_preset(row.preset).tag == row.tag
            assert catalogue.solitaire(row.tag).tag == row.tag
    assert set(PURE_CHANCE_PRESETS) == {row.tag for row in catalogue.games() if row.preset}
