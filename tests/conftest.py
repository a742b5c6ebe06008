"""Every test runs with its own results store: commands that cache by default never touch the user's.

Ctrl-C tests send SIGINT to the processes they start. A shell starts a background job with SIGINT
ignored, and an ignored signal stays ignored across exec, so under `.ci/run &` those processes
would never see it; the suite gives itself Python's default handler, which exec resets to the
default action in every child.
"""

import signal

import pytest

if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)


@pytest.fixture(autouse=True)
def _private_results_store(tmp_path, monkeypatch):
    monkeypatch.setenv("HALFMOON_DB", str(tmp_path / "results.sqlite3"))
