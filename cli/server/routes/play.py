"""The routes a player needs beyond deals, solutions and exact hints.

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
from typing import TYPE_CHECKING, Any

from fastapi import APIRouter, Body, Request
from fastapi.responses import JSONResponse
from pydantic import Field, create_model

import halfmoon

from .. import work
from ..contract import Contract
from ..flights import Flights
from ..models import JsonInt
from ..replies import BAD, BUSY, PENDING, body_of, client_of, pending, wait_query

if TYPE_CHECKING:
    from ..app import Service

#: Positions a hint solves at most (as in routes/deals.py): bounds the hard timeout of an analysis.
HINT_POSITIONS = 64

#: Fair hints on this server: the most samples a request may ask for, and the seconds one may take.
FAIR_MAX_SAMPLES = 200
FAIR_BUDGET = 30.0


def fair_hint_request(hint_request: Any) -> Any:
    """A position (as for ``/v1/hint``), and how to sample what the player cannot see."""
    return create_model(
        "FairHintRequest", __base__=hint_request,
        samples=(JsonInt, Field(None, ge=1, le=FAIR_MAX_SAMPLES, description=f"Arrangements of the hidden cards to "
                                f"sample (default 40, at most {FAIR_MAX_SAMPLES}).")),
        seed=(JsonInt, Field(0, ge=0, le=2**53 - 1, description="Sampling seed: the same seed gives the same answer "
                                                                 "(at most 2^53 - 1, exact in JSON).")),
    )


def router(service: Service, contract: Contract) -> APIRouter:
    """The three routes, solving in `service`'s pool under its limits; bodies are the contract's
    hint request (as for ``/v1/hint``), checked as /v1/hint's are."""
    routes = APIRouter(tags=["deals"])
    config = service.config
    wait_param = wait_query(config)
    fair_request = fair_hint_request(contract.hint_request)
    fair_answers: Flights[dict[str, Any]] = Flights(256)
    analyses: Flights[dict[str, Any]] = Flights(256)

    async def played(request: Any) -> tuple[Any, str | None, Any, str, Any]:
        """The start, game, rules and moves of a request, and the line replayed (a bad one: 400 now)."""
        return await contract.solitaire_line(request, "this")

    async def answered(flights: Flights[dict[str, Any]], key: str, budget: float, job: Any, args: tuple[Any, ...],
                       wait: float | None, line: Any, client: str) -> JSONResponse:
        head = {"code": line.code, "played": len(line.moves)}
        answer = flights.cached(key)
        source = "memory"
        if answer is None:
            task = service.start_work(flights, key, client, lambda: service.in_pool(
                key, job, *args, hard_timeout=2 * budget + 30))
            if not await service.await_work(task, service.wait(wait)):
                return pending(service.retry_after(key, budget), "still solving; the answer is kept: ask again",
                               **head)
            answer, source = task.result(), "solver"
        return JSONResponse(answer | head | {"source": source})

    @routes.post("/v1/replay", responses=BAD)
    @body_of(contract.hint_request)
    async def replay(request: Any = Body(...)) -> JSONResponse:
        """Play moves on a solitaire deal or layout: `halfmoon replay … --json` (the position, score,
        status) with ``legal``, the moves that can be played next. A move that cannot be played is a
        400 whose message is the rules' own, after ``move N ('…'):``. Instant: nothing is solved."""
        return JSONResponse((await played(request))[4].to_json())

    @routes.post("/v1/fair-hint", responses=BAD | PENDING | BUSY)
    @body_of(fair_request)
    async def fair_hint(http: Request, request: Any = Body(...), wait: float | None = wait_param) -> JSONResponse:
        """A fair hint (`halfmoon hint … --visible --json`): judged from what the player sees. For each
        legal move, the share of sampled arrangements of the hidden cards (consistent with the tops,
        pile heights, reserve and cards removed) in which the game stays winnable, with a 95%
        interval. Seeded: the same request gives the same answer. Exact hints (`/v1/hint`) see
        every card."""
        _, game, rules, _, line = await played(request)
        worker_game = line.game if rules is None else None
        key = json.dumps(["fair", worker_game, rules, line.position_json, request.samples, request.seed],
                         sort_keys=True)
        return await answered(fair_answers, key, FAIR_BUDGET, work.fair_hint_job,
                              (line.position_json, worker_game, rules, request.samples, request.seed, FAIR_BUDGET),
                              wait, line, client_of(http))

    @routes.post("/v1/analyze", responses=BAD | PENDING | BUSY)
    @body_of(contract.hint_request)
    async def analyze(http: Request, request: Any = Body(...), wait: float | None = wait_param) -> JSONResponse:
        """Where did I go wrong (`halfmoon analyze … --json`): the first move after which the game could
        no longer be won (a binary search over the line, every card known), and the moves that would
        have kept it winnable there."""
        start, game, rules, moves, line = await played(request)
        seconds = config.hint_time_limit
        key = json.dumps(["analyze", start, game, rules, [str(m) for m in line.moves], seconds], sort_keys=True)
        budget = seconds * (4 + len(line.moves).bit_length() + HINT_POSITIONS)
        return await answered(analyses, key, budget, work.analyze_job,
                              (start, game, rules, moves, halfmoon.Limits(seconds=seconds)), wait, line,
                              client_of(http))

    return routes
