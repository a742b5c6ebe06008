"""Difficulty rating of a winnable deal: measures a player feels, one score, four tiers.

Reproducible byte for byte, on any machine and in any run: every search here is bounded by
*nodes* (never by time), playouts draw from `SplitMix64` seeded with the deal number, and the
score is computed in exact fractions before it is rounded to one decimal.

The measures (all from the game's own rules through the registry hooks):

- ``random``: share of playouts choosing uniformly among legal moves that win;
- ``greedy``: the same for a rule-of-thumb player (the game's ``greedy_score``, ties at random);
- ``traps``: positions along the solver's winning line where at least one legal move loses
  (its child is *proved* unwinnable), out of the line's positions;
- ``first_losing``: how many of the first position's legal moves lose;
- ``nodes``: the search effort the solver needed to find the win.

Score (0 = trivial, 100 = hardest), weights in `WEIGHTS`:
``100 * (0.10 (1-random) + 0.20 (1-greedy) + 0.40 traps/positions + 0.10 first_losing/first_moves
+ 0.20 min(1, bits(nodes)/bits(solve_nodes)))``, rounded half-even to one decimal.
Tiers cut the score at `TIER_CUTS`, measured over many deals (docs/curation.md says how).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Hashable, Mapping

from halfmoon.dealcodes.rng import MASK64, SplitMix64
from halfmoon.solver.errors import InputError

from .core.adapters import Solitaire
from .core.verdicts import Limits

RATING_VERSION = "1"
TIERS = ("easy", "medium", "hard", "expert")

#: Weights of the difficulty components (they sum to 1).
WEIGHTS = {
    "random": Fraction(10, 100),
    "greedy": Fraction(20, 100),
    "traps": Fraction(40, 100),
    "first": Fraction(10, 100),
    "effort": Fraction(20, 100),
}

#: Lowest score of medium, hard and expert: the 40%, 70% and 90% points of the scores of 150
#: winnable Half Moon deals (`benchmarks/survey_rating.py --count 150 --seed 1`, measures in
#: benchmarks/results/rating_hm.jsonl; docs/curation.md). Changing them means a new RATING_VERSION.
TIER_CUTS: tuple[float, float, float] = (45.5, 53.6, 62.5)


@dataclass(frozen=True)
class RatingParams:
    """Budgets of one rating. Changing any default changes ratings: bump RATING_VERSION."""

    random_playouts: int = 64
    greedy_playouts: int = 64
    solve_nodes: int = 200_000
    child_nodes: int = 1_000
    seed: int = 0x48616C664D6F6F6E  # "HalfMoon"
    method: str = "search"  # node-bounded only: a portfolio with wall-clock phases would not reproduce


DEFAULT_PARAMS = RatingParams()


def tier_of(score: float, cuts: tuple[float, float, float] = TIER_CUTS) -> str:
    """The tier of a score: monotone (a higher score never gets an easier tier)."""
    return TIERS[sum(score >= cut for cut in cuts)]


@dataclass(frozen=True)
class Rating:
    """The measures of one deal and the score and tier made from them (JSON round-trips)."""

    random_wins: int
    random_playouts: int
    greedy_wins: int
    greedy_playouts: int
    positions: int
    traps: int
    first_moves: int
    first_losing: int
    unresolved: int
    nodes: int
    solve_nodes: int
    version: str = RATING_VERSION
    score: float = field(init=False)
    tier: str = field(init=False)

    def __post_init__(self) -> None:
        if not (0 <= self.random_wins <= self.random_playouts and 0 <= self.greedy_wins <= self.greedy_playouts):
            raise InputError(f"rating: playout wins exceed playouts ({self.random_wins}/{self.random_playouts}, "
                              f"{self.greedy_wins}/{self.greedy_playouts})")
        if not (0 <= self.traps <= self.positions and 0 <= self.first_losing <= self.first_moves):
            raise InputError(f"rating: traps {self.traps}/{self.positions} or first losing moves "
                              f"{self.first_losing}/{self.first_moves} out of range")
        object.__setattr__(self, "score", self._score())
        object.__setattr__(self, "tier", tier_of(self.score))

    def _score(self) -> float:
        def share(part: int, whole: int) -> Fraction:
            return Fraction(part, whole) if whole else Fraction(0)

        effort = min(Fraction(1), share(max(self.nodes, 1).bit_length(), max(self.solve_nodes, 2).bit_length()))
        total = (
            WEIGHTS["random"] * (1 - share(self.random_wins, self.random_playouts))
            + WEIGHTS["greedy"] * (1 - share(self.greedy_wins, self.greedy_playouts))
            + WEIGHTS["traps"] * share(self.traps, self.positions)
            + WEIGHTS["first"] * share(self.first_losing, self.first_moves)
            + WEIGHTS["effort"] * effort
        )
        return round(total * 1000) / 10  # round() on a Fraction is exact, half to even

    def to_json(self) -> dict[str, Any]:
        return {
            "score": self.score,
            "tier": self.tier,
            "random": [self.random_wins, self.random_playouts],
            "greedy": [self.greedy_wins, self.greedy_playouts],
            "traps": self.traps,
            "positions": self.positions,
            "first_moves": self.first_moves,
            "first_losing": self.first_losing,
            "unresolved": self.unresolved,
            "nodes": self.nodes,
            "solve_nodes": self.solve_nodes,
            "rating_version": self.version,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Rating:
        try:
            rating = cls(
                random_wins=data["random"][0],
                random_playouts=data["random"][1],
                greedy_wins=data["greedy"][0],
                greedy_playouts=data["greedy"][1],
                positions=data["positions"],
                traps=data["traps"],
                first_moves=data["first_moves"],
                first_losing=data["first_losing"],
                unresolved=data["unresolved"],
                nodes=data["nodes"],
                solve_nodes=data["solve_nodes"],
                version=data["rating_version"],
            )
        except (KeyError, IndexError, TypeError) as error:
            raise InputError(f"rating JSON: missing or malformed field {error}") from None
        for name in ("score", "tier"):
            if name in data and data[name] != getattr(rating, name):
                raise InputError(f"rating JSON: {name} {data[name]!r} does not follow from the measures "
                                  f"({getattr(rating, name)!r})")
        return rating


def verdict_of(result: Any) -> str:
    """A solver result's verdict as plain text (the solver uses a str enum)."""
    verdict = result.verdict
    return str(getattr(verdict, "value", verdict))


