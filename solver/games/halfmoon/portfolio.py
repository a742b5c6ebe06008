"""Half Moon exact solving, behind the facade (`halfmoon.solve`) and the catalogue's record.

`solve` decides a position with the search (`search` and `kernel` here, on the core
DFS), with CP-SAT (`cpsat`), or with the `auto` portfolio of both. The
search runs in two directions, on the deal as dealt and on the deal with every pile
reversed (`reverse_position`: a deal and its reversal are won by the same lines read
backwards), in alternating steps with growing node budgets; `auto` also lets each search
hand expensive subtrees to CP-SAT (the oracle) and runs CP-SAT on the whole deal between
steps. The methods fail on different deals; together they decide every deal tried so far.

Portfolio steps are bounded by node counts and CP-SAT deterministic time, never by the
clock, so a decided verdict and its line are the same on every machine; the wall-clock
`time_limit` only decides when to give up (`unknown`). Every `winnable` verdict carries a
line replayed through the rules before it is returned.
"""

from __future__ import annotations

import gc
import time
from contextlib import contextmanager
from functools import lru_cache
from typing import Any, Callable, Iterable, Iterator

from halfmoon.solver.core.solitaire import RefutedSet, solve_solitaire
from halfmoon.solver.core.verdicts import (
    DEFAULT_TT_BYTES,
    Deadline,
    Limits,
    SearchResult,
    Verdict,
)
from halfmoon.solver.errors import PositionError, SolverBug, UnsupportedError
from halfmoon.solver.games.halfmoon import kernel
from halfmoon.solver.games.halfmoon.rules import Move, Place, Position, replay, replay_wins
from halfmoon.solver.games.halfmoon.search import (
    MEMO_CAP,
    HalfMoonSearch,
    abstract_line,
    concretize,
    concretize_from,
)

#: Bump whenever verdict logic or the returned lines can change (the results store keys on it).
#: hm-solver-4: CP-SAT joins `auto` later (CPSAT_AFTER_NODES), so a few hard deals get the
#: search's line instead of CP-SAT's; the engines (native, python) give the same answers.
#: hm-solver-5: CP-SAT's share of `auto` grows with the search's (it fell behind on the rare
#: deals neither decides in seconds; 81 of HM1 0-999 999 stayed unknown at 10 s).
SOLVER_VERSION = "hm-solver-5"

#: Default wall-clock limit per deal, in seconds. Typical deals take a fraction of a millisecond
#: on the native engine; the hardest of HM1 0-999 take about 10 s of CPU on the Python engine,
#: and a shared machine can stretch that.
DEFAULT_TIME_LIMIT = 120.0
METHODS = ("auto", "search", "cpsat")


#: Whether `auto` lets a search hand expensive subtrees to CP-SAT (the oracle). It paid
#: before the search ran in both directions; since then it costs more than it saves
#: (HM1 deals 0-199: total CPU 36 s with it, 23 s without), so it is off by default.
USE_ORACLE = False
#: With the oracle on, a search hands a subtree to CP-SAT once it has cost this many nodes ...
ORACLE_AFTER = 5000
#: ... with this much CP-SAT deterministic time per call.
ORACLE_DETERMINISTIC = 0.02


def reverse_position(position: Position) -> Position:
    """The same deal with every pile turned upside down (the reserve unchanged).

    A line wins a position iff the same moves in reverse order win the reversed position:
    a winning line is exactly an order of groups in which every pile is emptied from the
    top down, and reading the order backwards empties every reversed pile from its top
    down; reserve cards have no order to keep. The two directions are very differently
    hard for the search (a deal that is deep trouble forwards is often quick backwards),
    so the portfolio searches both.
    """
    return Position(tuple(tuple(reversed(pile)) for pile in position.piles), position.reserve)


#: Search steps: each direction's runs get these node budgets in turn (a restart each);
#: the first is the cheap dive, then they grow by SEARCH_GROWTH.
SEARCH_FIRST = (150, 400)
SEARCH_GROWTH = 2.5
#: `auto` runs CP-SAT on the whole position once the runs reach this size, then after every
#: round of runs, with as much deterministic time as that round's search nodes are worth at
#: NOMINAL_NODES_PER_SECOND (so on the native engine the two methods share the clock about
#: evenly, and both budgets grow by SEARCH_GROWTH a round), never less than the last step's
#: times CPSAT_GROWTH. Every deal of HM1 0-999 is decided by the search before CP-SAT joins.
#: The schedule does not depend on the engine, so both give the same answers (the Python
#: engine, 30 times slower a node, gives CP-SAT a smaller share of the clock).
CPSAT_AFTER_NODES = 100_000
CPSAT_FIRST, CPSAT_GROWTH = 0.05, 2.0
NOMINAL_NODES_PER_SECOND = 2_000_000


