"""The facade: every question about every game, asked one way (re-exported as `import halfmoon`).

The CLI and the HTTP service call only this module (and use its result types); a new game or
method becomes available to both by joining the catalogue. Each function takes a deal code of
any game, a position of the game (its value, or its JSON with ``game=``), or a deal of a
custom rule file (``rules=``), validates it, and answers with one of the result types of
`solver.results`, whose ``to_json()`` is the shape the CLI prints and the service sends.

Limits: a `Limits` given here is completed by the game's defaults (a solitaire's own time
limit, an endgame's 60 s), so every question is bounded. Caching: with a results store, a
`solve` without an explicit ``method`` or ``seed`` answers from the store when its trust rules
allow (the answer then says ``cached``); an explicit method or seed always solves afresh.
"""

from __future__ import annotations

import time
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator, Mapping, Sequence

from halfmoon.dealcodes import DealCode, parse_code
from halfmoon.dealcodes.codes import known_games, parse_number

from . import catalogue
from .catalogue import MULTIPLAYER, GameInfo
from .core.adapters import EndgameAdapter, Solitaire
from .core.verdicts import Limits, SearchResult, Verdict
from .errors import InputError, SolverBug, UnsupportedError
from .results import (
    Analysis,
    AtlasEntry,
    CuratedPage,
    Deal,
    EndgameResult,
    FairHintResult,
    FairMove,
    HintResult,
    MoveVerdict,
    Replay,
    SolveResult,
    Tally,
)
from .store import ResultStore, StoredResult, open_store

Start = Any  # a deal code, a Deal or Replay, a position value, or a position's JSON (a mapping)


@dataclass(frozen=True)
class _Solitaire:
    """A solitaire start position, resolved."""

    solitaire: Solitaire[Any, Any]
    code: str | None
    number: int | None
    position: Any


@dataclass(frozen=True)
class _Endgame:
    """A multiplayer start position, resolved."""

    info: GameInfo
    adapter: EndgameAdapter
    code: str | None
    position: Any


def games() -> tuple[GameInfo, ...]:
    """Every game of the catalogue with its traits (solitaire or multiplayer, questions, methods)."""
    return catalogue.games()


def code(number: int | str, game: str = "HM", variant: str | None = None) -> str:
    """The deal code of deal `number` (``variant``: e.g. the player count of a multiplayer code)."""
    tag = catalogue.info(game).tag
    codec = known_games()[tag]
    parsed = DealCode(tag, max(codec.versions), (variant or codec.variants[0]).upper(),
                      number if isinstance(number, int) else parse_number(number))
    return str(parsed)


def number(deal_code: str) -> int:
    """The deal number of a code (any game)."""
    return parse_code(deal_code).number


def rule_presets() -> list[str]:
    """The rule files shipped for the Elevens family (Half Moon, Elevens, Suit Elevens, Tens)."""
    from .games.family.presets import preset_names

    return preset_names()


def rule_file(rules: str | Path) -> Any:
    """A validated rule set (`RuleSet`) from a rule file (JSON or TOML) or a preset name or tag."""
    solitaire = catalogue.rule_file_solitaire(rules)
    return solitaire.extra["rules"]


def rule_preset_text(preset: str) -> str:
    """A preset's rule file exactly as shipped (a start for a rule file of your own)."""
    from .games.family.presets import preset_text

    return preset_text(preset)


# -- resolving what the caller gave ----------------------------------------------------------------


Rules = Any  # a rule file's path, a preset's name or tag, or a rule set's JSON (a mapping)

#: The most a position, layout or rule set given as JSON may hold: levels of nesting, and values in
#: all. Real ones are 3-5 levels deep with a few hundred values; checked before anything reads them.
MAX_JSON_DEPTH = 16
MAX_JSON_VALUES = 20_000


