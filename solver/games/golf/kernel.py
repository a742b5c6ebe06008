"""Six-card Golf as the exact core's `Game` (acyclic: repetition ends the round, with the history in the position)."""

from __future__ import annotations

from typing import Any, Callable, Sequence

from halfmoon.dealcodes.golf import HAND_SIZE

from .rules import FULL_HAND, Move, Position, RoundResult

# -- the core's view ------------------------------------------------------------------------------


class GolfGame:
    """The `solver.core.game.Game` protocol for Golf. Acyclic because a position carries the
    positions seen since the last irreversible move, so the repetition rule is part of it."""

    name = "golf"
    acyclic = True

    def players(self, position: Position) -> int:
        return len(position.hands) // HAND_SIZE

    def to_move(self, position: Position) -> int:
        return position.to_move

    def legal_moves(self, position: Position) -> Sequence[Move]:
        """The legal moves in the order that lets alpha-beta cut soonest (measured in
        benchmarks/golf_endgames.py): moves that turn the mover's last face-down card (going out,
        which ends the round soon), then SX, then the other moves that draw or turn a card, and
        last the swaps among face-up cards — the only moves that can lead back to a seen position,
        and whose lines are long."""
        moves = position.legal_moves()
        if not moves or position.in_setup:
            return moves
        base = HAND_SIZE * position.to_move
        up = position.up
        hand_up = (up >> base) & FULL_HAND
        out: list[Move] = []
        discard_stock: list[Move] = []
        others: list[Move] = []
        internal: list[Move] = []
        for move in moves:
            k = move.a
            if k < 0:
                discard_stock.append(move)
            elif hand_up >> k & 1:
                (internal if move.kind == "D" else others).append(move)
            elif hand_up | (1 << k) == FULL_HAND:
                out.append(move)
            else:
                others.append(move)
        return out + discard_stock + others + internal

    def apply(self, position: Position, move: Move) -> Position:
        return position.apply(move)

    def terminal(self, position: Position) -> RoundResult | None:
        return position.result()

    def key(self, position: Position) -> Any:
        """Everything that decides the future, packed: cards, stock, discard pile, face-up bits,
        mover, last-turn seat, variant, the repetition history and the repetition flag."""
        blob = bytes(position.hands) + b"\xfe" + bytes(position.stock) + b"\xfe" + bytes(position.discard)
        flags = (position.to_move, position.ender + 1, position.minus_two, position.repeated)
        return (blob, position.up, flags, position.seen)

    def path_kernel(self, position: Position) -> "GolfKernel":
        """The rules on packed keys without the history, for the core's alpha-beta: the search
        checks repetitions on its own path and keeps path-dependent results out of its table."""
        return GolfKernel(position)


# -- the packed kernel without history (for the core's alpha-beta with repetition on the path) -----
#
# Layout of the packed key (least significant bits first), n seats:
#   0-2 seat to move | 3-5 seat that went out first + 1 (0: nobody) | 6-11 stock cards left |
#   12-17 discard top (63: no discard) | 18-18+6n face-up bits (bit 6p+k: seat p slot k) |
#   then the 6n slots, 6 bits each (the card 0-51), seat 0 slot 1 lowest.
# The stock is a suffix of the root's stock, so its length says which cards are left; the discard
# below its top never comes back into play, so only the top is kept. The positions seen since the
# last irreversible move are not in the key: the search keeps them on its path (the repetition
# rule) and keeps results that depend on them out of its table.

from .rules import ENDED_LAST_TURNS, ENDED_REPETITION, ENDED_STOCK, _RANKS, _VALUES  # noqa: E402

_STOCK, _TOP, _UP = 6, 12, 18
_NO_TOP = 63

try:  # the compiled kernel (setup.py builds it; without it the Python kernel below gives the same keys)
    from halfmoon.solver.games.golf import _native  # type: ignore[attr-defined]
except ImportError:  # pragma: no cover - depends on the build
    _native = None

NATIVE = True  # tests switch it off to compare with the Python kernel


def native_available() -> bool:
    return _native is not None


