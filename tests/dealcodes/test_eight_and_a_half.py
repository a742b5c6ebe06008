"""EH1 deal codes: card notation, the canonical deck, dealing, and the spec's test vectors.

The vectors are checked three ways: against the implementation, against a second transcription
of the algorithm written here from docs/dealcodes.md alone (its own SplitMix64, Lemire and
Fisher–Yates), and against the EH1 section of docs/dealcodes.md itself, so the page and the
code cannot drift apart.
"""

import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from halfmoon.dealcodes import (
    DEAL_COUNT,
    BadVariantError,
    DealCode,
    UnknownTagError,
    parse_code,
)
from halfmoon.dealcodes.eight_and_a_half import (
    COPIES,
    EHCard,
    EHCardError,
    EHPlayersError,
    deal_eight_and_a_half,
    eh_deal_from_code,
    eh_deck,
    format_eh_cards,
    parse_eh_card,
    parse_eh_cards,
)
from halfmoon.solver.games.eight_and_a_half.position import Position

SPEC = Path(__file__).resolve().parents[2] / "docs" / "dealcodes.md"

VECTORS = """
EH1-2-AAAAAAA  first player: 0
  0: blind 603  open 6D6  hand 625  bank H80HHD029D017993687568H94D5
  1: blind 044  open 8D4  hand 28D  bank 739147831HD753HH9D57543210H

EH1-2-AAAAAAB  first player: 0
  0: blind 277  open 3H0  hand 267  bank 7D4D96445338760108815696959
  1: blind H32  open 0H5  hand 865  bank 88D1D1DH9H3D042409HH543HDD7

EH1-3-AAAAAAC  first player: 2
  0: blind 013  open D91  hand 96H  bank D05D224H0495347
  1: blind 565  open 830  hand 1D5  bank 84DHH0639H4D849
  2: blind 7DH  open 367  hand 30D  bank 8172657HH268897

EH1-4-ZZZZZZZ  first player: 3
  0: blind 576  open 2H2  hand 453  bank 49D0D0198
  1: blind 699  open 6DD  hand 883  bank 63247H438
  2: blind 732  open 4HD  hand H48  bank 507H071D7
  3: blind 169  open 51D  hand 0H0  bank 5H93H6D58

EH1-5-DGEHTWB  first player: 0
  0: blind HHD  open 8H2  hand D04  bank 91D3D0
  1: blind DH8  open 664  hand 424  bank 657755
  2: blind 396  open D04  hand 55H  bank 91770
  3: blind 190  open 087  hand 339  bank 9D224
  4: blind 386  open 518  hand HDH  bank 8H736
"""


def render(code: str) -> str:
    """A deal in the vector format (the implementation's answer)."""
    deal = eh_deal_from_code(code)
    lines = [f"{code}  first player: {Position.from_deal(deal).to_move}"]
    for n, seat in enumerate(deal.seats):
        lines.append(
            f"  {n}: blind {format_eh_cards(seat.blind)}  open {format_eh_cards(seat.open)}  "
            f"hand {format_eh_cards(seat.hand)}  bank {format_eh_cards(seat.bank)}"
        )
    return "\n".join(lines)


def blocks(text: str) -> dict[str, str]:
    found = {}
    for block in text.strip().split("\n\n"):
        block = block.strip("\n")
        found[block.split()[0]] = block
    return found


# -- an independent transcription of docs/dealcodes.md -------------------------------------------

M64 = (1 << 64) - 1


def ref_shuffle(items: list, seed: int) -> list:
    state = seed

    def nxt() -> int:
        nonlocal state
        state = (state + 0x9E3779B97F4A7C15) & M64
        z = state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & M64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & M64
        return z ^ (z >> 31)

    def below(s: int) -> int:
        m = nxt() * s
        if (m & M64) < s:
            t = ((1 << 64) - s) % s
            while (m & M64) < t:
                m = nxt() * s
        return m >> 64

    a = list(items)
    for i in range(len(a) - 1, 0, -1):
        j = below(i + 1)
        a[i], a[j] = a[j], a[i]
    return a


