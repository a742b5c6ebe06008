"""Spit as the exact core's `Game`, and the Spit rules on packed ints for the core's alpha-beta.

`SpitGame` (`GAME`) is the core's view of the rules in `rules` (positions, moves, the bytes
key). `SpitKernel` is the same rules again on packed Python ints for one root position: the
search walks keys only (`SpitGame.path_kernel`), and `_native.Kernel` (compiled, same keys, same
order) replaces its Python methods when it is built and `NATIVE` is on. The Python methods
``python_*`` are the readable reference; tests/games/test_spit_native.py compares the two and both
with the rules.
"""

from __future__ import annotations

from math import comb
from typing import Any, Callable, Sequence

from halfmoon.dealcodes.spit import STOCK_PLACES
from halfmoon.solver.core.game import Outcome

from .rules import (
    RANK,
    RESULTS,
    SEATS,
    SpitMove,
    SpitPosition,
    _apply,
    apply,
    key,
    legal_moves,
    terminal,
)

# -- the core's view ------------------------------------------------------------------------------


class SpitGame:
    """Spit for the exact core (`solver.core.game.Game`). Acyclic: see `rules.progress`."""

    name = "spit"
    acyclic = True

    def players(self, position: SpitPosition) -> int:
        return SEATS

    def to_move(self, position: SpitPosition) -> int:
        return position.to_move

    def legal_moves(self, position: SpitPosition) -> Sequence[SpitMove]:
        return legal_moves(position)

    def apply(self, position: SpitPosition, move: SpitMove) -> SpitPosition:
        return apply(position, move)

    def terminal(self, position: SpitPosition) -> Outcome | None:
        return terminal(position)

    def key(self, position: SpitPosition) -> bytes:
        return key(position)

    def successors(self, position: SpitPosition) -> list[tuple[SpitMove, SpitPosition]]:
        """Every legal move with its position, skipping `apply`'s re-check (the core's fast path)."""
        return [(move, _apply(position, move)) for move in legal_moves(position)]

    def path_kernel(self, position: SpitPosition) -> SpitKernel:
        """The rules on packed ints for the core's alpha-beta (no move is reversible: Spit is
        acyclic), table entries named by the canonical `SpitKernel.table_key`."""
        return SpitKernel(position)


GAME = SpitGame()

# -- the packed kernel ----------------------------------------------------------------------------
#
# A key (a node of the search) is exact up to the buried spit-pile cards, which never affect play,
# for one root. Fields, least significant bit first:
#   0 player to move | 1 a pass is pending | 2-7 top card of spit pile A (63: empty) | 8-13 pile B |
#   14… spits so far, k (the bits max(n0, n1) needs, n_s = the root's spit cards of seat s) |
#   then the ten stock places, seat 0 places 1-5 then seat 1, each a *state* of its own width.
# Seat s holds its root spit cards from index k on (a spit turns one card of each seat that has
# one), so k says both seats' spit cards. A stock place is only ever its root pile with cards taken
# off the top, or a single card moved into it (a fill moves the top card of a pile of two or more,
# so never a pile's bottom card, and a card alone cannot be moved again). State of place i of
# seat s: 0 empty; L = 1 … n_i the first L cards of the root pile (n_i cards); n_i + 1 + j the
# j-th movable card of seat s (its root piles' cards above the bottom, in place order).
#
# The places are kept in their order so that `successors` lists the moves in the order of
# `rules.legal_moves` for the position the key stands for. The table key (`table_key`) forgets
# that order, the suits and which pile a run of cards came from, exactly like `rules.key`: the
# player to move, the pass, the tops' ranks, k, and per seat the multiset of its places' rank runs.
# Each distinct rank run of a seat has an id (0: empty), and the sorted five ids a0 ≤ … ≤ a4 are
# ranked in the combinatorial number system (sum of C(a_j + j, j + 1)), so two positions have the
# same table key exactly when they have the same `rules.key`.

_TO_MOVE, _PASSED, _TOP_A, _TOP_B, _K = 0, 1, 2, 8, 14
_NO_TOP = 63
_PLACES = SEATS * STOCK_PLACES
# _ADJACENT[r] has bit t set when ranks r and t (0 = ace … 12 = king) are one apart, wrapping round.
_ADJACENT = tuple(sum(1 << t for t in range(13) if (r - t) % 13 in (1, 12)) for r in range(13))
# rank of a top field (card 0-51, 63 empty) + 1, 0 for an empty pile (the table key's tops)
_TOP_RANK = tuple(RANK[c] + 1 if c < 52 else 0 for c in range(64))