def check_json(data: Any, what: str) -> Any:
    """Raise InputError when `data` (parsed JSON) nests deeper or holds more than any real input does.

    Iterative, so a hostile input costs one pass over what was already parsed, whatever its shape.
    """
    stack = [(data, 1)]
    values = 0
    while stack:
        value, depth = stack.pop()
        values += 1
        if values > MAX_JSON_VALUES:
            raise InputError(f"{what}: more than {MAX_JSON_VALUES} values; no {what} of any game is that large")
        if isinstance(value, Mapping):
            children: Iterable[Any] = value.values()
        elif isinstance(value, (list, tuple)):
            children = value
        else:
            continue
        if depth > MAX_JSON_DEPTH:
            raise InputError(f"{what}: nested deeper than {MAX_JSON_DEPTH} levels; no {what} of any game is")
        stack.extend((child, depth + 1) for child in children)
    return data


def _solitaire_of(game: str | None, rules: Rules | None) -> Solitaire[Any, Any] | None:
    if isinstance(rules, Mapping):
        check_json(rules, "rules")
    if rules is not None:
        return catalogue.rule_file_solitaire(rules)
    if game is not None and catalogue.info(game).kind != MULTIPLAYER:
        return catalogue.solitaire(game)
    return None


def _resolve(start: Start, game: str | None = None, rules: Rules | None = None) -> _Solitaire | _Endgame:
    """The game and start position of whatever the caller gave (see `Start`)."""
    if isinstance(start, (Deal, Replay)):
        game = game or start.game
        start, known_code = start.position, start.code
    else:
        known_code = None
    solitaire = _solitaire_of(game, rules)
    if isinstance(start, int) and not isinstance(start, bool):
        if solitaire is None:
            raise InputError("a deal number needs a solitaire: give game= (a tag such as HM) or rules=")
        return _Solitaire(solitaire, solitaire.code(start), start, solitaire.deal(start))
    if isinstance(start, str):
        parsed = parse_code(start)
        row = catalogue.info(parsed.game)
        if row.kind == MULTIPLAYER:
            adapter = catalogue.endgame_adapter(row.tag)
            return _Endgame(row, adapter, str(parsed), adapter.position_from_code(str(parsed)))
        if solitaire is None or (rules is None and solitaire.tag != row.tag):
            if game is not None and catalogue.info(game).tag != row.tag:
                raise InputError(f"deal code {parsed}: a {row.title} code, but game {game!r} was asked for")
            solitaire = catalogue.solitaire(row.tag)
        canonical = solitaire.code(parsed.number)
        if canonical != str(parsed):
            raise InputError(f"deal code {parsed}: the {solitaire.title} solver takes codes like {canonical}")
        return _Solitaire(solitaire, canonical, parsed.number, solitaire.deal(parsed.number))
    if start is None or isinstance(start, (list, tuple, float, bool, bytes)):
        raise InputError(f"{str(start)[:40]!r}: expected a deal code, a deal number or a position (a JSON object)")
    if isinstance(start, Mapping):
        check_json(start, "position" if solitaire is None and rules is None else "layout")
    if game is None and rules is None:
        raise InputError("a position needs its game: give game= (a tag such as HM) or rules=")
    if solitaire is not None:
        position = solitaire.position_from_json(start) if isinstance(start, Mapping) else start
        return _Solitaire(solitaire, known_code, None, position)
    assert game is not None
    row = catalogue.info(game)
    adapter = catalogue.endgame_adapter(row.tag)
    position = adapter.position_from_json(_without_deal_keys(start, row)) if isinstance(start, Mapping) else start
    return _Endgame(row, adapter, known_code, position)


def _without_deal_keys(data: Mapping[str, Any], row: GameInfo) -> dict[str, Any]:
    """A position's JSON without what `Deal.to_json` adds to it (code, number, the game's own name),
    so that `deal --json` output reads back as a position file of any game."""
    own = (row.name, row.tag)
    return {key: value for key, value in data.items()
            if key not in ("code", "number") and not (key == "game" and value in own)}


