"""Word-by-word psycholinguistic measures from text: :func:`measures`, writers and :func:`plot_measures`.

The measures themselves (definitions, equations, which model gives probabilities) are in
:mod:`glmnlp.parser.measures`; this module turns raw or tokenised text into sentences, runs them,
and writes the tidy table (TSV, CSV, JSON lines, or a ``pandas.DataFrame``) or draws a sentence's measures
word by word (matplotlib); pandas and matplotlib come with the optional ``measures`` extra.

Column names and meanings: :data:`glmnlp.parser.measures.COLUMNS` (also docs/measures.md).

Errors: input that is not text (None, bytes, a number) is a ``TypeError`` naming the item, as the pipeline
(``nlp(None)``) and Python itself say it; text with lone surrogates (not UTF-8) and empty token lists are
:class:`~glmnlp.errors.InputError` naming the item; a model without a
generative term, a beam outside the range a model file may hold (gamma in [0, 1e300], cap in
[0, 10**6]) and a drawing that cannot be written (a suffix matplotlib does not write, a missing
folder) are :class:`~glmnlp.errors.ConfigError`, raised before any work.

Long sentences: the measures of one sentence take time growing faster than its length, since its analyses'
open constituents deepen with it and every one is a site for the next word (on the bundled model, tokenised
sample text without sentence ends: 1,000 words 1.6 s, 2,000 2.5 s, 4,000 7.0 s, 6,000 93 s on one core), and
tokenised input (a line, or a str with ``tokenized``) is one sentence however long. A sentence of more than
:data:`LONG_SENTENCE` words is therefore warned of (:class:`LongSentenceWarning`) before any work; it is
analysed all the same (``glmnlp parse``, which needs no measures of it, gives such sentences a flat tree).

Types: the rows are :class:`~glmnlp.parser.measures.MeasureRow` (a ``TypedDict``: ``measures`` was typed ``-> Any``,
and ``mypy --strict`` let a misspelt column through); overloads on ``as_frame`` tell a type checker whether a call
gives rows or a ``pandas.DataFrame`` (imported for the checker alone: pandas and matplotlib stay optional).

Tokenised input reaches the parser spelled as it saw words in training (a bracket ``(`` as ``-LRB-``, as raw
text is tokenised: :func:`glmnlp.text.inputs.model_words`); each row's word is the word as written. Given tags are
checked against the words as written (a refusal named ``(`` as ``-LRB-``), in the library's spelling or the trees'.
"""

from __future__ import annotations

import csv
import io
import json
import math
import warnings
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any, Literal, Protocol, TypeAlias, overload

from glmnlp.errors import ConfigError, InputError, MissingPackageError
from glmnlp.glm.locks import ForkSafeLock
from glmnlp.parser.measures import (COLUMNS, COMBINED_NEEDS_WEIGHTS, MAX_CAP, MAX_GAMMA, NEXT_COLUMNS, MeasureOptions,
                                    MeasureRow, SentenceTags, WordClasses, candidate_tags, corpus_measures,
                                    every_tag_from)
from glmnlp.parser.measure_tags import given_entries
from glmnlp.text.frames import rows_frame
from glmnlp.text.inputs import check_progress, line_numbers, model_words, written_form
from glmnlp.text.tokenize import tokenize_text_spans, user_stacklevel
from glmnlp.text.web import web_tags
from glmnlp.treebank.fileio import atomic_write_bytes, check_output_file, line_tokens, split_lines, surrogate_reason

if TYPE_CHECKING:  # pandas is an optional extra (without pandas-stubs a type checker reads its DataFrame as Any)
    import pandas as pd
    from matplotlib.axes import Axes

    from glmnlp.parser.model import Parser
    from glmnlp.text.document import Document

__all__ = ["measures", "load_parser", "text_sentences", "numbered_sentences", "sentence_rows", "incremental_tags",
           "incremental_surprisal", "write_measures", "plot_measures", "check_plot_path", "plot_formats", "FORMATS",
           "MAX_GAMMA", "MAX_CAP", "LONG_SENTENCE", "LongSentenceWarning"]

FORMATS = ("tsv", "csv", "json")
LONG_SENTENCE = 1000  # words: longer sentences are warned of (module docstring)


