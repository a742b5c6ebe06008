"""Many deals at once, and the curated feed: surveys, generating rated deals, rating one deal.

Batches run on local worker processes or an existing Dask cluster (`executor`), resumable
through the results store; the curated feed is read from the store, each line replayed first.
"""

from __future__ import annotations

from contextlib import contextmanager
from typing import Any, Callable, Iterable, Iterator

from halfmoon.dealcodes import parse_code

from .. import catalogue
from ..core.adapters import Solitaire
from ..core.verdicts import Limits
from ..errors import InputError, UnsupportedError
from ..results import CuratedPage
from ..store import ResultStore
from .resolve import Rules, Start, method_of, solitaire_of, solitaire_start


@contextmanager
def executor(workers: int | None, dask: str | None) -> Iterator[Any]:
    """Where a batch runs: local worker processes (`workers`, default all cores) or a Dask cluster, closed after."""
    from ..core.batch import make_source

    source = make_source(workers, dask)
    try:
        yield source
    finally:
        source.close()


def survey_game(game: str = "HM", rules: Rules | None = None) -> Solitaire[Any, Any]:
    """The solitaire a survey or a scan for curated deals runs on."""
    solitaire = solitaire_of(game if rules is None else None, rules)
    if solitaire is None:
        raise UnsupportedError(f"{catalogue.info(game).title} is a multiplayer game: surveys are for solitaires")
    return solitaire


def survey(
    game: str = "HM",
    numbers: Iterable[int] = range(1000),
    *,
    rules: Rules | None = None,
    workers: int | None = None,
    dask: str | None = None,
    store: ResultStore | None = None,
    limits: Limits | None = None,
    method: str | None = None,
    on_result: Callable[..., None] | None = None,
) -> Any:
    """Solve every deal in `numbers` (or take it from the store) and count the verdicts (a `SurveyStats`).

    Runs on local worker processes (``workers``, default all cores) or an existing Dask cluster
    (``dask``: the scheduler's address); resumable through the store.
    """
    from ..survey import run_survey

    solitaire = survey_game(game, rules)
    effective = (limits or Limits()).over(solitaire.default_limits)
    chosen = method_of(solitaire, method) if method is not None else None
    with executor(workers, dask) as source:
        return run_survey(solitaire, numbers, source, store=store, limits=effective, method=chosen,
                          on_result=on_result)


def generate(
    game: str = "HM",
    count: int = 10,
    *,
    tier: str | None = None,
    numbers: Iterable[int] | None = None,
    rules: Rules | None = None,
    workers: int | None = None,
    dask: str | None = None,
    store: ResultStore | None = None,
    max_scan: int | None = None,
    on_scanned: Callable[[int, int], None] | None = None,
) -> Iterator[Any]:
    """The first `count` deals of `numbers` (default: from deal 0 up) proved winnable and rated (`Curated`).

    A tier the game's deals cannot reach is refused at once; ``max_scan`` stops the scan after
    that many deals.
    """
    from halfmoon.dealcodes import DEAL_COUNT

    from ..survey import run_generate

    solitaire = survey_game(game, rules)
    if tier is not None and tier not in solitaire.tiers:
        raise UnsupportedError(
            f"tier {tier!r}: no deal of {solitaire.title} rates {tier} (its deals rate {', '.join(solitaire.tiers)}"
            + (": every way of playing a deal ends the same)" if solitaire.tiers == ("easy",) else ")"))
    with executor(workers, dask) as source:
        yield from run_generate(solitaire, numbers if numbers is not None else range(DEAL_COUNT), count, source,
                                tier=tier, store=store, max_scan=max_scan, on_scanned=on_scanned)


def _rating(params: Any) -> tuple[Any, str]:
    from ..rating import DEFAULT_PARAMS
    from ..survey import rating_key

    params = params or DEFAULT_PARAMS
    return params, rating_key(params)


def rate(start: Start, *, game: str | None = None, rules: Rules | None = None, params: Any = None) -> Any:
    """Solve a deal within the rating's node budget and rate it when winnable: the records `generate` stores.

    A `RatedDeal` (``result``: a `StoredResult`; ``rating``: a `StoredRating`, or None when the
    deal is not proved winnable). ``params``: the rating's budgets (`RatingParams`; default the
    standard ones). A reported win whose line does not replay is kept as `unknown` with the reason.
    """
    from ..survey import RatedDeal, checked, rate_deal

    found = solitaire_start(start, game, rules, "rate")
    if found.number is None:
        raise InputError("rate takes a deal code or a deal number")
    params, _ = _rating(params)
    rated = rate_deal(catalogue.reference(found.solitaire), found.number, params)
    result = checked(found.solitaire, rated.result)
    return RatedDeal(result, rated.rating if result.verdict == "winnable" else None)


def curation_state(store: ResultStore, start: Start, *, game: str | None = None, rules: Rules | None = None,
                   params: Any = None) -> str | None:
    """Whether the store settled a deal for curation: ``rated`` (in the feed), ``settled`` (proved
    unwinnable, or undecided within the rating's budget), or None (rate it)."""
    found = solitaire_start(start, game, rules, "rate")
    if found.code is None:
        raise InputError("curation is about deals: give a deal code or a deal number")
    params, key = _rating(params)
    return store.curation_state(found.code, found.solitaire.solver_version, key, params.solve_nodes)


def curated(
    store: ResultStore,
    game: str = "HM",
    *,
    rules: Rules | None = None,
    tier: str | None = None,
    after: str | None = None,
    count: int = 10,
    params: Any = None,
) -> CuratedPage:
    """Up to `count` rated winnable deals of the store's curated feed, after the deal `after` (a cursor).

    Deals come in the order they were curated (`generate` only appends, so a cursor stays valid);
    each winning line is replayed through the rules first, and a stored deal whose line no longer
    replays is passed over (counted in ``skipped``), never given.
    """
    from ..rating import TIERS
    from ..survey import curated_from_store

    solitaire = survey_game(game, rules)
    if tier is not None and tier not in TIERS:
        raise InputError(f"tier {tier!r}: expected one of {', '.join(TIERS)}")
    if isinstance(count, bool) or not isinstance(count, int) or count < 1:
        raise InputError(f"count {count!r}: expected a whole number of at least 1")
    params, key = _rating(params)
    cursor = None
    if after is not None:
        parsed = parse_code(after)
        cursor = str(parsed)
        if parsed.game != solitaire.tag:
            raise InputError(f"after {cursor}: not a {solitaire.title} deal code")
    deals: list[Any] = []
    last, skipped = cursor, 0
    while len(deals) < count:
        wanted = count - len(deals) + 16  # a few spare rows: a line that does not replay is skipped
        rows = store.feed(solitaire.tag, solitaire.solver_version, key, tier, last, wanted)
        for row in rows:
            last = row.code
            try:
                deals.append(curated_from_store(solitaire, row))
            except (ValueError, KeyError, TypeError):  # a line that does not replay, or a damaged row
                skipped += 1
            if len(deals) == count:
                break
        if len(rows) < wanted:
            break
    return CuratedPage(solitaire.name, tier, count, cursor, tuple(deals), last, solitaire.solver_version, key,
                       skipped)



__all__ = ["curated", "curation_state", "generate", "rate", "survey"]
