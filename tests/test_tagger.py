"""The Collins (2002) tagger: training on the bundled sample, model files, multitagging, the caches of word types,
what it refuses.
"""

from __future__ import annotations

import dataclasses
import math
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from glmnlp.treebank.corpus import sample_tagged
from glmnlp.errors import ConfigError, ModelFileError
from glmnlp.treebank.formats import TaggedSentence
from glmnlp.tagger.model import Tagger, TaggerConfig


@pytest.fixture(scope="module")
def sample_tagger() -> Tagger:
    """A tagger trained for 2 epochs on the sample's train split (dev split for epoch selection)."""
    return Tagger(TaggerConfig(epochs=2)).fit(sample_tagged("train"), sample_tagged("dev"), show_progress=False)


def test_tagger_sample_dev_accuracy_floor(sample_tagger: Tagger) -> None:
    """Two epochs on the sample train split reach at least 94% on the dev split."""
    score = sample_tagger.evaluate(sample_tagged("dev"))
    assert score.tokens > 5000
    assert score.accuracy >= 0.94
    assert score.known_accuracy > score.unknown_accuracy > 0.6
    assert sample_tagger.history_[0].dev_score is not None


def test_tagger_save_load_gives_identical_predictions(sample_tagger: Tagger, tmp_path: Path) -> None:
    """A saved and reloaded model tags the test split exactly as the in-memory model does."""
    sample_tagger.save(tmp_path / "m")
    loaded = Tagger.load(tmp_path / "m")
    words = [s.words for s in sample_tagged("test")]
    assert loaded.tag_sentences(words) == sample_tagger.tag_sentences(words)
    np.testing.assert_array_equal(loaded.max_marginals(words[0]), sample_tagger.max_marginals(words[0]))
    loaded.save(tmp_path / "again")  # the training history was lost on the way (a loaded tagger saved another file)
    for file in ("metadata.json", "weights.npz"):
        assert (tmp_path / "again" / file).read_bytes() == (tmp_path / "m" / file).read_bytes(), file


def test_tagger_training_is_deterministic_byte_for_byte(tmp_path: Path) -> None:
    """Same data and seed give identical model files; another seed gives different weights."""
    train, dev = sample_tagged("train")[:300], sample_tagged("dev")[:50]
    for name, seed in (("a", 3), ("b", 3), ("c", 4)):
        Tagger(TaggerConfig(epochs=2, seed=seed)).fit(train, dev, show_progress=False).save(tmp_path / name)
    for file in ("metadata.json", "weights.npz"):
        assert (tmp_path / "a" / file).read_bytes() == (tmp_path / "b" / file).read_bytes()
    assert (tmp_path / "a" / "weights.npz").read_bytes() != (tmp_path / "c" / "weights.npz").read_bytes()


def test_tagger_multitag_best_first_and_monotone(sample_tagger: Tagger) -> None:
    """Margin 0 gives the Viterbi tags; wider margins give supersets, best tag first."""
    words = sample_tagged("test")[3].words
    best = sample_tagger.tag(words)
    narrow = sample_tagger.multitag(words, 0.0)
    wide = sample_tagger.multitag(words, 30.0)
    assert [tags[0] for tags in narrow] == best == [tags[0] for tags in wide]
    assert all(set(a) <= set(b) for a, b in zip(narrow, wide, strict=True))
    assert sum(map(len, wide)) > len(words)
    scores = sample_tagger.multitag_scores(sample_tagged("dev")[:40], [0.0, 30.0])
    assert scores[0].tags_per_word == 1.0 and scores[1].oracle_accuracy >= scores[0].oracle_accuracy


def test_tagger_oracle_never_counts_a_gold_tag_the_tagger_does_not_have(sample_tagger: Tagger) -> None:
    """At an infinite margin every word had a gold tag the tagger has never seen counted as found (-inf >= best
    - inf): ``tagger evaluate --margin inf`` reported 100% on a sentence with such a tag, 66.67% at 1e300."""
    sentence = TaggedSentence(("Zorblax", "grumbled", "."), ("XYZ", "VBD", "."))
    for margin in (math.inf, 1e300):
        (score,) = sample_tagger.multitag_scores([sentence], [margin])
        assert score.oracle_accuracy == pytest.approx(2 / 3), margin


