"""Every endpoint of the deal-code service and every error path, through FastAPI's test client.

Answers are compared with what the CLI prints for the same input (the same `to_json` functions
must give the same fields), winning lines are replayed through the rules, and errors must carry
the CLI's message in the documented JSON shape.
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
import time
from typing import Any

import pytest
from click.testing import CliRunner
from http_helpers import make_client

import halfmoon
from halfmoon import TIERS, ResultStore, StoredRating, parse_code
from halfmoon.cli.main import main as cli

SMALL_SHITHEAD = {"players": 2, "to_move": 0, "hands": [["3S", "KH"], ["4H", "JS"]],
                  "face_up": [[], []], "face_down": [[], []], "pile": ["5D"]}


#: Deals whose exact answer takes seconds even for the native search (unwinnable, so a hint is one
#: solve): HM1 deal 6563 about 1.7 s, deal 7829 about 15 s of one core (the hardest of 0-19 999 but one).
SLOW = "HM1-N-AAAAJSL"
SLOWEST = "HM1-N-AAAALPD"

def cli_json(*args: str) -> Any:
    result = CliRunner().invoke(cli, [*args, "--json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.output)


def cli_error(*args: str) -> str:
    """The CLI's one-line error message (without 'error: '), exit code 3."""
    result = CliRunner().invoke(cli, list(args))
    assert result.exit_code == 3, result.output
    line = result.output.strip()
    assert line.startswith("error: ")
    return line.removeprefix("error: ")


def assert_error(response: Any, status: int, kind: str, message: str | None = None) -> dict[str, Any]:
    assert response.status_code == status, response.text
    error = response.json()["error"]
    assert error["status"] == status and error["kind"] == kind
    assert "Traceback" not in response.text
    if message is not None:
        assert error["message"] == message
    return error


def wins(code: str, moves: list[str], **where: Any) -> bool:
    """Whether `moves` replay from `code` (or a layout, with game=) to a win, through the facade's rules."""
    return halfmoon.replay(code, " ".join(moves), **where).status == "won"


def poll(client: Any, method: str, url: str, limit: float = 120.0, **kwargs: Any) -> Any:
    """Ask until the answer is no longer 202 (bounded), honouring Retry-After (capped at 1 s here)."""
    deadline = time.monotonic() + limit
    while True:
        response = client.request(method, url, **kwargs)
        if response.status_code != 202 or time.monotonic() > deadline:
            return response
        assert int(response.headers["Retry-After"]) >= 1
        time.sleep(min(1.0, float(response.headers["Retry-After"])))


# -- service --------------------------------------------------------------------------------


def test_healthz_and_openapi(client):
    health = client.get("/healthz")
    assert health.status_code == 200 and health.json()["status"] == "ok" and health.json()["workers"] == 2
    schema = client.get("/openapi.json").json()
    for path in ["/v1/deals/{code}", "/v1/deals/{code}/solution", "/v1/hint", "/v1/curated",
                 "/v1/endgames/{game}", "/healthz", "/v1/stats"]:
        assert path in schema["paths"], path
    assert "ErrorReply" in schema["components"]["schemas"]
    docs = client.get("/docs")
    assert docs.status_code == 200 and "swagger" in docs.text.lower()


def test_healthz_says_unavailable_when_the_store_cannot_be_read(client, monkeypatch):
    async def unreadable() -> None:
        raise OSError("disk gone")

    monkeypatch.setattr(client.app.state.service.store, "ping", unreadable)
    response = client.get("/healthz")
    assert response.status_code == 503 and response.json()["status"] == "unavailable"
    assert "disk gone" in response.json()["reason"]


