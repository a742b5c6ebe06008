"""The public Half Moon solver: methods agree, lines replay, limits give `unknown`, hints are exact."""

from __future__ import annotations

import pytest
from hm_brute import brute_winnable, layout
from hypothesis import HealthCheck, given, settings
from test_halfmoon_search import small_layouts

from halfmoon.dealcodes import deal_halfmoon
from halfmoon.solver.core.verdicts import Verdict
from halfmoon.solver.errors import SolverBug, UnsupportedError
from halfmoon.solver.games.halfmoon.portfolio import (
    SOLVER_VERSION,
    SolveResult,
    hint,
    reverse_position,
    solve,
    verify_line,
)
from halfmoon.solver.games.halfmoon.rules import Position, parse_line, replay


def deal(number: int) -> Position:
    return Position.from_deal(deal_halfmoon(number))


# Verdicts checked once with CP-SAT alone and with the search (see benchmarks/): 156, 171 and
# 193 are unwinnable deals the search refutes by itself; 18 needs CP-SAT.
SAMPLE = {1: Verdict.WINNABLE, 3: Verdict.WINNABLE, 8: Verdict.WINNABLE,
          156: Verdict.UNWINNABLE, 171: Verdict.UNWINNABLE, 193: Verdict.UNWINNABLE}


@pytest.mark.parametrize("number", sorted(SAMPLE))
def test_search_and_cpsat_agree_on_a_fixed_sample(number):
    position = deal(number)
    by_search = solve(position, "search", time_limit=120, node_limit=200_000)
    by_cpsat = solve(position, "cpsat", time_limit=120)
    assert by_search.verdict is by_cpsat.verdict is SAMPLE[number]
    for result in (by_search, by_cpsat):
        if result.verdict is Verdict.WINNABLE:
            assert len(result.moves) == 48 and replay(position, list(result.moves)).position.is_won
        else:
            assert result.moves is None


def test_unwinnable_deals_with_global_causes_agree():
    # 18 and 63 are lost only through several rank classes together (no one or two
    # classes alone are stuck): every method must still say so.
    for number in (18, 63):
        position = deal(number)
        for method in ("auto", "search", "cpsat"):
            assert solve(position, method, time_limit=120).verdict is Verdict.UNWINNABLE, (number, method)


def test_reversing_the_piles_keeps_the_verdict_and_reverses_lines():
    position = deal(1)
    line = solve(position).moves
    assert replay(reverse_position(position), list(reversed(line))).position.is_won
    assert reverse_position(reverse_position(position)) == position


def test_same_input_same_line():
    position = deal(12)
    first, second = solve(position), solve(position)
    assert first.verdict is Verdict.WINNABLE and first.moves == second.moves and first.method == second.method


def test_limits_give_unknown_never_a_guess():
    hard = deal(0)  # needs hundreds of thousands of nodes
    result = solve(hard, "search", time_limit=0.05)
    assert result.verdict is Verdict.UNKNOWN and result.method == "none" and result.moves is None
    assert solve(hard, "search", node_limit=500).verdict is Verdict.UNKNOWN
    assert solve(hard, "cpsat", time_limit=0.05).verdict is Verdict.UNKNOWN
    assert solve(hard, "auto", time_limit=0.05).verdict is Verdict.UNKNOWN


def test_a_tiny_transposition_cap_changes_nothing_but_speed():
    position = deal(12)
    assert solve(position, "search", tt_bytes=96 * 50).verdict is Verdict.WINNABLE


def test_result_json_shape():
    position = deal(1)
    data = solve(position).to_json("HM1-N-AAAAAAB")
    assert set(data) == {"code", "verdict", "moves", "method", "nodes", "seconds"}
    assert data["verdict"] == "winnable" and len(data["moves"]) == 48 and data["code"] == "HM1-N-AAAAAAB"
    assert replay(position, " ".join(data["moves"])).position.is_won
    lost = solve(deal(171)).to_json()
    assert "moves" not in lost and lost["verdict"] == "unwinnable" and lost["code"] is None
    assert isinstance(SOLVER_VERSION, str) and SOLVER_VERSION


def test_stored_results_can_be_rebuilt_positionally():
    # Other components rebuild results from storage with the five positional fields.
    result = SolveResult(Verdict.UNKNOWN, None, "none", 0, 0.0)
    assert result.to_json()["verdict"] == "unknown"


def test_bad_method_and_limits_are_value_errors():
    with pytest.raises(UnsupportedError):
        solve(deal(1), method="magic")
    with pytest.raises(ValueError):
        solve(deal(1), time_limit=-1)


def test_verify_line_rejects_lines_that_do_not_win():
    position = layout(["5C 6C"], "5D 6D")
    with pytest.raises(SolverBug):
        verify_line(position, parse_line("R1+R2"))
    with pytest.raises(SolverBug):
        verify_line(position, parse_line("1+R3"))  # R3 does not exist
    assert verify_line(position, parse_line("1+R1 1+R2"))


@pytest.mark.parametrize("method", ["auto", "search", "cpsat"])
def test_every_method_solves_the_greedy_trap(method):
    position = layout(["5C 6C"], "5D 6D")
    result = solve(position, method)
    assert result.verdict is Verdict.WINNABLE and replay(position, list(result.moves)).position.is_won


# -- hint ---------------------------------------------------------------------------------


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(small_layouts())
def test_hint_verdicts_match_brute_force(position):
    result = hint(position, time_limit=30)
    assert result.verdict is (Verdict.WINNABLE if brute_winnable(position) else Verdict.UNWINNABLE)
    assert [move for move, _ in result.moves] == position.legal_moves()
    for move, verdict in result.moves:
        assert verdict is (Verdict.WINNABLE if brute_winnable(position.apply(move)) else Verdict.UNWINNABLE)
    if result.verdict is Verdict.WINNABLE and not position.is_won:
        assert result.best is not None and dict(result.moves)[result.best] is Verdict.WINNABLE
        assert replay(position, list(result.line)).position.is_won
    else:
        assert result.best is None


def test_hint_on_the_greedy_trap_names_the_losing_move():
    position = layout(["5C 6C"], "5D 6D")
    verdicts = {str(move): verdict for move, verdict in hint(position).moves}
    assert verdicts == {"1+R1": Verdict.WINNABLE, "R1+R2": Verdict.UNWINNABLE}


def test_hint_json_shape():
    data = hint(layout(["5C 6C"], "5D 6D")).to_json("x")
    assert data["verdict"] == "winnable" and data["best"] == "1+R1"
    assert {"move": "R1+R2", "verdict": "unwinnable"} in data["moves"]
