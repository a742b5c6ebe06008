"""The family's search state: a packed, make/unmake view of a position for the solitaire core.

Every game of the family shares one fact that makes it fast and the reductions sound: what
can be played depends only on *which* cards were removed. A pile shows its top original card
until it is cleared; every cleared pile and every removed stock card empties one place, and
the stock refills empty places in order, so the number of stock cards dealt is
``min(stock, cleared piles + removed stock cards)``. More removals never make a card
unplayable again (availability is monotone), which is what the reductions below rest on:

* **Symmetry.** Piles, grid places and reserve slots have no geometry, so the key is the
  multiset of what each place still holds (as ranks, or ranks and suits when a rule looks at
  suits), plus how far the stock has been dealt. Identical cards and permuted places collapse.
* **Safe clearance.** Cards are split into *classes* (ranks that some rule can remove together,
  e.g. {5, 6} or {J, Q, K}). When every remaining card of a class is playable and they can all
  be removed among themselves, removing them now loses nothing: no other group needs them, and
  removing early only makes more cards playable. Such a move is returned alone (safe).
* **Dead cards.** A card whose every way out needs a card lying below it in its own pile can
  never be removed, so the position is lost (`is_dead`). This, and "a class in view that
  cannot clear itself", apply only when every card must go (win ``all-removed``): under
  ``stock-dealt`` a card may stay on the table forever and the game still be won.
* **Equivalent moves.** Two groups taken from places with the same contents lead to the same
  key; only one of them is tried.

Moves are tuples of card indices (indices into the start position's cards). The module knows
nothing about the search itself; `solve.py` connects it to `solver.core.solitaire`.
"""

from __future__ import annotations

from functools import lru_cache
from itertools import combinations_with_replacement
from typing import Hashable, Sequence

from halfmoon.dealcodes import Card

from .rules import Move, Place, Position, find_groups
from .schema import (
    KIND_SAME_RANK,
    KIND_SET,
    KIND_SUM,
    REFILL_EMPTY_PILES,
    WIN_ALL_REMOVED,
    RuleSet,
)

Group = tuple[int, ...]
_MIX = 0x9E3779B97F4A7C15
_MASK = (1 << 64) - 1


