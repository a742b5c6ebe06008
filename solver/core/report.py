"""Answering endgame questions: run the exact core on a position and report every answer as JSON.

`answer` solves every question the game's adapter asks and replays every principal line
through the rules before reporting it; `play_to_endgame` plays the game's fixed seeded policy
on to its endgame. The CLI, the HTTP service and the facade share both.
"""

from __future__ import annotations

import time
from dataclasses import replace
from typing import Any, Sequence

from .adapters import Ask, EndgameAdapter
from .exact import SOLVED, Progress, replay_line, solve_all
from .verdicts import Limits

#: An endgame question's budgets when the caller sets none: one minute, 200 million positions
#: (the compiled provers store about a million a second on each core), 6 GiB of growth in
#: resident memory.
DEFAULT_LIMITS = Limits(seconds=60.0, nodes=200_000_000, memory_bytes=6 * 1024**3)


def play_to_endgame(adapter: EndgameAdapter, position: Any, seed: int) -> tuple[Any, list[str]]:
    """Play the game's fixed policy from `position` until its endgame; the position and the moves' text."""
    reached, moves = adapter.until_endgame(position, seed)
    played: list[str] = []
    for move in moves:
        played.append(adapter.format_move(position, move))
        position = adapter.game.apply(position, move)
    return reached, played


def position_report(adapter: EndgameAdapter, position: Any) -> dict[str, Any]:
    """The part of a report that describes the position: game, players, who moves, whether play is over."""
    game = adapter.game
    terminal = game.terminal(position)
    return {
        "game": adapter.name,
        "players": game.players(position),
        "to_move": None if terminal is not None else game.to_move(position),
        "terminal": _terminal_json(terminal),
        "position": adapter.position_to_json(position),
        "notes": list(adapter.notes(position)),
    }


def answer(
    adapter: EndgameAdapter,
    position: Any,
    limits: Limits = Limits(),
    method: str = "auto",
    max_line: int = 200,
    progress: Progress | None = None,
) -> dict[str, Any]:
    """Solve every question the adapter asks about `position`; a JSON-ready report.

    Every principal line is replayed through the game's rules before it is reported (a line that
    fails to replay is a bug and raises AssertionError, never a quiet wrong answer). `progress`,
    if given, receives the solver's counts about twice a second (see `solver.core.exact.solve`).
    """
    started = time.perf_counter()
    game = adapter.game
    asks = adapter.asks(position)
    solutions = solve_all(game, position, [a.question for a in asks], limits, method, max_line, progress)
    report = position_report(adapter, position) | {"questions": []}
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
            "value_seconds": (round(sol.extra["value_seconds"], 4) if "value_seconds" in sol.extra else None),
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
        left = limits  # the time limit bounds the whole answer: the extras get what the questions left
        if limits.seconds is not None:
            left = replace(limits, seconds=max(limits.seconds - (time.perf_counter() - started), 1e-3))
        report["extra_answers"] = list(extra_answers(position, left))
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
