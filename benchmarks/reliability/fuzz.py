"""Fuzz every CLI command and HTTP endpoint with hypothesis-generated inputs; count what went wrong.

Issue 18's acceptance, measured: over N inputs, 0 tracebacks, 0 HTTP 5xx, 0 exit-1 "internal
error" for bad input, 0 runs past their limits by more than 10%.

- **CLI** (in process, through click's runner, so thousands of inputs fit in minutes): `deal`,
  `code`, `replay`, `solve`, `hint` (codes, layouts, moves, rule presets and files), `endgame`
  (codes, positions, moves), `rules check/show`, `games`, and now and then `survey`; inputs are
  valid codes and layouts, mutated ones (extra piles, cards three times, huge reserves, deep
  nesting, garbage), random text and random JSON, and limits including nan, inf, 0, -1, 2^63.
  A run counts as past its limit when its wall time exceeds 1.1 × the time it may spend
  (the time limit; 4 × for a hint) plus 0.5 s of fixed cost (reading, dealing, replaying).
- **HTTP** (a live `halfmoon serve` on 127.0.0.1 with small limits): every route with valid,
  mutated and random paths, queries and bodies, wrong methods and content types, bodies that are
  not JSON; `/healthz` is timed every 25 requests.

    python benchmarks/reliability/fuzz.py --cli 6000 --http 4000 --out benchmarks/results/reliability_fuzz.json

Every loop is bounded; the HTTP server listens on loopback only.
"""

from __future__ import annotations

import argparse
import http.client
import json
import math
import sys
import tempfile
import time
from collections import Counter
from urllib.parse import quote
from pathlib import Path
from typing import Any

from click.testing import CliRunner
from hypothesis import HealthCheck, Phase, given, seed, settings
from hypothesis import strategies as st

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests"))

import halfmoon  # noqa: E402
import halfmoon
from halfmoon.cli.main import main as cli  # noqa: E402
from support.live_server import LiveServer  # noqa: E402

GAMES = [g for g in halfmoon.games()]
SOLITAIRES = [g.tag for g in GAMES if g.kind != "multiplayer"]
MULTIPLAYER = [g for g in GAMES if g.kind == "multiplayer"]
CARDS = [r + s for r in "A23456789TJQK" for s in "CDHS"]


class Raw(str):
    """JSON text too deep to build as Python values (hypothesis runs with a low recursion limit)."""


def deep(key: str, depth: int, around: dict[str, Any]) -> Raw:
    head = json.dumps(around)[:-1] + (", " if around else "")
    return Raw(head + json.dumps(key) + ": " + "[" * depth + "]" * depth + "}")


class Tally:
    def __init__(self) -> None:
        self.inputs = 0
        self.by_outcome: Counter[str] = Counter()
        self.problems: list[dict[str, Any]] = []
        self.worst_overrun = -math.inf  # seconds past the allowed time, worst case (negative: within it)
        self.healthz_ms: list[float] = []

    def problem(self, kind: str, **detail: Any) -> None:
        self.by_outcome[kind] += 1
        if len(self.problems) < 50:
            self.problems.append({"kind": kind, **{k: str(v)[:300] for k, v in detail.items()}})


# -- inputs -------------------------------------------------------------------------------------


def any_code(game: str) -> st.SearchStrategy[str]:
    info = next(g for g in GAMES if g.tag == game)
    variants = [None] if info.kind != "multiplayer" else [str(p) for p in range(info.players[0], info.players[1] + 1)]

    def make(number: int, variant: str | None) -> str:
        try:
            return halfmoon.code(number, game, variant)
        except ValueError:
            return halfmoon.code(number, game)

    return st.builds(make, st.integers(0, halfmoon.service.DEAL_COUNT - 1), st.sampled_from(variants))


def mutate_text(text: str) -> st.SearchStrategy[str]:
    return st.one_of(
        st.just(text), st.just(text.lower()), st.just(" " + text), st.just(text + "\n"),
        st.builds(lambda i, c: text[:i] + c + text[i + 1:], st.integers(0, max(0, len(text) - 1)),
                  st.sampled_from(list("19-_ZaßÉ\x00 "))),
        st.builds(lambda i: text[:i], st.integers(0, len(text))),
    )


