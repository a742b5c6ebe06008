"""Counters and latency figures for ``GET /v1/stats``: constant memory whatever the traffic.

Latencies go into a `halfmoon.service.TimeHistogram`, one per route template (so ``/v1/deals/{code}`` is one entry and
not one per deal code): logarithmic bins, 10 per decade from 0.1 ms to 1000 s. Count, mean, min
and max are exact; quantiles are read at the upper edge of their bin, so they are approximate
(at most 26% high) and labelled so: ``p50_approx``, ``p90_approx``, ``p99_approx``.
"""

from __future__ import annotations

import time
from collections import Counter
from typing import Any

from starlette.types import ASGIApp, Message, Receive, Scope, Send

import halfmoon


class Metrics:
    """What the service has done since it started."""

    def __init__(self) -> None:
        self.started = time.monotonic()
        self.requests = 0
        self.by_status: Counter[str] = Counter()
        self.latency: dict[str, halfmoon.service.TimeHistogram] = {}
        self.counts: Counter[str] = Counter()

    def record(self, route: str, status: int, seconds: float) -> None:
        self.requests += 1
        self.by_status[f"{status // 100}xx"] += 1
        self.latency.setdefault(route, halfmoon.service.TimeHistogram()).add(seconds)

    def bump(self, name: str, by: int = 1) -> None:
        self.counts[name] += by

    def count(self, name: str) -> int:
        return self.counts[name]

    def snapshot(self) -> dict[str, Any]:
        return {
            "uptime_seconds": round(time.monotonic() - self.started, 3),
            "total": self.requests,
            "by_status": dict(sorted(self.by_status.items())),
            "by_route": {route: bins.summary() for route, bins in sorted(self.latency.items())},
            "latency_note": "seconds; mean, min and max exact; *_approx read at the upper edge of a "
                            "logarithmic bin (10 per decade: at most 26% high)",
        }


class RequestMetrics:
    """ASGI middleware: count every HTTP request by route template and status, with its latency."""

    def __init__(self, app: ASGIApp, metrics: Metrics) -> None:
        self.app = app
        self.metrics = metrics

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = time.perf_counter()
        status = 500

        async def send_and_note(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
            await send(message)

        try:
            await self.app(scope, receive, send_and_note)
        finally:
            route = scope.get("route")
            template = getattr(route, "path", None) or "(no route)"
            self.metrics.record(f"{scope.get('method', '?')} {template}", status, time.perf_counter() - started)