def _solitaire_start(start: Start, game: str | None, rules: Rules | None, question: str) -> _Solitaire:
    found = _resolve(start, game, rules)
    if isinstance(found, _Endgame):
        raise UnsupportedError(f"{found.info.title} is a multiplayer game: `{question}` is for solitaires; "
                               f"ask `endgame` about its positions")
    return found


def _played(solitaire: Solitaire[Any, Any], position: Any, moves: str | Sequence[Any]) -> tuple[Any, tuple[Any, ...]]:
    if isinstance(moves, str) and not moves.strip():
        return position, ()
    return solitaire.replay(position, moves)


def _cards(solitaire: Solitaire[Any, Any], position: Any, line: Sequence[Any]) -> tuple[str, ...]:
    """The cards each move of `line` takes, replaying it through the rules (a failure is a bug)."""
    cards = []
    try:
        for move in line:
            cards.append(solitaire.cards(position, move))
            position = solitaire.apply(position, move)
    except ValueError as error:
        raise SolverBug(f"{solitaire.title}: a winning line does not replay: {error}") from None
    if not solitaire.is_won(position):
        raise SolverBug(f"{solitaire.title}: a winning line does not win when replayed")
    return tuple(cards)


# -- deals and lines ---------------------------------------------------------------------------------


def deal(start: Start, *, game: str | None = None, rules: Rules | None = None) -> Deal:
    """The dealt position of a code (any game), a deal number (with ``game=`` or ``rules=``), or a layout."""
    found = _resolve(start, game, rules)
    if isinstance(found, _Endgame):
        position = found.position
        number_ = parse_code(found.code).number if found.code else None
        return Deal(found.info.name, found.info.title, found.code, number_, position,
                    _endgame_draw(found.adapter), found.adapter.position_to_json(position))
    solitaire = found.solitaire
    return Deal(solitaire.name, solitaire.title, found.code, found.number, found.position, solitaire.describe,
                solitaire.position_to_json(found.position))


def _endgame_draw(adapter: EndgameAdapter) -> Callable[[Any, bool, bool], str]:
    def draw(position: Any, symbols: bool = False, full: bool = False) -> str:
        return adapter.describe(position)

    return draw


def replay(start: Start, moves: str | Sequence[Any] = "", *, game: str | None = None,
           rules: Rules | None = None) -> Replay:
    """Play a line of moves; the first move that cannot be read or played raises `LineError` (with its index)."""
    found = _resolve(start, game, rules)
    if isinstance(found, _Endgame):
        if found.code is None:
            raise UnsupportedError(f"{found.info.title}: replay takes a deal code and moves")
        line = moves if isinstance(moves, str) else " ".join(map(str, moves))
        position = found.adapter.position_from_code(found.code, line)
        status = "over" if found.adapter.game.terminal(position) is not None else "open"
        return Replay(found.info.name, found.code, tuple(line.replace(",", " ").split()), position, status, None,
                      _endgame_draw(found.adapter), found.adapter.position_to_json(position))
    solitaire = found.solitaire
    position, played = _played(solitaire, found.position, moves)
    status = "won" if solitaire.is_won(position) else "dead" if solitaire.is_dead(position) else "open"
    score = sum(map(solitaire.points, played)) if solitaire.points is not None else None
    return Replay(solitaire.name, found.code, played, position, status, score, solitaire.describe,
                  solitaire.position_to_json(position), tuple(solitaire.legal_moves(position)))


# -- solving ---------------------------------------------------------------------------------------


def _method(solitaire: Solitaire[Any, Any], method: str | None) -> str:
    if method is None:
        return solitaire.methods[0]
    if method not in solitaire.methods:
        raise UnsupportedError(f"method {method!r}: {solitaire.title} is solved by {', '.join(solitaire.methods)}")
    return method


def _stored_form(solitaire: Solitaire[Any, Any], result: SolveResult, number: int, limits: Limits) -> StoredResult:
    return result.to_stored(solitaire.tag, number, limits)


