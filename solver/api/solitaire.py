"""Solving a solitaire deal or position: from the atlas, from the results store, or afresh.

The one check the facade owns: every winning line it gives is replayed through the game's rules
first (`winning_cards`), whoever found it (the solver, the store, a hint), and a line that does
not replay is a `SolverBug` (or, read from the store, passed over).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Sequence

from ..core.adapters import Solitaire
from ..core.verdicts import Limits, Verdict
from ..errors import InputError, SolverBug
from ..results import AtlasEntry, SolveResult
from ..store import ResultStore, StoredResult
from . import atlas as atlas_api
from .resolve import Rules, SolitaireStart, Start, after_moves, method_of, solitaire_start, with_engine


def winning_cards(solitaire: Solitaire[Any, Any], position: Any, line: Sequence[Any]) -> tuple[str, ...]:
    """The cards each move of `line` takes, replaying it through the rules to a win (else a SolverBug)."""
    cards = []
    try:
        for move in line:
            after = solitaire.apply(position, move)  # the rules' own legality check
            cards.append(solitaire.cards(position, move))
            position = after
    except ValueError as error:
        raise SolverBug(f"{solitaire.title}: a winning line does not replay: {error}") from None
    if not solitaire.is_won(position):
        raise SolverBug(f"{solitaire.title}: a winning line does not win when replayed")
    return tuple(cards)


def from_store(
    start: Start,
    *,
    store: ResultStore,
    game: str | None = None,
    rules: Rules | None = None,
    limits: Limits | None = None,
) -> SolveResult | None:
    """The answer `solve` would take from the store for a deal, or None when the store has none it may trust.

    The store's trust rules apply (`solver.store`; a winning line is replayed first) with the
    limits `solve` would use; the answer says ``cached``. Nothing is solved or written.
    """
    found = solitaire_start(start, game, rules, "solve")
    if not found.is_deal:
        raise InputError("the results store keeps deals: give a deal code or a deal number")
    return _from_store(store, found, (limits or Limits()).over(found.solitaire.default_limits))


def solve(
    start: Start,
    *,
    moves: str | Sequence[Any] = "",
    game: str | None = None,
    rules: Rules | None = None,
    method: str | None = None,
    limits: Limits | None = None,
    seed: int | None = None,
    store: ResultStore | None = None,
    atlas: str | Path | Any | None = None,
    verdict_only: bool = False,
    engine: str | None = None,
) -> SolveResult:
    """Whether a solitaire deal or position can be won, exactly, with a winning line replayed through the rules.

    ``unknown`` means a limit was hit (``stopped`` says which), never a guess. With a `store`, a
    deal asked without ``method`` or ``seed`` is answered from it when its trust rules allow
    (``cached`` is then true); every fresh answer for a deal code is written to it.

    With an ``atlas`` (a directory, or an `open_atlas` value), a deal the atlas has decided is
    answered from it (``source`` "atlas", ``cached`` true, no solving) when ``verdict_only`` or
    when it is unwinnable; a winnable deal's line is still solved on demand (store, then solver)
    and replayed; if that solve hits its limit, the answer is the atlas's verdict without a line.
    ``engine`` chooses the search engine where a game has several (Half Moon: "native" or
    "python"); like ``method`` and ``seed``, asking for one always solves afresh.
    """
    found = solitaire_start(start, game, rules, "solve")
    solitaire = with_engine(found.solitaire, engine)
    chosen = method_of(solitaire, method)
    effective = (limits or Limits()).over(solitaire.default_limits)
    position, played = after_moves(solitaire, found.position, moves)
    code = None if played else found.code
    kept = found if found.is_deal and not played else None  # a deal as dealt: what the atlas and the store keep
    if kept is None or method is not None or seed is not None or engine is not None:  # a question they did not answer
        return _keep(store, kept, effective, _fresh(solitaire, position, code, chosen, effective, seed or 0))
    decided = _from_atlas(solitaire, kept, atlas)
    if decided is not None and (verdict_only or decided.verdict is Verdict.UNWINNABLE):
        return _atlas_answer(solitaire, decided)
    result = _from_store(store, kept, effective) or _keep(store, kept, effective,
                                                          _fresh(solitaire, position, code, chosen, effective, 0))
    return result if decided is None else _agreeing(solitaire, decided, result)


def _from_atlas(solitaire: Solitaire[Any, Any], found: SolitaireStart, atlas: Any) -> AtlasEntry | None:
    """What the atlas decided about a deal (None without an atlas, or when it holds no exact verdict for it)."""
    if atlas is None:
        return None
    assert found.code is not None and found.number is not None
    entry = atlas_api.entry(solitaire, found.code, found.number, atlas, strict=False)
    return entry if entry.verdict in (Verdict.WINNABLE, Verdict.UNWINNABLE) else None


def _atlas_answer(solitaire: Solitaire[Any, Any], entry: AtlasEntry, nodes: int = 0, seconds: float | None = None,
                  stopped: str | None = None) -> SolveResult:
    """The atlas's verdict as the answer: no line, nothing solved (or a solve that hit its limit)."""
    assert entry.verdict is not None
    return SolveResult(solitaire.name, entry.code, entry.verdict, None, None, "atlas", nodes,
                       entry.seconds if seconds is None else seconds, entry.solver_version or solitaire.solver_version,
                       stopped, cached=True, source="atlas")


