"""A task of the user's own on glmnlp.glm (docs/glm_task.md): each mistake is refused where it is made, with what
it is, instead of a crash, a wrong result or a traceback from deep inside (numpy, json, copy, Cython)."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from glmnlp.errors import ConfigError, InputError
from glmnlp.glm._scoring import score_classes, score_rows, score_sum
from glmnlp.glm.model_io import load_model, save_model
from glmnlp.glm.perceptron import AveragedPerceptron
from glmnlp.glm.training import train_perceptron


class Task:
    """Two classes, one feature each: the gold class of example x is x."""

    def __init__(self, scores: list[Any] | None = None) -> None:
        self.scores = list(scores or [])

    def n_features(self) -> int:
        return 2

    def decode(self, x: int, w: np.ndarray) -> int:
        return int(w[1] > w[0])

    def feature_difference(self, x: int, pred: int) -> tuple[np.ndarray, np.ndarray]:
        if pred == x:
            return np.zeros(0, np.int64), np.zeros(0)
        return np.array([x, pred]), np.array([1.0, -1.0])

    def evaluate(self, xs: list[int], w: np.ndarray) -> Any:
        return self.scores.pop(0) if self.scores else float(np.mean([self.decode(x, w) == x for x in xs]))


def test_scoring_kernels_refuse_ids_past_the_table_and_outputs_of_another_shape() -> None:
    """A row id past the weight table read memory the table does not own (6e-322), a larger one killed Python
    (segmentation fault); an ``out`` of another shape was partly filled."""
    w = np.arange(12, dtype=np.float64).reshape(4, 3)
    for rows in ([[4]], [[0, 10**6]]):
        with pytest.raises(IndexError, match=r"feature id \d+ is outside the weight table's 4 rows"):
            score_rows(w, np.array(rows, dtype=np.int64), np.zeros((1, 3)))
    with pytest.raises(ValueError, match=r"out has shape \(1, 2\), expected \(1, 3\)"):
        score_rows(w, np.array([[0]], dtype=np.int64), np.zeros((1, 2)))
    with pytest.raises(IndexError):
        score_classes(w, np.array([9], dtype=np.int64), np.zeros(3))
    with pytest.raises(IndexError):
        score_sum(np.zeros(3), np.array([3], dtype=np.int64))
    out = np.zeros((1, 3))
    score_rows(w, np.array([[1, -1, 3]], dtype=np.int64), out)
    assert out.tolist() == [[12.0, 14.0, 16.0]]


def test_model_files_hold_zero_dimensional_arrays_and_refuse_what_they_cannot_read_back(tmp_path: Path) -> None:
    """A 0-d array (a bias, a Python float) was written with shape [1] and its metadata's [], so the saved model
    could never be loaded; a kind that is not a string was saved and never loaded; metadata JSON cannot hold was
    json's error from inside, naming a type but not where it is."""
    save_model(tmp_path / "m", kind="k", metadata={}, arrays={"w": np.zeros(3), "bias": np.array(0.5), "b": 2.5})
    _, arrays = load_model(tmp_path / "m", kind="k")
    assert arrays["bias"].shape == () and float(arrays["bias"]) == 0.5 and float(arrays["b"]) == 2.5
    for kind in (None, 3, "", "a/b"):
        with pytest.raises(ValueError, match="kind must be a non-empty string"):
            save_model(tmp_path / "k", kind=kind, metadata={}, arrays={})  # type: ignore[arg-type]
    for metadata, where in (({"config": {"lr": 0.1, "eps": float("nan")}}, r"metadata\['config'\]\['eps'\]: nan"),
                            ({"config": {"n": np.int64(3)}}, r"metadata\['config'\]\['n'\]: a numpy.int64"),
                            ({"sizes": [1, {2, 3}]}, r"metadata\['sizes'\]\[1\]: a set")):
        with pytest.raises(ValueError, match=where):
            save_model(tmp_path / "j", kind="k", metadata=metadata, arrays={})
    assert not (tmp_path / "j").exists() and not (tmp_path / "k").exists()


