"""The catalogue: every game the project plays, in one explicit table with its traits.

Like OpenSpiel's game list and pgx's `make`, nothing is discovered: a game joins by a row here
naming the module of its adapter (`solver/games/<game>/adapter.py`), which is imported on first
use, so asking for one game loads only that game. Solitaires give a `Solitaire` record, multiplayer
games an `EndgameAdapter`; a rule file of the Elevens family gives a `Solitaire` record too.
`register_solitaire` adds a game at run time for tests and extensions (a worker forked from the
process sees it as well).
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Mapping

from halfmoon.solver.core.adapters import EndgameAdapter, Solitaire
from halfmoon.solver.errors import UnknownGameError, UnsupportedError

SOLITAIRE = "solitaire"
MULTIPLAYER = "multiplayer"
SOLITAIRE_QUESTIONS = ("deal", "replay", "solve", "hint", "survey", "generate")
ENDGAME_QUESTIONS = ("deal", "replay", "endgame")


@dataclass(frozen=True)
class GameInfo:
    """One row of the catalogue: what a game is and what can be asked of it."""

    tag: str  # the deal-code tag: HM1-N-AAAAAAB is "HM"
    name: str  # the name commands take: "halfmoon", "shithead", ...
    title: str  # "Half Moon"
    kind: str  # SOLITAIRE or MULTIPLAYER
    module: str  # the module holding the game's adapter
    methods: tuple[str, ...]  # the first is the default
    players: tuple[int, int] = (1, 1)  # fewest and most players
    rule_file: bool = False  # defined by a rule file of the Elevens family (custom files allowed)
    preset: str | None = None  # the family preset's name

    @property
    def questions(self) -> tuple[str, ...]:
        return SOLITAIRE_QUESTIONS if self.kind == SOLITAIRE else ENDGAME_QUESTIONS

    def to_json(self) -> dict[str, Any]:
        return {
            "tag": self.tag, "name": self.name, "title": self.title, "kind": self.kind,
            "players": list(self.players), "rule_file": self.rule_file, "questions": list(self.questions),
            "methods": list(self.methods),
        }


_GAMES = "halfmoon.solver.games"
_FAMILY = ("auto", "search")
_EXACT = ("auto", "retrograde", "negamax")

GAMES: tuple[GameInfo, ...] = (
    GameInfo("HM", "halfmoon", "Half Moon", SOLITAIRE, f"{_GAMES}.halfmoon.adapter", ("auto", "search", "cpsat")),
    GameInfo("EL", "elevens", "Elevens", SOLITAIRE, f"{_GAMES}.family.adapter", _FAMILY, rule_file=True,
             preset="elevens"),
    GameInfo("SE", "suit-elevens", "Suit Elevens", SOLITAIRE, f"{_GAMES}.family.adapter", _FAMILY, rule_file=True,
             preset="suit-elevens"),
    GameInfo("TN", "tens", "Tens", SOLITAIRE, f"{_GAMES}.family.adapter", _FAMILY, rule_file=True, preset="tens"),
    GameInfo("SH", "shithead", "Shithead", MULTIPLAYER, f"{_GAMES}.shithead.adapter", _EXACT, (2, 5)),
    GameInfo("EH", "eight-and-a-half", "Eight and a half", MULTIPLAYER, f"{_GAMES}.eight_and_a_half.adapter", _EXACT,
             (2, 5)),
    GameInfo("GF", "golf", "Six-card Golf", MULTIPLAYER, f"{_GAMES}.golf.adapter", _EXACT, (2, 6)),
    GameInfo("SP", "spit", "Spit", MULTIPLAYER, f"{_GAMES}.spit.adapter", _EXACT, (2, 2)),
)

_EXTRA: dict[str, tuple[GameInfo, Callable[[], Solitaire[Any, Any]]]] = {}


def games() -> tuple[GameInfo, ...]:
    """Every game, solitaires first, in the table's order (then any registered at run time)."""
    return GAMES + tuple(info for info, _ in _EXTRA.values())


