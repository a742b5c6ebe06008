# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""Shithead's df-pn compiled for three players: endgames (stock empty), "can the others together
force this seat to be the shithead?" (one threshold test per seat: value < 1 of `avoid_last`,
endless play counting as avoided, so a repetition never proves).

The same source as the two-player module (`_prover.pxi`, see `_native.pyx`) with three seats:
a position is 140 bits (per rank one of 1001 combinations of its ≤ 4 cards over the 10 places,
10 bits, then the seat to move and the pile's state), in the lo, hi and x words of a table key.
The references are the same: `kernel.ShitheadKernel` and the Python prover; the tests compare
successors on random three-player positions and values with the Python prover and brute force.
A test is settled as soon as its seat is out (it can no longer be the shithead), without
playing the others' game to its end.
"""

cdef enum:
    NSEAT = 3
    NPLACE = 10         # hand, face-up, face-down of seats 0, 1, 2, then the pile
    PILE = 9
    HALF = 5            # a rank's combination number: the first 5 places, then the other 5
    RBITS = 10          # 1001 combinations

include "_prover.pxi"  # the rules on native states and the df-pn prover
