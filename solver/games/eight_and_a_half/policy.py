"""The fixed seeded policy that plays a deal forward to its endgame (every bank empty).

Not a strong player, just a reproducible one: the same position and seed always give the same
moves, in every version (SplitMix64, never `random`). Documented in
docs/rules/eight_and_a_half.md ("Playing forward to the endgame").
"""

from __future__ import annotations

from halfmoon.dealcodes.rng import SplitMix64
from halfmoon.solver.errors import PositionError

from .kernel import GAME, EightAndAHalf
from .position import BLIND, COMBO, EAT, Move
from .rules import DEMON, HALF

SALT = 0x4548_454E_4447_414D  # "EHENDGAM": keeps this policy's stream apart from other games'
_JOKER_ORDER = {0: 0, HALF: 1, DEMON: 3}  # 0, then ½, then 8+½ (2), then the Demon


def policy_move(game: EightAndAHalf, position: int, rng: SplitMix64) -> Move:
    """One time in four a uniformly random legal move; otherwise a catch if there is one, else
    all copies of the lowest number card that fits, else one joker (0, ½, 8+½, Demon). A blind
    card is a uniformly random face-down card (the policy never peeks); eating only when forced."""
    moves = game.legal_moves(position)
    if moves[0].kind == EAT:
        return moves[0]
    if moves[0].kind == BLIND:
        blind = game.decode(position).seats[game.to_move(position)].blind
        card = blind[rng.below(len(blind))]
        return next(m for m in moves if m.face == card)
    if rng.below(4) == 0:
        return moves[rng.below(len(moves))]
    offender = game.offender(position)
    if offender is not None:
        police = (game.pile_v2(position) + 1) // 2
        catches = [m for m in moves if m.kind != COMBO and m.face == police and not (police == 8)]
        if catches:
            return max(catches, key=lambda m: m.count)
    numbers = [m for m in moves if m.kind != COMBO and 1 <= m.face <= 9]
    if numbers:
        lowest = min(m.face for m in numbers)
        return max((m for m in numbers if m.face == lowest), key=lambda m: m.count)
    return min(moves, key=lambda m: (2 if m.kind == COMBO else _JOKER_ORDER[m.face], m.count))


def play_until_endgame(
    position: int, seed: int = 0, game: EightAndAHalf = GAME, max_moves: int = 5000
) -> tuple[int, list[Move]]:
    """Play the policy until every bank is empty or someone goes out; returns the position
    reached and the moves played (replayable with `--moves`)."""
    rng = SplitMix64(seed ^ SALT)
    moves: list[Move] = []
    while not game.banks_empty(position) and game.terminal(position) is None:
        if len(moves) >= max_moves:
            raise PositionError(f"the policy did not empty the banks within {max_moves} moves")
        move = policy_move(game, position, rng)
        position = game.apply(position, move)
        moves.append(move)
    return position, moves
