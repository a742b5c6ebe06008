"""The public Half Moon solver: methods agree, lines replay, limits give `unknown`, hints are exact."""

from __future__ import annotations

import pytest
from support.hm_brute import brute_winnable, layout
from hypothesis import HealthCheck, given, settings
from test_halfmoon_search import small_layouts

from halfmoon.dealcodes import deal_halfmoon
from halfmoon.solver.core.verdicts import Verdict
from halfmoon.solver.errors import SolverBug, UnsupportedError
import halfmoon
from halfmoon.solver.core.verdicts import Limits
from halfmoon.solver.games.halfmoon.portfolio import SOLVER_VERSION, reverse_position, solve, verify_line
from halfmoon.solver.games.halfmoon.rules import Position, parse_line, replay


# Every test here runs with both engines (the compiled kernel and the Python reference).
pytestmark = pytest.mark.usefixtures("hm_engine")


def deal(number: int) -> Position:
    return Position.from_deal(deal_halfmoon(number))


# Verdicts checked once with CP-SAT alone and with the search (see benchmarks/): 156, 171 and
# 193 are unwinnable deals the search refutes by itself; 18 needs CP-SAT.
SAMPLE = {1: Verdict.WINNABLE, 3: Verdict.WINNABLE, 8: Verdict.WINNABLE,
          156: Verdict.UNWINNABLE, 171: Verdict.UNWINNABLE, 193: Verdict.UNWINNABLE}


@pytest.mark.parametrize("number", sorted(SAMPLE))
def test_search_and_cpsat_agree_on_a_fixed_sample(number):
    position = deal(number)
    by_search = solve(position, "search", Limits(seconds=120, nodes=200_000))
    by_cpsat = solve(position, "cpsat", Limits(seconds=120))
    assert by_search.verdict is by_cpsat.verdict is SAMPLE[number]
    for result in (by_search, by_cpsat):
        if result.verdict is Verdict.WINNABLE:
            assert len(result.line) == 48 and replay(position, list(result.line)).position.is_won
        else:
            assert result.line is None


def test_unwinnable_deals_with_global_causes_agree():
    # 18 and 63 are lost only through several rank classes together (no one or two
    # classes alone are stuck): every method must still say so.
    for number in (18, 63):
        position = deal(number)
        for method in ("auto", "search", "cpsat"):
            assert solve(position, method, Limits(seconds=120)).verdict is Verdict.UNWINNABLE, (number, method)


def test_reversing_the_piles_keeps_the_verdict_and_reverses_lines():
    position = deal(1)
    line = solve(position).line
    assert replay(reverse_position(position), list(reversed(line))).position.is_won
    assert reverse_position(reverse_position(position)) == position


def test_same_input_same_line():
    position = deal(12)
    first, second = solve(position), solve(position)
    assert first.verdict is Verdict.WINNABLE and first.line == second.line and first.method == second.method


def test_limits_give_unknown_never_a_guess():
    hard = deal(0)  # needs hundreds of thousands of nodes
    result = solve(hard, "search", Limits(seconds=0.05))
    assert result.verdict is Verdict.UNKNOWN and result.method == "none" and result.line is None
    assert solve(hard, "search", Limits(nodes=500)).verdict is Verdict.UNKNOWN
    assert solve(hard, "cpsat", Limits(seconds=0.05)).verdict is Verdict.UNKNOWN
    assert solve(hard, "auto", Limits(seconds=0.05)).verdict is Verdict.UNKNOWN


def test_a_tiny_transposition_cap_changes_nothing_but_speed():
    position = deal(12)
    assert solve(position, "search", Limits(memory_bytes=96 * 50)).verdict is Verdict.WINNABLE


def test_result_json_shape():
    data = halfmoon.solve("HM1-N-AAAAAAB").to_json()
    assert set(data) == {"code", "game", "verdict", "moves", "cards", "method", "nodes", "seconds", "stopped", "cached",
                         "solver_version", "source", "engine"}
    assert data["verdict"] == "winnable" and len(data["moves"]) == 48 and data["code"] == "HM1-N-AAAAAAB"
    assert data["game"] == "halfmoon" and len(data["cards"]) == 48 and data["cached"] is False
    assert replay(deal(1), " ".join(data["moves"])).position.is_won
    lost = halfmoon.solve(deal(171), game="HM").to_json()
    assert lost["moves"] is None and lost["verdict"] == "unwinnable" and lost["code"] is None
    assert isinstance(SOLVER_VERSION, str) and SOLVER_VERSION


def test_bad_method_and_limits_are_value_errors():
    with pytest.raises(UnsupportedError):
        solve(deal(1), method="magic")
    with pytest.raises(ValueError):
        solve(deal(1), "auto", Limits(seconds=-1))


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
    assert result.verdict is Verdict.WINNABLE and replay(position, list(result.line)).position.is_won


# -- hint ---------------------------------------------------------------------------------


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(small_layouts())
def test_hint_verdicts_match_brute_force(position):
    result = halfmoon.hint(position, game="HM", limits=Limits(seconds=30))
    assert result.verdict is (Verdict.WINNABLE if brute_winnable(position) else Verdict.UNWINNABLE)
    assert [m.move for m in result.moves] == position.legal_moves()
    for move, verdict in ((m.move, m.verdict) for m in result.moves):
        assert verdict is (Verdict.WINNABLE if brute_winnable(position.apply(move)) else Verdict.UNWINNABLE)
    if result.verdict is Verdict.WINNABLE and not position.is_won:
        assert result.best is not None and {m.move: m.verdict for m in result.moves}[result.best] is Verdict.WINNABLE
        assert replay(position, list(result.line)).position.is_won
    else:
        assert result.best is None


def test_hint_on_the_greedy_trap_names_the_losing_move():
    position = layout(["5C 6C"], "5D 6D")
    verdicts = {str(m.move): m.verdict for m in halfmoon.hint(position, game="HM").moves}
    assert verdicts == {"1+R1": Verdict.WINNABLE, "R1+R2": Verdict.UNWINNABLE}


def test_hint_json_shape():
    data = halfmoon.hint(layout(["5C 6C"], "5D 6D"), game="HM").to_json()
    assert data["verdict"] == "winnable" and data["best"] == "1+R1"
    assert {"move": "R1+R2", "cards": "5D+6D", "verdict": "unwinnable"} in data["moves"]
