"""Helpers shared by the HTTP service tests (a module of its own: `conftest` is not importable by name)."""

from __future__ import annotations

from pathlib import Path

from fastapi.testclient import TestClient

from halfmoon.cli.server import ServiceConfig, create_app
from halfmoon import RatingParams

#: Small rating budgets so on-demand curation takes seconds (the rating's logic is the same).
SMALL_RATING = RatingParams(random_playouts=4, greedy_playouts=4, solve_nodes=20_000, child_nodes=200)


def make_client(db: Path, **settings: object) -> TestClient:
    """A test client of a fresh app on store `db` (two solver processes unless `workers` is given)."""
    config = ServiceConfig(db_path=db, **{"workers": 2, "wait_default": 20.0, **settings})  # type: ignore[arg-type]
    return TestClient(create_app(config), raise_server_exceptions=False)
