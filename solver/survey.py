"""Surveys (what share of deals can be won?) and curated generation (winnable deals, rated).

Both drivers are generic over the game registry, run their solves through `core.batch`
(local processes or Dask), and stream every result into the results store as it arrives:
nothing per deal stays in memory after its write, and a run that is interrupted and started
again takes what the store already holds and ends with the same totals.

Statistics follow Solvitaire's winnability tables: the winnable share among decided deals
with a 95% Wilson score interval, the unknowns counted apart, and an interval that counts
them both ways (all lost for the lower end, all won for the upper end).
"""

from __future__ import annotations

import json
import time
from array import array
from collections import deque
from dataclasses import dataclass, field
from functools import partial
from typing import Any, Callable, Iterable, Iterator, cast

from halfmoon.solver.errors import InputError

from .catalogue import from_reference, reference
from .core.adapters import Solitaire
from .core.batch import ExecutorSource, Job, Outcome, run_jobs
from .core.verdicts import Limits, SearchResult
from .rating import (
    DEFAULT_PARAMS,
    RATING_VERSION,
    TIERS,
    Rating,
    RatingParams,
    rate_position,
)
from .stats import TimeHistogram, histogram_svg, quantile, wilson
from .store import ResultStore, StoredRating, StoredResult


@dataclass
class SurveyStats:
    """Running totals of a survey; `summary()` is the JSON summary object."""

    game: str
    solver_version: str
    time_limit: float | None = None
    node_limit: int | None = None
    winnable: int = 0
    unwinnable: int = 0
    unknown: int = 0
    errors: int = 0
    cached: int = 0
    nodes: int = 0
    times: TimeHistogram = field(default_factory=TimeHistogram)
    seconds: array = field(default_factory=lambda: array("d"))  # every solve time: exact quantiles, 8 bytes a deal
    started: float = field(default_factory=time.monotonic)

    @property
    def deals(self) -> int:
        return self.winnable + self.unwinnable + self.unknown

    def add(self, result: StoredResult, cached: bool) -> None:
        if result.verdict == "winnable":
            self.winnable += 1
        elif result.verdict == "unwinnable":
            self.unwinnable += 1
        else:
            self.unknown += 1
        self.errors += result.error is not None
        self.cached += cached
        self.nodes += result.nodes
        self.times.add(result.seconds)
        self.seconds.append(max(0.0, result.seconds))

    def solve_seconds(self) -> dict[str, float]:
        """Exact quantiles of the solve times (the stored times of cached deals included)."""
        if not self.seconds:
            return {"n": 0}
        ordered = sorted(self.seconds)
        return {
            "n": len(ordered),
            "mean": round(sum(ordered) / len(ordered), 6),
            "min": round(ordered[0], 6),
            "median": round(quantile(ordered, 0.5), 6),
            "p90": round(quantile(ordered, 0.9), 6),
            "p99": round(quantile(ordered, 0.99), 6),
            "max": round(ordered[-1], 6),
            "total": round(sum(ordered), 3),
        }

    def histogram_svg(self, title: str) -> str:
        return histogram_svg(self.times, title)

    def summary(self) -> dict[str, Any]:
        decided = self.winnable + self.unwinnable
        share = self.winnable / decided if decided else None
        lo, hi = wilson(self.winnable, decided)
        both_lo = wilson(self.winnable, self.deals)[0]
        both_hi = wilson(self.winnable + self.unknown, self.deals)[1]
        return {
            "game": self.game,
            "solver_version": self.solver_version,
            "deals": self.deals,
            "winnable": self.winnable,
            "unwinnable": self.unwinnable,
            "unknown": self.unknown,
            "errors": self.errors,
            "share": None if share is None else round(share, 6),
            "ci95": [round(lo, 6), round(hi, 6)],
            "ci95_unknowns_both_ways": [round(both_lo, 6), round(both_hi, 6)],
            "cached": self.cached,
            "solved": self.deals - self.cached,
            "nodes": self.nodes,
            "solve_seconds": self.solve_seconds(),
            "wall_seconds": round(time.monotonic() - self.started, 3),
            "time_limit": self.time_limit,
            "node_limit": self.node_limit,
        }


# -- the work a worker does -------------------------------------------------------------------


Ref = tuple[str, Any]  # a solitaire's picklable name (catalogue.reference)


def _stored(solitaire: Solitaire[Any, Any], number: int, result: SearchResult[Any], limits: Limits) -> StoredResult:
    verdict = result.verdict.value
    return StoredResult(
        code=solitaire.code(number),
        game=solitaire.tag,
        number=number,
        solver_version=solitaire.solver_version,
        verdict=verdict,
        line=solitaire.format_line(result.line) if verdict == "winnable" and result.line is not None else None,
        method=result.method,
        nodes=result.nodes,
        seconds=result.seconds,
        time_limit=limits.seconds,
        node_limit=limits.nodes,
        stopped=result.stopped,
    )


