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
import json
import math
import re
import time
from contextlib import asynccontextmanager
from importlib import metadata
from typing import Any, AsyncIterator, Literal

from fastapi import Body, FastAPI, Query, Request
from fastapi import Path as PathParam
from fastapi.responses import JSONResponse

import halfmoon

from . import work
from .config import ServiceConfig
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
from .models import (
    CARD_PATTERN,
    CuratedPage,
    DealLayout,
    EndgameGames,
    EndgameReply,
    ErrorReply,
    Health,
    HintReply,
    Pending,
    Solution,
    endgame_request,
    hint_request,
)
from .page import install_page
from .play import install_play
from .pool import SolverPool
from .replies import client_of as _client
from .replies import pending as _pending
from .storage import StoreGateway

API_VERSION = "v1"
#: A hint spends at most this many times its per-position limit in all (the facade's rule): its budget.
HINT_TOTAL = 4


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


def _multiplayer() -> dict[str, halfmoon.GameInfo]:
    return {game.name: game for game in halfmoon.games() if game.kind == "multiplayer"}


def _endgame_game(name: str) -> halfmoon.GameInfo:
    """A multiplayer game by name or tag; else 404 with the CLI's message."""
    games = _multiplayer()
    found = next((g for g in games.values() if name.lower() in (g.name, g.tag.lower())), None)
    if found is None:
        raise ApiError(404, f"unknown endgame game {name!r}: expected one of {', '.join(games)}", "not_found",
                       "UnknownGameError")
    return found


# -- the contract: what the OpenAPI schema says is accepted, enforced with the CLI's messages -------------


def words_pattern(words: Any) -> str:
    """A pattern matching exactly one of `words`, any case (Python and ECMAScript alike)."""
    def one(word: str) -> str:
        return "".join(f"[{c.upper()}{c.lower()}]" if c.isalpha() else re.escape(c) for c in word)

    return "^(?:" + "|".join(sorted({one(word) for word in words}, key=lambda w: (-len(w), w))) + ")$"


