"""The registry of solitaires that `solve`, `generate` and `survey` work on, by game tag.

Why a registry: batch commands, the results store and the rating are written once and must
work for every solitaire of the family (Half Moon ``HM``, Elevens ``EL``, …). Each game
registers a loader under its tag; the loader runs on first use (so importing the registry
stays cheap and a worker process only loads the game it is asked for) and returns a
`GameEntry` of plain functions:

- ``deal(number)`` → start position; ``code(number)`` → canonical deal code;
- ``solve(position, method=..., time_limit=..., node_limit=...)`` → a result with
  ``verdict``, ``moves``, ``method``, ``nodes``, ``seconds`` (the solver's `SolveResult`);
- ``format_line(moves)`` / ``parse_line(text)`` to keep winning lines as text in the store;
- ``wins(position, moves)`` replays a line through the game's rules (the independent check);
- playout hooks for the rating: ``legal_moves``, ``apply``, ``is_won``, an optional
  ``greedy_score(position, move)`` and ``key(position)`` (equal keys, equal futures).

Another game registers itself with ``register("EL", loader)`` next to its solver.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Hashable, Sequence

from halfmoon.solver.errors import LineError, UnknownGameError

Position = Any
Move = Any


@dataclass(frozen=True)
class GameEntry:
    """What the batch commands need to know about one solitaire (plain functions, no state)."""

    tag: str
    name: str
    solver_version: str
    deal: Callable[[int], Position]
    code: Callable[[int], str]
    solve: Callable[..., Any]
    format_line: Callable[[Sequence[Move]], str]
    parse_line: Callable[[str], Sequence[Move]]
    wins: Callable[[Position, Sequence[Move]], bool]
    legal_moves: Callable[[Position], Sequence[Move]]
    apply: Callable[[Position, Move], Position]
    is_won: Callable[[Position], bool]
    key: Callable[[Position], Hashable] = lambda position: position
    greedy_score: Callable[[Position, Move], int] | None = None
    default_time_limit: float | None = None
    #: Rebuild the solver's own result value from a stored row (lets `solve` answer from the store).
    restore: Callable[[Any], Any] | None = None


_LOADERS: dict[str, Callable[[], GameEntry]] = {}
_ENTRIES: dict[str, GameEntry] = {}


def register(tag: str, loader: Callable[[], GameEntry]) -> None:
    """Register (or replace) the loader of a game tag; it runs on the first `get_game(tag)`."""
    tag = tag.upper()
    _LOADERS[tag] = loader
    _ENTRIES.pop(tag, None)


def game_tags() -> list[str]:
    return sorted(_LOADERS)


def get_game(tag: str) -> GameEntry:
    """The entry of game `tag` (any case), loading it on first use."""
    key = tag.strip().upper()
    entry = _ENTRIES.get(key)
    if entry is not None:
        return entry
    loader = _LOADERS.get(key)
    if loader is None:
        raise UnknownGameError(f"game {tag!r}: no solver for it, expected one of {', '.join(game_tags())}")
    entry = _ENTRIES[key] = loader()
    return entry


# -- Half Moon -------------------------------------------------------------------------------


def _halfmoon_key(position: Any) -> Hashable:
    """Suits never matter in Half Moon: piles as rank strings and the reserve as a sorted rank list."""
    piles = tuple(bytes(card.rank for card in pile) for pile in position.piles)
    reserve = bytes(sorted(card.rank for card in position.reserve if card is not None))
    return piles, reserve


def _halfmoon_greedy(position: Any, move: Any) -> int:
    """A player's rule of thumb: take from piles (uncovering cards) rather than from the reserve."""
    return sum(not place.in_reserve for place in move.places)


def _load_halfmoon() -> GameEntry:
    from halfmoon.dealcodes import DealCode, deal_halfmoon
    from halfmoon.solver.core.verdicts import Verdict
    from halfmoon.solver.games.halfmoon import portfolio as halfmoon_solver
    from halfmoon.solver.games.halfmoon.rules import Position as HMPosition
    from halfmoon.solver.games.halfmoon.rules import parse_line, replay

    def deal(number: int) -> HMPosition:
        return HMPosition.from_deal(deal_halfmoon(number))

    def wins(position: HMPosition, moves: Sequence[Any]) -> bool:
        try:
            return replay(position, list(moves)).position.is_won
        except LineError:
            return False

    def restore(stored: Any) -> halfmoon_solver.SolveResult:
        moves = tuple(parse_line(stored.line)) if stored.line is not None else None
        return halfmoon_solver.SolveResult(Verdict(stored.verdict), moves, stored.method, stored.nodes, stored.seconds)

    return GameEntry(
        tag="HM",
        name="Half Moon",
        solver_version=halfmoon_solver.SOLVER_VERSION,
        deal=deal,
        code=lambda number: str(DealCode("HM", 1, "N", number)),
        solve=halfmoon_solver.solve,
        format_line=lambda moves: " ".join(map(str, moves)),
        parse_line=lambda text: tuple(parse_line(text)),
        wins=wins,
        legal_moves=lambda position: position.legal_moves(),
        apply=lambda position, move: position.apply(move),
        is_won=lambda position: position.is_won,
        key=_halfmoon_key,
        greedy_score=_halfmoon_greedy,
        default_time_limit=halfmoon_solver.DEFAULT_TIME_LIMIT,
        restore=restore,
    )


register("HM", _load_halfmoon)


# -- the Elevens family (solver.games.family.entry builds the entries from the rule presets) ----

#: Kept equal to solver.games.family.entry.FAMILY_TAGS (a test checks it) without importing it here.
FAMILY_TAGS = ("EL", "SE", "TN")


def _family_loader(tag: str) -> Callable[[], GameEntry]:
    def load() -> GameEntry:
        from halfmoon.solver.games.family.adapter import family_entry

        return family_entry(tag)

    return load


for _tag in FAMILY_TAGS:
    register(_tag, _family_loader(_tag))


# -- the Elevens family (rule-file presets: Elevens, Suit Elevens, Tens) ------------------------


def _load_family(tag: str) -> GameEntry:
    from halfmoon.solver.games.family.adapter import family_entry

    return family_entry(tag)


for _tag in ("EL", "SE", "TN"):
    register(_tag, lambda _tag=_tag: _load_family(_tag))
