"""`halfmoon solve` and `halfmoon hint` from the command line."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from halfmoon.cli.main import main
from halfmoon.dealcodes import deal_from_code
from halfmoon.solver.games.halfmoon.rules import Position, replay

runner = CliRunner()


def run(*args: str, input: str | None = None):
    return runner.invoke(main, list(args), input=input)


def test_solve_json_line_replays():
    result = run("solve", "hm1-n-aaaaaab", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert set(data) == {"code", "game", "verdict", "moves", "cards", "method", "nodes", "seconds", "stopped", "cached",
                         "solver_version", "source", "engine"}
    assert data["source"] == "solver"
    assert data["code"] == "HM1-N-AAAAAAB" and data["verdict"] == "winnable" and len(data["moves"]) == 48
    start = Position.from_deal(deal_from_code("HM1-N-AAAAAAB"))
    assert replay(start, ", ".join(data["moves"])).position.is_won


def test_solve_text_shows_verdict_method_and_card_names():
    result = run("solve", "HM1-N-AAAAAAB")
    assert result.exit_code == 0, result.output
    first = result.output.splitlines()[0]
    assert first.startswith("HM1-N-AAAAAAB: winnable (method ") and "nodes" in first
    assert "winning line (48 moves)" in result.output and "  48. " in result.output


def test_solve_many_codes_from_arguments_and_stdin_one_json_per_line():
    result = run("solve", "HM1-N-AAAAAAB", "-", "--json", input="HM1-N-AAAAAGP\n HM1-N-AAAAAHL \n")
    assert result.exit_code == 0, result.output
    rows = [json.loads(line) for line in result.output.splitlines()]
    assert [row["code"] for row in rows] == ["HM1-N-AAAAAAB", "HM1-N-AAAAAGP", "HM1-N-AAAAAHL"]
    assert [row["verdict"] for row in rows] == ["winnable", "unwinnable", "unwinnable"]  # deals 1, 171, 193
    assert rows[1]["moves"] is None and rows[1]["cards"] is None


def test_solve_layout_file(tmp_path):
    path = tmp_path / "trap.json"
    path.write_text(json.dumps({"piles": [["5C", "6C"]], "reserve": ["5D", "6D"]}))
    result = run("solve", "--layout", str(path), "--json")
    data = json.loads(result.output)
    assert data["verdict"] == "winnable" and data["code"] is None and data["moves"][0] == "1+R1"


def test_solve_methods_and_limits():
    cpsat = json.loads(run("solve", "HM1-N-AAAAAAB", "--method", "cpsat", "--json").output)
    assert cpsat["method"] == "cpsat" and cpsat["verdict"] == "winnable"
    hard = json.loads(run("solve", "HM1-N-AAAAAAA", "--method", "search", "--time-limit", "0.05", "--json").output)
    assert hard["verdict"] == "unknown" and hard["method"] == "none"


def test_solve_errors_are_one_line_exit_3():
    result = run("solve", "HM1-N-AAAA1AB")
    assert result.exit_code == 3 and result.output.strip().count("\n") == 0 and "position 5" in result.output
    assert run("solve").exit_code == 2
    for bad in ("0", "-1", "nan", "inf"):
        assert run("solve", "HM1-N-AAAAAAB", "--time-limit", bad).exit_code == 2, bad


def test_a_batch_goes_on_past_a_bad_line_and_skips_comments():
    lines = "HM1-N-AAAAAAB\nbad\n# note\n\nHM1-N-AAAAAAC  # trailing comment\n"
    result = runner.invoke(main, ["solve", "-", "--json", "--no-cache"], input=lines)
    assert result.exit_code == 3
    rows = [json.loads(line) for line in result.stdout.splitlines()]
    assert [row.get("code") for row in rows] == ["HM1-N-AAAAAAB", None, "HM1-N-AAAAAAC"]
    error = rows[1]["error"]
    assert error["input"] == "bad" and error["line"] == 2 and error["kind"] == "invalid_input" and "bad" in error["message"]


def test_solve_a_range_of_deals_of_any_solitaire():
    result = run("solve", "--range", "0:3", "--game", "EL", "--json", "--no-cache")
    assert result.exit_code == 0, result.output
    rows = [json.loads(line) for line in result.output.splitlines()]
    assert [row["code"] for row in rows] == ["EL1-N-AAAAAAA", "EL1-N-AAAAAAB", "EL1-N-AAAAAAC"]
    assert {row["game"] for row in rows} == {"elevens"} and all(row["verdict"] != "unknown" for row in rows)
    assert run("solve", "--range", "0:3").exit_code == 2


def test_hint_json_and_text():
    result = run("hint", "HM1-N-AAAAAAB", "--moves", "4+10", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["verdict"] == "winnable" and data["played"] == 1 and data["best"]
    assert {row["verdict"] for row in data["moves"]} <= {"winnable", "unwinnable", "unknown"}
    assert any(row["move"] == data["best"] and row["verdict"] == "winnable" for row in data["moves"])
    text = run("hint", "HM1-N-AAAAAAB", "--moves", "4+10")
    assert "after 1 move: winnable" in text.output and "best move:" in text.output


def test_hint_on_a_layout_and_bad_moves(tmp_path):
    path = tmp_path / "trap.json"
    path.write_text(json.dumps({"piles": [["5C", "6C"]], "reserve": ["5D", "6D"]}))
    data = json.loads(run("hint", "--layout", str(path), "--json").output)
    assert {row["move"]: row["verdict"] for row in data["moves"]} == {"1+R1": "winnable", "R1+R2": "unwinnable"}
    bad = run("hint", "--layout", str(path), "--moves", "1+R2")
    assert bad.exit_code == 3 and "move 1" in bad.output


def test_ctrl_c_on_a_batch_exits_130_after_the_deals_already_printed():
    import signal
    import subprocess
    import sys
    import time

    # Deal 1 is quick, deal 62 takes CP-SAT minutes: interrupt during the second.
    process = subprocess.Popen(
        [sys.executable, "-m", "halfmoon", "solve", "HM1-N-AAAAAAB", "HM1-N-AAAAACK", "--method", "cpsat",
         "--no-cache", "--json"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )
    try:
        deadline = time.monotonic() + 60
        first = process.stdout.readline()  # blocks until deal 1 is printed
        assert json.loads(first)["code"] == "HM1-N-AAAAAAB" and time.monotonic() < deadline
        time.sleep(1.0)
        process.send_signal(signal.SIGINT)
        out, err = process.communicate(timeout=60)
    finally:
        if process.poll() is None:
            process.kill()
    assert process.returncode == 130, err
    assert err.strip() == "interrupted" and out.strip() == ""


def test_fair_hint_from_the_command_line():
    result = run("hint", "HM1-N-AAAAAAB", "--moves", "4+10", "--visible", "--samples", "4", "--seed", "2", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["sees"] == "what the player sees" and data["samples"] == 4 and data["seed"] == 2
    assert all(0 <= row["low"] <= row["high"] <= 1 for row in data["moves"])
    text = run("hint", "HM1-N-AAAAAAB", "--moves", "4+10", "--visible", "--samples", "4")
    assert "fair hint, from what a player sees (82 hidden cards, 4 arrangements sampled, seed 0)" in text.output
    assert "keeps the win in" in text.output and "95% interval" in text.output
    assert run("hint", "HM1-N-AAAAAAB", "--samples", "4").exit_code == 2  # --samples goes with --visible
    assert run("hint", "HM1-N-AAAAAAB", "--visible", "--samples", "0").exit_code == 2


def test_analyze_from_the_command_line():
    import halfmoon

    line = [str(move) for move in halfmoon.solve("HM1-N-AAAAAAD").moves]
    bad = [str(m.move) for m in halfmoon.hint("HM1-N-AAAAAAD", moves=line[:12]).moves if m.verdict.value == "unwinnable"]
    played = " ".join(line[:12] + bad[:1])
    data = json.loads(run("analyze", "HM1-N-AAAAAAD", "--moves", played, "--json").output)
    assert data["status"] == "lost" and data["lost_at"] == 13 and data["move"] == bad[0]
    text = run("analyze", "HM1-N-AAAAAAD", "--moves", played).output
    assert f"lost at move 13, {bad[0]}" in text and "moves that kept the win there:" in text
    won = run("analyze", "HM1-N-AAAAAAD", "--moves", " ".join(line))
    assert won.exit_code == 0 and "never lost" in won.output
    wrong = run("analyze", "HM1-N-AAAAAAD", "--moves", "1+2+3+4+5")
    assert wrong.exit_code == 3 and wrong.output.startswith("error:")


def test_ctrl_c_stops_an_endgame_whose_tests_run_on_threads():
    """The compiled tests run on worker threads, which Ctrl-C does not reach: the main thread
    stops them, and the command exits 130 at once."""
    import os
    import signal
    import subprocess
    import sys
    import time

    pytest.importorskip("halfmoon.solver.games.shithead._native")
    process = subprocess.Popen(
        [sys.executable, "-m", "halfmoon", "endgame", "shithead", "--code", "SH1-2-AAAAAAA", "--until", "endgame"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env={**os.environ, "HALFMOON_THREADS": "2"},
    )
    try:
        time.sleep(4.0)  # start-up, the play to the endgame, then the solve
        assert process.poll() is None
        process.send_signal(signal.SIGINT)
        sent = time.monotonic()
        out, err = process.communicate(timeout=30)
        stopped_after = time.monotonic() - sent
    finally:
        if process.poll() is None:
            process.kill()
    assert process.returncode == 130, err
    assert err.strip().endswith("interrupted") and stopped_after < 3.0
