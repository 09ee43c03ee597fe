"""The Collins (2002) tagger: features, training on the bundled sample, model files, multitagging, CLI."""

from __future__ import annotations

import dataclasses
import json
import math
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from glmnlp.cli import main
from glmnlp.treebank.corpus import sample_tagged
from glmnlp.errors import ConfigError, ModelFileError
from glmnlp.glm.features import FeatureIndex, Template
from glmnlp.treebank.formats import TaggedSentence, write_word_tag
from glmnlp.tagger.features import ATOM_NAMES, FEATURE_SETS, history_atoms, history_features, word_shape
from glmnlp.tagger.model import Tagger, TaggerConfig


@pytest.fixture(scope="module")
def sample_tagger() -> Tagger:
    """A tagger trained for 2 epochs on the sample's train split (dev split for epoch selection)."""
    return Tagger(TaggerConfig(epochs=2)).fit(sample_tagged("train"), sample_tagged("dev"), show_progress=False)


def test_tagger_history_features_of_hand_built_sentence() -> None:
    """Every tag-independent feature of the default set on a hand-built sentence, listed exactly."""
    feats = history_features(["The", "X-ray", "5"], vocabulary={"x-ray"})
    assert feats[1] == [
        "bias=<bias>",
        "w[i]=X-ray",
        "lower[i]=x-ray",
        "shape[i]=X-x",
        "prefix1=X",
        "prefix2=X-",
        "prefix3=X-r",
        "prefix4=X-ra",
        "suffix1=y",
        "suffix2=ay",
        "suffix3=ray",
        "suffix4=-ray",
        "has-upper=<upper>",
        "has-hyphen=<hyphen>",
        "w[i-1]=The",
        "w[i-2]=<s>",
        "w[i+1]=5",
        "w[i+2]=</s>",
        "lower[i-1]=the",
        "lower[i+1]=5",
        "prefix5=X-ray",
        "suffix5=X-ray",
        "suffix3[i-1]=The",
        "shape[i-1]=Xx",
        "shape[i+1]=d",
        "hyphen-last=ray",
        "cap-init=<mid-cap>",
        "lower[i-2]=<s>",
        "lower[i+2]=</s>",
        "lc-known=<lc-known>",
        "lc-known&cap-init=<lc-known>|<mid-cap>",
    ]
    assert feats[2] == [
        "bias=<bias>",
        "w[i]=5",
        "lower[i]=5",
        "shape[i]=d",
        "prefix1=5",
        "suffix1=5",
        "has-digit=<digit>",
        "w[i-1]=X-ray",
        "w[i-2]=The",
        "w[i+1]=</s>",
        "w[i+2]=</s>",
        "lower[i-1]=x-ray",
        "lower[i+1]=</s>",
        "suffix3[i-1]=ray",
        "suffix3[i+1]=</s>",
        "shape[i-1]=X-x",
        "shape[i+1]=</s>",
        "lower[i-2]=the",
        "lower[i+2]=</s>",
    ]
    # the paper's set (Collins 2002, after Ratnaparkhi 1996): words, affixes up to 4, three flags
    assert history_features(["The", "X-ray", "5"], "collins2002")[0] == [
        "bias=<bias>",
        "w[i]=The",
        "prefix1=T",
        "prefix2=Th",
        "prefix3=The",
        "suffix1=e",
        "suffix2=he",
        "suffix3=The",
        "has-upper=<upper>",
        "w[i-1]=<s>",
        "w[i-2]=<s>",
        "w[i+1]=X-ray",
        "w[i+2]=5",
    ]
    assert word_shape("McDonald's") == "XxXx'x" and word_shape("1,234") == "d,d"


def test_tagger_new_atoms_of_hand_built_sentence() -> None:
    """Position, spelling and vocabulary atoms (cap-init, all-caps, period, hyphen part, lc-known) exactly."""
    atoms = history_atoms(["Apple", "U.S.", "co-Founder", "apple"], vocabulary={"apple"})
    names = dict(enumerate(ATOM_NAMES))

    def at(i: int) -> dict[str, str]:
        return {names[k]: v for k, v in enumerate(atoms[i]) if v is not None}

    first, second, third, fourth = at(0), at(1), at(2), at(3)
    assert first["cap-init"] == "<init-cap>" and first["lc-known"] == "<lc-known>"
    assert second["cap-init"] == "<mid-cap>" and second["lc-known"] == "<lc-unknown>"
    assert second["all-caps"] == "<all-caps>" and second["has-period"] == "<period>" and "all-caps" not in first
    assert third["hyphen-last"] == "founder" and third["suffix5"] == "under" and "hyphen-last" not in first
    assert "cap-init" not in fourth and "lc-known" not in fourth
    assert first["suffix3[i+1]"] == ".S." and first["shape[i-1]"] == "<s>" and fourth["shape[i+1]"] == "</s>"
    assert third["lower[i-2]"] == "apple" and third["lower[i+2]"] == "</s>" and second["shape[i-1]"] == "Xx"


