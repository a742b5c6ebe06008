"""Hints: which moves keep a solitaire winnable, exactly (`hint`) or from what a player sees
(`fair_hint`), and the move after which a game could no longer be won (`analyze`)."""

from __future__ import annotations

import time
from typing import Any, Sequence

from ..core.adapters import Solitaire
from ..core.verdicts import Limits, SearchResult, Verdict
from ..errors import InputError, UnsupportedError
from ..results import Analysis, FairHintResult, FairMove, HintResult, MoveVerdict, Tally
from .resolve import Rules, Start, after_moves, solitaire_start, with_engine
from .solitaire import winning_cards

#: A hint solves the position and each position one legal move away, each within the limits, and
#: spends at most this many times the time and node limits in all.
HINT_TOTAL = 4


def _within(limits: Limits, ends: float | None, nodes_left: int | None) -> Limits | None:
    """`limits` cut to what is left of a total budget (None when nothing is left)."""
    seconds, nodes = limits.seconds, limits.nodes
    if ends is not None:
        left = ends - time.perf_counter()
        if left <= 0:
            return None
        seconds = left if seconds is None else min(seconds, left)
    if nodes_left is not None:
        if nodes_left <= 0:
            return None
        nodes = nodes_left if nodes is None else min(nodes, nodes_left)
    return Limits(seconds, nodes, limits.memory_bytes)


def _rate_moves(solitaire: Solitaire[Any, Any], position: Any, limits: Limits, seed: int,
                overall: SearchResult[Any] | None = None) -> tuple[SearchResult[Any], tuple[MoveVerdict, ...]]:
    """The position's exact verdict and every legal move's; equal positions are solved once.

    `limits` apply to each solve, and all of them together spend at most `HINT_TOTAL` times the
    time and node limits: moves not reached within that are ``unknown``, never guessed.
    """
    method = solitaire.methods[0]
    ends = None if limits.seconds is None else time.perf_counter() + HINT_TOTAL * limits.seconds
    node_budget = None if limits.nodes is None else HINT_TOTAL * limits.nodes
    if overall is None:
        overall = solitaire.solve(position, method, limits, seed)
    spent = overall.nodes

    def child_verdict(child: Any) -> Verdict:
        nonlocal spent
        bounded = _within(limits, ends, None if node_budget is None else node_budget - spent)
        if bounded is None:
            return Verdict.UNKNOWN  # the total budget is spent
        found = solitaire.solve(child, method, bounded, seed)
        spent += found.nodes
        return found.verdict

    line = overall.line if overall.verdict is Verdict.WINNABLE else None
    if line is not None:
        winning_cards(solitaire, position, line)
    best = line[0] if line else None
    seen: dict[Any, Verdict] = {}
    verdicts = []
    for move in solitaire.legal_moves(position):
        if overall.verdict is Verdict.UNWINNABLE:
            verdict = Verdict.UNWINNABLE  # a move never creates a win that was not there
        else:
            child = solitaire.apply(position, move)
            key = solitaire.key(child)
            if key not in seen:
                seen[key] = Verdict.WINNABLE if move == best else child_verdict(child)
            verdict = seen[key]
        verdicts.append(MoveVerdict(move, solitaire.cards(position, move), verdict))
    return overall, tuple(verdicts)


def hint(
    start: Start,
    *,
    moves: str | Sequence[Any] = "",
    game: str | None = None,
    rules: Rules | None = None,
    limits: Limits | None = None,
    seed: int | None = None,
    engine: str | None = None,
) -> HintResult:
    """After the moves played, which legal moves keep the game winnable (exact: the solver sees every card).

    Solves the position and every position one legal move away (the limits apply to each solve);
    moves that lead to equal positions are solved once, and the whole hint spends at most
    `HINT_TOTAL` times the limits (moves not reached are ``unknown``). `fair_hint` answers from
    what a player sees.
    """
    found = solitaire_start(start, game, rules, "hint")
    solitaire = with_engine(found.solitaire, engine)
    effective = (limits or Limits()).over(solitaire.default_limits)
    started = time.perf_counter()
    position, played = after_moves(solitaire, found.position, moves)
    overall, verdicts = _rate_moves(solitaire, position, effective, seed or 0)
    line = overall.line if overall.verdict is Verdict.WINNABLE else None
    return HintResult(solitaire.name, found.code, len(played), overall.verdict, verdicts, line[0] if line else None,
                      line, time.perf_counter() - started)


