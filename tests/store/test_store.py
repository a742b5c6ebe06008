"""The results store: round trips, the trust rules across solver versions, concurrent writers."""

from __future__ import annotations

import multiprocessing
import sqlite3

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from halfmoon.solver.errors import StoreError
from halfmoon.solver.store import (
    DB_ENV,
    ResultStore,
    StoredRating,
    StoredResult,
    default_db_path,
    open_store,
)


def result(number: int = 7, verdict: str = "unwinnable", version: str = "v1", **extra) -> StoredResult:
    line = extra.pop("line", "1+2 3+4" if verdict == "winnable" else None)
    return StoredResult(f"HM1-N-{number:07d}", "HM", number, version, verdict, line, **extra)


results = st.builds(
    lambda number, verdict, version, nodes, seconds, tl, nl, err, line: StoredResult(
        f"HM1-N-{number}", "HM", number, version, verdict, line if verdict == "winnable" else None,
        "dfs", nodes, seconds, tl, nl, err,
    ),
    st.integers(0, 26**7 - 1),
    st.sampled_from(["winnable", "unwinnable", "unknown"]),
    st.text(min_size=1, max_size=8),
    st.integers(0, 2**62),
    st.floats(0, 1e6, allow_nan=False),
    st.none() | st.floats(0.01, 1e4, allow_nan=False),
    st.none() | st.integers(1, 2**40),
    st.none() | st.text(max_size=20),
    st.text(min_size=1, max_size=40),
)


@settings(deadline=None)
@given(results)
def test_result_json_round_trips(value):
    assert StoredResult.from_json(value.to_json()) == value


def test_result_store_round_trips(tmp_path):
    path = tmp_path / "r.sqlite3"
    with open_store(path) as store, open_store(path) as again:

        @settings(max_examples=60, deadline=None)
        @given(results)
        def round_trip(value):
            before = store.get(value.code, value.solver_version)
            store.put(value)
            store.flush()
            kept = before is not None and before.verdict != "unknown" and value.verdict == "unknown"
            expected = before if kept else value
            assert store.get(value.code, value.solver_version) == expected
            assert again.get(value.code, value.solver_version) == expected  # from the file, another connection

        round_trip()


def test_rating_round_trips(tmp_path):
    rating = StoredRating("HM1-N-AAAAAAB", "HM", 1, "v1", "1", 42.5, "medium", '{"score":42.5}', 0.25)
    assert StoredRating.from_json(rating.to_json()) == rating
    with open_store(tmp_path / "r.sqlite3") as store:
        store.put_rating(rating)
        assert store.get_rating("HM1-N-AAAAAAB", "v1", "1") == rating
        assert store.get_rating("HM1-N-AAAAAAB", "v2", "1") is None
        assert store.get_rating("HM1-N-AAAAAAB", "v1", "2") is None


def test_bad_values_are_refused():
    with pytest.raises(StoreError, match="verdict 'maybe'"):
        result(verdict="maybe")
    with pytest.raises(StoreError, match="winning line"):
        StoredResult("HM1-N-AAAAAAB", "HM", 1, "v1", "winnable", None)
    with pytest.raises(StoreError, match="winning line"):
        StoredResult("HM1-N-AAAAAAB", "HM", 1, "v1", "unwinnable", "1+2")


def test_a_new_solver_version_does_not_trust_old_unknowns_or_proofs(tmp_path):
    with open_store(tmp_path / "r.sqlite3") as store:
        store.put(result(1, "unknown", "v1", time_limit=10.0))
        store.put(result(2, "unwinnable", "v1"))
        store.put(result(3, "winnable", "v1"))
        # Same version: all three are usable.
        assert store.lookup(result(1).code, "v1", time_limit=10.0).verdict == "unknown"
        assert store.lookup(result(2).code, "v1").verdict == "unwinnable"
        # A new version trusts only the winning line (a certificate the caller replays).
        assert store.lookup(result(1).code, "v2", time_limit=10.0) is None
        assert store.lookup(result(2).code, "v2") is None
        assert store.lookup(result(3).code, "v2").verdict == "winnable"


