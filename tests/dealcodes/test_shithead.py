"""SH1 deal codes: the spec's test vectors (read from docs/dealcodes.md) and an independent transcription."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from halfmoon.dealcodes import (
    BadVariantError,
    UnknownTagError,
    parse_code,
    shithead_deal_from_code,
    shuffled,
    standard_deck,
)
from halfmoon.dealcodes.cards import parse_card
from halfmoon.dealcodes.shithead import deal_shithead, starting_seat

SPEC = Path(__file__).resolve().parents[2] / "docs" / "dealcodes.md"


def _vectors() -> list[tuple[str, int, list[tuple[list[str], list[str], list[str]]], list[str]]]:
    text = SPEC.read_text(encoding="utf-8")
    section = text[text.index("## SH1: Shithead"):]
    block = section[section.index("```") + 3:]
    block = block[: block.index("```")]
    vectors = []
    for chunk in block.strip().split("\n\n"):
        lines = chunk.strip().splitlines()
        head = re.match(r"^(SH1-\d-[A-Z]{7})\s+starts: seat (\d)$", lines[0])
        assert head, lines[0]
        seats = []
        for line in lines[1:-1]:
            m = re.match(r"^\s*seat \d: down (.*) \| up (.*) \| hand (.*)$", line)
            assert m, line
            seats.append(tuple(part.split() for part in m.groups()))
        stock = lines[-1].split(":", 1)[1].split()
        vectors.append((head.group(1), int(head.group(2)), seats, stock))
    return vectors


VECTORS = _vectors()


def test_spec_has_vectors_for_every_player_count() -> None:
    assert {int(code.split("-")[1]) for code, *_ in VECTORS} == {2, 3, 4, 5}


@pytest.mark.parametrize("code,start,seats,stock", VECTORS, ids=[v[0] for v in VECTORS])
def test_spec_vectors(code: str, start: int, seats, stock) -> None:
    deal = shithead_deal_from_code(code)
    assert deal.players == len(seats)
    for p, (down, up, hand) in enumerate(seats):
        assert [str(c) for c in deal.face_down[p]] == down
        assert [str(c) for c in deal.face_up[p]] == up
        assert [str(c) for c in deal.hands[p]] == hand
    assert [str(c) for c in deal.stock] == stock
    assert deal.starting_seat == start
    assert str(deal.code) == code


@pytest.mark.parametrize("number,players", [(0, 2), (1, 3), (12345, 4), (26**7 - 1, 5), (987654321, 2)])
def test_independent_transcription(number: int, players: int) -> None:
    """Deal by walking the shuffled deck card by card, as a dealer would, and compare."""
    deck = shuffled(standard_deck(), number)
    down = [[] for _ in range(players)]
    up = [[] for _ in range(players)]
    hand = [[] for _ in range(players)]
    it = iter(deck)
    for target in (down, up, hand):
        for _ in range(3):
            for p in range(players):
                target[p].append(next(it))
    deal = deal_shithead(number, players)
    assert [list(x) for x in deal.face_down] == down
    assert [list(x) for x in deal.face_up] == up
    assert [list(x) for x in deal.hands] == hand
    assert list(deal.stock) == list(it)
    assert len(deal.stock) == 52 - 9 * players


def test_every_card_dealt_once() -> None:
    for players in range(2, 6):
        deal = deal_shithead(42, players)
        cards = [c for group in (deal.face_down, deal.face_up, deal.hands) for cs in group for c in cs] + list(deal.stock)
        assert sorted(cards) == sorted(standard_deck())


def test_starting_seat_rule() -> None:
    c = parse_card
    assert starting_seat(((c("9H"), c("5C")), (c("4D"), c("KS")))) == 1
    assert starting_seat(((c("2H"), c("3C")), (c("AD"),))) == 1  # 2s and 3s do not count; A is highest
    assert starting_seat(((c("5H"),), (c("5C"),))) == 0  # tie: the lower seat
    assert starting_seat(((c("2H"),), (c("3C"),))) == 0  # nobody holds a card in the order


def test_bad_codes() -> None:
    with pytest.raises(BadVariantError, match="player count 2-5"):
        parse_code("SH1-6-AAAAAAA")
    with pytest.raises(BadVariantError):
        parse_code("SH1-N-AAAAAAA")
    with pytest.raises(UnknownTagError, match="Shithead code"):
        parse_code("SH1-2-AAAAAAA", expect_game="HM")
    with pytest.raises(ValueError, match="players 6"):
        deal_shithead(0, 6)
    assert str(parse_code(" sh1-3-aaaaaab ")) == "SH1-3-AAAAAAB"
