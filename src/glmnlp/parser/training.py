"""Training the incremental parser with the averaged perceptron (Collins & Roark 2004 §2.2, §4).

What it implements:

* **Training** (:func:`train_parser`): averaged perceptron on full parses with early update (§4.2;
  stop at the first word whose beam lost the gold prefix, update gold prefix against the best
  member) and the repeated use of hypotheses (cache, T1 = 5, T2 = 50), each switchable; per-epoch
  dev F1 and best-epoch selection; deterministic for a seed.
* **Parallel work** (:mod:`glmnlp.glm.parallel`): the epochs run through the generic loop
  (:func:`glmnlp.glm.training.train_perceptron`), so ``ParserConfig.shards > 1`` trains by
  iterative parameter mixing with one cache per shard; the jackknife folds and the beam grid are
  independent work items on the same executor, and so are the combined model's generative models
  (the 10 jackknifed ones and the full-data one, :func:`glmnlp.parser.generative_terms.train_terms`). The
  dev decoding of each epoch runs on the workers (one slice of dev each:
  :meth:`_ParsingTask.dev_pack`, trees back in dev order, scored once here), with the dev F1s of the
  pass in one process. Not parallel yet: the candidate generative weights of the combined model.
* **One beam** (:func:`train_parser` with ``beams``): the pass kept is the one with the best dev F1 at the
  beam it will parse with. Every pass is scored on dev at the selection beam, the config's ``gamma``/``beam_cap``
  (1e4 / 30 by default; not ``train_gamma``, the combined model's 1e7; one decode of dev per pass);
  the best :data:`EPOCH_CANDIDATES` (2) of them by that score each get their beam from the grid, and the
  best at its own beam wins (ties to 0.01 keep the better pass at the selection beam). Each candidate
  costs one grid of dev decodes, so every pass is not tuned: two, because the last passes are close
  at the selection beam and the second best can overtake at a wider beam. The CLI,
  :func:`glmnlp.parser.combined.tune_weight` and the default-model recipe pass their grids, so the
  generative weight, the pass and the beam are chosen at the same beam. Measured on the proxy corpus
  (``benchmarks/results/scaling.md``, "One beam"): the kept pass did not change (pass 8; pass 7 at its
  own beam 0.08 below for the perceptron, 0.01 for the combined model) and the second grid added
  about 15 s (perceptron) and 45 s (combined model) to runs of 3.5 and 15 minutes.
* **Tagger input for training**: k-fold jackknifed tagger tags for the training trees live in
  :mod:`glmnlp.parser.jackknife` (paper §5, footnote 3, says only that the models were trained on tagged sections
  2-21; jackknifing, so that the training tags have the tagger's test-time errors, is our choice).

Our choices:

* Cache sweep (the paper's Figure 4, §4.1): after each training sentence, step 2 visits the current
  entry and ``cache_sample`` (default 16) entries drawn with the seeded generator, T1 = 5 times,
  instead of all N entries (which costs O(N^2) per pass). Each entry keeps at most
  ``cache_members`` (default 8) best-scoring candidates, stored as signed feature-id vectors of the
  difference Phi(t) - Phi(gold) restricted to the steps after their first disagreement (the shared
  prefix's features cancel exactly). An entry updates only while a stored candidate strictly
  outscores gold (a tie goes to gold), at most T2 times until the entry is refreshed. Measured on the
  sample (benchmarks/results/training_curves.md, 6 passes, gold tags, +punct): the cache now helps
  (dev F1 85.51 vs 84.03 without it) at about 4x the training time per pass. Before ties were given
  to gold and before COORD saw across the FSLC slash node, the cache lost 82.0 vs 83.7 at pass 4;
  the two changes were not ablated separately on the full sample (on 1,200 trees, 3 passes, the
  tie rule alone moved dev F1 from 80.32 to 80.58, within noise; no cache: 79.61).
* Cache visits in C: an entry keeps its candidates as three flat arrays (ids, signs, bounds; plus
  the generative offsets) in a typed object (:class:`glmnlp.glm._scoring.StoredCandidates`), and
  the whole sweep of a training sentence (T1 x (1 + ``cache_sample``) = 85 visits) is one pass in C
  (:func:`glmnlp.glm._scoring.first_winner`, sums left to right) that returns only where an update
  is due (:func:`_sweep` applies it and goes on from the next visit). Before, each visit was a
  Python call (about 16 us of overhead: 8.4 of 32 s of two passes on 3,000 proxy trees in a cProfile
  of the combined model); the order of visits, the random draws, the updates and so the models are
  those of one call per visit (tests/test_parser_training_cache.py checks it against the one-by-one loop;
  the same weights, updates and cache updates on that run). The keys the sweep samples from are kept
  in insertion order as entries arrive, where ``list(cache)`` was built for every sentence (O(N) a
  sentence, O(N^2) a pass). Measured on the proxy corpus (benchmarks/results/scaling.md): the
  perceptron's passes 13.5-20.5 -> 11.2-16.8 s, the combined model's 55-91 -> 51-85 s, same files.
  Earlier still, each candidate was a numpy
  fancy-index and dot product: a cProfile of the combined model (2,000 proxy trees, 2 passes, one
  worker) put 18.1 s of 37 s of training passes in those visits; flat arrays took passes of 15.8 and 19.5 s to
  10.2 and 12.6 s, with the same updates, cache updates and dev F1 on that run. BLAS dot products
  choose their summation order by CPU, so the former scores could differ in the last bit between
  machines; the left-to-right sums do not (a model trained before may differ from a retrained one by
  such a last-bit tie).
* The model's ``history`` (saved in its metadata) records per epoch the dev F1, updates, early
  stops, cache updates and mean beam size, never seconds: timings come back to the caller in
  :class:`EpochLog` and go to an optional log, so two identical runs write identical files.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
import warnings
from dataclasses import asdict, dataclass, replace
from typing import Any

import numpy as np

from glmnlp.errors import ConfigError
from glmnlp.glm._scoring import StoredCandidates, first_winner
from glmnlp.glm.parallel import Executor, resolve_executor
from glmnlp.glm.perceptron import AveragedPerceptron
from glmnlp.glm.training import EpochRecord, train_perceptron
from glmnlp.parser.grammar import Grammar, check_trees, tree_chains
from glmnlp.parser.model import Example, Parser, ParserConfig, punctuation_tags
from glmnlp.parser.selection import SELECTION_PARAMS, tune_beam
from glmnlp.parser.transform import fslc_transform
from glmnlp.treebank.evalb import score_trees
from glmnlp.treebank.trees import Tree, tree_from_plain, tree_to_plain

__all__ = [
    "EpochLog",
    "RARE_CHAIN_SHARE",
    "RareChainWarning",
    "prepare_training",
    "retag",
    "train_parser",
]

@dataclass
class EpochLog:
    """One training pass: dev F1 of the averaged weights (None without a dev set: a pass unmeasured is not one
    measured at 0), updates, early stops, time (``seconds``: the training pass; ``dev_seconds``: decoding and scoring
    dev)."""

    epoch: int
    dev_f1: float | None
    updates: int
    early_stops: int
    cache_updates: int
    seconds: float
    seconds_per_sentence: float
    mean_beam: float
    dev_seconds: float = 0.0

    def record(self) -> dict[str, Any]:
        """What the model file keeps of the pass: everything but its timings (files stay a function of data,
        options and seed)."""
        out = asdict(self)
        del out["seconds"], out["seconds_per_sentence"], out["dev_seconds"]
        return out


def _diff(
    parser: Parser, ex: Example, gold_ids: np.ndarray, gold_off: np.ndarray, sites: np.ndarray, chains: np.ndarray,
    complete: bool,
) -> tuple[np.ndarray, np.ndarray]:
    """Phi(t) - Phi(gold prefix of the same length) as (ids, signs), restricted to the disagreeing suffix."""
    n = len(sites)
    d = 0
    while d < n and ex.gold_site[d] == sites[d] and ex.gold_chain[d] == chains[d]:
        d += 1
    t_ids, t_off = parser.features(ex, sites, chains, complete)
    g_from = gold_off[d] if d < len(gold_off) else gold_off[-1]
    ids = np.concatenate([t_ids[t_off[d]:], gold_ids[g_from:]])
    signs = np.concatenate([np.ones(len(t_ids) - t_off[d], dtype=np.int8), -np.ones(len(gold_ids) - g_from, dtype=np.int8)])
    return ids, signs


#: How many passes (the best by dev F1 at the selection beam) :func:`train_parser` compares at their own
#: beams when it is given a beam grid (module header: "One beam").
EPOCH_CANDIDATES = 2

def prepare_training(
    train_trees: Sequence[Tree],
    config: ParserConfig,
    weights: np.ndarray,
    train_tags: Sequence[Sequence[Sequence[str]]] | None = None,
    *,
    warn: bool = True,
) -> tuple[Parser, list[Example]]:
    """Grammar, punctuation tags and beam-ready examples of a training set (shared by every trainer).

    ``train_tags`` (optional) replaces the POS tags of the training trees (the first tag of each
    word becomes the preterminal label). Every gold chain gets an id, even one the grammar's count
    filter dropped (rare long chains), so each gold derivation is reachable during training.

    The filter is the paper's (§3: chains of more than two categories only if seen more than once), and the
    decoder never proposes a chain it dropped, so a sentence that needs one gets the flat default structure. On
    WSJ 02-21 that is one word in a thousand; on a few dozen trees most of them: with ``warn``, a
    :class:`RareChainWarning` says so when :data:`RARE_CHAIN_SHARE` or more of the training trees use a dropped
    chain (measured on the PTB sample's training split: 80% of the first 5 trees, 75% of 20, 37% of 100, 20% of
    300, 5.6% of all 3,396).
    """
    check_trees(train_trees, "training")
    if train_tags is not None:
        train_trees = [retag(t, [tl[0] for tl in tags]) for t, tags in zip(train_trees, train_tags)]
    transformed = [fslc_transform(t, config.fslc) for t in train_trees]
    grammar = Grammar.induce(transformed)
    parser = Parser(grammar, punctuation_tags(train_trees), weights, config)
    allowed = [{tuple(c) for cs in table.values() for c in cs} for table in (grammar.chains, grammar.first_chains)]
    rare = 0
    for tree in transformed:
        dropped = False
        for site, chain in tree_chains(tree):
            ids = tuple(grammar.category_id(lab, sl) for lab, sl in chain)
            parser._add_chain(ids)
            dropped |= ids not in allowed[site == -1]
        rare += dropped
    if warn and rare and rare >= RARE_CHAIN_SHARE * len(transformed):
        warnings.warn(RareChainWarning(
            f"{rare} of the {len(transformed)} training trees use a chain of more than two categories seen only "
            f"once, which the parser never proposes (the paper's rule: such chains must be seen more than once); "
            f"sentences that need one get the flat default structure: train on more trees"), stacklevel=3)
    parser._beam = parser._make_beam()
    examples = [
        parser.example(t, tt, None if train_tags is None else train_tags[i])
        for i, (t, tt) in enumerate(zip(train_trees, transformed))
    ]
    return parser, examples


#: The share of training trees using a dropped chain from which :func:`prepare_training` warns: about 200 trees
#: or fewer of the PTB sample.
RARE_CHAIN_SHARE = 0.25


class RareChainWarning(UserWarning):
    """Many training trees need a chain that the grammar's count filter drops (:func:`prepare_training`)."""


