"""The bundled default model (glmnlp/data/default_model) and the recipe that reproduces it."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

import glmnlp
from glmnlp.text.default_model import MODEL_FILE, DefaultRecipe, default_model_path, model_checksums, train_default
from glmnlp.errors import ConfigError
from glmnlp.treebank.trees import parse_tree, to_bracket

README_SENTENCE = "The old man saw the dog with a telescope."
#: The first trees of three GUM documents (licence in the folder).
GUM_TINY = Path(__file__).parent / "data" / "gum_tiny"
#: A small recipe: every step of the real one (jackknifing, beam and pruning choice) on a few trees.
TINY = DefaultRecipe(max_train=60, max_dev=10, max_test=10, tagger_epochs=2, jackknife_folds=2, jackknife_epochs=1,
                     parser_epochs=2, n_bits=14, gammas=(1e3, 1e4), caps=(20,), prune_candidates=(0.5, 2.0),
                     generative_weights=(5.0, 20.0), generative_folds=2, multitag_margins=(0.0, 4.0),
                     corpora=("ptb_sample", "gum"))


def test_default_model_parses_the_readme_sentence() -> None:
    """glmnlp.load() loads the bundled model; the README sentence gets a well-formed TOP tree over its tokens."""
    nlp = glmnlp.load()
    doc = nlp(README_SENTENCE)
    assert len(doc.sentences) == 1
    sent = doc.sentences[0]
    tokens = ["The", "old", "man", "saw", "the", "dog", "with", "a", "telescope", "."]
    assert sent.words == tokens
    tree = sent.tree
    assert tree is not None and tree.label == "TOP" and tree.leaves() == tokens
    assert parse_tree(to_bracket(tree)) == tree
    labels = {node.label for node in tree.subtrees()}
    assert {"S", "NP", "VP", "PP"} <= labels
    assert sent.tags[:4] == ["DT", "JJ", "NN", "VBD"]
    assert nlp.parser.stats["fallback"] == 0


def test_default_model_tags_every_currency_sign_as_the_dollar_sign() -> None:
    """The bundled model's tagger has seen ``$``, ``£`` and ``€``, not ``¥`` or ``₹``, which it tagged ``JJ`` and ``VBG``
    as unknown words (glmnlp.tagger.features.read_as); the parser then reads each amount as one noun phrase."""
    nlp = glmnlp.load()
    for sign in ("$", "\u00a3", "\u20ac", "\u00a5", "\u20b9"):
        sent = nlp(f"It costs {sign}500 in Tokyo.").sentences[0]
        assert sent.words[2:4] == [sign, "500"] and sent.tags[2:4] == ["$", "CD"], (sign, sent.tags)
        assert sent.tree is not None and f"(NP ($ {sign}) (CD 500))" in to_bracket(sent.tree), to_bracket(sent.tree)


def test_default_model_files_match_their_recorded_checksums() -> None:
    """Every shipped model file has the sha256 recorded in MODEL.json, and nothing else is shipped."""
    root = default_model_path()
    meta = json.loads((root / MODEL_FILE).read_text(encoding="utf-8"))
    assert model_checksums(root) == meta["checksums"]
    assert meta["command"] == ("glmnlp train-default --out DIR --gum GUM_CONST_DIR "
                               "--extra-test questions_imperatives=QUESTIONS_IMPERATIVES_FILE")
    assert list(meta["evaluation"]) == ["gum_dev", "ptb_sample_dev", "questions_imperatives"]


def test_default_model_was_made_by_the_current_recipe() -> None:
    """MODEL.json's recipe is DefaultRecipe() on PTB sample + GUM (so train-default --gum reproduces it)."""
    meta = json.loads((default_model_path() / MODEL_FILE).read_text(encoding="utf-8"))
    assert meta["recipe"] == DefaultRecipe(corpora=("ptb_sample", "gum")).to_json()
    assert meta["sentences"] == {"train": 10821, "dev": 1848, "test": 245, "gum_train": 7425, "gum_dev": 1575}
    assert "GUM" in (default_model_path() / "NOTICE.md").read_text(encoding="utf-8")


def test_default_model_is_at_most_ten_megabytes() -> None:
    """The shipped model (all files) is at most 10 MB (the recipe's max_bytes)."""
    root = default_model_path()
    assert sum(p.stat().st_size for p in root.rglob("*") if p.is_file()) <= 10_000_000


