"""The Elevens family as data: rule files, one rules engine, and the search adapter.

`schema` reads and validates rule files; `presets` ships Half Moon, Elevens, Suit Elevens and
Tens; `engine` plays any of them as immutable positions; `search` decides them on the shared
solitaire core with the family's sound reductions; `brute` is the small independent checker.
"""

from .engine import FamilyLayoutError, FamilyLineError, FamilyMoveError, Game, Move, Place, Position, parse_move
from .presets import UnknownPresetError, load_preset, preset_for_tag, preset_names, preset_text
from .schema import RuleFileError, RuleSet, load_rules, rules_from_json, rules_from_text

__all__ = [
    "FamilyLayoutError",
    "FamilyLineError",
    "FamilyMoveError",
    "Game",
    "Move",
    "Place",
    "Position",
    "RuleFileError",
    "RuleSet",
    "UnknownPresetError",
    "load_preset",
    "load_rules",
    "parse_move",
    "preset_for_tag",
    "preset_names",
    "preset_text",
    "rules_from_json",
    "rules_from_text",
]
