"""Sentence splitting and tokenisation of raw web text against UD English EWT (glmnlp.text.tokenize).

Every EWT document (``# newdoc``) is rebuilt from the ``# text`` lines of its sentences, joined by a
space (``--join space``), or with a blank line between the paragraphs EWT marks with ``# newpar``
and a space between sentences of one paragraph (``--join paragraphs``; a blank line is a paragraph
break to the tokenizer). Each rebuilt document is run through
:func:`glmnlp.text.tokenize.tokenize_text_spans` and compared with the gold on character offsets,
so that spelling conventions (``-LRB-`` for ``(``, ```` `` ```` for ``"``) do not count:

* **sentence boundaries**: the end offset of every sentence but the last of its document, gold
  against predicted; precision, recall and F1. With ``--join paragraphs`` the boundaries at
  paragraph breaks are given away by the blank lines and counted too.
* **tokens**: the ``[start, end)`` span of every token; precision, recall, F1. The gold tokens are
  EWT's syntactic words (FORM), which follow PTB (``do`` + ``n't``, ``John`` + ``'s``, ``gon`` +
  ``na``); a multiword token whose words do not spell its surface form counts as one token.
* **sentences exact**: gold sentences whose span is a predicted sentence with exactly its tokens.
* **quote directions** (``--quotes``): of the quotes EWT tags ```` `` ```` or ``''`` (XPOS) that are a token when
  each sentence's ``# text`` is tokenised alone, those spelled in the same direction (````` and ```` `` ```` open).

``--errors N`` prints the N most frequent error classes (heuristic, from the characters around each
wrong span) with examples; EWT follows its own conventions in places (it splits ``and/or`` and
``5pm``, keeps headings without punctuation as sentences), so not every error is the tokenizer's.

Usage:
  python benchmarks/tokenize_quality.py                      # dev, both joins
  python benchmarks/tokenize_quality.py --splits dev train --join space --errors 15
  python benchmarks/tokenize_quality.py --ewt /path/to/ud_english_ewt
  python benchmarks/tokenize_quality.py --ptb-sample --gum ../shared/data/gum_const   # also tree files' boundaries
  python benchmarks/tokenize_quality.py --splits dev train --join space --quotes      # also quote directions
"""

from __future__ import annotations

import argparse
import re
import time
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path

from _args import at_least, existing  # benchmarks/_args.py

from glmnlp.text.tokenize import tokenize_text_spans

REPO = Path(__file__).resolve().parent.parent

Span = tuple[int, int]


@dataclass
class Sentence:
    text: str
    tokens: list[Span]  # offsets in ``text``
    newpar: bool
    quotes: dict[Span, bool] = field(default_factory=dict)  # a quote token's span: whether its XPOS is ``


@dataclass
class Document:
    doc_id: str
    sentences: list[Sentence] = field(default_factory=list)


def _align(text: str, forms: list[str]) -> list[Span] | None:
    """Spans of ``forms`` in ``text``, in order, with only whitespace between them (None if not so)."""
    spans: list[Span] = []
    at = 0
    for form in forms:
        start = text.find(form, at)
        if start < 0 or text[at:start].strip():
            return None
        spans.append((start, start + len(form)))
        at = start + len(form)
    return spans if not text[at:].strip() else None


def read_documents(path: Path) -> tuple[list[Document], int]:
    """EWT's documents, and the number of sentences whose tokens could not be aligned (left out)."""
    docs: list[Document] = []
    skipped = 0
    text = ""
    newpar = False
    forms: list[str] = []
    mwt_end = 0
    mwt_words: list[str] = []
    mwt_surface = ""
    quotes: dict[int, bool] = {}  # index in forms: whether the quote opens (XPOS `` or '')

    def flush() -> None:
        nonlocal skipped, forms, text, newpar, quotes
        if not forms:
            return
        spans = _align(text, forms)
        if spans is None:
            skipped += 1
        else:
            docs[-1].sentences.append(Sentence(text, spans, newpar, {spans[i]: o for i, o in quotes.items()}))
        forms, text, newpar, quotes = [], "", False, {}

    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("# newdoc"):
            docs.append(Document(line.partition("=")[2].strip()))
        elif line.startswith("# newpar"):
            newpar = True
        elif line.startswith("# text ="):
            text = line.partition("=")[2].strip()
        elif not line.strip():
            flush()
        elif not line.startswith("#"):
            cols = line.split("\t")
            tid, form = cols[0], cols[1]
            if "." in tid:
                continue  # empty node
            if "-" in tid:
                mwt_end = int(tid.split("-")[1])
                mwt_surface, mwt_words = form, []
                continue
            if mwt_end:
                mwt_words.append(form)
                if int(tid) == mwt_end:
                    forms.extend(mwt_words if "".join(mwt_words) == mwt_surface else [mwt_surface])
                    mwt_end = 0
                continue
            if cols[4] in ("``", "''"):
                quotes[len(forms)] = cols[4] == "``"
            forms.append(form)
    flush()
    return [d for d in docs if d.sentences], skipped


