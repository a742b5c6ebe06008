"""kill -9 of a survey or a generate: no worker left behind, nothing printed lost, and the run resumes.

Results are committed on a timer (the store's commit window, 2 s) while the workers solve, not
only when the next result arrives, so whatever a run printed more than the window before it was
killed is in the store; the workers die with their parent (PR_SET_PDEATHSIG).
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from support.live_server import alive, descendants

import halfmoon

ROOT = Path(__file__).resolve().parents[2]
WINDOW = 2.0  # the store's commit window (ResultStore.flush_seconds)


def _start(args: list[str], out: Path) -> subprocess.Popen[bytes]:
    return subprocess.Popen([sys.executable, "-m", "halfmoon", *args], cwd=ROOT, stdout=out.open("wb"),
                            stderr=subprocess.DEVNULL)


def _kill_when(proc: subprocess.Popen[bytes], out: Path, lines: int, after: float = 0.0, limit: float = 120
               ) -> tuple[set[int], float, list[float]]:
    """SIGKILL `proc` once `out` holds `lines` lines, the first of them `after` seconds old: its process
    family, the kill time, and when each line was first seen (polled every 20 ms)."""
    deadline = time.monotonic() + limit
    seen: list[float] = []
    while len(seen) < lines or time.monotonic() - seen[0] < after:
        assert proc.poll() is None and time.monotonic() < deadline, "the run ended or stalled before the kill"
        count = out.read_bytes().count(b"\n")
        seen += [time.monotonic()] * (count - len(seen))
        time.sleep(0.02)
    family = {proc.pid} | descendants(proc.pid)
    os.kill(proc.pid, signal.SIGKILL)
    killed = time.monotonic()
    count = out.read_bytes().count(b"\n")
    return family, killed, seen + [killed] * (count - len(seen))


def _no_process_left(family: set[int], seconds: float = 5.0) -> None:
    deadline = time.monotonic() + seconds
    while alive(family) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not alive(family), f"left behind: {alive(family)}"


def test_kill_9_of_a_survey_loses_nothing_printed_and_leaves_no_worker(tmp_path):
    db, out = tmp_path / "s.sqlite3", tmp_path / "each.jsonl"
    args = ["survey", "--range", "0:400", "--workers", "2", "--db", str(db), "--each", "--json", "--quiet",
            "--time-limit", "20", "--engine", "python"]  # the Python search: slow enough to be killed mid-run
    proc = _start(args, out)
    family, killed, seen = _kill_when(proc, out, 20, after=2 * WINDOW + 1)
    assert len(family) >= 3  # the survey and its two workers
    proc.wait(10)
    time.sleep(WINDOW + 1.0)  # the kill left a transaction open at most: the file stays consistent
    _no_process_left(family)
    printed = [json.loads(line)["code"] for line in out.read_text().splitlines()]
    with halfmoon.service.open_store(db, readonly=True) as store:
        stored = {row.code for row in store.all_results()}
        assert store.integrity() == "ok"
    # Everything printed more than the commit window (plus the idle tick) before the kill is on disk.
    durable = [code for code, when in zip(printed, seen) if when < killed - WINDOW - 0.6]
    assert durable and set(durable) <= stored, (len(durable), len(stored))
    resumed = subprocess.run([sys.executable, "-m", "halfmoon", "survey", "--range", "0:40", "--workers", "2", "--db",
                              str(db), "--json", "--quiet", "--time-limit", "20", "--engine", "python"], cwd=ROOT,
                             capture_output=True,
                             text=True, timeout=300)
    assert resumed.returncode == 0, resumed.stderr
    summary = json.loads(resumed.stdout.splitlines()[-1])
    assert summary["deals"] == 40 and summary["cached"] >= min(40, len(stored & {halfmoon.code(n) for n in range(40)}))


def test_results_printed_before_a_quiet_spell_are_committed_by_the_timer(tmp_path):
    """The last deal is slow (a hard one for the Python search): what was printed before it must reach the
    store while it runs."""
    db, out = tmp_path / "s.sqlite3", tmp_path / "each.jsonl"
    hard = halfmoon.service.parse_code("HM1-N-AAAAACK").number
    proc = _start(["survey", "--range", f"{hard - 6}:{hard + 1}", "--workers", "1", "--db", str(db), "--each",
                   "--json", "--quiet", "--time-limit", "60", "--engine", "python"], out)
    try:
        deadline = time.monotonic() + 120
        while out.read_bytes().count(b"\n") < 6:  # the six easy deals before the hard one
            assert proc.poll() is None and time.monotonic() < deadline
            time.sleep(0.05)
        time.sleep(WINDOW + 1.5)  # more than the commit window with no new result
        with halfmoon.service.open_store(db, readonly=True) as store:
            assert store.counts()["results"] >= 6
        family = {proc.pid} | descendants(proc.pid)
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(10)
        _no_process_left(family)
    finally:
        if proc.poll() is None:
            proc.kill()


def test_kill_9_of_generate_leaves_no_worker(tmp_path):
    out = tmp_path / "gen.jsonl"
    proc = _start(["generate", "--count", "200", "--workers", "2", "--db", str(tmp_path / "g.sqlite3"), "--json",
                   "--quiet", "--engine", "python"], out)
    try:
        deadline = time.monotonic() + 60
        while len(descendants(proc.pid)) < 2:  # the workers are up
            assert proc.poll() is None and time.monotonic() < deadline
            time.sleep(0.1)
        time.sleep(1.0)
        family = {proc.pid} | descendants(proc.pid)
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(10)
        _no_process_left(family)
    finally:
        if proc.poll() is None:
            proc.kill()
