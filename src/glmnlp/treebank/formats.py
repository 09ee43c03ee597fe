"""Token-level corpora: tagged (or untagged) sentences and the file formats they come in.

The tagger (Collins 2002) and the parser's tagged input (C&R 2004 §5, footnote 3) work
on sentences of words with one POS tag each. :class:`TaggedSentence` is that record, and this
module reads and writes the formats such data is found in:

* **CoNLL-U** (Universal Dependencies v2): ten tab-separated fields per word line, ``#`` comment
  lines before the words, a blank line after each sentence. :func:`read_conllu` takes FORM and the
  XPOS (default; PTB tags in UD English EWT) or UPOS column. Multiword-token range lines (``3-4``)
  and empty nodes (``8.1``) are not syntactic words and are skipped, as the UD format defines; the
  word IDs must run 1, 2, 3, ... in each sentence.
* **word/TAG**: one sentence per line, whitespace-separated tokens ``word/TAG`` split on the *last*
  separator (so ``1/2/CD`` is the word ``1/2`` with tag ``CD``).
* **tab**: ``word<TAB>tag`` lines, a blank line between sentences.
* **tokens**: one pre-tokenised sentence per line, whitespace-separated, no tags (``tags=None``).
* **trees**: bracketed trees (``.mrg`` layout or one per line); words and tags come from the
  preterminals, with the ``-NONE-`` empty elements left out (:func:`glmnlp.treebank.preprocess.tagged_words`).

Our choices:

* Nothing is repaired: a wrong field count, an empty word or tag (a CoNLL-U FORM of only spaces is empty), a tag
  with whitespace, a token without ``/TAG``, a ``_`` in the requested tag column, a comment line after a
  sentence's words or a bad word ID raises :class:`~glmnlp.errors.FormatError` with the file, the 1-based line
  and the reason.
* Blank lines carry no sentence: in the line-per-sentence formats (word/TAG, tokens) a blank line
  is skipped, and runs of blank lines between tab or CoNLL-U blocks count as one separator. A
  missing blank line after the last CoNLL-U/tab sentence is accepted (end of file ends it).
* A leading UTF-8 byte-order mark is ignored; any other undecodable byte is an InputError (not a FormatError: an
  encoding is no format, :mod:`glmnlp.treebank.fileio`), an open text stream's too (:mod:`glmnlp.treebank.sources`).
* :func:`iter_tagged` reads every format one sentence at a time, as the lines arrive (``glmnlp tag`` streams with
  it; the list readers are it, collected): a bracketed tree, which may span lines, once its closing bracket is read.
* :func:`read_tagged` with ``fmt="auto"`` decides by file suffix (``.conllu``/``.conll``,
  ``.mrg``/``.tree``/``.trees``; ``.word_tag`` and ``.tab`` only where the content cannot tell: :func:`iter_tagged`
  too, given the name's format), then by the first non-blank line, in this order: ten tab fields
  (or ``#`` comments followed by such a line) -> CoNLL-U; two tab fields -> tab; every token
  containing ``/`` (and the line not a one-line ``( ... )`` tree) -> word/TAG, so a sentence
  starting with ``(/-LRB-`` stays word/TAG; a line starting with ``(`` -> trees. Anything else is
  an error naming the line, never a guess.
* The writers refuse what their format could not read back (a word with whitespace in word/TAG, a
  tag containing the separator, a missing tag in word/TAG) rather than writing a lossy file.
  :func:`write_conllu` writes ``_`` in every column but ID, FORM and XPOS (and ``_`` as XPOS when
  a sentence has no tags), or UPOS instead of XPOS with ``column="upos"``.
* :func:`read_tagged` reads a CoNLL-U file's XPOS column unless told ``column="upos"``, which it refuses
  for the other formats (they have one tag per word, so the request is a mistake, not a choice).
  :func:`read_tagged_as` reads a column if the file is CoNLL-U and any other format as it is, and says which
  format it read: what a tagger trained on a CoNLL-U column asks of a file it did not choose.
"""

from __future__ import annotations

import io
import re
from collections.abc import Iterable, Iterator, Sequence
from itertools import chain
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from glmnlp.errors import ConfigError, FormatError
from glmnlp.treebank.fileio import line_tokens, split_lines
from glmnlp.treebank.sources import Source, checked_stream_lines, load_source, stream_name

