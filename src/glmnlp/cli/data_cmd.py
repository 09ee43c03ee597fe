"""``glmnlp data``: write the cleaned train/dev/test splits of the bundled treebank sample, or clean treebank files.

A thin wrapper over :mod:`glmnlp.treebank.corpus`, :mod:`glmnlp.treebank.preprocess` and
:mod:`glmnlp.treebank.formats`. Every output text is built in memory first and each file is then written
atomically (temporary file + rename), so an interrupted run leaves either the previous file or the new one,
never half a file. Our choices:

* **Output checked first.** The --out folder is checked first (a probe file is created in it, or where it
  will be created) and every output path before the first file is written, so a folder that cannot be
  written, or a folder sitting where a file goes, is one line ``error: PATH: reason`` and no file is written.
  A file that cannot be written after all (a full disk) is the same line; a folder this run made is then
  removed with the files written before it, so a new folder holds every split or is not there.
* **Cleaning one's own treebank is a mode of this command**, ``glmnlp data --clean FILE... --out OUT.trees``,
  not a new command: ``data`` is where cleaned trees come from (``parser train`` names it when it refuses
  raw trees), and the bundled sample is cleaned by the same function. FILEs are arguments, so a shell
  pattern (``wsj/0[2-9]/*.mrg wsj/1?/*.mrg wsj/2[01]/*.mrg``) names a whole training section; their trees
  go, in the order given, to one file, as ``parser train`` takes one --train and one --dev file (run the
  command once for each). --out stays the one output option and names that file; --split, --tagged and
  --gum are about the bundled sample and GUM and are refused with --clean (usage error, status 2).
* **Exactly the library's cleaning.** Each tree goes through
  :func:`glmnlp.treebank.preprocess.clean_tree`, the function the bundled sample is cleaned with, and
  nothing else: the ``.mrg`` wrapper ``( (S ...) )``, a ``TOP`` root and a ``ROOT`` root over one phrase
  become the unary ``TOP``, and cleaned trees come out unchanged, so cleaning twice equals cleaning once. A tree
  with another root (``S``, a ``ROOT`` over several phrases) is put under a new ``TOP`` root, as
  :func:`clean_tree` does; a note on stderr says how many and where the first one is, since a root kept as a
  phrase is seldom what a user wants.
* **Malformed input stops; an unusable tree is dropped.** Binary data or text that is not UTF-8
  (:func:`glmnlp.treebank.fileio.decoded_text`), bad brackets (the tree reader), a file that cannot be read
  or holds no tree: one line ``error: file:line: reason``, status 1, nothing written. A well-formed tree
  that :func:`clean_tree` refuses (only ``-NONE-`` elements, a root bracket over several phrases or over a
  word, a label with no category, a label the parser keeps for itself below the root) is dropped and listed
  on stderr as ``file:line: tree N dropped: reason`` (the line where the tree starts; N counts the trees of
  that file from 1): one such tree should not stop
  a treebank of tens of thousands from being cleaned, and nothing is dropped unsaid. If no tree is left,
  that is an error and nothing is written. Counts of files and trees read, written and dropped go to stderr.
* **--out is never one of the FILEs, and no FILE is given twice** (:mod:`glmnlp.cli._paths`; the same file through a
  link or another spelling too): a usage error before anything is read. Cleaned in place, a raw treebank lost its
  function tags and ``-NONE-`` elements for good; a FILE given twice had its trees written twice. All input is still
  read before anything is written.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from functools import partial
from pathlib import Path

import click

from glmnlp.cli._params import InputFile, NonEmptyPath, kept_root, note_rerooted
from glmnlp.cli._paths import check_distinct_files, check_not_an_input
from glmnlp.errors import InputError
from glmnlp.treebank.corpus import sample_tagged, sample_trees
from glmnlp.treebank.fileio import (atomic_write_text, check_output_file, check_writable_file, check_writable_folder,
                                    missing_folders, remove_folders)
from glmnlp.treebank.formats import TaggedSentence, write_conllu, write_tab, write_word_tag
from glmnlp.treebank.preprocess import clean_tree
from glmnlp.treebank.trees import Tree, read_tree_file_with_lines, to_bracket

_SPLITS = ("train", "dev", "test")
_TAGGED_WRITERS: dict[str, tuple[str, Callable[[Iterable[TaggedSentence]], str]]] = {
    "word_tag": (".word_tag", write_word_tag),
    "conllu": (".conllu", partial(write_conllu, first_id=1)),  # with the # sent_id and # text UD's validator wants
    "tab": (".tab", write_tab),
}


@click.command("data", context_settings={"help_option_names": ["-h", "--help"]})
@click.argument("files", metavar="[FILE]...", nargs=-1, type=InputFile(path_type=Path))
@click.option(
    "--out",
    "out_dir",
    required=True,
    type=NonEmptyPath(path_type=Path),
    help="Folder to write the split files into (created if missing; existing files are replaced); "
    "with --clean, the file to write the cleaned trees to (not one of the FILEs).",
)
@click.option(
    "--clean",
    is_flag=True,
    help="Clean the bracketed treebank FILEs (.mrg files of several trees, or one tree per line) into --out, "
    "one tree per line, instead of writing the bundled sample.",
)
@click.option(
    "--tagged",
    "tagged_formats",
    multiple=True,
    type=click.Choice(sorted(_TAGGED_WRITERS)),
    help="Also write the gold words/tags of each split in this format (repeatable).",
)
@click.option(
    "--split",
    "splits",
    multiple=True,
    type=click.Choice(_SPLITS),
    help="Write only this split (repeatable; default: train, dev and test).",
)
@click.option(
    "--gum",
    "gum_dir",
    default=None,
    type=NonEmptyPath(path_type=Path),
    help="Also write GUM's train and dev partitions from this folder of its constituency trees "
    "(train/ and dev/ of GUM_*.ptb files) as gum_train.trees and gum_dev.trees.",
)
def data(
    files: tuple[Path, ...],
    out_dir: Path,
    clean: bool,
    tagged_formats: tuple[str, ...],
    splits: tuple[str, ...],
    gum_dir: Path | None,
) -> None:
    """Write the bundled Penn Treebank sample, cleaned and split by file, or clean treebank FILEs.

    Splits: train = wsj_0001-0159, dev = wsj_0160-0179, test = wsj_0180-0199. Trees are cleaned as
    for parsing (no -NONE- elements, no function tags or indices, unary TOP root) and written one
    per line to SPLIT.trees; --tagged adds SPLIT.word_tag (word/TAG lines), SPLIT.conllu or
    SPLIT.tab. With --gum DIR, GUM's train and dev partitions (not bundled: CC BY 4.0
    annotations, texts under their own licences) are cleaned the same way (ROOT -> TOP, function
    labels dropped) and written as gum_train.* and gum_dev.* (--split train/dev selects them too).
    Counts of sentences and tokens go to stderr.

    With --clean, the trees of the bracketed treebank FILEs (.mrg files: several trees each, often
    in an unlabelled root bracket; or one tree per line) are cleaned the same way (a TOP root is
    kept, a ROOT over one phrase becomes TOP, another root X becomes (TOP X)) and written, in order, one
    per line to the file --out, which parser train then takes. Malformed input (bad brackets, binary or
    non-UTF-8 data) is an error at file:line and nothing is written; a tree that cannot be cleaned (only
    -NONE- elements, a root over several phrases or TOP over a word, a label with no category, TOP, <END>
    or <NULL> below the root) is dropped and listed at file:line. Counts of trees read, written and dropped
    go to stderr.

    \b
    Examples:
      glmnlp data --out splits/
      glmnlp data --out splits/ --tagged word_tag --tagged conllu
      glmnlp data --out dev_only/ --split dev
      glmnlp data --out splits/ --gum gum_const/
      glmnlp data --clean wsj/0[2-9]/*.mrg wsj/1?/*.mrg wsj/2[01]/*.mrg --out train.trees
      glmnlp data --clean wsj/22/*.mrg --out dev.trees
    """
    if str(out_dir) == "-":  # it made a file or a folder named "-", which `--clean -` then read as an input
        raise click.UsageError("--out - : data writes files, not standard output: give a file or folder name")
    if clean:
        if not files:
            raise click.UsageError("--clean needs the treebank FILEs to clean")
        if tagged_formats or splits or gum_dir is not None:
            raise click.UsageError("--tagged, --split and --gum write the bundled sample and GUM; not with --clean")
        _clean_files(files, out_dir)
        return
    if files:
        raise click.UsageError("FILE arguments are cleaned with --clean: glmnlp data --clean FILE... --out OUT.trees")
    if gum_dir is not None and splits and not {"train", "dev"} & set(splits):  # it wrote the sample's test only
        raise click.UsageError("--gum writes GUM's train and dev partitions; not with --split test alone")
    check_writable_folder(out_dir)
    chosen = [s for s in _SPLITS if s in splits] if splits else list(_SPLITS)
    outputs: list[tuple[Path, str]] = []
    report: list[str] = []
    for split in chosen:
        trees = sample_trees(split)  # type: ignore[arg-type]
        tagged = sample_tagged(split)  # type: ignore[arg-type]
        outputs.append((out_dir / f"{split}.trees", "".join(to_bracket(t) + "\n" for t in trees)))
        for fmt in sorted(set(tagged_formats)):
            suffix, writer = _TAGGED_WRITERS[fmt]
            outputs.append((out_dir / f"{split}{suffix}", writer(tagged)))
        tokens = sum(len(s) for s in tagged)
        report.append(f"{split:<5}  {len(trees):>5} sentences  {tokens:>6} tokens")
    if gum_dir is not None:
        from glmnlp.treebank.gum import gum_trees

        for split in ("train", "dev"):
            if splits and split not in splits:
                continue
            trees = gum_trees(gum_dir, split)  # type: ignore[arg-type]
            tagged = [TaggedSentence(tuple(t.leaves()), tuple(t.tags())) for t in trees]
            outputs.append((out_dir / f"gum_{split}.trees", "".join(to_bracket(t) + "\n" for t in trees)))
            for fmt in sorted(set(tagged_formats)):
                suffix, writer = _TAGGED_WRITERS[fmt]
                outputs.append((out_dir / f"gum_{split}{suffix}", writer(tagged)))
            tokens = sum(len(s) for s in tagged)
            report.append(f"gum_{split:<5}  {len(trees):>5} sentences  {tokens:>6} tokens")
    for path, _text in outputs:
        check_writable_file(path)
    _write_all(outputs, out_dir)
    for line in report:
        click.echo(line, err=True)
    click.echo(f"wrote {len(outputs)} file(s) to {out_dir}", err=True)


def _read_raw(path: Path) -> list[tuple[int, Tree]]:
    """``(line, tree)`` for the trees of a treebank file, as written; ``InputError`` at file:line for bad data."""
    trees = read_tree_file_with_lines(path)
    if not trees:
        raise InputError("no trees in this file", source=str(path))
    return trees


def _write_all(outputs: list[tuple[Path, str]], out_dir: Path) -> None:
    """Write each output atomically. When one cannot be written (a full disk) and this run made ``out_dir``, the
    files written before it and the folders made for it (its new parents too) are removed: a new folder holds all
    the splits or is not there. In a folder that existed, the files written stay (each is whole: the new file or
    the old one)."""
    made = missing_folders(out_dir)
    written: list[Path] = []
    try:
        for path, text in outputs:
            atomic_write_text(path, text)
            written.append(path)
    except BaseException:
        if made:
            for path in written:
                path.unlink(missing_ok=True)
            remove_folders(made)
        raise


#: what a raw treebank file is named (the PTB's .mrg, GUM's .ptb): a raw one is never replaced by --clean's output
_RAW_SUFFIXES = (".mrg", ".ptb")


def _cleaned(path: Path) -> bool:
    """Whether ``path`` holds cleaned trees only (an earlier run's output, replaced again), not a raw treebank's."""
    from glmnlp.parser.grammar import first_problem

    try:
        return first_problem([tree for _line, tree in read_tree_file_with_lines(path)]) is None
    except InputError:
        return False


def _clean_files(files: tuple[Path, ...], out: Path) -> None:
    """``glmnlp data --clean``: every tree of ``files`` cleaned, one per line, to ``out`` (module docstring)."""
    check_not_an_input(out, "--out", (("one of the FILEs", f) for f in files),
                       "the cleaned trees would replace the trees read from it; write them to a new file (name.trees)")
    check_distinct_files(files, "'FILE'", "its trees would be written twice")
    check_output_file(out)
    if out.suffix.lower() in _RAW_SUFFIXES and out.is_file() and not _cleaned(out):  # `--out wsj/*.mrg`: the shell
        raise click.UsageError(  # made the first .mrg --out
            f"--out {out} is a raw treebank file ({out.suffix}) and not one of the FILEs: it would be replaced by the "
            "others' cleaned trees (did the shell expand --out wsj/*.mrg?); write the cleaned trees to a new file "
            "(name.trees)")
    lines: list[str] = []
    dropped: list[str] = []
    roots: list[tuple[str, str]] = []
    read = 0
    for path in files:  # every file is read (and cleaned: raw trees are not kept) before anything is written
        trees = _read_raw(path)
        read += len(trees)
        for number, (line, tree) in enumerate(trees, start=1):
            try:
                cleaned = clean_tree(tree)
            except InputError as exc:
                dropped.append(f"{path}:{line}: tree {number} dropped: {exc.reason}")
                continue
            roots.append((kept_root(tree, cleaned), f"{path}:{line}"))
            lines.append(to_bracket(cleaned) + "\n")
    for message in dropped:
        click.echo(message, err=True)
    if not lines:
        raise InputError(f"not written: all {read} tree(s) read were dropped (listed above)", source=str(out))
    atomic_write_text(out, "".join(lines))
    note_rerooted(roots)
    click.echo(
        f"read {read} tree(s) from {len(files)} file(s); wrote {len(lines)} to {out}; dropped {len(dropped)}"
        + (" (listed above)" if dropped else ""),
        err=True,
    )