def test_stats_count_what_was_served(client):
    before = client.get("/v1/stats").json()
    assert client.get("/v1/deals/HM1-N-AAAAAAB").status_code == 200
    after = client.get("/v1/stats").json()
    assert after["requests"]["total"] >= before["requests"]["total"] + 2
    route = after["requests"]["by_route"]["GET /v1/deals/{code}"]
    assert route["n"] >= 1 and route["min"] <= route["p50_approx"] <= route["p99_approx"] <= route["max"]
    assert not {"median", "p50", "p90", "p99"} & set(route)  # binned quantiles are labelled approximate
    for key in ("results", "ratings", "path"):
        assert key in after["store"]
    assert set(after["solutions"]) >= {"asked", "from_store", "solved", "cache_hit_rate"}
    assert after["pool"]["workers"] == 2 and len(after["pool"]["worker_pids"]) == 2


def test_unknown_route_and_method_are_json(client):
    assert_error(client.get("/v2/nothing"), 404, "not_found")
    assert_error(client.post("/v1/deals/HM1-N-AAAAAAB"), 405, "method_not_allowed")


# -- deals ----------------------------------------------------------------------------------


@pytest.mark.parametrize("code", ["HM1-N-AAAAAAB", "EL1-N-AAAAAAB", "TN1-N-AAAAAAC", "SH1-2-AAAAAAB"])
def test_deal_layout_is_the_cli_json(client, code):
    response = client.get(f"/v1/deals/{code.lower()}")
    assert response.status_code == 200
    assert response.json() == cli_json("deal", code)


@pytest.mark.parametrize("code", ["HM1-N-AAAA1AB", "HM1-N-AAAAAA", "ZZ1-N-AAAAAAB", "HM2-N-AAAAAAB", "nonsense"])
def test_bad_deal_codes_get_the_cli_message(client, code):
    assert_error(client.get(f"/v1/deals/{code}"), 400, "invalid_input", cli_error("deal", code))


# -- solutions ------------------------------------------------------------------------------


def test_solution_solved_then_stored(client):
    first = client.get("/v1/deals/HM1-N-AAAAAAB/solution")
    assert first.status_code == 200, first.text
    data = first.json()
    assert data["source"] == "solver" and data["verdict"] == "winnable"
    assert wins("HM1-N-AAAAAAB", data["moves"])
    expected = cli_json("solve", "HM1-N-AAAAAAB", "--no-cache")
    assert list(data) == list(expected)  # the CLI's fields in the CLI's order ("source" last in both)
    for key in ("code", "game", "verdict", "moves", "cards", "method", "nodes", "stopped", "cached", "solver_version"):
        assert data[key] == expected[key], key
    second = client.get("/v1/deals/HM1-N-AAAAAAB/solution").json()
    assert second["source"] == "store" and second["cached"] is True and data["cached"] is False
    assert {k: second[k] for k in expected if k not in ("cached", "source", "engine")} == \
        {k: data[k] for k in expected if k not in ("cached", "source", "engine")}
    stats = client.get("/v1/stats").json()["solutions"]
    assert stats["from_store"] >= 1 and stats["solved"] >= 1 and 0 < stats["cache_hit_rate"] < 1


def test_solution_from_a_store_the_cli_wrote(client, store_path):
    expected = cli_json("solve", "HM1-N-AAAAAAE", "--db", str(store_path))
    data = client.get("/v1/deals/HM1-N-AAAAAAE/solution").json()
    assert data["source"] == "store" and data["cached"] is True
    assert data["moves"] == expected["moves"] and wins("HM1-N-AAAAAAE", data["moves"])


@pytest.mark.parametrize("code", ["EL1-N-AAAAAAB", "se1-n-aaaaaac", "TN1-N-AAAAAAD"])
def test_solution_of_the_elevens_family_is_the_cli_json(client, code):
    first = client.get(f"/v1/deals/{code}/solution")
    assert first.status_code == 200, first.text
    data = first.json()
    expected = cli_json("solve", code, "--no-cache")
    assert list(data) == list(expected)
    assert {k: data[k] for k in expected if k != "seconds"} == {k: expected[k] for k in expected if k != "seconds"}
    assert data["source"] == "solver" and data["game"] == halfmoon.deal(code).game
    if data["verdict"] == "winnable":
        assert wins(code, data["moves"])
    again = client.get(f"/v1/deals/{code}/solution").json()
    assert again["source"] == "store" and again["cached"] is True and again["verdict"] == data["verdict"]


