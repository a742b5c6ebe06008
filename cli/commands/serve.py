"""`halfmoon serve`: run the deal-code service (FastAPI on uvicorn) on the results store.

The web framework is an optional extra, imported only here, so the rest of the CLI works
without it. The listening socket is bound before uvicorn starts, so ``--port 0`` can report the
port the system chose (the load test relies on that) and a busy port is a one-line error.
Stdout carries only where the service listens (one JSON object with ``--json``); every log line,
uvicorn's access log included, goes to stderr.
"""

from __future__ import annotations

import copy
import dataclasses
import logging
import socket
import sys
from pathlib import Path
from typing import Any

import click

from ..common import echo_json, json_option


def _listen(host: str, port: int) -> socket.socket:
    """A listening TCP socket on host:port (IPv4 or IPv6, whatever the host names)."""
    try:
        family, kind, proto, _, address = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0]
        sock = socket.socket(family, kind, proto)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(address)
        sock.listen(2048)
    except OSError as error:
        import halfmoon

        raise halfmoon.InputError(f"cannot listen on {host}:{port}: {error.strerror or error}") from None
    sock.set_inheritable(True)
    return sock


@click.command()
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on.")
@click.option("--port", type=click.IntRange(0, 65535), default=8000, show_default=True,
              help="TCP port (0 picks a free one and prints it).")
@click.option("--workers", type=click.IntRange(min=1), default=None,
              help="Solver processes (default: every core). Requests are served by one event loop.")
@click.option("--db", type=click.Path(dir_okay=False), default=None,
              help="Results store file (default: $HALFMOON_DB, else ~/.cache/halfmoon/results.sqlite3).")
@click.option("--wait", "wait_default", type=click.FloatRange(min=0, min_open=True), default=10.0, show_default=True,
              help="Seconds a request waits for a solve before answering 202 (the solve goes on).")
@click.option("--max-wait", "wait_max", type=click.FloatRange(min=0, min_open=True), default=30.0, show_default=True,
              help="The most a client may ask to wait (?wait=).")
@click.option("--solve-time-limit", type=click.FloatRange(min=0, min_open=True), default=60.0, show_default=True,
              help="Seconds per deal solve; past it the verdict is 'unknown' (stored).")
@click.option("--hint-time-limit", type=click.FloatRange(min=0, min_open=True), default=10.0, show_default=True,
              help="Seconds per position solved by a hint.")
@click.option("--endgame-max-seconds", type=click.FloatRange(min=0, min_open=True), default=60.0, show_default=True,
              help="The most an endgame request may solve for.")
@click.option("--endgame-memory-mb", type=click.IntRange(min=1), default=2048, show_default=True,
              help="Memory growth at which an endgame solve gives up (unknown).")
@click.option("--max-body-kb", type=click.IntRange(min=1), default=64, show_default=True,
              help="Largest request body accepted (413 beyond).")
@click.option("--max-queue", type=click.IntRange(min=1), default=None,
              help="Jobs waiting or running in the pool before 503 busy (default: 32 per worker).")
@click.option("--atlas", "atlas_dir", envvar="HALFMOON_ATLAS", default=None, metavar="DIR",
              help="A winnability atlas (default: $HALFMOON_ATLAS): decided deals are answered from it "
                   "(GET /v1/deals/{code} gains \"winnability\"; solutions of unwinnable deals, or with "
                   "?verdict_only=true, need no solving).")
@click.option("--cors-origin", "cors_origin", multiple=True, metavar="ORIGIN",
              help="Let pages on ORIGIN (e.g. https://app.example; '*' for any) call the API from a browser. "
                   "Repeatable; off by default.")
@click.option("--log-level", type=click.Choice(["critical", "error", "warning", "info", "debug"]), default="info",
              show_default=True)
