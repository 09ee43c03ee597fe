"""The tokenizer's tokens: PTB forms of tricky sentences, spans and offsets, web tokens, quotes and full stops,
URL trimming, apostrophes, NLTK's import, grapheme clusters.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from glmnlp.text.tokenize import (
    sentence_spans,
    split_sentences,
    tokenize,
    tokenize_spans,
    tokenize_text,
    tokenize_text_spans,
)
from tokenize_fixtures import _assert_every_character_in_one_token


TOKEN_CASES = [
    (
        "Pierre Vinken, 61 years old, will join the board as a nonexecutive director Nov. 29.",
        "Pierre Vinken , 61 years old , will join the board as a nonexecutive director Nov. 29 .",
    ),
    ("Mr. Vinken is chairman of Elsevier N.V., the Dutch group.",
     "Mr. Vinken is chairman of Elsevier N.V. , the Dutch group ."),
    ("The U.S. economy grew 3.5% in the quarter.", "The U.S. economy grew 3.5 % in the quarter ."),
    ("Shares rose $1.25 to $12,345.50 each.", "Shares rose $ 1.25 to $ 12,345.50 each ."),
    ("It doesn't matter; they can't and won't.", "It does n't matter ; they ca n't and wo n't ."),
    ("She's sure we'd have gone, I'm told.", "She 's sure we 'd have gone , I 'm told ."),
    ('He said, "I know."', "He said , `` I know . ''"),
    ("Profit (after taxes) fell.", "Profit -LRB- after taxes -RRB- fell ."),
    ("The {braces} and [squares] stay.", "The -LCB- braces -RCB- and -LSB- squares -RSB- stay ."),
    ("AT&T and S&P rose, but R & D fell.", "AT&T and S&P rose , but R & D fell ."),
    ("The 'best' plan -- really.", "The ` best ' plan -- really ."),
    ("Wait... what?", "Wait ... what ?"),
    ("He said “don’t go” — it’s ‘fine’… ok.", "He said `` do n't go '' -- it 's ` fine ' ... ok ."),
    # a country's initials at the end keep their stop, and the sentence has its own (choice 12) ...
    ("He moved to the U.S.", "He moved to the U.S. ."),
    ('She said, "Not in the U.K."', "She said , `` Not in the U.K. . ''"),
    ("It grew (in the U.S.A.)", "It grew -LRB- in the U.S.A. . -RRB-"),
    # ... other abbreviations are split as the WSJ writes them at a sentence's end
    ("He works for Apple Inc.", "He works for Apple Inc ."),
    ("They met in Trenton, N.J.", "They met in Trenton , N.J ."),
]


@pytest.mark.parametrize(("sentence", "expected"), TOKEN_CASES)
def test_tokenize_ptb_tokens_on_tricky_sentences(sentence: str, expected: str) -> None:
    """Abbreviations, decimals, clitics, quotes, brackets and dashes come out in PTB form."""
    assert tokenize(sentence) == expected.split()


def test_tokenize_spans_point_at_original_characters() -> None:
    """Each token's span covers its original characters, including mapped quotes and brackets."""
    sentence = 'He said, “Don’t (ever) go.”'
    got = [(tok, sentence[a:b]) for tok, a, b in tokenize_spans(sentence)]
    assert got == [
        ("He", "He"),
        ("said", "said"),
        (",", ","),
        ("``", "“"),
        ("Do", "Do"),
        ("n't", "n’t"),
        ("-LRB-", "("),
        ("ever", "ever"),
        ("-RRB-", ")"),
        ("go", "go"),
        (".", "."),
        ("''", "”"),
    ]


def test_tokenize_text_spans_are_document_offsets() -> None:
    """tokenize_text_spans gives offsets into the whole text, not into each sentence."""
    text = "  Hello there.  It's (fine).\n\nBye."
    spans = tokenize_text_spans(text)
    assert [[text[a:b] for _, a, b in sent] for sent in spans] == [
        ["Hello", "there", "."],
        ["It", "'s", "(", "fine", ")", "."],
        ["Bye", "."],
    ]
    assert tokenize_text(text) == [[tok for tok, _, _ in sent] for sent in spans]
    assert [text[a:b] for a, b in sentence_spans(text)] == ["Hello there.", "It's (fine).", "Bye."]


@settings(max_examples=40, deadline=None)
@given(
    st.lists(
        st.sampled_from(
            ["Mr.", "Smith", "said", "U.S.", "3.5%", "(", ")", '"', "'", "don't", "AT&T", "...", ".", "?",
             ",", "--", "“", "”", "’s", "\n", "\n\n", "$", "go", "It"]
        ),
        max_size=25,
    ).map(" ".join)
)
def test_tokenize_offsets_are_ordered_disjoint_and_non_blank(text: str) -> None:
    """For any text, token spans increase, never overlap and never cover whitespace only."""
    last_end = 0
    for sent in tokenize_text_spans(text):
        assert sent, "a sentence without tokens"
        for token, start, end in sent:
            assert last_end <= start < end <= len(text)
            assert text[start:end].strip() == text[start:end]
            assert token and not any(ch.isspace() for ch in token)
            last_end = end


