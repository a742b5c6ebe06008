"""The exact core on Golf agrees with an independent brute force on small positions.

The brute force below is a second transcription of docs/rules/golf.md: its own state, move
list, scoring and a repetition test over the explicit path since the last irreversible move,
with plain minimax and no transposition table. It shares nothing with solver/games/golf.py but
the card parser.
"""

from __future__ import annotations

import pytest

from halfmoon.dealcodes import DealCode, SplitMix64, parse_card
from halfmoon.solver.core.exact import Limits, solve
from halfmoon.solver.core.game import GuaranteedScore, ScoreDifference
from halfmoon.solver.games.golf.adapter import ADAPTER
from halfmoon.solver.games.golf.kernel import GOLF
from halfmoon.solver.games.golf.maxn import maxn
from halfmoon.solver.games.golf.policy import play_forward
from halfmoon.solver.games.golf.rules import Position, replay

POINTS = {1: 1, 11: 10, 12: 10, 13: 0}


def bf_score(hand: list[tuple[int, str]], minus_two: bool) -> int:
    def value(rank: int) -> int:
        if rank == 2 and minus_two:
            return -2
        return POINTS.get(rank, rank)

    total = 0
    for column in range(3):
        top, bottom = hand[column][0], hand[column + 3][0]
        if top != bottom:
            total += value(top) + value(bottom)
    return total


class BruteState:
    """Everything as plain lists: hands of (rank, suit) pairs, face-up flags, stock, discard."""

    def __init__(self, p: Position) -> None:
        data = p.to_json()
        self.n = len(data["hands"])
        self.hands = [[self.card(c) for c in h["cards"]] for h in data["hands"]]
        self.up = [[k + 1 in h["up"] for k in range(6)] for h in data["hands"]]
        self.stock = [self.card(c) for c in data["stock"]]
        self.discard = [self.card(c) for c in data["discard"]]
        self.to_move = data["to_move"]
        self.ender = data["last_turn_from"]
        self.minus_two = data["minus_two"]
        self.history = [self.parse_snapshot(entry) for entry in data["history"]]

    @classmethod
    def parse_snapshot(cls, entry: str) -> tuple:
        """A history entry "<seat>:<top>:<hand>/<hand>" as a snapshot."""
        seat, top, hands = entry.split(":")
        parsed = tuple(tuple(cls.card(h[i : i + 2]) for i in range(0, 12, 2)) for h in hands.split("/"))
        return (parsed, None if top == "--" else cls.card(top), int(seat))

    @staticmethod
    def card(text: str) -> tuple[int, str]:
        c = parse_card(text)
        return (c.rank, "CDHS"[c.suit])

    def snapshot(self) -> tuple:
        top = self.discard[-1] if self.discard else None
        return (tuple(tuple(h) for h in self.hands), top, self.to_move)

    def scores(self) -> tuple[int, ...]:
        return tuple(bf_score(h, self.minus_two) for h in self.hands)

    def moves(self) -> list[str]:
        out = [f"D{k}" for k in range(1, 7)] if self.discard else []
        return out + [f"S{k}" for k in range(1, 7)] + ["SX"]

    def play(self, move: str) -> bool:
        """Apply in place; True if the move can never be undone (stock draw, turned card)."""
        seat = self.to_move
        hand, up = self.hands[seat], self.up[seat]
        if move == "SX":
            self.discard.append(self.stock.pop(0))
            irreversible = True
        else:
            k = int(move[1]) - 1
            new = self.discard.pop() if move[0] == "D" else self.stock.pop(0)
            irreversible = move[0] == "S" or not up[k]
            self.discard.append(hand[k])
            hand[k] = new
            up[k] = True
        if self.ender is None and all(up):
            self.ender = seat
        self.to_move = (seat + 1) % self.n
        return irreversible

    def copy(self) -> "BruteState":
        other = object.__new__(BruteState)
        other.__dict__ = {k: v for k, v in self.__dict__.items()}
        other.hands = [list(h) for h in self.hands]
        other.up = [list(u) for u in self.up]
        other.stock = list(self.stock)
        other.discard = list(self.discard)
        other.history = []
        return other


INF = 10**9


def ordered(state: BruteState) -> list[str]:
    """Exits before swaps among face-up cards: only speeds the pruning, never changes a value."""
    up = state.up[state.to_move]
    moves = state.moves()
    return [m for m in moves if not (m[0] == "D" and up[int(m[1]) - 1])] + [
        m for m in moves if m[0] == "D" and up[int(m[1]) - 1]
    ]


