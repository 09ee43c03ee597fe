"""Raw text to sentences to Penn-Treebank-style tokens, with character offsets.

The tagger and the parser are trained on the Wall Street Journal part of the Penn Treebank, so the
words they see at run time must follow the same conventions: ``n't`` and ``'s`` split off
(``does n't``), double quotes written as ````` and ``''``, brackets spelled ``-LRB-``/``-RRB-``
(``-LCB-``/``-RCB-`` for braces), dashes as ``--``. This module does not hand-write a tokenizer;
it combines two maintained libraries and maps what they leave out:

* **Sentences: pysbd** (rule-based, no downloaded data). Chosen after scoring the three
  data-free candidates on the bundled WSJ sample (3,914 sentences from 199 files, detokenised and
  joined per file, then re-split; boundary precision / recall):

  ======== ========= ====== ==================================================================
  splitter precision recall typical errors
  ======== ========= ====== ==================================================================
  pysbd    0.993     0.951  no split inside an open quotation spanning several sentences
  syntok   0.963     0.964  splits after titles (``Gov.``, ``Rep.``, ``Messrs.``) and at ``;``
  segtok   0.952     0.974  as syntok, more often
  ======== ========= ====== ==================================================================

  pysbd makes the fewest harmful errors on news text: splitting after ``Gov.`` cuts a noun phrase
  in two, while a missed boundary inside a long quotation only makes one sentence longer.
* **Words: NLTK's** ``NLTKWordTokenizer`` (the improved Treebank tokenizer; regular expressions,
  no downloaded data). It reproduces the gold tokens exactly for 3,817 of the 3,914 detokenised
  sample sentences (97.5 %) after the mappings below.

Choices and mappings [R] (none of these is stated by the papers; SPEC leaves tokenisation open):

1. **Line breaks.** pysbd ends a sentence at every newline, which breaks wrapped text. By default
   a single line break is treated as a space and a blank line (a paragraph break) always ends a
   sentence; ``lines=True`` instead treats every non-blank line as a paragraph of its own
   (for one-sentence-per-line input, as the CLI offers).
2. **Punctuation-only fragments.** pysbd sometimes cuts an ellipsis (``2001... What?`` ->
   ``2001..`` + ``.``). A "sentence" with no letter or digit is attached to the sentence before it
   in the same paragraph.
3. **Typographic characters** are normalised before both libraries see the text, one character
   for one so that offsets are unchanged (curly quotes and apostrophes -> ASCII, no-break space ->
   space, em dash and ``…`` -> ``;``, which NLTK always splits off words). The token *text* is
   then read from the original character and follows PTB: ``“``/``‘`` -> `````/`````, ``”`` -> ``''``,
   ``—``/``–`` -> ``--``, ``…`` -> ``...``.
4. **Brackets**: ``( ) { } [ ]`` -> ``-LRB- -RRB- -LCB- -RCB- -LSB- -RSB-`` (the first four as in the
   WSJ files; square brackets do not occur there and get the usual ``-LSB-``/``-RSB-``).
5. **Opening single quote.** NLTK writes ``'`` for both single quotes; PTB opens with `````. A
   lone ``'`` token at the start of the text or after whitespace/an opening bracket, and directly
   followed by a non-space character, becomes `````.
6. **Ampersands inside words.** NLTK splits ``AT&T`` and ``S&P`` into three tokens; PTB keeps them
   whole. Tokens ``X & Y`` written without spaces in the original text, with ``X`` and ``Y``
   alphanumeric, are merged back into one token.

Offsets: :func:`tokenize_text_spans` returns each token with its ``[start, end)`` character span in
the original text (for a mapped token such as ``-LRB-`` the span covers the original ``(``).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import lru_cache
from typing import Any

__all__ = [
    "PTB_BRACKETS",
    "sentence_spans",
    "split_sentences",
    "tokenize",
    "tokenize_spans",
    "tokenize_text",
    "tokenize_text_spans",
]

PTB_BRACKETS: dict[str, str] = {
    "(": "-LRB-",
    ")": "-RRB-",
    "{": "-LCB-",
    "}": "-RCB-",
    "[": "-LSB-",
    "]": "-RSB-",
}

# One character for one, so every offset into the normalised text is an offset into the original.
_NORMALISE = str.maketrans(
    {
        "\u2018": "'",  # left single quotation mark
        "\u2019": "'",  # right single quotation mark / apostrophe
        "\u201a": "'",
        "\u201b": "'",
        "\u201c": '"',  # left double quotation mark
        "\u201d": '"',  # right double quotation mark
        "\u201e": '"',
        "\u201f": '"',
        "\u00a0": " ",  # no-break space
        "\u2007": " ",
        "\u202f": " ",
        # NLTK does not split these off words; ";" is a character it always splits off, and the
        # token text is taken from the original character afterwards (_CHAR_TOKENS).
        "\u2014": ";",  # em dash
        "\u2026": ";",  # horizontal ellipsis
    }
)
# Token text for single original characters that PTB spells differently.
_CHAR_TOKENS: dict[str, str] = {
    "\u201c": "``",
    "\u201e": "``",
    "\u201d": "''",
    "\u2018": "`",
    "\u2014": "--",  # em dash
    "\u2013": "--",  # en dash
    "\u2026": "...",  # horizontal ellipsis
    **PTB_BRACKETS,
}
_OPENERS = set("([{\"'`\u201c\u2018")
_PARAGRAPH_BREAK = re.compile(r"\n[ \t\r\f\v]*\n\s*")
_WORDLIKE = re.compile(r"\w")

Span = tuple[int, int]
TokenSpan = tuple[str, int, int]


@lru_cache(maxsize=1)
def _word_tokenizer() -> Any:
    # Imported lazily: nltk takes about half a second to import, and `import glmnlp` should not.
    from nltk.tokenize import NLTKWordTokenizer

    return NLTKWordTokenizer()


def _segment(paragraph: str) -> list[str]:
    import pysbd

    # A fresh Segmenter per call: cheap (microseconds) and free of shared state between threads.
    return list(pysbd.Segmenter(language="en", clean=False).segment(paragraph))


def _paragraphs(text: str, lines: bool) -> Iterator[Span]:
    """Spans of the paragraphs of ``text`` (blank-line separated, or one per line)."""
    if lines:
        pos = 0
        for line in text.splitlines(keepends=True):
            yield pos, pos + len(line)
            pos += len(line)
        return
    pos = 0
    for match in _PARAGRAPH_BREAK.finditer(text):
        yield pos, match.start()
        pos = match.end()
    yield pos, len(text)


def sentence_spans(text: str, *, lines: bool = False) -> list[Span]:
    """``[start, end)`` character spans of the sentences of ``text``, whitespace trimmed.

    Parameters
    ----------
    text:
        Raw text, any length.
    lines:
        If true, every non-blank line is split on its own (one-sentence-per-line input stays one
        sentence per line unless a line holds several sentences). Otherwise single line breaks
        are spaces and only blank lines separate paragraphs (module docstring, choice 1).
    """
    normal = text.translate(_NORMALISE)
    spans: list[Span] = []
    for p_start, p_end in _paragraphs(normal, lines):
        paragraph = normal[p_start:p_end].replace("\n", " ").replace("\r", " ")
        if not paragraph.strip():
            continue
        first_in_paragraph = len(spans)
        pos = 0
        for piece in _segment(paragraph):
            # clean=False pieces are consecutive substrings; find() guards against any drift.
            at = paragraph.find(piece, pos)
            if at < 0:  # pragma: no cover - pysbd contract broken
                raise RuntimeError(f"sentence splitter returned text not found in input: {piece!r}")
            pos = at + len(piece)
            stripped = piece.strip()
            if not stripped:
                continue
            start = p_start + at + (len(piece) - len(piece.lstrip()))
            end = start + len(stripped)
            if not _WORDLIKE.search(stripped) and len(spans) > first_in_paragraph:
                spans[-1] = (spans[-1][0], end)  # choice 2: punctuation-only fragment
            else:
                spans.append((start, end))
    return spans


def split_sentences(text: str, *, lines: bool = False) -> list[str]:
    """The sentences of ``text`` as strings (see :func:`sentence_spans`)."""
    return [text[start:end] for start, end in sentence_spans(text, lines=lines)]


def tokenize_spans(sentence: str) -> list[TokenSpan]:
    """PTB tokens of one sentence with their ``[start, end)`` offsets in ``sentence``."""
    normal = sentence.translate(_NORMALISE)
    raw = [(normal[a:b], a, b) for a, b in _word_tokenizer().span_tokenize(normal)]
    # NLTK's token text is needed for the quote conversion it does (" -> `` or ''); its spans
    # cover the original characters, so both are zipped.
    texts = _word_tokenizer().tokenize(normal)
    if len(texts) != len(raw):  # pragma: no cover - NLTK contract broken
        raise RuntimeError(f"word tokenizer spans and tokens disagree on {sentence!r}")
    tokens: list[TokenSpan] = []
    for text, (_, start, end) in zip(texts, raw):
        original = sentence[start:end]
        if original in _CHAR_TOKENS:
            text = _CHAR_TOKENS[original]
        elif text == "'" and _opens_quote(sentence, start, end):
            text = "`"
        tokens.append((text, start, end))
    return _merge_ampersands(tokens)


def _opens_quote(sentence: str, start: int, end: int) -> bool:
    before_ok = start == 0 or sentence[start - 1].isspace() or sentence[start - 1] in _OPENERS
    after_ok = end < len(sentence) and not sentence[end].isspace()
    return before_ok and after_ok


def _merge_ampersands(tokens: list[TokenSpan]) -> list[TokenSpan]:
    out: list[TokenSpan] = []
    i = 0
    while i < len(tokens):
        if (
            out
            and i + 1 < len(tokens)
            and tokens[i][0] == "&"
            and out[-1][2] == tokens[i][1]
            and tokens[i][2] == tokens[i + 1][1]
            and out[-1][0].isalnum()
            and tokens[i + 1][0].isalnum()
        ):
            prev, nxt = out[-1], tokens[i + 1]
            out[-1] = (prev[0] + "&" + nxt[0], prev[1], nxt[2])
            i += 2
            continue
        out.append(tokens[i])
        i += 1
    return out


def tokenize(sentence: str) -> list[str]:
    """PTB tokens of one sentence: ``tokenize("I don't (really) know.")`` ->
    ``['I', 'do', "n't", '-LRB-', 'really', '-RRB-', 'know', '.']``."""
    return [text for text, _, _ in tokenize_spans(sentence)]


def tokenize_text_spans(text: str, *, lines: bool = False) -> list[list[TokenSpan]]:
    """Sentences of PTB tokens, each token with its offsets in ``text`` (not in its sentence)."""
    result: list[list[TokenSpan]] = []
    for start, end in sentence_spans(text, lines=lines):
        result.append([(tok, start + a, start + b) for tok, a, b in tokenize_spans(text[start:end])])
    return result


def tokenize_text(text: str, *, lines: bool = False) -> list[list[str]]:
    """Split ``text`` into sentences and each sentence into PTB tokens."""
    return [[tok for tok, _, _ in sent] for sent in tokenize_text_spans(text, lines=lines)]
