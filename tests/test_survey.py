"""Surveys and curated generation on the toy solitaire (exact by brute force, milliseconds a deal)."""

from __future__ import annotations

import gc
import json
import tracemalloc

import pytest
from batch.test_runner import SerialSource
from support.toy_solitaire import KILLERS_ENV, TAG, ToyResult, toy_deal, toy_solve
from hypothesis import given, settings
from hypothesis import strategies as st

from halfmoon.dealcodes.codes import DEAL_COUNT
from halfmoon.solver.core.batch import LocalPool
from halfmoon.solver.errors import InputError
from halfmoon.solver.games.halfmoon.rules import Move, parse_line
from halfmoon.solver.rating import TIERS, RatingParams
from halfmoon.solver import catalogue
from halfmoon.solver.catalogue import GameInfo, solitaire
from halfmoon.solver.core.adapters import Solitaire
from halfmoon.solver.core.verdicts import Limits
from halfmoon.solver.store import open_store
from halfmoon.dealcodes import DealCodeError, parse_range, sample_numbers
from halfmoon.solver.survey import (
    run_generate,
    run_survey,

    wilson,
)


def brute_counts(numbers) -> dict[str, int]:
    counts = {"winnable": 0, "unwinnable": 0, "unknown": 0}
    for number in numbers:
        counts[toy_solve(toy_deal(number)).verdict] += 1
    return counts


def totals(summary: dict) -> tuple[int, int, int, int]:
    return summary["deals"], summary["winnable"], summary["unwinnable"], summary["unknown"]


# -- statistics -------------------------------------------------------------------------------


def test_wilson_matches_known_values():
    assert wilson(0, 0) == (0.0, 1.0)
    lo, hi = wilson(5, 10)
    assert lo == pytest.approx(0.236593, abs=1e-6) and hi == pytest.approx(0.763407, abs=1e-6)
    lo, hi = wilson(0, 50)
    assert lo == 0.0 and hi == pytest.approx(0.071348, abs=1e-6)
    with pytest.raises(InputError):
        wilson(11, 10)


@settings(deadline=None)
@given(st.integers(1, 10**6), st.data())
def test_wilson_contains_the_share_and_narrows_with_more_deals(trials, data):
    successes = data.draw(st.integers(0, trials))
    lo, hi = wilson(successes, trials)
    assert 0.0 <= lo <= successes / trials <= hi <= 1.0
    lo4, hi4 = wilson(4 * successes, 4 * trials)
    assert hi4 - lo4 <= hi - lo + 1e-12


def test_sample_numbers_are_distinct_reproducible_and_in_range():
    first = list(sample_numbers(7, 2000))
    assert first == list(sample_numbers(7, 2000)) and len(set(first)) == 2000
    assert all(0 <= n < DEAL_COUNT for n in first)
    assert list(sample_numbers(7, 10, skip=1990)) == first[1990:]
    assert first != list(sample_numbers(8, 2000))


def test_parse_range_and_its_errors():
    assert parse_range("10:20") == range(10, 20)
    for bad in ["10", "20:10", "a:b", f"0:{DEAL_COUNT + 1}"]:
        with pytest.raises(DealCodeError, match="range"):
            parse_range(bad)


# -- survey -----------------------------------------------------------------------------------


def test_survey_counts_match_brute_force_on_a_process_pool(tmp_path):
    expected = brute_counts(range(150))
    source = LocalPool(2)
    try:
        with open_store(tmp_path / "r.sqlite3") as store:
            summary = run_survey(solitaire(TAG), range(150), source, store=store).summary()
    finally:
        source.close()
    assert totals(summary) == (150, expected["winnable"], expected["unwinnable"], 0)
    assert summary["share"] == pytest.approx(expected["winnable"] / 150, abs=1e-6)
    assert summary["ci95"][0] < summary["share"] < summary["ci95"][1]
    assert summary["ci95_unknowns_both_ways"] == summary["ci95"]
    assert summary["cached"] == 0 and summary["solve_seconds"]["n"] == 150


def test_an_interrupted_survey_resumes_from_the_store_with_the_same_totals(tmp_path):
    numbers = range(100, 260)
    whole = run_survey(solitaire(TAG), numbers, SerialSource()).summary()

    class Interrupt(Exception):
        pass

    def stop_after_60(result, cached, stats):
        if stats.deals == 60:
            raise Interrupt

    with open_store(tmp_path / "r.sqlite3") as store:
        with pytest.raises(Interrupt):
            run_survey(solitaire(TAG), numbers, SerialSource(), store=store, on_result=stop_after_60)
    with open_store(tmp_path / "r.sqlite3") as store:
        assert store.count(TAG) == 60  # everything finished before the interrupt was kept
        resumed = run_survey(solitaire(TAG), numbers, SerialSource(), store=store).summary()
    assert totals(resumed) == totals(whole)
    assert resumed["cached"] == 60 and resumed["solved"] == 100


def test_unknowns_are_counted_apart_and_redone_with_a_bigger_budget(tmp_path):
    numbers = range(60)
    with open_store(tmp_path / "r.sqlite3") as store:
        tight = run_survey(solitaire(TAG), numbers, SerialSource(), store=store, limits=Limits(nodes=5)).summary()
        assert tight["unknown"] > 0
        lo, hi = tight["ci95_unknowns_both_ways"]
        assert lo <= tight["ci95"][0] and hi >= tight["ci95"][1]
        again = run_survey(solitaire(TAG), numbers, SerialSource(), store=store, limits=Limits(nodes=5)).summary()
        assert again["cached"] == 60 and totals(again) == totals(tight)
        full = run_survey(solitaire(TAG), numbers, SerialSource(), store=store).summary()
    expected = brute_counts(numbers)
    assert totals(full) == (60, expected["winnable"], expected["unwinnable"], 0)
    assert full["cached"] == 60 - tight["unknown"]


