"""A real `halfmoon serve` in a subprocess, for tests and benchmarks that need sockets, signals and kills.

`LiveServer` starts ``python -m halfmoon serve --port 0 --json`` (any extra options), reads where
it listens from its one line of stdout, waits for ``/healthz``, and stops it (SIGINT, then kill)
on exit; `processes()` lists the server and every process it started, so a test can check that
none is left behind.
"""

from __future__ import annotations

import http.client
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]


def descendants(pid: int) -> set[int]:
    """Every live process below `pid` (Linux /proc), by walking parent links."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if fields[0] != "Z":
            children.setdefault(int(fields[1]), []).append(int(entry.name))
    found: set[int] = set()
    stack = [pid]
    while stack:
        for child in children.get(stack.pop(), []):
            if child not in found:
                found.add(child)
                stack.append(child)
    return found


def alive(pids: set[int]) -> set[int]:
    """The pids of `pids` still running (not zombies)."""
    living = set()
    for pid in pids:
        try:
            state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
        except OSError:
            continue
        if state != "Z":
            living.add(pid)
    return living


def request(port: int, method: str, path: str, body: Any = None, timeout: float = 30.0,
            headers: dict[str, str] | None = None) -> tuple[int, dict[str, str], bytes]:
    """One HTTP exchange on a fresh connection: (status, headers, body)."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        payload = None if body is None else json.dumps(body).encode()
        sent = {"content-type": "application/json"} if payload is not None else {}
        conn.request(method, path, body=payload, headers=sent | (headers or {}))
        response = conn.getresponse()
        return response.status, {k.lower(): v for k, v in response.getheaders()}, response.read()
    finally:
        conn.close()


class LiveServer:
    """``halfmoon serve`` on 127.0.0.1, a free port and store `db` (see the module docstring)."""

    def __init__(self, db: Path, *options: str, workers: int = 1, file_limit: int | None = None,
                 env: dict[str, str] | None = None, ready_seconds: float = 120.0, prefix: tuple[str, ...] = (),
                 log_path: Path | None = None) -> None:
        self.db = db
        self.prefix = prefix
        self.options = options
        self.workers = workers
        self.file_limit = file_limit
        self.env = env
        self.ready_seconds = ready_seconds
        self.proc: subprocess.Popen[str] | None = None
        self.port = 0
        self.url = ""
        self.info: dict[str, Any] = {}
        self.stderr_path = log_path or db.parent / f"{db.stem}.server.log"

    def _limits(self) -> None:
        if self.file_limit is not None:
            import resource

            resource.setrlimit(resource.RLIMIT_NOFILE, (self.file_limit, self.file_limit))

    def __enter__(self) -> LiveServer:
        command = [*self.prefix, sys.executable, "-m", "halfmoon", "serve", "--host", "127.0.0.1", "--port", "0", "--workers",
                   str(self.workers), "--db", str(self.db), "--json", "--log-level", "warning", "--no-access-log",
                   *self.options]
        self._stderr = self.stderr_path.open("w")
        self.proc = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.PIPE, stderr=self._stderr, text=True,
                                     env=None if self.env is None else os.environ | self.env,
                                     preexec_fn=self._limits if self.file_limit is not None else None)
        line = self.proc.stdout.readline() if self.proc.stdout else ""
        if not line:
            self.__exit__()
            raise RuntimeError(f"the server did not start: {self.stderr_path.read_text()}")
        self.info = json.loads(line)
        self.url = self.info["url"]
        self.port = int(self.url.rsplit(":", 1)[1])
        deadline = time.monotonic() + self.ready_seconds
        while True:
            try:
                if request(self.port, "GET", "/healthz", timeout=5)[0] == 200:
                    break
            except OSError:
                pass
            if time.monotonic() > deadline or self.proc.poll() is not None:
                self.__exit__()
                raise RuntimeError(f"the server did not come up: {self.stderr_path.read_text()}")
            time.sleep(0.2)
        return self

    def processes(self) -> set[int]:
        """The server and every process below it (the solver pool's fork server, workers, tracker)."""
        assert self.proc is not None
        return {self.proc.pid} | descendants(self.proc.pid)

    def signal(self, sig: int) -> None:
        assert self.proc is not None
        self.proc.send_signal(sig)

    def wait(self, timeout: float) -> int:
        assert self.proc is not None
        return self.proc.wait(timeout=timeout)

    def log(self) -> str:
        self._stderr.flush()
        return self.stderr_path.read_text()

    def __exit__(self, *exc: object) -> None:
        proc = self.proc
        if proc is None:
            return
        family = self.processes() if proc.poll() is None else set()
        if proc.poll() is None:
            proc.send_signal(signal.SIGINT)
            try:
                proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
        for pid in alive(family - {proc.pid}):  # only what this server started
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        if proc.stdout:
            proc.stdout.close()
        self._stderr.close()
