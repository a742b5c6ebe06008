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

from halfmoon.dealcodes import (
    DEAL_COUNT,
    Card,
    DealCode,
    DealCodeError,
    parse_card,
    parse_code,
    parse_range,
    sample_numbers,
)
from halfmoon.solver.api import (
    code,
    deal,
    endgame,
    endgame_position,
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
from halfmoon.solver.results import Deal, EndgameResult, HintResult, MoveVerdict, Replay, SolveResult

__all__ = [
    "Card",
    "DEAL_COUNT",
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
    "Replay",
    "RuleFileError",
    "SolveResult",
    "SolverBug",
    "StoreError",
    "UnknownGameError",
    "UnsupportedError",
    "Verdict",
    "code",
    "deal",
    "endgame",
    "endgame_position",
    "games",
    "generate",
    "hint",
    "number",
    "open_store",
    "parse_card",
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
