"""Every `halfmoon …` example in README.md's ```sh blocks runs and exits 0 (issue 13), and its
```python blocks run (issue 30).

The examples are read from the README itself, so an example that goes wrong (a renamed option, an
illegal line of moves, a game name) fails here. Each runs in a fresh folder with its own results
store (``HALFMOON_DB``), in this process through click's CliRunner (the command line's start-up
is paid once); a line with a pipe runs in a shell and is marked slow. ``--json`` output must parse
(one JSON document per line) and carry the keys the README documents for it (`DOCUMENTED_KEYS`).

Left out: lines ending in ``# not tested``, the install lines (``pip install``), ``serve`` and
anything needing the network (a Dask scheduler's address), and lines that are not `halfmoon`
commands (``curl``). Files an example reads but does not make (a hand-made position, a layout)
are written first (`_files`). Heavy examples run with a smaller budget in the default run
(`BUDGETS`: a textual substitution, the example otherwise as written) and exactly as written
with ``-m slow``.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
import sys
import warnings
from dataclasses import dataclass
from pathlib import Path

import pytest
from click.testing import CliRunner

import halfmoon
from halfmoon.cli.main import main
from halfmoon.dealcodes import SplitMix64
from halfmoon.solver import catalogue

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"

SKIP_MARK = "# not tested"
NETWORK = ("tcp://", "http://", "https://", "--dask")

#: Example text → the same example with a smaller budget, for the default run (``-m slow`` runs it as
#: written). Click keeps an option's last value, so an appended option overrides the example's.
BUDGETS = {
    "--deals 2000": "--deals 200",
}
#: Examples the README has wrong (findings for the README's owner): text in the example → why. They are
#: expected to fail (strict: one that passes again must leave this table).
KNOWN_WRONG: dict[str, str] = {}
#: Every endgame that solves gets this budget in the default run (the README's are the 60 s default).
ENDGAME_BUDGET = "--node-limit 20000"
#: Examples left to ``-m slow`` only (a shell pipeline: a hundred processes).
SLOW_ONLY = ("| xargs",)
#: Examples never run as written: hours of solving (README: 10 000 Half Moon deals take about 3 h here).
HOURS = ("survey --deals 10000", "survey --deals 2000")

#: The keys README.md documents for each `--json` output, by command (and game, where they differ).
DOCUMENTED_KEYS = {
    "solve": {"code", "game", "verdict", "moves", "cards", "method", "nodes", "seconds", "stopped", "cached",
              "solver_version", "source", "engine"},
    "hint": {"code", "game", "played", "verdict", "best", "line", "moves", "seconds", "sees"},
    "deal": {"code", "game", "number"},
    "replay": {"code", "game", "played", "moves", "status", "won", "dead", "score"},
    "rules list": {"preset", "name", "tag", "deck", "piles", "depths", "reserve", "stock", "removals", "win"},
    "endgame": {"game", "players", "to_move", "terminal", "position", "notes", "played", "questions"},
    "endgame question": {"id", "text", "seat", "status", "value", "word", "bounds", "moves", "line", "line_end",
                         "method", "positions", "nodes", "edges", "seconds", "value_seconds", "positions_per_second",
                         "bytes_per_position", "reason"},
    "endgame spit": {"extra_answers"},
    "endgame golf 3+": {"extra_answers"},
    "generate": {"code", "number", "tier", "score", "random", "greedy", "traps", "positions", "first_moves",
                 "first_losing", "unresolved", "nodes", "solve_nodes", "rating_version", "line"},
    "survey": {"game", "solver_version", "deals", "winnable", "unwinnable", "unknown", "errors", "share", "ci95",
               "ci95_unknowns_both_ways", "cached", "solved", "nodes", "solve_seconds", "wall_seconds",
               "time_limit", "node_limit"},
}


@dataclass(frozen=True)
class Example:
    line: int  # in README.md
    command: str  # as written, without its comment

    def __str__(self) -> str:
        return f"README.md:{self.line}: {self.command}"


def _strip_comment(text: str) -> str:
    """The command without a trailing `# comment` (a # inside quotes stays)."""
    quote = None
    for index, char in enumerate(text):
        if quote:
            quote = None if char == quote else quote
        elif char in "'\"":
            quote = char
        elif char == "#" and (index == 0 or text[index - 1].isspace()):
            return text[:index].rstrip()
    return text.rstrip()


def examples() -> list[Example]:
    found, inside = [], False
    for number, raw in enumerate(README.read_text(encoding="utf-8").splitlines(), start=1):
        if raw.startswith("```"):
            inside = raw.strip() == "```sh"
            continue
        if not inside or not raw.strip() or raw.lstrip().startswith("#"):
            continue
        if raw.rstrip().endswith(SKIP_MARK) or "pip install" in raw:
            continue
        command = _strip_comment(raw)
        words = command.split()
        if "halfmoon" not in words:
            continue  # curl and friends
        if any(mark in command for mark in NETWORK) or re.search(r"(^|[|&;]\s*)halfmoon serve\b", command):
            continue
        found.append(Example(number, command))
    return found


EXAMPLES = examples()


def test_the_readme_has_examples_to_run():
    assert len(EXAMPLES) >= 12, [str(e) for e in EXAMPLES]
    assert _strip_comment('halfmoon hint X --moves "4+10, 5+6"  # keep # it') == 'halfmoon hint X --moves "4+10, 5+6"'
    assert _strip_comment("halfmoon solve X") == "halfmoon solve X"


# -- the files examples read -------------------------------------------------------------------------


def _late_position(name: str) -> dict:
    """A small position of a multiplayer game (one move before the end of a seeded random game):
    what a hand-made position file holds, solved at once."""
    adapter = catalogue.endgame_adapter(name)
    info = catalogue.info(name)
    variant = None if info.players[0] == info.players[1] else str(info.players[0])
    position = halfmoon.deal(halfmoon.code(1, info.tag, variant)).position
    game, rng, before = adapter.game, SplitMix64(7), None
    for _ in range(5000):
        if game.terminal(position) is not None:
            break
        moves = list(game.legal_moves(position))
        before, position = position, game.apply(position, moves[rng.below(len(moves))])
    assert before is not None and game.terminal(position) is not None
    return adapter.position_to_json(before)


def _files(command: str, folder: Path) -> None:
    """Write the files `command` reads and no earlier example of its block makes."""
    words = shlex.split(command)
    game = words[2] if len(words) > 2 and words[1] == "endgame" else None
    written = {words[i + 1] for i, word in enumerate(words[:-1]) if word == ">"}  # made by the command itself
    for index, word in enumerate(words[:-1]):
        name = words[index + 1]
        if (folder / name).exists() or name in written:
            continue
        if word in ("--rules", "--layout", "--position") and (ROOT / name).is_file():  # a file the repository ships
            (folder / name).parent.mkdir(parents=True, exist_ok=True)
            (folder / name).write_bytes((ROOT / name).read_bytes())
            continue
        if word == "--position" and game is not None:
            (folder / name).write_text(json.dumps(_late_position(game)))
        elif word == "--layout" and "--rules" not in words:
            (folder / name).write_text(json.dumps(halfmoon.deal("HM1-N-AAAAAAB").to_json()))
        elif word == "--rules" or (word == "check" and words[1] == "rules"):
            (folder / name).write_text(halfmoon.service.rule_preset_text("elevens"))


# -- running them --------------------------------------------------------------------------------------


def _run_in_process(command: str, folder: Path) -> list[tuple[list[str], str]]:
    """Run `command` (halfmoon commands joined by && with an optional final > FILE each) with click's
    CliRunner; the arguments and output of each part."""
    outputs = []
    for part in command.split("&&"):
        words = shlex.split(part)
        target = None
        if ">" in words:
            at = words.index(">")
            words, target = words[:at], words[at + 1]
        assert words[0] == "halfmoon", part
        result = CliRunner().invoke(main, words[1:], catch_exceptions=False)
        assert result.exit_code == 0, f"{part.strip()}: exit {result.exit_code}\n{result.output}"
        if target is not None:
            (folder / target).write_text(result.stdout)
        outputs.append((words, result.stdout))
    return outputs


def _run_in_shell(command: str, folder: Path) -> list[tuple[list[str], str]]:
    env = os.environ | {"PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}"}
    done = subprocess.run(["bash", "-o", "pipefail", "-c", command], cwd=folder, env=env, capture_output=True,
                          text=True, timeout=1800)
    assert done.returncode == 0, f"{command}: exit {done.returncode}\n{done.stderr[-2000:]}"
    last = shlex.split(command.split("|")[-1])
    return [(last, done.stdout)]


def _documented(words: list[str]) -> set[str] | None:
    command = words[1]
    if command == "rules":
        return DOCUMENTED_KEYS.get(f"rules {words[2]}")
    return DOCUMENTED_KEYS.get(command)


def _check_json(words: list[str], output: str) -> None:
    documents = [json.loads(line) for line in output.splitlines() if line.strip()]
    assert documents, "no JSON printed"
    keys = _documented(words)
    if keys is None:
        return
    if words[1] == "survey":
        documents = documents[-1:]  # the summary
    for document in documents:
        missing = keys - set(document)
        assert not missing, f"{' '.join(words)}: the README documents {sorted(missing)}, not printed"
        if words[1] == "endgame":
            _check_endgame_json(words, document)


def _check_endgame_json(words: list[str], document: dict) -> None:
    for question in document["questions"]:
        missing = DOCUMENTED_KEYS["endgame question"] - set(question)
        assert not missing, f"endgame question: the README documents {sorted(missing)}, not printed"
    game = words[2]
    if game == "spit" or (game == "golf" and document["players"] >= 3):
        assert "extra_answers" in document, "the README documents extra_answers"


def _run(example: Example, folder: Path, budget: bool, monkeypatch) -> None:
    command = example.command
    if budget:
        command = _budgeted(command)
    monkeypatch.chdir(folder)
    _files(command, folder)
    shell = "|" in command
    outputs = _run_in_shell(command, folder) if shell else _run_in_process(command, folder)
    for words, output in outputs:
        if "--json" in words:
            _check_json(words, output)
    for part in command.split("&&"):  # a JSON file an example wrote
        words = shlex.split(part)
        if "--json" in words and ">" in words:
            _check_json(words[: words.index(">")], (folder / words[words.index(">") + 1]).read_text())


def _budgeted(command: str) -> str:
    for text, smaller in BUDGETS.items():
        command = command.replace(text, smaller)
    words = command.split()
    if words[:2] == ["halfmoon", "endgame"] and "--show-only" not in words:
        command += " " + ENDGAME_BUDGET
    return command


def _params(slow: bool) -> list:
    params = []
    for example in EXAMPLES:
        budgeted = _budgeted(example.command) != example.command
        slow_only = any(text in example.command for text in SLOW_ONLY)
        if slow and (not (budgeted or slow_only) or any(text in example.command for text in HOURS)):
            continue  # already run as written by the default test, or too long to run as written
        if not slow and slow_only:
            continue
        wrong = [why for text, why in KNOWN_WRONG.items() if text in example.command]
        marks = [pytest.mark.xfail(strict=True, reason=f"README example wrong: {wrong[0]}")] if wrong else []
        params.append(pytest.param(example, id=f"line{example.line}", marks=marks))
    return params


@pytest.mark.parametrize("example", _params(slow=False))
def test_readme_example(example, tmp_path, monkeypatch):
    _run(example, tmp_path, budget=True, monkeypatch=monkeypatch)


@pytest.mark.slow
@pytest.mark.parametrize("example", _params(slow=True))
def test_readme_example_as_written(example, tmp_path, monkeypatch):
    _run(example, tmp_path, budget=False, monkeypatch=monkeypatch)


# -- the Python API's examples -----------------------------------------------------------------------

#: The same as `BUDGETS`, for the ```python blocks: a smaller budget in the default run.
PYTHON_BUDGETS = {
    'method="cpsat",': 'method="cpsat", limits=halfmoon.Limits(seconds=2),',
    "range(1000)": "range(40)",
}


def python_blocks() -> list[list[Example]]:
    """The README's ```python blocks, each a list of its lines to run (comments and ``# not tested`` lines left out)."""
    blocks: list[list[Example]] = []
    inside = False
    for number, raw in enumerate(README.read_text(encoding="utf-8").splitlines(), start=1):
        if raw.startswith("```"):
            inside = raw.strip() == "```python"
            if inside:
                blocks.append([])
            continue
        if inside and raw.strip() and not raw.lstrip().startswith("#") and not raw.rstrip().endswith(SKIP_MARK):
            blocks[-1].append(Example(number, _strip_comment(raw)))
    return blocks


PYTHON_BLOCKS = python_blocks()


@pytest.mark.parametrize("block", PYTHON_BLOCKS, ids=[f"line{block[0].line}" for block in PYTHON_BLOCKS])
def test_readme_python_example(block, tmp_path, monkeypatch):
    """Each block runs line by line in one namespace, in a fresh folder and store, and uses no deprecated name."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("HALFMOON_DB", str(tmp_path / "results.sqlite3"))
    namespace: dict = {}
    with warnings.catch_warnings():
        warnings.filterwarnings("error", message=r"halfmoon\..* is deprecated", category=DeprecationWarning)
        for example in block:
            source = example.command
            for text, smaller in PYTHON_BUDGETS.items():
                source = source.replace(text, smaller)
            try:
                exec(compile(source, str(example), "exec"), namespace)
            except Exception as error:
                raise AssertionError(f"{example}: {type(error).__name__}: {error}") from error


def test_the_readme_has_python_examples():
    assert PYTHON_BLOCKS and len(PYTHON_BLOCKS[0]) >= 8, PYTHON_BLOCKS