class LongSentenceWarning(UserWarning):
    """A sentence long enough for its measures to take a long time (module docstring: long sentences); ``sentence``
    and ``item`` are its rows' columns (the command names the input's line by them), ``words`` its length."""

    def __init__(self, message: str, sentence: int = 0, item: int = 0, words: int = 0) -> None:
        super().__init__(message)
        self.sentence, self.item, self.words = sentence, item, words


class HasParser(Protocol):
    """What :func:`load_parser` takes besides a parser and a folder: an object with a ``parser`` (a
    :class:`glmnlp.text.pipeline.Pipeline`, whose module imports this one)."""

    @property
    def parser(self) -> Any: ...


#: The ``model`` of :func:`measures` and :func:`load_parser`
_Model: TypeAlias = "str | Path | Parser | HasParser | None"
#: The ``texts`` of :func:`measures`
_Texts: TypeAlias = "str | Iterable[str] | Iterable[Sequence[str]]"


def load_parser(model: _Model = None, kind: str = "generative", user: str = "glmnlp.measures") -> Any:
    """A parser with a generative term: None = the bundled model, a model directory (a pipeline's, whose ``parser/``
    is used, or a parser model itself), a :class:`glmnlp.text.pipeline.Pipeline` or a
    :class:`glmnlp.parser.model.Parser`; a folder of another kind is refused naming ``user``, who asked for it
    (:func:`glmnlp.glm.model_files.wrong_kind`).
    The bundled model's parser is loaded once per process and shared by every call: change its configuration and
    every later ``measures(text)`` parses so (a beam is better given as ``gamma``/``cap``).

    A parser without a generative term, or without perceptron weights for ``kind`` "combined", is a
    :class:`ConfigError` naming the model directory."""
    from glmnlp.glm.model_files import check_part_kind
    from glmnlp.parser.files import MODEL_KIND
    from glmnlp.parser.model import Parser
    from glmnlp.text.checksums import check_part

    where = ""
    if model is None:
        return _bundled_parser()  # a combined model: both kinds
    if isinstance(model, Parser):
        parser = model
    elif model is not None and hasattr(model, "parser") and isinstance(getattr(model, "parser"), Parser):
        parser = model.parser
    else:
        if isinstance(model, (str, Path)):
            root = Path(model)
        else:
            raise TypeError(f"model: expected None, a model directory, a Pipeline or a Parser, "
                            f"got {type(model).__name__}")
        check_part_kind(root, "parser", MODEL_KIND, user)  # (a pipeline of a tagger alone is refused)
        path = root / "parser" if (root / "parser").is_dir() else root
        check_part(path)  # a pipeline's parser/ checked against its MODEL.json
        parser = Parser.load(path)
        where = f"{path}: "
    if parser.generative is None:
        raise ConfigError(f"{where}word-by-word measures need a parser with a generative term (a generative or "
                          "combined model); this one has none")
    if kind == "combined" and not parser.weights.any():
        raise ConfigError(f"{where}{COMBINED_NEEDS_WEIGHTS}")
    return parser


def _bundled_parser() -> Any:
    """The bundled model's parser, loaded once per process: ``measures(text)`` in a loop over stimuli loaded it
    again at every call (0.6-0.8 s each), and threads asking at once each loaded it (8 threads: 8 loads of 3 s each
    and 310 MB, where one took 0.73 s and 133 MB). Measures change no state of the parser (beams are per call)."""
    with _BUNDLED_LOCK:
        if not _BUNDLED:
            from glmnlp.text.default_model import default_model_path

            _BUNDLED.append(load_parser(default_model_path()))
        return _BUNDLED[0]


_BUNDLED: list[Any] = []  # the bundled parser, once loaded
_BUNDLED_LOCK = ForkSafeLock()  # a fork while another thread loads leaves the child a free one


def _kind(value: Any) -> str:
    return "None" if value is None else type(value).__name__


def _check_utf8(text: str, what: str, source: str) -> None:
    if (reason := surrogate_reason(text)) is not None:  # undecodable bytes read with errors="surrogateescape"
        raise InputError(f"{what}{reason}", source=source)


