"""Golf's compiled kernel (`golf/_native.pyx`) against the Python kernel it mirrors.

The Python methods `GolfKernel.python_*` are the reference: the compiled successors (keys, order
and reversible flags), terminal results and scores must be the same on every position of random
playouts from dealt rounds (2-6 players, both card-value variants, set-up included), and a solve
must give the same values, lines and effort with either kernel. Skipped when the module is not
built (no compiler): the Python kernel then runs everywhere.
"""

from __future__ import annotations

import random

import pytest

from halfmoon.dealcodes import DEAL_COUNT, DealCode
from halfmoon.solver.core.exact import Limits, solve
from halfmoon.solver.core.game import GuaranteedScore, ScoreDifference
from halfmoon.solver.games.golf import kernel as golf_kernel
from halfmoon.solver.games.golf.kernel import GOLF, GolfKernel
from halfmoon.solver.games.golf.policy import play_forward
from halfmoon.solver.games.golf.rules import Position

pytest.importorskip("halfmoon.solver.games.golf._native")


def test_compiled_kernel_matches_the_python_kernel_on_random_playouts() -> None:
    rng = random.Random(5)
    checked = children = 0
    for number in range(60):
        players = 2 + number % 5
        code = str(DealCode("GF", 1, str(players), rng.randrange(DEAL_COUNT)))
        root = Position.from_code(code, minus_two=number % 3 == 0)
        kernel = GolfKernel(root)
        assert kernel.compiled
        p = root
        while p.result() is None:
            k = kernel.key(p)
            assert kernel.terminal(k) is None and kernel.python_terminal(k) is None, code
            assert kernel.scores(k) == kernel.python_scores(k), code
            expected = kernel.python_successors(k)
            assert kernel.successors(k) == expected, (code, p.to_json())
            for child, _ in expected:
                assert kernel.terminal(child) == kernel.python_terminal(child), code
                children += 1
            moves = GOLF.legal_moves(p)
            p = p.apply(moves[rng.randrange(len(moves))])
            checked += 1
    assert checked > 1000 and children > 10_000


def test_compiled_kernel_refuses_keys_it_cannot_have_made() -> None:
    kernel = GolfKernel(Position.from_code("GF1-2-AAAAAAB"))
    k = kernel.key(Position.from_code("GF1-2-AAAAAAB"))
    with pytest.raises(ValueError, match="seat 5 to move of 2"):
        kernel.successors((k & ~7) | 5)
    with pytest.raises(ValueError, match="stock cards left"):
        kernel.successors(k | 63 << 6 | 0b11 << 18)  # past set-up, more stock than the root has


def _positions() -> list[Position]:
    out = []
    for players, stock, count in ((2, 3, 4), (2, 5, 2), (3, 2, 2)):
        for number in range(count):
            code = str(DealCode("GF", 1, str(players), 1000 + 37 * number))
            out.append(play_forward(Position.from_code(code), stock, number)[0])
    return [p for p in out if p.result() is None]


@pytest.mark.parametrize("p", _positions(), ids=lambda p: f"{len(p.hands) // 6}p-stock{len(p.stock)}")
def test_a_solve_is_the_same_with_either_kernel(p: Position, monkeypatch: pytest.MonkeyPatch) -> None:
    question = ScoreDifference(p.to_move) if len(p.hands) == 12 else GuaranteedScore(p.to_move)
    compiled = solve(GOLF, p, question, Limits(seconds=60), method="alphabeta")
    monkeypatch.setattr(golf_kernel, "NATIVE", False)
    assert not GOLF.path_kernel(p).compiled
    reference = solve(GOLF, p, question, Limits(seconds=60), method="alphabeta")
    assert compiled.status == reference.status == "solved"
    assert compiled.value == reference.value
    assert [(str(m.move), m.value) for m in compiled.moves] == [(str(m.move), m.value) for m in reference.moves]
    assert [str(m) for m in compiled.line] == [str(m) for m in reference.line]
    assert (compiled.positions, compiled.nodes) == (reference.positions, reference.nodes)
