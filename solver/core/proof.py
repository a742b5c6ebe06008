"""Proof-number search (df-pn) for the questions whose values are few: win/loss/draw and coalitions.

A question with `value_bounds` (`WinLoss`, `Coalition`) is answered by threshold tests, each a
reachability game: "can the maximizing side force a terminal worth at least t?" (t above the
draw value) or "can the minimizing side force a terminal worth less than t?" (t at or below it).
Endless play reaches no terminal, so it is worth the draw value, as in the retrograde analysis.

Each test is a depth-first proof-number search (Nagai's df-pn with the 1+ε trick of Pawlewicz
and Lew, and weak proof numbers — the largest child's plus one per other open child — instead of
sums, which count shared positions over and over and overflow on deep graphs) over a
transposition table keyed by the game's packed key. Cycles are handled so that
every stored result is a fact about the position, whatever the path that led to it:

* a position repeated on the current path is, for the attacker, a failure (play that goes round
  in circles reaches no terminal) — never a success, so a repetition never proves anything;
* proofs are therefore always facts (a proof tree has terminals at every leaf) and are stored;
* a disproof that used a repetition of a position *above* the node (on the path that led to
  it) depends on that path: it is used by the ancestors during the current search only and never
  stored. A disproof whose repetitions all lie at or below the node is a fact (the search below
  the node is the game from the node itself) and is stored.

The position's own value is searched first (df-pn then spends its effort on the move that
proves it, rather than on every move alike); then the value of every legal move is found by
scheduling the tests of all moves round robin in growing slices, so a time limit leaves each
move proven, bounded or unknown rather than some moves untouched. Principal lines follow the
stored proofs (their depths strictly decrease, so the line ends at a terminal); a draw's line
keeps both sides on drawing moves until a position repeats.

The tests are independent searches, each with its own table, so where they are compiled they
run side by side on threads (`threads()`: $HALFMOON_THREADS, else every CPU the process may use):
each test gets the same slices as it would alone, so it searches the same, and the main thread
meanwhile checks the limits, reports progress, and stops a test once the others have settled
what it was searching for.
"""

from __future__ import annotations

import os
import sys
import threading
import time
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from dataclasses import dataclass
from typing import Any, Callable, Hashable, Sequence

from .solution import SOLVED, UNKNOWN, MoveValue, Progress, Solution, _Budget, _LimitHit
from .game import Game, Question
from ..errors import LimitError
from .verdicts import Limits

INF = 1 << 62  # far beyond any sum of proof numbers (sums saturating at a small bound stall the search)
_SHIFT = 64
_MASK = (1 << _SHIFT) - 1
_FREE = 1 << 30  # "no repetition above": a disproof that is a fact
EPSILON = 1.5  # the 1+ε trick: a child may run until its number passes the second best by 50 %


class _Pause(Exception):
    """A slice of work is used up; the search resumes later from the transposition table."""


# -- the game seen by the prover ---------------------------------------------------------------


class View:
    """A game as the prover walks it: nodes, their keys, children, movers, terminals.

    With a packed kernel (`Game.kernel`) nodes are the keys themselves; otherwise nodes are the
    game's positions and keys come from `Game.key`."""

    def __init__(self, game: Game[Any, Any], position: Any, questions: Sequence[Question] = ()) -> None:
        project = None
        reduce = getattr(game, "reduced", None)
        if reduce is not None:  # a smaller game that answers these questions the same (e.g. no scores kept)
            reduced = reduce(questions)
            if reduced is not None:
                game, project = reduced
                position = project(position)
        self.game = game
        make_kernel = getattr(game, "kernel", None)
        self.kernel = None
        if make_kernel is not None:
            kernel = make_kernel(position)
            self.kernel = kernel
            self.packed = True
            self.children = kernel.successors
            self.terminal = kernel.terminal
            self.to_move = kernel.to_move
            self.node_of = game.key if project is None else (lambda p: game.key(project(p)))
            self.key = None
            self.estimate = getattr(kernel, "estimate", None)
        else:
            self.packed = False
            successors = getattr(game, "successors", None)
            if successors is not None:
                self.children = lambda p: [c for _, c in successors(p)]
            else:
                self.children = lambda p: [game.apply(p, m) for m in game.legal_moves(p)]
            self.terminal = game.terminal
            self.to_move = game.to_move
            self.node_of = (lambda p: p) if project is None else project
            self.key = game.key
            self.estimate = getattr(game, "estimate", None)

    def key_of(self, node: Any) -> Hashable:
        return node if self.key is None else self.key(node)