def text_sentences(texts: Any, tokenized: bool = False, lines: bool = False) -> list[list[str]]:
    """The sentences :func:`measures` analyses: raw text (a str or a list of str) split into sentences
    of PTB tokens (``lines``: each non-blank line one sentence, as a stimuli file without full stops needs; with
    ``tokenized`` each non-blank line one sentence of whitespace-separated tokens), or a list of tokenised
    sentences as they are. Anything else is a ``TypeError`` naming the item (as :func:`glmnlp.load`'s pipeline
    says of a value of the wrong kind)."""
    return numbered_sentences(texts, tokenized, lines)[0]


def numbered_sentences(texts: Any, tokenized: bool = False, lines: bool = False) -> tuple[list[list[str]], list[int]]:
    """:func:`text_sentences` and each sentence's item number (the ``item`` column): the position of its text or
    token list in ``texts``, from 1; with ``lines`` or ``tokenized``, its line, the lines of the texts counted one
    after another (blank lines too; a token list or an empty text is one line), so that a stimuli file read as one
    text numbers its sentences by their lines."""
    sentences, items, _written = _numbered(texts, tokenized, lines)
    return sentences, items


def _numbered(texts: Any, tokenized: bool, lines: bool) -> tuple[list[list[str]], list[int], list[list[str] | None]]:
    """:func:`numbered_sentences` and, for each sentence of raw text, its tokens as the text writes them (their
    characters at their offsets: :func:`glmnlp.text.inputs.written_form`), None for tokenised input."""
    if isinstance(texts, str):
        texts = [texts]
    elif isinstance(texts, (bytes, bytearray)) or not isinstance(texts, Iterable):
        hint = "; decode bytes first, e.g. data.decode('utf-8')" if isinstance(texts, (bytes, bytearray)) else ""
        raise TypeError(f"expected a text (str), a list of texts or a list of tokenised sentences, "
                        f"got {_kind(texts)}{hint}")
    out: list[list[str]] = []
    items: list[int] = []
    written: list[list[str] | None] = []
    by_line = lines or tokenized
    line = 0  # lines of the texts before this one (by_line)
    for k, item in enumerate(texts, start=1):
        source = f"item {k}"
        if isinstance(item, str):
            _check_utf8(item, "", source)
            if tokenized:  # one sentence a line (a str of two lines was one sentence, unlike a file of them)
                # numbered by the lines a file of them has (split_lines); a form feed, U+2028 or U+0085 inside one
                # separates tokens, as glmnlp parse --tokenized reads it (str.splitlines cut the sentence there)
                for n, file_line in enumerate(split_lines(item), start=1):
                    if toks := line_tokens(file_line):
                        out.append(toks)
                        items.append(line + n)
                        written.append(None)
                line += max(1, len(split_lines(item)))
            else:
                spans = tokenize_text_spans(item, lines=lines)
                out.extend([tok for tok, _a, _b in sent] for sent in spans)
                written.extend([item[a:b] for _tok, a, b in sent] for sent in spans)
                if lines:
                    items.extend(line + n for n in line_numbers(item, [sent[0][1] for sent in spans]))
                    line += max(1, len(split_lines(item)))
                else:
                    items.extend([k] * len(spans))
        elif isinstance(item, Sequence) and not isinstance(item, (bytes, bytearray)) and all(
                isinstance(t, str) for t in item):
            if not item:
                raise InputError("an empty list of tokens", source=source)
            for j, token in enumerate(item, start=1):
                _check_utf8(token, f"token {j}: ", source)
                if not token or any(c.isspace() for c in token):  # as a pipeline's Token refuses it
                    raise InputError(f"token {j} ({token!r}) is empty or holds whitespace", source=source)
            out.append(list(item))
            written.append(None)
            line += 1
            items.append(line if by_line else k)
        elif isinstance(item, Sequence) and not isinstance(item, (bytes, bytearray)):  # it said "got list"
            j, token = next((j, t) for j, t in enumerate(item, start=1) if not isinstance(t, str))
            raise TypeError(f"{source}: token {j} is {'None' if token is None else 'a ' + _kind(token)}, not a str")
        else:
            hint = "; decode bytes first, e.g. data.decode('utf-8')" if isinstance(item, (bytes, bytearray)) else ""
            raise TypeError(f"{source}: expected a text (str) or a list of tokens (str), got {_kind(item)}{hint}")
    for k, (sentence, item) in enumerate(zip(out, items), start=1):
        _warn_if_long(sentence, k, item)
    return out, items, written


