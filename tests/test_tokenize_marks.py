"""A quote after ``, ... = /`` opens where a quote of its kind closes it later (choice 5 of glmnlp.text.tokenize), and
marks NLTK leaves at a word's end are split off before a quote or a currency sign (choice 14,
:func:`glmnlp.text.token_spelling.split_glued_marks`)."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from glmnlp.text.token_spelling import quotes_left_open
from glmnlp.text.tokenize import tokenize, tokenize_spans, tokenize_text, tokenize_text_spans
from tokenize_fixtures import assert_spans_exact as _assert_spans_exact


@pytest.mark.parametrize(("text", "expected"), [
    ('He said,"no" to it.', "He said , `` no '' to it ."),
    ("He said,'no' to it.", "He said , ` no ' to it ."),
    ('Wait..."no" now.', "Wait ... `` no '' now ."),
    ('Wait.."no" now.', "Wait .. `` no '' now ."),
    ('Wait\u2026"no" now.', "Wait ... `` no '' now ."),
    ('x="y" and', "x = `` y '' and"),
    ("x='y' and", "x = ` y ' and"),
    ('a/"b" here.', "a / `` b '' here ."),
    ('href="page.html" here', "href = `` page.html '' here"),
    ("the '80s,'90s", "the '80s , '90s"),
])
def test_a_quote_touching_a_word_after_a_comma_an_ellipsis_or_an_equals_sign_opens(text: str, expected: str) -> None:
    """NLTK opens a straight quote only after a space or an opening bracket: ``He said,"no" to it.`` gave ``, '' no
    ''`` (two closing quotes, tagged so), ``Wait..."no"`` alike, and ``x="y"`` gave ``x= '' y ''``, the ``=`` glued to
    the word before."""
    assert tokenize(text) == expected.split()
    _assert_spans_exact(text)


@pytest.mark.parametrize(("text", "expected"), [
    ('"Stop,"she said.', "`` Stop , '' she said ."),
    ('"Stop,"she said, "now."', "`` Stop , '' she said , `` now . ''"),
    ('"Wait..."she said.', "`` Wait ... '' she said ."),
    ("'Wait...'he said, 'no.'", "` Wait ... ' he said , ` no . '"),
    ('He said,"no', "He said , '' no"),
    ('a="b', "a = '' b"),
    ('"a="', "`` a = ''"),
])
def test_a_quote_after_a_mark_closes_an_open_quote_or_one_that_nothing_closes(text: str, expected: str) -> None:
    """A quote after one of the marks closes while a quote of its kind is open, and stays NLTK's closing quote where
    no quote of its kind follows to close it."""
    assert tokenize(text) == expected.split()
    _assert_spans_exact(text)


@pytest.mark.parametrize(("text", "expected"), [
    ("$5-$10", "$ 5 - $ 10"),
    ("$5.50-$10 and $1,000-$2,000.", "$ 5.50 - $ 10 and $ 1,000 - $ 2,000 ."),
    ("5-10", "5-10"),
    ("$5-10", "$ 5-10"),
    ("\u00a35\u2013\u00a310", "\u00a3 5 -- \u00a3 10"),
    ("a 5-year-old", "a 5-year-old"),
    ("1-800-FLOWERS", "1-800-FLOWERS"),
    ("a well-known man", "a well-known man"),
    ("call 555-1234 now", "call 555-1234 now"),
    ("on 2020-01-05 or 12/31/2020", "on 2020-01-05 or 12/31/2020"),
    ("a/b and x=y", "a/b and x=y"),
    ('see /usr/bin/"x" now', "see /usr/bin/ `` x '' now"),
    ('see http://x.com/"y" now', "see http://x.com/ `` y '' now"),
])
def test_a_range_of_amounts_splits_and_words_numbers_and_paths_stay_whole(text: str, expected: str) -> None:
    """``$5-$10`` gave ``$ 5- $ 10`` (the hyphen on the first amount); numbers, hyphenated words, dates, phone
    numbers, ``a/b`` words, paths and URLs keep their tokens."""
    assert tokenize(text) == expected.split()
    _assert_spans_exact(text)


_MARKS = [",", "...", "..", "\u2026", "=", "/", ":", ";", "--", "\u2014"]
_WORDS = ["no", "Yes", "x1", "word"]


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(_WORDS), st.sampled_from(_MARKS),
       st.sampled_from([('"', '"'), ("\u201c", "\u201d"), ("''", "''")]), st.sampled_from(_WORDS),
       st.sampled_from(["", " to it", " now."]))
def test_property_a_quote_pair_after_a_mark_opens_then_closes(before: str, mark: str, quote: tuple[str, str],
                                                              word: str, after: str) -> None:
    """Property: ``word<mark>"word"`` opens the quote before the quoted word and closes the one after it, the mark a
    token of its own, and the tokens' spans cover the text."""
    opening, closing = quote
    text = f"He {before}{mark}{opening}{word}{closing}{after}"
    tokens = tokenize(text)
    k = tokens.index(word, 2)
    assert tokens[k - 2:k + 2] == [{"\u2014": "--", "\u2026": "..."}.get(mark, mark), "``", word, "''"], (text, tokens)
    _assert_spans_exact(text)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(["He", "5", "10", "$", "x", "a/", "x=", "5-", "/", "=", "-", ",", "...", '"', "'",
                                 " "]), min_size=1, max_size=14))
