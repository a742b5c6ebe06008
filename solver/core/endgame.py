"""Endgame adapters: how a multiplayer game plugs into `halfmoon endgame GAME`, and the registry.

An adapter is a small object per game that turns the outside world (position JSON, a deal code
plus moves, "play on to the endgame") into positions of its `Game`, says which questions to ask
about a position, and formats moves. The CLI holds no game logic: it finds the adapter here and
calls `answer`, which runs the exact core and replays every reported line through the rules.

Registration needs no edit of this file: any module in `solver.games` that defines
``ENDGAME_ADAPTERS = [...]`` (or ``ENDGAME_ADAPTER = ...``) is picked up by `adapters()`.
Game modules may import this module (it imports only `solver.core.game` at load time); the
search itself is imported lazily inside `answer`.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass, field
from typing import Any, Iterator, Mapping, Protocol, Sequence, runtime_checkable

from halfmoon.solver.errors import UnknownGameError

from .game import Game, Question


@dataclass(frozen=True)
class Ask:
    """One question put to the solver, with the words for its values.

    `id` is stable for JSON ("win-loss", "seat-2-avoid-shithead"), `text` a sentence for people,
    `words` maps values to words ({1: "win", 0: "draw", -1: "loss"}); values without a word are
    shown as numbers (score differences).
    """

    id: str
    text: str
    question: Question
    words: Mapping[int, str] = field(default_factory=dict)
    seat: int | None = None  # the seat the question is about, if one

    def word(self, value: int | None) -> str:
        if value is None:
            return "unknown"
        return self.words.get(value, str(value))


@runtime_checkable
class EndgameAdapter(Protocol):
    """What `halfmoon endgame GAME` needs from a game (see the module docstring)."""

    name: str  # the CLI's GAME argument, e.g. "shithead"
    title: str  # e.g. "Shithead"
    game: Game[Any, Any]

    def position_from_json(self, data: Any) -> Any:
        """A position from its documented JSON shape; errors are ValueError subclasses naming the field."""
        ...

    def position_to_json(self, position: Any) -> dict[str, Any]:
        """The same JSON shape back (``position_from_json(position_to_json(p)) == p``)."""
        ...

    def position_from_code(self, code: str, moves: str = "") -> Any:
        """The dealt position of a deal code, then `moves` (the game's move notation) played."""
        ...

    def until_endgame(self, position: Any, seed: int) -> tuple[Any, list[Any]]:
        """Play on with the game's fixed policy, seeded with `seed`, until its endgame starts (e.g.
        the stock is empty); returns the position reached and the moves played."""
        ...

    def asks(self, position: Any) -> list[Ask]:
        """The questions to answer about `position` (e.g. win/loss for two players)."""
        ...

    def format_move(self, position: Any, move: Any) -> str:
        """The move in the game's notation, as played from `position`."""
        ...

    def move_note(self, position: Any, move: Any) -> str:
        """Extra facts a reader needs about a move ("" if none), e.g. which face-down card it turns."""
        ...

    def describe(self, position: Any) -> str:
        """Several lines of text showing the position to a person."""
        ...

    def notes(self, position: Any) -> list[str]:
        """Caveats printed with every answer (e.g. double-dummy assumptions)."""
        ...

    def sample_positions(self, seed: int, count: int) -> Iterator[Any]:
        """Start positions for the conformance test (e.g. deals from seeded codes)."""
        ...

    # Optional, looked up with getattr by `answer`:
    #   extra_answers(position, limits) -> list[dict]  answers beyond the exact questions, each with
    #       "id", "text", "status" and e.g. a "line" (a max^n line, labelled as not a guarantee);
    #   extra(position) -> dict  structured facts shown with the answer.


_REGISTRY: dict[str, EndgameAdapter] = {}
_DISCOVERED = False
_LOAD_ERRORS: dict[str, str] = {}


def register(adapter: EndgameAdapter) -> EndgameAdapter:
    """Add an adapter by hand (discovery does this for modules in `solver.games`)."""
    _REGISTRY[adapter.name] = adapter
    return adapter


#: The multiplayer games' adapter modules (explicit, like OpenSpiel's game list; no discovery).
ADAPTER_MODULES = (
    "halfmoon.solver.games.eight_and_a_half.adapter",
    "halfmoon.solver.games.golf.adapter",
    "halfmoon.solver.games.shithead.adapter",
    "halfmoon.solver.games.spit.adapter",
)


def _discover() -> None:
    global _DISCOVERED
    if _DISCOVERED:
        return
    _DISCOVERED = True
    for name in ADAPTER_MODULES:
        register(importlib.import_module(name).ADAPTER)


def adapters() -> dict[str, EndgameAdapter]:
    """Every registered endgame adapter by name."""
    _discover()
    return dict(sorted(_REGISTRY.items()))


def load_errors() -> dict[str, str]:
    """Game modules that failed to import during discovery (module → error)."""
    _discover()
    return dict(_LOAD_ERRORS)


def get_adapter(name: str) -> EndgameAdapter:
    found = adapters()
    key = name.strip().lower()
    if key not in found:
        known = ", ".join(found) or "(none)"
        broken = f"; modules that failed to load: {', '.join(_LOAD_ERRORS)}" if _LOAD_ERRORS else ""
        raise UnknownGameError(f"unknown endgame game {name!r}: expected one of {known}{broken}")
    return found[key]


# -- answering -------------------------------------------------------------------------------


def answer(
    adapter: EndgameAdapter,
    position: Any,
    limits: Any = None,
    method: str = "auto",
    max_line: int = 200,
) -> dict[str, Any]:
    """Solve every question the adapter asks about `position`; a JSON-ready report.

    Every principal line is replayed through the game's rules before it is reported (a line that
    fails to replay is a bug and raises AssertionError, never a quiet wrong answer).
    """
    from .exact import SOLVED, Limits, replay_line, solve_all

    game = adapter.game
    limits = limits if limits is not None else Limits()
    asks = adapter.asks(position)
    solutions = solve_all(game, position, [a.question for a in asks], limits, method, max_line)
    terminal = game.terminal(position)
    report: dict[str, Any] = {
        "game": adapter.name,
        "players": game.players(position),
        "to_move": None if terminal is not None else game.to_move(position),
        "terminal": _terminal_json(terminal),
        "position": adapter.position_to_json(position),
        "notes": list(adapter.notes(position)),
        "questions": [],
    }
    for ask, sol in zip(asks, solutions):
        entry: dict[str, Any] = {
            "id": ask.id,
            "text": ask.text,
            "seat": ask.seat,
            "status": sol.status,
            "value": sol.value,
            "word": ask.word(sol.value) if sol.status == SOLVED else _unknown_word(ask, sol.extra.get("bounds")),
            "bounds": sol.extra.get("bounds"),
            "graph_complete": sol.extra.get("complete"),
            "moves": [
                {
                    "move": adapter.format_move(position, mv.move),
                    "value": mv.value,
                    "word": ask.word(mv.value),
                    "note": adapter.move_note(position, mv.move),
                }
                for mv in sol.moves
            ],
            "line": [],
            "line_end": sol.line_end,
            "method": sol.method,
            "positions": sol.positions,
            "nodes": sol.nodes,
            "edges": sol.edges,
            "seconds": round(sol.seconds, 4),
            "positions_per_second": round(sol.positions / sol.seconds) if sol.seconds > 0 else None,
            "bytes_per_position": round(sol.bytes_per_position, 1),
            "reason": sol.reason,
        }
        if sol.status == SOLVED:
            entry["line"] = _formatted_line(adapter, position, sol.line)
            final = replay_line(game, position, sol.line)
            assert adapter.game.key(final) == adapter.game.key(sol.final), "principal line does not replay"
            entry["line_outcome"] = _terminal_json(game.terminal(final))
        report["questions"].append(entry)
    extra_answers = getattr(adapter, "extra_answers", None)
    if callable(extra_answers):  # optional: answers beyond the exact questions (e.g. a max^n line)
        report["extra_answers"] = list(extra_answers(position, limits))
    extra = getattr(adapter, "extra", None)
    if callable(extra):  # optional: structured facts about the position
        report["extra"] = extra(position)
    return report


def _unknown_word(ask: Ask, bounds: dict[str, Any] | None) -> str:
    """"unknown", with what the explored part proves when it proves something."""
    if not bounds:
        return "unknown"
    parts = []
    if bounds.get("at_least") is not None:
        parts.append(f"at least {ask.word(bounds['at_least'])}")
    if bounds.get("at_most") is not None:
        parts.append(f"at most {ask.word(bounds['at_most'])}")
    return f"unknown ({', '.join(parts)})" if parts else "unknown"


def _formatted_line(adapter: EndgameAdapter, position: Any, line: Sequence[Any]) -> list[dict[str, Any]]:
    game = adapter.game
    out = []
    for move in line:
        out.append({
            "seat": game.to_move(position),
            "move": adapter.format_move(position, move),
            "note": adapter.move_note(position, move),
        })
        position = game.apply(position, move)
    return out


def _terminal_json(terminal: Any) -> Any:
    if terminal is None:
        return None
    to_json = getattr(terminal, "to_json", None)
    return to_json() if callable(to_json) else str(terminal)