def _warn_if_long(words: Sequence[str], k: int, item: int) -> None:
    """A :class:`LongSentenceWarning` for sentence ``k`` of item ``item`` if it has more than :data:`LONG_SENTENCE`
    words (the sentence alone did not say which line of a stimuli file it was: ``item`` is)."""
    if len(words) > LONG_SENTENCE:
        warnings.warn(LongSentenceWarning(
            f"sentence {k} has {len(words):,} words (item {item}): the measures of a sentence take time growing "
            f"faster than its length (6,000 words: over a minute); tokenised input is one sentence a line",
            k, item, len(words)), stacklevel=user_stacklevel())


@overload
def measures(
    texts: _Texts, model: _Model = None, *, tokenized: bool = False, lines: bool = False,
    kind: Literal["generative", "combined"] = "generative", units: Literal["bits", "nats"] = "bits",
    tags: Literal["model", "all"] | Iterable[SentenceTags] | None = None,
    word_classes: WordClasses | str | Path | None = None, eos: bool = True, gamma: float | None = None,
    cap: int | None = None, next_word: bool = False, max_tags: int = 8, tag_margin: float = 8.0,
    tag_filter: Literal["seen", "margin"] = "seen", unknown_words: Literal["model", "pos"] = "model",
    as_frame: Literal[False] = False, progress: Callable[[int], object] | None = None,
) -> list[MeasureRow]: ...


@overload
def measures(
    texts: _Texts, model: _Model = None, *, tokenized: bool = False, lines: bool = False,
    kind: Literal["generative", "combined"] = "generative", units: Literal["bits", "nats"] = "bits",
    tags: Literal["model", "all"] | Iterable[SentenceTags] | None = None,
    word_classes: WordClasses | str | Path | None = None, eos: bool = True, gamma: float | None = None,
    cap: int | None = None, next_word: bool = False, max_tags: int = 8, tag_margin: float = 8.0,
    tag_filter: Literal["seen", "margin"] = "seen", unknown_words: Literal["model", "pos"] = "model",
    as_frame: Literal[True], progress: Callable[[int], object] | None = None,
) -> pd.DataFrame: ...


@overload
def measures(
    texts: _Texts, model: _Model = None, *, tokenized: bool = False, lines: bool = False,
    kind: Literal["generative", "combined"] = "generative", units: Literal["bits", "nats"] = "bits",
    tags: Literal["model", "all"] | Iterable[SentenceTags] | None = None,
    word_classes: WordClasses | str | Path | None = None, eos: bool = True, gamma: float | None = None,
    cap: int | None = None, next_word: bool = False, max_tags: int = 8, tag_margin: float = 8.0,
    tag_filter: Literal["seen", "margin"] = "seen", unknown_words: Literal["model", "pos"] = "model",
    as_frame: bool = False, progress: Callable[[int], object] | None = None,
) -> list[MeasureRow] | pd.DataFrame: ...


