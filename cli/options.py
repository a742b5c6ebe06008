"""Click options shared by several commands, so one option means one thing everywhere."""

from __future__ import annotations

import math
import os
from typing import Any, Callable

import click

F = Callable[..., Any]


class Seconds(click.ParamType):
    """A time limit: a positive, finite number of seconds, at most a week (nan and inf are refused)."""

    name = "seconds"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> float:
        try:
            seconds = float(value)
        except (TypeError, ValueError):
            self.fail(f"{value!r} is not a number of seconds", param, ctx)
        if not math.isfinite(seconds) or not 0 < seconds <= 7 * 24 * 3600:
            self.fail(f"{value!r}: expected a positive, finite number of seconds (at most 604800, a week)", param, ctx)
        return seconds


SECONDS = Seconds()

game_option = click.option("--game", default=None, metavar="GAME",
                           help="Game tag or name (HM, EL, SE, TN, … — `halfmoon games` lists them).")
rules_option = click.option("--rules", "rules", default=None, metavar="FILE|PRESET",
                            help="A rule file of the Elevens family (JSON or TOML), or a preset name or tag.")
layout_option = click.option("--layout", type=click.Path(dir_okay=False, allow_dash=True), default=None,
                             help="A layout JSON file (the `deal --json` shape) instead of a CODE; '-' is stdin.")
symbols_option = click.option("--symbols", is_flag=True, help="Show suits as ♣ ♦ ♥ ♠.")
seed_option = click.option("--seed", type=click.IntRange(min=0), default=None,
                           help="Tie-break seed (given: solved afresh, never answered from the store).")
db_option = click.option("--db", "db_path", type=click.Path(dir_okay=False), default=None,
                         help="Results store file (default: $HALFMOON_DB, else ~/.cache/halfmoon/results.sqlite3).")
no_cache_option = click.option("--no-cache", is_flag=True, help="Neither read nor write the results store.")
workers_option = click.option("--workers", type=click.IntRange(min=1), default=None,
                              help="Local worker processes (default: all cores).")
dask_option = click.option("--dask", "dask_address", default=None, metavar="ADDRESS",
                           help="Run on an existing Dask cluster (scheduler address, e.g. tcp://host:8786).")
def _engine_for_workers(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    """An engine asked for on the command line holds for the worker processes a command starts too."""
    if value is not None:
        os.environ["HALFMOON_ENGINE"] = value
    return value


engine_option = click.option(
    "--engine", type=click.Choice(["native", "python"]), default=None, callback=_engine_for_workers,
    help="The Half Moon search engine: native (the compiled kernel, the default when built) or python (the "
         "reference); given: solved afresh. $HALFMOON_ENGINE sets the default, for batches too.")
quiet_option = click.option("--quiet", is_flag=True, help="No progress line on the terminal.")


def limit_options(default_help: str) -> Callable[[F], F]:
    """--time-limit, --node-limit and --memory-mb (left out: the game's defaults, `default_help`)."""

    def decorate(command: F) -> F:
        command = click.option("--memory-mb", type=click.IntRange(min=0, max=1 << 20), default=None,
                               help="Cap on the search's tables (MB); a solitaire's cap only slows, never changes, "
                                    "answers.")(command)
        command = click.option("--node-limit", type=click.IntRange(min=1, max=1 << 62), default=None,
                               help="Cap on search nodes (endgames: positions) per question.")(command)
        command = click.option("--time-limit", type=SECONDS, default=None, metavar="SECONDS",
                               help=f"Seconds per question; when it runs out the answer is 'unknown' ({default_help}).")(
            command)
        return command

    return decorate


def limits_of(time_limit: float | None, node_limit: int | None, memory_mb: int | None) -> Any:
    """The `halfmoon.Limits` the options ask for (None fields: the game's defaults)."""
    from halfmoon import Limits

    return Limits(time_limit, node_limit, None if memory_mb is None else memory_mb << 20)


def store_for(db_path: str | None, no_cache: bool) -> Any:
    """The results store a command's --db / --no-cache ask for, closed when the command ends."""
    if no_cache:
        return None
    import halfmoon

    store = halfmoon.service.open_store(db_path)
    click.get_current_context().call_on_close(store.close)
    warn_if_readonly(store)
    return store


def warn_if_readonly(store: Any) -> None:
    """One line on stderr when the store could be opened only for reading."""
    if getattr(store, "readonly", False):
        click.echo(f"warning: results store {store.path} cannot be written: answers are read from it but not saved",
                   err=True)


def warn_engine_fallback(result: Any, engine: str | None) -> None:
    """One stderr line, once per command, when Half Moon was solved by the Python fallback unasked."""
    import halfmoon

    context = click.get_current_context()
    if engine is None and getattr(result, "engine", None) == "python" and not context.meta.get("engine-warned"):
        warning = halfmoon.service.engine_warning(result.game)
        if warning:
            click.echo(warning, err=True)
        context.meta["engine-warned"] = True