def _parity_entry() -> Solitaire:
    """A trivial game whose solves cost nothing, so the driver's own memory is what is measured."""

    def solve(position: int, method: str, limits: Limits, seed: int):
        winnable = position % 3 == 0
        return ToyResult("winnable" if winnable else "unwinnable", (Move.parse("1+2"),) if winnable else None,
                         "parity", 1, 0.001).found()

    def replay(position: int, moves):
        return position, tuple(moves)

    return Solitaire(
        tag="PY", name="parity", title="Parity", solver_version="p1", methods=("parity",), default_limits=Limits(),
        deal=lambda n: n, code=lambda n: f"PY1-N-{n}", position_from_json=int, position_to_json=lambda p: {"n": p},
        describe=lambda p, symbols=False, full=False: str(p), solve=solve,
        parse_line=lambda text: tuple(parse_line(text)), replay=replay, legal_moves=lambda p: [],
        apply=lambda p, m: p, is_won=lambda p: p % 3 == 0, is_dead=lambda p: p % 3 != 0, cards=lambda p, m: "",
    )


catalogue.register_solitaire(GameInfo("PY", "parity", "Parity", catalogue.SOLITAIRE, __name__, ("parity",)), _parity_entry)


def test_memory_stays_flat_as_the_number_of_deals_grows(tmp_path):
    def retained(count: int) -> tuple[int, int]:
        with open_store(tmp_path / f"m{count}.sqlite3") as store:
            gc.collect()
            tracemalloc.start()
            before = tracemalloc.get_traced_memory()[0]
            stats = run_survey(solitaire("PY"), range(count), SerialSource(record=False), store=store, lookahead=64)
            gc.collect()
            after, peak = tracemalloc.get_traced_memory()
            tracemalloc.stop()
        assert stats.deals == count and stats.winnable == (count + 2) // 3
        return after - before, peak - before

    (small_kept, small_peak), (large_kept, large_peak) = retained(100), retained(1000)
    assert large_kept < small_kept + 64 * 1024, (small_kept, large_kept)
    assert large_peak < small_peak + 128 * 1024, (small_peak, large_peak)


# -- generate ---------------------------------------------------------------------------------


def curated_lines(**kwargs) -> list[str]:
    return [json.dumps(c.to_json(), sort_keys=True) for c in run_generate(solitaire(TAG), range(400), 6, **kwargs)]


def test_generate_is_byte_for_byte_reproducible_with_any_workers_or_store(tmp_path):
    serial = curated_lines(source=SerialSource())
    pool = LocalPool(2)
    try:
        with open_store(tmp_path / "r.sqlite3") as store:
            pooled = curated_lines(source=pool, store=store)
            cached = curated_lines(source=pool, store=store)
    finally:
        pool.close()
    assert len(serial) == 6 and serial == pooled == cached


def test_every_generated_deal_is_winnable_by_an_independent_check_and_tiered():
    emitted = list(run_generate(solitaire(TAG), range(400), 8, SerialSource()))
    numbers = [c.number for c in emitted]
    assert numbers == sorted(numbers)
    for curated in emitted:
        assert toy_solve(toy_deal(curated.number)).verdict == "winnable"
        assert curated.rating.tier in TIERS and 0 <= curated.rating.score <= 100
    # The scan skipped exactly the deals that cannot be won before the last one emitted.
    expected = [n for n in range(numbers[-1] + 1) if toy_solve(toy_deal(n)).verdict == "winnable"]
    assert numbers == expected


def test_generate_filters_by_tier_and_rejects_unknown_tiers():
    quick = RatingParams(random_playouts=8, greedy_playouts=8)
    everything = list(run_generate(solitaire(TAG), range(150), 100, SerialSource(), params=quick))
    tiers = {c.rating.tier for c in everything}
    assert len(tiers) >= 2
    tier = sorted(tiers)[0]
    only = list(run_generate(solitaire(TAG), range(150), 100, SerialSource(), tier=tier, params=quick))
    assert [c.number for c in only] == [c.number for c in everything if c.rating.tier == tier]
    with pytest.raises(InputError, match="tier 'impossible'"):
        list(run_generate(solitaire(TAG), range(10), 1, SerialSource(), tier="impossible"))


def test_a_deal_that_kills_its_worker_is_reported_unknown_and_nothing_else_is_lost(tmp_path, monkeypatch):
    monkeypatch.setenv(KILLERS_ENV, "7")
    source = LocalPool(2)
    try:
        with open_store(tmp_path / "r.sqlite3") as store:
            summary = run_survey(solitaire(TAG), range(20), source, store=store).summary()
            row = store.get("TY1-N-7", "toy-1")
    finally:
        source.close()
    expected = brute_counts(n for n in range(20) if n != 7)
    assert summary["deals"] == 20 and summary["unknown"] == 1 and summary["errors"] == 1
    assert (summary["winnable"], summary["unwinnable"]) == (expected["winnable"], expected["unwinnable"])
    assert row.verdict == "unknown" and "worker died" in row.error


def test_a_damaged_or_stale_stored_rating_is_made_again(tmp_path):
    with open_store(tmp_path / "r.sqlite3") as store:
        first = curated_lines(source=SerialSource(), store=store)
        store._conn.execute("UPDATE ratings SET detail = replace(detail, '\"traps\":', '\"traps\":1')")
        store.flush()
        again = curated_lines(source=SerialSource(), store=store)
    assert again == first
