"""Everyday English: a model on the hand-annotated question/imperative set, on GUM dev, and on long input.

Rows (written to benchmarks/results/everyday.md with ``--out``):

* **questions/imperatives**: ``tests/data/questions_imperatives.trees`` (66 sentences bracketed by
  hand, CC BY 4.0): EVALB F1 (COLLINS.prm and punctuation-free), tagging accuracy, and for the first
  five (the example sentences of the everyday-English evaluation) whether the parse is right at
  the clause level: every bracket labelled S, SQ, SBARQ, SINV, SBAR or VP matches the gold tree,
  and every word tagged as a verb (VB*, MD) in gold gets exactly its gold tag.
* **GUM dev** (``--gum DIR``, not bundled): F1 both conventions, per genre.
* **EWT** (``--ewt DIR``, UD English EWT, not bundled): no constituency trees there, so its dev and test
  sentences (gold tokens; web text, e-mail, reviews) give the sentences that get the default structure (a flat
  tree: no analysis with the tagger's tags within the beam), the CPU time, and tag accuracy against its XPOS
  column (PTB tags), on all sentences and on the flat-tree ones.
* **long input** (``--long``): ``glmnlp parse`` on a 2.2 MB line without a full stop (wall and CPU
  seconds of the child process), and sentence splitting of 20k / 40k / 80k characters of such text
  and of punctuated text (the splitter is linear in its input).

The sentences are given as pre-tokenised input to the pipeline (tagger with the model's multi-tag
margin, then the parser), so tokenisation does not enter the scores.

    python benchmarks/everyday.py                         # the bundled model
    python benchmarks/everyday.py --model DIR --gum gum_const/ --long --out benchmarks/results/everyday.md

With ``--verb-siblings`` (an experiment, not a library option) the parser also gets the other tag of
a verb form the tagger cannot tell apart by its spelling: VBP for VB and VB for VBP (base form and
non-third-person present), VBN for VBD and VBD for VBN (regular past and participle), added after the
multi-tags, so the grammar and the parser's features decide between them:

    python benchmarks/everyday.py --gum DIR --verb-siblings

The machine is shared (2 cores, several jobs): speeds are lower bounds.
"""

from __future__ import annotations

import argparse
import datetime
import resource
import subprocess
import sys
import tempfile
import time
import warnings
from pathlib import Path
from typing import Any

from _args import existing  # benchmarks/_args.py

ROOT = Path(__file__).resolve().parent.parent
QUESTIONS = ROOT / "tests" / "data" / "questions_imperatives.trees"
CLAUSE_LABELS = {"S", "SQ", "SBARQ", "SINV", "SBAR", "VP"}
VERB_TAGS = {"VB", "VBD", "VBG", "VBN", "VBP", "VBZ", "MD"}
SIBLINGS = {"VB": "VBP", "VBP": "VB", "VBD": "VBN", "VBN": "VBD"}


def with_verb_siblings(nlp):  # type: ignore[no-untyped-def]
    """``nlp`` whose tagger's multi-tags also offer each verb tag's sibling (``--verb-siblings``)."""
    tagger = nlp.tagger
    if nlp.multitag_margin is None:
        nlp = nlp.replace(multitag_margin=0.0)
    plain, both = tagger.multitag, tagger.tag_and_multitag

    def siblings(rows):  # type: ignore[no-untyped-def]
        return [tags + [SIBLINGS[t] for t in tags if t in SIBLINGS and SIBLINGS[t] not in tags] for tags in rows]

    def multitag(words, margin):  # type: ignore[no-untyped-def]
        return siblings(plain(words, margin))

    def tag_and_multitag(words, margin):  # type: ignore[no-untyped-def]
        best, rows = both(words, margin)
        return best, siblings(rows)

    # the pipeline asks for both at once when the tagger has tag_and_multitag (one encoding): replacing only
    # multitag made --verb-siblings change nothing
    tagger.multitag, tagger.tag_and_multitag = multitag, tag_and_multitag
    return nlp


def brackets(tree, labels):  # type: ignore[no-untyped-def]
    out = set()

    def walk(node, start):  # type: ignore[no-untyped-def]
        end = start
        for child in node.children:
            end = end + 1 if isinstance(child, str) else walk(child, end)
        if node.label in labels:
            out.add((node.label, start, end))
        return end

    walk(tree, 0)
    return out


