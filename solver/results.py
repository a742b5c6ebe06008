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

#: The label every exact answer carries ("sees"): the solver knows every card, hidden ones too.
SEES_EVERY_CARD = "every card"
#: The label of a fair hint: it knows only what the player sees.
SEES_PLAYER = "what the player sees"


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
    legal: tuple[Any, ...] | None = None  # a solitaire's legal moves from the end (None: multiplayer)

    def describe(self, symbols: bool = False, full: bool = False) -> str:
        return self.draw(self.position, symbols, full)

    def to_json(self) -> dict[str, Any]:
        head = {
            "code": self.code, "game": self.game, "played": len(self.moves), "moves": [str(m) for m in self.moves],
            "status": self.status, "won": self.status == "won", "dead": self.status == "dead", "score": self.score,
        } | ({"legal": [str(m) for m in self.legal]} if self.legal is not None else {})
        return head | {key: value for key, value in self.position_json.items() if key not in head}


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
    engine: str | None = None  # the search engine that ran, where a game has several (None: not solved now)

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
            "engine": self.engine,
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
    """Which moves keep a position winnable, exactly (the solver sees every card: ``"sees": "every card"``).

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
            "sees": SEES_EVERY_CARD,
        }


@dataclass(frozen=True)
class Tally:
    """How many sampled arrangements of the hidden cards leave a position winnable, with a 95% interval.

    ``share`` is winnable / decided (None when none was decided). The interval is Wilson's over
    all samples, counting the ``unknown`` ones as unwinnable for ``low`` and as winnable for
    ``high``, so a limit that was hit widens it and never tilts it.
    """

    winnable: int = 0
    unwinnable: int = 0
    unknown: int = 0

    @property
    def samples(self) -> int:
        return self.winnable + self.unwinnable + self.unknown

    def add(self, verdict: Verdict) -> Tally:
        return Tally(self.winnable + (verdict is Verdict.WINNABLE), self.unwinnable + (verdict is Verdict.UNWINNABLE),
                     self.unknown + (verdict is Verdict.UNKNOWN))

    @property
    def share(self) -> float | None:
        decided = self.winnable + self.unwinnable
        return self.winnable / decided if decided else None

    @property
    def interval(self) -> tuple[float, float]:
        from halfmoon.solver.stats import wilson

        if not self.samples:
            return 0.0, 1.0
        return wilson(self.winnable, self.samples)[0], wilson(self.winnable + self.unknown, self.samples)[1]

    def to_json(self) -> dict[str, Any]:
        low, high = self.interval
        share = self.share
        return {"winnable": self.winnable, "unwinnable": self.unwinnable, "unknown": self.unknown,
                "samples": self.samples, "share": None if share is None else round(share, 4),
                "low": round(low, 4), "high": round(high, 4)}


@dataclass(frozen=True)
class FairMove:
    """One legal move of a fair hint: in how many sampled arrangements the game stays winnable after it."""

    move: Any
    cards: str
    tally: Tally

    def to_json(self) -> dict[str, Any]:
        return {"move": str(self.move), "cards": self.cards} | self.tally.to_json()


@dataclass(frozen=True)
class FairHintResult:
    """Which moves keep a position winnable, judged from what a player sees (a fair hint).

    The cards a player cannot see (under the pile tops; a family game's stock order) are dealt
    again at random, ``samples`` times, seeded with ``seed``, consistently with everything seen
    (the tops, the pile heights, the reserve, the cards removed); each arrangement and each move
    from it is solved exactly under ``limits``. ``position`` tallies the position itself.
    ``stopped`` is "budget" when the total time budget ended the sampling early (then fewer
    samples were drawn than asked, and the answer may differ from run to run).
    """

    game: str
    code: str | None
    played: int
    hidden: int  # how many cards are hidden
    asked: int  # samples asked for
    seed: int
    position: Tally
    moves: tuple[FairMove, ...]
    limits: Any  # the Limits of each solve
    budget: float  # seconds for the whole hint
    distinct: int  # distinct positions solved (equal positions are solved once)
    stopped: str | None
    seconds: float

    def to_json(self) -> dict[str, Any]:
        return {
            "code": self.code,
            "game": self.game,
            "played": self.played,
            "sees": SEES_PLAYER,
            "hidden": self.hidden,
            "samples": self.position.samples,
            "asked": self.asked,
            "seed": self.seed,
            "position": self.position.to_json(),
            "moves": [move.to_json() for move in self.moves],
            "limits": {"seconds": self.limits.seconds, "nodes": self.limits.nodes},
            "budget": self.budget,
            "distinct": self.distinct,
            "stopped": self.stopped,
            "seconds": round(self.seconds, 6),
        }


@dataclass(frozen=True)
class Analysis:
    """Where a game played on a deal stopped being winnable ("where did I go wrong"), exactly.

    ``status``: "lost" (move ``lost_at``, 1-based, turned a winnable position into an unwinnable
    one; ``moves`` then rates every legal move at that point, and ``line`` wins from there),
    "never-lost" (winnable after every move played, or won), "deal-unwinnable" (no line could
    ever win it), or "unknown" (a limit was hit: the loss lies after move ``last_winnable`` and
    at or before move ``first_unwinnable``, where known). ``checked`` lists the prefixes solved.
    """

    game: str
    code: str | None
    played: int
    status: str
    lost_at: int | None
    lost_move: Any | None
    lost_cards: str | None
    moves: tuple[MoveVerdict, ...]
    line: tuple[Any, ...] | None
    last_winnable: int | None
    first_unwinnable: int | None
    checked: tuple[tuple[int, Verdict], ...]
    seconds: float

    @property
    def keeping(self) -> tuple[MoveVerdict, ...]:
        """The moves that would have kept the game winnable where it was lost."""
        return tuple(move for move in self.moves if move.verdict is Verdict.WINNABLE)

    def to_json(self) -> dict[str, Any]:
        return {
            "code": self.code,
            "game": self.game,
            "played": self.played,
            "status": self.status,
            "lost_at": self.lost_at,
            "move": None if self.lost_move is None else str(self.lost_move),
            "cards": self.lost_cards,
            "keeping": [str(move.move) for move in self.keeping],
            "moves": [move.to_json() for move in self.moves],
            "line": None if self.line is None else [str(move) for move in self.line],
            "last_winnable": self.last_winnable,
            "first_unwinnable": self.first_unwinnable,
            "checked": [{"after": after, "verdict": verdict.value} for after, verdict in self.checked],
            "seconds": round(self.seconds, 6),
            "sees": SEES_EVERY_CARD,
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


__all__ = ["SEES_EVERY_CARD", "SEES_PLAYER", "Analysis", "AtlasEntry", "CuratedPage", "Deal", "EndgameResult", "FairHintResult",
           "FairMove", "HintResult", "MoveVerdict", "Replay", "SolveResult", "Tally"]