#: Fair hints: arrangements sampled by default, and the most that may be asked for.
FAIR_SAMPLES, FAIR_MAX_SAMPLES = 40, 1000
#: Each arrangement (and each move from it) is solved with the search under these limits: the node
#: limit makes the verdicts the same on every machine; the time limit is a safety net.
FAIR_LIMITS = Limits(seconds=5.0, nodes=20_000)
#: The whole fair hint stops drawing arrangements after this many seconds (``stopped: "budget"``).
FAIR_BUDGET, FAIR_MAX_BUDGET = 60.0, 3600.0


def fair_hint(
    start: Start,
    *,
    moves: str | Sequence[Any] = "",
    game: str | None = None,
    rules: Rules | None = None,
    samples: int = FAIR_SAMPLES,
    seed: int = 0,
    limits: Limits | None = None,
    budget: float = FAIR_BUDGET,
) -> FairHintResult:
    """After the moves played, which moves keep the game winnable, judged from what a player sees.

    The hidden cards (under each pile's top; a family game's stock order) are dealt again at
    random `samples` times (seeded with `seed`: the same seed gives the same answer), each time
    consistently with everything the player sees (tops, pile heights, reserve, cards removed);
    each arrangement and each move from it is solved exactly (``limits`` per solve, default
    `FAIR_LIMITS`). For each legal move: in how many arrangements the game stays winnable, with
    a 95% interval. ``budget`` caps the seconds of the whole hint (then fewer samples, said so).
    A separate function rather than a flag of `hint`: it answers a different question, with its
    own parameters and result type.
    """
    from halfmoon.dealcodes.rng import SplitMix64

    if isinstance(samples, bool) or not isinstance(samples, int) or not 1 <= samples <= FAIR_MAX_SAMPLES:
        raise InputError(f"samples {samples!r}: expected a whole number from 1 to {FAIR_MAX_SAMPLES}")
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 1 << 64:
        raise InputError(f"seed {seed!r}: expected a whole number from 0 to 2^64-1")
    if isinstance(budget, bool) or not isinstance(budget, (int, float)) or not 0 < budget <= FAIR_MAX_BUDGET:
        raise InputError(f"budget {budget!r}: expected a positive number of seconds, at most {FAIR_MAX_BUDGET:g}")
    found = solitaire_start(start, game, rules, "hint")
    solitaire = found.solitaire
    if solitaire.conceal is None or solitaire.reveal is None:
        raise UnsupportedError(f"{solitaire.title}: no model of what a player cannot see, so no fair hint")
    effective = (limits or Limits()).over(FAIR_LIMITS)
    method = "search" if "search" in solitaire.methods else solitaire.methods[0]
    started = time.perf_counter()
    position, played = after_moves(solitaire, found.position, moves)
    legal = solitaire.legal_moves(position)
    _, hidden = solitaire.conceal(position)
    known: dict[Any, SearchResult[Any]] = {}
    deadline = started + budget

    class OverBudget(Exception):
        pass

    def solved(where: Any) -> SearchResult[Any]:
        key = solitaire.key(where)
        if key not in known:
            left = deadline - time.perf_counter()
            if left <= 0:
                raise OverBudget
            cut = effective.seconds is None or left < effective.seconds
            result = solitaire.solve(where, method, Limits(left if cut else effective.seconds, effective.nodes,
                                                           effective.memory_bytes), seed)
            if result.verdict is Verdict.UNKNOWN and cut and result.stopped == "time":
                raise OverBudget  # cut short by the budget, not by the per-solve limits: not an answer
            known[key] = result
        return known[key]

    rng = SplitMix64(seed)
    overall = Tally()
    tallies = [Tally() for _ in legal]
    stopped = None
    for _ in range(samples):
        sample = solitaire.rearranged(position, rng)
        try:
            whole = solved(sample)
            best = whole.line[0] if whole.verdict is Verdict.WINNABLE and whole.line else None
            verdicts = [Verdict.UNWINNABLE if whole.verdict is Verdict.UNWINNABLE  # no move creates a win
                        else Verdict.WINNABLE if move == best
                        else solved(solitaire.apply(sample, move)).verdict for move in legal]
        except OverBudget:
            stopped = "budget"  # this arrangement is left out whole: every tally counts the same samples
            break
        overall = overall.add(whole.verdict)
        tallies = [tally.add(verdict) for tally, verdict in zip(tallies, verdicts)]
    rated = tuple(FairMove(move, solitaire.cards(position, move), tally) for move, tally in zip(legal, tallies))
    return FairHintResult(solitaire.name, found.code, len(played), len(hidden), samples, seed, overall, rated,
                          effective, float(budget), len(known), stopped, time.perf_counter() - started)


