"""What every command shares: the exit-code scheme, error reporting, JSON output, inputs, progress.

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
import signal
import sys
import threading
import time
import traceback
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Iterable, Iterator

import click

from halfmoon import InputError

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
        except RecursionError:  # input nested beyond reason (JSON, TOML): bad input, not a bug
            click.echo("error: input nested too deeply", err=True)
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


def _terminate(signum: int, frame: object) -> None:
    raise KeyboardInterrupt  # stop as Ctrl-C does: what was committed is kept, exit code 130


@contextmanager
def stop_on_sigterm() -> Iterator[None]:
    """SIGTERM stops a long run as Ctrl-C does (what `kill`, batch schedulers and a background
    `nohup` run send, where SIGINT is ignored); the previous handler is back afterwards."""
    main_thread = threading.current_thread() is threading.main_thread()
    previous = signal.signal(signal.SIGTERM, _terminate) if main_thread else None
    try:
        yield
    finally:
        if previous is not None:
            signal.signal(signal.SIGTERM, previous)


def echo_json(data: Any) -> None:
    """One JSON document on one line (JSON lines when called repeatedly); strict JSON (no NaN)."""
    click.echo(json.dumps(data, ensure_ascii=False, separators=(", ", ": "), allow_nan=False))
    sys.stdout.flush()


def error_json(error: BaseException, where: dict[str, Any]) -> dict[str, Any]:
    """The JSON object a batch prints in place of an answer it could not give (the HTTP error shape)."""
    return {"error": where | {"kind": "invalid_input", "type": type(error).__name__, "message": str(error)}}


def batch_lines(arguments: Iterable[str]) -> Iterator[tuple[int | None, str]]:
    """The inputs of a batch: the arguments, with ``-`` standing for stdin, one item per word.

    Yields (line number in stdin or None, text). Blank lines and ``#`` comments are skipped.
    """
    for argument in arguments:
        if argument != "-":
            yield None, argument
            continue
        number = 0
        while True:
            line = sys.stdin.readline(MAX_LINE_CHARS + 2)
            if not line:
                break
            number += 1
            if len(line.rstrip("\r\n")) > MAX_LINE_CHARS:
                raise InputError(f"stdin line {number}: longer than {MAX_LINE_CHARS} characters")
            text = line.split("#", 1)[0]
            for word in text.replace(",", " ").split():
                yield number, word


#: The largest input file read (layouts, positions): far above any real one (a few KB), so that
#: /dev/zero or a wrong file is a clear error instead of memory running out.
MAX_INPUT_BYTES = 1 << 20
#: The longest line of codes read from stdin.
MAX_LINE_CHARS = 4096


def read_json_file(path: str | Path, what: str) -> Any:
    """Read a JSON file given on the command line (``-`` is stdin) with errors that say where."""
    try:
        if str(path) == "-":
            data = sys.stdin.buffer.read(MAX_INPUT_BYTES + 1)
        else:
            with open(path, "rb") as handle:
                data = handle.read(MAX_INPUT_BYTES + 1)
    except OSError as error:
        raise InputError(f"{what} {path}: cannot read: {error.strerror or error}") from None
    if len(data) > MAX_INPUT_BYTES:
        raise InputError(f"{what} {path}: larger than {MAX_INPUT_BYTES >> 10} KB; no {what} is that large")
    try:
        return json.loads(data.decode("utf-8"))
    except UnicodeDecodeError as error:
        raise InputError(f"{what} {path}: not UTF-8 text (byte {error.start})") from None
    except json.JSONDecodeError as error:
        raise InputError(f"{what} {path}: not valid JSON: {error.msg} at line {error.lineno}, column {error.colno}") from None
    except RecursionError:
        raise InputError(f"{what} {path}: nested too deeply") from None


class Progress:
    """One self-overwriting line on stderr with rate and time left, only when stderr is a terminal."""

    def __init__(self, quiet: bool = False) -> None:
        self.enabled = not quiet and sys.stderr.isatty()
        self.started = time.monotonic()
        self.last = 0.0

    def show(self, text: str, done: int = 0, total: int | None = None, force: bool = False) -> None:
        """`text`, then a rate and an estimate of the time left from `done` of `total` items."""
        now = time.monotonic()
        if not self.enabled or (not force and now - self.last < 0.25):
            return
        self.last = now
        elapsed = now - self.started
        if done and elapsed > 0:
            rate = done / elapsed
            text += f"; {rate:.1f}/s"
            if total is not None and total > done:
                text += f", {_duration((total - done) / rate)} left"
        click.echo(f"\r\x1b[2K{text}", err=True, nl=False)

    def done(self) -> None:
        if self.enabled:
            click.echo("\r\x1b[2K", err=True, nl=False)


def _duration(seconds: float) -> str:
    if seconds < 90:
        return f"{seconds:.0f} s"
    if seconds < 5400:
        return f"{seconds / 60:.0f} min"
    return f"{seconds / 3600:.1f} h"


json_option = click.option("--json", "as_json", is_flag=True, help="Print JSON instead of text.")
