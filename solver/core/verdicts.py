"""Verdicts, limits and results shared by every solver in the project.

A verdict is exact or it is `unknown`: a solver that runs out of time, nodes or memory
says `unknown`, never a guess. `Limits` travels with every solve so that the CLI, the batch
runner and the HTTP service all speak the same language about budgets.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field
from enum import Enum
from typing import Any, Generic, TypeVar

from halfmoon.solver.errors import LimitError

M = TypeVar("M")

#: Rough size of one stored key in a Python set (an int of ~100 bits plus the slot).
TT_BYTES_PER_ENTRY = 96
#: Default memory for a solitaire search's transposition sets when none is given.
DEFAULT_TT_BYTES = 256 * 1024 * 1024
#: Upper bounds that keep a limit meaningful (a week of time, 2^62 nodes, 1 TiB).
MAX_SECONDS = 7 * 24 * 3600.0
MAX_NODES = 1 << 62
MAX_MEMORY_BYTES = 1 << 40


class Verdict(str, Enum):
    """The answer to "can this be won?": exact, or `unknown` when a limit was hit."""

    WINNABLE = "winnable"
    UNWINNABLE = "unwinnable"
    UNKNOWN = "unknown"

    def __str__(self) -> str:
        return self.value


@dataclass(frozen=True)
class Limits:
    """Budgets for one question, the same for every game, method and interface.

    ``seconds`` is wall-clock time for the whole question; ``nodes`` caps the search's work
    (search nodes of a solitaire, positions explored by an endgame solver); ``memory_bytes``
    caps what the search may keep (transposition tables, the explored graph). ``None`` leaves
    that kind to the game's default (`over`). A limit that is hit gives ``unknown``, never a
    guess; a memory cap on a solitaire's tables only costs speed.
    """

    seconds: float | None = None
    nodes: int | None = None
    memory_bytes: int | None = None

    def __post_init__(self) -> None:
        seconds, nodes, memory = self.seconds, self.nodes, self.memory_bytes
        if seconds is not None:
            if isinstance(seconds, bool) or not isinstance(seconds, (int, float)) or not math.isfinite(seconds) \
                    or not 0 < seconds <= MAX_SECONDS:
                raise LimitError(f"time limit {seconds!r}: expected a positive, finite number of seconds "
                                 f"(at most {MAX_SECONDS:g})")
        if nodes is not None and (isinstance(nodes, bool) or not isinstance(nodes, int) or not 0 < nodes <= MAX_NODES):
            raise LimitError(f"node limit {nodes!r}: expected a positive whole number (at most 2^62)")
        if memory is not None and (isinstance(memory, bool) or not isinstance(memory, int)
                                   or not 0 <= memory <= MAX_MEMORY_BYTES):
            raise LimitError(f"memory limit {memory!r} bytes: expected a whole number from 0 to 1 TiB")

    def over(self, defaults: Limits) -> Limits:
        """These limits, with every kind left open taken from `defaults`."""
        return Limits(
            self.seconds if self.seconds is not None else defaults.seconds,
            self.nodes if self.nodes is not None else defaults.nodes,
            self.memory_bytes if self.memory_bytes is not None else defaults.memory_bytes,
        )

    @property
    def tt_entries(self) -> int:
        """How many keys a solitaire's transposition set may hold under `memory_bytes`."""
        memory = DEFAULT_TT_BYTES if self.memory_bytes is None else self.memory_bytes
        return memory // TT_BYTES_PER_ENTRY

    def to_json(self) -> dict[str, Any]:
        return {"seconds": self.seconds, "nodes": self.nodes, "memory_bytes": self.memory_bytes}


@dataclass
class Deadline:
    """A wall-clock deadline that is cheap to poll (`expired()` reads the clock)."""

    at: float | None

    @classmethod
    def after(cls, seconds: float | None) -> Deadline:
        return cls(None if seconds is None else time.monotonic() + seconds)

    def remaining(self) -> float | None:
        return None if self.at is None else max(0.0, self.at - time.monotonic())

    def expired(self) -> bool:
        return self.at is not None and time.monotonic() >= self.at


@dataclass(frozen=True)
class SearchResult(Generic[M]):
    """What a search returns: the verdict, a winning line (winnable only) and its effort.

    `stopped` names the limit that ended an `unknown` search ("time", "nodes") or is None;
    `method` is what decided it ("search", "cpsat", or "none" when nothing did).
    """

    verdict: Verdict
    line: tuple[M, ...] | None
    nodes: int
    seconds: float
    stopped: str | None = None
    method: str = "search"
    stats: dict[str, Any] = field(default_factory=dict, compare=False)