def clause_level_ok(gold, parsed) -> bool:  # type: ignore[no-untyped-def]
    """Clause brackets equal, and every gold verb (VB*, MD) with exactly its gold tag."""
    verbs_ok = all(p == g for g, p in zip(gold.tags(), parsed.tags()) if g in VERB_TAGS)
    return brackets(gold, CLAUSE_LABELS) == brackets(parsed, CLAUSE_LABELS) and verbs_ok


def parse_gold_leaves(nlp, gold):  # type: ignore[no-untyped-def]
    return [s.tree for s in nlp([t.leaves() for t in gold]).sentences]


def questions_row(nlp) -> list[str]:  # type: ignore[no-untyped-def]
    from glmnlp.text.default_model import scores
    from glmnlp.treebank.trees import read_tree_file, to_bracket

    gold = read_tree_file(QUESTIONS)
    parsed = parse_gold_leaves(nlp, gold)
    row = scores(gold, parsed)
    lines = [
        f"| questions/imperatives ({row['sentences']} sentences) | {row['f1']:.2f} | {row['f1_no_punct']:.2f} "
        f"| {row['tag_accuracy']:.2f} |",
        "",
        "Example sentences, clause level (clause brackets S/SQ/SBARQ/SINV/SBAR/VP and gold verb tags right):",
        "",
    ]
    for g, p in zip(gold[:5], parsed[:5]):
        mark = "right" if clause_level_ok(g, p) else "WRONG"
        lines.append(f"- {mark}: `{' '.join(g.leaves())}` -> `{to_bracket(p)}`")
    ok = sum(clause_level_ok(g, p) for g, p in zip(gold, parsed))
    lines.append(f"- all {len(gold)} sentences: {ok} right at the clause level")
    return lines


def gum_rows(nlp, gum: Path) -> list[str]:  # type: ignore[no-untyped-def]
    from glmnlp.text.default_model import scores
    from glmnlp.treebank.gum import gum_files, read_gum_file

    pairs = [(path.stem.split("_")[1], t) for path in gum_files(gum / "dev") for t in read_gum_file(path)]
    gold = [t for _, t in pairs]
    parsed = parse_gold_leaves(nlp, gold)
    total = scores(gold, parsed)
    lines = [f"| GUM dev ({total['sentences']} sentences) | {total['f1']:.2f} | {total['f1_no_punct']:.2f} "
             f"| {total['tag_accuracy']:.2f} |"]
    for genre in sorted({g for g, _ in pairs}):
        idx = [i for i, (g, _) in enumerate(pairs) if g == genre]
        row = scores([gold[i] for i in idx], [parsed[i] for i in idx])
        lines.append(f"| GUM dev: {genre} ({row['sentences']}) | {row['f1']:.2f} | {row['f1_no_punct']:.2f} "
                     f"| {row['tag_accuracy']:.2f} |")
    # the reference (../shared/PEERS.md): the C generative parser trained on PTB sample train + GUM train, the
    # training data of the bundled model, tagging for itself; punctuation removed from both sides
    lines.append("| reference: the C generative parser on GUM dev, trained on the same data (PEERS.md) | - | 81.33 "
                 "| 94.78 |")
    return lines


