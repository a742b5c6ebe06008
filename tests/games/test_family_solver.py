"""The family solver: Half Moon preset = dedicated solver, limits give unknown, the CLI paths."""

import json

import pytest
from click.testing import CliRunner

from halfmoon.cli.main import main
from halfmoon.dealcodes import deal_halfmoon
from halfmoon.solver.core.verdicts import Verdict
from halfmoon.solver.errors import UnsupportedError
from halfmoon.solver.games.family.presets import load_preset
from halfmoon.solver.games.family.rules import Game, Position
from halfmoon.solver.core.verdicts import Limits
from halfmoon.solver.games.family.search import solve_deal, solve_position
from halfmoon.solver.games.halfmoon import rules as hm
from halfmoon.solver.catalogue import solitaire as get_game

HALFMOON = Game(load_preset("halfmoon"))


def small_halfmoon(seed: int) -> Position:
    """A Half Moon position of 8-30 cards made of removable groups (as every reachable one is)."""
    from test_family_conformance import endgame

    return endgame(HALFMOON, seed, groups=4 + seed % 9, extra=False)


def test_half_moon_preset_agrees_with_the_dedicated_solver_on_small_layouts():
    from halfmoon.solver.games.halfmoon.portfolio import solve as dedicated

    verdicts = set()
    for seed in range(40):
        position = small_halfmoon(seed)
        ours = solve_position(load_preset("halfmoon"), position, limits=Limits(seconds=20))
        theirs = dedicated(hm.Position(position.piles, position.reserve), "search", Limits(seconds=20))
        assert ours.verdict == theirs.verdict != Verdict.UNKNOWN, seed
        verdicts.add(ours.verdict)
    assert verdicts == {Verdict.WINNABLE, Verdict.UNWINNABLE}


@pytest.mark.parametrize("number", [1, 3, 5])
def test_half_moon_preset_agrees_with_the_dedicated_solver_on_full_deals(number):
    from halfmoon.solver.games.halfmoon.portfolio import solve as dedicated

    ours = solve_deal(load_preset("halfmoon"), number, limits=Limits(seconds=30))
    theirs = dedicated(hm.Position.from_deal(deal_halfmoon(number)), "search", Limits(seconds=30))
    assert ours.verdict == theirs.verdict != Verdict.UNKNOWN
    assert len(ours.line) == 48  # 40 pairs and 8 triples, replayed inside solve_position
    assert hm.replay(hm.Position.from_deal(deal_halfmoon(number)), list(map(str, ours.line))).position.is_won


def test_a_node_limit_gives_unknown_never_a_guess():
    result = solve_deal(load_preset("halfmoon"), 0, limits=Limits(nodes=50), restarts=False)
    assert result.verdict == Verdict.UNKNOWN and result.stopped == "nodes" and result.line is None


def test_cpsat_is_not_offered_for_stock_games():
    with pytest.raises(UnsupportedError, match="method 'cpsat' does not apply to Elevens"):
        solve_deal(load_preset("elevens"), 0, method="cpsat")


def test_registry_entries_for_the_family():
    for tag in ("EL", "SE", "TN"):
        entry = get_game(tag)
        won = next(n for n in range(100) if entry.solve(entry.deal(n), "auto", Limits(), 0).verdict == Verdict.WINNABLE)
        result = entry.solve(entry.deal(won), "auto", Limits(), 0)
        line = entry.format_line(result.line)
        assert entry.wins(entry.deal(won), entry.parse_line(line))
        assert not entry.wins(entry.deal(won), entry.parse_line(line)[:-1])
        assert entry.code(won).startswith(f"{tag}1-N-")
        position = entry.deal(won)
        assert entry.key(position) == entry.key(Position(tuple(reversed(position.piles)), position.reserve, position.stock))


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, list(args))
    return result.exit_code, result.stdout, result.stderr


def test_cli_rules_list_show_and_check(tmp_path):
    code, out, _ = run("rules", "list", "--json")
    rows = [json.loads(line) for line in out.splitlines()]
    assert code == 0 and {r["tag"] for r in rows} == {"HM", "EL", "SE", "TN"}
    code, out, _ = run("rules", "show", "EL")
    assert code == 0 and json.loads(out)["name"] == "Elevens"
    path = tmp_path / "mine.json"
    path.write_text(out)
    assert run("rules", "check", str(path))[0] == 0
    path.write_text(out.replace('"target": 11', '"target": 40'))
    code, _, err = run("rules", "check", str(path))
    assert code == 3 and "removals[0].target: 40 cannot be reached" in err and len(err.strip().splitlines()) == 1
    code, _, err = run("rules", "show", "klondike")
    assert code == 3 and "unknown preset 'klondike'" in err


def test_cli_solves_family_codes_and_custom_layouts(tmp_path):
    entry = get_game("EL")
    number = next(n for n in range(60) if entry.solve(entry.deal(n), "auto", Limits(), 0).verdict == Verdict.WINNABLE)
    code = entry.code(number)
    status, out, _ = run("solve", code, "--json")
    data = json.loads(out)
    assert status == 0 and data["code"] == code and data["verdict"] == "winnable" and data["game"] == "elevens"
    assert len(data["moves"]) == len(data["cards"])
    status, out, _ = run("deal", code, "--json")
    layout = tmp_path / "deal.json"
    layout.write_text(out)
    status, out, _ = run("solve", "--rules", "elevens", "--layout", str(layout), "--json")
    assert status == 0 and json.loads(out)["moves"] == data["moves"]
    status, out, _ = run("solve", "--rules", "elevens", "--layout", str(layout))
    assert status == 0 and "winnable" in out and "winning line" in out
    status, _, err = run("solve", "--rules", "tens", "--layout", str(layout))
    assert status == 3 and "9 piles, but Tens has 13" in err
    status, _, err = run("solve", "--rules", str(tmp_path / "none.json"), "--layout", str(layout))
    assert status == 3 and "cannot read" in err


def test_cli_replay_plays_a_reported_line(tmp_path):
    status, out, _ = run("solve", "EL1-N-AAAAAAD", "--json")
    moves = json.loads(out)["moves"]
    status, out, _ = run("replay", "EL1-N-AAAAAAD", "--moves", " ".join(moves), "--json")
    data = json.loads(out)
    assert status == 0 and data["status"] == "won" and data["moves"] == moves and data["played"] == len(moves) and data["stock"] == []
    status, out, _ = run("replay", "EL1-N-AAAAAAD", "--moves", " ".join(moves[:2]))
    assert status == 0 and "after 2 moves: open" in out
    status, _, err = run("replay", "EL1-N-AAAAAAD", "--moves", "1+2")
    assert status == 3 and "move 1 ('1+2')" in err and "fit no removal rule" in err
    layout = tmp_path / "deal.json"
    layout.write_text(run("deal", "TN1-N-AAAAAAB", "--json")[1])
    status, out, _ = run("replay", "--rules", "TN", "--layout", str(layout), "--json")
    assert status == 0 and json.loads(out)["status"] in ("open", "dead") and len(json.loads(out)["piles"]) == 13
