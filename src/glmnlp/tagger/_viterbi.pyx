# cython: language_level=3
"""Exact second-order (trigram) Viterbi over tag-pair states, restricted to per-token candidates.

The trigram tagger of Collins (2002): π(k, u, v) = max_r π(k−1, r, u) + score(r, u, v, k), with start
tags at positions −1 and −2. The score of tag v at position k after tags (r, u) is

    emis[k, v] + W[bi0 + u, v] + W[tri0 + r*(T+1) + u, v]

where ``emis`` holds the precomputed tag-independent ("emission") feature scores and the two
weight rows are the tag-bigram and tag-trigram features; tag index T is the start symbol.
Each position only considers the tags allowed by ``mask[k]`` (the tag dictionary), and the search
is exact inside that space: cost Σ_k |C_{k−2}|·|C_{k−1}|·|C_k|.

Ties are broken towards the lower candidate index (lower tag id), so results are deterministic.
Only arrays and ints cross this boundary; the tagger resolves everything else in Python.
"""

from libc.stdlib cimport malloc, free
from libc.math cimport INFINITY

import numpy as np
cimport numpy as cnp

cnp.import_array()


cdef struct Lattice:
    int n
    int T
    int* cands      # (n + 2) * T, position p+2 for p in -2..n-1
    int* counts     # n + 2
    long long* off  # n + 1: offset of position p's pi block (|C_{p-1}| x |C_p|)
    double* pi
    int* bp


cdef int _build(Lattice* L, const unsigned char[:, ::1] mask, int T) except -1:
    cdef int n = mask.shape[0], p, t, c
    cdef long long total = 0
    L.n = n
    L.T = T
    L.cands = <int*> malloc(sizeof(int) * (n + 2) * T)
    L.counts = <int*> malloc(sizeof(int) * (n + 2))
    L.off = <long long*> malloc(sizeof(long long) * (n + 1))
    L.pi = NULL
    L.bp = NULL
    if L.cands == NULL or L.counts == NULL or L.off == NULL:
        raise MemoryError()
    for p in range(2):
        L.cands[p * T] = T  # start symbol
        L.counts[p] = 1
    for p in range(n):
        c = 0
        for t in range(T):
            if mask[p, t]:
                L.cands[(p + 2) * T + c] = t
                c += 1
        if c == 0:
            raise ValueError(f"position {p} has no candidate tag")
        L.counts[p + 2] = c
    for p in range(n):
        L.off[p] = total
        total += <long long> L.counts[p + 1] * L.counts[p + 2]
    L.off[n] = total
    L.pi = <double*> malloc(sizeof(double) * (total if total > 0 else 1))
    L.bp = <int*> malloc(sizeof(int) * (total if total > 0 else 1))
    if L.pi == NULL or L.bp == NULL:
        raise MemoryError()
    return 0


cdef void _free(Lattice* L) noexcept:
    free(L.cands)
    free(L.counts)
    free(L.off)
    free(L.pi)
    free(L.bp)


cdef inline double _pair_score(const double[:, ::1] W, const long long* pair, int J, int p, int u,
                               int v) noexcept nogil:
    cdef double s = 0.0
    cdef int j
    cdef long long base
    for j in range(J):
        base = pair[p * J + j]
        if base >= 0:
            s += W[base + u, v]
    return s


cdef void _forward(Lattice* L, const double[:, ::1] emis, const double[:, ::1] W,
                   long long bi0, long long tri0, const long long* pair, int J,
                   const double* trit) noexcept nogil:
    cdef int n = L.n, T = L.T, p, a, b, c, u, v, r
    cdef int K2, K1, K0
    cdef int* C2
    cdef int* C1
    cdef int* C0
    cdef double best, s, base
    cdef double* prev
    cdef double* cur
    cdef int* bpc
    cdef int argbest
    cdef const double* tv
    for p in range(n):
        C2 = L.cands + p * T
        C1 = L.cands + (p + 1) * T
        C0 = L.cands + (p + 2) * T
        K2 = L.counts[p]
        K1 = L.counts[p + 1]
        K0 = L.counts[p + 2]
        cur = L.pi + L.off[p]
        bpc = L.bp + L.off[p]
        prev = L.pi + L.off[p - 1] if p > 0 else NULL
        for a in range(K1):
            u = C1[a]
            for b in range(K0):
                v = C0[b]
                base = emis[p, v] + W[bi0 + u, v]
                if J > 0:
                    base = base + _pair_score(W, pair, J, p, u, v)
                best = -INFINITY
                argbest = 0
                if trit != NULL:  # trigram weights of (·, u, v) contiguous over r
                    tv = trit + (<long long> u * T + v) * (T + 1)
                    for c in range(K2):
                        s = tv[C2[c]]
                        if p > 0:
                            s = s + prev[c * K1 + a]
                        if s > best:
                            best = s
                            argbest = c
                else:
                    for c in range(K2):
                        r = C2[c]
                        s = W[tri0 + r * (T + 1) + u, v]
                        if p > 0:
                            s = s + prev[c * K1 + a]
                        if s > best:
                            best = s
                            argbest = c
                cur[a * K0 + b] = best + base
                bpc[a * K0 + b] = argbest


