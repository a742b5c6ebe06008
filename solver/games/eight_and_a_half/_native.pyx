# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""Eight and a half's df-pn compiled: endgames (banks empty) of two and three players.

The reference is Python: `kernel.EightAndAHalf` (the rules on packed ints, through
`kernel.EHKernel` on keys) and `solver.core.proof.Prover` (df-pn with the 1+ε trick, weak proof
numbers, repetitions never prove, path-dependent disproofs not stored). This module does the
same search on a smaller key and in native code; the tests compare its successors with the
kernel's on random positions and its values with the Python prover's and with brute force. What
differs is representation, never behaviour. Tests answered: two players, win/loss (value ≥ 1:
can the goal seat force going out first; value ≥ 0: can the other force it); three players,
"can the goal seat force going out first against the two others?" (`Coalition` with
`wins_outright`, value ≥ 1) and "can the two others force the goal seat to be the big loser?"
(`Coalition` with `not_big_loser`, value < 1). Eaten counts never change what can happen: only
the big-loser test keeps them, as two clamped differences (`_pack_eaten`).

- a position is 160 bits at most: two 64-bit words and a 32-bit one (and the big-loser test's
  16 bits of eaten counts). Per face, the distribution
  of its copies over the hands and the pile is numbered among the tuples with sum ≤ 8, by sum
  first, so a face with 4 copies needs fewer numbers than one with 8. Two players: (h0, h1,
  pile) triples, 35 / 84 / 165 numbers for 4 / 6 / 8 copies; low word: faces 1, 2 (6 bits each)
  and the pairs (0, 3), (4, 5), (6, 7), (8, 9) (84 × 84 < 2^13: 13 bits each); high word: ½
  and Demon (8 bits each), the open and blind cards of each seat (≤ 3 cards: one of 455
  multisets, 9 bits each), the pile's value (5 bits, as 1-28, so a used slot's high word is
  never 0), whether its last non-Demon card is a ½ (1), the seat to move (1), each seat's
  "started on the table" bit (2); third word 0. Three players: (h0, h1, h2, pile) quadruples
  (70 / 210 / 495 numbers): low word the eight 6-copy faces (8 bits each); high word ½ and
  Demon (9 bits each), the pair (1, 2) (13 bits), the pile's value (5), ½ bit (1), seat (2),
  table bits (3) and the first 22 bits of the six open and blind multisets (54 bits), whose
  last 32 bits are the third word;
- the transposition table and the df-pn step are the ones every compiled prover shares
  (solver/core/_dfpn_table.pxi, _dfpn_step.pxi): open addressing, 32 bytes an entry, grown by
  doubling up to the memory budget, where unsettled entries are dropped (facts stay);
