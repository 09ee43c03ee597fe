"""Tests of the averaged perceptron, the feature index and the generic training loop."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from glmnlp.glm.features import ABSENT, FeatureIndex, StringStore, Template, decode_strings, encode_strings
from glmnlp.glm.perceptron import AveragedPerceptron
from glmnlp.glm.training import BestEpoch, epoch_order, train_perceptron

from toy_glm import ParityTask


def _naive_average(steps: list[list[tuple[int, float]]], size: int) -> tuple[np.ndarray, np.ndarray]:
    """Oracle: apply each example's updates, snapshot the weights after every example, take the mean."""
    w = np.zeros(size)
    snapshots = []
    for updates in steps:
        for f, v in updates:
            w[f] += v
        snapshots.append(w.copy())
    return w, np.mean(snapshots, axis=0)


update_steps = st.lists(
    st.lists(st.tuples(st.integers(0, 11), st.sampled_from([-1.0, 1.0, 2.0, -0.5])), max_size=6),
    min_size=1,
    max_size=25,
)


@given(update_steps)
def test_perceptron_lazy_average_equals_naive(steps: list[list[tuple[int, float]]]) -> None:
    """Lazy timestamp averaging gives exactly the mean of the per-example weight vectors."""
    model = AveragedPerceptron(4)
    for updates in steps:
        if updates:
            ids = np.array([f for f, _ in updates], dtype=np.int64)
            vals = np.array([v for _, v in updates])
            model.update(ids, vals)
        model.tick()
    size = model.n_features
    final, mean = _naive_average(steps, max(size, 12))
    np.testing.assert_allclose(model.weights, final[:size], rtol=0, atol=1e-12)
    np.testing.assert_allclose(model.averaged(), mean[:size], rtol=0, atol=1e-12)


def test_perceptron_averaged_returns_new_array_and_training_resumes() -> None:
    """averaged() never touches the training weights; state round trip resumes identically."""
    rng = np.random.default_rng(3)
    a = AveragedPerceptron(10)
    b = None
    for step in range(40):
        ids = rng.integers(0, 10, size=4)
        a.update(ids, rng.choice([-1.0, 1.0], size=4))
        a.tick()
        if step == 19:
            before = a.weights.copy()
            avg = a.averaged()
            avg[:] = 99.0
            np.testing.assert_array_equal(a.weights, before)
            b = AveragedPerceptron.from_state_arrays(a.state_arrays())
    rng = np.random.default_rng(3)
    for step in range(40):
        ids = rng.integers(0, 10, size=4)
        vals = rng.choice([-1.0, 1.0], size=4)
        if step >= 20:
            assert b is not None
            b.update(ids, vals)
            b.tick()
    assert b is not None
    np.testing.assert_array_equal(a.averaged(), b.averaged())
    np.testing.assert_array_equal(a.weights, b.weights)


def test_perceptron_update_grows_and_rejects_negative_ids() -> None:
    """Ids beyond the size grow the array with zeros; negative ids are an error."""
    model = AveragedPerceptron(2)
    model.update(np.array([100]), np.array([1.0]))
    assert model.n_features == 101
    assert model.weights[100] == 1.0 and model.weights[:100].sum() == 0.0
    with pytest.raises(ValueError):
        model.update(np.array([-1]), np.array([1.0]))


def test_perceptron_update_repeats_accumulate_and_cancel() -> None:
    """Repeated ids accumulate; a gold and a predicted occurrence of one feature cancel."""
    model = AveragedPerceptron(5)
    model.update(np.array([1, 1, 2, 3, 3]), np.array([1.0, 1.0, 1.0, 1.0, -1.0]))
    np.testing.assert_array_equal(model.weights, [0, 2, 1, 0, 0])


def test_features_index_assigns_ids_in_first_occurrence_order() -> None:
    """Dense rows per conjunction, -1 for absent atoms and (when frozen) unseen conjunctions."""
    index = FeatureIndex([Template("a", (0,)), Template("ab", (0, 1))], n_atoms=2)
    rows = index.rows(np.array([[5, 7], [3, ABSENT], [5, 7], [3, 7]]), add=True)
    np.testing.assert_array_equal(rows, [[0, 2], [1, -1], [0, 2], [1, 3]])
    index.freeze()
    np.testing.assert_array_equal(index.rows(np.array([[9, 7], [3, 7]])), [[-1, -1], [1, 3]])
    with pytest.raises(ValueError):
        index.rows(np.array([[9, 7]]), add=True)
    again = FeatureIndex.from_array(index.templates, 2, index.to_array())
    probe = np.array([[5, 7], [3, 7], [3, 2], [4000, 1]])
    np.testing.assert_array_equal(again.rows(probe), index.rows(probe))


def test_features_string_store_round_trip() -> None:
    """Strings (including non-ASCII and empty) survive the pickle-free array encoding."""
    store = StringStore(["the", "", "naïve", "日本"])
    again = StringStore.from_arrays(store.to_arrays("s"), "s")
    assert [again[i] for i in range(len(again))] == [store[i] for i in range(len(store))]
    assert again.get("naïve") == store.get("naïve") and again.get("zzz") == 1
    assert decode_strings(*encode_strings([])) == []


def test_training_epoch_order_is_seeded() -> None:
    """Each epoch's order is a permutation fixed by (seed, epoch)."""
    a = epoch_order(50, seed=1, epoch=2)
    assert sorted(a.tolist()) == list(range(50))
    np.testing.assert_array_equal(a, epoch_order(50, seed=1, epoch=2))
    assert not np.array_equal(a, epoch_order(50, seed=1, epoch=3))
    np.testing.assert_array_equal(epoch_order(5, 0, 1, shuffle=False), np.arange(5))


def test_training_best_epoch_keeps_earlier_on_ties() -> None:
    """Best-epoch selection keeps the highest score and the earlier epoch on ties."""
    best: BestEpoch[str] = BestEpoch()
    for epoch, score in enumerate([0.5, 0.7, 0.7, 0.6], start=1):
        best.offer(epoch, score, f"w{epoch}")
    assert (best.epoch, best.score, best.payload) == (2, 0.7, "w2")


def test_training_loop_learns_separable_toy_task_deterministically() -> None:
    """The generic loop reaches 100% dev accuracy on a separable task; same seed, same weights."""
    rng = np.random.default_rng(0)
    data = [(tuple(int(b) for b in rng.integers(0, 2, 5)), 0) for _ in range(60)]
    data = [(x, x[0]) for x, _ in data]
    first = train_perceptron(ParityTask(), data[:40], data[40:], epochs=4, seed=7, show_progress=False)
    second = train_perceptron(ParityTask(), data[:40], data[40:], epochs=4, seed=7, show_progress=False)
    assert first.best_score == 1.0
    assert [r.dev_score for r in first.history] == [r.dev_score for r in second.history]
    np.testing.assert_array_equal(first.weights, second.weights)
    assert first.history[0].mistakes > 0


def test_perceptron_segmentation_example_runs() -> None:
    """The documented new-task example (docs/glm_task.md) trains and segments the toy data well."""
    import importlib.util
    from pathlib import Path

    path = Path(__file__).resolve().parent.parent / "examples" / "glm_segmentation.py"
    spec = importlib.util.spec_from_file_location("glm_segmentation_example", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert module.run(epochs=3) >= 0.97
