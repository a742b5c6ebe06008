"""Fair hints (`halfmoon.fair_hint`): answers from what a player sees, by sampling the hidden cards."""

from __future__ import annotations

from collections import Counter

import pytest
from support.hm_brute import brute_winnable, layout
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_halfmoon_search import small_layouts

import halfmoon
from halfmoon.dealcodes import Card
from halfmoon.dealcodes.rng import SplitMix64
from halfmoon.solver import catalogue
from halfmoon.solver.core.verdicts import Verdict
from halfmoon.solver.games.halfmoon.rules import Position
from halfmoon.solver.results import Tally

HM = catalogue.solitaire("HM")


def seen(solitaire, position):
    """What a player sees of a position, and the cards on the table as a multiset (so the cards removed)."""
    return solitaire.conceal(position)[0], Counter(map(str, position.all_cards()))


# -- the sampled arrangements are consistent with what is visible ---------------------------------


@st.composite
def played_deals(draw):
    """A Half Moon deal with a random legal line played on it (0-30 moves)."""
    position = HM.deal(draw(st.integers(0, 10_000)))
    for _ in range(draw(st.integers(0, 30))):
        moves = position.legal_moves()
        if not moves:
            break
        position = position.apply(moves[draw(st.integers(0, len(moves) - 1))])
    return position


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.one_of(played_deals(), small_layouts()), st.integers(0, 2**64 - 1))
def test_arrangements_keep_everything_the_player_sees(position, seed):
    rng = SplitMix64(seed)
    for _ in range(3):
        sample = HM.rearranged(position, rng)
        assert seen(HM, sample) == seen(HM, position)
        assert sample.legal_moves() == position.legal_moves()  # the same choices, the same tops
        assert [len(p) for p in sample.piles] == [len(p) for p in position.piles]
        assert sample.reserve == position.reserve


@pytest.mark.parametrize("tag", ["EL", "SE", "TN"])
def test_family_arrangements_shuffle_the_stock_only(tag):
    game = catalogue.solitaire(tag)
    position = game.deal(7)
    position = game.apply(position, game.legal_moves(position)[0]) if game.legal_moves(position) else position
    rng = SplitMix64(3)
    samples = [game.rearranged(position, rng) for _ in range(5)]
    for sample in samples:
        assert sample.piles == position.piles and sample.reserve == position.reserve  # a grid: every card seen
        assert Counter(sample.stock) == Counter(position.stock)
    assert len({sample.stock for sample in samples}) > 1  # the stock order is what is hidden


def test_arrangements_reach_every_order_of_the_hidden_cards():
    # Two piles of two, hidden cards 6 and 2 under equal tops: both orders come up, about half each.
    position = layout(["6H 5S", "2C 5D"], "6S 9C")
    rng = SplitMix64(0)
    unders = Counter(HM.rearranged(position, rng).piles[0][0].rank for _ in range(400))
    assert set(unders) == {6, 2} and 150 < unders[6] < 250


# -- the fair hint itself -------------------------------------------------------------------------


@st.composite
def open_layouts(draw):
    """Small layouts whose hidden cards cannot matter: every card in view, except under some pile
    tops cards of one rank only (suits never matter in Half Moon)."""
    position = draw(small_layouts())
    flat = [card for pile in position.piles for card in pile]
    piles = [(card,) for card in flat]
    rank = draw(st.sampled_from([5, 6]))
    buried = draw(st.integers(0, 2))
    if buried:  # two piles hiding `buried` cards of `rank` each under a partner, and the other cards in view
        partner = 11 - rank
        piles += [tuple(Card(rank, suit) for suit in range(buried)) + (Card(partner, 0),)] * 2
        piles += [(Card(partner, 1),)] * (2 * buried) + [(Card(rank, 2),)] * 2
    return Position(tuple(piles), position.reserve)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(open_layouts())
def test_when_hidden_cards_cannot_matter_the_fair_hint_is_the_exact_hint(position):
    exact = halfmoon.hint(position, game="HM")
    fair = halfmoon.fair_hint(position, game="HM", samples=8)
    assert exact.verdict is (Verdict.WINNABLE if brute_winnable(position) else Verdict.UNWINNABLE)
    assert [m.move for m in fair.moves] == [m.move for m in exact.moves]
    for rated, known in zip(fair.moves, exact.moves):
        assert rated.tally.samples == 8 and rated.tally.unknown == 0
        assert rated.tally.share == (1.0 if known.verdict is Verdict.WINNABLE else 0.0)
    assert fair.position.share == (1.0 if exact.verdict is Verdict.WINNABLE else 0.0)


