"""The compiled endgame provers against their Python references.

Each compiled module keeps the rules on its own packed keys; the Python kernel (and the rules
behind it) is the reference. Successors are compared on random positions along random playouts,
and values (the position's and every move's) against the Python prover and a plain brute force.
Skipped when the modules are not built (no compiler): the Python code then runs everywhere.
"""

from __future__ import annotations

import random
from typing import Iterator

import pytest

from halfmoon.dealcodes import standard_deck
from halfmoon.solver.core.exact import Limits, replay_line, solve
from halfmoon.solver.core.game import WinLoss, avoid_last
from halfmoon.solver.games.shithead import kernel as shithead_kernel
from halfmoon.solver.games.shithead.kernel import GAME, position_key
from halfmoon.solver.games.shithead.rules import Position, _apply, legal_moves
from support.toys import brute_force

native = pytest.importorskip("halfmoon.solver.games.shithead._native")
native3 = pytest.importorskip("halfmoon.solver.games.shithead._native3")


def _table(rng: random.Random, size: tuple[int, int], players: int = 2) -> Position | None:
    cards = rng.sample(standard_deck(), rng.randint(*size))
    hands: list[list] = [[] for _ in range(players)]
    ups: list[list] = [[] for _ in range(players)]
    downs: list[list] = [[] for _ in range(players)]
    pile: list = []
    for card in cards:
        rng.choice([pile, pile, *ups, *downs, *hands, *hands]).append(card)
    if any(not (hands[s] or ups[s] or downs[s]) for s in range(players)) or max(map(len, ups + downs)) > 3:
        return None
    return Position(tuple(tuple(sorted(h)) for h in hands), tuple(map(tuple, ups)), tuple(map(tuple, downs)), (),
                    tuple(pile), (), rng.randrange(players))


def _tables(seed: int, size: tuple[int, int], players: int = 2) -> Iterator[Position]:
    """Random tables (see `_table`) from a seeded generator, for ever."""
    rng = random.Random(seed)
    while True:
        p = _table(rng, size, players)
        if p is not None:
            yield p


@pytest.mark.parametrize("players, module", [(2, native), (3, native3)], ids=["two", "three"])
def test_shithead_native_successors_match_the_kernel_on_random_playouts(players: int, module) -> None:
    rng = random.Random(7 + players)
    checked = 0
    while checked < 1500:
        p = _table(rng, (4 + players, 44), players)
        if p is None:
            continue
        for _ in range(40):
            if GAME.terminal(p) is not None:
                break
            key = position_key(p)
            expected = sorted(module.native_key(child) for child in GAME.kernel(p).successors(key))
            assert sorted(module.successor_keys(key)) == expected, p.to_json()
            checked += 1
            moves = legal_moves(p)
            p = _apply(p, moves[rng.randrange(len(moves))])


def _solve_both(p: Position, monkeypatch: pytest.MonkeyPatch, nodes: int = 200_000):
    compiled = solve(GAME, p, WinLoss(0), Limits(nodes=nodes), method="proof")
    assert compiled.extra.get("native") is True
    monkeypatch.setattr(shithead_kernel, "NATIVE", False)
    reference = solve(GAME, p, WinLoss(0), Limits(nodes=nodes, seconds=10), method="proof")
    monkeypatch.setattr(shithead_kernel, "NATIVE", True)
    assert reference.extra.get("native") is False
    return compiled, reference


def test_shithead_native_values_match_python_and_brute_force(monkeypatch: pytest.MonkeyPatch) -> None:
    tables = _tables(11, (4, 8))
    checked = 0
    while checked < 60:
        p = next(tables)
        p = p._replace(to_move=0)
        retro = solve(GAME, p, WinLoss(0), Limits(nodes=80), method="retrograde")
        if not retro.extra["complete"]:
            continue
        compiled, reference = _solve_both(p, monkeypatch)
        expected = brute_force(GAME, p, WinLoss(0))
        assert compiled.value == reference.value == expected, p.to_json()
        moves = [brute_force(GAME, GAME.apply(p, m.move), WinLoss(0)) for m in compiled.moves]
        assert [m.value for m in compiled.moves] == [m.value for m in reference.moves] == moves, p.to_json()
        end = replay_line(GAME, p, compiled.line)
        if compiled.line_end == "terminal":
            assert WinLoss(0).value(GAME.terminal(end)) == compiled.value
        else:
            assert compiled.value == 0
        checked += 1