def build(doc: Document, join: str) -> tuple[str, list[Span], list[Span]]:
    """The document's text, its gold sentence spans and its gold token spans (offsets in the text)."""
    parts: list[str] = []
    at = 0
    sents: list[Span] = []
    toks: list[Span] = []
    for i, sent in enumerate(doc.sentences):
        if i:
            sep = "\n\n" if join == "paragraphs" and sent.newpar else " "
            parts.append(sep)
            at += len(sep)
        parts.append(sent.text)
        toks.extend((at + a, at + b) for a, b in sent.tokens)
        sents.append((at + sent.tokens[0][0], at + sent.tokens[-1][1]))
        at += len(sent.text)
    return "".join(parts), sents, toks


def prf(tp: int, n_pred: int, n_gold: int) -> tuple[float, float, float]:
    p = tp / n_pred if n_pred else 1.0
    r = tp / n_gold if n_gold else 1.0
    return p, r, (2 * p * r / (p + r) if p + r else 0.0)


# -- error classes (heuristic: the characters of the wrong spans and around them) ----------------------
def _token_class(text: str, gold: list[Span], pred: list[Span]) -> str:
    """A name for one region where gold and predicted tokens differ (both cover the same characters)."""
    g = [text[a:b] for a, b in gold]
    p = [text[a:b] for a, b in pred]
    chunk = text[min(s[0] for s in gold + pred):max(s[1] for s in gold + pred)]
    if re.search(r"https?://|www\.|@\w|\.(com|org|net|html?)\b", chunk):
        return "URL / e-mail / handle"
    if any(re.fullmatch(r"[A-Za-z]+/[A-Za-z]+", t) for t in p) and "/" in g:
        return "word/word: EWT splits the slash"
    if len(p) > len(g) and any(re.fullmatch(r"(\w\.)+\w?", t) for t in g):
        return "abbreviation: final period split off"
    if any(t.endswith(".") and len(t) > 1 for t in p) and "." in g:
        return "period left on a word"
    if re.search(r"\d(am|pm|AM|PM|[a-zA-Z]{1,3})\b", chunk) and len(g) > len(p):
        return "number+unit: EWT splits"
    if "-" in chunk and len(g) > len(p):
        return "hyphen: EWT splits"
    if re.search(r"[.!?]{2,}|\.\s\.", chunk):
        return "ellipsis / repeated punctuation"
    if re.search(r"['\u2019]", chunk):
        return "apostrophe / single quote"
    if re.search(r"[:;=][-']?[()DPp]", chunk):
        return "emoticon"
    return "other: " + (" ".join(g) + " | " + " ".join(p))[:40]


def _boundary_class(text: str, pos: int, missed: bool) -> str:
    """A name for one wrong sentence boundary at ``pos`` (a gold one missed, or a predicted one not in gold)."""
    before = text[max(0, pos - 12):pos]
    after = text[pos:pos + 12].lstrip()
    last = before.rstrip()[-1:] if before.strip() else ""
    if not missed:
        if re.search(r"\b[A-Z][a-z]{0,3}\.$|\b(\w\.)+$", before):
            return "split after an abbreviation"
        if after[:1] in ("'", '"', ")", "\u201d", "\u2019"):
            return "split before a closing quote/bracket"
        if re.search(r"^\s*\d+\.$|^\s*[a-z]\)$", before[-4:]):
            return "split after a list marker"
        return "extra split, other"
    if last in ".!?":
        return "missed after . ! ?"
    if last in "\"')\u201d\u2019":
        return "missed after a closing quote/bracket"
    if last.isalnum():
        return "missed, no punctuation (heading, list item, smiley)"
    return f"missed after {last!r}"


def _diff_regions(gold: list[Span], pred: list[Span]) -> list[tuple[list[Span], list[Span]]]:
    """Minimal groups of gold and predicted spans that differ and cover the same stretch of text."""
    gset, pset = set(gold), set(pred)
    bad_g = sorted(s for s in gold if s not in pset)
    bad_p = sorted(s for s in pred if s not in gset)
    events = [(a, b, 0) for a, b in bad_g] + [(a, b, 1) for a, b in bad_p]
    events.sort()
    regions: list[tuple[list[Span], list[Span]]] = []
    end = -1
    for a, b, who in events:
        if a >= end:
            regions.append(([], []))
        regions[-1][who].append((a, b))
        end = max(end, b)
    return regions