def _steps(method: str) -> Iterable[tuple[str, float]]:
    """The portfolio as an endless list of steps with machine-independent budgets.

    ("forward" | "reversed", nodes) runs one more restart of that direction's search;
    ("cpsat", deterministic time) runs CP-SAT on the whole position. Budgets grow
    geometrically, so every method is complete given time, and the simple deals (most
    of them) are decided in the first steps.
    """
    if method == "cpsat":
        yield ("cpsat", float("inf"))
        return
    budgets = list(SEARCH_FIRST)
    det = CPSAT_FIRST / CPSAT_GROWTH
    nodes = 0
    while True:
        nodes = budgets.pop(0) if budgets else int(nodes * SEARCH_GROWTH)
        yield ("forward", nodes)
        yield ("reversed", nodes)
        if method == "auto" and nodes >= CPSAT_AFTER_NODES:
            det = max(det * CPSAT_GROWTH, 2 * nodes / NOMINAL_NODES_PER_SECOND)
            yield ("cpsat", det)


def _check_method(method: str) -> str:
    if method not in METHODS:
        raise UnsupportedError(f"unknown method {method!r}: expected one of {', '.join(METHODS)}")
    return method


def verify_line(position: Position, moves: Iterable[Move]) -> tuple[Move, ...]:
    """Replay `moves` through the rules; raise SolverBug unless they win."""
    line = tuple(moves)
    if replay_wins(position, line):
        return line
    try:
        end = replay(position, list(line)).position  # the slow replay names what is wrong
    except ValueError as error:
        raise SolverBug(f"solver line does not replay: {error}") from None
    if not end.is_won:
        raise SolverBug(f"solver line leaves {end.cards_left} cards")
    return line


@lru_cache(maxsize=64)
def _move_maker(npiles: int) -> Callable[[tuple[int, ...]], Move]:
    """Place codes (pile i -> i, reserve slot j -> npiles + j) to `Move` values, memoised:
    a deal has a few hundred distinct moves and a line names 48."""
    places: dict[int, Place] = {}

    @lru_cache(maxsize=4096)
    def move(codes: tuple[int, ...]) -> Move:
        return Move(tuple(places.get(code) or places.setdefault(
            code, Place(False, code) if code < npiles else Place(True, code - npiles)) for code in codes))

    return move


