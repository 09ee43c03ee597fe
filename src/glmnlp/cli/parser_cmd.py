"""``glmnlp parser train``: a thin wrapper over the parser's trainers (:mod:`glmnlp.parser.training`,
:mod:`glmnlp.parser.combined`); ``glmnlp parse`` is :mod:`glmnlp.cli.parse_cmd`.

The model goes to ``--out``; progress, per-epoch dev F1 and the chosen settings go to stderr.

``parser train`` takes cleaned TOP-rooted trees only, for training and dev alike: a raw treebank tree
(an unlabelled ``( (S ...) )`` root, ``-NONE-`` elements, function tags or indices such as ``NP-SBJ-1``)
or a malformed one (another root, a root over a word) is refused before anything is trained, as
``file:line: tree N: reason`` with how to get cleaned trees (:func:`glmnlp.parser.grammar.tree_problem`;
the choice to refuse rather than clean is argued there).

An option given on the command line that the chosen ``--kind`` does not use is a usage error (status 2)
rather than silently ignored: the perceptron's options (``--epochs``, ``--shards``, ``--mixing``,
``--features``, ``--feature-bits``, ``--no-early-update``, ``--no-cache``) with ``--kind generative``,
the generative tables' ``--gen-cutoff`` and ``--gen-prune`` with ``--kind perceptron``, and
``--generative-weights`` with any kind but ``combined``; every such option given is named in one message.
``--jobs``, ``--backend`` and ``--address``
say where work runs and never change the model, and are accepted with every kind.

``parser train`` closes its executor when it ends, normally or not (its workers terminated if that
is an error or Ctrl-C; :mod:`glmnlp.glm.parallel`), rather than leave it to the interpreter's
exit-time cleanup.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence
from typing import Any

import click

from glmnlp.errors import InputError
from glmnlp.parser.term import MAX_WEIGHT
from ._params import (InputFile, NonEmptyPath, NumberRange, and_list, check_tagset, given_options,
                      parser_parallel_options, rare_chains_said, some_of, warn_if_dev_is_train, weight_list)
from glmnlp.treebank.trees import Tree, read_tree_file_with_lines

__all__ = ["parser_group"]


@click.group("parser")
def parser_group() -> None:
    """Train the incremental parser of Collins & Roark (2004): perceptron, generative or combined.

    \b
    Examples:
      glmnlp parser train --train train.trees --dev dev.trees --out parser.model
      glmnlp parser train --train train.trees --dev dev.trees --tags tagger --out parser.model
      glmnlp parser train --train train.trees --dev dev.trees --kind combined --out combined.model
      glmnlp parse --model parser.model --tagged < tagged.txt
    """


@parser_group.command("train")
@click.option("--train", "train_path", required=True, type=InputFile(), help="Training trees.")
@click.option("--dev", "dev_path", required=True, type=InputFile(), help="Dev trees (epoch and beam selection).")
@click.option("--tags", type=click.Choice(["gold", "tagger"]), default="gold", show_default=True,
              help="POS input: gold tags, or glmnlp tagger tags (training data jackknifed 10 ways; dev tagged by a "
                   "tagger trained on all of --train, 5 passes, --seed; not saved; --kind generative keeps the "
                   "gold training tags and tags only the dev trees).")
@click.option("--kind", type=click.Choice(["perceptron", "generative", "combined"]), default="perceptron",
              show_default=True,
              help="perceptron: the GLM parser; generative: the generative model alone; combined: the perceptron "
                   "with the jackknifed generative log-probability as one fixed-weight feature (C&R 2004 Table 4).")
@click.option("--generative-weights", default="10", show_default=True, metavar="W1,W2,...",
              help="--kind combined: the fixed weight of the generative feature (the paper's 10; each in "
                   f"(0, {MAX_WEIGHT:g}], the weights a model may hold), or several "
                   "candidates: one perceptron is trained per candidate and the best on dev is kept and saved "
                   "in the model.")
@click.option("--gen-cutoff", type=click.IntRange(min=0), default=None,
              help="Generative tables: leave out histories (level >= 2) seen at most this often (0 = keep all). "
                   "Default: 2 for --kind combined, 0 for --kind generative (each chosen on dev).")
@click.option("--gen-prune", type=NumberRange(min=0), default=None,
              help="Generative tables: Roark's -t relative pruning threshold (0 = none). "
                   "Default: 0.05 for --kind combined, 0 for --kind generative (each chosen on dev).")
@click.option("--features", type=click.Choice(["baseline", "punct"]), default="punct", show_default=True,
              help="The perceptron's templates (unused by --kind generative). baseline: those of C&R 2004 §3.2, "
                   "Table 2; punct: those and the three punctuation features of §3.2 (a question's final question "
                   "mark, the tag after punctuation or a conjunction, punctuation two places to the left).")
@click.option("--feature-bits", default=None, metavar="BITS|auto",
              help="The hashed features' weight table: 2**BITS slots (16-28; default 22). auto: the smallest table "
                   "in which at most 1% of the training set's gold-derivation features share a slot (counted before "
                   "training). "
                   "Each slot costs memory (2**27: about 12 GB to train with 2 workers, 1.3 GB to parse); on "
                   "the 13,620-tree proxy treebank 22 and 27 bits (auto) parse equally well "
                   "(benchmarks/results/feature_collisions.md).")
@click.option("--no-early-update", is_flag=True, help="Decode whole sentences before updating.")
@click.option("--no-cache", is_flag=True, help="Disable the repeated use of hypotheses.")
@click.option("--epochs", type=click.IntRange(min=1, max=10**6), default=8, show_default=True,
              help="Passes of the perceptron over --train; each is scored on --dev and the best is kept.")
@click.option("--seed", type=click.IntRange(min=0, max=2**63 - 1), default=0, show_default=True,
              help="Seed of each pass's shuffling of the training sentences, of the cache's sampling, of the "
                   "generative model's random folds (its deleted estimation; with --kind combined also the "
                   "jackknifed generative models) and, with --tags tagger, of the taggers that tag --train "
                   "(jackknifed) and --dev.")
@click.option("--out", "out_path", required=True, type=NonEmptyPath(), help="Model directory to write.")
@click.option("--force", is_flag=True,
              help="Replace an existing parser model at --out (only a glmnlp parser model is ever replaced).")
@click.option("-q", "--quiet", is_flag=True,
              help="No progress bars, step lines or per-epoch and per-beam lines on stderr; warnings and the chosen "
                   "settings are still printed.")
@parser_parallel_options
def train_cmd(train_path: str, dev_path: str, tags: str, kind: str, generative_weights: str, gen_cutoff: int | None,
              gen_prune: float | None, features: str, feature_bits: str | None, no_early_update: bool, no_cache: bool,
              epochs: int, seed: int, out_path: str, force: bool, quiet: bool, shards: int | None, mixing: str,
              jobs: int | None, backend: str | None, address: str | None) -> None:
    """Train a parser on cleaned TOP-rooted trees and save the best-epoch model.

    Training and dev trees must be cleaned and TOP-rooted, as glmnlp data writes them (no -NONE-
    elements, no function tags or indices); any other tree is refused with its file and line.

    Epochs, the beam (gamma, cap) and, for --kind combined given several --generative-weights, the
    generative feature's weight are chosen on the dev trees, at the beam the model will parse with:
    the two best epochs at the selection beam (gamma 1e4, cap 30) each get their beam from a dev grid
    and the better one is kept. The choices are printed and stored in the model. The passes run as one shard per worker
    (iterative parameter mixing) unless --shards says otherwise; --shards 1 is the serial perceptron.
    --out must be a new or empty folder, or with --force a parser model written by glmnlp (checked
    before training). The features are hashed into a table of 2**22 weights unless --feature-bits
    says otherwise (auto: sized from the training data). An option the chosen --kind does not use
    is refused (the perceptron's options with --kind generative, --gen-cutoff and --gen-prune with
    --kind perceptron, --generative-weights without --kind combined).

    \b
    Examples:
      glmnlp parser train --train train.trees --dev dev.trees --features punct --out parser.model
      glmnlp parser train --train train.trees --dev dev.trees --kind combined --out combined.model
      glmnlp parser train --train train.trees --dev dev.trees --kind generative --out generative.model
      glmnlp parser train --train train.trees --dev dev.trees --shards 1 --out serial.model
    """
    from glmnlp.glm.parallel import Executor

    from glmnlp.treebank.formats import TaggedSentence
    from glmnlp.parser.generative import SmoothingConfig
    from glmnlp.glm.model_io import check_output_dir
    from glmnlp.parser.config import ParserConfig
    from glmnlp.parser.files import MODEL_KIND
    from glmnlp.parser.jackknife import fold_count, jackknife_tags
    from glmnlp.parser.selection import PERCEPTRON_CAPS, PERCEPTRON_GAMMAS
    from glmnlp.parser.training import train_parser

    _check_kind_options(kind)
    n_bits = _feature_bits(feature_bits)  # None: auto, chosen below from the training trees
    weights = weight_list(generative_weights, "--generative-weights")
    # unpruned tables for the generative model alone: GUM dev 79.36 -> 79.73 (benchmarks/results/
    # generative_gap.md); the combined model keeps the cut tables it chose on the sample's dev
    alone = kind == "generative"
    smoothing = SmoothingConfig(
        min_count=(0 if alone else 2) if gen_cutoff is None else gen_cutoff,
        prune=(0.0 if alone else 0.05) if gen_prune is None else gen_prune,
        seed=seed,
    )
    check_output_dir(out_path, MODEL_KIND, replace=force)

    def step(message: str) -> None:
        """A step or per-epoch line on stderr, left out with --quiet."""
        if not quiet:
            click.echo(message, err=True)

    train = _read_trees(train_path)
    _check_enough(train, train_path, kind, tags)
    if shards is not None:
        from glmnlp.glm.training import check_shards

        check_shards(shards, len(train))
    _warn_shared_labels(train, train_path)
    if features == "punct" and kind != "generative":
        _warn_no_punctuation(train, train_path)
    dev = _read_trees(dev_path)
    # another tagset on dev: refused as tagger train refuses it (it trained on a dev F1 of 0.00, status 0)
    check_tagset({t for tree in train for t in tree.tags()}, [tree.tags() for tree in dev], dev_path, None,
                 "dev", "--train")
    _warn_dev(train, dev, train_path, dev_path)
    # closed on the way out (its workers terminated if that is an error or Ctrl-C), not left to the
    # interpreter's exit-time cleanup
    with rare_chains_said(train_path), Executor(jobs, backend, address) as executor:
        if shards is None:  # one shard per worker: the passes use every core (a shard a tree at most)
            shards = min(executor.jobs, len(train))
            if kind != "generative":  # the model depends on the shards: said, so that it can be made again anywhere
                step(f"training on {shards} shard{'s' if shards > 1 else ''}, one per worker (--shards {shards} "
                     "trains this model on any machine)")
            if shards == 1 and given_options("mixing"):  # as with --shards 1: nothing to mix, the same model bits
                raise click.UsageError("--mixing mixes the weights of several shards; --shards defaults to one per "
                                       "worker, here 1: give --shards N to mix")
        train_tags = dev_tags = None
        if tags == "tagger":
            from glmnlp.tagger.model import Tagger, TaggerConfig

            if kind != "generative":
                # the generative model alone trains on the treebank's tags, as Roark's parser does: GUM dev
                # 81.20 -> 81.55 at its chosen beam and margin 2 (benchmarks/results/generative_gap.md)
                folds = fold_count(len(train))
                step(f"jackknifing tagger tags ({folds} folds) ...")
                train_tags = [[[t] for t in s] for s in jackknife_tags(train, folds, seed=seed, executor=executor)]
            tagger = Tagger(TaggerConfig(epochs=5, seed=seed)).fit(
                [TaggedSentence(tuple(t.leaves()), tuple(t.tags())) for t in train], None, show_progress=False
            )
            dev_tags = [[[t] for t in tagger.tag(x.leaves())] for x in dev]
        if kind == "generative":
            from glmnlp.parser.combined import train_generative_parser

            def show_generative_beams(rows: list[tuple[float, int, float, float]]) -> None:
                for gamma, cap, f1, rate in rows:
                    step(f"beam gamma={gamma:g} cap={cap}: dev F1 {f1:.2f}, {rate:.0f} sentences/s")

            step("training the generative model (lambdas by 10-fold deleted estimation) ...")
            parser = train_generative_parser(
                train, dev, train_tags=train_tags, dev_tags=dev_tags, smoothing=smoothing,
                on_beams=show_generative_beams)
            click.echo(f"chosen gamma={parser.config.gamma:g} cap={parser.config.beam_cap}", err=True)
            parser.history.append(_training_record(kind, tags, train, dev))
            _warn_if_nothing_parsed(parser.history, len(train))
            parser.save(out_path, history=parser.history, replace=force)
            click.echo(f"saved {out_path}", err=True)
            return
        combined = kind == "combined"
        # the combined score carries weight x log-probabilities (hundreds of units between candidates),
        # so its FILTER margins are wider; with them the caps decide the beam size
        cfg = ParserConfig(features=features, early_update=not no_early_update, cache=not no_cache, epochs=epochs,
                           seed=seed, train_gamma=1e7 if combined else 1e4, train_cap=30, shards=shards, mixing=mixing,
                           n_bits=ParserConfig.n_bits if n_bits is None else n_bits)
        chosen = None
        if n_bits is None:
            from dataclasses import replace

            from glmnlp.parser.feature_space import feature_bits_for

            step("counting the training set's gold-derivation features (--feature-bits auto) ...")
            chosen = feature_bits_for(train, cfg, 0.01, train_tags)
            cfg = replace(cfg, n_bits=chosen.bits)
            gib = _table_bytes(chosen.bits, shards) / 2**30
            click.echo(f"feature table 2**{chosen.bits}: {chosen.sharing:.2%} of the {chosen.gold_features:,} gold "
                       f"features share a slot{'' if chosen.met else ' (the largest table; the 1% bound is not met)'}; "
                       f"about {gib:.1f} GiB to train with it", err=True)
        if executor.backend == "local":
            _warn_memory(cfg.n_bits, shards)

        def on_epoch(log: Any) -> None:
            step(f"epoch {log.epoch}: dev F1 {log.dev_f1:.2f}  updates {log.updates}  early {log.early_stops}  "
                 f"cache {log.cache_updates}  {log.seconds:.1f}s")

        def show_beams(epoch: int, rows: Any) -> None:
            for gamma, cap, f1, rate in rows:
                step(f"epoch {epoch}, beam gamma={gamma:g} cap={cap}: dev F1 {f1:.2f}, {rate:.0f} sentences/s")

        if combined:
            from glmnlp.parser.combined import COMBINED_CAPS, COMBINED_GAMMAS, tune_weight

            def on_trial(t: Any) -> None:
                step(f"generative weight {t.weight:g}: epoch {t.best_epoch} (dev F1 {t.dev_f1:.2f} at the "
                     "selection beam)")
                step(f"generative weight {t.weight:g}: dev F1 {t.beam_dev_f1:.2f} at gamma={t.gamma:g} cap={t.cap}")

            # each candidate is compared at its own beam (the grid below), the beam it will parse with
            parser, _logs, _trials = tune_weight(
                train, dev, cfg, weights, smoothing=smoothing, train_tags=train_tags, dev_tags=dev_tags,
                on_epoch=on_epoch, show_progress=not quiet, executor=executor, on_trial=on_trial,
                beams=(COMBINED_GAMMAS, COMBINED_CAPS), on_beams=show_beams,
            )
            click.echo(f"chosen generative weight {parser.generative.weight:g}", err=True)
        else:
            # the epoch is chosen at its own beam from the grid below, the beam it will parse with
            parser, _logs = train_parser(train, dev, cfg, train_tags=train_tags, dev_tags=dev_tags, on_epoch=on_epoch,
                                         show_progress=not quiet, executor=executor,
                                         beams=(PERCEPTRON_GAMMAS, PERCEPTRON_CAPS), on_beams=show_beams)
        epoch = next(h["best_epoch"] for h in parser.history if "best_epoch" in h)
        click.echo(f"chosen epoch {epoch}, gamma={parser.config.gamma:g} cap={parser.config.beam_cap}", err=True)
        if chosen is not None:  # what --feature-bits auto counted, kept with the model
            parser.history.append({"feature_bits": {"bits": chosen.bits, "gold_features": chosen.gold_features,
                                                    "sharing": chosen.sharing, "bound": chosen.bound}})
        parser.history.append(_training_record(kind, tags, train, dev))
        _warn_if_nothing_parsed(parser.history, len(train))
        parser.save(out_path, history=parser.history, replace=force)
        click.echo(f"saved {out_path}", err=True)


def _training_record(kind: str, tags: str, train: Sequence[Any], dev: Sequence[Any]) -> dict[str, Any]:
    """The history's ``training`` entry (docs/model_files.md): the kind of model and the tags it was trained and
    scored with, and the trees of each set; two models whose dev F1 differed by 7 points (gold against tagger tags)
    had the same configuration and nothing else to tell them apart."""
    return {"training": {"kind": kind, "tags": tags, "train_trees": len(train), "dev_trees": len(dev)}}


def _dev_scores(record: Any) -> Iterator[float]:
    """Every ``dev_f1`` in a parser's training history (passes, beam and weight trials, nested)."""
    if isinstance(record, dict):
        for key, value in record.items():
            if key == "dev_f1" and isinstance(value, (int, float)):
                yield float(value)
            else:
                yield from _dev_scores(value)
    elif isinstance(record, list):
        for item in record:
            yield from _dev_scores(item)


