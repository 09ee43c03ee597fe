"""``glmnlp evalb``: score test parses against gold trees with EVALB semantics, in-process.

A thin wrapper over :func:`glmnlp.treebank.evalb.score_files` and :func:`glmnlp.treebank.evalb.format_report`: the
report goes to stdout in the layout of the reference evalb program, its per-sentence error
messages (``ID : reason``) to stderr. ``--demo`` scores the reference parses bundled in
``glmnlp/data/evalb``.
"""

from __future__ import annotations

import dataclasses
import unicodedata
from collections.abc import Iterable
from contextlib import ExitStack
from importlib import resources
from pathlib import Path

import click

from glmnlp.cli._params import InputFile, one_line
from glmnlp.treebank.evalb import (COLLINS_PARAMS, STATUS_ERROR, EvalbAbortError, EvalbCounts, EvalbParams,
                                   SentenceResult, format_params, format_report, format_rows, read_params, score_files)

_DEMO_FILES = ("sample_test.gold", "sample_test.roark")



@click.command("evalb", context_settings={"help_option_names": ["-h", "--help"]})
@click.argument("gold", required=False, type=InputFile(path_type=Path))
@click.argument("test", required=False, type=InputFile(path_type=Path))
@click.option(
    "-p",
    "--params",
    "prm",
    type=InputFile(path_type=Path),
    multiple=True,
    help="EVALB parameter file (.prm), once. Default: the settings of COLLINS.prm. Its QUOTE_LABEL lines are read "
    "but quotes are not re-inserted (a sentence whose sides differ in length stays an error; counted on stderr).",
)
@click.option("-c", "--cutoff-len", type=click.IntRange(min=0), help="Override CUTOFF_LEN (evalb -c).")
@click.option("-e", "--max-error", type=click.IntRange(min=0), help="Override MAX_ERROR (evalb -e).")
@click.option(
    "--strip-punct",
    is_flag=True,
    help="Remove every token with no letter or digit from both GOLD and TEST before scoring "
    "(for treebanks whose punctuation tags differ from the PTB's, e.g. GUM).",
)
@click.option("--summary-only", is_flag=True, help="Print only the two summary blocks, not the per-sentence table.")
@click.option("--demo", is_flag=True, help="Score the bundled reference parses of the sample test split.")
@click.option("--show-params", is_flag=True,
              help="Print the settings in use (COLLINS.prm's, or those of -p, -c, -e) as a .prm file; score nothing.")