def test_an_unknown_never_overwrites_an_exact_verdict_of_the_same_version(tmp_path):
    with open_store(tmp_path / "r.sqlite3") as store:
        assert store.put(result(1, "unwinnable", "v1")) is True
        assert store.put(result(1, "unknown", "v1", time_limit=0.1)) is False  # put says the decided row stayed
        assert store.put(result(1, "unknown", "v1", error="worker died")) is False
        assert store.get(result(1).code, "v1").verdict == "unwinnable"
        store.put(result(2, "unknown", "v1", time_limit=0.1))
        assert store.put(result(2, "winnable", "v1")) is True  # a proof replaces an unknown
        assert store.get(result(2).code, "v1").verdict == "winnable"
        store.put(result(3, "unknown", "v1", time_limit=1.0))
        store.put(result(3, "unknown", "v1", time_limit=5.0))  # a bigger budget's unknown replaces a smaller one
        assert store.get(result(3).code, "v1").time_limit == 5.0
        store.put(result(4, "unwinnable", "v1"))
        store.put(result(4, "unknown", "v2"))  # another version is another row
        assert store.get(result(4).code, "v1").verdict == "unwinnable"


def test_curation_state_says_which_deals_need_rating(tmp_path):
    with open_store(tmp_path / "r.sqlite3") as store:
        assert store.curation_state(result(1).code, "v1", "r1", 1000) is None  # nothing known
        store.put(result(1, "unwinnable", "v1"))
        assert store.curation_state(result(1).code, "v1", "r1", 1000) == "settled"
        store.put(result(2, "unknown", "v1", node_limit=5000))
        assert store.curation_state(result(2).code, "v1", "r1", 1000) == "settled"  # a bigger budget left it open
        assert store.curation_state(result(2).code, "v1", "r1", 9000) is None
        store.put(result(3, "unknown", "v1", time_limit=1.0))  # a timed run says nothing about a node budget
        assert store.curation_state(result(3).code, "v1", "r1", 1000) is None
        store.put(result(4, "unknown", "v1", error="worker died"))
        assert store.curation_state(result(4).code, "v1", "r1", 1000) is None
        store.put(result(5, "winnable", "v1"))
        assert store.curation_state(result(5).code, "v1", "r1", 1000) is None  # winnable but not rated yet
        store.put_rating(StoredRating(result(5).code, "HM", 5, "v1", "r1", 50.0, "medium", "{}"))
        assert store.curation_state(result(5).code, "v1", "r1", 1000) == "rated"
        assert store.curation_state(result(5).code, "v1", "r2", 1000) is None


def test_an_unknown_is_trusted_only_under_limits_it_covers(tmp_path):
    with open_store(tmp_path / "r.sqlite3") as store:
        store.put(result(1, "unknown", time_limit=10.0, node_limit=None))
        code = result(1).code
        assert store.lookup(code, "v1", time_limit=5.0) is not None
        assert store.lookup(code, "v1", time_limit=30.0) is None  # a bigger budget may decide it
        assert store.lookup(code, "v1", time_limit=None) is None  # no limit at all now
        assert store.lookup(code, "v1", time_limit=5.0, node_limit=1000) is not None
        store.put(result(2, "unknown", time_limit=None, node_limit=1000))
        assert store.lookup(result(2).code, "v1", time_limit=None, node_limit=1000) is not None
        assert store.lookup(result(2).code, "v1", time_limit=None, node_limit=5000) is None
        # An unknown that is really a crash report is never trusted.
        store.put(result(3, "unknown", error="worker died"))
        assert store.lookup(result(3).code, "v1") is None


def test_effort_and_hardest_first_hints(tmp_path):
    with open_store(tmp_path / "r.sqlite3") as store:
        for number, seconds in [(1, 0.5), (2, 9.0), (3, 2.0)]:
            store.put(result(number, "unknown", seconds=seconds))
        store.put(result(3, "unknown", "v2", seconds=4.0))
        assert store.effort(result(3).code) == 4.0
        assert store.effort("HM1-N-0000099") is None
        assert [n for n, _ in store.hardest("HM")] == [2, 3, 1]
        assert [n for n, _ in store.hardest("HM", range(1, 3))] == [2, 1]
        assert [(r.number, r.seconds) for r in store.results("HM", "v1", range(2, 10))] == [(2, 9.0), (3, 2.0)]