def analyze(
    start: Start,
    *,
    moves: str | Sequence[Any],
    game: str | None = None,
    rules: Rules | None = None,
    limits: Limits | None = None,
    seed: int | None = None,
) -> Analysis:
    """Where did I go wrong: the first move of a line after which the game could no longer be won.

    Winnability only goes from winnable to unwinnable along a line, so a binary search over the
    prefixes finds that move with about log2(moves) + 2 exact solves (``limits`` each). Then
    every legal move at that point is rated, exactly as `hint` does: the ones that would have
    kept the game winnable, and a winning line from there.
    """
    found = solitaire_start(start, game, rules, "analyze")
    solitaire = found.solitaire
    effective = (limits or Limits()).over(solitaire.default_limits)
    seed_ = seed or 0
    method = solitaire.methods[0]
    started = time.perf_counter()
    _, played = after_moves(solitaire, found.position, moves)
    positions = [found.position]
    for move in played:
        positions.append(solitaire.apply(positions[-1], move))
    results: dict[int, SearchResult[Any]] = {}

    def verdict(after: int) -> Verdict:
        if after not in results:
            results[after] = solitaire.solve(positions[after], method, effective, seed_)
        return results[after].verdict

    def answer(status: str, lost_at: int | None = None, low: int | None = None, high: int | None = None) -> Analysis:
        rated: tuple[MoveVerdict, ...] = ()
        line = lost_move = lost_cards = None
        if lost_at is not None:
            before = positions[lost_at - 1]
            overall, rated = _rate_moves(solitaire, before, effective, seed_, results.get(lost_at - 1))
            line = overall.line
            lost_move = played[lost_at - 1]
            lost_cards = solitaire.cards(before, lost_move)
        checked = tuple((after, results[after].verdict) for after in sorted(results))
        return Analysis(solitaire.name, found.code, len(played), status, lost_at, lost_move, lost_cards, rated, line,
                        low, high, checked, time.perf_counter() - started)

    last = len(played)
    end = verdict(last)
    if end is Verdict.WINNABLE:
        return answer("never-lost", low=last)
    first = verdict(0) if last else end
    if first is Verdict.UNWINNABLE:
        return answer("deal-unwinnable", high=0)
    if first is Verdict.UNKNOWN or end is Verdict.UNKNOWN:
        return answer("unknown", low=0 if first is Verdict.WINNABLE else None,
                      high=last if end is Verdict.UNWINNABLE else None)
    low, high = 0, last  # winnable after `low` moves, unwinnable after `high`
    while high - low > 1:
        middle = (low + high) // 2
        found_here = verdict(middle)
        if found_here is Verdict.UNKNOWN:
            return answer("unknown", low=low, high=high)
        if found_here is Verdict.WINNABLE:
            low = middle
        else:
            high = middle
    return answer("lost", lost_at=high, low=low, high=high)


__all__ = ["FAIR_BUDGET", "FAIR_LIMITS", "FAIR_MAX_BUDGET", "FAIR_MAX_SAMPLES", "FAIR_SAMPLES", "HINT_TOTAL", "analyze",
           "fair_hint", "hint"]
