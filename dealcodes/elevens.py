"""EL1, SE1, TN1: dealing the single-deck games of the Elevens family (normative: docs/dealcodes.md).

Elevens (``EL``), Suit Elevens (``SE``) and Tens (``TN``) all deal the same way and differ only in
how many grid places are dealt face up: the 52-card standard order is shuffled with the deal
number, grid place k (k = 1 … P) gets ``a[k-1]`` and the other cards form the face-down stock in
the order ``a[P]``, ``a[P+1]`` … (``a[P]`` is the first card dealt from it).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .cards import Card, standard_deck
from .codes import (
    DealCode,
    GameCodec,
    UnknownTagError,
    parse_code,
    register_game,
)
from .piles import deal_piles


@dataclass(frozen=True)
class GridGame:
    """What dealing one grid-and-stock game needs: its codec and its number of grid places."""

    codec: GameCodec
    places: int
    columns: int  # for drawing the grid only; dealing does not depend on it


GRID_GAMES: dict[str, GridGame] = {
    game.codec.tag: game
    for game in (
        GridGame(register_game(GameCodec("EL", "Elevens", frozenset({1}), ("N",), "'N' (Elevens has one variant)")), 9, 3),
        GridGame(
            register_game(GameCodec("SE", "Suit Elevens", frozenset({1}), ("N",), "'N' (Suit Elevens has one variant)")),
            15,
            5,
        ),
        GridGame(register_game(GameCodec("TN", "Tens", frozenset({1}), ("N",), "'N' (Tens has one variant)")), 13, 5),
    )
}


@dataclass(frozen=True)
class GridDeal:
    """A dealt grid game: the face-up grid places 1 … P and the stock, next card first."""

    game: str
    number: int
    grid: tuple[Card, ...]
    stock: tuple[Card, ...]

    @property
    def code(self) -> DealCode:
        return DealCode(self.game, 1, "N", self.number)

    @property
    def columns(self) -> int:
        return GRID_GAMES[self.game].columns

    def to_json(self) -> dict[str, Any]:
        return {
            "code": str(self.code),
            "number": self.number,
            "grid": [str(card) for card in self.grid],
            "stock": [str(card) for card in self.stock],
        }


def deal_grid(game: str, number: int) -> GridDeal:
    """Shuffle the 52-card standard order with the deal number; the first P cards are the grid."""
    if game not in GRID_GAMES:
        raise KeyError(f"no grid game with tag {game!r}; expected one of {', '.join(sorted(GRID_GAMES))}")
    piles, _, stock = deal_piles(standard_deck(copies=1), [1] * GRID_GAMES[game].places, 0, number)
    return GridDeal(game, number, tuple(card for (card,) in piles), stock)


def deal_elevens(number: int) -> GridDeal:
    return deal_grid("EL", number)


def grid_deal_from_code(text: str, expect_game: str | None = None) -> GridDeal:
    """The deal a code names, for any grid game (or only `expect_game` when given)."""
    code = parse_code(text, expect_game=expect_game)
    if code.game not in GRID_GAMES:
        raise UnknownTagError(
            f"deal code {str(code)!r} is not a grid game of the Elevens family ({', '.join(sorted(GRID_GAMES))})"
        )
    return deal_grid(code.game, code.number)
