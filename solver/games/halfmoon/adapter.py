"""Half Moon in the catalogue: dealing, the portfolio solver, the rules and the drawing as one record."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from typing import Any, Hashable, Sequence

from halfmoon.dealcodes import Card, DealCode, deal_halfmoon
from halfmoon.dealcodes.halfmoon import PILE_DEPTH, PILES, RESERVE_SLOTS
from halfmoon.dealcodes.rng import SplitMix64
from halfmoon.solver.core.adapters import Solitaire
from halfmoon.solver.core.verdicts import DEFAULT_TT_BYTES, Limits, SearchResult
from halfmoon.solver.errors import PositionError, SolverBug

from . import kernel, portfolio
from .render import describe
from .rules import Move, Position, parse_line, replay

DECKS = 2  # a Half Moon deal uses two standard decks: every card at most twice


def key(position: Position) -> Hashable:
    """Suits never matter in Half Moon: piles as rank strings and the reserve as a sorted rank list."""
    piles = tuple(bytes(card.rank for card in pile) for pile in position.piles)
    reserve = bytes(sorted(card.rank for card in position.reserve if card is not None))
    return piles, reserve


def greedy_score(position: Position, move: Move) -> int:
    """A player's rule of thumb: take from piles (uncovering cards) rather than from the reserve."""
    return sum(not place.in_reserve for place in move.places)


def _replay(position: Position, line: str | Sequence[Move]) -> tuple[Position, tuple[Move, ...]]:
    played = replay(position, line if isinstance(line, str) else list(line))
    return played.position, played.moves


def layout_from_json(data: Any) -> Position:
    """A layout (the `deal --json` shape) checked against the game's shape: at most 12 piles of at most
    8 cards, at most 8 reserve slots, and no card more often than the two decks hold it (smaller
    hand-made layouts are fine)."""
    position = Position.from_json(data)
    if len(position.piles) > PILES:
        raise PositionError(f"layout: {len(position.piles)} piles, but Half Moon has {PILES}")
    for number, pile in enumerate(position.piles, start=1):
        if len(pile) > PILE_DEPTH:
            raise PositionError(f"layout: pile {number} holds {len(pile)} cards, but a Half Moon pile holds at most "
                                f"{PILE_DEPTH}")
    if len(position.reserve) > RESERVE_SLOTS:
        raise PositionError(f"layout: {len(position.reserve)} reserve slots, but Half Moon has {RESERVE_SLOTS}")
    counts = Counter(position.all_cards())
    for card, count in counts.items():
        if count > DECKS:
            raise PositionError(f"layout: {card} appears {count} times, but Half Moon's two decks hold it "
                                f"{DECKS} times")
    return position


def playouts(position: Position, rng: SplitMix64, count: int, greedy: bool) -> int | None:
    """`count` of the rating's playouts from `position` in the kernel, drawing from `rng` exactly as
    `rating.playout` does (same legal-move order, same greedy rule, same draws); None when the
    Python engine is in use, so that the rating plays them through the rules instead."""
    if kernel.resolve(None) != "native":
        return None
    wins, rng.state = kernel.playouts(position.piles, position.reserve, rng.state, count, greedy)
    return wins


def conceal(position: Position) -> tuple[Hashable, tuple[Card, ...]]:
    """What the app shows (each pile's top card and height, the reserve) and the cards under the tops.

    The cards removed so far are seen too; they are the deck less the table, so the view need
    not list them. A card under a pile's top has never been seen: piles only shrink.
    """
    view = (tuple((pile[-1] if pile else None, len(pile)) for pile in position.piles), position.reserve)
    return view, tuple(card for pile in position.piles for card in pile[:-1])


def reveal(position: Position, cards: Sequence[Card]) -> Position:
    """`position` with `cards` put under the pile tops, in `conceal`'s order (pile 1 bottom up, then pile 2, …)."""
    piles, at = [], 0
    for pile in position.piles:
        hidden = max(len(pile) - 1, 0)
        piles.append(tuple(cards[at:at + hidden]) + pile[-1:])
        at += hidden
    if at != len(cards):
        raise SolverBug(f"reveal: {len(cards)} cards for {at} hidden places")
    return Position(tuple(piles), position.reserve)


def _cards(position: Position, move: Move) -> str:
    return "+".join(str(position.card_at(place)) for place in move.places)


ADAPTER: Solitaire[Position, Move] = Solitaire(
    tag="HM",
    name="halfmoon",
    title="Half Moon",
    solver_version=portfolio.SOLVER_VERSION,
    methods=portfolio.METHODS,
    default_limits=Limits(seconds=portfolio.DEFAULT_TIME_LIMIT, memory_bytes=DEFAULT_TT_BYTES),
    deal=lambda number: Position.from_deal(deal_halfmoon(number)),
    code=lambda number: str(DealCode("HM", 1, "N", number)),
    position_from_json=layout_from_json,
    position_to_json=Position.to_json,
    describe=describe,
    solve=portfolio.solve,
    parse_line=lambda text: tuple(parse_line(text)),
    replay=_replay,
    legal_moves=Position.legal_moves,
    apply=Position.apply,
    is_won=lambda position: position.is_won,
    is_dead=lambda position: position.is_dead,
    cards=_cards,
    key=key,
    points=lambda move: move.points,
    greedy_score=greedy_score,
    conceal=conceal,
    reveal=reveal,
    extra={"playouts": playouts},  # the rating's fast path (solver/rating.py)
    engines=kernel.ENGINES,
    engine_warning=kernel.fallback_warning,
)


def with_engine(engine: str) -> Solitaire[Position, Move]:
    """Half Moon solved by `engine` ("native": the compiled kernel, "python": the reference search)."""
    chosen = kernel.resolve(engine)

    def solve(position: Position, method: str, limits: Limits, seed: int) -> SearchResult[Move]:
        return portfolio.solve(position, method, limits, seed, engine=chosen)

    return replace(ADAPTER, solve=solve)


ADAPTER = replace(ADAPTER, with_engine=with_engine)
