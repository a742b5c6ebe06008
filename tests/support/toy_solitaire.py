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
from halfmoon.solver import catalogue
from halfmoon.solver.catalogue import GameInfo
from halfmoon.solver.core.adapters import Solitaire
from halfmoon.solver.core.verdicts import Limits, SearchResult, Verdict
from halfmoon.solver.games.halfmoon.adapter import greedy_score, key

TAG = "TY"
VERSION = "toy-1"
#: Deal numbers whose solve kills the worker process (for the worker-death tests).
KILLERS_ENV = "TOY_KILLERS"
#: Seconds each solve sleeps first (a survey slow enough to be interrupted mid-way).
DELAY_ENV = "TOY_DELAY"


@dataclass(frozen=True)
class ToyResult:
    verdict: str
    moves: tuple[Move, ...] | None
    method: str
    nodes: int
    seconds: float

    def found(self) -> SearchResult[Move]:
        """The same answer as the solitaire contract's result."""
        return SearchResult(Verdict(self.verdict), self.moves, self.nodes, self.seconds,
                            "nodes" if self.verdict == "unknown" else None, method=self.method)


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
        key_ = key(p)
        if key_ in lost:
            return False
        for move in p.legal_moves():
            nodes += 1
            if node_limit is not None and nodes > node_limit:
                raise Stop
            line.append(move)
            if search(p.apply(move), line):
                return True
            line.pop()
        lost.add(key_)
        return False

    line: list[Move] = []
    try:
        won = search(position, line)
    except Stop:
        return ToyResult("unknown", None, method, node_limit or 0, time.perf_counter() - started)
    return ToyResult("winnable" if won else "unwinnable", tuple(line) if won else None, method, nodes,
                     time.perf_counter() - started)


def _solve_with_killers(position: Position, method: str, limits: Limits, seed: int) -> SearchResult[Move]:
    killers = os.environ.get(KILLERS_ENV, "")
    if killers and str(position) in {str(toy_deal(int(n))) for n in killers.split(",")}:
        os._exit(13)  # a worker dying mid-job, as a crash or the OOM killer would do it
    if os.environ.get(DELAY_ENV):
        time.sleep(float(os.environ[DELAY_ENV]))
    return toy_solve(position, method, node_limit=limits.nodes).found()


def _replay(position: Position, line: Any) -> tuple[Position, tuple[Move, ...]]:
    played = replay(position, line if isinstance(line, str) else list(line))
    return played.position, played.moves


def toy_entry() -> Solitaire[Position, Move]:
    return Solitaire(
        tag=TAG,
        name="toy",
        title="Toy Half Moon",
        solver_version=VERSION,
        methods=("dfs",),
        default_limits=Limits(),
        deal=toy_deal,
        code=lambda number: f"TY1-N-{number}",
        position_from_json=Position.from_json,
        position_to_json=Position.to_json,
        describe=lambda position, symbols=False, full=False: str(position),
        solve=_solve_with_killers,
        parse_line=lambda text: tuple(parse_line(text)),
        replay=_replay,
        legal_moves=lambda p: p.legal_moves(),
        apply=lambda p, m: p.apply(m),
        is_won=lambda p: p.is_won,
        is_dead=lambda p: p.is_dead,
        cards=lambda p, m: "+".join(str(p.card_at(place)) for place in m.places),
        key=key,
        greedy_score=greedy_score,
    )


ROW = GameInfo(TAG, "toy", "Toy Half Moon", catalogue.SOLITAIRE, __name__, ("dfs",))
catalogue.register_solitaire(ROW, toy_entry)
