"""GF1: dealing six-card Golf from a deal number (normative: docs/dealcodes.md, section GF1).

The 52-card standard order is shuffled with the deal number. Seat p (0-based; seat 0 sits left
of the dealer and plays first) gets ``a[6p] … a[6p+5]`` in its slots 1 … 6 (slots 1-3 the top
row left to right, 4-6 the bottom row, so column c is slots c and c+3), all face down. The rest,
``a[6n] … a[51]``, is the stock with ``a[6n]`` on top; that top card is turned up to start the
discard pile, so the first card drawn from the stock is ``a[6n+1]``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .cards import Card, standard_deck
from .codes import (
    BadVariantError,
    DealCode,
    GameCodec,
    check_number,
    parse_code,
    register_game,
)
from .rng import shuffled

HAND_SIZE = 6
MIN_PLAYERS = 2
MAX_PLAYERS = 6

CODEC = register_game(
    GameCodec(
        "GF",
        "six-card Golf",
        frozenset({1}),
        tuple(str(n) for n in range(MIN_PLAYERS, MAX_PLAYERS + 1)),
        f"a player count {MIN_PLAYERS}-{MAX_PLAYERS}",
    )
)


@dataclass(frozen=True)
class GolfDeal:
    """A dealt round: each seat's six cards (slots 1 … 6), the first discard, the stock (top first)."""

    number: int
    hands: tuple[tuple[Card, ...], ...]
    discard: Card
    stock: tuple[Card, ...]

    @property
    def players(self) -> int:
        return len(self.hands)

    @property
    def code(self) -> DealCode:
        return DealCode("GF", 1, str(self.players), self.number)

    def to_json(self) -> dict[str, Any]:
        return {
            "code": str(self.code),
            "number": self.number,
            "hands": [[str(card) for card in hand] for hand in self.hands],
            "discard": str(self.discard),
            "stock": [str(card) for card in self.stock],
        }


def deal_golf(number: int, players: int) -> GolfDeal:
    """Deal GF1 number `number` for `players` seats (2 … 6)."""
    check_number(number)
    if isinstance(players, bool) or not isinstance(players, int) or not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise BadVariantError(f"six-card Golf player count {players!r}: expected {MIN_PLAYERS}-{MAX_PLAYERS}")
    cards = shuffled(standard_deck(copies=1), number)
    hands = tuple(tuple(cards[HAND_SIZE * p : HAND_SIZE * (p + 1)]) for p in range(players))
    rest = cards[HAND_SIZE * players :]
    return GolfDeal(number, hands, rest[0], tuple(rest[1:]))


def golf_deal_from_code(text: str) -> GolfDeal:
    """The deal a ``GF1-<players>-XXXXXXX`` code names (any other game's code is an error)."""
    code = parse_code(text, expect_game="GF")
    return deal_golf(code.number, int(code.variant))
