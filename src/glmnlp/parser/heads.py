"""Lexical heads on partial and complete trees for the parser's CL, CC and CCP features (C&R 2004 §3.2).

Our choice: the **incremental heuristic of Roark's parser** (``best_hcat()``/``get_hnode()``), not a
Collins (1999) head table. Reasons: it is what the feature values of the C&R/Roark feature set were
computed with; it needs no per-label table (so it also covers the slash categories of the FSLC
transform); and it is decided left to right, so the head of an *open* constituent is defined at every
step and can be updated in O(1) per child inside the beam (``_beam.pyx``, ``BeamParser.incorporate``).

The rule, for a node with label P and (completed) children c_1..c_m, END excluded:

1. Punctuation children are ignored (a POS tag is punctuation when > 90% of its training tokens have
   no letter, digit, ``'``, ``#`` or ``$``; :func:`glmnlp.parser.model.punctuation_tags`).
2. If some non-POS child is immediately preceded (punctuation skipped) by a POS child, take the
   leftmost such child c_j; the head is the nearest POS child left of c_j whose tag starts with P's
   first letter (VBD in a VP, NN in an NP), else the nearest POS child left of c_j. Once this
   happens the head is *decided* and later children cannot change it.
3. Otherwise the head is the rightmost non-punctuation child (for an open constituent: the most
   recent one, so "head so far" follows the latest child until the head is decided).
4. If every child is punctuation, the first child is the head (our choice; the kernel keeps the first head
   it saw); a node with no completed child has no head (NULL).

The lexical head of a node is found by following head children down to a POS and taking its word.
The c-commanding head of a node (CC, CCP) is the lexical head of its left sibling when it has one,
else its parent's c-commanding head (as ``fill_ccnodes()`` in Roark's parser).

This module is the plain-Python reference of the rule; the kernel must agree with it (tested on the
bundled treebank sample in ``tests/test_heads.py``).
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from glmnlp.treebank.trees import Tree

__all__ = ["head_index", "lexical_heads"]


def head_index(label: str, children: Sequence[str], pos: Sequence[bool], punct: Sequence[bool]) -> int | None:
    """Index of the head child of ``label`` over the child labels so far (None if no children).

    ``pos[i]``/``punct[i]`` say whether child i is a POS tag / a punctuation tag. Works on partial
    child lists (the head so far) as well as complete ones.
    """
    if not children:
        return None
    kept = [i for i in range(len(children)) if not punct[i]]
    if not kept:
        return 0
    for j in range(1, len(kept)):
        here, before = kept[j], kept[j - 1]
        if not pos[here] and pos[before]:
            left_pos = [i for i in reversed(kept[:j]) if pos[i]]
            for i in left_pos:
                if children[i][:1] == label[:1]:
                    return i
            return left_pos[0]
    return kept[-1]


def lexical_heads(tree: Tree, punct_tags: Collection[str]) -> list[tuple[str, str]]:
    """``(display label, head word)`` of every non-POS node of ``tree``, in post-order (closing order)."""
    out: list[tuple[str, str]] = []

    def walk(node: Tree) -> str:
        if node.is_preterminal:
            return node.children[0]  # type: ignore[return-value]
        kids = [c for c in node.children if isinstance(c, Tree)]
        words = [walk(c) for c in kids]
        labels = [c.label for c in kids]
        pos = [c.is_preterminal and c.slash is None for c in kids]
        punct = [p and c.label in punct_tags for p, c in zip(pos, kids)]
        h = head_index(node.label, labels, pos, punct)
        word = words[h] if h is not None else ""
        out.append((node.display_label, word))
        return word

    walk(tree)
    return out