def brute(state: BruteState, path: list[tuple], value, maximizers, alpha: int = -INF, beta: int = INF,
          counter: list[int] | None = None, table: dict | None = None) -> int:
    """Alpha-beta minimax; `path` holds the snapshots since the last irreversible move, this
    position last. Exact inside (alpha, beta), a bound outside. Results are remembered only for
    positions right after an irreversible move (path of one), where no history exists."""
    counter = counter if counter is not None else [0]
    table = table if table is not None else {}
    counter[0] += 1
    if counter[0] > 2_000_000:
        raise RuntimeError("brute force too large: pick a smaller position")
    key = None
    if len(path) == 1:
        key = (path[0], tuple(state.stock), tuple(state.discard), tuple(map(tuple, state.up)), state.ender)
        if key in table:
            low, high = table[key]
            if low == high or low >= beta or high <= alpha:
                return low if low >= beta or low == high else high
    a0, b0 = alpha, beta
    is_max = state.to_move in maximizers
    best = -INF if is_max else INF
    for move in ordered(state):
        child = state.copy()
        irreversible = child.play(move)
        snap = child.snapshot()
        if not irreversible and snap in path:
            v = value(child.scores())
        elif not child.stock or (child.ender is not None and child.to_move == child.ender):
            v = value(child.scores())
        else:
            v = brute(child, [snap] if irreversible else path + [snap], value, maximizers, alpha, beta, counter, table)
        if is_max:
            best = max(best, v)
            alpha = max(alpha, best)
        else:
            best = min(best, v)
            beta = min(beta, best)
        if alpha >= beta:
            break
    if key is not None:
        low, high = table.get(key, (-INF, INF))
        if a0 < best < b0:
            table[key] = (best, best)
        elif best <= a0:
            table[key] = (low, min(high, best))
        else:
            table[key] = (max(low, best), high)
    return best


def brute_move_values(p: Position, value, maximizers) -> dict[str, int]:
    """Every root move's exact value (full window each), repetition judged on the explicit path."""
    root = BruteState(p)
    base = root.history + [root.snapshot()]
    out = {}
    table: dict = {}
    for move in root.moves():
        child = root.copy()
        irreversible = child.play(move)
        snap = child.snapshot()
        if not irreversible and snap in base:
            out[move] = value(child.scores())
        elif not child.stock or (child.ender is not None and child.to_move == child.ender):
            out[move] = value(child.scores())
        else:
            path = [snap] if irreversible else base + [snap]
            out[move] = brute(child, path, value, maximizers, table=table)
    return out


def small_positions(count: int, players: int, seed: int):
    """Seeded deals played on by the policy (which keeps everyone in) to one stock card."""
    rng = SplitMix64(seed)
    for _ in range(count):
        code = str(DealCode("GF", 1, str(players), rng.below(26**7)))
        p, _ = play_forward(Position.from_code(code, minus_two=bool(rng.below(2))), 1, rng.below(1 << 30))
        if p.ended() is None:
            yield p


# Found by a seeded random search: after five swaps among face-up cards, player 1's best line
# closes a repetition, so the history changes the value (-4 with it, -6 without).
REPEAT = {
    "hands": [{"cards": ["5D", "6H", "JD", "8S", "KC", "2D"], "up": [3, 4]},
              {"cards": ["4S", "4D", "7D", "9H", "QS", "TC"], "up": [3, 6]}],
    "stock": ["3D"], "discard": ["AD"], "to_move": 1,
    "history": ["0:AD:5D6HTC8SKC2D/4S4D7D9HQSJD", "0:JD:5D6HAD8SKC2D/4S4D7D9HQSTC", "0:TC:5D6HJD8SKC2D/4S4D7D9HQSAD",
                "1:JD:5D6HTC8SKC2D/4S4D7D9HQSAD", "1:TC:5D6HAD8SKC2D/4S4D7D9HQSJD"],
}

HAND_MADE = [
    # cycles possible: both players hold face-up cards; one stock card left
    {"hands": [{"cards": "AC 8D KS 6S 9S QH".split(), "up": [1, 2, 3, 4, 5]}, {"cards": "2C 8S 4H 2S 3S 7S".split(), "up": [1, 2, 3, 5, 6]}],
     "stock": ["AS"], "discard": ["6H"], "to_move": 1},
    # the last turns: player 0 went out
    {"hands": [{"cards": "AC 8D KS 6S 9S QH".split(), "up": [1, 2, 3, 4, 5, 6]}, {"cards": "2C 8S 4H 2S 3S 7S".split(), "up": [2, 3]}],
     "stock": ["AS", "8C", "5D"], "discard": ["6H"], "to_move": 1, "last_turn_from": 0},
]