def _from_stored(solitaire: Solitaire[Any, Any], stored: StoredResult, position: Any) -> SolveResult:
    moves = solitaire.parse_line(stored.line) if stored.line is not None else None
    return SolveResult(
        solitaire.name, stored.code, Verdict(stored.verdict), moves,
        _cards(solitaire, position, moves) if moves is not None else None,
        stored.method or "none", stored.nodes, stored.seconds, stored.solver_version, stored.stopped, cached=True,
        source="store",
    )


def _with_engine(solitaire: Solitaire[Any, Any], engine: str | None) -> Solitaire[Any, Any]:
    """The game solved by `engine` (None: its default engine)."""
    if engine is None:
        return solitaire
    if engine not in solitaire.engines or solitaire.with_engine is None:
        offered = f"its engines are {', '.join(solitaire.engines)}" if solitaire.engines else "it has one engine"
        raise UnsupportedError(f"engine {engine!r}: {solitaire.title} cannot choose it ({offered})")
    return solitaire.with_engine(engine)


def engine_warning(game: str = "HM") -> str | None:
    """One line to show when a game's default engine fell back to a slower one (None when it did not)."""
    solitaire = catalogue.solitaire(game)
    return solitaire.engine_warning() if solitaire.engine_warning is not None else None


def _solve_position(solitaire: Solitaire[Any, Any], position: Any, code: str | None, method: str, limits: Limits,
                    seed: int) -> SolveResult:
    found = solitaire.solve(position, method, limits, seed)
    moves = found.line if found.verdict is Verdict.WINNABLE else None
    return SolveResult(
        solitaire.name, code, found.verdict, moves, _cards(solitaire, position, moves) if moves is not None else None,
        found.method, found.nodes, found.seconds, solitaire.solver_version, found.stopped, stats=found.stats,
        limits=limits, engine=found.stats.get("engine"),
    )


def _trusted(store: ResultStore, found: _Solitaire, effective: Limits) -> SolveResult | None:
    solitaire, number_ = found.solitaire, found.number
    assert found.code is not None and number_ is not None
    hit = store.trusted(found.code, solitaire.solver_version, lambda line: solitaire.line_wins(number_, line),
                        effective.seconds, effective.nodes)
    return None if hit is None else _from_stored(solitaire, hit, found.position)


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
    found = _solitaire_start(start, game, rules, "solve")
    if found.code is None or found.number is None:
        raise InputError("the results store keeps deals: give a deal code or a deal number")
    return _trusted(store, found, (limits or Limits()).over(found.solitaire.default_limits))


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
    found = _solitaire_start(start, game, rules, "solve")
    solitaire = _with_engine(found.solitaire, engine)
    chosen = _method(solitaire, method)
    effective = (limits or Limits()).over(solitaire.default_limits)
    position, played = _played(solitaire, found.position, moves)
    keyed = found.code is not None and found.number is not None and not played
    from_atlas = None
    fresh = method is not None or seed is not None or engine is not None  # a question the store did not answer
    if atlas is not None and keyed and not fresh:
        assert found.code is not None and found.number is not None
        from_atlas = _atlas_entry(solitaire, found.code, found.number, atlas, strict=False)
        if from_atlas.verdict is Verdict.UNKNOWN or from_atlas.verdict is None:
            from_atlas = None
        elif verdict_only or from_atlas.verdict is Verdict.UNWINNABLE:
            return SolveResult(solitaire.name, found.code, from_atlas.verdict, None, None, "atlas", 0,
                               from_atlas.seconds, from_atlas.solver_version or solitaire.solver_version,
                               cached=True, source="atlas")
    keyed = keyed and store is not None
    result = None
    if keyed and not fresh:
        assert store is not None
        hit = _trusted(store, found, effective)
        if hit is not None:
            result = hit
    if result is None:
        code_ = found.code if not played else None
        result = _solve_position(solitaire, position, code_, chosen, effective, seed or 0)
        if keyed:
            assert store is not None and found.number is not None
            store.put(_stored_form(solitaire, result, found.number, effective))
            store.flush()
    if from_atlas is not None and from_atlas.verdict is not None and result.verdict is not from_atlas.verdict:
        if result.verdict is not Verdict.UNKNOWN:
            raise SolverBug(f"{found.code}: the atlas ({from_atlas.shard}) says {from_atlas.verdict.value}, "
                            f"the solver {result.verdict.value}")
        return SolveResult(solitaire.name, found.code, from_atlas.verdict, None, None, "atlas", result.nodes,
                           result.seconds, from_atlas.solver_version or solitaire.solver_version, result.stopped,
                           cached=True, source="atlas")
    return result


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
        _cards(solitaire, position, line)
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
    found = _solitaire_start(start, game, rules, "hint")
    solitaire = _with_engine(found.solitaire, engine)
    effective = (limits or Limits()).over(solitaire.default_limits)
    started = time.perf_counter()
    position, played = _played(solitaire, found.position, moves)
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
    found = _solitaire_start(start, game, rules, "hint")
    solitaire = found.solitaire
    if solitaire.conceal is None or solitaire.reveal is None:
        raise UnsupportedError(f"{solitaire.title}: no model of what a player cannot see, so no fair hint")
    effective = (limits or Limits()).over(FAIR_LIMITS)
    method = "search" if "search" in solitaire.methods else solitaire.methods[0]
    started = time.perf_counter()
    position, played = _played(solitaire, found.position, moves)
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
    found = _solitaire_start(start, game, rules, "analyze")
    solitaire = found.solitaire
    effective = (limits or Limits()).over(solitaire.default_limits)
    seed_ = seed or 0
    method = solitaire.methods[0]
    started = time.perf_counter()
    _, played = _played(solitaire, found.position, moves)
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


