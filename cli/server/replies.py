"""Answers shared by the service's routes (`app.py`) and the player's routes (`play.py`)."""

from __future__ import annotations

import math
from typing import Any

from fastapi import Request
from fastapi.responses import JSONResponse


def pending(retry_after: float, reason: str, **head: Any) -> JSONResponse:
    """202: the work goes on; ask again after `retry_after` seconds (also in the Retry-After header)."""
    seconds = max(1, math.ceil(retry_after))
    body = head | {"pending": True, "retry_after": seconds, "reason": reason}
    return JSONResponse(body, status_code=202, headers={"Retry-After": str(seconds)})


def client_of(request: Request) -> str:
    """Who is asking, for the per-client limit: the peer address."""
    return request.client.host if request.client is not None else "unknown"
