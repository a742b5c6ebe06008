"""The one dealing procedure of the pile-and-reserve solitaires (Half Moon, the Elevens family).

Shuffle the deck with the deal number (SplitMix64 + Durstenfeld, `rng.shuffled`), then lay the
cards in order: each pile in turn takes its depth (bottom → top), then the reserve slots, and
what is left is the stock (next card first). Every such game deals this way; the deal-code
vectors of each game pin it down.
"""

from __future__ import annotations

from typing import Sequence, TypeVar

from .codes import check_number
from .rng import shuffled

T = TypeVar("T")


def deal_piles(
    deck: Sequence[T], depths: Sequence[int], reserve: int, number: int
) -> tuple[tuple[tuple[T, ...], ...], tuple[T, ...], tuple[T, ...]]:
    """(piles, reserve, stock) of deal `number` from `deck` in its canonical order."""
    check_number(number)
    cards = shuffled(list(deck), number)
    piles, at = [], 0
    for depth in depths:
        piles.append(tuple(cards[at : at + depth]))
        at += depth
    return tuple(piles), tuple(cards[at : at + reserve]), tuple(cards[at + reserve :])
