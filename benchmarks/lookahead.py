"""A look-ahead term in the generative model's beam ranking (Roark 2001/2004; experiment).

Roark's parser ranks and prunes its analyses by the prefix probability times a look-ahead probability that
the analysis's frontier left-corner-derives the next word's POS (the glmnlp generative model
has none: ``benchmarks/results/generative_gap.md``). The decoder patch ``benchmarks/patches/lookahead.patch``
adds the simplest such term: FILTER ranks each candidate by its score plus ``weight * ln P(next POS | X)``,
X the category of the new POS node's parent (the deepest open node once the word is attached), the next POS
the first input tag of the next word (category 0, the end of the sentence, after the last word). The
hypotheses keep their own scores (prefix probabilities, the final choice); only which candidates survive
FILTER changes. The table is estimated here from the training trees in the model's FSLC form: counts of
(X, next POS), interpolated with the next POS's unigram frequency (``--beta`` pseudo-counts).

    mkdir -p /tmp/exp && git archive HEAD | tar -x -C /tmp/exp \\
        && (cd /tmp/exp && git apply benchmarks/patches/lookahead.patch && python setup.py build_ext --inplace)
    glmnlp parser train --train proxy_train.trees --dev splits/gum_dev.trees --kind generative --out proxy/generative
    PYTHONPATH=/tmp/exp/src python benchmarks/lookahead.py --model proxy/generative --train proxy_train.trees \\
        --dev splits/gum_dev.trees --beams 10:100,100:20,1000:20,10000:100,1e6:20,1e6:100 --weights 0,0.5,1,2

Dev is parsed with gold tags and scored as ``benchmarks/frontier.py`` does (EVALB COLLINS.prm, punctuation
removed from both sides); sentences/s are per CPU second of this process. Weight 0 is the decoder without the
term (the same parses as the library).
"""

from __future__ import annotations

import argparse
import dataclasses
import sys
import time
from typing import Any

import numpy as np

from _args import beams as beams_arg, floats  # benchmarks/_args.py


def lookahead_table(parser: Any, trees: list[Any], beta: float) -> np.ndarray:
    """ln P(next POS | parent category of the current POS) over the parser's categories (square table)."""
    from glmnlp.parser.transform import fslc_transform

    grammar = parser.grammar
    n = len(grammar.categories)
    counts = np.zeros((n, n))

    def preterminals(node: Any, parent: Any, out: list[tuple[Any, int | None]]) -> None:
        if node.is_preterminal:
            out.append((parent, grammar.lookup(node.label)))
            return
        for child in node.children:
            if not isinstance(child, str):
                preterminals(child, node, out)

    for tree in trees:
        seq: list[tuple[Any, int | None]] = []
        preterminals(fslc_transform(tree, parser.config.fslc), None, seq)
        for i, (parent, _pos) in enumerate(seq):
            x = None if parent is None else grammar.lookup(parent.label, parent.slash)
            nxt = seq[i + 1][1] if i + 1 < len(seq) else 0
            if x is not None and nxt is not None:
                counts[x, nxt] += 1
    unigram = counts.sum(axis=0) + 1.0
    unigram /= unigram.sum()
    return np.log((counts + beta * unigram[None, :]) / (counts.sum(axis=1, keepdims=True) + beta))


def main() -> None:
    from glmnlp.parser.model import Parser
    from glmnlp.treebank.evalb import score_trees
    from glmnlp.treebank.evalb_report import COLLINS_PARAMS
    from glmnlp.treebank.trees import read_tree_file

    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--model", required=True, help="a generative parser model (glmnlp parser train --kind generative)")
    ap.add_argument("--train", required=True, help="the model's training trees (for the look-ahead table)")
    ap.add_argument("--dev", required=True, help="dev trees to parse (gold tags)")
    ap.add_argument("--beams", type=beams_arg, default="100:20,1000:20,1e6:100", metavar="GAMMA:CAP,...",
                    help="the (gamma, cap) beams to parse dev with")
    ap.add_argument("--weights", type=floats, default="0,1", metavar="W1,W2,...", help="look-ahead weights (0 = none)")
    ap.add_argument("--beta", type=float, default=5.0, help="pseudo-counts of the unigram in the table")
    args = ap.parse_args()
    parser = Parser.load(args.model)
    if not hasattr(parser._beam, "set_lookahead"):
        ap.error("this build has no look-ahead: apply benchmarks/patches/lookahead.patch (see --help)")
    table = lookahead_table(parser, read_tree_file(args.train), args.beta)
    dev = read_tree_file(args.dev)
    params = dataclasses.replace(COLLINS_PARAMS, strip_punct=True, max_error=10**9)
    print("| gamma | cap | look-ahead weight | F1 | sentences/s |\n| --- | --- | --- | --- | --- |")
    for gamma, cap in args.beams:
        for weight in args.weights:
            parser.config.gamma, parser.config.beam_cap = gamma, cap
            parser._beam.set_lookahead(table if weight else None, weight)
            t0 = time.process_time()
            out = [parser.parse(t.leaves(), t.tags()) for t in dev]
            cpu = time.process_time() - t0
            f1 = score_trees(dev, out, params).fmeasure
            print(f"| {float(gamma):g} | {cap} | {weight:g} | {f1:.2f} | {len(dev) / cpu:.1f} |", flush=True)
    print(f"table: {table.shape[0]} categories, beta {args.beta:g}", file=sys.stderr)


if __name__ == "__main__":
    main()
