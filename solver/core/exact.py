"""Exact solving of perfect-information games through the `Game` / `Question` protocols.

Methods, one result type (`choose_method` picks one for ``auto``):

* **Proof-number search** (`solver.core.proof`, ``proof``) for questions with few values
  (win/loss/draw, coalitions) on any game, cyclic included: df-pn with a transposition table.
* **Alpha-beta with a transposition table** (`solver.core.alphabeta`, ``alphabeta``) for games
  without cycles and for games whose repetition rule is kept on the search path (Golf).

* **Retrograde analysis** (any game, the default). The reachable position graph is built
  breadth-first into flat arrays (keys → dense indices, successor lists in CSR form). Values are
  then propagated backwards from the terminals with counters of unresolved children, once per
  threshold of the value range; a position left unresolved at the fixpoint is infinite play and
  worth the question's `draw_value`. This is what makes cyclic games exact: forward search with
  a transposition table mixes up values that depend on the path (graph-history interaction),
  retrograde analysis never looks at paths.
* **Memoised minimax with alpha-beta** (games that declare ``acyclic = True``): depth-first,
  transposition table of bounds keyed by `Game.key`; no graph is stored.

Every solve reports the value for the maximizing side, the value of every legal move at the
root, a principal line (replayed through the game's own `apply`), counts, and — when a limit on
positions, seconds or memory is hit — status ``unknown`` instead of a hang or a crash.
"""

from __future__ import annotations

import sys
from array import array
from collections import deque
from dataclasses import dataclass
from typing import Any, Callable, Hashable, Sequence, TypeAlias

import numpy as np

from halfmoon.solver.errors import UnsupportedError

from .game import Game, M, P, Question, Terminal, is_acyclic
from .solution import SOLVED as SOLVED  # re-exported: callers import the answer's names from here
from .solution import UNKNOWN as UNKNOWN
from .solution import MoveValue as MoveValue
from .solution import Progress as Progress
from .solution import Solution as Solution
from .solution import _Budget, _LimitHit
from .verdicts import Limits as Limits


def solve(
    game: Game[P, M],
    position: P,
    question: Question,
    limits: Limits = Limits(),
    method: str = "auto",
    max_line: int = 400,
    progress: Progress | None = None,
) -> Solution[P, M]:
    """Solve `question` about `position` exactly (or return status ``unknown`` at a limit).

    `method` is ``auto`` (see `choose_method`), ``proof`` (df-pn, questions with few values),
    ``alphabeta`` (games without cycles or with a repetition-aware kernel), ``retrograde`` (any
    game) or ``negamax`` (acyclic games; kept as a reference). A method that would be wrong for
    the game is refused. `progress`, if given, receives a dict of counts about twice a second.
    """
    return solve_all(game, position, [question], limits, method, max_line, progress)[0]


METHODS = ("auto", "proof", "alphabeta", "retrograde", "negamax")


def choose_method(game: Game[Any, Any], questions: Sequence[Question]) -> str:
    """What ``auto`` runs: alpha-beta for games without cycles or with a repetition-aware kernel
    (Golf, Spit); proof-number search for cyclic games asked questions with few values
    (Shithead, Eight and a half); retrograde analysis otherwise (a cyclic game asked for scores)."""
    from .alphabeta import usable
    from .proof import provable

    if usable(game):
        return "alphabeta"
    if questions and all(provable(q) for q in questions):
        return "proof"
    return "retrograde"


def solve_all(
    game: Game[P, M],
    position: P,
    questions: Sequence[Question],
    limits: Limits = Limits(),
    method: str = "auto",
    max_line: int = 400,
    progress: Progress | None = None,
) -> list[Solution[P, M]]:
    """Several questions about one position; retrograde builds the graph once for all of them.

    The limits apply to the whole call (graph building plus every question).
    """
    if method == "auto":
        method = choose_method(game, questions)
    if method == "proof":
        from .proof import provable, solve_proof

        if not all(provable(q) for q in questions):
            raise UnsupportedError("method 'proof' answers questions with few values (win/loss/draw, coalitions)")
        return solve_proof(game, position, questions, limits, max_line, progress)
    if method == "alphabeta":
        from .alphabeta import solve_alphabeta, usable

        if not usable(game):
            raise UnsupportedError(f"method 'alphabeta' needs an acyclic game or a repetition-aware kernel; "
                                   f"{game.name} may repeat positions")
        return solve_alphabeta(game, position, questions, limits, max_line, progress)
    if method == "retrograde":
        return _retrograde(game, position, questions, limits, max_line, progress)
    if method == "negamax":
        if not is_acyclic(game):
            raise UnsupportedError(f"method 'negamax' needs an acyclic game; {game.name} may repeat positions")
        budget = _Budget(limits, progress=progress)
        solutions = [_negamax_solve(game, position, q, budget, max_line) for q in questions]
        budget.report(final=True)
        return solutions
    raise UnsupportedError(f"unknown method {method!r}: expected {', '.join(METHODS)}")


