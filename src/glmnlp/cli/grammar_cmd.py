"""``glmnlp grammar``: the parser's grammar (left-child chains and triples) and Table 1 of C&R 2004.

``glmnlp grammar table1`` is a thin wrapper over :func:`glmnlp.parser.grammar.table1`: it reads (or takes
the bundled sample's) training and held-out trees, cleans them, and prints the number of distinct
left-child chains of length > 2 with and without the FSLC transform and the "seen more than once"
filter, plus the held-out out-of-vocabulary rates (C&R 2004 §3.1, Table 1). A file without trees, or with
a tree that cannot be cleaned, is an error at its ``file[:line]``.
"""

from __future__ import annotations

from pathlib import Path

import click

from glmnlp.cli._params import InputFile, kept_root, note_rerooted
from glmnlp.treebank.corpus import SPLITS, sample_trees
from glmnlp.errors import ConfigError, InputError
from glmnlp.parser.grammar import ChainTable, table1
from glmnlp.treebank.preprocess import clean_tree
from glmnlp.parser.transform import FslcConfig
from glmnlp.treebank.trees import Tree, read_tree_file_with_lines



@click.group("grammar", context_settings={"help_option_names": ["-h", "--help"]})
def grammar() -> None:
    """The incremental parser's grammar: allowable chains and triples (C&R 2004, section 3.1).

    \b
    Examples:
      glmnlp grammar table1
      glmnlp grammar table1 --left-recursion-only
      glmnlp grammar table1 --train train.trees --heldout dev.trees
    """


def _read(paths: tuple[Path, ...]) -> list[Tree]:
    """The cleaned trees of every file; a file without trees, or a tree that cannot be cleaned, is an
    ``InputError`` at its file (and line); trees put under a new TOP are noted on stderr (``note_rerooted``)."""
    out: list[Tree] = []
    roots: list[tuple[str, str]] = []
    for path in paths:
        trees = read_tree_file_with_lines(path)
        if not trees:
            raise InputError("no trees in this file", source=str(path))
        for i, (line, tree) in enumerate(trees):
            try:
                out.append(clean_tree(tree))
            except InputError as exc:
                raise InputError(f"tree {i + 1}: {exc.reason}", source=str(path), line=line) from None
            roots.append((kept_root(tree, out[-1]), f"{path}:{line}"))
    note_rerooted(roots)
    return out


def _describe(paths: tuple[Path, ...], split: str) -> str:
    if paths:
        return ", ".join(str(p) for p in paths)
    lo, hi = SPLITS[split]
    return f"bundled sample {split} split (wsj_{lo:04d}-{hi:04d})"


def format_table1(tables: dict[str, ChainTable], min_count: int) -> str:
    """The Table 1 report as printed by ``glmnlp grammar table1``."""
    plain, fslc = tables["no FSLC"], tables["FSLC"]
    seen = "seen > 1" if min_count == 2 else f"seen >= {min_count}"
    rows: list[tuple[str, str, str]] = [
        ("distinct chains of length > 2", "no FSLC", "FSLC"),
        ("  training set, all", str(plain.train_long), str(fslc.train_long)),
        (f"  training set, {seen}", str(plain.train_long_repeated), str(fslc.train_long_repeated)),
        ("  held-out set, all", str(plain.heldout_long), str(fslc.heldout_long)),
        (f"  held-out set, {seen}", str(plain.heldout_long_repeated), str(fslc.heldout_long_repeated)),
        ("held-out OOV per 1000 words", "", ""),
        (f"  chain unseen ({seen} filter)", f"{plain.chain_oov:.2f}", f"{fslc.chain_oov:.2f}"),
        ("  chain unseen (no filter)", f"{plain.chain_oov_unfiltered:.2f}", f"{fslc.chain_oov_unfiltered:.2f}"),
        ("  triple unseen", f"{plain.triple_oov:.2f}", f"{fslc.triple_oov:.2f}"),
        ("held-out sentences derivable (%)", f"{plain.sentences_covered:.1f}", f"{fslc.sentences_covered:.1f}"),
    ]
    return "\n".join(f"{a:<38}{b:>9}{c:>9}" for a, b, c in rows)


