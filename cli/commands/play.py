"""`halfmoon replay`: play a line of moves on a Half Moon deal."""

from __future__ import annotations

import click

from halfmoon.dealcodes import deal_halfmoon, parse_code
from halfmoon.solver.games.halfmoon.rules import Position
from halfmoon.solver.games.halfmoon.rules import replay as replay_line

from ..common import echo_json, json_option, read_json_file
from ..render import draw_list, draw_table


def load_position(code: str | None, layout: str | None) -> tuple[str | None, Position]:
    """The start position from a deal code or a layout file in the `deal --json` shape."""
    if (code is None) == (layout is None):
        raise click.UsageError("give a deal CODE or --layout FILE (one of them)")
    if layout is not None:
        return None, Position.from_json(read_json_file(layout, "layout"))
    parsed = parse_code(code, expect_game="HM")
    return str(parsed), Position.from_deal(deal_halfmoon(parsed.number))


@click.command()
@click.argument("code", required=False)
@click.option("--moves", "line", default="", help="Moves like '1+8, 8+5+3' (commas or spaces).")
@click.option("--layout", type=click.Path(dir_okay=False), help="A layout JSON file instead of a CODE.")
@click.option("--all", "show_all", is_flag=True, help="Also list every card left, bottom to top.")
@click.option("--symbols", is_flag=True, help="Show suits as ♣ ♦ ♥ ♠.")
@json_option
def replay(code: str | None, line: str, layout: str | None, show_all: bool, symbols: bool, as_json: bool) -> None:
    """Play the moves on deal CODE and show where they lead.

    An illegal move is an error naming its index and the reason (exit code 3).
    """
    canonical, start = load_position(code, layout)
    result = replay_line(start, line)
    position = result.position
    won, dead = position.is_won, position.is_dead
    if as_json:
        echo_json(
            {"code": canonical, "moves": len(result.moves), "score": result.score, "won": won, "dead": dead}
            | position.to_json()
        )
        return
    state = "won" if won else "dead end (no pair or triple left to take)" if dead else "open"
    click.echo(f"{canonical or 'layout'} after {len(result.moves)} moves: score {result.score}, {state}")
    click.echo(draw_table(position.piles, position.reserve, symbols))
    if show_all:
        click.echo("")
        click.echo(draw_list(position.piles, position.reserve, symbols))
