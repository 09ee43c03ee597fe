"""What a task supplies to the generic training loop (:func:`glmnlp.glm.training.train_perceptron`), which
re-exports these protocols: :class:`GLMTask`, or :class:`StepTask` for a task that makes its own training steps."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol, TypeVar

import numpy as np

from glmnlp.glm.perceptron import AveragedPerceptron

__all__ = ["GLMTask", "StepTask"]

Example = TypeVar("Example", contravariant=True)  # only taken by the task, never given back
Prediction = TypeVar("Prediction")


class GLMTask(Protocol[Example, Prediction]):
    """What a task supplies to :func:`~glmnlp.glm.training.train_perceptron`.

    ``weights`` is always the 1-D weight array over the task's feature ids (training weights while
    training, averaged weights when evaluating).
    """

    def n_features(self) -> int:
        """Number of feature ids the task may produce (the weight array is grown to this size)."""
        ...

    def decode(self, example: Example, weights: np.ndarray) -> Prediction:
        """argmax over GEN(x) of Φ(x, y)·weights."""
        ...

    def feature_difference(self, example: Example, predicted: Prediction) -> tuple[np.ndarray, np.ndarray]:
        """(ids, values) of Φ(x, gold) − Φ(x, predicted); empty arrays when predicted is correct."""
        ...

    def evaluate(self, examples: Sequence[Example], weights: np.ndarray) -> float:
        """A dev score, higher is better (e.g. accuracy)."""
        ...


class StepTask(Protocol):
    """A task that makes its own training steps (``train_step``, below): the training loop asks it for no ``decode``
    or ``feature_difference``."""

    def n_features(self) -> int:
        ...

    def train_step(self, example: Any, index: int, perceptron: AveragedPerceptron) -> bool:
        ...

    def evaluate(self, examples: Sequence[Any], weights: np.ndarray) -> float:
        ...


# Optional task methods (looked up with getattr):
#   pack(examples) -> (builder, payload): a module-level ``builder(payload) -> (task, examples)`` and
#       plain data (numpy arrays, ints, strings) from which a worker rebuilds the task and examples;
#       without it the task and examples themselves are sent to the workers.
#   train_step(example, index, perceptron) -> bool: one training step (default: decode, then update
#       by the global feature difference); returns True on a mistake. ``index`` is the example's
#       position in the whole training set. The loop ticks the perceptron.
#   epoch_stats() -> dict[str, float]: task counters of the pass just run (summed over shards).
#   dev_pack(examples) -> (builder, payload) and dev_score(examples, predictions) -> float: the dev pass
#       split over the workers (glmnlp.glm.training's docstring). ``builder(payload)`` (module-level, plain data in)
#       is a decoder for ``examples`` (a slice of dev) whose ``decode(weights)`` returns one prediction
#       per example, in order, as plain data; ``dev_score`` scores the predictions of the whole dev
#       set. ``evaluate(examples, w)`` must equal ``dev_score(examples, decoder.decode(w))``.
