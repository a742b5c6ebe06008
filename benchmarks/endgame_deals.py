"""The endgames people actually reach: `halfmoon endgame GAME --code … --until endgame`, deals 0-99.

For each game and player count, deal codes `<TAG>1-<players>-<number>` (Spit: `SP1-N-<number>`)
are played on with the game's fixed seeded policy (seed 0) to the endgame the command solves, and
every question is answered through the facade (`halfmoon.endgame`, the command's own path) with
the given limits (60 s by default, one process). A position counts as *decided* when every
question about it is answered exactly (the value of the position; a move left unknown does not
count against it). Reported per game and player count: the share decided, the distribution of
seconds (median, p90, max: the whole solve, every move's value included, and `value_seconds`:
until the position's value was known, where the method says), positions per second and bytes
per position (solves that stored ≥ 100 000 positions), and the machine's load
average before and after (the machine is shared: compare positions, not seconds, across runs).

    python benchmarks/endgame_deals.py --games shithead --players 2 --deals 0-99 --out benchmarks/results/endgame_deals_shithead.json
    python benchmarks/endgame_deals.py --games shithead,eight-and-a-half,golf,spit --players 2,3 --deals 0-9 --seconds 10

The report is rewritten after every position; `--resume` keeps the rows already in `--out` and
runs only the missing deals (to extend a run, or to finish one that was cut short).

`--kernels compiled,python,positions` solves each position once per kernel, in turn (so they meet
the same machine load), for the games with a packed kernel (Golf, Spit): ``compiled`` (the game's
`kernel.NATIVE` on), ``python`` (off: the Python kernel, the reference) and ``positions`` (no packed
kernel: the core on the game's positions, as before there was one). Rows and groups then say the
kernel, and `agreement` lists any position where the kernels differ in a value, a move's value, a
line or the positions and nodes searched. `--until none` solves the dealt position itself (Spit:
the whole dealt round) instead of playing on to the endgame.

    python benchmarks/endgame_deals.py --games spit --players 2 --deals 0-99 --kernels compiled,python,positions --out benchmarks/results/spit_kernels.json
    python benchmarks/endgame_deals.py --games spit --players 2 --deals 0-99 --until none --kernels compiled,python,positions --out benchmarks/results/spit_kernels_dealt.json
"""

from __future__ import annotations

import argparse
import hashlib
import importlib
import json
import os
import platform
import statistics
import sys
import time
from pathlib import Path
from typing import Any

import halfmoon

TAGS = {"shithead": "SH", "eight-and-a-half": "EH", "golf": "GF", "spit": "SP"}
# the games whose packed kernel has a NATIVE switch (see --kernels)
KERNEL_MODULES = {"golf": "halfmoon.solver.games.golf.kernel", "spit": "halfmoon.solver.games.spit.kernel"}
KERNELS = ("compiled", "python", "positions")


def use_kernel(game: str, kernel: str | None) -> None:
    """Switch `game` to `kernel`: the compiled or the Python packed kernel, or none at all (the
    game's `path_kernel` hidden, so the core searches its positions); None leaves it as it is."""
    if kernel is None:
        return
    from halfmoon.solver import catalogue

    if game not in KERNEL_MODULES:
        raise SystemExit(f"--kernels: {game} has no packed kernel with a NATIVE switch")
    module = importlib.import_module(KERNEL_MODULES[game])
    if kernel == "compiled" and not module.native_available():
        raise SystemExit(f"--kernels compiled: {game}'s compiled kernel is not built")
    module.NATIVE = kernel == "compiled"
    view = catalogue.endgame_adapter(game).game
    if kernel == "positions":
        view.path_kernel = None  # an instance attribute shadowing the method: no packed kernel
    elif "path_kernel" in vars(view):
        del view.path_kernel


def code_of(game: str, players: int, number: int) -> str | None:
    tag = TAGS[game]
    if game == "spit":
        return halfmoon.code(number, tag, "N") if players == 2 else None
    return halfmoon.code(number, tag, str(players))


def numbers(text: str) -> list[int]:
    out: list[int] = []
    for part in text.split(","):
        if "-" in part:
            a, b = part.split("-")
            out.extend(range(int(a), int(b) + 1))
        elif part:
            out.append(int(part))
    return out


def distribution(values: list[float]) -> dict[str, float] | None:
    if not values:
        return None
    ordered = sorted(values)
    p90 = ordered[min(len(ordered) - 1, int(0.9 * len(ordered)))]
    return {"median": round(statistics.median(ordered), 3), "p90": round(p90, 3), "max": round(ordered[-1], 3)}


