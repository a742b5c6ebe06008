"""The project's error vocabulary: one small ladder for every game and every interface.

Bad input of any kind is an `InputError` (a `ValueError`) whose message says in one line what
is wrong and where; the CLI prints it and exits 3, the HTTP service answers 400. A malformed
deal code raises `halfmoon.dealcodes.DealCodeError` instead (`dealcodes` imports nothing of the
project), also a `ValueError`. A `SolverBug` is the solver breaking its own contract (a winning
line that does not replay): never shown as an answer, always reported as an internal error.
"""

from __future__ import annotations


class InputError(ValueError):
    """Input that cannot be used: the message names what is wrong and where."""


class MoveError(InputError):
    """A move that cannot be read."""


class IllegalMoveError(MoveError):
    """A move that reads well but is not legal in the position; `reason` says why without the move."""

    def __init__(self, message: str, reason: str | None = None) -> None:
        super().__init__(message)
        self.reason = message if reason is None else reason

    def __reduce__(self) -> tuple[type[IllegalMoveError], tuple[str, str]]:
        return type(self), (str(self), self.reason)


class LineError(MoveError):
    """A line of moves that fails at one move; carries its 1-based index, the text and the reason."""

    def __init__(self, index: int, token: str, reason: str) -> None:
        super().__init__(f"move {index} ({token!r}): {reason}")
        self.index = index
        self.token = token
        self.reason = reason

    def __reduce__(self) -> tuple[type[LineError], tuple[int, str, str]]:
        return LineError, (self.index, self.token, self.reason)


class PositionError(InputError):
    """A layout or position that is not a position of its game (wrong shape, cards, counts)."""


class RuleFileError(InputError):
    """A rule file (or preset name) that cannot be read or does not describe a playable game."""


class UnknownGameError(InputError):
    """A game name or tag that the catalogue does not hold."""


class LimitError(InputError):
    """A limit that makes no sense: negative, zero, not finite, or absurdly large."""


class UnsupportedError(InputError):
    """A question or method the game does not answer (CP-SAT for Elevens, a tier no deal reaches)."""


class NotFoundError(InputError):
    """Input that names something that does not exist where it was looked for (a curated deal cursor)."""


class StoreError(InputError):
    """A results store that cannot be opened, or holds something it should not."""


class AtlasError(InputError):
    """An atlas directory or shard that cannot be used: missing, of another game or format version, busy."""


class AtlasCorruptError(AtlasError):
    """An atlas shard whose checksums or counts do not match its contents (a damaged file)."""


class AtlasConflictError(AtlasError):
    """Two atlases that give one deal different exact verdicts: a merge stops on it, writing nothing."""


class SolverBug(AssertionError):
    """The solver broke its own contract (a line that does not replay): a bug, never an answer."""


__all__ = [
    "AtlasConflictError",
    "AtlasCorruptError",
    "AtlasError",
    "IllegalMoveError",
    "InputError",
    "LimitError",
    "LineError",
    "MoveError",
    "NotFoundError",
    "PositionError",
    "RuleFileError",
    "SolverBug",
    "StoreError",
    "UnknownGameError",
    "UnsupportedError",
]
