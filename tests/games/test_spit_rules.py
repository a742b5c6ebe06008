"""Spit rules (docs/rules/spit.md): one test or more per rule sentence, values and round trips."""

import itertools
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from support.spit import pos, random_small_position

from halfmoon.dealcodes import DEAL_COUNT, Card, SplitMix64, deal_spit
from halfmoon.solver.errors import IllegalMoveError, LineError, MoveError, PositionError
from halfmoon.solver.games.spit.kernel import GAME
from halfmoon.solver.games.spit.rules import (
    FILL,
    PASS,
    PASS_MOVE,
    PLAY,
    SpitMove,
    SpitPosition,
    apply,
    card_int,
    describe,
    key,
    legal_moves,
    parse_move,
    parse_position,
    position_from_code,
    position_from_deal,
    position_from_hands,
    position_from_json,
    progress,
    ranks_adjacent,
    replay,
    terminal,
)


def moves_text(position):
    return [str(m) for m in legal_moves(position)]


# -- cards: one apart, ace wrapping to king and 2, suits irrelevant ------------------------------


def test_adjacency_is_one_apart_with_ace_next_to_king_and_two():
    ranks = "A23456789TJQK"
    for a, b in itertools.product(range(13), repeat=2):
        expected = abs(a - b) == 1 or {ranks[a], ranks[b]} == {"A", "K"}
        assert ranks_adjacent(a, b) == expected, (ranks[a], ranks[b])


@pytest.mark.parametrize(
    "card, top, ok",
    [("KS", "AC", True), ("2D", "AH", True), ("AC", "KD", True), ("AS", "2C", True), ("QH", "KC", True),
     ("QC", "AD", False), ("3C", "AD", False), ("AC", "AD", False), ("7C", "7D", False), ("9C", "JD", False)],
)
def test_wrap_around_plays(card, top, ok):
    position = pos(f"{card}.-.-.-.-:- | 5S.-.-.-.-:5H | {top} - | 0")
    assert (moves_text(position) == ["1>A"]) == ok
    if ok:
        after = apply(position, parse_move("1>A"))
        assert after.spit_piles[0][-1] == card_int(Card.parse(card))
    else:
        assert moves_text(position) == ["pass"]
        with pytest.raises(IllegalMoveError, match="ranks must be one apart"):
            apply(position, parse_move("1>A"))


def test_suits_and_colours_do_not_matter():
    for suit_a, suit_b in itertools.product("CDHS", repeat=2):
        position = pos(f"8{suit_a}.-.-.-.-:- | 5S.-.-.-.-:- | 9{suit_b} - | 0")
        assert moves_text(position) == ["1>A"]


# -- playing from the stock ------------------------------------------------------------------------


def test_a_play_turns_up_the_next_stock_card_and_passes_the_turn():
    position = pos("2C3C.-.-.-.-:- | 9S.-.-.-.-:- | 4D - | 0")
    after = apply(position, parse_move("1>A"))
    assert after.stock[0][0] == (card_int(Card.parse("2C")),)  # 2C is now the face-up card
    assert after.spit_piles[0] == tuple(card_int(Card.parse(c)) for c in ("4D", "3C"))
    assert after.to_move == 1 and not after.passed
    assert describe(position, parse_move("1>A")) == "1>A (3C on 4D, turns up 2C)"


def test_either_spit_pile_may_be_played_on():
    position = pos("5C.-.-.-.-:- | 9S.-.-.-.-:- | 4D 6H | 0")
    assert moves_text(position) == ["1>A", "1>B"]


def test_only_the_player_to_move_acts():
    position = pos("9C.-.-.-.-:- | 5S.-.-.-.-:- | 4D - | 0")
    assert moves_text(position) == ["pass"]  # player 1's 5S fits, but it is player 0's turn


def test_an_empty_spit_pile_takes_no_card():
    position = pos("5C.-.-.-.-:- | 9S.-.-.-.-:- | - 4D | 0")
    assert moves_text(position) == ["1>B"]
    with pytest.raises(IllegalMoveError, match="spit pile A is empty"):
        apply(position, parse_move("1>A"))


