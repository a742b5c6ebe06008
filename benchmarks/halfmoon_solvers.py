"""Half Moon solvers side by side: `auto`, `search` (node budget) and `cpsat` on fixed HM1 deals.

Every deal is solved by every method in turn inside one process (one core), so machine
noise falls on all methods alike. Each record goes to a JSON-lines file as it is made (a
long run can be stopped and summarised later with --summarize); the summary is a table
and a JSON document: decided count, median / p90 / p99 / max, total time, nodes, peak
memory, and the ratio of each method's total time to CP-SAT alone. Verdicts of different
methods are cross-checked: a winnable/unwinnable disagreement is reported loudly (and
would be a bug).

Times are wall seconds and process CPU seconds (CP-SAT's thread included); on a shared
machine CPU seconds are the steadier measure.

    python benchmarks/halfmoon_solvers.py                       # deals 0-999, all methods
    python benchmarks/halfmoon_solvers.py --deals 0:200 --methods auto,cpsat
    python benchmarks/halfmoon_solvers.py --sample 50 --out /tmp/hm.jsonl
    python benchmarks/halfmoon_solvers.py --summarize benchmarks/results/halfmoon_solvers.jsonl
"""

from __future__ import annotations

import argparse
import json
import platform
import resource
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from halfmoon.dealcodes import deal_halfmoon  # noqa: E402
from halfmoon.dealcodes.rng import SplitMix64  # noqa: E402
from halfmoon.solver.games.halfmoon.portfolio import (
    DEFAULT_TIME_LIMIT,
    SOLVER_VERSION,
    solve,
)
from halfmoon.solver.games.halfmoon.rules import Position

DEFAULT_OUT = ROOT / "benchmarks" / "results" / "halfmoon_solvers.jsonl"
SEARCH_NODES = 2_000_000


def parse_range(text: str) -> range:
    start, _, stop = text.partition(":")
    return range(int(start), int(stop))


def pick(deals: range, sample: int | None, seed: int) -> list[int]:
    """All deals, or `sample` of them drawn without replacement (SplitMix64, reproducible)."""
    numbers = list(deals)
    if sample is None or sample >= len(numbers):
        return numbers
    rng = SplitMix64(seed)
    rng.shuffle(numbers)
    return sorted(numbers[:sample])


def peak_rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def run(numbers: list[int], methods: list[str], time_limit: float, search_nodes: int, out: Path) -> None:
    out.parent.mkdir(parents=True, exist_ok=True)
    with out.open("w") as sink:
        header = {"header": True, "solver_version": SOLVER_VERSION, "methods": methods, "time_limit": time_limit,
                  "search_nodes": search_nodes, "deals": [numbers[0], numbers[-1], len(numbers)],
                  "python": platform.python_version(), "machine": platform.machine(),
                  "started": time.strftime("%Y-%m-%d %H:%M:%S")}
        sink.write(json.dumps(header) + "\n")
        for count, number in enumerate(numbers, start=1):
            position = Position.from_deal(deal_halfmoon(number))
            verdicts = {}
            for method in methods:
                wall, cpu = time.perf_counter(), time.process_time()
                result = solve(position, method, time_limit=time_limit,
                               node_limit=search_nodes if method == "search" else None)
                wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
                verdicts[method] = result.verdict.value
                record = {"deal": number, "method": method, "verdict": result.verdict.value,
                          "decided_by": result.method, "nodes": result.nodes, "wall": round(wall, 6),
                          "cpu": round(cpu, 6), "rss_mb": round(peak_rss_mb(), 1),
                          "oracle_calls": result.stats.get("oracle_calls", 0)}
                sink.write(json.dumps(record) + "\n")
            sink.flush()
            decided = {v for v in verdicts.values() if v != "unknown"}
            if len(decided) > 1:
                print(f"DISAGREEMENT on deal {number}: {verdicts}", file=sys.stderr, flush=True)
            if count % 50 == 0:
                print(f"{count}/{len(numbers)} deals", file=sys.stderr, flush=True)


def quantile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    index = min(len(ordered) - 1, max(0, int(round(q * (len(ordered) - 1)))))
    return ordered[index]


