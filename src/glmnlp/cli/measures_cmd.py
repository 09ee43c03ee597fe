"""``glmnlp measures``: word-by-word surprisal, entropy and other incremental measures as a tidy table.

A thin wrapper over :func:`glmnlp.text.measures.measures` (definitions: :mod:`glmnlp.parser.measures`,
columns: docs/measures.md). Input: the TEXT arguments (each one a document of raw text), ``--input
FILE`` or stdin; ``--lines`` makes each line of raw text one sentence, ``--tokenized`` reads one sentence of
whitespace-separated PTB tokens per line.
Output: ``--format tsv`` (default), ``csv`` or ``json`` (one object per line) on stdout; ``--plot
FILE`` also draws sentence ``--sentence N`` (needs matplotlib).

Errors are one line ``error: PATH: reason`` (status 1), found before anything is printed where they
can be: input as ``glmnlp parse`` refuses it (binary or non-UTF-8 data with ``file:line``, no text),
a model without a generative term, a ``--model`` folder of a kind it does not take (a tagger's: said as every
command says it, :func:`glmnlp.glm.model_files.wrong_kind`), a bad word-class file, a ``--plot`` folder that does
not exist, ``--sentence`` past the last sentence. A bad option value is a usage error (status 2): NaN or a
negative ``--tag-margin``, ``--gamma`` outside [0, 1e300] (the range a model file may hold), ``--cap``
outside [0, 10**6], ``--sentence`` below 1, a ``--plot`` suffix that matplotlib does not write; so are
TEXT arguments together with ``--input``, and ``--sentence`` without ``--plot``.
"""

from __future__ import annotations

import sys
import warnings
from pathlib import Path
from typing import Any, Literal

import click

from glmnlp.cli._params import (InputFile, NonEmptyPath, NumberRange, check_text_arguments, given_options, on_terminal,
                                sentence_bar, warn_of_named_format)
from glmnlp.cli._paths import check_not_an_input
from glmnlp.errors import ConfigError
from glmnlp.treebank.fileio import decoded_arguments, input_lines, is_blank

#: Python that measures the words of a tagged file (``FILE``), as the warning for such a file says: runnable as written
#: after ``import glmnlp`` (``glmnlp.treebank.formats.read_tagged(...)`` was an AttributeError there, the submodule
#: not yet imported)
READ_TAGGED_ADVICE = ("from glmnlp.treebank.formats import read_tagged; glmnlp.measures([s.words for s in "
                      "read_tagged(FILE, column=None)], tokenized=True)")

__all__ = ["measures_cmd"]


@click.command("measures", context_settings={"help_option_names": ["-h", "--help"]})
@click.argument("text", nargs=-1)
@click.option("-i", "--input", "input_path", type=InputFile(allow_dash=True, path_type=Path),
              help="Read the text from this UTF-8 file ('-' = stdin; default: TEXT arguments, else stdin).")
@click.option("--tokenized", is_flag=True, help="One sentence of whitespace-separated tokens per line.")
@click.option("--lines", is_flag=True,
              help="Raw text: every line is one sentence (a stimuli file of one item a line; default: paragraphs).")
@click.option("-m", "--model", "model", type=NonEmptyPath(path_type=Path),
              help="A parser model, or a pipeline model directory holding parser/ (default: the bundled model); "
                   "its generative term is used.")
@click.option("--format", "fmt", type=click.Choice(["tsv", "csv", "json"]), default="tsv", show_default=True,
              help="The table: tab- or comma-separated (quoted as RFC 4180 quotes CSV), or JSON Lines (one row a "
                   "line).")
@click.option("--units", type=click.Choice(["bits", "nats"]), default="bits", show_default=True,
              help="Logarithm of prefix, surprisal and entropy columns.")
@click.option("--kind", type=click.Choice(["generative", "combined"]), default="generative", show_default=True,
              help="Beam ranked by the generative probability (probabilistic measures) or by the combined score "
                   "(a combined model's; a generative model has none).")
@click.option("--word-classes", type=InputFile(path_type=Path),
              help="Word-class list (word<TAB>closed|previous|open per line) replacing the packaged one.")
@click.option("--word-class-rules", type=InputFile(path_type=Path),
              help="Rules for unlisted words (pattern<TAB>class per line) replacing the packaged ones.")
@click.option("--no-eos", is_flag=True, help="Leave out the end-of-sentence (</s>) rows.")
@click.option("--next-word", is_flag=True,
              help="Also the expected entropies of each word before it is seen, and its rank (slow).")
