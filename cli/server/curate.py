"""On-demand curation: rate more deals when the store holds too few of a tier.

One background task scans the same reproducible deal sequence as ``halfmoon generate``
(`halfmoon.service.sample_numbers` from a seed), skips deals the store already settled
(`halfmoon.service.curation_state`), rates the rest in the solver pool (`halfmoon.service.rate`: node-bounded,
so reproducible) and appends each winnable rated deal to the store's feed. Requests say how many
deals of which tier they miss (`want`); the task stops when no request misses any, or when it
has rated `scan_budget` deals since the last request, so an unlucky tier never keeps the pool
busy forever.

It never takes every worker: at most ``workers - 1`` ratings run at once (one with one worker),
so a solve asked meanwhile finds a free process.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any, Iterator

import halfmoon

from . import work
from .metrics import Metrics
from .pool import PoolBusy, SolverPool, WorkerLost
from .storage import StoreGateway

log = logging.getLogger("halfmoon.server")


class Curator:
    """The background generation task and what it was asked for (see the module docstring)."""

    def __init__(self, game: str, pool: SolverPool, store: StoreGateway, metrics: Metrics,
                 params: halfmoon.service.RatingParams, seed: int, scan_budget: int) -> None:
        self.game = game
        self.pool = pool
        self.store = store
        self.metrics = metrics
        self.params = params
        self.seed = seed
        self.scan_budget = scan_budget
        self.concurrency = max(1, pool.workers - 1)
        self.goals: dict[str | None, int] = {}
        self.budget = 0
        self.scanned = 0  # deals looked at (store or pool)
        self.rated = 0  # deals rated in the pool
        self.curated = 0  # winnable deals added to the feed
        self.failed = 0
        self._numbers: Iterator[int] = halfmoon.service.sample_numbers(seed)
        self._task: asyncio.Task[None] | None = None
        self._tick = asyncio.Event()

    def active(self) -> bool:
        return self._task is not None and not self._task.done()

    def want(self, tier: str | None, missing: int) -> None:
        """A request misses `missing` deals of `tier` (None: any tier): scan until they exist."""
        self.goals[tier] = max(self.goals.get(tier, 0), missing)
        self.budget = max(self.budget, self.scan_budget)
        if not self.active():
            self._task = asyncio.create_task(self._run())

    async def changed(self, timeout: float) -> None:
        """Wait until a deal is added or the task stops (or `timeout` seconds pass)."""
        tick = self._tick
        try:
            await asyncio.wait_for(tick.wait(), timeout)
        except asyncio.TimeoutError:
            pass

    def wake(self) -> None:
        """Wake every request waiting in `changed` (the service is stopping)."""
        self._signal()

    def _signal(self) -> None:
        tick, self._tick = self._tick, asyncio.Event()
        tick.set()

    def _wanted(self) -> bool:
        return any(missing > 0 for missing in self.goals.values()) and self.budget > 0

    async def _run(self) -> None:
        slots = asyncio.Semaphore(self.concurrency)
        jobs: set[asyncio.Task[None]] = set()

        def finished(job: asyncio.Task[None]) -> None:
            jobs.discard(job)
            slots.release()
            if not job.cancelled() and job.exception() is not None:
                log.error("curation job failed", exc_info=job.exception())

        try:
            while self._wanted():
                await slots.acquire()
                if not self._wanted():
                    slots.release()
                    break
                number = next(self._numbers)
                self.scanned += 1
                code = halfmoon.code(number, self.game)
                state = await self.store.curation_state(code, self.params)
                if state is not None:
                    slots.release()
                    continue
                self.budget -= 1
                job = asyncio.create_task(self._rate(code))
                jobs.add(job)
                job.add_done_callback(finished)
            if jobs:
                await asyncio.gather(*list(jobs), return_exceptions=True)
        finally:
            for job in list(jobs):
                job.cancel()
            self.goals = {tier: missing for tier, missing in self.goals.items() if missing > 0} if self.budget > 0 else {}
            self._signal()

    async def _rate(self, code: str) -> None:
        while True:
            try:
                outcome = await self.pool.run(work.rate_job, code, self.params)
                break
            except PoolBusy as busy:
                await asyncio.sleep(busy.retry_after)
            except WorkerLost as lost:
                self.failed += 1
                log.warning("curation: %s not rated: %s", code, lost)
                return
        if isinstance(outcome, work.Failed):
            self.failed += 1
            log.error("curation: rating %s failed: %s: %s\n%s", code, outcome.type, outcome.message, outcome.trace)
            return
        rated = outcome  # a RatedDeal: a win whose line does not replay is already kept as unknown
        if rated.result.error is not None:
            log.error("solver bug: %s: %s", code, rated.result.error)
        await self.store.put_rated(rated.result, rated.rating)
        self.rated += 1
        self.metrics.bump("curated.rated")
        if rated.rating is not None:
            self.curated += 1
            for key in (rated.rating.tier, None):
                if key in self.goals:
                    self.goals[key] -= 1
            self._signal()

    def stats(self) -> dict[str, Any]:
        return {
            "generating": self.active(),
            "goals": {str(tier) if tier else "any": missing for tier, missing in self.goals.items()},
            "scanned": self.scanned,
            "rated": self.rated,
            "added": self.curated,
            "failed": self.failed,
            "seed": self.seed,
            "concurrency": self.concurrency,
        }

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)