def test_default_path_follows_the_environment(monkeypatch, tmp_path):
    monkeypatch.setenv(DB_ENV, str(tmp_path / "mine.sqlite3"))
    assert default_db_path() == tmp_path / "mine.sqlite3"
    monkeypatch.delenv(DB_ENV)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    assert default_db_path() == tmp_path / "cache" / "halfmoon" / "results.sqlite3"


def test_a_store_of_another_schema_or_not_sqlite_is_a_clear_error(tmp_path):
    path = tmp_path / "r.sqlite3"
    open_store(path).close()
    with sqlite3.connect(path) as raw:
        raw.execute("UPDATE meta SET value = '99' WHERE key = 'schema'")
    with pytest.raises(StoreError, match="schema version 99"):
        open_store(path)
    junk = tmp_path / "junk.sqlite3"
    junk.write_bytes(b"this is not a database" * 100)
    with pytest.raises(StoreError, match="cannot open"):
        open_store(junk)


def test_wal_mode_and_writes_visible_only_after_flush(tmp_path):
    path = tmp_path / "r.sqlite3"
    with open_store(path) as writer, open_store(path) as reader:
        assert writer._conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        writer.flush_every = 1000
        writer.put(result(1))
        assert reader.get(result(1).code, "v1") is None
        writer.flush()
        assert reader.get(result(1).code, "v1") == result(1)


def _writer(path: str, worker: int, rows: int) -> None:
    store = ResultStore(path, flush_every=7)
    for i in range(rows):
        number = worker * 10_000 + i
        store.put(result(number, "winnable" if i % 2 else "unwinnable", seconds=float(i)))
    store.close()


def test_concurrent_writers_do_not_corrupt_the_store(tmp_path):
    path = str(tmp_path / "r.sqlite3")
    open_store(path).close()
    context = multiprocessing.get_context("fork")
    processes = [context.Process(target=_writer, args=(path, w, 150)) for w in range(4)]
    for process in processes:
        process.start()
    for process in processes:
        process.join(120)
        assert process.exitcode == 0
    with open_store(path) as store:
        assert store.integrity() == "ok"
        assert store.count("HM") == 600
        assert store.get(result(30_149).code, "v1").verdict == "winnable"


def test_a_read_only_store_answers_and_writes_nothing(tmp_path):
    path = tmp_path / "r.sqlite3"
    with open_store(path) as store:
        store.put(result(1, "unwinnable", "v1"))
    before = path.read_bytes()
    with open_store(path, readonly=True) as store:
        assert store.readonly and store.get(result(1).code, "v1").verdict == "unwinnable"
        assert store.lookup(result(1).code, "v1").verdict == "unwinnable"
        assert store.put(result(2, "unwinnable", "v1")) is False  # skipped, and says so
        store.put_rating(StoredRating(result(2).code, "HM", 2, "v1", "r1", 50.0, "medium", "{}"))
        assert store.get(result(2).code, "v1") is None and store.counts() == {"results": 1, "ratings": 0}
    assert path.read_bytes() == before
    with pytest.raises(StoreError, match="no such file"):
        open_store(tmp_path / "missing.sqlite3", readonly=True)


def test_pending_writes_are_committed_by_the_timer(tmp_path):
    with open_store(tmp_path / "r.sqlite3") as store:
        store.flush_seconds = 0.05
        store.put(result(1, "unwinnable", "v1"))
        other = open_store(tmp_path / "r.sqlite3", readonly=True)
        assert other.get(result(1).code, "v1") is None  # not committed yet
        store.flush_if_due()  # too soon: nothing happens
        import time

        time.sleep(0.06)
        store.flush_if_due()
        assert other.get(result(1).code, "v1") is not None
        other.close()