codes = st.one_of(
    st.sampled_from(SOLITAIRES + [g.tag for g in MULTIPLAYER]).flatmap(any_code).flatmap(mutate_text),
    st.sampled_from(SOLITAIRES).flatmap(any_code),
    st.text(max_size=20),
)
json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-10**20, 10**20) | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=6), inner, max_size=5),
    max_leaves=30,
)
moves_text = st.one_of(
    st.lists(st.sampled_from(["1+2", "4+10", "R1+3", "12+R8", "1+2+3", "5S", "draw", "play 5", "x", "99+1", "",
                              "1+1", "r8+12", "pass"]), max_size=12).map(", ".join),
    st.text(max_size=40),
)
time_limits = st.one_of(st.sampled_from(["0.05", "0.2", "0.5", "1e-9"]),
                        st.sampled_from(["0.05", "0.2", "0.5", "nan", "inf", "-1", "0", "1e9", "abc"]))
node_limits = st.one_of(st.sampled_from(["1", "1000", "50000"]),
                        st.sampled_from(["1", "1000", "50000", "0", "-5", str(2**63), "1e3", "x"]))


@st.composite
def layouts(draw: st.DrawFn) -> Any:
    tag = draw(st.sampled_from(SOLITAIRES))
    layout = halfmoon.deal(draw(any_code(tag))).to_json()
    change = draw(st.sampled_from(["none", "pile", "card", "reserve", "jqk", "deep", "garbage", "random", "drop"]))
    if change == "pile":
        layout["piles"].append(draw(st.lists(st.sampled_from(CARDS), max_size=10)))
    elif change == "card" and layout["piles"] and layout["piles"][0]:
        layout["piles"][0][0] = draw(st.sampled_from(CARDS + ["ZZ", "", "10S", 5, None]))
    elif change == "reserve":
        layout["reserve"] = draw(st.lists(st.sampled_from(CARDS + [None]), max_size=40))
    elif change == "jqk":
        n = draw(st.integers(1, 200))
        layout["reserve"] = ["JS"] * n + ["QS"] * n + ["KS"] * n
    elif change == "deep":
        layout.pop("piles", None)
        return tag, deep("piles", draw(st.integers(10, 100_000)), layout)
    elif change == "garbage":
        layout[draw(st.sampled_from(["piles", "reserve", "stock", "grid"]))] = draw(json_values)
    elif change == "random":
        return draw(json_values)
    elif change == "drop":
        layout.pop(draw(st.sampled_from(sorted(layout))), None)
    return tag, layout


@st.composite
def positions(draw: st.DrawFn) -> Any:
    game = draw(st.sampled_from(MULTIPLAYER))
    code = draw(any_code(game.tag))
    try:
        position = halfmoon.endgame_position(code, game=game.name).report["position"]
    except ValueError:
        position = {}
    change = draw(st.sampled_from(["none", "none", "random", "field", "deep"]))
    if change == "random":
        position = draw(json_values)
    elif change == "field" and isinstance(position, dict) and position:
        position[draw(st.sampled_from(sorted(position)))] = draw(json_values)
    elif change == "deep":
        position = deep("hands", draw(st.integers(10, 100_000)), {})
    return game.name, position


# -- the CLI --------------------------------------------------------------------------------------


def cli_case(tally: Tally, args: list[str], allowed: float | None, stdin: str | None = None) -> None:
    started = time.monotonic()
    result = CliRunner().invoke(cli, args, input=stdin)
    spent = time.monotonic() - started
    tally.inputs += 1
    text = result.output
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        tally.problem("exception", args=args, error=repr(result.exception))
    elif "Traceback" in text:
        tally.problem("traceback", args=args, output=text)
    elif result.exit_code == 1 or "internal error" in text:
        tally.problem("internal_error", args=args, output=text)
    elif result.exit_code not in (0, 2, 3):
        tally.problem(f"exit_{result.exit_code}", args=args, output=text)
    else:
        tally.by_outcome[f"exit_{result.exit_code}"] += 1
    if allowed is not None and result.exit_code == 0:
        over = spent - (1.1 * allowed + 0.5)
        tally.worst_overrun = max(tally.worst_overrun, over)
        if over > 0:
            tally.problem("past_limit", args=args, seconds=round(spent, 3), allowed=allowed)


def limit_of(text: str) -> float | None:
    try:
        value = float(text)
    except ValueError:
        return None
    return value if math.isfinite(value) and value > 0 else None


