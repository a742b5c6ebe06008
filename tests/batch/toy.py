"""A toy solitaire for the batch tests: small Half Moon layouts and an exact memoised solver.

Why: the store, batch runner, survey and rating are generic over the game registry; a game
whose deals solve in milliseconds by plain exhaustive search lets the tests check them
exactly (every verdict is proved by brute force) without the real solver's run time.
Deals: 26 cards (A-10, J, Q, K of clubs and diamonds) shuffled by SplitMix64(number) into
4 piles of 5 and a 6-slot reserve.
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass
from typing import Any

from halfmoon.dealcodes.cards import Card
from halfmoon.dealcodes.rng import shuffled
from halfmoon.solver.games.halfmoon.rules import Move, Position, parse_line, replay
from halfmoon.solver.registry import (
    GameEntry,
    _halfmoon_greedy,
    _halfmoon_key,
    register,
)

TAG = "TY"
VERSION = "toy-1"
#: Deal numbers whose solve kills the worker process (for the worker-death tests).
KILLERS_ENV = "TOY_KILLERS"


@dataclass(frozen=True)
class ToyResult:
    verdict: str
    moves: tuple[Move, ...] | None
    method: str
    nodes: int
    seconds: float


def toy_deal(number: int) -> Position:
    deck = [Card(rank, suit) for suit in (0, 1) for rank in range(1, 14)]
    cards = shuffled(deck, number)
    piles = tuple(tuple(cards[5 * k : 5 * k + 5]) for k in range(4))
    return Position(piles, tuple(cards[20:]))


def toy_solve(position: Position, method: str = "dfs", time_limit: float | None = None,
              node_limit: int | None = None) -> ToyResult:
    """Exhaustive search with a memo of lost keys; `unknown` past `node_limit` nodes."""
    started = time.perf_counter()
    lost: set[Any] = set()
    nodes = 0

    class Stop(Exception):
        pass

    def search(p: Position, line: list[Move]) -> bool:
        nonlocal nodes
        if p.is_won:
            return True
        key = _halfmoon_key(p)
        if key in lost:
            return False
        for move in p.legal_moves():
            nodes += 1
            if node_limit is not None and nodes > node_limit:
                raise Stop
            line.append(move)
            if search(p.apply(move), line):
                return True
            line.pop()
        lost.add(key)
        return False

    line: list[Move] = []
    try:
        won = search(position, line)
    except Stop:
        return ToyResult("unknown", None, method, node_limit or 0, time.perf_counter() - started)
    return ToyResult("winnable" if won else "unwinnable", tuple(line) if won else None, method, nodes,
                     time.perf_counter() - started)


def _solve_with_killers(position: Position, **kwargs: Any) -> ToyResult:
    killers = os.environ.get(KILLERS_ENV, "")
    if killers and str(position) in {str(toy_deal(int(n))) for n in killers.split(",")}:
        os._exit(13)  # a worker dying mid-job, as a crash or the OOM killer would do it
    return toy_solve(position, **kwargs)


def toy_entry() -> GameEntry:
    def wins(position: Position, moves: Any) -> bool:
        try:
            return replay(position, list(moves)).position.is_won
        except ValueError:
            return False

    return GameEntry(
        tag=TAG,
        name="Toy Half Moon",
        solver_version=VERSION,
        deal=toy_deal,
        code=lambda number: f"TY1-N-{number}",
        solve=_solve_with_killers,
        format_line=lambda moves: " ".join(map(str, moves)),
        parse_line=lambda text: tuple(parse_line(text)),
        wins=wins,
        legal_moves=lambda p: p.legal_moves(),
        apply=lambda p, m: p.apply(m),
        is_won=lambda p: p.is_won,
        key=_halfmoon_key,
        greedy_score=_halfmoon_greedy,
        default_time_limit=None,
    )


register(TAG, toy_entry)
