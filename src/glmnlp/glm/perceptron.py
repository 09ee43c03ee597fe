"""The averaged structured perceptron over integer feature ids (Collins 2002; C&R 2004 §2.2).

A global linear model scores a structure y for input x as Φ(x, y)·α, where Φ is a sparse vector of
feature counts and α a weight vector (C&R 2004 §2.1). Training (C&R 2004 §2.2, Figure 1) decodes each
example with the current α and, on a mistake, applies the *global* difference α += Φ(x, gold) − Φ(x, pred).
At test time the averaged weights are used::

    ᾱ = Σ_{t,i} α^{t,i} / (N·T)

where α^{t,i} is the weight vector after example i of pass t. Every example counts once, whether it
caused an update or not; callers mark the end of each example with :meth:`AveragedPerceptron.tick`.

Implementation:

* Weights are one 1-D ``float64`` numpy array indexed by integer feature id; a task maps its
  (template, atoms, class) conjunctions to ids (:mod:`glmnlp.glm.features`). The array grows (capacity
  doubles) when larger ids arrive, so a task may allocate ids while training.
* **Lazy (timestamp) averaging** (our choice), as in NLTK and bracket_eager but tested against the naive
  definition: per weight we keep ``totals[f]`` (Σ of its past values up to ``stamps[f]``) and
  ``stamps[f]`` (the example count at its last change). An update touches only the ids it changes,
  so a step costs O(|update|), not O(d). The kernels live in ``_scoring.pyx``.
* :meth:`averaged` returns a **new** array; the training weights are never overwritten (NLTK's
  ``average_weights`` and thinc's ``end_training`` average in place), so training can resume after an
  evaluation or after :meth:`from_state_arrays`.
"""

from __future__ import annotations

import numpy as np

from glmnlp.glm._scoring import perceptron_average, perceptron_update

__all__ = ["AveragedPerceptron", "MAX_FEATURES"]

#: The most weights a perceptron grows to (2**34, 128 GiB of float64): a larger feature id is a bug, not a model.
MAX_FEATURES = 2**34


