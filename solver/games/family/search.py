"""Deciding a family deal: the packed state on the shared solitaire core, then a replayed line.

The glue between the rules (this package) and the game-agnostic search (`solver.core`): it
builds a `FamilyState`, runs `solve_solitaire` with restarts, names the winning groups by
their places, and replays them through `Game` before returning, so a winnable verdict
always comes with a line the rules accept.

Methods: ``search`` (this) decides every preset; the CP-SAT model of the Half Moon solver
covers only games without a stock (the refill order makes a stock awkward to state as a
static model), so for Elevens, Suit Elevens and Tens search alone is used.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

from halfmoon.solver.core.solitaire import restart_budgets, solve_solitaire
from halfmoon.solver.core.verdicts import Limits, Verdict
from halfmoon.solver.errors import SolverBug, UnsupportedError

from .kernel import FamilyState
from .rules import Game, Move, Position
from .schema import RuleSet

FAMILY_SOLVER_VERSION = "family-1"


@dataclass(frozen=True)
class FamilyResult:
    """A verdict for one position, with its replayed winning line (winnable only) and effort."""

    rules: str
    verdict: Verdict
    line: tuple[Move, ...] | None
    nodes: int
    seconds: float
    stopped: str | None = None
    stats: dict[str, Any] = field(default_factory=dict, compare=False)

    cards: tuple[str, ...] | None = None  # the cards each move of `line` takes, e.g. "5S+6D"

    @property
    def moves(self) -> tuple[Move, ...] | None:
        """The winning line (the name the batch commands and the results store use)."""
        return self.line

    @property
    def method(self) -> str:
        return "search"

    def to_json(self, code: str | None = None) -> dict[str, Any]:
        """The `solve --json` object, the Half Moon solver's shape plus ``game`` and ``cards``."""
        data: dict[str, Any] = {"code": code, "game": self.rules, "verdict": self.verdict.value}
        if self.verdict is Verdict.WINNABLE and self.line is not None:
            data["moves"] = [str(move) for move in self.line]
            data["cards"] = list(self.cards or ())
        data.update(method=self.method, nodes=self.nodes, seconds=round(self.seconds, 6), stopped=self.stopped)
        return data


METHODS = ("auto", "search")


def solve_position(
    rules: RuleSet,
    position: Position,
    time_limit: float | None = None,
    node_limit: int | None = None,
    restarts: bool = True,
    method: str = "auto",
) -> FamilyResult:
    """Decide `position` under `rules` exactly (or `unknown` when a limit stops the search).

    `method` is ``auto`` or ``search`` (the same thing here: search decides every preset).
    """
    if method not in METHODS:
        raise UnsupportedError(
            f"method {method!r} does not apply to {rules.name}: the family solver uses search "
            f"(expected one of {', '.join(METHODS)}); CP-SAT is the Half Moon solver's (halfmoon solve --method cpsat)"
        )
    game = Game(rules)
    game.check_layout(position)
    started = time.perf_counter()
    state = FamilyState(rules, position)
    limits = Limits(time_limit=time_limit, node_limit=node_limit)
    budgets = restart_budgets() if restarts else None
    result = solve_solitaire(state, limits, budgets=budgets)
    line = cards = None
    if result.verdict == Verdict.WINNABLE:
        assert result.line is not None
        line = tuple(state.to_moves(result.line))
        cards, current = [], position
        for move in line:  # replay through the rules: a line they reject is a bug, never an answer
            cards.append("+".join(str(current.card_at(p)) for p in move.places))
            current = game.apply(current, move)
        if not game.is_won(current):
            raise SolverBug(f"{rules.name}: the winning line does not win when replayed: {' '.join(map(str, line))}")
        cards = tuple(cards)
    stats = dict(result.stats) | {"safe_nodes": state.nodes_safe}
    return FamilyResult(
        rules.name, result.verdict, line, result.nodes, time.perf_counter() - started, result.stopped, stats, cards
    )


def solve_deal(rules: RuleSet, number: int, **kwargs: Any) -> FamilyResult:
    """Decide deal `number` of a preset (dealt by the generic procedure = the codec's)."""
    return solve_position(rules, Game(rules).deal(number), **kwargs)
