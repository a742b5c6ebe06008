"""Load test of the deal-code service: a real `halfmoon serve` on 127.0.0.1, concurrent clients.

What it does (every loop bounded in count and time; loopback only):

1. starts ``halfmoon serve --port 0`` on 127.0.0.1 with a fresh results store (or ``--db``);
2. runs `--clients` threads, each with one keep-alive connection, making `--requests` requests
   in all, drawn with a seeded generator: solutions of `--deals` deals (the first ask of a deal is
   uncached, later ones come from the store or join the solve in flight), deal layouts, hints;
   a 202 (still working) or a 429 (this client address has its share of solver jobs running: all
   the clients share 127.0.0.1) is followed by asking again after its Retry-After (capped at 2 s);
3. kills one solver process with SIGKILL once `--kill-at` of the requests are done, while a job
   is running if one is, and checks the service keeps answering;
4. stops the server with Ctrl-C (SIGINT) and checks the store: ``PRAGMA integrity_check``, no
   duplicated (code, solver version) row, no lost row (every deal answered has its row, with
   the verdict that was answered), every winning line replayed through the rules, and every
   client saw the same verdict and line for the same deal.

Reports throughput and latency percentiles (per kind of answer: store hit, solved, pending poll,
layout, hint). Exit status 0 when every check passed.

    python benchmarks/http_load.py --clients 8 --requests 400 --deals 40 --workers 2
"""

from __future__ import annotations

import argparse
import http.client
import json
import math
import os
import signal
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import halfmoon
from halfmoon.dealcodes.rng import SplitMix64

ROOT = Path(__file__).resolve().parents[1]


@dataclass
class Exchange:
    kind: str  # solution, layout, hint
    status: int
    seconds: float
    source: str | None = None  # store / solver / memory / pending


@dataclass
class Tally:
    """Everything the clients saw (appended under a lock)."""

    exchanges: list[Exchange] = field(default_factory=list)
    finished: list[tuple[str, float, str, int]] = field(default_factory=list)  # (kind, seconds end to end, source, asks)
    failures: list[str] = field(default_factory=list)
    answers: dict[str, set[str]] = field(default_factory=lambda: defaultdict(set))  # code -> {verdict + line}
    done: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock)


def percentiles(values: list[float]) -> dict[str, float]:
    if not values:
        return {"n": 0}
    ordered = sorted(values)

    def at(q: float) -> float:
        return ordered[min(len(ordered) - 1, max(0, math.ceil(q * len(ordered)) - 1))]

    return {"n": len(ordered), "p50": round(at(0.5), 4), "p90": round(at(0.9), 4), "p99": round(at(0.99), 4),
            "max": round(ordered[-1], 4), "mean": round(sum(ordered) / len(ordered), 4)}


class Client(threading.Thread):
    def __init__(self, index: int, host: str, port: int, plan: list[tuple[str, str]], tally: Tally,
                 deadline: float) -> None:
        super().__init__(name=f"client-{index}", daemon=True)
        self.host, self.port, self.plan, self.tally, self.deadline = host, port, plan, tally, deadline
        self.conn: http.client.HTTPConnection | None = None

    def _exchange(self, method: str, path: str, body: dict[str, Any] | None) -> tuple[int, dict[str, Any], dict[str, str], float]:
        for attempt in range(2):  # one reconnect if the server closed a kept-alive connection
            if self.conn is None:
                self.conn = http.client.HTTPConnection(self.host, self.port, timeout=120)
            started = time.perf_counter()
            try:
                payload = None if body is None else json.dumps(body).encode()
                headers = {"Content-Type": "application/json"} if body is not None else {}
                self.conn.request(method, path, body=payload, headers=headers)
                response = self.conn.getresponse()
                data = response.read()
                seconds = time.perf_counter() - started
                return response.status, json.loads(data), dict(response.getheaders()), seconds
            except (ConnectionError, http.client.HTTPException):
                self.conn.close()
                self.conn = None
                if attempt:
                    raise
        raise AssertionError("unreachable")

    def run(self) -> None:
        for kind, code in self.plan:
            if time.monotonic() > self.deadline:
                with self.tally.lock:
                    self.tally.failures.append(f"{self.name}: out of time before {kind} {code}")
                return
            try:
                self._one(kind, code)
            except Exception as error:  # a connection error is a failed request
                with self.tally.lock:
                    self.tally.failures.append(f"{self.name}: {kind} {code}: {type(error).__name__}: {error}")
            with self.tally.lock:
                self.tally.done += 1
        if self.conn is not None:
            self.conn.close()

    def _one(self, kind: str, code: str) -> None:
        if kind == "layout":
            method, path, body = "GET", f"/v1/deals/{code}", None
        elif kind == "hint":
            method, path, body = "POST", "/v1/hint", {"code": code, "moves": ""}
        else:
            method, path, body = "GET", f"/v1/deals/{code}/solution", None
        started = time.perf_counter()
        for asks in range(1, 401):  # bounded polling
            status, data, headers, seconds = self._exchange(method, path, body)
            source = ("pending" if status == 202 else "throttled" if status == 429
                      else data.get("source") if isinstance(data, dict) else None)
            with self.tally.lock:
                self.tally.exchanges.append(Exchange(kind, status, seconds, source))
            if status in (202, 429):
                if time.monotonic() > self.deadline:
                    raise TimeoutError("still pending at the deadline")
                time.sleep(min(2.0, float(headers.get("retry-after", headers.get("Retry-After", "1")))))
                continue
            if status != 200:
                raise RuntimeError(f"HTTP {status}: {data}")
            total = time.perf_counter() - started
            with self.tally.lock:
                self.tally.finished.append((kind, total, str(source), asks))
                if kind == "solution":
                    self.tally.answers[code].add(json.dumps([data["verdict"], data.get("moves")]))
            return
        raise TimeoutError("pending after 400 polls")


