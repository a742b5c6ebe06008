"""Pile-and-reserve solitaires: places, removal moves and positions, shared by Half Moon and the family.

Half Moon and every rule file of the Elevens family lay cards in piles (bottom → top, the top
card playable), reserve slots (every card playable) and, for some, a stock that refills the
table. A move removes the playable cards of two or more places at once. This module holds that
shared notation and the position value with its text and JSON forms; each game adds its own
rules (which groups may go, scoring, refills) on top. No search lives here.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, ClassVar, Mapping, NamedTuple, TypeVar

from halfmoon.dealcodes import Card, CardError, parse_card
from halfmoon.solver.errors import MoveError, PositionError


class Place(NamedTuple):
    """A pile (``in_reserve`` False) or reserve slot, 0-based inside, 1-based in text."""

    in_reserve: bool
    index: int  # type: ignore[assignment]  # the field shadows tuple.index on purpose (a place's number)

    def __str__(self) -> str:
        return f"R{self.index + 1}" if self.in_reserve else str(self.index + 1)


_PLACE_RE = re.compile(r"^(R?)(\d+)$", re.IGNORECASE)


def parse_place(text: str) -> Place:
    match = _PLACE_RE.match(text.strip())
    if not match or int(match.group(2)) < 1:
        raise MoveError(f"unknown place {text.strip()!r}: expected a pile number such as 3 or a reserve slot such as R2")
    return Place(bool(match.group(1)), int(match.group(2)) - 1)


@dataclass(frozen=True)
class Move:
    """A removal: the places whose playable cards are taken together, kept in canonical order."""

    places: tuple[Place, ...]

    def __post_init__(self) -> None:
        ordered = tuple(sorted(self.places))
        object.__setattr__(self, "places", ordered)
        if len(ordered) < 2:
            raise MoveError(f"move {self}: a removal takes at least 2 cards")
        if len(set(ordered)) != len(ordered):
            twice = next(p for p in ordered if ordered.count(p) > 1)
            raise MoveError(f"move {self}: place {twice} is used twice")

    def __str__(self) -> str:
        return "+".join(map(str, self.places))


M = TypeVar("M", bound=Move)


def parse_places(text: str, fewest: int = 2) -> tuple[str, list[Place]]:
    """Read the places of ``1+8``, ``8+5+3`` or ``R3+12``: the move's text and its places (no repeats).

    Fewer than `fewest` places is an error (a game that says how many it wants passes 1 and checks).
    """
    token = text.strip()
    if not token:
        raise MoveError("empty move: expected places joined by '+', e.g. '1+8' or '8+5+3'")
    places = []
    for part in token.split("+"):
        if not part.strip():
            raise MoveError(f"move {token!r}: empty place between '+' signs")
        places.append(parse_place(part))
    if len(places) < fewest:
        raise MoveError(f"move {token!r} names 1 place: a removal takes at least 2 cards")
    if len(set(places)) != len(places):
        twice = next(str(p) for p in places if places.count(p) > 1)
        raise MoveError(f"move {token!r}: place {twice} is used twice")
    return token, places


def card_at(where: str, value: Any) -> Card:
    """A card of a layout (``"5S"``), or a `PositionError` naming where it stands."""
    if not isinstance(value, str):
        raise PositionError(f"{where}: expected a card such as '5S', got {value!r}")
    try:
        return parse_card(value)
    except CardError as error:
        raise PositionError(f"{where}: {error}") from None


@dataclass(frozen=True)
class PilePosition:
    """The cards still in play: piles (bottom → top), reserve slots (None when empty), the stock (next first).

    Text form round-trips: ``type(p).parse(str(p)) == p``. A game without a stock (`HAS_STOCK`
    False, Half Moon) writes ``piles | reserve``; one with a stock adds ``| stock``.
    """

    piles: tuple[tuple[Card, ...], ...]
    reserve: tuple[Card | None, ...] = ()
    stock: tuple[Card, ...] = ()

    HAS_STOCK: ClassVar[bool] = True
    #: Keys a layout JSON must have (a game without a stock needs its reserve spelled out).
    REQUIRED: ClassVar[tuple[str, ...]] = ("piles",)

    # -- reading the table -------------------------------------------------------------

    def card_at(self, place: Place) -> Card | None:
        if place.in_reserve:
            return self.reserve[place.index] if place.index < len(self.reserve) else None
        pile = self.piles[place.index] if place.index < len(self.piles) else ()
        return pile[-1] if pile else None

    def playable(self) -> list[tuple[Place, Card]]:
        """Every card that can be taken now: each pile's top and every reserve card."""
        cards = [(Place(False, i), pile[-1]) for i, pile in enumerate(self.piles) if pile]
        cards += [(Place(True, i), card) for i, card in enumerate(self.reserve) if card is not None]
        return cards

    def all_cards(self) -> list[Card]:
        return [c for pile in self.piles for c in pile] + [c for c in self.reserve if c is not None] + list(self.stock)

    @property
    def cards_left(self) -> int:
        return sum(map(len, self.piles)) + sum(c is not None for c in self.reserve) + len(self.stock)

    def taken(self, move: Move) -> list[Card] | str:
        """The cards `move` takes here, or why it cannot take them (a place that is not there or is empty)."""
        cards = []
        for place in move.places:
            if place.in_reserve and place.index >= len(self.reserve):
                slots = f"R1-R{len(self.reserve)}" if self.reserve else "none"
                return f"unknown place {place}: reserve slots are {slots}"
            if not place.in_reserve and place.index >= len(self.piles):
                return f"unknown place {place}: there are piles 1-{len(self.piles)}"
            card = self.card_at(place)
            if card is None:
                return f"place {place} is empty"
            cards.append(card)
        return cards

    def without(self, move: Move) -> tuple[list[tuple[Card, ...]], list[Card | None]]:
        """The piles and reserve once `move`'s cards are gone (a legal move; no refill)."""
        piles = list(self.piles)
        reserve = list(self.reserve)
        for place in move.places:
            if place.in_reserve:
                reserve[place.index] = None
            else:
                piles[place.index] = piles[place.index][:-1]
        return piles, reserve

    def describe(self, move: Move) -> str:
        """The move with its card names, e.g. ``1+8 (5S+6D)``."""
        return f"{move} ({'+'.join(str(self.card_at(p)) for p in move.places)})"

    # -- text and JSON -------------------------------------------------------------------

    def __str__(self) -> str:
        piles = "/".join("".join(map(str, pile)) or "-" for pile in self.piles)
        reserve = " ".join(str(card) if card else "--" for card in self.reserve)
        if not self.HAS_STOCK:
            return f"{piles} | {reserve}"
        return f"{piles} | {reserve or '-'} | {' '.join(map(str, self.stock)) or '-'}"

    @classmethod
    def parse(cls: type[P], text: str) -> P:
        """Read ``piles (bottom → top, '/' between, '-' empty) | reserve ('--' empty)[ | stock]``."""
        parts = [part.strip() for part in text.split("|")]
        if cls.HAS_STOCK and len(parts) != 3:
            raise PositionError("position text: expected 'pile/pile/... | reserve | stock' with two '|' ('-' for none)")
        if not cls.HAS_STOCK and len(parts) != 2:
            raise PositionError("position text: expected 'pile/pile/... | reserve slots' with one '|'")
        piles: list[tuple[Card, ...]] = []
        for number, chunk in enumerate(parts[0].split("/"), start=1):
            chunk = chunk.strip()
            if chunk == "-":
                piles.append(())
                continue
            if not chunk or len(chunk) % 2:
                raise PositionError(f"pile {number}: {chunk!r} is not a run of two-character cards")
            piles.append(tuple(card_at(f"pile {number}", chunk[i : i + 2]) for i in range(0, len(chunk), 2)))
        reserve = () if parts[1] in ("", "-") and cls.HAS_STOCK else tuple(
            None if token == "--" else card_at(f"reserve slot R{slot}", token)
            for slot, token in enumerate(parts[1].split(), start=1)
        )
        stock: tuple[Card, ...] = ()
        if cls.HAS_STOCK and parts[2] != "-":
            stock = tuple(card_at(f"stock card {i}", t) for i, t in enumerate(parts[2].split(), start=1))
        return cls(tuple(piles), reserve, stock)

    def to_json(self) -> dict[str, Any]:
        """The layout file shape: piles bottom → top, reserve slots (null when empty)[, the stock]."""
        data: dict[str, Any] = {
            "piles": [[str(card) for card in pile] for pile in self.piles],
            "reserve": [str(card) if card else None for card in self.reserve],
        }
        if self.HAS_STOCK:
            data["stock"] = [str(card) for card in self.stock]
        return data

    @classmethod
    def from_json(cls: type[P], data: Any) -> P:
        """Read the layout file shape (extra keys such as ``code`` are ignored), or a grid deal's ``{"grid", "stock"}``."""
        if not isinstance(data, Mapping):
            keys = "'piles' (or 'grid'), 'reserve' and 'stock'" if cls.HAS_STOCK else "'piles' and 'reserve'"
            raise PositionError(f"layout: expected a JSON object with {keys}")
        for key in cls.REQUIRED:
            if key not in data and not (key == "piles" and "grid" in data):
                raise PositionError(f"layout: missing key {key!r}" + (" (or 'grid')" if key == "piles" and cls.HAS_STOCK
                                                                      else ""))
        if "grid" in data and "piles" not in data:
            grid = data["grid"]
            if not isinstance(grid, list):
                raise PositionError("layout: 'grid' must be a list of cards (place 1 first; null for an empty place)")
            piles: tuple[tuple[Card, ...], ...] = tuple(
                () if c is None else (card_at(f"grid[{i}]", c),) for i, c in enumerate(grid))
        else:
            raw = data["piles"]
            if not isinstance(raw, list) or not all(isinstance(p, list) for p in raw):
                raise PositionError("layout: 'piles' must be a list of lists of cards (bottom → top)")
            piles = tuple(tuple(card_at(f"piles[{i}][{j}]", c) for j, c in enumerate(p)) for i, p in enumerate(raw))
        reserve_raw = data.get("reserve", [])
        if not isinstance(reserve_raw, list):
            raise PositionError("layout: 'reserve' must be a list of cards or nulls")
        reserve = tuple(None if c is None else card_at(f"reserve[{i}]", c) for i, c in enumerate(reserve_raw))
        stock: tuple[Card, ...] = ()
        if cls.HAS_STOCK:
            stock_raw = data.get("stock", [])
            if not isinstance(stock_raw, list):
                raise PositionError("layout: 'stock' must be a list of cards, the next card to deal first")
            stock = tuple(card_at(f"stock[{i}]", c) for i, c in enumerate(stock_raw))
        return cls(piles, reserve, stock)


P = TypeVar("P", bound=PilePosition)
