"""`halfmoon survey` and `halfmoon generate` from the command line, on the toy solitaire."""

from __future__ import annotations

import json

import pytest
from support.toy_solitaire import DELAY_ENV, TAG, toy_deal, toy_solve
from click.testing import CliRunner

from halfmoon.cli.main import main


def run(*args: str):
    return CliRunner().invoke(main, list(args))


def test_survey_json_ends_with_the_summary_and_resumes_from_the_store(tmp_path):
    db = str(tmp_path / "r.sqlite3")
    result = run("survey", "--game", TAG.lower(), "--range", "0:40", "--workers", "2", "--db", db, "--json", "--each")
    assert result.exit_code == 0, result.output
    lines = [json.loads(line) for line in result.output.splitlines()]
    summary = lines[-1]
    assert len(lines) == 41 and {row["number"] for row in lines[:-1]} == set(range(40))
    expected = sum(toy_solve(toy_deal(n)).verdict == "winnable" for n in range(40))
    assert summary["deals"] == 40 and summary["winnable"] == expected
    assert summary["unwinnable"] == 40 - expected and summary["unknown"] == 0
    assert isinstance(summary["winnable"], int) and len(summary["ci95"]) == 2 and summary["range"] == [0, 40]
    again = json.loads(run("survey", "--game", TAG, "--deals", "40", "--db", db, "--json").output)
    assert again["cached"] == 40 and again["winnable"] == expected


def test_survey_text_sample_and_plot(tmp_path):
    plot = tmp_path / "times.svg"
    result = run("survey", "--game", TAG, "--deals", "30", "--sample", "5", "--no-cache", "--workers", "1",
                 "--plot", str(plot))
    assert result.exit_code == 0, result.output
    assert "survey of 30 deals" in result.output and "95% CI" in result.output
    assert plot.read_text().startswith("<svg") and "solve time" in plot.read_text()


def test_generate_json_lines_are_reproducible_and_verified(tmp_path):
    args = ("generate", "--game", TAG, "--count", "3", "--json", "--no-cache")
    first = run(*args, "--workers", "1")
    second = run(*args, "--workers", "2")
    assert first.exit_code == 0, first.output
    assert first.output == second.output
    rows = [json.loads(line) for line in first.output.splitlines()]
    assert len(rows) == 3 and all({"code", "tier", "score", "line"} <= row.keys() for row in rows)
    assert all(toy_solve(toy_deal(row["number"])).verdict == "winnable" for row in rows)
    later = run("generate", "--game", TAG, "--count", "1", "--json", "--no-cache", "--start", str(rows[1]["number"] + 1))
    assert json.loads(later.output)["number"] == rows[2]["number"]
    table = run("generate", "--game", TAG, "--count", "2", "--db", str(tmp_path / "r.sqlite3"), "--seed", "3")
    assert table.exit_code == 0 and table.output.splitlines()[0].split()[:3] == ["code", "tier", "score"]


def test_bad_input_is_one_line_and_exit_3_or_2():
    for args in (
        ("survey", "--game", "XX", "--deals", "3", "--no-cache"),
        ("survey", "--game", TAG, "--range", "9:3", "--no-cache"),
        ("generate", "--game", TAG, "--count", "1", "--start", "HM1-N-AAAA1AA", "--no-cache"),
    ):
        result = run(*args)
        assert result.exit_code == 3, (args, result.output)
        assert result.output.count("\n") == 1 and "Traceback" not in result.output
    assert run("generate", "--count", "1", "--tier", "brutal").exit_code == 2
    assert run("survey", "--range", "0:5", "--sample", "1").exit_code == 2
    assert run("survey", "--range", "0:5", "--deals", "4").exit_code == 2


@pytest.mark.slow  # two fresh CLI processes: their start-up (importing OR-Tools) dominates
def test_ctrl_c_then_the_same_command_resumes_with_the_same_totals(tmp_path):
    """A real interrupt: SIGINT to a running `halfmoon survey`, then the same command again."""
    import os
    import signal
    import subprocess
    import sys
    import time

    from halfmoon.solver.store import open_store

    launcher = ("import sys; sys.path.insert(0, %r); import support.toy_solitaire; from halfmoon.cli.main import main; "
                "main(sys.argv[1:], prog_name='halfmoon')") % os.path.dirname(os.path.abspath(__file__))
    db = str(tmp_path / "r.sqlite3")
    args = [sys.executable, "-c", launcher, "survey", "--game", TAG, "--range", "0:800", "--workers", "1",
            "--db", db, "--json"]
    slow = os.environ | {DELAY_ENV: "0.01"}  # 800 toy deals take a second: slow them so Ctrl-C lands mid-way
    process = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=slow)
    deadline = time.monotonic() + 120
    stored = 0
    while time.monotonic() < deadline and process.poll() is None:
        time.sleep(0.2)
        try:
            with open_store(db) as store:
                stored = store.count(TAG)
        except Exception:
            continue
        if stored >= 100:
            break
    assert process.poll() is None, "the survey ended before it could be interrupted"
    process.send_signal(signal.SIGINT)
    out, err = process.communicate(timeout=120)
    assert process.returncode == 130 and "interrupted" in err
    with open_store(db) as store:
        kept = store.count(TAG)
    assert 100 <= kept < 800
    resumed = subprocess.run(args, capture_output=True, text=True, timeout=600, env=slow)
    assert resumed.returncode == 0, resumed.stderr
    summary = json.loads(resumed.stdout.splitlines()[-1])
    winnable = sum(toy_solve(toy_deal(n)).verdict == "winnable" for n in range(800))
    assert [summary[k] for k in ("deals", "winnable", "unwinnable", "unknown")] == [800, winnable, 800 - winnable, 0]
    assert summary["cached"] >= kept