# -- endgames -------------------------------------------------------------------------------------


def endgame(
    start: Start,
    *,
    game: str | None = None,
    moves: str = "",
    until: str | None = None,
    seed: int = 0,
    limits: Limits | None = None,
    method: str = "auto",
    progress: Callable[[dict[str, Any]], None] | None = None,
) -> EndgameResult:
    """The exact answers about a multiplayer position: each question's value, every move's value, a line.

    ``until="endgame"`` first plays the game's fixed seeded policy on to its endgame. A limit
    ends in ``unknown`` (with the bounds the explored part proves), never a guess. `progress`, if
    given, is called about twice a second during the solve with a dict: ``seconds``,
    ``positions``, ``nodes``, ``positions_per_second``, ``nodes_per_second``, ``memory_bytes``
    (growth of the process), ``time_limit`` and ``final`` (True on the last call of a solve).
    """
    from .core.report import DEFAULT_LIMITS, answer, play_to_endgame

    found = _resolve(start, game, None)
    if isinstance(found, _Solitaire):
        raise UnsupportedError(f"{found.solitaire.title} is a solitaire: ask `solve` or `hint` about its deals")
    adapter, position = found.adapter, found.position
    if moves.strip():
        if found.code is None:
            raise InputError("moves go with a deal code (a position is already the position)")
        position = adapter.position_from_code(found.code, moves)
    played: list[str] = []
    if until is not None:
        if until != "endgame":
            raise InputError(f"until {until!r}: expected 'endgame'")
        position, played = play_to_endgame(adapter, position, seed)
    effective = (limits or Limits()).over(DEFAULT_LIMITS)
    report = answer(adapter, position, effective, method, progress=progress)
    return EndgameResult(found.info.name, adapter.title, tuple(played), report, adapter.describe(position))


