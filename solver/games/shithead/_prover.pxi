# Shithead's df-pn, compiled for a fixed number of seats: included by _native.pyx (two seats)
# and _native3.pyx (three), which declare before the include NSEAT, NPLACE (3 × NSEAT + 1: each
# seat's hand, face-up and face-down cards, then the pile), PILE (= NPLACE - 1), HALF (places in
# the first half of a rank's combination number, see below) and RBITS (bits of that number).
# One source, so the two modules cannot drift apart; the constants fold at compile time, so
# neither pays for the other.

cimport cython
from cpython.exc cimport PyErr_CheckSignals
from libc.stdint cimport int32_t, int64_t, uint8_t, uint16_t, uint32_t, uint64_t
from libc.stdlib cimport calloc, free, malloc
from libc.string cimport memcpy, memset


cdef extern from *:
    void __builtin_prefetch(const void* address) noexcept nogil

cdef enum:
    MAXKIDS = 64
    CHECK_EVERY = 4095
    MAXDEPTH = 10000

include "../../core/_dfpn_step.pxi"  # INF, the df-pn step shared by the compiled provers
include "../../core/_dfpn_table.pxi"  # Key, Entry and the transposition table
cdef uint64_t VALID = (<uint64_t>1) << 63  # bit 127 of every stored key: the slot is used

# -- rank tables --------------------------------------------------------------------------------

# A rank's ≤ 4 cards spread over the NPLACE places are one combination of C(NPLACE + 4, 4) (330
# for two players, 1001 for three), numbered in two halves: the counts on the first HALF places
# and on the others, each read as a base-5 code; the number is BASE[sum a][sum b] + (a's rank
# among the half-tuples of its sum) × (how many b-tuples have b's sum) + (b's rank).
cdef uint8_t SUM_A[3125]         # base-5 code of the first half's counts → their sum (99: over 4)
cdef uint8_t SUM_B[3125]
cdef uint16_t IDX_A[3125]        # … → its rank among the half-tuples of that sum
cdef uint16_t IDX_B[3125]
cdef uint16_t N_B[5]             # second-half tuples by sum
cdef uint16_t BASE[5][5]
cdef uint8_t TUPLE[1001][NPLACE]  # combination number → the counts
cdef int NCOMB = 0
cdef int POW5[NPLACE]            # 5^i for the first half, 5^(i - HALF) for the second
cdef bint CAN[14][14]            # CAN[rank][top]
cdef int ORDER[13]               # ranks by strength: 2 3 4 … K A

cdef int _strength(int r) noexcept nogil:
    return 14 if r == 1 else r

cdef void _half_tables(int places, uint8_t* sums, uint16_t* idx, uint16_t* counts):
    """Number the tuples of `places` counts (base-5 codes) by sum; `counts[s]`: how many."""
    cdef int code, i, t, total, size = 1
    for i in range(places):
        size *= 5
    for i in range(5):
        counts[i] = 0
    for code in range(3125):
        sums[code] = 99
    for code in range(size):
        total = 0
        t = code
        for i in range(places):
            total += t % 5
            t //= 5
        if total <= 4:
            sums[code] = total
            idx[code] = counts[total]
            counts[total] += 1

cdef void _init_tables():
    global NCOMB
    cdef uint16_t n_a[5]
    cdef int a, b, i, t, r, sa, sb, number, offset = 0, size_a = 1, size_b = 1
    for i in range(NPLACE):
        POW5[i] = 1
        for t in range(i if i < HALF else i - HALF):
            POW5[i] *= 5
    for i in range(HALF):
        size_a *= 5
    for i in range(NPLACE - HALF):
        size_b *= 5
    _half_tables(HALF, SUM_A, IDX_A, n_a)
    _half_tables(NPLACE - HALF, SUM_B, IDX_B, N_B)
    for sa in range(5):
        for sb in range(5 - sa):
            BASE[sa][sb] = offset
            offset += n_a[sa] * N_B[sb]
    NCOMB = offset
    for a in range(size_a):
        for b in range(size_b):
            if SUM_A[a] + SUM_B[b] > 4:
                continue
            number = BASE[SUM_A[a]][SUM_B[b]] + IDX_A[a] * N_B[SUM_B[b]] + IDX_B[b]
            t = a
            for i in range(HALF):
                TUPLE[number][i] = t % 5
                t //= 5
            t = b
            for i in range(HALF, NPLACE):
                TUPLE[number][i] = t % 5
                t //= 5
    for r in range(14):
        for t in range(14):
            if r == 0:
                CAN[r][t] = False
            elif r == 2 or r == 3 or r == 10 or t == 0 or t == 2:
                CAN[r][t] = True
            elif t == 7:
                CAN[r][t] = _strength(r) <= 7
            else:
                CAN[r][t] = _strength(r) >= _strength(t)
    i = 0
    for r in (2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 1):
        ORDER[i] = r
        i += 1

