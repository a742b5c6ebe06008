"""The preset rule files shipped with the project (``presets/*.json``), by name or deal-code tag."""

from __future__ import annotations

from functools import lru_cache
from importlib import resources

from halfmoon.solver.errors import RuleFileError

from .schema import RuleSet, rules_from_text


def preset_names() -> list[str]:
    """File stems of the shipped presets, e.g. ``elevens``, ``halfmoon``."""
    folder = resources.files(__package__).joinpath("presets")
    return sorted(entry.name.removesuffix(".json") for entry in folder.iterdir() if entry.name.endswith(".json"))


def preset_text(name: str) -> str:
    """The preset's file exactly as shipped (what `halfmoon rules show` prints)."""
    return resources.files(__package__).joinpath("presets", f"{_resolve(name)}.json").read_text(encoding="utf-8")


@lru_cache(maxsize=None)
def load_preset(name: str) -> RuleSet:
    """A preset by file stem (``suit-elevens``), display name (``Suit Elevens``) or tag (``SE``)."""
    stem = _resolve(name)
    return rules_from_text(preset_text(stem), f"preset {stem}")


@lru_cache(maxsize=None)
def _index() -> dict[str, str]:
    index: dict[str, str] = {}
    for stem in preset_names():
        text = resources.files(__package__).joinpath("presets", f"{stem}.json").read_text(encoding="utf-8")
        rules = rules_from_text(text, f"preset {stem}")
        for alias in (stem, rules.name, rules.name.replace(" ", "-"), rules.tag or ""):
            if alias:
                index[alias.lower()] = stem
    return index


def _resolve(name: str) -> str:
    key = name.strip().lower()
    if key not in _index():
        raise RuleFileError(f"unknown preset {name!r}: expected one of {', '.join(preset_names())} (or a tag: {preset_tags()})")
    return _index()[key]


def preset_tags() -> str:
    return ", ".join(sorted({load_preset(stem).tag or "" for stem in preset_names()} - {""}))


def preset_for_tag(tag: str) -> RuleSet:
    """The preset dealt by deal codes with this tag (``EL`` → Elevens)."""
    for stem in preset_names():
        rules = load_preset(stem)
        if rules.tag == tag.upper():
            return rules
    raise RuleFileError(f"no preset for deal-code tag {tag!r}; presets have tags {preset_tags()}")