# -- moving a face-up card into an empty place -------------------------------------------------------


def test_fill_moves_the_face_up_card_into_an_empty_place_and_turns_up_the_next():
    position = pos("9C8C.-.QD.JD.TD:- | 5S.-.-.-.-:- | 4H - | 0")
    assert moves_text(position) == ["1>2"]
    after = apply(position, parse_move("1>2"))
    assert after.stock[0][0] == (card_int(Card.parse("9C")),)
    assert after.stock[0][1] == (card_int(Card.parse("8C")),)
    assert describe(position, parse_move("1>2")) == "1>2 (8C, turns up 9C)"


def test_fill_offers_every_empty_place_from_every_pile_with_a_card_under_its_top():
    position = pos("9C8C.-.KDQD.-.TD:- | 5S.-.-.-.-:- | 4H - | 0")
    assert moves_text(position) == ["1>2", "1>4", "3>2", "3>4"]


def test_no_fill_without_an_empty_place_never_more_than_five_piles():
    position = pos("9C8C.QH.QD.JD.TD:- | 5S.-.-.-.-:- | 4H - | 0")
    assert moves_text(position) == ["pass"]
    with pytest.raises(IllegalMoveError, match="not empty"):
        apply(position, SpitMove(FILL, 0, 1))


def test_a_lone_card_is_not_moved_it_would_turn_nothing_up():
    position = pos("8C.-.-.-.-:- | 5S.-.-.-.-:- | 4H - | 0")
    assert moves_text(position) == ["pass"]
    with pytest.raises(IllegalMoveError, match="alone"):
        apply(position, parse_move("1>2"))


def test_play_and_fill_are_both_offered():
    position = pos("9C3C.-.-.-.-:- | 5S.-.-.-.-:- | 4H - | 0")
    assert moves_text(position) == ["1>A", "1>2", "1>3", "1>4", "1>5"]


# -- passing and spitting ------------------------------------------------------------------------------


def test_pass_only_when_nothing_else_is_possible():
    position = pos("5C.-.-.-.-:7D | 9S.-.-.-.-:8H | 4D - | 0")
    assert moves_text(position) == ["1>A"]
    with pytest.raises(IllegalMoveError, match="passes only when"):
        apply(position, PASS_MOVE)


def test_two_passes_in_succession_make_both_spit_onto_their_own_piles():
    position = pos("9C.-.-.-.-:7D2D | 9S.-.-.-.-:8H | 4D 4H | 0")
    one = apply(position, PASS_MOVE)
    assert one.to_move == 1 and one.passed and one.spit_piles == position.spit_piles
    assert describe(one, PASS_MOVE) == "pass (both spit: 7D on A, 8H on B)"
    two = apply(one, PASS_MOVE)
    assert two.to_move == 0 and not two.passed  # the player who passed first acts first
    assert two.spit_piles[0][-1] == card_int(Card.parse("7D"))
    assert two.spit_piles[1][-1] == card_int(Card.parse("8H"))
    assert two.spit_cards == ((card_int(Card.parse("2D")),), ())
    assert moves_text(two) == ["1>B"]  # 9C on 8H


def test_a_player_without_spit_cards_does_not_spit():
    position = pos("9C.-.-.-.-:7D | 9S.-.-.-.-:- | 4D 4H | 0")
    two = apply(apply(position, PASS_MOVE), PASS_MOVE)
    assert two.spit_piles[1] == position.spit_piles[1]
    assert two.spit_piles[0][-1] == card_int(Card.parse("7D"))


def test_a_play_between_passes_cancels_the_pending_pass():
    position = pos("9C.-.-.-.-:7D | 4S5S.-.-.-.-:8H | 4D - | 0")
    one = apply(position, PASS_MOVE)
    assert moves_text(one) == ["1>A", "1>2", "1>3", "1>4", "1>5"]
    two = apply(one, parse_move("1>A"))
    assert not two.passed and two.spit_cards == position.spit_cards


