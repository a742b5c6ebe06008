# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""Golf's packed kernel compiled: successors, terminal results and scores on `GolfKernel` keys.

The reference is `kernel.GolfKernel` (Python, the same keys and the same order of successors);
`tests/games/test_golf_native.py` compares the two on every position of random playouts.
The keys stay Python ints (the core's alpha-beta, in Python, stores them): a key is read into
64-bit limbs, every child is made on the limbs and handed back as an int. Only the
representation differs, never the rules.
"""

from cpython.bytes cimport PyBytes_FromStringAndSize
from libc.stdint cimport uint64_t
from libc.string cimport memcpy, memset

cdef enum:
    HAND = 6            # slots a player
    FULL = 63           # every slot of a player face up
    STOCK_AT = 6        # bits 6-11: stock cards left
    TOP_AT = 12         # bits 12-17: discard top (63: none)
    UP_AT = 18          # then the face-up bits, 6 a seat
    NO_TOP = 63
    LIMBS = 5           # 18 + 42 × 6 seats = 270 bits at most
    MAX_PLAYERS = 6

cdef object _from_bytes = int.from_bytes


cdef inline uint64_t _get(const uint64_t* k, int off, int width) noexcept nogil:
    cdef int limb = off >> 6, bit = off & 63
    cdef uint64_t v = k[limb] >> bit
    if bit + width > 64:
        v |= k[limb + 1] << (64 - bit)
    return v & ((<uint64_t>1 << width) - 1)


cdef inline void _put(uint64_t* k, int off, int width, uint64_t value) noexcept nogil:
    cdef int limb = off >> 6, bit = off & 63
    cdef uint64_t mask = (<uint64_t>1 << width) - 1
    k[limb] = (k[limb] & ~(mask << bit)) | (value << bit)
    if bit + width > 64:
        k[limb + 1] = (k[limb + 1] & ~(mask >> (64 - bit))) | (value >> (64 - bit))


cdef class Kernel:
    """The rules of `GolfKernel` for one root: its seats, its stock and its card values."""

    cdef int players
    cdef int hand_off
    cdef int nbytes
    cdef int stock_len
    cdef int stock[64]
    cdef int values[52]
    cdef object result       # RoundResult
    cdef object ended_stock  # the reasons it is built with
    cdef object ended_last

    def __cinit__(self, int players, tuple stock, tuple values, object result, str ended_stock, str ended_last):
        if not 2 <= players <= MAX_PLAYERS:
            raise ValueError(f"golf native kernel: {players} players (2-{MAX_PLAYERS})")
        if len(stock) > 63 or len(values) != 52:
            raise ValueError("golf native kernel: a stock of at most 63 cards and 52 card values")
        self.players = players
        self.hand_off = UP_AT + HAND * players
        self.nbytes = (self.hand_off + 6 * HAND * players + 7) // 8
        self.stock_len = len(stock)
        for i in range(self.stock_len):
            self.stock[i] = stock[i]
        for i in range(52):
            self.values[i] = values[i]
        self.result = result
        self.ended_stock = ended_stock
        self.ended_last = ended_last

    cdef inline void _read(self, object key, uint64_t* k):
        cdef bytes raw = key.to_bytes(self.nbytes, "little")
        memset(k, 0, LIMBS * sizeof(uint64_t))
        memcpy(k, <const char*>raw, self.nbytes)

    cdef inline object _int(self, const uint64_t* k):
        return _from_bytes(PyBytes_FromStringAndSize(<const char*>k, self.nbytes), "little")

    cdef tuple _scores(self, const uint64_t* k):
        cdef int p, c, a, b, total, off
        out = []
        for p in range(self.players):
            off = self.hand_off + 6 * HAND * p
            total = 0
            for c in range(3):
                a = <int>_get(k, off + 6 * c, 6)
                b = <int>_get(k, off + 6 * c + 18, 6)
                if a % 13 != b % 13:
                    total += self.values[a] + self.values[b]
            out.append(total)
        return tuple(out)

    def scores(self, key):
        """Every seat's score (`GolfKernel.scores`)."""
        cdef uint64_t k[LIMBS]
        self._read(key, k)
        return self._scores(k)

    def terminal(self, key):
        """The round's result when the stock is empty or the last turns are over, else None."""
        cdef uint64_t low = key & 0xFFF
        cdef int ender = <int>((low >> 3) & 7) - 1
        cdef uint64_t k[LIMBS]
        if not (low >> STOCK_AT) & 63:
            self._read(key, k)
            return self.result(self._scores(k), self.ended_stock)
        if ender >= 0 and <int>(low & 7) == ender:
            self._read(key, k)
            return self.result(self._scores(k), self.ended_last)
        return None

    def successors(self, key):
        """Every legal move's result and whether it was reversible, in `GolfKernel.successors`'
        order: going out, SX, the other draws and turns, swaps among face-up cards last."""
        cdef uint64_t k[LIMBS]
        cdef uint64_t child[LIMBS]
        cdef uint64_t header[LIMBS]
        cdef uint64_t less[LIMBS]
        cdef uint64_t* src
        cdef int n = self.players, seat, nxt, base, hand_up, stock_left, top, ender, draw
        cdef int a, b, kind, new, slot, shift, old, bit, face_up
        self._read(key, k)
        seat = <int>(k[0] & 7)
        if seat >= n:
            raise ValueError(f"golf native kernel: seat {seat} to move of {n}")
        nxt = seat + 1 if seat + 1 < n else 0
        base = HAND * seat
        hand_up = <int>_get(k, UP_AT + base, HAND)
        memcpy(header, k, sizeof(header))
        header[0] &= ~(<uint64_t>7)
        if not hand_up:  # the set-up: turn up two slots (irreversible)
            out = []
            for a in range(HAND):
                for b in range(a + 1, HAND):
                    memcpy(child, header, sizeof(child))
                    _put(child, UP_AT + base, HAND, (1 << a) | (1 << b))
                    child[0] |= nxt
                    out.append((self._int(child), False))
            return out
        stock_left = <int>_get(k, STOCK_AT, 6)
        if not 0 < stock_left <= self.stock_len:
            raise ValueError(f"golf native kernel: {stock_left} stock cards left of {self.stock_len}")
        top = <int>_get(k, TOP_AT, 6)
        ender = <int>_get(k, 3, 3) - 1
        draw = self.stock[self.stock_len - stock_left]
        memcpy(less, header, sizeof(less))
        _put(less, STOCK_AT, 6, stock_left - 1)
        memcpy(child, less, sizeof(child))
        _put(child, TOP_AT, 6, draw)
        child[0] |= nxt
        sx = (self._int(child), False)
        goes_out = []
        others = []
        internal = []
        for kind in range(2):  # 0: D (the discard top into a slot), 1: S (the stock card into a slot)
            if kind == 0 and top == NO_TOP:
                continue
            new = top if kind == 0 else draw
            src = &header[0] if kind == 0 else &less[0]
            for slot in range(HAND):
                shift = self.hand_off + 6 * base + 6 * slot
                old = <int>_get(k, shift, 6)
                bit = 1 << slot
                memcpy(child, src, sizeof(child))
                _put(child, shift, 6, new)
                _put(child, TOP_AT, 6, old)
                face_up = hand_up & bit
                if not face_up:
                    _put(child, UP_AT + base, HAND, hand_up | bit)
                    if hand_up | bit == FULL:  # turns the last face-down card
                        if ender < 0:
                            _put(child, 3, 3, seat + 1)
                        child[0] |= nxt
                        goes_out.append((self._int(child), False))
                        continue
                child[0] |= nxt
                if kind == 0 and face_up:
                    internal.append((self._int(child), True))
                else:
                    others.append((self._int(child), False))
        return goes_out + [sx] + others + internal
