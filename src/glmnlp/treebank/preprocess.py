"""Standard treebank preprocessing for parsing: empty elements, function tags, a unary ``TOP`` root.

Collins & Roark (2004) train and evaluate on Penn Treebank trees prepared the way Roark's parser
prepares them (its released code, ``roarkbr/incremental-top-down-parser`` on GitHub): empty nodes
and function tags removed and the root normalised to a unary ``TOP``. The parser's grammar (chains
and triples, C&R 2004 §3.1) is read off these cleaned trees, and EVALB compares cleaned gold trees
with parser output, so the cleaning must be exact and reproducible.

:func:`clean_tree` does exactly the following, and nothing more:

1. **Empty elements.** Every preterminal labelled ``-NONE-`` (traces ``*T*-1``, null complementisers
   ``0``, ``*U*``, ``*PRO*``-style ``*``, ``*EXP*``, ``*ICH*``, ``*RNR*``, ``*?*``, ...) is removed.
   A constituent whose children all disappear is removed too, recursively (``(NP-SBJ (-NONE- *))``
   vanishes; so does ``(SBAR (-NONE- 0) (S (-NONE- *T*-1)))``). A ``-NONE-`` over a phrase is a malformed
   tree and an error (kept, it gave a tree the parser refuses).
2. **Function tags and co-indices.** A phrase label keeps only its category: everything from
   the first ``-`` or ``=`` after the first character is dropped (``NP-SBJ-1`` -> ``NP``,
   ``PP-LOC=2`` -> ``PP``, ``NP-SBJ=1-3`` -> ``NP``, ``ADVP-LOC-PRD-TPC-1`` -> ``ADVP``).
   Bracket-like labels spelled entirely between dashes (``-NONE-``, ``-LRB-``, ``-RRB-``,
   ``-LCB-``, ``-RCB-``) are kept intact. **A POS label is kept whole** (our choice): the Penn
   Treebank's tags carry no function tags or indices (neither the sample nor GUM has a tag with ``-``
   or ``=`` inside), while other tagsets spell tags with them (STTS ``$(`` written ``$-LRB-``,
   ``V-FIN`` and ``V-INF``): cutting them merged distinct tags without a word (both became ``V``).
3. **Alternative labels** (our choice). An annotator's disjunction ``A|B``, of a phrase or a POS (the sample has one:
   ``ADVP|PRT`` in wsj_0118) resolves to its *first* alternative, ``A``. This is the deterministic,
   order-preserving choice; the dev/test gold files contain no disjunction, so they do not decide
   it, and EVALB's COLLINS.prm treats ADVP and PRT as equal anyway.
4. **Root.** The ``.mrg`` wrapper bracket ``( (S ...) )`` (read with the empty label ``""``) is
   relabelled ``TOP``, and so is a ``ROOT`` root over one phrase (alone or in the wrapper), the same bracket's
   name in Stanford-style treebanks and GUM (wrapped as ``(TOP (ROOT ...))``, every parse got a spurious ``ROOT``
   bracket that EVALB counted against it: dev F1 47.90 against 52.04 on 300 GUM trees); a tree already rooted in
   ``TOP`` keeps its root; any other root ``X`` (a ``ROOT`` over several phrases too) is wrapped as ``(TOP X)``.
   The result always has a unary ``TOP`` root (``TOP`` is the start symbol S† of C&R 2004 §3.1).

Deliberately *not* done (the reference gold files ``tests/data/evalb/sample_{dev,test}.gold`` keep
them, and :func:`clean_tree` must reproduce those files byte for byte): unary chains of the same
label left behind by step 1 (``(NP (NP (NNS investors)))`` stays as it is; the unary collapse of
:mod:`glmnlp.parser.transform` belongs to the FSLC transform, not here), the punctuation raising and
quote removal of Roark's released parser (the paper does not say whether C&R 2004 used them), and any
change to words (``Conn.based``, ``-LRB-`` tokens stay verbatim).

Bad input is never repaired: a root bracket with several children, a ``TOP`` root over a bare word, a
label with no category (``|PRT``: nothing before the ``|``), a label the parser keeps for itself below
the root (:data:`RESERVED_LABELS`: ``TOP``, other than a unary ``(TOP (TOP ...))`` root, ``<END>``,
``<NULL>``), or a tree that is empty once its empty elements are gone, raises
:class:`~glmnlp.errors.InputError`. Each would otherwise give a tree that
the parser cannot use or that does not read back once written (an empty label inside a tree). So does a tree
nested too deep to be walked by recursion (a thousand levels and more: only a tree built in Python, since the reader
refuses one deeper than :data:`~glmnlp.treebank.trees.MAX_DEPTH`), which was a RecursionError; the writers refuse
one alike (``ValueError``).
"""

from __future__ import annotations

from glmnlp.errors import InputError
from glmnlp.treebank.trees import MAX_DEPTH, Tree, not_a_tree

__all__ = ["END_LABEL", "NONE_TAG", "NULL_LABEL", "RESERVED_LABELS", "TOP", "clean_label", "clean_tree", "strip_empty",
           "tagged_words"]

NONE_TAG = "-NONE-"
TOP = "TOP"
ROOT = "ROOT"  # the root bracket's name in Stanford-style treebanks and GUM: relabelled TOP (module docstring, 4)
#: The parser's markers for a closed constituent's end and for an absent context (:mod:`glmnlp.parser.grammar`).
END_LABEL = "<END>"
NULL_LABEL = "<NULL>"
#: Labels no node below a cleaned tree's root carries: the parser keeps them for its root and its markers.
RESERVED_LABELS = (TOP, END_LABEL, NULL_LABEL)