def run_one(game: str, code: str, limits: halfmoon.Limits, method: str, until: str | None = "endgame",
            kernel: str | None = None) -> dict[str, Any]:
    use_kernel(game, kernel)
    started = time.perf_counter()
    cpu = time.process_time()
    result = halfmoon.endgame(code, game=game, until=until, limits=limits, method=method)
    seconds = time.perf_counter() - started
    report = result.report
    questions = report["questions"]
    solved = [q for q in questions if q["status"] == "solved"]
    answers = [[q["value"], [m["value"] for m in q["moves"]], [s["move"] for s in q["line"]]] for q in questions]
    row = {
        "code": code,
        **({"kernel": kernel} if kernel else {}),
        "players": report["players"],
        "cards": _cards_in_play(game, report["position"]),
        "decided": bool(questions) and len(solved) == len(questions),
        "questions": len(questions),
        "questions_solved": len(solved),
        "values": [q["value"] for q in questions],
        "moves_settled": sum(1 for q in questions for m in q["moves"] if m["value"] is not None),
        "moves": sum(len(q["moves"]) for q in questions),
        "method": questions[0]["method"] if questions else None,
        "seconds": round(seconds, 3),
        "cpu_seconds": round(time.process_time() - cpu, 3),
        "value_seconds": max((q["value_seconds"] for q in questions if q.get("value_seconds") is not None), default=None)
        if solved and len(solved) == len(questions) else None,
        "positions": max((q["positions"] for q in questions), default=0),
        "positions_per_second": round(max((q["positions"] for q in questions), default=0) / seconds) if seconds else None,
        "solve_seconds": round(sum(q["seconds"] for q in questions), 4),
        "nodes": sum(q["nodes"] for q in questions),
        # the answers in short: every question's value, each move's value and the line
        "answers": hashlib.sha256(json.dumps(answers).encode()).hexdigest()[:16],
        "bytes_per_position": max((q["bytes_per_position"] for q in questions), default=0),
        "reason": next((q["reason"] for q in questions if q["reason"]), ""),
    }
    return row


def _cards_in_play(game: str, position: dict[str, Any]) -> int | None:
    """Cards still in play in the position JSON (hands, table cards, pile; Golf: the stock)."""
    if game == "shithead":
        return sum(len(x) for key in ("hands", "face_up", "face_down") for x in position[key]) + len(position["pile"])
    if game == "golf":
        return len(position["stock"])
    if game == "eight-and-a-half":
        seats = position.get("seats") or []
        total = 0
        for seat in seats:
            for key in ("hand", "open", "blind", "bank"):
                value = seat.get(key, "")
                total += len(value) if isinstance(value, (list, str)) else 0
        return total + len(position.get("pile", ""))
    return None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", default="shithead,eight-and-a-half,golf,spit")
    parser.add_argument("--players", default="2,3")
    parser.add_argument("--deals", default="0-99", help="deal numbers, e.g. 0-99 or 0-9,50")
    parser.add_argument("--seconds", type=float, default=60.0, help="time limit per position")
    parser.add_argument("--max-positions", type=int, default=200_000_000)
    parser.add_argument("--method", default="auto")
    parser.add_argument("--until", default="endgame", choices=["endgame", "none"],
                        help="endgame: play the policy on to the endgame first; none: the dealt position itself")
    parser.add_argument("--kernels", default="",
                        help=f"comma-separated, of {', '.join(KERNELS)}: solve each position with each in turn "
                             f"(games with a packed kernel)")
    parser.add_argument("--out", type=Path)
    parser.add_argument("--resume", action="store_true",
                        help="keep the rows already in --out (same limits) and run only the deals missing there")
    args = parser.parse_args()
    limits = halfmoon.Limits(seconds=args.seconds, nodes=args.max_positions)
    until = None if args.until == "none" else args.until
    kernels: list[str | None] = [k for k in args.kernels.split(",") if k] or [None]
    if any(k is not None and k not in KERNELS for k in kernels):
        parser.error(f"--kernels: expected some of {', '.join(KERNELS)}")
    load_before = os.getloadavg()
    earlier, earlier_loads = previous_rows(args.out, limits) if args.resume and args.out else ({}, [])
    groups: list[dict[str, Any]] = []
    rows: list[dict[str, Any]] = []

    def report(group_rows: list[dict[str, Any]], complete: bool) -> dict[str, Any]:
        this_run = {"load_average_before": [round(x, 2) for x in load_before],
                    "load_average_after": [round(x, 2) for x in os.getloadavg()],
                    "rows_run": sum(1 for r in rows + group_rows if row_key(r) not in earlier)}
        out = {
            "benchmark": "endgame_deals",
            "deals": args.deals,
            "limits": limits.to_json(),
            "method": args.method,
            **({"until": args.until} if args.until != "endgame" else {}),
            **({"kernels": kernels, "compiled_built": {g: importlib.import_module(m).native_available()
                                                       for g, m in KERNEL_MODULES.items()}} if kernels != [None] else {}),
            "python": platform.python_version(),
            "machine": platform.machine(),
            "cpus": os.cpu_count(),
            "complete": complete,
            "load_average_before": this_run["load_average_before"],
            "load_average_after": this_run["load_average_after"],
            "runs": earlier_loads + [this_run],  # each run's machine load (--resume adds one)
            "groups": groups,
            **({"agreement": agreement(rows + group_rows)} if kernels != [None] else {}),
            "rows": rows + group_rows,
        }
        if args.out:  # after every position: an interrupted run keeps what it did (see --resume)
            args.out.write_text(json.dumps(out, indent=1) + "\n")
        return out

    for game in args.games.split(","):
        for players in [int(p) for p in args.players.split(",")]:
            group_rows: list[dict[str, Any]] = []
            codes = [code for number in numbers(args.deals) if (code := code_of(game, players, number))]
            if kernels != [None] and codes:
                for kernel in kernels:  # a warm-up solve each (imports, first allocations), not recorded
                    run_one(game, codes[0], limits, args.method, until, kernel)
            for code in codes:
                for kernel in kernels:  # in turn on each position: the kernels meet the same load
                    row = earlier.get((game, code, kernel)) or run_one(game, code, limits, args.method, until,
                                                                       kernel) | {"game": game}
                    group_rows.append(row)
                    print(json.dumps(row), flush=True)
                    report(group_rows, False)
            if not group_rows:
                continue
            rows += group_rows
            for kernel in kernels:
                groups.append(summary(game, players, [r for r in group_rows if r.get("kernel") == kernel]))
                if kernel is not None:
                    groups[-1]["kernel"] = kernel
                print(json.dumps(groups[-1]), file=sys.stderr, flush=True)
            if kernels != [None]:
                reset_kernel(game)
    final = report([], True)
    print(json.dumps({"groups": groups, "runs": final["runs"]}, indent=1))


