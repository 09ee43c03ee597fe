"""What a :class:`~glmnlp.text.pipeline.Pipeline` call accepts, read and checked before any model runs.

The first stage of the pipeline (read -> tag -> parse -> write): a document becomes its sentences of tokens, maybe
with given tags, each string checked once at this boundary, so that bad input is refused with its place (document,
sentence, token) instead of failing deep inside the tagger or the parser.

Our choices:

* **Input kinds.** A call takes one document, in one of three forms: a ``str`` (raw text), a list
  of sentences given as lists of token strings (pre-tokenised: the tokenizer is skipped and the
  tokens must already follow PTB conventions), or a list of sentences given as lists of
  ``(word, tag)`` pairs (pre-tagged: the tagger is skipped too). A flat list of strings is
  rejected, because it is ambiguous between "one sentence" and "several one-word sentences".
* **The text boundary.** Every string entering the pipeline is checked once here: ``bytes`` are
  refused by type (decode them first), a lone surrogate (a code point that is not text, e.g. from
  ``surrogateescape`` decoding) is refused with its position instead of failing deep inside the
  tagger, and an empty given tag or one containing whitespace is refused. Pre-tokenised words and
  given tags are otherwise kept verbatim (``(`` stays ``(``; the tree writer spells it ``-LRB-``,
  :func:`glmnlp.treebank.trees.to_bracket`, so every output reads back; ``glmnlp parse
  --tokenized/--tagged`` maps brackets to ``-LRB-``/``-RRB-`` when it reads its input).
* **The models' spelling.** The models see brackets as they saw them in training (:func:`model_words`): each bracket
  as the tagger knows it alone, the treebank's escape or the character (the WSJ writes ``-LRB-`` and ``-LCB-``, GUM's
  trees ``-LRB-`` but ``[``; a tagger trained on CoNLL-U knows ``(``), whether the input spelled it or the tokenizer
  escaped it (``-LSB-``); the parser, trained on bracketed trees, which cannot hold ``(``, gets ``-LRB-`` for it. The
  bundled model tagged a pre-tokenised ``(`` ``VBZ`` and ``)`` ``VBD``, and parsed ``[1]`` in raw text as ``(QP (UH
  -LSB-) (CD 1)) (NN -RSB-)``; it reads them as ``-LRB-``/``-RRB-`` and ``[``/``]`` now. A word the tagger does not
  know as written is given in Unicode's composed form, NFC, the form of nearly all text and of the treebanks: "café"
  written with a combining accent (NFD, as some macOS file names and PDF copies give it) was an unknown word, ``JJ``
  where the same word in NFC was ``NN`` (4 of 18 tags changed in one sentence); and a word it knows without its
  invisible format characters (Unicode category Cf: a soft hyphen or a zero-width space copied from a word processor
  or a web page into ``hor\\xadse``) so: it was an unknown word, its surprisal 8.90 bits against 10.31, and the words
  after it changed too. Given tokens' quotes and apostrophes get the spelling the tokenizer gives raw text's (``n’t``
  as ``n't``, a straight ``"`` as `````` or ``''`` by turns: :func:`~glmnlp.text.token_spelling.ptb_quotes`) where
  the model knows it: a closing ``"`` was tagged `````` and made ``Stop`` an SBAR's NN, and ``n’t`` in ``Do n’t go
  .`` had a surprisal of 5.20 nats against ``n't``'s 1.90 (the measures ask the generative model's lexicon). So is
  the clitic of a contraction written without its apostrophe (``dont`` is ``do`` + ``nt``, as EWT splits it:
  :func:`~glmnlp.text.token_spelling.ptb_clitics`; the models read ``n't``, ``'m``, ``'s``, ``'re``, ``'ve``, ``'ll``,
  ``'d``, words no model trained on the WSJ had seen written otherwise). The tree is given back over the words as
  written. Tags too (:func:`model_tags`): STTS ``$(`` is ``$-LRB-`` in bracketed
  trees, ``$(`` in word/TAG files. Every output of tags (a sentence's tags, CoNLL-U, JSON, word/TAG, tab) writes
  ``$(`` whatever the models' spelling (:func:`written_tags`, in :mod:`glmnlp.text.document` for
  ``Sentence.from_tree`` too); trees keep ``$-LRB-``.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeAlias, TypeGuard

from glmnlp.errors import ConfigError, InputError
from glmnlp.parser.tag_check import model_tag
from glmnlp.tagger.features import read_as
from glmnlp.text.document import Token, written_tags
from glmnlp.text.token_spelling import ptb_clitics, ptb_quotes
from glmnlp.text.tokenize import LINE_END, PTB_BRACKETS, tokenize_text_spans
from glmnlp.treebank.fileio import surrogate_reason
from glmnlp.treebank.trees import Tree, escape_brackets

__all__ = ["MAX_BATCH", "DocumentInput", "PendingSentence", "line_numbers", "model_tags", "model_words",
           "read_document", "sentence_items", "tagset_mismatch", "written_form", "written_tags"]

#: The largest batch of documents (a batch is read whole before it is analysed; 2**63 failed inside islice)
MAX_BATCH = 10**9

RawText: TypeAlias = str
Tokenised: TypeAlias = Sequence[Sequence[str]]
Tagged: TypeAlias = Sequence[Sequence[tuple[str, str]]]
DocumentInput: TypeAlias = RawText | Tokenised | Tagged


@dataclass(slots=True)
class PendingSentence:
    """A sentence on its way through the pipeline's stages (tokens, then tags, tree and what else is asked)."""

    tokens: list[Token]
    tags: list[str] | None = None
    tree: Tree | None = None
    score: float | None = None
    nbest: list[tuple[float, Tree]] | None = None
    surprisal: list[float | None] | None = None
    measures: Sequence[Mapping[str, Any]] | None = None
    given: dict[int, str] = field(default_factory=dict)  # tags not the tagger's: given with the input, web tokens'
    parsed_from: tuple[list[str], Sequence[Any]] | None = None  # the words and tags the parser got (if it parsed)
    written: list[str] | None = None  # raw text's tokens as the text writes them (their characters at their offsets)


