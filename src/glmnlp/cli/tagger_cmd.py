"""``glmnlp tagger train|evaluate`` and ``glmnlp tag``: thin wrappers over :class:`glmnlp.tagger.model.Tagger`.

Input files may be CoNLL-U (the XPOS column, or the UPOS column: ``--tag-column``; a tagger trained on a CoNLL-U
file records its column, and ``tagger evaluate`` and ``tag`` use it), word/TAG lines, word<TAB>tag blocks or bracketed
trees (one per line or ``.mrg``); ``--format auto`` tells them apart (:func:`glmnlp.treebank.formats.read_tagged`).
``glmnlp tag`` reads one tokenised sentence per line (or any tagged format, whose tags are ignored)
and writes word/TAG lines or CoNLL-U to stdout, :data:`TAG_CHUNK` sentences at a time; a web token or a token of
emoji only gets the fixed tag the pipeline gives it (:func:`glmnlp.text.web.web_tags`, where the tagger has the tag),
in every input format, since ``glmnlp parse`` gives it to ``--tokenized`` input too (``tagger evaluate`` scores the
tagger's own tags). The input is read as it is
tagged (:func:`glmnlp.treebank.formats.iter_tagged`), so memory does not grow with it; ``--input-format auto``
decides from the file's suffix or its first lines, and where those cannot tell by ``.word_tag`` or ``.tab`` as
``tagger train`` does (a bracketed tree, which may span lines, is tagged once it is closed).
Malformed input stops at ``file:line`` after the sentences before it were written, as ``glmnlp parse`` does.
``--model`` of ``tag`` and ``tagger evaluate`` is a tagger model or a pipeline model directory holding ``tagger/``
(as ``train-default`` writes it).
Progress and summaries go to stderr; bad input exits with status 1 and a ``file:line: reason``
message. ``glmnlp tag`` refuses input as ``glmnlp parse`` does: binary (a NUL byte) or non-UTF-8
data, and input without a sentence (``empty input: nothing to tag``); ``tagger evaluate`` refuses a
test file without a tagged sentence instead of reporting 0% accuracy, and ``tagger train`` a training
or dev file without one (``FILE: empty input: no tagged sentence to train on``) instead of an error
without the file's name or an epoch chosen without dev. ``--margin`` is a number >= 0 (NaN is a
usage error; ``inf`` keeps every tag the model can give a word, not those its tag dictionary rules out).
"""

from __future__ import annotations

import io
import sys
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any, Literal

import click
from click.core import ParameterSource

from glmnlp.treebank.formats import (
    Format, TaggedSentence, format_by_suffix, iter_tagged, iter_tokens, named_format, read_tagged, read_tagged_as,
    write_conllu, write_word_tag,
)
from glmnlp.tagger.features import FEATURE_SETS
from glmnlp.tagger.model import Tagger, TaggerConfig
from glmnlp.text.inputs import model_tags, model_words, written_tags
from glmnlp.text.loading import tagger_at
from glmnlp.text.web import web_tags
from glmnlp.glm.model_io import check_output_dir
from glmnlp.glm.parallel import chunked
from glmnlp.glm.training import EpochRecord, check_shards
from glmnlp.cli._params import (InputFile, NonEmptyPath, NumberRange, check_tagset, given_options, on_terminal,
                               training_parallel_options, warn_if_dev_is_train, warn_of_named_format,
                               first_line_peek)
from glmnlp.errors import FormatError, InputError, unreadable
from glmnlp.treebank.fileio import decoded_text, opened_input, stdin_bytes, without_byte_order_marks

_FORMATS = ("auto", "conllu", "word_tag", "tab", "trees")
_CTX = {"help_option_names": ["-h", "--help"]}
TAG_CHUNK = 500  # sentences that glmnlp tag tags and writes at a time
_Column = Literal["xpos", "upos"]  # the choices of --tag-column


def _check_column(fmt: str, column: str | None) -> None:
    """--tag-column given with a --format other than conllu (or auto) is a usage error: it would read nothing there
    (``upos`` failed as the file's error, status 1; ``xpos`` was ignored), docs/cli.md's convention for options
    that contradict the others."""
    if fmt not in ("auto", "conllu") and given_options("column"):
        raise click.UsageError(f"--tag-column chooses a CoNLL-U column; not with --format {fmt}")