__all__ = [
    "TaggedSentence", "read_conllu", "read_word_tag", "word_tag_line", "read_tab", "read_tokens", "iter_tokens",
    "read_tagged", "read_tagged_as", "iter_tagged", "format_by_suffix", "named_format", "write_word_tag",
    "write_conllu", "write_tab", "detect_format",
]


@dataclass(frozen=True, slots=True)
class TaggedSentence:
    """A sentence of words with one tag per word, or ``tags=None`` for untagged input."""

    words: tuple[str, ...]
    tags: tuple[str, ...] | None  # None when the input has no tags

    def __post_init__(self) -> None:
        if self.tags is not None and len(self.tags) != len(self.words):
            raise ValueError(f"{len(self.words)} words but {len(self.tags)} tags")

    def __len__(self) -> int:
        return len(self.words)


Format = Literal["auto", "conllu", "word_tag", "tab", "trees"]


# -- CoNLL-U ---------------------------------------------------------------------------------

_WORD_ID = re.compile(r"[1-9][0-9]*\Z")
_RANGE_ID = re.compile(r"([1-9][0-9]*)-([1-9][0-9]*)\Z")
_EMPTY_ID = re.compile(r"(0|[1-9][0-9]*)\.[1-9][0-9]*\Z")
_COLUMN_INDEX = {"upos": 3, "xpos": 4}


def read_conllu(path: Source, column: Literal["xpos", "upos"] = "xpos") -> list[TaggedSentence]:
    """Sentences of a CoNLL-U file: FORM and the ``column`` tag of every syntactic word."""
    if column not in _COLUMN_INDEX:
        raise ConfigError(f"column must be 'xpos' or 'upos', not {column!r}")
    name, text = load_source(path)
    return list(_parse_conllu(split_lines(text), name, _COLUMN_INDEX[column], column.upper()))


def _parse_conllu(lines: Iterable[str], name: str, col: int, col_name: str) -> Iterator[TaggedSentence]:
    """The sentences of CoNLL-U ``lines``, each as its blank line is read: FORM and column ``col`` (-1: no tags,
    ``tags=None``)."""
    words: list[str] = []
    tags: list[str] = []
    in_sentence = False  # saw a comment or a word line since the last blank line
    start_line = 0
    open_range = (0, "", 0)  # the last multiword-token range read: (its last word, its ID, its line)

    def check_range() -> None:
        """The words of the open range must all follow before the sentence ends or the next range begins: a range
        2-4 with word 2 alone read as that word, silently."""
        last, ident, line = open_range
        if len(words) < last:
            raise FormatError(f"multiword-token range {ident} is followed by its words up to {len(words)} only",
                              source=name, line=line)

    def close(lineno: int) -> TaggedSentence:
        if not words:
            raise FormatError("sentence has comment lines but no word lines", source=name, line=lineno)
        sentence = TaggedSentence(tuple(words), tuple(tags) if col >= 0 else None)
        words.clear()
        tags.clear()
        return sentence

    for lineno, line in enumerate(lines, 1):
        if not line.strip():
            if in_sentence:
                check_range()
                yield close(start_line)
                in_sentence = False
                open_range = (0, "", 0)
            continue
        if not in_sentence:
            in_sentence = True
            start_line = lineno
        if line.startswith("#"):
            if words:
                raise FormatError("comment line after the word lines of a sentence", source=name, line=lineno)
            continue
        fields = line.split("\t")
        if len(fields) != 10:
            raise FormatError(f"expected 10 tab-separated fields, found {len(fields)}", source=name, line=lineno)
        ident = fields[0]
        if _WORD_ID.match(ident):
            if int(ident) != len(words) + 1:
                raise FormatError(
                    f"word ID {ident} out of sequence (expected {len(words) + 1})", source=name, line=lineno
                )
            form, tag = fields[1], fields[col] if col >= 0 else None
            if not form.strip():  # UD's FORM may hold a space ("New York"), never be nothing else
                raise FormatError("empty FORM field", source=name, line=lineno)
            if tag is None:
                words.append(form)
                continue
            if not tag:
                raise FormatError(f"empty {col_name} field", source=name, line=lineno)
            if any(ch.isspace() for ch in tag):  # "NN " trained a tag of its own that no output could write
                raise FormatError(f"{col_name} tag {tag!r} contains whitespace", source=name, line=lineno)
            if tag == "_":
                also = " (a file tagged in UPOS only: read its UPOS column)" if col_name == "XPOS" else ""
                raise FormatError(f"word {form!r} has no {col_name} tag ('_'){also}", source=name, line=lineno)
            words.append(form)
            tags.append(tag)
            continue
        match = _RANGE_ID.match(ident)
        if match:
            first, last = int(match.group(1)), int(match.group(2))
            if first >= last:
                raise FormatError(f"multiword-token range {ident} is empty or reversed", source=name, line=lineno)
            if first != len(words) + 1:
                raise FormatError(
                    f"multiword-token range {ident} does not start at the next word ({len(words) + 1})",
                    source=name,
                    line=lineno,
                )
            check_range()
            open_range = (last, ident, lineno)
            continue  # a surface token; its syntactic words follow on their own lines
        if _EMPTY_ID.match(ident):
            continue  # an empty node of the enhanced graph: not a word of the sentence
        raise FormatError(f"bad word ID {ident!r}", source=name, line=lineno)
    if in_sentence:
        check_range()
        yield close(start_line)


