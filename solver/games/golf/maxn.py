"""The max^n line for Golf with three or more players: each player minimises their own score (a labelled prediction, not a guarantee)."""

from __future__ import annotations

import sys
import time
from dataclasses import dataclass
from typing import Any

from .kernel import GOLF
from .rules import HAND_SIZE, Move, Position, hand_score

# -- max^n --------------------------------------------------------------------------------------


class MaxnLimit(Exception):
    """The max^n search hit its node or time budget."""


@dataclass(frozen=True)
class MaxnResult:
    status: str  # "solved" or "unknown"
    scores: tuple[int, ...] | None
    line: tuple[Move, ...]
    positions: int
    seconds: float
    reason: str = ""


MAXN_RULE = (
    "max^n: every player minimises their own final score, assuming the others do the same; a swap "
    "among face-up cards is considered only when it lowers the mover's own score (so the line never "
    "runs round in circles); among equally good moves the first in canonical order (D1-D6, S1-S6, "
    "SX) is taken. A prediction under those assumptions, not a guarantee."
)


def maxn_moves(p: Position) -> list[Move]:
    """The moves max^n considers: all legal moves except swaps among face-up cards that do not
    lower the mover's own score (canonical order kept)."""
    seat = p.to_move
    base = HAND_SIZE * seat
    hand = list(p.hand(seat))
    now = hand_score(hand, p.minus_two)
    out = []
    for move in p.legal_moves():
        if move.kind == "D" and p.up >> (base + move.a) & 1:
            trial = hand[:]
            trial[move.a] = p.discard[-1]
            if hand_score(trial, p.minus_two) >= now:
                continue
        out.append(move)
    return out


def maxn(position: Position, max_positions: int = 200_000, max_seconds: float = 20.0) -> MaxnResult:
    """The max^n scores and line from `position` (exact under MAXN_RULE), or status unknown."""
    table: dict[Any, tuple[tuple[int, ...], Move | None]] = {}
    start = time.perf_counter()
    checks = [0]

    def search(p: Position) -> tuple[int, ...]:
        checks[0] += 1  # every call counts (terminal ones cost as much): the clock is read every 64
        if checks[0] % 64 == 0 and time.perf_counter() - start > max_seconds:
            raise MaxnLimit(f"time limit {max_seconds:g} s reached")
        result = p.result()
        if result is not None:
            return result.scores
        key = GOLF.key(p)
        hit = table.get(key)
        if hit is not None:
            return hit[0]
        if len(table) >= max_positions:
            raise MaxnLimit(f"position limit {max_positions} reached")
        seat = p.to_move
        best: tuple[int, ...] | None = None
        best_move: Move | None = None
        for move in maxn_moves(p):  # canonical order: the first of equals wins ties
            scores = search(p.play(move))
            if best is None or scores[seat] < best[seat]:
                best, best_move = scores, move
        assert best is not None
        table[key] = (best, best_move)
        return best

    old_limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(old_limit, 20_000))
    try:
        scores = search(position)
    except MaxnLimit as limit:
        return MaxnResult("unknown", None, (), len(table), time.perf_counter() - start, str(limit))
    except RecursionError:
        return MaxnResult("unknown", None, (), len(table), time.perf_counter() - start, "line too deep")
    finally:
        sys.setrecursionlimit(old_limit)
    line: list[Move] = []
    p = position
    while p.result() is None:
        move = table[GOLF.key(p)][1]
        assert move is not None
        line.append(move)
        p = p.apply(move)  # replayed through the rules, legality checked
    assert p.result().scores == scores, "max^n line does not reach its own scores"  # type: ignore[union-attr]  # the loop ends at a result
    return MaxnResult("solved", scores, tuple(line), len(table), time.perf_counter() - start)
