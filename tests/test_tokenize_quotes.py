"""A straight quote that touches the word after a colon, a semicolon or a dash opens a quotation: choice 5 of
glmnlp.text.tokenize, :func:`glmnlp.text.token_spelling.opens_quote` and
:func:`glmnlp.text.token_spelling.close_spaced_quotes`."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from glmnlp.text.token_spelling import close_spaced_quotes, opens_quote
from glmnlp.text.tokenize import ptb_brackets, tokenize, tokenize_text_spans
from tokenize_fixtures import assert_spans_exact as _assert_spans_exact

_QUOTES = {"``": ('"', "''", "\u201c"), "''": ('"', "''", "\u201d"), "`": ("'", "\u2018"), "'": ("'", "\u2019"),
           "--": ("--", "\u2014", "\u2013", "\u2015")}


@pytest.mark.parametrize(("text", "expected"), [
    ('He said:"no" twice.', "He said : `` no '' twice ."),
    ("He said:'no' twice.", "He said : ` no ' twice ."),
    ("He said:''no'' twice.", "He said : `` no '' twice ."),
    ('A word\u2014"this"\u2014here.', "A word -- `` this '' -- here ."),
    ('A word\u2013"this"\u2013here.', "A word -- `` this '' -- here ."),
    ('A word--"this"--here.', "A word -- `` this '' -- here ."),
    ("A word\u2014'this'\u2014here.", "A word -- ` this ' -- here ."),
    ('Two sides;"this" and that.', "Two sides ; `` this '' and that ."),
    ('(x):"y" z', "-LRB- x -RRB- : `` y '' z"),
    ('Here Kant\'s rule--"Animals are means"--is applied.',
     "Here Kant 's rule -- `` Animals are means '' -- is applied ."),
    ('"Loose Change"-"Alex Jones" territory', "`` Loose Change '' - `` Alex Jones '' territory"),
])
def test_a_quote_touching_a_word_after_a_colon_or_a_dash_opens(text: str, expected: str) -> None:
    """NLTK opens a straight ``"`` only at the start or after a space or ``( [ { <``, and a ``'`` only where
    glmnlp's choice 5 opens it: ``He said:"no" twice.`` and ``A word—"this"—here.`` had two closing quotes (and the
    tagger and parser read them so), where ``He said: "no"`` and ``("no")`` open the first."""
    assert tokenize(text) == expected.split()
    _assert_spans_exact(text)


@pytest.mark.parametrize(("text", "expected"), [
    ('"Stop," she said.', "`` Stop , '' she said ."),
    ('"Stop,"she said.', "`` Stop , '' she said ."),
    ('"Stop."', "`` Stop . ''"),
    ('"I was\u2014" she stopped.', "`` I was -- '' she stopped ."),
    ('"I was\u2014"she stopped.', "`` I was -- '' she stopped ."),
    ('"I was--"she stopped.', "`` I was -- '' she stopped ."),
    ('"pre-"and "post-"war', "`` pre- '' and `` post- '' war"),
    ('"Note:"', "`` Note : ''"),
    ("Note:\"", "Note : ''"),
    ('He said:" no', "He said : '' no"),
    ("Mary's and rock-'n'-roll", "Mary 's and rock-'n'-roll"),
])
def test_a_quote_after_a_mark_that_ends_a_quotation_or_before_a_space_stays_closing(text: str, expected: str) -> None:
    """A quote after ``,`` or ``.`` closes, as before; so does one after a dash or a colon with a space or the end
    after it (``"I was—" she stopped``), or with a double quote open (``"I was—"she stopped``)."""
    assert tokenize(text) == expected.split()
    _assert_spans_exact(text)


def test_opens_quote_and_close_spaced_quotes_read_the_mark_before_the_quote() -> None:
    """The two rules on their own: the mark before the quote opens it when a word follows and a quote of its kind
    comes later in the sentence to close it (one that nothing closes closes a quote opened before: ``"It was late. I
    thought--"he paused``, ``'Wait--'he said``; a single quote inside a word is none); a ``"`` opened after one closes
    while a quote is open."""
    assert opens_quote('a:"b"', 2, 3) and opens_quote("a\u2014'b'", 2, 3) and opens_quote('a-"b"', 2, 3)
    assert opens_quote('a,"b"', 2, 3) and not opens_quote('a."b"', 2, 3) and not opens_quote('a:" b"', 2, 3)
    assert not opens_quote('a:"', 2, 3) and not opens_quote('a:"b', 2, 3) and not opens_quote("a-'b don't", 2, 3)
    assert tokenize('"It was late. I thought--"he paused.')[5:] == ["I", "thought", "--", "''", "he", "paused", "."]
    assert tokenize("'Wait--'he said.") == ["`", "Wait", "--", "'", "he", "said", "."]
    assert tokenize("The war of 1914\u2013'18 ended.")[4:6] == ["--", "'18"]  # a year's apostrophe, as after a space
    sentence = '"a-"b'
    assert close_spaced_quotes([("``", 0, 1), ("a-", 1, 3), ("``", 3, 4), ("b", 4, 5)], sentence)[2] == ("''", 3, 4)
    assert close_spaced_quotes([("a-", 1, 3), ("``", 3, 4), ("b", 4, 5)], sentence)[1] == ("``", 3, 4)


_PIECES = ["He", "said", "word", "x", ":", ";", "-", "--", "\u2014", "\u2013", ",", ".", '"', "'", "''", "\u201c",
           "\u201d", "(", ")", "no"]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(_PIECES), st.sampled_from(["", "", " "])), min_size=1, max_size=16))
def test_property_quotes_after_marks_keep_spans_exact(pieces: list[tuple[str, str]]) -> None:
    """Property: words, marks and quotes glued or spaced in any order give tokens whose spans are in order, apart
    and cover every character but the spaces, each its own text as PTB spells it."""
    text = "".join(piece + gap for piece, gap in pieces).strip()
    if text:
        for sentence in tokenize_text_spans(text):
            for token, start, end in sentence:
                original = text[start:end]
                assert token in (original, ptb_brackets(original)) or original in _QUOTES.get(token, ()), (token, text)
        _assert_spans_exact(text)

