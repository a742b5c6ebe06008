"""The atlas file format: header, two-bit packing, journalled writes, merge rules, lookups, damage."""

from __future__ import annotations

import os
import signal
import struct
import threading
import time

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from halfmoon.dealcodes import DEAL_COUNT
from halfmoon.solver.atlas import format as format_module
from halfmoon.solver.atlas import Atlas, Header, Shard, ShardWriter, Unknown, merge_atlases
from halfmoon.solver.atlas.format import (
    HEADER_SIZE,
    KEEP,
    NOT_DONE,
    UNKNOWN,
    UNWINNABLE,
    WINNABLE,
    count_codes,
    data_digest,
    journal_path,
    merge_code_arrays,
    pack_codes,
    shard_name,
    sidecar_path,
    unpack_codes,
)
from halfmoon.solver.errors import AtlasConflictError, AtlasCorruptError, AtlasError

HM = "HM1-N"


def header(**changes):
    base = dict(game=HM, solver_version="hm-solver-3", shard_bits=24, first=1 << 24, count=1 << 24,
                counts=(5, 6, 7, 8), data_digest=bytes(range(32)))
    return Header(**(base | changes))


def unknown(number: int, seconds: float | None = 1.0, game: str = HM) -> Unknown:
    return Unknown(number, f"{game}-{number}", "time", seconds, None)


def write(directory, first_index: int, codes: dict[int, int], bits: int = 10, game: str = HM, version: str = "v1",
          count: int | None = None, unknown_seconds: float = 1.0) -> None:
    """A shard of `game` whose deals `codes` (number -> code) are set, through the writer."""
    first = first_index << bits
    count = count if count is not None else min(1 << bits, DEAL_COUNT - first)
    with ShardWriter(directory, game, bits, first_index, count, version, sync=False) as writer:
        if codes:
            lo, hi = min(codes), max(codes) + 1
            update = np.full(hi - lo, KEEP, dtype=np.uint8)
            for number, code in codes.items():
                update[number - lo] = code
            entries = [unknown(n, unknown_seconds, game) for n, c in sorted(codes.items()) if c == UNKNOWN]
            writer.update(lo, update, entries)


# -- header and packing -------------------------------------------------------------------------------


def test_the_header_round_trips_and_is_256_bytes():
    head = header()
    raw = head.pack()
    assert len(raw) == HEADER_SIZE and raw[:8] == b"HMATLAS\x00"
    assert Header.unpack(raw, "x") == head
    assert Header.unpack(raw, "x").to_json()["counts"] == {"not_done": 5, "winnable": 6, "unwinnable": 7, "unknown": 8}


