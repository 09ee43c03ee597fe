"""``glmnlp parse``: raw text (or tokens, or tagged tokens) in, trees out, with the bundled model by default.

A thin wrapper over :class:`glmnlp.text.pipeline.Pipeline` and :mod:`glmnlp.text.render`:

* **Input** comes from the TEXT arguments (each argument is one document), from ``--input FILE``
  or from stdin. Raw text is read as paragraphs (a blank line ends one; ``--lines``: one sentence
  per line); ``--tokenized`` reads one sentence of whitespace-separated PTB tokens per line;
  ``--tagged`` one sentence of ``word/TAG`` tokens per line (the last ``/`` separates the tag).
  Brackets inside tokens and tags are read as the PTB spells them (``(`` -> ``-LRB-``, ``f(x)`` ->
  ``f-LRB-x-RRB-``): the models were trained on that spelling and every tree written reads back. Read by
  :mod:`glmnlp.cli.parse_input` (``--tagged`` tags the parser does not know: its :func:`checked_tags`).
* **Streaming**: input is read line by line and each paragraph or line is parsed and written as
  soon as its batch (``--batch-size`` documents) is complete, so ``glmnlp parse < big.txt`` starts
  printing at once and holds only one batch in memory (``--format html`` is the exception: one
  page is written at the end); with workers too, so a program that writes a line and waits for its tree
  gets it with ``--batch-size 1`` (the input is read on a thread: :mod:`glmnlp.text.workers`). An over-long
  sentence, given a flat tree without parsing, is warned of with its ``file:line``.
* **Output** (``--format``): ``brackets`` (one tree per line, the EVALB input), ``pretty``,
  ``json`` (one document per line), ``conllu`` (tags only), ``ascii`` (character drawings),
  ``svg`` (one file per sentence into ``--out-dir``, their paths printed; an earlier run's drawings
  there: "Choices" below; without ``--out-dir`` one SVG of every sentence on stdout), ``html`` (one
  page on stdout); ``--compact`` draws narrower trees for long sentences. ``--nbest K`` prints
  ``score<TAB>tree`` lines and a blank line after each sentence (``brackets``), or adds an
  ``nbest`` list to each sentence (``json``). ``--surprisal`` (json) adds each word's surprisal in
  bits, -log2 P(w_i | w_1..w_{i-1}), from the parser's generative model (:meth:`Parser.surprisal`),
  given the same input tags as the parse. Both come from the pipeline
  (``nlp(text, nbest=K, surprisal=True)``), which keeps ``--tagged`` input's tags in every mode.
* **Errors** are ``file:line: reason`` (exit status 1): undecodable or binary input, empty input,
  a malformed ``word/TAG`` token, a missing or broken model; every TEXT argument is read and checked (its tags too)
  before the first tree is written. Options that contradict each other or
  have no effect with the others given are usage errors (exit status 2), never silently ignored:
  TEXT arguments and ``--input``; ``--tokenized`` and ``--tagged``; ``--nbest`` or ``--surprisal``
  with a format that cannot show them; ``--out-dir`` without ``--format svg``; ``--compact`` without
  ``svg`` or ``html``; ``--unicode-lines`` without ``ascii``; ``--lines`` with token input;
  ``--map-unknown-tags`` without ``--tagged``; ``--multitag`` with ``--tagged`` (no tagger runs), and
  ``--tagger`` too unless ``--map-unknown-tags`` uses it; ``--address`` without ``--backend ray``.
* ``--model DIR`` is a model directory with ``tagger/`` and ``parser/`` (default: the bundled
  model, :mod:`glmnlp.text.default_model`), or a single parser model; ``--tagger DIR`` supplies or
  replaces the tagger.
* ``--gamma``/``--cap`` replace the beam the model chose on dev (either alone keeps the other): the
  parser is loaded at that beam here and in every worker (:func:`_parser_at_beam`).

Our choices:

* the TEXT arguments are parsed as documents of raw text even with ``--lines`` (one argument = one
  document); ``--tokenized``/``--tagged`` arguments are one sentence each;
* ``--out-dir`` must be new, empty or hold only regular files named ``sentence-NNNN.svg`` (an earlier
  run's drawings); anything else is refused before parsing. Once this run has written its first
  drawing, the earlier run's drawings it did not overwrite are removed (only those files, found when
  the folder was checked), so the folder never mixes two runs; a run that fails before its first
  drawing leaves the earlier one whole; while a run writes there, the folder holds ``.glmnlp-writing-PID`` (its
  process id and host), and a second run into it is refused while that process runs (two runs at once left a mix of
  both, each reporting success); an earlier drawing that is the input (``-i``, or the file stdin reads) is the usage
  error of every output that would replace an input (:mod:`glmnlp.cli._paths`), before anything is read; the
  folder's checks are in :mod:`glmnlp.cli._svg_dir`, which says what differs and why;
* ``--tagger DIR`` is compared with the parser's tags when the models are loaded (:func:`check_tagset`):
  a sentence the tagger tags with a tag the parser does not know gets the flat default tree, silently. A tagger of
  another tagset (more than half of its tags unknown, e.g. UD tags before a PTB parser) is an error
  naming them, as an unknown ``--tagged`` tag is; a few unknown tags (a rare tag missing from the
  parser's smaller training set, as ``train-default --max-train`` gives) are a warning, since refusing
  them would refuse pairs trained together; a tagger with fewer tags is fine.
"""

