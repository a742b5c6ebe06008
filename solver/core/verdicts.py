"""Verdicts, limits and results shared by every solver in the project.

A verdict is exact or it is `unknown`: a solver that runs out of time, nodes or memory
says `unknown`, never a guess. `Limits` travels with every solve so that the CLI, the batch
runner and the HTTP service all speak the same language about budgets.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from enum import Enum
from typing import Any, Generic, TypeVar

from halfmoon.solver.errors import LimitError

M = TypeVar("M")

#: Default cap on the transposition set of one solving process (bytes, estimated).
DEFAULT_TT_BYTES = 256 * 1024 * 1024
#: Rough size of one stored key in a Python set (an int of ~100 bits plus the slot).
TT_BYTES_PER_ENTRY = 96


class Verdict(str, Enum):
    """The answer to "can this be won?": exact, or `unknown` when a limit was hit."""

    WINNABLE = "winnable"
    UNWINNABLE = "unwinnable"
    UNKNOWN = "unknown"

    def __str__(self) -> str:
        return self.value


@dataclass(frozen=True)
class Limits:
    """Budgets for one solve. ``None`` means no limit of that kind.

    `tt_bytes` caps the transposition set (an estimate from the entry count); hitting it
    only drops remembered refutations, so it costs speed and never correctness.
    """

    time_limit: float | None = None
    node_limit: int | None = None
    tt_bytes: int = DEFAULT_TT_BYTES

    def __post_init__(self) -> None:
        if self.time_limit is not None and not self.time_limit > 0:
            raise LimitError(f"time limit {self.time_limit!r}: expected a positive number of seconds")
        if self.node_limit is not None and (isinstance(self.node_limit, bool) or self.node_limit < 1):
            raise LimitError(f"node limit {self.node_limit!r}: expected a positive whole number")
        if self.tt_bytes < 0:
            raise LimitError(f"transposition memory cap {self.tt_bytes!r}: expected bytes >= 0")

    @property
    def tt_entries(self) -> int:
        """How many keys the transposition set may hold under `tt_bytes`."""
        return self.tt_bytes // TT_BYTES_PER_ENTRY


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

    `stopped` names the limit that ended an `unknown` search ("time", "nodes") or is None.
    """

    verdict: Verdict
    line: tuple[M, ...] | None
    nodes: int
    seconds: float
    stopped: str | None = None
    stats: dict[str, Any] = field(default_factory=dict, compare=False)