class Contract:
    """The patterns of the API description, built from the catalogue, and the checks that enforce them.

    A value the schema refuses is refused here with the library's own message when it has one
    (400), so clients can validate before they call and get the CLI's words when they did not.
    """

    def __init__(self, curated_game: str) -> None:
        games = halfmoon.games()
        solitaires = [g for g in games if g.kind != "multiplayer"]
        multiplayer = [g for g in games if g.kind == "multiplayer"]
        self.any_code = halfmoon.code_pattern()
        self.solitaire_code = halfmoon.code_pattern([g.tag for g in solitaires])
        self.multiplayer_code = halfmoon.code_pattern([g.tag for g in multiplayer])
        curated = next(g for g in games if curated_game.upper() in (g.tag, g.name.upper()))
        self.curated_code = halfmoon.code_pattern([curated.tag])
        self.solitaire_game = words_pattern([w for g in solitaires for w in (g.tag, g.name)])
        self.endgame_game = words_pattern([w for g in multiplayer for w in (g.tag, g.name)])
        aliases = []
        for stem in halfmoon.rule_presets():
            rules = halfmoon.rule_file(stem)
            aliases += [stem, rules.name, rules.name.replace(" ", "-")] + ([rules.tag] if rules.tag else [])
        self.preset = words_pattern(aliases)

    @staticmethod
    def code(text: str, pattern: str) -> str:
        """A deal code exactly as the schema describes it (else the library's message, or why not)."""
        if re.fullmatch(pattern, text):
            return text
        halfmoon.parse_code(text)  # raises the CLI's message for a code it cannot read
        raise halfmoon.InputError(f"deal code {text!r}: expected exactly a code such as HM1-N-AAAAAAB (the game's "
                                  f"tag, version 1 and its variant; nothing around it)")

    def game(self, text: str) -> str:
        if re.fullmatch(self.solitaire_game, text):
            return text
        names = ", ".join(f"{g.tag} ({g.name})" for g in halfmoon.games() if g.kind != "multiplayer")
        raise halfmoon.UnknownGameError(f"game {text!r}: expected a solitaire's tag or name: {names}")

    def rules(self, rules: str | dict[str, Any] | None) -> dict[str, Any] | None:
        """A rule set as JSON: a preset (by name or tag) or the rule set given. The service reads no files."""
        if rules is None or isinstance(rules, dict):
            return rules
        if not re.fullmatch(self.preset, rules):
            halfmoon.rule_preset_text(rules)  # the library's message for an unknown preset
            raise halfmoon.RuleFileError(f"rules {rules!r}: expected exactly a preset's name or tag "
                                         f"({', '.join(halfmoon.rule_presets())})")
        return json.loads(halfmoon.rule_preset_text(rules))

    def start(self, request: Any) -> tuple[Any, str | None, dict[str, Any] | None, str]:
        """The start, game, rules and moves of a body with a code or a layout (`hint_request`'s model)."""
        if (request.code is None) == (request.layout is None):
            raise ApiError(422, "give a deal code or a layout (one of them)", "bad_request", "UsageError")
        if request.code is not None and (request.game is not None or request.rules is not None):
            raise ApiError(422, "game and rules go with a layout (a deal code names its game)", "bad_request",
                           "UsageError")
        if request.game is not None and request.rules is not None:
            raise ApiError(422, "give the layout's game or its rules, not both", "bad_request", "UsageError")
        rules = self.rules(request.rules)
        if request.layout is not None:
            self.layout(request.layout)
            start: Any = request.layout
            game = self.game(request.game) if request.game is not None else ("HM" if rules is None else None)
        else:
            start, game = self.code(request.code, self.any_code), None
        moves = request.moves if isinstance(request.moves, str) else ", ".join(request.moves)
        return start, game, rules, moves

    async def solitaire_line(self, request: Any, question: str) -> tuple[Any, str | None, Any, str, Any]:
        """`start` and the line of moves replayed (off the event loop): a bad move is a 400 now."""
        start, game, rules, moves = self.start(request)
        line = await asyncio.to_thread(halfmoon.replay, start, moves, game=game, rules=rules)
        if line.game in _multiplayer():
            raise halfmoon.UnsupportedError(f"{_multiplayer()[line.game].title} is a multiplayer game: {question} is "
                                            f"for solitaires; ask `endgame` about its positions")
        return start, game, rules, moves, line

    @staticmethod
    def layout(layout: dict[str, Any]) -> None:
        """The layout schema's shapes and card spellings (the game's own shape is the facade's check)."""
        if "piles" not in layout and "grid" not in layout:
            raise halfmoon.PositionError("layout: missing key 'piles' (or 'grid')")

        def cards(where: str, value: Any, most: int, nulls: bool) -> None:
            if not isinstance(value, list):
                raise halfmoon.PositionError(f"layout: {where!r} must be a list")
            if len(value) > most:
                raise halfmoon.PositionError(f"layout: {where!r} holds {len(value)} items, at most {most}")
            for index, card in enumerate(value):
                if card is None and nulls:
                    continue
                if not isinstance(card, str) or not re.fullmatch(CARD_PATTERN, card):
                    raise halfmoon.PositionError(f"layout: {where}[{index}]: expected a card such as '5S' or 'TD', "
                                                 f"got {str(card)[:20]!r}")

        piles = layout.get("piles", [])
        if not isinstance(piles, list) or len(piles) > 64:
            raise halfmoon.PositionError("layout: 'piles' must be a list of at most 64 piles")
        for number, pile in enumerate(piles):
            cards(f"piles[{number}]", pile, 104, False)
        for key, most, nulls in (("reserve", 64, True), ("stock", 416, False), ("grid", 64, True)):
            if key in layout:
                cards(key, layout[key], most, nulls)


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
        self.atlas = halfmoon.open_atlas(config.atlas_path) if config.atlas_path is not None else None

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

    def atlas_entry(self, code: str) -> halfmoon.AtlasEntry | None:
        """What the atlas holds for a solitaire deal code (None: no atlas configured)."""
        if self.atlas is None:
            return None
        self.metrics.bump("atlas.lookups")
        return halfmoon.atlas_lookup(code, self.atlas, strict=False)

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
    HintRequest = hint_request(contract.solitaire_code, contract.solitaire_game, contract.preset)  # noqa: N806
    EndgameRequest = endgame_request(contract.multiplayer_code, config.endgame_max_seconds,  # noqa: N806
                                     config.endgame_max_positions)

    wait_query = Query(None, gt=0, le=config.wait_max, allow_inf_nan=False,
                       description=f"Seconds to wait for the answer (default {config.wait_default:g}, "
                                   f"at most {config.wait_max:g}); then 202 and the work goes on.")
    install_page(app, config.cors_origins)  # the web page at /, /docs and /redoc offline, CORS
    install_play(app, service, wait_query, HintRequest, contract)  # /v1/replay, /v1/fair-hint, /v1/analyze
    code_path = PathParam(description="A deal code of any game such as HM1-N-AAAAAAB or SH1-2-AAAAAAB (any case).",
                          examples=["HM1-N-AAAAAAB"], json_schema_extra={"pattern": contract.any_code})
    solitaire_path = PathParam(description="A solitaire deal code such as HM1-N-AAAAAAB (any case).",
                               examples=["HM1-N-AAAAAAB"], json_schema_extra={"pattern": contract.solitaire_code})
    bad: dict[int | str, dict[str, Any]] = {
        400: {"model": ErrorReply, "description": "Invalid input (same message as the CLI)."}}
    busy: dict[int | str, dict[str, Any]] = {
        503: {"model": ErrorReply, "description": "Solver pool full (Retry-After) or solver processes lost."},
        429: {"model": ErrorReply, "description": "This client has its share of solver jobs running (Retry-After)."}}
    missing: dict[int | str, dict[str, Any]] = {
        404: {"model": ErrorReply, "description": "No such curated deal (the `after` cursor)."}}
    pending: dict[int | str, dict[str, Any]] = {
        202: {"model": Pending, "description": "Still working: ask again after `retry_after` seconds."}}

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
        """The dealt position of a code of any game, as `halfmoon deal CODE --json` prints it.

        With an atlas (`serve --atlas DIR`), a solitaire deal also has "winnability": what the
        atlas holds (`halfmoon atlas lookup CODE --json`, "source": "atlas"; verdict null when the
        atlas has not done the deal).
        """
        dealt = halfmoon.deal(contract.code(code, contract.any_code))
        data = dealt.to_json()
        if service.atlas is not None and dealt.code is not None and dealt.game not in _multiplayer():
            entry = service.atlas_entry(dealt.code)
            assert entry is not None
            data["winnability"] = entry.to_json()
        return JSONResponse(data)

    @app.get("/v1/deals/{code}/solution", response_model=Solution, responses=bad | pending | busy, tags=["deals"])
    async def solution(request: Request, code: str = solitaire_path, wait: float | None = wait_query,
                       verdict_only: bool = Query(False, description="Only the verdict: from the atlas when it has "
                                                                     "the deal (no solving)."),
                       ) -> JSONResponse:
        """Whether a solitaire deal can be won, exactly, and a winning line (`halfmoon solve CODE --json`).

        With an atlas (`serve --atlas DIR`): a deal it has decided is answered from it at once
        ("source": "atlas") when it is unwinnable or with `verdict_only`; a winnable deal's line is
        still solved (or read from the store) and replayed.
        """
        dealt = halfmoon.deal(contract.code(code, contract.any_code))
        canonical = dealt.code
        assert canonical is not None
        service.metrics.bump("solutions.asked")
        entry = service.atlas_entry(canonical) if dealt.game not in _multiplayer() else None
        decided = entry is not None and entry.verdict in (halfmoon.Verdict.WINNABLE, halfmoon.Verdict.UNWINNABLE)
        if decided and (verdict_only or entry.verdict is halfmoon.Verdict.UNWINNABLE):  # type: ignore[union-attr]
            return JSONResponse(service.atlas_answer(canonical))
        limits, finished = service.solve_limits(), service.solves.finished
        hit = await service.store.from_store(canonical, limits)  # a multiplayer code: 400 here
        if hit is None and service.solves.finished != finished:
            # a solve ended (its answer stored first) while the store was read: read it again, or
            # this ask would start the same solve a second time (nothing is awaited from here to
            # start_work, so a solve is either still running, and joined, or in the store)
            hit = await service.store.from_store(canonical, limits)
        if hit is not None:
            service.metrics.bump("solutions.from_store")
            return JSONResponse(hit.to_json() | {"source": "store"})
        key = ("solve", canonical)
        task = service.start_work(service.solves, key, _client(request), lambda: service.solve_now(canonical))
        if await service.await_work(task, service.wait(wait)):
            answer = task.result()
            service.metrics.bump("solutions.solved")
            if decided and answer["verdict"] != entry.verdict.value:  # type: ignore[union-attr]
                if answer["verdict"] != "unknown":
                    raise halfmoon.SolverBug(f"{canonical}: the atlas ({entry.shard}) says "  # type: ignore[union-attr]
                                             f"{entry.verdict.value}, the solver {answer['verdict']}")  # type: ignore[union-attr]
                # The solve ran out of time: the atlas's verdict, without a line.
                return JSONResponse(service.atlas_answer(canonical) | {
                    "nodes": answer["nodes"], "seconds": answer["seconds"], "stopped": answer["stopped"]})
            return JSONResponse(answer | {"source": "solver"})
        service.metrics.bump("solutions.pending")
        return _pending(
            service.retry_after(key, config.solve_time_limit),
            f"still solving; the solve goes on (up to {config.solve_time_limit:g} s) and its answer is stored: ask again",
            code=canonical, verdict="unknown",
        )

    # -- hints ---------------------------------------------------------------------------------

    def body_of(model: Any) -> Any:
        """Route decorator: the body parameter `request` is of `model`, a class built for this app."""
        def mark(route: Any) -> Any:
            route.__annotations__["request"] = model
            return route
        return mark

    @app.post("/v1/hint", response_model=HintReply, responses=bad | pending | busy, tags=["deals"])
    @body_of(HintRequest)
    async def hint(http: Request, request: Any = Body(...), wait: float | None = wait_query) -> JSONResponse:
        """Which moves keep the game winnable after the moves played (`halfmoon hint … --json`), any solitaire."""
        _, _, rules, _, played = await contract.solitaire_line(request, "`hint`")
        service.metrics.bump("hints.asked")
        worker_game = played.game if rules is None else None
        key = json.dumps([worker_game, rules, played.position_json], sort_keys=True)
        answer = service.hints.cached(key)
        source = "memory"
        if answer is None:
            budget = config.hint_time_limit * HINT_TOTAL
            limits = halfmoon.Limits(seconds=config.hint_time_limit)
            task = service.start_work(service.hints, key, _client(http), lambda: service.in_pool(
                ("hint", key), work.hint_job, played.position_json, worker_game, rules, limits,
                hard_timeout=2 * budget + 30))
            if not await service.await_work(task, service.wait(wait)):
                service.metrics.bump("hints.pending")
                return _pending(service.retry_after(("hint", key), budget),
                                "still solving the position and its moves; the answer is kept: ask again",
                                code=played.code, played=len(played.moves), verdict="unknown")
            answer, source = task.result(), "solver"
        return JSONResponse(answer | {"code": played.code, "played": len(played.moves), "source": source})

    # -- curated deals -------------------------------------------------------------------------

    @app.get("/v1/curated", response_model=CuratedPage, responses=bad | missing | {202: {"model": CuratedPage}}, tags=["deals"])
    async def curated(
        tier: Literal["easy", "medium", "hard", "expert"] | None = Query(
            None, description="The difficulty tier; any tier when left out."),
        count: int = Query(5, ge=1, le=config.curated_max_count, description="How many deals."),
        after: str | None = Query(None, description="The `next` code of the previous page (404 when the store has "
                                                    "no such curated deal).",
                                  json_schema_extra={"pattern": contract.curated_code}),
        wait: float | None = wait_query,
    ) -> JSONResponse:
        """Winnable deals rated by difficulty, from the store, generated on demand when too few.

        Deals come in the order they were curated (a feed): `after` pages on from a deal, and
        new deals are appended at the end. Each deal is `halfmoon generate --json`'s object.
        """
        assert service.curator is not None
        curator = service.curator
        service.metrics.bump("curated.asked")
        deadline = time.monotonic() + service.wait(wait)
        if after is not None:
            contract.code(after, contract.curated_code)
        while True:
            page = await service.store.curated(config.curated_game, tier, after, count, config.rating_params)
            if page.complete:
                break
            curator.want(tier, count - len(page.deals))
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                break
            await curator.changed(remaining)
            if service.closing.is_set():
                raise ShuttingDown("the service is shutting down; ask again shortly")
        service.metrics.bump("curated.deals", len(page.deals))
        service.metrics.bump("curated.skipped", page.skipped)
        body = page.to_json()
        if page.complete:
            return JSONResponse(body)
        seconds = max(1, min(math.ceil(config.wait_default), 30))
        body |= {"pending": True, "retry_after": seconds,
                 "reason": f"{len(page.deals)} of {count} deals so far; more are being rated: ask again"}
        return JSONResponse(body, status_code=202, headers={"Retry-After": str(seconds)})

    # -- endgames ------------------------------------------------------------------------------

    @app.get("/v1/endgames", response_model=EndgameGames, tags=["endgames"])
    async def endgame_games() -> JSONResponse:
        """The games `POST /v1/endgames/{game}` answers for (the catalogue's multiplayer games)."""
        return JSONResponse({"games": [game.to_json() for game in _multiplayer().values()]})

    @app.post("/v1/endgames/{game}", response_model=EndgameReply,
              responses=bad | pending | busy | {404: {"model": ErrorReply}}, tags=["endgames"])
    @body_of(EndgameRequest)
    async def endgame(
        http: Request,
        game: str = PathParam(description="A multiplayer game's name or tag, e.g. shithead (GET /v1/endgames lists "
                                          "them).", json_schema_extra={"pattern": contract.endgame_game}),
        request: Any = Body(...),
        wait: float | None = wait_query,
    ) -> JSONResponse:
        """The exact endgame answer for a position (`halfmoon endgame GAME --json`)."""
        info = _endgame_game(game)
        if (request.position is None) == (request.code is None):
            raise ApiError(422, "give a position or a code (one of them)", "bad_request", "UsageError")
        if request.position is not None:
            if request.moves.strip():
                raise ApiError(422, "moves go with a code (a position is already the position)", "bad_request",
                               "UsageError")
            start: Any = request.position
        else:
            start = contract.code(request.code, contract.any_code)
            if halfmoon.parse_code(request.code).game != info.tag:
                raise halfmoon.InputError(f"deal code {request.code}: not a {info.title} code (expected {info.tag}1-…)")
        shown = await asyncio.to_thread(halfmoon.endgame_position, start, game=info.name,  # reads and plays moves
                                        moves=request.moves)
        position = shown.report["position"]
        limits = halfmoon.Limits(
            seconds=_capped(request.max_seconds, config.endgame_max_seconds),
            nodes=_capped(request.max_positions, config.endgame_max_positions),
            memory_bytes=config.endgame_memory_mb * 1024 * 1024,
        )
        service.metrics.bump("endgames.asked")
        key = json.dumps([info.name, position, request.until, request.seed, request.method, limits.to_json()],
                         sort_keys=True)
        answer = service.endgames.cached(key)
        source = "memory"
        if answer is None:
            budget = float(limits.seconds or config.endgame_max_seconds)
            task = service.start_work(service.endgames, key, _client(http), lambda: service.in_pool(
                key, work.endgame_job, info.name, position, request.until, request.seed, limits, request.method,
                hard_timeout=2 * budget + 60))
            if not await service.await_work(task, service.wait(wait)):
                service.metrics.bump("endgames.pending")
                return _pending(service.retry_after(key, budget),
                                "still solving; the answer is kept: ask again", game=info.name)
            answer, source = task.result(), "solver"
        return JSONResponse(answer | {"source": source})

    def _capped(asked: float | int | None, most: float | int) -> Any:
        return most if asked is None else asked  # the request model holds it to the server's range

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