def test_a_damaged_header_another_format_version_or_another_file_are_one_line_errors():
    raw = bytearray(header().pack())
    raw[100] ^= 1
    with pytest.raises(AtlasCorruptError, match="x: header checksum mismatch: the file is damaged"):
        Header.unpack(bytes(raw), "x")
    newer = bytearray(header().pack())
    newer[8:10] = struct.pack("<H", 2)
    with pytest.raises(AtlasError, match="x: atlas format version 2; this program reads version 1"):
        Header.unpack(bytes(newer), "x")
    with pytest.raises(AtlasError, match="x: not an atlas shard"):
        Header.unpack(b"SQLite format 3\x00" + bytes(300), "x")
    with pytest.raises(AtlasCorruptError, match="too short"):
        Header.unpack(b"HMATLAS", "x")


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(0, 3), min_size=1, max_size=70), st.integers(0, 9), st.data())
def test_two_bit_codes_pack_and_unpack_at_any_offset(codes, offset, data):
    count = offset + len(codes) + data.draw(st.integers(0, 9))
    buffer = bytearray((count + 3) // 4)
    before = data.draw(st.lists(st.integers(0, 3), min_size=count, max_size=count))
    pack_codes(buffer, 0, np.array(before, dtype=np.uint8))
    assert unpack_codes(buffer, 0, count).tolist() == before
    update = np.array(codes, dtype=np.uint8)
    keep = data.draw(st.lists(st.booleans(), min_size=len(codes), max_size=len(codes)))
    update[np.array(keep, dtype=bool)] = KEEP
    pack_codes(buffer, offset, update)
    after = list(before)
    for k, code in enumerate(codes):
        if not keep[k]:
            after[offset + k] = code
    assert unpack_codes(buffer, 0, count).tolist() == after
    assert count_codes(buffer, count) == tuple(after.count(c) for c in range(4))


def test_the_merge_rule_of_two_code_arrays():
    a = np.array([0, 0, 1, 1, 2, 3, 3, 3, 1, 2, 0, 3], dtype=np.uint8)
    b = np.array([0, 1, 0, 1, 2, 0, 1, 2, 3, 3, 3, 3], dtype=np.uint8)
    merged, conflicts = merge_code_arrays(a, b)
    assert merged.tolist() == [0, 1, 1, 1, 2, 3, 1, 2, 1, 2, 3, 3] and conflicts.tolist() == []
    _, conflicts = merge_code_arrays(np.array([1, 2, 1], dtype=np.uint8), np.array([2, 2, 3], dtype=np.uint8))
    assert conflicts.tolist() == [0]


# -- writing and reading shards -------------------------------------------------------------------------


def test_a_shard_written_in_commits_reads_back_with_its_sidecar(tmp_path):
    write(tmp_path, 1, {1024: WINNABLE, 1025: UNWINNABLE, 1030: UNKNOWN, 2047: UNKNOWN})
    path = tmp_path / shard_name(HM, 10, 1)
    assert path.stat().st_size == HEADER_SIZE + 256
    shard = Shard.read(path)
    assert shard.header.counts == (1020, 1, 1, 2) and shard.header.first == 1024 and shard.header.count == 1024
    assert shard.code(1024) == WINNABLE and shard.code(1025) == UNWINNABLE and shard.code(1026) == NOT_DONE
    assert sorted(shard.unknowns) == [1030, 2047] and shard.unknowns[2047] == unknown(2047)
    assert sidecar_path(path).read_text().splitlines()[0] == \
        '{"number":1030,"code":"HM1-N-1030","stopped":"time","time_limit":1.0,"node_limit":null}'
    # A later commit decides an unknown deal: its sidecar entry goes.
    with ShardWriter(tmp_path, HM, 10, 1, 1024, "v2", sync=False) as writer:
        writer.update(1030, np.array([WINNABLE], dtype=np.uint8))
    shard = Shard.read(path)
    assert shard.code(1030) == WINNABLE and sorted(shard.unknowns) == [2047] and shard.header.solver_version == "v1+v2"
    assert not journal_path(path).exists() and shard.problems() == []


def test_an_update_must_name_exactly_its_unknown_deals(tmp_path):
    with ShardWriter(tmp_path, HM, 10, 0, 1024, "v1", sync=False) as writer:
        with pytest.raises(AtlasError, match="inconsistently"):
            writer.update(0, np.array([UNKNOWN], dtype=np.uint8))
        with pytest.raises(AtlasError, match="outside the shard"):
            writer.update(1020, np.ones(10, dtype=np.uint8))


def test_a_write_killed_after_its_journal_is_finished_by_the_next_writer(tmp_path, monkeypatch):
    """A kill at any point of a commit: the journal is applied again, the bytes are those of an unbroken write."""
    reference = tmp_path / "ref"
    reference.mkdir()
    steps = [(0, [1, 2, 3, 1]), (100, [2, 2, 3]), (500, [1] * 40)]
    for start, codes in steps:
        with ShardWriter(reference, HM, 10, 0, 1024, "v1", sync=False) as writer:
            writer.update(start, np.array(codes, dtype=np.uint8), [unknown(start + k) for k, c in enumerate(codes) if c == 3])
    broken = tmp_path / "broken"
    broken.mkdir()
    original_pwrite = os.pwrite
    original_write = format_module._write_atomically
    # Where the commit dies: before the sidecar, before the data, in the data (torn), before the header,
    # in the header (torn).
    plans = [("sidecar", 1), ("raise", 1), ("tear", 1), ("raise", 2), ("tear", 2)]
    for kind, at in plans:
        for start, codes in steps:
            calls = {"pwrite": 0, "write": 0}

            def dying_pwrite(fd, data, offset, _kind=kind, _at=at, _calls=calls):
                _calls["pwrite"] += 1
                if _kind != "sidecar" and _calls["pwrite"] == _at:
                    if _kind == "tear":
                        original_pwrite(fd, data[: len(data) // 2], offset)
                    raise KeyboardInterrupt
                return original_pwrite(fd, data, offset)

            def dying_write(path, content, sync, _kind=kind, _calls=calls):
                _calls["write"] += 1
                if _kind == "sidecar" and _calls["write"] == 2:  # the first is the journal itself
                    raise KeyboardInterrupt
                return original_write(path, content, sync)

            writer = ShardWriter(broken, HM, 10, 0, 1024, "v1", sync=False)
            monkeypatch.setattr(os, "pwrite", dying_pwrite)
            monkeypatch.setattr(format_module, "_write_atomically", dying_write)
            try:
                writer.update(start, np.array(codes, dtype=np.uint8),
                              [unknown(start + k) for k, c in enumerate(codes) if c == 3])
            except KeyboardInterrupt:
                assert journal_path(broken / shard_name(HM, 10, 0)).exists()
            monkeypatch.setattr(os, "pwrite", original_pwrite)
            monkeypatch.setattr(format_module, "_write_atomically", original_write)
            writer.close()
            ShardWriter(broken, HM, 10, 0, 1024, "v1", sync=False).close()  # resumes: applies the journal
        assert (broken / shard_name(HM, 10, 0)).read_bytes() == (reference / shard_name(HM, 10, 0)).read_bytes()
        assert sidecar_path(broken / shard_name(HM, 10, 0)).read_bytes() == \
            sidecar_path(reference / shard_name(HM, 10, 0)).read_bytes()
        assert Shard.read(broken / shard_name(HM, 10, 0)).problems() == []


def test_a_damaged_journal_is_a_clear_error(tmp_path):
    write(tmp_path, 0, {3: WINNABLE})
    journal_path(tmp_path / shard_name(HM, 10, 0)).write_bytes(b'{"format":1}\n\x01')
    with pytest.raises(AtlasCorruptError, match="damaged journal"):
        ShardWriter(tmp_path, HM, 10, 0, 1024, "v1", sync=False)


def test_a_damaged_shard_is_detected_by_its_checksum(tmp_path):
    write(tmp_path, 0, {3: WINNABLE, 7: UNKNOWN})
    path = tmp_path / shard_name(HM, 10, 0)
    raw = bytearray(path.read_bytes())
    raw[HEADER_SIZE + 100] = 0b01
    path.write_bytes(bytes(raw))
    with pytest.raises(AtlasCorruptError, match=r"HM1-N\.s10\.0000000\.atlas: data checksum mismatch: the file is damaged"):
        Shard.read(path)
    with pytest.raises(AtlasCorruptError, match="data checksum mismatch"):
        ShardWriter(tmp_path, HM, 10, 0, 1024, "v1", sync=False)
    assert path.read_bytes() == bytes(raw)  # nothing overwritten
    raw[HEADER_SIZE + 100] = 0
    path.write_bytes(bytes(raw))
    sidecar_path(path).write_text(sidecar_path(path).read_text().replace('"time"', '"nodes"'))
    assert "checksum mismatch with its shard's header" in Shard.read(path, check=False).problems()[0]


# -- lookups ------------------------------------------------------------------------------------------------


def test_lookups_at_shard_boundaries_and_the_last_half_moon_deal(tmp_path):
    last = DEAL_COUNT - 1  # 8,031,810,175
    last_index = last >> 10
    write(tmp_path, 0, {0: WINNABLE, 1023: UNWINNABLE})
    write(tmp_path, 1, {1024: UNKNOWN, 2047: WINNABLE})
    write(tmp_path, last_index, {last_index << 10: UNWINNABLE, last: WINNABLE})
    with Atlas(tmp_path) as atlas:
        assert [atlas.cell(HM, n).code for n in (0, 1, 1022, 1023, 1024, 1025, 2047, 2048)] == \
            [WINNABLE, NOT_DONE, NOT_DONE, UNWINNABLE, UNKNOWN, NOT_DONE, WINNABLE, NOT_DONE]
        assert atlas.cell(HM, 2048).header is None  # no shard there: not done
        tail = atlas.cell(HM, last)
        assert tail.code == WINNABLE and tail.header.count == DEAL_COUNT - (last_index << 10) == 640
        assert atlas.cell(HM, last_index << 10).code == UNWINNABLE and atlas.cell(HM, last - 1).code == NOT_DONE
    assert (tmp_path / shard_name(HM, 10, last_index)).stat().st_size == HEADER_SIZE + 160


def test_an_atlas_of_mixed_shard_sizes_or_a_missing_directory_is_refused(tmp_path):
    with pytest.raises(AtlasError, match="no such directory"):
        Atlas(tmp_path / "nowhere")
    (tmp_path / "file").write_text("x")
    with pytest.raises(AtlasError, match="not a directory"):
        Atlas(tmp_path / "file")
    write(tmp_path, 0, {1: WINNABLE})
    write(tmp_path, 0, {1: WINNABLE}, bits=11)
    with pytest.raises(AtlasError, match="shards of two sizes"):
        Atlas(tmp_path)


# -- merging -----------------------------------------------------------------------------------------------


def test_merge_rules_exact_beats_unknown_done_beats_not_done(tmp_path):
    a, b, out = tmp_path / "a", tmp_path / "b", tmp_path / "out"
    a.mkdir(), b.mkdir()
    write(a, 0, {1: WINNABLE, 2: UNKNOWN, 3: UNKNOWN, 4: UNWINNABLE, 5: UNKNOWN}, version="v1", unknown_seconds=10.0)
    write(b, 0, {2: UNWINNABLE, 3: UNKNOWN, 5: WINNABLE, 6: WINNABLE, 4: UNWINNABLE}, version="v2",
          unknown_seconds=60.0)
    write(b, 1, {1500: UNKNOWN}, version="v2")
    report = merge_atlases(out, [a, b], sync=False)
    assert report.shards == 2 and report.added == 7 and report.decided == 0
    merged = Shard.read(out / shard_name(HM, 10, 0))
    assert [merged.code(n) for n in range(8)] == [NOT_DONE, WINNABLE, UNWINNABLE, UNKNOWN, UNWINNABLE, WINNABLE,
                                                  WINNABLE, NOT_DONE]
    assert merged.unknowns == {3: unknown(3, 60.0)}  # of two unknowns, the one that reached further
    assert merged.header.solver_version == "v1+v2" and merged.problems() == []
    assert Shard.read(out / shard_name(HM, 10, 1)).unknowns == {1500: unknown(1500)}
    # Merging into an existing atlas: an unknown there is made exact.
    c = tmp_path / "c"
    c.mkdir()
    write(c, 0, {3: WINNABLE}, version="v3")
    again = merge_atlases(out, [c], sync=False)
    assert again.decided == 1 and again.changed == 1
    assert Shard.read(out / shard_name(HM, 10, 0)).code(3) == WINNABLE
    assert Shard.read(out / shard_name(HM, 10, 0)).unknowns == {}


def test_a_merge_conflict_stops_before_anything_is_written(tmp_path):
    a, b, out = tmp_path / "a", tmp_path / "b", tmp_path / "out"
    a.mkdir(), b.mkdir(), out.mkdir()
    write(out, 0, {9: UNKNOWN})
    write(a, 0, {1: WINNABLE, 9: WINNABLE})
    write(b, 0, {1: WINNABLE})
    write(b, 1, {1100: UNWINNABLE, 1101: UNWINNABLE})
    write(a, 1, {1100: WINNABLE, 1101: WINNABLE})
    before = {p.name: p.read_bytes() for p in out.iterdir()}
    with pytest.raises(AtlasConflictError, match=r"deal 1100: winnable in .*/a/HM1-N.s10.0000001.atlas but unwinnable in .*/b/HM1-N.s10.0000001.atlas \(2 conflicting "
                                                 r"deals in this shard\): the merge stopped and wrote nothing"):
        merge_atlases(out, [a, b], sync=False)
    assert {p.name: p.read_bytes() for p in out.iterdir() if p.name != ".atlas.lock"} == before


def test_a_merge_refuses_another_game_or_shard_size(tmp_path):
    a, b, out = tmp_path / "a", tmp_path / "b", tmp_path / "out"
    a.mkdir(), b.mkdir()
    write(a, 0, {1: WINNABLE})
    write(b, 0, {1: WINNABLE}, game="EL1-N")
    with pytest.raises(AtlasError, match="holds no HM1-N shards"):
        merge_atlases(out, [a, b], sync=False)
    c = tmp_path / "c"
    c.mkdir()
    write(c, 0, {1: WINNABLE}, bits=11)
    with pytest.raises(AtlasError, match="shards of 2\\^11 deals"):
        merge_atlases(out, [a, c], sync=False)
    assert not out.exists() or not any(out.glob("*.atlas"))


def test_digest_covers_the_data():
    assert data_digest(b"\x00" * 4) != data_digest(b"\x00" * 3 + b"\x01")


def test_a_stop_during_a_commit_acts_after_it_even_when_another_thread_takes_the_signal():
    """The kernel may hand a process's SIGTERM to any thread (a worker pool's); the commit still
    runs to its end, and the stop acts right after it (a flaky CI run left a journal behind)."""
    class Stop(Exception):
        pass

    def stop(signum: int, frame: object) -> None:
        raise Stop

    ready, sent = threading.Event(), threading.Event()

    def sender() -> None:  # a thread started before the commit: it does not block the signal
        ready.wait(5)
        os.kill(os.getpid(), signal.SIGTERM)
        sent.set()

    previous = signal.signal(signal.SIGTERM, stop)
    finished = False
    try:
        thread = threading.Thread(target=sender)
        thread.start()
        with pytest.raises(Stop):
            with format_module._signals_deferred():
                ready.set()
                assert sent.wait(5)
                time.sleep(0.05)  # the interpreter checks for pending signals here
                finished = True
        thread.join(5)
    finally:
        signal.signal(signal.SIGTERM, previous)
    assert finished