def previous_rows(path: Path, limits: halfmoon.Limits) -> tuple[dict[tuple[str, str], dict[str, Any]], list[Any]]:
    """The rows of an earlier run written to `path`, by (game, code), and its runs' machine
    loads; none if it is missing. Other limits are refused: the figures would not compare."""
    if not path.exists():
        return {}, []
    try:
        report = json.loads(path.read_text())
    except (OSError, json.JSONDecodeError) as error:
        raise SystemExit(f"--resume: cannot read {path}: {error}")
    if report.get("limits") != limits.to_json():
        raise SystemExit(f"--resume: {path} was run with limits {report.get('limits')}, not {limits.to_json()}")
    runs = report.get("runs") or [{key: report.get(key) for key in ("load_average_before", "load_average_after")}
                                   | {"rows_run": len(report.get("rows", []))}]
    return {row_key(row): row for row in report.get("rows", [])}, runs


def row_key(row: dict[str, Any]) -> tuple[str, str, str | None]:
    return row["game"], row["code"], row.get("kernel")


def reset_kernel(game: str) -> None:
    """The game's kernel as it comes (`NATIVE` on, its `path_kernel` in view)."""
    importlib.import_module(KERNEL_MODULES[game]).NATIVE = True
    from halfmoon.solver import catalogue

    view = catalogue.endgame_adapter(game).game
    if "path_kernel" in vars(view):
        del view.path_kernel


def agreement(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """Whether the kernels gave each position the same answers (values, move values, lines) and
    searched the same positions and nodes; the positions where they did not."""
    by_code: dict[tuple[str, str], list[dict[str, Any]]] = {}
    for row in rows:
        by_code.setdefault((row["game"], row["code"]), []).append(row)
    differ = [code for (_, code), group in by_code.items()
              if len({(r["answers"], r["positions"], r["nodes"], r["decided"]) for r in group}) > 1]
    return {"positions_compared": len(by_code), "differ": differ}


def summary(game: str, players: int, group_rows: list[dict[str, Any]]) -> dict[str, Any]:
    decided = [r for r in group_rows if r["decided"]]
    return {
        "game": game,
        "players": players,
        "positions": len(group_rows),
        "decided": len(decided),
        "share_decided": round(len(decided) / len(group_rows), 3),
        "seconds_decided": distribution([r["seconds"] for r in decided]),
        "value_seconds_decided": distribution([r["value_seconds"] for r in decided if r.get("value_seconds") is not None]),
        "positions_per_second": distribution([float(r["positions_per_second"] or 0) for r in group_rows]),
        # the solve alone (the questions' own seconds, without the extra answers and the report)
        "solve_seconds_decided": distribution([r["solve_seconds"] for r in decided if "solve_seconds" in r]),
        "solve_positions_per_second": distribution([float(round(r["positions"] / r["solve_seconds"]))
                                                    for r in group_rows if r.get("solve_seconds")]),
        # a table's fixed first allocation over a handful of positions says nothing: solves
        # that stored at least 100 000 positions
        "bytes_per_position": distribution([float(r["bytes_per_position"]) for r in group_rows
                                            if r["positions"] >= 100_000]),
        "cards_in_play": distribution([float(r["cards"]) for r in group_rows if r["cards"] is not None]),
    }


if __name__ == "__main__":
    main()