def _stdin_text() -> io.StringIO:
    """Standard input read as every input file is (UTF-8 whatever the locale, refusing a NUL byte or other bytes
    with ``<stdin>:line``): read as Python's text stream, a NUL byte was a word, an undecodable byte trained a model
    that failed as it was saved, and a latin-1 locale turned ``café`` into ``cafÃ©``."""
    try:
        data = stdin_bytes().read()
    except OSError as exc:
        raise unreadable(exc, "<stdin>") from None
    stream = io.StringIO(without_byte_order_marks(decoded_text(data, "<stdin>")))
    stream.name = "<stdin>"  # what the readers' messages call it
    return stream


def _read(path: str, fmt: Format, purpose: str | None = None, column: _Column = "xpos",
          given: bool = True) -> tuple[list[TaggedSentence], Format]:
    """The sentences of ``path`` (``-``: stdin) and the format they were read as; with ``purpose``, a file without
    any is an error naming it. ``column`` is the CoNLL-U column: asked for with ``--tag-column`` (``given``), a UPOS
    column of a file of another format is an error; a tagger's own column (not ``given``) applies to CoNLL-U only."""
    name = "<stdin>" if path == "-" else path
    source = _stdin_text() if path == "-" else path
    try:
        found: Format = "conllu"
        if given and column == "upos":  # asked for: a file of another format is refused by the reader
            sentences = read_tagged(source, fmt, column)
        else:
            sentences, found = read_tagged_as(source, fmt, column)
    except FormatError as exc:  # say how to read the other column from the command line
        if purpose is not None and exc.reason == "cannot tell the format of an empty input":
            raise InputError(f"empty input: no tagged sentence {purpose}", source=name) from None  # as documented
        exc.reason = exc.reason.replace("read its UPOS column", "--tag-column upos reads it")
        raise
    if purpose is not None and not any(len(s) for s in sentences):
        raise InputError(f"empty input: no tagged sentence {purpose}", source=name)
    return sentences, found


@click.group("tagger", context_settings=_CTX)
def tagger() -> None:
    """Train and evaluate the trigram perceptron POS tagger (Collins 2002).

    \b
    Examples:
      glmnlp tagger train --train train.conllu --dev dev.conllu --out tagger.model
      glmnlp tagger evaluate --model tagger.model --test test.conllu
    """


@tagger.command("train", context_settings=_CTX)
@click.option("--train", "train_path", required=True, type=InputFile(allow_dash=True),
              help="Training data (CoNLL-U, word/TAG, tab or trees).")
@click.option("--dev", "dev_path", default=None, type=InputFile(allow_dash=True),
              help="Dev data: scored after each epoch, the best epoch is kept.")
@click.option("--out", "out_dir", required=True, type=NonEmptyPath(path_type=Path), help="Model directory to write.")
@click.option("--format", "fmt", type=click.Choice(_FORMATS), default="auto", show_default=True, help="Input format.")
@click.option("--tag-column", "column", type=click.Choice(["xpos", "upos"]), default="xpos", show_default=True,
              help="The tag column of CoNLL-U input (refused for other formats).")
@click.option("--epochs", type=click.IntRange(min=1), default=TaggerConfig.epochs, show_default=True,
              help="Passes of the perceptron over --train; with --dev the best pass is kept, else the last.")
@click.option("--seed", type=click.IntRange(min=0), default=TaggerConfig.seed, show_default=True,
              help="Seed of the per-epoch shuffling.")
@click.option(
    "--tagdict-min-count",
    type=click.IntRange(min=1),
    default=TaggerConfig.tagdict_min_count,
    show_default=True,
    help="Words seen this often may only take the tags they were seen with.",
)
@click.option(
    "--feature-set", type=click.Choice(sorted(FEATURE_SETS)), default=TaggerConfig.feature_set, show_default=True,
    help="collins2002: the features of Collins (2002); extended: those and wider word windows, prefixes, shapes and "
         "case features (glmnlp.tagger.features; benchmarks/results/tagger_features.md).",
)
@click.option("--force", is_flag=True,
              help="Replace an existing tagger model at --out (only a glmnlp tagger model is ever replaced).")