@dataclass(frozen=True)
class Goal:
    """One threshold test: can `attacker` (the maximizing side if `for_max`) force a terminal
    whose value is ≥ `threshold` (for max) or < `threshold` (for min)?"""

    question: Question
    for_max: bool
    threshold: int

    def reached(self, terminal: Any) -> bool:
        value = self.question.value(terminal)
        return value >= self.threshold if self.for_max else value < self.threshold


NATIVE_CHUNK = 250_000  # expansions per call into a compiled prover (limits and progress between calls)
SAFETY_FROM = 1_000  # a compiled prover closes its explored region (draws) from this size on, then at each doubling
SAFETY_SHARE = 0.1  # ... while the positions those passes went through stay within this share of the expansions
PROGRESS_POLL = 0.05  # seconds between the main thread's checks while tests run side by side


class NativeProver:
    """A game's compiled df-pn behind the `Prover` interface: the same facts, found faster.

    The game's kernel offers ``native_prover(goal, max_bytes) -> (prover, to_key)``; `to_key`
    maps the view's nodes to the compiled prover's keys."""

    def __init__(self, native: Any, to_key: Callable[[Any], Any], goal: Goal, budget: _Budget,
                 counter: list[int]) -> None:
        self.native = native
        self.goal = goal
        self.to_key = to_key
        self.budget = budget
        self.counter = counter
        self.checked_at = 0  # table size at the last safety check
        self.safety_work = 0  # positions gone through by safety passes (each costs about an expansion)
        self.expansions = 0

    @property
    def size(self) -> int:
        return int(self.native.count)

    @property
    def peak(self) -> int:
        return int(self.native.peak)

    @property
    def made(self) -> int:
        return int(self.native.made)

    def nbytes(self) -> int:
        return int(self.native.nbytes)

    def fact(self, node: Any) -> bool | None:
        settled: bool | None = self.native.fact(self.to_key(node))
        return settled

    def depth(self, node: Any) -> int:
        return int(self.native.depth(self.to_key(node)))

    def purge(self) -> int:
        return int(self.native.purge())

    def run(self, node: Any) -> bool | None:
        """Search `node` until it is settled or the shared slice (`counter`) is used (`_Pause`);
        limits and progress are checked between chunks."""
        key = self.to_key(node)
        settled: bool | None = self.native.fact(key)
        if settled is not None:
            return settled
        counter = self.counter
        while True:
            allowed = min(counter[1] - counter[0], NATIVE_CHUNK)
            if allowed <= 0:
                raise _Pause
            status = self._chunk(key, allowed, self.budget.deadline())
            if status == DONE:
                settled = self.native.fact(key)
                return settled
            if status != PAUSED:
                raise _stop_for(status, self.budget)
            self.budget.check_now()  # paused at the chunk's end: limits and progress, then go on
            if self._safety(key, self.budget.deadline()):
                return False

    def advance(self, nodes: Sequence[Any], allowed: int, deadline: float | None) -> int:
        """Search each of `nodes` not yet settled for up to `allowed` expansions, as `run` would
        (the same chunks and safety passes, so the same search), but touching only this test's
        table and counts: it runs on a worker thread beside the other tests. Returns the last
        status (DONE when every node was settled or given its slice)."""
        status = DONE
        for node in nodes:
            key = self.to_key(node)
            if self.native.fact(key) is not None:
                continue
            done = 0
            while True:
                before = self.expansions
                status = self._chunk(key, min(allowed - done, NATIVE_CHUNK), deadline)
                done += self.expansions - before
                if status != PAUSED:
                    break
                if self._safety(key, deadline):
                    status = DONE
                    break
                if done >= allowed:
                    break
            if status not in (DONE, PAUSED):
                return status
        return status

    def _chunk(self, key: Any, allowed: int, deadline: float | None) -> int:
        seconds = 1e9 if deadline is None else max(0.0, deadline - time.perf_counter())
        status, used = self.native.run(key, allowed, seconds)
        with _COUNTING:
            self.counter[0] += used
        self.expansions += used
        return int(status)

    def _safety(self, key: Any, deadline: float | None) -> bool:
        """A safety pass when one is due; whether it settled the root (a disproof)."""
        size = self.size
        safety = getattr(self.native, "safety", None)
        if (safety is None or size < SAFETY_FROM or size < 2 * self.checked_at
                or self.safety_work + size > SAFETY_SHARE * self.expansions):
            return False
        # a pass costs work in proportion to the table and settles only endless play: a share of
        # the work keeps proofs of wins fast and still settles draws (counted in positions, not
        # seconds, so that a solve is the same on a busy machine)
        self.checked_at = size
        self.safety_work += size
        seconds = 1e9 if deadline is None else max(0.0, deadline - time.perf_counter())
        return bool(safety(key, seconds))


