"""Half Moon search knowledge: each reduction fires where it should and only there; search,
CP-SAT and brute force agree on small layouts (hand-made and generated)."""

from __future__ import annotations

import pytest
from support.hm_brute import brute_winnable, layout
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from halfmoon.dealcodes import Card
from halfmoon.solver.core.solitaire import solve_solitaire
from halfmoon.solver.core.verdicts import Verdict
from halfmoon.solver.games.halfmoon.cpsat import solve_cpsat
from halfmoon.solver.games.halfmoon.rules import Position, replay
from halfmoon.solver.games.halfmoon.search import (
    ClassSolver,
    HalfMoonSearch,
    abstract_line,
    concretize,
    search_budgets,
)


def search(position: Position, **options) -> Verdict:
    state = HalfMoonSearch(position, **options)
    result = solve_solitaire(state, budgets=search_budgets(dive=3, first=5), unsalted_runs=2)
    if result.verdict is Verdict.WINNABLE:
        assert replay(position, list(concretize(position, result.line))).position.is_won
    return result.verdict


# -- SAFE_CLEAR -----------------------------------------------------------------------------


def test_safe_clear_fires_when_every_card_of_a_class_is_playable():
    position = layout(["9C 5S", "2D 6H"], "5D 6D")
    state = HalfMoonSearch(position)
    moves = state.ordered_moves()
    assert len(moves) == 1 and sorted(moves[0]) == [-6, -5, 0, 1]
    assert state.stats["clear"] == 1


def test_safe_clear_does_not_fire_when_a_class_card_is_covered():
    # The greedy trap: 5 and 6 free, a pile holding 6 above 5 (the 5 is covered).
    position = layout(["5C 6C"], "5D 6D")
    state = HalfMoonSearch(position)
    moves = state.ordered_moves()
    assert state.stats["clear"] == 0 and state.stats["free_partners"] == 0
    assert (-5, -6) not in moves or len(moves) > 1
    assert search(position) is Verdict.WINNABLE and brute_winnable(position)


# -- FREE_PARTNERS --------------------------------------------------------------------------


def test_unequal_counts_are_lost_at_once():
    state = HalfMoonSearch(layout(["5C", "6D"], "6C"))
    assert state.is_dead() and state.ordered_moves() == []


def test_free_partners_fires_when_every_partner_is_free():
    position = layout(["5C 2H 5S", "7D 4C 9C"], "6C 6D")
    state = HalfMoonSearch(position)
    moves = state.ordered_moves()
    assert moves == [(0, -6)] and state.stats["free_partners"] == 1


def test_free_partners_for_faces_needs_both_other_ranks_free():
    fires = HalfMoonSearch(layout(["JC 9H JS", "2S"], "QC KD QD KH"))
    assert fires.ordered_moves() == [(0, -12, -13)] and fires.stats["free_partners"] == 1
    holds = HalfMoonSearch(layout(["JC 9H JS", "KD 2C"], "QC QD KH 9S"))
    holds.ordered_moves()
    assert holds.stats["free_partners"] == 0


def test_free_partners_does_not_fire_when_a_partner_is_covered():
    position = layout(["5C 2H 5S", "6H 7C 9C"], "6C 4D")
    state = HalfMoonSearch(position)
    state.ordered_moves()
    assert state.stats["free_partners"] == 0 and state.stats["clear"] == 0


# -- COMMIT ---------------------------------------------------------------------------------


def test_commit_branches_only_on_the_card_whose_partners_are_all_playable():
    position = layout(["5C 5S", "9C 6H", "9D 6D", "2C", "2D"])
    state = HalfMoonSearch(position, projection=False)
    moves = state.ordered_moves()
    assert sorted(moves) == [(0, 1), (0, 2)] and state.stats["commit"] == 1


def test_commit_does_not_fire_when_a_partner_is_buried_elsewhere():
    position = layout(["5C 5S", "9C 6H", "6D 9D", "2S 2H"])
    state = HalfMoonSearch(position, projection=False)
    moves = state.ordered_moves()
    assert state.stats["commit"] == 0 and state.stats["branch"] == 1
    assert sorted(moves) == [(0, 1), (3, 2)]


def test_commit_finds_a_card_that_can_never_go():
    # Both 6s lie under the 5 that needs one: no move can ever remove that 5.
    position = layout(["6C 6D 5S", "7H KD", "4H", "JS QS"], "5C")
    state = HalfMoonSearch(position, projection=False)
    assert state.ordered_moves() == [] and state.stats["commit_dead"] == 1


# -- PROJECTION -----------------------------------------------------------------------------


def test_projection_finds_a_class_that_cannot_be_cleared_alone():
    # Each 6 sits on the only 5 that could take the other 6: 5/6 alone is stuck, whatever
    # the other cards do.
    position = layout(["5C KH 6S", "5D QH 6D", "JS"])
    state = HalfMoonSearch(position)
    assert state.is_dead() and state.stats["proj_dead"] == 1
    assert search(position) is Verdict.UNWINNABLE and not brute_winnable(position)


def test_projection_does_not_fire_when_the_class_alone_can_be_cleared():
    position = layout(["5C KH 6S", "6D QH 5D", "JS"])
    state = HalfMoonSearch(position)
    assert not state.is_dead()
    assert search(position) is Verdict.WINNABLE and brute_winnable(position)


