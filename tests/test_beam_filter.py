"""FILTER (C&R 2004 §3.1) on hand-built beams: the survivors are exactly those the formula
score(h_k) >= score(h_0) - gamma / k**3 (at most ``cap``) keeps, through the decoder's own code path
(:func:`glmnlp.parser._beam.filter_survivors`: the ranking of :meth:`BeamParser.decode` then its
FILTER loop)."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from glmnlp.parser._beam import filter_survivors


def _formula(scores: list[float], gamma: float, cap: int) -> list[int]:
    order = sorted(range(len(scores)), key=lambda j: (-scores[j], j))
    kept = order[:1]
    for k in range(1, len(order)):
        if cap > 0 and k >= cap:
            break
        if scores[order[k]] < scores[order[0]] - gamma / k**3:
            break
        kept.append(order[k])
    return kept


def _survivors(scores: list[float], gamma: float, cap: int = 0) -> list[int]:
    return filter_survivors(np.array(scores, dtype=np.float64), gamma, cap)


def test_beam_filter_hand_built_beam_keeps_exactly_the_formula_survivors() -> None:
    """Ranked 10, 9.95, 9.6, 9.5, 3 with gamma 8: margins 8, 1, 0.296 -> h1, h2 kept, h3 (9.5 < 9.704) cut.

    gamma/k**2 would keep h3 (margin 0.889), gamma/(k+1)**3 would cut h2 (margin 0.296), a
    wrong sign would keep only h0 and no cube would keep everything above 2.
    """
    scores = [9.6, 10.0, 9.5, 9.95, 3.0]
    assert _survivors(scores, 8.0) == [1, 3, 0]
    assert _formula(scores, 8.0, 0) == [1, 3, 0]


def test_beam_filter_boundary_cap_and_degenerate_beams() -> None:
    assert _survivors([10.0, 9.0], 1.0) == [0, 1]  # exactly on the threshold 10 - 1/1: kept
    assert _survivors([10.0, 9.0 - 1e-9], 1.0) == [0]
    assert _survivors([10.0, 9.0, 8.75], 2.0) == [0, 1]  # k=2: the threshold 10 - 2/8 = 9.75 cuts 8.75
    assert _survivors([10.0, 9.99, 9.98, 9.97], 1e18, 2) == [0, 1]  # the cap binds
    assert _survivors([10.0, 9.99, 9.98], 0.0, 0) == [0]  # gamma 0 keeps ties only
    assert _survivors([5.0, 5.0, 5.0], 0.0, 0) == [0, 1, 2]
    assert _survivors([1.0], 0.0, 1) == [0]
    assert _survivors([], 1.0, 0) == []


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.floats(-50, 50) | st.sampled_from([0.0, 1.0, 1.5, -float("inf")]), min_size=1, max_size=40),
    st.sampled_from([0.0, 0.5, 1.0, 8.0, 100.0, 1e4]),
    st.integers(0, 12),
)
def test_beam_filter_matches_the_formula(scores: list[float], gamma: float, cap: int) -> None:
    assert _survivors(scores, gamma, cap) == _formula(scores, gamma, cap)
