"""Building an atlas: every verdict right, interrupted and killed builds resume to the same bytes,
the re-decide pass, dying workers, verify and stats (on the toy solitaire, in 2^10-deal shards)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import numpy as np
import pytest

from support.atlas_helpers import BITS, GAME, NODES, RANGE, build, expected_code, files
from support.toy_solitaire import KILLERS_ENV, TAG
from halfmoon.solver.atlas import Shard, ShardWriter, atlas_numbers, atlas_stats, check_atlas, verify_atlas
from halfmoon.solver.atlas.format import KEEP, UNKNOWN, WINNABLE, shard_name
from halfmoon.solver.catalogue import solitaire
from halfmoon.solver.core.batch import LocalPool
from halfmoon.solver.core.verdicts import Limits
from halfmoon.solver.errors import AtlasError

TESTS = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def reference(tmp_path_factory):
    """One uninterrupted build of RANGE, the yardstick of the other tests."""
    directory = tmp_path_factory.mktemp("atlas") / "ref"
    report = build(directory)
    return directory, report


def test_every_verdict_is_the_solvers_and_the_counts_add_up(reference):
    directory, report = reference
    assert report.todo == report.solved == len(RANGE) and report.skipped == 0 and not report.interrupted
    assert sorted(files(directory)) == [f"{GAME}.s10.000000{k}.{ext}" for k in range(3) for ext in ("atlas", "unknown.jsonl")]
    for k in range(3):
        shard = Shard.read(directory / shard_name(GAME, BITS, k))
        lo, hi = max(RANGE.start, shard.first), min(RANGE.stop, shard.stop)
        assert shard.codes(lo, hi).tolist() == [expected_code(n) for n in range(lo, hi)]
        assert not shard.codes(shard.first, lo).any() and not shard.codes(hi, shard.stop).any()
        for number, entry in shard.unknowns.items():
            assert entry.stopped == "nodes" and entry.node_limit == NODES and entry.code == f"TY1-N-{number}"
    stats = atlas_stats(directory).to_json()
    assert stats["done"] == len(RANGE) == report.winnable + report.unwinnable + report.unknown
    assert (stats["winnable"], stats["unwinnable"], stats["unknown"]) == (report.winnable, report.unwinnable,
                                                                          report.unknown)
    assert report.unknown > 50 and report.winnable > 50
    assert stats["not_done"] == 3 * 1024 - len(RANGE) and stats["capacity"] == 3 * 1024
    lo, hi = stats["ci95"]
    assert lo < stats["share"] < hi
    unwinnable = list(atlas_numbers(directory, "unwinnable", numbers=range(1000, 1100)))
    assert unwinnable == [n for n in range(1000, 1100) if expected_code(n) == 2]
    assert check_atlas(directory) == (GAME, 3, [])


def test_a_build_run_again_solves_nothing(reference, tmp_path):
    directory, _ = reference
    copy = tmp_path / "copy"
    copy.mkdir()
    for name, content in files(directory).items():
        (copy / name).write_bytes(content)
    again = build(copy)
    assert again.todo == 0 and again.solved == 0 and again.skipped == len(RANGE)
    assert files(copy) == files(directory)


def test_an_interrupted_build_resumes_to_the_same_bytes(reference, tmp_path):
    directory, _ = reference
    commits = {"n": 0}

    def stop_after_three(report):
        commits["n"] += 1
        if commits["n"] == 3:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        build(tmp_path / "a", on_progress=stop_after_three)
    partial = atlas_stats(tmp_path / "a").to_json()
    assert 0 < partial["done"] < len(RANGE)
    resumed = build(tmp_path / "a")
    assert resumed.solved == len(RANGE) - partial["done"] and resumed.skipped == partial["done"]
    assert files(tmp_path / "a") == files(directory)


def test_a_build_killed_between_journal_and_shard_resumes_to_the_same_bytes(reference, tmp_path, monkeypatch):
    directory, _ = reference
    original = ShardWriter._apply
    calls = {"n": 0}

    def crash(self, *args):
        calls["n"] += 1
        if calls["n"] == 4:
            raise KeyboardInterrupt  # as a kill right after the journal was written
        return original(self, *args)

    monkeypatch.setattr(ShardWriter, "_apply", crash)
    with pytest.raises(KeyboardInterrupt):
        build(tmp_path / "b")
    monkeypatch.setattr(ShardWriter, "_apply", original)
    assert any(name.endswith(".journal") for name in os.listdir(tmp_path / "b"))
    assert any("interrupted write is pending" in p for p in check_atlas(tmp_path / "b")[2])
    build(tmp_path / "b")
    assert files(tmp_path / "b") == files(directory)


KILLED_BUILD = textwrap.dedent("""
    import sys
    sys.path.insert(0, {tests!r})
    from support.atlas_helpers import build
    build(__import__("pathlib").Path({out!r}), on_progress=lambda report: print(report.chunks, flush=True))
