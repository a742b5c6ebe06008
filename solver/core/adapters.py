"""What a game gives the catalogue: the contracts the facade, the batch runner and the CLI rely on.

A solitaire is described by a `Solitaire` record of plain functions (no state, so a worker
process can rebuild it by its tag); a multiplayer game by an `EndgameAdapter` object around its
exact-core `Game`. Both live in the game's own package (`adapter.py`); the catalogue
(`solver.catalogue`) lists them explicitly. Nothing here imports a game.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Generic, Hashable, Iterator, Mapping, Protocol, Sequence, TypeVar, runtime_checkable

from ..errors import UnsupportedError
from .game import Game, Question
from .verdicts import Limits, SearchResult

P = TypeVar("P")
M = TypeVar("M")


@dataclass(frozen=True)
class Solitaire(Generic[P, M]):
    """One solitaire as the facade, the batch commands, the store and the rating see it.

    Positions and moves are the game's own immutable values; ``str(move)`` is the move's text
    and ``parse_line`` reads it back. ``solve`` takes limits as given (None: no limit of that
    kind) and returns a line replayed through the rules; the facade applies ``default_limits``.
    """

    tag: str  # the deal-code tag, e.g. "HM"
    name: str  # e.g. "halfmoon", "elevens", or a rule file's name
    title: str  # e.g. "Half Moon"
    solver_version: str  # the results store keys on it
    methods: tuple[str, ...]  # the first is the default
    default_limits: Limits
    deal: Callable[[int], P]
    code: Callable[[int], str]
    position_from_json: Callable[[Any], P]
    position_to_json: Callable[[P], dict[str, Any]]
    describe: Callable[[P, bool, bool], str]  # the position drawn as text (suits as symbols; every card)
    solve: Callable[[P, str, Limits, int], SearchResult[M]]  # (position, method, limits, seed)
    parse_line: Callable[[str], tuple[M, ...]]
    replay: Callable[[P, str | Sequence[M]], tuple[P, tuple[M, ...]]]  # raises LineError
    legal_moves: Callable[[P], Sequence[M]]
    apply: Callable[[P, M], P]
    is_won: Callable[[P], bool]
    is_dead: Callable[[P], bool]
    cards: Callable[[P, M], str]  # the cards a move takes, e.g. "5S+6D"
    key: Callable[[P], Hashable] = lambda position: position  # equal keys, equal futures
    points: Callable[[M], int] | None = None  # a move's score, where the game keeps one
    greedy_score: Callable[[P, M], int] | None = None  # a player's rule of thumb, for the rating
    tiers: tuple[str, ...] = ("easy", "medium", "hard", "expert")  # the rating tiers its deals can reach
    extra: Mapping[str, Any] = field(default_factory=dict)  # e.g. the rule set of a rule-file game
    engines: tuple[str, ...] = ()  # the engines `with_engine` offers (empty: one engine)
    with_engine: Callable[[str], Solitaire[P, M]] | None = None  # the same game solved by that engine
    engine_warning: Callable[[], str | None] | None = None  # one line when the default engine fell back
    # Fair hints (what a player cannot see; None: the game has no such model). `conceal` splits a
    # position into what a player sees (a hashable view) and the hidden cards, slot by slot in a
    # fixed order; `reveal` puts cards back into those slots in that order. A player who knows the
    # deck knows the hidden cards as a multiset, never their order.
    conceal: Callable[[P], tuple[Hashable, tuple[Any, ...]]] | None = None
    reveal: Callable[[P, Sequence[Any]], P] | None = None

    def rearranged(self, position: P, rng: Any) -> P:
        """`position` with its hidden cards dealt again among their places, shuffled by `rng` (a
        `SplitMix64`): everything a player sees stays as it is (`conceal`'s view, the cards removed)."""
        if self.conceal is None or self.reveal is None:
            raise UnsupportedError(f"{self.title}: no model of what a player cannot see")
        cards = list(self.conceal(position)[1])
        rng.shuffle(cards)
        return self.reveal(position, cards)

    def format_line(self, moves: Sequence[M]) -> str:
        return " ".join(map(str, moves))

    def wins(self, position: P, moves: Sequence[M]) -> bool:
        """Whether `moves` replay through the rules from `position` to a win (the independent check)."""
        try:
            end, _ = self.replay(position, moves)
        except ValueError:
            return False
        return self.is_won(end)

    def line_wins(self, number: int, line: str | None) -> bool:
        """Whether a stored or reported line (text) wins deal `number`, replayed on a fresh deal."""
        if line is None:
            return False
        try:
            moves = self.parse_line(line)
        except ValueError:
            return False
        return self.wins(self.deal(number), moves)


@dataclass(frozen=True)
class Ask:
    """One question put to the solver, with the words for its values.

    `id` is stable for JSON ("win-loss", "seat-2-avoid-shithead"), `text` a sentence for people,
    `words` maps values to words ({1: "win", 0: "draw", -1: "loss"}); values without a word are
    shown as numbers (score differences).
    """

    id: str
    text: str
    question: Question
    words: Mapping[int, str] = field(default_factory=dict)
    seat: int | None = None  # the seat the question is about, if one

    def word(self, value: int | None) -> str:
        if value is None:
            return "unknown"
        return self.words.get(value, str(value))


@runtime_checkable
class EndgameAdapter(Protocol):
    """What `halfmoon endgame GAME` needs from a game (see the module docstring)."""

    name: str  # the CLI's GAME argument, e.g. "shithead"
    title: str  # e.g. "Shithead"
    game: Game[Any, Any]

    def position_from_json(self, data: Any) -> Any:
        """A position from its documented JSON shape; errors are ValueError subclasses naming the field."""
        ...

    def position_to_json(self, position: Any) -> dict[str, Any]:
        """The same JSON shape back (``position_from_json(position_to_json(p)) == p``)."""
        ...

    def position_from_code(self, code: str, moves: str = "") -> Any:
        """The dealt position of a deal code, then `moves` (the game's move notation) played."""
        ...

    def until_endgame(self, position: Any, seed: int) -> tuple[Any, list[Any]]:
        """Play on with the game's fixed policy, seeded with `seed`, until its endgame starts (e.g.
        the stock is empty); returns the position reached and the moves played."""
        ...

    def asks(self, position: Any) -> list[Ask]:
        """The questions to answer about `position` (e.g. win/loss for two players)."""
        ...

    def format_move(self, position: Any, move: Any) -> str:
        """The move in the game's notation, as played from `position`."""
        ...

    def move_note(self, position: Any, move: Any) -> str:
        """Extra facts a reader needs about a move ("" if none), e.g. which face-down card it turns."""
        ...

    def describe(self, position: Any) -> str:
        """Several lines of text showing the position to a person."""
        ...

    def notes(self, position: Any) -> list[str]:
        """Caveats printed with every answer (e.g. double-dummy assumptions)."""
        ...

    def sample_positions(self, seed: int, count: int) -> Iterator[Any]:
        """Start positions for the conformance test (e.g. deals from seeded codes)."""
        ...

    # Optional, looked up with getattr by `answer`:
    #   extra_answers(position, limits) -> list[dict]  answers beyond the exact questions, each with
    #       "id", "text", "status" and e.g. a "line" (a max^n line, labelled as not a guarantee);
    #   extra(position) -> dict  structured facts shown with the answer.


