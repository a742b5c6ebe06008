"""`halfmoon solve` and `halfmoon hint`: exact verdicts, winning lines, and which moves keep a win."""

from __future__ import annotations

import sys
from typing import Iterator

import click

from halfmoon.dealcodes import deal_halfmoon, parse_code
from halfmoon.solver.core.verdicts import DEFAULT_TT_BYTES, Verdict
from halfmoon.solver.games.halfmoon.portfolio import (
    DEFAULT_TIME_LIMIT,
    METHODS,
    SolveResult,
)
from halfmoon.solver.games.halfmoon.portfolio import hint as hint_position
from halfmoon.solver.games.halfmoon.portfolio import solve as solve_position
from halfmoon.solver.games.halfmoon.rules import Move, Position
from halfmoon.solver.games.halfmoon.rules import replay as replay_line
from halfmoon.solver.registry import get_game
from halfmoon.solver.survey import solve_with_store

from ..common import echo_json, json_option, read_json_file
from .curate import db_option, no_cache_option, store_for_command
from .play import load_position
from .rules import family_tag, solve_family_code, solve_family_layout

time_limit_option = click.option(
    "--time-limit",
    type=click.FloatRange(min=0, min_open=True),
    default=DEFAULT_TIME_LIMIT,
    show_default=True,
    help="Seconds per deal; when it runs out the verdict is 'unknown'.",
)


def _codes(arguments: tuple[str, ...]) -> Iterator[str]:
    """The codes given as arguments, with ``-`` standing for codes read from stdin (any spacing)."""
    for argument in arguments:
        if argument == "-":
            for line in sys.stdin:
                yield from line.split()
        else:
            yield argument


def _format_line(position: Position, moves: tuple[Move, ...], symbols: bool) -> list[str]:
    """The winning line, numbered, each move with its card names."""
    rows = []
    current = position
    for number, move in enumerate(moves, start=1):
        cards = "+".join(_card(current, place, symbols) for place in move.places)
        rows.append(f"{number:>4}. {str(move):<10} {cards}")
        current = current.apply(move)
    return rows


def _card(position: Position, place, symbols: bool) -> str:
    card = position.card_at(place)
    return "??" if card is None else card.symbol() if symbols else str(card)


def _print_result(label: str, position: Position, result: SolveResult, as_json: bool, code: str | None,
                  symbols: bool) -> None:
    if as_json:
        echo_json(result.to_json(code))
        return
    click.echo(f"{label}: {result.verdict.value} (method {result.method}, {result.nodes} nodes, {result.seconds:.3f} s)")
    if result.verdict is Verdict.WINNABLE and result.moves is not None:
        click.echo(f"  winning line ({len(result.moves)} moves): {' '.join(map(str, result.moves))}")
        for row in _format_line(position, result.moves, symbols):
            click.echo("  " + row)


@click.command()
@click.argument("codes", nargs=-1)
@click.option("--layout", type=click.Path(dir_okay=False), help="Solve a layout JSON file (the `deal --json` shape).")
@click.option("--rules", "rules_option", default=None,
              help="With --layout: a rule file or preset (elevens, EL, tens…) of the Elevens family.")
@click.option("--method", type=click.Choice(METHODS), default="auto", show_default=True,
              help="auto = search and CP-SAT portfolio.")
@time_limit_option
@click.option("--node-limit", type=click.IntRange(min=1), default=None, help="Cap on search nodes per deal.")
@click.option("--seed", type=click.IntRange(min=0), default=0, show_default=True, help="Tie-break seed.")
@click.option("--memory-mb", type=click.IntRange(min=0), default=DEFAULT_TT_BYTES >> 20, show_default=True,
              help="Cap on the search's transposition tables (MB); hitting it slows, never changes, answers.")
@click.option("--symbols", is_flag=True, help="Show suits as ♣ ♦ ♥ ♠.")
@db_option
@no_cache_option
@json_option
def solve(codes: tuple[str, ...], layout: str | None, rules_option: str | None, method: str, time_limit: float,
          node_limit: int | None,
          seed: int, memory_mb: int, symbols: bool, db_path: str | None, no_cache: bool, as_json: bool) -> None:
    """Decide exactly whether each deal CODE can be won, and show a winning line.

    Give several codes, or '-' to read codes from stdin (one JSON object per code with
    --json). Verdicts: winnable, unwinnable, or unknown (the time or node limit ran out).
    """
    if rules_option is not None:  # the Elevens family: any rule file (cli/commands/rules.py)
        if layout is None or codes:
            raise click.UsageError("--rules goes with --layout FILE (deal codes of EL, SE, TN need no --rules)")
        solve_family_layout(rules_option, read_json_file(layout, "layout"), method, time_limit, node_limit, symbols,
                            as_json)
        return
    if layout is not None:
        if codes:
            raise click.UsageError("give deal CODEs or --layout FILE, not both")
        position = Position.from_json(read_json_file(layout, "layout"))
        result = solve_position(position, method, time_limit, node_limit, seed, memory_mb << 20)
        _print_result("layout", position, result, as_json, None, symbols)
        return
    if not codes:
        raise click.UsageError("give at least one deal CODE, '-' for stdin, or --layout FILE")
    store = store_for_command(db_path, no_cache)  # Half Moon verdicts are read from and kept in the results store
    for text in _codes(codes):
        parsed = parse_code(text)
        if family_tag(parsed.game):
            solve_family_code(parsed.game, parsed.number, str(parsed), method, time_limit, node_limit, symbols, as_json)
            sys.stdout.flush()
            continue
        parsed = parse_code(text, expect_game="HM")
        position = Position.from_deal(deal_halfmoon(parsed.number))
        result, _ = solve_with_store(get_game("HM"), parsed.number, store,
                                     lambda: solve_position(position, method, time_limit, node_limit, seed,
                                                            memory_mb << 20),
                                     time_limit, node_limit)
        _print_result(str(parsed), position, result, as_json, str(parsed), symbols)
        sys.stdout.flush()


@click.command()
@click.argument("code", required=False)
@click.option("--moves", "line", default="", help="Moves already played, like '1+8, 8+5+3'.")
@click.option("--layout", type=click.Path(dir_okay=False), help="A layout JSON file instead of a CODE.")
@time_limit_option
@click.option("--symbols", is_flag=True, help="Show suits as ♣ ♦ ♥ ♠.")
@json_option
def hint(code: str | None, line: str, layout: str | None, time_limit: float, symbols: bool, as_json: bool) -> None:
    """Which moves keep the game winnable, after the moves played so far.

    Solves the position and every position one legal move away (the time limit applies to
    each). --json prints {"code", "played", "verdict", "best", "line", "moves": [{"move",
    "verdict"}, …], "seconds"}.
    """
    canonical, start = load_position(code, layout)
    played = replay_line(start, line)
    position = played.position
    result = hint_position(position, time_limit)
    if as_json:
        echo_json(result.to_json(canonical) | {"played": len(played.moves)})
        return
    label = canonical or "layout"
    click.echo(f"{label} after {len(played.moves)} moves: {result.verdict.value}")
    if position.is_won:
        click.echo("  the game is won")
        return
    if result.best is not None:
        click.echo(f"  best move: {result.best} ({'+'.join(_card(position, p, symbols) for p in result.best.places)})")
    if not result.moves:
        click.echo("  no legal move: dead end")
    for move, verdict in result.moves:
        cards = "+".join(_card(position, p, symbols) for p in move.places)
        mark = {"winnable": "keeps the win", "unwinnable": "loses", "unknown": "unknown (limit hit)"}[verdict.value]
        click.echo(f"  {str(move):<10} {cards:<12} {mark}")
