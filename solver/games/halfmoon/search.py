"""Half Moon knowledge for the search: packed state, safe moves, dead-position checks.

The rules (`solver.games.halfmoon`) know what is legal; this module knows what is *worth
trying* and what is *provably lost*, and turns abstract search moves back into concrete
moves. Every reduction carries, in its docstring, the argument that makes it sound. They
all rest on one fact, the **superset lemma**: a card is playable once every card above it
is gone, so if a line of moves is legal, it stays legal when more cards have already been
removed before each of its moves (as long as it never names a removed card).

Search state
------------
Suits never matter, so piles are sequences of ranks. A card that covers nothing (a reserve
card, or the last card of a pile) stays playable from now on and is interchangeable with
every other such card of its rank: who holds it no longer matters. So the state is the
height of every pile that still holds two or more cards, plus a count per rank of these
*free* cards. When a pile drops to one card, that card joins the free pool and the pile's
height becomes 0. The key packs heights and free counts into one int.

Search moves
------------
A move is a flat tuple of *sources*: a pile index ``i >= 0`` (its top card) or ``-rank``
(one free card of that rank). A pair or triple has 2 or 3 sources; a compound move (from
`SAFE_CLEAR` or `FREE_PARTNERS`) lists several groups of one rank class at once.
"""

from __future__ import annotations

from typing import Iterable, Sequence

from halfmoon.dealcodes.cards import JACK, KING, QUEEN, Card
from halfmoon.solver.errors import PositionError
from halfmoon.solver.games.halfmoon.rules import Move, Place, Position

#: Rank class of each rank: A/T=1, 2/9=2, 3/8=3, 4/7=4, 5/6=5, J/Q/K=0 (index 0 unused).
CLASS_OF = (0, 1, 2, 3, 4, 5, 5, 4, 3, 2, 1, 0, 0, 0)
CLASS_RANKS: tuple[tuple[int, ...], ...] = ((JACK, QUEEN, KING), (1, 10), (2, 9), (3, 8), (4, 7), (5, 6))
CLASS_NAMES = ("J/Q/K", "A/10", "2/9", "3/8", "4/7", "5/6")
FACE_CLASS = 0
#: For each rank, the ranks it must be grouped with.
PARTNERS: tuple[tuple[int, ...], ...] = (
    (), (10,), (9,), (8,), (7,), (6,), (5,), (4,), (3,), (2,), (1,), (QUEEN, KING), (JACK, KING), (JACK, QUEEN),
)

Source = int  # pile index >= 0, or -rank for a free card
SearchMove = tuple[Source, ...]

_MASK = (1 << 64) - 1
#: Entries a class solver's memos may hold before they are dropped (~200 bytes each, so
#: at most ~20 MB per class, ~120 MB per search direction in the worst case).
MEMO_CAP = 100_000
#: Amplitude of the salted tie-break noise in move scores (restarts only).
NOISE = 10


def search_budgets(dive: int = 150, first: int = 2000, factor: float = 3.0) -> Iterable[int]:
    """The restart schedule for Half Moon: a cheap dive, then growing node budgets.

    Use with ``unsalted_runs=2`` so that the dive and the first full run share the
    natural move order.
    """
    yield dive
    budget = float(first)
    while True:
        yield int(budget)
        budget *= factor


def _bits(n: int) -> int:
    return max(1, int(n).bit_length())


