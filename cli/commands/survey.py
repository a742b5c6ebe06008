"""`halfmoon survey` and `halfmoon generate`: winnability over many deals, and curated winnable deals.

Interfaces only: `halfmoon.service.survey` and `halfmoon.service.generate` do the work (local processes or Dask,
the results store, the rating); this module parses options, shows progress and prints.
"""

from __future__ import annotations

from contextlib import contextmanager
from pathlib import Path
from typing import Any, Iterator

import click

from ..common import Progress, echo_json, json_option, stop_on_sigterm
from ..options import (
    dask_option,
    db_option,
    engine_option,
    limit_options,
    limits_of,
    no_cache_option,
    quiet_option,
    rules_option,
    warn_if_readonly,
    workers_option,
)

TIERS = ("easy", "medium", "hard", "expert")
game_option = click.option("--game", default="HM", show_default=True,
                           help="Game tag or name of a solitaire (HM, EL, SE, TN).")


@contextmanager
def _batch(db_path: str | None, no_cache: bool) -> Iterator[Any]:
    """The store of a batch command, closed however it ends; SIGTERM stops the run as Ctrl-C does.

    (What `kill`, batch schedulers and a background `nohup` run send, where SIGINT is ignored.)
    """
    import halfmoon

    with stop_on_sigterm():
        store = None if no_cache else halfmoon.service.open_store(db_path)
        if store is not None:
            warn_if_readonly(store)
        try:
            yield store
        finally:
            if store is not None:
                store.close()


# -- survey -----------------------------------------------------------------------------------


@click.command()
@click.option("--deals", type=click.IntRange(min=1), default=None, help="How many deals (default 1000, or the --range size).")
@click.option("--range", "range_text", default=None, metavar="A:B", help="Deal numbers A … B-1 (default 0:DEALS).")
@click.option("--sample", type=click.IntRange(min=0), default=None, metavar="SEED",
              help="DEALS distinct deal numbers spread over all deals, chosen by SEED.")
@game_option
@rules_option
@click.option("--method", default=None, help="The solving method (default: the game's portfolio).")
@limit_options("default: the game's own, 120 s for Half Moon")
@engine_option
@workers_option
@dask_option
@db_option
@no_cache_option
@click.option("--each", is_flag=True, help="Also print one line (or JSON object) per deal as it finishes.")
@click.option("--plot", type=click.Path(dir_okay=False), default=None, metavar="FILE.svg",
              help="Write an SVG histogram of the solve times.")
@quiet_option
@json_option
def survey(deals: int | None, range_text: str | None, sample: int | None, game: str, rules: str | None,
           method: str | None, time_limit: float | None, node_limit: int | None, memory_mb: int | None,
           engine: str | None, workers: int | None, dask_address: str | None, db_path: str | None, no_cache: bool, each: bool,
           plot: str | None, quiet: bool, as_json: bool) -> None:
    """What share of deals can be won: verdict counts, a 95% Wilson interval, solve times.

    Any solitaire (--game HM, EL, SE, TN) or a rule file of your own (--rules FILE). Resumable:
    results go to the store as they finish, so running the same command again after an
    interruption solves only what is missing. --json prints one summary object {"game", "deals",
    "winnable", "unwinnable", "unknown", "share", "ci95": [lo, hi], …} (after the per-deal
    objects with --each).
    """
    import halfmoon

    if range_text is not None and sample is not None:
        raise click.UsageError("give --range or --sample, not both")
    if plot is not None and not plot.lower().endswith(".svg"):
        raise click.UsageError(f"--plot {plot}: the histogram is an SVG file; give a name ending in .svg")
    if range_text is not None:
        numbers = halfmoon.service.parse_range(range_text)
        if deals is not None and deals != len(numbers):
            raise click.UsageError(f"--deals {deals} does not match --range {range_text} ({len(numbers)} deals)")
        selection: dict[str, Any] = {"range": [numbers.start, numbers.stop]}
        total, deal_numbers = len(numbers), iter(numbers)
    else:
        total = deals or 1000
        if sample is not None:
            deal_numbers, selection = halfmoon.service.sample_numbers(sample, total), {"sample": sample}
        else:
            numbers = halfmoon.service.parse_range(f"0:{total}")
            deal_numbers, selection = iter(numbers), {"range": [0, total]}
    limits = limits_of(time_limit, node_limit, memory_mb)
    progress = Progress(quiet)

    def on_result(result: Any, cached: bool, stats: Any) -> None:
        if each:
            if as_json:
                echo_json({"code": result.code, "number": result.number, "verdict": result.verdict,
                           "method": result.method, "nodes": result.nodes, "seconds": round(result.seconds, 6),
                           "stopped": result.stopped, "cached": cached} | ({"error": result.error} if result.error else {}))
            else:
                click.echo(f"{result.code}  {result.verdict:<10}  {result.seconds:8.3f} s"
                           f"{'  (stored)' if cached else ''}{'  ' + result.error if result.error else ''}")
        progress.show(f"{stats.deals}/{total} deals: {stats.winnable} winnable, {stats.unwinnable} unwinnable, "
                      f"{stats.unknown} unknown ({stats.cached} stored)", stats.deals, total)

    with _batch(db_path, no_cache) as store:
        try:
            stats = halfmoon.service.survey(game, deal_numbers, rules=rules, workers=workers, dask=dask_address,
                                            store=store, limits=limits, method=method, on_result=on_result)
        finally:
            progress.done()
    summary = stats.summary() | selection
    if plot is not None:
        try:
            Path(plot).write_text(stats.histogram_svg(f"{summary['game']}: solve times of {stats.deals} deals"),
                                  encoding="utf-8")
        except OSError as error:
            raise halfmoon.InputError(f"--plot {plot}: cannot write: {error.strerror or error}") from None
    if as_json:
        echo_json(summary)
        return
    _print_summary(summary)