from __future__ import annotations

import functools
import os
import sys
import warnings
from collections import deque
from collections.abc import Callable, Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import Any, Literal

import click

from glmnlp.cli._params import (InputFile, NonEmptyPath, NumberRange, check_text_arguments, on_terminal, one_line,
                                parallel_options, sentence_bar, warn_of_jobs)
from glmnlp.cli._svg_dir import check_drawings_not_input, check_svg_dir, claim
from glmnlp.cli.parse_input import Unit, argument_units, checked_tags, read_units
from glmnlp.glm.streams import Prefetch
from glmnlp.errors import ConfigError
from glmnlp.treebank.fileio import opened_input

__all__ = ["parse"]

_CTX = {"help_option_names": ["-h", "--help"]}
FORMATS = ("brackets", "pretty", "ascii", "json", "conllu", "svg", "html")


def _load_pipeline(model: str | Path | None, tagger_dir: str | Path | None, lines: bool, multitag: float | None,
                   deferred: bool = False, beam: tuple[float | None, int | None] = (None, None),
                   max_words: int | None = None) -> Any:
    """The pipeline for ``--model`` (a pipeline directory or a single parser model) and ``--tagger``;
    ``deferred``: files checked now, models built on first use (:mod:`glmnlp.text.loading`); ``beam``:
    ``--gamma`` and ``--cap`` (None: the model's own); ``max_words``: ``--max-words`` (None: the pipeline's)."""
    from glmnlp.glm.model_files import check_kind, check_part_kind
    from glmnlp.parser.files import MODEL_KIND
    from glmnlp.text.default_model import default_model_path
    from glmnlp.text.loading import load, tagger_at
    from glmnlp.text.pipeline import MAX_PARSE_WORDS, Pipeline

    tagger = None if tagger_dir is None else tagger_at(tagger_dir, deferred=deferred, user="glmnlp parse --tagger")
    # a folder of another kind: the refusal every loader gives (glmnlp.glm.model_files.wrong_kind)
    kind = None if model is None else check_part_kind(model, "parser", MODEL_KIND, "glmnlp parse")
    if model is not None and not (Path(model) / "tagger").exists() and (Path(model) / "parser").is_dir():
        model = Path(model) / "parser"  # a pipeline folder without its tagger: its parser, for --tagged or --tagger
        kind = check_kind(model, (MODEL_KIND,), "glmnlp parse")
    if model is not None and (kind == MODEL_KIND or kind is None and (Path(model) / "metadata.json").is_file()):
        parser = _parser_at_beam(Path(model), beam, deferred)
        return _paired(lambda: Pipeline(tagger, parser, lines=lines, multitag_margin=multitag if multitag else None,
                                        max_words=max_words or MAX_PARSE_WORDS), tagger_dir, Pipeline(None, parser))
    pipeline = load(model, deferred=deferred)
    if multitag is None and tagger is None:
        multitag = pipeline.multitag_margin  # the margin the model's recipe chose on dev (MODEL.json)
    changes: dict[str, Any] = {"lines": lines, "multitag_margin": multitag if multitag else None}
    if max_words is not None:
        changes["max_words"] = max_words
    if tagger is not None:
        changes["tagger"] = tagger
    if beam != (None, None):  # the pipeline's parser, its files checked by load(), at the beam asked for
        changes["parser"] = _parser_at_beam(Path(model or default_model_path()) / "parser", beam, deferred)
    return _paired(lambda: pipeline.replace(**changes), tagger_dir, pipeline)


