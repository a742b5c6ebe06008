"""Summarise the survey results a store holds, without solving anything.

Why: a long survey (hours on a shared 2-core machine) is written to the store as it runs;
this reads the rows of one game and solver version over a range of deal numbers and prints
the same summary object as `halfmoon survey --json` (counts, share, Wilson intervals, solve
times), plus the prediction a pilot makes for the whole range. It also works while the
survey is still running (the store is read in WAL mode).

    python benchmarks/survey_report.py --db results.sqlite3 --range 0:10000 --plot times.svg
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from halfmoon.dealcodes import parse_range
from halfmoon.solver.catalogue import solitaire
from halfmoon.solver.store import open_store
from halfmoon.solver.stats import histogram_svg
from halfmoon.solver.survey import SurveyStats


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--db", required=True)
    parser.add_argument("--game", default="HM")
    parser.add_argument("--solver-version", default=None, help="default: the installed solver's")
    parser.add_argument("--range", dest="range_text", default="0:10000")
    parser.add_argument("--workers", type=int, default=2, help="workers the prediction assumes")
    parser.add_argument("--plot", type=Path, default=None)
    args = parser.parse_args()

    entry = solitaire(args.game)
    version = args.solver_version or entry.solver_version
    numbers = parse_range(args.range_text)
    stats = SurveyStats(entry.name, version)
    with open_store(args.db) as store:
        limits = set()
        for result in store.results(entry.tag, version, numbers):
            stats.add(result, cached=True)
            limits.add((result.time_limit, result.node_limit))
    summary = stats.summary()
    for key in ("wall_seconds", "cached", "solved", "time_limit", "node_limit"):
        summary.pop(key)
    summary["range"] = [numbers.start, numbers.stop]
    summary["limits"] = sorted(limits, key=str)
    done = stats.deals
    if done:
        per_deal = stats.times.total / done
        summary["prediction"] = {
            "from_deals": done,
            "mean_solve_seconds": round(per_deal, 4),
            "workers": args.workers,
            "whole_range_hours": round(per_deal * len(numbers) / args.workers / 3600, 2),
        }
    if args.plot is not None:
        args.plot.write_text(histogram_svg(stats.times, f"{entry.title}: solve times of {done} deals"), encoding="utf-8")
    print(json.dumps(summary, indent=1))


if __name__ == "__main__":
    main()
