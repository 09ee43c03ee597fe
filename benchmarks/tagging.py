"""Benchmark: glmnlp's Collins (2002) tagger against NLTK's PerceptronTagger and CRFsuite.

Every system is trained from scratch and evaluated on the same split, on this machine, each in its
own subprocess so that peak memory (``resource.getrusage(RUSAGE_SELF).ru_maxrss``) is its own.
Prints one table: test accuracy, unknown-word accuracy (words absent from the training data),
training seconds, tagging speed (tokens/s, model already loaded, one core) and peak memory.

Tagging speed is the best of ``--repeats`` full passes over the test set (the machine is shared, so
single timings are noisy; the minimum time is the least disturbed), as wall-clock tokens/s and as
tokens per CPU second of the process (``time.process_time``: less sensitive to other jobs). glmnlp's per-word-type atom cache
is emptied before every pass, so each pass pays for the feature extraction of every word type, as a
first call on new text does.

Datasets:
  ewt     UD English EWT, train -> test, XPOS column (``--data-dir``/ud_english_ewt/); dev is used
          by glmnlp for epoch selection only.
  sample  the bundled Penn Treebank sample, files 0001-0159 -> 0180-0199 (dev 0160-0179).

CRFsuite uses the feature set of the peer figures in ../shared/PEERS.md: the word, lower-cased; prefixes and
suffixes of length 1-4; the word's shape; case, digit and hyphen flags; the lower-cased words at -2, -1, +1, +2;
the word bigrams at -1 and +1 (sentence boundaries as BOS/EOS). Runs before 2026-12-07 used a smaller set
(suffixes 2-3 and the words at +-1 only), which put CRFsuite about a point below its reference figure.
The table prints each peer's reference figure from PEERS.md beside this run's.

Usage:
  python benchmarks/tagging.py                          # all systems, both datasets
  python benchmarks/tagging.py --datasets ewt --systems glmnlp nltk
  python benchmarks/tagging.py --data-dir /path/to/shared/data
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from _args import at_least, existing, optional  # benchmarks/_args.py

REPO = Path(__file__).resolve().parent.parent
SYSTEMS = ("glmnlp", "nltk", "crfsuite-ap", "crfsuite-lbfgs")
DATASETS = ("ewt", "sample")


def load(dataset: str, data_dir: Path) -> tuple[list[Any], list[Any], list[Any]]:
    from glmnlp.treebank.corpus import sample_tagged
    from glmnlp.treebank.formats import read_conllu

    if dataset == "ewt":
        base = data_dir / "ud_english_ewt"
        return tuple(read_conllu(base / f"en_ewt-ud-{s}.conllu") for s in ("train", "dev", "test"))  # type: ignore[return-value]
    return sample_tagged("train"), sample_tagged("dev"), sample_tagged("test")


#: Each peer's reference figure (../shared/PEERS.md, measured independently on the same splits): accuracy and
#: unknown-word accuracy (None where PEERS.md gives none).
REFERENCE: dict[tuple[str, str], tuple[float, float | None]] = {
    ("ewt", "crfsuite-lbfgs"): (94.57, 79.14), ("ewt", "crfsuite-ap"): (94.43, 78.45), ("ewt", "nltk"): (93.39, 73.78),
    ("sample", "crfsuite-lbfgs"): (96.56, None), ("sample", "crfsuite-ap"): (96.31, None),
    ("sample", "nltk"): (95.42, None),
}


def crf_features(words: tuple[str, ...]) -> list[list[str]]:
    """The CRF features of PEERS.md's CRFsuite runs (module docstring); the word shape is glmnlp's own function
    (runs of character classes collapsed: "McDonald's" -> "XxXx'x"), a shape of the usual kind."""
    from glmnlp.tagger.features import word_shape

    low = [w.lower() for w in words]
    n = len(words)

    def at(j: int) -> str:
        return low[j] if 0 <= j < n else ("BOS" if j < 0 else "EOS")

    out = []
    for i, w in enumerate(words):
        f = ["bias", "w=" + low[i], "shape=" + word_shape(w), f"up={w.isupper()}", f"ti={w.istitle()}",
             f"dg={any(c.isdigit() for c in w)}", f"hy={'-' in w}"]
        f += [f"p{k}={w[:k]}" for k in range(1, 5) if len(w) >= k]
        f += [f"s{k}={w[-k:]}" for k in range(1, 5) if len(w) >= k]
        f += [f"w{k:+d}={at(i + k)}" for k in (-2, -1, 1, 2)]
        f += [f"b-1={at(i - 1)}|{low[i]}", f"b+1={low[i]}|{at(i + 1)}"]
        out.append(f)
    return out


def best_time(run: Any, repeats: int, before: Any = None) -> tuple[Any, float, float]:
    """(result of the last call, minimum wall seconds, minimum CPU seconds) over ``repeats`` calls of ``run``."""
    best = best_cpu = float("inf")
    result = None
    for _ in range(max(repeats, 1)):
        if before is not None:
            before()
        t0, c0 = time.perf_counter(), time.process_time()
        result = run()
        best = min(best, time.perf_counter() - t0)
        best_cpu = min(best_cpu, time.process_time() - c0)
    return result, best, best_cpu


def worker(system: str, dataset: str, data_dir: Path, epochs: int, repeats: int = 3) -> dict[str, Any]:
    train, dev, test = load(dataset, data_dir)
    vocab = {w for s in train for w in s.words}
    test_words = [s.words for s in test]
    started = time.perf_counter()
    if system == "glmnlp":
        from glmnlp.tagger.model import Tagger, TaggerConfig

        model = Tagger(TaggerConfig(epochs=epochs)).fit(train, dev, show_progress=False)
        train_s = time.perf_counter() - started
        predicted, tag_s, tag_cpu = best_time(lambda: model.tag_sentences(test_words), repeats, model.clear_cache)
        extra = {"best_epoch": model.best_epoch_, "feature_set": model.config.feature_set}
        multi = model.multitag_scores(test, [1.0, 5.0, 20.0])
        extra["multitag"] = [(m.margin, round(m.tags_per_word, 3), round(100 * m.oracle_accuracy, 2)) for m in multi]
    elif system == "nltk":
        import random

        from nltk.tag.perceptron import PerceptronTagger

        random.seed(0)
        model = PerceptronTagger(load=False)
        model.train([list(zip(s.words, s.tags, strict=True)) for s in train], nr_iter=5)
        train_s = time.perf_counter() - started
        predicted, tag_s, tag_cpu = best_time(lambda: [[t for _, t in model.tag(list(ws))] for ws in test_words], repeats)
        extra = {}
    else:
        import pycrfsuite

        algorithm = "ap" if system == "crfsuite-ap" else "lbfgs"
        trainer = pycrfsuite.Trainer(algorithm=algorithm, verbose=False)
        for s in train:
            trainer.append(crf_features(s.words), list(s.tags))
        if algorithm == "lbfgs":
            trainer.set_params({"c1": 0.1, "c2": 0.01, "max_iterations": 100})
        else:
            trainer.set_params({"max_iterations": 10})
        with tempfile.TemporaryDirectory() as tmp:  # the model file is only read back here
            path = str(Path(tmp) / f"{system}-{dataset}.crfsuite")
            trainer.train(path)
            train_s = time.perf_counter() - started
            crf = pycrfsuite.Tagger()
            crf.open(path)
        # feature extraction included
        predicted, tag_s, tag_cpu = best_time(lambda: [crf.tag(crf_features(ws)) for ws in test_words], repeats)
        extra = {}
    gold = [t for s in test for t in s.tags]
    flat = [t for p in predicted for t in p]
    words = [w for ws in test_words for w in ws]
    correct = sum(p == g for p, g in zip(flat, gold, strict=True))
    unknown = [p == g for p, g, w in zip(flat, gold, words, strict=True) if w not in vocab]
    return {
        "system": system,
        "dataset": dataset,
        "tokens": len(gold),
        "accuracy": 100 * correct / len(gold),
        "unknown_accuracy": 100 * sum(unknown) / max(len(unknown), 1),
        "unknown_tokens": len(unknown),
        "train_seconds": train_s,
        "tokens_per_second": len(gold) / tag_s,
        "tokens_per_cpu_second": len(gold) / max(tag_cpu, 1e-9),
        "peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
        **extra,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--data-dir", type=existing, default=REPO.parent / "shared" / "data",
                        help="folder with ud_english_ewt/ (default: ../shared/data beside the repository)")
    parser.add_argument("--systems", nargs="+", choices=SYSTEMS, default=list(SYSTEMS),
                        help="taggers to train and time (default: all)")
    parser.add_argument("--datasets", nargs="+", choices=DATASETS, default=list(DATASETS),
                        help="data sets (default: both; see Datasets above)")
    parser.add_argument("--epochs", type=at_least(1), default=10, help="glmnlp epochs (best on dev kept)")
    parser.add_argument("--repeats", type=at_least(1), default=3, help="tagging passes timed (the fastest is reported)")
    parser.add_argument("--worker", nargs=2, metavar=("SYSTEM", "DATASET"), help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.worker:
        print(json.dumps(worker(args.worker[0], args.worker[1], args.data_dir, args.epochs, args.repeats)))
        return 0
    for system in args.systems:  # before any training: a missing package was a worker's traceback
        if system.startswith("crfsuite"):
            optional("pycrfsuite")
    rows = []
    failed = False
    for dataset in args.datasets:
        for system in args.systems:
            cmd = [
                sys.executable, __file__, "--worker", system, dataset, "--data-dir", str(args.data_dir),
                "--epochs", str(args.epochs), "--repeats", str(args.repeats),
            ]  # fmt: skip
            done = subprocess.run(cmd, capture_output=True, text=True, check=False)
            if done.returncode != 0:  # the table is printed with the others; the status says a run failed
                print(f"{system} on {dataset} failed:\n{done.stderr}", file=sys.stderr)
                failed = True
                continue
            row = json.loads(done.stdout.strip().splitlines()[-1])
            rows.append(row)
            print(f"done: {system} on {dataset}", file=sys.stderr, flush=True)
    header = (
        f"| {'dataset':7} | {'system':15} | {'acc %':>6} | {'unk acc %':>9} | {'reference (PEERS.md)':>20} |"
        f" {'unk tok':>7} | {'train s':>7} | {'tok/s':>9} | {'tok/CPU-s':>9} | {'peak MB':>7} |"
    )
    print(header)
    print("|" + "|".join("-" * (len(c)) for c in header.split("|")[1:-1]) + "|")
    below = []
    for r in rows:
        ref = REFERENCE.get((r["dataset"], r["system"]))
        cell = "-" if ref is None else f"{ref[0]:.2f}" + ("" if ref[1] is None else f" / {ref[1]:.2f}")
        if ref is not None and r["accuracy"] < ref[0] - 0.05:
            below.append(f"{r['system']} on {r['dataset']}: {r['accuracy']:.2f} here, {ref[0]:.2f} in PEERS.md")
        print(
            f"| {r['dataset']:7} | {r['system']:15} | {r['accuracy']:6.2f} | {r['unknown_accuracy']:9.2f} |"
            f" {cell:>20} | {r['unknown_tokens']:7d} | {r['train_seconds']:7.1f} | {r['tokens_per_second']:9.0f} |"
            f" {r['tokens_per_cpu_second']:9.0f} | {r['peak_mb']:7.0f} |"
        )
    for line in below:  # a peer's own run below its reference: the reference is the peer's figure
        print(f"below its reference figure: {line} (the reference is the peer's figure; this run's configuration "
              "or iterations differ)")
    for r in rows:
        if "multitag" in r:
            cells = ", ".join(f"margin {m:g}: {t} tags/word, oracle {o}%" for m, t, o in r["multitag"])
            print(f"glmnlp multitagging on {r['dataset']} ({r['feature_set']}, best epoch {r['best_epoch']}): {cells}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