def evaluate(docs: list[Document], join: str, errors: dict[str, Counter[str]] | None) -> dict[str, float]:
    counts = Counter[str]()
    examples = defaultdict(list) if errors is not None else None
    for doc in docs:
        text, gold_sents, gold_toks = build(doc, join)
        pred = tokenize_text_spans(text)
        pred_sents = [(s[0][1], s[-1][2]) for s in pred if s]
        pred_toks = [(a, b) for s in pred for _, a, b in s]
        gb = {e for _, e in gold_sents[:-1]}
        pb = {e for _, e in pred_sents[:-1]}
        counts["b_tp"] += len(gb & pb)
        counts["b_gold"] += len(gb)
        counts["b_pred"] += len(pb)
        gt, pt = set(gold_toks), set(pred_toks)
        counts["t_tp"] += len(gt & pt)
        counts["t_gold"] += len(gt)
        counts["t_pred"] += len(pt)
        pred_by_span = {(s[0][1], s[-1][2]): {(a, b) for _, a, b in s} for s in pred if s}
        for a, b in gold_sents:
            counts["s_gold"] += 1
            gold_in = {t for t in gold_toks if a <= t[0] and t[1] <= b}
            counts["s_exact"] += pred_by_span.get((a, b)) == gold_in
        if errors is not None and examples is not None:
            for g, p in _diff_regions(gold_toks, pred_toks):
                if g and p:
                    name = _token_class(text, g, p)
                    lo, hi = min(s[0] for s in g + p), max(s[1] for s in g + p)
                    errors["token"][name] += 1
                    examples[name].append(f"{text[max(0, lo - 15):hi + 15]!r}: gold {[text[x:y] for x, y in g]}"
                                          f" / ours {[text[x:y] for x, y in p]}")
            for pos in sorted(gb ^ pb):
                name = _boundary_class(text, pos, pos in gb)
                errors["sentence"][name] += 1
                examples[name].append(f"{text[max(0, pos - 40):pos]!r} | {text[pos:pos + 30]!r}")
    if errors is not None and examples is not None:
        _EXAMPLES.update(examples)
    bp, br, bf = prf(counts["b_tp"], counts["b_pred"], counts["b_gold"])
    tp, tr, tf = prf(counts["t_tp"], counts["t_pred"], counts["t_gold"])
    return {"docs": len(docs), "sentences": counts["s_gold"], "tokens": counts["t_gold"],
            "bp": bp, "br": br, "bf": bf, "tp": tp, "tr": tr, "tf": tf,
            "exact": counts["s_exact"] / max(counts["s_gold"], 1)}


_EXAMPLES: dict[str, list[str]] = {}


def quote_directions(docs: list[Document]) -> tuple[int, int, int]:
    """Quotes whose EWT tag (XPOS ```` `` ```` or ``''``) gives their direction: how many, how many of them are a
    token of :func:`glmnlp.text.tokenize.tokenize_spans` run on the sentence's ``# text``, and how many of those it
    spells in the same direction (````` and `````` open)."""
    from glmnlp.text.tokenize import tokenize_spans

    tagged = matched = agree = 0
    for sent in (s for doc in docs for s in doc.sentences if s.quotes):
        spelled = {(a, b): token for token, a, b in tokenize_spans(sent.text)}
        for span, opens in sent.quotes.items():
            tagged += 1
            if span in spelled:
                matched += 1
                agree += (spelled[span] in ("`", "``")) == opens
    return tagged, matched, agree