# -- retrograde analysis --------------------------------------------------------------------


@dataclass
class Graph:
    """The reachable graph in flat arrays: index i ↔ key, successors in CSR form.

    Independent of any question, so one graph answers every question about a position:
    `seat[i]` is the seat to move, `term[i]` the index into `terminals` of a terminal
    position's result object (-1 for positions where play goes on).
    """

    index: dict[Hashable, int]
    seat: bytearray
    term: array[int]
    succ_start: array[int]
    succ: array[int]
    terminals: list[Terminal]
    key_bytes: int
    nodes: int
    expanded: int = -1  # positions whose moves were generated; the rest (a limit was hit) are the frontier
    reason: str = ""  # the limit that stopped the exploration, "" when the graph is complete

    @property
    def complete(self) -> bool:
        return not self.reason

    @property
    def size(self) -> int:
        return len(self.seat)

    def nbytes(self) -> int:
        """Bytes held by the graph: the arrays, the key index and the keys themselves."""
        arrays = sum(a.buffer_info()[1] * a.itemsize for a in (self.term, self.succ_start, self.succ))
        return arrays + len(self.seat) + sys.getsizeof(self.index) + self.key_bytes

    def side(self, question: Question) -> bytearray:
        """1 where the maximizing side of `question` moves."""
        table = bytes(1 if s in question.maximizers else 0 for s in range(256))
        return self.seat.translate(table)


FRONTIER = -2  # `Graph.term` of a position discovered but not expanded when a limit stopped the search


def build_graph(game: Game[P, M], root: P, budget: _Budget, partial: bool = False) -> Graph:
    """Breadth-first exploration of every position reachable from `root`.

    With `partial`, a limit hit during exploration returns the graph built so far (its
    unexpanded positions marked FRONTIER, `reason` set) instead of raising."""
    index: dict[Hashable, int] = {}
    seat = bytearray()
    term = array("i")
    succ_start = array("q", [0])
    succ = array("i")
    terminals: list[Terminal] = []
    terminal_index: dict[Terminal, int] = {}
    key_bytes = 0
    key_of, legal, apply, terminal, to_move = game.key, game.legal_moves, game.apply, game.terminal, game.to_move
    sizeof = sys.getsizeof
    successors = getattr(game, "successors", None)

    index[key_of(root)] = 0
    budget.counts = lambda: (len(index), len(succ), 0)
    make_kernel = getattr(game, "kernel", None)
    try:
        if make_kernel is not None:
            kernel = make_kernel(root)
            _explore_kernel(deque([key_of(root)]), index, seat, term, succ_start, succ, terminals, terminal_index,
                            kernel.successors, kernel.terminal, kernel.to_move, budget)
        else:
            _explore(deque([root]), index, seat, term, succ_start, succ, terminals, terminal_index, key_of, legal,
                     apply, terminal, to_move, successors, budget)
    except _LimitHit as hit:
        if not partial:
            hit.positions, hit.nodes = len(index), len(succ)
            raise
        reason = hit.reason
        if len(succ_start) == len(term):  # stopped inside an expansion: that position joins the frontier
            del succ[succ_start[-1]:]
            term.pop()
            seat.pop()
    else:
        reason = ""
    expanded = len(term)
    for _ in range(len(index) - expanded):  # the frontier: discovered, never expanded
        term.append(FRONTIER)
        seat.append(0)
        succ_start.append(len(succ))
    key_bytes += sum(map(sizeof, index))
    return Graph(index, seat, term, succ_start, succ, terminals, key_bytes, len(succ), expanded, reason)


