"""The solver process pool as the event loop sees it: admission, retries after worker deaths, pids.

Why a process pool: solving is CPU-bound Python, so it runs in separate processes and the event
loop only waits on futures; a slow deal occupies one worker and nothing else. Why a fork server:
the workers are forked from one clean process that imported the solvers once (OR-Tools takes
seconds to import), never from the event loop's process with its threads and open database.

A `ProcessPoolExecutor` breaks as a whole when one of its processes dies (killed, out of memory):
every job in flight fails with `BrokenProcessPool`. The pool then replaces the executor and runs
those jobs again, up to `max_attempts` runs each, so a killed worker costs time, not answers.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, Callable

from . import work


class PoolBusy(RuntimeError):
    """Too many jobs admitted already: the client should come back later (503 + Retry-After)."""

    def __init__(self, admitted: int, retry_after: int) -> None:
        super().__init__(f"the solver pool is full ({admitted} jobs waiting or running); retry in {retry_after} s")
        self.retry_after = retry_after


class WorkerLost(RuntimeError):
    """A job whose worker kept dying (or that overran its hard limit): answered 503, never a guess."""


class PoolClosed(RuntimeError):
    """The service is shutting down."""


def _consume(future: asyncio.Future[Any]) -> None:
    """Read a finished future's exception so asyncio does not log it as never retrieved."""
    if not future.cancelled():
        future.exception()


class SolverPool:
    """`workers` solver processes behind an admission limit of `max_queue` jobs."""

    def __init__(self, workers: int, max_queue: int, max_attempts: int = 3) -> None:
        self.workers = workers
        self.max_queue = max_queue
        self.max_attempts = max_attempts
        self.admitted = 0
        self.submitted = 0  # jobs handed to the executor (running or in its queue)
        self.restarts = 0  # executors replaced after a worker died
        self.retried = 0  # job runs repeated because of that
        self.lost = 0  # jobs given up after max_attempts
        self.overran = 0  # jobs killed at their hard limit
        self._executor: ProcessPoolExecutor | None = None
        self._closed = False
        self._context = multiprocessing.get_context("forkserver")
        self._context.set_forkserver_preload(list(work.PRELOAD))

    # -- the executor -----------------------------------------------------------------------

    def _current(self) -> ProcessPoolExecutor:
        if self._closed:
            raise PoolClosed("the service is shutting down")
        if self._executor is None:
            self._executor = ProcessPoolExecutor(max_workers=self.workers, mp_context=self._context,
                                                 initializer=work.worker_init, initargs=(os.getpid(),))
        return self._executor

    def _renew(self, executor: ProcessPoolExecutor) -> None:
        """Drop a broken executor (once, however many jobs noticed the break)."""
        if executor is self._executor:
            self._executor = None
            self.restarts += 1
            executor.shutdown(wait=False, cancel_futures=True)

    @staticmethod
    def _terminate(executor: ProcessPoolExecutor) -> None:
        processes = getattr(executor, "_processes", None) or {}
        for process in list(processes.values()):
            if process.is_alive():
                process.terminate()

    def pids(self) -> list[int]:
        """The worker processes now alive (an operator, or the load test, may kill one)."""
        processes = getattr(self._executor, "_processes", None) or {}
        return sorted(pid for pid, process in list(processes.items()) if process.is_alive())

    # -- running jobs ------------------------------------------------------------------------

    async def start(self, hold: float = 0.3) -> list[int]:
        """Start every worker and load the solvers in it before the first request."""
        pids = await asyncio.gather(*(self.run(work.warm_up, hold) for _ in range(self.workers)))
        return sorted(set(pids))

    def retry_after(self) -> int:
        """A rough wait before a full pool has room again (seconds, at least 1)."""
        return max(1, min(30, self.admitted // max(1, self.workers)))

    async def run(self, fn: Callable[..., Any], *args: Any, hard_timeout: float | None = None) -> Any:
        """Run `fn(*args)` on a worker and return its value (a `work.Done`'s value).

        Raises PoolBusy when `max_queue` jobs are admitted already, WorkerLost when workers died
        under the job `max_attempts` times or it overran `hard_timeout` seconds, and hands back a
        `work.Failed` unchanged for the caller to answer.
        """
        if self.admitted >= self.max_queue:
            raise PoolBusy(self.admitted, self.retry_after())
        self.admitted += 1
        try:
            for attempt in range(1, self.max_attempts + 1):
                executor = self._current()
                try:
                    future: Future[Any] = executor.submit(fn, *args)
                except BrokenProcessPool:
                    self._renew(executor)
                    continue
                except RuntimeError:  # shut down under us
                    if self._closed:
                        raise PoolClosed("the service is shutting down") from None
                    self._renew(executor)
                    continue
                waiting = asyncio.wrap_future(future)
                waiting.add_done_callback(_consume)
                self.submitted += 1
                try:
                    if hard_timeout is None:
                        outcome = await waiting
                    else:
                        outcome = await asyncio.wait_for(asyncio.shield(waiting), hard_timeout)
                except asyncio.TimeoutError:
                    self.overran += 1
                    self._terminate(executor)
                    self._renew(executor)
                    raise WorkerLost(
                        f"the job ran past its hard limit of {hard_timeout:g} s and its worker was restarted"
                    ) from None
                except BrokenProcessPool:
                    self._renew(executor)
                    if attempt < self.max_attempts:
                        self.retried += 1
                    continue
                finally:
                    self.submitted -= 1
                if isinstance(outcome, work.Done):
                    return outcome.value
                return outcome
            self.lost += 1
            raise WorkerLost(f"a solver process died under this job {self.max_attempts} times; not answered")
        finally:
            self.admitted -= 1

    def stats(self) -> dict[str, Any]:
        return {
            "workers": self.workers,
            "worker_pids": self.pids(),
            "jobs_admitted": self.admitted,
            "jobs_submitted": self.submitted,
            "max_queue": self.max_queue,
            "restarts": self.restarts,
            "jobs_retried": self.retried,
            "jobs_lost": self.lost,
            "jobs_overran": self.overran,
        }

    async def close(self) -> None:
        """Stop every worker now (work in progress is dropped; answers already stored stay)."""
        self._closed = True
        executor, self._executor = self._executor, None
        if executor is not None:
            self._terminate(executor)
            await asyncio.to_thread(executor.shutdown, True, cancel_futures=True)
