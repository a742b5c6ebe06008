"""Imported by the solver pool's fork server (and run by each worker's warm-up): every game loaded once.

The fork server imports this module before it forks any worker, so the game modules (OR-Tools
takes seconds to import) are loaded once and every worker, including one that replaces a killed
worker, starts warm.
"""

from __future__ import annotations

import halfmoon


def load_games() -> None:
    """Deal one deal of every game of the catalogue (which loads its rules and solvers)."""
    for game in halfmoon.games():
        halfmoon.deal(halfmoon.code(0, game.tag))


load_games()
