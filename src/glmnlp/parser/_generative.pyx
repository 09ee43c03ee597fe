# cython: language_level=3
"""Scoring kernel and hashing primitives of the generative derivation model (glmnlp.parser.generative).

The frozen model is two open-addressing hash tables with linear probing (power-of-two capacity,
key 0 = empty slot, key and value interleaved so that a hit costs one cache line):

* histories: key = hash of (model, c_1..c_j), value B(h_j) = sum_{i=1..j} ln(1 - lambda(h_i)),
  the log of the mass that the interpolation passes down from level j to level 0;
* pairs: key = hash of ((model, c_1..c_j), y), value ln P~_j(y) - B(h_j), where P~_j(y) is
  the smoothed probability at the level where the pair was seen in training.

Counts are nested (a pair seen at level j is seen at every level below it, a history seen at
level j has all its prefixes seen), so with d = the deepest seen history of the context and
j <= d the deepest level where (h_j, y) was seen,

    ln P~(y | c_1..c_d) = B(h_d) - B(h_j) + ln P~_j(y),

because every level above j contributes only its (1 - lambda) factor. If y was never seen with
the model at all, the uniform floor ln((1 - lambda_0) / (V - 1)) replaces ln P~_j(y) - B(h_j).
Because both "history seen at level j" and "pair seen at level j" are monotone in j, d and j
are found by binary search (after an optimistic probe of the deepest level, which settles
most calls on gold-like events): about 2 log2(n) probes per call instead of 2n.
Histories are identified by 64-bit hashes (splitmix64 mixing); two distinct keys collide with
probability about n^2 / 2^65 (below 1e-5 for 10^7 keys), which we accept.

The same hash functions are exported to Python (history_hashes, pair_hashes) so that training
and scoring can never disagree on a key. For that the module is one compilation unit of over 600 lines:
training's counting (count_entries, entry_indices) and scoring's probes call the same hash functions as C
functions of one file, which the compiler inlines; a counting module of its own would reach them through
Cython's cross-module function pointers, which it cannot.
"""

import numpy as np
cimport numpy as cnp
from libc.math cimport INFINITY
from libc.stdint cimport int32_t, int64_t, uint8_t, uint64_t
from cpython.mem cimport PyMem_RawCalloc, PyMem_RawFree, PyMem_RawMalloc, PyMem_RawRealloc
from libc.string cimport memcpy

cnp.import_array()


cdef inline uint64_t _mix(uint64_t x) noexcept nogil:
    x ^= x >> 30
    x *= <uint64_t>0xBF58476D1CE4E5B9ULL
    x ^= x >> 27
    x *= <uint64_t>0x94D049BB133111EBULL
    x ^= x >> 31
    return x


cdef inline uint64_t _nonzero(uint64_t x) noexcept nogil:
    return x if x != 0 else <uint64_t>1


cdef uint64_t gen_mix64(uint64_t x) noexcept nogil:
    """The splitmix64 finaliser (a bijection on 64-bit words)."""
    return _mix(x)


cdef uint64_t gen_root_hash(int64_t model) noexcept nogil:
    """Hash of the empty history (level 0) of ``model``."""
    return _nonzero(_mix(<uint64_t>model ^ <uint64_t>0x9E3779B97F4A7C15ULL))


cdef uint64_t gen_next_hash(uint64_t history, int64_t value, int64_t level) noexcept nogil:
    """Hash of the history extended by ``value`` as its ``level``-th element."""
    cdef uint64_t v = _mix(<uint64_t>value * <uint64_t>0xC2B2AE3D27D4EB4FULL + <uint64_t>level)
    return _nonzero(_mix(history ^ v))


cdef uint64_t gen_pair_hash(uint64_t history, int64_t outcome) noexcept nogil:
    """Hash of the (history, outcome) pair."""
    cdef uint64_t v = _mix(<uint64_t>outcome + <uint64_t>0x165667B19E3779F9ULL)
    return _nonzero(_mix(_mix(history + <uint64_t>0xD6E8FEB86659FD93ULL) ^ v))