def test_spitting_can_start_an_empty_pile():
    position = pos("9C.-.-.-.-:- | 9S.-.-.-.-:5H | 4D - | 0")
    two = apply(apply(position, PASS_MOVE), PASS_MOVE)
    assert two.spit_piles[1] == (card_int(Card.parse("5H")),)


# -- the end of the round ------------------------------------------------------------------------------


def test_clearing_the_stock_wins_the_round_at_once():
    position = pos("5C.-.-.-.-:- | 4S.-.-.-.-:9H | 4D 6D | 0")
    after = apply(position, parse_move("1>A"))
    result = terminal(after)
    assert result is not None and result.places == (0, 1)
    assert legal_moves(after) == []
    with pytest.raises(IllegalMoveError, match="round is over"):
        apply(after, parse_move("1>B"))


def test_player_one_can_win_too():
    position = pos("5C9C.-.-.-.-:- | 4S.-.-.-.-:- | 3D - | 1")
    after = apply(position, parse_move("1>A"))
    assert terminal(after).places == (1, 0)


def test_stuck_with_no_spit_cards_ends_the_round_with_no_winner():
    position = pos("9C.-.-.-.-:- | 9S.-.-.-.-:- | 4D 4H | 0")
    result = terminal(position)
    assert result is not None and result.places == (0, 0)
    assert legal_moves(position) == []


def test_stuck_with_spit_cards_left_is_not_the_end():
    position = pos("9C.-.-.-.-:- | 9S.-.-.-.-:2C | 4D 4H | 0")
    assert terminal(position) is None and moves_text(position) == ["pass"]


def test_a_player_who_can_still_act_keeps_the_round_going():
    position = pos("9C.-.-.-.-:- | 5S.-.-.-.-:- | 4D - | 0")
    assert terminal(position) is None and moves_text(position) == ["pass"]
    assert moves_text(apply(position, PASS_MOVE)) == ["1>A"]


# -- the deal and short hands (one spit pile) ----------------------------------------------------------


def test_the_dealt_round_starts_after_the_opening_spit():
    deal = deal_spit(1)
    position = position_from_deal(deal)
    for seat in range(2):
        assert position.spit_piles[seat] == (card_int(deal.seats[seat].spit[0]),)
        assert len(position.spit_cards[seat]) == 10
        assert [len(p) for p in position.stock[seat]] == [1, 2, 3, 4, 5]
    assert position.to_move == 0 and not position.passed
    assert position_from_code("SP1-N-AAAAAAB") == position


def test_fewer_than_15_cards_partial_layout_no_spit_cards_one_spit_pile():
    deck = [Card(rank, suit) for suit in range(4) for rank in range(1, 14)]
    short = [Card(9, 0), Card(11, 1), Card(5, 2), Card(13, 3)]  # 9C JD 5H KS: four one-card places
    long = [c for c in deck if c not in short]  # the other 48 cards: a full stock and 33 spit cards
    position = position_from_hands([short, long])
    assert [len(p) for p in position.stock[0]] == [1, 1, 1, 1, 0]
    assert position.spit_cards[0] == () and len(position.spit_cards[1]) == 32
    assert position.spit_piles[0] == () and len(position.spit_piles[1]) == 1  # only one spit pile
    assert all(m.kind != PLAY or m.target == 1 for m in legal_moves(position))
    # whatever happens, player 0 never spits and pile A stays empty
    line = position
    for _ in range(12):
        if terminal(line) is not None:
            break
        line = apply(line, legal_moves(line)[0])
        assert line.spit_piles[0] == () and line.spit_cards[0] == ()


def test_the_player_without_spit_cards_can_win_the_round():
    position = pos("TC.-.-.-.-:- | 2S.3S.-.-.-:4H5H | 9D - | 0")
    assert terminal(apply(position, parse_move("1>A"))).places == (0, 1)


# -- keys, progress, values --------------------------------------------------------------------------


