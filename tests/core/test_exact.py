"""The exact core on small games with known answers, and against plain brute force."""

from __future__ import annotations

import random

import pytest

from halfmoon.solver.core.exact import (
    SOLVED,
    UNKNOWN,
    Limits,
    replay_line,
    solve,
    solve_all,
)
from halfmoon.solver.core.game import (
    GuaranteedScore,
    ScoreDifference,
    WinLoss,
    avoid_last,
)
from halfmoon.solver.errors import UnsupportedError

from support.toys import (
    GraphGame,
    NimPosition,
    Node,
    SubtractionNim,
    brute_force,
    naive_memo_minimax,
)


@pytest.mark.parametrize("method", ["retrograde", "negamax"])
def test_subtraction_nim_known_answer(method: str) -> None:
    game = SubtractionNim(take=3)
    for stones in range(0, 22):
        root = NimPosition(stones, 0)
        result = solve(game, root, WinLoss(0), method=method)
        assert result.status == SOLVED
        expected = -1 if stones % 4 == 0 else 1  # stones == 0: seat 1 took the last stone
        assert result.value == expected, stones
        if stones:
            # every legal move's value: taking to a multiple of 4 wins, anything else loses
            for mv in result.moves:
                assert mv.value == (1 if (stones - mv.move) % 4 == 0 else -1)
        end = replay_line(game, root, result.line)
        assert game.terminal(end) is not None and result.line_end == "terminal"
        assert WinLoss(0).value(game.terminal(end)) == result.value


def test_methods_agree_on_nim_from_the_second_seat() -> None:
    game = SubtractionNim(take=4)
    for stones in range(1, 16):
        root = NimPosition(stones, 1)
        a = solve(game, root, WinLoss(0), method="retrograde")
        b = solve(game, root, WinLoss(0), method="negamax")
        assert a.value == b.value == brute_force(game, root, WinLoss(0))
        assert [m.value for m in a.moves] == [m.value for m in b.moves]


def test_three_player_coalition_matches_brute_force() -> None:
    """Three players, taking the last stone makes you last: can seat s avoid it against the other two?"""
    game = SubtractionNim(take=2, loser_takes_last=True)
    answers = {}
    for stones in range(1, 13):
        root = NimPosition(stones, 0, players=3)
        solutions = solve_all(game, root, [avoid_last(s) for s in range(3)])
        for seat, sol in enumerate(solutions):
            assert sol.value == brute_force(game, root, avoid_last(seat)), (stones, seat)
            answers[stones, seat] = sol.value
    # hand-checked: with 1 stone the mover (seat 0) must take it and is last; the others are safe
    assert (answers[1, 0], answers[1, 1], answers[1, 2]) == (0, 1, 1)
    # with 2 stones seat 0 takes both? no: that loses; takes one, seat 1 must take the last
    assert (answers[2, 0], answers[2, 1]) == (1, 0)


def test_pure_cycle_is_a_draw_with_a_repeating_line() -> None:
    # A (seat 0) may lose at once or pass to B; B (seat 1) may lose at once or pass back.
    game = GraphGame({"A": (0, ["L", "B"]), "B": (1, ["W", "A"])}, {"W": 1, "L": -1})
    result = solve(game, Node("A"), WinLoss(0))
    assert result.value == 0
    assert {m.move: m.value for m in result.moves} == {"L": -1, "B": 0}
    assert result.line_end == "repetition" and result.line[:2] == ("B", "A")


def test_graph_history_interaction_case_naive_memo_gets_wrong() -> None:
    """Hand-checked: A (min) -> C or B; B (min) -> C only; C (max) -> B, W or C.
    Max at C simply takes W, so every position is a win for max. Memoised minimax that scores
    the repetition C-B-C as a draw caches B = draw and then answers A = draw: wrong."""
    game = GraphGame({"A": (1, ["C", "B"]), "B": (1, ["C"]), "C": (0, ["B", "W", "C"])}, {"W": 1, "L": -1})
    q = WinLoss(0)
    assert naive_memo_minimax(game, Node("A"), q) == 0  # the wrong answer the core must avoid
    result = solve(game, Node("A"), q)
    assert result.value == 1 == brute_force(game, Node("A"), q)
    assert [m.value for m in result.moves] == [1, 1]
    assert result.line[-1] == "W"


def _random_graph(rng: random.Random, acyclic: bool, values: list[int]) -> GraphGame:
    n = rng.randint(2, 6)
    names = [chr(65 + i) for i in range(n)]
    terms = {f"T{v}": v for v in values}
    moves = {}
    for i, name in enumerate(names):
        targets = (names[i + 1:] if acyclic else names) + list(terms)
        moves[name] = (rng.randint(0, 1), rng.sample(targets, rng.randint(1, min(3, len(targets)))))
    return GraphGame(moves, terms, acyclic=acyclic)