def _stream(seed: int, deal_seed: int, purpose: int) -> SplitMix64:
    """An independent generator per (rating seed, deal, purpose)."""
    mixer = SplitMix64((seed ^ (deal_seed * 0x9E3779B97F4A7C15) ^ (purpose << 56)) & MASK64)
    return SplitMix64(mixer.next())


def playout(entry: Solitaire[Any, Any], position: Any, rng: SplitMix64, greedy: bool) -> bool:
    """Play to the end choosing uniformly among legal moves (or among the greedy-best ones)."""
    while not entry.is_won(position):
        moves = entry.legal_moves(position)
        if not moves:
            return False
        if greedy and entry.greedy_score is not None:
            scores = [entry.greedy_score(position, move) for move in moves]
            best = max(scores)
            moves = [move for move, score in zip(moves, scores) if score == best]
        position = entry.apply(position, moves[rng.below(len(moves))] if len(moves) > 1 else moves[0])
    return True


def playouts(entry: Solitaire[Any, Any], position: Any, rng: SplitMix64, count: int, greedy: bool) -> int:
    """How many of `count` playouts from `position` win, all drawing from `rng` in turn.

    A game may run them natively (``entry.extra["playouts"]``, e.g. the Half Moon kernel): it
    must draw exactly as `playout` does, so the rating does not depend on which ran.
    """
    fast = entry.extra.get("playouts")
    if fast is not None:
        wins = fast(position, rng, count, greedy)
        if wins is not None:
            return wins
    return sum(playout(entry, position, rng, greedy) for _ in range(count))


class _ChildVerdicts:
    """Verdicts of positions off the winning line, each solved once (memo on the game's key)."""

    def __init__(self, entry: Solitaire[Any, Any], node_limit: int, method: str) -> None:
        self.entry = entry
        self.node_limit = node_limit
        self.method = method
        self.memo: dict[Hashable, str] = {}

    def verdict(self, position: Any) -> str:
        key = self.entry.key(position)
        found = self.memo.get(key)
        if found is None:
            if self.entry.is_won(position):
                found = "winnable"
            else:
                found = verdict_of(self.entry.solve(position, self.method, Limits(nodes=self.node_limit), 0))
            self.memo[key] = found
        return found


def rate_line(entry: Solitaire[Any, Any], start: Any, line: tuple[Any, ...], nodes: int, deal_seed: int,
              params: RatingParams = DEFAULT_PARAMS) -> Rating:
    """Rate a deal from its start position and a winning line the solver found with `nodes`."""
    if not entry.wins(start, line):
        raise InputError("rating: the winning line does not win when replayed through the rules")
    random_rng = _stream(params.seed, deal_seed, 1)
    greedy_rng = _stream(params.seed, deal_seed, 2)
    random_wins = playouts(entry, start, random_rng, params.random_playouts, False)
    greedy_wins = playouts(entry, start, greedy_rng, params.greedy_playouts, True)

    children = _ChildVerdicts(entry, params.child_nodes, params.method)
    traps = unresolved = first_moves = first_losing = 0
    position = start
    for index, chosen in enumerate(line):
        following = entry.apply(position, chosen)
        on_line = entry.key(following)
        moves = entry.legal_moves(position)
        trapped = False
        for move in moves:
            if move == chosen:
                continue
            child = entry.apply(position, move)
            if entry.key(child) == on_line:
                continue
            verdict = children.verdict(child)
            unresolved += verdict == "unknown"
            if verdict == "unwinnable":
                trapped = True
                if index == 0:
                    first_losing += 1
                else:
                    break  # one losing move makes a trap; only the first position counts them all
        if index == 0:
            first_moves = len(moves)
        traps += trapped
        position = following
    return Rating(
        random_wins=random_wins,
        random_playouts=params.random_playouts,
        greedy_wins=greedy_wins,
        greedy_playouts=params.greedy_playouts,
        positions=len(line),
        traps=traps,
        first_moves=first_moves,
        first_losing=first_losing,
        unresolved=unresolved,
        nodes=nodes,
        solve_nodes=params.solve_nodes,
    )


def rate_position(entry: Solitaire[Any, Any], start: Any, deal_seed: int, params: RatingParams = DEFAULT_PARAMS) -> tuple[Any, Rating | None]:
    """Solve `start` within the rating's node budget and rate it if it is winnable.

    Returns the solver result and the rating (None unless the verdict is winnable).
    """
    result = entry.solve(start, params.method, Limits(nodes=params.solve_nodes), 0)
    if verdict_of(result) != "winnable":
        return result, None
    assert result.line is not None
    return result, rate_line(entry, start, tuple(result.line), result.nodes, deal_seed, params)
