import json

from click.testing import CliRunner

from halfmoon.cli.main import main

runner = CliRunner()


def run(*args: str, input: str | None = None):
    return runner.invoke(main, list(args), input=input)


def test_deal_json_is_the_check_interface():
    result = run("deal", "hm1-n-aaaaaab", "--json")
    assert result.exit_code == 0
    data = json.loads(result.output)
    assert data["code"] == "HM1-N-AAAAAAB" and data["number"] == 1
    assert data["piles"][11] == ["2D", "AS", "TS", "3S", "5C", "QH", "8S", "2H"]
    assert data["reserve"][0] == "QS" and len(data["piles"]) == 12


def test_deal_text_shows_the_arc_with_labels():
    result = run("deal", "HM1-N-AAAAAAB", "--all")
    assert result.exit_code == 0
    for label in ["1:8", "10:8", "12:8", "R1:1", "R8:1", "8S 7H 9H AH TC 9C 5H 8C"]:
        assert label in result.output


def test_bad_code_is_one_line_exit_3():
    result = run("deal", "HM1-N-AAAA1AB")
    assert result.exit_code == 3
    assert result.output.strip().count("\n") == 0 and "position 5" in result.output
    assert "Traceback" not in result.output


def test_code_conversions():
    assert run("code", "1").output.strip() == "HM1-N-AAAAAAB"
    assert run("code", "HM1-N-ZZZZZZZ").output.strip() == "8031810175"
    assert json.loads(run("code", "25", "--json").output) == {"code": "HM1-N-AAAAAAZ", "number": 25}
    assert run("code", "8031810176").exit_code == 3


def test_replay_json_and_illegal_move():
    result = run("replay", "HM1-N-AAAAAAB", "--moves", "1+3, 5+6", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["moves"] == ["1+3", "5+6"] and data["played"] == 2 and data["status"] == "open"
    assert data["score"] == 20 and not data["won"] and not data["dead"] and data["game"] == "halfmoon"
    assert len(data["piles"][0]) == 7 and data["reserve"][0] == "QS"
    bad = run("replay", "HM1-N-AAAAAAB", "--moves", "1+3 1+3")
    assert bad.exit_code == 3 and "move 2" in bad.output


def test_replay_from_layout_file(tmp_path):
    path = tmp_path / "layout.json"
    path.write_text(json.dumps({"piles": [["6C", "5C"]], "reserve": ["5D", "6D"]}))
    result = run("replay", "--layout", str(path), "--moves", "1+R2 1+R1", "--json")
    assert json.loads(result.output)["won"] is True
    path.write_text("{not json")
    broken = run("replay", "--layout", str(path))
    assert broken.exit_code == 3 and "not valid JSON" in broken.output
    missing = run("replay", "--layout", str(tmp_path / "nope.json"))
    assert missing.exit_code == 3 and "cannot read" in missing.output


def test_every_solitaire_command_takes_any_solitaire_code(tmp_path):
    for code in ("EL1-N-AAAAAAD", "SE1-N-AAAAAAB", "TN1-N-AAAAAAB"):
        dealt = run("deal", code, "--json")
        assert dealt.exit_code == 0, dealt.output
        data = json.loads(dealt.output)
        assert data["code"] == code and data["number"] in (1, 3)
        solved = json.loads(run("solve", code, "--json", "--no-cache").output)
        assert solved["code"] == code and solved["verdict"] in ("winnable", "unwinnable")
        if solved["moves"]:
            replayed = json.loads(run("replay", code, "--moves", " ".join(solved["moves"]), "--json").output)
            assert replayed["status"] == "won"
            hinted = json.loads(run("hint", code, "--json").output)
            assert hinted["verdict"] == "winnable" and hinted["game"] == solved["game"]
    layout = tmp_path / "deal.json"
    layout.write_text(run("deal", "3", "--game", "elevens", "--json").output)
    assert json.loads(run("replay", "--layout", str(layout), "--game", "EL", "--json").output)["status"] == "open"


def test_code_ranges_and_the_catalogue():
    assert run("code", "--range", "0:2", "--game", "SH", "--variant", "3").output.split() == ["SH1-3-AAAAAAA", "SH1-3-AAAAAAB"]
    assert run("code", "--range", "5:2").exit_code == 3
    names = [json.loads(line)["name"] for line in run("games", "--json").output.splitlines()]
    assert names[:8] == ["halfmoon", "elevens", "suit-elevens", "tens", "shithead", "eight-and-a-half", "golf", "spit"]


def test_serve_names_its_endgame_limit_as_the_limits_do_and_keeps_the_old_name():
    from halfmoon.cli.commands.serve import serve

    option = next(param for param in serve.params if param.name == "endgame_time_limit")
    assert option.opts == ["--endgame-time-limit", "--endgame-max-seconds"]
    assert "deprecated" in (option.help or "")
    assert serve.make_context("serve", ["--endgame-max-seconds", "5"]).params["endgame_time_limit"] == 5.0
