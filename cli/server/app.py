"""The FastAPI application: versioned JSON endpoints on the same library and store as the CLI.

Interfaces only, like the click commands: parse and validate in the event loop (codes, moves,
positions: microseconds, and a bad input is answered at once even when the pool is busy), run
every solve in the solver pool, answer with the library's own `to_json` shapes.

How a request that needs solving is answered:
1. from the results store when its trust rules allow (a winning line is replayed first);
2. else the work starts in the pool (or the request joins the same work already running) and
   the request waits up to ``wait`` seconds (``?wait=``, at most the server's ``wait_max``);
3. if the work is not done by then: status 202, ``{"pending": true, "retry_after": s}`` and a
   Retry-After header. The work goes on up to the server's own budget and its answer is stored
   (solutions) or remembered (hints, endgames), so asking again gets it at once.
A verdict is never guessed: ``unknown`` means a limit was hit, and says which.
"""

from __future__ import annotations

import asyncio
import json
import math
import time
from contextlib import asynccontextmanager
from importlib import metadata
from typing import Any, AsyncIterator

from fastapi import Body, FastAPI, Query
from fastapi import Path as PathParam
from fastapi.responses import JSONResponse

from halfmoon.dealcodes import deal_from_code, deal_halfmoon, parse_code
from halfmoon.solver.core.endgame import adapters, get_adapter
from halfmoon.solver.core.verdicts import Verdict
from halfmoon.solver.errors import UnknownGameError
from halfmoon.solver.games.halfmoon.portfolio import SolveResult
from halfmoon.solver.games.halfmoon.rules import Position
from halfmoon.solver.games.halfmoon.rules import replay as replay_line
from halfmoon.solver.rating import TIERS
from halfmoon.solver.registry import GameEntry, get_game
from halfmoon.solver.store import StoredResult, default_db_path

from . import work
from .config import ServiceConfig
from .curate import Curator, checked, curated_json
from .errors import ApiError, BodyLimit, WorkerBug, install_error_handlers
from .flights import Flights, wait_for
from .metrics import Metrics, RequestMetrics
from .models import (
    CuratedPage,
    DealLayout,
    EndgameReply,
    EndgameRequest,
    ErrorReply,
    Health,
    HintReply,
    HintRequest,
    Pending,
    Solution,
)
from .pool import SolverPool
from .storage import StoreGateway

API_VERSION = "v1"
#: The solitaire that `/v1/curated` draws from.
CURATED_GAME = "HM"


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


def _replayed(entry: GameEntry, rows: list[Any], count: int, after: str | None) -> tuple[list[dict[str, Any]], str | None]:
    """Up to `count` feed rows as `generate --json` objects, each line replayed (off the event loop);
    and the code of the last row looked at (the next page's cursor)."""
    deals: list[dict[str, Any]] = []
    last = after
    for row in rows:
        if len(deals) == count:
            break
        last = row.code
        deal = curated_json(entry, row)
        if deal is not None:
            deals.append(deal)
    return deals, last


def _pending(retry_after: float, reason: str, **head: Any) -> JSONResponse:
    seconds = max(1, math.ceil(retry_after))
    body = head | {"pending": True, "retry_after": seconds, "reason": reason}
    return JSONResponse(body, status_code=202, headers={"Retry-After": str(seconds)})


