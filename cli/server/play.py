"""The endpoints a player needs beyond deals, solutions and exact hints: mounted by `install_play`.

- ``POST /v1/replay``: play a line; the position, score, status and the legal moves, or a 400
  with the rules' message for the first move that cannot be played (the page's referee);
- ``POST /v1/fair-hint``: `halfmoon.fair_hint`, judged from what a player sees (sampled);
- ``POST /v1/analyze``: `halfmoon.analyze`, the move after which the game could no longer be won.

Like the rest of the service: inputs are checked in the event loop (a bad code or move is a
400 at once, even when the pool is busy), the solving runs in the solver pool, identical work
in progress runs once, answers are remembered, and work that outlasts the request's wait is
answered 202 with ``retry_after`` while it goes on.
"""

from __future__ import annotations

import json
import time
from typing import Any, Callable

from fastapi import Body, FastAPI, Query
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict, Field

from . import work
from .errors import ApiError, WorkerBug
from .flights import Flights, wait_for
from .models import ErrorReply, Pending

#: Fair hints on this server: the most samples a request may ask for, and the seconds one may take.
FAIR_MAX_SAMPLES = 200
FAIR_BUDGET = 30.0


class PlayRequest(BaseModel):
    """A position: a deal code (any solitaire) or a layout with its game, and the moves played."""

    model_config = ConfigDict(extra="forbid")
    code: str | None = Field(None, description="A deal code of a solitaire, e.g. HM1-N-AAAAAAB or EL1-N-AAAAAAB.",
                             examples=["HM1-N-AAAAAAB"])
    layout: dict[str, Any] | None = Field(None, description="A layout (the `deal --json` shape) instead of a code.")
    game: str | None = Field(None, description="The game of a layout (default HM): a tag such as EL, or a name.")
    moves: str | list[str] = Field("", description="Moves played, e.g. \"4+10, 1+3\" or [\"4+10\", \"1+3\"].")


class FairHintRequest(PlayRequest):
    samples: int | None = Field(None, ge=1, le=FAIR_MAX_SAMPLES,
                                description="Arrangements of the hidden cards to sample (default 40).")
    seed: int = Field(0, ge=0, lt=2**64, description="Sampling seed: the same seed gives the same answer.")


def _start(request: PlayRequest) -> tuple[Any, str | None]:
    if (request.code is None) == (request.layout is None):
        raise ApiError(422, "give a deal code or a layout (one of them)", "bad_request", "UsageError")
    if request.code is not None:
        if request.game is not None:
            raise ApiError(422, "game goes with a layout (a code names its game)", "bad_request", "UsageError")
        return request.code, None
    return request.layout, request.game or "HM"


def _moves(request: PlayRequest) -> str:
    return request.moves if isinstance(request.moves, str) else " ".join(request.moves)


def replayed(start: Any, game: str | None, moves: str) -> dict[str, Any]:
    """`halfmoon.replay`'s JSON and the legal moves from where it ends (multiplayer games refused)."""
    import halfmoon

    played = halfmoon.replay(start, moves, game=game)
    if played.score is None and played.status == "over":
        raise halfmoon.UnsupportedError("replay here is for solitaires: multiplayer games have `endgame`")
    return played.to_json()


# -- what the solver processes run (top-level functions, picklable) ---------------------------------


def fair_hint_job(start: Any, game: str | None, moves: str, samples: int | None, seed: int,
                  budget: float) -> work.Done | work.Failed:
    def run() -> dict[str, Any]:
        import halfmoon

        extra = {"samples": samples} if samples is not None else {}
        return halfmoon.fair_hint(start, moves=moves, game=game, seed=seed, budget=budget, **extra).to_json()

    return work._guarded(run)


def analyze_job(start: Any, game: str | None, moves: str, seconds: float) -> work.Done | work.Failed:
    def run() -> dict[str, Any]:
        import halfmoon

        return halfmoon.analyze(start, moves=moves, game=game, limits=halfmoon.Limits(seconds=seconds)).to_json()

    return work._guarded(run)


