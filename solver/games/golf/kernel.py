"""Six-card Golf as the exact core's `Game` (acyclic: repetition ends the round, with the history in the position)."""

from __future__ import annotations

from typing import Any, Sequence

from halfmoon.dealcodes.golf import HAND_SIZE

from .rules import FULL_HAND, Move, Position, RoundResult

# -- the core's view ------------------------------------------------------------------------------


class GolfGame:
    """The `solver.core.game.Game` protocol for Golf. Acyclic because a position carries the
    positions seen since the last irreversible move, so the repetition rule is part of it."""

    name = "golf"
    acyclic = True

    def players(self, position: Position) -> int:
        return len(position.hands) // HAND_SIZE

    def to_move(self, position: Position) -> int:
        return position.to_move

    def legal_moves(self, position: Position) -> Sequence[Move]:
        """The legal moves in the order that lets alpha-beta cut soonest (measured in
        benchmarks/golf_endgames.py): moves that turn the mover's last face-down card (going out,
        which ends the round soon), then SX, then the other moves that draw or turn a card, and
        last the swaps among face-up cards — the only moves that can lead back to a seen position,
        and whose lines are long."""
        moves = position.legal_moves()
        if not moves or position.in_setup:
            return moves
        base = HAND_SIZE * position.to_move
        up = position.up
        hand_up = (up >> base) & FULL_HAND
        out: list[Move] = []
        discard_stock: list[Move] = []
        others: list[Move] = []
        internal: list[Move] = []
        for move in moves:
            k = move.a
            if k < 0:
                discard_stock.append(move)
            elif hand_up >> k & 1:
                (internal if move.kind == "D" else others).append(move)
            elif hand_up | (1 << k) == FULL_HAND:
                out.append(move)
            else:
                others.append(move)
        return out + discard_stock + others + internal

    def apply(self, position: Position, move: Move) -> Position:
        return position.apply(move)

    def terminal(self, position: Position) -> RoundResult | None:
        return position.result()

    def key(self, position: Position) -> Any:
        """Everything that decides the future, packed: cards, stock, discard pile, face-up bits,
        mover, last-turn seat, variant, the repetition history and the repetition flag."""
        blob = bytes(position.hands) + b"\xfe" + bytes(position.stock) + b"\xfe" + bytes(position.discard)
        flags = (position.to_move, position.ender + 1, position.minus_two, position.repeated)
        return (blob, position.up, flags, position.seen)


GOLF = GolfGame()