_init_tables()
if NCOMB > 1001 or NCOMB > (1 << RBITS):  # C(NPLACE + 4, 4): 330 or 1001, in RBITS bits
    raise ImportError(f"shithead native prover: {NCOMB} combinations of a rank do not fit {RBITS} bits")

# -- positions ----------------------------------------------------------------------------------

ctypedef struct State:
    uint8_t c[NPLACE][14]
    int seat
    int top
    int run_rank
    int run_len

cdef inline int _cards(State* s, int seat) noexcept nogil:
    cdef int r, total = 0
    cdef int b = 3 * seat
    for r in range(1, 14):
        total += s.c[b][r] + s.c[b + 1][r] + s.c[b + 2][r]
    return total


cdef inline int _turns(State* s, int seat) noexcept nogil:
    """Turns a player needs to shed every card if never held up: one per rank in hand, one per
    table card; tens give the turn back."""
    cdef int r, total = 0
    cdef int b = 3 * seat
    for r in range(1, 14):
        if s.c[b][r]:
            total += 1
        total += s.c[b + 1][r] + s.c[b + 2][r]
    total -= s.c[b][10] + s.c[b + 1][10] + s.c[b + 2][10]
    return total if total > 0 else 0


cdef inline void _put(uint64_t* w, int at, uint64_t value) noexcept nogil:
    """OR `value` into the bit stream `w` at bit `at` (it may straddle two words)."""
    w[at >> 6] |= value << (at & 63)
    if (at & 63) and (value >> (64 - (at & 63))):
        w[(at >> 6) + 1] |= value >> (64 - (at & 63))


cdef inline uint64_t _get(const uint64_t* w, int at, int width) noexcept nogil:
    cdef uint64_t v = w[at >> 6] >> (at & 63)
    if (at & 63) + width > 64:
        v |= w[(at >> 6) + 1] << (64 - (at & 63))
    return v & ((<uint64_t>1 << width) - 1)


cdef inline Key _pack(State* s) noexcept nogil:
    """The key: a bit stream of RBITS bits a rank (its combination number), then the seat to move
    (2 bits), the pile's effective top (4), whether a 3 lies on top (1) and the top run's length
    (3); stream bits 0-126 go to lo and hi (whose bit 63 marks a used slot), the rest to x."""
    cdef Key k
    cdef uint64_t w[3]
    cdef int r, i, a, b, head = 13 * RBITS
    w[0] = 0
    w[1] = 0
    w[2] = 0
    for r in range(1, 14):
        a = 0
        b = 0
        for i in range(HALF):
            a += s.c[i][r] * POW5[i]
        for i in range(HALF, NPLACE):
            b += s.c[i][r] * POW5[i]
        _put(w, RBITS * (r - 1), BASE[SUM_A[a]][SUM_B[b]] + IDX_A[a] * N_B[SUM_B[b]] + IDX_B[b])
    _put(w, head, s.seat)
    _put(w, head + 2, s.top)
    _put(w, head + 6, 1 if (s.run_rank == 3 and s.run_len > 0) else 0)
    _put(w, head + 7, s.run_len)
    k.lo = w[0]
    k.hi = (w[1] & ~VALID) | VALID
    k.x = <uint32_t>((w[1] >> 63) | (w[2] << 1))
    k.e = 0
    return k


