"""Connection guards for uvicorn's HTTP/1.1 protocol: read timeouts and a cap on open connections.

uvicorn parses request headers before the application sees anything, so a client that sends
half a request line and waits, or that opens a thousand connections and sends nothing, is
invisible to ASGI middleware. `GuardedH11Protocol` adds, per connection:

- a **header timeout**: the request line and headers must arrive within `header_timeout`
  seconds of the connection opening (or of the previous response on a kept-alive connection),
  else 408 and the connection is closed;
- a **cap on open connections** (`max_connections`, kept below the process's file limit): a
  connection beyond it closes the longest-idle connection that has no request in progress
  (a connection still waiting for its first request counts as idle), or, when every connection
  is busy, is answered 503 and closed at once. So idle connections can never stop `/healthz`
  from being accepted and answered.

The body timeout lives in the application (`errors.BodyLimit`), which reads every body.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from typing import Any

from uvicorn.protocols.http.h11_impl import H11Protocol

log = logging.getLogger("halfmoon.server")


def _raw_response(status: int, reason: str, kind: str, message: str, extra: str = "") -> bytes:
    body = json.dumps({"error": {"status": status, "kind": kind, "type": "ConnectionGuard", "message": message}})
    return (f"HTTP/1.1 {status} {reason}\r\ncontent-type: application/json\r\ncontent-length: {len(body)}\r\n"
            f"connection: close\r\n{extra}\r\n{body}").encode()


class GuardSettings:
    """What the guards enforce; set once by `halfmoon serve` before the server starts."""

    header_timeout: float = 10.0
    max_connections: int = 1000
    evicted: int = 0
    refused: int = 0
    timed_out: int = 0


class GuardedH11Protocol(H11Protocol):
    """uvicorn's h11 protocol with the guards of the module docstring."""

    settings = GuardSettings

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._idle_since = time.monotonic()
        self._header_timer: asyncio.TimerHandle | None = None
        if len(self.connections) > self.settings.max_connections and not self._evict_one():
            self.settings.refused += 1
            transport.write(_raw_response(503, "Service Unavailable", "unavailable",
                                          "too many open connections; try again shortly", "retry-after: 1\r\n"))
            transport.close()
            return
        self._arm()

    # -- the header timeout -------------------------------------------------------------------

    def _arm(self) -> None:
        self._disarm()
        self._idle_since = time.monotonic()
        self._header_timer = self.loop.call_later(self.settings.header_timeout, self._headers_too_slow)

    def _disarm(self) -> None:
        timer = getattr(self, "_header_timer", None)
        if timer is not None:
            timer.cancel()
            self._header_timer = None

    def _busy(self) -> bool:
        return self.cycle is not None and not self.cycle.response_complete

    def _headers_too_slow(self) -> None:
        self._header_timer = None
        if self.transport.is_closing() or self._busy():
            return
        self.settings.timed_out += 1
        self.transport.write(_raw_response(
            408, "Request Timeout", "request_timeout",
            f"the request line and headers did not arrive within {self.settings.header_timeout:g} s"))
        self.transport.close()

    def handle_events(self) -> None:
        before = self.cycle
        super().handle_events()
        if self.cycle is not before:  # a request's headers arrived: its route runs now
            self._disarm()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        if not self.transport.is_closing():
            self._arm()  # the next request on this connection has its own header deadline

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)

    # -- the connection cap -------------------------------------------------------------------

    def _evict_one(self) -> bool:
        """Close the longest-idle other connection without a request in progress; False if none."""
        idle = [c for c in self.connections
                if c is not self and isinstance(c, GuardedH11Protocol) and not c._busy()
                and not c.transport.is_closing()]
        if not idle:
            return False
        oldest = min(idle, key=lambda c: c._idle_since)
        self.settings.evicted += 1
        oldest._disarm()
        oldest.transport.close()  # silently, as a kept-alive connection may close at any time
        self.connections.discard(oldest)
        return True


def stats() -> dict[str, Any]:
    s = GuardedH11Protocol.settings
    return {"header_timeout": s.header_timeout, "max_connections": s.max_connections, "evicted": s.evicted,
            "refused": s.refused, "header_timeouts": s.timed_out}