cdef inline const GenSlot* _probe(const GenSlot* slots, uint64_t mask, uint64_t key) noexcept nogil:
    cdef uint64_t i = key & mask
    cdef uint64_t k
    while True:
        k = slots[i].key
        if k == key:
            return &slots[i]
        if k == 0:
            return NULL
        i = (i + 1) & mask


cdef void gen_history(const GenTables* t, int model, const int64_t* context, int n,
                      GenHistory* out) noexcept nogil:
    """The context part of ln P~(. | context[0..n-1]): prefix hashes, deepest seen level d and B(h_d)."""
    cdef const GenSlot* slot
    cdef uint64_t h
    cdef int j, lo, hi, mid
    out.status = 0
    if model < 0 or model >= t.n_models:
        out.status = -1
        return
    if n > t.context_length[model]:
        n = <int>t.context_length[model]
    if n < 0:
        n = 0
    h = gen_root_hash(model)
    out.hashes[0] = h
    for j in range(1, n + 1):
        h = gen_next_hash(h, context[j - 1], j)
        out.hashes[j] = h
    # d = deepest seen history level (histories seen at levels 0..d)
    slot = _probe(t.hist, t.hist_mask, out.hashes[n])
    if slot != NULL:
        out.d = n
        out.deep_backoff = slot.value
        return
    if n == 0 or _probe(t.hist, t.hist_mask, out.hashes[0]) == NULL:
        out.status = 1      # a model without training events: uniform
        return
    lo = 0
    hi = n
    out.deep_backoff = 0.0
    while hi - lo > 1:
        mid = (lo + hi) >> 1
        slot = _probe(t.hist, t.hist_mask, out.hashes[mid])
        if slot != NULL:
            lo = mid
            out.deep_backoff = slot.value
        else:
            hi = mid
    out.d = lo


cdef double gen_outcome(const GenTables* t, int model, int64_t outcome, const GenHistory* h) noexcept nogil:
    """ln P~(outcome | the context of ``h``), ``h`` from :func:`gen_history` for the same ``model``."""
    cdef const GenSlot* slot
    cdef int lo, hi, mid, d
    cdef double pair_value
    if h.status < 0:
        return -INFINITY
    if outcome <= 0 or outcome >= t.n_outcomes[model]:
        return -INFINITY
    if h.status > 0:
        return t.floor_logprob[model]
    d = h.d
    # deepest level j <= d at which (h_j, outcome) was seen (-1 = never seen with this model)
    slot = _probe(t.pair, t.pair_mask, gen_pair_hash(h.hashes[d], outcome))
    if slot != NULL:
        return h.deep_backoff + slot.value
    lo = -1
    hi = d
    pair_value = 0.0
    while hi - lo > 1:
        mid = (lo + hi) >> 1
        slot = _probe(t.pair, t.pair_mask, gen_pair_hash(h.hashes[mid], outcome))
        if slot != NULL:
            lo = mid
            pair_value = slot.value
        else:
            hi = mid
    if lo < 0:
        return h.deep_backoff + t.floor_logprob[model]
    return h.deep_backoff + pair_value


cdef double gen_logprob(const GenTables* t, int model, int64_t outcome,
                        const int64_t* context, int n) noexcept nogil:
    """ln P~(outcome | context[0..n-1]) for ``model``; -inf for an invalid model or outcome id."""
    cdef GenHistory h
    if model < 0 or model >= t.n_models:
        return -INFINITY
    if outcome <= 0 or outcome >= t.n_outcomes[model]:
        return -INFINITY
    gen_history(t, model, context, n, &h)
    return gen_outcome(t, model, outcome, &h)


# -- Python-visible helpers (training and tests) ---------------------------------------------

