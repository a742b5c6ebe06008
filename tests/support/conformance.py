"""One conformance check for any game of the catalogue (pgx's `api_test`, OpenSpiel's basic tests).

`check_game(name)` drives a game the way the product does: deals through the facade
(`halfmoon.deal(halfmoon.code(n, game, variant))`), the game's own contract from the catalogue (a
`Solitaire` record or an `EndgameAdapter` around a core `Game`), and the facade's `replay`,
`solve`, `hint` and `endgame` on what was played. It checks:

- JSON round trips (`position_from_json(position_to_json(p)) == p`, at every step), the text
  form (drawn the same for equal positions; read back where the position type has `parse`);
- positions, keys and moves hashable; legal moves deterministic (twice, and on the position
  rebuilt from its JSON) and without duplicates; no legal move exactly when the game is over;
- every legal move applies without raising, purely (the input position, its JSON and its key
  unchanged) and deterministically; the packed kernel and `successors`, where a game has them,
  agree with `legal_moves` + `apply`;
- seeded random playouts (SplitMix64, uniform among the legal moves) reach an end or a step cap,
  and `halfmoon.replay` of the line played reproduces the position reached, status and all;
- on small late positions (a few moves before the end of a line), `solve` / `endgame` give exact
  answers (no limit hit) whose lines replay through `halfmoon.replay` to what they claim; a
  solitaire's `hint` agrees with `solve`.

Why in tests/support and not in the package: it asserts, it drives the public facade (which
`halfmoon.solver` must never import, tests/test_layers.py), and it carries no product
behaviour. A new game joins the catalogue and tests/test_conformance.py runs this on it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import halfmoon
from halfmoon.dealcodes import SplitMix64
from halfmoon.solver import catalogue
from halfmoon.solver.core.adapters import EndgameAdapter, Solitaire
from halfmoon.solver.core.game import Question

#: Moves per playout checked in depth (every legal move applied and compared); the rest of the
#: playout, up to `STEP_CAP`, checks the position reached at each step only.
DEEP_STEPS = 60
STEP_CAP = 3000
#: Budgets of the exact questions on late positions: a limit hit fails the check.
LATE_LIMITS = halfmoon.Limits(seconds=30, nodes=20_000)
#: How many moves before the end of a played game `endgame` is asked (while it stays exact).
LATE_MOVES = (1, 2, 3, 4, 6, 8, 12)


@dataclass
class Report:
    """What a check exercised, so a test can tell it was not vacuous."""

    playouts: int = 0
    ended: int = 0
    steps: int = 0
    exact_answers: int = 0
    verdicts: set[str] | None = None


def seed_of(name: str, extra: int = 0) -> int:
    """A stable seed per game (str hashes are salted per process)."""
    return sum(map(ord, name)) * 1000 + extra


def choose(rng: SplitMix64, moves: list[Any]) -> Any:
    return moves[rng.below(len(moves))]


def variants(info: catalogue.GameInfo) -> list[str | None]:
    """The deal-code variants to deal: fewest and most players (None: the code's only variant)."""
    low, high = info.players
    if info.kind == catalogue.SOLITAIRE or low == high:
        return [None]
    return [str(low), str(high)]


def check_game(name: str, numbers: tuple[int, ...] = (1, 2), playouts: int = 2) -> Report:
    """Run every check on the game `name` (tag or catalogue name); returns what was exercised."""
    info = catalogue.info(name)
    if info.kind == catalogue.SOLITAIRE:
        return _check_solitaire(info, numbers, playouts)
    return _check_multiplayer(info, numbers, playouts)


def _check_text(deal: halfmoon.Deal | halfmoon.Replay, twin: Any) -> None:
    text = deal.describe()
    assert isinstance(text, str) and text.strip(), "the position has no text form"
    assert deal.describe() == text, "the text form is not deterministic"
    assert deal.draw(twin, False, False) == text, "equal positions are drawn differently"
    parse = getattr(type(deal.position), "parse", None)
    if callable(parse):  # the game's one-line text form, where it has one
        assert parse(str(deal.position)) == deal.position, "the text form does not read back"


# -- solitaires --------------------------------------------------------------------------------------


def _check_solitaire(info: catalogue.GameInfo, numbers: tuple[int, ...], playouts: int) -> Report:
    game = catalogue.solitaire(info.tag)
    report = Report(verdicts=set())
    for number in numbers:
        code = halfmoon.code(number, info.tag)
        deal = halfmoon.deal(code)
        assert (deal.game, deal.code, deal.number) == (info.name, code, number)
        assert halfmoon.service.number(code) == number
        assert deal.position == game.deal(number) == halfmoon.deal(number, game=info.tag).position
        for playout in range(playouts):
            rng = SplitMix64(seed_of(info.name, 100 * number + playout))
            line = _solitaire_playout(game, deal.position, rng, report)
            _check_solitaire_replay(game, code, deal.position, line)
            _check_solitaire_late(game, code, line[:-3], report)
    _check_solitaire_winning_line(game, info, report)
    return report


def _check_solitaire_position(game: Solitaire[Any, Any], position: Any) -> list[Any]:
    hash(position)
    key = game.key(position)
    hash(key)
    data = game.position_to_json(position)
    twin = game.position_from_json(data)
    assert twin == position and game.key(twin) == key, "JSON does not round-trip"
    assert game.position_to_json(twin) == data
    moves = list(game.legal_moves(position))
    assert moves == list(game.legal_moves(position)) == list(game.legal_moves(twin)), "legal moves drift"
    assert len(set(moves)) == len(moves), "duplicate legal moves"
    won, dead = game.is_won(position), game.is_dead(position)
    assert not (won and dead)
    assert (not moves) == (won or dead), "no legal move exactly when the game is won or dead"
    return moves


def _solitaire_playout(game: Solitaire[Any, Any], start: Any, rng: SplitMix64, report: Report) -> list[Any]:
    position, line = start, []
    report.playouts += 1
    for step in range(STEP_CAP):
        moves = _check_solitaire_position(game, position)
        if not moves:
            report.ended += 1
            break
        if step < DEEP_STEPS:
            before, key = game.position_to_json(position), game.key(position)
            for move in moves:
                hash(move)
                assert isinstance(game.cards(position, move), str) and game.cards(position, move)
                assert game.parse_line(str(move)) == (move,), f"move {move} does not read back"
                child = game.apply(position, move)
                assert game.apply(position, move) == child, "apply is not deterministic"
                assert game.position_to_json(position) == before and game.key(position) == key, "apply is not pure"
        move = choose(rng, moves)
        line.append(move)
        position = game.apply(position, move)
        report.steps += 1
    else:
        _check_solitaire_position(game, position)
    end, played = game.replay(start, line)
    assert end == position and played == tuple(line), "the game's own replay differs from the playout"
    assert game.parse_line(game.format_line(line)) == tuple(line)
    return line


def _status(game: Solitaire[Any, Any], position: Any) -> str:
    return "won" if game.is_won(position) else "dead" if game.is_dead(position) else "open"


def _check_solitaire_replay(game: Solitaire[Any, Any], code: str, start: Any, line: list[Any]) -> None:
    replayed = halfmoon.replay(code, game.format_line(line))
    position, _ = game.replay(start, line)
    assert replayed.position == position and replayed.moves == tuple(line)
    assert replayed.status == _status(game, position)
    assert halfmoon.replay(code, line).position == position  # moves as values, too
    _check_text(replayed, game.position_from_json(game.position_to_json(position)))
    data = replayed.to_json()
    assert data["played"] == len(line) and data["status"] == replayed.status


def _check_solitaire_late(game: Solitaire[Any, Any], code: str, prefix: list[Any], report: Report,
                          expect: halfmoon.Verdict | None = None) -> None:
    """`solve` and `hint` on the position after `prefix`: exact, agreeing, and any line replays to a win."""
    moves = game.format_line(prefix)
    solved = halfmoon.solve(code, moves=moves, limits=LATE_LIMITS)
    assert solved.verdict is not halfmoon.Verdict.UNKNOWN, f"{code} after {moves!r}: {solved.stopped} limit hit"
    assert expect is None or solved.verdict is expect, f"{code} after {moves!r}: {solved.verdict}"
    report.exact_answers += 1
    assert report.verdicts is not None
    report.verdicts.add(solved.verdict.value)
    if solved.verdict is halfmoon.Verdict.WINNABLE:
        assert solved.moves is not None and solved.cards is not None and len(solved.cards) == len(solved.moves)
        won = halfmoon.replay(code, moves + " " + game.format_line(solved.moves))
        assert won.status == "won", "the winning line does not replay to a win"
    else:
        assert solved.moves is None
    hint = halfmoon.hint(code, moves=moves, limits=LATE_LIMITS)
    assert hint.verdict is solved.verdict and hint.played == len(prefix)
    position = halfmoon.replay(code, moves).position
    assert [m.move for m in hint.moves] == list(game.legal_moves(position))
    if hint.moves:
        winnable = any(m.verdict is halfmoon.Verdict.WINNABLE for m in hint.moves)
        assert winnable == (solved.verdict is halfmoon.Verdict.WINNABLE), "hint and solve disagree"
    if hint.best is not None:
        assert next(m for m in hint.moves if m.move == hint.best).verdict is halfmoon.Verdict.WINNABLE


def _check_solitaire_winning_line(game: Solitaire[Any, Any], info: catalogue.GameInfo, report: Report) -> None:
    """The first deal the solver wins within a small budget: positions along its line are winnable."""
    for number in range(1, 60):
        code = halfmoon.code(number, info.tag)
        solved = halfmoon.solve(code, limits=halfmoon.Limits(seconds=5, nodes=20_000))
        if solved.verdict is halfmoon.Verdict.WINNABLE:
            break
    else:
        raise AssertionError(f"{info.title}: no deal among 1-59 solved winnable within 20 000 nodes")
    assert solved.moves is not None
    line = list(solved.moves)
    assert halfmoon.replay(code, line).status == "won"
    for left in sorted({min(3, len(line)), min(8, len(line))}):
        _check_solitaire_late(game, code, line[: len(line) - left], report, expect=halfmoon.Verdict.WINNABLE)


# -- multiplayer games -------------------------------------------------------------------------------


def _check_multiplayer(info: catalogue.GameInfo, numbers: tuple[int, ...], playouts: int) -> Report:
    adapter = catalogue.endgame_adapter(info.tag)
    game = adapter.game
    assert game.name and isinstance(game.name, str)
    assert adapter.name == info.name and adapter.title == info.title
    report = Report()
    for variant in variants(info):
        for number in numbers:
            code = halfmoon.code(number, info.tag, variant)
            deal = halfmoon.deal(code)
            assert (deal.game, deal.code, deal.number) == (info.name, code, number)
            assert game.key(deal.position) == game.key(adapter.position_from_code(code))
            players = game.players(deal.position)
            assert info.players[0] <= players <= info.players[1]
            assert variant is None or players == int(variant)
            _check_text(deal, adapter.position_from_json(adapter.position_to_json(deal.position)))
            for playout in range(playouts):
                rng = SplitMix64(seed_of(info.name, 100 * number + playout))
                position, line = _multiplayer_playout(adapter, deal.position, rng, report)
                _check_multiplayer_replay(adapter, code, deal.position, line, position)
            if variant == variants(info)[0]:
                _check_endgame_late(adapter, code, number, report)
    for start in adapter.sample_positions(seed=2024, count=3):  # the game's own small positions
        _check_asks(adapter, start)
        _multiplayer_playout(adapter, start, SplitMix64(seed_of(info.name)), report)
    return report


def _check_asks(adapter: EndgameAdapter, position: Any) -> None:
    if adapter.game.terminal(position) is not None:
        return
    asks = adapter.asks(position)
    assert asks, "an endgame adapter must ask at least one question"
    players = adapter.game.players(position)
    for ask in asks:
        assert isinstance(ask.question, Question)
        assert ask.question.maximizers and all(0 <= s < players for s in ask.question.maximizers)
        assert isinstance(ask.question.draw_value, int)
    assert len({ask.id for ask in asks}) == len(asks), "question ids repeat"


def _check_multiplayer_position(adapter: EndgameAdapter, position: Any, players: int, deep: bool) -> list[Any]:
    game = adapter.game
    hash(position)
    key = game.key(position)
    hash(key)
    assert game.players(position) == players
    data = adapter.position_to_json(position)
    again = adapter.position_from_json(data)
    assert again == position, "JSON does not round-trip"
    assert game.key(again) == key
    assert adapter.position_to_json(again) == data
    result = game.terminal(position)
    moves = list(game.legal_moves(position))
    assert moves == list(game.legal_moves(position)) == list(game.legal_moves(again)), "legal moves drift"
    kernel = getattr(game, "kernel", None)
    if result is not None:
        assert moves == [], "legal moves after the end"
        if kernel is not None:
            assert kernel(position).terminal(key) == result
        return moves
    assert moves, "no legal move before the end"
    assert 0 <= game.to_move(position) < players
    assert len(set(moves)) == len(moves), "duplicate legal moves"
    if not deep:
        return moves
    children = []
    for move in moves:
        hash(move)
        assert adapter.format_move(position, move)
        assert isinstance(adapter.move_note(position, move), str)
        before = adapter.position_to_json(position)
        child = game.apply(position, move)
        assert adapter.position_to_json(position) == before and game.key(position) == key, "apply changed its input"
        assert game.key(game.apply(position, move)) == game.key(child), "apply is not deterministic"
        children.append(child)
    if kernel is not None:  # the packed hot loop must agree with the rules
        k = kernel(position)
        assert k.to_move(key) == game.to_move(position)
        assert k.terminal(key) is None
        assert set(k.successors(key)) == {game.key(c) for c in children}
    successors = getattr(game, "successors", None)
    if successors is not None:
        fast = list(successors(position))
        assert [m for m, _ in fast] == moves
        assert [game.key(c) for _, c in fast] == [game.key(c) for c in children]
    return moves


def _multiplayer_playout(adapter: EndgameAdapter, start: Any, rng: SplitMix64,
                         report: Report) -> tuple[Any, list[Any]]:
    game = adapter.game
    players = game.players(start)
    assert 2 <= players <= 8
    position, line = start, []
    report.playouts += 1
    for step in range(STEP_CAP):
        moves = _check_multiplayer_position(adapter, position, players, deep=step < DEEP_STEPS)
        if not moves:
            report.ended += 1
            break
        move = choose(rng, moves)
        line.append(move)
        position = game.apply(position, move)
        report.steps += 1
    else:
        _check_multiplayer_position(adapter, position, players, deep=True)
    return position, line


def _check_multiplayer_replay(adapter: EndgameAdapter, code: str, start: Any, line: list[Any], end: Any) -> list[str]:
    """`halfmoon.replay` of the line's text reaches the same position; returns the moves' text."""
    game = adapter.game
    texts, position = [], start
    for move in line:
        text = adapter.format_move(position, move)
        assert text and not any(c.isspace() or c == "," for c in text), f"move text {text!r} cannot be replayed"
        texts.append(text)
        position = game.apply(position, move)
    replayed = halfmoon.replay(code, " ".join(texts))
    assert game.key(replayed.position) == game.key(end) and replayed.position == end, "replay differs from the play"
    assert replayed.status == ("over" if game.terminal(end) is not None else "open")
    assert list(replayed.moves) == texts
    _check_text(replayed, adapter.position_from_json(adapter.position_to_json(end)))
    return texts


def _check_endgame_late(adapter: EndgameAdapter, code: str, seed: int, report: Report) -> None:
    """Late positions of a game: the policy plays the deal to its endgame (``until="endgame"``), random
    moves finish it; then `endgame` 1, 2, 3, … moves before the end, while it stays exact within a
    small budget. One move before the end must be exact; every exact answer is checked."""
    game = adapter.game
    shown = halfmoon.endgame_position(code, until="endgame", seed=seed)
    texts = list(shown.played)
    position = halfmoon.replay(code, " ".join(texts)).position
    assert shown.to_json()["position"] == adapter.position_to_json(position)
    rng = SplitMix64(seed_of(adapter.name, seed))
    for _ in range(STEP_CAP):
        if game.terminal(position) is not None:
            break
        move = choose(rng, list(game.legal_moves(position)))
        texts.append(adapter.format_move(position, move))
        position = game.apply(position, move)
    else:
        return  # no end within the cap: nothing late to ask about
    for back in LATE_MOVES:
        if back > len(texts):
            break
        if not _check_endgame_answer(adapter, code, texts[:-back], report, must_be_exact=back == 1):
            break


def _check_endgame_answer(adapter: EndgameAdapter, code: str, prefix: list[str], report: Report,
                          must_be_exact: bool) -> bool:
    """`endgame` after `prefix`: each question exact with a line that replays as reported (True), or, when
    `must_be_exact` is false, stopped by the budget and saying so (False)."""
    moves = " ".join(prefix)
    result = halfmoon.endgame(code, moves=moves, limits=LATE_LIMITS)
    data = result.to_json()
    assert data["game"] == adapter.name and data["played"] == [] and data["terminal"] is None
    assert data["position"] == adapter.position_to_json(adapter.position_from_code(code, moves))
    assert data["questions"]
    exact = True
    for question in data["questions"]:
        if question["status"] != "solved":
            assert not must_be_exact, f"{code} after {len(prefix)} moves: {question['id']}: {question['reason']}"
            assert question["status"] == "unknown" and question["word"].startswith("unknown") and question["reason"]
            assert question["line"] == []
            exact = False
            continue
        assert question["value"] is not None and question["line"]
        assert any(m["value"] == question["value"] for m in question["moves"]), "no move has the position's value"
        full = (moves + " " + " ".join(step["move"] for step in question["line"])).strip()
        shown = halfmoon.endgame_position(code, moves=full).to_json()
        if question["line_end"] == "terminal":
            assert shown["terminal"] == question["line_outcome"], "the principal line does not end as reported"
        report.exact_answers += 1
    return exact