def endgame_position(start: Start, *, game: str | None = None, moves: str = "", until: str | None = None,
                     seed: int = 0) -> EndgameResult:
    """The position `endgame` would solve (after the moves and the policy), without solving it."""
    from .core.report import play_to_endgame, position_report

    found = _resolve(start, game, None)
    if isinstance(found, _Solitaire):
        raise UnsupportedError(f"{found.solitaire.title} is a solitaire: `deal` or `replay` shows its positions")
    adapter, position = found.adapter, found.position
    if moves.strip():
        if found.code is None:
            raise InputError("moves go with a deal code (a position is already the position)")
        position = adapter.position_from_code(found.code, moves)
    played: list[str] = []
    if until == "endgame":
        position, played = play_to_endgame(adapter, position, seed)
    report = position_report(adapter, position)
    return EndgameResult(found.info.name, adapter.title, tuple(played), report, adapter.describe(position))


# -- many deals ---------------------------------------------------------------------------------------


@contextmanager
def _executor(workers: int | None, dask: str | None) -> Iterator[Any]:
    from .core.batch import make_source

    source = make_source(workers, dask)
    try:
        yield source
    finally:
        source.close()


def survey_game(game: str = "HM", rules: Rules | None = None) -> Solitaire[Any, Any]:
    """The solitaire a survey or a scan for curated deals runs on."""
    solitaire = _solitaire_of(game if rules is None else None, rules)
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
    from .survey import run_survey

    solitaire = survey_game(game, rules)
    effective = (limits or Limits()).over(solitaire.default_limits)
    chosen = _method(solitaire, method) if method is not None else None
    with _executor(workers, dask) as source:
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

    from .survey import run_generate

    solitaire = survey_game(game, rules)
    if tier is not None and tier not in solitaire.tiers:
        raise UnsupportedError(
            f"tier {tier!r}: no deal of {solitaire.title} rates {tier} (its deals rate {', '.join(solitaire.tiers)}"
            + (": every way of playing a deal ends the same)" if solitaire.tiers == ("easy",) else ")"))
    with _executor(workers, dask) as source:
        yield from run_generate(solitaire, numbers if numbers is not None else range(DEAL_COUNT), count, source,
                                tier=tier, store=store, max_scan=max_scan, on_scanned=on_scanned)


# -- curated deals (the service's feed) ------------------------------------------------------------


def solver_version(game: str = "HM", rules: Rules | None = None) -> str:
    """The version of a solitaire's solver: the results store keys its answers on it."""
    return survey_game(game, rules).solver_version


def _rating(params: Any) -> tuple[Any, str]:
    from .rating import DEFAULT_PARAMS
    from .survey import rating_key

    params = params or DEFAULT_PARAMS
    return params, rating_key(params)


def rate(start: Start, *, game: str | None = None, rules: Rules | None = None, params: Any = None) -> Any:
    """Solve a deal within the rating's node budget and rate it when winnable: the records `generate` stores.

    A `RatedDeal` (``result``: a `StoredResult`; ``rating``: a `StoredRating`, or None when the
    deal is not proved winnable). ``params``: the rating's budgets (`RatingParams`; default the
    standard ones). A reported win whose line does not replay is kept as `unknown` with the reason.
    """
    from .survey import RatedDeal, checked, rate_deal

    found = _solitaire_start(start, game, rules, "rate")
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
    found = _solitaire_start(start, game, rules, "rate")
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
    from .rating import TIERS
    from .survey import curated_from_store

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


# -- the winnability atlas ------------------------------------------------------------------------------

_ATLASES: dict[Path, Any] = {}


def open_atlas(directory: str | Path) -> Any:
    """An atlas directory opened for lookups (`solver.atlas.Atlas`); one-line errors if it is not one."""
    from .atlas import Atlas

    return Atlas(directory)


def _atlas_of(atlas: Any) -> Any:
    """An `Atlas` for a directory (kept open for later lookups) or the `Atlas` given."""
    from .atlas import Atlas

    if isinstance(atlas, Atlas):
        return atlas
    key = Path(atlas).resolve()
    if key not in _ATLASES:
        _ATLASES[key] = Atlas(atlas)
    return _ATLASES[key]


