"""Rule files of the Elevens family: presets load and round-trip; bad files name key and problem."""

import copy
import json

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from halfmoon.solver.errors import RuleFileError
from halfmoon.solver.games.family.presets import load_preset, preset_names, preset_text
from halfmoon.solver.games.family.schema import (
    REFILL_EMPTY_PILES,
    WIN_STOCK_DEALT,
    load_rules,
    rules_from_json,
    rules_from_text,
)

ELEVENS = json.loads(preset_text("elevens"))


def test_presets_ship_the_four_family_members():
    assert {"halfmoon", "elevens", "suit-elevens", "tens"} <= set(preset_names())


@pytest.mark.parametrize("name", preset_names())
def test_every_preset_validates_and_round_trips(name):
    rules = load_preset(name)
    assert rules_from_json(rules.to_json()) == rules
    assert rules_from_json(json.loads(preset_text(name))) == rules


@pytest.mark.parametrize(
    "alias, name", [("EL", "Elevens"), ("hm", "Half Moon"), ("Suit Elevens", "Suit Elevens"), ("tens", "Tens")]
)
def test_presets_by_tag_or_name(alias, name):
    assert load_preset(alias).name == name


def test_unknown_preset_lists_the_known_ones():
    with pytest.raises(RuleFileError, match="elevens"):
        load_preset("klondike")


def test_preset_facts():
    el, se, tn, hm = (load_preset(n) for n in ("EL", "SE", "TN", "HM"))
    assert (el.piles, el.stock_size, el.refill) == (9, 43, REFILL_EMPTY_PILES)
    assert (se.piles, se.stock_size, se.uses_suits) == (15, 37, True)
    assert (tn.piles, tn.stock_size) == (13, 39)
    assert (hm.piles, hm.depths[0], hm.reserve, hm.stock_size, hm.deck_size) == (12, 8, 8, 0, 104)


def edited(path: str, value, base=None) -> dict:
    """The Elevens preset with one key changed (``a.b[0].c``); value ``...`` deletes it."""
    data = copy.deepcopy(base or ELEVENS)
    parts = path.replace("]", "").replace("[", ".").split(".")
    node = data
    for part in parts[:-1]:
        node = node[int(part)] if part.isdigit() else node[part]
    last = int(parts[-1]) if parts[-1].isdigit() else parts[-1]
    if value is ...:
        del node[last]
    else:
        node[last] = value
    return data


@pytest.mark.parametrize(
    "path, value, words",
    [
        ("tablaeu", {}, ["tablaeu", "unknown key", "did you mean 'tableau'"]),
        ("deck.decks", 2, ["deck.decks", "unknown key"]),
        ("removals.0.traget", 11, ["removals[0].traget", "unknown key"]),
        ("tableau", ..., ["tableau", "missing"]),
        ("deck.copies", 0, ["deck.copies", "out of range"]),
        ("deck.copies", "two", ["deck.copies", "whole number"]),
        ("deck.ranks", "A2X", ["deck.ranks", "'X' is not a rank"]),
        ("deck.ranks", "AA", ["deck.ranks", "listed twice"]),
        ("deck.suits", "CDHZ", ["deck.suits", "'Z' is not a suit"]),
        ("tableau.piles", 60, ["tableau", "impossible deck", "60", "52"]),
        ("tableau.depth", 0, ["tableau.depth", "out of range"]),
        ("tableau.depths", [1, 1], ["tableau", "exactly one of 'depth'"]),
        ("stock.size", 40, ["stock.size", "40", "43"]),
        ("stock.refill", "never", ["stock.refill", "'never' is not a refill rule"]),
        ("stock.refill", "none", ["stock.refill", "43 cards", "never be played"]),
        ("removals.0.target", 30, ["removals[0].target", "30 cannot be reached", "A23456789T"]),
        ("removals.0.target", 1, ["removals[0].target", "1 cannot be reached"]),
        ("removals.0.target", 2, ["removals[0].ranks", "2 3 4 5 6 7 8 9 T can never be part"]),
        ("removals.0.kind", "triple", ["removals[0].kind", "'triple' is not a removal kind"]),
        ("removals.0.ranks", "A23456789TJ", ["removals[0].ranks", "J can never be part"]),
        ("removals.1.ranks", "J", ["removals[1].ranks", "at least two"]),
        ("removals.1", {"kind": "same-rank", "ranks": "JQK", "count": 5}, ["removals[1].count", "only 4"]),
        ("removals.1", {"kind": "same-rank", "ranks": "JQK", "count": 2, "same_suit": True},
         ["removals[1].count", "only 1"]),
        ("removals.1", ..., ["deck.ranks", "J Q K appear in no removal rule"]),
        ("removals", [], ["removals", "non-empty list"]),
        ("win", "all-gone", ["win", "not a win condition"]),
        ("tag", "ELV", ["tag", "two-letter"]),
        ("schema", "halfmoon-rules/9", ["schema", "not supported"]),
    ],
)
def test_bad_rule_files_name_the_key_and_the_problem(path, value, words):
    with pytest.raises(RuleFileError) as raised:
        rules_from_json(edited(path, value), "bad.json")
    message = str(raised.value)
    assert message.startswith("rules bad.json: ")
    for word in words:
        assert word in message, message


