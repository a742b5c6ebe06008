"""halfmoon: deal codes and exact solvers for Half Moon solitaire and its cousins.

The public API (the `halfmoon` command calls nothing else)::

    import halfmoon
    halfmoon.solve("HM1-N-AAAAAAB").verdict          # Verdict.WINNABLE, with a replayed line
    halfmoon.hint("HM1-N-AAAAAAB", moves="4+10")      # which moves keep the game winnable
    halfmoon.endgame("SH1-2-AAAAAAB", until="endgame", limits=halfmoon.Limits(seconds=10))
    [game.name for game in halfmoon.games()]          # the catalogue

Implementation: `halfmoon.solver.api`; the answers are `halfmoon.solver.results` values whose
``to_json()`` is what ``--json`` prints and the HTTP service sends.
"""

from halfmoon.dealcodes import DEAL_COUNT, DealCode, DealCodeError, parse_code, parse_range, sample_numbers
from halfmoon.solver.api import (
    code,
    curated,
    curation_state,
    deal,
    endgame,
    endgame_position,
    from_store,
    games,
    generate,
    hint,
    number,
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
    IllegalMoveError,
    InputError,
    LimitError,
    LineError,
    MoveError,
    PositionError,
    RuleFileError,
    SolverBug,
    StoreError,
    UnknownGameError,
    UnsupportedError,
)
from halfmoon.solver.rating import TIERS, RatingParams
from halfmoon.solver.results import CuratedPage, Deal, EndgameResult, HintResult, MoveVerdict, Replay, SolveResult
from halfmoon.solver.store import ResultStore, StoredRating, StoredResult

__all__ = [
    "DEAL_COUNT",
    "TIERS",
    "CuratedPage",
    "Deal",
    "DealCode",
    "DealCodeError",
    "EndgameResult",
    "GameInfo",
    "HintResult",
    "IllegalMoveError",
    "InputError",
    "LimitError",
    "LineError",
    "Limits",
    "MoveError",
    "MoveVerdict",
    "PositionError",
    "RatingParams",
    "Replay",
    "ResultStore",
    "RuleFileError",
    "SolveResult",
    "SolverBug",
    "StoreError",
    "StoredRating",
    "StoredResult",
    "UnknownGameError",
    "UnsupportedError",
    "Verdict",
    "code",
    "curated",
    "curation_state",
    "deal",
    "endgame",
    "endgame_position",
    "from_store",
    "games",
    "generate",
    "hint",
    "number",
    "open_store",
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
]
