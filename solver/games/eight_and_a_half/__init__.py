"""Eight and a half ("Shmone VaHetzi"): rules engine, positions, and the endgame adapter.

`position` holds the readable values (Position, Seat, Move, text and JSON), `rules` the pile's
rules card by card, `engine` the packed-int game the exact core solves.
"""

from .endgame import ENDGAME_ADAPTER, EightAndAHalfAdapter  # ENDGAME_ADAPTER registers the CLI game
from .engine import GAME, EHOutcome, EightAndAHalf, decode, encode, make_outcome
from .position import (
    EHIllegalMoveError,
    EHLineError,
    EHMoveError,
    EHPositionError,
    Move,
    Position,
    Seat,
    describe,
    first_player,
    parse_line,
    parse_move,
)

__all__ = [
    "ENDGAME_ADAPTER",
    "GAME",
    "EightAndAHalfAdapter",
    "EHIllegalMoveError",
    "EHLineError",
    "EHMoveError",
    "EHOutcome",
    "EHPositionError",
    "EightAndAHalf",
    "Move",
    "Position",
    "Seat",
    "decode",
    "describe",
    "encode",
    "first_player",
    "make_outcome",
    "parse_line",
    "parse_move",
]
