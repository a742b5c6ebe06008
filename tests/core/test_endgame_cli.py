"""`halfmoon endgame GAME`: the generic command, on Shithead."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

import halfmoon
from halfmoon.cli.main import main

SMALL = {"to_move": 0, "hands": [["5C"], ["9D"]], "face_up": [["KS"], ["4H"]], "face_down": [["7H"], ["QD"]],
         "pile": ["6S"]}


def run(*args: str, input: str | None = None):
    return CliRunner().invoke(main, list(args), input=input)


def test_position_file_text_and_json(tmp_path) -> None:
    path = tmp_path / "p.json"
    path.write_text(json.dumps(SMALL))
    text = run("endgame", "shithead", "--position", str(path))
    assert text.exit_code == 0, text.output
    assert "LOSS" in text.output and "pickup" in text.output and "principal line" in text.output
    data = json.loads(run("endgame", "shithead", "--position", str(path), "--json").output)
    q = data["questions"][0]
    assert data["to_move"] == 0 and q["value"] == -1 and q["word"] == "loss"
    assert [m["move"] for m in q["moves"]] == ["pickup"]
    assert q["line"][0] == {"seat": 0, "move": "pickup", "note": ""}
    assert q["line_outcome"]["places"] == [1, 0]


def test_stdin_position() -> None:
    result = run("endgame", "shithead", "--position", "-", "--json", input=json.dumps(SMALL))
    assert result.exit_code == 0 and json.loads(result.output)["questions"][0]["status"] == "solved"


def test_code_moves_until_and_show_only() -> None:
    shown = run("endgame", "shithead", "--code", "SH1-2-AAAAAAB", "--until", "endgame", "--show-only", "--json")
    assert shown.exit_code == 0, shown.output
    data = json.loads(shown.output)
    assert data["position"]["stock"] == [] and data["played"]
    again = run("endgame", "shithead", "--code", "SH1-2-AAAAAAB", "--moves", " ".join(data["played"]), "--show-only",
                "--json")
    assert json.loads(again.output)["position"] == data["position"]


def test_limit_gives_unknown_not_a_hang() -> None:
    result = run("endgame", "shithead", "--code", "SH1-3-AAAAAAB", "--max-positions", "500", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert len(data["questions"]) == 3
    assert all(q["status"] == "unknown" and q["word"] == "unknown" for q in data["questions"])


def test_errors_are_one_line_exit_3(tmp_path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(SMALL | {"pile": ["5C"]}))
    result = run("endgame", "shithead", "--position", str(bad))
    assert result.exit_code == 3 and "one deck" in result.output
    assert run("endgame", "chess", "--code", "SH1-2-AAAAAAA").exit_code == 3
    assert run("endgame", "shithead", "--code", "SH1-2-AAAAAAB", "--moves", "Z").exit_code == 3
    assert run("endgame", "shithead", "--code", "HM1-N-AAAAAAA").exit_code == 3
    assert run("endgame", "shithead").exit_code == 2  # neither --position nor --code


def test_value_seconds_says_when_the_value_was_known() -> None:
    """df-pn searches the position's value first: `value_seconds` is set, within the solve's time;
    alpha-beta has no such moment (null)."""
    q = json.loads(run("endgame", "eight-and-a-half", "--code", "EH1-2-AAAAAAC", "--until", "endgame",
                       "--json").output)["questions"][0]
    assert q["method"] == "proof" and q["status"] == "solved"
    assert q["value_seconds"] is not None and 0 <= q["value_seconds"] <= q["seconds"]
    golf = json.loads(run("endgame", "golf", "--code", "GF1-2-AAAAAAB", "--until", "endgame", "--json").output)
    assert all(g["method"] == "alphabeta" and g["value_seconds"] is None for g in golf["questions"])


def test_an_unknown_endgame_game_names_the_games_that_are() -> None:
    for game in ("chess", "halfmoon"):  # not a game, and a solitaire
        result = run("endgame", game, "--code", "SH1-2-AAAAAAA")
        assert result.exit_code == 3
        assert result.output == (f"error: unknown endgame game {game!r}: expected one of shithead, eight-and-a-half, "
                                 f"golf, spit\n")
    assert run("endgame", "SH", "--code", "SH1-2-AAAAAAB", "--show-only").exit_code == 0  # a tag, any case


def test_until_is_checked_whether_or_not_the_position_is_solved() -> None:
    for ask in (halfmoon.endgame, halfmoon.endgame_position):
        with pytest.raises(halfmoon.InputError, match=r"^until 'the end': expected 'endgame'$"):
            ask("SH1-2-AAAAAAB", until="the end")
