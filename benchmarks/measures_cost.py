"""The work of the word-by-word measures on the PTB sample test split, for instruction counts.

    python benchmarks/measures.py --configs default --next-word 0 --save-model /tmp/gen
    valgrind --tool=callgrind python benchmarks/measures_cost.py --model /tmp/gen --sentences 0
    valgrind --tool=callgrind python benchmarks/measures_cost.py --model /tmp/gen --sentences 244

Loads a saved generative parser and computes the measures (default options, one process) of the
first N sentences the reference parsed; the difference between the two callgrind totals is the
instruction count of the measures themselves, which does not depend on the machine's load
(benchmarks/results/measures.md).
"""

from __future__ import annotations

import argparse
import sys

from _args import at_least, existing  # benchmarks/_args.py
from measures import REFERENCE, read_reference


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--model", required=True, type=existing,
                    help="a parser saved by benchmarks/measures.py --save-model")
    ap.add_argument("--reference", type=existing, default=REFERENCE,
                    help="the reference parser's -p output (its sentences are measured; default: %(default)s)")
    ap.add_argument("--sentences", type=at_least(0), default=244,
                    help="measure the first N sentences the reference parsed (0: load only; default 244)")
    ap.add_argument("--tag-filter", choices=("seen", "margin"), default="seen",
                    help="candidate tags: those seen with the word in training (default), or every tag in the margin")
    args = ap.parse_args()
    from glmnlp.parser.measures import MeasureOptions, WordClasses, sentence_measures
    from glmnlp.parser.model import Parser

    parser = Parser.load(args.model)
    ref = [s for s in read_reference(args.reference) if not s.failed][: args.sentences]
    opts = MeasureOptions(units="nats", tag_filter=args.tag_filter)
    classes = WordClasses.default()
    for k, s in enumerate(ref):
        sentence_measures(parser, s.words[:-1], "model", options=opts, classes=classes, sentence=k + 1)


if __name__ == "__main__":
    sys.exit(main())
