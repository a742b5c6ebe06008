"""The fewest actions one player needs to clear the stock alone (the solitaire count).

"Alone" means the opponent never plays or fills: its stock stays as it is, but it still spits
with the player (a spit is simultaneous), so its spit cards keep changing pile B (or A). The
player acts every turn: plays and fills cost one action each, and when the player is stuck
one pass (the action that calls the spit) costs one more. Breadth-first search over the
player's positions finds the minimum exactly; None means the player cannot clear alone
(stuck with no spit card left on either side).

Why it is useful: it measures how far each player is from clearing, ignoring interference.
It is not a bound on the race itself — the opponent's plays change the spit pile tops and
can help as well as hinder — and the report says so.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from typing import Any

from .rules import (
    PASS,
    PASS_MOVE,
    PLAY,
    SpitMove,
    SpitPosition,
    _apply,
    _spit,
    actions,
    key,
)


@dataclass(frozen=True)
class SolitaireCount:
    """The minimum for one seat: its actions split by kind, and one line achieving it."""

    seat: int
    actions: int
    plays: int
    fills: int
    spits: int
    line: tuple[SpitMove, ...]
    positions: int  # distinct positions searched

    def to_json(self) -> dict[str, Any]:
        return {
            "player": self.seat + 1,
            "actions": self.actions,
            "plays": self.plays,
            "fills": self.fills,
            "spits": self.spits,
            "line": [str(m) for m in self.line],
            "positions": self.positions,
        }


class SolitaireLimitError(ValueError):
    """The solitaire search met its position limit before finding the minimum."""


def solitaire_step(position: SpitPosition, seat: int, move: SpitMove) -> SpitPosition:
    """One of `seat`'s actions when playing alone; a pass is the spit (the opponent passes too)."""
    here = position._replace(to_move=seat, passed=False)
    if move.kind == PASS:
        return _spit(here, seat)
    return _apply(here, move)._replace(to_move=seat)


def solitaire_moves(position: SpitPosition, seat: int) -> list[SpitMove]:
    """`seat`'s actions alone: its plays and fills, else a pass if someone can still spit, else none."""
    moves = actions(position, seat)
    if moves:
        return moves
    if position.spit_cards[0] or position.spit_cards[1]:
        return [PASS_MOVE]
    return []


def solitaire_count(position: SpitPosition, seat: int, max_positions: int = 2_000_000) -> SolitaireCount | None:
    """The fewest actions for `seat` to clear the stock alone, or None if it cannot.

    Raises SolitaireLimitError past `max_positions` distinct positions (never a guess).
    """
    start = position._replace(to_move=seat, passed=False)
    if not any(start.stock[seat]):
        return SolitaireCount(seat, 0, 0, 0, 0, (), 1)
    parent: dict[bytes, tuple[bytes, SpitMove] | None] = {key(start): None}
    frontier: deque[SpitPosition] = deque([start])
    while frontier:
        here = frontier.popleft()
        here_key = key(here)
        for move in solitaire_moves(here, seat):
            child = solitaire_step(here, seat, move)
            child_key = key(child)
            if child_key in parent:
                continue
            parent[child_key] = (here_key, move)
            if not any(child.stock[seat]):
                line = _line(parent, child_key)
                return _count(start, seat, line, len(parent))
            if len(parent) > max_positions:
                raise SolitaireLimitError(
                    f"solitaire count for player {seat + 1}: position limit {max_positions} reached"
                )
            frontier.append(child)
    return None


def _line(parent: dict[bytes, tuple[bytes, SpitMove] | None], end: bytes) -> tuple[SpitMove, ...]:
    moves = []
    link = parent[end]
    while link is not None:
        previous, move = link
        moves.append(move)
        link = parent[previous]
    return tuple(reversed(moves))


def _count(start: SpitPosition, seat: int, line: tuple[SpitMove, ...], positions: int) -> SolitaireCount:
    """Replay the line through the solitaire rules (the check) and count its actions by kind."""
    position = start
    for move in line:
        if move not in solitaire_moves(position, seat):
            raise AssertionError(f"solitaire line for player {seat + 1}: {move} is not legal")  # a bug, not input
        position = solitaire_step(position, seat, move)
    if any(position.stock[seat]):
        raise AssertionError(f"solitaire line for player {seat + 1} does not clear the stock")
    plays = sum(m.kind == PLAY for m in line)
    spits = sum(m.kind == PASS for m in line)
    return SolitaireCount(seat, len(line), plays, len(line) - plays - spits, spits, line, positions)
