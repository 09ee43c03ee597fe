"""Where a stream of documents through ``Pipeline.pipe`` says something went: the place of a warning or an error in the
stream, the warnings of worker processes raised where one process raises them, and the count of sentences given a flat
tree for their length."""

from __future__ import annotations

import warnings

import pytest

from glmnlp.errors import InputError
from glmnlp.text.loading import load
from glmnlp.text.tokenize import LongInputWarning

LONG = " ".join(["word"] * 160) + " ."


@pytest.mark.parametrize("n_process", [1, 2])
def test_a_warning_made_an_error_comes_after_the_same_documents_on_workers(n_process: int) -> None:
    """With ``warnings.simplefilter("error", LongInputWarning)`` one process gave the documents before the long one
    (its batch's earlier ones included) and workers dropped the whole batch: the worker's warnings were raised again
    before the batch's documents were given. Now each before the document it came with."""
    nlp = load(deferred=True)
    docs = [f"Short {i}." for i in range(12)]
    docs[5] = LONG
    got: list[str] = []
    with warnings.catch_warnings():
        warnings.simplefilter("error", LongInputWarning)
        with pytest.raises(LongInputWarning, match="^document 6, sentence 1: a sentence of 161 words"):
            got.extend(d.text for d in nlp.pipe(docs, batch_size=4, n_process=n_process))
    assert got == docs[:5]


@pytest.mark.parametrize("n_process", [1, 2])
def test_a_long_sentences_warning_and_an_unknown_tags_error_name_the_document(n_process: int) -> None:
    """In a stream of a thousand documents the long-sentence warning (at the caller's loop, either way) named no
    document, nor did a given tag the parser does not know, where every other refusal says "document 3, sentence 2"."""
    nlp = load(deferred=True)
    docs = ["Fine."] * 7 + [f"Fine. {LONG}"] + ["Fine."] * 3
    with pytest.warns(LongInputWarning, match="^document 8, sentence 2: a sentence of 161 words") as caught:
        assert len(list(nlp.pipe(docs, batch_size=2, n_process=n_process))) == len(docs)
    assert len([w for w in caught if issubclass(w.category, LongInputWarning)]) == 1
    tagged = [[("Dogs", "NNS"), ("bark", "VBP")], [("Cats", "NNS"), ("meow", "VBZZ")]]
    with pytest.raises(InputError, match=r"document 3, sentence 2: word 2 \('meow'\): tag 'VBZZ' is not one of the "
                                         "model's"):
        list(nlp.pipe(["Fine.", "Also fine.", tagged], batch_size=1, n_process=n_process))


@pytest.mark.parametrize("n_process", [1, 2])
def test_sentences_over_max_words_are_counted_in_stats(n_process: int) -> None:
    """Their flat trees were counted nowhere: 12 sentences out, ``stats['sentences']`` 8 and ``fallback`` 0, and the
    command's summary said "default structure: 0". They are ``too_long`` now, workers' included."""
    nlp = load(deferred=True)
    docs = ["The dog barked.", LONG, "It rained."] * 4
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", LongInputWarning)
        out = list(nlp.pipe(docs, batch_size=2, n_process=n_process))
    assert sum(s.score is None for d in out for s in d.sentences) == 4
    assert nlp.stats is not None and nlp.stats.get("too_long") == 4 and nlp.stats["sentences"] == 8