def test_perceptron_updates_refuse_fractional_ids_bad_values_and_runaway_ids() -> None:
    """1.7 was feature 1; a NaN value made every average NaN (a chunker then scored a constant 0.113); id 10**12
    asked numpy for 7.28 TiB."""
    p = AveragedPerceptron(4)
    with pytest.raises(ValueError, match="feature ids must be integers"):
        p.update(np.array([1.7, 2.2]), np.array([1.0, 1.0]))
    with pytest.raises(ValueError, match="NaN or infinite"):
        p.update(np.array([0]), np.array([np.inf]))
    with pytest.raises(ValueError, match=r"feature id 1000000000000: more than 17,179,869,184 weights"):
        p.update(np.array([10**12]), np.array([1.0]))
    p.update(np.array([1, 2], dtype=np.int32), np.array([1.0, -1.0]))
    p.update([], [])
    assert p.weights.tolist() == [0.0, 1.0, -1.0, 0.0]


def test_a_nan_dev_score_ranks_below_every_number() -> None:
    """An F1 of no predictions (NaN) at epoch 1 was kept as the best for good: NaN > x is false for every x."""
    result = train_perceptron(Task([float("nan"), 0.5, 0.9, 0.8]), [0, 1], [0], epochs=4, jobs=1,
                              show_progress=False)
    assert (result.best_epoch, result.best_score) == (3, 0.9)
    result = train_perceptron(Task([0.5, float("nan")]), [0, 1], [0], epochs=2, jobs=1, show_progress=False, keep=2)
    assert result.best_epoch == 1 and [e for e, _s, _w in result.runners_up] == [2]


@pytest.mark.parametrize("score", ["0.9", (0.9,), True, None, 1 + 2j, np.complex128(1 + 2j)])
def test_a_dev_score_that_is_not_a_number_is_refused(score: Any) -> None:
    """None was taken for "no dev set" (the pass it scored beat every scored pass: a missing return on one path), and
    a numpy complex for its real part with only numpy's ComplexWarning."""
    with pytest.raises(TypeError, match="dev score must be a number"):
        train_perceptron(Task([score]), [0, 1], [0], epochs=1, jobs=1, show_progress=False)


def test_the_task_and_its_data_are_checked_before_any_work() -> None:
    """An empty training set was an UnboundLocalError (one shard) or a silent no-op (two); a missing evaluate()
    was found after a whole pass; a generator of examples was ``object of type ... has no len()``."""
    decoded: list[int] = []

    class NoEvaluate(Task):
        evaluate = None  # type: ignore[assignment]

        def decode(self, x: int, w: np.ndarray) -> int:
            decoded.append(x)
            return super().decode(x, w)

    for shards in (1, 2):
        with pytest.raises(InputError, match="no training examples"):
            train_perceptron(Task(), [], [0], epochs=1, shards=shards, jobs=1, show_progress=False)
    with pytest.raises(TypeError, match=r"the task NoEvaluate has no evaluate\(\)"):
        train_perceptron(NoEvaluate(), [0, 1], [0], epochs=1, jobs=1, show_progress=False)
    assert decoded == []
    assert train_perceptron(NoEvaluate(), [0, 1], None, epochs=1, jobs=1, show_progress=False).best_epoch == 1
    with pytest.raises(TypeError, match="train must be a sequence of examples"):
        train_perceptron(Task(), iter([0, 1]), None, epochs=1, jobs=1, show_progress=False)  # type: ignore[arg-type]
    with pytest.raises(ConfigError, match="epochs must be an integer >= 1, got 2.5"):
        train_perceptron(Task(), [0, 1], None, epochs=2.5, jobs=1, show_progress=False)  # type: ignore[arg-type]

    class BadSize(Task):
        def n_features(self) -> Any:
            return None

    with pytest.raises(TypeError, match=r"n_features\(\) must be an integer >= 0, got None"):
        train_perceptron(BadSize(), [0, 1], None, epochs=1, jobs=1, show_progress=False)


def test_a_task_that_cannot_be_copied_for_shards_says_so() -> None:
    """With shards > 1 the task is copied for each shard: a task holding a lock was a traceback from copy.py."""

    class Locked(Task):
        def __init__(self) -> None:
            super().__init__()
            self.lock = threading.Lock()

    with pytest.raises(ConfigError, match="with shards > 1 each shard gets a copy of the task, and Locked cannot"):
        train_perceptron(Locked(), [0, 1], None, epochs=1, shards=2, jobs=1, show_progress=False)
    assert train_perceptron(Locked(), [0, 1], None, epochs=1, jobs=1, show_progress=False).best_epoch == 1


