"""Golden playthroughs: one seeded line per game, written down move by move (OpenSpiel's playthroughs).

Each file of tests/data/playthroughs/ holds a deal code, the policy (uniform choice among the
legal moves, drawn from SplitMix64 with a fixed seed, at most `CAP` moves), then for every step
the number of legal moves and the move played, and at the end the status, the number of legal
moves left and the final position's text. tests/test_playthroughs.py plays each file again and
fails on any difference: a change of the rules, of the move order or notation, of the dealing or
of the drawing shows up as a diff here before it reaches anyone's saved games.

When a change is meant, regenerate and review the diff::

    python -m tests.support.playthroughs --write     # from the repository root
    python -m tests.support.playthroughs --check     # what the test does
"""

from __future__ import annotations

import argparse
import difflib
import sys
from pathlib import Path
from typing import Any, NamedTuple

import halfmoon
from halfmoon.dealcodes import SplitMix64
from halfmoon.solver import catalogue

FOLDER = Path(__file__).resolve().parents[1] / "data" / "playthroughs"
CAP = 200  # moves at most, so a long game (Shithead's pick-ups) keeps its file small
SEED = 2024
NUMBER = 1


class Case(NamedTuple):
    tag: str
    variant: str | None

    @property
    def file(self) -> Path:
        return FOLDER / f"{self.tag}{'-' + self.variant if self.variant else ''}.txt"


CASES = (Case("HM", None), Case("EL", None), Case("SE", None), Case("TN", None),
         Case("SH", "2"), Case("EH", "2"), Case("GF", "2"), Case("SP", None))


def play(case: Case) -> str:
    """The playthrough of `case` as the file holds it."""
    info = catalogue.info(case.tag)
    code = halfmoon.code(NUMBER, case.tag, case.variant)
    start = halfmoon.deal(code).position
    rng = SplitMix64(SEED)
    legal_moves: Any
    if info.kind == catalogue.SOLITAIRE:
        solitaire = catalogue.solitaire(case.tag)
        legal_moves, apply, text_of = solitaire.legal_moves, solitaire.apply, lambda _p, m: str(m)
    else:
        adapter = catalogue.endgame_adapter(case.tag)
        legal_moves, apply, text_of = adapter.game.legal_moves, adapter.game.apply, adapter.format_move
    lines = [
        f"# {info.title} playthrough; regenerate with: python -m tests.support.playthroughs --write",
        f"game {info.name}",
        f"code {code}",
        f"policy uniform among the legal moves, SplitMix64({SEED}), at most {CAP} moves",
        "# step legal-moves move",
    ]
    position, played = start, []
    for step in range(1, CAP + 1):
        moves = list(legal_moves(position))
        if not moves:
            break
        move = moves[rng.below(len(moves))]
        text = text_of(position, move)
        lines.append(f"{step} {len(moves)} {text}")
        played.append(text)
        position = apply(position, move)
    replayed = halfmoon.replay(code, " ".join(played))  # the facade's replay must reach the same place
    if replayed.position != position:
        raise AssertionError(f"{code}: halfmoon.replay of the line does not reach the position played")
    lines += [f"status {replayed.status}", f"legal-moves {len(list(legal_moves(position)))}", "position"]
    lines += [line.rstrip() for line in replayed.describe(full=True).splitlines()]  # every card
    return "\n".join(lines) + "\n"


def difference(case: Case) -> str:
    """'' when the file matches the play, else a unified diff (file → now)."""
    expected = case.file.read_text(encoding="utf-8") if case.file.exists() else ""
    actual = play(case)
    if actual == expected:
        return ""
    return "".join(difflib.unified_diff(expected.splitlines(True), actual.splitlines(True),
                                        f"{case.file.name} (golden)", f"{case.file.name} (now)", n=2))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--write", action="store_true", help="rewrite the files from the current rules")
    parser.add_argument("--check", action="store_true", help="compare the files with the current rules (default)")
    args = parser.parse_args(argv)
    failed = 0
    for case in CASES:
        if args.write:
            FOLDER.mkdir(parents=True, exist_ok=True)
            case.file.write_text(play(case), encoding="utf-8")
            print(f"wrote {case.file} ({case.file.stat().st_size} bytes)")
        else:
            diff = difference(case)
            if diff:
                failed += 1
                print(diff)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
