"""Six-card Golf rules (docs/rules/golf.md): one test or more per rule sentence."""

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from halfmoon.dealcodes import DEAL_COUNT, DealCode, SplitMix64, parse_card
from halfmoon.solver.errors import InputError, LineError, MoveError, PositionError
from halfmoon.solver.games.golf.kernel import GOLF
from halfmoon.solver.games.golf.policy import play_forward, policy_move
from halfmoon.solver.games.golf.rules import (
    ENDED_LAST_TURNS,
    ENDED_REPETITION,
    ENDED_STOCK,
    Match,
    Move,
    Position,
    card_code,
    card_value,
    hand_score,
    parse_move,
    replay,
)


def cards(text: str) -> tuple[int, ...]:
    return tuple(card_code(parse_card(c)) for c in text.split())


def make(hands: list[str], ups: list[str], stock: str, discard: str, to_move: int = 0, **extra) -> Position:
    """A hand-made position; `ups` lists each seat's face-up slots as digits, e.g. '1256'."""
    data = {
        "hands": [{"cards": h.split(), "up": [int(d) for d in u]} for h, u in zip(hands, ups)],
        "stock": stock.split(),
        "discard": discard.split(),
        "to_move": to_move,
    } | extra
    return Position.from_json(data)


# -- scoring ------------------------------------------------------------------------------------


def test_seed_example_scores_8():
    # top K♠ 3♦ 7♥, bottom K♣ 3♠ A♥: K+K = 0, 3+3 = 0, 7+1 = 8
    assert hand_score(cards("KS 3D 7H KC 3S AH")) == 8


@pytest.mark.parametrize(
    "card, points", [("AS", 1), ("2H", 2), ("5C", 5), ("9D", 9), ("TC", 10), ("JD", 10), ("QS", 10), ("KH", 0)]
)
def test_card_values(card, points):
    assert card_value(card_code(parse_card(card))) == points


def test_pairs_count_only_in_a_column_never_in_a_row():
    assert hand_score(cards("5H 5C 9D KS KD 8C")) == 5 + 5 + 9 + 8  # 5 5 side by side: no pair
    assert hand_score(cards("5H 9D KS 5C 9C KD")) == 0  # three column pairs
    assert hand_score(cards("QH JD KS JC QD KC")) == 40  # J and Q are both 10 but not the same rank


def test_minus_two_variant():
    hand = cards("2H 7D KS 9C 2D KC")  # 2+9, 7+2, K+K
    assert hand_score(hand) == 11 + 9 + 0
    assert hand_score(hand, minus_two=True) == 7 + 5 + 0
    assert hand_score(cards("2H 2S 2C AD 3D 4D"), minus_two=True) == (-2 + 1) + (-2 + 3) + (-2 + 4)
    assert hand_score(cards("2H 9D KS 2C 9C KD"), minus_two=True) == 0  # a column of two 2s is a pair: 0
    assert card_value(card_code(parse_card("2S")), minus_two=True) == -2


def test_a_round_can_end_below_zero_with_minus_two():
    p = make(["2H 2D KS 5C 6C KC", "AH AD AC 3H 3D 3S"], ["123456", "12"], "9S TS", "4H", 1, last_turn_from=0,
             minus_two=True)
    end = p.apply(parse_move("SX"))
    assert end.result().reason == ENDED_LAST_TURNS and end.result().scores[0] == -2 + 5 - 2 + 6 + 0


# -- set-up ---------------------------------------------------------------------------------------


def test_setup_each_player_turns_up_two_of_their_choice_in_turn_then_seat_0_plays():
    p = Position.from_code("GF1-3-AAAAAAC")
    assert p.up == 0 and p.in_setup and p.to_move == 0 and len(p.discard) == 1 and len(p.stock) == 51 - 18
    assert [str(m) for m in p.legal_moves()][:3] == ["F1+2", "F1+3", "F1+4"] and len(p.legal_moves()) == 15
    p = p.apply(parse_move("F1+5"))
    assert p.up_mask(0) == 0b10001 and p.to_move == 1 and p.in_setup
    p, _ = replay(p, "F6+2 F34")
    assert not p.in_setup and p.to_move == 0
    assert [p.up_mask(s) for s in range(3)] == [0b10001, 0b100010, 0b1100]
    with pytest.raises(MoveError, match="set-up is over"):
        p.apply(parse_move("F1+2"))


