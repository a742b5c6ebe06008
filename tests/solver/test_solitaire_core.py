"""The game-agnostic solitaire DFS on a toy game, against brute force."""

from __future__ import annotations

from functools import lru_cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from halfmoon.solver.core.solitaire import RefutedSet, restart_budgets, solve_solitaire
from halfmoon.solver.core.verdicts import Limits, Verdict
from halfmoon.solver.errors import LimitError, SolverBug


class Stacks:
    """Toy solitaire: stacks of letters; a move removes the tops of two stacks with equal letters."""

    def __init__(self, stacks: list[str]) -> None:
        self.stacks = [list(s) for s in stacks]
        self.heights = [len(s) for s in stacks]

    def key(self) -> tuple[int, ...]:
        return tuple(self.heights)

    def is_won(self) -> bool:
        return not any(self.heights)

    def is_dead(self) -> bool:
        return False

    def ordered_moves(self, salt: int) -> list[tuple[int, int]]:
        tops = [(i, self.stacks[i][h - 1]) for i, h in enumerate(self.heights) if h]
        moves = [(a, b) for x, (a, ca) in enumerate(tops) for (b, cb) in tops[x + 1 :] if ca == cb]
        if salt:
            moves.sort(key=lambda m: hash((m, salt)))
        return moves

    def make(self, move: tuple[int, int]) -> None:
        for i in move:
            self.heights[i] -= 1

    def unmake(self, move: tuple[int, int]) -> None:
        for i in move:
            self.heights[i] += 1


def brute(stacks: list[str]) -> bool:
    @lru_cache(maxsize=None)
    def win(heights: tuple[int, ...]) -> bool:
        if not any(heights):
            return True
        tops = [(i, stacks[i][h - 1]) for i, h in enumerate(heights) if h]
        for x, (a, ca) in enumerate(tops):
            for b, cb in tops[x + 1 :]:
                if ca == cb:
                    nxt = list(heights)
                    nxt[a] -= 1
                    nxt[b] -= 1
                    if win(tuple(nxt)):
                        return True
        return False

    return win(tuple(len(s) for s in stacks))


def plays_out(stacks: list[str], line) -> bool:
    game = Stacks(stacks)
    for move in line:
        assert move in game.ordered_moves(0)
        game.make(move)
    return game.is_won()


stacks_strategy = st.lists(st.text(alphabet="abc", min_size=0, max_size=4), min_size=1, max_size=4)


@settings(max_examples=150, deadline=None)
@given(stacks_strategy, st.integers(0, 3))
def test_verdicts_match_brute_force_and_lines_win(stacks, seed):
    game = Stacks(stacks)
    before = game.key()
    result = solve_solitaire(game, budgets=restart_budgets(first=3, factor=2), seed=seed)
    assert game.key() == before  # the state comes back as it was given
    assert result.verdict == (Verdict.WINNABLE if brute(stacks) else Verdict.UNWINNABLE)
    if result.verdict is Verdict.WINNABLE:
        assert plays_out(stacks, result.line)


def test_node_limit_gives_unknown_and_restores_the_state():
    stacks = ["abcabc", "cbacba", "abcabc", "cbacbc"]
    game = Stacks(stacks)
    result = solve_solitaire(game, Limits(nodes=3))
    assert result.verdict is Verdict.UNKNOWN and result.stopped == "nodes" and result.line is None
    assert game.key() == (6, 6, 6, 6)


def test_time_limit_gives_unknown():
    # Many letters, no way to win, and a refutation table too small to help: a long search.
    stacks = ["ab" * 4] * 6 + ["z"]
    result = solve_solitaire(Stacks(stacks), Limits(seconds=0.01, memory_bytes=0))
    assert result.verdict is Verdict.UNKNOWN and result.stopped == "time"


def test_a_tiny_refutation_table_costs_speed_not_correctness():
    stacks = ["abab", "baba", "abba", "aabb"]
    small = solve_solitaire(Stacks(stacks), Limits(memory_bytes=96 * 4))
    large = solve_solitaire(Stacks(stacks))
    assert small.verdict == large.verdict == (Verdict.WINNABLE if brute(stacks) else Verdict.UNWINNABLE)


def test_refuted_set_keeps_two_generations_under_its_cap():
    table = RefutedSet(4)
    for key in range(10):
        table.add(key)
        assert len(table) <= 4
    assert 9 in table and 0 not in table and table.dropped > 0
    assert RefutedSet(0).capacity == 0 and 1 not in RefutedSet(0)


def test_limits_are_validated():
    for bad in (dict(seconds=0), dict(seconds=-1), dict(nodes=0), dict(memory_bytes=-1), dict(seconds=float('nan')), dict(seconds=float('inf'))):
        with pytest.raises(LimitError):
            Limits(**bad)


def test_oracle_refutations_are_used_and_continuations_end_the_search():
    stacks = ["aabb", "abab", "bbaa", "ab"]

    def truthful(prefix, level):
        game = Stacks(stacks)
        for move in prefix:
            game.make(move)
        remaining = ["".join(s[:h]) for s, h in zip(game.stacks, game.heights)]
        return None if brute(remaining) else False

    result = solve_solitaire(Stacks(stacks), oracle=truthful, oracle_after=1)
    assert result.verdict == (Verdict.WINNABLE if brute(stacks) else Verdict.UNWINNABLE)

    def finisher(prefix, level):
        game = Stacks(stacks)
        for move in prefix:
            game.make(move)
        inner = solve_solitaire(game)  # an "outside" method: a fresh search
        return list(inner.line) if inner.verdict is Verdict.WINNABLE else False

    winnable = ["ab", "ba", "ab", "ba"]
    result = solve_solitaire(Stacks(winnable), oracle=finisher, oracle_after=1)
    assert result.verdict is Verdict.WINNABLE and plays_out(winnable, result.line)


def test_an_oracle_line_that_does_not_win_is_an_error():
    with pytest.raises(SolverBug):
        solve_solitaire(Stacks(["ab", "ab", "ba", "ba", "c", "d"]), oracle=lambda prefix, level: [], oracle_after=1)