def plan_requests(seed: int, total: int, clients: int, codes: list[str]) -> list[list[tuple[str, str]]]:
    """Each client's requests: 80% solutions, 15% layouts, 5% hints, deals drawn uniformly."""
    rng = SplitMix64(seed)
    plans: list[list[tuple[str, str]]] = [[] for _ in range(clients)]
    for index in range(total):
        roll = rng.below(100)
        kind = "solution" if roll < 80 else "layout" if roll < 95 else "hint"
        plans[index % clients].append((kind, codes[rng.below(len(codes))]))
    return plans


def get_json(host: str, port: int, path: str) -> dict[str, Any]:
    conn = http.client.HTTPConnection(host, port, timeout=30)
    try:
        conn.request("GET", path)
        return json.loads(conn.getresponse().read())
    finally:
        conn.close()


def killer(host: str, port: int, tally: Tally, at: int, report: dict[str, Any], deadline: float) -> None:
    """Once `at` requests are done, SIGKILL one solver process (preferably while a job runs)."""
    while time.monotonic() < deadline:
        with tally.lock:
            if tally.done >= at:
                break
        time.sleep(0.05)
    else:
        return
    pool: dict[str, Any] = {}
    for _ in range(100):  # up to ~5 s waiting for a job to be in flight
        pool = get_json(host, port, "/v1/stats")["pool"]
        if pool["jobs_submitted"] > 0:
            break
        time.sleep(0.05)
    if not pool.get("worker_pids"):
        report["kill"] = {"killed": None, "reason": "no worker process listed"}
        return
    pid = pool["worker_pids"][0]
    os.kill(pid, signal.SIGKILL)
    report["kill"] = {"killed": pid, "after_requests": at, "jobs_in_flight": pool["jobs_submitted"]}


