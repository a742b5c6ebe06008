"""Difficulty rating: reproducible, exact measures (checked by brute force), monotone tiers."""

from __future__ import annotations

import pytest
from support.toy_solitaire import TAG, toy_deal, toy_solve
from hypothesis import given, settings
from hypothesis import strategies as st

from halfmoon.dealcodes.rng import SplitMix64
from halfmoon.solver.errors import InputError
from halfmoon.solver.rating import (
    TIER_CUTS,
    TIERS,
    Rating,
    RatingParams,
    playout,
    rate_line,
    rate_position,
    tier_of,
)
from halfmoon.solver.catalogue import solitaire as get_game

PARAMS = RatingParams(random_playouts=16, greedy_playouts=16)
WINNABLE = [n for n in range(80) if toy_solve(toy_deal(n)).verdict == "winnable"][:4]

measures = st.integers(1, 500).flatmap(
    lambda n: st.tuples(
        st.integers(0, n), st.just(n), st.integers(0, n), st.just(n),
        st.integers(1, 60).flatmap(lambda p: st.tuples(st.just(p), st.integers(0, p))),
        st.integers(1, 30).flatmap(lambda f: st.tuples(st.just(f), st.integers(0, f))),
        st.integers(0, 50), st.integers(1, 10**9), st.integers(2, 10**9),
    )
)


def build(m) -> Rating:
    rw, rn, gw, gn, (positions, traps), (first, losing), unresolved, nodes, cap = m
    return Rating(rw, rn, gw, gn, positions, traps, first, losing, unresolved, nodes, cap)


@settings(deadline=None)
@given(measures)
def test_rating_json_round_trips_and_score_is_bounded(m):
    rating = build(m)
    assert Rating.from_json(rating.to_json()) == rating
    assert 0 <= rating.score <= 100 and rating.tier == tier_of(rating.score)
    assert round(rating.score * 10) == rating.score * 10  # one decimal, exactly


def test_rating_json_that_does_not_follow_from_its_measures_is_refused():
    data = build((3, 10, 5, 10, (40, 4), (6, 1), 0, 5000, 10**6)).to_json()
    with pytest.raises(InputError, match="score"):
        Rating.from_json(data | {"score": data["score"] + 1})
    with pytest.raises(InputError, match="missing"):
        Rating.from_json({k: v for k, v in data.items() if k != "traps"})
    with pytest.raises(InputError, match="playout wins"):
        Rating(11, 10, 0, 10, 5, 0, 1, 0, 0, 1, 2)


@settings(deadline=None)
@given(st.floats(0, 100), st.floats(0, 100))
def test_tiers_are_monotone_in_the_score(a, b):
    low, high = sorted((a, b))
    assert TIERS.index(tier_of(low)) <= TIERS.index(tier_of(high))


def test_tier_cut_points_are_ordered_and_every_tier_is_reachable():
    assert list(TIER_CUTS) == sorted(TIER_CUTS)
    assert [tier_of(s) for s in (0.0, TIER_CUTS[0], TIER_CUTS[1], TIER_CUTS[2], 100.0)] == [
        "easy", "medium", "hard", "expert", "expert"
    ]


def test_a_harder_deal_scores_higher():
    easy = build((60, 64, 64, 64, (48, 2), (10, 0), 0, 100, 10**6))
    hard = build((0, 64, 1, 64, (48, 30), (10, 7), 0, 500_000, 10**6))
    assert easy.score < hard.score


def test_the_rating_is_reproducible_and_its_traps_are_real():
    entry = get_game(TAG)
    for number in WINNABLE:
        start = toy_deal(number)
        result, rating = rate_position(entry, start, number, PARAMS)
        again = rate_position(entry, start, number, PARAMS)[1]
        assert rating == again and rating.to_json() == again.to_json()
        # Recount the traps by brute force along the same line.
        traps, position = 0, start
        for move in result.line:
            children = [position.apply(m) for m in position.legal_moves() if m != move]
            traps += any(toy_solve(child).verdict == "unwinnable" for child in children)
            position = position.apply(move)
        assert rating.traps == traps and rating.positions == len(result.line)
        first = [toy_solve(start.apply(m)).verdict for m in start.legal_moves()]
        assert rating.first_moves == len(first) and rating.first_losing == first.count("unwinnable")


def test_playouts_follow_their_seed_and_win_only_by_the_rules():
    entry = get_game(TAG)
    start = toy_deal(WINNABLE[0])
    runs = [[playout(entry, start, SplitMix64(seed), greedy) for _ in range(20)] for seed in (1, 1)
            for greedy in (False,)]
    assert runs[0] == runs[1]
    unwinnable = next(toy_deal(n) for n in range(50) if toy_solve(toy_deal(n)).verdict == "unwinnable")
    assert not any(playout(entry, unwinnable, SplitMix64(s), g) for s in range(10) for g in (False, True))


def test_a_line_that_does_not_win_is_refused():
    entry = get_game(TAG)
    start = toy_deal(WINNABLE[0])
    line = toy_solve(start).moves
    with pytest.raises(InputError, match="does not win"):
        rate_line(entry, start, line[:-1], 10, 0, PARAMS)


def test_a_deal_not_winnable_within_the_budget_gets_no_rating():
    entry = get_game(TAG)
    result, rating = rate_position(entry, toy_deal(WINNABLE[0]), 0, RatingParams(solve_nodes=1))
    assert rating is None and result.verdict == "unknown"
