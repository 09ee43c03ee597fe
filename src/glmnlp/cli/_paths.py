"""An output file that is one of the command's input files, and an input file given twice: one check for every
command that reads files and writes a file.

``glmnlp data --clean --out raw.mrg raw.mrg`` replaced its raw treebank by the cleaned trees (function tags and
``-NONE-`` elements gone for good) with status 0, and ``measures -i in.png --plot in.png`` was refused by a check of
its own. Our choices:

* **The same file, however it is named**: ``os.path.samefile`` (a symlink, a hard link, ``./raw.mrg``), where both
  exist; an output that does not exist yet is no input. ``-`` (stdin) is compared by the regular file behind it
  (:func:`glmnlp.treebank.fileio.file_identity`).
* **A usage error (status 2)** naming the output option and the input it would replace, before anything is read:
  the two names on the command line contradict each other, as other contradicting options do.
* **An input file given twice is refused too** (:func:`check_distinct_files`), not read once with a warning:
  ``data --clean --out dup.trees w3.mrg w3.mrg`` wrote every tree twice, a training file with duplicated trees that
  ``parser train`` took without a word; a shell pattern that names a file twice is a mistake to see, and reading
  it once would leave the counts on stderr different from the FILEs given.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Sequence

import click

__all__ = ["check_distinct_files", "check_not_an_input", "same_file"]

_Path = str | os.PathLike[str]


def same_file(a: _Path, b: _Path) -> bool:
    """Whether ``a`` and ``b`` both exist and are the same file (a link to it, another spelling of its name)."""
    try:
        return os.path.samefile(a, b)
    except (OSError, ValueError):  # one of them missing (a new output), or a name the system refuses
        return False


def check_not_an_input(output: _Path, option: str, inputs: Iterable[tuple[str, _Path | None]], replaced: str) -> None:
    """A usage error when the file ``output`` (given to ``option``) is one of ``inputs``, pairs of (what the input
    is, its path or None): ``"{output} is the {what}: {replaced}"``; ``-`` is standard input, compared by the regular
    file it reads (``measures --plot in.png < in.png``: ``is standard input's file``)."""
    from glmnlp.treebank.fileio import file_identity

    for what, path in inputs:
        if path is None:
            continue
        if os.fspath(path) == "-":
            if (read := file_identity()) is not None and read == file_identity(os.fspath(output)):
                raise click.BadParameter(f"{os.fspath(output)} is standard input's file: {replaced}",
                                         param_hint=f"'{option}'")
        elif same_file(output, path):
            raise click.BadParameter(f"{os.fspath(output)} is {what}: {replaced}", param_hint=f"'{option}'")


def check_distinct_files(paths: Sequence[_Path], what: str, twice: str) -> None:
    """A usage error when one file is given twice among ``paths`` (the same file however named: its device and
    inode), naming both; ``what`` names the arguments (``FILE``), ``twice`` says what would follow. One ``stat`` a
    file, for thousands of them."""
    seen: dict[tuple[int, int], _Path] = {}
    for path in paths:
        try:
            found = os.stat(path)
        except (OSError, ValueError):  # a file that cannot be read: the reader says so
            continue
        key = (found.st_dev, found.st_ino)
        if key in seen:
            first, again = os.fspath(seen[key]), os.fspath(path)
            also = "" if first == again else f" (as {first} and as {again})"
            raise click.BadParameter(f"{again} is given twice{also}: {twice}", param_hint=what)
        seen[key] = path
