# cython: language_level=3
"""Feature scoring kernels shared by the tagger and the parser.

A feature vector is a 1-D array of int64 feature ids (-1 = feature not in the model); a weight
table is a 2-D float64 array ``weights[feature_id, class_id]`` or a 1-D array for class-free
features. These kernels take only arrays and ints: strings and options are resolved in Python.
"""

import numpy as np
cimport numpy as cnp

cnp.import_array()


def score_classes(const double[:, ::1] weights, const long long[::1] feats, double[::1] out):
    """out[c] = sum over feature ids f >= 0 of weights[f, c]  (out is overwritten)."""
    cdef Py_ssize_t i, c, n_classes = weights.shape[1]
    cdef long long f
    for c in range(n_classes):
        out[c] = 0.0
    for i in range(feats.shape[0]):
        f = feats[i]
        if f < 0:
            continue
        for c in range(n_classes):
            out[c] += weights[f, c]


def score_sum(const double[::1] weights, const long long[::1] feats):
    """Sum of weights[f] over feature ids f >= 0."""
    cdef Py_ssize_t i
    cdef double total = 0.0
    cdef long long f
    for i in range(feats.shape[0]):
        f = feats[i]
        if f >= 0:
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
    of one token; each feature row holds one weight per class.
    """
    cdef Py_ssize_t i, j, c, n_classes = weights.shape[1]
    cdef long long f
    for i in range(rows.shape[0]):
        for c in range(n_classes):
            out[i, c] = 0.0
        for j in range(rows.shape[1]):
            f = rows[i, j]
            if f < 0:
                continue
            for c in range(n_classes):
                out[i, c] += weights[f, c]


def best_stored(const double[::1] weights, const int[::1] ids, const signed char[::1] signs,
                const long long[::1] bounds, const double[::1] offsets):
    """(k, s): the stored candidate with the highest score, and that score.

    Candidate k is the sparse vector ``ids[bounds[k]:bounds[k+1]]`` with ``signs`` (its feature
    difference to gold); its score is the sum of ``weights[ids[j]] * signs[j]`` taken left to right,
    plus ``offsets[k]`` (0.0 when ``offsets`` is empty). Ties keep the earlier candidate; (-1, 0.0)
    when there is none. The parser's cache of C&R 2004 Figure 4 (glmnlp.parser.training).
    """
    cdef Py_ssize_t k, j, K = bounds.shape[0] - 1
    cdef Py_ssize_t best_k = -1
    cdef double s, best = 0.0
    cdef bint has_offsets = offsets.shape[0] > 0
    if has_offsets and offsets.shape[0] != K:
        raise ValueError("one offset per stored candidate")
    for k in range(K):
        s = 0.0
        for j in range(bounds[k], bounds[k + 1]):
            s += weights[ids[j]] * signs[j]
        s += offsets[k] if has_offsets else 0.0
        if best_k < 0 or s > best:
            best_k = k
            best = s
    return best_k, best