class HalfMoonSearch:
    """A mutable Half Moon position for the solitaire search (make/unmake, packed key).

    Implements `solver.core.solitaire.SolitaireState`. `projection` turns on the
    per-class dead-position check (`class_projection_dead`, solved by `ClassSolver`);
    `proj_cache` shares the class solvers between states of one position. `reductions`
    (and `projection`) can be switched off for tests that compare
    against plain search.
    """

    def __init__(
        self,
        position: Position,
        projection: bool = True,
        proj_cache: dict | None = None,
        reductions: bool = True,
    ) -> None:
        self.position = position
        piles = [tuple(card.rank for card in pile) for pile in position.piles]
        for card in position.all_cards():
            if not 1 <= card.rank <= 13:
                raise PositionError(f"card rank {card.rank} outside A..K")
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
        self.rank_left = [0] * 14
        for card in position.all_cards():
            self.rank_left[card.rank] += 1
        self.class_left = [0] * 6
        for rank in range(1, 14):
            self.class_left[CLASS_OF[rank]] += self.rank_left[rank]
        self.left = sum(self.rank_left)
        #: Every move removes one r and one 11-r (or one J, Q and K), so unequal counts
        #: stay unequal forever: such a position is lost, and the reductions (which
        #: count on equal counts) are never run on it.
        self.balanced = all(self.rank_left[r] == self.rank_left[11 - r] for r in range(1, 6)) and (
            self.rank_left[JACK] == self.rank_left[QUEEN] == self.rank_left[KING]
        )
        self.hbits = _bits(max([len(p) for p in piles] + [1]))
        self.fbits = _bits(max(self.left, 1))
        self.fbase = self.hbits * self.npiles
        key = 0
        for i, height in enumerate(heights):
            key += height << (self.hbits * i)
        for rank in range(1, 14):
            key += free[rank] << (self.fbase + self.fbits * rank)
        self._key = key
        # below[i][height][rank]: cards of `rank` under the top of pile i at that height.
        self.below: list[list[tuple[int, ...]]] = []
        for pile in piles:
            counts = [0] * 14
            rows = [tuple(counts), tuple(counts)]
            for rank in pile[:-1]:
                counts[rank] += 1
                rows.append(tuple(counts))
            self.below.append(rows[: len(pile) + 1])
        self.projection = projection
        self.reductions = reductions
        #: ClassSolver per rank class, built on first use; shareable between states of
        #: one position (their memo is keyed by the class's own cards only).
        self.proj_cache: dict = proj_cache if proj_cache is not None else {}
        self.proj_checks = 0
        self.proj_during_search = True
        #: Whether the first run (the dive) also checks projections at every node.
        self.dive_projection = True
        self.stats = {"clear": 0, "free_partners": 0, "commit": 0, "commit_dead": 0, "branch": 0, "proj_dead": 0}
        self._moved_class: list[int] = []

    # -- SolitaireState -----------------------------------------------------------------

    def key(self) -> int:
        return self._key

    def is_won(self) -> bool:
        return self.left == 0

    def is_dead(self) -> bool:
        """The PROJECTION check for the class of the last move (every class at the root)."""
        if not self.balanced:
            return True
        if not self.projection:
            return False
        moved = self._moved_class
        if moved:
            if not self.proj_during_search:
                return False
            cls = moved[-1]
            if not self.class_left[cls]:
                return False
            solver = self.proj_cache.get(cls)
            if solver is not None:
                # The memo lookup inline (the common case): the class's packed key.
                key = 0
                parts = solver.parts
                for i, height in enumerate(self.h):
                    key += parts[i][height]
                free = self.free
                for j, rank in enumerate(solver.class_ranks):
                    key += free[rank] << solver.free_shift[j]
                known = solver.fast.get(key)
                if known is not None:
                    self.proj_checks += 1
                    if not known:
                        self.stats["proj_dead"] += 1
                    return not known
            classes: Iterable[int] = (cls,)
        else:
            classes = range(6)
        for cls in classes:
            if self.class_left[cls] and self.class_projection_dead(cls):
                self.stats["proj_dead"] += 1
                return True
        return False

    def begin_run(self, run: int) -> None:
        """Restart hook: the first run (the dive) checks projections only if `dive_projection`.

        Measured on HM1 deals, the checks pay for themselves even in the dive (more dives
        win, fewer nodes), so it is on by default; the root is always checked.
        """
        self.proj_during_search = run > 0 or self.dive_projection

    def make(self, move: SearchMove) -> None:
        h = self.h
        free = self.free
        rank_left = self.rank_left
        key = self._key
        hbits, fbits, fbase = self.hbits, self.fbits, self.fbase
        rank = 0
        for src in move:
            if src >= 0:
                height = h[src] - 1
                pile = self.ranks[src]
                rank = pile[height]
                if height == 1:
                    bottom = pile[0]
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
            rank_left[rank] -= 1
        cls = CLASS_OF[rank]
        self._key = key
        self.left -= len(move)
        self.class_left[cls] -= len(move)
        self._moved_class.append(cls)

    def child_key(self, move: SearchMove) -> int:
        """The key `make(move)` would produce, without making it (the core skips refuted ones)."""
        h = self.h
        key = self._key
        hbits, fbits, fbase = self.hbits, self.fbits, self.fbase
        if len(move) <= 3:
            for src in move:
                if src >= 0:
                    if h[src] == 2:
                        key += (1 << (fbase + fbits * self.ranks[src][0])) - (2 << (hbits * src))
                    else:
                        key -= 1 << (hbits * src)
                else:
                    key -= 1 << (fbase + fbits * -src)
            return key
        self.make(move)  # compound moves: rare, and a pile may appear in them only once anyway
        key = self._key
        self.unmake(move)
        return key

    def unmake(self, move: SearchMove) -> None:
        h = self.h
        free = self.free
        rank_left = self.rank_left
        key = self._key
        hbits, fbits, fbase = self.hbits, self.fbits, self.fbase
        for src in reversed(move):
            if src >= 0:
                height = h[src]
                pile = self.ranks[src]
                if height == 0:
                    bottom = pile[0]
                    free[bottom] -= 1
                    key -= (1 << (fbase + fbits * bottom)) - (2 << (hbits * src))
                    h[src] = 2
                    rank_left[pile[1]] += 1
                else:
                    key += 1 << (hbits * src)
                    h[src] = height + 1
                    rank_left[pile[height]] += 1
            else:
                free[-src] += 1
                key += 1 << (fbase + fbits * -src)
                rank_left[-src] += 1
        self._key = key
        self.left += len(move)
        cls = self._moved_class.pop()
        self.class_left[cls] += len(move)

    def tops(self) -> list[list[int]]:
        """For each rank, the piles (with two or more cards) whose top card has that rank."""
        h = self.h
        ranks = self.ranks
        tops: list[list[int]] = [[] for _ in range(14)]
        for i in range(self.npiles):
            height = h[i]
            if height:
                tops[ranks[i][height - 1]].append(i)
        return tops

    def ordered_moves(self, salt: int = 0) -> list[SearchMove]:
        """The moves worth trying here, best first (empty when the position is lost).

        In order: a safe compound move (`safe_compound`) as the only child; else, when a
        card can be committed (`commit_card`), only the moves that remove it; else every
        move. Order: more pile sources first (pile+pile before reserve use), then taller
        piles first; `salt` breaks ties reproducibly.
        """
        if not self.balanced:
            return []
        tops = self.tops()
        free = self.free
        if self.reductions:
            nt = [len(t) for t in tops]
            safe = self.safe_compound(tops, nt)
            if safe is not None:
                return [safe]
            commit = self.commit_card(tops, nt)
            if commit is not None:
                card_src, count = commit
                if count == 0:
                    self.stats["commit_dead"] += 1
                    return []
                self.stats["commit"] += 1
                moves = self._moves_with(card_src, tops)
                return self.order(moves, tops, salt)
        self.stats["branch"] += 1
        moves = []
        for low in (1, 2, 3, 4, 5):
            high = 11 - low
            srcs_a: list[int] = tops[low] + [-low] if free[low] else tops[low]
            if not srcs_a:
                continue
            srcs_b: list[int] = tops[high] + [-high] if free[high] else tops[high]
            for a in srcs_a:
                for b in srcs_b:
                    moves.append((a, b))
        js = tops[JACK] + [-JACK] if free[JACK] else tops[JACK]
        if js:
            qs = tops[QUEEN] + [-QUEEN] if free[QUEEN] else tops[QUEEN]
            ks = tops[KING] + [-KING] if free[KING] else tops[KING]
            for j in js:
                for q in qs:
                    for k in ks:
                        moves.append((j, q, k))
        return self.order(moves, tops, salt)

    def order(self, moves: list[SearchMove], tops: Sequence[list[int]], salt: int) -> list[SearchMove]:
        """Best first: more pile sources, taller piles, more moves left afterwards.

        The score of a move is 1000 per pile source (pile+pile before reserve use) plus
        10 x the height of each pile it takes from (taller piles first) plus 5 x the
        number of groups playable right after it (computed incrementally from the
        per-rank availability). `salt` adds a reproducible tie-break below 10 points.
        Ordering never affects correctness, only speed.
        """
        if len(moves) <= 1:
            return moves
        h = self.h
        ranks = self.ranks
        free = self.free
        base = [len(tops[r]) + (1 if free[r] else 0) for r in range(14)]
        scored = []
        for index, move in enumerate(moves):
            avail = base[:]
            score = 0
            mix = salt
            used_free = 0
            for src in move:
                if src >= 0:
                    height = h[src]
                    pile = ranks[src]
                    score += 1000 + 10 * height
                    avail[pile[height - 1]] -= 1
                    avail[pile[height - 2]] += 1  # the new top, or the freed last card
                else:
                    rank = -src
                    used_free += 1
                    if free[rank] == 1 or (used_free > 1 and free[rank] == move.count(src)):
                        avail[rank] -= 1
                if salt:
                    mix = ((mix ^ (src & 0xFF)) * 0x9E3779B97F4A7C15) & _MASK
            score += 5 * (
                avail[1] * avail[10] + avail[2] * avail[9] + avail[3] * avail[8] + avail[4] * avail[7]
                + avail[5] * avail[6] + avail[11] * avail[12] * avail[13]
            )
            if salt:
                score += (mix >> 40) % NOISE
            scored.append((-score, index, move))
        scored.sort()
        return [move for _, _, move in scored]

    def _moves_with(self, src: Source, tops: Sequence[list[int]]) -> list[SearchMove]:
        """Every group that removes the card at `src` (a pile top or a free rank)."""
        rank = self.ranks[src][self.h[src] - 1] if src >= 0 else -src
        free = self.free
        options = [tops[p] + [-p] if free[p] else tops[p] for p in PARTNERS[rank]]
        if len(options) == 1:
            return [(src, b) for b in options[0]]
        return [(src, b, c) for b in options[0] for c in options[1]]

    # -- reductions -----------------------------------------------------------------------

    def safe_compound(self, tops: Sequence[list[int]], nt: Sequence[int] | None = None) -> SearchMove | None:
        """A compound move that loses no win: SAFE_CLEAR or FREE_PARTNERS, else None.

        SAFE_CLEAR: every remaining card of a rank class is playable (a pile top or free).
        Then remove the whole class now. Sound: take any winning line, delete its moves
        of this class and prepend the removal of the whole class (possible: the class's
        counts are balanced, each card is playable, no two share a pile since only tops
        are playable). By the superset lemma every later move stays legal.

        FREE_PARTNERS: every remaining card of rank s is free (covers nothing), and some
        card x whose group needs an s is playable (for J/Q/K: both other face ranks are
        all free). Then remove each such playable x now with free partners. Sound: in a
        winning line x is grouped with some free s-card y'; remove x with a free s-card
        y now, delete x's move from the line and let y' stand in for y wherever the line
        used y (both free, so both are playable at any time). By the superset lemma the
        rest stays legal. Repeating it for every playable x keeps the condition true.

        Not safe, and not used: pairing two free cards just because both are free (with 5
        and 6 free and a pile holding 6 above 5, that strands the pile).
        """
        free = self.free
        rank_left = self.rank_left
        class_left = self.class_left
        if nt is None:
            nt = [len(t) for t in tops]
        for cls in (1, 2, 3, 4, 5):
            if not class_left[cls]:
                continue
            low, high = cls, 11 - cls
            left = rank_left[low]
            play_low = nt[low] + free[low]
            play_high = nt[high] + free[high]
            if play_low == left and play_high == left:
                self.stats["clear"] += 1
                move: list[int] = []
                for rank in (low, high):
                    move += tops[rank]
                    move += [-rank] * free[rank]
                return tuple(move)
            for rank, other, playable in ((low, high, play_low), (high, low, play_high)):
                if free[other] == left and playable:
                    self.stats["free_partners"] += 1
                    move = []
                    for src in tops[rank] + [-rank] * free[rank]:
                        move += (src, -other)
                    return tuple(move)
        if class_left[0]:
            left = rank_left[JACK]
            playable = [nt[r] + free[r] for r in (JACK, QUEEN, KING)]
            if playable[0] == playable[1] == playable[2] == left:
                self.stats["clear"] += 1
                move = []
                for rank in (JACK, QUEEN, KING):
                    move += tops[rank]
                    move += [-rank] * free[rank]
                return tuple(move)
            for index, rank in enumerate((JACK, QUEEN, KING)):
                others = PARTNERS[rank]
                if playable[index] and free[others[0]] == left and free[others[1]] == left:
                    self.stats["free_partners"] += 1
                    move = []
                    for src in tops[rank] + [-rank] * free[rank]:
                        move += (src, -others[0], -others[1])
                    return tuple(move)
        return None

    def commit_card(self, tops: Sequence[list[int]], nt: Sequence[int] | None = None) -> tuple[Source, int] | None:
        """COMMIT: a playable card whose every possible partner is playable now, if any.

        Returns (its source, how many moves remove it), the card with fewest such moves.
        Sound: let x be playable, and every card that could ever be grouped with x be
        playable now (cards of the partner ranks lying below x in its own pile can never
        be grouped with x, so they are left out). In a winning line, x's group has only
        such cards, all playable now; moving that group to the front keeps the line
        legal (superset lemma). So the position is won iff some move removing x now
        leads to a win: the search branches on those moves only. If there are none, x
        can never be removed and the position is lost.
        """
        free = self.free
        rank_left = self.rank_left
        h = self.h
        ranks = self.ranks
        if nt is None:
            nt = [len(t) for t in tops]
        # missing[r]: cards of rank r not playable now; options[r]: distinct sources of r.
        missing = [rank_left[r] - nt[r] - free[r] for r in range(14)]
        options = [nt[r] + (1 if free[r] else 0) for r in range(14)]
        best: tuple[Source, int] | None = None
        best_count = 1 << 30
        # Pile tops first (they block cards below them), then free cards.
        for i in range(self.npiles):
            height = h[i]
            if not height:
                continue
            rank = ranks[i][height - 1]
            partners = PARTNERS[rank]
            below = self.below[i][height]
            if missing[partners[0]] != below[partners[0]]:
                continue
            if len(partners) == 1:
                count = options[partners[0]]
            elif missing[partners[1]] != below[partners[1]]:
                continue
            else:
                count = options[partners[0]] * options[partners[1]]
            if count < best_count:
                best, best_count = (i, count), count
                if count <= 1:
                    return best
        for rank in range(1, 14):
            if not free[rank]:
                continue
            partners = PARTNERS[rank]
            if missing[partners[0]]:
                continue
            if len(partners) == 1:
                count = options[partners[0]]
            elif missing[partners[1]]:
                continue
            else:
                count = options[partners[0]] * options[partners[1]]
            if count < best_count:
                best, best_count = (-rank, count), count
                if count <= 1:
                    return best
        return best

    def class_projection_dead(self, cls: int) -> bool:
        """PROJECTION: the position is lost if rank class `cls` alone cannot be cleared.

        Project the position onto one rank class: delete every card of the other classes
        (as if they could be removed at will) and keep the class's cards in pile order.
        Sound: a winning line of the real position, restricted to its moves of this class,
        is legal in the projection (superset lemma: the projection has removed a superset
        of the cards) and clears the class. So if the projection cannot be cleared,
        neither can the position. Verdicts are memoised by the class's own pile heights and
        free counts; only a move of this class changes the projection, so only that class
        is rechecked.
        """
        self.proj_checks += 1
        solver = self.proj_cache.get(cls)
        if solver is None:
            solver = self.proj_cache[cls] = ClassSolver(self.ranks, cls)
        return not solver.winnable_from(self.h, self.free, self.rank_left[CLASS_RANKS[cls][0]])

    def projected(self, cls: int) -> Position:
        """The current position restricted to one rank class (other cards deleted)."""
        keep = set(CLASS_RANKS[cls])
        piles = tuple(
            tuple(Card(r, 0) for r in self.ranks[i][: self.h[i]] if r in keep) for i in range(self.npiles)
        )
        reserve = tuple(Card(r, 0) for r in sorted(keep) for _ in range(self.free[r]))
        return Position(piles, reserve)

    def current_position(self) -> Position:
        """A rules-level position with the same future (free cards shown as reserve cards)."""
        piles = tuple(tuple(Card(r, 0) for r in self.ranks[i][: self.h[i]]) for i in range(self.npiles))
        reserve = tuple(Card(r, 0) for r in range(1, 14) for _ in range(self.free[r]))
        return Position(piles, reserve)


