"""Shithead for the exact core: the packed position key, the packed hot loop and the core's `Game`."""

from __future__ import annotations

from typing import Any, Sequence

from halfmoon.dealcodes import Card
from halfmoon.solver.core.game import Coalition, Outcome, WinLoss, not_last

from .rules import (
    EIGHT,
    HAND_SIZE,
    STRENGTH,
    TEN,
    THREE,
    Move,
    Position,
    _apply,
    apply,
    can_play,
    legal_moves,
    outcome,
    pile_state,
)

# -- the solver's view -------------------------------------------------------------------------

_W = {Card(r, s): 1 << (3 * (r - 1)) for r in range(1, 14) for s in range(4)}
_BITS = 39  # 13 ranks × 3 bits of count (≤ 4 of a rank)


_weight = _W.__getitem__


def _ms(cards: Sequence[Card]) -> int:
    return sum(map(_weight, cards))


# Layout of the packed key (least significant bits first):
#   0-2 seat to move | 3-6 effective top rank (0: none) | 7-10 top run rank | 11-13 top run length
#   14-52 pile rank counts | per seat s: hand, face-up, face-down rank counts (39 bits each) from
#   bit 53 + 117 s | then the stock: 6 bits of length, 4 bits per card, top card lowest.
_TOP, _RUNR, _RUNL, _PILE, _SEATS = 3, 7, 11, 14, 53
_SEAT_BITS = 3 * _BITS
_M39 = (1 << _BITS) - 1


def _hand_off(seat: int) -> int:
    return _SEATS + _SEAT_BITS * seat


def position_key(position: Position) -> int:
    """A packed int: the rank counts of every hand, face-up and face-down set and of the pile, the
    pile's effective top and top run, the stock's ranks in order, and the seat to move. Suits and
    burned cards never change what can happen, so they are left out. `ShitheadKernel` plays on
    these ints directly."""
    hands, face_up, face_down, stock, pile, _, to_move = position
    top, run_rank, run = pile_state(pile)
    k = to_move | top << _TOP | run_rank << _RUNR | run << _RUNL | _ms(pile) << _PILE
    off = _SEATS
    for s in range(len(hands)):
        k |= (_ms(hands[s]) | _ms(face_up[s]) << _BITS | _ms(face_down[s]) << (2 * _BITS)) << off
        off += _SEAT_BITS
    seq = 0
    for card in reversed(stock):
        seq = seq << 4 | card.rank
    return k | (len(stock) | seq << 6) << off


ESTIMATE_SCALE = 10  # measured on benchmark tables (levels 6-10): 1 → 1.09 M expansions, 10 → 0.37 M
ESTIMATE_KIND = 0
NATIVE = True  # tests switch it off to compare with the Python prover
NATIVE_EPSILON = 1.5
_PLANE1 = sum(1 << (3 * i) for i in range(3 * 13))  # the low bit of every counter of a seat block
_PLANE2, _PLANE4 = _PLANE1 << 1, _PLANE1 << 2

_CAN = [[can_play(r, t) for t in range(14)] if r else [False] * 14 for r in range(14)]
_ORDERED_RANKS = sorted(range(1, 14), key=STRENGTH.__getitem__)  # 2 3 4 … K A
_W3 = [0] + [1 << (3 * (r - 1)) for r in range(1, 14)]
_RANK_SHIFTS = [(r, 3 * (r - 1)) for r in _ORDERED_RANKS]


try:  # the compiled provers, two and three seats (setup.py builds them; without them the Python
    # prover gives the same answers, slower)
    from halfmoon.solver.games.shithead import _native  # type: ignore[attr-defined]
    from halfmoon.solver.games.shithead import _native3  # type: ignore[attr-defined]
except ImportError:  # pragma: no cover - depends on the build
    _native = _native3 = None


def native_available() -> bool:
    return _native is not None and _native3 is not None


