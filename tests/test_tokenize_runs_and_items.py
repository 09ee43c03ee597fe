"""A run of ``!`` and ``?`` is one token (choice 16 of glmnlp.text.tokenize), as EWT writes its 286 runs: NLTK split
every mark, and the parser nested a clause around each; a tagger that has not seen the run reads its first mark
(glmnlp.tagger.features.read_as). A numbered item's number splits from its full stop (choice 17)."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import glmnlp
from glmnlp.tagger.features import read_as
from glmnlp.text.tokenize import tokenize_text, tokenize_text_spans
from glmnlp.treebank.trees import Tree, to_bracket
from tokenize_fixtures import assert_spans_exact


@pytest.mark.parametrize(("text", "expected"), [
    ("Can't wait!!!", "Ca n't wait !!!"),
    ("Are you serious?!", "Are you serious ?!"),
    ("Really?? Yes!! Ok.", "Really ?? | Yes !! | Ok ."),
    ("What?!?! No way!!!! I know.", "What ?!?! | No way !!!! | I know ."),
    ('He said "no!!" and left.', "He said `` no !! '' and left ."),
    ("Wow ! ! !", "Wow ! ! !"),
    ("Really? Yes.", "Really ? | Yes ."),
    ("Hi!!!:)", "Hi !!! : -RRB-"),
    ("Wait...!!", "Wait ... !!"),
])
def test_a_run_of_exclamation_and_question_marks_is_one_token(text: str, expected: str) -> None:
    """``wait!!!`` was ``wait ! ! !``; marks with spaces between, and other marks, stay tokens of their own."""
    assert [" ".join(sentence) for sentence in tokenize_text(text)] == expected.split(" | ")
    assert_spans_exact(text)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(["!", "?", "!!", " ", "wait", "Yes", ".", "...", ",", '"', ")", "(", ":)"]),
                min_size=1, max_size=12))
def test_property_no_two_touching_marks_of_a_run_are_apart(pieces: list[str]) -> None:
    """Property: no token made of ``!`` and ``?`` touches another such token, every such token is a run of the text
    as written, and every character but the spaces is in exactly one token."""
    text = "".join(pieces).strip()
    if not text:
        return
    assert_spans_exact(text)
    tokens = [token for sentence in tokenize_text_spans(text) for token in sentence]
    marks = [(start, end) for word, start, end in tokens if re.fullmatch(r"[!?]+", word)]
    for (_, end), (start, _) in zip(marks, marks[1:]):
        assert end != start, (text, tokens)
    for word, start, end in tokens:
        if re.fullmatch(r"[!?]+", word):
            assert text[start:end] == word


def test_a_tagger_reads_an_unseen_run_as_its_first_mark() -> None:
    """A run it has seen is its own word; a run of marks it has never seen alone stays an unknown word."""
    vocabulary = {"!", "?", "??", "ca", "wo"}
    assert [read_as(w, vocabulary) for w in ("!!!", "?!", "!?", "??", "!")] == ["!", "?", "!", "??", "!"]
    assert read_as("!!!", {"?"}) == "!!!"
    # the host of n't is read in lower case before its clitic only (glmnlp.text.token_spelling.ptb_clitics)
    assert [read_as(w, vocabulary) for w in ("Ca", "Wo", "Sha", "CA", "Can")] == ["Ca", "Wo", "Sha", "CA", "Can"]


def test_the_bundled_model_ends_the_sentence_with_the_run() -> None:
    """Before: ``(TOP (S (S (S (S (VP (VB Ca) (RB n't) (VP (VB wait)))) (. !)) (. !)) (. !)))`` and ``Really??``
    as ``(ADVP (RB Really) (. ?)) (. ?)``."""
    nlp = glmnlp.load()
    for text, run in (("Can't wait!!!", "!!!"), ("This is the best day ever!!!!", "!!!!"),
                      ("Are you serious?!", "?!")):
        sent = nlp(text).sentences[0]
        assert sent.words[-1] == run and sent.tags[-1] == "." and sent.tree is not None
        top = sent.tree.children[0]
        assert isinstance(top, Tree) and len(top.children) > 1, to_bracket(sent.tree)
        last = top.children[-1]
        assert isinstance(last, Tree) and last.label == "." and last.children == (run,), to_bracket(sent.tree)
        assert "(S (S" not in to_bracket(sent.tree)
    sent = nlp("Can't stop now.").sentences[0]
    assert sent.tags[:2] == ["MD", "RB"], sent.tags  # "Ca" was NNP or VB, an unknown capitalised word


@pytest.mark.parametrize(("text", "expected"), [
    ("1. Preheat the oven.", "1 . Preheat the oven ."),
    ("Steps:\n1. Preheat the oven.\n2. Mix it.", "Steps : | 1 . Preheat the oven . | 2 . Mix it ."),
    ("10. Done.", "10 . Done ."),
    ("In 1999. we left.", "In 1999 . | we left ."),
    ("1.5 million left.", "1.5 million left ."),
    ("He came 1. in the race.", "He came 1 . | in the race ."),
    ("2. 5 people came.", "2. 5 people came ."),
])
def test_a_numbered_item_s_number_splits_from_its_full_stop(text: str, expected: str) -> None:
    """Choice 17: ``1.`` at a sentence's start before a word was one token, which no treebank has; the WSJ and EWT
    write ``1`` + ``.``. A year's or a decimal's full stop is not a list item's."""
    assert [" ".join(sentence) for sentence in tokenize_text(text)] == expected.split(" | ")
    assert_spans_exact(text)


def test_the_bundled_model_parses_a_numbered_item_as_a_list_item_and_a_clause() -> None:
    """Before: ``(TOP (NP (LS 1.) (NNP Preheat) (DT the) (NN oven) (. .)))``."""
    nlp = glmnlp.load()
    sent = nlp("1. Preheat the oven.").sentences[0]
    assert sent.words[:3] == ["1", ".", "Preheat"] and sent.tags[:3] == ["LS", ".", "VB"], sent.tags
    assert sent.tree is not None and to_bracket(sent.tree).startswith("(TOP (S (LST (LS 1) (. .)) (VP (VB Preheat)")


@pytest.mark.parametrize(("text", "expected"), [
    ("Meet me at 3pm or 10:30am, not 5PM.", "Meet me at 3 pm or 10:30 am , not 5 PM ."),
    ("It weighs 2kg and costs $5m or 50K.", "It weighs 2 kg and costs $ 5 m or 50 K ."),
    ("I have 16GB and a 2.4GHz CPU, 1,000km away.", "I have 16 GB and a 2.4 GHz CPU , 1,000 km away ."),
    ("It was 5years ago.", "It was 5 years ago ."),
    ("On the 4th of July in the 1990s, 4G and 3D.", "On the 4th of July in the 1990s , 4G and 3D ."),
    ("Apt 4B is a 5m-year plan.", "Apt 4B is a 5m-year plan ."),
    ("see http://x.com/5kg and #5kg", "see http://x.com/5kg and #5kg"),
])
def test_a_number_glued_to_its_unit_splits_and_ordinals_and_decades_stay_whole(text: str, expected: str) -> None:
    """Choice 19: ``3pm``, ``5kg``, ``16GB`` were single tokens no model had seen; EWT and GUM write ``3 pm``."""
    assert [" ".join(sentence) for sentence in tokenize_text(text)] == expected.split(" | ")
    assert_spans_exact(text)


@settings(max_examples=200, deadline=None)
@given(number=st.from_regex(r"[0-9]{1,4}(?:[.,:][0-9]{1,2})?", fullmatch=True),
       unit=st.sampled_from(["pm", "AM", "kg", "GB", "m", "K", "bn", "years", "th", "s", "G", "D", "B", "st"]))
def test_property_a_number_and_a_unit_are_two_tokens_an_ordinal_one(number: str, unit: str) -> None:
    """Property: ``<number><unit>`` before a word is the number and the unit as written, at their offsets; an ordinal
    or decade suffix, and single capitals other than ``K`` and ``M``, stay on the number."""
    text = f"It is {number}{unit} now"
    words = tokenize_text(text)[0]
    if unit in ("th", "s", "G", "D", "B", "st"):
        assert f"{number}{unit}" in words, words
    else:
        assert words[2:4] == [number, unit], words
    assert_spans_exact(text)


def test_the_measures_read_a_run_of_marks_as_the_mark_the_parser_knows() -> None:
    """The tagger read ``!!!`` as ``!``, but the parser of the measures saw an unknown word: ``known`` false and
    16.10 bits of lexical surprisal; the text layer gives both models the same reading (glmnlp.text.inputs.model_words)."""
    rows = glmnlp.measures("Wait!!! Stop it.")
    run = [row for row in rows if row["word"] == "!!!"]
    assert len(run) == 1 and run[0]["known"] is True, rows
    mark = [row for row in glmnlp.measures("Wait! Stop it.") if row["word"] == "!"]
    assert run[0]["lexical_surprisal"] == pytest.approx(mark[0]["lexical_surprisal"])
