"""The exact core on Shithead: brute-force cross-checks, hand-checked positions, reports."""

from __future__ import annotations

import random

from halfmoon.dealcodes import standard_deck
from halfmoon.solver.catalogue import endgame_adapter as get_adapter
from halfmoon.solver.core.report import answer
from halfmoon.solver.core.exact import SOLVED, Limits, replay_line, solve, solve_all
from halfmoon.solver.core.game import WinLoss, avoid_last
from halfmoon.solver.games.shithead.kernel import GAME
from halfmoon.solver.games.shithead.rules import Position
from support.toys import brute_force


def _random_table(seed: int, players: int = 2, size: tuple[int, int] = (4, 6)) -> Position:
    rng = random.Random(seed)
    cards = rng.sample(standard_deck(), rng.randint(*size))
    hands = [[cards.pop()] for _ in range(players)]
    ups = [[] for _ in range(players)]
    downs = [[] for _ in range(players)]
    pile: list = []
    for card in cards:
        rng.choice([pile] + ups + downs + hands).append(card)
    return Position(tuple(tuple(sorted(h)) for h in hands), tuple(map(tuple, ups)), tuple(map(tuple, downs)), (),
                    tuple(pile), (), 0)


def _check_line(p: Position, result, question) -> None:
    """The principal line replays through the rules; it ends at a terminal worth the value, or at a
    repetition when the value is the draw (endless play), or is cut by the line cap."""
    end = replay_line(GAME, p, result.line)
    if result.line_end == "terminal":
        assert GAME.terminal(end) is not None and question.value(GAME.terminal(end)) == result.value
    else:
        assert result.line_end in ("repetition", "cut") and result.value == question.draw_value


def test_agrees_with_brute_force_on_small_tables() -> None:
    """Retrograde analysis and the proof-number search against a plain brute force (every move)."""
    checked = 0
    for seed in range(400):
        p = _random_table(seed)
        if max(len(x) for x in p.face_up + p.face_down) > 3:
            continue
        retro = solve(GAME, p, WinLoss(0), Limits(nodes=80), method="retrograde")
        if not retro.extra["complete"]:
            continue
        expected = brute_force(GAME, p, WinLoss(0))
        moves = [brute_force(GAME, GAME.apply(p, mv.move), WinLoss(0)) for mv in retro.moves]
        for result in (retro, solve(GAME, p, WinLoss(0), Limits(nodes=100_000), method="proof")):
            assert result.value == expected, (result.method, p.to_json())
            assert [mv.value for mv in result.moves] == moves, (result.method, p.to_json())
            _check_line(p, result, WinLoss(0))
        checked += 1
    assert checked >= 100


def test_three_players_coalition_agrees_with_brute_force() -> None:
    checked = 0
    for seed in range(300):
        p = _random_table(1000 + seed, players=3, size=(4, 6))
        if max(len(x) for x in p.face_up + p.face_down) > 3:
            continue
        questions = [avoid_last(s) for s in range(3)]
        results = solve_all(GAME, p, questions, Limits(nodes=60), method="retrograde")
        if not results[0].extra["complete"]:
            continue
        proofs = solve_all(GAME, p, questions, Limits(nodes=100_000), method="proof")
        for q, r, pr in zip(questions, results, proofs):
            expected = brute_force(GAME, p, q)
            assert r.value == pr.value == expected, (p.to_json(), q.seat)
            assert [m.value for m in r.moves] == [m.value for m in pr.moves], (p.to_json(), q.seat)
            _check_line(p, pr, q)
        checked += 1
    assert checked >= 50


def test_hand_checked_forced_loss() -> None:
    """Player 0 holds a 5 against a 6 on the pile: the only move is to pick up. Player 1 plays the 9
    (player 0 cannot beat it and picks up again), then the face-up 4, and the face-down Q wins."""
    p = Position.from_json({"to_move": 0, "hands": [["5C"], ["9D"]], "face_up": [["KS"], ["4H"]],
                            "face_down": [["7H"], ["QD"]], "pile": ["6S"]})
    result = solve(GAME, p, WinLoss(0))
    assert result.value == -1
    assert [str(m.move) for m in result.moves] == ["pickup"]