def test_solution_not_ready_is_202_then_answered(client):
    pending = client.get("/v1/deals/HM1-N-AAAAAAF/solution", params={"wait": 0.0001})
    assert pending.status_code == 202, pending.text
    body = pending.json()
    assert body["pending"] is True and body["verdict"] == "unknown" and body["code"] == "HM1-N-AAAAAAF"
    assert int(pending.headers["Retry-After"]) == body["retry_after"] >= 1
    done = poll(client, "GET", "/v1/deals/HM1-N-AAAAAAF/solution")
    assert done.status_code == 200 and done.json()["verdict"] == "winnable"
    assert wins("HM1-N-AAAAAAF", done.json()["moves"])


def test_one_solve_for_many_askers(client):
    before = client.get("/v1/stats").json()["solutions"]
    for _ in range(3):
        client.get("/v1/deals/HM1-N-AAAAAAG/solution", params={"wait": 0.0001})
    done = poll(client, "GET", "/v1/deals/HM1-N-AAAAAAG/solution")
    assert done.status_code == 200
    after = client.get("/v1/stats").json()["solutions"]
    assert after["started"] - before["started"] == 1  # the later asks joined or read the store


def test_a_solve_that_ends_during_a_store_read_is_not_started_again(client, monkeypatch):
    """The race behind a flaky CI run: an ask reads the store, the running solve stores its answer
    and ends before that read returns (a miss), and the ask then found nothing running."""
    service = client.app.state.service
    code = "HM1-N-AAAAAAH"
    release = asyncio.Event()  # the solve may finish once the second ask's store read has begun
    solve_now, from_store = service.solve_now, service.store.from_store

    async def gated_solve(deal: str) -> Any:
        await release.wait()
        return await solve_now(deal)

    async def stale_read(deal: str, limits: Any) -> Any:
        if release.is_set():
            return await from_store(deal, limits)
        missed = await from_store(deal, limits)  # read while the solve is held: nothing stored yet
        release.set()
        for _ in range(6000):  # then the solve stores its answer and ends before the read returns
            if not service.solves.running(("solve", code)):
                break
            await asyncio.sleep(0.01)
        return missed

    monkeypatch.setattr(service, "solve_now", gated_solve)
    before = client.get("/v1/stats").json()["solutions"]
    assert client.get(f"/v1/deals/{code}/solution", params={"wait": 0.0001}).status_code == 202
    monkeypatch.setattr(service.store, "from_store", stale_read)
    answer = client.get(f"/v1/deals/{code}/solution", params={"wait": 30}).json()
    assert answer["source"] == "store" and answer["cached"] is True and answer["verdict"] != "unknown"
    assert client.get("/v1/stats").json()["solutions"]["started"] - before["started"] == 1


@pytest.mark.parametrize("code, word", [("HM1-N-AAAA1AB", "payload"), ("SH1-2-AAAAAAB", "multiplayer"),
                                        ("XX1-N-AAAAAAB", "XX")])
def test_solution_bad_codes(client, code, word):
    error = assert_error(client.get(f"/v1/deals/{code}/solution"), 400, "invalid_input")
    assert word in error["message"]
    if word != "multiplayer":
        assert error["message"] == cli_error("solve", code)


def test_solution_wait_out_of_range(client):
    assert_error(client.get("/v1/deals/HM1-N-AAAAAAB/solution", params={"wait": 1000}), 422, "bad_request")
    assert_error(client.get("/v1/deals/HM1-N-AAAAAAB/solution", params={"wait": "soon"}), 422, "bad_request")


# -- hints ----------------------------------------------------------------------------------


