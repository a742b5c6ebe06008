"""halfmoon: deal codes and exact solvers for Half Moon solitaire and its cousins.

The public API (the `halfmoon` command calls nothing else)::

    import halfmoon
    halfmoon.solve("HM1-N-AAAAAAB").verdict          # Verdict.WINNABLE, with a replayed line
    halfmoon.hint("HM1-N-AAAAAAB", moves="4+10")      # which moves keep the game winnable (every card known)
    halfmoon.fair_hint("HM1-N-AAAAAAB", moves="4+10") # the same, from what the player sees (sampled)
    halfmoon.analyze("HM1-N-AAAAAAB", moves="…")      # the move after which a game could no longer be won
    halfmoon.endgame("SH1-2-AAAAAAB", until="endgame", limits=halfmoon.Limits(seconds=10))
    [game.name for game in halfmoon.games()]          # the catalogue

Implementation: `halfmoon.solver.api`; the answers are `halfmoon.solver.results` values whose
``to_json()`` is what ``--json`` prints and the HTTP service sends.
"""

from halfmoon.dealcodes import DEAL_COUNT, DealCode, DealCodeError, parse_code, parse_range, sample_numbers
from halfmoon.solver.api import (
    analyze,
    code,
    deal,
    endgame,
    endgame_position,
    fair_hint,
    games,
    generate,
    hint,
    number,
    open_store,
    replay,
    rule_file,
    rule_preset_text,
    rule_presets,
    solve,
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
from halfmoon.solver.results import (
    Analysis,
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

__all__ = [
    "Analysis",
    "DEAL_COUNT",
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
    "PositionError",
    "Replay",
    "RuleFileError",
    "SolveResult",
    "SolverBug",
    "StoreError",
    "Tally",
    "UnknownGameError",
    "UnsupportedError",
    "Verdict",
    "analyze",
    "code",
    "deal",
    "endgame",
    "endgame_position",
    "fair_hint",
    "games",
    "generate",
    "hint",
    "number",
    "open_store",
    "parse_code",
    "parse_range",
    "replay",
    "rule_file",
    "rule_preset_text",
    "rule_presets",
    "sample_numbers",
    "solve",
    "survey",
]
