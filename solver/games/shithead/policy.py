"""The fixed seeded policy that plays a Shithead deal on to its endgame (documented in docs/endgames.md)."""

from __future__ import annotations

from halfmoon.dealcodes import SplitMix64
from halfmoon.solver.errors import InputError

from .rules import (
    ANYWHERE,
    PICKUP,
    TEN,
    THREE,
    TWO,
    Move,
    Position,
    _apply,
    legal_moves,
    outcome,
)

# -- a fixed seeded policy to reach the endgame ---------------------------------------------------


def policy_move(position: Position, rng: SplitMix64) -> Move:
    """The project's fixed playing policy (documented in docs/endgames.md): one time in four a
    uniformly random legal play; otherwise all cards of the weakest playable ordinary rank, else
    one special card (3, then 2, then 10); pick up only when nothing can be played."""
    moves = [m for m in legal_moves(position) if m.kind != "pickup"]
    if not moves:
        return PICKUP
    if rng.below(4) == 0:
        return moves[rng.below(len(moves))]
    ordinary = [m for m in moves if m.kind != "play" or m.rank not in ANYWHERE]
    if ordinary:
        weakest = ordinary[0]
        same = [m for m in ordinary if m.kind == weakest.kind and m.rank == weakest.rank]
        return max(same, key=lambda m: (m.count + m.extra_up))
    special_order = {THREE: 0, TWO: 1, TEN: 2}
    return min(moves, key=lambda m: (special_order.get(m.rank, 3), m.count))


def play_until_endgame(position: Position, seed: int, max_moves: int = 2000) -> tuple[Position, list[Move]]:
    """Play the policy from `position` until the stock is empty (or play ends)."""
    rng = SplitMix64(seed ^ 0x5348_454E_4447_414D)  # "SHENDGAM": a fixed salt
    moves: list[Move] = []
    while position.stock and outcome(position) is None:
        if len(moves) >= max_moves:
            raise InputError(f"the policy did not empty the stock within {max_moves} moves")
        move = policy_move(position, rng)
        position = _apply(position, move)
        moves.append(move)
    return position, moves
