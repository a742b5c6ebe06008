"""`halfmoon serve`: bad settings are one-line errors, and a real uvicorn server answers on loopback."""

from __future__ import annotations

import json
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest
from click.testing import CliRunner

pytest.importorskip("fastapi")
pytest.importorskip("uvicorn")

from halfmoon.cli.main import main as cli  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]


def test_bad_settings_are_one_line_errors(tmp_path):
    result = CliRunner().invoke(cli, ["serve", "--workers", "4", "--max-queue", "2", "--db", str(tmp_path / "s.db")])
    assert result.exit_code == 3 and "max_queue" in result.output and result.output.count("\n") == 1
    result = CliRunner().invoke(cli, ["serve", "--wait", "50", "--max-wait", "10", "--db", str(tmp_path / "s.db")])
    assert result.exit_code == 3 and "wait_default" in result.output


def test_a_busy_port_is_a_one_line_error(tmp_path):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        port = taken.getsockname()[1]
        result = CliRunner().invoke(cli, ["serve", "--port", str(port), "--db", str(tmp_path / "s.db")])
    assert result.exit_code == 3 and f"127.0.0.1:{port}" in result.output


def _get(url: str) -> tuple[int, bytes]:
    try:
        with urllib.request.urlopen(url, timeout=10) as response:
            return response.status, response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.read()


def test_the_real_server_on_loopback(tmp_path):
    command = [sys.executable, "-m", "halfmoon", "serve", "--host", "127.0.0.1", "--port", "0", "--workers", "1",
               "--db", str(tmp_path / "served.sqlite3"), "--log-level", "info", "--json"]  # access log on
    server = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        info = json.loads(server.stdout.readline())
        assert info["url"].startswith("http://127.0.0.1:") and info["docs"] == info["url"] + "/docs"
        deadline = time.monotonic() + 90
        while True:
            try:
                status, body = _get(info["url"] + "/healthz")
                if status == 200:
                    break
            except OSError:
                pass
            assert time.monotonic() < deadline and server.poll() is None, "the server did not come up"
            time.sleep(0.2)
        status, body = _get(info["url"] + "/v1/deals/HM1-N-AAAAAAB")
        assert status == 200 and json.loads(body)["code"] == "HM1-N-AAAAAAB"
        status, body = _get(info["url"] + "/v1/deals/HM1-N-AAAA1AB")
        assert status == 400 and json.loads(body)["error"]["kind"] == "invalid_input"
        status, body = _get(info["url"] + "/openapi.json")
        assert status == 200 and "/v1/deals/{code}/solution" in json.loads(body)["paths"]
        server.send_signal(signal.SIGINT)
        assert server.wait(timeout=30) == 130  # Ctrl-C: the CLI's "interrupted" exit code
        assert server.stdout.read() == ""  # --json: stdout holds the one JSON object, nothing else
        log = server.stderr.read()
        assert '"GET /v1/deals/HM1-N-AAAAAAB HTTP/1.1" 200' in log  # the access log went to stderr
    finally:
        if server.poll() is None:
            server.kill()
            server.wait()
        server.stdout.close()
        server.stderr.close()
