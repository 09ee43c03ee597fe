"""A new GLM task on the glmnlp core: segmenting unspaced text into words.

x is a string of characters; y labels each character B (begins a word) or I (inside a word).
GEN(x) = {B, I}^n, the features are character n-gram templates conjoined with the label plus the
label bigram, and the decoder is a first-order Viterbi written right here in Python. Everything
else (perceptron, lazy averaging, shuffling, dev evaluation, best epoch) comes from glmnlp.

Run it:  python examples/glm_segmentation.py
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from glmnlp.glm.features import FeatureIndex, StringStore, Template
from glmnlp.glm.training import train_perceptron

LABELS = ("B", "I")
L = len(LABELS)
# atoms of a position: current char, previous char, next char, char bigram to the left
ATOMS = ("c[i]", "c[i-1]", "c[i+1]", "c[i-1]c[i]")
TEMPLATES = (
    Template("c[i]", (0,)),
    Template("c[i-1]", (1,)),
    Template("c[i+1]", (2,)),
    Template("c[i-1]c[i]", (3,)),
    Template("c[i-1]+c[i+1]", (1, 2)),  # a two-atom conjunction
)
N_TRANS = (L + 1) * L  # label bigram weights (previous label or start) come first


@dataclass
class Example:
    rows: np.ndarray  # (n, n_templates) feature rows, -1 = absent
    gold: np.ndarray  # (n,) label ids


class Segmenter:
    """GEN, Φ and the decoder of the segmentation task (the GLMTask protocol)."""

    def __init__(self) -> None:
        self.store = StringStore()
        self.index = FeatureIndex(TEMPLATES, n_atoms=len(ATOMS))

    def encode(self, text: str, labels: str | None, *, add: bool) -> Example:
        intern = self.store.add if add else self.store.get
        padded = "^" + text + "$"
        atoms = np.array(
            [[intern(padded[i + 1]), intern(padded[i]), intern(padded[i + 2]), intern(padded[i : i + 2])] for i in range(len(text))],
            dtype=np.int64,
        ).reshape(len(text), len(ATOMS))
        rows = self.index.rows(atoms, add=add)
        gold = np.array([LABELS.index(c) for c in labels], dtype=np.int64) if labels else np.zeros(0, dtype=np.int64)
        return Example(rows=rows, gold=gold)

    # weight id of (feature row, label) and of (previous label, label)
    def _emit_ids(self, rows: np.ndarray, label: int) -> np.ndarray:
        return N_TRANS + rows[rows >= 0] * L + label

    def n_features(self) -> int:
        return N_TRANS + len(self.index) * L

    def decode(self, example: Example, weights: np.ndarray) -> np.ndarray:
        n = example.rows.shape[0]
        emis = np.array([[weights[self._emit_ids(example.rows[i], y)].sum() for y in range(L)] for i in range(n)])
        trans = weights[:N_TRANS].reshape(L + 1, L)  # row L = start
        score = trans[L] + emis[0]
        back = np.zeros((n, L), dtype=np.int64)
        for i in range(1, n):
            cand = score[:, None] + trans[:L]  # (prev, cur)
            back[i] = cand.argmax(axis=0)
            score = cand.max(axis=0) + emis[i]
        out = np.zeros(n, dtype=np.int64)
        out[-1] = int(score.argmax())
        for i in range(n - 1, 0, -1):
            out[i - 1] = back[i, out[i]]
        return out

    def phi(self, example: Example, labels: np.ndarray) -> np.ndarray:
        """Global feature ids Φ(x, y) (with repeats)."""
        prev = np.concatenate(([L], labels[:-1]))
        ids = [prev * L + labels]
        ids += [self._emit_ids(example.rows[i], int(y)) for i, y in enumerate(labels)]
        return np.concatenate(ids)

    def feature_difference(self, example: Example, predicted: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        if np.array_equal(predicted, example.gold):
            return np.zeros(0, dtype=np.int64), np.zeros(0)
        gold_ids, pred_ids = self.phi(example, example.gold), self.phi(example, predicted)
        return np.concatenate((gold_ids, pred_ids)), np.concatenate((np.ones(len(gold_ids)), -np.ones(len(pred_ids))))

    def evaluate(self, examples: Sequence[Example], weights: np.ndarray) -> float:
        right = sum(int((self.decode(e, weights) == e.gold).sum()) for e in examples)
        return right / sum(len(e.gold) for e in examples)


def make_data(n: int, seed: int) -> list[tuple[str, str]]:
    """Unspaced 'sentences' from a toy vocabulary, with their B/I labels."""
    vocab = ["the", "cat", "sat", "on", "a", "mat", "dog", "ran", "to", "hat", "then", "at", "tea"]
    rng = random.Random(seed)
    data = []
    for _ in range(n):
        words = [rng.choice(vocab) for _ in range(rng.randint(3, 8))]
        data.append(("".join(words), "".join("B" + "I" * (len(w) - 1) for w in words)))
    return data


def run(epochs: int = 5, seed: int = 0) -> float:
    """Train on 300 toy sentences, return the dev character accuracy of the best epoch."""
    task = Segmenter()
    train = [task.encode(x, y, add=True) for x, y in make_data(300, seed=1)]
    task.index.freeze()
    dev = [task.encode(x, y, add=False) for x, y in make_data(60, seed=2)]
    result = train_perceptron(task, train, dev, epochs=epochs, seed=seed, show_progress=False)
    for record in result.history:
        print(f"epoch {record.epoch}: {record.mistakes} mistakes, dev accuracy {record.dev_score:.3f}")
    example = task.encode("thecatranthen", None, add=False)
    labels = task.decode(example, result.weights)
    print("thecatranthen ->", "".join(c if y else " " + c for c, y in zip("thecatranthen", labels)).strip())
    assert result.best_score is not None
    return result.best_score


if __name__ == "__main__":
    run()
