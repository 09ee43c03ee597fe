"""Trees to and from ``nltk.Tree``, for work that moves between glmnlp and NLTK.

:func:`tree_from_nltk` takes what NLTK holds as a tree only where a tree of glmnlp's could hold it, and refuses the
rest as :func:`~glmnlp.treebank.trees.parse_tree` refuses its brackets (a :class:`~glmnlp.errors.TreeSyntaxError`
naming the node): NLTK's own reader takes ``(S (NP (DT the) (NN dog)) barked)``, and ``nltk.Tree("S", words)`` is a
common idiom, but a glmnlp tree has no word beside subtrees; those words were dropped without a word (the leaves
of the first were ``the dog``, of the second none, so a ``Sentence`` of it "needs at least one token"). Also
refused: a node with no children or several words, an empty word or one with whitespace, a label with whitespace
or none, an unlabelled node below the root (the root may be unlabelled, as in a treebank file's ``( (S ...) )``),
and a tree deeper than :data:`~glmnlp.treebank.trees.MAX_DEPTH`, which the reader refuses too (comparing two such
trees exhausted Python's recursion). Words and labels are kept verbatim (``(`` stays ``(``: the writers spell it
``-LRB-``): the conversion is exact both ways, a sentence's ``to_nltk().leaves()`` are its words, as NLTK's own
tokenizers and taggers keep ``(``; ``nltk.Tree.pformat`` writes such a word as it is, which ``Tree.fromstring``
cannot read, so a string for NLTK's reader is :func:`~glmnlp.treebank.trees.to_bracket`'s (docs/api.md).
"""

from __future__ import annotations

from typing import Any

from glmnlp.errors import NLTK_MISSING, MissingPackageError, TreeSyntaxError
from glmnlp.treebank.trees import MAX_DEPTH, Tree, not_a_tree

__all__ = ["tree_from_nltk", "tree_to_nltk"]

_SOURCE = "<nltk.Tree>"


def _import_nltk() -> Any:
    try:
        import nltk
    except ImportError:
        raise MissingPackageError(NLTK_MISSING.format(what="converting to nltk.Tree")) from None
    return nltk


def tree_to_nltk(tree: Tree) -> Any:
    """Convert a :class:`~glmnlp.treebank.trees.Tree` to an ``nltk.Tree`` (slash labels print as ``A/B``)."""
    if not isinstance(tree, Tree):
        raise TypeError(not_a_tree(tree))
    nltk = _import_nltk()

    def convert(node: Tree) -> Any:
        children = [c if isinstance(c, str) else convert(c) for c in node.children]
        return nltk.Tree(node.display_label, children)

    return convert(tree)


def tree_from_nltk(tree: Any) -> Tree:
    """Convert an ``nltk.Tree`` back to a :class:`~glmnlp.treebank.trees.Tree` (labels kept verbatim).

    A ``(word, tag)`` leaf, as nltk's chunkers and ``ne_chunk`` write tagged words, becomes the preterminal
    ``(tag word)`` (it was an ``AttributeError``); any other leaf that is not a str is a ``TypeError``, and a shape
    that a glmnlp tree cannot hold a :class:`~glmnlp.errors.TreeSyntaxError` naming the node (module docstring)."""
    nltk = _import_nltk()
    if not isinstance(tree, nltk.Tree):
        raise TypeError(f"expected nltk.Tree, got {type(tree).__name__}")

    def word(value: str, label: str) -> str:
        if not value or any(ch.isspace() for ch in value):
            raise TreeSyntaxError(f"node {label!r} has the word {value!r}: a word is not empty and has no whitespace",
                                  source=_SOURCE)
        return value

    def checked(label: Any, depth: int) -> str:
        if isinstance(label, nltk.grammar.Nonterminal) and isinstance(label.symbol(), str):
            label = label.symbol()  # a CFG parser's trees (ChartParser) are labelled by nonterminals
        if not isinstance(label, str):
            raise TreeSyntaxError(f"a node's label is a string, got a {type(label).__name__} ({label!r})",
                                  source=_SOURCE)
        if any(ch.isspace() for ch in label) or not (label or depth == 1):
            raise TreeSyntaxError(f"a node's label is a non-empty string without whitespace (the root's may be "
                                  f"empty), got {label!r}", source=_SOURCE)
        return label

    def child(c: Any, label: str, depth: int) -> Tree | str:
        if isinstance(c, str):
            return word(c, label)
        if isinstance(c, nltk.Tree):
            return convert(c, depth + 1)
        if isinstance(c, tuple) and len(c) == 2 and all(isinstance(x, str) for x in c):
            tag = checked(c[1], depth + 1)
            return Tree(tag, (word(c[0], tag),))
        raise TypeError(f"an nltk.Tree leaf is a str or a (word, tag) pair, got {c!r}")

    def convert(node: Any, depth: int) -> Tree:
        if depth > MAX_DEPTH:
            raise TreeSyntaxError(f"nested more than {MAX_DEPTH} deep (a treebank's are a few dozen levels)",
                                  source=_SOURCE)
        label = checked(node.label(), depth)
        children = tuple(child(c, label, depth) for c in node)
        words = sum(isinstance(c, str) for c in children)
        if words and not label:  # ( dog): the reader refuses a word under an unlabelled bracket
            first = next(c for c in children if isinstance(c, str))
            raise TreeSyntaxError(f"the unlabelled root has the word {first!r}: a word's node has a label",
                                  source=_SOURCE)
        if not children or (words and len(children) > 1):
            what = "no children" if not children else "several words" if words == len(children) else (
                f"a word beside subtrees ({next(c for c in children if isinstance(c, str))!r})")
            raise TreeSyntaxError(f"node {label!r} has {what}: a node holds one word or subtrees", source=_SOURCE)
        return Tree(label, children)

    return convert(tree, 1)