# what a compiled prover's run() returns (solver/core/_dfpn_step.pxi)
DONE, PAUSED, TIME, MEMORY, DEPTH, INTERRUPTED = 0, 1, 2, 3, 4, 5
_COUNTING = threading.Lock()  # the shared expansion counter, added to from worker threads


def _stop_for(status: int, budget: _Budget) -> BaseException:
    """The exception that ends a solve for a compiled prover's status."""
    if status == TIME:
        return _LimitHit(f"time limit {budget.limits.seconds:g} s reached")
    if status == MEMORY:
        return _LimitHit("memory limit reached (the compiled prover's table is full)")
    if status == DEPTH:
        return RecursionError("depth limit")
    return KeyboardInterrupt()


class Prover:
    """df-pn for one `Goal` over one `View`; its table outlives single searches (see the module)."""

    def __init__(self, view: View, goal: Goal, budget: _Budget, counter: list[int]) -> None:
        self.view = view
        self.goal = goal
        self.budget = budget
        self.counter = counter  # shared [expansions, slice end, positions stored, position limit] of a solve
        self.table: dict[Hashable, int] = {}  # key → -1-depth (proven), 0 (disproven), pn << 32 | dn
        self.path: dict[Hashable, int] = {}
        self.purged_from = 0  # the table's size before the largest purge
        self.purged = 0  # entries dropped by purges
        self.estimate = view.estimate  # the game's initial proof and disproof numbers

    def is_attacker(self, node: Any) -> bool:
        seat = self.view.to_move(node)
        in_max = seat in self.goal.question.maximizers
        return in_max if self.goal.for_max else not in_max

    # -- facts --------------------------------------------------------------------------------

    def fact(self, node: Any) -> bool | None:
        """True (proven), False (disproven) or None (not settled) for a node, terminals included."""
        key = self.view.key_of(node)
        entry = self.table.get(key)
        if entry is not None:
            if entry < 0:
                return True
            if entry == 0:
                return False
            return None
        result = self.view.terminal(node)
        if result is not None:
            reached = self.goal.reached(result)
            self.table[key] = -1 if reached else 0
            return reached
        return None

    def depth(self, node: Any) -> int:
        """Moves to the goal under the stored proof (the attacker hurries, the defender delays)."""
        entry = self.table[self.view.key_of(node)]
        assert entry < 0
        return -1 - entry

    # -- search -------------------------------------------------------------------------------

    def run(self, node: Any) -> bool | None:
        """Search from `node` until it is settled or the current slice ends (`_Pause`)."""
        settled = self.fact(node)
        if settled is not None:
            return settled
        self.path = {}
        self._mid(node, self.view.key_of(node), INF, INF, 0)
        return self.fact(node)

    def _mid(self, node: Any, key: Hashable, th_pn: int, th_dn: int, depth: int) -> tuple[int, int, int]:
        counter = self.counter
        counter[0] += 1
        if counter[0] >= counter[1]:
            raise _Pause
        if not counter[0] & 1023:
            self.budget.check_now()
        view = self.view
        table = self.table
        path = self.path
        kids = view.children(node)
        keyf = view.key
        ckeys = kids if keyf is None else [keyf(c) for c in kids]
        terminal = view.terminal
        reached = self.goal.reached
        n = len(kids)
        estimate = self.estimate
        maxside = self.goal.for_max
        maximizers = self.goal.question.maximizers
        pns = [1] * n
        dns = [1] * n
        loops = [_FREE] * n
        for i in range(n):
            ck = ckeys[i]
            e = table.get(ck)
            if e is None:
                if ck in path:
                    pns[i] = INF
                    dns[i] = 0
                    loops[i] = path[ck]
                    continue
                t = terminal(kids[i])
                if t is not None:
                    if reached(t):
                        table[ck] = -1
                        pns[i] = 0
                        dns[i] = INF
                    else:
                        table[ck] = 0
                        pns[i] = INF
                        dns[i] = 0
                elif estimate is not None:
                    pns[i], dns[i] = estimate(kids[i], maximizers, maxside)
            elif e < 0:
                pns[i] = 0
                dns[i] = INF
            elif e == 0:
                pns[i] = INF
                dns[i] = 0
            elif ck in path:
                pns[i] = INF
                dns[i] = 0
                loops[i] = path[ck]
            else:
                pns[i] = e >> _SHIFT
                dns[i] = e & _MASK
        is_or = self.is_attacker(node)
        path[key] = depth
        mid = self._mid
        while True:
            # weak numbers: a sum is the largest term plus one per other open child (plain sums
            # count shared descendants again and again and overflow any bound on deep graphs)
            if is_or:
                pn = second = INF
                top = live = 0
                best = 0
                for i in range(n):
                    p = pns[i]
                    d = dns[i]
                    if d:
                        live += 1
                        if d > top:
                            top = d
                    if p < pn:
                        second = pn
                        pn = p
                        best = i
                    elif p < second:
                        second = p
                dn = top + live - 1 if live else 0
                if dn > INF:
                    dn = INF
                if pn == 0 or dn == 0 or pn >= th_pn or dn >= th_dn:
                    break
                c_pn = int(second * EPSILON) + 1 if second < INF else INF
                if c_pn > th_pn:
                    c_pn = th_pn
                c_dn = th_dn - (live - 1) if th_dn < INF else INF  # the child reaching it becomes the largest
            else:
                dn = second = INF
                top = live = 0
                best = 0
                for i in range(n):
                    d = dns[i]
                    p = pns[i]
                    if p:
                        live += 1
                        if p > top:
                            top = p
                    if d < dn:
                        second = dn
                        dn = d
                        best = i
                    elif d < second:
                        second = d
                pn = top + live - 1 if live else 0
                if pn > INF:
                    pn = INF
                if pn == 0 or dn == 0 or pn >= th_pn or dn >= th_dn:
                    break
                c_dn = int(second * EPSILON) + 1 if second < INF else INF
                if c_dn > th_dn:
                    c_dn = th_dn
                c_pn = th_pn - (live - 1) if th_pn < INF else INF
            pns[best], dns[best], loops[best] = mid(kids[best], ckeys[best], c_pn, c_dn, depth + 1)
        del path[key]
        if key not in table:
            self._new_entry()
        if pn == 0:
            if is_or:
                d = min(-1 - table[ckeys[i]] for i in range(n) if pns[i] == 0)
            else:
                d = max(-1 - table[ckeys[i]] for i in range(n))
            table[key] = -2 - d
            return 0, INF, _FREE
        if dn == 0:
            if is_or:
                loop = min(loops)
            else:
                loop = max(loops[i] for i in range(n) if dns[i] == 0)
            if loop >= depth:
                table[key] = 0
                return INF, 0, _FREE
            return INF, 0, loop  # depends on the path above: used, not stored
        table[key] = pn << _SHIFT | dn
        return pn, dn, _FREE

    def _new_entry(self) -> None:
        counter = self.counter
        counter[2] += 1
        if counter[2] > counter[3]:
            raise _LimitHit(f"position limit {counter[3]} reached")

    @property
    def size(self) -> int:
        return len(self.table)

    @property
    def peak(self) -> int:
        """The most positions the table has held at once (a purge drops some)."""
        return max(self.purged_from, len(self.table))

    @property
    def made(self) -> int:
        """Positions stored over the table's life, purged ones included."""
        return self.purged + len(self.table)

    def nbytes(self) -> int:
        """Bytes held by the table: dict slots plus key and value objects (sampled)."""
        table = self.table
        n = len(table)
        if not n:
            return 0
        sample = count = 0
        for k, v in table.items():
            sample += sys.getsizeof(k) + (sys.getsizeof(v) if not -5 <= v <= 256 else 0)
            count += 1
            if count >= 256:
                break
        return sys.getsizeof(table) + sample * n // count

    def purge(self) -> int:
        """Forget the search numbers of unsettled positions (keep every fact); entries dropped."""
        table = self.table
        before = len(table)
        self.purged_from = max(self.purged_from, before)
        self.table = {k: e for k, e in table.items() if e <= 0}
        dropped = before - len(self.table)
        self.purged += dropped
        return dropped


