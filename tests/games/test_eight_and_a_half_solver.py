"""Exact solving of Eight-and-a-half endgames: the core's values against brute force, the
endgame adapter, and the `halfmoon endgame eight-and-a-half` command.

The brute force never touches the packed engine or the core: it builds the reachable graph with
the reference rules of test_eight_and_a_half_engine.py (readable positions) and computes the
values by naive attractor iteration (repeat until nothing changes).
"""

import json

import pytest
from click.testing import CliRunner

from halfmoon.cli.main import main
from halfmoon.dealcodes import SplitMix64
from halfmoon.solver.catalogue import endgame_adapter as get_adapter
from halfmoon.solver.catalogue import endgame_adapters as adapters
from halfmoon.solver.core.report import answer
from halfmoon.solver.core.exact import Limits, solve, solve_all
from halfmoon.solver.core.game import Coalition, WinLoss, wins_outright
from halfmoon.solver.games.eight_and_a_half.adapter import not_big_loser
from halfmoon.solver.games.eight_and_a_half.kernel import EightAndAHalf
from halfmoon.solver.games.eight_and_a_half.position import Position

try:  # the reference rules live with the engine tests (package or rootdir-style test imports)
    from .test_eight_and_a_half_engine import random_position, ref_apply, ref_legal
except ImportError:
    from test_eight_and_a_half_engine import random_position, ref_apply, ref_legal

G = EightAndAHalf()


def brute_graph(start: Position, cap: int = 1200):
    """Every position reachable under the reference rules, with its children (None if too big)."""
    children, frontier = {}, [start]
    while frontier:
        pos = frontier.pop()
        if pos in children:
            continue
        if pos.winner is not None:
            children[pos] = []
            continue
        children[pos] = [ref_apply(pos, m) for m in ref_legal(pos)]
        frontier.extend(children[pos])
        if len(children) > cap:
            return None
    return children


def attractor(children, side_of, goal) -> set:
    """Positions from which the side with side_of(pos) True can force reaching `goal`."""
    inside = set(goal)
    changed = True
    while changed:
        changed = False
        for pos, kids in children.items():
            if pos in inside or not kids:
                continue
            if (any if side_of(pos) else all)(k in inside for k in kids):
                inside.add(pos)
                changed = True
    return inside


def cards_left(pos: Position) -> list[int]:
    return [seat.cards_left + seat.eaten for seat in pos.seats]


def brute_values(children, seat: int, kind: str) -> dict:
    """Values for one question: 'winloss' (+1/0/-1), 'first' (1/0, endless 0), 'loser' (1/0, endless 1)."""
    ends = [p for p, kids in children.items() if not kids]
    mine = lambda pos: pos.to_move == seat  # noqa: E731
    theirs = lambda pos: pos.to_move != seat  # noqa: E731
    if kind == "winloss":
        win = attractor(children, mine, [p for p in ends if p.winner == seat])
        loss = attractor(children, theirs, [p for p in ends if p.winner != seat])
        return {p: 1 if p in win else -1 if p in loss else 0 for p in children}
    if kind == "first":
        yes = attractor(children, mine, [p for p in ends if p.winner == seat])
        return {p: int(p in yes) for p in children}
    def is_loser(p):
        counts = cards_left(p)
        most = max(c for s, c in enumerate(counts) if s != p.winner)
        return seat != p.winner and counts[seat] == most
    forced = attractor(children, theirs, [p for p in ends if is_loser(p)])
    return {p: int(p not in forced) for p in children}


def small_positions(count: int, players: int, seed: int, cap: int = 1200):
    rng = SplitMix64(seed)
    found = 0
    while found < count:
        pos = random_position(rng, players)
        if pos.winner is not None or any(s.bank for s in pos.seats):
            continue
        children = brute_graph(pos, cap)
        if children is None or len(children) < 3:
            continue
        found += 1
        yield pos, children


