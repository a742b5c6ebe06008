"""The rules engine for the Elevens family: positions, moves, refills, won and dead, driven by a `RuleSet`.

A position is an immutable value: the cards in each pile (bottom → top), each reserve slot,
and the stock (next card first). The rules (what may be removed, how the stock refills, when
the game is won) come from the rule file, so Half Moon, Elevens, Suit Elevens, Tens and custom
games share this one module. No search lives here.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from itertools import combinations, product
from typing import Any, Iterable, Iterator, Mapping, NamedTuple, Sequence, TypeVar

from halfmoon.dealcodes import Card, CardError, parse_card, shuffled
from halfmoon.dealcodes.codes import check_number
from halfmoon.solver.errors import LineError, MoveError, PositionError

from .schema import (
    KIND_SET,
    KIND_SUM,
    REFILL_EMPTY_PILES,
    WIN_ALL_REMOVED,
    Removal,
    RuleSet,
)

H = TypeVar("H")


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
    """A removal: the places whose playable cards are taken together, in canonical order."""

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

    @classmethod
    def parse(cls, text: str) -> Move:
        return parse_move(text)


def parse_move(text: str) -> Move:
    """Read ``1+8``, ``8+5+3`` or ``R3+12``; order inside a move does not matter."""
    token = text.strip()
    if not token:
        raise MoveError("empty move: expected places joined by '+', e.g. '1+8' or '8+5+3'")
    places = []
    for part in token.split("+"):
        if not part.strip():
            raise MoveError(f"move {token!r}: empty place between '+' signs")
        places.append(parse_place(part))
    if len(places) < 2:
        raise MoveError(f"move {token!r} names 1 place: a removal takes at least 2 cards")
    if len(set(places)) != len(places):
        twice = next(str(p) for p in places if places.count(p) > 1)
        raise MoveError(f"move {token!r}: place {twice} is used twice")
    return Move(tuple(places))


def split_line(text: str) -> list[str]:
    """A game line: moves separated by commas and/or white space."""
    return [token for token in re.split(r"[,\s]+", text.strip()) if token]


# -- which groups may be removed -------------------------------------------------------------


def rule_accepts(rule: Removal, cards: Sequence[Card]) -> bool:
    """Whether `rule` removes exactly these cards."""
    if len(cards) != rule.size or any(card.rank not in rule.ranks for card in cards):
        return False
    if rule.same_suit and len({card.suit for card in cards}) != 1:
        return False
    if rule.kind == KIND_SUM:
        return sum(card.rank for card in cards) == rule.target
    if rule.kind == KIND_SET:
        return sorted(card.rank for card in cards) == list(rule.ranks)
    return len({card.rank for card in cards}) == 1


def find_groups(removals: Sequence[Removal], items: Sequence[tuple[H, int, int]]) -> list[tuple[H, ...]]:
    """Every removable group among `items` (handle, rank, suit), as tuples of handles, no repeats.

    Handles come back in the order of `items`. Used by the rules and by the search alike.
    """
    found: dict[frozenset[int], tuple[H, ...]] = {}
    for rule in removals:
        pool = [(i, rank, suit) for i, (_, rank, suit) in enumerate(items) if rank in rule.ranks]
        buckets: dict[Any, list[int]] = {}
        if rule.kind == KIND_SUM and rule.cards == 2:
            by_value: dict[tuple[int, int], list[int]] = {}
            for i, rank, suit in pool:
                by_value.setdefault((rank, suit if rule.same_suit else 0), []).append(i)
            for i, rank, suit in pool:
                partner = rule.target - rank
                for j in by_value.get((partner, suit if rule.same_suit else 0), ()):
                    if j > i:
                        found.setdefault(frozenset((i, j)), ())
        elif rule.kind == KIND_SUM:
            for combo in combinations(pool, rule.cards):
                if sum(c[1] for c in combo) == rule.target and (not rule.same_suit or len({c[2] for c in combo}) == 1):
                    found.setdefault(frozenset(c[0] for c in combo), ())
        elif rule.kind == KIND_SET:
            for i, rank, suit in pool:
                buckets.setdefault((rank, suit if rule.same_suit else 0), []).append(i)
            for suit in (set(s for _, _, s in pool) if rule.same_suit else {0}):
                lists = [buckets.get((rank, suit), []) for rank in rule.ranks]
                for group in product(*lists):
                    found.setdefault(frozenset(group), ())
        else:
            for i, rank, suit in pool:
                buckets.setdefault((rank, suit if rule.same_suit else 0), []).append(i)
            for members in buckets.values():
                for group in combinations(members, rule.count):
                    found.setdefault(frozenset(group), ())
    return [tuple(items[i][0] for i in sorted(group)) for group in found]


def group_reason(removals: Sequence[Removal], cards: Sequence[Card]) -> str | None:
    """Why these cards form no removable group, or None if some rule removes them."""
    if any(rule_accepts(rule, cards) for rule in removals):
        return None
    names = "+".join(map(str, cards))
    rules = "; ".join(rule.describe() for rule in removals)
    return f"{names} fit no removal rule (this game removes: {rules})"


# -- positions -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Position:
    """The cards still in play. Text form round-trips: ``Position.parse(str(p)) == p``."""

    piles: tuple[tuple[Card, ...], ...]
    reserve: tuple[Card | None, ...] = ()
    stock: tuple[Card, ...] = ()

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

    def describe(self, move: Move) -> str:
        """The move with its card names, e.g. ``1+8 (5S+6D)``."""
        return f"{move} ({'+'.join(str(self.card_at(p)) for p in move.places)})"

    # -- text and JSON ---------------------------------------------------------------------

    def __str__(self) -> str:
        piles = "/".join("".join(map(str, pile)) or "-" for pile in self.piles)
        reserve = " ".join(str(card) if card else "--" for card in self.reserve) or "-"
        stock = " ".join(map(str, self.stock)) or "-"
        return f"{piles} | {reserve} | {stock}"

    @classmethod
    def parse(cls, text: str) -> Position:
        """Read ``piles (bottom → top, '/' between, '-' empty) | reserve ('--' empty) | stock``."""
        parts = text.split("|")
        if len(parts) != 3:
            raise PositionError("position text: expected 'pile/pile/... | reserve | stock' with two '|' ('-' for none)")
        pile_text, reserve_text, stock_text = (part.strip() for part in parts)
        piles: list[tuple[Card, ...]] = []
        for number, chunk in enumerate(pile_text.split("/"), start=1):
            chunk = chunk.strip()
            if chunk == "-":
                piles.append(())
                continue
            if not chunk or len(chunk) % 2:
                raise PositionError(f"pile {number}: {chunk!r} is not a run of two-character cards")
            piles.append(tuple(_card(chunk[i : i + 2], f"pile {number}") for i in range(0, len(chunk), 2)))
        reserve = () if reserve_text == "-" else tuple(
            None if token == "--" else _card(token, f"reserve slot R{slot}")
            for slot, token in enumerate(reserve_text.split(), start=1)
        )
        stock = () if stock_text == "-" else tuple(_card(t, f"stock card {i}") for i, t in enumerate(stock_text.split(), start=1))
        return cls(tuple(piles), reserve, stock)

    def to_json(self) -> dict[str, Any]:
        return {
            "piles": [[str(card) for card in pile] for pile in self.piles],
            "reserve": [str(card) if card else None for card in self.reserve],
            "stock": [str(card) for card in self.stock],
        }

    @classmethod
    def from_json(cls, data: Any) -> Position:
        """Read ``{"piles", "reserve"?, "stock"?}``, or a grid deal's ``{"grid", "stock"}``.

        Extra keys such as ``code`` are ignored, so `deal --json` output is a layout file.
        """
        if not isinstance(data, Mapping):
            raise PositionError("layout: expected a JSON object with 'piles' (or 'grid'), 'reserve' and 'stock'")
        if "grid" in data and "piles" not in data:
            grid = data["grid"]
            if not isinstance(grid, list):
                raise PositionError("layout: 'grid' must be a list of cards (place 1 first; null for an empty place)")
            piles: tuple[tuple[Card, ...], ...] = tuple(
                () if c is None else (_card(c, f"grid[{i}]"),) for i, c in enumerate(grid))
        else:
            if "piles" not in data:
                raise PositionError("layout: missing key 'piles' (or 'grid')")
            raw = data["piles"]
            if not isinstance(raw, list) or not all(isinstance(p, list) for p in raw):
                raise PositionError("layout: 'piles' must be a list of lists of cards (bottom → top)")
            piles = tuple(tuple(_card(c, f"piles[{i}][{j}]") for j, c in enumerate(p)) for i, p in enumerate(raw))
        reserve_raw = data.get("reserve", [])
        if not isinstance(reserve_raw, list):
            raise PositionError("layout: 'reserve' must be a list of cards or nulls")
        stock_raw = data.get("stock", [])
        if not isinstance(stock_raw, list):
            raise PositionError("layout: 'stock' must be a list of cards, the next card to deal first")
        reserve = tuple(None if c is None else _card(c, f"reserve[{i}]") for i, c in enumerate(reserve_raw))
        stock = tuple(_card(c, f"stock[{i}]") for i, c in enumerate(stock_raw))
        return cls(piles, reserve, stock)


def _card(value: Any, where: str) -> Card:
    if not isinstance(value, str):
        raise PositionError(f"{where}: expected a card such as '5S', got {value!r}")
    try:
        return parse_card(value)
    except CardError as error:
        raise PositionError(f"{where}: {error}") from None


# -- the game: rules applied to positions -----------------------------------------------------


@dataclass(frozen=True)
class Replay:
    """A line played from a start position, and where it ends."""

    start: Position
    moves: tuple[Move, ...]
    position: Position


class Game:
    """A `RuleSet` put to work: dealing, legal moves, applying (with refills), won and dead."""

    def __init__(self, rules: RuleSet) -> None:
        self.rules = rules

    def __repr__(self) -> str:
        return f"Game({self.rules.name!r})"

    # -- dealing and checking layouts ---------------------------------------------------------

    def deck(self) -> list[Card]:
        """The deck in standard order: for each copy, suit C D H S, rank A … K (only those used)."""
        r = self.rules
        return [Card(rank, suit) for _ in range(r.copies) for suit in r.suits for rank in r.ranks]

    def deal(self, number: int) -> Position:
        """The generic deal: shuffle the standard order; piles in turn, then the reserve, then the stock.

        For each preset with a deal-code tag this is the codec's procedure (checked by the tests).
        """
        check_number(number)
        cards = shuffled(self.deck(), number)
        piles, at = [], 0
        for depth in self.rules.depths:
            piles.append(tuple(cards[at : at + depth]))
            at += depth
        reserve = tuple(cards[at : at + self.rules.reserve])
        return Position(tuple(piles), reserve, tuple(cards[at + self.rules.reserve :]))

    def check_layout(self, position: Position) -> Position:
        """Raise PositionError unless `position` fits this game (places, and cards of its deck)."""
        r = self.rules
        if len(position.piles) != r.piles:
            raise PositionError(f"layout: {len(position.piles)} piles, but {r.name} has {r.piles}")
        if len(position.reserve) != r.reserve:
            raise PositionError(f"layout: {len(position.reserve)} reserve slots, but {r.name} has {r.reserve}")
        counts: dict[Card, int] = {}
        for card in position.all_cards():
            if card.rank not in r.ranks or card.suit not in r.suits:
                raise PositionError(f"layout: {card} is not in the {r.name} deck")
            counts[card] = counts.get(card, 0) + 1
            if counts[card] > r.copies:
                raise PositionError(f"layout: {card} appears {counts[card]} times, but the deck has {r.copies}")
        if position.stock and r.refill != REFILL_EMPTY_PILES:
            raise PositionError(f"layout: {len(position.stock)} stock cards, but {r.name} has no stock")
        if position.stock and any(not pile for pile in position.piles):
            raise PositionError("layout: a pile is empty while the stock still has cards (it would have been refilled)")
        return position

    def layout_from_json(self, data: Any) -> Position:
        return self.check_layout(Position.from_json(data))

    # -- moves -----------------------------------------------------------------------------

    def legal_moves(self, position: Position) -> list[Move]:
        """All removals, in canonical order (by size, then by places)."""
        items = [(place, card.rank, card.suit) for place, card in position.playable()]
        moves = [Move(group) for group in find_groups(self.rules.removals, items)]
        return sorted(moves, key=lambda m: (len(m.places), m.places))

    def why_illegal(self, position: Position, move: Move) -> str | None:
        """The reason `move` cannot be played here, or None if it can."""
        cards = []
        for place in move.places:
            if place.in_reserve and place.index >= len(position.reserve):
                slots = f"R1-R{len(position.reserve)}" if position.reserve else "none"
                return f"unknown place {place}: reserve slots are {slots}"
            if not place.in_reserve and place.index >= len(position.piles):
                return f"unknown place {place}: there are piles 1-{len(position.piles)}"
            card = position.card_at(place)
            if card is None:
                return f"place {place} is empty"
            cards.append(card)
        return group_reason(self.rules.removals, cards)

    def apply(self, position: Position, move: Move) -> Position:
        """The position after `move`, with the stock refilling empty piles; MoveError if illegal."""
        reason = self.why_illegal(position, move)
        if reason is not None:
            raise MoveError(f"move {move}: {reason}")
        piles = list(position.piles)
        reserve = list(position.reserve)
        for place in move.places:
            if place.in_reserve:
                reserve[place.index] = None
            else:
                piles[place.index] = piles[place.index][:-1]
        stock = position.stock
        if self.rules.refill == REFILL_EMPTY_PILES:
            for index, pile in enumerate(piles):
                if not pile and stock:
                    piles[index] = (stock[0],)
                    stock = stock[1:]
        return Position(tuple(piles), tuple(reserve), stock)

    def is_won(self, position: Position) -> bool:
        if self.rules.win == WIN_ALL_REMOVED:
            return position.cards_left == 0
        return not position.stock

    def is_dead(self, position: Position) -> bool:
        """Not won, and no group can be removed."""
        return not self.is_won(position) and not self.legal_moves(position)

    def status(self, position: Position) -> str:
        return "won" if self.is_won(position) else "dead" if self.is_dead(position) else "open"

    def replay(self, start: Position, line: str | Iterable[str | Move]) -> Replay:
        """Play a line; the first move that cannot be read or played raises LineError."""
        tokens: list[str | Move] = list(split_line(line) if isinstance(line, str) else line)
        position = start
        played = []
        for index, token in enumerate(tokens, start=1):
            try:
                move = token if isinstance(token, Move) else parse_move(token)
                position = self.apply(position, move)
            except MoveError as error:
                raise LineError(index, str(token), str(error).removeprefix(f"move {token}: ")) from None
            played.append(move)
        return Replay(start, tuple(played), position)

    def playouts(self, start: Position, choose: Iterator[int]) -> Iterator[tuple[Position, Move]]:
        """A random legal playout: `choose` yields indices (mod the move count). For tests."""
        position = start
        while True:
            moves = self.legal_moves(position)
            if not moves or self.is_won(position):
                return
            move = moves[next(choose) % len(moves)]
            yield position, move
            position = self.apply(position, move)


def card_names(cards: Iterable[Card]) -> str:
    return " ".join(map(str, cards))


__all__ = [
    "PositionError",
    "LineError",
    "MoveError",
    "Game",
    "Move",
    "Place",
    "Position",
    "Replay",
    "find_groups",
    "group_reason",
    "parse_move",
    "parse_place",
    "rule_accepts",
    "split_line",
]
