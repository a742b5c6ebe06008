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
from typing import Callable, Hashable, Iterable, Protocol, Sequence, TypeVar

from dealcodes.rng import SplitMix64

from .results import Deadline, Limits, SearchResult, Verdict

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


def solve_solitaire(
    state: SolitaireState[M],
    limits: Limits = Limits(),
    budgets: Iterable[int] | None = None,
    seed: int = 0,
    refuted: RefutedSet | None = None,
    clock: Callable[[], float] = time.perf_counter,
) -> SearchResult[M]:
    """Depth-first search for a winning line from `state` (restored to its start on return).

    `budgets` is the restart schedule (node budgets per run; the last run may be cut by
    `limits.node_limit`); None searches once without restarts. Restart k > 0 uses a salt
    drawn from SplitMix64(`seed`), so runs are reproducible. The verdict is `unknown` only
    when a limit stopped the search before it proved either answer.
    """
    started = clock()
    deadline = Deadline.after(limits.time_limit)
    table = refuted if refuted is not None else RefutedSet(limits.tt_entries)
    rng = SplitMix64(seed)
    path: list[M] = []
    nodes = 0
    run_limit = 0

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
        for move in state.ordered_moves(salt):
            nodes += 1
            if nodes >= run_limit:
                raise _Stop("nodes")
            if not nodes % CLOCK_EVERY and deadline.expired():
                raise _Stop("time")
            state.make(move)
            path.append(move)
            if dfs():
                return True
            path.pop()
            state.unmake(move)
        table.add(key)
        return False

    schedule = iter(budgets) if budgets is not None else iter(())
    runs = 0
    stopped: str | None = None
    while True:
        budget = next(schedule, None)
        total_cap = limits.node_limit
        if budget is None:
            run_limit = nodes + (total_cap - nodes if total_cap is not None else 1 << 62) + 1
        else:
            run_limit = nodes + budget
            if total_cap is not None:
                run_limit = min(run_limit, total_cap + 1)
        salt = 0 if runs == 0 else rng.next() | 1
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
                                {"runs": runs, "refuted": len(table)})
        if stopped == "time" or (total_cap is not None and nodes >= total_cap) or budget is None:
            return SearchResult(Verdict.UNKNOWN, None, min(nodes, total_cap or nodes), clock() - started,
                                stopped, {"runs": runs, "refuted": len(table)})
