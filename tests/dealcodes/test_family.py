"""EL1, SE1, TN1 deal codes: the spec's vectors, an independent transcription, code errors."""

from collections import Counter
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from halfmoon.dealcodes import DEAL_COUNT, standard_deck
from halfmoon.dealcodes.codes import (
    BadVariantError,
    UnknownTagError,
    UnsupportedVersionError,
    parse_code,
)
from halfmoon.dealcodes.elevens import (
    GRID_GAMES,
    deal_elevens,
    deal_grid,
    grid_deal_from_code,
)

SPEC = Path(__file__).resolve().parents[2] / "docs" / "dealcodes.md"
RANKS, SUITS = "A23456789TJQK", "CDHS"


def spec_vectors() -> dict[str, tuple[list[str], list[str]]]:
    """The EL1/SE1/TN1 vectors block of docs/dealcodes.md: code, G: grid, S: stock."""
    text = SPEC.read_text(encoding="utf-8")
    block = text.split("### EL1, SE1, TN1 test vectors", 1)[1].split("```")[1]
    vectors: dict[str, tuple[list[str], list[str]]] = {}
    code = None
    for line in block.splitlines():
        line = line.strip()
        if line[:3] in ("EL1", "SE1", "TN1"):
            code = line
        elif line.startswith("G:"):
            grid = line[2:].split()
        elif line.startswith("S:"):
            vectors[code] = (grid, line[2:].split())
    return vectors


def independent_deal(number: int) -> list[str]:
    """A second transcription of the generator (docs/dealcodes.md), written apart from dealcodes.rng."""
    state = number
    mask = 2**64 - 1

    def step() -> int:
        nonlocal state
        state = (state + 0x9E3779B97F4A7C15) % 2**64
        z = state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & mask
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & mask
        return z ^ (z >> 31)

    def below(s: int) -> int:
        m = step() * s
        if m % 2**64 < s:
            t = (2**64 - s) % s
            while m % 2**64 < t:
                m = step() * s
        return m // 2**64

    deck = [r + s for s in SUITS for r in RANKS]
    for i in range(51, 0, -1):
        j = below(i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    return deck


def test_spec_has_vectors_for_every_grid_game():
    assert {code[:2] for code in spec_vectors()} == set(GRID_GAMES)


@pytest.mark.parametrize("code, expected", sorted(spec_vectors().items()))
def test_spec_vectors(code, expected):
    dealt = grid_deal_from_code(code)
    assert [str(c) for c in dealt.grid] == expected[0]
    assert [str(c) for c in dealt.stock] == expected[1]
    assert str(dealt.code) == code


@pytest.mark.parametrize("number", [0, 1, 2, 25, 26, 1234567, 2**32 + 7, DEAL_COUNT - 1])
def test_independent_transcription_agrees(number):
    reference = independent_deal(number)
    for tag, game in GRID_GAMES.items():
        dealt = deal_grid(tag, number)
        assert [str(c) for c in dealt.grid] == reference[: game.places]
        assert [str(c) for c in dealt.stock] == reference[game.places :]


@settings(max_examples=60, deadline=None)
@given(st.integers(0, DEAL_COUNT - 1), st.sampled_from(sorted(GRID_GAMES)))
def test_every_deal_is_one_whole_deck(number, tag):
    dealt = deal_grid(tag, number)
    assert len(dealt.grid) == GRID_GAMES[tag].places
    assert Counter(dealt.grid + dealt.stock) == Counter(standard_deck())
    assert parse_code(str(dealt.code)) == dealt.code and dealt.code.number == number


def test_code_errors_name_the_part():
    with pytest.raises(UnsupportedVersionError, match="EL2"):
        parse_code("EL2-N-AAAAAAA")
    with pytest.raises(BadVariantError, match="'3' for TN1"):
        parse_code("TN1-3-AAAAAAA")
    with pytest.raises(UnknownTagError, match="not a grid game"):
        grid_deal_from_code("HM1-N-AAAAAAA")
    with pytest.raises(UnknownTagError, match="needs a Elevens code|needs a Elevens"):
        grid_deal_from_code("SE1-N-AAAAAAA", expect_game="EL")
    assert deal_elevens(5) == grid_deal_from_code(" el1-n-aaaaaaf ")


def test_json_shape():
    data = deal_grid("EL", 1).to_json()
    assert data["code"] == "EL1-N-AAAAAAB" and data["number"] == 1
    assert len(data["grid"]) == 9 and len(data["stock"]) == 43