def info(game: str) -> GameInfo:
    """The row of a game by tag (``HM``) or name (``halfmoon``, ``eight-and-a-half``), any case."""
    wanted = game.strip()
    for row in games():
        if wanted.upper() == row.tag or wanted.lower() == row.name:
            return row
    known = ", ".join(f"{row.tag} ({row.name})" for row in games())
    raise UnknownGameError(f"game {game!r}: not in the catalogue, expected one of {known}")


def solitaire(game: str) -> Solitaire[Any, Any]:
    """The `Solitaire` record of a solitaire by tag or name, loaded on first use."""
    row = info(game)
    if row.tag in _EXTRA:
        return _EXTRA[row.tag][1]()
    if row.kind != SOLITAIRE:
        raise UnsupportedError(f"{row.title} is a multiplayer game: ask `endgame` about its positions")
    module = importlib.import_module(row.module)
    if row.preset is not None:
        return module.preset_adapter(row.tag)  # type: ignore[no-any-return]
    return module.ADAPTER  # type: ignore[no-any-return]


def endgame_adapter(game: str) -> EndgameAdapter:
    """The endgame adapter of a multiplayer game by tag or name, loaded on first use."""
    row = info(game)
    if row.kind != MULTIPLAYER:
        raise UnsupportedError(f"{row.title} is a solitaire: ask `solve` or `hint` about its deals")
    return importlib.import_module(row.module).ADAPTER  # type: ignore[no-any-return]


def endgame_adapters() -> dict[str, EndgameAdapter]:
    """Every multiplayer game's adapter by name (loads them all)."""
    return {row.name: endgame_adapter(row.tag) for row in games() if row.kind == MULTIPLAYER}


def rule_file_solitaire(rules: str | Path | Mapping[str, Any]) -> Solitaire[Any, Any]:
    """The `Solitaire` record of a rule file of the Elevens family, of a preset by name or tag, or of a
    rule set given as its JSON (a mapping: what a rule file holds)."""
    from halfmoon.solver.games.family.adapter import adapter_for, preset_adapter
    from halfmoon.solver.games.family.presets import load_preset
    from halfmoon.solver.games.family.schema import load_rules, rules_from_json

    if isinstance(rules, Mapping):
        return adapter_for(rules_from_json(rules, "rules"))
    text = str(rules)
    if text.lower().endswith((".json", ".toml")) or "/" in text or Path(text).is_file():
        return adapter_for(load_rules(text))
    preset = load_preset(text)
    return preset_adapter(preset.tag) if preset.tag else adapter_for(preset)


def reference(solitaire_: Solitaire[Any, Any]) -> tuple[str, dict[str, Any] | None]:
    """A picklable name for a solitaire, for worker processes: its tag, and its rules when a rule file
    outside the catalogue defines it (`from_reference` rebuilds the record from it)."""
    rules = solitaire_.extra.get("rules")
    if rules is None or any(row.tag == solitaire_.tag for row in games()):
        return solitaire_.tag, None
    return solitaire_.tag, rules.to_json()


def from_reference(ref: tuple[str, dict[str, Any] | None]) -> Solitaire[Any, Any]:
    """The solitaire `reference` named (cached per process)."""
    tag, rules = ref
    if rules is None:
        return solitaire(tag)
    from halfmoon.solver.games.family.adapter import adapter_for
    from halfmoon.solver.games.family.schema import rules_from_json

    return adapter_for(rules_from_json(rules))


def register_solitaire(row: GameInfo, load: Callable[[], Solitaire[Any, Any]]) -> None:
    """Add (or replace) a solitaire at run time: for tests and extensions, never for the games above."""
    if any(row.tag == known.tag for known in GAMES):
        raise UnsupportedError(f"game tag {row.tag}: already in the catalogue")
    _EXTRA[row.tag] = (row, load)


def unregister(tag: str) -> None:
    _EXTRA.pop(tag, None)


__all__ = [
    "GAMES",
    "GameInfo",
    "MULTIPLAYER",
    "SOLITAIRE",
    "endgame_adapter",
    "endgame_adapters",
    "from_reference",
    "games",
    "info",
    "reference",
    "register_solitaire",
    "rule_file_solitaire",
    "solitaire",
    "unregister",
]