class ClassSolver:
    """Exact solver for one rank class on its own (the projection), memoised across calls.

    The projected game keeps only this class's cards, in pile order; a pile left with one
    class card makes that card free. Ranks inside the class are numbered 0..k-1 (k = 2 for
    a pair class, 3 for J/Q/K) and a group takes one card of each. It uses the same sound
    reductions as the main search (SAFE_CLEAR, FREE_PARTNERS, COMMIT), which in a single
    class decide most positions at once.
    """

    def __init__(self, piles: Sequence[tuple[int, ...]], cls: int) -> None:
        self.cls = cls
        self.class_ranks = CLASS_RANKS[cls]
        self.k = len(self.class_ranks)
        index = {rank: j for j, rank in enumerate(self.class_ranks)}
        self.seqs = [tuple(index[r] for r in pile if r in index) for pile in piles]
        # Class height of each pile for each real height (>= 2; else the pile holds no
        # covered card and its last card, if any, is already counted as free); and the
        # pile's share of a packed key of the projection: a class height c >= 2 in the
        # pile's own field, a single class card as one more free card of its rank.
        cbits = _bits(max([len(p) for p in piles] + [1]))
        self.free_shift = [cbits * len(piles) + 10 * j for j in range(self.k)]
        self.height_map: list[list[int]] = []
        self.parts: list[list[int]] = []
        for i, pile in enumerate(piles):
            row, part, count = [0], [0], 0
            for height in range(1, len(pile) + 1):
                count += pile[height - 1] in index
                c = count if height >= 2 else 0
                row.append(c)
                if c >= 2:
                    part.append(c << (cbits * i))
                elif c == 1:
                    part.append(1 << self.free_shift[self.seqs[i][0]])
                else:
                    part.append(0)
            self.height_map.append(row)
            self.parts.append(part)
        # below[i][c][j]: cards of class rank j under the top of pile i at class height c.
        self.below = []
        for seq in self.seqs:
            counts = [0] * self.k
            rows = [tuple(counts), tuple(counts)]
            for j in seq[:-1]:
                counts[j] += 1
                rows.append(tuple(counts))
            self.below.append(rows[: len(seq) + 1])
        self.active = [i for i, seq in enumerate(self.seqs) if len(seq) >= 2]
        self.memo: dict[tuple[tuple[int, ...], tuple[int, ...]], bool] = {}
        self.fast: dict[int, bool] = {}
        self.solves = 0

    def winnable_from(self, heights: Sequence[int], free: Sequence[int], left: int) -> bool:
        """Is this class clearable on its own, from the main search's heights and free pool?

        `left` is how many groups of the class remain (the count of each of its ranks).
        """
        key = 0
        parts = self.parts
        for i, height in enumerate(heights):
            key += parts[i][height]
        for j, rank in enumerate(self.class_ranks):
            key += free[rank] << self.free_shift[j]
        known = self.fast.get(key)
        if known is not None:
            return known
        fr = [free[rank] for rank in self.class_ranks]
        ch = []
        height_map = self.height_map
        for i, height in enumerate(heights):
            c = height_map[i][height]
            if c == 1:
                fr[self.seqs[i][0]] += 1
                c = 0
            ch.append(c)
        if len(self.fast) + len(self.memo) > MEMO_CAP:
            # A cache only: dropping it costs time, never correctness, and bounds memory.
            self.fast.clear()
            self.memo.clear()
        known = self._win(tuple(ch), tuple(fr), left)
        self.fast[key] = known
        return known

    def _win(self, ch: tuple[int, ...], fr: tuple[int, ...], left: int) -> bool:
        if left == 0:
            return True
        key = (ch, fr)
        known = self.memo.get(key)
        if known is not None:
            return known
        self.solves += 1
        k = self.k
        seqs = self.seqs
        tops: list[list[int]] = [[], [], []]
        for i in self.active:
            c = ch[i]
            if c:
                tops[seqs[i][c - 1]].append(i)
        result: bool | None = None
        if k == 2:
            p0, p1 = len(tops[0]) + fr[0], len(tops[1]) + fr[1]
            if (p0 == left and p1 == left) or fr[0] == left or fr[1] == left:
                result = True  # SAFE_CLEAR, or FREE_PARTNERS: piles hold one rank only
            playable = (p0, p1)
        else:
            playable = (len(tops[0]) + fr[0], len(tops[1]) + fr[1], len(tops[2]) + fr[2])
            if playable[0] == playable[1] == playable[2] == left or (fr[0] == left) + (fr[1] == left) + (
                fr[2] == left
            ) >= 2:
                result = True
        if result is None:
            sources = [tops[j] + [-1] if fr[j] else tops[j] for j in range(k)]
            moves: list[tuple[int, ...]] | None = None
            # COMMIT: a playable card whose possible partners are all playable now.
            best = 1 << 30
            for j in range(k):
                for src in sources[j]:
                    below = self.below[src][ch[src]] if src >= 0 else None
                    count = 1
                    for other in range(k):
                        if other == j:
                            continue
                        if playable[other] + (below[other] if below else 0) != left:
                            break
                        count *= len(sources[other])
                    else:
                        if count < best:
                            best = count
                            options = [sources[o] if o != j else [src] for o in range(k)]
                            moves = _product(options)
            if moves is None:
                moves = _product(sources)
            result = False
            for move in moves:
                nch = list(ch)
                nfr = list(fr)
                for j, src in enumerate(move):
                    if src < 0:
                        nfr[j] -= 1
                    else:
                        c = nch[src] - 1
                        if c == 1:
                            nfr[seqs[src][0]] += 1
                            c = 0
                        nch[src] = c
                if self._win(tuple(nch), tuple(nfr), left - 1):
                    result = True
                    break
        self.memo[key] = result
        return result