def clean_label(label: str, pos: bool = False) -> str:
    """The bare category of a treebank label (rules 2 and 3 of the module docstring); of a POS label (``pos``), its
    first alternative only."""
    if len(label) > 2 and label[0] == "-" and label[-1] == "-" and label[1:-1].isalpha():
        return label  # -NONE-, -LRB-, -RRB-, -LCB-, -RCB-
    label = label.split("|", 1)[0]
    if pos:
        return label
    for i in range(1, len(label)):
        if label[i] in "-=":
            return label[:i]
    return label


def strip_empty(tree: Tree) -> Tree | None:
    """``tree`` without ``-NONE-`` preterminals and the constituents they leave empty (labels kept).

    Returns ``None`` when nothing is left.
    """
    if tree.is_preterminal:
        return None if tree.label == NONE_TAG else tree
    kept: list[Tree | str] = []
    changed = False
    for child in tree.children:
        if isinstance(child, str):  # not produced by the reader; kept for hand-built trees
            kept.append(child)
            continue
        new = strip_empty(child)
        if new is not child:
            changed = True
        if new is not None:
            kept.append(new)
    if not kept:
        return None
    return Tree(tree.label, tuple(kept), tree.slash) if changed else tree


def _clean(tree: Tree) -> Tree | None:
    """Steps 1-3 in one pass; an unchanged subtree is returned as is (no copy)."""
    label = clean_label(tree.label, pos=tree.is_preterminal)
    if not label:
        raise InputError(f"label {tree.label!r} has no category (nothing before '|')")
    if tree.is_preterminal:
        if tree.label == NONE_TAG:
            return None
        return tree if label == tree.label else Tree(label, tree.children, tree.slash)
    if tree.label == NONE_TAG:  # an empty element is over a trace word; over a phrase the tree is malformed
        raise InputError(f"{NONE_TAG} is over a phrase, not over a trace word")
    kept: list[Tree | str] = []
    changed = label != tree.label
    for child in tree.children:
        new = child if isinstance(child, str) else _clean(child)
        if new is not child:
            changed = True
        if new is not None:
            kept.append(new)
    if not kept:
        return None
    return Tree(label, tuple(kept), tree.slash) if changed else tree


def _one_phrase(body: list[Tree | str]) -> bool:
    """Whether cleaned children ``body`` are one phrase, as under a root bracket: a ``ROOT`` over several phrases (or
    a word) is a phrase of its own, put under ``TOP`` as any other root (it was refused once relabelled)."""
    return len(body) == 1 and isinstance(body[0], Tree)


def clean_tree(tree: Tree) -> Tree:
    """The parsing-ready version of a treebank tree: no empty elements or function tags, unary TOP root.

    See the module docstring for the exact rules. Raises :class:`InputError` if the root bracket has
    several children or is ``TOP`` over a word, if a label has no category, if nothing but empty
    elements is left, or if the tree is nested too deep to be walked (module docstring).
    """
    if not isinstance(tree, Tree):  # an nltk.Tree was an AttributeError
        raise TypeError(not_a_tree(tree))
    try:
        return _clean_root(tree)
    except RecursionError:  # 2,000 levels deep: it was a RecursionError from inside
        raise InputError(f"the tree is nested too deep to be cleaned (the tree reader takes {MAX_DEPTH} "
                         "levels)") from None


def _clean_root(tree: Tree) -> Tree:
    """:func:`clean_tree` of a Tree."""
    root = tree.label or "( ... )"
    cleaned_children = (child if isinstance(child, str) else _clean(child) for child in tree.children)
    body = [child for child in cleaned_children if child is not None] if tree.label in ("", TOP, ROOT) else []
    inner = body[0] if len(body) == 1 else None
    if tree.label == "" and isinstance(inner, Tree) and inner.label == ROOT and _one_phrase(list(inner.children)):
        body = list(inner.children)  # ( (ROOT (S ...)) ): the wrapper over ROOT, one root (its children cleaned)
    if tree.label in ("", TOP) or (tree.label == ROOT and _one_phrase(body)):
        if not body:
            raise InputError(f"tree {root!r} contains only empty (-NONE-) elements")
        if len(body) != 1:
            raise InputError(f"root bracket {root!r} has {len(body)} children; expected exactly one")
        if isinstance(body[0], str):
            raise InputError(f"root bracket {root!r} is over the word {body[0]!r}, not over a phrase")
        return _no_reserved_label(Tree(TOP, (body[0],)))
    cleaned = _clean(tree)
    if cleaned is None:
        raise InputError(f"tree {root!r} contains only empty (-NONE-) elements")
    return _no_reserved_label(Tree(TOP, (cleaned,)))


def _no_reserved_label(tree: Tree) -> Tree:
    """``tree`` (a unary ``TOP`` root), or InputError for a :data:`RESERVED_LABELS` label below its root: the
    parser would refuse the tree (``(TOP (TOP ...))`` is one root to it, as its unary loops are collapsed)."""
    body = tree.children[0]
    assert isinstance(body, Tree)  # clean_tree refused a root over a word
    while body.label == TOP and len(body.children) == 1 and isinstance(body.children[0], Tree):
        body = body.children[0]
    for node in body.subtrees():
        if node.label in RESERVED_LABELS:
            raise InputError(f"label {node.label!r} below the root: the parser keeps it for its root or its markers")
    return tree


def tagged_words(tree: Tree) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """Words and POS tags of ``tree``, left to right, with ``-NONE-`` leaves left out."""
    pairs = [(word, tag) for word, tag in tree.pos() if tag != NONE_TAG]
    return tuple(w for w, _ in pairs), tuple(t for _, t in pairs)
