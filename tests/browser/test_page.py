"""The web page in a real browser (headless Chromium), against a running `halfmoon serve`.

Every expectation about the game comes from the service's public API (solutions, hints, the
referee), never from numbers written here.
"""

from __future__ import annotations

import re

import pytest
from support.browser import http, screenshot

CODE = "HM1-N-AAAAAAB"
GREEN, RED = "rgb(30, 138, 60)", "rgb(192, 32, 42)"  # --keep and --lose in style.css


def solution(server: str, code: str) -> list[str]:
    status, data = http("GET", f"{server}/v1/deals/{code}/solution?wait=30")
    assert status == 200 and data["verdict"] == "winnable", data
    return data["moves"]


def open_code(page, code: str) -> None:
    page.goto("/")
    page.fill("#code", code)
    page.click("#open button[type=submit]")
    page.wait_for_selector("#verdict.winnable, #verdict.unwinnable, #verdict.unknown")


def board_cards(page) -> list[tuple[str, str]]:
    """Every card drawn on the board (place, card), the hidden ones included when revealed."""
    return page.eval_on_selector_all("#board .place", """places => places.map(p => [
        p.querySelector('.label').textContent,
        [...p.querySelectorAll('.card[data-card], .under span')].map(c => c.dataset.card || c.textContent).join(' ')])""")


def play_move(page, move: str, played: int) -> None:
    for place in move.split("+"):
        page.click(f"#board .card[data-place='{place}']")
    page.wait_for_function(f"document.getElementById('progress').textContent === 'Moves played: {played}'")


def test_enter_a_code_see_the_verdict_and_play_the_whole_solution_to_won(page, server):
    line = solution(server, CODE)
    open_code(page, CODE)
    assert page.text_content("#verdict").startswith(f"{CODE}: winnable")
    assert page.locator("#board .place").count() == 20  # 12 piles and 8 reserve slots
    assert page.locator("#board .backs").count() == 12  # each pile's 7 hidden cards, as backs with a count
    assert page.locator("#board .backs").first.text_content().endswith("7")
    screenshot(page, "deal")
    page.click("#tab-play")
    for number, move in enumerate(line, start=1):
        play_move(page, move, number)
    assert page.text_content("#status") == "Won! Score 520"
    assert page.text_content("#score") == "Score 520 / 520"
    assert page.locator("#board .card[data-card]").count() == 0
    screenshot(page, "won")


def test_an_illegal_pair_shows_the_rules_message_and_undo_goes_back(page, server):
    open_code(page, CODE)
    page.click("#tab-play")
    start = board_cards(page)
    status, played = http("POST", f"{server}/v1/replay", {"code": CODE, "moves": []})
    legal = {frozenset(move.split("+")) for move in played["legal"]}
    tops = [str(i + 1) for i, pile in enumerate(played["piles"]) if pile and pile[-1][0] not in "JQK"]
    pair = next((a, b) for a in tops for b in tops if a < b and frozenset((a, b)) not in legal)
    status, refused = http("POST", f"{server}/v1/replay", {"code": CODE, "moves": ["+".join(pair)]})
    assert status == 400
    reason = re.sub(r"^move 1 \('[^']*'\): ", "", refused["error"]["message"])
    for place in pair:
        page.click(f"#board .card[data-place='{place}']")
    page.wait_for_selector("#status.illegal")
    assert page.text_content("#status") == reason and "sum" in reason
    screenshot(page, "illegal")
    assert page.text_content("#progress") == "Moves played: 0" and board_cards(page) == start
    play_move(page, played["legal"][0], 1)
    assert board_cards(page) != start and page.text_content("#score") == "Score 10 / 520"
    page.click("#undo")
    page.wait_for_function("document.getElementById('progress').textContent === 'Moves played: 0'")
    assert board_cards(page) == start and page.text_content("#score") == "Score 0 / 520"


