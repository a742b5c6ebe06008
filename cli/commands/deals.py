"""`halfmoon games`, `halfmoon deal` and `halfmoon code`: the catalogue, dealt positions, codes and numbers."""

from __future__ import annotations

import click

from ..common import echo_json, json_option, read_json_file
from ..options import game_option, layout_option, rules_option, symbols_option


@click.command()
@json_option
def games(as_json: bool) -> None:
    """List every game: its tag, name, kind (solitaire or multiplayer) and what can be asked of it."""
    import halfmoon

    for game in halfmoon.games():
        if as_json:
            echo_json(game.to_json())
        else:
            players = "" if game.kind == "solitaire" else f", {game.players[0]}-{game.players[1]} players"
            click.echo(f"{game.tag}  {game.name:<17} {game.title} ({game.kind}{players}): {', '.join(game.questions)}")


@click.command()
@click.argument("code", required=False)
@game_option
@rules_option
@layout_option
@click.option("--all", "show_all", is_flag=True, help="Also list every card of every place, bottom to top.")
@symbols_option
@json_option
def deal(code: str | None, game: str | None, rules: str | None, layout: str | None, show_all: bool, symbols: bool,
         as_json: bool) -> None:
    """Show the deal CODE (any game) as it is laid out; CODE may be a deal number with --game or --rules.

    --json prints {"code", "game", "number", …the position}; for a solitaire that is the layout
    file shape that --layout reads back.
    """
    import halfmoon

    if (code is None) == (layout is None):
        raise click.UsageError("give a deal CODE (or number) or --layout FILE (one of them)")
    start = read_json_file(layout, "layout") if layout is not None else _code_or_number(code)
    dealt = halfmoon.deal(start, game=game, rules=rules)
    if as_json:
        echo_json(dealt.to_json())
        return
    head = dealt.code or "layout"
    click.echo(f"{head}  ({dealt.title}" + (f", deal number {dealt.number})" if dealt.number is not None else ")"))
    click.echo(dealt.describe(symbols, show_all))


def _code_or_number(text: str | None) -> str | int:
    assert text is not None
    stripped = text.strip().replace("_", "")
    return int(stripped) if stripped.isdigit() else text


@click.command()
@click.argument("value", required=False)
@click.option("--game", default="HM", show_default=True, help="Game tag or name when VALUE is a deal number.")
@click.option("--variant", default=None, help="Variant when VALUE is a number (e.g. the player count; default: the game's first).")
@click.option("--range", "range_text", default=None, metavar="A:B", help="The codes of deal numbers A … B-1, one a line.")
@json_option
def code(value: str | None, game: str, variant: str | None, range_text: str | None, as_json: bool) -> None:
    """Convert a deal number to its code, or a code to its number.

    VALUE is a number (0 … 8031810175) or a code such as HM1-N-AAAAAAB; --range A:B lists many.
    """
    import halfmoon

    if (value is None) == (range_text is None):
        raise click.UsageError("give a VALUE or --range A:B (one of them)")
    if range_text is not None:
        for number in halfmoon.service.parse_range(range_text):
            text = halfmoon.code(number, game, variant)
            echo_json({"code": text, "number": number}) if as_json else click.echo(text)
        return
    assert value is not None
    if value.strip().replace("_", "").isdigit():
        text, number = halfmoon.code(value, game, variant), int(value.strip().replace("_", ""))
        shown: str | int = text
    else:
        parsed = halfmoon.service.parse_code(value)
        text, number = str(parsed), parsed.number
        shown = number
    if as_json:
        echo_json({"code": text, "number": number})
    else:
        click.echo(shown)
