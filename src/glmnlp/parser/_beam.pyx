# cython: language_level=3
"""Word-synchronous beam search and node features of the incremental parser (C&R 2004 §2.3, §3).

This kernel takes only numpy arrays and ints; :mod:`glmnlp.parser.model` turns grammars, words and tags
into them. It is one module of over 600 lines on purpose: the arenas, the scoring of a node and the
feature templates are ``cdef inline`` functions called per candidate node, and Cython inlines only
within one compilation unit, so splitting it would put the hot calls behind module boundaries.
Everything a hypothesis needs lives in two per-sentence arenas:

* **records** (:c:type:`Rec`): one immutable version of a node. An open constituent gets a new
  version each time a child completes or is added; the old version stays valid for the other
  hypotheses that share it. A record holds the category, the parent record (the open parent's
  version at the time), the completed left sibling, the last child, the category of the first
  child (for the coordination feature), its frontier depth, its head-so-far state (Roark's rule, see
  :mod:`glmnlp.parser.heads`) and its c-commanding head (CC/CCP). The right frontier of a hypothesis is
  the deepest open record; following ``parent`` gives the frontier upwards, so a hypothesis is a
  persistent stack and extending it writes only the new records (O(new nodes), no copying).
* **hypotheses**: score, parent hypothesis, step (site, chain id), deepest open record and a
  "gold-consistent" flag (parent gold-consistent and this step equal to the gold step), which makes
  the early-update membership test exact and O(1).

ADV (C&R 2004 §3.1): for each beam member, each group of candidate chains with the same POS, and each
frontier site from the deepest upwards, the END closures below the site are built once and scored
once, then every chain whose top is licensed by the triple (X, lastchild(X), Z) is built
tentatively, scored and rolled back. FILTER (C&R 2004 §3.1) keeps h_k while
score(h_k) >= score(h_0) - gamma / k**3, up to ``cap`` members. Only the survivors are rebuilt
permanently (without rescoring: their scores are known). At the end of the sentence every open node
is closed (each closure checked).

Speed without changing a result: FILTER selects the first ``cap`` candidates of the ranking (score
descending, ties by arrival) by quickselect and sorts only those, which is the prefix a full sort
gives; the generative models' context parts (:func:`glmnlp.parser._generative.gen_history`) are
cached by the exact context (256 slots, kept while the kernel is the same), since all chains attached
at one site share their top's context. Within one word, a node's score is a function of its
:c:type:`NodeKey` (category, look-ahead POS and context atoms), and a candidate chain's node scores
are a function of the chain, its top's key and the COORD below the top; two per-word memos keyed by
the whole key (compared in full, not by hash) hand back the stored doubles, added in the same order,
so every score is the very same number (BeamParser.node_features, score_chain; tests/
test_decoding_identity.py and test_decoding_memo.py). Measured with callgrind on the first 60 test
sentences of the PTB sample (benchmarks/results/decoding.md): the decode of the bundled combined model
went from 5.29 G to 1.81 G instructions, that of a perceptron-only model from 5.13 G to 2.23 G; the node
memo alone finds 79% / 84% of the node scores, the chain memo 67% / 72% of the candidate chains.
The methods are ``@cython.final`` so that the small ones are called directly and inlined.

Zero weights are not read: most slots of the hashed table hold +0.0 (features that fire on candidates
but were never updated), and every read of the 32 MB table is a likely cache miss, so
:meth:`glmnlp.parser.model.Parser.parse_nbest` passes a bitmap of the slots that are not +0.0 (512 KB
for 2**22 slots; ``decode(..., nonzero)``), and a feature whose bit is clear reads a +0.0 kept apart
(``ZERO_WEIGHT``, in the cache) instead of its slot: the same value, so every sum is the one over
the table (same digests in benchmarks/decoding.py). Training decodes with live weights and no
bitmap. Measured on one idle core (sample test split, perceptron-only model, 5 runs, best): skipping
the zero weights took 173-177 -> 195-196 sentences/s; a perf profile then put 39% of the decode in
:func:`memo_find` (the probes of the per-word memos miss the cache) and 23% in ``node_features``.
The read is branch-free (the address is chosen by a mask): a branch on the bit, with one ``s +=
0.0`` after a skip to keep a -0.0 sum's sign, mispredicted on the model's scattered non-zero weights;
218-222 -> 229-235 sentences/s without it, same digests.

Store forwarding: a node's :c:type:`NodeKey` is written field by field (32-bit stores) just before
:func:`memo_find` hashes it; read back as 64-bit words, every word spans two fresh stores, which the
CPU cannot forward from its store buffer, so each load waited for the stores to reach the cache (a
perf profile of the bundled model put 30% of the decode in ``memo_find``, 17% of that on its first
key load). The hash now reads 32-bit words in two independent multiply chains (the slots change,
the memo's results cannot: it compares keys in full). Same digests; sentences/s on one quiet core
(benchmarks/results/decoding.md): perceptron-only sample model 182 -> 221 (1.45x the decoder before
the memos, 152-155, in the same session), bundled combined model 60-62 -> 67-69; ``memo_find``
fell to 19% of the decode.

Memo tags: most probes of a new key land on an empty slot untouched for many words (a cache miss on
its 88-byte entry; a perf profile put half of ``memo_find``'s samples on that load). Each memo
keeps one 64-bit tag per slot next to the entries (the scope's stamp and 16 bits of the key's
hash; 128 KB for 16,384 slots): a probe reads the tag, and only a slot whose tag equals the key's
is compared in full, so empty slots and other keys' slots never touch an entry. Same digests;
perceptron-only sample model 241-244 -> 265 sentences/s (1.57-1.60x the decoder before the memos,
165-170, the same minutes), bundled combined model 80 -> 84.

Site memo (:meth:`BeamParser.site_slots`): a site's candidates are the chains of one POS group (five
on average on the sample's test split), each looked up in the chain memo by the site's key plus its
own id and COORD. Within a word the same site key recurs under other beam members, so a third memo
keyed by the site (and what COORD reads) holds, per chain of the group, where its node scores are
in ``cvals``: a site found there gives each chain's scores by an array read, without hashing and
probing the chain memo once per chain (1.59 M site lookups instead of 7.96 M chain lookups per
pass over the test split). The same sums in the same order, so the same digests; 254-256 -> 260-265
sentences/s on the perceptron-only sample model, 79-81 -> 83-84 on the bundled model, alternated.

Node memo keys hold only what the node's score reads: a non-POS node's features and generative
context never read CC or CCP (``cc``, ``ccp``), and without a generative model a POS
node's features read neither L02, L03, L11, L30, L21, COORD nor CL, so those fields are zeroed
before the lookup (the fields stay in :c:type:`NodeKey` for the chain and site memos, whose scores
do depend on them). Nodes that differ only there share one entry: on the perceptron-only sample model
3.64 M -> 2.71 M node scores computed per pass over the test split, the rest from the memo; same
digests. Sentences/s on one quiet core, alternated (benchmarks/results/decoding.md): 245-253 ->
269-279 on the perceptron-only sample model (1.70-1.80x the decoder before the memos, 153-163, the
same minutes); the bundled combined model, whose POS nodes keep every field, is unchanged (82.5).

Compact memos: a memo's entries (88 bytes) sat in the slot their hash chose, so the few hundred entries
of a word (555 in the node memo, median on the proxy perceptron) were spread over a table grown for the
largest word seen (16,384 slots, 1.4 MB), each write and first read of an entry a miss of the 1 MB L2
cache that also pushed weights out of it. The entries of the current scope are now stored densely in
the order they are made (a scope reuses the same first few KB), and the tag holds the entry's index:
scope (the low 24 bits of the stamp) << 40 | 16 hash bits << 24 | index. When the stamp's low bits
come round to zero every tag is cleared, so an entry of a scope 2**24 words ago is never taken for
one of the current scope. Same digests. Simulated with callgrind (1 MB L2, first 60 test sentences,
proxy perceptron, decode only; benchmarks/results/decoding.md): L2 misses 4.42 M -> 2.72 M (writes
1.67 M -> 0.40 M), instructions +1.8%. Sentences/s, alternated: bundled combined model 63-68 -> 69-78
(1.10-1.14x), proxy perceptron 296-306 -> 297-313 (level to +6%: its decode is bound by instructions).

Threads: :meth:`BeamParser.decode` releases the GIL while it builds and scores a word's candidates
(ADV, :meth:`BeamParser.adv`: all but FILTER, the rebuilding of the survivors and the result), so
threads that each own a BeamParser (glmnlp.parser.model.Parser keeps one per thread) decode at the
same time. A BeamParser itself is mutable per-call state: one object must not be used by two
threads at once. Feature ids for training are collected in a C buffer (``collect``) and the logs of
gen_events/closed_heads are appended under the GIL, so every building function is nogil.

Features (C&R 2004 §3.2, templates listed in :data:`glmnlp.parser.config.TEMPLATES`) are hashed into a
weight table of 2**n_bits entries: a template's atoms are folded with a 64-bit multiply-xorshift
mix, seeded by the template group, and reduced with the murmur3 finaliser. Atom value 0 = NULL.
A node's score is the sum of the weights of its features plus, when a generative model is set
(:meth:`BeamParser.set_generative`, see :mod:`glmnlp.parser.combined`), ``gen_weight`` times
ln P(node | L10 L01 L02 L03 L20 L11 L30 L21 COORD CL) and, for a POS node, ln P(word | POS L10 L01
L20* CCP* CC) (* only for a leftmost child), scored by the nogil kernel of glmnlp.parser._generative on
the very context atoms the features use. :meth:`BeamParser.gen_events` replays a
derivation and returns those events, so training events and beam scoring share one code path.
``decode`` also returns, per word, the log-sum-exp of the surviving members' scores (the beam's
prefix log-probability when the scores are generative log-probabilities).
"""

import numpy as np
cimport cython
cimport numpy as cnp
from libc.stdlib cimport malloc, calloc, realloc, free, qsort
from libc.string cimport memcpy, memcmp, memset
from libc.stdint cimport int32_t, int64_t, uint32_t, uint64_t, uint8_t, uintptr_t
from libc.math cimport exp, log, INFINITY
from glmnlp.parser._generative cimport (GenerativeKernel, GenHistory, GenTables, gen_history, gen_logprob,
                                        gen_outcome)

cnp.import_array()

cdef enum:
    MAXF = 64

cdef enum:
    HCACHE = 256     # slots of the generative history cache (a power of two)
    HKEY = 11        # a cached history's key: (model << 8 | context length), then up to 10 context atoms

cdef enum:
    NULLC = 0
    ENDC = 1
    TOPC = 2

