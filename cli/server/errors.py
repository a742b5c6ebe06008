"""Every error the service answers, as one JSON shape; the body size limit; no tracebacks out.

The shape is ``{"error": {"status", "kind", "type", "message"}}``. `message` is the same text the
CLI prints after ``error:`` (library errors are `ValueError` subclasses naming what and where),
so a client can show it as it is. Kinds and statuses:

- ``invalid_input`` 400: a bad deal code, card, move, layout, position, cursor or tier;
- ``unauthorized`` 401: a token is required (``--token``) and was missing or wrong;
- ``bad_request`` 422: the request itself is malformed (missing field, wrong type, bad JSON);
- ``not_found`` 404, ``method_not_allowed`` 405, ``request_timeout`` 408 (the body did not
  arrive in time), ``payload_too_large`` 413;
- ``too_many_requests`` 429 (with Retry-After) when this client already has its share of solver
  work running;
- ``busy`` 503 (with Retry-After) when the solver pool is full, ``worker_lost`` 503 when solver
  processes kept dying under a job, ``unavailable`` 503 while shutting down or when the results
  store cannot be used;
- ``internal`` 500: a bug. The client gets an incident id; the traceback goes to the server log.
"""

from __future__ import annotations

import asyncio
import hmac
import json
import logging
import time
import uuid
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

import halfmoon

from .pool import PoolBusy, PoolClosed, WorkerLost

log = logging.getLogger("halfmoon.server")

_KINDS = {400: "invalid_input", 401: "unauthorized", 404: "not_found", 405: "method_not_allowed",
          408: "request_timeout", 413: "payload_too_large", 422: "bad_request", 429: "too_many_requests",
          500: "internal", 503: "unavailable"}


class ApiError(Exception):
    """An error answer chosen by a route (status, kind, message, optional headers)."""

    def __init__(self, status: int, message: str, kind: str | None = None, type_: str | None = None,
                 headers: dict[str, str] | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.kind = kind or _KINDS.get(status, "error")
        self.type = type_ or type(self).__name__
        self.message = message
        self.headers = headers or {}


class StoreUnavailable(Exception):
    """The results store cannot be read or written now (corrupt, gone, locked): answered 503."""


class ShuttingDown(Exception):
    """The service is stopping: requests still waiting are answered 503 at once."""


class WorkerBug(Exception):
    """A bug inside a solver process: its traceback text travels here to be logged, not sent."""

    def __init__(self, type_: str, message: str, trace: str) -> None:
        super().__init__(f"{type_}: {message}")
        self.trace = trace


def error_body(status: int, kind: str, message: str, type_: str) -> dict[str, Any]:
    return {"error": {"status": status, "kind": kind, "type": type_, "message": message}}


def error_response(status: int, kind: str, message: str, type_: str, headers: dict[str, str] | None = None) -> JSONResponse:
    return JSONResponse(error_body(status, kind, message, type_), status_code=status, headers=headers)


def _location(loc: tuple[Any, ...] | list[Any]) -> str:
    """``("body", "moves", 0)`` → ``body.moves[0]``; ``("query", "count")`` → ``query count``."""
    parts = list(loc)
    if not parts:
        return "request"
    head, rest = str(parts[0]), parts[1:]
    text = ""
    for part in rest:
        text += f"[{part}]" if isinstance(part, int) else (f".{part}" if text else str(part))
    if head == "body":
        return "body" + (f".{text}" if text else "")
    return f"{head} parameter {text}" if text else head


def validation_message(error: RequestValidationError) -> tuple[int, str]:
    """One line for FastAPI's validation errors (status 400 for a body that is not JSON)."""
    problems = error.errors()
    for problem in problems:
        if problem.get("type") == "json_invalid":
            detail = (problem.get("ctx") or {}).get("error", "not valid JSON")
            return 400, f"request body: not valid JSON: {detail}"
    lines = []
    for problem in problems[:5]:
        lines.append(f"{_location(problem.get('loc', ()))}: {problem.get('msg', 'invalid')}")
    more = f" (and {len(problems) - 5} more)" if len(problems) > 5 else ""
    return 422, "; ".join(lines) + more


def install_error_handlers(app: FastAPI) -> None:
    """Map every exception to the JSON shape above (registered on the app)."""

    @app.exception_handler(ApiError)
    async def api_error(request: Request, error: ApiError) -> JSONResponse:
        return error_response(error.status, error.kind, error.message, error.type, error.headers)

    @app.exception_handler(RequestValidationError)
    async def validation_error(request: Request, error: RequestValidationError) -> JSONResponse:
        status, message = validation_message(error)
        return error_response(status, _KINDS[status], message, "RequestValidationError")

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, error: StarletteHTTPException) -> JSONResponse:
        message = error.detail if isinstance(error.detail, str) else json.dumps(error.detail)
        if error.status_code == 404 and message == "Not Found":
            message = f"no such endpoint: {request.method} {request.url.path} (the API is described at /docs)"
        elif error.status_code == 405:
            message = f"method {request.method} is not allowed on {request.url.path}"
        return error_response(error.status_code, _KINDS.get(error.status_code, "error"), message, "HTTPException",
                              dict(error.headers or {}))

    @app.exception_handler(PoolBusy)
    async def busy(request: Request, error: PoolBusy) -> JSONResponse:
        return error_response(503, "busy", str(error), "PoolBusy", {"Retry-After": str(error.retry_after)})

    @app.exception_handler(WorkerLost)
    async def lost(request: Request, error: WorkerLost) -> JSONResponse:
        return error_response(503, "worker_lost", str(error), "WorkerLost", {"Retry-After": "5"})

    @app.exception_handler(PoolClosed)
    async def closed(request: Request, error: PoolClosed) -> JSONResponse:
        return error_response(503, "unavailable", str(error), "PoolClosed", {"Retry-After": "5"})

    @app.exception_handler(ShuttingDown)
    async def shutting_down(request: Request, error: ShuttingDown) -> JSONResponse:
        return error_response(503, "unavailable", str(error), "ShuttingDown", {"Retry-After": "5"})

    @app.exception_handler(StoreUnavailable)
    async def store_unavailable(request: Request, error: StoreUnavailable) -> JSONResponse:
        log.error("results store unavailable: %s", error)
        return error_response(503, "unavailable", str(error), "StoreUnavailable", {"Retry-After": "30"})

    @app.exception_handler(WorkerBug)
    async def worker_bug(request: Request, error: WorkerBug) -> JSONResponse:
        return internal_error(error, f"{request.method} {request.url.path} (in a solver process)", error.trace)

    @app.exception_handler(halfmoon.service.NotFoundError)
    async def not_found(request: Request, error: ValueError) -> JSONResponse:
        return error_response(404, "not_found", str(error), type(error).__name__)

    @app.exception_handler(ValueError)
    async def invalid_input(request: Request, error: ValueError) -> JSONResponse:
        return error_response(400, "invalid_input", str(error), type(error).__name__)

    @app.exception_handler(Exception)
    async def internal(request: Request, error: Exception) -> JSONResponse:
        return internal_error(error, f"{request.method} {request.url.path}")


