"""The player's endpoints (/v1/replay, /v1/fair-hint, /v1/analyze), the page at /, /docs offline, CORS."""

from __future__ import annotations

import re

import pytest
from http_helpers import make_client

import halfmoon

CODE = "HM1-N-AAAAAAB"


def test_replay_gives_the_position_and_the_legal_moves(client):
    response = client.post("/v1/replay", json={"code": CODE, "moves": ["4+10"]})
    assert response.status_code == 200
    data = response.json()
    expected = halfmoon.replay(CODE, "4+10")
    assert data["legal"] == [str(m) for m in expected.position.legal_moves()] and data["score"] == 10
    assert data["status"] == "open" and data["piles"] == expected.to_json()["piles"]
    family = client.post("/v1/replay", json={"code": "EL1-N-AAAAAAB", "moves": []}).json()
    assert family["game"] == "elevens" and len(family["stock"]) == 43 and "legal" in family


def test_an_illegal_move_is_a_400_with_the_rules_message(client):
    legal = set(client.post("/v1/replay", json={"code": CODE}).json()["legal"])
    response = client.post("/v1/replay", json={"code": CODE, "moves": "4+10, 1+2"})
    assert "1+2" not in legal and response.status_code == 400
    message = response.json()["error"]["message"]
    with pytest.raises(halfmoon.LineError) as error:
        halfmoon.replay(CODE, "4+10, 1+2")
    assert message == str(error.value) and re.match(r"move 2 \('1\+2'\): ", message)
    assert client.post("/v1/replay", json={"moves": "4+10"}).status_code == 422  # neither code nor layout


def test_fair_hint_over_http_is_the_facades_and_is_seeded(client):
    body = {"code": CODE, "moves": "4+10", "samples": 3, "seed": 7}
    first = client.post("/v1/fair-hint", json=body)
    assert first.status_code == 200, first.text
    data = first.json()
    expected = halfmoon.fair_hint(CODE, moves="4+10", samples=3, seed=7, budget=30).to_json()
    for key in ("sees", "hidden", "samples", "seed", "position", "moves"):
        assert data[key] == expected[key], key
    assert data["code"] == CODE and data["played"] == 1 and data["sees"] == "what the player sees"
    again = client.post("/v1/fair-hint", json=body).json()
    assert again["source"] == "memory" and again["moves"] == data["moves"]
    assert client.post("/v1/fair-hint", json=body | {"samples": 1000}).status_code == 422


def test_analyze_over_http_finds_the_losing_move(client):
    code = "HM1-N-AAAAAAD"
    line = [str(move) for move in halfmoon.solve(code).moves][:12]
    losing = next(str(m.move) for m in halfmoon.hint(code, moves=line).moves if m.verdict.value == "unwinnable")
    response = client.post("/v1/analyze", json={"code": code, "moves": line + [losing]})
    assert response.status_code == 200, response.text
    data = response.json()
    assert data["status"] == "lost" and data["lost_at"] == 13 and data["move"] == losing
    assert data["keeping"] and data["sees"] == "every card"
    exact = client.post("/v1/hint", json={"code": code, "moves": line}).json()
    assert exact["sees"] == "every card"
    assert data["keeping"] == [row["move"] for row in exact["moves"] if row["verdict"] == "winnable"]


def test_the_page_and_its_files_are_served(client):
    page = client.get("/")
    assert page.status_code == 200 and "text/html" in page.headers["content-type"]
    for path in re.findall(r'(?:href|src)="(page/[^"]+)"', page.text):
        assert client.get("/" + path).status_code == 200, path
    script = client.get("/page/app.js")
    assert script.status_code == 200 and "javascript" in script.headers["content-type"]
    for name in ("app.js", "api.js", "board.js"):
        text = client.get(f"/page/{name}").text
        assert "http://" not in text and "https://" not in text  # nothing from elsewhere
        assert not re.search(r'fetch\(\s*["`]/?(?!v1/)', text)  # requests go to the public /v1 API only
    assert all(path.startswith("v1/") for path in re.findall(r'"(?:GET|POST)", [`"]([^`"$]+)', client.get(
        "/page/api.js").text))


def test_docs_load_nothing_from_a_cdn(client):
    for path in ("/docs", "/redoc"):
        html = client.get(path).text
        assert "cdn" not in html.lower() and "https://" not in html
        for asset in re.findall(r'(?:href|src)="(/docs-assets/[^"]+)"', html):
            assert client.get(asset).status_code == 200, asset
    assert "swagger-ui-bundle.js" in client.get("/docs").text


def test_no_cors_headers_by_default(client):
    response = client.get("/v1/deals/HM1-N-AAAAAAB", headers={"Origin": "https://app.example"})
    assert response.status_code == 200 and "access-control-allow-origin" not in response.headers


def test_cors_for_the_origins_asked(tmp_path):
    with make_client(tmp_path / "cors.sqlite3", workers=1, cors_origins=("https://app.example",)) as client:
        allowed = client.get("/v1/deals/HM1-N-AAAAAAB", headers={"Origin": "https://app.example"})
        assert allowed.headers["access-control-allow-origin"] == "https://app.example"
        other = client.get("/v1/deals/HM1-N-AAAAAAB", headers={"Origin": "https://elsewhere.example"})
        assert "access-control-allow-origin" not in other.headers
        preflight = client.options("/v1/hint", headers={"Origin": "https://app.example",
                                                        "Access-Control-Request-Method": "POST",
                                                        "Access-Control-Request-Headers": "content-type"})
        assert preflight.status_code == 200 and "POST" in preflight.headers["access-control-allow-methods"]


def test_a_bad_cors_origin_is_a_one_line_error(tmp_path):
    from click.testing import CliRunner

    from halfmoon.cli.main import main as cli

    result = CliRunner().invoke(cli, ["serve", "--cors-origin", "app.example", "--db", str(tmp_path / "s.db")])
    assert result.exit_code == 3 and "cors_origins" in result.output and result.output.count("\n") == 1