def solve_deal(ref: Ref, number: int, limits: Limits, method: str | None) -> StoredResult:
    """Solve one deal (runs on a worker; the game is looked up there by its reference)."""
    solitaire = from_reference(ref)
    result = solitaire.solve(solitaire.deal(number), method or solitaire.methods[0], limits, 0)
    return _stored(solitaire, number, result, limits)


@dataclass(frozen=True)
class RatedDeal:
    """A worker's answer for `generate`: the node-limited solve and, if winnable, its rating."""

    result: StoredResult
    rating: StoredRating | None


def rating_key(params: RatingParams) -> str:
    """The store's rating version: RATING_VERSION, plus the budgets when they are not the defaults."""
    if params == DEFAULT_PARAMS:
        return RATING_VERSION
    p = params
    return (f"{RATING_VERSION}+r{p.random_playouts}g{p.greedy_playouts}s{p.solve_nodes}c{p.child_nodes}"
            f"x{p.seed:x}m{p.method}")


def rating_detail(rating: Rating, line: str) -> str:
    """The stored form of a rating: its JSON and the winning line it was made on."""
    return json.dumps(rating.to_json() | {"line": line}, sort_keys=True, separators=(",", ":"))


def rate_deal(ref: Ref, number: int, params: RatingParams = DEFAULT_PARAMS) -> RatedDeal:
    """Solve one deal within the rating's node budget and rate it if winnable (runs on a worker)."""
    entry = from_reference(ref)
    started = time.perf_counter()
    result, rating = rate_position(entry, entry.deal(number), number, params)
    stored = _stored(entry, number, result, Limits(nodes=params.solve_nodes))
    if rating is None:
        return RatedDeal(stored, None)
    assert stored.line is not None
    return RatedDeal(
        stored,
        StoredRating(
            code=stored.code,
            game=entry.tag,
            number=number,
            solver_version=entry.solver_version,
            rating_version=rating_key(params),
            score=rating.score,
            tier=rating.tier,
            detail=rating_detail(rating, stored.line),
            seconds=time.perf_counter() - started,
        ),
    )


def _failed(solitaire: Solitaire[Any, Any], number: int, outcome: Outcome, limits: Limits) -> StoredResult:
    return StoredResult(
        code=solitaire.code(number), game=solitaire.tag, number=number, solver_version=solitaire.solver_version,
        verdict="unknown", time_limit=limits.seconds, node_limit=limits.nodes,
        error=f"{outcome.error} (after {outcome.attempts} attempts)",
    )


def checked(solitaire: Solitaire[Any, Any], result: StoredResult) -> StoredResult:
    """A reported win whose line does not replay is a solver bug: keep it as an unknown with the reason."""
    if result.verdict == "winnable" and not solitaire.line_wins(result.number, result.line):
        return StoredResult(
            code=result.code, game=result.game, number=result.number, solver_version=result.solver_version,
            verdict="unknown", method=result.method, nodes=result.nodes, seconds=result.seconds,
            time_limit=result.time_limit, node_limit=result.node_limit,
            error="the solver's winning line does not replay through the rules",
        )
    return result


# -- survey ---------------------------------------------------------------------------------


def run_survey(
    solitaire: Solitaire[Any, Any],
    numbers: Iterable[int],
    source: ExecutorSource,
    *,
    store: ResultStore | None = None,
    limits: Limits | None = None,
    method: str | None = None,
    on_result: Callable[[StoredResult, bool, SurveyStats], None] | None = None,
    window: int | None = None,
    lookahead: int = 1024,
) -> SurveyStats:
    """Solve every deal in `numbers` (or take it from the store) and count the verdicts.

    `limits` are completed by the game's defaults, so every solve has a bound.
    """
    entry = solitaire
    limits = (limits or Limits()).over(entry.default_limits)
    ref = reference(entry)
    stats = SurveyStats(entry.name, entry.solver_version, limits.seconds, limits.nodes)

    def count(result: StoredResult, cached: bool) -> None:
        stats.add(result, cached)
        if on_result is not None:
            on_result(result, cached, stats)

    def jobs() -> Iterator[Job]:
        for number in numbers:
            cost = None
            if store is not None:
                code = entry.code(number)
                hit = store.trusted(code, entry.solver_version, partial(entry.line_wins, number),
                                    limits.seconds, limits.nodes)
                if hit is not None:
                    count(hit, True)
                    continue
                cost = store.effort(code)
            yield Job(number, (ref, number, limits, method), cost)

    try:
        idle = store.flush_if_due if store is not None else None
        for outcome in run_jobs(solve_deal, jobs(), source, window=window, lookahead=lookahead, on_idle=idle):
            number = cast(int, outcome.job.key)  # the jobs above are keyed by deal number
            result = checked(entry, outcome.value) if outcome.ok else _failed(entry, number, outcome, limits)
            if store is not None:
                store.put(result)
            count(result, False)
    finally:
        if store is not None:
            store.flush()
    return stats


