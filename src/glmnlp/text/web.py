"""Web tokens in raw text: URLs, e-mail addresses, @handles, #hashtags, ASCII emoticons, and tokens of emoji only.

The tokenizer (:mod:`glmnlp.text.tokenize`, choice 7 of its header) finds all but emoji first and masks them, so
that neither the sentence splitter nor the word tokenizer cuts them; none of them occurs in the Wall Street Journal,
so :func:`web_tag` gives each class a fixed PTB tag that the pipeline, :func:`glmnlp.measures` and ``glmnlp tag``
use instead of the tagger's guess (:func:`web_tags`).

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
from glmnlp.treebank.trees import PTB_BRACKETS

__all__ = ["mask_web_tokens", "web_tag", "web_tags", "web_token_spans"]

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
