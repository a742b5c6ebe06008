"""The packed engine against a second, readable transcription of the rules; value round trips.

`Ref` below is written from docs/rules/eight_and_a_half.md alone, on readable positions, with no
use of `rules.py` or the packed engine. Random playouts (from EH1 deals with 2–5 players and from
small random positions) check that both agree on every legal move and on every position reached.
"""

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from halfmoon.dealcodes import DEAL_COUNT, SplitMix64
from halfmoon.dealcodes.eight_and_a_half import COPIES, SYMBOLS, eh_deal_from_code
from halfmoon.solver.errors import IllegalMoveError, LineError, MoveError, PositionError
from halfmoon.solver.games.eight_and_a_half.kernel import EightAndAHalf, decode, encode
from halfmoon.solver.games.eight_and_a_half.policy import play_until_endgame
from halfmoon.solver.games.eight_and_a_half.position import (
    Move,
    Position,
    Seat,
    parse_line,
    parse_move,
)

G = EightAndAHalf()


# -- the reference transcription -----------------------------------------------------------------


def ref_pile(pile: list[str]) -> tuple[int | None, bool]:
    """(value in half steps or None, last non-Demon card is a ½)."""
    value, top_half = None, False
    for card in pile:
        if card == "D":
            continue
        if card == "H":
            value, top_half = (0 if value is None else value) + 1, True
        elif card == "8" and top_half:
            value, top_half = 17, False
        else:
            value, top_half = 2 * int(card), False
    return value, top_half


def ref_fits(pile: list[str], card: str) -> bool:
    value, _ = ref_pile(pile)
    if card == "D":
        return True
    if card == "H":
        return value != 17
    if value is None:
        return True
    if card == "0":
        return value % 2 == 0
    if value == 10:
        return int(card) <= 5
    return 2 * int(card) >= value


def ref_legal(pos: Position) -> list[str]:
    seat = pos.seats[pos.to_move]
    pile = [str(c) for c in pos.pile]
    hand = [str(c) for c in seat.hand]
    if hand:
        moves = []
        for face in sorted(set(hand), key=SYMBOLS.index):
            built = list(pile)
            for k in range(1, hand.count(face) + 1):
                if not ref_fits(built, face):
                    break
                built.append(face)
                moves.append(face * k)
        value, _ = ref_pile(pile)
        if "8" in hand and "H" in hand and (value is None or (value <= 17 and value != 10)):
            moves.append("8+H")
        return moves or ["eat"]
    if seat.open:
        faces = sorted({str(c) for c in seat.open}, key=SYMBOLS.index)
        return ["o" + f for f in faces if ref_fits(pile, f)] or ["eat"]
    return ["b" + f for f in sorted({str(c) for c in seat.blind}, key=SYMBOLS.index)]


def ref_apply(pos: Position, text: str) -> Position:
    n, t = pos.players, pos.to_move
    seats = [
        {"hand": [str(c) for c in s.hand], "open": [str(c) for c in s.open], "blind": [str(c) for c in s.blind],
         "bank": [str(c) for c in s.bank], "eaten": s.eaten, "table": s.table}
        for s in pos.seats
    ]
    pile = [str(c) for c in pos.pile]
    me = seats[t]

    def build(to_move: int) -> Position:
        return Position(
            tuple(Seat(s["hand"], s["open"], s["blind"], s["bank"], s["eaten"], s["table"]) for s in seats),
            pile, to_move)

    def eat(who: dict) -> None:
        nonlocal pile
        if who["table"]:
            who["hand"] += pile
        else:
            who["eaten"] += len(pile)
        pile = []

    if text == "eat":
        eat(me)
        return build((t + 1) % n)
    before, top_half = ref_pile(pile)
    if text == "8+H":
        cards, source = ["H", "8"], "hand"
    elif text[0] in "ob":
        cards, source = [text[1]], "open" if text[0] == "o" else "blind"
    else:
        cards, source = list(text), "hand"
    for card in cards:
        me[source].remove(card)
    if source == "blind" and not ref_fits(pile, cards[0]):
        pile.append(cards[0])
        me["hand"] += pile
        pile = []
        return build((t + 1) % n)
    first = cards[0]
    catch = (text != "8+H" and first not in "HD" and before is not None and before % 2 == 1 and before <= 17
             and 2 * int(first) == before + 1 and not (first == "8" and top_half))
    pile += cards
    if source == "hand":
        for _ in range(len(cards)):
            if me["bank"]:
                me["hand"].append(me["bank"].pop(0))
    if not me["bank"] and not me["hand"]:
        me["table"] = True
    if catch:
        eat(seats[(t - 1) % n])
        return build(t)
    return build((t + 1) % n)


def check_step(p: int, every_move: bool) -> None:
    pos = decode(p)
    moves = [str(m) for m in G.legal_moves(p)]
    assert moves == ref_legal(pos), str(pos)
    assert [(str(m), c) for m, c in G.successors(p)] == [(m, G.play(p, m)) for m in moves]
    for text in moves if every_move else []:
        assert decode(G.play(p, text)) == ref_apply(pos, text), (str(pos), text)


