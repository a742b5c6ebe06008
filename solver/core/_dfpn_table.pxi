# The transposition table every compiled endgame prover keeps (solver/games/*/_native.pyx),
# included like _dfpn_step.pxi. Open addressing with linear probing over keys of up to 176 bits,
# 32 bytes an entry; grown by doubling up to a memory budget, where the unsettled entries off the
# search path are dropped instead (settled ones are facts and stay). A game packs its positions
# into `Key`s; a used slot is told by its `hi` word, which every game keeps non-zero.

from libc.stdint cimport int16_t, int64_t, uint16_t, uint32_t, uint64_t


cdef extern from *:
    """
    #include <stdlib.h>
    #include <sys/mman.h>
    /* A table's slots: zeroed pages straight from the kernel, in 2 MiB pages where it offers
       them (Linux, transparent huge pages on request). Filling a table of 4 KiB pages costs a
       page fault every 128 entries, and measured on a Shithead endgame those faults took a third
       of the CPU time (1.8 million in 20 s). */
    static void* dfpn_slots_alloc(size_t bytes) {
    #if defined(MAP_ANONYMOUS)
        void* p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (p == MAP_FAILED) return NULL;
    #if defined(MADV_HUGEPAGE)
        madvise(p, bytes, MADV_HUGEPAGE);
    #endif
        return p;
    #else
        return calloc(bytes, 1);
    #endif
    }
    static void dfpn_slots_free(void* p, size_t bytes) {
        if (p == NULL) return;
    #if defined(MAP_ANONYMOUS)
        munmap(p, bytes);
    #else
        (void)bytes;
        free(p);
    #endif
    }
    """
    void* dfpn_slots_alloc(size_t bytes) nogil
    void dfpn_slots_free(void* p, size_t bytes) nogil


ctypedef struct Key:
    uint64_t lo
    uint64_t hi     # never 0 (the games' packings see to it): 0 marks an empty slot
    uint32_t x      # a third word where a game needs one, else 0
    uint16_t e      # state only one test reads (Eight and a half's big-loser eaten counts), else 0


ctypedef struct Entry:
    uint64_t lo
    uint64_t hi
    uint32_t pn      # 0: proven (dn holds the proof depth + 1); NUMBER_INF: infinite
    uint32_t dn      # 0: disproven
    uint32_t x
    int16_t path     # depth on the current search path (< MAXDEPTH), -1 when not on it
    uint16_t e


# Proof and disproof numbers are 64-bit in the search (INF = 2^62, far beyond any sum) and 32-bit
# in the table: a stored number is either infinite or small (an unsettled position's numbers
# come from estimates and weak sums, a proven one's dn is its proof depth), so nothing is lost.
# Every write goes through _set_numbers and every read of a number (not a test for 0) through
# _number: a plain assignment of INF would truncate to 0, "proven".
cdef uint32_t NUMBER_INF = 0xFFFFFFFF


cdef inline void _set_numbers(Entry* e, uint64_t pn, uint64_t dn) noexcept nogil:
    e.pn = <uint32_t>pn if pn < NUMBER_INF else NUMBER_INF
    e.dn = <uint32_t>dn if dn < NUMBER_INF else NUMBER_INF


cdef inline uint64_t _number(uint32_t stored) noexcept nogil:
    return INF if stored == NUMBER_INF else stored


ctypedef struct Table:
    Entry* slots
    uint64_t cap
    uint64_t mask
    uint64_t count
    uint64_t peak    # the most entries held at once (entries are dropped at the memory budget)
    uint64_t made    # entries made over the table's life (dropped ones included)
    uint64_t max_cap
    uint64_t limit   # the count at which the table grows (or, at the budget, drops entries)


cdef inline uint64_t _hash(Key* k) noexcept nogil:
    cdef uint64_t h = k.lo * <uint64_t>0x9E3779B97F4A7C15ULL
    h ^= (k.hi + <uint64_t>0x632BE59BD9B4E019ULL) * <uint64_t>0xBF58476D1CE4E5B9ULL
    h += (<uint64_t>k.x | (<uint64_t>k.e) << 32) * <uint64_t>0x94D049BB133111EBULL
    h ^= h >> 31
    return h


cdef inline Key _key_of(Entry* e) noexcept nogil:
    cdef Key k
    k.lo = e.lo
    k.hi = e.hi
    k.x = e.x
    k.e = e.e
    return k


cdef inline bint _holds(Entry* e, Key* k) noexcept nogil:
    return e.lo == k.lo and e.hi == k.hi and e.x == k.x and e.e == k.e


cdef bint _table_init(Table* t, uint64_t max_bytes) noexcept nogil:
    """A small empty table that may grow to `max_bytes`; False when out of memory."""
    t.cap = 1 << 12
    t.max_cap = 1 << 12
    while t.max_cap * 2 * sizeof(Entry) <= max_bytes:
        t.max_cap *= 2
    t.mask = t.cap - 1
    t.limit = t.cap * 7 // 10
    t.count = 0
    t.peak = 0
    t.made = 0
    t.slots = <Entry*>dfpn_slots_alloc(t.cap * sizeof(Entry))
    return t.slots != NULL


cdef inline void _table_free(Table* t) noexcept nogil:
    dfpn_slots_free(t.slots, t.cap * sizeof(Entry))
    t.slots = NULL