def fuzz_cli(tally: Tally, examples: int, folder: Path, seed_value: int) -> None:
    counter = [0]

    def file_of(data: Any) -> str:
        counter[0] += 1
        path = folder / f"input{counter[0] % 50}.json"
        path.write_text(data if isinstance(data, Raw) else json.dumps(data))
        return str(path)

    @seed(seed_value)
    @settings(max_examples=examples, deadline=None, database=None, phases=[Phase.generate],
              suppress_health_check=list(HealthCheck))
    @given(data=st.data())
    def one(data: st.DataObject) -> None:
        kind = data.draw(st.sampled_from(["deal", "code", "replay", "solve", "hint", "layout", "endgame", "position",
                                          "rules", "games", "batch", "survey"]))
        limit = data.draw(time_limits)
        json_flag = data.draw(st.sampled_from([[], ["--json"]]))
        if kind == "deal":
            cli_case(tally, ["deal", data.draw(codes), *json_flag], None)
        elif kind == "code":
            cli_case(tally, ["code", data.draw(st.one_of(st.integers(-5, 10**12).map(str), st.text(max_size=12)))],
                     None)
        elif kind == "replay":
            cli_case(tally, ["replay", data.draw(codes), data.draw(moves_text), *json_flag], None)
        elif kind in ("solve", "hint"):
            args = [kind, data.draw(codes), "--time-limit", limit]
            if kind == "hint":
                args += ["--moves", data.draw(moves_text)]
            if data.draw(st.booleans()):
                args += ["--node-limit", data.draw(node_limits)]
            if kind == "solve":
                args += ["--no-cache"] + data.draw(st.sampled_from([[], ["--method", "search"], ["--method", "cpsat"],
                                                                   ["--method", "guess"]]))
            factor = 4 if kind == "hint" else 1
            allowed = None if limit_of(limit) is None else factor * limit_of(limit)
            cli_case(tally, args + json_flag, allowed)
        elif kind == "layout":
            drawn = data.draw(layouts())
            tag, layout = drawn if isinstance(drawn, tuple) else ("HM", drawn)
            command = data.draw(st.sampled_from(["solve", "hint", "replay"]))
            args = [command, "--layout", file_of(layout), "--game", tag]
            allowed = None
            if command != "replay":
                args += ["--time-limit", limit]
                allowed = None if limit_of(limit) is None else (4 if command == "hint" else 1) * limit_of(limit)
            cli_case(tally, args + json_flag, allowed)
        elif kind in ("endgame", "position"):
            if kind == "endgame":
                game = data.draw(st.sampled_from(MULTIPLAYER))
                args = ["endgame", data.draw(st.sampled_from([game.name, game.tag, "chess"])), "--code",
                        data.draw(st.one_of(any_code(game.tag), codes)), "--moves", data.draw(moves_text)]
            else:
                name, position = data.draw(positions())
                args = ["endgame", name, "--position", file_of(position)]
            if data.draw(st.booleans()):
                args += ["--until", "endgame"]
            args += ["--time-limit", limit, "--node-limit", data.draw(st.sampled_from(["1000", "20000", "0"]))]
            cli_case(tally, args + json_flag, limit_of(limit))
        elif kind == "rules":
            rules = data.draw(st.one_of(st.just(json.loads(halfmoon.service.rule_preset_text("elevens"))), json_values))
            cli_case(tally, ["rules", "check", file_of(rules)], None)
        elif kind == "games":
            cli_case(tally, ["games", *json_flag], None)
        elif kind == "batch":
            lines = "\n".join(data.draw(st.lists(codes, max_size=4)))
            cli_case(tally, ["solve", "-", "--time-limit", "0.2", "--no-cache", *json_flag], 0.2 * 5, stdin=lines)
        elif kind == "survey" and data.draw(st.integers(0, 9)) == 0:  # a pool per run: now and then
            start = data.draw(st.integers(0, 10**6))
            cli_case(tally, ["survey", "--range", f"{start}:{start + 3}", "--workers", "1", "--time-limit", "0.2",
                             "--no-cache", "--quiet", "--json"], None)

    one()


# -- HTTP -----------------------------------------------------------------------------------------


