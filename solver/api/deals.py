"""Deals and lines of any game: the dealt position, and where a line of moves leads (nothing is solved)."""

from __future__ import annotations

from typing import Any, Callable, Sequence

from halfmoon.dealcodes import parse_code

from ..core.adapters import EndgameAdapter
from ..errors import UnsupportedError
from ..results import Deal, Replay
from .resolve import EndgameStart, Rules, Start, after_moves, resolve


def deal(start: Start, *, game: str | None = None, rules: Rules | None = None) -> Deal:
    """The dealt position of a code (any game), a deal number (with ``game=`` or ``rules=``), or a layout."""
    found = resolve(start, game, rules)
    if isinstance(found, EndgameStart):
        position = found.position
        number = parse_code(found.code).number if found.code else None
        return Deal(found.info.name, found.info.title, found.code, number, position,
                    _endgame_draw(found.adapter), found.adapter.position_to_json(position))
    solitaire = found.solitaire
    return Deal(solitaire.name, solitaire.title, found.code, found.number, found.position, solitaire.describe,
                solitaire.position_to_json(found.position))


def _endgame_draw(adapter: EndgameAdapter) -> Callable[[Any, bool, bool], str]:
    def draw(position: Any, symbols: bool = False, full: bool = False) -> str:
        return adapter.describe(position)

    return draw


def replay(start: Start, moves: str | Sequence[Any] = "", *, game: str | None = None,
           rules: Rules | None = None) -> Replay:
    """Play a line of moves; the first move that cannot be read or played raises `LineError` (with its index)."""
    found = resolve(start, game, rules)
    if isinstance(found, EndgameStart):
        if found.code is None:
            raise UnsupportedError(f"{found.info.title}: replay takes a deal code and moves")
        line = moves if isinstance(moves, str) else " ".join(map(str, moves))
        position = found.adapter.position_from_code(found.code, line)
        status = "over" if found.adapter.game.terminal(position) is not None else "open"
        return Replay(found.info.name, found.code, tuple(line.replace(",", " ").split()), position, status, None,
                      _endgame_draw(found.adapter), found.adapter.position_to_json(position))
    solitaire = found.solitaire
    position, played = after_moves(solitaire, found.position, moves)
    status = "won" if solitaire.is_won(position) else "dead" if solitaire.is_dead(position) else "open"
    score = sum(map(solitaire.points, played)) if solitaire.points is not None else None
    return Replay(solitaire.name, found.code, played, position, status, score, solitaire.describe,
                  solitaire.position_to_json(position), tuple(solitaire.legal_moves(position)))


__all__ = ["deal", "replay"]
