"""Lines of moves, for every game: how a line is split into moves and how it is played.

Every game writes a line the same way (moves separated by commas and/or white space) and
reports the first move that cannot be read or played the same way (`LineError` with its
1-based index, its text and the reason), so these two live here once.
"""

from __future__ import annotations

import re
from typing import Callable, Iterable, TypeVar

from halfmoon.solver.errors import LineError, MoveError

P = TypeVar("P")
M = TypeVar("M")

_SEPARATORS = re.compile(r"[,\s]+")


def split_line(text: str) -> list[str]:
    """A line's moves: separated by commas and/or white space."""
    return [token for token in _SEPARATORS.split(text.strip()) if token]


def parse_line(text: str, parse: Callable[[str], M], split: Callable[[str], list[str]] = split_line) -> list[M]:
    """Every move of a line read with `parse`; the first that cannot be read raises `LineError`."""
    moves = []
    for index, token in enumerate(split(text), start=1):
        try:
            moves.append(parse(token))
        except MoveError as error:
            raise LineError(index, token, str(error)) from None
    return moves


def play_line(
    start: P,
    line: str | Iterable[str | M],
    parse: Callable[[str], M],
    apply: Callable[[P, M], P],
    split: Callable[[str], list[str]] = split_line,
) -> tuple[P, tuple[M, ...]]:
    """Play a line (text, or moves and texts) from `start`: the position reached and the moves played.

    The first move that cannot be read or played raises `LineError` naming its index; a
    reason that starts by repeating the move's text drops that prefix.
    """
    tokens: list[str | M] = list(split(line)) if isinstance(line, str) else list(line)
    position = start
    played: list[M] = []
    for index, token in enumerate(tokens, start=1):
        try:
            move = parse(token) if isinstance(token, str) else token
            position = apply(position, move)
        except MoveError as error:
            raise LineError(index, str(token), str(error).removeprefix(f"move {token}: ")) from None
        played.append(move)
    return position, tuple(played)
