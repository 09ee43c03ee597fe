"""Tests of glmnlp.parser.lexicon: unknown-word classes, lowercasing, rare words, ids and serialisation."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from glmnlp.errors import ModelFileError
from glmnlp.parser.lexicon import UNKNOWN_CLASSES, Lexicon, LexiconConfig, word_class


@pytest.mark.parametrize(
    ("word", "initial", "expected"),
    [
        ("--", False, "oovSYM"),
        ("%", True, "oovSYM"),
        ("21st", False, "oovORD"),
        ("3RD", False, "oovORD"),
        ("3.5", False, "oovCD"),
        ("1,000", True, "oovCD"),
        ("1987-88", False, "oovCD"),
        ("1980s", False, "oovCD"),
        ("Bush", False, "oovNNP"),
        ("Americans", False, "oovNNPS"),
        ("Bush", True, "oovSUF7"),
        ("Anti-Trust", False, "oovNNP"),
        ("well-known", False, "oovHYP"),
        ("3-year-old", False, "oovHYP"),
        ("an", False, "oovSHORT"),
        ("capable", False, "oovSUF0"),
        ("famous", False, "oovSUF0"),
        ("tribal", False, "oovSUF0"),
        ("running", False, "oovSUF1"),
        ("Running", True, "oovSUF1"),
        ("quickly", False, "oovSUF2"),
        ("process", False, "oovSUF3"),
        ("regular", False, "oovSUF4"),
        ("ferry", False, "oovSUF4"),
        ("walked", False, "oovSUF5"),
        ("dogs", False, "oovSUF6"),
        ("walk", False, "oovSUF7"),
    ],
)
def test_lexicon_word_class_hand_picked(word: str, initial: bool, expected: str) -> None:
    """Hand-picked words land in the documented class."""
    assert word_class(word, initial) == expected


@given(st.text(min_size=1, max_size=12), st.booleans())
def test_lexicon_word_class_total(word: str, initial: bool) -> None:
    """Every non-empty string gets exactly one of the declared classes."""
    assert word_class(word, initial) in UNKNOWN_CLASSES


SENTENCES = [
    [("The", "DT"), ("Smith", "NNP"), ("company", "NN"), ("said", "VBD"), ("Smith", "NNP")],
    [("Yesterday", "NN"), ("the", "DT"), ("company", "NN"), ("sold", "VBD"), ("Smith", "NNP")],
    [("The", "DT"), ("company", "NN"), ("bought", "VBD"), ("Smith", "NNP"), ("Baker", "NNP")],
    [("Company", "NN"), ("profit", "NN"), ("rose", "VBD"), ("1987", "CD"), ("1987", "CD")],
]


def test_lexicon_lowercasing_and_rare_words() -> None:
    """Capitalised POS tags keep case, others are lowercased; rare thresholds 1 / 3 and digits apply."""
    lexicon = Lexicon.build(SENTENCES)
    assert lexicon.capitalised_pos == frozenset({"NNP"})
    assert "company" in lexicon.words and "Company" not in lexicon.words
    assert "Smith" in lexicon.words and "smith" not in lexicon.words
    # "Smith" (NNP) occurs 4 times > 3: not rare; "Baker" (NNP) once: rare;
    # "company" 4 times: not rare; "profit" once: rare; "1987" twice but digit-initial: rare.
    assert "Smith" not in lexicon.rare
    assert {"baker", "Baker"} & lexicon.rare == {"Baker"}
    assert "company" not in lexicon.rare
    assert {"profit", "1987", "yesterday"} <= lexicon.rare


def test_lexicon_capitalised_threshold_three() -> None:
    """A capitalised-POS form seen 3 times is rare, 4 times is not; a lowercase form seen twice is not."""
    base = [[("x", "NN"), ("Ann", "NNP"), ("y", "NN")]] * 3 + [[("x", "NN"), ("Bob", "NNP"), ("y", "NN")]] * 4
    lexicon = Lexicon.build(base)
    assert "Ann" in lexicon.rare and "Bob" not in lexicon.rare
    assert "x" not in lexicon.rare
    strict = Lexicon.build(base, LexiconConfig(rare_count_capitalised=2))
    assert "Ann" not in strict.rare


def test_lexicon_word_ids_and_class_fallback() -> None:
    """Known forms get their own ids; unseen words get their class id; ids are deterministic."""
    lexicon = Lexicon.build(SENTENCES)
    assert lexicon.size == 1 + len(UNKNOWN_CLASSES) + len(lexicon.words)
    assert list(lexicon.words) == sorted(lexicon.words)
    company = lexicon.word_id("COMPANY", "NN", False)
    assert company == lexicon.word_id("company", "NN", True) > len(UNKNOWN_CLASSES)
    assert lexicon.word_id("Clark", "NNP", False) == lexicon.class_id("oovNNP")
    assert lexicon.word_id("merged", "VBD", False) == lexicon.class_id("oovSUF5")
    assert lexicon.training_ids("company", "NN", False) == (company, 0)
    profit = lexicon.word_id("profit", "NN", False)
    assert lexicon.training_ids("profit", "NN", False) == (profit, lexicon.class_id("oovSUF7"))
    assert lexicon.training_ids("Baker", "NNP", False)[1] == lexicon.class_id("oovNNP")
    with pytest.raises(ValueError):
        lexicon.training_ids("unseen", "NN", False)
    with pytest.raises(ValueError):
        lexicon.class_id("oovNOPE")


def test_lexicon_json_roundtrip() -> None:
    """to_json / from_json reproduce every id; foreign data raises ModelFileError."""
    lexicon = Lexicon.build(SENTENCES)
    again = Lexicon.from_json(lexicon.to_json())
    for sentence in SENTENCES:
        for i, (word, pos) in enumerate(sentence):
            assert again.training_ids(word, pos, i == 0) == lexicon.training_ids(word, pos, i == 0)
    assert again.word_id("Zed", "NNP", False) == lexicon.word_id("Zed", "NNP", False)
    with pytest.raises(ModelFileError):
        Lexicon.from_json({"format": "something-else", "version": 1})
    with pytest.raises(ModelFileError):
        Lexicon.from_json({**lexicon.to_json(), "classes": ["oovX"]})