@click.option("--max-tags", type=click.IntRange(min=1), default=8, show_default=True,
              help="Candidate POS tags per word chosen by the model (fewer: faster).")
@click.option("--tag-margin", type=NumberRange(min=0, infinite=True), default=8.0, show_default=True,
              help="Keep candidate tags within this many nats of the word's best tag.")
@click.option("--tag-filter", type=click.Choice(["seen", "margin"]), default="seen", show_default=True,
              help="Candidate tags among those seen with the word in training, or every tag within the margin.")
@click.option("--unknown-words", type=click.Choice(["model", "pos"]), default="model", show_default=True,
              help="Score words outside the lexicon as the model does, or by their class given the POS alone "
                   "(as the reference parser does).")
@click.option("--gamma", type=NumberRange(min=0, max=1e300), default=None,
              help="FILTER margin (default: the model's).")
@click.option("--cap", type=click.IntRange(min=0, max=10**6), default=None,
              help="Beam cap (default: the model's; 0 = none).")
@click.option("--plot", "plot_path", type=NonEmptyPath(dir_okay=False, path_type=Path),
              help="Also draw one sentence's measures to this image (PNG/SVG/PDF; needs matplotlib; an image "
                   "there is replaced).")
@click.option("--sentence", type=click.IntRange(min=1), default=1, show_default=True,
              help="Sentence drawn by --plot (only with --plot).")
@click.option("-q", "--quiet", is_flag=True,
              help="No progress bar (shown on a terminal's stderr while sentences are measured).")
def measures_cmd(text: tuple[str, ...], input_path: Path | None, tokenized: bool, lines: bool, model: Path | None,
                 fmt: str, units: Literal["bits", "nats"], kind: Literal["generative", "combined"],
                 word_classes: Path | None, word_class_rules: Path | None, no_eos: bool, next_word: bool,
                 max_tags: int, tag_margin: float, tag_filter: Literal["seen", "margin"],
                 unknown_words: Literal["model", "pos"],
                 gamma: float | None,
                 cap: int | None, plot_path: Path | None, sentence: int, quiet: bool) -> None:
    """Word-by-word measures (surprisal, syntactic/lexical surprisal, entropy, ...) of text.

    The input is read whole, then the table is written (each sentence answered as it comes, with its surprisals
    only: glmnlp parse --lines --format json --surprisal --batch-size 1; without --lines or --tokenized a raw-text
    sentence ends at a blank line or the end of the input).

    \b
    Examples:
      glmnlp measures "The horse raced past the barn fell."
      glmnlp measures --format csv --units nats -i story.txt > story.csv
      glmnlp measures --tokenized --plot gp.png < sentences.txt
      glmnlp measures --lines -i stimuli.txt > stimuli.tsv
    """
    from glmnlp.text.measures import LongSentenceWarning, load_parser, measures, plot_measures, write_measures
    from glmnlp.text.tokenize import LongInputWarning

    if text and input_path is not None:
        raise click.UsageError("give TEXT arguments or --input FILE, not both")
    check_text_arguments(text)
    if lines and tokenized:
        raise click.UsageError("--lines applies to raw text; --tokenized input is always one sentence per line")
    if plot_path is None and given_options("sentence"):
        raise click.UsageError("--sentence only applies to --plot (the sentence it draws)")
    if plot_path is not None:
        _check_plot(plot_path, input_path, word_classes, word_class_rules)
    if text:  # input as glmnlp parse refuses it (binary or not UTF-8), named by file:line; a blank argument is an
        # item without rows (as in Python and as a stimuli file's blank line), unless every one is blank
        docs = [t for _, t in decoded_arguments(text, "no text to analyse", blank=True)]
    else:
        read, name = input_lines(input_path, "no text to analyse")
        warn_of_named_format(input_path, name, "one tokenised sentence a line (--tokenized)" if tokenized else
                             "raw text, a sentence a line (--lines)" if lines else "raw text (paragraphs)",
                             lambda fmt: f"glmnlp measures reads no {fmt} file; in Python {READ_TAGGED_ADVICE} "
                             "measures its words",
                             lambda: next((line for line in read if not is_blank(line)), None))
        docs = read if tokenized else ["\n".join(read)]  # a line's item is its line number, blank lines counted
    sentences = _sentences(docs, tokenized, lines, (input_path or "-") if (tokenized or lines) and not text else None)
    if plot_path is not None and sentence > len(sentences):
        raise ConfigError(f"--sentence {sentence}: the input has {len(sentences)} "
                          f"sentence{'' if len(sentences) == 1 else 's'}")
    classes = _word_classes(word_classes, word_class_rules)
    parser = load_parser(model, kind, "glmnlp measures")
    # a bar while the sentences are measured (minutes with --next-word, and no output before the end); cleared
    # before the table is written, so it may share a terminal with it
    bar = sentence_bar(len(sentences)) if not quiet and on_terminal(sys.stderr) else None
    try:
        # the input again, not its sentences, so that measures numbers the items (lines, TEXT arguments); its long
        # sentences and cut pieces were warned of above, as the command warns
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", LongSentenceWarning)
            warnings.simplefilter("ignore", LongInputWarning)
            rows = measures(docs, parser, tokenized=tokenized, lines=lines, kind=kind, units=units,
                            word_classes=classes, eos=not no_eos, gamma=gamma, cap=cap, next_word=next_word,
                            max_tags=max_tags, tag_margin=tag_margin, tag_filter=tag_filter,
                            unknown_words=unknown_words, progress=None if bar is None else bar.update)
    finally:
        if bar is not None:
            bar.close()
    if plot_path is not None:  # drawn first: a drawing that cannot be written is an error before any output
        plot_measures(rows, sentence, path=plot_path)
    write_measures(rows, sys.stdout, fmt)
    if plot_path is not None:
        click.echo(str(plot_path), err=True)


