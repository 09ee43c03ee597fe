"""The tokenizer's invariant (every character that is not blank is in one token, spelled as PTB spells it): the
check tests/test_tokenize*.py share.
"""

from __future__ import annotations

import unicodedata

from glmnlp.text.tokenize import tokenize_text_spans


#: PTB spellings (module docstring, choices 3-5): of typographic characters, and of the ASCII quotes they are
#: made (NLTK writes a double quote, and two apostrophes after a space or an opening bracket, as `` or '')
_PTB_CHARS = {"“": {"``"}, "„": {"``"}, "”": {"''"}, "‘": {"`"}, "—": {"--"}, "–": {"--"}, "…": {"..."},
              '"': {"``", "''"}, "''": {"``"}, "'": {"`"}}
_TYPOGRAPHIC = str.maketrans({"‘": "'", "’": "'", "‚": "'", "‛": "'", "“": '"', "”": '"', "„": '"', "‟": '"'})
#: zero-width format characters and the control characters that are not whitespace, which count as whitespace at
#: the edges of tokens
_INVISIBLE = set("\u00ad\u180e\u200b\u200c\u200d\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2060\u2061\u2062\u2063"
                 "\u2064\u2066\u2067\u2068\u2069\u206a\u206b\u206c\u206d\u206e\u206f\ufeff") | {
    ch for ch in map(chr, [*range(0x20), *range(0x7F, 0xA0)]) if unicodedata.category(ch) == "Cc" and not ch.isspace()}


def _spelled(token: str, original: str) -> bool:
    """Whether ``token`` is ``original`` (its slice of the text) as PTB spells it: typographic quotes
    made ASCII, a bracket token -LRB- etc., quotes and dashes as in _PTB_CHARS; a web token is its characters as
    written (``:)``, ``http://a.b/c_(d)``), ``original`` itself."""
    from glmnlp.text.tokenize import PTB_BRACKETS

    ascii_form = "".join(PTB_BRACKETS.get(ch, ch) for ch in original.translate(_TYPOGRAPHIC))
    if original in ("U.S", "U.K", "U.S.A", "U.S.S.R") and token == original + ".":  # choice 12
        return True
    return token in (original, ascii_form) or token in _PTB_CHARS.get(original, _PTB_CHARS.get(ascii_form, ()))


def _assert_every_character_in_one_token(text: str, lines: bool = False) -> None:
    """The invariant: tokens are in text order and disjoint, each one's span is its text (as PTB spells
    it), and every character other than whitespace is in a token; zero-width format characters count
    as whitespace at a token's edges (no token begins or ends with one)."""
    covered = [False] * len(text)
    last_end = 0
    for sent in tokenize_text_spans(text, lines=lines):
        assert sent, "a sentence without tokens"
        for token, start, end in sent:
            assert last_end <= start < end <= len(text), (token, start, end)
            assert _spelled(token, text[start:end]), (token, text[start:end])
            assert text[start] not in _INVISIBLE and text[end - 1] not in _INVISIBLE, (token, start, end)
            covered[start:end] = [True] * (end - start)
            last_end = end
    lost = [(i, ch) for i, ch in enumerate(text) if not covered[i] and not ch.isspace() and ch not in _INVISIBLE]
    assert not lost, f"characters in no token: {lost}"


def assert_spans_exact(text: str) -> None:
    """The spans of the text's tokens are in order and apart, and cover every character but the spaces."""
    tokens = [token for sentence in tokenize_text_spans(text) for token in sentence]
    at = 0
    for token, start, end in tokens:
        assert at <= start < end and text[at:start].strip() == "", (token, start, end, text)
        at = end
    assert text[at:].strip() == ""
    assert "".join(text[start:end] for _, start, end in tokens) == "".join(text.split())
