"""`halfmoon generate` and `halfmoon survey`: curated winnable deals, and winnability over many deals.

Interfaces only: the work is in `solver.survey` (drivers, statistics), `solver.rating`,
`solver.store` (the results store) and `solver.core.batch` (local processes or Dask).
"""

from __future__ import annotations

import signal
import sys
import threading
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

import click

from halfmoon.dealcodes import DEAL_COUNT, parse_code
from halfmoon.dealcodes.codes import parse_number
from halfmoon.solver.core.batch import ExecutorSource, make_source
from halfmoon.solver.errors import InputError
from halfmoon.solver.rating import TIERS
from halfmoon.solver.registry import get_game
from halfmoon.solver.store import DB_ENV, ResultStore, StoredResult, open_store
from halfmoon.solver.survey import (
    SurveyStats,
    histogram_svg,
    parse_range,
    run_generate,
    run_survey,
    sample_numbers,
)

from ..common import echo_json, json_option

game_option = click.option("--game", default="HM", show_default=True, help="Game tag (HM, or another registered solitaire).")
workers_option = click.option("--workers", type=click.IntRange(min=1), default=None,
                              help="Local worker processes (default: all cores).")
dask_option = click.option("--dask", "dask_address", default=None, metavar="ADDRESS",
                           help="Run on an existing Dask cluster (scheduler address, e.g. tcp://host:8786).")
db_option = click.option("--db", "db_path", type=click.Path(dir_okay=False), default=None,
                         help=f"Results store file (default: ${DB_ENV}, else ~/.cache/halfmoon/results.sqlite3).")
no_cache_option = click.option("--no-cache", is_flag=True, help="Neither read nor write the results store.")
quiet_option = click.option("--quiet", is_flag=True, help="No progress line on the terminal.")


def store_for_command(db_path: str | None, no_cache: bool) -> ResultStore | None:
    """The store a command's --db / --no-cache ask for, closed when the command ends."""
    if no_cache:
        return None
    store = open_store(db_path)
    click.get_current_context().call_on_close(store.close)
    return store


def _terminate(signum: int, frame: object) -> None:
    raise KeyboardInterrupt  # stop as Ctrl-C does: what finished is in the store, exit code 130


@contextmanager
def _resources(db_path: str | None, no_cache: bool, workers: int | None, dask_address: str | None
               ) -> Iterator[tuple[ResultStore | None, ExecutorSource]]:
    """The store and the workers of a batch command, released however it ends.

    SIGTERM (what `kill`, batch schedulers and a background `nohup` run get, where SIGINT is
    ignored) stops the run cleanly, like Ctrl-C.
    """
    previous = signal.signal(signal.SIGTERM, _terminate) if threading.current_thread() is threading.main_thread() else None
    store = None if no_cache else open_store(db_path)
    try:
        source = make_source(workers, dask_address)
        try:
            yield store, source
        finally:
            source.close()
    finally:
        if store is not None:
            store.close()
        if previous is not None:
            signal.signal(signal.SIGTERM, previous)


class _Progress:
    """One self-overwriting line on stderr, only when stderr is a terminal."""

    def __init__(self, quiet: bool) -> None:
        self.enabled = not quiet and sys.stderr.isatty()
        self.last = 0.0

    def show(self, text: str, force: bool = False) -> None:
        now = time.monotonic()
        if self.enabled and (force or now - self.last >= 0.25):
            self.last = now
            click.echo(f"\r\x1b[2K{text}", err=True, nl=False)

    def done(self) -> None:
        if self.enabled:
            click.echo("\r\x1b[2K", err=True, nl=False)


def _game(tag: str) -> str:
    return get_game(tag).tag


# -- survey -----------------------------------------------------------------------------------


@click.command()
@click.option("--deals", type=click.IntRange(min=1), default=None, help="How many deals (default 1000, or the --range size).")
@click.option("--range", "range_text", default=None, metavar="A:B", help="Deal numbers A … B-1 (default 0:DEALS).")
@click.option("--sample", type=click.IntRange(min=0), default=None, metavar="SEED",
              help="DEALS distinct deal numbers spread over all deals, chosen by SEED.")
@game_option
@click.option("--time-limit", type=click.FloatRange(min=0, min_open=True), default=None,
              help="Seconds per deal (default: the game's solver default, 60 s for Half Moon).")
@click.option("--node-limit", type=click.IntRange(min=1), default=None, help="Cap on search nodes per deal.")
@workers_option
@dask_option
@db_option
@no_cache_option
@click.option("--each", is_flag=True, help="Also print one line (or JSON object) per deal as it finishes.")
@click.option("--plot", type=click.Path(dir_okay=False), default=None, metavar="FILE.svg",
              help="Write an SVG histogram of the solve times.")