def _product(options: list[list[int]]) -> list[tuple[int, ...]]:
    if len(options) == 2:
        return [(a, b) for a in options[0] for b in options[1]]
    return [(a, b, c) for a in options[0] for b in options[1] for c in options[2]]


# -- from search moves back to concrete moves ------------------------------------------------


def concretize(position: Position, line: Iterable[SearchMove]) -> tuple[Move, ...]:
    """Turn abstract search moves into rules-level moves.

    A free source ``-r`` becomes a reserve slot or single-card pile holding rank r (they
    are interchangeable); a compound move is split into its pairs or triples. The table is
    tracked with plain lists here (this runs on every answer, so it is kept light); the
    caller replays the result through the rules (`halfmoon_solver.verify_line`), so an
    inconsistency can never come out as a winning line.
    """
    return concretize_from(position, line)[0]


def concretize_from(position: Position, line: Iterable[SearchMove]) -> tuple[tuple[Move, ...], Position]:
    """`concretize`, also returning the position the line reaches."""
    piles = [list(pile) for pile in position.piles]
    reserve = list(position.reserve)
    moves: list[Move] = []
    for smove in line:
        places: list[Place] = []
        cards: list[Card] = []
        for src in smove:
            if src >= 0:
                place, card = Place(False, src), piles[src][-1]
            else:
                place, card = _free_place(piles, reserve, -src, places)
            places.append(place)
            cards.append(card)
        groups = [places] if len(places) <= 3 else _group(places, cards)
        for group in groups:
            for place in group:
                if place.in_reserve:
                    reserve[place.index] = None
                else:
                    piles[place.index].pop()
            moves.append(Move(tuple(group)))
    return tuple(moves), Position(tuple(map(tuple, piles)), tuple(reserve))