class GolfKernel:
    """The Golf rules on packed keys without history (see the layout above), for one root.

    `successors(key)` lists ``(child_key, reversible)`` in the order of `GolfGame.legal_moves`
    (a reversible move swaps the discard top with a face-up card: the only moves after which a
    position can come back); `terminal(key)` is the round's result when the stock is empty or the
    last turns are over; `repeated(key)` the result when the move just played repeated a position.
    These three and `scores` are the compiled kernel's (`_native.Kernel`, same keys, same order)
    when it is built and `NATIVE` is on, else the Python methods `python_*` below, the reference.
    """

    successors: Callable[[int], list[tuple[int, bool]]]
    terminal: Callable[[int], RoundResult | None]
    scores: Callable[[int], tuple[int, ...]]

    def __init__(self, root: Position) -> None:
        self.players = n = root.players
        self.minus_two = root.minus_two
        self.stock = root.stock  # the root's stock, next card first
        self.values = _VALUES[root.minus_two]
        self.hand_off = _UP + HAND_SIZE * n
        self.up_mask = ((1 << (HAND_SIZE * n)) - 1) << _UP
        self.compiled = _native is not None and NATIVE
        if self.compiled:
            kernel = _native.Kernel(n, tuple(self.stock), tuple(self.values), RoundResult, ENDED_STOCK,
                                    ENDED_LAST_TURNS)
            self.successors, self.terminal, self.scores = kernel.successors, kernel.terminal, kernel.scores
        else:
            self.successors, self.terminal, self.scores = (self.python_successors, self.python_terminal,
                                                           self.python_scores)

    # -- conversion ------------------------------------------------------------------------

    def key(self, position: Position) -> int:
        """The packed key of a position reached from the root (its stock a suffix of the root's)."""
        stock = position.stock
        if len(stock) > len(self.stock) or self.stock[len(self.stock) - len(stock):] != stock:
            raise ValueError("golf kernel: the position's stock is not what is left of the root's stock")
        return self._pack(position.hands, position.discard[-1] if position.discard else _NO_TOP, position.up,
                          len(stock), position.to_move, position.ender)

    def component_key(self, hands: Sequence[int], top: int, to_move: int, position: Position) -> int:
        return self._pack(hands, top, position.up, len(position.stock), to_move, position.ender)

    def history(self, position: Position) -> list[int]:
        """The packed keys of the positions seen since the last irreversible move (`Position.seen`)."""
        out = []
        for entry in position.seen:
            hands = tuple(entry[: HAND_SIZE * self.players])
            top = entry[-2] if entry[-2] != 255 else _NO_TOP
            out.append(self._pack(hands, top, position.up, len(position.stock), entry[-1], position.ender))
        return out

    def _pack(self, hands: Sequence[int], top: int, up: int, stock_left: int, to_move: int, ender: int) -> int:
        k = to_move | (ender + 1) << 3 | stock_left << _STOCK | top << _TOP | up << _UP
        off = self.hand_off
        for card in hands:
            k |= card << off
            off += 6
        return k

    # -- the rules ---------------------------------------------------------------------------

    def to_move(self, k: int) -> int:
        return k & 7

    def python_scores(self, k: int) -> tuple[int, ...]:
        values = self.values
        off = self.hand_off
        out = []
        for _ in range(self.players):
            total = 0
            for c in range(3):
                a = (k >> (off + 6 * c)) & 63
                b = (k >> (off + 6 * c + 18)) & 63
                if _RANKS[a] != _RANKS[b]:
                    total += values[a] + values[b]
            out.append(total)
            off += 36
        return tuple(out)

    def python_terminal(self, k: int) -> RoundResult | None:
        if not (k >> _STOCK) & 63:
            return RoundResult(self.python_scores(k), ENDED_STOCK)
        ender = ((k >> 3) & 7) - 1
        if ender >= 0 and k & 7 == ender:
            return RoundResult(self.python_scores(k), ENDED_LAST_TURNS)
        return None

    def repeated(self, k: int) -> RoundResult:
        return RoundResult(self.scores(k), ENDED_REPETITION)

    def python_successors(self, k: int) -> list[tuple[int, bool]]:
        """Every legal move's result and whether the move was reversible, in the order of
        `GolfGame.legal_moves` (going out first, then SX, other draws and turns, swaps last)."""
        n = self.players
        seat = k & 7
        nxt = seat + 1 if seat + 1 < n else 0
        base = HAND_SIZE * seat
        up_all = (k >> _UP) & ((1 << (HAND_SIZE * n)) - 1)
        hand_up = (up_all >> base) & FULL_HAND
        header = k & ~0x7  # to_move cleared
        if not hand_up:  # the set-up: turn up two slots (irreversible)
            out = []
            for a in range(HAND_SIZE):
                for b in range(a + 1, HAND_SIZE):
                    out.append(((header | (((1 << a) | (1 << b)) << (_UP + base))) | nxt, False))
            return out
        stock_left = (k >> _STOCK) & 63
        top = (k >> _TOP) & 63
        ender = ((k >> 3) & 7) - 1
        draw = self.stock[len(self.stock) - stock_left]
        hoff = self.hand_off + 6 * base
        goes_out: list[tuple[int, bool]] = []
        others: list[tuple[int, bool]] = []
        internal: list[tuple[int, bool]] = []
        less_stock = header - (1 << _STOCK)
        # SX: the stock card goes on the discard
        sx = ((less_stock & ~(63 << _TOP)) | draw << _TOP) | nxt
        for kind in (0, 1):  # 0: D (discard into slot), 1: S (stock into slot)
            if kind == 0 and top == _NO_TOP:
                continue
            new = top if kind == 0 else draw
            src = header if kind == 0 else less_stock
            for slot in range(HAND_SIZE):
                shift = hoff + 6 * slot
                old = (k >> shift) & 63
                bit = 1 << slot
                child = (src & ~(63 << shift) & ~(63 << _TOP)) | new << shift | old << _TOP
                face_up = hand_up & bit
                if not face_up:
                    child |= bit << (_UP + base)
                    if hand_up | bit == FULL_HAND:  # turns the last face-down card
                        if ender < 0:
                            child = (child & ~(7 << 3)) | (seat + 1) << 3
                        goes_out.append((child | nxt, False))
                        continue
                if kind == 0 and face_up:
                    internal.append((child | nxt, True))
                else:
                    others.append((child | nxt, False))
        # the order of GolfGame.legal_moves: going out, SX, other draws and turns, swaps among face-up cards
        return goes_out + [(sx, False)] + others + internal

    def moves(self, position: Position) -> list[Move]:
        """The rules' moves in the order `successors` lists their results."""
        return list(GOLF.legal_moves(position))


GOLF = GolfGame()
