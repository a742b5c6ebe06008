"""What the solver processes run: plain top-level functions with picklable arguments and results.

Each job calls the facade (`import halfmoon`) and hands back plain values: a `to_json()` dict,
or the store's records (`StoredResult`, a `RatedDeal`) for the parent's one writer to store.
Every function returns a `Done` (the value) or a `Failed` (an input error or a bug, as text):
exceptions never cross the process boundary, because an exception class whose constructor
takes other arguments than its message cannot be unpickled by the parent, and that would
break the whole pool instead of failing one request.

The parent validates every input before it sends work here, so a `Failed` of kind ``input``
only happens when the two checks disagree; it is still answered 400.
"""

from __future__ import annotations

import os
import select
import signal
import threading
import time
import traceback
from dataclasses import dataclass
from typing import Any, Callable

#: Modules the fork server imports once, so every worker starts with the games loaded.
PRELOAD = ("halfmoon.cli.server.preload",)


@dataclass(frozen=True)
class Done:
    value: Any


@dataclass(frozen=True)
class Failed:
    """`kind` is ``input`` (a ValueError: the message is for the client) or ``internal`` (a bug)."""

    kind: str
    type: str
    message: str
    trace: str = ""


@dataclass(frozen=True)
class Solved:
    """A deal solved on a worker: the answer as `solve --json` prints it, and the store's row for it."""

    answer: dict[str, Any]
    stored: Any  # halfmoon.service.StoredResult


def worker_init(service_pid: int) -> None:
    """Run in every solver process as it starts: leave Ctrl-C to the service, and end with the service.

    A worker's parent is the pool's fork server, not the service, and the fork server lives as
    long as any worker does; so each worker watches the service process itself (a pidfd on Linux,
    else a check twice a second) and exits when it ends, however it ends (kill -9 included). The
    fork server then sees its last client go and exits too.
    """
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        handle: int | None = os.pidfd_open(service_pid)
    except (AttributeError, OSError):  # not Linux, an old kernel, or the service is gone already
        handle = None
        if not _alive(service_pid):
            os._exit(1)

    def watch() -> None:
        if handle is not None:
            select.select([handle], [], [])  # readable once the service process has ended
        else:
            while _alive(service_pid):
                time.sleep(0.5)
        os._exit(1)

    threading.Thread(target=watch, name="service-watch", daemon=True).start()


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _guarded(fn: Callable[[], Any]) -> Done | Failed:
    try:
        return Done(fn())
    except ValueError as error:
        return Failed("input", type(error).__name__, str(error))
    except RecursionError:  # input nested beyond reason: bad input, not a bug
        return Failed("input", "InputError", "input nested too deeply")
    except Exception as error:  # a bug: the parent logs the trace and answers 500
        return Failed("internal", type(error).__name__, str(error), traceback.format_exc())


def warm_up(hold: float = 0.0) -> Done | Failed:
    """Load every game; hold the worker `hold` seconds; the worker's pid.

    Holding makes the pool hand one warm-up job to each worker, so every process exists (and is
    warm) before the first request; the pid lets the service list its workers.
    """

    def run() -> int:
        from . import preload

        preload.load_games()
        if hold > 0:
            time.sleep(hold)
        return os.getpid()

    return _guarded(run)


def solve_job(code: str, limits: Any) -> Done | Failed:
    """`halfmoon.solve(code)` within `limits` (a `halfmoon.Limits`): a `Solved`."""

    def run() -> Solved:
        import halfmoon

        result = halfmoon.solve(code, limits=limits)
        parsed = halfmoon.service.parse_code(code)
        return Solved(result.to_json(), result.to_stored(parsed.game, parsed.number))

    return _guarded(run)


def hint_job(position: dict[str, Any], game: str | None, rules: Any, limits: Any) -> Done | Failed:
    """`halfmoon.hint` on a solitaire position (its JSON, of `game` or of the rule set `rules`): its JSON."""

    def run() -> dict[str, Any]:
        import halfmoon

        return halfmoon.hint(position, game=game, rules=rules, limits=limits).to_json()

    return _guarded(run)


def fair_hint_job(position: dict[str, Any], game: str | None, rules: Any, samples: int | None, seed: int,
                  budget: float) -> Done | Failed:
    """`halfmoon.fair_hint` on a solitaire position (its JSON), sampled within `budget` seconds: its JSON."""

    def run() -> dict[str, Any]:
        import halfmoon

        extra: dict[str, Any] = {"samples": samples} if samples is not None else {}
        return halfmoon.fair_hint(position, game=game, rules=rules, seed=seed, budget=budget, **extra).to_json()

    return _guarded(run)


def analyze_job(start: Any, game: str | None, rules: Any, moves: str, limits: Any) -> Done | Failed:
    """`halfmoon.analyze` of a line of moves from `start` (a code or a layout): its JSON."""

    def run() -> dict[str, Any]:
        import halfmoon

        return halfmoon.analyze(start, moves=moves, game=game, rules=rules, limits=limits).to_json()

    return _guarded(run)


def endgame_job(game: str, position: dict[str, Any], until: str | None, seed: int, limits: Any,
                method: str) -> Done | Failed:
    """`halfmoon.endgame` on a multiplayer position (its JSON), played on to the endgame if asked: its JSON."""

    def run() -> dict[str, Any]:
        import halfmoon

        return halfmoon.endgame(position, game=game, until=until, seed=seed, limits=limits, method=method).to_json()

    return _guarded(run)


def rate_job(code: str, params: Any) -> Done | Failed:
    """`halfmoon.service.rate`: solve within the rating's node budget and rate if winnable (a `RatedDeal`)."""

    def run() -> Any:
        import halfmoon

        return halfmoon.service.rate(code, params=params)

    return _guarded(run)
