"""Immutable constituency trees and the Penn Treebank bracket format.

A :class:`Tree` is a frozen record: a label, a tuple of children (subtrees or word strings) and an
optional ``slash`` field used by the flattened selective left-corner transform (a node ``A/B`` is
``Tree("A", ..., slash="B")``; the category is structured, never spelled inside the label string).

The reader accepts both layouts found in practice:

* ``.mrg`` files: many trees per file, spread over several lines, often wrapped in an unlabelled
  root ``( (S ...) )``;
* one tree per line, as written by :func:`to_bracket` and by EVALB-style tooling.

The writer escapes what the bracket syntax cannot hold the PTB way: ``(`` is written ``-LRB-`` and
``)`` ``-RRB-`` in words and labels (:func:`escape_brackets`; a token ``f(x)`` becomes
``f-LRB-x-RRB-``), so every tree it writes reads back; a word that is empty or contains whitespace,
or a label with whitespace, cannot be written and raises ``ValueError``.

Malformed input raises :class:`~glmnlp.errors.TreeSyntaxError` with the file, the line and the
reason; a file that cannot be read, :class:`~glmnlp.errors.InputError` with its name. Nothing is
repaired: an unbalanced bracket, an empty node, text outside any bracket or a node mixing words and
subtrees is an error, never a flat or truncated tree.
"""

from __future__ import annotations

import operator
import re
import unicodedata
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from glmnlp.errors import ConfigError, InputError, TreeSyntaxError
from glmnlp.treebank.fileio import read_text_file, split_lines, surrogate_reason

__all__ = [
    "PTB_APOSTROPHES",
    "PTB_BRACKETS",
    "Tree",
    "read_trees",
    "read_tree_file_with_lines",
    "with_bracket_hint",
    "read_trees_with_lines",
    "iter_trees_with_lines",
    "read_tree_file",
    "parse_tree",
    "to_bracket",
    "to_pretty",
    "write_trees",
    "escape_brackets",
    "written_tag",
    "with_leaves",
    "tree_to_plain",
    "tree_from_plain",
    "not_a_tree",
    "MAX_DEPTH",
]


#: The Penn Treebank's spelling of brackets in words (``(`` is ``-LRB-``; ``[ ]`` do not occur in the WSJ files and
#: get the usual ``-LSB-``/``-RSB-``): what the tokenizer writes for raw text and what the models saw in training.
PTB_BRACKETS: dict[str, str] = {
    "(": "-LRB-",
    ")": "-RRB-",
    "{": "-LCB-",
    "}": "-RCB-",
    "[": "-LSB-",
    "]": "-RSB-",
}
#: Its apostrophe within a word, ``'``, for the typographic ones (right and left single quotation marks, the
#: reversed one, the modifier letter apostrophe): ``n’t`` is ``n't``, as the tokenizer spells raw text's.
PTB_APOSTROPHES = str.maketrans({"\u2019": "'", "\u2018": "'", "\u201b": "'", "\u02bc": "'"})


@dataclass(frozen=True, slots=True)
class Tree:
    """A constituent: ``label`` over ``children``; a preterminal has exactly one ``str`` child.

    ``slash`` is set only on the slash categories of the FSLC transform (``A/B``: an ``A`` whose
    left corner ``B`` has already been built). It is ``None`` for every treebank node.
    """

    label: str
    children: tuple[Tree | str, ...]
    slash: str | None = None

    def __post_init__(self) -> None:
        # children given as a list (which to_bracket takes, as documented) made a tree that could not be hashed, and
        # a document holding it unequal to its own round trip through to_dict
        if isinstance(self.children, list):  # (a str, which is no list of children, is refused where it is read)
            object.__setattr__(self, "children", tuple(self.children))

    # -- structure ---------------------------------------------------------------------------
    @property
    def is_preterminal(self) -> bool:
        """True for a POS node: a single word child."""
        return len(self.children) == 1 and isinstance(self.children[0], str)

    @property
    def display_label(self) -> str:
        """The label as printed: ``A/B`` for slash categories, else the plain label."""
        return self.label if self.slash is None else f"{self.label}/{self.slash}"

    def subtrees(self) -> Iterator[Tree]:
        """Every node of the tree, pre-order (this node first)."""
        stack: list[Tree] = [self]
        while stack:
            node = stack.pop()
            yield node
            for child in reversed(node.children):
                if isinstance(child, Tree):
                    stack.append(child)

    def leaves(self) -> list[str]:
        """The words, left to right."""
        return [node.children[0] for node in self.subtrees() if node.is_preterminal]  # type: ignore[misc]

    def pos(self) -> list[tuple[str, str]]:
        """``(word, tag)`` pairs, left to right."""
        return [
            (node.children[0], node.label)  # type: ignore[misc]
            for node in self.subtrees()
            if node.is_preterminal
        ]

    def tags(self) -> list[str]:
        """The POS tags, left to right."""
        return [tag for _, tag in self.pos()]

    def __str__(self) -> str:
        return to_bracket(self)

    def __repr__(self) -> str:
        """``<Tree (S (NP ...) ...)>``: the bracket string (the generated dataclass repr spelled out every field of
        every node, a screen of ``Tree(label=..., children=(...), slash=None)`` for one short sentence); a tree that
        has none (built wrongly in code: no children, a label with a space) shows its fields, never an error."""
        try:
            return f"<Tree {to_bracket(self)}>"
        except (ValueError, TypeError):
            return f"Tree(label={self.label!r}, children={self.children!r}, slash={self.slash!r})"


