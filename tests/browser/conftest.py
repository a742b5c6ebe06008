"""Browser tests: Playwright driving the system's headless Chromium against a running `halfmoon serve`.

No browser is downloaded: Playwright is pointed at the distribution's Chromium
(``apt-get install chromium``; `.ci/run` installs it). Without one the tests are skipped with the
reason, except under CI (``CI=true``), where a missing browser is a failure. ``HALFMOON_CHROMIUM``
names another executable; ``HALFMOON_TEST_URL`` runs the tests against a server already running.
Screenshots of the main states go to tests/browser/screenshots/ (not committed).
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, Iterator

import pytest

from support.browser import http

ROOT = Path(__file__).resolve().parents[2]
#: Headless on this machine's closed network: no GPU, no background requests, no first-run pages.
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
                 "--no-first-run"]
PHONE = {"width": 390, "height": 844}


def _missing(reason: str) -> None:
    if os.environ.get("CI"):
        pytest.fail(f"browser tests must run in CI: {reason}")
    pytest.skip(reason)


def chromium_path() -> str | None:
    named = os.environ.get("HALFMOON_CHROMIUM")
    if named:
        return named
    for name in ("chromium", "chromium-browser"):
        found = shutil.which(name)
        if found:
            return found
    return "/usr/bin/chromium" if Path("/usr/bin/chromium").exists() else None


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The base URL of a running service: `halfmoon serve --port 0` on loopback with a fresh store."""
    given = os.environ.get("HALFMOON_TEST_URL")
    if given:
        yield given.rstrip("/")
        return
    pytest.importorskip("fastapi")
    store = tmp_path_factory.mktemp("browser") / "results.sqlite3"
    command = [sys.executable, "-m", "halfmoon", "serve", "--host", "127.0.0.1", "--port", "0", "--workers", "2",
               "--db", str(store), "--log-level", "warning", "--no-access-log", "--json"]
    process = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.PIPE, text=True)
    try:
        assert process.stdout is not None
        url = json.loads(process.stdout.readline())["url"]
        deadline = time.monotonic() + 120
        while True:
            try:
                if http("GET", url + "/healthz")[0] == 200:
                    break
            except OSError:
                pass
            assert time.monotonic() < deadline and process.poll() is None, "the service did not come up"
            time.sleep(0.2)
        yield url
    finally:
        if process.poll() is None:
            process.send_signal(signal.SIGINT)
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        if process.stdout is not None:
            process.stdout.close()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Chromium for one test module: Playwright's sync API runs an event loop in this thread while it
    is open, so it must close before other tests call asyncio.run."""
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        _missing("the playwright package is not installed (pip install -e '.[dev]')")
    path = chromium_path()
    if path is None or not Path(path).exists():
        _missing("no Chromium found: apt-get install -y chromium (or set HALFMOON_CHROMIUM)")
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=path, headless=True, args=CHROMIUM_ARGS)
        yield launched
        launched.close()


@pytest.fixture
def page(browser: Any, server: str) -> Iterator[Any]:
    """A fresh phone-sized page (390 px wide) on the service; page errors fail the test."""
    context = browser.new_context(viewport=PHONE, base_url=server)
    context.set_default_timeout(60_000)
    opened = context.new_page()
    errors: list[str] = []
    opened.on("pageerror", lambda error: errors.append(str(error)))
    yield opened
    context.close()
    assert not errors, f"errors on the page: {errors}"