# -- word/TAG, tab, tokens -------------------------------------------------------------------


def _check_sep(sep: str) -> None:
    """A word/tag separator both ways: a token splits at its last ``sep``, and tokens at whitespace."""
    if not isinstance(sep, str):
        raise TypeError(f"separator must be a str, not {type(sep).__name__}")
    if not sep or any(ch.isspace() for ch in sep):
        raise ConfigError(f"separator must be non-empty and contain no whitespace, not {sep!r}")


def read_word_tag(path: Source, sep: str = "/") -> list[TaggedSentence]:
    """One sentence per line of ``word/TAG`` tokens, each split on its last ``sep``."""
    _check_sep(sep)
    name, text = load_source(path)
    return list(_parse_word_tag(split_lines(text), name, sep))


def _parse_word_tag(lines: Iterable[str], name: str, sep: str) -> Iterator[TaggedSentence]:
    for lineno, line in enumerate(lines, 1):
        sentence = word_tag_line(line, name, lineno, sep)
        if sentence is not None:
            yield sentence


def word_tag_line(line: str, name: str, lineno: int, sep: str = "/") -> TaggedSentence | None:
    """The sentence of one line of ``word/TAG`` tokens, each split on its last ``sep`` (None: a blank line).

    One reader of the format for every command: ``glmnlp tag`` reads files of such lines, ``glmnlp parse
    --tagged`` reads them as they come. A malformed token is a :class:`FormatError` at ``name:lineno``."""
    words: list[str] = []
    tags: list[str] = []
    for k, token in enumerate(line.split(), 1):
        word, found, tag = token.rpartition(sep)
        if not found:
            raise FormatError(f"token {k} {token!r} has no {sep}TAG", source=name, line=lineno)
        if not word:
            raise FormatError(f"token {k} {token!r} has an empty word", source=name, line=lineno)
        if not tag:
            raise FormatError(f"token {k} {token!r} has an empty tag", source=name, line=lineno)
        words.append(word)
        tags.append(tag)
    return TaggedSentence(tuple(words), tuple(tags)) if words else None


def read_tab(path: Source) -> list[TaggedSentence]:
    """``word<TAB>tag`` lines, a blank line after each sentence."""
    name, text = load_source(path)
    return list(_parse_tab(split_lines(text), name))


def _parse_tab(lines: Iterable[str], name: str) -> Iterator[TaggedSentence]:
    words: list[str] = []
    tags: list[str] = []
    for lineno, line in enumerate(lines, 1):
        if not line.strip():
            if words:
                yield TaggedSentence(tuple(words), tuple(tags))
                words, tags = [], []
            continue
        fields = line.split("\t")
        if len(fields) != 2:
            raise FormatError(
                f"expected 2 tab-separated fields (word, tag), found {len(fields)}", source=name, line=lineno
            )
        word, tag = fields
        if not word.strip():
            raise FormatError("empty word", source=name, line=lineno)
        if not tag.strip():
            raise FormatError(f"word {word!r} has an empty tag", source=name, line=lineno)
        if any(ch.isspace() for ch in word) or any(ch.isspace() for ch in tag):
            raise FormatError(f"word or tag contains whitespace ({line!r})", source=name, line=lineno)
        words.append(word)
        tags.append(tag)
    if words:
        yield TaggedSentence(tuple(words), tuple(tags))


