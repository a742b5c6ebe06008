"""An independent, deliberately plain solver for small positions: the tests' reference.

It shares nothing with the search but the rules engine: no packing, no symmetry, no safe
moves, no dead-card test, just every legal move from every position (memoised on the
immutable `Position`). Exponential, so only for small deals and endgames; a node cap turns
a runaway into an error instead of a hang.
"""

from __future__ import annotations

from halfmoon.solver.games.family.rules import Game, Move, Position


class BruteForceLimit(RuntimeError):
    """The position was too big for brute force (more than `max_positions` positions)."""


def brute_force(game: Game, start: Position, max_positions: int = 200_000) -> tuple[bool, list[Move] | None]:
    """Whether `start` can be won, and one winning line (replayed by the caller if wanted)."""
    memo: dict[Position, bool] = {}
    best: dict[Position, Move] = {}

    def win(position: Position) -> bool:
        if game.is_won(position):
            return True
        if position in memo:
            return memo[position]
        if len(memo) >= max_positions:
            raise BruteForceLimit(f"more than {max_positions} positions")
        memo[position] = False
        for move in game.legal_moves(position):
            if win(game.apply(position, move)):
                memo[position] = True
                best[position] = move
                break
        return memo[position]

    if not win(start):
        return False, None
    line, position = [], start
    while not game.is_won(position):
        move = best[position]
        line.append(move)
        position = game.apply(position, move)
    return True, line