# template groups (kept in sync with glmnlp.parser.config.TEMPLATES)
cdef enum:
    G_NT = 1         # non-POS node prefixes of (L10 L01 L02 L03 L20 L11 L30 L21 COORD CL)
    G_NT_LK = 2      # non-POS look-ahead conjunctions
    G_POS = 3        # POS node prefixes of (L10 L01 L20 CCP CC)
    G_POS_LK = 4     # POS node look-ahead conjunctions
    G_PUNCT = 5      # punctuation features (+punct)

cdef struct Rec:
    int32_t cat
    int32_t parent
    int32_t left
    int32_t last
    int32_t first_cat
    int32_t depth
    int32_t head_pos
    int32_t decided
    int32_t prev_pos
    int32_t match_pos
    int32_t lastpos_pos
    int32_t cc_pos
    int64_t head_word
    int64_t match_word
    int64_t lastpos_word
    int64_t cc_word

cdef struct NodeKey:
    # everything a new node's score depends on within one word (see BeamParser.node_features)
    int32_t cat
    int32_t lkp
    int32_t flags                # bit 0: no left sibling (l1 < 0); bit 1: L02 is punctuation; bit 2: no parent
    int32_t L10
    int32_t L01
    int32_t L02
    int32_t L03
    int32_t L20
    int32_t L11
    int32_t L30
    int32_t L21
    int32_t coord
    int32_t ccp
    int32_t pad
    int64_t CL
    int64_t cc

cdef enum:
    KEY_WORDS = 9    # sizeof(NodeKey) / 8 (no padding: 14 int32 then 2 int64)

cdef struct MemoEntry:
    NodeKey key
    double value                 # node memo: the node's score
    int32_t off                  # chain memo: the chain's node scores start at BeamParser.cvals[off]; site
                                 # memo: its chains' offsets start at BeamParser.sarr[off]

cdef struct Memo:
    # open addressing with linear probing, at most half full, power-of-two capacity; the entries of the
    # current scope are stored densely in the order they were made (module header: compact memos)
    MemoEntry* slots             # cap / 2 entries; the first ``count`` are the current scope's
    uint64_t* tags               # per slot: scope << 40 | 16 bits of the key's hash << 24 | entry index
    int cap
    int count                    # entries of the current scope
    int pending                  # the empty slot the last memo_find missed at (memo_put fills it)
    uint64_t pending_tag

cdef enum:
    SCOPE_BITS = 24              # a tag's scope: the low 24 bits of the stamp (memo_scope clears on wrap)
    INDEX_BITS = 24              # a tag's entry index (memo_reserve refuses more entries)

cdef struct Cand:
    double score
    int32_t hyp
    int32_t site
    int32_t chain
    int32_t gold
    int32_t order


cdef double ZERO_WEIGHT = 0.0   # what a feature whose bitmap bit is clear reads instead of its slot


cdef inline uint64_t mix(uint64_t h, uint64_t v) noexcept nogil:
    h ^= v + <uint64_t>0x9E3779B97F4A7C15ULL
    h *= <uint64_t>0xBF58476D1CE4E5B9ULL
    h ^= h >> 31
    return h


cdef inline uint64_t fmix(uint64_t h) noexcept nogil:
    h ^= h >> 33
    h *= <uint64_t>0xFF51AFD7ED558CCDULL
    h ^= h >> 33
    h *= <uint64_t>0xC4CEB9FE1A85EC53ULL
    h ^= h >> 33
    return h


cdef inline uint64_t memo_hash(const NodeKey* key) noexcept nogil:
    """The memo hash of ``key`` (read as 32-bit words in two independent chains: see the module header)."""
    cdef const uint32_t* k32 = <const uint32_t*> key
    cdef uint64_t h = 0, g = 0
    cdef int j
    for j in range(KEY_WORDS):
        h = (h ^ k32[2 * j]) * <uint64_t>0x9E3779B97F4A7C15ULL
        g = (g ^ k32[2 * j + 1]) * <uint64_t>0xD6E8FEB86659FD93ULL
    return fmix(h ^ (g >> 29) ^ (g << 35))


cdef MemoEntry* memo_find(Memo* m, const NodeKey* key, int64_t stamp) noexcept nogil:
    """The entry of ``key`` in scope ``stamp``, or NULL; after NULL, :func:`memo_put` stores it where it belongs."""
    cdef const uint64_t* kw = <const uint64_t*> key
    cdef const uint64_t* ew
    cdef uint64_t h = memo_hash(key), t
    cdef uint64_t tag = ((<uint64_t>stamp & ((<uint64_t>1 << SCOPE_BITS) - 1)) << 40) | ((h >> 48) << INDEX_BITS)
    cdef uint64_t i, mask = <uint64_t>(m.cap - 1)
    cdef int j
    cdef MemoEntry* e
    # Probes read the small tag array first (module header): an empty slot or another key's tag never
    # touches an entry; the comparison reads 64-bit words (32-bit ones measured no faster).
    i = h & mask
    while True:
        t = m.tags[i]
        if (t >> 40) != (tag >> 40):
            m.pending = <int>i
            m.pending_tag = tag
            return NULL
        if (t >> INDEX_BITS) == (tag >> INDEX_BITS):
            e = &m.slots[t & ((<uint64_t>1 << INDEX_BITS) - 1)]
            ew = <const uint64_t*> &e.key
            for j in range(KEY_WORDS):
                if ew[j] != kw[j]:
                    break
            else:
                return e
        i = (i + 1) & mask


cdef inline MemoEntry* memo_put(Memo* m) noexcept nogil:
    """The next entry, now the key's that the last :func:`memo_find` of ``m`` missed (the caller fills it)."""
    m.tags[m.pending] = m.pending_tag | <uint64_t>m.count
    m.count += 1
    return &m.slots[m.count - 1]


cdef inline int room_for(void** buf, int* cap, int need, size_t size) noexcept nogil:
    """Make the array ``buf[0]`` of ``cap[0]`` items of ``size`` bytes hold ``need`` items (doubling its
    capacity, contents kept); -1 when out of memory (the array left as it was). Inline: the usual case,
    room already there, costs one comparison at the caller."""
    if need <= cap[0]:
        return 0
    return grow_to(buf, cap, need, size)


cdef int grow_to(void** buf, int* cap, int need, size_t size) noexcept nogil:
    """:func:`room_for`'s growth when the array is full."""
    cdef void* grown
    cdef size_t items = <size_t>cap[0] if cap[0] > 0 else 16
    while items < <size_t>need:
        items *= 2
    grown = realloc(buf[0], items * size)
    if grown == NULL:
        return -1
    buf[0] = grown
    cap[0] = <int>items
    return 0