def losing_point(server: str) -> tuple[str, list[str]]:
    """A deal and a winnable line after which some move loses (found with the exact hint)."""
    for number in range(3, 40):
        code = f"HM1-N-AAAAA{chr(65 + number // 26)}{chr(65 + number % 26)}"
        status, found = http("GET", f"{server}/v1/deals/{code}/solution?wait=30")
        if found.get("verdict") != "winnable":
            continue
        for played in range(0, 40, 4):
            status, hint = http("POST", f"{server}/v1/hint?wait=30", {"code": code, "moves": found["moves"][:played]})
            if any(row["verdict"] == "unwinnable" for row in hint["moves"]):
                return code, found["moves"][:played]
    raise AssertionError("no losing move found on the first deals")


def test_hint_colours_match_the_exact_hint_and_the_fair_hint_follows(page, server):
    code, line = losing_point(server)
    page.goto(f"/?code={code}&moves={','.join(line)}")
    page.wait_for_function(f"document.getElementById('progress').textContent === 'Moves played: {len(line)}'")
    page.click("#hint")
    page.wait_for_selector("#hints .chip")
    status, expected = http("POST", f"{server}/v1/hint", {"code": code, "moves": line})
    assert status == 200 and expected["sees"] == "every card"
    chips = page.eval_on_selector_all("#hints .chip", """chips => chips.map(c => [c.dataset.move,
        c.dataset.verdict, getComputedStyle(c).backgroundColor])""")
    assert [(move, verdict) for move, verdict, _ in chips] == [(r["move"], r["verdict"]) for r in expected["moves"]]
    colours = {"winnable": GREEN, "unwinnable": RED}
    assert all(colour == colours[verdict] for _, verdict, colour in chips)
    assert {verdict for _, verdict, _ in chips} == {"winnable", "unwinnable"}
    assert "knows every card" in page.text_content("#hints .exact h3")
    page.wait_for_selector("#hints .odds li", timeout=90_000)
    assert page.locator("#hints .odds li").count() == len(expected["moves"])
    assert "arrangements of the" in page.text_content("#hints .fair") and "from what you can see" in page.text_content(
        "#hints .fair h3")
    screenshot(page, "hint")
    # a losing move played, "where did I go wrong" names it and the moves that kept the win
    losing = next(r["move"] for r in expected["moves"] if r["verdict"] == "unwinnable")
    play_move(page, losing, len(line) + 1)
    page.click("#analyze")
    page.wait_for_selector("#analysis p.unwinnable")
    assert page.text_content("#analysis p.unwinnable").startswith(f"Move {len(line) + 1}, {losing}")
    page.click("#analysis button")
    page.wait_for_function(f"document.getElementById('progress').textContent === 'Moves played: {len(line)}'")


def test_a_shared_address_restores_the_same_position(page, browser, server):
    line = solution(server, CODE)
    open_code(page, CODE)
    page.click("#tab-play")
    for number, move in enumerate(line[:5], start=1):
        play_move(page, move, number)
    page.check("#reveal")
    shared = page.get_attribute("#share", "href")
    assert shared == f"?code={CODE}&moves={','.join(line[:5])}" and page.url.endswith(shared)
    before = board_cards(page)
    page.reload()
    page.wait_for_function("document.getElementById('progress').textContent === 'Moves played: 5'")
    page.check("#reveal")
    assert board_cards(page) == before
    other = browser.new_page(base_url=server)
    other.goto("/" + shared)
    other.wait_for_function("document.getElementById('progress').textContent === 'Moves played: 5'")
    other.check("#reveal")
    assert board_cards(other) == before and other.text_content("#score") == "Score 50 / 520"
    other.close()


