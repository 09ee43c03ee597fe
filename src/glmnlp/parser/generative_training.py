"""Training the generative model of :mod:`glmnlp.parser.generative` (Roark 2001, 2004; C&R 2004 §5): events,
Jelinek–Mercer smoothing with EM-fitted lambda buckets, pruning, freezing into hash tables, jackknife folds.

Smoothing (that of Roark's parser, its ``em_smooth()`` and ``bucket_counts()``): deleted interpolation
along the conditioning sequence,

    P~(y | c_1..c_j) = lam_b * P^(y | c_1..c_j) + (1 - lam_b) * P~(y | c_1..c_{j-1}),

with P^ the relative frequency and, for a history never seen in training, P~_j = P~_{j-1}.
lam_b is tied in buckets b = (model, level j, bin of c(h)/u(h)), c(h) = count of the history,
u(h) = number of distinct outcomes seen with it. Per (model, level), histories with
c/u < ``min_ratio`` (2) share bin 0; the rest are sorted by c/u and cut into at most ``n_bins``
(20) bins of roughly equal count mass, each at least max(``min_bin_mass``, total / (2 n_bins)).
Bin edges are fixed from the full training counts and reused for every fold. lam is fitted by
EM with K-fold deleted estimation over *sentences* (events are grouped by sentence id): for
each fold, counts come from the other folds, and EM runs on the held-out fold's events, from
lam = 0.49 until the relative log-likelihood gain is below 1e-4 (at most 1000 iterations).
The K lam vectors are averaged (a bucket is averaged over the folds in which it received
held-out mass; a bucket never reached keeps the initial value), then capped at
``max_lambda`` (0.999) so that no level is ever fully trusted.

Speed: the EM iterations were most of the training time (a cProfile of the combined model's
generative stage, ten jackknifed models and the full one on 3,000 proxy trees: 39.3 of 55.4 s in
``em_lambdas``, whose every iteration built and read about seven (events x levels) numpy arrays).
The E-step is now one pass in C (:func:`glmnlp.parser._generative.em_sums`) that computes every
number as the numpy expressions did (same operations per element, same order, the bucket sums in
``np.bincount``'s order; ``tests/test_generative.py`` checks lambdas, traces and masses bit for bit
against the numpy definition), so the models are unchanged: the eleven models' arrays hash the same
before and after, and the stage took 16.2 s of CPU instead of 38.8 s (``em_lambdas`` 4.0 s).

Our choices, and why:

* **Held-out events** for EM are the events counted at full depth; the extra coarse-level
  class events of rare words (below) are training-only pseudo-events.
* **Depth-limited events** (the unknown-word mechanism of Roark's parser, whose ``update_feats()``
  counts a rare word's class at the coarsest level only): an event may be counted
  only at levels 0..depth. A rare training word is added once as itself (full depth) and once
  as its unknown-word class with depth 1 (context = its POS), so the class has estimates ready
  for unseen test words, which glmnlp.parser.lexicon maps to their class id.
* **Folds** are a seeded random partition of the sentence ids (:func:`jackknife_folds`),
  deterministic for a given seed.

Also here: :func:`jackknife_folds` / :func:`train_jackknife` for the hybrid's jackknifed
training scores (C&R 2004 §5).

Memory (where the bytes go; the 13,620-tree proxy treebank has 984,114 events, 9.6 million
(event, level) entries, 644,044 distinct histories and 1,149,417 distinct pairs; tracemalloc and
peak RSS in benchmarks/results/memory.md):

* the events (glmnlp.parser.generative_events): 96 bytes an event (94 MB), read through the
  canonical order (int64) with sorted int32 copies of the columns EM needs (20 bytes an event);
* counting (:func:`_collect`): two key maps (glmnlp.parser._generative.KeyIndex, 16 bytes a slot,
  at most half full: 96 MB) and the per-key columns (40 bytes a key: 72 MB). Nothing has one row
  per entry: the former sorted unique of every entry's hash, its (events x levels) grids and
  inverse indices took about 9 int64 per entry (traced peak 1.44 GB while counting);
* EM: per fold, the held-out events' history and pair indices (16 bytes a level: 17 MB) and the
  three (rows x levels) inputs of :func:`em_lambdas` (p_hat, seen, buckets: 17 bytes a level); its
  E-step runs in one C pass (:func:`glmnlp.parser._generative.em_sums`) with no (rows x levels)
  temporaries (the numpy version made about seven of them per iteration); lambda buckets are
  found per (model, level) by binary search (no histories x bins grid);
* freezing: about fifteen arrays of one value a key (about 100 MB), then the tables, which the
  model keeps once (interleaved in its kernel; ``GenerativeModel.tables`` are views).

Peak RSS of the generative model's training on the proxy: 1,632 -> 776 MB (1.9 GB extrapolated to
40,000 sentences, 2.3 GB to WSJ 02-21's 912k tokens).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, cast

import numpy as np
from numpy.typing import NDArray

from glmnlp.parser._generative import KeyIndex, build_table, count_entries, em_sums, entry_indices
from glmnlp.errors import ConfigError
from glmnlp.parser.generative_events import EventSet
from glmnlp.parser.generative import (
    FloatArray,
    GenerativeModel,
    IntArray,
    SmoothingConfig,
    bucket_of,
    table_capacity,
)


__all__ = [
    "EmResult",
    "EventSet",
    "Fold",
    "em_lambdas",
    "jackknife_folds",
    "train_generative",
    "train_jackknife",
]


# ---------------------------------------------------------------------------------------------
# Folds
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Fold:
    """One jackknife fold: a model trained on ``train`` scores exactly the ``heldout`` sentences."""

    index: int
    train: IntArray
    heldout: IntArray


def jackknife_folds(n_sentences: int, k: int = 10, seed: int = 0) -> list[Fold]:
    """Partition sentences 0..n_sentences-1 into k held-out sets (seeded shuffle, near-equal sizes).

    Each fold's train set is the complement of its held-out set, so a sentence is scored only by
    the one model that never saw it (C&R 2004 §5).
    """
    if k < 2:
        raise ConfigError(f"jackknife needs k >= 2 folds, got {k}")
    if n_sentences < k:
        raise ConfigError(f"cannot split {n_sentences} sentences into {k} non-empty folds")
    order = np.random.default_rng(seed).permutation(n_sentences).astype(np.int64)
    everything = np.arange(n_sentences, dtype=np.int64)
    folds = []
    for index, part in enumerate(np.array_split(order, k)):
        heldout = np.sort(part)
        folds.append(Fold(index, np.setdiff1d(everything, heldout, assume_unique=True), heldout))
    return folds


# ---------------------------------------------------------------------------------------------
# EM for the interpolation weights
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class EmResult:
    """Outcome of :func:`em_lambdas`: final lambdas, the held-out log-likelihood before each
    M-step (trace[0] is at the initial lambdas, trace[-1] at the returned ones) and the
    expected number of held-out events that reached each bucket (0 = bucket unused)."""

    lambdas: FloatArray
    trace: list[float]
    mass: FloatArray


def em_lambdas(
    p_hat: FloatArray,
    seen: NDArray[np.bool_],
    buckets: IntArray,
    uniform: FloatArray,
    initial: FloatArray,
    *,
    max_iterations: int = 1000,
    tolerance: float = 1e-4,
) -> EmResult:
    """Fit tied interpolation weights by EM on held-out events.

    Row e of the (events x levels) arrays describes one held-out event: p_hat[e, j] is the
    relative frequency of its outcome given its level-j history (from the other folds),
    seen[e, j] whether that history was seen (seen levels form a prefix 0..d_e), buckets[e, j]
    the lambda bucket of the history; uniform[e] is the base probability 1/(V-1).
    Each level is a binary choice "use this level's estimate / back off", so EM is
    lam_b = E[#events that stopped at a level in b] / E[#events that reached a level in b];
    the held-out likelihood never decreases from one iteration to the next.
    """
    n_events, n_levels = p_hat.shape
    lam = np.asarray(initial, dtype=np.float64).copy()
    n_buckets = len(lam)
    trace: list[float] = []
    if n_events == 0:
        return EmResult(lam, trace, np.zeros(n_buckets))
    p_hat = np.ascontiguousarray(p_hat, dtype=np.float64)
    seen_u8 = np.ascontiguousarray(seen, dtype=np.bool_).view(np.uint8)
    safe_buckets = np.ascontiguousarray(np.where(seen, buckets, 0), dtype=np.int64)
    uniform = np.ascontiguousarray(uniform, dtype=np.float64)
    total = np.empty(n_events)
    num_b = np.empty(n_buckets)
    den_b = np.empty(n_buckets)
    for iteration in range(max_iterations + 1):
        # E-step in one pass (glmnlp.parser._generative.em_sums): each event's probability under
        # the current lambdas and the posteriors of "stopped at level j" / "reached level j"
        em_sums(p_hat, seen_u8, safe_buckets, uniform, lam, total, num_b, den_b)
        loglik = float(np.sum(np.log(total)))
        trace.append(loglik)
        stop = iteration == max_iterations or (
            len(trace) > 1 and loglik - trace[-2] <= tolerance * abs(trace[-2])
        )
        if stop:
            break
        used = den_b > 0
        lam = lam.copy()
        lam[used] = np.clip(num_b[used] / den_b[used], 0.0, 1.0)
    return EmResult(lam, trace, den_b)  # the loop always ends at a stop: den_b is the final mass


# ---------------------------------------------------------------------------------------------
# Training
# ---------------------------------------------------------------------------------------------


@dataclass
class _Stats:
    """Counts of a training event set (internal): its distinct histories and (history, outcome)
    pairs, each sorted by key, with the maps from a key to its index (for the held-out lookups of
    EM; dropped before freezing)."""

    n_levels: int
    hist_keys: NDArray[np.uint64]
    hist_model: IntArray
    hist_level: IntArray
    hist_parent: IntArray
    pair_keys: NDArray[np.uint64]
    pair_hist: IntArray
    pair_parent: IntArray
    pair_outcome: IntArray
    hist_count: FloatArray
    pair_count: FloatArray
    hist_index: KeyIndex | None
    pair_index: KeyIndex | None


def _collect(
    models: NDArray[Any], outcomes: NDArray[Any], depths: NDArray[Any], contexts: IntArray,
    order: IntArray | None = None,
) -> _Stats:
    """Count the histories and pairs of every (event, level) entry, events visited in ``order``.

    The entries are never materialised: the kernel hashes each event's levels 0..depth and counts
    the keys in two hash maps (glmnlp.parser._generative.count_entries), so memory grows with the
    distinct keys, not with the entries (9.8 per event on the proxy treebank). Keys are then sorted,
    so indices are those of a sorted unique of all entries; parent and model/level of a key come
    from the entry where it first occurs in ``order``.
    """
    m = np.ascontiguousarray(models, dtype=np.int32)
    y = np.ascontiguousarray(outcomes, dtype=np.int32)
    d = np.ascontiguousarray(depths, dtype=np.int32)
    c = np.ascontiguousarray(contexts, dtype=np.int64)
    if order is None:
        order = np.arange(len(m), dtype=np.int64)
    hist_index, pair_index = KeyIndex(), KeyIndex()
    hist, pair = count_entries(m, y, d, c, np.ascontiguousarray(order, dtype=np.int64), hist_index, pair_index)
    hist_perm = np.argsort(hist["keys"], kind="stable")
    hist_rank = np.empty_like(hist_perm)
    hist_rank[hist_perm] = np.arange(len(hist_perm))
    pair_perm = np.argsort(pair["keys"], kind="stable")
    pair_rank = np.empty_like(pair_perm)
    pair_rank[pair_perm] = np.arange(len(pair_perm))
    hist_index.remap(hist_rank)
    pair_index.remap(pair_rank)
    # sorted one column at a time, each unsorted column dropped as soon as it is replaced
    for name in hist:
        hist[name] = hist[name][hist_perm]
    for name in pair:
        pair[name] = pair[name][pair_perm]
    del hist_perm, pair_perm
    hist["parent"] = np.where(hist["parent"] >= 0, hist_rank[hist["parent"]], -1).astype(np.int64)
    pair["parent"] = np.where(pair["parent"] >= 0, pair_rank[pair["parent"]], -1).astype(np.int64)
    pair["hist"] = hist_rank[pair["hist"]]
    return _Stats(
        n_levels=c.shape[1] + 1,
        hist_keys=hist.pop("keys"),
        hist_model=hist.pop("model"),
        hist_level=hist.pop("level"),
        hist_parent=hist.pop("parent"),
        pair_keys=pair.pop("keys"),
        pair_hist=pair.pop("hist"),
        pair_parent=pair.pop("parent"),
        pair_outcome=pair.pop("outcome"),
        hist_count=hist.pop("count").astype(np.float64),
        pair_count=pair.pop("count").astype(np.float64),
        hist_index=hist_index,
        pair_index=pair_index,
    )


def _bin_edges(
    stats: _Stats, hist_count: FloatArray, diversity: FloatArray, n_models: int, config: SmoothingConfig
) -> FloatArray:
    """edges[m, j, :] = inclusive upper c/u bounds of bins 1.. of (model m, level j), +inf padded."""
    edges = np.full((n_models, stats.n_levels, max(config.n_bins - 1, 1)), np.inf)
    ratio = np.divide(hist_count, diversity, out=np.zeros_like(hist_count), where=diversity > 0)
    for m in range(n_models):
        for j in range(stats.n_levels):
            sel = (stats.hist_model == m) & (stats.hist_level == j) & (ratio >= config.min_ratio)
            if not np.any(sel):
                continue
            r = ratio[sel]
            mass = hist_count[sel]
            order = np.argsort(r, kind="stable")
            r, mass = r[order], mass[order]
            target = max(float(config.min_bin_mass), float(mass.sum()) / (2 * config.n_bins))
            cuts: list[float] = []
            acc = 0.0
            remaining = float(mass.sum())
            for i in range(len(r)):
                acc += mass[i]
                remaining -= mass[i]
                last_of_value = i + 1 == len(r) or r[i + 1] != r[i]
                if acc >= target and last_of_value and remaining >= target and len(cuts) < config.n_bins - 1:
                    cuts.append(float(r[i]))
                    acc = 0.0
            edges[m, j, : len(cuts)] = cuts
    return edges


def _diversity(stats: _Stats, pair_count: FloatArray) -> FloatArray:
    # counts weighted by float64 weights: float64 (numpy's stubs say intp whatever the weights)
    return cast(FloatArray, np.bincount(stats.pair_hist, weights=(pair_count > 0).astype(np.float64),
                                        minlength=len(stats.hist_keys)))


def train_generative(events: EventSet, config: SmoothingConfig = SmoothingConfig()) -> GenerativeModel:
    """Count the events, fit the lambdas by deleted-estimation EM and freeze the model."""
    specs = events.specs
    n_models = len(specs)
    models0, outcomes0, sentences0, depths0, contexts = events.arrays()
    # canonical event order, so that floating-point sums (and thus the model) do not depend on
    # the order in which events were added; the contexts are read through it, never copied
    order = np.lexsort((*contexts.T[::-1], depths0, outcomes0, models0, sentences0))
    models, sentences, depths = models0[order], sentences0[order], depths0[order]
    stats = _collect(models0, outcomes0, depths0, contexts, order)
    n_levels = stats.n_levels
    n_buckets = n_models * n_levels * (config.n_bins + 1)
    diversity = _diversity(stats, stats.pair_count)
    edges = _bin_edges(stats, stats.hist_count, diversity, n_models, config)
    context_length = np.array([s.context_length for s in specs], dtype=np.int64)
    n_outcomes = np.array([s.n_outcomes for s in specs], dtype=np.int64)

    lambdas = np.full(n_buckets, config.initial_lambda)
    traces: list[list[float]] = []
    if config.folds:
        sentence_ids = np.unique(sentences)
        if len(sentence_ids) < config.folds:
            raise ConfigError(
                f"deleted estimation needs at least {config.folds} sentences, got {len(sentence_ids)} "
                "(use SmoothingConfig(folds=0) to skip EM)"
            )
        lam_sum = np.zeros(n_buckets)
        lam_n = np.zeros(n_buckets)
        full_depth = depths == context_length[models]
        assert stats.hist_index is not None and stats.pair_index is not None
        for fold in jackknife_folds(len(sentence_ids), config.folds, config.seed):
            held_at = np.nonzero(np.isin(sentences, sentence_ids[fold.heldout]))[0]
            # level j of held-out event r: its history and pair indices (-1 above its depth)
            held_h, held_p = entry_indices(
                stats.hist_index, stats.pair_index, models0, outcomes0, depths0, contexts, order[held_at]
            )
            hist_minus = stats.hist_count - np.bincount(held_h[held_h >= 0], minlength=len(stats.hist_keys))
            pair_minus = stats.pair_count - np.bincount(held_p[held_p >= 0], minlength=len(stats.pair_keys))
            div_minus = _diversity(stats, pair_minus)
            ratio_minus = np.divide(hist_minus, div_minus, out=np.zeros_like(hist_minus), where=div_minus > 0)
            hist_bucket = bucket_of(stats.hist_model, stats.hist_level, ratio_minus, edges, config)
            full = full_depth[held_at]
            rows = held_at[full]
            h = held_h[full]
            p = held_p[full]
            del held_h, held_p
            present = h >= 0
            h[~present] = 0
            p[~present] = 0
            seen = present & (hist_minus[h] > 0)
            p_hat = np.where(seen, pair_minus[p] / np.where(seen, hist_minus[h], 1.0), 0.0)
            uniform = 1.0 / (n_outcomes[models[rows]] - 1).astype(np.float64)
            buckets = np.where(seen, hist_bucket[h], 0)
            del h, p, present, hist_minus, pair_minus, div_minus, ratio_minus, hist_bucket, held_at, full, rows
            result = em_lambdas(
                p_hat,
                seen,
                buckets,
                uniform,
                np.full(n_buckets, config.initial_lambda),
                max_iterations=config.max_iterations,
                tolerance=config.tolerance,
            )
            del p_hat, seen, buckets, uniform
            traces.append(result.trace)
            used = result.mass > 0
            lam_sum[used] += result.lambdas[used]
            lam_n[used] += 1
        reached = lam_n > 0
        lambdas[reached] = lam_sum[reached] / lam_n[reached]
    lambdas = np.minimum(lambdas, config.max_lambda)
    n_events = len(models)
    # what freezing does not need goes first: the key maps and the sorted event columns
    stats.hist_index = stats.pair_index = None
    del order, models, sentences, depths
    tables = _freeze(stats, diversity, edges, lambdas, n_outcomes, n_models, config)
    return GenerativeModel(
        specs,
        config,
        tables,
        lambdas=lambdas,
        bin_edges=edges,
        em_traces=traces,
        n_events=n_events,
    )


def _prune(
    stats: _Stats, hist_lam: FloatArray, smoothed: FloatArray, pair_level: IntArray, threshold: float,
    min_count: int,
) -> tuple[NDArray[np.bool_], NDArray[np.bool_]]:
    """Which histories and pairs the frozen tables keep (all of them if threshold and min_count are 0).

    ``min_count``: a history of level >= 2 seen at most this often is left out with all its pairs;
    the scorer then backs off from it as from an unseen history, to a distribution that sums to one.
    ``threshold`` (Roark's ``-t``):

    A pair (h_j, y), j >= 1, is dropped when its smoothed probability is less than ``threshold``
    (relative) above the estimate the scorer falls back to without it, (1 - lam(h_j)) P~_{j-1}(y),
    and no pair below it in the trie (same outcome, a longer history) is kept. A history h_j,
    j >= 1, is dropped when no kept pair or kept longer history needs it and its backoff cost
    -ln(1 - lam(h_j)) is below ln(1 + threshold). Working from the deepest level up keeps both
    kept sets closed under prefixes, which the kernel's binary searches over levels rely on.
    """
    keep_hist = np.ones(len(stats.hist_keys), dtype=bool)
    keep_pair = np.ones(len(stats.pair_keys), dtype=bool)
    if threshold <= 0 and min_count <= 0:
        return keep_hist, keep_pair
    limit = math.log1p(threshold)
    needed = np.zeros(len(stats.pair_keys), dtype=bool)
    for j in range(stats.n_levels - 1, 0, -1) if threshold > 0 else ():
        ps = np.nonzero(pair_level == j)[0]
        parent = stats.pair_parent[ps]
        gain = np.log(smoothed[ps]) - np.log1p(-hist_lam[stats.pair_hist[ps]]) - np.log(smoothed[parent])
        drop = ~needed[ps] & (gain < limit)
        keep_pair[ps[drop]] = False
        needed[parent[~drop]] = True
    rare = (stats.hist_count <= min_count) & (stats.hist_level >= 2)
    keep_pair &= ~rare[stats.pair_hist]  # a rare history's descendants are rare too
    busy = np.zeros(len(stats.hist_keys), dtype=bool)
    busy[stats.pair_hist[keep_pair]] = True
    for j in range(stats.n_levels - 1, 0, -1):
        hs = np.nonzero(stats.hist_level == j)[0]
        drop = ~busy[hs] & ((-np.log1p(-hist_lam[hs]) < limit) | rare[hs])
        keep_hist[hs[drop]] = False
        busy[stats.hist_parent[hs[~drop]]] = True
    return keep_hist, keep_pair


def _frozen_table(keys: NDArray[np.uint64], values: FloatArray) -> tuple[Any, Any]:
    """The hash table of ``keys`` -> ``values``, keys inserted in ascending order.

    Ascending insertion is the order the loader rebuilds in (glmnlp.parser.generative.expand_table),
    so a loaded table is the trained one slot for slot.
    """
    order = np.argsort(keys, kind="stable")
    return build_table(np.ascontiguousarray(keys[order], dtype=np.uint64),
                       np.ascontiguousarray(values[order], dtype=np.float64), table_capacity(len(keys)))


def _freeze(
    stats: _Stats,
    diversity: FloatArray,
    edges: FloatArray,
    lambdas: FloatArray,
    n_outcomes: IntArray,
    n_models: int,
    config: SmoothingConfig,
) -> dict[str, NDArray[Any]]:
    """History backoff weights B(h) and pair values ln P~_j(y) - B(h_j), as hash tables."""
    ratio = np.divide(stats.hist_count, diversity, out=np.zeros_like(stats.hist_count), where=diversity > 0)
    hist_lam = lambdas[bucket_of(stats.hist_model, stats.hist_level, ratio, edges, config)]
    backoff = np.zeros(len(stats.hist_keys))
    smoothed = np.zeros(len(stats.pair_keys))
    pair_level = stats.hist_level[stats.pair_hist]
    p_hat = stats.pair_count / stats.hist_count[stats.pair_hist]
    pair_lam = hist_lam[stats.pair_hist]
    uniform = 1.0 / (n_outcomes[stats.hist_model[stats.pair_hist]] - 1)
    for j in range(stats.n_levels):
        hs = np.nonzero(stats.hist_level == j)[0]
        if j > 0:
            backoff[hs] = backoff[stats.hist_parent[hs]] + np.log1p(-hist_lam[hs])
        ps = np.nonzero(pair_level == j)[0]
        lower = uniform[ps] if j == 0 else smoothed[stats.pair_parent[ps]]
        smoothed[ps] = pair_lam[ps] * p_hat[ps] + (1.0 - pair_lam[ps]) * lower
    floor = np.log(1.0 / (n_outcomes - 1).astype(np.float64))
    roots = np.nonzero(stats.hist_level == 0)[0]
    floor[stats.hist_model[roots]] += np.log1p(-hist_lam[roots])
    keep_hist, keep_pair = _prune(stats, hist_lam, smoothed, pair_level, config.prune, config.min_count)
    pair_values = np.log(smoothed) - backoff[stats.pair_hist]
    hist_keys, hist_vals = _frozen_table(stats.hist_keys[keep_hist], backoff[keep_hist])
    pair_keys, pair_vals = _frozen_table(stats.pair_keys[keep_pair], pair_values[keep_pair])
    return {
        "hist_keys": hist_keys,
        "hist_vals": hist_vals,
        "pair_keys": pair_keys,
        "pair_vals": pair_vals,
        "floor_logprob": floor,
    }


def train_jackknife(
    events: EventSet, k: int = 10, seed: int = 0, config: SmoothingConfig = SmoothingConfig()
) -> tuple[list[GenerativeModel], list[Fold]]:
    """k models, model i trained on the events of folds[i].train only (C&R 2004 §5).

    Sentence ids of ``events`` must be 0..n-1 (n = largest id + 1); score sentence s with
    ``models[i]`` for the fold i whose ``heldout`` contains s.
    """
    _, _, sentences, _, _ = events.arrays()
    n_sentences = int(sentences.max()) + 1 if len(sentences) else 0
    folds = jackknife_folds(n_sentences, k, seed)
    models = [train_generative(events.subset(fold.train), config) for fold in folds]
    return models, folds
