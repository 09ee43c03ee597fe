"""The bundled Penn Treebank sample and its standard split by file.

glmnlp ships WSJ files wsj_0001 .. wsj_0199 (3,914 trees; see ``data/ptb_sample/SOURCE.md``) so
that the tagger and the parser can be trained, tested and benchmarked without the licensed full
treebank. The full-treebank splits of the paper (C&R 2004 §5: train 2-21, dev 24, test 23; Collins
2002: 0-18 / 19-21 / 22-24) cannot be formed from two sections, so the sample is split by file,
contiguously, keeping whole documents together (our choice):

======  ===================  =====
split   files                trees
======  ===================  =====
train   wsj_0001 - wsj_0159  3,396
dev     wsj_0160 - wsj_0179    273
test    wsj_0180 - wsj_0199    245
======  ===================  =====

These are the splits of the EVALB reference files ``tests/data/evalb/sample_{dev,test}.gold``.
Files are found with :mod:`importlib.resources`, so the sample works from an installed wheel too.
Trees are read once per process and cached (trees are immutable, so sharing them is safe).
"""

from __future__ import annotations

from functools import cache
from importlib import resources
from pathlib import Path
from typing import Literal

from glmnlp.treebank.formats import TaggedSentence
from glmnlp.treebank.preprocess import clean_tree, tagged_words
from glmnlp.treebank.trees import Tree, read_tree_file

__all__ = ["SPLITS", "Split", "sample_dir", "sample_files", "sample_trees", "sample_tagged"]

Split = Literal["train", "dev", "test", "all"]

#: split name -> inclusive range of WSJ file numbers
SPLITS: dict[str, tuple[int, int]] = {
    "train": (1, 159),
    "dev": (160, 179),
    "test": (180, 199),
    "all": (1, 199),
}


def _check_split(split: str) -> tuple[int, int]:
    try:
        return SPLITS[split]
    except KeyError:
        raise ValueError(f"unknown split {split!r}; expected one of {', '.join(SPLITS)}") from None


def sample_dir() -> Path:
    """The folder holding the bundled ``wsj_NNNN.mrg`` files."""
    folder = resources.files("glmnlp").joinpath("data", "ptb_sample")
    return Path(str(folder))


def sample_files(split: Split) -> list[Path]:
    """The ``.mrg`` files of ``split``, in document order."""
    first, last = _check_split(split)
    folder = sample_dir()
    files = [folder / f"wsj_{number:04d}.mrg" for number in range(first, last + 1)]
    missing = [f.name for f in files if not f.is_file()]
    if missing:
        raise FileNotFoundError(f"bundled treebank sample is incomplete: missing {', '.join(missing[:5])} in {folder}")
    return files


@cache
def _raw_file(path: Path) -> tuple[Tree, ...]:
    return tuple(read_tree_file(path))


@cache
def _clean_file(path: Path) -> tuple[Tree, ...]:
    return tuple(clean_tree(tree) for tree in _raw_file(path))


def sample_trees(split: Split, clean: bool = True) -> list[Tree]:
    """The trees of ``split``: cleaned (:func:`glmnlp.treebank.preprocess.clean_tree`) by default, else as in the files."""
    load = _clean_file if clean else _raw_file
    return [tree for path in sample_files(split) for tree in load(path)]


def sample_tagged(split: Split) -> list[TaggedSentence]:
    """Gold words and POS tags of the cleaned trees of ``split`` (no ``-NONE-`` elements)."""
    return [TaggedSentence(*tagged_words(tree)) for tree in sample_trees(split)]