def two_player_cases():
    slow = pytest.mark.slow  # the brute force needs ~10 s each on these (long runs of swaps)
    repeat = [pytest.param(Position.from_json(d), marks=slow) for d in (REPEAT, dict(REPEAT, history=[]))]
    return [Position.from_json(d) for d in HAND_MADE] + list(small_positions(4, 2, 11)) + repeat


@pytest.mark.parametrize("p", two_player_cases(), ids=lambda p: f"stock{len(p.stock)}" if isinstance(p, Position) else None)
def test_two_player_values_agree_with_brute_force(p):
    me = p.to_move
    question = ScoreDifference(me)
    solution = solve(GOLF, p, question, Limits(seconds=60))
    assert solution.status == "solved"

    def value(scores):
        return scores[1 - me] - scores[me]

    expected = brute_move_values(p, value, frozenset({me}))
    assert {str(mv.move): mv.value for mv in solution.moves} == expected
    assert solution.value == max(expected.values())
    final = replay(p, solution.line)[0]
    assert final.ended() is not None and value(final.scores()) == solution.value


@pytest.mark.parametrize("p", list(small_positions(3, 3, 5)), ids=lambda p: f"stock{len(p.stock)}")
def test_three_player_guaranteed_scores_agree_with_brute_force(p):
    for seat in range(3):
        solution = solve(GOLF, p, GuaranteedScore(seat), Limits(seconds=60))
        expected = brute_move_values(p, lambda s, seat=seat: -s[seat], frozenset({seat}))
        assert {str(mv.move): mv.value for mv in solution.moves} == expected
        best = max(expected.values()) if p.to_move == seat else min(expected.values())
        assert solution.value == best


def test_repetition_changes_the_value_and_the_solver_sees_it():
    """The same cards with and without the history: the rule makes the values differ."""
    with_history, without = Position.from_json(REPEAT), Position.from_json(dict(REPEAT, history=[]))
    values = [solve(GOLF, q, ScoreDifference(1)).value for q in (with_history, without)]
    assert values == [-4, -6]
    closing = [m for m in with_history.legal_moves() if with_history.apply(m).repeated]
    assert closing and not any(without.apply(m).repeated for m in without.legal_moves())


def maxn_brute(state: BruteState, path: list[tuple]) -> tuple[int, ...]:
    """max^n as documented: own score minimised; face-up swaps only when they lower it."""
    seat = state.to_move
    best = None
    for move in state.moves():  # canonical order D1-D6 S1-S6 SX: first of equals wins
        if move[0] == "D" and state.up[seat][int(move[1]) - 1]:
            trial = list(state.hands[seat])
            trial[int(move[1]) - 1] = state.discard[-1]
            if bf_score(trial, state.minus_two) >= bf_score(state.hands[seat], state.minus_two):
                continue
        child = state.copy()
        irreversible = child.play(move)
        snap = child.snapshot()
        if (not irreversible and snap in path) or not child.stock or (
            child.ender is not None and child.to_move == child.ender
        ):
            scores = child.scores()
        else:
            scores = maxn_brute(child, [snap] if irreversible else path + [snap])
        if best is None or scores[seat] < best[seat]:
            best = scores
    return best


@pytest.mark.parametrize("p", list(small_positions(3, 3, 9)), ids=lambda p: f"stock{len(p.stock)}")
def test_maxn_agrees_with_brute_force(p):
    result = maxn(p)
    assert result.status == "solved"
    state = BruteState(p)
    assert result.scores == maxn_brute(state, state.history + [state.snapshot()])
    assert replay(p, result.line)[0].scores() == result.scores


def test_adapter_reports_replayed_lines_and_a_maxn_line():
    from halfmoon.solver.core.report import answer

    adapter = ADAPTER
    p = next(small_positions(1, 3, 3))
    report = answer(adapter, p, Limits(seconds=60))
    assert [q["id"] for q in report["questions"]] == [f"player-{s}-guaranteed-score" for s in range(3)]
    assert all(q["status"] == "solved" and q["word"] == f"score {-q['value']}" for q in report["questions"])
    extra = adapter.extra_answers(p, Limits(seconds=60))
    assert extra[0]["id"] == "maxn-line" and extra[0]["status"] == "solved" and "not a guarantee" in extra[0]["text"]
    two = Position.from_json(HAND_MADE[1])
    report = answer(adapter, two, Limits(seconds=60))
    assert report["questions"][0]["id"] == "score-difference" and adapter.extra_answers(two) == []
