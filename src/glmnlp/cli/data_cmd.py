"""``glmnlp data``: write the cleaned train/dev/test splits of the bundled treebank sample.

A thin wrapper over :mod:`glmnlp.treebank.corpus` and :mod:`glmnlp.treebank.formats`. Every output text is built in
memory first and each file is then written atomically (temporary file + rename), so an
interrupted run leaves either the previous file or the new one, never half a file. Choice [R]: the
--out folder is checked first (a probe file is created in it, or where it will be created) and every
output path before the first file is written, so a folder that cannot be written, or a folder sitting
where a file goes, is one line ``error: PATH: reason`` and no file is written.
"""

from __future__ import annotations

from pathlib import Path

import click

from glmnlp.treebank.corpus import sample_tagged, sample_trees
from glmnlp.treebank.fileio import atomic_write_text, check_writable_file, check_writable_folder
from glmnlp.treebank.formats import write_conllu, write_tab, write_word_tag
from glmnlp.treebank.trees import to_bracket

_SPLITS = ("train", "dev", "test")
_TAGGED_WRITERS = {
    "word_tag": (".word_tag", write_word_tag),
    "conllu": (".conllu", write_conllu),
    "tab": (".tab", write_tab),
}


@click.command("data", context_settings={"help_option_names": ["-h", "--help"]})
@click.option(
    "--out",
    "out_dir",
    required=True,
    type=click.Path(file_okay=False, path_type=Path),
    help="Folder to write the split files into (created if missing; existing files are replaced).",
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
    type=click.Path(file_okay=False, exists=True, path_type=Path),
    help="Also write GUM's train and dev partitions from this folder of its constituency trees "
    "(train/ and dev/ of GUM_*.ptb files) as gum_train.trees and gum_dev.trees.",
)
def data(out_dir: Path, tagged_formats: tuple[str, ...], splits: tuple[str, ...], gum_dir: Path | None) -> None:
    """Write the bundled Penn Treebank sample, cleaned and split by file.

    Splits: train = wsj_0001-0159, dev = wsj_0160-0179, test = wsj_0180-0199. Trees are cleaned as
    for parsing (no -NONE- elements, no function tags or indices, unary TOP root) and written one
    per line to SPLIT.trees; --tagged adds SPLIT.word_tag (word/TAG lines), SPLIT.conllu or
    SPLIT.tab. With --gum DIR, GUM's train and dev partitions (not bundled: CC BY 4.0
    annotations, texts under their own licences) are cleaned the same way (ROOT -> TOP, function
    labels dropped) and written as gum_train.* and gum_dev.* (--split train/dev selects them too).
    Counts of sentences and tokens go to stderr.

    \b
    Examples:
      glmnlp data --out splits/
      glmnlp data --out splits/ --tagged word_tag --tagged conllu
      glmnlp data --out dev_only/ --split dev
      glmnlp data --out splits/ --gum gum_const/
    """
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
        from glmnlp.treebank.formats import TaggedSentence
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
    for path, text in outputs:
        atomic_write_text(path, text)
    for line in report:
        click.echo(line, err=True)
    click.echo(f"wrote {len(outputs)} file(s) to {out_dir}", err=True)
