"""Parser benchmark on the bundled WSJ sample (train 0001-0159, dev 0160-0179, test 0180-0199).

For each condition (gold tags / tagger tags x baseline / +punct features) a fresh process trains the
parser (best epoch on dev), tunes (gamma, cap) on dev, parses the test split and reports EVALB
(COLLINS.prm) F1 on all sentences and on sentences of <= 40 words, LR, LP, tagging accuracy,
sentences/s (one core, tuned beam), training time (s/sentence/epoch and the extrapolation to a
40,000-sentence treebank) and peak memory (ru_maxrss of the process).

Tagger-tags condition: the parser's training trees carry 10-fold jackknifed glmnlp tagger tags (the
generative model alone keeps the treebank's tags, as ``glmnlp parser train --kind generative`` does);
dev and test get the tags of a tagger trained on the whole training split.

    python benchmarks/parsing.py                      # all four conditions, one table
    python benchmarks/parsing.py --one gold punct     # one condition (prints one JSON line)
    python benchmarks/parsing.py --model default      # the bundled default model (or --model DIR)

Generative model (glmnlp.parser.combined) rows: FEATURES = ``generative`` (the generative model alone, gamma in
log-prob units tuned on dev) or ``combined`` (perceptron + punct features + the jackknifed generative
log-probability with a fixed weight; ``--gen-weight 5,10,20`` chooses it on dev). The generative tables
are frozen with a count cutoff (``--gen-min-count``, default 2) and Roark's ``-t`` (``--gen-prune``, 0.05).
With tagger tags, ``--margins 0,2,4,8`` also chooses a parse-time multi-tag margin on dev:

    python benchmarks/parsing.py --conditions gold:generative,tagger:generative,gold:combined,tagger:combined
    python benchmarks/parsing.py --one tagger combined --epochs 4 --gen-weight 5,10,20 --margins 0,2,4,8

``--train-margin M`` (experiment, tagger tags): the training trees get jackknifed multi-tag input within M
instead of single tags, the treebank's tag as the gold tree's tag when it is among them, and the passes
are chosen on dev tagged within M. ``--tagger-dev`` (experiment, tagger tags): every tagger (the jackknife
folds' and the one for dev and test) in the library's default configuration, 10 passes with the best on dev,
instead of 5 passes without dev (results of both: ``benchmarks/results/parsing_generative.md``).
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import time
from typing import Any

from _args import fields, floats, one_of  # benchmarks/_args.py


def choose_margin(parser: Any, tagger: Any, tags: str, margins: tuple[float, ...], dev: list[Any], test: list[Any],
                  dev_tags: Any, test_tags: Any) -> tuple[list[tuple[float, float, float]], float, Any]:
    """The parse-time multi-tag margin chosen on dev (ties to the smaller margin): (trials, margin, test tags).

    Each trial is (margin, dev F1, test F1); test F1 is recorded for the report, never used to choose.
    """
    from glmnlp.parser.selection import evaluate

    trials: list[tuple[float, float, float]] = []
    if tags != "tagger" or margins == (0.0,):
        return trials, 0.0, test_tags
    for m in margins:
        dt = dev_tags if m == 0 else [tagger.multitag(x.leaves(), m) for x in dev]
        tt = test_tags if m == 0 else [tagger.multitag(x.leaves(), m) for x in test]
        dev_f1, test_f1 = evaluate(parser, dev, dt)[0].fmeasure, evaluate(parser, test, tt)[0].fmeasure
        trials.append((m, round(dev_f1, 2), round(test_f1, 2)))
    chosen = max(trials, key=lambda r: (r[1], -r[0]))[0]
    if chosen:
        test_tags = [tagger.multitag(x.leaves(), chosen) for x in test]
    return trials, chosen, test_tags


def run_generative(train: list, dev: list, train_tags, dev_tags, smoothing) -> tuple:
    """The generative model alone: train, tune (gamma, cap) on dev; returns (parser, train seconds, tuning)."""
    from glmnlp.parser.combined import train_generative_parser

    t0 = time.perf_counter()
    parser = train_generative_parser(train, dev, train_tags=train_tags, dev_tags=dev_tags, smoothing=smoothing)
    return parser, time.perf_counter() - t0


def jackknife_variant(train: list, *, margin: float = 0.0, dev: list | None = None,
                      folds: int = 10) -> list[list[list[str]]]:
    """Jackknifed training tags for the experiments (the library's are ``jackknife_tags``: 5 passes, no dev).

    ``margin`` > 0: multi-tag input, each word's tags within ``margin`` of the fold tagger's best, the
    treebank's tag moved first when it is among them (it becomes the gold tree's tag; otherwise the
    tagger's best stays first and is the gold tag, as with single tags). ``dev``: the fold taggers are
    the library's default configuration (10 passes), each keeping its best pass on ``dev``.
    """
    from glmnlp.tagger.model import Tagger, TaggerConfig
    from glmnlp.treebank.formats import TaggedSentence

    def tagged(trees: list) -> list:
        return [TaggedSentence(tuple(t.leaves()), tuple(t.tags())) for t in trees]

    config = TaggerConfig(seed=0) if dev is not None else TaggerConfig(epochs=5, seed=0)
    out: list[list[list[str]]] = [[] for _ in train]
    for f in range(folds):
        rest = tagged([t for i, t in enumerate(train) if i % folds != f])
        tagger = Tagger(config).fit(rest, None if dev is None else tagged(dev), show_progress=False, jobs=1)
        for i in range(f, len(train), folds):
            if margin:
                out[i] = [[g] + [t for t in cands if t != g] if g in cands else cands
                          for g, cands in zip(train[i].tags(), tagger.multitag(train[i].leaves(), margin))]
            else:
                out[i] = [[t] for t in tagger.tag(train[i].leaves())]
    return out


def run_one(tags: str, features: str, epochs: int, gen_weights: tuple[float, ...] = (10.0,), min_count: int = 2,
            prune: float = 0.05, margins: tuple[float, ...] = (0.0,), train_margin: float = 0.0,
            tagger_dev: bool = False) -> dict:
    from glmnlp.treebank.corpus import sample_trees
    from glmnlp.treebank.formats import TaggedSentence
    from glmnlp.parser.model import ParserConfig
    from glmnlp.parser.jackknife import jackknife_tags
    from glmnlp.parser.selection import evaluate
    from glmnlp.parser.training import train_parser
    from glmnlp.tagger.model import Tagger, TaggerConfig

    train, dev, test = sample_trees("train"), sample_trees("dev"), sample_trees("test")
    train_tags = dev_tags = test_tags = train_dev_tags = None
    tagger: Tagger | None = None  # gold conditions have none (choose_margin ignores it there)
    tag_seconds = 0.0
    if tags == "tagger":
        t0 = time.perf_counter()
        if features != "generative" and train_margin:  # multi-tag training input (experiment)
            train_tags = jackknife_variant(train, margin=train_margin)
        elif features != "generative" and tagger_dev:
            train_tags = jackknife_variant(train, dev=dev)
        elif features != "generative":  # the generative model alone trains on the treebank's tags, as Roark's
            jk = jackknife_tags(train, 10, epochs=5)
            train_tags = [[[t] for t in s] for s in jk]
        sents = [TaggedSentence(tuple(t.leaves()), tuple(t.tags())) for t in train]
        if tagger_dev:  # the library's default tagger: 10 passes, the best on dev
            dev_sents = [TaggedSentence(tuple(t.leaves()), tuple(t.tags())) for t in dev]
            tagger = Tagger(TaggerConfig(seed=0)).fit(sents, dev_sents, show_progress=False)
        else:
            tagger = Tagger(TaggerConfig(epochs=5)).fit(sents, None, show_progress=False)
        dev_tags = [[[t] for t in tagger.tag(x.leaves())] for x in dev]
        test_tags = [[[t] for t in tagger.tag(x.leaves())] for x in test]
        train_dev_tags = [tagger.multitag(x.leaves(), train_margin) for x in dev] if train_margin else dev_tags
        tag_seconds = time.perf_counter() - t0
    from glmnlp.parser.generative import SmoothingConfig

    smoothing = SmoothingConfig(min_count=min_count, prune=prune)
    if features == "generative":
        parser, train_seconds = run_generative(train, dev, train_tags, dev_tags, smoothing)
        margin_trials, chosen_margin, test_tags = choose_margin(
            parser, tagger, tags, margins, dev, test, dev_tags, test_tags
        )
        parser.stats = {"sentences": 0, "retried": 0, "fallback": 0}
        t0 = time.perf_counter()
        result, _ = evaluate(parser, test, test_tags)
        rate = len(test) / (time.perf_counter() - t0)
        return {
            "tags": tags, "features": features, "f1_all": result.total.fmeasure, "f1_40": result.cut.fmeasure,
            "lr": result.total.recall, "lp": result.total.precision, "tag_acc": result.total.tagging_accuracy,
            "sent_per_s": rate, "train_s": train_seconds, "tagger_s": tag_seconds, "s_per_sent_epoch": 0.0,
            "extrapolated_h_40k": train_seconds * 40000 / len(train) / 3600, "best_epoch": 0, "dev_f1": 0.0,
            "gamma": parser.config.gamma, "cap": parser.config.beam_cap, "fallback": parser.stats["fallback"],
            "retried": parser.stats["retried"], "peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
            "tuning": [], "margin_trials": margin_trials, "margin": chosen_margin,
        }
    # the combined score carries gen_weight x log-probabilities (hundreds of units between candidates),
    # so its FILTER margins are wider; with them the caps decide the beam size
    combined = features == "combined"
    cfg = ParserConfig(features="punct" if combined else features, epochs=epochs,
                       train_gamma=1e7 if combined else 1e4, train_cap=30)
    t0 = time.perf_counter()
    weight_trials: list = []
    # the pass (and the weight) are chosen at their own beams from this grid (glmnlp.parser.training.train_parser)
    from glmnlp.parser.combined import COMBINED_CAPS, COMBINED_GAMMAS, tune_weight
    from glmnlp.parser.selection import PERCEPTRON_CAPS, PERCEPTRON_GAMMAS

    beams = (COMBINED_GAMMAS, COMBINED_CAPS) if combined else (PERCEPTRON_GAMMAS, PERCEPTRON_CAPS)
    grids: dict[int, list] = {}
    if features == "combined":
        parser, logs, trials = tune_weight(train, dev, cfg, gen_weights, smoothing=smoothing, train_tags=train_tags,
                                           dev_tags=train_dev_tags,
                                           on_epoch=lambda log: print(log, file=sys.stderr),
                                           on_trial=lambda t: print(t, file=sys.stderr), beams=beams)
        weight_trials = [(t.weight, round(t.dev_f1, 2), t.best_epoch, round(t.score, 2)) for t in trials]
        tuning = list(next(t for t in trials if t.weight == parser.generative.weight).beam_rows)
    else:
        parser, logs = train_parser(train, dev, cfg, train_tags=train_tags, dev_tags=train_dev_tags,
                                    show_progress=False,
                                    on_epoch=lambda log: print(log, file=sys.stderr), beams=beams,
                                    on_beams=grids.__setitem__)
        tuning = grids[next(h["best_epoch"] for h in parser.history if "best_epoch" in h)]
    train_seconds = time.perf_counter() - t0
    # parse-time input tags: every tag within a margin of the tagger's best, margin chosen on dev
    margin_trials, chosen_margin, test_tags = choose_margin(parser, tagger, tags, margins, dev, test, dev_tags,
                                                            test_tags)
    parser.stats = {"sentences": 0, "retried": 0, "fallback": 0}
    t0 = time.perf_counter()
    result, _ = evaluate(parser, test, test_tags)
    rate = len(test) / (time.perf_counter() - t0)
    per_sent_epoch = sum(log.seconds for log in logs) / (len(logs) * len(train))
    chosen_epoch = next(h["best_epoch"] for h in parser.history if "best_epoch" in h)
    best = next(log for log in logs if log.epoch == chosen_epoch)
    return {
        "tags": tags, "features": features, "f1_all": result.total.fmeasure, "f1_40": result.cut.fmeasure,
        "lr": result.total.recall, "lp": result.total.precision, "tag_acc": result.total.tagging_accuracy,
        "sent_per_s": rate, "train_s": train_seconds, "tagger_s": tag_seconds, "s_per_sent_epoch": per_sent_epoch,
        "extrapolated_h_40k": per_sent_epoch * 40000 * best.epoch / 3600, "best_epoch": best.epoch,
        "dev_f1": best.dev_f1, "gamma": parser.config.gamma, "cap": parser.config.beam_cap,
        "fallback": parser.stats["fallback"], "retried": parser.stats["retried"],
        "peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, "tuning": tuning,
        "weight_trials": weight_trials, "weight": parser.generative.weight if parser.generative else 0.0,
        "margin_trials": margin_trials, "margin": chosen_margin,
        "epoch_trials": next((h["epoch_trials"] for h in parser.history if "epoch_trials" in h), []),
        "train_margin": train_margin, "tagger_dev": tagger_dev,
    }


def detokenize(words: list[str]) -> str:
    """Plain text for a PTB token list (brackets, quotes, clitics and punctuation re-attached)."""
    from nltk.tokenize.treebank import TreebankWordDetokenizer

    plain = {"-LRB-": "(", "-RRB-": ")", "-LCB-": "{", "-RCB-": "}", "-LSB-": "[", "-RSB-": "]"}
    return TreebankWordDetokenizer().detokenize([plain.get(w, w) for w in words])


def run_model(path: str) -> dict:
    """A trained pipeline model (``default`` = the bundled one): test-split F1 with its own tagger's tags,
    parse speed, and end-to-end speed from raw text (the test split detokenised, one sentence per line)."""
    import glmnlp
    from glmnlp.treebank.corpus import sample_trees
    from glmnlp.treebank.evalb import score_trees

    t0 = time.perf_counter()
    nlp = glmnlp.load(None if path == "default" else path, lines=True)
    nlp.tagger, nlp.parser  # built on first use: the load time includes building both
    load_s = time.perf_counter() - t0
    test = sample_trees("test")
    if nlp.multitag_margin:  # the margin the model's recipe chose on dev (MODEL.json), as glmnlp parse uses it
        tags = [nlp.tagger.multitag(t.leaves(), nlp.multitag_margin) for t in test]
    else:
        tags = nlp.tagger.tag_sentences([t.leaves() for t in test])
    t0 = time.perf_counter()
    parsed = [nlp.parser.parse(t.leaves(), g) for t, g in zip(test, tags)]
    parse_rate = len(test) / (time.perf_counter() - t0)
    result = score_trees(test, parsed)
    text = "\n".join(detokenize(t.leaves()) for t in test)
    t0 = time.perf_counter()
    doc = nlp(text)
    e2e_rate = len(doc.sentences) / (time.perf_counter() - t0)
    return {
        "model": path, "f1_all": result.total.fmeasure, "f1_40": result.cut.fmeasure, "lr": result.total.recall,
        "lp": result.total.precision, "tag_acc": result.total.tagging_accuracy, "parse_sent_per_s": parse_rate,
        "e2e_sent_per_s": e2e_rate, "e2e_sentences": len(doc.sentences), "load_s": load_s,
        "multitag_margin": nlp.multitag_margin or 0.0,
        "fallback": nlp.parser.stats["fallback"],
        "peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
    }


#: The peer parsers' figures on the same split (../shared/PEERS.md: each trained from scratch on the sample's training
#: files, tagging for itself, EVALB COLLINS.prm), printed under every table of this script as its reference.
PEERS: tuple[tuple[str, float, float, str], ...] = (
    ("BLLIP / Charniak first stage, retrained", 86.18, 87.32, "6"),
    ("Berkeley parser 1.7, 5 split-merge cycles", 85.33, 86.31, "20"),
    ("reference C generative incremental parser (Roark), gold-tag approximation", 83.06, 83.97, "59"),
    ("Bikel (Collins model 2)", 82.74, 83.41, "1.3"),
    ("OpenNLP 2.1 chunking parser", 81.36, 82.16, "58"),
    ("reference C generative incremental parser, its own tags", 80.50, 81.60, "47"),
    ("Stanford shift-reduce, beam 4", 80.39, 81.15, "42"),
    ("Stanford PCFG (goodPCFG)", 79.77, 80.78, "26"),
)


def print_peers() -> None:
    """The reference figures of the peers, beside the table above (their sentences/s include start-up)."""
    print("\nReference: peer parsers on the same test split (../shared/PEERS.md; each tags for itself):\n")
    print("| peer | F1 all | F1 <=40 | sentences/s (one thread, start-up included) |")
    print("|---|---|---|---|")
    for name, f1, f1_40, rate in PEERS:
        print(f"| {name} | {f1:.2f} | {f1_40:.2f} | {rate} |")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--one", nargs=2, metavar=("TAGS", "FEATURES"),
                    help="one condition in this process, printed as a JSON line: TAGS gold or tagger, FEATURES "
                         "baseline, punct, generative or combined")
    ap.add_argument("--epochs", type=int, default=8, help="training passes of the perceptron (best on dev kept)")
    ap.add_argument("--gen-weight", type=floats, default="10", metavar="W1,W2,...",
                    help="fixed weight(s) of the generative feature (combined); several = chosen on dev")
    ap.add_argument("--gen-min-count", type=int, default=2, help="generative tables: count cutoff (0 = none)")
    ap.add_argument("--gen-prune", type=float, default=0.05, help="generative tables: Roark's -t (0 = none)")
    ap.add_argument("--margins", type=floats, default="0", metavar="M1,M2,...",
                    help="tagger tags: parse-time multi-tag margins, chosen on dev (0 = single best tag)")
    ap.add_argument("--train-margin", type=float, default=0.0, metavar="M",
                    help="tagger tags: train on jackknifed multi-tag input within M, the treebank's tag as gold "
                         "when among them (dev during training: the same margin); 0 = single jackknifed tags")
    ap.add_argument("--tagger-dev", action="store_true",
                    help="tagger tags: the taggers (jackknife folds and the one for dev/test) in the library's default "
                         "configuration (10 passes, best on dev) instead of 5 passes without dev")
    features = one_of("baseline", "punct", "generative", "combined")
    ap.add_argument("--conditions", type=fields(one_of("gold", "tagger"), features, example="gold:punct"),
                    default="gold:baseline,gold:punct,tagger:baseline,tagger:punct",
                    help="TAGS:FEATURES,... (as --one), each in its own process, one table")
    ap.add_argument("--model", metavar="DIR", help="measure a trained pipeline model instead ('default' = bundled)")
    args = ap.parse_args()
    if args.train_margin and args.tagger_dev:
        ap.error("--train-margin and --tagger-dev are separate experiments: give one")
    if args.model:
        r = run_model(args.model)
        print(json.dumps(r), file=sys.stderr)
        print("| model | F1 all | F1 <=40 | LR | LP | tag acc | parse sent/s | raw text sent/s | load s | peak MB |")
        print("|---|---|---|---|---|---|---|---|---|---|")
        print(f"| {r['model']} | {r['f1_all']:.2f} | {r['f1_40']:.2f} | {r['lr']:.2f} | {r['lp']:.2f} "
              f"| {r['tag_acc']:.2f} | {r['parse_sent_per_s']:.1f} | {r['e2e_sent_per_s']:.1f} | {r['load_s']:.2f} "
              f"| {r['peak_mb']:.0f} |")
        print_peers()
        return
    if args.one:
        print(json.dumps(run_one(args.one[0], args.one[1], args.epochs,
                                 tuple(args.gen_weight), args.gen_min_count, args.gen_prune, tuple(args.margins),
                                 args.train_margin, args.tagger_dev)))
        return
    rows = []
    for tags, feats in args.conditions:
        out = subprocess.run(
            [sys.executable, __file__, "--one", tags, feats, "--epochs", str(args.epochs), "--gen-weight",
             ",".join(map(str, args.gen_weight)), "--gen-min-count", str(args.gen_min_count), "--gen-prune",
             str(args.gen_prune), "--margins", ",".join(map(str, args.margins)),
             "--train-margin", str(args.train_margin),
             *(["--tagger-dev"] if args.tagger_dev else [])],
            check=True, stdout=subprocess.PIPE, text=True,
        ).stdout
        rows.append(json.loads(out.strip().splitlines()[-1]))
    head = ("tags", "features", "F1 all", "F1 <=40", "LR", "LP", "tag acc", "sent/s", "train s", "s/sent/epoch",
            "40k h", "best ep", "dev F1", "gamma", "cap", "fallback", "peak MB")
    print("| " + " | ".join(head) + " |")
    print("|" + "---|" * len(head))
    for r in rows:
        print(
            f"| {r['tags']} | {r['features']} | {r['f1_all']:.2f} | {r['f1_40']:.2f} | {r['lr']:.2f} | {r['lp']:.2f} "
            f"| {r['tag_acc']:.2f} | {r['sent_per_s']:.1f} | {r['train_s']:.0f} | {r['s_per_sent_epoch']:.4f} "
            f"| {r['extrapolated_h_40k']:.2f} | {r['best_epoch']} | {r['dev_f1']:.2f} | {r['gamma']:g} | {r['cap']} "
            f"| {r['fallback']} | {r['peak_mb']:.0f} |"
        )
    print_peers()
    for r in rows:
        if r.get("weight_trials") or r.get("margin_trials"):
            print(f"\n{r['tags']}:{r['features']}: generative weight {r.get('weight', 0):g} "
                  f"(weight, best dev F1, epoch: {r.get('weight_trials')}); input-tag margin {r.get('margin', 0):g} "
                  f"(margin, dev F1, test F1: {r.get('margin_trials')})")


if __name__ == "__main__":
    main()