def abstract_line(position: Position, moves: Iterable[Move]) -> list[SearchMove]:
    """Rules-level moves from `position` as search moves (the inverse of `concretize`).

    A reserve card or the last card of a pile is a free source ``-rank``; any other pile
    card is its pile index. Each move is applied through the rules as it goes.
    """
    line: list[SearchMove] = []
    current = position
    for move in moves:
        sources = []
        for place in move.places:
            card = current.card_at(place)
            if card is None:
                raise AssertionError(f"move {move} names empty place {place}")
            if place.in_reserve or len(current.piles[place.index]) == 1:
                sources.append(-card.rank)
            else:
                sources.append(place.index)
        current = current.apply(move)
        line.append(tuple(sources))
    return line


def _free_place(piles: list[list[Card]], reserve: list[Card | None], rank: int,
                taken: list[Place]) -> tuple[Place, Card]:
    """A reserve slot or single-card pile holding `rank`, not already used by this move."""
    for index, card in enumerate(reserve):
        if card is not None and card.rank == rank and Place(True, index) not in taken:
            return Place(True, index), card
    for index, pile in enumerate(piles):
        if len(pile) == 1 and pile[0].rank == rank and Place(False, index) not in taken:
            return Place(False, index), pile[0]
    raise AssertionError(f"search line names a free card of rank {rank} that is not on the table")


def _group(places: list[Place], cards: list[Card]) -> list[list[Place]]:
    """Split the places of a compound move (all playable now) into pairs or triples."""
    by_rank: dict[int, list[Place]] = {}
    for place, card in zip(places, cards):
        by_rank.setdefault(card.rank, []).append(place)
    ranks = sorted(by_rank)
    groups = [list(group) for group in zip(*(by_rank[r] for r in ranks))]
    if sum(map(len, groups)) != len(places):
        raise AssertionError(f"unbalanced compound move {places}")
    return groups
