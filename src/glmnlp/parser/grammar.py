"""The parser's grammar: allowable left-child chains and triples read off FSLC-transformed trees.

Collins & Roark (2004, section 3.1) restrict the incremental parser with a grammar
G = (V, T, S-dagger, S-bar, C, B):

* V, the categories: phrase labels, POS tags and the slash categories of the FSLC transform
  (:mod:`glmnlp.parser.transform`). A category is ``(label, slash)``; :class:`Grammar` numbers them, with
  three reserved ids: ``NULL = 0`` (absent), ``END = 1`` (S-bar, the end-of-constituent marker)
  and ``TOP = 2`` (S-dagger, the tree root ``TOP``).
* C, the allowable chains: for each word, the path of first children from the highest node whose
  leftmost word it is, down to its POS tag. For the first word the chain starts at TOP; for a later
  word it starts at a non-first child Z of a node X (X, the attachment site, is not in the chain).
  The **length** of a chain is its number of non-terminals, POS included (the paper counts
  "non-terminal categories"; so TOP -> S -> NP -> DT has length 4). Chains are indexed by POS tag
  (the paper: a word's chains are those of its POS tags).
* B, the allowable triples ``(X, Y, Z)``: Z may follow the child Y under the parent X, Z = END
  when Y may be the last child. First children are licensed by chains, not by triples (our reading).

Filtering (as in the paper): every chain of length <= 2 seen in training is kept; a longer
chain only if seen at least ``long_chain_min_count`` times (2 = "more than once", the paper).

Input trees. The parser trains, and is scored, on treebank trees prepared as
:func:`glmnlp.treebank.preprocess.clean_tree` prepares them; :func:`tree_problem` names what keeps a
tree from being one. Choice: such trees are **refused, never cleaned on the way in** (``glmnlp
parser train`` reports ``file:line``, the reason and :data:`CLEAN_HINT`; the library's trainers,
:func:`check_trees`, the tree's position): cleaning silently would
change the gold trees the dev F1 is measured on, and a raw tree read as it is would put ``-NONE-``
and ``NP-SBJ`` into the grammar and the model as if they were a tag and a category.

Determinism: category ids are assigned in sorted order (reserved ids first), and chains and
triples are stored sorted, so the same trees always give the same grammar and the same JSON.

Table 1 of the paper is computed by :func:`chain_table`: distinct long chains with and without FSLC,
with and without the filter, and the held-out rate of words whose gold chain (or a triple their
attachment needs) is missing from the training grammar. The default transform (left recursion plus Roark's (SINV, S) pair) is the one measured best on the
bundled sample; the figures are in :mod:`glmnlp.parser.transform`.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

from glmnlp.errors import GlmnlpError, ModelFileError
from glmnlp.parser.transform import FslcConfig, collapse_unary_loops, fslc_transform
from glmnlp.treebank.preprocess import END_LABEL, NONE_TAG, NULL_LABEL, clean_label
from glmnlp.treebank.preprocess import TOP as TOP_LABEL
from glmnlp.treebank.trees import Tree, not_a_tree

__all__ = [
    "CLEAN_HINT",
    "check_trees",
    "first_problem",
    "END",
    "NULL",
    "TOP",
    "TOP_LABEL",
    "Category",
    "ChainTable",
    "Grammar",
    "GrammarError",
    "chain_table",
    "table1",
    "tree_chains",
    "tree_problem",
    "tree_triples",
]

NULL = 0
END = 1
TOP = 2

#: coordinating-conjunction POS tags, by preference: the Penn Treebank's, Universal Dependencies', STTS's (German)
COORD_TAGS = ("CC", "CCONJ", "KON")
Category = tuple[str, str | None]

#: the reserved categories, in id order
RESERVED: tuple[Category, ...] = ((NULL_LABEL, None), (END_LABEL, None), (TOP_LABEL, None))
GRAMMAR_FORMAT = "glmnlp-grammar"
MAX_CHAIN = 64  # categories in one chain (Grammar.from_json)
GRAMMAR_VERSION = 1

C = TypeVar("C", bound=Hashable)


class GrammarError(GlmnlpError):
    """A category, chain or triple the grammar does not know, or a tree it cannot read."""


def category_of(node: Tree) -> Category:
    """The grammar category of a tree node."""
    return (node.label, node.slash)


def display_category(cat: Category) -> str:
    """``A/B`` for slash categories, else the label."""
    return cat[0] if cat[1] is None else f"{cat[0]}/{cat[1]}"


#: how to get trees the parser can use (:func:`tree_problem`)
CLEAN_HINT = (
    "the parser needs cleaned trees (a TOP root, no -NONE- elements, no function tags or indices), as "
    "`glmnlp data` writes them; `glmnlp data --clean FILE... --out OUT.trees` cleans other treebank files "
    "(glmnlp.treebank.preprocess.clean_tree in Python)"
)


def first_problem(trees: Sequence[Tree]) -> tuple[int, str] | None:
    """(index, :func:`tree_problem`) of the first of ``trees`` that is not a cleaned tree, or None."""
    return next(((i, p) for i, tree in enumerate(trees) if (p := tree_problem(tree)) is not None), None)


def check_trees(trees: Sequence[Tree], what: str) -> None:
    """Raise :class:`GrammarError` for the first of ``trees`` (``what``: "training", "dev") that is not a cleaned
    tree (:func:`first_problem`), naming its position and :data:`CLEAN_HINT`: the library's trainers refuse
    them as ``glmnlp parser train`` does (there with the file and line). Anything but a Tree is a TypeError (a
    bracket string was an AttributeError from inside the check)."""
    if isinstance(trees, str | bytes):
        raise TypeError(f"{what} trees: expected a sequence of Trees, got a {type(trees).__name__} (parse_tree reads "
                        "a bracket string)")
    if (k := next((k for k, tree in enumerate(trees) if not isinstance(tree, Tree)), None)) is not None:
        raise TypeError(f"{what} tree {k + 1}: {not_a_tree(trees[k])}")
    if (found := first_problem(trees)) is not None:
        raise GrammarError(f"{what} tree {found[0] + 1}: {found[1]}; {CLEAN_HINT}")


def tree_problem(tree: Tree) -> str | None:
    """Why ``tree`` is not a cleaned, ``TOP``-rooted treebank tree the parser can use, or None when it is one.

    Such a tree (:func:`glmnlp.treebank.preprocess.clean_tree`'s output) has the root ``TOP`` over
    phrases, no empty element (``-NONE-``) and only bare categories as labels: no function tags,
    indices or alternatives (``NP``, not ``NP-SBJ-1``, ``NP=2`` or ``ADVP|PRT``; a POS tag is kept whole but
    for an alternative, so ``V-FIN`` is one), and no label below the root
    that the parser keeps for itself (``TOP``, ``<END>``, ``<NULL>``: :data:`RESERVED`).
    """
    if tree.label != TOP_LABEL or tree.slash is not None:
        got = "an unlabelled bracket '( (S ...) )'" if tree.label == "" else repr(tree.display_label)
        return f"the root is {got}, not {TOP_LABEL!r}"
    if tree.is_preterminal:
        return f"the root {TOP_LABEL!r} is over the word {tree.children[0]!r}, not over a phrase"
    for node in tree.subtrees():
        if node.label == NONE_TAG:
            return f"empty element ({NONE_TAG} {' '.join(node.leaves())})"
        bare = clean_label(node.label, pos=node.is_preterminal)
        if bare != node.label:
            return f"label {node.label!r} carries a function tag, index or alternative (bare category {bare!r})"
    collapsed = collapse_unary_loops(tree)  # (TOP (TOP ...)) is one TOP to the parser
    for node in collapsed.subtrees():
        if node is not collapsed and category_of(node) in RESERVED:
            return f"label {node.label!r} below the root: the parser reserves it for the root or its markers; rename it"
    return None


def _check_root(tree: Tree) -> None:
    if tree.label != TOP_LABEL or tree.slash is not None:
        raise GrammarError(f"tree root must be {TOP_LABEL!r}, got {tree.display_label!r}; {CLEAN_HINT}")
    if tree.is_preterminal:
        raise GrammarError(f"tree root {TOP_LABEL!r} must be a phrase, not a preterminal over {tree.children[0]!r}")


def _chain_from(node: Tree) -> tuple[list[Tree], Tree]:
    """The first-child path from ``node`` to its leftmost POS node, and that POS node."""
    path = [node]
    while not node.is_preterminal:
        child = node.children[0]
        if isinstance(child, str):  # pragma: no cover - trees.Tree forbids mixing, kept defensive
            raise GrammarError(f"node {node.display_label!r} mixes words and subtrees")
        node = child
        path.append(node)
    return path, node


def tree_chains(tree: Tree) -> list[tuple[int, tuple[Category, ...]]]:
    """Each word's ``(site, chain)`` in word order, with categories (not ids).

    ``site`` is the depth of the attachment site below the root (root = 0), -1 for the first word;
    the chain runs from its top down to the POS. This is the gold derivation over category
    tuples; :func:`glmnlp.parser.derivation.derive` maps it to ids.
    """
    _check_root(tree)
    out: list[tuple[int, tuple[Category, ...]]] = []

    def start(node: Tree, site: int, depth: int) -> None:
        path, _ = _chain_from(node)
        out.append((site, tuple(category_of(n) for n in path)))
        for offset in range(len(path) - 2, -1, -1):  # deepest open node first: its later children come next
            parent = path[offset]
            for child in parent.children[1:]:
                assert isinstance(child, Tree)
                start(child, depth + offset, depth + offset + 1)

    start(tree, -1, 0)
    return out


def tree_triples(tree: Tree) -> list[tuple[Category, Category, Category]]:
    """Every triple ``(X, c_k, c_k+1)`` and ``(X, c_m, END)`` of ``tree``, pre-order."""
    end = RESERVED[END]
    out: list[tuple[Category, Category, Category]] = []
    for node in tree.subtrees():
        if node.is_preterminal:
            continue
        x = category_of(node)
        kids = [category_of(c) for c in node.children if isinstance(c, Tree)]
        for a, b in zip(kids, kids[1:]):
            out.append((x, a, b))
        out.append((x, kids[-1], end))
    return out


def step_needs(
    steps: Sequence[tuple[int, tuple[C, ...]]], end: C
) -> tuple[list[list[tuple[C, C, C]]], list[tuple[C, C, C]]]:
    """The triples each step of a derivation checks, and those of the final closing.

    ``steps`` are ``(site, chain)`` pairs over any category type; ``end`` is the END category.
    Returns ``(per_word, final)``: ``per_word[i]`` lists the closing triples (deepest first) then
    the attachment triple of word i (empty for the first word); ``final`` the closings after the
    last word, deepest first, up to the root. Raises :class:`GrammarError` (with the word number)
    on a structurally impossible step: a bad site, or an empty or misplaced chain.
    """
    per_word: list[list[tuple[C, C, C]]] = []
    # open frontier: [category, category of last child]
    frontier: list[list[C]] = []
    for i, (site, chain) in enumerate(steps):
        if not chain:
            raise GrammarError(f"word {i + 1}: empty chain")
        needs: list[tuple[C, C, C]] = []
        if i == 0:
            if site != -1:
                raise GrammarError(f"word 1: the first word's site must be -1, got {site}")
            frontier = []
        else:
            if not 0 <= site < len(frontier):
                raise GrammarError(
                    f"word {i + 1}: attachment site {site} is not on the right frontier (0..{len(frontier) - 1})"
                )
            for y in reversed(frontier[site + 1 :]):
                needs.append((y[0], y[1], end))
            del frontier[site + 1 :]
            x = frontier[site]
            needs.append((x[0], x[1], chain[0]))
            x[1] = chain[0]
        for top, below in zip(chain, chain[1:]):
            frontier.append([top, below])
        per_word.append(needs)
    final = [(y[0], y[1], end) for y in reversed(frontier)]
    return per_word, final


@dataclass
class Grammar:
    """Categories, allowable chains (by POS tag) and allowable triples (the grammar G of C&R 2004 §3.1).

    Build it with :meth:`induce` or :meth:`from_json` and treat it as read-only afterwards
    (:meth:`has_chain` caches per-tag chain sets); to restrict a grammar, construct a new one.
    """

    categories: list[Category]
    pos_tags: list[str]
    chains: dict[str, list[tuple[int, ...]]]
    first_chains: dict[str, list[tuple[int, ...]]]
    triples: set[tuple[int, int, int]]
    long_chain_min_count: int = 2
    _index: dict[Category, int] = field(init=False, repr=False, compare=False)
    _chain_sets: dict[tuple[bool, str], frozenset[tuple[int, ...]]] = field(init=False, repr=False, compare=False)
    _given: tuple[tuple[str, ...], frozenset[str]] | None = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        self._reindex()

    def _reindex(self) -> None:
        if tuple(self.categories[: len(RESERVED)]) != RESERVED:
            raise GrammarError(f"categories must start with the reserved {RESERVED!r}")
        self._index = {cat: i for i, cat in enumerate(self.categories)}
        if len(self._index) != len(self.categories):
            raise GrammarError("duplicate categories in grammar")
        self._chain_sets = {}
        self._given = None

    # -- lookups -----------------------------------------------------------------------------
    def category_id(self, label: str, slash: str | None = None) -> int:
        """The id of category ``(label, slash)``; :class:`GrammarError` if the grammar lacks it."""
        try:
            return self._index[(label, slash)]
        except KeyError:
            raise GrammarError(
                f"category {display_category((label, slash))!r} is not in the grammar"
            ) from None

    def lookup(self, label: str, slash: str | None = None) -> int | None:
        """The id of ``(label, slash)``, or None if the grammar lacks it."""
        return self._index.get((label, slash))

    def parsable_tags(self) -> tuple[tuple[str, ...], frozenset[str]]:
        """The POS tags the parser can be given (with a category: all of a trained grammar's), in order and as a set;
        computed once, the grammar being read-only (every sentence's tags are checked: glmnlp.parser.tag_check)."""
        if self._given is None:
            tags = tuple(t for t in self.pos_tags if self.lookup(t) is not None)
            self._given = (tags, frozenset(tags))
        return self._given

    def name(self, cat: int) -> str:
        """Display name of a category id (``NP/NP``, ``<END>``)."""
        return display_category(self.categories[cat])

    def chain_names(self, chain: Sequence[int]) -> str:
        """A chain for messages: ``TOP -> S -> NP -> DT``."""
        return " -> ".join(self.name(c) for c in chain)

    def allows(self, x: int, y: int, z: int) -> bool:
        """True when Z may follow the child Y under the parent X."""
        return (x, y, z) in self.triples

    def chains_for(self, tag: str, *, first: bool = False) -> list[tuple[int, ...]]:
        """The allowable chains ending in POS ``tag`` (first-word chains if ``first``); [] if none."""
        return (self.first_chains if first else self.chains).get(tag, [])

    def coordination_tag(self) -> int | None:
        """The category id of the grammar's coordinating-conjunction tag, the first of :data:`COORD_TAGS` it has as a
        POS tag (None: none; the COORD atom and the punctuation feature that looks past a CC are then never set)."""
        found = [self._index[(t, None)] for t in COORD_TAGS if t in self.pos_tags and (t, None) in self._index]
        return found[0] if found else None

    def root_phrase(self) -> str:
        """The phrase label below TOP in the most first-word chains (``S`` on treebank data; ``S`` when there is
        none), for the parser's flat fallback tree: a label of the training trees, whatever their label set."""
        below = Counter(self.categories[c[1]][0] for cs in self.first_chains.values() for c in cs if len(c) > 2)
        return min(below, key=lambda label: (-below[label], label)) if below else "S"

    def has_chain(self, tag: str, chain: tuple[int, ...], *, first: bool = False) -> bool:
        """True when ``chain`` is allowable for a word tagged ``tag``."""
        key = (first, tag)
        found = self._chain_sets.get(key)
        if found is None:
            found = frozenset(self.chains_for(tag, first=first))
            self._chain_sets[key] = found
        return chain in found

    # -- induction ---------------------------------------------------------------------------
    @classmethod
    def induce(cls, transformed_trees: Iterable[Tree], *, long_chain_min_count: int = 2) -> Grammar:
        """Read categories, chains and triples off FSLC-transformed trees.

        Chains of length <= 2 are always kept; longer ones only if seen at least
        ``long_chain_min_count`` times. Every tree must have the root ``TOP``.
        """
        if long_chain_min_count < 1:
            raise GrammarError(f"long_chain_min_count must be >= 1, got {long_chain_min_count}")
        cats: set[Category] = set()
        tags: set[str] = set()
        chain_counts: Counter[tuple[bool, tuple[Category, ...]]] = Counter()
        triple_set: set[tuple[Category, Category, Category]] = set()
        for tree in transformed_trees:
            for site, chain in tree_chains(tree):
                chain_counts[(site == -1, chain)] += 1
            triple_set.update(tree_triples(tree))
            for node in tree.subtrees():
                cats.add(category_of(node))
                if node.is_preterminal:
                    tags.add(node.label)
        cats -= set(RESERVED)
        ordered = list(RESERVED) + sorted(cats, key=_cat_key)
        index = {c: i for i, c in enumerate(ordered)}
        chains: dict[str, set[tuple[int, ...]]] = {}
        first_chains: dict[str, set[tuple[int, ...]]] = {}
        for (first, chain), count in chain_counts.items():
            if len(chain) > 2 and count < long_chain_min_count:
                continue
            target = first_chains if first else chains
            target.setdefault(chain[-1][0], set()).add(tuple(index[c] for c in chain))
        triples = {(index[x], index[y], index[z]) for x, y, z in triple_set}
        return cls(
            categories=ordered,
            pos_tags=sorted(tags),
            chains={t: sorted(v) for t, v in sorted(chains.items())},
            first_chains={t: sorted(v) for t, v in sorted(first_chains.items())},
            triples=triples,
            long_chain_min_count=long_chain_min_count,
        )

    # -- serialisation -----------------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict with deterministic ordering (for model headers)."""
        return {
            "format": GRAMMAR_FORMAT,
            "version": GRAMMAR_VERSION,
            "long_chain_min_count": self.long_chain_min_count,
            "categories": [[label, slash] for label, slash in self.categories],
            "pos_tags": list(self.pos_tags),
            "chains": {t: [list(c) for c in sorted(v)] for t, v in sorted(self.chains.items())},
            "first_chains": {t: [list(c) for c in sorted(v)] for t, v in sorted(self.first_chains.items())},
            "triples": [list(t) for t in sorted(self.triples)],
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Grammar:
        """Inverse of :meth:`to_json`; :class:`ModelFileError` on anything malformed."""
        try:
            if data.get("format") != GRAMMAR_FORMAT:
                raise ModelFileError(f"not a grammar: format {data.get('format')!r}, expected {GRAMMAR_FORMAT!r}")
            if data.get("version") != GRAMMAR_VERSION:
                raise ModelFileError(f"unsupported grammar version {data.get('version')!r}")
            categories: list[Category] = []
            for item in data["categories"]:
                label, slash = item
                if not isinstance(label, str) or not (slash is None or isinstance(slash, str)) or not all(
                        part and not any(ch.isspace() for ch in part) for part in (label, slash) if part is not None):
                    # an empty label, or one with a space, loaded and then wrote trees no reader reads back (or
                    # failed at the first tree written)
                    raise ModelFileError(f"bad grammar category {item!r} (labels are non-empty, without whitespace)")
                categories.append((label, slash))
            if tuple(categories[: len(RESERVED)]) != RESERVED:
                raise ModelFileError(f"grammar categories must start with the reserved {list(RESERVED)!r}")
            n = len(categories)

            def ids(seq: Any, size: int | None = None) -> tuple[int, ...]:
                out = tuple(seq)
                if not out or (size is not None and len(out) != size):
                    raise ModelFileError(f"bad grammar entry {seq!r}")
                for i in out:
                    if not isinstance(i, int) or isinstance(i, bool) or not 0 <= i < n:
                        raise ModelFileError(f"grammar entry {seq!r} has a category id out of range 0..{n - 1}")
                return out

            pos_tags = [str(t) for t in data["pos_tags"]]
            chains = {str(t): [ids(c) for c in v] for t, v in data["chains"].items()}
            first_chains = {str(t): [ids(c) for c in v] for t, v in data["first_chains"].items()}
            # a chain is a word's path up the tree (6 categories at most in the bundled grammar); one of 5,000
            # loaded and then failed at the first parse in Python's recursion limit
            if any(len(c) > MAX_CHAIN for table in (chains, first_chains) for v in table.values() for c in v):
                raise ModelFileError(f"a grammar chain longer than {MAX_CHAIN} categories")
            triples = {ids(t, 3) for t in data["triples"]}
            min_count = int(data["long_chain_min_count"])
            grammar = cls(
                categories=categories,
                pos_tags=pos_tags,
                chains=chains,
                first_chains=first_chains,
                triples=triples,  # type: ignore[arg-type]
                long_chain_min_count=min_count,
            )
            if (broken := grammar.slash_rule_violation()) is not None:
                raise ModelFileError(f"grammar breaks the slash-category rule: {broken}")
            return grammar
        except ModelFileError:
            raise
        except (KeyError, TypeError, ValueError, AttributeError, GrammarError) as exc:
            raise ModelFileError(f"malformed grammar: {exc!r}") from None

    def slash_rule_violation(self) -> str | None:
        """The first chain or triple a grammar read off FSLC-transformed trees cannot hold, else None.

        In a transformed tree (:func:`glmnlp.parser.transform.fslc_detransform`) slash children come last
        under their parent; the first of them is ``A/X`` under a parent labelled X and each later one
        ``B/A`` after ``A/...``; a first child is never a slash category. So a triple (X, Y, Z) with Z a
        slash category needs Z's slash to be Y's label if Y is a slash category, else X's label, a
        non-slash Z cannot follow a slash Y, and no chain has a slash category below its top. A model
        file that breaks this (a damaged category) would parse into trees the inverse transform
        rejects; it is refused at load instead.
        """
        cats = self.categories
        for x, y, z in sorted(self.triples):
            if z == END:
                continue
            label, slash = cats[z]
            if slash is None:
                if cats[y][1] is not None:
                    return f"{display_category(cats[z])!r} after the slash child {display_category(cats[y])!r}"
                continue
            expected = cats[y][0] if cats[y][1] is not None else cats[x][0]
            if slash != expected:
                return (f"{display_category(cats[z])!r} after {display_category(cats[y])!r} under "
                        f"{display_category(cats[x])!r} (expected {display_category((label, expected))!r})")
        for table in (self.chains, self.first_chains):
            for tag in sorted(table):
                for chain in table[tag]:
                    if any(cats[c][1] is not None for c in chain[1:]):
                        return f"chain {[display_category(cats[c]) for c in chain]} has a slash category below its top"
        return None

    # -- summaries ---------------------------------------------------------------------------
    def all_chains(self) -> list[tuple[bool, tuple[int, ...]]]:
        """Every allowable chain as ``(is_first_word_chain, chain)``, sorted."""
        out = [(True, c) for v in self.first_chains.values() for c in v]
        out += [(False, c) for v in self.chains.values() for c in v]
        return sorted(out)


def _cat_key(cat: Category) -> tuple[str, bool, str]:
    return (cat[0], cat[1] is not None, cat[1] or "")


# -- Table 1 -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class ChainTable:
    """The figures of Table 1 of C&R 2004 for one transform setting.

    ``*_long`` count distinct chains of length > 2 in a corpus; ``*_long_repeated`` those seen
    more than ``min_count - 1`` times in that same corpus. The held-out rates are per 1000
    held-out words, measured against the grammar induced from the training trees with the filter
    (``chain_oov``) and without it (``chain_oov_unfiltered``); ``triple_oov`` counts held-out words
    whose step needs a triple unseen in training (the closings after the last word count for the
    last word); ``sentences_covered`` is the share (%) of held-out sentences whose whole gold
    derivation is allowed by the filtered training grammar.
    """

    train_words: int
    heldout_words: int
    train_long: int
    train_long_repeated: int
    heldout_long: int
    heldout_long_repeated: int
    chain_oov: float
    chain_oov_unfiltered: float
    triple_oov: float
    sentences_covered: float


def _chain_counts(trees: Sequence[Tree]) -> Counter[tuple[bool, tuple[Category, ...]]]:
    counts: Counter[tuple[bool, tuple[Category, ...]]] = Counter()
    for tree in trees:
        for site, chain in tree_chains(tree):
            counts[(site == -1, chain)] += 1
    return counts


def _long(counts: Counter[tuple[bool, tuple[Category, ...]]], min_count: int) -> tuple[int, int]:
    long_chains = [n for (_, chain), n in counts.items() if len(chain) > 2]
    return len(long_chains), sum(1 for n in long_chains if n >= min_count)


def chain_table(train: Sequence[Tree], heldout: Sequence[Tree], *, min_count: int = 2) -> ChainTable:
    """Table 1 figures for trees that are already in the wanted form (transformed or not).

    ``train`` and ``heldout`` must have ``TOP`` roots. Pass FSLC-transformed trees for the "with
    FSLC" columns and the cleaned trees for "without".
    """
    train_counts = _chain_counts(train)
    heldout_counts = _chain_counts(heldout)
    kept = {key for key, n in train_counts.items() if len(key[1]) <= 2 or n >= min_count}
    seen_triples: set[tuple[Category, Category, Category]] = set()
    for tree in train:
        seen_triples.update(tree_triples(tree))
    end = RESERVED[END]
    words = oov = oov_unfiltered = triple_oov = covered = 0
    for tree in heldout:
        steps = tree_chains(tree)
        per_word, final = step_needs(steps, end)
        ok = True
        for i, (site, chain) in enumerate(steps):
            words += 1
            key = (site == -1, chain)
            if key not in kept:
                oov += 1
                ok = False
            if key not in train_counts:
                oov_unfiltered += 1
            needs = per_word[i] + (final if i == len(steps) - 1 else [])
            if any(t not in seen_triples for t in needs):
                triple_oov += 1
                ok = False
        covered += ok
    per_k = 1000.0 / words if words else 0.0
    train_long, train_rep = _long(train_counts, min_count)
    held_long, held_rep = _long(heldout_counts, min_count)
    return ChainTable(
        train_words=sum(train_counts.values()),
        heldout_words=words,
        train_long=train_long,
        train_long_repeated=train_rep,
        heldout_long=held_long,
        heldout_long_repeated=held_rep,
        chain_oov=oov * per_k,
        chain_oov_unfiltered=oov_unfiltered * per_k,
        triple_oov=triple_oov * per_k,
        sentences_covered=100.0 * covered / len(heldout) if heldout else 0.0,
    )


def table1(
    train: Sequence[Tree],
    heldout: Sequence[Tree],
    *,
    config: FslcConfig = FslcConfig(),
    min_count: int = 2,
) -> dict[str, ChainTable]:
    """Table 1 of C&R 2004 for cleaned ``TOP``-rooted trees: ``{"no FSLC": ..., "FSLC": ...}``."""
    return {
        "no FSLC": chain_table(train, heldout, min_count=min_count),
        "FSLC": chain_table(
            [fslc_transform(t, config) for t in train],
            [fslc_transform(t, config) for t in heldout],
            min_count=min_count,
        ),
    }
