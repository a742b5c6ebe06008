"""What the catalogue says about games, asked without solving: the games, one game, codes, rule files."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from halfmoon.dealcodes import DealCode, parse_code
from halfmoon.dealcodes.codes import known_games, parse_number

from .. import catalogue
from ..catalogue import MULTIPLAYER, GameInfo
from ..errors import UnknownGameError

#: What a game of each kind is called in "unknown game" messages (multiplayer games are asked about endgames).
_KIND_WORDS = {MULTIPLAYER: "endgame game"}


def games() -> tuple[GameInfo, ...]:
    """Every game of the catalogue with its traits (solitaire or multiplayer, questions, methods)."""
    return catalogue.games()


def game(name_or_tag: str, kind: str | None = None) -> GameInfo:
    """One game of the catalogue by tag (``HM``) or name (``halfmoon``), any case; `UnknownGameError` otherwise.

    With ``kind`` ("solitaire" or "multiplayer"), a game of the other kind is unknown too, and the
    message lists the games of that kind.
    """
    if kind is None:
        return catalogue.info(name_or_tag)
    try:
        found = catalogue.info(name_or_tag)
        if found.kind == kind:
            return found
    except UnknownGameError:
        pass
    names = ", ".join(row.name for row in catalogue.games() if row.kind == kind)
    raise UnknownGameError(f"unknown {_KIND_WORDS.get(kind, kind)} {name_or_tag!r}: expected one of {names}")


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
    from ..games.family.presets import preset_names

    return preset_names()


def rule_file(rules: str | Path) -> Any:
    """A validated rule set (`RuleSet`) from a rule file (JSON or TOML) or a preset name or tag."""
    solitaire = catalogue.rule_file_solitaire(rules)
    return solitaire.extra["rules"]


def rule_preset_text(preset: str) -> str:
    """A preset's rule file exactly as shipped (a start for a rule file of your own)."""
    from ..games.family.presets import preset_text

    return preset_text(preset)


def engine_warning(game: str = "HM") -> str | None:
    """One line to show when a game's default engine fell back to a slower one (None when it did not)."""
    solitaire = catalogue.solitaire(game)
    return solitaire.engine_warning() if solitaire.engine_warning is not None else None


__all__ = ["code", "engine_warning", "game", "games", "number", "rule_file", "rule_preset_text", "rule_presets"]
