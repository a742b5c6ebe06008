"""Half Moon as a CP-SAT model: one removal time per card, partners chosen by Booleans.

Model (exact, no relaxation):
- every card gets a removal time ``t`` in ``0 … G-1`` (G = number of groups left);
- down each pile, a card is removed strictly before the card it covers (only the top of
  a pile is playable, so no move takes two cards of one pile);
- every rank-r card (A … 10) is matched to exactly one rank-(11−r) card of another pile
  or the reserve, every jack to exactly one queen and one king, every queen and king to
  exactly one jack; matched cards share their removal time.

A solution is a set of groups and times consistent with every pile order, so playing the
groups by increasing time (ties in any order: tied groups never share a pile) is a legal
winning line. Conversely every winning line gives such times (its move numbers). So
INFEASIBLE is a proof the position is lost; a limit hit is `unknown`.

Deterministic by default: fixed `random_seed`, one worker. Time limits are given both in
wall seconds (to honour the user's limit) and optionally in CP-SAT's deterministic time
(so a portfolio phase stops at the same point on every machine).
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass
from typing import Any

from halfmoon.dealcodes.cards import JACK, KING, QUEEN
from halfmoon.solver.core.verdicts import Verdict
from halfmoon.solver.games.halfmoon.rules import Move, Place, Position

try:  # ortools is a declared dependency; import lazily-friendly for clearer errors
    from ortools.sat.python import cp_model
except ImportError as error:  # pragma: no cover - exercised only on broken installs
    raise ImportError("the CP-SAT solver needs ortools: pip install ortools") from error


@dataclass(frozen=True)
class CpsatResult:
    """Verdict of one CP-SAT run; `moves` is a winning line (not yet replayed) or None."""

    verdict: Verdict
    moves: tuple[Move, ...] | None
    branches: int
    conflicts: int
    seconds: float
    status: str


@dataclass(frozen=True)
class _Card:
    place: Place
    rank: int
    pile: int  # -1 for the reserve


def _cards(position: Position) -> list[_Card]:
    cards = []
    for index, pile in enumerate(position.piles):
        for card in pile:
            cards.append(_Card(Place(False, index), card.rank, index))
    for index, card in enumerate(position.reserve):
        if card is not None:
            cards.append(_Card(Place(True, index), card.rank, -1))
    return cards


def balanced(position: Position) -> bool:
    """Counts of r and 11−r are equal for every r, and J = Q = K (else no win exists)."""
    counts = [0] * 14
    for card in position.all_cards():
        counts[card.rank] += 1
    return all(counts[r] == counts[11 - r] for r in range(1, 6)) and counts[JACK] == counts[QUEEN] == counts[KING]


def build_model(position: Position) -> tuple[cp_model.CpModel, list[_Card], list[Any], dict, int]:
    """The model, its cards, their time variables, the matching Booleans and G."""
    cards = _cards(position)
    model = cp_model.CpModel()
    faces = sum(card.rank >= JACK for card in cards)
    groups = (len(cards) - faces) // 2 + faces // 3
    horizon = max(groups - 1, 0)
    # Tighten domains: a card with k cards above it waits for k earlier moves; one with k
    # cards below it leaves k later moves.
    depth_above: dict[int, int] = {}
    depth_below: dict[int, int] = {}
    offset = 0
    for pile in position.piles:
        for k in range(len(pile)):
            depth_below[offset + k] = k
            depth_above[offset + k] = len(pile) - 1 - k
        offset += len(pile)
    times = []
    for index, card in enumerate(cards):
        low = depth_above.get(index, 0)
        high = horizon - depth_below.get(index, 0)
        times.append(model.NewIntVar(low, max(low, high), f"t{index}"))
    offset = 0
    for pile in position.piles:
        for k in range(1, len(pile)):
            model.Add(times[offset + k] < times[offset + k - 1])
        offset += len(pile)
    by_rank: dict[int, list[int]] = {rank: [] for rank in range(1, 14)}
    for index, card in enumerate(cards):
        by_rank[card.rank].append(index)
    links: dict[tuple[int, int], Any] = {}

    def link(a: int, b: int) -> Any | None:
        if cards[a].pile >= 0 and cards[a].pile == cards[b].pile:
            return None  # two cards of one pile are never playable together
        var = model.NewBoolVar(f"m{a}_{b}")
        model.Add(times[a] == times[b]).OnlyEnforceIf(var)
        links[(a, b)] = var
        return var

    def exactly_one(vars_: list[Any]) -> None:
        if vars_:
            model.AddExactlyOne(vars_)
        else:
            model.AddBoolOr([])  # no partner at all: infeasible

    for low in range(1, 6):
        high = 11 - low
        grid = {(a, b): link(a, b) for a in by_rank[low] for b in by_rank[high]}
        for a in by_rank[low]:
            exactly_one([v for (x, _), v in grid.items() if x == a and v is not None])
        for b in by_rank[high]:
            exactly_one([v for (_, y), v in grid.items() if y == b and v is not None])
    jq = {(j, q): link(j, q) for j in by_rank[JACK] for q in by_rank[QUEEN]}
    jk = {(j, k): link(j, k) for j in by_rank[JACK] for k in by_rank[KING]}
    for j in by_rank[JACK]:
        exactly_one([v for (x, _), v in jq.items() if x == j and v is not None])
        exactly_one([v for (x, _), v in jk.items() if x == j and v is not None])
    for q in by_rank[QUEEN]:
        exactly_one([v for (_, y), v in jq.items() if y == q and v is not None])
    for k in by_rank[KING]:
        exactly_one([v for (_, y), v in jk.items() if y == k and v is not None])
    # Symmetry: reserve cards of one rank are interchangeable, so order their times.
    for rank in range(1, 14):
        spare = [i for i in by_rank[rank] if cards[i].pile < 0]
        for a, b in zip(spare, spare[1:]):
            model.Add(times[a] <= times[b])
    return model, cards, times, links, groups


def solve_cpsat(
    position: Position,
    time_limit: float | None = None,
    deterministic_limit: float | None = None,
    seed: int = 0,
    workers: int = 1,
    conflict_limit: int | None = None,
) -> CpsatResult:
    """Decide `position` with CP-SAT. Ctrl-C stops the solver and re-raises KeyboardInterrupt.

    `conflict_limit` stops the search after that many conflicts (a node limit's share: a
    conflict costs at least one branch).
    """
    started = time.perf_counter()
    if not position.cards_left:
        return CpsatResult(Verdict.WINNABLE, (), 0, 0, 0.0, "TRIVIAL")
    if not balanced(position):
        return CpsatResult(Verdict.UNWINNABLE, None, 0, 0, time.perf_counter() - started, "UNBALANCED")
    model, cards, times, links, groups = build_model(position)
    solver = cp_model.CpSolver()
    params = solver.parameters
    params.random_seed = seed
    params.num_workers = workers
    params.catch_sigint_signal = False
    # Measured on HM1 deals: probing costs more than it finds on this model (about 30% faster
    # without it on both winnable and unwinnable deals).
    params.cp_model_probing_level = 0
    if time_limit is not None:
        params.max_time_in_seconds = max(time_limit, 0.001)
    if deterministic_limit is not None:
        params.max_deterministic_time = deterministic_limit
    if conflict_limit is not None:
        params.max_number_of_conflicts = max(1, conflict_limit)
    status = _solve_interruptibly(solver, model)
    seconds = time.perf_counter() - started
    name = solver.StatusName(status)
    branches, conflicts = solver.NumBranches(), solver.NumConflicts()
    if status == cp_model.INFEASIBLE:
        return CpsatResult(Verdict.UNWINNABLE, None, branches, conflicts, seconds, name)
    if status not in (cp_model.FEASIBLE, cp_model.OPTIMAL):
        return CpsatResult(Verdict.UNKNOWN, None, branches, conflicts, seconds, name)
    values = [solver.Value(t) for t in times]
    line = _line_from_solution(cards, values, {pair for pair, var in links.items() if solver.BooleanValue(var)})
    return CpsatResult(Verdict.WINNABLE, line, branches, conflicts, seconds, name)


def _solve_interruptibly(solver: cp_model.CpSolver, model: cp_model.CpModel) -> Any:
    """Run Solve in a helper thread so that Ctrl-C in the main thread can stop it cleanly."""
    outcome: dict[str, Any] = {}

    def run() -> None:
        try:
            outcome["status"] = solver.Solve(model)
        except BaseException as error:  # pragma: no cover - surfaced below
            outcome["error"] = error

    worker = threading.Thread(target=run, name="cpsat", daemon=True)
    worker.start()
    try:
        while worker.is_alive():
            worker.join(0.05)
    except KeyboardInterrupt:
        solver.StopSearch()
        worker.join()
        # Measured: CP-SAT's own threads need a moment after a stopped Solve returns; a
        # process that exits at once (Ctrl-C on the CLI) aborts in a C++ destructor.
        time.sleep(0.5)
        raise
    if "error" in outcome:
        raise outcome["error"]
    return outcome["status"]


def _line_from_solution(cards: list[_Card], values: list[int], chosen: set[tuple[int, int]]) -> tuple[Move, ...]:
    """Groups from the matching Booleans, ordered by removal time (ties by place)."""
    partner: dict[int, list[int]] = {}
    for a, b in chosen:
        partner.setdefault(a, []).append(b)
    groups = []
    for a, others in partner.items():
        if cards[a].rank in (QUEEN, KING):
            continue
        if cards[a].rank == JACK or cards[a].rank <= 5:
            members = [a, *others]
            groups.append((values[a], sorted(cards[m].place for m in members), members))
    groups.sort(key=lambda g: (g[0], g[1]))
    return tuple(Move(tuple(cards[m].place for m in members)) for _, _, members in groups)
