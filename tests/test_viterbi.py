"""Second-order Viterbi and max-marginals against brute-force enumeration of all tag sequences."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from glmnlp.glm._scoring import score_rows
from glmnlp.tagger._viterbi import max_marginals, viterbi, viterbi_batch


def _sequence_score(tags: tuple[int, ...], emis: np.ndarray, W: np.ndarray, bi0: int, tri0: int) -> float:
    T = emis.shape[1]
    prev2, prev1, total = T, T, 0.0
    for i, v in enumerate(tags):
        total += emis[i, v] + W[bi0 + prev1, v] + W[tri0 + prev2 * (T + 1) + prev1, v]
        prev2, prev1 = prev1, v
    return total


def _all_sequences(mask: np.ndarray) -> list[tuple[int, ...]]:
    allowed = [np.flatnonzero(row).tolist() for row in mask]
    return list(itertools.product(*allowed))


def _random_problem(seed: int, n: int, T: int, restrict: bool) -> tuple[np.ndarray, np.ndarray, int, int, np.ndarray]:
    rng = np.random.default_rng(seed)
    bi0, tri0 = 2, 2 + T + 1  # leave two unused rows first, as a tagger's layout could
    W = rng.normal(size=(tri0 + (T + 1) ** 2 + 3, T))
    emis = rng.normal(size=(n, T))
    mask = np.ones((n, T), dtype=np.uint8)
    if restrict:
        mask = (rng.random((n, T)) < 0.5).astype(np.uint8)
        mask[np.arange(n), rng.integers(0, T, n)] = 1  # at least one candidate per position
    return emis, W, bi0, tri0, mask


@given(st.integers(0, 10_000), st.integers(1, 5), st.integers(1, 4), st.booleans())
def test_viterbi_equals_brute_force(seed: int, n: int, T: int, restrict: bool) -> None:
    """The Viterbi sequence is the best of all |T|^n sequences (inside the tag-dictionary mask)."""
    emis, W, bi0, tri0, mask = _random_problem(seed, n, T, restrict)
    out = np.empty(n, dtype=np.int64)
    score = viterbi(emis, W, bi0, tri0, mask, out)
    candidates = _all_sequences(mask)
    best = max(candidates, key=lambda seq: _sequence_score(seq, emis, W, bi0, tri0))
    assert tuple(out.tolist()) == best
    assert score == pytest.approx(_sequence_score(best, emis, W, bi0, tri0), abs=1e-9)
    assert all(mask[i, t] for i, t in enumerate(out.tolist()))


@given(st.integers(0, 10_000), st.integers(1, 5), st.integers(1, 4), st.booleans())
def test_viterbi_max_marginals_equal_brute_force(seed: int, n: int, T: int, restrict: bool) -> None:
    """max_marginals[i, v] is the best score among sequences with tag v at position i."""
    emis, W, bi0, tri0, mask = _random_problem(seed, n, T, restrict)
    out = np.empty((n, T))
    max_marginals(emis, W, bi0, tri0, mask, out)
    expected = np.full((n, T), -np.inf)
    for seq in _all_sequences(mask):
        s = _sequence_score(seq, emis, W, bi0, tri0)
        for i, v in enumerate(seq):
            expected[i, v] = max(expected[i, v], s)
    np.testing.assert_allclose(out, expected, atol=1e-9)


def test_viterbi_hand_worked_example() -> None:
    """Two tags, two words: a strong trigram weight overrides the emission preference at word 2."""
    T = 2
    W = np.zeros(((T + 1) + (T + 1) ** 2, T))
    tri0 = T + 1
    emis = np.array([[1.0, 0.0], [0.6, 0.0]])  # alone: tags (0, 0), score 1.6
    W[tri0 + T * (T + 1) + 0, 1] = 1.0  # trigram (start, tag 0) -> tag 1: +1.0, so (0, 1) scores 2.0
    out = np.empty(2, dtype=np.int64)
    assert viterbi(emis, W, 0, tri0, np.ones((2, T), dtype=np.uint8), out) == pytest.approx(2.0)
    assert out.tolist() == [0, 1]


def test_viterbi_rejects_empty_candidate_set() -> None:
    """A position with no allowed tag is an error, not a silent garbage sequence."""
    emis, W, bi0, tri0, mask = _random_problem(0, 3, 3, False)
    mask[1] = 0
    with pytest.raises(ValueError, match="no candidate"):
        viterbi(emis, W, bi0, tri0, mask, np.empty(3, dtype=np.int64))


def test_viterbi_score_rows_equals_python_sum() -> None:
    """score_rows sums the weight rows listed per token, skipping -1."""
    rng = np.random.default_rng(1)
    W = rng.normal(size=(10, 3))
    rows = np.array([[0, 3, -1], [-1, -1, -1], [9, 9, 2]], dtype=np.int64)
    out = np.empty((3, 3))
    score_rows(W, rows, out)
    expected = np.array([sum((W[r] for r in row if r >= 0), np.zeros(3)) for row in rows.tolist()])
    np.testing.assert_allclose(out, expected)


@given(st.integers(0, 10_000), st.integers(1, 5), st.integers(1, 3), st.booleans(), st.integers(0, 2))
def test_viterbi_previous_tag_features_equal_brute_force(seed: int, n: int, T: int, restrict: bool, J: int) -> None:
    """With (n, J) previous-tag feature rows, Viterbi and max-marginals still match enumeration."""
    emis, W, bi0, tri0, mask = _random_problem(seed, n, T, restrict)
    rng = np.random.default_rng(seed + 1)
    blocks = 3
    base = W.shape[0]
    W = np.vstack([W, rng.normal(size=(blocks * (T + 1), T))])
    pair = base + (T + 1) * rng.integers(0, blocks, size=(n, J))
    pair[rng.random((n, J)) < 0.3] = -1  # some positions without the feature

    def score(seq: tuple[int, ...]) -> float:
        total = _sequence_score(seq, emis, W, bi0, tri0)
        prev = T
        for i, v in enumerate(seq):
            total += sum(W[r + prev, v] for r in pair[i].tolist() if r >= 0)
            prev = v
        return total

    candidates = _all_sequences(mask)
    out = np.empty(n, dtype=np.int64)
    best_score = viterbi(emis, W, bi0, tri0, mask, out, pair=pair)
    best = max(candidates, key=score)
    assert tuple(out.tolist()) == best and best_score == pytest.approx(score(best), abs=1e-9)
    mm = np.empty((n, T))
    max_marginals(emis, W, bi0, tri0, mask, mm, pair=pair)
    for i in range(n):
        for v in range(T):
            scores = [score(seq) for seq in candidates if seq[i] == v]
            assert mm[i, v] == pytest.approx(max(scores), abs=1e-9) if scores else mm[i, v] == -np.inf
    with pytest.raises(ValueError):
        viterbi(emis, W, bi0, tri0, mask, out, pair=np.full((n, 1), W.shape[0], dtype=np.int64))


@given(st.integers(0, 10_000), st.lists(st.integers(0, 4), min_size=1, max_size=5), st.integers(1, 4))
def test_viterbi_batch_equals_one_call_per_sentence(seed: int, lengths: list[int], T: int) -> None:
    """viterbi_batch over concatenated sentences (empty ones included) equals viterbi on each sentence."""
    n = sum(lengths)
    emis, W, bi0, tri0, mask = _random_problem(seed, n, T, True)
    rng = np.random.default_rng(seed)
    base = W.shape[0]
    W = np.vstack([W, rng.normal(size=(2 * (T + 1), T))])
    pair = base + (T + 1) * rng.integers(0, 2, size=(n, 1))
    offsets = np.concatenate(([0], np.cumsum(lengths))).astype(np.int64)
    out = np.full(n, -7, dtype=np.int64)
    viterbi_batch(emis, W, bi0, tri0, mask, offsets, out, pair=pair)
    for a, b in zip(offsets[:-1].tolist(), offsets[1:].tolist(), strict=True):
        if b > a:
            one = np.empty(b - a, dtype=np.int64)
            viterbi(emis[a:b], W, bi0, tri0, mask[a:b], one, pair=pair[a:b])
            assert out[a:b].tolist() == one.tolist()
    with pytest.raises(ValueError):
        viterbi_batch(emis, W, bi0, tri0, mask, np.array([0, n + 1], dtype=np.int64), out)
