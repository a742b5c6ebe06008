"""`halfmoon atlas build|lookup|stats|verify|merge`: the winnability atlas (docs/atlas.md).

Interfaces only: the `halfmoon.atlas` functions do the work; this module parses
options, shows progress and prints. Every subcommand takes --json.
"""

from __future__ import annotations

from typing import Any

import click

from ..common import EXIT_INPUT, EXIT_INTERNAL, Progress, echo_json, json_option, stop_on_sigterm
from ..options import (
    dask_option,
    engine_option,
    limit_options,
    limits_of,
    quiet_option,
    workers_option,
)

ATLAS_ENV = "HALFMOON_ATLAS"
VERDICT_LISTS = ("unwinnable", "unknown", "winnable", "not-done")

atlas_game_option = click.option("--game", default=None, metavar="GAME",
                                 help="Game tag or name (default: the atlas's only game).")


def _pct(x: float | None) -> str:
    return "n/a" if x is None else f"{100 * x:.4f}%"


@click.group()
def atlas() -> None:
    """The winnability atlas: every deal of a range decided, two bits a deal, looked up without solving.

    build decides a range into a directory of shards (resumable; local processes or Dask);
    lookup reads one deal's verdict; stats counts; verify checks checksums and re-solves a
    sample; merge combines atlases. Format and cluster recipe: docs/atlas.md.
    """


# -- build ------------------------------------------------------------------------------------------


@atlas.command()
@click.option("--range", "range_text", required=True, metavar="A:B", help="Deal numbers A … B-1.")
@click.option("--out", "out", required=True, type=click.Path(file_okay=False), metavar="DIR",
              help="The atlas directory (made if missing; its parent must exist).")
@click.option("--game", default="HM", show_default=True, help="Game tag or name of a solitaire (HM, EL, SE, TN).")
@click.option("--method", default=None, help="The solving method (default: the game's portfolio).")
@limit_options("default: the game's own, 120 s for Half Moon")
@engine_option
@workers_option
@dask_option
@click.option("--chunk", type=click.IntRange(min=4), default=None, metavar="N",
              help="Deals per job and per commit, a power of two (default 4096, less for a small range; "
                   "larger on big clusters).")
@click.option("--shard-bits", type=click.IntRange(min=8, max=30), default=None, metavar="B",
              help="A new atlas's shards hold 2^B deals (default 24); an existing atlas keeps its own.")
@click.option("--redecide", is_flag=True,
              help="Solve again only the deals recorded unknown (give longer limits): the re-decide pass.")
@click.option("--no-sync", is_flag=True, help="Do not fsync each commit (faster on slow disks; a crash may "
                                              "then lose the last commits, which a resumed build redoes).")
@quiet_option
@json_option
def build(range_text: str, out: str, game: str, method: str | None, time_limit: float | None,
          node_limit: int | None, memory_mb: int | None, engine: str | None, workers: int | None, dask_address: str | None,
          chunk: int | None, shard_bits: int | None, redecide: bool, no_sync: bool, quiet: bool,
          as_json: bool) -> None:
    """Decide every deal of --range into the atlas DIR: resumable, interruptible, local or on Dask.

    Deals already in the atlas are skipped, so the same command resumes after Ctrl-C, SIGTERM
    or a crash (exit 130 on an interruption; committed chunks are kept). Progress (deals, rate,
    time left) on a terminal. Prints what this run did: deals solved, verdict counts, wall and
    CPU time, deals a second; --json prints it as one object.
    """
    import halfmoon

    numbers = halfmoon.service.parse_range(range_text)
    if workers is not None and dask_address is not None:
        raise click.UsageError("give --workers or --dask, not both")
    limits = limits_of(time_limit, node_limit, memory_mb)
    progress = Progress(quiet)

    def on_progress(report: Any) -> None:
        progress.show(f"{report.game} {report.solved:,}/{report.todo:,} deals: {report.winnable:,} winnable, "
                      f"{report.unwinnable:,} unwinnable, {report.unknown:,} unknown", report.solved, report.todo,
                      force=True)

    with stop_on_sigterm():
        try:
            report = halfmoon.atlas.build(numbers, out, game=game, workers=workers, dask=dask_address, limits=limits,
                                          method=method, shard_bits=shard_bits, chunk=chunk, redecide=redecide,
                                          sync=not no_sync, on_progress=on_progress)
        except KeyboardInterrupt:
            progress.done()
            click.echo(f"stopped: what was committed is in {out}; run the same command again to go on", err=True)
            raise
        finally:
            progress.done()
    data = report.to_json()
    if as_json:
        echo_json(data)
        return
    rate = data["deals_per_second"]
    click.echo(f"{data['game']} atlas {out}: deals {numbers.start}-{numbers.stop - 1}"
               f"{' (re-decide pass)' if redecide else ''}, solver {data['solver_version']}")
    click.echo(f"  solved now   {data['solved']:>12,}   ({data['skipped']:,} already in the atlas)")
    click.echo(f"  winnable     {data['winnable']:>12,}")
    click.echo(f"  unwinnable   {data['unwinnable']:>12,}")
    click.echo(f"  unknown      {data['unknown']:>12,}" + (f"   ({data['errors']} failed runs)" if data["errors"] else ""))
    click.echo(f"  {data['wall_seconds']:.1f} s wall, {data['cpu_seconds']:.1f} s CPU on {data['workers']} "
               f"worker{'s' * (data['workers'] != 1)}" + (f": {rate:,.1f} deals/s, {data['cpu_ms_per_deal']:.3f} ms "
                                                          "CPU a deal" if rate else ""))


