"""Game-agnostic depth-first search for deterministic one-player games (solitaires).

A game plugs in through `SolitaireState`: a *mutable* search state with make/unmake, a
hashable key that identifies positions with the same future, and ordered moves. All game
knowledge (safe moves, dead-position checks, move ordering) lives in the game: a state
that knows a move is safe returns just that move; a state that knows it is lost returns no
moves (or says so in `is_dead`).

The search keeps a set of *refuted* keys (positions whose whole subtree was searched
without a win). Only complete refutations are stored, so the set stays sound across
restarts: restarts with growing node budgets and salted tie-breaks (`salt` changes the
order of equally good moves) recover from an unlucky early choice without losing what was
already proved. The set has a cap; when it fills, the older half is dropped (slower, never
wrong).
"""

from __future__ import annotations

import time
from typing import Any, Callable, Hashable, Iterable, Protocol, Sequence, TypeVar

from halfmoon.dealcodes.rng import SplitMix64
from halfmoon.solver.errors import SolverBug

from .verdicts import Deadline, Limits, SearchResult, Verdict

M = TypeVar("M")

#: How many nodes pass between two reads of the clock.
CLOCK_EVERY = 1024


class SolitaireState(Protocol[M]):
    """What the search needs from a game: a mutable position with make/unmake."""

    def key(self) -> Hashable:
        """Equal keys must mean equal futures (same winnability); smaller is better for memory."""

    def is_won(self) -> bool:
        """True when the game is won in this position."""

    def is_dead(self) -> bool:
        """True only if this position is *provably* lost (a sound dead-position check)."""

    def ordered_moves(self, salt: int) -> Sequence[M]:
        """Moves to try, best first; `salt` (0 = the game's own order) reshuffles ties.

        Returning a single move means the game proved it safe (it loses no wins);
        returning none means the position is lost.
        """

    def make(self, move: M) -> None: ...

    def unmake(self, move: M) -> None: ...

    # Optional: ``begin_run(run: int) -> None`` is called before each restart (run 0 is
    # the first), so a game can spend more effort per node once a cheap dive has failed.
    # Optional: ``child_key(move) -> Hashable``, the key after `move` without making it:
    # lets the search skip children already refuted at the cost of a little arithmetic.


class RefutedSet:
    """Keys of positions proved lost, capped at `capacity` entries in two generations.

    When the young generation fills up, the old one is dropped and the young one becomes
    old: lookups see both, so recent refutations survive and memory stays bounded.
    """

    __slots__ = ("capacity", "young", "old", "dropped")

    def __init__(self, capacity: int) -> None:
        self.capacity = max(0, capacity)
        self.young: set[Hashable] = set()
        self.old: set[Hashable] = set()
        self.dropped = 0

    def __contains__(self, key: Hashable) -> bool:
        return key in self.young or key in self.old

    def __len__(self) -> int:
        return len(self.young) + len(self.old)

    def add(self, key: Hashable) -> None:
        if self.capacity == 0:
            return
        self.young.add(key)
        if len(self.young) >= (self.capacity + 1) // 2:
            self.dropped += len(self.old)
            self.old = self.young
            self.young = set()


class _Stop(Exception):
    """Unwinds the search when a budget or the deadline is hit."""

    def __init__(self, reason: str) -> None:
        self.reason = reason


def restart_budgets(first: int = 2000, factor: float = 4.0) -> Iterable[int]:
    """The default restart schedule: node budgets growing geometrically."""
    budget = float(first)
    while True:
        yield int(budget)
        budget *= factor


class Oracle(Protocol[M]):
    """An outside decision procedure the search may consult on expensive subtrees.

    Called with the line that leads from the start to the node in question (the search
    state itself may be deeper, so an oracle works from the line) and an effort level
    (0 on the first question about a node, one more each time it is asked again);
    returns a winning continuation (moves to make from that node), False when the node is
    provably lost, or None when it cannot tell.
    """

    def __call__(self, prefix: Sequence[M], level: int) -> Sequence[M] | bool | None: ...


class _Unwind(Exception):
    """Carries an oracle's answer for an ancestor frame up the recursion to that frame."""

    def __init__(self, depth: int, continuation: Sequence[Any] | None) -> None:
        self.depth = depth
        self.continuation = continuation