class FamilyState:
    """A mutable, packed position of one deal, implementing the core's `SolitaireState`."""

    def __init__(self, rules: RuleSet, position: Position) -> None:
        self.rules = rules
        self.removals = rules.removals
        suits = rules.uses_suits
        cards: list[Card] = []
        self.pile_start: list[int] = []
        self.heights: list[int] = []
        self.pile_of: list[int] = []
        for p, pile in enumerate(position.piles):
            self.pile_start.append(len(cards))
            self.heights.append(len(pile))
            cards.extend(pile)
            self.pile_of.extend([p] * len(pile))
        self.reserve_idx = list(range(len(cards), len(cards) + sum(c is not None for c in position.reserve)))
        slots = iter(self.reserve_idx)
        self.reserve_slots: list[int | None] = [None if c is None else next(slots) for c in position.reserve]
        cards.extend(c for c in position.reserve if c is not None)
        self.pile_of.extend([-1] * len(self.reserve_idx))
        self.stock_idx = list(range(len(cards), len(cards) + len(position.stock)))
        cards.extend(position.stock)
        self.pile_of.extend([-2] * len(self.stock_idx))
        self.cards = cards
        self.n = len(cards)
        self.rank = [c.rank for c in cards]
        self.suit = [c.suit for c in cards]
        self.type = [c.rank * 4 + c.suit if suits else c.rank for c in cards]
        self.alive = (1 << self.n) - 1
        self.stock_size = len(self.stock_idx)
        self.refills = rules.refill == REFILL_EMPTY_PILES
        self.events = 0  # cleared piles + removed stock cards since the start
        self.drawn = 0
        self.win_all = rules.win == WIN_ALL_REMOVED
        self._intern: dict[tuple[int, ...], int] = {}
        self.prefix_id = [
            [self._id(tuple(self.type[self.pile_start[p] + i] for i in range(h))) for h in range(self.heights[p] + 1)]
            for p in range(len(self.heights))
        ]
        self.single_id = {t: self._id((t,)) for t in set(self.type)}
        self._classes()
        self._blockers()
        # A card that can never be removed loses only when every card must go: with the
        # `stock-dealt` win such cards may stay, so neither dead-card test applies there.
        self.prune_dead = self.win_all
        self.dead_stack = [self.prune_dead and any(self._blocked(x) for x in range(self.n))]
        self.nodes_safe = 0

    # -- set-up --------------------------------------------------------------------------------

    def _id(self, types: tuple[int, ...]) -> int:
        return self._intern.setdefault(types, len(self._intern))

    def _classes(self) -> None:
        """Union the card types that some rule can remove together; count each class's cards."""
        types = sorted(set(self.type))
        parent = {t: t for t in types}

        def find(t: int) -> int:
            while parent[t] != t:
                parent[t] = parent[parent[t]]
                t = parent[t]
            return t

        def link(ranks: Sequence[int], same_suit: bool) -> None:
            for suit in range(4):
                members = [t for t in types if (t // 4 if suits else t) in ranks and (not suits or t % 4 == suit or not same_suit)]
                for t in members[1:]:
                    parent[find(t)] = find(members[0])
                if not suits:
                    return

        suits = self.rules.uses_suits
        for rule in self.removals:
            if rule.kind == KIND_SUM:
                for combo in combinations_with_replacement(rule.ranks, rule.cards):
                    if sum(combo) == rule.target:
                        link(combo, rule.same_suit)
            elif rule.kind == KIND_SET:
                link(rule.ranks, rule.same_suit)
            else:
                for rank in rule.ranks:
                    link((rank,), rule.same_suit)
        self.class_of = [find(t) for t in self.type]
        self.class_left: dict[int, int] = {}
        for c in self.class_of:
            self.class_left[c] = self.class_left.get(c, 0) + 1
        self.class_members: dict[int, list[int]] = {}
        for x, c in enumerate(self.class_of):
            self.class_members.setdefault(c, []).append(x)

    def _blockers(self) -> None:
        """For each card, its ways out: lists of (mask of usable partners, how many are needed).

        Partners below the card in its own pile are left out of the masks: they cannot be
        played while the card is still there. Sums of more than two cards get no check.
        """
        below = [0] * self.n
        for p, start in enumerate(self.pile_start):
            for i in range(1, self.heights[p]):
                below[start + i] = below[start + i - 1] | (1 << (start + i - 1))
        self.below = below
        self.ways: list[list[list[tuple[int, int]]] | None] = []
        for x in range(self.n):
            ways: list[list[tuple[int, int]]] = []
            exact = True
            others = [y for y in range(self.n) if y != x and not below[x] >> y & 1]
            for rule in self.removals:
                if self.rank[x] not in rule.ranks:
                    continue
                fits = [y for y in others if not rule.same_suit or self.suit[y] == self.suit[x]]
                if rule.kind == KIND_SUM and rule.cards == 2:
                    mask = sum(1 << y for y in fits if self.rank[y] == rule.target - self.rank[x])
                    ways.append([(mask, 1)])
                elif rule.kind == KIND_SET:
                    ways.append([(sum(1 << y for y in fits if self.rank[y] == r), 1) for r in rule.ranks if r != self.rank[x]])
                elif rule.kind == KIND_SAME_RANK:
                    ways.append([(sum(1 << y for y in fits if self.rank[y] == self.rank[x]), rule.count - 1)])
                else:
                    exact = False  # a sum of 3+ cards: no cheap exact test, never called blocked
                    break
            self.ways.append(ways if exact else None)

    def _blocked(self, x: int) -> bool:
        ways = self.ways[x]
        if ways is None or not self.alive >> x & 1:
            return False
        alive = self.alive
        return not any(all((mask & alive).bit_count() >= need for mask, need in way) for way in ways)

    # -- reading -------------------------------------------------------------------------------

    def available(self) -> list[int]:
        """Indices of the playable cards: pile tops, reserve cards, dealt stock cards."""
        out = [start + h - 1 for start, h in zip(self.pile_start, self.heights) if h]
        alive = self.alive
        out += [x for x in self.reserve_idx if alive >> x & 1]
        out += [x for x in self.stock_idx[: self.drawn] if alive >> x & 1]
        return out

    def key(self) -> Hashable:
        alive = self.alive
        places = [ids[h] for ids, h in zip(self.prefix_id, self.heights) if h]
        places += [self.single_id[self.type[x]] for x in self.stock_idx[: self.drawn] if alive >> x & 1]
        reserve = [self.single_id[self.type[x]] for x in self.reserve_idx if alive >> x & 1]
        if self.drawn >= self.stock_size:
            return (tuple(sorted(places + reserve)), self.drawn)
        return (tuple(sorted(places)), tuple(sorted(reserve)), self.drawn)

    def is_won(self) -> bool:
        return self.alive == 0 if self.win_all else self.drawn >= self.stock_size

    def is_dead(self) -> bool:
        return self.dead_stack[-1]

    # -- moves ---------------------------------------------------------------------------------

    def groups(self) -> list[Group]:
        """Every legal group, one per class of equivalent groups (same place contents)."""
        avail = self.available()
        items = [(x, self.rank[x], self.suit[x]) for x in avail]
        seen: set[tuple[int, ...]] = set()
        out = []
        for group in find_groups(self.removals, items):
            signature = tuple(sorted(self._source(x) for x in group))
            if signature not in seen:
                seen.add(signature)
                out.append(group)
        return out

    def _source(self, x: int) -> int:
        """What the place holding `x` contains, as an id (piles by their whole content)."""
        p = self.pile_of[x]
        if p >= 0:
            return self.prefix_id[p][self.heights[p]] * 3
        return self.single_id[self.type[x]] * 3 + (1 if p == -1 else 2)

    def ordered_moves(self, salt: int = 0) -> Sequence[Group]:
        groups = self.groups()
        if not groups:
            return groups
        safe = self._safe(groups)
        if safe is not None:
            self.nodes_safe += 1
            return safe
        heights, pile_of = self.heights, self.pile_of

        def score(group: Group) -> tuple[int, int, int]:
            # Uncover the most: cards from deep piles first, reserve and stock cards last.
            depth = sum(heights[pile_of[x]] for x in group if pile_of[x] >= 0)
            tie = ((hash(group) ^ salt) * _MIX) & _MASK if salt else 0
            return (-depth, -len(group), tie)

        groups.sort(key=score)
        return groups

    def _safe(self, groups: list[Group]) -> list[Group] | None:
        """A single safe group (a whole class is playable and clears itself), [] if lost, else None."""
        counts: dict[int, int] = {}
        avail_by_class: dict[int, list[int]] = {}
        for x in self.available():
            c = self.class_of[x]
            counts[c] = counts.get(c, 0) + 1
            avail_by_class.setdefault(c, []).append(x)
        for c, seen in counts.items():
            if seen != self.class_left[c]:
                continue
            members = avail_by_class[c]
            signature = tuple(sorted(self._card_key(x) for x in members))
            if not _clears(self.removals, signature):
                if self.prune_dead:
                    return []  # the whole class is in view and cannot all go: lost
                continue
            for group in groups:
                if self.class_of[group[0]] != c:
                    continue
                rest = list(signature)
                for x in group:
                    rest.remove(self._card_key(x))
                if _clears(self.removals, tuple(rest)):
                    return [group]
        return None

    def _card_key(self, x: int) -> tuple[int, int]:
        return (self.rank[x], self.suit[x] if self.rules.uses_suits else 0)

    def make(self, group: Group) -> None:
        events = 0
        for x in group:
            self.alive &= ~(1 << x)
            p = self.pile_of[x]
            if p >= 0:
                self.heights[p] -= 1
                if self.heights[p] == 0:
                    events += 1
            elif p == -2:
                events += 1
            self.class_left[self.class_of[x]] -= 1
        if self.refills:
            self.events += events
            self.drawn = min(self.stock_size, self.events)
        dead = self.dead_stack[-1]
        if not dead and self.prune_dead:
            touched = {self.class_of[x] for x in group}
            dead = any(self._blocked(y) for c in touched for y in self.class_members[c])
        self.dead_stack.append(dead)

    def unmake(self, group: Group) -> None:
        self.dead_stack.pop()
        events = 0
        for x in reversed(group):
            self.alive |= 1 << x
            p = self.pile_of[x]
            if p >= 0:
                if self.heights[p] == 0:
                    events += 1
                self.heights[p] += 1
            elif p == -2:
                events += 1
            self.class_left[self.class_of[x]] += 1
        if self.refills:
            self.events -= events
            self.drawn = min(self.stock_size, self.events)

    # -- back to the rules' moves --------------------------------------------------------------

    def to_moves(self, line: Sequence[Group]) -> list[Move]:
        """Name each group by its places at the time it is played (refills followed exactly)."""
        piles = [list(range(s, s + h)) for s, h in zip(self.pile_start, self.heights)]
        alive = self.alive
        reserve: list[int | None] = [x if x is not None and alive >> x & 1 else None for x in self.reserve_slots]
        stock = list(self.stock_idx[self.drawn :])
        where: dict[int, Place] = {}
        moves = []
        for group in line:
            where.clear()
            for p, pile in enumerate(piles):
                if pile:
                    where[pile[-1]] = Place(False, p)
            for r, x in enumerate(reserve):
                if x is not None:
                    where[x] = Place(True, r)
            moves.append(Move(tuple(where[x] for x in group)))
            for x in group:
                place = where[x]
                if place.in_reserve:
                    reserve[place.index] = None
                else:
                    piles[place.index].pop()
            if self.refills:
                for pile in piles:
                    if not pile and stock:
                        pile.append(stock.pop(0))
        return moves


@lru_cache(maxsize=1 << 16)
def _clears(removals: tuple, cards: tuple[tuple[int, int], ...]) -> bool:
    """Whether these cards (rank, suit) can all be removed among themselves, in some order."""
    if not cards:
        return True
    items = [(i, rank, suit) for i, (rank, suit) in enumerate(cards)]
    for group in find_groups(removals, items):
        if 0 not in group:
            continue  # the first card must go in some group: try only those (sound and complete)
        rest = tuple(card for i, card in enumerate(cards) if i not in group)
        if _clears(removals, rest):
            return True
    return False