def _explore(frontier: deque[Any], index: dict[Hashable, int], seat: bytearray, term: array[int],
             succ_start: array[int], succ: array[int], terminals: list[Terminal], terminal_index: dict[Terminal, int],
             key_of: Callable[[Any], Hashable], legal: Callable[[Any], Sequence[Any]],
             apply: Callable[[Any, Any], Any], terminal: Callable[[Any], Terminal | None], to_move: Callable[[Any], int],
             successors: Callable[[Any], Sequence[tuple[Any, Any]]] | None, budget: _Budget) -> None:
    """The hot loop of `build_graph` (locals only)."""
    check = budget.check
    while frontier:
        position = frontier.popleft()
        result = terminal(position)
        if result is not None:
            slot = terminal_index.get(result)
            if slot is None:
                slot = terminal_index[result] = len(terminals)
                terminals.append(result)
            term.append(slot)
            seat.append(0)
            succ_start.append(len(succ))
            continue
        term.append(-1)
        seat.append(to_move(position))
        children = successors(position) if successors is not None else [(m, apply(position, m)) for m in legal(position)]
        for _, child in children:
            key = key_of(child)
            child_index = index.get(key)
            if child_index is None:
                child_index = len(index)
                index[key] = child_index
                frontier.append(child)
                check(child_index + 1)
            succ.append(child_index)
        succ_start.append(len(succ))


def _explore_kernel(frontier: deque[Any], index: dict[Hashable, int], seat: bytearray, term: array[int],
                    succ_start: array[int], succ: array[int], terminals: list[Terminal],
                    terminal_index: dict[Terminal, int], kernel_successors: Callable[[Any], Sequence[Any]],
                    kernel_terminal: Callable[[Any], Terminal | None], kernel_to_move: Callable[[Any], int],
                    budget: _Budget) -> None:
    """`_explore` over a game's packed kernel: positions are their own keys."""
    check = budget.check
    append = succ.append
    while frontier:
        key = frontier.popleft()
        result = kernel_terminal(key)
        if result is not None:
            slot = terminal_index.get(result)
            if slot is None:
                slot = terminal_index[result] = len(terminals)
                terminals.append(result)
            term.append(slot)
            seat.append(0)
            succ_start.append(len(succ))
            continue
        term.append(-1)
        seat.append(kernel_to_move(key))
        for child in kernel_successors(key):
            child_index = index.get(child)
            if child_index is None:
                child_index = len(index)
                index[child] = child_index
                frontier.append(child)
                check(child_index + 1)
            append(child_index)
        succ_start.append(len(succ))


def _predecessors(graph: Graph) -> tuple[array[int], array[int]]:
    """Reverse CSR: for each position the list of positions with an edge into it (numpy sort)."""
    n = graph.size
    succ = np.frombuffer(graph.succ, dtype=np.int32) if len(graph.succ) else np.zeros(0, dtype=np.int32)
    starts = np.frombuffer(graph.succ_start, dtype=np.int64)
    parents = np.repeat(np.arange(n, dtype=np.int32), np.diff(starts))
    order = np.argsort(succ, kind="stable")
    pred = array("i", parents[order].astype(np.int32).tobytes())
    counts = np.bincount(succ, minlength=n)
    pred_start = array("q", np.concatenate(([0], np.cumsum(counts))).astype(np.int64).tobytes())
    return pred_start, pred


def _attractor(
    graph: Graph, side: bytearray, pred_start: array[int], pred: array[int], goal: list[int], attracting_side: int,
    dist: array[int]
) -> bytearray:
    """Positions from which `attracting_side` (1 = max, 0 = min) can force reaching `goal`.

    Counter-based backward induction: a position of the attracting side joins as soon as one
    child has joined; one of the other side joins when its last child has. `dist` receives the
    number of moves to the goal under best play (attracting side hurries, the other delays) for
    positions not already given one (-1), so principal lines make progress.
    """
    n = graph.size
    succ_start = graph.succ_start
    inside = bytearray(n)
    counter = array("i", np.diff(np.frombuffer(succ_start, dtype=np.int64)).astype(np.int32).tobytes())
    local = array("i", bytes(4 * n))
    queue: deque[int] = deque()
    for g in goal:
        inside[g] = 1
        queue.append(g)
    while queue:
        node = queue.popleft()
        here = local[node] + 1
        for e in range(pred_start[node], pred_start[node + 1]):
            parent = pred[e]
            if inside[parent]:
                continue
            if side[parent] == attracting_side:
                inside[parent] = 1
                local[parent] = here
                queue.append(parent)
            else:
                counter[parent] -= 1
                if counter[parent] == 0:
                    inside[parent] = 1
                    local[parent] = here
                    queue.append(parent)
    return _merge_dist(inside, local, dist)


