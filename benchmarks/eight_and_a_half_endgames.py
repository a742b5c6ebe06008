"""Eight and a half on the exact core: how solve time grows with the cards in play, and the
largest two-player endgame solved within the limit (60 s by default).

Two sets of two-player endgames (every bank empty), each solved for win/loss/draw of the player
to move (retrograde analysis: the table phase can cycle), every principal line replayed:

* `--kind table` (default), the growth curve: for each size K in `--sizes` (cards in play) and
  EH1-2 deals 0 … N-1, both seats keep the first cards of their own dealt hand, then open, then
  blind cards (hand 3, open, blind, in that order), one card at a time alternating seats, until
  K cards are in play; empty pile, banks empty, the opener by the deal's rule (D5).
* `--kind deals`: EH1-2 deals 0 … N-1 played with the fixed seeded policy until every bank is
  empty (exactly what `halfmoon endgame eight-and-a-half --code … --until endgame` solves).

Per size the report gives solved / unknown counts, the distribution (median, p90, max) of
seconds, positions, positions per second and bytes per position, and the largest size at which
every endgame was solved within the limit. Sizes stop after the first one where an endgame was
left unknown. Single process; the limit is wall-clock time on whatever else the machine is doing,
so the report also gives the process's CPU seconds (what an idle machine would take).

    python benchmarks/eight_and_a_half_endgames.py --deals 5 --out benchmarks/results/eight_and_a_half_endgames.json
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

from halfmoon.dealcodes.eight_and_a_half import eh_deal_from_code
from halfmoon.solver.core.exact import SOLVED, Limits, replay_line, solve
from halfmoon.solver.core.game import WinLoss
from halfmoon.solver.games.eight_and_a_half.kernel import GAME, decode
from halfmoon.solver.games.eight_and_a_half.policy import play_until_endgame
from halfmoon.solver.games.eight_and_a_half.position import Position, Seat, first_player

ORDER = ("hand", "hand", "hand", "open", "open", "open", "blind", "blind", "blind")


def table_endgame(number: int, size: int) -> Position:
    """Deal `number`'s two seats cut down to `size` cards in play (see the module docstring)."""
    deal = eh_deal_from_code(f"EH1-2-{_payload(number)}")
    taken = [{"hand": [], "open": [], "blind": []}, {"hand": [], "open": [], "blind": []}]
    for i in range(size):
        seat, step = i % 2, i // 2
        place = ORDER[step]
        source = getattr(deal.seats[seat], place)
        taken[seat][place].append(source[len(taken[seat][place])])
    seats = tuple(Seat(t["hand"], t["open"], t["blind"]) for t in taken)
    return Position(seats, (), first_player(seats))


def _payload(number: int) -> str:
    letters = []
    for _ in range(7):
        number, digit = divmod(number, 26)
        letters.append(chr(65 + digit))
    return "".join(reversed(letters))


def deal_endgame(number: int) -> Position:
    start = GAME.encode(Position.from_deal(eh_deal_from_code(f"EH1-2-{_payload(number)}")))
    return decode(play_until_endgame(start, 0)[0])


def cards_in_play(position: Position) -> int:
    return sum(len(s.hand) + len(s.open) + len(s.blind) + len(s.bank) for s in position.seats) + len(position.pile)


def distribution(values: list[float]) -> dict[str, float] | None:
    if not values:
        return None
    ordered = sorted(values)
    p90 = ordered[min(len(ordered) - 1, int(0.9 * len(ordered)))]
    return {"median": round(statistics.median(ordered), 4), "p90": round(p90, 4), "max": round(ordered[-1], 4)}


def run_one(position: Position, limits: Limits, method: str = "auto") -> dict[str, Any]:
    p = GAME.encode(position)
    seat = position.to_move
    started, cpu = time.perf_counter(), time.process_time()
    solution = solve(GAME, p, WinLoss(seat), limits, method)
    seconds, cpu = time.perf_counter() - started, time.process_time() - cpu
    row: dict[str, Any] = {
        "position": str(position),
        "cards": cards_in_play(position),
        "status": solution.status,
        "value": solution.value,
        "seconds": round(seconds, 3),
        "cpu_seconds": round(cpu, 3),
        "positions": solution.positions,
        "edges": solution.edges,
        "bytes_per_position": round(solution.bytes_per_position, 1),
        "method": solution.method,
        "nodes": solution.nodes,
        "moves_settled": sum(m.value is not None for m in solution.moves),
        "moves": len(solution.moves),
        "reason": solution.reason,
    }
    if solution.status == SOLVED:
        final = replay_line(GAME, p, solution.line)
        assert GAME.key(final) == GAME.key(solution.final), "principal line does not replay"
        row["line"] = " ".join(map(str, solution.line))
        row["line_end"] = solution.line_end
    return row


def summarise(rows: list[dict[str, Any]]) -> dict[str, Any]:
    solved = [r for r in rows if r["status"] == SOLVED]
    return {
        "solved": len(solved),
        "unknown": len(rows) - len(solved),
        "values": {str(v): sum(1 for r in solved if r["value"] == v) for v in (1, 0, -1)},
        "seconds": distribution([r["seconds"] for r in solved]),
        "cpu_seconds": distribution([r["cpu_seconds"] for r in solved]),
        "positions": distribution([r["positions"] for r in solved]),
        "positions_per_second": distribution([r["positions"] / r["seconds"] for r in solved if r["seconds"] > 0]),
        "bytes_per_position": distribution([r["bytes_per_position"] for r in solved]),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--kind", choices=["table", "deals"], default="table")
    parser.add_argument("--deals", type=int, default=5, help="EH1-2 deals 0 … N-1")
    parser.add_argument("--sizes", default="2,4,6,8,9,10,11,12,13,14,15,16,18", help="cards in play (--kind table)")
    parser.add_argument("--max-seconds", type=float, default=60.0)
    parser.add_argument("--max-positions", type=int, default=20_000_000)
    parser.add_argument("--method", default="auto", help="auto (df-pn), proof or retrograde")
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    limits = Limits(nodes=args.max_positions, seconds=args.max_seconds)
    sizes = [int(x) for x in args.sizes.split(",")] if args.kind == "table" else [0]
    report: dict[str, Any] = {
        "benchmark": "eight_and_a_half_endgames",
        "kind": args.kind,
        "deals": args.deals,
        "limits": limits.to_json(),
        "python": platform.python_version(),
        "machine": platform.machine(),
        "load_average": list(os.getloadavg()) if hasattr(os, "getloadavg") else None,
        "levels": [],
    }
    largest = None
    for size in sizes:
        rows = []
        for number in range(args.deals):
            position = table_endgame(number, size) if args.kind == "table" else deal_endgame(number)
            if position.winner is not None:
                continue
            row = run_one(position, limits, args.method)
            row["deal"] = number
            rows.append(row)
            print(f"size {size if args.kind == 'table' else row['cards']:>2}  deal {number}: {row['status']:8} "
                  f"value {row['value']!s:>4}  {row['positions']:>9} positions  {row['seconds']:7.2f} s "
                  f"(cpu {row['cpu_seconds']:.2f} s)", flush=True)
        summary = summarise(rows)
        report["levels"].append({"size": size, "rows": rows, **summary})
        if args.kind == "table":
            if summary["unknown"] == 0 and rows:
                largest = size
            else:
                break
    report["largest_size_all_solved"] = largest
    print(f"largest size with every endgame solved within {args.max_seconds:g} s: {largest}")
    if args.out:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(json.dumps(report, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