def read_tokens(path_or_lines: Source | Iterable[str]) -> list[TaggedSentence]:
    """One pre-tokenised sentence per line (whitespace-separated); blank lines are skipped; ``tags=None``."""
    if isinstance(path_or_lines, (str, Path)) or hasattr(path_or_lines, "read"):
        _, text = load_source(path_or_lines)  # type: ignore[arg-type]
        lines: Iterable[str] = split_lines(text)
    else:
        lines = path_or_lines
    return list(iter_tokens(lines))


def iter_tokens(lines: Iterable[str]) -> Iterator[TaggedSentence]:
    """:func:`read_tokens` of lines, one sentence at a time as the lines are read (``glmnlp tag`` streams with it)."""
    for line in lines:
        if tokens := line_tokens(line):
            yield TaggedSentence(tuple(tokens), None)


# -- trees -----------------------------------------------------------------------------------


def _parse_trees(lines: Iterable[str], name: str) -> Iterator[TaggedSentence]:
    from glmnlp.treebank.preprocess import tagged_words
    from glmnlp.treebank.trees import iter_trees_with_lines

    for index, (lineno, tree) in enumerate(iter_trees_with_lines(lines, name), 1):
        words, tags = tagged_words(tree)
        if not words:
            raise FormatError(f"tree {index} has no words besides empty elements", source=name, line=lineno)
        yield TaggedSentence(words, tags)


# -- format detection ------------------------------------------------------------------------

#: The formats file names say. The names ``glmnlp data --tagged`` writes (SPLIT.word_tag, SPLIT.tab) decide only where
#: the content cannot (their bad first line was "cannot tell the format" instead of the format's own message; a file of
#: another format under such a name is read as its content says); the others decide (:func:`format_by_suffix`).
_SUFFIXES: dict[str, Format] = {".conllu": "conllu", ".conll": "conllu", ".mrg": "trees", ".tree": "trees",
                                ".trees": "trees", ".word_tag": "word_tag", ".tab": "tab"}
_CONTENT_FIRST = frozenset({".word_tag", ".tab"})


def detect_format(lines: Sequence[str], name: str = "<input>") -> Format:
    """The format of ``lines``, judged from the first non-blank line (see the module docstring)."""
    for lineno, line in enumerate(lines, 1):
        if not line.strip():
            continue
        fields = line.split("\t")
        if len(fields) == 10:
            return "conllu"
        if line.startswith("#") and _first_word_line_has_ten_fields(lines, lineno):
            return "conllu"
        if len(fields) == 2:
            return "tab"
        tokens = line.split()
        stripped = line.strip()
        bracketed = stripped.startswith("(") and stripped.endswith(")")
        if all("/" in token for token in tokens) and not bracketed:
            return "word_tag"
        if stripped.startswith("("):
            return "trees"
        untagged = len(fields) == 1 and not any("/" in token for token in tokens)  # plain tokens: no format holds
        raise FormatError(  # their tags ("pass it explicitly" sent users to look for an option that could not help)
            "cannot tell the format (not CoNLL-U, word<TAB>tag, word/TAG or trees)"
            + ("; this line has no tags (plain tokens)" if untagged else "; name its format"),
            source=name,
            line=lineno,
        )
    raise FormatError("cannot tell the format of an empty input", source=name, line=None)


def _first_word_line_has_ten_fields(lines: Sequence[str], after: int) -> bool:
    """True if the first non-blank line after line ``after`` not starting with '#' has ten tab fields."""
    for line in lines[after:]:
        if line.strip() and not line.startswith("#"):
            return len(line.split("\t")) == 10
    return False