def evalb(
    gold: Path | None,
    test: Path | None,
    prm: tuple[Path, ...],
    cutoff_len: int | None,
    max_error: int | None,
    strip_punct: bool,
    summary_only: bool,
    demo: bool,
    show_params: bool,
) -> None:
    """Score TEST parses against GOLD trees like the EVALB program (evalb.c, Sekine & Collins).

    GOLD and TEST hold one tree per line; line k of TEST is scored against line k of GOLD, and an
    empty TEST line counts as a skipped sentence (parse failure). The report (per-sentence rows,
    then bracketing recall / precision / F-measure, complete match, crossing brackets and tagging
    accuracy, for all sentences and for those of length <= CUTOFF_LEN) goes to stdout, in evalb's
    layout; error sentences (word or length mismatch) are also listed on stderr. Without -p the
    COLLINS.prm settings apply: punctuation and TOP ignored, ADVP = PRT, labelled brackets.
    --strip-punct (not an evalb option) first removes every token without a letter or digit from
    both files, so punctuation counts nowhere whatever its tag (the convention for GUM).

    Missing files, malformed trees or parameter files, too many error sentences (MAX_ERROR), or
    files with different numbers of trees (evalb.c scores the lines both have; here it is an error,
    so that a parser output cut short is not scored as if whole) exit with status 1 and a
    "file:line: reason" message.

    \b
    Examples:
      glmnlp evalb gold.trees parsed.trees
      glmnlp evalb --show-params > mine.prm      # the default settings, to edit
      glmnlp evalb -p mine.prm gold.trees parsed.trees --summary-only
      glmnlp evalb --strip-punct gum_dev.gold gum_dev.parsed
      glmnlp evalb --demo
    """
    if demo or show_params:
        if gold is not None or test is not None:
            raise click.UsageError(f"{'--demo' if demo else '--show-params'} takes no GOLD/TEST files")
        if demo and show_params:
            raise click.UsageError("--demo and --show-params exclude each other")
        if show_params and summary_only:  # docs/cli.md: an option without effect is a usage error
            raise click.UsageError("--summary-only applies to a report: --show-params scores nothing")
    elif gold is None or test is None:
        raise click.UsageError("GOLD and TEST files are required (or use --demo)")

    if len(prm) > 1:  # evalb.c adds the files' settings up; the last one alone was used, without a word
        raise click.UsageError("-p/--params is given once: put the settings in one parameter file")
    params: EvalbParams = COLLINS_PARAMS if not prm else read_params(prm[0])
    if cutoff_len is not None:
        params = dataclasses.replace(params, cutoff_len=cutoff_len)
    if max_error is not None:
        params = dataclasses.replace(params, max_error=max_error)
    if strip_punct:
        params = dataclasses.replace(params, strip_punct=True)
    if show_params:  # --strip-punct is no .prm setting: said, so that the file is not taken for the whole
        click.echo(format_params(params) + ("# and --strip-punct, given with the file (no .prm keyword)\n"
                                            if strip_punct else ""), nl=False)
        return
    with ExitStack() as stack:
        if demo:
            folder = resources.files("glmnlp") / "data" / "evalb"
            gold, test = (stack.enter_context(resources.as_file(folder / name)) for name in _DEMO_FILES)
        assert gold is not None and test is not None
        try:
            result = score_files(gold, test, params, read=None if demo else _warn_of_unicode_spaces)
        except EvalbAbortError as abort:  # what evalb.c has printed when it stops: the rows before, then the error
            _error_lines(abort.rows)
            if abort.stopped_at is not None:  # evalb.c prints its ID : reason line too, then stops
                _error_lines([abort.stopped_at])
            if not summary_only:
                click.echo(format_rows(abort.rows), nl=False)
            if params.quote_labels and abort.reason.startswith("Length"):  # what the quotes' re-insertion may mend
                raise EvalbAbortError(abort.reason + _QUOTE_HINT, source=abort.source, line=abort.line) from None
            raise

    _error_lines(result.sentences)
    click.echo(format_report(result, summary_only=summary_only), nl=False)
    _warn_if_nothing_scored(test, result.total)
    unequal = sum(row.status == STATUS_ERROR and (row.reason or "").startswith("Length") for row in result.sentences)
    if params.quote_labels and unequal:
        click.echo(f"warning: {unequal} sentence{'s' * (unequal > 1)} of different lengths: errors here{_QUOTE_HINT}",
                   err=True)


#: What a sentence of different lengths is with QUOTE_LABEL set (docs/cli.md)
_QUOTE_HINT = "; evalb would try re-inserting quotes first (QUOTE_LABEL), which is not done here, and may score it"


def _warn_of_unicode_spaces(path: str, text: str) -> None:
    """Warn of the first line of the file ``path`` (its ``text``, as the scorer read it) holding whitespace outside
    ASCII (a no-break space, U+2028, ...): evalb.c (and so this scorer) reads it as a character of a label or word,
    where glmnlp's other readers read a space, so the same file read as the same trees by them scored 66.67 here,
    without a word."""
    for number, line in enumerate(text.split("\n"), start=1):
        if found := next((c for c in line if c.isspace() and c not in " \t\r\f\v"), None):
            name = unicodedata.name(found, "").lower()
            click.echo(one_line(f"warning: {path}:{number}: U+{ord(found):04X}{f' ({name})' if name else ''} is "
                                "read as part of a label or word: evalb takes only ASCII whitespace for a space "
                                "(glmnlp's other readers take every space)"), err=True)
            return


def _warn_if_nothing_scored(test: Path, total: EvalbCounts) -> None:
    """A warning when no sentence was scored (every test line blank, or in error): the report is evalb's, with its
    ``-nan`` F-measure, and the status 0 that evalb.c gives it, which a pipeline took for a successful evaluation
    (the Python API gives 0.0 there: ``total.valid_sentences`` is 0)."""
    if total.valid_sentences or not total.sentences:
        return
    if total.skip_sentences == total.sentences:
        why = "every test line is blank or has no word (a skipped sentence)"
    else:
        skipped, errors = total.skip_sentences, total.error_sentences
        why = (f"{skipped} blank or wordless test line{'s' * (skipped != 1)} (skipped) and {errors} error "
               f"sentence{'s' * (errors != 1)}" if skipped else "every sentence is an error sentence")
    click.echo(one_line(f"warning: {test}: no sentence was scored: {why}; the F-measure is evalb's -nan"), err=True)


def _error_lines(rows: Iterable[SentenceResult]) -> None:
    """evalb's ``ID : reason`` line of every error sentence, on stderr."""
    for row in rows:
        if row.status == STATUS_ERROR:
            click.echo(f"{row.id} : {row.reason}", err=True)