def test_default_model_recipe_is_byte_deterministic(tmp_path: Path) -> None:
    """Two runs of the same (tiny) recipe write byte-identical model files and MODEL.json, whatever the workers
    (``jobs``, as docs/api.md says train_default takes: it raised TypeError)."""
    a = train_default(tmp_path / "a", TINY, gum_dir=GUM_TINY)
    b = train_default(tmp_path / "b", TINY, gum_dir=GUM_TINY, jobs=1, backend="local")
    assert a.checksums == b.checksums
    assert sorted(a.checksums) == [
        "NOTICE.md", "parser/generative/metadata.json", "parser/generative/weights.npz", "parser/metadata.json",
        "parser/weights.npz", "tagger/metadata.json", "tagger/weights.npz",
    ]
    assert (tmp_path / "a" / MODEL_FILE).read_bytes() == (tmp_path / "b" / MODEL_FILE).read_bytes()
    meta = json.loads((tmp_path / "a" / MODEL_FILE).read_text())
    # the data notice names both corpora and the genres left out of training
    notice = (tmp_path / "a" / "NOTICE.md").read_text()
    assert "Penn Treebank" in notice and "GUM" in notice and "essay, fiction, letter, podcast, whow" in notice
    # the command that runs this recipe, its quick-run options included (it recorded the bundled model's command)
    assert meta["command"] == ("glmnlp train-default --out DIR --gum GUM_CONST_DIR --max-train 60 --max-dev 10 "
                               "--max-test 10 --parser-epochs 2 --generative-weights 5,20")
    # the file stores float32 weights exactly: the recipe measured what it wrote
    from glmnlp.glm.model_io import load_model
    _, arrays = load_model(tmp_path / "a" / "parser", kind="glmnlp-parser")
    assert arrays["weight_value"].dtype == np.float32
    # the pruning table measures every candidate, and the choice follows the dev rule
    assert [row["prune"] for row in meta["pruning"]] == [0.0, 0.5, 2.0]
    ok = [row["prune"] for row in meta["pruning"] if row["dev_f1"] >= meta["pruning"][0]["dev_f1"] - 0.1 - 1e-3]
    assert meta["prune"] == max(ok)
    loaded = glmnlp.load(tmp_path / "a")
    assert int((loaded.parser.weights != 0).sum()) == meta["weights"]["kept"]
    # the generative weight is chosen on dev among the candidates (ties to the first) and saved
    trials = meta["generative_weight_trials"]
    assert [t["weight"] for t in trials] == [5.0, 20.0]
    best = max(trials, key=lambda t: t["beam_dev_f1"])  # compared at their own beams
    assert meta["generative_weight"] == best["weight"] == loaded.parser.generative.weight
    assert meta["parser_dev_f1_by_epoch"][best["best_epoch"] - 1] == best["dev_f1"]
    # the pass is chosen at its own beam among the two best at the selection beam, and both are recorded
    passes = meta["parser_epoch_trials"]
    assert sorted(t["epoch"] for t in passes) == [1, 2]  # two passes: both are candidates
    assert meta["parser_best_epoch"] == best["best_epoch"]
    top = max(round(t["beam_dev_f1"], 2) for t in passes)
    assert meta["parser_best_epoch"] == next(t["epoch"] for t in passes if round(t["beam_dev_f1"], 2) == top)
    # the input-tag margin is chosen on dev (ties to the smaller margin) and load() uses it
    rows = meta["multitag_trials"]
    assert [r["margin"] for r in rows] == [0.0, 4.0] and rows[0]["tags_per_word"] == 1.0
    assert rows[1]["tags_per_word"] >= 1.0
    top = max(round(r["dev_f1"], 2) for r in rows)
    assert meta["multitag_margin"] == min(r["margin"] for r in rows if round(r["dev_f1"], 2) == top)
    assert meta["dev_f1"]["shipped"] == next(r["dev_f1"] for r in rows if r["margin"] == meta["multitag_margin"])
    assert loaded.multitag_margin == (meta["multitag_margin"] or None)
    assert glmnlp.load(tmp_path / "a", multitag_margin=None).multitag_margin is None


