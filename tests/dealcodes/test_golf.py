"""GF1 dealing: the documented vectors, an independent transcription, every deal is one deck."""

from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from halfmoon.dealcodes import (
    DEAL_COUNT,
    BadVariantError,
    DealCode,
    UnknownTagError,
    parse_code,
    standard_deck,
)
from halfmoon.dealcodes.golf import deal_golf, golf_deal_from_code

# The vectors in docs/dealcodes.md, section GF1 (seat lines: slots 1-3 / slots 4-6).
VECTORS = """
GF1-2-AAAAAAA
  seat 0: KC TH 9C / TS 3C JS
  seat 1: KS QC 3H / KD 6D AD
  discard: JD
  stock: 3S 4C QS 4H 2D JH AC 5C 5H KH 6S 8H 5S 8S QD TC 4S AS 7H 2H 7C QH 5D 7D AH 9D 8D 6H 4D 2S JC 9H 8C 3D 6C 9S 2C TD 7S

GF1-2-AAAAAAB
  seat 0: 9S 7S QH / 4S AC 8H
  seat 1: QS JH 6C / 5H 7D JC
  discard: 3D
  stock: 7H QC AS TC 5C 2H 8C 5S KD TD AH 5D AD 2C 9C 4C 2D 6H 3C KS 8S 3H 6S 7C 3S 8D 6D QD 4D 9H KC JD 2S TH JS 9D TS KH 4H

GF1-3-AAAAAAC
  seat 0: 2H TS JC / JS 2S KS
  seat 1: 4C 9C 6D / QS 4S 3H
  seat 2: 3C 8D JD / 5C 9D QD
  discard: AS
  stock: 6C 6S AH 7H AC 3D AD 7D KD TC 5S 8S 2C 7C 9H KC JH 8C TH 3S TD 5D 9S 6H QC 7S 8H 4D 2D QH 4H KH 5H

GF1-4-DGEHTWB
  seat 0: 9D 5C 6H / 3C QS JD
  seat 1: 2S 6D 8S / AD AS QH
  seat 2: JC TS KH / TH TD 3D
  seat 3: 8C JH 3S / QC 9H 7H
  discard: 5S
  stock: 5H KS 4D 8H 3H 6C 5D 4C 6S KD 7S JS AH 7C 2H TC 4S 4H 9C KC 9S 8D AC 2D QD 2C 7D

GF1-6-ZZZZZZZ
  seat 0: 2S TC JH / TS 8H 9D
  seat 1: 5D TD KC / 4H 5S QS
  seat 2: 8S 8D JS / 3H QC 9S
  seat 3: AD 3S 8C / 7S AC QH
  seat 4: 6S 7C AS / KD 2C TH
  seat 5: 4D 9C 2H / QD 3C 2D
  discard: 4C
  stock: 4S AH JD 6C 3D 5C 6D KH JC KS 7D 9H 6H 5H 7H
"""


def read_vectors() -> dict[str, dict[str, list[str]]]:
    vectors: dict[str, dict[str, list[str]]] = {}
    current: dict[str, list[str]] = {}
    for line in VECTORS.strip().splitlines():
        if line.startswith("GF1-"):
            current = vectors.setdefault(line.strip(), {})
        elif line.strip():
            label, cards = line.split(":", 1)
            current[label.strip()] = cards.replace("/", " ").split()
    return vectors


@pytest.mark.parametrize("code, rows", sorted(read_vectors().items()))
def test_vectors(code, rows):
    deal = golf_deal_from_code(code)
    assert deal.players == int(code.split("-")[1])
    for seat, hand in enumerate(deal.hands):
        assert [str(c) for c in hand] == rows[f"seat {seat}"]
    assert [str(deal.discard)] == rows["discard"]
    assert [str(c) for c in deal.stock] == rows["stock"]


# -- a second, independent transcription of docs/dealcodes.md (generator, shuffle, GF1 dealing) --

M64 = 2**64


def _independent_deal(number: int, players: int) -> list[str]:
    state = number

    def nxt() -> int:
        nonlocal state
        state = (state + 0x9E3779B97F4A7C15) % M64
        z = state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) % M64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) % M64
        return z ^ (z >> 31)

    def below(s: int) -> int:
        m = nxt() * s
        if m % M64 < s:
            t = (M64 - s) % s
            while m % M64 < t:
                m = nxt() * s
        return m // M64

    deck = [r + s for s in "CDHS" for r in "A23456789TJQK"]
    for i in range(len(deck) - 1, 0, -1):
        j = below(i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    return deck  # seats take 6 each in turn, then the discard, then the stock top first


@settings(max_examples=40, deadline=None)
@given(st.integers(0, DEAL_COUNT - 1), st.integers(2, 6))
def test_matches_an_independent_transcription(number, players):
    deal = deal_golf(number, players)
    flat = [str(c) for hand in deal.hands for c in hand] + [str(deal.discard)] + [str(c) for c in deal.stock]
    assert flat == _independent_deal(number, players)


@settings(max_examples=40, deadline=None)
@given(st.integers(0, DEAL_COUNT - 1), st.integers(2, 6))
def test_every_deal_is_one_deck(number, players):
    deal = deal_golf(number, players)
    assert len(deal.hands) == players and all(len(h) == 6 for h in deal.hands)
    assert len(deal.stock) == 52 - 6 * players - 1
    dealt = [c for hand in deal.hands for c in hand] + [deal.discard] + list(deal.stock)
    assert Counter(dealt) == Counter(standard_deck())
    assert str(deal.code) == f"GF1-{players}-{DealCode('GF', 1, str(players), number).payload}"


def test_codes_and_variants():
    code = parse_code(" gf1-4-dgehtwb ")
    assert str(code) == "GF1-4-DGEHTWB" and code.variant == "4"
    for bad in ("GF1-1-AAAAAAA", "GF1-7-AAAAAAA", "GF1-N-AAAAAAA"):
        with pytest.raises(BadVariantError, match="player count 2-6"):
            parse_code(bad)
    with pytest.raises(UnknownTagError, match="six-card Golf code"):
        golf_deal_from_code("HM1-N-AAAAAAB")
    with pytest.raises(BadVariantError):
        deal_golf(1, 7)


def test_json_shape():
    data = golf_deal_from_code("GF1-2-AAAAAAB").to_json()
    assert data["code"] == "GF1-2-AAAAAAB" and data["number"] == 1
    assert data["hands"][1] == ["QS", "JH", "6C", "5H", "7D", "JC"]
    assert data["discard"] == "3D" and len(data["stock"]) == 39 and data["stock"][0] == "7H"
