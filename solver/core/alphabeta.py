"""Alpha-beta with a transposition table for score questions (Golf), exact under a repetition rule.

For games that end play when a position repeats (Golf: "a repeated position ends the round"),
the history since the last irreversible move belongs to the position, and keeping it in the key
multiplies the positions. Here the key leaves it out and the search keeps it on its path:

* the game's ``path_kernel(position)`` gives packed keys without history, each move's result
  with a flag saying whether the move was *reversible* (only after those can a position come
  back; any other move starts a new stretch with an empty history), and the result a repeated
  position ends with;
* a reversible move into a position on the current stretch of the path ends play there;
* a result that used a repetition of a position *above* the node is never stored;
* a stored result (a bound of the value the position has with no history) also records, in a
  small Bloom filter, every position of its stretch its search looked at. It is reused at a node
  only when none of the positions on the node's own stretch is in that filter: then the same
  search from here would have seen no repetition either, so the value is the same. A filter
  never misses a position it holds, so a reuse is never wrong; a false alarm only costs a search.

Swaps that only rearrange cards can go on for thousands of moves before a position repeats, so
the value is pinned down between two restricted games that are cheap to search: in L_d the
maximizing side may make at most d reversible moves per stretch (the other side plays freely),
in U_d the minimizing side. Each side of L_d has fewer choices than in the real game, so
L_d ≤ value ≤ U_d, and both converge on the value as d grows (d = 0, 1, 2, …: a stretch then
has at most 2d + 2 reversible moves). When they meet, the value is exact; a limit leaves the
proven bounds.

Games without a repetition rule and without cycles (``acyclic = True``) are searched the same way
with every move irreversible (and no restricted games are needed): on their positions, or on a
path kernel that says ``reversible = False`` (Spit), whose ``successors`` flag every move
irreversible and whose optional ``table_key(node)`` gives the canonical key the table stores
when the nodes keep more (an order of interchangeable places that the move order follows).

The value of every legal move at the root is found exactly by MTD(f) (null-window searches
converging on the value, the table keeping the bounds between them); the root's value follows.
A limit leaves the moves not yet settled unknown (with the bounds found).
"""

from __future__ import annotations

import sys
from typing import Any, Callable, Hashable, Sequence, cast

from .solution import SOLVED, UNKNOWN, MoveValue, Progress, Solution, _Budget, _LimitHit
from .game import Game, Question
from .verdicts import Limits

BIG = 1 << 40
_FREE = 1 << 30
FILTER_BITS = 256
_MIX = 0x9E3779B97F4A7C15


def _bit(key: Hashable) -> int:
    """The filter bit of a key (a multiplicative hash of the packed key)."""
    return 1 << (((hash(key) * _MIX) >> 24) % FILTER_BITS)


class _View:
    """The game as the search walks it: ``children(node) -> [(child, reversible)]``, keys, terminals."""

    def __init__(self, game: Game[Any, Any], position: Any) -> None:
        make = getattr(game, "path_kernel", None)
        if make is not None:
            kernel = make(position)
            self.children = kernel.successors
            self.terminal = kernel.terminal
            self.to_move = kernel.to_move
            self.node_of = kernel.key
            # a kernel of an acyclic game says ``reversible = False``: no move is, so it needs no
            # history and no repetition result, and no restricted game is searched
            self.reversible = bool(getattr(kernel, "reversible", True))
            self.repeated: Any = getattr(kernel, "repeated", None)
            self.history: Any = getattr(kernel, "history", None) or (lambda p: [])
            # nodes that keep more than the game's canonical form (Spit: the places in their order,
            # for the move order) name their table entries by the kernel's ``table_key``
            self.key: Callable[[Any], Hashable] | None = getattr(kernel, "table_key", None)
            return
        successors = getattr(game, "successors", None)
        if successors is not None:
            self.children = lambda p: [(c, False) for _, c in successors(p)]
        else:
            self.children = lambda p: [(game.apply(p, m), False) for m in game.legal_moves(p)]
        self.terminal = game.terminal
        self.to_move = game.to_move
        self.repeated = None
        self.node_of = lambda p: p
        self.history = lambda p: []
        self.key = game.key
        self.reversible = False

    def key_of(self, node: Any) -> Hashable:
        return node if self.key is None else self.key(node)


def usable(game: Game[Any, Any]) -> bool:
    """Whether the alpha-beta search is exact for `game`: a repetition-aware path kernel, or no cycles."""
    return getattr(game, "path_kernel", None) is not None or bool(getattr(game, "acyclic", False))


