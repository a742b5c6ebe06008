"""The service's settings: one frozen value built by `halfmoon serve` (or a test) and read everywhere.

Why one value: every limit the service enforces (how long a request waits, how long a solve may
run, body sizes, queue depth) is visible in one place, validated once, and reported by
``GET /v1/stats`` so an operator can see what the running server was started with.
"""

from __future__ import annotations

import math
import os
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import halfmoon
from halfmoon import InputError


def default_workers() -> int:
    """All cores this process may use."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return max(1, os.cpu_count() or 1)


@dataclass(frozen=True)
class ServiceConfig:
    """Limits and resources of one running service.

    `wait_default`/`wait_max` bound how long one request waits for an answer; the work itself
    goes on in the pool up to its own budget (`solve_time_limit` per deal, `hint_time_limit`
    per position of a hint, `endgame_time_limit`), and the answer is kept for the next ask.
    An endgame's limits are named as the CLI's options and `halfmoon.Limits` (seconds, nodes,
    memory): a request may ask for less (``max_seconds``, ``max_positions``), never for more.
    """

    db_path: Path | None = None  # None: $HALFMOON_DB or the user cache (what halfmoon.service.open_store() opens)
    workers: int = field(default_factory=default_workers)  # solver processes
    wait_default: float = 10.0
    wait_max: float = 30.0
    solve_time_limit: float = 60.0
    hint_time_limit: float = 10.0
    endgame_time_limit: float = 60.0
    endgame_node_limit: int = 5_000_000
    endgame_memory_mb: int = 2048
    max_body_bytes: int = 64 * 1024
    max_queue: int = 64  # jobs admitted to the pool (waiting or running) before 503 busy
    max_attempts: int = 3  # runs of one job when workers die under it
    curated_max_count: int = 20
    curate_seed: int = 0
    curate_scan: int = 400  # deals one on-demand generation may rate before it stops
    curated_game: str = "HM"  # the solitaire /v1/curated draws from
    rating_params: halfmoon.service.RatingParams = field(default_factory=halfmoon.service.RatingParams)
    hint_cache: int = 1024
    endgame_cache: int = 256
    body_timeout: float = 10.0  # seconds a request body may take to arrive, in all (408 beyond)
    per_client_jobs: int | None = None  # solver jobs one client may have running (None: workers - 1, at least 1)
    token: str | None = field(default=None, repr=False)  # required as 'Authorization: Bearer …' when set
    readonly: bool = False  # serve the store without writing to it (also when the file cannot be written)
    atlas_path: Path | None = None  # a winnability atlas: decided deals answered from it (docs/atlas.md)
    cors_origins: tuple[str, ...] = ()  # origins whose pages may call the API from a browser; none by default

    def __post_init__(self) -> None:
        if self.db_path is not None:
            object.__setattr__(self, "db_path", Path(self.db_path).expanduser())
        if self.atlas_path is not None:
            object.__setattr__(self, "atlas_path", Path(self.atlas_path).expanduser())
        object.__setattr__(self, "cors_origins", tuple(self.cors_origins))
        for origin in self.cors_origins:
            if origin != "*" and not (origin.startswith(("http://", "https://")) and origin.count("/") == 2):
                raise InputError(f"service setting cors_origins: {origin!r} is not an origin "
                                 f"(expected scheme://host[:port], e.g. https://app.example, or *)")
        positive = {
            "workers": self.workers,
            "wait_default": self.wait_default,
            "wait_max": self.wait_max,
            "solve_time_limit": self.solve_time_limit,
            "hint_time_limit": self.hint_time_limit,
            "endgame_time_limit": self.endgame_time_limit,
            "endgame_node_limit": self.endgame_node_limit,
            "endgame_memory_mb": self.endgame_memory_mb,
            "max_body_bytes": self.max_body_bytes,
            "max_queue": self.max_queue,
            "max_attempts": self.max_attempts,
            "curated_max_count": self.curated_max_count,
            "curate_scan": self.curate_scan,
            "body_timeout": self.body_timeout,
            "per_client_jobs": self.client_jobs,
        }
        for name, value in positive.items():
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not value > 0 \
                    or not math.isfinite(value):
                raise InputError(f"service setting {name} = {value!r}: expected a positive, finite number")
        if self.wait_default > self.wait_max:
            raise InputError(
                f"service setting wait_default = {self.wait_default}: must not exceed wait_max = {self.wait_max}"
            )
        if self.max_queue < self.workers:
            raise InputError(
                f"service setting max_queue = {self.max_queue}: must be at least the {self.workers} workers"
            )
        if self.token is not None and (not isinstance(self.token, str) or len(self.token) < 8
                                       or not self.token.isprintable() or " " in self.token):
            raise InputError("service setting token: expected at least 8 printable characters without spaces")
        for name in ("hint_cache", "endgame_cache", "curate_seed"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise InputError(f"service setting {name} = {value!r}: expected a whole number >= 0")

    @property
    def client_jobs(self) -> int:
        """Solver jobs one client may have running at once (the others stay free for other clients)."""
        return self.per_client_jobs if self.per_client_jobs is not None else max(1, self.workers - 1)

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        data["db_path"] = None if self.db_path is None else str(self.db_path)
        data["token"] = None if self.token is None else "(set)"  # never shown
        data["per_client_jobs"] = self.client_jobs
        data["atlas_path"] = None if self.atlas_path is None else str(self.atlas_path)
        data["cors_origins"] = list(self.cors_origins)
        return data
