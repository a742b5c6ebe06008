"""How many stock cards before the end can a two-player Golf round be solved exactly in 60 s?

For each stock count s = 1, 2, … and each deal of a fixed set (GF1 codes from a seeded
generator), the fixed seeded policy plays the round on, nobody going out, until the stock holds
s cards; the exact core then solves the score difference for the player to move (double dummy,
repetition rule included) with a per-solve time limit. Reported per s: solved / unknown, the
distribution of seconds (median, p90, max) and of positions, and the growth curve. The run stops
at its overall budget or when no deal of a level is solved.

    python benchmarks/golf_endgames.py                 # 2 players, 8 deals, 60 s each, 9 min budget
    python benchmarks/golf_endgames.py --players 3 --deals 4 --json
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
from halfmoon.solver.games.golf.kernel import GOLF
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
        method: str = "auto", stocks: list[int] | None = None) -> dict:
    """`stocks`: the levels to try (stock cards left; 99 = the dealt round itself, set-up included)."""
    codes = deal_codes(players, deals, seed)
    started = time.perf_counter()
    levels = []
    for stock in (stocks or range(1, max_stock + 1)):
        rows = []
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
            t0 = time.perf_counter()
            solution = solve(GOLF, position, question, Limits(seconds=limit, nodes=50_000_000), method)
            seconds = time.perf_counter() - t0
            rows.append(
                {
                    "code": code,
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
        solved = [r for r in rows if r["status"] == "solved"]
        secs = [r["seconds"] for r in solved]
        level = {
            "stock": stock,
            "deals": len(rows),
            "solved": len(solved),
            "unknown": len(rows) - len(solved),
            "median_s": round(statistics.median(secs), 3) if secs else None,
            "p90_s": round(percentile(secs, 0.9), 3) if secs else None,
            "max_s": round(max(secs), 3) if secs else None,
            "median_positions": int(statistics.median([r["positions"] for r in solved])) if solved else None,
            "max_positions": max((r["positions"] for r in solved), default=None),
            "rows": rows,
        }
        levels.append(level)
        print(
            f"stock {stock:2d}: {len(solved)}/{len(rows)} solved; seconds median {level['median_s']} "
            f"p90 {level['p90_s']} max {level['max_s']}; positions median {level['median_positions']} "
            f"max {level['max_positions']}",
            file=sys.stderr,
            flush=True,
        )
        if (not solved and stocks is None) or time.perf_counter() - started > budget:
            break
    all_solved = [lv["stock"] for lv in levels if lv["deals"] and lv["solved"] == lv["deals"]]
    most_solved = [lv["stock"] for lv in levels if lv["deals"] and 2 * lv["solved"] > lv["deals"]]
    return {
        "players": players,
        "deals": codes,
        "method": method,
        "load_average": [round(x, 2) for x in os.getloadavg()],
        "limit_seconds": limit,
        "seed": seed,
        "largest_stock_all_solved": max(all_solved, default=0),
        "largest_stock_most_solved": max(most_solved, default=0),
        "levels": levels,
        "seconds_total": round(time.perf_counter() - started, 1),
    }


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
    parser.add_argument("--json", action="store_true", help="print the full result as JSON")
    parser.add_argument("--out", type=Path, help="also write the JSON result here")
    args = parser.parse_args()
    stocks = [int(x) for x in args.stocks.split(",")] if args.stocks else None
    result = run(args.players, args.deals, args.seed, args.limit, args.budget, args.max_stock, args.method, stocks)
    if args.out:
        args.out.write_text(json.dumps(result, indent=1) + "\n")
    if args.json:
        print(json.dumps(result))
    else:
        print(
            f"{args.players} players, {args.deals} deals, {args.limit:g} s per solve: every deal solved up to "
            f"{result['largest_stock_all_solved']} stock cards left, most deals up to "
            f"{result['largest_stock_most_solved']} ({result['seconds_total']} s in all)"
        )


if __name__ == "__main__":
    main()
