"""`halfmoon atlas build|lookup|stats|verify|merge` and `halfmoon solve --atlas`, from the command line."""

from __future__ import annotations

import json
import os
import signal
import struct
import subprocess
import sys
import time
import zlib
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

import halfmoon
from halfmoon.cli.main import main
from halfmoon.dealcodes import DEAL_COUNT
from halfmoon.solver.atlas import ShardWriter, check_atlas
from halfmoon.solver.atlas.format import HEADER_SIZE, WINNABLE, shard_name
from halfmoon.solver.games.halfmoon.adapter import ADAPTER
from support.atlas_helpers import expected_code, files

runner = CliRunner()
TOY = ["--game", "TY", "--node-limit", "60", "--shard-bits", "10", "--chunk", "128", "--workers", "1", "--quiet"]


def run(*args: str, env: dict[str, str] | None = None):
    return runner.invoke(main, list(args), env=env)


def one_line_error(result, text: str, code: int = 3) -> None:
    assert result.exit_code == code, result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and text in lines[0], result.output


@pytest.fixture(scope="module")
def toy_atlas(tmp_path_factory):
    directory = tmp_path_factory.mktemp("cli") / "toy"
    result = run("atlas", "build", "--range", "1000:1300", "--out", str(directory), *TOY, "--json")
    assert result.exit_code == 0, result.output
    return directory, json.loads(result.output)


@pytest.fixture(scope="module")
def hm_atlas(tmp_path_factory):
    """Half Moon deals 16-19 (18 is unwinnable) and the last four deals of the 26^7 range, in 2^10 shards."""
    directory = tmp_path_factory.mktemp("cli") / "hm"
    for numbers in ("16:20", f"{DEAL_COUNT - 4}:{DEAL_COUNT}"):
        result = run("atlas", "build", "--range", numbers, "--out", str(directory), "--shard-bits", "10",
                     "--workers", "1", "--quiet")
        assert result.exit_code == 0, result.output
    return directory


def test_build_prints_what_it_did(toy_atlas):
    _, data = toy_atlas
    assert data["todo"] == data["solved"] == 300 and data["game"] == "TY1-N" and data["chunk"] == 128
    assert data["winnable"] + data["unwinnable"] + data["unknown"] == 300 and data["deals_per_second"] > 0
    assert data["cpu_ms_per_deal"] > 0 and data["shard_bits"] == 10 and data["node_limit"] == 60


def test_stats_and_lists(toy_atlas):
    directory, built = toy_atlas
    result = run("atlas", "stats", str(directory), "--json")
    assert result.exit_code == 0, result.output
    stats = json.loads(result.output)
    assert (stats["winnable"], stats["unwinnable"], stats["unknown"]) == (built["winnable"], built["unwinnable"],
                                                                          built["unknown"])
    listed = run("atlas", "stats", str(directory), "--range", "1000:1100", "--list", "unwinnable")
    assert listed.exit_code == 0, listed.output
    numbers = [int(line) for line in listed.output.splitlines() if line.strip().isdigit()]
    assert numbers == [n for n in range(1000, 1100) if expected_code(n) == 2]
    assert "winnable share" in listed.output and "95% CI" in listed.output
    unknowns = run("atlas", "stats", str(directory), "--list", "unknown", "--json").output.splitlines()[1:]
    assert len(unknowns) == built["unknown"]
    assert json.loads(unknowns[0])["stopped"] == "nodes" and json.loads(unknowns[0])["node_limit"] == 60


