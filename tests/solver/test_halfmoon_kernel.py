"""The compiled Half Moon search against its reference, the Python search.

The kernel is a port that must visit the same nodes in the same order: verdicts, lines and
node counts are compared, not just verdicts, on fixed deals (winnable, unwinnable, hard), on
mid-game positions and small layouts with tiny budgets and caps, and state by state (moves,
order, dead-position checks). Then what only the kernel has: limits, Ctrl-C, the memory cap,
internal errors, the fallback when it is not built, and the rating's playouts.
"""

from __future__ import annotations

import signal
import time

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from support.hm_brute import layout
from test_halfmoon_search import small_layouts

from halfmoon.dealcodes import Card, deal_halfmoon
from halfmoon.dealcodes.rng import SplitMix64
from halfmoon.solver.catalogue import solitaire
from halfmoon.solver.core.solitaire import RefutedSet, solve_solitaire
from halfmoon.solver.core.verdicts import Limits, Verdict
from halfmoon.solver.errors import SolverBug, UnsupportedError
from halfmoon.solver.games.halfmoon import kernel, portfolio
from halfmoon.solver.games.halfmoon.portfolio import reverse_position, solve
from halfmoon.solver.games.halfmoon.rules import Position, replay
from halfmoon.solver.games.halfmoon.search import HalfMoonSearch, concretize
from halfmoon.solver.rating import RatingParams, _stream, playout, rate_position

pytestmark = pytest.mark.skipif(not kernel.available(),
                                reason=f"the native Half Moon kernel is not built: {kernel.unavailable_reason()}")


def deal(number: int) -> Position:
    return Position.from_deal(deal_halfmoon(number))


def outcome(result) -> tuple:
    """Everything a solve decides, and the work per step (node-for-node equality)."""
    steps = [(p.get("direction"), p.get("nodes"), p.get("verdict"), p.get("status")) for p in result.stats["phases"]]
    return result.verdict, result.line, result.nodes, result.method, result.stopped, steps


def both(position: Position, method: str = "search", limits: Limits = Limits(), seed: int = 0):
    python = solve(position, method, limits, seed, engine="python")
    native = solve(position, method, limits, seed, engine="native")
    assert python.stats["engine"] == "python" and native.stats["engine"] == "native"
    return python, native


# Winnable deals that need a few hundred to ~15 000 nodes (23, 26 with restarts), unwinnable ones
# refuted by the search alone (156, 171, 193) and through several classes together (18, 63).
SAMPLE = [1, 3, 8, 12, 23, 26, 100, 156, 171, 193, 18, 63]


@pytest.mark.parametrize("number", SAMPLE)
def test_native_and_python_agree_node_for_node_on_a_fixed_sample(number):
    position = deal(number)
    python, native = both(position)
    assert outcome(python) == outcome(native)
    assert native.verdict is not Verdict.UNKNOWN
    if native.verdict is Verdict.WINNABLE:
        assert replay(position, list(native.line)).position.is_won


def test_the_auto_portfolio_agrees_too():
    for number in (1, 156, 18):
        python, native = both(deal(number), "auto")
        assert outcome(python) == outcome(native)


@pytest.mark.slow
@pytest.mark.parametrize("block", range(10))
def test_native_and_python_agree_on_deals_0_to_99(block):
    for number in range(block * 10, block * 10 + 10):
        python, native = both(deal(number), limits=Limits(seconds=600))
        assert outcome(python) == outcome(native), number


@st.composite
def mid_games(draw) -> Position:
    """A deal after some random legal moves, sometimes with a card taken away (unbalanced)."""
    position = deal(draw(st.integers(0, 10**6)))
    for _ in range(draw(st.integers(0, 30))):
        moves = position.legal_moves()
        if not moves:
            break
        position = position.apply(moves[draw(st.integers(0, len(moves) - 1))])
    if draw(st.integers(0, 9)) == 0:
        piles = list(position.piles)
        index = draw(st.integers(0, len(piles) - 1))
        piles[index] = piles[index][:-1]
        position = Position(tuple(piles), position.reserve)
    return position


LIMITS = st.builds(Limits, nodes=st.sampled_from([None, 7, 60, 400]),
                   memory_bytes=st.sampled_from([None, 0, 96, 96 * 7, 96 * 300]))


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mid_games(), LIMITS, st.integers(0, 2**64 - 1))
def test_mid_game_positions_agree_under_small_budgets_and_caps(position, limits, seed):
    if limits.nodes is None:
        limits = Limits(nodes=3000, memory_bytes=limits.memory_bytes)  # the Python side stays quick
    python, native = both(position, "search", limits, seed)
    assert outcome(python) == outcome(native)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(small_layouts(), LIMITS)
def test_small_layouts_agree_under_small_budgets_and_caps(position, limits):
    python, native = both(position, "search", limits)
    assert outcome(python) == outcome(native)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 10**6), st.booleans(), st.integers(0, 2**64 - 1), st.data())