def test_hint_is_the_cli_json(client):
    response = client.post("/v1/hint", json={"code": "HM1-N-AAAAAAB", "moves": "4+10, 1+3"})
    assert response.status_code == 200, response.text
    data = response.json()
    expected = cli_json("hint", "HM1-N-AAAAAAB", "--moves", "4+10, 1+3")
    assert list(data)[: len(expected)] == list(expected)  # same fields in the same order, then "source"
    for key in ("code", "played", "verdict", "best", "line", "moves"):
        assert data[key] == expected[key], key
    assert data["source"] == "solver"
    again = client.post("/v1/hint", json={"code": "HM1-N-AAAAAAB", "moves": ["4+10", "1+3"]}).json()
    assert again["source"] == "memory" and again["moves"] == data["moves"]


def test_hint_from_a_layout(client):
    layout = cli_json("deal", "HM1-N-AAAAAAB")
    played = client.post("/v1/hint", json={"layout": layout, "moves": "4+10, 1+3"}).json()
    assert played["code"] is None and played["played"] == 2 and played["verdict"] == "winnable"
    assert wins(layout, ["4+10", "1+3", *played["line"]], game="HM")


def test_hint_for_any_solitaire(client):
    expected = cli_json("hint", "EL1-N-AAAAAAC")
    by_code = client.post("/v1/hint", json={"code": "EL1-N-AAAAAAC"}).json()
    assert {k: by_code[k] for k in expected if k != "seconds"} == {k: expected[k] for k in expected if k != "seconds"}
    layout = cli_json("deal", "EL1-N-AAAAAAC")
    for extra in ({"game": "EL"}, {"game": "elevens"}, {"rules": "elevens"}, {"rules": "EL"},
                  {"rules": json.loads(halfmoon.rule_preset_text("elevens"))}):
        answer = client.post("/v1/hint", json={"layout": layout} | extra)
        assert answer.status_code == 200, (extra, answer.text)
        assert answer.json()["code"] is None and answer.json()["moves"] == expected["moves"], extra


def test_hint_reads_no_files_for_rules(client, tmp_path):
    rule_file = tmp_path / "mine.json"
    rule_file.write_text(halfmoon.rule_preset_text("elevens"))
    layout = cli_json("deal", "EL1-N-AAAAAAC")
    error = assert_error(client.post("/v1/hint", json={"layout": layout, "rules": str(rule_file)}), 400,
                         "invalid_input")
    assert "preset" in error["message"]


def test_hint_errors(client):
    message = cli_error("hint", "HM1-N-AAAAAAB", "--moves", "4+10, 1+1")
    assert_error(client.post("/v1/hint", json={"code": "HM1-N-AAAAAAB", "moves": "4+10, 1+1"}), 400, "invalid_input",
                 message)
    assert_error(client.post("/v1/hint", json={"code": "HM1-N-AAAA1AB"}), 400, "invalid_input",
                 cli_error("hint", "HM1-N-AAAA1AB"))
    assert_error(client.post("/v1/hint", json={"layout": {"piles": []}}), 400, "invalid_input",
                 "layout: missing key 'reserve'")
    assert_error(client.post("/v1/hint", json={"moves": "1+8"}), 422, "bad_request")
    assert_error(client.post("/v1/hint", json={"code": "HM1-N-AAAAAAB", "layout": {}}), 422, "bad_request")
    assert_error(client.post("/v1/hint", json={"code": "HM1-N-AAAAAAB", "moves": 3}), 422, "bad_request")
    assert_error(client.post("/v1/hint", json={"code": "HM1-N-AAAAAAB", "colour": "red"}), 422, "bad_request")
    error = assert_error(client.post("/v1/hint", content=b'{"code": ', headers={"content-type": "application/json"}),
                         400, "invalid_input")
    assert "not valid JSON" in error["message"]


# -- endgames -------------------------------------------------------------------------------


def test_endgame_games_are_the_catalogue(client):
    games = client.get("/v1/endgames").json()["games"]
    assert games == [game.to_json() for game in halfmoon.games() if game.kind == "multiplayer"]
    assert games and all(game["kind"] == "multiplayer" for game in games)


