"""Where the parser's wrong trees come from: the model or the search (Parser.explain, Parser.explain_tree).

For every test sentence of the PTB sample whose parse is not the gold tree, the gold tree is scored by the same
model (``Parser.explain_tree``, with the tags the parser was given) and compared with the parse's score:

* **search error**: the gold tree scores higher than the parse, so the model prefers it, but it fell out of the beam
  on the way (a wider beam could find it);
* **model error**: the gold tree scores lower (or the same): the model prefers a wrong tree, and no beam helps;
* **tag missed** (``--tags tagger``): a gold tag is not among the word's candidate tags, so the parser could not
  build the gold tree with them (a tagging error);
* **gold not buildable**: the gold tree needs a chain, a category or a triple (a child after another under a parent)
  that the model's grammar does not have, so no beam can build it (``explain_tree`` scores such a tree when it
  knows its chains, but it is not a search error).

With ``--beams`` the count is repeated at each beam (``GAMMA:CAP``), to see how many search errors a wider beam
removes and at what speed. The gold trees are the cleaned trees (`glmnlp.treebank.corpus.sample_trees`), compared
after the parser's transform and back (unary chains of one category collapse, as in the parse), on the words as
the treebank spells them.

Usage:
  python benchmarks/search_errors.py                                   # the bundled model, gold tags, its own beam
  python benchmarks/search_errors.py --tags tagger --beams 1e6:20,1e7:40,1e8:100
  python benchmarks/search_errors.py --model DIR                       # a pipeline model (glmnlp train-default)
"""

from __future__ import annotations

import argparse
import statistics
import time

from _args import beams as beams_arg, model as model_arg, one_of  # benchmarks/_args.py


def count(nlp, test, tags, beam) -> dict:  # type: ignore[no-untyped-def]
    from glmnlp.errors import GlmnlpError
    from glmnlp.parser.derivation import check_derivation, derive
    from glmnlp.parser.transform import collapse_unary_loops, fslc_transform

    parser = nlp.parser
    if beam is not None:
        parser.config.gamma, parser.config.beam_cap = beam
    row = {"gamma": parser.config.gamma, "cap": parser.config.beam_cap, "sentences": len(test), "exact": 0,
           "model": 0, "search": 0, "tag_missed": 0, "unscorable": 0, "fallback": 0, "margin": []}
    t0 = time.process_time()
    for tree, t in zip(test, tags, strict=True):
        words = tree.leaves()
        score, parse = parser.parse_nbest(words, t, 1)[0]
        if score == float("-inf"):
            row["fallback"] += 1
            continue
        gold = collapse_unary_loops(tree)  # the tree as the parser can give it back (transform module header)
        if parse == gold:
            row["exact"] += 1
            continue
        if any(g not in ([c] if isinstance(c, str) else c) for g, c in zip(gold.tags(), t, strict=True)):
            row["tag_missed"] += 1
            continue
        try:  # a gold tree no beam can build is not a search error, however it scores
            check_derivation(derive(fslc_transform(gold, parser.config.fslc), parser.grammar), gold.tags(),
                             parser.grammar)
            gold_score = parser.explain_tree(gold, t).score
        except GlmnlpError:  # InputError among them
            row["unscorable"] += 1
            continue
        if gold_score > score:
            row["search"] += 1
            row["margin"].append(gold_score - score)
        else:
            row["model"] += 1
    row["cpu_s"] = time.process_time() - t0
    return row


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--model", type=model_arg, default="default", help="pipeline model directory, or 'default'")
    ap.add_argument("--tags", type=one_of("gold", "tagger"), default="gold",
                    help="gold: the treebank's tags; tagger: the model's tagger with its multi-tag margin")
    ap.add_argument("--beams", type=beams_arg, default=None, metavar="GAMMA:CAP,...",
                    help="count at each of these beams (default: the parser's own)")
    args = ap.parse_args()

    import glmnlp
    from glmnlp.treebank.corpus import sample_trees

    nlp = glmnlp.load(None if args.model == "default" else args.model)
    test = sample_trees("test")
    if args.tags == "gold":
        tags = [tree.tags() for tree in test]
    elif nlp.multitag_margin is not None:
        tags = [nlp.tagger.multitag(tree.leaves(), nlp.multitag_margin) for tree in test]
    else:
        tags = [nlp.tagger.tag(tree.leaves()) for tree in test]
    print(f"model {args.model}, tags {args.tags}, PTB sample test split ({len(test)} sentences)\n")
    print("| gamma | cap | exact trees | wrong: model errors | wrong: search errors (median score gap) "
          "| wrong: gold tag missed | gold not buildable | fallbacks | CPU s |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    for beam in args.beams or [None]:
        r = count(nlp, test, tags, beam)
        median = f" ({statistics.median(r['margin']):.2f})" if r["margin"] else ""
        print(f"| {r['gamma']:g} | {r['cap']} | {r['exact']} | {r['model']} | {r['search']}{median} "
              f"| {r['tag_missed']} | {r['unscorable']} | {r['fallback']} | {r['cpu_s']:.1f} |", flush=True)


if __name__ == "__main__":
    main()
