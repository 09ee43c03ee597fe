"""A sentence written in capitals is read in lower case when tagging (glmnlp.tagger.features.sentence_read_as): in
training text capitals mark names, so the bundled model tagged nearly every word of ``DO NOT ENTER .`` and ``CALL US
TODAY FOR A FREE QUOTE .`` NNP; a single word in capitals (``I REALLY need it``) is read as written."""

from __future__ import annotations

from collections.abc import Callable
from unittest import mock

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import glmnlp
from glmnlp.tagger import model as tagger_model
from glmnlp.tagger.features import sentence_read_as
from glmnlp.tagger.model import Tagger, TaggerConfig
from glmnlp.treebank.corpus import sample_tagged
from glmnlp.treebank.formats import TaggedSentence


@pytest.fixture(scope="module")
def wsj_tagger() -> Tagger:
    """A tagger of the PTB sample: it has seen ``IBM`` and ``U.S.`` in capitals only, ``I`` and ``A`` too."""
    return Tagger(TaggerConfig(epochs=1)).fit(sample_tagged("train"), show_progress=False, jobs=1)


def test_the_bundled_model_tags_sentences_in_capitals_as_in_lower_case() -> None:
    """Before: ``NN NNP NNP .``, every word of the second sentence NNP but ``A``, and ``NN NNP NNP .``; a single word in
    capitals among words in lower case is read as written, as it was."""
    nlp = glmnlp.load()
    tagger = nlp.tagger
    assert tagger.tag(["DO", "NOT", "ENTER", "."]) == ["VB", "RB", "VB", "."]
    assert tagger.tag(["WHERE", "ARE", "YOU", "?"]) == ["WRB", "VBP", "PRP", "."]
    shout = ["CALL", "US", "TODAY", "FOR", "A", "FREE", "QUOTE", "."]
    assert tagger.tag(shout) == tagger.tag(["Call", "us", "today", "for", "a", "free", "quote", "."])
    assert "NNP" not in tagger.tag(shout)
    assert nlp("DO NOT ENTER.").sentences[0].tags == ["VB", "RB", "VB", "."]  # the pipeline reads it so too
    # a word the tagger has seen neither way is read as a name: lower case made names and acronyms common nouns
    assert tagger.tag(["IBM", ",", "HP", ",", "DELL"]) == ["NNP", ",", "NNP", ",", "NNP"]  # was NNP , NN , NN
    assert tagger.tag("MY NAME IS JOHN SMITH".split())[-1] == "NNP"  # was NN
    assert sentence_read_as("NASA AND THE FBI MET".split(), tagger._vocabulary)[3] == "Fbi"  # FBI was JJ as fbi
    # the NT of CANT reaches the tagger as n't, a clitic that does not count against the capitals (it did: 3 of 4)
    assert nlp("I CANT BELIEVE IT").sentences[0].tags == ["PRP", "MD", "RB", "VB", "PRP"]
    assert nlp("CANT STOP NOW.").sentences[0].tags[:2] == ["MD", "RB"]  # the first word read Ca was FW
    assert tagger.tag(["I", "REALLY", "need", "it", "."]) == ["PRP", "RB", "VBP", "PRP", "."]
    assert tagger.tag(["The", "food", "was", "NOT", "good", "."])[3] == "RB"
    assert sentence_read_as(["I", "REALLY", "need", "it", "."], tagger._vocabulary) == ["I", "REALLY", "need", "it", "."]


def test_the_rule_counts_words_of_two_letters_or_more_and_keeps_i_and_words_seen_only_in_capitals() -> None:
    """Three words in capitals and 80% of the words of two letters or more; ``A`` is read too, ``I`` and a word the
    tagger has seen in capitals and never in lower case are not; the first word is capitalised as a sentence's is."""
    vocabulary = {"where", "are", "you", "NASA", "IBM", "ibm", "a", "I", "saw", "rocket", "new", "day", "again", "ok",
                  "now"}
    assert sentence_read_as(["WHERE", "ARE", "YOU", "?"], vocabulary) == ["Where", "are", "you", "?"]
    assert sentence_read_as(["I", "SAW", "A", "NASA", "IBM", "ROCKET"], vocabulary) == [
        "I", "saw", "a", "NASA", "ibm", "rocket"]
    # a word seen neither way is read as a name (JAXA as Jaxa): in lower case it was a common noun
    assert sentence_read_as(["I", "SAW", "A", "JAXA", "ROCKET"], vocabulary) == ["I", "saw", "a", "Jaxa", "rocket"]
    assert sentence_read_as(["A", "NEW", "DAY", "AGAIN"], vocabulary) == ["A", "new", "day", "again"]
    assert sentence_read_as(["ARE", "YOU", "OK", "now", "?"], vocabulary) == ["ARE", "YOU", "OK", "now", "?"]  # 75%
    assert sentence_read_as(["ARE", "YOU", "OK", "NOW", "x", "?"], vocabulary) == ["Are", "you", "ok", "now", "x", "?"]
    words = ["I", "A", "DO", "IT"]  # two words of two letters: too few to tell
    assert sentence_read_as(words, vocabulary) is words