def measures(
    texts: _Texts,
    model: _Model = None,
    *,
    tokenized: bool = False,
    lines: bool = False,
    kind: Literal["generative", "combined"] = "generative",
    units: Literal["bits", "nats"] = "bits",
    tags: Literal["model", "all"] | Iterable[SentenceTags] | None = None,
    word_classes: WordClasses | str | Path | None = None,
    eos: bool = True,
    gamma: float | None = None,
    cap: int | None = None,
    next_word: bool = False,
    max_tags: int = 8,
    tag_margin: float = 8.0,
    tag_filter: Literal["seen", "margin"] = "seen",
    unknown_words: Literal["model", "pos"] = "model",
    as_frame: bool = False,
    progress: Callable[[int], object] | None = None,
) -> list[MeasureRow] | pd.DataFrame:
    """Word-by-word measures of texts: a list of rows (:class:`~glmnlp.parser.measures.MeasureRow`, typed dicts),
    or a ``pandas.DataFrame`` with ``as_frame`` (the overloads tell a type checker which, from ``as_frame``).

    ``texts``: a raw text, a list of raw texts, or a list of tokenised sentences (lists of PTB
    tokens); ``lines=True`` makes each line of raw text one sentence (a stimuli file of one item a line, with or
    without full stops); ``tokenized=True`` reads each line of a str as one sentence of whitespace-separated tokens.
    ``model``: see :func:`load_parser` (default: the bundled model's generative term, loaded once per process; a
    model directory is loaded at every call, so give a loop over stimuli a loaded pipeline or parser).
    ``tags``: None (the model's own candidate tags, incremental) or one entry per sentence (a tag or
    a list of tags per word). ``word_classes``: a :class:`WordClasses` or a list file.
    ``max_tags``/``tag_margin``/``tag_filter``: the model's candidate tags per word (``"seen"``: only
    tags seen with the word in training; fewer: faster, see benchmarks/results/measures.md).
    ``unknown_words="pos"``: words outside the lexicon scored by their class given the POS alone, as
    the reference parser does (see glmnlp.parser.measures). ``next_word``: also the expected
    entropies of each word before it is seen and its rank
    (:data:`glmnlp.parser.measures.NEXT_COLUMNS`; expensive). ``progress``: called with 1 after each sentence
    (a progress bar's ``update``).
    Columns: :data:`glmnlp.parser.measures.COLUMNS`. See :mod:`glmnlp.parser.measures` for the definitions.

    >>> rows = measures("The horse raced past the barn fell.")   # doctest: +SKIP
    >>> rows[0]["word"], rows[0]["units"]                          # doctest: +SKIP
    ('The', 'bits')
    """
    try:  # checked before the model is loaded: the beam's range is MeasureOptions' (a model file's)
        options = MeasureOptions(kind=kind, units=units, gamma=gamma, cap=cap, eos=eos, next_word=next_word,
                                 max_tags=max_tags, tag_margin=tag_margin, tag_filter=tag_filter,
                                 unknown_words=unknown_words)
    except ValueError as exc:
        raise ConfigError(str(exc)) from None
    if lines and tokenized:
        raise ConfigError("lines applies to raw text; tokenized input is always one sentence a line")
    check_progress(progress)
    sentences, items, written = _numbered(texts, tokenized, lines)
    parser = load_parser(model, kind)
    if callable(knows := getattr(_lexicon(parser), "knows", None)):  # as a pipeline spells raw text's tokens
        sentences = [words if spelt is None else [written_form(t, w, knows) for t, w in zip(words, spelt)]
                     for words, spelt in zip(sentences, written)]
    if isinstance(word_classes, (str, Path)):
        word_classes = WordClasses.from_file(word_classes)
    if tags is not None and not isinstance(tags, str) and isinstance(tags, Iterable):  # refused as written
        tags = given_entries(parser, sentences, list(tags))
    if tags is None:  # the model's own candidates, but a web token's fixed tag, as the pipeline gives it
        known = set(getattr(getattr(parser, "grammar", None), "pos_tags", ()))
        given = [web_tags(words, known.__contains__) for words in sentences]
        if any(given):
            tags = [_sentence_tags(parser, words, fixed, options) for words, fixed in zip(sentences, given)]
    rows = _written_rows(parser, sentences, tags, options, word_classes, progress=progress, items=items)
    if as_frame:
        try:
            import pandas as pd
        except ImportError:
            raise MissingPackageError("as_frame=True needs pandas: pip install 'glmnlp[measures]'") from None
        return rows_frame(pd, rows, _columns(rows, next_word))
    return rows


def sentence_rows(parser: Any, words: Sequence[str], options: MeasureOptions | bool = True,
                  sentence: int = 1, given: Mapping[int, str] | None = None,
                  item: int | None = None) -> list[MeasureRow]:
    """The rows :func:`measures` gives for one tokenised sentence (``nlp(text, measures=True)`` uses it).

    ``options``: True for the defaults of :func:`measures`, or a :class:`MeasureOptions`. ``given``: tags given for
    some words (by position), used as given (:func:`incremental_tags`); the others get the model's candidates.
    ``item``: the ``item`` column (default: ``sentence``; :func:`glmnlp.text.inputs.sentence_items`).
    """
    opts = options if isinstance(options, MeasureOptions) else MeasureOptions()
    _warn_if_long(words, sentence, sentence if item is None else item)
    return _written_rows(parser, [list(words)], [_sentence_tags(parser, words, given, opts)], opts, None, sentence,
                         items=None if item is None else [item])