def read_document(doc: DocumentInput, index: int, lines: bool = False) -> tuple[str, list[PendingSentence]]:
    """Document ``index`` (0-based, for messages) as its text ("" unless raw text) and its tokenised (maybe
    tagged) sentences, every string checked (module header); ``lines``: one sentence per line of raw text."""
    if isinstance(doc, bytes | bytearray | memoryview):
        raise TypeError(
            f"document {index + 1}: got {type(doc).__name__}; decode it to str first (e.g. data.decode('utf-8'))"
        )
    if isinstance(doc, str):
        _check_text(doc, f"document {index + 1}")
        return doc, [
            PendingSentence([Token(text, None, start, end) for text, start, end in sent],
                            written=[doc[start:end] for _text, start, end in sent])
            for sent in tokenize_text_spans(doc, lines=lines)
        ]
    if not isinstance(doc, Sequence):
        raise TypeError(
            f"document {index + 1}: expected a str or a list of sentences, got {type(doc).__name__}"
        )
    if doc and all(isinstance(sent, tuple) and _is_pair(sent) for sent in doc):
        # what nltk.pos_tag returns: its pairs were read as two-word sentences, the tags parsed as words, silently
        raise TypeError(
            f"document {index + 1}: a list of (word, tag) tuples is one tagged sentence, not a document: wrap it as "
            "[pairs] (a document is a list of sentences; a sentence of two tokens is a list, not a tuple)"
        )
    pending: list[PendingSentence] = []
    for s, sent in enumerate(doc, start=1):
        where = f"document {index + 1}, sentence {s}"
        if isinstance(sent, str | bytes | bytearray) or not isinstance(sent, Sequence):
            raise TypeError(
                f"{where}: expected a list of tokens or (word, tag) pairs, got {type(sent).__name__}"
                " (wrap a single tokenised sentence as [tokens]; several texts go to nlp.pipe(texts))"
            )
        if not sent:
            raise InputError("empty sentence", source=where)
        if _all_tokens(sent):
            pending.append(PendingSentence([_token(item, where, k) for k, item in enumerate(sent, start=1)]))
        elif _all_pairs(sent):
            pending.append(
                PendingSentence(
                    [_token(word, where, k) for k, (word, _) in enumerate(sent, start=1)],
                    [_tag(tag, where, k) for k, (_, tag) in enumerate(sent, start=1)],
                )
            )
        else:
            raise TypeError(f"{where}: mixes plain tokens and (word, tag) pairs, or holds other items")
    return "", pending


def check_progress(progress: object) -> None:
    """A ``progress`` argument is a callable (a bar's ``update``) or None: ``progress=True`` or a tqdm bar itself was
    "'bool' object is not callable" from inside the loop, after the first sentence's work."""
    if progress is not None and not callable(progress):
        raise TypeError(f"progress must be a callable that takes a count (a bar's update: tqdm(total=n).update) or "
                        f"None, got {type(progress).__name__}")


_ESCAPES = frozenset(PTB_BRACKETS.values())