def long_rows(model: str | None) -> list[str]:
    import warnings

    from glmnlp.text.tokenize import sentence_spans

    lines = ["| input | characters | seconds |", "| --- | --- | --- |"]
    unpunct = "the cat sat on the mat and then "
    punct = "The cat sat on the mat. Then it left. "
    warnings.simplefilter("ignore")
    for name, unit in (("no full stops", unpunct), ("punctuated", punct)):
        for n in (20_000, 40_000, 80_000):
            text = (unit * (n // len(unit) + 1))[:n]
            t0 = time.process_time()
            sentence_spans(text)
            lines.append(f"| sentence splitting, {name} | {n:,} | {time.process_time() - t0:.2f} (CPU) |")
    with tempfile.TemporaryDirectory() as tmp:
        big = Path(tmp) / "big.txt"
        big.write_text(unpunct * 70_000 + "\n")
        cmd = [sys.executable, "-c", "import sys; from glmnlp.cli import main; sys.exit(main())",
               "parse", "-q", "-i", str(big)]
        if model:
            cmd += ["--model", model]
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        t0 = time.perf_counter()
        done = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, check=True)
        wall = time.perf_counter() - t0
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        warned = [line for line in done.stderr.splitlines() if line.startswith("warning:")]
        lines.append(f"| `glmnlp parse -i big.txt`, one line without full stops | {big.stat().st_size:,} | "
                     f"{wall:.1f} wall, {cpu:.1f} CPU |")
        lines.append("")
        lines.append("stderr: " + " / ".join(warned))
    return lines


def ewt_rows(nlp: Any, folder: Path) -> list[str]:
    """The EWT row (module docstring): flat trees, CPU seconds and tag accuracy on dev + test."""
    from glmnlp.treebank.formats import read_conllu

    sentences = [s for split in ("dev", "test") for s in read_conllu(folder / f"en_ewt-ud-{split}.conllu")]
    before = dict(nlp.parser.stats)
    started = time.process_time()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        docs = list(nlp.pipe([[list(s.words)] for s in sentences], batch_size=64))
    cpu = time.process_time() - started
    flat = right = total = flat_right = flat_total = 0
    for gold, doc in zip(sentences, docs):
        tags = [t for sent in doc.sentences for t in sent.tags]
        ok = sum(a == b for a, b in zip(tags, gold.tags or ()))
        right, total = right + ok, total + len(tags)
        if any(sent.score is None for sent in doc.sentences):
            flat, flat_right, flat_total = flat + 1, flat_right + ok, flat_total + len(tags)
    retried = nlp.parser.stats["retried"] - before.get("retried", 0)
    return ["", "| EWT dev + test | sentences | flat trees | retried | CPU s | tags (all) "
            "| tags (flat-tree sentences) |",
            "| --- | --- | --- | --- | --- | --- | --- |",
            f"| gold tokens | {len(sentences):,} | {flat} | {retried} | {cpu:.1f} | {100 * right / total:.2f} | "
            f"{100 * flat_right / max(flat_total, 1):.2f} ({flat_total} tokens) |"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--model", type=existing, default=None, help="model directory (default: the bundled model)")
    parser.add_argument("--gum", type=existing, default=None, help="GUM const/ folder with train/ and dev/")
    parser.add_argument("--long", action="store_true", help="also the long-input timings")
    parser.add_argument("--out", type=Path, default=None, help="write the markdown table here too")
    parser.add_argument("--verb-siblings", action="store_true", help="offer VB/VBP and VBD/VBN together (module doc)")
    parser.add_argument("--ptb-test", action="store_true", help="also the PTB sample test split (F1, tags)")
    parser.add_argument("--ewt", type=Path, default=None, help="UD English EWT folder: flat trees and tags (doc)")
    args = parser.parse_args()

    import glmnlp

    nlp = glmnlp.load(args.model)
    if args.verb_siblings:
        nlp = with_verb_siblings(nlp)
    command = "python benchmarks/everyday.py " + " ".join(sys.argv[1:])
    lines = [
        "# Everyday English: questions, imperatives, GUM, long input",
        "",
        f"`{command}` on {datetime.date.today().isoformat()}; model: {args.model or 'bundled default'}. "
        "The 2-core machine was shared with other jobs: timings are upper bounds of the time needed "
        "(speeds lower bounds).",
        "",
        "| data | F1 (COLLINS.prm) | F1 (no punctuation) | tag accuracy |",
        "| --- | --- | --- | --- |",
    ]
    questions = questions_row(nlp)
    lines.append(questions[0])
    if args.gum is not None:
        lines += gum_rows(nlp, args.gum)
    if args.ptb_test:
        from glmnlp.text.default_model import scores
        from glmnlp.treebank.corpus import sample_trees

        test = sample_trees("test")
        row = scores(test, parse_gold_leaves(nlp, test))
        lines.append(f"| PTB sample test ({row['sentences']} sentences) | {row['f1']:.2f} | {row['f1_no_punct']:.2f} "
                     f"| {row['tag_accuracy']:.2f} |")
    if args.ewt is not None:
        lines += ewt_rows(nlp, args.ewt)
    lines += questions[1:]
    if args.long:
        lines += ["", "## Long input", ""] + long_rows(args.model)
    text = "\n".join(lines) + "\n"
    print(text, end="")
    if args.out is not None:
        args.out.write_text(text, encoding="utf-8")
        print(f"wrote {args.out}", file=sys.stderr)


if __name__ == "__main__":
    main()
