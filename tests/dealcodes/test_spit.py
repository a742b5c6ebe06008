"""SP1 deal codes: the spec's vectors, an independent transcription of the dealing, layouts."""

import re
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from halfmoon.dealcodes import (
    DEAL_COUNT,
    BadVariantError,
    Card,
    UnknownTagError,
    parse_code,
    standard_deck,
)
from halfmoon.dealcodes.spit import deal_spit, deal_spit_from_code, lay_out, row_order

SPEC = Path(__file__).resolve().parents[2] / "docs" / "dealcodes.md"

# -- an independent transcription of docs/dealcodes.md (generator, shuffle, SP1 dealing) ----------

M64 = (1 << 64) - 1


def _splitmix(seed):
    state = seed
    while True:
        state = (state + 0x9E3779B97F4A7C15) & M64
        z = state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & M64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & M64
        yield z ^ (z >> 31)


def _below(gen, s):
    m = next(gen) * s
    if (m & M64) < s:
        t = ((1 << 64) - s) % s
        while (m & M64) < t:
            m = next(gen) * s
    return m >> 64


def _reference_deal(number):
    """The spec's table written out by index, not by the row loop of dealcodes/spit.py."""
    a = [f"{r}{s}" for s in "CDHS" for r in "A23456789TJQK"]
    gen = _splitmix(number)
    for i in range(len(a) - 1, 0, -1):
        j = _below(gen, i + 1)
        a[i], a[j] = a[j], a[i]
    seats = []
    for seat in range(2):
        h = a[26 * seat : 26 * seat + 26]
        piles = [[h[0]], [h[1], h[5]], [h[2], h[6], h[9]], [h[3], h[7], h[10], h[12]], [h[4], h[8], h[11], h[13], h[14]]]
        seats.append((piles, h[15:]))
    return seats


def _as_text(deal):
    return [([[str(c) for c in pile] for pile in seat.piles], [str(c) for c in seat.spit]) for seat in deal.seats]


def spec_vectors():
    """The SP1 vectors block of docs/dealcodes.md: code → [(stock piles, spit cards)] × 2."""
    text = SPEC.read_text(encoding="utf-8")
    section = text[text.index("## SP1: Spit") :]
    block = section[section.index("```") + 3 :]
    block = block[: block.index("```")]
    vectors = {}
    code = None
    for line in block.splitlines():
        line = line.strip()
        if not line:
            continue
        if line.startswith("SP1-"):
            code = line
            vectors[code] = [[None, None], [None, None]]
            continue
        match = re.match(r"seat (\d) (stock|spit):\s*(.*)$", line)
        assert match, line
        seat, what, cards = int(match.group(1)), match.group(2), match.group(3)
        if what == "stock":
            vectors[code][seat][0] = [pile.split() for pile in cards.split("|")]
        else:
            vectors[code][seat][1] = cards.split()
    return vectors


VECTORS = spec_vectors()


def test_spec_has_vectors():
    assert len(VECTORS) >= 5 and "SP1-N-AAAAAAA" in VECTORS


@pytest.mark.parametrize("code", sorted(VECTORS))
def test_spec_vectors(code):
    expected = [tuple(seat) for seat in VECTORS[code]]
    assert _as_text(deal_spit_from_code(code)) == expected
    assert [tuple(seat) for seat in _reference_deal(parse_code(code).number)] == expected


@settings(max_examples=60)
@given(st.integers(0, DEAL_COUNT - 1))
def test_matches_independent_transcription(number):
    assert _as_text(deal_spit(number)) == [tuple(seat) for seat in _reference_deal(number)]


@settings(max_examples=40)
@given(st.integers(0, DEAL_COUNT - 1))
def test_every_deal_is_one_deck_26_each(number):
    deal = deal_spit(number)
    for seat in deal.seats:
        assert [len(p) for p in seat.piles] == [1, 2, 3, 4, 5] and len(seat.spit) == 11
    cards = [c for seat in deal.seats for pile in seat.piles for c in pile] + [c for seat in deal.seats for c in seat.spit]
    assert Counter(cards) == Counter(standard_deck())


def test_code_parsing():
    assert str(parse_code(" sp1-n-aaaaaab ")) == "SP1-N-AAAAAAB"
    with pytest.raises(BadVariantError, match="Spit is always two players"):
        parse_code("SP1-2-AAAAAAB")
    with pytest.raises(UnknownTagError, match="Spit code"):
        deal_spit_from_code("HM1-N-AAAAAAB")


def test_json_shape():
    data = deal_spit(0).to_json()
    assert data["code"] == "SP1-N-AAAAAAA" and data["number"] == 0
    assert data["players"][0]["stock"][1] == ["TH", "JS"]
    assert data["players"][1]["spit"][0] == "4D"


def test_row_order_is_the_table_layout():
    assert row_order(15)[:6] == [(0, 0), (1, 0), (2, 0), (3, 0), (4, 0), (1, 1)]
    assert sorted(Counter(pile for pile, _ in row_order(15)).values()) == [1, 2, 3, 4, 5]


@pytest.mark.parametrize(
    "count, sizes",
    [(0, [0, 0, 0, 0, 0]), (1, [1, 0, 0, 0, 0]), (4, [1, 1, 1, 1, 0]), (5, [1, 1, 1, 1, 1]),
     (7, [1, 2, 2, 1, 1]), (9, [1, 2, 2, 2, 2]), (14, [1, 2, 3, 4, 4]), (15, [1, 2, 3, 4, 5]), (20, [1, 2, 3, 4, 5])],
)
def test_short_hands_fill_the_rows_as_far_as_the_cards_go(count, sizes):
    cards = standard_deck()[:count]
    piles, spit = lay_out(cards)
    assert [len(p) for p in piles] == sizes
    assert len(spit) == max(0, count - 15)
    assert sorted(c for p in piles for c in p) + list(spit) == sorted(cards[: min(count, 15)]) + list(cards[15:])


def test_short_hand_bottom_to_top_order():
    cards = [Card(r, 0) for r in range(1, 8)]  # AC … 7C dealt in this order
    piles, _ = lay_out(cards)
    assert [[str(c) for c in p] for p in piles] == [["AC"], ["2C", "6C"], ["3C", "7C"], ["4C"], ["5C"]]