def read_tagged(
    path: Source, fmt: Format = "auto", column: Literal["xpos", "upos"] | None = "xpos"
) -> list[TaggedSentence]:
    """Tagged sentences from any supported format; ``"auto"`` sniffs it (module docstring).

    ``column``: the tag column of a CoNLL-U file; the other formats have one tag per word, so ``"upos"`` is
    refused for them (the caller asked for a column the file does not have). ``None``: the words are wanted,
    not the tags (a CoNLL-U file's sentences then have ``tags=None``, and may have ``_`` in every tag column)."""
    _check_request(fmt, column)  # before the file is read
    name, lines, fmt = _sniffed(path, fmt)
    return list(iter_tagged(lines, fmt, column, name))


def _sniffed(path: Source, fmt: Format) -> tuple[str, list[str], Format]:
    """``(name, lines, format)`` of ``path``, ``"auto"`` resolved as :func:`read_tagged` resolves it: by the suffix,
    else by the first lines (:func:`detect_format`)."""
    name, text = load_source(path)
    lines = split_lines(text)
    fmt = format_by_suffix(path) if fmt == "auto" else fmt
    return name, lines, _detected(_format_head(iter(lines)), name, named_format(path)) if fmt == "auto" else fmt


def _detected(head: list[str], name: str, named: Format) -> Format:
    """The format ``head``'s first lines show (:func:`detect_format`), else, where they cannot tell it (a tagless or
    one-token first line), ``named``, the format the file's name says (:func:`named_format`), if it says one: that
    format's reader then reads the file, or says what is wrong with it in its own words."""
    try:
        return detect_format(head, name)
    except FormatError as exc:
        if named == "auto" or not exc.reason.startswith("cannot tell the format ("):
            raise
        return named


def read_tagged_as(
    path: Source, fmt: Format = "auto", conllu_column: Literal["xpos", "upos"] = "xpos"
) -> tuple[list[TaggedSentence], Format]:
    """:func:`read_tagged`, reading ``conllu_column`` if the file is CoNLL-U (every other format has one tag per word,
    and is read as it is), and the format it was read as (``"auto"`` resolved: by the suffix, else by the first
    lines, :func:`detect_format`). A tagger trained on a CoNLL-U column reads files this way."""
    _check_request(fmt, conllu_column)
    name, lines, fmt = _sniffed(path, fmt)
    column = conllu_column if fmt == "conllu" else "xpos"
    return list(iter_tagged(lines, fmt, column, name)), fmt


def format_by_suffix(path: Source) -> Format:
    """The format a file's suffix decides (``.conllu``/``.conll``, ``.mrg``/``.tree``/``.trees``), else ``"auto"``; a
    stream has none. ``.word_tag`` and ``.tab`` decide only where the content cannot: :func:`named_format`."""
    suffix = Path(path).suffix.lower() if isinstance(path, (str, Path)) else ""
    return "auto" if suffix in _CONTENT_FIRST else _SUFFIXES.get(suffix, "auto")


def named_format(path: Source) -> Format:
    """The format a file's suffix names, ``.word_tag`` and ``.tab`` too, else ``"auto"`` (a stream has none): what a
    command that reads another format warns of (a word/TAG file read as tokens tagged ``Savin/NNP`` as one word)."""
    return _SUFFIXES.get(Path(path).suffix.lower(), "auto") if isinstance(path, (str, Path)) else "auto"


def iter_tagged(
    lines: Iterable[str], fmt: Format = "auto", column: Literal["xpos", "upos"] | None = "xpos",
    name: str | None = None, named: Format = "auto",
) -> Iterator[TaggedSentence]:
    """:func:`read_tagged` of ``lines`` (without their line ends), each sentence as soon as its lines are read
    (``glmnlp tag`` streams with it): ``"auto"`` is decided by the first lines (:func:`detect_format`; no suffix
    here: :func:`format_by_suffix`), or, where they cannot tell, by ``named``, the format the file's name says
    (:func:`named_format`), as :func:`read_tagged` decides; a bracketed tree as soon as its closing bracket is read.
    A bad ``fmt`` or ``column`` is a ConfigError at the call, before any line is read. Errors name the lines
    ``name``, by default an open file's name (as :func:`read_tagged` names it), else ``<input>``."""
    _check_request(fmt, column)
    if isinstance(lines, io.TextIOBase):  # an open file: its bad byte an InputError, as a path's
        name = name if name is not None else stream_name(lines, "<input>")
        lines = checked_stream_lines(lines, name)
    return _iter_tagged(iter(lines), fmt, column, "<input>" if name is None else name, named)


