"""Schemathesis against a live `halfmoon serve`: every operation, examples, coverage and fuzzing phases.

Starts the server on 127.0.0.1 (a free port, a fresh store, two workers, small limits so a run
takes minutes), runs ``st run`` with benchmarks/reliability/schemathesis.toml (every default check;
see the file for the one documented allowance), and writes a JSON summary.

    python benchmarks/reliability/schemathesis_run.py --max-examples 300 --out benchmarks/results/reliability_schemathesis.json
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests"))

from support.live_server import LiveServer  # noqa: E402

CONFIG = Path(__file__).with_name("schemathesis.toml")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--max-examples", type=int, default=100, help="Fuzzing examples per operation.")
    parser.add_argument("--seed", type=int, default=None)
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args()
    st = shutil.which("st") or str(Path(sys.executable).with_name("st"))
    with tempfile.TemporaryDirectory(prefix="halfmoon-st-") as folder, LiveServer(
        Path(folder) / "st.sqlite3", "--wait", "1", "--max-wait", "5", "--solve-time-limit", "5",
        "--hint-time-limit", "1", "--endgame-max-seconds", "5", "--per-client-jobs", "8", workers=2,
    ) as server:
        command = [st, "--config-file", str(CONFIG), "run", f"{server.url}/openapi.json", "--max-examples",
                   str(args.max_examples), "--phases", "examples,coverage,fuzzing"]
        if args.seed is not None:
            command += ["--seed", str(args.seed)]
        started = time.monotonic()
        run = subprocess.run(command, capture_output=True, text=True)
        seconds = time.monotonic() - started
        log = server.log()
    text = run.stdout + run.stderr
    generated = re.search(r"(\d+) generated", text)
    failures = re.search(r"(\d+) (?:unique )?failures?", text.split("SUMMARY")[-1])
    report = {
        "command": " ".join(command[2:]).replace(server.url, "http://127.0.0.1:PORT"),
        "exit_code": run.returncode,
        "seconds": round(seconds, 1),
        "cases": int(generated.group(1)) if generated else None,
        "failures": 0 if run.returncode == 0 else (int(failures.group(1)) if failures else None),
        "server_tracebacks": log.count("Traceback"),
        "seed": (re.search(r"Seed: (\d+)", text) or [None, None])[1],
        "summary": text.split("SUMMARY")[-1].strip().splitlines()[-25:],
    }
    print(json.dumps(report, indent=2))
    if args.out:
        args.out.write_text(json.dumps(report, indent=2) + "\n")
        args.out.with_suffix(".txt").write_text(text)  # the whole report, failures with their curl lines
    return run.returncode


if __name__ == "__main__":
    raise SystemExit(main())