@pytest.mark.parametrize("seed", range(6))
def test_random_cyclic_graphs_match_brute_force(seed: int) -> None:
    rng = random.Random(seed)
    questions = [WinLoss(0), WinLoss(1), ScoreDifference(0), ScoreDifference(1), GuaranteedScore(0, draw_value=1),
                 GuaranteedScore(1, draw_value=-3)]
    for _ in range(60):
        game = _random_graph(rng, acyclic=False, values=[-2, -1, 1, 3])
        for q, sol in zip(questions, solve_all(game, Node("A"), questions)):
            assert sol.value == brute_force(game, Node("A"), q), (game.moves, q)
            for mv in sol.moves:
                assert mv.value == brute_force(game, Node(mv.move), q)
            end = replay_line(game, Node("A"), sol.line)
            if sol.line_end == "terminal":
                assert q.value(game.terminal(end)) == sol.value
            else:
                assert sol.line_end == "repetition" and sol.value == q.draw_value


@pytest.mark.parametrize("seed", range(4))
def test_random_acyclic_graphs_all_methods_agree(seed: int) -> None:
    rng = random.Random(100 + seed)
    for _ in range(60):
        game = _random_graph(rng, acyclic=True, values=[-5, 0, 2, 7])
        q = ScoreDifference(0)
        a = solve(game, Node("A"), q, method="retrograde")
        b = solve(game, Node("A"), q, method="negamax")
        assert a.value == b.value == brute_force(game, Node("A"), q)
        assert [m.value for m in a.moves] == [m.value for m in b.moves]
        assert q.value(game.terminal(replay_line(game, Node("A"), b.line))) == b.value


def test_negamax_refused_on_a_cyclic_game() -> None:
    game = GraphGame({"A": (0, ["A", "W"])}, {"W": 1})
    with pytest.raises(UnsupportedError, match="acyclic"):
        solve(game, Node("A"), WinLoss(0), method="negamax")
    with pytest.raises(UnsupportedError, match="unknown method"):
        solve(game, Node("A"), WinLoss(0), method="magic")


def test_limits_end_in_unknown() -> None:
    game = SubtractionNim(take=3)
    root = NimPosition(200, 0)
    for method in ("retrograde", "negamax"):
        result = solve(game, root, WinLoss(0), Limits(nodes=50), method=method)
        assert result.status == UNKNOWN and result.value is None
        assert "position limit" in result.reason
        assert [m.value for m in result.moves] == [None, None, None]
    timed = solve(game, root, WinLoss(0), Limits(seconds=1e-9))
    assert timed.status == UNKNOWN and "time limit" in timed.reason


def test_a_line_deeper_than_the_recursion_allowance_is_unknown_not_a_crash() -> None:
    game = SubtractionNim(take=1)  # one stone a move: the line is as long as the pile
    result = solve(game, NimPosition(60_000, 0), WinLoss(0), Limits(nodes=None, seconds=None), method="negamax")
    assert result.status == UNKNOWN and "depth limit" in result.reason


def test_report_fields() -> None:
    result = solve(SubtractionNim(take=3), NimPosition(30, 0), WinLoss(0), method="retrograde")
    assert 31 <= result.positions <= 62  # (stones, seat to move) pairs reachable from 30
    assert result.nodes >= result.positions - 1
    assert result.bytes_per_position > 0
    assert result.method == "retrograde"


def test_partial_graph_proves_what_the_explored_part_decides() -> None:
    """A (max) can win at once or wander down a long chain; a position limit stops the search
    early. Win/loss knows its value range, so the immediate win is exact; a score difference does
    not, so it is unknown with a proven lower bound."""
    chain = {f"B{i}": (1, [f"B{i + 1}"]) for i in range(1, 40)}
    chain["B40"] = (1, ["L"])
    game = GraphGame({"A": (0, ["W", "B1"]), **chain}, {"W": 1, "L": -1})
    limits = Limits(nodes=6)
    win = solve(game, Node("A"), WinLoss(0), limits, method="retrograde")
    assert win.status == SOLVED and win.value == 1 and not win.extra["complete"]
    assert [m.value for m in win.moves] == [1, None]  # the chain is not settled
    assert win.line == ("W",)
    margin = solve(game, Node("A"), ScoreDifference(0), limits, method="retrograde")
    assert margin.status == UNKNOWN and margin.extra["bounds"] == {"at_least": 1, "at_most": None}
    # min to move with the same choice: anything may happen down the chain (no non-trivial bound)
    game2 = GraphGame({"A": (1, ["W", "B1"]), **chain}, {"W": 1, "L": -1})
    unsure = solve(game2, Node("A"), WinLoss(0), limits, method="retrograde")
    assert unsure.status == UNKNOWN and unsure.extra["bounds"] == {"at_least": None, "at_most": None}
    assert solve(game2, Node("A"), WinLoss(0)).value == -1  # the full graph: min walks to L