cdef inline void _unpack(Key k, State* s) noexcept nogil:
    cdef uint64_t w[3]
    cdef int r, i, head = 13 * RBITS
    cdef uint64_t idx
    w[0] = k.lo
    w[1] = (k.hi & ~VALID) | ((<uint64_t>k.x & 1) << 63)
    w[2] = (<uint64_t>k.x) >> 1
    for r in range(1, 14):
        idx = _get(w, RBITS * (r - 1), RBITS)
        for i in range(NPLACE):
            s.c[i][r] = TUPLE[idx][i]
    for i in range(NPLACE):
        s.c[i][0] = 0
    s.seat = <int>_get(w, head, 2)
    s.top = <int>_get(w, head + 2, 4)
    s.run_len = <int>_get(w, head + 7, 3)
    if _get(w, head + 6, 1):
        s.run_rank = 3
    else:
        s.run_rank = s.top if s.run_len > 0 else 0


cdef inline void _finish(State* s, int seat, int steps, bint again) noexcept nogil:
    """The seat to move after `seat`'s move: the same again after a burn (if it still holds
    cards), else `steps` seats on among those holding cards (an 8 skips one each)."""
    cdef int active[NSEAT]
    cdef int i, t, live = 0
    for i in range(NSEAT):
        active[i] = _cards(s, i) > 0
        live += active[i]
    if live <= 1 or (again and active[seat]):
        s.seat = seat
        return
    if steps < 1:
        steps = 1
    t = seat
    for i in range(steps):
        t = t + 1 if t + 1 < NSEAT else 0
        while not active[t]:
            t = t + 1 if t + 1 < NSEAT else 0
    s.seat = t


cdef inline void _play(State* s, int seat, int r, int cnt) noexcept nogil:
    """Cards already taken from the player: put `cnt` cards of rank `r` on the pile."""
    cdef int new_run, i
    if r == s.run_rank and s.run_len > 0:
        new_run = s.run_len + cnt
    else:
        new_run = cnt
    if r == 10 or new_run >= 4:
        for i in range(1, 14):
            s.c[PILE][i] = 0
        s.top = 0
        s.run_rank = 0
        s.run_len = 0
        _finish(s, seat, 0, True)
        return
    s.c[PILE][r] += cnt
    if r != 3:
        s.top = r
    s.run_rank = r
    s.run_len = new_run
    _finish(s, seat, 1 + (cnt if r == 8 else 0), False)


cdef inline void _take_pile(State* s, int seat, int h) noexcept nogil:
    cdef int i
    for i in range(1, 14):
        s.c[h][i] += s.c[PILE][i]
        s.c[PILE][i] = 0
    s.top = 0
    s.run_rank = 0
    s.run_len = 0
    _finish(s, seat, 1, False)


cdef int _successors(State* s, State* out) noexcept nogil:
    """Every legal move's result (the order of `ShitheadKernel.successors`); returns the count."""
    cdef int seat = s.seat
    cdef int h = 3 * seat, u = h + 1, d = h + 2
    cdef int n = 0, i, r, cnt, extra, nranks = 0, single = 0, ups = 0, src, hand_cards = 0, pile_cards = 0
    cdef int top = s.top
    for i in range(1, 14):
        if s.c[h][i]:
            nranks += 1
            single = i
            hand_cards += s.c[h][i]
        pile_cards += s.c[PILE][i]
    if hand_cards:
        if nranks == 1:
            ups = s.c[u][single]
        for i in range(13):
            r = ORDER[i]
            if not s.c[h][r] or not CAN[r][top]:
                continue
            for cnt in range(1, s.c[h][r] + 1):
                memcpy(&out[n], s, sizeof(State))
                out[n].c[h][r] -= cnt
                _play(&out[n], seat, r, cnt)
                n += 1
            for extra in range(1, ups + 1):
                memcpy(&out[n], s, sizeof(State))
                cnt = s.c[h][r]
                out[n].c[h][r] = 0
                out[n].c[u][r] -= extra
                _play(&out[n], seat, r, cnt + extra)
                n += 1
        if pile_cards:
            memcpy(&out[n], s, sizeof(State))
            _take_pile(&out[n], seat, h)
            n += 1
        return n
    src = d
    for i in range(1, 14):
        if s.c[u][i]:
            src = u
            break
    for i in range(13):
        r = ORDER[i]
        if not s.c[src][r]:
            continue
        memcpy(&out[n], s, sizeof(State))
        out[n].c[src][r] -= 1
        if CAN[r][top]:
            _play(&out[n], seat, r, 1)
        else:  # it does not fit: taken into the hand with the pile
            out[n].c[h][r] += 1
            _take_pile(&out[n], seat, h)
        n += 1
    return n


