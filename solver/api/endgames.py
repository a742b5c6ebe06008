"""Endgames of the multiplayer games: the exact answers about a position, and the position asked about."""

from __future__ import annotations

from typing import Any, Callable

from ..core.verdicts import Limits
from ..errors import InputError, UnsupportedError
from ..results import EndgameResult
from .resolve import EndgameStart, SolitaireStart, Start, resolve


def endgame(
    start: Start,
    *,
    game: str | None = None,
    moves: str = "",
    until: str | None = None,
    seed: int = 0,
    limits: Limits | None = None,
    method: str = "auto",
    progress: Callable[[dict[str, Any]], None] | None = None,
) -> EndgameResult:
    """The exact answers about a multiplayer position: each question's value, every move's value, a line.

    ``until="endgame"`` first plays the game's fixed seeded policy on to its endgame. A limit
    ends in ``unknown`` (with the bounds the explored part proves), never a guess. `progress`, if
    given, is called about twice a second during the solve with a dict: ``seconds``,
    ``positions``, ``nodes``, ``positions_per_second``, ``nodes_per_second``, ``memory_bytes``
    (growth of the process), ``time_limit`` and ``final`` (True on the last call of a solve).
    """
    from ..core.report import DEFAULT_LIMITS, answer

    found, position, played = _asked(start, game, moves, until, seed,
                                     "ask `solve` or `hint` about its deals")
    effective = (limits or Limits()).over(DEFAULT_LIMITS)
    report = answer(found.adapter, position, effective, method, progress=progress)
    return EndgameResult(found.info.name, found.adapter.title, tuple(played), report, found.adapter.describe(position))


def endgame_position(start: Start, *, game: str | None = None, moves: str = "", until: str | None = None,
                     seed: int = 0) -> EndgameResult:
    """The position `endgame` would solve (after the moves and the policy), without solving it."""
    from ..core.report import position_report

    found, position, played = _asked(start, game, moves, until, seed, "`deal` or `replay` shows its positions")
    report = position_report(found.adapter, position)
    return EndgameResult(found.info.name, found.adapter.title, tuple(played), report, found.adapter.describe(position))


def _asked(start: Start, game: str | None, moves: str, until: str | None, seed: int,
           for_solitaires: str) -> tuple[EndgameStart, Any, list[str]]:
    """The position an endgame question is about: the start, its moves played, then the policy's."""
    from ..core.report import play_to_endgame

    found = resolve(start, game, None)
    if isinstance(found, SolitaireStart):
        raise UnsupportedError(f"{found.solitaire.title} is a solitaire: {for_solitaires}")
    position = found.position
    if moves.strip():
        if found.code is None:
            raise InputError("moves go with a deal code (a position is already the position)")
        position = found.adapter.position_from_code(found.code, moves)
    played: list[str] = []
    if until is not None:
        if until != "endgame":
            raise InputError(f"until {until!r}: expected 'endgame'")
        position, played = play_to_endgame(found.adapter, position, seed)
    return found, position, played


__all__ = ["endgame", "endgame_position"]