def _paired(make: Callable[[], Any], tagger_dir: str | Path | None, parser_only: Any) -> Any:
    """``make()``, a pipeline of ``--tagger`` and a parser; when it refuses the pair (a tagger of another tagset:
    :func:`glmnlp.text.inputs.tagset_mismatch`, naming no folder), :func:`check_tagset`'s error, which names it."""
    try:
        return make()
    except ConfigError:
        if tagger_dir is not None:
            check_tagset(str(tagger_dir), parser_only)
        raise


def _parser_at_beam(directory: Path, beam: tuple[float | None, int | None], deferred: bool) -> Any:
    """The parser model at ``directory`` with ``beam`` = (gamma, cap) replacing its own where not None;
    ``deferred``: checked now, built on first use (as :func:`glmnlp.text.loading.parser_at`)."""
    from glmnlp.parser import Parser
    from glmnlp.text.loading import check_part
    from glmnlp.text.pipeline import Deferred

    check_part(directory)  # a pipeline's parser/ named on its own is checked against the pipeline's MODEL.json
    if deferred:
        return Deferred(_load_parser_at_beam, (directory, beam), Parser.describe(directory))
    return _load_parser_at_beam(directory, beam)


def _load_parser_at_beam(directory: Path, beam: tuple[float | None, int | None]) -> Any:
    from glmnlp.parser import Parser

    parser = Parser.load(directory)
    gamma, cap = beam
    if gamma is not None:
        parser.config.gamma = float(gamma)
    if cap is not None:
        parser.config.beam_cap = int(cap)
    return parser


def check_tagset(tagger_dir: str, pipeline: Any) -> None:
    """``--tagger DIR`` against the parser's tags (:func:`glmnlp.text.loading.unknown_tags`: a tagger of another
    tagset is a :class:`ConfigError`); a few tags the parser does not know are a warning on stderr."""
    from glmnlp.text.loading import tagger_directory, unknown_tags

    if warning := unknown_tags(tagger_directory(tagger_dir), pipeline.parser_facts()["pos_tags"], tagger_dir):
        click.echo(f"warning: {warning}", err=True)


def _tagger_path(model_dir: str | Path | None, tagger_dir: str | Path | None) -> Path | None:
    """The folder of the tagger ``--tagger`` or ``--model`` (default: the bundled model) gives, if any."""
    from glmnlp.text.default_model import default_model_path
    from glmnlp.text.loading import tagger_directory

    path = tagger_directory(tagger_dir if tagger_dir is not None else model_dir or default_model_path())
    return path if (path / "metadata.json").is_file() else None


def _tag_column(tagger_path: Path | None) -> Literal["xpos", "upos"]:
    """The CoNLL-U column of the tagger's tags: UPOS for a tagger trained on it (they were written as XPOS, and the
    file did not evaluate back), read from its metadata without building it (workers may do that)."""
    from glmnlp.glm.model_io import read_metadata

    if tagger_path is None:
        return "xpos"
    return "upos" if read_metadata(tagger_path).get("metadata", {}).get("tag_column") == "upos" else "xpos"


def _remove_drawings(earlier: list[Path], written: set[Path]) -> None:
    """Remove an earlier run's drawings that this run has not overwritten (only files matching the names this
    command writes, found when the folder was checked)."""
    for path in earlier:
        if path not in written:
            try:
                path.unlink(missing_ok=True)
            except OSError as exc:
                raise ConfigError(f"{path}: an earlier run's drawing cannot be removed ({exc.strerror})") from exc