def check_store(db: Path, tally: Tally, solver_version: str) -> dict[str, Any]:
    conn = sqlite3.connect(str(db))
    try:
        integrity = conn.execute("PRAGMA integrity_check").fetchone()[0]
        duplicates = conn.execute(
            "SELECT COUNT(*) FROM (SELECT code FROM results GROUP BY code, solver_version HAVING COUNT(*) > 1)"
        ).fetchone()[0]
        rows = {code: (verdict, line) for code, verdict, line in conn.execute(
            "SELECT code, verdict, line FROM results WHERE solver_version = ?", (solver_version,))}
    finally:
        conn.close()
    lost, disagree, bad_lines, inconsistent = [], [], [], []
    for code, answers in tally.answers.items():
        if len(answers) != 1:
            inconsistent.append(code)
            continue
        verdict, moves = json.loads(next(iter(answers)))
        if code not in rows:
            lost.append(code)
            continue
        stored_verdict, stored_line = rows[code]
        if stored_verdict != verdict or (moves is not None and stored_line != " ".join(moves)):
            disagree.append(code)
        if verdict == "winnable" and halfmoon.replay(code, " ".join(moves)).status != "won":
            bad_lines.append(code)
    return {"integrity_check": integrity, "rows": len(rows), "deals_answered": len(tally.answers),
            "duplicated_rows": duplicates, "lost_rows": lost, "store_disagrees": disagree,
            "lines_not_replaying": bad_lines, "inconsistent_answers": inconsistent}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--requests", type=int, default=400, help="Requests in all (polls of a 202 not counted).")
    parser.add_argument("--deals", type=int, default=40, help="Distinct deals asked for.")
    parser.add_argument("--workers", type=int, default=2, help="Solver processes of the server.")
    parser.add_argument("--solve-time-limit", type=float, default=20.0)
    parser.add_argument("--wait", type=float, default=5.0, help="The server's default wait before a 202.")
    parser.add_argument("--kill-at", type=float, default=0.3, help="Kill a worker when this share of requests is done.")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--max-seconds", type=float, default=300.0, help="Give up (a failure) after this long.")
    parser.add_argument("--db", type=Path, default=None, help="Store file (default: a fresh temporary one).")
    parser.add_argument("--out", type=Path, default=None, help="Also write the report JSON here.")
    args = parser.parse_args()

    host = "127.0.0.1"
    temporary = tempfile.TemporaryDirectory(prefix="halfmoon-load-")
    db = args.db or Path(temporary.name) / "results.sqlite3"
    codes = [halfmoon.code(number, "HM") for number in halfmoon.service.sample_numbers(args.seed, args.deals)]
    command = [sys.executable, "-m", "halfmoon", "serve", "--host", host, "--port", "0", "--workers", str(args.workers),
               "--db", str(db), "--json", "--no-access-log", "--log-level", "warning",
               "--solve-time-limit", str(args.solve_time_limit), "--wait", str(args.wait)]
    log_path = Path(temporary.name) / "server.log"
    log = log_path.open("w")
    server = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.PIPE, stderr=log, text=True)
    report: dict[str, Any] = {"setup": vars(args) | {"db": str(db), "out": str(args.out) if args.out else None}}
    try:
        info = json.loads(server.stdout.readline())
        port = int(info["url"].rsplit(":", 1)[1])
        ready_by = time.monotonic() + 180
        while True:
            try:
                if get_json(host, port, "/healthz").get("status") == "ok":
                    break
            except OSError:
                pass
            if time.monotonic() > ready_by or server.poll() is not None:
                raise SystemExit(f"the server did not come up; its log:\n{log_path.read_text()}")
            time.sleep(0.2)
        solver_version = get_json(host, port, "/v1/stats")["service"]["solver_version"]

        tally = Tally()
        deadline = time.monotonic() + args.max_seconds
        plans = plan_requests(args.seed, args.requests, args.clients, codes)
        clients = [Client(i, host, port, plan, tally, deadline) for i, plan in enumerate(plans)]
        kill_thread = threading.Thread(target=killer, args=(host, port, tally, int(args.kill_at * args.requests), report,
                                                             deadline), daemon=True)
        started = time.perf_counter()
        kill_thread.start()
        for client in clients:
            client.start()
        for client in clients:
            client.join(timeout=max(1.0, deadline - time.monotonic() + 5))
        wall = time.perf_counter() - started
        kill_thread.join(timeout=10)
        after = get_json(host, port, "/v1/stats")
        health = get_json(host, port, "/healthz")
    finally:
        if server.poll() is None:
            server.send_signal(signal.SIGINT)
            try:
                server.wait(timeout=30)
            except subprocess.TimeoutExpired:
                server.kill()
                server.wait()
        server.stdout.close()
        log.close()

    by_kind: dict[str, list[float]] = defaultdict(list)
    for exchange in tally.exchanges:
        by_kind[exchange.kind if exchange.source is None else f"{exchange.kind}:{exchange.source}"].append(exchange.seconds)
    end_to_end: dict[str, list[float]] = defaultdict(list)
    for kind, seconds, source, asks in tally.finished:
        end_to_end[kind if source == "None" else f"{kind}:{source}"].append(seconds)
        if asks > 1:
            end_to_end[f"{kind} after 202"].append(seconds)
    statuses: dict[str, int] = defaultdict(int)
    for exchange in tally.exchanges:
        statuses[str(exchange.status)] += 1
    store = check_store(db, tally, solver_version)
    report |= {
        "wall_seconds": round(wall, 3),
        "requests_completed": len(tally.finished),
        "http_exchanges": len(tally.exchanges),
        "throughput": {"requests_per_second": round(len(tally.finished) / wall, 2),
                       "exchanges_per_second": round(len(tally.exchanges) / wall, 2)},
        "statuses": dict(statuses),
        "failures": tally.failures[:20],
        "failed_requests": len(tally.failures),
        "answered_at_first_ask": sum(1 for *_, asks in tally.finished if asks == 1),
        "latency_per_exchange": {key: percentiles(values) for key, values in sorted(by_kind.items())},
        "latency_end_to_end": {key: percentiles(values) for key, values in sorted(end_to_end.items())},
        "latency_all_exchanges": percentiles([e.seconds for e in tally.exchanges]),
        "server": {"pool": after["pool"], "solutions": after["solutions"], "health_after": health},
        "store": store,
    }
    checks = {
        "no failed request": not tally.failures and len(tally.finished) == args.requests,
        "every status 200, 202 or 429 (asked again)": set(statuses) <= {"200", "202", "429"},
        "no 5xx": not any(status.startswith("5") for status in statuses),
        "integrity_check ok": store["integrity_check"] == "ok",
        "no duplicated row": store["duplicated_rows"] == 0,
        "no lost row": not store["lost_rows"],
        "store agrees with the answers": not store["store_disagrees"],
        "every winning line replays": not store["lines_not_replaying"],
        "same answer for every client": not store["inconsistent_answers"],
        "a worker was killed": bool(report.get("kill", {}).get("killed")),
        "the pool was renewed after it": after["pool"]["restarts"] >= 1,
        "healthy afterwards": health.get("status") == "ok",
    }
    report["checks"] = checks
    text = json.dumps(report, indent=2)
    if args.out:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(text + "\n")
    print(text)
    passed = all(checks.values())
    print(f"\n{'PASS' if passed else 'FAIL'}: " + ", ".join(f"{name}: {'yes' if ok else 'NO'}" for name, ok in checks.items()),
          file=sys.stderr)
    temporary.cleanup()
    return 0 if passed else 1


if __name__ == "__main__":
    sys.exit(main())