def test_state_by_state_the_kernel_sees_what_the_reference_sees(number, reverse, salt, data):
    position = deal(number)
    reference = HalfMoonSearch(reverse_position(position) if reverse else position)
    native = kernel.new_search(position.piles, position.reserve, 1000, 1000, reverse)
    keys: dict = {}
    played = []
    while True:
        assert native.heights == reference.h and native.free == reference.free
        assert native.left == reference.left and native.is_dead_now() == reference.is_dead()
        for cls in range(6):
            if reference.class_left[cls]:
                assert native.class_dead(cls) == reference.class_projection_dead(cls)
        # The packed keys differ in form but must identify the same states.
        assert keys.setdefault(native.key_words(), reference.key()) == reference.key()
        moves = reference.ordered_moves(salt)
        assert native.ordered_moves(salt) == moves
        if not moves or reference.is_dead():
            break
        move = moves[data.draw(st.integers(0, len(moves) - 1))]
        reference.make(move)
        native.play(move)
        played.append(move)
    for move in reversed(played):
        reference.unmake(move)
        native.unplay(move)
    assert native.heights == reference.h and native.key_words() == kernel.new_search(
        position.piles, position.reserve, 1000, 1000, reverse).key_words()


def test_the_refuted_set_keeps_the_same_entries_under_a_cap():
    # Two generations, the same swap rule: the same count after every run, and never above the cap.
    position = deal(26)
    for capacity in (1, 2, 5, 64, 1000):
        table = RefutedSet(capacity)
        reference = HalfMoonSearch(position)
        native = kernel.new_search(position.piles, position.reserve, capacity, 100_000)
        runs = 0
        for budget in (150, 400, 1000, 2500):
            expected = solve_solitaire(reference, Limits(nodes=budget), budgets=(budget,), refuted=table,
                                       unsalted_runs=2, first_run=runs)
            runs = expected.stats["runs"]
            code, line, nodes, stopped = native.step(budget, None, 0)
            assert (nodes, line, stopped) == (expected.nodes, expected.line, expected.stopped)
            assert native.refuted_count == len(table) <= capacity
            if code >= 0:
                break


def test_lines_replay_and_concretize_as_the_reference_does():
    for number in (1, 12, 23):
        for reverse in (False, True):
            position = deal(number)
            searched = reverse_position(position) if reverse else position
            native = kernel.new_search(position.piles, position.reserve, 10**6, 100_000, reverse)
            for budget in (150, 400, 1000, 2500, 6250, 15625):
                code, line, _, _ = native.step(budget, None, 0)
                if code >= 0:
                    break
            if code != 1:
                continue
            moves = concretize(searched, line)
            codes = native.concretize(line)
            npiles = len(position.piles)
            assert [tuple(p.index + (npiles if p.in_reserve else 0) for p in m.places) for m in moves] == codes
            assert replay(searched, list(moves)).position.is_won


def test_same_input_same_answer_every_time():
    position = deal(23)
    first = solve(position, engine="native")
    for _ in range(3):
        assert outcome(solve(position, engine="native")) == outcome(first)


# -- limits, interruption, errors -------------------------------------------------------------


def test_limits_end_in_unknown_in_the_kernel():
    hard = deal(0)  # about 190 000 nodes
    for method in ("search", "auto"):
        result = solve(hard, method, Limits(seconds=0.02), engine="native")
        assert result.verdict is Verdict.UNKNOWN and result.stopped == "time" and result.line is None
    result = solve(hard, "search", Limits(nodes=500), engine="native")
    assert result.verdict is Verdict.UNKNOWN and result.stopped == "nodes" and result.nodes == 500
    assert outcome(result) == outcome(solve(hard, "search", Limits(nodes=500), engine="python"))


def test_a_tiny_memory_cap_only_costs_speed():
    position = deal(12)
    capped = solve(position, "search", Limits(memory_bytes=96 * 50), engine="native")
    assert capped.verdict is Verdict.WINNABLE
    assert outcome(capped) == outcome(solve(position, "search", Limits(memory_bytes=96 * 50), engine="python"))


def _long_search():
    """A kernel search that runs for seconds: deal 0 reversed, one run without a budget to speak of."""
    position = deal(0)
    return kernel.new_search(position.piles, position.reserve, 10**7, 100_000, True)


def test_ctrl_c_stops_a_native_search_quickly():
    search = _long_search()
    fired: list[float] = []

    def interrupt(signum, frame):
        fired.append(time.perf_counter())
        raise KeyboardInterrupt

    previous = signal.signal(signal.SIGALRM, interrupt)
    try:
        signal.setitimer(signal.ITIMER_REAL, 0.1)
        with pytest.raises(KeyboardInterrupt):
            search.step(10**12, None, 0)
        stopped = time.perf_counter()
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
    assert fired and stopped - fired[0] < 0.2
    # The state came back whole: the same search can go on.
    assert search.left == 104 and search.step(100, None, 0)[3] == "nodes"


