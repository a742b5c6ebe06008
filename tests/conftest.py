"""Every test runs with its own results store: commands that cache by default never touch the user's."""

import pytest


@pytest.fixture(autouse=True)
def _private_results_store(tmp_path, monkeypatch):
    monkeypatch.setenv("HALFMOON_DB", str(tmp_path / "results.sqlite3"))
