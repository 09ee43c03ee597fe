"""The tagger as a GLM task (Collins 2002 §2-§3): encoded sentences, the task object the
generic perceptron loop of :mod:`glmnlp.glm.training` drives (decode with Viterbi, the feature
difference of a mistake, dev accuracy, shards for parallel training), and evaluation records.

It works on the arrays the :class:`~glmnlp.tagger.model.Tagger` encodes; it never imports the
tagger, so a worker process rebuilds a shard from plain arrays (:func:`unpack_shard`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from glmnlp.glm._scoring import score_rows
from glmnlp.tagger._viterbi import viterbi
from glmnlp.tagger.features import N_ATOMS

__all__ = ["Encoded", "Example", "MultitagScore", "TaggingScore", "TaggingTask", "split_examples", "unpack_shard"]


@dataclass(frozen=True)
class TaggingScore:
    """Token accuracy, split by known (seen in training) and unknown words, plus confusions."""

    tokens: int
    correct: int
    known_tokens: int
    known_correct: int
    confusions: tuple[tuple[str, str, int], ...] = ()  # (gold, predicted, count), most frequent first

    @property
    def accuracy(self) -> float:
        return self.correct / self.tokens if self.tokens else 0.0

    @property
    def known_accuracy(self) -> float:
        return self.known_correct / self.known_tokens if self.known_tokens else 0.0

    @property
    def unknown_tokens(self) -> int:
        return self.tokens - self.known_tokens

    @property
    def unknown_accuracy(self) -> float:
        unknown = self.unknown_tokens
        return (self.correct - self.known_correct) / unknown if unknown else 0.0


@dataclass(frozen=True)
class MultitagScore:
    """Multi-tagging at one margin: average tags per word and oracle accuracy (gold among the tags)."""

    margin: float
    tokens: int
    tags_per_word: float
    oracle_accuracy: float


@dataclass
class Encoded:
    """A batch of sentences turned into arrays: feature rows, candidate masks, offsets."""

    rows: np.ndarray  # (N, N_ATOMS) absolute weight rows, -1 = absent
    pair: np.ndarray  # (N, J) first rows of previous-tag feature blocks, -1 = absent
    mask: np.ndarray  # (N, T) uint8 candidate tags
    known: np.ndarray  # (N,) bool: word seen in training
    offsets: np.ndarray  # (S + 1,) sentence boundaries
    gold: np.ndarray | None = None  # (N,) int64 tag ids


@dataclass
class Example:
    rows: np.ndarray
    pair: np.ndarray
    mask: np.ndarray
    gold: np.ndarray


class TaggingTask:
    """The tagger as a :class:`~glmnlp.glm.training.GLMTask`: examples are encoded sentences."""

    def __init__(self, n_tags: int, n_rows: int) -> None:
        self.T = n_tags
        self.n_rows = n_rows
        self.bi0 = 0
        self.tri0 = n_tags + 1

    def n_features(self) -> int:
        return self.n_rows * self.T

    def _table(self, weights: np.ndarray) -> np.ndarray:
        return weights.reshape(-1, self.T)

    def decode(self, example: Example, weights: np.ndarray) -> np.ndarray:
        table = self._table(weights)
        n = example.rows.shape[0]
        emis = np.empty((n, self.T), dtype=np.float64)
        score_rows(table, example.rows, emis)
        out = np.empty(n, dtype=np.int64)
        viterbi(emis, table, self.bi0, self.tri0, example.mask, out, pair=example.pair)
        return out

    def feature_difference(self, example: Example, predicted: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        gold = example.gold
        T, T1 = self.T, self.T + 1
        ids: list[np.ndarray] = []
        vals: list[np.ndarray] = []
        wrong = gold != predicted
        if not wrong.any():
            return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.float64)
        rows = example.rows[wrong]
        valid = rows >= 0
        for tags, sign in ((gold, 1.0), (predicted, -1.0)):
            emitted = (rows * T + tags[wrong][:, None])[valid]
            ids.append(emitted)
            vals.append(np.full(emitted.shape[0], sign))
        start = np.array([T, T], dtype=np.int64)
        g = np.concatenate((start, gold))
        p = np.concatenate((start, predicted))
        changed = (g[2:] != p[2:]) | (g[1:-1] != p[1:-1]) | (g[:-2] != p[:-2])
        for seq, sign in ((g, 1.0), (p, -1.0)):
            t2, t1, t0 = seq[:-2][changed], seq[1:-1][changed], seq[2:][changed]
            ids.append((self.bi0 + t1) * T + t0)
            ids.append((self.tri0 + t2 * T1 + t1) * T + t0)
            vals.append(np.full(2 * t0.shape[0], sign))
        if example.pair.shape[1]:
            bigram_changed = (g[2:] != p[2:]) | (g[1:-1] != p[1:-1])
            blocks = example.pair[bigram_changed]
            valid = blocks >= 0
            for seq, sign in ((g, 1.0), (p, -1.0)):
                u, v = seq[1:-1][bigram_changed], seq[2:][bigram_changed]
                pair_ids = ((blocks + u[:, None]) * T + v[:, None])[valid]
                ids.append(pair_ids)
                vals.append(np.full(pair_ids.shape[0], sign))
        return np.concatenate(ids), np.concatenate(vals)

    def pack(self, examples: Sequence[Example]) -> tuple[Callable[[dict[str, Any]], Any], dict[str, Any]]:
        """The task and ``examples`` as plain arrays, for a training worker (:func:`unpack_shard`)."""
        lengths = np.array([e.rows.shape[0] for e in examples], dtype=np.int64)
        offsets = np.zeros(len(examples) + 1, dtype=np.int64)
        np.cumsum(lengths, out=offsets[1:])
        width = examples[0].pair.shape[1] if examples else 0
        payload = {
            "n_tags": self.T,
            "n_rows": self.n_rows,
            "offsets": offsets,
            "rows": np.concatenate([e.rows for e in examples]) if examples else np.zeros((0, N_ATOMS), np.int64),
            "pair": np.concatenate([e.pair for e in examples]) if examples else np.zeros((0, width), np.int64),
            "mask": np.concatenate([e.mask for e in examples]) if examples else np.zeros((0, self.T), np.uint8),
            "gold": np.concatenate([e.gold for e in examples]) if examples else np.zeros(0, np.int64),
        }
        return unpack_shard, payload

    def evaluate(self, examples: Sequence[Example], weights: np.ndarray) -> float:
        correct = total = 0
        for example in examples:
            predicted = self.decode(example, weights)
            correct += int((predicted == example.gold).sum())
            total += predicted.shape[0]
        return correct / total if total else 0.0


def unpack_shard(payload: dict[str, Any]) -> tuple[TaggingTask, list[Example]]:
    """Rebuild a training shard from :meth:`TaggingTask.pack` (runs on a worker)."""
    task = TaggingTask(int(payload["n_tags"]), int(payload["n_rows"]))
    offsets = payload["offsets"].tolist()
    rows, pair, mask, gold = payload["rows"], payload["pair"], payload["mask"], payload["gold"]
    examples = [
        Example(rows=rows[a:b], pair=pair[a:b], mask=mask[a:b], gold=gold[a:b])
        for a, b in zip(offsets[:-1], offsets[1:], strict=True)
    ]
    return task, examples


def split_examples(enc: Encoded) -> list[Example]:
    assert enc.gold is not None
    offsets = enc.offsets.tolist()
    return [
        Example(rows=enc.rows[a:b], pair=enc.pair[a:b], mask=enc.mask[a:b], gold=enc.gold[a:b])
        for a, b in zip(offsets[:-1], offsets[1:], strict=True)
        if b > a
    ]
