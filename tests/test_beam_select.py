"""The beam's FILTER ranking: selecting the first ``cap`` candidates equals sorting them all."""

from __future__ import annotations

import math

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from glmnlp.parser._beam import filter_order


def _oracle(scores: list[float], k: int) -> list[int]:
    order = sorted(range(len(scores)), key=lambda j: (-scores[j], j))
    return order if k <= 0 else order[:k]


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.sampled_from([-math.inf, -3.0, -1.5, 0.0, 0.25, 2.0, 7.0]) | st.floats(-1e6, 1e6), max_size=80),
    st.integers(-1, 90),
)
def test_beam_select_matches_full_sort(scores: list[float], k: int) -> None:
    """The first k of the FILTER order (score descending, ties by arrival) match a full sort, ties included."""
    assert filter_order(np.array(scores, dtype=np.float64), k) == _oracle(scores, k)


def test_beam_select_hand_example() -> None:
    """Ties keep arrival order and only the k best are returned."""
    assert filter_order(np.array([1.0, 3.0, 3.0, -math.inf, 2.0]), 3) == [1, 2, 4]
    assert filter_order(np.array([1.0, 3.0, 3.0, -math.inf, 2.0]), 0) == [1, 2, 4, 0, 3]
