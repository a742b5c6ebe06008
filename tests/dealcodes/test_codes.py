import pytest
from hypothesis import given
from hypothesis import strategies as st

from halfmoon.dealcodes import (
    DEAL_COUNT,
    BadVariantError,
    DealCode,
    DealCodeError,
    DealNumberError,
    MalformedCodeError,
    PayloadCharacterError,
    PayloadLengthError,
    UnknownTagError,
    UnsupportedVersionError,
    parse_code,
    parse_number,
)
from halfmoon.dealcodes.codes import number_to_payload, payload_to_number


def test_spec_examples():
    assert parse_code("HM1-N-AAAAAAA").number == 0
    assert parse_code("HM1-N-AAAAAAB").number == 1
    assert parse_code("HM1-N-ZZZZZZZ").number == 8_031_810_175 == DEAL_COUNT - 1


def test_any_case_and_surrounding_space():
    assert parse_code("  hm1-n-aaaaaab\n") == parse_code("HM1-N-AAAAAAB")
    assert str(parse_code(" Hm1-n-AaAaAaB ")) == "HM1-N-AAAAAAB"


@given(st.integers(0, DEAL_COUNT - 1))
def test_number_code_round_trip(number):
    code = DealCode("HM", 1, "N", number)
    assert parse_code(str(code)) == code
    assert payload_to_number(number_to_payload(number)) == number
    assert parse_number(str(number)) == number


@given(st.text(alphabet="ABCDEFGHIJKLMNOPQRSTUVWXYZ", min_size=7, max_size=7))
def test_payload_round_trip(payload):
    assert number_to_payload(payload_to_number(payload)) == payload


@pytest.mark.parametrize(
    "text, error, words",
    [
        ("HM1-N-AAAAAB", PayloadLengthError, ["6 characters", "expected 7"]),
        ("HM1-N-AAAAAAAA", PayloadLengthError, ["8 characters"]),
        ("HM1-N-AAA1AAA", PayloadCharacterError, ["'1'", "position 4", "A–Z"]),
        ("HM1-N-AAAÄAAA", PayloadCharacterError, ["position 4"]),
        ("XX1-N-AAAAAAB", UnknownTagError, ["unknown game tag 'XX'", "HM"]),
        ("H1-N-AAAAAAB", UnknownTagError, ["'H1'"]),
        ("HM2-N-AAAAAAB", UnsupportedVersionError, ["HM2", "HM1"]),
        ("HM-N-AAAAAAB", UnsupportedVersionError, ["version"]),
        ("HMX-N-AAAAAAB", UnsupportedVersionError, ["version"]),
        ("HM1-4-AAAAAAB", BadVariantError, ["'4'", "'N'"]),
        ("HM1-AAAAAAB", MalformedCodeError, ["three parts"]),
        ("HM1--N-AAAAAAB", MalformedCodeError, ["three parts"]),
        ("", MalformedCodeError, ["three parts"]),
    ],
)
def test_malformed_codes_name_the_part(text, error, words):
    with pytest.raises(error) as raised:
        parse_code(text)
    assert isinstance(raised.value, DealCodeError) and isinstance(raised.value, ValueError)
    for word in words:
        assert word in str(raised.value)


@pytest.mark.parametrize("text", ["-1", "8031810176", "abc", "1.5", ""])
def test_bad_numbers(text):
    with pytest.raises(DealNumberError):
        parse_number(text)


def test_code_rejects_out_of_range_number():
    with pytest.raises(DealNumberError):
        DealCode("HM", 1, "N", DEAL_COUNT)


def test_expect_game():
    assert parse_code("HM1-N-AAAAAAA", expect_game="HM").game == "HM"