def fuzz_http(tally: Tally, examples: int, folder: Path, seed_value: int) -> dict[str, Any]:
    with LiveServer(folder / "fuzz.sqlite3", "--solve-time-limit", "1", "--hint-time-limit", "0.2",
                    "--endgame-max-seconds", "2", "--wait", "0.5", "--max-wait", "2", "--per-client-jobs", "4",
                    workers=2) as server:
        conn = [http.client.HTTPConnection("127.0.0.1", server.port, timeout=60)]

        def exchange(method: str, path: str, body: bytes | None, headers: dict[str, str]) -> None:
            tally.inputs += 1
            try:
                conn[0].request(method, path, body=body, headers=headers)
                response = conn[0].getresponse()
                status, text = response.status, response.read()
                if response.getheader("connection", "").lower() == "close":
                    conn[0].close()
            except (OSError, http.client.HTTPException) as error:
                conn[0].close()
                conn[0] = http.client.HTTPConnection("127.0.0.1", server.port, timeout=60)
                tally.problem("connection", method=method, path=path, error=repr(error))
                return
            if status >= 500:
                tally.problem(f"http_{status}", method=method, path=path, body=(body or b"")[:200], answer=text[:300])
            elif b"Traceback" in text:
                tally.problem("traceback", method=method, path=path, answer=text[:300])
            else:
                tally.by_outcome[f"http_{status}"] += 1
                try:
                    json.loads(text)
                except ValueError:
                    tally.problem("not_json", method=method, path=path, answer=text[:200])
            if tally.inputs % 25 == 0:
                started = time.perf_counter()
                probe = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
                probe.request("GET", "/healthz")
                probe.getresponse().read()
                probe.close()
                tally.healthz_ms.append(1000 * (time.perf_counter() - started))

        def encoded(value: Any) -> bytes:
            if isinstance(value, dict) and any(isinstance(v, Raw) for v in value.values()):
                return ("{" + ", ".join(f"{json.dumps(k)}: {v if isinstance(v, Raw) else json.dumps(v)}"
                                        for k, v in value.items()) + "}").encode()
            return json.dumps(value).encode()

        @seed(seed_value)
        @settings(max_examples=examples, deadline=None, database=None, phases=[Phase.generate],
                  suppress_health_check=list(HealthCheck))
        @given(data=st.data())
        def one(data: st.DataObject) -> None:
            kind = data.draw(st.sampled_from(["deal", "solution", "hint", "hint_layout", "endgame", "curated",
                                              "misc", "raw"]))
            json_headers = {"content-type": "application/json"}
            if kind == "deal":
                exchange("GET", "/v1/deals/" + quote(data.draw(codes), safe=""), None, {})
            elif kind == "solution":
                wait = data.draw(st.sampled_from(["", "?wait=0.1", "?wait=1", "?wait=0", "?wait=nan", "?wait=99"]))
                exchange("GET", "/v1/deals/" + quote(data.draw(codes), safe="") + "/solution" + wait, None, {})
            elif kind == "hint":
                body = {"code": data.draw(codes), "moves": data.draw(st.one_of(moves_text, st.lists(moves_text,
                                                                                                  max_size=4)))}
                if data.draw(st.booleans()):
                    body[data.draw(st.sampled_from(["game", "rules", "layout", "extra"]))] = data.draw(json_values)
                exchange("POST", "/v1/hint?wait=0.2", encoded(body), json_headers)
            elif kind == "hint_layout":
                drawn = data.draw(layouts())
                tag, layout = drawn if isinstance(drawn, tuple) else ("HM", drawn)
                body = {"layout": layout, "moves": data.draw(moves_text)}
                body |= data.draw(st.sampled_from([{}, {"game": tag}, {"rules": "elevens"}, {"rules": "/etc/passwd"},
                                                   {"rules": data.draw(json_values)}]))
                exchange("POST", "/v1/hint?wait=0.2", encoded(body), json_headers)
            elif kind == "endgame":
                name, position = data.draw(positions())
                body = data.draw(st.sampled_from(["position", "code", "random"]))
                if body == "position":
                    payload: Any = {"position": position}
                elif body == "code":
                    game = next(g for g in MULTIPLAYER if g.name == name)
                    payload = {"code": data.draw(any_code(game.tag)), "moves": data.draw(moves_text)}
                else:
                    payload = data.draw(json_values)
                if isinstance(payload, dict) and data.draw(st.booleans()):
                    payload |= data.draw(st.sampled_from([{"until": "endgame"}, {"max_seconds": 0.5},
                                                          {"max_positions": 1000}, {"seed": 2**70},
                                                          {"method": "negamax"}, {"max_seconds": -1}]))
                exchange("POST", f"/v1/endgames/{quote(data.draw(st.sampled_from([name, name.upper(), 'chess'])))}"
                                 f"?wait=0.3", encoded(payload), json_headers)
            elif kind == "curated":
                query = data.draw(st.lists(st.sampled_from(["count=1", "count=0", "count=99", "tier=hard", "tier=x",
                                                            "after=", "after=HM1-N-AAAAAAB", "after=zz", "wait=0.1",
                                                            "wait=-1"]), max_size=3))
                exchange("GET", "/v1/curated?" + "&".join(query), None, {})
            elif kind == "misc":
                method = data.draw(st.sampled_from(["GET", "POST", "PUT", "DELETE", "PATCH"]))
                path = data.draw(st.sampled_from(["/healthz", "/v1/stats", "/v1/endgames", "/openapi.json",
                                                  "/v1/nothing", "/v1/deals/", "/v1/hint", "/%ff", "/v1/deals/%00"]))
                exchange(method, path, None, {})
            else:
                body = data.draw(st.binary(max_size=300))
                content = data.draw(st.sampled_from(["application/json", "text/plain", "application/x-www-form-"
                                                                                       "urlencoded"]))
                exchange("POST", data.draw(st.sampled_from(["/v1/hint", "/v1/endgames/shithead"])), body,
                         {"content-type": content})

        one()
        conn[0].close()
        stats = json.loads(http_get(server.port, "/v1/stats"))
        return {"server_log_tracebacks": server.log().count("Traceback"), "stats_requests": stats["requests"]["total"],
                "by_status": stats["requests"]["by_status"]}


