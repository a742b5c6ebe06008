"""Answers shared by the routes (`routes/`): 202 pending, who is asking, and the shared OpenAPI replies."""

from __future__ import annotations

import math
from typing import Any, Callable

from fastapi import Query, Request
from fastapi.responses import JSONResponse

from .config import ServiceConfig
from .models import ErrorReply, Pending

Responses = dict[int | str, dict[str, Any]]

#: The OpenAPI descriptions of answers that several routes give (a route adds its own with ``|``).
BAD: Responses = {400: {"model": ErrorReply, "description": "Invalid input (same message as the CLI)."}}
BUSY: Responses = {
    503: {"model": ErrorReply, "description": "Solver pool full (Retry-After) or solver processes lost."},
    429: {"model": ErrorReply, "description": "This client has its share of solver jobs running (Retry-After)."}}
PENDING: Responses = {202: {"model": Pending, "description": "Still working: ask again after `retry_after` seconds."}}


def wait_query(config: ServiceConfig) -> Any:
    """The ``?wait=`` parameter: seconds to wait for an answer, up to the server's `wait_max`."""
    return Query(None, gt=0, le=config.wait_max, allow_inf_nan=False,
                 description=f"Seconds to wait for the answer (default {config.wait_default:g}, "
                             f"at most {config.wait_max:g}); then 202 and the work goes on.")


def pending(retry_after: float, reason: str, **head: Any) -> JSONResponse:
    """202: the work goes on; ask again after `retry_after` seconds (also in the Retry-After header)."""
    seconds = max(1, math.ceil(retry_after))
    body = head | {"pending": True, "retry_after": seconds, "reason": reason}
    return JSONResponse(body, status_code=202, headers={"Retry-After": str(seconds)})


def client_of(request: Request) -> str:
    """Who is asking, for the per-client limit: the peer address."""
    return request.client.host if request.client is not None else "unknown"


def body_of(model: Any) -> Callable[[Any], Any]:
    """Route decorator: the body parameter `request` is of `model`, a class built for this app."""
    def mark(route: Any) -> Any:
        route.__annotations__["request"] = model
        return route
    return mark
