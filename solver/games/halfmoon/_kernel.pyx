# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""The Half Moon search compiled: a line-for-line port of `search.py` and the core DFS.

`search.py` (`HalfMoonSearch`, `ClassSolver`) and `solver/core/solitaire.py`
(`solve_solitaire`, `RefutedSet`) are the reference: the algorithm, the reductions, the
move order and its tie-breaks, the node counting and the two-generation transposition set
are the same here, so both engines visit the same nodes in the same order and return the
same verdicts, lines and node counts (the tests compare them). Read the reference for the
arguments that make each reduction sound; the comments here only say what differs.

What differs is representation, never behaviour:

- the packed key is a pair of 64-bit words with one field per pile height and per free
  rank count (the reference uses one Python int); it identifies the same states;
- the transposition sets are open-addressing hash tables of those pairs, in two
  generations exactly like `RefutedSet` (same capacity in entries, same swap rule), and use
  at most 64 bytes an entry (the reference budgets 96);
- a class solver keeps one memo keyed by the class's packed heights and free counts (the
  reference's `fast` and `memo` dictionaries hold the same answers under two keys);
- the DFS is a loop over an explicit stack instead of recursion.

One `Search` is one direction of the portfolio: `step(budget, seconds, seed)` runs one
restart of `solve_solitaire` with `budgets=(budget,)`, `unsalted_runs=2` and the run
numbering carried over, in native code, and returns the verdict, the line (search moves,
as the reference's) and the nodes. The clock and Ctrl-C are checked every 1024 nodes.
"""

cimport cython
from cpython.exc cimport PyErr_CheckSignals
from libc.stdint cimport int64_t, uint64_t
from libc.stdlib cimport calloc, free, malloc, realloc
from libc.string cimport memcpy, memset
from posix.time cimport CLOCK_MONOTONIC, clock_gettime, timespec

# -- constants shared with search.py -----------------------------------------------------------

cdef enum:
    MAXP = 64            # piles the kernel handles (more: the portfolio uses the Python search)
    CLOCK_EVERY = 1023   # mask: the clock and Ctrl-C are read every 1024 nodes (as the core's)
    NOISE = 10
    JACK = 11
    QUEEN = 12
    KING = 13

cdef int CLASS_OF[14]
CLASS_OF[:] = [0, 1, 2, 3, 4, 5, 5, 4, 3, 2, 1, 0, 0, 0]
cdef int CLASS_RANKS[6][3]
CLASS_RANKS[0][:] = [JACK, QUEEN, KING]
CLASS_RANKS[1][:] = [1, 10, 0]
CLASS_RANKS[2][:] = [2, 9, 0]
CLASS_RANKS[3][:] = [3, 8, 0]
CLASS_RANKS[4][:] = [4, 7, 0]
CLASS_RANKS[5][:] = [5, 6, 0]
cdef int NPARTNERS[14]
NPARTNERS[:] = [0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2, 2, 2]
cdef int PARTNER0[14]
PARTNER0[:] = [0, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, QUEEN, JACK, JACK]
cdef int PARTNER1[14]
PARTNER1[:] = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, KING, KING, QUEEN]

cdef uint64_t GOLDEN = 0x9E3779B97F4A7C15ULL

# Verdict codes returned by `Search.step`.
WON = 1
LOST = 0
STOPPED = -1


class Unsupported(ValueError):
    """A position the kernel cannot represent (too many piles, a key wider than 128 bits)."""


class KernelError(RuntimeError):
    """The kernel broke one of its own invariants: a bug, never a verdict."""


cdef inline int bits_of(long n):
    """`search._bits`: at least one bit."""
    cdef int b = 0
    if n < 1:
        return 1
    while n:
        b += 1
        n >>= 1
    return b


cdef inline double now() noexcept nogil:
    cdef timespec ts
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return ts.tv_sec + ts.tv_nsec * 1e-9


cdef inline uint64_t mix64(uint64_t z) noexcept nogil:
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL
    return z ^ (z >> 31)


cdef inline uint64_t splitmix_next(uint64_t *state) noexcept nogil:
    """`SplitMix64.next` (dealcodes/rng.py)."""
    state[0] = state[0] + GOLDEN
    return mix64(state[0])


cdef inline uint64_t mulhi_lo(uint64_t a, uint64_t b, uint64_t *lo) noexcept nogil:
    """The 128-bit product of a and b: returns the high word, stores the low one."""
    cdef uint64_t a0 = a & 0xFFFFFFFFULL, a1 = a >> 32, b0 = b & 0xFFFFFFFFULL, b1 = b >> 32
    cdef uint64_t p00 = a0 * b0, p01 = a0 * b1, p10 = a1 * b0, p11 = a1 * b1
    cdef uint64_t mid = (p00 >> 32) + (p01 & 0xFFFFFFFFULL) + (p10 & 0xFFFFFFFFULL)
    lo[0] = (mid << 32) | (p00 & 0xFFFFFFFFULL)
    return p11 + (p01 >> 32) + (p10 >> 32) + (mid >> 32)


cdef inline uint64_t splitmix_below(uint64_t *state, uint64_t bound) noexcept nogil:
    """`SplitMix64.below`: Lemire's multiply-and-reject, bit for bit."""
    cdef uint64_t low, high, threshold
    high = mulhi_lo(splitmix_next(state), bound, &low)
    if low < bound:
        threshold = (0 - bound) % bound
        while low < threshold:
            high = mulhi_lo(splitmix_next(state), bound, &low)
    return high


# -- hash tables of packed keys -----------------------------------------------------------------

cdef extern from *:
    """
    #if defined(__GNUC__) || defined(__clang__)
    #define HM_PREFETCH(p) __builtin_prefetch(p)
    #else
    #define HM_PREFETCH(p) ((void)0)
    #endif
    """
    void HM_PREFETCH(const void *p) noexcept nogil


ctypedef struct Table:
    # Open addressing, linear probing, at most half full. A slot is `words` (1 or 2) words; its
    # last word holds ((last key word + 1) << 1) | tag, so 0 marks an empty slot and the low bit
    # is a tag: the generation in a refuted set, the answer in a memo.
    uint64_t *slots
    int words
    size_t nslots        # a power of two
    size_t count
    size_t tagged[2]


cdef inline size_t hash_key(uint64_t k0, uint64_t k1) noexcept nogil:
    return <size_t>mix64(k0 ^ (k1 * GOLDEN) ^ (k1 >> 17))


cdef int table_init(Table *t, int words, size_t nslots) except -1:
    t.slots = <uint64_t *>calloc(nslots * words, sizeof(uint64_t))
    if t.slots == NULL:
        raise MemoryError()
    t.words = words
    t.nslots = nslots
    t.count = 0
    t.tagged[0] = 0
    t.tagged[1] = 0
    return 0


cdef void table_free(Table *t) noexcept:
    free(t.slots)
    t.slots = NULL
    t.nslots = 0
    t.count = 0
    t.tagged[0] = 0
    t.tagged[1] = 0


cdef inline uint64_t *table_slot(Table *t, uint64_t k0, uint64_t k1) noexcept nogil:
    """Where the probe for this key starts (for a prefetch)."""
    return t.slots + (hash_key(k0, k1) & (t.nslots - 1)) * t.words


cdef inline long table_find(Table *t, uint64_t k0, uint64_t k1) noexcept nogil:
    """The slot holding the key, or -1."""
    cdef size_t mask = t.nslots - 1
    cdef size_t i = hash_key(k0, k1) & mask
    cdef uint64_t last, e
    cdef uint64_t *slot
    if t.words == 1:
        last = (k0 + 1) << 1
        while True:
            e = t.slots[i]
            if (e | 1) == (last | 1):
                return <long>i
            if e == 0:
                return -1
            i = (i + 1) & mask
    last = (k1 + 1) << 1
    while True:
        slot = t.slots + 2 * i
        e = slot[1]
        if (e | 1) == (last | 1) and slot[0] == k0:
            return <long>i
        if e == 0:
            return -1
        i = (i + 1) & mask


cdef inline int table_tag(Table *t, long i) noexcept nogil:
    return <int>(t.slots[i * t.words + t.words - 1] & 1)


cdef inline void table_retag(Table *t, long i, int tag) noexcept nogil:
    cdef uint64_t *e = t.slots + i * t.words + t.words - 1
    t.tagged[e[0] & 1] -= 1
    e[0] = (e[0] & ~(<uint64_t>1)) | <uint64_t>tag
    t.tagged[tag] += 1


cdef inline void table_place(Table *t, uint64_t k0, uint64_t k1, int tag) noexcept nogil:
    """Insert a key known to be absent (room is guaranteed)."""
    cdef size_t mask = t.nslots - 1
    cdef size_t i = hash_key(k0, k1) & mask
    while t.slots[i * t.words + t.words - 1] != 0:
        i = (i + 1) & mask
    if t.words == 1:
        t.slots[i] = ((k0 + 1) << 1) | <uint64_t>tag
    else:
        t.slots[2 * i] = k0
        t.slots[2 * i + 1] = ((k1 + 1) << 1) | <uint64_t>tag
    t.count += 1
    t.tagged[tag] += 1


cdef int table_rebuild(Table *t, size_t nslots, int drop_tag) except -1:
    """Rehash into `nslots` slots, leaving out the entries tagged `drop_tag` (-1: none)."""
    cdef Table fresh
    cdef size_t i
    cdef uint64_t e, k0, k1
    table_init(&fresh, t.words, nslots)
    for i in range(t.nslots):
        e = t.slots[i * t.words + t.words - 1]
        if e == 0 or <int>(e & 1) == drop_tag:
            continue
        if t.words == 1:
            k0 = (e >> 1) - 1
            k1 = 0
        else:
            k0 = t.slots[2 * i]
            k1 = (e >> 1) - 1
        table_place(&fresh, k0, k1, <int>(e & 1))
    free(t.slots)
    t[0] = fresh
    return 0


cdef int table_put(Table *t, uint64_t k0, uint64_t k1, int tag) except -1:
    """Insert the key with `tag`, or retag it if present; the table stays at most half full."""
    cdef long i = table_find(t, k0, k1)
    if i >= 0:
        if table_tag(t, i) != tag:
            table_retag(t, i, tag)
        return 0
    if (t.count + 1) * 2 > t.nslots:
        table_rebuild(t, t.nslots * 2, -1)
    table_place(t, k0, k1, tag)
    return 0


cdef int table_reset(Table *t) except -1:
    cdef int words = t.words
    table_free(t)
    return table_init(t, words, 64)


cdef int layout(int *widths, int n, int *word, int *shift) noexcept:
    """Place bit fields of these widths in one word (at most 62 bits: the table needs 2 spare
    bits) or two (64 + 62), never straddling a word. Returns the words, or 0 when they do not fit."""
    cdef int total = 0, i, pos = 0, w = 0
    for i in range(n):
        total += widths[i]
    if total <= 62:
        for i in range(n):
            word[i] = 0
            shift[i] = pos
            pos += widths[i]
        return 1
    for i in range(n):
        if w == 0 and pos + widths[i] > 64:
            w = 1
            pos = 0
        if w == 1 and pos + widths[i] > 62:
            return 0
        word[i] = w
        shift[i] = pos
        pos += widths[i]
    return 2


cdef inline int rank_of(object card) except -1:
    """A rank from a `Card` (its first field) or a plain int; 0 for None (an empty slot)."""
    cdef int r
    if card is None:
        return 0
    r = card if isinstance(card, int) else card[0]
    if not 1 <= r <= 13:
        raise ValueError(f"card rank {r} outside A..K")
    return r


# -- class solver (search.ClassSolver) ---------------------------------------------------------

ctypedef struct ClassSolver:
    bint ready
    int k                    # 2 for a pair class, 3 for J/Q/K
    int ranks[3]
    # every pile of the main search, for the mapping from main heights:
    int *hmap[MAXP]          # class height at each real height (0 below 2)
    int seq0[MAXP]           # class index of the pile's lowest class card (-1: none)
    uint64_t *part[MAXP]     # the pile's share of the packed key at each real height (2 words each)
    # active piles (two or more class cards): the class game's own piles
    int na
    int act_of[MAXP]         # main pile -> active index, or -1
    int alen[MAXP]
    int *aseq[MAXP]          # class indices bottom -> top
    int *abelow[MAXP]        # (alen + 1) * 3 counts under the top at each class height
    int cword[MAXP]
    uint64_t cunit[MAXP]
    int fword                # the free count of the class's first rank (the others follow from
    uint64_t funit           # the balance of the class: see Search.__init__)
    Table memo               # tag = the answer
    long long solves
    void *block              # the one allocation behind hmap, part, aseq and abelow


# -- the search --------------------------------------------------------------------------------

ctypedef struct MoveRef:
    int start    # index of the first source in the source arena
    int n        # sources (2 or 3; more for a compound move)
    uint64_t k0  # the key after the move (the reference's child_key)
    uint64_t k1

ctypedef struct Frame:
    uint64_t k0, k1
    int begin, end, idx    # this frame's moves in the move arena
    int src_mark           # the source arena's length before them


@cython.final
cdef class Search:
    """One direction's search state, table and run counter (`portfolio._Direction`).

    The packed key. The reference packs every pile height and every free count. Here a pile
    field holds ``height - 1`` (0 for an empty or single-card pile: heights are never 1), and
    only the free counts of one rank per class (A, 2, 3, 4, 5, J) are kept: in every position
    reached from a balanced start, ``rank_left[r] == rank_left[11 - r]`` (and J = Q = K), and
    ``rank_left[r]`` is the cards of rank r in the piles (known from the heights) plus
    ``free[r]``, so the other free counts follow from these. An unbalanced start is refuted
    at the root, the only position it ever stores. A standard deal needs 12 x 3 + 6 x 4 = 60
    bits: one word.
    """

    cdef int npiles
    cdef int nres
    cdef int *res0                  # the reserve as dealt (ranks, 0 for an empty slot)
    cdef int plen[MAXP]
    cdef int *pblock                # one allocation behind prank and pbelow
    cdef int *prank[MAXP]           # ranks bottom -> top
    cdef int *pbelow[MAXP]          # (plen + 1) * 14: cards of each rank under the top at each height
    cdef int h[MAXP]
    cdef int free_[14]
    cdef int rank_left[14]
    cdef int class_left[6]
    cdef int left
    cdef bint balanced
    cdef uint64_t key[2]
    cdef int words
    cdef int hword[MAXP]
    cdef uint64_t hunit[MAXP]
    cdef int fword[14]
    cdef uint64_t funit[14]         # 0 for the ranks whose free count is not in the key
    cdef int *moved                 # class of each move made (a stack)
    cdef int nmoved
    cdef int maxdepth
    cdef ClassSolver *cs            # 6 class solvers
    cdef long memo_cap
    # the refuted set (core.solitaire.RefutedSet): both generations in one table, by tag
    cdef Table table
    cdef int young_tag
    cdef long long capacity
    cdef long long dropped
    # DFS stacks
    cdef Frame *frames
    cdef int *path
    cdef MoveRef *mv
    cdef int mv_len, mv_cap
    cdef int *src
    cdef int src_len, src_cap
    cdef int npath
    cdef int nframes
    cdef long long last_nodes
    cdef bint broken
    # scratch for one node
    cdef int tops[14][MAXP]
    cdef int nt[14]
    cdef int opt[14]                # nt[r] + (1 if free[r] else 0): the distinct sources of rank r
    cdef int ptop[MAXP]             # the top card's rank of each pile with two cards or more
    cdef int pnext[MAXP]            # the rank under it
    cdef long long *score_buf
    cdef int *order_buf
    cdef MoveRef *sort_buf
    cdef int sort_cap
    cdef public int runs
    cdef long long st_clear, st_free_partners, st_commit, st_commit_dead, st_branch, st_proj_dead
    cdef long long proj_checks

    def __cinit__(self):
        cdef int i
        self.npiles = 0
        self.moved = NULL
        self.cs = NULL
        self.frames = NULL
        self.path = NULL
        self.mv = NULL
        self.src = NULL
        self.score_buf = NULL
        self.order_buf = NULL
        self.sort_buf = NULL
        self.table.slots = NULL
        self.res0 = NULL
        self.pblock = NULL
        for i in range(MAXP):
            self.prank[i] = NULL
            self.pbelow[i] = NULL

    def __init__(self, piles, reserve, long long capacity, long memo_cap=100_000, bint reverse=False):
        """`piles`: sequences of cards (or ranks) bottom -> top; `reserve`: cards or ranks, None
        for an empty slot; `reverse`: search the position with every pile turned upside down
        (`portfolio.reverse_position`) without building it.

        `capacity` is the refuted set's cap in entries (`Limits.tt_entries`); `memo_cap`
        the class memos' (`search.MEMO_CAP`). Raises `Unsupported` for a layout it cannot pack.
        """
        cdef int i, j, r, n, total, cls, nfields, words
        cdef size_t size
        cdef int widths[MAXP + 6]
        cdef int owners[MAXP + 6]
        cdef int fword[MAXP + 6]
        cdef int fshift[MAXP + 6]
        if self.moved != NULL:
            raise RuntimeError("Search.__init__ called twice")
        if len(piles) > MAXP:
            raise Unsupported(f"{len(piles)} piles: the native search handles at most {MAXP}")
        self.npiles = len(piles)
        memset(self.free_, 0, sizeof(self.free_))
        memset(self.rank_left, 0, sizeof(self.rank_left))
        memset(self.class_left, 0, sizeof(self.class_left))
        memset(self.fword, 0, sizeof(self.fword))
        memset(self.funit, 0, sizeof(self.funit))
        for i in range(MAXP):
            self.plen[i] = 0
            self.h[i] = 0
            self.hword[i] = 0
            self.hunit[i] = 0
        self.nres = len(reserve)
        self.res0 = <int *>malloc((self.nres + 1) * sizeof(int))
        if self.res0 == NULL:
            raise MemoryError()
        for j in range(self.nres):
            r = rank_of(reserve[j])
            self.res0[j] = r
            if r:
                self.free_[r] += 1
                self.rank_left[r] += 1
        total = 0
        size = 0
        for i in range(self.npiles):
            n = len(piles[i])
            self.plen[i] = n
            size += (n + 1) + (n + 2) * 14
        self.pblock = <int *>calloc(size + 1, sizeof(int))
        if self.pblock == NULL:
            raise MemoryError()
        size = 0
        for i in range(self.npiles):
            n = self.plen[i]
            self.prank[i] = self.pblock + size
            self.pbelow[i] = self.pblock + size + n + 1
            size += (n + 1) + (n + 2) * 14
        for i in range(self.npiles):
            pile = piles[i]
            n = self.plen[i]
            for j in range(n):
                r = rank_of(pile[n - 1 - j] if reverse else pile[j])
                if not r:
                    raise ValueError("a pile holds an empty card")
                self.prank[i][j] = r
                self.rank_left[r] += 1
            # below[i][height][rank]: rows 0 and 1 empty, row h counts pile[:h-1]
            for j in range(2, n + 1):
                memcpy(self.pbelow[i] + j * 14, self.pbelow[i] + (j - 1) * 14, 14 * sizeof(int))
                self.pbelow[i][j * 14 + self.prank[i][j - 2]] += 1
            if n == 1:
                self.free_[self.prank[i][0]] += 1
                self.h[i] = 0
            else:
                self.h[i] = n
        for r in range(1, 14):
            self.class_left[CLASS_OF[r]] += self.rank_left[r]
            total += self.rank_left[r]
        self.left = total
        self.balanced = self.rank_left[JACK] == self.rank_left[QUEEN] == self.rank_left[KING]
        for r in range(1, 6):
            if self.rank_left[r] != self.rank_left[11 - r]:
                self.balanced = False
        # Key layout: a field per pile that can hold 2+ cards, one per class's first rank.
        nfields = 0
        for i in range(self.npiles):
            if self.plen[i] >= 2:
                owners[nfields] = i
                widths[nfields] = bits_of(self.plen[i] - 1)
                nfields += 1
        for r in (1, 2, 3, 4, 5, JACK):
            if self.rank_left[r]:
                owners[nfields] = -r
                widths[nfields] = bits_of(self.rank_left[r])
                nfields += 1
        words = layout(widths, nfields, fword, fshift)
        if not words:
            raise Unsupported("the position's packed key needs more than 126 bits")
        self.words = words
        for i in range(nfields):
            if owners[i] >= 0:
                self.hword[owners[i]] = fword[i]
                self.hunit[owners[i]] = (<uint64_t>1) << fshift[i]
            else:
                self.fword[-owners[i]] = fword[i]
                self.funit[-owners[i]] = (<uint64_t>1) << fshift[i]
        self.key[0] = 0
        self.key[1] = 0
        for i in range(self.npiles):
            if self.h[i]:
                self.key[self.hword[i]] += <uint64_t>(self.h[i] - 1) * self.hunit[i]
        for r in range(1, 14):
            self.key[self.fword[r]] += <uint64_t>self.free_[r] * self.funit[r]
        self.maxdepth = total // 2 + 2
        self.moved = <int *>malloc((self.maxdepth + 1) * sizeof(int))
        self.frames = <Frame *>malloc((self.maxdepth + 1) * sizeof(Frame))
        self.path = <int *>malloc((self.maxdepth + 1) * sizeof(int))
        self.cs = <ClassSolver *>calloc(6, sizeof(ClassSolver))
        if self.moved == NULL or self.frames == NULL or self.path == NULL or self.cs == NULL:
            raise MemoryError()
        self.nmoved = 0
        self.mv_cap = 256
        self.src_cap = 1024
        self.mv = <MoveRef *>malloc(self.mv_cap * sizeof(MoveRef))
        self.src = <int *>malloc(self.src_cap * sizeof(int))
        self.sort_cap = 256
        self.score_buf = <long long *>malloc(self.sort_cap * sizeof(long long))
        self.order_buf = <int *>malloc(self.sort_cap * sizeof(int))
        self.sort_buf = <MoveRef *>malloc(self.sort_cap * sizeof(MoveRef))
        if self.mv == NULL or self.src == NULL or self.score_buf == NULL or self.order_buf == NULL \
                or self.sort_buf == NULL:
            raise MemoryError()
        self.memo_cap = memo_cap
        for cls in range(6):
            if self.class_left[cls]:
                self._build_class(cls)  # here rather than on first use: an Unsupported comes now
        self.capacity = max(0, capacity)
        self.dropped = 0
        self.young_tag = 0
        table_init(&self.table, self.words, 1024)  # 8 KB: no rehash for a typical solve
        self.runs = 0

    def __dealloc__(self):
        cdef int c
        free(self.pblock)
        if self.cs != NULL:
            for c in range(6):
                self._free_class(&self.cs[c])
            free(self.cs)
        free(self.res0)
        free(self.moved)
        free(self.frames)
        free(self.path)
        free(self.mv)
        free(self.src)
        free(self.score_buf)
        free(self.order_buf)
        free(self.sort_buf)
        table_free(&self.table)

    # -- the refuted set (RefutedSet) -------------------------------------------------------------

    cdef inline bint refuted(self, uint64_t k0, uint64_t k1) noexcept:
        return table_find(&self.table, k0, k1) >= 0

    cdef int refute(self, uint64_t k0, uint64_t k1) except -1:
        """`RefutedSet.add`: when the young generation holds half the cap, the old one is
        dropped and the young one becomes old (here: one table, the generation is a tag)."""
        cdef int old_tag
        if self.capacity == 0:
            return 0
        table_put(&self.table, k0, k1, self.young_tag)
        if <long long>self.table.tagged[self.young_tag] >= (self.capacity + 1) // 2:
            old_tag = self.young_tag ^ 1
            self.dropped += self.table.tagged[old_tag]
            table_rebuild(&self.table, self.table.nslots, old_tag)
            self.young_tag = old_tag
        return 0

    # -- make / unmake (HalfMoonSearch.make, .unmake, .child_key) ---------------------------------

    cdef int make(self, int *move, int n) except -1:
        cdef int i, s, height, rank = 0, bottom, cls
        for i in range(n):
            s = move[i]
            if s >= 0:
                if s >= self.npiles or self.h[s] < 2:
                    raise KernelError(f"move from pile {s} at height {self.h[s] if s < self.npiles else -1}")
                height = self.h[s] - 1
                rank = self.prank[s][height]
                self.key[self.hword[s]] -= self.hunit[s]
                if height == 1:
                    bottom = self.prank[s][0]
                    self.free_[bottom] += 1
                    self.key[self.fword[bottom]] += self.funit[bottom]
                    self.h[s] = 0
                else:
                    self.h[s] = height
            else:
                rank = -s
                if rank > 13 or self.free_[rank] <= 0:
                    raise KernelError(f"move takes a free card of rank {rank} that is not there")
                self.free_[rank] -= 1
                self.key[self.fword[rank]] -= self.funit[rank]
            self.rank_left[rank] -= 1
        cls = CLASS_OF[rank]
        self.left -= n
        self.class_left[cls] -= n
        self.moved[self.nmoved] = cls
        self.nmoved += 1
        return 0

    cdef void unmake(self, int *move, int n) noexcept:
        cdef int i, s, height, bottom, cls
        for i in range(n - 1, -1, -1):
            s = move[i]
            if s >= 0:
                height = self.h[s]
                self.key[self.hword[s]] += self.hunit[s]
                if height == 0:
                    bottom = self.prank[s][0]
                    self.free_[bottom] -= 1
                    self.key[self.fword[bottom]] -= self.funit[bottom]
                    self.h[s] = 2
                    self.rank_left[self.prank[s][1]] += 1
                else:
                    self.h[s] = height + 1
                    self.rank_left[self.prank[s][height]] += 1
            else:
                self.free_[-s] += 1
                self.key[self.fword[-s]] += self.funit[-s]
                self.rank_left[-s] += 1
        self.left += n
        self.nmoved -= 1
        cls = self.moved[self.nmoved]
        self.class_left[cls] += n

    cdef int child_key(self, int *move, int n, uint64_t *out) except -1:
        cdef int i, s, b
        out[0] = self.key[0]
        out[1] = self.key[1]
        if n <= 3:
            for i in range(n):
                s = move[i]
                if s >= 0:
                    out[self.hword[s]] -= self.hunit[s]
                    if self.h[s] == 2:
                        b = self.prank[s][0]
                        out[self.fword[b]] += self.funit[b]
                else:
                    out[self.fword[-s]] -= self.funit[-s]
            return 0
        self.make(move, n)
        out[0] = self.key[0]
        out[1] = self.key[1]
        self.unmake(move, n)
        return 0

    # -- dead positions (HalfMoonSearch.is_dead) ---------------------------------------------------

    cdef int is_dead(self) except -1:
        """1 if provably lost: unbalanced counts, or a class projection that cannot be cleared."""
        cdef int cls, w
        if not self.balanced:
            return 1
        if self.nmoved:
            cls = self.moved[self.nmoved - 1]
            if not self.class_left[cls]:
                return 0
            w = self.class_winnable(cls)
            if not w:
                self.st_proj_dead += 1
            return 0 if w else 1
        for cls in range(6):
            if self.class_left[cls] and not self.class_winnable(cls):
                self.st_proj_dead += 1
                return 1
        return 0

    # -- class solvers (ClassSolver) ---------------------------------------------------------------

    cdef void _free_class(self, ClassSolver *c) noexcept:
        if not c.ready:
            return
        free(c.block)
        c.block = NULL
        table_free(&c.memo)
        c.ready = False

    cdef int _build_class(self, int cls) except -1:
        """The class's piles, its packed key and the main piles' shares of it.

        The key has a field per active pile holding ``class height - 1`` (0 when below 2) and
        the free count of the class's first rank: the class game is balanced too (each group
        takes one card of every class rank), so the other free counts follow, as in the main key.
        """
        cdef ClassSolver *c = &self.cs[cls]
        cdef int i, j, a, height, count, cc, n, r, idx, words
        cdef size_t words_needed, ints_needed
        cdef uint64_t *wp
        cdef int *ip
        cdef int index_of[14]
        cdef int widths[MAXP + 1]
        cdef int fword[MAXP + 1]
        cdef int fshift[MAXP + 1]
        for r in range(14):
            index_of[r] = -1
        c.k = 3 if cls == 0 else 2
        for j in range(c.k):
            c.ranks[j] = CLASS_RANKS[cls][j]
            index_of[c.ranks[j]] = j
        for i in range(MAXP):
            c.act_of[i] = -1
            c.seq0[i] = -1
        c.block = NULL
        c.memo.slots = NULL
        c.ready = True  # from here on, _free_class releases what was allocated
        c.na = 0
        for i in range(self.npiles):
            count = 0
            for height in range(self.plen[i]):
                if index_of[self.prank[i][height]] >= 0:
                    count += 1
            if count >= 2:
                c.act_of[i] = c.na
                c.alen[c.na] = count
                widths[c.na] = bits_of(count - 1)
                c.na += 1
        widths[c.na] = bits_of(self.rank_left[c.ranks[0]])
        words = layout(widths, c.na + 1, fword, fshift)
        if not words:
            raise Unsupported("a class projection's packed key needs more than 126 bits")
        for a in range(c.na):
            c.cword[a] = fword[a]
            c.cunit[a] = (<uint64_t>1) << fshift[a]
        c.fword = fword[c.na]
        c.funit = (<uint64_t>1) << fshift[c.na]
        # One block for every table of the class: the key parts first (8-byte aligned), then ints.
        words_needed = 0
        ints_needed = 0
        for i in range(self.npiles):
            words_needed += 2 * (self.plen[i] + 1)
            ints_needed += self.plen[i] + 1
        for a in range(c.na):
            ints_needed += c.alen[a] + (c.alen[a] + 2) * 3
        c.block = calloc(words_needed * sizeof(uint64_t) + ints_needed * sizeof(int), 1)
        if c.block == NULL:
            raise MemoryError()
        wp = <uint64_t *>c.block
        ip = <int *>(wp + words_needed)
        for i in range(self.npiles):
            c.part[i] = wp
            wp += 2 * (self.plen[i] + 1)
            c.hmap[i] = ip
            ip += self.plen[i] + 1
        for a in range(c.na):
            c.aseq[a] = ip
            ip += c.alen[a]
            c.abelow[a] = ip
            ip += (c.alen[a] + 2) * 3
        for i in range(self.npiles):
            n = self.plen[i]
            a = c.act_of[i]
            count = 0
            for height in range(n):
                idx = index_of[self.prank[i][height]]
                if idx >= 0:
                    if c.seq0[i] < 0:
                        c.seq0[i] = idx
                    if a >= 0:
                        c.aseq[a][count] = idx
                    count += 1
            if a >= 0:
                for j in range(2, count + 1):
                    c.abelow[a][j * 3] = c.abelow[a][(j - 1) * 3]
                    c.abelow[a][j * 3 + 1] = c.abelow[a][(j - 1) * 3 + 1]
                    c.abelow[a][j * 3 + 2] = c.abelow[a][(j - 1) * 3 + 2]
                    c.abelow[a][j * 3 + c.aseq[a][j - 2]] += 1
            count = 0
            for height in range(1, n + 1):
                if index_of[self.prank[i][height - 1]] >= 0:
                    count += 1
                cc = count if height >= 2 else 0
                c.hmap[i][height] = cc
                if cc >= 2:
                    c.part[i][2 * height + c.cword[a]] = <uint64_t>(cc - 1) * c.cunit[a]
                elif cc == 1 and c.seq0[i] == 0:
                    c.part[i][2 * height + c.fword] = c.funit
        table_init(&c.memo, words, 256)
        c.solves = 0
        return 0

    cdef int class_winnable(self, int cls) except -1:
        """`ClassSolver.winnable_from(self.h, self.free, rank_left[first rank of the class])`."""
        cdef ClassSolver *c = &self.cs[cls]
        cdef uint64_t key[2]
        cdef int i, j, a, cc
        cdef long found
        cdef int ch[MAXP]
        cdef int fr[3]
        cdef uint64_t *part
        self.proj_checks += 1
        key[0] = 0
        key[1] = 0
        for i in range(self.npiles):
            part = c.part[i] + 2 * self.h[i]
            key[0] += part[0]
            key[1] += part[1]
        key[c.fword] += <uint64_t>self.free_[c.ranks[0]] * c.funit
        found = table_find(&c.memo, key[0], key[1])
        if found >= 0:
            return table_tag(&c.memo, found)
        for j in range(c.k):
            fr[j] = self.free_[c.ranks[j]]
        for i in range(self.npiles):
            cc = c.hmap[i][self.h[i]]
            if cc == 1:
                fr[c.seq0[i]] += 1
            a = c.act_of[i]
            if a >= 0:
                ch[a] = cc if cc >= 2 else 0
        if <long>c.memo.count > self.memo_cap:
            # A cache only: dropping it costs time, never correctness, and bounds memory.
            table_reset(&c.memo)
        return self._win(c, ch, fr, self.rank_left[c.ranks[0]], key[0], key[1])

    cdef int _win(self, ClassSolver *c, int *ch, int *fr, int left, uint64_t k0, uint64_t k1) except -1:
        """`ClassSolver._win`: exact, memoised, with SAFE_CLEAR, FREE_PARTNERS and COMMIT."""
        cdef long found
        cdef int k = c.k, na = c.na
        cdef int tops[3][MAXP]
        cdef int ntops[3]
        cdef int sources[3][MAXP + 1]
        cdef int nsrc[3]
        cdef int playable[3]
        cdef int options_n[3]
        cdef int *options[3]
        cdef int single[3]
        cdef int a, j, o, cc, idx, result, count, best, best_j, best_src, s, nfree
        cdef int i0, i1, i2, n0, n1, n2
        cdef int *bel
        cdef bint ok
        cdef int move[3]
        if left == 0:
            return 1
        found = table_find(&c.memo, k0, k1)
        if found >= 0:
            return table_tag(&c.memo, found)
        c.solves += 1
        ntops[0] = ntops[1] = ntops[2] = 0
        options_n[0] = options_n[1] = options_n[2] = 1
        for a in range(na):
            cc = ch[a]
            if cc:
                j = c.aseq[a][cc - 1]
                tops[j][ntops[j]] = a
                ntops[j] += 1
        result = -1
        for j in range(k):
            playable[j] = ntops[j] + fr[j]
        if k == 2:
            if (playable[0] == left and playable[1] == left) or fr[0] == left or fr[1] == left:
                result = 1  # SAFE_CLEAR, or FREE_PARTNERS: piles hold one rank only
        else:
            nfree = (fr[0] == left) + (fr[1] == left) + (fr[2] == left)
            if (playable[0] == left and playable[1] == left and playable[2] == left) or nfree >= 2:
                result = 1
        if result < 0:
            for j in range(k):
                for o in range(ntops[j]):
                    sources[j][o] = tops[j][o]
                nsrc[j] = ntops[j]
                if fr[j]:
                    sources[j][nsrc[j]] = -1
                    nsrc[j] += 1
            # COMMIT: a playable card whose possible partners are all playable now.
            best = 1 << 30
            best_j = -1
            best_src = 0
            for j in range(k):
                for idx in range(nsrc[j]):
                    s = sources[j][idx]
                    bel = c.abelow[s] + ch[s] * 3 if s >= 0 else NULL
                    count = 1
                    ok = True
                    for o in range(k):
                        if o == j:
                            continue
                        if playable[o] + (bel[o] if bel != NULL else 0) != left:
                            ok = False
                            break
                        count *= nsrc[o]
                    if ok and count < best:
                        best = count
                        best_j = j
                        best_src = s
            for j in range(k):
                if j == best_j:
                    single[j] = best_src
                    options[j] = &single[j]
                    options_n[j] = 1
                else:
                    options[j] = sources[j]
                    options_n[j] = nsrc[j]
            result = 0
            n0 = options_n[0]
            n1 = options_n[1]
            n2 = options_n[2] if k == 3 else 1
            for i0 in range(n0):
                for i1 in range(n1):
                    for i2 in range(n2):
                        move[0] = options[0][i0]
                        move[1] = options[1][i1]
                        if k == 3:
                            move[2] = options[2][i2]
                        if self._win_child(c, ch, fr, left, k0, k1, move):
                            result = 1
                            break
                    if result:
                        break
                if result:
                    break
        table_put(&c.memo, k0, k1, result)
        return result

    cdef int _win_child(self, ClassSolver *c, int *ch, int *fr, int left, uint64_t k0, uint64_t k1,
                        int *move) except -1:
        cdef int nch[MAXP]
        cdef int nfr[3]
        cdef uint64_t key[2]
        cdef int j, s, cc, b
        memcpy(nch, ch, c.na * sizeof(int))
        nfr[0] = fr[0]
        nfr[1] = fr[1]
        nfr[2] = fr[2]
        key[0] = k0
        key[1] = k1
        for j in range(c.k):
            s = move[j]
            if s < 0:
                nfr[j] -= 1
                if j == 0:
                    key[c.fword] -= c.funit
            else:
                key[c.cword[s]] -= c.cunit[s]
                cc = nch[s] - 1
                if cc == 1:
                    b = c.aseq[s][0]
                    nfr[b] += 1
                    if b == 0:
                        key[c.fword] += c.funit
                    cc = 0
                nch[s] = cc
        return self._win(c, nch, nfr, left - 1, key[0], key[1])

    # -- move generation (HalfMoonSearch.ordered_moves and its helpers) ----------------------------

    cdef inline int ensure(self, int moves, int sources) except -1:
        if self.mv_len + moves > self.mv_cap or self.src_len + sources > self.src_cap or moves > self.sort_cap:
            return self.grow(moves, sources)
        return 0

    cdef int grow(self, int moves, int sources) except -1:
        cdef int cap
        cdef void *grown
        if self.mv_len + moves > self.mv_cap:
            cap = max(self.mv_cap * 2, self.mv_len + moves)
            grown = realloc(self.mv, cap * sizeof(MoveRef))
            if grown == NULL:
                raise MemoryError()
            self.mv = <MoveRef *>grown
            self.mv_cap = cap
        if self.src_len + sources > self.src_cap:
            cap = max(self.src_cap * 2, self.src_len + sources)
            grown = realloc(self.src, cap * sizeof(int))
            if grown == NULL:
                raise MemoryError()
            self.src = <int *>grown
            self.src_cap = cap
        if moves > self.sort_cap:
            cap = max(self.sort_cap * 2, moves)
            free(self.score_buf)
            free(self.order_buf)
            free(self.sort_buf)
            self.score_buf = <long long *>malloc(cap * sizeof(long long))
            self.order_buf = <int *>malloc(cap * sizeof(int))
            self.sort_buf = <MoveRef *>malloc(cap * sizeof(MoveRef))
            if self.score_buf == NULL or self.order_buf == NULL or self.sort_buf == NULL:
                raise MemoryError()
            self.sort_cap = cap
        return 0

    cdef inline void add2(self, int a, int b) noexcept:
        self.mv[self.mv_len].start = self.src_len
        self.mv[self.mv_len].n = 2
        self.mv_len += 1
        self.src[self.src_len] = a
        self.src[self.src_len + 1] = b
        self.src_len += 2

    cdef inline void add3(self, int a, int b, int c) noexcept:
        self.mv[self.mv_len].start = self.src_len
        self.mv[self.mv_len].n = 3
        self.mv_len += 1
        self.src[self.src_len] = a
        self.src[self.src_len + 1] = b
        self.src[self.src_len + 2] = c
        self.src_len += 3

    cdef inline void push_src(self, int s) noexcept:
        self.src[self.src_len] = s
        self.src_len += 1

    cdef inline void end_move(self, int start) noexcept:
        """Close the move whose sources were pushed since `start` (a reduction's multi-card move)."""
        self.mv[self.mv_len].start = start
        self.mv[self.mv_len].n = self.src_len - start
        self.mv_len += 1

    cdef inline void compute_tops(self) noexcept:
        """`tops()`: for each rank, the piles (two or more cards) whose top has that rank; also
        the per-node counts the reductions and the move order share."""
        cdef int i, height, r
        cdef int *pile
        for r in range(14):
            self.nt[r] = 0
        for i in range(self.npiles):
            height = self.h[i]
            if height:
                pile = self.prank[i]
                r = pile[height - 1]
                self.ptop[i] = r
                self.pnext[i] = pile[height - 2]
                self.tops[r][self.nt[r]] = i
                self.nt[r] += 1
        for r in range(14):
            self.opt[r] = self.nt[r] + (self.free_[r] != 0)

    cdef int gen_moves(self, uint64_t salt) except -1:
        """`ordered_moves(salt)`: appends the moves worth trying, best first; returns how many."""
        cdef int begin = self.mv_len
        cdef int found, src, count, low, high, na, nb, a, b, nj, nq, nk, j, q, kk, total
        cdef int *free_ = self.free_
        if not self.balanced:
            return 0
        self.compute_tops()
        self.ensure(1, 3 * self.left + 8)
        if self.safe_compound():
            return 1
        found = self.commit_card(&src, &count)
        if found:
            if count == 0:
                self.st_commit_dead += 1
                return 0
            self.st_commit += 1
            self.ensure(count, 3 * count)
            self.moves_with(src)
            self.order(begin, salt)
            return self.mv_len - begin
        self.st_branch += 1
        total = 0
        for low in range(1, 6):
            total += self.opt[low] * self.opt[11 - low]
        nj = self.opt[JACK]
        nq = self.opt[QUEEN]
        nk = self.opt[KING]
        total += nj * nq * nk
        self.ensure(total, 3 * total)
        for low in range(1, 6):
            high = 11 - low
            na = self.opt[low]
            if not na:
                continue
            nb = self.opt[high]
            for a in range(na):
                for b in range(nb):
                    self.add2(self.tops[low][a] if a < self.nt[low] else -low,
                              self.tops[high][b] if b < self.nt[high] else -high)
        if nj:
            for j in range(nj):
                for q in range(nq):
                    for kk in range(nk):
                        self.add3(self.tops[JACK][j] if j < self.nt[JACK] else -JACK,
                                  self.tops[QUEEN][q] if q < self.nt[QUEEN] else -QUEEN,
                                  self.tops[KING][kk] if kk < self.nt[KING] else -KING)
        self.order(begin, salt)
        return self.mv_len - begin

    cdef void order(self, int begin, uint64_t salt) noexcept:
        """`order`: best first by score (pile sources, heights, groups playable after), stable."""
        cdef int n = self.mv_len - begin
        cdef int base[14]
        cdef int avail[14]
        cdef int i, j, r, s, height, used_free, same, t, key_i
        cdef long long score, key_s
        cdef uint64_t mix
        cdef int *move
        cdef int *pile
        if n <= 1:
            return
        memcpy(base, self.opt, sizeof(base))
        for i in range(n):
            move = self.src + self.mv[begin + i].start
            memcpy(avail, base, sizeof(base))
            score = 0
            mix = salt
            used_free = 0
            for j in range(self.mv[begin + i].n):
                s = move[j]
                if s >= 0:
                    score += 1000 + 10 * self.h[s]
                    avail[self.ptop[s]] -= 1
                    avail[self.pnext[s]] += 1
                else:
                    r = -s
                    used_free += 1
                    if self.free_[r] == 1:
                        avail[r] -= 1
                    elif used_free > 1:
                        same = 0
                        for t in range(self.mv[begin + i].n):
                            same += move[t] == s
                        if self.free_[r] == same:
                            avail[r] -= 1
                if salt:
                    mix = (mix ^ ((<uint64_t><int64_t>s) & 0xFF)) * GOLDEN
            score += 5 * (avail[1] * avail[10] + avail[2] * avail[9] + avail[3] * avail[8] + avail[4] * avail[7]
                          + avail[5] * avail[6] + avail[11] * avail[12] * avail[13])
            if salt:
                score += <long long>((mix >> 40) % NOISE)
            self.score_buf[i] = score
            self.order_buf[i] = i
        # insertion sort by (-score, index): stable, as the reference's sort of (-score, index, move)
        for i in range(1, n):
            key_i = self.order_buf[i]
            key_s = self.score_buf[key_i]
            j = i - 1
            while j >= 0 and self.score_buf[self.order_buf[j]] < key_s:
                self.order_buf[j + 1] = self.order_buf[j]
                j -= 1
            self.order_buf[j + 1] = key_i
        for i in range(n):
            self.sort_buf[i] = self.mv[begin + self.order_buf[i]]
        memcpy(self.mv + begin, self.sort_buf, n * sizeof(MoveRef))

    cdef void moves_with(self, int s) noexcept:
        """`_moves_with`: every group that removes the card at `s` (a pile top or a free rank)."""
        cdef int rank = self.ptop[s] if s >= 0 else -s
        cdef int p0 = PARTNER0[rank], p1 = PARTNER1[rank]
        cdef int n0 = self.opt[p0]
        cdef int n1, b, c
        if NPARTNERS[rank] == 1:
            for b in range(n0):
                self.add2(s, self.tops[p0][b] if b < self.nt[p0] else -p0)
            return
        n1 = self.opt[p1]
        for b in range(n0):
            for c in range(n1):
                self.add3(s, self.tops[p0][b] if b < self.nt[p0] else -p0,
                          self.tops[p1][c] if c < self.nt[p1] else -p1)

    cdef int safe_compound(self) noexcept:
        """`safe_compound`: appends a SAFE_CLEAR or FREE_PARTNERS move and returns 1, else 0."""
        cdef int cls, low, high, left, play_low, play_high, rank, other, playable, x, i, index, o0, o1
        cdef int *free_ = self.free_
        cdef int *nt = self.nt
        cdef int play[3]
        cdef int start
        for cls in range(1, 6):
            if not self.class_left[cls]:
                continue
            low = cls
            high = 11 - cls
            left = self.rank_left[low]
            play_low = nt[low] + free_[low]
            play_high = nt[high] + free_[high]
            if play_low == left and play_high == left:
                self.st_clear += 1
                start = self.src_len
                for rank in (low, high):
                    for i in range(nt[rank]):
                        self.push_src(self.tops[rank][i])
                    for i in range(free_[rank]):
                        self.push_src(-rank)
                self.end_move(start)
                return 1
            for x in range(2):
                rank = low if x == 0 else high
                other = high if x == 0 else low
                playable = play_low if x == 0 else play_high
                if free_[other] == left and playable:
                    self.st_free_partners += 1
                    start = self.src_len
                    for i in range(nt[rank]):
                        self.push_src(self.tops[rank][i])
                        self.push_src(-other)
                    for i in range(free_[rank]):
                        self.push_src(-rank)
                        self.push_src(-other)
                    self.end_move(start)
                    return 1
        if self.class_left[0]:
            left = self.rank_left[JACK]
            for index in range(3):
                rank = JACK + index
                play[index] = nt[rank] + free_[rank]
            if play[0] == left and play[1] == left and play[2] == left:
                self.st_clear += 1
                start = self.src_len
                for rank in range(JACK, KING + 1):
                    for i in range(nt[rank]):
                        self.push_src(self.tops[rank][i])
                    for i in range(free_[rank]):
                        self.push_src(-rank)
                self.end_move(start)
                return 1
            for index in range(3):
                rank = JACK + index
                o0 = PARTNER0[rank]
                o1 = PARTNER1[rank]
                if play[index] and free_[o0] == left and free_[o1] == left:
                    self.st_free_partners += 1
                    start = self.src_len
                    for i in range(nt[rank]):
                        self.push_src(self.tops[rank][i])
                        self.push_src(-o0)
                        self.push_src(-o1)
                    for i in range(free_[rank]):
                        self.push_src(-rank)
                        self.push_src(-o0)
                        self.push_src(-o1)
                    self.end_move(start)
                    return 1
        return 0

    cdef int commit_card(self, int *best_src, int *best_count) noexcept:
        """`commit_card`: 1 with the card's source and move count, or 0 when there is none.

        missing[r] (cards of rank r not playable now) is rank_left[r] - nt[r] - free[r].
        """
        cdef int i, height, rank, p0, p1, count, found = 0
        cdef int *below
        cdef int *rl = self.rank_left
        cdef int *nt = self.nt
        cdef int *fr = self.free_
        cdef int best = 1 << 30
        # Pile tops first (they block cards below them), then free cards.
        for i in range(self.npiles):
            height = self.h[i]
            if not height:
                continue
            rank = self.ptop[i]
            p0 = PARTNER0[rank]
            below = self.pbelow[i] + height * 14
            if rl[p0] - nt[p0] - fr[p0] != below[p0]:
                continue
            if NPARTNERS[rank] == 1:
                count = self.opt[p0]
            else:
                p1 = PARTNER1[rank]
                if rl[p1] - nt[p1] - fr[p1] != below[p1]:
                    continue
                count = self.opt[p0] * self.opt[p1]
            if count < best:
                best = count
                best_src[0] = i
                best_count[0] = count
                found = 1
                if count <= 1:
                    return 1
        for rank in range(1, 14):
            if not fr[rank]:
                continue
            p0 = PARTNER0[rank]
            if rl[p0] - nt[p0] - fr[p0]:
                continue
            if NPARTNERS[rank] == 1:
                count = self.opt[p0]
            else:
                p1 = PARTNER1[rank]
                if rl[p1] - nt[p1] - fr[p1]:
                    continue
                count = self.opt[p0] * self.opt[p1]
            if count < best:
                best = count
                best_src[0] = -rank
                best_count[0] = count
                found = 1
                if count <= 1:
                    return 1
        return found

    # -- the DFS (core.solitaire.solve_solitaire, one run) -----------------------------------------

    cdef int push_frame(self, uint64_t salt) except -1:
        """Enter the current position: its key, its ordered moves and their children's keys."""
        cdef Frame *f
        cdef MoveRef *m
        cdef int i
        cdef uint64_t ck[2]
        if self.nframes > self.maxdepth:
            raise KernelError("search deeper than the cards allow")
        f = &self.frames[self.nframes]
        f.k0 = self.key[0]
        f.k1 = self.key[1]
        f.begin = self.mv_len
        f.src_mark = self.src_len
        self.gen_moves(salt)
        f.end = self.mv_len
        f.idx = f.begin
        self.nframes += 1
        # The children's keys now, and their table slots fetched ahead: most are looked up
        # one after the other, and the table is far bigger than the caches.
        HM_PREFETCH(table_slot(&self.table, f.k0, f.k1))  # refuted on the way out, most likely
        for i in range(f.begin, f.end):
            m = &self.mv[i]
            self.child_key(self.src + m.start, m.n, ck)
            m.k0 = ck[0]
            m.k1 = ck[1]
            HM_PREFETCH(table_slot(&self.table, ck[0], ck[1]))
        return 0

    cdef int run(self, uint64_t salt, long long limit, bint has_deadline, double deadline) except -100:
        """One run of the reference's `dfs` from the current state: 1 won, 0 lost, -1 nodes, -2 time.

        The reference looks a child's key up twice (`child_key(move) in table`, then `key in
        table` on entering it) with nothing added in between; the second lookup is left out.
        """
        cdef long long nodes = 0
        cdef Frame *f
        cdef MoveRef m
        cdef bint descended
        self.npath = 0
        self.nframes = 0
        self.mv_len = 0
        self.src_len = 0
        self.last_nodes = 0
        if self.left == 0:
            return 1
        if self.refuted(self.key[0], self.key[1]):
            return 0
        if self.is_dead():
            self.refute(self.key[0], self.key[1])
            return 0
        self.push_frame(salt)
        while self.nframes > 0:
            f = &self.frames[self.nframes - 1]
            descended = False
            while f.idx < f.end:
                m = self.mv[f.idx]
                f.idx += 1
                if self.refuted(m.k0, m.k1):
                    continue
                nodes += 1
                self.last_nodes = nodes
                if nodes >= limit:
                    return -1
                if (nodes & CLOCK_EVERY) == 0:
                    if has_deadline and now() >= deadline:
                        return -2
                    PyErr_CheckSignals()
                self.make(self.src + m.start, m.n)
                self.path[self.npath] = f.idx - 1
                self.npath += 1
                if self.left == 0:
                    return 1
                if self.is_dead():
                    self.refute(self.key[0], self.key[1])
                    self.npath -= 1
                    self.unmake(self.src + m.start, m.n)
                    continue
                self.push_frame(salt)
                descended = True
                break
            if descended:
                continue
            f = &self.frames[self.nframes - 1]
            self.refute(f.k0, f.k1)
            self.mv_len = f.begin
            self.src_len = f.src_mark
            self.nframes -= 1
            if self.nframes > 0:
                self.npath -= 1
                m = self.mv[self.path[self.npath]]
                self.unmake(self.src + m.start, m.n)
        return 0

    cdef void unwind(self) noexcept:
        """Undo the current line: the state comes back as it was before the run."""
        cdef MoveRef m
        while self.npath > 0:
            self.npath -= 1
            m = self.mv[self.path[self.npath]]
            self.unmake(self.src + m.start, m.n)
        self.nframes = 0
        self.mv_len = 0
        self.src_len = 0

    cdef tuple current_line(self):
        cdef int i, j
        cdef MoveRef m
        line = []
        for i in range(self.npath):
            m = self.mv[self.path[i]]
            line.append(tuple([self.src[m.start + j] for j in range(m.n)]))
        return tuple(line)

    def concretize(self, line):
        """`search.concretize` on this search's own layout (reversed or not).

        The line's moves as sorted tuples of place codes (pile i -> i, reserve slot j ->
        npiles + j), each compound move split into its groups; a free source becomes the first
        reserve slot, then the first single-card pile, holding that rank and not already named
        by the move, exactly as the reference chooses.
        """
        cdef int npiles = self.npiles, nres = self.nres
        cdef int *plen = <int *>malloc((npiles + 1) * sizeof(int))
        cdef int *res = <int *>malloc((nres + 1) * sizeof(int))
        cdef int *places = NULL
        cdef int *ranks = NULL
        cdef int i, j, t, n, src, rank, code, cap = 0, used
        cdef list out = []
        try:
            if plen == NULL or res == NULL:
                raise MemoryError()
            for i in range(npiles):
                plen[i] = self.plen[i]
            for j in range(nres):
                res[j] = self.res0[j]
            for smove in line:
                n = len(smove)
                if n > cap:
                    free(places)
                    free(ranks)
                    cap = n
                    places = <int *>malloc(cap * sizeof(int))
                    ranks = <int *>malloc(cap * sizeof(int))
                    if places == NULL or ranks == NULL:
                        raise MemoryError()
                for t in range(n):
                    src = smove[t]
                    if src >= 0:
                        if src >= npiles or plen[src] == 0:
                            raise KernelError(f"line names empty pile {src}")
                        code = src
                        rank = self.prank[src][plen[src] - 1]
                    else:
                        rank = -src
                        code = -1
                        for j in range(nres):
                            if res[j] == rank:
                                used = 0
                                for i in range(t):
                                    used |= places[i] == npiles + j
                                if not used:
                                    code = npiles + j
                                    break
                        if code < 0:
                            for j in range(npiles):
                                if plen[j] == 1 and self.prank[j][0] == rank:
                                    used = 0
                                    for i in range(t):
                                        used |= places[i] == j
                                    if not used:
                                        code = j
                                        break
                        if code < 0:
                            raise KernelError(f"line names a free card of rank {rank} that is not on the table")
                    places[t] = code
                    ranks[t] = rank
                if n <= 3:
                    groups = [[places[t] for t in range(n)]]
                else:
                    by_rank = {}
                    for t in range(n):
                        by_rank.setdefault(ranks[t], []).append(places[t])
                    groups = [list(group) for group in zip(*(by_rank[r] for r in sorted(by_rank)))]
                    if sum(map(len, groups)) != n:
                        raise KernelError(f"unbalanced compound move {smove}")
                for group in groups:
                    for code in group:
                        if code < npiles:
                            plen[code] -= 1
                        else:
                            res[code - npiles] = 0
                    out.append(tuple(sorted(group)))
        finally:
            free(plen)
            free(res)
            free(places)
            free(ranks)
        return out

    def step(self, long long budget, seconds=None, seed=0):
        """One restart with a node budget: `solve_solitaire(state, Limits(seconds, budget),
        budgets=(budget,), seed=seed, refuted=<this table>, unsalted_runs=2, first_run=runs)`.

        Returns ``(verdict, line, nodes, stopped)``: verdict 1 won (line: search moves), 0 lost,
        -1 stopped ("nodes" or "time"; the state is restored).
        """
        cdef uint64_t salt = 0
        cdef uint64_t state
        cdef int code
        cdef bint has_deadline = seconds is not None
        cdef double deadline = 0.0
        if self.broken:
            raise KernelError("this search hit an internal error before and cannot continue")
        if budget <= 0:
            raise ValueError("the node budget must be positive")
        if self.runs >= 2:
            state = <uint64_t>(int(seed) & 0xFFFFFFFFFFFFFFFF)
            state = state + <uint64_t>(self.runs - 1) * GOLDEN
            salt = mix64(state) | 1
        self.runs += 1
        if has_deadline:
            deadline = now() + float(seconds)
        try:
            code = self.run(salt, budget, has_deadline, deadline)
        except KernelError:
            self.broken = True
            raise
        except BaseException:
            self.unwind()
            raise
        nodes = self.last_nodes
        if code == 1:
            line = self.current_line()
            self.unwind()
            return 1, line, nodes, None
        self.unwind()
        if code == 0:
            return 0, None, nodes, None
        return -1, None, nodes, "nodes" if code == -1 else "time"

    # -- inspection (tests compare these with the reference, state by state) ----------------------

    @property
    def left(self):
        return self.left

    @property
    def refuted_count(self):
        return self.table.count

    @property
    def dropped_count(self):
        return self.dropped

    @property
    def stats(self):
        """The reference's counters, plus class solves and projection checks."""
        cdef int c
        solves = sum(self.cs[c].solves for c in range(6) if self.cs[c].ready)
        return {"clear": self.st_clear, "free_partners": self.st_free_partners, "commit": self.st_commit,
                "commit_dead": self.st_commit_dead, "branch": self.st_branch, "proj_dead": self.st_proj_dead,
                "class_solves": solves, "proj_checks": self.proj_checks}

    @property
    def heights(self):
        return [self.h[i] for i in range(self.npiles)]

    @property
    def free(self):
        return [self.free_[r] for r in range(14)]

    def key_words(self):
        return self.key[0], self.key[1]

    def ordered_moves(self, salt=0):
        """The moves `gen_moves` makes here, as tuples (the reference's `ordered_moves`)."""
        cdef int begin_mv = self.mv_len, begin_src = self.src_len, i, j, n
        cdef MoveRef m
        cdef uint64_t s = <uint64_t>(int(salt) & 0xFFFFFFFFFFFFFFFF)
        n = self.gen_moves(s)
        out = []
        for i in range(begin_mv, begin_mv + n):
            m = self.mv[i]
            out.append(tuple([self.src[m.start + j] for j in range(m.n)]))
        self.mv_len = begin_mv
        self.src_len = begin_src
        return out

    def is_dead_now(self):
        return bool(self.is_dead())

    def class_dead(self, int cls):
        return not self.class_winnable(cls)

    def play(self, move):
        cdef int buf[512]
        cdef int n = len(move), i
        if n > 512:
            raise ValueError("move too long")
        for i in range(n):
            buf[i] = move[i]
        self.make(buf, n)

    def unplay(self, move):
        cdef int buf[512]
        cdef int n = len(move), i
        for i in range(n):
            buf[i] = move[i]
        self.unmake(buf, n)


# -- playouts (rating.playout, for Half Moon) ---------------------------------------------------


def playouts(piles, reserve, state, int count, bint greedy):
    """`rating.playout(entry, start, rng, greedy)` `count` times with one SplitMix64 stream.

    `piles` are rank sequences bottom -> top, `reserve` ranks (None: empty); `state` is the
    generator's state. Legal moves are listed in the rules' canonical order (pairs, then
    triples, each by place), the greedy player keeps the moves with most pile places, and a
    move is drawn with `below` only when there is a choice, exactly as the reference does.
    Returns ``(wins, state)``.
    """
    cdef int np_ = len(piles), nr = len(reserve), nplaces = np_ + len(reserve)
    cdef int i, j, x, y, t, n, nmoves, npairs, ntrip, best, sc, wins = 0, left0 = 0, left
    cdef uint64_t st = <uint64_t>(int(state) & 0xFFFFFFFFFFFFFFFF)
    cdef uint64_t pick
    cdef int *start_len = <int *>malloc((np_ + 1) * sizeof(int))
    cdef int *plen = <int *>malloc((np_ + 1) * sizeof(int))
    cdef int **prank = <int **>calloc(np_ + 1, sizeof(int *))
    cdef int *start_res = <int *>malloc((nr + 1) * sizeof(int))
    cdef int *res = <int *>malloc((nr + 1) * sizeof(int))
    cdef int *pcode = <int *>malloc((nplaces + 1) * sizeof(int))
    cdef int *prk = <int *>malloc((nplaces + 1) * sizeof(int))
    cdef int *moves = NULL
    cdef int *keep = NULL
    cdef long long *tkey = NULL
    cdef int jl[256]
    cdef int ql[256]
    cdef int kl[256]
    cdef int nj, nq, nk, a, b, c, lo, mid, hi
    cdef long long kv
    cdef int maxmoves
    try:
        if start_len == NULL or plen == NULL or prank == NULL or start_res == NULL or res == NULL \
                or pcode == NULL or prk == NULL:
            raise MemoryError()
        for i in range(np_):
            pile = list(piles[i])
            start_len[i] = len(pile)
            prank[i] = <int *>malloc((len(pile) + 1) * sizeof(int))
            if prank[i] == NULL:
                raise MemoryError()
            for j in range(len(pile)):
                prank[i][j] = rank_of(pile[j])
            left0 += len(pile)
        for i in range(nr):
            start_res[i] = rank_of(reserve[i])
            left0 += start_res[i] != 0
        maxmoves = nplaces * nplaces // 2 + 1
        if nplaces > 250:
            raise Unsupported("too many places for the native playouts")
        # at most (nplaces/3)^3 triples
        maxmoves += (nplaces // 3 + 1) * (nplaces // 3 + 1) * (nplaces // 3 + 1)
        moves = <int *>malloc(maxmoves * 3 * sizeof(int))
        keep = <int *>malloc(maxmoves * sizeof(int))
        tkey = <long long *>malloc(maxmoves * sizeof(long long))
        if moves == NULL or keep == NULL or tkey == NULL:
            raise MemoryError()
        for t in range(count):
            memcpy(plen, start_len, np_ * sizeof(int))
            memcpy(res, start_res, nr * sizeof(int))
            left = left0
            while left:
                # playable cards in place order: pile tops, then reserve slots
                n = 0
                for i in range(np_):
                    if plen[i]:
                        pcode[n] = i
                        prk[n] = prank[i][plen[i] - 1]
                        n += 1
                for i in range(nr):
                    if res[i]:
                        pcode[n] = np_ + i
                        prk[n] = res[i]
                        n += 1
                nmoves = 0
                for x in range(n):
                    if prk[x] > 10:
                        continue
                    for y in range(x + 1, n):
                        if prk[y] <= 10 and prk[x] + prk[y] == 11:
                            moves[3 * nmoves] = pcode[x]
                            moves[3 * nmoves + 1] = pcode[y]
                            moves[3 * nmoves + 2] = -1
                            nmoves += 1
                npairs = nmoves
                nj = nq = nk = 0
                for x in range(n):
                    if prk[x] == JACK:
                        jl[nj] = pcode[x]
                        nj += 1
                    elif prk[x] == QUEEN:
                        ql[nq] = pcode[x]
                        nq += 1
                    elif prk[x] == KING:
                        kl[nk] = pcode[x]
                        nk += 1
                for a in range(nj):
                    for b in range(nq):
                        for c in range(nk):
                            lo = jl[a]
                            mid = ql[b]
                            hi = kl[c]
                            if lo > mid:
                                lo, mid = mid, lo
                            if mid > hi:
                                mid, hi = hi, mid
                            if lo > mid:
                                lo, mid = mid, lo
                            kv = (<long long>lo * 256 + mid) * 256 + hi
                            # insertion into the sorted run of triples
                            y = nmoves
                            while y > npairs and tkey[y - 1] > kv:
                                tkey[y] = tkey[y - 1]
                                moves[3 * y] = moves[3 * y - 3]
                                moves[3 * y + 1] = moves[3 * y - 2]
                                moves[3 * y + 2] = moves[3 * y - 1]
                                y -= 1
                            tkey[y] = kv
                            moves[3 * y] = lo
                            moves[3 * y + 1] = mid
                            moves[3 * y + 2] = hi
                            nmoves += 1
                if nmoves == 0:
                    break
                ntrip = 0
                for x in range(nmoves):
                    keep[x] = x
                if greedy:
                    best = -1
                    ntrip = 0
                    for x in range(nmoves):
                        sc = (moves[3 * x] < np_) + (moves[3 * x + 1] < np_) + \
                             (moves[3 * x + 2] >= 0 and moves[3 * x + 2] < np_)
                        if sc > best:
                            best = sc
                            ntrip = 0
                        if sc == best:
                            keep[ntrip] = x
                            ntrip += 1
                    nmoves = ntrip
                if nmoves > 1:
                    pick = splitmix_below(&st, <uint64_t>nmoves)
                    x = keep[pick]
                else:
                    x = keep[0]
                for y in range(3):
                    c = moves[3 * x + y]
                    if c < 0:
                        continue
                    if c < np_:
                        plen[c] -= 1
                    else:
                        res[c - np_] = 0
                    left -= 1
            if left == 0:
                wins += 1
    finally:
        if prank != NULL:
            for i in range(np_):
                free(prank[i])
        free(prank)
        free(start_len)
        free(plen)
        free(start_res)
        free(res)
        free(pcode)
        free(prk)
        free(moves)
        free(keep)
        free(tkey)
    return wins, st
