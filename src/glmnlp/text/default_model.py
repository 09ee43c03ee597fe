"""The default model bundled with glmnlp: where it lives and the one recipe that reproduces it.

``glmnlp parse "text"`` and :func:`glmnlp.load` without a path use the model in
``glmnlp/data/default_model/`` (package data, so a non-editable install has it). It is a model
directory of the layout :func:`glmnlp.text.loading.load` reads::

    default_model/
      MODEL.json     recipe, data split, dev/test figures, sha256 of every model file
      NOTICE.md      the training data's attribution and licences
      tagger/        glmnlp.tagger.model.Tagger model (metadata.json + weights.npz)
      parser/        glmnlp.parser.model.Parser model (metadata.json + weights.npz; generative/: its
                     generative model, a combined model's; docs/model_files.md)

:func:`train_default` is the recipe; ``glmnlp train-default --out DIR`` runs it. By default it trains on the
bundled treebank sample only (:mod:`glmnlp.treebank.corpus`: train wsj_0001-0159, dev wsj_0160-0179 for
every selection; test wsj_0180-0199 is parsed once at the end for the figures in MODEL.json and
never used to choose anything):

1. **Tagger** (Collins 2002): :class:`~glmnlp.tagger.model.Tagger` with its default
   (extended) features, ``tagger_epochs`` passes, the best pass on dev kept.
2. **Parser input tags** (C&R 2004 §5, footnote 3): the training trees carry 10-fold
   jackknifed tagger tags (:func:`glmnlp.parser.jackknife.jackknife_tags`), dev and test the tags of the
   step-1 tagger, so the parser is trained on tags as noisy as those it gets at parse time.
3. **Parser** (C&R 2004 §3-§4): :func:`glmnlp.parser.training.train_parser` with the ``punct`` feature set,
   early update and the hypothesis cache, ``parser_epochs`` passes; of the two best on dev (training
   beam) the better at its own beam of the step-4 grid is kept (train_parser's "one beam").
4. **Beam**: the parser's weights are first rounded to float32 precision (what the file stores;
   the generative tables are float32-precision from training on), then every (gamma, cap) of ``gammas`` x
   ``caps`` is scored on dev by :func:`glmnlp.parser.selection.tune_beam` (on the executor's workers): the
   best dev F1 (rounded to 0.01) wins, ties going to the cheaper setting (smaller cap, then smaller gamma).
5. **Pruning**: for each threshold of ``prune_candidates`` the parser's weights with ``|w|`` at or
   below it are dropped and dev F1 is measured; the largest threshold whose dev F1 stays within
   ``prune_tolerance`` (0.1) of the unpruned model is used when the parser is written (the hashed
   table is stored sparsely, :meth:`glmnlp.parser.model.Parser.save`). Dev and test F1 of every
   threshold are recorded in MODEL.json (``pruning``), so the cost of pruning is on record.
6. **Input tags at parse time**: with the pruned parser, dev F1 is measured for every margin of
   ``multitag_margins`` (0 = the tagger's single best tag per word; m > 0 = every tag whose
   max-marginal score is within m of the best, :meth:`glmnlp.tagger.model.Tagger.multitag`, so the
   parser, whose generative word model scores each candidate, picks among them). The best dev F1
   (rounded to 0.01) wins, ties to the smaller margin; it is written to MODEL.json
   (``multitag_margin``) and :func:`glmnlp.load` uses it unless told otherwise. Dev and test F1
   of every margin are recorded (``multitag_trials``).

**Everyday English** (``corpora=("ptb_sample", "gum")``, ``glmnlp train-default --gum DIR``): the
training set is the PTB sample's train split plus GUM's train partition (:mod:`glmnlp.treebank.gum`;
silver trees of a strong parser from gold tags, so this is uptraining), and every choice of steps
1-6 is made on the union of the PTB sample dev split and GUM dev. MODEL.json then also records
(``evaluation``) F1 on each dev set alone, on GUM dev per genre, with EVALB's usual COLLINS.prm
and punctuation-free (:func:`scores`: the tokens with a punctuation tag removed from both trees
first), and on every ``extra_tests`` tree file (the hand-annotated question/imperative set).
``max_bytes`` bounds the model's size: if the dev-chosen pruning threshold leaves the model
larger, the smallest threshold that fits is used instead (each threshold's size is measured by
saving it, and recorded in ``pruning``).

Our choices:

* **Parser model.** With ``generative_weights`` the parser is the combined model of
  :mod:`glmnlp.parser.combined` (the jackknifed generative log-probability as one fixed-weight
  feature, C&R 2004 §5), whose parser also gives per-word surprisal; with several candidates the
  fixed weight is chosen on dev (:func:`glmnlp.parser.combined.tune_weight`: the generative models
  are trained once, one perceptron per candidate, best dev F1 wins, ties to the earlier candidate),
  saved in the model, and every candidate's dev F1 is recorded in MODEL.json
  (``generative_weight_trials``). The default is the paper's 10 alone: on the PTB sample the
  candidates 5 / 10 / 20 scored dev 85.45 / 86.16 / 85.32 (the previous bundled model), and each
  candidate costs a whole perceptron training (three times the recipe's time on PTB + GUM). An
  empty tuple trains the perceptron parser alone (tagger tags, punctuation features of C&R 2004 §3.2).
  ``parser_epochs`` is 8 (the CLI's default): with GUM train added the 5-pass recipe's best pass was
  its last (union dev F1 81.24 -> 81.63 from pass 4 to 5), and on the proxy corpus the combined
  model's was the 8th of 8 (``benchmarks/results/scaling.md``). On the sample alone the best was
  the 4th of 6.
* **Generative tables.** Every generative model (full and jackknifed) is frozen with Roark's
  ``-t 0.05`` pruning and a count cutoff: histories of level >= 2 seen at most
  ``generative_min_count`` (4) times are left out (:class:`glmnlp.parser.generative.SmoothingConfig`).
  The cutoff is what keeps the model within ``max_bytes`` (10 MB): on the sample most deep histories are singletons,
  which ``-t`` keeps. The shipped tables, as files (float32 values, occupied slots only), on PTB sample + GUM train
  without the non-commercial genres: 7.65 / 6.42 MB at cutoffs 2 / 4 as deflated files (the shipped ones, cutoff 4,
  take 5.5 MB with LZMA members; old layout: 11.1 / 9.3 / 8.5 / 8.0 / 7.4 MB at 2 / 4 / 6 / 8 / 12). On the sample
  alone (measured when the cutoff was added, code 86528a6; not in a results file) the generative model (gold tags,
  dev, gamma 48, cap 100) scored 86.17 F1 unpruned, 85.61 / 86.20 / 85.18 with cutoffs 1 / 2 / 4, and for the
  combined model (weight 10, 4 passes) the cutoff 2
  gave dev +0.47 F1 with tagger tags and -0.24 with gold tags, but test -1.31 and -1.08
  (benchmarks/results/parsing_generative.md): set ``generative_min_count=0`` to trade size for
  that possible accuracy.
* **Licence of the training data.** The PTB sample is LDC data that NLTK distributes "under fair
  use ... for non-commercial use only", so any model trained on it is for non-commercial use. GUM's
  annotations are CC BY 4.0; its texts are CC BY or CC BY-SA (biographies, travel guides), except
  the essay, fiction, letter, podcast and how-to (wikiHow) documents, which are CC BY-NC-SA (GUM's
  LICENSE.txt). A model adapted from both CC BY-SA and CC BY-NC-SA texts could not meet both
  share-alike terms, so ``gum_exclude`` leaves the CC BY-NC-SA documents out of training by
  default (2,799 of 10,224 GUM train trees). GUM dev is used whole for choices and figures.
  ``glmnlp train-default --gum DIR --gum-noncommercial`` trains on all of GUM train. The model
  directory carries ``NOTICE.md``: the attribution and licence of every data set it was trained on.
* **Beam margins.** The combined model's scores carry the fixed weight x log-probabilities
  (hundreds of units between candidates), so its FILTER margins gamma are wider than the
  perceptron's (train 1e7, dev choice among 1e5, 1e6, 1e7); with them the caps (train 30, dev
  choice 20 or 40) decide the beam size. ``glmnlp parser train --kind combined`` chooses from a wider
  grid (:data:`glmnlp.parser.combined.COMBINED_GAMMAS`, adding gamma 1e8 and cap 100: +0.2 test F1
  with tagger tags on the sample at about half the sentences/s); the recipe keeps this one, the grid
  the bundled model was built with, whose raw-text speed (>= 50 sentences/s,
  benchmarks/results/parsing_default_model.md) the wider beams would not keep. ``glmnlp parse
  --gamma/--cap`` parses at another beam.
* **Determinism**: every step is seeded by ``seed``; the beam choice (step 4) never looks
  at timings (the library's :func:`~glmnlp.parser.selection.tune_beam` breaks F1 ties by the smaller beam,
  never by speed); the parser history written to the model leaves out the
  per-epoch seconds; model files are byte-deterministic (:mod:`glmnlp.glm.model_io`). Two runs of
  the same recipe on the same platform give byte-identical files (tested on a tiny recipe).
* **Atomic output** (:func:`glmnlp.glm.model_io.staged_output_dir`): the model is written into a
  temporary directory next to ``out`` and renamed into place; ``out`` must be absent, empty, or
  (with ``overwrite``) a pipeline model written by glmnlp holding only the files MODEL.json lists;
  anything else is refused before training starts and never deleted. Its folder must be writable
  (a probe file is created there), and every ``extra_tests`` file is read and checked, also before
  training starts: a mistake there costs seconds, not a training run.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import shutil
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

from glmnlp.errors import ConfigError, InputError
from glmnlp.glm.model_files import scratch_folder
from glmnlp.glm.model_io import PIPELINE_FILE, PIPELINE_KIND, check_output_dir, staged_output_dir
from glmnlp.text.default_recipe import (
    CORPORA,
    DEV_NAMES,
    NOTICE_FILE,
    TRAIN_COMMAND,
    DefaultRecipe,
    description,
    notice,
    train_command,
)

__all__ = [
    "DefaultRecipe",
    "TrainReport",
    "default_model_path",
    "model_checksums",
    "train_default",
    "TRAIN_COMMAND",
    "train_command",
]

MODEL_FILE = PIPELINE_FILE


def default_model_path() -> Path:
    """Where the bundled default model lives inside the installed package."""
    return Path(str(resources.files("glmnlp").joinpath("data", "default_model")))



@dataclass
class TrainReport:
    """What :func:`train_default` measured (also written to MODEL.json, minus nothing).

    ``dev_f1`` and ``test_f1``: ``"shipped"`` is the model as written (pruned weights, input tags within the chosen
    ``multitag_margin``); ``"unpruned"`` the parser before both choices (every weight, the tagger's single best
    tags), so their difference is that of pruning and multitagging together (``pruning`` and ``multitag_trials``
    hold each alone)."""

    recipe: DefaultRecipe
    sentences: dict[str, int]
    tagger_dev_accuracy: float
    tagger_best_epoch: int
    parser_best_epoch: int
    parser_dev_f1_by_epoch: list[float]
    parser_epoch_trials: list[dict[str, Any]]
    generative_weight: float
    generative_weight_trials: list[dict[str, float]]
    multitag_margin: float
    multitag_trials: list[dict[str, float]]
    beam: dict[str, Any]
    beam_trials: list[dict[str, float]]
    prune: float
    pruning: list[dict[str, float]]
    dev_f1: dict[str, float]
    test_f1: dict[str, float]
    test_tag_accuracy: float
    weights: dict[str, int]
    bytes: dict[str, int]
    evaluation: dict[str, Any] = field(default_factory=dict)
    checksums: dict[str, str] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        """The report as plain JSON values (deterministic: no timings)."""
        data = dataclasses.asdict(self)
        data["recipe"] = self.recipe.to_json()
        return data


def _sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def model_checksums(root: str | Path) -> dict[str, str]:
    """sha256 of every file under a model directory except MODEL.json, keyed by relative path."""
    root = Path(root)
    return {
        p.relative_to(root).as_posix(): _sha256(p)
        for p in sorted(root.rglob("*"))
        if p.is_file() and p.name != MODEL_FILE
    }


def _folder_bytes(folder: Path) -> int:
    return sum(p.stat().st_size for p in folder.rglob("*") if p.is_file())


def _cut(items: list[Any], limit: int | None) -> list[Any]:
    return items if limit is None else items[:limit]


def _r(x: float) -> float:
    """Round a figure for MODEL.json (stable text; the full value adds nothing)."""
    return round(float(x), 4)


@dataclass
class Corpora:
    """The recipe's data: train and dev are the union of every corpus's split, test the PTB sample's.

    ``parts[name][split]`` holds each corpus's own trees (``max_*`` cuts apply per corpus) and
    ``genres`` the GUM genre of every GUM dev tree (empty without GUM).
    """

    train: list[Any]
    dev: list[Any]
    test: list[Any]
    parts: dict[str, dict[str, list[Any]]]
    genres: list[str]


def load_corpora(recipe: DefaultRecipe, gum_dir: str | Path | None) -> Corpora:
    """Read the corpora named by ``recipe.corpora`` (GUM from ``gum_dir``: ``train/`` and ``dev/``)."""
    from glmnlp.treebank.corpus import sample_trees

    parts: dict[str, dict[str, list[Any]]] = {
        "ptb_sample": {
            "train": _cut(sample_trees("train"), recipe.max_train),
            "dev": _cut(sample_trees("dev"), recipe.max_dev),
            "test": _cut(sample_trees("test"), recipe.max_test),
        }
    }
    genres: list[str] = []
    if "gum" in recipe.corpora:
        if gum_dir is None:
            raise ConfigError("this recipe trains on GUM as well: give the folder of GUM's const/ train and dev "
                              "partitions (glmnlp train-default --gum DIR)")
        from glmnlp.treebank.gum import gum_files, read_gum_file

        # GUM_<genre>_<name>.ptb: the genre is the file name's second part
        dev_pairs = _cut([(path.stem.split("_")[1], tree) for path in gum_files(gum_dir, "dev")
                          for tree in read_gum_file(path)], recipe.max_dev)
        parts["gum"] = {
            "train": _cut([tree for path in gum_files(gum_dir, "train")
                           if path.stem.split("_")[1] not in recipe.gum_exclude
                           for tree in read_gum_file(path)], recipe.max_train),
            "dev": [tree for _, tree in dev_pairs],
            "test": [],
        }
        genres = [genre for genre, _ in dev_pairs]
    names = [c for c in CORPORA if c in recipe.corpora]
    return Corpora(
        train=[t for name in names for t in parts[name]["train"]],
        dev=[t for name in names for t in parts[name]["dev"]],
        test=parts["ptb_sample"]["test"],
        parts=parts,
        genres=genres,
    )


def scores(gold: Sequence[Any], parsed: Sequence[Any]) -> dict[str, float]:
    """F1 (EVALB, COLLINS.prm) as usual and with punctuation removed on both sides, and tag accuracy.

    The punctuation-free figure is COLLINS.prm with ``strip_punct`` (every token without a letter
    or digit removed from both trees before scoring; ``glmnlp evalb --strip-punct``).
    """
    from glmnlp.parser.selection import SELECTION_PARAMS
    from glmnlp.treebank.evalb import score_trees

    standard = score_trees(list(gold), list(parsed), SELECTION_PARAMS)
    bare = score_trees(list(gold), list(parsed), dataclasses.replace(SELECTION_PARAMS, strip_punct=True))
    return {"sentences": len(gold), "f1": _r(standard.fmeasure), "f1_no_punct": _r(bare.fmeasure),
            "tag_accuracy": _r(standard.total.tagging_accuracy)}


def dev_breakdown(data: Corpora, dev_parsed: Sequence[Any]) -> dict[str, Any]:
    """Scores of the dev parses per corpus and, for GUM, per genre."""
    out: dict[str, Any] = {}
    at = 0
    for name in (c for c in CORPORA if c in data.parts):
        gold = data.parts[name]["dev"]
        parsed = dev_parsed[at:at + len(gold)]
        at += len(gold)
        out[f"{name}_dev"] = scores(gold, parsed)
        if name == "gum":
            by: dict[str, tuple[list[Any], list[Any]]] = {}
            for genre, g, p in zip(data.genres, gold, parsed):
                by.setdefault(genre, ([], []))[0].append(g)
                by[genre][1].append(p)
            out["gum_dev"]["by_genre"] = {genre: scores(g, p) for genre, (g, p) in sorted(by.items())}
    return out


def _read_clean(path: str | Path) -> list[Any]:
    from glmnlp.treebank.preprocess import clean_tree
    from glmnlp.treebank.trees import read_tree_file

    return [clean_tree(t) for t in read_tree_file(path)]


def _read_extra_tests(extra_tests: dict[str, str | Path] | None) -> dict[str, list[Any]]:
    """The cleaned gold trees of every ``extra_tests`` file, read before any training: a missing,
    unreadable, malformed or empty file is an :class:`~glmnlp.errors.InputError` (``file:line: reason``),
    a name the report already uses (``ptb_sample_dev``, ``gum_dev``) a :class:`ConfigError`."""
    gold: dict[str, list[Any]] = {}
    for name, path in sorted((extra_tests or {}).items()):
        if name in DEV_NAMES:
            raise ConfigError(f"extra test name {name!r} is taken by the dev figures; choose another")
        gold[name] = _read_clean(path)
        if not gold[name]:
            raise InputError("no trees in this file", source=str(path))
    return gold


def train_default(
    out: str | Path,
    recipe: DefaultRecipe = DefaultRecipe(),
    *,
    gum_dir: str | Path | None = None,
    overwrite: bool = False,
    extra_tests: dict[str, str | Path] | None = None,
    log: Callable[[str], None] | None = None,
    show_progress: bool = False,
    executor: Any = None,
    shards: int = 1,
    mixing: str = "uniform",
    jobs: int | None = None,
    backend: str | None = None,
    address: str | None = None,
) -> TrainReport:
    """Train the default tagger + parser on the bundled sample and write the model directory ``out``.

    ``log`` receives one line per step (dev figures, the chosen beam); ``show_progress`` shows
    progress bars on stderr (only when it is a terminal). Returns the :class:`TrainReport` that is
    also written to ``out/MODEL.json``.

    ``executor`` (:class:`glmnlp.glm.parallel.Executor`; unset: one made from ``jobs``, ``backend`` and ``address``
    as for :meth:`glmnlp.Tagger.fit`, or, when they are unset too, one for each step from :mod:`glmnlp.config`, by
    default every core) runs the independent steps (jackknife folds) and the parser's training shards; the model
    does not depend on it. ``shards > 1`` trains the parser by iterative parameter mixing (a different model from
    the shipped one, which is serial).

    ``out`` (:func:`glmnlp.glm.model_io.check_output_dir`) and the ``extra_tests`` files
    (:func:`_read_extra_tests`) are checked before training starts.
    """
    if executor is None and (jobs, backend, address) != (None, None, None):
        from glmnlp.glm.parallel import Executor

        with Executor(jobs, backend, address) as own:  # one for every step, stopped when training ends
            return train_default(out, recipe, gum_dir=gum_dir, overwrite=overwrite, extra_tests=extra_tests, log=log,
                                 show_progress=show_progress, executor=own, shards=shards, mixing=mixing)
    import numpy as np

    from glmnlp.treebank.evalb import score_trees
    from glmnlp.treebank.formats import TaggedSentence
    from glmnlp.parser.model import Parser, ParserConfig
    from glmnlp.parser.jackknife import jackknife_tags
    from glmnlp.parser.selection import SELECTION_PARAMS, tune_beam
    from glmnlp.glm.training import check_shards
    from glmnlp.parser.training import train_parser
    from glmnlp.tagger.model import Tagger, TaggerConfig

    say = log or (lambda _msg: None)
    out = Path(out)
    check_output_dir(out, PIPELINE_KIND, replace=overwrite)
    extra_gold = _read_extra_tests(extra_tests)
    data = load_corpora(recipe, gum_dir)
    train, dev, test = data.train, data.dev, data.test
    recipe.check_training_size(len(train))  # before any training, as the shards (found after minutes otherwise)
    check_shards(shards, len(train))
    say("data: " + ", ".join(f"{name} {len(data.parts[name]['train'])}/{len(data.parts[name]['dev'])}"
                             for name in recipe.corpora) + " train/dev trees; test: ptb_sample")

    def tagged(trees: Sequence[Any]) -> list[TaggedSentence]:
        return [TaggedSentence(tuple(t.leaves()), tuple(t.tags())) for t in trees]

    # 1. tagger
    say(f"tagger: {len(train)} training sentences, {recipe.tagger_epochs} epochs, best on {len(dev)} dev sentences")
    tagger = Tagger(TaggerConfig(epochs=recipe.tagger_epochs, seed=recipe.seed)).fit(
        tagged(train), tagged(dev), show_progress=show_progress
    )
    tagger_dev = next(r.dev_score for r in tagger.history_ if r.epoch == tagger.best_epoch_)
    assert tagger_dev is not None
    say(f"tagger: best epoch {tagger.best_epoch_}, dev accuracy {100 * tagger_dev:.2f}%")

    # 2. parser input tags
    say(f"parser input tags: {recipe.jackknife_folds}-fold jackknifing of the training split")
    jk = jackknife_tags(
        train, recipe.jackknife_folds, epochs=recipe.jackknife_epochs, seed=recipe.seed, executor=executor
    )
    train_tags = [[[t] for t in sent] for sent in jk]
    dev_tags = [[[t] for t in tags] for tags in tagger.tag_sentences([t.leaves() for t in dev])]
    test_tags = [[[t] for t in tags] for tags in tagger.tag_sentences([t.leaves() for t in test])]

    # 3. parser
    config = ParserConfig(
        features=recipe.features, epochs=recipe.parser_epochs, seed=recipe.seed, train_gamma=recipe.train_gamma,
        train_cap=recipe.train_cap, n_bits=recipe.n_bits, shards=shards, mixing=mixing,
    )

    def on_epoch(e: Any) -> None:
        say(f"parser: epoch {e.epoch}: dev F1 {e.dev_f1:.2f}, {e.updates} updates")

    weight_trials: list[dict[str, float]] = []
    if recipe.generative_weights:
        from glmnlp.parser.combined import tune_weight
        from glmnlp.parser.generative import SmoothingConfig

        say(f"combined model: generative feature weight chosen on dev from "
            f"{', '.join(f'{w:g}' for w in recipe.generative_weights)}; "
            f"{recipe.generative_folds}-fold jackknifed generative models")

        def on_trial(t: Any) -> None:
            say(f"combined model: weight {t.weight:g}: epoch {t.best_epoch}, dev F1 {t.score:.2f} at gamma={t.gamma:g} "
                f"cap={t.cap} ({t.dev_f1:.2f} at the selection beam)")

        smoothing = SmoothingConfig(min_count=recipe.generative_min_count, prune=recipe.generative_prune)
        parser, logs, wtrials = tune_weight(
            train, dev, config, recipe.generative_weights, folds=recipe.generative_folds, on_trial=on_trial,
            smoothing=smoothing,
            train_tags=train_tags, dev_tags=dev_tags, show_progress=show_progress, on_epoch=on_epoch,
            executor=executor, beams=(recipe.gammas, recipe.caps),
        )
        weight_trials = [{**t.record(), "dev_f1": _r(t.dev_f1), "beam_dev_f1": _r(t.score)} for t in wtrials]
        say(f"combined model: weight {parser.generative.weight:g} chosen")
    else:
        parser, logs = train_parser(
            train, dev, config, train_tags=train_tags, dev_tags=dev_tags, show_progress=show_progress,
            on_epoch=on_epoch, executor=executor, beams=(recipe.gammas, recipe.caps),
        )
    # the pass train_parser kept: the best at its own beam of the recipe's grid, among the best two at
    # the selection beam (step 4 then chooses the beam again with the float32 weights the file stores)
    best_epoch = next(h["best_epoch"] for h in parser.history if "best_epoch" in h)
    # float32 precision from here on: every figure below is measured with the weights the file
    # stores in 4 bytes each (Parser.save writes float32 when that is exact)
    parser.weights = parser.weights.astype(np.float32)
    if parser.generative is not None:
        parser.generative = dataclasses.replace(parser.generative, model=parser.generative.model.with_float32_tables())

    def parsed(p: Parser, trees: Sequence[Any], tags: Sequence[Any]) -> list[Any]:  # tags unchecked: evaluation
        return [p.parse(t.leaves(), tg, check_tags=False) for t, tg in zip(trees, tags)]  # (selection.evaluate)

    def parse_all(p: Parser, trees: Sequence[Any], tags: Sequence[Any]) -> Any:
        return score_trees(list(trees), parsed(p, trees, tags), SELECTION_PARAMS)

    # 4. beam: the library's grid and tie rule, with the float32 weights
    rows = tune_beam(parser, dev, recipe.gammas, recipe.caps, dev_tags, executor=executor)
    trials = [{"gamma": g, "cap": c, "dev_f1": _r(f1)} for g, c, f1, _rate in rows]
    chosen = next(t for t in trials if (t["gamma"], t["cap"]) == (parser.config.gamma, parser.config.beam_cap))
    say(f"beam: gamma={chosen['gamma']:g} cap={int(chosen['cap'])} (dev F1 {chosen['dev_f1']:.2f})")

    # 5. prune (threshold chosen on dev), measure, write
    history = [
        {"epoch": e.epoch, "dev_f1": _r(e.dev_f1), "updates": e.updates, "early_stops": e.early_stops,
         "cache_updates": e.cache_updates}
        for e in logs
    ] + [{"best_epoch": best_epoch}]
    # the passes compared at their own beams (train_parser's "one beam"): the runner-up's figure too
    epoch_trials: list[dict[str, Any]] = next((h["epoch_trials"] for h in parser.history if "epoch_trials" in h), [])
    if epoch_trials:
        history.append({"epoch_trials": epoch_trials})
    full_weights = parser.weights.copy()
    dev_full = parse_all(parser, dev, dev_tags).fmeasure
    test_full = parse_all(parser, test, test_tags)
    with scratch_folder("glmnlp-size") as scratch:
        tagger.save(scratch / "tagger")
        tagger_bytes = _folder_bytes(scratch / "tagger")

        def model_bytes(threshold: float) -> int:
            # the size the model directory will have with this threshold (saving is deterministic)
            shutil.rmtree(scratch / "parser", ignore_errors=True)
            parser.save(scratch / "parser", history=history, prune=threshold)
            return tagger_bytes + _folder_bytes(scratch / "parser")

        parser.weights = full_weights
        pruning: list[dict[str, float]] = [
            {"prune": 0.0, "kept": int((full_weights != 0).sum()), "dev_f1": _r(dev_full),
             "test_f1": _r(test_full.fmeasure), "bytes": model_bytes(0.0)}
        ]
        results = {0.0: test_full}
        for threshold in sorted(recipe.prune_candidates):
            # the same rule as Parser.save(prune=...): keep |w| > threshold
            parser.weights = np.where(np.abs(full_weights) > threshold, full_weights, 0.0)
            dev_f1 = parse_all(parser, dev, dev_tags).fmeasure
            results[threshold] = test_result = parse_all(parser, test, test_tags)
            parser.weights = full_weights
            pruning.append({"prune": threshold, "kept": int((np.abs(full_weights) > threshold).sum()),
                            "dev_f1": _r(dev_f1), "test_f1": _r(test_result.fmeasure),
                            "bytes": model_bytes(threshold)})
    # the largest threshold within the dev tolerance; if that model is over the size limit, the
    # smallest threshold that fits (whatever its dev cost, which the table records)
    ok = [r for r in pruning if r["dev_f1"] >= _r(dev_full) - recipe.prune_tolerance]
    row = max(ok, key=lambda r: r["prune"])
    if recipe.max_bytes is not None and row["bytes"] > recipe.max_bytes:
        fits = [r for r in pruning if r["bytes"] <= recipe.max_bytes]
        # nothing fits: the smallest model, and the log says so (MODEL.json records every size)
        row = min(fits, key=lambda r: r["prune"]) if fits else max(pruning, key=lambda r: r["prune"])
        if not fits:
            say(f"pruning: no candidate brings the model under {recipe.max_bytes} bytes; "
                + ", ".join(f"{r['prune']:g}: {r['bytes']}" for r in pruning))
    chosen_prune, test_shipped = row["prune"], results[row["prune"]]
    shipped_row = next(r for r in pruning if r["prune"] == chosen_prune)
    say(f"pruning: |w| <= {chosen_prune:g} dropped, {shipped_row['kept']} of {pruning[0]['kept']} weights kept "
        f"(dev F1 {shipped_row['dev_f1']:.2f}, unpruned {pruning[0]['dev_f1']:.2f})")

    # 6. input tags: single best, or several within a margin (with the pruned weights that ship)
    parser.weights = np.where(np.abs(full_weights) > chosen_prune, full_weights, 0.0)

    def input_tags(trees: Sequence[Any], margin: float, single: list[list[list[str]]]) -> list[list[list[str]]]:
        return single if margin == 0 else [tagger.multitag(t.leaves(), margin) for t in trees]

    multitag_trials: list[dict[str, float]] = []
    test_by_margin: dict[float, Any] = {}
    dev_by_margin: dict[float, list[Any]] = {}
    for margin in recipe.multitag_margins:
        ttags = input_tags(test, margin, test_tags)
        test_by_margin[margin] = test_result = parse_all(parser, test, ttags)
        multitag_trials.append({
            "margin": margin, "tags_per_word": _r(sum(len(w) for s in ttags for w in s) / max(1, sum(map(len, ttags)))),
            "dev_f1": _r(score_trees(list(dev), dev_by_margin.setdefault(margin, parsed(
                parser, dev, input_tags(dev, margin, dev_tags))), SELECTION_PARAMS).fmeasure),
            "test_f1": _r(test_result.fmeasure), "test_tag_accuracy": _r(test_result.total.tagging_accuracy),
        })
    best_margin = max(multitag_trials, key=lambda r: (round(r["dev_f1"], 2), -r["margin"]))
    shipped_row = dict(shipped_row, dev_f1=best_margin["dev_f1"])
    test_shipped = test_by_margin[best_margin["margin"]]
    say(f"input tags: margin {best_margin['margin']:g} (dev F1 {best_margin['dev_f1']:.2f}); "
        + ", ".join(f"{r['margin']:g}: {r['dev_f1']:.2f}" for r in multitag_trials))
    evaluation = dev_breakdown(data, dev_by_margin[best_margin["margin"]])
    for name, gold in extra_gold.items():
        single = [[[g] for g in tags] for tags in tagger.tag_sentences([t.leaves() for t in gold])]
        gold_tags = input_tags(gold, best_margin["margin"], single)
        evaluation[name] = scores(gold, parsed(parser, gold, gold_tags))
    for key, value in evaluation.items():
        say(f"evaluation: {key}: " + json.dumps(value if key != "gum_dev" else
                                                 {k: v for k, v in value.items() if k != "by_genre"}))
    parser.weights = full_weights

    with staged_output_dir(out, PIPELINE_KIND, replace=overwrite) as tmp:
        (tmp / NOTICE_FILE).write_text(notice(recipe), encoding="utf-8")
        tagger.save(tmp / "tagger")
        parser.save(tmp / "parser", history=history, prune=chosen_prune)
        shipped = Parser.load(tmp / "parser")
        if int((shipped.weights != 0).sum()) != shipped_row["kept"]:
            raise RuntimeError("the saved parser does not hold the pruned weights that were measured")
        checksums = model_checksums(tmp)
        report = TrainReport(
            recipe=recipe,
            sentences={"train": len(train), "dev": len(dev), "test": len(test),
                       **{f"{name}_{split}": len(trees) for name, part in data.parts.items()
                          for split, trees in part.items() if trees and name != "ptb_sample"}},
            tagger_dev_accuracy=_r(100 * tagger_dev),
            tagger_best_epoch=tagger.best_epoch_,
            parser_best_epoch=best_epoch,
            parser_dev_f1_by_epoch=[_r(e.dev_f1) for e in logs],
            parser_epoch_trials=epoch_trials,
            generative_weight=0.0 if parser.generative is None else parser.generative.weight,
            generative_weight_trials=weight_trials,
            multitag_margin=best_margin["margin"],
            multitag_trials=multitag_trials,
            beam={"gamma": chosen["gamma"], "cap": int(chosen["cap"])},
            beam_trials=trials,
            prune=chosen_prune,
            pruning=pruning,
            dev_f1={"unpruned": _r(dev_full), "shipped": shipped_row["dev_f1"]},
            test_f1={"unpruned": _r(test_full.fmeasure), "shipped": _r(test_shipped.fmeasure)},
            test_tag_accuracy=_r(test_shipped.total.tagging_accuracy),
            evaluation=evaluation,
            weights={"nonzero": int(pruning[0]["kept"]), "kept": int(shipped_row["kept"])},  # counts, held as ints
            bytes={name: (tmp / name).stat().st_size for name in checksums},
            checksums=checksums,
        )
        meta = {
            "description": description(recipe),
            "command": train_command(recipe, shards, mixing, extra_gold),
            **report.to_json(),
        }
        (tmp / MODEL_FILE).write_text(json.dumps(meta, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    say(f"test F1 {report.test_f1['shipped']:.2f} (before pruning and multitagging, with every weight and single tags: "
        f"{report.test_f1['unpruned']:.2f}); written to {out}")
    return report
