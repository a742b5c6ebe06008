"""Half Moon exact solving: the public API used by the CLI, the batch runner and the service.

`solve` decides a position with the search (`solver.games.halfmoon_search` on the core
DFS), with CP-SAT (`solver.cpsat.halfmoon`), or with the `auto` portfolio of both: a short
search, then CP-SAT, then a longer search, then CP-SAT with the rest of the time. The two
methods fail on different deals: the search finds wins fast and refutes positions with a
local flaw, CP-SAT proves global infeasibility.

Portfolio phases are bounded by node counts and CP-SAT deterministic time, never by the
clock, so a decided verdict and its line are the same on every machine; the wall-clock
`time_limit` only decides when to give up (`unknown`). Every `winnable` verdict carries a
line replayed through the rules before it is returned.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any, Iterable

from solver.core.results import DEFAULT_TT_BYTES, Deadline, Limits, Verdict
from solver.core.solitaire import RefutedSet, solve_solitaire
from solver.cpsat.halfmoon import solve_cpsat
from solver.games.halfmoon import Move, Position, replay
from solver.games.halfmoon_search import HalfMoonSearch, abstract_line, concretize, concretize_from, search_budgets

#: Bump whenever verdict logic or the returned lines can change (the results store keys on it).
SOLVER_VERSION = "hm-solver-1"

#: Default wall-clock limit per deal, in seconds.
DEFAULT_TIME_LIMIT = 60.0
METHODS = ("auto", "search", "cpsat")


class _Default:
    def __repr__(self) -> str:
        return "DEFAULT"


DEFAULT: Any = _Default()


class SolveError(ValueError):
    """A bad argument to `solve` or `hint` (unknown method, bad limit)."""


class LineCheckError(AssertionError):
    """A solver produced a line that does not win when replayed: a bug, never shown as a win."""


@dataclass(frozen=True)
class SolveResult:
    """The answer for one position: verdict, a replayed winning line, which method decided."""

    verdict: Verdict
    moves: tuple[Move, ...] | None
    method: str  # "search", "cpsat", or "none" (undecided)
    nodes: int
    seconds: float
    stats: dict[str, Any] = field(default_factory=dict, compare=False)

    def to_json(self, code: str | None = None) -> dict[str, Any]:
        """The `solve --json` object (``moves`` only for a winnable verdict)."""
        data: dict[str, Any] = {"code": code, "verdict": self.verdict.value}
        if self.verdict is Verdict.WINNABLE and self.moves is not None:
            data["moves"] = [str(move) for move in self.moves]
        data.update(method=self.method, nodes=self.nodes, seconds=round(self.seconds, 6))
        return data


@dataclass(frozen=True)
class Phase:
    """One step of the portfolio: a search with a node budget or a CP-SAT run."""

    method: str
    budget: float | None  # nodes for search, deterministic time for CP-SAT; None = rest


#: The `auto` portfolio. Budgets are machine-independent (nodes, CP-SAT deterministic time).
PORTFOLIO: tuple[Phase, ...] = (
    Phase("search", 20_000),
    Phase("cpsat", 0.1),
    Phase("search", 2_000_000),
    Phase("cpsat", None),
)
#: In `auto`, the search hands a subtree to CP-SAT once it has cost this many nodes ...
ORACLE_AFTER = 3000
#: ... with this much CP-SAT deterministic time per call.
ORACLE_DETERMINISTIC = 0.02


def _check_method(method: str) -> str:
    if method not in METHODS:
        raise SolveError(f"unknown method {method!r}: expected one of {', '.join(METHODS)}")
    return method


def verify_line(position: Position, moves: Iterable[Move]) -> tuple[Move, ...]:
    """Replay `moves` through the rules; raise LineCheckError unless they win."""
    line = tuple(moves)
    try:
        end = replay(position, list(line)).position
    except ValueError as error:
        raise LineCheckError(f"solver line does not replay: {error}") from None
    if not end.is_won:
        raise LineCheckError(f"solver line leaves {end.cards_left} cards")
    return line


class _Session:
    """State shared across the phases of one solve: refutations and restarts carry over."""

    def __init__(self, position: Position, deadline: Deadline, node_limit: int | None, seed: int,
                 tt_bytes: int, use_oracle: bool):
        self.position = position
        self.deadline = deadline
        self.node_limit = node_limit
        self.seed = seed
        self.nodes = 0
        self.search_nodes = 0
        self.tt_bytes = tt_bytes
        self.table = RefutedSet(Limits(tt_bytes=tt_bytes).tt_entries)
        self.state = HalfMoonSearch(position)
        self.schedule = search_budgets()
        self.runs = 0
        self.asked: set = set()
        self.use_oracle = use_oracle
        self.stats: dict[str, Any] = {"phases": [], "oracle_calls": 0}

    def oracle(self, prefix: tuple) -> tuple | bool | None:
        """CP-SAT on the position a search line reaches (see `solve_solitaire`'s oracle)."""
        _, reached = concretize_from(self.position, prefix)
        result = solve_cpsat(reached, time_limit=self.deadline.remaining(),
                             deterministic_limit=ORACLE_DETERMINISTIC, seed=self.seed)
        self.nodes += result.branches
        self.stats["oracle_calls"] += 1
        if result.verdict is Verdict.UNWINNABLE:
            return False
        if result.verdict is Verdict.WINNABLE and result.moves is not None:
            return tuple(abstract_line(reached, result.moves))
        return None

    def search(self, budget: int | None) -> SolveResult | None:
        if self.node_limit is not None:
            left = self.node_limit - self.search_nodes
            if left <= 0:
                return None
            budget = left if budget is None else min(budget, left)
        remaining = self.deadline.remaining()
        if remaining is not None and remaining <= 0:
            return None
        started = time.perf_counter()
        result = solve_solitaire(
            self.state,
            Limits(time_limit=remaining, node_limit=budget, tt_bytes=self.tt_bytes),
            budgets=self.schedule,
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
        self.search_nodes += result.nodes
        self.stats["phases"].append({"method": "search", "nodes": result.nodes, "verdict": result.verdict.value,
                                     "seconds": round(time.perf_counter() - started, 6)})
        self.stats["refuted"] = len(self.table)
        if result.verdict is Verdict.UNKNOWN:
            return None
        moves = concretize(self.position, result.line) if result.line is not None else None
        method = "cpsat" if result.stats["oracle"]["decided"] else "search"
        return self._result(result.verdict, moves, method)

    def cpsat(self, deterministic: float | None) -> SolveResult | None:
        remaining = self.deadline.remaining()
        if remaining is not None and remaining <= 0:
            return None
        result = solve_cpsat(self.position, time_limit=remaining, deterministic_limit=deterministic, seed=self.seed)
        self.nodes += result.branches
        self.stats["phases"].append({"method": "cpsat", "branches": result.branches, "status": result.status,
                                     "seconds": round(result.seconds, 6)})
        if result.verdict is Verdict.UNKNOWN:
            return None
        return self._result(result.verdict, result.moves, "cpsat")

    def _result(self, verdict: Verdict, moves: tuple[Move, ...] | None, method: str) -> SolveResult:
        if verdict is Verdict.WINNABLE:
            moves = verify_line(self.position, moves or ())
        return SolveResult(verdict, moves if verdict is Verdict.WINNABLE else None, method, self.nodes, 0.0, self.stats)


def solve(
    position: Position,
    method: str = "auto",
    time_limit: float | None = DEFAULT,
    node_limit: int | None = None,
    seed: int = 0,
    tt_bytes: int = DEFAULT_TT_BYTES,
) -> SolveResult:
    """Decide whether `position` can be won, exactly; `unknown` only when a limit is hit.

    `time_limit` is wall-clock seconds for the whole solve (DEFAULT = 60 s, None = no
    limit); `node_limit` caps search nodes (CP-SAT phases are not counted against it);
    `tt_bytes` caps the transposition set. Same position, method, limits and seed give the
    same verdict and line everywhere unless the wall clock cuts a run short.
    """
    _check_method(method)
    if time_limit is DEFAULT:
        time_limit = DEFAULT_TIME_LIMIT
    Limits(time_limit=time_limit, node_limit=node_limit, tt_bytes=tt_bytes)  # validates
    started = time.perf_counter()
    session = _Session(position, Deadline.after(time_limit), node_limit, seed, tt_bytes, use_oracle=method == "auto")
    if method == "search":
        phases: tuple[Phase, ...] = (Phase("search", None),)
    elif method == "cpsat":
        phases = (Phase("cpsat", None),)
    else:
        phases = PORTFOLIO
    result: SolveResult | None = None
    for phase in phases:
        if phase.method == "search":
            result = session.search(None if phase.budget is None else int(phase.budget))
        else:
            result = session.cpsat(phase.budget)
        if result is not None:
            break
    seconds = time.perf_counter() - started
    if result is None:
        return SolveResult(Verdict.UNKNOWN, None, "none", session.nodes, seconds, session.stats)
    return SolveResult(result.verdict, result.moves, result.method, session.nodes, seconds, session.stats)


@dataclass(frozen=True)
class HintResult:
    """Which moves keep a position winnable: the verdict, every legal move's verdict, a best move.

    `best` is the first move of `line`, a replayed winning continuation (winnable only).
    """

    verdict: Verdict
    moves: tuple[tuple[Move, Verdict], ...]
    best: Move | None
    line: tuple[Move, ...] | None
    seconds: float

    def to_json(self, code: str | None = None) -> dict[str, Any]:
        return {
            "code": code,
            "verdict": self.verdict.value,
            "best": str(self.best) if self.best is not None else None,
            "line": [str(m) for m in self.line] if self.line is not None else None,
            "moves": [{"move": str(move), "verdict": verdict.value} for move, verdict in self.moves],
            "seconds": round(self.seconds, 6),
        }


def hint(position: Position, time_limit: float | None = DEFAULT, seed: int = 0) -> HintResult:
    """Solve the position and every position one legal move away.

    `time_limit` applies to each of these solves separately. Moves leading to the same
    search position are solved once. An unwinnable position makes every move unwinnable
    without further search (a move never creates a win that was not there).
    """
    started = time.perf_counter()
    overall = solve(position, "auto", time_limit, seed=seed)
    legal = position.legal_moves()
    verdicts: list[tuple[Move, Verdict]] = []
    best = overall.moves[0] if overall.moves else None
    seen: dict[tuple, Verdict] = {}
    for move in legal:
        if overall.verdict is Verdict.UNWINNABLE:
            verdicts.append((move, Verdict.UNWINNABLE))
            continue
        after = position.apply(move)
        probe = HalfMoonSearch(after, projection=False)
        key = (tuple(probe.h), tuple(probe.free))
        if key not in seen:
            if best is not None and move == best:
                seen[key] = Verdict.WINNABLE
            else:
                seen[key] = solve(after, "auto", time_limit, seed=seed).verdict
        verdicts.append((move, seen[key]))
    return HintResult(overall.verdict, tuple(verdicts), best, overall.moves, time.perf_counter() - started)