# -- writing ---------------------------------------------------------------------------------


def tree_to_plain(tree: Tree) -> tuple[Any, ...]:
    """``tree`` as nested tuples (label, slash, children: words or such tuples), what travels between
    processes. Lossless, where brackets written as text would turn a "(" inside a word into -LRB-."""
    return (tree.label, tree.slash, tuple(c if isinstance(c, str) else tree_to_plain(c) for c in tree.children))


def tree_from_plain(plain: Sequence[Any]) -> Tree:
    """Inverse of :func:`tree_to_plain`."""
    label, slash, children = plain
    return Tree(label, tuple(c if isinstance(c, str) else tree_from_plain(c) for c in children), slash)


def with_leaves(tree: Tree, words: Sequence[str]) -> Tree:
    """``tree`` over ``words`` instead of its own leaves (as many, left to right): a tree the models built over their
    spelling of a sentence (``-LRB-``), given back over the words as the user wrote them (``(``)."""
    if len(words) != len(tree.leaves()):
        raise ValueError(f"{len(words)} words for a tree of {len(tree.leaves())} leaves")
    position = 0

    def put(node: Tree) -> Tree:
        nonlocal position
        if node.is_preterminal:
            position += 1
            return Tree(node.label, (words[position - 1],), node.slash)
        return Tree(node.label, tuple(put(c) for c in node.children), node.slash)  # type: ignore[arg-type]

    return put(tree)


def escape_brackets(text: str) -> str:
    """``text`` as the Penn Treebank writes it: ``(`` -> ``-LRB-``, ``)`` -> ``-RRB-`` (anywhere in it)."""
    if "(" in text or ")" in text:
        return text.replace("(", "-LRB-").replace(")", "-RRB-")
    return text


#: Tags that are a bracket escape whole: the Penn Treebank's names of its bracket tags, so in its every format
_ESCAPE_TAGS = frozenset({"-LRB-", "-RRB-"})


def written_tag(tag: str) -> str:
    """A tag as outputs of tags write it: a bracket escape inside it as its bracket (STTS ``$-LRB-``, a bracketed
    tree's spelling of ``$(``, as ``$(``, as word/TAG and CoNLL-U files write it); a tag that is an escape whole, the
    Penn Treebank's ``-LRB-``, is its own name, kept."""
    return tag if tag in _ESCAPE_TAGS else tag.replace("-LRB-", "(").replace("-RRB-", ")")


def _word(word: str) -> str:
    if not word or any(ch.isspace() for ch in word):
        raise ValueError(f"the word {word!r} cannot be written in brackets (empty or contains whitespace)")
    return escape_brackets(word)


def _label(label: str) -> str:
    if any(ch.isspace() for ch in label):
        raise ValueError(f"the label {label!r} cannot be written in brackets (contains whitespace)")
    return escape_brackets(label)


def not_a_tree(value: object) -> str:
    """The message of a ``TypeError`` for ``value`` where a :class:`Tree` is needed: an ``nltk.Tree`` is named as such
    (it said "expected a Tree, got Tree"), a string points at :func:`parse_tree`."""
    kind = type(value)
    if kind.__module__.split(".")[0] == "nltk":
        return f"expected a glmnlp Tree, got an {kind.__module__}.{kind.__name__} (tree_from_nltk converts it)"
    return f"expected a Tree, got {kind.__name__} (parse_tree reads a bracket string)"