def history_hashes(const int64_t[::1] models, const int64_t[:, ::1] contexts):
    """hashes[e, j] = hash of (models[e], contexts[e, 0..j-1]) for j = 0..contexts.shape[1]."""
    cdef Py_ssize_t n_events = contexts.shape[0], width = contexts.shape[1]
    cdef Py_ssize_t e, j
    cdef uint64_t h
    out = np.empty((n_events, width + 1), dtype=np.uint64)
    cdef uint64_t[:, ::1] o = out
    if models.shape[0] != n_events:
        raise ValueError("models and contexts differ in length")
    with nogil:
        for e in range(n_events):
            h = gen_root_hash(models[e])
            o[e, 0] = h
            for j in range(width):
                h = gen_next_hash(h, contexts[e, j], j + 1)
                o[e, j + 1] = h
    return out


def pair_hashes(const uint64_t[::1] histories, const int64_t[::1] outcomes):
    """hash of (histories[i], outcomes[i]) for every i."""
    cdef Py_ssize_t i, n = histories.shape[0]
    if outcomes.shape[0] != n:
        raise ValueError("histories and outcomes differ in length")
    out = np.empty(n, dtype=np.uint64)
    cdef uint64_t[::1] o = out
    with nogil:
        for i in range(n):
            o[i] = gen_pair_hash(histories[i], outcomes[i])
    return out


def em_sums(const double[:, ::1] p_hat, const uint8_t[:, ::1] seen, const int64_t[:, ::1] buckets,
            const double[::1] uniform, const double[::1] lam, double[::1] total, double[::1] num_b,
            double[::1] den_b):
    """One EM iteration of :func:`glmnlp.parser.generative_training.em_lambdas` in one pass over the events.

    Writes each event's interpolated probability to ``total`` and the expected counts "stopped at a
    level of bucket b" / "reached a level of bucket b" to ``num_b`` / ``den_b``. Every number is
    the one the former numpy expression computed: the same operations per element in the same
    order (``(l * p) + ((1 - l) * q)``, ``((l * p) * above) / total``, ``(above * level) / total``),
    and the bucket sums taken event by event, level by level, as ``np.bincount`` adds its weights.
    So the lambdas, and every model trained with them, are the same bits; only the (events x levels)
    temporaries of the numpy version are gone.
    """
    cdef Py_ssize_t n = p_hat.shape[0], L = p_hat.shape[1], nb = lam.shape[0], e, j
    cdef double lv[64]
    cdef double lev[64]
    cdef double numer[64]
    cdef double denom[64]
    cdef double cur, above, t, l
    cdef int64_t b
    if L > 64:
        raise ValueError(f"at most 64 levels, got {L}")
    if (seen.shape[0] != n or seen.shape[1] != L or buckets.shape[0] != n or buckets.shape[1] != L
            or uniform.shape[0] != n or total.shape[0] != n or num_b.shape[0] != nb or den_b.shape[0] != nb):
        raise ValueError("em_sums: array shapes disagree")
    for e in range(n):
        for j in range(L):
            if seen[e, j] and not (0 <= buckets[e, j] < nb):
                raise ValueError(f"bucket {buckets[e, j]} out of range 0..{nb - 1}")
    with nogil:
        for b in range(nb):
            num_b[b] = 0.0
            den_b[b] = 0.0
        for e in range(n):
            cur = uniform[e]
            for j in range(L):
                l = lam[buckets[e, j]] if seen[e, j] else 0.0
                lv[j] = l
                cur = l * p_hat[e, j] + (1.0 - l) * cur
                lev[j] = cur
            t = cur
            total[e] = t
            above = 1.0
            for j in range(L - 1, -1, -1):
                numer[j] = lv[j] * p_hat[e, j] * above / t
                denom[j] = above * lev[j] / t
                above = above * (1.0 - lv[j])
            for j in range(L):
                if seen[e, j]:
                    b = buckets[e, j]
                    num_b[b] += numer[j]
                    den_b[b] += denom[j]


