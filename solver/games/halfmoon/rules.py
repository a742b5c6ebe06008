"""Half Moon rules: positions, moves, legality, replay. No search lives here.

A position is an immutable value: the cards still in each pile (bottom → top) and in each
reserve slot (the shared pile-and-reserve value of `solver.games.piles`, without a stock).
Moves remove a pair of number cards summing to 11 or a jack, queen and king, taken from pile
tops and reserve slots. The number of piles and slots is free, so small hand-made layouts use
the same rules as the 12-pile, 8-slot deal.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from itertools import combinations
from typing import ClassVar, Iterable, Sequence

from halfmoon.dealcodes import Card, HalfMoonDeal, deal_from_code
from halfmoon.dealcodes.cards import JACK, KING, QUEEN
from halfmoon.solver.errors import MoveError
from halfmoon.solver.games import notation, piles
from halfmoon.solver.games.notation import split_line
from halfmoon.solver.games.piles import PilePosition, Place, parse_place

PAIR_POINTS = 10
TRIPLE_POINTS = 15
FACE_RANKS = (JACK, QUEEN, KING)

__all__ = [
    "FACE_RANKS", "Move", "PAIR_POINTS", "Place", "Position", "Replay", "TRIPLE_POINTS", "group_reason", "parse_line",
    "parse_move", "parse_place", "replay", "replay_wins", "split_line", "won_score",
]


@dataclass(frozen=True)
class Move(piles.Move):
    """A removal: two places (a pair) or three (a jack, queen and king), kept in canonical order."""

    def __post_init__(self) -> None:
        super().__post_init__()
        if len(self.places) not in (2, 3):
            raise MoveError(f"move {self}: expected 2 places (a pair) or 3 (a jack, queen and king)")

    @property
    def points(self) -> int:
        return PAIR_POINTS if len(self.places) == 2 else TRIPLE_POINTS

    @classmethod
    def parse(cls, text: str) -> Move:
        return parse_move(text)


def parse_move(text: str) -> Move:
    """Read ``1+8``, ``8+5+3`` or ``R3+12``; order inside a move does not matter."""
    token, places = piles.parse_places(text, fewest=1)
    if len(places) not in (2, 3):
        raise MoveError(
            f"move {token!r} names {len(places)} place(s), expected 2 (a pair) or 3 (a jack, queen and king)"
        )
    return Move(tuple(places))


def parse_line(text: str) -> list[Move]:
    return notation.parse_line(text, parse_move)


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
class Position(PilePosition):
    """The cards still on the table (no stock). Text form round-trips: ``Position.parse(str(p)) == p``."""

    HAS_STOCK: ClassVar[bool] = False
    REQUIRED: ClassVar[tuple[str, ...]] = ("piles", "reserve")

    @classmethod
    def from_deal(cls, deal: HalfMoonDeal) -> Position:
        return cls(deal.piles, tuple(deal.reserve))

    @classmethod
    def from_code(cls, code: str) -> Position:
        return cls.from_deal(deal_from_code(code))

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
        cards = self.taken(move)
        return cards if isinstance(cards, str) else group_reason(cards)

    def apply(self, move: Move) -> Position:
        """The position after `move`; raises MoveError if it is not legal here."""
        reason = self.why_illegal(move)
        if reason is not None:
            raise MoveError(f"move {move}: {reason}")
        piles, reserve = self.without(move)
        return Position(tuple(piles), tuple(reserve))


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
    position, played = notation.play_line(start, line, parse_move, Position.apply)
    return Replay(start, played, position)


def replay_wins(start: Position, moves: Iterable[Move]) -> bool:
    """Whether `moves`, played in turn from `start`, are all legal and remove every card.

    The same checks as `Position.apply` (the place exists and holds a card, the cards form a
    pair summing to 11 or a jack, queen and king) on a scratch copy of the table, without
    building a position per move: the solvers check every winning line with it. `replay`
    says what is wrong with a line that fails.
    """
    piles = [list(pile) for pile in start.piles]
    reserve = list(start.reserve)
    npiles, nslots = len(piles), len(reserve)
    faces = [JACK, QUEEN, KING]
    for move in moves:
        ranks = []
        for in_reserve, index in move.places:
            if in_reserve:
                card = reserve[index] if index < nslots else None
                if card is None:
                    return False
                reserve[index] = None
            else:
                pile = piles[index] if index < npiles else None
                if not pile:
                    return False
                card = pile.pop()
            ranks.append(card.rank)
        if len(ranks) == 2:
            if ranks[0] + ranks[1] != 11 or ranks[0] >= JACK or ranks[1] >= JACK:
                return False
        elif len(ranks) != 3 or sorted(ranks) != faces:
            return False
    return not any(piles) and not any(reserve)


def won_score(position: Position) -> int:
    """The score a won game from `position` earns in all (520 for a full deal)."""
    cards = position.all_cards()
    faces = sum(card.is_face for card in cards)
    return (len(cards) - faces) // 2 * PAIR_POINTS + faces // 3 * TRIPLE_POINTS