# -- lookup -----------------------------------------------------------------------------------------


@atlas.command()
@click.argument("deals", nargs=-1, required=True, metavar="CODE|NUMBER...")
@click.option("--atlas", "atlas_dir", envvar=ATLAS_ENV, required=True, metavar="DIR",
              help=f"The atlas directory (default: ${ATLAS_ENV}).")
@click.option("--game", default=None, metavar="GAME", help="The game of deal NUMBERs (default HM).")
@json_option
def lookup(deals: tuple[str, ...], atlas_dir: str, game: str | None, as_json: bool) -> None:
    """The verdict of each deal from the atlas: one shard read, no solving.

    Prints winnable, unwinnable, unknown (with the limits it reached) or "not in the atlas".
    --json prints one object a deal: {"code", "game", "number", "verdict", "done", "source":
    "atlas", "solver_version", "shard"[, "unknown"]}.
    """
    import halfmoon

    opened = halfmoon.atlas.open_atlas(atlas_dir)
    try:
        for text in deals:
            stripped = text.strip().replace("_", "")
            start: str | int = int(stripped) if stripped.isdigit() else text
            if isinstance(start, int) and not 0 <= start < halfmoon.service.DEAL_COUNT:
                raise halfmoon.InputError(f"deal number {start}: expected 0 … {halfmoon.service.DEAL_COUNT - 1}")
            entry = halfmoon.atlas.lookup(start, opened, game=game)
            if as_json:
                echo_json(entry.to_json())
                continue
            if entry.verdict is None:
                click.echo(f"{entry.code}: not in the atlas")
            elif entry.unknown is not None:
                limits = ", ".join(f"{k} {v}" for k, v in entry.unknown.items() if k in ("stopped", "time_limit",
                                                                                            "node_limit", "error") and v is not None)
                click.echo(f"{entry.code}: unknown (from the atlas: {limits})")
            else:
                click.echo(f"{entry.code}: {entry.verdict.value} (from the atlas, solver {entry.solver_version})")
    finally:
        opened.close()


# -- stats ------------------------------------------------------------------------------------------


@atlas.command()
@click.argument("directory", metavar="DIR")
@atlas_game_option
@click.option("--range", "range_text", default=None, metavar="A:B", help="Count (and list) deals A … B-1 only.")
@click.option("--list", "list_verdict", type=click.Choice(VERDICT_LISTS), default=None,
              help="Also print the deal numbers holding this verdict (unknown: with the limits reached).")
@click.option("--no-summary", is_flag=True, help="With --list: print the list alone.")
@json_option
def stats(directory: str, game: str | None, range_text: str | None, list_verdict: str | None, no_summary: bool,
          as_json: bool) -> None:
    """Counts of an atlas: winnable, unwinnable, unknown, the winnable share with its 95% interval, sizes.

    --list unwinnable prints the unwinnable numbers (of --range), one a line after the counts
    (with --json: one summary object, then one JSON value a line: numbers, or the unknowns'
    entries).
    """
    import halfmoon

    numbers = halfmoon.service.parse_range(range_text) if range_text is not None else None
    if no_summary and list_verdict is None:
        raise click.UsageError("--no-summary goes with --list")
    data = halfmoon.atlas.stats(directory, game=game, numbers=numbers).to_json()
    if no_summary:
        pass
    elif as_json:
        echo_json(data)
    else:
        lo, hi = data["ci95"]
        where = f"deals {numbers.start}-{numbers.stop - 1}" if numbers is not None else "every shard"
        click.echo(f"{data['game']} atlas {directory} ({where}; {data['shards']} shard{'s' * (data['shards'] != 1)} "
                   f"of 2^{data['shard_bits']}; solver {data['solver_versions'] or 'none'})")
        click.echo(f"  done        {data['done']:>14,}")
        click.echo(f"  winnable    {data['winnable']:>14,}")
        click.echo(f"  unwinnable  {data['unwinnable']:>14,}")
        click.echo(f"  unknown     {data['unknown']:>14,}")
        click.echo(f"  not done    {data['not_done']:>14,}")
        click.echo(f"  winnable share {_pct(data['share'])} of decided deals, 95% CI {_pct(lo)} – {_pct(hi)}")
        if data["unknown"]:
            both_lo, both_hi = data["ci95_unknowns_both_ways"]
            click.echo(f"  counting unknowns both ways: {_pct(both_lo)} – {_pct(both_hi)}")
        per = data["bytes_per_deal"]
        click.echo(f"  {data['file_bytes']:,} bytes in files ({data['disk_bytes']:,} on disk)"
                   + (f", {per:.4f} bytes a deal slot" if per is not None else ""))
    if list_verdict == "unknown":
        for entry in halfmoon.atlas.unknowns(directory, game=game, numbers=numbers):
            if as_json:
                echo_json(entry.to_json())
            else:
                click.echo(f"{entry.number} {entry.code} stopped={entry.stopped} time_limit={entry.time_limit} "
                           f"node_limit={entry.node_limit}" + (f" error={entry.error}" if entry.error else ""))
    elif list_verdict is not None:
        for number in halfmoon.atlas.numbers(directory, list_verdict.replace("-", " "), game=game, numbers=numbers):
            click.echo(str(number))


