"""Peak memory of training on the proxy treebank: the generative model (``parser train --kind generative``),
the combined model's generative stage (full model + 10 jackknifed ones) and the perceptron.

Proxy (``glmnlp.treebank.gum.proxy_trees``): PTB sample train + GUM train = 13,620 trees; the first N
trees are used for N in ``--sizes``. Every (stage, N) runs in its own process under ``/usr/bin/time -v``
(its "Maximum resident set size" is the peak); ``--trace`` instead runs one stage in this process
under tracemalloc (with one job, so that no worker process trains out of its sight) and prints where
the bytes are (current and peak Python/numpy allocations after and during each step). The trained
models' arrays are hashed (sha256), so a change that must not alter a trained number can be checked
against the figures of the code before it.

Stages (each without the dev-set beam tuning, which decodes and is the parser's memory, not training's):

* ``generative``: ``train_generative_parser`` with the CLI's --kind generative smoothing (unpruned
  tables: min_count 0, prune 0);
* ``combined``: ``prepare_training`` + ``GenerativeTraining(folds=10).prepare``, with the CLI's
  --kind combined smoothing (min_count 2, prune 0.05): the full model and the 10 jackknifed ones;
* ``perceptron``: ``train_parser`` for ``--epochs`` epochs without dev trees (punct features, the
  CLI's training beam).

    python benchmarks/memory.py --gum ../shared/data/gum_const --sizes 1000,3000,7000,13620 --stages generative,combined
    python benchmarks/memory.py --gum ../shared/data/gum_const --size 13620 --trace combined
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import sys
import time
import tracemalloc
from collections.abc import Callable
from typing import Any

import numpy as np

from _args import existing, ints, names  # benchmarks/_args.py
from _measured import run_measured  # benchmarks/_measured.py

from glmnlp.glm.model_io import parts_digest

MB = 1 << 20


def _trees(gum: str, size: int) -> list[Any]:
    from glmnlp.treebank.gum import proxy_trees

    trees = proxy_trees(gum, "train")
    if size > len(trees):
        raise SystemExit(f"--sizes: the proxy has {len(trees)} trees, asked for {size}")
    return trees[:size]


def _digest(parts: list[tuple[dict[str, Any], dict[str, np.ndarray]]]) -> str:
    """sha256 over the arrays (name, dtype, shape, bytes) and the JSON metadata of generative terms."""
    return parts_digest(parts)


def run_stage(stage: str, trees: list[Any], epochs: int, step: Callable[[str], None]) -> dict[str, Any]:
    from glmnlp.parser.generative import SmoothingConfig

    if stage == "generative":
        from glmnlp.parser.combined import train_generative_parser

        parser = train_generative_parser(trees, [], smoothing=SmoothingConfig(min_count=0, prune=0.0))
        step("trained")
        return {"sha256": _digest([parser.generative.to_parts()])}
    if stage == "combined":
        from glmnlp.parser.combined import GenerativeTraining
        from glmnlp.parser.model import ParserConfig
        from glmnlp.parser.training import prepare_training

        config = ParserConfig(features="punct", train_gamma=1e7, train_cap=30)
        parser, examples = prepare_training(trees, config, np.zeros(1 << config.n_bits))
        step("prepare_training")
        hook = GenerativeTraining(weight=10.0, folds=10, smoothing=SmoothingConfig(min_count=2, prune=0.05))
        hook.prepare(parser, examples)
        step("generative models")
        assert hook.full is not None and hook.jackknife is not None
        return {"sha256": _digest([hook.full.to_parts()] + [t.to_parts() for t in hook.jackknife.terms])}
    if stage == "perceptron":
        from glmnlp.parser.model import ParserConfig
        from glmnlp.parser.training import train_parser

        config = ParserConfig(features="punct", epochs=epochs, train_gamma=1e4, train_cap=30)
        parser, _ = train_parser(trees, [], config, show_progress=False)
        step("trained")
        return {"sha256": hashlib.sha256(np.ascontiguousarray(parser.weights).tobytes()).hexdigest()}
    raise SystemExit(f"unknown stage {stage!r}")


def _child(args: argparse.Namespace) -> None:
    trees = _trees(args.gum, args.size)
    t0 = time.perf_counter()
    out = run_stage(args.child, trees, args.epochs, lambda name: None)
    out.update(stage=args.child, size=args.size, seconds=round(time.perf_counter() - t0, 1))
    print(json.dumps(out), flush=True)


def measure(stage: str, size: int, args: argparse.Namespace) -> dict[str, Any]:
    """Run one stage in a fresh process under /usr/bin/time -v; its result line plus peak RSS."""
    cmd = [sys.executable, __file__, "--gum", args.gum, "--child", stage, "--size", str(size),
           "--epochs", str(args.epochs)]
    result, peak_mb = run_measured(cmd, f"{stage} at {size} trees")
    result["peak_mb"] = peak_mb
    return result


# -- tracemalloc: where the bytes are ---------------------------------------------------------------


def trace(stage: str, args: argparse.Namespace) -> None:
    """Run ``stage`` under tracemalloc; print current / peak traced MB at each step and inside the
    training functions of glmnlp.parser.generative_training and glmnlp.parser.combined."""
    import glmnlp
    import glmnlp.parser.combined as combined
    import glmnlp.parser.generative_training as gt

    rows: list[tuple[str, float, float]] = []

    def record(name: str) -> None:
        current, peak = tracemalloc.get_traced_memory()
        rows.append((name, current / MB, peak / MB))
        tracemalloc.reset_peak()

    def wrap(module: Any, name: str) -> None:
        inner = getattr(module, name)

        def wrapped(*a: Any, **k: Any) -> Any:
            record(f"  before {name}")
            out = inner(*a, **k)
            record(f"  {name}")
            return out

        setattr(module, name, wrapped)

    for module, names in ((gt, ("_collect", "_freeze", "em_lambdas", "train_generative")),
                          (combined, ("build_lexicon", "build_event_set", "train_generative", "train_jackknifed"))):
        for name in names:
            if hasattr(module, name):
                wrap(module, name)
    trees = _trees(args.gum, args.size)
    tracemalloc.start()
    record("trees read (not traced)")
    with glmnlp.config.using(jobs=1):  # worker processes would train out of tracemalloc's sight
        out = run_stage(stage, trees, args.epochs, record)
    print(f"{stage} at {args.size} trees, sha256 {out['sha256']}")
    print("| step | traced MB after | peak MB during |")
    print("| --- | --- | --- |")
    for name, current, peak in rows:
        print(f"| {name} | {current:.0f} | {peak:.0f} |")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--gum", type=existing, required=True, help="GUM constituency folder (../shared/data/gum_const)")
    ap.add_argument("--sizes", type=ints, default="1000,3000,7000,13620",
                    help="numbers N of proxy trees (the first N), comma-separated")
    ap.add_argument("--stages", type=names("generative", "combined", "perceptron"), default="generative,combined",
                    help="comma-separated among generative, combined, perceptron (module doc)")
    ap.add_argument("--epochs", type=int, default=1, help="perceptron epochs")
    ap.add_argument("--trace", metavar="STAGE", help="run STAGE at --size under tracemalloc")
    ap.add_argument("--size", type=int, default=13620, help="--trace: the number of proxy trees (default 13620)")
    ap.add_argument("--child", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        _child(args)
        return
    if args.trace:
        trace(args.trace, args)
        return
    print("| stage | trees | peak RSS MB | seconds | sha256 of the trained arrays |")
    print("| --- | --- | --- | --- | --- |")
    for stage in args.stages:
        for size in args.sizes:
            r = measure(stage, size, args)
            print(f"| {stage} | {size} | {r['peak_mb']} | {r['seconds']} | {r['sha256'][:16]} |", flush=True)
    print(f"\n{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, load {os.getloadavg()}")


if __name__ == "__main__":
    main()
