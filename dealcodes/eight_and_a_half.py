"""EH1: the Eight-and-a-half deck, its card notation, and dealing from a deal number.

Normative text: docs/dealcodes.md, section "EH1: Eight and a half". The deck is not a standard
deck: 72 cards of twelve faces, numbers 0–9 plus the two jokers ½ (written ``H``) and Demon
(written ``D``). Cards of one face are indistinguishable, so a card *is* its face, an int 0..11
(numbers are themselves, ½ is 10, Demon is 11); that keeps packing and counting cheap.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum
from typing import Any

from .codes import DealCode, GameCodec, check_number, parse_code, register_game
from .rng import shuffled

MIN_PLAYERS = 2
MAX_PLAYERS = 5
TABLE_SLOTS = 3  # blind cards, open cards and the hand each start with three
CODEC = register_game(
    GameCodec(
        "EH",
        "Eight and a half",
        frozenset({1}),
        tuple(str(n) for n in range(MIN_PLAYERS, MAX_PLAYERS + 1)),
        "a player count 2-5",
    )
)


class EHCardError(ValueError):
    """A card written in a way the Eight-and-a-half notation does not accept."""


class EHCard(IntEnum):
    """One Eight-and-a-half card (its face). Text: ``0``-``9``, ``H`` for ½, ``D`` for Demon."""

    ZERO = 0
    ONE = 1
    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    HALF = 10
    DEMON = 11

    def __str__(self) -> str:
        return SYMBOLS[self]

    def __format__(self, spec: str) -> str:
        return format(SYMBOLS[self], spec)

    @property
    def is_number(self) -> bool:
        return self <= 9

    @property
    def is_joker(self) -> bool:
        """0, ½ and Demon: the cards that may go on (almost) any number."""
        return self in (EHCard.ZERO, EHCard.HALF, EHCard.DEMON)

    def pretty(self) -> str:
        """The face as printed on the card: ``½`` for the half, ``D`` for the Demon."""
        return "½" if self is EHCard.HALF else SYMBOLS[self]

    @classmethod
    def parse(cls, text: str) -> EHCard:
        return parse_eh_card(text)


SYMBOLS = "0123456789HD"
FACES = tuple(EHCard)
COPIES = (6, 4, 4, 6, 6, 6, 6, 6, 6, 6, 8, 8)  # 0, 1, 2, 3 … 9, ½, Demon
DECK_SIZE = sum(COPIES)  # 72
_ALIASES = {"½": EHCard.HALF, "1/2": EHCard.HALF, "HALF": EHCard.HALF, "DEMON": EHCard.DEMON}


def parse_eh_card(text: str) -> EHCard:
    """Read one card: ``0``-``9``, ``H`` (or ``½``, ``1/2``, ``half``), ``D`` (or ``demon``)."""
    token = text.strip().upper() if isinstance(text, str) else text
    if not isinstance(token, str) or not token:
        raise EHCardError(f"card {text!r}: expected 0-9, H (½) or D (Demon)")
    if token in _ALIASES:
        return _ALIASES[token]
    if len(token) == 1 and token in SYMBOLS:
        return EHCard(SYMBOLS.index(token))
    raise EHCardError(f"card {text!r}: unknown card, expected 0-9, H (or ½) for the half, D for the Demon")


def parse_eh_cards(text: str) -> tuple[EHCard, ...]:
    """Read a run of one-character cards such as ``78H`` or ``7 8 ½`` (``-`` or empty: none)."""
    token = "".join(text.split())
    if token in ("", "-"):
        return ()
    return tuple(parse_eh_card(char) for char in token)


def format_eh_cards(cards: tuple[EHCard, ...] | list[EHCard]) -> str:
    """The run form ``78H`` (``-`` when empty); `parse_eh_cards` reads it back."""
    return "".join(SYMBOLS[c] for c in cards) or "-"


def eh_deck() -> list[EHCard]:
    """The canonical order: faces 0, 1, 2 … 9, ½, Demon, each repeated by its number of copies."""
    return [face for face, copies in zip(FACES, COPIES) for _ in range(copies)]


@dataclass(frozen=True)
class EHSeatDeal:
    """One player's cards as dealt. `bank` is in draw order (bank[0] is drawn first)."""

    blind: tuple[EHCard, ...]
    open: tuple[EHCard, ...]
    hand: tuple[EHCard, ...]
    bank: tuple[EHCard, ...]

    def to_json(self) -> dict[str, Any]:
        return {
            "blind": [str(c) for c in self.blind],
            "open": [str(c) for c in self.open],
            "hand": [str(c) for c in self.hand],
            "bank": [str(c) for c in self.bank],
        }


@dataclass(frozen=True)
class EHDeal:
    """A dealt Eight-and-a-half game: every seat's blind, open, hand and bank cards."""

    number: int
    seats: tuple[EHSeatDeal, ...]

    @property
    def players(self) -> int:
        return len(self.seats)

    @property
    def code(self) -> DealCode:
        return DealCode("EH", 1, str(self.players), self.number)

    def to_json(self) -> dict[str, Any]:
        return {
            "code": str(self.code),
            "number": self.number,
            "players": self.players,
            "seats": [seat.to_json() for seat in self.seats],
        }


class EHPlayersError(ValueError):
    """A player count Eight and a half is not dealt for."""


def deal_eight_and_a_half(number: int, players: int) -> EHDeal:
    """Shuffle the canonical 72-card order; card a[i] goes to seat i mod players.

    A seat's k-th card (k = 0, 1, …) is a[seat + k·players]: k = 0–2 are its blind cards,
    3–5 its open cards (open card j lies on blind card j), 6–8 its hand, the rest its bank in
    draw order. With 5 players seats 0 and 1 get 15 cards, the others 14.
    """
    check_number(number)
    if isinstance(players, bool) or not isinstance(players, int) or not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise EHPlayersError(f"player count {players!r}: Eight and a half is dealt for 2-5 players")
    cards = shuffled(eh_deck(), number)
    seats = []
    for seat in range(players):
        mine = cards[seat::players]
        seats.append(EHSeatDeal(tuple(mine[0:3]), tuple(mine[3:6]), tuple(mine[6:9]), tuple(mine[9:])))
    return EHDeal(number, tuple(seats))


def eh_deal_from_code(text: str) -> EHDeal:
    """The deal named by an ``EH1-<players>-XXXXXXX`` code."""
    code = parse_code(text, expect_game="EH")
    return deal_eight_and_a_half(code.number, int(code.variant))
