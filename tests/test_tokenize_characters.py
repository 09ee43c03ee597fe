"""No character is lost: text the sentence splitter leaves out, text glued to a web token, control characters and
byte order marks, and the property for mixed and arbitrary text.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from glmnlp.text.tokenize import sentence_spans, split_sentences, tokenize, tokenize_text, tokenize_text_spans
from tokenize_fixtures import _assert_every_character_in_one_token


# -- no character is lost ------------------------------------------------------------------------


def test_tokenize_keeps_text_the_sentence_splitter_leaves_out() -> None:
    """pysbd returns "It ended. " and "Smith came home!" for the text below, leaving ". . .\\t(b)Mr. "
    out: the punctuation joins the sentence before, the rest the sentence after."""
    text = "It ended. . . .\t(b)Mr. Smith came home!"
    assert split_sentences(text) == ["It ended. . . .", "(b)Mr. Smith came home!"]
    assert tokenize_text(text) == [["It", "ended.", ".", ".", "."],
                                   ["-LRB-", "b", "-RRB-", "Mr.", "Smith", "came", "home", "!"]]
    from glmnlp.text.pipeline import Pipeline

    assert [s.text for s in Pipeline()(text).sents] == ["It ended. . . .", "(b)Mr. Smith came home!"]
    _assert_every_character_in_one_token(text)


@pytest.mark.parametrize(("text", "tokens"), [
    ("Great game #win🎉", ["Great", "game", "#win", "🎉"]),
    ("Thanks @bob😀 see you", ["Thanks", "@bob", "😀", "see", "you"]),
    ("Mr.https://x.com", ["Mr.", "https://x.com"]),
    ("mail bob@example.com😀!", ["mail", "bob@example.com", "😀", "!"]),
])
def test_tokenize_text_glued_to_a_web_token_is_a_token_of_its_own(text: str, tokens: list[str]) -> None:
    """A word or emoji glued to a web token is not swallowed by it: it becomes its own token."""
    assert tokenize(text) == tokens
    _assert_every_character_in_one_token(text)


@pytest.mark.parametrize("control", ["\x1c", "\x1d", "\x1e", "\x1f"])
def test_tokenize_control_characters_before_a_numbered_item_do_not_crash(control: str) -> None:
    """pysbd's list-item rules call int() on "\\x1c1" and raise; the splitter sees a space there instead,
    so the text splits and tokenises as it would with spaces, at the same offsets."""
    text = f"Items:{control}1. apples and{control}2. pears."
    assert tokenize_text_spans(text) == tokenize_text_spans(text.replace(control, " "))
    assert [tok for sent in tokenize_text(text) for tok in sent] == \
        ["Items", ":", "1", ".", "apples", "and", "2", ".", "pears", "."]
    _assert_every_character_in_one_token(text)


def test_tokenize_byte_order_mark_is_not_part_of_a_token() -> None:
    """A BOM (and another zero-width format character) at a token's edge is left out of the token;
    the offsets still point into the original text."""
    text = "\ufeffThe dog\u200b barked.\u200b"
    assert tokenize_text_spans(text) == [[("The", 1, 4), ("dog", 5, 8), ("barked", 10, 16), (".", 16, 17)]]
    assert sentence_spans(text) == [(1, 17)]
    from glmnlp.text.pipeline import Pipeline

    doc = Pipeline()(text)
    assert doc.sents[0].words == ["The", "dog", "barked", "."] and doc.sents[0].text == "The dog\u200b barked."
    _assert_every_character_in_one_token(text)
    assert tokenize_text('\ufeff"Hi," he said.') == [["``", "Hi", ",", "''", "he", "said", "."]]
    assert tokenize("👨\u200d👩\u200d👧 co\u00adoperate") == ["👨\u200d👩\u200d👧", "co\u00adoperate"]  # joining inside


def test_tokenize_control_characters_are_no_token_of_their_own() -> None:
    """Control characters that are not whitespace (C0, DEL, C1) are trimmed off tokens as zero-width characters are:
    ``\\x01\\x02`` was a token, which the tagger tagged and the tree printed as ``(JJ )``; inside a token they stay."""
    text = "\x01\x02 The \x93dog\x94 barked\x7f.\x00"
    assert tokenize_text_spans(text) == [[("The", 3, 6), ("dog", 8, 11), ("barked", 13, 19), (".", 20, 21)]]
    assert tokenize("a\x7fb c") == ["a\x7fb", "c"]
    from glmnlp.text.pipeline import Pipeline

    assert Pipeline()(text).sents[0].words == ["The", "dog", "barked", "."]
    _assert_every_character_in_one_token(text)


_FRAGMENTS = st.sampled_from([
    "Mr.", "Smith", "came", "home", "It", "ended", "U.S.", "e.g.", "Dr.", "No.", "3.5%", "$", "1.", "(b)", "(", ")",
    "[", "]", "{", "}", ". . .", ". . . .", "...", ".", "!", "?", ",", ";", ":", "--", "—", "…", '"', "'", "“", "”",
    "’s", "don't", "n't", "AT&T", "&", "https://x.com", "https://example.com/page?id=3", "www.example.org",
    "http://a.b/c_(d)", "bob@example.com", "@bob", "@bob_smith", "#win", "#1", ":)", ";-)", ":D", "<3", "^_^", ":(",
    "🎉", "😀", "👍🏽", "👨\u200d👩\u200d👧", "\x1c1.", "\x1f", "\x00", "\x07", "\ufeff", "\u200b", "é", "x",
])
_GLUE = st.sampled_from(["", "", " ", " ", " ", "\t", "\n", "\n\n", " \x1c", "\ufeff", "\u00a0"])


@st.composite
def _mixed_texts(draw: st.DrawFn) -> str:
    """Words, punctuation runs, abbreviations, web tokens, emoji, controls and BOMs, glued or spaced."""
    parts = [draw(st.sampled_from(["", "\ufeff", " "]))]
    for fragment in draw(st.lists(_FRAGMENTS, max_size=30)):
        parts += [fragment, draw(_GLUE)]
    return "".join(parts)


@settings(max_examples=300, deadline=None)
@given(_mixed_texts(), st.booleans())
def test_tokenize_every_non_blank_character_is_in_exactly_one_token(text: str, lines: bool) -> None:
    """Property: for any mix of words, punctuation, web tokens, emoji, controls and BOMs, every
    non-whitespace character lands in exactly one token, in text order, at its own offsets."""
    _assert_every_character_in_one_token(text, lines)


@settings(max_examples=150, deadline=None)
@given(st.text(st.characters(exclude_categories=("Cs",)), max_size=40), st.booleans())
def test_tokenize_every_non_blank_character_of_any_text_is_in_exactly_one_token(text: str, lines: bool) -> None:
    """Property: the same for arbitrary Unicode text."""
    _assert_every_character_in_one_token(text, lines)
