"""The batch runner: streaming, hardest-first, bounded look-ahead, retries and dying workers."""

from __future__ import annotations

import os
from concurrent.futures import BrokenExecutor, Executor, Future
from pathlib import Path

import pytest

from halfmoon.solver.core.batch import (
    Job,
    LocalPool,
    default_workers,
    make_source,
    run_jobs,
)
from halfmoon.solver.errors import InputError


def square(x: int) -> int:
    return x * x


def die_on(x: int, killer: int) -> int:
    if x == killer:
        os._exit(7)
    return x


def fail_once(x: int, marker_dir: str) -> int:
    """Raises the first time it is called for `x` (a marker file remembers), then succeeds."""
    marker = Path(marker_dir) / str(x)
    if not marker.exists():
        marker.touch()
        raise RuntimeError(f"flaky {x}")
    return x


def always_fails(x: int) -> int:
    raise RuntimeError(f"broken {x}")


class SerialExecutor(Executor):
    """Runs each job at submission, in this process, and remembers the order."""

    def __init__(self, record: bool = True) -> None:
        self.order: list[tuple] = []
        self.record = record

    def submit(self, fn, /, *args, **kwargs):  # type: ignore[override]
        if self.record:
            self.order.append(args)
        future: Future = Future()
        try:
            future.set_result(fn(*args, **kwargs))
        except Exception as error:
            future.set_exception(error)
        return future


class SerialSource:
    workers = 1

    def __init__(self, record: bool = True) -> None:
        self.pool = SerialExecutor(record)

    def executor(self) -> Executor:
        return self.pool

    def renew(self) -> None:
        pass

    def close(self) -> None:
        pass


def test_a_process_pool_runs_every_job_once():
    source = LocalPool(2)
    try:
        outcomes = list(run_jobs(square, (Job(i, (i,)) for i in range(100)), source))
    finally:
        source.close()
    assert sorted(o.job.key for o in outcomes) == list(range(100))
    assert all(o.ok and o.value == o.job.key**2 and o.attempts == 1 for o in outcomes)


def test_hardest_known_jobs_go_first_then_input_order():
    source = SerialSource()
    jobs = [Job(0, (0,)), Job(1, (1,), cost=2.0), Job(2, (2,)), Job(3, (3,), cost=9.0), Job(4, (4,), cost=0.5)]
    list(run_jobs(square, jobs, source, window=1))
    assert [args[0] for args in source.pool.order] == [3, 1, 4, 0, 2]


def test_jobs_are_read_lazily_within_window_and_lookahead():
    pulled = 0

    def endless():
        nonlocal pulled
        i = 0
        while True:
            pulled += 1
            yield Job(i, (i,))
            i += 1

    runner = run_jobs(square, endless(), SerialSource(), window=2, lookahead=5)
    first = [next(runner) for _ in range(10)]
    runner.close()
    assert sorted(o.value for o in first) == [i * i for i in range(10)]
    assert pulled <= 10 + 2 + 5 + 1


def test_a_dying_worker_loses_nothing_and_the_killer_is_reported():
    source = LocalPool(2)
    try:
        outcomes = list(run_jobs(die_on, (Job(i, (i, 13)) for i in range(40)), source, max_attempts=2))
    finally:
        source.close()
    by_key = {o.job.key: o for o in outcomes}
    assert sorted(by_key) == list(range(40)) and len(outcomes) == 40
    assert not by_key[13].ok and by_key[13].error == "worker died" and by_key[13].attempts == 2
    assert all(o.ok and o.value == o.job.key for k, o in by_key.items() if k != 13)


def test_a_job_that_raises_is_retried_then_reported(tmp_path):
    source = SerialSource()
    flaky = list(run_jobs(fail_once, [Job(i, (i, str(tmp_path))) for i in range(3)], source))
    assert sorted(o.value for o in flaky) == [0, 1, 2] and all(o.attempts == 2 for o in flaky)
    broken = list(run_jobs(always_fails, [Job(5, (5,))], source, max_attempts=3))
    assert len(broken) == 1 and broken[0].attempts == 3 and "RuntimeError: broken 5" in broken[0].error


class BreaksOnceSource(SerialSource):
    """An executor that refuses the 3rd submission as a broken pool would, until renewed."""

    def __init__(self) -> None:
        super().__init__()
        self.submissions = 0
        self.renewals = 0
        outer = self

        class Refusing(SerialExecutor):
            def submit(self, fn, /, *args, **kwargs):  # type: ignore[override]
                outer.submissions += 1
                if outer.submissions == 3 and outer.renewals == 0:
                    raise BrokenExecutor("a worker died")
                return super().submit(fn, *args, **kwargs)

        self.pool = Refusing()

    def renew(self) -> None:
        self.renewals += 1


def test_a_pool_found_broken_at_submission_is_renewed_and_the_job_rerun():
    source = BreaksOnceSource()
    outcomes = list(run_jobs(square, [Job(i, (i,)) for i in range(6)], source, window=2))
    assert sorted(o.value for o in outcomes) == [i * i for i in range(6)] and source.renewals == 1


def test_bad_options_are_clear_errors():
    with pytest.raises(InputError, match="--workers 0"):
        LocalPool(0)
    with pytest.raises(InputError, match="max_attempts"):
        list(run_jobs(square, [], SerialSource(), max_attempts=0))
    assert make_source(workers=3).workers == 3
    assert LocalPool().workers == default_workers() >= 1


def test_closing_the_pool_stops_abandoned_jobs_at_once():
    import time

    source = LocalPool(2)
    pool = source.executor()
    pool.submit(time.sleep, 120)
    processes = list(pool._processes.values())
    source.close()
    deadline = time.monotonic() + 30
    while any(p.is_alive() for p in processes) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert processes and not any(p.is_alive() for p in processes)
