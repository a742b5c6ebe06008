"""Half Moon solvers side by side: `auto`, `search`, `python` and `cpsat` on fixed HM1 deals.

The solvers (``--solvers``):

- ``auto``: the default portfolio (both search directions, CP-SAT as the safety net) on the
  native engine (the compiled kernel);
- ``search``: the search alone on the native engine, with a node budget (``--search-nodes``);
- ``python``: the same search on the Python engine (the readable reference), same budget;
- ``cpsat``: CP-SAT alone.

Every deal is solved by every solver in turn inside one process (one core), so machine noise
falls on all of them alike; the order of the solvers is shuffled for every deal. Each record
goes to a JSON-lines file as it is made (a long run can be stopped and summarised later with
--summarize); the summary is a table and a JSON document: decided count, median / mean /
p90 / p99 / max, total time, nodes, nodes per CPU second, peak memory, and the ratio of each
solver's total time to CP-SAT alone. Verdicts of different
solvers are cross-checked (a winnable/unwinnable disagreement is reported loudly: it would be
a bug), and `search` and `python` must agree node for node (same verdict, nodes and line).

Times are wall seconds and process CPU seconds (CP-SAT's thread included); on a shared
machine CPU seconds are the steadier measure. The header records the conditions: CPU model,
cores, load averages at the start and the end, Python, the solver version.

    python benchmarks/halfmoon_solvers.py                       # deals 0-999, all four, into ./halfmoon_solvers.jsonl
    python benchmarks/halfmoon_solvers.py --out benchmarks/results/halfmoon_solvers.jsonl \
        --summary benchmarks/results/halfmoon_solvers.summary.json   # refresh the committed results
    python benchmarks/halfmoon_solvers.py --deals 0:200 --solvers auto,cpsat
    python benchmarks/halfmoon_solvers.py --sample 50 --out /tmp/hm.jsonl
    python benchmarks/halfmoon_solvers.py --summarize benchmarks/results/halfmoon_solvers.jsonl
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
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
from halfmoon.solver.core.verdicts import Limits  # noqa: E402
from halfmoon.solver.games.halfmoon import kernel  # noqa: E402
from halfmoon.solver.games.halfmoon.portfolio import DEFAULT_TIME_LIMIT, SOLVER_VERSION, solve  # noqa: E402
from halfmoon.solver.games.halfmoon.rules import Position  # noqa: E402

DEFAULT_OUT = Path("halfmoon_solvers.jsonl")  # the current folder: a trial run never overwrites the committed results
SEARCH_NODES = 2_000_000
#: solver name -> (method, engine, node-limited)
SOLVERS = {
    "auto": ("auto", "native", False),
    "search": ("search", "native", True),
    "python": ("search", "python", True),
    "cpsat": ("cpsat", None, False),
}


def cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def conditions() -> dict[str, Any]:
    return {"cpu": cpu_model(), "cores": os.cpu_count(), "load": [round(x, 2) for x in os.getloadavg()],
            "python": platform.python_version(), "machine": platform.machine(),
            "native_built": kernel.available()}


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


def run(numbers: list[int], solvers: list[str], time_limit: float, search_nodes: int, out: Path) -> None:
    unknown = [name for name in solvers if name not in SOLVERS]
    if unknown:
        raise SystemExit(f"unknown solver(s) {', '.join(unknown)}: expected {', '.join(SOLVERS)}")
    if not kernel.available() and any(SOLVERS[name][1] == "native" for name in solvers):
        raise SystemExit(f"the native engine is not built ({kernel.unavailable_reason()}): run with --solvers python,cpsat")
    out.parent.mkdir(parents=True, exist_ok=True)
    with out.open("w") as sink:
        header = {"header": True, "solver_version": SOLVER_VERSION, "solvers": solvers, "time_limit": time_limit,
                  "search_nodes": search_nodes, "deals": [numbers[0], numbers[-1], len(numbers)],
                  "started": time.strftime("%Y-%m-%d %H:%M:%S"), **conditions()}
        sink.write(json.dumps(header) + "\n")
        for count, number in enumerate(numbers, start=1):
            position = Position.from_deal(deal_halfmoon(number))
            verdicts = {}
            # A fresh order for every deal (seeded by the deal): whatever runs just after CP-SAT
            # finds the caches cold (about +0.15 ms), so no solver should always be the one that
            # follows it (a rotation would not do: it keeps who follows whom).
            order = list(solvers)
            SplitMix64(number).shuffle(order)
            for name in order:
                method, engine, limited = SOLVERS[name]
                limits = Limits(seconds=time_limit, nodes=search_nodes if limited else None)
                wall, cpu = time.perf_counter(), time.process_time()
                result = solve(position, method, limits, engine=engine)
                wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
                verdicts[name] = result.verdict.value
                line = " ".join(map(str, result.line)) if result.line else ""
                record = {"deal": number, "solver": name, "verdict": result.verdict.value,
                          "decided_by": result.method, "engine": result.stats.get("engine"), "nodes": result.nodes,
                          "wall": round(wall, 6), "cpu": round(cpu, 6), "rss_mb": round(peak_rss_mb(), 1),
                          "line": hashlib.sha1(line.encode()).hexdigest()[:12] if line else None}
                sink.write(json.dumps(record) + "\n")
            sink.flush()
            decided = {v for v in verdicts.values() if v != "unknown"}
            if len(decided) > 1:
                print(f"DISAGREEMENT on deal {number}: {verdicts}", file=sys.stderr, flush=True)
            if count % 50 == 0:
                print(f"{count}/{len(numbers)} deals", file=sys.stderr, flush=True)
        sink.write(json.dumps({"footer": True, "finished": time.strftime("%Y-%m-%d %H:%M:%S"),
                               "load": [round(x, 2) for x in os.getloadavg()]}) + "\n")


def quantile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    index = min(len(ordered) - 1, max(0, int(round(q * (len(ordered) - 1)))))
    return ordered[index]


def summarize(paths: list[Path]) -> dict[str, Any]:
    """Summarise one or more record files (solvers may come from different runs)."""
    headers: list[dict[str, Any]] = []
    records: list[dict[str, Any]] = []
    for path in paths:
        for line in path.read_text().splitlines():
            row = json.loads(line)
            if row.get("header") or row.get("footer"):
                headers.append(row)
            else:
                row.setdefault("solver", row.get("method"))  # records from before the engines
                records.append(row)
    header = {"runs": headers}
    solvers = [m for h in headers for m in h.get("solvers", h.get("methods", []))] \
        or sorted({r["solver"] for r in records})
    by_deal: dict[int, dict[str, dict[str, Any]]] = {}
    for row in records:
        by_deal.setdefault(row["deal"], {})[row["solver"]] = row
    # Only deals every solver has finished count, so the comparison is like for like.
    complete = {deal for deal, seen in by_deal.items() if all(m in seen for m in solvers)}
    disagreements = [deal for deal in sorted(complete)
                     if len({r["verdict"] for r in by_deal[deal].values() if r["verdict"] != "unknown"}) > 1]
    engines_differ = []
    if "search" in solvers and "python" in solvers:
        engines_differ = [deal for deal in sorted(complete)
                          if any(by_deal[deal]["search"].get(k) != by_deal[deal]["python"].get(k)
                                 for k in ("verdict", "nodes", "line"))]
    summary: dict[str, Any] = {"header": header, "deals": len(complete), "disagreements": disagreements,
                               "engines_differ": engines_differ,
                               "peak_rss_mb": max((r["rss_mb"] for r in records), default=0), "solvers": {}}
    for name in solvers:
        rows = [r for r in records if r["solver"] == name and r["deal"] in complete]
        entry: dict[str, Any] = {"decided": sum(r["verdict"] != "unknown" for r in rows), "deals": len(rows),
                                 "winnable": sum(r["verdict"] == "winnable" for r in rows),
                                 "unwinnable": sum(r["verdict"] == "unwinnable" for r in rows),
                                 "nodes": sum(r["nodes"] for r in rows)}
        for clock in ("wall", "cpu"):
            values = [r[clock] for r in rows]
            entry[clock] = {"median": quantile(values, 0.5), "p90": quantile(values, 0.9),
                            "p99": quantile(values, 0.99), "max": max(values, default=0.0),
                            "total": sum(values), "mean": sum(values) / len(values) if values else 0.0}
        entry["nodes_per_cpu_second"] = entry["nodes"] / entry["cpu"]["total"] if entry["cpu"]["total"] else 0.0
        entry["decided_by"] = {k: sum(r["decided_by"] == k for r in rows) for k in ("search", "cpsat", "none")}
        summary["solvers"][name] = entry
    if "cpsat" in summary["solvers"]:
        base = summary["solvers"]["cpsat"]
        for entry in summary["solvers"].values():
            for clock in ("wall", "cpu"):
                entry[clock]["speedup_vs_cpsat"] = (base[clock]["total"] / entry[clock]["total"]
                                                    if entry[clock]["total"] else float("inf"))
    return summary


def table(summary: dict[str, Any]) -> str:
    def ms(seconds: float) -> str:
        return f"{seconds * 1000:.2f} ms" if seconds < 1 else f"{seconds:.2f} s"

    runs = [h for h in summary["header"]["runs"] if h.get("header")]
    lines = [f"deals: {summary['deals']}, disagreements: {summary['disagreements'] or 'none'}, "
             f"native vs python (verdict, nodes, line): {summary['engines_differ'] or 'identical'}, "
             f"peak memory {summary['peak_rss_mb']:.0f} MB (whole process)"]
    for run in runs:
        lines.append(f"run {run.get('started')}: {run.get('cpu', '?')}, {run.get('cores', '?')} cores, "
                     f"load {run.get('load', '?')}, Python {run.get('python', '?')}, {run.get('solver_version')}")
    lines.append("")
    for clock in ("cpu", "wall"):
        lines.append(f"{clock} time per deal:")
        lines.append("| solver | decided | winnable | unwinnable | median | mean | p90 | p99 | max | total | nodes "
                     "| nodes/s | total vs CP-SAT |")
        lines.append("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |")
        for name, entry in summary["solvers"].items():
            t = entry[clock]
            speed = t.get("speedup_vs_cpsat")
            rate = entry.get("nodes_per_cpu_second", 0.0)
            lines.append(
                f"| {name} | {entry['decided']}/{entry['deals']} | {entry['winnable']} | {entry['unwinnable']} | "
                f"{ms(t['median'])} | {ms(t.get('mean', 0.0))} | {ms(t['p90'])} | {ms(t['p99'])} | {ms(t['max'])} | "
                f"{t['total']:.2f} s | {entry['nodes']:,} | {rate:,.0f} | "
                f"{'' if speed is None else f'{speed:.0f}x'} |".replace(",", " ")
            )
        lines.append("")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--deals", type=parse_range, default=range(0, 1000), help="deal numbers A:B (default 0:1000)")
    parser.add_argument("--sample", type=int, help="solve only N deals of the range (reproducible draw)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the --sample draw")
    parser.add_argument("--solvers", "--methods", dest="solvers", default="auto,search,python,cpsat",
                        help="comma-separated: auto, search, python, cpsat (default: all four)")
    parser.add_argument("--time-limit", type=float, default=DEFAULT_TIME_LIMIT, help="seconds per deal and solver")
    parser.add_argument("--search-nodes", type=int, default=SEARCH_NODES, help="node budget of 'search' and 'python'")
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT, help="JSON-lines records (written as it goes)")
    parser.add_argument("--summary", type=Path, help="also write the summary JSON here")
    parser.add_argument("--summarize", type=Path, nargs="+",
                        help="only summarise existing record files (several: solvers from separate runs)")
    args = parser.parse_args()
    paths = args.summarize
    if paths is None:
        solvers = [m.strip() for m in args.solvers.split(",") if m.strip()]
        run(pick(args.deals, args.sample, args.seed), solvers, args.time_limit, args.search_nodes, args.out)
        paths = [args.out]
    summary = summarize(paths)
    print(table(summary))
    target = args.summary or paths[0].with_suffix(".summary.json")
    target.write_text(json.dumps(summary, indent=2) + "\n")
    print(f"summary written to {target}")


if __name__ == "__main__":
    main()
