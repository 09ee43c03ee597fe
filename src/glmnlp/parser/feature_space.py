"""The size of the parser's weight table, chosen from the training data with a collision bound.

The parser hashes each feature (template + atoms) to 64 bits and keeps the low ``n_bits`` as its weight
slot (:mod:`glmnlp.parser.model`); features whose low bits agree share one weight. How many do depends on
the training set: distinct gold-derivation features grow as N^0.72 with the number of trees (1,000 to
13,620 trees of the proxy treebank), so a fixed table fills as the treebank grows. This module counts
the training set's distinct gold features (exactly: at 62 bits) and picks the smallest table in which at
most a given share of them sits in a slot with another, for ``glmnlp parser train --feature-bits auto``.

Deviations and measurements (benchmarks/results/feature_collisions.md):

* The bound is on the **gold-derivation features**, which can be counted before training; a trained
  model's non-zero weights also include features met only on wrong candidates (1.47x as many on the proxy
  treebank at 27 bits: 1.31 M against 0.89 M). With random hashing their share sharing a slot is about
  1 - exp(-n / 2**bits): 0.97% for the proxy's 1.31 M at 27 bits, where the gold features' is 0.66%.
* **The default stays 2**22**, not ``auto``. On the proxy treebank (13,620 trees) 19.07% of the gold
  features share a slot at 22 bits and 0.66% at 27, the smallest table with at most 1%; the 27-bit parser
  scores GUM dev 84.15 at its chosen beam against 83.94 (the spread of training noise: 20 to 26 bits
  gave 83.34-83.67 at the training beam, with no trend), trains in 5 min 7 s against 3 min 38 s with
  11.9 GB of memory in use at the peak against 1.7 GB (2 workers: about 24 bytes a slot in each and 45 in
  the main process; 21.6 GB before the trainer stopped keeping dense copies of the averaged weights, see
  glmnlp.glm.training), and parses with 1.3 GB resident against 0.21 GB and 16-26% fewer sentences/s. A
  treebank of 40,000 trees extrapolates to about 1.9 M gold features, so ``auto`` would pick 28 bits there
  (0.7%), twice the memory again (about 25 GB to train with 2 workers).
* The range is 2**16 to 2**28 (:data:`~glmnlp.parser.config.MAX_N_BITS`): ``auto`` may also pick a table
  smaller than the default for a small treebank (about 15 k gold features for 50 trees: 2**21).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

import numpy as np

from glmnlp.parser.config import MAX_N_BITS, ParserConfig
from glmnlp.parser.training import prepare_training
from glmnlp.treebank.trees import Tree

__all__ = ["MIN_BITS", "FeatureBits", "choose_bits", "gold_feature_keys", "sharing_share", "feature_bits_for"]

#: The smallest table ``--feature-bits`` takes or ``auto`` picks (64 k slots).
MIN_BITS = 16

_KEY_BITS = 62  # the feature hashes reduced to 62 bits: distinct features practically never agree on all


@dataclass(frozen=True)
class FeatureBits:
    """What :func:`feature_bits_for` chose: the table size and what it was chosen from."""

    bits: int  #: the chosen ``n_bits``
    gold_features: int  #: distinct gold-derivation features of the training set
    sharing: float  #: share of them (0-1) in a slot with another, at ``bits``
    bound: float  #: the share asked for
    met: bool  #: whether ``sharing <= bound`` (False only when even 2**28 slots do not reach it)


def gold_feature_keys(train_trees: Sequence[Tree], config: ParserConfig,
                      train_tags: Sequence[Sequence[Sequence[str]]] | None = None) -> np.ndarray:
    """The distinct gold-derivation features of the training trees as sorted 62-bit keys.

    The same transform, grammar, chains and features as training with ``config`` (whatever its
    ``n_bits``): every derivation's features are those the decoder would hash, kept at 62 bits.
    """
    parser, examples = prepare_training(train_trees, replace(config, n_bits=1), np.zeros(2), train_tags, warn=False)
    parser.config.n_bits = _KEY_BITS
    parser._beam = parser._make_beam()
    parts = [np.asarray(parser.features(ex, ex.gold_site, ex.gold_chain, True)[0], dtype=np.uint64) for ex in examples]
    return np.unique(np.concatenate(parts)) if parts else np.zeros(0, dtype=np.uint64)


def sharing_share(keys: np.ndarray, bits: int) -> float:
    """Share (0-1) of the distinct ``keys`` whose low ``bits`` agree with another key's (a shared slot)."""
    if len(keys) == 0:
        return 0.0
    _slots, inverse, counts = np.unique(keys & np.uint64((1 << bits) - 1), return_inverse=True, return_counts=True)
    return float(np.count_nonzero(counts[inverse] > 1)) / len(keys)


def choose_bits(keys: np.ndarray, bound: float, low: int = MIN_BITS, high: int = MAX_N_BITS) -> tuple[int, float]:
    """The smallest ``bits`` in [low, high] at which at most ``bound`` of ``keys`` share a slot, and that share.

    ``high`` and its share when no table in the range meets the bound. The share never rises as the table
    grows (two keys that agree in their low b + 1 bits agree in their low b bits), so the first table
    that meets the bound is the smallest.
    """
    if not 0 <= bound < 1:
        raise ValueError(f"the collision bound must be in [0, 1), got {bound!r}")
    if not 1 <= low <= high <= MAX_N_BITS:
        raise ValueError(f"table sizes must satisfy 1 <= low <= high <= {MAX_N_BITS}, got {low}, {high}")
    share = 1.0
    for bits in range(low, high + 1):
        share = sharing_share(keys, bits)
        if share <= bound:
            return bits, share
    return high, share


def feature_bits_for(train_trees: Sequence[Tree], config: ParserConfig, bound: float = 0.01,
                     train_tags: Sequence[Sequence[Sequence[str]]] | None = None) -> FeatureBits:
    """Choose ``n_bits`` for training ``config`` on ``train_trees``: the smallest table with at most ``bound``
    of the gold-derivation features sharing a slot (module header: why the gold features)."""
    keys = gold_feature_keys(train_trees, config, train_tags)
    bits, share = choose_bits(keys, bound)
    return FeatureBits(bits, len(keys), share, bound, share <= bound)
