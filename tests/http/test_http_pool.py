"""The service's moving parts on their own: the solver pool, single flight, the settings."""

from __future__ import annotations

import asyncio
import os
import signal
import time

import pytest

pytest.importorskip("fastapi")

from halfmoon.cli.server import ServiceConfig, work
from halfmoon.cli.server.flights import Flights, wait_for  # noqa: E402
from halfmoon.cli.server.pool import PoolBusy, SolverPool, WorkerLost  # noqa: E402
from halfmoon import InputError, Limits


def run(coroutine):
    return asyncio.run(coroutine)


def test_a_worker_killed_mid_job_costs_a_rerun_not_the_answer():
    async def scenario() -> None:
        pool = SolverPool(workers=1, max_queue=4)
        try:
            (first,) = await pool.start(hold=0)
            job = asyncio.create_task(pool.run(work.warm_up, 1.5))
            await asyncio.sleep(0.5)  # the job is holding its worker now
            assert pool.pids() == [first]
            os.kill(first, signal.SIGKILL)
            pid = await asyncio.wait_for(job, 60)
            assert pid != first and pool.restarts == 1 and pool.retried == 1
        finally:
            await pool.close()

    run(scenario())


def test_a_job_that_always_kills_its_worker_is_given_up_and_the_pool_goes_on():
    async def scenario() -> None:
        pool = SolverPool(workers=1, max_queue=4, max_attempts=3)
        try:
            with pytest.raises(WorkerLost, match="3 times"):
                await asyncio.wait_for(pool.run(os._exit, 7), 60)
            assert pool.lost == 1 and pool.restarts == 3
            assert isinstance(await pool.run(work.warm_up, 0), int)
        finally:
            await pool.close()

    run(scenario())


def test_a_job_past_its_hard_limit_is_killed_and_the_pool_goes_on():
    async def scenario() -> None:
        pool = SolverPool(workers=1, max_queue=4)
        try:
            started = time.monotonic()
            with pytest.raises(WorkerLost, match="hard limit"):
                await pool.run(time.sleep, 30, hard_timeout=0.5)
            assert time.monotonic() - started < 20 and pool.overran == 1
            assert isinstance(await pool.run(work.warm_up, 0), int)
        finally:
            await pool.close()

    run(scenario())


def test_a_full_pool_says_busy_with_a_retry_hint():
    async def scenario() -> None:
        pool = SolverPool(workers=1, max_queue=1)
        try:
            holding = asyncio.create_task(pool.run(work.warm_up, 1.0))
            await asyncio.sleep(0.05)
            with pytest.raises(PoolBusy) as busy:
                await pool.run(work.warm_up, 0)
            assert busy.value.retry_after >= 1
            await holding
            assert pool.admitted == 0
        finally:
            await pool.close()

    run(scenario())


def test_worker_failures_come_back_as_values_not_exceptions():
    bad = work.hint_job({"piles": []}, "HM", None, Limits(seconds=1.0))
    assert isinstance(bad, work.Failed) and bad.kind == "input" and "reserve" in bad.message
    position = {"players": 2, "to_move": 0, "hands": [["3S"], ["4H"]], "face_up": [[], []], "face_down": [[], []]}
    bug = work.endgame_job("shithead", position, None, 0, "not limits", "auto")  # a broken call: a bug
    assert isinstance(bug, work.Failed) and bug.kind == "internal" and bug.type == "AttributeError"
    assert "Traceback" in bug.trace
    solved = work.solve_job("HM1-N-AAAAAAB", Limits(seconds=30.0))
    assert isinstance(solved, work.Done) and solved.value.answer["verdict"] == "winnable"
    assert solved.value.stored.line == " ".join(solved.value.answer["moves"]) and solved.value.stored.time_limit == 30


