"""A generic perceptron training loop for any global linear model with any decoder (SPEC §g.2, §0).

The loop is the one of Collins (2002) and Collins & Roark (2004): for each pass, visit the training
examples in a (seeded) shuffled order, decode each with the current weights, and on a mistake apply
the global difference α += Φ(gold) − Φ(pred); after each pass, score the dev set with the
*averaged* weights and keep the best pass (C&R score §24 after each pass and use the best one).

A task plugs in through the small :class:`GLMTask` protocol: it owns GEN, the features and the
decoder, the loop owns the order of examples, the perceptron, evaluation and best-epoch selection.
The pieces are public so that a specialised loop (the parser's early update and cache) can reuse
them: :func:`epoch_order` (seeded shuffling), :class:`BestEpoch` (selection), :func:`progress`
(a tqdm bar on stderr, silent when stderr is not a terminal) and :class:`EpochRecord` (history).

Choices [R]: shuffling uses ``numpy.random.default_rng([seed, epoch])`` so each epoch's order is a
pure function of (seed, epoch) and a run can resume at any epoch; ties in dev score keep the
*earlier* epoch (fewer passes, same score).
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, Protocol, TypeVar

import numpy as np

from glmnlp.glm.perceptron import AveragedPerceptron

__all__ = [
    "GLMTask",
    "EpochRecord",
    "TrainingResult",
    "BestEpoch",
    "epoch_order",
    "progress",
    "train_perceptron",
]

Example = TypeVar("Example")
Prediction = TypeVar("Prediction")
T = TypeVar("T")


class GLMTask(Protocol[Example, Prediction]):
    """What a task supplies to :func:`train_perceptron`.

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


@dataclass(frozen=True)
class EpochRecord:
    """What happened in one pass over the training data."""

    epoch: int
    examples: int
    mistakes: int
    seconds: float
    dev_score: float | None


@dataclass
class TrainingResult:
    """The outcome of training: the selected averaged weights and the per-epoch history."""

    weights: np.ndarray
    best_epoch: int
    best_score: float | None
    history: list[EpochRecord] = field(default_factory=list)
    perceptron: AveragedPerceptron | None = None


def epoch_order(n_examples: int, seed: int, epoch: int, *, shuffle: bool = True) -> np.ndarray:
    """The visiting order of epoch ``epoch`` (1-based): a permutation determined by (seed, epoch)."""
    if not shuffle:
        return np.arange(n_examples, dtype=np.int64)
    rng = np.random.default_rng([int(seed), int(epoch)])
    return rng.permutation(n_examples).astype(np.int64)


class BestEpoch(Generic[T]):
    """Keeps the best (score, epoch, payload) seen so far; ties keep the earlier epoch."""

    def __init__(self) -> None:
        self.score: float | None = None
        self.epoch = 0
        self.payload: T | None = None

    def offer(self, epoch: int, score: float | None, payload: T) -> bool:
        """Record ``payload`` if ``score`` beats the best so far (None = no dev set: the latest wins)."""
        first = self.payload is None
        if first or score is None or (self.score is not None and score > self.score):
            self.score, self.epoch, self.payload = score, epoch, payload
            return True
        return False


def progress(
    iterable: Iterable[T], *, total: int | None = None, desc: str = "", enabled: bool = True
) -> Iterator[T]:
    """Wrap ``iterable`` in a tqdm progress bar on stderr (off when disabled or stderr is not a TTY)."""
    show = enabled and hasattr(sys.stderr, "isatty") and sys.stderr.isatty()
    if not show:
        yield from iterable
        return
    from tqdm import tqdm

    yield from tqdm(iterable, total=total, desc=desc, file=sys.stderr, leave=False, mininterval=0.5)


def train_perceptron(
    task: GLMTask[Any, Any],
    train: Sequence[Any],
    dev: Sequence[Any] | None = None,
    *,
    epochs: int = 10,
    seed: int = 0,
    shuffle: bool = True,
    show_progress: bool = True,
    perceptron: AveragedPerceptron | None = None,
    start_epoch: int = 1,
    on_epoch: Callable[[EpochRecord], None] | None = None,
) -> TrainingResult:
    """Train ``task`` with the averaged perceptron and return the best epoch's averaged weights.

    Parameters
    ----------
    task:
        Supplies decoding, global feature differences and evaluation (:class:`GLMTask`).
    train, dev:
        Training examples and optional dev examples (no dev: the last epoch is kept).
    epochs:
        Number of passes T (SPEC §g.2: picked on the dev set; 10 is a typical upper end for tagging).
    seed:
        Seed of the per-epoch shuffling (:func:`epoch_order`).
    perceptron:
        An existing perceptron to continue training (e.g. from ``from_state_arrays``); its epoch
        numbering continues at ``start_epoch``.
    on_epoch:
        Called with each :class:`EpochRecord` (e.g. to log to stderr).
    """
    if epochs < 1:
        raise ValueError("epochs must be >= 1")
    model = perceptron if perceptron is not None else AveragedPerceptron(task.n_features())
    model.grow(task.n_features())
    best: BestEpoch[np.ndarray] = BestEpoch()
    history: list[EpochRecord] = []
    for epoch in range(start_epoch, start_epoch + epochs):
        started = time.perf_counter()
        mistakes = 0
        order = epoch_order(len(train), seed, epoch, shuffle=shuffle)
        for i in progress(order.tolist(), total=len(train), desc=f"epoch {epoch}", enabled=show_progress):
            example = train[i]
            predicted = task.decode(example, model.weights)
            ids, values = task.feature_difference(example, predicted)
            if len(ids):
                mistakes += 1
                model.update(ids, values)
            model.tick()
        seconds = time.perf_counter() - started
        averaged = model.averaged()
        score = task.evaluate(dev, averaged) if dev is not None and len(dev) else None
        record = EpochRecord(epoch=epoch, examples=len(train), mistakes=mistakes, seconds=seconds, dev_score=score)
        history.append(record)
        best.offer(epoch, score, averaged)
        if on_epoch is not None:
            on_epoch(record)
    assert best.payload is not None
    return TrainingResult(
        weights=best.payload, best_epoch=best.epoch, best_score=best.score, history=history, perceptron=model
    )
