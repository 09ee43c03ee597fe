"""The flattened selective left-corner transform (FSLC) and its exact inverse.

Collins & Roark (2004, section 3.1) read the parser's grammar (left-child chains and triples)
off trees transformed with the selective left-corner transform of Johnson & Roark (2000) in the
flattened form of Roark (2001). Left recursion makes left-child chains unbounded
(NP -> NP PP -> NP PP PP ...); the transform turns every left spine of selected productions into a
flat node, so the first word of an NP with any number of PPs has one short chain. Parser output is
de-transformed before evaluation. The definition below is that of Roark's released parser (its
``lc_transform()`` and ``lc_detransform()``); this module reproduces that code's output on worked
examples exactly (tests/test_transform.py).

The transform, for a selected set P of (parent, left-child) category pairs::

    (A_0 (A_1 ... (A_m alpha) beta_m ...) beta_1)   with every (A_{r-1}, A_r) in P
    ->  (A_m alpha (A_{m-1}/A_m beta_m) ... (A_0/A_1 beta_1))

A slash category ``A/B`` is ``Tree("A", ..., slash="B")``: an ``A`` whose left corner ``B`` has
already been built. It is a structured field, never a delimiter inside the label string. Slash
nodes only ever appear as the final children of a flattened node, so the inverse is local: for a
node with children ``c_1..c_m, S_1..S_r`` (the ``S_i`` slash nodes), start from
``cur = (label c_1..c_m)`` and fold ``cur = (X cur beta)`` for each ``S_i = X/Y`` in order,
checking ``Y == label(cur)``.

Choices (the definition is that of Roark's released parser; the points below are ours):

* **Unary self-loops are collapsed first.** ``(A (A ...))`` becomes ``(A ...)`` everywhere, bottom
  up, before the transform (:func:`collapse_unary_loops`). It is the transform's one documented
  loss: ``fslc_detransform(fslc_transform(t)) == collapse_unary_loops(t)`` for every tree ``t``.
  A unary ``A -> B`` with ``A != B`` is never transformed (its slash node would be empty).
* **Only phrasal left children are flattened.** A production whose left child is a preterminal
  (a POS node) is left alone even if the pair is selected: flattening would put a word beside
  subtrees. Treebank POS tags and phrase labels are disjoint, so this never fires on real data.
* **Selection looks at the left child after its own transform.** The transform runs bottom up and
  tests ``(label(N), label(T(c_1)))``. For pure left recursion (all pairs ``(A, A)``) labels never
  change, so this is the same as following the left spine top down. With extra pairs it matters: ``S ->
  SINV ...`` where the SINV becomes an ``S`` after its own (SINV, S) flattening is then flattened
  too (into ``S ... (SINV/S ...) (S/SINV ...)``), so the transformed tree never contains a selected
  pair as parent and phrasal left child (:func:`selected_left_recursions` is empty), but for one case: a rewrite
  repeated through a unary left child whose rest would begin with a slash category, which no chain can hold, is
  not made (``(S (S (SINV (S ..) ..)) ..)``; no such tree in the PTB sample or GUM). (With extra
  pairs the flattening can leave a new unary ``B -> B`` above a flattened node, e.g. ``(B (A (B x
  y) z))`` with (A, B) selected; it is kept, and the inverse restores the original.)
* **Default configuration: left recursion plus (SINV, S)** (``FslcConfig()``), i.e. Roark's
  standard model (``tdptrain -p -s "(SINV(S"``), chosen by measurement. On the bundled sample
  (``glmnlp grammar table1``, train wsj_0001-0159, held-out wsj_0160-0179, filter "seen more than
  once") left recursion alone gives 501 distinct long training chains (299 after the filter),
  a held-out chain OOV rate of 3.48 per 1000 words and 87.9% of held-out sentences fully
  derivable; adding (SINV, S) gives 489 (291), 3.32 per 1000 and 88.3%, and makes no figure
  worse. ``FslcConfig(extra_pairs=())`` is the paper's "left-recursive productions only".
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from glmnlp.errors import ConfigError, GlmnlpError
from glmnlp.treebank.trees import Tree

__all__ = [
    "FslcConfig",
    "TransformError",
    "collapse_unary_loops",
    "fslc_detransform",
    "fslc_transform",
    "selected_left_recursions",
]


class TransformError(GlmnlpError):
    """A tree that cannot be transformed or de-transformed (misplaced or mismatched slash node)."""


@dataclass(frozen=True)
class FslcConfig:
    """Which (parent, left-child) pairs the FSLC transform flattens.

    ``left_recursion`` selects every pair ``(A, A)`` (C&R 2004: "only applied to left-recursive
    productions"); ``extra_pairs`` adds further pairs by label. The default adds (SINV, S), as in
    Roark's standard model (``tdptrain -s "(SINV(S"``): measured best for Table 1 (module docstring).
    """

    left_recursion: bool = True
    extra_pairs: tuple[tuple[str, str], ...] = (("SINV", "S"),)

    def __post_init__(self) -> None:
        for pair in self.extra_pairs:  # a label no tree holds would flatten nothing, silently
            if len(pair) != 2 or not all(isinstance(x, str) and x and not any(c.isspace() for c in x) for x in pair):
                raise ConfigError(f"an FSLC pair is two labels without spaces (PARENT CHILD), got {pair!r}")

    def selects(self, parent: str, left_child: str) -> bool:
        """True when a production ``parent -> left_child ...`` is flattened."""
        if self.left_recursion and parent == left_child:
            return True
        return (parent, left_child) in self.extra_pairs

    def to_json(self) -> dict[str, object]:
        """A JSON-ready dict (for model headers)."""
        return {
            "left_recursion": self.left_recursion,
            "extra_pairs": [list(p) for p in self.extra_pairs],
        }

    @classmethod
    def from_json(cls, data: dict[str, object]) -> FslcConfig:
        """Inverse of :meth:`to_json`."""
        pairs = data.get("extra_pairs", [])
        if not isinstance(pairs, list) or not all(
            isinstance(p, list) and len(p) == 2 and all(isinstance(x, str) for x in p) for p in pairs
        ):
            raise GlmnlpError(f"bad FSLC extra_pairs {pairs!r}: expected a list of [parent, child]")
        return cls(bool(data.get("left_recursion", True)), tuple((p[0], p[1]) for p in pairs))


def collapse_unary_loops(tree: Tree) -> Tree:
    """``tree`` with every unary self-loop ``(A (A ...))`` reduced to ``(A ...)`` (bottom up)."""
    if tree.is_preterminal:
        return tree
    children = tuple(c if isinstance(c, str) else collapse_unary_loops(c) for c in tree.children)
    if len(children) == 1:
        only = children[0]
        if isinstance(only, Tree) and only.label == tree.label and only.slash == tree.slash:
            return only
    if all(a is b for a, b in zip(children, tree.children)):
        return tree
    return Tree(tree.label, children, tree.slash)


def fslc_transform(tree: Tree, config: FslcConfig = FslcConfig()) -> Tree:
    """The FSLC-transformed ``tree``; unary self-loops are collapsed first.

    Raises :class:`TransformError` if ``tree`` already contains slash categories.
    """
    return _transform(collapse_unary_loops(tree), config)


def _transform(node: Tree, config: FslcConfig) -> Tree:
    if node.slash is not None:
        raise TransformError(f"cannot transform a tree that already has slash category {node.display_label!r}")
    if node.is_preterminal:
        return node
    children = [c if isinstance(c, str) else _transform(c, config) for c in node.children]
    original = node.children[0]
    return _flatten(Tree(node.label, tuple(children)), config, None if isinstance(original, str) else original.label)


def _flatten(node: Tree, config: FslcConfig, original_first: str | None) -> Tree:
    """Rewrite ``node`` (children already transformed) while its production is a selected one.

    The rewritten node takes its left child's label and children; when that left child was a unary
    node (never rewritten itself), the new production can be selected again, e.g. C -> B(unary) A
    with (C, B) and (B, A) selected gives B -> A C/B, itself (B, A): so the rewrite repeats.
    The slash names the left child as it was before its own transform (``original_first`` on the
    first rewrite; a repeated rewrite's left child was not transformed further).
    """
    children = node.children
    first = children[0]
    while (
        len(children) >= 2
        and isinstance(first, Tree)
        and not first.is_preterminal
        and first.slash is None
        and config.selects(node.label, first.label)
        # a repeated rewrite whose rest would begin with a slash category (its left child was unary over a node
        # an extra pair had flattened: an SINV become S) made a first child that is a slash category, which no
        # chain may hold, and a slash that named the new label: training failed, naming a broken grammar
        and not (original_first is None and isinstance(children[1], Tree) and children[1].slash is not None)
    ):
        rest = Tree(node.label, tuple(children[1:]), slash=original_first or first.label)
        node = Tree(first.label, first.children + (rest,))
        children = node.children
        first = children[0]
        original_first = None
    return node


def fslc_detransform(tree: Tree) -> Tree:
    """The inverse of :func:`fslc_transform`: every slash node folded back.

    Raises :class:`TransformError` for a slash node that is not among the final children of its
    parent, a node made only of slash children, a slash ``X/Y`` whose ``Y`` does not match the
    constituent it completes, or a slash category at the root.
    """
    if tree.slash is not None:
        raise TransformError(f"slash category {tree.display_label!r} at the root of a tree")
    return _detransform(tree)


def _detransform(node: Tree) -> Tree:
    if node.is_preterminal:
        return node
    children = node.children
    k = len(children)
    while k > 0 and isinstance(children[k - 1], Tree) and children[k - 1].slash is not None:  # type: ignore[union-attr]
        k -= 1
    if k == 0:
        raise TransformError(f"node {node.display_label!r} has only slash children")
    head: list[Tree | str] = []
    for child in children[:k]:
        if isinstance(child, Tree):
            if child.slash is not None:
                raise TransformError(
                    f"slash node {child.display_label!r} is not among the final children of {node.display_label!r}"
                )
            head.append(_detransform(child))
        else:
            head.append(child)
    cur = Tree(node.label, tuple(head), node.slash)
    for s in children[k:]:
        assert isinstance(s, Tree) and s.slash is not None
        if s.slash != cur.label:
            raise TransformError(
                f"slash node {s.display_label!r} follows a {cur.label!r} constituent; expected {s.label}/{cur.label}"
            )
        # s's own trailing slash children (a repeated rewrite, see _flatten) fold onto the new node
        cur = _detransform(Tree(s.label, (cur,) + s.children))
    return cur


def selected_left_recursions(tree: Tree, config: FslcConfig = FslcConfig()) -> Iterator[tuple[str, str]]:
    """Every (parent, left-child) label pair of ``tree`` that ``config`` selects and the transform flattens.

    Only unslashed parents with at least two children and a phrasal left child count (the
    productions :func:`fslc_transform` rewrites). Empty for every transformed tree.
    """
    for node in tree.subtrees():
        if node.is_preterminal or node.slash is not None or len(node.children) < 2:
            continue
        first = node.children[0]
        if not isinstance(first, Tree) or first.is_preterminal or first.slash is not None:
            continue
        if config.selects(node.label, first.label):
            yield (node.label, first.label)
