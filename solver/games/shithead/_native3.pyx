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

cimport cython
from cpython.exc cimport PyErr_CheckSignals
from libc.stdint cimport int32_t, int64_t, uint8_t, uint16_t, uint32_t, uint64_t
from libc.stdlib cimport calloc, free, malloc
from libc.string cimport memcpy, memset


cdef extern from *:
    void __builtin_prefetch(const void* address) noexcept nogil

cdef enum:
    NSEAT = 3
    NPLACE = 10         # hand, face-up, face-down of seats 0, 1, 2, then the pile
    PILE = 9
    HALF = 5            # a rank's combination number: the first 5 places, then the other 5
    RBITS = 10          # 1001 combinations
    MAXKIDS = 64
    CHECK_EVERY = 4095
    MAXDEPTH = 10000

include "../../core/_dfpn_step.pxi"  # INF, the df-pn step shared by the compiled provers
include "../../core/_dfpn_table.pxi"  # Key, Entry and the transposition table
cdef uint64_t VALID = (<uint64_t>1) << 63  # bit 127 of every stored key: the slot is used

include "_prover.pxi"  # the rules on native states and the df-pn prover