def test_three_player_native_values_match_python_and_brute_force(monkeypatch: pytest.MonkeyPatch) -> None:
    """Three players: for every seat, "can the others force it to be the shithead?" — the
    compiled prover, the Python prover and brute force give the same value, move by move."""
    tables = _tables(21, (5, 8), players=3)
    checked = 0
    while checked < 25:
        p = next(tables)
        question = avoid_last(checked % 3)
        retro = solve(GAME, p, question, Limits(nodes=120), method="retrograde")
        if not retro.extra["complete"]:
            continue
        compiled = solve(GAME, p, question, Limits(nodes=200_000), method="proof")
        assert compiled.extra.get("native") is True
        monkeypatch.setattr(shithead_kernel, "NATIVE", False)
        reference = solve(GAME, p, question, Limits(nodes=200_000, seconds=10), method="proof")
        monkeypatch.setattr(shithead_kernel, "NATIVE", True)
        assert reference.extra.get("native") is False
        expected = brute_force(GAME, p, question)
        assert compiled.value == reference.value == retro.value == expected, p.to_json()
        moves = [brute_force(GAME, GAME.apply(p, m.move), question) for m in compiled.moves]
        assert [m.value for m in compiled.moves] == [m.value for m in reference.moves] == moves, p.to_json()
        end = replay_line(GAME, p, compiled.line)
        if compiled.line_end == "terminal":
            assert question.value(GAME.terminal(end)) == compiled.value
        checked += 1


def test_three_player_native_prover_refuses_a_test_it_does_not_have() -> None:
    with pytest.raises(ValueError, match="no test of seat 0, for_max True with 3 seats"):
        native3.Prover(0, True, 1 << 20)
    with pytest.raises(ValueError, match="no test of seat 3"):
        native3.Prover(3, False, 1 << 20)


def test_shithead_native_agrees_with_python_on_larger_tables(monkeypatch: pytest.MonkeyPatch) -> None:
    """Positions too big for brute force: the compiled and the Python prover settle the same values."""
    tables = _tables(12, (9, 12))
    checked = 0
    while checked < 8:
        p = next(tables)
        compiled, reference = _solve_both(p, monkeypatch, nodes=30_000)
        if reference.status != "solved":
            continue
        assert compiled.value == reference.value, p.to_json()
        for a, b in zip(compiled.moves, reference.moves):
            assert a.value is None or b.value is None or a.value == b.value, p.to_json()
        checked += 1


def test_tables_capped_by_memory_stop_at_the_position_limit_and_count_bytes_over_their_peak() -> None:
    """A memory limit so small that the compiled tables keep dropping unsettled entries: the
    position limit still ends the solve (it counts dropped positions too; it used to run on until
    the clock stopped it), and bytes per position are the tables' bytes over the most positions
    they held, not over the few left at the end."""
    from halfmoon.solver.games.shithead.policy import play_until_endgame

    position = play_until_endgame(Position.from_deal_code("SH1-2-AAAAAAB"), 0)[0]
    result = solve(GAME, position, WinLoss(position.to_move), Limits(nodes=300_000, memory_bytes=1 << 22), "proof")
    assert result.status == "unknown" and "position limit" in result.reason
    assert result.extra["native"] is True
    assert result.positions > sum(result.extra["tests"].values())  # entries were dropped: the peak counts
    assert 32 <= result.bytes_per_position <= 32 / 0.35  # 32-byte entries, tables at least 35% full at their peak


def _reachable_keys(position: Position, limit: int) -> list[tuple[int, int, int]]:
    """Native keys of the positions reachable from `position`, breadth first, at most `limit`."""
    seen = {position_key(position): position}
    frontier = [position]
    while frontier and len(seen) < limit:
        nxt = []
        for p in frontier:
            for move in legal_moves(p):
                q = _apply(p, move)
                k = position_key(q)
                if k not in seen and shithead_kernel.GAME.terminal(q) is None:
                    seen[k] = q
                    nxt.append(q)
        frontier = nxt
    return [native.native_key(k) for k in list(seen)[:limit]]


def test_dropping_unsettled_entries_in_place_keeps_every_fact_findable() -> None:
    """A purge (at the memory budget) drops the unsettled entries and re-places the others in
    the same slots array: every proof and disproof is still found, every dropped entry is gone,
    and the search goes on to the answer a prover that never purged gives."""
    checked = 0
    for p in _tables(29, (14, 18)):
        key = native.native_key(position_key(p))
        fresh = native.Prover(p.to_move, True, 1 << 30)
        if fresh.run(key, 10**6, 60.0)[0] != 0 or fresh.made < 10_000:  # DONE, after some work
            continue
        prover = native.Prover(p.to_move, True, 1 << 30)
        prover.run(key, 3_000, 60.0)
        keys = _reachable_keys(p, 20_000)
        before = {k: prover.numbers(k) for k in keys}
        settled = {k for k, n in before.items() if n is not None and 0 in n}
        unsettled = {k for k, n in before.items() if n is not None and 0 not in n}
        count = prover.count
        dropped = prover.purge()
        assert prover.findable() and prover.count == count - dropped and dropped >= len(unsettled)
        assert all(prover.numbers(k) == before[k] for k in settled)
        assert all(prover.numbers(k) is None for k in unsettled)
        assert prover.run(key, 10**7, 60.0)[0] == 0
        assert prover.fact(key) == fresh.fact(key), p.to_json()
        checked += bool(settled and unsettled)
        if checked == 5:
            break


