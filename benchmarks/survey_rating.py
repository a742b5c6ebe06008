"""Measure the difficulty-score distribution of winnable deals and derive the tier cut points.

Rates the first N deals that `generate --seed SEED` emits (a reproducible spread over all
deals), writes their rating measures as JSON lines, and prints score quantiles and the cut
points that split them 40% easy / 30% medium / 20% hard / 10% expert. The cut points in
`solver/rating.py` (TIER_CUTS) come from a run of this script; docs/curation.md records it.

    python benchmarks/survey_rating.py --count 150 --seed 1 --workers 2 --out benchmarks/results/rating_hm.jsonl

Re-reading a measures file (--from FILE) recomputes scores and cut points without rating
again, e.g. after a change of weights.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from halfmoon.dealcodes import sample_numbers
from halfmoon.solver.catalogue import solitaire
from halfmoon.solver.core.batch import LocalPool
from halfmoon.solver.rating import Rating
from halfmoon.solver.survey import run_generate

SPLIT = (0.40, 0.70, 0.90)  # cumulative shares below medium, hard, expert


def quantile(sorted_values: list[float], q: float) -> float:
    """The lower empirical quantile (a value that occurs in the data)."""
    index = min(len(sorted_values) - 1, max(0, int(q * len(sorted_values) + 0.5) - 1))
    return sorted_values[index]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", default="HM")
    parser.add_argument("--count", type=int, default=150)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=None)
    parser.add_argument("--out", type=Path, default=None)
    parser.add_argument("--from", dest="source", type=Path, default=None, help="re-read a measures file")
    args = parser.parse_args()

    ratings: list[Rating] = []
    if args.source is not None:
        for line in args.source.read_text().splitlines():
            data = json.loads(line)
            data.pop("score", None), data.pop("tier", None)
            ratings.append(Rating.from_json(data))
    else:
        pool = LocalPool(args.workers)
        out = args.out.open("w") if args.out else None
        started = time.perf_counter()
        try:
            for curated in run_generate(solitaire(args.game), sample_numbers(args.seed), args.count, pool):
                ratings.append(curated.rating)
                row = curated.to_json()
                if out:
                    out.write(json.dumps(row, sort_keys=True) + "\n")
                    out.flush()
                print(f"{len(ratings):>4} {row['code']} {row['score']:>5} {row['tier']} "
                      f"({time.perf_counter() - started:.0f} s)", file=sys.stderr)
        finally:
            pool.close()
            if out:
                out.close()
    scores = sorted(r.score for r in ratings)
    print(f"{len(scores)} rated deals; score min {scores[0]}, median {quantile(scores, 0.5)}, max {scores[-1]}")
    for q in (0.1, 0.25, 0.4, 0.5, 0.7, 0.75, 0.9, 0.99):
        print(f"  q{int(q * 100):02d} {quantile(scores, q)}")
    cuts = tuple(quantile(scores, q) for q in SPLIT)
    print(f"cut points (lowest score of medium, hard, expert): {cuts}")
    unresolved = sum(r.unresolved > 0 for r in ratings)
    print(f"deals with unresolved trap checks: {unresolved}; mean traps {sum(r.traps for r in ratings) / len(ratings):.1f}"
          f"; mean greedy wins {sum(r.greedy_wins for r in ratings) / len(ratings):.2f}/{ratings[0].greedy_playouts}")


if __name__ == "__main__":
    main()
