"""Half Moon rules: positions, moves, legality, replay. No search lives here.

A position is an immutable value: the cards still in each pile (bottom → top) and in each
reserve slot. Moves remove a pair of number cards summing to 11 or a jack, queen and king,
taken from pile tops and reserve slots. The number of piles and slots is free, so small
hand-made layouts use the same rules as the 12-pile, 8-slot deal.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cached_property
from itertools import combinations
from typing import Any, Iterable, Mapping, NamedTuple, Sequence

from halfmoon.dealcodes import Card, CardError, HalfMoonDeal, deal_from_code, parse_card
from halfmoon.dealcodes.cards import JACK, KING, QUEEN
from halfmoon.solver.errors import LineError, MoveError, PositionError

PAIR_POINTS = 10
TRIPLE_POINTS = 15
FACE_RANKS = (JACK, QUEEN, KING)


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
        raise MoveError(f"unknown place {text.strip()!r}: expected a pile number 1-12 or a reserve slot R1-R8")
    return Place(bool(match.group(1)), int(match.group(2)) - 1)


@dataclass(frozen=True)
class Move:
    """A removal: two places (a pair) or three (a triple), kept in canonical order."""

    places: tuple[Place, ...]

    def __post_init__(self) -> None:
        ordered = tuple(sorted(self.places))
        object.__setattr__(self, "places", ordered)
        if len(ordered) not in (2, 3):
            raise MoveError(f"move {self}: expected 2 places (a pair) or 3 (a jack, queen and king)")
        if len(set(ordered)) != len(ordered):
            twice = next(p for p in ordered if ordered.count(p) > 1)
            raise MoveError(f"move {self}: place {twice} is used twice")

    def __str__(self) -> str:
        return "+".join(map(str, self.places))

    @property
    def points(self) -> int:
        return PAIR_POINTS if len(self.places) == 2 else TRIPLE_POINTS

    @classmethod
    def parse(cls, text: str) -> Move:
        return parse_move(text)


def parse_move(text: str) -> Move:
    """Read ``1+8``, ``8+5+3`` or ``R3+12``; order inside a move does not matter."""
    token = text.strip()
    if not token:
        raise MoveError("empty move: expected places joined by '+', e.g. '1+8' or '8+5+3'")
    parts = token.split("+")
    places = []
    for part in parts:
        if not part.strip():
            raise MoveError(f"move {token!r}: empty place between '+' signs")
        places.append(parse_place(part))
    if len(places) not in (2, 3):
        raise MoveError(
            f"move {token!r} names {len(places)} place(s), expected 2 (a pair) or 3 (a jack, queen and king)"
        )
    if len(set(places)) != len(places):
        twice = next(str(p) for p in places if places.count(p) > 1)
        raise MoveError(f"move {token!r}: place {twice} is used twice")
    return Move(tuple(places))


def split_line(text: str) -> list[str]:
    """A game line: moves separated by commas and/or white space."""
    return [token for token in re.split(r"[,\s]+", text.strip()) if token]


def parse_line(text: str) -> list[Move]:
    moves = []
    for index, token in enumerate(split_line(text), start=1):
        try:
            moves.append(parse_move(token))
        except MoveError as error:
            raise LineError(index, token, str(error)) from None
    return moves


def group_reason(cards: Sequence[Card]) -> str | None:
    """Why these cards do not form a removable group, or None if they do."""
    if len(cards) == 2:
        if any(card.is_face for card in cards):
            return f"{cards[0]} and {cards[1]}: a jack, queen and king are needed to remove face cards"
        if cards[0].rank + cards[1].rank != 11:
            return f"{cards[0]} and {cards[1]} sum to {cards[0].rank + cards[1].rank}: the sum must be 11"
        return None
    if sorted(card.rank for card in cards) != list(FACE_RANKS):
        return f"{' '.join(map(str, cards))}: a jack, a queen and a king are needed"
    return None


@dataclass(frozen=True)
class Position:
    """The cards still on the table. Text form round-trips: ``Position.parse(str(p)) == p``."""

    piles: tuple[tuple[Card, ...], ...]
    reserve: tuple[Card | None, ...]

    @classmethod
    def from_deal(cls, deal: HalfMoonDeal) -> Position:
        return cls(deal.piles, tuple(deal.reserve))

    @classmethod
    def from_code(cls, code: str) -> Position:
        return cls.from_deal(deal_from_code(code))

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

    @property
    def cards_left(self) -> int:
        return sum(map(len, self.piles)) + sum(card is not None for card in self.reserve)

    def all_cards(self) -> list[Card]:
        return [card for pile in self.piles for card in pile] + [c for c in self.reserve if c is not None]

    @property
    def is_won(self) -> bool:
        return self.cards_left == 0

    @property
    def is_dead(self) -> bool:
        """Cards remain but no pair or triple can be taken."""
        return not self.is_won and not self.legal_moves()

    # -- moves ---------------------------------------------------------------------------

    def legal_moves(self) -> list[Move]:
        """All removals in canonical order (pairs then triples, by place)."""
        return list(self._legal_moves)

    @cached_property
    def _legal_moves(self) -> tuple[Move, ...]:
        playable = self.playable()
        pairs = [
            Move((a, b))
            for (a, card_a), (b, card_b) in combinations(playable, 2)
            if not card_a.is_face and not card_b.is_face and card_a.rank + card_b.rank == 11
        ]
        faces = {rank: [place for place, card in playable if card.rank == rank] for rank in FACE_RANKS}
        triples = [Move((j, q, k)) for j in faces[JACK] for q in faces[QUEEN] for k in faces[KING]]
        return tuple(sorted(pairs, key=lambda m: m.places) + sorted(triples, key=lambda m: m.places))

    def why_illegal(self, move: Move) -> str | None:
        """The reason `move` cannot be played here, or None if it can."""
        cards = []
        for place in move.places:
            if place.in_reserve and place.index >= len(self.reserve):
                return f"unknown place {place}: there are reserve slots R1-R{len(self.reserve)}"
            if not place.in_reserve and place.index >= len(self.piles):
                return f"unknown place {place}: there are piles 1-{len(self.piles)}"
            card = self.card_at(place)
            if card is None:
                return f"place {place} is empty"
            cards.append(card)
        return group_reason(cards)

    def apply(self, move: Move) -> Position:
        """The position after `move`; raises MoveError if it is not legal here."""
        reason = self.why_illegal(move)
        if reason is not None:
            raise MoveError(f"move {move}: {reason}")
        piles = list(self.piles)
        reserve = list(self.reserve)
        for place in move.places:
            if place.in_reserve:
                reserve[place.index] = None
            else:
                piles[place.index] = piles[place.index][:-1]
        return Position(tuple(piles), tuple(reserve))

    def describe(self, move: Move) -> str:
        """The move with its card names, e.g. ``1+8 (5S+6D)``."""
        return f"{move} ({'+'.join(str(self.card_at(p)) for p in move.places)})"

    # -- text and JSON -------------------------------------------------------------------

    def __str__(self) -> str:
        piles = "/".join("".join(map(str, pile)) or "-" for pile in self.piles)
        reserve = " ".join(str(card) if card else "--" for card in self.reserve)
        return f"{piles} | {reserve}"

    @classmethod
    def parse(cls, text: str) -> Position:
        """Read the text form: piles bottom → top joined by ``/`` (``-`` empty), ``|``, reserve."""
        if text.count("|") != 1:
            raise PositionError("position text: expected 'pile/pile/... | reserve slots' with one '|'")
        pile_text, reserve_text = text.split("|")
        piles: list[tuple[Card, ...]] = []
        for number, chunk in enumerate(pile_text.strip().split("/"), start=1):
            chunk = chunk.strip()
            if chunk == "-":
                piles.append(())
                continue
            if len(chunk) % 2:
                raise PositionError(f"pile {number}: {chunk!r} is not a run of two-character cards")
            piles.append(tuple(_layout_card(chunk[i : i + 2], f"pile {number}") for i in range(0, len(chunk), 2)))
        reserve = [
            None if token == "--" else _layout_card(token, f"reserve slot R{slot}")
            for slot, token in enumerate(reserve_text.split(), start=1)
        ]
        return cls(tuple(piles), tuple(reserve))

    def to_json(self) -> dict[str, Any]:
        """The ``deal --json`` shape: piles bottom → top, reserve slots (null when empty)."""
        return {
            "piles": [[str(card) for card in pile] for pile in self.piles],
            "reserve": [str(card) if card else None for card in self.reserve],
        }

    @classmethod
    def from_json(cls, data: Any) -> Position:
        """Read the ``deal --json`` shape (extra keys such as ``code`` are ignored)."""
        if not isinstance(data, Mapping):
            raise PositionError("layout: expected a JSON object with 'piles' and 'reserve'")
        for key in ("piles", "reserve"):
            if key not in data:
                raise PositionError(f"layout: missing key {key!r}")
        if not isinstance(data["piles"], list) or not all(isinstance(p, list) for p in data["piles"]):
            raise PositionError("layout: 'piles' must be a list of lists of cards (bottom → top)")
        if not isinstance(data["reserve"], list):
            raise PositionError("layout: 'reserve' must be a list of cards or nulls")
        piles = tuple(
            tuple(_layout_card(card, f"piles[{i}][{j}]") for j, card in enumerate(pile))
            for i, pile in enumerate(data["piles"])
        )
        reserve = tuple(
            None if card is None else _layout_card(card, f"reserve[{i}]") for i, card in enumerate(data["reserve"])
        )
        return cls(piles, reserve)


def _layout_card(value: Any, where: str) -> Card:
    if not isinstance(value, str):
        raise PositionError(f"{where}: expected a card such as '5S', got {value!r}")
    try:
        return parse_card(value)
    except CardError as error:
        raise PositionError(f"{where}: {error}") from None


@dataclass(frozen=True)
class Replay:
    """A line played from a start position: where it ends and what it scored."""

    start: Position
    moves: tuple[Move, ...]
    position: Position

    @property
    def score(self) -> int:
        return sum(move.points for move in self.moves)


def replay(start: Position, line: str | Iterable[str | Move]) -> Replay:
    """Play a game line; the first move that cannot be read or played raises LineError."""
    tokens: list[str | Move] = list(split_line(line) if isinstance(line, str) else line)
    position = start
    played = []
    for index, token in enumerate(tokens, start=1):
        try:
            move = token if isinstance(token, Move) else parse_move(token)
            position = position.apply(move)
        except MoveError as error:
            message = str(error)
            prefix = f"move {token}: "
            raise LineError(index, str(token), message.removeprefix(prefix)) from None
        played.append(move)
    return Replay(start, tuple(played), position)


def won_score(position: Position) -> int:
    """The score a won game from `position` earns in all (520 for a full deal)."""
    cards = position.all_cards()
    faces = sum(card.is_face for card in cards)
    return (len(cards) - faces) // 2 * PAIR_POINTS + faces // 3 * TRIPLE_POINTS