def test_lookup_by_number_and_through_the_environment(toy_atlas):
    directory, _ = toy_atlas
    unknown = next(n for n in range(1000, 1300) if expected_code(n) == 3)
    result = run("atlas", "lookup", "1001", str(unknown), "5000", "--game", "TY", "--atlas", str(directory), "--json")
    assert result.exit_code == 0, result.output
    first, second, third = map(json.loads, result.output.splitlines())
    assert first["verdict"] == ["winnable", "unwinnable", "unknown"][expected_code(1001) - 1]
    assert first["source"] == "atlas" and first["done"] and first["number"] == 1001
    assert second["verdict"] == "unknown" and second["unknown"]["node_limit"] == 60
    assert third["verdict"] is None and third["done"] is False
    text = run("atlas", "lookup", "5000", "--game", "TY", env={"HALFMOON_ATLAS": str(directory)})
    assert text.exit_code == 0 and text.output.strip() == "TY1-N-5000: not in the atlas"


def test_verify_and_merge(toy_atlas, tmp_path):
    directory, _ = toy_atlas
    result = run("atlas", "verify", str(directory), "--sample", "30", "--node-limit", "100000", "--workers", "1",
                 "--quiet", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["ok"] and data["sample"] == data["agreed"] == 30 and data["problems"] == []
    second = tmp_path / "second"
    assert run("atlas", "build", "--range", "1300:1400", "--out", str(second), *TOY).exit_code == 0
    merged = run("atlas", "merge", str(tmp_path / "all"), str(directory), str(second), "--json")
    assert merged.exit_code == 0, merged.output
    assert json.loads(merged.output)["added"] == 400
    stats = json.loads(run("atlas", "stats", str(tmp_path / "all"), "--json").output)
    assert stats["done"] == 400


def test_a_damaged_shard_fails_verify_with_exit_3(toy_atlas, tmp_path):
    directory, _ = toy_atlas
    copy = tmp_path / "copy"
    copy.mkdir()
    for name, content in files(directory).items():
        (copy / name).write_bytes(content)
    path = copy / shard_name("TY1-N", 10, 1)
    raw = bytearray(path.read_bytes())
    raw[HEADER_SIZE + 3] ^= 0b11
    path.write_bytes(bytes(raw))
    result = run("atlas", "verify", str(copy))
    assert result.exit_code == 3, result.output
    assert "TY1-N.s10.0000001.atlas: data checksum mismatch: the file is damaged" in result.output
    resumed = run("atlas", "build", "--range", "1000:1300", "--out", str(copy), *TOY)
    one_line_error(resumed, "data checksum mismatch: the file is damaged")
    assert path.read_bytes() == bytes(raw)


def test_bad_inputs_are_one_line_errors_and_nothing_is_overwritten(toy_atlas, tmp_path):
    directory, _ = toy_atlas
    before = files(directory)
    one_line_error(run("atlas", "build", "--range", "7:3", "--out", str(directory), *TOY), "the start must be below")
    one_line_error(run("atlas", "build", "--range", f"0:{DEAL_COUNT + 1}", "--out", str(directory), *TOY),
                   "the end may be at most")
    one_line_error(run("atlas", "stats", str(tmp_path / "missing")), "no such directory")
    one_line_error(run("atlas", "lookup", "HM1-N-AAAAAAB", "--atlas", str(tmp_path / "missing")), "no such directory")
    one_line_error(run("atlas", "verify", str(tmp_path / "missing"), "--sample", "3"), "no such directory")
    one_line_error(run("atlas", "lookup", "HM1-N-AAAAAAB", "--atlas", str(directory)), "holds no HM1-N shards")
    one_line_error(run("atlas", "lookup", "HM1-N-AAAAAA", "--atlas", str(directory)), "payload 'AAAAAA'")
    one_line_error(run("atlas", "build", "--range", "0:10", "--out", str(directory), "--game", "TY", "--shard-bits", "12"),
                   "shards hold 2^10 deals, not 2^12")
    one_line_error(run("atlas", "build", "--range", "0:10", "--out", str(tmp_path / "a" / "b"), *TOY),
                   "does not exist")
    assert files(directory) == before
    # A shard of another format version (a well-formed header saying version 2): refused, left alone.
    newer = tmp_path / "newer"
    newer.mkdir()
    for name, content in before.items():
        (newer / name).write_bytes(content)
    path = newer / shard_name("TY1-N", 10, 1)
    raw = bytearray(path.read_bytes())
    raw[8:10] = struct.pack("<H", 2)
    raw[252:256] = struct.pack("<I", zlib.crc32(bytes(raw[:252])))
    path.write_bytes(bytes(raw))
    for args in (["atlas", "build", "--range", "1000:1300", "--out", str(newer), *TOY],
                 ["atlas", "lookup", "1100", "--game", "TY", "--atlas", str(newer)],
                 ["atlas", "stats", str(newer)]):
        one_line_error(run(*args), "atlas format version 2; this program reads version 1")
    assert path.read_bytes() == bytes(raw)
    # A shard of another game under a Half Moon name: refused by its header.
    other = tmp_path / "other"
    other.mkdir()
    (other / shard_name("HM1-N", 10, 1)).write_bytes(before[shard_name("TY1-N", 10, 1)])
    one_line_error(run("atlas", "lookup", "1100", "--atlas", str(other)), "its header names another shard")


def test_lookup_of_half_moon_codes_at_the_ends_of_the_range(hm_atlas):
    result = run("atlas", "lookup", "HM1-N-AAAAAAS", "16", "hm1-n-zzzzzzz", str(DEAL_COUNT - 4), str(DEAL_COUNT - 5),
                 "--atlas", str(hm_atlas), "--json")
    assert result.exit_code == 0, result.output
    answers = [json.loads(line) for line in result.output.splitlines()]
    assert [a["code"] for a in answers] == ["HM1-N-AAAAAAS", "HM1-N-AAAAAAQ", "HM1-N-ZZZZZZZ", "HM1-N-ZZZZZZW",
                                            "HM1-N-ZZZZZZV"]
    assert answers[0]["verdict"] == "unwinnable" and answers[1]["verdict"] == "winnable"
    assert answers[2]["verdict"] in ("winnable", "unwinnable") and answers[2]["shard"] == "HM1-N.s10.7843564.atlas"
    assert answers[3]["done"] and not answers[4]["done"]
    for answer in answers[:4]:  # the atlas agrees with the solver
        assert halfmoon.solve(answer["code"]).verdict.value == answer["verdict"]


def test_solve_answers_from_the_atlas_and_still_solves_a_winning_line(hm_atlas):
    verdict_only = run("solve", "HM1-N-AAAAAAQ", "HM1-N-AAAAAAS", "HM1-N-AAAAABA", "--atlas", str(hm_atlas),
                       "--verdict-only", "--json")
    assert verdict_only.exit_code == 0, verdict_only.output
    won, lost, elsewhere = map(json.loads, verdict_only.output.splitlines())
    assert won["verdict"] == "winnable" and won["source"] == "atlas" and won["moves"] is None and won["cached"]
    assert won["method"] == "atlas" and won["nodes"] == 0
    assert lost["verdict"] == "unwinnable" and lost["source"] == "atlas"
    assert elsewhere["source"] == "solver" and elsewhere["moves"] is None  # not in the atlas: solved, verdict only
    line = run("solve", "HM1-N-AAAAAAQ", "HM1-N-AAAAAAS", "--json", env={"HALFMOON_ATLAS": str(hm_atlas)})
    won, lost = map(json.loads, line.output.splitlines())
    assert won["source"] == "solver" and ADAPTER.line_wins(16, " ".join(won["moves"]))  # solved on demand, replayed
    assert lost["source"] == "atlas" and lost["verdict"] == "unwinnable"
    text = run("solve", "HM1-N-AAAAAAS", "--atlas", str(hm_atlas))
    assert text.output.strip() == f"HM1-N-AAAAAAS: unwinnable (from the atlas, solver {ADAPTER.solver_version})"
    starved = run("solve", "HM1-N-AAAAAAQ", "--atlas", str(hm_atlas), "--time-limit", "0.000001", "--no-cache",
                  "--json")
    data = json.loads(starved.output)
    assert data["verdict"] == "winnable" and data["source"] == "atlas" and data["moves"] is None and data["stopped"]


def test_an_atlas_that_contradicts_the_solver_is_a_bug_never_an_answer(tmp_path):
    with ShardWriter(tmp_path, "HM1-N", 10, 0, 1024, "planted", sync=False) as writer:
        writer.update(18, np.array([WINNABLE], dtype=np.uint8))  # deal 18 is unwinnable
    result = run("solve", "HM1-N-AAAAAAS", "--atlas", str(tmp_path), "--no-cache")
    assert result.exit_code == 1 and "the atlas (HM1-N.s10.0000000.atlas) says winnable, the solver unwinnable" \
        in result.output


def test_facade_lookup_and_solve(hm_atlas):
    entry = halfmoon.atlas.lookup("HM1-N-AAAAAAS", hm_atlas)
    assert entry.verdict is halfmoon.Verdict.UNWINNABLE and entry.solver_version == ADAPTER.solver_version
    assert halfmoon.atlas.lookup(DEAL_COUNT - 1, hm_atlas).number == DEAL_COUNT - 1
    result = halfmoon.solve("HM1-N-AAAAAAS", atlas=hm_atlas)
    assert result.source == "atlas" and result.cached and result.verdict is halfmoon.Verdict.UNWINNABLE
    assert halfmoon.atlas.stats(hm_atlas).to_json()["done"] == 8
    assert list(halfmoon.atlas.numbers(hm_atlas, "unwinnable", numbers="0:100")) == [18]


def test_build_stops_cleanly_on_sigterm_and_resumes(tmp_path):
    out = tmp_path / "t"
    # The Python engine and a range far longer than the wait: the build cannot end before the signal.
    command = [sys.executable, "-m", "halfmoon", "atlas", "build", "--range", "0:20000", "--out", str(out),
               "--shard-bits", "15", "--chunk", "4", "--workers", "1", "--node-limit", "20000", "--method", "search"]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               env=os.environ | {"HALFMOON_ENGINE": "python"})
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if (out / shard_name("HM1-N", 15, 0)).exists() and \
                    halfmoon.atlas.stats(out).done >= 8:
                break
            time.sleep(0.05)
        process.send_signal(signal.SIGTERM)
        _, err = process.communicate(timeout=60)
    finally:
        if process.poll() is None:
            process.kill()
    assert process.returncode == 130, err
    assert "stopped: what was committed is in" in err and "Traceback" not in err
    assert check_atlas(out)[2] == []
    done = halfmoon.atlas.stats(out).done
    assert 8 <= done < 20000
    before = halfmoon.atlas.stats(out, numbers="0:40").done
    resumed = run("atlas", "build", "--range", "0:40", "--out", str(out), "--node-limit", "20000", "--method",
                  "search", "--workers", "1", "--json")
    assert resumed.exit_code == 0, resumed.output
    data = json.loads(resumed.output)
    assert data["solved"] == 40 - before and data["skipped"] == before
    assert halfmoon.atlas.stats(out, numbers="0:40").done == 40


HOLD_LOCK = """
import sys, time
from pathlib import Path
from halfmoon.solver.atlas.format import writing
with writing(Path(sys.argv[1])):
    print("held", flush=True)
    time.sleep(30)
"""


def test_a_second_writer_in_another_process_is_refused(tmp_path):
    holder = subprocess.Popen([sys.executable, "-c", HOLD_LOCK, str(tmp_path)], stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
        result = run("atlas", "build", "--range", "1000:1010", "--out", str(tmp_path), *TOY)
        one_line_error(result, "another atlas build or merge is writing here")
    finally:
        holder.kill()
        holder.wait()
    assert run("atlas", "build", "--range", "1000:1010", "--out", str(tmp_path), *TOY).exit_code == 0