def test_watch_the_solution_step_and_autoplay_with_the_next_cards_outlined(page, server):
    line = solution(server, CODE)
    open_code(page, CODE)
    page.wait_for_function("document.getElementById('progress').textContent === 'Move 0 / 48'")
    outlined = sorted(page.eval_on_selector_all("#board .card.next", "cards => cards.map(c => c.dataset.place)"))
    assert outlined == sorted(line[0].split("+"))
    page.click("#forward")
    page.click("#forward")
    assert page.text_content("#progress") == "Move 2 / 48"
    page.click("#back")
    assert page.text_content("#progress") == "Move 1 / 48" and page.text_content("#score") == "Score 10 / 520"
    page.keyboard.press("ArrowRight")  # the keyboard steps too
    assert page.text_content("#progress") == "Move 2 / 48"
    page.fill("#speed", "8")
    page.dispatch_event("#speed", "input")
    page.click("#auto")
    page.wait_for_function("document.getElementById('progress').textContent === 'Move 48 / 48'", timeout=30_000)
    assert page.text_content("#score") == "Score 520 / 520" and page.text_content("#status") == "Won: every card removed."
    page.click("#first")
    assert page.text_content("#progress") == "Move 0 / 48"


def test_phone_width_has_no_horizontal_scrolling_and_every_place_is_in_view(page, server):
    open_code(page, CODE)
    page.check("#reveal")  # the widest state: every hidden card listed
    for tab in ("#tab-watch", "#tab-play"):
        page.click(tab)
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
    boxes = page.eval_on_selector_all("#board .place", "ps => ps.map(p => p.getBoundingClientRect().toJSON())")
    assert len(boxes) == 20 and all(box["x"] >= 0 and box["x"] + box["width"] <= 390 for box in boxes)
    screenshot(page, "phone-revealed")


def test_the_keyboard_alone_plays_a_move(page, server):
    status, played = http("POST", f"{server}/v1/replay", {"code": CODE, "moves": []})
    move = played["legal"][0]
    open_code(page, CODE)
    page.focus("#tab-play")
    page.keyboard.press("Enter")
    for place in move.split("+"):
        page.focus(f"#board .card[data-place='{place}']")
        page.keyboard.press("Enter")
    page.wait_for_function("document.getElementById('progress').textContent === 'Moves played: 1'")


def test_a_family_preset_is_drawn_as_its_grid_with_the_same_controls(page, server):
    code = next(c for c in (f"EL1-N-AAAAAA{chr(65 + n)}" for n in range(26))
                if http("GET", f"{server}/v1/deals/{c}/solution?wait=30")[1].get("verdict") == "winnable")
    line = solution(server, code)
    open_code(page, code)
    assert page.locator("#board.grid .place").count() == 9 and page.locator("#board .stock").count() == 1
    assert "43 face down" in page.text_content("#board .stock")
    assert page.evaluate("getComputedStyle(document.getElementById('board')).gridTemplateColumns").count("px") == 3
    page.click("#last")
    assert page.text_content("#progress") == f"Move {len(line)} / {len(line)}"
    assert page.text_content("#status") == "Won: every card removed."
    screenshot(page, "elevens")
    page.click("#tab-play")
    play_move(page, line[0], 1)  # the service referees a family game as well