# -- answering questions ----------------------------------------------------------------------


THREADS_VARIABLE = "HALFMOON_THREADS"


def threads() -> int:
    """Threads for the compiled tests of a solve: $HALFMOON_THREADS, else the CPUs this process
    may use. The tests of a question are independent searches, so two cores answer about twice
    as fast; each test's search is the same whatever the number of threads."""
    text = os.environ.get(THREADS_VARIABLE, "").strip()
    if text:
        if not text.isdigit() or int(text) < 1:
            raise LimitError(f"{THREADS_VARIABLE}={text!r}: expected a whole number of threads, at least 1")
        return int(text)
    affinity = getattr(os, "sched_getaffinity", None)
    return len(affinity(0)) if affinity is not None else (os.cpu_count() or 1)


def provable(question: Question) -> bool:
    """Whether the prover answers `question`: values bounded and few (win/loss, coalitions)."""
    bounds = getattr(question, "value_bounds", None)
    return bounds is not None and bounds[1] - bounds[0] <= 4


class _Question:
    """The threshold tests of one question and what is known of each node's value."""

    def __init__(self, question: Question, view: View, budget: _Budget, counter: list[int],
                 table_bytes: int) -> None:
        self.question = question
        low, high = getattr(question, "value_bounds")  # present: see provable()
        self.low, self.high = low, high
        draw = question.draw_value
        self.provers: dict[int, Any] = {}
        native = getattr(view.kernel, "native_prover", None)
        for t in range(low + 1, high + 1):  # "value ≥ t?"
            goal = Goal(question, True, t) if t > draw else Goal(question, False, t)
            made = native(goal, table_bytes) if native is not None else None
            if made is not None:
                self.provers[t] = NativeProver(made[0], made[1], goal, budget, counter)
            else:
                self.provers[t] = Prover(view, goal, budget, counter)

    def holds(self, t: int, node: Any) -> bool | None:
        """Is the value ≥ t? True, False or None (unknown)."""
        prover = self.provers[t]
        fact = prover.fact(node)
        if fact is None:
            return None
        return fact if prover.goal.for_max else not fact

    def bounds(self, node: Any) -> tuple[int, int]:
        """(at least, at most) from the facts known now."""
        lo, hi = self.low, self.high
        for t in range(self.low + 1, self.high + 1):
            known = self.holds(t, node)
            if known is True:
                lo = max(lo, t)
            elif known is False:
                hi = min(hi, t - 1)
        return lo, hi

    def open_tests(self, node: Any) -> list[int]:
        """Thresholds still worth testing (the value is between the bounds)."""
        lo, hi = self.bounds(node)
        return [t for t in range(lo + 1, hi + 1) if self.holds(t, node) is None]

    def table_entries(self) -> int:
        return sum(p.size for p in self.provers.values())


