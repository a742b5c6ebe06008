"""The Elevens family in the catalogue: a `Solitaire` record for any rule set, presets by deal-code tag.

Dealing is the codec's procedure, solving the family search, replaying the family rules. A rule
file with no deal-code tag still deals by number (the same procedure); its deals are named
``<name>#<number>`` and its solver version carries a digest of the rules, so stored results
of different rule files never mix.
"""

from __future__ import annotations

import hashlib
import json
from functools import lru_cache
from typing import Any, Hashable, Sequence

from halfmoon.dealcodes import DealCode
from halfmoon.solver.core.adapters import Solitaire
from halfmoon.solver.core.verdicts import DEFAULT_TT_BYTES, Limits
from halfmoon.solver.errors import SolverBug

from .presets import preset_for_tag
from .render import draw_position
from .rules import Game, Move, Position, parse_move, split_line
from .schema import RuleSet
from .search import FAMILY_SOLVER_VERSION, METHODS, solve_position

DEFAULT_TIME_LIMIT = 10.0
ALL_TIERS = ("easy", "medium", "hard", "expert")
#: The grid presets are pure chance (docs/rules/elevens-family.md; tested): every way of playing a
#: deal ends the same, so every winnable deal rates "easy" and `generate` can reach no other tier.
PURE_CHANCE_TIERS = ("easy",)
PURE_CHANCE_PRESETS = ("EL", "SE", "TN")


def adapter_for(rules: RuleSet, tiers: tuple[str, ...] = ALL_TIERS) -> Solitaire[Position, Move]:
    """The catalogue record of a rule set (a preset or any rule file); `tiers`: the rating tiers its deals reach."""
    game = Game(rules)
    suits = rules.uses_suits

    def key(position: Position) -> Hashable:
        """Places have no geometry: the multiset of what they hold, and the stock."""

        def form(cards: Sequence[Any]) -> tuple[int, ...]:
            return tuple(c.rank * 4 + c.suit if suits else c.rank for c in cards)

        piles = sorted(form(p) for p in position.piles if p)
        reserve = sorted(form([c]) for c in position.reserve if c is not None)
        return tuple(piles), tuple(reserve), form(position.stock)

    def replay(position: Position, line: str | Sequence[Move]) -> tuple[Position, tuple[Move, ...]]:
        played = game.replay(position, line if isinstance(line, str) else list(line))
        return played.position, played.moves

    def conceal(position: Position) -> tuple[Hashable, tuple[Any, ...]]:
        """Seen: each pile's top and height, the reserve, the stock's size. Hidden: the cards under
        the tops (pile 1 bottom up, pile 2, …), then the stock (its order is face down)."""
        view = (tuple((p[-1] if p else None, len(p)) for p in position.piles), position.reserve, len(position.stock))
        return view, tuple(c for p in position.piles for c in p[:-1]) + position.stock

    def reveal(position: Position, cards: Sequence[Any]) -> Position:
        piles, at = [], 0
        for pile in position.piles:
            hidden = max(len(pile) - 1, 0)
            piles.append(tuple(cards[at:at + hidden]) + pile[-1:])
            at += hidden
        if len(cards) - at != len(position.stock):
            raise SolverBug(f"reveal: {len(cards)} cards for {at + len(position.stock)} hidden places")
        return Position(tuple(piles), position.reserve, tuple(cards[at:]))

    if rules.tag:
        tag, version = rules.tag, FAMILY_SOLVER_VERSION

        def code(number: int) -> str:
            return str(DealCode(tag, 1, "N", number))
    else:
        digest = hashlib.sha256(json.dumps(rules.to_json(), sort_keys=True).encode()).hexdigest()[:12]
        tag, version = "RF", f"{FAMILY_SOLVER_VERSION}+{digest}"

        def code(number: int) -> str:
            return f"{rules.name}#{number}"

    def describe(position: Position, symbols: bool = False, full: bool = False) -> str:
        return draw_position(rules, position, symbols)

    return Solitaire(
        tag=tag,
        name=rules.name.lower().replace(" ", "-"),
        title=rules.name,
        solver_version=version,
        methods=METHODS,
        default_limits=Limits(seconds=DEFAULT_TIME_LIMIT, memory_bytes=DEFAULT_TT_BYTES),
        deal=game.deal,
        code=code,
        position_from_json=game.layout_from_json,
        position_to_json=Position.to_json,
        describe=describe,
        solve=lambda position, method, limits, seed: solve_position(rules, position, method, limits, seed),
        parse_line=lambda text: tuple(parse_move(token) for token in split_line(text)),
        replay=replay,
        legal_moves=game.legal_moves,
        apply=game.apply,
        is_won=game.is_won,
        is_dead=game.is_dead,
        cards=lambda position, move: "+".join(str(position.card_at(place)) for place in move.places),
        key=key,
        tiers=tiers,
        extra={"rules": rules},
        conceal=conceal,
        reveal=reveal,
    )


@lru_cache(maxsize=None)
def preset_adapter(tag: str) -> Solitaire[Position, Move]:
    """The record of the preset dealt by `tag` codes (``EL`` Elevens, ``SE``, ``TN``)."""
    return adapter_for(preset_for_tag(tag), PURE_CHANCE_TIERS if tag in PURE_CHANCE_PRESETS else ALL_TIERS)
