"""Web tokens in raw text: URLs, e-mail addresses, @handles, #hashtags, ASCII emoticons, and tokens of emoji only.

The tokenizer (:mod:`glmnlp.text.tokenize`, choice 7 of its header) finds all but emoji first and masks them, so
that neither the sentence splitter nor the word tokenizer cuts them; none of them occurs in the Wall Street Journal,
so :func:`web_tag` gives each class a fixed PTB tag that the pipeline, :func:`glmnlp.measures` and ``glmnlp tag``
use instead of the tagger's guess (:func:`web_tags`); :func:`restore_web_tokens` gives the masked tokens their
characters back.

Emoji need no mask: NLTK keeps a run of them whole, and the tokenizer joins an emoji's modifiers, variation
selectors and keycap to it (:func:`glmnlp.text.token_spelling.merge_marks`). A token of emoji only
(:func:`glmnlp.graphemes.emoji_only`: every grapheme cluster a pictograph, with its skin tone, selector, joined
pictographs or tag letters, a flag, a keycap; a symbol below U+10000 only where Unicode or a U+FE0F shows it as an
emoji) is tagged ``UH``, as an emoticon is: the WSJ-trained tagger, having never seen one, gave them open-class
tags (``I love you ❤️`` parsed ``(NP (VB ❤️))``, ``We won 🏆 again`` ``(ADVP (RB 🏆))``). Text symbols without
U+FE0F (``☎ ✉ ♥ ★``) stay the tagger's: GUM tags ``☎ ✉`` SYM, EWT ``♥`` ``.``, and a word-like use (``I ♥ NY``)
is not an interjection's. A token with anything else (``🎉win``) is none.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from glmnlp.graphemes import emoji_only
from glmnlp.text.token_spelling import TokenSpan
from glmnlp.treebank.trees import PTB_BRACKETS

__all__ = ["mask_web_tokens", "restore_web_tokens", "web_tag", "web_tags", "web_token_spans"]

_URL = r"(?:(?:https?|ftp)://|www\.)[^\s<>\"'`]+"
_EMAIL = r"(?<![A-Za-z0-9._%+-])[A-Za-z0-9][A-Za-z0-9._%+-]*@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}"
_HANDLE = r"(?<![\w@])@[A-Za-z0-9_]{1,30}(?![\w@])"
_HASHTAG = r"(?<![\w#&])#[A-Za-z0-9_]*[A-Za-z][A-Za-z0-9_]*"
_EMOTICON = (
    r"(?<!\S)(?:[:;=8xX][-o^']?[)(\]\[dDpP/\\|*oO3]|[)(\]\[dD][-o^']?[:;=]|<3|</3|\^_*\^|"
    r"[oO]_[oO]|-_-|T_T|:'\(|:'\))(?=$|\s|[.,!?;])"
)
_WEB = re.compile(
    f"(?P<url>{_URL})|(?P<email>{_EMAIL})|(?P<handle>{_HANDLE})|(?P<hashtag>{_HASHTAG})|(?P<emoticon>{_EMOTICON})"
)
_WEB_TAGS = {"url": "NN", "email": "NN", "handle": "NNP", "hashtag": "NNP", "emoticon": "UH"}
_URL_TRAILING = ".,;:!?"
_UNESCAPE = tuple((escaped, bracket) for bracket, escaped in PTB_BRACKETS.items())
_CLOSERS = {")": "(", "]": "[", "}": "{"}


def _trim_url(text: str) -> str:
    """A URL without trailing sentence punctuation or an unbalanced closing bracket.

    Linear: the brackets are counted once and the counts kept as the end moves back (counted again at every step,
    a URL followed by 200,000 ``)`` took a minute)."""
    counts = {ch: text.count(ch) for pair in _CLOSERS.items() for ch in pair}
    end = len(text)
    while end:
        last = text[end - 1]
        if last in _URL_TRAILING:
            end -= 1
        elif last in _CLOSERS and counts[last] > counts[_CLOSERS[last]]:
            counts[last] -= 1
            end -= 1
        else:
            break
    return text[:end]


def web_token_spans(text: str) -> list[tuple[int, int, str]]:
    """``(start, end, kind)`` of every URL, e-mail address, @handle, #hashtag and emoticon in ``text``.

    ``kind`` is ``url``, ``email``, ``handle``, ``hashtag`` or ``emoticon`` (module docstring,
    choice 7). Spans are disjoint and in text order.
    """
    spans = []
    for match in _WEB.finditer(text):
        kind = match.lastgroup
        assert kind is not None
        start, end = match.span()
        if kind == "url":
            end = start + len(_trim_url(match.group()))
            if end - start <= 4:  # "www." alone
                continue
        spans.append((start, end, kind))
    return spans


def web_tag(token: str) -> str | None:
    """The fixed PTB tag of a web token (``NN``, ``NNP`` or ``UH``) or of a token of emoji only (``UH``), or
    ``None`` for other tokens.

    The token may spell its brackets the PTB way (``:-RRB-`` is the emoticon ``:)``), as a model's words do.
    """
    if not token or token.isalnum():
        return None
    if emoji_only(token):
        return _WEB_TAGS["emoticon"]
    for escaped, bracket in _UNESCAPE:
        token = token.replace(escaped, bracket)
    for start, end, kind in web_token_spans(token):
        if start == 0 and end == len(token):
            return _WEB_TAGS[kind]
    return None


def web_tags(words: Sequence[str], knows: Callable[[str], bool]) -> dict[int, str]:
    """The fixed tags (:func:`web_tag`) of a sentence's web tokens, by position, where ``knows(tag)`` (a parser has
    chains for it): the tags the pipeline gives them, and so those :func:`glmnlp.measures` gives them too."""
    return {i: tag for i, tag in ((i, web_tag(w)) for i, w in enumerate(words)) if tag is not None and knows(tag)}


def mask_web_tokens(text: str, spans: list[tuple[int, int, str]]) -> str:
    """``text`` with every web token replaced by as many letters (offsets unchanged)."""
    if not spans:
        return text
    parts: list[str] = []
    pos = 0
    for start, end, _ in spans:
        parts.extend((text[pos:start], "x" * (end - start)))
        pos = end
    parts.append(text[pos:])
    return "".join(parts)


def restore_web_tokens(tokens: list[TokenSpan], web: list[tuple[int, int, str]], sentence: str,
                       normalise: dict[int, str]) -> list[TokenSpan]:
    """Put the original text back into masked web tokens (one token per web span, its characters as written);
    ``tokens`` are a sentence's (text, start, end), ``normalise`` the tokenizer's table of typographic characters.

    A token that only partly overlaps web spans (NLTK keeps ``Mr.`` + ``xxxx`` or ``xxxx`` + ``🎉``
    together, as it would keep any glued word) is cut at their edges: each web span becomes its
    token, and the rest of the token becomes tokens of its own, as the masked tokenizer spelled them.
    """
    out: list[TokenSpan] = []
    k, done = 0, -1  # done: index of the last web span already in ``out``
    for text, start, end in tokens:
        while k < len(web) and web[k][1] <= start:
            k += 1
        if k == len(web) or web[k][0] >= end:
            out.append((text, start, end))
            continue
        pos = start
        j = k
        while j < len(web) and web[j][0] < end:
            w_start, w_end, _ = web[j]
            if pos < w_start:
                out.append(_token_part(text, start, end, pos, w_start, sentence, normalise))
            if j > done:
                out.append((sentence[w_start:w_end], w_start, w_end))
                done = j
            pos = max(pos, w_end)
            j += 1
        if pos < end:
            out.append(_token_part(text, start, end, pos, end, sentence, normalise))
    return out


def _token_part(text: str, start: int, end: int, a: int, b: int, sentence: str, normalise: dict[int, str]
                ) -> TokenSpan:
    """The part ``[a, b)`` of the token ``text`` at ``[start, end)``, spelled as the token spells it."""
    if len(text) == end - start:
        return text[a - start:b - start], a, b
    return sentence[a:b].translate(normalise), a, b  # pragma: no cover - only quote tokens change length