def test_class_solver_sees_only_its_class():
    piles = [(5, 13, 6), (5, 12, 6)]
    solver = ClassSolver(piles, 5)
    assert solver.seqs == [(1, 0), (1, 0)] or solver.seqs == [(0, 1), (0, 1)]
    assert not solver.winnable_from([3, 3], [0] * 14, 2)
    assert ClassSolver([(5, 13, 6), (6, 12, 5)], 5).winnable_from([3, 3], [0] * 14, 2)


# -- keys and lines -------------------------------------------------------------------------


def test_free_cards_are_interchangeable_by_rank_in_the_key():
    a = HalfMoonSearch(layout(["5C", "9D 2C"], "6D KH"))
    b = HalfMoonSearch(layout(["6S", "9D 2C"], "KC 5H"))
    c = HalfMoonSearch(layout(["6S", "9D 2C"], "KC 4H"))
    assert a.key() == b.key() != c.key()


def test_make_unmake_restores_key_and_counts():
    position = Position.from_code("HM1-N-AAAAAAB")
    state = HalfMoonSearch(position)
    before = (state.key(), list(state.h), list(state.free), list(state.rank_left), list(state.class_left))
    played = []
    for _ in range(20):
        moves = state.ordered_moves()
        if not moves:
            break
        state.make(moves[-1])
        played.append(moves[-1])
    for move in reversed(played):
        state.unmake(move)
    assert (state.key(), state.h, state.free, state.rank_left, state.class_left) == before


def test_abstract_and_concrete_lines_round_trip():
    position = layout(["5C 6C", "JD", "QD"], "5D 6D KS")
    moves = replay(position, "1+R1 1+R2 2+3+R3").moves
    line = abstract_line(position, moves)
    assert line == [(0, -5), (-5, -6), (-11, -12, -13)]  # the last card of a pile is free
    assert replay(position, list(concretize(position, line))).position.is_won


# -- agreement on small layouts ------------------------------------------------------------

HAND_MADE = [
    (["5C 6C"], "5D 6D"),  # the greedy trap: winnable
    (["6C 5C", "6D 5D"], ""),  # each 5 above its only reachable... winnable across piles
    (["5C 6S", "5D 6D"], ""),  # both 6 on top of the 5s: stuck
    (["JC QC KC"], ""),  # a triple in one pile: never playable together
    (["JC QD", "KC QC", "JD KD"], ""),
    (["AC TC", "TD AD"], "AS TS"),
    (["2C 9C 3C", "8D 9D 2D"], "8C 3D"),
    (["KH 5S JC", "6D QS"], "6C 5D"),
    (["4C 7C 4D", "7D"], ""),
    (["JC KC QC", "QD JD KD"], "JS QS KS"),
]


@pytest.mark.parametrize("piles, reserve", HAND_MADE)
def test_hand_made_layouts_agree_with_brute_force(piles, reserve):
    position = layout(piles, reserve)
    expected = Verdict.WINNABLE if brute_winnable(position) else Verdict.UNWINNABLE
    assert search(position) is expected
    assert search(position, reductions=False, projection=False) is expected
    cpsat = solve_cpsat(position)
    assert cpsat.verdict is expected
    if expected is Verdict.WINNABLE:
        assert replay(position, list(cpsat.moves)).position.is_won


PAIR_CARDS = [(r, 11 - r) for r in range(1, 6)]


@st.composite
def small_layouts(draw) -> Position:
    """2-5 groups (pairs or a J/Q/K triple), sometimes one card short, dealt at random."""
    groups = draw(st.integers(1, 5))
    ranks: list[int] = []
    for _ in range(groups):
        if draw(st.integers(0, 5)) == 0:
            ranks += [11, 12, 13]
        else:
            ranks += list(PAIR_CARDS[draw(st.integers(0, 4))])
    if draw(st.integers(0, 6)) == 0 and len(ranks) > 2:
        ranks.pop(draw(st.integers(0, len(ranks) - 1)))
    ranks = draw(st.permutations(ranks))
    npiles = draw(st.integers(1, 4))
    nslots = draw(st.integers(0, 3))
    cards = [Card(rank, suit % 4) for suit, rank in enumerate(ranks)]
    piles: list[list[Card]] = [[] for _ in range(npiles)]
    reserve: list[Card | None] = [None] * nslots
    for card in cards:
        spot = draw(st.integers(0, npiles + nslots - 1))
        if spot >= npiles and reserve[spot - npiles] is None:
            reserve[spot - npiles] = card
        else:
            piles[spot % npiles].append(card)
    return Position(tuple(map(tuple, piles)), tuple(reserve))


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(small_layouts())
def test_generated_layouts_agree_with_brute_force(position):
    expected = Verdict.WINNABLE if brute_winnable(position) else Verdict.UNWINNABLE
    assert search(position) is expected
    assert search(position, reductions=False, projection=False) is expected
    cpsat = solve_cpsat(position)
    assert cpsat.verdict is expected
    if expected is Verdict.WINNABLE:
        assert replay(position, list(cpsat.moves)).position.is_won


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(small_layouts())
def test_reversing_every_pile_keeps_the_verdict(position):
    from halfmoon.solver.games.halfmoon.portfolio import reverse_position

    assert brute_winnable(position) == brute_winnable(reverse_position(position))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(small_layouts())
def test_class_projection_solver_matches_brute_force_on_each_class(position):
    state = HalfMoonSearch(position)
    if not state.balanced:
        return
    for cls in range(6):
        if not state.class_left[cls]:
            continue
        solver = ClassSolver(state.ranks, cls)
        left = state.rank_left[solver.class_ranks[0]]
        assert solver.winnable_from(state.h, state.free, left) == brute_winnable(state.projected(cls))