# -- generate -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Curated:
    """One deal `generate` emits: proved winnable, re-verified, rated."""

    code: str
    number: int
    rating: Rating
    line: str

    def to_json(self) -> dict[str, Any]:
        rating = self.rating.to_json()
        head = {"code": self.code, "number": self.number, "tier": rating.pop("tier"), "score": rating.pop("score")}
        return head | rating | {"line": self.line.split()}


def curated_from_store(entry: Solitaire[Any, Any], rated: StoredRating) -> Curated:
    """A stored rating as a curated deal, its winning line replayed first."""
    detail = json.loads(rated.detail)
    line = detail.pop("line")
    rating = Rating.from_json(detail)
    if not entry.line_wins(rated.number, line):
        raise InputError(f"{rated.code}: the rated winning line does not replay through the rules")
    return Curated(rated.code, rated.number, rating, line)


def _stored_curated(entry: Solitaire[Any, Any], rated: StoredRating) -> Curated | None:
    """A stored rating made by these rules and still consistent, or None to rate the deal again."""
    try:
        return curated_from_store(entry, rated)
    except (ValueError, KeyError, TypeError):  # InputError, InputError, bad JSON: stale or damaged
        return None


def run_generate(
    solitaire: Solitaire[Any, Any],
    numbers: Iterable[int],
    count: int,
    source: ExecutorSource,
    *,
    tier: str | None = None,
    store: ResultStore | None = None,
    params: RatingParams = DEFAULT_PARAMS,
    window: int | None = None,
    max_scan: int | None = None,
    on_scanned: Callable[[int, int], None] | None = None,
) -> Iterator[Curated]:
    """The first `count` deals of `numbers` (in that order) proved winnable and of `tier`.

    Solves run in parallel (at most `window` in flight, a few more read ahead); deals are
    emitted in scan order as soon as every deal before them is settled, so the output does not
    depend on the workers, on Dask or on the store. Deals whose rating or exact `unwinnable`
    verdict is in the store are settled without a job. `on_scanned(settled, emitted)` reports
    progress after each settled deal. `max_scan` stops after that many deals (None: no cap).
    """
    if tier is not None and tier not in TIERS:
        raise InputError(f"tier {tier!r}: expected one of {', '.join(TIERS)}")
    entry = solitaire
    ref = reference(entry)
    window = window or 2 * source.workers
    key = rating_key(params)
    settled: dict[int, Curated | None] = {}  # scan index -> the deal to emit, or None to skip it
    outbox: deque[Curated] = deque()
    state = {"next": 0, "accepted": 0, "emitted": 0, "settled": 0}

    def settle(index: int, curated: Curated | None) -> None:
        if curated is not None and tier is not None and curated.rating.tier != tier:
            curated = None
        settled[index] = curated
        state["accepted"] += curated is not None
        state["settled"] += 1
        while state["next"] in settled:  # hand over the settled prefix, in scan order
            ready = settled.pop(state["next"])
            state["next"] += 1
            if ready is not None and state["emitted"] + len(outbox) < count:
                outbox.append(ready)
        if on_scanned is not None:
            on_scanned(state["settled"], state["emitted"] + len(outbox))

    def jobs() -> Iterator[Job]:
        for index, number in enumerate(numbers):
            if state["accepted"] >= count or (max_scan is not None and index >= max_scan):
                return  # enough deals are settled or on their way, or the scan is over
            if store is not None:
                code = entry.code(number)
                stored = store.get_rating(code, entry.solver_version, key)
                curated = _stored_curated(entry, stored) if stored is not None else None
                if curated is not None:
                    settle(index, curated)
                    continue
                known = store.lookup(code, entry.solver_version)
                if known is not None and known.verdict == "unwinnable":
                    settle(index, None)
                    continue
                yield Job(index, (ref, number, params), store.effort(code))
            else:
                yield Job(index, (ref, number, params))

    def drain() -> Iterator[Curated]:
        while outbox and state["emitted"] < count:
            state["emitted"] += 1
            yield outbox.popleft()

    try:
        idle = store.flush_if_due if store is not None else None
        for outcome in run_jobs(rate_deal, jobs(), source, window=window, lookahead=window, on_idle=idle):
            index = cast(int, outcome.job.key)  # the jobs above are keyed by scan index
            number = outcome.job.args[1]
            if not outcome.ok:
                if store is not None:
                    store.put(_failed(entry, number, outcome, Limits(nodes=params.solve_nodes)))
                settle(index, None)
            else:
                rated_deal: RatedDeal = outcome.value
                result = checked(entry, rated_deal.result)
                if store is not None:
                    store.put(result)
                    if rated_deal.rating is not None:
                        store.put_rating(rated_deal.rating)
                rated = rated_deal.rating if result.verdict == "winnable" else None
                settle(index, curated_from_store(entry, rated) if rated is not None else None)
            yield from drain()
            if state["emitted"] >= count:
                return
        yield from drain()
    finally:
        if store is not None:
            store.flush()
