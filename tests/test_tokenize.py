"""Tests for glmnlp.text.tokenize: sentence splitting, PTB tokens, the PTB mappings and the offsets."""

from __future__ import annotations

import unicodedata

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from glmnlp.text.tokenize import (
    WINDOW_CHARS,
    LongInputWarning,
    sentence_spans,
    split_sentences,
    tokenize,
    tokenize_spans,
    tokenize_text,
    tokenize_text_spans,
)

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


SPLIT_CASES = [
    (
        "Pierre Vinken will join the board Nov. 29. Mr. Vinken is chairman of Elsevier N.V., "
        "the Dutch publishing group.",
        [
            "Pierre Vinken will join the board Nov. 29.",
            "Mr. Vinken is chairman of Elsevier N.V., the Dutch publishing group.",
        ],
    ),
    ("The U.S. Navy sailed. The U.S. was there.", ["The U.S. Navy sailed.", "The U.S. was there."]),
    ("Gov. Bush and Sen. Dole spoke. Then Dr. Smith left.", ["Gov. Bush and Sen. Dole spoke.", "Then Dr. Smith left."]),
    ("It cost $5.5 million in 2001... What?", ["It cost $5.5 million in 2001...", "What?"]),
    ("This line is\nwrapped here. Next one.", ["This line is\nwrapped here.", "Next one."]),
    ("First paragraph\n\nSecond paragraph.", ["First paragraph", "Second paragraph."]),
    ("", []),
    ("  \n\n ", []),
]


@pytest.mark.parametrize(("text", "expected"), SPLIT_CASES)
def test_tokenize_split_sentences_on_tricky_text(text: str, expected: list[str]) -> None:
    """Titles and initials do not end sentences; wrapped lines join; blank lines and ellipses do."""
    assert split_sentences(text) == expected


def test_tokenize_lines_mode_keeps_one_sentence_per_line() -> None:
    """With lines=True every non-blank line is exactly one sentence, even with several full stops in it."""
    text = "a first line\nthe second line\n\nthird. And fourth.\n"
    assert split_sentences(text, lines=True) == ["a first line", "the second line", "third. And fourth."]
    assert split_sentences(text) == ["a first line\nthe second line", "third.", "And fourth."]
    assert split_sentences("Dr. No. Mr. Yes?  \n...\n", lines=True) == ["Dr. No. Mr. Yes?", "..."]



def test_tokenize_lines_mode_ends_lines_where_files_do() -> None:
    """A line ends at \\n, \\r\\n or \\r only, as glmnlp parse --lines reads its input: a form feed, U+0085 (what
    a mis-decoded cp1252 ellipsis becomes) or U+2028 inside a line split it (str.splitlines), so the command
    printed more trees than its input had lines."""
    text = "The dog barked.\u2028The cat sat.\nA bird sang.\x0cIt flew.\r\nOne more\x85line.\rLast\x1cline.\x0b\n"
    assert split_sentences(text, lines=True) == [
        "The dog barked.\u2028The cat sat.", "A bird sang.\x0cIt flew.", "One more\x85line.", "Last\x1cline.",
    ]
    assert len(tokenize_text(text, lines=True)) == 4

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


def test_tokenize_never_ends_a_sentence_inside_a_web_token() -> None:
    """The '?' of a query string and the dots of an address end no sentence; the text's own stops do."""
    text = "Is https://example.com/page?id=3 up? Ask bob@example.com. Thanks :)"
    assert split_sentences(text) == ["Is https://example.com/page?id=3 up?", "Ask bob@example.com.", "Thanks :)"]
    offsets = tokenize_text_spans(text)
    assert [[text[a:b] for _, a, b in sent] for sent in offsets][0][1] == "https://example.com/page?id=3"