def _check_request(fmt: str, column: str | None) -> None:
    """ConfigError for a format or CoNLL-U column that no reader has (a caller's mistake, not the file's)."""
    if fmt not in ("auto", "conllu", "word_tag", "tab", "trees"):
        raise ConfigError(f"unknown format {fmt!r}")
    if column is not None and column not in _COLUMN_INDEX:
        raise ConfigError(f"column must be 'xpos' or 'upos', not {column!r}")


def _iter_tagged(lines: Iterator[str], fmt: Format, column: str | None, name: str,
                 named: Format) -> Iterator[TaggedSentence]:
    head: list[str] = []
    if fmt == "auto":
        head = _format_head(lines)
        fmt = _detected(head, name, named)
    if column == "upos" and fmt != "conllu":
        raise FormatError(
            f"the UPOS column was asked for, but this is a {fmt} file, with one tag per word", source=name
        )
    every = chain(head, lines)
    if fmt == "trees":
        yield from _parse_trees(every, name)
    elif fmt == "conllu":
        col, col_name = (-1, "") if column is None else (_COLUMN_INDEX[column], column.upper())
        yield from _parse_conllu(every, name, col, col_name)
    elif fmt == "tab":
        yield from _parse_tab(every, name)
    else:
        yield from _parse_word_tag(every, name, "/")


def _format_head(lines: Iterator[str]) -> list[str]:
    """The first lines, as many as :func:`detect_format` reads: to the first non-blank one, and past ``#`` comments
    to the first line after them that is neither blank nor a comment."""
    head: list[str] = []
    for line in lines:
        head.append(line)
        if line.strip() and not line.startswith("#"):
            break
    return head


# -- writing ---------------------------------------------------------------------------------


def _check_token(value: str, what: str, index: int, position: int, sep: str = "", spaces: bool = False,
                 line_start: bool = False) -> None:
    """Refuse an empty token, one with whitespace (``spaces``: a tab or a line break only, the whitespace a CoNLL-U
    field cannot hold), (for tags) one containing ``sep``, or (``line_start``: it begins a line) one beginning with
    U+FEFF, which the readers skip as a byte order mark (``\ufeffx`` read back as ``x``)."""
    if not value:
        reason = "is empty"
    elif line_start and value.startswith("\ufeff"):
        reason = "begins with U+FEFF, which a reader skips at a line's start as a byte order mark"
    elif spaces and ("\t" in value or "\n" in value or "\r" in value):  # the readers' line ends (U+2028: text)
        reason = "contains a tab or a line break"
    elif not spaces and any(ch.isspace() for ch in value):
        reason = "contains whitespace"
    elif sep and sep in value:
        reason = f"contains the separator {sep!r}"
    else:
        return
    raise FormatError(f"{what} {position + 1} ({value!r}) {reason}", source="<output>", line=index)


def write_word_tag(sentences: Iterable[TaggedSentence], sep: str = "/") -> str:
    """``word/TAG`` lines, one per sentence (the inverse of :func:`read_word_tag`).

    Raises :class:`FormatError` (``line`` = 1-based sentence number) for an untagged sentence, a word
    with whitespace, or a tag that is empty, has whitespace or contains ``sep``; :class:`ConfigError` for a ``sep``
    :func:`read_word_tag` refuses (empty or with whitespace: its lines could not be read back; TypeError: no str).
    """
    _check_sep(sep)
    out = []
    for index, sentence in enumerate(sentences, 1):
        if sentence.tags is None:
            raise FormatError("sentence has no tags", source="<output>", line=index)
        if not sentence.words:
            raise FormatError("sentence has no words", source="<output>", line=index)
        tokens = []
        for position, (word, tag) in enumerate(zip(sentence.words, sentence.tags)):
            _check_token(word, "word", index, position, line_start=position == 0)
            _check_token(tag, "tag", index, position, sep)
            tokens.append(f"{word}{sep}{tag}")
        out.append(" ".join(tokens) + "\n")
    return "".join(out)


