"""Shithead rules: every special card, their interactions, pick-up, refills, the table phase, the end."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from halfmoon.dealcodes import SplitMix64, parse_card
from halfmoon.solver.errors import IllegalMoveError, LineError, MoveError, PositionError
from halfmoon.solver.games.shithead.kernel import GAME, position_key
from halfmoon.solver.games.shithead.rules import (
    PICKUP,
    Move,
    Position,
    can_play,
    legal_moves,
    parse_move,
    replay,
)


def cards(text: str) -> tuple:
    return tuple(parse_card(t) for t in text.split())


def table(hands, pile="", up=None, down=None, stock="", to_move=0) -> Position:
    n = len(hands)
    up = up or [""] * n
    down = down or [""] * n
    return Position(tuple(tuple(sorted(cards(h))) for h in hands), tuple(cards(u) for u in up),
                    tuple(cards(d) for d in down), cards(stock), cards(pile), (), to_move)


def play(position: Position, text: str) -> Position:
    return GAME.apply(position, parse_move(text))


def names(position: Position) -> list[str]:
    return [str(m) for m in legal_moves(position)]


# -- ordinary order --------------------------------------------------------------------------


def test_equal_or_higher_with_ace_high() -> None:
    p = table(["5C 9D AH 4S", "KD KC KH"], pile="9S")
    assert names(p) == ["9", "A", "pickup"]
    after = play(p, "A")
    assert after.pile == cards("9S AH") and after.to_move == 1
    assert names(after) == ["pickup"]  # kings do not go on an ace


# -- 2: reset -------------------------------------------------------------------------------


def test_two_goes_on_anything_and_anything_on_two() -> None:
    p = table(["2C 4D 6H", "KD QC JH"], pile="AS")
    assert names(p) == ["2", "pickup"]
    after = play(p, "2")
    assert after.to_move == 1
    assert names(after) == ["J", "Q", "K", "pickup"]
    assert names(play(after, "J")) == ["pickup"]  # the 2 only reset the pile for one card


# -- 3: transparent -------------------------------------------------------------------------


def test_three_is_transparent() -> None:
    p = table(["3C 6D", "5H 9S AC"], pile="8D")
    after = play(p, "3")
    assert after.pile == cards("8D 3C")
    assert names(after) == ["9", "A", "pickup"]  # plays as if the 8 were on top


def test_three_on_seven_keeps_seven_and_under() -> None:
    p = table(["3C 9D", "4H 7S JC"], pile="7D")
    after = play(p, "3")
    assert names(after) == ["4", "7", "pickup"]  # the 7 still rules under the 3


def test_three_on_empty_pile_or_only_threes_allows_anything() -> None:
    p = table(["3C 3D 9H", "4H KS"], pile="")
    after = play(p, "3")
    assert names(after) == ["4", "K", "pickup"]
    p2 = table(["3H KS", "4H 5C"], pile="3C 3D")
    assert names(p2) == ["3", "K", "pickup"]


# -- 7: seven and under ---------------------------------------------------------------------


def test_seven_forces_seven_or_lower_next() -> None:
    p = table(["7C 9D", "4H 6S 7S 8C 9C TC 2D 3D AH"], pile="5D")
    after = play(p, "7")
    assert names(after) == ["2", "3", "4", "6", "7", "T", "pickup"]  # no 8, 9 or A on a 7
    assert not can_play(8, 7) and can_play(10, 7) and can_play(7, 7)


def test_seven_goes_only_on_seven_or_lower() -> None:
    assert can_play(7, 6) and can_play(7, 7) and not can_play(7, 8) and not can_play(7, 1)


# -- 8: skip ----------------------------------------------------------------------------------


def test_eight_skips_one_player() -> None:
    p = table(["8C 5D", "9D", "9H"], pile="6S")
    after = play(p, "8")
    assert after.to_move == 2  # player 1 misses the turn


def test_several_eights_skip_that_many() -> None:
    p = table(["8C 8D 5D", "9D", "9H", "9S"], pile="6S")
    assert play(p, "8x2").to_move == 3  # players 1 and 2 miss their turns
    three = table(["8C 8D 8H 5D", "9D", "9H"], pile="6S")
    assert play(three, "8x3").to_move == 1  # 1, 2 and the mover herself are skipped: 1 plays next
    two_players = table(["8C 5D", "9D 4C"], pile="6S")
    assert play(two_players, "8").to_move == 0  # with two players an 8 means play again


def test_skip_passes_over_players_who_are_out() -> None:
    p = table(["8C 5D", "", "9H", "9S"], pile="6S")
    assert play(p, "8").to_move == 3  # player 1 is out; the skip lands on player 2


def test_eight_cannot_go_on_seven() -> None:
    p = table(["8C 4D", "9D"], pile="7S")
    assert names(p) == ["4", "pickup"]


# -- 10 and four of a kind: burns, another turn -------------------------------------------------


def test_ten_burns_and_plays_again() -> None:
    p = table(["TC 5D 6H", "9D KC"], pile="7S 3C")
    assert "T" in names(p)  # a 10 goes on a 7
    after = play(p, "T")
    assert after.pile == () and set(after.burned) == set(cards("7S 3C TC"))
    assert after.to_move == 0 and names(after) == ["5", "6"]


def test_four_at_once_burns() -> None:
    p = table(["6C 6D 6H 6S 9D", "KC"], pile="5H")
    after = play(p, "6x4")
    assert after.pile == () and after.to_move == 0 and len(after.burned) == 5


def test_completing_four_on_the_pile_burns() -> None:
    p = table(["9C 4D", "9D KC"], pile="5H 9S 9H")
    after = play(p, "9")
    assert after.pile == cards("5H 9S 9H 9C") and after.to_move == 1
    again = play(after, "9")  # player 1 completes four nines
    assert again.pile == () and again.to_move == 1


def test_a_three_breaks_the_run() -> None:
    p = table(["9C 4D", "KC"], pile="9S 9H 3C 9D")
    after = play(p, "9")
    assert after.pile and after.to_move == 1


def test_four_eights_burn_instead_of_skipping() -> None:
    p = table(["8C 4D", "KC", "QD"], pile="8S 8H 8D")
    after = play(p, "8")
    assert after.pile == () and after.to_move == 0


def test_four_threes_burn() -> None:
    p = table(["3C 3D 5H", "KC"], pile="9D 3S 3H")
    after = play(p, "3x2")
    assert after.pile == () and after.to_move == 0


def test_burn_with_the_last_card_passes_the_turn() -> None:
    p = table(["TC", "KC 4D", "QD"], pile="5S")
    after = play(p, "T")
    assert after.cards_of(0) == 0 and after.to_move == 1


# -- pick-up, refill ------------------------------------------------------------------------


def test_pickup_takes_the_pile_and_ends_the_turn() -> None:
    p = table(["4C 5D", "KC"], pile="9S JD")
    assert names(p) == ["pickup"]
    after = play(p, "pickup")
    assert after.pile == () and after.hands[0] == tuple(sorted(cards("4C 5D 9S JD"))) and after.to_move == 1
    with pytest.raises(IllegalMoveError, match="pile is empty"):
        play(after, "pickup")


def test_pickup_is_allowed_even_with_a_legal_play() -> None:
    p = table(["KC 5D", "4C"], pile="9S")
    assert names(p) == ["K", "pickup"]


def test_refill_to_three_from_the_stock_top_first() -> None:
    p = table(["5C 5D 9H", "KC KD QC"], pile="4S", stock="2H 7C 8D")
    after = play(p, "5x2")
    assert after.hands[0] == tuple(sorted(cards("9H 2H 7C"))) and after.stock == cards("8D")


def test_table_cards_wait_while_the_stock_lasts() -> None:
    p = table(["5C 6D 9H", "KC KD QC"], pile="", up=["AH", "2C"], stock="4S")
    assert all(m.kind == "play" for m in legal_moves(p))


def test_hand_is_played_before_the_table() -> None:
    p = table(["9H", "KC"], pile="5C", up=["4D 5D", "2C"], down=["6S", "7S"])
    assert names(p) == ["9", "pickup"]


# -- the table phase ------------------------------------------------------------------------


def test_last_hand_cards_take_matching_face_up_cards_along() -> None:
    p = table(["9H 9C", "KC"], pile="5C", up=["9D 4S 9S", "2C"])
    assert names(p) == ["9", "9x2", "9x2+up1", "9x2+up2", "pickup"]
    after = play(p, "9x2+up1")
    assert after.face_up[0] == cards("4S 9S") and after.pile == cards("5C 9C 9H 9D") and after.to_move == 1
    not_last = table(["9H 5C", "KC"], pile="", up=["9D", "2C"])
    assert "9+up1" not in names(not_last)


def test_four_of_a_kind_with_face_up_cards_burns() -> None:
    p = table(["9H 9C", "KC"], pile="5C", up=["9D 9S", "2C"])
    after = play(p, "9x2+up2")
    assert after.pile == () and after.to_move == 0 and after.face_up[0] == ()


def test_face_up_one_at_a_time_then_face_down() -> None:
    p = table(["", "KC"], pile="5C", up=["9D 4S", "2C"], down=["6S 7S", "8S"])
    assert names(p) == ["up:4", "up:9"]
    after = play(p, "up:9")
    assert after.face_up[0] == cards("4S") and after.to_move == 1


def test_unplayable_face_up_card_is_taken_with_the_pile() -> None:
    p = table(["", "KC"], pile="5C JD", up=["9D 4S", "2C"], down=["6S", "8S"])
    after = play(p, "up:4")
    assert after.hands[0] == tuple(sorted(cards("5C JD 4S"))) and after.pile == () and after.to_move == 1


def test_failing_face_down_card_picks_up_the_pile_with_it() -> None:
    p = table(["", "KC 4C"], pile="5C JD", down=["6S QH", "8S"])
    assert names(p) == ["down:1", "down:2"]
    failed = play(p, "down:1")  # a 6 does not go on a jack
    assert failed.hands[0] == tuple(sorted(cards("5C JD 6S"))) and failed.face_down[0] == cards("QH")
    assert failed.pile == () and failed.to_move == 1
    # with cards in hand again, the hand must be shed before the table
    back = play(failed, "4")
    assert all(m.kind in ("play", "pickup") for m in legal_moves(back))


def test_no_plain_pickup_at_the_table() -> None:
    """Rules decision (shared rules, table phase): once a player plays from the table, a plain
    pick-up is not a move; the lifted card is played, and if it does not fit the pile is taken
    with it. So with an empty hand and no card that fits, the only moves lift a card."""
    stuck_up = table(["", "KC"], pile="AS", up=["9D 4S", ""], down=["6S", "8S"])
    assert names(stuck_up) == ["up:4", "up:9"]
    stuck_down = table(["", "KC"], pile="AS", down=["6S QH", "8S"])
    assert names(stuck_down) == ["down:1", "down:2"]
    with pytest.raises(IllegalMoveError, match="from the table"):
        play(stuck_down, "pickup")
    # the packed kernel agrees: no successor is the plain pick-up
    kernel = GAME.kernel(stuck_down)
    plain = position_key(Position((cards("AS"), cards("KC")), ((), ()), (cards("6S QH"), cards("8S")), (), (), (), 1))
    assert plain not in kernel.successors(position_key(stuck_down))
    assert len(kernel.successors(position_key(stuck_down))) == 2
    # with cards in hand (after a failed table card) picking up is allowed again
    back = play(stuck_down, "down:1")
    assert back.hands[0] and back.to_move == 1


def test_fitting_face_down_card_is_played() -> None:
    p = table(["", "KC 4C"], pile="5C JD", down=["6S QH", "8S"])
    played = play(p, "down:2")
    assert played.pile == cards("5C JD QH") and played.face_down[0] == cards("6S") and played.to_move == 1


def test_face_down_ten_burns_and_plays_again() -> None:
    p = table(["", "KC 4C"], pile="5C JD", down=["TS 6S", "8S"])
    after = play(p, "down:1")
    assert after.pile == () and after.to_move == 0 and names(after) == ["down:1"]


# -- the end ----------------------------------------------------------------------------------


def test_last_player_with_cards_is_the_shithead() -> None:
    p = table(["9H", "KC 4C"], pile="5C")
    end = play(p, "9")
    result = GAME.terminal(end)
    assert result is not None and result.places == (0, 1) and "player 1" in result.note
    assert GAME.legal_moves(end) == ()
    with pytest.raises(IllegalMoveError, match="game is over"):
        GAME.apply(end, parse_move("4"))


def test_three_players_play_on_until_one_is_left() -> None:
    p = table(["9H", "KC 4C", "QD"], pile="5C")
    after = play(p, "9")
    assert GAME.terminal(after) is None and after.to_move == 1
    after = play(after, "K")
    assert after.to_move == 1 or after.to_move == 2
    assert after.active() == [1, 2]


# -- errors, text forms, keys ---------------------------------------------------------------


def test_illegal_moves_say_why() -> None:
    p = table(["5C 9D", "KC"], pile="7S", up=["AH", ""], down=["", "2C"])
    with pytest.raises(IllegalMoveError, match="cannot go on the pile's 7"):
        play(p, "9")
    with pytest.raises(IllegalMoveError, match="holds 0 card"):
        play(p, "K")
    with pytest.raises(IllegalMoveError, match="only once the stock and the hand are empty"):
        play(p, "up:A")
    assert issubclass(IllegalMoveError, ValueError)


def test_line_errors_name_the_move() -> None:
    p = table(["5C 9D", "KC 4H"], pile="")
    with pytest.raises(LineError, match=r"move 2 \('7'\)"):
        replay(p, "5 7")
    with pytest.raises(LineError, match="unknown move"):
        replay(p, "5, x9")


def test_move_parsing() -> None:
    assert parse_move("7") == Move("play", 7, 1)
    assert parse_move("10x2") == parse_move("tx2") == Move("play", 10, 2)
    assert parse_move("9x2+UP1") == Move("play", 9, 2, 1)
    assert parse_move("up:a") == Move("up", 1, 1)
    assert parse_move("DOWN:3") == Move("down", 0, 1, 0, 2)
    assert parse_move("pickup") == PICKUP
    for bad in ("", "7x5", "down:4", "up:", "11", "7x2+up3"):
        with pytest.raises(MoveError):
            parse_move(bad)


_MOVES = st.one_of(
    st.builds(lambda r, c: Move("play", r, c), st.integers(1, 13), st.integers(1, 4)),
    st.builds(lambda r, c, u: Move("play", r, c, u), st.integers(1, 13), st.integers(1, 2), st.integers(1, 2)),
    st.builds(lambda r: Move("up", r, 1), st.integers(1, 13)),
    st.builds(lambda s: Move("down", 0, 1, 0, s), st.integers(0, 2)),
    st.just(PICKUP),
)


@given(_MOVES)
def test_move_text_round_trips(move: Move) -> None:
    assert parse_move(str(move)) == move


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 26**7 - 1), st.integers(2, 5), st.integers(0, 120))
def test_positions_round_trip_through_json_along_playouts(number: int, players: int, steps: int) -> None:
    from halfmoon.dealcodes import DealCode

    p = Position.from_deal_code(str(DealCode("SH", 1, str(players), number)))
    rng = SplitMix64(number)
    for _ in range(steps):
        if GAME.terminal(p) is not None:
            break
        assert Position.from_json(p.to_json()) == p
        moves = GAME.legal_moves(p)
        p = GAME.apply(p, moves[rng.below(len(moves))])
    assert Position.from_json(p.to_json()) == p


def test_key_ignores_suits_and_burned_cards_but_not_the_mover() -> None:
    a = table(["5C 9D", "KC 4H"], pile="7S 3C", up=["AH", "2C"], down=["6S", "8S"])
    b = table(["5H 9S", "KD 4C"], pile="7D 3S", up=["AS", "2D"], down=["6D", "8H"])
    assert position_key(a) == position_key(b)
    assert position_key(a._replace(burned=cards("QS"))) == position_key(a)
    assert position_key(a._replace(to_move=1)) != position_key(a)
    # the pile's order matters through its top: same cards, different top
    c = table(["5C 9D", "KC 4H"], pile="3C 7S", up=["AH", "2C"], down=["6S", "8S"])
    assert position_key(a) != position_key(c)


def test_position_json_errors_name_the_field() -> None:
    good = table(["5C 9D", "KC 4H"], pile="7S").to_json()
    with pytest.raises(PositionError, match=r"position.hands\[1\]\[0\]"):
        Position.from_json(good | {"hands": [["5C"], ["ZZ"]]})
    with pytest.raises(PositionError, match="one deck has one of each"):
        Position.from_json(good | {"pile": ["5C"]})
    with pytest.raises(PositionError, match="to_move"):
        Position.from_json(good | {"to_move": 2})
    with pytest.raises(PositionError, match="refilled to 3"):
        Position.from_json(good | {"stock": ["2H"]})
    with pytest.raises(PositionError, match="unknown field"):
        Position.from_json(good | {"colour": "red"})
    with pytest.raises(PositionError, match="2-5 players"):
        Position.from_json(good | {"hands": [["5C"]]})
