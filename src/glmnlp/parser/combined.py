"""Training the generative model inside the incremental beam parser: generative parsing and the combined model.

The trained term itself (what a loaded parser holds and scores with, and the prefix probabilities
and surprisal it gives) is :mod:`glmnlp.parser.term`; the events of the training derivations and the generative
models trained on them, on all the sentences and on jackknife folds, in parallel, are
:mod:`glmnlp.parser.generative_terms`.

What it implements (Collins & Roark 2004 §3.2, §5 and Table 4; Roark 2001, 2004):

* **Generative parsing** (:func:`train_generative_parser`): perceptron weights all zero and
  weight 1, so hypotheses are ranked by their log-probability alone. Its FILTER margin gamma is in
  log-probability units and is tuned on dev separately (stored in the parser config and in
  :attr:`GenerativeTerm.gamma`, which surprisal uses).
* **Combined model** (:func:`train_combined`): the generative log-probability is one extra
  real-valued feature with a FIXED weight (paper: 10, chosen on held-out data); the perceptron
  update ignores it (it enters only the scores that rank hypotheses, and the cache's stored
  candidate-minus-gold score differences). Training-set scores come from k-fold jackknifing
  (:class:`~glmnlp.parser.generative_terms.JackknifedTerms`): k generative models, each trained on (k-1)/k of the
  training sentences with a lexicon built from those sentences only (so unknown-word classes are exercised), each
  scoring only the sentences it did not see. Dev and test use the model trained on all the training
  data. The fixed weight is chosen on dev from a few values (:func:`tune_weight`).

Our choices:

* The generative-only parser (:func:`train_generative_parser`) drops its training examples once their
  events are extracted (``prepare(..., release_examples=True)``): peak RSS at 13,620 proxy trees 776 ->
  722 MB, 40.1 MB per 1,000 trees instead of 43.7 (benchmarks/results/memory.md), same models. Freed
  examples and events are then handed back to the system (:func:`glmnlp.glm.memory.give_back`: the
  heap pages they held were never reused by the numpy arrays of the later stages): 722 -> 681 MB,
  37.5 MB per 1,000 trees, 1.97 GB extrapolated to WSJ 02-21's 912k tokens.
* No look-ahead probability in FILTER's ranking (Roark 2001/2004 rank by it). Measured with
  ln P(next POS | parent of the new POS) added to the ranking (benchmarks/patches/lookahead.patch, GUM dev,
  benchmarks/results/generative_gap.md): +0.5 to +1.9 F1 at gamma <= 1e3, level at gamma >= 1e4, where
  the tuned beam is (84.10 -> 84.04-84.32); the combined model is level too (its features look ahead).
"""

from __future__ import annotations

import hashlib
import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

from glmnlp.glm.memory import give_back
from glmnlp.glm.parallel import Executor, resolve_executor
from glmnlp.parser.generative import SmoothingConfig
from glmnlp.parser.generative_terms import JackknifedTerms, sentence_events, train_jackknifed_and_full
from glmnlp.parser.model import Parser, ParserConfig
from glmnlp.parser.selection import tune_beam
from glmnlp.parser.term import GenerativeTerm, prefix_logprobs, surprisal_bits
from glmnlp.parser.training import prepare_training, train_parser

__all__ = [
    "GenerativeTerm",  # re-exported from glmnlp.parser.term for the training code's callers
    "prefix_logprobs", "surprisal_bits", "GenerativeTraining", "train_generative_parser",
    "GENERATIVE_GAMMAS", "GENERATIVE_CAPS", "COMBINED_GAMMAS", "COMBINED_CAPS", "train_combined", "tune_weight",
    "WeightTrial", "min_combined_trees",
]

# ----------------------------------------------------------------------------------------------
# Training hook used by glmnlp.parser.training.train_parser
# ----------------------------------------------------------------------------------------------