class _Search:
    """One question's alpha-beta over one view (the table is the question's)."""

    def __init__(self, view: _View, question: Question, budget: _Budget, counter: list[int],
                 restrict: int = 0, level: int = 0) -> None:
        self.view = view
        self.question = question
        self.maximizers = question.maximizers
        self.value = question.value
        self.budget = budget
        self.counter = counter  # [nodes, positions stored, position limit] shared by every search of a solve
        self.restrict = restrict  # 0: the real game; 1: the maximizing side limited; 2: the minimizing side
        self.level = level  # reversible moves the limited side may make per stretch
        self.table: dict[Hashable, tuple[int, int, int, int]] = {}  # key → (low, high, best move, filter)
        low, high = getattr(question, "value_bounds", None) or (-BIG, BIG)
        self.low, self.high = low, high
        self.partial = (low, high)

    def ab(self, node: Any, key: Hashable, alpha: int, beta: int, depth: int, path: dict[Hashable, int], pf: int, left: int = 0
           ) -> tuple[int, int, int]:
        """(value bound, loop, filter): fail-soft minimax for the maximizing side; `loop` is the
        depth of the highest repeated position the result used (_FREE if none); `filter` the
        positions of this stretch the search looked at. `left`: reversible moves the limited
        side may still make in this stretch (restricted games only)."""
        counter = self.counter
        counter[0] += 1
        if not counter[0] & 1023:
            self.budget.check_now()
        table = self.table
        restrict = self.restrict
        tkey = cast(int, key) * 64 + left if restrict else key  # restricted games: packed int keys
        entry = table.get(tkey)
        best_first = -1
        if entry is not None:
            lo, hi, best_first, filt = entry
            if not filt & pf:
                if lo >= beta or lo == hi:
                    return lo, _FREE, filt
                if hi <= alpha:
                    return hi, _FREE, filt
                if lo > alpha:
                    alpha = lo
                if hi < beta:
                    beta = hi
            else:
                entry = None
        view = self.view
        kids = view.children(node)
        order: Sequence[int] = range(len(kids))
        if 0 < best_first < len(kids):
            order = [best_first] + [i for i in range(len(kids)) if i != best_first]
        is_max = view.to_move(node) in self.maximizers
        limited = restrict == 1 if is_max else restrict == 2
        level = self.level
        a0, b0 = alpha, beta
        best = -BIG if is_max else BIG
        best_i = 0
        loop = _FREE
        filt = 0
        keyf = view.key
        terminal = view.terminal
        value = self.value
        path[key] = depth
        own_bit = _bit(key)
        try:
            for i in order:
                child, reversible = kids[i]
                ck = child if keyf is None else keyf(child)
                if reversible:
                    if limited:
                        if not left:
                            continue
                        child_left = left - 1
                    else:
                        child_left = left
                    filt |= _bit(ck)
                    at = path.get(ck)
                    if at is not None:
                        v = value(view.repeated(child))
                        if at < loop:
                            loop = at
                    else:
                        t = terminal(child)
                        if t is not None:
                            v = value(t)
                        else:
                            v, lp, f = self.ab(child, ck, alpha, beta, depth + 1, path, pf | own_bit, child_left)
                            filt |= f
                            if lp < loop:
                                loop = lp
                else:
                    t = terminal(child)
                    if t is not None:
                        v = value(t)
                    else:
                        v, lp, _ = self.ab(child, ck, alpha, beta, depth + 1, {}, 0, level)
                if is_max:
                    if v > best:
                        best, best_i = v, i
                        if v > alpha:
                            alpha = v
                else:
                    if v < best:
                        best, best_i = v, i
                        if v < beta:
                            beta = v
                if alpha >= beta:
                    break
        finally:
            del path[key]
        if loop >= depth:  # no repetition above this node was used: a fact about the position
            if entry is None and tkey not in table:
                counter[1] += 1
                if counter[1] > counter[2]:
                    raise _LimitHit(f"position limit {counter[2]} reached")
            if best <= a0:
                lo, hi = self.low, best
            elif best >= b0:
                lo, hi = best, self.high
            else:
                lo = hi = best
            if entry is not None:  # keep what the old entry knew (same validity: it was usable here)
                lo = max(lo, entry[0])
                hi = min(hi, entry[1])
                filt |= entry[3]
            table[tkey] = (lo, hi, best_i, filt)
        return best, loop, filt

    def exact(self, node: Any, path: dict[Hashable, int], pf: int, depth: int, guess: int, lo: int, hi: int,
              left: int | None = None) -> tuple[int, int]:
        """MTD(f) inside (lo, hi): null-window searches until the bounds meet. A limit raises
        _LimitHit with the bounds reached in `self.partial`."""
        key = self.view.key_of(node)
        t = self.view.terminal(node)
        if t is not None:
            v = self.value(t)
            return v, v
        left = self.level if left is None else left
        g = min(max(guess, lo), hi)
        self.partial = (lo, hi)
        while lo < hi:
            beta = g if g > lo else lo + 1
            g, loop, _ = self.ab(node, key, beta - 1, beta, depth, path, pf, left)
            if g < beta:
                hi = g
            else:
                lo = g
            self.partial = (lo, hi)
        return lo, hi