def _merge_dist(inside: bytearray, local: array[int], dist: array[int]) -> bytearray:
    for i in range(len(inside)):
        if inside[i] and dist[i] < 0:
            dist[i] = local[i]
    return inside


_Values: TypeAlias = "tuple[list[int], array[int], array[int]]"  # what retrograde_values returns


def retrograde_values(
    graph: Graph, question: Question, preds: tuple[array[int], array[int]] | None = None,
    frontier_value: int | None = None
) -> tuple[list[int], array[int], array[int]]:
    """Value of every position (as an index into the returned sorted value list) and its
    distance-to-resolution, by one attractor pass per threshold of the value range.

    For a threshold t above the draw value, the maximizing side reaches value ≥ t only by forcing
    a terminal ≥ t (max's attractor). For t at or below it, infinite play already gives ≥ t, so
    max gets ≥ t unless the minimizing side can force a terminal < t (min's attractor).

    On a partial graph the frontier positions count as terminals worth `frontier_value`: a very
    low value gives every position a lower bound of its true value, a very high one an upper bound.
    """
    n = graph.size
    draw_value = question.draw_value
    values = [question.value(t) for t in graph.terminals]
    extra = {frontier_value} if frontier_value is not None else set()
    levels = sorted(set(values) | {draw_value} | extra)
    term = graph.term
    side = graph.side(question)
    pred_start, pred = preds if preds is not None else _predecessors(graph)
    level_of = {v: k for k, v in enumerate(levels)}
    term_level = [level_of[v] for v in values]
    draw_level = level_of[draw_value]
    # result[i] = index into levels; start at the draw level and move up or down.
    result = array("i", [draw_level]) * n
    dist = array("i", [-1]) * n
    frontier_level = level_of[frontier_value] if frontier_value is not None else -1
    terminals = [i for i in range(n) if term[i] >= 0 or (term[i] == FRONTIER and frontier_value is not None)]
    level_at = {i: (term_level[term[i]] if term[i] >= 0 else frontier_level) for i in terminals}
    for i in terminals:
        dist[i] = 0
    # Above the draw: highest thresholds first, so a position's first attractor is its value's.
    for k in range(len(levels) - 1, draw_level, -1):
        goal = [i for i in terminals if level_at[i] >= k]
        inside = _attractor(graph, side, pred_start, pred, goal, 1, dist)
        for i in range(n):
            if inside[i] and result[i] == draw_level:
                result[i] = k
    # At or below the draw: min forces below level k; lowest first for the same reason.
    for k in range(1, draw_level + 1):
        goal = [i for i in terminals if level_at[i] < k]
        inside = _attractor(graph, side, pred_start, pred, goal, 0, dist)
        for i in range(n):
            if inside[i] and result[i] == draw_level:
                result[i] = k - 1
    for i in terminals:
        result[i] = level_at[i]
    return levels, result, dist


def _unknown(game: Game[P, M], root: P, question: Question, method: str, positions: int, nodes: int,
             seconds: float, reason: str, bytes_per_position: float = 0.0) -> Solution[P, M]:
    moves = tuple(MoveValue(m, None) for m in game.legal_moves(root)) if game.terminal(root) is None else ()
    return Solution(UNKNOWN, None, moves, (), "none", None, method, positions, nodes, nodes, seconds,
                    bytes_per_position, reason, question.draw_value, {"complete": False})


BOUND = 1 << 40  # stands for "anything" at the frontier of a partial graph


def _retrograde(
    game: Game[P, M], root: P, questions: Sequence[Question], limits: Limits, max_line: int,
    progress: Progress | None = None,
) -> list[Solution[P, M]]:
    """Build the graph once, then answer each question. When a limit stops the exploration, the
    partial graph still settles every position whose value does not depend on the frontier:
    values are computed twice, with the frontier worth the least and the greatest value a position
    can have (the question's `value_bounds`, else ∓BOUND), and where the two agree the value is
    exact (e.g. a win forced inside the explored part); elsewhere it is unknown, with the bounds
    reported."""
    budget = _Budget(limits, explore_share=0.6, progress=progress)
    try:
        return _retrograde_solve(game, root, questions, limits, max_line, budget)
    finally:
        budget.report(final=True)


