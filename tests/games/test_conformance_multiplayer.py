"""One conformance test over every multiplayer game registered with the endgame core.

A game joins by defining ENDGAME_ADAPTERS (or ENDGAME_ADAPTER) in a module of solver.games; then
seeded random playouts from its sample positions check the `Game` contract the exact core
relies on: seats and players, legal moves never empty before the end and empty after it, every
legal move applies (purely), keys stable and equal for equal positions, JSON round trips,
moves that format, and the optional `successors` fast path and packed `kernel` agreeing with
`legal_moves` + `apply`.
"""

from __future__ import annotations

import pytest

from halfmoon.dealcodes import SplitMix64
from halfmoon.solver.catalogue import endgame_adapters as adapters
from halfmoon.solver.core.game import Question

PLAYOUTS = 3  # sample positions per game
STEPS = 60  # moves per playout (each step checks every legal move)

ADAPTERS = adapters()


def test_every_multiplayer_game_of_the_catalogue_loads() -> None:
    assert set(ADAPTERS) == {"shithead", "eight-and-a-half", "golf", "spit"}


@pytest.mark.parametrize("name", sorted(ADAPTERS))
def test_conformance(name: str) -> None:
    adapter = ADAPTERS[name]
    game = adapter.game
    assert game.name and isinstance(game.name, str)
    for start in adapter.sample_positions(seed=2024, count=PLAYOUTS):
        _check_asks(adapter, start)
        rng = SplitMix64(sum(map(ord, name)))  # stable across runs (str hashes are salted)
        position = start
        players = game.players(position)
        assert 2 <= players <= 8
        for _ in range(STEPS):
            _check_position(adapter, position, players)
            if game.terminal(position) is not None:
                break
            moves = list(game.legal_moves(position))
            position = game.apply(position, moves[rng.below(len(moves))])
        _check_position(adapter, position, players)


def _check_asks(adapter, position) -> None:
    if adapter.game.terminal(position) is not None:
        return
    asks = adapter.asks(position)
    assert asks, "an endgame adapter must ask at least one question"
    players = adapter.game.players(position)
    for ask in asks:
        assert isinstance(ask.question, Question)
        assert ask.question.maximizers and all(0 <= s < players for s in ask.question.maximizers)
        assert isinstance(ask.question.draw_value, int)


def _check_position(adapter, position, players: int) -> None:
    game = adapter.game
    hash(position)
    key = game.key(position)
    hash(key)
    assert game.players(position) == players
    # JSON round trip and key stability
    data = adapter.position_to_json(position)
    again = adapter.position_from_json(data)
    assert again == position
    assert game.key(again) == key
    assert adapter.position_to_json(again) == data
    result = game.terminal(position)
    moves = list(game.legal_moves(position))
    if result is not None:
        assert moves == [], "legal moves after the end"
        kernel = getattr(game, "kernel", None)
        if kernel is not None:
            assert kernel(position).terminal(key) == result
        return
    assert moves, "no legal move before the end"
    assert 0 <= game.to_move(position) < players
    assert len(set(moves)) == len(moves), "duplicate legal moves"
    children = []
    for move in moves:
        hash(move)
        assert adapter.format_move(position, move)
        assert isinstance(adapter.move_note(position, move), str)
        before = adapter.position_to_json(position)
        child = game.apply(position, move)
        assert adapter.position_to_json(position) == before, "apply changed its input"
        assert game.key(game.apply(position, move)) == game.key(child), "apply is not deterministic"
        children.append(child)
    kernel = getattr(game, "kernel", None)
    if kernel is not None:  # the packed hot loop must agree with the rules
        k = kernel(position)
        assert k.to_move(key) == game.to_move(position)
        assert k.terminal(key) is None
        assert set(k.successors(key)) == {game.key(c) for c in children}
    successors = getattr(game, "successors", None)
    if successors is not None:
        fast = list(successors(position))
        assert [m for m, _ in fast] == moves
        assert [game.key(c) for _, c in fast] == [game.key(c) for c in children]
