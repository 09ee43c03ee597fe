# cython: language_level=3
"""Feature scoring kernels shared by the tagger and the parser.

A feature vector is a 1-D array of int64 feature ids (-1 = feature not in the model); a weight
table is a 2-D float64 array ``weights[feature_id, class_id]`` or a 1-D array for class-free
features. These kernels take only arrays and ints (and :class:`StoredCandidates`, typed arrays of the
parser's cache): strings and options are resolved in Python.
"""

import numpy as np
cimport numpy as cnp

cnp.import_array()


def _row_error(long long f, Py_ssize_t n_rows):
    return IndexError(f"feature id {f} is outside the weight table's {n_rows} rows")


def score_classes(const double[:, ::1] weights, const long long[::1] feats, double[::1] out):
    """out[c] = sum over feature ids f >= 0 of weights[f, c]  (out is overwritten).

    The shapes and every id are checked (an id past the table read memory it does not own, or crashed)."""
    cdef Py_ssize_t i, c, n_classes = weights.shape[1], n_rows = weights.shape[0]
    cdef long long f
    if out.shape[0] != n_classes:
        raise ValueError(f"out has {out.shape[0]} entries for {n_classes} classes")
    for c in range(n_classes):
        out[c] = 0.0
    for i in range(feats.shape[0]):
        f = feats[i]
        if f < 0:
            continue
        if f >= n_rows:
            raise _row_error(f, n_rows)
        for c in range(n_classes):
            out[c] += weights[f, c]


def score_sum(const double[::1] weights, const long long[::1] feats):
    """Sum of weights[f] over feature ids f >= 0."""
    cdef Py_ssize_t i, n_rows = weights.shape[0]
    cdef double total = 0.0
    cdef long long f
    for i in range(feats.shape[0]):
        f = feats[i]
        if f >= 0:
            if f >= n_rows:
                raise _row_error(f, n_rows)
            total += weights[f]
    return total


# -- averaged perceptron kernels (glmnlp.glm.perceptron) -------------------------------------------

def perceptron_update(double[::1] weights, double[::1] totals, long long[::1] stamps,
                      const long long[::1] ids, const double[::1] values, long long now):
    """Lazy-averaging update: for each j, weights[ids[j]] += values[j].

    Before a weight changes, the sum of its past values is brought up to date:
    totals[f] += (now - stamps[f]) * weights[f]; stamps[f] = now. ``now`` is the number of
    examples completed so far. The caller guarantees 0 <= ids[j] < len(weights).
    """
    cdef Py_ssize_t j
    cdef long long f
    for j in range(ids.shape[0]):
        f = ids[j]
        if stamps[f] != now:
            totals[f] += (now - stamps[f]) * weights[f]
            stamps[f] = now
        weights[f] += values[j]


def perceptron_average(const double[::1] weights, const double[::1] totals, const long long[::1] stamps,
                       long long now, double[::1] out):
    """out[f] = (totals[f] + (now - stamps[f]) * weights[f]) / now  (now > 0)."""
    cdef Py_ssize_t f
    cdef double inv = 1.0 / now
    for f in range(weights.shape[0]):
        out[f] = (totals[f] + (now - stamps[f]) * weights[f]) * inv


def score_rows(const double[:, ::1] weights, const long long[:, ::1] rows, double[:, ::1] out):
    """out[i, c] = sum over j with rows[i, j] >= 0 of weights[rows[i, j], c]  (out is overwritten).

    The "emission" scores of a tagger: one row of ``rows`` lists the tag-independent feature rows
    of one token; each feature row holds one weight per class. The shapes and every id are checked (an id past
    the table read memory it does not own, or crashed; an ``out`` of another shape was partly filled).
    """
    cdef Py_ssize_t i, j, c, n_classes = weights.shape[1], n_rows = weights.shape[0]
    cdef long long f
    if out.shape[0] != rows.shape[0] or out.shape[1] != n_classes:
        raise ValueError(f"out has shape ({out.shape[0]}, {out.shape[1]}), expected ({rows.shape[0]}, {n_classes})")
    for i in range(rows.shape[0]):
        for c in range(n_classes):
            out[i, c] = 0.0
        for j in range(rows.shape[1]):
            f = rows[i, j]
            if f < 0:
                continue
            if f >= n_rows:
                raise _row_error(f, n_rows)
            for c in range(n_classes):
                out[i, c] += weights[f, c]


cdef class StoredCandidates:
    """The stored candidates of one training sentence (the parser's cache, C&R 2004 Figure 4), flat.

    Candidate k is the sparse vector ``ids[bounds[k]:bounds[k+1]]`` with ``signs`` (its feature
    difference Phi(t) - Phi(gold)) plus the fixed ``offsets[k]`` (its generative term; ``offsets``
    empty: none). ``count`` is the number of updates the entry has made since it was stored.
    Typed fields, so that :func:`first_winner` visits entries without Python calls.
    """

    cdef readonly object ids, signs, bounds, offsets
    cdef const int[::1] _ids
    cdef const signed char[::1] _signs
    cdef const long long[::1] _bounds
    cdef const double[::1] _offsets
    cdef public int count

    def __init__(self, ids, signs, bounds, offsets):
        cdef Py_ssize_t k, K
        self._ids = ids
        self._signs = signs
        self._bounds = bounds
        self._offsets = offsets
        self.ids, self.signs, self.bounds, self.offsets = ids, signs, bounds, offsets
        self.count = 0
        K = self._bounds.shape[0] - 1
        if K < 0 or self._ids.shape[0] != self._signs.shape[0]:
            raise ValueError("bounds must start at 0 and ids and signs must have one entry each")
        if self._offsets.shape[0] not in (0, K):
            raise ValueError("one offset per stored candidate")
        if self._bounds[0] != 0 or self._bounds[K] != self._ids.shape[0]:
            raise ValueError("bounds must run from 0 to the number of ids")
        for k in range(K):
            if self._bounds[k + 1] < self._bounds[k]:
                raise ValueError("bounds must not decrease")


def first_winner(const double[::1] weights, list visits, Py_ssize_t start, int t2):
    """The first visit, from ``start`` on, whose entry would update: (i, k, s), else (-1, -1, 0.0).

    ``visits`` is a list of :class:`StoredCandidates` in visiting order (an entry may appear more
    than once). A visit is skipped when its entry has made ``t2`` updates or stores no candidate;
    otherwise its best candidate k (highest score, the earlier one on ties) has the score s = the
    sum of ``weights[ids[j]] * signs[j]`` taken left to right, plus its offset, and the visit updates
    when s > 0 (a candidate strictly outscores gold; a tie goes to gold). Scoring reads the weights
    only, so the caller applies the update of visit i and calls again from i + 1: every visit sees
    the weights the one-by-one loop would have given it.
    """
    cdef Py_ssize_t i, j, k, K, best_k
    cdef double s, best
    cdef StoredCandidates e
    for i in range(start, len(visits)):
        e = <StoredCandidates?> visits[i]
        K = e._bounds.shape[0] - 1
        if e.count >= t2 or K < 1:
            continue
        best_k = -1
        best = 0.0
        for k in range(K):
            s = 0.0
            for j in range(e._bounds[k], e._bounds[k + 1]):
                s += weights[e._ids[j]] * e._signs[j]
            s += e._offsets[k] if e._offsets.shape[0] > 0 else 0.0
            if best_k < 0 or s > best:
                best_k = k
                best = s
        if best > 0.0:
            return i, best_k, best
    return -1, -1, 0.0
