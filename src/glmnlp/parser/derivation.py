"""The gold derivation oracle: a transformed tree as the parser's sequence of incremental steps.

The incremental parser of Collins & Roark (2004, section 3.1) absorbs one word per step:
it attaches an allowable chain ``Z -> ... -> POS -> w`` under an open node X of the partial tree's
right frontier, first closing (appending END to) every open node below X. A full parse is thus a
sequence of :class:`Step` records, one per word. Training needs the gold sequence: early update
compares the beam against the gold prefix after each word, and the perceptron update needs
Phi(gold) (C&R 2004 §2.2, §4.2).

* :func:`derive` turns an FSLC-transformed gold tree into its steps (a deterministic tree walk);
* :func:`replay` rebuilds the transformed tree from the words and steps (the exact inverse);
* :func:`check_derivation` checks a derivation against a :class:`~glmnlp.parser.grammar.Grammar` and
  raises :class:`DerivationError` naming the word and the missing chain or triple.

The frontier semantics (the contract shared with :mod:`glmnlp.parser.model`):

1. the right frontier is the list of open non-POS nodes from TOP (index 0) downwards;
2. step ``(site, chain)`` for a word after the first closes every open node strictly below
   ``frontier[site]`` deepest first (triple ``(Y, lastchild(Y), END)`` each), appends ``chain[0]``
   as a new child of ``X = frontier[site]`` (triple ``(X, lastchild(X), chain[0])``) and makes the
   frontier ``frontier[:site+1] + chain[:-1]``; the POS node is complete at once;
3. the first word's step has ``site == -1`` and a chain starting with TOP; the frontier becomes
   ``chain[:-1]``;
4. after the last word every open node is closed, deepest first, up to and including TOP.

The site is therefore the depth (root = 0) of the attachment node in the final tree.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from glmnlp.errors import GlmnlpError
from glmnlp.parser.grammar import END, TOP, Grammar, GrammarError, step_needs, tree_chains
from glmnlp.treebank.trees import Tree

__all__ = ["DerivationError", "Step", "check_derivation", "default_tree", "derive", "replay"]


class DerivationError(GlmnlpError):
    """An illegal or malformed derivation; the message names the word and what is missing."""

    def __init__(
        self,
        reason: str,
        *,
        word_index: int | None = None,
        chain: tuple[int, ...] | None = None,
        triple: tuple[int, int, int] | None = None,
    ) -> None:
        self.reason = reason
        self.word_index = word_index
        self.chain = chain
        self.triple = triple
        super().__init__(reason)


@dataclass(frozen=True)
class Step:
    """How one word is absorbed: the frontier ``site`` (0 = TOP; -1 for the first word) and the chain."""

    site: int
    chain: tuple[int, ...]  # category ids, top -> POS


def derive(transformed_tree: Tree, grammar: Grammar) -> list[Step]:
    """The gold steps of an FSLC-transformed tree (root ``TOP``), one per word.

    Only maps categories to ids; legality is :func:`check_derivation`'s job. Raises
    :class:`GrammarError` if the tree uses a category the grammar does not know.
    """
    return [
        Step(site, tuple(grammar.category_id(label, slash) for label, slash in chain))
        for site, chain in tree_chains(transformed_tree)
    ]


def replay(words: Sequence[str], steps: Sequence[Step], grammar: Grammar) -> Tree:
    """The transformed tree built by applying ``steps`` to ``words`` (the inverse of :func:`derive`).

    Checks structure only (sites on the frontier, chains starting with TOP for the first word),
    not chains or triples against the grammar; see :func:`check_derivation`.
    """
    if len(words) != len(steps):
        raise DerivationError(f"{len(words)} words but {len(steps)} steps")
    if not words:
        raise DerivationError("empty derivation")
    ncat = len(grammar.categories)
    # mutable nodes: [category id, children list]
    root: list | None = None
    frontier: list[list] = []
    for i, (word, step) in enumerate(zip(words, steps)):
        chain = step.chain
        where = f"word {i + 1} ({word!r})"
        if not chain or any(not 0 <= c < ncat or c in (0, END) for c in chain):
            raise DerivationError(f"{where}: bad chain {chain!r}", word_index=i, chain=chain)
        nodes: list[list[Any]] = [[c, []] for c in chain]
        for parent, child in zip(nodes, nodes[1:]):
            parent[1].append(child)
        nodes[-1][1].append(word)
        if i == 0:
            if step.site != -1:
                raise DerivationError(f"{where}: the first step's site must be -1, got {step.site}", word_index=i)
            if chain[0] != TOP or len(chain) < 2:
                raise DerivationError(
                    f"{where}: the first chain must start with TOP above a POS, got {grammar.chain_names(chain)}",
                    word_index=i,
                    chain=chain,
                )
            root = nodes[0]
            frontier = nodes[:-1]
        else:
            if not 0 <= step.site < len(frontier):
                raise DerivationError(
                    f"{where}: site {step.site} is not on the right frontier (0..{len(frontier) - 1})",
                    word_index=i,
                )
            if TOP in chain:
                raise DerivationError(f"{where}: only the first chain may contain TOP", word_index=i, chain=chain)
            del frontier[step.site + 1 :]
            frontier[-1][1].append(nodes[0])
            frontier.extend(nodes[:-1])
    assert root is not None
    return _freeze(root, grammar)


def _freeze(node: list, grammar: Grammar) -> Tree:
    label, slash = grammar.categories[node[0]]
    children = tuple(c if isinstance(c, str) else _freeze(c, grammar) for c in node[1])
    return Tree(label, children, slash)


def check_derivation(
    steps: Sequence[Step], tags: Sequence[str], grammar: Grammar, words: Sequence[str] | None = None
) -> None:
    """Raise :class:`DerivationError` unless every chain and triple of the derivation is allowable.

    ``tags`` are the words' POS tags (the chains are looked up by tag, C&R 2004 §3.1); ``words``, if
    given, only improve the messages. Checks, in parser order: the chain of each word, the closing
    triples and the attachment triple before it, and the closings after the last word.
    """
    if len(steps) != len(tags):
        raise DerivationError(f"{len(tags)} tags but {len(steps)} steps")
    if not steps:
        raise DerivationError("empty derivation")

    def where(i: int) -> str:
        word = f"{words[i]!r}, " if words is not None and i < len(words) else ""
        return f"word {i + 1} of {len(steps)} ({word}tag {tags[i]})"

    try:
        per_word, final = step_needs([(s.site, s.chain) for s in steps], END)
    except GrammarError as exc:
        raise DerivationError(str(exc)) from None
    for i, (step, tag, needs) in enumerate(zip(steps, tags, per_word)):
        first = i == 0
        if first and step.chain[0] != TOP:
            raise DerivationError(
                f"{where(i)}: the first chain must start with TOP, got {grammar.chain_names(step.chain)}",
                word_index=i,
                chain=step.chain,
            )
        if not grammar.has_chain(tag, step.chain, first=first):
            kind = "first-word chain" if first else "chain"
            raise DerivationError(
                f"{where(i)}: {kind} {grammar.chain_names(step.chain)} is not allowed for tag {tag}",
                word_index=i,
                chain=step.chain,
            )
        for triple in needs:
            if not grammar.allows(*triple):
                raise DerivationError(
                    f"{where(i)}: triple <{', '.join(grammar.name(c) for c in triple)}> is not allowed",
                    word_index=i,
                    triple=triple,
                )
    for triple in final:
        if not grammar.allows(*triple):
            raise DerivationError(
                f"after the last word: closing triple <{', '.join(grammar.name(c) for c in triple)}> is not allowed",
                word_index=len(steps) - 1,
                triple=triple,
            )


def default_tree(words: Sequence[str], tags: Sequence[str], grammar: Grammar | None = None) -> Tree:
    """The fallback analysis when the beam finds no derivation: a flat phrase over the POS-tagged words under TOP.

    The phrase is ``grammar``'s :meth:`~glmnlp.parser.grammar.Grammar.root_phrase` (a label of the training
    trees; ``S`` on treebank data), ``S`` without a grammar."""
    label = "S" if grammar is None else grammar.root_phrase()
    return Tree("TOP", (Tree(label, tuple(Tree(t, (w,)) for w, t in zip(words, tags))),))
