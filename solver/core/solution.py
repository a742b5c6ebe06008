"""What every exact method returns (`Solution`, `MoveValue`) and the budget they all spend.

Its own module so that the methods (`exact`'s retrograde and negamax, `proof`, `alphabeta`) share
these without importing one another; `exact` chooses between them.
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass, field
from typing import Any, Callable, Generic

from .game import M, P
from .verdicts import Limits

SOLVED = "solved"
UNKNOWN = "unknown"


@dataclass(frozen=True)
class MoveValue(Generic[M]):
    """One legal move at the root and its exact value for the maximizing side (None if unknown)."""

    move: M
    value: int | None


@dataclass(frozen=True)
class Solution(Generic[P, M]):
    """The answer to one question about one position."""

    status: str  # SOLVED or UNKNOWN
    value: int | None  # for the maximizing side; None when unknown
    moves: tuple[MoveValue[M], ...]  # every legal move at the root, in the game's order
    line: tuple[M, ...]  # principal line (both sides optimal); empty when unknown
    line_end: str  # "terminal", "repetition" (infinite play), "cut" (length cap) or "none"
    final: P | None  # position at the end of the principal line
    method: str  # "proof", "alphabeta", "retrograde" or "negamax"
    positions: int  # distinct positions stored (the graph of retrograde, else the transposition table)
    nodes: int  # moves applied during the search
    edges: int  # successor links stored (retrograde); 0 for the other methods
    seconds: float
    bytes_per_position: float  # graph storage divided by positions
    reason: str = ""  # why unknown
    draw_value: int = 0
    extra: dict[str, Any] = field(default_factory=dict, compare=False)

    @property
    def positions_per_second(self) -> float:
        return self.positions / self.seconds if self.seconds > 0 else float("inf")


class _LimitHit(Exception):
    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason
        self.positions = 0
        self.nodes = 0


def _rss_bytes() -> int:
    """Current resident set size (Linux /proc; 0 where unavailable)."""
    try:
        with open("/proc/self/statm", "rb") as handle:
            return int(handle.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        return 0


Progress = Callable[[dict[str, Any]], None]
PROGRESS_INTERVAL = 0.5  # seconds between two progress reports


class _Budget:
    """Checks limits cheaply: the clock and memory only every `every` ticks. With `progress`,
    also reports the search's counts (from `counts`) at most every PROGRESS_INTERVAL seconds."""

    def __init__(self, limits: Limits, every: int = 2048, explore_share: float = 1.0,
                 progress: Progress | None = None) -> None:
        self.limits = limits
        self.start = time.perf_counter()
        self.rss0 = _rss_bytes()
        self.every = every
        self.ticks = 0
        self.explore_share = explore_share  # share of the time (and memory) the exploration may use
        self.exploring = True
        self.spent: str | None = None  # the time limit, once hit: every later check stops at once
        self.progress = progress
        self.counts: Callable[[], tuple[int, int, int]] | None = None  # (positions, nodes, table bytes)
        self.phase = ""
        self.last_report = self.start

    def memory_used(self) -> int:
        """Growth of the resident set since the solve started (0 where unknown)."""
        return max(0, _rss_bytes() - self.rss0) if self.rss0 else 0

    def memory_tight(self, share: float = 0.8) -> bool:
        """Whether the memory growth passed `share` of the limit (time to drop what can be rebuilt)."""
        limit = self.limits.memory_bytes
        return limit is not None and self.rss0 > 0 and self.memory_used() > limit * share

    def report(self, final: bool = False) -> None:
        """Send one progress report now (no-op without a progress callback)."""
        if self.progress is None:
            return
        now = time.perf_counter()
        self.last_report = now
        positions, nodes, table_bytes = self.counts() if self.counts is not None else (0, 0, 0)
        elapsed = now - self.start
        self.progress({
            "phase": self.phase,
            "seconds": elapsed,
            "positions": positions,
            "nodes": nodes,
            "positions_per_second": positions / elapsed if elapsed > 0 else 0.0,
            "nodes_per_second": nodes / elapsed if elapsed > 0 else 0.0,
            "memory_bytes": self.memory_used(),
            "time_limit": self.limits.seconds,
            "final": final,
        })

    def elapsed(self) -> float:
        return time.perf_counter() - self.start

    def deadline(self) -> float | None:
        """The `time.perf_counter()` reading at which the time limit passes (None: no time limit)."""
        return None if self.limits.seconds is None else self.start + self.limits.seconds

    def check(self, positions: int) -> None:
        limits = self.limits
        if limits.nodes is not None and positions > limits.nodes:
            raise _LimitHit(f"position limit {limits.nodes} reached")
        if self.spent is not None:  # a limit already hit (by an earlier question): the budget is gone
            raise _LimitHit(self.spent)
        self.ticks += 1
        if self.ticks % self.every:
            return
        self.check_now()

    def check_now(self) -> None:
        limits = self.limits
        if self.progress is not None and time.perf_counter() - self.last_report >= PROGRESS_INTERVAL:
            self.report()
        share = self.explore_share if self.exploring else 1.0
        if limits.seconds is not None and self.elapsed() > limits.seconds * share:
            if share < 1.0:
                raise _LimitHit(f"time limit {limits.seconds:g} s reached (the exploration stops at "
                                f"{limits.seconds * share:g} s, leaving the rest for the analysis)")
            self.spent = f"time limit {limits.seconds:g} s reached"
            raise _LimitHit(f"time limit {limits.seconds:g} s reached")
        if limits.memory_bytes is not None and self.rss0:
            if _rss_bytes() - self.rss0 > limits.memory_bytes * share:
                raise _LimitHit(f"memory limit {limits.memory_bytes} bytes reached")
