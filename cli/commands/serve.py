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
from ..options import SECONDS


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
@click.option("--endgame-time-limit", "--endgame-max-seconds", "endgame_time_limit",
              type=click.FloatRange(min=0, min_open=True), default=60.0, show_default=True,
              help="Seconds an endgame request may solve for, at most (--endgame-max-seconds: the old name, "
                   "deprecated).")
@click.option("--endgame-memory-mb", type=click.IntRange(min=1), default=2048, show_default=True,
              help="Memory growth at which an endgame solve gives up (unknown).")
@click.option("--max-body-kb", type=click.IntRange(min=1), default=64, show_default=True,
              help="Largest request body accepted (413 beyond).")
@click.option("--max-queue", type=click.IntRange(min=1), default=None,
              help="Jobs waiting or running in the pool before 503 busy (default: 32 per worker).")
@click.option("--read-only", "readonly", is_flag=True,
              help="Serve answers from the store without writing to it (new answers are not saved).")
@click.option("--per-client-jobs", type=click.IntRange(min=1), default=None,
              help="Solver jobs one client (address) may have running at once; 429 beyond (default: workers - 1, "
                   "at least 1).")
@click.option("--token", envvar="HALFMOON_TOKEN", default=None, metavar="TOKEN",
              help="Require 'Authorization: Bearer TOKEN' on every /v1 request (default: $HALFMOON_TOKEN; none).")
@click.option("--header-timeout", type=SECONDS, default=10.0, show_default=True, metavar="SECONDS",
              help="Seconds a request line and headers may take to arrive (408 and closed beyond).")
@click.option("--body-timeout", type=SECONDS, default=10.0, show_default=True, metavar="SECONDS",
              help="Seconds a request body may take to arrive, in all (408 beyond).")
@click.option("--max-connections", type=click.IntRange(min=8), default=1000, show_default=True,
              help="Open connections kept at most (also kept below the file limit); beyond it the longest-idle "
                   "connection is closed.")
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
          solve_time_limit: float, hint_time_limit: float, endgame_time_limit: float, endgame_memory_mb: int,
          max_body_kb: int, max_queue: int | None, readonly: bool, per_client_jobs: int | None, token: str | None,
          header_timeout: float, body_timeout: float, max_connections: int, atlas_dir: str | None,
          cors_origin: tuple[str, ...], log_level: str, access_log: bool, as_json: bool) -> None:
    """Serve the HTTP JSON API (deals, solutions, hints, curated deals, endgames) and the web page at /.

    Prints where it listens (one JSON object with --json: url, docs, openapi, workers, db),
    then serves until Ctrl-C or SIGTERM (requests still waiting get 503). The page for players
    is at / ; the API is described at /docs (OpenAPI at /openapi.json), both without internet.
    Beyond loopback, set a --token.
    """
    try:
        import uvicorn

        from ..server import ServiceConfig, create_app
        from ..server.guard import GuardedH11Protocol, stats
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
        endgame_time_limit=endgame_time_limit,
        endgame_memory_mb=endgame_memory_mb,
        max_body_bytes=max_body_kb * 1024,
        max_queue=max_queue or 32 * workers,
        body_timeout=body_timeout,
        per_client_jobs=per_client_jobs,
        token=token or None,
        readonly=readonly,
        atlas_path=None if atlas_dir is None else Path(atlas_dir),
        cors_origins=cors_origin,
    )
    if config.atlas_path is not None:
        halfmoon.atlas.open_atlas(config.atlas_path).close()  # not an atlas: a one-line error, at once
    with halfmoon.service.open_store(config.db_path, readonly=True if readonly else None) as store:  # a one-line error
        db_path, cannot_write = store.path, store.readonly                                   # at once if unusable
    if cannot_write and not readonly:
        click.echo(f"warning: results store {db_path} cannot be written: answers are served from it, new ones "
                   f"are not saved", err=True)
    config = dataclasses.replace(config, db_path=db_path, readonly=cannot_write)
    if config.token is None and not _loopback(host):
        click.echo(f"warning: listening on {host} beyond this machine with no token: anyone who can reach it can "
                   f"use the solver pool (set --token or $HALFMOON_TOKEN)", err=True)
    GuardedH11Protocol.settings.header_timeout = header_timeout
    GuardedH11Protocol.settings.max_connections = min(max_connections, _file_limit() - _RESERVED_FILES)
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
    app = create_app(config)
    app.state.service.connection_stats = stats
    server = _server_class(uvicorn)(uvicorn.Config(
        app, log_level=log_level, access_log=access_log, lifespan="on", timeout_graceful_shutdown=5,
        log_config=_log_config(uvicorn), http=GuardedH11Protocol, backlog=_BACKLOG,
    ), on_shutdown=app.state.service.begin_shutdown)
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


#: Connections accepted in one go: asyncio accepts up to the listen backlog per wake-up, and a
#: connection closed to make room frees its file only two wake-ups later, so up to three batches
#: can be open beyond the cap. The cap stays that far below the file limit, plus files for the
#: store, the solver pool's pipes and logging (measured: EMFILE under load with one batch spare).
_BACKLOG = 128
_RESERVED_FILES = 3 * _BACKLOG + 64


def _file_limit() -> int:
    """The open-file limit, raised to its hard maximum first (the connection cap stays below it)."""
    try:
        import resource
    except ImportError:  # not POSIX
        return 1 << 16
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard == resource.RLIM_INFINITY or hard > soft:
        try:
            wanted = hard if hard != resource.RLIM_INFINITY else max(soft, 1 << 16)
            resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
            soft = wanted
        except (ValueError, OSError):
            pass
    return soft if soft != resource.RLIM_INFINITY else 1 << 16


def _loopback(host: str) -> bool:
    """Whether `host` names this machine only (127.0.0.0/8, ::1, localhost)."""
    import ipaddress

    if host.strip().lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def _server_class(uvicorn: Any) -> Any:
    """uvicorn's server, telling the service first when it starts stopping (so waiting requests get 503 JSON
    at once, not a plain-text 500 when the grace period runs out)."""

    class Server(uvicorn.Server):
        def __init__(self, config: Any, on_shutdown: Any) -> None:
            super().__init__(config)
            self._on_shutdown = on_shutdown

        async def shutdown(self, sockets: Any = None) -> None:
            self._on_shutdown()
            await super().shutdown(sockets)

    return Server
