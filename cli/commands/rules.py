"""`halfmoon rules`: the Elevens family's rule files (list, show, check) and their deals."""

from __future__ import annotations

from typing import Any

import click

from halfmoon.dealcodes import parse_code
from halfmoon.solver.games.family.presets import (
    load_preset,
    preset_for_tag,
    preset_names,
    preset_text,
)
from halfmoon.solver.games.family.rules import Game, Position
from halfmoon.solver.games.family.schema import RuleSet, load_rules

from ..common import echo_json, json_option


def rules_from_option(value: str) -> RuleSet:
    """``--rules`` takes a preset (name or tag) or a rule file path."""
    if value.lower().endswith((".json", ".toml")) or "/" in value:
        return load_rules(value)
    return load_preset(value)


def summary(rules: RuleSet) -> dict[str, Any]:
    return {
        "name": rules.name,
        "tag": rules.tag,
        "deck": rules.deck_size,
        "piles": rules.piles,
        "depths": sorted(set(rules.depths)),
        "reserve": rules.reserve,
        "stock": rules.stock_size,
        "removals": [rule.describe() for rule in rules.removals],
        "win": rules.win,
    }


def summary_line(rules: RuleSet) -> str:
    depth = "/".join(map(str, sorted(set(rules.depths))))
    places = f"{rules.piles} piles of {depth}" + (f", {rules.reserve} reserve" if rules.reserve else "")
    stock = f", stock {rules.stock_size} ({rules.refill})" if rules.stock_size else ", no stock"
    return f"{places}{stock}; removes {'; '.join(r.describe() for r in rules.removals)}; win: {rules.win}"


def draw_position(rules: RuleSet, position: Position, symbols: bool = False) -> str:
    """Single-card places as a grid (rows of `columns`), deeper piles as lists; then reserve and stock."""
    def name(card: Any) -> str:
        return "··" if card is None else card.symbol() if symbols else str(card)

    lines = []
    if all(depth == 1 for depth in rules.depths):
        columns = rules.columns or rules.piles
        for row in range(0, rules.piles, columns):
            cells = []
            for index in range(row, min(row + columns, rules.piles)):
                pile = position.piles[index]
                cells.append(f"{index + 1:>2}:{name(pile[-1] if pile else None)}")
            lines.append("  ".join(cells))
    else:
        for index, pile in enumerate(position.piles, start=1):
            lines.append(f"{index:>3}: {' '.join(map(name, pile)) or '(empty)'}")
    if position.reserve:
        lines.append("  R: " + " ".join(name(c) for c in position.reserve))
    if rules.stock_size:
        lines.append(f"  stock ({len(position.stock)}, next first): " + (" ".join(map(name, position.stock)) or "(empty)"))
    return "\n".join(lines)


@click.group()
def rules() -> None:
    """Rule files of the Elevens family: Half Moon, Elevens, Suit Elevens, Tens, or your own."""


@rules.command(name="list")
@json_option
def list_rules(as_json: bool) -> None:
    """List the preset rule files.

    --json prints one object per preset: {"preset", "name", "tag", "deck", "piles", "depths",
    "reserve", "stock", "removals", "win"}.
    """
    for stem in preset_names():
        preset = load_preset(stem)
        if as_json:
            echo_json({"preset": stem} | summary(preset))
        else:
            click.echo(f"{stem:<13} {preset.tag or '--':<3} {preset.name}: {summary_line(preset)}")


@rules.command()
@click.argument("preset")
@json_option
def show(preset: str, as_json: bool) -> None:
    """Print PRESET's rule file (a name such as 'elevens' or a tag such as EL).

    The text is the file as shipped: copy it to start a rule file of your own. --json prints
    the canonical form of the validated rules.
    """
    rules_set = load_preset(preset)
    if as_json:
        echo_json(rules_set.to_json())
    else:
        click.echo(preset_text(preset).rstrip("\n"))


@rules.command()
@click.argument("file", type=click.Path(dir_okay=False))
@json_option
def check(file: str, as_json: bool) -> None:
    """Validate a rule FILE (JSON or TOML); a bad file is one line naming the key (exit 3)."""
    rules_set = load_rules(file)
    if as_json:
        echo_json({"ok": True} | summary(rules_set))
    else:
        click.echo(f"ok: {rules_set.name}: {summary_line(rules_set)}")