def test_sentence_splitter_sees_bounded_windows_and_cuts_unpunctuated_text(monkeypatch: pytest.MonkeyPatch) -> None:
    """Sentence splitting is linear: pysbd never gets more than WINDOW_CHARS characters at once,
    every sentence is at most WINDOW_CHARS long, text without a boundary is cut at spaces with a
    LongInputWarning, and sentences that fit in a window come out as if the text were short. A line of
    ``lines=True`` is not split at all, and stays whole."""
    import glmnlp.text.tokenize as tok

    seen: list[int] = []
    real = tok._segment

    def spy(paragraph: str) -> list[str]:
        seen.append(len(paragraph))
        return real(paragraph)

    monkeypatch.setattr(tok, "_segment", spy)
    sentence = "The dog barked at the mailman again. "
    text = sentence * 400  # 14,800 characters, 400 sentences
    spans = sentence_spans(text)
    assert max(seen) <= tok.WINDOW_CHARS
    assert [text[a:b] for a, b in spans] == [sentence.strip()] * 400
    seen.clear()
    words = "word " * 3000  # 15,000 characters without a sentence boundary
    with pytest.warns(tok.LongInputWarning, match="no sentence boundary within 2000 characters"):
        spans = sentence_spans(words + "End.")
    assert all(b - a <= tok.WINDOW_CHARS for a, b in spans) and len(spans) >= 8
    assert " ".join(words[a:b] if b <= len(words) else (words + "End.")[a:b] for a, b in spans).split() == \
        (words + "End.").split()
    assert seen == [] or max(seen) <= tok.WINDOW_CHARS
    import warnings

    with warnings.catch_warnings():  # a line of lines=True is one sentence however long (no splitter runs in it)
        warnings.simplefilter("error", tok.LongInputWarning)
        pieces = tokenize_text("x" * 5000, lines=True)
    assert [[len(t) for t in p] for p in pieces] == [[5000]]


@pytest.mark.parametrize("text", ["Smith . . .", "A . . . b. Ok . . . then.", "Wait . . . what . . ."])
def test_tokenize_survives_pieces_the_sentence_splitter_rewrites(text: str) -> None:
    """pysbd returns ". . " for the end of "Smith . . ." (whitespace moved, a period dropped): the
    spans still cover every character of the input, in order, and nothing raises."""
    sents = tokenize_text_spans(text)
    tokens = [tok for sent in sents for tok, _s, _e in sent]
    assert "".join(tokens) == "".join(text.split())
    ends = [e for sent in sents for _t, _s, e in sent]
    assert ends == sorted(ends)


# -- no character is lost ------------------------------------------------------------------------
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
        ["Items", ":", "1.", "apples", "and", "2.", "pears", "."]
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


@pytest.mark.parametrize("gap", ["\t", "\n", "\r\n", "\u2028", "\x1c"])
def test_tokenize_double_quote_after_any_whitespace_opens(gap: str) -> None:
    """NLTK opens a straight double quote only after a space character: after a tab or a line break inside a
    sentence it gave a closing quote. Every whitespace character is a space to it now (offsets unchanged)."""
    text = f'He said{gap}"yes" and{gap}"no".'
    tokens = tokenize_spans(text)
    assert [t for t, _, _ in tokens] == ["He", "said", "``", "yes", "''", "and", "``", "no", "''", "."]
    assert all(text[a:b] in (t, '"') for t, a, b in tokens)


def test_tokenize_closing_quote_after_a_full_stop_ends_that_sentence() -> None:
    """pysbd put the closing quote of ``loose.''`` at the start of the next sentence, which then began with a
    lone closing quote; closing quotes and brackets followed by a space end the sentence before."""
    text = "He met them in March. \"All hell broke loose.'' Records show it."
    assert split_sentences(text) == ["He met them in March.", "\"All hell broke loose.''", "Records show it."]
    assert tokenize_text(text)[1] == ["``", "All", "hell", "broke", "loose", ".", "''"]
    assert split_sentences(text, lines=True) == [text]
    _assert_every_character_in_one_token(text)


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