class _Notices:
    """Long-input warnings on stderr: the first of each kind at once, a count of the rest at the end.

    The pipeline's warning of an over-long sentence does not know where the sentence is; this command
    does, and gives it with the sentence's ``file:line`` (:meth:`flat_trees`) instead.
    """

    def __init__(self) -> None:
        self.counts: dict[str, int] = {}

    def show(self, message: Warning | str, category: type[Warning], *_args: Any, **_kwargs: Any) -> None:
        text = str(message)
        if text.startswith(("no sentence boundary", "a line of")):  # one warning per text, of all its cuts
            self.note("cut", text, getattr(message, "cuts", 1))  # else an over-long sentence: given with its place
            # by flat_trees

    def note(self, kind: str, text: str, count: int = 1) -> None:
        first = kind not in self.counts
        self.counts[kind] = self.counts.get(kind, 0) + count
        if first:  # on a line of its own: a progress bar on stderr is cleared and drawn again after it (it was
            # written at the end of the bar's text)
            from tqdm import tqdm

            with tqdm.external_write_mode(file=sys.stderr):
                click.echo(one_line(f"warning: {text}"), err=True)

    def flat_trees(self, doc: Any, unit: Unit, max_words: int) -> None:
        """Warn of each sentence of ``doc`` (the analysis of ``unit``) that got a flat tree for its length."""
        for sent in doc.sentences:
            if len(sent.tokens) > max_words:
                line = unit.line + doc.text.count("\n", 0, sent.tokens[0].start or 0)
                self.note("flat", f"{unit.source}:{line}: a sentence of {len(sent.tokens)} words (more than "
                                  f"{max_words}) gets a flat tree without parsing")

    def summary(self) -> None:
        names = {"cut": "pieces cut from text without sentence boundaries",
                 "flat": "over-long sentences given a flat tree"}
        for kind, count in self.counts.items():
            if count > 1:
                click.echo(f"warning: {count} {names[kind]} in all", err=True)


def _score_text(score: float | None) -> str:
    """An n-best score as text, every digit of it (the JSON output's number: 4 decimals printed two analyses whose
    scores differ by less than 5e-5 alike); the parser's default tree (no analysis, score None) is -inf."""
    return "-inf" if score is None else repr(float(score))


@click.command("parse", context_settings=_CTX)
@click.argument("texts", metavar="[TEXT]...", nargs=-1)
@click.option("-i", "--input", "input_path", type=InputFile(allow_dash=True), default=None, metavar="FILE",
              help="Read the input from FILE ('-' = stdin). Default: the TEXT arguments, else stdin.")
@click.option("--tokenized", is_flag=True, help="Input is one sentence per line of whitespace-separated PTB tokens.")
@click.option("--tagged", is_flag=True,
              help="Input is one sentence per line of word/TAG tokens (the tagger is skipped).")
@click.option("--map-unknown-tags", is_flag=True,
              help="--tagged: replace tags the model does not know by the tagger's best tag that it knows "
                   "(with a warning) instead of stopping with an error.")
@click.option("--lines", is_flag=True, help="Raw text: every line is one sentence (default: paragraphs); a blank line "
                                           "gives no tree (number your lines to pair input and output).")
@click.option("-f", "--format", "fmt", type=click.Choice(FORMATS), default="brackets", show_default=True,
              help="Output format.")
@click.option("--out-dir", type=NonEmptyPath(path_type=Path), default=None,
              help="--format svg: folder for one drawing per sentence (sentence-0001.svg, ...); new, empty or "
                   "holding an earlier run's drawings, which this run's replace. Without it one SVG of all "
                   "sentences goes to stdout.")
@click.option("--compact", is_flag=True,
              help="--format svg/html: narrower drawings for long sentences (smaller type, tags under the words).")
@click.option("--unicode-lines", is_flag=True, help="--format ascii: draw with box-drawing characters.")
@click.option("-m", "--model", "model_dir", type=NonEmptyPath(), default=None, metavar="DIR",
              help="Model directory (tagger/ + parser/) or a parser model. Default: the bundled model.")
@click.option("--tagger", "tagger_dir", type=NonEmptyPath(), default=None, metavar="DIR",
              help="Use this tagger model (or a pipeline model's tagger/) instead (one of another tagset than the "
                   "parser's is refused). Not with "
                   "--tagged input, except to map its unknown tags (--map-unknown-tags).")
@click.option("--nbest", type=click.IntRange(min=1), default=1, show_default=True,
              help="Print the K best trees with their scores (brackets or json).")
@click.option("--multitag", type=NumberRange(min=0, infinite=True), default=None, metavar="MARGIN",
              help="Give the parser every tag within MARGIN of the tagger's best (multi-tag input); 0 = the "
                   "single best tag. Default: the margin recorded in the model's MODEL.json, else 0. Not with "
                   "--tagged input.")