cdef inline int64_t _table_find(Table* t, Key* k) noexcept nogil:
    """The slot of a key, or -1."""
    cdef uint64_t i = _hash(k) & t.mask
    cdef Entry* e
    while True:
        e = &t.slots[i]
        if e.hi == 0:
            return -1
        if _holds(e, k):
            return <int64_t>i
        i = (i + 1) & t.mask


cdef int64_t _table_insert(Table* t, Key* k, uint64_t pn, uint64_t dn) noexcept nogil:
    """The slot of a key (made with these numbers if new); -1 when memory is exhausted."""
    cdef uint64_t i
    cdef Entry* e
    if t.count >= t.limit:
        if not _table_grow(t):
            return -1
    i = _hash(k) & t.mask
    while True:
        e = &t.slots[i]
        if e.hi == 0:
            e.lo = k.lo
            e.hi = k.hi
            e.x = k.x
            e.e = k.e
            _set_numbers(e, pn, dn)
            e.path = -1
            t.count += 1
            t.made += 1
            if t.count > t.peak:
                t.peak = t.count
            return <int64_t>i
        if _holds(e, k):
            return <int64_t>i
        i = (i + 1) & t.mask


cdef bint _table_grow(Table* t) noexcept nogil:
    """Double the table, or (at the memory budget) drop the unsettled entries not on the path;
    False when that leaves no room."""
    cdef uint64_t new_cap = t.cap * 2
    if new_cap > t.max_cap:
        return _table_drop_unsettled(t)
    cdef Entry* fresh = <Entry*>dfpn_slots_alloc(new_cap * sizeof(Entry))
    if fresh == NULL:
        return False
    cdef uint64_t j, i
    cdef Entry* e
    cdef Key k
    for j in range(t.cap):
        e = &t.slots[j]
        if e.hi == 0:
            continue
        k = _key_of(e)
        i = _hash(&k) & (new_cap - 1)
        while fresh[i].hi != 0:
            i = (i + 1) & (new_cap - 1)
        fresh[i] = e[0]
    dfpn_slots_free(t.slots, t.cap * sizeof(Entry))
    t.slots = fresh
    t.cap = new_cap
    t.mask = new_cap - 1
    t.limit = new_cap * 7 // 10
    return True


cdef bint _table_drop_unsettled(Table* t) noexcept nogil:
    """Drop the unsettled entries off the search path, in place (no fresh table, and no fresh
    pages to zero, at every drop); False when the settled ones leave too little room.

    The next drop comes when the table is 70% full, or, when the settled entries alone fill more
    than half of it, halfway from them to 90%: each drop (a pass over the table) then buys at
    least a 64th of the table in new entries, instead of one a drop as the facts pile up.

    Linear probing stays sound: the survivors are re-inserted in slot order, starting after a
    slot that was empty before the drop. Every probe run lies between two such slots, so when a
    survivor is re-inserted, the slots from its home to its old slot that are already done are
    final, and it lands at or before its old slot with no empty slot on its way."""
    cdef uint64_t j, i, start = 0, n
    cdef Entry* e
    cdef Entry moved
    cdef Key k
    while t.slots[start].hi != 0:  # the table is never full, so an empty slot exists
        start += 1
    for j in range(t.cap):
        e = &t.slots[j]
        if e.hi != 0 and e.pn != 0 and e.dn != 0 and e.path < 0:
            e.hi = 0
            t.count -= 1
    for n in range(1, t.cap + 1):
        j = (start + n) & t.mask
        e = &t.slots[j]
        if e.hi == 0:
            continue
        moved = e[0]
        e.hi = 0
        k = _key_of(&moved)
        i = _hash(&k) & t.mask
        while t.slots[i].hi != 0:
            i = (i + 1) & t.mask
        t.slots[i] = moved
    cdef uint64_t room = (t.cap * 9 // 10 - t.count) // 2 if t.count < t.cap * 9 // 10 else 0
    t.limit = t.count + room
    if t.limit < t.cap * 7 // 10:
        t.limit = t.cap * 7 // 10
    return room >= t.cap // 64


cdef uint64_t _table_purge(Table* t) noexcept nogil:
    """Drop the unsettled entries (facts stay); how many were dropped."""
    cdef uint64_t before = t.count
    _table_drop_unsettled(t)
    return before - t.count


cdef class TableOwner:
    """What a compiled prover shows of its table (each game's `Prover` derives from it)."""

    cdef Table t

    def __dealloc__(self):
        _table_free(&self.t)

    @property
    def count(self) -> int:
        """Positions in the table."""
        return self.t.count

    @property
    def peak(self) -> int:
        """The most positions the table has held at once."""
        return self.t.peak

    @property
    def made(self) -> int:
        """Positions stored over the table's life, those dropped at the memory budget included."""
        return self.t.made

    @property
    def nbytes(self) -> int:
        """Bytes of the table (empty slots included); the fixed child buffers are `buffer_bytes`."""
        return self.t.cap * sizeof(Entry)

    def findable(self) -> bool:
        """Whether every entry is found where it is (no empty slot between a key's home and its
        slot): the invariant of linear probing, for the tests."""
        cdef uint64_t j
        cdef Key k
        for j in range(self.t.cap):
            if self.t.slots[j].hi != 0:
                k = _key_of(&self.t.slots[j])
                if _table_find(&self.t, &k) != <int64_t>j:
                    return False
        return True

    def purge(self):
        """Drop the unsettled entries (facts stay); returns how many were dropped."""
        return _table_purge(&self.t)