def test_sentences_pysbd_leaves_whole_are_split_before_i_and_after_three_exclamation_marks() -> None:
    """pysbd's abbreviation list holds ``me``, ``is`` and ``ok``, so ``Thanks for helping me. I appreciate it.`` was
    one sentence (and its tree had a full stop inside); ``Great food!!! We will return.`` was one too (two ``!``
    split). A real abbreviation before ``I`` is left alone."""
    assert split_sentences("Thanks for helping me. I appreciate it.") == ["Thanks for helping me.", "I appreciate it."]
    assert split_sentences("It is ok. I know.") == ["It is ok.", "I know."]
    assert split_sentences("Great food!!! We will return.") == ["Great food!!!", "We will return."]
    assert split_sentences("Are you serious??? I cannot believe it.") == ["Are you serious???", "I cannot believe it."]
    assert split_sentences("dogs etc. I like birds.") == ["dogs etc. I like birds."]
    assert split_sentences("Mr. I. Smith came.") == ["Mr. I. Smith came."]


def test_a_cut_inside_a_run_of_full_stops_moves_to_its_end() -> None:
    """pysbd cut ``burn it..thats the only way`` after the first full stop, and the second began the word
    ``.thats``; the cut is moved to the end of the run, and no character is lost."""
    text = "Yeah you gotta burn it..thats the only way"
    assert split_sentences(text) == ["Yeah you gotta burn it..", "thats the only way"]
    assert tokenize_text("ok......fine") == [["ok", "......"], ["fine"]]
    spans = sentence_spans(text)
    assert spans[0][0] == 0 and spans[-1][1] == len(text) and spans[0][1] == spans[1][0]  # no character lost


def test_the_new_boundaries_and_years_leave_abbreviations_and_quoted_numbers_alone() -> None:
    """The rules above overreached: ``'99'`` (a quoted number) became the word ``'99`` and a closing quote,
    ``(2nd ed.)`` and ``(pp.)`` lost their abbreviation's full stop, and ``fig. I`` ended a sentence."""
    assert tokenize("He wrote '99' on the board.")[2:5] == ["`", "99", "'"]
    assert tokenize("(2nd ed.) and (pp.) here")[2] == "ed." and tokenize("(2nd ed.) and (pp.) here")[6] == "pp."
    assert split_sentences("See fig. I for the curve.") == ["See fig. I for the curve."]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # pysbd cuts before list markers; after ; : , or a conjunction no sentence ends there (WSJ, EWT e-mails)
        ("The rules are: (a) no smoking; (b) no pets. Thanks.", ["The rules are: (a) no smoking; (b) no pets.",
                                                                 "Thanks."]),
        ("They chose: 1) no, the wine is too high; 2) yes, it is high. Fine.",
         ["They chose: 1) no, the wine is too high; 2) yes, it is high.", "Fine."]),
        ("It brings: 1) reduced volatility, 2) a focus, and 3) a level field.",
         ["It brings: 1) reduced volatility, 2) a focus, and 3) a level field."]),
        # after a title or an abbreviation that never ends a sentence
        ("The standardized tests--Mrs. Yeargin won praise.", ["The standardized tests--Mrs. Yeargin won praise."]),
        ("He lives at Ft. Worth now.", ["He lives at Ft. Worth now."]),
        ("See Vol. II and Fig. 3 and Eq. 4 for details.", ["See Vol. II and Fig. 3 and Eq. 4 for details."]),
        ("Approx. 30 people came.", ["Approx. 30 people came."]),
        ("It is item No. 5 on the list.", ["It is item No. 5 on the list."]),
        ("The Licensee shall (a) maintain insurance, (b) pay the fees.",
         ["The Licensee shall (a) maintain insurance, (b) pay the fees."]),
        ("It costs 5 dollars incl. tax here. Brazil vs. Argentina was close.",
         ["It costs 5 dollars incl. tax here.", "Brazil vs. Argentina was close."]),
        # a piece cannot begin with ; or ,
        ("Nevada; Honolulu; Las Vegas, Nev.; Los Angeles.", ["Nevada; Honolulu; Las Vegas, Nev.; Los Angeles."]),
    ],
)
def test_cuts_where_no_sentence_ends_are_joined_again(text: str, expected: list[str]) -> None:
    assert split_sentences(text) == expected


