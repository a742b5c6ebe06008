"""Spit between rounds (docs/rules/spit.md, "Between rounds"): slapping, gathering, re-dealing."""

from collections import Counter

import pytest
from support.spit import pos

from halfmoon.dealcodes import Card
from halfmoon.solver.errors import InputError
from halfmoon.solver.games.spit.rounds import next_round, play_game
from halfmoon.solver.games.spit.rules import (
    apply,
    card_int,
    parse_move,
    position_from_code,
    terminal,
)


def cards(text):
    return tuple(card_int(Card.parse(t)) for t in text.split())


def table(position):
    return Counter(position.cards())


def test_a_round_still_in_play_cannot_be_settled():
    with pytest.raises(InputError, match="still being played"):
        next_round(position_from_code("SP1-N-AAAAAAA"), 0)
    assert issubclass(InputError, ValueError)


def test_both_slap_the_smaller_pile_the_other_player_takes_the_other():
    # Player 0 clears; pile A has 2 cards, pile B 3: both go for A.
    position = pos("5C.-.-.-.-:KD | 9S.8S.-.-.-:QHJH | 4D6D 2C3C4C | 0")
    end = apply(position, parse_move("1>A"))
    assert terminal(end).places == (0, 1)
    seen = set()
    for seed in range(40):
        result = next_round(end, seed)
        assert sorted(result.took) == [0, 1]
        seen.add(result.took)
        a, b = result.took
        expected = {0: cards("4D 6D 5C"), 1: cards("2C 3C 4C")}
        assert result.hands[0][:3] == expected[a] and result.hands[1][:3] == expected[b]
        assert result.hands[0][3:] == cards("KD")  # then the spit cards left
        assert result.hands[1][3:] == cards("QH JH 9S 8S")  # spit cards, then the unplayed stock
        assert result.winner is None
        assert Counter(result.hands[0] + result.hands[1]) == table(end)
    assert seen == {(0, 1), (1, 0)}  # the seeded race for pile A goes both ways


def test_the_next_round_is_laid_out_from_the_gathered_cards():
    end = apply(pos("5C.-.-.-.-:KD | 9S.8S.-.-.-:QHJH | 4D6D 2C3C4C | 0"), parse_move("1>A"))
    result = next_round(end, 3)
    nxt = result.next_position
    for seat in range(2):
        hand = result.hands[seat]
        laid = [c for pile in nxt.stock[seat] for c in pile] + list(nxt.spit_cards[seat]) + list(nxt.spit_piles[seat])
        assert Counter(laid) == Counter(hand)
        assert len(hand) < 15 and nxt.spit_cards[seat] == () and nxt.spit_piles[seat] == ()  # short hands
    assert terminal(nxt) is not None  # two short hands and no spit cards: nothing to play onto


def test_one_spit_pile_the_clearer_takes_nothing_and_without_spit_cards_wins_the_game():
    # Player 0 has no spit cards (one pile, B) and clears first: player 0 has no cards left.
    position = pos("5C.-.-.-.-:- | 9S.8S.-.-.-:QHJH | - 2C3C4C | 0")
    end = apply(position, parse_move("1>B"))
    result = next_round(end, 0)
    assert result.took == (None, 1) and result.hands[0] == () and result.winner == 0
    assert result.next_position is None


def test_one_spit_pile_the_other_clears_first_and_play_continues():
    position = pos("9S8S.-.-.-.-:- | 5C.-.-.-.-:QHJH | - 2C3C4C | 1")
    end = apply(position, parse_move("1>B"))
    assert terminal(end).places == (1, 0)
    result = next_round(end, 0)
    assert result.took == (1, None)  # the loser takes the pile (and keeps the unplayed stock)
    assert result.hands[0] == cards("2C 3C 4C 5C 9S 8S") and result.hands[1] == cards("QH JH")
    assert result.winner is None and result.next_position is not None


def test_a_round_with_no_winner_is_slapped_too():
    position = pos("9C.-.-.-.-:- | 9S.-.-.-.-:- | 4D3D 4H | 0")
    assert terminal(position).places == (0, 0)
    result = next_round(position, 1)
    assert sorted(result.took) == [0, 1]
    assert result.took[0] == 1 or result.took[1] == 1  # B (1 card) is the smaller pile: somebody gets it


def test_whole_games_conserve_the_deck_and_end():
    start = position_from_code("SP1-N-AAAAAAB")
    winners = set()
    for seed in range(6):
        rounds, winner = play_game(start, seed)
        assert rounds and winner in (0, 1) and rounds[-1].winner == winner
        for end in rounds:
            assert sum(map(len, end.hands)) == 52
            if end.next_position is not None:
                assert len(end.next_position.cards()) == 52
        winners.add(winner)
        assert play_game(start, seed)[1] == winner  # reproducible from the seed
    assert winners == {0, 1}