cdef const long long* _check_pair(object pair, int n, int T, long long n_rows, int* J) except? NULL:
    """Validate the optional (n, J) previous-tag feature rows; returns a pointer (NULL when J = 0)."""
    cdef const long long[:, ::1] view
    J[0] = 0
    if pair is None:
        return NULL
    view = pair
    if view.shape[0] != n:
        raise ValueError("pair rows must have one row per position")
    if view.shape[1] == 0 or n == 0:
        return NULL
    arr = np.asarray(view)
    if arr.max() + T + 1 > n_rows:
        raise ValueError("previous-tag feature rows outside the weight table")
    J[0] = view.shape[1]
    return &view[0, 0]


cdef double _viterbi_one(const double[:, ::1] emis, const double[:, ::1] W, long long bi0, long long tri0,
                         const unsigned char[:, ::1] mask, long long[::1] out, const long long* pr, int J,
                         const double* trit) except? -1.0:
    """Viterbi for one sentence (shapes already checked); fills ``out`` and returns the best score."""
    cdef Lattice L
    cdef int n = emis.shape[0], T = emis.shape[1], p, a, b, c, K1, K0
    cdef double best
    cdef int besta = 0, bestb = 0
    _build(&L, mask, T)
    try:
        with nogil:
            _forward(&L, emis, W, bi0, tri0, pr, J, trit)
        K1 = L.counts[n]
        K0 = L.counts[n + 1]
        best = -INFINITY
        for a in range(K1):
            for b in range(K0):
                if L.pi[L.off[n - 1] + a * K0 + b] > best:
                    best = L.pi[L.off[n - 1] + a * K0 + b]
                    besta = a
                    bestb = b
        # follow back-pointers: state (a, b) at position p, bp gives c at position p-2
        for p in range(n - 1, -1, -1):
            out[p] = L.cands[(p + 2) * T + bestb]
            c = L.bp[L.off[p] + besta * L.counts[p + 2] + bestb]
            bestb = besta
            besta = c
        return best
    finally:
        _free(&L)


cdef int _check_shapes(const double[:, ::1] emis, const double[:, ::1] W, long long bi0, long long tri0,
                       const unsigned char[:, ::1] mask, Py_ssize_t out_len) except -1:
    cdef Py_ssize_t n = emis.shape[0], T = emis.shape[1]
    if mask.shape[0] != n or mask.shape[1] != T or out_len != n or W.shape[1] != T:
        raise ValueError("inconsistent shapes")
    if bi0 < 0 or tri0 < 0 or tri0 + (T + 1) * (T + 1) > W.shape[0] or bi0 + T + 1 > W.shape[0]:
        raise ValueError("transition rows outside the weight table")
    return 0


def viterbi(const double[:, ::1] emis, const double[:, ::1] W, long long bi0, long long tri0,
            const unsigned char[:, ::1] mask, long long[::1] out, pair=None):
    """Best tag sequence into ``out`` (length n); returns its score.

    ``emis`` is (n, T); ``W`` is the (rows, T) weight table; ``mask`` (n, T) marks candidate tags.
    ``pair`` (optional, (n, J) int64) lists per position the first rows of blocks of T+1 rows
    (-1 = none): feature j of position p adds ``W[pair[p, j] + u, v]`` for previous tag u (T =
    start) and tag v, i.e. a feature conjoined with the tag bigram (t_{p-1}, t_p).
    """
    cdef int J = 0
    cdef const long long* pr
    cdef int n = emis.shape[0], T = emis.shape[1]
    if n == 0:
        return 0.0
    _check_shapes(emis, W, bi0, tri0, mask, out.shape[0])
    pr = _check_pair(pair, n, T, W.shape[0], &J)
    return _viterbi_one(emis, W, bi0, tri0, mask, out, pr, J, NULL)