def _numbers(numbers: range | str) -> range:
    from halfmoon.dealcodes import parse_range

    return parse_range(numbers) if isinstance(numbers, str) else numbers


def _atlas_entry(solitaire: Solitaire[Any, Any], code_: str, number_: int, atlas: Any, strict: bool) -> AtlasEntry:
    from .atlas.build import atlas_game
    from .atlas.format import CODE_NAMES, UNKNOWN, parse_sidecar, sidecar_path

    started = time.perf_counter()
    opened = _atlas_of(atlas)
    prefix = atlas_game(solitaire)
    if prefix not in opened.layout:
        if strict:
            opened.game(prefix)  # the one-line error: the atlas holds no such shards
        return AtlasEntry(solitaire.name, code_, number_, None, None, "", seconds=time.perf_counter() - started)
    cell = opened.cell(prefix, number_)
    verdict = None if cell.code == 0 else Verdict(CODE_NAMES[cell.code])
    unknown = None
    if cell.code == UNKNOWN:
        side = sidecar_path(cell.path)
        entries = parse_sidecar(side.read_bytes(), str(side)) if side.exists() else {}
        entry = entries.get(number_)
        unknown = entry.to_json() if entry is not None else None
    return AtlasEntry(solitaire.name, code_, number_, verdict, cell.header.solver_version if cell.header else None,
                      cell.path.name, unknown, time.perf_counter() - started)


def atlas_lookup(start: str | int, atlas: str | Path | Any, *, game: str | None = None,
                 strict: bool = True) -> AtlasEntry:
    """What an atlas holds for a deal (a code, or a number of ``game``, default Half Moon): O(1), no solving.

    An atlas without shards of the deal's game is an `AtlasError`, or with ``strict=False`` an
    entry of a deal not done (``verdict`` None)."""
    if isinstance(start, int) and not isinstance(start, bool):
        solitaire = catalogue.solitaire(game or "HM")
        code_, number_ = solitaire.code(start), start
    else:
        found = _solitaire_start(str(start), game, None, "atlas lookup")
        assert found.code is not None and found.number is not None
        solitaire, code_, number_ = found.solitaire, found.code, found.number
    return _atlas_entry(solitaire, code_, number_, atlas, strict=strict)


def _atlas_solitaire(directory: str | Path, game: str | None) -> tuple[Solitaire[Any, Any], str]:
    """The solitaire of an atlas directory's game (``game``: a tag or name; default: its only game)."""
    from .atlas import Atlas
    from .atlas.build import atlas_game

    with Atlas(directory) as atlas:
        prefix = atlas.game(atlas_game(catalogue.solitaire(game)) if game is not None else None)
    solitaire = catalogue.solitaire(prefix[:2])
    if atlas_game(solitaire) != prefix:
        raise UnsupportedError(f"atlas {directory}: its {prefix} deals are not those of the {solitaire.title} "
                               f"codes this program reads ({atlas_game(solitaire)})")
    return solitaire, prefix


def atlas_build(
    numbers: range | str,
    out: str | Path,
    *,
    game: str = "HM",
    workers: int | None = None,
    dask: str | None = None,
    limits: Limits | None = None,
    method: str | None = None,
    shard_bits: int | None = None,
    chunk: int | None = None,
    redecide: bool = False,
    sync: bool = True,
    on_progress: Callable[..., None] | None = None,
) -> Any:
    """Decide every deal of `numbers` (a range or "A:B") into the atlas at `out`; resumable (a `BuildReport`).

    Deals already in the atlas are skipped; ``redecide`` solves again only those recorded unknown
    (give longer ``limits``). Chunks of ``chunk`` deals (default 4096, fewer when the range is small
    for the workers) are one job each on local
    worker processes (``workers``) or an existing Dask cluster (``dask``).
    """
    from .atlas.build import build_atlas

    solitaire = catalogue.solitaire(game)
    chosen = _method(solitaire, method) if method is not None else None
    effective = (limits or Limits()).over(solitaire.default_limits)
    with _executor(workers, dask) as source:
        return build_atlas(solitaire, _numbers(numbers), out, source, limits=effective, method=chosen,
                           shard_bits=shard_bits, chunk=chunk, redecide=redecide, sync=sync,
                           on_progress=on_progress)