def test_setup_must_come_first():
    p = Position.from_code("GF1-2-AAAAAAB")
    with pytest.raises(MoveError, match="must first turn up two cards"):
        p.apply(parse_move("S1"))
    with pytest.raises(MoveError, match="different slots"):
        parse_move("F2+2")


# -- a turn ---------------------------------------------------------------------------------------

BASE = (["KC TH 9C TS 3C JS", "KS QC 3H KD 6D AD"], ["15", "26"], "3S 4C QS", "8H JD")


def test_take_the_discard_and_swap_it_face_up_the_old_card_goes_on_the_discard():
    p = make(*BASE)
    q = p.apply(parse_move("D2"))  # JD into slot 2 (face down TH), TH onto the discard
    assert q.hand(0) == cards("KC JD 9C TS 3C JS") and q.up_mask(0) == 0b10011
    assert q.discard == cards("8H TH") and q.stock == p.stock and q.to_move == 1


def test_swap_a_face_up_card_too():
    q = make(*BASE).apply(parse_move("D1"))
    assert q.hand(0)[0] == cards("JD")[0] and q.discard[-1] == cards("KC")[0] and q.up_mask(0) == 0b10001


def test_draw_from_the_stock_and_swap_or_discard_it():
    p = make(*BASE)
    q = p.apply(parse_move("S6"))
    assert q.hand(0)[5] == cards("3S")[0] and q.up_mask(0) == 0b110001
    assert q.discard == cards("8H JD JS") and q.stock == cards("4C QS")
    q = p.apply(parse_move("SX"))
    assert q.hands == p.hands and q.up == p.up and q.discard == cards("8H JD 3S") and q.stock == cards("4C QS")


def test_a_card_taken_from_the_discard_cannot_go_straight_back():
    p = make(*BASE)
    assert "DX" not in {str(m) for m in p.legal_moves()}
    with pytest.raises(MoveError, match="unknown move"):
        parse_move("DX")


def test_legal_moves_in_play_and_with_an_empty_discard_pile():
    p = make(*BASE)
    assert [str(m) for m in p.legal_moves()] == [f"D{k}" for k in range(1, 7)] + [f"S{k}" for k in range(1, 7)] + ["SX"]
    empty = make(BASE[0], BASE[1], BASE[2], "")
    assert [str(m) for m in empty.legal_moves()] == [f"S{k}" for k in range(1, 7)] + ["SX"]
    with pytest.raises(MoveError, match="discard pile is empty"):
        empty.apply(parse_move("D1"))


def test_play_passes_to_the_left():
    p = make(["KC TH 9C TS 3C JS", "KS QC 3H KD 6D AD", "2C 3D 4H 5S 6H 7S"], ["12", "12", "12"], "QS 4C 8C 9D", "8H", 1)
    seats = []
    for move in ("SX", "SX", "SX"):
        seats.append(p.to_move)
        p = p.apply(parse_move(move))
    assert seats == [1, 2, 0] and p.to_move == 1


# -- the end of a round ----------------------------------------------------------------------------


def test_last_turn_rule_everyone_else_plays_one_more_turn():
    hands = ["KC TH 9C TS 3C JS", "KS QC 3H KD 6D AD", "2C 3D 4H 5S 6H 7S"]
    p = make(hands, ["12345", "12", "12"], "QS 4C 8C 9D 5D", "8H", 0)
    p = p.apply(parse_move("S6"))  # seat 0 turns its last card: goes out
    assert p.ender == 0 and p.ended() is None and p.to_move == 1
    p = p.apply(parse_move("S3"))
    assert p.ended() is None and p.to_move == 2
    p = p.apply(parse_move("SX"))
    assert p.ended() == ENDED_LAST_TURNS and p.legal_moves() == []
    result = GOLF.terminal(p)
    assert result.scores == p.scores() and result.low_wins
    with pytest.raises(MoveError, match="round is over"):
        p.apply(parse_move("SX"))


def test_going_out_during_the_last_turns_gives_no_extra_turns():
    p = make(["KC TH 9C TS 3C JS", "KS QC 3H KD 6D AD"], ["12345", "12345"], "QS 4C 8C", "8H", 0)
    p = p.apply(parse_move("D6"))
    assert p.ender == 0
    p = p.apply(parse_move("D6"))
    assert p.ended() == ENDED_LAST_TURNS and p.ender == 0 and p.up_mask(1) == 63