def _retrograde_solve(game: Game[P, M], root: P, questions: Sequence[Question], limits: Limits, max_line: int,
                      budget: _Budget) -> list[Solution[P, M]]:
    graph = build_graph(game, root, budget, partial=True)
    build_seconds = budget.elapsed()
    budget.exploring = False
    index = graph.index
    n = graph.size
    solutions: list[Solution[P, M]] = []
    # the predecessor arrays take 8 bytes per position and 4 per move
    nbytes = graph.nbytes() + 8 * (n + 1) + 4 * len(graph.succ)
    try:
        budget.check_now()
        preds = _predecessors(graph)
    except _LimitHit as hit:
        return [_unknown(game, root, q, "retrograde", n, graph.nodes, budget.elapsed(), hit.reason, nbytes / n)
                for q in questions]
    extra_info = {"graph_seconds": round(build_seconds, 4), "complete": graph.complete, "expanded": graph.expanded}
    for question in questions:
        started = budget.elapsed()
        draw = question.draw_value
        try:
            budget.check_now()
            floor, ceiling = getattr(question, "value_bounds", None) or (-BOUND, BOUND)
            if graph.complete:
                low = high = retrograde_values(graph, question, preds)
            else:
                low = retrograde_values(graph, question, preds, floor)
                budget.check_now()
                high = retrograde_values(graph, question, preds, ceiling)
            budget.check_now()
        except _LimitHit as hit:
            solutions.append(_unknown(game, root, question, "retrograde", n, graph.nodes, budget.elapsed(), hit.reason,
                                      nbytes / n))
            continue

        def bounds(position: P, low: _Values = low, high: _Values = high) -> tuple[int, int, int, int]:
            i = index.get(game.key(position))
            if i is None:
                return -BOUND, BOUND, -1, -1
            return low[0][low[1][i]], high[0][high[1][i]], low[2][i], high[2][i]

        def value_of(position: P) -> tuple[int | None, int]:
            lo, hi, dist_lo, dist_hi = bounds(position)
            if lo != hi:
                return None, -1
            # a win for max was forced against the pessimistic frontier, a win for min against the optimistic one
            return lo, (dist_lo if lo > draw else dist_hi if lo < draw else dist_lo)

        root_lo, root_hi, _, _ = bounds(root)
        moves: list[MoveValue[M]] = []
        if game.terminal(root) is None:
            for move in game.legal_moves(root):
                moves.append(MoveValue(move, value_of(game.apply(root, move))[0]))
        seconds = build_seconds + budget.elapsed() - started
        info: dict[str, Any] = dict(extra_info)
        if root_lo != root_hi:
            info["bounds"] = {"at_least": None if root_lo <= floor else root_lo,
                              "at_most": None if root_hi >= ceiling else root_hi}
            solutions.append(Solution(UNKNOWN, None, tuple(moves), (), "none", None, "retrograde", n, graph.nodes,
                                      len(graph.succ), seconds, nbytes / n, graph.reason, draw, info))
            continue
        line, end, final = _principal_line(game, root, question, value_of, max_line)
        solutions.append(Solution(SOLVED, root_lo, tuple(moves), tuple(line), end, final, "retrograde", n,
                                  graph.nodes, len(graph.succ), seconds, nbytes / n, "", draw, info))
    return solutions


def _principal_line(game: Game[P, M], root: P, question: Question, value_of: Callable[[P], tuple[int | None, int]],
                    max_line: int) -> tuple[list[M], str, P]:
    """Both sides keep the value; the side that is winning relative to the draw hurries (least
    distance), the other delays. Ends at a terminal, at a repeated position (infinite play, only
    possible when the value is the draw value) or at `max_line` moves."""
    line: list[M] = []
    position = root
    seen = {game.key(root)}
    maximizers = question.maximizers
    draw = question.draw_value
    while len(line) < max_line:
        if game.terminal(position) is not None:
            return line, "terminal", position
        value, _ = value_of(position)
        is_max = game.to_move(position) in maximizers
        best = None
        for move in game.legal_moves(position):
            child = game.apply(position, move)
            child_value, child_dist = value_of(child)
            if child_value != value:
                continue
            if value == draw:  # no progress measure: take a terminal when one keeps the value
                score = 0 if child_dist == 0 else 1
            else:  # the side for whom the value beats the draw hurries; the other side delays
                # value is a solved position's (never None) all along the principal line
                score = child_dist if (value > draw) == is_max else -child_dist  # type: ignore[operator]
            if best is None or score < best[0]:
                best = (score, move, child)
        if best is None:  # cannot happen for a consistent game; keep the line honest
            return line, "none", position
        _, move, position = best
        line.append(move)
        key = game.key(position)
        if key in seen and value == draw:
            return line, "repetition", position
        seen.add(key)
    return line, "cut", position