@click.option("-q", "--quiet", is_flag=True, help="No progress bar or per-epoch lines.")
@training_parallel_options
def train_cmd(
    train_path: str,
    dev_path: str | None,
    out_dir: Path,
    fmt: Format,
    column: _Column,
    epochs: int,
    seed: int,
    tagdict_min_count: int,
    feature_set: str,
    force: bool,
    quiet: bool,
    shards: int,
    mixing: str,
    jobs: int | None,
    backend: str | None,
    address: str | None,
) -> None:
    """Train a tagger and write it to --out (atomically).

    --out must be a new or empty folder, or with --force a tagger model written by glmnlp (checked
    before training); other folders are never replaced.

    \b
    Examples:
      glmnlp tagger train --train en_ewt-ud-train.conllu --dev en_ewt-ud-dev.conllu --out ewt.model
      glmnlp tagger train --train train.word_tag --out m --epochs 5 --seed 1
      glmnlp tagger train --train train.conllu --out m --shards 2 --jobs 2
      glmnlp tagger train --train en_ewt-ud-train.conllu --tag-column upos --out upos.model
    """
    config = TaggerConfig(
        epochs=epochs, seed=seed, tagdict_min_count=tagdict_min_count, feature_set=feature_set, shards=shards,
        mixing=mixing,
    )
    if train_path == "-" and dev_path == "-":  # the dev read found stdin used up: 'cannot tell the format'
        raise click.UsageError("--train and --dev cannot both be '-': stdin is read once")
    _check_column(fmt, column)
    check_output_dir(out_dir, "tagger", replace=force)
    train, train_format = _read(train_path, fmt, "to train on", column)
    check_shards(shards, len(train))  # before the dev file is read
    dev, dev_format = _read(dev_path, fmt, "to choose the epoch on", column) if dev_path else (None, None)
    if dev is not None:
        assert dev_path is not None
        warn_if_dev_is_train(train_path, dev_path, "the pass is chosen on the training sentences")
        # the tags and spelling `tagger evaluate` scores it with: a dev file of another tagset scored 0.00% at
        # every pass and the first was kept; a dev file's "(" scored as a word training never saw, "-LRB-"
        check_tagset({t for s in train for t in s.tags or ()}, [s.tags for s in dev], dev_path,
                      column if dev_format == "conllu" else None, "dev", "the training file")
        vocabulary = _Vocabulary({w for s in train for w in s.words})
        tagset = {t for s in train for t in s.tags or ()}  # $( as the training file spells it ($-LRB- in trees)
        dev = [TaggedSentence(_scored_words(s, vocabulary), s.tags and model_tags(s.tags, tagset)) for s in dev]

    def report(record: EpochRecord) -> None:
        if not quiet:
            dev_text = "" if record.dev_score is None else f" dev accuracy {100 * record.dev_score:.2f}%"
            click.echo(
                f"epoch {record.epoch}: {record.mistakes}/{record.examples} sentences wrong,"
                f" {record.seconds:.1f}s{dev_text and ','}{dev_text}",
                err=True,
            )

    model = Tagger(config).fit(
        train, dev, show_progress=not quiet, on_epoch=report, jobs=jobs, backend=backend, address=address
    )
    # the column its tags came from: `tagger evaluate` and `glmnlp tag` read and write that one by default
    model.tag_column_ = column if train_format == "conllu" else None
    model.save(out_dir, replace=force)
    click.echo(f"best epoch {model.best_epoch_}; model written to {out_dir}", err=True)


@tagger.command("evaluate", context_settings=_CTX)
@click.option("-m", "--model", "model_dir", required=True, type=NonEmptyPath(path_type=Path),
              help="A tagger model, or a pipeline model directory holding tagger/.")
@click.option("--test", "test_path", required=True, type=InputFile(allow_dash=True), help="Gold-tagged data to score.")
@click.option("--format", "fmt", type=click.Choice(_FORMATS), default="auto", show_default=True,
              help="Format of --test (auto: by its name's suffix, else its content).")
@click.option("--tag-column", "column", type=click.Choice(["xpos", "upos"]), default=None,
              help="The tag column of CoNLL-U input (refused for other formats). Default: the column the tagger was "
                   "trained on, if it was trained on CoNLL-U, else xpos.")
