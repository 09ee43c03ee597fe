"""Where the generative model's gap to Roark's C parser comes from, measured on the proxy treebank.

Proxy (``glmnlp.treebank.gum.proxy_trees``): train = PTB sample train (wsj_0001-0159, 3,396 trees) +
GUM train (10,224 trees) = 13,620 trees; dev = GUM dev (1,575 trees). Scored with EVALB COLLINS.prm
after removing every token without a letter or digit from gold and parse (``glmnlp evalb
--strip-punct``), because GUM's punctuation tags (HYPH, NFP, ...) differ from the PTB's and EVALB
deletes punctuation by the gold tag (plain COLLINS.prm F1 is printed too, with MAX_ERROR lifted).
Reference: Roark's C generative parser trained on the same proxy with its defaults scores 81.33 on
GUM dev (tagging 94.78%, its own tags); see ``benchmarks/results/generative_gap.md``.

Each run trains the generative-only parser (``train_generative_parser`` without beam tuning; the
trained model is cached under ``--cache`` by its training options), then parses GUM dev at each
``--beams`` (gamma, cap) and ``--margins`` multi-tag margin and scores it. Tagger tags: the training
trees carry 10-fold jackknifed glmnlp tagger tags (5 epochs) unless ``--train-tags gold``; dev gets
the tags of a tagger trained on all of proxy train (single best, or every tag within ``margin`` of
the best). Tags and tagger are computed once and cached (about 10 minutes).

    python benchmarks/generative_gap.py --gum ../shared/data/gum_const --tags-only
    python benchmarks/generative_gap.py --name base --beams 1000:100,1000:200,48:100 --margins 0,2
    python benchmarks/generative_gap.py --name unpruned --prune 0 --min-count 0 --beams 1000000:300 --margins 0,2
    python benchmarks/generative_gap.py --name lower-heads --prune 0 --min-count 0 --lower-heads
    python benchmarks/generative_gap.py --name gold --train-tags gold --prune 0 --min-count 0 --beams 10000:100
    python benchmarks/generative_gap.py --coverage

Prints one JSON line per run (and appends it to ``--log``); the table is
benchmarks/results/generative_gap.md. The dev set is also the set the beam and margin are read
from, as the reference figure is on it too: these are model-development figures, not a test result.
"""

from __future__ import annotations

import argparse
import json
import resource
import sys
import time
from pathlib import Path
from typing import Any

from _args import beams, existing, floats  # benchmarks/_args.py


def _tags(trees: list, dev: list, cache: Path) -> tuple[list, list]:
    """(jackknifed train tags, dev tags from a tagger trained on all of train), cached in ``cache``."""
    path = cache / f"tags_{len(trees)}_{len(dev)}.json"
    if path.is_file():
        data = json.loads(path.read_text())
        return data["train"], data["dev"]
    from glmnlp.parser.jackknife import jackknife_tags
    from glmnlp.tagger.model import Tagger, TaggerConfig
    from glmnlp.treebank.formats import TaggedSentence

    t0 = time.perf_counter()
    train_tags = jackknife_tags(trees, 10, epochs=5)
    sents = [TaggedSentence(tuple(t.leaves()), tuple(t.tags())) for t in trees]
    tagger = Tagger(TaggerConfig(epochs=5)).fit(sents, None, show_progress=False)
    dev_tags = tagger.tag_sentences([t.leaves() for t in dev])
    cache.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"train": train_tags, "dev": dev_tags, "seconds": time.perf_counter() - t0}))
    tagger.save(cache / f"tagger_{len(trees)}")
    return train_tags, dev_tags


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--gum", type=existing, default=Path(__file__).resolve().parents[2] / "shared/data/gum_const",
                    help="GUM const folder (train/, dev/; default: ../shared/data/gum_const beside the repository)")
    ap.add_argument("--cache", type=Path, default=Path("/tmp/glmnlp-generative-gap"),
                    help="folder of the cached tagger tags, tagger and trained models (default: %(default)s)")
    ap.add_argument("--tags-only", action="store_true", help="compute and cache the tagger tags, then stop")
    ap.add_argument("--name", default="base", help="label of the run in the output")
    ap.add_argument("--train-tags", choices=("gold", "tagger"), default="tagger",
                    help="tags of the training trees: the treebank's, or jackknifed tagger tags (default)")
    ap.add_argument("--prune", type=float, default=0.05, help="generative tables: Roark's -t (0 = none)")
    ap.add_argument("--min-count", type=int, default=2, help="generative tables: count cutoff (0 = none)")
    ap.add_argument("--lower-heads", action="store_true", help="lower-case the head words of the contexts")
    ap.add_argument("--coverage", action="store_true",
                    help="print the grammar's coverage of GUM dev gold derivations (with and without the chain filter)")
    ap.add_argument("--beams", type=beams, default="1000:100", metavar="G:C,...",
                    help="(gamma, cap) pairs to parse with")
    ap.add_argument("--margins", type=floats, default="0", metavar="M,...",
                    help="parse-time multi-tag margins (0 = best tag)")
    ap.add_argument("--log", type=Path, help="append the JSON line to this file")
    args = ap.parse_args()

    from glmnlp.treebank.gum import proxy_trees

    train, dev = proxy_trees(args.gum, "train"), proxy_trees(args.gum, "dev")
    if args.coverage:
        from glmnlp.parser.grammar import chain_table
        from glmnlp.parser.model import ParserConfig
        from glmnlp.parser.transform import fslc_transform

        fslc = ParserConfig().fslc
        tr, dv = [fslc_transform(t, fslc) for t in train], [fslc_transform(t, fslc) for t in dev]
        for n in (2, 1):
            table = chain_table(tr, dv, min_count=n)
            print(json.dumps({"long_chain_min_count": n, "sentences_covered": round(table.sentences_covered, 2),
                              "chain_oov_per_1000": round(table.chain_oov, 2),
                              "triple_oov_per_1000": round(table.triple_oov, 2)}))
        return
    train_tags, dev_tags = _tags(train, dev, args.cache)
    if args.tags_only:
        acc = sum(a == b for t, tags in zip(dev, dev_tags) for a, b in zip(t.tags(), tags)) / sum(
            len(t.leaves()) for t in dev)
        print(json.dumps({"train": len(train), "dev": len(dev), "dev_tag_acc": 100 * acc}))
        return
    row = run(args, train, dev, train_tags, dev_tags, args.beams, args.margins)
    line = json.dumps(row)
    print(line)
    if args.log:
        with open(args.log, "a") as handle:
            handle.write(line + "\n")


