"""Double contractions (``shouldn't've``, ``I'd've``) split into every clitic, as the Penn Treebank writes them:
choice 13 of glmnlp.text.tokenize, :func:`glmnlp.text.token_spelling.split_clitics`."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from glmnlp.text.token_spelling import split_clitics
from glmnlp.text.tokenize import tokenize, tokenize_spans

_APOSTROPHES = str.maketrans("\u2019", "'")


@pytest.mark.parametrize(("text", "expected"), [
    ("You shouldn't've gone.", "You should n't 've gone ."),
    ("I'd've said so.", "I 'd 've said so ."),
    ("They'd've known.", "They 'd 've known ."),
    ("Y'all'd've come.", "Y'all 'd 've come ."),
    ("Y'all'd go.", "Y'all 'd go ."),
    ("It mightn't've worked.", "It might n't 've worked ."),
    ("I wouldn't've.", "I would n't 've ."),
    ("You can't've meant it.", "You ca n't 've meant it ."),  # as can't is ca n't
    ("He won't've left.", "He wo n't 've left ."),
    ("SHOULDN'T'VE", "SHOULD N'T 'VE"),
    ("Shouldn't'VE", "Should n't 'VE"),
    ("I'D've", "I 'D 've"),
    ("We'd've've", "We 'd 've 've"),
    ("O'Neill'd've", "O'Neill 'd 've"),
    ("You cannot've.", "You can not 've ."),
    ("You shouldn\u2019t\u2019ve gone.", "You should n't 've gone ."),
    ("They\u2019d\u2019ve known, y\u2019all\u2019d\u2019ve said.", "They 'd 've known , y'all 'd 've said ."),
])
def test_a_double_contraction_splits_into_every_clitic(text: str, expected: str) -> None:
    """NLTK splits only the clitic before a space: ``shouldn't've`` gave ``shouldn't`` + ``'ve``, a word the models
    never saw. Every clitic is a token of its own now, its span its own characters."""
    assert tokenize(text) == expected.split()
    _assert_spans_exact(text)


@pytest.mark.parametrize(("text", "expected"), [
    ("O'Neill said so.", "O'Neill said so ."),
    ("O'Neill's dog", "O'Neill 's dog"),
    ("D'Angelo's rock'n'roll", "D'Angelo 's rock'n'roll"),
    ("Y'all ma'am", "Y'all ma'am"),
    ("the boys' 's", "the boys ' 's"),
    ("you're'nt", "you're'nt"),
    ("it's'", "it's '"),
    ("I'd 've", "I 'd 've"),
    ("shouldn't 've", "should n't 've"),
    ("James's car isn't here.", "James 's car is n't here ."),
])
def test_names_and_words_no_clitic_touches_are_left_as_before(text: str, expected: str) -> None:
    """Only a token that a split clitic touches loses the clitic that ends it: a name with an apostrophe, a word
    NLTK left whole and the clitics NLTK split already come out as before."""
    assert tokenize(text) == expected.split()
    _assert_spans_exact(text)


def test_split_clitics_needs_a_clitic_token_touching_the_word() -> None:
    """A clitic after a space, or a quote touching the word, splits nothing; a clitic after an apostrophe is no
    clitic (NLTK's rule), and a token whose text is not its span's length is left alone."""
    assert split_clitics([("shouldn't", 0, 9), ("'ve", 10, 13)]) == [("shouldn't", 0, 9), ("'ve", 10, 13)]
    assert split_clitics([("shouldn't", 0, 9), ("'", 9, 10)]) == [("shouldn't", 0, 9), ("'", 9, 10)]
    assert split_clitics([("x''s", 0, 4), ("'s", 4, 6)]) == [("x''s", 0, 4), ("'s", 4, 6)]
    assert split_clitics([("'s", 0, 2), ("'s", 2, 4)]) == [("'s", 0, 2), ("'s", 2, 4)]
    assert split_clitics([("I'd", 0, 3), ("'ve", 3, 6)]) == [("I", 0, 1), ("'d", 1, 3), ("'ve", 3, 6)]
    assert split_clitics([]) == [] and split_clitics([("I'd", 0, 3)]) == [("I'd", 0, 3)]


_STEMS = ["I", "you", "they", "we", "should", "might", "would", "could", "must", "need", "O'Neill", "Y'all", "it"]
_CLITICS = ["n't", "'d", "'ll", "'re", "'s", "'ve", "'m"]


@given(st.lists(st.tuples(st.sampled_from(_STEMS), st.lists(st.sampled_from(_CLITICS), min_size=1, max_size=3),
                          st.booleans(), st.booleans()), min_size=1, max_size=6))
def test_property_glued_clitics_split_one_by_one_with_exact_spans(
        words: list[tuple[str, list[str], bool, bool]]) -> None:
    """Property: a stem followed by one to three glued clitics, in any case, with straight or typographic apostrophes,
    gives the stem and then each clitic as a token (``n't`` after ``n`` too); the spans cover exactly the text, and the
    tokens joined without the spaces give the text back."""
    text_words, expected = [], []
    for stem, clitics, upper, typographic in words:
        word = stem + "".join(clitics)
        word = word.upper() if upper else word
        text_words.append(word.replace("'", "\u2019") if typographic else word)
        tokens = [stem, *clitics]
        expected += [token.upper() for token in tokens] if upper else tokens
    text = " ".join(text_words)
    assert tokenize(text) == expected
    _assert_spans_exact(text)


def _assert_spans_exact(text: str) -> None:
    """Each token's span is its own text (apostrophes read as ``'``), the spans are in order and apart, and they cover
    every character but the spaces: the tokens joined without the spaces are the text."""
    spans = tokenize_spans(text)
    at = 0
    for token, start, end in spans:
        assert at <= start < end and text[at:start].strip() == "", (token, start, end)
        assert text[start:end].translate(_APOSTROPHES) == token or token in ("``", "''", "`", "-LRB-", "-RRB-")
        at = end
    assert text[at:].strip() == ""
    assert "".join(text[start:end] for _, start, end in spans) == "".join(text.split())


def test_measures_of_a_double_contraction_are_those_of_its_treebank_tokens() -> None:
    """``shouldn't`` glued to nothing the lexicon knows was scored as an unknown word, and every measure after it
    changed (48.27 bits for the sentence, 44.84 for its treebank tokens); the raw text's rows are now the tokens'."""
    import glmnlp

    raw = glmnlp.measures("You shouldn't've gone.")
    given = glmnlp.measures([["You", "should", "n't", "'ve", "gone", "."]])
    assert [(r["word"], r["surprisal"]) for r in raw] == [(r["word"], r["surprisal"]) for r in given]