def summarize(paths: list[Path]) -> dict[str, Any]:
    """Summarise one or more record files (methods may come from different runs)."""
    headers: list[dict[str, Any]] = []
    records: list[dict[str, Any]] = []
    for path in paths:
        for line in path.read_text().splitlines():
            row = json.loads(line)
            if row.get("header"):
                headers.append(row)
            else:
                records.append(row)
    header = {"runs": headers}
    methods = [m for h in headers for m in h.get("methods", [])] or sorted({r["method"] for r in records})
    by_deal: dict[int, dict[str, str]] = {}
    for row in records:
        by_deal.setdefault(row["deal"], {})[row["method"]] = row["verdict"]
    # Only deals every method has finished count, so the comparison is like for like.
    complete = {deal for deal, seen in by_deal.items() if all(m in seen for m in methods)}
    disagreements = [deal for deal in sorted(complete)
                     if len({v for v in by_deal[deal].values() if v != "unknown"}) > 1]
    summary: dict[str, Any] = {"header": header, "deals": len(complete), "disagreements": disagreements,
                               "peak_rss_mb": max((r["rss_mb"] for r in records), default=0), "methods": {}}
    for method in methods:
        rows = [r for r in records if r["method"] == method and r["deal"] in complete]
        entry: dict[str, Any] = {"decided": sum(r["verdict"] != "unknown" for r in rows), "deals": len(rows),
                                 "winnable": sum(r["verdict"] == "winnable" for r in rows),
                                 "unwinnable": sum(r["verdict"] == "unwinnable" for r in rows),
                                 "nodes": sum(r["nodes"] for r in rows)}
        for clock in ("wall", "cpu"):
            values = [r[clock] for r in rows]
            entry[clock] = {"median": quantile(values, 0.5), "p90": quantile(values, 0.9),
                            "p99": quantile(values, 0.99), "max": max(values, default=0.0),
                            "total": sum(values)}
        entry["decided_by"] = {k: sum(r["decided_by"] == k for r in rows) for k in ("search", "cpsat", "none")}
        summary["methods"][method] = entry
    if "cpsat" in summary["methods"]:
        base = summary["methods"]["cpsat"]
        for entry in summary["methods"].values():
            for clock in ("wall", "cpu"):
                entry[clock]["speedup_vs_cpsat"] = (base[clock]["total"] / entry[clock]["total"]
                                                    if entry[clock]["total"] else float("inf"))
    return summary


def table(summary: dict[str, Any]) -> str:
    def ms(seconds: float) -> str:
        return f"{seconds * 1000:.1f} ms" if seconds < 1 else f"{seconds:.2f} s"

    lines = [f"deals: {summary['deals']}, disagreements: {summary['disagreements'] or 'none'}, "
             f"peak memory {summary['peak_rss_mb']:.0f} MB (whole process)", ""]
    for clock in ("cpu", "wall"):
        lines.append(f"{clock} time per deal:")
        lines.append("| method | decided | winnable | unwinnable | median | p90 | p99 | max | total | nodes | total vs CP-SAT |")
        lines.append("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |")
        for method, entry in summary["methods"].items():
            t = entry[clock]
            speed = t.get("speedup_vs_cpsat")
            lines.append(
                f"| {method} | {entry['decided']}/{entry['deals']} | {entry['winnable']} | {entry['unwinnable']} | "
                f"{ms(t['median'])} | {ms(t['p90'])} | {ms(t['p99'])} | {ms(t['max'])} | {t['total']:.1f} s | "
                f"{entry['nodes']:,} | {'' if speed is None else f'{speed:.1f}x'} |".replace(",", " ")
            )
        lines.append("")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--deals", type=parse_range, default=range(0, 1000), help="deal numbers A:B (default 0:1000)")
    parser.add_argument("--sample", type=int, help="solve only N deals of the range (reproducible draw)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the --sample draw")
    parser.add_argument("--methods", default="auto,search,cpsat", help="comma-separated: auto, search, cpsat")
    parser.add_argument("--time-limit", type=float, default=DEFAULT_TIME_LIMIT, help="seconds per deal and method")
    parser.add_argument("--search-nodes", type=int, default=SEARCH_NODES, help="node budget of 'search'")
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT, help="JSON-lines records (written as it goes)")
    parser.add_argument("--summary", type=Path, help="also write the summary JSON here")
    parser.add_argument("--summarize", type=Path, nargs="+",
                        help="only summarise existing record files (several: methods from separate runs)")
    args = parser.parse_args()
    paths = args.summarize
    if paths is None:
        methods = [m.strip() for m in args.methods.split(",") if m.strip()]
        run(pick(args.deals, args.sample, args.seed), methods, args.time_limit, args.search_nodes, args.out)
        paths = [args.out]
    summary = summarize(paths)
    print(table(summary))
    target = args.summary or paths[0].with_suffix(".summary.json")
    target.write_text(json.dumps(summary, indent=2) + "\n")
    print(f"summary written to {target}")


if __name__ == "__main__":
    main()
