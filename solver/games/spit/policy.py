"""Spit's fixed policy for `--until endgame`: a uniformly random legal action from a seeded SplitMix64."""

from __future__ import annotations

from halfmoon.dealcodes import SplitMix64

from .rules import SpitMove, SpitPosition, _apply, legal_moves, terminal

ENDGAME_STOCK = 20  # --until endgame stops once both stocks together hold at most this many cards
POLICY_SALT = 0x5350_454E_4447_414D  # "SPENDGAM": keeps the policy's stream apart from dealing


def policy_move(position: SpitPosition, rng: SplitMix64) -> SpitMove:
    """The fixed policy: a uniformly random legal action."""
    moves = legal_moves(position)
    return moves[rng.below(len(moves))]


def play_until_endgame(
    position: SpitPosition, seed: int, stock: int = ENDGAME_STOCK
) -> tuple[SpitPosition, list[SpitMove]]:
    """Play the policy until both stocks together hold at most `stock` cards or the round ends."""
    rng = SplitMix64(seed ^ POLICY_SALT)
    moves: list[SpitMove] = []
    while terminal(position) is None and position.stock_left(0) + position.stock_left(1) > stock:
        move = policy_move(position, rng)
        position = _apply(position, move)
        moves.append(move)
    return position, moves