def test_load_reads_the_recommended_margin(tmp_path: Path) -> None:
    """recommended_margin: MODEL.json's multitag_margin (0 or absent = None); bad values are named errors."""
    from glmnlp.errors import ModelFileError
    from glmnlp.text.loading import recommended_margin

    assert recommended_margin(tmp_path) is None
    for value, expected in ((4.0, 4.0), (0, None), (None, None)):
        (tmp_path / MODEL_FILE).write_text(json.dumps({"multitag_margin": value}))
        assert recommended_margin(tmp_path) == expected
    (tmp_path / MODEL_FILE).write_text(json.dumps({"multitag_margin": -2}))
    with pytest.raises(ModelFileError, match="multitag_margin must be a number >= 0, got -2"):
        recommended_margin(tmp_path)
    (tmp_path / MODEL_FILE).write_text("{not json")
    with pytest.raises(ModelFileError, match=r"MODEL.json:1: not valid JSON \(corrupt or truncated\)"):
        recommended_margin(tmp_path)
    (tmp_path / MODEL_FILE).write_text("[4.0]")  # the reason was Python's: 'list' object has no attribute 'get'
    with pytest.raises(ModelFileError, match=r"MODEL.json: not a model description \(a JSON object\), but a JSON list"):
        recommended_margin(tmp_path)


def test_default_model_train_refuses_to_overwrite(tmp_path: Path) -> None:
    """A non-empty output directory is refused unless overwrite is set; nothing is written."""
    (tmp_path / "out").mkdir()
    (tmp_path / "out" / "keep.txt").write_text("x")
    with pytest.raises(ConfigError, match="already exists"):
        train_default(tmp_path / "out", TINY, gum_dir=GUM_TINY)
    assert [p.name for p in (tmp_path / "out").iterdir()] == ["keep.txt"]


@pytest.mark.parametrize(
    "changes, message",
    [
        ({"parser_epochs": 0}, "parser_epochs must be >= 1"),
        ({"jackknife_folds": 1}, "jackknife_folds must be >= 2"),
        ({"prune_candidates": (-1.0,)}, "prune_candidates must be finite numbers > 0"),
        ({"caps": ()}, "gammas and caps must not be empty"),
        ({"max_train": 0}, "max_train must be >= 1 or None"),
        ({"generative_weights": (10.0, -1.0)}, "generative_weights must be finite numbers > 0"),
        ({"multitag_margins": ()}, "multitag_margins must be finite numbers >= 0"),
        ({"corpora": ("gum",)}, "corpora must name ptb_sample"),
        ({"corpora": ("ptb_sample", "wiki")}, "corpora must name ptb_sample"),
    ],
)
def test_default_model_recipe_rejects_bad_settings(changes: dict, message: str) -> None:
    """Invalid recipe settings raise ConfigError naming the setting."""
    with pytest.raises(ConfigError, match=message):
        DefaultRecipe(**changes)


def test_default_model_recipe_trains_on_both_corpora_and_scores_each(tmp_path: Path) -> None:
    """Train and dev are PTB sample + GUM; MODEL.json scores PTB dev, GUM dev (per genre, with and without
    punctuation) and every extra test set; without a GUM folder the recipe refuses to start."""
    with pytest.raises(ConfigError, match="--gum DIR"):
        train_default(tmp_path / "none", TINY)
    extra = tmp_path / "extra.trees"
    extra.write_text("(TOP (S (NP (DT The) (NN dog)) (VP (VBD barked)) (. .)))\n")
    report = train_default(tmp_path / "m", TINY, gum_dir=GUM_TINY, extra_tests={"extra": extra})
    assert report.sentences == {"train": 100, "dev": 20, "test": 10, "gum_train": 40, "gum_dev": 10}
    ev = report.evaluation
    assert sorted(ev) == ["extra", "gum_dev", "ptb_sample_dev"]
    assert ev["gum_dev"]["sentences"] == 10 and ev["ptb_sample_dev"]["sentences"] == 10
    # the first 10 dev trees in file-name order: 8 of GUM_interview_gaming, 2 of GUM_news_iodine
    assert {g: r["sentences"] for g, r in ev["gum_dev"]["by_genre"].items()} == {"interview": 8, "news": 2}
    assert ev["extra"]["sentences"] == 1 and 0 <= ev["extra"]["f1"] <= 100
    for row in (ev["gum_dev"], ev["ptb_sample_dev"], ev["extra"], *ev["gum_dev"]["by_genre"].values()):
        assert set(row) - {"by_genre"} == {"sentences", "f1", "f1_no_punct", "tag_accuracy"}
    meta = json.loads((tmp_path / "m" / MODEL_FILE).read_text())
    assert meta["evaluation"] == json.loads(json.dumps(ev))
    assert "GUM" in meta["description"]
    # the command recorded asks for the extra set (it did not: the command wrote a MODEL.json without its scores)
    assert meta["command"].endswith(" --generative-weights 5,20 --extra-test extra=EXTRA_FILE"), meta["command"]


