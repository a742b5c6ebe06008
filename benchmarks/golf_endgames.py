"""How many stock cards before the end can a two-player Golf round be solved exactly in 60 s?

For each stock count s = 1, 2, … and each deal of a fixed set (GF1 codes from a seeded
generator), the fixed seeded policy plays the round on, nobody going out, until the stock holds
s cards; the exact core then solves the score difference for the player to move (double dummy,
repetition rule included) with a per-solve time limit. Reported per s: solved / unknown, the
distribution of seconds (median, p90, max) and of positions, and the growth curve. The run stops
at its overall budget or when no deal of a level is solved.

    python benchmarks/golf_endgames.py                 # 2 players, 8 deals, 60 s each, 9 min budget
    python benchmarks/golf_endgames.py --players 3 --deals 4 --json
    python benchmarks/golf_endgames.py --stocks 4,6,8,10 --kernels compiled,python   # the two kernels side by side
    python benchmarks/golf_endgames.py --stocks 1,2,3,4,6,8,12,20,99 --deals 20 --budget 7200 --out benchmarks/results/golf_endgames.json

Timings are wall-clock on whatever machine runs it (shared cores are noisy): read them as orders
of magnitude, and compare positions counts, which do not depend on load.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from halfmoon.dealcodes import DEAL_COUNT, DealCode, SplitMix64  # noqa: E402
from halfmoon.solver.core.exact import Limits, solve  # noqa: E402
from halfmoon.solver.core.game import GuaranteedScore, ScoreDifference  # noqa: E402
from halfmoon.solver.games.golf import kernel as golf_kernel  # noqa: E402
from halfmoon.solver.games.golf.kernel import GOLF  # noqa: E402
from halfmoon.solver.games.golf.policy import play_forward
from halfmoon.solver.games.golf.rules import Position


FROM_DEAL = 99  # a stock level meaning: the dealt round itself, from the set-up


def deal_codes(players: int, count: int, seed: int) -> list[str]:
    rng = SplitMix64(seed)
    return [str(DealCode("GF", 1, str(players), rng.below(DEAL_COUNT))) for _ in range(count)]


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def run(players: int, deals: int, seed: int, limit: float, budget: float, max_stock: int,
        method: str = "auto", stocks: list[int] | None = None, kernels: tuple[str, ...] = ("compiled",)) -> dict:
    """`stocks`: the levels to try (stock cards left; 99 = the dealt round itself, set-up included).
    `kernels`: "compiled" and/or "python" (`golf.kernel.NATIVE` on / off); each position is solved
    with each in turn, so that they meet the same machine load."""
    codes = deal_codes(players, deals, seed)
    started = time.perf_counter()
    levels = []
    for stock in (stocks or range(1, max_stock + 1)):
        rows: dict[str, list[dict]] = {name: [] for name in kernels}
        for number, code in enumerate(codes):
            if time.perf_counter() - started > budget:
                break
            if stock >= FROM_DEAL:
                position = Position.from_code(code)
            else:
                position, _ = play_forward(Position.from_code(code), stock, seed + number)
            if position.ended() is not None:
                continue
            question = ScoreDifference(position.to_move) if players == 2 else GuaranteedScore(position.to_move)
            for name in kernels:
                golf_kernel.NATIVE = name == "compiled"
                t0 = time.perf_counter()
                solution = solve(GOLF, position, question, Limits(seconds=limit, nodes=50_000_000), method)
                seconds = time.perf_counter() - t0
                rows[name].append(
                    {
                        "code": code,
                        "kernel": name,
                        "stock_left": len(position.stock),
                        "status": solution.status,
                        "value": solution.value,
                        "bounds": solution.extra.get("bounds"),
                        "moves_settled": sum(m.value is not None for m in solution.moves),
                        "moves": len(solution.moves),
                        "method": solution.method,
                        "seconds": round(seconds, 3),
                        "positions": solution.positions,
                        "nodes": solution.nodes,
                        "positions_per_second": round(solution.positions / seconds) if seconds else None,
                        "nodes_per_second": round(solution.nodes / seconds) if seconds else None,
                        "bytes_per_position": round(solution.bytes_per_position, 1),
                    }
                )
        golf_kernel.NATIVE = True
        for name in kernels:
            levels.append(_level(stock, name, rows[name]))
        if (not any(lv["solved"] for lv in levels[-len(kernels):]) and stocks is None) \
                or time.perf_counter() - started > budget:
            break
    return {
        "players": players,
        "deals": codes,
        "method": method,
        "kernels": list(kernels),
        "compiled_kernel_built": golf_kernel.native_available(),
        "load_average": [round(x, 2) for x in os.getloadavg()],
        "limit_seconds": limit,
        "seed": seed,
        "largest_stock_all_solved": {name: max((lv["stock"] for lv in levels if lv["kernel"] == name
                                                and lv["deals"] and lv["solved"] == lv["deals"]), default=0)
                                     for name in kernels},
        "largest_stock_most_solved": {name: max((lv["stock"] for lv in levels if lv["kernel"] == name
                                                 and lv["deals"] and 2 * lv["solved"] > lv["deals"]), default=0)
                                      for name in kernels},
        "levels": levels,
        "seconds_total": round(time.perf_counter() - started, 1),
    }


def _level(stock: int, kernel: str, rows: list[dict]) -> dict:
    """One stock level's summary for one kernel (printed to stderr as it is made)."""
    solved = [r for r in rows if r["status"] == "solved"]
    secs = [r["seconds"] for r in solved]
    rates = [r["nodes_per_second"] for r in rows if r["nodes_per_second"] and r["nodes"] >= 10_000]
    level = {
        "stock": stock,
        "kernel": kernel,
        "deals": len(rows),
        "solved": len(solved),
        "unknown": len(rows) - len(solved),
        "median_s": round(statistics.median(secs), 3) if secs else None,
        "p90_s": round(percentile(secs, 0.9), 3) if secs else None,
        "max_s": round(max(secs), 3) if secs else None,
        "median_positions": int(statistics.median([r["positions"] for r in solved])) if solved else None,
        "max_positions": max((r["positions"] for r in solved), default=None),
        "median_nodes_per_second": round(statistics.median(rates)) if rates else None,
        "rows": rows,
    }
    print(
        f"stock {stock:2d} ({kernel}): {len(solved)}/{len(rows)} solved; seconds median {level['median_s']} "
        f"p90 {level['p90_s']} max {level['max_s']}; positions median {level['median_positions']} "
        f"max {level['max_positions']}; nodes/s median {level['median_nodes_per_second']} (solves of 10 000+ nodes)",
        file=sys.stderr,
        flush=True,
    )
    return level


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--deals", type=int, default=8)
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument("--limit", type=float, default=60.0, help="seconds per solve")
    parser.add_argument("--budget", type=float, default=540.0, help="seconds for the whole run")
    parser.add_argument("--max-stock", type=int, default=20)
    parser.add_argument("--method", default="auto", help="auto (alpha-beta), alphabeta or negamax (the old reference)")
    parser.add_argument("--stocks", help="stock levels to try, e.g. 1,2,4,8,20,99 (99: the dealt round, set-up included)")
    parser.add_argument("--kernels", default="compiled",
                        help="compiled, python, or both side by side (compiled,python): which Golf kernel solves")
    parser.add_argument("--json", action="store_true", help="print the full result as JSON")
    parser.add_argument("--out", type=Path, help="also write the JSON result here")
    args = parser.parse_args()
    stocks = [int(x) for x in args.stocks.split(",")] if args.stocks else None
    kernels = tuple(args.kernels.split(","))
    if not kernels or any(k not in ("compiled", "python") for k in kernels):
        parser.error(f"--kernels {args.kernels!r}: expected compiled, python or compiled,python")
    if "compiled" in kernels and not golf_kernel.native_available():
        parser.error("--kernels compiled: the compiled Golf kernel is not built (pip install -e . with a C compiler)")
    result = run(args.players, args.deals, args.seed, args.limit, args.budget, args.max_stock, args.method, stocks,
                 kernels)
    if args.out:
        args.out.write_text(json.dumps(result, indent=1) + "\n")
    if args.json:
        print(json.dumps(result))
    else:
        for name in kernels:
            print(
                f"{args.players} players, {args.deals} deals, {args.limit:g} s per solve, {name} kernel: every deal "
                f"solved up to {result['largest_stock_all_solved'][name]} stock cards left, most deals up to "
                f"{result['largest_stock_most_solved'][name]}"
            )
        print(f"{result['seconds_total']} s in all")


if __name__ == "__main__":
    main()