- the pile rules are `rules.play_cards` and `rules.combo_fits` turned into tables when the module
  loads (the same tables as the Python kernel's);
- children are generated into a buffer indexed by depth, not Python lists; their table slots
  are prefetched before they are looked up.
"""

cimport cython
from cpython.exc cimport PyErr_CheckSignals
from libc.stdint cimport int16_t, int32_t, int64_t, uint8_t, uint16_t, uint32_t, uint64_t
from libc.stdlib cimport calloc, free, malloc, realloc
from libc.string cimport memcpy, memset


cdef extern from *:
    void __builtin_prefetch(const void* address) noexcept nogil

from halfmoon.solver.games.eight_and_a_half.rules import NONE as _PY_NONE, combo_fits, play_cards

cdef enum:
    NF = 12             # faces: 0-9, ½ (10), Demon (11)
    MAXSEATS = 3
    NPLACE = 10         # per seat hand, open, blind (seat s: 3s, 3s + 1, 3s + 2), then the pile
    PILE = 9
    HALF = 10
    EIGHT = 8
    NONE = 31           # the pile's value when no card with a value lies on it
    EIGHT_HALF = 17
    MAXKIDS = 80        # at most 73: one move per card count of each face, and 8+½
    CHECK_EVERY = 4095
    MAXDEPTH = 10000

include "../../core/_dfpn_step.pxi"  # INF, the df-pn step shared by the compiled provers
include "../../core/_dfpn_table.pxi"  # Key, Entry and the transposition table

# -- tables -------------------------------------------------------------------------------------

cdef int COPIES[NF]
cdef uint8_t TRIPLE_OF[9][9][9]     # (h0, h1, pile) counts → number (by sum, then order)
cdef uint8_t TRIPLE[165][3]         # number → counts
cdef uint16_t QUAD_OF[9][9][9][9]   # (h0, h1, h2, pile) counts → number (by sum, then order)
cdef uint8_t QUAD[495][4]           # number → counts
cdef uint16_t SET_OF[13][13][13]    # faces a ≤ b ≤ c (12: no card) → number of a ≤ 3-card multiset
cdef uint8_t SET[455][3]            # number → faces (12: no card)
cdef uint8_t MAXK[64][NF]           # pile state (v2 | lh << 5), face → most cards that may go down together
cdef int16_t RESULT[64][NF][9]      # … and the result of k of them: v2 | lh << 5 | catch << 6, -1 illegal
cdef bint COMBO_OK[32]


cdef void _init_tables() except *:
    cdef int a, b, c, d, total, idx, v2, lh, face, k
    for face in range(NF):
        COPIES[face] = 8 if face >= HALF else (4 if face == 1 or face == 2 else 6)
    idx = 0
    for total in range(9):
        for a in range(total + 1):
            for b in range(total - a + 1):
                TRIPLE_OF[a][b][total - a - b] = idx
                TRIPLE[idx][0] = a
                TRIPLE[idx][1] = b
                TRIPLE[idx][2] = total - a - b
                idx += 1
    idx = 0
    for total in range(9):
        for a in range(total + 1):
            for b in range(total - a + 1):
                for c in range(total - a - b + 1):
                    d = total - a - b - c
                    QUAD_OF[a][b][c][d] = idx
                    QUAD[idx][0] = a
                    QUAD[idx][1] = b
                    QUAD[idx][2] = c
                    QUAD[idx][3] = d
                    idx += 1
    idx = 0
    for a in range(13):
        for b in range(a, 13):
            for c in range(b, 13):
                SET_OF[a][b][c] = idx
                SET[idx][0] = a
                SET[idx][1] = b
                SET[idx][2] = c
                idx += 1
    assert _PY_NONE == NONE
    for v2 in range(32):
        COMBO_OK[v2] = combo_fits(v2)
        for lh in range(2):
            for face in range(NF):
                MAXK[v2 | lh << 5][face] = 0
                for k in range(9):
                    RESULT[v2 | lh << 5][face][k] = -1
                for k in range(1, COPIES[face] + 1):
                    r = play_cards(v2, bool(lh), face, k)
                    if r is None:
                        break
                    MAXK[v2 | lh << 5][face] = k
                    RESULT[v2 | lh << 5][face][k] = r[0] | (int(r[1]) << 5) | (int(r[2]) << 6)

_init_tables()

# -- positions ----------------------------------------------------------------------------------

ctypedef struct State:
    uint8_t c[NPLACE][NF]   # seat s: hand 3s, open 3s + 1, blind 3s + 2; the pile at PILE
    uint8_t table[MAXSEATS] # the seat has started on the table: eating goes into its hand
    int16_t ate[MAXSEATS]   # cards eaten out of play (before the table), from any base: the
                            # big-loser test compares them (see _pack_eaten)
    int n                   # players (2 or 3)
    int seat
    int v2
    int lh

cdef inline int _cards(State* s, int seat) noexcept nogil:
    """Cards the seat still has to play (hand, open and blind)."""
    cdef int f, total = 0
    cdef int b = 3 * seat
    for f in range(NF):
        total += s.c[b][f] + s.c[b + 1][f] + s.c[b + 2][f]
    return total


cdef inline int _held(State* s, int seat) noexcept nogil:
    """What the seat would be left holding if play ended now (the score's count): eaten cards
    (from the state's base) plus cards not yet played."""
    return _cards(s, seat) + s.ate[seat]


cdef inline int _turns(State* s, int seat) noexcept nogil:
    """Turns the seat needs to shed everything if never held up: one per face in hand (identical
    cards go down together), one per table card."""
    cdef int f, total = 0
    cdef int b = 3 * seat
    for f in range(NF):
        if s.c[b][f]:
            total += 1
        total += s.c[b + 1][f] + s.c[b + 2][f]
    return total


cdef inline uint64_t _set(uint8_t* counts) noexcept nogil:
    """The number of a multiset of ≤ 3 cards (12 counters)."""
    cdef int f[3]
    cdef int i = 0, face, k
    f[0] = 12
    f[1] = 12
    f[2] = 12
    for face in range(NF):
        for k in range(counts[face]):
            if i < 3:
                f[i] = face
            i += 1
    return SET_OF[f[0]][f[1]][f[2]]


cdef inline uint64_t _triple(State* s, int face) noexcept nogil:
    return TRIPLE_OF[s.c[0][face]][s.c[3][face]][s.c[PILE][face]]


cdef inline uint64_t _quad(State* s, int face) noexcept nogil:
    return QUAD_OF[s.c[0][face]][s.c[3][face]][s.c[6][face]][s.c[PILE][face]]


cdef inline uint64_t _v2_code(int v2) noexcept nogil:
    """The pile's value as 1-28 (never 0: the high word of a used slot is never 0)."""
    return 28 if v2 == NONE else v2 + 1


cdef inline Key _pack(State* s) noexcept nogil:
    cdef Key k
    cdef uint64_t sets
    if s.n == 2:
        k.lo = (_triple(s, 1) | _triple(s, 2) << 6
                | (_triple(s, 0) * 84 + _triple(s, 3)) << 12
                | (_triple(s, 4) * 84 + _triple(s, 5)) << 25
                | (_triple(s, 6) * 84 + _triple(s, 7)) << 38
                | (_triple(s, 8) * 84 + _triple(s, 9)) << 51)
        k.hi = (_triple(s, 10) | _triple(s, 11) << 8
                | _set(s.c[1]) << 16 | _set(s.c[2]) << 25 | _set(s.c[4]) << 34 | _set(s.c[5]) << 43
                | _v2_code(s.v2) << 52 | (<uint64_t>s.lh) << 57 | (<uint64_t>s.seat) << 58
                | (<uint64_t>s.table[0]) << 59 | (<uint64_t>s.table[1]) << 60)
        k.x = 0
        k.e = 0
        return k
    k.lo = (_quad(s, 0) | _quad(s, 3) << 8 | _quad(s, 4) << 16 | _quad(s, 5) << 24 | _quad(s, 6) << 32
            | _quad(s, 7) << 40 | _quad(s, 8) << 48 | _quad(s, 9) << 56)
    sets = (_set(s.c[1]) | _set(s.c[2]) << 9 | _set(s.c[4]) << 18 | _set(s.c[5]) << 27
            | _set(s.c[7]) << 36 | _set(s.c[8]) << 45)
    k.hi = (_quad(s, 10) | _quad(s, 11) << 9 | (_quad(s, 1) * 70 + _quad(s, 2)) << 18
            | _v2_code(s.v2) << 31 | (<uint64_t>s.lh) << 36 | (<uint64_t>s.seat) << 37
            | (<uint64_t>s.table[0]) << 39 | (<uint64_t>s.table[1]) << 40 | (<uint64_t>s.table[2]) << 41
            | (sets & 0x3FFFFF) << 42)
    k.x = <uint32_t>(sets >> 22)
    k.e = 0
    return k


cdef inline int _in_play(State* s) noexcept nogil:
    """Cards still in play: every hand, open and blind card and the pile."""
    cdef int place, f, total = 0
    for place in range(NPLACE):
        for f in range(NF):
            total += s.c[place][f]
    return total


cdef inline uint16_t _pack_eaten(State* s, int goal) noexcept nogil:
    """What the big-loser test about seat `goal` (three players) needs of the eaten counts: for
    each other seat, in seat order, its count minus the goal seat's, 8 bits each (+ 128). A
    difference beyond the cards in play (T) can no longer be made up — a seat's final count is
    its eaten cards plus at most the T cards — so it is clamped to ±(T + 1): positions that
    differ only beyond it have the same answer and share an entry."""
    cdef int bound = _in_play(s) + 1, seat, d, shift = 0
    cdef uint16_t code = 0
    for seat in range(3):
        if seat == goal:
            continue
        d = s.ate[seat] - s.ate[goal]
        if d > bound:
            d = bound
        elif d < -bound:
            d = -bound
        code |= <uint16_t>((d + 128) << shift)
        shift += 8
    return code


cdef inline void _unpack_eaten(uint16_t code, State* s, int goal) noexcept nogil:
    cdef int seat, shift = 0
    for seat in range(3):
        if seat == goal:
            s.ate[seat] = 0
        else:
            s.ate[seat] = <int16_t>(((code >> shift) & 255) - 128)
            shift += 8


cdef inline void _put_triple(State* s, int face, uint64_t idx) noexcept nogil:
    s.c[0][face] = TRIPLE[idx][0]
    s.c[3][face] = TRIPLE[idx][1]
    s.c[PILE][face] = TRIPLE[idx][2]


cdef inline void _put_quad(State* s, int face, uint64_t idx) noexcept nogil:
    s.c[0][face] = QUAD[idx][0]
    s.c[3][face] = QUAD[idx][1]
    s.c[6][face] = QUAD[idx][2]
    s.c[PILE][face] = QUAD[idx][3]


cdef inline void _put_set(State* s, int place, uint64_t idx) noexcept nogil:
    cdef int i
    for i in range(3):
        if SET[idx][i] < 12:
            s.c[place][SET[idx][i]] += 1


cdef inline int _v2_of(uint64_t code) noexcept nogil:
    return NONE if code == 28 else <int>code - 1


cdef inline void _unpack(Key* k, State* s, int n) noexcept nogil:
    cdef uint64_t lo = k.lo, hi = k.hi, pair, sets
    memset(s, 0, sizeof(State))
    s.n = n
    if n == 2:
        _put_triple(s, 1, lo & 63)
        _put_triple(s, 2, (lo >> 6) & 63)
        pair = (lo >> 12) & 8191
        _put_triple(s, 0, pair // 84)
        _put_triple(s, 3, pair % 84)
        pair = (lo >> 25) & 8191
        _put_triple(s, 4, pair // 84)
        _put_triple(s, 5, pair % 84)
        pair = (lo >> 38) & 8191
        _put_triple(s, 6, pair // 84)
        _put_triple(s, 7, pair % 84)
        pair = lo >> 51
        _put_triple(s, 8, pair // 84)
        _put_triple(s, 9, pair % 84)
        _put_triple(s, 10, hi & 255)
        _put_triple(s, 11, (hi >> 8) & 255)
        _put_set(s, 1, (hi >> 16) & 511)
        _put_set(s, 2, (hi >> 25) & 511)
        _put_set(s, 4, (hi >> 34) & 511)
        _put_set(s, 5, (hi >> 43) & 511)
        s.v2 = _v2_of((hi >> 52) & 31)
        s.lh = (hi >> 57) & 1
        s.seat = (hi >> 58) & 1
        s.table[0] = (hi >> 59) & 1
        s.table[1] = (hi >> 60) & 1
        return
    _put_quad(s, 0, lo & 255)
    _put_quad(s, 3, (lo >> 8) & 255)
    _put_quad(s, 4, (lo >> 16) & 255)
    _put_quad(s, 5, (lo >> 24) & 255)
    _put_quad(s, 6, (lo >> 32) & 255)
    _put_quad(s, 7, (lo >> 40) & 255)
    _put_quad(s, 8, (lo >> 48) & 255)
    _put_quad(s, 9, lo >> 56)
    _put_quad(s, 10, hi & 511)
    _put_quad(s, 11, (hi >> 9) & 511)
    pair = (hi >> 18) & 8191
    _put_quad(s, 1, pair // 70)
    _put_quad(s, 2, pair % 70)
    s.v2 = _v2_of((hi >> 31) & 31)
    s.lh = (hi >> 36) & 1
    s.seat = (hi >> 37) & 3
    s.table[0] = (hi >> 39) & 1
    s.table[1] = (hi >> 40) & 1
    s.table[2] = (hi >> 41) & 1
    sets = (hi >> 42) | (<uint64_t>k.x) << 22
    _put_set(s, 1, sets & 511)
    _put_set(s, 2, (sets >> 9) & 511)
    _put_set(s, 4, (sets >> 18) & 511)
    _put_set(s, 5, (sets >> 27) & 511)
    _put_set(s, 7, (sets >> 36) & 511)
    _put_set(s, 8, (sets >> 45) & 511)


# -- the rules (kernel.EightAndAHalf.successors with empty banks, no scores) -------------------

cdef inline void _eat(State* s, int eater, int next_seat) noexcept nogil:
    """`eater` takes the pile: into the hand once at the table, else it leaves play."""
    cdef int f
    cdef int h = 3 * eater
    if s.table[eater]:
        for f in range(NF):
            s.c[h][f] += s.c[PILE][f]
    else:
        for f in range(NF):
            s.ate[eater] += s.c[PILE][f]
    for f in range(NF):
        s.c[PILE][f] = 0
    s.v2 = NONE
    s.lh = 0
    s.seat = next_seat


cdef inline void _finish(State* s, int t, int r) noexcept nogil:
    """After seat `t` put cards down (already moved to the pile): reaching the table, then the
    catch (the offender, the seat before, eats; the catcher opens again) or the next turn."""
    cdef int f
    cdef int h = 3 * t
    cdef bint empty = True
    for f in range(NF):
        if s.c[h][f]:
            empty = False
            break
    if empty:
        s.table[t] = 1
    if r & 64:
        _eat(s, (t + s.n - 1) % s.n, t)
        return
    s.seat = (t + 1) % s.n
    s.v2 = r & 31
    s.lh = (r >> 5) & 1


cdef int _successors(State* s, State* out) noexcept nogil:
    """Every legal move's result (the order of `EightAndAHalf.successors`); returns the count."""
    cdef int seat = s.seat
    cdef int after = (seat + 1) % s.n
    cdef int h = 3 * seat, o = h + 1, b = h + 2
    cdef int st = s.v2 | s.lh << 5
    cdef int n = 0, f, k, c, r
    cdef bint hand = False, opened = False
    for f in range(NF):
        if s.c[h][f]:
            hand = True
            break
    if hand:
        for f in range(NF):
            k = s.c[h][f]
            if k == 0:
                continue
            if MAXK[st][f] < k:
                k = MAXK[st][f]
            for c in range(1, k + 1):
                memcpy(&out[n], s, sizeof(State))
                out[n].c[h][f] -= c
                out[n].c[PILE][f] += c
                _finish(&out[n], seat, RESULT[st][f][c])
                n += 1
        if s.c[h][EIGHT] and s.c[h][HALF] and COMBO_OK[s.v2]:
            memcpy(&out[n], s, sizeof(State))
            out[n].c[h][EIGHT] -= 1
            out[n].c[h][HALF] -= 1
            out[n].c[PILE][EIGHT] += 1
            out[n].c[PILE][HALF] += 1
            _finish(&out[n], seat, EIGHT_HALF)
            n += 1
        if n == 0:
            memcpy(&out[0], s, sizeof(State))
            _eat(&out[0], seat, after)
            n = 1
        return n
    for f in range(NF):
        if s.c[o][f]:
            opened = True
            break
    if opened:
        for f in range(NF):
            if s.c[o][f] and MAXK[st][f]:
                memcpy(&out[n], s, sizeof(State))
                out[n].c[o][f] -= 1
                out[n].c[PILE][f] += 1
                _finish(&out[n], seat, RESULT[st][f][1])
                n += 1
        if n == 0:
            memcpy(&out[0], s, sizeof(State))
            _eat(&out[0], seat, after)
            n = 1
        return n
    for f in range(NF):
        if not s.c[b][f]:
            continue
        memcpy(&out[n], s, sizeof(State))
        out[n].c[b][f] -= 1
        r = RESULT[st][f][1]
        if r < 0:  # it does not fit: the player eats the pile with it, into the hand
            for c in range(NF):
                out[n].c[h][c] += out[n].c[PILE][c]
                out[n].c[PILE][c] = 0
            out[n].c[h][f] += 1
            out[n].seat = after
            out[n].v2 = NONE
            out[n].lh = 0
        else:
            out[n].c[PILE][f] += 1
            _finish(&out[n], seat, r)
        n += 1
    return n


cdef inline Key _key_from(tuple key) except *:
    """A key from Python: (lo, hi, x, e)."""
    cdef Key k
    k.lo = key[0]
    k.hi = key[1]
    k.x = key[2]
    k.e = key[3]
    return k


cdef class Prover(TableOwner):
    """df-pn for one goal about Eight-and-a-half endgames (see the module docstring).

    Two players: `goal_seat` is the seat of the win/loss question; `for_max` True tests "can it
    force a win?" (value ≥ 1), False "can the other seat force its loss?" (value < 0, at
    threshold 0). Three players (`players=3`, `for_max` True only): "can `goal_seat` force going
    out first against the two others together?" (the `Coalition` with `wins_outright`). Three
    players with `big_loser` (`for_max` False only): "can the two others together force
    `goal_seat` to be the big loser?" (the `Coalition` with `not_big_loser`, value < 1: endless
    play counts as avoiding it, so a repetition never proves, as in every test here); its keys
    carry the eaten counts (`_pack_eaten`).
    """

    cdef State* kids
    cdef Key* kkeys
    cdef uint64_t* kpn
    cdef uint64_t* kdn
    cdef int32_t* kloop
    cdef int goal_seat
    cdef public int players
    cdef bint for_max
    cdef int attacker
    cdef bint big_loser
    cdef bint or_seat[MAXSEATS]   # the seats whose turns are OR nodes (the attacking side)
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

    def __cinit__(self, int goal_seat, bint for_max, uint64_t max_bytes, double epsilon=1.5, int scale=10,
                  int players=2, bint big_loser=False):
        if big_loser:
            if players != 3 or for_max:
                raise ValueError("the native big-loser test is for three players, value < 1")
        elif players != 2 and not (players == 3 and for_max):
            raise ValueError("the native Eight-and-a-half prover answers two-player win/loss tests and "
                             "three-player tests of one seat going out first or being the big loser")
        if not 0 <= goal_seat < players:
            raise ValueError("goal seat out of range")
        self.players = players
        self.goal_seat = goal_seat
        self.for_max = for_max
        self.big_loser = big_loser
        self.attacker = goal_seat if for_max else 1 - goal_seat
        cdef int seat
        for seat in range(MAXSEATS):
            self.or_seat[seat] = (seat != goal_seat) if big_loser else (seat == self.attacker)
        self.epsilon = epsilon
        self.scale = scale
        table_made = _table_init(&self.t, max_bytes)
        self.kids = <State*>malloc(MAXKIDS * sizeof(State))
        self.kkeys = <Key*>malloc(MAXDEPTH * MAXKIDS * sizeof(Key))
        self.kpn = <uint64_t*>malloc(MAXDEPTH * MAXKIDS * sizeof(uint64_t))
        self.kdn = <uint64_t*>malloc(MAXDEPTH * MAXKIDS * sizeof(uint64_t))
        self.kloop = <int32_t*>malloc(MAXDEPTH * MAXKIDS * sizeof(int32_t))
        if not (table_made and self.kids and self.kkeys and self.kpn and self.kdn and self.kloop):
            raise MemoryError("eight-and-a-half native prover: out of memory")
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

    cdef inline Key _key(self, State* s) noexcept nogil:
        cdef Key k = _pack(s)
        if self.big_loser:
            k.e = _pack_eaten(s, self.goal_seat)
        return k

    cdef inline void _state(self, Key* k, State* s) noexcept nogil:
        _unpack(k, s, self.players)
        if self.big_loser:
            _unpack_eaten(k.e, s, self.goal_seat)

    cdef int _terminal_value(self, State* s) noexcept nogil:
        """-2 while play goes on; else 1 if the goal seat went out first, -1 if another did. The
        big-loser test: -1 if the goal seat is (one of) the big loser(s), else 1."""
        cdef int seat, other
        for seat in range(self.players):
            if _cards(s, seat) == 0:
                if not self.big_loser:
                    return 1 if seat == self.goal_seat else -1
                if seat == self.goal_seat:
                    return 1
                other = 3 - seat - self.goal_seat  # the other seat still holding cards
                return -1 if _held(s, self.goal_seat) >= _held(s, other) else 1
        return -2

    cdef inline int _defenders_least(self, State* s, bint turns) noexcept nogil:
        """The fewest cards (or turns) a seat of the defending side still needs."""
        cdef int seat, v, least = 0x7FFFFFFF
        for seat in range(self.players):
            if seat != self.attacker:
                v = _turns(s, seat) if turns else _cards(s, seat)
                if v < least:
                    least = v
        return least

    cdef inline int _others_least(self, State* s) noexcept nogil:
        """The fewest cards a seat other than the goal seat still has to play."""
        cdef int seat, v, least = 0x7FFFFFFF
        for seat in range(self.players):
            if seat != self.goal_seat:
                v = _cards(s, seat)
                if v < least:
                    least = v
        return least

    cdef inline bint _reached(self, int value) noexcept nogil:
        return value >= 1 if self.for_max else value < 0

    def fact(self, tuple key):
        """True (proven), False (disproven) or None for a native key (`native_key`); terminals
        settle here."""
        cdef Key k = _key_from(key)
        cdef int64_t i = _table_find(&self.t, &k)
        cdef State s
        if i >= 0:
            if self.t.slots[i].pn == 0:
                return True
            if self.t.slots[i].dn == 0:
                return False
            return None
        self._state(&k, &s)
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
        self._state(&key, &s)
        seat = s.seat
        is_or = self.or_seat[seat]
        n = _successors(&s, self.kids)
        base = <uint64_t>depth * MAXKIDS
        for i in range(n):  # the children's keys, and their slots fetched while the others are made
            self.kkeys[base + i] = self._key(&self.kids[i])
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
            if self.big_loser:  # the attackers are ahead when another seat is nearer going out
                lead = _cards(&self.kids[i], self.goal_seat) - self._others_least(&self.kids[i])
            elif self.kind == 1:
                lead = self._defenders_least(&self.kids[i], True) - _turns(&self.kids[i], self.attacker)
            else:
                lead = self._defenders_least(&self.kids[i], False) - _cards(&self.kids[i], self.attacker)
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
        the defender. Returns whether `root` was settled; the positions found are stored.

        (Shithead's pass, with one change for speed: the moves inside the set are generated
        once and kept, instead of generated again to list the predecessors.)"""
        cdef uint64_t cap = self.t.cap, j, n = 0, e_count = 0, e_cap, q_head = 0, q_tail = 0
        cdef int32_t* index = <int32_t*>malloc(cap * sizeof(int32_t))  # slot → number in the set, or -1
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
        e_cap = 4 * n + 64
        cdef uint64_t* slot_of = <uint64_t*>malloc(n * sizeof(uint64_t))
        cdef int32_t* counter = <int32_t*>malloc(n * sizeof(int32_t))
        cdef uint8_t* unsafe = <uint8_t*>calloc(n, 1)
        cdef uint8_t* attacker = <uint8_t*>malloc(n)
        cdef int64_t* pred_start = <int64_t*>calloc(n + 1, sizeof(int64_t))
        cdef int64_t* succ_start = <int64_t*>malloc((n + 1) * sizeof(int64_t))
        cdef int32_t* succ = <int32_t*>malloc(e_cap * sizeof(int32_t))
        cdef int32_t* queue = <int32_t*>malloc(n * sizeof(int32_t))
        cdef int32_t* pred = NULL
        cdef int32_t* grown = NULL
        cdef int64_t* fill = NULL
        cdef State st
        cdef Key k
        cdef Key ck[MAXKIDS]
        cdef int kids, i, v
        cdef int64_t cs, e
        cdef int32_t u, c, pidx
        cdef bint bad
        cdef uint64_t settled = 0
        cdef double deadline = _now() + seconds
        cdef bint late = False
        cdef bint ok = False
        if not (slot_of and counter and unsafe and attacker and pred_start and succ_start and succ and queue):
            free(index); free(slot_of); free(counter); free(unsafe); free(attacker); free(pred_start)
            free(succ_start); free(succ); free(queue)
            return False
        for j in range(cap):
            if index[j] >= 0:
                slot_of[index[j]] = j
        # pass 1: classify children, keep the moves inside the set, count predecessors
        for u in range(<int32_t>n):
            if (u & 65535) == 0 and _now() > deadline:
                late = True
                break
            j = slot_of[u]
            k = _key_of(&self.t.slots[j])
            self._state(&k, &st)
            attacker[u] = self.or_seat[st.seat]
            kids = _successors(&st, self.kids)
            bad = False
            counter[u] = 0
            succ_start[u] = e_count
            if e_count + kids > e_cap:
                e_cap = 2 * e_cap + kids
                grown = <int32_t*>realloc(succ, e_cap * sizeof(int32_t))
                if grown == NULL:
                    late = True
                    break
                succ = grown
            for i in range(kids):
                ck[i] = self._key(&self.kids[i])
                __builtin_prefetch(&self.t.slots[_hash(&ck[i]) & self.t.mask])
            for i in range(kids):
                cs = _table_find(&self.t, &ck[i])
                if cs >= 0 and index[cs] >= 0:
                    c = index[cs]
                    counter[u] += 1
                    pred_start[c + 1] += 1
                    succ[e_count] = c
                    e_count += 1
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
        if not late:
            succ_start[n] = e_count
            for u in range(<int32_t>n):
                pred_start[u + 1] += pred_start[u]
            pred = <int32_t*>malloc((pred_start[n] + 1) * sizeof(int32_t))
            fill = <int64_t*>malloc(n * sizeof(int64_t))
            ok = pred != NULL and fill != NULL
        if ok:
            memcpy(fill, pred_start, n * sizeof(int64_t))
            # pass 2: the predecessor lists, from the kept moves
            for u in range(<int32_t>n):
                for e in range(succ_start[u], succ_start[u + 1]):
                    c = succ[e]
                    pred[fill[c]] = u
                    fill[c] += 1
            # propagate: an attacker position with an unsafe move is unsafe; a defender position
            # whose last safe move became unsafe is unsafe
            while q_head < q_tail:
                u = queue[q_head]
                q_head += 1
                for e in range(pred_start[u], pred_start[u + 1]):
                    pidx = pred[e]
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
        free(index); free(slot_of); free(counter); free(unsafe); free(attacker); free(pred_start)
        free(succ_start); free(succ); free(queue); free(pred); free(fill)
        if not ok:
            return False
        self.safety_settled += settled
        return self.fact(root) is False


# -- conversion from the Python kernel's keys and a successor check ------------------------------

cdef int _from_python(object k, State* s) except -1:
    """Read a key of `kernel.EightAndAHalf` (two or three players, banks empty, ≤ 3 open and ≤ 3
    blind cards a seat) into a native state, eaten counts included (only the big-loser test's
    keys keep them: they never change what can happen, only the score)."""
    cdef int f, seat, place, total, n
    cdef object block
    memset(s, 0, sizeof(State))
    n = (k >> 3) & 7
    if n != 2 and n != 3:
        raise ValueError("the native Eight-and-a-half prover plays two or three players")
    if k >> (72 + 152 * n):
        raise ValueError("the native Eight-and-a-half prover needs empty banks")
    s.n = n
    s.seat = k & 7
    s.v2 = (k >> 9) & 31
    s.lh = (k >> 14) & 1
    for f in range(NF):
        s.c[PILE][f] = (k >> (22 + 4 * f)) & 15
    for seat in range(n):
        block = k >> (72 + 152 * seat)
        s.table[seat] = (block >> 151) & 1
        s.ate[seat] = (block >> 144) & 127
        for place in range(3):
            total = 0
            for f in range(NF):
                s.c[3 * seat + place][f] = (block >> (48 * place + 4 * f)) & 15
                total += s.c[3 * seat + place][f]
            if place and total > 3:
                raise ValueError("the native Eight-and-a-half prover needs at most 3 open and 3 blind cards a seat")
    for f in range(NF):
        total = s.c[PILE][f]
        for seat in range(n):
            total += s.c[3 * seat][f]
        if total > COPIES[f]:
            raise ValueError("more cards of a face than the deck holds")
    return 0


cdef tuple _key_tuple(State* s, int big_loser_seat):
    cdef Key k = _pack(s)
    if big_loser_seat >= 0:
        k.e = _pack_eaten(s, big_loser_seat)
    return (k.lo, k.hi, k.x, k.e)


def native_key(object python_key, int big_loser_seat=-1):
    """The native (lo, hi, x, e) key of a `kernel.EightAndAHalf` key (two or three players, banks
    empty): eaten counts dropped, except for the big-loser test about `big_loser_seat`."""
    cdef State s
    _from_python(python_key, &s)
    if big_loser_seat >= 0 and (s.n != 3 or big_loser_seat >= 3):
        raise ValueError("the big-loser test is for a seat of three players")
    return _key_tuple(&s, big_loser_seat)


def successor_keys(object python_key, int big_loser_seat=-1):
    """The native keys of every legal move's result (for the conformance test)."""
    cdef State s
    cdef State out[MAXKIDS]
    _from_python(python_key, &s)
    cdef int n = _successors(&s, out) if all(_cards(&s, seat) for seat in range(s.n)) else 0, i
    return [_key_tuple(&out[i], big_loser_seat) for i in range(n)]


def unpack_key(tuple key, int players=2, int big_loser_seat=-1):
    """The native key read back (for tests): ((hand, open, blind) counts per seat, pile counts,
    seat to move, v2, lh, table bits), and for a big-loser key each seat's eaten count minus the
    goal seat's (as clamped)."""
    cdef Key k = _key_from(key)
    cdef State s
    _unpack(&k, &s, players)
    if big_loser_seat >= 0:
        _unpack_eaten(k.e, &s, big_loser_seat)
        return (*unpack_key(key, players), tuple(s.ate[seat] for seat in range(players)))
    seats = tuple(tuple(tuple(s.c[3 * seat + place][f] for f in range(NF)) for place in range(3))
                  for seat in range(players))
    return (seats, tuple(s.c[PILE][f] for f in range(NF)), s.seat, s.v2, s.lh,
            tuple(s.table[seat] for seat in range(players)))