try:  # the compiled kernel (setup.py builds it; without it the Python kernel below gives the same keys)
    from halfmoon.solver.games.spit import _native  # type: ignore[attr-defined]
except ImportError:  # pragma: no cover - depends on the build
    _native = None

NATIVE = True  # tests switch it off to compare with the Python kernel


def native_available() -> bool:
    return _native is not None


class SpitKernel:
    """The Spit rules on packed keys (see the layout above) for one root position.

    `successors(key)` lists ``(child_key, False)`` for every legal move in the order of
    `rules.legal_moves` (none once the round is over; False: no move is reversible);
    `terminal(key)` is the round's result (the objects `rules.terminal` returns) or None;
    `table_key(key)` the canonical key (equal exactly when `rules.key` is). These three are the
    compiled kernel's (`_native.Kernel`, same keys, same order) when it is built, `NATIVE` is on
    and the root's layout fits in 64 bits (every dealt round does; a hand-made position with tall
    piles or many spit cards may not), else the Python methods ``python_*``, the reference.
    `key(position)` and `position(key)` convert (every position reached from the root has a key).
    """

    reversible = False
    successors: Callable[[int], list[tuple[int, bool]]]
    terminal: Callable[[int], Outcome | None]
    table_key: Callable[[int], int]

    def __init__(self, root: SpitPosition) -> None:
        self.piles = tuple(tuple(root.stock[s][i] for i in range(STOCK_PLACES)) for s in range(SEATS))
        self.spit = (tuple(root.spit_cards[0]), tuple(root.spit_cards[1]))
        self.k_max = max(len(self.spit[0]), len(self.spit[1]))
        self.k_bits = self.k_max.bit_length()
        self.movable = tuple(tuple(c for pile in self.piles[s] for c in pile[1:]) for s in range(SEATS))
        self.movable_index = tuple({c: j for j, c in enumerate(self.movable[s])} for s in range(SEATS))
        # per place p = 5 s + i: bit offset, width, and tables by state
        offsets: list[int] = []
        widths: list[int] = []
        top: list[tuple[int, ...]] = []  # the top card (-1: empty)
        pop: list[tuple[int, ...]] = []  # the state once the top card is gone
        split: list[tuple[int, ...]] = []  # the movable index of the top card of a pile of two or more, else -1
        fill: list[tuple[int, ...]] = []  # fill[p][j]: the state of place p holding movable card j alone
        run: list[tuple[int, ...]] = []  # the seat's id of the place's rank run (0: empty)
        self.runs: list[dict[tuple[int, ...], int]] = [{}, {}]
        at = _K + self.k_bits
        for s in range(SEATS):
            ids = self.runs[s]
            ids[()] = 0
            for i in range(STOCK_PLACES):
                pile, movable = self.piles[s][i], self.movable[s]
                n = len(pile)
                cards = [-1, *pile, *movable]  # the top card of each state
                width = (n + len(movable)).bit_length()
                offsets.append(at)
                widths.append(width)
                at += width
                top.append(tuple(cards))
                pop.append((0, *range(n), *(0 for _ in movable)))
                split.append((-1, *(self.movable_index[s][pile[L - 1]] if L > 1 else -1 for L in range(1, n + 1)),
                              *(-1 for _ in movable)))
                fill.append(tuple(n + 1 + j for j in range(len(movable))))
                runs = [()] + [tuple(RANK[c] for c in pile[:L]) for L in range(1, n + 1)]
                runs += [(RANK[c],) for c in movable]
                run.append(tuple(ids.setdefault(r, len(ids)) for r in runs))
        self.bits = at
        self.offsets, self.widths = tuple(offsets), tuple(widths)
        self.masks = tuple((1 << w) - 1 for w in widths)
        self.top, self.pop, self.split, self.fill, self.run = tuple(top), tuple(pop), tuple(split), tuple(fill), tuple(run)
        self.stock_masks = tuple(sum(self.masks[p] << offsets[p] for p in range(5 * s, 5 * s + 5)) for s in range(SEATS))
        # the table key: to move, pass, the tops' ranks + 1 (4 bits each), k, then each seat's ranked multiset
        self.seat_bits = tuple((comb(len(self.runs[s]) + STOCK_PLACES - 1, STOCK_PLACES) - 1).bit_length()
                               for s in range(SEATS))
        self.table_offsets = (10 + self.k_bits, 10 + self.k_bits + self.seat_bits[0])
        self.table_bits = self.table_offsets[1] + self.seat_bits[1]
        self._multisets: tuple[dict[int, int], dict[int, int]] = ({}, {})
        self.compiled = _native is not None and NATIVE and self.bits <= 64 and self.table_bits <= 64
        if self.compiled:
            kernel = _native.Kernel(self.k_bits, self.k_max, self.spit, self.offsets, self.widths, self.top, self.pop,
                                    self.split, self.fill, self.run, self.table_offsets,
                                    RESULTS.win[0], RESULTS.win[1], RESULTS.no_winner)
            self.successors, self.terminal, self.table_key = kernel.successors, kernel.terminal, kernel.table_key
        else:
            self.successors, self.terminal, self.table_key = (self.python_successors, self.python_terminal,
                                                              self.python_table_key)

    # -- conversion ------------------------------------------------------------------------

    def key(self, position: SpitPosition) -> int:
        """The packed key of a position reached from the root; ValueError for any other."""
        k = position.to_move << _TO_MOVE | int(position.passed) << _PASSED
        for pile, at in zip(position.spit_piles, (_TOP_A, _TOP_B)):
            k |= (pile[-1] if pile else _NO_TOP) << at
        # a seat with spit cards left says how many spits there were; with none left, k is the most
        spits_done = max((len(self.spit[s]) - len(position.spit_cards[s]) for s in range(SEATS)
                          if position.spit_cards[s]), default=self.k_max)
        for s in range(SEATS):
            if spits_done < 0 or tuple(position.spit_cards[s]) != self.spit[s][spits_done:]:
                raise ValueError(f"spit kernel: player {s}'s spit cards are not what is left of the root's")
        k |= spits_done << _K
        for s in range(SEATS):
            for i in range(STOCK_PLACES):
                pile, root = tuple(position.stock[s][i]), self.piles[s][i]
                if pile == root[: len(pile)]:
                    state = len(pile)
                elif len(pile) == 1 and pile[0] in self.movable_index[s]:
                    state = len(root) + 1 + self.movable_index[s][pile[0]]
                else:
                    raise ValueError(f"spit kernel: player {s} stock place {i + 1} holds cards that play from the "
                                     f"root cannot have put there")
                k |= state << self.offsets[5 * s + i]
        return k

    def check(self, k: int) -> None:
        """Raise ValueError unless `k` is a key of this root's layout (what the compiled kernel checks)."""
        if not isinstance(k, int) or k < 0 or k >> self.bits:
            raise ValueError(f"spit kernel: {k!r} is not a key of this root ({self.bits} bits)")
        for at in (_TOP_A, _TOP_B):
            if 52 <= (k >> at) & 63 < _NO_TOP:
                raise ValueError(f"spit kernel: spit pile top {(k >> at) & 63} is not a card")
        if (k >> _K) & ((1 << self.k_bits) - 1) > self.k_max:
            raise ValueError(f"spit kernel: {(k >> _K) & ((1 << self.k_bits) - 1)} spits, the root has {self.k_max}")
        for p in range(_PLACES):
            state = (k >> self.offsets[p]) & self.masks[p]
            if state >= len(self.top[p]):
                raise ValueError(f"spit kernel: stock place {p % 5 + 1} of player {p // 5} in state {state} "
                                 f"of {len(self.top[p])}")

    def position(self, k: int) -> SpitPosition:
        """The position of a key, its spit piles reduced to their top cards (the rest never matters)."""
        self.check(k)
        stock = tuple(tuple(self._place(k, 5 * s + i) for i in range(STOCK_PLACES)) for s in range(SEATS))
        spits_done = (k >> _K) & ((1 << self.k_bits) - 1)
        tops = tuple(() if (k >> at) & 63 == _NO_TOP else ((k >> at) & 63,) for at in (_TOP_A, _TOP_B))
        return SpitPosition((stock[0], stock[1]), (self.spit[0][spits_done:], self.spit[1][spits_done:]),
                            (tops[0], tops[1]), k & 1, bool(k >> _PASSED & 1))

    def _place(self, k: int, p: int) -> tuple[int, ...]:
        s, i = divmod(p, STOCK_PLACES)
        state = (k >> self.offsets[p]) & self.masks[p]
        n = len(self.piles[s][i])
        return self.piles[s][i][:state] if state <= n else (self.movable[s][state - n - 1],)

    def moves(self, position: SpitPosition) -> list[SpitMove]:
        """The rules' moves in the order `successors` lists their results."""
        return legal_moves(position)

    # -- the rules ---------------------------------------------------------------------------

    def to_move(self, k: int) -> int:
        return k & 1

    def _can_act(self, k: int, seat: int) -> bool:
        """Whether `seat` has a play or a fill (as `rules._can_act`)."""
        a, b = _TOP_RANK[(k >> _TOP_A) & 63] - 1, _TOP_RANK[(k >> _TOP_B) & 63] - 1
        tops = (1 << a if a >= 0 else 0) | (1 << b if b >= 0 else 0)
        empty = splittable = False
        for p in range(5 * seat, 5 * seat + 5):
            state = (k >> self.offsets[p]) & self.masks[p]
            if not state:
                empty = True
                continue
            if _ADJACENT[RANK[self.top[p][state]]] & tops:
                return True
            if self.split[p][state] >= 0:
                splittable = True
        return empty and splittable

    def python_terminal(self, k: int) -> Outcome | None:
        """As `rules.terminal`: a seat with an empty stock has won; nobody able to act and no spit
        card left (k has reached the root's larger count) ends the round with no winner."""
        if not k & self.stock_masks[0]:
            return RESULTS.win[0]
        if not k & self.stock_masks[1]:
            return RESULTS.win[1]
        if (k >> _K) & ((1 << self.k_bits) - 1) >= self.k_max and not self._can_act(k, 0) and not self._can_act(k, 1):
            return RESULTS.no_winner
        return None

    def python_successors(self, k: int) -> list[tuple[int, bool]]:
        """Every legal move's result in the order of `rules.legal_moves`: the mover's plays by
        place (pile A before B), then fills (by source place, then empty place), else the pass."""
        if self.python_terminal(k) is not None:
            return []
        seat = k & 1
        a, b = (k >> _TOP_A) & 63, (k >> _TOP_B) & 63
        ra, rb = _TOP_RANK[a] - 1, _TOP_RANK[b] - 1
        base = (k & ~3) | (seat ^ 1)  # the other player to move, no pass pending
        offsets, masks, top, pop, split = self.offsets, self.masks, self.top, self.pop, self.split
        out: list[tuple[int, bool]] = []
        empty: list[int] = []
        splittable: list[tuple[int, int]] = []
        for p in range(5 * seat, 5 * seat + 5):
            at = offsets[p]
            state = (k >> at) & masks[p]
            if not state:
                empty.append(p)
                continue
            card = top[p][state]
            adjacent = _ADJACENT[RANK[card]]
            taken = (base & ~(masks[p] << at)) | pop[p][state] << at
            if ra >= 0 and adjacent >> ra & 1:
                out.append(((taken & ~(63 << _TOP_A)) | card << _TOP_A, False))
            if rb >= 0 and adjacent >> rb & 1:
                out.append(((taken & ~(63 << _TOP_B)) | card << _TOP_B, False))
            if split[p][state] >= 0:
                splittable.append((p, state))
        if empty:
            for p, state in splittable:
                at = offsets[p]
                taken = (base & ~(masks[p] << at)) | pop[p][state] << at
                j = split[p][state]
                for e in empty:
                    out.append((taken | self.fill[e][j] << offsets[e], False))
        if out:
            return out
        if not k >> _PASSED & 1:
            return [(base | 1 << _PASSED, False)]
        spits_done = (k >> _K) & ((1 << self.k_bits) - 1)  # both players pass: each with a spit card turns it
        child = base
        if spits_done < self.k_max:
            for cards, at in zip(self.spit, (_TOP_A, _TOP_B)):
                if spits_done < len(cards):
                    child = (child & ~(63 << at)) | cards[spits_done] << at
            child += 1 << _K
        return [(child, False)]

    def python_table_key(self, k: int) -> int:
        """The canonical key (see the layout above): equal for two keys exactly when `rules.key`
        is equal for their positions."""
        out = (k & 3) | _TOP_RANK[(k >> _TOP_A) & 63] << 2 | _TOP_RANK[(k >> _TOP_B) & 63] << 6
        out |= ((k >> _K) & ((1 << self.k_bits) - 1)) << 10
        for s in range(SEATS):
            field = k & self.stock_masks[s]
            ranked = self._multisets[s].get(field)
            if ranked is None:
                ids = sorted(self.run[p][(k >> self.offsets[p]) & self.masks[p]] for p in range(5 * s, 5 * s + 5))
                ranked = sum(comb(a + j, j + 1) for j, a in enumerate(ids))
                if len(self._multisets[s]) > 1_000_000:
                    self._multisets[s].clear()
                self._multisets[s][field] = ranked
            out |= ranked << self.table_offsets[s]
        return out


__all__ = ["GAME", "NATIVE", "SpitGame", "SpitKernel", "native_available"]
