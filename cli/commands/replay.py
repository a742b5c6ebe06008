"""`halfmoon replay`: play a line of moves on any deal and show where it leads."""

from __future__ import annotations

import click

from ..common import echo_json, json_option, read_json_file
from ..options import game_option, layout_option, rules_option, symbols_option


@click.command()
@click.argument("code", required=False)
@click.option("--moves", "line", default="", help="Moves like '1+8, 8+5+3' (commas or spaces; the game's notation).")
@game_option
@rules_option
@layout_option
@click.option("--all", "show_all", is_flag=True, help="Also list every card left, bottom to top.")
@symbols_option
@json_option
def replay(code: str | None, line: str, game: str | None, rules: str | None, layout: str | None, show_all: bool,
           symbols: bool, as_json: bool) -> None:
    """Play the moves on deal CODE (any game; or --layout FILE with --game or --rules) and show where they lead.

    An illegal move is an error naming its index and the reason (exit code 3). --json prints
    {"code", "game", "played", "moves", "status": "won"|"dead"|"open", "won", "dead", "score", …the position}.
    """
    import halfmoon

    if (code is None) == (layout is None):
        raise click.UsageError("give a deal CODE or --layout FILE (one of them)")
    start = read_json_file(layout, "layout") if layout is not None else code
    if layout is not None and game is None and rules is None:
        game = "HM"  # a layout is Half Moon's unless --game or --rules says otherwise
    played = halfmoon.replay(start, line, game=game, rules=rules)
    if as_json:
        echo_json(played.to_json())
        return
    state = {"won": "won", "dead": "dead end (no move left)", "over": "the game is over"}.get(played.status, "open")
    score = f"score {played.score}, " if played.score is not None else ""
    moves = len(played.moves)
    click.echo(f"{played.code or 'layout'} after {moves} move{'s' * (moves != 1)}: {score}{state}")
    click.echo(played.describe(symbols, show_all))
