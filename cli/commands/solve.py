"""`halfmoon solve` and `halfmoon hint`: exact verdicts, winning lines, and which moves keep a win."""

from __future__ import annotations

import dataclasses
from typing import Any, Iterator

import click

from ..common import (
    EXIT_INPUT,
    batch_lines,
    echo_json,
    error_json,
    json_option,
    read_json_file,
)
from ..options import (
    SECONDS,
    db_option,
    engine_option,
    game_option,
    layout_option,
    limit_options,
    limits_of,
    no_cache_option,
    rules_option,
    seed_option,
    store_for,
    symbols_option,
    warn_engine_fallback,
)

_LIMITS_HELP = "default: the game's own, 120 s for Half Moon"


def _symbols(cards: str) -> str:
    import halfmoon

    return "+".join(halfmoon.service.parse_card(card).symbol() for card in cards.split("+"))


def _print_result(result: Any, label: str, symbols: bool) -> None:
    if result.source == "atlas" and result.moves is None:
        click.echo(f"{label}: {result.verdict.value} (from the atlas, solver {result.solver_version}"
                   + (f"; no winning line within the limits: stopped by the {result.stopped} limit" if result.stopped
                      else "") + ")")
        return
    source = "from the store: " if result.source == "store" else ""
    engine = f"{result.engine} engine, " if result.engine else ""
    click.echo(f"{label}: {result.verdict.value} ({source}method {result.method}, {engine}{result.nodes} nodes, "
               f"{result.seconds:.3f} s" + (f", stopped by the {result.stopped} limit" if result.stopped else "") + ")")
    if result.moves is not None:
        count = len(result.moves)
        click.echo(f"  winning line ({count} move{'s' * (count != 1)}): {' '.join(map(str, result.moves))}")
        for number, (move, cards) in enumerate(zip(result.moves, result.cards), start=1):
            click.echo(f"  {number:>4}. {str(move):<10} {_symbols(cards) if symbols else cards}")


def _inputs(codes: tuple[str, ...], range_text: str | None, game: str | None, rules: str | None
            ) -> Iterator[tuple[int | None, str | int]]:
    """What a batch solves: deal codes (arguments, '-' for stdin) or the deal numbers of --range."""
    import halfmoon

    if range_text is not None:
        if game is None and rules is None:
            raise click.UsageError("--range needs --game (e.g. --game HM) or --rules")
        for number in halfmoon.service.parse_range(range_text):
            yield None, number
        return
    yield from batch_lines(codes)


@click.command()
@click.argument("codes", nargs=-1)
@click.option("--range", "range_text", default=None, metavar="A:B", help="Solve deal numbers A … B-1 of --game.")
@game_option
@rules_option
@layout_option
@click.option("--moves", "line", default="", help="Solve the position after these moves (one CODE or --layout).")
@click.option("--method", default=None, help="auto (default: the portfolio), search or cpsat (Half Moon); "
                                               "given: solved afresh, never answered from the store.")
@limit_options(_LIMITS_HELP)
@seed_option
@engine_option
@symbols_option
@db_option
@no_cache_option
@click.option("--atlas", "atlas_dir", envvar="HALFMOON_ATLAS", default=None, metavar="DIR",
              help="A winnability atlas (default: $HALFMOON_ATLAS): decided deals are answered from it "
                   "(unwinnable at once; winnable with --verdict-only, else its line is solved).")
@click.option("--verdict-only", is_flag=True, help="Only the verdict: no winning line (from the atlas when it "
                                                   "has the deal, without solving).")