cdef inline Key _key_from(tuple key) except *:
    """A key from Python: (lo, hi, x)."""
    cdef Key k
    k.lo = key[0]
    k.hi = key[1]
    k.x = key[2]
    k.e = 0
    return k


cdef class Prover(TableOwner):
    """df-pn for one threshold test about Shithead endgames (see the module docstring).

    Two seats: `goal_seat` is the seat of the win/loss question; `for_max` True tests "can it
    force a win?" (value ≥ 1), False "can the other seat force its loss?" (value < 0, at
    threshold 0). Three seats: the "avoid being the shithead" question of `goal_seat`, whose one
    test (`for_max` False) is "can the others together force it to be the shithead?" (value < 1;
    endless play counts as avoided).
    """

    cdef State* kids
    cdef Key* kkeys
    cdef uint64_t* kpn
    cdef uint64_t* kdn
    cdef int32_t* kloop
    cdef int goal_seat
    cdef bint for_max
    cdef int threshold
    cdef int attackers  # bit s: seat s plays for the test's goal (OR nodes)
    cdef public double epsilon
    cdef public int scale
    cdef public int kind
    cdef public bint weak
    cdef public uint64_t expansions
    cdef public bint cancel  # set from another thread: the running search stops (status INTERRUPTED)
    cdef uint64_t slice_end
    cdef double deadline
    cdef int stop
    cdef public uint64_t safety_settled

    def __cinit__(self, int goal_seat, bint for_max, uint64_t max_bytes, double epsilon=1.5, int scale=10):
        if not 0 <= goal_seat < NSEAT or (NSEAT > 2 and for_max):
            raise ValueError(f"shithead native prover: no test of seat {goal_seat}, for_max {for_max} with {NSEAT} seats")
        self.goal_seat = goal_seat
        self.for_max = for_max
        if NSEAT == 2:
            self.attackers = 1 << (goal_seat if for_max else 1 - goal_seat)
            self.threshold = 1 if for_max else 0
        else:
            self.attackers = ((1 << NSEAT) - 1) & ~(1 << goal_seat)
            self.threshold = 1
        self.epsilon = epsilon
        self.scale = scale
        table_made = _table_init(&self.t, max_bytes)
        self.kids = <State*>malloc(MAXKIDS * sizeof(State))
        self.kkeys = <Key*>malloc(MAXDEPTH * MAXKIDS * sizeof(Key))
        self.kpn = <uint64_t*>malloc(MAXDEPTH * MAXKIDS * sizeof(uint64_t))
        self.kdn = <uint64_t*>malloc(MAXDEPTH * MAXKIDS * sizeof(uint64_t))
        self.kloop = <int32_t*>malloc(MAXDEPTH * MAXKIDS * sizeof(int32_t))
        if not (table_made and self.kids and self.kkeys and self.kpn and self.kdn and self.kloop):
            raise MemoryError("shithead native prover: out of memory")
        self.expansions = 0
        self.weak = True

    def __dealloc__(self):  # the table: TableOwner
        free(self.kids)
        free(self.kkeys)
        free(self.kpn)
        free(self.kdn)
        free(self.kloop)

    @property
    def buffer_bytes(self) -> int:
        return MAXDEPTH * MAXKIDS * (sizeof(Key) + 20) + MAXKIDS * sizeof(State)

    # -- facts ---------------------------------------------------------------------------------

    cdef int _terminal_value(self, State* s) noexcept nogil:
        """-2 while the test's value is open; else the value for the goal seat. Two seats: 1
        win, -1 loss, 0 tie. Three: 1 once the seat is out (it cannot be the shithead any more,
        whatever the others go on to do), 0 when it is the last holding cards."""
        cdef int mine = _cards(s, self.goal_seat), theirs = 0, i
        for i in range(NSEAT):
            if i != self.goal_seat:
                theirs += _cards(s, i)
        if NSEAT > 2:
            if mine == 0:
                return 1
            return 0 if theirs == 0 else -2
        if mine and theirs:
            return -2
        if mine == 0 and theirs > 0:
            return 1
        if mine > 0 and theirs == 0:
            return -1
        return 0

    cdef inline bint _reached(self, int value) noexcept nogil:
        return value >= self.threshold if self.for_max else value < self.threshold

    cdef inline int _lead(self, State* s) noexcept nogil:
        """How far ahead the attacking side looks, in cards (or turns, `kind` 1): the defender's
        cards less the attacker's (two seats); the goal seat's cards less the most any other
        seat holds (three seats: the others want it to be left with the most)."""
        cdef int i, c, most = 0, attacker
        if NSEAT == 2:
            attacker = 0 if self.attackers & 1 else 1
            if self.kind == 1:
                return _turns(s, 1 - attacker) - _turns(s, attacker)
            return _cards(s, 1 - attacker) - _cards(s, attacker)
        for i in range(NSEAT):
            if i != self.goal_seat:
                c = _cards(s, i)
                if c > most:
                    most = c
        return _cards(s, self.goal_seat) - most

    def fact(self, tuple key):
        """True (proven), False (disproven) or None for a packed (lo, hi) key; terminals settle here."""
        cdef Key k = _key_from(key)
        cdef int64_t i = _table_find(&self.t, &k)
        cdef State s
        if i >= 0:
            if self.t.slots[i].pn == 0:
                return True
            if self.t.slots[i].dn == 0:
                return False
            return None
        _unpack(k, &s)
        cdef int v = self._terminal_value(&s)
        if v == -2:
            return None
        cdef bint reached = self._reached(v)
        i = _table_insert(&self.t, &k, 0 if reached else INF, 1 if reached else 0)
        return reached

    def numbers(self, tuple key):
        """(proof number, disproof number) of a key in the table, or None."""
        cdef Key k = _key_from(key)
        cdef int64_t i = _table_find(&self.t, &k)
        if i < 0:
            return None
        return _number(self.t.slots[i].pn), _number(self.t.slots[i].dn)

    def depth(self, tuple key):
        cdef Key k = _key_from(key)
        cdef int64_t i = _table_find(&self.t, &k)
        if i < 0 or self.t.slots[i].pn != 0:
            raise KeyError("not proven")
        return self.t.slots[i].dn - 1

    # -- search --------------------------------------------------------------------------------

    def run(self, tuple key, uint64_t budget, double seconds):
        """df-pn from a root until it is settled, `budget` expansions are used or `seconds` pass.
        Returns (status, expansions used)."""
        cdef uint64_t pn, dn
        cdef int32_t loop
        cdef Key k = _key_from(key)
        cdef uint64_t start = self.expansions
        self.stop = DONE
        self.slice_end = self.expansions + budget
        self.deadline = _now() + seconds
        if self.fact(key) is not None:
            return DONE, 0
        with nogil:  # provers of other tests may run on other threads meanwhile
            self._mid(k, INF, INF, 0, &pn, &dn, &loop)
        if self.stop == INTERRUPTED:
            PyErr_CheckSignals()
        return self.stop, self.expansions - start

    cdef void _mid(self, Key key, uint64_t th_pn, uint64_t th_dn, int depth,
                   uint64_t* out_pn, uint64_t* out_dn, int32_t* out_loop) noexcept nogil:
        cdef State s
        cdef int n, i, best, v, seat
        cdef int64_t slot, cslot
        cdef uint64_t base
        cdef uint64_t pn, dn, p, d, pn0, dn0
        cdef int32_t loop
        cdef bint is_or, done
        cdef DfpnStep step
        cdef int lead
        cdef Entry* e
        self.expansions += 1
        out_loop[0] = 0x3FFFFFFF
        self.stop = _poll(self.expansions, self.slice_end, self.deadline, self.cancel)
        if depth >= MAXDEPTH - 1:
            self.stop = DEPTH
        if self.stop:
            out_pn[0] = 1
            out_dn[0] = 1
            return
        _unpack(key, &s)
        seat = s.seat
        is_or = (self.attackers >> seat) & 1
        n = _successors(&s, self.kids)
        base = <uint64_t>depth * MAXKIDS
        for i in range(n):  # the children's keys, and their slots fetched while the others are made
            self.kkeys[base + i] = _pack(&self.kids[i])
            __builtin_prefetch(&self.t.slots[_hash(&self.kkeys[base + i]) & self.t.mask])
        for i in range(n):
            self.kloop[base + i] = 0x3FFFFFFF
            cslot = _table_find(&self.t, &self.kkeys[base + i])
            if cslot >= 0:
                e = &self.t.slots[cslot]
                if e.pn == 0:
                    self.kpn[base + i] = 0
                    self.kdn[base + i] = INF
                elif e.dn == 0:
                    self.kpn[base + i] = INF
                    self.kdn[base + i] = 0
                elif e.path >= 0:
                    self.kpn[base + i] = INF
                    self.kdn[base + i] = 0
                    self.kloop[base + i] = e.path
                else:
                    self.kpn[base + i] = _number(e.pn)
                    self.kdn[base + i] = _number(e.dn)
                continue
            v = self._terminal_value(&self.kids[i])
            if v != -2:
                if self._reached(v):
                    self.kpn[base + i] = 0
                    self.kdn[base + i] = INF
                    cslot = _table_insert(&self.t, &self.kkeys[base + i], 0, 1)
                else:
                    self.kpn[base + i] = INF
                    self.kdn[base + i] = 0
                    cslot = _table_insert(&self.t, &self.kkeys[base + i], INF, 0)
                if cslot < 0:
                    self.stop = MEMORY
                    out_pn[0] = 1
                    out_dn[0] = 1
                    return
                continue
            lead = self._lead(&self.kids[i])
            self.kpn[base + i] = 1 + <uint64_t>(self.scale * (-lead if lead < 0 else 0))
            self.kdn[base + i] = 1 + <uint64_t>(self.scale * (lead if lead > 0 else 0))
        slot = _table_insert(&self.t, &key, 1, 1)
        if slot < 0:
            self.stop = MEMORY
            out_pn[0] = 1
            out_dn[0] = 1
            return
        self.t.slots[slot].path = depth
        pn0 = 0
        dn0 = 0
        while True:
            done = _dfpn_step(&self.kpn[base], &self.kdn[base], n, is_or, self.weak, self.epsilon,
                              th_pn, th_dn, &step)
            pn = step.pn
            dn = step.dn
            if pn0 == 0 and dn0 == 0:
                pn0 = pn if pn else 1
                dn0 = dn if dn else 1
            if done:
                break
            best = step.best
            self._mid(self.kkeys[base + best], step.c_pn, step.c_dn, depth + 1,
                      &self.kpn[base + best], &self.kdn[base + best], &self.kloop[base + best])
            if self.stop:
                break
        # the table may have moved (grown): find this node again
        slot = _table_find(&self.t, &key)
        if slot < 0:  # dropped by a purge at the memory budget (it was on the path: cannot happen)
            self.stop = MEMORY
            out_pn[0] = 1
            out_dn[0] = 1
            return
        e = &self.t.slots[slot]
        e.path = -1
        if self.stop:
            out_pn[0] = _number(e.pn)
            out_dn[0] = _number(e.dn)
            return
        if pn == 0:
            if is_or:
                d = INF
                for i in range(n):
                    if self.kpn[base + i] == 0:
                        cslot = _table_find(&self.t, &self.kkeys[base + i])
                        p = self.t.slots[cslot].dn if cslot >= 0 else 1
                        if p < d:
                            d = p
            else:
                d = 0
                for i in range(n):
                    cslot = _table_find(&self.t, &self.kkeys[base + i])
                    p = self.t.slots[cslot].dn if cslot >= 0 else 1
                    if p > d:
                        d = p
            e = &self.t.slots[slot]
            _set_numbers(e, 0, d + 1)
            out_pn[0] = 0
            out_dn[0] = INF
            return
        if dn == 0:
            loop = _disproof_loop(&self.kloop[base], &self.kdn[base], n, is_or)
            if loop >= depth:
                _set_numbers(e, INF, 0)
                out_pn[0] = INF
                out_dn[0] = 0
                return
            # depends on the path above: used by the ancestors now, not stored as a fact (the
            # entry keeps small numbers: elsewhere the position is searched afresh)
            _set_numbers(e, pn0 if pn0 < 1024 else 1024, dn0 if 0 < dn0 < 1024 else 1)
            out_pn[0] = INF
            out_dn[0] = 0
            out_loop[0] = loop
            return
        _set_numbers(e, pn, dn)
        out_pn[0] = pn
        out_dn[0] = dn


    # -- closing the explored region: disproofs that go round in circles -------------------

    def safety(self, tuple root, double seconds=1e9):
        """Settle disproofs that df-pn cannot store (they rely on repetitions): the greatest set
        of unsettled explored positions in which the defender can keep play for ever — every
        defender position has a move into the set or to a disproven position, every attacker
        move stays in the set or reaches a disproven position. No goal is reachable from such a
        set, so every position in it is disproven (a fact). Unexplored children count against
        the defender. Returns whether `root` was settled; the positions found are stored."""
        cdef uint64_t cap = self.t.cap, j, n = 0, e_count = 0, q_head = 0, q_tail = 0
        cdef int32_t* index = <int32_t*>malloc(cap * sizeof(int32_t))
        if index == NULL:
            return False
        for j in range(cap):
            if self.t.slots[j].hi != 0 and self.t.slots[j].pn != 0 and self.t.slots[j].dn != 0:
                index[j] = <int32_t>n
                n += 1
            else:
                index[j] = -1
        if n == 0:
            free(index)
            return False
        cdef uint64_t* slot_of = <uint64_t*>malloc(n * sizeof(uint64_t))
        cdef int32_t* counter = <int32_t*>malloc(n * sizeof(int32_t))
        cdef uint8_t* unsafe = <uint8_t*>calloc(n, 1)
        cdef uint8_t* attacker = <uint8_t*>malloc(n)
        cdef int64_t* pred_start = <int64_t*>calloc(n + 1, sizeof(int64_t))
        cdef int32_t* queue = <int32_t*>malloc(n * sizeof(int32_t))
        cdef int32_t* pred = NULL
        cdef int64_t* fill = NULL
        cdef State st
        cdef Key k, ck
        cdef int kids, i, v
        cdef int64_t cs
        cdef int32_t u, c, pidx
        cdef bint bad
        cdef uint64_t settled = 0
        cdef double deadline = _now() + seconds
        cdef bint late = False
        if not (slot_of and counter and unsafe and attacker and pred_start and queue):
            free(index); free(slot_of); free(counter); free(unsafe); free(attacker); free(pred_start); free(queue)
            return False
        for j in range(cap):
            if index[j] >= 0:
                slot_of[index[j]] = j
        # pass 1: classify children, count predecessors
        for u in range(<int32_t>n):
            if (u & 65535) == 0 and _now() > deadline:
                late = True
                break
            j = slot_of[u]
            k = _key_of(&self.t.slots[j])
            _unpack(k, &st)
            attacker[u] = (self.attackers >> st.seat) & 1
            kids = _successors(&st, self.kids)
            bad = False
            counter[u] = 0
            for i in range(kids):
                ck = _pack(&self.kids[i])
                cs = _table_find(&self.t, &ck)
                if cs >= 0 and index[cs] >= 0:
                    counter[u] += 1
                    pred_start[index[cs] + 1] += 1
                elif cs >= 0 and self.t.slots[cs].dn == 0:  # disproven: safe for the defender
                    if not attacker[u]:
                        counter[u] += 1 << 20  # a safe move that never goes away
                elif cs >= 0:  # proven
                    bad = True
                else:
                    v = self._terminal_value(&self.kids[i])
                    if v == -2 or self._reached(v):  # unexplored, or the goal
                        bad = True
                    elif not attacker[u]:
                        counter[u] += 1 << 20
            if attacker[u]:
                if bad:
                    unsafe[u] = 1
                    queue[q_tail] = u
                    q_tail += 1
            elif counter[u] == 0:
                unsafe[u] = 1
                queue[q_tail] = u
                q_tail += 1
        if late:
            free(index); free(slot_of); free(counter); free(unsafe); free(attacker); free(pred_start); free(queue)
            return False
        for u in range(<int32_t>n):
            pred_start[u + 1] += pred_start[u]
        e_count = pred_start[n]
        pred = <int32_t*>malloc((e_count + 1) * sizeof(int32_t))
        fill = <int64_t*>malloc(n * sizeof(int64_t))
        if pred == NULL or fill == NULL:
            free(index); free(slot_of); free(counter); free(unsafe); free(attacker); free(pred_start); free(queue)
            free(pred); free(fill)
            return False
        memcpy(fill, pred_start, n * sizeof(int64_t))
        # pass 2: the predecessor lists
        for u in range(<int32_t>n):
            if (u & 65535) == 0 and _now() > deadline:
                late = True
                break
            j = slot_of[u]
            k = _key_of(&self.t.slots[j])
            _unpack(k, &st)
            kids = _successors(&st, self.kids)
            for i in range(kids):
                ck = _pack(&self.kids[i])
                cs = _table_find(&self.t, &ck)
                if cs >= 0 and index[cs] >= 0:
                    c = index[cs]
                    pred[fill[c]] = u
                    fill[c] += 1
        if late:
            free(index); free(slot_of); free(counter); free(unsafe); free(attacker); free(pred_start); free(queue)
            free(pred); free(fill)
            return False
        # propagate: an attacker position with an unsafe move is unsafe; a defender position
        # whose last safe move became unsafe is unsafe
        while q_head < q_tail:
            u = queue[q_head]
            q_head += 1
            for i in range(pred_start[u], pred_start[u + 1]):
                pidx = pred[i]
                if unsafe[pidx]:
                    continue
                if attacker[pidx]:
                    unsafe[pidx] = 1
                    queue[q_tail] = pidx
                    q_tail += 1
                else:
                    counter[pidx] -= 1
                    if counter[pidx] == 0:
                        unsafe[pidx] = 1
                        queue[q_tail] = pidx
                        q_tail += 1
        for u in range(<int32_t>n):
            if not unsafe[u]:
                j = slot_of[u]
                _set_numbers(&self.t.slots[j], INF, 0)
                settled += 1
        free(index); free(slot_of); free(counter); free(unsafe); free(attacker); free(pred_start); free(queue)
        free(pred); free(fill)
        self.safety_settled += settled
        return self.fact(root) is False


