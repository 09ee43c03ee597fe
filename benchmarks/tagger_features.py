"""Tagger feature-set experiments: the sets measured against the default and not kept as options.

The library keeps two feature sets (``glmnlp.tagger.features.FEATURE_SETS``): ``collins2002`` (the
paper's) and ``extended`` (the default). The sets below were measured on UD English EWT (the table
in the header of ``glmnlp.tagger.model``) and did not beat ``extended`` beyond the spread between
seeds; this script adds them to the registry for the run and trains every set on the same data,
so the comparison can be repeated on any data set:

* ``extended-v1``: the previous default (collins2002 + lowercased w_i, w_{i±1}, shape of w_i);
* ``extended-prevtag``: extended + the previous tag conjoined with w_i (t[i-1]&w[i]);
* ``extended-bigrams``: extended without lc-known, + lowercased word bigrams around w_i.

Each set: 10 epochs (best on dev kept), seed 0; accuracy on dev and test, unknown-word accuracy.
Models trained with the experimental sets are for this run only: the library does not load them.

Usage (from the repository root, package installed)::

    python benchmarks/tagger_features.py                     # PTB sample (bundled)
    python benchmarks/tagger_features.py --dataset ewt --data-dir ../shared/data
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from _args import at_least  # benchmarks/_args.py

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "benchmarks"))

from tagging import load  # noqa: E402  (the tagging benchmark's data loader)

from glmnlp.tagger.features import FEATURE_SETS  # noqa: E402
from glmnlp.tagger.model import Tagger, TaggerConfig  # noqa: E402

_EXTENDED = FEATURE_SETS["extended"]
_PAPER = FEATURE_SETS["collins2002"]

EXPERIMENTS: dict[str, tuple[str, ...]] = {
    "extended-v1": ("bias", "w[i]", "lower[i]", "shape[i]", *_PAPER[2:], "lower[i-1]", "lower[i+1]"),
    "extended-prevtag": (*_EXTENDED, "t[i-1]&w[i]"),
    "extended-bigrams": (*_EXTENDED[:-2], "lower[i-1]&lower[i]", "lower[i]&lower[i+1]"),
}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--dataset", choices=("sample", "ewt"), default="sample",
                        help="the bundled PTB sample (default) or UD English EWT (under --data-dir)")
    parser.add_argument("--data-dir", type=Path, default=REPO.parent / "shared" / "data",
                        help="folder with ud_english_ewt/ (default: ../shared/data beside the repository)")
    parser.add_argument("--epochs", type=at_least(1), default=10, help="training passes of each set (best on dev kept)")
    parser.add_argument("--sets", nargs="+", default=["collins2002", "extended", *EXPERIMENTS],
                        choices=sorted({*FEATURE_SETS, *EXPERIMENTS}),
                        help="feature sets to train (default: collins2002, extended and the experimental sets above)")
    args = parser.parse_args(argv)
    FEATURE_SETS.update(EXPERIMENTS)
    train, dev, test = load(args.dataset, args.data_dir)
    print("| feature set | dev % | test % | test unknown-word % | best epoch | train s |")
    print("| --- | --- | --- | --- | --- | --- |")
    for name in args.sets:
        started = time.perf_counter()
        model = Tagger(TaggerConfig(epochs=args.epochs, feature_set=name)).fit(train, dev, show_progress=False)
        seconds = time.perf_counter() - started
        d, t = model.evaluate(dev), model.evaluate(test)
        print(
            f"| {name} | {100 * d.accuracy:.2f} | {100 * t.accuracy:.2f} | {100 * t.unknown_accuracy:.2f} "
            f"| {model.best_epoch_} | {seconds:.1f} |",
            flush=True,
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
