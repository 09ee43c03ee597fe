# cython: language_level=3
"""C-level interface of the generative model's scoring kernel (see _generative.pyx, glmnlp.parser.generative).

The beam parser holds a :class:`GenerativeKernel` and calls, without the GIL::

    from glmnlp.parser._generative cimport GenerativeKernel, gen_logprob
    lp = gen_logprob(&kernel.tables, model, outcome, &context[0], n)

``context`` points to ``n`` int64 ids in the order of the model's conditioning sequence
(0 = NULL); ``n`` may be shorter than the model's context length (the prefix is then scored).
The result is ln P(outcome | context), or -inf for an outcome id outside [1, n_outcomes).

``gen_logprob`` is ``gen_history`` (hash the context, find its deepest seen level: the part that
depends on the context only) followed by ``gen_outcome`` (the outcome's pair lookups); a caller that
scores several outcomes in one context may call ``gen_history`` once and ``gen_outcome`` per
outcome, with bit-identical results.
"""

from libc.stdint cimport int64_t, uint64_t

# Longest conditioning sequence the kernel accepts (levels 0..MAX_CONTEXT).
cdef enum:
    GEN_MAX_CONTEXT = 62

cdef struct GenSlot:
    uint64_t key                 # hash of the entry (0 = empty slot)
    double value

cdef struct GenTables:
    const GenSlot* hist          # open-addressing table of history hashes;
                                 #   value = ln of the product of (1 - lambda) along the history's prefixes
    uint64_t hist_mask           # capacity - 1 (capacity is a power of two)
    const GenSlot* pair          # (history, outcome) hashes; value = ln P~_j(y) - B(h_j)
    uint64_t pair_mask
    const double* floor_logprob  # per model: ln((1 - lambda_0) / (n_outcomes - 1))
    const int64_t* context_length  # per model
    const int64_t* n_outcomes      # per model: outcome ids are 1 .. n_outcomes - 1
    int n_models

cdef struct GenHistory:
    uint64_t hashes[GEN_MAX_CONTEXT + 1]   # hashes of the context prefixes, levels 0..n
    int status                   # 0: d/deep_backoff valid; 1: model without events (uniform floor); -1: bad model
    int d                        # deepest seen history level
    double deep_backoff          # its B(h_d)

cdef uint64_t gen_mix64(uint64_t x) noexcept nogil
cdef uint64_t gen_root_hash(int64_t model) noexcept nogil
cdef uint64_t gen_next_hash(uint64_t history, int64_t value, int64_t level) noexcept nogil
cdef uint64_t gen_pair_hash(uint64_t history, int64_t outcome) noexcept nogil
cdef double gen_logprob(const GenTables* t, int model, int64_t outcome,
                        const int64_t* context, int n) noexcept nogil
cdef void gen_history(const GenTables* t, int model, const int64_t* context, int n,
                      GenHistory* out) noexcept nogil
cdef double gen_outcome(const GenTables* t, int model, int64_t outcome, const GenHistory* h) noexcept nogil

cdef class GenerativeKernel:
    cdef GenTables tables
    cdef object _hist, _pair, _floor, _context_length, _n_outcomes
    cdef double logprob_c(self, int model, int64_t outcome, const int64_t* context, int n) noexcept nogil