@quiet_option
@json_option
def survey(deals: int | None, range_text: str | None, sample: int | None, game: str, time_limit: float | None,
           node_limit: int | None, workers: int | None, dask_address: str | None, db_path: str | None,
           no_cache: bool, each: bool, plot: str | None, quiet: bool, as_json: bool) -> None:
    """What share of deals can be won: verdict counts, a 95% Wilson interval, solve times.

    Resumable: results go to the store as they finish, so running the same command again
    after an interruption solves only what is missing. --json prints one summary object
    {"deals", "winnable", "unwinnable", "unknown", "share", "ci95": [lo, hi], …} (after the
    per-deal objects with --each).
    """
    tag = _game(game)
    if range_text is not None and sample is not None:
        raise click.UsageError("give --range or --sample, not both")
    if range_text is not None:
        numbers = parse_range(range_text)
        if deals is not None and deals != len(numbers):
            raise click.UsageError(f"--deals {deals} does not match --range {range_text} ({len(numbers)} deals)")
        total, selection = len(numbers), {"range": [numbers.start, numbers.stop]}
        deal_numbers = iter(numbers)
    else:
        total = deals or 1000
        if sample is not None:
            deal_numbers = sample_numbers(sample, total)
            selection = {"sample": sample}
        else:
            if total > DEAL_COUNT:
                raise click.UsageError(f"--deals {total}: there are only {DEAL_COUNT} deals")
            deal_numbers = iter(range(total))
            selection = {"range": [0, total]}
    progress = _Progress(quiet)

    def on_result(result: StoredResult, cached: bool, stats: SurveyStats) -> None:
        if each:
            if as_json:
                echo_json({"code": result.code, "number": result.number, "verdict": result.verdict,
                           "method": result.method, "nodes": result.nodes, "seconds": round(result.seconds, 6),
                           "cached": cached} | ({"error": result.error} if result.error else {}))
            else:
                click.echo(f"{result.code}  {result.verdict:<10}  {result.seconds:8.3f} s"
                           f"{'  (stored)' if cached else ''}{'  ' + result.error if result.error else ''}")
        elapsed = time.monotonic() - stats.started
        solved = stats.deals - stats.cached
        rate = solved / elapsed if elapsed > 0 else 0.0
        eta = (total - stats.deals) / rate if rate > 0 else float("inf")
        progress.show(f"{stats.deals}/{total} deals: {stats.winnable} winnable, {stats.unwinnable} unwinnable, "
                      f"{stats.unknown} unknown ({stats.cached} stored); {rate:.1f} solves/s"
                      + (f", ~{eta / 60:.0f} min left" if eta != float("inf") and solved else ""))

    with _resources(db_path, no_cache, workers, dask_address) as (store, source):
        try:
            stats = run_survey(tag, deal_numbers, source, store=store, time_limit=time_limit, node_limit=node_limit,
                               on_result=on_result)
        finally:
            progress.done()
    summary = stats.summary() | selection
    if plot is not None:
        try:
            Path(plot).write_text(histogram_svg(stats.times, f"{get_game(tag).name}: solve times of "
                                                f"{stats.deals} deals"), encoding="utf-8")
        except OSError as error:
            raise InputError(f"--plot {plot}: cannot write: {error.strerror or error}") from None
    if as_json:
        echo_json(summary)
        return
    _print_summary(summary)


def _pct(x: float | None) -> str:
    return "n/a" if x is None else f"{100 * x:.2f}%"


def _print_summary(s: dict) -> None:
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
    stripped = text.strip()
    if stripped.replace("_", "").isdigit():
        return parse_number(stripped)
    return parse_code(stripped).number


@click.command()
@click.option("--count", type=click.IntRange(min=1), required=True, help="How many deals to emit.")
@click.option("--tier", type=click.Choice(TIERS), default=None, help="Emit only deals of this tier.")
@click.option("--start", "start_text", default=None, metavar="NUMBER",
              help="Scan deal numbers upwards from this number or code (default 0).")
@click.option("--seed", type=click.IntRange(min=0), default=None,
              help="Scan a reproducible spread of deal numbers chosen by SEED instead.")
@click.option("--skip", type=click.IntRange(min=0), default=0, help="With --seed: skip this many deals of the scan.")
@game_option
@workers_option
@dask_option
@db_option
@no_cache_option
@quiet_option
@json_option
def generate(count: int, tier: str | None, start_text: str | None, seed: int | None, skip: int, game: str,
             workers: int | None, dask_address: str | None, db_path: str | None, no_cache: bool, quiet: bool,
             as_json: bool) -> None:
    """Emit COUNT deals proved winnable, with their difficulty rating, in scan order.

    Every deal is solved within node budgets (so the result is the same on every machine),
    its winning line replayed through the rules, and rated. --json prints one object a line:
    {"code", "number", "tier", "score", "random", "greedy", "traps", "positions",
    "first_moves", "first_losing", "unresolved", "nodes", "solve_nodes", "rating_version", "line"}.
    Resumable: ratings are kept in the store; continue a scan with --start (or --skip).
    """
    tag = _game(game)
    if start_text is not None and seed is not None:
        raise click.UsageError("give --start or --seed, not both")
    if skip and seed is None:
        raise click.UsageError("--skip goes with --seed (with --start, start further on)")
    if seed is not None:
        numbers: Iterator[int] = sample_numbers(seed, None, skip)
    else:
        first = _start_number(start_text) if start_text is not None else 0
        numbers = iter(range(first, DEAL_COUNT))
    progress = _Progress(quiet)

    def on_scanned(scanned: int, emitted: int) -> None:
        progress.show(f"scanned {scanned} deals, {emitted}/{count} found", force=True)

    if not as_json:
        click.echo(f"{'code':<15} {'tier':<7} {'score':>5}  {'greedy':>6} {'traps':>6} {'first':>6} {'nodes':>8}")
    with _resources(db_path, no_cache, workers, dask_address) as (store, source):
        try:
            for curated in run_generate(tag, numbers, count, source, tier=tier, store=store, on_scanned=on_scanned):
                progress.done()
                if as_json:
                    echo_json(curated.to_json())
                else:
                    r = curated.rating
                    click.echo(f"{curated.code:<15} {r.tier:<7} {r.score:>5.1f}  {r.greedy_wins:>3}/{r.greedy_playouts:<2}"
                               f" {r.traps:>2}/{r.positions:<3} {r.first_losing:>2}/{r.first_moves:<3} {r.nodes:>8}")
                sys.stdout.flush()
        finally:
            progress.done()

