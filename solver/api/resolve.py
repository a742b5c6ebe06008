"""Resolving what a caller gave: a deal code, a deal number, a position or its JSON, a rule file.

Every question of the facade starts here, so a start is read, checked and dealt one way for
every game: a solitaire's start becomes a `SolitaireStart`, a multiplayer game's an
`EndgameStart`. The helpers below (method, engine, line of moves) are the other checks every
solitaire question shares.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterable, Mapping, Sequence

from halfmoon.dealcodes import DealCode, parse_code

from .. import catalogue
from ..catalogue import MULTIPLAYER, GameInfo
from ..core.adapters import EndgameAdapter, Solitaire
from ..errors import InputError, UnsupportedError
from ..results import Deal, Replay

Start = Any  # a deal code, a deal number, a Deal or Replay, a position value, or a position's JSON (a mapping)
Rules = Any  # a rule file's path, a preset's name or tag, or a rule set's JSON (a mapping)

#: The most a position, layout or rule set given as JSON may hold: levels of nesting, and values in
#: all. Real ones are 3-5 levels deep with a few hundred values; checked before anything reads them.
MAX_JSON_DEPTH = 16
MAX_JSON_VALUES = 20_000


@dataclass(frozen=True)
class SolitaireStart:
    """A solitaire start position, resolved (``code`` and ``number`` None for a layout)."""

    solitaire: Solitaire[Any, Any]
    code: str | None
    number: int | None
    position: Any

    @property
    def is_deal(self) -> bool:
        """A deal of the catalogue, which the results store and the atlas keep by its code."""
        return self.code is not None and self.number is not None


@dataclass(frozen=True)
class EndgameStart:
    """A multiplayer start position, resolved."""

    info: GameInfo
    adapter: EndgameAdapter
    code: str | None
    position: Any


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


def solitaire_of(game: str | None, rules: Rules | None) -> Solitaire[Any, Any] | None:
    """The solitaire `game` or `rules` name (None: neither names one, or `game` is multiplayer)."""
    if isinstance(rules, Mapping):
        check_json(rules, "rules")
    if rules is not None:
        return catalogue.rule_file_solitaire(rules)
    if game is not None and catalogue.info(game).kind != MULTIPLAYER:
        return catalogue.solitaire(game)
    return None


def resolve(start: Start, game: str | None = None, rules: Rules | None = None) -> SolitaireStart | EndgameStart:
    """The game and start position of whatever the caller gave (see `Start`)."""
    known_code = None
    if isinstance(start, (Deal, Replay)):
        game = game or start.game
        start, known_code = start.position, start.code
    solitaire = solitaire_of(game, rules)
    if isinstance(start, int) and not isinstance(start, bool):
        if solitaire is None:
            raise InputError("a deal number needs a solitaire: give game= (a tag such as HM) or rules=")
        return SolitaireStart(solitaire, solitaire.code(start), start, solitaire.deal(start))
    if isinstance(start, str):
        return _from_code(parse_code(start), solitaire, game, rules)
    return _from_position(start, known_code, solitaire, game)


def _from_code(parsed: DealCode, solitaire: Solitaire[Any, Any] | None, game: str | None,
               rules: Rules | None) -> SolitaireStart | EndgameStart:
    """A deal code's deal: its own game's, or a rule file's deal of that number (``rules``)."""
    row = catalogue.info(parsed.game)
    if row.kind == MULTIPLAYER:
        adapter = catalogue.endgame_adapter(row.tag)
        return EndgameStart(row, adapter, str(parsed), adapter.position_from_code(str(parsed)))
    if solitaire is None or (rules is None and solitaire.tag != row.tag):
        if game is not None and catalogue.info(game).tag != row.tag:
            raise InputError(f"deal code {parsed}: a {row.title} code, but game {game!r} was asked for")
        solitaire = catalogue.solitaire(row.tag)
    canonical = solitaire.code(parsed.number)
    if canonical != str(parsed):
        raise InputError(f"deal code {parsed}: the {solitaire.title} solver takes codes like {canonical}")
    return SolitaireStart(solitaire, canonical, parsed.number, solitaire.deal(parsed.number))


def _from_position(start: Any, known_code: str | None, solitaire: Solitaire[Any, Any] | None,
                   game: str | None) -> SolitaireStart | EndgameStart:
    """A position given as the game's value or its JSON (a mapping), of `game` or of a rule file."""
    if start is None or isinstance(start, (list, tuple, float, bool, bytes)):
        raise InputError(f"{str(start)[:40]!r}: expected a deal code, a deal number or a position (a JSON object)")
    if isinstance(start, Mapping):
        check_json(start, "position" if solitaire is None else "layout")
    if solitaire is not None:
        position = solitaire.position_from_json(start) if isinstance(start, Mapping) else start
        return SolitaireStart(solitaire, known_code, None, position)
    if game is None:
        raise InputError("a position needs its game: give game= (a tag such as HM) or rules=")
    row = catalogue.info(game)
    adapter = catalogue.endgame_adapter(row.tag)
    position = adapter.position_from_json(_without_deal_keys(start, row)) if isinstance(start, Mapping) else start
    return EndgameStart(row, adapter, known_code, position)


def _without_deal_keys(data: Mapping[str, Any], row: GameInfo) -> dict[str, Any]:
    """A position's JSON without what `Deal.to_json` adds to it (code, number, the game's own name),
    so that `deal --json` output reads back as a position file of any game."""
    own = (row.name, row.tag)
    return {key: value for key, value in data.items()
            if key not in ("code", "number") and not (key == "game" and value in own)}


def solitaire_start(start: Start, game: str | None, rules: Rules | None, question: str) -> SolitaireStart:
    """`resolve`, for a question only solitaires answer."""
    found = resolve(start, game, rules)
    if isinstance(found, EndgameStart):
        raise UnsupportedError(f"{found.info.title} is a multiplayer game: `{question}` is for solitaires; "
                               f"ask `endgame` about its positions")
    return found


def after_moves(solitaire: Solitaire[Any, Any], position: Any,
                moves: str | Sequence[Any]) -> tuple[Any, tuple[Any, ...]]:
    """The position after `moves` (text or the game's moves) and the moves; a bad one raises LineError."""
    if isinstance(moves, str) and not moves.strip():
        return position, ()
    return solitaire.replay(position, moves)


def method_of(solitaire: Solitaire[Any, Any], method: str | None) -> str:
    """The method asked for, checked against the game's (None: its default)."""
    if method is None:
        return solitaire.methods[0]
    if method not in solitaire.methods:
        raise UnsupportedError(f"method {method!r}: {solitaire.title} is solved by {', '.join(solitaire.methods)}")
    return method


def with_engine(solitaire: Solitaire[Any, Any], engine: str | None) -> Solitaire[Any, Any]:
    """The game solved by `engine` (None: its default engine)."""
    if engine is None:
        return solitaire
    if engine not in solitaire.engines or solitaire.with_engine is None:
        offered = f"its engines are {', '.join(solitaire.engines)}" if solitaire.engines else "it has one engine"
        raise UnsupportedError(f"engine {engine!r}: {solitaire.title} cannot choose it ({offered})")
    return solitaire.with_engine(engine)
