"""Start-up time of `halfmoon` commands: how long a command takes when it does almost nothing.

Why: a pipeline such as ``seq 0 99 | xargs -n1 halfmoon code`` starts one process per line, so
start-up is the cost a user pays most often. Each command runs `--runs` times in a fresh
process; the table gives the median and the best wall time, and the import time of the facade.

    python benchmarks/startup.py                  # the default commands, 15 runs each
    python benchmarks/startup.py --runs 30 --json
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

COMMANDS = [
    ["--help"],
    ["code", "5"],
    ["code", "HM1-N-AAAAAAF"],
    ["deal", "HM1-N-AAAAAAB"],
    ["deal", "EL1-N-AAAAAAD"],
    ["deal", "SH1-2-AAAAAAB"],
    ["replay", "HM1-N-AAAAAAB", "--moves", "4+10"],
    ["games"],
]


def timed(argv: list[str], env: dict[str, str]) -> float:
    started = time.perf_counter()
    subprocess.run(argv, check=True, stdout=subprocess.DEVNULL, env=env)
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    script = shutil.which("halfmoon") or sys.exit("halfmoon is not on PATH: install the project first")
    with tempfile.TemporaryDirectory() as home:
        env = os.environ | {"HALFMOON_DB": os.path.join(home, "r.sqlite3")}
        rows = []
        baseline = [timed([sys.executable, "-c", "pass"], env) for _ in range(args.runs)]
        rows.append({"command": "python -c pass", "median": statistics.median(baseline), "best": min(baseline)})
        for command in COMMANDS:
            timed([script, *command], env)  # warm the file cache
            times = [timed([script, *command], env) for _ in range(args.runs)]
            rows.append({"command": "halfmoon " + " ".join(command), "median": statistics.median(times),
                         "best": min(times)})
    load = os.getloadavg()[0]
    if args.json:
        print(json.dumps({"runs": args.runs, "load_average": load, "rows": rows}))
        return
    print(f"{args.runs} runs each, load average {load:.2f}")
    for row in rows:
        print(f"  {row['command']:<45} median {1000 * row['median']:6.0f} ms   best {1000 * row['best']:6.0f} ms")


if __name__ == "__main__":
    main()