def test_two_players_the_other_gets_exactly_one_turn():
    p = make(["KC TH 9C TS 3C JS", "KS QC 3H KD 6D AD"], ["12345", "12"], "QS 4C 8C", "8H", 0)
    p = p.apply(parse_move("S6")).apply(parse_move("SX"))
    assert p.ended() == ENDED_LAST_TURNS


def test_stock_exhausted_ends_the_round_at_once():
    p = make(*BASE[:2], "QS", "8H JD")
    for move in ("S1", "SX"):
        end = p.apply(parse_move(move))
        assert end.stock == () and end.ended() == ENDED_STOCK and end.result().scores == end.scores()
    # the discard can still be taken while the stock lasts
    assert p.apply(parse_move("D3")).ended() is None


def test_all_cards_count_at_the_end_face_down_ones_too():
    p = make(["KC TH 9C TS 3C JS", "KS QC 3H KD 6D AD"], ["12", "12"], "QS", "8H")
    end = p.apply(parse_move("SX"))
    assert end.result().scores == (hand_score(cards("KC TH 9C TS 3C JS")), hand_score(cards("KS QC 3H KD 6D AD")))
    assert end.result().places == (1, 0)


CYCLE = (["5C 9D KS 5S 9S KH", "2C 3D 4H 2S 3S 4S"], ["12", "12"], "QS 4C", "7H")


def test_a_repeated_position_ends_the_round_at_once():
    p = make(*CYCLE)
    start = p
    line = "D1 D1 D1 D1 D1 D1".split()  # three cards rotate through slot 1, slot 1 and the top
    for i, move in enumerate(line):
        assert p.ended() is None, i
        p = p.apply(parse_move(move))
    assert p.repeated and p.ended() == ENDED_REPETITION
    assert p.hands == start.hands and p.discard == start.discard and p.to_move == start.to_move
    assert p.result().scores == start.scores()
    assert p.legal_moves() == []


def test_repetition_needs_the_same_player_to_move():
    p = make(*CYCLE)
    seen_keys = {(p.hands, p.discard[-1])}
    p = p.apply(parse_move("D1")).apply(parse_move("D1")).apply(parse_move("D1"))
    assert (p.hands, p.discard[-1]) not in seen_keys or p.to_move != 0
    assert not p.repeated


def test_a_stock_draw_or_a_turned_card_clears_the_history():
    p = make(*CYCLE).apply(parse_move("D1")).apply(parse_move("D1"))
    assert len(p.seen) == 2
    assert p.apply(parse_move("SX")).seen == frozenset()
    assert p.apply(parse_move("D4")).seen == frozenset()  # slot 4 was face down
    assert len(p.apply(parse_move("D2")).seen) == 3


def test_the_game_is_acyclic_with_the_history_in_the_position():
    p = make(*CYCLE)
    keys = set()
    for _ in range(6):
        keys.add(GOLF.key(p))
        p = GOLF.apply(p, Move("D", 0))
    assert GOLF.key(p) not in keys and p.repeated


# -- lines, JSON, moves -----------------------------------------------------------------------------


def test_replay_reports_the_failing_move():
    p = Position.from_code("GF1-2-AAAAAAB")
    with pytest.raises(LineError, match=r"move 3 \('F1\+2'\)"):
        replay(p, "F1+2, F3+4, F1+2")
    with pytest.raises(LineError, match="move 1"):
        replay(p, "Z9")


@pytest.mark.parametrize("text", ["F1+5", "D3", "S6", "SX"])
def test_move_text_round_trips(text):
    assert str(parse_move(text)) == text and str(parse_move(text.lower())) == text


def test_move_aliases():
    assert parse_move("f51") == Move("F", 0, 4) and parse_move(" sx ") == Move("S", -1)


def random_position(number: int, players: int, steps: int, seed: int) -> Position:
    """A deal played on at random, preferring swaps among face-up cards (histories, repetitions)."""
    rng = SplitMix64(seed)
    p = Position.from_code(str(DealCode("GF", 1, str(players), number)), minus_two=bool(seed & 1))
    for _ in range(steps):
        moves = p.legal_moves()
        if not moves:
            break
        internal = [m for m in moves if m.kind == "D" and p.up >> (6 * p.to_move + m.a) & 1]
        pool = internal if internal and rng.below(3) else moves
        p = p.apply(pool[rng.below(len(pool))])
    return p