def test_single_flight_joins_and_remembers():
    async def scenario() -> None:
        flights: Flights[int] = Flights(cache_size=2)
        calls = 0

        async def make() -> int:
            nonlocal calls
            calls += 1
            await asyncio.sleep(0.05)
            return calls

        first = flights.start("a", make)
        second = flights.start("a", make)
        assert first is second and flights.joined == 1 and flights.running("a")
        assert not await wait_for(first, 0.001)
        assert await wait_for(first, 5) and first.result() == 1
        assert flights.cached("a") == 1 and not flights.running("a")
        for key in ("b", "c"):
            await flights.start(key, make)
        assert flights.cached("a") is None and flights.cached("c") == 3  # least recently used went

        async def fail() -> int:
            raise RuntimeError("no")

        failing = flights.start("d", fail)
        await asyncio.wait({failing})
        assert flights.cached("d") is None and not flights.running("d")
        kept = flights.start("e", make, keep=lambda value: False)
        await kept
        assert flights.cached("e") is None

    run(scenario())


@pytest.mark.parametrize("settings, word", [
    ({"workers": 0}, "workers"),
    ({"wait_default": 40.0, "wait_max": 30.0}, "wait_default"),
    ({"workers": 4, "max_queue": 2}, "max_queue"),
    ({"max_body_bytes": -1}, "max_body_bytes"),
    ({"hint_cache": -1}, "hint_cache"),
    ({"solve_time_limit": True}, "solve_time_limit"),
])
def test_settings_out_of_range_name_the_setting(settings, word):
    with pytest.raises(InputError, match=word):
        ServiceConfig(**settings)


def test_settings_round_trip_to_json():
    config = ServiceConfig(db_path="~/x.sqlite3", workers=3)
    data = config.to_json()
    assert data["workers"] == 3 and data["db_path"].endswith("x.sqlite3") and "~" not in data["db_path"]


def test_worker_bugs_and_shutdown_map_to_json_without_details():
    from fastapi import FastAPI
    from fastapi.testclient import TestClient

    from halfmoon.cli.server.app import _unwrap
    from halfmoon.cli.server.errors import install_error_handlers
    from halfmoon.cli.server.pool import PoolClosed

    app = FastAPI()
    install_error_handlers(app)

    @app.get("/bug")
    async def bug() -> None:
        _unwrap(work.Failed("internal", "KeyError", "'secret'", "Traceback (most recent call last): secret"))

    @app.get("/input")
    async def bad_input() -> None:
        _unwrap(work.Failed("input", "PositionError", "layout: missing key 'reserve'"))

    @app.get("/closing")
    async def closing() -> None:
        raise PoolClosed("the service is shutting down")

    @app.get("/lost")
    async def lost() -> None:
        raise WorkerLost("a solver process died under this job 3 times; not answered")

    @app.get("/full")
    async def full() -> None:
        raise PoolBusy(64, 7)

    with TestClient(app, raise_server_exceptions=False) as client:
        response = client.get("/bug")
        assert response.status_code == 500 and "secret" not in response.text and "Traceback" not in response.text
        assert response.json()["error"]["kind"] == "internal"
        assert client.get("/input").json()["error"] == {
            "status": 400, "kind": "invalid_input", "type": "PositionError", "message": "layout: missing key 'reserve'"}
        assert client.get("/closing").status_code == 503
        lost = client.get("/lost")
        assert lost.status_code == 503 and lost.json()["error"]["kind"] == "worker_lost"
        full = client.get("/full")
        assert full.status_code == 503 and full.json()["error"]["kind"] == "busy" and full.headers["Retry-After"] == "7"
    assert _unwrap(42) == 42


def test_the_service_calls_only_the_facade():
    """cli/server imports `halfmoon` (the facade) and nothing under it, like the CLI commands."""
    import ast
    from pathlib import Path

    import halfmoon.cli.server as server

    for source in sorted(Path(server.__file__).parent.glob("*.py")):
        for node in ast.walk(ast.parse(source.read_text(encoding="utf-8"))):
            names = [alias.name for alias in node.names] if isinstance(node, ast.Import) else \
                [node.module or ""] if isinstance(node, ast.ImportFrom) and node.level == 0 else []
            for name in names:
                assert name == "halfmoon" or not name.startswith("halfmoon."), f"{source.name} imports {name}"