@rules.command(name="deal")
@click.argument("code")
@click.option("--symbols", is_flag=True, help="Show suits as ♣ ♦ ♥ ♠.")
@json_option
def deal_command(code: str, symbols: bool, as_json: bool) -> None:
    """Show the deal CODE of a preset (EL1-N-…, SE1-N-…, TN1-N-…, HM1-N-…).

    --json prints the layout file shape {"code", "game", "piles", "reserve", "stock"}, which
    `halfmoon solve --rules PRESET --layout FILE` reads back.
    """
    parsed = parse_code(code)
    rules_set = preset_for_tag(parsed.game)
    position = Game(rules_set).deal(parsed.number)
    if as_json:
        echo_json({"code": str(parsed), "game": rules_set.name} | position.to_json())
        return
    click.echo(f"{parsed}  ({rules_set.name}, deal number {parsed.number})")
    click.echo(draw_position(rules_set, position, symbols))



@rules.command(name="replay")
@click.argument("code", required=False)
@click.option("--moves", "line", default="", help="Moves like '1+5, 2+4+9' (commas or spaces).")
@click.option("--rules", "rules_option", default=None, help="With --layout: a rule file or preset name/tag.")
@click.option("--layout", type=click.Path(dir_okay=False), help="A layout JSON file instead of a CODE.")
@click.option("--symbols", is_flag=True, help="Show suits as ♣ ♦ ♥ ♠.")
@json_option
def replay_command(code: str | None, line: str, rules_option: str | None, layout: str | None, symbols: bool,
                   as_json: bool) -> None:
    """Play moves on a family deal CODE (or --rules R --layout FILE) and show where they lead.

    An illegal move is an error naming its index and the reason (exit 3). --json prints
    {"code", "game", "moves", "status": "won"|"dead"|"open", "piles", "reserve", "stock"}.
    """
    from ..common import read_json_file

    if (code is None) == (layout is None):
        raise click.UsageError("give a deal CODE or --rules R --layout FILE (one of them)")
    if layout is not None:
        if rules_option is None:
            raise click.UsageError("--layout needs --rules (a rule file or preset)")
        rules_set = rules_from_option(rules_option)
        start = Game(rules_set).layout_from_json(read_json_file(layout, "layout"))
        canonical = None
    else:
        parsed = parse_code(code)
        rules_set = preset_for_tag(parsed.game)
        start = Game(rules_set).deal(parsed.number)
        canonical = str(parsed)
    game = Game(rules_set)
    played = game.replay(start, line)
    status = game.status(played.position)
    if as_json:
        echo_json({"code": canonical, "game": rules_set.name, "moves": len(played.moves), "status": status}
                  | played.position.to_json())
        return
    click.echo(f"{canonical or 'layout'} ({rules_set.name}) after {len(played.moves)} moves: {status}")
    click.echo(draw_position(rules_set, played.position, symbols))

# -- the family path of `halfmoon solve` (called from cli/commands/solve.py) -----------------


def family_tag(tag: str) -> bool:
    """Whether deal codes with this tag are solved by the family solver (EL, SE, TN)."""
    from halfmoon.solver.games.family.adapter import FAMILY_TAGS

    return tag in FAMILY_TAGS


def solve_family(rules_set: RuleSet, position: Position, code: str | None, method: str, time_limit: float | None,
                 node_limit: int | None, symbols: bool, as_json: bool) -> None:
    """Solve one family position and print the verdict and the replayed winning line."""
    from halfmoon.solver.games.family.search import solve_position

    result = solve_position(rules_set, position, time_limit=time_limit, node_limit=node_limit, method=method)
    if as_json:
        echo_json(result.to_json(code))
        return
    label = code or "layout"
    click.echo(f"{label}: {result.verdict.value} ({rules_set.name}, method {result.method}, "
               f"{result.nodes} nodes, {result.seconds:.3f} s)")
    if result.line is not None:
        click.echo(f"  winning line ({len(result.line)} moves): {' '.join(map(str, result.line))}")
        for number, (move, cards) in enumerate(zip(result.line, result.cards or ()), start=1):
            if symbols:
                cards = "+".join(_symbol(c) for c in cards.split("+"))
            click.echo(f"  {number:>4}. {str(move):<10} {cards}")


def _symbol(card: str) -> str:
    from halfmoon.dealcodes import parse_card

    return parse_card(card).symbol()


def solve_family_layout(rules_option: str, layout_data: Any, method: str, time_limit: float | None,
                        node_limit: int | None, symbols: bool, as_json: bool) -> None:
    """`halfmoon solve --rules FILE --layout FILE`: a custom deal under any rule file."""
    rules_set = rules_from_option(rules_option)
    position = Game(rules_set).layout_from_json(layout_data)
    solve_family(rules_set, position, None, method, time_limit, node_limit, symbols, as_json)


def solve_family_code(tag: str, number: int, code: str, method: str, time_limit: float | None,
                      node_limit: int | None, symbols: bool, as_json: bool) -> None:
    """`halfmoon solve EL1-N-…`: a preset's deal by its code."""
    rules_set = preset_for_tag(tag)
    solve_family(rules_set, Game(rules_set).deal(number), code, method, time_limit, node_limit, symbols, as_json)
