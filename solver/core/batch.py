"""Running many independent jobs on a `concurrent.futures.Executor`, streaming results back.

Written against the Executor interface so one driver serves a local process pool (default)
and a Dask cluster (``Client.get_executor()``), imported only when asked for.

What the runner guarantees:

- **Bounded memory**: jobs are pulled lazily from an iterable; at most `window` are in
  flight and at most `lookahead` more are read ahead, whatever the number of jobs.
- **Hardest first** among what is read ahead: a job with a known `cost` (seconds a previous
  solve took, say) goes before jobs without one, the costliest first; the rest keep input order.
- **Streaming**: outcomes are yielded as they finish, not in input order.
- **Nothing lost when a worker dies**: a local pool that breaks (a worker killed, out of
  memory) fails every job in flight, so those jobs are rerun *one at a time* on a fresh pool;
  a job that kills its worker alone `max_attempts` times comes back as an outcome with
  `error` set (the caller reports it `unknown`). A job that raises is retried the same way.
"""

from __future__ import annotations

import ctypes
import heapq
import itertools
import os
import signal
import sys
import threading
import time
from collections import deque
from concurrent.futures import (
    FIRST_COMPLETED,
    BrokenExecutor,
    Executor,
    Future,
    ProcessPoolExecutor,
    wait,
)
from dataclasses import dataclass
from typing import Any, Callable, Hashable, Iterable, Iterator, Protocol

from halfmoon.solver.errors import InputError


@dataclass(frozen=True)
class Job:
    """One unit of work: `fn(*args)` runs on a worker. `cost` (optional) orders hardest first."""

    key: Hashable
    args: tuple[Any, ...]
    cost: float | None = None


@dataclass(frozen=True)
class Outcome:
    """A finished job: its value, or the reason it could not be run (`error`), and the tries."""

    job: Job
    value: Any = None
    error: str | None = None
    attempts: int = 1

    @property
    def ok(self) -> bool:
        return self.error is None


class ExecutorSource(Protocol):
    """Hands out an executor and can replace it when it breaks (a local pool) or not (Dask)."""

    workers: int

    def executor(self) -> Executor: ...

    def renew(self) -> None: ...

    def close(self) -> None: ...


def default_workers() -> int:
    """All cores this process may use."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return max(1, os.cpu_count() or 1)


_PR_SET_PDEATHSIG = 1  # <linux/prctl.h>


def die_with_parent() -> None:
    """Make this (worker) process end when its parent process ends, however it ends (kill -9 too).

    Linux: the kernel sends SIGKILL on the parent's death (prctl PR_SET_PDEATHSIG); elsewhere a
    daemon thread checks once a second whether the parent is still the one that started us.
    """
    parent = os.getppid()
    if sys.platform.startswith("linux"):
        try:
            libc = ctypes.CDLL(None, use_errno=True)
            if libc.prctl(_PR_SET_PDEATHSIG, int(signal.SIGKILL), 0, 0, 0) == 0:
                if os.getppid() != parent:  # the parent died before the call took effect
                    os._exit(1)
                return
        except (OSError, AttributeError):
            pass

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(1.0)
        os._exit(1)

    threading.Thread(target=watch, name="parent-watch", daemon=True).start()


def _quiet_worker() -> None:
    """Workers leave Ctrl-C and SIGTERM to the parent, which stops them (no tracebacks from each),
    and end with it (no worker outlives a killed survey)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    die_with_parent()


class LocalPool:
    """A `ProcessPoolExecutor` of `workers` processes, replaced by a fresh one when it breaks."""

    def __init__(self, workers: int | None = None) -> None:
        if workers is not None and workers < 1:
            raise InputError(f"--workers {workers}: expected at least 1")
        self.workers = workers or default_workers()
        self._pool: ProcessPoolExecutor | None = None

    def executor(self) -> Executor:
        if self._pool is None:
            self._pool = ProcessPoolExecutor(max_workers=self.workers, initializer=_quiet_worker)
        return self._pool

    def renew(self) -> None:
        self.close()

    def close(self) -> None:
        """Stop the pool now: jobs still running are abandoned (their results are not wanted)."""
        if self._pool is not None:
            pool, self._pool = self._pool, None
            processes = list((getattr(pool, "_processes", None) or {}).values())
            pool.shutdown(wait=False, cancel_futures=True)
            for process in processes:  # else the interpreter waits for them at exit
                if process.is_alive():
                    process.terminate()


