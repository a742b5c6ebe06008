# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""Shithead's df-pn compiled: two-player endgames (stock empty), win/loss threshold tests.

The reference is Python: `kernel.ShitheadKernel` (the rules on packed keys) and
`solver.core.proof.Prover` (df-pn with the 1+ε trick, repetitions never prove, path-dependent
disproofs not stored). This module does the same search on a smaller key and in native code;
the tests compare its successors with the kernel's on random positions and its values with the
Python prover's and with brute force. What differs is representation, never behaviour:

- a position is 127 bits: per rank (13) the distribution of its ≤ 4 cards over the 7 places
  (each hand, face-up and face-down set, and the pile) as one of 330 combinations (9 bits), then
  the seat to move, the pile's effective top, whether a 3 lies on top and the top run's length;
  the top run's rank follows from those (a 3 on top, else the top);
- the transposition table and the df-pn step are the ones every compiled prover shares
  (solver/core/_dfpn_table.pxi, _dfpn_step.pxi): open addressing, 32 bytes an entry, grown by
  doubling up to the memory budget, where unsettled entries are dropped (facts stay);
- children are generated into a buffer indexed by depth, not Python lists.

The search itself is `_prover.pxi`, shared with the three-player module `_native3.pyx`.
"""

cdef enum:
    NSEAT = 2
    NPLACE = 7          # hand0, up0, down0, hand1, up1, down1, pile
    PILE = 6
    HALF = 4            # a rank's combination number: the first 4 places, then the other 3
    RBITS = 9           # 330 combinations

include "_prover.pxi"  # the rules on native states and the df-pn prover