# -- verify -----------------------------------------------------------------------------------------


@atlas.command()
@click.argument("directory", metavar="DIR")
@click.option("--sample", type=click.IntRange(min=0), default=0, show_default=True, metavar="N",
              help="Re-solve N decided deals drawn at random (0: checksums only).")
@click.option("--seed", type=click.IntRange(min=0), default=0, show_default=True, help="Which random sample.")
@click.option("--methods", default=None, metavar="M1,M2",
              help="Methods to re-solve with (default: auto and cpsat for Half Moon).")
@atlas_game_option
@limit_options("default: the game's own, 120 s for Half Moon")
@workers_option
@dask_option
@quiet_option
@json_option
def verify(directory: str, sample: int, seed: int, methods: str | None, game: str | None, time_limit: float | None,
           node_limit: int | None, memory_mb: int | None, workers: int | None, dask_address: str | None, quiet: bool,
           as_json: bool) -> None:
    """Check every shard (checksums, counts, sidecars), then re-solve a random sample with each method.

    Exit status: 0 all sound and agreeing; 3 a damaged file; 1 a disagreement (a solver bug).
    A method that hits its limit counts as undecided, not as a disagreement.
    """
    import halfmoon

    chosen = tuple(m.strip() for m in methods.split(",") if m.strip()) if methods is not None else None
    progress = Progress(quiet)
    with stop_on_sigterm():
        try:
            report = halfmoon.atlas.verify(directory, sample=sample, seed=seed, game=game, methods=chosen,
                                           workers=workers, dask=dask_address,
                                           limits=limits_of(time_limit, node_limit, memory_mb),
                                           on_progress=lambda done, total: progress.show(
                                               f"re-solved {done}/{total} deals", done, total, force=True))
        finally:
            progress.done()
    data = report.to_json()
    if as_json:
        echo_json(data)
    else:
        click.echo(f"{data['game']} atlas {directory}: {data['shards']} shard{'s' * (data['shards'] != 1)} checked, "
                   f"{len(data['problems'])} problem{'s' * (len(data['problems']) != 1)}")
        for problem in data["problems"]:
            click.echo(f"  {problem}")
        if data["sample"]:
            undecided = ", ".join(f"{m} {n}" for m, n in data["undecided"].items())
            click.echo(f"  re-solved {data['sample']} deals (seed {seed}) with {', '.join(data['methods'])}: "
                       f"{data['agreed']} agree, {len(data['disagreements'])} disagree; undecided within the "
                       f"limits: {undecided}; {data['seconds']:.1f} s")
        for wrong in data["disagreements"]:
            click.echo(f"  DISAGREEMENT {wrong}")
    if data["problems"]:
        click.get_current_context().exit(EXIT_INPUT)
    if data["disagreements"]:
        click.get_current_context().exit(EXIT_INTERNAL)


# -- merge ------------------------------------------------------------------------------------------


@atlas.command()
@click.argument("target", metavar="DIR")
@click.argument("sources", nargs=-1, required=True, metavar="SOURCE...")
@atlas_game_option
@click.option("--no-sync", is_flag=True, help="Do not fsync each commit.")
@json_option
def merge(target: str, sources: tuple[str, ...], game: str | None, no_sync: bool, as_json: bool) -> None:
    """Merge the atlases SOURCE... into DIR (made if missing).

    Per deal: done beats not done, an exact verdict beats unknown. Two different exact verdicts
    for one deal stop the merge before anything is written (exit 3, the deal named).
    """
    import halfmoon

    with stop_on_sigterm():
        report = halfmoon.atlas.merge(target, list(sources), game=game, sync=not no_sync)
    data = report.to_json()
    if as_json:
        echo_json(data)
        return
    click.echo(f"{data['game']} atlas {target}: merged {len(sources)} atlas{'es' * (len(sources) != 1)}, "
               f"{data['shards']} shard{'s' * (data['shards'] != 1)}; {data['changed']:,} deals changed "
               f"({data['added']:,} newly done, {data['decided']:,} unknown made exact)")