def test_a_table_kept_tiny_by_its_budget_purges_over_and_over_and_stays_right() -> None:
    """With room for 8 192 entries the table drops its unsettled entries again and again: after
    every slice each entry is still found where it is, and every answer it reaches is the big
    table's."""
    made = compared = 0
    for p in _tables(31, (11, 15)):
        key = native.native_key(position_key(p))
        tiny = native.Prover(p.to_move, True, 1 << 18)
        status = 1  # PAUSED
        for _ in range(100):
            status, _ = tiny.run(key, 2_000, 60.0)
            assert tiny.findable(), p.to_json()
            if status != 1:
                break
        made += tiny.made
        if status == 0:
            big = native.Prover(p.to_move, True, 1 << 30)
            if big.run(key, 10**6, 60.0)[0] == 0:
                assert tiny.fact(key) == big.fact(key), p.to_json()
                compared += 1
        if made > 2_000_000 and compared >= 20:
            break


# -- the tests of a question side by side on threads ------------------------------------------------


def _answers(result) -> tuple:
    return result.status, result.value, [m.value for m in result.moves], [str(m) for m in result.line]


def test_tests_side_by_side_answer_as_one_after_another(monkeypatch: pytest.MonkeyPatch) -> None:
    """Two threads run the two threshold tests at once; each test searches as it would alone, so
    the values, every move's value and the principal line are the same as with one thread."""
    from halfmoon.solver.core import proof

    calls = []
    side_by_side = proof._side_by_side
    monkeypatch.setattr(proof, "_side_by_side", lambda *args: calls.append(1) or side_by_side(*args))
    tables = _tables(13, (8, 12))
    checked = 0
    while checked < 12:
        p = next(tables)
        answers = []
        calls.clear()
        for threads in ("1", "2"):
            monkeypatch.setenv("HALFMOON_THREADS", threads)
            result = solve(GAME, p, WinLoss(p.to_move), Limits(nodes=2_000_000), method="proof")
            assert result.extra["native"] is True
            answers.append(_answers(result))
            if threads == "1":
                assert not calls
        assert calls, "the two tests never ran side by side"
        assert answers[0] == answers[1], p.to_json()
        checked += answers[0][0] == "solved"


def test_side_by_side_keeps_to_the_time_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    from halfmoon.solver.games.shithead.policy import play_until_endgame
    import time

    monkeypatch.setenv("HALFMOON_THREADS", "2")
    position = play_until_endgame(Position.from_deal_code("SH1-2-AAAAAAA"), 0)[0]
    started = time.perf_counter()
    result = solve(GAME, position, WinLoss(position.to_move), Limits(seconds=1.5), "proof")
    assert result.status == "unknown" and "time limit" in result.reason
    assert time.perf_counter() - started < 1.5 + 1.0


def test_a_running_prover_stops_when_cancelled_from_another_thread() -> None:
    """How a solve stops the tests on worker threads (Ctrl-C reaches only the main thread)."""
    import threading
    import time

    from halfmoon.solver.games.shithead.policy import play_until_endgame

    position = play_until_endgame(Position.from_deal_code("SH1-2-AAAAAAA"), 0)[0]
    prover = native.Prover(position.to_move, True, 1 << 26)
    key = native.native_key(position_key(position))
    result = []
    worker = threading.Thread(target=lambda: result.append(prover.run(key, 10**12, 60.0)))
    worker.start()
    time.sleep(0.3)
    prover.cancel = True
    worker.join(5.0)
    assert not worker.is_alive()
    status, used = result[0]
    assert status == 5 and used > 0  # INTERRUPTED, after some work


@pytest.mark.parametrize("text", ["0", "two", "-1", "1.5"])
def test_a_bad_thread_count_is_a_clear_error(monkeypatch: pytest.MonkeyPatch, text: str) -> None:
    from halfmoon.solver.core.proof import threads
    from halfmoon.solver.errors import LimitError

    monkeypatch.setenv("HALFMOON_THREADS", text)
    with pytest.raises(LimitError, match="HALFMOON_THREADS"):
        threads()
    monkeypatch.setenv("HALFMOON_THREADS", "3")
    assert threads() == 3
