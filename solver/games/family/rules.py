"""The rules engine for the Elevens family: positions, moves, refills, won and dead, driven by a `RuleSet`.

A position is an immutable value: the cards in each pile (bottom → top), each reserve slot,
and the stock (next card first). The rules (what may be removed, how the stock refills, when
the game is won) come from the rule file, so Half Moon, Elevens, Suit Elevens, Tens and custom
games share this one module. No search lives here.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations, product
from typing import Any, Iterable, Iterator, Sequence, TypeVar

from halfmoon.dealcodes import Card
from halfmoon.dealcodes.piles import deal_piles
from halfmoon.solver.errors import MoveError, PositionError
from halfmoon.solver.games import notation
from halfmoon.solver.games.notation import split_line
from halfmoon.solver.games.piles import (
    Move,
    PilePosition,
    Place,
    parse_place,
    parse_places,
)

from .schema import (
    KIND_SET,
    KIND_SUM,
    REFILL_EMPTY_PILES,
    WIN_ALL_REMOVED,
    Removal,
    RuleSet,
)

H = TypeVar("H")


def parse_move(text: str) -> Move:
    """Read ``1+8``, ``8+5+3`` or ``R3+12``; order inside a move does not matter."""
    return Move(tuple(parse_places(text)[1]))


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
class Position(PilePosition):
    """The cards still in play, with the stock. Text form round-trips: ``Position.parse(str(p)) == p``."""


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
        return Position(*deal_piles(self.deck(), self.rules.depths, self.rules.reserve, number))

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
        cards = position.taken(move)
        return cards if isinstance(cards, str) else group_reason(self.rules.removals, cards)

    def apply(self, position: Position, move: Move) -> Position:
        """The position after `move`, with the stock refilling empty piles; MoveError if illegal."""
        reason = self.why_illegal(position, move)
        if reason is not None:
            raise MoveError(f"move {move}: {reason}")
        piles, reserve = position.without(move)
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
        position, played = notation.play_line(start, line, parse_move, self.apply)
        return Replay(start, played, position)

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