def test_tagger_multitags_at_an_infinite_margin_are_the_tags_a_word_can_have(sample_tagger: Tagger) -> None:
    """``--margin inf`` kept every tag of the tagset (-inf >= best - inf), those the tag dictionary rules out for a
    word too: 44 tags a word and an oracle of 100.00% where 1e300 gave 7.2 and 99.96%. A tag without a full
    sequence is never a multitag now, at any margin."""
    words = ["the", "dog", "zorblaxes", "."]
    mm = sample_tagger.max_marginals(words)
    at_inf = sample_tagger.multitag(words, math.inf)
    assert [sorted(tags) for tags in at_inf] == [sorted(sample_tagger.tags_[t] for t in np.flatnonzero(row > -np.inf))
                                                  for row in mm]
    assert at_inf == sample_tagger.multitag(words, 1e300) and len(at_inf[0]) < len(sample_tagger.tags_)
    dev = sample_tagged("dev")[:40]
    assert sample_tagger.multitag_scores(dev, [math.inf]) == [
        dataclasses.replace(score, margin=math.inf) for score in sample_tagger.multitag_scores(dev, [1e300])]


def test_tagger_tag_and_multitag_is_the_two_calls(sample_tagger: Tagger) -> None:
    """The one-encoding method the pipeline uses gives exactly tag() and multitag() (empty input too)."""
    sentences = [s.words for s in sample_tagged("test")[:60]] + [[], ["zorblaxes"]]
    for words in sentences:
        for margin in (0.0, 4.0):
            assert sample_tagger.tag_and_multitag(words, margin) == (
                sample_tagger.tag(words), sample_tagger.multitag(words, margin))
    with pytest.raises(ConfigError):
        sample_tagger.tag_and_multitag(["a"], -1.0)


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_tagger_multitag_rows_are_the_per_row_definition(sample_tagger: Tagger, data: st.DataObject) -> None:
    """The vectorised selection of multi-tags equals, row by row, the tags whose max-marginal is within
    the margin of the row's best in stable descending order (ties and excluded tags included)."""
    T = len(sample_tagger.tags_)
    n = data.draw(st.integers(1, 4))
    values = data.draw(st.lists(st.sampled_from([-np.inf, -3.0, -1.5, -1.0, 0.0, 2.0]), min_size=n * T, max_size=n * T))
    mm = np.array(values).reshape(n, T)
    mm[:, data.draw(st.integers(0, T - 1))] = 2.0  # every row has a tag the tagger allows
    margin = data.draw(st.sampled_from([0.0, 0.5, 1.0, 3.0, 10.0, math.inf]))
    expected = [[sample_tagger.tags_[t] for t in np.argsort(-row, kind="stable").tolist()
                 if row[t] >= row.max() - margin and row[t] > -np.inf] for row in mm]
    assert sample_tagger._within(mm, margin) == expected


def test_tagger_tag_dictionary_restricts_frequent_words(sample_tagger: Tagger) -> None:
    """A frequent word keeps only its seen tags; an unknown word may take every open-class tag only."""
    mm = sample_tagger.max_marginals(["the", "zorblaxes"])
    tags = sample_tagger.tags_
    allowed_the = {tags[t] for t in np.flatnonzero(np.isfinite(mm[0]))}
    allowed_unknown = {tags[t] for t in np.flatnonzero(np.isfinite(mm[1]))}
    assert "DT" in allowed_the and "NN" not in allowed_the
    assert allowed_unknown == set(sample_tagger.open_tags_)
    assert "NNS" in allowed_unknown and "DT" not in allowed_unknown


def test_tagger_load_rejects_other_kind(tmp_path: Path) -> None:
    """Loading something that is not a tagger model fails with ModelFileError."""
    from glmnlp.glm.model_io import save_model

    save_model(tmp_path / "p", kind="parser", metadata={}, arrays={})
    with pytest.raises(ModelFileError):
        Tagger.load(tmp_path / "p")


