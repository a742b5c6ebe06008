"""`halfmoon.analyze`: the first move after which a game could no longer be won."""

from __future__ import annotations

import pytest

import halfmoon
from halfmoon.solver.core.verdicts import Verdict

# Deals with a known losing move along the winning line: (code, moves of the line played first).
LOSING = [("HM1-N-AAAAAAD", 12), ("HM1-N-AAAAAAO", 9), ("HM1-N-AAAAABD", 33)]


def losing_line(code: str, prefix: int) -> tuple[list[str], int]:
    """A line that is winnable for `prefix` moves, then plays a losing move (from the exact hint),
    then goes on with the first legal move until none is left. Returns it and the losing move's number."""
    line = [str(move) for move in halfmoon.solve(code).moves][:prefix]
    hint = halfmoon.hint(code, moves=line)
    assert hint.verdict is Verdict.WINNABLE
    losing = [m.move for m in hint.moves if m.verdict is Verdict.UNWINNABLE]
    assert losing, "the hint names a losing move here"
    line.append(str(losing[0]))
    position = halfmoon.replay(code, line).position
    while position.legal_moves():
        move = position.legal_moves()[0]
        line.append(str(move))
        position = position.apply(move)
    return line, prefix + 1


@pytest.mark.parametrize("code, prefix", LOSING)
def test_the_losing_move_is_found(code, prefix):
    line, lost_at = losing_line(code, prefix)
    result = halfmoon.analyze(code, moves=line)
    assert result.status == "lost" and result.lost_at == lost_at
    assert str(result.lost_move) == line[lost_at - 1]
    assert result.last_winnable == lost_at - 1 and result.first_unwinnable == lost_at
    # the moves that would have kept it winnable there are the exact hint's
    hint = halfmoon.hint(code, moves=line[:lost_at - 1])
    assert [(m.move, m.verdict) for m in result.moves] == [(m.move, m.verdict) for m in hint.moves]
    assert result.keeping and all(m.verdict is Verdict.WINNABLE for m in result.keeping)
    assert str(result.lost_move) not in {str(m.move) for m in result.keeping}
    assert halfmoon.replay(code, line[:lost_at - 1] + [str(m) for m in result.line]).status == "won"
    # a handful of solves: the two ends and a binary search
    assert len(result.checked) <= 2 + len(line).bit_length()


def test_a_winning_line_was_never_lost():
    code = "HM1-N-AAAAAAD"
    line = [str(move) for move in halfmoon.solve(code).moves]
    for moves in (line, line[:20], []):
        result = halfmoon.analyze(code, moves=moves)
        assert result.status == "never-lost" and result.lost_at is None and result.moves == ()
        assert result.to_json()["keeping"] == [] and result.played == len(moves)


def test_an_unwinnable_deal_was_never_lost_by_a_move():
    code = halfmoon.code(156)  # unwinnable (tests/solver/test_halfmoon_solver.py)
    first = halfmoon.replay(code).position.legal_moves()[0]
    result = halfmoon.analyze(code, moves=[str(first)])
    assert result.status == "deal-unwinnable" and result.lost_at is None


@pytest.fixture
def half_blind():
    """Half Moon under another tag whose solver answers `unknown` (a limit hit) for chosen positions."""
    import dataclasses

    from halfmoon.solver import catalogue
    from halfmoon.solver.core.verdicts import SearchResult

    real = catalogue.solitaire("HM")
    blind: set[int] = set()  # cards left in the positions the solver gives up on

    def solve(position, method, limits, seed):
        if position.cards_left in blind:
            return SearchResult(Verdict.UNKNOWN, None, 0, 0.0, "time", method="none")
        return real.solve(position, method, limits, seed)

    record = dataclasses.replace(real, tag="XH", name="half-blind", solve=solve)
    catalogue.register_solitaire(dataclasses.replace(catalogue.info("HM"), tag="XH", name="half-blind"),
                                 lambda: record)
    yield blind
    catalogue.unregister("XH")


def test_a_limit_gives_unknown_with_the_range_decided_not_a_guess(half_blind):
    line, lost_at = losing_line(*LOSING[0])
    start = halfmoon.deal("HM1-N-AAAAAAD").to_json()
    ends = [halfmoon.replay("HM1-N-AAAAAAD", line[:k]).position.cards_left for k in range(len(line) + 1)]
    half_blind.update(ends[1:-1])  # every position strictly inside the line: the binary search cannot go on
    result = halfmoon.analyze(start, game="XH", moves=line)
    assert result.status == "unknown" and result.lost_at is None and result.moves == ()
    assert (result.last_winnable, result.first_unwinnable) == (0, len(line))
    half_blind.clear()
    half_blind.add(ends[-1])  # the end of the line undecided: not known to be lost at all
    result = halfmoon.analyze(start, game="XH", moves=line)
    assert result.status == "unknown" and (result.last_winnable, result.first_unwinnable) == (0, None)
    half_blind.clear()
    result = halfmoon.analyze(start, game="XH", moves=line)
    assert result.status == "lost" and result.lost_at == lost_at


def test_json_shape_and_bad_lines():
    line, lost_at = losing_line(*LOSING[0])
    data = halfmoon.analyze("HM1-N-AAAAAAD", moves=" ".join(line)).to_json()
    assert set(data) == {"code", "game", "played", "status", "lost_at", "move", "cards", "keeping", "moves", "line",
                         "last_winnable", "first_unwinnable", "checked", "seconds", "sees"}
    assert data["lost_at"] == lost_at and data["sees"] == "every card" and data["move"] == line[lost_at - 1]
    assert all(row["verdict"] == "winnable" for row in data["moves"] if row["move"] in data["keeping"])
    with pytest.raises(halfmoon.LineError) as error:
        halfmoon.analyze("HM1-N-AAAAAAD", moves="1+2+3+4")
    assert "move 1" in str(error.value)