def _warn_if_nothing_parsed(history: Any, n_train: int) -> None:
    """A model that found no correct bracket on dev at any pass or beam was saved with a word only: one trained on
    one tree cannot parse even that tree (a chain of three categories must be seen twice to be kept)."""
    scores = list(_dev_scores(history))
    if scores and max(scores) == 0.0:
        click.echo(f"warning: dev F1 is 0.00 at every pass and beam: the model finds no correct bracket on --dev "
                   f"(trained on {n_train} tree{'' if n_train == 1 else 's'}; a grammar from too few trees cannot "
                   "analyse most sentences, which then get a flat tree)", err=True)


#: options that only some kinds use: (parameter names, the kinds, what the options set)
_KIND_OPTIONS = (
    (("epochs", "shards", "mixing", "features", "feature_bits", "no_early_update", "no_cache"),
     ("perceptron", "combined"), "the perceptron's training"),
    (("gen_cutoff", "gen_prune"), ("combined", "generative"), "the generative model's tables"),
    (("generative_weights",), ("combined",), "the weight of the generative feature"),
)


def _check_kind_options(kind: str) -> None:
    """Refuse, as a usage error, options given on the command line that ``--kind`` does not use: all of them in one
    message (``--kind generative --epochs 1 --feature-bits 16`` named --epochs alone, then --feature-bits once
    --epochs was taken away)."""
    parts: list[str] = []
    count = 0
    for names, kinds, what in _KIND_OPTIONS:
        given = given_options(*names) if kind not in kinds else []
        if given:
            count += len(given)
            parts.append(f"{and_list(given)} only {'applies' if len(given) == 1 else 'apply'} to --kind "
                         f"{' or '.join(kinds)} ({what})")
    if parts:
        raise click.UsageError(f"{'; '.join(parts)}; --kind {kind} does not use {'it' if count == 1 else 'them'}")


