"""A currency sign the tagger never saw is read as the ``$`` it has seen when tagging (glmnlp.tagger.features.read_as):
as an unknown word it could take only the open-class tags, none of them ``$``, so the bundled model tagged ``¥500``
``JJ CD`` and ``₹2,000`` ``VBG CD``."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from glmnlp.graphemes import CURRENCY_SIGNS
from glmnlp.tagger.features import read_as
from glmnlp.tagger.model import Tagger, TaggerConfig
from glmnlp.treebank.corpus import sample_tagged
from glmnlp.treebank.formats import TaggedSentence


@pytest.fixture(scope="module")
def wsj_tagger() -> Tagger:
    """A tagger of the PTB sample: ``$`` seen hundreds of times, no other currency sign (the WSJ writes ``#``)."""
    return Tagger(TaggerConfig(epochs=1)).fit(sample_tagged("train"), show_progress=False, jobs=1)


@pytest.mark.parametrize("sign", ["\u00a5", "\u20b9", "\u00a3", "\u20ac", "\u20a9", "\U00011fdd"])
def test_an_unseen_currency_sign_is_tagged_as_the_dollar_sign(wsj_tagger: Tagger, sign: str) -> None:
    """Before, the sign was an unknown word: an open-class tag (``JJ``, ``NN``...), never ``$``."""
    assert not wsj_tagger.knows(sign)  # still an unseen word: the measures' "known" says so
    assert wsj_tagger.tag(["It", "costs", sign, "500", "."])[2] == "$"
    assert wsj_tagger.multitag(["It", "costs", sign, "500", "."], 4.0)[2][0] == "$"


_SAMPLE_WORDS = ["It", "costs", "500", "the", "company", "paid", "million", "a", "share", ",", ".", "and", "to", "$"]


@settings(max_examples=60, deadline=None)
@given(words=st.lists(st.sampled_from(_SAMPLE_WORDS), min_size=1, max_size=10),
       sign=st.sampled_from(sorted(CURRENCY_SIGNS - {"$"})), at=st.integers(min_value=0, max_value=10))
def test_property_an_unseen_sign_reads_exactly_as_the_dollar_sign(wsj_tagger: Tagger, words: list[str], sign: str,
                                                                  at: int) -> None:
    """Property: a sentence with an unseen sign in it has the tags and max-marginals of the same sentence with ``$``
    there, every position's (the neighbours' features read the sign's atoms too)."""
    at = min(at, len(words))
    with_sign = [*words[:at], sign, *words[at:]]
    with_dollar = [*words[:at], "$", *words[at:]]
    assert wsj_tagger.tag(with_sign) == wsj_tagger.tag(with_dollar)
    assert np.array_equal(wsj_tagger.max_marginals(with_sign), wsj_tagger.max_marginals(with_dollar))


def test_a_sign_the_tagger_has_seen_keeps_its_own_reading_and_training_reads_words_as_they_are() -> None:
    """A sign in the training data is read as itself (here tagged as a noun, as no treebank does), in training and
    in tagging; a tagger that has never seen ``$`` reads an unseen sign as the unknown word it is."""
    train = [TaggedSentence(("the", "\u20ac", "rose", "."), ("DT", "NN", "VBD", ".")),
             TaggedSentence(("it", "cost", "$", "5", "."), ("PRP", "VBD", "$", "CD", "."))] * 3
    tagger = Tagger(TaggerConfig(epochs=2)).fit(train, show_progress=False, jobs=1)
    assert tagger.knows("\u20ac") and tagger.tag(["the", "\u20ac", "rose", "."])[1] == "NN"
    assert tagger.tag(["it", "cost", "\u00a5", "5", "."])[2] == "$"
    assert read_as("\u20ac", {"\u20ac", "$"}) == "\u20ac"
    assert read_as("\u00a5", {"$"}) == "$"
    assert read_as("\u00a5", {"the"}) == "\u00a5"  # no dollar sign seen: nothing to read it as
    assert read_as("US$", {"$"}) == "US$"  # a word with a sign in it is a word of its own
    no_dollar = Tagger(TaggerConfig(epochs=1)).fit(train[:1], show_progress=False, jobs=1)
    # read as the unknown word it is: as another unseen symbol, not as a word the tagger knows
    assert no_dollar.max_marginals(["the", "\u00a5", "rose", "."]).tolist() == no_dollar.max_marginals(
        ["the", "\u00a7", "rose", "."]).tolist()
