"""A few German-like sentences whose brackets STTS tags ``$(`` (``$-LRB-`` in bracketed trees), and their trees:
shared by the tests of the tagset's spelling (tests/test_tag_spelling.py, tests/test_measures_given_tags.py)."""

from __future__ import annotations

#: (words, tags), each space-separated
SENTENCES = [("Er sagte ( nichts ) .", "PPER VVFIN $( NN $( $."), ("Sie kam ( spät ) .", "PPER VVFIN $( ADJD $( $."),
             ("Er kam .", "PPER VVFIN $.")]


def stts_trees() -> str:
    """:data:`SENTENCES` as bracketed trees, one a line, brackets written ``-LRB-``/``-RRB-``."""
    def esc(text: str) -> str:
        return text.replace("(", "-LRB-").replace(")", "-RRB-")

    trees = ""
    for words, tags in SENTENCES:
        pairs = [f"({esc(t)} {esc(w)})" for w, t in zip(words.split(), tags.split())]
        trees += f"(TOP (S (NP {pairs[0]}) (VP {' '.join(pairs[1:-1])}) {pairs[-1]}))\n"
    return trees