@click.option("--access-log/--no-access-log", default=True, show_default=True, help="Log every request.")
@json_option
def serve(host: str, port: int, workers: int | None, db: str | None, wait_default: float, wait_max: float,
          solve_time_limit: float, hint_time_limit: float, endgame_max_seconds: float, endgame_memory_mb: int,
          max_body_kb: int, max_queue: int | None, atlas_dir: str | None, cors_origin: tuple[str, ...],
          log_level: str, access_log: bool, as_json: bool) -> None:
    """Serve the HTTP JSON API (deals, solutions, hints, curated deals, endgames) and the web page at /.

    Prints where it listens (one JSON object with --json: url, docs, openapi, workers, db),
    then serves until Ctrl-C. The page for players is at / ; the API is described at /docs
    (OpenAPI at /openapi.json), both without internet.
    """
    try:
        import uvicorn

        from ..server import ServiceConfig, create_app
    except ImportError as error:
        raise click.ClickException(
            f"halfmoon serve needs the server extra: pip install 'halfmoon-solver[server]' (missing: {error.name})"
        ) from None
    import halfmoon

    from ..server.config import default_workers

    workers = workers or default_workers()
    config = ServiceConfig(
        db_path=None if db is None else Path(db),
        workers=workers,
        wait_default=wait_default,
        wait_max=wait_max,
        solve_time_limit=solve_time_limit,
        hint_time_limit=hint_time_limit,
        endgame_max_seconds=endgame_max_seconds,
        endgame_memory_mb=endgame_memory_mb,
        max_body_bytes=max_body_kb * 1024,
        max_queue=max_queue or 32 * workers,
        atlas_path=None if atlas_dir is None else Path(atlas_dir),
        cors_origins=cors_origin,
    )
    if config.atlas_path is not None:
        halfmoon.open_atlas(config.atlas_path).close()  # not an atlas: a one-line error, at once
    with halfmoon.open_store(config.db_path) as store:  # a store that cannot be opened: a one-line error, at once
        db_path = store.path
    config = dataclasses.replace(config, db_path=db_path)
    sock = _listen(host, port)
    bound = sock.getsockname()[1]
    shown = f"[{host}]" if ":" in host else host
    url = f"http://{shown}:{bound}"
    info = {"url": url, "docs": f"{url}/docs", "openapi": f"{url}/openapi.json", "workers": config.workers,
            "db": str(db_path)} | ({"atlas": str(config.atlas_path)} if config.atlas_path is not None else {})
    if as_json:
        echo_json(info)
    else:
        click.echo(f"halfmoon service on {url} ({config.workers} solver processes, store {db_path}"
                   + (f", atlas {config.atlas_path}" if config.atlas_path is not None else "") + ")")
        click.echo(f"page: {url}/   API docs: {url}/docs   OpenAPI: {url}/openapi.json   Ctrl-C stops it")
    sys.stdout.flush()
    service_log = logging.getLogger("halfmoon.server")  # incidents, curation problems: next to uvicorn's lines
    service_log.setLevel(log_level.upper())
    if not service_log.handlers:
        handler = logging.StreamHandler()
        handler.setFormatter(logging.Formatter("%(levelname)s:     [halfmoon] %(message)s"))
        service_log.addHandler(handler)
        service_log.propagate = False
    server = uvicorn.Server(uvicorn.Config(
        create_app(config), log_level=log_level, access_log=access_log, lifespan="on", timeout_graceful_shutdown=5,
        log_config=_log_config(uvicorn),
    ))
    server.run(sockets=[sock])
    if not server.started:
        raise click.ClickException("the service did not start (see the log above)")


def _log_config(uvicorn: Any) -> dict[str, Any]:
    """uvicorn's logging, every handler on stderr (its access log writes to stdout by default)."""
    config = copy.deepcopy(uvicorn.config.LOGGING_CONFIG)
    for handler in config.get("handlers", {}).values():
        if "stream" in handler:
            handler["stream"] = "ext://sys.stderr"
    return config