def test_fair_hint_at_the_end_of_a_real_deal_equals_the_exact_hint():
    line = [str(move) for move in halfmoon.solve("HM1-N-AAAAAAD").moves]
    played = next(k for k in range(len(line)) if all(
        len(p) <= 1 for p in halfmoon.replay("HM1-N-AAAAAAD", line[:k]).position.piles))
    moves = line[:played - 1]  # one move earlier a pile still hides a card
    exact = halfmoon.hint("HM1-N-AAAAAAD", moves=moves)
    fair = halfmoon.fair_hint("HM1-N-AAAAAAD", moves=moves, samples=12)
    for rated, known in zip(fair.moves, exact.moves, strict=True):
        if fair.hidden == 0:
            assert rated.tally.share == (1.0 if known.verdict is Verdict.WINNABLE else 0.0)
        assert rated.tally.unknown == 0


def test_two_moves_that_look_the_same_get_the_same_odds():
    # Piles 1 and 2 both show a 5 over one hidden card (a 6 under pile 1, a 2 under pile 2); the
    # reserve holds 6S and 9C. Knowing every card, 1+R1 wins and 2+R1 loses; a player cannot tell
    # them apart, and the fair hint does not either: each wins in about half the arrangements.
    position = layout(["6H 5S", "2C 5D"], "6S 9C")
    exact = {str(m.move): m.verdict for m in halfmoon.hint(position, game="HM").moves}
    assert exact["1+R1"] is Verdict.WINNABLE and exact["2+R1"] is Verdict.UNWINNABLE
    fair = {str(m.move): m.tally for m in halfmoon.fair_hint(position, game="HM", samples=200).moves}
    one, two = fair["1+R1"], fair["2+R1"]
    assert one.winnable + two.winnable == 200  # in each arrangement exactly one of them wins
    for tally in (one, two):
        low, high = tally.interval
        assert low < 0.5 < high and 0.35 < tally.share < 0.65


def test_same_seed_same_answer_and_the_seed_matters():
    def answer(seed):
        data = halfmoon.fair_hint("HM1-N-AAAAAAD", moves="", samples=6, seed=seed).to_json()
        data.pop("seconds")
        return data

    first = answer(5)
    assert answer(5) == first
    assert first["samples"] == first["asked"] == 6 and first["seed"] == 5 and first["sees"] == "what the player sees"
    rng_a, rng_b = SplitMix64(5), SplitMix64(6)
    start = HM.deal(3)
    assert HM.rearranged(start, rng_a) != HM.rearranged(start, rng_b)


def test_fair_hint_json_shape_and_bounds():
    data = halfmoon.fair_hint("HM1-N-AAAAAAB", moves="4+10", samples=3).to_json()
    assert set(data) == {"code", "game", "played", "sees", "hidden", "samples", "asked", "seed", "position", "moves",
                         "limits", "budget", "distinct", "stopped", "seconds"}
    assert data["hidden"] == 82 and data["played"] == 1 and data["limits"] == {"seconds": 5.0, "nodes": 20000}
    row = data["moves"][0]
    assert set(row) == {"move", "cards", "winnable", "unwinnable", "unknown", "samples", "share", "low", "high"}
    assert 0 <= row["low"] <= row["high"] <= 1 and row["samples"] == 3
    exact = halfmoon.hint("HM1-N-AAAAAAB", moves="4+10").to_json()
    assert exact["sees"] == "every card" and [r["move"] for r in exact["moves"]] == [r["move"] for r in data["moves"]]


def test_the_budget_stops_sampling_and_says_so():
    result = halfmoon.fair_hint("HM1-N-AAAAAAB", samples=1000, budget=0.3)
    assert result.stopped == "budget" and result.position.samples < 1000 and result.asked == 1000


@pytest.mark.parametrize("bad", [{"samples": 0}, {"samples": 1001}, {"samples": True}, {"seed": -1},
                                 {"budget": 0}, {"budget": float("nan")}])
def test_bad_parameters_are_input_errors(bad):
    with pytest.raises(halfmoon.InputError):
        halfmoon.fair_hint("HM1-N-AAAAAAB", **bad)


def test_unknown_samples_widen_the_interval_and_never_tilt_it():
    tally = Tally(winnable=10, unwinnable=10, unknown=5)
    low, high = tally.interval
    plain = Tally(winnable=10, unwinnable=10).interval
    assert tally.share == 0.5 and low < plain[0] and high > plain[1]


def test_fair_hint_on_a_family_game_rates_every_move_alike():
    # Elevens is pure chance (docs/rules/elevens-family.md): no move is better than another.
    code = "EL1-N-AAAAAAB"
    result = halfmoon.fair_hint(code, samples=10)
    assert result.hidden == len(halfmoon.deal(code).position.stock)
    assert len({(m.tally.winnable, m.tally.unwinnable) for m in result.moves}) <= 1
