"""SP1: dealing a round of Spit from a deal number (normative: docs/dealcodes.md, section SP1).

The 52-card standard order is shuffled with the deal number; seat 0 (who acts first) takes
``a[0..25]`` and seat 1 ``a[26..51]``. Each seat lays out its cards with `lay_out`, the way
the table does it: the five stock piles are dealt in rows (row r puts one card on each of
piles r … 5), so a short hand (fewer than 15 cards, in later rounds) still fills the piles
"as far as the cards go", and the cards after the 15th are the seat's spit cards, the first
of them on top.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Sequence

from .cards import Card, standard_deck
from .codes import DealCode, GameCodec, check_number, parse_code, register_game
from .rng import shuffled

SEATS = 2
HAND = 26  # cards each seat receives in the first round
STOCK_PLACES = 5
STOCK_CARDS = 15  # 1 + 2 + 3 + 4 + 5

CODEC = register_game(GameCodec("SP", "Spit", frozenset({1}), ("N",), "'N' (Spit is always two players)"))


def row_order(count: int) -> list[tuple[int, int]]:
    """For the first `count` stock cards (count ≤ 15): the (pile, row) each one is dealt to.

    Row r (1-based) deals one card to each of piles r … 5, left to right; pile k therefore
    holds its row-1 card at the bottom and its row-k card on top.
    """
    order = [(pile, row) for row in range(STOCK_PLACES) for pile in range(row, STOCK_PLACES)]
    return order[:count]


def lay_out(cards: Sequence[Card]) -> tuple[tuple[tuple[Card, ...], ...], tuple[Card, ...]]:
    """A seat's layout from its cards in dealing order: (five stock piles bottom → top, spit cards top first).

    The first min(15, n) cards go to the stock in rows (see `row_order`), the rest are the
    spit cards with ``cards[15]`` on top. Fewer than 15 cards give a partial layout, some
    piles shorter or empty, and no spit cards.
    """
    piles: list[list[Card]] = [[] for _ in range(STOCK_PLACES)]
    for card, (pile, _row) in zip(cards, row_order(min(len(cards), STOCK_CARDS))):
        piles[pile].append(card)
    return tuple(tuple(pile) for pile in piles), tuple(cards[STOCK_CARDS:])


@dataclass(frozen=True)
class SpitSeat:
    """One seat's dealt cards: five stock piles (bottom → top, the top face up), spit cards (top first)."""

    piles: tuple[tuple[Card, ...], ...]
    spit: tuple[Card, ...]

    def to_json(self) -> dict[str, Any]:
        return {"stock": [[str(card) for card in pile] for pile in self.piles], "spit": [str(card) for card in self.spit]}


@dataclass(frozen=True)
class SpitDeal:
    """A dealt round of Spit before the opening spit: the two seats' layouts."""

    number: int
    seats: tuple[SpitSeat, SpitSeat]

    @property
    def code(self) -> DealCode:
        return DealCode("SP", 1, "N", self.number)

    def to_json(self) -> dict[str, Any]:
        return {"code": str(self.code), "number": self.number, "players": [seat.to_json() for seat in self.seats]}


def deal_spit(number: int) -> SpitDeal:
    """Shuffle the 52-card standard order with the deal number; seat s lays out ``a[26s … 26s+25]``."""
    check_number(number)
    cards = shuffled(standard_deck(copies=1), number)
    seats = []
    for seat in range(SEATS):
        piles, spit = lay_out(cards[HAND * seat : HAND * (seat + 1)])
        seats.append(SpitSeat(piles, spit))
    return SpitDeal(number, (seats[0], seats[1]))


def deal_spit_from_code(text: str) -> SpitDeal:
    return deal_spit(parse_code(text, expect_game="SP").number)