class Service:
    """The running service's state: settings, pool, store, in-flight work, counters."""

    def __init__(self, config: ServiceConfig) -> None:
        self.config = config
        self.db_path = config.db_path or default_db_path()
        self.metrics = Metrics()
        self.pool = SolverPool(config.workers, config.max_queue, config.max_attempts)
        self.store = StoreGateway(self.db_path)
        self.solves: Flights[StoredResult] = Flights(0)  # the store remembers solutions
        self.hints: Flights[dict[str, Any]] = Flights(config.hint_cache)
        self.endgames: Flights[dict[str, Any]] = Flights(config.endgame_cache)
        self.curator: Curator | None = None
        self.hm: GameEntry | None = None
        self._since: dict[Any, float] = {}

    async def start(self) -> None:
        # The store, the solver imports (off the loop) and the worker processes start side by side.
        _, self.hm, _, _ = await asyncio.gather(
            self.store.open(), asyncio.to_thread(get_game, CURATED_GAME), asyncio.to_thread(adapters), self.pool.start()
        )
        self.curator = Curator(self.hm, self.pool, self.store, self.metrics, self.config.rating_params,
                               self.config.curate_seed, self.config.curate_scan)

    async def stop(self) -> None:
        if self.curator is not None:
            await self.curator.stop()
        for flights in (self.solves, self.hints, self.endgames):
            await flights.cancel_all()
        await self.pool.close()
        await self.store.close()

    def wait(self, asked: float | None) -> float:
        return self.config.wait_default if asked is None else asked

    def retry_after(self, key: Any, budget: float) -> float:
        """Seconds until work started for `key` reaches its budget, capped at the default wait."""
        started = self._since.get(key, time.monotonic())
        return min(self.config.wait_default, max(1.0, budget - (time.monotonic() - started)))

    # -- solutions -----------------------------------------------------------------------------

    async def solve_now(self, entry: GameEntry, number: int) -> StoredResult:
        limit = self.config.solve_time_limit
        key = ("solve", entry.code(number))
        self._since[key] = time.monotonic()
        try:
            outcome = await self.pool.run(work.solve_job, entry.tag, number, limit, hard_timeout=2 * limit + 30)
            result = checked(entry, _unwrap(outcome))
            await self.store.put(result)
            return result
        finally:
            self._since.pop(key, None)

    @staticmethod
    def solution_json(entry: GameEntry, stored: StoredResult, source: str) -> dict[str, Any]:
        restore = getattr(entry, "restore", None)
        if restore is not None:  # the game's own result type, as `halfmoon solve` prints it
            result = restore(stored)
        else:
            moves = tuple(entry.parse_line(stored.line)) if stored.line is not None else None
            result = SolveResult(Verdict(stored.verdict), moves, stored.method or "none", stored.nodes, stored.seconds)
        data = result.to_json(stored.code) | {"source": source, "solver_version": stored.solver_version}
        if stored.verdict == "unknown":
            if stored.error is not None:
                data["reason"] = f"not decided: {stored.error}"
            elif stored.time_limit is not None:
                data["reason"] = f"not decided within the solver's limit of {stored.time_limit:g} s"
            else:
                data["reason"] = f"not decided within the solver's limit of {stored.node_limit} nodes"
        return data

    # -- stats ---------------------------------------------------------------------------------

    async def stats(self) -> dict[str, Any]:
        counts = self.metrics.counts
        final = counts["solutions.from_store"] + counts["solutions.solved"]
        return {
            "service": {
                "version": package_version(),
                "api": API_VERSION,
                "solver_version": self.hm.solver_version if self.hm else None,
                "config": self.config.to_json(),
            },
            "store": {"path": str(self.db_path), **(await self.store.counts()), "writes": self.store.writes,
                      "bad_lines_skipped": self.store.bad_lines},
            "requests": self.metrics.snapshot(),
            "solutions": {
                "asked": counts["solutions.asked"],
                "from_store": counts["solutions.from_store"],
                "solved": counts["solutions.solved"],
                "pending": counts["solutions.pending"],
                "cache_hit_rate": round(counts["solutions.from_store"] / final, 4) if final else None,
                **self.solves.stats(),
            },
            "hints": {"asked": counts["hints.asked"], "pending": counts["hints.pending"], **self.hints.stats()},
            "endgames": {"asked": counts["endgames.asked"], "pending": counts["endgames.pending"], **self.endgames.stats()},
            "curated": {"asked": counts["curated.asked"], "served_deals": counts["curated.deals"],
                        **(self.curator.stats() if self.curator else {})},
            "pool": self.pool.stats(),
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
        title="Half Moon deal-code service",
        version=package_version(),
        summary="Deals from codes, exact verdicts and winning lines, hints, curated deals, endgames.",
        description=(
            "The same library and results store as the `halfmoon` command line, over HTTP. "
            "Every answer has the shape of the matching `halfmoon … --json` output. Work that "
            "does not finish within a request's `wait` is answered 202 with `retry_after`; it goes "
            "on in the background and the next ask gets its answer. Errors are "
            "`{\"error\": {status, kind, type, message}}` with the CLI's message."
        ),
        lifespan=lifespan,
        responses={413: {"model": ErrorReply}, 422: {"model": ErrorReply}, 500: {"model": ErrorReply}},
    )
    app.state.service = service
    install_error_handlers(app)
    app.add_middleware(BodyLimit, max_bytes=config.max_body_bytes)
    app.add_middleware(RequestMetrics, metrics=service.metrics)  # outermost: counts the 413s too

    wait_query = Query(None, gt=0, le=config.wait_max,
                       description=f"Seconds to wait for the answer (default {config.wait_default:g}, "
                                   f"at most {config.wait_max:g}); then 202 and the work goes on.")
    code_path = PathParam(description="A deal code such as HM1-N-AAAAAAB (any case).", examples=["HM1-N-AAAAAAB"])
    bad = {400: {"model": ErrorReply, "description": "Invalid input (same message as the CLI)."}}
    busy = {503: {"model": ErrorReply, "description": "Solver pool full (Retry-After) or solver processes lost."}}
    pending = {202: {"model": Pending, "description": "Still working: ask again after `retry_after` seconds."}}

    # -- health and stats ----------------------------------------------------------------------

    @app.get("/healthz", response_model=Health, tags=["service"])
    async def healthz() -> JSONResponse:
        """Liveness and readiness: the store answers and the pool has workers."""
        try:
            await service.store.ping()
        except Exception as error:  # the store cannot be read: not ready
            return JSONResponse({"status": "unavailable", "workers": len(service.pool.pids()),
                                 "reason": f"results store: {error}"}, status_code=503)
        return JSONResponse({"status": "ok", "workers": len(service.pool.pids())})

    @app.get("/v1/stats", tags=["service"])
    async def stats() -> JSONResponse:
        """Store size, requests by route with latency, solves served and the store hit rate, the pool."""
        return JSONResponse(await service.stats())

    # -- deals ---------------------------------------------------------------------------------

    @app.get("/v1/deals/{code}", response_model=DealLayout, responses=bad, tags=["deals"])
    async def deal(code: str = code_path) -> JSONResponse:
        """The layout of a Half Moon deal, as `halfmoon deal CODE --json` prints it."""
        return JSONResponse(deal_from_code(code).to_json())

    @app.get("/v1/deals/{code}/solution", response_model=Solution, responses=bad | pending | busy, tags=["deals"])
    async def solution(code: str = code_path, wait: float | None = wait_query) -> JSONResponse:
        """Whether the deal can be won, exactly, and a winning line (`halfmoon solve CODE --json`)."""
        parsed = parse_code(code)
        entry = get_game(parsed.game)
        canonical = entry.code(parsed.number)
        if canonical != str(parsed):
            raise ApiError(400, f"deal code {parsed}: the {entry.name} solver takes codes like {canonical}")
        service.metrics.bump("solutions.asked")
        hit = await service.store.lookup(entry, parsed.number, canonical, config.solve_time_limit)
        if hit is not None:
            service.metrics.bump("solutions.from_store")
            return JSONResponse(service.solution_json(entry, hit, "store"))
        key = ("solve", canonical)
        task = service.solves.start(key, lambda: service.solve_now(entry, parsed.number))
        if await wait_for(task, service.wait(wait)):
            result = task.result()
            service.metrics.bump("solutions.solved")
            return JSONResponse(service.solution_json(entry, result, "solver"))
        service.metrics.bump("solutions.pending")
        return _pending(
            service.retry_after(key, config.solve_time_limit),
            f"still solving; the solve goes on (up to {config.solve_time_limit:g} s) and its answer is stored: ask again",
            code=canonical, verdict="unknown",
        )

    # -- hints ---------------------------------------------------------------------------------

    @app.post("/v1/hint", response_model=HintReply, responses=bad | pending | busy, tags=["deals"])
    async def hint(request: HintRequest = Body(...), wait: float | None = wait_query) -> JSONResponse:
        """Which moves keep the game winnable after the moves played (`halfmoon hint … --json`)."""
        if (request.code is None) == (request.layout is None):
            raise ApiError(422, "give a deal code or a layout (one of them)", "bad_request", "UsageError")
        if request.layout is not None:
            canonical, start = None, Position.from_json(request.layout)
        else:
            parsed = parse_code(request.code, expect_game="HM")
            canonical, start = str(parsed), Position.from_deal(deal_halfmoon(parsed.number))
        played = replay_line(start, request.moves)
        position = played.position
        service.metrics.bump("hints.asked")
        key = str(position)
        answer = service.hints.cached(key)
        source = "memory"
        if answer is None:
            budget = config.hint_time_limit * (1 + len(position.legal_moves()))
            task = service.hints.start(key, lambda: _hint_now(position, budget))
            if not await wait_for(task, service.wait(wait)):
                service.metrics.bump("hints.pending")
                return _pending(service.retry_after(("hint", key), budget),
                                "still solving the position and its moves; the answer is kept: ask again",
                                code=canonical, played=len(played.moves), verdict="unknown")
            answer, source = task.result(), "solver"
        return JSONResponse(answer | {"code": canonical, "played": len(played.moves), "source": source})

    async def _hint_now(position: Position, budget: float) -> dict[str, Any]:
        key = ("hint", str(position))
        service._since[key] = time.monotonic()
        try:
            outcome = await service.pool.run(work.hint_job, position.to_json(), config.hint_time_limit,
                                             hard_timeout=2 * budget + 30)
            return _unwrap(outcome)
        finally:
            service._since.pop(key, None)

    # -- curated deals -------------------------------------------------------------------------

    @app.get("/v1/curated", response_model=CuratedPage, responses=bad | {202: {"model": CuratedPage}}, tags=["deals"])
    async def curated(
        tier: str | None = Query(None, description=f"One of {', '.join(TIERS)}; any tier when left out."),
        count: int = Query(5, ge=1, le=config.curated_max_count, description="How many deals."),
        after: str | None = Query(None, description="The `next` code of the previous page."),
        wait: float | None = wait_query,
    ) -> JSONResponse:
        """Winnable deals rated by difficulty, from the store, generated on demand when too few.

        Deals come in the order they were curated (a feed): `after` pages on from a deal, and
        new deals are appended at the end. Each deal is `halfmoon generate --json`'s object.
        """
        if tier is not None and tier not in TIERS:
            raise ApiError(400, f"tier {tier!r}: expected one of {', '.join(TIERS)}", type_="InputError")
        assert service.hm is not None and service.curator is not None
        entry, curator = service.hm, service.curator
        after_code = str(parse_code(after, expect_game=entry.tag)) if after is not None else None
        service.metrics.bump("curated.asked")
        deadline = time.monotonic() + service.wait(wait)
        while True:
            # A few rows beyond `count`: a stored line that fails to replay is skipped, not served.
            rows = await service.store.feed(entry.tag, entry.solver_version, curator.rating_version, tier, after_code,
                                            count + 16)
            deals, last = await asyncio.to_thread(_replayed, entry, rows, count, after_code)
            complete = len(deals) >= count
            if complete:
                break
            curator.want(tier, count - len(deals))
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                break
            await curator.changed(remaining)
        service.metrics.bump("curated.deals", len(deals))
        page: dict[str, Any] = {
            "game": entry.tag, "tier": tier, "count": count, "after": after_code, "deals": deals,
            "next": last, "complete": complete,
        }
        if complete:
            return JSONResponse(page)
        seconds = max(1, min(math.ceil(config.wait_default), 30))
        page |= {"pending": True, "retry_after": seconds,
                 "reason": f"{len(deals)} of {count} deals so far; more are being rated: ask again"}
        return JSONResponse(page, status_code=202, headers={"Retry-After": str(seconds)})

    # -- endgames ------------------------------------------------------------------------------

    @app.get("/v1/endgames", tags=["endgames"])
    async def endgame_games() -> JSONResponse:
        """The games `POST /v1/endgames/{game}` answers for (every registered endgame adapter)."""
        return JSONResponse({"games": [{"name": name, "title": adapter.title} for name, adapter in adapters().items()]})

    @app.post("/v1/endgames/{game}", response_model=EndgameReply,
              responses=bad | pending | busy | {404: {"model": ErrorReply}}, tags=["endgames"])
    async def endgame(
        game: str = PathParam(description="An endgame game, e.g. shithead (GET /v1/endgames lists them)."),
        request: EndgameRequest = Body(...),
        wait: float | None = wait_query,
    ) -> JSONResponse:
        """The exact endgame answer for a position (`halfmoon endgame GAME --json`)."""
        try:
            adapter = get_adapter(game)
        except UnknownGameError as error:
            raise ApiError(404, str(error), "not_found", type(error).__name__) from None
        if (request.position is None) == (request.code is None):
            raise ApiError(422, "give a position or a code (one of them)", "bad_request", "UsageError")
        if request.position is not None:
            if request.moves.strip():
                raise ApiError(422, "moves go with a code (a position is already the position)", "bad_request", "UsageError")
            position = adapter.position_from_json(request.position)
        else:
            position = adapter.position_from_code(request.code, request.moves)
        limits = {
            "max_seconds": _capped("max_seconds", request.max_seconds, config.endgame_max_seconds),
            "max_positions": _capped("max_positions", request.max_positions, config.endgame_max_positions),
            "max_memory_bytes": config.endgame_memory_mb * 1024 * 1024,
        }
        canonical = adapter.position_to_json(position)
        service.metrics.bump("endgames.asked")
        key = (adapter.name, json.dumps(canonical, sort_keys=True), request.until, request.seed, request.method,
               tuple(sorted(limits.items())))
        answer = service.endgames.cached(key)
        source = "memory"
        if answer is None:
            budget = float(limits["max_seconds"])
            task = service.endgames.start(key, lambda: _endgame_now(key, adapter.name, canonical, request, limits))
            if not await wait_for(task, service.wait(wait)):
                service.metrics.bump("endgames.pending")
                return _pending(service.retry_after(key, budget),
                                "still solving; the answer is kept: ask again", game=adapter.name)
            answer, source = task.result(), "solver"
        return JSONResponse(answer | {"source": source})

    def _capped(name: str, asked: float | int | None, most: float | int) -> float | int:
        if asked is None:
            return most
        if asked > most:
            raise ApiError(400, f"{name} {asked}: this server allows at most {most}", type_="LimitError")
        return asked

    async def _endgame_now(key: Any, game: str, position: dict[str, Any], request: EndgameRequest,
                           limits: dict[str, Any]) -> dict[str, Any]:
        service._since[key] = time.monotonic()
        try:
            outcome = await service.pool.run(work.endgame_job, game, position, request.until, request.seed, limits,
                                             request.method, hard_timeout=2 * limits["max_seconds"] + 60)
            return _unwrap(outcome)
        finally:
            service._since.pop(key, None)

    return app