class AveragedPerceptron:
    """Weights, averaging state and the perceptron update of a global linear model.

    Parameters
    ----------
    n_features:
        Initial number of feature ids (weights start at zero). More are added on demand by
        :meth:`update` and :meth:`grow`.
    """

    def __init__(self, n_features: int = 0) -> None:
        if n_features < 0:
            raise ValueError("n_features must be >= 0")
        self._size = int(n_features)
        capacity = max(self._size, 16)
        self._weights = np.zeros(capacity, dtype=np.float64)
        self._totals = np.zeros(capacity, dtype=np.float64)
        self._stamps = np.zeros(capacity, dtype=np.int64)
        self.n_examples = 0  # examples completed (ticks)
        self.n_updates = 0  # calls of update() with a non-empty difference
        self._changed: list[np.ndarray] = []  # ids passed to update() since the last take_changed()

    # -- size ---------------------------------------------------------------------------------
    @property
    def n_features(self) -> int:
        """Number of feature ids currently addressable (weights ``0 .. n_features-1``)."""
        return self._size

    def grow(self, n_features: int) -> None:
        """Make ids ``0 .. n_features-1`` addressable (new weights are zero). Never shrinks."""
        if n_features <= self._size:
            return
        if n_features > self._weights.shape[0]:
            capacity = max(n_features, 2 * self._weights.shape[0])
            for name in ("_weights", "_totals", "_stamps"):
                old = getattr(self, name)
                new = np.zeros(capacity, dtype=old.dtype)
                new[: old.shape[0]] = old
                setattr(self, name, new)
        # a new weight has been 0 since the start: its totals are 0 whatever its stamp says
        self._size = n_features

    # -- learning -----------------------------------------------------------------------------
    @property
    def weights(self) -> np.ndarray:
        """The current (training, non-averaged) weights: a read-only view of length n_features."""
        view = self._weights[: self._size]
        view.flags.writeable = False
        return view

    def update(self, feature_ids: np.ndarray, values: np.ndarray) -> None:
        """Add ``values[j]`` to the weight of ``feature_ids[j]`` for every j (repeats accumulate).

        For a perceptron step pass the ids of Φ(gold) with +1 and those of Φ(pred) with −1; shared
        features cancel. Ids beyond the current size grow the weight array.
        """
        ids, vals = self._ids_values(feature_ids, values)
        if ids.shape[0] == 0:
            return
        perceptron_update(self._weights, self._totals, self._stamps, ids, vals, self.n_examples)
        self._changed.append(ids)
        self.n_updates += 1

    def _ids_values(self, feature_ids: np.ndarray, values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Checked int64 ids and float64 values of :meth:`update` / :meth:`assign`; grows the arrays to fit."""
        given = np.asarray(feature_ids)
        if given.size and given.dtype.kind not in "iu":  # 1.7 was read as feature 1
            raise ValueError(f"feature ids must be integers, got an array of {given.dtype}")
        ids = np.ascontiguousarray(given, dtype=np.int64)
        vals = np.ascontiguousarray(values, dtype=np.float64)
        if ids.ndim != 1 or ids.shape != vals.shape:
            raise ValueError("feature_ids and values must be 1-D arrays of the same length")
        if ids.shape[0]:
            low, high = int(ids.min()), int(ids.max())
            if low < 0:
                raise ValueError(f"negative feature id {low}")
            if not np.isfinite(vals).all():  # one NaN made every later average NaN, silently
                raise ValueError("a feature value is NaN or infinite")
            if high >= MAX_FEATURES:  # a hashing or numbering bug: the table would take terabytes
                raise ValueError(f"feature id {high}: more than {MAX_FEATURES:,} weights (a table of "
                                 f"{8 * (high + 1) / 2**30:,.0f} GiB)")
            if high >= self._size:
                self.grow(high + 1)
        return ids, vals

    # -- parameter mixing (glmnlp.glm.training) -------------------------------------------------------
    def take_changed(self) -> np.ndarray:
        """Sorted unique ids updated since the previous call (the sparse support of a shard's pass)."""
        ids = np.unique(np.concatenate(self._changed)) if self._changed else np.zeros(0, dtype=np.int64)
        self._changed = []
        return ids

    def assign(self, feature_ids: np.ndarray, values: np.ndarray) -> None:
        """Set ``weights[feature_ids] = values`` (the mixed weights of iterative parameter mixing).

        The averaging state stays exact: before a weight changes, the sum of its past values is
        brought up to date (as in :meth:`update`). Weights already equal to their new value are not
        touched at all, so assigning a perceptron its own weights changes no bit of its state.
        """
        ids, vals = self._ids_values(feature_ids, values)
        if ids.shape[0] == 0:
            return
        differ = self._weights[ids] != vals
        ids, vals = ids[differ], vals[differ]
        now = self.n_examples
        self._totals[ids] += (now - self._stamps[ids]) * self._weights[ids]
        self._stamps[ids] = now
        self._weights[ids] = vals

    def average_sum_sparse(self) -> tuple[np.ndarray, np.ndarray]:
        """(ids, values) of the non-zero entries of :meth:`average_sum` (what a shard sends back)."""
        total = self.average_sum()
        ids = np.flatnonzero(total)
        return ids, total[ids]

    def average_sum(self) -> np.ndarray:
        """A new array: the sum of the weight vectors after each completed example (ᾱ·n_examples)."""
        size = self._size
        return self._totals[:size] + (self.n_examples - self._stamps[:size]) * self._weights[:size]

    def tick(self, n: int = 1) -> None:
        """Mark the end of ``n`` training examples (each counts once in the average)."""
        if n < 0:
            raise ValueError("n must be >= 0")
        self.n_examples += n

    def score(self, feature_ids: np.ndarray, *, averaged: np.ndarray | None = None) -> float:
        """Σ_j w[feature_ids[j]] with the training weights (or the given ``averaged`` array)."""
        ids = np.asarray(feature_ids, dtype=np.int64)
        table = self._weights[: self._size] if averaged is None else averaged
        return float(table[ids].sum())

    def averaged(self) -> np.ndarray:
        """Return a new array ᾱ = mean of the weight vectors after each completed example.

        With no completed example yet, returns a copy of the current weights.
        """
        out = np.empty(self._size, dtype=np.float64)
        if self.n_examples == 0:
            out[:] = self._weights[: self._size]
            return out
        perceptron_average(
            self._weights[: self._size], self._totals[: self._size], self._stamps[: self._size], self.n_examples, out
        )
        return out

    # -- state ----------------------------------------------------------------------------------
    def state_arrays(self) -> dict[str, np.ndarray]:
        """Arrays that capture the full training state (for saving a resumable checkpoint)."""
        return {
            "perceptron_weights": self._weights[: self._size].copy(),
            "perceptron_totals": self._totals[: self._size].copy(),
            "perceptron_stamps": self._stamps[: self._size].copy(),
            "perceptron_counters": np.array([self.n_examples, self.n_updates], dtype=np.int64),
        }

    @classmethod
    def from_state_arrays(cls, arrays: dict[str, np.ndarray]) -> AveragedPerceptron:
        """Rebuild a perceptron saved with :meth:`state_arrays`; training resumes exactly."""
        weights = np.asarray(arrays["perceptron_weights"], dtype=np.float64)
        totals = np.asarray(arrays["perceptron_totals"], dtype=np.float64)
        stamps = np.asarray(arrays["perceptron_stamps"], dtype=np.int64)
        counters = np.asarray(arrays["perceptron_counters"], dtype=np.int64)
        if not (weights.ndim == 1 and weights.shape == totals.shape == stamps.shape and counters.shape == (2,)):
            raise ValueError("inconsistent perceptron state arrays")
        model = cls(weights.shape[0])
        model._weights[: weights.shape[0]] = weights
        model._totals[: weights.shape[0]] = totals
        model._stamps[: weights.shape[0]] = stamps
        model.n_examples = int(counters[0])
        model.n_updates = int(counters[1])
        return model
