"""The family rules engine: removal kinds, refills in place order, won/dead, errors, text forms."""

from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from halfmoon.dealcodes import DEAL_COUNT, Card, deal_halfmoon, parse_card
from halfmoon.dealcodes.elevens import GRID_GAMES, deal_grid
from halfmoon.solver.errors import LineError, MoveError, PositionError
from halfmoon.solver.games.family.presets import load_preset
from halfmoon.solver.games.family.rules import Game, Move, Position, parse_move
from halfmoon.solver.games.family.schema import rules_from_json
from halfmoon.solver.games.halfmoon import rules as hm

ELEVENS, SUIT, TENS, HALFMOON = (Game(load_preset(n)) for n in ("elevens", "suit-elevens", "tens", "halfmoon"))


def cards(text: str) -> tuple[Card, ...]:
    return tuple(parse_card(c) for c in text.split())


def grid(places: str, stock: str = "") -> Position:
    """A grid position: one card (or '--') per place, then the stock, next card first."""
    return Position(tuple(() if c == "--" else (parse_card(c),) for c in places.split()), (), cards(stock))


def moves(game: Game, position: Position) -> set[str]:
    return {str(m) for m in game.legal_moves(position)}


def test_elevens_pairs_and_face_triples_ignore_suits():
    position = grid("5S 6D JC QH KH TD AC 2C 3C")
    assert moves(ELEVENS, position) == {"1+2", "6+7", "3+4+5"}


def test_suit_elevens_needs_one_suit():
    position = grid("5S 6D 6S JC QC KH KC TD AD 2C 9C 3H 8H 4S 7D")
    assert moves(SUIT, position) == {"1+3", "4+5+7", "8+9", "10+11", "12+13"}


def test_tens_pairs_to_ten_with_five_and_five_and_quads_of_high_cards():
    position = grid("5S 5D TC TD TH TS JC JD JH QC QD KH 9S")
    assert moves(TENS, position) == {"1+2", "3+4+5+6"}


def test_refill_fills_every_empty_place_in_increasing_order():
    position = grid("KS 5S 9C 6D JC QH 2H 3H 4H", "7C 8C 9D TD")
    after = ELEVENS.apply(position, parse_move("1+5+6"))
    assert [str(p[0]) for p in after.piles] == ["7C", "5S", "9C", "6D", "8C", "9D", "2H", "3H", "4H"]
    assert after.stock == cards("TD")
    after = ELEVENS.apply(after, parse_move("2+4"))
    assert [str(p[0]) if p else "--" for p in after.piles][:4] == ["7C", "TD", "9C", "--"]
    assert after.stock == ()


def test_won_when_every_card_is_gone_and_dead_when_nothing_fits():
    assert ELEVENS.is_won(grid("-- -- -- -- -- -- -- -- --"))
    dead = grid("KS 2S 3C -- -- -- -- -- --")
    assert ELEVENS.is_dead(dead) and ELEVENS.status(dead) == "dead"
    assert ELEVENS.status(grid("5S 6S -- -- -- -- -- -- --")) == "open"


def test_stock_dealt_win_condition():
    data = load_preset("elevens").to_json() | {"win": "stock-dealt"}
    game = Game(rules_from_json(data))
    position = grid("5S 6S KS 2S 3C 4C 7H 8H QD", "JH")
    assert not game.is_won(position)
    assert game.is_won(game.apply(position, parse_move("1+2")))


@pytest.mark.parametrize(
    "text, words",
    [
        ("1+10", ["unknown place 10", "piles 1-9"]),
        ("1+R1", ["unknown place R1", "reserve slots are none"]),
        ("1+9", ["place 9 is empty"]),
        ("1+3", ["5S+9C fit no removal rule", "2 cards from A23456789T summing to 11", "J+Q+K"]),
    ],
)
def test_illegal_moves_say_why(text, words):
    position = grid("5S 6D 9C JC QH KH TD AC --")
    with pytest.raises(MoveError) as raised:
        ELEVENS.apply(position, parse_move(text))
    for word in words:
        assert word in str(raised.value)


@pytest.mark.parametrize("text, words", [("1", ["1 place"]), ("1+1", ["used twice"]), ("1+X", ["unknown place 'X'"]),
                                         ("", ["empty move"]), ("1++2", ["empty place"])])
def test_unreadable_moves(text, words):
    with pytest.raises(MoveError) as raised:
        parse_move(text)
    for word in words:
        assert word in str(raised.value)