def test_tagger_vocabulary_atoms_cached_on_load_and_kept_by_clear_cache(sample_tagger: Tagger, tmp_path: Path) -> None:
    """Loading caches the training vocabulary's atoms; clear_cache drops only other words; tags unchanged."""
    sample_tagger.save(tmp_path / "m")
    loaded = Tagger.load(tmp_path / "m")
    vocabulary = {w for s in sample_tagged("train") for w in s.words}
    assert set(loaded._type_ids) == vocabulary
    words = [s.words for s in sample_tagged("test")]
    before = loaded.tag_sentences(words)
    assert set(loaded._type_ids) > vocabulary  # unseen test words were added
    loaded.clear_cache()
    assert set(loaded._type_ids) == vocabulary
    assert loaded.tag_sentences(words) == before == sample_tagger.tag_sentences(words)
    sample_tagger.clear_cache()
    assert set(sample_tagger._type_ids) == vocabulary


@pytest.mark.parametrize("damage", ["open tags empty text", "open tags empty list", "open tag unknown",
                                    "tags text", "tags repeated"])
def test_tagger_damaged_tag_lists_are_refused(sample_tagger: Tagger, damage: str) -> None:
    """``open_tags`` given as "" loaded (a string is iterable) and left unknown words without a candidate
    tag, so the first sentence with one raised ValueError; damaged tag lists are refused at load."""
    from glmnlp.tagger.files import tagger_from_parts, tagger_to_parts

    metadata, arrays = tagger_to_parts(sample_tagger)
    tags = list(metadata["tags"])
    changes = {
        "open tags empty text": ("open_tags", "", "open_tags must be a non-empty list"),
        "open tags empty list": ("open_tags", [], "open_tags must be a non-empty list"),
        "open tag unknown": ("open_tags", [*metadata["open_tags"], "XYZ"], "open_tags names tags outside"),
        "tags text": ("tags", "NN", "tags must be a non-empty list"),
        "tags repeated": ("tags", [*tags[:-1], tags[0]], "repeats a tag"),
    }
    key, value, reason = changes[damage]
    with pytest.raises(ModelFileError, match=reason):
        tagger_from_parts(Tagger, {**metadata, key: value}, arrays)
    rebuilt = tagger_from_parts(Tagger, metadata, arrays)
    sentence = [["The", "zorblax", "ran"]]
    assert rebuilt.tag_sentences(sentence) == sample_tagger.tag_sentences(sentence)


def test_a_tagger_files_column_must_be_a_conllu_column(sample_tagger: Tagger) -> None:
    from glmnlp.tagger.files import tagger_from_parts, tagger_to_parts

    metadata, arrays = tagger_to_parts(sample_tagger)
    assert "tag_column" not in metadata
    with pytest.raises(ModelFileError, match="tag_column must be 'xpos' or 'upos'"):
        tagger_from_parts(Tagger, {**metadata, "tag_column": "feats"}, arrays)
    assert tagger_from_parts(Tagger, {**metadata, "tag_column": "upos"}, arrays).tag_column_ == "upos"
    bad = tagger_from_parts(Tagger, metadata, arrays)
    bad.tag_column_ = "UPOS"  # saved, and then refused at load
    with pytest.raises(ConfigError, match="tag_column_ must be"):
        tagger_to_parts(bad)


def test_tagger_knows_the_training_words_as_spelled_and_after_a_round_trip(tmp_path: Path) -> None:
    """``knows`` (what glmnlp.text.inputs.model_words asks): the training words, spelled as in the data."""
    from glmnlp.tagger.model import Tagger, TaggerConfig
    from glmnlp.treebank.formats import TaggedSentence

    train = [TaggedSentence(("He", "-LRB-", "ran", "-RRB-"), ("PRP", "-LRB-", "VBD", "-RRB-"))] * 3
    tagger = Tagger(TaggerConfig(epochs=1)).fit(train)
    assert tagger.knows("-LRB-") and tagger.knows("He") and not tagger.knows("(") and not tagger.knows("he")
    tagger.save(tmp_path / "t")
    loaded = Tagger.load(tmp_path / "t")
    assert loaded.knows("-LRB-") and not loaded.knows("(")


