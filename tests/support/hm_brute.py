"""An independent brute-force Half Moon solver for small layouts, built on the rules alone.

It shares no code with the search or CP-SAT: every legal move of `Position.legal_moves`
is tried, with a memo on the exact position (suits and places included), so it is slow
but obviously right. Use it on layouts of at most ~16 cards.
"""

from __future__ import annotations

from functools import lru_cache

from halfmoon.dealcodes import parse_card
from halfmoon.solver.games.halfmoon.rules import Position


def brute_winnable(position: Position) -> bool:
    """True iff some sequence of legal moves removes every card."""

    @lru_cache(maxsize=None)
    def win(current: Position) -> bool:
        if current.is_won:
            return True
        return any(win(current.apply(move)) for move in current.legal_moves())

    return win(position)


def layout(piles: list[str], reserve: str = "") -> Position:
    """A small position: piles as 'bottom ... top' card lists, reserve slots ('--' empty)."""
    return Position(
        tuple(tuple(parse_card(c) for c in pile.split()) for pile in piles),
        tuple(None if c == "--" else parse_card(c) for c in reserve.split()),
    )