def test_the_joins_leave_real_ends_alone() -> None:
    """A list item after a plain word may be a sentence of its own (EWT), a capitalised word that is also an
    abbreviation can end one (``Fine Arts.``), and ``No.`` ends one unless a number follows."""
    assert split_sentences("I stay four nights 1) what island is good? 2) where to eat?") == [
        "I stay four nights", "1) what island is good?", "2) where to eat?"]
    assert split_sentences("We saw the Museum of Fine Arts. They showed kids.") == [
        "We saw the Museum of Fine Arts.", "They showed kids."]
    assert split_sentences("He said No. Then he left.") == ["He said No.", "Then he left."]
    assert split_sentences("He moved to the U.S. He liked it.") == ["He moved to the U.S.", "He liked it."]
    # a reference abbreviation ends a sentence before a capital; an emoticon may begin one
    assert split_sentences("The trip takes 3 hours approx. We leave at noon.") == [
        "The trip takes 3 hours approx.", "We leave at noon."]
    assert split_sentences("Prices are $20, VAT incl. Delivery is free.") == [
        "Prices are $20, VAT incl.", "Delivery is free."]
    assert split_sentences("Thanks. ;) See you.") == ["Thanks.", ";) See you."]
    # a dash is ";" to the splitter (choice 3), but a sentence may begin with one (GUM: a letter's signature)
    assert split_sentences("In our stability and integrity. \u2014 NORTON I, Emperor.") == [
        "In our stability and integrity.", "\u2014 NORTON I, Emperor."]


def test_joined_cuts_keep_sentences_within_the_window() -> None:
    """Joining the splitter's cuts again undid the cuts made at WINDOW_CHARS: ``"Mr. " * 50000`` was one sentence of
    199,999 characters (and the warning said it was cut)."""
    text = "Mr. " * 5000
    with pytest.warns(LongInputWarning):
        spans = sentence_spans(text)
    assert max(end - start for start, end in spans) <= WINDOW_CHARS
    assert spans[0][0] == 0 and spans[-1][1] == len(text.rstrip())


@pytest.mark.parametrize("text", ["See " + "-" * 30000, "See " + ", " * 10000, "A. " + ")" * 5000,
                                  "He left. " + "\u201d" * 5000, "Go. " + "!? " * 3000])
def test_punctuation_joined_to_a_sentence_keeps_it_within_the_window(text: str) -> None:
    """A piece without a letter or digit (and closing quotes) is joined to the sentence before it, without a bound:
    a run of ``-`` cut into pieces of 2,000 characters became one sentence again (a million dashes, 500,001 words,
    1.5 GB), though the warning said the text was cut into pieces of at most 2,000 characters."""
    with pytest.warns(LongInputWarning):
        spans = sentence_spans(text)
    assert max(end - start for start, end in spans) <= WINDOW_CHARS
    assert spans[0][0] == 0 and spans[-1][1] == len(text.rstrip())


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


@pytest.mark.parametrize("end", ["\n", "\r\n", "\r"])
@pytest.mark.parametrize("length", [WINDOW_CHARS - 1, WINDOW_CHARS, WINDOW_CHARS + 1, 3 * WINDOW_CHARS])
def test_a_line_of_any_length_is_one_sentence_with_lines(end: str, length: int) -> None:
    """With ``lines=True`` a line longer than WINDOW_CHARS was cut where the count fell (``The`` | ``dog``): a
    stimulus became two sentences, an end-of-sentence row in its middle and the words after the cut measured
    without their context; a line of exactly 2,000 characters followed by another was cut too (its line break
    counted). Every line is one sentence, however long, without a warning."""
    import warnings

    line = ("The dog ran. " * length)[:length - 1] + "x"
    with warnings.catch_warnings():
        warnings.simplefilter("error", LongInputWarning)
        assert sentence_spans(line + end + "The dog barked." + end, lines=True) == [
            (0, length), (length + len(end), length + len(end) + 15)]