def test_tagger_conjunction_and_previous_tag_features_of_hand_built_sentence() -> None:
    """A set with word-bigram and previous-tag templates lists exactly those features."""
    FEATURE_SETS["test-conj"] = ("w[i]", "lower[i-1]&lower[i]", "suffix2&shape[i+1]", "t[i-1]&w[i]")
    try:
        feats = history_features(["The", "Dogs", "bark"], "test-conj")
        assert feats[1] == ["t[i-1]&w[i]=Dogs", "w[i]=Dogs", "lower[i-1]&lower[i]=the|dogs", "suffix2&shape[i+1]=gs|x"]
        assert feats[0] == ["t[i-1]&w[i]=The", "w[i]=The", "lower[i-1]&lower[i]=<s>|the", "suffix2&shape[i+1]=he|Xx"]
        train = [
            TaggedSentence(("The", "Dogs", "bark"), ("DT", "NNS", "VBP")),
            TaggedSentence(("The", "end"), ("DT", "NN")),
        ]
        config = TaggerConfig(epochs=1, feature_set="test-conj", pair_min_count=2)
        tagger = Tagger(config).fit(train, show_progress=False)
        explained = tagger.explain(["The", "Dogs", "bark"])
        # the previous-tag feature exists only for "The" (seen twice, pair_min_count=2)
        assert explained[0][0] == "t[i-1]&w[i]=The"
        assert not any(f.startswith("t[i-1]") for f in explained[1] + explained[2])
        assert explained[1] == feats[1][1:] and explained[2] == feats[2][1:]
    finally:
        del FEATURE_SETS["test-conj"]


def test_tagger_rare_words_get_no_identity_features() -> None:
    """With rare_word_count=1, hapax training words fire no w[i]/lower[i] feature; frequent words do."""
    train = [
        TaggedSentence(("The", "dog", "barks"), ("DT", "NN", "VBZ")),
        TaggedSentence(("The", "cat", "sleeps"), ("DT", "NN", "VBZ")),
    ]
    tagger = Tagger(TaggerConfig(epochs=1, rare_word_count=1)).fit(train, show_progress=False)
    explained = tagger.explain(["The", "dog"])
    assert "w[i]=The" in explained[0] and "lower[i]=the" in explained[0]
    assert not any(f.startswith(("w[i]=", "lower[i]=")) for f in explained[1])
    assert "suffix2=og" in explained[1] and "w[i-1]=The" in explained[1]


def test_tagger_encoder_matches_reference_features() -> None:
    """The vectorised encoder fires exactly the reference features (for words seen in training)."""
    train = [
        TaggedSentence(("The", "X-ray", "5"), ("DT", "NN", "CD")),
        TaggedSentence(("Dogs", "bark", "."), ("NNS", "VBP", ".")),
    ]
    tagger = Tagger(TaggerConfig(epochs=1)).fit(train, show_progress=False)
    for sentence in train:
        assert tagger.explain(sentence.words) == history_features(sentence.words)
    # an unseen word: its own w[i] feature is unknown, but its seen suffix and context features fire
    explained = tagger.explain(["Dogs", "ray"])[1]
    assert "w[i]=ray" not in explained and "suffix3=ray" in explained and "w[i-1]=Dogs" in explained


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


