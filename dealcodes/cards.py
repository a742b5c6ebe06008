"""Standard playing cards: the value type, its two-character notation, and deck orders.

A card is rank + suit, e.g. ``5S``, ``TD``. Input also accepts ``10`` for ten, any case,
and the suit symbols ♣ ♦ ♥ ♠. Output is always the canonical two ASCII characters
(or symbols on request, for terminals that show them).
"""

from __future__ import annotations

from typing import NamedTuple

RANKS = "A23456789TJQK"
SUITS = "CDHS"
SUIT_SYMBOLS = "♣♦♥♠"
RANK_NAMES = ("ace", "2", "3", "4", "5", "6", "7", "8", "9", "10", "jack", "queen", "king")
SUIT_NAMES = ("clubs", "diamonds", "hearts", "spades")

ACE, JACK, QUEEN, KING = 1, 11, 12, 13


class CardError(ValueError):
    """A card written in a way this notation does not accept."""


class Card(NamedTuple):
    """One playing card; rank 1 (ace) … 13 (king), suit 0..3 in the order C D H S."""

    rank: int
    suit: int

    def __str__(self) -> str:
        return RANKS[self.rank - 1] + SUITS[self.suit]

    def symbol(self) -> str:
        """The card with its suit symbol, e.g. ``5♠``."""
        return RANKS[self.rank - 1] + SUIT_SYMBOLS[self.suit]

    @property
    def is_face(self) -> bool:
        return self.rank >= JACK

    @classmethod
    def parse(cls, text: str) -> Card:
        return parse_card(text)


def parse_card(text: str) -> Card:
    """Parse ``5S``, ``td``, ``10D`` or ``5♠``; raise CardError naming what is wrong."""
    token = text.strip()
    if len(token) < 2:
        raise CardError(f"card {text!r}: expected rank + suit, e.g. '5S', 'TD', '10D' or '5♠'")
    rank_text, suit_text = token[:-1].upper(), token[-1]
    if rank_text == "10":
        rank_text = "T"
    if len(rank_text) != 1 or rank_text not in RANKS:
        raise CardError(f"card {text!r}: unknown rank {token[:-1]!r}, expected one of A 2-9 T (or 10) J Q K")
    if suit_text.upper() in SUITS:
        suit = SUITS.index(suit_text.upper())
    elif suit_text in SUIT_SYMBOLS:
        suit = SUIT_SYMBOLS.index(suit_text)
    else:
        raise CardError(f"card {text!r}: unknown suit {suit_text!r}, expected one of C D H S or ♣ ♦ ♥ ♠")
    return Card(RANKS.index(rank_text) + 1, suit)


def standard_deck(copies: int = 1) -> list[Card]:
    """The canonical order: for each copy, for suit in C D H S, for rank A..K."""
    return [Card(rank, suit) for _ in range(copies) for suit in range(4) for rank in range(1, 14)]
