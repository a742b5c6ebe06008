"""The public surface, pinned (issue 30): `halfmoon`, `halfmoon.atlas` and `halfmoon.service`.

A name joins or leaves a namespace only by changing the lists below, on purpose. Each namespace is
built from one map of where its names live (`halfmoon._namespace`); type checkers read the
``if TYPE_CHECKING:`` imports instead, so the two are checked to agree. The names the facade had
before the split still resolve, for one release, with a DeprecationWarning naming the new home.
"""

from __future__ import annotations

import ast
import importlib
import subprocess
import sys
import warnings
from pathlib import Path

import pytest

import halfmoon

ROOT = Path(__file__).resolve().parents[1]

PUBLIC = {
    "halfmoon": [
        # the questions
        "analyze", "code", "deal", "endgame", "endgame_position", "fair_hint", "game", "games", "hint", "replay",
        "solve",
        # the values they take and give
        "Analysis", "Deal", "EndgameResult", "FairHintResult", "GameInfo", "HintResult", "Limits", "Replay",
        "SolveResult", "Verdict",
        # the errors
        "DealCodeError", "InputError", "LineError", "PositionError", "RuleFileError", "SolverBug", "UnknownGameError",
        "UnsupportedError",
    ],
    "halfmoon.atlas": [
        "build", "lookup", "merge", "numbers", "open_atlas", "stats", "unknowns", "verify",
        "AtlasConflictError", "AtlasCorruptError", "AtlasEntry", "AtlasError",
    ],
    "halfmoon.service": [
        "curated", "curation_state", "generate", "rate", "survey", "CuratedPage", "RatingParams", "TIERS",
        "from_store", "open_store", "ResultStore", "StoredRating", "StoredResult", "NotFoundError", "StoreError",
        "engine_warning", "number", "rule_file", "rule_preset_text", "rule_presets", "TimeHistogram",
        "DEAL_COUNT", "code_pattern", "parse_card", "parse_code", "parse_range", "sample_numbers",
    ],
}

#: The facade's names before issue 30 that moved (old name -> new home); `wilson` and `solver_version`
#: (exported, used by nobody) were dropped.
MOVED = {
    **{f"atlas_{name}": f"halfmoon.atlas.{name}"
       for name in ("build", "lookup", "merge", "numbers", "stats", "unknowns", "verify")},
    **{name: f"halfmoon.atlas.{name}"
       for name in ("open_atlas", "AtlasConflictError", "AtlasCorruptError", "AtlasEntry", "AtlasError")},
    **{name: f"halfmoon.service.{name}"
       for name in ("curated", "curation_state", "engine_warning", "from_store", "generate", "number", "open_store",
                    "rate", "rule_file", "rule_preset_text", "rule_presets", "survey", "CuratedPage", "RatingParams",
                    "ResultStore", "StoredRating", "StoredResult", "TIERS", "TimeHistogram", "NotFoundError",
                    "StoreError", "DEAL_COUNT", "code_pattern", "parse_card", "parse_code", "parse_range",
                    "sample_numbers")},
    "Card": "halfmoon.dealcodes.Card",
    "DealCode": "halfmoon.dealcodes.DealCode",
    "FairMove": "halfmoon.solver.results.FairMove",
    "MoveVerdict": "halfmoon.solver.results.MoveVerdict",
    "Tally": "halfmoon.solver.results.Tally",
    "IllegalMoveError": "halfmoon.solver.errors.IllegalMoveError",
    "LimitError": "halfmoon.solver.errors.LimitError",
    "MoveError": "halfmoon.solver.errors.MoveError",
}


def _resolve(dotted: str):
    module, _, name = dotted.rpartition(".")
    return getattr(importlib.import_module(module), name)


@pytest.mark.parametrize("namespace", sorted(PUBLIC))
def test_the_public_names_are_exactly_these(namespace):
    module = importlib.import_module(namespace)
    assert module.__all__ == sorted(PUBLIC[namespace])
    assert sorted(dir(module)) == sorted(PUBLIC[namespace])


def test_the_facade_stays_narrow():
    assert len(halfmoon.__all__) <= 30


@pytest.mark.parametrize("namespace", sorted(PUBLIC))
def test_every_public_name_imports_from_its_home(namespace):
    module = importlib.import_module(namespace)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a public name never warns
        for name in PUBLIC[namespace]:
            value = getattr(module, name)
            home = module._PUBLIC.homes[name]
            assert value is getattr(importlib.import_module(home), name), name
        star: dict = {}
        exec(f"from {namespace} import *", star)
    assert sorted(set(star) - {"__builtins__"}) == sorted(PUBLIC[namespace])


def _type_checking_imports(path: Path) -> dict[str, str]:
    """{name: module} of the imports under ``if TYPE_CHECKING:``, each of which must re-export (``as`` itself)."""
    found = {}
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.If) and ast.unparse(node.test) == "TYPE_CHECKING":
            for imported in node.body:
                assert isinstance(imported, ast.ImportFrom), ast.unparse(imported)
                for alias in imported.names:
                    assert alias.asname == alias.name, f"{path.name}: {alias.name} is not re-exported"
                    found[alias.name] = imported.module
    return found


