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
from typing import Any

from halfmoon.solver.core.solitaire import restart_budgets, solve_solitaire
from halfmoon.solver.core.verdicts import Limits, SearchResult, Verdict
from halfmoon.solver.errors import InputError, SolverBug, UnsupportedError

from .kernel import FamilyState
from .rules import Game, Move, Position
from .schema import RuleSet

FAMILY_SOLVER_VERSION = "family-1"


METHODS = ("auto", "search")


def solve_position(
    rules: RuleSet,
    position: Position,
    method: str = "auto",
    limits: Limits = Limits(),
    seed: int = 0,
    restarts: bool = True,
) -> SearchResult[Move]:
    """Decide `position` under `rules` exactly (or `unknown` when a limit stops the search).

    `method` is ``auto`` or ``search`` (the same thing here: search decides every preset);
    `limits` are taken as given (None: no limit of that kind). The winning line is replayed
    through the rules before it is returned.
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
    budgets = restart_budgets() if restarts else None
    result = solve_solitaire(state, limits, budgets=budgets, seed=seed)
    line = None
    if result.verdict == Verdict.WINNABLE:
        assert result.line is not None
        line = tuple(state.to_moves(result.line))
        try:  # replay through the rules: a line they reject is a bug, never an answer
            won = game.is_won(game.replay(position, list(line)).position)
        except InputError as error:
            raise SolverBug(f"{rules.name}: the winning line does not replay: {error}") from None
        if not won:
            raise SolverBug(f"{rules.name}: the winning line does not win when replayed: {' '.join(map(str, line))}")
    stats = dict(result.stats) | {"safe_nodes": state.nodes_safe}
    return SearchResult(result.verdict, line, result.nodes, time.perf_counter() - started, result.stopped,
                        method="search" if result.verdict is not Verdict.UNKNOWN else "none", stats=stats)


def solve_deal(rules: RuleSet, number: int, **kwargs: Any) -> SearchResult[Move]:
    """Decide deal `number` of a preset (dealt by the generic procedure = the codec's)."""
    return solve_position(rules, Game(rules).deal(number), **kwargs)
