"""The Half Moon engines: tests that take `hm_engine` run once with each (native skipped if not built)."""

from __future__ import annotations

import pytest

from halfmoon.solver.games.halfmoon import kernel


@pytest.fixture(params=kernel.ENGINES)
def hm_engine(request, monkeypatch) -> str:
    """Makes `request.param` the default engine of every Half Moon solve (HALFMOON_ENGINE)."""
    if request.param == "native" and not kernel.available():
        pytest.skip(f"the native Half Moon kernel is not built: {kernel.unavailable_reason()}")
    monkeypatch.setenv(kernel.ENV_VAR, request.param)
    return request.param
