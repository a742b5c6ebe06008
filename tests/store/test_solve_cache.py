"""`halfmoon solve` reads the results store before solving and writes after (--db, --no-cache)."""

from __future__ import annotations

import json

from click.testing import CliRunner

from halfmoon.cli.main import main
from halfmoon.solver.registry import FAMILY_TAGS, get_game
from halfmoon.solver.store import open_store


def run(*args: str):
    return CliRunner().invoke(main, list(args))


def test_solve_answers_from_the_store_the_second_time(tmp_path):
    db = str(tmp_path / "r.sqlite3")
    first = run("solve", "HM1-N-AAAAAAB", "--db", db, "--json", "--method", "search", "--node-limit", "20000")
    assert first.exit_code == 0, first.output
    with open_store(db) as store:
        row = store.get("HM1-N-AAAAAAB", get_game("HM").solver_version)
        assert row.verdict == "winnable" and row.line == " ".join(json.loads(first.output)["moves"])
        # Doctor the stored line's record so the next answer can only have come from the store.
        store._conn.execute("UPDATE results SET method = 'from-store'")
    second = json.loads(run("solve", "HM1-N-AAAAAAB", "--db", db, "--json").output)
    assert second["method"] == "from-store" and second["moves"] == json.loads(first.output)["moves"]
    fresh = json.loads(run("solve", "HM1-N-AAAAAAB", "--db", db, "--json", "--no-cache").output)
    assert fresh["method"] != "from-store" and fresh["verdict"] == "winnable"


def test_a_stored_line_that_does_not_replay_is_not_trusted(tmp_path):
    db = str(tmp_path / "r.sqlite3")
    assert run("solve", "HM1-N-AAAAAAB", "--db", db, "--json").exit_code == 0
    with open_store(db) as store:
        store._conn.execute("UPDATE results SET line = '1+2', method = 'forged'")
    again = json.loads(run("solve", "HM1-N-AAAAAAB", "--db", db, "--json").output)
    assert again["method"] != "forged" and again["verdict"] == "winnable"


def test_an_unknown_is_redone_under_a_bigger_budget(tmp_path):
    db = str(tmp_path / "r.sqlite3")
    tight = json.loads(run("solve", "HM1-N-AAAAAAB", "--db", db, "--json", "--method", "search",
                           "--node-limit", "3").output)
    assert tight["verdict"] == "unknown"
    again = json.loads(run("solve", "HM1-N-AAAAAAB", "--db", db, "--json", "--method", "search",
                           "--node-limit", "3").output)
    assert again["verdict"] == "unknown"
    bigger = json.loads(run("solve", "HM1-N-AAAAAAB", "--db", db, "--json", "--method", "search",
                            "--node-limit", "50000").output)
    assert bigger["verdict"] == "winnable"


def test_no_cache_writes_nothing(tmp_path):
    db = tmp_path / "r.sqlite3"
    assert run("solve", "HM1-N-AAAAAAB", "--db", str(db), "--no-cache", "--json").exit_code == 0
    assert not db.exists()


def test_family_tags_are_registered_as_the_family_declares():
    from halfmoon.solver.games.family.adapter import FAMILY_TAGS as declared

    assert FAMILY_TAGS == declared
    for tag in FAMILY_TAGS:
        assert get_game(tag).tag == tag
