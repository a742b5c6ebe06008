"""Spit on the exact core: how solve time grows with the stock cards left, up to whole deals.

For SP1 deals 0 … N-1: play each round with the endgame policy (seeded, as
`halfmoon endgame spit --until endgame` does) and, for every level L in `--levels`, take the
first position whose two stocks together hold at most L cards; solve win/loss/draw for the
player to move with the given limits (60 s by default) and record status, seconds, positions
and the value. L = 30 is the dealt round itself. The report gives, per level, the solved /
unknown counts and the distribution of seconds and positions (median, p90, max), and the
largest level at which every deal was solved within the limit. Also checks every answer's
principal line by replaying it. Single process, wall-clock times on whatever else the
machine is doing: compare runs made together.

    python benchmarks/spit_endgames.py --deals 20 --out benchmarks/results/spit_endgames.json
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any

from halfmoon.dealcodes import deal_spit
from halfmoon.solver.core.exact import SOLVED, Limits, replay_line, solve
from halfmoon.solver.core.game import WinLoss
from halfmoon.solver.games.spit.policy import play_until_endgame
from halfmoon.solver.games.spit.kernel import GAME
from halfmoon.solver.games.spit.rules import position_from_deal, terminal
from halfmoon.solver.games.spit.search import solitaire_count


def distribution(values: list[float]) -> dict[str, float] | None:
    if not values:
        return None
    ordered = sorted(values)

    def q(p: float) -> float:
        return ordered[min(len(ordered) - 1, int(p * len(ordered)))]

    return {"median": round(statistics.median(ordered), 4), "p90": round(q(0.9), 4), "max": round(ordered[-1], 4)}


def stock_total(position: Any) -> int:
    return position.stock_left(0) + position.stock_left(1)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--deals", type=int, default=20, help="SP1 deals 0 … N-1")
    parser.add_argument("--levels", default="30,26,22,18,14,10", help="stock cards left for both, comma-separated")
    parser.add_argument("--seconds", type=float, default=60.0, help="time limit per solve")
    parser.add_argument("--max-positions", type=int, default=5_000_000)
    parser.add_argument("--method", choices=["auto", "negamax", "retrograde"], default="auto")
    parser.add_argument("--seed", type=int, default=0, help="seed of the policy that plays down to each level")
    parser.add_argument("--out", type=Path, default=None, help="also write the JSON report here")
    args = parser.parse_args()
    levels = sorted({int(x) for x in args.levels.split(",")}, reverse=True)
    limits = Limits(nodes=args.max_positions, seconds=args.seconds)
    rows: list[dict[str, Any]] = []
    solitaire_seconds: list[float] = []
    for number in range(args.deals):
        start = position_from_deal(deal_spit(number))
        t0 = time.perf_counter()
        for seat in (0, 1):
            solitaire_count(start, seat)
        solitaire_seconds.append(time.perf_counter() - t0)
        for level in levels:
            position, _ = play_until_endgame(start, args.seed, level)
            if terminal(position) is not None:
                continue  # the round ended before reaching this level
            t0 = time.perf_counter()
            solution = solve(GAME, position, WinLoss(position.to_move), limits, args.method)
            seconds = time.perf_counter() - t0
            if solution.status == SOLVED:
                final = replay_line(GAME, position, solution.line)
                assert terminal(final) is not None, "principal line does not reach the end of the round"
            row = {"deal": number, "level": level, "stock": stock_total(position), "status": solution.status,
                   "value": solution.value, "seconds": round(seconds, 4), "positions": solution.positions,
                   "nodes": solution.nodes, "method": solution.method,
                   "bytes_per_position": round(solution.bytes_per_position, 1)}
            rows.append(row)
            print(json.dumps(row), flush=True)
    summary: dict[str, Any] = {}
    for level in levels:
        here = [r for r in rows if r["level"] == level]
        solved = [r for r in here if r["status"] == SOLVED]
        summary[str(level)] = {
            "positions_solved": len(solved),
            "unknown": len(here) - len(solved),
            "wins_for_mover": sum(r["value"] == 1 for r in solved),
            "losses_for_mover": sum(r["value"] == -1 for r in solved),
            "draws": sum(r["value"] == 0 for r in solved),
            "seconds": distribution([r["seconds"] for r in solved]),
            "positions": distribution([float(r["positions"]) for r in solved]),
        }
    all_solved = [lv for lv in levels if summary[str(lv)]["unknown"] == 0 and summary[str(lv)]["positions_solved"]]
    largest = max(
        (r["stock"] for r in rows if r["status"] == SOLVED and r["seconds"] <= args.seconds), default=None
    )
    report = {
        "deals": args.deals,
        "limits": limits.to_json(),
        "method": args.method,
        "policy_seed": args.seed,
        "python": sys.version.split()[0],
        "by_level": summary,
        "largest_level_all_solved": max(all_solved, default=None),
        "largest_stock_solved": largest,
        "solitaire_seconds_per_deal": distribution(solitaire_seconds),
        "rows": rows,
    }
    print(json.dumps({k: v for k, v in report.items() if k != "rows"}, indent=2))
    if args.out is not None:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(json.dumps(report, indent=1) + "\n")


if __name__ == "__main__":
    main()
