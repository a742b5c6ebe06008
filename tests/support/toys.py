"""Small games with known answers, written to test the exact core (not part of the product)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping, Sequence

from halfmoon.solver.core.game import Outcome
from halfmoon.solver.errors import IllegalMoveError


@dataclass(frozen=True)
class NimPosition:
    stones: int
    to_move: int
    players: int = 2


class SubtractionNim:
    """Take 1..`take` stones in turn; whoever takes the last stone wins (everyone else ties last).

    Two players: the mover wins iff stones % (take + 1) != 0. Acyclic by construction.
    """

    name = "subtraction-nim"
    acyclic = True

    def __init__(self, take: int = 3, loser_takes_last: bool = False) -> None:
        self.take = take
        self.loser_takes_last = loser_takes_last

    def players(self, position: NimPosition) -> int:
        return position.players

    def to_move(self, position: NimPosition) -> int:
        return position.to_move

    def legal_moves(self, position: NimPosition) -> Sequence[int]:
        if position.stones == 0:
            return ()
        return tuple(range(1, min(self.take, position.stones) + 1))

    def apply(self, position: NimPosition, move: int) -> NimPosition:
        if move not in self.legal_moves(position):
            raise IllegalMoveError(f"take {move} from {position.stones} stones")
        return NimPosition(position.stones - move, (position.to_move + 1) % position.players, position.players)

    def terminal(self, position: NimPosition) -> Outcome | None:
        if position.stones:
            return None
        last = (position.to_move - 1) % position.players  # who took the last stone
        if self.loser_takes_last:
            return Outcome(tuple(1 if s == last else 0 for s in range(position.players)))
        return Outcome(tuple(0 if s == last else 1 for s in range(position.players)))

    def key(self, position: NimPosition) -> int:
        return position.stones * 8 + position.to_move


@dataclass(frozen=True)
class Node:
    """A position of a `GraphGame`: just its name."""

    name: str


class GraphGame:
    """A game given as data: each non-terminal node names its mover and successors; each terminal
    node its value for seat 0 (as `Outcome.scores`, two players, larger is better for seat 0)."""

    name = "graph"

    def __init__(self, moves: Mapping[str, tuple[int, Sequence[str]]], values: Mapping[str, int],
                 acyclic: bool = False) -> None:
        self.moves = dict(moves)
        self.values = dict(values)
        self.acyclic = acyclic

    def players(self, position: Node) -> int:
        return 2

    def to_move(self, position: Node) -> int:
        return self.moves[position.name][0] if position.name in self.moves else 0

    def legal_moves(self, position: Node) -> Sequence[str]:
        if position.name in self.values:
            return ()
        return tuple(self.moves[position.name][1])

    def apply(self, position: Node, move: str) -> Node:
        if move not in self.legal_moves(position):
            raise IllegalMoveError(f"no edge {position.name} -> {move}")
        return Node(move)

    def terminal(self, position: Node) -> Outcome | None:
        if position.name not in self.values:
            return None
        v = self.values[position.name]
        places = (0, 1) if v > 0 else (1, 0) if v < 0 else (0, 0)
        return Outcome(places, scores=(v, 0))

    def key(self, position: Node) -> str:
        return position.name


def brute_force(game, position, question, path: frozenset = frozenset()) -> int:
    """Plain minimax over paths, no memo: a position repeated on the current path ends play
    with the question's draw value. Exponential; only for tiny games."""
    result = game.terminal(position)
    if result is not None:
        return question.value(result)
    key = game.key(position)
    if key in path:
        return question.draw_value
    path = path | {key}
    values = [brute_force(game, game.apply(position, m), question, path) for m in game.legal_moves(position)]
    return max(values) if game.to_move(position) in question.maximizers else min(values)


def naive_memo_minimax(game, position, question, path=None, memo=None) -> int:
    """The wrong method the retrograde core exists to avoid: memoised minimax that scores a
    repetition on the current path as a draw and then caches path-dependent values."""
    path = set() if path is None else path
    memo = {} if memo is None else memo
    result = game.terminal(position)
    if result is not None:
        return question.value(result)
    key = game.key(position)
    if key in memo:
        return memo[key]
    if key in path:
        return question.draw_value
    path.add(key)
    values = [naive_memo_minimax(game, game.apply(position, m), question, path, memo) for m in game.legal_moves(position)]
    path.discard(key)
    value = max(values) if game.to_move(position) in question.maximizers else min(values)
    memo[key] = value
    return value