def test_property_tokens_rejoin_to_the_text_and_no_mark_is_glued_before_a_quote(pieces: list[str]) -> None:
    """Property: whatever marks, quotes, amounts and words are glued together, every character but the spaces is in
    exactly one token, in order, and no word keeps an ``=`` or ``/`` at its end before a quote (but a path its last
    slash: ``a/x/`` before a quote; ``a/x=`` splits; and a base64 string its padding before a closing quote, as the
    tokenizer's choice 14 says: ``HeHeHex=`` before ``"``, eight base64 characters), nor a number its hyphen before
    ``$``."""
    text = "".join(pieces).strip()
    if text:
        _assert_spans_exact(text)
        tokens = [token for sentence in tokenize_text_spans(text) for token in sentence]
        for (word, _, end), (after, start, _) in zip(tokens, tokens[1:]):
            base64 = after in ("''", "'") and len(word) % 4 == 0 and re.fullmatch(r"[A-Za-z0-9+/]{6,}(?:[A-Za-z0-9+/]=|==)",
                                                                                  word)
            if end == start and len(word) > 1 and not (word[-1] == "/" and "/" in word[:-1]) and not base64:
                assert not (word[-1] in "=/" and word[-2] not in "=/" and after in ("``", "''", "`", "'")), tokens
                assert not (word[-1] == "-" and word[-2].isdigit() and after == "$"), tokens


@pytest.mark.parametrize(("text", "expected"), [
    ('"It was late. I was tired,"he said, "very tired."',
     "`` It was late . | I was tired , '' he said , `` very tired . ''"),
    ('"It was late. I was tired..."he said, "very tired."',
     "`` It was late . | I was tired ... '' he said , `` very tired . ''"),
    ("'It is late. I am tired,'he said, 'very tired.'", "` It is late . | I am tired , ' he said , ` very tired . '"),
    ('It was late. He said,"no" to it.', "It was late . | He said , `` no '' to it ."),
    ("I told 'em so. He said,'no' to it.", "I told ` em so . He said , ` no ' to it ."),
    ('"It was late.\n\nHe said,"no" to it.', "`` It was late . | He said , `` no '' to it ."),
])
def test_a_quote_after_a_mark_closes_one_opened_in_an_earlier_sentence_of_the_paragraph(text: str,
                                                                                        expected: str) -> None:
    """The splitter cuts inside a quotation: ``"It was late. I was tired,"he said, "very tired."`` gave ``tired , ``
    he said , `` very``, two opening quotes in a row, the rule looking inside the sentence only; now quotes are
    counted from the paragraph's start (the apostrophe of ``'em`` opens none; a blank line starts again)."""
    assert [" ".join(sentence) for sentence in tokenize_text(text)] == expected.split(" | ")
    _assert_spans_exact(text)


def test_a_sentence_leaves_open_the_quotes_it_opens_but_not_an_elided_words_apostrophe() -> None:
    """What the next sentence of a paragraph begins with: ``'em`` is ` + ``em`` as NLTK splits it, no quotation."""
    assert quotes_left_open(tokenize_spans('"It was late.')) == (True, False)
    assert quotes_left_open(tokenize_spans("'It is late.")) == (False, True)
    assert quotes_left_open(tokenize_spans("I told 'em so.")) == (False, False)
    assert quotes_left_open(tokenize_spans("So it is.'"), (True, True)) == (True, False)


def test_tokenize_spans_takes_the_quotes_open_as_the_sentence_begins() -> None:
    """``tokenize_spans(sentence, open_before)``: a sentence of a paragraph split by the user (or by spaCy) that begins
    inside a quotation closes it with a spaced quote, as ``tokenize_text`` does for the whole paragraph; by default
    none is open (it was a private function's parameter, which the spaCy component imported)."""
    second = 'I was tired " he said.'
    assert [w for w, _, _ in tokenize_spans(second)] == ["I", "was", "tired", "``", "he", "said", "."]
    state = quotes_left_open(tokenize_spans('"It was late.'))
    assert state == (True, False)
    assert [w for w, _, _ in tokenize_spans(second, state)] == ["I", "was", "tired", "''", "he", "said", "."]
    assert tokenize_text('"It was late. ' + second)[1] == [w for w, _, _ in tokenize_spans(second, state)]


def test_a_typographic_right_quote_after_a_mark_never_opens() -> None:
    """``said,’no"`` gave `````` for the ``’``: it was compared with the double quote after it, which closes no
    single quote; a ``’`` shows it closes."""
    assert tokenize('He said,\u2019no" to it.') == "He said , ' no '' to it .".split()


@pytest.mark.parametrize(("text", "expected"), [
    ('set dir/name="x"', "set dir/name = `` x ''"),
    ('sig="YWJjZA==" and', "sig = `` YWJjZA== '' and"),
    ('k="YQ==" and', "k = `` YQ == '' and"),
    ("a='YWJjZGU=' here", "a = ` YWJjZGU= ' here"),
])
def test_an_equals_sign_splits_after_a_path_and_base64_padding_stays_before_a_closing_quote(text: str,
                                                                                            expected: str) -> None:
    """``dir/name="x"`` kept ``dir/name=`` (the exception for a path's last slash held for ``=``), and
    ``sig="YWJjZA=="`` split the padding off (``YWJjZA ==``); a short word's ``=`` before a closing quote still
    splits (``"a="``, ``YQ==``)."""
    assert tokenize(text) == expected.split()
    _assert_spans_exact(text)



def test_an_elided_word_s_apostrophe_inside_a_single_quotation_leaves_it_open() -> None:
    """The state carried to the next sentence closed an open single quote at ``'em`` (``'I told 'em.``), where the
    sentence's own quote rule keeps it open: one rule for both now."""
    tokens = [("`", 0, 1), ("I", 1, 2), ("told", 3, 7), ("`", 8, 9), ("em", 9, 11), (".", 11, 12)]
    assert quotes_left_open(tokens) == (False, True)
    assert quotes_left_open(tokens[3:]) == (False, False)