def build_table(const uint64_t[::1] keys, const double[::1] values, Py_ssize_t capacity):
    """Open-addressing table of the (distinct, non-zero) ``keys``; capacity must be a power of two."""
    cdef Py_ssize_t i, n = keys.shape[0]
    cdef uint64_t mask, slot, key
    if capacity <= n or capacity & (capacity - 1):
        raise ValueError("capacity must be a power of two larger than the number of keys")
    if values.shape[0] != n:
        raise ValueError("keys and values differ in length")
    table_keys = np.zeros(capacity, dtype=np.uint64)
    table_values = np.zeros(capacity, dtype=np.float64)
    cdef uint64_t[::1] tk = table_keys
    cdef double[::1] tv = table_values
    mask = <uint64_t>(capacity - 1)
    for i in range(n):
        key = keys[i]
        if key == 0:
            raise ValueError("key 0 is reserved for empty slots")
        slot = key & mask
        while tk[slot] != 0:
            if tk[slot] == key:
                raise ValueError("duplicate key in build_table")
            slot = (slot + 1) & mask
        tk[slot] = key
        tv[slot] = values[i]
    return table_keys, table_values


# -- training: distinct histories and pairs, counted without per-entry arrays -----------------


cdef class KeyIndex:
    """Open-addressing map from non-zero 64-bit keys to int64 indices, growing by doubling (load <= 1/2).

    Training counts its distinct histories and (history, outcome) pairs with two of these instead of
    sorting one hash per (event, level) entry: memory grows with the distinct keys, not the entries.
    Memory comes from PyMem_Raw*, so tracemalloc sees it.
    """

    cdef uint64_t* keys
    cdef int64_t* vals
    cdef uint64_t mask
    cdef readonly Py_ssize_t size

    def __cinit__(self, Py_ssize_t capacity=1024):
        cdef uint64_t cap = 16
        while cap < <uint64_t>capacity:
            cap <<= 1
        self.keys = <uint64_t*>PyMem_RawCalloc(cap, sizeof(uint64_t))
        self.vals = <int64_t*>PyMem_RawMalloc(cap * sizeof(int64_t))
        if self.keys == NULL or self.vals == NULL:
            raise MemoryError()
        self.mask = cap - 1
        self.size = 0

    def __dealloc__(self):
        PyMem_RawFree(self.keys)
        PyMem_RawFree(self.vals)

    cdef int _grow(self) except -1:
        cdef uint64_t cap = (self.mask + 1) << 1, i, slot
        cdef uint64_t* keys = <uint64_t*>PyMem_RawCalloc(cap, sizeof(uint64_t))
        cdef int64_t* vals = <int64_t*>PyMem_RawMalloc(cap * sizeof(int64_t))
        if keys == NULL or vals == NULL:
            PyMem_RawFree(keys)
            PyMem_RawFree(vals)
            raise MemoryError()
        for i in range(self.mask + 1):
            if self.keys[i] != 0:
                slot = self.keys[i] & (cap - 1)
                while keys[slot] != 0:
                    slot = (slot + 1) & (cap - 1)
                keys[slot] = self.keys[i]
                vals[slot] = self.vals[i]
        PyMem_RawFree(self.keys)
        PyMem_RawFree(self.vals)
        self.keys = keys
        self.vals = vals
        self.mask = cap - 1
        return 0

    cdef int64_t find_or_add(self, uint64_t key, int64_t value, bint* added) except -2:
        """The index of ``key``; an absent key is added with ``value`` (and ``added`` set)."""
        cdef uint64_t i
        if <uint64_t>(self.size + 1) * 2 > self.mask + 1:
            self._grow()
        i = key & self.mask
        while True:
            if self.keys[i] == key:
                added[0] = False
                return self.vals[i]
            if self.keys[i] == 0:
                self.keys[i] = key
                self.vals[i] = value
                self.size += 1
                added[0] = True
                return value
            i = (i + 1) & self.mask

    cdef int64_t find(self, uint64_t key) noexcept nogil:
        """The index of ``key``, -1 if absent."""
        cdef uint64_t i = key & self.mask
        while True:
            if self.keys[i] == key:
                return self.vals[i]
            if self.keys[i] == 0:
                return -1
            i = (i + 1) & self.mask

    def remap(self, const int64_t[::1] new_of_old):
        """Replace every stored index v by new_of_old[v]."""
        cdef uint64_t i
        for i in range(self.mask + 1):
            if self.keys[i] != 0:
                self.vals[i] = new_of_old[self.vals[i]]

    @property
    def nbytes(self):
        return (self.mask + 1) * (sizeof(uint64_t) + sizeof(int64_t))


