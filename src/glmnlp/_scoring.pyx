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
