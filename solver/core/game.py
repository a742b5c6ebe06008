"""The exact core's only view of a multiplayer game, and the questions a solve can ask.

A game is a perfect-information, deterministic, turn-based rule set over immutable hashable
positions and moves. The core (`solver.core.exact`) never looks inside a position: it asks who
moves, which moves are legal, where a move leads, whether play has ended, and for a compact
canonical key. Games never import search; they only need to satisfy `Game`.

Any number of players is reduced to two sides by a `Question`: the seats in `maximizers` try to
make `value(terminal)` large, every other seat (as one coalition) tries to make it small. That is
exact for two players and the honest "can seat P guarantee X against all the others together?"
for more. Infinite play (positions of a cyclic game that never resolve) is worth `draw_value`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import (
    Any,
    Callable,
    Hashable,
    Protocol,
    Sequence,
    TypeVar,
    runtime_checkable,
)

P = TypeVar("P", bound=Hashable)
M = TypeVar("M", bound=Hashable)

Terminal = Any
"""A game-defined, immutable result object; `Outcome` is the standard one (recommended)."""


@runtime_checkable
class Game(Protocol[P, M]):
    """The contract every multiplayer game implements (see the module docstring).

    Optional attribute: ``acyclic: bool`` — a game that declares ``acyclic = True`` promises
    that no position can repeat, so the core may use memoised negamax instead of retrograde
    analysis. Without it the core assumes cycles are possible.

    Optional method: ``successors(position) -> Sequence[tuple[M, P]]`` — every legal move with
    the position it leads to, in `legal_moves` order. A game may offer it as a fast path (e.g.
    skipping the per-move legality check `apply` must make); the core uses it when present and
    the conformance test checks it agrees with `legal_moves` + `apply`.

    Optional method: ``kernel(position) -> kernel`` — the rules again on packed keys, for the
    core's hot loop: an object with ``successors(key) -> list[key]`` (the keys of every legal
    move's result; duplicates may be merged), ``terminal(key)`` (the same result objects as
    `terminal`) and ``to_move(key)``, valid for every position reachable from `position`.
    The retrograde solver then explores keys only (no position objects) and maps positions in
    via `key`; the conformance test checks kernel and rules agree along playouts.
    """

    name: str  # "shithead", "eight-and-a-half", "golf", "spit"

    def players(self, position: P) -> int:
        """The number of seats (constant over a game)."""
        ...

    def to_move(self, position: P) -> int:
        """The 0-based seat of the player to act."""
        ...

    def legal_moves(self, position: P) -> Sequence[M]:
        """Every legal move, in a fixed order; never empty unless `terminal(position)` is not None."""
        ...

    def apply(self, position: P, move: M) -> P:
        """The position after `move`; pure. Raises a ValueError subclass if the move is illegal."""
        ...

    def terminal(self, position: P) -> Terminal | None:
        """The game's result object once play has ended, None while play goes on."""
        ...

    def key(self, position: P) -> Hashable:
        """A compact canonical key (prefer int or bytes). Equal keys must mean game-theoretically
        identical positions (same player to move, same futures up to renaming equivalent cards)."""
        ...


def is_acyclic(game: Game[Any, Any]) -> bool:
    """Whether the game promises that positions never repeat."""
    return bool(getattr(game, "acyclic", False))


@dataclass(frozen=True)
class Outcome:
    """The standard terminal result the core's ready-made questions understand.

    `places[seat]` is the seat's finishing place, 0 = best; equal places are ties (so a
    two-player draw is ``(0, 0)``). `scores[seat]`, when the game keeps score, is the seat's
    points in the game's own sense; `low_wins` says whether fewer points are better (Golf).
    `note` is a short human text such as "seat 1 is the shithead".
    """

    places: tuple[int, ...]
    scores: tuple[int, ...] | None = None
    low_wins: bool = False
    note: str = ""

    def __post_init__(self) -> None:
        if self.scores is not None and len(self.scores) != len(self.places):
            raise ValueError(f"outcome: {len(self.scores)} scores for {len(self.places)} places")

    @property
    def last_place(self) -> int:
        return max(self.places)

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"places": list(self.places)}
        if self.scores is not None:
            data["scores"] = list(self.scores)
            data["low_wins"] = self.low_wins
        if self.note:
            data["note"] = self.note
        return data


