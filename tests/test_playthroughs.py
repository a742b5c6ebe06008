"""Golden playthroughs (tests/data/playthroughs/*.txt): each game's seeded line plays exactly as written.

A difference means the rules, the move order or notation, the dealing or the drawing changed.
If the change is meant: `python -m tests.support.playthroughs --write`, and review the diff.
"""

from __future__ import annotations

import pytest
from support.playthroughs import CASES, FOLDER, difference


def test_every_game_has_one_playthrough():
    assert sorted(path.name for path in FOLDER.glob("*.txt")) == sorted(case.file.name for case in CASES)
    assert all(case.file.stat().st_size < 8000 for case in CASES)  # small files


@pytest.mark.parametrize("case", CASES, ids=[case.file.stem for case in CASES])
def test_the_playthrough_plays_as_written(case):
    assert case.file.read_text(encoding="utf-8").count("\n") > 10
    diff = difference(case)
    assert not diff, f"{case.file.name} no longer plays as written:\n{diff}"
