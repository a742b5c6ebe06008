"""The answers the facade gives, one type per question and one JSON shape each, for every game.

The CLI prints `to_json()` with ``--json``, the HTTP service answers with it, and the results
store keeps what `SolveResult.to_stored` gives, so the three never drift apart. Moves stay
the game's own values (``str(move)`` is their text); ``cards`` names what each move takes.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable

from halfmoon.solver.core.verdicts import Limits, Verdict
from halfmoon.solver.errors import SolverBug

if TYPE_CHECKING:
    from halfmoon.solver.store import StoredResult


@dataclass(frozen=True)
class Deal:
    """A dealt position: the start of a game, from its code (or a layout, with no code)."""

    game: str  # the game's name in the catalogue, e.g. "halfmoon"
    title: str
    code: str | None
    number: int | None
    position: Any
    draw: Callable[[Any, bool, bool], str] = field(compare=False, repr=False)
    position_json: dict[str, Any] = field(compare=False, repr=False)

    def describe(self, symbols: bool = False, full: bool = False) -> str:
        """The position drawn for people (suits as symbols; with `full`, every card of every place)."""
        return self.draw(self.position, symbols, full)

    def to_json(self) -> dict[str, Any]:
        """``{"code", "game", "number"}`` and the position's own JSON (the layout file shape)."""
        head = {"code": self.code, "game": self.game, "number": self.number}
        return head | {key: value for key, value in self.position_json.items() if key not in head}


@dataclass(frozen=True)
class Replay:
    """A line played from a start position: where it ends, and whether the game is won, dead or open."""

    game: str
    code: str | None
    moves: tuple[Any, ...]
    position: Any
    status: str  # "won", "dead" (no move left) or "open"; multiplayer: "over" or "open"
    score: int | None  # points scored by the line, where the game keeps a score
    draw: Callable[[Any, bool, bool], str] = field(compare=False, repr=False)
    position_json: dict[str, Any] = field(compare=False, repr=False)

    def describe(self, symbols: bool = False, full: bool = False) -> str:
        return self.draw(self.position, symbols, full)

    def to_json(self) -> dict[str, Any]:
        return {
            "code": self.code, "game": self.game, "played": len(self.moves), "moves": [str(m) for m in self.moves],
            "status": self.status, "won": self.status == "won", "dead": self.status == "dead", "score": self.score,
        } | {key: value for key, value in self.position_json.items() if key != "game"}


@dataclass(frozen=True)
class SolveResult:
    """Whether a position can be won, exactly: the verdict, a replayed winning line, and the effort.

    ``method`` is what decided ("search", "cpsat", "none" when a limit stopped every method);
    ``stopped`` names the limit that ended an ``unknown``; ``cached`` says the answer was not
    solved now: ``source`` says where it came from ("solver", "store": the results store, whose
    ``method`` and ``seconds`` are those of the stored solve, or "atlas": the winnability atlas,
    a verdict without a line unless one was solved on demand).
    """

    game: str
    code: str | None
    verdict: Verdict
    moves: tuple[Any, ...] | None  # the winning line (winnable only)
    cards: tuple[str, ...] | None  # the cards each move of the line takes, e.g. "5S+6D"
    method: str
    nodes: int
    seconds: float
    solver_version: str
    stopped: str | None = None
    cached: bool = False
    stats: dict[str, Any] = field(default_factory=dict, compare=False, repr=False)
    limits: Limits | None = field(default=None, compare=False, repr=False)  # what bounded a fresh solve
    source: str = "solver"  # "solver", "store" or "atlas"

    def to_stored(self, tag: str, number: int, limits: Limits | None = None) -> StoredResult:
        """The results store's row for this solve of deal `number` of the game tagged `tag`.

        `limits`: the limits the solve ran under (default: those the facade recorded), which
        decide when a stored `unknown` may be trusted again.
        """
        from halfmoon.solver.store import StoredResult

        limits = limits or self.limits or Limits()
        if self.code is None:
            raise SolverBug("only a solve of a deal code (no moves played) goes into the results store")
        return StoredResult(
            code=self.code, game=tag, number=number, solver_version=self.solver_version, verdict=self.verdict.value,
            line=None if self.moves is None else " ".join(str(move) for move in self.moves),
            method=self.method, nodes=self.nodes, seconds=self.seconds,
            time_limit=limits.seconds, node_limit=limits.nodes, stopped=self.stopped,
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "code": self.code,
            "game": self.game,
            "verdict": self.verdict.value,
            "moves": None if self.moves is None else [str(move) for move in self.moves],
            "cards": None if self.cards is None else list(self.cards),
            "method": self.method,
            "nodes": self.nodes,
            "seconds": round(self.seconds, 6),
            "stopped": self.stopped,
            "cached": self.cached,
            "solver_version": self.solver_version,
            "source": self.source,
        }