def _sentence_tags(parser: Any, words: Sequence[str], given: Mapping[int, str] | None, opts: MeasureOptions) -> Any:
    """A sentence's entry of ``corpus_measures``' tags: the model's own candidates (``"model"``), or with tags given
    for some words (pre-tagged input, web tokens), those as given (:func:`incremental_tags`)."""
    return incremental_tags(parser, model_words(words, _lexicon(parser)), given, opts) if given else "model"


def _lexicon(parser: Any) -> Any:
    """The generative model's lexicon (its ``knows``: the words' spelling, :func:`glmnlp.text.inputs.model_words`),
    or None without one."""
    return getattr(getattr(parser, "generative", None), "lexicon", None)


def incremental_tags(parser: Any, words: Sequence[str], given: Mapping[int, str],
                     options: MeasureOptions = MeasureOptions()) -> list[list[str]]:
    """Each word's tags for the incremental measures (and ``Sentence.surprisal``): a tag given for it (pre-tagged
    input, a web token's fixed tag) as given, else the generative model's own candidates
    (:func:`~glmnlp.parser.measures.candidate_tags`, which read no word after it)."""
    own = candidate_tags(parser, words, margin=options.tag_margin, max_tags=options.max_tags,
                         seen=options.tag_filter == "seen") if len(given) < len(words) else []
    return [[given[i]] if i in given else own[i] for i in range(len(words))]


def incremental_surprisal(parser: Any, words: Sequence[str], given: Mapping[int, str]) -> list[float]:
    """``Sentence.surprisal``: each word's surprisal in bits (:meth:`glmnlp.Parser.surprisal`) with the tags of
    :func:`incremental_tags`, and, with none given, the measures' rule where the model's own leave the grammar no
    analysis (:func:`~glmnlp.parser.measures.every_tag_from`): ``"!!!"`` had a surprisal of None (infinite) for
    every word, where the measures' ``surprisal`` column, which it is documented to equal, was finite."""
    tags = incremental_tags(parser, words, given)
    values = [float(v) for v in parser.surprisal(words, tags)]
    if not given and (stop := next((i for i, v in enumerate(values) if math.isinf(v)), None)) is not None:
        values = [float(v) for v in parser.surprisal(words, every_tag_from(parser, tags, stop))]
    return values


def _written_rows(parser: Any, sentences: list[list[str]], tags: Any, options: MeasureOptions, classes: Any,
                  first: int = 1, progress: Callable[[int], object] | None = None,
                  items: Sequence[int] | None = None) -> list[MeasureRow]:
    """:func:`~glmnlp.parser.measures.corpus_measures` of the sentences spelled as the parser saw words in training
    (a bracket ``(`` as ``-LRB-``: :func:`glmnlp.text.inputs.model_words`), each row's word as written."""
    lexicon = _lexicon(parser)
    rows = corpus_measures(parser, [model_words(words, lexicon) for words in sentences], tags, options=options,
                           classes=classes, first=first, progress=progress, items=items)
    for row in rows:
        words = sentences[row["sentence"] - first]
        if row["index"] <= len(words):  # not the end-of-sentence row
            row["word"] = words[row["index"] - 1]
    return rows


def _columns(rows: Sequence[Mapping[str, Any]], next_word: bool = False) -> list[str]:
    extra = next_word or bool(rows and "rank" in rows[0])
    return list(COLUMNS) + (list(NEXT_COLUMNS) if extra else [])