def tree_file_boundaries(corpus: str, files: list[Path], label: str, show: bool) -> None:
    """Sentence boundaries of tree files, one document each (the bundled PTB sample, GUM): each file's cleaned trees
    detokenised (``benchmarks/parsing.py``'s ``detokenize``), joined by one space, split again by
    ``sentence_spans``; the trees' own sentences are the gold."""
    import warnings

    from parsing import detokenize  # benchmarks/parsing.py

    from glmnlp.text.tokenize import LongInputWarning, sentence_spans
    from glmnlp.treebank.preprocess import clean_tree
    from glmnlp.treebank.trees import read_tree_file

    found = wrong = missed = 0
    shown: list[str] = []
    for path in files:
        text, gold = "", set()
        for tree in read_tree_file(path):
            text += (" " if text else "") + detokenize(clean_tree(tree).leaves())
            gold.add(len(text))
        gold.discard(len(text))
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", LongInputWarning)  # a GUM list without full stops runs long
            predicted = {end for _start, end in sentence_spans(text)} - {len(text)}
        found += len(gold & predicted)
        wrong += len(predicted - gold)
        missed += len(gold - predicted)
        shown += [f"{path.name}: {text[max(0, e - 50):e]} || {text[e:e + 30]}" for e in sorted(predicted - gold)]
    precision, recall, _f = prf(found, found + wrong, found + missed)
    print(f"{corpus} ({label or 'this checkout'}, {len(files)} documents): boundary precision "
          f"{precision:.4f}, recall {recall:.4f} ({found} found, {wrong} wrong, {missed} missed)\n")
    if show:
        print("wrong boundaries:\n" + "\n".join(f"    {line}" for line in shown) + "\n")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--ewt", type=existing, default=REPO.parent / "shared" / "data" / "ud_english_ewt",
                    help="folder with en_ewt-ud-{train,dev,test}.conllu "
                         "(default: ../shared/data/ud_english_ewt beside the repository)")
    ap.add_argument("--splits", nargs="+", default=["dev"], choices=("train", "dev", "test"),
                    help="EWT splits whose documents are rebuilt and tokenised (default: dev)")
    ap.add_argument("--join", nargs="+", default=["space", "paragraphs"], choices=("space", "paragraphs"),
                    help="how sentences of a document are joined (see above)")
    ap.add_argument("--errors", type=at_least(0), default=0, metavar="N",
                    help="also print the N most frequent error classes, with up to --examples examples each")
    ap.add_argument("--examples", type=at_least(0), default=3,
                    help="examples printed for each error class of --errors (default 3)")
    ap.add_argument("--label", default="", help="a name for the rows (e.g. the commit measured)")
    ap.add_argument("--ptb-sample", action="store_true",
                    help="also split the bundled PTB sample: each file's sentences detokenised and joined by one "
                         "space; boundary precision and recall, and every wrong boundary with --errors")
    ap.add_argument("--gum", type=existing, default=None, metavar="GUM_DIR",
                    help="also split GUM's documents (GUM_DIR/dev and GUM_DIR/train, e.g. ../shared/data/gum_const) "
                         "as --ptb-sample splits the sample's")
    ap.add_argument("--quotes", action="store_true",
                    help="also count the quotes of each split spelled in the direction EWT tags them (XPOS)")
    args = ap.parse_args()
    if args.ptb_sample:
        from glmnlp.treebank.corpus import sample_files

        files = [f for split in ("train", "dev", "test") for f in sample_files(split)]
        tree_file_boundaries("PTB sample", files, args.label, args.errors > 0)
    if args.gum is not None:
        for split in ("dev", "train"):
            tree_file_boundaries(f"GUM {split}", sorted((args.gum / split).glob("*.ptb")), args.label, args.errors > 0)

    print("| code | split | join | docs | sentences | tokens | sent P | sent R | sent F1 "
          "| tok P | tok R | tok F1 | sent exact | s |")
    print("|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    errors: dict[str, Counter[str]] = {"token": Counter(), "sentence": Counter()}
    for split in args.splits:
        docs, skipped = read_documents(args.ewt / f"en_ewt-ud-{split}.conllu")
        if skipped:
            print(f"<!-- {split}: {skipped} sentences left out (tokens not found in their # text) -->")
        if args.quotes:
            tagged, matched, agree = quote_directions(docs)
            print(f"<!-- {split} ({args.label or 'this checkout'}): {agree} of {matched} quotes spelled in the "
                  f"direction EWT tags them ({tagged} tagged `` or '', {matched} of them a token) -->")
        for join in args.join:
            t0 = time.perf_counter()
            r = evaluate(docs, join, errors if args.errors and join == args.join[0] else None)
            secs = time.perf_counter() - t0
            print(f"| {args.label} | {split} | {join} | {r['docs']} | {r['sentences']} | {r['tokens']} "
                  f"| {r['bp']:.4f} | {r['br']:.4f} | {r['bf']:.4f} | {r['tp']:.4f} | {r['tr']:.4f} "
                  f"| {r['tf']:.4f} | {r['exact']:.4f} | {secs:.0f} |", flush=True)
    if args.errors:
        for kind in ("sentence", "token"):
            print(f"\n{kind} errors (splits above, join {args.join[0]}; heuristic classes):\n")
            print("| count | class |\n|---:|---|")
            for name, n in errors[kind].most_common(args.errors):
                print(f"| {n} | {name} |")
            for name, _ in errors[kind].most_common(args.errors):
                print(f"\n{name}:")
                for ex in _EXAMPLES[name][:args.examples]:
                    print("    " + ex)


if __name__ == "__main__":
    main()
