"""The same batch on a Dask cluster (a LocalCluster started here) through Client.get_executor()."""

from __future__ import annotations

import pytest

distributed = pytest.importorskip("distributed")

from batch.test_runner import SerialSource, square  # noqa: E402
from support.toy_solitaire import TAG  # noqa: E402
from halfmoon.solver.core.batch import DaskPool, Job, run_jobs  # noqa: E402
from halfmoon.solver.store import open_store  # noqa: E402
from halfmoon.solver.catalogue import solitaire  # noqa: E402
from halfmoon.solver.core.verdicts import Limits  # noqa: E402
from halfmoon.solver.survey import run_generate, run_survey  # noqa: E402


@pytest.fixture(scope="module")
def cluster():
    # Threads in this process: starts in a second, and sees the toy game registered by the tests.
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=False, dashboard_address=":0") as local:
        yield local


def test_jobs_run_on_the_cluster(cluster):
    pool = DaskPool(cluster.scheduler_address)
    try:
        assert pool.workers == 2
        outcomes = list(run_jobs(square, (Job(i, (i,)) for i in range(30)), pool))
    finally:
        pool.close()
    assert sorted(o.value for o in outcomes) == [i * i for i in range(30)]


def test_a_survey_and_generate_on_dask_match_the_local_run(cluster, tmp_path):
    local = run_survey(solitaire(TAG), range(80), SerialSource()).summary()
    pool = DaskPool(cluster.scheduler_address)
    try:
        with open_store(tmp_path / "r.sqlite3") as store:
            remote = run_survey(solitaire(TAG), range(80), pool, store=store).summary()
        assert [local[k] for k in ("deals", "winnable", "unwinnable", "unknown")] == [
            remote[k] for k in ("deals", "winnable", "unwinnable", "unknown")
        ]
        on_dask = [c.to_json() for c in run_generate(solitaire(TAG), range(100), 2, pool)]
    finally:
        pool.close()
    assert len(on_dask) == 2 and on_dask == [c.to_json() for c in run_generate(solitaire(TAG), range(100), 2, SerialSource())]


@pytest.mark.slow
def test_half_moon_on_a_cluster_of_worker_processes():
    """Workers in their own processes import the project and the game registry themselves."""
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0") as local:
        pool = DaskPool(local.scheduler_address)
        try:
            stats = run_survey(solitaire("HM"), [1, 3, 4, 9], pool, limits=Limits(nodes=20_000), method="search")
        finally:
            pool.close()
    assert stats.deals == 4 and stats.winnable == 4