def test_endgame_is_the_cli_json(client, tmp_path):
    response = client.post("/v1/endgames/shithead", json={"position": SMALL_SHITHEAD})
    assert response.status_code == 200, response.text
    data = response.json()
    position_file = tmp_path / "position.json"
    position_file.write_text(json.dumps(SMALL_SHITHEAD))
    expected = cli_json("endgame", "shithead", "--position", str(position_file))
    timing = {"seconds", "value_seconds", "positions_per_second", "bytes_per_position"}
    assert set(data) == set(expected) | {"source"}
    for key in expected:
        if key != "questions":
            assert data[key] == expected[key], key
    for ours, theirs in zip(data["questions"], expected["questions"], strict=True):
        assert {k: v for k, v in ours.items() if k not in timing} == {k: v for k, v in theirs.items() if k not in timing}
    assert data["questions"][0]["status"] == "solved" and data["source"] == "solver"
    assert client.post("/v1/endgames/SHITHEAD", json={"position": SMALL_SHITHEAD}).json()["source"] == "memory"


@pytest.mark.parametrize("method", ["proof", "retrograde"])
def test_endgame_methods_are_the_cli_methods(client, method):
    response = client.post("/v1/endgames/shithead", json={"position": SMALL_SHITHEAD, "method": method})
    assert response.status_code == 200, response.text
    assert {q["method"] for q in response.json()["questions"]} == {method}


def test_endgame_errors(client, tmp_path):
    unknown = client.post("/v1/endgames/chess", json={"position": SMALL_SHITHEAD})
    assert_error(unknown, 404, "not_found", cli_error("endgame", "chess", "--code", "SH1-2-AAAAAAB"))
    bad = dict(SMALL_SHITHEAD, colour="red")
    position_file = tmp_path / "bad.json"
    position_file.write_text(json.dumps(bad))
    assert_error(client.post("/v1/endgames/shithead", json={"position": bad}), 400, "invalid_input",
                 cli_error("endgame", "shithead", "--position", str(position_file)))
    assert_error(client.post("/v1/endgames/shithead", json={"code": "SH1-2-AAAA1AB"}), 400, "invalid_input",
                 cli_error("endgame", "shithead", "--code", "SH1-2-AAAA1AB"))
    assert_error(client.post("/v1/endgames/shithead", json={}), 422, "bad_request")
    assert_error(client.post("/v1/endgames/shithead", json={"position": SMALL_SHITHEAD, "code": "SH1-2-AAAAAAB"}),
                 422, "bad_request")
    assert_error(client.post("/v1/endgames/shithead", json={"position": SMALL_SHITHEAD, "moves": "5"}), 422, "bad_request")
    error = assert_error(client.post("/v1/endgames/shithead", json={"position": SMALL_SHITHEAD, "max_seconds": 1e6}),
                         422, "bad_request")  # the schema states the server's range
    assert "max_seconds" in error["message"] and "60" in error["message"]
    assert_error(client.post("/v1/endgames/shithead", json={"position": SMALL_SHITHEAD, "method": "guess"}),
                 422, "bad_request")


def test_a_bug_is_a_500_without_details(client, monkeypatch):
    def broken(*args: Any, **kwargs: Any) -> Any:
        raise RuntimeError("secret internals /etc/passwd")

    monkeypatch.setattr(halfmoon, "endgame_position", broken)
    response = client.post("/v1/endgames/shithead", json={"position": SMALL_SHITHEAD})
    error = assert_error(response, 500, "internal")
    assert "secret" not in response.text and "RuntimeError" not in response.text
    assert "incident" in error["message"]


# -- curated --------------------------------------------------------------------------------


def test_curated_generated_on_demand_then_paged(client, store_path):
    response = poll(client, "GET", "/v1/curated", params={"count": 2, "wait": 30}, limit=240)
    assert response.status_code == 200, response.text
    page = response.json()
    assert page["complete"] is True and len(page["deals"]) == 2 and page["next"] == page["deals"][-1]["code"]
    for deal in page["deals"]:
        assert deal["tier"] in TIERS and parse_code(deal["code"]).number == deal["number"]
        assert wins(deal["code"], deal["line"])
    first, second = page["deals"]
    onward = client.get("/v1/curated", params={"count": 1, "after": first["code"]}).json()
    assert onward["deals"] == [second] and onward["complete"]
    same_tier = client.get("/v1/curated", params={"count": 1, "tier": first["tier"]}).json()
    assert same_tier["deals"] == [first]
    with ResultStore(store_path) as store:
        assert store.get_rating(first["code"], client.get("/v1/stats").json()["service"]["solver_version"],
                                client.get("/v1/stats").json()["curated"]["rating_version"]) is not None