def test_tagger_fit_takes_iterators_for_train_and_dev() -> None:
    """A generator given as ``dev`` was used up before the passes (no epoch had a dev score, so none was chosen
    on dev); one given as ``train`` too, by the check of its records ('no training sentences')."""
    from glmnlp.tagger.model import Tagger, TaggerConfig
    from glmnlp.treebank.corpus import sample_tagged

    train, dev = sample_tagged("train")[:60], sample_tagged("dev")[:20]
    by_lists = Tagger(TaggerConfig(epochs=2)).fit(train, dev, show_progress=False, jobs=1)
    by_iterators = Tagger(TaggerConfig(epochs=2)).fit(iter(train), iter(dev), show_progress=False, jobs=1)
    assert all(record.dev_score is not None for record in by_iterators.history_)
    assert [r.dev_score for r in by_iterators.history_] == [r.dev_score for r in by_lists.history_]


@pytest.mark.parametrize(("field", "value"), [("epochs", 1.5), ("epochs", "2"), ("seed", 0.5), ("shards", True)])
def test_tagger_config_integers_are_integers(field: str, value: object) -> None:
    """``TaggerConfig(epochs=1.5)`` was taken; ``epochs="2"`` was a TypeError from a comparison."""
    from glmnlp.errors import ConfigError
    from glmnlp.tagger.model import TaggerConfig

    with pytest.raises(ConfigError, match=f"^{field} must be an integer"):
        TaggerConfig(**{field: value})  # type: ignore[arg-type]


def test_tagger_refuses_words_that_are_not_strings_and_trees_to_evaluate(sample_tagger: Tagger) -> None:
    """``tag([None])`` was ``AttributeError: 'NoneType' object has no attribute 'lower'``, ``tag([b"x"])`` a TypeError
    about a dict, ``tag(["", "a"])`` tagged the empty word, and ``evaluate(trees)`` failed inside a comprehension
    (``object of type 'Tree' has no len()``): each now says what is wrong, and where."""
    from glmnlp.errors import InputError
    from glmnlp.treebank.trees import parse_tree

    for words, error, message in (([None], TypeError, "sentence 1, word 1 is a NoneType, not a str"),
                                  (["a", b"x"], TypeError, "sentence 1, word 2 is a bytes, not a str"),
                                  (["a", ""], InputError, "sentence 1, word 2 is empty"),
                                  # a lone surrogate (not text) was tagged as an unknown word, where the parser and
                                  # the pipeline refuse it; bytes were "word 1 is a int"
                                  (["ab\ud800c"], InputError, "sentence 1, word 1: character 3 is the lone surrogate U\\+D800"),
                                  (b"dog", TypeError, "a sentence is a list of words, not bytes")):
        with pytest.raises(error, match=message):
            sample_tagger.tag(words)
    with pytest.raises(TypeError, match="sentence 2, word 1 is a int"):
        sample_tagger.tag_sentences([["a"], [5]])
    with pytest.raises(TypeError, match="expected a sequence of TaggedSentence records"):
        sample_tagger.evaluate([parse_tree("(TOP (NN dog))")])
    # a sentence that is no list: "object of type 'NoneType' has no len()" for None and for a generator
    for sentence, name in ((None, "NoneType"), ((w for w in ["a"]), "generator"), ({"a"}, "set")):
        with pytest.raises(TypeError, match=f"a sentence is a list of words, not {name}$"):
            sample_tagger.tag(sentence)  # type: ignore[arg-type]
    assert sample_tagger.tag(("The", "dog")) == sample_tagger.tag(["The", "dog"]) == sample_tagger.tag(
        np.array(["The", "dog"]))  # an array of words too (a DataFrame column's values)


def test_tagger_fit_refuses_a_dev_set_without_words(tmp_path: Path) -> None:
    """A dev set of empty sentences trained as without dev (the last epoch kept, no word), where the command line
    refuses a dev file without a tagged sentence; and ``save(replace=False)`` over a model named the command line's
    ``--force``, not the argument."""
    train = sample_tagged("train")[:30]
    with pytest.raises(ConfigError, match="no dev sentence with words to choose the epoch on"):
        Tagger(TaggerConfig(epochs=1)).fit(train, [TaggedSentence((), ())], show_progress=False, jobs=1)
    tagger = Tagger(TaggerConfig(epochs=1)).fit(train, show_progress=False, jobs=1)
    tagger.save(tmp_path / "m")
    with pytest.raises(ConfigError, match=r"use replace=True to replace it"):
        tagger.save(tmp_path / "m", replace=False)


