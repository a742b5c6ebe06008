"""A deal's routes: ``GET /v1/deals/{code}`` (the dealt position), ``GET /v1/deals/{code}/solution``
(the exact verdict and a winning line) and ``POST /v1/hint`` (which moves keep it winnable)."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from fastapi import APIRouter, Body, Query, Request
from fastapi import Path as PathParam
from fastapi.responses import JSONResponse

import halfmoon

from .. import work
from ..contract import Contract, multiplayer
from ..models import DealLayout, HintReply, Solution
from ..replies import BAD, BUSY, PENDING, body_of, client_of, pending, wait_query

if TYPE_CHECKING:
    from ..app import Service

#: A hint spends at most this many times its per-position limit in all (the facade's rule): its budget.
HINT_TOTAL = 4


def router(service: Service, contract: Contract) -> APIRouter:
    routes = APIRouter(tags=["deals"])
    config = service.config
    wait_param = wait_query(config)
    code_path = PathParam(description="A deal code of any game such as HM1-N-AAAAAAB or SH1-2-AAAAAAB (any case).",
                          examples=["HM1-N-AAAAAAB"], json_schema_extra={"pattern": contract.any_code})
    solitaire_path = PathParam(description="A solitaire deal code such as HM1-N-AAAAAAB (any case).",
                               examples=["HM1-N-AAAAAAB"], json_schema_extra={"pattern": contract.solitaire_code})

    @routes.get("/v1/deals/{code}", response_model=DealLayout, responses=BAD)
    async def deal(code: str = code_path) -> JSONResponse:
        """The dealt position of a code of any game, as `halfmoon deal CODE --json` prints it.

        With an atlas (`serve --atlas DIR`), a solitaire deal also has "winnability": what the
        atlas holds (`halfmoon atlas lookup CODE --json`, "source": "atlas"; verdict null when the
        atlas has not done the deal).
        """
        dealt = halfmoon.deal(contract.code(code, contract.any_code))
        data = dealt.to_json()
        if service.atlas is not None and dealt.code is not None and dealt.game not in multiplayer():
            entry = service.atlas_entry(dealt.code)
            assert entry is not None
            data["winnability"] = entry.to_json()
        return JSONResponse(data)

    @routes.get("/v1/deals/{code}/solution", response_model=Solution, responses=BAD | PENDING | BUSY)
    async def solution(request: Request, code: str = solitaire_path, wait: float | None = wait_param,
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
        entry = service.atlas_entry(canonical) if dealt.game not in multiplayer() else None
        decided = entry if entry is not None and entry.verdict in (halfmoon.Verdict.WINNABLE,
                                                                     halfmoon.Verdict.UNWINNABLE) else None
        if decided is not None and (verdict_only or decided.verdict is halfmoon.Verdict.UNWINNABLE):
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
        task = service.start_work(service.solves, key, client_of(request), lambda: service.solve_now(canonical))
        if await service.await_work(task, service.wait(wait)):
            answer = task.result()
            service.metrics.bump("solutions.solved")
            if decided is not None and decided.verdict is not None and answer["verdict"] != decided.verdict.value:
                if answer["verdict"] != "unknown":
                    raise halfmoon.SolverBug(f"{canonical}: the atlas ({decided.shard}) says "
                                             f"{decided.verdict.value}, the solver {answer['verdict']}")
                # The solve ran out of time: the atlas's verdict, without a line.
                return JSONResponse(service.atlas_answer(canonical) | {
                    "nodes": answer["nodes"], "seconds": answer["seconds"], "stopped": answer["stopped"]})
            return JSONResponse(answer | {"source": "solver"})
        service.metrics.bump("solutions.pending")
        return pending(
            service.retry_after(key, config.solve_time_limit),
            f"still solving; the solve goes on (up to {config.solve_time_limit:g} s) and its answer is stored: ask again",
            code=canonical, verdict="unknown",
        )

    @routes.post("/v1/hint", response_model=HintReply, responses=BAD | PENDING | BUSY)
    @body_of(contract.hint_request)
    async def hint(http: Request, request: Any = Body(...), wait: float | None = wait_param) -> JSONResponse:
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
            task = service.start_work(service.hints, key, client_of(http), lambda: service.in_pool(
                ("hint", key), work.hint_job, played.position_json, worker_game, rules, limits,
                hard_timeout=2 * budget + 30))
            if not await service.await_work(task, service.wait(wait)):
                service.metrics.bump("hints.pending")
                return pending(service.retry_after(("hint", key), budget),
                               "still solving the position and its moves; the answer is kept: ask again",
                               code=played.code, played=len(played.moves), verdict="unknown")
            answer, source = task.result(), "solver"
        return JSONResponse(answer | {"code": played.code, "played": len(played.moves), "source": source})

    return routes
