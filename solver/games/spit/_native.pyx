# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""Spit's packed kernel compiled: successors, terminal results and table keys on `SpitKernel` keys.

The reference is `kernel.SpitKernel` (Python, the same keys and the same order of successors);
`tests/games/test_spit_native.py` compares the two on every position of random playouts. The
layout (offsets, widths, the tables of place states) is the Python kernel's, handed over once
per root; `SpitKernel` uses this module only when a key and a table key fit in 64 bits (every
dealt round does), so a key is one `uint64_t` here and a Python int outside. Only the
representation differs, never the rules. A key this root cannot have made raises ValueError.
"""

from cpython.long cimport PyLong_FromUnsignedLongLong
from libc.stdint cimport uint64_t

cdef enum:
    SEATS = 2
    PLACES = 10         # five stock places a seat
    TOP_A = 2           # bits 2-7: top card of spit pile A (63: empty)
    TOP_B = 8           # bits 8-13: pile B
    K_AT = 14           # then the spits so far, then the places
    NO_TOP = 63
    MAX_STATES = 128    # states of a place: empty, the root pile's prefixes, each movable card alone
    MAX_SPIT = 64
    MAX_BINOM = MAX_STATES * SEATS + 8

cdef int[13] ADJACENT   # bit t of ADJACENT[r]: ranks r and t one apart, ace next to king and 2
cdef int _r, _t
for _r in range(13):
    ADJACENT[_r] = 0
    for _t in range(13):
        if (_r - _t + 13) % 13 in (1, 12):
            ADJACENT[_r] |= 1 << _t


cdef inline int _rank(int top) noexcept nogil:
    """The rank (0 = ace … 12 = king) of a top field, -1 for an empty pile."""
    return top % 13 if top < 52 else -1


cdef class Kernel:
    """The rules of `SpitKernel` for one root: its spit cards and its places' tables."""

    cdef int k_bits, k_max, bits
    cdef uint64_t k_mask
    cdef int[SEATS] n_spit
    cdef int[SEATS][MAX_SPIT] spit
    cdef int[PLACES] off, count
    cdef uint64_t[PLACES] mask
    cdef uint64_t[SEATS] stock_mask
    cdef int[PLACES][MAX_STATES] top       # the top card of each state (-1: empty)
    cdef int[PLACES][MAX_STATES] pop       # the state once the top card is gone
    cdef int[PLACES][MAX_STATES] split     # movable index of the top of a pile of two or more, else -1
    cdef int[PLACES][MAX_STATES] fill      # fill[p][j]: the state of place p holding movable card j alone
    cdef int[PLACES] n_fill
    cdef int[PLACES][MAX_STATES] run       # the seat's id of the state's rank run
    cdef int[SEATS] table_off
    cdef uint64_t[MAX_BINOM][6] binom
    cdef object win0, win1, no_winner      # the rules' Outcome objects

    def __cinit__(self, int k_bits, int k_max, tuple spit, tuple offsets, tuple widths, tuple top, tuple pop,
                  tuple split, tuple fill, tuple run, tuple table_offsets, object win0, object win1,
                  object no_winner):
        cdef int p, s, state, j, n, r, bits
        if len(spit) != SEATS or len(table_offsets) != SEATS:
            raise ValueError("spit native kernel: two seats' spit cards and table offsets")
        for name, table in (("offsets", offsets), ("widths", widths), ("top", top), ("pop", pop),
                            ("split", split), ("fill", fill), ("run", run)):
            if len(table) != PLACES:
                raise ValueError(f"spit native kernel: {name} of {len(table)} places, expected {PLACES}")
        if not 0 <= k_bits <= 6 or not 0 <= k_max < (1 << k_bits if k_bits else 1):
            raise ValueError(f"spit native kernel: {k_max} spits in {k_bits} bits")
        self.k_bits, self.k_max = k_bits, k_max
        self.k_mask = (<uint64_t>1 << k_bits) - 1
        for s in range(SEATS):
            if len(spit[s]) > MAX_SPIT or len(spit[s]) > k_max:
                raise ValueError(f"spit native kernel: {len(spit[s])} spit cards for player {s}, at most {k_max}")
            self.n_spit[s] = len(spit[s])
            for j in range(self.n_spit[s]):
                if not 0 <= spit[s][j] < 52:
                    raise ValueError(f"spit native kernel: spit card {spit[s][j]!r} is not a card")
                self.spit[s][j] = spit[s][j]
        bits = K_AT + k_bits
        self.stock_mask[0] = self.stock_mask[1] = 0
        for p in range(PLACES):
            n = len(top[p])
            if not 1 <= n <= MAX_STATES or len(pop[p]) != n or len(split[p]) != n or len(run[p]) != n \
                    or len(fill[p]) > MAX_STATES or not 0 <= widths[p] <= 63 \
                    or int(n - 1).bit_length() > widths[p]:
                raise ValueError(f"spit native kernel: place {p}: the tables of its states do not agree")
            self.count[p] = n
            self.mask[p] = (<uint64_t>1 << widths[p]) - 1 if widths[p] else 0
            # a place of width 0 is always empty; its offset is moot (and must not be 64 in C)
            self.off[p] = offsets[p] if widths[p] else 0
            if widths[p] and (offsets[p] != bits or offsets[p] + widths[p] > 64):
                raise ValueError(f"spit native kernel: place {p} at bit {offsets[p]}, expected {bits} (at most 64 bits)")
            bits += widths[p]
            self.stock_mask[p // 5] |= self.mask[p] << self.off[p]
            for state in range(n):
                if not -1 <= top[p][state] < 52 or not 0 <= pop[p][state] < n or not -1 <= split[p][state] < MAX_STATES \
                        or not 0 <= run[p][state] < MAX_STATES * SEATS or (top[p][state] < 0) != (state == 0):
                    raise ValueError(f"spit native kernel: place {p} state {state}: out of range")
                self.top[p][state] = top[p][state]
                self.pop[p][state] = pop[p][state]
                self.split[p][state] = split[p][state]
                self.run[p][state] = run[p][state]
            self.n_fill[p] = len(fill[p])
            for j in range(self.n_fill[p]):
                if not 0 < fill[p][j] < n:
                    raise ValueError(f"spit native kernel: place {p} fill {j}: out of range")
                self.fill[p][j] = fill[p][j]
        for p in range(PLACES):
            for state in range(self.count[p]):
                if self.split[p][state] >= self.n_fill[p]:
                    raise ValueError(f"spit native kernel: place {p} state {state}: no such movable card")
        self.bits = bits
        for s in range(SEATS):
            self.table_off[s] = table_offsets[s]
            if not 0 <= table_offsets[s] <= 64:
                raise ValueError("spit native kernel: table offsets past 64 bits")
        for n in range(MAX_BINOM):
            for r in range(6):
                if r == 0:
                    self.binom[n][r] = 1
                elif n == 0:
                    self.binom[n][r] = 0
                else:
                    self.binom[n][r] = self.binom[n - 1][r - 1] + self.binom[n - 1][r]
        self.win0, self.win1, self.no_winner = win0, win1, no_winner

    cdef uint64_t _read(self, object key) except? 0xFFFFFFFFFFFFFFFF:
        """The key as 64 bits, every field checked against this root (ValueError if it cannot be one)."""
        cdef uint64_t k
        cdef int p, state, a, b
        if type(key) is not int:
            raise ValueError(f"spit native kernel: {key!r} is not a key (an int)")
        try:
            k = key
        except OverflowError:
            raise ValueError(f"spit native kernel: {key!r} is not a key of this root ({self.bits} bits)") from None
        if self.bits < 64 and k >> self.bits:
            raise ValueError(f"spit native kernel: {key!r} is not a key of this root ({self.bits} bits)")
        a = <int>((k >> TOP_A) & 63)
        b = <int>((k >> TOP_B) & 63)
        if 52 <= a < NO_TOP or 52 <= b < NO_TOP:
            raise ValueError(f"spit native kernel: spit pile top {a if 52 <= a < NO_TOP else b} is not a card")
        if <int>((k >> K_AT) & self.k_mask) > self.k_max:
            raise ValueError(f"spit native kernel: {(k >> K_AT) & self.k_mask} spits, the root has {self.k_max}")
        for p in range(PLACES):
            state = <int>((k >> self.off[p]) & self.mask[p])
            if state >= self.count[p]:
                raise ValueError(f"spit native kernel: stock place {p % 5 + 1} of player {p // 5} in state {state} "
                                 f"of {self.count[p]}")
        return k

    cdef bint _can_act(self, uint64_t k, int seat) noexcept nogil:
        cdef int a = _rank(<int>((k >> TOP_A) & 63)), b = _rank(<int>((k >> TOP_B) & 63))
        cdef int tops = (1 << a if a >= 0 else 0) | (1 << b if b >= 0 else 0)
        cdef bint empty = False, splittable = False
        cdef int p, state
        for p in range(5 * seat, 5 * seat + 5):
            state = <int>((k >> self.off[p]) & self.mask[p])
            if not state:
                empty = True
                continue
            if ADJACENT[self.top[p][state] % 13] & tops:
                return True
            if self.split[p][state] >= 0:
                splittable = True
        return empty and splittable

    cdef int _terminal(self, uint64_t k) noexcept nogil:
        """-1 while play goes on; 0 / 1: that seat cleared its stock; 2: the round ends with no winner."""
        if not k & self.stock_mask[0]:
            return 0
        if not k & self.stock_mask[1]:
            return 1
        if <int>((k >> K_AT) & self.k_mask) >= self.k_max and not self._can_act(k, 0) and not self._can_act(k, 1):
            return 2
        return -1

    def terminal(self, key):
        """The round's result (the rules' own Outcome objects) once it is over, else None."""
        cdef int t = self._terminal(self._read(key))
        if t < 0:
            return None
        return self.win0 if t == 0 else self.win1 if t == 1 else self.no_winner

    def successors(self, key):
        """Every legal move's result and False (no move is reversible), in `SpitKernel.successors`'
        order: plays by place (pile A before B), then fills (by source, then empty place), else the pass."""
        cdef uint64_t k = self._read(key)
        cdef uint64_t base, taken, child
        cdef int seat, ra, rb, p, at, state, card, adjacent, e, i, j, done
        cdef int[5] empty
        cdef int[5] splits
        cdef int[5] split_states
        cdef int n_empty = 0, n_split = 0
        if self._terminal(k) >= 0:
            return []
        out = []
        seat = <int>(k & 1)
        ra = _rank(<int>((k >> TOP_A) & 63))
        rb = _rank(<int>((k >> TOP_B) & 63))
        base = (k & ~(<uint64_t>3)) | <uint64_t>(seat ^ 1)  # the other player to move, no pass pending
        for p in range(5 * seat, 5 * seat + 5):
            at = self.off[p]
            state = <int>((k >> at) & self.mask[p])
            if not state:
                empty[n_empty] = p
                n_empty += 1
                continue
            card = self.top[p][state]
            adjacent = ADJACENT[card % 13]
            taken = (base & ~(self.mask[p] << at)) | (<uint64_t>self.pop[p][state] << at)
            if ra >= 0 and (adjacent >> ra) & 1:
                out.append((PyLong_FromUnsignedLongLong((taken & ~(<uint64_t>63 << TOP_A)) | (<uint64_t>card << TOP_A)),
                            False))
            if rb >= 0 and (adjacent >> rb) & 1:
                out.append((PyLong_FromUnsignedLongLong((taken & ~(<uint64_t>63 << TOP_B)) | (<uint64_t>card << TOP_B)),
                            False))
            if self.split[p][state] >= 0:
                splits[n_split] = p
                split_states[n_split] = state
                n_split += 1
        if n_empty:
            for i in range(n_split):
                p = splits[i]
                state = split_states[i]
                at = self.off[p]
                taken = (base & ~(self.mask[p] << at)) | (<uint64_t>self.pop[p][state] << at)
                j = self.split[p][state]
                for e in range(n_empty):
                    child = taken | (<uint64_t>self.fill[empty[e]][j] << self.off[empty[e]])
                    out.append((PyLong_FromUnsignedLongLong(child), False))
        if out:
            return out
        if not (k >> 1) & 1:
            return [(PyLong_FromUnsignedLongLong(base | 2), False)]
        done = <int>((k >> K_AT) & self.k_mask)  # both players pass: each with a spit card turns it
        child = base
        if done < self.k_max:
            if done < self.n_spit[0]:
                child = (child & ~(<uint64_t>63 << TOP_A)) | (<uint64_t>self.spit[0][done] << TOP_A)
            if done < self.n_spit[1]:
                child = (child & ~(<uint64_t>63 << TOP_B)) | (<uint64_t>self.spit[1][done] << TOP_B)
            child += <uint64_t>1 << K_AT
        return [(PyLong_FromUnsignedLongLong(child), False)]

    def table_key(self, key):
        """The canonical key (`SpitKernel.table_key`): the tops' ranks, the spits, and per seat
        the sorted ids of its places' rank runs ranked as a multiset."""
        cdef uint64_t k = self._read(key)
        cdef uint64_t out, ranked
        cdef int s, p, i, j, x
        cdef int[5] ids
        out = (k & 3) | (<uint64_t>(_rank(<int>((k >> TOP_A) & 63)) + 1) << 2) \
            | (<uint64_t>(_rank(<int>((k >> TOP_B) & 63)) + 1) << 6) | (((k >> K_AT) & self.k_mask) << 10)
        for s in range(SEATS):
            for i in range(5):
                p = 5 * s + i
                x = self.run[p][<int>((k >> self.off[p]) & self.mask[p])]
                j = i
                while j > 0 and ids[j - 1] > x:  # insertion sort, ascending
                    ids[j] = ids[j - 1]
                    j -= 1
                ids[j] = x
            ranked = 0
            for j in range(5):
                ranked += self.binom[ids[j] + j][j + 1]
            if ranked:
                out |= ranked << self.table_off[s]
        return PyLong_FromUnsignedLongLong(out)