# -- memoised minimax with alpha-beta (acyclic games) ---------------------------------------

_EXACT, _LOWER, _UPPER = 0, 1, 2


class _Negamax:
    def __init__(self, game: Game[Any, Any], question: Question, budget: _Budget) -> None:
        self.game = game
        self.question = question
        self.budget = budget
        self.table: dict[Hashable, tuple[int, int]] = {}
        self.nodes = 0

    def search(self, position: Any, alpha: int, beta: int) -> int:
        """Minimax value for the maximizing side, exact when inside (alpha, beta)."""
        game = self.game
        result = game.terminal(position)
        if result is not None:
            return self.question.value(result)
        key = game.key(position)
        entry = self.table.get(key)
        if entry is not None:
            value, kind = entry
            if kind == _EXACT:
                return value
            if kind == _LOWER and value >= beta:
                return value
            if kind == _UPPER and value <= alpha:
                return value
        self.budget.check(len(self.table))
        a0, b0 = alpha, beta
        is_max = game.to_move(position) in self.question.maximizers
        best = None
        for move in game.legal_moves(position):
            self.nodes += 1
            child_value = self.search(game.apply(position, move), alpha, beta)
            if is_max:
                if best is None or child_value > best:
                    best = child_value
                if best > alpha:
                    alpha = best
            else:
                if best is None or child_value < best:
                    best = child_value
                if best < beta:
                    beta = best
            if alpha >= beta:
                break
        assert best is not None, f"{game.name}: no legal move in a non-terminal position"
        if best <= a0:
            self.table[key] = (best, _UPPER)
        elif best >= b0:
            self.table[key] = (best, _LOWER)
        else:
            self.table[key] = (best, _EXACT)
        return best

    def exact(self, position: Any) -> int:
        return self.search(position, -(1 << 62), 1 << 62)


def _negamax_solve(game: Game[P, M], root: P, question: Question, budget: _Budget, max_line: int) -> Solution[P, M]:
    started = budget.elapsed()
    searcher = _Negamax(game, question, budget)
    old_limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(old_limit, 20_000))
    try:
        moves: list[MoveValue[M]] = []
        if game.terminal(root) is None:
            for move in game.legal_moves(root):
                moves.append(MoveValue(move, searcher.exact(game.apply(root, move))))
        value = searcher.exact(root)
        line: list[M] = []
        position = root
        end = "terminal"
        while game.terminal(position) is None:
            if len(line) >= max_line:
                end = "cut"
                break
            target = searcher.exact(position)
            for move in game.legal_moves(position):
                child = game.apply(position, move)
                if searcher.exact(child) == target:
                    line.append(move)
                    position = child
                    break
        budget.check_now()
    except (_LimitHit, RecursionError) as hit:
        # A line deeper than the recursion allowance is a limit like any other: unknown, not a crash.
        reason = hit.reason if isinstance(hit, _LimitHit) else "depth limit reached (search recursion)"
        moves = [MoveValue(m, None) for m in game.legal_moves(root)] if game.terminal(root) is None else []
        return Solution(UNKNOWN, None, tuple(moves), (), "none", None, "negamax", len(searcher.table),
                        searcher.nodes, 0, budget.elapsed() - started, 0.0, reason, question.draw_value)
    finally:
        sys.setrecursionlimit(old_limit)
    table = searcher.table
    n = max(1, len(table))
    nbytes = sys.getsizeof(table) + sum(sys.getsizeof(k) for k in table) + 64 * len(table)
    return Solution(SOLVED, value, tuple(moves), tuple(line), end, position, "negamax", len(table),
                    searcher.nodes, 0, budget.elapsed() - started, nbytes / n, "", question.draw_value)


def replay_line(game: Game[P, M], position: P, line: Sequence[M]) -> P:
    """Play `line` through the game's own rules (raises the game's error if a move is illegal)."""
    for move in line:
        if game.terminal(position) is not None:
            raise UnsupportedError(f"line continues after the game ended, at move {move!r}")
        position = game.apply(position, move)
    return position