@dataclass(frozen=True)
class MoveVerdict:
    """One legal move of a hint and whether the game stays winnable after it."""

    move: Any
    cards: str
    verdict: Verdict

    def to_json(self) -> dict[str, Any]:
        return {"move": str(self.move), "cards": self.cards, "verdict": self.verdict.value}


@dataclass(frozen=True)
class HintResult:
    """Which moves keep a position winnable, exactly (the solver sees every card).

    ``best`` is the first move of ``line``, a replayed winning continuation (winnable only).
    """

    game: str
    code: str | None
    played: int
    verdict: Verdict
    moves: tuple[MoveVerdict, ...]
    best: Any | None
    line: tuple[Any, ...] | None
    seconds: float

    def to_json(self) -> dict[str, Any]:
        return {
            "code": self.code,
            "game": self.game,
            "played": self.played,
            "verdict": self.verdict.value,
            "best": None if self.best is None else str(self.best),
            "line": None if self.line is None else [str(move) for move in self.line],
            "moves": [move.to_json() for move in self.moves],
            "seconds": round(self.seconds, 6),
        }


@dataclass(frozen=True)
class EndgameResult:
    """The exact answers about a multiplayer position (the `endgame --json` report) and the moves played."""

    game: str
    title: str
    played: tuple[str, ...]
    report: dict[str, Any]
    text: str  # the position drawn for people

    def to_json(self) -> dict[str, Any]:
        return self.report | {"played": list(self.played)}


@dataclass(frozen=True)
class AtlasEntry:
    """What a winnability atlas holds for one deal, read without solving.

    ``verdict`` is None when the atlas has not done the deal yet; ``unknown`` carries the limits
    the deal reached (its sidecar entry). ``solver_version`` is that of the shard's verdicts.
    """

    game: str
    code: str
    number: int
    verdict: Verdict | None
    solver_version: str | None
    shard: str  # the shard file's name
    unknown: dict[str, Any] | None = None
    seconds: float = 0.0

    def to_json(self) -> dict[str, Any]:
        return {
            "code": self.code, "game": self.game, "number": self.number,
            "verdict": None if self.verdict is None else self.verdict.value, "done": self.verdict is not None,
            "source": "atlas", "solver_version": self.solver_version, "shard": self.shard,
        } | ({"unknown": self.unknown} if self.unknown is not None else {})


@dataclass(frozen=True)
class CuratedPage:
    """A page of the curated feed: rated winnable deals in the order they were curated.

    ``deals`` are `generate`'s deals (each line replayed before it is given); ``next`` is the
    cursor for the next page (the last deal looked at); ``skipped`` counts stored deals passed
    over because their line no longer replays.
    """

    game: str
    tier: str | None
    count: int
    after: str | None
    deals: tuple[Any, ...]
    next: str | None
    solver_version: str
    rating_version: str
    skipped: int = 0

    @property
    def complete(self) -> bool:
        return len(self.deals) >= self.count

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game, "tier": self.tier, "count": self.count, "after": self.after,
            "deals": [deal.to_json() for deal in self.deals], "next": self.next, "complete": self.complete,
        }


__all__ = ["AtlasEntry", "CuratedPage", "Deal", "EndgameResult", "HintResult", "MoveVerdict", "Replay", "SolveResult"]