@click.option("--gamma", type=NumberRange(min=0, max=1e300), default=None,
              help="The beam's FILTER margin (default: the model's, chosen on dev in training): smaller parses "
                   "faster, larger searches more (`glmnlp parser train` prints dev F1 and speed per beam).")
@click.option("--cap", type=click.IntRange(min=0, max=10**6), default=None,
              help="The beam's cap on its size (default: the model's, chosen on dev in training; 0 = none).")
@click.option("--max-words", type=click.IntRange(min=1, max=10**6), default=None, metavar="N",
              help="Sentences of more than N words get a flat tree without parsing, with a warning (default: 150; a "
                   "parse's time grows with its length). `parser train` scores dev on every sentence.")
@click.option("--surprisal", is_flag=True,
              help="--format json: add each word's surprisal in bits (needs a model with a generative component).")
@click.option("--batch-size", type=click.IntRange(min=1, max=10**9), default=32, show_default=True,
              help="Documents analysed together before their output is written.")
@click.option("-q", "--quiet", is_flag=True, help="No progress bar and no summary on stderr.")
@functools.partial(parallel_options, environment_jobs_warned=False, jobs_help=(
    "Parse on this many worker processes, each loading the model once (this process then only checks its files; 0 = "
    "all cores; 1 = in this process); the output is the same, in input order (--nbest and --surprisal included). "
    "Default: $GLMNLP_JOBS, else all cores; input of one batch, TEXT arguments, typed input and a batch with nothing "
    "after it yet (a program that writes a line and waits for its tree: --batch-size 1) are parsed in this process, "
    "input of fewer batches on one worker per batch."))
