"""The tagger's confidence as a parse-time score of the combined model's multi-tag input (experiment).

With a multi-tag margin (``glmnlp parse --multitag M``, the default model's ``multitag_margin``) every
tag within M of the tagger's best max-marginal is an equal candidate for the parser: how far below the
best it was is forgotten. This benchmark adds ``lambda * (max-marginal of the tag - best)`` (<= 0) to
each candidate chain's score, a fixed-weight feature like the combined model's generative term, and
chooses (margin, lambda) on dev. The decoder's side is ``benchmarks/patches/tag_bonus.patch`` (a
``cand_bonus`` array in ``BeamParser.decode``, ``tag_bonus`` in ``Parser.parse_nbest``); lambda = 0
needs no patch and parses as the library does.

    python benchmarks/tag_bonus.py --train /tmp/tb     # the combined model with tagger tags, saved (7 min)
    mkdir -p /tmp/exp && git archive HEAD | tar -x -C /tmp/exp \\
        && (cd /tmp/exp && git apply benchmarks/patches/tag_bonus.patch && python setup.py build_ext --inplace)
    PYTHONPATH=/tmp/exp/src python benchmarks/tag_bonus.py --model /tmp/tb --margins 4,8,16 --lambdas 0,1,4,16

The model is the one of ``benchmarks/parsing.py --one tagger combined --epochs 8 --gen-weight 10
--gen-min-count 0 --gen-prune 0`` (PTB sample, jackknifed tagger tags, unpruned generative tables);
``--weight`` trains it with another generative weight, ``--train-beam`` with another training beam, and
``--beams`` sweeps parse-time beams as well as margins (each (beam, margin, lambda) on dev and test)::

    python benchmarks/tag_bonus.py --train /tmp/tb5 --weight 5
    python benchmarks/tag_bonus.py --model /tmp/tb5 --lambdas 0 --margins 0,4,8 --beams 1e6:40,1e8:100

``--seed`` trains with another parser seed (the order of the passes, the cache sweep; the same tags), to measure
how much of a difference between two models is the draw of one training run; ``--average`` parses with the mean of
several such models' weights::

    python benchmarks/tag_bonus.py --model /tmp/tb --average /tmp/tbs1,/tmp/tbs2 --lambdas 0 --margins 0,4,8 \\
        --beams 1e7:40,1e8:100
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

from _args import beam as beam_arg, beams as beams_arg, existing, floats  # benchmarks/_args.py


def train(out: Path, gold_train: bool = False, weight: float = 10.0, beam: tuple[float, int] | None = None,
          seed: int = 0, select: tuple[float, int] | None = None) -> None:
    """Train and save the tagger and the combined parser (``weight`` 0: the perceptron alone, as ``glmnlp parser
    train`` trains it: its training beam and beam grid); ``beam``: the training beam (None: the library's); ``seed``:
    the parser's (the order of the training passes, the cache sweep), the tags staying those of seed 0; ``select``:
    the beam each pass is scored on dev at, to choose the passes whose beams are tuned (None: the library's)."""
    from glmnlp.parser.combined import COMBINED_CAPS, COMBINED_GAMMAS, tune_weight
    from glmnlp.parser.generative import SmoothingConfig
    from glmnlp.parser.jackknife import jackknife_tags
    from glmnlp.parser.model import ParserConfig
    from glmnlp.tagger.model import Tagger, TaggerConfig
    from glmnlp.treebank.corpus import sample_trees
    from glmnlp.treebank.formats import TaggedSentence

    trees, dev = sample_trees("train"), sample_trees("dev")
    # --gold-train: the training trees keep the treebank's tags (the passes and beam are still chosen on
    # dev with the tagger's tags, the condition the model is measured in)
    train_tags = None if gold_train else [[[t] for t in s] for s in jackknife_tags(trees, 10, epochs=5)]
    tagger = Tagger(TaggerConfig(epochs=5)).fit(
        [TaggedSentence(tuple(t.leaves()), tuple(t.tags())) for t in trees], None, show_progress=False
    )
    tagger.save(out / "tagger")
    dev_tags = [[[t] for t in tagger.tag(x.leaves())] for x in dev]
    if weight == 0:
        from glmnlp.parser.selection import PERCEPTRON_CAPS, PERCEPTRON_GAMMAS
        from glmnlp.parser.training import train_parser

        gamma, cap = beam or (1e4, 30)
        cfg = ParserConfig(features="punct", epochs=8, train_gamma=gamma, train_cap=cap, seed=seed)
        parser, _logs = train_parser(trees, dev, cfg, train_tags=train_tags, dev_tags=dev_tags,
                                     on_epoch=lambda log: print(log, file=sys.stderr),
                                     beams=(PERCEPTRON_GAMMAS, PERCEPTRON_CAPS))
        parser.save(out / "parser", history=parser.history)
        return
    gamma, cap = beam or (1e7, 30)
    cfg = ParserConfig(features="punct", epochs=8, train_gamma=gamma, train_cap=cap, seed=seed)
    if select is not None:
        cfg = replace(cfg, gamma=select[0], beam_cap=select[1])
    parser, _logs, _trials = tune_weight(
        trees, dev, cfg, (weight,), smoothing=SmoothingConfig(min_count=0, prune=0.0), train_tags=train_tags,
        dev_tags=dev_tags, on_epoch=lambda log: print(log, file=sys.stderr), beams=(COMBINED_GAMMAS, COMBINED_CAPS),
    )
    parser.save(out / "parser", history=parser.history)


def sweep(
    model: Path, margins: list[float], lambdas: list[float], beams: list[tuple[float, int]] | None = None,
    average: list[Path] | None = None,
) -> None:
    from glmnlp.parser.model import Parser
    from glmnlp.parser.selection import SELECTION_PARAMS
    from glmnlp.tagger.model import Tagger
    from glmnlp.treebank.corpus import sample_trees
    from glmnlp.treebank.evalb import score_trees

    parser, tagger = Parser.load(model / "parser"), Tagger.load(model / "tagger")
    if average:  # the mean of the parsers' weights (models of the same data, tags and options, other seeds)
        import numpy as np

        others = [Parser.load(d / "parser") for d in average]
        if any(o.weights.shape != parser.weights.shape or o.grammar.pos_tags != parser.grammar.pos_tags
               for o in others):
            sys.exit("--average: the models differ in their feature space or grammar")
        parser.weights = (np.asarray(parser.weights) + sum(np.asarray(o.weights) for o in others)) / (1 + len(others))
    column = {tag: j for j, tag in enumerate(tagger.tags_)}
    splits = {name: sample_trees(name) for name in ("dev", "test")}
    marginals = {name: [tagger.max_marginals(t.leaves()) for t in trees] for name, trees in splits.items()}

    def f1(name: str, margin: float, lam: float) -> float:
        out: list[Any] = []
        for tree, mm in zip(splits[name], marginals[name]):
            tags = tagger.multitag(tree.leaves(), margin)  # the library's margin rule (what --multitag uses)
            bonus = [{t: lam * float(row[column[t]] - row.max()) for t in cands} for cands, row in zip(tags, mm)]
            extra = {"tag_bonus": bonus} if lam else {}
            out.append(parser.parse_nbest(tree.leaves(), tags, 1, **extra)[0][1])
        return float(score_trees(list(splits[name]), out, SELECTION_PARAMS).fmeasure)

    beams = beams or [(parser.config.gamma, parser.config.beam_cap)]  # unset: the beam chosen in training
    print(f"beam chosen in training: gamma {parser.config.gamma:g}, cap {parser.config.beam_cap}")
    print("| gamma | cap | margin | lambda | dev F1 | test F1 |\n| --- | --- | --- | --- | --- | --- |")
    rows = []
    for gamma, cap in beams:
        parser.config.gamma, parser.config.beam_cap = gamma, cap
        for m in margins:
            for lam in lambdas:
                rows.append((gamma, cap, m, lam, f1("dev", m, lam), f1("test", m, lam)))
                print(f"| {gamma:g} | {cap} | {m:g} | {lam:g} | {rows[-1][4]:.2f} | {rows[-1][5]:.2f} |", flush=True)
    # ties on dev: the smaller beam (cap, then gamma, as tune_beam), then the smaller margin and lambda
    g, c, m, lam, d, t = max(rows, key=lambda r: (round(r[4], 2), -r[1], -r[0], -r[2], -r[3]))
    print(f"\nchosen on dev: gamma {g:g}, cap {c}, margin {m:g}, lambda {lam:g} (dev {d:.2f}): test F1 {t:.2f}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--train", type=Path, metavar="OUT", help="train and save the model (tagger + parser)")
    ap.add_argument("--gold-train", action="store_true", help="--train on the treebank's tags, not jackknifed ones")
    ap.add_argument("--model", type=existing, metavar="DIR", help="a directory written by --train")
    ap.add_argument("--margins", type=floats, default="4,8,16",
                    help="--model: multi-tag margins to try, comma-separated")
    ap.add_argument("--weight", type=float, default=10.0,
                    help="--train: the generative feature's weight (0: the perceptron alone, no generative model)")
    ap.add_argument("--train-beam", type=beam_arg, default=None, metavar="GAMMA:CAP",
                    help="--train: the beam of the training passes (default: the library's, 1e7:30 for --kind "
                         "combined, 1e4:30 for the perceptron)")
    ap.add_argument("--seed", type=int, default=0, help="--train: the parser's seed (default 0)")
    ap.add_argument("--select-beam", type=beam_arg, default=None, metavar="GAMMA:CAP",
                    help="--train: the beam each pass is scored on dev at (default: the library's selection beam)")
    ap.add_argument("--beams", type=beams_arg, metavar="GAMMA:CAP,...",
                    help="--model: beams to try (default: the one chosen in training), e.g. 1e6:40,1e8:100")
    ap.add_argument("--average", type=lambda text: ",".join(str(existing(d)) for d in text.split(",")), default=None,
                    metavar="DIR,...",
                    help="--model: parse with the mean of its parser's weights and these models' (--train with other "
                         "--seed values)")
    ap.add_argument("--lambdas", type=floats, default="0,1,4,16",
                    help="--model: weights of the tagger's confidence to try (0 = none: no patch needed)")
    args = ap.parse_args()
    lambdas = args.lambdas
    if args.model and any(lambdas):
        import inspect

        from glmnlp.parser.model import Parser

        if "tag_bonus" not in inspect.signature(Parser.parse_nbest).parameters:
            ap.error("--lambdas other than 0 need a build with benchmarks/patches/tag_bonus.patch (see --help)")
    if args.train:
        train(args.train, args.gold_train, args.weight, args.train_beam, args.seed, args.select_beam)
    if args.model:
        sweep(args.model, args.margins, lambdas, args.beams,
              [Path(d) for d in args.average.split(",")] if args.average else None)
    if not (args.train or args.model):
        ap.error("give --train OUT and/or --model DIR")


if __name__ == "__main__":
    main()