def _table_bytes_each(limits: Limits, tests: int) -> int:
    """The memory each compiled test's table may grow to: together two thirds of the memory
    limit (a third each when there are fewer than two tests). A table grows by doubling, so
    while the last one grows the old and the new copy both exist: at most half a table more."""
    memory = limits.memory_bytes if limits.memory_bytes is not None else 2 << 30
    return 2 * memory // (3 * max(2, tests))


def _table_bytes(questions: Sequence[_Question]) -> int:
    """Bytes held by the tables of every test."""
    return sum(p.nbytes() for q in questions for p in q.provers.values())


def solve_proof(
    game: Game[Any, Any],
    position: Any,
    questions: Sequence[Question],
    limits: Limits,
    max_line: int = 400,
    progress: Progress | None = None,
) -> list[Solution[Any, Any]]:
    """Every question about `position` by df-pn (see the module docstring); `unknown` at a limit."""
    budget = _Budget(limits, progress=progress)
    view = View(game, position, questions)
    counter = [0, 0, 0, limits.nodes if limits.nodes is not None else 1 << 62]
    tests = sum(high - low for low, high in (getattr(q, "value_bounds") for q in questions))
    qs = [_Question(q, view, budget, counter, _table_bytes_each(limits, tests)) for q in questions]

    def positions() -> int:
        return sum(q.table_entries() for q in qs)

    def made() -> int:
        return sum(p.made for q in qs for p in q.provers.values())

    budget.counts = lambda: (positions(), counter[0], 0)
    root = view.node_of(position)
    root_terminal = game.terminal(position)
    moves = list(game.legal_moves(position)) if root_terminal is None else []
    children = [view.node_of(game.apply(position, m)) for m in moves]
    reason = ""
    compiled = sum(isinstance(p, NativeProver) for q in qs for p in q.provers.values())
    workers = min(threads(), compiled)
    pool = ThreadPoolExecutor(workers, thread_name_prefix="df-pn") if workers > 1 else None
    old_limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(old_limit, 30_000))
    try:  # the position's value first (df-pn picks the move to prove it by), then every move's
        reason = _schedule(qs, [root], budget, counter, limits, made, pool)
        value_seconds = budget.elapsed()
        if not reason and moves:
            reason = _schedule(qs, children, budget, counter, limits, made, pool)
    finally:
        sys.setrecursionlimit(old_limit)
        if pool is not None:
            pool.shutdown()
    budget.report(final=True)
    seconds = budget.elapsed()
    # positions held at the most: where entries were dropped at the memory budget, the tables
    # are sized for the peak, and the positions now held would overstate the bytes a position
    n = max(1, sum(p.peak for q in qs for p in q.provers.values()))
    bytes_per_position = _table_bytes(qs) / n
    solutions: list[Solution[Any, Any]] = []
    for q in qs:
        question = q.question
        is_max = root_terminal is None and game.to_move(position) in question.maximizers
        values = []
        for child in (children if moves else [root]):
            lo, hi = q.bounds(child)
            values.append(lo if lo == hi else None)
        if root_terminal is not None:
            lo = hi = question.value(root_terminal)
            move_values: tuple[MoveValue[Any], ...] = ()
        else:
            move_values = tuple(MoveValue(m, v) for m, v in zip(moves, values))
            child_bounds = [q.bounds(c) for c in children]
            pick = max if is_max else min
            root_lo, root_hi = q.bounds(root)
            lo = max(root_lo, pick(b[0] for b in child_bounds))
            hi = min(root_hi, pick(b[1] for b in child_bounds))
        info: dict[str, Any] = {"complete": None, "tests": {str(t): p.size for t, p in q.provers.items()},
                                "native": any(isinstance(p, NativeProver) for p in q.provers.values())}
        if q.bounds(root)[0] == q.bounds(root)[1]:
            info["value_seconds"] = value_seconds  # the position's value was known then (its moves after)
        if lo != hi:
            info["bounds"] = {"at_least": None if lo <= q.low else lo, "at_most": None if hi >= q.high else hi}
            solutions.append(Solution(UNKNOWN, None, move_values, (), "none", None, "proof", n, counter[0], 0,
                                      seconds, bytes_per_position, reason or "not settled", question.draw_value,
                                      info))
            continue
        line, end, final = _line(game, position, view, q, lo, max_line, budget, counter)
        solutions.append(Solution(SOLVED, lo, move_values, tuple(line), end, final, "proof", n, counter[0], 0,
                                  budget.elapsed(), bytes_per_position, "", question.draw_value, info))
    for q in qs:  # free the tables now: the budget's counter closure makes a cycle the collector
        q.provers.clear()  # would free only later, and compiled tables are big but invisible to it
    return solutions