def parse(texts: tuple[str, ...], input_path: str | None, tokenized: bool, tagged: bool, map_unknown_tags: bool,
          lines: bool, fmt: str, out_dir: Path | None, compact: bool, unicode_lines: bool, model_dir: str | None,
          tagger_dir: str | None, nbest: int, multitag: float | None, gamma: float | None, cap: int | None,
          max_words: int | None, surprisal: bool, batch_size: int, quiet: bool, jobs: int | None, backend: str | None,
          address: str | None) -> None:
    """Parse text into Penn Treebank trees (sentence splitting, tokenising, tagging, parsing).

    TEXT arguments are parsed one document each; without them the input is read from --input FILE
    or stdin. Trees go to stdout, progress and messages to stderr.

    \b
    Examples:
      glmnlp parse "The old man saw the dog with a telescope."
      glmnlp parse --format pretty "Time flies like an arrow."
      glmnlp parse --input story.txt --format json > story.jsonl
      echo "the/DT dog/NN barked/VBD ./." | glmnlp parse --tagged
      glmnlp parse --tokenized --nbest 3 < tokens.txt
      glmnlp parse --format ascii "Time flies like an arrow."
      glmnlp parse --format svg --out-dir trees/ "Colorless green ideas sleep furiously."
      glmnlp parse --format svg --compact "A dog barked." > tree.svg
      glmnlp parse --format html -i story.txt > story.html
      glmnlp parse --model my_model/ --lines < one_sentence_per_line.txt
      glmnlp parse --format json --surprisal "The horse raced past the barn fell."
      glmnlp parse --jobs 2 --lines -i big.txt > big.trees
      glmnlp parse --gamma 1e6 --cap 40 -i story.txt
      glmnlp parse --max-words 300 --tokenized -i long_sentences.txt
    """
    if tokenized and tagged:
        raise click.UsageError("--tokenized and --tagged exclude each other")
    mode = "tokens" if tokenized else "tagged" if tagged else "text"
    if texts and input_path is not None:
        raise click.UsageError("give TEXT arguments or --input FILE, not both")
    check_text_arguments(texts)
    if out_dir is not None and fmt != "svg":
        raise click.UsageError("--out-dir is only used with --format svg")
    if out_dir is not None:  # the input named as a drawing (-i or stdin) was removed as an earlier run's, the text lost
        check_drawings_not_input(out_dir, None if texts else input_path or "-")
    if nbest > 1 and fmt not in ("brackets", "json"):
        raise click.UsageError("--nbest K > 1 needs --format brackets or json")
    if lines and mode != "text":
        raise click.UsageError(
            "--lines applies to raw text; --tokenized and --tagged input is always one sentence per line"
        )
    if surprisal and fmt != "json":
        raise click.UsageError("--surprisal needs --format json")
    if compact and fmt not in ("svg", "html"):
        raise click.UsageError("--compact is only used with --format svg or html")
    if unicode_lines and fmt != "ascii":
        raise click.UsageError("--unicode-lines is only used with --format ascii")
    if map_unknown_tags and mode != "tagged":
        raise click.UsageError("--map-unknown-tags only applies to --tagged input")
    if mode == "tagged" and multitag is not None:
        raise click.UsageError("--multitag is not used with --tagged input (its tags are given: the tagger is skipped)")
    if mode == "tagged" and tagger_dir is not None and not map_unknown_tags:
        raise click.UsageError("--tagger is not used with --tagged input (its tags are given), unless "
                               "--map-unknown-tags asks it for the tags the model does not know")
    opened = ExitStack()  # the input file, closed on the way out
    if texts:
        # every argument read (a blank one, a bad word/TAG, bytes that are not UTF-8 refused) before any output: the
        # trees of the arguments before a bad one were written, the arguments after it never parsed
        units: Iterator[Unit] = iter(list(argument_units(texts, mode)))
        jobs = 1  # a few arguments: starting workers would cost more than it saves
    else:
        numbered, source = opened.enter_context(opened_input(input_path))
        if source == "<stdin>" and on_terminal(sys.stdin):
            batch_size = 1  # typed input: answer each paragraph or line as soon as it is complete
            jobs = 1  # and never wait for a second one before starting
        units = read_units(numbered, source, mode, lines_mode=lines)
    try:
        if jobs is None:  # read only where workers may run: $GLMNLP_JOBS at fault is no error for one process
            from glmnlp.config import resolve

            jobs = resolve(None, backend, address).jobs
            warn_of_jobs(jobs, backend, "$GLMNLP_JOBS")
        # With workers, this process only reads and writes: it checks the model and leaves building it to
        # the workers (and to itself only if the input turns out to fit in one batch).
        pipeline = _load_pipeline(model_dir, tagger_dir, lines, multitag, jobs != 1, (gamma, cap), max_words)
        if tagger_dir is not None:
            check_tagset(tagger_dir, pipeline)
        # how a worker loads it: by absolute paths (a Ray worker runs in another directory: a relative -m there named
        # another model, whose trees came back without a word; the folders travel to it: glmnlp.text.workers.shipped,
        # the bundled model's too, which another machine's installation may hold elsewhere or in another release)
        from glmnlp.text.default_model import default_model_path

        absolute = [None if d is None else Path(os.path.abspath(d)) for d in (model_dir or default_model_path(),
                                                                             tagger_dir)]
        pipeline.spec = (_load_pipeline, (*absolute, lines, multitag, True, (gamma, cap)))
        if surprisal and not pipeline.parser_facts()["generative"]:
            raise ConfigError("--surprisal needs a model with a generative component; this parser has none")
        if not pipeline.has_tagger and mode != "tagged":
            raise ConfigError("this model has no tagger: give --tagged input or --tagger DIR")
        _write_parses(
            pipeline, units, mode, fmt, texts, out_dir, compact, unicode_lines, nbest, surprisal, batch_size,
            quiet, map_unknown_tags, jobs, backend, address, _tagger_path(model_dir, tagger_dir),
        )
    finally:
        opened.close()


