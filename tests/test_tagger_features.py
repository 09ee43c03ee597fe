"""The Collins (2002) tagger's features: the history features of hand-built sentences, the encoder against the
reference features and a dictionary oracle, word shapes.
"""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from glmnlp.glm.features import FeatureIndex, Template
from glmnlp.treebank.formats import TaggedSentence
from glmnlp.tagger.features import ATOM_NAMES, FEATURE_SETS, history_atoms, history_features, word_shape
from glmnlp.tagger.model import Tagger, TaggerConfig


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