def test_hand_checked_win_by_burning() -> None:
    """Player 0: hand 10 and 4 against a king on the pile. The 10 burns and gives another turn, then
    the 4 goes on the empty pile and player 0 is out while player 1 still holds A and 5: a win."""
    p = Position.from_json({"to_move": 0, "hands": [["TC", "4D"], ["AS", "5H"]], "pile": ["KH"]})
    result = solve(GAME, p, WinLoss(0))
    values = {str(m.move): m.value for m in result.moves}
    assert result.value == 1 and values["T"] == 1
    assert [str(m) for m in result.line[:2]] == ["T", "4"]


def test_cyclic_draw_is_found_and_matches_path_brute_force() -> None:
    """Player 0: king in hand, face-down Q and 9; player 1: a queen; a 6 on the pile. Picking up lets
    player 1 go out with the queen (a loss). Playing the king makes player 1 pick up, and from there
    both sides can keep the game going for ever without the other winning: a draw (endless play)."""
    p = Position.from_json({"to_move": 0, "hands": [["KC"], ["QD"]], "face_down": [["QS", "9C"], []],
                            "pile": ["6H"]})
    result = solve(GAME, p, WinLoss(0))
    assert result.value == 0 == brute_force(GAME, p, WinLoss(0))
    assert {str(m.move): m.value for m in result.moves} == {"K": 0, "pickup": -1}
    assert result.line_end == "repetition"
    assert len(result.line) >= 2 and replay_line(GAME, p, result.line) is not None


def test_face_down_choices_are_reported_one_by_one() -> None:
    p = Position.from_json({"to_move": 0, "hands": [[], ["9D", "4C"]], "face_down": [["5S", "KS"], ["2C"]],
                            "pile": ["JH"]})
    report = answer(get_adapter("shithead"), p, Limits(nodes=100_000))
    q = report["questions"][0]
    notes = {m["move"]: m["note"] for m in q["moves"]}
    assert "5S" in notes["down:1"] and "picked up" in notes["down:1"]
    assert "KS" in notes["down:2"] and "picked up" not in notes["down:2"]
    assert any("Double dummy" in n for n in report["notes"])


def test_answer_report_for_three_players() -> None:
    p = Position.from_json({"to_move": 0, "hands": [["9H"], ["KC", "4C"], ["QD"]], "pile": ["5C"]})
    report = answer(get_adapter("shithead"), p)
    assert [q["id"] for q in report["questions"]] == ["player-0-shithead", "player-1-shithead", "player-2-shithead"]
    by_seat = {q["seat"]: q for q in report["questions"]}
    # player 0 goes out at once with the 9 on the 5: cannot be forced to be last
    assert by_seat[0]["word"] == "no, can avoid it"
    for q in report["questions"]:
        assert q["status"] == "solved" and q["line_outcome"] is not None


def test_partial_graphs_give_exact_values_or_unknown_with_bounds() -> None:
    """With a position limit the explored part still settles what does not depend on the frontier:
    every value it reports must equal the full solve's, and every bound must hold."""
    exact = bounded = 0
    for seed in range(60):
        p = _random_table(5000 + seed, size=(6, 8))
        if max(len(x) for x in p.face_up + p.face_down) > 3:
            continue
        if exact + bounded >= 12:
            break
        full = solve(GAME, p, WinLoss(0), Limits(nodes=30_000), method="retrograde")
        if full.status != SOLVED or full.positions < 400:
            continue
        part = solve(GAME, p, WinLoss(0), Limits(nodes=full.positions // 4), method="retrograde")
        assert not part.extra["complete"]
        if part.status == SOLVED:
            exact += 1
            assert part.value == full.value
            end = replay_line(GAME, p, part.line)
            if part.line_end == "terminal":
                assert WinLoss(0).value(GAME.terminal(end)) == part.value
        else:
            bounded += 1
            b = part.extra["bounds"]
            assert b["at_least"] is None or b["at_least"] <= full.value
            assert b["at_most"] is None or full.value <= b["at_most"]
        for a, f in zip(part.moves, full.moves):
            assert a.value is None or a.value == f.value
    assert exact >= 1 and exact + bounded >= 10


def test_limit_gives_unknown_for_a_full_deal() -> None:
    p = Position.from_deal_code("SH1-2-AAAAAAB")
    result = solve(GAME, p, WinLoss(p.to_move), Limits(nodes=2_000))
    assert result.status == "unknown" and result.value is None and "position limit" in result.reason
    assert result.positions >= 2_000
    assert all(m.value is None for m in result.moves)