@json_option
def solve(codes: tuple[str, ...], range_text: str | None, game: str | None, rules: str | None, layout: str | None,
          line: str, method: str | None, time_limit: float | None, node_limit: int | None, memory_mb: int | None,
          seed: int | None, engine: str | None, symbols: bool, db_path: str | None, no_cache: bool,
          atlas_dir: str | None, verdict_only: bool, as_json: bool) -> None:
    """Decide exactly whether each deal can be won (any solitaire), and show a winning line.

    Give deal CODEs (any solitaire: HM, EL, SE, TN), '-' to read codes from stdin (blank and '#'
    lines skipped), --range A:B with --game, or --layout FILE. Verdicts: winnable, unwinnable, or
    unknown (a limit ran out). A bad code is reported (one JSON error object with --json) and the
    batch goes on; the exit status is then 3. Answers come from the results store when it holds
    one that can be trusted (they say so); --method, --seed or --no-cache solve afresh. With an
    atlas (--atlas DIR or $HALFMOON_ATLAS), a deal it has decided is answered from it ("source":
    "atlas" in the JSON): at once when unwinnable or with --verdict-only; a winnable deal's line
    is still solved and replayed.
    """
    import halfmoon

    opened = halfmoon.atlas.open_atlas(atlas_dir) if atlas_dir else None
    if opened is not None:
        click.get_current_context().call_on_close(opened.close)

    limits = limits_of(time_limit, node_limit, memory_mb)
    if layout is not None:
        if codes or range_text:
            raise click.UsageError("give deal CODEs, --range or --layout FILE, not several")
        result = halfmoon.solve(read_json_file(layout, "layout"), moves=line, game=game or ("HM" if rules is None else None),
                                rules=rules, method=method, limits=limits, seed=seed, engine=engine)
        warn_engine_fallback(result, engine)
        echo_json(result.to_json()) if as_json else _print_result(result, "layout", symbols)
        return
    if not codes and range_text is None:
        raise click.UsageError("give at least one deal CODE, '-' for stdin, --range A:B, or --layout FILE")
    if line.strip() and (len(codes) != 1 or codes == ("-",)):
        raise click.UsageError("--moves goes with one deal CODE")
    store = store_for(db_path, no_cache)
    failed = 0
    for number, item in _inputs(codes, range_text, game, rules):
        try:
            result = halfmoon.solve(item, moves=line, game=game, rules=rules, method=method, limits=limits, seed=seed,
                                    store=store, atlas=opened, verdict_only=verdict_only, engine=engine)
            warn_engine_fallback(result, engine)
        except ValueError as error:
            if not isinstance(item, str):
                raise
            failed += 1
            where: dict[str, Any] = {"input": item} | ({"line": number} if number is not None else {})
            if as_json:
                echo_json(error_json(error, where))
            else:
                click.echo(f"error: {'line ' + str(number) + ': ' if number is not None else ''}{error}", err=True)
            continue
        data = result.to_json()
        if verdict_only and result.moves is not None:
            data |= {"moves": None, "cards": None}
            result = dataclasses.replace(result, moves=None, cards=None)
        echo_json(data) if as_json else _print_result(result, result.code or str(item), symbols)
    if failed:  # each bad input was reported where it stood; the batch went on past it
        click.get_current_context().exit(EXIT_INPUT)


def _start_of(code: str | None, layout: str | None, game: str | None, rules: str | None) -> tuple[Any, str | None]:
    """What a one-position command starts from: a deal CODE or a --layout file (Half Moon's unless told)."""
    if (code is None) == (layout is None):
        raise click.UsageError("give a deal CODE or --layout FILE (one of them)")
    if layout is not None:
        return read_json_file(layout, "layout"), game or ("HM" if rules is None else None)
    return code, game


@click.command()
@click.argument("code", required=False)
@click.option("--moves", "line", default="", help="Moves already played, like '1+8, 8+5+3'.")
@game_option
@rules_option
@layout_option
@click.option("--visible", is_flag=True,
              help="A fair hint: judge from what a player sees (pile tops and heights, the reserve, the cards "
                   "removed), sampling the hidden cards; without it the hint knows every card.")
@click.option("--samples", type=click.IntRange(1, 1000), default=None,
              help="With --visible: arrangements of the hidden cards to sample (default 40).")
@click.option("--budget", type=SECONDS, default=None, metavar="SECONDS",
              help="With --visible: seconds for the whole hint; sampling stops there, said so (default 60).")
@limit_options(_LIMITS_HELP + "; applies to each position solved, and an exact hint spends at most 4 times it in "
                              "all (with --visible: 5 s and 20000 nodes)")
@seed_option
@engine_option
@symbols_option
@json_option
def hint(code: str | None, line: str, game: str | None, rules: str | None, layout: str | None, visible: bool,
         samples: int | None, budget: float | None, time_limit: float | None, node_limit: int | None,
         memory_mb: int | None, seed: int | None, engine: str | None, symbols: bool, as_json: bool) -> None:
    """Which moves keep the game winnable, after the moves played so far.

    Exact by default: the solver sees every card, the hidden ones too, and solves the position
    and every position one legal move away (the limits apply to each; the whole hint spends at
    most 4 times them, and moves it did not reach are 'unknown'). --json prints {"code",
    "game", "played", "verdict", "best", "line", "moves": [{"move", "cards", "verdict"}, …],
    "seconds", "sees": "every card"}.

    With --visible, a fair hint from what a player sees: the hidden cards are dealt again at
    random (--samples times, seeded by --seed, default 0: same seed, same answer), consistently
    with what is visible, and each arrangement is solved exactly; for each move, the share of
    arrangements in which the game stays winnable, with a 95% interval. --json prints {"sees":
    "what the player sees", "samples", "hidden", "position": {…}, "moves": [{"move", "cards",
    "winnable", "unwinnable", "unknown", "share", "low", "high"}, …], …}.
    """
    import halfmoon

    start, game = _start_of(code, layout, game, rules)
    limits = limits_of(time_limit, node_limit, memory_mb)
    if not visible:
        if samples is not None or budget is not None:
            raise click.UsageError("--samples and --budget go with --visible")
        _print_hint(halfmoon.hint(start, moves=line, game=game, rules=rules, limits=limits, seed=seed, engine=engine),
                    symbols, as_json)
        return
    options: dict[str, Any] = {"samples": samples} if samples is not None else {}
    if budget is not None:
        options["budget"] = budget
    fair = halfmoon.fair_hint(start, moves=line, game=game, rules=rules, limits=limits, seed=seed or 0, **options)
    if as_json:
        echo_json(fair.to_json())
        return
    label = fair.code or "layout"
    whole = fair.position
    click.echo(f"{label} after {fair.played} move{'s' * (fair.played != 1)}: fair hint, from what a player sees "
               f"({fair.hidden} hidden card{'s' * (fair.hidden != 1)}, {whole.samples} arrangement"
               f"{'s' * (whole.samples != 1)} sampled, seed {fair.seed})")
    if fair.stopped:
        click.echo(f"  stopped by the {fair.budget:g} s budget after {whole.samples} of {fair.asked} samples")
    click.echo(f"  winnable now in {_share(whole)}")
    if not fair.moves:
        click.echo("  no legal move: " + ("the game is won" if fair.hidden == 0 and whole.winnable else "dead end"))
    for move in sorted(fair.moves, key=lambda m: -(m.tally.share or 0)):
        cards = _symbols(move.cards) if symbols else move.cards
        click.echo(f"  {str(move.move):<10} {cards:<12} keeps the win in {_share(move.tally)}")


