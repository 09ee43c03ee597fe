"""How many of the parser's hashed features share a weight slot, by training-set size (proxy treebank).

The parser hashes each feature (template + atoms) to 64 bits and keeps the low ``n_bits`` (default 22) as
its weight slot. This counts the distinct gold-derivation features of the first N trees of a seeded
shuffle of proxy train (PTB sample train + GUM train, ``glmnlp.treebank.gum.proxy_trees``) at 62 bits
(practically exact) and, for each table size of ``--count-bits`` (20, 21, 22, 24, 26), the share of
those features that sit in a slot with at least one other (a collision) and the share of slots used. Only
gold features are counted; a trained model's non-zero weights also include features of the wrong candidates
it was updated on (about 1.4x).

    python benchmarks/feature_collisions.py --gum ../shared/data/gum_const

With ``--f1-bits 22,24,26`` it also trains the perceptron parser (default options: 8 passes, one shard
per worker, here 2) on each of the N trees at each table size and prints its best dev F1 on GUM dev
(gold tags, at the training beam): what the collisions cost in accuracy.

    python benchmarks/feature_collisions.py --gum ../shared/data/gum_const --f1-bits 22,24,26

With ``--gold-only-bits 26`` it trains the same parser on all 13,620 trees but lets only the features
of gold derivations carry weights (an update's ids are restricted to the slots of the training set's
gold features): what a feature table frozen at the gold features — the simplest exact-id design,
identical on every shard — would cost against the same table open to every feature. It runs the two
shards in this process (``--jobs`` is ignored), so it takes about twice as long.

    python benchmarks/feature_collisions.py --gum ../shared/data/gum_const --sizes 13620 --count-bits 26 \
        --gold-only-bits 26

With ``--admit-per-pass`` (and ``--gold-only-bits``) the table starts at the gold features and, after
each pass, admits every feature an update or a cache entry of that pass wanted and could not have:
the design where a pass runs on a table frozen for its length (identical on every shard) and grows
between passes. A feature's updates in the pass that first needs it are lost.

    python benchmarks/feature_collisions.py --gum ../shared/data/gum_const --sizes 13620 --count-bits 26 \
        --gold-only-bits 26 --admit-per-pass

Prints one JSON line per size; results in benchmarks/results/feature_collisions.md.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import numpy as np

from _args import existing, ints  # benchmarks/_args.py


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--gum", type=existing, default=Path(__file__).resolve().parents[2] / "shared/data/gum_const",
                    help="GUM constituency folder with train/ and dev/ (default: ../shared/data/gum_const beside the "
                         "repository)")
    ap.add_argument("--sizes", type=ints, default="1000,3000,7000,13620",
                    help="training-set sizes N, comma-separated (the first N trees of a seeded shuffle)")
    ap.add_argument("--count-bits", type=ints, default="20,21,22,24,26",
                    help="table sizes (bits) to count collisions for")
    ap.add_argument("--f1-bits", type=ints, default="",
                    help="table sizes (bits) to train the parser with, e.g. 22,24,26")
    ap.add_argument("--jobs", type=int, default=2, help="--f1-bits: worker processes and shards of the training")
    ap.add_argument("--gold-only-bits", type=int, default=0,
                    help="also train with updates restricted to the gold features' slots, at this table size")
    ap.add_argument("--admit-per-pass", action="store_true",
                    help="with --gold-only-bits: admit the features each pass missed before the next pass")
    args = ap.parse_args()

    from glmnlp.parser.feature_space import gold_feature_keys, sharing_share
    from glmnlp.parser.model import ParserConfig
    from glmnlp.treebank.gum import proxy_trees

    trees = proxy_trees(args.gum, "train")
    dev = proxy_trees(args.gum, "dev") if args.f1_bits or args.gold_only_bits else []
    order = np.random.default_rng(0).permutation(len(trees))
    for n in args.sizes:
        t0 = time.time()
        sub = [trees[i] for i in sorted(order[:n])]
        ids = gold_feature_keys(sub, ParserConfig(features="punct"))  # 62-bit keys: practically exact
        out: dict[str, float] = {"trees": n, "distinct_gold_features": int(len(ids))}
        for bits in args.count_bits:
            out[f"bits{bits}_features_sharing_a_slot_pct"] = round(100 * sharing_share(ids, bits), 2)
            slots = np.unique(ids & np.uint64((1 << bits) - 1))
            out[f"bits{bits}_slots_used_pct"] = round(100 * len(slots) / (1 << bits), 2)
        out["seconds"] = round(time.time() - t0)
        print(json.dumps(out), flush=True)
        for bits in args.f1_bits:
            print(json.dumps({"trees": n, "n_bits": bits, **_train_f1(sub, dev, bits, args.jobs)}), flush=True)
        if args.gold_only_bits:
            print(json.dumps({"trees": n, "n_bits": args.gold_only_bits, "gold_only": True,
                              "admit_per_pass": args.admit_per_pass,
                              **_train_gold_only(sub, dev, args.gold_only_bits, args.admit_per_pass)}), flush=True)


def _train_f1(train: list, dev: list, bits: int, jobs: int) -> dict[str, float]:
    """Best and last dev F1 (training beam) of the perceptron parser with a table of 2**bits slots."""
    from glmnlp.parser.model import ParserConfig
    from glmnlp.parser.training import train_parser

    t0 = time.time()
    parser, logs = train_parser(train, dev, ParserConfig(features="punct", n_bits=bits, shards=jobs),
                                show_progress=False, jobs=jobs)
    best = max(logs, key=lambda log: log.dev_f1)
    return {"best_epoch": best.epoch, "best_dev_f1": round(best.dev_f1, 2), "last_dev_f1": round(logs[-1].dev_f1, 2),
            "nonzero_weights": int(np.count_nonzero(parser.weights)), "seconds": round(time.time() - t0)}


def _train_gold_only(train: list, dev: list, bits: int, admit: bool = False) -> dict[str, float]:
    """:func:`_train_f1` with every update restricted to the slots of the training set's gold features
    (``admit``: and of the features earlier passes missed).

    The restriction wraps ``glmnlp.parser.training._diff`` (the update and cache differences), which only
    reaches the shards when they run in this process: two shards, one worker. With ``admit`` the slots
    a pass's differences held outside the table join it when the first shard starts the next pass
    (both shards of a pass see the same table)."""
    import glmnlp.glm.training as loop
    import glmnlp.parser.training as training
    from glmnlp.parser.model import ParserConfig

    config = ParserConfig(features="punct", n_bits=bits)
    parser, examples = training.prepare_training(train, config, np.zeros(1 << bits))
    gold = np.zeros(1 << bits, dtype=bool)
    for ex in examples:
        gold[np.asarray(parser.features(ex, ex.gold_site, ex.gold_chain, True)[0])] = True
    gold_slots = int(gold.sum())  # before any admission (read at the end, it was the grown table's size)
    real = training._diff
    real_epoch = loop.PerceptronShard.run_epoch
    missed = np.zeros(1 << bits, dtype=bool)
    table_sizes: list[int] = []
    current = [-1]

    def gold_only(*args, **kwargs):  # type: ignore[no-untyped-def]
        ids, signs = real(*args, **kwargs)
        keep = gold[ids]
        missed[ids[~keep]] = True
        return ids[keep], signs[keep]

    def run_epoch(self, epoch):  # type: ignore[no-untyped-def]
        if admit and epoch != current[0]:
            current[0] = epoch
            gold[missed] = True
            missed[:] = False
            table_sizes.append(int(gold.sum()))
        return real_epoch(self, epoch)

    training._diff = gold_only
    loop.PerceptronShard.run_epoch = run_epoch
    try:
        t0 = time.time()
        trained, logs = training.train_parser(train, dev, ParserConfig(features="punct", n_bits=bits, shards=2),
                                              show_progress=False, jobs=1)
    finally:
        training._diff = real
        loop.PerceptronShard.run_epoch = real_epoch
    best = max(logs, key=lambda log: log.dev_f1)
    return {"gold_slots": gold_slots, "table_slots": int(gold.sum()), "best_epoch": best.epoch, "best_dev_f1": round(best.dev_f1, 2),
            "dev_f1_by_epoch": [round(log.dev_f1, 2) for log in logs],
            "nonzero_weights": int(np.count_nonzero(trained.weights)), "table_by_pass": table_sizes,
            "seconds": round(time.time() - t0)}


if __name__ == "__main__":
    main()