def _schedule(qs: Sequence[_Question], nodes: Sequence[Any], budget: _Budget, counter: list[int],
              limits: Limits, made: Callable[[], int], pool: ThreadPoolExecutor | None = None) -> str:
    """Run every open test of every node round robin, in slices that double; '' or the limit hit.
    With a pool, the compiled tests of a round run side by side on its threads (each on its own
    nodes in the round's order, so each test searches as it would alone), the others after."""
    slice_size = 2_000
    try:
        budget.check_now()
    except _LimitHit as hit:
        return hit.reason
    while True:
        tasks = [(q, node, t) for q in qs for node in nodes for t in _useful(q, node)]
        if not tasks:
            return ""
        if pool is not None:
            compiled = [task for task in tasks if isinstance(task[0].provers[task[2]], NativeProver)]
            if len({id(q.provers[t]) for q, _, t in compiled}) > 1:
                try:
                    _side_by_side(compiled, slice_size, budget, limits, made, pool)
                except _LimitHit as hit:
                    return hit.reason
                except RecursionError:
                    return "depth limit reached (search recursion)"
                _purge_if_tight(qs, budget)
                tasks = [task for task in tasks if not isinstance(task[0].provers[task[2]], NativeProver)]
        for q, node, t in tasks:
            if q.holds(t, node) is not None:
                continue
            counter[1] = counter[0] + slice_size
            try:
                q.provers[t].run(node)
            except _Pause:
                pass
            except _LimitHit as hit:
                return hit.reason
            except RecursionError:
                return "depth limit reached (search recursion)"
            try:
                _check(budget, limits, made)
            except _LimitHit as hit:
                return hit.reason
            _purge_if_tight(qs, budget)
        slice_size *= 2


