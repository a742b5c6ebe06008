"""The FastAPI application: versioned JSON endpoints on the same facade and store as the CLI.

Interfaces only, like the click commands: every question goes to the facade (`import
halfmoon`), and every answer is the facade's own `to_json()` shape. Inputs are read and checked
before any work is queued (codes, moves, positions: a bad input is answered at once even when
the pool is busy); every solve runs in the solver pool.

How a request that needs solving is answered:
1. from the results store when its trust rules allow (a winning line is replayed first; the
   answer says ``"cached": true``);
2. else the work starts in the pool (or the request joins the same work already running) and
   the request waits up to ``wait`` seconds (``?wait=``, at most the server's ``wait_max``);
3. if the work is not done by then: status 202, ``{"pending": true, "retry_after": s}`` and a
   Retry-After header. The work goes on up to the server's own budget and its answer is stored
   (solutions) or remembered (hints, endgames), so asking again gets it at once.
A verdict is never guessed: ``unknown`` means a limit was hit, and ``stopped`` says which.
"""

from __future__ import annotations

import asyncio
import math
import time
from contextlib import asynccontextmanager
from importlib import metadata
from typing import Any, AsyncIterator

from fastapi import FastAPI

import halfmoon

from . import work
from .config import ServiceConfig
from .contract import Contract
from .curate import Curator
from .errors import (
    ApiError,
    BodyLimit,
    CancelledAs503,
    ShuttingDown,
    TokenCheck,
    WorkerBug,
    install_error_handlers,
)
from .flights import Flights
from .metrics import Metrics, RequestMetrics
from .models import ErrorReply
from .page import install_page
from .pool import SolverPool
from .routes import curated, deals, endgames, play
from .routes import service as service_routes
from .storage import StoreGateway

API_VERSION = "v1"


def package_version() -> str:
    try:
        return metadata.version("halfmoon-solver")
    except metadata.PackageNotFoundError:
        return "unknown"


def _unwrap(outcome: Any) -> Any:
    """A worker's value, or its failure raised as the matching answer (400 or a logged 500)."""
    if isinstance(outcome, work.Failed):
        if outcome.kind == "input":
            raise ApiError(400, outcome.message, "invalid_input", outcome.type)
        raise WorkerBug(outcome.type, outcome.message, outcome.trace)
    return outcome


