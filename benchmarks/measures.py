"""Word-by-word measures against the reference C parser's ``-p`` output on the PTB sample test split.

    python benchmarks/measures.py --reference ../shared/reference/measures_sample_test.txt \
        --out benchmarks/results/measures.md

Trains glmnlp's generative model on the sample train split (gold trees), computes the measures on
the reference's own tokens (its rows, quotes already removed), and prints: Pearson r per word for
every column, the per-word-class means side by side (classes = the reference's own markers), the
log base check, and speed (measures vs plain parsing of the same tokens and candidate tags, one
core). The reference file is the reference parser's per-word output (``tdparse -p``): for each sentence a header
line, then one row per word and one for ``</s>`` with the columns ``pfix#N word`` (``#`` is ``:`` for an
open-class word, ``+`` for a closed-class word, ``-`` for a token that belongs to the previous one), prefix,
srprsl, SynSp, LexSp, ambig, open, rernk, toprr and stps; a sentence the reference parser failed on is a line
``# sentence N: the reference parser failed``.
"""

from __future__ import annotations

import argparse
import datetime
import math
import re
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from _args import at_least, existing, names as name_list  # benchmarks/_args.py

#: the reference parser's -p output on the test split, beside the repository (as every data default)
REFERENCE = Path(__file__).resolve().parent.parent.parent / "shared" / "reference" / "measures_sample_test.txt"

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


def correlations(ok, rows, lexicon=None, tags=None) -> dict:
    """Pearson r per column over words (and over </s> rows); with a lexicon also known/unknown words apart."""
    ours = {c: [] for c in REF_COLS}
    theirs = {c: [] for c in REF_COLS}
    eos_o = {c: [] for c in REF_COLS}
    eos_t = {c: [] for c in REF_COLS}
    known: list[bool] = []
    for n, (s, rr) in enumerate(zip(ok, rows)):
        for k, row in enumerate(rr):
            o, t = (ours, theirs) if k < len(rr) - 1 else (eos_o, eos_t)
            for j, c in enumerate(REF_COLS):
                o[c].append(row[c])
                t[c].append(s.values[k][j])
            if k < len(rr) - 1 and lexicon is not None:
                known.append(any(lexicon.normalize(row["word"], tg) in lexicon._ids for tg in tags[n][k]))
    out = {"ours": ours, "theirs": theirs, "eos_o": eos_o, "eos_t": eos_t, "known": known}
    out["r"] = {c: pearson(ours[c], theirs[c]) for c in REF_COLS}
    out["r_eos"] = {c: pearson(eos_o[c], eos_t[c]) for c in REF_COLS}
    if known:
        kn = np.array(known)
        for lab, mask in (("known", kn), ("unknown", ~kn)):
            out["r_" + lab] = {c: pearson(list(np.array(ours[c])[mask]), list(np.array(theirs[c])[mask]))
                               for c in ("surprisal", "syntactic_surprisal", "lexical_surprisal")}
    return out