def ref_render(code: str) -> str:
    tag, players, payload = code.split("-")
    number = 0
    for ch in payload:
        number = number * 26 + ord(ch) - 65
    n = int(players)
    deck = "0" * 6 + "1" * 4 + "2" * 4 + "".join(str(d) * 6 for d in range(3, 10)) + "H" * 8 + "D" * 8
    cards = ref_shuffle(list(deck), number)
    mine = [cards[s::n] for s in range(n)]
    lows = [min((int(c) for c in m[6:9] if c.isdigit()), default=99) for m in mine]
    first = lows.index(min(lows)) if min(lows) < 99 else 0
    lines = [f"{code}  first player: {first}"]
    for s, m in enumerate(mine):
        lines.append(f"  {s}: blind {''.join(m[0:3])}  open {''.join(m[3:6])}  hand {''.join(m[6:9])}  bank {''.join(m[9:])}")
    return "\n".join(lines)


# -- tests ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("code, block", sorted(blocks(VECTORS).items()))
def test_vectors_implementation_and_independent_transcription(code, block):
    assert render(code) == block
    assert ref_render(code) == block


def test_vectors_match_the_spec_page():
    text = SPEC.read_text(encoding="utf-8")
    section = text[text.index("## EH1: Eight and a half"):]
    fenced = re.search(r"### EH1 test vectors.*?```\n(.*?)```", section, re.S)
    assert fenced, "docs/dealcodes.md lost its EH1 test vectors"
    assert blocks(fenced.group(1)) == blocks(VECTORS)


@settings(max_examples=60, deadline=None)
@given(st.integers(0, DEAL_COUNT - 1), st.integers(2, 5))
def test_any_deal_matches_the_transcription_and_uses_the_whole_deck(number, players):
    code = str(DealCode("EH", 1, str(players), number))
    assert render(code) == ref_render(code)
    deal = deal_eight_and_a_half(number, players)
    dealt = sorted(c for s in deal.seats for c in (*s.blind, *s.open, *s.hand, *s.bank))
    assert dealt == sorted(eh_deck())


def test_canonical_deck_order():
    deck = eh_deck()
    assert len(deck) == 72 and deck == sorted(deck)
    assert [deck.count(EHCard(f)) for f in range(12)] == list(COPIES) == [6, 4, 4, 6, 6, 6, 6, 6, 6, 6, 8, 8]
    assert deck[0] == EHCard.ZERO and deck[56] == EHCard.HALF and deck[64] == EHCard.DEMON


def test_card_notation_round_trips_and_accepts_aliases():
    for card in EHCard:
        assert parse_eh_card(str(card)) is card
        assert f"{card}" == str(card)
    assert parse_eh_card("½") is EHCard.HALF and parse_eh_card(" h ") is EHCard.HALF
    assert parse_eh_card("demon") is EHCard.DEMON and parse_eh_card("d") is EHCard.DEMON
    assert EHCard.HALF.pretty() == "½" and str(EHCard.HALF) == "H"
    assert parse_eh_cards("7 8 ½ D") == (EHCard.SEVEN, EHCard.EIGHT, EHCard.HALF, EHCard.DEMON)
    assert parse_eh_cards("-") == () and format_eh_cards(()) == "-"
    assert EHCard.ZERO.is_joker and EHCard.HALF.is_joker and not EHCard.FIVE.is_joker


@pytest.mark.parametrize("text", ["10", "X", "", "S", "7S"])
def test_bad_cards_say_what_is_expected(text):
    with pytest.raises(EHCardError, match="expected"):
        parse_eh_card(text)


def test_codes_parse_and_variants_are_player_counts():
    code = parse_code(" eh1-3-aaaaaab ")
    assert str(code) == "EH1-3-AAAAAAB" and code.number == 1
    assert eh_deal_from_code("EH1-3-AAAAAAB").players == 3
    for bad in ("EH1-1-AAAAAAB", "EH1-6-AAAAAAB", "EH1-N-AAAAAAB"):
        with pytest.raises(BadVariantError, match="player count 2-5"):
            parse_code(bad)
    with pytest.raises(UnknownTagError, match="Eight and a half"):
        eh_deal_from_code("HM1-N-AAAAAAB")
    with pytest.raises(EHPlayersError):
        deal_eight_and_a_half(1, 6)


def test_deal_json_shape():
    data = eh_deal_from_code("EH1-2-AAAAAAA").to_json()
    assert data["code"] == "EH1-2-AAAAAAA" and data["players"] == 2 and data["number"] == 0
    assert data["seats"][0] == {
        "blind": ["6", "0", "3"],
        "open": ["6", "D", "6"],
        "hand": ["6", "2", "5"],
        "bank": list("H80HHD029D017993687568H94D5"),
    }