def min_combined_trees(folds: int = 10, smoothing_folds: int = 10) -> int:
    """The fewest training trees the combined model trains on: each of its ``folds`` jackknifed generative models
    trains on the trees outside its fold (at most ceil(n / folds) held out) and estimates its smoothing on
    ``smoothing_folds`` folds of those (fewer failed inside, ``deleted estimation needs at least 10 sentences``)."""
    n = smoothing_folds
    while n - -(-n // folds) < smoothing_folds:
        n += 1
    return n


def training_need(kind: str, tagger_tags: bool, folds: int = 10) -> tuple[int, str]:
    """The fewest training trees ``kind`` (perceptron, generative, combined) trains on, and why, for the two places
    that refuse too few before any work (``glmnlp parser train``, :class:`~glmnlp.text.default_recipe.DefaultRecipe`).
    ``tagger_tags``: each training tree's input tags come from a tagger trained on the other trees; ``folds``: the
    combined model's jackknife folds. Found only at the step that needed them, too few failed after minutes on the
    whole data, in the words of the library inside (``deleted estimation needs at least 10 sentences, got 9``)."""
    smoothing_folds = SmoothingConfig().folds
    if kind == "generative":
        return smoothing_folds, f"the generative model estimates its smoothing on {smoothing_folds} held-out folds"
    if kind == "combined":
        return min_combined_trees(folds, smoothing_folds), (
            f"the combined model scores each tree by a generative model trained without its fold of {folds}, whose "
            f"smoothing is estimated on {smoothing_folds} folds")
    if tagger_tags:
        return 2, "each tree's input tags come from a tagger trained on the other trees"
    return 1, "a perceptron learns from one tree or more"


@dataclass
class GenerativeTraining:
    """Hook for :func:`glmnlp.parser.training.train_parser`: trains the full and jackknifed generative models
    on the training examples and sets the right one on the beam before each training decode."""

    weight: float = 10.0
    folds: int = 10
    smoothing: SmoothingConfig = field(default_factory=SmoothingConfig)
    seed: int = 0
    full: GenerativeTerm | None = None
    jackknife: JackknifedTerms | None = None
    seconds: float = 0.0
    trained_for: str = ""
    _wids: dict[int, np.ndarray] = field(default_factory=dict)

    def final_term(self) -> GenerativeTerm:
        """The full-data term carrying this hook's weight, for the trained parser (dev and test)."""
        assert self.full is not None
        return replace(self.full, weight=self.weight)

    def prepare(
        self, parser: Any, examples: Sequence[Any], executor: Executor | None = None, *, jobs: int | None = None,
        backend: str | None = None, address: str | None = None, release_examples: bool = False,
    ) -> None:
        """Extract the gold events and train the models (full data, and one per fold).

        A hook already prepared on the same examples (words, tags and gold derivations) keeps its
        models: they do not depend on the fixed weight, so :func:`tune_weight` trains them once and
        shares them between the perceptron runs. Other examples retrain them. ``release_examples``
        empties the list ``examples`` once the events are extracted (a caller that needs only the models).
        The models train on ``executor`` (or one made from ``jobs``, ``backend``, ``address``, unset:
        :mod:`glmnlp.config`; closed afterwards), the fold models and the full-data one side by side
        (:func:`~glmnlp.parser.generative_terms.train_terms`); the models do not depend on where.
        """
        fingerprint = _fingerprint(examples)
        if self.full is not None and self.trained_for == fingerprint:
            return
        self.trained_for = fingerprint
        self._wids.clear()
        t0 = time.perf_counter()
        events = [sentence_events(parser, ex) for ex in examples]
        if release_examples and isinstance(examples, list):
            examples.clear()  # the caller needs only the models: the examples go before they train
            give_back()
        n_cats = len(parser.grammar.categories)
        own = executor is None
        ex = resolve_executor(executor, jobs=jobs, backend=backend, address=address)
        try:
            self.jackknife, self.full = train_jackknifed_and_full(
                events, n_cats, self.smoothing, self.folds, self.seed, self.weight, full=True, executor=ex,
                release=True,
            )
        finally:
            if own:
                ex.close()
        self.seconds = time.perf_counter() - t0

    def to_shard_parts(self) -> tuple[Any, dict[str, Any]]:
        """(rebuild function, the prepared hook as plain data: term parts = JSON metadata and arrays)
        for a training worker."""
        assert self.full is not None
        jk = self.jackknife
        return _hook_from_shard_parts, {
            "weight": self.weight,
            "full": self.full.to_parts(),
            "jackknife": None if jk is None else {
                "terms": [t.to_parts() for t in jk.terms],
                "trained_on": [np.array(sorted(on), dtype=np.int64) for on in jk.trained_on],
                "fold_of": jk.fold_of,
            },
        }

    @classmethod
    def from_shard_parts(cls, parts: dict[str, Any]) -> GenerativeTraining:
        """Rebuild a prepared hook from :meth:`to_shard_parts` (runs on a worker)."""
        hook = cls(weight=float(parts["weight"]))
        hook.full = GenerativeTerm.from_parts(*parts["full"])
        jk = parts["jackknife"]
        if jk is not None:
            hook.jackknife = JackknifedTerms(
                [GenerativeTerm.from_parts(*t) for t in jk["terms"]],
                [frozenset(a.tolist()) for a in jk["trained_on"]],
                np.asarray(jk["fold_of"]),
            )
        return hook

    def term_for(self, idx: int) -> GenerativeTerm:
        assert self.full is not None
        return self.full if self.jackknife is None else self.jackknife.term_for(idx)

    def before_decode(self, parser: Any, idx: int, ex: Any) -> None:
        """Set the generative term that may score training sentence ``idx`` on the parser's beam."""
        term = self.term_for(idx)
        wids = self._wids.get(idx)
        if wids is None:
            wids = self._wids[idx] = term.word_ids(ex.words, ex.tags, parser.grammar)
        parser._beam.set_generative(term.model.kernel, self.weight, wids)

    def score(self, parser: Any, ex: Any, sites: np.ndarray, chains: np.ndarray, complete: bool) -> float:
        """weight * generative log-probability of a derivation (prefix) of the current sentence."""
        log = parser._beam.gen_events(
            ex.atoms, ex.next_pos, np.ascontiguousarray(sites, dtype=np.int32),
            np.ascontiguousarray(chains, dtype=np.int32), complete,
        )
        return self.weight * float(sum(e[4] for e in log))


def _hook_from_shard_parts(parts: dict[str, Any]) -> GenerativeTraining:
    return GenerativeTraining.from_shard_parts(parts)


def _fingerprint(examples: Sequence[Any]) -> str:
    """sha256 of the examples' words, tags and gold derivations (what the generative models are trained on)."""
    digest = hashlib.sha256()
    for ex in examples:
        digest.update(repr((list(ex.words), [list(t) for t in ex.tags])).encode("utf-8"))
        digest.update(np.ascontiguousarray(ex.gold_site, dtype=np.int64).tobytes())
        digest.update(np.ascontiguousarray(ex.gold_chain, dtype=np.int64).tobytes())
    return digest.hexdigest()


# ----------------------------------------------------------------------------------------------
# Training entry points
# ----------------------------------------------------------------------------------------------

#: FILTER grid of generative-only parsing, tuned on dev (gamma in nats, survivors within gamma / k**3).
#: Measured on the proxy (PTB sample train + GUM train -> GUM dev, strip-punct EVALB, unpruned tables,
#: benchmarks/results/generative_gap.md): gamma 48 / 1e3 / 1e4 / 1e6 with caps 100 / 100 / 100 / 300
#: give 77.37 / 79.73 / 80.53 / 80.97; the former grid (24..1e3 x 40..200) never reached past 1e3.
GENERATIVE_GAMMAS: tuple[float, ...] = (1e3, 1e4, 1e5, 1e6)
GENERATIVE_CAPS: tuple[int, ...] = (100, 300)

#: FILTER grid of the combined model (gamma in its score's units: weight x nats + perceptron score), from which
#: each candidate weight's pass and beam are chosen on dev. PTB sample, tagger tags, weights 5 / 10 / 20
#: (benchmarks/results/parsing_generative.md): gamma 1e8, cap 100 beats the beam chosen from the former grid
#: (1e5..1e7 x 20, 40) for every weight and multi-tag margin, on dev by 0.1-0.7 F1 and on test by 0.1-0.6, at about
#: half its sentences/s; wider (1e9, 1e10; caps 200, 400) is no better on dev. On the proxy with gold tags it is
#: level (GUM dev 85.84 against 85.80).
COMBINED_GAMMAS: tuple[float, ...] = (1e5, 1e6, 1e7, 1e8)
COMBINED_CAPS: tuple[int, ...] = (20, 40, 100)


def train_generative_parser(
    train_trees: Sequence[Any], dev_trees: Sequence[Any], *, train_tags: Sequence[Sequence[Sequence[str]]] | None = None,
    dev_tags: Sequence[Sequence[Sequence[str]]] | None = None, smoothing: SmoothingConfig = SmoothingConfig(),
    gammas: Sequence[float] = GENERATIVE_GAMMAS, caps: Sequence[int] = GENERATIVE_CAPS,
    fslc_extra_pairs: tuple[tuple[str, str], ...] = (("SINV", "S"),),
    on_beams: Callable[[list[tuple[float, int, float, float]]], object] | None = None,  # its result unused
) -> Any:
    """A generative-only parser: zero perceptron weights (a 2-entry table), generative weight 1.

    gamma (log-probability units) and the cap are tuned on dev with glmnlp.parser.selection.tune_beam
    (``on_beams`` gets its rows: gamma, cap, dev F1, sentences/s).
    """
    # the seed is the generative model's (its folds): a generative parser's config said 0 whatever --seed was
    config = ParserConfig(n_bits=1, epochs=0, seed=smoothing.seed, fslc_extra_pairs=fslc_extra_pairs)
    parser, examples = prepare_training(train_trees, config, np.zeros(2), train_tags)
    grammar = parser.grammar
    hook = GenerativeTraining(weight=1.0, folds=0, smoothing=smoothing)
    hook.prepare(parser, examples, release_examples=True)
    assert hook.full is not None
    parser = Parser(grammar, parser.punct_tags, np.zeros(2), config, extra_chains=parser._chains)
    parser.generative = hook.full
    parser.history = []
    if dev_trees:
        rows = tune_beam(parser, dev_trees, gammas, caps, dev_tags)
        if on_beams is not None:
            on_beams(rows)
        # the grid's dev F1 is kept with the model, as a perceptron's passes are (it was printed and lost); not the
        # speeds: a model file is a function of data, options and seed
        parser.history = [{"beam_trials": [{"gamma": g, "cap": c, "dev_f1": round(f1, 4)} for g, c, f1, _ in rows]}]
    hook.full.gamma, hook.full.beam_cap = parser.config.gamma, parser.config.beam_cap
    return parser


def train_combined(
    train_trees: Sequence[Any], dev_trees: Sequence[Any], config: Any, *, weight: float = 10.0, folds: int = 10,
    smoothing: SmoothingConfig = SmoothingConfig(), train_tags: Sequence[Sequence[Sequence[str]]] | None = None,
    dev_tags: Sequence[Sequence[Sequence[str]]] | None = None, show_progress: bool = False, on_epoch: Any = None,
    hook: GenerativeTraining | None = None, executor: Any = None,
    beams: tuple[Sequence[float], Sequence[int]] | None = None, on_beams: Any = None,
) -> tuple[Any, list[Any]]:
    """The perceptron with the jackknifed generative log-probability as a fixed-weight feature.

    ``hook``: an already trained :class:`GenerativeTraining` to reuse (its models; ``weight`` wins).
    ``executor``: where the shards of iterative parameter mixing run (``config.shards``).
    ``beams``, ``on_beams``: the epoch is chosen at its own beam from this grid
    (:func:`glmnlp.parser.training.train_parser`).
    """
    if hook is None:
        hook = GenerativeTraining(weight=weight, folds=folds, smoothing=smoothing, seed=config.seed)
    else:
        hook.weight = weight  # the trained models are kept (prepare() skips them); parsers get copies
    parser, logs = train_parser(
        train_trees, dev_trees, config, train_tags=train_tags, dev_tags=dev_tags, show_progress=show_progress,
        on_epoch=on_epoch, generative=hook, executor=executor, beams=beams, on_beams=on_beams,
    )
    parser.history.append({"generative_weight": weight})
    return parser, logs


@dataclass(frozen=True)
class WeightTrial:
    """One candidate fixed weight: the best dev F1 over its epochs (selection beam), that epoch, and,
    when :func:`tune_weight` tunes each candidate's beam, the dev F1 at its chosen beam and that beam."""

    weight: float
    dev_f1: float
    best_epoch: int
    seconds: float
    beam_dev_f1: float | None = None
    gamma: float | None = None
    cap: int | None = None
    beam_rows: tuple[tuple[float, int, float, float], ...] = ()  # (gamma, cap, dev F1, sent/s) of the grid

    def record(self) -> dict[str, Any]:
        """What the model file keeps of the trial: everything but the times it took (and the grid's speeds); its F1
        to 4 decimals, as the epoch trials' (81.27659574468085 beside their 81.2766)."""
        out: dict[str, Any] = {"weight": self.weight, "dev_f1": round(self.dev_f1, 4), "best_epoch": self.best_epoch}
        if self.beam_dev_f1 is not None:
            out.update(beam_dev_f1=round(self.beam_dev_f1, 4), gamma=self.gamma, cap=self.cap)
        return out

    @property
    def score(self) -> float:
        """What the candidates are compared by: the dev F1 at the candidate's own beam when tuned."""
        return self.dev_f1 if self.beam_dev_f1 is None else self.beam_dev_f1


def tune_weight(
    train_trees: Sequence[Any], dev_trees: Sequence[Any], config: Any, weights: Sequence[float], *,
    folds: int = 10, smoothing: SmoothingConfig = SmoothingConfig(), on_trial: Any = None,
    beams: tuple[Sequence[float], Sequence[int]] | None = None, on_beams: Any = None, **kwargs: Any
) -> tuple[Any, list[Any], list[WeightTrial]]:
    """Choose the generative feature's fixed weight on dev (C&R 2004 §5: "empirically optimized on the held-out set").

    The generative models (full and jackknifed) are trained once and shared; one perceptron is
    trained per candidate weight. With ``beams`` = (gammas, caps), each candidate's epoch is chosen at
    its own beam from that grid (:func:`glmnlp.parser.training.train_parser`) and the candidates are
    compared by their dev F1 at those beams: the combined score is weight x log-probability plus the
    perceptron's, so one FILTER margin gamma is a wider beam for weight 5 than for weight 20, and
    comparing them at the selection beam favours the smaller weight. Without ``beams`` they are compared
    at the selection beam. The best candidate is returned with its epoch logs and all the trials; its
    weight is saved in its generative term (and its beam in its config). Ties go to the earlier candidate.
    ``on_trial(WeightTrial)`` is called after each candidate, ``on_beams(epoch, rows)`` with each grid
    (:func:`glmnlp.parser.training.train_parser`). ``kwargs`` go to :func:`train_combined`.
    """
    if not weights:
        raise ValueError("tune_weight needs at least one candidate weight")
    if any(not (w > 0 and math.isfinite(w)) for w in weights):
        raise ValueError(f"generative weights must be positive and finite, got {list(weights)}")
    hook = GenerativeTraining(weight=float(weights[0]), folds=folds, smoothing=smoothing, seed=config.seed)
    trials: list[WeightTrial] = []
    best: tuple[float, Any, list[Any]] | None = None
    for w in weights:
        t0 = time.perf_counter()
        grids: dict[int, list[tuple[float, int, float, float]]] = {}

        def keep_grid(epoch: int, rows: list[tuple[float, int, float, float]]) -> None:
            grids[epoch] = rows
            if on_beams is not None:
                on_beams(epoch, rows)

        parser, logs = train_combined(train_trees, dev_trees, config, weight=float(w), hook=hook, beams=beams,
                                      on_beams=keep_grid, **kwargs)
        epoch = next(h["best_epoch"] for h in parser.history if "best_epoch" in h)
        trial = WeightTrial(float(w), next(log.dev_f1 for log in logs if log.epoch == epoch), epoch, 0.0)
        if grids:  # each candidate epoch got its own beam (train_parser): this is the chosen one's
            rows = grids[epoch]
            chosen = next(r for r in rows if (r[0], r[1]) == (parser.config.gamma, parser.config.beam_cap))
            trial = replace(trial, beam_dev_f1=float(chosen[2]), gamma=float(chosen[0]), cap=int(chosen[1]),
                            beam_rows=tuple(rows))
        trial = replace(trial, seconds=time.perf_counter() - t0)
        trials.append(trial)
        if on_trial is not None:
            on_trial(trial)
        if best is None or trial.score > best[0]:
            best = (trial.score, parser, logs)
    assert best is not None
    _, parser, logs = best
    parser.history.append({"generative_weight_trials": [t.record() for t in trials]})
    return parser, logs, trials