def _pct(x: float | None) -> str:
    return "n/a" if x is None else f"{100 * x:.2f}%"


def _print_summary(s: dict[str, Any]) -> None:
    lo, hi = s["ci95"]
    both_lo, both_hi = s["ci95_unknowns_both_ways"]
    click.echo(f"{s['game']} survey of {s['deals']} deals (solver {s['solver_version']})")
    click.echo(f"  winnable    {s['winnable']:>8}")
    click.echo(f"  unwinnable  {s['unwinnable']:>8}")
    click.echo(f"  unknown     {s['unknown']:>8}" + (f"  ({s['errors']} failed runs)" if s["errors"] else ""))
    click.echo(f"  winnable share {_pct(s['share'])} of decided deals, 95% CI {_pct(lo)} – {_pct(hi)}")
    if s["unknown"]:
        click.echo(f"  counting unknowns both ways: {_pct(both_lo)} – {_pct(both_hi)}")
    t = s["solve_seconds"]
    if t.get("n"):
        click.echo(f"  solve seconds: median {t['median']:.3g}, p90 {t['p90']:.3g}, p99 {t['p99']:.3g}, "
                   f"max {t['max']:.3g}, total {t['total']:.1f}")
    click.echo(f"  {s['cached']} from the store, {s['solved']} solved now, {s['wall_seconds']:.1f} s wall clock")


# -- generate ---------------------------------------------------------------------------------


def _start_number(text: str) -> int:
    """--start takes a deal number or a deal code."""
    import halfmoon

    stripped = text.strip().replace("_", "")
    return int(halfmoon.service.parse_range(f"{stripped}:{int(stripped) + 1}").start) if stripped.isdigit() \
        else halfmoon.service.number(text)


@click.command()
@click.option("--count", type=click.IntRange(min=1), required=True, help="How many deals to emit.")
@click.option("--tier", type=click.Choice(TIERS), default=None, help="Emit only deals of this tier.")
@click.option("--start", "start_text", default=None, metavar="NUMBER",
              help="Scan deal numbers upwards from this number or code (default 0).")
@click.option("--seed", type=click.IntRange(min=0), default=None,
              help="Scan a reproducible spread of deal numbers chosen by SEED instead.")
@click.option("--skip", type=click.IntRange(min=0), default=0, help="With --seed: skip this many deals of the scan.")
@click.option("--max-scan", type=click.IntRange(min=1), default=None,
              help="Stop after scanning this many deals, however many were found.")
@game_option
@rules_option
@engine_option
@workers_option
@dask_option
@db_option
@no_cache_option
@quiet_option
@json_option
def generate(count: int, tier: str | None, start_text: str | None, seed: int | None, skip: int, max_scan: int | None,
             game: str, rules: str | None, engine: str | None, workers: int | None, dask_address: str | None, db_path: str | None,
             no_cache: bool, quiet: bool, as_json: bool) -> None:
    """Emit COUNT deals proved winnable, with their difficulty rating, in scan order.

    Every deal is solved within node budgets (so the result is the same on every machine),
    its winning line replayed through the rules, and rated. --json prints one object a line:
    {"code", "number", "tier", "score", "random", "greedy", "traps", "positions",
    "first_moves", "first_losing", "unresolved", "nodes", "solve_nodes", "rating_version", "line"}
    (the line as a list of moves). Resumable: ratings are kept in the store; continue a scan
    with --start (or --skip). A tier the game's deals cannot reach is refused at once.
    """
    import halfmoon

    if start_text is not None and seed is not None:
        raise click.UsageError("give --start or --seed, not both")
    if skip and seed is None:
        raise click.UsageError("--skip goes with --seed (with --start, start further on)")
    if seed is not None:
        numbers: Any = halfmoon.service.sample_numbers(seed, None, skip)
    else:
        first = _start_number(start_text) if start_text is not None else 0
        numbers = range(first, halfmoon.service.DEAL_COUNT)
    progress = Progress(quiet)

    def on_scanned(scanned: int, emitted: int) -> None:
        progress.show(f"scanned {scanned} deals, {emitted}/{count} found", scanned,
                      round(scanned * count / emitted) if emitted else None, force=True)

    found = 0
    with _batch(db_path, no_cache) as store:
        try:
            for curated in halfmoon.service.generate(game, count, tier=tier, numbers=numbers, rules=rules,
                                                     workers=workers, dask=dask_address, store=store, max_scan=max_scan,
                                                     on_scanned=on_scanned):
                progress.done()
                if as_json:
                    echo_json(curated.to_json())
                else:
                    if not found:
                        click.echo(f"{'code':<15} {'tier':<7} {'score':>5}  {'greedy':>6} {'traps':>6} {'first':>6} "
                                   f"{'nodes':>8}")
                    r = curated.rating
                    click.echo(f"{curated.code:<15} {r.tier:<7} {r.score:>5.1f}  {r.greedy_wins:>3}/{r.greedy_playouts:<2}"
                               f" {r.traps:>2}/{r.positions:<3} {r.first_losing:>2}/{r.first_moves:<3} {r.nodes:>8}")
                found += 1
        finally:
            progress.done()
    if found < count:
        click.echo(f"found {found} of {count} deals within the scan", err=True)
