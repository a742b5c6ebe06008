"""Shared helpers for the Spit tests (no tests here): small random positions, an independent brute force."""

from __future__ import annotations

from halfmoon.dealcodes import SplitMix64
from halfmoon.solver.errors import PositionError
from halfmoon.solver.games.spit.rules import (
    SpitPosition,
    apply,
    legal_moves,
    parse_position,
    terminal,
    validate,
)


def pos(text: str) -> SpitPosition:
    """A position from the one-line text form (see rules.parse_position)."""
    return parse_position(text)


def random_small_position(seed: int, max_stock: int = 4, max_spit: int = 2) -> SpitPosition:
    """A valid hand-made position: per seat 1…max_stock stock cards spread over the five places,
    0…max_spit spit cards, spit piles of 0 or 1 card, either seat to move."""
    rng = SplitMix64(seed)
    deck = list(range(52))
    rng.shuffle(deck)
    stock, spit = [], []
    for _ in range(2):
        count = 1 + rng.below(max_stock)
        places: list[list[int]] = [[] for _ in range(5)]
        for _ in range(count):
            places[rng.below(5)].append(deck.pop())
        stock.append(tuple(tuple(p) for p in places))
        spit.append(tuple(deck.pop() for _ in range(rng.below(max_spit + 1))))
    piles = tuple(tuple(deck.pop() for _ in range(rng.below(2))) for _ in range(2))
    position = SpitPosition((stock[0], stock[1]), (spit[0], spit[1]), piles, rng.below(2), False)
    if rng.below(4) == 0:
        try:  # a pending pass, when the rules allow one here
            return validate(position._replace(passed=True))
        except PositionError:
            pass
    return validate(position)


def brute_value(position: SpitPosition, seat: int) -> int:
    """Plain minimax (no table, no pruning) from `seat`'s point of view: +1 win, 0 no winner, -1 loss."""
    result = terminal(position)
    if result is not None:
        mine, theirs = result.places[seat], result.places[1 - seat]
        return (mine < theirs) - (mine > theirs)
    values = [brute_value(apply(position, move), seat) for move in legal_moves(position)]
    return max(values) if position.to_move == seat else min(values)