def solve_solitaire(
    state: SolitaireState[M],
    limits: Limits = Limits(),
    budgets: Iterable[int] | None = None,
    seed: int = 0,
    refuted: RefutedSet | None = None,
    clock: Callable[[], float] = time.perf_counter,
    unsalted_runs: int = 1,
    oracle: Oracle[M] | None = None,
    oracle_after: int = 5000,
    oracle_asked: dict[Hashable, int] | None = None,
    oracle_growth: int = 4,
    first_run: int = 0,
) -> SearchResult[M]:
    """Depth-first search for a winning line from `state` (restored to its start on return).

    `budgets` is the restart schedule (node budgets per run; the last run may be cut by
    `limits.nodes`); None searches once without restarts. Restart k > 0 uses a salt
    drawn from SplitMix64(`seed`), so runs are reproducible. The verdict is `unknown` only
    when a limit stopped the search before it proved either answer. The first
    `unsalted_runs` runs use the game's own order (salt 0): useful when a game spends
    different effort per run (see `begin_run`). `first_run` continues the numbering of
    an earlier call on the same state (with the same `refuted` set), so that a caller can
    split one search into phases.

    `oracle`, if given, is consulted at most once every `oracle_after` nodes, on the
    shallowest node of the current line whose subtree has cost `oracle_after` nodes
    without a win; a node asked k times is asked again (at effort level k) once its
    subtree has cost `oracle_after * oracle_growth**k` nodes (`oracle_asked` remembers
    how often each key was asked, across calls).
    A search that went wrong near the top of a big dead subtree thus hands that subtree
    to a method that may prove it lost much faster; a False is stored as a refutation,
    a continuation ends the search with a win.
    """
    started = clock()
    deadline = Deadline.after(limits.seconds)
    table = refuted if refuted is not None else RefutedSet(limits.tt_entries)
    asked = oracle_asked if oracle_asked is not None else {}
    rng = SplitMix64(seed)
    for _ in range(max(0, first_run - unsalted_runs)):
        rng.next()
    path: list[M] = []
    frames: list[list[Any]] = []  # per depth: [nodes when entered, key, path length]
    nodes = 0
    run_limit = 0
    last_consult = 0
    oracle_stats: dict[str, Any] = {"calls": 0, "refuted": 0, "won": 0, "decided": False}

    def consult() -> None:
        """Ask the oracle about the shallowest eligible frame; raise _Unwind on an answer."""
        nonlocal last_consult
        for depth, (entered, key, length) in enumerate(frames):
            level = asked.get(key, 0)
            if nodes - entered < oracle_after * oracle_growth**level:
                continue
            if deadline.expired():
                raise _Stop("time")
            asked[key] = level + 1
            last_consult = nodes
            oracle_stats["calls"] += 1
            answer = oracle(tuple(path[:length]), level) if oracle is not None else None
            if answer is None:
                return
            if answer is False:
                oracle_stats["refuted"] += 1
                raise _Unwind(depth, None)
            raise _Unwind(depth, tuple(answer))  # type: ignore[arg-type]
        last_consult = nodes

    def finish(continuation: Sequence[M]) -> bool:
        for move in continuation:
            state.make(move)
            path.append(move)
        if not state.is_won():
            raise SolverBug("the oracle's continuation does not win")
        oracle_stats["won"] += 1
        return True

    def dfs() -> bool:
        nonlocal nodes
        if state.is_won():
            return True
        key = state.key()
        if key in table:
            return False
        if state.is_dead():
            table.add(key)
            return False
        depth = len(frames)
        frames.append([nodes, key, len(path)])
        try:
            for move in state.ordered_moves(salt):
                if child_key is not None and child_key(move) in table:
                    continue
                nodes += 1
                if nodes >= run_limit:
                    raise _Stop("nodes")
                if not nodes % CLOCK_EVERY and deadline.expired():
                    raise _Stop("time")
                state.make(move)
                path.append(move)
                try:
                    won = dfs()
                    if won:
                        return True
                    path.pop()
                    state.unmake(move)
                    if oracle is not None and nodes - last_consult >= oracle_after:
                        consult()
                except _Unwind as unwind:
                    if path and len(path) > frames[depth][2]:
                        path.pop()
                        state.unmake(move)
                    if unwind.depth != depth:
                        raise
                    if unwind.continuation is None:
                        oracle_stats["decided"] = depth == 0
                        break
                    oracle_stats["decided"] = True
                    return finish(unwind.continuation)
        finally:
            frames.pop()
        table.add(key)
        return False

    schedule = iter(budgets) if budgets is not None else iter(())
    begin_run = getattr(state, "begin_run", None)
    child_key = getattr(state, "child_key", None)
    runs = first_run
    stopped: str | None = None
    while True:
        budget = next(schedule, None)
        total_cap = limits.nodes
        if budget is None:
            run_limit = nodes + (total_cap - nodes if total_cap is not None else 1 << 62) + 1
        else:
            run_limit = nodes + budget
            if total_cap is not None:
                run_limit = min(run_limit, total_cap + 1)
        salt = 0 if runs < unsalted_runs else rng.next() | 1
        if begin_run is not None:
            begin_run(runs)
        runs += 1
        try:
            won = dfs()
        except _Stop as stop:
            # Undo the partial line: the state must come back as it was given.
            while path:
                state.unmake(path.pop())
            stopped = stop.reason
            won = None
        except BaseException:
            while path:
                state.unmake(path.pop())
            raise
        if won is not None:
            line = tuple(path)
            for move in reversed(line):
                state.unmake(move)
            verdict = Verdict.WINNABLE if won else Verdict.UNWINNABLE
            return SearchResult(verdict, line if won else None, nodes, clock() - started, None,
                                stats={"runs": runs, "refuted": len(table), "oracle": oracle_stats})
        if stopped == "time" or (total_cap is not None and nodes >= total_cap) or budget is None:
            return SearchResult(Verdict.UNKNOWN, None, min(nodes, total_cap or nodes), clock() - started,
                                stopped, stats={"runs": runs, "refuted": len(table), "oracle": oracle_stats})