def _patch(args: argparse.Namespace) -> None:
    """Variants that are not (yet) library options, applied by replacing one function."""
    if args.lower_heads:  # head words (CL, CC contexts) lower-cased: the word atoms of the beam
        import glmnlp.parser.model as pm

        raw = pm.word_atom
        pm.word_atom = lambda w: raw(w.lower())


def run(args: argparse.Namespace, train: list, dev: list, train_tags: list, dev_tags: list,
        beams: list[tuple[float, int]], margins: list[float]) -> dict[str, Any]:
    import dataclasses

    from glmnlp.parser.combined import train_generative_parser
    from glmnlp.parser.generative import SmoothingConfig
    from glmnlp.parser.model import Parser
    from glmnlp.treebank.evalb import COLLINS_PARAMS, score_trees

    _patch(args)
    strip = dataclasses.replace(COLLINS_PARAMS, strip_punct=True, max_error=10**9)
    plain_params = dataclasses.replace(COLLINS_PARAMS, max_error=10**9)  # tag-dependent error sentences
    smoothing = SmoothingConfig(prune=args.prune, min_count=args.min_count)
    tt = None if args.train_tags == "gold" else [[[t] for t in s] for s in train_tags]
    key = (f"model_{len(train)}_{args.train_tags}_p{args.prune:g}_m{args.min_count}_l{int(args.lower_heads)}"
           "_c2_r1-3")
    t0 = time.perf_counter()
    if (args.cache / key).is_dir():  # trained by an earlier run with the same training options
        parser = Parser.load(args.cache / key)
        train_s = float(json.loads((args.cache / f"{key}.json").read_text())["train_s"])
    else:
        parser = train_generative_parser(train, [], train_tags=tt, smoothing=smoothing)
        train_s = time.perf_counter() - t0
        parser.save(args.cache / key)
        (args.cache / f"{key}.json").write_text(json.dumps({"train_s": train_s}))
    tagger = None
    results = []
    for margin in margins:
        if margin:
            if tagger is None:
                from glmnlp.tagger.model import Tagger

                tagger = Tagger.load(args.cache / f"tagger_{len(train)}")
            tags = [tagger.multitag(t.leaves(), margin) for t in dev]
        else:
            tags = [[[t] for t in s] for s in dev_tags]
        for gamma, cap in beams:
            parser.config.gamma, parser.config.beam_cap = gamma, cap
            parser.stats = {"sentences": 0, "retried": 0, "fallback": 0}
            t1 = time.perf_counter()
            parsed = [parser.parse(t.leaves(), g) for t, g in zip(dev, tags)]
            seconds = time.perf_counter() - t1
            res = score_trees(dev, parsed, strip)
            plain = score_trees(dev, parsed, plain_params)
            results.append({
                "margin": margin, "gamma": gamma, "cap": cap, "f1": round(res.total.fmeasure, 2),
                "lr": round(res.total.recall, 2), "lp": round(res.total.precision, 2),
                "tag_acc": round(res.total.tagging_accuracy, 2), "f1_collins": round(plain.total.fmeasure, 2),
                "collins_errors": plain.total.error_sentences, "fallback": parser.stats["fallback"],
                "sent_per_s": round(len(dev) / seconds, 1),
            })
            print(json.dumps(results[-1]), file=sys.stderr)
    return {
        "variant": args.name, "train_tags": args.train_tags, "prune": args.prune, "min_count": args.min_count,
        "lower_heads": args.lower_heads, "train_s": round(train_s, 1),
        "peak_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024), "date": time.strftime("%Y-%m-%d"),
        "results": results,
    }


if __name__ == "__main__":
    main()