class _ParsingTask:
    """The parser as a :class:`~glmnlp.glm.training.GLMTask` whose training step is C&R's (§4).

    One object per shard of iterative parameter mixing: it owns the shard's decoder, its cache of
    hypotheses (§4.1: each shard keeps its own), the seeded generator of the cache sweep and the
    optional generative hook. The step decodes with early update (§4.2), updates by the gold prefix
    against the best member, then refreshes the sentence's cache entry and sweeps the cache.
    """

    def __init__(self, parser: Parser, config: ParserConfig, generative: Any = None) -> None:
        self.parser = parser
        self.config = config
        self.generative = generative
        self.rng = np.random.default_rng(config.seed)
        self.cache: dict[int, StoredCandidates] = {}
        self.cache_keys: list[int] = []  # the keys of ``cache`` in insertion order (list(cache), kept up to date)
        self._reset_stats()

    def _reset_stats(self) -> None:
        self.updates = self.early = self.cache_updates = self.words_seen = 0
        self._beam0 = self.parser._beam.n_beam

    def n_features(self) -> int:
        return 1 << self.config.n_bits

    def train_step(self, ex: Example, idx: int, perc: AveragedPerceptron) -> bool:
        """One training sentence (``idx``: its index in the whole training set); True on an update."""
        parser, config, generative = self.parser, self.config, self.generative
        if generative is not None:
            generative.before_decode(parser, idx, ex)
        res = parser._beam.decode(
            ex.atoms, ex.next_pos, ex.isq, parser._punct, ex.cand_off, ex.cand_chain, perc.weights,
            config.train_gamma, config.train_cap, ex.gold_site, ex.gold_chain, config.early_update, 0,
        )
        self.words_seen += res["word"]
        status, beam = res["status"], res["beam"]
        complete = status == "complete"
        if status == "early":
            self.early += 1
        prefix = len(ex.words) if complete else (res["word"] + 1 if status == "early" else res["word"])
        if prefix == 0 or not beam:
            return False
        gold_ids, gold_off = parser.features(ex, ex.gold_site[:prefix], ex.gold_chain[:prefix], complete)
        best = beam[0]
        mistake = not best[1]
        if mistake:
            ids, signs = _diff(parser, ex, gold_ids, gold_off, best[2], best[3], complete)
            perc.update(ids, -signs.astype(np.float64))
            self.updates += 1
        if config.cache:
            gold_gen = 0.0
            if generative is not None:
                gold_gen = generative.score(parser, ex, ex.gold_site[:prefix], ex.gold_chain[:prefix], complete)
            parts: list[tuple[np.ndarray, np.ndarray]] = []
            offsets: list[float] = []
            for member in beam[: config.cache_members]:
                if member[1]:
                    continue
                parts.append(_diff(parser, ex, gold_ids, gold_off, member[2], member[3], complete))
                if generative is not None:
                    offsets.append(generative.score(parser, ex, member[2], member[3], complete) - gold_gen)
            cache = self.cache
            if idx not in cache:
                self.cache_keys.append(idx)
            cache[idx] = StoredCandidates(
                np.concatenate([p[0] for p in parts]).astype(np.int32) if parts else np.zeros(0, dtype=np.int32),
                np.concatenate([p[1] for p in parts]).astype(np.int8) if parts else np.zeros(0, dtype=np.int8),
                np.cumsum([0] + [len(p[0]) for p in parts], dtype=np.int64),
                np.array(offsets, dtype=np.float64),
            )
            # the visits of the sweep (T1 rounds of this entry and cache_sample drawn ones), then one
            # pass over them in C that stops only where an update is due (_sweep)
            keys = self.cache_keys
            visits: list[StoredCandidates] = []
            for _ in range(config.cache_t1):
                visits.append(cache[idx])
                if len(keys) > 1:
                    visits += [cache[keys[j]] for j in self.rng.integers(0, len(keys), size=config.cache_sample)]
            self.cache_updates += _sweep(perc, visits, config.cache_t2)
        return mistake

    def epoch_stats(self) -> dict[str, float]:
        out = {
            "updates": self.updates, "early_stops": self.early, "cache_updates": self.cache_updates,
            "words": self.words_seen, "beam": self.parser._beam.n_beam - self._beam0,
        }
        self._reset_stats()
        return out

    def trial(self, weights: np.ndarray) -> Parser:
        """A parser with ``weights`` (e.g. the averaged ones) sharing this task's grammar and chains."""
        parser = self.parser
        trial = Parser(parser.grammar, parser.punct_tags, weights, self.config, extra_chains=parser._chains)
        trial.generative = None if self.generative is None else self.generative.final_term()
        return trial

    def evaluate(self, examples: Sequence[tuple[Tree, Sequence[Sequence[str]] | None]], weights: np.ndarray) -> float:
        """Dev F1 of ``weights``; ``examples`` are (gold tree, input tags or None for its gold tags).

        The dev pass in this process, through the decoder and the scoring of the dev pass on workers
        (:meth:`dev_pack`, :meth:`dev_score`) applied to the whole set."""
        decoder = _DevDecoder(self.trial(np.zeros(len(weights))), _dev_inputs(examples))  # the table: decode's
        return self.dev_score(examples, decoder.decode(weights))

    def dev_pack(
        self, examples: Sequence[tuple[Tree, Sequence[Sequence[str]] | None]]
    ) -> tuple[Callable[[dict[str, Any]], _DevDecoder], dict[str, Any]]:
        """A dev decoder for ``examples`` (a slice of dev) as plain data for a worker (:func:`_unpack_dev`):
        the parser skeleton (no weights: they come each epoch), the final generative term (not the
        jackknifed ones) and the slice's words and input tags; the gold trees stay here."""
        payload = self._skeleton()
        payload["generative"] = None if self.generative is None else self.generative.final_term().to_parts()
        payload["sentences"] = _dev_inputs(examples)
        return _unpack_dev, payload

    def dev_score(
        self, examples: Sequence[tuple[Tree, Sequence[Sequence[str]] | None]], predictions: Sequence[Any]
    ) -> float:
        """EVALB F1 (:data:`SELECTION_PARAMS`) of the decoded trees (plain data, :func:`tree_to_plain`; in dev order)."""
        trees = [t for t, _ in examples]
        return float(score_trees(trees, [tree_from_plain(p) for p in predictions], SELECTION_PARAMS).fmeasure)

    def _skeleton(self) -> dict[str, Any]:
        """Config, grammar, punctuation tags and chain table as plain data (:func:`_parser_from_skeleton`)."""
        parser = self.parser
        config = asdict(self.config)
        config["fslc_extra_pairs"] = [list(p) for p in self.config.fslc_extra_pairs]
        return {
            "config": config,
            "grammar": parser.grammar.to_json(),
            "punct_tags": sorted(parser.punct_tags),
            "chains": [list(c) for c in parser._chains],
        }

    def pack(self, examples: Sequence[Example]) -> tuple[Callable[[dict[str, Any]], Any], dict[str, Any]]:
        """The task and ``examples`` as plain data for a training worker (:func:`_unpack_shard`)."""
        payload = self._skeleton()
        payload["examples"] = [
            (e.words, e.tags, e.atoms, e.next_pos, e.isq, e.cand_off, e.cand_chain, e.gold_site, e.gold_chain)
            for e in examples
        ]
        payload["generative"] = None if self.generative is None else self.generative.to_shard_parts()
        return _unpack_shard, payload


