"""Drawing a family position as text: single-card places as a grid, deeper piles as lists."""

from __future__ import annotations

from typing import Any

from .rules import Position
from .schema import RuleSet


def draw_position(rules: RuleSet, position: Position, symbols: bool = False) -> str:
    """Single-card places as a grid (rows of `columns`), deeper piles as lists; then reserve and stock."""
    def name(card: Any) -> str:
        return "··" if card is None else card.symbol() if symbols else str(card)

    lines = []
    if all(depth == 1 for depth in rules.depths):
        columns = rules.columns or rules.piles
        for row in range(0, rules.piles, columns):
            cells = []
            for index in range(row, min(row + columns, rules.piles)):
                pile = position.piles[index]
                cells.append(f"{index + 1:>2}:{name(pile[-1] if pile else None)}")
            lines.append("  ".join(cells))
    else:
        for index, pile in enumerate(position.piles, start=1):
            lines.append(f"{index:>3}: {' '.join(map(name, pile)) or '(empty)'}")
    if position.reserve:
        lines.append("  R: " + " ".join(name(c) for c in position.reserve))
    if rules.stock_size:
        lines.append(f"  stock ({len(position.stock)}, next first): " + (" ".join(map(name, position.stock)) or "(empty)"))
    return "\n".join(lines)