@click.option("--confusions", type=click.IntRange(min=0), default=10, show_default=True, help="Confusions to list.")
@click.option(
    "--margin",
    "margins",
    type=NumberRange(min=0, infinite=True),
    multiple=True,
    help="Also report multitagging (tags/word, oracle accuracy) at this score margin (repeatable).",
)
def evaluate_cmd(
    model_dir: Path, test_path: str, fmt: Format, column: _Column | None, confusions: int, margins: tuple[float, ...]
) -> None:
    """Score a tagger: accuracy, known/unknown-word accuracy and the most frequent confusions.

    \b
    Examples:
      glmnlp tagger evaluate --model ewt.model --test en_ewt-ud-test.conllu
      glmnlp tagger evaluate --model ewt.model --test test.conllu --margin 1 --margin 5
    """
    _check_column(fmt, column)
    model = tagger_at(model_dir, user="glmnlp tagger evaluate")
    given = column is not None
    if column is None:  # the tagger's own column (a UPOS tagger scored on XPOS scored nothing)
        column = "upos" if model.tag_column_ == "upos" else "xpos"
    # brackets spelled as the tagger saw them in training, as glmnlp tag gives them (glmnlp.text.inputs.model_words):
    # EWT's '(' scored against a WSJ tagger's -LRB- was an unknown word (89.55% where tag scores 90.37%)
    read, found = _read(test_path, fmt, "to score", column, given)
    tagset = set(model.tags_)
    sentences = [TaggedSentence(_scored_words(s, model), s.tags and model_tags(s.tags, tagset)) for s in read]
    check_tagset(set(model.tags_), [s.tags for s in sentences], test_path, column if found == "conllu" else None,
                 "test", "the tagger", given)
    score = model.evaluate(sentences, top_confusions=confusions)
    click.echo(f"tokens            {score.tokens}")
    click.echo(f"accuracy          {100 * score.accuracy:.2f}%")
    for name, accuracy, tokens in (("known words  ", score.known_accuracy, score.known_tokens),
                                   ("unknown words", score.unknown_accuracy, score.unknown_tokens)):
        shown = f"{100 * accuracy:.2f}%" if tokens else "-"  # 0.00% of 0 read as an accuracy of nothing
        click.echo(f"{name}     {shown} of {tokens}")
    if score.confusions:
        click.echo("confusions (gold -> predicted: count)")
        for gold, predicted, count in score.confusions:
            click.echo(f"  {gold} -> {predicted}: {count}")
    for m in model.multitag_scores(sentences, margins):
        click.echo(f"margin {m.margin:g}: {m.tags_per_word:.3f} tags/word, oracle accuracy {100 * m.oracle_accuracy:.2f}%")


class _Vocabulary:
    """The words of a training file, asked as a trained tagger is asked (:meth:`Tagger.knows`)."""

    def __init__(self, words: set[str]) -> None:
        self.knows = words.__contains__



@click.command("tag", context_settings=_CTX)
@click.option("-m", "--model", "model_dir", default=None, type=NonEmptyPath(path_type=Path),
              help="A tagger model, or a pipeline model directory holding tagger/ (default: the bundled model).")
@click.argument("input_path", metavar="[INPUT]", default="-", required=False, type=InputFile(allow_dash=True))
@click.option("-i", "--input", "input_option", type=InputFile(allow_dash=True), default=None, metavar="FILE",
              help="The input file, as INPUT (parse and measures read theirs with -i).")
@click.option(
    "--input-format",
    type=click.Choice(("tokens", *_FORMATS)),
    default="tokens",
    show_default=True,
    help="tokens = one tokenised sentence per line; other formats are read and their tags ignored.",
)
@click.option("--output-format", type=click.Choice(("word_tag", "conllu")), default="word_tag", show_default=True,
              help="conllu: the tags in the XPOS column, or in UPOS for a tagger trained on a CoNLL-U file's UPOS "
                   "column.")
@click.option("--batch-size", type=click.IntRange(min=1, max=10**9), default=TAG_CHUNK, show_default=True,
              help="Sentences read, tagged and written at a time (1: a program that writes a sentence and waits for "
                   "its tags gets them; typed input is answered line by line whatever this is).")
