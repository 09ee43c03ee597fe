"""Word-by-word measures against the reference C parser's ``-p`` output on the PTB sample test split.

    python benchmarks/measures.py --reference ../shared/reference/measures_sample_test.txt \
        --out benchmarks/results/measures.md

Trains glmnlp's generative model on the sample train split (gold trees), computes the measures on
the reference's own tokens (its rows, quotes already removed), and prints: Pearson r per word for
every column, the per-word-class means side by side (classes = the reference's own markers), the
log base check, and speed (measures vs plain parsing of the same tokens and candidate tags, one
core). The reference file format is described in ../shared/reference/README.md.
"""

from __future__ import annotations

import argparse
import datetime
import math
import re
import sys
import time
from dataclasses import dataclass, field

import numpy as np

REF_COLS = ("prefix", "surprisal", "syntactic_surprisal", "lexical_surprisal", "entropy", "open_brackets", "rerank",
            "top_rerank", "steps")
CLASS_OF = {":": "open", "+": "closed", "-": "previous"}
ROW = re.compile(r"^pfix([:+\-])(\d+)\s+(\S+)\s+(.*)$")


@dataclass
class RefSentence:
    number: int
    failed: bool = False
    words: list[str] = field(default_factory=list)
    classes: list[str] = field(default_factory=list)
    values: list[list[float]] = field(default_factory=list)  # per row (words then </s>)
    tree_nlp: float = math.nan  # the best parse's negative log probability
    tree: str = ""


def read_reference(path: str) -> list[RefSentence]:
    out: list[RefSentence] = []
    cur: RefSentence | None = None
    with open(path, encoding="utf-8") as fh:
        for line in fh:
            line = line.rstrip("\n")
            if line.startswith("# sentence"):
                m = re.match(r"# sentence (\d+)(:.*)?", line)
                cur = RefSentence(int(m.group(1)), failed=bool(m.group(2)))
                out.append(cur)
                continue
            m = ROW.match(line)
            if m and cur is not None:
                cur.words.append(m.group(3))
                cur.classes.append(CLASS_OF[m.group(1)])
                cur.values.append([float(x) for x in m.group(4).split()])
                continue
            m = re.match(r"^1\s+\d+\s+(\S+)\s+(\S+)\s+(\S+)\s+(\S+)\s+(\(TOP.*)$", line)
            if m and cur is not None and not cur.tree:
                cur.tree_nlp = float(m.group(2))
                cur.tree = m.group(5)
    return out


def pearson(a: list[float], b: list[float]) -> tuple[float, int]:
    x, y = np.array(a, dtype=float), np.array(b, dtype=float)
    ok = np.isfinite(x) & np.isfinite(y)
    x, y = x[ok], y[ok]
    if len(x) < 3 or x.std() == 0 or y.std() == 0:
        return math.nan, int(len(x))
    return float(np.corrcoef(x, y)[0, 1]), int(len(x))


def train(gamma: float, cap: int):
    from glmnlp.parser.combined import train_generative_parser
    from glmnlp.parser.generative import SmoothingConfig
    from glmnlp.treebank.corpus import sample_trees

    t0 = time.perf_counter()
    parser = train_generative_parser(sample_trees("train"), [], smoothing=SmoothingConfig(prune=0.05))
    parser.generative.gamma, parser.generative.beam_cap = gamma, cap
    parser.config.gamma, parser.config.beam_cap = gamma, cap
    return parser, time.perf_counter() - t0