WEB_CASES = [
    ("See https://example.com/page?id=3 for details.",
     ["See", "https://example.com/page?id=3", "for", "details", "."], [None, "NN", None, None, None]),
    ("Mail bob@example.com or @bob_smith now!",
     ["Mail", "bob@example.com", "or", "@bob_smith", "now", "!"], [None, "NN", None, "NNP", None, None]),
    ("Love it #blessed :) see you ;-) <3",
     ["Love", "it", "#blessed", ":)", "see", "you", ";-)", "<3"],
     [None, None, "NNP", "UH", None, None, "UH", "UH"]),
    ("Sad :( and :D", ["Sad", ":(", "and", ":D"], [None, "UH", None, "UH"]),
    ("Visit www.example.org.", ["Visit", "www.example.org", "."], [None, "NN", None]),
    ("(see http://a.b/c_(d)) ok", ["-LRB-", "see", "http://a.b/c_(d)", "-RRB-", "ok"],
     [None, None, "NN", None, None]),
    ("It is #1 in sales.", ["It", "is", "#", "1", "in", "sales", "."], [None] * 7),
    ("f(x):(y) is odd", ["f", "-LRB-", "x", "-RRB-", ":", "-LRB-", "y", "-RRB-", "is", "odd"], [None] * 10),
]


@pytest.mark.parametrize(("sentence", "tokens", "tags"), WEB_CASES)
def test_tokenize_keeps_web_tokens_whole_with_a_fixed_ptb_tag(sentence: str, tokens: list[str],
                                                             tags: list[str | None]) -> None:
    """URLs, e-mail addresses, @handles, #hashtags and emoticons are one token each with a PTB tag;
    a bracket inside a token is written as in the text (a tree writes it -LRB-/-RRB-); #1 and f(x):(y) are not web
    tokens."""
    from glmnlp.text.tokenize import web_tag

    assert tokenize(sentence) == tokens
    assert [web_tag(t) for t in tokens] == tags


@pytest.mark.parametrize("gap", ["\t", "\n", "\r\n", "\u2028", "\x1c"])
def test_tokenize_double_quote_after_any_whitespace_opens(gap: str) -> None:
    """NLTK opens a straight double quote only after a space character: after a tab or a line break inside a
    sentence it gave a closing quote. Every whitespace character is a space to it now (offsets unchanged)."""
    text = f'He said{gap}"yes" and{gap}"no".'
    tokens = tokenize_spans(text)
    assert [t for t, _, _ in tokens] == ["He", "said", "``", "yes", "''", "and", "``", "no", "''", "."]
    assert all(text[a:b] in (t, '"') for t, a, b in tokens)


def test_tokenize_full_stop_inside_a_sentence_is_its_own_token() -> None:
    """pysbd does not split inside a quotation, and NLTK splits off the last full stop of a sentence only, so
    ``know.`` stayed one token; a full stop after a lowercase word before a capital is a token of its own
    (not after ``etc.`` and the like, nor after a capitalised abbreviation or a number)."""
    text = 'He said: "I do not know. Maybe they left. Prices rose, etc. Then Mr. Li won 3. Yes." We left.'
    assert split_sentences(text) == [text[:-9], "We left."]
    assert tokenize_text(text)[0][4:15] == ["I", "do", "not", "know", ".", "Maybe", "they", "left", ".",
                                            "Prices", "rose"]
    assert tokenize_text(text)[0][15:] == [",", "etc.", "Then", "Mr.", "Li", "won", "3.", "Yes", ".", "''"]
    _assert_every_character_in_one_token(text)


def test_a_full_stop_before_a_closing_quote_or_bracket_inside_a_sentence_is_its_own_token() -> None:
    """``He said "I know." and left.`` gave the word ``know.`` (NLTK splits off a sentence's last full stop only; 144
    such words in EWT), ``(Room 4.)`` the word ``4.``; abbreviations keep theirs (``Inc.``, ``etc.``, ``U.S.``)."""
    assert tokenize('He said "I know." and left.') == ["He", "said", "``", "I", "know", ".", "''", "and", "left", "."]
    assert tokenize("He left (finally.) Then he came back.")[2:6] == ["-LRB-", "finally", ".", "-RRB-"]
    assert tokenize("(Room 4.)") == ["-LRB-", "Room", "4", ".", "-RRB-"]
    assert tokenize("Apple (Inc.) rose.")[2] == "Inc." and tokenize("See (etc.) here.")[2] == "etc."
    for text in ('He said "I know." and left.', "(Room 4.)"):
        assert all(text[s:e] in (t, "(", ")", '"') for t, s, e in tokenize_text_spans(text)[0]), text


