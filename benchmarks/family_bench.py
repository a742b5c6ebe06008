"""Speed of the family solver on fixed deal sets, and the Half Moon fast path beside it.

For Elevens, Suit Elevens and Tens: solve deals 0 … N-1 and report verdict counts and the
distribution of solve times (median, p90, p99, max) and nodes. For Half Moon: the same
fixed deals solved by the dedicated solver (`solver.halfmoon_solver`, method search) and by
the family engine on the Half Moon preset, so a change to either shows up here. Single
process, wall-clock times on whatever else the machine is doing: compare runs made together.

    python benchmarks/family_bench.py --deals 2000 --hm-deals 30 --time-limit 20 \
        --out benchmarks/results/family.json
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any, Callable

from halfmoon.solver.core.verdicts import Limits
from halfmoon.solver.games.family.presets import load_preset
from halfmoon.solver.games.family.search import solve_deal


def distribution(values: list[float]) -> dict[str, float]:
    ordered = sorted(values)

    def q(p: float) -> float:
        return ordered[min(len(ordered) - 1, int(p * len(ordered)))]

    return {"median": round(statistics.median(ordered), 6), "p90": round(q(0.9), 6), "p99": round(q(0.99), 6),
            "max": round(ordered[-1], 6), "mean": round(statistics.fmean(ordered), 6)}


def measure(solve: Callable[[int], Any], numbers: range) -> dict[str, Any]:
    seconds, nodes, verdicts = [], [], {"winnable": 0, "unwinnable": 0, "unknown": 0}
    for number in numbers:
        started = time.perf_counter()
        result = solve(number)
        seconds.append(time.perf_counter() - started)
        nodes.append(result.nodes)
        verdicts[result.verdict.value] += 1
    return {"deals": len(numbers), **verdicts, "seconds": distribution(seconds),
            "nodes": distribution([float(n) for n in nodes]), "total_seconds": round(sum(seconds), 3)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--deals", type=int, default=2000, help="grid-game deals 0 … N-1 per preset")
    parser.add_argument("--hm-deals", type=int, default=30, help="Half Moon deals 0 … N-1")
    parser.add_argument("--time-limit", type=float, default=20.0, help="seconds per Half Moon deal")
    parser.add_argument("--out", type=Path, default=None, help="also write the JSON report here")
    args = parser.parse_args()
    report: dict[str, Any] = {}
    for tag in ("EL", "SE", "TN"):
        rules = load_preset(tag)
        report[tag] = measure(lambda n, rules=rules: solve_deal(rules, n), range(args.deals))
        print(f"{tag}: {json.dumps(report[tag])}", flush=True)
    if args.hm_deals:
        from halfmoon.dealcodes import deal_halfmoon
        from halfmoon.solver.games.halfmoon import rules as hm
        from halfmoon.solver.games.halfmoon.portfolio import solve as dedicated

        numbers = range(args.hm_deals)
        report["HM-dedicated-search"] = measure(
            lambda n: dedicated(hm.Position.from_deal(deal_halfmoon(n)), "search", Limits(seconds=args.time_limit)), numbers)
        print(f"HM dedicated (search): {json.dumps(report['HM-dedicated-search'])}", flush=True)
        rules = load_preset("HM")
        report["HM-family"] = measure(lambda n: solve_deal(rules, n, limits=Limits(seconds=args.time_limit)), numbers)
        print(f"HM family engine: {json.dumps(report['HM-family'])}", flush=True)
    report["python"] = sys.version.split()[0]
    if args.out:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(json.dumps(report, indent=1) + "\n")


if __name__ == "__main__":
    main()