def _check(budget: _Budget, limits: Limits, made: Callable[[], int]) -> None:
    """Limits and progress between slices (`_LimitHit` when one is reached)."""
    budget.check_now()
    # positions stored, dropped ones included: a table capped by memory keeps dropping and
    # would never reach the limit otherwise
    if limits.nodes is not None and made() > limits.nodes:
        raise _LimitHit(f"position limit {limits.nodes} reached")


def _purge_if_tight(qs: Sequence[_Question], budget: _Budget) -> None:
    if budget.memory_tight():
        for q in qs:
            for prover in q.provers.values():
                prover.purge()


def _side_by_side(tasks: Sequence[tuple[_Question, Any, int]], slice_size: int, budget: _Budget,
                  limits: Limits, made: Callable[[], int], pool: ThreadPoolExecutor) -> None:
    """One round of compiled tests on the pool's threads, `slice_size` expansions for each of a
    test's nodes; raises `_LimitHit` (or RecursionError) at a limit. The main thread meanwhile
    checks the limits, reports progress and stops a test once the other tests' answers settle
    all its nodes. No table is read while its test runs (a table moves when it grows)."""
    work: dict[int, tuple[NativeProver, int, list[tuple[_Question, Any]]]] = {}
    for q, node, t in tasks:
        prover = q.provers[t]
        assert isinstance(prover, NativeProver)
        work.setdefault(id(prover), (prover, t, []))[2].append((q, node))
    deadline = budget.deadline()
    running: dict[Future[int], tuple[NativeProver, int, list[tuple[_Question, Any]]]] = {
        pool.submit(prover.advance, [node for _, node in items], slice_size, deadline): (prover, t, items)
        for prover, t, items in work.values()}
    busy = {id(prover) for prover, _, _ in running.values()}
    stopped: set[int] = set()  # tests stopped because their nodes were settled by the others
    pending: set[Future[int]] = set(running)
    try:
        while pending:
            finished, pending = wait(pending, timeout=PROGRESS_POLL, return_when=FIRST_COMPLETED)
            for future in finished:
                prover = running[future][0]
                busy.discard(id(prover))
                status = future.result()
                if status == INTERRUPTED and id(prover) in stopped:
                    continue
                if status not in (DONE, PAUSED):
                    raise _stop_for(status, budget)
            for future in pending:
                prover, t, items = running[future]
                if id(prover) not in stopped and all(not _open(q, node, t, busy) for q, node in items):
                    stopped.add(id(prover))
                    prover.native.cancel = True
            _check(budget, limits, made)
    except BaseException:
        for prover, _, _ in running.values():
            prover.native.cancel = True
        wait(pending)
        raise
    finally:
        for prover, _, _ in running.values():
            prover.native.cancel = False


