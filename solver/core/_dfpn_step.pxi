# The df-pn step that every compiled endgame prover shares (solver/games/*/_native.pyx).
# Included, not cimported, so that it inlines into each prover's hot loop; it knows nothing of a
# game or its keys, only the children's proof and disproof numbers. The readable reference is
# `solver.core.proof.Prover._mid`; the provers' tests hold the two to the same values.

from cpython.exc cimport PyErr_CheckSignals
from libc.stdint cimport int32_t, uint64_t
from posix.time cimport CLOCK_MONOTONIC, clock_gettime, timespec

cdef uint64_t INF = (<uint64_t>1) << 62  # "infinite" proof or disproof number: far beyond any sum

cdef enum:  # what a prover's run() returns, with the expansions it used (solver.core.proof reads them)
    DONE = 0          # the root is settled
    PAUSED = 1        # the expansion budget of the call is used up
    TIME = 2          # the time limit passed
    MEMORY = 3        # the table cannot grow and nothing can be dropped
    DEPTH = 4         # the search path reached MAXDEPTH
    INTERRUPTED = 5   # Ctrl-C, or `cancel` set from another thread


ctypedef struct DfpnStep:
    uint64_t pn      # the node's proof number, from its children's
    uint64_t dn      # its disproof number
    int best         # the child to search next
    uint64_t c_pn    # that child's thresholds
    uint64_t c_dn


cdef inline bint _dfpn_step(uint64_t* kpn, uint64_t* kdn, int n, bint is_or, bint weak,
                            double epsilon, uint64_t th_pn, uint64_t th_dn, DfpnStep* out) noexcept nogil:
    """The node's numbers from its `n` children's; True when the node is settled or over a
    threshold (the search returns), else the child to search and its thresholds (1+ε trick).

    An AND node is an OR node with proof and disproof swapped, so one loop serves both: the
    *least* number is minimised over the children, the *summed* one added up (`weak`: the largest
    plus one per other live child, which does not count a shared descendant twice)."""
    cdef uint64_t* least = kpn if is_or else kdn
    cdef uint64_t* summed = kdn if is_or else kpn
    cdef uint64_t th_least = th_pn if is_or else th_dn
    cdef uint64_t th_summed = th_dn if is_or else th_pn
    cdef uint64_t low = INF, second = INF, total = 0, top = 0, live = 0, a, b, c_least, c_summed
    cdef int i, best = 0
    for i in range(n):
        a = least[i]
        b = summed[i]
        total += b
        if total > INF:
            total = INF
        if b:
            live += 1
            if b > top:
                top = b
        if a < low:
            second = low
            low = a
            best = i
        elif a < second:
            second = a
    if weak and live:
        total = top + live - 1
        if total > INF:
            total = INF
    out.pn = low if is_or else total
    out.dn = total if is_or else low
    out.best = best
    if low == 0 or total == 0 or low >= th_least or total >= th_summed:
        return True
    c_least = <uint64_t>(second * epsilon) + 1 if second < INF else INF
    if c_least > th_least:
        c_least = th_least
    if weak:  # the child reaching it makes it the largest: the sum reaches the threshold
        c_summed = th_summed - (live - 1) if th_summed < INF else INF
    else:
        c_summed = th_summed - total + summed[best]
    if c_summed > INF:
        c_summed = INF
    out.c_pn = c_least if is_or else c_summed
    out.c_dn = c_summed if is_or else c_least
    return False


cdef inline int32_t _disproof_loop(int32_t* kloop, uint64_t* kdn, int n, bint is_or) noexcept nogil:
    """The shallowest depth on the current path that a disproof of this node relies on (a
    repetition), from its children's; 0x3FFFFFFF when it relies on none. An OR node relies on every
    child's; an AND node on its disproven children's (any one refutes it: the deepest is kept)."""
    cdef int32_t loop
    cdef int i
    if is_or:
        loop = 0x3FFFFFFF
        for i in range(n):
            if kloop[i] < loop:
                loop = kloop[i]
    else:
        loop = -1
        for i in range(n):
            if kdn[i] == 0 and kloop[i] > loop:
                loop = kloop[i]
    return loop


cdef double _now() noexcept nogil:
    cdef timespec ts
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return ts.tv_sec + ts.tv_nsec * 1e-9


cdef inline int _poll(uint64_t expansions, uint64_t slice_end, double deadline, bint cancel) noexcept nogil:
    """Whether a running search stops at this expansion: PAUSED at the end of its slice; every
    CHECK_EVERY + 1 expansions (the including module's constant), TIME past the deadline and
    INTERRUPTED when cancelled from another thread or on Ctrl-C (which reaches the main thread
    only); else DONE (go on)."""
    if expansions >= slice_end:
        return PAUSED
    if (expansions & CHECK_EVERY) == 0:
        if _now() > deadline:
            return TIME
        if cancel:
            return INTERRUPTED
        with gil:
            if PyErr_CheckSignals() != 0:
                return INTERRUPTED
    return DONE