def _read_trees(path: str) -> list[Tree]:
    """The trees of a --train or --dev file, each a cleaned TOP-rooted tree, else ``InputError`` at its line."""
    from glmnlp.parser.grammar import CLEAN_HINT, first_problem

    read = read_tree_file_with_lines(path)
    if not read:
        raise InputError("no trees in this file", source=path)
    lines, trees = zip(*read)
    if (found := first_problem(trees)) is not None:
        i, problem = found
        raise InputError(f"tree {i + 1}: {problem}; {CLEAN_HINT}", source=path, line=lines[i])
    return list(trees)


def _check_enough(train: list[Tree], path: str, kind: str, tags: str) -> None:
    """Refuse, before any work, a training set too small for the held-out folds the chosen training needs."""
    from glmnlp.parser.combined import training_need

    need, why = training_need(kind, tags == "tagger")
    if len(train) < need:
        option, hint = ("--tags tagger", " (or use --tags gold)") if kind == "perceptron" else (f"--kind {kind}", "")
        raise InputError(f"{len(train)} training tree{'' if len(train) == 1 else 's'}; {option}: {why}: it needs at "
                         f"least {need}{hint}", source=path)


def _warn_dev(train: list[Tree], dev: list[Tree], train_path: str, dev_path: str) -> None:
    """Warn when the choices made on dev cannot mean what they say: dev is the training file (the pass and the beam
    chosen on the data they were trained on), or dev holds labels training never saw (brackets no analysis can
    produce, counted against every candidate alike). Both trained silently."""
    warn_if_dev_is_train(train_path, dev_path, "the pass and the beam are chosen on the training trees")
    seen = {node.label for tree in train for node in tree.subtrees()}
    unseen = Counter(node.label for tree in dev for node in tree.subtrees() if node.label not in seen)
    if unseen:
        verb = "never occurs" if len(unseen) == 1 else "never occur"
        click.echo(f"warning: {dev_path}: {some_of(sorted(unseen), 5)} {verb} in --train: the model can never build "
                   f"those {sum(unseen.values())} dev node(s), whatever it learns", err=True)
    # (A (A ...)) is one A to the transform: such gold brackets are never matched (0.14% of the PTB sample's; a
    # treebank whose function tags cleaning removed, NP-SBJ over NP, had 20% and said nothing of its low recall)
    phrases = [node for tree in dev for node in tree.subtrees() if not node.is_preterminal and node.label != "TOP"]
    loops = sum(len(node.children) == 1 and isinstance(node.children[0], Tree) and node.children[0].label == node.label
                for node in phrases)
    if phrases and loops / len(phrases) > 0.01:
        share = 100 * loops / len(phrases)
        click.echo(f"warning: {dev_path}: {loops:,} of its {len(phrases):,} phrase nodes ({share:.1f}%) are a phrase "
                   "over one of the same label, (X (X ...)), which the parser reads as one node and never builds: dev "
                   "recall cannot reach 100", err=True)