CONFIGS = {
    # name: (tag margin, max tags, gamma, cap[, unknown_words[, tag filter]]) -- "gold" = the treebank's gold
    # tag, one per word; tag filter "seen" (default: tags seen with the word) or "margin" (every tag in the margin)
    "default": (8.0, 8, 1e3, 40),
    "unknown-pos": (8.0, 8, 1e3, 40, "pos"),
    "margin8": (8.0, 8, 1e3, 40, "model", "margin"),
    "margin4": (4.0, 8, 1e3, 40, "model", "margin"),
    "fast": (3.0, 3, 48.0, 100),
    "narrow": (8.0, 8, 48.0, 100),
    "wide": (8.0, 8, 1e4, 100),
    "widest": (8.0, 8, 1e6, 100),
    "gold": (None, None, 1e3, 40),
}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--reference", type=existing, default=REFERENCE,
                    help="the reference parser's -p output on the test split (default: %(default)s)")
    ap.add_argument("--out", default="", help="also write the report (markdown) to this file")
    ap.add_argument("--configs", type=name_list(*CONFIGS), default="default,unknown-pos,margin8,margin4,fast,wide,gold",
                    help=f"comma-separated among {', '.join(CONFIGS)}; the first is reported in detail")
    ap.add_argument("--limit", type=at_least(0), default=0, help="first N sentences only")
    ap.add_argument("--next-word", type=at_least(0), default=20, help="sentences for the --next-word cost (0: skip)")
    ap.add_argument("--lookahead", type=float, default=0.0, metavar="W",
                    help="experiment: rank FILTER with W x the look-ahead term of benchmarks/lookahead.py "
                         "(needs benchmarks/patches/lookahead.patch); 0 = none")
    ap.add_argument("--save-model", default="", help="also save the trained parser here (benchmarks/measures_cost.py)")
    ap.add_argument("--model", default="", metavar="DIR",
                    help="measure this model (a pipeline folder, its parser's, or 'default': the bundled one) instead "
                         "of the generative model trained on the sample's training split as the reference was")
    args = ap.parse_args()

    from glmnlp.parser.measures import MeasureOptions, WordClasses, candidate_tags, sentence_measures
    from glmnlp.treebank.corpus import sample_trees

    ref = read_reference(args.reference)
    if args.limit:
        ref = ref[: args.limit]
    names = args.configs
    margin, max_tags, gamma, cap = CONFIGS[names[0]][:4]
    if args.model:
        from glmnlp.parser.model import Parser
        from glmnlp.text.default_model import default_model_path

        folder = default_model_path() if args.model == "default" else Path(args.model)
        parser, train_s = Parser.load(folder / "parser" if (folder / "parser").is_dir() else folder), 0.0
        if parser.generative is None:
            ap.error(f"--model {args.model}: the parser has no generative model, which the measures need")
    else:
        parser, train_s = train(gamma, cap)
    if args.lookahead:
        if not hasattr(parser._beam, "set_lookahead"):
            ap.error("--lookahead needs a build with benchmarks/patches/lookahead.patch")
        from lookahead import lookahead_table

        parser._beam.set_lookahead(lookahead_table(parser, sample_trees("train"), 5.0), args.lookahead)
    if args.save_model:
        parser.save(args.save_model)
    ok = [s for s in ref if not s.failed]
    sents = [s.words[:-1] for s in ok]
    classes = WordClasses.default()
    n_sent = len(sents)
    # gold tags of the same tokens (the reference drops quote tokens; so do we here)
    gold_by_words = {}
    for tree in sample_trees("test"):
        pairs = [(w, t) for w, t in tree.pos() if t not in ("``", "''")]
        gold_by_words[tuple(w for w, _ in pairs)] = [t for _, t in pairs]

    results = {}
    for name in names:
        margin, max_tags, gamma, cap = CONFIGS[name][:4]
        unknown = CONFIGS[name][4] if len(CONFIGS[name]) > 4 else "model"
        tag_filter = CONFIGS[name][5] if len(CONFIGS[name]) > 5 else "seen"
        parser.generative.gamma, parser.generative.beam_cap = gamma, cap
        parser.config.gamma, parser.config.beam_cap = gamma, cap
        opts = MeasureOptions(units="nats", gamma=gamma, cap=cap, tag_margin=margin or 0.0, max_tags=max_tags or 1,
                              unknown_words=unknown, tag_filter=tag_filter)
        t0 = time.process_time()
        if margin is None:
            tags = [[[t] for t in gold_by_words.get(tuple(w), ["NN"] * len(w))] for w in sents]
        else:
            tags = [candidate_tags(parser, w, margin=margin, max_tags=max_tags, seen=tag_filter == "seen")
                    for w in sents]
        tag_s = time.process_time() - t0
        # speed, interleaved so that both see the same machine load: plain parse then measures, per sentence
        parse_s = meas_s = 0.0
        rows = []
        for k, (w, t) in enumerate(zip(sents, tags)):
            t0 = time.process_time()
            parser.parse_nbest(w, t, 1)
            t1 = time.process_time()
            # the model's tags are chosen again inside (timed), with the fallback to every tag on a dead end
            rows.append(sentence_measures(parser, w, t if margin is None else "model", options=opts,
                                          classes=classes, sentence=k + 1))
            t2 = time.process_time()
            parse_s += t1 - t0
            meas_s += t2 - t1
        corr = correlations(ok, rows, parser.generative.lexicon, tags)
        mean_beam = float(np.mean([r["beam"] for rr in rows for r in rr]))
        results[name] = dict(tags=tags, rows=rows, corr=corr, tag_s=tag_s, parse_s=parse_s, meas_s=meas_s,
                             beam=mean_beam, cfg=CONFIGS[name])
        print(name, {c: round(v[0], 3) for c, v in corr["r"].items()}, f"{meas_s:.1f}s", file=sys.stderr, flush=True)

    main_name = names[0]
    res = results[main_name]
    margin, max_tags, gamma, cap = res["cfg"][:4]
    parser.generative.gamma, parser.generative.beam_cap = gamma, cap
    corr = res["corr"]
    ours, theirs = corr["ours"], corr["theirs"]
    cls_ref = [c for s in ok for c in s.classes[:-1]]
    cls_ours = [r["word_class"] for rr in res["rows"] for r in rr[:-1]]
    agree = sum(a == b for a, b in zip(cls_ref, cls_ours)) / max(1, len(cls_ref))

    # log base: reference tree -log P vs ours on the same tree
    pairs = [(s.tree_nlp, -tree_logprob(parser, s.tree)) for s in ok if s.tree]
    pairs = [(a, b) for a, b in pairs if math.isfinite(a) and math.isfinite(b)]
    ratio = float(np.median([a / b for a, b in pairs])) if pairs else math.nan
    slope = float(np.polyfit([b for _, b in pairs], [a for a, _ in pairs], 1)[0]) if len(pairs) > 2 else math.nan

    # the expensive flag
    nw = None
    if args.next_word:
        subset = list(zip(sents, res["tags"]))[: args.next_word]
        opts = MeasureOptions(units="nats", gamma=gamma, cap=cap)
        optn = MeasureOptions(units="nats", gamma=gamma, cap=cap, next_word=True)
        t0 = time.process_time()
        for w, t in subset:
            sentence_measures(parser, w, t, options=opts, classes=classes)
        t1 = time.process_time()
        for w, t in subset:
            sentence_measures(parser, w, t, options=optn, classes=classes)
        t2 = time.process_time()
        nw = (len(subset), sum(len(w) for w, _ in subset), t1 - t0, t2 - t1)

    lines: list[str] = []
    say = lines.append
    cmd = (f"python benchmarks/measures.py --reference {args.reference} --configs {','.join(args.configs)}"
           + (f" --limit {args.limit}" if args.limit else "") + f" --next-word {args.next_word}"
           + (f" --lookahead {args.lookahead:g}" if args.lookahead else "")
           + (f" --out {args.out}" if args.out else ""))
    say("# Word-by-word measures vs the reference generative parser (PTB sample test split)")
    say("")
    say(f"Date: {datetime.date.today().isoformat()}. Command (one process, one core):")
    say("")
    say(f"    {cmd}")
    say("")
    say(f"glmnlp's generative model trained on sample train (gold trees, `-t 0.05` pruning; {train_s:.0f} s), "
        f"measures computed on the reference's own tokens (its rows; quote tokens already removed) for the "
        f"{n_sent} of {len(ref)} test sentences the reference parsed (it failed on {len(ref) - n_sent}). "
        f"Main configuration `{main_name}`: "
        + ("the treebank's gold tags, one per word" if margin is None else
           "candidate tags chosen by the model from each word alone "
           f"(tags seen with the word in training, at most {max_tags} within {margin:g} nats)")
        + f", FILTER gamma {gamma:g}, cap {cap}; units nats. "
        "Times are CPU seconds of this process (time.process_time), not wall time: the machine's 2 cores "
        "were shared with other jobs, which slows wall time and, through the shared caches, CPU time "
        "too, so speeds are lower bounds.")
    say("")
    say("## Log base of the reference")
    say("")
    say(f"On {len(pairs)} sentences whose reference best tree our grammar can derive, the reference's tree "
        f"negative log probability / ours for the same tree: median {ratio:.3f}, least-squares slope {slope:.3f} "
        "(1 would be natural logs, 1.443 bits). The reference prints **nats** (its code also computes with "
        "exp/log); everything below is in nats.")
    say("")
    say(f"## Pearson r per word, `{main_name}` configuration")
    say("")
    say("| measure | r (all words) | target | r known words | r unknown words | r (`</s>` rows) | mean ours | mean reference |")
    say("|---|---|---|---|---|---|---|---|")
    targets = {"surprisal": ">= 0.9", "lexical_surprisal": ">= 0.9", "syntactic_surprisal": ">= 0.7"}
    n_known = int(np.sum(corr["known"]))
    for c in REF_COLS:
        r, n = corr["r"][c]
        rk = corr["r_known"].get(c, (math.nan, 0))[0]
        ru = corr["r_unknown"].get(c, (math.nan, 0))[0]
        r2 = corr["r_eos"][c][0]
        mo = float(np.mean([v for v in ours[c] if math.isfinite(v)]))
        mt = float(np.mean(theirs[c]))
        cell = lambda x: "" if math.isnan(x) else f"{x:.3f}"  # noqa: E731
        say(f"| {c} | {r:.3f} | {targets.get(c, '')} | {cell(rk)} | {cell(ru)} | {cell(r2)} | {mo:.3f} | {mt:.3f} |")
    say("")
    say(f"{n} words ({n_known} known to our lexicon under one of their candidate tags, {n - n_known} unknown), "
        f"{n_sent} `</s>` rows. Mean beam: ours {res['beam']:.1f} analyses.")
    say("")
    say("## Syntactic surprisal where the two beams agree")
    say("")
    say("Pearson r over the words whose total surprisal differs by less than d nats between the two parsers "
        "(the words where both beams found about the same probability for the word):")
    say("")
    say("| d (nats) | words | r syntactic | r lexical |")
    say("|---|---|---|---|")
    o_t, t_t = np.array(ours["surprisal"], dtype=float), np.array(theirs["surprisal"], dtype=float)
    o_s, t_s = np.array(ours["syntactic_surprisal"], dtype=float), np.array(theirs["syntactic_surprisal"], dtype=float)
    o_l, t_l = np.array(ours["lexical_surprisal"], dtype=float), np.array(theirs["lexical_surprisal"], dtype=float)
    fin = np.isfinite(o_t) & np.isfinite(o_s)
    for d in (1.0, 2.0, 3.0, 5.0, math.inf):
        m = fin & (np.abs(o_t - t_t) < d)
        say(f"| {d:g} | {int(m.sum())} | {np.corrcoef(o_s[m], t_s[m])[0, 1]:.3f} | {np.corrcoef(o_l[m], t_l[m])[0, 1]:.3f} |")
    err = (o_s - t_s)[fin] ** 2
    far = np.abs(o_t - t_t)[fin] > 3
    say("")
    say(f"Words whose total surprisal differs by more than 3 nats: {100 * far.mean():.1f}% of the words, "
        f"{100 * err[far].sum() / err.sum():.1f}% of the squared difference in syntactic surprisal.")
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
            cells.append(f"{a[np.isfinite(a)].mean():.2f} / {b.mean():.2f}")
        say(f"| {cl} | {len(idx)} | " + " | ".join(cells) + " |")
    say("")
    say(f"Our packaged word-class list and rule agree with the reference's markers on {100 * agree:.1f}% of the "
        f"{len(cls_ref)} tokens.")
    say("")
    say("## Other configurations (same model; r over all words)")
    say("")
    say("| config | tags | gamma | cap | mean beam | r surprisal | r syntactic | r lexical | r entropy | r open | r steps "
        "| measures s | plain parse s | measures / parse speed |")
    say("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    for name in names:
        x = results[name]
        m, mt_, g, cp = x["cfg"][:4]
        tg = "gold (one per word)" if m is None else f"model, <= {mt_} within {m:g} nats"
        if m is not None:
            tg += ", every tag" if len(x["cfg"]) > 5 and x["cfg"][5] == "margin" else ", seen tags"
        if len(x["cfg"]) > 4 and x["cfg"][4] != "model":
            tg += f"; unknown words by {x['cfg'][4]}"
        rr = x["corr"]["r"]
        say(f"| {name} | {tg} | {g:g} | {cp} | {x['beam']:.1f} | {rr['surprisal'][0]:.3f} | "
            f"{rr['syntactic_surprisal'][0]:.3f} | {rr['lexical_surprisal'][0]:.3f} | {rr['entropy'][0]:.3f} | "
            f"{rr['open_brackets'][0]:.3f} | {rr['steps'][0]:.3f} | {x['meas_s']:.2f} | {x['parse_s']:.2f} | "
            f"{100 * x['parse_s'] / x['meas_s']:.0f}% |")
    say("")
    say("## Speed (one core)")
    say("")
    say("CPU seconds. Plain parsing and measures alternate sentence by sentence (same input tags, same beam), "
        "so both see the same machine load; the measures' time includes choosing the model's candidate tags "
        "again (the \"candidate tags\" column times that step alone).")
    say("")
    say("| config | candidate tags s | plain parsing s | measures s | sentences | measures / parse speed | "
        "245 sentences < 5 s? |")
    say("|---|---|---|---|---|---|---|")
    for name in names:
        x = results[name]
        total = x["meas_s"]
        say(f"| {name} | {x['tag_s']:.2f} | {x['parse_s']:.2f} | {x['meas_s']:.2f} | {n_sent} | "
            f"{100 * x['parse_s'] / x['meas_s']:.0f}% | {'yes' if total * 245 / n_sent < 5 else 'no'} "
            f"({total * 245 / n_sent:.1f} s) |")
    if nw is not None:
        k, words, base_s, next_s = nw
        say("")
        say(f"`--next-word` on the first {k} sentences ({words} words), `{main_name}` configuration: "
            f"{next_s:.1f} s against {base_s:.2f} s without it ({next_s / base_s:.0f}x; "
            f"{1000 * next_s / words:.0f} ms per word).")
    text = "\n".join(lines) + "\n"
    print(text)
    if args.out:
        with open(args.out, "w", encoding="utf-8") as fh:
            fh.write(text)
        print(f"wrote {args.out}", file=sys.stderr)


if __name__ == "__main__":
    sys.exit(main())