class _Evaluator:
    """Exact values of positions for one question: the real game directly when it has no reversible
    moves, else the restricted games L_d and U_d for d = 0, 1, … until they meet (see the module)."""

    MAX_LEVEL = 12

    def __init__(self, view: _View, question: Question, budget: _Budget, counter: list[int]) -> None:
        self.view = view
        self.question = question
        self.budget = budget
        self.counter = counter
        self.real = _Search(view, question, budget, counter)
        self.low, self.high = self.real.low, self.real.high
        self.levels: dict[tuple[int, int], _Search] = {}
        self.partial = (self.low, self.high)

    def search(self, restrict: int, level: int) -> _Search:
        found = self.levels.get((restrict, level))
        if found is None:
            found = self.levels[(restrict, level)] = _Search(self.view, self.question, self.budget, self.counter,
                                                             restrict, level)
        return found

    @property
    def searches(self) -> list[_Search]:
        return [self.real, *self.levels.values()]

    def guess(self, node: Any) -> int:
        """The value if play stopped here (Golf: the scores as they stand), a first guess for MTD(f)."""
        if self.view.repeated is None:
            return 0
        try:
            return self.question.value(self.view.repeated(node))
        except Exception:  # noqa: BLE001 - a guess only
            return 0

    def step(self, node: Any, path: dict[Hashable, int], pf: int, depth: int, level: int, lo: int, hi: int) -> tuple[int, int]:
        """Tighten (lo, hi) with L_level and U_level (or, at level -1 or without reversible moves,
        with the real game). A limit raises _LimitHit with the bounds proven so far in `self.partial`."""
        self.partial = (lo, hi)
        if lo >= hi:
            return lo, hi
        t = self.view.terminal(node)
        if t is not None:
            v = self.question.value(t)
            return v, v
        g = self.guess(node)
        if level < 0 or not self.view.reversible:
            s = self.real
            try:
                return s.exact(node, dict(path), pf, depth, g, lo, hi)
            except _LimitHit:
                a, b = s.partial
                self.partial = (max(lo, a), min(hi, b))
                raise
        for restrict in (1, 2):
            # L_d (restrict 1) is a lower bound of the value, U_d (restrict 2) an upper bound
            s = self.search(restrict, level)
            try:
                a, b = s.exact(node, dict(path), pf, depth, lo if restrict == 1 else hi, lo, hi)
            except _LimitHit:
                a, b = s.partial
                if restrict == 1:
                    lo = max(lo, a)
                else:
                    hi = min(hi, b)
                self.partial = (lo, hi)
                raise
            if restrict == 1:
                lo = max(lo, a)
            else:
                hi = min(hi, b)
            self.partial = (lo, hi)
            if lo >= hi:
                return lo, lo
        return lo, hi

    def exact(self, node: Any, path: dict[Hashable, int], pf: int, depth: int) -> tuple[int, int]:
        """(low, high) of the node's value under the path given, equal when exact: the restricted
        games level by level, then the real game between their bounds."""
        lo, hi = self.low, self.high
        levels = range(self.MAX_LEVEL + 1) if self.view.reversible else ()
        for level in [*levels, -1]:
            lo, hi = self.step(node, path, pf, depth, level, lo, hi)
            if lo >= hi:
                break
        return lo, hi


