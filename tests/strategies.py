"""Reusable Hypothesis strategies: random trees, bracket texts and tagged sentences.

Labels and words are drawn from printable characters other than whitespace and brackets (the only
characters the bracket format cannot carry), so the generated trees exercise odd but legal tokens
such as ``-LRB-``, ``PRP$``, ``1/2``, ``NP-SBJ=2`` and non-ASCII words. :data:`document_trees` adds
what a document can hold although brackets cannot: words and labels with ``(`` or ``)`` (pre-tokenised
input such as ``f(x)``), next to text that looks like their escapes (``-LRB-``), and slash categories.
"""

from __future__ import annotations

from hypothesis import strategies as st

from glmnlp.treebank.formats import TaggedSentence
from glmnlp.treebank.trees import Tree, to_bracket, to_pretty

# Letters, digits, punctuation and symbols; no separators (Z*), controls (C*) or brackets.
_TOKEN_CHARS = st.characters(
    categories=("L", "M", "N", "P", "S"),
    exclude_characters="()",
)
_TREEBANK_LABELS = st.sampled_from(
    ["S", "NP", "VP", "PP", "NP-SBJ", "NP-SBJ-1", "PP-LOC=2", "ADVP|PRT", "-LRB-", "-RRB-", "PRP$", ",", "."]
)
_TREEBANK_WORDS = st.sampled_from(["the", "dog", "1/2", "-LRB-", "n't", "Conn.based", "$", "``", "*T*-1", "0"])

#: a non-empty token usable as a label or a word
tokens = st.text(_TOKEN_CHARS, min_size=1, max_size=6)
labels = st.one_of(_TREEBANK_LABELS, tokens)
words = st.one_of(_TREEBANK_WORDS, tokens)

preterminals = st.builds(lambda label, word: Tree(label, (word,)), labels, words)


def _phrase(children: st.SearchStrategy[Tree]) -> st.SearchStrategy[Tree]:
    return st.builds(
        lambda label, kids: Tree(label, tuple(kids)),
        labels,
        st.lists(children, min_size=1, max_size=4),
    )


#: labelled trees of any shape (every leaf under a preterminal), as the bracket reader produces them
trees = st.recursive(preterminals, _phrase, max_leaves=12)


@st.composite
def rooted_trees(draw: st.DrawFn) -> Tree:
    """A tree as found at the top of a file: labelled, or the ``.mrg`` wrapper ``( (S ...) )``."""
    tree = draw(trees)
    if draw(st.booleans()):
        return tree
    return Tree("", tuple(draw(st.lists(st.one_of(trees, st.just(tree)), min_size=1, max_size=3))))


_NONE = st.builds(lambda word: Tree("-NONE-", (word,)), st.sampled_from(["*", "*T*-1", "0", "*U*", "*EXP*-2"]))
_MAYBE_EMPTY_LEAF = st.one_of(preterminals, _NONE)

# Brackets, and text that looks like the PTB escapes the bracket writer turns them into.
_BRACKETY = st.sampled_from(["(", ")", "a)b", "x(", "f(x)", "((", "-LRB-", "-RRB-", "-LRB-)", "(-RRB-"])
_ANY_TOKEN_CHARS = st.characters(categories=("L", "M", "N", "P", "S"))  # "(" and ")" are P

#: words and labels as a Document holds them: anything without whitespace, brackets included
document_words = st.one_of(_TREEBANK_WORDS, _BRACKETY, st.text(_ANY_TOKEN_CHARS, min_size=1, max_size=6))
document_labels = st.one_of(_TREEBANK_LABELS, _BRACKETY, st.text(_ANY_TOKEN_CHARS, min_size=1, max_size=6))
_document_preterminals = st.builds(lambda label, word: Tree(label, (word,)), document_labels, document_words)


def _document_phrase(children: st.SearchStrategy[Tree]) -> st.SearchStrategy[Tree]:
    return st.builds(
        lambda label, kids, slash: Tree(label, tuple(kids), slash),
        document_labels,
        st.lists(children, min_size=1, max_size=4),
        st.one_of(st.none(), st.none(), document_labels),  # a slash category (FSLC) now and then
    )


#: trees whose words and labels may hold brackets and whose phrases may be slash categories
document_trees = st.recursive(_document_preterminals, _document_phrase, max_leaves=12)

#: treebank-like trees whose leaves may include -NONE- empty elements (some wholly empty)
trees_with_empties = st.recursive(_MAYBE_EMPTY_LEAF, _phrase, max_leaves=12)


@st.composite
def bracket_texts(draw: st.DrawFn, min_trees: int = 1, max_trees: int = 3) -> tuple[str, list[Tree]]:
    """A text holding several trees, each one-line or pretty-printed, separated by blank lines/spaces."""
    chosen = draw(st.lists(rooted_trees(), min_size=min_trees, max_size=max_trees))
    parts: list[str] = [draw(st.sampled_from(["", "\n", " ", "\n\n  "]))]
    for tree in chosen:
        parts.append(to_pretty(tree) if draw(st.booleans()) else to_bracket(tree))
        parts.append(draw(st.sampled_from(["\n", " ", "\n\n", "\t\n "])))
    return "".join(parts), chosen


#: words for token-level formats: no whitespace, and not "_" (CoNLL-U's "no value" mark in tag columns)
format_words = st.text(_TOKEN_CHARS, min_size=1, max_size=8)
format_tags = st.one_of(
    st.sampled_from(["NN", "NNP", "-LRB-", "PRP$", ",", ".", "``", "HYPH"]),
    st.text(st.characters(categories=("L", "N"), exclude_characters="/"), min_size=1, max_size=5),
).filter(lambda tag: tag != "_")


@st.composite
def tagged_sentences(draw: st.DrawFn, tagged: bool = True) -> TaggedSentence:
    """A non-empty sentence with (or without) one tag per word."""
    sentence_words = tuple(draw(st.lists(format_words, min_size=1, max_size=12)))
    if not tagged:
        return TaggedSentence(sentence_words, None)
    tags = tuple(draw(st.lists(format_tags, min_size=len(sentence_words), max_size=len(sentence_words))))
    return TaggedSentence(sentence_words, tags)
