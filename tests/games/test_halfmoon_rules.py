from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from halfmoon.dealcodes import DEAL_COUNT, deal_halfmoon, parse_card
from halfmoon.solver.errors import LineError, MoveError, PositionError
from halfmoon.solver.games.halfmoon.rules import (
    Move,
    Place,
    Position,
    parse_move,
    replay,
    won_score,
)


def layout(piles: list[str], reserve: str = "") -> Position:
    """A small hand-made position: piles as 'bottom ... top' card lists."""
    return Position(
        tuple(tuple(parse_card(c) for c in pile.split()) for pile in piles),
        tuple(None if c == "--" else parse_card(c) for c in reserve.split()),
    )


def test_pairs_sum_to_eleven_and_faces_go_in_triples():
    position = layout(["5S", "6D", "JC", "QH", "KH", "TD"], "AC")
    moves = {str(m) for m in position.legal_moves()}
    assert moves == {"1+2", "6+R1", "3+4+5"}


def test_face_cards_never_pair_and_ten_pairs_with_ace():
    assert Position.parse("KS/AC/TD | --").legal_moves() == [Move.parse("2+3")]


def test_only_tops_and_reserve_are_playable():
    position = layout(["6D 5S", "AC"], "TD")
    assert {str(m) for m in position.legal_moves()} == {"2+R1"}


def test_apply_reveals_next_card_and_empties_reserve():
    position = layout(["6D 5S", "6C"], "TD AC")
    after = position.apply(parse_move("1+2"))
    assert after.piles == ((parse_card("6D"),), ()) and after.reserve == position.reserve
    after = after.apply(parse_move("R1+R2"))
    assert after.reserve == (None, None)


@pytest.mark.parametrize(
    "text, words",
    [
        ("1+13", ["unknown place 13", "piles 1-5"]),
        ("1+R9", ["unknown place R9"]),
        ("1+R3", ["place R3 is empty"]),
        ("1+2", ["sum to 12", "the sum must be 11"]),
        ("1+4", ["a jack, queen and king are needed"]),
        ("4+5+R1", ["a jack, a queen and a king are needed"]),
    ],
)
def test_illegal_move_reasons(text, words):
    position = layout(["5S", "7D", "", "JD", "JH"], "QS 6H --")
    with pytest.raises(MoveError) as raised:
        position.apply(parse_move(text))
    for word in words:
        assert word in str(raised.value)


@pytest.mark.parametrize(
    "text, words",
    [
        ("1", ["1 place(s)", "expected 2"]),
        ("1+2+3+4", ["4 place(s)"]),
        ("1+1", ["place 1 is used twice"]),
        ("R2+r2", ["place R2 is used twice"]),
        ("1+X", ["unknown place 'X'"]),
        ("0+1", ["unknown place '0'"]),
        ("1++2", ["empty place"]),
        ("", ["empty move"]),
    ],
)
def test_move_syntax_errors(text, words):
    with pytest.raises(MoveError) as raised:
        parse_move(text)
    for word in words:
        assert word in str(raised.value)


def test_order_inside_a_move_does_not_matter():
    assert parse_move("8+5+3") == parse_move("3+8+5") and str(parse_move("R3+12")) == "12+R3"
    assert parse_move(" r1+4 ").places == (Place(False, 3), Place(True, 0))


def test_replay_reports_the_first_illegal_move_with_its_index():
    start = Position.from_deal(deal_halfmoon(1))
    with pytest.raises(LineError) as raised:
        replay(start, "1+3, 5+6  1+1")
    assert raised.value.index == 3 and "used twice" in str(raised.value)
    with pytest.raises(LineError) as raised:
        replay(start, "1+3,1+3")
    assert raised.value.index == 2 and "sum to" in str(raised.value)


def test_replay_scores_pairs_and_triples():
    position = layout(["5S", "6D", "JC", "QH", "KH"])
    result = replay(position, "1+2 3+4+5")
    assert result.score == 25 and result.position.is_won and not result.position.is_dead
    assert won_score(Position.from_deal(deal_halfmoon(0))) == 520


def test_dead_end():
    position = layout(["5S 5D", "TD"], "")
    assert position.is_dead and not position.is_won


def test_greedy_partner_choice_can_lose():
    # The rules digest's example: 5 and 6 in the reserve, a pile with 6 above 5.
    position = layout(["5C 6C"], "5D 6D")
    assert replay(position, "R1+R2").position.is_dead
    assert replay(position, "1+R1 1+R2").position.is_won


def test_text_form_round_trips_on_deals_and_empty_places():
    position = layout(["5S 6D", "", "KH"], "AC -- TD")
    assert str(position) == "5S6D/-/KH | AC -- TD"
    assert Position.parse(str(position)) == position


@pytest.mark.parametrize(
    "data, words",
    [
        ([], ["JSON object"]),
        ({"piles": []}, ["missing key 'reserve'"]),
        ({"piles": [["5S", "XX"]], "reserve": []}, ["piles[0][1]", "unknown"]),
        ({"piles": [[5]], "reserve": []}, ["piles[0][0]", "expected a card"]),
        ({"piles": "5S", "reserve": []}, ["list of lists"]),
        ({"piles": [], "reserve": ["5S", "1Z"]}, ["reserve[1]"]),
    ],
)
def test_layout_json_errors_say_where(data, words):
    with pytest.raises(PositionError) as raised:
        Position.from_json(data)
    for word in words:
        assert word in str(raised.value)


def balance_ok(position: Position) -> bool:
    counts = Counter(card.rank for card in position.all_cards())
    return all(counts[r] == counts[11 - r] for r in range(1, 6)) and counts[11] == counts[12] == counts[13]


@settings(max_examples=60, deadline=None)
@given(st.integers(0, DEAL_COUNT - 1), st.randoms(use_true_random=False))
def test_random_legal_lines_keep_the_invariants(number, rng):
    position = Position.from_deal(deal_halfmoon(number))
    assert Position.parse(str(position)) == position
    assert Position.from_json(position.to_json()) == position
    played = []
    while True:
        assert balance_ok(position)
        moves = position.legal_moves()
        if not moves:
            break
        move = rng.choice(moves)
        assert Move.parse(str(move)) == move
        played.append(move)
        before = position.cards_left
        position = position.apply(move)
        assert position.cards_left == before - len(move.places)
        assert Position.parse(str(position)) == position
    assert position.is_won or position.is_dead
    assert replay(Position.from_deal(deal_halfmoon(number)), ", ".join(map(str, played))).position == position