def test_key_ignores_suits_places_and_buried_spit_pile_cards():
    a = pos("9C8C.-.QD.-.TD:2C | 5S.-.-.-.-:- | 3H4H 7S | 0")
    b = pos("TS.QH.-.9D8D.-:2D | 5C.-.-.-.-:- | 4C 7H | 0")
    assert key(a) == key(b)
    assert key(a) != key(a._replace(to_move=1))
    assert key(a) != key(pos("9C8C.-.QD.-.TD:2C | 5S.-.-.-.-:- | 3H4H - | 0"))
    assert key(a) != key(pos("8C9C.-.QD.-.TD:2C | 5S.-.-.-.-:- | 3H4H 7S | 0"))  # order in a pile matters


def test_passed_flag_is_in_the_key():
    a = pos("9C.-.-.-.-:2C | 9S.-.-.-.-:- | 4D 4H | 0")
    b = apply(apply(a, PASS_MOVE), PASS_MOVE)
    assert key(apply(a, PASS_MOVE)) != key(a._replace(to_move=1))
    assert b.to_move == 0 and key(b) != key(a)


positions_strategy = st.builds(random_small_position, st.integers(0, 2**32), st.integers(1, 6), st.integers(0, 3))


@st.composite
def played_positions(draw):
    """A dealt round played on for a while by legal moves chosen by hypothesis."""
    position = position_from_code(f"SP1-N-{''.join(draw(st.text('ABCDEFGHIJKLMNOPQRSTUVWXYZ', min_size=7, max_size=7)))}")
    for _ in range(draw(st.integers(0, 60))):
        moves = legal_moves(position)
        if not moves:
            break
        position = apply(position, moves[draw(st.integers(0, len(moves) - 1))])
    return position


any_position = st.one_of(positions_strategy, played_positions())


@settings(max_examples=150, deadline=None)
@given(any_position)
def test_text_and_json_round_trip(position):
    assert parse_position(str(position)) == position
    assert position_from_json(json.loads(json.dumps(position.to_json()))) == position
    assert hash(position) == hash(parse_position(str(position)))


@settings(max_examples=150, deadline=None)
@given(any_position)
def test_moves_round_trip_and_every_action_lowers_progress(position):
    for move in legal_moves(position):
        assert parse_move(str(move)) == move
        child = apply(position, move)
        assert progress(child) < progress(position)  # hence no position repeats: the game is acyclic


@settings(max_examples=100, deadline=None)
@given(any_position)
def test_successors_agree_with_legal_moves_and_apply(position):
    assert GAME.successors(position) == [(m, apply(position, m)) for m in legal_moves(position)]
    assert (terminal(position) is None) == bool(legal_moves(position))


@settings(max_examples=100, deadline=None)
@given(any_position, st.integers(0, 4), st.integers(0, 4), st.integers(0, 2))
def test_apply_accepts_exactly_the_legal_moves(position, source, target, kind):
    move = SpitMove(kind, source, target % 2 if kind == PLAY else target) if kind != PASS else PASS_MOVE
    if move in legal_moves(position):
        apply(position, move)
    else:
        with pytest.raises(IllegalMoveError):
            apply(position, move)