def _parser_from_skeleton(payload: dict[str, Any]) -> tuple[Parser, ParserConfig]:
    """A parser with zero weights from :meth:`_ParsingTask._skeleton` (its chain ids are the original's)."""
    cfg = dict(payload["config"])
    cfg["fslc_extra_pairs"] = tuple(tuple(p) for p in cfg["fslc_extra_pairs"])
    config = ParserConfig(**cfg)
    grammar = Grammar.from_json(payload["grammar"])
    parser = Parser(
        grammar, set(payload["punct_tags"]), np.zeros(1 << config.n_bits), config,
        extra_chains=[tuple(c) for c in payload["chains"]],
    )
    return parser, config


def _unpack_shard(payload: dict[str, Any]) -> tuple[_ParsingTask, list[Example]]:
    """Rebuild a parser training shard from :meth:`_ParsingTask.pack` (runs on a worker)."""
    parser, config = _parser_from_skeleton(payload)
    examples = [Example(*fields) for fields in payload["examples"]]
    generative = None
    if payload["generative"] is not None:
        rebuild, parts = payload["generative"]  # the hook's own module-level rebuild function
        generative = rebuild(parts)
    return _ParsingTask(parser, config, generative), examples


def _dev_inputs(examples: Sequence[tuple[Tree, Sequence[Sequence[str]] | None]]) -> list[tuple[list[str], list[Any]]]:
    """(words, input tags) of each dev example: its given tags (a tag or a tag list per word), or its gold
    tags when None. Decided per example, so that a slice of dev gets what the whole set would."""
    return [
        (t.leaves(), t.tags() if tl is None else [x if isinstance(x, str) else list(x) for x in tl])
        for t, tl in examples
    ]