""")


def test_a_build_killed_with_sigkill_resumes_to_the_same_bytes(reference, tmp_path):
    directory, _ = reference
    out = tmp_path / "killed"
    script = KILLED_BUILD.format(tests=str(TESTS), out=str(out))
    env = os.environ | {"PYTHONPATH": str(TESTS)}
    process = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True, env=env)
    try:
        assert process.stdout is not None
        line = process.stdout.readline()  # the first chunk is committed
        assert line.strip() == "1", line
        time.sleep(0.05)
        os.kill(process.pid, signal.SIGKILL)
    finally:
        process.wait(timeout=60)
    assert process.returncode == -signal.SIGKILL
    assert 0 < atlas_stats(out).done < len(RANGE)
    build(out)
    assert files(out) == files(directory)


def test_the_redecide_pass_decides_unknowns_with_longer_limits(reference, tmp_path):
    directory, first = reference
    out = tmp_path / "r"
    out.mkdir()
    for name, content in files(directory).items():
        (out / name).write_bytes(content)
    again = build(out, nodes=100_000, redecide=True)
    assert again.redecide and again.todo == again.solved == first.unknown and again.unknown == 0
    stats = atlas_stats(out)
    assert stats.unknown == 0 and stats.done == len(RANGE)
    assert list(atlas_numbers(out, "winnable")) == [n for n in RANGE if expected_code(n, 100_000) == 1]
    assert all(not Shard.read(path).unknowns for path in out.glob("*.atlas"))
    # A pass with the same short limits leaves the unknowns unknown (and their entries) as they were.
    still = tmp_path / "s"
    still.mkdir()
    for name, content in files(directory).items():
        (still / name).write_bytes(content)
    same = build(still, redecide=True)
    assert same.unknown == first.unknown and files(still) == files(directory)


def test_a_deal_that_kills_its_worker_is_unknown_with_the_reason_and_the_rest_is_decided(tmp_path, monkeypatch):
    killer = 1030
    monkeypatch.setenv(KILLERS_ENV, str(killer))
    pool = LocalPool(2)
    try:
        report = build(tmp_path / "k", numbers=range(1000, 1100), nodes=10_000, source=pool, chunk=32)
    finally:
        pool.close()
    shard = Shard.read(tmp_path / "k" / shard_name(GAME, BITS, 1))
    assert report.errors == 1 and report.solved == 100
    assert shard.code(killer) == UNKNOWN and shard.unknowns[killer].stopped == "error"
    assert "worker died (after 3 attempts)" in shard.unknowns[killer].error
    decided = [n for n in range(1024, 1100) if n != killer]
    assert shard.codes(1024, 1100).tolist() == [UNKNOWN if n == killer else expected_code(n, 10_000)
                                                for n in range(1024, 1100)]
    assert len(decided) == 75


def test_bad_requests_are_one_line_errors_and_overwrite_nothing(reference, tmp_path):
    directory, _ = reference
    before = files(directory)
    with pytest.raises(AtlasError, match="shards hold 2\\^10 deals, not 2\\^12"):
        build(directory, shard_bits=12)
    with pytest.raises(AtlasError, match="expected deal numbers"):
        build(directory, numbers=range(5, 5))
    with pytest.raises(AtlasError, match="parent directory .* does not exist"):
        build(tmp_path / "no" / "such")
    with pytest.raises(AtlasError, match="chunk 100: expected a power of two"):
        build(tmp_path / "c", chunk=100)
    other = directory / shard_name(GAME, BITS, 1)
    with pytest.raises(AtlasError, match="another atlas build or merge is writing here"):
        from halfmoon.solver.atlas.format import writing

        with writing(directory):
            build(directory)
    assert files(directory) == before and other.exists()


def test_verify_agrees_with_a_sound_atlas_and_finds_a_planted_error(reference, tmp_path):
    directory, _ = reference
    game = solitaire(TAG)
    sound = verify_atlas(game, directory, _serial(), sample=40, seed=3, limits=Limits(nodes=100_000))
    assert sound.ok and sound.sample == 40 and sound.agreed == 40 and sound.methods == ("dfs",)
    assert verify_atlas(game, directory, _serial(), sample=40, seed=3, limits=Limits(nodes=100_000)).to_json() | \
        {"seconds": 0} == sound.to_json() | {"seconds": 0}  # the same sample for the same seed
    planted = tmp_path / "p"
    planted.mkdir()
    for name, content in files(directory).items():
        (planted / name).write_bytes(content)
    wrong = next(n for n in range(1024, 2048) if expected_code(n) == 2)  # an unwinnable deal marked winnable
    with ShardWriter(planted, GAME, BITS, 1, 1024, "toy-1", sync=False) as writer:
        writer.update(wrong, np.array([WINNABLE], dtype=np.uint8))
    report = verify_atlas(game, planted, _serial(), sample=len(RANGE), seed=0, limits=Limits(nodes=100_000))
    assert not report.ok and [d["number"] for d in report.disagreements] == [wrong]
    assert report.disagreements[0]["atlas"] == "winnable" and report.disagreements[0]["dfs"] == "unwinnable"


def _serial():
    from batch.test_runner import SerialSource

    return SerialSource()


def test_keep_marks_leave_deals_alone(tmp_path):
    with ShardWriter(tmp_path, GAME, BITS, 0, 1024, "toy-1", sync=False) as writer:
        writer.update(0, np.array([1, KEEP, 2], dtype=np.uint8))
        assert writer.codes(0, 3).tolist() == [1, 0, 2]