def playout(p: int, rng: SplitMix64, every_move: bool, limit: int = 400) -> int:
    steps = 0
    while G.terminal(p) is None and steps < limit:
        check_step(p, every_move)
        moves = G.legal_moves(p)
        move = moves[rng.below(len(moves))]
        expected = ref_apply(decode(p), str(move))
        p = G.apply(p, move)
        assert decode(p) == expected
        assert encode(decode(p)) == p
        steps += 1
    return steps


# -- random positions ----------------------------------------------------------------------------


def random_position(rng: SplitMix64, players: int = 2) -> Position:
    """A small legal table: a few cards per place, drawn without exceeding the deck."""
    left = [c for face, copies in enumerate(COPIES) for c in [face] * copies]

    def take(k: int) -> list[int]:
        return [left.pop(rng.below(len(left))) for _ in range(k)]

    seats = []
    for _ in range(players):
        bank = take(rng.below(3)) if rng.below(3) == 0 else []
        hand = take(3) if bank else take(rng.below(4))
        seats.append(Seat(hand, take(rng.below(3)), take(rng.below(3)), bank, rng.below(3),
                          bool(rng.below(2)) and not bank))
    for i in [i for i, s in enumerate(seats) if s.is_out][1:]:  # the game ends when the first goes out
        seats[i] = Seat(take(1))
    return Position(tuple(seats), take(rng.below(4)), rng.below(players))


def test_playouts_from_deals_agree_with_the_reference():
    rng = SplitMix64(85)
    total = 0
    for i in range(12):
        players = 2 + i % 4
        p = G.encode(Position.from_deal(eh_deal_from_code(f"EH1-{players}-AAAAA{chr(65 + i)}A")))
        total += playout(p, rng, every_move=(i < 4))
    assert total > 500


def test_playouts_from_small_random_positions_agree_on_every_move():
    rng = SplitMix64(8)
    for i in range(150):
        pos = random_position(rng, 2 + i % 3)
        if pos.winner is not None:
            continue
        playout(G.encode(pos), rng, every_move=True, limit=60)


# -- values and round trips ----------------------------------------------------------------------


@st.composite
def positions(draw) -> Position:
    return random_position(SplitMix64(draw(st.integers(0, 2**64 - 1))), draw(st.integers(2, 5)))


@settings(max_examples=150, suppress_health_check=[HealthCheck.too_slow])
@given(positions())
def test_text_json_and_packed_forms_round_trip(pos):
    assert Position.parse(str(pos)) == pos
    assert Position.from_json(json.loads(json.dumps(pos.to_json()))) == pos
    assert decode(encode(pos)) == pos
    assert hash(pos) == hash(Position.parse(str(pos)))


@settings(max_examples=100, suppress_health_check=[HealthCheck.too_slow])
@given(positions())
def test_key_ignores_only_the_pile_order(pos):
    shuffled = Position(pos.seats, tuple(sorted(pos.pile, key=lambda c: (c != 11, c))), pos.to_move)
    same_value = shuffled.pile_v2 == pos.pile_v2 and \
        (G.encode(shuffled) >> 14) & 1 == (G.encode(pos) >> 14) & 1
    if same_value:
        assert G.key(G.encode(shuffled)) == G.key(G.encode(pos))
    other = Position(pos.seats, pos.pile, (pos.to_move + 1) % pos.players)
    assert G.key(G.encode(other)) != G.key(G.encode(pos))


def test_moves_round_trip_and_aliases():
    for text in ["7", "77", "HH", "DDD", "000", "8+H", "o7", "oH", "b0", "bD", "eat"]:
        move = parse_move(text)
        assert str(move) == text and parse_move(str(move)) == move and isinstance(hash(move), int)
    assert parse_move("8½") == parse_move("H8") == parse_move("8 + ½") == parse_move("8+H")
    assert parse_move("½½") == parse_move("hh") and parse_move("O7") == parse_move("o7")
    assert parse_move("EAT") == parse_move("eat")
    assert [str(m) for m in parse_line("7, 77  8 + H,o5 b2 eat")] == ["7", "77", "8+H", "o5", "b2", "eat"]
    assert Move.parse("HH").pretty() == "½½"


@pytest.mark.parametrize("text, words", [("78", "identical"), ("", "empty"), ("o77", "one card"),
                                         ("7777777", "only 6"), ("x7", "unknown card"), ("b", "unknown card")])
def test_bad_moves_say_why(text, words):
    with pytest.raises(MoveError, match=words):
        parse_move(text)


def test_a_bad_line_names_the_move():
    with pytest.raises(LineError, match=r"move 2 \('9'\): .*lower than the pile's 9½"):
        G.replay(G.start("H9/5/5 ; 9/5/5 | 9 | 0"), "H 9")
    with pytest.raises(LineError, match=r"move 3 \('zz'\)"):
        parse_line("7 8 zz")