def _warn_no_punctuation(train: list[Tree], path: str) -> None:
    """Warn when no POS tag of the training trees is punctuation by the parser's rule
    (:func:`glmnlp.parser.model.punctuation_tags`): the punctuation features of ``--features punct`` then never
    fire, which a model trained on a tagset the rule does not read lost without a word."""
    from glmnlp.parser.model import punctuation_tags

    if not punctuation_tags(train):
        click.echo(f"warning: {path}: no POS tag is punctuation (more than 90% of its words without letters or "
                   "digits): the punctuation features of --features punct will not fire", err=True)


def _warn_shared_labels(train: list[Tree], path: str) -> None:
    """Warn when a label names both POS tags and phrases: the parser's categories are labels, so it cannot tell
    the two apart (one category: heads and features take the phrase for a tag), which costs accuracy."""
    tags = {tag for tree in train for tag in tree.tags()}
    phrases = {node.label for tree in train for node in tree.subtrees() if not node.is_preterminal}
    if both := sorted(tags & phrases):
        click.echo(
            f"warning: {path}: {some_of(both, 5)} label both POS tags and phrases; the parser takes each for one "
            "category (a phrase as a tag), which costs accuracy: give the phrases labels that no tag has",
            err=True,
        )


def _feature_bits(value: str | None) -> int | None:
    """``--feature-bits``: the table's bits (unset: the default of ParserConfig), or None for ``auto`` (refused with
    --kind generative by :func:`_check_kind_options`)."""
    from glmnlp.parser.feature_space import MIN_BITS
    from glmnlp.parser.config import MAX_N_BITS, ParserConfig

    if value is None:
        return ParserConfig.n_bits
    if value.strip().lower() == "auto":
        return None
    try:
        bits = int(value)
    except ValueError:
        raise click.BadParameter(f"must be a whole number of bits or 'auto', got {value!r}",
                                 param_hint="--feature-bits") from None
    if not MIN_BITS <= bits <= MAX_N_BITS:
        raise click.BadParameter(f"must be in [{MIN_BITS}, {MAX_N_BITS}], got {bits}", param_hint="--feature-bits")
    return bits


