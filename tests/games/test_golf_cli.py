"""`halfmoon endgame golf`: positions from a file, a code plus moves, --until endgame; errors."""

from __future__ import annotations

import json

from click.testing import CliRunner

from halfmoon.cli.main import main

LAST_TURN = {
    "hands": [{"cards": "AC 8D KS 6S 9S QH".split(), "up": [1, 2, 3, 4, 5, 6]},
              {"cards": "2C 8S 4H 2S 3S 7S".split(), "up": [2, 3]}],
    "stock": ["AS", "8C", "5D"], "discard": ["6H"], "to_move": 1, "last_turn_from": 0,
}


def run(*args: str, input: str | None = None):
    return CliRunner().invoke(main, list(args), input=input)


def test_position_file_two_players(tmp_path) -> None:
    path = tmp_path / "golf.json"
    path.write_text(json.dumps(LAST_TURN))
    data = json.loads(run("endgame", "golf", "--position", str(path), "--json").output)
    q = data["questions"][0]
    assert data["game"] == "golf" and data["to_move"] == 1 and q["id"] == "score-difference"
    # player 0 scores 7+17+10 = 34; player 1's one last turn: S2 puts AS over 3S (1+3), so
    # 0 + 4 + 11 = 15, the best of the 13 moves: 34 - 15 = 19
    assert q["status"] == "solved" and q["value"] == 19 == max(m["value"] for m in q["moves"])
    assert [m["move"] for m in q["moves"] if m["value"] == 19] == ["S2"]
    assert len(q["moves"]) == 13 and q["line_outcome"]["note"] == "last turns played"
    assert data["position"]["last_turn_from"] == 0 and data["notes"]
    text = run("endgame", "golf", "--position", str(path))
    assert text.exit_code == 0 and "principal line" in text.output and "player 1 to move" in text.output


def test_code_moves_until_endgame_three_players() -> None:
    shown = run("endgame", "golf", "--code", "GF1-3-AAAAAAC", "--until", "endgame", "--show-only", "--json")
    assert shown.exit_code == 0, shown.output
    data = json.loads(shown.output)
    assert len(data["position"]["stock"]) == 1 and data["played"][:3] and data["played"][0].startswith("F")
    full = json.loads(run("endgame", "golf", "--code", "GF1-3-AAAAAAC", "--until", "endgame", "--json").output)
    assert [q["id"] for q in full["questions"]] == [f"player-{s}-guaranteed-score" for s in range(3)]
    assert full["extra_answers"][0]["id"] == "maxn-line"
    moved = run("endgame", "golf", "--code", "GF1-2-AAAAAAB", "--moves", "F1+5 F2+6 D3 SX", "--show-only")
    assert moved.exit_code == 0 and "→ player 0" in moved.output


def test_errors_are_one_line_with_exit_code_3(tmp_path) -> None:
    bad_move = run("endgame", "golf", "--code", "GF1-2-AAAAAAB", "--moves", "F1+5 D3")
    assert bad_move.exit_code == 3 and "move 2 ('D3')" in bad_move.output
    bad_code = run("endgame", "golf", "--code", "GF1-9-AAAAAAB")
    assert bad_code.exit_code == 3 and "player count 2-6" in bad_code.output
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(dict(LAST_TURN, to_move=7)))
    bad_file = run("endgame", "golf", "--position", str(path))
    assert bad_file.exit_code == 3 and "'to_move' must be a seat" in bad_file.output