class _DevDecoder:
    """The dev pass of one epoch over some dev sentences (all of dev, or a worker's slice): parses each
    (words, input tags) with the given weights and returns the trees as plain data (:func:`tree_to_plain`), in order.
    The parser is kept between epochs, not its table (it sits next to a shard's perceptron); DevSlice's fresh
    read-only table is taken without a copy (``Parser.weights``; memory: glmnlp.parser.feature_space)."""

    def __init__(self, parser: Parser, sentences: list[tuple[list[str], list[Any]]]) -> None:
        self.parser = parser
        self.sentences = sentences
        self.size = parser.weights.shape[0]
        parser.weights = np.zeros(0)

    def decode(self, weights: np.ndarray) -> list[tuple[Any, ...]]:
        if weights.shape != (self.size,):
            raise ValueError(f"{weights.shape[0]} weights for a table of {self.size}")
        self.parser.weights = weights
        try:
            return [tree_to_plain(self.parser.parse(words, tags, check_tags=False))  # (as selection.evaluate)
                    for words, tags in self.sentences]
        finally:
            self.parser.weights = np.zeros(0)


def _unpack_dev(payload: dict[str, Any]) -> _DevDecoder:
    """Rebuild a dev decoder from :meth:`_ParsingTask.dev_pack` (runs on a worker, or here for one slice)."""
    parser, _ = _parser_from_skeleton(payload)
    if payload["generative"] is not None:
        from glmnlp.parser.term import GenerativeTerm

        parser.generative = GenerativeTerm.from_parts(*payload["generative"])
    return _DevDecoder(parser, payload["sentences"])


