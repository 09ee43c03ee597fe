"""Tagger tags for the parser's training trees by k-fold jackknifing (C&R 2004 §5, footnote 3).

A parser that parses tagger output should be trained on tagger output of the same quality, not on the
treebank's gold tags; tagging the training trees with a tagger trained on them would give tags better
than the parser will see. So the trees are split into k folds and each fold is tagged by a glmnlp
tagger trained on the other k - 1. The folds are independent work items on the executor of
:mod:`glmnlp.glm.parallel` (one tagger trained per fold, in the process the fold runs in), with the
same tags whatever the number of workers (``tests/test_parallel.py``).
"""

from __future__ import annotations

from collections.abc import Sequence

from glmnlp.errors import ConfigError
from glmnlp.glm.parallel import Executor, resolve_executor
from glmnlp.tagger.model import Tagger, TaggerConfig
from glmnlp.treebank.formats import TaggedSentence
from glmnlp.treebank.trees import Tree

__all__ = ["fold_count", "jackknife_tags"]


def _jackknife_fold(item: tuple[list[tuple[str, ...]], list[tuple[str, ...]], int, int, int, int]) -> list[list[str]]:
    """Tags of fold ``f`` by a tagger trained on the other folds (one work item of :func:`jackknife_tags`)."""
    words, tags, folds, f, epochs, seed = item
    rest = [TaggedSentence(w, t) for i, (w, t) in enumerate(zip(words, tags)) if i % folds != f]
    # the fold is the unit of parallel work: its tagger trains in the process the fold runs in
    tagger = Tagger(TaggerConfig(epochs=epochs, seed=seed)).fit(rest, None, show_progress=False, jobs=1)
    return tagger.tag_sentences([words[i] for i in range(f, len(words), folds)])


def fold_count(n_trees: int, folds: int = 10) -> int:
    """The folds :func:`jackknife_tags` makes of ``n_trees`` trees: ``folds``, or one a tree for fewer trees; fewer
    than 2 of either is a :class:`ConfigError`."""
    if isinstance(folds, bool) or not isinstance(folds, int) or folds < 2:
        raise ConfigError(f"jackknifing needs at least 2 folds, got {folds!r}")
    if n_trees < 2:
        raise ConfigError(f"jackknifing tags needs at least 2 training trees (one tagged by a tagger trained on the "
                          f"others), got {n_trees}")
    return min(folds, n_trees)


def jackknife_tags(
    trees: Sequence[Tree], folds: int = 10, *, epochs: int = 5, seed: int = 0,
    executor: Executor | None = None,
) -> list[list[str]]:
    """Tagger tags for training trees by ``folds``-fold jackknifing (paper §5, footnote 3).

    Fold f (every tree whose index is f modulo ``folds``) is tagged by a glmnlp tagger trained on
    the other folds, so no sentence is tagged by a model that saw it. The folds are independent:
    they run on ``executor`` (:mod:`glmnlp.glm.parallel`; unset: one made from :mod:`glmnlp.config`,
    by default every core), with the same result. Fewer trees than ``folds`` make one fold a tree (the folds past
    them held no tree and trained a tagger on all of them for nothing); one tree cannot be jackknifed (ConfigError).
    """
    folds = fold_count(len(trees), folds)
    words = [tuple(t.leaves()) for t in trees]
    tags = [tuple(t.tags()) for t in trees]
    own = executor is None
    ex = resolve_executor(executor)
    out: list[list[str]] = [[] for _ in trees]
    items = [(words, tags, folds, f, epochs, seed) for f in range(folds)]
    try:
        for f, tagged in enumerate(ex.imap(_jackknife_fold, items)):
            for i, t in zip(range(f, len(words), folds), tagged):
                out[i] = list(t)
    finally:
        if own:
            ex.close()
    return out
