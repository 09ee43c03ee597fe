"""The measures' ``known`` column: whether the model scored a word by its own lexicon entry or by its unknown-word
class (whose surprisal every word of the class shares), in every output of the measures."""

from __future__ import annotations

import csv
import io
import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import glmnlp
from glmnlp.cli import main
from glmnlp.parser.measures import COLUMNS, MeasureOptions, sentence_measures
from glmnlp.text.inputs import model_words
from glmnlp.text.measures import load_parser, write_measures


@pytest.fixture(scope="module")
def rows() -> list[dict[str, Any]]:
    return glmnlp.measures(["The zorblax barked.", "The dog saw the cat."])


def test_known_marks_the_words_outside_the_lexicon(rows: list[dict[str, Any]]) -> None:
    """docs/measures.md: `cat`, `mat` and `zorblax` get their class's 8.90 bits after `The` with the bundled model, and
    a user had to ask the lexicon which words those were; the rows say it now (``</s>`` true, punctuation as a
    word)."""
    known = {(r["sentence"], r["word"]): r["known"] for r in rows}
    assert known[(1, "zorblax")] is False and known[(2, "dog")] is True and known[(2, "cat")] is False
    assert known[(1, "The")] is True and known[(1, ".")] is True and known[(1, "</s>")] is True
    after_the = [r["surprisal"] for r in glmnlp.measures([["The", w] for w in ("cat", "mat", "zorblax")], eos=False)
                 if r["index"] == 2]
    assert after_the == pytest.approx([after_the[0]] * 3)  # one class, one surprisal: what the column marks


def test_known_is_the_column_after_word_class_in_every_output(rows: list[dict[str, Any]]) -> None:
    """The rows, TSV, CSV and JSON all have ``known`` after ``word_class``; TSV and CSV write true/false (as JSON
    does), JSON a boolean."""
    assert list(COLUMNS)[list(COLUMNS).index("word_class") + 1] == "known"
    assert all(list(r) == list(COLUMNS) for r in rows)
    for fmt, delim in (("tsv", "\t"), ("csv", ",")):
        out = io.StringIO()
        write_measures(rows, out, fmt)
        table = list(csv.reader(io.StringIO(out.getvalue()), delimiter=delim))
        at = table[0].index("known")
        assert table[0][at - 1] == "word_class" and [line[at] for line in table[1:]] == [
            "true" if r["known"] else "false" for r in rows]
    out = io.StringIO()
    write_measures(rows, out, "json")
    back = [json.loads(line) for line in out.getvalue().splitlines()]
    assert [b["known"] for b in back] == [r["known"] for r in rows] and {type(b["known"]) for b in back} == {bool}


def test_known_in_the_command_output(capsys: pytest.CaptureFixture[str]) -> None:
    """``glmnlp measures`` prints the column: false for the nonword, true for ``</s>``."""
    assert main(["measures", "The zorblax barked."]) == 0
    table = [line.split("\t") for line in capsys.readouterr().out.splitlines()]
    at = table[0].index("known")
    assert [(line[3], line[at]) for line in table[1:]] == [
        ("The", "true"), ("zorblax", "false"), ("barked", "false"), (".", "true"), ("</s>", "true")]


def test_known_frames_are_bool() -> None:
    """``as_frame=True``, an empty text's frame and ``Document.measures_frame()`` have a bool ``known`` column."""
    pytest.importorskip("pandas")
    frame = glmnlp.measures("The zorblax barked.", as_frame=True)
    assert frame["known"].dtype == bool and frame["known"].tolist() == [True, False, False, True, True]
    assert glmnlp.measures("", as_frame=True)["known"].dtype == bool
    doc = glmnlp.load()("The zorblax barked.", measures=True)
    assert [r["known"] for r in doc.sents[0].measures] == [True, False, False, True, True]
    assert doc.measures_frame()["known"].dtype == bool
    assert glmnlp.Document.from_dict(doc.to_dict()).measures_frame()["known"].dtype == bool


def test_known_is_of_the_word_the_model_scored() -> None:
    """The treebank spelling (a ``(`` is the model's ``-LRB-``, which it knows; the lexicon does not know ``(``) and
    the tags the word was scored with: the bundled model knows ``Penn`` only as NNP, and its candidate tags for it
    hold no NNP, so the beam scores its class though ``Lexicon.knows("Penn")`` is true."""
    parser = load_parser()
    lexicon = parser.generative.lexicon
    assert not lexicon.knows("(") and lexicon.knows("Penn")
    rows = glmnlp.measures([["I", "read", "the", "Penn", "Treebank", "(", "twice", ")", "."]], eos=False)
    assert [r["known"] for r in rows] == [True, True, True, False, False, True, True, True, True]
    tags = [["PRP"], ["VBD"], ["DT"], ["NNP"], ["NNP"], ["."]]  # given NNP, "Penn" is its own entry
    given = glmnlp.measures([["I", "read", "the", "Penn", "Treebank", "."]], tags=[tags], eos=False)
    assert [r["known"] for r in given] == [True, True, True, True, False, True]


@settings(max_examples=15, deadline=None)
@given(st.lists(st.sampled_from(["dog", "Dog", "zorblax", "cat", "(", "Penn", "the", "The", "‰", ".", "U.S.", "'s"]),
                min_size=1, max_size=3))
def test_known_with_every_tag_is_the_lexicons_knows(words: list[str]) -> None:
    """With every tag of the grammar a word is looked up both as written (capitalised tags) and lowercased, so
    ``known`` is the lexicon's ``knows`` of the word as the model spells it; ``</s>`` is true."""
    parser = load_parser()
    spelt = model_words(words, parser.generative.lexicon)
    rows = sentence_measures(parser, spelt, "all", options=MeasureOptions(gamma=1e-3, cap=2))
    assert [r["known"] for r in rows] == [parser.generative.lexicon.knows(w) for w in spelt] + [True]
