"""halfmoon: deal codes and exact solvers for Half Moon solitaire and its cousins.

The public API (the `halfmoon` command calls nothing else)::

    import halfmoon
    halfmoon.solve("HM1-N-AAAAAAB").verdict          # Verdict.WINNABLE, with a replayed line
    halfmoon.hint("HM1-N-AAAAAAB", moves="4+10")      # which moves keep the game winnable (every card known)
    halfmoon.fair_hint("HM1-N-AAAAAAB", moves="4+10") # the same, from what the player sees (sampled)
    halfmoon.analyze("HM1-N-AAAAAAB", moves="…")      # the move after which a game could no longer be won
    halfmoon.endgame("SH1-2-AAAAAAB", until="endgame", limits=halfmoon.Limits(seconds=10))
    [game.name for game in halfmoon.games()]          # the catalogue
    halfmoon.atlas_lookup("HM1-N-AAAAAAB", "atlas/")  # the verdict from a winnability atlas, no solving

Implementation: `halfmoon.solver.api`; the answers are `halfmoon.solver.results` values whose
``to_json()`` is what ``--json`` prints and the HTTP service sends.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # the names below, for type checkers; at run time they load on first use
    from halfmoon.dealcodes import (
        DEAL_COUNT,
        Card,
        DealCode,
        DealCodeError,
        code_pattern,
        parse_card,
        parse_code,
        parse_range,
        sample_numbers,
    )
    from halfmoon.solver.api import (
        analyze,
        atlas_build,
        atlas_lookup,
        atlas_merge,
        atlas_numbers,
        atlas_stats,
        atlas_unknowns,
        atlas_verify,
        code,
        curated,
        curation_state,
        deal,
        endgame,
        endgame_position,
        engine_warning,
        fair_hint,
        from_store,
        games,
        generate,
        hint,
        number,
        open_atlas,
        open_store,
        rate,
        replay,
        rule_file,
        rule_preset_text,
        rule_presets,
        solve,
        solver_version,
        survey,
    )
    from halfmoon.solver.catalogue import GameInfo
    from halfmoon.solver.core.verdicts import Limits, Verdict
    from halfmoon.solver.errors import (
        AtlasConflictError,
        AtlasCorruptError,
        AtlasError,
        IllegalMoveError,
        InputError,
        LimitError,
        LineError,
        MoveError,
        NotFoundError,
        PositionError,
        RuleFileError,
        SolverBug,
        StoreError,
        UnknownGameError,
        UnsupportedError,
    )
    from halfmoon.solver.rating import TIERS, RatingParams
    from halfmoon.solver.results import (
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
    from halfmoon.solver.stats import TimeHistogram, wilson
    from halfmoon.solver.store import ResultStore, StoredRating, StoredResult

#: Where each public name lives. Loading on first use keeps `import halfmoon` (and so every
#: `halfmoon` command, `--help` included) from importing the solvers, numpy or OR-tools up front.
_HOMES = {
    **dict.fromkeys(["DEAL_COUNT", "Card", "DealCode", "DealCodeError", "code_pattern", "parse_card", "parse_code",
                     "parse_range", "sample_numbers"], "halfmoon.dealcodes"),
    **dict.fromkeys(["atlas_build", "atlas_lookup", "atlas_merge", "atlas_numbers", "atlas_stats", "atlas_unknowns",
                     "atlas_verify", "open_atlas"], "halfmoon.solver.api"),
    **dict.fromkeys(["analyze", "code", "curated", "curation_state", "deal", "endgame", "endgame_position", "engine_warning",
                     "fair_hint", "from_store",
                     "games", "generate", "hint", "number", "open_store", "rate", "replay", "rule_file",
                     "rule_preset_text", "rule_presets", "solve", "solver_version", "survey"],
                    "halfmoon.solver.api"),
    "GameInfo": "halfmoon.solver.catalogue",
    **dict.fromkeys(["TimeHistogram", "wilson"], "halfmoon.solver.stats"),
    **dict.fromkeys(["Limits", "Verdict"], "halfmoon.solver.core.verdicts"),
    **dict.fromkeys(["AtlasConflictError", "AtlasCorruptError", "AtlasError"], "halfmoon.solver.errors"),
    **dict.fromkeys(["IllegalMoveError", "InputError", "LimitError", "LineError", "MoveError", "NotFoundError",
                     "PositionError",
                     "RuleFileError", "SolverBug", "StoreError", "UnknownGameError", "UnsupportedError"],
                    "halfmoon.solver.errors"),
    **dict.fromkeys(["Analysis", "AtlasEntry", "CuratedPage", "Deal", "EndgameResult", "FairHintResult", "FairMove", "HintResult",
                     "MoveVerdict", "Replay", "SolveResult", "Tally"],
                    "halfmoon.solver.results"),
    **dict.fromkeys(["RatingParams", "TIERS"], "halfmoon.solver.rating"),
    **dict.fromkeys(["ResultStore", "StoredRating", "StoredResult"], "halfmoon.solver.store"),
}


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'halfmoon' has no attribute {name!r}")
    value = getattr(importlib.import_module(home), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(__all__)


__all__ = [
    "Analysis",
    "Card",
    "DEAL_COUNT",
    "TIERS",
    "AtlasConflictError",
    "AtlasCorruptError",
    "AtlasEntry",
    "AtlasError",
    "CuratedPage",
    "Deal",
    "DealCode",
    "DealCodeError",
    "EndgameResult",
    "FairHintResult",
    "FairMove",
    "GameInfo",
    "HintResult",
    "IllegalMoveError",
    "InputError",
    "LimitError",
    "LineError",
    "Limits",
    "MoveError",
    "MoveVerdict",
    "NotFoundError",
    "PositionError",
    "RatingParams",
    "Replay",
    "ResultStore",
    "RuleFileError",
    "SolveResult",
    "SolverBug",
    "TimeHistogram",
    "StoreError",
    "StoredRating",
    "StoredResult",
    "Tally",
    "UnknownGameError",
    "UnsupportedError",
    "Verdict",
    "analyze",
    "atlas_build",
    "atlas_lookup",
    "atlas_merge",
    "atlas_numbers",
    "atlas_stats",
    "atlas_unknowns",
    "atlas_verify",
    "code",
    "code_pattern",
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
    "parse_card",
    "parse_code",
    "parse_range",
    "rate",
    "replay",
    "rule_file",
    "rule_preset_text",
    "rule_presets",
    "sample_numbers",
    "solve",
    "solver_version",
    "survey",
    "wilson",
]
