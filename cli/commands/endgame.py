"""`halfmoon endgame GAME`: exact endgame answers for any multiplayer game of the catalogue.

Interfaces only: `halfmoon.endgame` reads positions, deals codes, plays to the endgame and
answers every question; this module parses options and prints. Same options for every game.
"""

from __future__ import annotations

import sys
from typing import Any

import click

from ..common import echo_json, json_option, read_json_file
from ..options import SECONDS, limits_of


@click.command()
@click.argument("game")
@click.option("--position", "position_file", type=click.Path(dir_okay=False, allow_dash=True),
              help="A position JSON file ('-' for stdin); schema in docs/endgames.md.")
@click.option("--code", help="A deal code of the game, e.g. SH1-2-AAAAAAB.")
@click.option("--moves", "line", default="", help="Moves to play from the deal (the game's notation).")
@click.option("--until", type=click.Choice(["endgame"]), help="Play on with the fixed seeded policy until the endgame (e.g. the stock is empty).")
@click.option("--seed", type=click.IntRange(min=0), default=0, show_default=True, help="Seed of the --until policy.")
@click.option("--time-limit", "--max-seconds", "time_limit", type=SECONDS, default=None, metavar="SECONDS",
              help="Give up (unknown) after this many seconds (default 60).")
@click.option("--node-limit", "--max-positions", "node_limit", type=click.IntRange(min=1, max=1 << 62), default=None,
              help="Give up (unknown) beyond this many positions (default 200 000 000).")
@click.option("--memory-mb", "--max-memory-mb", "memory_mb", type=click.IntRange(min=1, max=1 << 20), default=None,
              help="Give up (unknown) when memory grows by this much (default 6144).")
@click.option("--method", type=click.Choice(["auto", "proof", "alphabeta", "retrograde", "negamax"]), default="auto",
              show_default=True, help="auto: alpha-beta for Golf and Spit, proof-number search for Shithead and "
                                      "Eight and a half (docs/endgames.md).")
@click.option("--show-only", is_flag=True, help="Show the position (after --moves/--until) without solving.")
@json_option
def endgame(game: str, position_file: str | None, code: str | None, line: str, until: str | None, seed: int,
            time_limit: float | None, node_limit: int | None, memory_mb: int | None, method: str, show_only: bool,
            as_json: bool) -> None:
    """Solve the endgame of GAME exactly: the value for the player to move (or, with more than
    two players, whether each player can be forced into last place), every legal move's value,
    and a principal line. GAME: shithead, eight-and-a-half, golf, spit (`halfmoon games`).

    Give the position with --position FILE, or --code CODE [--moves "…"]; add --until endgame
    to play on with the fixed seeded policy first. A limit hit gives the answer `unknown`.
    """
    import halfmoon

    info = halfmoon.game(game, "multiplayer")
    if (position_file is None) == (code is None):
        raise click.UsageError("give --position FILE or --code CODE (one of them)")
    if position_file is not None and line.strip():
        raise click.UsageError("--moves goes with --code (a position file is already the position)")
    start = read_json_file(position_file, "position") if position_file is not None else code
    if code is not None and halfmoon.service.parse_code(code).game != info.tag:
        raise halfmoon.InputError(f"deal code {code}: not a {info.title} code (expected {info.tag}1-…)")
    if show_only:
        shown = halfmoon.endgame_position(start, game=info.name, moves=line, until=until, seed=seed)
        if as_json:
            echo_json(shown.to_json())
        else:
            _print_head(shown)
        return
    limits = limits_of(time_limit, node_limit, memory_mb)
    progress = _Progress() if sys.stderr.isatty() else None
    try:
        result = halfmoon.endgame(start, game=info.name, moves=line, until=until, seed=seed, limits=limits,
                                  method=method, progress=progress)
    finally:
        if progress is not None:
            progress.clear()
    if as_json:
        echo_json(result.to_json())
        return
    _print_report(result)


class _Progress:
    """Long solves on a terminal: positions explored, rate, memory and time on one stderr line."""

    def __init__(self) -> None:
        self.shown = False

    def __call__(self, info: dict[str, Any]) -> None:
        if info.get("final"):
            self.clear()
            return
        limit = info.get("time_limit")
        of = f" s of {limit:g} s" if limit else " s"

        def n(x: float) -> str:
            return f"{x:,.0f}".replace(",", " ")

        text = (f"solving: {n(info['positions'])} positions ({n(info['positions_per_second'])}/s), "
                f"{n(info['memory_bytes'] / 2**20)} MB, {info['seconds']:.1f}{of}")
        click.echo("\r" + text + "\x1b[K", nl=False, err=True)
        self.shown = True

    def clear(self) -> None:
        if self.shown:
            click.echo("\r\x1b[K", nl=False, err=True)
            self.shown = False


def _print_head(result: Any) -> None:
    """What was played and the position: the same header with or without solving."""
    report = result.report
    if result.played:
        click.echo(f"played to the endgame ({len(result.played)} moves): {' '.join(result.played)}")
    mover = report.get("to_move")
    head = f"{result.title}, {report['players']} players"
    terminal = report.get("terminal")
    head += f", player {mover} to move" if mover is not None else f", play is over: {(terminal or {}).get('note', '')}"
    click.echo(head)
    click.echo(result.text)


def _print_report(result: Any) -> None:
    report = result.report
    _print_head(result)
    for q in report["questions"]:
        click.echo("")
        click.echo(f"{q['text']}  →  {q['word'].upper()}")
        known = q.get("value_seconds")
        early = known is not None and q["seconds"] - known >= 0.1  # the moves took the rest of the time
        when = f" (the value after {known:.2f} s; then each move's)" if early else ""
        stats = (f"{q['method']}: {q['positions']:,} positions, {q['nodes']:,} moves, {q['seconds']:.2f} s{when}, "
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
            click.echo(f"  {key.replace('_', ' ')}: {_plain(value)}")
    if report.get("extra"):
        click.echo("")
        for key, value in report["extra"].items():
            click.echo(f"{key.replace('_', ' ')}: {_plain(value)}")
    for note in report["notes"]:
        click.echo(f"note: {note}")


def _plain(value: Any) -> str:
    """A JSON value as a reader wants it: yes/no, not Python's True/False."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    return "-" if value is None else str(value)
