"""The family's presets as entries of the solver registry (`solver.registry`), by deal-code tag.

`survey`, `generate` and the results store work on any registered solitaire; this builds the
entry of a preset from its rule file: dealing by the codec's procedure, solving with the
family search, and replaying lines through the family rules.
"""

from __future__ import annotations

from typing import Any, Sequence

from halfmoon.dealcodes import DealCode
from halfmoon.solver.errors import MoveError

from .presets import preset_for_tag
from .rules import Game, Move, Position, parse_move, split_line
from .search import FAMILY_SOLVER_VERSION, FamilyResult, solve_position

#: Tags of the presets this package registers (Half Moon registers its dedicated solver).
FAMILY_TAGS = ("EL", "SE", "TN")
DEFAULT_TIME_LIMIT = 10.0


def family_entry(tag: str) -> Any:
    """The registry entry of the preset dealt by `tag` codes (``EL`` Elevens, …)."""
    from halfmoon.solver.registry import (
        GameEntry,  # imported here: the registry imports this lazily
    )

    rules = preset_for_tag(tag)
    game = Game(rules)

    def solve(position: Position, method: str = "auto", time_limit: float | None = DEFAULT_TIME_LIMIT,
              node_limit: int | None = None, **_: Any) -> FamilyResult:
        return solve_position(rules, position, time_limit=time_limit, node_limit=node_limit, method=method)

    def wins(position: Position, moves: Sequence[Move]) -> bool:
        try:
            return game.is_won(game.replay(position, list(moves)).position)
        except MoveError:
            return False

    def key(position: Position) -> Any:
        """Places have no geometry: the multiset of what they hold, and the stock."""
        suits = rules.uses_suits

        def form(cards: Sequence[Any]) -> tuple[int, ...]:
            return tuple(c.rank * 4 + c.suit if suits else c.rank for c in cards)

        piles = sorted(form(p) for p in position.piles if p)
        reserve = sorted(form([c]) for c in position.reserve if c is not None)
        return tuple(piles), tuple(reserve), form(position.stock)

    return GameEntry(
        tag=rules.tag or tag,
        name=rules.name,
        solver_version=FAMILY_SOLVER_VERSION,
        deal=game.deal,
        code=lambda number: str(DealCode(tag, 1, "N", number)),
        solve=solve,
        format_line=lambda moves: " ".join(map(str, moves)),
        parse_line=lambda text: tuple(parse_move(t) for t in split_line(text)),
        wins=wins,
        legal_moves=game.legal_moves,
        apply=game.apply,
        is_won=game.is_won,
        key=key,
        default_time_limit=DEFAULT_TIME_LIMIT,
    )
