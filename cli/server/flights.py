"""Single flight and a small memory of answers: identical work in progress runs once.

Why: a popular deal asked by many clients at once must cost one solve, not one per client, and
a request that stopped waiting must not stop the work: the next ask finds it running (or done)
and joins it. Tasks live here, apart from requests, and are cancelled only at shutdown.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from typing import Any, Awaitable, Callable, Generic, Hashable, TypeVar

V = TypeVar("V")


def _consume(task: asyncio.Task[Any]) -> None:
    """Read a finished task's exception: a waiter may have given up, asyncio must not complain."""
    if not task.cancelled():
        task.exception()


class Flights(Generic[V]):
    """Tasks by key (one per key while running) and the last `cache_size` answers kept."""

    def __init__(self, cache_size: int = 0) -> None:
        self.cache_size = cache_size
        self._running: dict[Hashable, asyncio.Task[V]] = {}
        self._cache: OrderedDict[Hashable, V] = OrderedDict()
        self.hits = 0  # answered from the memory
        self.joined = 0  # joined work already running
        self.started = 0  # work started
        self.finished = 0  # work ended (counted when its task leaves `_running`)

    def cached(self, key: Hashable) -> V | None:
        if key in self._cache:
            self._cache.move_to_end(key)
            self.hits += 1
            return self._cache[key]
        return None

    def running(self, key: Hashable) -> bool:
        return key in self._running

    def start(self, key: Hashable, make: Callable[[], Awaitable[V]], keep: Callable[[V], bool] = lambda value: True) -> asyncio.Task[V]:
        """The task computing `key`: the one already running, or a new one from `make()`.

        A finished value is remembered when `keep(value)` says so (and the memory is not 0).
        """
        task = self._running.get(key)
        if task is not None:
            self.joined += 1
            return task
        task = asyncio.create_task(self._run(key, make, keep))
        task.add_done_callback(_consume)
        self._running[key] = task
        self.started += 1
        return task

    async def _run(self, key: Hashable, make: Callable[[], Awaitable[V]], keep: Callable[[V], bool]) -> V:
        try:
            value = await make()
            if self.cache_size and keep(value):
                self._cache[key] = value
                self._cache.move_to_end(key)
                while len(self._cache) > self.cache_size:
                    self._cache.popitem(last=False)
            return value
        finally:
            self._running.pop(key, None)
            self.finished += 1

    def in_flight(self) -> int:
        return len(self._running)

    def stats(self) -> dict[str, int]:
        return {"started": self.started, "joined": self.joined, "memory_hits": self.hits,
                "in_flight": len(self._running), "remembered": len(self._cache)}

    async def cancel_all(self) -> None:
        tasks = list(self._running.values())
        for task in tasks:
            task.cancel()
        if tasks:
            await asyncio.gather(*tasks, return_exceptions=True)


async def wait_for(task: asyncio.Task[V], seconds: float) -> bool:
    """Wait up to `seconds` for `task` without cancelling it; True when it has finished."""
    if not task.done():
        await asyncio.wait({task}, timeout=seconds)
    return task.done()