def test_a_small_tagger_reads_a_sentence_in_capitals_as_in_lower_case_and_trains_on_words_as_written() -> None:
    """A tagger that has seen ``dogs`` as a noun and ``BARK`` only as a name: ``THE DOGS BARK .`` is read ``The dogs
    bark .`` (``BARK`` is known in capitals but so is ``bark``), every feature of it (explain)."""
    train = [TaggedSentence(("The", "dogs", "bark", "."), ("DT", "NNS", "VBP", ".")),
             TaggedSentence(("the", "cats", "sleep", "."), ("DT", "NNS", "VBP", ".")),
             TaggedSentence(("BARK", "sleeps", "."), ("NNP", "VBZ", "."))] * 3
    tagger = Tagger(TaggerConfig(epochs=3)).fit(train, show_progress=False, jobs=1)
    shout = ["THE", "DOGS", "BARK", "."]
    assert tagger.explain(shout) == tagger.explain(["The", "dogs", "bark", "."])
    assert tagger.tag(shout) == ["DT", "NNS", "VBP", "."]
    assert tagger.tag(["BARK", "sleeps", "."])[0] == "NNP"  # one word in capitals: read as written
    batch = [["the", "cats", "sleep", "."], [], shout, ["BARK", "sleeps", "."], shout]  # each sentence on its own
    assert tagger.tag_sentences(batch) == [tagger.tag(s) if s else [] for s in batch]
    assert tagger.knows("BARK") and not tagger.knows("DOGS")  # knows answers for the word as written


_WORDS = ["the", "company", "paid", "a", "share", "it", "costs", "not", "I", "A", "IBM", "U.S.", "500", ",", ".",
          "will", "sell", "stock", "new", "York"]
_CASES: list[Callable[[str], str]] = [str.upper, str.lower, str.title, str]


@settings(max_examples=80, deadline=None)
@given(drawn=st.lists(st.tuples(st.sampled_from(_WORDS), st.sampled_from(_CASES)), min_size=1, max_size=10),
       shout=st.booleans())
def test_property_a_sentence_in_capitals_reads_as_its_case_folded_form_and_any_other_as_before(
        wsj_tagger: Tagger, drawn: list[tuple[str, Callable[[str], str]]], shout: bool) -> None:
    """Property: a sentence that does not meet the rule is tagged exactly as without the rule (tags, max-marginals);
    one that does has the tags, max-marginals, multi-tags and features of its case-folded form, which is its words in
    lower case but ``I`` and those seen only in capitals (``IBM``, ``U.S.``) and those seen neither way as names, the
    first one capitalised."""
    words = [w.upper() if shout else case(w) for w, case in drawn]
    vocabulary = wsj_tagger._vocabulary
    read = sentence_read_as(words, vocabulary)
    lettered = [w for w in words if sum(c.isalpha() for c in w) >= 2]
    capitals = [w for w in lettered if w.isupper()]
    if len(capitals) < 3 or len(capitals) < 0.8 * len(lettered):
        assert read is words

        def as_written(_sentences: object, _offsets: object, local: np.ndarray, *_: object) -> np.ndarray:
            return local

        tags, mm = wsj_tagger.tag(words), wsj_tagger.max_marginals(words)
        with mock.patch.object(tagger_model, "read_capitals", as_written):
            assert wsj_tagger.tag(words) == tags
            assert np.array_equal(wsj_tagger.max_marginals(words), mm)
        return
    # in lower case where the tagger knows it so; as a name where it knows it neither way (JAXA as Jaxa)
    folded = [w if not w.isupper() or w in {"I", "IBM", "U.S."} else w.lower() if w.lower() in vocabulary
              else w[:1] + w[1:].lower() for w in words]
    if folded[0] != words[0]:
        folded[0] = folded[0][:1].upper() + folded[0][1:]
    assert read == folded
    assert wsj_tagger.tag(words) == wsj_tagger.tag(folded)
    assert np.array_equal(wsj_tagger.max_marginals(words), wsj_tagger.max_marginals(folded))
    assert wsj_tagger.multitag(words, 3.0) == wsj_tagger.multitag(folded, 3.0)
    assert wsj_tagger.tag_and_multitag(words, 3.0) == wsj_tagger.tag_and_multitag(folded, 3.0)
    assert wsj_tagger.explain(words) == wsj_tagger.explain(folded)
    assert wsj_tagger.tag_sentences([words, folded]) == [wsj_tagger.tag(folded)] * 2