def test_punctuation_free_scores_remove_the_same_tokens_from_both_trees() -> None:
    """scores(): f1_no_punct drops the gold-punctuation positions from both trees, so a parse that differs
    only in where it attaches a hyphen scores 100 there and less with standard COLLINS.prm."""
    from glmnlp.text.default_model import scores

    gold = parse_tree("(TOP (S (NP (NNP Mary) (NNP Ann)) (HYPH -) (VP (VBD left)) (. .)))")
    test = parse_tree("(TOP (S (NP (NNP Mary) (NNP Ann) (HYPH -)) (VP (VBD left)) (. .)))")
    row = scores([gold], [test])
    assert row["f1"] < 100.0 and row["f1_no_punct"] == 100.0 and row["sentences"] == 1
    wrong = parse_tree("(TOP (S (NP (NNP Mary)) (NP (NNP Ann) (HYPH -)) (VP (VBD left)) (. .)))")
    assert scores([gold], [wrong])["f1_no_punct"] < 100.0


def test_recipe_leaves_the_excluded_gum_genres_out_of_training_only() -> None:
    """gum_exclude drops those documents from GUM train (never from dev); unknown genres are refused."""
    from glmnlp.text.default_model import load_corpora

    every = load_corpora(DefaultRecipe(corpora=("ptb_sample", "gum"), gum_exclude=()), GUM_TINY)
    without = load_corpora(DefaultRecipe(corpora=("ptb_sample", "gum"), gum_exclude=("interview",)), GUM_TINY)
    assert len(every.parts["gum"]["train"]) == 40 and without.parts["gum"]["train"] == []
    assert without.parts["gum"]["dev"] == every.parts["gum"]["dev"] and len(without.genres) == 20
    assert "interview" in without.genres
    with pytest.raises(ConfigError, match="gum_exclude must name GUM genres"):
        DefaultRecipe(gum_exclude=("novels",))


@pytest.mark.parametrize(("changes", "shards", "message"), [
    ({"max_train": 11}, 1, "11 training trees: the combined model scores each tree by a generative model "
                           "trained without its fold of 10, whose smoothing is estimated on 10 folds: the recipe "
                           "needs at least 12"),
    ({"max_train": 15, "generative_folds": 2}, 1, "15 training trees: the combined model scores each tree by a "
                                                  "generative model trained without its fold of 2, whose smoothing "
                                                  "is estimated on 10 folds: the recipe needs at least 20"),
    ({"max_train": 1, "generative_weights": ()}, 1, "1 training tree: each tree's input tags come from a tagger"),
    ({"max_train": 5, "generative_weights": ()}, 9, "9 shards for 5 training examples"),
])
def test_default_model_train_refuses_too_few_trees_before_any_training(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, changes: dict, shards: int, message: str
) -> None:
    """A split too small for the recipe's folds, or fewer trees than shards, was found where it was needed: after
    the tagger, the jackknife and the generative models (``--shards 500`` after 6.6 s on 200 trees, minutes on the
    whole data), in the library's words (``no training sentences`` for one tree). Now before the tagger trains."""
    from glmnlp.tagger.model import Tagger

    def no_training(*args: object, **kwargs: object) -> None:
        raise AssertionError("the tagger was trained")

    monkeypatch.setattr(Tagger, "fit", no_training)
    recipe = DefaultRecipe(**{"max_dev": 5, "max_test": 5, **changes})
    with pytest.raises(ConfigError, match=message.replace("(", "\\(")):
        train_default(tmp_path / "m", recipe, shards=shards, jobs=1)
    assert not (tmp_path / "m").exists()