def check_two_player(seed: int, count: int, cap: int) -> None:
    for pos, children in small_positions(count, 2, seed, cap):
        me = pos.to_move
        values = brute_values(children, me, "winloss")
        p = G.encode(pos)
        for method in ("retrograde", "proof"):
            solution = solve(G, p, WinLoss(me), method=method)
            assert solution.status == "solved"
            assert solution.value == values[pos], (method, str(pos))
            for mv, kid in zip(solution.moves, [ref_apply(pos, str(m.move)) for m in solution.moves]):
                assert mv.value == values[kid], (method, str(pos), str(mv.move))
            if method == "retrograde":
                assert solution.positions <= len(children)  # keys merge what the readable form keeps apart
            end = G.replay(p, solution.line)
            if solution.line_end == "terminal":
                assert G.terminal(end).winner == (me if solution.value == 1 else 1 - me)
            else:
                assert solution.value == 0


@pytest.mark.parametrize("seed", range(2))
def test_two_player_values_agree_with_brute_force(seed):
    check_two_player(seed, 8, 1200)


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(10, 16))
def test_two_player_values_agree_with_brute_force_larger(seed):
    check_two_player(seed, 20, 5000)


def check_coalitions(seed: int, count: int, cap: int) -> None:
    checked = 0
    for pos, children in small_positions(count, 3, seed, cap):
        p = G.encode(pos)
        questions, expected = [], []
        for seat in range(3):
            questions.append(Coalition(seat, wins_outright, "first", draw_value=0))
            expected.append(brute_values(children, seat, "first")[pos])
            questions.append(Coalition(seat, not_big_loser, "avoid big loser", draw_value=1))
            expected.append(brute_values(children, seat, "loser")[pos])
        for method in ("retrograde", "proof"):
            got = [s.value for s in solve_all(G, p, questions, method=method)]
            assert got == expected, (method, str(pos))
        checked += 1
    assert checked == count


def test_three_player_coalition_answers_agree_with_brute_force():
    check_coalitions(11, 5, 1200)


@pytest.mark.slow
def test_three_player_coalitions_agree_with_brute_force_larger():
    check_coalitions(12, 25, 5000)


def test_draw_by_endless_play_is_found_and_shown_as_a_repetition():
    pos = Position.parse("-/5/- ; 1/7/- | 09 | 0")
    values = brute_values(brute_graph(pos), 0, "winloss")
    solution = solve(G, G.encode(pos), WinLoss(0))
    assert values[pos] == solution.value == 0 and solution.line_end == "repetition"


def test_limits_end_in_unknown():
    adapter = get_adapter("eight-and-a-half")
    p = adapter.position_from_code("EH1-2-AAAAAAB")
    solution = solve(G, p, WinLoss(G.to_move(p)), Limits(nodes=2000))
    assert solution.status == "unknown" and solution.value is None and "position limit" in solution.reason
    assert [str(m.move) for m in solution.moves] == [str(m) for m in G.legal_moves(p)]


# -- the adapter -----------------------------------------------------------------------------------


def test_adapter_is_registered_and_round_trips_json():
    adapter = adapters()["eight-and-a-half"]
    p = adapter.position_from_code("EH1-3-AAAAAAB", "")
    assert adapter.position_from_json(adapter.position_to_json(p)) == p
    assert adapter.game.players(p) == 3
    samples = list(adapter.sample_positions(1, 4))
    assert [adapter.game.players(s) for s in samples] == [2, 3, 4, 5]


def test_adapter_asks_win_loss_for_two_and_coalitions_for_more():
    adapter = get_adapter("eight-and-a-half")
    two = adapter.position_from_json(Position.parse("7/5/5 ; 1/5/5 | - | 1").to_json())
    assert [a.id for a in adapter.asks(two)] == ["win-loss"] and adapter.asks(two)[0].seat == 1
    three = adapter.position_from_json(Position.parse("7/5/5 ; 1/5/5 ; 2/3/3 | - | 1").to_json())
    assert [a.id for a in adapter.asks(three)] == [
        "player-0-first", "player-0-big-loser", "player-1-first", "player-1-big-loser",
        "player-2-first", "player-2-big-loser"]


