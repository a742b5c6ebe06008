"""Fixtures for the HTTP service tests: one running app (two solver processes) per test module.

The solver processes fork from one fork server that imports the solvers once per test session,
so each further app costs about a second to start.
"""

from __future__ import annotations

from pathlib import Path
from typing import Iterator

import pytest

pytest.importorskip("fastapi")

from fastapi.testclient import TestClient  # noqa: E402
from http_helpers import SMALL_RATING, make_client  # noqa: E402


@pytest.fixture(scope="module")
def store_path(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("http") / "results.sqlite3"


@pytest.fixture(scope="module")
def client(store_path: Path) -> Iterator[TestClient]:
    with make_client(store_path, rating_params=SMALL_RATING, curate_scan=40) as test_client:
        yield test_client
