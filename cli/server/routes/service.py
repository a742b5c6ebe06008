"""``GET /healthz`` and ``GET /v1/stats``: is the service ready, and what has it done."""

from __future__ import annotations

from typing import TYPE_CHECKING

from fastapi import APIRouter
from fastapi.responses import JSONResponse

from ..models import Health

if TYPE_CHECKING:
    from ..app import Service


def router(service: Service) -> APIRouter:
    routes = APIRouter(tags=["service"])

    @routes.get("/healthz", response_model=Health)
    async def healthz() -> JSONResponse:
        """Liveness and readiness: the store answers and the pool has workers."""
        try:
            await service.store.ping()
        except Exception as error:  # the store cannot be read: not ready
            return JSONResponse({"status": "unavailable", "workers": len(service.pool.pids()),
                                 "reason": f"results store: {error}"}, status_code=503)
        return JSONResponse({"status": "ok", "workers": len(service.pool.pids())})

    @routes.get("/v1/stats")
    async def stats() -> JSONResponse:
        """Store size, requests by route with latency, solves served and the store hit rate, the pool."""
        return JSONResponse(await service.stats())

    return routes