def test_a_kernel_failure_is_an_internal_error_never_a_verdict(monkeypatch):
    class Broken:
        runs = 0
        refuted_count = 0

        def step(self, budget, seconds, seed):
            raise kernel.kernel_error()("invariant broken")

    monkeypatch.setattr(kernel, "new_search", lambda *args, **kwargs: Broken())
    with pytest.raises(SolverBug, match="native Half Moon search failed"):
        solve(deal(1), engine="native")


def test_kernel_invariants_are_checked():
    search = kernel.new_search(deal(1).piles, deal(1).reserve, 100, 100)
    with pytest.raises(kernel.kernel_error()):
        search.play((-11, -12, -13))  # no free faces at the start of deal 1
    with pytest.raises(kernel.kernel_error()):
        search.concretize([(-7, -4)] * 9)


@pytest.mark.parametrize("text", ["- |", "- | --", "- | 5S 6D", "5S | 6D", "JSQS | KD", "5S6S |", "-/KS | JD QH --",
                                  "5C6C | 5D 6D", "6C5C/6D5D |"])
def test_edge_layouts_agree(text):
    position = Position.parse(text)
    python, native = both(position)
    assert outcome(python) == outcome(native) and native.stats["engine"] == "native"


def test_a_layout_the_kernel_cannot_pack_uses_the_python_search():
    many = Position(tuple((Card(5, 0), Card(6, 0)) if i % 2 else (Card(6, 1), Card(5, 1)) for i in range(70)), ())
    result = solve(many, "search", engine="native")
    assert result.verdict is Verdict.WINNABLE and result.stats["engine"] == "python"
    assert "64" in result.stats["engine_note"]


# -- engine choice and the fallback ---------------------------------------------------------------


def test_the_default_engine_is_native_and_the_environment_can_choose(monkeypatch):
    monkeypatch.delenv(kernel.ENV_VAR, raising=False)
    assert kernel.resolve(None) == "native" and kernel.fallback_warning() is None
    assert solve(deal(1)).stats["engine"] == "native"
    monkeypatch.setenv(kernel.ENV_VAR, "python")
    assert solve(deal(1)).stats["engine"] == "python"
    monkeypatch.setenv(kernel.ENV_VAR, "turbo")
    with pytest.raises(UnsupportedError):
        solve(deal(1))
    with pytest.raises(UnsupportedError):
        solve(deal(1), engine="fortran")


def test_without_the_kernel_the_python_search_answers(monkeypatch):
    monkeypatch.delenv(kernel.ENV_VAR, raising=False)
    monkeypatch.setattr(kernel, "_kernel", None)
    monkeypatch.setattr(kernel, "_MISSING", "No module named '_kernel'")
    assert not kernel.available() and kernel.resolve(None) == "python"
    warning = kernel.fallback_warning()
    assert warning and "\n" not in warning and "Python search" in warning
    result = solve(deal(1))
    assert result.verdict is Verdict.WINNABLE and result.stats["engine"] == "python"
    with pytest.raises(UnsupportedError, match="not built"):
        solve(deal(1), engine="native")
    entry = solitaire("HM")
    assert entry.extra["playouts"](deal(1), SplitMix64(1), 4, False) is None  # the rating plays them in Python


# -- the rating on the kernel ---------------------------------------------------------------------


@pytest.mark.parametrize("number", [1, 5, 77])
def test_native_playouts_draw_exactly_as_the_rating_does(number):
    entry = solitaire("HM")
    start = deal(number)
    for greedy in (False, True):
        reference, native = _stream(7, number, 1), _stream(7, number, 1)
        wins = sum(playout(entry, start, reference, greedy) for _ in range(12))
        assert kernel.playouts(start.piles, start.reserve, native.state, 12, greedy) == (wins, reference.state)
    trap = layout(["5C 6C"], "5D 6D")  # taking the pile's 6 first wins; the reserve pair loses
    assert kernel.playouts(trap.piles, trap.reserve, 1, 10, True)[0] == 10  # greedy: piles first
    assert 0 < kernel.playouts(trap.piles, trap.reserve, 1, 40, False)[0] < 40


def test_the_rating_is_byte_identical_with_either_engine(monkeypatch):
    entry = solitaire("HM")
    params = RatingParams(random_playouts=16, greedy_playouts=16)
    ratings = {}
    for engine in ("python", "native"):
        monkeypatch.setenv(kernel.ENV_VAR, engine)
        result, rating = rate_position(entry, entry.deal(1), 1, params)
        assert result.stats["engine"] == engine
        ratings[engine] = rating.to_json()
    assert ratings["python"] == ratings["native"]


def test_portfolio_solve_signature_keeps_its_positional_order():
    # The adapter calls solve(position, method, limits, seed); the engine is a keyword after them.
    assert list(portfolio.solve.__code__.co_varnames[:5]) == ["position", "method", "limits", "seed", "engine"]