def _agreeing(solitaire: Solitaire[Any, Any], entry: AtlasEntry, result: SolveResult) -> SolveResult:
    """A solve of a deal the atlas decided: it must agree, else it is a bug; out of time, the atlas answers."""
    if result.verdict is entry.verdict:
        return result
    if result.verdict is not Verdict.UNKNOWN:
        assert entry.verdict is not None
        raise SolverBug(f"{entry.code}: the atlas ({entry.shard}) says {entry.verdict.value}, "
                        f"the solver {result.verdict.value}")
    return _atlas_answer(solitaire, entry, result.nodes, result.seconds, result.stopped)


def _from_store(store: ResultStore | None, found: SolitaireStart, limits: Limits) -> SolveResult | None:
    """The store's answer its trust rules allow for a deal under `limits`, its winning line replayed once."""
    if store is None:
        return None
    solitaire = found.solitaire
    replayed: dict[str, tuple[tuple[Any, ...], tuple[str, ...]]] = {}

    def wins(line: str | None) -> bool:
        if line is None:
            return False
        try:
            moves = solitaire.parse_line(line)
            replayed[line] = moves, winning_cards(solitaire, found.position, moves)
        except (ValueError, SolverBug):
            return False
        return True

    assert found.code is not None
    hit = store.trusted(found.code, solitaire.solver_version, wins, limits.seconds, limits.nodes)
    return None if hit is None else _stored_answer(solitaire, hit, found.position, replayed)


def _stored_answer(solitaire: Solitaire[Any, Any], stored: StoredResult, position: Any,
                   replayed: dict[str, tuple[tuple[Any, ...], tuple[str, ...]]]) -> SolveResult:
    moves = cards = None
    if stored.line is not None:
        if stored.line not in replayed:  # a line the store did not ask about (not of a winnable row)
            parsed = solitaire.parse_line(stored.line)
            replayed[stored.line] = parsed, winning_cards(solitaire, position, parsed)
        moves, cards = replayed[stored.line]
    return SolveResult(
        solitaire.name, stored.code, Verdict(stored.verdict), moves, cards, stored.method or "none", stored.nodes,
        stored.seconds, stored.solver_version, stored.stopped, cached=True, source="store",
    )


def _fresh(solitaire: Solitaire[Any, Any], position: Any, code: str | None, method: str, limits: Limits,
           seed: int) -> SolveResult:
    """Solve now; a winning line is replayed through the rules before it is given."""
    found = solitaire.solve(position, method, limits, seed)
    moves = found.line if found.verdict is Verdict.WINNABLE else None
    return SolveResult(
        solitaire.name, code, found.verdict, moves, winning_cards(solitaire, position, moves) if moves is not None
        else None, found.method, found.nodes, found.seconds, solitaire.solver_version, found.stopped,
        stats=found.stats, limits=limits, engine=found.stats.get("engine"),
    )



def _keep(store: ResultStore | None, kept: SolitaireStart | None, limits: Limits, result: SolveResult) -> SolveResult:
    """`result`, written to the store first when it answers a deal as dealt (`limits`: those it ran under)."""
    if store is not None and kept is not None:
        assert kept.number is not None
        store.put(result.to_stored(kept.solitaire.tag, kept.number, limits))
        store.flush()
    return result


__all__ = ["from_store", "solve"]
