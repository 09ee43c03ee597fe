"""The measures' word classes (``WordClasses``: closed, open, previous): the packaged list and its rules, a user's
list or rules file and its errors, apostrophes, ``#`` and a word spelled like the end-of-sentence row."""

from __future__ import annotations

import pytest

from glmnlp.errors import FormatError
from glmnlp.parser.measures import EOS, WordClasses, sentence_measures

from measures_fixtures import EXACT, _setup


def test_word_classes_rule_list_and_override(tmp_path) -> None:
    """Default list, punctuation/clitic rule, case-insensitivity, and a user file replacing the list. A word ``</s>``
    is a word (open): the end-of-sentence row is ``previous`` by its place (the test below)."""
    wc = WordClasses.default()
    assert [wc(w) for w in ["The", "of", "dog", ",", "n't", "'s", "-LRB-", EOS, "said", "&"]] == [
        "closed", "closed", "open", "previous", "previous", "previous", "previous", "open", "closed", "closed"]
    f = tmp_path / "cls.tsv"
    f.write_text("# mine\ndog\tclosed\n", encoding="utf-8")
    mine = WordClasses.from_file(f)
    assert mine("Dog") == "closed" and mine("the") == "open" and mine(".") == "previous"
    f.write_text("dog closed\n", encoding="utf-8")
    with pytest.raises(FormatError, match="cls.tsv:1"):
        WordClasses.from_file(f)
    assert [wc(w) for w in ["--", "``", "''", "%", "'ll"]] == ["previous"] * 3 + ["open", "previous"]
    assert [wc(w) for w in ["`", "'"]] == ["previous"] * 2  # the single opening quote was "open": not punctuation
    rules = tmp_path / "rules.tsv"
    rules.write_text("# numbers are closed\n[0-9][0-9,.]*\tclosed\n:punctuation:\topen\n", encoding="utf-8")
    ruled = WordClasses.from_file(None, rules)
    assert [ruled(w) for w in ["1,000", ",", "the", "n't", "-LRB-", "</s>"]] == [
        "closed", "open", "closed", "previous", "open", "open"]
    rules.write_text("([a-z\tprevious\n", encoding="utf-8")
    with pytest.raises(FormatError, match="rules.tsv:1: bad regular expression"):
        WordClasses.from_file(None, rules)


def test_a_word_spelled_like_the_end_of_sentence_row_is_a_word() -> None:
    """A token ``</s>`` in the text (markup, a paper on language models) got the end row's class ``previous``; it is
    classed as any word, and the end row is ``previous`` by its place."""
    rows = sentence_measures(_setup(), ["the", "</s>", "saw", "dog"], ["DT", "NN", "VBD", "NN"], options=EXACT)
    assert [(r["word"], r["word_class"]) for r in rows] == [
        ("the", "closed"), ("</s>", "open"), ("saw", "open"), ("dog", "open"), (EOS, "previous")]


def test_word_classes_read_typographic_apostrophes_as_ascii(tmp_path) -> None:
    """Pre-tokenised stimuli keep ``n’t`` and ``she’d`` as written (raw text is normalised to ``n't``): the rules,
    written with ASCII apostrophes, made them ``open`` instead of ``previous``; a list entry written either way
    matches both."""
    wc = WordClasses.default()
    assert [wc(w) for w in ["n\u2019t", "\u2019s", "\u2019d", "\u02bcll", "N\u2019T", "\u2019"]] == ["previous"] * 6
    f = tmp_path / "cls.tsv"
    f.write_text("o\u2019clock\tclosed\n", encoding="utf-8")
    mine = WordClasses.from_file(f)
    assert mine("o'clock") == mine("O\u2019Clock") == "closed"


def test_a_word_listed_twice_with_two_classes_is_refused(tmp_path) -> None:
    """``A closed`` and ``a open`` in one list (lookups ignore case) were taken silently, the last winning."""
    f = tmp_path / "cls.tsv"
    f.write_text("# mine\nA\tclosed\nthe\tclosed\na\topen\nThe\tclosed\n", encoding="utf-8")
    with pytest.raises(FormatError, match=r"cls.tsv:4: 'a' is open here and closed at line 2"):
        WordClasses.from_file(f)
    f.write_text("A\tclosed\na\tclosed\n", encoding="utf-8")  # the same class twice: as meant
    assert WordClasses.from_file(f)("a") == "closed"


def test_the_pound_sign_is_a_word_of_the_list_not_a_comment(tmp_path) -> None:
    """The packaged list's ``#<TAB>open`` (the PTB's pound sign, beside ``$`` and ``%``) was read as a comment, and
    ``#`` took the punctuation rule's ``previous``; a user's list or rules could not hold it either."""
    assert WordClasses.default()("#") == "open" and WordClasses.default()("$") == "open"
    f = tmp_path / "cls.tsv"
    f.write_text("# my list\n#\tclosed\n#that\tprevious\n", encoding="utf-8")  # the last: commented out
    mine = WordClasses.from_file(f)
    assert mine("#") == "closed" and mine("#that") == "open" and "#that" not in mine.entries
    rules = tmp_path / "rules.tsv"
    rules.write_text("# rules\n#\tclosed\n#(old rule, disabled\tclosed\n", encoding="utf-8")
    plain = tmp_path / "plain.tsv"
    plain.write_text("a\tclosed\n", encoding="utf-8")
    assert WordClasses.from_file(plain, rules)("#") == "closed"