@settings(max_examples=100, deadline=None)
@given(any_position)
def test_key_is_invariant_under_suit_renaming_and_place_permutation(position):
    perm_suits = [2, 0, 3, 1]

    def rename(c):
        return 13 * perm_suits[c // 13] + c % 13

    def ren(cards):
        return tuple(rename(c) for c in cards)

    stock = tuple(tuple(ren(p) for p in reversed(seat)) for seat in position.stock)
    other = SpitPosition(stock, tuple(ren(s) for s in position.spit_cards),
                         tuple(ren(p) for p in position.spit_piles), position.to_move, position.passed)
    assert key(other) == key(position)
    assert sorted(key(apply(other, m)) for m in legal_moves(other)) == sorted(key(apply(position, m)) for m in legal_moves(position))


def test_random_playouts_from_deals_end_and_conserve_cards():
    for number in range(0, DEAL_COUNT, DEAL_COUNT // 25):
        position = position_from_deal(deal_spit(number))
        rng = SplitMix64(number)
        cards = sorted(position.cards())
        steps = 0
        while terminal(position) is None:
            moves = legal_moves(position)
            position = apply(position, moves[rng.below(len(moves))])
            steps += 1
            assert sorted(position.cards()) == cards
        assert 15 <= steps < 200


# -- notation and errors --------------------------------------------------------------------------------


@pytest.mark.parametrize("text, move", [("3>A", SpitMove(PLAY, 2, 0)), ("3>b", SpitMove(PLAY, 2, 1)), (" 4>2 ", SpitMove(FILL, 3, 1)),
                                        ("pass", PASS_MOVE), ("PASS", PASS_MOVE), ("-", PASS_MOVE)])
def test_parse_move(text, move):
    assert parse_move(text) == move


@pytest.mark.parametrize("text, words", [("6>A", "expected"), ("3>C", "expected"), ("3>3", "place it is in"), ("", "expected"),
                                         ("3A", "expected")])
def test_bad_moves_say_why(text, words):
    with pytest.raises(MoveError, match=words):
        parse_move(text)


def test_replay_names_the_failing_move():
    start = position_from_code("SP1-N-AAAAAAA")
    with pytest.raises(LineError, match=r"move 2 \('5>A'\)") as info:
        replay(start, "1>A, 5>A")
    assert info.value.index == 2
    with pytest.raises(LineError, match=r"move 1 \('9>A'\)"):
        replay(start, "9>A")
    result = replay(start, "1>A 3>B")
    assert len(result.positions) == 3 and result.position.to_move == 0


@pytest.mark.parametrize(
    "mutate, words",
    [
        (lambda d: d.pop("players"), "missing key 'players'"),
        (lambda d: d["players"].pop(), "two objects"),
        (lambda d: d["players"][0]["stock"].pop(), r"players\[0\].stock: expected a list of 5 piles"),
        (lambda d: d["players"][1]["stock"][2].append("ZZ"), r"players\[1\].stock\[2\]\[0\]"),
        (lambda d: d["players"][1]["spit"].append("KC"), "KC is also in"),
        (lambda d: d.__setitem__("to_move", 2), "to_move: expected 0 or 1"),
        (lambda d: d.__setitem__("passed", "yes"), "passed: expected true or false"),
        (lambda d: d.__setitem__("spit_piles", [[]]), "spit_piles"),
        (lambda d: d.__setitem__("passed", True), "has a legal action"),
    ],
)
def test_bad_position_json_names_the_field(mutate, words):
    data = json.loads(json.dumps(position_from_code("SP1-N-AAAAAAA").to_json()))
    data["players"][1]["stock"][2] = []
    mutate(data)
    with pytest.raises(PositionError, match=words):
        position_from_json(data)


def test_both_stocks_empty_is_not_a_position():
    with pytest.raises(PositionError, match="both stocks are empty"):
        pos("-.-.-.-.-:- | -.-.-.-.-:- | 4D - | 0")


@pytest.mark.parametrize("text", ["nonsense", "9C.-.-.-:- | 9S.-.-.-.-:- | 4D - | 0", "9C.-.-.-.-:- | 9S.-.-.-.-:- | 4D - | 2",
                                  "9X.-.-.-.-:- | 9S.-.-.-.-:- | 4D - | 0", "9C.-.-.-.-:- | 9S.-.-.-.-:- | 4D | 0"])
def test_bad_position_text(text):
    with pytest.raises(PositionError):
        parse_position(text)


def test_errors_are_value_errors():
    assert issubclass(PositionError, ValueError) and issubclass(IllegalMoveError, IllegalMoveError)
    assert issubclass(LineError, ValueError)


def test_docs_position_example_matches_the_code():
    from pathlib import Path

    text = (Path(__file__).resolve().parents[2] / "docs" / "rules" / "spit.md").read_text(encoding="utf-8")
    block = text[text.index("## Position JSON") :]
    block = block[block.index("```json") + 7 :]
    data = json.loads(block[: block.index("```")])
    position = position_from_json(data)
    assert position.to_json() == data
    line = text[text.index("Text form (one line") :]
    line = line[line.index("`") + 1 :]
    assert parse_position(line[: line.index("`")]) == position