@runtime_checkable
class Question(Protocol):
    """What a solve asks: reduces any game to two sides (see the module docstring).

    Optional attribute: ``value_bounds: tuple[int, int]`` — the least and greatest value any
    position can have (e.g. -1 and 1 for win/loss). With it, a search stopped by a limit can
    still prove an extreme value (a forced win) from the explored part alone.
    """

    @property
    def maximizers(self) -> frozenset[int]:
        """The seats on the maximizing side."""
        ...

    @property
    def draw_value(self) -> int:
        """The value of infinite play."""
        ...

    def value(self, terminal: Terminal) -> int:
        """The terminal result as an integer for the maximizing side."""
        ...


# -- the standard questions ------------------------------------------------------------------


@dataclass(frozen=True)
class WinLoss:
    """Two players (or seat vs. the rest): +1 if `seat` finishes strictly best, -1 if strictly
    worst, 0 otherwise (a tie); infinite play is a draw (0)."""

    seat: int
    draw_value: int = 0
    label: str = "win/loss/draw"

    @property
    def maximizers(self) -> frozenset[int]:
        return frozenset({self.seat})

    @property
    def value_bounds(self) -> tuple[int, int]:
        return min(-1, self.draw_value), max(1, self.draw_value)

    def value(self, terminal: Terminal) -> int:
        places = terminal.places
        mine = places[self.seat]
        others = [p for s, p in enumerate(places) if s != self.seat]
        if all(mine < p for p in others):
            return 1
        if all(mine > p for p in others):
            return -1
        return 0


@dataclass(frozen=True)
class ScoreDifference:
    """Two players with scores (Golf): `seat`'s margin over the opponent, oriented so that
    larger is better for `seat` (the opponent's total minus `seat`'s when low wins).
    Infinite play is worth `draw_value` (0 unless the game says otherwise)."""

    seat: int
    draw_value: int = 0
    label: str = "score difference"

    @property
    def maximizers(self) -> frozenset[int]:
        return frozenset({self.seat})

    def value(self, terminal: Terminal) -> int:
        scores = terminal.scores
        if scores is None or len(scores) != 2:
            raise ValueError("score difference needs an outcome with two players' scores")
        mine: int = scores[self.seat]
        theirs: int = scores[1 - self.seat]
        return theirs - mine if terminal.low_wins else mine - theirs


@dataclass(frozen=True)
class GuaranteedScore:
    """N players with scores, paranoid: the best score `seat` can guarantee against all the
    others together, as a value where larger is better (negated when low wins)."""

    seat: int
    draw_value: int = 0
    label: str = "guaranteed score"

    @property
    def maximizers(self) -> frozenset[int]:
        return frozenset({self.seat})

    def value(self, terminal: Terminal) -> int:
        if terminal.scores is None:
            raise ValueError("guaranteed score needs an outcome with scores")
        score: int = terminal.scores[self.seat]
        return -score if terminal.low_wins else score


@dataclass(frozen=True)
class Coalition:
    """Can `seat` guarantee `predicate(terminal)` against all the other seats together?
    Value 1 (yes) or 0 (no); infinite play is worth `draw_value` (say in `label` why).

    `predicate` must be a module-level function or other stable callable so the question stays
    hashable; `label` names it for reports, e.g. "avoid being the shithead".
    """

    seat: int
    predicate: Callable[[int, Terminal], bool] = field(compare=False)
    label: str
    draw_value: int = 1

    @property
    def maximizers(self) -> frozenset[int]:
        return frozenset({self.seat})

    @property
    def value_bounds(self) -> tuple[int, int]:
        return min(0, self.draw_value), max(1, self.draw_value)

    def value(self, terminal: Terminal) -> int:
        return 1 if self.predicate(self.seat, terminal) else 0


def not_last(seat: int, terminal: Terminal) -> bool:
    """Predicate for `Coalition`: `seat` did not finish (strictly or shared) last of several."""
    places = terminal.places
    return places[seat] < max(places) or all(p == places[seat] for p in places)


def avoid_last(seat: int, draw_value: int = 1) -> Coalition:
    """"Can `seat` avoid finishing last against everyone else?" (e.g. not be the shithead).
    By default infinite play counts as avoided: nobody is ever last."""
    return Coalition(seat, not_last, "avoid finishing last", draw_value)


def wins_outright(seat: int, terminal: Terminal) -> bool:
    """Predicate for `Coalition`: `seat` finished strictly first."""
    places = terminal.places
    return all(places[seat] < p for s, p in enumerate(places) if s != seat)