class WithLambda(Task):
    """A task at module level (sent by name) holding a lambda, which deepcopy copies and the transport to worker
    processes refuses."""

    def __init__(self) -> None:
        super().__init__()
        self.key = lambda x: x


def test_a_task_workers_cannot_get_is_the_documented_config_error() -> None:
    """A task holding a lambda with shards=2 on two workers failed with the standard library's ``AttributeError:
    Can't pickle local object`` from inside the executor; it is the ConfigError docs/glm_task.md promises, naming the
    task. With one worker the shards' deep copies take the lambda and it trains (said in docs/glm_task.md)."""
    with pytest.raises(ConfigError, match="each shard gets a copy of the task, and WithLambda cannot be sent to a "
                                          "worker process"):
        train_perceptron(WithLambda(), [0, 1], None, epochs=1, shards=2, jobs=2, show_progress=False)
    assert train_perceptron(WithLambda(), [0, 1], None, epochs=1, shards=2, jobs=1, show_progress=False).best_epoch == 1


_MODULE_LAMBDA = lambda x: x  # noqa: E731 (a lambda of a module, as one of a user's script)


class WithModuleLambda(Task):
    """A task holding a lambda made at a module's top level: the transport refuses it with a PicklingError (neither
    TypeError nor AttributeError, the errors a lambda made in a method gives)."""

    def __init__(self) -> None:
        super().__init__()
        self.key = _MODULE_LAMBDA


def test_a_module_level_lambda_workers_cannot_get_is_the_documented_config_error() -> None:
    """``task.normalise = lambda s: s.lower()`` in a script's main block, shards=2 on two workers: a raw
    ``_pickle.PicklingError: Can't pickle <function <lambda>>``, outside GlmnlpError; the ConfigError now."""
    with pytest.raises(ConfigError, match="WithModuleLambda cannot be sent to a worker process"):
        train_perceptron(WithModuleLambda(), [0, 1], None, epochs=1, shards=2, jobs=2, show_progress=False)


class _Example(int):
    """An example object of a user's (an int here, so that Task decodes it), which may hold anything."""


def test_an_example_workers_cannot_get_is_named_not_the_task() -> None:
    """A lambda held by one training example: the ConfigError blamed the task ("Task cannot be sent to a worker
    process"), which pickles; it names the examples now."""
    example = _Example(1)
    example.note = _MODULE_LAMBDA  # type: ignore[attr-defined]
    with pytest.raises(ConfigError, match="the training examples are sent to worker processes, and one of them cannot"):
        train_perceptron(Task(), [0, example], None, epochs=1, shards=2, jobs=2, show_progress=False)


@pytest.mark.parametrize("seed", [1.5, -1, None, "0", True])
def test_a_seed_that_is_not_a_whole_number_is_refused_before_any_work(seed: Any) -> None:
    """``seed=1.5`` trained as ``seed=1`` without a word; ``-1`` was numpy's "expected non-negative integer" once the
    first pass began, None "int() argument must be ...": each is named at the call now."""
    with pytest.raises(ConfigError, match=r"seed must be an integer >= 0, got "):
        train_perceptron(Task(), [0, 1], None, epochs=1, seed=seed, jobs=1, show_progress=False)
    assert train_perceptron(Task(), [0, 1], None, epochs=1, seed=np.int64(3), jobs=1, show_progress=False)


@pytest.mark.parametrize("returned", [None, np.array([0]), (np.array([0]),)])
def test_a_feature_difference_that_is_not_a_pair_is_named(returned: Any) -> None:
    """``feature_difference`` returning None or the ids alone was ``cannot unpack non-iterable NoneType object``."""

    class Wrong(Task):
        def feature_difference(self, x: int, pred: int) -> Any:
            return returned

    with pytest.raises(TypeError, match=r"feature_difference\(\) must return \(ids, values\)"):
        train_perceptron(Wrong(), [0, 1], None, epochs=1, jobs=1, show_progress=False)
