"""Spit's packed kernel (`spit/kernel.py`) against the rules, and its compiled twin (`spit/_native.pyx`).

The rules (`rules.legal_moves`, `apply`, `terminal`, `key`) are the reference of the Python
kernel, and the Python kernel (`SpitKernel.python_*`) the reference of the compiled one: on every
position of random playouts from dealt rounds (SP1 codes), later rounds' short layouts and
hand-made positions, the successors (keys and order), terminal results and table keys must agree,
keys must round-trip, and a solve must give the same value, move values, line and effort with
either kernel and without one (the core on the positions). The compiled half is skipped when the
module is not built (no compiler): the Python kernel then runs everywhere.
"""

from __future__ import annotations

from typing import Any, Iterator

import pytest
from support.spit import random_small_position

from halfmoon.dealcodes import DEAL_COUNT, DealCode, SplitMix64
from halfmoon.solver.core.exact import Limits, solve
from halfmoon.solver.core.game import WinLoss
from halfmoon.solver.games.spit import kernel as spit_kernel
from halfmoon.solver.games.spit.kernel import GAME, SpitKernel
from halfmoon.solver.games.spit.policy import play_until_endgame
from halfmoon.solver.games.spit.rounds import next_round
from halfmoon.solver.games.spit.rules import (
    SpitPosition,
    _apply,
    key,
    legal_moves,
    position_from_code,
    terminal,
)

compiled = pytest.mark.skipif(not spit_kernel.native_available(), reason="spit/_native.pyx is not built")


def _playout(root: SpitPosition, rng: SplitMix64) -> list[SpitPosition]:
    """Every position of one uniformly random playout from `root` to the end of the round."""
    line = [root]
    while terminal(line[-1]) is None:
        moves = legal_moves(line[-1])
        line.append(_apply(line[-1], moves[rng.below(len(moves))]))
    return line