def test_curated_never_serves_a_line_that_does_not_replay(client, store_path):
    stats = client.get("/v1/stats").json()
    solver_version, rating_version = stats["service"]["solver_version"], stats["curated"]["rating_version"]
    page = poll(client, "GET", "/v1/curated", params={"count": 1, "wait": 30}, limit=240).json()
    real = page["deals"][0]
    detail = {k: v for k, v in real.items() if k not in ("code", "number")} | {"line": "1+2"}
    tampered = StoredRating("HM1-N-AAAAAAZ", "HM", 25, solver_version, rating_version, real["score"], real["tier"],
                            json.dumps(detail), 0.0)
    with ResultStore(store_path) as store:
        store.put_rating(tampered)
    after = client.get("/v1/curated", params={"count": 20, "wait": 0.001}).json()
    assert "HM1-N-AAAAAAZ" not in [deal["code"] for deal in after["deals"]]
    assert all(wins(deal["code"], deal["line"]) for deal in after["deals"])
    assert client.get("/v1/stats").json()["curated"]["skipped_lines"] >= 1


def test_curated_errors(client):
    error = assert_error(client.get("/v1/curated", params={"tier": "impossible"}), 422, "bad_request")
    assert "tier" in error["message"] and "expert" in error["message"]
    assert_error(client.get("/v1/curated", params={"count": 0}), 422, "bad_request")
    assert_error(client.get("/v1/curated", params={"count": 10_000}), 422, "bad_request")
    error = assert_error(client.get("/v1/curated", params={"after": "HM1-N-ZZZZZZZ"}), 404, "not_found")
    assert "HM1-N-ZZZZZZZ" in error["message"]  # a well-formed cursor the store does not hold
    assert_error(client.get("/v1/curated", params={"after": "HM1-N-AAAA1AB"}), 400, "invalid_input",
                 cli_error("deal", "HM1-N-AAAA1AB"))


# -- limits and failures ----------------------------------------------------------------------


def test_body_size_limit(tmp_path):
    with make_client(tmp_path / "small.sqlite3", workers=1, max_body_bytes=256) as small:
        big = {"code": "HM1-N-AAAAAAB", "moves": "1+8 " * 100}
        assert_error(small.post("/v1/hint", json=big), 413, "payload_too_large")

        def chunks():  # no Content-Length: the limit still holds
            for _ in range(10):
                yield b" " * 100

        assert_error(small.post("/v1/hint", content=chunks(), headers={"content-type": "application/json"}),
                     413, "payload_too_large")
        assert small.post("/v1/hint", json={"code": "HM1-N-AAAAAAB", "moves": "4+10"}).status_code in (200, 202)
        assert small.get("/v1/stats").json()["requests"]["by_status"]["4xx"] == 2  # the refused ones are counted


def test_limit_hit_is_unknown_never_a_guess_and_a_full_pool_is_503(tmp_path):
    # A solve limit of a microsecond runs out before any search: the verdict must say unknown.
    with make_client(tmp_path / "tight.sqlite3", workers=1, max_queue=1, solve_time_limit=1e-6,
                     per_client_jobs=2) as tight:
        first = tight.get("/v1/deals/HM1-N-AAAAAAC/solution").json()
        assert first["verdict"] == "unknown" and first["source"] == "solver" and first["stopped"] == "time"
        assert first["moves"] is None and first["method"] == "none"
        again = tight.get("/v1/deals/HM1-N-AAAAAAC/solution").json()
        assert again["verdict"] == "unknown" and again["source"] == "store" and again["cached"] is True
        slow = tight.post("/v1/hint", json={"code": SLOW}, params={"wait": 0.0001})  # seconds of work
        assert slow.status_code == 202
        busy = tight.get("/v1/deals/HM1-N-AAAAAAD/solution")
        error = assert_error(busy, 503, "busy")
        assert int(busy.headers["Retry-After"]) >= 1 and "full" in error["message"]
        assert poll(tight, "POST", "/v1/hint", json={"code": SLOW}).status_code == 200


