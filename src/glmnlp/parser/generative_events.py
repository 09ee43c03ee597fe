"""Training events of the generative model (glmnlp.parser.generative): what
:func:`glmnlp.parser.generative_training.train_generative` counts.

An event is (model, outcome, context, sentence id, depth); contexts follow the model's conditioning
order (as in Roark's parser) and are counted at levels 0..depth. Memory (the part of training that grows with
the events): model, outcome, sentence and depth are int32, the contexts one int64 (events x width)
block (word atoms are 62-bit hashes, so they stay 64-bit): 96 bytes an event, 94 MB for the 984,114
events of the 13,620-tree proxy treebank. Chunks added with ``extend`` are merged into one block by
:meth:`EventSet.arrays`, which then keeps only that block; ``extend(..., copy=False)`` adopts a
caller's full-width contexts array instead of copying it.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from numpy.typing import NDArray

from glmnlp.errors import ConfigError
from glmnlp.parser.generative import IntArray, ModelSpec

__all__ = ["EventSet"]

SmallArray = NDArray[np.int32]
_INT32_MAX = (1 << 31) - 1


class EventSet:
    """Training events of a model family, grouped by sentence id (>= 0).

    ``add`` takes the full context (exactly ``context_length`` ids, 0 for NULL) and an optional
    ``depth``: the event is counted at levels 0..depth only (default: all levels).

    Storage: model, outcome, sentence and depth as int32, contexts as int64 (word atoms are 62-bit
    hashes), one (events x width) block; :meth:`arrays` concatenates the added chunks into that one
    block and keeps only it (no second copy).
    """

    def __init__(self, specs: Sequence[ModelSpec]) -> None:
        if not specs:
            raise ConfigError("EventSet needs at least one ModelSpec")
        self.specs: tuple[ModelSpec, ...] = tuple(specs)
        self.width = max(spec.context_length for spec in self.specs)
        self._rows: list[tuple[int, int, int, int, tuple[int, ...]]] = []
        self._chunks: list[tuple[SmallArray, SmallArray, SmallArray, SmallArray, IntArray]] = []

    def __len__(self) -> int:
        return len(self._rows) + sum(len(chunk[0]) for chunk in self._chunks)

    def add(self, model: int, outcome: int, context: Sequence[int], sentence: int, depth: int | None = None) -> None:
        """Add one event; raises ValueError naming the offending field."""
        spec = self._spec(model)
        if not 1 <= outcome < spec.n_outcomes:
            raise ValueError(f"model {spec.name!r}: outcome {outcome} outside [1, {spec.n_outcomes})")
        if len(context) != spec.context_length:
            raise ValueError(f"model {spec.name!r}: context has {len(context)} ids, expected {spec.context_length}")
        if any(value < 0 for value in context):
            raise ValueError(f"model {spec.name!r}: negative context id in {tuple(context)}")
        if not 0 <= sentence <= _INT32_MAX:
            raise ValueError(f"sentence id must lie in [0, {_INT32_MAX}], got {sentence}")
        if depth is None:
            depth = spec.context_length
        if not 0 <= depth <= spec.context_length:
            raise ValueError(f"model {spec.name!r}: depth {depth} outside [0, {spec.context_length}]")
        padded = tuple(int(v) for v in context) + (0,) * (self.width - spec.context_length)
        self._rows.append((int(model), int(outcome), int(sentence), int(depth), padded))

    def extend(
        self,
        model: int,
        outcomes: Sequence[int] | IntArray,
        contexts: Sequence[Sequence[int]] | IntArray,
        sentences: Sequence[int] | IntArray,
        depths: Sequence[int] | IntArray | None = None,
        *,
        copy: bool = True,
    ) -> None:
        """Add many events of one model at once (arrays of equal length; contexts is 2-D).

        ``copy=False``: an int64 ``contexts`` array as wide as the set is kept as it is (the caller
        hands it over and must not change it), instead of being copied.
        """
        spec = self._spec(model)
        y = np.asarray(outcomes, dtype=np.int64).reshape(-1)
        c = np.asarray(contexts, dtype=np.int64).reshape(len(y), spec.context_length)
        s = np.asarray(sentences, dtype=np.int64).reshape(-1)
        d = (
            np.full(len(y), spec.context_length, dtype=np.int64)
            if depths is None
            else np.asarray(depths, dtype=np.int64).reshape(-1)
        )
        if not len(y) == len(s) == len(d):
            raise ValueError("outcomes, contexts, sentences and depths differ in length")
        if len(y) and (y.min() < 1 or y.max() >= spec.n_outcomes):
            raise ValueError(f"model {spec.name!r}: outcome outside [1, {spec.n_outcomes})")
        if c.size and c.min() < 0:
            raise ValueError(f"model {spec.name!r}: negative context id")
        if len(s) and (s.min() < 0 or s.max() > _INT32_MAX):
            raise ValueError(f"sentence ids must lie in [0, {_INT32_MAX}]")
        if len(d) and (d.min() < 0 or d.max() > spec.context_length):
            raise ValueError(f"model {spec.name!r}: depth outside [0, {spec.context_length}]")
        self._flush_rows()
        if not copy and spec.context_length == self.width and c.flags.c_contiguous:
            padded = c
        else:
            padded = np.zeros((len(y), self.width), dtype=np.int64)
            padded[:, : spec.context_length] = c
        self._chunks.append(
            (np.full(len(y), model, dtype=np.int32), y.astype(np.int32), s.astype(np.int32), d.astype(np.int32), padded)
        )

    def arrays(self) -> tuple[SmallArray, SmallArray, SmallArray, SmallArray, IntArray]:
        """(models, outcomes, sentences, depths, contexts[E, width]) in insertion order; int32 but
        contexts (int64). The set then holds exactly these arrays (its chunks are merged into them)."""
        self._flush_rows()
        if not self._chunks:
            empty = np.zeros(0, dtype=np.int32)
            return empty, empty, empty, empty, np.zeros((0, self.width), dtype=np.int64)
        if len(self._chunks) > 1:
            parts, self._chunks = self._chunks, []
            merged = tuple(np.concatenate([p[i] for p in parts]) for i in range(5))
            del parts
            self._chunks = [merged]  # type: ignore[list-item]
        return self._chunks[0]

    def subset(self, sentence_ids: Sequence[int] | IntArray) -> EventSet:
        """The events whose sentence id is in ``sentence_ids``."""
        m, y, s, d, c = self.arrays()
        keep = np.isin(s, np.asarray(sentence_ids, dtype=np.int64))
        out = EventSet(self.specs)
        out._chunks.append((m[keep], y[keep], s[keep], d[keep], c[keep]))
        return out

    def _flush_rows(self) -> None:
        """Move the events added one by one into a chunk (insertion order is kept)."""
        if not self._rows:
            return
        rows, self._rows = self._rows, []
        self._chunks.append(
            (
                np.array([r[0] for r in rows], dtype=np.int32),
                np.array([r[1] for r in rows], dtype=np.int32),
                np.array([r[2] for r in rows], dtype=np.int32),
                np.array([r[3] for r in rows], dtype=np.int32),
                np.array([r[4] for r in rows], dtype=np.int64).reshape(len(rows), self.width),
            )
        )

    def _spec(self, model: int) -> ModelSpec:
        if not 0 <= model < len(self.specs):
            raise ValueError(f"model id {model} outside [0, {len(self.specs)})")
        return self.specs[model]