cdef int _reserve(void** arrays, size_t* sizes, int n, Py_ssize_t* capacity, Py_ssize_t need) except -1:
    """Grow the ``n`` parallel C arrays (item sizes ``sizes``) to hold at least ``need`` items."""
    cdef Py_ssize_t cap = capacity[0]
    cdef int a
    cdef void* grown
    if need <= cap:
        return 0
    while cap < need:
        cap = cap * 2 if cap else 1024
    for a in range(n):
        grown = PyMem_RawRealloc(arrays[a], cap * sizes[a])
        if grown == NULL:
            raise MemoryError()
        arrays[a] = grown
    capacity[0] = cap
    return 0


cdef object _to_numpy(void* data, Py_ssize_t n, object dtype):
    out = np.empty(n, dtype=dtype)
    cdef cnp.ndarray arr = out
    if n:
        memcpy(cnp.PyArray_DATA(arr), data, n * arr.itemsize)
    return out


def count_entries(const int32_t[::1] models, const int32_t[::1] outcomes, const int32_t[::1] depths,
                  const int64_t[:, ::1] contexts, const int64_t[::1] order, KeyIndex hist_index,
                  KeyIndex pair_index):
    """Distinct histories and pairs of the events, in order of first occurrence, with their counts.

    Events are visited in the order ``order`` (positions into the event arrays), each at levels
    0..depths[e]; the history of level j is the hash of (model, contexts[e, :j]) (:func:`history_hashes`)
    and its pair the hash with the outcome (:func:`pair_hashes`). The two (empty) maps receive
    key -> index in first-occurrence order. Returns two dicts of 1-D arrays in that order:
    histories (keys, count, model, level, parent = the index of the level j-1 history of the event
    where the key first occurred, -1 at level 0) and pairs (keys, count, hist, parent, outcome).
    """
    cdef Py_ssize_t n = order.shape[0], k, e, width = contexts.shape[1]
    cdef Py_ssize_t nh = 0, np_ = 0, cap_h = 0, cap_p = 0
    cdef int j, depth
    cdef uint64_t h, pk
    cdef int64_t hi, pi, prev_h, prev_p
    cdef bint added
    cdef void* harr[5]
    cdef size_t hsize[5]
    cdef void* parr[5]
    cdef size_t psize[5]
    if models.shape[0] != contexts.shape[0] or outcomes.shape[0] != contexts.shape[0] \
            or depths.shape[0] != contexts.shape[0]:
        raise ValueError("models, outcomes, depths and contexts differ in length")
    if hist_index.size or pair_index.size:
        raise ValueError("count_entries needs empty key maps")
    for k in range(5):
        harr[k] = NULL
        parr[k] = NULL
    hsize[0] = sizeof(uint64_t); hsize[1] = sizeof(int64_t); hsize[2] = sizeof(int64_t)
    hsize[3] = sizeof(int64_t); hsize[4] = sizeof(int64_t)
    psize[0] = sizeof(uint64_t); psize[1] = sizeof(int64_t); psize[2] = sizeof(int64_t)
    psize[3] = sizeof(int64_t); psize[4] = sizeof(int64_t)
    try:
        for k in range(n):
            e = order[k]
            if e < 0 or e >= contexts.shape[0]:
                raise ValueError("order holds a position outside the events")
            depth = depths[e]
            if depth < 0 or depth > width:
                raise ValueError("depth outside [0, context width]")
            h = gen_root_hash(models[e])
            prev_h = -1
            prev_p = -1
            for j in range(depth + 1):
                if j > 0:
                    h = gen_next_hash(h, contexts[e, j - 1], j)
                hi = hist_index.find_or_add(h, nh, &added)
                if added:
                    _reserve(harr, hsize, 5, &cap_h, nh + 1)
                    (<uint64_t*>harr[0])[nh] = h
                    (<int64_t*>harr[1])[nh] = 0
                    (<int64_t*>harr[2])[nh] = models[e]
                    (<int64_t*>harr[3])[nh] = j
                    (<int64_t*>harr[4])[nh] = prev_h
                    nh += 1
                (<int64_t*>harr[1])[hi] += 1
                pk = gen_pair_hash(h, outcomes[e])
                pi = pair_index.find_or_add(pk, np_, &added)
                if added:
                    _reserve(parr, psize, 5, &cap_p, np_ + 1)
                    (<uint64_t*>parr[0])[np_] = pk
                    (<int64_t*>parr[1])[np_] = 0
                    (<int64_t*>parr[2])[np_] = hi
                    (<int64_t*>parr[3])[np_] = prev_p
                    (<int64_t*>parr[4])[np_] = outcomes[e]
                    np_ += 1
                (<int64_t*>parr[1])[pi] += 1
                prev_h = hi
                prev_p = pi
        # one array at a time: each C array is freed as soon as it is copied
        hist = {}
        for k, (name, dt) in enumerate((("keys", np.uint64), ("count", np.int64), ("model", np.int64),
                                         ("level", np.int64), ("parent", np.int64))):
            hist[name] = _to_numpy(harr[k], nh, dt)
            PyMem_RawFree(harr[k])
            harr[k] = NULL
        pair = {}
        for k, (name, dt) in enumerate((("keys", np.uint64), ("count", np.int64), ("hist", np.int64),
                                         ("parent", np.int64), ("outcome", np.int64))):
            pair[name] = _to_numpy(parr[k], np_, dt)
            PyMem_RawFree(parr[k])
            parr[k] = NULL
    finally:
        for k in range(5):
            PyMem_RawFree(harr[k])
            PyMem_RawFree(parr[k])
    return hist, pair


