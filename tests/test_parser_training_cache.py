"""The cache step of the parser's training (paper Figure 4, step 2): updates while a stored candidate outscores gold,
at most T2 of them, generative offsets, and the sweep against one scoring per visit.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from glmnlp.glm._scoring import StoredCandidates, first_winner
from glmnlp.parser.training import _sweep
from glmnlp.glm.perceptron import AveragedPerceptron


# -- the cache step (paper Figure 4, step 2) ----------------------------------------------------------


def _perc(values: dict[int, float]) -> AveragedPerceptron:
    perc = AveragedPerceptron(8)
    ids = np.array(sorted(values), dtype=np.int64)
    perc.update(ids, np.array([values[i] for i in ids]))
    return perc


def _entry(*cands: tuple[list[int], list[int]], offsets: tuple[float, ...] = ()) -> StoredCandidates:
    """A cache entry holding the given candidates (ids and signs of Phi(t) - Phi(g)), stored flat."""
    return StoredCandidates(
        np.array([i for ids, _ in cands for i in ids], dtype=np.int32),
        np.array([s for _, signs in cands for s in signs], dtype=np.int8),
        np.cumsum([0] + [len(ids) for ids, _ in cands], dtype=np.int64),
        np.array(offsets, dtype=np.float64),
    )


def test_parser_cache_step_updates_while_a_candidate_outscores_gold() -> None:
    """The best stored candidate (score of Phi(t) - Phi(g)) is used; updates stop once gold wins."""
    perc = _perc({0: 2.0, 1: 0.5, 2: 0.0})
    # candidate A: Phi(A)-Phi(g) = f0 - f2 (margin 2.0); candidate B: f1 - f2 (margin 0.5)
    entry = _entry(([0, 2], [1, -1]), ([1, 2], [1, -1]))
    assert _sweep(perc, [entry], 50) == 1  # A is best: w0 -= 1, w2 += 1
    assert perc.weights[:3].tolist() == [1.0, 0.5, 1.0]
    assert entry.count == 1
    # now A: 1 - 1 = 0 (a tie with gold), B: 0.5 - 1 = -0.5: gold is not outscored, no update
    assert _sweep(perc, [entry], 50) == 0
    assert perc.weights[:3].tolist() == [1.0, 0.5, 1.0] and entry.count == 1


def test_parser_cache_step_at_most_t2_updates() -> None:
    """An entry that stays inseparable updates at most T2 times until it is refreshed."""
    perc = _perc({0: 10.0})
    entry = _entry(([0], [1]))
    done = _sweep(perc, [entry] * 10, 3)
    assert done == 3 and entry.count == 3
    assert perc.weights[0] == 7.0  # still outscoring gold, but capped


def test_parser_cache_step_empty_entry_is_inert() -> None:
    """An entry with no non-gold candidate never updates."""
    perc = _perc({0: 1.0})
    assert _sweep(perc, [_entry()], 50) == 0 and perc.weights[0] == 1.0


def test_parser_cache_step_adds_each_candidates_generative_offset() -> None:
    """With the combined model each stored candidate carries its generative term: A's feature margin
    (2.0) loses to B's 0.5 + offset 3.0, so B's features are updated; a candidate below gold by its
    offset does not update."""
    perc = _perc({0: 2.0, 1: 0.5, 2: 0.0})
    entry = _entry(([0, 2], [1, -1]), ([1, 2], [1, -1]), offsets=(0.0, 3.0))
    assert _sweep(perc, [entry], 50) == 1
    assert perc.weights[:3].tolist() == [2.0, -0.5, 1.0]
    below = _entry(([0], [1]), offsets=(-5.0,))
    assert _sweep(_perc({0: 2.0}), [below], 50) == 0


def test_first_winner_sums_left_to_right_and_keeps_the_earlier_of_ties() -> None:
    """Scores are the plain left-to-right sums; equal scores keep the earlier candidate; nothing due: (-1, -1, 0.0)."""
    w = np.array([0.1, 0.2, 0.3, 1e16, -1e16])
    signs = np.ones(7, dtype=np.int8)
    entry = StoredCandidates(np.array([0, 1, 2, 3, 0, 4, 2], dtype=np.int32), signs,
                             np.array([0, 3, 7], dtype=np.int64), np.zeros(0))
    assert first_winner(w, [entry], 0, 50) == (0, 0, (0.1 + 0.2) + 0.3)
    assert (0.1 + 0.2) + 0.3 != 0.1 + (0.2 + 0.3)  # so the value above shows the order of the sum
    tie = StoredCandidates(np.array([0, 1, 1, 0], dtype=np.int32), signs[:4], np.array([0, 2, 4], dtype=np.int64),
                           np.zeros(0))
    assert first_winner(w, [tie], 0, 50)[:2] == (0, 0)
    empty = StoredCandidates(np.zeros(0, dtype=np.int32), signs[:0], np.zeros(1, dtype=np.int64), np.zeros(0))
    assert first_winner(w, [empty, empty], 0, 50) == (-1, -1, 0.0)
    assert first_winner(w, [empty, entry, entry], 2, 50)[0] == 2  # from start on
    with pytest.raises(ValueError):
        StoredCandidates(entry.ids, entry.signs, entry.bounds, np.zeros(1))
    with pytest.raises(ValueError):
        StoredCandidates(entry.ids, entry.signs, np.array([0, 3, 6], dtype=np.int64), np.zeros(0))


def _sweep_one_by_one(perc: AveragedPerceptron, visits: list[StoredCandidates], t2: int) -> int:
    """The cache sweep as one scoring per visit in numpy (the definition _sweep must match)."""
    done = 0
    for entry in visits:
        K = len(entry.bounds) - 1
        if entry.count >= t2 or K < 1:
            continue
        scores = []
        for k in range(K):
            s = 0.0
            for f, g in zip(entry.ids[entry.bounds[k]:entry.bounds[k + 1]], entry.signs[entry.bounds[k]:entry.bounds[k + 1]]):
                s += float(perc.weights[f]) * float(g)
            scores.append(s + (float(entry.offsets[k]) if len(entry.offsets) else 0.0))
        k = int(np.argmax(scores))  # the first of the highest
        if scores[k] > 0.0:
            a, b = int(entry.bounds[k]), int(entry.bounds[k + 1])
            perc.update(entry.ids[a:b], -entry.signs[a:b].astype(np.float64))
            entry.count += 1
            done += 1
    return done


@settings(max_examples=80, deadline=None)
@given(st.integers(0, 100_000))
def test_sweep_matches_one_scoring_per_visit(seed: int) -> None:
    """On random entries and visit orders (repeats included), _sweep makes the updates, in the order
    and with the weights, of scoring every visit one by one: each visit sees the earlier updates."""
    rng = np.random.default_rng(seed)

    def entries() -> list[StoredCandidates]:
        r = np.random.default_rng(seed + 1)
        out = []
        for _ in range(int(r.integers(1, 6))):
            K = int(r.integers(0, 4))
            sizes = r.integers(1, 5, size=K)
            n = int(sizes.sum())
            out.append(StoredCandidates(r.integers(0, 8, size=n).astype(np.int32),
                                        r.choice(np.array([-1, 1], dtype=np.int8), size=n),
                                        np.concatenate([[0], np.cumsum(sizes)]).astype(np.int64),
                                        np.round(r.normal(size=K), 1) if r.random() < 0.5 else np.zeros(0)))
        return out

    start = {i: float(v) for i, v in enumerate(np.round(rng.normal(size=8), 1))}
    order = rng.integers(0, 5, size=int(rng.integers(1, 30)))
    t2 = int(rng.integers(1, 4))
    fast_entries, slow_entries = entries(), entries()
    fast, slow = _perc(start), _perc(start)
    k = len(fast_entries)
    done_fast = _sweep(fast, [fast_entries[i % k] for i in order], t2)
    done_slow = _sweep_one_by_one(slow, [slow_entries[i % k] for i in order], t2)
    assert done_fast == done_slow
    assert fast.weights.tobytes() == slow.weights.tobytes()
    assert [e.count for e in fast_entries] == [e.count for e in slow_entries]
