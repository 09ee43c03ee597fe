r"""Figure 5 of Collins & Roark (2004) on the bundled sample: dev F1 after each pass for three runs.

Runs (gold tags, +punct features, same seed and beam): (1) no early update, no cache; (2) early
update; (3) early update + repeated use of hypotheses (cache). Draws dev F1 against passes in one PNG
(matplotlib) with ``--out PATH`` and prints the numbers as a table (``--table PATH`` writes it too); without
``--out`` and ``--table`` no file is written.

    python benchmarks/training_curves.py --epochs 6 --out benchmarks/results/training_curves.png \
        --table benchmarks/results/training_curves.md
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from _args import at_least, optional  # benchmarks/_args.py

RUNS = [
    ("no early update, no cache", False, False),
    ("early update", True, False),
    ("early update + cache", True, True),
]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--epochs", type=at_least(1), default=6, help="training passes of each run (default 6)")
    ap.add_argument("--train-size", type=at_least(0), default=0, help="use only the first N training trees (0 = all)")
    ap.add_argument("--out", default=None, help="write the plot (PNG) here (default: no plot)")
    ap.add_argument("--table", default="", help="also write the printed table to this Markdown file")
    args = ap.parse_args()
    if args.out:  # the plot, drawn after the training
        optional("matplotlib")
    from glmnlp.treebank.corpus import sample_trees
    from glmnlp.parser.model import ParserConfig
    from glmnlp.parser.training import train_parser

    train, dev = sample_trees("train"), sample_trees("dev")
    if args.train_size:
        train = train[: args.train_size]
    curves = {}
    for name, early, cache in RUNS:
        cfg = ParserConfig(features="punct", epochs=args.epochs, early_update=early, cache=cache,
                           train_gamma=1e4, train_cap=30, gamma=1e4, beam_cap=30)
        _, logs = train_parser(train, dev, cfg, show_progress=False,
                               on_epoch=lambda log, n=name: print(n, log, file=sys.stderr))
        curves[name] = logs
    lines = ["| pass | " + " | ".join(name for name, _, _ in RUNS) + " |", "|---|" + "---|" * len(RUNS)]
    for e in range(args.epochs):
        lines.append(f"| {e + 1} | " + " | ".join(f"{curves[name][e].dev_f1:.2f}" for name, _, _ in RUNS) + " |")
    lines.append("| s/pass | " + " | ".join(
        f"{sum(l.seconds for l in curves[name]) / args.epochs:.1f}" for name, _, _ in RUNS) + " |")
    lines.append("| updates, last pass | " + " | ".join(str(curves[name][-1].updates) for name, _, _ in RUNS) + " |")
    print("\n".join(lines))
    if args.table:

        head = (f"Dev F1 (EVALB, wsj_0160-0179, gold tags, +punct) after each pass; train wsj_0001-0159"
                f"{f' (first {args.train_size} trees)' if args.train_size else ''}; train beam gamma=1e4 cap=30, "
                f"dev beam gamma=1e4 cap=30.\n\n")
        Path(args.table).write_text(head + "\n".join(lines) + "\n")
        print(f"wrote {args.table}", file=sys.stderr)
    if not args.out:
        return
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(6, 4))
    for name, _, _ in RUNS:
        ax.plot(range(1, args.epochs + 1), [l.dev_f1 for l in curves[name]], marker="o", label=name)
    ax.set_xlabel("Number of passes over training data")
    ax.set_ylabel("F-measure (dev, wsj_0160-0179)")
    ax.set_title("Perceptron parser training (C&R 2004 Fig. 5 setup)")
    ax.legend()
    ax.grid(alpha=0.3)
    fig.tight_layout()
    fig.savefig(args.out, dpi=120)
    print(f"wrote {args.out}", file=sys.stderr)


if __name__ == "__main__":
    main()