def write_tab(sentences: Iterable[TaggedSentence]) -> str:
    """``word<TAB>tag`` lines with a blank line after each sentence (the inverse of :func:`read_tab`)."""
    out = []
    for index, sentence in enumerate(sentences, 1):
        if sentence.tags is None:
            raise FormatError("sentence has no tags", source="<output>", line=index)
        if not sentence.words:
            raise FormatError("sentence has no words", source="<output>", line=index)
        for position, (word, tag) in enumerate(zip(sentence.words, sentence.tags)):
            _check_token(word, "word", index, position, line_start=True)
            _check_token(tag, "tag", index, position)
            out.append(f"{word}\t{tag}\n")
        out.append("\n")
    return "".join(out)


def write_conllu(
    sentences: Iterable[TaggedSentence],
    column: Literal["xpos", "upos"] = "xpos",
    misc: Iterable[Sequence[str]] | None = None,
    *,
    first_id: int | None = None,
    texts: Iterable[str] | None = None,
) -> str:
    """Minimal CoNLL-U: ID, FORM and the tag in ``column`` (XPOS, the fifth, or UPOS, the fourth) filled, ``_``
    elsewhere, a blank line after each sentence; ``misc`` (one sequence per sentence, one value per word, ``_`` for
    none) fills the tenth column (MISC), e.g. ``SpaceAfter=No``.

    With ``first_id``, each sentence opens with the two comment lines UD's validator requires: ``# sent_id``,
    numbered from ``first_id`` on, and ``# text``, the sentence's entry of ``texts`` (one per sentence, on one line)
    or, without ``texts``, its words joined by single spaces, which the forms rebuild with no ``SpaceAfter`` marks.

    Raises :class:`FormatError` (``line`` = 1-based sentence number) for an empty sentence, a word containing a
    tab or a line break, a tag or MISC value containing whitespace, an empty word, tag or MISC value, the tag ``_``
    (which means "no tag"), or MISC values not one per word of every sentence.
    A word may hold spaces, as UD's FORM may ("New York" as one token), and reads back as written.
    """
    if column not in _COLUMN_INDEX:
        raise ConfigError(f"column must be 'xpos' or 'upos', not {column!r}")
    if texts is not None and first_id is None:
        raise ValueError("texts are written as '# text' lines, which need first_id for their '# sent_id' lines")
    buffer = io.StringIO()
    miscs = None if misc is None else iter(misc)
    lines = None if texts is None else iter(texts)
    for index, sentence in enumerate(sentences, 1):
        if not sentence.words:
            raise FormatError("sentence has no words", source="<output>", line=index)
        if first_id is not None:
            text = " ".join(sentence.words) if lines is None else next(lines, None)
            if text is None:
                raise FormatError("no text for this sentence", source="<output>", line=index)
            if lines is not None and (not text or "\n" in text or "\r" in text):  # the words are checked below
                raise FormatError("the sentence's text is empty or holds a line break", source="<output>", line=index)
            buffer.write(f"# sent_id = {first_id + index - 1}\n# text = {text}\n")
        tags = sentence.tags if sentence.tags is not None else ("_",) * len(sentence.words)
        extra = None if miscs is None else next(miscs, None)
        if miscs is not None and extra is None:
            raise FormatError("no MISC values for this sentence", source="<output>", line=index)
        if extra is not None and len(extra) != len(sentence.words):
            raise FormatError(f"{len(extra)} MISC values for {len(sentence.words)} words", source="<output>",
                              line=index)
        for position, (word, tag) in enumerate(zip(sentence.words, tags)):
            _check_token(word, "word", index, position, spaces=True)
            if sentence.tags is not None:
                _check_token(tag, "tag", index, position)
                if tag == "_":
                    raise FormatError(
                        f"tag {position + 1} is '_', which CoNLL-U reads as no tag", source="<output>", line=index
                    )
            value = "_" if extra is None else extra[position]
            if extra is not None:
                _check_token(value, "MISC value", index, position)
            upos, xpos = (tag, "_") if column == "upos" else ("_", tag)
            buffer.write(f"{position + 1}\t{word}\t_\t{upos}\t{xpos}\t_\t_\t_\t_\t{value}\n")
        buffer.write("\n")
    return buffer.getvalue()