def http_get(port: int, path: str) -> bytes:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        conn.request("GET", path)
        return conn.getresponse().read()
    finally:
        conn.close()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cli", type=int, default=600, help="CLI inputs (hypothesis examples).")
    parser.add_argument("--http", type=int, default=400, help="HTTP inputs (hypothesis examples).")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args()
    tally = Tally()
    report: dict[str, Any] = {"setup": {"cli": args.cli, "http": args.http, "seed": args.seed}}
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="halfmoon-fuzz-") as folder:
        import os

        os.environ["HALFMOON_DB"] = str(Path(folder) / "cli.sqlite3")
        cli_started = time.monotonic()
        fuzz_cli(tally, args.cli, Path(folder), args.seed)
        report["cli"] = {"inputs": tally.inputs, "seconds": round(time.monotonic() - cli_started, 1)}
        cli_inputs = tally.inputs
        http_started = time.monotonic()
        report["http"] = fuzz_http(tally, args.http, Path(folder), args.seed) | {
            "inputs": tally.inputs - cli_inputs, "seconds": round(time.monotonic() - http_started, 1)}
    healthz = sorted(tally.healthz_ms)
    report |= {
        "inputs": tally.inputs,
        "wall_seconds": round(time.monotonic() - started, 1),
        "outcomes": dict(sorted(tally.by_outcome.items())),
        "worst_overrun_seconds": round(tally.worst_overrun, 3) if math.isfinite(tally.worst_overrun) else None,
        "overrun_note": "seconds past 1.1 x the time a run may spend + 0.5 s; negative: within it",
        "healthz_ms": {"n": len(healthz), "median": round(healthz[len(healthz) // 2], 1) if healthz else None,
                       "max": round(healthz[-1], 1) if healthz else None},
        "problems": tally.problems,
    }
    bad = [k for k in tally.by_outcome if not (k.startswith("exit_0") or k.startswith("exit_2") or
                                               k.startswith("exit_3") or (k.startswith("http_") and k < "http_5"))]
    report["checks"] = {
        "0 tracebacks": tally.by_outcome["traceback"] + report["http"]["server_log_tracebacks"] == 0,
        "0 5xx": not any(k.startswith("http_5") for k in tally.by_outcome),
        "0 internal errors (exit 1)": tally.by_outcome["internal_error"] + tally.by_outcome["exception"] == 0,
        "0 runs past their limits by more than 10%": tally.by_outcome["past_limit"] == 0,
        "nothing else": not bad,
    }
    text = json.dumps(report, indent=2)
    print(text)
    if args.out:
        args.out.write_text(text + "\n")
    return 0 if all(report["checks"].values()) else 1


if __name__ == "__main__":
    raise SystemExit(main())
