"""The engine choice for the Half Moon search: the compiled kernel (`_kernel`) or the Python search.

`_kernel.pyx` is a port of `search.py` and the core DFS that visits the same nodes in the same
order (same verdicts, lines and node counts); `search.py` stays the readable reference. The
kernel is built by `pip install` when a C compiler is there; without one the Python search is
used and `fallback_warning()` says so in one line.

Engines: ``"native"`` (the kernel) and ``"python"`` (the reference). `resolve(None)` picks the
default: the ``HALFMOON_ENGINE`` environment variable if set (worker processes inherit it),
else native when the kernel is built, else python.
"""

from __future__ import annotations

import os
from typing import Any, Sequence

from halfmoon.dealcodes import Card
from halfmoon.solver.errors import UnsupportedError

ENGINES = ("native", "python")
ENV_VAR = "HALFMOON_ENGINE"

try:
    from halfmoon.solver.games.halfmoon import _kernel  # type: ignore[attr-defined]
except ImportError as error:  # not built: no compiler, or a source checkout without a build
    _kernel = None
    _MISSING: str | None = str(error)
else:
    _MISSING = None


def available() -> bool:
    """Whether the compiled kernel is importable."""
    return _kernel is not None


def unavailable_reason() -> str | None:
    """Why the kernel cannot be used (None when it can)."""
    return _MISSING


def default_engine() -> str:
    """``HALFMOON_ENGINE`` if set, else native when built, else python."""
    chosen = os.environ.get(ENV_VAR, "").strip().lower()
    if chosen:
        return check(chosen)
    return "native" if available() else "python"


def check(engine: str) -> str:
    if engine not in ENGINES:
        raise UnsupportedError(f"unknown engine {engine!r}: expected one of {', '.join(ENGINES)}")
    return engine


def resolve(engine: str | None) -> str:
    """The engine to run: `engine` as asked (native must be built), or the default when None.

    The default falls back to python silently (the CLI prints `fallback_warning()`); asking for
    native explicitly where it is not built is an error, not a quiet fallback.
    """
    if engine is None:
        chosen = default_engine()
        return chosen if chosen == "python" or available() else "python"
    check(engine)
    if engine == "native" and not available():
        raise UnsupportedError(f"the native Half Moon engine is not built ({_MISSING}); use --engine python "
                               "or reinstall with a C compiler")
    return engine


def fallback_warning() -> str | None:
    """One line for stderr when the default engine falls back to Python, else None."""
    if available() or os.environ.get(ENV_VAR, "").strip().lower() == "python":
        return None
    return "warning: the native Half Moon search is not built (no C compiler at install?); using the slower Python search"


def new_search(piles: Sequence[Sequence[Any]], reserve: Sequence[Any], capacity: int, memo_cap: int,
               reverse: bool = False) -> Any:
    """A kernel search state for one direction (cards or ranks; `reverse` turns every pile over).

    Raises `Unsupported` (a ValueError) for a layout it cannot pack, ValueError for a bad rank.
    """
    assert _kernel is not None
    return _kernel.Search(piles, reserve, capacity, memo_cap, reverse)


def unsupported_error() -> type[Exception]:
    return _kernel.Unsupported if _kernel is not None else ValueError


def kernel_error() -> type[Exception]:
    return _kernel.KernelError if _kernel is not None else RuntimeError


def playouts(piles: Sequence[Sequence[Card | int]], reserve: Sequence[Card | int | None], state: int, count: int,
             greedy: bool) -> tuple[int, int]:
    assert _kernel is not None
    return _kernel.playouts(piles, reserve, state, count, greedy)
