from collections import Counter
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from halfmoon.dealcodes import DEAL_COUNT, deal_from_code, deal_halfmoon, standard_deck

VECTORS = Path(__file__).parent / "vectors" / "hm1.txt"


def read_vectors() -> dict[str, list[list[str]]]:
    """The vectors file: a code line, then 12 pile lines and one reserve line."""
    vectors: dict[str, list[list[str]]] = {}
    current = None
    for line in VECTORS.read_text().splitlines():
        if not line.strip():
            continue
        if line.startswith("HM1-"):
            current = line.strip()
            vectors[current] = []
        else:
            vectors[current].append(line.split(":", 1)[1].split())
    return vectors


@pytest.mark.parametrize("code, rows", sorted(read_vectors().items()))
def test_vectors(code, rows):
    deal = deal_from_code(code)
    assert [[str(c) for c in pile] for pile in deal.piles] == rows[:12]
    assert [str(c) for c in deal.reserve] == rows[12]


def test_shared_spec_vectors_present():
    assert {"HM1-N-AAAAAAA", "HM1-N-AAAAAAB"} <= set(read_vectors())


@settings(max_examples=50)
@given(st.integers(0, DEAL_COUNT - 1))
def test_every_deal_is_the_double_deck(number):
    deal = deal_halfmoon(number)
    assert len(deal.piles) == 12 and all(len(p) == 8 for p in deal.piles) and len(deal.reserve) == 8
    dealt = [card for pile in deal.piles for card in pile] + list(deal.reserve)
    assert Counter(dealt) == Counter(standard_deck(copies=2))


def test_json_shape():
    data = deal_halfmoon(1).to_json()
    assert data["code"] == "HM1-N-AAAAAAB" and data["number"] == 1
    assert data["piles"][0] == ["8S", "7H", "9H", "AH", "TC", "9C", "5H", "8C"]
    assert data["reserve"] == ["QS", "8H", "JD", "TS", "6S", "9S", "QD", "7C"]