class ShitheadKernel:
    """The rules again, on packed keys: the core's hot loop for Shithead (make-only, no objects).

    Positions are `position_key` ints; `successors` returns the keys of the positions every legal
    move leads to (moves that lead to the same key, e.g. two face-down cards of one rank, give
    one key). Tests check it against `legal_moves` + `apply` on random playouts.
    """

    def __init__(self, players: int, stock_empty: bool = False) -> None:
        self.players = players
        self.stock_empty = stock_empty
        self.stock_off = _SEATS + _SEAT_BITS * players
        self.low_mask = (1 << self.stock_off) - 1
        self.seat_masks = [((1 << _SEAT_BITS) - 1) << (_SEATS + _SEAT_BITS * s) for s in range(players)]

    def to_move(self, k: int) -> int:
        return k & 7

    def _active(self, k: int) -> list[bool]:
        return [k & m != 0 for m in self.seat_masks]

    def terminal(self, k: int) -> Outcome | None:
        live = 0
        for m in self.seat_masks:
            if k & m:
                live += 1
                if live == 2:
                    return None
        active = self._active(k)
        places = tuple(1 if a else 0 for a in active)
        holders = [s for s, a in enumerate(active) if a]
        return Outcome(places, note=f"player {holders[0]} is the shithead" if holders else "nobody holds cards")

    def _finish(self, k: int, seat: int, steps: int, again: bool) -> int:
        """Set the seat to move after a move by `seat` (k has the new cards, seat bits cleared)."""
        active = [k & m != 0 for m in self.seat_masks]
        n = self.players
        if active.count(True) <= 1:
            return k | seat
        if again and active[seat]:
            return k | seat
        s = seat
        for _ in range(max(steps, 1)):
            s = (s + 1) % n
            while not active[s]:
                s = (s + 1) % n
        return k | s

    def successors(self, k: int) -> list[int]:
        seat = k & 7
        top = (k >> _TOP) & 15
        run_rank = (k >> _RUNR) & 15
        run = (k >> _RUNL) & 7
        hoff = _SEATS + _SEAT_BITS * seat
        uoff = hoff + _BITS
        doff = uoff + _BITS
        hand = (k >> hoff) & _M39
        pile = (k >> _PILE) & _M39
        stock_len = (k >> self.stock_off) & 63
        base = k & ~0x3FFF  # clear seat and pile state, keep pile counts and the rest
        out: list[int] = []
        can = _CAN
        if hand:
            ranks = [(r, c) for r, sh in _RANK_SHIFTS if (c := (hand >> sh) & 7)]
            ups = 0
            up = (k >> uoff) & _M39
            if len(ranks) == 1 and not stock_len and up:
                ups = (up >> (3 * (ranks[0][0] - 1))) & 7
            for r, c in ranks:
                if not can[r][top]:
                    continue
                w = _W3[r]
                for cnt in range(1, c + 1):
                    out.append(self._play(base - (cnt * w << hoff), r, cnt, top, run_rank, run, seat, stock_len))
                for extra in range(1, ups + 1):
                    out.append(self._play(base - ((c * w) << hoff) - ((extra * w) << uoff), r, c + extra, top,
                                          run_rank, run, seat, 0))
        elif not stock_len:
            up = (k >> uoff) & _M39
            if up:
                source, soff = up, uoff
            else:
                source, soff = (k >> doff) & _M39, doff
            for r in _ORDERED_RANKS:
                if (source >> (3 * (r - 1))) & 7:
                    w = _W3[r]
                    if can[r][top]:
                        out.append(self._play(base - (w << soff), r, 1, top, run_rank, run, seat, 0))
                    else:  # taken into the hand with the pile
                        child = (base - (w << soff) + ((pile + w) << hoff)) & ~(_M39 << _PILE)
                        out.append(self._finish(child, seat, 1, False))
        if pile and hand:  # no plain pick-up at the table
            child = (base + (pile << hoff)) & ~(_M39 << _PILE)
            out.append(self._finish(child, seat, 1, False))
        return out

    def native_prover(self, goal: Any, max_bytes: int) -> Any:
        """The compiled df-pn for a threshold test of an endgame (stock empty), with the key map
        from this kernel's keys: two players, the win/loss tests; three players, the test of
        "avoid being the shithead" (can the others force this seat to be last?). None where it
        does not apply (the Python prover then runs)."""
        question = goal.question
        if not native_available() or not NATIVE or not self.stock_empty:
            return None
        if self.players == 2 and isinstance(question, WinLoss):
            if question.draw_value != 0 or goal.threshold != (1 if goal.for_max else 0):
                return None
            module = _native
        elif self.players == 3 and isinstance(question, Coalition) and question.predicate is not_last:
            if question.draw_value != 1 or goal.for_max or goal.threshold != 1:
                return None
            module = _native3
        else:
            return None
        prover = module.Prover(question.seat, goal.for_max, max_bytes, NATIVE_EPSILON, ESTIMATE_SCALE)
        return prover, module.native_key

    def cards(self, k: int) -> list[int]:
        """Cards each seat still holds (hand, face-up and face-down): the 3-bit counters added by bit plane."""
        out = []
        for s in range(self.players):
            block = k >> (_SEATS + _SEAT_BITS * s)
            out.append((block & _PLANE1).bit_count() + 2 * (block & _PLANE2).bit_count()
                       + 4 * (block & _PLANE4).bit_count())
        return out

    def estimate(self, k: int, maximizers: frozenset[int], for_max: bool) -> tuple[int, int]:
        """Initial proof and disproof numbers for df-pn: a side is the likelier to reach its goal
        the fewer cards its player holds compared with the others (only a guide: any positive
        numbers keep the search exact)."""
        cards = self.cards(k)
        mine = min(cards[s] for s in maximizers)
        others = min(c for s, c in enumerate(cards) if s not in maximizers)
        if ESTIMATE_KIND == 1:  # cards left to each side's goal
            if for_max:
                return 1 + ESTIMATE_SCALE * mine, 1 + ESTIMATE_SCALE * others
            return 1 + ESTIMATE_SCALE * others, 1 + ESTIMATE_SCALE * mine
        lead = others - mine  # > 0: the maximizing side is ahead
        if not for_max:
            lead = -lead
        scale = ESTIMATE_SCALE
        return 1 + scale * max(0, -lead), 1 + scale * max(0, lead)

    def _play(self, k: int, r: int, cnt: int, top: int, run_rank: int, run: int, seat: int, stock_len: int) -> int:
        """`k` with the cards already out of the player's hand/table (pile state cleared): put `cnt`
        cards of rank `r` on the pile, refill the hand, burn or pass the turn."""
        if stock_len:
            k = self._refill(k, seat)
        new_run = run + cnt if r == run_rank else cnt
        if r == TEN or new_run >= 4:
            k &= ~(_M39 << _PILE)
            return self._finish(k, seat, 0, True)
        k += (cnt * _W3[r]) << _PILE
        k |= (top if r == THREE else r) << _TOP | r << _RUNR | new_run << _RUNL
        return self._finish(k, seat, 1 + (cnt if r == EIGHT else 0), False)

    def _refill(self, k: int, seat: int) -> int:
        hoff = _SEATS + _SEAT_BITS * seat
        hand = (k >> hoff) & _M39
        size = sum((hand >> (3 * i)) & 7 for i in range(13))
        stock_val = k >> self.stock_off
        length, seq = stock_val & 63, stock_val >> 6
        while size < HAND_SIZE and length:
            rank = seq & 15
            seq >>= 4
            length -= 1
            k += _W3[rank] << hoff
            size += 1
        return (k & self.low_mask) | (length | seq << 6) << self.stock_off


class ShitheadGame:
    """`solver.core.game.Game` for Shithead. Cyclic (picking up the pile can repeat positions)."""

    name = "shithead"
    acyclic = False

    def players(self, position: Position) -> int:
        return position.players

    def to_move(self, position: Position) -> int:
        return position.to_move

    def legal_moves(self, position: Position) -> Sequence[Move]:
        if outcome(position) is not None:
            return ()
        return legal_moves(position)

    def apply(self, position: Position, move: Move) -> Position:
        return apply(position, move)

    def successors(self, position: Position) -> list[tuple[Move, Position]]:
        """Every legal move with its result, checked once."""
        return [(move, _apply(position, move)) for move in legal_moves(position)]

    def kernel(self, position: Position) -> ShitheadKernel:
        """The packed-key hot loop the core explores with (see `solver.core.game.Game`)."""
        return ShitheadKernel(position.players, not position.stock)

    def terminal(self, position: Position) -> Outcome | None:
        return outcome(position)

    def key(self, position: Position) -> int:
        return position_key(position)


GAME = ShitheadGame()