def test_answer_report_small_two_player_endgame():
    adapter = get_adapter("eight-and-a-half")
    p = adapter.position_from_json(Position.parse("H9/5/- ; 4D/6/- | 3 | 0").to_json())
    report = answer(adapter, p)
    q = report["questions"][0]
    assert q["status"] == "solved" and q["word"] in ("win", "loss", "draw")
    assert {m["move"] for m in q["moves"]} == {str(m) for m in G.legal_moves(p)}
    assert all(isinstance(step["note"], str) for step in q["line"])
    assert report["position"] == Position.parse("H9/5/- ; 4D/6/- | 3 | 0").to_json()


def test_move_notes_name_blind_cards_catches_and_sticking():
    adapter = get_adapter("eight-and-a-half")
    p = G.start("-/-/29 ; 1/5/5 | 46 | 0")
    assert "face-down card that is a 2" in adapter.move_note(p, G.legal_moves(p)[0])
    assert "does not fit" in adapter.move_note(p, G.legal_moves(p)[0])
    q = G.start("1/5/5 ; 48/5/5 | 3H | 1")
    notes = {str(m): adapter.move_note(q, m) for m in G.legal_moves(q)}
    assert "catches player 0" in notes["4"] and "sticks to the ½" in notes["8"]
    r = G.start("H/5/5 ; 1/5/5 | 3 | 0")
    assert "an offence" in adapter.move_note(r, G.legal_moves(r)[0])
    e = G.start("34/5/5 ; 1/5/5 | 9D | 0")
    assert "eats the pile (2 card(s)), set aside" in adapter.move_note(e, G.legal_moves(e)[0])


# -- the command line ------------------------------------------------------------------------------

runner = CliRunner()


def test_cli_position_file_json(tmp_path):
    path = tmp_path / "pos.json"
    path.write_text(json.dumps(Position.parse("-/5/- ; 1/7/- | 09 | 0").to_json()))
    result = runner.invoke(main, ["endgame", "eight-and-a-half", "--position", str(path), "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    q = data["questions"][0]
    assert data["game"] == "eight-and-a-half" and data["players"] == 2 and data["to_move"] == 0
    assert q["id"] == "win-loss" and q["word"] == "draw" and q["line_end"] == "repetition"
    assert [m["move"] for m in q["moves"]] == ["eat"]


def test_cli_code_moves_and_until_endgame_show_only():
    result = runner.invoke(main, ["endgame", "eight-and-a-half", "--code", "EH1-2-AAAAAAB", "--until", "endgame",
                                  "--show-only", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    pos = Position.from_json(data["position"])
    assert pos.banks_empty or pos.winner is not None
    again = runner.invoke(main, ["endgame", "eight-and-a-half", "--code", "EH1-2-AAAAAAB", "--moves",
                                 " ".join(data["played"]), "--show-only", "--json"])
    assert json.loads(again.output)["position"] == data["position"]


def test_cli_text_report_and_unknown_at_a_limit():
    result = runner.invoke(main, ["endgame", "eight-and-a-half", "--code", "EH1-2-AAAAAAB", "--max-positions", "500"])
    assert result.exit_code == 0, result.output
    assert "UNKNOWN" in result.output and "position limit" in result.output


@pytest.mark.parametrize("args, words", [
    (["--code", "EH1-2-AAAAAAB", "--moves", "2 9"], "move 2 ('9')"),
    (["--code", "EH1-7-AAAAAAB"], "player count 2-5"),
    (["--code", "SH1-2-AAAAAAB"], "Eight and a half code"),
])
def test_cli_bad_input_is_one_line_exit_3(args, words):
    result = runner.invoke(main, ["endgame", "eight-and-a-half", *args])
    assert result.exit_code == 3, result.output
    assert words in result.output and result.output.strip().count("\n") == 0


def test_cli_bad_position_file_exit_3(tmp_path):
    path = tmp_path / "bad.json"
    path.write_text(json.dumps({"seats": [{"hand": ["7", "7", "7", "7", "7", "7", "7"]}, {}]}))
    result = runner.invoke(main, ["endgame", "eight-and-a-half", "--position", str(path)])
    assert result.exit_code == 3 and "deck has only 6" in result.output
