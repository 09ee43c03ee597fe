"""The input of ``glmnlp parse``: numbered lines or TEXT arguments grouped into documents, tags checked.

Raw text is read as paragraphs (a blank line ends one; ``lines_mode``: one sentence per line), ``--tokenized`` input as
one sentence of whitespace-separated PTB tokens per line, ``--tagged`` input as one sentence of ``word/TAG`` tokens
per line (the last ``/`` separates the tag). Brackets inside tokens and tags are spelled as the PTB spells them
(``(`` -> ``-LRB-``). Every document keeps its ``file:line`` for the messages of the stages after it.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any

import click

from glmnlp.cli._params import first_line_peek, not_parsed, other_format_hint, warn_of_named_format
from glmnlp.errors import ConfigError, InputError
from glmnlp.text.inputs import model_words
from glmnlp.treebank.fileio import decoded_arguments, is_blank, line_tokens
from glmnlp.treebank.formats import word_tag_line

__all__ = ["Unit", "argument_units", "checked_tags", "read_units"]


@dataclass(frozen=True)
class Unit:
    """One document to analyse: its pipeline input and where it starts (for messages)."""

    doc: Any  # str (raw text) or a one-sentence list of tokens / (word, tag) pairs
    source: str
    line: int


def _tagged_sentence(line: str, source: str, number: int) -> list[tuple[str, str]]:
    sentence = word_tag_line(line, source, number)
    if sentence is None:
        raise InputError("empty input: nothing to parse", source=source, line=number)
    assert sentence.tags is not None  # word_tag_line gives every word its tag
    return list(zip(sentence.words, sentence.tags))  # as written: the pipeline spells them for the models


def checked_tags(units: Iterable[Unit], pipeline: Any, *, map_unknown: bool) -> Iterator[Unit]:
    """``--tagged`` units whose tags the parser knows; an unknown tag is a ``file:line`` error, or with
    ``map_unknown`` it is replaced by the tagger's best tag for that word among those the parser knows (with a
    warning; the tagger's own best may be unknown to the parser too, when their tagsets differ).

    The parser and the pipeline refuse such a tag too, with no file or line; this check reads tags as they do
    (:func:`glmnlp.parser.tag_check.model_tag`: STTS ``$(`` as the model's ``$-LRB-``) and names the file's line.
    """
    from glmnlp.parser.tag_check import model_tag  # (the parser's package, imported only for --tagged input)

    known = set(pipeline.parser_facts()["pos_tags"] or ())  # from the metadata: the parser is not built here
    for unit in units:
        if not known:
            yield unit
            continue
        fixed = []
        for sentence in unit.doc:
            bad = [k for k, (_, tag) in enumerate(sentence) if model_tag(tag, known) is None]  # $( as $-LRB-
            if bad and not map_unknown:
                word, tag = sentence[bad[0]]
                raise InputError(
                    f"token {bad[0] + 1} {word}/{tag}: unknown tag {tag!r} (the model's tags: "
                    f"{' '.join(sorted(known))}; --map-unknown-tags replaces unknown tags by the tagger's)",
                    source=unit.source, line=unit.line,
                )
            if bad:
                if not pipeline.has_tagger:
                    raise ConfigError("--map-unknown-tags needs a tagger (this model has none; give --tagger DIR)")
                # the tagger's best tag that the parser knows (its own best may be unknown to the parser too)
                ranked = pipeline.tagger.multitag(model_words([w for w, _ in sentence], pipeline.tagger), math.inf)
                guess = {k: next((t for t in ranked[k] if model_tag(t, known) is not None), None) for k in bad}
                for k in bad:
                    if guess[k] is None:
                        raise InputError(f"token {k + 1}: unknown tag {sentence[k][1]!r}, and the tagger has no tag "
                                         "the parser knows for it", source=unit.source, line=unit.line)
                    click.echo(f"warning: {unit.source}:{unit.line}: token {k + 1}: unknown tag "
                               f"{sentence[k][1]!r} replaced by {guess[k]!r}", err=True)
                sentence = [(w, guess.get(k) or t) for k, (w, t) in enumerate(sentence)]
            fixed.append(sentence)
        yield Unit(fixed, unit.source, unit.line)


def _token_sentence(line: str) -> list[str]:
    """The tokens of a --tokenized line, as written (CoNLL-U and JSON output show them so; the pipeline gives the
    models their treebank spelling, ``(`` as ``-LRB-``, and the trees are written with it)."""
    return line_tokens(line)


#: Characters of one paragraph past which ``read_units`` warns: a file with no blank line is one document, parsed
#: in one piece (625 KB of one-sentence lines: 71 s before the first tree, 337 MB, one worker whatever ``--jobs``).
LARGE_PARAGRAPH = 200_000


def read_units(
    lines: Iterable[tuple[int, str]], source: str, mode: str, *, lines_mode: bool = False
) -> Iterator[Unit]:
    """Group numbered input lines into documents: paragraphs of raw text, or one sentence per line.

    ``mode`` is ``"text"``, ``"tokens"`` or ``"tagged"``. Raises :class:`InputError` for input
    without any non-blank line and for malformed ``word/TAG`` tokens.
    """
    if mode != "tagged":  # a word/TAG, CoNLL-U or tree file parsed as text: its every bracket and column a word
        peek, lines = first_line_peek(lines, lambda item: item[1])
        warn_of_named_format(source, source, "one tokenised sentence a line (--tokenized)" if mode == "tokens" else
                             "raw text, a sentence a line (--lines)" if lines_mode else "raw text (paragraphs)",
                             lambda fmt: "--tagged reads word/TAG lines" if fmt == "word_tag" else not_parsed(fmt),
                             peek)
    seen = False
    first_line = ""  # the first non-blank line: what --tagged's error names as another format's
    paragraph: list[str] = []
    first = 0
    size = 0
    warned = False
    for number, line in lines:
        blank = is_blank(line)  # zero-width and control characters too: a line that looks blank is blank
        if mode == "text" and not lines_mode:
            if blank:
                if paragraph:
                    yield Unit("\n".join(paragraph), source, first)
                    paragraph = []
                continue
            if not paragraph:
                first, size = number, 0
            paragraph.append(line)
            size += len(line)
            if size > LARGE_PARAGRAPH and not warned:
                warned = True
                click.echo(f"warning: {source}:{first}: a paragraph of more than {LARGE_PARAGRAPH:,} characters "
                           "(no blank line): it is one document, parsed on one worker and written when it ends; "
                           "--lines reads a sentence a line", err=True)
            seen = True
            continue
        if blank:
            continue
        seen, first_line = True, first_line or line
        if mode == "text":
            yield Unit(line, source, number)
        elif mode == "tokens":
            yield Unit([_token_sentence(line)], source, number)
        else:
            try:
                tagged = _tagged_sentence(line, source, number)
            except InputError as exc:  # a CoNLL-U file: "token 1 '#' has no /TAG", and no word of why
                raise type(exc)(exc.reason + other_format_hint(source, first_line), source=source,
                                line=number) from None
            yield Unit([tagged], source, number)
    if paragraph:
        yield Unit("\n".join(paragraph), source, first)
    if not seen:
        raise InputError("empty input: nothing to parse", source=source)


def argument_units(texts: tuple[str, ...], mode: str) -> Iterator[Unit]:
    """One document per TEXT argument (``glmnlp parse TEXT...``), read as ``mode`` (:func:`read_units`)."""
    for source, text in decoded_arguments(texts, "empty input: nothing to parse"):
        if mode == "text":
            yield Unit(text, source, 1)
        elif mode == "tokens":
            yield Unit([_token_sentence(text)], source, 1)
        else:
            yield Unit([_tagged_sentence(text, source, 1)], source, 1)
