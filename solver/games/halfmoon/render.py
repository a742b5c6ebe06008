"""Drawing a Half Moon table as text, as the app arranges it (no rules here).

The app's arc, open downwards: piles 1-3 up the left side (1 lowest), 4-10 along the
top from left to right, 11-12 down the right side below the corner; the reserve sits
inside the arc in two rows of four (R1-R4 above R5-R8).
"""

from __future__ import annotations

from halfmoon.dealcodes import Card

from .rules import Position

CELL = 7
# (row, column) of each pile on a 4 x 9 grid, and of each reserve slot.
PILE_CELLS = [(3, 0), (2, 0), (1, 0)] + [(0, c) for c in range(1, 8)] + [(1, 8), (2, 8)]
RESERVE_CELLS = [(2, c) for c in range(2, 6)] + [(3, c) for c in range(2, 6)]


def card_text(card: Card | None, symbols: bool) -> str:
    if card is None:
        return "··"
    return card.symbol() if symbols else str(card)


def draw_table(piles: tuple[tuple[Card, ...], ...], reserve: tuple[Card | None, ...], symbols: bool = False) -> str:
    """The arc with each place's top card and, below it, its label and card count."""
    if len(piles) != len(PILE_CELLS) or len(reserve) != len(RESERVE_CELLS):
        return draw_list(piles, reserve, symbols)
    grid: dict[tuple[int, int], tuple[str, str]] = {}
    for index, (pile, cell) in enumerate(zip(piles, PILE_CELLS), start=1):
        grid[cell] = (card_text(pile[-1] if pile else None, symbols), f"{index}:{len(pile)}")
    for index, (card, cell) in enumerate(zip(reserve, RESERVE_CELLS), start=1):
        grid[cell] = (card_text(card, symbols), f"R{index}:{int(card is not None)}")
    lines = []
    for row in range(4):
        top = "".join(grid.get((row, col), ("", ""))[0].center(CELL) for col in range(9))
        label = "".join(grid.get((row, col), ("", ""))[1].center(CELL) for col in range(9))
        lines += [top.rstrip(), label.rstrip()]
    return "\n".join(lines)


def draw_list(piles: tuple[tuple[Card, ...], ...], reserve: tuple[Card | None, ...], symbols: bool = False) -> str:
    """Every card of every place, bottom → top (the last card is playable)."""
    lines = [
        f"{index:>4} ({len(pile)}): " + " ".join(card_text(card, symbols) for card in pile)
        for index, pile in enumerate(piles, start=1)
    ]
    lines.append("   R:     " + " ".join(card_text(card, symbols) for card in reserve))
    return "\n".join(line.rstrip() for line in lines)


def describe(position: Position, symbols: bool = False, full: bool = False) -> str:
    """The arc; with `full`, also every card of every place, bottom → top."""
    text = draw_table(position.piles, position.reserve, symbols)
    if full:
        text += "\n\nPiles, bottom to top (the last card is playable):\n" + draw_list(position.piles, position.reserve, symbols)
    return text