def test_ten_plus_ten_needs_two_tens_of_a_suit():
    base = edited("removals.0", {"kind": "sum", "target": 20, "ranks": "T", "same_suit": True})
    base = edited("deck.ranks", "TJQK", edited("stock.size", ..., base))
    with pytest.raises(RuleFileError, match=r"removals\[0\].target: 20 cannot be reached"):
        rules_from_json(base)
    assert rules_from_json(edited("deck.copies", 2, base)).removals[0].target == 20  # two decks: two TS exist


def test_stock_dealt_needs_a_stock():
    hm = json.loads(preset_text("halfmoon"))
    with pytest.raises(RuleFileError, match="win: 'stock-dealt' needs a stock"):
        rules_from_json(edited("win", WIN_STOCK_DEALT, hm))
    assert rules_from_json(edited("win", WIN_STOCK_DEALT)).win == WIN_STOCK_DEALT


def test_not_json_and_unreadable_files(tmp_path):
    with pytest.raises(RuleFileError, match="not valid JSON"):
        rules_from_text("{", "x.json")
    with pytest.raises(RuleFileError, match="cannot read"):
        load_rules(tmp_path / "missing.json")
    with pytest.raises(RuleFileError, match="expected an object"):
        rules_from_json([1, 2])


def test_toml_files_use_the_same_keys(tmp_path):
    path = tmp_path / "mini.toml"
    path.write_text(
        'name = "Mini"\nwin = "all-removed"\n[deck]\nranks = "A23456"\nsuits = "CD"\n'
        '[tableau]\npiles = 4\ndepth = 1\n[stock]\nrefill = "empty-piles-in-order"\n'
        '[[removals]]\nkind = "sum"\ntarget = 7\n'
    )
    rules = load_rules(path)
    assert (rules.name, rules.deck_size, rules.stock_size, rules.removals[0].target) == ("Mini", 12, 8, 7)


def test_json_file_on_disk(tmp_path):
    path = tmp_path / "elevens.json"
    path.write_text(json.dumps(ELEVENS))
    assert load_rules(path) == load_preset("elevens")


@st.composite
def rule_dicts(draw) -> dict:
    """Rule files drawn from the schema's space (a few invalid ones are skipped)."""
    order = "A23456789TJQK"
    ranks = "".join(sorted(draw(st.sets(st.sampled_from(order), min_size=2)), key=order.index))
    suits = "".join(sorted(draw(st.sets(st.sampled_from("CDHS"), min_size=2)), key="CDHS".index))
    data = {
        "name": draw(st.text("abcdefgh ", min_size=1, max_size=10)).strip() or "x",
        "deck": {"copies": draw(st.integers(1, 3)), "ranks": ranks, "suits": suits},
        "tableau": {"piles": draw(st.integers(1, 4)), "depth": draw(st.integers(1, 2))},
        "reserve": draw(st.integers(0, 2)),
        "removals": [{"kind": "same-rank", "ranks": ranks, "count": 2}],
        "win": draw(st.sampled_from(["all-removed", "stock-dealt"])),
    }
    for _ in range(draw(st.integers(0, 2))):
        kind = draw(st.sampled_from(["sum", "set"]))
        same_suit = draw(st.booleans())
        picked = draw(st.lists(st.sampled_from(ranks), min_size=2, max_size=3, unique=True))
        if kind == "sum":
            target = sum(order.index(r) + 1 for r in picked)
            data["removals"].append({"kind": "sum", "target": target, "cards": len(picked), "ranks": "".join(picked),
                                     "same_suit": same_suit})
        else:
            data["removals"].append({"kind": "set", "ranks": "".join(picked), "same_suit": same_suit})
    return data


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(rule_dicts())
def test_valid_rule_files_round_trip(data):
    try:
        rules = rules_from_json(data)
    except RuleFileError as error:
        assert str(error).startswith("rules (data): ")
        assume(False)
    assert rules_from_json(rules.to_json()) == rules
    assert rules_from_json(json.loads(json.dumps(rules.to_json()))) == rules
