"""The layers of the package, read from the source: who may import whom (issue 13).

Every module of the package is parsed with `ast` and every import statement is read, at module
level and inside functions alike, absolute and relative. The rules:

- `dealcodes` imports nothing else of the project;
- `solver` never imports `cli` nor the facade (`halfmoon`, `halfmoon.atlas`, `halfmoon.service`:
  `halfmoon/*.py`, which import the solver);
  `solver.core` is game-agnostic: never `solver.games`, `solver.catalogue` or `solver.api`;
- a game's rules files (rules, position, policy, kernel, render, rounds, schema, presets) never
  import a search module (the core searches, any game's search/cpsat/portfolio/maxn, its
  adapter) nor the catalogue or the facade: the rules stand below the solvers that use them;
- the command-line commands (`cli/commands/*.py`) import, of the project, only the facade
  (`halfmoon`, `halfmoon.atlas`, `halfmoon.service`) and `cli.common`/`cli.options`, never one
  another; the rest of the CLI outside the HTTP service (main, common, options) imports only
  the facade and the CLI; the HTTP service (`cli/server`, the `serve` command) imports only the
  facade, `cli.common`/`cli.options` and its own modules;
- `sqlite3` is imported only by `solver/store.py`;
- the import graph has no cycle, neither among module-level imports nor counting the imports
  inside functions too.

Only what an import statement names counts (importing `halfmoon.solver.x` also runs the
parents' ``__init__``, which no rule here is about). Imports under ``if TYPE_CHECKING:`` are
held to the layer rules but left out of the cycle check (they never run).
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = "halfmoon"
TOP_FOLDERS = ("dealcodes", "solver", "cli")  # halfmoon/<name> are symlinks to these

RULES_ROLES = {"rules", "position", "policy", "kernel", "render", "rounds", "schema", "presets",
               "notation", "piles"}  # the last two: rules shared by the games (solver/games/*.py)
SEARCH_ROLES = {"search", "cpsat", "portfolio", "maxn", "adapter"}
CORE_SEARCH = {f"{PACKAGE}.solver.core.{name}" for name in ("solitaire", "exact", "batch", "report")}
FACADE = {PACKAGE, f"{PACKAGE}.atlas", f"{PACKAGE}.service"}  # the public namespaces (halfmoon/*.py)
FACADE_ONLY_CLI = FACADE | {f"{PACKAGE}.cli.common", f"{PACKAGE}.cli.options"}


@dataclass(frozen=True)
class Import:
    source: str  # the importing module
    target: str  # the imported module (project modules resolved to the module, others as written)
    line: int
    module_level: bool  # runs when the module is imported (not inside a function)
    type_only: bool  # under `if TYPE_CHECKING:`

    def __str__(self) -> str:
        where = "module level" if self.module_level else "in a function"
        return f"{self.source} (line {self.line}, {where}) imports {self.target}"


@cache
def modules() -> dict[str, Path]:
    """Every module of the package by dotted name."""
    found = {f"{PACKAGE}": ROOT / PACKAGE / "__init__.py"}
    found |= {f"{PACKAGE}.{path.stem}": path for path in sorted((ROOT / PACKAGE).glob("*.py"))
              if path.stem != "__init__"}
    for folder in TOP_FOLDERS:
        for path in sorted((ROOT / folder).rglob("*.py")):
            parts = (PACKAGE, *path.relative_to(ROOT).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts = parts[:-1]
            found[".".join(parts)] = path
    return found


def _is_package(name: str) -> bool:
    return modules()[name].name == "__init__.py"


def _resolve(name: str) -> str:
    """A dotted name as imported: the longest prefix that is a project module (`from halfmoon.solver
    import api` names the module `halfmoon.solver.api`, `from halfmoon import Limits` the facade)."""
    parts = name.split(".")
    for end in range(len(parts), 0, -1):
        prefix = ".".join(parts[:end])
        if prefix in modules():
            return prefix
    return name


def _type_checking_nodes(tree: ast.AST) -> set[int]:
    ids: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            for inner in node.body:
                ids.update(id(n) for n in ast.walk(inner))
    return ids


def _function_nodes(tree: ast.AST) -> set[int]:
    ids: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            ids.update(id(n) for n in ast.walk(node) if n is not node)
    return ids


@cache
def imports_of(module: str) -> tuple[Import, ...]:
    path = modules()[module]
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    in_function, type_only = _function_nodes(tree), _type_checking_nodes(tree)
    package = module if _is_package(module) else module.rpartition(".")[0]
    found = []
    for node in ast.walk(tree):
        targets: list[str] = []
        if isinstance(node, ast.Import):
            targets = [_resolve(alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base_parts = package.split(".")
                base_parts = base_parts[: len(base_parts) - (node.level - 1)]
                base = ".".join(base_parts + ([node.module] if node.module else []))
            else:
                base = node.module or ""
            if base == "__future__":
                continue
            # `from pkg import name`: the module pkg.name if there is one, else pkg itself
            targets = [_resolve(f"{base}.{alias.name}") for alias in node.names]
        for target in dict.fromkeys(targets):
            found.append(Import(module, target, node.lineno, id(node) not in in_function, id(node) in type_only))
    return tuple(found)


def project_imports(module: str) -> list[Import]:
    return [imp for imp in imports_of(module) if imp.target in modules()]


def all_imports() -> list[Import]:
    return [imp for module in modules() for imp in imports_of(module)]


def under(name: str, prefix: str) -> bool:
    return name == prefix or name.startswith(prefix + ".")


def role(module: str) -> str:
    return module.rpartition(".")[2]


def violations(check, sources) -> list[str]:
    return [str(imp) for module in sources for imp in imports_of(module) if check(imp)]


def in_server(module: str) -> bool:
    return under(module, f"{PACKAGE}.cli.server") or module == f"{PACKAGE}.cli.commands.serve"


# -- the reader itself -----------------------------------------------------------------------------


def test_the_reader_sees_every_kind_of_import():
    """The rules below are only as good as the reader: check it on known imports of the package."""
    names = modules()
    assert {f"{PACKAGE}.dealcodes", f"{PACKAGE}.solver.api", f"{PACKAGE}.cli.commands.solve",
            f"{PACKAGE}.solver.games.halfmoon.rules", f"{PACKAGE}.cli.server.app"} <= set(names)
    assert len(names) > 80
    catalogue = imports_of(f"{PACKAGE}.solver.catalogue")
    assert any(i.target == f"{PACKAGE}.solver.core.adapters" and i.module_level for i in catalogue)  # absolute
    assert any(i.target == f"{PACKAGE}.solver.games.family.schema" and not i.module_level for i in catalogue)
    api = [i for name in ("resolve", "endgames", "lookup") for i in imports_of(f"{PACKAGE}.solver.api.{name}")]
    assert any(i.target == f"{PACKAGE}.solver.catalogue" and i.module_level for i in api)  # from .. import catalogue
    assert any(i.target == f"{PACKAGE}.solver.core.report" for i in api)  # from ..core.report import answer
    assert any(i.target == f"{PACKAGE}.solver.games.family.presets" and not i.module_level for i in api)
    survey = imports_of(f"{PACKAGE}.cli.commands.survey")
    assert any(i.target == f"{PACKAGE}.cli.options" for i in survey)  # from ..options import ...
    assert any(i.target == PACKAGE and not i.module_level for i in survey)  # import halfmoon, in a function
    assert any(i.target == "sqlite3" for i in imports_of(f"{PACKAGE}.solver.store"))


# -- the rules ---------------------------------------------------------------------------------------


def test_dealcodes_imports_nothing_else_of_the_project():
    sources = [m for m in modules() if under(m, f"{PACKAGE}.dealcodes")]
    assert sources
    assert violations(lambda i: i.target in modules() and not under(i.target, f"{PACKAGE}.dealcodes"), sources) == []


def test_the_solver_never_imports_the_cli_or_the_facade():
    sources = [m for m in modules() if under(m, f"{PACKAGE}.solver")]
    bad = violations(lambda i: under(i.target, f"{PACKAGE}.cli") or i.target in FACADE, sources)
    assert bad == []


def test_the_core_is_game_agnostic():
    """solver.core imports, of the project, only itself, the error vocabulary and the deal codes (never
    solver.games, solver.catalogue, solver.api or the CLI)."""
    allowed = (f"{PACKAGE}.solver.core", f"{PACKAGE}.solver.errors", f"{PACKAGE}.dealcodes")
    sources = [m for m in modules() if under(m, f"{PACKAGE}.solver.core")]
    bad = violations(lambda i: i.target in modules() and not any(under(i.target, a) for a in allowed), sources)
    assert bad == []


def test_the_games_stand_on_the_core_only():
    """A game package imports, of the project, only the games, the core, the errors and the deal codes:
    never the catalogue, the facade, the store, the surveys or the CLI."""
    allowed = (f"{PACKAGE}.solver.games", f"{PACKAGE}.solver.core", f"{PACKAGE}.solver.errors", f"{PACKAGE}.dealcodes")
    sources = [m for m in modules() if under(m, f"{PACKAGE}.solver.games")]
    bad = violations(lambda i: i.target in modules() and not any(under(i.target, a) for a in allowed), sources)
    assert bad == []


def test_the_rules_of_a_game_never_import_a_search():
    def searching(imp: Import) -> bool:
        target = imp.target
        if target in CORE_SEARCH or target in FACADE or target == f"{PACKAGE}.solver.catalogue" \
                or under(target, f"{PACKAGE}.solver.api"):
            return True
        return under(target, f"{PACKAGE}.solver.games") and role(target) in SEARCH_ROLES

    sources = [m for m in modules() if under(m, f"{PACKAGE}.solver.games") and role(m) in RULES_ROLES]
    assert len(sources) >= 15
    assert violations(searching, sources) == []


def test_cli_commands_call_only_the_facade():
    sources = [m for m in modules() if under(m, f"{PACKAGE}.cli.commands") and m != f"{PACKAGE}.cli.commands"
               and not in_server(m)]
    assert len(sources) >= 6
    bad = violations(lambda i: i.target in modules() and i.target not in FACADE_ONLY_CLI, sources)
    assert bad == []


def test_the_rest_of_the_cli_imports_only_the_facade_and_the_cli():
    sources = [m for m in modules() if under(m, f"{PACKAGE}.cli") and not under(m, f"{PACKAGE}.cli.commands")
               and not in_server(m)] + [f"{PACKAGE}.__main__"]
    bad = violations(lambda i: i.target in modules() and i.target not in FACADE
                     and not under(i.target, f"{PACKAGE}.cli"), sources)
    assert bad == []


def test_the_http_service_calls_only_the_facade():
    """cli/server/* and the `serve` command: of the project, only the facade, the service's own modules
    and cli.common/cli.options; no SQL of its own."""
    allowed = FACADE_ONLY_CLI

    def bad(imp: Import) -> bool:
        if imp.target == "sqlite3":
            return True
        if imp.target not in modules():
            return False
        return imp.target not in allowed and not under(imp.target, f"{PACKAGE}.cli.server")

    sources = [m for m in modules() if in_server(m)]
    assert len(sources) >= 8
    assert violations(bad, sources) == []


def test_sql_lives_only_in_the_store():
    store = f"{PACKAGE}.solver.store"
    assert any(i.target == "sqlite3" for i in imports_of(store))
    sources = [m for m in modules() if m != store and not in_server(m)]  # the service: see the test above
    assert violations(lambda i: under(i.target, "sqlite3"), sources) == []


# -- no cycles ---------------------------------------------------------------------------------------


def _cycle(edges: dict[str, set[str]]) -> list[str] | None:
    """One cycle of the graph (its modules in order, the first repeated at the end), or None."""
    WHITE, GREY, BLACK = 0, 1, 2
    colour = dict.fromkeys(edges, WHITE)
    for start in sorted(edges):
        if colour[start] != WHITE:
            continue
        stack: list[tuple[str, list[str]]] = [(start, sorted(edges[start]))]
        path = [start]
        colour[start] = GREY
        while stack:
            node, todo = stack[-1]
            if not todo:
                colour[node] = BLACK
                stack.pop()
                path.pop()
                continue
            nxt = todo.pop()
            if colour[nxt] == GREY:
                return path[path.index(nxt):] + [nxt]
            if colour[nxt] == WHITE:
                colour[nxt] = GREY
                path.append(nxt)
                stack.append((nxt, sorted(edges[nxt])))
    return None


def _graph(module_level_only: bool, server: bool = True) -> dict[str, set[str]]:
    """The project's import graph (without the HTTP service's modules when `server` is false)."""
    kept = [m for m in modules() if server or not in_server(m)]
    edges: dict[str, set[str]] = {m: set() for m in kept}
    for imp in all_imports():
        if imp.source in edges and imp.target in edges and imp.target != imp.source and not imp.type_only:
            if imp.module_level or not module_level_only:
                edges[imp.source].add(imp.target)
    return edges


def test_the_cycle_finder_finds_cycles():
    assert _cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": set()}) == ["a", "b", "c", "a"]
    assert _cycle({"a": {"b", "c"}, "b": {"c"}, "c": set()}) is None


def test_the_import_graph_has_no_cycle_at_module_level():
    assert _cycle(_graph(module_level_only=True)) is None


def test_the_import_graph_has_no_cycle_counting_imports_in_functions():
    assert _cycle(_graph(module_level_only=False, server=False)) is None


def test_the_http_service_has_no_cycle_counting_imports_in_functions():
    assert _cycle(_graph(module_level_only=False)) is None
