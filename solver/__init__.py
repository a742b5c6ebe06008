"""Solvers for Half Moon and its cousins: game rules in `solver.games`, search in `solver.core`."""