class _Direction:
    """One direction's search (the position as dealt, or reversed), resumable in steps.

    Refutations, restarts and oracle questions carry over from one step to the next.
    """

    def __init__(self, position: Position, reversed_: bool, seed: int, tt_bytes: int, oracle: bool,
                 portfolio: "_Portfolio") -> None:
        self.dealt = position
        self.reversed = reversed_
        self.name = "reversed" if reversed_ else "forward"
        self.seed = seed
        self.tt_bytes = tt_bytes
        self.runs = 0
        self.asked: dict = {}
        self.use_oracle = oracle
        self.portfolio = portfolio
        self.nodes = 0
        self.engine = portfolio.engine
        capacity = Limits(memory_bytes=tt_bytes).tt_entries
        if self.engine == "native":
            # The kernel's own state and refuted set (the same capacity in entries); it reads
            # the cards as dealt and turns the piles over itself.
            try:
                self.native = kernel.new_search(position.piles, position.reserve, capacity, MEMO_CAP, reversed_)
            except ValueError as error:
                if isinstance(error, kernel.unsupported_error()):
                    raise
                raise PositionError(str(error)) from None
        else:
            self.position = reverse_position(position) if reversed_ else position
            self.table = RefutedSet(capacity)
            self.state = HalfMoonSearch(self.position)

    def oracle(self, prefix: Any, level: int) -> tuple[Any, ...] | bool | None:
        """CP-SAT on the position a search line reaches (see `solve_solitaire`'s oracle).

        Asked again about a node whose subtree keeps growing, it spends twice as much.
        """
        if not prefix:
            return None  # the whole position: the portfolio's own CP-SAT steps cover it
        from .cpsat import solve_cpsat  # OR-tools loads only when CP-SAT is asked

        _, reached = concretize_from(self.position, prefix)
        result = solve_cpsat(reached, time_limit=self.portfolio.deadline.remaining(),
                             deterministic_limit=ORACLE_DETERMINISTIC * 2**level, seed=self.seed,
                             conflict_limit=self.portfolio.left())
        self.portfolio.nodes += result.branches
        self.portfolio.stats["oracle_calls"] += 1
        if result.verdict is Verdict.UNWINNABLE:
            return False
        if result.verdict is Verdict.WINNABLE and result.moves is not None:
            return tuple(abstract_line(reached, result.moves))
        return None

    def step(self, budget: int) -> tuple[Verdict, tuple[Move, ...] | None, str] | None:
        """Search `budget` more nodes; a decided verdict with a line for the dealt position."""
        started = time.perf_counter()
        remaining = self.portfolio.deadline.remaining()
        seconds = None if remaining is None else max(remaining, 1e-3)
        if self.engine == "native":
            result = self._native_step(budget, seconds)
        else:
            result = solve_solitaire(
                self.state,
                Limits(seconds=seconds, nodes=budget, memory_bytes=self.tt_bytes),
                budgets=(budget,),
                seed=self.seed,
                refuted=self.table,
                unsalted_runs=2,
                oracle=self.oracle if self.use_oracle else None,
                oracle_after=ORACLE_AFTER,
                oracle_asked=self.asked,
                first_run=self.runs,
            )
        self.runs = result.stats["runs"]
        self.nodes += result.nodes
        self.portfolio.nodes += result.nodes
        self.portfolio.search_nodes += result.nodes
        self.portfolio.stats["phases"].append({
            "method": "search", "direction": self.name, "nodes": result.nodes, "verdict": result.verdict.value,
            "seconds": round(time.perf_counter() - started, 6)})
        if result.verdict is Verdict.UNKNOWN:
            return None
        method = "cpsat" if result.stats["oracle"]["decided"] else "search"
        if result.verdict is Verdict.UNWINNABLE:
            return Verdict.UNWINNABLE, None, method
        if self.engine == "native":
            moves = self._native_moves(result.line or ())
        else:
            moves = concretize(self.position, result.line or ())
        if self.reversed:
            moves = tuple(reversed(moves))
        return Verdict.WINNABLE, moves, method

    def _native_moves(self, line: tuple) -> tuple[Move, ...]:
        """The kernel's concretization (the same choices as `concretize`) as rules-level moves."""
        try:
            codes = self.native.concretize(line)
        except (KeyboardInterrupt, MemoryError):
            raise
        except Exception as error:
            raise SolverBug(f"native Half Moon search: its line does not concretize on {self.dealt}: "
                            f"{type(error).__name__}: {error}") from error
        return tuple(map(_move_maker(len(self.dealt.piles)), codes))

    def _native_step(self, budget: int, seconds: float | None) -> SearchResult:
        """The same run as `solve_solitaire` above, in the kernel (no oracle there)."""
        try:
            code, line, nodes, stopped = self.native.step(budget, seconds, self.seed)
        except (KeyboardInterrupt, MemoryError):
            raise
        except Exception as error:  # a kernel bug is an internal error, never a verdict
            raise SolverBug(f"native Half Moon search failed on {self.dealt}: {type(error).__name__}: "
                            f"{error}") from error
        stats = {"runs": self.native.runs, "refuted": self.native.refuted_count, "oracle": {"decided": False}}
        if code < 0:
            return SearchResult(Verdict.UNKNOWN, None, nodes, 0.0, stopped, stats=stats)
        verdict = Verdict.WINNABLE if code == 1 else Verdict.UNWINNABLE
        return SearchResult(verdict, line, nodes, 0.0, None, stats=stats)