def install_play(app: FastAPI, service: Any, unwrap: Callable[[Any], Any], pending: Callable[..., JSONResponse],
                 wait_query: Any) -> None:
    """Add the three endpoints to `app`, solving in `service.pool` (its `config` gives the limits).

    `unwrap` turns a worker's outcome into its value or the matching error answer, `pending` makes
    a 202 answer, `wait_query` is the service's ``?wait=`` parameter.
    """
    config = service.config
    fair_answers: Flights[dict[str, Any]] = Flights(256)
    analyses: Flights[dict[str, Any]] = Flights(256)
    since: dict[Any, float] = {}
    bad = {400: {"model": ErrorReply, "description": "Invalid input (same message as the CLI)."}}
    busy = {503: {"model": ErrorReply, "description": "Solver pool full (Retry-After) or solver processes lost."}}
    later = {202: {"model": Pending, "description": "Still working: ask again after `retry_after` seconds."}}

    async def solved(flights: Flights[dict[str, Any]], key: Any, budget: float, job: Callable[..., Any],
                     args: tuple[Any, ...], wait: float | None, head: dict[str, Any]) -> JSONResponse:
        answer = flights.cached(key)
        source = "memory"
        if answer is None:
            async def make() -> dict[str, Any]:
                since[key] = time.monotonic()
                try:
                    return unwrap(await service.pool.run(job, *args, hard_timeout=2 * budget + 30))
                finally:
                    since.pop(key, None)

            task = flights.start(key, make)
            if not await wait_for(task, config.wait_default if wait is None else wait):
                left = budget - (time.monotonic() - since.get(key, time.monotonic()))
                return pending(min(config.wait_default, max(1.0, left)),
                               "still solving; the answer is kept: ask again", **head)
            answer, source = task.result(), "solver"
        return JSONResponse(answer | {"source": source})

    @app.post("/v1/replay", responses=bad, tags=["deals"])
    async def replay(request: PlayRequest = Body(...)) -> JSONResponse:
        """Play moves on a solitaire deal (`halfmoon replay … --json`) plus ``legal``, the moves
        that can be played next. A move that cannot be played is a 400 whose message is the
        rules' own, after ``move N ('…'):``."""
        start, game = _start(request)
        return JSONResponse(replayed(start, game, _moves(request)))

    @app.post("/v1/fair-hint", responses=bad | later | busy, tags=["deals"])
    async def fair_hint(request: FairHintRequest = Body(...), wait: float | None = wait_query) -> JSONResponse:
        """A fair hint (`halfmoon hint … --visible --json`): for each legal move, the share of sampled
        arrangements of the hidden cards, consistent with what the player sees, in which the game
        stays winnable, with a 95% interval. Seeded: the same request gives the same answer."""
        start, game = _start(request)
        moves = _moves(request)
        played = replayed(start, game, moves)  # a bad code or move: 400 now
        key = ("fair", json.dumps(start, sort_keys=True), game, tuple(played["moves"]), request.samples, request.seed)
        return await solved(fair_answers, key, FAIR_BUDGET, fair_hint_job,
                            (start, game, moves, request.samples, request.seed, FAIR_BUDGET), wait,
                            {"code": played["code"], "played": played["played"]})

    @app.post("/v1/analyze", responses=bad | later | busy, tags=["deals"])
    async def analyze(request: PlayRequest = Body(...), wait: float | None = wait_query) -> JSONResponse:
        """Where did I go wrong (`halfmoon analyze … --json`): the first move after which the game
        could no longer be won, and the moves that would have kept it winnable there."""
        start, game = _start(request)
        moves = _moves(request)
        played = replayed(start, game, moves)
        seconds = config.hint_time_limit
        key = ("analyze", json.dumps(start, sort_keys=True), game, tuple(played["moves"]), seconds)
        budget = seconds * (4 + len(played["moves"]).bit_length() + len(played.get("legal", ())))
        return await solved(analyses, key, budget, analyze_job, (start, game, moves, seconds), wait,
                            {"code": played["code"], "played": played["played"]})
