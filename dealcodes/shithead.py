"""SH1: dealing Shithead (Palace) for 2–5 players from a deal number.

Normative text: docs/dealcodes.md, section SH1. One 52-card deck in the canonical order
(clubs, diamonds, hearts, spades; A..K within a suit), shuffled by the shared generator, then
dealt round the table as people deal: three rounds of face-down cards, three of face-up cards,
three of hand cards; the rest is the stock, whose first card is the top (drawn first).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .cards import Card, standard_deck
from .codes import DealCode, GameCodec, check_number, parse_code, register_game
from .rng import shuffled

MIN_PLAYERS, MAX_PLAYERS = 2, 5
CARDS_EACH = 3  # face-down, face-up and hand cards per player

CODEC = register_game(
    GameCodec(
        "SH",
        "Shithead",
        frozenset({1}),
        tuple(str(n) for n in range(MIN_PLAYERS, MAX_PLAYERS + 1)),
        "a player count 2-5",
    )
)

# Order used to find who starts: 4 lowest … A highest; 2 and 3 sit outside the order.
_START_ORDER = {rank: rank for rank in range(4, 14)} | {1: 14}


@dataclass(frozen=True)
class ShitheadDeal:
    """A dealt Shithead table: per seat its face-down, face-up and hand cards (slot order), the
    stock (top first), and the seat that starts (lowest hand card, see `starting_seat`)."""

    number: int
    players: int
    face_down: tuple[tuple[Card, ...], ...]
    face_up: tuple[tuple[Card, ...], ...]
    hands: tuple[tuple[Card, ...], ...]
    stock: tuple[Card, ...]

    @property
    def code(self) -> DealCode:
        return DealCode("SH", 1, str(self.players), self.number)

    @property
    def starting_seat(self) -> int:
        return starting_seat(self.hands)

    def to_json(self) -> dict[str, Any]:
        return {
            "code": str(self.code),
            "number": self.number,
            "players": self.players,
            "face_down": [[str(c) for c in cards] for cards in self.face_down],
            "face_up": [[str(c) for c in cards] for cards in self.face_up],
            "hands": [[str(c) for c in cards] for cards in self.hands],
            "stock": [str(c) for c in self.stock],
            "to_move": self.starting_seat,
        }


def starting_seat(hands: tuple[tuple[Card, ...], ...]) -> int:
    """The seat holding the lowest card in hand (4, else 5, … else A; 2s and 3s do not count);
    ties go to the earlier seat; seat 0 if nobody holds a card in the order."""
    best: tuple[int, int] | None = None
    for seat, hand in enumerate(hands):
        for card in hand:
            strength = _START_ORDER.get(card.rank)
            if strength is not None and (best is None or (strength, seat) < best):
                best = (strength, seat)
    return 0 if best is None else best[1]


def deal_shithead(number: int, players: int) -> ShitheadDeal:
    """Card a[i] of the shuffled deck: face-down slot k of seat p is a[k*n + p], face-up slot k
    a[3n + k*n + p], hand card k a[6n + k*n + p] (n players, k = 0..2); the stock is a[9n:],
    a[9n] on top."""
    check_number(number)
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise ValueError(f"Shithead players {players}: expected {MIN_PLAYERS}-{MAX_PLAYERS}")
    cards = shuffled(standard_deck(), number)
    n = players

    def row(block: int) -> tuple[tuple[Card, ...], ...]:
        base = block * CARDS_EACH * n
        return tuple(tuple(cards[base + k * n + p] for k in range(CARDS_EACH)) for p in range(n))

    return ShitheadDeal(number, n, row(0), row(1), row(2), tuple(cards[3 * CARDS_EACH * n :]))


def shithead_deal_from_code(text: str) -> ShitheadDeal:
    code = parse_code(text, expect_game="SH")
    return deal_shithead(code.number, int(code.variant))