def test_killed_workers_cost_time_not_answers(client):
    pids = client.get("/v1/stats").json()["pool"]["worker_pids"]
    pending = client.get(f"/v1/deals/{SLOWEST}/solution", params={"wait": 0.0001})
    for pid in pids:
        os.kill(pid, signal.SIGKILL)
    done = poll(client, "GET", f"/v1/deals/{SLOWEST}/solution")
    assert pending.status_code == 202
    assert done.status_code == 200 and done.json()["verdict"] == "unwinnable"
    pool = client.get("/v1/stats").json()["pool"]
    assert pool["restarts"] >= 1 and not set(pool["worker_pids"]) & set(pids)
    assert client.get("/v1/deals/HM1-N-AAAAAAB/solution").status_code == 200


def test_one_client_cannot_take_the_whole_pool(tmp_path):
    with make_client(tmp_path / "fair.sqlite3", workers=2, max_queue=8) as fair:
        assert fair.get("/v1/stats").json()["pool"]["per_client_jobs"] == 1  # workers - 1
        first = fair.post("/v1/hint", json={"code": SLOWEST}, params={"wait": 0.0001})
        assert first.status_code == 202
        second = fair.post("/v1/hint", json={"code": SLOW}, params={"wait": 0.0001})
        error = assert_error(second, 429, "too_many_requests")
        assert int(second.headers["Retry-After"]) >= 1 and "1 solver job" in error["message"]
        again = fair.post("/v1/hint", json={"code": SLOWEST}, params={"wait": 0.0001})
        assert again.status_code == 202  # joining work already running costs nothing more
        assert fair.get(f"/v1/deals/{SLOW}").status_code == 200  # nothing else is limited
        assert poll(fair, "POST", "/v1/hint", json={"code": SLOWEST}).status_code == 200
        assert poll(fair, "POST", "/v1/hint", json={"code": SLOW}).status_code == 200


def test_a_read_only_store_serves_hits_and_saves_nothing(tmp_path):
    db = tmp_path / "shipped.sqlite3"
    with halfmoon.open_store(db) as store:
        halfmoon.solve("HM1-N-AAAAAAB", store=store)
    with make_client(db, workers=1, readonly=True) as served:
        hit = served.get("/v1/deals/HM1-N-AAAAAAB/solution").json()
        assert hit["cached"] is True and hit["source"] == "store"
        fresh = served.get("/v1/deals/HM1-N-AAAAAAC/solution").json()
        assert fresh["source"] == "solver" and fresh["verdict"] == "winnable"
        store_stats = served.get("/v1/stats").json()["store"]
        assert store_stats["readonly"] is True and store_stats["writes_skipped_readonly"] == 1
        assert store_stats["results"] == 1
    with halfmoon.open_store(db) as store:
        assert store.counts()["results"] == 1


def test_a_store_broken_while_serving_is_503_not_500(tmp_path):
    db = tmp_path / "broken.sqlite3"
    with make_client(db, workers=1) as broken:
        assert broken.get("/v1/stats").status_code == 200
        for path in tmp_path.glob("broken.sqlite3*"):
            path.write_bytes(b"this is not a database " * 4096)
        for url in ("/v1/stats", "/v1/curated", "/v1/deals/HM1-N-AAAAAAB/solution"):
            response = broken.get(url)
            error = assert_error(response, 503, "unavailable")
            assert "results store" in error["message"] and int(response.headers["Retry-After"]) >= 1
        assert broken.get("/healthz").status_code == 503
        assert broken.get("/v1/deals/HM1-N-AAAAAAB").status_code == 200  # what needs no store still works
