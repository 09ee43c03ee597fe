"""The spaCy component (optional extra glmnlp[spacy]): what its extensions read after the doc changed, and what reads
cost, on a blank English pipeline."""

from __future__ import annotations

import pytest

spacy = pytest.importorskip("spacy")

from glmnlp.text import spacy_component  # noqa: E402


@pytest.fixture(scope="module")
def nlp():  # type: ignore[no-untyped-def]
    pipeline = spacy.blank("en")
    pipeline.add_pipe("glmnlp_parser")  # one sentence per doc: no sentencizer
    return pipeline


def _merge_and_split(doc) -> None:  # type: ignore[no-untyped-def]
    """'old man' merged and 'yesterday' split: the doc has as many tokens as before, and the same first and last."""
    with doc.retokenize() as retokenizer:
        retokenizer.merge(doc[1:3])
    with doc.retokenize() as retokenizer:
        retokenizer.split(doc[6], ["yester", "day"], heads=[(doc[6], 1), (doc[6], 0)])


@pytest.mark.parametrize("read_before", [False, True])
@pytest.mark.parametrize("extension", ["children", "constituents", "labels", "parse_string"])
def test_spacy_component_refuses_a_span_whose_inner_tokens_changed(  # type: ignore[no-untyped-def]
    nlp, extension: str, read_before: bool
) -> None:
    """A merge and a split inside a span keep the doc's length and the span's edge tokens, the only tokens checked:
    ``doc[:]._.children`` gave ``'The old man saw'`` as a child and ``constituents`` ``'big dog yester'``. Every
    token of the span read is checked now, whether or not the doc was read before the change."""
    doc = nlp("The old man saw the big dog yesterday .")
    if read_before:
        assert [c.text for c in doc[:]._.children] == ["The old man", "saw the big dog yesterday", "."]
    _merge_and_split(doc)
    assert len(doc) == 9 and (doc[0].text, doc[8].text) == ("The", ".")
    with pytest.raises(ValueError, match=r"tokens changed after glmnlp_parser parsed it \(token 1, 'old man', "):
        getattr(doc[:]._, extension)


def test_spacy_component_refuses_a_parent_over_changed_tokens(nlp) -> None:  # type: ignore[no-untyped-def]
    """A token that is where it was, under a phrase whose other tokens changed: its parent was a span over other
    words ('big dog yester' for 'the big dog')."""
    doc = nlp("The old man saw the big dog yesterday .")
    assert doc[4]._.parent.text == "the big dog"
    with doc.retokenize() as retokenizer:
        retokenizer.merge(doc[5:7])
    with doc.retokenize() as retokenizer:
        retokenizer.split(doc[6], ["yester", "day"], heads=[(doc[6], 1), (doc[6], 0)])
    assert doc[4].text == "the" and doc[4]._.parse_string == "(DT the)"  # the token itself did not change
    with pytest.raises(ValueError, match=r"tokens changed after glmnlp_parser parsed it \(token 5, 'big dog', "):
        doc[4]._.parent  # noqa: B018


def test_spacy_component_reads_across_docs_build_each_index_once(  # type: ignore[no-untyped-def]
    nlp, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The indexes of the last 4 docs read were kept, so reading more than 4 docs in turn rebuilt an index on every
    read (the labels of 1,600 sentences read across 8 docs: 7.4 s, against 0.08 s doc by doc), and the docs they held
    stayed alive. Each doc's index goes with the doc now: built once per doc, and again only for new parses."""
    import gc
    import weakref

    built = []
    index = spacy_component._Index
    monkeypatch.setattr(spacy_component, "_Index", lambda doc: built.append(1) or index(doc))
    docs = list(nlp.pipe([f"The dog saw {n} cats." for n in range(6)]))
    for _ in range(3):
        for doc in docs:
            assert doc[:]._.labels == ("S",) and doc[1]._.parent.text == "The dog"
    assert len(built) == 6
    nlp.get_pipe("glmnlp_parser")(docs[0])  # parsed again: new parses, a new index
    assert docs[0][:]._.labels == ("S",) and len(built) == 7
    gone = weakref.ref(docs.pop())
    del doc  # the loop's, the same doc
    gc.collect()
    assert gone() is None