def _roots(seed: int, dealt: int) -> Iterator[SpitPosition]:
    """Dealt rounds (SP1 codes), the next round of some (short hands, partial layouts) and hand-made positions."""
    rng = SplitMix64(seed)
    for _ in range(dealt):
        root = position_from_code(str(DealCode("SP", 1, "N", rng.below(DEAL_COUNT))))
        yield root
        if rng.below(3) == 0:
            after = next_round(_playout(root, rng)[-1], rng.below(1 << 32)).next_position
            if after is not None and terminal(after) is None:
                yield after
    for n in range(dealt // 2):
        yield random_small_position(seed + n, 2 + n % 9, n % 5)


def _tops_only(position: SpitPosition) -> SpitPosition:
    """The position with its spit piles reduced to their top cards (all a key keeps of them)."""
    return position._replace(spit_piles=tuple(pile[-1:] for pile in position.spit_piles))


def test_python_kernel_agrees_with_the_rules_on_random_playouts(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(spit_kernel, "NATIVE", False)
    rng = SplitMix64(17)
    positions = ends = 0
    for root in _roots(3, 60):
        kernel = SpitKernel(root)
        assert not kernel.compiled
        table: dict[bytes, int] = {}  # rules.key → table key, both ways one to one
        back: dict[int, bytes] = {}
        for p in _playout(root, rng):
            k = kernel.key(p)
            kernel.check(k)
            assert kernel.position(k) == _tops_only(p) and kernel.key(kernel.position(k)) == k
            assert kernel.to_move(k) == p.to_move
            assert kernel.terminal(k) is terminal(p)  # the rules' own result objects
            moves = legal_moves(p)
            children = [_apply(p, m) for m in moves]
            assert kernel.successors(k) == [(kernel.key(c), False) for c in children], str(p)
            for q in [p, *children]:
                t = kernel.table_key(kernel.key(q))
                assert table.setdefault(key(q), t) == t and back.setdefault(t, key(q)) == key(q), str(q)
            positions += 1
            ends += not moves
    assert positions > 3000 and ends > 80


@compiled
def test_compiled_kernel_matches_the_python_kernel_on_random_playouts() -> None:
    rng = SplitMix64(29)
    checked = children = 0
    for root in _roots(11, 200):
        kernel = SpitKernel(root)
        assert kernel.compiled
        for p in _playout(root, rng):
            k = kernel.key(p)
            expected = kernel.python_successors(k)
            assert kernel.successors(k) == expected, str(p)
            assert kernel.terminal(k) is kernel.python_terminal(k), str(p)
            assert kernel.table_key(k) == kernel.python_table_key(k), str(p)
            for child, _ in expected:
                assert kernel.terminal(child) is kernel.python_terminal(child)
                assert kernel.table_key(child) == kernel.python_table_key(child)
                children += 1
            checked += 1
    assert checked > 12_000 and children > 20_000


def _tall() -> SpitPosition:
    """A hand-made position whose keys need more than 64 bits (two tall piles, many spit cards)."""
    return SpitPosition(((tuple(range(0, 20)), (), (), (), ()), (tuple(range(20, 40)), (), (), (), ())),
                        (tuple(range(40, 46)), tuple(range(46, 52))), ((), ()), 0, False)


def test_a_root_too_big_for_64_bits_runs_on_the_python_kernel() -> None:
    root = _tall()
    kernel = SpitKernel(root)
    assert kernel.bits > 64 and not kernel.compiled
    for p in _playout(root, SplitMix64(3)):
        k = kernel.key(p)
        assert kernel.successors(k) == [(kernel.key(_apply(p, m)), False) for m in legal_moves(p)]
        assert kernel.terminal(k) is terminal(p)


@compiled
def test_compiled_kernel_refuses_keys_it_cannot_have_made() -> None:
    root = position_from_code("SP1-N-AAAAAAB")
    kernel = SpitKernel(root)
    k = kernel.key(root)
    cases: list[tuple[Any, str]] = [
        (-1, "not a key of this root"),
        (1 << 64, "not a key of this root"),
        (k | 1 << kernel.bits, "not a key of this root"),
        ("12", "not a key"),
        ((k & ~(63 << 2)) | 55 << 2, "spit pile top 55 is not a card"),
        (k | ((1 << kernel.k_bits) - 1) << 14, f"spits, the root has {kernel.k_max}"),
    ]
    place = next(p for p in range(10) if len(kernel.top[p]) < 1 << kernel.widths[p])  # a state no place has
    cases.append((k | kernel.masks[place] << kernel.offsets[place], "in state"))
    for bad, message in cases:
        for method in (kernel.successors, kernel.terminal, kernel.table_key):
            with pytest.raises(ValueError, match=message):
                method(bad)
        if isinstance(bad, int) and bad >= 0:
            with pytest.raises(ValueError):
                kernel.check(bad)  # the Python kernel's check refuses the same keys
    with pytest.raises(ValueError, match="spit cards are not what is left"):
        kernel.key(position_from_code("SP1-N-AAAAAAC"))
    with pytest.raises(ValueError, match="places"):
        spit_kernel._native.Kernel(kernel.k_bits, kernel.k_max, kernel.spit, kernel.offsets[:9], kernel.widths,
                                   kernel.top, kernel.pop, kernel.split, kernel.fill, kernel.run,
                                   kernel.table_offsets, None, None, None)


class _Positions:
    """Spit's Game view without its kernel: the core's alpha-beta on positions and `rules.key`, as before."""

    name, acyclic = "spit", True

    def __getattr__(self, name: str) -> Any:
        if name == "path_kernel":
            raise AttributeError(name)
        return getattr(GAME, name)


def _solve_positions() -> list[SpitPosition]:
    out = []
    for number, stock in ((1, 20), (2, 20), (3, 22), (4, 24), (5, 26), (6, 30)):
        root = position_from_code(str(DealCode("SP", 1, "N", 4321 * number)))
        out.append(play_until_endgame(root, number, stock)[0])
    out += [random_small_position(500 + n, 6, 3) for n in range(4)]
    return [p for p in out if terminal(p) is None]


@pytest.mark.parametrize("p", _solve_positions(), ids=lambda p: f"stock{p.stock_left(0) + p.stock_left(1)}")
def test_a_solve_is_the_same_with_either_kernel_and_without_one(p: SpitPosition,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    question = WinLoss(p.to_move)
    limits = Limits(seconds=120, nodes=5_000_000)
    solutions = [solve(_Positions(), p, question, limits, "alphabeta")]
    if spit_kernel.native_available():
        assert GAME.path_kernel(p).compiled
        solutions.append(solve(GAME, p, question, limits, "alphabeta"))
    monkeypatch.setattr(spit_kernel, "NATIVE", False)
    assert not GAME.path_kernel(p).compiled
    solutions.append(solve(GAME, p, question, limits))  # auto: alpha-beta
    reference = solutions[0]
    assert reference.status == "solved" and reference.method == "alphabeta"
    for solution in solutions[1:]:
        assert (solution.status, solution.method, solution.value) == (reference.status, "alphabeta", reference.value)
        assert [(str(m.move), m.value) for m in solution.moves] == [(str(m.move), m.value) for m in reference.moves]
        assert [str(m) for m in solution.line] == [str(m) for m in reference.line]
        assert (solution.positions, solution.nodes) == (reference.positions, reference.nodes)
