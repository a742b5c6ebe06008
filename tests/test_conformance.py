"""Every game of the catalogue passes one conformance check (tests/support/conformance.py).

This replaces tests/games/test_conformance_multiplayer.py (every assertion it made is in the
check). tests/games/test_family_conformance.py stays: it checks the family's own invariants and
compares its search with a brute force, which is not a contract of every game.
"""

from __future__ import annotations

import pytest
from support.conformance import check_game

import halfmoon
from halfmoon.solver import catalogue

# The games of the table (a game a test registers at run time, such as the batch tests' toy, has no deal codes).
GAMES = [info.name for info in halfmoon.games() if info in catalogue.GAMES]


def test_the_catalogue_holds_every_game():
    assert {info.tag for info in halfmoon.games() if info in catalogue.GAMES} == {
        "HM", "EL", "SE", "TN", "SH", "EH", "GF", "SP"}
    assert set(catalogue.endgame_adapters()) == {"shithead", "eight-and-a-half", "golf", "spit"}


@pytest.mark.parametrize("name", GAMES)
def test_conformance(name):
    report = check_game(name)
    assert report.playouts and report.steps and report.ended, report  # the checks ran on real play
    assert report.exact_answers, report
    if report.verdicts is not None:  # solitaires: both verdicts were met on late positions
        assert report.verdicts == {"winnable", "unwinnable"}, report


@pytest.mark.parametrize("name", GAMES)
def test_a_deals_json_reads_back_as_its_position(name):
    """What `halfmoon deal CODE --json` prints is accepted back as the position (a layout / position file)."""
    info = catalogue.info(name)
    variant = None if info.players[0] == info.players[1] else str(info.players[0])
    dealt = halfmoon.deal(halfmoon.code(5, info.tag, variant))
    again = halfmoon.deal(dealt.to_json(), game=name)
    assert again.position == dealt.position and again.game == dealt.game
