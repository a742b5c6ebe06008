"""``GET /v1/endgames`` (the multiplayer games) and ``POST /v1/endgames/{game}``: the exact answer for
an endgame position, within the server's endgame limits."""

from __future__ import annotations

import asyncio
import json
from typing import TYPE_CHECKING, Any

from fastapi import APIRouter, Body, Request
from fastapi import Path as PathParam
from fastapi.responses import JSONResponse

import halfmoon

from .. import work
from ..contract import Contract, endgame_game, multiplayer
from ..errors import ApiError
from ..models import EndgameGames, EndgameReply, ErrorReply, endgame_request
from ..replies import BAD, BUSY, PENDING, body_of, client_of, pending, wait_query

if TYPE_CHECKING:
    from ..app import Service


def router(service: Service, contract: Contract) -> APIRouter:
    routes = APIRouter(tags=["endgames"])
    config = service.config
    request_model = endgame_request(contract.multiplayer_code, config.endgame_time_limit, config.endgame_node_limit)

    @routes.get("/v1/endgames", response_model=EndgameGames)
    async def endgame_games() -> JSONResponse:
        """The games `POST /v1/endgames/{game}` answers for (the catalogue's multiplayer games)."""
        return JSONResponse({"games": [game.to_json() for game in multiplayer().values()]})

    @routes.post("/v1/endgames/{game}", response_model=EndgameReply,
                 responses=BAD | PENDING | BUSY | {404: {"model": ErrorReply}})
    @body_of(request_model)
    async def endgame(
        http: Request,
        game: str = PathParam(description="A multiplayer game's name or tag, e.g. shithead (GET /v1/endgames lists "
                                          "them).", json_schema_extra={"pattern": contract.endgame_game}),
        request: Any = Body(...),
        wait: float | None = wait_query(config),
    ) -> JSONResponse:
        """The exact endgame answer for a position (`halfmoon endgame GAME --json`)."""
        info = endgame_game(game)
        if (request.position is None) == (request.code is None):
            raise ApiError(422, "give a position or a code (one of them)", "bad_request", "UsageError")
        if request.position is not None:
            if request.moves.strip():
                raise ApiError(422, "moves go with a code (a position is already the position)", "bad_request",
                               "UsageError")
            start: Any = request.position
        else:
            start = contract.code(request.code, contract.any_code)
            if halfmoon.service.parse_code(request.code).game != info.tag:
                raise halfmoon.InputError(f"deal code {request.code}: not a {info.title} code (expected {info.tag}1-…)")
        shown = await asyncio.to_thread(halfmoon.endgame_position, start, game=info.name,  # plays the moves
                                        moves=request.moves)
        position = shown.report["position"]
        limits = halfmoon.Limits(  # the request model holds what is asked to the server's limits
            seconds=config.endgame_time_limit if request.max_seconds is None else request.max_seconds,
            nodes=config.endgame_node_limit if request.max_positions is None else request.max_positions,
            memory_bytes=config.endgame_memory_mb * 1024 * 1024,
        )
        service.metrics.bump("endgames.asked")
        key = json.dumps([info.name, position, request.until, request.seed, request.method, limits.to_json()],
                         sort_keys=True)
        answer = service.endgames.cached(key)
        source = "memory"
        if answer is None:
            budget = float(limits.seconds or config.endgame_time_limit)
            task = service.start_work(service.endgames, key, client_of(http), lambda: service.in_pool(
                key, work.endgame_job, info.name, position, request.until, request.seed, limits, request.method,
                hard_timeout=2 * budget + 60))
            if not await service.await_work(task, service.wait(wait)):
                service.metrics.bump("endgames.pending")
                return pending(service.retry_after(key, budget),
                               "still solving; the answer is kept: ask again", game=info.name)
            answer, source = task.result(), "solver"
        return JSONResponse(answer | {"source": source})

    return routes
