"""`halfmoon deal` and `halfmoon code`: showing deals and converting codes and numbers."""

from __future__ import annotations

import click

from halfmoon.dealcodes import DealCode, deal_from_code, parse_code, parse_number
from halfmoon.dealcodes.codes import known_games

from ..common import echo_json, json_option
from ..render import draw_list, draw_table


@click.command()
@click.argument("code")
@click.option("--all", "show_all", is_flag=True, help="Also list every card of every pile, bottom to top.")
@click.option("--symbols", is_flag=True, help="Show suits as ♣ ♦ ♥ ♠.")
@json_option
def deal(code: str, show_all: bool, symbols: bool, as_json: bool) -> None:
    """Show the Half Moon deal CODE as the app lays it out."""
    dealt = deal_from_code(code)
    if as_json:
        echo_json(dealt.to_json())
        return
    click.echo(f"{dealt.code}  (deal number {dealt.number})")
    click.echo(draw_table(dealt.piles, dealt.reserve, symbols))
    if show_all:
        click.echo("\nPiles, bottom to top (the last card is playable):")
        click.echo(draw_list(dealt.piles, dealt.reserve, symbols))


@click.command()
@click.argument("value")
@click.option("--game", default="HM", show_default=True, help="Game tag when VALUE is a deal number.")
@click.option("--variant", default=None, help="Variant when VALUE is a number (default: the game's first).")
@json_option
def code(value: str, game: str, variant: str | None, as_json: bool) -> None:
    """Convert a deal number to its code, or a code to its number.

    VALUE is a number (0 … 8031810175) or a code such as HM1-N-AAAAAAB.
    """
    if value.strip().isdigit():
        number = parse_number(value)
        games = known_games()
        tag = game.strip().upper()
        if tag not in games:
            raise click.BadParameter(f"unknown game tag {game!r}, expected one of {', '.join(sorted(games))}")
        codec = games[tag]
        parsed = DealCode(tag, max(codec.versions), variant or codec.variants[0], number)
    else:
        parsed = parse_code(value)
    if as_json:
        echo_json({"code": str(parsed), "number": parsed.number})
    else:
        click.echo(parsed.number if not value.strip().isdigit() else str(parsed))
