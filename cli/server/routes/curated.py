"""``GET /v1/curated``: winnable deals rated by difficulty, a feed read from the store and topped up
on demand by the service's curator (`curate.Curator`)."""

from __future__ import annotations

import math
import time
from typing import TYPE_CHECKING, Literal

from fastapi import APIRouter, Query
from fastapi.responses import JSONResponse

from ..contract import Contract
from ..errors import ShuttingDown
from ..models import CuratedPage, ErrorReply
from ..replies import BAD, Responses, wait_query

if TYPE_CHECKING:
    from ..app import Service

MISSING: Responses = {404: {"model": ErrorReply, "description": "No such curated deal (the `after` cursor)."}}


def router(service: Service, contract: Contract) -> APIRouter:
    routes = APIRouter(tags=["deals"])
    config = service.config

    @routes.get("/v1/curated", response_model=CuratedPage, responses=BAD | MISSING | {202: {"model": CuratedPage}})
    async def curated(
        tier: Literal["easy", "medium", "hard", "expert"] | None = Query(
            None, description="The difficulty tier; any tier when left out."),
        count: int = Query(5, ge=1, le=config.curated_max_count, description="How many deals."),
        after: str | None = Query(None, description="The `next` code of the previous page (404 when the store has "
                                                    "no such curated deal).",
                                  json_schema_extra={"pattern": contract.curated_code}),
        wait: float | None = wait_query(config),
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

    return routes