def tree_logprob(parser, bracket: str) -> float:
    """ln P of a (reference) tree under our generative model, or nan if our grammar cannot derive it."""
    from glmnlp.parser.transform import fslc_transform
    from glmnlp.treebank.trees import parse_tree

    try:
        tree = parse_tree(bracket)
        ex = parser.example(tree, fslc_transform(tree, parser.config.fslc))
        wids = parser.generative.word_ids(ex.words, ex.tags, parser.grammar)
        parser._beam.set_generative(parser.generative.model.kernel, 1.0, wids)
        log = parser._beam.gen_events(ex.atoms, ex.next_pos, ex.gold_site, ex.gold_chain, True)
        return float(sum(e[4] for e in log))
    except Exception:  # noqa: BLE001 -- a chain or label our grammar lacks: not comparable
        return math.nan
    finally:
        parser._configure_generative_off()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--reference", default="../shared/reference/measures_sample_test.txt")
    ap.add_argument("--out", default="")
    ap.add_argument("--gamma", type=float, default=48.0)
    ap.add_argument("--cap", type=int, default=100)
    ap.add_argument("--limit", type=int, default=0, help="first N sentences only")
    ap.add_argument("--tag-margin", type=float, default=8.0)
    ap.add_argument("--max-tags", type=int, default=8)
    args = ap.parse_args()

    from glmnlp.parser.measures import MeasureOptions, WordClasses, candidate_tags, sentence_measures

    ref = read_reference(args.reference)
    if args.limit:
        ref = ref[: args.limit]
    parser, train_s = train(args.gamma, args.cap)
    opts = MeasureOptions(units="nats", gamma=args.gamma, cap=args.cap, tag_margin=args.tag_margin,
                          max_tags=args.max_tags)
    ok = [s for s in ref if not s.failed]
    sents = [s.words[:-1] for s in ok]
    classes = WordClasses.default()

    # speed: candidate tags, plain parsing of the same input, measures
    t0 = time.perf_counter()
    tags = [candidate_tags(parser, w, margin=args.tag_margin, max_tags=args.max_tags) for w in sents]
    tag_s = time.perf_counter() - t0
    t0 = time.perf_counter()
    for w, t in zip(sents, tags):
        parser.parse_nbest(w, t, 1)
    parse_s = time.perf_counter() - t0
    t0 = time.perf_counter()
    rows = [sentence_measures(parser, w, t, options=opts, classes=classes, sentence=k + 1)
            for k, (w, t) in enumerate(zip(sents, tags))]
    meas_s = time.perf_counter() - t0
    n_sent = len(sents)

    ours: dict[str, list[float]] = {c: [] for c in REF_COLS}
    theirs: dict[str, list[float]] = {c: [] for c in REF_COLS}
    ours_eos: dict[str, list[float]] = {c: [] for c in REF_COLS}
    theirs_eos: dict[str, list[float]] = {c: [] for c in REF_COLS}
    cls_ref: list[str] = []
    cls_ours: list[str] = []
    for s, rr in zip(ok, rows):
        for k, row in enumerate(rr):
            target = (ours, theirs) if k < len(rr) - 1 else (ours_eos, theirs_eos)
            for j, c in enumerate(REF_COLS):
                target[0][c].append(row[c])
                target[1][c].append(s.values[k][j])
            if k < len(rr) - 1:
                cls_ref.append(s.classes[k])
                cls_ours.append(row["word_class"])
    agree = sum(a == b for a, b in zip(cls_ref, cls_ours)) / max(1, len(cls_ref))

    # log base: reference tree -log P vs ours on the same tree; reference sentence -log P vs ours
    pairs = [(s.tree_nlp, -tree_logprob(parser, s.tree)) for s in ok if s.tree]
    pairs = [(a, b) for a, b in pairs if math.isfinite(a) and math.isfinite(b)]
    ratio = float(np.median([a / b for a, b in pairs])) if pairs else math.nan
    slope = float(np.polyfit([b for _, b in pairs], [a for a, _ in pairs], 1)[0]) if len(pairs) > 2 else math.nan

    lines: list[str] = []
    say = lines.append
    say("# Word-by-word measures vs the reference generative parser (PTB sample test split)")
    say("")
    say(f"Date: {datetime.date.today().isoformat()}. Command (one core):")
    say("")
    say(f"    python benchmarks/measures.py --reference {args.reference} --gamma {args.gamma:g} --cap {args.cap}"
        f" --tag-margin {args.tag_margin:g} --max-tags {args.max_tags}"
        + (f" --limit {args.limit}" if args.limit else "") + (f" --out {args.out}" if args.out else ""))
    say("")
    say(f"glmnlp generative model trained on sample train (gold trees, `-t 0.05` pruning) in {train_s:.0f} s; "
        f"measures on the reference's own tokens, candidate tags chosen by the model (`tags=\"model\"`, at most "
        f"{args.max_tags} within {args.tag_margin:g} nats), FILTER gamma {args.gamma:g}, cap {args.cap}; units nats. "
        f"{n_sent} of {len(ref)} sentences (the reference failed on {len(ref) - n_sent}). "
        "The machine's 2 cores were shared with other jobs: speeds are lower bounds.")
    say("")
    say("## Log base of the reference")
    say("")
    say(f"On {len(pairs)} sentences whose reference best tree our grammar can derive, the reference's tree "
        f"negative log probability / ours on the same tree: median {ratio:.3f}, least-squares slope {slope:.3f} "
        "(1 = natural log, 1.443 = bits). Its code computes with exp/log. So the reference prints **nats**; "
        "the comparison below is in nats.")
    say("")
    say("## Pearson r per word (words only; the `</s>` rows separately)")
    say("")
    say("| measure | r (words) | target | n | r (`</s>` rows) | mean ours | mean reference |")
    say("|---|---|---|---|---|---|---|")
    targets = {"surprisal": ">= 0.9", "lexical_surprisal": ">= 0.9", "syntactic_surprisal": ">= 0.7"}
    for c in REF_COLS:
        r, n = pearson(ours[c], theirs[c])
        r2, _ = pearson(ours_eos[c], theirs_eos[c])
        mo = float(np.nanmean([v for v in ours[c] if math.isfinite(v)]))
        mt = float(np.nanmean(theirs[c]))
        say(f"| {c} | {r:.3f} | {targets.get(c, '')} | {n} | {r2:.3f} | {mo:.3f} | {mt:.3f} |")
    say("")
    say("## Mean per word class (classes = the reference's markers)")
    say("")
    say("| class | n | " + " | ".join(f"{c} ours / ref" for c in REF_COLS if c != "prefix") + " |")
    say("|---|---|" + "---|" * (len(REF_COLS) - 1))
    for cl in ("open", "closed", "previous"):
        idx = [k for k, x in enumerate(cls_ref) if x == cl]
        cells = []
        for c in REF_COLS:
            if c == "prefix":
                continue
            a = np.array([ours[c][k] for k in idx], dtype=float)
            b = np.array([theirs[c][k] for k in idx], dtype=float)
            a = a[np.isfinite(a)]
            cells.append(f"{a.mean():.2f} / {b.mean():.2f}")
        say(f"| {cl} | {len(idx)} | " + " | ".join(cells) + " |")
    say("")
    say(f"Our word-class list/rule agrees with the reference's markers on {100 * agree:.1f}% of the "
        f"{len(cls_ref)} tokens.")
    say("")
    say("## Speed (one core)")
    say("")
    say("| step | seconds | sentences/s |")
    say("|---|---|---|")
    say(f"| candidate tags (model) | {tag_s:.2f} | {n_sent / tag_s:.0f} |")
    say(f"| plain parsing, same tokens and tags, same beam | {parse_s:.2f} | {n_sent / parse_s:.1f} |")
    say(f"| measures (no next-word entropy) | {meas_s:.2f} | {n_sent / meas_s:.1f} |")
    say("")
    say(f"Measures run at {100 * parse_s / meas_s:.0f}% of plain parsing speed (target >= 80%); "
        f"{n_sent} sentences in {meas_s:.2f} s (target < 5 s for 245; tags included: {meas_s + tag_s:.2f} s).")
    text = "\n".join(lines) + "\n"
    print(text)
    if args.out:
        with open(args.out, "w", encoding="utf-8") as fh:
            fh.write(text)


if __name__ == "__main__":
    sys.exit(main())