def to_bracket(tree: Tree) -> str:
    """One-line Penn Treebank brackets: ``(TOP (S (NP (DT the) (NN dog)) ...))``.

    Brackets inside words and labels are written ``-LRB-``/``-RRB-`` (:func:`escape_brackets`);
    an empty word or whitespace inside a word or label raises ``ValueError``, and so does a node the reader would
    refuse (no children, a word beside other children, children that are not a tuple of Trees and words).
    """
    if not isinstance(tree, Tree):
        raise TypeError(not_a_tree(tree))
    parts: list[str] = []
    try:
        _write(tree, parts)
    except RecursionError:  # thousands of levels deep: it was a RecursionError from inside
        raise ValueError("the tree is nested too deep to be written (the tree reader takes "
                         f"{MAX_DEPTH} levels)") from None
    return "".join(parts)


def _check_node(tree: Tree, depth: int = 0) -> None:
    """A node the reader would take back: a tuple (or list) of children, each a Tree or a word, and a word only as
    a preterminal's one child. ``Tree("NN", "dog")`` was written ``(NN d o g)`` (a str's characters as children),
    ``Tree("X", ())`` as ``(X)`` and a word beside a subtree as ``(S w (NN d))``: files the reader refuses; so was
    a node ``depth`` below the root without a label, ``(S ( x))``. (A tree deeper than the reader's
    :data:`MAX_DEPTH` is written: a parse of a long sentence may be one, and other readers take it.)"""
    if depth and tree.label == "":
        raise ValueError("a node below the root has no label: only the outermost bracket may have none, '( (S ...) )'")
    children = tree.children
    if not isinstance(children, tuple | list):
        raise ValueError(f"node {tree.display_label!r}: children must be a tuple of Trees and words, "
                         f"got {type(children).__name__} (a preterminal is Tree(tag, (word,)))")
    if not children:
        raise ValueError(f"node {tree.display_label!r} has no children: a bracketed tree cannot hold it")
    for child in children:
        if not isinstance(child, Tree | str):
            raise ValueError(f"node {tree.display_label!r}: a child is a {type(child).__name__}, not a Tree or a word")
        if isinstance(child, str) and len(children) > 1:
            raise ValueError(f"node {tree.display_label!r}: a word ({child!r}) beside other children; only a "
                             f"preterminal holds a word, alone")


def _write(tree: Tree, out: list[str], depth: int = 0) -> None:
    _check_node(tree, depth)
    out.append("(")
    out.append(_label(tree.display_label))
    for child in tree.children:
        out.append(" ")
        if isinstance(child, str):
            out.append(_word(child))
        else:
            _write(child, out, depth + 1)
    out.append(")")


def to_pretty(tree: Tree, indent: int = 2) -> str:
    """Multi-line indented brackets, each level ``indent`` spaces deeper than its parent; preterminals stay on one
    line with their word."""
    if not isinstance(tree, Tree):
        raise TypeError(not_a_tree(tree))
    if isinstance(indent, bool) or not hasattr(indent, "__index__"):
        raise TypeError(f"indent must be an integer >= 0, got {indent!r}")
    if operator.index(indent) < 0:  # -2 was taken as 0
        raise ConfigError(f"indent must be an integer >= 0, got {indent!r}")
    lines: list[str] = []

    def walk(node: Tree, depth: int) -> None:
        _check_node(node, depth)
        pad = " " * (indent * depth)
        if node.is_preterminal or not node.children:
            lines.append(pad + to_bracket(node))
            return
        lines.append(f"{pad}({_label(node.display_label)}")
        for child in node.children:
            if isinstance(child, str):
                lines.append(" " * (indent * (depth + 1)) + _word(child))
            else:
                walk(child, depth + 1)
        lines[-1] += ")"

    try:
        walk(tree, 0)
    except RecursionError:  # as to_bracket's
        raise ValueError("the tree is nested too deep to be written (the tree reader takes "
                         f"{MAX_DEPTH} levels)") from None
    return "\n".join(lines)


def write_trees(trees: Iterable[Tree], path: str | Path, *, pretty: bool = False) -> None:
    """Write trees, one per line (or pretty-printed, blank-line separated), atomically."""
    from glmnlp.treebank.fileio import atomic_write_text

    sep = "\n\n" if pretty else "\n"
    text = sep.join(to_pretty(t) if pretty else to_bracket(t) for t in trees)
    atomic_write_text(path, text + "\n" if text else "")