class Service:
    """The running service's state: settings, pool, store, in-flight work, counters."""

    def __init__(self, config: ServiceConfig) -> None:
        self.config = config
        self.metrics = Metrics()
        self.pool = SolverPool(config.workers, config.max_queue, config.max_attempts)
        self.store = StoreGateway(config.db_path, config.readonly)
        self.solves: Flights[dict[str, Any]] = Flights(0)  # the store remembers solutions
        self.hints: Flights[dict[str, Any]] = Flights(config.hint_cache)
        self.endgames: Flights[dict[str, Any]] = Flights(config.endgame_cache)
        self.curator: Curator | None = None
        self.versions: dict[str, str] = {}
        self._since: dict[Any, float] = {}
        self.client_jobs: dict[str, int] = {}  # solver jobs running per client address
        self.closing = asyncio.Event()
        self.connection_stats: Any = None  # set by `halfmoon serve`: the connection guards' counters
        # A winnability atlas: opened (and checked) now, read with one byte a lookup (no solving).
        self.atlas = halfmoon.atlas.open_atlas(config.atlas_path) if config.atlas_path is not None else None

    def begin_shutdown(self) -> None:
        """The server is stopping: every request still waiting is answered 503 now."""
        self.closing.set()
        if self.curator is not None:
            self.curator.wake()

    async def await_work(self, task: asyncio.Task[Any], seconds: float) -> bool:
        """Wait up to `seconds` for `task` (never cancelling it); True when done. Raises ShuttingDown
        when the server starts stopping meanwhile."""
        if not task.done():
            closing = asyncio.ensure_future(self.closing.wait())
            try:
                await asyncio.wait({task, closing}, timeout=seconds, return_when=asyncio.FIRST_COMPLETED)
            finally:
                closing.cancel()
        if not task.done() and self.closing.is_set():
            raise ShuttingDown("the service is shutting down; ask again shortly")
        return task.done()

    def start_work(self, flights: Flights[Any], key: Any, client: str, make: Any) -> asyncio.Task[Any]:
        """The task for `key`: the one running (joined), or new work if this client has room for it.

        Each client (by address) may have `per_client_jobs` solver jobs running at once, so one
        client cannot take the whole pool; beyond that it gets 429 with Retry-After.
        """
        if flights.running(key):
            return flights.start(key, make)
        if self.closing.is_set():
            raise ShuttingDown("the service is shutting down; ask again shortly")
        limit = self.config.client_jobs
        if self.client_jobs.get(client, 0) >= limit:
            raise ApiError(429, f"this client already has {limit} solver job{'s' * (limit != 1)} running (the most "
                                f"one client may have); ask again when one is done", "too_many_requests",
                           "TooManyRequests", {"Retry-After": str(max(1, math.ceil(self.config.wait_default / 2)))})
        self.client_jobs[client] = self.client_jobs.get(client, 0) + 1

        async def run() -> Any:
            try:
                return await make()
            finally:
                left = self.client_jobs.get(client, 1) - 1
                if left > 0:
                    self.client_jobs[client] = left
                else:
                    self.client_jobs.pop(client, None)

        return flights.start(key, run)

    async def start(self) -> None:
        # The store and the worker processes start side by side.
        await asyncio.gather(self.store.open(), self.pool.start())
        game = self.config.curated_game
        page = await self.store.curated(game, None, None, 1, self.config.rating_params)
        self.versions = {"solver_version": page.solver_version, "rating_version": page.rating_version}
        self.curator = Curator(game, self.pool, self.store, self.metrics, self.config.rating_params,
                               self.config.curate_seed, self.config.curate_scan)

    async def stop(self) -> None:
        if self.curator is not None:
            await self.curator.stop()
        for flights in (self.solves, self.hints, self.endgames):
            await flights.cancel_all()
        await self.pool.close()
        await self.store.close()
        if self.atlas is not None:
            self.atlas.close()

    def wait(self, asked: float | None) -> float:
        return self.config.wait_default if asked is None else asked

    def retry_after(self, key: Any, budget: float) -> float:
        """Seconds until work started for `key` reaches its budget, capped at the default wait."""
        started = self._since.get(key, time.monotonic())
        return min(self.config.wait_default, max(1.0, budget - (time.monotonic() - started)))

    async def in_pool(self, key: Any, fn: Any, *args: Any, hard_timeout: float) -> Any:
        """Run a job in the pool, noting when work for `key` started (for Retry-After)."""
        self._since[key] = time.monotonic()
        try:
            return _unwrap(await self.pool.run(fn, *args, hard_timeout=hard_timeout))
        finally:
            self._since.pop(key, None)

    # -- solutions -----------------------------------------------------------------------------

    def solve_limits(self) -> halfmoon.Limits:
        return halfmoon.Limits(seconds=self.config.solve_time_limit)

    async def solve_now(self, code: str) -> dict[str, Any]:
        limit = self.config.solve_time_limit
        solved: work.Solved = await self.in_pool(("solve", code), work.solve_job, code, self.solve_limits(),
                                                 hard_timeout=2 * limit + 30)
        await self.store.put(solved.stored)
        return solved.answer

    def atlas_entry(self, code: str) -> halfmoon.atlas.AtlasEntry | None:
        """What the atlas holds for a solitaire deal code (None: no atlas configured)."""
        if self.atlas is None:
            return None
        self.metrics.bump("atlas.lookups")
        return halfmoon.atlas.lookup(code, self.atlas, strict=False)

    def atlas_answer(self, code: str) -> dict[str, Any]:
        """The solve answer for a deal the atlas has decided: its verdict, no line, no solving."""
        self.metrics.bump("solutions.from_atlas")
        return halfmoon.solve(code, atlas=self.atlas, verdict_only=True).to_json()

    # -- stats ---------------------------------------------------------------------------------

    async def stats(self) -> dict[str, Any]:
        counts = self.metrics.counts
        final = counts["solutions.from_store"] + counts["solutions.solved"]
        return {
            "service": {
                "version": package_version(),
                "api": API_VERSION,
                "solver_version": self.versions.get("solver_version"),
                "config": self.config.to_json(),
            },
            "store": {"path": str(self.store.path), **(await self.store.counts()), "writes": self.store.writes,
                      "readonly": self.store.readonly, "writes_skipped_readonly": self.store.skipped_writes,
                      "bad_lines_skipped": self.store.bad_lines},
            "requests": self.metrics.snapshot(),
            "atlas": None if self.atlas is None else {
                "path": str(self.atlas.path), "games": self.atlas.games(), "lookups": counts["atlas.lookups"]},
            "solutions": {
                "asked": counts["solutions.asked"],
                "from_atlas": counts["solutions.from_atlas"],
                "from_store": counts["solutions.from_store"],
                "solved": counts["solutions.solved"],
                "pending": counts["solutions.pending"],
                "cache_hit_rate": round(counts["solutions.from_store"] / final, 4) if final else None,
                **self.solves.stats(),
            },
            "hints": {"asked": counts["hints.asked"], "pending": counts["hints.pending"], **self.hints.stats()},
            "endgames": {"asked": counts["endgames.asked"], "pending": counts["endgames.pending"], **self.endgames.stats()},
            "curated": {"asked": counts["curated.asked"], "served_deals": counts["curated.deals"],
                        "skipped_lines": counts["curated.skipped"],
                        "rating_version": self.versions.get("rating_version"),
                        **(self.curator.stats() if self.curator else {})},
            "pool": self.pool.stats() | {"clients_with_jobs": len(self.client_jobs),
                                         "per_client_jobs": self.config.client_jobs},
            "connections": self.connection_stats() if self.connection_stats is not None else None,
        }