def test_quotes_written_as_two_apostrophes_open_at_the_start_and_a_years_apostrophe_stays_with_it() -> None:
    """``''Bush was briefed,'' he said`` began with a closing quote (NLTK opens ``''`` after a space or bracket
    only); ``In '72`` gave an opening quote and ``72`` where the WSJ writes ``'72`` and ``'80s`` as one word (CD)."""
    assert tokenize("''Bush was briefed,'' the diplomat said.")[:2] == ["``", "Bush"]
    assert tokenize("\u2018\u2018Bush was briefed,\u2019\u2019 he said.")[:2] == ["``", "Bush"]
    assert tokenize("In \u201972 or the '80s it rained.") == ["In", "'72", "or", "the", "'80s", "it", "rained", "."]
    assert tokenize_text_spans("In \u201972.")[0][1] == ("'72", 3, 6)
    assert tokenize("He said 'no' to them.")[2:5] == ["`", "no", "'"]


def test_a_double_quote_between_spaces_closes_as_tokenized_input_closes_it() -> None:
    """NLTK opens a double quote after any space, so the closing ``''`` of PTB-style text (`` `` Now ... , '' he
    added``) and the second of ``He said " hi " to me`` were opening quotes, and tagged so (423 in one user's file),
    where ``--tokenized`` input alternates them. A ``''`` followed by a space or the end closes, and so does a ``"``
    while a quote is open; one touching the next word still opens (choice 5)."""
    assert tokenize("`` Now the field is less cluttered , '' he added .")[8] == "''"
    assert tokenize('He said " hi " to me .')[2:5] == ["``", "hi", "''"]
    assert tokenize('x " y " z " w " v') == ["x", "``", "y", "''", "z", "``", "w", "''", "v"]
    assert tokenize('A " b') == ["A", "``", "b"]  # nothing open: as NLTK spells it
    assert tokenize("He said ''hi'' .")[2] == "``" and tokenize("He said '' .")[2] == "''"
    spaced = tokenize_spans("He said '' hi '' to me .")
    assert [t for t, _, _ in spaced][2:5] == ["''", "hi", "''"] and spaced[2][1:] == (8, 10)


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="a/.,;:!?()[]{}", max_size=30))
def test_url_trimming_is_the_step_by_step_rule(tail: str) -> None:
    """``_trim_url`` counted the brackets of the whole URL again at every character it took off the end (a URL
    followed by 200,000 ``)``: a minute); it keeps the counts now, and trims as the rule trims, step by step."""
    from glmnlp.text.web import _CLOSERS, _URL_TRAILING, _trim_url

    def by_steps(url: str) -> str:
        while url and (url[-1] in _URL_TRAILING
                       or url[-1] in _CLOSERS and url.count(url[-1]) > url.count(_CLOSERS[url[-1]])):
            url = url[:-1]
        return url

    url = "http://x.org/" + tail
    assert _trim_url(url) == by_steps(url)


def test_a_modifier_letter_apostrophe_splits_as_an_apostrophe() -> None:
    """``donʼt`` written with U+02BC (as some keyboards and fonts give the apostrophe) stayed one token ``donʼt``,
    where ``don’t`` and ``don't`` split as ``do n't``: the tokenizer reads the apostrophes the word classes and the
    given tokens read (``PTB_APOSTROPHES``), the token keeping its own character."""
    from glmnlp.text.tokenize import tokenize_text, tokenize_text_spans

    assert tokenize_text("I don\u02bct know.") == tokenize_text("I don't know.") == [["I", "do", "n't", "know", "."]]
    text = "I don\u02bct know."
    assert [text[a:b] for _, a, b in tokenize_text_spans(text)[0]][2] == "n\u02bct"


def test_an_nltk_that_cannot_be_imported_without_wordnet_is_said_in_words(monkeypatch: pytest.MonkeyPatch) -> None:
    """nltk 3.9 (which ``nltk>=3.9`` let in) raised LookupError "Resource wordnet not found ... nltk.download" as it
    was imported, a traceback sending the user to download WordNet, which glmnlp does not use: a MissingPackageError
    saying which nltk to install (and the dependency's floor is 3.9.1)."""
    import sys
    import types

    from glmnlp.errors import MissingPackageError
    from glmnlp.text import tokenize

    class NeedsWordnet(types.ModuleType):
        def __getattr__(self, name: str) -> object:
            raise LookupError("Resource wordnet not found.")

    tokenize._word_tokenizer.cache_clear()
    monkeypatch.setitem(sys.modules, "nltk.tokenize", NeedsWordnet("nltk.tokenize"))
    try:
        with pytest.raises(MissingPackageError, match=r"needs nltk 3.9.1 or later .*pip install 'nltk>=3.9.1'"):
            tokenize.tokenize_text("A dog barked.")
    finally:
        tokenize._word_tokenizer.cache_clear()


def test_a_grapheme_cluster_takes_its_columns_in_an_ascii_drawing() -> None:
    """An emoji ZWJ family took 8 columns (four wide emoji) and a thumbs-up with a skin tone 4, where terminals draw
    each in 2, so the words after them stood left of their tags."""
    from glmnlp.graphemes import display_columns

    assert display_columns("\U0001f468\u200d\U0001f469\u200d\U0001f467\u200d\U0001f466") == 2
    assert display_columns("\U0001f44d\U0001f3fd") == display_columns("\U0001f1fa\U0001f1f8") == 2
    assert display_columns("\u4e2d\u6587") == 4 and display_columns("e\u0301") == 1