def train_parser(
    train_trees: Sequence[Tree],
    dev_trees: Sequence[Tree],
    config: ParserConfig,
    *,
    train_tags: Sequence[Sequence[Sequence[str]]] | None = None,
    dev_tags: Sequence[Sequence[Sequence[str]]] | None = None,
    on_epoch: Callable[[EpochLog], None] | None = None,
    show_progress: bool = True,
    generative: Any = None,
    executor: Executor | None = None,
    jobs: int | None = None,
    backend: str | None = None,
    address: str | None = None,
    beams: tuple[Sequence[float], Sequence[int]] | None = None,
    on_beams: Callable[[int, list[tuple[float, int, float, float]]], None] | None = None,
) -> tuple[Parser, list[EpochLog]]:
    """Train a parser; returns the best-epoch (dev F1) parser and the per-epoch log.

    ``train_trees``/``dev_trees`` are cleaned trees (others: GrammarError). ``train_tags`` (optional) replaces the
    training trees' POS tags (jackknifed tagger tags, say: one list per word, the first tag becomes the preterminal
    label); ``dev_tags``: the parser's dev input tags. ``generative`` (a GenerativeTraining): the generative term.
    ``config.shards > 1`` trains by iterative parameter mixing (McDonald et al. 2010) through the
    generic loop (:func:`glmnlp.glm.training.train_perceptron`); the shards and the dev decoding of each
    epoch run on ``executor`` or on one made from (``jobs``, ``backend``, ``address``; unset:
    :mod:`glmnlp.config`, by default every core); the model does not depend on where.

    ``beams`` = (gammas, caps): choose the epoch at the beam the parser will parse with. The dev F1 of
    each pass is measured at the selection beam (the config's ``gamma``/``beam_cap``); the
    :data:`EPOCH_CANDIDATES` best passes by it each get their beam from the grid
    (:func:`~glmnlp.parser.selection.tune_beam`), and the pass with the best dev F1 at its own beam is
    returned with that beam set (ties, to 0.01, go to the pass that was better at the selection beam).
    ``on_beams(epoch, rows)`` is called with each candidate's grid (``tune_beam``'s rows).
    """
    if config.epochs < 1:  # 0 is a valid config (the generative model alone's), but trains no perceptron
        raise ConfigError(f"training the perceptron needs epochs >= 1, got {config.epochs}")
    check_trees(dev_trees, "dev")
    parser, examples = prepare_training(train_trees, config, np.zeros(1 << config.n_bits), train_tags)
    if generative is not None:
        generative.prepare(parser, examples, executor, jobs=jobs, backend=backend, address=address)
    task = _ParsingTask(parser, config, generative)
    dev = [(t, None if dev_tags is None else dev_tags[i]) for i, t in enumerate(dev_trees)]
    logs: list[EpochLog] = []

    def record(r: EpochRecord) -> None:
        st = r.stats
        log = EpochLog(
            r.epoch, None if r.dev_score is None else float(r.dev_score), int(st["updates"]), int(st["early_stops"]),
            int(st["cache_updates"]),
            r.seconds, r.seconds / max(1, len(examples)), st["beam"] / max(1, st["words"]), r.dev_seconds,
        )
        logs.append(log)
        if on_epoch is not None:
            on_epoch(log)

    tuned = beams is not None and len(dev) > 0
    result = train_perceptron(
        task, examples, dev, epochs=config.epochs, seed=config.seed, shuffle=True, show_progress=show_progress,
        on_epoch=record, shards=config.shards, mixing=config.mixing, executor=executor, jobs=jobs, backend=backend,
        address=address, keep=EPOCH_CANDIDATES if tuned else 1,
    )
    for table in (result.weights, *(w for _e, _f, w in result.runners_up)):
        table.flags.writeable = False  # the trainer's own tables: the candidates' parsers take them without a copy
    final = task.trial(result.weights)
    best_epoch = result.best_epoch
    trials: list[dict[str, Any]] = []
    if tuned:
        assert beams is not None
        own = executor is None
        ex = resolve_executor(executor, jobs=jobs, backend=backend, address=address)
        try:
            best_f1 = -1.0
            for epoch, f1, weights in [(result.best_epoch, result.best_score, result.weights), *result.runners_up]:
                trial = final if epoch == result.best_epoch else task.trial(weights)
                trial.config = replace(trial.config)  # its own beam: trials share the task's config object
                rows = tune_beam(trial, dev_trees, beams[0], beams[1], dev_tags, executor=ex)
                if on_beams is not None:
                    on_beams(epoch, rows)
                at_beam = next(r[2] for r in rows if (r[0], r[1]) == (trial.config.gamma, trial.config.beam_cap))
                trials.append({"epoch": epoch, "dev_f1": round(float(f1 or 0.0), 4),
                               "beam_dev_f1": round(float(at_beam), 4), "gamma": trial.config.gamma,
                               "cap": trial.config.beam_cap})
                if round(at_beam, 2) > round(best_f1, 2):
                    final, best_epoch, best_f1 = trial, epoch, at_beam
        finally:
            if own:
                ex.close()
    final.history = [log.record() for log in logs] + [{"best_epoch": best_epoch}]
    if trials:
        final.history.append({"epoch_trials": trials})
    return final, logs


