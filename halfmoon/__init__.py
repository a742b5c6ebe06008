"""halfmoon: deal codes and exact solvers for Half Moon solitaire and its cousins.

The public API: the questions, their answers and the error vocabulary::

    import halfmoon
    halfmoon.solve("HM1-N-AAAAAAB").verdict          # Verdict.WINNABLE, with a replayed line
    halfmoon.hint("HM1-N-AAAAAAB", moves="4+10")      # which moves keep the game winnable (every card known)
    halfmoon.fair_hint("HM1-N-AAAAAAB", moves="4+10") # the same, from what the player sees (sampled)
    halfmoon.analyze("HM1-N-AAAAAAB", moves="…")      # the move after which a game could no longer be won
    halfmoon.endgame("SH1-2-AAAAAAB", until="endgame", limits=halfmoon.Limits(seconds=10))
    halfmoon.game("SH").title, [g.name for g in halfmoon.games()]   # the catalogue

Beside it, `halfmoon.atlas` (the winnability atlas: ``halfmoon.atlas.lookup("HM1-N-AAAAAAB",
"atlas/")``, no solving) and `halfmoon.service` (what the command line and the HTTP service
need beyond that: surveys, curation, the results store, deal-code parsing). The `halfmoon`
command calls nothing else. Implementation: `halfmoon.solver.api`; the answers are
`halfmoon.solver.results` values whose ``to_json()`` is what ``--json`` prints and the HTTP
service sends.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ._namespace import Namespace

if TYPE_CHECKING:  # the names of `_PUBLIC` for type checkers (tests/test_public_api.py checks that they agree)
    from halfmoon.dealcodes import DealCodeError as DealCodeError
    from halfmoon.solver.api.deals import deal as deal
    from halfmoon.solver.api.deals import replay as replay
    from halfmoon import atlas as atlas
    from halfmoon import service as service
    from halfmoon.solver.api.endgames import endgame as endgame
    from halfmoon.solver.api.endgames import endgame_position as endgame_position
    from halfmoon.solver.api.hints import analyze as analyze
    from halfmoon.solver.api.hints import fair_hint as fair_hint
    from halfmoon.solver.api.hints import hint as hint
    from halfmoon.solver.api.lookup import code as code
    from halfmoon.solver.api.lookup import game as game
    from halfmoon.solver.api.lookup import games as games
    from halfmoon.solver.api.solitaire import solve as solve
    from halfmoon.solver.catalogue import GameInfo as GameInfo
    from halfmoon.solver.core.verdicts import Limits as Limits
    from halfmoon.solver.core.verdicts import Verdict as Verdict
    from halfmoon.solver.errors import InputError as InputError
    from halfmoon.solver.errors import LineError as LineError
    from halfmoon.solver.errors import PositionError as PositionError
    from halfmoon.solver.errors import RuleFileError as RuleFileError
    from halfmoon.solver.errors import SolverBug as SolverBug
    from halfmoon.solver.errors import UnknownGameError as UnknownGameError
    from halfmoon.solver.errors import UnsupportedError as UnsupportedError
    from halfmoon.solver.results import Analysis as Analysis
    from halfmoon.solver.results import Deal as Deal
    from halfmoon.solver.results import EndgameResult as EndgameResult
    from halfmoon.solver.results import FairHintResult as FairHintResult
    from halfmoon.solver.results import HintResult as HintResult
    from halfmoon.solver.results import Replay as Replay
    from halfmoon.solver.results import SolveResult as SolveResult

_PUBLIC = Namespace(
    __name__,
    {
        # the questions
        "halfmoon.solver.api.lookup": ("games", "game", "code"),
        "halfmoon.solver.api.deals": ("deal", "replay"),
        "halfmoon.solver.api.solitaire": ("solve",),
        "halfmoon.solver.api.hints": ("hint", "fair_hint", "analyze"),
        "halfmoon.solver.api.endgames": ("endgame", "endgame_position"),
        # the values they take and give
        "halfmoon.solver.core.verdicts": ("Limits", "Verdict"),
        "halfmoon.solver.catalogue": ("GameInfo",),
        "halfmoon.solver.results": ("Deal", "Replay", "SolveResult", "HintResult", "FairHintResult", "Analysis",
                                    "EndgameResult"),
        # the errors: bad input of every kind is an InputError (exit 3, HTTP 400)
        "halfmoon.solver.errors": ("InputError", "LineError", "PositionError", "RuleFileError", "UnknownGameError",
                                   "UnsupportedError", "SolverBug"),
        "halfmoon.dealcodes": ("DealCodeError",),
    },
    moved={
        **{f"atlas_{name}": f"halfmoon.atlas.{name}"
           for name in ("build", "lookup", "merge", "numbers", "stats", "unknowns", "verify")},
        **{name: f"halfmoon.atlas.{name}"
           for name in ("open_atlas", "AtlasEntry", "AtlasError", "AtlasConflictError", "AtlasCorruptError")},
        **{name: f"halfmoon.service.{name}"
           for name in ("curated", "curation_state", "engine_warning", "from_store", "generate",
                        "number", "open_store", "rate", "rule_file", "rule_preset_text", "rule_presets", "survey",
                        "CuratedPage", "RatingParams", "ResultStore", "StoredRating", "StoredResult", "TIERS",
                        "TimeHistogram", "NotFoundError", "StoreError", "DEAL_COUNT", "code_pattern", "parse_card",
                        "parse_code", "parse_range", "sample_numbers")},
        **{name: f"halfmoon.dealcodes.{name}" for name in ("Card", "DealCode")},
        **{name: f"halfmoon.solver.results.{name}" for name in ("FairMove", "MoveVerdict", "Tally")},
        **{name: f"halfmoon.solver.errors.{name}" for name in ("IllegalMoveError", "LimitError", "MoveError")},
    },
    submodules=("atlas", "service"),
)
__all__ = _PUBLIC.names

if not TYPE_CHECKING:  # type checkers read the imports above, so a name not among them is an error there

    def __getattr__(name: str) -> Any:
        return _PUBLIC.load(name)

    def __dir__() -> list[str]:
        return list(__all__)