def test_replay_names_the_failing_move():
    position = grid("5S 6D 9C JC QH KH TD AC 2C", "3C 4C")
    with pytest.raises(LineError) as raised:
        ELEVENS.replay(position, "1+2, 4+5+6, 1+3")
    assert raised.value.index == 3 and "fit no removal rule" in str(raised.value)
    assert ELEVENS.replay(position, "1+2 4+5+6").position.stock == ()


def test_layouts_are_checked_against_the_game():
    with pytest.raises(PositionError, match="8 piles, but Elevens has 9"):
        ELEVENS.check_layout(grid("5S 6D 9C JC QH KH TD AC"))
    with pytest.raises(PositionError, match="5S appears 2 times, but the deck has 1"):
        ELEVENS.check_layout(grid("5S 5S 9C JC QH KH TD AC 2C"))
    with pytest.raises(PositionError, match="empty while the stock still has cards"):
        ELEVENS.check_layout(grid("5S -- 9C JC QH KH TD AC 2C", "3C"))
    with pytest.raises(PositionError, match="0 reserve slots, but Half Moon has 8"):
        HALFMOON.check_layout(Position(tuple(() for _ in range(12))))


@pytest.mark.parametrize("bad, words", [
    ({"piles": "x"}, ["'piles' must be a list"]),
    ({"grid": ["5S", "XX"]}, ["grid[1]", "unknown rank"]),
    ({"piles": [["5S"]], "stock": "5S"}, ["'stock' must be a list"]),
    ({"reserve": []}, ["missing key 'piles'"]),
    ([], ["expected a JSON object"]),
])
def test_bad_layout_json(bad, words):
    with pytest.raises(PositionError) as raised:
        Position.from_json(bad)
    for word in words:
        assert word in str(raised.value)


@pytest.mark.parametrize("tag", sorted(GRID_GAMES))
@pytest.mark.parametrize("number", [0, 1, 2, 123456, DEAL_COUNT - 1])
def test_generic_dealing_is_the_codec(tag, number):
    dealt = deal_grid(tag, number)
    position = Game(load_preset(tag)).deal(number)
    assert tuple(p[0] for p in position.piles) == dealt.grid and all(len(p) == 1 for p in position.piles)
    assert position.stock == dealt.stock and position.reserve == ()
    assert Position.from_json(dealt.to_json()) == position  # a grid deal's JSON is a layout


@pytest.mark.parametrize("number", [0, 1, 77])
def test_half_moon_preset_deals_like_hm1_and_moves_like_the_dedicated_rules(number):
    dealt = deal_halfmoon(number)
    position = HALFMOON.deal(number)
    assert position.piles == dealt.piles and position.reserve == dealt.reserve and position.stock == ()
    hm_position = hm.Position.from_deal(dealt)
    for _ in range(12):
        ours = [str(m) for m in HALFMOON.legal_moves(position)]
        theirs = [str(m) for m in hm_position.legal_moves()]
        assert sorted(ours) == sorted(theirs)
        if not ours:
            break
        move = ours[len(ours) // 2]
        position = HALFMOON.apply(position, parse_move(move))
        hm_position = hm_position.apply(hm.parse_move(move))
        assert position.piles == hm_position.piles and position.reserve == hm_position.reserve


positions = st.builds(
    Position,
    st.lists(st.lists(st.sampled_from([Card(r, s) for r in range(1, 14) for s in range(4)]), max_size=4).map(tuple),
             min_size=1, max_size=6).map(tuple),
    st.lists(st.one_of(st.none(), st.sampled_from([Card(r, 0) for r in range(1, 14)])), max_size=4).map(tuple),
    st.lists(st.sampled_from([Card(r, 3) for r in range(1, 14)]), max_size=5).map(tuple),
)


@settings(max_examples=150, deadline=None)
@given(positions)
def test_positions_round_trip_as_text_and_json(position):
    assert Position.parse(str(position)) == position
    assert Position.from_json(position.to_json()) == position
    assert hash(Position.parse(str(position))) == hash(position)


@settings(max_examples=100, deadline=None)
@given(st.lists(st.sampled_from(["1", "2", "3", "12", "R1", "R4"]), min_size=2, max_size=4, unique=True))
def test_moves_round_trip_in_canonical_order(places):
    move = parse_move("+".join(reversed(places)))
    assert parse_move(str(move)) == move == Move(tuple(sorted(move.places)))


def test_deck_counts():
    assert Counter(ELEVENS.deck()) == Counter(Card(r, s) for r in range(1, 14) for s in range(4))
    assert len(HALFMOON.deck()) == 104