def tag(model_dir: Path | None, input_path: str, input_option: str | None, input_format: str, output_format: str,
        batch_size: int) -> None:
    """Tag tokenised sentences from INPUT (default: stdin) and write them to stdout.

    Uses the bundled default model's tagger unless --model names a tagger or a model directory. URLs, e-mail
    addresses, @handles, #hashtags, emoticons and tokens of emoji only get the fixed tags glmnlp parse gives them
    (NN, NNP, UH) where the tagger has the tag, in every input format.

    \b
    Examples:
      echo "The cat sat on the mat ." | glmnlp tag
      echo "The cat sat on the mat ." | glmnlp tag --model ewt.model
      glmnlp tag --model my_default_model/ sentences.txt --output-format conllu > tagged.conllu
    """
    if input_option is not None:
        if click.get_current_context().get_parameter_source("input_path") != ParameterSource.DEFAULT:  # '-' too
            raise click.UsageError("give INPUT or -i/--input FILE, not both")
        input_path = input_option
    if model_dir is None:
        from glmnlp.text.default_model import default_model_path

        model_dir = default_model_path()
    # read as it is tagged, so memory does not grow with the input
    sentences = _input_sentences(input_path, input_format)
    model = tagger_at(model_dir, user="glmnlp tag")
    upos = model.tag_column_ == "upos"
    knows = frozenset(model.tags_).__contains__
    done = 0

    def writer(out: list[TaggedSentence]) -> str:
        if output_format == "word_tag":
            return write_word_tag(out)
        # each sentence with the # sent_id and # text lines UD's validator requires, numbered on across the chunks
        return write_conllu(out, "upos" if upos else "xpos", first_id=done + 1)

    # tagging all at once took memory in proportion to it; a malformed line's error comes after the sentences before it
    if input_path == "-" and on_terminal(sys.stdin):
        batch_size = 1  # typed input: each line answered as it is ended (it waited for 500 lines or Ctrl-D)
    for chunk in chunked(sentences, batch_size):
        # brackets spelled as the tagger saw them in training (glmnlp.text.inputs.model_words); words written as given
        words = [model_words(s.words, model) for s in chunk]
        tagged = [_with_web_tags(w, t, knows) for w, t in zip(words, model.tag_sentences(words), strict=True)]
        out = [TaggedSentence(s.words, written_tags(t)) for s, t in zip(chunk, tagged, strict=True)]  # $( not $-LRB-
        try:
            text = writer(out)
        except FormatError as exc:  # numbered within the chunk: the sentence's number in the whole output
            click.echo(writer(out[:(exc.line or 1) - 1]), nl=False)  # the sentences before it, as for bad input
            hint = ": word/TAG lines cannot hold it (--output-format conllu can)" if (
                output_format == "word_tag" and exc.reason.startswith("word ") and exc.reason.endswith("whitespace")
            ) else ""  # a word with a space: CoNLL-U's FORM holds one, and no format a tag with one
            raise FormatError(exc.reason + hint, source=exc.source, line=done + (exc.line or 0)) from None
        click.echo(text, nl=False)
        sys.stdout.flush()  # a pipe's buffer held the tags back until it filled or the input ended
        done += len(chunk)


def _with_web_tags(words: list[str], tags: Sequence[str], knows: Callable[[str], bool]) -> list[str]:
    """``tags`` with the fixed tags of the sentence's web tokens and emoji (:func:`glmnlp.text.web.web_tags`) where
    the tagger has them, as the pipeline gives them: ``glmnlp tag`` tagged ``:) ;) www.example.com`` ``SYM JJ NNP``
    where ``glmnlp parse`` gave ``UH UH NN``."""
    fixed = web_tags(words, knows)
    return [fixed.get(i, tag) for i, tag in enumerate(tags)]


def _scored_words(sentence: TaggedSentence, tagger: Any) -> tuple[str, ...]:
    """A gold-tagged sentence's words as ``glmnlp tag`` gives them to ``tagger`` (``model_words``: a straight ``"``
    as ``````/``''`` where the tagger knows those), but a quote whose gold tag is no quote tag as written: a tagset
    that tags ``"`` QUOTE had it scored as ``''`` (tagged SYM; 91.67% on the training file, Tagger.evaluate 100%)."""
    spelled = model_words(sentence.words, tagger)
    tags = sentence.tags or ("",) * len(spelled)
    return tuple(word if new != word and new in _QUOTE_SPELLINGS and tag not in _QUOTE_TAGS else new
                 for word, new, tag in zip(sentence.words, spelled, tags))


_QUOTE_SPELLINGS = frozenset({"``", "''", "`", "'"})  # what model_words makes of a quote
_QUOTE_TAGS = frozenset({"``", "''"})  # the Penn Treebank's (and EWT's XPOS) tags of quotes


def _input_sentences(path: str, fmt: str) -> Iterator[TaggedSentence]:
    """The sentences of ``glmnlp tag``'s input in ``fmt`` (``tokens``, or a format of
    :func:`glmnlp.treebank.formats.iter_tagged`, its tags not wanted), read as they are needed and refused as
    :func:`glmnlp.treebank.fileio.input_lines` refuses input (binary or not UTF-8 at ``file:line``, no sentence)."""
    seen = False
    with opened_input(path) as (numbered, name):
        lines: Iterator[str] = (line for _, line in numbered)
        if fmt == "tokens":
            # its comment and tab lines were tagged as words, a word/TAG file's tags as part of the word
            first, lines = first_line_peek(lines, str)
            warn_of_named_format(path, name, "one tokenised sentence a line (--input-format tokens, the default)",
                                 lambda _: "--input-format auto reads it as that", first)
            sentences = iter_tokens(lines)
        else:  # the suffix where the first lines cannot tell (a tagless or one-token line); "-" (stdin) has none
            named, fmt = named_format(path), format_by_suffix(path) if fmt == "auto" else fmt
            sentences = iter_tagged(lines, fmt, None, name, named)  # type: ignore[arg-type]  # words only
        for sentence in sentences:
            seen = True
            yield sentence
    if not seen:
        raise InputError("empty input: nothing to tag", source=name)