def test_text_cut_for_want_of_boundaries_is_one_warning_per_text() -> None:
    """Each cut of a long text without sentence boundaries was a warning of its own, told apart by its position, so
    Python's once-per-place rule kept them all: a 10,000-word paragraph gave 25 of them in one call. Now one warning
    per text names the first cut, counts the rest (``cuts``), and the pieces are the same."""
    import warnings

    from glmnlp.text.tokenize import LongInputWarning, sentence_spans

    text = "dogs bark and cats sit " * 450 + "\n\nshort one. " + "birds sing " * 400  # cuts in two paragraphs
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        spans = sentence_spans(text)
    assert [type(w.message) for w in caught] == [LongInputWarning]
    message = caught[0].message
    assert isinstance(message, LongInputWarning) and message.cuts == 7 and len(spans) == 6 + 1 + 3
    assert str(message).startswith("no sentence boundary within 2000 characters (at character 0, and 6 more cuts")
    assert all(b - a <= 2000 for a, b in spans)


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


def test_cjk_sentence_ends_and_grapheme_clusters() -> None:
    """Text of 。！？ was split at them only when an ASCII ``.!?`` stood in the same 2,000 characters (pysbd splits at
    them, but was not asked), so the same sentence split differently by what came near it, and a long text without
    spaces was cut at character 2,000 whatever it was: inside a flag (🇺 | 🇸), a ZWJ family (👨 | 👩‍👧‍👦). The
    keycap of ``#️⃣`` was a token of its own (an empty-looking word). Each is whole now."""
    from glmnlp.text.tokenize import WINDOW_CHARS, tokenize_text

    assert tokenize_text("我爱北京天安门。今天天气很好！你好吗？") == [["我爱北京天安门。"], ["今天天气很好！"], ["你好吗？"]]
    assert tokenize_text("Hello，world！How are you？") == [["Hello，world！"], ["How", "are", "you？"]]
    for cluster in ("\U0001f468\u200d\U0001f469\u200d\U0001f467\u200d\U0001f466", "\U0001f1fa\U0001f1f8",
                    "\u0e01\u0e34"):
        with pytest.warns(UserWarning, match="no sentence boundary"):
            words = [w for s in tokenize_text("\u4eca" * (WINDOW_CHARS - 1) + cluster + " ok") for w in s]
        assert cluster in "".join(words) and all(not w.startswith(cluster[1:]) for w in words[1:]), words
    assert tokenize_text("Press #\ufe0f\u20e3 now.") == [["Press", "#\ufe0f\u20e3", "now", "."]]


def test_a_grapheme_cluster_takes_its_columns_in_an_ascii_drawing() -> None:
    """An emoji ZWJ family took 8 columns (four wide emoji) and a thumbs-up with a skin tone 4, where terminals draw
    each in 2, so the words after them stood left of their tags."""
    from glmnlp.graphemes import display_columns

    assert display_columns("\U0001f468\u200d\U0001f469\u200d\U0001f467\u200d\U0001f466") == 2
    assert display_columns("\U0001f44d\U0001f3fd") == display_columns("\U0001f1fa\U0001f1f8") == 2
    assert display_columns("\u4e2d\u6587") == 4 and display_columns("e\u0301") == 1


def test_text_without_spaces_is_cut_once_a_window_and_a_joiner_between_letters_joins_nothing() -> None:
    """A window that was one long run of marks or joiners (``a\\u200d`` x 40,000) was cut one character at a time (a
    cut found no cluster start in it): 40,000 pieces, quadratic time. A zero-width joiner between letters joins
    nothing (only pictographs): ``Hello\\u200d,`` kept the comma on the word."""
    import warnings

    from glmnlp.text.tokenize import WINDOW_CHARS, sentence_spans, tokenize_text

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for text in ("a\u200d" * 40000, "e" + "\u0301" * 40000, "\U0001f1fa\U0001f1f8" * 20000):
            spans = sentence_spans(text)
            assert len(spans) <= len(text) // WINDOW_CHARS + 1 and all(b - a <= WINDOW_CHARS for a, b in spans)
    assert tokenize_text("Hello\u200d, world\u200d.") == [["Hello", ",", "world", "."]]
