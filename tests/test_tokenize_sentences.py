"""The sentence splitter: tricky text, --lines, bounded windows and cuts of unpunctuated text, pieces pysbd rewrites
or leaves whole, cuts joined again, CJK sentence ends.
"""

from __future__ import annotations

import pytest

from glmnlp.text.tokenize import (
    WINDOW_CHARS,
    LongInputWarning,
    sentence_spans,
    split_sentences,
    tokenize,
    tokenize_text,
    tokenize_text_spans,
)
from tokenize_fixtures import _assert_every_character_in_one_token


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


def test_tokenize_closing_quote_after_a_full_stop_ends_that_sentence() -> None:
    """pysbd put the closing quote of ``loose.''`` at the start of the next sentence, which then began with a
    lone closing quote; closing quotes and brackets followed by a space end the sentence before."""
    text = "He met them in March. \"All hell broke loose.'' Records show it."
    assert split_sentences(text) == ["He met them in March.", "\"All hell broke loose.''", "Records show it."]
    assert tokenize_text(text)[1] == ["``", "All", "hell", "broke", "loose", ".", "''"]
    assert split_sentences(text, lines=True) == [text]
    _assert_every_character_in_one_token(text)


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


@pytest.mark.parametrize(("text", "expected"), [
    ("Add 3 oz. of cheese.", "Add 3 oz. of cheese ."),
    ("My son is 3 yrs. old.", "My son is 3 yrs. old ."),
    ("He called 2 hrs. later.", "He called 2 hrs. later ."),
    ("The mgr. said no.", "The mgr. said no ."),
    ("I have an appt. tomorrow.", "I have an appt. tomorrow ."),
    ("It is a 500 sq. ft. apartment.", "It is a 500 sq. ft. apartment ."),
    ("Apt. 4B is empty.", "Apt. 4B is empty ."),
    ("Tel. 555-1234 is the number.", "Tel. 555-1234 is the number ."),
    ("Meet me on Tues. Jan. 5 at the office.", "Meet me on Tues. Jan. 5 at the office ."),
    ("Add 3 oz. Then stir.", "Add 3 oz . | Then stir ."),
    ("Thanks for the info. i will call.", "Thanks for the info . | i will call ."),
    ("I went to the doc. he said no.", "I went to the doc . | he said no ."),
    ("He is the dept. I think so.", "He is the dept . | I think so ."),
    ("I ran for 20 min. then stopped.", "I ran for 20 min. then stopped ."),
    ("We met on Wed. It rained.", "We met on Wed . | It rained ."),
    ("Call Apt. Now.", "Call Apt . | Now ."),
])
def test_a_unit_s_or_an_everyday_abbreviation_before_a_lowercase_word_ends_no_sentence(text: str,
                                                                                       expected: str) -> None:
    """pysbd cut after abbreviations its list lacks (``Add 3 oz . | of cheese .``, ``The mgr . | said no .``,
    ``Meet me on Tues . | Jan. 5``); a capital or a lowercase ``i`` after them still begins a sentence, and a unit
    only after a number is one, and words (``info``, ``doc``) end one as before."""
    assert [" ".join(sentence) for sentence in tokenize_text(text)] == expected.split(" | ")


@pytest.mark.parametrize(("text", "expected"), [
    ("I love this place :) The staff is great.", "I love this place :) | The staff is great ."),
    ("Got the job \U0001f389 The start is Monday.", "Got the job \U0001f389 | The start is Monday ."),
    ("Thanks \U0001f44d Mike will call you.", "Thanks \U0001f44d Mike will call you ."),
    ("I <3 NY and I love it.", "I <3 NY and I love it ."),
    ("I met \U0001f600 Sarah at the park.", "I met \U0001f600 Sarah at the park ."),
    ("Thanks. ;) See you.", "Thanks . | ;) See you ."),
    ("Great \U0001f44d\U0001f44d I will come back!", "Great \U0001f44d\U0001f44d | I will come back !"),
    ("Love \u2764\ufe0f You all", "Love \u2764\ufe0f | You all"),
    ("Thanks :) see you.", "Thanks :) see you ."),
    ("I love \U0001f355 and \U0001f354 so much.", "I love \U0001f355 and \U0001f354 so much ."),
    ("It is 5 \u2709 Mail here.", "It is 5 \u2709 Mail here ."),
])
def test_a_sentence_ends_after_an_emoticon_or_an_emoji_before_a_capital(text: str, expected: str) -> None:
    """pysbd never ended a sentence there (``place :) The staff`` was one sentence); a name after it (``Thanks 👍
    Mike will call``, ``I <3 NY``) or a lowercase word goes on the sentence, and a text symbol (``✉``) is no emoji."""
    assert [" ".join(sentence) for sentence in tokenize_text(text)] == expected.split(" | ")