def _share(tally: Any) -> str:
    low, high = tally.interval
    share = "–" if tally.share is None else f"{100 * tally.share:.0f}%"
    unknown = f", {tally.unknown} unknown" if tally.unknown else ""
    return (f"{share} ({tally.winnable} of {tally.samples}{unknown}; 95% interval {100 * low:.0f}–{100 * high:.0f}%)")


def _print_hint(result: Any, symbols: bool, as_json: bool) -> None:
    if as_json:
        echo_json(result.to_json())
        return
    label = result.code or "layout"
    click.echo(f"{label} after {result.played} move{'s' * (result.played != 1)}: {result.verdict.value} "
               f"(every card known)")
    if result.verdict.value == "winnable" and not result.moves and result.line == ():
        click.echo("  the game is won")
        return
    if result.best is not None:
        best = next(m for m in result.moves if m.move == result.best)
        click.echo(f"  best move: {result.best} ({_symbols(best.cards) if symbols else best.cards})")
    if not result.moves:
        click.echo("  no legal move: dead end")
    words = {"winnable": "keeps the win", "unwinnable": "loses", "unknown": "unknown (limit hit)"}
    for move in result.moves:
        cards = _symbols(move.cards) if symbols else move.cards
        click.echo(f"  {str(move.move):<10} {cards:<12} {words[move.verdict.value]}")


@click.command()
@click.argument("code", required=False)
@click.option("--moves", "line", required=True, help="The moves played, like '1+8, 8+5+3'.")
@game_option
@rules_option
@layout_option
@limit_options(_LIMITS_HELP + "; applies to each position solved")
@seed_option
@symbols_option
@json_option
def analyze(code: str | None, line: str, game: str | None, rules: str | None, layout: str | None,
            time_limit: float | None, node_limit: int | None, memory_mb: int | None, seed: int | None,
            symbols: bool, as_json: bool) -> None:
    """Where did I go wrong: the first move after which the game could no longer be won.

    Winnability only goes from winnable to unwinnable along a line, so a binary search over the
    prefixes finds the move with a handful of exact solves (every card known). Then every legal
    move at that point is rated: the ones that would have kept the game winnable. --json prints
    {"code", "game", "played", "status": "lost"|"never-lost"|"deal-unwinnable"|"unknown",
    "lost_at", "move", "cards", "keeping", "moves": [{"move", "cards", "verdict"}], "line",
    "last_winnable", "first_unwinnable", "checked", "seconds", "sees": "every card"}.
    """
    import halfmoon

    start, game = _start_of(code, layout, game, rules)
    result = halfmoon.analyze(start, moves=line, game=game, rules=rules,
                              limits=limits_of(time_limit, node_limit, memory_mb), seed=seed)
    if as_json:
        echo_json(result.to_json())
        return
    label = result.code or "layout"
    count = f"{result.played} move{'s' * (result.played != 1)}"
    if result.status == "never-lost":
        click.echo(f"{label}, {count}: never lost: the game was winnable after every move (every card known)")
        return
    if result.status == "deal-unwinnable":
        click.echo(f"{label}, {count}: the deal could not be won from the start: no move was a mistake")
        return
    if result.status == "unknown":
        low = "?" if result.last_winnable is None else result.last_winnable
        high = "?" if result.first_unwinnable is None else result.first_unwinnable
        click.echo(f"{label}, {count}: unknown (a solver limit was hit): lost after move {low} "
                   f"and by move {high}, as far as was decided")
        return
    assert result.lost_cards is not None  # a lost game names the move that lost it
    cards = _symbols(result.lost_cards) if symbols else result.lost_cards
    click.echo(f"{label}, {count}: lost at move {result.lost_at}, {result.lost_move} ({cards}): winnable before it, "
               f"not after (every card known)")
    keeping = result.keeping
    click.echo(f"  moves that kept the win there: {' '.join(str(m.move) for m in keeping) or 'none'}")
    for move in result.moves:
        cards = _symbols(move.cards) if symbols else move.cards
        word = {"winnable": "keeps the win", "unwinnable": "loses", "unknown": "unknown (limit hit)"}[
            move.verdict.value]
        click.echo(f"  {str(move.move):<10} {cards:<12} {word}")