def _write_parses(
    pipeline: Any, units: Iterator[Unit], mode: str, fmt: str, texts: tuple[str, ...],
    out_dir: Path | None, compact: bool, unicode_lines: bool, nbest: int, surprisal: bool, batch_size: int,
    quiet: bool, map_unknown_tags: bool, jobs: int, backend: str | None, address: str | None,
    tagger_path: Path | None = None,
) -> None:
    """Analyse the input units and write them in ``fmt`` (the body of :func:`parse`)."""
    from glmnlp.text.render import (
        json_line,
        render_ascii,
        render_brackets,
        render_conllu,
        render_html,
        render_json,
        render_pretty,
        render_svg,
        render_svg_document,
    )
    from glmnlp.text.tokenize import LongInputWarning
    from glmnlp.treebank.trees import to_bracket

    column: Literal["xpos", "upos"] = _tag_column(tagger_path) if fmt == "conllu" and mode != "tagged" else "xpos"
    earlier: list[Path] = []
    mark: Path | None = None
    if out_dir is not None:
        earlier = check_svg_dir(out_dir)
        try:
            out_dir.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise ConfigError(f"{out_dir}: cannot be created ({exc.strerror or exc})") from exc
        mark = claim(out_dir)
    docs_for_html = []
    n_sent = 0
    # a bar on the terminal the trees are written to glued the first tree of every batch to the bar's text: the bar
    # is for output that goes elsewhere (a file, a pipe)
    show = not quiet and not texts and on_terminal(sys.stderr) and not on_terminal(sys.stdout)
    bar = None
    if show:
        bar = sentence_bar()
    notices = _Notices()
    try:
        warnings_ctx = warnings.catch_warnings()
        warnings_ctx.__enter__()
        warnings.simplefilter("always", LongInputWarning)
        warnings.showwarning = notices.show
        if mode == "tagged":  # TEXT arguments' tags all checked before any output, as the arguments are read
            units = checked_tags(units, pipeline, map_unknown=map_unknown_tags)
            units = iter(list(units)) if texts else units
        fed: deque[Unit] = deque()  # the units given to the pipeline and not yet back: one document each, in order

        def feed(units: Iterator[Unit]) -> Iterator[Any]:
            for unit in units:
                fed.append(unit)
                yield unit.doc

        # with workers the input is read on a thread (glmnlp.glm.streams): the trees of the lines read come while it
        # waits for more (a program that writes a line and waits for its tree)
        source = Prefetch(feed(units)) if jobs != 1 else feed(units)
        docs = pipeline.pipe(source, batch_size=batch_size, nbest=nbest, surprisal=surprisal,
                             progress=None if bar is None else bar.update, n_process=jobs, backend=backend,
                             address=address)
        for doc in docs:
            notices.flat_trees(doc, fed.popleft(), pipeline.max_words)
            if nbest > 1 and fmt == "brackets":
                for sent in doc.sentences:
                    click.echo("".join(f"{_score_text(score)}\t{to_bracket(tree)}\n" for score, tree in sent.nbest))
            elif fmt == "json" and (nbest > 1 or surprisal):
                click.echo(json_line(doc.to_dict()))
            elif fmt == "brackets":
                click.echo(render_brackets(doc), nl=False)
            elif fmt == "pretty":
                click.echo(render_pretty(doc))
            elif fmt == "json":
                click.echo(render_json(doc), nl=False)
            elif fmt == "conllu":
                click.echo(render_conllu(doc, first_id=n_sent + 1, column=column), nl=False)
            elif fmt == "ascii":
                click.echo(render_ascii(doc, unicode_lines=unicode_lines))
            elif fmt == "svg" and out_dir is not None:
                from glmnlp.treebank.fileio import atomic_write_text

                for k, sent in enumerate(doc.sentences, start=n_sent + 1):
                    if sent.tree is None:
                        raise ConfigError(f"sentence {k} has no tree")
                    target = out_dir / f"sentence-{k:04d}.svg"
                    atomic_write_text(target, render_svg(sent.tree, compact=compact))
                    if earlier:  # this run's first drawing is written: the earlier run's others go
                        _remove_drawings(earlier, {target})
                        earlier = []
                    click.echo(str(target))
            else:  # html, or svg to stdout: one page / one drawing at the end
                docs_for_html.append(doc)
            n_sent += len(doc.sentences)
    finally:
        warnings_ctx.__exit__(None, None, None)
        if mark is not None:
            mark.unlink(missing_ok=True)
        if bar is not None:
            bar.close()
        notices.summary()
    if fmt == "html":
        click.echo(render_html(docs_for_html, compact=compact), nl=False)
    elif fmt == "svg" and out_dir is None:
        click.echo(render_svg_document(docs_for_html, compact=compact), nl=False)
    stats = pipeline.stats
    # TEXT arguments are typed and read on the spot: their summary only when a sentence got no analysis
    if not quiet and stats is not None and (not texts or stats.get("fallback", 0)):
        flat = stats.get("too_long", 0)  # their flat trees were in no count ("default structure: 0")
        click.echo(
            f"parsed {n_sent} sentence{'' if n_sent == 1 else 's'}; retried with a wider beam: "
            f"{stats.get('retried', 0)}; default structure: {stats.get('fallback', 0)}"
            + (f"; over {pipeline.max_words} words, flat: {flat}" if flat else ""), err=True,
        )