@pytest.mark.parametrize("case", ["bad code", "unknown verdict", "busy", "lost connection"])
def test_one_clear_message_for_each_failure_and_never_a_spinner(page, server, case):
    if case == "bad code":
        page.goto("/")
        page.fill("#code", "HM1-N-AAAA1AB")
        page.click("#open button[type=submit]")
        page.wait_for_selector("#message.error")
        status, refused = http("GET", f"{server}/v1/deals/HM1-N-AAAA1AB")
        assert page.text_content("#message") == refused["error"]["message"]
        assert page.is_hidden("#game")
        return
    if case == "unknown verdict":
        unknown = {"code": CODE, "game": "halfmoon", "verdict": "unknown", "moves": None, "cards": None,
                   "method": "none", "nodes": 1000, "seconds": 60.0, "stopped": "time", "cached": False,
                   "solver_version": "x", "source": "solver",
                   "reason": "not decided within the solver's limit of 60 s"}
        page.route("**/v1/deals/*/solution*", lambda route: route.fulfill(json=unknown))
        open_code(page, CODE)
        assert "unknown" in page.text_content("#verdict")
        assert page.text_content("#message") == unknown["reason"]
        assert page.text_content("#progress") == "No solution to watch"
        return
    open_code(page, CODE)
    page.click("#tab-play")
    if case == "busy":
        page.route(re.compile(r".*/v1/(fair-)?hint"), lambda route: route.fulfill(
            status=503, headers={"Retry-After": "7"},
            json={"error": {"status": 503, "kind": "busy", "type": "PoolBusy", "message": "the solver pool is full"}}))
        page.click("#hint")
        page.wait_for_selector("#hints .exact p.error")
        page.wait_for_selector("#hints .fair p.error")
        for part in ("exact", "fair"):
            assert page.text_content(f"#hints .{part} p.error") == (
                "The service is busy (the solver pool is full). Try again in 7 s.")
    else:
        page.route("**/v1/**", lambda route: route.abort("internetdisconnected"))
        page.click("#hint")
        page.wait_for_selector("#hints .exact p.error")
        page.wait_for_selector("#hints .fair p.error")
        assert page.text_content("#hints .exact p.error").startswith("Lost the connection to the service")
        status, played = http("POST", f"{server}/v1/replay", {"code": CODE, "moves": []})
        for place in played["legal"][0].split("+"):
            page.click(f"#board .card[data-place='{place}']")
        page.wait_for_selector("#message.error")
        assert page.text_content("#message").startswith("Lost the connection")
    assert page.locator(".pending").count() == 0  # nothing left "working…"


def test_still_working_ends_in_a_message_not_an_endless_spinner(page, server):
    page.clock.install()
    page.route("**/v1/deals/*/solution*", lambda route: route.fulfill(
        status=202, headers={"Retry-After": "5"},
        json={"code": CODE, "verdict": "unknown", "pending": True, "retry_after": 5, "reason": "still solving"}))
    page.goto("/")
    page.fill("#code", CODE)
    page.click("#open button[type=submit]")
    page.wait_for_selector("#game:not([hidden])")
    for _ in range(30):
        page.clock.run_for(6000)
        if page.is_visible("#message.error"):
            break
    assert page.text_content("#message").startswith("Still working after")
    assert page.text_content("#verdict").endswith("not known")


def test_api_docs_work_without_internet(page, server):
    outside = []

    def only_here(route):
        if route.request.url.startswith(server):
            return route.continue_()
        outside.append(route.request.url)
        return route.abort("internetdisconnected")

    page.route("**/*", only_here)
    page.goto("/docs")
    page.wait_for_selector(".swagger-ui .information-container h1.title")
    page.wait_for_selector(".swagger-ui .opblock")
    assert "/v1/fair-hint" in page.text_content(".swagger-ui") and "/v1/analyze" in page.text_content(".swagger-ui")
    assert outside == []
    page.goto("/redoc")
    page.wait_for_selector("h1:has-text('(')")  # the title and version: the viewer ran
    assert all(url.endswith(".svg") for url in outside)  # at most Redoc's own logo is missing


def test_the_pickers_open_a_curated_deal_and_a_family_deal(page, server):
    page.goto("/")
    page.select_option("#pick", "HM:easy")
    page.click("#pick-go")
    page.wait_for_selector("#verdict.winnable", timeout=120_000)  # curated deals are winnable
    code = page.input_value("#code")
    assert code.startswith("HM1-N-") and page.url.endswith(f"?code={code}")
    page.select_option("#pick", "TN")
    page.click("#pick-go")
    page.wait_for_function("document.getElementById('code').value.startsWith('TN1-N-')")
    page.wait_for_selector("#board.grid")
    assert page.locator("#board .place").count() == 13 and "39 face down" in page.text_content("#board .stock")