def entry_indices(KeyIndex hist_index, KeyIndex pair_index, const int32_t[::1] models,
                  const int32_t[::1] outcomes, const int32_t[::1] depths, const int64_t[:, ::1] contexts,
                  const int64_t[::1] events):
    """hist[r, j] / pair[r, j]: the indices the maps give the level-j history / pair of event events[r]
    (-1 for levels above its depth or keys the maps do not hold); shape (len(events), width + 1)."""
    cdef Py_ssize_t n = events.shape[0], r, e, width = contexts.shape[1]
    cdef int j, depth
    cdef uint64_t h
    hist = np.full((n, width + 1), -1, dtype=np.int64)
    pair = np.full((n, width + 1), -1, dtype=np.int64)
    cdef int64_t[:, ::1] ho = hist
    cdef int64_t[:, ::1] po = pair
    for r in range(n):
        e = events[r]
        if e < 0 or e >= contexts.shape[0]:
            raise ValueError("events holds a position outside the event arrays")
        depth = depths[e]
        if depth < 0 or depth > width:
            raise ValueError("depth outside [0, context width]")
        h = gen_root_hash(models[e])
        for j in range(depth + 1):
            if j > 0:
                h = gen_next_hash(h, contexts[e, j - 1], j)
            ho[r, j] = hist_index.find(h)
            po[r, j] = pair_index.find(gen_pair_hash(h, outcomes[e]))
    return hist, pair


def _interleave(name, keys, values):
    """One uint64 array [key0, bits(value0), key1, ...] laid out as GenSlot records."""
    keys = np.ascontiguousarray(keys, dtype=np.uint64)
    values = np.ascontiguousarray(values, dtype=np.float64)
    size = keys.shape[0]
    if keys.ndim != 1 or size < 2 or size & (size - 1) or values.shape != keys.shape:
        raise ValueError(f"{name} table must be two 1-D arrays of one power-of-two length")
    if np.count_nonzero(keys) >= size:
        raise ValueError(f"{name} table has no empty slot")
    out = np.empty(2 * size, dtype=np.uint64)
    out[0::2] = keys
    out[1::2] = values.view(np.uint64)
    return out


