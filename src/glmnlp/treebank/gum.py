"""GUM constituency trees: the reader for the ``const/*.ptb`` files of the GUM corpus.

The Georgetown University Multilayer corpus (GUM; Zeldes 2017, CC BY 4.0 annotations) ships Penn
Treebank-style constituent trees for each document, ``GUM_<genre>_<name>.ptb``. glmnlp uses them as
the second half of its proxy for a full-size treebank (PTB sample train + GUM train -> GUM dev,
13,620 training trees), to measure what only shows with more and more varied data.

What a file holds, and what :func:`read_gum_file` does with it:

* Trees with a ``ROOT`` root bracket over exactly one phrase, pretty-printed over several lines; a
  very deep tree may put a word alone on a line. Trees are separated by a blank line, but not
  always: a few files start the next ``(ROOT`` on the line that closes the previous tree, so the
  reader splits on the brackets, not on blank lines.
* PTB tags (plus ``HYPH``, ``NFP``, ``GW`` ...), ``-LRB-``/``-RRB-`` both as tags and as words, and
  function labels on phrases (``NP-SBJ``, ``PP-LOC-PRD``, ``S-NOM-SBJ``).
* No empty elements (``-NONE-``); if one occurs it is removed like in the WSJ files.

Cleaning (:func:`clean_gum_tree`) is exactly the WSJ cleaning of
:func:`glmnlp.treebank.preprocess.clean_tree` (function labels and indices stripped, ``-NONE-``
removed) with the ``ROOT`` bracket playing the part of the ``.mrg`` wrapper: it becomes the unary
``TOP`` root. Nothing is repaired: a root other than ``ROOT``, a ``ROOT`` over several phrases or
over a bare word, malformed brackets or a file without trees raise an error naming the file and the
line where the offending tree starts (:class:`~glmnlp.errors.TreeSyntaxError` /
:class:`~glmnlp.errors.InputError`).

The split is GUM's official one (``splits.md`` of the corpus): a ``train`` and a ``dev`` folder of
``.ptb`` files, read in file-name order (:func:`gum_trees`). :func:`proxy_trees` builds the proxy
corpus: PTB sample train (:mod:`glmnlp.treebank.corpus`) followed by GUM train, and GUM dev.

Licence: GUM's annotations are CC BY 4.0; the texts carry their own licences (CC BY, CC BY-SA,
CC BY-NC-SA by genre). Anything shipped that contains or is trained on these trees must carry
the attribution and licence notice of the corpus (its ``LICENSE.txt``).
"""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from glmnlp.errors import InputError, TreeSyntaxError
from glmnlp.treebank.corpus import sample_trees
from glmnlp.treebank.fileio import read_text_file
from glmnlp.treebank.preprocess import TOP, clean_tree
from glmnlp.treebank.trees import Tree, read_trees_with_lines

__all__ = ["GUM_ROOT", "clean_gum_tree", "gum_files", "gum_trees", "proxy_trees", "read_gum", "read_gum_file"]

#: the root label of every GUM tree
GUM_ROOT = "ROOT"

def read_gum(text: str, source: str = "<string>", *, clean: bool = True) -> list[Tree]:
    """The trees of the text of a GUM ``.ptb`` file: cleaned (``TOP`` root) by default, else as written.

    Raises :class:`TreeSyntaxError` for malformed brackets (with the line), a root other than
    ``ROOT`` or a ``ROOT`` that is not over exactly one phrase (with the line where the tree starts),
    and :class:`InputError` for a text without any tree.
    """
    trees = list(read_trees_with_lines(text, source))
    if not trees:
        raise InputError("no tree in file", source=source)
    out: list[Tree] = []
    for line, tree in trees:
        if tree.label != GUM_ROOT:
            raise TreeSyntaxError(f"tree root is {tree.label!r}, expected {GUM_ROOT!r}", source=source, line=line)
        if len(tree.children) != 1 or isinstance(tree.children[0], str):
            what = "a word" if tree.is_preterminal else f"{len(tree.children)} children"
            raise TreeSyntaxError(
                f"{GUM_ROOT} bracket holds {what}; expected exactly one phrase", source=source, line=line
            )
        if clean:
            try:
                tree = clean_gum_tree(tree)
            except InputError as exc:  # a tree made only of empty elements
                raise TreeSyntaxError(exc.reason, source=source, line=line) from None
        out.append(tree)
    return out


def clean_gum_tree(tree: Tree) -> Tree:
    """A raw GUM tree cleaned like the WSJ trees: ``ROOT`` -> unary ``TOP``, function labels stripped.

    Equal to :func:`glmnlp.treebank.preprocess.clean_tree` of the tree with the ``ROOT`` bracket in
    the place of the ``.mrg`` wrapper ``( ... )``.
    """
    if tree.label != GUM_ROOT:
        raise InputError(f"tree root is {tree.label!r}, expected {GUM_ROOT!r}")
    return clean_tree(Tree(TOP, tree.children))


def read_gum_file(path: str | Path, *, clean: bool = True) -> list[Tree]:
    """The trees of one GUM ``.ptb`` file (see :func:`read_gum`)."""
    return read_gum(read_text_file(path), str(path), clean=clean)


def gum_files(folder: str | Path, split: Literal["train", "dev"] | None = None) -> list[Path]:
    """The ``.ptb`` files of a GUM partition folder, in file-name order; an error if there are none.

    With ``split``, ``folder`` is GUM's root and the partition is ``folder/split`` (a root that is not a folder is
    named as given, not as ``folder/split``)."""
    folder = Path(folder)
    if split is not None:
        if split not in ("train", "dev"):
            raise ValueError(f"unknown GUM split {split!r}; expected 'train' or 'dev'")
        if not folder.is_dir():
            raise InputError("not a folder", source=str(folder))
        folder = folder / split
    if not folder.is_dir():
        raise InputError("not a folder", source=str(folder))
    files = sorted(folder.glob("*.ptb"))
    if not files:
        raise InputError("no .ptb files in folder", source=str(folder))
    return files


def gum_trees(root: str | Path, split: Literal["train", "dev"], *, clean: bool = True) -> list[Tree]:
    """Every tree of GUM partition ``split`` (the folder ``root/split``), file by file in name order."""
    return [tree for path in gum_files(root, split) for tree in read_gum_file(path, clean=clean)]


def proxy_trees(gum_root: str | Path, split: Literal["train", "dev"]) -> list[Tree]:
    """The proxy corpus: ``train`` = PTB sample train then GUM train (13,620 trees); ``dev`` = GUM dev.

    Trees are cleaned (unary ``TOP`` root, no function labels).
    """
    if split == "train":
        return sample_trees("train") + gum_trees(gum_root, "train")
    return gum_trees(gum_root, split)
