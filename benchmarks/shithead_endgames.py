"""Shithead on the exact core: speed, and how solve time grows with the cards in play.

Two sets of two-player endgames (stock empty), each solved for win/loss/draw of the player to
move with the given limits (60 s by default), every principal line replayed through the rules:

* `--kind table` (default), the growth curve: for each level K in `--levels` (cards per player)
  and seeds 0 … N-1, a seeded table where each player holds K cards — face-down first (up to
  3), then face-up (up to 3), the rest in hand — and 2 cards lie on the pile; the rest of the
  deck is burned. Cards in play = 2K + 2.
* `--kind deals`: SH1-2 deals 0 … N-1 played with the fixed seeded policy until the stock is
  empty (what `halfmoon endgame shithead --code … --until endgame` solves).

Per level the report gives the solved / unknown counts, the distribution of seconds, positions,
positions per second and bytes per position (median, p90, max), and the largest level at which
every position was solved within the limit. Levels stop after the first one where nothing was
solved. Single process, wall-clock times on whatever else the machine is doing.

    python benchmarks/shithead_endgames.py --seeds 5 --out benchmarks/results/shithead_endgames.json
    python benchmarks/shithead_endgames.py --seeds 10 --levels 4,6,8,10,12 --out benchmarks/results/shithead_endgames_proof.json
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import time
from pathlib import Path
from typing import Any

from halfmoon.dealcodes import DealCode, shuffled, standard_deck
from halfmoon.solver.core.exact import SOLVED, Limits, replay_line, solve
from halfmoon.solver.core.game import WinLoss
from halfmoon.solver.games.shithead.kernel import GAME
from halfmoon.solver.games.shithead.policy import play_until_endgame
from halfmoon.solver.games.shithead.rules import Position


def cards_in_play(position: Position) -> int:
    return sum(position.cards_of(s) for s in range(position.players)) + len(position.pile)


def table_endgame(seed: int, per_player: int, pile: int = 2) -> Position:
    """A seeded two-player endgame: `per_player` cards each (face-down, then face-up, then hand)."""
    deck = shuffled(standard_deck(), seed * 1009 + per_player)
    hands, ups, downs = [], [], []
    for _ in range(2):
        down = min(3, per_player)
        up = min(3, per_player - down)
        hand = per_player - down - up
        downs.append(tuple(deck[:down]))
        ups.append(tuple(deck[down:down + up]))
        hands.append(tuple(sorted(deck[down + up:per_player])))
        deck = deck[per_player:]
        assert len(hands[-1]) == hand
    return Position(tuple(hands), tuple(ups), tuple(downs), (), tuple(deck[:pile]), tuple(deck[pile:]), 0)


def deal_endgame(number: int) -> Position:
    start = Position.from_deal_code(str(DealCode("SH", 1, "2", number)))
    return play_until_endgame(start, 0)[0]


def distribution(values: list[float]) -> dict[str, float] | None:
    if not values:
        return None
    ordered = sorted(values)
    p90 = ordered[min(len(ordered) - 1, int(0.9 * len(ordered)))]
    return {"median": round(statistics.median(ordered), 4), "p90": round(p90, 4), "max": round(ordered[-1], 4)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--kind", choices=["table", "deals"], default="table")
    parser.add_argument("--seeds", type=int, default=5, help="positions per level (deals 0 … N-1 for --kind deals)")
    parser.add_argument("--levels", default="2,3,4,5,6,7,8,9,10,11,12", help="cards per player (--kind table)")
    parser.add_argument("--max-seconds", type=float, default=60.0)
    parser.add_argument("--max-positions", type=int, default=200_000_000)
    parser.add_argument("--method", default="auto", help="auto (df-pn, compiled for two players), proof, retrograde")
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    levels = [int(x) for x in args.levels.split(",")] if args.kind == "table" else [0]
    limits = Limits(nodes=args.max_positions, seconds=args.max_seconds)
    rows: list[dict[str, Any]] = []
    summary: list[dict[str, Any]] = []
    for level in levels:
        level_rows = []
        for number in range(args.seeds):
            position = table_endgame(number, level) if args.kind == "table" else deal_endgame(number)
            started = time.perf_counter()
            result = solve(GAME, position, WinLoss(position.to_move), limits, args.method)
            seconds = time.perf_counter() - started
            if result.status == SOLVED:
                end = replay_line(GAME, position, result.line)
                assert result.line_end != "terminal" or WinLoss(position.to_move).value(GAME.terminal(end)) == result.value
            row = {
                "seed" if args.kind == "table" else "deal": number if args.kind == "table" else str(DealCode("SH", 1, "2", number)),
                "level": level,
                "cards_per_player": [position.cards_of(0), position.cards_of(1)],
                "cards": cards_in_play(position),
                "status": result.status,
                "value": result.value,
                "seconds": round(seconds, 3),
                "positions": result.positions,
                "edges": result.edges,
                "positions_per_second": round(result.positions / seconds) if seconds else None,
                "bytes_per_position": round(result.bytes_per_position, 1),
                "method": result.method,
                "compiled": result.extra.get("native"),
                "nodes": result.nodes,
                "nodes_per_second": round(result.nodes / seconds) if seconds else None,
                "moves_settled": sum(m.value is not None for m in result.moves),
                "moves": len(result.moves),
                "graph_complete": result.extra.get("complete"),
                "bounds": result.extra.get("bounds"),
                "reason": result.reason,
                "position": position.to_json(),
            }
            level_rows.append(row)
            print(json.dumps({k: v for k, v in row.items() if k != "position"}), flush=True)
        rows += level_rows
        solved = [r for r in level_rows if r["status"] == SOLVED]
        summary.append({
            "level": level,
            "positions_tried": len(level_rows),
            "solved": len(solved),
            "unknown": len(level_rows) - len(solved),
            "seconds": distribution([r["seconds"] for r in solved]),
            "positions": distribution([r["positions"] for r in solved]),
            "positions_per_second": distribution([r["positions_per_second"] for r in solved if r["positions_per_second"]]),
            "bytes_per_position": distribution([r["bytes_per_position"] for r in solved]),
        })
        print(json.dumps(summary[-1]), flush=True)
        if level_rows and not solved and args.kind == "table":
            break
    all_solved = [s["level"] for s in summary if s["positions_tried"] and s["solved"] == s["positions_tried"]]
    report = {
        "benchmark": "shithead_endgames",
        "python": platform.python_version(),
        "machine": platform.machine(),
        "limits": limits.to_json(),
        "method": args.method,
        "load_average": [round(x, 2) for x in os.getloadavg()],
        "kind": args.kind,
        "seeds": args.seeds,
        "largest_level_all_solved": max(all_solved) if all_solved else None,
        "summary": summary,
        "rows": rows,
    }
    print(json.dumps({"largest_level_all_solved": report["largest_level_all_solved"]}))
    if args.out:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(json.dumps(report, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
