import pytest
from hypothesis import given
from hypothesis import strategies as st

from halfmoon.dealcodes import Card, CardError, parse_card, standard_deck

cards = st.builds(Card, st.integers(1, 13), st.integers(0, 3))


@given(cards)
def test_card_text_round_trip(card):
    assert parse_card(str(card)) == card
    assert parse_card(card.symbol()) == card
    assert parse_card(str(card).lower()) == card


@pytest.mark.parametrize(
    "text, card", [("5S", Card(5, 3)), ("TD", Card(10, 1)), ("10D", Card(10, 1)), ("5♠", Card(5, 3)), (" ah ", Card(1, 2)), ("K♣", Card(13, 0))]
)
def test_accepted_spellings(text, card):
    assert parse_card(text) == card


@pytest.mark.parametrize(
    "text, words",
    [("5", ["rank + suit"]), ("1S", ["unknown rank '1'"]), ("5X", ["unknown suit 'X'"]), ("11S", ["unknown rank"]), ("", ["rank + suit"])],
)
def test_bad_cards(text, words):
    with pytest.raises(CardError) as raised:
        parse_card(text)
    for word in words:
        assert word in str(raised.value)


def test_canonical_deck_order():
    deck = standard_deck(copies=2)
    assert len(deck) == 104
    assert str(deck[0]) == "AC" and str(deck[12]) == "KC" and str(deck[13]) == "AD"
    assert str(deck[51]) == "KS" and str(deck[52]) == "AC" and str(deck[103]) == "KS"