def _cell(value: Any) -> str:
    """A TSV/CSV cell: a float as the shortest text that reads back to the same number (six significant digits
    made a long sentence's prefix 13793.2 and its surprisals no longer add up to it), NA for NaN or None, Inf for
    infinity, ``true``/``false`` for ``known`` (as JSON writes it; pandas reads them as bool, R as logical)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:  # missing (a document's row: :func:`_value`)
        return "NA"
    if isinstance(value, float):
        if math.isnan(value):
            return "NA"
        if math.isinf(value):
            return "Inf" if value > 0 else "-Inf"
        return repr(value)
    return str(value)


def write_measures(rows: Sequence[Mapping[str, Any]], out: IO[str], fmt: str = "tsv") -> None:
    """Write rows as ``tsv`` (header line, NA/Inf for missing/infinite), ``csv`` (the same with commas), both quoted
    as RFC 4180 quotes (a cell with the delimiter or a quote), or ``json`` (one object a line, JSON Lines).

    The columns are :data:`~glmnlp.parser.measures.COLUMNS`, then :data:`~glmnlp.parser.measures.NEXT_COLUMNS`
    when the rows have them."""
    if fmt not in FORMATS:
        raise ConfigError(f"format must be one of {FORMATS}, got {fmt!r}")
    cols = _columns(rows)
    if fmt == "json":
        for row in rows:
            clean = {c: (None if isinstance(v, float) and not math.isfinite(v) else v)
                     for c in cols for v in (_value(row, c),)}
            out.write(json.dumps(clean, ensure_ascii=False) + "\n")
        return
    # RFC 4180: a cell with the delimiter or a quote is quoted, its quotes doubled; TSV likewise, as spreadsheets,
    # pandas and R read it (their TSV readers take a cell that begins with a quote as quoted: the word `"` written
    # as it is merged the rows after it into one cell). A backslash escape (as before) is not CSV: csv and pandas
    # read `50\\/50` back for the treebank's `50\/50`
    writer = csv.writer(out, delimiter="\t" if fmt == "tsv" else ",", lineterminator="\n")
    writer.writerow(cols)
    for row in rows:
        writer.writerow([_cell(_value(row, c)) for c in cols])


def _value(row: Mapping[str, Any], column: str) -> Any:
    """The row's cell. A document's row holds None for a value JSON cannot hold: infinite for ``prefix`` and
    ``surprisal`` (as :meth:`~glmnlp.text.document.Document.measures_frame` reads it; TSV wrote ``None``), missing
    (NA) elsewhere; ``known`` is missing (NA, JSON null) in a row without it, as a document saved before the column
    existed has (``KeyError: 'known'``)."""
    value = row.get(column) if column == "known" else row[column]
    return math.inf if value is None and column in ("prefix", "surprisal") else value


def plot_formats() -> list[str]:
    """The file formats (suffixes) :func:`plot_measures` can save to: matplotlib's (png, svg, pdf, ...)."""
    try:
        from matplotlib.backend_bases import FigureCanvasBase
    except ImportError:
        raise MissingPackageError("plotting needs matplotlib: pip install 'glmnlp[measures]'") from None
    return sorted(FigureCanvasBase.get_supported_filetypes())


def check_plot_path(path: str | Path) -> None:
    """Refuse, before anything is drawn, a path :func:`plot_measures` cannot save to: a suffix that is
    not a format matplotlib writes (:class:`ConfigError`; ImportError without matplotlib), a path that is a folder,
    a folder that does not exist, is not a folder or cannot be written
    (:func:`glmnlp.treebank.fileio.check_output_file`, the check of every output file)."""
    path = Path(path)
    formats = plot_formats()
    if path.suffix[1:].lower() not in formats:
        shown = f"'{path.suffix}'" if path.suffix else "no suffix"
        raise ConfigError(f"{path}: cannot draw to a file with {shown}; the name must end in .png, .svg, .pdf "
                          f"or another format matplotlib writes ({', '.join(formats)})")
    if path.is_dir():
        raise ConfigError(f"{path}: is a folder; give a file name")
    check_output_file(path)  # an existing folder in which the file can be made, as every output file's


def _measure_rows(rows: Sequence[Mapping[str, Any]] | Document | pd.DataFrame) -> list[Mapping[str, Any]]:
    """The rows plot_measures draws from: a list of rows, the ``as_frame`` DataFrame, or a Document's."""
    from glmnlp.text.document import Document

    if isinstance(rows, Document):
        rows = rows.measures
    elif hasattr(rows, "to_dict") and hasattr(rows, "columns"):  # the DataFrame of as_frame=True
        rows = rows.to_dict("records")
    if isinstance(rows, (str, bytes)) or not isinstance(rows, Iterable):
        raise TypeError(f"expected the rows of glmnlp.measures (or its DataFrame, or a Document), got "
                        f"{type(rows).__name__}")
    rows = list(rows)
    if not all(isinstance(r, Mapping) and "sentence" in r for r in rows):
        raise TypeError("expected the rows of glmnlp.measures: dicts with a 'sentence' column")
    return rows