def _table_bytes(n_bits: int, shards: int) -> int:
    """Memory the weight tables of a training run take at their peak: about 24 bytes a slot for each shard
    (its perceptron's weights, sums and stamps, wherever it runs: all in this process with --jobs 1) and 45
    in the main process (the mixed weights, the sums, the best epochs' tables), fitted to the peaks measured
    at 2**27 with 2 shards on 2 workers, 11.9-12.4 GB in use (glmnlp.parser.feature_space); 97 MB a shard at
    2**22 with --jobs 1 (--shards 1, 10, 40: 222 MB, 1.1 GB, 4.0 GB peak)."""
    return (24 * shards + 45) * (1 << n_bits)


def _warn_memory(n_bits: int, shards: int) -> None:
    """Warn when the weight tables of a local training run (:func:`_table_bytes`) may not fit in the memory
    available now. Only a warning: the estimate is rough and the OS may free caches."""
    try:
        with open("/proc/meminfo", encoding="ascii") as f:
            info = dict(line.split(":", 1) for line in f)
        available = int(info["MemAvailable"].split()[0]) * 1024
    except (OSError, KeyError, ValueError):
        return  # not Linux, or no estimate of available memory: nothing to compare with
    need = _table_bytes(n_bits, shards)
    if need > available:
        click.echo(f"warning: a table of 2**{n_bits} weights with {shards} training shards needs about "
                   f"{need / 2**30:.1f} GiB, more than the {available / 2**30:.1f} GiB available; use a smaller "
                   "--feature-bits or fewer --shards (default: one per --jobs worker)", err=True)