@pytest.mark.parametrize("namespace", sorted(PUBLIC))
def test_what_type_checkers_read_agrees_with_the_map(namespace):
    module = importlib.import_module(namespace)
    static = _type_checking_imports(Path(module.__file__))
    submodules = {name: namespace for name in module._PUBLIC.submodules}
    assert static == module._PUBLIC.homes | submodules


def test_the_facade_loads_on_first_use():
    """``import halfmoon`` imports no solver (start-up stays fast), and is enough for ``halfmoon.atlas.lookup``."""
    code = ("import sys, halfmoon; print('halfmoon.solver.api' in sys.modules, 'halfmoon.atlas' in sys.modules); "
            "print(halfmoon.atlas.lookup.__module__, halfmoon.service.number('HM1-N-AAAAAAB'))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.split("\n")[:2] == ["False False", "halfmoon.solver.api.atlas 1"]


@pytest.mark.parametrize("old", sorted(MOVED))
def test_a_moved_name_warns_and_is_the_same_object(old):
    assert old not in halfmoon.__all__
    with pytest.warns(DeprecationWarning, match=rf"halfmoon\.{old} is deprecated: use {MOVED[old]}\b"):
        value = getattr(halfmoon, old)
    assert value is _resolve(MOVED[old])


def test_every_moved_name_is_pinned():
    assert halfmoon._PUBLIC.moved == MOVED


def test_the_warning_points_at_the_caller():
    with pytest.warns(DeprecationWarning) as caught:
        halfmoon.atlas_lookup  # noqa: B018
    assert caught[0].filename == __file__


def test_an_unknown_name_is_an_attribute_error():
    for module in (halfmoon, importlib.import_module("halfmoon.atlas"), importlib.import_module("halfmoon.service")):
        with pytest.raises(AttributeError, match="no attribute 'wilson'"):
            module.wilson  # noqa: B018
    with pytest.raises(ImportError):
        exec("from halfmoon import solver_version", {})


def test_game_finds_one_game_by_tag_or_name_any_case():
    assert halfmoon.game("hm") is halfmoon.game("HalfMoon") is halfmoon.game(" halfmoon ")
    assert halfmoon.game("eight-and-a-half").tag == "EH"
    assert halfmoon.game("SH", "multiplayer").name == "shithead"
    with pytest.raises(halfmoon.UnknownGameError, match=r"game 'chess': not in the catalogue, expected one of HM"):
        halfmoon.game("chess")
    with pytest.raises(halfmoon.UnknownGameError,
                       match=r"^unknown endgame game 'halfmoon': expected one of shithead, eight-and-a-half"):
        halfmoon.game("halfmoon", "multiplayer")
    with pytest.raises(halfmoon.UnknownGameError, match=r"^unknown solitaire 'golf': expected one of halfmoon,"):
        halfmoon.game("golf", "solitaire")


# -- the project's own callers use the current names ------------------------------------------------


def _facade_uses(path: Path) -> list[tuple[int, str]]:
    """(line, dotted name) of every ``halfmoon.X``, ``halfmoon.atlas.X`` and ``halfmoon.service.X`` in `path`."""
    uses = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "halfmoon":
            uses.append((node.lineno, f"halfmoon.{node.attr}"))
        elif isinstance(node, ast.Attribute) and isinstance(node.value, ast.Attribute) \
                and isinstance(node.value.value, ast.Name) and node.value.value.id == "halfmoon" \
                and node.value.attr in ("atlas", "service"):
            uses.append((node.lineno, f"halfmoon.{node.value.attr}.{node.attr}"))
        elif isinstance(node, ast.ImportFrom) and node.module in PUBLIC and not node.level:
            uses += [(node.lineno, f"{node.module}.{alias.name}") for alias in node.names]
    return uses


def test_the_cli_and_the_benchmarks_use_only_current_names():
    """And the tests, but for those of the HTTP service (tests/http): they show that old names still work."""
    known = {f"{namespace}.{name}" for namespace, names in PUBLIC.items() for name in names}
    known |= {f"halfmoon.{name}" for name in ("atlas", "service", "cli", "solver", "dealcodes", "__file__")}
    tests = [path for path in (ROOT / "tests").rglob("*.py") if "http" not in path.parts and path != Path(__file__)]
    paths = [*(ROOT / "cli").rglob("*.py"), *(ROOT / "benchmarks").rglob("*.py"), *tests]
    inside = ("halfmoon.cli.", "halfmoon.solver.", "halfmoon.dealcodes.")
    stale = [f"{path.relative_to(ROOT)}:{line}: {name}" for path in paths for line, name in _facade_uses(path)
             if name not in known and not name.startswith(inside)]
    assert stale == []