class DaskPool:
    """An existing Dask cluster through ``Client.get_executor()``; Dask is imported only here.

    Dask reschedules the tasks of a worker that dies by itself and raises `KilledWorker` for a
    task that keeps killing workers; the runner turns that into a retry or an `error` outcome.
    """

    def __init__(self, address: Any) -> None:
        try:
            from distributed import Client
        except ImportError:
            raise InputError(
                "--dask needs Dask: pip install 'halfmoon-solver[dask]' (or 'dask[distributed]')"
            ) from None
        try:
            self._client = Client(address, timeout="10s")
        except OSError as error:
            raise InputError(f"--dask {address}: cannot reach the scheduler: {error}") from None
        self._owns_client = True
        self.workers = max(1, sum(self._client.nthreads().values()))
        self._executor: Executor | None = None

    def executor(self) -> Executor:
        if self._executor is None:
            self._executor = self._client.get_executor(pure=False)
        return self._executor

    def renew(self) -> None:
        self._executor = None

    def close(self) -> None:
        if self._owns_client:
            self._client.close()


def make_source(workers: int | None = None, dask: str | None = None) -> ExecutorSource:
    """The executor source the CLI options ask for: a Dask cluster or a local pool."""
    return DaskPool(dask) if dask else LocalPool(workers)


class _Lookahead:
    """Jobs read ahead from the input, handed out hardest-known-first, then in input order."""

    def __init__(self, jobs: Iterable[Job], size: int) -> None:
        self._jobs = iter(jobs)
        self._size = size
        self._heap: list[tuple[int, float, int, Job]] = []
        self._seq = itertools.count()
        self._exhausted = False

    def _fill(self) -> None:
        while not self._exhausted and len(self._heap) < self._size:
            job = next(self._jobs, None)
            if job is None:
                self._exhausted = True
                break
            seq = next(self._seq)
            # Known costs first (largest first), then unknown costs in input order.
            entry = (0, -job.cost, seq, job) if job.cost is not None else (1, 0.0, seq, job)
            heapq.heappush(self._heap, entry)

    def pop(self) -> Job | None:
        self._fill()
        return heapq.heappop(self._heap)[3] if self._heap else None


def run_jobs(
    fn: Callable[..., Any],
    jobs: Iterable[Job],
    source: ExecutorSource,
    *,
    window: int | None = None,
    lookahead: int | None = None,
    max_attempts: int = 3,
    on_idle: Callable[[], None] | None = None,
    idle_seconds: float = 0.5,
) -> Iterator[Outcome]:
    """Run `fn(*job.args)` for every job on `source`, yielding outcomes as they finish.

    `window` bounds the jobs in flight (default: twice the workers), `lookahead` the jobs read
    ahead for hardest-first ordering (default: four windows). Closing the iterator early
    cancels what has not started. `on_idle()` is called every `idle_seconds` while no job
    finishes (e.g. to commit what was written before a long solve).
    """
    if max_attempts < 1:
        raise InputError(f"max_attempts {max_attempts}: expected at least 1")
    window = window or 2 * source.workers
    queue = _Lookahead(jobs, lookahead or 4 * window)
    attempts: dict[Hashable, int] = {}
    in_flight: dict[Future[Any], Job] = {}
    suspects: deque[Job] = deque()  # jobs to rerun one at a time after a break or an error

    def renew() -> None:
        """Drop a broken pool: everything still in flight on it is lost and rerun alone."""
        suspects.extend(in_flight.values())
        in_flight.clear()
        source.renew()

    def submit(job: Job) -> None:
        try:
            future = source.executor().submit(fn, *job.args)
        except BrokenExecutor:  # the pool broke before its failed futures were seen
            suspects.appendleft(job)
            renew()
            return
        in_flight[future] = job

    def failed(job: Job, reason: str) -> Outcome | None:
        tries = attempts.get(job.key, 0) + 1
        attempts[job.key] = tries
        if tries >= max_attempts:
            attempts.pop(job.key, None)
            return Outcome(job, error=reason, attempts=tries)
        suspects.append(job)
        return None

    try:
        while True:
            # Suspects run alone so that a death can be pinned on the job that caused it.
            if suspects:
                if not in_flight:
                    submit(suspects.popleft())
            else:
                while len(in_flight) < window:
                    job = queue.pop()
                    if job is None:
                        break
                    submit(job)
            if not in_flight:
                if suspects:
                    continue
                return
            done, _ = wait(list(in_flight), timeout=idle_seconds if on_idle is not None else None,
                           return_when=FIRST_COMPLETED)
            if not done:
                assert on_idle is not None
                on_idle()
                continue
            broken = False
            for future in done:
                job = in_flight.pop(future)
                try:
                    value = future.result()
                except BrokenExecutor:
                    broken = True
                    # Only a job that was alone in flight is known to have caused the break.
                    if len(done) == 1 and not in_flight:
                        outcome = failed(job, "worker died")
                        if outcome is not None:
                            yield outcome
                    else:
                        suspects.append(job)
                    continue
                except Exception as error:  # the job raised, or Dask gave up on it (KilledWorker)
                    outcome = failed(job, f"{type(error).__name__}: {error}")
                    if outcome is not None:
                        yield outcome
                    continue
                tries = attempts.pop(job.key, 0) + 1
                yield Outcome(job, value=value, attempts=tries)
            if broken:
                renew()
    finally:
        for future in in_flight:
            future.cancel()
