"""What the solver processes run: plain top-level functions with picklable arguments and results.

Every function returns a `Done` (the value) or a `Failed` (an input error or a bug, as text):
exceptions never cross the process boundary, because an exception class whose constructor
takes other arguments than its message cannot be unpickled by the parent, and that would
break the whole pool instead of failing one request.

The parent validates every input before it sends work here, so a `Failed` of kind ``input``
only happens when a game's rules disagree between the two checks; it is still answered 400.
"""

from __future__ import annotations

import os
import time
import traceback
from dataclasses import dataclass
from typing import Any, Callable

#: Modules the fork server imports once, so every worker starts with the solvers loaded.
PRELOAD = (
    "halfmoon.solver.games.halfmoon.portfolio",
    "halfmoon.solver.registry",
    "halfmoon.solver.survey",
    "halfmoon.solver.core.endgame",
    "halfmoon.solver.core.exact",
    "halfmoon.cli.server.work",
)


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


def _guarded(fn: Callable[[], Any]) -> Done | Failed:
    try:
        return Done(fn())
    except ValueError as error:
        return Failed("input", type(error).__name__, str(error))
    except Exception as error:  # a bug: the parent logs the trace and answers 500
        return Failed("internal", type(error).__name__, str(error), traceback.format_exc())


def warm_up(hold: float = 0.0) -> Done | Failed:
    """Load the solvers and the endgame games; hold the worker `hold` seconds.

    Holding makes the pool hand one warm-up job to each worker, so every process exists (and is
    warm) before the first request; it returns the worker's pid so the service can list them.
    """

    def run() -> int:
        from halfmoon.solver.core.endgame import adapters
        from halfmoon.solver.registry import get_game

        get_game("HM")
        adapters()
        if hold > 0:
            time.sleep(hold)
        return os.getpid()

    return _guarded(run)


def solve_job(tag: str, number: int, time_limit: float) -> Done | Failed:
    """Solve one deal of a registered solitaire; the value is a `solver.store.StoredResult`."""

    def run() -> Any:
        from halfmoon.solver.survey import solve_deal

        return solve_deal(tag, number, time_limit, None, None)

    return _guarded(run)


def hint_job(layout: dict[str, Any], time_limit: float) -> Done | Failed:
    """`hint` on a Half Moon position given in the layout JSON shape; the value is its JSON."""

    def run() -> dict[str, Any]:
        from halfmoon.solver.games.halfmoon.portfolio import hint
        from halfmoon.solver.games.halfmoon.rules import Position

        return hint(Position.from_json(layout), time_limit).to_json(None)

    return _guarded(run)


def endgame_job(
    game: str, position: dict[str, Any], until: str | None, seed: int, limits: dict[str, Any], method: str
) -> Done | Failed:
    """The `halfmoon endgame GAME --json` report for a position (played on to the endgame if asked)."""

    def run() -> dict[str, Any]:
        from halfmoon.solver.core.endgame import answer, get_adapter
        from halfmoon.solver.core.exact import Limits

        adapter = get_adapter(game)
        current = adapter.position_from_json(position)
        played: list[str] = []
        if until == "endgame":
            start = current
            current, moves = adapter.until_endgame(current, seed)
            for move in moves:
                played.append(adapter.format_move(start, move))
                start = adapter.game.apply(start, move)
        report = answer(adapter, current, Limits(**limits), method)
        report["played"] = played
        return report

    return _guarded(run)


def rate_job(tag: str, number: int, params: Any) -> Done | Failed:
    """Solve within the rating's node budget and rate if winnable (`solver.survey.RatedDeal`)."""

    def run() -> Any:
        from halfmoon.solver.survey import rate_deal

        return rate_deal(tag, number, params)

    return _guarded(run)