cdef int memo_init(Memo* m, int cap) noexcept nogil:
    """Allocate an empty memo of ``cap`` slots (a power of two) and room for cap / 2 entries; -1 when out of memory."""
    m.slots = <MemoEntry*> malloc((cap // 2) * sizeof(MemoEntry))
    m.tags = <uint64_t*> calloc(cap, sizeof(uint64_t))   # scope 0 is never used: every slot empty
    if m.slots == NULL or m.tags == NULL:
        free(m.slots)
        free(m.tags)
        m.slots = NULL
        m.tags = NULL
        m.cap = 0
        return -1
    m.cap = cap
    m.count = 0
    return 0


cdef inline int memo_reserve(Memo* m, int64_t stamp) noexcept nogil:
    """Room for one more entry: double the memo (the scope's entries kept, their tags re-placed) when it would
    pass half full; -1 when out of memory or past 2**INDEX_BITS entries."""
    cdef uint64_t* tags
    cdef MemoEntry* slots
    cdef uint64_t h, i, mask, scope
    cdef int j
    if 2 * (m.count + 1) <= m.cap:
        return 0
    if m.count + 1 > (1 << INDEX_BITS):
        return -1
    tags = <uint64_t*> calloc(2 * m.cap, sizeof(uint64_t))
    if tags == NULL:
        return -1
    slots = <MemoEntry*> realloc(m.slots, m.cap * sizeof(MemoEntry))
    if slots == NULL:
        free(tags)
        return -1
    free(m.tags)
    m.tags = tags
    m.slots = slots
    m.cap *= 2
    mask = <uint64_t>(m.cap - 1)
    scope = (<uint64_t>stamp & ((<uint64_t>1 << SCOPE_BITS) - 1)) << 40
    for j in range(m.count):
        h = memo_hash(&m.slots[j].key)
        i = h & mask
        while m.tags[i] != 0:
            i = (i + 1) & mask
        m.tags[i] = scope | ((h >> 48) << INDEX_BITS) | <uint64_t>j
    return 0



cdef int cmp_cand(const void* a, const void* b) noexcept nogil:
    cdef const Cand* x = <const Cand*> a
    cdef const Cand* y = <const Cand*> b
    if x.score > y.score:
        return -1
    if x.score < y.score:
        return 1
    return x.order - y.order


cdef inline bint cand_before(const Cand* x, const Cand* y) noexcept nogil:
    """The FILTER order: higher score first, then earlier candidate (a strict total order without NaN)."""
    return x.score > y.score or (x.score == y.score and x.order < y.order)


cdef void select_top(Cand* a, int n, int k) noexcept nogil:
    """Move the k first candidates of the FILTER order to a[0..k-1] (any order; quickselect, 0 < k < n).

    Every score must be a number (no NaN), so that the order is total and the k first are one set.
    """
    cdef int lo = 0, hi = n - 1, i, j, mid
    cdef Cand pivot, tmp
    while hi > lo:
        mid = lo + (hi - lo) // 2
        # median of three into a[hi] as the pivot
        if cand_before(&a[mid], &a[lo]):
            tmp = a[mid]; a[mid] = a[lo]; a[lo] = tmp
        if cand_before(&a[hi], &a[lo]):
            tmp = a[hi]; a[hi] = a[lo]; a[lo] = tmp
        if cand_before(&a[mid], &a[hi]):
            tmp = a[mid]; a[mid] = a[hi]; a[hi] = tmp
        pivot = a[hi]
        i = lo
        for j in range(lo, hi):
            if cand_before(&a[j], &pivot):
                tmp = a[i]; a[i] = a[j]; a[j] = tmp
                i += 1
        tmp = a[i]; a[i] = a[hi]; a[hi] = tmp
        # a[lo..i-1] precede the pivot at a[i], a[i+1..hi] follow it
        if i == k or i == k - 1:
            return
        if i > k:
            hi = i - 1
        else:
            lo = i + 1


cdef void sort_first(Cand* a, int n, int k) noexcept nogil:
    """Sort a[0..n-1] in the FILTER order far enough that a[0..k-1] hold its first k, in order (k <= 0: all).

    Same result as a full qsort for those k: the order is a strict total order (``order`` is unique)
    unless a score is NaN, in which case the whole array is sorted as before.
    """
    cdef int j
    if 0 < k < n:
        for j in range(n):
            if a[j].score != a[j].score:
                k = 0
                break
    if 0 < k < n:
        select_top(a, n, k)
        qsort(a, k, sizeof(Cand), cmp_cand)
    else:
        qsort(a, n, sizeof(Cand), cmp_cand)


cdef int filter_kept(const Cand* a, int n, double gamma, int cap) noexcept nogil:
    """FILTER (C&R 2004 §3.1): how many of the ranked candidates a[0..n-1] survive.

    h_k (k >= 1) is kept while score(h_k) >= score(h_0) - gamma / k**3, and at most ``cap`` members
    (cap <= 0: no cap); the best candidate always survives.
    """
    cdef double best = a[0].score
    cdef int kept = 1
    while kept < n and (cap <= 0 or kept < cap):
        if a[kept].score < best - gamma / (<double>kept * kept * kept):
            break
        kept += 1
    return kept


def filter_survivors(const double[::1] scores, double gamma, int cap):
    """Indices of the candidates FILTER keeps from ``scores`` (ranked as the beam ranks them), best first.

    The code path of :meth:`BeamParser.decode` (:func:`sort_first` then :func:`filter_kept`); for tests.
    """
    cdef int n = scores.shape[0], j, kept
    if n == 0:
        return []
    cdef Cand* a = <Cand*> malloc(n * sizeof(Cand))
    if a == NULL:
        raise MemoryError()
    try:
        for j in range(n):
            a[j].score = scores[j]
            a[j].order = j
        sort_first(a, n, cap)
        kept = filter_kept(a, n, gamma, cap)
        return [a[j].order for j in range(kept)]
    finally:
        free(a)


def filter_order(const double[::1] scores, int k):
    """Indices of the first ``k`` candidates (all when k <= 0) in the FILTER order, as the beam ranks them.

    Candidate j has ``scores[j]`` and arrival order j. For tests of the selection in :meth:`BeamParser.decode`.
    """
    cdef int n = scores.shape[0], j
    cdef Cand* a = <Cand*> malloc(max(n, 1) * sizeof(Cand))
    if a == NULL:
        raise MemoryError()
    try:
        for j in range(n):
            a[j].score = scores[j]
            a[j].order = j
        sort_first(a, n, k)
        return [a[j].order for j in range(n if k <= 0 or k > n else k)]
    finally:
        free(a)


@cython.final
cdef class BeamParser:
    """Grammar tables + arenas; :meth:`decode` runs the beam, :meth:`features` replays a derivation."""

    cdef int n_cats
    cdef uint8_t[::1] triples
    cdef uint8_t[::1] is_pos
    cdef uint8_t[::1] is_punct
    cdef int32_t[::1] first_letter
    cdef int cc_cat
    cdef int32_t[::1] slash_base  # FSLC slash category X/Y -> id of Y (-1 otherwise); see set_slash_base
    cdef bint has_slash
    cdef int32_t[::1] chain_cats
    cdef int32_t[::1] chain_off
    cdef uint64_t mask
    # arenas
    cdef Rec* recs
    cdef int n_recs, cap_recs
    cdef int32_t* h_parent
    cdef int32_t* h_site
    cdef int32_t* h_chain
    cdef int32_t* h_rec
    cdef int32_t* h_gold
    cdef double* h_score
    cdef int n_hyps, cap_hyps
    cdef Cand* cands
    cdef int n_cands, cap_cands
    # per-sentence inputs
    cdef const int64_t* words
    cdef const int32_t* next_pos
    cdef int isq
    cdef int punct
    cdef const double* w
    cdef const uint64_t* nz          # bit f set: weight f is not +0.0 (NULL: read every weight)
    cdef bint scoring
    cdef uint64_t fbuf[MAXF]
    cdef int nf
    cdef int64_t atoms[12]       # context atoms of the last node featurised (for tests / inspection)
    cdef list closed_log         # when log_closed: (category, head word, head POS) of each closed record
    cdef bint log_closed
    cdef bint collect            # features(): append every node's feature ids to obuf
    cdef list node_log           # when log_nodes (explain()): each built node's category, inputs, score and ids
    cdef bint log_nodes
    cdef int64_t* obuf
    cdef int on_, ocap
    cdef public long long n_candidates   # candidates scored (statistics)
    cdef public long long n_beam         # summed beam sizes after FILTER
    # generative term (glmnlp.parser.combined): gen_weight * ln P of each built node (and POS node's word)
    cdef GenerativeKernel gen
    cdef double gen_weight
    cdef const int64_t* gen_wid          # word-model outcome of word i under POS p: gen_wid[i * n_cats + p]
    cdef object gen_wid_ref
    cdef int gen_n_words
    cdef int gen_i                       # index of the word whose chain is being built
    cdef list gen_log                    # when log_gen: the generative events of the nodes built
    cdef bint log_gen
    cdef const GenTables* gtab           # gen's tables (NULL: no generative term)
    # node-model contexts recently scored (direct-mapped by a hash of the 10 atoms; the key is the
    # whole context, so a hit reuses exactly what gen_history would compute again)
    cdef GenHistory hcache[HCACHE]
    cdef int64_t hkey[HCACHE][HKEY]
    cdef bint hvalid[HCACHE]
    cdef bint quiet                      # rebuilding survivors: their scores are known, skip features
    # node scores of the current word, by their whole context (see node_features); on only while decode
    # scores candidates, so every path that needs a node's features or side effects computes them
    cdef Memo node_memo                  # node scores by NodeKey
    cdef Memo chain_memo                 # a chain's node scores by (chain, its top's NodeKey, COORD below the top)
    cdef double* cvals                   # the chain memo's node scores (this scope's)
    cdef int cvals_n, cvals_cap
    cdef Memo site_memo                  # per site context: where each chain of its POS group has its scores
    cdef int32_t* sarr                   # the site memo's arrays: a chain's offset in cvals, -1 = not yet
    cdef int sarr_n, sarr_cap
    cdef double* vbuf                    # the node scores of the chain built last (attach)
    cdef public int64_t memo_stamp       # the current word scope (public for tests of its wrap-around)
    cdef bint memo_on
    cdef bint memo_off                   # set_memo(False): never use the memos (for tests)
    cdef public long long n_scored       # node scores computed (statistics; the rest came from the memo)
    cdef public long long n_memo         # node scores taken from the memo
    cdef public long long n_chain_memo   # candidate chains scored from the chain memo
    # per-hypothesis measures (glmnlp.parser.measures; see set_tracking): off unless asked for
    cdef bint track
    cdef double acc_gen                  # running sum of unweighted generative log-probs of built nodes
    cdef double acc_lex                  # ln P(word | POS context) of the last POS node built
    cdef int acc_nodes                   # node-model events built (chain nodes and END closures)
    cdef int64_t acc_wctx[6]             # word-model context of the last POS node built
    cdef double* t_gen
    cdef double* t_lex
    cdef int32_t* t_steps
    cdef int32_t* t_open
    cdef int64_t* t_wctx
    cdef int cap_t
    cdef double last_gamma               # FILTER of the last word when last_cap >= 0 (set_last_filter)
    cdef int unk_classes                 # > 0: word ids 1..unk_classes scored given their POS only
    cdef int last_cap

    def __cinit__(self):
        self.recs = NULL
        self.h_parent = NULL
        self.cands = NULL
        self.node_memo.slots = NULL
        self.chain_memo.slots = NULL
        self.node_memo.tags = NULL
        self.chain_memo.tags = NULL
        self.site_memo.slots = NULL
        self.site_memo.tags = NULL
        self.sarr = NULL
        self.cvals = NULL
        self.vbuf = NULL
        self.obuf = NULL
        self.ocap = 0
        self.gtab = NULL
        self.t_gen = NULL
        self.t_lex = NULL
        self.t_steps = NULL
        self.t_open = NULL
        self.t_wctx = NULL
        self.cap_t = 0
        self.last_cap = -1

    def __init__(self, int n_cats, uint8_t[::1] triples, uint8_t[::1] is_pos, uint8_t[::1] is_punct,
                 int32_t[::1] first_letter, int cc_cat, int32_t[::1] chain_cats, int32_t[::1] chain_off,
                 int n_bits):
        cdef int i
        if triples.shape[0] != n_cats * n_cats * n_cats:
            raise ValueError("triples must be a flat n_cats**3 table")
        self.n_cats = n_cats
        self.triples = triples
        self.is_pos = is_pos
        self.is_punct = is_punct
        self.first_letter = first_letter
        self.cc_cat = cc_cat
        self.chain_cats = chain_cats
        self.chain_off = chain_off
        self.mask = (<uint64_t>1 << n_bits) - 1
        self.cap_recs = 1 << 16
        self.recs = <Rec*> malloc(self.cap_recs * sizeof(Rec))
        self.cap_hyps = 1 << 12
        self.h_parent = <int32_t*> malloc(self.cap_hyps * sizeof(int32_t))
        self.h_site = <int32_t*> malloc(self.cap_hyps * sizeof(int32_t))
        self.h_chain = <int32_t*> malloc(self.cap_hyps * sizeof(int32_t))
        self.h_rec = <int32_t*> malloc(self.cap_hyps * sizeof(int32_t))
        self.h_gold = <int32_t*> malloc(self.cap_hyps * sizeof(int32_t))
        self.h_score = <double*> malloc(self.cap_hyps * sizeof(double))
        self.cap_cands = 1 << 14
        self.cands = <Cand*> malloc(self.cap_cands * sizeof(Cand))
        self.memo_stamp = 0
        self.cvals_cap = 1 << 12
        self.cvals = <double*> malloc(self.cvals_cap * sizeof(double))
        self.sarr_cap = 1 << 12
        self.sarr = <int32_t*> malloc(self.sarr_cap * sizeof(int32_t))
        self.sarr_n = 0
        longest = max([chain_off[i + 1] - chain_off[i] for i in range(chain_off.shape[0] - 1)], default=1)
        self.vbuf = <double*> malloc(max(longest, 1) * sizeof(double))
        if (memo_init(&self.node_memo, 1 << 12) < 0 or memo_init(&self.chain_memo, 1 << 12) < 0
                or memo_init(&self.site_memo, 1 << 10) < 0
                or self.cvals == NULL or self.sarr == NULL or self.vbuf == NULL or self.recs == NULL or self.h_parent == NULL or self.h_site == NULL or self.h_chain == NULL
                or self.h_rec == NULL or self.h_gold == NULL or self.h_score == NULL or self.cands == NULL):
            raise MemoryError()
        self.n_candidates = 0
        self.n_beam = 0

    def set_slash_base(self, int32_t[::1] slash_base):
        """Per category: for an FSLC slash category X/Y the id of Y, else -1 (enables COORD across X/Y)."""
        if slash_base.shape[0] != self.n_cats:
            raise ValueError("slash_base needs one entry per category")
        self.slash_base = slash_base
        self.has_slash = True

    def __dealloc__(self):
        free(self.recs)
        free(self.h_parent)
        free(self.h_site)
        free(self.h_chain)
        free(self.h_rec)
        free(self.h_gold)
        free(self.h_score)
        free(self.cands)
        free(self.node_memo.slots)
        free(self.chain_memo.slots)
        free(self.node_memo.tags)
        free(self.chain_memo.tags)
        free(self.site_memo.slots)
        free(self.site_memo.tags)
        free(self.sarr)
        free(self.cvals)
        free(self.vbuf)
        free(self.obuf)
        free(self.t_gen)
        free(self.t_lex)
        free(self.t_steps)
        free(self.t_open)
        free(self.t_wctx)

    # -- arenas ---------------------------------------------------------------------------------
    cdef int new_rec(self) except -1 nogil:
        cdef Rec* grown
        if self.n_recs == self.cap_recs:
            grown = <Rec*> realloc(self.recs, 2 * self.cap_recs * sizeof(Rec))
            if grown == NULL:
                with gil:
                    raise MemoryError()
            self.recs = grown
            self.cap_recs *= 2
        self.n_recs += 1
        return self.n_recs - 1

    cdef int copy_rec(self, int src) except -1 nogil:
        cdef int r = self.new_rec()
        self.recs[r] = self.recs[src]
        return r

    cdef int new_hyp(self) except -1:
        cdef int cap
        if self.n_hyps == self.cap_hyps:
            cap = 2 * self.cap_hyps
            self.h_parent = <int32_t*> realloc(self.h_parent, cap * sizeof(int32_t))
            self.h_site = <int32_t*> realloc(self.h_site, cap * sizeof(int32_t))
            self.h_chain = <int32_t*> realloc(self.h_chain, cap * sizeof(int32_t))
            self.h_rec = <int32_t*> realloc(self.h_rec, cap * sizeof(int32_t))
            self.h_gold = <int32_t*> realloc(self.h_gold, cap * sizeof(int32_t))
            self.h_score = <double*> realloc(self.h_score, cap * sizeof(double))
            if (self.h_parent == NULL or self.h_site == NULL or self.h_chain == NULL or self.h_rec == NULL
                    or self.h_gold == NULL or self.h_score == NULL):
                raise MemoryError()
            self.cap_hyps = cap
        self.n_hyps += 1
        return self.n_hyps - 1

    cdef int add_cand(self, double score, int hyp, int site, int chain, int gold) except -1 nogil:
        cdef Cand* grown
        if self.n_cands == self.cap_cands:
            grown = <Cand*> realloc(self.cands, 2 * self.cap_cands * sizeof(Cand))
            if grown == NULL:
                with gil:
                    raise MemoryError()
            self.cands = grown
            self.cap_cands *= 2
        self.cands[self.n_cands].score = score
        self.cands[self.n_cands].hyp = hyp
        self.cands[self.n_cands].site = site
        self.cands[self.n_cands].chain = chain
        self.cands[self.n_cands].gold = gold
        self.cands[self.n_cands].order = self.n_cands
        self.n_cands += 1
        return 0

    cdef inline int rcat(self, int r) noexcept nogil:
        return 0 if r < 0 else self.recs[r].cat

    cdef inline bint allows(self, int x, int y, int z) noexcept nogil:
        return self.triples[(x * self.n_cats + y) * self.n_cats + z] != 0

    # -- heads (Roark's rule; documented in glmnlp.parser.heads) ---------------------------------------
    cdef void incorporate(self, int r, int c) noexcept nogil:
        """Update record r's head state with its completed child c."""
        cdef Rec* R = &self.recs[r]
        cdef Rec* C = &self.recs[c]
        cdef int cc = C.cat
        if self.is_punct[cc]:
            if R.head_pos == 0:
                R.head_word = C.head_word
                R.head_pos = C.head_pos
            return
        if not R.decided:
            if (not self.is_pos[cc]) and R.prev_pos:
                R.decided = 1
                if R.match_pos != 0:
                    R.head_word = R.match_word
                    R.head_pos = R.match_pos
                else:
                    R.head_word = R.lastpos_word
                    R.head_pos = R.lastpos_pos
            else:
                R.head_word = C.head_word
                R.head_pos = C.head_pos
        if self.is_pos[cc]:
            R.prev_pos = 1
            R.lastpos_word = C.head_word
            R.lastpos_pos = C.head_pos
            if self.first_letter[cc] == self.first_letter[R.cat]:
                R.match_word = C.head_word
                R.match_pos = C.head_pos
        else:
            R.prev_pos = 0

    # -- features ---------------------------------------------------------------------------------
    cdef inline void emit(self, uint64_t h, int level) noexcept nogil:
        self.fbuf[self.nf] = fmix(h + <uint64_t>level * <uint64_t>0x100000001B3ULL) & self.mask
        self.nf += 1

    cdef inline int coord_from(self, int a, int gp, int L10) noexcept nogil:
        """COORD of a leftmost child of an open node of category L10 whose left sibling is record ``a``
        and whose parent is record ``gp`` (-1: none); 0 if none.

        The first child's category of the conjunct left of a CC (punctuation skipped) that precedes the
        node when that conjunct has the node's category; in FSLC form (X <Y's children> (X/Y CC P ...))
        the earlier conjunct Y is the X node's prefix, so its first child is X's first child.
        """
        cdef int b
        if not self.cc_conjunct(a, &b):
            return 0
        return self.coord_pick(b, gp, L10)

    cdef inline bint cc_conjunct(self, int a, int* b) noexcept nogil:
        """Whether record ``a`` (or the first non-punctuation record left of it) is a CC; then b[0] is the
        first non-punctuation record left of that CC (-1: none). The part of :meth:`coord_from` that does
        not depend on the node's category."""
        while a >= 0 and self.is_punct[self.recs[a].cat]:
            a = self.recs[a].left
        if a >= 0 and self.recs[a].cat == self.cc_cat:
            a = self.recs[a].left
            while a >= 0 and self.is_punct[self.recs[a].cat]:
                a = self.recs[a].left
            b[0] = a
            return True
        return False

    cdef inline int coord_pick(self, int b, int gp, int L10) noexcept nogil:
        """The rest of :meth:`coord_from` after a CC was found, with ``b`` from :meth:`cc_conjunct`."""
        if b >= 0 and self.recs[b].cat == L10:
            return self.recs[b].first_cat
        elif (b < 0 and self.has_slash and gp >= 0 and self.slash_base[self.recs[gp].cat] == L10
              and self.recs[gp].parent >= 0):
            return self.recs[self.recs[gp].parent].first_cat
        return 0

    cdef void memo_scope(self, bint on) noexcept nogil:
        """Start a new word scope of the memos (every earlier entry becomes empty); ``on``: use them."""
        self.memo_stamp += 1
        if (self.memo_stamp & ((1 << SCOPE_BITS) - 1)) == 0:  # a tag keeps 24 bits of the stamp: empty them all
            memset(self.node_memo.tags, 0, self.node_memo.cap * sizeof(uint64_t))
            memset(self.chain_memo.tags, 0, self.chain_memo.cap * sizeof(uint64_t))
            memset(self.site_memo.tags, 0, self.site_memo.cap * sizeof(uint64_t))
            self.memo_stamp += 1
        self.node_memo.count = 0
        self.chain_memo.count = 0
        self.site_memo.count = 0
        self.cvals_n = 0
        self.sarr_n = 0
        self.memo_on = on and not self.memo_off

    cdef inline void node_context(self, int cat, int p, bint empty, int lkp, NodeKey* key,
                                  int* l2_out) noexcept nogil:
        """The context of a new node ``cat`` under parent record ``p`` (its :c:type:`NodeKey`).

        ``empty``: the parent has no children yet from the new node's point of view (chain nodes
        below the chain top). ``l2_out``: the record two positions left of the new node (-1: none).
        """
        cdef int l1 = -1, l2 = -1, l3 = -1, gp = -1, ggp = -1
        key.cat = cat
        key.lkp = lkp
        key.L10 = 0
        key.L11 = 0
        key.L21 = 0
        key.coord = 0
        key.ccp = 0
        key.pad = 0
        key.CL = 0
        key.cc = 0
        if p >= 0:
            key.L10 = self.recs[p].cat
            if not empty:
                l1 = self.recs[p].last
                key.CL = self.recs[p].head_word
            gp = self.recs[p].parent
            key.L11 = self.rcat(self.recs[p].left)
        if l1 >= 0:
            l2 = self.recs[l1].left
            if l2 >= 0:
                l3 = self.recs[l2].left
        key.L01 = self.rcat(l1)
        key.L02 = self.rcat(l2)
        key.L03 = self.rcat(l3)
        key.L20 = self.rcat(gp)
        if gp >= 0:
            ggp = self.recs[gp].parent
            key.L21 = self.rcat(self.recs[gp].left)
        key.L30 = self.rcat(ggp)
        if l1 >= 0:
            key.cc = self.recs[l1].head_word
            key.ccp = self.recs[l1].head_pos
        elif p >= 0:
            key.cc = self.recs[p].cc_word
            key.ccp = self.recs[p].cc_pos
            key.coord = self.coord_from(self.recs[p].left, gp, key.L10)
        key.flags = 0
        if l1 < 0:
            key.flags = 1
        if l2 >= 0 and self.is_punct[self.recs[l2].cat]:
            key.flags += 2
        if p < 0:
            key.flags += 4
        l2_out[0] = l2

    cdef double node_features(self, int cat, int p, bint empty, int64_t lk, int lkp,
                              int npos) except? -1e300 nogil:
        """Fill fbuf with the feature ids of a new node ``cat`` under parent record ``p``.

        ``empty``: the parent has no children yet from the new node's point of view (chain nodes
        below the chain top). Returns the node's score when scoring is on.

        Memo (while :meth:`decode` scores candidates, ``memo_on``): within one word, the look-ahead
        word, its next POS, the sentence's question flag and the generative word ids are fixed, so a
        node's score is a function of its category, its look-ahead POS and its context atoms
        (:c:type:`NodeKey`): every feature and both generative contexts are computed from them. The
        first node with a key computes the score; later nodes with the same key (other chains, sites
        and beam members with the same local context) take the stored double, so the scores are the
        very same numbers. fbuf is left empty then.
        """
        cdef NodeKey key
        cdef int l2
        cdef uint64_t h, base
        cdef int i
        cdef double s = 0.0
        cdef bint pos_node = self.is_pos[cat]
        cdef int lkpunct
        cdef MemoEntry* entry = NULL
        cdef uint64_t f
        cdef uintptr_t m
        cdef bint remember = False
        self.nf = 0
        if self.quiet:
            return 0.0
        self.node_context(cat, p, empty, lkp, &key, &l2)
        if self.memo_on:
            # the memo's key leaves out what this node's score does not read (more nodes share a key)
            if not pos_node:
                key.cc = 0
                key.ccp = 0
            elif self.gtab == NULL and not self.log_gen and not self.track:
                key.L02 = 0
                key.L03 = 0
                key.L11 = 0
                key.L30 = 0
                key.L21 = 0
                key.coord = 0
                key.CL = 0
            if memo_reserve(&self.node_memo, self.memo_stamp) < 0:
                with gil:
                    raise MemoryError()
            entry = memo_find(&self.node_memo, &key, self.memo_stamp)
            if entry != NULL:
                self.n_memo += 1
                return entry.value
            remember = True
        if pos_node:
            base = mix(<uint64_t>G_POS, <uint64_t>cat)
            h = base
            self.emit(h, 0)
            h = mix(h, <uint64_t>key.L10); self.emit(h, 1)
            h = mix(h, <uint64_t>key.L01); self.emit(h, 2)
            h = mix(h, <uint64_t>key.L20); self.emit(h, 3)
            h = mix(h, <uint64_t>key.ccp); self.emit(h, 4)
            h = mix(h, <uint64_t>key.cc); self.emit(h, 5)
            base = mix(<uint64_t>G_POS_LK, <uint64_t>cat)
            self.emit(mix(base, <uint64_t>lk), 1)
            self.emit(mix(mix(base, <uint64_t>key.L10), <uint64_t>lk), 2)
            self.emit(mix(mix(mix(base, <uint64_t>lk), <uint64_t>key.cc), 7), 3)
        else:
            base = mix(<uint64_t>G_NT, <uint64_t>cat)
            h = base
            self.emit(h, 0)
            h = mix(h, <uint64_t>key.L10); self.emit(h, 1)
            h = mix(h, <uint64_t>key.L01); self.emit(h, 2)
            h = mix(h, <uint64_t>key.L02); self.emit(h, 3)
            h = mix(h, <uint64_t>key.L03); self.emit(h, 4)
            h = mix(h, <uint64_t>key.L20); self.emit(h, 5)
            h = mix(h, <uint64_t>key.L11); self.emit(h, 6)
            h = mix(h, <uint64_t>key.L30); self.emit(h, 7)
            h = mix(h, <uint64_t>key.L21); self.emit(h, 8)
            h = mix(h, <uint64_t>key.coord); self.emit(h, 9)
            h = mix(h, <uint64_t>key.CL); self.emit(h, 10)
            base = mix(<uint64_t>G_NT_LK, <uint64_t>cat)
            self.emit(mix(base, <uint64_t>lkp), 1)
            self.emit(mix(base, <uint64_t>lk), 2)
            self.emit(mix(mix(base, <uint64_t>key.L10), <uint64_t>lkp), 3)
            self.emit(mix(mix(base, <uint64_t>key.L10), <uint64_t>lk), 4)
            self.emit(mix(mix(mix(base, <uint64_t>key.L10), <uint64_t>key.L01), <uint64_t>lkp), 5)
        self.atoms[0] = key.L10; self.atoms[1] = key.L01; self.atoms[2] = key.L02; self.atoms[3] = key.L03
        self.atoms[4] = key.L20; self.atoms[5] = key.L11; self.atoms[6] = key.L30; self.atoms[7] = key.L21
        # COORD enters the features of non-POS nodes only (SPEC §b.3 [R]); the node model sees it for both
        self.atoms[8] = 0 if pos_node else key.coord
        self.atoms[9] = key.CL; self.atoms[10] = key.cc; self.atoms[11] = key.ccp
        if self.gtab != NULL or self.log_gen:
            s += self.gen_node(cat, pos_node, key.flags & 1, key.coord)
        if self.punct:
            base = mix(mix(<uint64_t>G_PUNCT, <uint64_t>pos_node), <uint64_t>cat)
            self.emit(mix(base, <uint64_t>self.isq), 1)
            self.emit(mix(mix(base, <uint64_t>key.L10), <uint64_t>self.isq), 2)
            if lkp > 0 and (self.is_punct[lkp] or lkp == self.cc_cat):
                self.emit(mix(base, <uint64_t>npos), 3)
                self.emit(mix(mix(base, <uint64_t>key.L10), <uint64_t>npos), 4)
            if key.flags & 2:
                lkpunct = 2 if (lkp > 0 and self.is_punct[lkp]) else 1
                self.emit(mix(base, <uint64_t>lkpunct), 5)
                self.emit(mix(mix(base, <uint64_t>key.L10), <uint64_t>lkpunct), 6)
        if self.scoring:
            if self.nz == NULL:
                for i in range(self.nf):
                    s += self.w[self.fbuf[i]]
            else:
                for i in range(self.nf):
                    f = self.fbuf[i]
                    m = <uintptr_t>0 - <uintptr_t>((self.nz[f >> 6] >> (f & 63)) & 1)
                    s += (<const double*>((<uintptr_t>&self.w[f] & m) | (<uintptr_t>&ZERO_WEIGHT & ~m)))[0]
        self.n_scored += 1
        if remember:
            entry = memo_put(&self.node_memo)
            entry.key = key
            entry.value = s
        return s

    # -- generative term (glmnlp.parser.combined) ------------------------------------------------------------
    cdef double gen_node(self, int cat, bint pos_node, bint leftmost, int coord) noexcept nogil:
        """gen_weight * (ln P(cat | node context) [+ ln P(word | word context)]) from ``self.atoms``.

        The node context is (L10 L01 L02 L03 L20 L11 L30 L21 COORD CL), COORD (:meth:`coord_from`)
        for POS nodes too, although their features leave it out. The word context is
        (POS L10 L01 L20 CCP CC) with L20 and CCP only for a leftmost child (as in Roark's parser).
        Appends the events to ``gen_log`` when it is a list.
        """
        cdef int64_t ctx[10]
        cdef int64_t wctx[6]
        cdef int j
        cdef int64_t wid = 0
        cdef double lp = 0.0, lw = 0.0
        for j in range(10):
            ctx[j] = self.atoms[j]
        ctx[8] = coord
        if self.gtab != NULL:
            lp = gen_outcome(self.gtab, 0, cat, self.history(0, ctx, 10))
        if pos_node:
            wctx[0] = cat
            wctx[1] = self.atoms[0]
            wctx[2] = self.atoms[1]
            wctx[3] = self.atoms[4] if leftmost else 0
            wctx[4] = self.atoms[11] if leftmost else 0
            wctx[5] = self.atoms[10]
            if self.gen_wid != NULL and self.gen_i < self.gen_n_words:
                wid = self.gen_wid[self.gen_i * self.n_cats + cat]
            if self.gtab != NULL:
                if self.unk_classes > 0 and 1 <= wid <= self.unk_classes:  # set_unknown_by_pos
                    lw = gen_logprob(self.gtab, 1, wid, wctx, 1)
                else:
                    lw = gen_outcome(self.gtab, 1, wid, self.history(1, wctx, 6))
        if self.log_gen:
            with gil:
                self.gen_log.append((0, cat, -1, tuple([ctx[j] for j in range(10)]), lp))
                if pos_node:
                    self.gen_log.append((1, wid, self.gen_i, tuple([wctx[j] for j in range(6)]), lw))
        if self.track:
            self.acc_gen += lp + lw
            self.acc_nodes += 1
            if pos_node:
                self.acc_lex = lw
                for j in range(6):
                    self.acc_wctx[j] = wctx[j]
        return self.gen_weight * (lp + lw)

    cdef const GenHistory* history(self, int model, const int64_t* ctx, int n) noexcept nogil:
        """gen_history of ``model``'s context ctx[0..n-1] (n <= 10), from the cache when the same context
        was seen last in its slot (:func:`gen_outcome` on it gives gen_logprob's number, bit for bit).

        Chains attached at one site share their top's context, chains with a common top share the
        next level's, and POS nodes of one word often share their word-model context, so most nodes
        need only the outcome lookups.
        """
        cdef int64_t key[HKEY]
        cdef uint64_t h = 0
        cdef int j, slot
        key[0] = (<int64_t>model << 8) | n
        for j in range(1, HKEY):
            key[j] = ctx[j - 1] if j <= n else 0
        for j in range(HKEY):
            h = (h ^ <uint64_t>key[j]) * <uint64_t>0x100000001B3ULL
        slot = <int>((h ^ (h >> 29) ^ (h >> 47)) & (HCACHE - 1))
        if not self.hvalid[slot] or memcmp(&self.hkey[slot][0], key, HKEY * sizeof(int64_t)) != 0:
            gen_history(self.gtab, model, ctx, n, &self.hcache[slot])
            memcpy(&self.hkey[slot][0], key, HKEY * sizeof(int64_t))
            self.hvalid[slot] = True
        return &self.hcache[slot]

    cdef void clear_history_cache(self) noexcept nogil:
        cdef int j
        for j in range(HCACHE):
            self.hvalid[j] = False

    def set_generative(self, GenerativeKernel kernel, double weight, const int64_t[::1] word_ids):
        """Score every built node with ``weight`` * its generative log-probability (None: no term).

        ``word_ids`` (length n_words * n_cats) gives the word-model outcome of word i under POS
        category p at ``i * n_cats + p``; it must be set for the sentence about to be decoded.
        """
        if word_ids.shape[0] % self.n_cats != 0:
            raise ValueError("word_ids length must be a multiple of n_cats")
        if kernel is not self.gen:  # the history cache holds what one kernel's (immutable) tables give
            self.clear_history_cache()
        self.gen = kernel
        self.gtab = &kernel.tables if kernel is not None else NULL
        self.gen_weight = weight
        self.gen_wid_ref = np.asarray(word_ids)
        self.gen_n_words = word_ids.shape[0] // self.n_cats
        self.gen_wid = &word_ids[0] if word_ids.shape[0] > 0 else NULL

    def gen_events(self, const int64_t[::1] words, const int32_t[::1] next_pos,
                   const int32_t[::1] sites, const int32_t[::1] chains, bint complete):
        """The generative events of a derivation, in build order (same replay as :meth:`features`).

        Returns a list of (model, outcome, word index, context tuple, ln P): model 0 = node model
        (outcome = category id, word index -1), model 1 = word model (outcome from the word ids of
        :meth:`set_generative`, 0 if none are set; context[0] = the POS). ln P is 0.0 without a
        kernel. With ``complete`` the end-of-sentence closures are included.
        """
        self.gen_log = []
        self.log_gen = True
        try:
            self.features(words, next_pos, 0, 0, sites, chains, complete)
            return self.gen_log
        finally:
            self.log_gen = False
            self.gen_log = None

    # -- building ---------------------------------------------------------------------------------
    cdef int close_top(self, int cur, int i, int lkp, double* score) except -2 nogil:
        """Close the deepest open record ``cur`` (append END); return the parent's new version.

        Scores the END node into score[0] (and collects its feature ids when ``collect`` is on).
        Returns -1 when cur is the root (nothing above).
        """
        cdef int p, np_
        cdef int64_t lk = self.words[i] if i >= 0 else 1
        cdef int npos = self.next_pos[i] if i >= 0 else 0
        cdef double v = self.node_features(ENDC, cur, 0, lk, lkp, npos)
        score[0] += v
        if self.collect:
            self.dump(ENDC, lk, lkp, npos, v)
        if self.log_closed:
            with gil:
                self.closed_log.append((self.recs[cur].cat, self.recs[cur].head_word, self.recs[cur].head_pos))
        p = self.recs[cur].parent
        if p < 0:
            return -1
        np_ = self.copy_rec(p)
        self.recs[np_].last = cur
        self.incorporate(np_, cur)
        return np_

    cdef int dump(self, int cat, int64_t lk, int lkp, int npos, double v) except -1 nogil:
        """Append the feature ids of the node featurised last to obuf (features()); with ``log_nodes``
        (:meth:`explain`) also log the node: its category ``cat``, look-ahead word, look-ahead POS, next POS,
        its score ``v``, its context atoms, its feature ids and how many generative events were logged by then
        (its own included)."""
        cdef int k
        if room_for(<void**>&self.obuf, &self.ocap, self.on_ + self.nf, sizeof(int64_t)) < 0:
            with gil:
                raise MemoryError()
        for k in range(self.nf):
            self.obuf[self.on_ + k] = <int64_t>self.fbuf[k]
        self.on_ += self.nf
        if self.log_nodes:
            with gil:
                self.node_log.append((cat, lk, lkp, npos, v, tuple([self.atoms[k] for k in range(12)]),
                                      [self.fbuf[k] for k in range(self.nf)], len(self.gen_log)))
        return 0

    cdef int attach(self, int x, int c, int i, double* score) except -2 nogil:
        """Attach chain c for word i under open record x (already closed below); return the new deepest open record."""
        cdef int start = self.chain_off[c], end = self.chain_off[c + 1]
        cdef int n = end - start
        cdef int pos = self.chain_cats[end - 1]
        cdef int64_t lk = self.words[i]
        cdef int npos = self.next_pos[i]
        cdef int k, cat, r, prev, nx = -1, depth
        cdef bint first_word = (x < 0)
        cdef double v
        self.gen_i = i
        # chain top
        cat = self.chain_cats[start]
        v = self.node_features(cat, x, 0, lk, pos, npos)
        score[0] += v
        self.vbuf[0] = v
        if self.collect:
            self.dump(cat, lk, pos, npos, v)
        if not first_word:
            nx = self.copy_rec(x)
        r = self.new_rec()
        self.recs[r].cat = cat
        self.recs[r].parent = nx
        self.recs[r].left = -1 if first_word else self.recs[x].last
        self.recs[r].last = -1
        self.recs[r].first_cat = 0
        self.recs[r].depth = 0 if first_word else self.recs[x].depth + 1
        self.recs[r].decided = 0
        self.recs[r].prev_pos = 0
        self.recs[r].match_pos = 0
        self.recs[r].lastpos_pos = 0
        self.recs[r].match_word = 0
        self.recs[r].lastpos_word = 0
        if self.recs[r].left >= 0:
            self.recs[r].cc_word = self.recs[self.recs[r].left].head_word
            self.recs[r].cc_pos = self.recs[self.recs[r].left].head_pos
        else:
            self.recs[r].cc_word = 0
            self.recs[r].cc_pos = 0
        if cat == pos:
            self.recs[r].head_word = lk
            self.recs[r].head_pos = pos
        else:
            self.recs[r].head_word = 0
            self.recs[r].head_pos = 0
        if not first_word:
            self.recs[nx].last = r
            if cat == pos:
                self.incorporate(nx, r)
        prev = r
        for k in range(start + 1, end):
            cat = self.chain_cats[k]
            v = self.node_features(cat, prev, 1, lk, pos, npos)
            score[0] += v
            self.vbuf[k - start] = v
            if self.collect:
                self.dump(cat, lk, pos, npos, v)
            r = self.new_rec()
            self.recs[r].cat = cat
            self.recs[r].parent = prev
            self.recs[r].left = -1
            self.recs[r].last = -1
            self.recs[r].first_cat = 0
            self.recs[r].depth = self.recs[prev].depth + 1
            self.recs[r].decided = 0
            self.recs[r].prev_pos = 0
            self.recs[r].match_pos = 0
            self.recs[r].lastpos_pos = 0
            self.recs[r].match_word = 0
            self.recs[r].lastpos_word = 0
            self.recs[r].cc_word = self.recs[prev].cc_word
            self.recs[r].cc_pos = self.recs[prev].cc_pos
            if cat == pos:
                self.recs[r].head_word = lk
                self.recs[r].head_pos = pos
            else:
                self.recs[r].head_word = 0
                self.recs[r].head_pos = 0
            self.recs[prev].last = r
            self.recs[prev].first_cat = cat
            if cat == pos:
                self.incorporate(prev, r)
            prev = r
        # deepest open record: the POS's parent (or the site's new version for a one-node chain)
        if n == 1:
            return nx
        return self.recs[prev].parent

    cdef inline void add_stored(self, int off, int n, double* score) noexcept nogil:
        """Add a chain's ``n`` stored node scores ``cvals[off ..]`` to score[0] one by one, in chain order, as
        :meth:`attach` added them when they were computed (so the sum is the very same number)."""
        cdef int k
        for k in range(n):
            score[0] += self.cvals[off + k]
        self.n_chain_memo += 1

    cdef int site_slots(self, const NodeKey* site, int x, bint cc, int b, int n) except? -2 nogil:
        """The start in ``sarr`` of the ``n`` cvals offsets (-1: not yet known) of the chains of one POS
        group attached under record ``x`` with top key ``site`` (:meth:`adv`); new ones are all -1.

        Site memo: the candidates of one site are its POS group's chains, each scored by (site key,
        chain, COORD below the top) through the chain memo (:meth:`score_chain`). COORD is
        :meth:`coord_pick` of the chain's second category, a function of ``cc``/``b`` and of x's
        record; the memo key is the site key with ``cat``/``pad`` holding what that function reads,
        so within one word two sites with the same key give every chain the same chain-memo key,
        and the second reads each chain's offset from the array instead of probing the chain memo.
        """
        cdef NodeKey key = site[0]
        cdef MemoEntry* e
        cdef int j, start
        key.cat = 0
        key.pad = 0
        if cc:
            if b >= 0:
                key.cat = 1 + self.recs[b].cat
                key.pad = self.recs[b].first_cat
            elif self.has_slash and x >= 0 and self.recs[x].parent >= 0:
                key.cat = -2 - self.slash_base[self.recs[x].cat]
                key.pad = self.recs[self.recs[x].parent].first_cat
            else:
                key.cat = -1
        if memo_reserve(&self.site_memo, self.memo_stamp) < 0:
            with gil:
                raise MemoryError()
        e = memo_find(&self.site_memo, &key, self.memo_stamp)
        if e != NULL:
            return e.off
        if room_for(<void**>&self.sarr, &self.sarr_cap, self.sarr_n + n, sizeof(int32_t)) < 0:
            with gil:
                raise MemoryError()
        start = self.sarr_n
        for j in range(n):
            self.sarr[start + j] = -1
        self.sarr_n += n
        e = memo_put(&self.site_memo)
        e.key = key
        e.off = start
        return start

    cdef int score_chain(self, int x, int c, int i, double* score, const NodeKey* site, bint cc,
                         int b, int32_t* off) except -1 nogil:
        """Add the scores of chain c's nodes, attached for word i under open record x, to score[0]; build nothing.

        Decode's candidates: with the memos on and x >= 0, a chain's node contexts are functions of
        its top's :c:type:`NodeKey` (the chain nodes below see the top's parent, its last child and
        grandparent as L20/L11/L30/L21, its last child's head as CC, and no left sibling) and of the
        COORD of the node below the top; with the same (chain, top key, that COORD) within one word,
        the stored node scores are added one by one in chain order, as :meth:`attach` adds them, so
        the sum is the very same number. Otherwise the chain is built, scored and rolled back.
        ``site``: the key of a node under x (:meth:`node_context`, any category, the chain's POS as
        look-ahead POS), ``cc``/``b``: :meth:`cc_conjunct` of x's last child; both are the same for
        every chain attached at x, so :meth:`adv` computes them once per site. ``off[0]``: where the
        chain's node scores are in ``cvals`` (from the memo or stored now; -1 when the memos are off).
        """
        cdef int start = self.chain_off[c], end = self.chain_off[c + 1]
        cdef int n = end - start, kept
        cdef NodeKey key
        cdef MemoEntry* e = NULL
        cdef bint remember = False
        self.gen_i = i
        off[0] = -1
        if self.memo_on and x >= 0:
            key = site[0]
            key.cat = c
            if n > 1 and cc:  # COORD of the node below the top: left sibling x's last child, parent x's copy
                key.pad = self.coord_pick(b, x, self.chain_cats[start])
            if memo_reserve(&self.chain_memo, self.memo_stamp) < 0:
                with gil:
                    raise MemoryError()
            e = memo_find(&self.chain_memo, &key, self.memo_stamp)
            if e != NULL:
                self.add_stored(e.off, n, score)
                off[0] = e.off
                return 0
            remember = True
        kept = self.n_recs
        self.attach(x, c, i, score)
        self.n_recs = kept
        if remember:
            if room_for(<void**>&self.cvals, &self.cvals_cap, self.cvals_n + n, sizeof(double)) < 0:
                with gil:
                    raise MemoryError()
            memcpy(&self.cvals[self.cvals_n], self.vbuf, n * sizeof(double))
            e = memo_put(&self.chain_memo)
            e.key = key
            e.off = self.cvals_n
            off[0] = self.cvals_n
            self.cvals_n += n
        return 0

    cdef int begin(self, const int64_t[::1] words, const int32_t[::1] next_pos, int isq, int punct,
                   const double[::1] weights, const uint64_t[::1] nonzero=None) except -1:
        self.words = &words[0]
        self.next_pos = &next_pos[0]
        self.isq = isq
        self.punct = punct
        self.nz = NULL
        if weights is not None and weights.shape[0] > 0:
            if <uint64_t>weights.shape[0] < self.mask + 1:
                raise ValueError("weight table smaller than the feature hash space")
            self.w = &weights[0]
            self.scoring = True
            if nonzero is not None and nonzero.shape[0] > 0:
                if <uint64_t>nonzero.shape[0] * 64 < self.mask + 1:
                    raise ValueError("nonzero bitmap smaller than the feature hash space")
                self.nz = &nonzero[0]
        else:
            self.w = NULL
            self.scoring = False
        self.n_recs = 0
        self.n_hyps = 0
        self.quiet = False
        self.memo_scope(False)
        return 0

    cdef int replay_step(self, int cur, int j, const int32_t[::1] sites, const int32_t[::1] chains,
                         double* score) except -2:
        """Step j of a derivation (:meth:`probe`, :meth:`features`, :meth:`explain`): close the frontier down to
        site j, then attach chain j for word j; return the new deepest open record. Scores into score[0]."""
        if j == 0:
            return self.attach(-1, chains[0], 0, score)
        while self.recs[cur].depth > sites[j]:
            cur = self.close_top(cur, j, self.chain_cats[self.chain_off[chains[j] + 1] - 1], score)
        return self.attach(cur, chains[j], j, score)

    # -- public API ---------------------------------------------------------------------------------
    def probe(self, const int64_t[::1] words, const int32_t[::1] next_pos, int isq, int punct,
              const int32_t[::1] sites, const int32_t[::1] chains, int site, int cat, int word):
        """Replay a derivation prefix, close down to ``site`` and featurise a new node ``cat`` there.

        ``site`` = -1 probes an END closure of the deepest open node instead. Returns
        ``(atoms, ids)``: the context atoms as a dict (L10 L01 L02 L03 L20 L11 L30 L21 COORD CL CC
        CCP; CL/CC are word atoms) and the node's feature ids. For tests and inspection.
        """
        cdef int j, cur = -1
        cdef double dummy = 0.0
        self.begin(words, next_pos, isq, punct, None)
        for j in range(sites.shape[0]):
            cur = self.replay_step(cur, j, sites, chains, &dummy)
        if site >= 0:
            while self.recs[cur].depth > site:
                cur = self.close_top(cur, word, 0, &dummy)
            self.node_features(cat, cur, 0, words[word], cat if self.is_pos[cat] else 0, next_pos[word])
        else:
            self.node_features(ENDC, cur, 0, words[word], 0, next_pos[word])
        names = ("L10", "L01", "L02", "L03", "L20", "L11", "L30", "L21", "COORD", "CL", "CC", "CCP")
        atoms = {names[j]: self.atoms[j] for j in range(12)}
        ids = [self.fbuf[j] for j in range(self.nf)]
        return atoms, np.array(ids, dtype=np.int64)

    def closed_heads(self, const int64_t[::1] words, const int32_t[::1] next_pos,
                     const int32_t[::1] sites, const int32_t[::1] chains):
        """(category, head word atom, head POS) of every constituent, in closing order, for a full derivation."""
        self.closed_log = []
        self.log_closed = True
        try:
            self.features(words, next_pos, 0, 0, sites, chains, True)
            return self.closed_log
        finally:
            self.log_closed = False
            self.closed_log = None

    def features(self, const int64_t[::1] words, const int32_t[::1] next_pos, int isq, int punct,
                 const int32_t[::1] sites, const int32_t[::1] chains, bint complete):
        """Feature ids of a derivation (``sites``/``chains``: one step per absorbed word).

        Returns ``(ids, offsets)``: ids of step j are ``ids[offsets[j]:offsets[j+1]]``; with
        ``complete`` one more block holds the end-of-sentence closures. No grammar checks.
        """
        cdef int j, cur = -1, i
        cdef double dummy = 0.0
        offsets = [0]
        self.begin(words, next_pos, isq, punct, None)
        self.collect = True
        self.on_ = 0
        try:
            for j in range(sites.shape[0]):
                cur = self.replay_step(cur, j, sites, chains, &dummy)
                offsets.append(self.on_)
            if complete:
                while cur >= 0:
                    cur = self.close_top(cur, -1, 0, &dummy)
                offsets.append(self.on_)
        finally:
            self.collect = False
        ids = np.empty(self.on_, dtype=np.int64)
        cdef int64_t[::1] iv = ids
        if self.on_ > 0:
            memcpy(&iv[0], self.obuf, self.on_ * sizeof(int64_t))
        return ids, np.array(offsets, dtype=np.int64)

    def explain(self, const int64_t[::1] words, const int32_t[::1] next_pos, int isq, int punct,
                const int32_t[::1] sites, const int32_t[::1] chains, const double[::1] weights):
        """Every node a complete derivation builds, scored as :meth:`decode` scores it (glmnlp.parser.explain).

        Returns ``(nodes, events, starts, total)``: per node, in build order, ``(category, look-ahead word
        atom, look-ahead POS, next POS, score, context atoms (as :meth:`probe`), feature ids, generative events
        up to and including its own)``; the generative events (:meth:`gen_events`' tuples, with the kernel's ln P when
        :meth:`set_generative` gave one); the index of the first node of each word's step and of the closures
        after the last word; and the derivation's score (the node scores summed in build order).
        """
        cdef int j, cur = -1
        cdef double total = 0.0
        cdef list starts = []
        self.begin(words, next_pos, isq, punct, weights)
        self.node_log = []
        self.gen_log = []
        self.collect = True
        self.log_nodes = True
        self.log_gen = True
        self.on_ = 0
        try:
            for j in range(sites.shape[0]):
                starts.append(len(self.node_log))
                cur = self.replay_step(cur, j, sites, chains, &total)
            starts.append(len(self.node_log))
            while cur >= 0:
                cur = self.close_top(cur, -1, 0, &total)
            return self.node_log, self.gen_log, starts, total
        finally:
            self.collect = False
            self.log_nodes = False
            self.log_gen = False
            self.node_log = None
            self.gen_log = None

    cdef int adv(self, int i, int first, int nbeam, const int32_t* cand_off, const int32_t* cand_chain,
                 bint has_gold, const int32_t* gold_site, const int32_t* gold_chain) except -1 nogil:
        """ADV for word i > 0 (C&R 2004 §3.1): every extension of the beam members first .. first + nbeam - 1
        into ``cands`` (see the module docstring); runs without the GIL."""
        cdef int b, hb, g0, g1, pos, mark, cur, site, k, c, gold_flag, l2, cb = -1
        cdef double close_score, s
        cdef NodeKey skey
        cdef bint cc = False
        cdef int32_t sa = -1, off
        self.n_cands = 0
        self.memo_scope(True)
        for b in range(nbeam):
            hb = first + b
            g0 = cand_off[i]
            while g0 < cand_off[i + 1]:
                pos = self.chain_cats[self.chain_off[cand_chain[g0] + 1] - 1]
                g1 = g0
                while g1 < cand_off[i + 1] and self.chain_cats[self.chain_off[cand_chain[g1] + 1] - 1] == pos:
                    g1 += 1
                mark = self.n_recs
                cur = self.h_rec[hb]
                close_score = self.h_score[hb]
                while True:
                    site = self.recs[cur].depth
                    sa = -1
                    if self.memo_on:  # what every chain attached here shares (score_chain)
                        self.node_context(0, cur, 0, pos, &skey, &l2)
                        skey.pad = 0
                        cc = self.cc_conjunct(self.recs[cur].last, &cb)
                        sa = self.site_slots(&skey, cur, cc, cb, g1 - g0)
                    for k in range(g0, g1):
                        c = cand_chain[k]
                        if not self.allows(self.recs[cur].cat, self.rcat(self.recs[cur].last),
                                           self.chain_cats[self.chain_off[c]]):
                            continue
                        s = close_score
                        if sa >= 0 and self.sarr[sa + k - g0] >= 0:
                            self.add_stored(self.sarr[sa + k - g0], self.chain_off[c + 1] - self.chain_off[c], &s)
                        else:
                            self.score_chain(cur, c, i, &s, &skey, cc, cb, &off)
                            if sa >= 0:
                                self.sarr[sa + k - g0] = off
                        gold_flag = (has_gold and self.h_gold[hb] and site == gold_site[i]
                                     and c == gold_chain[i])
                        self.add_cand(s, hb, site, c, gold_flag)
                    if site == 0:
                        break
                    if not self.allows(self.recs[cur].cat, self.rcat(self.recs[cur].last), ENDC):
                        break
                    cur = self.close_top(cur, i, pos, &close_score)
                self.n_recs = mark
                g0 = g1
        return 0

    def decode(self, const int64_t[::1] words, const int32_t[::1] next_pos, int isq, int punct,
               const int32_t[::1] cand_off, const int32_t[::1] cand_chain, const double[::1] weights,
               double gamma, int cap, const int32_t[::1] gold_site, const int32_t[::1] gold_chain,
               bint early, int nbest, const uint64_t[::1] nonzero=None):
        """Beam-search one sentence.

        ``cand_off``/``cand_chain``: candidate chain ids of word i are
        ``cand_chain[cand_off[i]:cand_off[i+1]]``, grouped by POS (the chain's last category).
        ``gold_site``/``gold_chain`` (length n, or empty) mark gold-consistent hypotheses; with
        ``early`` the search stops after the first word whose beam holds no gold-consistent member.
        ``nonzero`` (optional): bit f (word f >> 6, bit f & 63) set when ``weights[f]`` is not +0.0;
        a feature whose bit is clear is not read (the same score: see the module docstring).

        Returns a dict: ``status`` ("complete", "early" or "failed"), ``word`` (index of the word at
        which it stopped, n for complete), ``beam``: list of (score, gold flag, sites, chains) for the
        members at the stop point, best first (for "complete": the closed full parses, at most
        ``nbest``, or all when nbest <= 0), ``gold_in_beam``.
        """
        cdef int n = words.shape[0]
        cdef int i, b, hb, h, cur, site, k, c, g0, g1, pos, mark, kept, nh, first_hyp
        cdef double close_score, s, best
        cdef bint has_gold = gold_site.shape[0] == n and n > 0
        cdef int gold_flag
        cdef list beam = []
        cdef list members
        cdef list prefix = []
        cdef double lse
        cdef Cand* cd
        cdef list track_start = []
        cdef list end_gen = []
        cdef list end_steps = []
        cdef const int32_t* c_off = &cand_off[0]
        cdef const int32_t* c_chain = &cand_chain[0] if cand_chain.shape[0] > 0 else NULL
        cdef const int32_t* g_site = &gold_site[0] if has_gold else NULL
        cdef const int32_t* g_chain = &gold_chain[0] if has_gold else NULL
        if n == 0:
            raise ValueError("empty sentence")
        if cand_off.shape[0] != n + 1:
            raise ValueError("cand_off must have one entry per word plus one")
        self.begin(words, next_pos, isq, punct, weights, nonzero)
        # word 0: one hypothesis per first chain
        self.n_cands = 0
        self.memo_scope(True)
        for k in range(cand_off[0], cand_off[1]):
            c = cand_chain[k]
            mark = self.n_recs
            s = 0.0
            self.attach(-1, c, 0, &s)
            self.n_recs = mark
            gold_flag = has_gold and c == gold_chain[0]
            self.add_cand(s, -1, -1, c, gold_flag)
        for i in range(n):
            if i > 0:
                first_hyp = beam[0]  # the beam's members are consecutive hypotheses (rebuilt below)
                kept = len(beam)
                with nogil:  # the word's candidates: most of the work, on C data only
                    self.adv(i, first_hyp, kept, c_off, c_chain, has_gold, g_site, g_chain)
            self.memo_on = False
            self.n_candidates += self.n_cands
            if self.n_cands == 0:
                return self._tracked({"status": "failed", "word": i, "beam": self._members(beam, nbest),
                                      "gold_in_beam": False, "prefix": prefix}, track_start, None, None, None)
            # FILTER (only the first ``cap`` of the order can survive: select them, then sort those)
            if i == n - 1 and self.last_cap >= 0:  # set_last_filter: the last word's own FILTER
                gamma = self.last_gamma
                cap = self.last_cap
            sort_first(self.cands, self.n_cands, cap)
            best = self.cands[0].score
            kept = filter_kept(self.cands, self.n_cands, gamma, cap)
            self.n_beam += kept
            lse = 0.0
            for k in range(kept):
                lse += exp(self.cands[k].score - best)
            prefix.append(best + log(lse) if best > -INFINITY else best)
            # rebuild survivors permanently (their scores are in the candidates: build without scoring)
            beam = []
            gold_flag = 0
            self.quiet = not self.track  # tracking: score the survivors again for their generative parts
            if self.track:
                track_start.append(self.n_hyps)
            for k in range(kept):
                cd = &self.cands[k]
                nh = self.new_hyp()
                self.h_parent[nh] = cd.hyp
                self.h_site[nh] = cd.site
                self.h_chain[nh] = cd.chain
                self.h_score[nh] = cd.score
                self.h_gold[nh] = cd.gold
                gold_flag |= cd.gold
                s = 0.0
                self.acc_gen = 0.0
                self.acc_nodes = 0
                if cd.hyp < 0:
                    cur = self.attach(-1, cd.chain, 0, &s)
                else:
                    cur = self.h_rec[cd.hyp]
                    pos = self.chain_cats[self.chain_off[cd.chain + 1] - 1]
                    while self.recs[cur].depth > cd.site:
                        cur = self.close_top(cur, i, pos, &s)
                    cur = self.attach(cur, cd.chain, i, &s)
                self.h_rec[nh] = cur
                if self.track:
                    self.track_store(nh, cd.hyp, self.recs[cur].depth)
                beam.append(nh)
            self.quiet = False
            if early and has_gold and not gold_flag:
                return self._tracked({"status": "early", "word": i, "beam": self._members(beam, 0),
                                      "gold_in_beam": False, "prefix": prefix}, track_start, None, None, None)
        # end of sentence: close everything (tracking needs each closure's generative parts: no memo)
        self.n_cands = 0
        self.memo_scope(not self.track)
        for b in range(len(beam)):
            hb = beam[b]
            cur = self.h_rec[hb]
            s = self.h_score[hb]
            self.acc_gen = 0.0
            self.acc_nodes = 0
            while True:
                if not self.allows(self.recs[cur].cat, self.rcat(self.recs[cur].last), ENDC):
                    break
                cur = self.close_top(cur, -1, 0, &s)
                if cur < 0:
                    break
            if cur < 0:
                self.add_cand(s, hb, 0, 0, self.h_gold[hb])
                if self.track:
                    end_gen.append(self.t_gen[hb] + self.acc_gen)
                    end_steps.append(self.acc_nodes)
        self.memo_on = False
        if self.n_cands == 0:
            return self._tracked({"status": "failed", "word": n, "beam": self._members(beam, nbest),
                                  "gold_in_beam": False, "prefix": prefix}, track_start, None, None, None)
        qsort(self.cands, self.n_cands, sizeof(Cand), cmp_cand)
        members = []
        gold_flag = 0
        for k in range(self.n_cands):
            gold_flag |= self.cands[k].gold
            if nbest <= 0 or k < nbest:
                sites, chains = self._steps(self.cands[k].hyp)
                members.append((self.cands[k].score, bool(self.cands[k].gold), sites, chains))
        return self._tracked({"status": "complete", "word": n, "beam": members, "gold_in_beam": bool(gold_flag),
                              "prefix": prefix}, track_start, end_gen, end_steps, True)

    # -- per-hypothesis measures (glmnlp.parser.measures) -----------------------------------------
    def set_tracking(self, bint on):
        """Record, for every surviving hypothesis, what glmnlp.parser.measures needs (off by default).

        With tracking on, :meth:`decode` scores the survivors a second time while rebuilding them
        (instead of building them quietly) to split their generative log-probability, and its
        result gets a ``"track"`` dict (see :meth:`_tracked`). Needs a generative term
        (:meth:`set_generative`). Parses and scores are the same with tracking on or off.
        """
        self.track = on

    def set_memo(self, bint on):
        """Use the node and chain score memos while decoding (on by default; off: every node is scored).

        The memos change no score (see :meth:`node_features`); turning them off is for tests that
        check exactly that.
        """
        self.memo_off = not on

    def memo_slots(self):
        """(node memo slots, chain memo slots): their current capacities (statistics)."""
        return self.node_memo.cap, self.chain_memo.cap

    def set_unknown_by_pos(self, int n_classes):
        """Score word-model outcomes 1..n_classes (the unknown-word classes) given their POS alone (0: off).

        Off by default (every word is scored in its full context). glmnlp.parser.measures offers it
        as an option: the reference parser scores an unknown word by its class given the POS.
        """
        self.unk_classes = n_classes

    def set_last_filter(self, double gamma, int cap):
        """Use (gamma, cap) as the FILTER of the sentence's last word only (cap < 0: off, the default).

        glmnlp.parser.measures decodes a prefix followed by a placeholder word with every POS tag and
        keeps all of its one-word extensions this way.
        """
        self.last_gamma = gamma
        self.last_cap = cap

    cdef int track_store(self, int nh, int parent, int depth) except -1:
        """Store hypothesis nh's generative parts: parent's total + this word's nodes, its last word, steps, depth."""
        cdef int cap, j
        if nh >= self.cap_t:
            cap = max(2 * self.cap_t, nh + 1, 1 << 12)
            self.t_gen = <double*> realloc(self.t_gen, cap * sizeof(double))
            self.t_lex = <double*> realloc(self.t_lex, cap * sizeof(double))
            self.t_steps = <int32_t*> realloc(self.t_steps, cap * sizeof(int32_t))
            self.t_open = <int32_t*> realloc(self.t_open, cap * sizeof(int32_t))
            self.t_wctx = <int64_t*> realloc(self.t_wctx, 6 * cap * sizeof(int64_t))
            if (self.t_gen == NULL or self.t_lex == NULL or self.t_steps == NULL or self.t_open == NULL
                    or self.t_wctx == NULL):
                raise MemoryError()
            self.cap_t = cap
        self.t_gen[nh] = (self.t_gen[parent] if parent >= 0 else 0.0) + self.acc_gen
        self.t_lex[nh] = self.acc_lex
        self.t_steps[nh] = self.acc_nodes
        self.t_open[nh] = depth
        for j in range(6):
            self.t_wctx[6 * nh + j] = self.acc_wctx[j]
        return 0

    cdef dict _tracked(self, dict result, list starts, list end_gen, list end_steps, object complete):
        """Add the ``"track"`` arrays to a decode result when tracking is on.

        ``word_start[i]``..``word_start[i+1]``: the hypotheses of the beam after word i (best first),
        indices into ``parent`` (index of the hypothesis it extends, -1 for word 0), ``score`` (the
        ranking score), ``gen`` (unweighted ln P of the derivation so far), ``lex`` (ln P of the last
        word given its POS node), ``steps`` (nodes built for this word: END closures and chain nodes,
        the root included for word 0), ``open`` (open constituents below the root after the word),
        ``wctx`` (the word-model context of the last POS node, POS first). For a complete sentence:
        ``end_hyp``/``end_score``/``end_gen``/``end_steps`` of the closed parses, best first.
        """
        cdef int n_h = self.n_hyps, k, j
        if not self.track:
            return result
        starts = list(starts) + [n_h]
        parent = np.array([self.h_parent[k] for k in range(n_h)], dtype=np.int32)
        score = np.array([self.h_score[k] for k in range(n_h)], dtype=np.float64)
        gen = np.array([self.t_gen[k] for k in range(n_h)], dtype=np.float64)
        lex = np.array([self.t_lex[k] for k in range(n_h)], dtype=np.float64)
        steps = np.array([self.t_steps[k] for k in range(n_h)], dtype=np.int32)
        opened = np.array([self.t_open[k] for k in range(n_h)], dtype=np.int32)
        wctx = np.array([self.t_wctx[k] for k in range(6 * n_h)], dtype=np.int64).reshape(n_h, 6)
        track = {"word_start": np.array(starts, dtype=np.int64), "parent": parent, "score": score, "gen": gen,
                 "lex": lex, "steps": steps, "open": opened, "wctx": wctx}
        if complete:
            order = [self.cands[k].order for k in range(self.n_cands)]
            track["end_hyp"] = np.array([self.cands[k].hyp for k in range(self.n_cands)], dtype=np.int32)
            track["end_score"] = np.array([self.cands[k].score for k in range(self.n_cands)], dtype=np.float64)
            track["end_gen"] = np.array([end_gen[j] for j in order], dtype=np.float64)
            track["end_steps"] = np.array([end_steps[j] for j in order], dtype=np.int32)
        result["track"] = track
        return result

    cdef list _members(self, list beam, int nbest):
        cdef list out = []
        cdef int k, h
        for k in range(len(beam)):
            if nbest > 0 and k >= nbest:
                break
            h = beam[k]
            sites, chains = self._steps(h)
            out.append((self.h_score[h], bool(self.h_gold[h]), sites, chains))
        return out

    cdef tuple _steps(self, int h):
        cdef list sites = []
        cdef list chains = []
        while h >= 0:
            sites.append(self.h_site[h])
            chains.append(self.h_chain[h])
            h = self.h_parent[h]
        sites.reverse()
        chains.reverse()
        return np.array(sites, dtype=np.int32), np.array(chains, dtype=np.int32)
