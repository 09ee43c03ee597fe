"""Every currency sign is a token of its own, as NLTK splits ``$`` (choice 15 of glmnlp.text.tokenize), and a range of
amounts written with any of them splits at its hyphen (choice 14): ``£5-£10`` was one token, ``£5`` and ``€5``
were words the models had never seen."""

from __future__ import annotations

import re
import sys
import unicodedata

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from glmnlp.graphemes import CURRENCY_SIGNS
from glmnlp.text.tokenize import tokenize, tokenize_text_spans
from tokenize_fixtures import assert_spans_exact


@pytest.mark.parametrize(("text", "expected"), [
    ("\u00a35", "\u00a3 5"),
    ("\u20ac5", "\u20ac 5"),
    ("\u00a5500", "\u00a5 500"),
    ("\u20b9500 and \uffe15", "\u20b9 500 and \uffe1 5"),
    ("\u00a35-\u00a310", "\u00a3 5 - \u00a3 10"),
    ("\u20ac5\u2013\u20ac10", "\u20ac 5 -- \u20ac 10"),
    ("\u00a35,000-\u00a310,000 a year", "\u00a3 5,000 - \u00a3 10,000 a year"),
    ("(\u00a34-\u00a36)", "-LRB- \u00a3 4 - \u00a3 6 -RRB-"),
    ("5\u00a3 and 80\u00a2", "5 \u00a3 and 80 \u00a2"),
    ("US$5 or \u00a35", "US $ 5 or \u00a3 5"),
    ("\u00a35m", "\u00a3 5 m"),
    ("\u00a35.50", "\u00a3 5.50"),
    ("It costs \u00a35.", "It costs \u00a3 5 ."),
    ("\u20ac5-10", "\u20ac 5-10"),
    ("from $1.5m-$2m a year", "from $ 1.5 m - $ 2 m a year"),
    ("\u00a35bn-\u00a310bn", "\u00a3 5 bn - \u00a3 10 bn"),
    ("$5k-$10k", "$ 5 k - $ 10 k"),
    ("5m-year", "5m-year"),
    ("a 5-year-old paid \u00a35", "a 5-year-old paid \u00a3 5"),
    ("see http://x.com/\u00a35-\u00a310 for \u00a35", "see http://x.com/\u00a35-\u00a310 for \u00a3 5"),
])
def test_a_currency_sign_is_a_token_of_its_own_as_dollar_is(text: str, expected: str) -> None:
    """NLTK splits ``$`` off anything and no other sign: ``£5-£10`` was one token and ``€5`` a word (``$5-$10`` was
    ``$ 5 - $ 10``); a URL keeps its characters."""
    assert tokenize(text) == expected.split()
    assert_spans_exact(text)


def test_the_currency_signs_are_unicode_s_category_sc() -> None:
    """The signs split are Unicode's currency signs, the same set as this Python's ``unicodedata`` has."""
    assert CURRENCY_SIGNS == {ch for ch in map(chr, range(sys.maxunicode + 1)) if unicodedata.category(ch) == "Sc"}


_SIGNS = ["$", "\u00a3", "\u20ac", "\u00a5", "\u20b9", "\u00a2", "\uffe1", "\U00011fdd"]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from([*_SIGNS, "5", "10", "1.5", "x", "5-", "5m-", "1.5bn-", "-", "\u2013", ",", ".", "(",
                                 ")", " "]),
                min_size=1, max_size=14))
def test_property_currency_signs_are_tokens_and_no_character_is_lost(pieces: list[str]) -> None:
    """Property: whatever signs, amounts and marks are glued together, every character but the spaces is in exactly
    one token, in order; every currency sign is a token of its own, and no amount (a number, with a magnitude of one or
    two letters or without) keeps its hyphen before one."""
    text = "".join(pieces).strip()
    if not text:
        return
    assert_spans_exact(text)
    tokens = [token for sentence in tokenize_text_spans(text) for token in sentence]
    assert [t for t, _, _ in tokens if any(ch in CURRENCY_SIGNS for ch in t)] == [
        ch for ch in text if ch in CURRENCY_SIGNS], tokens
    for (word, _, end), (after, start, _) in zip(tokens, tokens[1:]):
        if end == start and len(word) > 1:
            assert not (re.search(r"[0-9][A-Za-z]{0,2}-\Z", word) and after in CURRENCY_SIGNS), tokens
