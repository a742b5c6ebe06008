"""`halfmoon endgame GAME`: exact endgame answers for any registered multiplayer game.

Interfaces only: the game's adapter (solver.core.endgame) reads positions, deals codes, plays
to the endgame and names the questions; `answer` runs the exact core. Same options for every game.
"""

from __future__ import annotations

from typing import Any

import click

from halfmoon.solver.core.endgame import adapters, answer, get_adapter
from halfmoon.solver.core.exact import Limits

from ..common import echo_json, json_option, read_json_file


def _game_names() -> str:
    return ", ".join(adapters()) or "(none registered)"


@click.command()
@click.argument("game")
@click.option("--position", "position_file", type=click.Path(dir_okay=False, allow_dash=True),
              help="A position JSON file ('-' for stdin); schema in docs/endgames.md.")
@click.option("--code", help="A deal code of the game, e.g. SH1-2-AAAAAAB.")
@click.option("--moves", "line", default="", help="Moves to play from the deal (the game's notation).")
@click.option("--until", type=click.Choice(["endgame"]), help="Play on with the fixed seeded policy until the endgame (e.g. the stock is empty).")
@click.option("--seed", type=int, default=0, show_default=True, help="Seed of the --until policy.")
@click.option("--max-positions", type=int, default=5_000_000, show_default=True, help="Give up (unknown) beyond this many positions.")
@click.option("--max-seconds", type=float, default=60.0, show_default=True, help="Give up (unknown) after this many seconds.")
@click.option("--max-memory-mb", type=int, default=6144, show_default=True, help="Give up (unknown) when memory grows by this much.")
@click.option("--method", type=click.Choice(["auto", "retrograde", "negamax"]), default="auto", show_default=True,
              help="auto: negamax for games that declare themselves acyclic, retrograde otherwise.")
@click.option("--show-only", is_flag=True, help="Show the position (after --moves/--until) without solving.")
@json_option
def endgame(game: str, position_file: str | None, code: str | None, line: str, until: str | None, seed: int,
            max_positions: int, max_seconds: float, max_memory_mb: int, method: str, show_only: bool,
            as_json: bool) -> None:
    """Solve the endgame of GAME exactly: the value for the player to move (or, with more than
    two players, whether each player can be forced into last place), every legal move's value,
    and a principal line. Games: see `halfmoon endgame --help` → docs/endgames.md.

    Give the position with --position FILE, or --code CODE [--moves "…"]; add --until endgame
    to play on with the fixed seeded policy first. A limit hit gives the answer `unknown`.
    """
    adapter = get_adapter(game)
    if (position_file is None) == (code is None):
        raise click.UsageError("give --position FILE or --code CODE (one of them)")
    if position_file is not None:
        if line.strip():
            raise click.UsageError("--moves goes with --code (a position file is already the position)")
        position = adapter.position_from_json(read_json_file(position_file, "position"))
    else:
        position = adapter.position_from_code(code, line)
    played: list[str] = []
    if until == "endgame":
        start = position
        position, moves = adapter.until_endgame(position, seed)
        for move in moves:
            played.append(adapter.format_move(start, move))
            start = adapter.game.apply(start, move)
    if show_only:
        if as_json:
            echo_json({"game": adapter.name, "played": played, "position": adapter.position_to_json(position)})
        else:
            if played:
                click.echo(f"played to the endgame: {' '.join(played)}")
            click.echo(adapter.describe(position))
        return
    limits = Limits(max_positions=max_positions, max_seconds=max_seconds, max_memory_bytes=max_memory_mb * 1024 * 1024)
    report = answer(adapter, position, limits, method)
    report["played"] = played
    if as_json:
        echo_json(report)
        return
    _print_report(adapter, position, report)


def _print_report(adapter: Any, position: Any, report: dict[str, Any]) -> None:
    if report["played"]:
        click.echo(f"played to the endgame ({len(report['played'])} moves): {' '.join(report['played'])}")
    mover = report["to_move"]
    head = f"{adapter.title}, {report['players']} players"
    head += f", player {mover} to move" if mover is not None else f", play is over: {report['terminal'].get('note', '')}"
    click.echo(head)
    click.echo(adapter.describe(position))
    for q in report["questions"]:
        click.echo("")
        click.echo(f"{q['text']}  →  {q['word'].upper()}")
        stats = (f"{q['method']}: {q['positions']:,} positions, {q['nodes']:,} moves, {q['seconds']:.2f} s, "
                 f"{q['bytes_per_position']:.0f} bytes/position").replace(",", " ")
        click.echo(f"  ({stats})" + (f"  limit: {q['reason']}" if q["reason"] else ""))
        if q["moves"]:
            click.echo("  every legal move:")
            width = max(len(m["move"]) for m in q["moves"])
            for m in q["moves"]:
                note = f"  ({m['note']})" if m["note"] else ""
                click.echo(f"    {m['move'].ljust(width)}  {m['word']}{note}")
        if q["line"]:
            steps = ", ".join(f"P{s['seat']} {s['move']}" for s in q["line"])
            end = {"terminal": (q.get("line_outcome") or {}).get("note", "end"), "repetition": "endless play (repeats)",
                   "cut": "…"}.get(q["line_end"], "")
            click.echo(f"  principal line: {steps}  ⇒ {end}")
    for item in report.get("extra_answers", []):
        click.echo("")
        click.echo(f"{item.get('text', item.get('id', ''))}  →  {str(item.get('status', '')).upper()}")
        for key, value in item.items():
            if key in ("text", "id", "status"):
                continue
            if key == "line" and isinstance(value, list):
                value = ", ".join(f"P{s.get('seat')} {s.get('move')}" for s in value if isinstance(s, dict))
            click.echo(f"  {key}: {value}")
    if report.get("extra"):
        click.echo("")
        for key, value in report["extra"].items():
            click.echo(f"{key}: {value}")
    for note in report["notes"]:
        click.echo(f"note: {note}")