class _Portfolio:
    """Runs the steps of one solve under the deadline and the node limit."""

    def __init__(self, position: Position, deadline: Deadline, node_limit: int | None, seed: int,
                 tt_bytes: int, oracle: bool, engine: str = "python") -> None:
        self.position = position
        self.engine = engine
        self.deadline = deadline
        self.node_limit = node_limit
        self.seed = seed
        self.nodes = 0
        self.search_nodes = 0
        self.stats: dict[str, Any] = {"phases": [], "oracle_calls": 0}
        self.tt_bytes = tt_bytes
        self.use_oracle = oracle
        self.directions: dict[str, _Direction] = {}

    def direction(self, name: str) -> _Direction:
        """A direction's search, built on first use (both share the memory cap)."""
        found = self.directions.get(name)
        if found is None:
            try:
                found = _Direction(self.position, name == "reversed", self.seed, self.tt_bytes // 2,
                                   self.use_oracle, self)
            except kernel.unsupported_error() as error:
                # A layout the kernel cannot pack (e.g. more than 64 piles): the Python search.
                if self.directions:
                    raise SolverBug(f"native Half Moon search: {error}") from error
                self.engine = self.stats["engine"] = "python"
                self.stats["engine_note"] = str(error)
                found = _Direction(self.position, name == "reversed", self.seed, self.tt_bytes // 2,
                                   self.use_oracle, self)
            self.directions[name] = found
        return found

    def left(self) -> int | None:
        """Nodes left under the node limit: search nodes and CP-SAT branches both count."""
        return None if self.node_limit is None else self.node_limit - self.nodes

    def run(self, method: str) -> SearchResult[Move] | None:
        for kind, budget in _steps(method):
            left = self.left()
            if self.deadline.expired() or (left is not None and left <= 0):
                return None  # the node limit stops the whole portfolio, CP-SAT steps included
            if kind == "cpsat":
                decided = self.cpsat(None if budget == float("inf") else budget)
            else:
                nodes = int(budget) if left is None else min(int(budget), left)
                decided = self.direction(kind).step(nodes)
                if decided is not None:
                    self.stats["direction"] = kind
            if decided is not None:
                verdict, moves, by = decided
                if verdict is Verdict.WINNABLE:
                    moves = verify_line(self.position, moves or ())
                return SearchResult(verdict, moves if verdict is Verdict.WINNABLE else None, self.nodes, 0.0,
                                    method=by, stats=self.stats)
        return None

    def cpsat(self, deterministic: float | None) -> tuple[Verdict, tuple[Move, ...] | None, str] | None:
        from .cpsat import solve_cpsat  # OR-tools loads only when CP-SAT is asked

        result = solve_cpsat(self.position, time_limit=self.deadline.remaining(),
                             deterministic_limit=deterministic, seed=self.seed, conflict_limit=self.left())
        self.nodes += result.branches
        self.stats["phases"].append({"method": "cpsat", "branches": result.branches, "status": result.status,
                                     "seconds": round(result.seconds, 6)})
        if result.verdict is Verdict.UNKNOWN:
            return None
        return result.verdict, result.moves, "cpsat"


@contextmanager
def _gc_paused() -> Iterator[None]:
    """Pause Python's cyclic garbage collector during a solve.

    The search allocates many small tuples and lists but no reference cycles, and the
    collector's passes over them cost about a quarter of a typical solve (measured:
    median 4.3 ms -> 3.2 ms on deals 100-299). Re-enabled afterwards, also on errors.
    """
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def solve(position: Position, method: str = "auto", limits: Limits = Limits(), seed: int = 0,
          engine: str | None = None) -> SearchResult[Move]:
    """Decide whether `position` can be won, exactly; `unknown` only when a limit is hit.

    `limits.seconds` is wall-clock time for the whole solve, `limits.nodes` caps the nodes of
    the whole portfolio (search nodes of both directions and CP-SAT branches: a CP-SAT step may
    do at most as many conflicts as nodes are left, and the portfolio stops once the count
    reaches the limit, so one CP-SAT step can pass it), `limits.memory_bytes` caps the transposition
    sets; None is no limit of that kind. Same position, method, limits and seed give the same
    verdict and line everywhere unless the wall clock cuts a run short, with either engine.

    `engine` is "native" (the compiled kernel), "python" (the reference search) or None for the
    default (`kernel.resolve`); ``stats["engine"]`` says which ran.
    """
    _check_method(method)
    chosen = kernel.resolve(engine)
    use_oracle = method == "auto" and USE_ORACLE
    if use_oracle:
        chosen = "python"  # the oracle hooks into the Python DFS only
    tt_bytes = DEFAULT_TT_BYTES if limits.memory_bytes is None else limits.memory_bytes
    started = time.perf_counter()
    portfolio = _Portfolio(position, Deadline.after(limits.seconds), limits.nodes, seed, tt_bytes,
                           oracle=use_oracle, engine=chosen)
    portfolio.stats["engine"] = chosen
    with _gc_paused():
        result = portfolio.run(method)
    seconds = time.perf_counter() - started
    if result is None:
        stopped = "time" if portfolio.deadline.expired() else "nodes"
        return SearchResult(Verdict.UNKNOWN, None, portfolio.nodes, seconds, stopped, method="none",
                            stats=portfolio.stats)
    return SearchResult(result.verdict, result.line, portfolio.nodes, seconds, method=result.method,
                        stats=portfolio.stats)