cdef class GenerativeKernel:
    """Owns the frozen tables of a trained model and scores events (see the module docstring)."""

    def __init__(self, cnp.ndarray hist_keys, cnp.ndarray hist_vals, cnp.ndarray pair_keys,
                 cnp.ndarray pair_vals, cnp.ndarray floor_logprob, cnp.ndarray context_length,
                 cnp.ndarray n_outcomes):
        self._hist = _interleave("history", hist_keys, hist_vals)
        self._pair = _interleave("pair", pair_keys, pair_vals)
        self._floor = np.ascontiguousarray(floor_logprob, dtype=np.float64)
        self._context_length = np.ascontiguousarray(context_length, dtype=np.int64)
        self._n_outcomes = np.ascontiguousarray(n_outcomes, dtype=np.int64)
        n_models = self._floor.shape[0]
        if (self._floor.ndim != 1 or n_models < 1 or self._context_length.shape != (n_models,)
                or self._n_outcomes.shape != (n_models,)):
            raise ValueError("per-model arrays must be 1-D with one entry per model")
        if np.any(self._context_length < 0) or np.any(self._context_length > GEN_MAX_CONTEXT):
            raise ValueError(f"context lengths must lie in [0, {GEN_MAX_CONTEXT}]")
        cdef const uint64_t[::1] hs = self._hist
        cdef const uint64_t[::1] ps = self._pair
        cdef const double[::1] fl = self._floor
        cdef const int64_t[::1] cl = self._context_length
        cdef const int64_t[::1] no = self._n_outcomes
        self.tables.hist = <const GenSlot*>&hs[0]
        self.tables.hist_mask = <uint64_t>(hs.shape[0] // 2 - 1)
        self.tables.pair = <const GenSlot*>&ps[0]
        self.tables.pair_mask = <uint64_t>(ps.shape[0] // 2 - 1)
        self.tables.floor_logprob = &fl[0]
        self.tables.context_length = &cl[0]
        self.tables.n_outcomes = &no[0]
        self.tables.n_models = <int>n_models

    cdef double logprob_c(self, int model, int64_t outcome, const int64_t* context, int n) noexcept nogil:
        return gen_logprob(&self.tables, model, outcome, context, n)

    def table_views(self):
        """Read-only (keys, values) views of the history and pair tables the kernel reads (no copy):
        ``hist_keys, hist_vals, pair_keys, pair_vals``."""
        out = []
        for slots in (self._hist, self._pair):
            keys = slots[0::2]
            values = slots[1::2].view(np.float64)
            keys.flags.writeable = False
            values.flags.writeable = False
            out += [keys, values]
        return tuple(out)

    def logprob(self, int model, int64_t outcome, const int64_t[::1] context):
        """ln P(outcome | context) (context may be a prefix of the conditioning sequence)."""
        cdef int n = <int>context.shape[0]
        if n == 0:
            return gen_logprob(&self.tables, model, outcome, NULL, 0)
        return gen_logprob(&self.tables, model, outcome, &context[0], n)

    def logprob_many(self, const int64_t[::1] models, const int64_t[::1] outcomes,
                     const int64_t[:, ::1] contexts, const int64_t[::1] lengths):
        """out[i] = ln P(outcomes[i] | contexts[i, :lengths[i]]) under models[i]."""
        cdef Py_ssize_t i, m = outcomes.shape[0]
        if models.shape[0] != m or contexts.shape[0] != m or lengths.shape[0] != m:
            raise ValueError("models, outcomes, contexts and lengths differ in length")
        if m and (np.min(lengths) < 0 or np.max(lengths) > contexts.shape[1]):
            raise ValueError("lengths must lie in [0, contexts.shape[1]]")
        out = np.empty(m, dtype=np.float64)
        cdef double[::1] o = out
        cdef const int64_t* row
        with nogil:
            for i in range(m):
                row = &contexts[i, 0] if contexts.shape[1] > 0 else NULL
                o[i] = gen_logprob(&self.tables, <int>models[i], outcomes[i], row, <int>lengths[i])
        return out
