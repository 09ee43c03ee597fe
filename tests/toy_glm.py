"""A toy GLM task shared by the training-loop tests (serial and parameter mixing)."""

from __future__ import annotations

import numpy as np


class ParityTask:
    """Toy GLM: label each bit string with its first bit; features are (position, bit, label)."""

    def n_features(self) -> int:
        return 5 * 2 * 2

    def _phi(self, x: tuple[int, ...], y: int) -> np.ndarray:
        return np.array([(i * 2 + b) * 2 + y for i, b in enumerate(x)], dtype=np.int64)

    def decode(self, example: tuple[tuple[int, ...], int], weights: np.ndarray) -> int:
        x, _ = example
        scores = [weights[self._phi(x, y)].sum() for y in (0, 1)]
        return int(np.argmax(scores))

    def feature_difference(self, example: tuple[tuple[int, ...], int], predicted: int) -> tuple[np.ndarray, np.ndarray]:
        x, gold = example
        if predicted == gold:
            return np.zeros(0, dtype=np.int64), np.zeros(0)
        ids = np.concatenate((self._phi(x, gold), self._phi(x, predicted)))
        return ids, np.concatenate((np.ones(len(x)), -np.ones(len(x))))

    def evaluate(self, examples, weights: np.ndarray) -> float:  # type: ignore[no-untyped-def]
        return float(np.mean([self.decode(e, weights) == e[1] for e in examples]))