@grammar.command("table1")
@click.option(
    "--train",
    "train_files",
    multiple=True,
    type=InputFile(path_type=Path),
    help="Training trees (bracketed, any layout; repeatable). Default: the bundled sample's train split.",
)
@click.option(
    "--heldout",
    "heldout_files",
    multiple=True,
    type=InputFile(path_type=Path),
    help="Held-out trees (repeatable). Default: the bundled sample's dev split.",
)
@click.option(
    "--min-count",
    default=2,
    show_default=True,
    type=click.IntRange(min=1),
    help="Keep chains longer than 2 only if seen at least this often in training (2 = 'more than once').",
)
@click.option(
    "--pair",
    "pairs",
    multiple=True,
    nargs=2,
    metavar="PARENT CHILD",
    help="Flatten this (parent, left-child) pair besides left recursion (repeatable; replaces the default SINV S).",
)
@click.option(
    "--left-recursion-only",
    is_flag=True,
    help="Flatten left-recursive productions A -> A ... only (no extra pairs).",
)
def table1_cmd(
    train_files: tuple[Path, ...],
    heldout_files: tuple[Path, ...],
    min_count: int,
    pairs: tuple[tuple[str, str], ...],
    left_recursion_only: bool,
) -> None:
    """Reproduce Table 1: long left-child chains with/without FSLC and the held-out OOV rate.

    Trees are cleaned as for parsing (no -NONE- elements or function tags, unary TOP root). The
    FSLC columns use left recursion plus the (SINV, S) pair by default; held-out rates are
    measured against the grammar induced from the training trees.

    \b
    Examples:
      glmnlp grammar table1
      glmnlp grammar table1 --left-recursion-only
      glmnlp grammar table1 --train train.trees --heldout dev.trees --min-count 3
    """
    pairs = tuple(dict.fromkeys(pairs))  # a pair given twice was listed twice in the table's FSLC line
    if left_recursion_only and pairs:
        raise click.UsageError("--pair and --left-recursion-only exclude each other")
    if left_recursion_only:
        config = FslcConfig(extra_pairs=())
    elif pairs:
        try:
            config = FslcConfig(extra_pairs=tuple((p, c) for p, c in pairs))
        except ConfigError as exc:
            raise click.BadParameter(str(exc), param_hint="'--pair'") from None
    else:
        config = FslcConfig()
    train = _read(train_files) if train_files else sample_trees("train")
    heldout = _read(heldout_files) if heldout_files else sample_trees("dev")
    if pairs:  # a pair of labels the trees do not have flattened nothing, and the table said it was applied
        labels = {node.label for tree in train for node in tree.subtrees()}
        if missing := sorted({label for pair in pairs for label in pair if label not in labels}):
            raise click.BadParameter(f"{', '.join(missing)}: no node of the training trees has "
                                     f"{'this label' if len(missing) == 1 else 'these labels'}", param_hint="'--pair'")
    tables = table1(train, heldout, config=config, min_count=min_count)
    extra = ", ".join(f"{p}/{c}" for p, c in config.extra_pairs)
    click.echo("Table 1 (Collins & Roark 2004): left-child chains and held-out coverage")
    click.echo(f"FSLC: left recursion{' + ' + extra if extra else ' only'}; gold POS tags")
    click.echo(f"training: {_describe(train_files, 'train')}: {len(train)} sentences, {tables['FSLC'].train_words} words")
    click.echo(
        f"held-out: {_describe(heldout_files, 'dev')}: {len(heldout)} sentences, {tables['FSLC'].heldout_words} words"
    )
    click.echo("")
    click.echo(format_table1(tables, min_count))