def internal_error(error: BaseException | None, where: str, trace: str | None = None) -> JSONResponse:
    """Log the bug with an incident id and answer 500 without any of its details."""
    incident = uuid.uuid4().hex[:12]
    if trace is not None:
        log.error("internal error %s in %s:\n%s", incident, where, trace)
    else:
        log.error("internal error %s in %s", incident, where, exc_info=error)
    return error_response(500, "internal", f"internal error (incident {incident}; the details are in the server log)",
                          "InternalError")


class BodyLimit:
    """ASGI middleware: refuse request bodies over `max_bytes` with 413, or slower than `timeout` seconds
    in all with 408, before any route runs.

    Reads the body up front (bounded in size and time), so a client that lies in Content-Length,
    streams a chunked body or trickles it byte by byte is stopped too; the route then sees the
    buffered body.
    """

    def __init__(self, app: ASGIApp, max_bytes: int, timeout: float = 10.0) -> None:
        self.app = app
        self.max_bytes = max_bytes
        self.timeout = timeout

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        for name, value in scope.get("headers", []):
            if name == b"content-length":
                try:
                    declared = int(value)
                except ValueError:
                    declared = -1
                if declared > self.max_bytes:
                    await self._refuse(scope, receive, send)
                    return
        chunks: list[bytes] = []
        total = 0
        deadline = time.monotonic() + self.timeout
        while True:
            try:
                message = await asyncio.wait_for(receive(), max(0.0, deadline - time.monotonic()))
            except asyncio.TimeoutError:
                response = error_response(408, "request_timeout",
                                          f"the request body did not arrive within {self.timeout:g} s",
                                          "RequestTimeout", {"Connection": "close"})
                await response(scope, receive, send)
                return
            if message["type"] == "http.disconnect":
                return
            body = message.get("body", b"")
            total += len(body)
            if total > self.max_bytes:
                await self._refuse(scope, receive, send)
                return
            chunks.append(body)
            if not message.get("more_body", False):
                break
        buffered: list[Message] = [{"type": "http.request", "body": b"".join(chunks), "more_body": False}]

        async def replay() -> Message:
            if buffered:
                return buffered.pop()
            return await receive()

        await self.app(scope, replay, send)

    async def _refuse(self, scope: Scope, receive: Receive, send: Send) -> None:
        response = error_response(
            413, "payload_too_large", f"request body over the limit of {self.max_bytes} bytes", "PayloadTooLarge",
            {"Connection": "close"},
        )
        await response(scope, receive, send)


class TokenCheck:
    """ASGI middleware: with a token set, every request but the open paths needs ``Authorization: Bearer``."""

    OPEN = ("/healthz", "/docs", "/docs/oauth2-redirect", "/redoc", "/openapi.json")

    def __init__(self, app: ASGIApp, token: str | None) -> None:
        self.app = app
        self.token = token.encode() if token else None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or self.token is None or scope.get("path") in self.OPEN:
            await self.app(scope, receive, send)
            return
        given = b""
        for name, value in scope.get("headers", []):
            if name == b"authorization" and value[:7].lower() == b"bearer ":
                given = value[7:].strip()
        if not hmac.compare_digest(given, self.token):
            response = error_response(401, "unauthorized", "this service needs its token: send "
                                      "'Authorization: Bearer <token>'", "Unauthorized", {"WWW-Authenticate": "Bearer"})
            await response(scope, receive, send)
            return
        await self.app(scope, receive, send)


class CancelledAs503:
    """ASGI middleware (outermost): a request cancelled before it was answered (the server stopping
    past its grace period) gets the documented 503 JSON instead of the server's plain-text 500."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = False

        async def noting(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
            await send(message)

        try:
            await self.app(scope, receive, noting)
        except asyncio.CancelledError:
            if not started:
                response = error_response(503, "unavailable", "the service is shutting down; ask again shortly",
                                          "ShuttingDown", {"Retry-After": "5", "Connection": "close"})
                await response(scope, receive, send)
            raise