def model_words(words: Sequence[str], tagger: Any = None) -> list[str]:
    """``words`` spelled as the models saw them in training (module docstring, "The models' spelling"). With a
    ``tagger`` (its ``knows(word)``), each bracket as the tagger knows it alone (``-LRB-`` or ``(``, ``[`` or
    ``-LSB-``; a bracket already escaped, as the tokenizer spells raw text, counts as the bracket) and a word it
    knows as written kept so, any other in Unicode's composed form (NFC), and without invisible format characters
    where the tagger knows it so; without one (the parser's view), ``(`` and
    ``)`` as ``-LRB-``/``-RRB-``, the only brackets a bracketed tree cannot hold, and the rest as given: the
    pipeline gives it the tagger's spelling, and a parser trained on decomposed text knows its words so. Quotes and
    apostrophes (``"``, ``n’t``) are given as the tokenizer spells raw text's (``````/``''``, ``n't``) where the model
    knows that spelling, even if it knows the word as written too (the bundled tagger knows a ``"`` and tagged a
    closing one `````; ``tagger evaluate`` keeps a quote whose gold tag is no quote tag: ``glmnlp.cli.tagger_cmd``);
    a ``"`` only where the model knows both ```````` and ``''``: a tagger trained on UD English EWT, which writes
    ``"`` 1,290 times and ``''`` 18, had every closing quote respelled to its rare form (the README's EWT figure
    was then not what ``tagger evaluate`` gave). The clitic of a contraction written without its apostrophe
    (``do nt``, ``I m``: :func:`~glmnlp.text.token_spelling.ptb_clitics`) is given as the treebanks spell it
    (``n't``, ``'m``) where the model knows that spelling, and a word the model does not know as the tagger reads it
    (:func:`glmnlp.tagger.features.read_as`: an unseen currency sign as ``$``, a run of ``!`` and ``?`` as its first
    mark), so that the parser reads it so too (the measures called ``!!!`` an unknown word, 16 bits of surprisal)."""
    knows = getattr(tagger, "knows", None)
    if not callable(knows):
        return [escape_brackets(word) for word in words]
    spelling = {bracket: _bracket_spelling(bracket, knows) for bracket in PTB_BRACKETS}
    directed = knows("``") and knows("''")  # the model writes double quotes the Penn Treebank's way
    vocabulary = _Knows(knows)
    out = []
    for word, quoted in zip(words, ptb_quotes(ptb_clitics(words))):
        # n’t as n't, " as `` or '': raw text's tokens are spelled so; nt of do nt as n't
        if quoted != word and knows(quoted) and (directed or word != '"'):
            word = quoted
        if not knows(word):
            word = unicodedata.normalize("NFC", word)  # "café" written with a combining accent (NFD) as the model's
            if not knows(word):
                if not word.isascii() and knows(visible := _visible(word)):  # "hor\xadse" as "horse"
                    word = visible
                else:  # ¥ as $, !!! as ! (the tagger's reading, for the parser too)
                    word = read_as(word, vocabulary)
            if not knows(word):
                plain = word
                for bracket, escaped in PTB_BRACKETS.items():
                    plain = plain.replace(escaped, bracket)
                if any(c in spelling for c in plain):
                    word = "".join(spelling.get(c, c) for c in plain)
        out.append(word)
    return out


class _Knows:
    """A model's ``knows`` as a container (``word in known``), as :func:`glmnlp.tagger.features.read_as` reads it."""

    def __init__(self, knows: Callable[[str], bool]) -> None:
        self._knows = knows

    def __contains__(self, word: object) -> bool:
        return isinstance(word, str) and bool(self._knows(word))


def spell_as_written(sent: PendingSentence, tagger: Any) -> None:
    """Raw text's tokens that the tokenizer spelt the Penn Treebank's way (``„`` as ``````, ``–`` as ``--``, ``…`` as
    ``...``) spelt as the text writes them where the tagger (its ``knows(word)``) knows that and not the treebank's
    spelling: a German model knows ``„`` and ``…``, which it tagged ``KON`` and ``VAFIN`` under the English
    spellings, and its trees then lost the text's characters. Brackets are :func:`model_words`' (the trees' escapes);
    a model that knows the treebank's spelling (the bundled one) gets it as before."""
    knows = getattr(tagger, "knows", None)
    if sent.written is None or not callable(knows):
        return
    for i, (token, written) in enumerate(zip(sent.tokens, sent.written)):
        if (spelt := written_form(token.text, written, knows)) != token.text:
            sent.tokens[i] = Token(spelt, token.tag, token.start, token.end)


def written_form(token: str, written: str, knows: Callable[[str], bool]) -> str:
    """A raw-text token as :func:`spell_as_written` gives it: ``written`` (its characters in the text) where the
    model knows that spelling and not the tokenizer's ``token``, else ``token``; a bracket keeps its escape."""
    if (written != token and token not in _ESCAPES and written and not any(c.isspace() for c in written)
            and not knows(token) and knows(written)):
        return written
    return token


def _visible(word: str) -> str:
    """``word`` without Unicode's invisible format characters (category Cf: soft hyphen, zero-width space and
    joiners, direction marks)."""
    return "".join(c for c in word if unicodedata.category(c) != "Cf")