def _open(q: _Question, node: Any, t: int, busy: set[int]) -> bool:
    """Whether test `t` may still change what is known of `node`, from the tables of the tests
    that are not running (`busy` holds the running provers' ids)."""
    lo, hi = q.low, q.high
    for u, prover in q.provers.items():
        if id(prover) in busy:
            continue
        known = q.holds(u, node)
        if known is True:
            lo = max(lo, u)
        elif known is False:
            hi = min(hi, u - 1)
    return bool(lo < t <= hi)


def _useful(q: _Question, node: Any) -> list[int]:
    """The tests worth running for a root move (a settled value ends them), nearest the draw first."""
    tests = q.open_tests(node)
    if len(tests) <= 1:
        return tests
    # test the thresholds nearest the draw value first: they settle draws and wins/losses alike
    draw = q.question.draw_value
    return sorted(tests, key=lambda t: abs(t - draw - 0.5))


# -- principal lines ------------------------------------------------------------------------


LINE_SLICE = 20_000  # expansions a principal line may spend on settling one move's value


def _settle(q: _Question, node: Any, budget: _Budget, counter: list[int]) -> tuple[int, int]:
    """Bounds of a node's value after a short search of its open tests (the line's budget)."""
    for t in q.open_tests(node):
        counter[1] = counter[0] + LINE_SLICE
        try:
            q.provers[t].run(node)
        except _Pause:
            pass
        lo, hi = q.bounds(node)
        if lo == hi:
            break
    return q.bounds(node)


def _line(game: Game[Any, Any], position: Any, view: View, q: _Question, value: int, max_line: int,
          budget: _Budget, counter: list[int]) -> tuple[list[Any], str, Any]:
    """The principal line of a settled value: along a proof the side that forces the value
    hurries (least proof depth) and the other delays (greatest); a draw keeps both sides on
    moves worth the draw until a position repeats. Stops at `max_line` moves ("cut") or when a
    limit leaves a move unsettled ("cut" as well)."""
    question = q.question
    draw = question.draw_value
    line: list[Any] = []
    seen = {view.key_of(view.node_of(position))}
    here = position
    if value != draw:
        t = value if value > draw else value + 1
        prover = q.provers[t]
        forcing_max = value > draw
    while len(line) < max_line:
        if game.terminal(here) is not None:
            return line, "terminal", here
        is_max = game.to_move(here) in question.maximizers
        best = None
        try:
            for move in game.legal_moves(here):
                child = game.apply(here, move)
                node = view.node_of(child)
                if value != draw:
                    if prover.fact(node) is not True:  # off the proof (every move of a defender is on it)
                        continue
                    d = prover.depth(node)
                    hurry = is_max == forcing_max
                    score = d if hurry else -d
                else:
                    lo, hi = q.bounds(node)
                    if lo != hi:
                        lo, hi = _settle(q, node, budget, counter)
                    if lo != value or hi != value:
                        continue
                    key = view.key_of(node)
                    score = 0 if key in seen else (1 if game.terminal(child) is not None else 2)
                if best is None or score < best[0]:
                    best = (score, move, child)
        except (_LimitHit, RecursionError):
            return line, "cut", here
        if best is None:
            return line, "cut", here
        _, move, here = best
        line.append(move)
        key = view.key_of(view.node_of(here))
        if value == draw and key in seen:
            return line, "repetition", here
        seen.add(key)
    return line, "cut", here
