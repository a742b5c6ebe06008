"""The deal generator shared by every game: SplitMix64, Lemire's bounded integers, Fisher–Yates.

Written out by hand (never `random`) because a deal code must mean the same cards forever,
in every version and in other languages; `random`'s algorithms are not promised to stay put.
"""

from __future__ import annotations

from typing import MutableSequence, TypeVar

MASK64 = (1 << 64) - 1
GOLDEN_GAMMA = 0x9E3779B97F4A7C15

T = TypeVar("T")


class SplitMix64:
    """SplitMix64 on unsigned 64-bit arithmetic, seeded with the deal number."""

    __slots__ = ("state",)

    def __init__(self, seed: int) -> None:
        self.state = seed & MASK64

    def next(self) -> int:
        self.state = (self.state + GOLDEN_GAMMA) & MASK64
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
        return z ^ (z >> 31)

    def below(self, bound: int) -> int:
        """A uniform integer in [0, bound) by Lemire's multiply-and-reject method."""
        if not 0 < bound <= MASK64:
            raise ValueError(f"bound must be in 1..2^64-1, got {bound}")
        product = self.next() * bound
        low = product & MASK64
        if low < bound:
            threshold = ((1 << 64) - bound) % bound
            while low < threshold:
                product = self.next() * bound
                low = product & MASK64
        return product >> 64

    def shuffle(self, items: MutableSequence[T]) -> None:
        """Durstenfeld's Fisher–Yates from the end, in place."""
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]


def shuffled(items: list[T], seed: int) -> list[T]:
    """A shuffled copy of `items`, seeded with `seed` (the deal number)."""
    copy = list(items)
    SplitMix64(seed).shuffle(copy)
    return copy