def test_evaluating_no_words_is_an_error_not_zero_accuracy() -> None:
    """``Tagger.evaluate([])`` (or sentences without words) reported 0% accuracy and the multitag oracle 0%, where
    ``glmnlp tagger evaluate`` calls a test file without a tagged sentence an error, as documented."""
    from glmnlp.errors import InputError
    from glmnlp.tagger.evaluation import multitag_scores

    tagger = Tagger(TaggerConfig(epochs=1)).fit([TaggedSentence(("a", "dog"), ("DT", "NN"))], show_progress=False)
    for sentences in ([], [TaggedSentence((), ())]):
        with pytest.raises(InputError, match="no tagged sentence to evaluate"):
            tagger.evaluate(sentences)
        with pytest.raises(InputError, match="no tagged sentence to evaluate"):
            multitag_scores(tagger, sentences, [0.0, 2.0])
    assert tagger.evaluate([TaggedSentence(("a", "dog"), ("DT", "NN"))]).tokens == 2


def test_the_cache_of_new_word_types_is_bounded_and_changes_no_tag(monkeypatch: pytest.MonkeyPatch) -> None:
    """Tagging text of unique tokens kept the atoms of up to a million new word types (657 MB for 1.3 M of them,
    where the docs say memory grows with the longest sentence): it keeps MAX_NEW_TYPES beyond the vocabulary, gives
    the rows back when it empties, and the tags are those of an unbounded cache."""
    from glmnlp.tagger import model as tagger_model

    train = sample_tagged("train")[:200]
    tagger = Tagger(TaggerConfig(epochs=1)).fit(train, show_progress=False)
    sentences = [[f"Tok{i}{j}" for j in range(10)] + ["the", "."] for i in range(60)]
    unbounded = [tagger.tag(s) for s in sentences]
    tagger.clear_cache()
    monkeypatch.setattr(tagger_model, "MAX_NEW_TYPES", 50)
    vocab = tagger._n_vocab_types
    bounded = []
    for s in sentences:
        bounded.append(tagger.tag(s))
        assert len(tagger._type_ids) <= vocab + 50 + len(s)
        assert tagger._type_atoms.shape[0] <= 2 * (vocab + 50 + len(s))
    assert bounded == unbounded


def test_an_untrained_tagger_says_so_wherever_it_is_asked() -> None:
    """``knows``, ``tag_id`` and ``clear_cache`` of a tagger never trained nor loaded were AttributeErrors (its
    vocabulary and tag table are made by training), and so was a pipeline given one, which asks ``knows`` before it
    tags: the ConfigError ``tag`` gives (``clear_cache`` has nothing to forget)."""
    import glmnlp
    from glmnlp.errors import ConfigError

    tagger = Tagger()
    tagger.clear_cache()
    for call in (lambda: tagger.knows("a"), lambda: tagger.tag_id("DT"),
                 lambda: glmnlp.Pipeline(tagger)("The dog barked.")):
        with pytest.raises(ConfigError, match="the tagger is not trained or loaded"):
            call()


def test_a_tagger_whose_vocabulary_exceeds_the_cache_bound_loads_and_fits(tmp_path: Path,
                                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """Encoding more new words than the atom cache's bound (MAX_NEW_TYPES, 100,000) trims the cache, which loading
    (the training vocabulary is encoded before the model counts as loaded) and fitting (dev is encoded before it
    counts as trained) do too: a check that the tagger was trained, put on that trimming, refused every tagger of
    more than 100,000 words ("inconsistent tagger model") and every dev set of more than 100,000 tokens. Here the
    bound is 3."""
    import glmnlp.tagger.model as tagger_model
    from glmnlp.treebank.formats import TaggedSentence

    monkeypatch.setattr(tagger_model, "MAX_NEW_TYPES", 3)
    train = [TaggedSentence(("the", "dog", "barks", "loudly"), ("DT", "NN", "VBZ", "RB"))] * 3
    dev = [TaggedSentence(("a", "cat", "sleeps", "quietly", "now"), ("DT", "NN", "VBZ", "RB", "RB"))]
    tagger = Tagger(TaggerConfig(epochs=1)).fit(train, dev, show_progress=False, jobs=1)
    tagger.save(tmp_path / "t")
    assert Tagger.load(tmp_path / "t").tag(["the", "dog", "barks"]) == tagger.tag(["the", "dog", "barks"])
