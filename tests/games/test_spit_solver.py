"""Spit on the exact core: values against brute force, replayed lines, the solitaire count,
the endgame adapter and `halfmoon endgame spit`."""

import json

import pytest
from click.testing import CliRunner
from support.spit import brute_value, pos, random_small_position

from halfmoon.cli.main import main
from halfmoon.solver.catalogue import endgame_adapter as get_adapter
from halfmoon.solver.core.report import answer
from halfmoon.solver.core.exact import SOLVED, Limits, replay_line, solve, solve_all
from halfmoon.solver.core.game import WinLoss
from halfmoon.solver.games.spit.kernel import GAME
from halfmoon.solver.games.spit.policy import ENDGAME_STOCK, play_until_endgame
from halfmoon.solver.games.spit.rules import (
    apply,
    legal_moves,
    parse_move,
    position_from_code,
    terminal,
)
from halfmoon.solver.games.spit.search import (
    SolitaireLimitError,
    solitaire_count,
    solitaire_moves,
    solitaire_step,
)

SMALL = [random_small_position(seed) for seed in range(60)] + [random_small_position(1000 + seed, 7, 3) for seed in range(20)]
LIMITS = Limits(nodes=200_000, seconds=60)


@pytest.mark.parametrize("method", ["negamax", "retrograde"])
def test_core_values_agree_with_brute_force(method):
    outcomes = set()
    for position in SMALL:
        seat = position.to_move
        expected = brute_value(position, seat)
        outcomes.add(expected)
        solution = solve(GAME, position, WinLoss(seat), LIMITS, method)
        assert solution.status == SOLVED and solution.value == expected, str(position)
        for mv in solution.moves:
            assert mv.value == brute_value(apply(position, mv.move), seat), (str(position), str(mv.move))
        final = replay_line(GAME, position, solution.line)
        result = terminal(final)
        assert result is not None
        assert WinLoss(seat).value(result) == expected
    assert outcomes == {-1, 0, 1}  # the sample exercises wins, losses and rounds with no winner


def test_both_seats_questions_are_consistent():
    for position in SMALL[:30]:
        mine, theirs = solve_all(GAME, position, [WinLoss(0), WinLoss(1)], LIMITS, "retrograde")
        assert mine.value == -theirs.value


def test_game_is_declared_acyclic_and_negamax_matches_retrograde_on_dealt_endgames():
    assert GAME.acyclic
    for seed in range(4):
        position, _ = play_until_endgame(position_from_code("SP1-N-AAAAAAC"), seed, 12)
        a = solve(GAME, position, WinLoss(position.to_move), LIMITS, "negamax")
        b = solve(GAME, position, WinLoss(position.to_move), LIMITS, "retrograde")
        assert a.status == b.status == SOLVED and a.value == b.value
        assert [m.value for m in a.moves] == [m.value for m in b.moves]


# -- the solitaire count --------------------------------------------------------------------------


def brute_solitaire(position, seat, limit=40):
    """Iterative deepening over the solitaire moves: the fewest actions, or None within `limit`."""

    def reachable(here, depth):
        if not any(here.stock[seat]):
            return True
        if depth == 0:
            return False
        return any(reachable(solitaire_step(here, seat, m), depth - 1) for m in solitaire_moves(here, seat))

    for depth in range(limit + 1):
        if reachable(position._replace(to_move=seat, passed=False), depth):
            return depth
    return None


def test_solitaire_count_agrees_with_brute_force():
    found = 0
    for seed in range(40):
        position = random_small_position(seed, max_stock=4, max_spit=5)
        for seat in (0, 1):
            count = solitaire_count(position, seat)
            expected = brute_solitaire(position, seat, 20)
            if count is None:
                assert expected is None
            else:
                found += 1
                assert count.actions == expected
                assert count.plays == sum(map(len, position.stock[seat]))
                assert count.plays + count.fills + count.spits == count.actions == len(count.line)
    assert found >= 30