# -- reading ---------------------------------------------------------------------------------

_TOKEN = re.compile(r"\(|\)|[^\s()]+")

#: Deepest nesting the reader takes. Trees are compared, hashed and written by recursion, which Python bounds (about
#: 1,000 frames: ``==`` failed on a tree 300 deep that the reader had taken), so a deeper tree is refused where it is
#: read, with its line, not later with a RecursionError.
MAX_DEPTH = 200


def read_trees(text: str, source: str = "<string>") -> Iterator[Tree]:
    """Parse every tree in ``text`` (any layout); raise :class:`TreeSyntaxError` on bad brackets.

    An iterator: each tree is read as the iteration reaches it, and so are its bracket errors (``list(read_trees(
    text))`` reads them all at once); ``text`` that is not a str is a TypeError at the call (it was one at the first
    tree). An unlabelled outermost bracket ``( (S ...) )`` becomes a node with the empty label ``""``;
    :func:`glmnlp.treebank.preprocess.clean_tree` turns it into ``TOP``. An unlabelled bracket anywhere
    else is an error.
    """
    return (tree for _line, tree in read_trees_with_lines(text, source))


def read_trees_with_lines(text: str, source: str = "<string>") -> Iterator[tuple[int, Tree]]:
    """``(line, tree)`` for every tree in ``text``: :func:`read_trees` with the 1-based line of each
    tree's opening bracket, for messages that name where a tree of a file starts."""
    if not isinstance(text, str):  # read_trees and parse_tree come here too
        hint = " (read_tree_file reads a file)" if isinstance(text, Path) else ""
        raise TypeError(f"expected a str of bracketed trees, got {type(text).__name__}{hint}")
    return iter_trees_with_lines(split_lines(text), source)


def iter_trees_with_lines(lines: Iterable[str], source: str = "<string>") -> Iterator[tuple[int, Tree]]:
    """:func:`read_trees_with_lines` of ``lines`` (without their line ends), each tree as soon as its last line is
    read, so that a file of trees can be read as it is used (``glmnlp tag`` streams with it)."""
    # stack entries: [label, children, line_opened]
    stack: list[list] = []
    expect_label = False
    restart: int | None = None  # a line of an open tree beginning with "(", as the next tree of a file would
    symptom = ""  # set where the error raised is what a ')' missing before a new tree leads to: "at" or "end"
    text = ""
    try:
        for line, text in enumerate(lines, 1):
            if (reason := surrogate_reason(text)) is not None:  # a tree of it could not be written
                raise InputError(reason, source=source, line=line)
            for match in _TOKEN.finditer(text):
                tok = match.group()
                if tok == "(":
                    if stack and restart is None and match.start() == 0:
                        restart = line
                    if expect_label:
                        if len(stack) > 1:
                            symptom = "at"
                            raise TreeSyntaxError("bracket without a label", source=source, line=line)
                        stack[-1][0] = ""
                        expect_label = False
                    if stack and stack[-1][1] and isinstance(stack[-1][1][-1], str):
                        symptom = "at"
                        raise TreeSyntaxError(
                            f"node {stack[-1][0]!r} mixes words and subtrees", source=source, line=line
                        )
                    if len(stack) >= MAX_DEPTH:
                        raise TreeSyntaxError(f"brackets nested more than {MAX_DEPTH} deep (a treebank's are a few "
                                              "dozen: the deepest of the PTB sample and GUM is 34)", source=source,
                                              line=line)
                    stack.append([None, [], line])
                    expect_label = True
                elif tok == ")":
                    if not stack:
                        raise TreeSyntaxError("unbalanced ')' with no open bracket", source=source, line=line)
                    label, children, opened = stack.pop()
                    if expect_label or not children:
                        raise TreeSyntaxError(  # "( Ja )": a word alone in a tree's brackets is read as a label
                            "empty bracket" if label is None else f"node {label!r} has no children"
                            + (" (a word is written under its tag: (TAG word))" if not stack else ""),
                            source=source,
                            line=line,
                        )
                    expect_label = False
                    node = Tree(label, tuple(children))
                    if stack:
                        stack[-1][1].append(node)
                    else:
                        restart = None
                        yield opened, node
                else:
                    if not stack:
                        raise TreeSyntaxError(f"text {tok!r} outside any bracket", source=source, line=line)
                    if expect_label:
                        stack[-1][0] = tok
                        expect_label = False
                        continue
                    siblings = stack[-1][1]
                    if siblings:
                        kind = "a second word" if isinstance(siblings[-1], str) else "a word after subtrees"
                        raise TreeSyntaxError(
                            f"node {stack[-1][0]!r} has {kind} ({tok!r})"
                            + (_unseen_space(text, match.start()) if kind == "a second word" else ""),
                            source=source, line=line)
                    if stack[-1][0] == "":
                        raise TreeSyntaxError(f"word {tok!r} under an unlabelled bracket", source=source, line=line)
                    siblings.append(tok)
        if stack:
            symptom = "end"
            raise TreeSyntaxError(
                f"unbalanced '(': {len(stack)} bracket(s) still open at end of input",
                source=source,
                line=stack[-1][2],
            )
    except TreeSyntaxError as exc:
        if (hinted := with_bracket_hint(exc, text)) is not exc:  # STTS $( written as it is, a word f(x)
            raise hinted from None
        if restart is None or not stack or not symptom:
            raise
        then = "" if symptom == "end" else f"; then, at line {exc.line}: {exc.reason}"
        raise TreeSyntaxError(  # the error is a symptom, found at the next tree or later: name the open tree
            f"unbalanced '(': the tree that begins here is still open at line {restart}, which begins with '(' as "
            f"a new tree does (is a ')' missing before it?){then}", source=source, line=stack[0][2]) from None