def viterbi_batch(const double[:, ::1] emis, const double[:, ::1] W, long long bi0, long long tri0,
                  const unsigned char[:, ::1] mask, const long long[::1] offsets, long long[::1] out, pair=None):
    """:func:`viterbi` for many sentences in one call: sentence s is rows ``offsets[s]:offsets[s+1]``.

    Same arguments as :func:`viterbi` over the concatenated tokens, plus the (S + 1,) ``offsets``;
    saves the per-sentence Python overhead when tagging a batch.
    """
    cdef int J = 0
    cdef const long long* pr
    cdef Py_ssize_t s, a, b, n = emis.shape[0], T = emis.shape[1]
    _check_shapes(emis, W, bi0, tri0, mask, out.shape[0])
    if offsets.shape[0] < 1 or offsets[0] != 0 or offsets[offsets.shape[0] - 1] != n:
        raise ValueError("offsets must start at 0 and end at the number of tokens")
    for s in range(offsets.shape[0] - 1):
        if offsets[s + 1] < offsets[s]:
            raise ValueError("offsets must be non-decreasing")
    pr = _check_pair(pair, n, T, W.shape[0], &J)
    # the trigram rows transposed to (u, v, r), so the inner max over r reads contiguous memory;
    # built once per batch (a single sentence uses W directly: training changes W every call)
    cdef const double[::1] trit = np.ascontiguousarray(
        np.asarray(W)[tri0 : tri0 + (T + 1) * (T + 1)].reshape(T + 1, T + 1, T).transpose(1, 2, 0)
    ).reshape(-1)
    for s in range(offsets.shape[0] - 1):
        a = offsets[s]
        b = offsets[s + 1]
        if b > a:
            _viterbi_one(emis[a:b], W, bi0, tri0, mask[a:b], out[a:b], pr + a * J if J > 0 else NULL, J, &trit[0])


def max_marginals(const double[:, ::1] emis, const double[:, ::1] W, long long bi0, long long tri0,
                  const unsigned char[:, ::1] mask, double[:, ::1] out, pair=None):
    """out[p, v] = score of the best full sequence with tag v at position p (-inf if not a candidate).

    Forward Viterbi (π) plus a backward Viterbi (β, the best completion from a state to the end):
    max-marginal(p, v) = max over states (u, v) at p of π + β.
    """
    cdef Lattice L
    cdef int n = emis.shape[0], T = emis.shape[1], p, a, b, c, u, v, w, K1, K0, Kn
    cdef double* beta = NULL
    cdef double* bcur
    cdef double* bnext
    cdef double s, best
    cdef int* C1
    cdef int* C0
    cdef int* Cn
    cdef int J = 0
    cdef const long long* pr
    if n == 0:
        return
    if mask.shape[0] != n or mask.shape[1] != T or out.shape[0] != n or out.shape[1] != T or W.shape[1] != T:
        raise ValueError("inconsistent shapes")
    if tri0 + (T + 1) * (T + 1) > W.shape[0] or bi0 + T + 1 > W.shape[0]:
        raise ValueError("transition rows outside the weight table")
    pr = _check_pair(pair, n, T, W.shape[0], &J)
    _build(&L, mask, T)
    try:
        beta = <double*> malloc(sizeof(double) * (L.off[n] if L.off[n] > 0 else 1))
        if beta == NULL:
            raise MemoryError()
        with nogil:
            _forward(&L, emis, W, bi0, tri0, pr, J, NULL)
            for p in range(n - 1, -1, -1):
                C1 = L.cands + (p + 1) * T
                C0 = L.cands + (p + 2) * T
                K1 = L.counts[p + 1]
                K0 = L.counts[p + 2]
                bcur = beta + L.off[p]
                if p == n - 1:
                    for a in range(K1 * K0):
                        bcur[a] = 0.0
                    continue
                Cn = L.cands + (p + 3) * T
                Kn = L.counts[p + 3]
                bnext = beta + L.off[p + 1]
                for a in range(K1):
                    u = C1[a]
                    for b in range(K0):
                        v = C0[b]
                        best = -INFINITY
                        for c in range(Kn):
                            w = Cn[c]
                            s = (emis[p + 1, w] + W[bi0 + v, w] + W[tri0 + u * (T + 1) + v, w]
                                 + bnext[b * Kn + c])
                            if J > 0:
                                s = s + _pair_score(W, pr, J, p + 1, v, w)
                            if s > best:
                                best = s
                        bcur[a * K0 + b] = best
            for p in range(n):
                for v in range(T):
                    out[p, v] = -INFINITY
                K1 = L.counts[p + 1]
                K0 = L.counts[p + 2]
                C0 = L.cands + (p + 2) * T
                for a in range(K1):
                    for b in range(K0):
                        s = L.pi[L.off[p] + a * K0 + b] + beta[L.off[p] + a * K0 + b]
                        if s > out[p, C0[b]]:
                            out[p, C0[b]] = s
    finally:
        free(beta)
        _free(&L)
