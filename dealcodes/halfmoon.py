"""HM1: dealing Half Moon from a deal number (normative: docs/dealcodes.md, section HM1)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .cards import Card, standard_deck
from .codes import DealCode, GameCodec, parse_code, register_game
from .piles import deal_piles

PILES = 12
PILE_DEPTH = 8
RESERVE_SLOTS = 8

CODEC = register_game(GameCodec("HM", "Half Moon", frozenset({1}), ("N",), "'N' (Half Moon has one variant)"))


@dataclass(frozen=True)
class HalfMoonDeal:
    """A dealt Half Moon layout: 12 piles listed bottom → top, and the 8 reserve slots."""

    number: int
    piles: tuple[tuple[Card, ...], ...]
    reserve: tuple[Card, ...]

    @property
    def code(self) -> DealCode:
        return DealCode("HM", 1, "N", self.number)

    def to_json(self) -> dict[str, Any]:
        return {
            "code": str(self.code),
            "number": self.number,
            "piles": [[str(card) for card in pile] for pile in self.piles],
            "reserve": [str(card) for card in self.reserve],
        }


def deal_halfmoon(number: int) -> HalfMoonDeal:
    """Shuffle the canonical 104-card order with the deal number; pile k takes a[8(k-1)] … a[8k-1]."""
    piles, reserve, _ = deal_piles(standard_deck(copies=2), [PILE_DEPTH] * PILES, RESERVE_SLOTS, number)
    return HalfMoonDeal(number, piles, reserve)


def deal_from_code(text: str) -> HalfMoonDeal:
    return deal_halfmoon(parse_code(text, expect_game="HM").number)