def _unseen_space(line: str, end: int) -> str:
    """What to add to "a second word" when the space before the word at ``end`` of ``line`` is one a reader cannot
    see: a word holding U+3000 or a no-break space (``100\xa0km``) was two words with no word of why."""
    gap = line[:end][len(line[:end].rstrip()):]
    odd = next((c for c in gap if c not in " \t\r\n\f\v"), None)
    if odd is None:
        return ""
    name = unicodedata.name(odd, "").lower()
    return f" (the space before it is U+{ord(odd):04X}{f' {name}' if name else ''}, which a reader takes for " \
           "whitespace: a word holds none)"


#: A bracket glued to a label or word (``$(``, ``f(x)``) or one standing for a word (``()``): where a tree that
#: fails to read has one, the error says how brackets are written (STTS and FTB exports failed with "node '``' has
#: no children" or "empty bracket", naming no cause)
_GLUED_BRACKET = re.compile(r"[^\s()]\(|\)[^\s()]|\(\s*\)")
_BRACKET_HINT = "; a '(' or ')' in a label or word is written -LRB- or -RRB- in a bracketed tree ($-LRB-, f-LRB-x-RRB-)"


def with_bracket_hint(exc: TreeSyntaxError, text: str) -> TreeSyntaxError:
    """``exc`` with how brackets are written added, if ``text`` (the line it is about) has a bracket glued to a label
    or word; else ``exc`` itself."""
    if not _GLUED_BRACKET.search(text) or _BRACKET_HINT in exc.reason:
        return exc
    return TreeSyntaxError(exc.reason + _BRACKET_HINT, source=exc.source, line=exc.line)


def parse_tree(text: str, source: str = "<string>") -> Tree:
    """Parse exactly one tree."""
    trees = list(read_trees(text, source))
    if len(trees) != 1:
        raise TreeSyntaxError(f"expected one tree, found {len(trees)}", source=source, line=1)
    return trees[0]


def read_tree_file(path: str | Path) -> list[Tree]:
    """Read every tree of a file (``.mrg`` layout or one tree per line): :func:`read_tree_file_with_lines`
    without the lines."""
    return [tree for _line, tree in read_tree_file_with_lines(path)]


def read_tree_file_with_lines(path: str | Path) -> list[tuple[int, Tree]]:
    """``(line, tree)`` for every tree of a file, the line its opening bracket is on (for messages about a tree).

    The file is read as every file read whole is (:func:`glmnlp.treebank.fileio.read_text_file`: its byte order
    marks dropped, an input that is also standard output's file refused): a file that cannot be read (missing, a
    directory, no permission) raises :class:`~glmnlp.errors.InputError` naming it, and so do binary data and text
    that is not UTF-8, with the line (an encoding is no bracket); text that is not trees
    :class:`~glmnlp.errors.TreeSyntaxError` (an InputError too), with the line.
    """
    text = read_text_file(path)
    return list(read_trees_with_lines(text, str(path)))