def solve_alphabeta(
    game: Game[Any, Any],
    position: Any,
    questions: Sequence[Question],
    limits: Limits,
    max_line: int = 400,
    progress: Progress | None = None,
) -> list[Solution[Any, Any]]:
    """Every question about `position` by alpha-beta (see the module docstring)."""
    budget = _Budget(limits, progress=progress)
    view = _View(game, position)
    counter = [0, 0, limits.nodes if limits.nodes is not None else 1 << 62]
    evaluators = [_Evaluator(view, q, budget, counter) for q in questions]

    def tables() -> list[_Search]:
        return [s for e in evaluators for s in e.searches]

    budget.counts = lambda: (counter[1], counter[0], 0)
    root = view.node_of(position)
    root_terminal = game.terminal(position)
    moves = list(game.legal_moves(position)) if root_terminal is None else []
    history = {k: -1 for k in view.history(position)}
    hist_filter = 0
    for k in history:
        hist_filter |= _bit(k)
    root_key = view.key_of(root)
    kids = view.children(root) if root_terminal is None else []
    old_limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(old_limit, 30_000))
    results: list[list[tuple[int, int]]] = [[(e.low, e.high)] * len(moves) for e in evaluators]
    reason = ""
    starts: list[tuple[dict[Hashable, int], int]] = []
    for mi, (child, reversible) in enumerate(kids):
        if reversible:
            path, pf = dict(history), hist_filter | _bit(root_key)
            path[root_key] = 0
            if view.key_of(child) in path:  # the move repeats a position: play ends there
                for qi, evaluator in enumerate(evaluators):
                    v = evaluator.question.value(view.repeated(child))
                    results[qi][mi] = (v, v)
        else:
            path, pf = {}, 0
        starts.append((path, pf))
    levels = [*range(_Evaluator.MAX_LEVEL + 1), -1] if view.reversible else [-1]
    try:
        # level by level, every move of every question (round robin): a limit leaves each move
        # with the bounds proven so far, never some moves untouched
        for level in levels:
            for qi, evaluator in enumerate(evaluators):
                for mi, (child, _) in enumerate(kids):
                    lo, hi = results[qi][mi]
                    if lo >= hi:
                        continue
                    path, pf = starts[mi]
                    try:
                        budget.check_now()
                        results[qi][mi] = evaluator.step(child, path, pf, 1, level, lo, hi)
                    except _LimitHit:
                        results[qi][mi] = evaluator.partial
                        raise
            if all(lo >= hi for r in results for lo, hi in r):
                break
    except _LimitHit as hit:
        reason = hit.reason
    except RecursionError:
        reason = "depth limit reached (search recursion)"
    finally:
        sys.setrecursionlimit(old_limit)
    searches = tables()
    budget.report(final=True)
    positions = max(1, sum(len(s.table) for s in searches))
    nodes = counter[0]
    bytes_per_position = _table_bytes(searches) / positions
    solutions: list[Solution[Any, Any]] = []
    for qi, search in enumerate(evaluators):
        question = search.question
        if root_terminal is not None:
            lo = hi = question.value(root_terminal)
            move_values: tuple[MoveValue[Any], ...] = ()
        else:
            bounds = results[qi]
            move_values = tuple(MoveValue(m, b[0] if b[0] == b[1] else None) for m, b in zip(moves, bounds))
            if game.to_move(position) in question.maximizers:
                lo, hi = max(b[0] for b in bounds), max(b[1] for b in bounds)
            else:
                lo, hi = min(b[0] for b in bounds), min(b[1] for b in bounds)
        info: dict[str, Any] = {"complete": None}
        if lo != hi:
            info["bounds"] = {"at_least": None if lo <= search.low else lo, "at_most": None if hi >= search.high else hi}
            solutions.append(Solution(UNKNOWN, None, move_values, (), "none", None, "alphabeta", positions, nodes, 0,
                                      budget.elapsed(), bytes_per_position, reason or "not settled",
                                      question.draw_value, info))
            continue
        line, end, final = _line(game, position, view, search, lo, max_line)
        solutions.append(Solution(SOLVED, lo, move_values, tuple(line), end, final, "alphabeta", positions, nodes, 0,
                                  budget.elapsed(), bytes_per_position, "", question.draw_value, info))
    return solutions


def _table_bytes(searches: Sequence[_Search]) -> int:
    total = 0
    for s in searches:
        table = s.table
        n = len(table)
        if not n:
            continue
        total += sys.getsizeof(table)
        sample = count = 0
        for k, v in table.items():
            sample += sys.getsizeof(k) + sys.getsizeof(v) + sum(sys.getsizeof(x) for x in v if not -5 <= x <= 256)
            count += 1
            if count >= 256:
                break
        total += sample * n // count
    return total


def _line(game: Game[Any, Any], position: Any, view: _View, search: _Evaluator, value: int,
          max_line: int) -> tuple[list[Any], str, Any]:
    """Both sides keep the value: at each step the first move (in the game's order) whose exact
    value under the line's own history equals the position's value. Stops at a terminal, at
    `max_line` moves or when a limit leaves a move unsettled ("cut")."""
    line: list[Any] = []
    here = position
    try:
        while len(line) < max_line:
            if game.terminal(here) is not None:
                return line, "terminal", here
            history = {k: -1 for k in view.history(here)}
            pf = 0
            for k in history:
                pf |= _bit(k)
            node = view.node_of(here)
            key = view.key_of(node)
            chosen = None
            for move, (child, reversible) in zip(game.legal_moves(here), view.children(node)):
                after = game.apply(here, move)
                if reversible:
                    path = dict(history)
                    path[key] = 0
                    cpf = pf | _bit(key)
                    if view.key_of(child) in path:
                        v = search.question.value(view.repeated(child))
                        lo = hi = v
                    else:
                        lo, hi = search.exact(child, path, cpf, 1)
                else:
                    lo, hi = search.exact(child, {}, 0, 1)
                if lo == hi == value:
                    chosen = (move, after)
                    break
            if chosen is None:
                return line, "cut", here
            line.append(chosen[0])
            here = chosen[1]
    except (_LimitHit, RecursionError):
        return line, "cut", here
    if game.terminal(here) is not None:
        return line, "terminal", here
    return line, "cut", here