@pytest.mark.parametrize("text, words", [
    ("7/5/5 | - | 0", "2-5 players"),
    ("7/5/5 ; 1/5/5 | - | 2", "seat 0-1"),
    ("77777777/5/5 ; 1/5/5 | - | 0", "deck has only 6"),
    ("77/5/5/8 ; 1/5/5 | - | 0", "refilled to 3"),
    ("-/-/- ; -/-/- | 5 | 0", "all out of cards"),
    ("7/5/5 ; 1/5/5 | 5 | x", "not a seat number"),
    ("7/5 ; 1/5/5 | - | 0", "hand/open/blind"),
    ("7/5/5 ; 1/5/5 | Z | 0", "unknown card"),
    ("7/5/5 ; 1/5/5", "two '|'"),
])
def test_bad_position_text_says_what_and_where(text, words):
    with pytest.raises(PositionError, match=words):
        Position.parse(text)


@pytest.mark.parametrize("data, words", [
    ([], "expected an object"),
    ({"seats": "x"}, "'seats' must be a list"),
    ({"seats": [{}, {"hand": ["7"], "colour": 1}]}, r"seats\[1\]: unknown field"),
    ({"seats": [{"hand": ["7", "Q"]}, {}]}, r"seats\[0\].hand\[1\]"),
    ({"seats": [{"hand": ["7"], "eaten": "3"}, {}]}, r"seats\[0\].eaten"),
    ({"seats": [{"hand": ["7"]}, {"hand": ["1"]}], "players": 3}, "'players' is 3"),
    ({"seats": [{"hand": ["7"]}, {"hand": ["1"]}], "game": "shithead"}, "expected 'eight-and-a-half'"),
    ({"seats": [{"hand": ["7"]}, {"hand": ["1"]}], "pile": 5}, "pile: expected a list"),
])
def test_bad_position_json_names_the_field(data, words):
    with pytest.raises(PositionError, match=words):
        Position.from_json(data)


def test_json_accepts_numbers_and_runs_of_cards():
    pos = Position.from_json({"seats": [{"hand": [7, "H"]}, {"hand": "12", "open": "D"}], "pile": "3H", "to_move": 1})
    assert str(pos) == "7H/-/-/- ; 12/D/-/- | 3H | 1" and pos.offender == 0


@pytest.mark.parametrize("move, words", [
    ("9", "seat 0 has no 9 in hand"),
    ("77", r"holds 1 card\(s\) 7 in hand, not 2"),
    ("8+H", "needs an 8 and a ½"),
    ("o5", "hand cards before table cards"),
    ("b5", "hand cards before table cards"),
])
def test_illegal_moves_say_why(move, words):
    with pytest.raises(IllegalMoveError, match=words):
        G.play(G.start("7/5/5 ; 1/5/5 | - | 0"), move)


def test_the_game_protocol_basics():
    p = G.start("7/5/5 ; 1/5/5 ; 2/-/- | 3 | 2")
    assert (G.players(p), G.to_move(p), G.terminal(p)) == (3, 2, None)
    assert isinstance(G.key(p), int) and G.key(p) == G.key(G.start(str(decode(p))))
    assert G.name == "eight-and-a-half" and G.acyclic is False


def test_policy_is_reproducible_and_reaches_the_endgame():
    a = G.encode(Position.from_deal(eh_deal_from_code("EH1-3-AAAAAAB")))
    end1, moves1 = play_until_endgame(a, seed=4)
    end2, moves2 = play_until_endgame(a, seed=4)
    assert end1 == end2 and moves1 == moves2
    assert G.terminal(end1) is not None or G.banks_empty(end1)
    assert G.replay(a, " ".join(map(str, moves1))) == end1
    end3, moves3 = play_until_endgame(a, seed=5)
    assert moves3 != moves1


@settings(max_examples=20, deadline=None)
@given(st.integers(0, DEAL_COUNT - 1), st.integers(2, 5))
def test_policy_runs_on_any_deal(number, players):
    from halfmoon.dealcodes import DealCode

    start = G.encode(Position.from_deal(eh_deal_from_code(str(DealCode("EH", 1, str(players), number)))))
    end, moves = play_until_endgame(start, seed=number)
    assert G.replay(start, moves) == end


def test_without_scoring_eaten_counts_are_not_kept():
    plain = EightAndAHalf(scoring=False)
    assert plain.start("34/5/5#7 ; 1/5/5 | 9 | 0") == plain.start("34/5/5 ; 1/5/5 | 9 | 0")
    assert decode(plain.play(plain.start("34/5/5 ; 1/5/5 | 9 | 0"), "eat")).seats[0].eaten == 0
    assert decode(G.play(G.start("34/5/5 ; 1/5/5 | 9 | 0"), "eat")).seats[0].eaten == 1
    result = plain.terminal(plain.replay(plain.start("-/-/7 ; 12/5/5 | 4 | 0"), "b7"))
    assert result.places == (0, 1) and result.scores is None and result.big_losers == ()