# -- conversion from the Python kernel's keys and a successor check ------------------------------

cdef int _from_python(object k, State* s) except -1:
    """Read `kernel.position_key` (NSEAT players, stock empty) into a native state."""
    cdef int r, seat, place
    memset(s, 0, sizeof(State))
    if (k >> (53 + NSEAT * 117)) & 63:
        raise ValueError("the native Shithead prover needs an empty stock")
    s.seat = k & 7
    s.top = (k >> 3) & 15
    s.run_rank = (k >> 7) & 15
    s.run_len = (k >> 11) & 7
    for r in range(1, 14):
        s.c[PILE][r] = (k >> (14 + 3 * (r - 1))) & 7
        for seat in range(NSEAT):
            for place in range(3):
                s.c[3 * seat + place][r] = (k >> (53 + 117 * seat + 39 * place + 3 * (r - 1))) & 7
    return 0


def native_key(object python_key):
    """The native (lo, hi, x) key of a `kernel.position_key` (NSEAT players, stock empty)."""
    cdef State s
    _from_python(python_key, &s)
    cdef Key k = _pack(&s)
    return (k.lo, k.hi, k.x)


def successor_keys(object python_key):
    """The native keys of every legal move's result (for the conformance test)."""
    cdef State s
    cdef State out[MAXKIDS]
    _from_python(python_key, &s)
    cdef int n = _successors(&s, out), i
    cdef Key k
    result = []
    for i in range(n):
        k = _pack(&out[i])
        result.append((k.lo, k.hi, k.x))
    return result
