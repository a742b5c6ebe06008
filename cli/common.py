"""What every command shares: the exit-code scheme, error reporting, JSON output, inputs.

Exit codes (the same for every command):
  0  success (a verdict such as "unwinnable" is still a successful answer)
  1  internal error (a bug: please report it; HALFMOON_DEBUG=1 shows the traceback)
  2  usage error (unknown option, missing argument), reported by click
  3  invalid input: a bad deal code, card, move, layout or position file
  130 interrupted (Ctrl-C)
"""

from __future__ import annotations

import json
import os
import sys
import traceback
from pathlib import Path
from typing import Any

import click

from halfmoon.solver.errors import InputError

EXIT_OK = 0
EXIT_INTERNAL = 1
EXIT_USAGE = 2
EXIT_INPUT = 3
EXIT_INTERRUPTED = 130


class HalfMoonGroup(click.Group):
    """A click group that turns library errors into one clear line and a documented exit code."""

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except (click.exceptions.Exit, click.ClickException, click.exceptions.Abort):
            raise
        except KeyboardInterrupt:
            click.echo("interrupted", err=True)
            ctx.exit(EXIT_INTERRUPTED)
        except BrokenPipeError:
            # Output piped into `head` and closed early: not an error worth a message.
            sys.stderr.close()
            ctx.exit(EXIT_OK)
        except ValueError as error:
            click.echo(f"error: {error}", err=True)
            ctx.exit(EXIT_INPUT)
        except Exception as error:  # a bug: one line unless debugging
            if os.environ.get("HALFMOON_DEBUG"):
                traceback.print_exc()
            else:
                click.echo(
                    f"internal error: {type(error).__name__}: {error} (set HALFMOON_DEBUG=1 for the traceback)",
                    err=True,
                )
            ctx.exit(EXIT_INTERNAL)


def echo_json(data: Any) -> None:
    """One JSON document on one line (JSON lines when called repeatedly)."""
    click.echo(json.dumps(data, ensure_ascii=False, separators=(", ", ": ")))


def read_json_file(path: str | Path, what: str) -> Any:
    """Read a JSON file given on the command line (``-`` is stdin) with errors that say where."""
    try:
        text = sys.stdin.read() if str(path) == "-" else Path(path).read_text(encoding="utf-8")
    except OSError as error:
        raise InputError(f"{what} {path}: cannot read: {error.strerror or error}") from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as error:
        raise InputError(f"{what} {path}: not valid JSON: {error.msg} at line {error.lineno}, column {error.colno}") from None


json_option = click.option("--json", "as_json", is_flag=True, help="Print JSON instead of text.")
