"""Spit: the rules of one round under the project's alternating model, and a solitaire count.

`rules` holds the values (`SpitPosition`, `SpitMove`), the rules and the core's `Game`
(`GAME`); `solitaire` counts the fewest actions a player needs to clear the stock alone;
`rounds` settles a finished round (slapping, gathering) and lays out the next; `endgame` is
the adapter for `halfmoon endgame spit`.
"""

from .rules import *  # noqa: F401,F403
from .rules import __all__ as _rules_all

__all__ = list(_rules_all)

from .endgame import SpitAdapter  # noqa: E402

ENDGAME_ADAPTERS = [SpitAdapter()]  # found by solver.core.endgame's discovery