@settings(max_examples=60, deadline=None)
@given(st.integers(0, DEAL_COUNT - 1), st.integers(2, 6), st.integers(0, 60), st.integers(0, 2**32))
def test_json_round_trips(number, players, steps, seed):
    p = random_position(number, players, steps, seed)
    data = json.loads(json.dumps(p.to_json()))
    assert Position.from_json(data) == p
    assert GOLF.key(Position.from_json(data)) == GOLF.key(p)


@settings(max_examples=30, deadline=None)
@given(st.integers(0, DEAL_COUNT - 1), st.integers(2, 6), st.integers(0, 2**32))
def test_rounds_always_end(number, players, seed):
    """Termination: any line ends; the number of moves is bounded by the documented rules."""
    p = random_position(number, players, 10_000, seed)
    assert p.ended() is not None


@pytest.mark.parametrize(
    "change, words",
    [
        (lambda d: d.pop("stock"), "missing key 'stock'"),
        (lambda d: d.update(to_move=5), "'to_move' must be a seat"),
        (lambda d: d["hands"][0].update(cards=["KC"]), "hands[0].cards: expected a list of 6"),
        (lambda d: d["hands"][0].update(up=[7]), "slot 7 is not 1-6"),
        (lambda d: d["hands"][0].update(up=[1]), "fewer than 2 cards up"),
        (lambda d: d["hands"][1].update(up=[1, 2, 3, 4, 5, 6]), "last_turn_from"),
        (lambda d: d.update(stock=["KC"]), "KC appear more than once"),
        (lambda d: d.update(discard=["XX"]), "discard[0]"),
        (lambda d: d.update(history=["0:8H:nonsense"]), "history[0]"),
        (lambda d: d.update(repeated=True), "'repeated' must be true exactly when"),
        (lambda d: d.update(game="shithead"), "expected 'golf'"),
    ],
)
def test_bad_position_json_names_the_place(change, words):
    data = make(*BASE).to_json()
    change(data)
    with pytest.raises(PositionError) as error:
        Position.from_json(data)
    assert words in str(error.value)


def test_history_json_is_checked_against_the_position():
    p = make(*CYCLE).apply(parse_move("D1")).apply(parse_move("D1"))
    data = p.to_json()
    assert len(data["history"]) == 2
    bad = dict(data, history=[data["history"][0].replace("9D", "QS")])
    with pytest.raises(PositionError, match="other cards"):
        Position.from_json(bad)


# -- the seeded policy and matches ------------------------------------------------------------------


def test_play_forward_is_deterministic_and_stops_at_the_stock_count():
    start = Position.from_code("GF1-2-AAAAAAB")
    a = play_forward(start, 6, 3)
    b = play_forward(start, 6, 3)
    assert a == b and len(a[0].stock) == 6 and a[0].ended() is None
    assert replay(start, a[1])[0] == a[0]
    assert play_forward(start, 6, 4) != a
    with pytest.raises(InputError):
        play_forward(start, -1, 0)


def test_policy_never_peeks_at_face_down_cards():
    """Two positions that differ only in a face-down card get the same policy move."""
    p = make(["KC TH 9C TS 3C JS", "KS QC 3H KD 6D AD"], ["15", "26"], "3S 4C QS", "8H JD")
    q = make(["KC 2H 9C TS 3C JS", "KS QC 3H KD 6D AD"], ["15", "26"], "3S 4C QS", "8H JD")
    assert policy_move(p, SplitMix64(5)) == policy_move(q, SplitMix64(5))


def test_match_totals_over_nine_rounds_and_the_one_round_variant():
    match = Match(3)
    for r in range(9):
        assert not match.over
        match = match.add((r, 2, 10 - r))
    assert match.over and match.totals == (36, 18, 54) and match.winners == (1,)
    with pytest.raises(InputError, match="already played"):
        match.add((0, 0, 0))
    short = Match(2, rounds=1).add((5, 5))
    assert short.over and short.winners == (0, 1)
    assert [Match(4).first_seat(r) for r in (1, 2, 5)] == [0, 1, 0]
    with pytest.raises(InputError):
        Match(2, rounds=3)
    with pytest.raises(InputError, match="no winner yet"):
        Match(2).winners
