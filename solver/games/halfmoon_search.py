"""Half Moon knowledge for the search: packed state, safe moves, dead-position checks.

The rules (`solver.games.halfmoon`) know what is legal; this module knows what is *worth
trying* and what is *provably lost*, and turns abstract search moves back into concrete
moves. Each reduction below carries the argument that makes it sound.

Search state
------------
Suits never matter, so piles are sequences of ranks. A card that covers nothing (a reserve
card, or the last card of a pile) can be played at any time from now on and is then
interchangeable with every other such card of its rank: who holds it no longer matters.
So the state is the height of every pile that still holds two or more cards, plus a count
per rank of these *free* cards. When a pile drops to one card, that card joins the free
pool and the pile's height becomes 0. The key packs heights and free counts into one int.

Search moves
------------
A move is a flat tuple of *sources*: a pile index ``i >= 0`` (its top card) or ``-rank``
(one free card of that rank). A pair or triple has 2 or 3 sources; a *class clearance*
(see `SAFE_CLEAR`) lists every remaining card of one rank class at once.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Sequence

from dealcodes.cards import JACK, KING, QUEEN
from solver.games.halfmoon import Move, Place, Position

#: Rank class of each rank: A/T=1, 2/9=2, 3/8=3, 4/7=4, 5/6=5, J/Q/K=0 (index 0 unused).
CLASS_OF = (None, 1, 2, 3, 4, 5, 5, 4, 3, 2, 1, 0, 0, 0)
CLASS_RANKS: tuple[tuple[int, ...], ...] = ((JACK, QUEEN, KING), (1, 10), (2, 9), (3, 8), (4, 7), (5, 6))
CLASS_NAMES = ("J/Q/K", "A/10", "2/9", "3/8", "4/7", "5/6")
FACE_CLASS = 0

Source = int  # pile index >= 0, or -rank for a free card
SearchMove = tuple[Source, ...]


class SearchInputError(ValueError):
    """A position the search cannot take (e.g. a card rank outside A..K)."""


def _bits(n: int) -> int:
    return max(1, int(n).bit_length())


class HalfMoonSearch:
    """A mutable Half Moon position for the solitaire search (make/unmake, packed key).

    Implements `solver.core.solitaire.SolitaireState`. `projection` turns on the
    per-class dead-position check (`class_projection_dead`); it is off inside the
    projection solver itself.
    """

    def __init__(self, position: Position, projection: bool = True, proj_cache: dict | None = None) -> None:
        self.position = position
        piles = [tuple(card.rank for card in pile) for pile in position.piles]
        self.ranks: list[tuple[int, ...]] = piles
        self.npiles = len(piles)
        free = [0] * 14
        for card in position.reserve:
            if card is not None:
                free[card.rank] += 1
        heights = []
        for pile in piles:
            if len(pile) == 1:
                free[pile[0]] += 1
                heights.append(0)
            else:
                heights.append(len(pile))
        self.h = heights
        self.free = free
        total = sum(map(len, piles)) + sum(c is not None for c in position.reserve)
        self.total = total
        self.hbits = _bits(max([len(p) for p in piles] + [1]))
        self.fbits = _bits(total)
        self.fbase = self.hbits * self.npiles
        key = 0
        for i, height in enumerate(heights):
            key += height << (self.hbits * i)
        for rank in range(1, 14):
            key += free[rank] << (self.fbase + self.fbits * rank)
        self._key = key
        self.left = total
        self.class_left = [0] * 6
        for card in position.all_cards():
            if not 1 <= card.rank <= 13:
                raise SearchInputError(f"card rank {card.rank} outside A..K")
            self.class_left[CLASS_OF[card.rank]] += 1
        self.projection = projection
        self.proj_cache: dict = proj_cache if proj_cache is not None else {}
        self.proj_checks = 0
        self.proj_solves = 0
        self._moved_class: list[int] = []
        self._proj_tables = _projection_tables(piles, self.hbits, self.fbits, self.fbase) if projection else None

    # -- SolitaireState -----------------------------------------------------------------

    def key(self) -> int:
        return self._key

    def is_won(self) -> bool:
        return self.left == 0

    def is_dead(self) -> bool:
        if not self.projection:
            return False
        classes = self._moved_class[-1:] if self._moved_class else range(6)
        for cls in classes:
            if self.class_projection_dead(cls):
                return True
        return False

    def make(self, move: SearchMove) -> None:
        h = self.h
        free = self.free
        key = self._key
        hbits, fbits, fbase = self.hbits, self.fbits, self.fbase
        cls = -1
        for src in move:
            if src >= 0:
                height = h[src] - 1
                rank = self.ranks[src][height]
                if height == 1:
                    bottom = self.ranks[src][0]
                    free[bottom] += 1
                    key += (1 << (fbase + fbits * bottom)) - (2 << (hbits * src))
                    h[src] = 0
                else:
                    key -= 1 << (hbits * src)
                    h[src] = height
            else:
                rank = -src
                free[rank] -= 1
                key -= 1 << (fbase + fbits * rank)
            cls = CLASS_OF[rank]
        self._key = key
        self.left -= len(move)
        self.class_left[cls] -= len(move)
        self._moved_class.append(cls)

    def unmake(self, move: SearchMove) -> None:
        h = self.h
        free = self.free
        key = self._key
        hbits, fbits, fbase = self.hbits, self.fbits, self.fbase
        for src in reversed(move):
            if src >= 0:
                height = h[src]
                if height == 0:
                    bottom = self.ranks[src][0]
                    free[bottom] -= 1
                    key -= (1 << (fbase + fbits * bottom)) - (2 << (hbits * src))
                    h[src] = 2
                else:
                    key += 1 << (hbits * src)
                    h[src] = height + 1
            else:
                free[-src] += 1
                key += 1 << (fbase + fbits * -src)
        self._key = key
        self.left += len(move)
        cls = self._moved_class.pop()
        self.class_left[cls] += len(move)

    def top(self, pile: int) -> int:
        """Rank of the top card of a pile that still holds two or more cards (else 0)."""
        height = self.h[pile]
        return self.ranks[pile][height - 1] if height else 0

    def ordered_moves(self, salt: int = 0) -> list[SearchMove]:
        """Safe class clearance if one applies, else every group, best first.

        Order: more pile sources first (pile+pile before reserve use), then taller piles
        first; `salt` breaks remaining ties reproducibly.
        """
        h = self.h
        ranks = self.ranks
        free = self.free
        tops: list[list[int]] = [[] for _ in range(14)]
        for i in range(self.npiles):
            height = h[i]
            if height:
                tops[ranks[i][height - 1]].append(i)
        clear = self.safe_clearance(tops)
        if clear is not None:
            return [clear]
        scored: list[tuple[int, int, SearchMove]] = []
        for low in (1, 2, 3, 4, 5):
            high = 11 - low
            srcs_a: list[int] = tops[low] + ([-low] if free[low] else [])
            srcs_b: list[int] = tops[high] + ([-high] if free[high] else [])
            for a in srcs_a:
                for b in srcs_b:
                    scored.append((self._score((a, b), salt), len(scored), (a, b)))
        js = tops[JACK] + ([-JACK] if free[JACK] else [])
        if js:
            qs = tops[QUEEN] + ([-QUEEN] if free[QUEEN] else [])
            ks = tops[KING] + ([-KING] if free[KING] else [])
            for j in js:
                for q in qs:
                    for k in ks:
                        scored.append((self._score((j, q, k), salt), len(scored), (j, q, k)))
        scored.sort(reverse=True)
        return [move for _, _, move in scored]

    def _score(self, move: SearchMove, salt: int) -> int:
        piles = [s for s in move if s >= 0]
        score = len(piles) * 1000 + sum(self.h[s] for s in piles) * 10
        if salt:
            mixed = salt
            for src in move:
                mixed = _mix(mixed ^ (src & 0xFFFF))
            score += mixed % 10
        return score

    # -- reductions -----------------------------------------------------------------------

    def safe_clearance(self, tops: Sequence[list[int]]) -> SearchMove | None:
        """SAFE_CLEAR: remove a whole rank class at once when all its cards are playable.

        Sound: suppose every remaining card of class C is playable (a pile top or free).
        Take any winning line and delete its C-moves; prepend the removal of all of C
        (possible now: the counts of a class are balanced, every card is playable, and no
        two tops share a pile). Each later move stays legal, because at every step the set
        of removed cards only grew, and a card is playable once all cards above it are
        gone. So clearing C loses no win.
        """
        free = self.free
        for cls in range(6):
            left = self.class_left[cls]
            if not left:
                continue
            playable = 0
            for rank in CLASS_RANKS[cls]:
                playable += len(tops[rank]) + free[rank]
            if playable == left:
                move: list[int] = []
                for rank in CLASS_RANKS[cls]:
                    move += tops[rank]
                    move += [-rank] * free[rank]
                return tuple(move)
        return None

    def class_projection_dead(self, cls: int) -> bool:
        """PROJECTION: the position is lost if class `cls` alone cannot be cleared.

        Project the position onto one rank class: delete every card of the other classes
        (as if they could be removed at will) and keep the class's cards in their pile
        order. Sound: a winning line of the real position, restricted to its moves of this
        class, is legal in the projection (at every step the projection has removed a
        superset of the cards the real line has), and clears the class. So if the
        projection cannot be cleared, neither can the position. Verdicts are cached by
        the projection's own packed key; only the class of the last move can change.
        """
        self.proj_checks += 1
        tables = self._proj_tables
        assert tables is not None
        h = self.h
        key = cls
        parts = tables[cls]
        for i in range(self.npiles):
            key += parts[i][h[i]]
        free = self.free
        shift = 3
        for rank in CLASS_RANKS[cls]:
            key += free[rank] << (shift + tables.free_shift[rank])
        cached = self.proj_cache.get(key)
        if cached is None:
            self.proj_solves += 1
            cached = not _solve_projection(self.projected(cls))
            self.proj_cache[key] = cached
        return cached

    def projected(self, cls: int) -> Position:
        """The current position restricted to one rank class (other cards deleted)."""
        current = self.current_position()
        keep = set(CLASS_RANKS[cls])
        piles = tuple(tuple(c for c in pile if c.rank in keep) for pile in current.piles)
        reserve = tuple(c for c in current.reserve if c is not None and c.rank in keep)
        return Position(piles, reserve)

    def current_position(self) -> Position:
        """A rules-level position with the same future (free cards shown as reserve cards)."""
        from dealcodes.cards import Card

        piles = tuple(tuple(Card(r, 0) for r in self.ranks[i][: self.h[i]]) for i in range(self.npiles))
        reserve = tuple(Card(r, 0) for r in range(1, 14) for _ in range(self.free[r]))
        return Position(piles, reserve)


class _ProjTables(list):
    free_shift: dict[int, int]


def _projection_tables(piles: list[tuple[int, ...]], hbits: int, fbits: int, fbase: int) -> _ProjTables:
    """Per class, pile and height: that pile's packed contribution to the projection key.

    A pile holding n >= 2 cards of the class contributes n; with n == 1 its card covers
    nothing in the projection and counts as a free card of its rank.
    """
    npiles = len(piles)
    maxh = max([len(p) for p in piles] + [1])
    cbits = _bits(maxh)
    total = sum(map(len, piles)) + 104
    fb = _bits(total)
    base = 3 + cbits * npiles
    tables = _ProjTables()
    tables.free_shift = {rank: base - 3 + fb * rank for rank in range(1, 14)}
    for cls in range(6):
        members = set(CLASS_RANKS[cls])
        per_pile = []
        for i, pile in enumerate(piles):
            parts = []
            for height in range(len(pile) + 1):
                held = [r for r in pile[:height] if r in members]
                if height == 0:
                    held = []
                if len(held) >= 2:
                    parts.append(len(held) << (3 + cbits * i))
                elif len(held) == 1:
                    parts.append(1 << (3 + tables.free_shift[held[0]]))
                else:
                    parts.append(0)
            per_pile.append(parts)
        tables.append(per_pile)
    return tables


def _mix(x: int) -> int:
    x &= (1 << 64) - 1
    x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & ((1 << 64) - 1)
    x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & ((1 << 64) - 1)
    return x ^ (x >> 31)


def _solve_projection(position: Position) -> bool:
    """Can a one-class position be cleared? Plain exhaustive search with refutation memo."""
    from solver.core.solitaire import solve_solitaire

    state = HalfMoonSearch(position, projection=False)
    return solve_solitaire(state).verdict.value == "winnable"


# -- from search moves back to concrete moves ------------------------------------------------


def concretize(position: Position, line: Iterable[SearchMove]) -> tuple[Move, ...]:
    """Turn abstract search moves into rules-level moves, replaying as it goes.

    A free source ``-r`` becomes any reserve slot or single-card pile holding rank r (they
    are interchangeable); a class clearance is split into pairs or triples of playable
    cards. Every move is applied through the rules, so an inconsistency raises MoveError.
    """
    moves: list[Move] = []
    current = position
    for smove in line:
        taken: set[Place] = set()
        places = []
        for src in smove:
            place = _place_for(current, src, taken)
            taken.add(place)
            places.append(place)
        for group in _group(current, places):
            move = Move(tuple(group))
            current = current.apply(move)
            moves.append(move)
    return tuple(moves)


def _place_for(position: Position, src: Source, taken: set[Place]) -> Place:
    if src >= 0:
        return Place(False, src)
    rank = -src
    for index, card in enumerate(position.reserve):
        place = Place(True, index)
        if card is not None and card.rank == rank and place not in taken:
            return place
    for index, pile in enumerate(position.piles):
        place = Place(False, index)
        if len(pile) == 1 and pile[0].rank == rank and place not in taken:
            return place
    raise AssertionError(f"no free card of rank {rank} in {position}")


def _group(position: Position, places: list[Place]) -> list[list[Place]]:
    """Split playable places of one class into legal groups (pairs or J+Q+K triples)."""
    if len(places) <= 3:
        return [places]
    by_rank: dict[int, list[Place]] = {}
    for place in places:
        card = position.card_at(place)
        assert card is not None
        by_rank.setdefault(card.rank, []).append(place)
    ranks = sorted(by_rank)
    groups = [list(group) for group in zip(*(by_rank[r] for r in ranks))]
    if sum(map(len, groups)) != len(places):
        raise AssertionError(f"unbalanced class clearance {places}")
    return groups