def test_solitaire_counts_spits_and_fills():
    # 5C on 4D turns up 2C, which fits nothing until the spit turns 3H onto pile A.
    position = pos("2C5C.-.-.-.-:3H | 9S.-.-.-.-:- | 4D - | 0")
    count = solitaire_count(position, 0)
    assert (count.actions, count.plays, count.fills, count.spits) == (3, 2, 0, 1)
    assert [str(m) for m in count.line] == ["1>A", "pass", "1>A"]
    # 7C fits nowhere: move it into place 2 to turn up 5C, then 5C, 6C, 7C go on pile A.
    position = pos("5C7C.-.6C.-.-:- | 9S.-.-.-.-:- | 4D 2H | 0")
    count = solitaire_count(position, 0)
    assert (count.actions, count.plays, count.fills, count.spits) == (4, 3, 1, 0)
    assert str(count.line[0]) in ("1>2", "1>4", "1>5")
    stuck = pos("2C5C.-.-.-.-:- | 9S.-.-.-.-:- | 8D - | 0")
    assert solitaire_count(stuck, 0) is None


def test_solitaire_limit_is_reported_not_guessed():
    position = position_from_code("SP1-N-AAAAAAA")
    with pytest.raises(SolitaireLimitError, match="position limit"):
        solitaire_count(position, 0, max_positions=10)


# -- the endgame adapter and the command ----------------------------------------------------------


def test_adapter_is_registered_and_answers():
    adapter = get_adapter("spit")
    position, moves = adapter.until_endgame(adapter.position_from_code("SP1-N-AAAAAAB"), 0)
    assert position.stock_left(0) + position.stock_left(1) <= ENDGAME_STOCK
    assert replay_line(GAME, adapter.position_from_code("SP1-N-AAAAAAB"), moves) == position
    report = answer(adapter, position, LIMITS)
    (question,) = report["questions"]
    assert question["status"] == "solved" and question["word"] in ("win", "loss", "draw")
    assert {m["move"] for m in question["moves"]} == {str(m) for m in legal_moves(position)}
    assert adapter.position_from_json(report["position"]) == position
    alone = report["extra_answers"]
    assert [e["seat"] for e in alone] == [0, 1] and all(e["status"] == "solved" for e in alone)
    for entry in alone:
        if entry["clears_alone"]:
            count = solitaire_count(position, entry["seat"])
            assert entry["actions"] == count.actions == len(entry["line"])


def test_adapter_code_and_moves():
    adapter = get_adapter("spit")
    start = adapter.position_from_code("SP1-N-AAAAAAA")
    after = adapter.position_from_code("sp1-n-aaaaaaa", "1>A, 3>B")
    assert after == apply(apply(start, parse_move("1>A")), parse_move("3>B"))
    assert adapter.move_note(start, legal_moves(start)[0]) == "KC on QS"


def test_sample_positions_are_small_and_valid():
    adapter = get_adapter("spit")
    for position in adapter.sample_positions(7, 6):
        assert position.stock_left(0) + position.stock_left(1) <= 10 or terminal(position) is not None


def run(*args):
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


def test_cli_json_shape():
    result = run("endgame", "spit", "--code", "SP1-N-AAAAAAB", "--until", "endgame", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["game"] == "spit" and data["players"] == 2 and data["played"]
    (question,) = data["questions"]
    assert question["id"] == "win-loss" and question["status"] == "solved"
    assert question["line"] and question["line_outcome"]["places"] in ([0, 1], [1, 0], [0, 0])
    assert [e["id"] for e in data["extra_answers"]] == ["player-0-alone", "player-1-alone"]


def test_cli_text_and_position_file(tmp_path):
    position = pos("2C5C.-.-.-.-:3H | 9S.-.-.-.-:- | 4D - | 0")
    path = tmp_path / "spit.json"
    path.write_text(json.dumps(position.to_json()))
    result = run("endgame", "spit", "--position", str(path))
    assert result.exit_code == 0, result.output
    assert "WIN" in result.output and "1>A" in result.output


@pytest.mark.parametrize(
    "args, words",
    [
        (["--code", "SP1-N-AAAAAA"], "payload"),
        (["--code", "HM1-N-AAAAAAB"], "Spit code"),
        (["--code", "SP1-N-AAAAAAA", "--moves", "1>A, 5>A"], "move 2"),
    ],
)
def test_cli_bad_input_exit_3(args, words):
    result = CliRunner().invoke(main, ["endgame", "spit", *args])
    assert result.exit_code == 3 and words in result.output


def test_cli_limit_gives_unknown():
    result = run("endgame", "spit", "--code", "SP1-N-AAAAAAG", "--max-positions", "50", "--json")
    assert result.exit_code == 0, result.output
    (question,) = json.loads(result.output)["questions"]
    assert question["status"] == "unknown" and question["word"] == "unknown" and question["line"] == []