def create_app(config: ServiceConfig | None = None) -> FastAPI:
    """The application for `config` (defaults: all cores, the default store). Lifespan starts the pool."""
    config = config or ServiceConfig()
    service = Service(config)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        await service.start()
        try:
            yield
        finally:
            await service.stop()

    app = FastAPI(
        title="halfmoon deal-code service",
        version=package_version(),
        summary="Deals from codes, exact verdicts and winning lines, hints, curated deals, endgames.",
        description=(
            "The same facade and results store as the `halfmoon` command line, over HTTP. "
            "Every answer has the shape of the matching `halfmoon … --json` output. Work that "
            "does not finish within a request's `wait` is answered 202 with `retry_after`; it goes "
            "on in the background and the next ask gets its answer. Errors are "
            "`{\"error\": {status, kind, type, message}}` with the CLI's message."
        ),
        lifespan=lifespan,
        responses={408: {"model": ErrorReply, "description": "The request body did not arrive in time."},
                   413: {"model": ErrorReply, "description": "The request body is over the server's limit."},
                   422: {"model": ErrorReply, "description": "The request does not fit this description."},
                   500: {"model": ErrorReply, "description": "A bug (an incident id; details in the server log)."},
                   503: {"model": ErrorReply, "description": "Shutting down, the results store unusable, or the "
                                                             "solver pool full (Retry-After)."}},
        docs_url=None, redoc_url=None,  # served offline by page.install_page
    )
    app.state.service = service
    install_error_handlers(app)
    app.add_middleware(BodyLimit, max_bytes=config.max_body_bytes, timeout=config.body_timeout)
    app.add_middleware(TokenCheck, token=config.token)
    app.add_middleware(CancelledAs503)
    app.add_middleware(RequestMetrics, metrics=service.metrics)  # outermost: counts the 401s, 408s and 413s too

    contract = Contract(config.curated_game)
    install_page(app, config.cors_origins)  # the web page at /, /docs and /redoc offline, CORS
    for routes in (play.router(service, contract), service_routes.router(service), deals.router(service, contract),
                   curated.router(service, contract), endgames.router(service, contract)):
        app.include_router(routes)
    if config.token is not None:
        _describe_token(app)
    return app


def _describe_token(app: FastAPI) -> None:
    """The OpenAPI description says that /v1 needs the bearer token (and that 401 answers without it)."""
    plain = app.openapi

    def with_token() -> dict[str, Any]:
        if app.openapi_schema is not None:
            return app.openapi_schema
        schema = plain()
        schema.setdefault("components", {}).setdefault("securitySchemes", {})["bearer"] = {
            "type": "http", "scheme": "bearer", "description": "The service's token (--token, $HALFMOON_TOKEN)."}
        for path, operations in schema.get("paths", {}).items():
            if not path.startswith("/v1/"):
                continue
            for operation in operations.values():
                operation["security"] = [{"bearer": []}]
                operation.setdefault("responses", {})["401"] = {
                    "description": "The token is missing or wrong.",
                    "content": {"application/json": {"schema": {"$ref": "#/components/schemas/ErrorReply"}}}}
        app.openapi_schema = schema
        return schema

    app.openapi = with_token  # type: ignore[method-assign]
