"""halfmoon: deal codes and exact solvers for Half Moon solitaire and its cousins."""