def plot_measures(
    rows: Sequence[Mapping[str, Any]] | Document | pd.DataFrame, sentence: int = 1, *,
    columns: Sequence[str] = ("surprisal", "syntactic_surprisal", "lexical_surprisal", "entropy"),
    path: str | Path | None = None, ax: Axes | None = None, title: str | None = None,
) -> Axes:
    """Draw one sentence's measures word by word (matplotlib, optional): one line per column of ``columns`` (a name
    or a sequence of names).

    ``rows``: the rows of :func:`measures` (a list, or its ``as_frame`` DataFrame) or of a document. Returns the
    matplotlib Axes; with ``path`` the figure is also saved there (PNG, SVG, PDF or another format matplotlib
    writes, by suffix; :func:`check_plot_path` refuses other paths before drawing, and a file that cannot be
    written is a :class:`ConfigError`). A figure made only to be saved (``path`` without ``ax``) is drawn apart
    from pyplot: matplotlib's backend and pyplot's open figures stay as they were (a notebook's inline drawing).
    ``ax``: draw there instead (an Axes of a figure or of a subfigure; with ``path`` the whole figure is saved: a
    subfigure's raised ``AttributeError``, as a subfigure has no ``savefig``).
    """
    try:
        import matplotlib.figure
    except ImportError:
        raise MissingPackageError("plotting needs matplotlib: pip install 'glmnlp[measures]'") from None
    if path is not None:
        check_plot_path(path)
    rows = _measure_rows(rows)
    if isinstance(sentence, bool) or not isinstance(sentence, int):
        raise TypeError(f"sentence must be a sentence number, got {sentence!r} (the image's path is path=...)")
    sel = [r for r in rows if r["sentence"] == sentence]
    if not sel:
        present = sorted({r["sentence"] for r in rows})
        span = "none" if not present else str(present[0]) if len(present) == 1 else f"{present[0]}-{present[-1]}"
        raise InputError(f"no rows for sentence {sentence} (sentences in the rows: {span})")
    known = list(COLUMNS) + [c for c in NEXT_COLUMNS if c in sel[0]]  # next_word=True's columns when there
    if isinstance(columns, str):  # one column's name, read letter by letter: "unknown column 's'"
        columns = (columns,)
    for col in columns:
        if col not in known:
            raise InputError(f"unknown column {col!r}; expected one of {', '.join(known)}")
    fig = None
    if ax is None:
        size = (max(6.0, 0.7 * len(sel)), 3.6)
        if path is None:  # to be shown: pyplot's figure (a notebook draws it)
            import matplotlib.pyplot as plt

            fig, ax = plt.subplots(figsize=size)
        else:
            fig = matplotlib.figure.Figure(figsize=size)
            ax = fig.subplots()
    xs = list(range(len(sel)))
    for col in columns:  # a document's rows hold None for an infinite or undefined value: not drawn
        ax.plot(xs, [math.nan if r[col] is None else r[col] for r in sel], marker="o", label=col.replace("_", " "))
    ax.set_xticks(xs)
    ax.set_xticklabels([r["word"] for r in sel], rotation=45, ha="right")
    unit = sel[0]["units"]
    ax.set_ylabel(unit if any(c in ("prefix", "surprisal", "syntactic_surprisal", "lexical_surprisal", "entropy")
                              for c in columns) else "")
    ax.set_title(title if title is not None else " ".join(r["word"] for r in sel if r["word"] != "</s>"))
    ax.legend(fontsize="small")
    ax.grid(alpha=0.3)
    if fig is not None:
        fig.tight_layout()
    if path is not None:  # drawn in memory, then written atomically: a failed write left half a file in its place
        buffer = io.BytesIO()
        owner = fig if fig is not None else ax.figure
        root = owner if isinstance(owner, matplotlib.figure.Figure) else owner.figure  # a subfigure's root
        root.savefig(buffer, format=Path(path).suffix[1:].lower() or None)
        atomic_write_bytes(path, buffer.getvalue())  # a ConfigError naming the file and the reason
    return ax
