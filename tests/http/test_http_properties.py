"""Property tests at the HTTP boundary: any code text gets the library's answer or its exact message."""

from __future__ import annotations

import re
import string
import urllib.parse

import pytest

pytest.importorskip("fastapi")

from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st

import halfmoon  # noqa: E402
from halfmoon import DEAL_COUNT, DealCode  # noqa: E402

SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])

codes_text = st.one_of(
    st.integers(0, DEAL_COUNT - 1).map(lambda n: str(DealCode("HM", 1, "N", n))),
    st.integers(0, DEAL_COUNT - 1).map(lambda n: str(DealCode("HM", 1, "N", n)).lower()),
    st.text(alphabet=string.ascii_letters + string.digits + "-_ ", min_size=1, max_size=16).filter(str.strip),
)


@SETTINGS
@given(text=codes_text)
def test_layout_is_the_library_answer_or_its_message(client, text):
    """A code the published pattern accepts gets the library's layout; any other text a 400 with the
    library's message (or, for a spelling only the CLI forgives, why the API does not)."""
    response = client.get("/v1/deals/" + urllib.parse.quote(text, safe=""))
    if re.fullmatch(halfmoon.code_pattern(), text):
        assert response.status_code == 200 and response.json() == halfmoon.deal(text).to_json()
        return
    assert response.status_code == 400
    try:
        halfmoon.deal(text)
    except ValueError as error:
        assert response.json()["error"]["message"] == str(error)
        assert response.json()["error"]["type"] == type(error).__name__
    else:
        assert "nothing around it" in response.json()["error"]["message"]


@SETTINGS
@given(number=st.integers(0, DEAL_COUNT - 1), upper=st.booleans(), extra=st.sampled_from([" ", "\t", "\n"]))
def test_any_case_of_a_code_names_the_same_deal_and_nothing_around_it_is_taken(client, number, upper, extra):
    code = str(DealCode("HM", 1, "N", number))
    spelled = code if upper else code.lower()
    assert client.get("/v1/deals/" + spelled).json() == client.get("/v1/deals/" + code).json()
    padded = client.get("/v1/deals/" + urllib.parse.quote(extra + spelled, safe=""))
    assert padded.status_code == 400 and "nothing around it" in padded.json()["error"]["message"]