def tagset_mismatch(tags: Collection[str], known: Collection[str] | None, name: str | Path) -> str:
    """A tagger's ``tags`` against those a parser knows (``known``; None: it does not say): a tagger of another
    tagset (more than half of its tags unknown to the parser) is a :class:`ConfigError`; a few unknown tags give the
    warning returned (empty: none; ``name``: how the message names the tagger). Fewer tags are fine. The parser
    has no analysis with a tag it does not know, and the pipeline gives a sentence whose word has only such tags
    the flat default tree, silently: a UPOS tagger beside a WSJ parser flattened every sentence."""
    if not known:
        return ""
    unknown = sorted(t for t in set(tags) if model_tag(t, known) is None)  # $( is the parser's $-LRB-, as it reads it
    if not unknown:
        return ""
    what = f"{name}: the parser does not know {len(unknown)} of this tagger's {len(set(tags))} tags"
    if 2 * len(unknown) > len(set(tags)):
        raise ConfigError(
            f"{what} ({' '.join(unknown)}): most sentences would get flat trees; give a tagger trained on the "
            f"parser's tags ({' '.join(sorted(known))})"
        )
    return f"{what} ({' '.join(unknown)}): a sentence tagged with one of them gets a flat tree"


def model_tags(tags: Sequence[str], known: Collection[str]) -> tuple[str, ...]:
    """``tags`` spelled as a tagger knows them (``known``, its tagset): a tag it does not know whose brackets it
    knows written the other way, so. STTS ``$(`` is ``$-LRB-`` in bracketed trees, which cannot hold a ``(``, and
    ``$(`` in word/TAG and CoNLL-U files: scored as two tags, every bracket was an error, with no word of why."""
    out = []
    for tag in tags:
        if tag not in known:
            escaped = escape_brackets(tag)
            plain = tag.replace("-LRB-", "(").replace("-RRB-", ")")
            tag = escaped if escaped in known else plain if plain in known else tag
        out.append(tag)
    return tuple(out)


def _bracket_spelling(bracket: str, knows: Callable[[str], bool]) -> str:
    """How a tagger spells ``bracket``: as written when it knows that and not the treebank's escape, else the
    escape (``[`` in GUM's trees, ``-LCB-`` in the WSJ's; ``(`` is always escaped in a bracketed tree)."""
    escaped = PTB_BRACKETS[bracket]
    return bracket if knows(bracket) and not knows(escaped) else escaped


def _all_tokens(sent: Sequence[object]) -> TypeGuard[Sequence[str]]:
    """Every item a token (a str)."""
    return all(isinstance(item, str) for item in sent)


def _all_pairs(sent: Sequence[object]) -> TypeGuard[Sequence[Sequence[str]]]:
    """Every item a (word, tag) pair (:func:`_is_pair`: a tuple or list of two strings)."""
    return all(_is_pair(item) for item in sent)


def _is_pair(item: object) -> bool:
    return (
        isinstance(item, tuple | list)
        and len(item) == 2
        and isinstance(item[0], str)
        and isinstance(item[1], str)
    )


def _check_text(text: str, where: str) -> None:
    """Refuse a lone surrogate (not a character; cannot be encoded) with its position."""
    if (reason := surrogate_reason(text)) is not None:
        raise InputError(reason, source=where)


def _token(text: str, where: str, k: int) -> Token:
    _check_text(text, f"{where}, token {k}")
    try:
        return Token(text)
    except ValueError as exc:
        raise InputError(str(exc), source=where) from None


def _tag(tag: str, where: str, k: int) -> str:
    _check_text(tag, f"{where}, token {k}")
    if not tag or any(ch.isspace() for ch in tag):
        raise InputError(f"tag {tag!r} must be non-empty and without whitespace", source=f"{where}, token {k}")
    return tag


def line_numbers(text: str, offsets: Sequence[int]) -> list[int]:
    """The line (from 1) of ``text`` holding each of the ascending character ``offsets``, lines ending as
    ``lines=True`` reads them (:data:`glmnlp.text.tokenize.LINE_END`)."""
    out: list[int] = []
    ends = LINE_END.finditer(text)
    line, end = 1, next(ends, None)
    for offset in offsets:
        while end is not None and end.end() <= offset:
            line, end = line + 1, next(ends, None)
        out.append(line)
    return out


def sentence_items(text: str, sentences: Sequence[PendingSentence], lines: bool) -> list[int]:
    """The measures' ``item`` column of a document's sentences, as :func:`glmnlp.measures` numbers the same input:
    each sentence of tokenised input is an item; a raw text is one, or with ``lines`` each of its lines."""
    starts = [s.tokens[0].start for s in sentences]
    if not all(isinstance(start, int) for start in starts):
        return list(range(1, len(sentences) + 1))
    return line_numbers(text, starts) if lines else [1] * len(sentences)  # type: ignore[arg-type]