def _sweep(perc: AveragedPerceptron, visits: list[StoredCandidates], t2: int) -> int:
    """Visit cache entries in order (paper Figure 4, step 2); returns the number of updates.

    A visit updates by its best stored candidate when that candidate strictly outscores gold (ties go
    to gold), at most ``t2`` times per entry until it is refreshed. The scoring runs in C
    (:func:`glmnlp.glm._scoring.first_winner`: sums left to right, the same on every CPU), which
    returns at the first visit due to update; the update is applied here and the pass goes on from
    the next visit, so each visit sees the weights of the visits before it, as one call per visit
    did (module header)."""
    done = 0
    i = 0
    while True:
        i, k, _s = first_winner(perc.weights, visits, i, t2)
        if i < 0:
            return done
        entry = visits[i]
        a, b = int(entry.bounds[k]), int(entry.bounds[k + 1])
        perc.update(entry.ids[a:b], -entry.signs[a:b].astype(np.float64))
        entry.count += 1
        done += 1
        i += 1


def retag(tree: Tree, tags: Sequence[str]) -> Tree:
    """A copy of ``tree`` with its preterminal labels replaced by ``tags`` (left to right)."""
    it = iter(tags)

    def walk(node: Tree) -> Tree:
        if node.is_preterminal:
            return Tree(next(it), node.children)
        return Tree(node.label, tuple(walk(c) if isinstance(c, Tree) else c for c in node.children), node.slash)

    return walk(tree)