def atlas_stats(directory: str | Path, *, game: str | None = None, numbers: range | str | None = None) -> Any:
    """Counts, the winnable share with its 95% interval, unknowns and file sizes of an atlas (`AtlasStats`)."""
    from .atlas.build import atlas_stats as stats

    _, prefix = _atlas_solitaire(directory, game)
    return stats(directory, prefix, None if numbers is None else _numbers(numbers))


def atlas_numbers(directory: str | Path, verdict: str = "unwinnable", *, game: str | None = None,
                  numbers: range | str | None = None) -> Iterator[int]:
    """The deal numbers of an atlas holding `verdict` ("winnable", "unwinnable", "unknown", "not done"), ascending."""
    from .atlas.build import atlas_numbers as listed

    _, prefix = _atlas_solitaire(directory, game)
    return listed(directory, verdict, prefix, None if numbers is None else _numbers(numbers))


def atlas_unknowns(directory: str | Path, *, game: str | None = None, numbers: range | str | None = None
                   ) -> Iterator[Any]:
    """The unknown deals of an atlas with the limits each reached (`Unknown` entries), ascending."""
    from .atlas.build import unknown_entries

    _, prefix = _atlas_solitaire(directory, game)
    return unknown_entries(directory, prefix, None if numbers is None else _numbers(numbers))


def atlas_verify(
    directory: str | Path,
    *,
    sample: int = 0,
    seed: int = 0,
    game: str | None = None,
    methods: Sequence[str] | None = None,
    workers: int | None = None,
    dask: str | None = None,
    limits: Limits | None = None,
    on_progress: Callable[[int, int], None] | None = None,
) -> Any:
    """Check every shard's checksums, then re-solve `sample` decided deals with each method (`VerifyReport`).

    Half Moon's methods by default: the portfolio (auto) and CP-SAT; any disagreement is listed.
    """
    from .atlas.build import verify_atlas

    if sample < 0:
        raise InputError(f"sample {sample}: expected a count of deals, 0 or more")
    solitaire, _ = _atlas_solitaire(directory, game)
    effective = (limits or Limits()).over(solitaire.default_limits)
    if not sample:
        return verify_atlas(solitaire, directory, None, sample=0, seed=seed, methods=methods, limits=effective)
    with _executor(workers, dask) as source:
        return verify_atlas(solitaire, directory, source, sample=sample, seed=seed, methods=methods,
                            limits=effective, on_progress=on_progress)


def atlas_merge(target: str | Path, sources: Sequence[str | Path], *, game: str | None = None,
                sync: bool = True) -> Any:
    """Merge atlases into `target` (made if missing): done beats not done, exact beats unknown; two different
    exact verdicts stop the merge before anything is written (`AtlasConflictError`). A `MergeReport`."""
    from .atlas.format import merge_atlases

    prefix = None
    if game is not None:
        from .atlas.build import atlas_game

        prefix = atlas_game(catalogue.solitaire(game))
    return merge_atlases(target, sources, prefix, sync=sync)


__all__ = [
    "analyze",
    "atlas_build",
    "atlas_lookup",
    "atlas_merge",
    "atlas_numbers",
    "atlas_stats",
    "atlas_unknowns",
    "atlas_verify",
    "code",
    "curated",
    "curation_state",
    "deal",
    "endgame",
    "endgame_position",
    "engine_warning",
    "fair_hint",
    "from_store",
    "games",
    "generate",
    "hint",
    "number",
    "open_atlas",
    "open_store",
    "rate",
    "replay",
    "rule_file",
    "rule_preset_text",
    "rule_presets",
    "solve",
    "solver_version",
    "survey",
]
