"""An atlas built on a Dask cluster is the atlas built locally, byte for byte, even when a worker dies."""

from __future__ import annotations

import os
import signal

import pytest

distributed = pytest.importorskip("distributed")

from support.atlas_helpers import RANGE, build, files  # noqa: E402
from batch.test_runner import SerialSource  # noqa: E402
from halfmoon.solver.atlas import build_atlas  # noqa: E402
from halfmoon.solver.catalogue import solitaire  # noqa: E402
from halfmoon.solver.core.batch import DaskPool  # noqa: E402
from halfmoon.solver.core.verdicts import Limits  # noqa: E402


@pytest.fixture(scope="module")
def cluster():
    # Threads in this process: starts in a second, and sees the toy game registered by the tests.
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=False, dashboard_address=":0") as local:
        yield local


def test_a_dask_build_equals_a_local_build_byte_for_byte(cluster, tmp_path):
    local = build(tmp_path / "local")
    pool = DaskPool(cluster.scheduler_address)
    try:
        remote = build(tmp_path / "dask", source=pool)
    finally:
        pool.close()
    assert remote.workers == 2 and remote.solved == local.solved == len(RANGE)
    assert files(tmp_path / "dask") == files(tmp_path / "local")


@pytest.mark.slow
def test_a_dask_worker_killed_mid_build_costs_only_its_chunk(tmp_path):
    """Worker processes (Half Moon, node limits): one is killed after the first commit; Dask reruns its chunk."""
    game, numbers, limits = solitaire("HM"), range(0, 48), Limits(nodes=20_000)
    build_atlas(game, numbers, tmp_path / "local", SerialSource(), limits=limits, method="search", shard_bits=10,
                chunk=4)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0") as local:
        pool = DaskPool(local.scheduler_address)
        killed = []

        def kill_one(report):
            if not killed:
                pids = list(pool._client.run(os.getpid).values())
                os.kill(pids[0], signal.SIGKILL)
                killed.append(pids[0])

        try:
            report = build_atlas(game, numbers, tmp_path / "dask", pool, limits=limits, method="search",
                                 shard_bits=10, chunk=4, on_progress=kill_one)
        finally:
            pool.close()
    assert killed and report.solved == len(numbers) and report.errors == 0
    assert files(tmp_path / "dask") == files(tmp_path / "local")