def test_tagger_cli_train_evaluate_tag(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The CLI trains, evaluates and tags in-process; bad input exits 1 with file:line: reason."""
    (tmp_path / "train.word_tag").write_text(write_word_tag(sample_tagged("train")[:200]))
    (tmp_path / "dev.word_tag").write_text(write_word_tag(sample_tagged("dev")[:30]))
    model = str(tmp_path / "model")
    train = str(tmp_path / "train.word_tag")
    dev = str(tmp_path / "dev.word_tag")
    assert main(["tagger", "train", "--train", train, "--dev", dev, "--out", model, "--epochs", "1", "--quiet"]) == 0
    capsys.readouterr()
    assert main(["tagger", "evaluate", "--model", model, "--test", dev, "--margin", "5"]) == 0
    out = capsys.readouterr().out
    assert "accuracy" in out and "unknown words" in out and "margin 5" in out
    (tmp_path / "in.txt").write_text("The company said it would buy shares .\n\nIt rose .\n")
    assert main(["tag", "--model", model, str(tmp_path / "in.txt")]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 2 and lines[0].startswith("The/DT company/NN")
    assert main(["tag", "--model", model, "--output-format", "conllu", str(tmp_path / "in.txt")]) == 0
    assert "1\tThe\t_\t_\tDT" in capsys.readouterr().out
    (tmp_path / "bad.word_tag").write_text("The/DT cat/NN\nsat\n")
    assert main(["tagger", "evaluate", "--model", model, "--test", str(tmp_path / "bad.word_tag"), "--format", "word_tag"]) == 1
    assert f"{tmp_path / 'bad.word_tag'}:2:" in capsys.readouterr().err
    assert main(["tag", "--model", str(tmp_path / "nothing"), str(tmp_path / "in.txt")]) == 1
    assert main(["tagger", "train", "--help"]) == 0
    assert "Examples" in capsys.readouterr().out


class _OracleIndex:
    """A plain-dictionary reference for FeatureIndex: rows by template, then first occurrence."""

    def __init__(self, arities: list[int]) -> None:
        self.arities = arities
        self.tables: list[dict[tuple[int, ...], int]] = [{} for _ in arities]
        self.size = 0

    def rows(self, atoms: list[list[int]], add: bool, min_count: int) -> list[list[int]]:
        out = [[-1] * len(self.arities) for _ in atoms]
        start = 0
        for k, arity in enumerate(self.arities):
            cols = list(range(start, start + arity))
            start += arity
            keys = [tuple(r[c] for c in cols) for r in atoms]
            counts: dict[tuple[int, ...], int] = {}
            for key in keys:
                counts[key] = counts.get(key, 0) + 1
            for i, key in enumerate(keys):
                if 0 in key:
                    continue
                if key not in self.tables[k] and add and (arity == 1 or counts[key] >= min_count):
                    self.tables[k][key] = self.size
                    self.size += 1
                out[i][k] = self.tables[k].get(key, -1)
        return out


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.lists(st.integers(0, 4), min_size=6, max_size=6), min_size=1, max_size=30),
    st.lists(st.lists(st.integers(0, 4), min_size=6, max_size=6), min_size=1, max_size=30),
    st.integers(1, 3),
    st.booleans(),
)
def test_features_packed_conjunctions_match_dictionary_oracle(
    first: list[list[int]], second: list[list[int]], min_count: int, huge: bool
) -> None:
    """Vectorised multi-atom lookups (packed keys, or the dictionary fallback for huge ids) equal a plain dict."""
    scale = (1 << 22) if huge else 1  # 2^22 > 21 bits: the triple template must fall back
    first = [r[:3] + [v * scale for v in r[3:]] for r in first]
    second = [r[:3] + [v * scale for v in r[3:]] for r in second]
    index = FeatureIndex([Template("a", (0,)), Template("ab", (1, 2)), Template("abc", (3, 4, 5))], n_atoms=6)
    oracle = _OracleIndex([1, 2, 3])
    for batch in (first, second):
        got = index.rows(np.array(batch, dtype=np.int64), add=True, min_count=min_count)
        assert got.tolist() == oracle.rows(batch, add=True, min_count=min_count)
    assert len(index) == oracle.size
    index.freeze()
    probe = first + second + [[9, 9, 1, scale, scale, 9 * scale]]
    expected = oracle.rows(probe, add=False, min_count=1)
    assert index.rows(np.array(probe, dtype=np.int64)).tolist() == expected
    again = FeatureIndex.from_array(index.templates, 6, index.to_array())
    assert again.rows(np.array(probe, dtype=np.int64)).tolist() == expected


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet="aZq9-.,'\n éÉ٣ß", max_size=10))
def test_tagger_word_shape_fast_path_matches_character_rule(word: str) -> None:
    """The ASCII fast path of word_shape equals the per-character rule (X/x/d, other chars kept, runs collapsed)."""
    out: list[str] = []
    for ch in word:
        c = "X" if ch.isupper() else "x" if ch.islower() else "d" if ch.isdigit() else ch
        if not out or out[-1] != c:
            out.append(c)
    assert word_shape(word) == "".join(out)


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


def _upos_conllu(n: int, xpos: bool) -> str:
    """The first ``n`` training sentences of the sample as CoNLL-U with a coarse UPOS column (and XPOS, or ``_``)."""
    upos = {"DT": "DET", "NN": "NOUN", "NNS": "NOUN", "VBD": "VERB", "IN": "ADP", "JJ": "ADJ", ".": "PUNCT"}
    lines = []
    for sent in sample_tagged("train")[:n]:
        assert sent.tags is not None
        for i, (word, tag) in enumerate(zip(sent.words, sent.tags), 1):
            lines.append(f"{i}\t{word}\t_\t{upos.get(tag, 'X')}\t{tag if xpos else '_'}\t_\t_\t_\t_\t_")
        lines.append("")
    return "\n".join(lines) + "\n"


def test_tagger_cli_reads_the_upos_column_and_tags_untagged_conllu(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A CoNLL-U file tagged in UPOS only trains with --tag-column upos (it could not be read: 'no XPOS tag'; the
    error now names the option), and ``glmnlp tag`` reads the words of a CoNLL-U file with no tags (it refused
    it, although it ignores the tags)."""
    train = tmp_path / "upos.conllu"
    train.write_text(_upos_conllu(150, xpos=False))
    model = str(tmp_path / "model")
    args = ["tagger", "train", "--train", str(train), "--out", model, "--epochs", "1", "--quiet", "-j", "1"]
    capsys.readouterr()
    assert main(args) == 1
    assert capsys.readouterr().err == f"error: {train}:1: word 'Pierre' has no XPOS tag ('_') (a file tagged in UPOS " \
        "only: --tag-column upos reads it)\n"
    assert main([*args, "--tag-column", "upos"]) == 0
    assert main(["tagger", "evaluate", "--model", model, "--test", str(train), "--tag-column", "upos"]) == 0
    assert "accuracy" in capsys.readouterr().out
    plain = tmp_path / "words.conllu"
    plain.write_text("1\tThe\t_\t_\t_\t_\t_\t_\t_\t_\n2\tcompany\t_\t_\t_\t_\t_\t_\t_\t_\n\n")
    assert main(["tag", "--model", model, "--input-format", "conllu", str(plain)]) == 0
    assert capsys.readouterr().out == "The/DET company/NOUN\n"
    word_tag = tmp_path / "t.word_tag"
    word_tag.write_text("The/DT dog/NN\n")
    assert main(["tagger", "evaluate", "--model", model, "--test", str(word_tag), "--tag-column", "upos"]) == 1
    assert "the UPOS column was asked for, but this is a word_tag file" in capsys.readouterr().err
    # with the format given, --tag-column contradicts it: a usage error, in both commands, for either column
    for column in ("upos", "xpos"):
        assert main(["tagger", "evaluate", "--model", model, "--test", str(word_tag), "--format", "word_tag",
                     "--tag-column", column]) == 2
        assert "--tag-column chooses a CoNLL-U column; not with --format word_tag" in capsys.readouterr().err
        assert main(["tagger", "train", "--train", str(word_tag), "--out", str(tmp_path / "m2"), "--format", "tab",
                     "--tag-column", column]) == 2
        assert "not with --format tab" in capsys.readouterr().err
    assert not (tmp_path / "m2").exists()


def test_a_tagger_trained_on_a_conllu_column_reads_and_writes_that_column(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A tagger trained with --tag-column upos was scored on the XPOS column unless told again (an error, the other
    tagset) and wrote its UPOS tags into CoNLL-U's XPOS column: it records the column, and both use it."""
    both = tmp_path / "both.conllu"
    both.write_text(_upos_conllu(120, xpos=True))
    model = tmp_path / "upos_model"
    base = ["tagger", "train", "--train", str(both), "--epochs", "1", "--quiet", "-j", "1"]
    assert main([*base, "--out", str(model), "--tag-column", "upos"]) == 0
    assert json.loads((model / "metadata.json").read_text())["metadata"]["tag_column"] == "upos"
    capsys.readouterr()
    assert main(["tagger", "evaluate", "--model", str(model), "--test", str(both)]) == 0
    assert "accuracy" in capsys.readouterr().out
    assert main(["tagger", "evaluate", "--model", str(model), "--test", str(both), "--tag-column", "xpos"]) == 1
    assert "another column than --tag-column xpos" in capsys.readouterr().err
    words = tmp_path / "words.txt"
    words.write_text("The company said .\n")
    assert main(["tag", "--model", str(model), "--output-format", "conllu", str(words)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[:2] == ["# sent_id = 1", "# text = The company said ."]  # what UD's validator requires
    rows = [line.split("\t") for line in lines if line and not line.startswith("#")]
    assert [r[3] for r in rows] == ["DET", "NOUN", "VERB", "PUNCT"] and {r[4] for r in rows} == {"_"}
    # the XPOS column and other formats: as before (XPOS written; no column recorded for a word/TAG file)
    xpos_model, plain_model = tmp_path / "xpos_model", tmp_path / "plain_model"
    assert main([*base, "--out", str(xpos_model)]) == 0
    assert json.loads((xpos_model / "metadata.json").read_text())["metadata"]["tag_column"] == "xpos"
    word_tag = tmp_path / "train.word_tag"
    word_tag.write_text("The/DT dog/NN barked/VBD ./.\n" * 3)
    assert main(["tagger", "train", "--train", str(word_tag), "--out", str(plain_model), "--epochs", "1", "--quiet",
                 "-j", "1"]) == 0
    assert "tag_column" not in json.loads((plain_model / "metadata.json").read_text())["metadata"]
    capsys.readouterr()
    # a word/TAG test file of the other tagset: the hint names no column (there is none, and none was given)
    assert main(["tagger", "evaluate", "--model", str(model), "--test", str(word_tag)]) == 1
    assert capsys.readouterr().err.endswith("(the tagger's tags are another tagset)\n")
    assert main(["tagger", "evaluate", "--model", str(xpos_model), "--test", str(both)]) == 0
    capsys.readouterr()
    assert main(["tag", "--model", str(xpos_model), "--output-format", "conllu", str(words)]) == 0
    rows = [line.split("\t") for line in capsys.readouterr().out.splitlines() if line and line[0] != "#"]
    assert rows[0][3:5] == ["_", "DT"]


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


def test_tagger_cli_scores_a_bracket_tag_spelled_the_other_way_as_the_same_tag(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """STTS ``$(`` is ``$-LRB-`` in bracketed trees and ``$(`` in word/TAG files: a tagger trained on trees scored on
    word/TAG lines counted every bracket as an error (``confusions: $( -> $-LRB-``), and a dev file spelled the
    other way chose the epoch on those errors. They are one tag now, as the words' brackets are."""
    sentences = [("Er sagte ( nichts ) .", "PPER VVFIN $( NN $( $."),
                 ("Sie kam ( spät ) .", "PPER VVFIN $( ADJD $( $.")]
    trees = "".join(
        "(TOP (S " + " ".join(f"({t.replace('(', '-LRB-')} {w.replace('(', '-LRB-').replace(')', '-RRB-')})"
                              for w, t in zip(words.split(), tags.split())) + "))\n"
        for words, tags in sentences) * 10
    (tmp_path / "train.trees").write_text(trees, encoding="utf-8")
    lines = "".join(" ".join(f"{w}/{t}" for w, t in zip(words.split(), tags.split())) + "\n"
                    for words, tags in sentences)
    (tmp_path / "test.word_tag").write_text(lines, encoding="utf-8")
    model = str(tmp_path / "model")
    assert main(["tagger", "train", "--train", str(tmp_path / "train.trees"), "--dev", str(tmp_path / "test.word_tag"),
                 "--out", model, "--epochs", "2", "--quiet", "-j", "1"]) == 0
    history = json.loads((tmp_path / "model" / "metadata.json").read_text())["metadata"]["history"]
    assert history[-1]["dev_accuracy"] == 1
    capsys.readouterr()
    assert main(["tagger", "evaluate", "--model", model, "--test", str(tmp_path / "test.word_tag")]) == 0
    out = capsys.readouterr().out
    assert "100.00%" in out and "$( -> $-LRB-" not in out, out


def test_tagger_cli_warns_when_dev_is_the_training_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``--dev`` naming the ``--train`` file (or a link to it) chose the pass on the training sentences without a
    word, where ``parser train`` warns; a dev file of other sentences warns of nothing."""
    train = tmp_path / "train.word_tag"
    train.write_text(write_word_tag(sample_tagged("train")[:40]))
    (tmp_path / "link.word_tag").symlink_to(train)
    (tmp_path / "dev.word_tag").write_text(write_word_tag(sample_tagged("dev")[:10]))
    for dev, warned in (("train.word_tag", True), ("link.word_tag", True), ("dev.word_tag", False)):
        capsys.readouterr()
        assert main(["tagger", "train", "--train", str(train), "--dev", str(tmp_path / dev), "--out",
                     str(tmp_path / f"m-{dev}"), "--epochs", "1", "-j", "1", "--quiet"]) == 0
        said = f"warning: {tmp_path / dev} is the --train file: the pass is chosen on the training sentences"
        assert (said in capsys.readouterr().err) is warned


def test_tagger_evaluate_scores_quotes_as_written_as_tagger_evaluate_does(
    tmp_path: Path, capsys: pytest.CaptureFixture[str],
) -> None:
    """A tagger whose treebank tags a straight ``"`` QUOTE and knows ``''`` too: ``tagger evaluate`` gave the words
    the tokenizer's spelling first (the second ``"`` as ``''``, tagged SYM) and scored 91.67% on the training file,
    where ``Tagger.evaluate`` gives 100%. A gold-tagged file is scored as written, at train's dev too."""
    from glmnlp.treebank.formats import read_tagged

    gold = tmp_path / "quotes.tab"
    gold.write_text('He\tPRP\nsaid\tVBD\n"\t``\nhi\tUH\n"\tQUOTE\n.\t.\n\n'
                    "The\tDT\nsymbol\tNN\n''\tSYM\nis\tVBZ\nodd\tJJ\n.\t.\n\n")
    model = tmp_path / "m"
    assert main(["tagger", "train", "--train", str(gold), "--dev", str(gold), "--out", str(model), "--epochs", "5",
                 "-j", "1", "-q"]) == 0
    tagger = Tagger.load(model)
    assert tagger.evaluate(read_tagged(gold)).accuracy == 1.0
    assert tagger.history_[-1].dev_score == 1.0  # train's dev, scored as written too
    capsys.readouterr()
    assert main(["tagger", "evaluate", "-m", str(model), "--test", str(gold)]) == 0
    out = capsys.readouterr().out
    assert "accuracy          100.00%" in out and "QUOTE -> SYM" not in out


def test_tagger_evaluate_scores_quotes_tagged_as_quotes_as_glmnlp_tag_reads_them(
    tmp_path: Path, capsys: pytest.CaptureFixture[str],
) -> None:
    """The common convention (the PTB's, EWT's XPOS): a straight ``"`` in the file, tagged `````/``''``. ``glmnlp
    tag`` reads it as the tokenizer spells raw text's quotes, and ``tagger evaluate`` must score those same words:
    a first version of the quote mend above scored them as written, 84.62% where tag's own output scores 92.31%."""
    from glmnlp.text.default_model import default_model_path

    gold = tmp_path / "q.tab"
    rows = [("He", "PRP"), ("said", "VBD"), ('"', "``"), ("hello", "UH"), ("there", "RB"), ('"', "''"), (".", "."),
            None, ("She", "PRP"), ("wrote", "VBD"), ('"', "``"), ("no", "DT"), ('"', "''"), (".", ".")]
    gold.write_text("".join("\n" if r is None else f"{r[0]}\t{r[1]}\n" for r in rows) + "\n")
    capsys.readouterr()
    assert main(["tagger", "evaluate", "-m", str(default_model_path()), "--test", str(gold)]) == 0
    accuracy = capsys.readouterr().out.split("accuracy")[1].split("%")[0].strip()
    (tmp_path / "q.txt").write_text('He said " hello there " .\nShe wrote " no " .\n')
    assert main(["tag", "-m", str(default_model_path()), str(tmp_path / "q.txt")]) == 0
    tagged = [token.rsplit("/", 1)[1] for token in capsys.readouterr().out.split()]
    expected = [r[1] for r in rows if r is not None]
    assert float(accuracy) == round(100 * sum(a == b for a, b in zip(tagged, expected)) / len(expected), 2)


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