def _sentences(docs: list[str], tokenized: bool, lines: bool = False, by_line: Path | str | None = None
               ) -> list[list[str]]:
    """The sentences of ``docs``; text cut for want of sentence boundaries is warned of as ``glmnlp parse`` warns of
    it: the first cut as one line ``warning: ...`` on stderr, then the count (it came out as a Python warning naming
    a line of click's source, once per cut). ``by_line``: the file whose lines are the items, so that a long
    sentence's warning begins ``file:line:`` as ``glmnlp parse``'s does (it said "sentence 2" of a line 4)."""
    from glmnlp.text.measures import LongSentenceWarning, text_sentences
    from glmnlp.text.tokenize import LongInputWarning

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", LongInputWarning)
        warnings.simplefilter("always", LongSentenceWarning)
        sentences = text_sentences(docs, tokenized, lines)
    cuts = [w for w in caught if issubclass(w.category, LongInputWarning)]
    for w in caught:
        if issubclass(w.category, LongSentenceWarning):
            long = w.message
            where = f"{'<stdin>' if str(by_line) == '-' else by_line}:{getattr(long, 'item', 0)}: " if by_line else ""
            click.echo(f"warning: {where}{long}", err=True)
        elif w not in cuts:  # any other warning as it would have been shown
            warnings.warn_explicit(w.message, w.category, w.filename, w.lineno)
    if cuts:
        click.echo(f"warning: {cuts[0].message}", err=True)
    if (count := sum(getattr(w.message, "cuts", 1) for w in cuts)) > 1:  # one warning per text, of all its cuts
        click.echo(f"warning: {count} pieces cut from text without sentence boundaries in all", err=True)
    return sentences


def _check_plot(path: Path, input_path: Path | None, word_classes: Path | None = None,
                rules: Path | None = None) -> None:
    """--plot: a suffix matplotlib writes (else a usage error) in an existing folder, not the input file (a drawing
    replaced the text it was made of), checked before any work."""
    from glmnlp.text.measures import check_plot_path, plot_formats

    try:
        formats = plot_formats()
    except ImportError as exc:
        raise ConfigError(f"--plot: {exc}") from None
    if path.suffix[1:].lower() not in formats:
        raise click.BadParameter(
            f"{path}: the name must end in .png, .svg, .pdf or another format matplotlib writes "
            f"({', '.join(formats)})", param_hint="'--plot'")
    check_not_an_input(path, "--plot", [("the --input file", "-" if input_path is None else input_path)],
                       "the drawing would replace the text")
    check_not_an_input(path, "--plot", [("the --word-classes file", word_classes),
                                        ("the --word-class-rules file", rules)], "the drawing would replace it")
    check_plot_path(path)


def _word_classes(words: Path | None, rules: Path | None) -> Any:
    """--word-classes / --word-class-rules, or None (the packaged lists); a bad file is ``PATH[:LINE]: reason``."""
    if words is None and rules is None:
        return None
    from glmnlp.parser.measures import WordClasses

    return WordClasses.from_file(words, rules)
