"""Scores of a trained tagger against gold tags: accuracy with its known/unknown split and confusions
(:meth:`glmnlp.tagger.model.Tagger.evaluate`, ``glmnlp tagger evaluate``), and the multi-tag oracle at each margin
(:meth:`~glmnlp.tagger.model.Tagger.multitag_scores`, ``--margin``). The records: :mod:`glmnlp.tagger.task`."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np

from glmnlp.errors import ConfigError, InputError
from glmnlp.tagger.task import MultitagScore, TaggingScore
from glmnlp.treebank.formats import TaggedSentence

__all__ = ["multitag_scores", "tagging_score"]


def tagging_score(tagger: Any, sentences: Sequence[TaggedSentence], top_confusions: int = 10) -> TaggingScore:
    """Accuracy of ``tagger.tag`` against the gold tags of ``sentences`` (known/unknown split)."""
    sentences = list(sentences)
    if not all(isinstance(s, TaggedSentence) for s in sentences):  # as fit says it (trees failed inside)
        raise TypeError("expected a sequence of TaggedSentence records (formats.read_tagged reads them from a "
                        "file; a Tree's words and tags are TaggedSentence(tuple(t.leaves()), tuple(t.tags())))")
    sentences = [s for s in sentences if len(s)]
    for s in sentences:
        if s.tags is None:
            raise ConfigError("evaluation sentences must be tagged")
    if not sentences:  # as `glmnlp tagger evaluate` says it: 0% of no words read as a measured accuracy
        raise InputError("empty input: no tagged sentence to evaluate", source="<evaluation sentences>")
    enc, out = tagger.tag_ids([s.words for s in sentences])
    predicted = [tagger.tags_[t] for t in out.tolist()]
    gold = [t for s in sentences for t in s.tags or ()]
    right = np.array([p == g for p, g in zip(predicted, gold, strict=True)], dtype=bool)
    confusions = Counter((g, p) for g, p in zip(gold, predicted, strict=True) if g != p)
    return TaggingScore(
        tokens=len(gold),
        correct=int(right.sum()),
        known_tokens=int(enc.known.sum()),
        known_correct=int((right & enc.known).sum()),
        confusions=tuple((g, p, c) for (g, p), c in confusions.most_common(top_confusions)),
    )


def multitag_scores(tagger: Any, sentences: Sequence[TaggedSentence], margins: Iterable[float]) -> list[MultitagScore]:
    """Tags per word and oracle accuracy (gold tag among the multitags) at each margin."""
    margins = list(margins)
    counts = np.zeros(len(margins))
    hits = np.zeros(len(margins))
    tokens = 0
    for s in sentences:
        if not len(s) or s.tags is None:
            continue
        mm = tagger.max_marginals(s.words)
        best = mm.max(axis=1, keepdims=True)
        gold = np.array([tagger.tag_id(t) for t in s.tags])
        gold_mm = np.where(gold >= 0, mm[np.arange(len(s)), np.maximum(gold, 0)], -np.inf)
        tokens += len(s)
        for k, m in enumerate(margins):
            # a tag without a full sequence (ruled out by the tag dictionary, or a gold tag the tagger does not
            # have) is never among the tags: -inf >= best - inf held at margin inf, and every tag was counted
            counts[k] += int(((mm >= best - m) & (mm > -np.inf)).sum())
            hits[k] += int(((gold >= 0) & (gold_mm >= best[:, 0] - m) & (gold_mm > -np.inf)).sum())
    if not tokens:  # an oracle accuracy of 0% over no words read as a measured one
        raise InputError("empty input: no tagged sentence to evaluate", source="<evaluation sentences>")
    return [
        MultitagScore(
            margin=float(m),
            tokens=tokens,
            tags_per_word=float(counts[k] / max(tokens, 1)),
            oracle_accuracy=float(hits[k] / max(tokens, 1)),
        )
        for k, m in enumerate(margins)
    ]
