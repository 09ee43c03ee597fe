"""Incremental beam parser: kernel scoring vs. replayed features, exhaustive-search oracle, features, I/O, training."""

from __future__ import annotations

import itertools
import time
from pathlib import Path

import numpy as np
import pytest

from glmnlp.treebank.corpus import sample_trees
from glmnlp.parser.grammar import Grammar
from glmnlp.parser.model import Parser, ParserConfig, default_tree, punctuation_tags, word_atom
from glmnlp.parser.selection import evaluate
from glmnlp.parser.training import train_parser
from glmnlp.parser.transform import fslc_transform
from glmnlp.treebank.trees import parse_tree

from derivation_oracle import all_derivations
from toy_trees import TINY

BITS = 12


def _parser(texts: list[str] = TINY, weights: np.ndarray | None = None, features: str = "punct") -> Parser:
    cfg = ParserConfig(n_bits=BITS, features=features, gamma=1e18, beam_cap=0)
    trees = [parse_tree(t) for t in texts]
    grammar = Grammar.induce([fslc_transform(t, cfg.fslc) for t in trees], long_chain_min_count=1)
    w = np.zeros(1 << BITS) if weights is None else weights
    return Parser(grammar, punctuation_tags(trees), w, cfg)


def _all_parses(parser: Parser, words: list[str], tags: list[str]) -> list[tuple[float, tuple]]:
    """Brute force: every legal (site, chain) sequence (independent frontier walk), scored by replaying its features."""
    atoms, next_pos, isq, _off, _cand = parser._inputs(words, [[t] for t in tags])
    found = all_derivations(parser, words, tags)
    out = []
    for d in found:
        sites = np.array([s for s, _ in d], dtype=np.int32)
        chains = np.array([c for _, c in d], dtype=np.int32)
        ids, _ = parser._beam.features(atoms, next_pos, isq, 1, sites, chains, True)
        out.append((float(parser.weights[ids].sum()), d))
    return out


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_parser_exhaustive_beam_matches_brute_force(seed: int) -> None:
    """With no pruning the beam finds every legal parse, with exactly the replayed feature scores."""
    w = np.random.default_rng(seed).normal(size=1 << BITS)
    parser = _parser(weights=w)
    words = ["the", "cat", "saw", "the", "dog", "with", "a", "hat", "."]
    tags = ["DT", "NN", "VBD", "DT", "NN", "IN", "DT", "NN", "."]
    brute = sorted(_all_parses(parser, words, tags), reverse=True)
    atoms, next_pos, isq, off, cand = parser._inputs(words, [[t] for t in tags])
    none = np.zeros(0, dtype=np.int32)
    res = parser._beam.decode(atoms, next_pos, isq, 1, off, cand, parser.weights, 1e18, 0, none, none, False, 0)
    assert res["status"] == "complete"
    got = [(s, tuple(zip(si.tolist(), ch.tolist()))) for s, _g, si, ch in res["beam"]]
    assert len(got) == len(brute) >= 2
    assert sorted(d for _, d in got) == sorted(d for _, d in brute)
    assert got[0][0] == pytest.approx(brute[0][0])
    scores = dict((d, s) for s, d in brute)
    for s, d in got:
        assert s == pytest.approx(scores[d])


def test_parser_probe_context_atoms_hand_built() -> None:
    """Atoms of a VP attached under S after 'the dog', and of the END closing that NP."""
    parser = _parser()
    g = parser.grammar
    words, tags = ["the", "dog", "barked", "."], ["DT", "NN", "VBD", "."]
    atoms, next_pos, isq, off, cand = parser._inputs(words, [[t] for t in tags])
    first = parser._chain_id[tuple(g.category_id(x) for x in ("TOP", "S", "NP", "DT"))]
    nn = parser._chain_id[(g.category_id("NN"),)]
    sites, chains = np.array([-1, 2], dtype=np.int32), np.array([first, nn], dtype=np.int32)
    vp = g.category_id("VP")
    a, ids = parser._beam.probe(atoms, next_pos, isq, 1, sites, chains, 1, vp, 2)
    assert (a["L10"], a["L01"], a["L02"], a["L20"], a["L11"]) == (g.category_id("S"), g.category_id("NP"), 0, 2, 0)
    assert a["CL"] == word_atom("dog") and a["CC"] == word_atom("dog") and a["CCP"] == g.category_id("NN")
    assert len(ids) == 16 + 2  # non-POS templates + the two always-on punctuation features
    e, _ = parser._beam.probe(atoms, next_pos, isq, 1, sites, chains, -1, 0, 2)
    assert (e["L10"], e["L01"], e["L02"], e["L20"], e["L30"]) == (
        g.category_id("NP"), g.category_id("NN"), g.category_id("DT"), g.category_id("S"), 2,
    )
    assert e["CL"] == word_atom("dog")


def test_parser_probe_coordination_atom() -> None:
    """COORD: a leftmost child of a VP preceded by 'CC' and a VP gets the earlier VP's first child (VB)."""
    parser = _parser()
    g = parser.grammar
    words, tags = ["go", "and", "now", "see", "."], ["VB", "CC", "RB", "VB", "."]
    atoms, next_pos, isq, off, cand = parser._inputs(words, [[t] for t in tags])
    c0 = parser._chain_id[tuple(g.category_id(x) for x in ("TOP", "S", "VP", "VB"))]
    c1 = parser._chain_id[(g.category_id("CC"),)]
    c2 = parser._chain_id[tuple(g.category_id(x) for x in ("VP", "ADVP", "RB"))]
    sites, chains = np.array([-1, 1, 1], dtype=np.int32), np.array([c0, c1, c2], dtype=np.int32)
    ids, off_ = parser._beam.features(atoms, next_pos, isq, 0, sites, chains, False)
    assert len(ids) == off_[-1]
    # probe the ADVP's context by replaying the first two steps and attaching the VP chain top:
    a, _ = parser._beam.probe(atoms, next_pos, isq, 0, sites[:2], chains[:2], 1, g.category_id("VP"), 2)
    assert a["L01"] == g.category_id("CC") and a["L02"] == g.category_id("VP")
    assert a["COORD"] == 0  # the VP itself has a left sibling: COORD is for leftmost children only


def test_parser_punct_group_adds_features() -> None:
    """The +punct group fires extra templates; baseline does not."""
    base, punct = _parser(features="baseline"), _parser(features="punct")
    words, tags = ["dog", "saw", "the", "cat", "."], ["NN", "VBD", "DT", "NN", "."]
    for p in (base, punct):
        p.config.gamma = 1e18
    tb = base.parse(words, tags)
    tp = punct.parse(words, tags)
    assert tb.leaves() == tp.leaves() == words
    ex_words = np.array([word_atom(w) for w in words])
    assert ex_words.dtype == np.int64


def test_parser_output_keeps_words_and_is_detransformed() -> None:
    """Parses are TOP-rooted, have no slash categories and keep the input words unchanged."""
    parser = _parser()
    words, tags = ["the", "cat", "saw", "dog", "with", "the", "hat", "."], ["DT", "NN", "VBD", "NN", "IN", "DT", "NN", "."]
    nbest = parser.parse_nbest(words, tags, 3)
    assert 1 <= len(nbest) <= 3
    assert [s for s, _ in nbest] == sorted((s for s, _ in nbest), reverse=True)
    for _s, tree in nbest:
        assert tree.label == "TOP" and tree.leaves() == words and tree.tags() == tags
        assert all(node.slash is None for node in tree.subtrees())


@pytest.mark.parametrize("k", [0, -1])
def test_parser_nbest_k_below_one_gives_every_complete_analysis(k: int) -> None:
    """k <= 0 is documented: every complete analysis of the last beam, best first (not a single tree)."""
    parser = _parser()
    words = ["the", "cat", "saw", "dog", "with", "the", "hat", "."]
    tags = ["DT", "NN", "VBD", "NN", "IN", "DT", "NN", "."]
    every = parser.parse_nbest(words, tags, k)
    assert len(every) > 1 and [s for s, _ in every] == sorted((s for s, _ in every), reverse=True)
    assert every == parser.parse_nbest(words, tags, len(every) + 5)


@pytest.mark.parametrize(("words", "tags", "message"), [
    ("dog", "NNN", "not a string"),  # was parsed as three one-letter words: (TOP (S (N d) (N o) (N g)))
    (["a", "dog"], "DT NN", "not a string"),  # surprisal was five infinities, one per character
    ([1, 2], ["DT", "NN"], "word 1 is a int, not a str"),  # was an InputError naming no word
    (["a", b"dog"], ["DT", "NN"], "word 2 is a bytes, not a str"),  # Tagger.tag's TypeError, the parser's InputError
    (["a", "dog"], ["DT", ["NN", 3]], "the tag of word 2 is a int, not a str"),
    (["a", "dog"], ["DT", []], "at least one candidate tag"),
    (["a", "dog"], ["DT"], "2 words but 1 tag entries"),
    (["", "dog"], ["DT", "NN"], "word 1 \\(''\\) is empty or holds whitespace"),  # was a ValueError from inside
    (["a b", "dog"], ["DT", "NN"], "word 1 \\('a b'\\) is empty or holds whitespace"),  # the tree could not be written
    (["a", "dog"], ["DT", ""], "a tag is empty, holds whitespace or a lone surrogate"),  # its tree did not read back
    (42, ["NN"], "must be sequences of strings, got int and list"),  # len()'s "object of type 'int' has no len()"
    ((w for w in ["a"]), ["NN"], "must be sequences of strings, got generator and list"),
    (["a", "dog"], ["DT", None], "the tag of word 2 is a NoneType, not a str"),  # "'NoneType' object is not iterable"
    (["bad\ud800", "dog"], ["DT", "NN"], "word 1: character 4 is the lone surrogate U\\+D800"),  # UnicodeEncodeError
    (["a", "dog"], ["DT", "N\ud800"], "a tag is empty, holds whitespace or a lone surrogate"),
])
def test_parser_refuses_what_is_not_a_tagged_sentence(words: object, tags: object, message: str) -> None:
    """Parser.parse, parse_nbest and surprisal take sequences of words and tags; a string (a sequence of characters)
    or items that are not strings are a TypeError (a value of the wrong kind, as Tagger.tag's), bad values an
    InputError, saying which, not an analysis of something else."""
    from glmnlp.errors import InputError

    parser = _parser()
    wrong_kind = "not a str" in message or "not a string" in message or "sequences of strings" in message
    for call in (parser.parse, parser.parse_nbest, parser.surprisal):
        with pytest.raises(TypeError if wrong_kind else InputError, match=message) as caught:
            call(words, tags)  # type: ignore[operator]
        assert wrong_kind != isinstance(caught.value, InputError)


def test_parser_fallback_for_unparsable_sentence() -> None:
    """A tag with no chain where its word stands (no tree of the grammar begins with ``.``) gets the documented flat
    default tree and is counted; so does a tag the model does not know, given unchecked (``check_tags=False``)."""
    parser = _parser()
    tree = parser.parse(["xyzzy", "dog"], [".", "NN"])
    assert tree == default_tree(["xyzzy", "dog"], [".", "NN"])
    assert parser.stats["fallback"] == 1
    tree = parser.parse(["xyzzy", "dog"], ["UH", "NN"], check_tags=False)
    assert tree == default_tree(["xyzzy", "dog"], ["UH", "NN"])
    assert parser.stats["fallback"] == 2


def test_parser_refuses_a_tag_it_does_not_know_naming_the_word_and_the_tag() -> None:
    """parse_nbest(['The', 'dog', 'barked', '.'], ['DT', 'XX', 'VBD', '.']) gave the flat default tree scored -inf,
    silently, as if the search had failed: an InputError now, from parse, parse_nbest and explain alike, and
    for a list of candidate tags with one unknown among known ones; nothing is counted."""
    from glmnlp.errors import InputError

    parser = _parser()
    words = ["the", "dog", "saw", "a", "cat", "."]
    message = r"^<input>: word 2 \('dog'\): tag 'XX' is not one of the model's \(it has no analysis with it\)$"
    for tags in (["DT", "XX", "VBD", "DT", "NN", "."], ["DT", ["NN", "XX"], "VBD", "DT", "NN", "."]):
        with pytest.raises(InputError, match=message):
            parser.parse_nbest(words, tags, 1)
        with pytest.raises(InputError, match=message):
            parser.parse(words, tags)
        with pytest.raises(InputError, match=message):
            parser.explain(words, tags)
    with pytest.raises(InputError, match=r"word 6 \('\.'\): tag '\$\.' is not"):
        parser.parse(words, ["DT", "NN", "VBD", "DT", "NN", [".", "$."]])
    assert parser.stats["sentences"] == 0
    score, tree = parser.parse_nbest(words, ["DT", ["NN", "VB"], "VBD", "DT", "NN", "."], 1)[0]
    assert score > float("-inf") and tree.tags() == ["DT", "NN", "VBD", "DT", "NN", "."]


@pytest.mark.parametrize(("cap", "retry_cap"), [(2, 20), (40, 400), (0, 1000), (10**6, 10**6)])
def test_parser_retry_has_a_cap(cap: int, retry_cap: int) -> None:
    """A sentence the beam could not finish was retried at 10x gamma with no cap: for a model whose scores tie (one
    trained on nine trees, multi-tag input) every analysis within gamma was kept, and one 50-word sentence took 24 GB
    until the out-of-memory killer ended ``train-default`` (``parse --cap 2``: 1.8 GB). The retry has a cap now."""
    from glmnlp.parser.model import RETRY_CAP

    parser = _parser()
    parser.config.beam_cap = cap
    tried: list[tuple[float, int]] = []
    real = parser._beam

    class Failing:
        def decode(self, *args: object) -> dict:
            tried.append((args[7], args[8]))  # type: ignore[arg-type]
            return {"status": "failed", "beam": []}

        def __getattr__(self, name: str) -> object:
            return getattr(real, name)

    parser._beam = Failing()
    tree = parser.parse(["the", "dog"], ["DT", "NN"])
    assert tree == default_tree(["the", "dog"], ["DT", "NN"])
    assert tried == [(parser.config.gamma, cap), (parser.config.gamma * 10, retry_cap)]
    assert RETRY_CAP == 1000


def test_parser_save_load_roundtrip(tmp_path: Path) -> None:
    """A saved model loads back with the same grammar, weights and parses."""
    w = np.random.default_rng(5).normal(size=1 << BITS)
    parser = _parser(weights=w)
    parser.config.gamma, parser.config.beam_cap = 5.0, 4
    parser.save(tmp_path / "m")
    again = Parser.load(tmp_path / "m")
    assert np.array_equal(again.weights, parser.weights)
    assert again.config == parser.config
    words, tags = ["the", "cat", "saw", "dog", "."], ["DT", "NN", "VBD", "NN", "."]
    assert again.parse(words, tags) == parser.parse(words, tags)
    assert [(s, t) for s, t in again.parse_nbest(words, tags, 5)] == [(s, t) for s, t in parser.parse_nbest(words, tags, 5)]


def test_parser_save_is_sparse_and_prune_drops_small_weights(tmp_path: Path) -> None:
    """Only non-zero weights are stored (uint32 index + value); prune drops |w| <= prune and still loads."""
    from glmnlp.glm.model_io import load_model

    w = np.zeros(1 << BITS)
    rng = np.random.default_rng(7)
    slots = rng.choice(1 << BITS, size=300, replace=False)
    w[slots] = rng.choice([-1.0, 1.0], size=300) * (0.5 + rng.random(300))
    w[slots[:20]] = 0.01  # small weights for the pruning check
    parser = _parser(weights=w)
    parser.save(tmp_path / "full")
    _meta, arrays = load_model(tmp_path / "full", kind="glmnlp-parser")
    assert set(arrays) == {"weight_index", "weight_value"}
    assert arrays["weight_index"].dtype == np.uint32
    assert arrays["weight_index"].tolist() == sorted(slots.tolist())
    assert np.array_equal(Parser.load(tmp_path / "full").weights, w)
    parser.save(tmp_path / "pruned", prune=0.05)
    pruned = Parser.load(tmp_path / "pruned")
    expected = np.where(np.abs(w) > 0.05, w, 0.0)
    assert np.array_equal(pruned.weights, expected)
    assert np.count_nonzero(pruned.weights) == 280
    assert pruned.parse(["the", "dog", "barked", "."], ["DT", "NN", "VBD", "."]).leaves() == ["the", "dog", "barked", "."]
    with pytest.raises(ValueError):
        parser.save(tmp_path / "bad", prune=-1.0)


def test_parser_save_stores_float32_only_when_exact(tmp_path: Path) -> None:
    """Weights that are all float32 values are stored in 4 bytes and load back equal; one that is not keeps float64."""
    from glmnlp.glm.model_io import load_model

    w = np.zeros(1 << BITS)
    w[[3, 70, 900]] = np.array([0.5, -1.25, 3.0]).astype(np.float32)
    _parser(weights=w).save(tmp_path / "single")
    assert load_model(tmp_path / "single", kind="glmnlp-parser")[1]["weight_value"].dtype == np.float32
    assert np.array_equal(Parser.load(tmp_path / "single").weights, w)
    w[5] = 0.1  # not a float32
    _parser(weights=w).save(tmp_path / "double")
    assert load_model(tmp_path / "double", kind="glmnlp-parser")[1]["weight_value"].dtype == np.float64
    assert np.array_equal(Parser.load(tmp_path / "double").weights, w)


@pytest.mark.parametrize("case", ["unsorted", "out_of_range", "dtype", "missing"])
def test_parser_load_rejects_bad_sparse_weights(tmp_path: Path, case: str) -> None:
    """A model whose sparse weight arrays are inconsistent is refused with ModelFileError naming the file."""
    from glmnlp.errors import ModelFileError
    from glmnlp.glm.model_io import load_model, save_model

    parser = _parser(weights=np.random.default_rng(1).normal(size=1 << BITS))
    parser.save(tmp_path / "m")
    meta, arrays = load_model(tmp_path / "m", kind="glmnlp-parser")
    index, values = arrays["weight_index"].copy(), arrays["weight_value"]
    if case == "unsorted":
        index[[0, 1]] = index[[1, 0]]
    elif case == "out_of_range":
        index[-1] = 1 << BITS
    elif case == "dtype":
        index = index.astype(np.int64)
    bad = {} if case == "missing" else {"weight_index": index, "weight_value": values}
    save_model(tmp_path / "bad", kind="glmnlp-parser", metadata=meta, arrays=bad)
    with pytest.raises(ModelFileError, match="bad"):
        Parser.load(tmp_path / "bad")


@pytest.mark.slow
def test_parser_train_small_sample_reaches_floor_and_is_deterministic() -> None:
    """300 training sentences, 2 passes: dev F1 above 60, and a second run gives identical weights."""
    train, dev = sample_trees("train")[:300], sample_trees("dev")[:60]
    cfg = ParserConfig(n_bits=18, epochs=2, train_gamma=1e4, gamma=1e4, train_cap=10, beam_cap=20)
    p1, logs = train_parser(train, dev, cfg, show_progress=False)
    assert logs[-1].early_stops > 0
    result, _ = evaluate(p1, dev)
    assert result.fmeasure > 60.0
    p2, _ = train_parser(train, dev, cfg, show_progress=False)
    assert np.array_equal(p1.weights, p2.weights)


def test_tune_beam_breaks_f1_ties_by_the_smaller_beam_never_by_speed(monkeypatch: pytest.MonkeyPatch) -> None:
    """Equal dev F1 (to 0.01) → the smaller cap (0 = no cap, the largest), then the smaller gamma;
    the measured speed never decides, so the chosen beam (and the model file) cannot vary with load."""
    import glmnlp.parser.selection as selection

    class Result:
        def __init__(self, f1: float) -> None:
            self.fmeasure = f1

    f1_of = {(1e3, 20): 80.0, (1e3, 40): 81.004, (1e4, 40): 81.0, (1e4, 0): 81.001, (1e3, 0): 80.5, (1e4, 20): 79.0}
    parser = selection.Parser.__new__(selection.Parser)
    parser.config = ParserConfig()
    calls = itertools.count()

    def fake_evaluate(p: object, trees: object, tags: object = None) -> tuple[Result, list[object]]:
        # the expected winner is made the slowest of the ties: a speed-based rule would not pick it
        next(calls)
        if (p.config.gamma, p.config.beam_cap) == (1e3, 40):  # type: ignore[attr-defined]
            time.sleep(0.05)
        return Result(f1_of[(p.config.gamma, p.config.beam_cap)]), []  # type: ignore[attr-defined]

    monkeypatch.setattr(selection, "evaluate", fake_evaluate)
    rows = selection.tune_beam(parser, [], [1e4, 1e3], [0, 40, 20], executor=selection.Executor(1))  # in this process
    assert len(rows) == 6
    assert (parser.config.gamma, parser.config.beam_cap) == (1e3, 40)


COMMA_TREE = "(TOP (S (NP (DT the) (NN dog)) (, ,) (NP (NN cat)) (VP (VBD saw)) (. .)))"


def _features_by_step(parser: Parser, ex: object, **change: object) -> list[list[int]]:
    import dataclasses

    ex = dataclasses.replace(ex, **change)  # type: ignore[type-var]
    ids, off = parser.features(ex, ex.gold_site, ex.gold_chain, True)  # type: ignore[attr-defined]
    return [sorted(ids[a:b].tolist()) for a, b in zip(off[:-1], off[1:])]


def test_parser_punct_templates_fire_by_feature_ids() -> None:
    """The punctuation group (C&R 2004 §3.2) adds exactly its documented features, per built node:
    QUESTION 2 ids on every node; NEXTPOS 2 more on the nodes built while a punctuation word (or CC) is
    absorbed; LK_IS_PUNCT 2 more on a node whose L02 is punctuation. Gold derivation of
    'the dog , cat saw .' (steps: the, dog, ',', cat, saw, '.', final closures): baseline ids per step
    are 9 per POS node + 16 per other node, i.e. 4, 1, 2, 2, 3, 2, 2 nodes."""
    texts = TINY + [COMMA_TREE]
    tree = parse_tree(COMMA_TREE)
    base, punct = _parser(texts, features="baseline"), _parser(texts, features="punct")
    assert punct.punct_tags == {",", "."}
    ex_b = base.example(tree, fslc_transform(tree, base.config.fslc))
    ex_p = punct.example(tree, fslc_transform(tree, punct.config.fslc))
    steps_b, steps_p = _features_by_step(base, ex_b), _features_by_step(punct, ex_p)
    assert [len(s) for s in steps_b] == [57, 9, 25, 25, 41, 25, 32]
    nodes = [4, 1, 2, 2, 3, 2, 2]
    # QUESTION on every node; NEXTPOS at ',' and '.'; LK_IS_PUNCT on one node at 'saw' (L02 = ',')
    extra = [2 * n for n in nodes]
    extra[2] += 2 * nodes[2]
    extra[5] += 2 * nodes[5]
    extra[4] += 2
    assert [len(p) - len(b) for p, b in zip(steps_p, steps_b)] == extra
    # the baseline ids are among the +punct ids (the same hashing of the same templates)
    assert all(set(b) <= set(p) for b, p in zip(steps_b, steps_p))

    # NEXTPOS reads the tag after a punctuation word: changing it moves ids at ',' only, and only with +punct
    other = np.array(ex_p.next_pos)
    other[2] = punct.grammar.lookup("VBD")
    moved = _features_by_step(punct, ex_p, next_pos=other)
    assert [k for k, (x, y) in enumerate(zip(moved, steps_p)) if x != y] == [2]
    other = np.array(ex_p.next_pos)
    other[0] = punct.grammar.lookup("VBD")  # after 'the': not punctuation, NEXTPOS does not fire
    assert _features_by_step(punct, ex_p, next_pos=other) == steps_p
    other_b = np.array(ex_b.next_pos)
    other_b[2] = base.grammar.lookup("VBD")
    assert _features_by_step(base, ex_b, next_pos=other_b) == steps_b

    # QUESTION: a final '?' changes the question ids of every step (+punct), nothing in baseline
    asked = _features_by_step(punct, ex_p, isq=1)
    assert all(x != y and len(x) == len(y) for x, y in zip(asked, steps_p))
    assert _features_by_step(base, ex_b, isq=1) == steps_b


def test_parser_weights_are_an_own_read_only_copy_bit_for_bit() -> None:
    """Assigning a table copies it bit for bit (signed zeros included) and freezes the copy; a read-only
    array owning its memory (a finished table) is taken as it is; an all-zero table is allocated anew."""
    tree = parse_tree("(TOP (S (NP (NN dogs)) (VP (VBP bark)) (. .)))")
    cfg = ParserConfig(n_bits=10)
    parser = Parser(Grammar.induce([fslc_transform(tree, cfg.fslc)]), punctuation_tags([tree]), np.zeros(1 << 10), cfg)
    table = np.zeros(1 << 10)
    table[[3, 7]] = [-0.0, 2.5]
    parser.weights = table
    assert np.array_equal(parser.weights.view(np.uint64), table.view(np.uint64))  # -0.0 kept
    assert not np.shares_memory(parser.weights, table) and not parser.weights.flags.writeable
    table[7] = 9.0
    assert parser.weights[7] == 2.5
    only_signed_zero = np.zeros(1 << 10)
    only_signed_zero[5] = -0.0
    parser.weights = only_signed_zero  # not all-zero by bits: copied
    assert np.signbit(parser.weights[5])
    frozen = table.copy()
    frozen.flags.writeable = False
    parser.weights = frozen
    assert parser.weights is frozen
    view = frozen[:]  # read-only, but not owning its memory: copied
    parser.weights = view
    assert not np.shares_memory(parser.weights, frozen)
    zeros = np.zeros(1 << 10, dtype=np.float32)
    parser.weights = zeros
    assert parser.weights.dtype == np.float64 and parser.weights.shape == (1 << 10,)
    assert not parser.weights.any() and not np.shares_memory(parser.weights, zeros)
    assert not parser.weights.flags.writeable


@pytest.mark.skipif(not Path("/proc/self/statm").exists(), reason="reads Linux's /proc/self/statm")
def test_parser_all_zero_table_takes_no_resident_memory() -> None:
    """A training skeleton's all-zero table is not copied page by page: assigning a 256 MiB zero table
    leaves the resident set about where it was (a copy would add 256 MiB)."""
    import os

    def resident() -> int:
        with open("/proc/self/statm", encoding="ascii") as f:
            return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")

    tree = parse_tree("(TOP (S (NP (NN dogs)) (VP (VBP bark)) (. .)))")
    cfg = ParserConfig(n_bits=10)
    parser = Parser(Grammar.induce([fslc_transform(tree, cfg.fslc)]), punctuation_tags([tree]), np.zeros(1 << 10), cfg)
    zeros = np.zeros(1 << 25)  # 256 MiB, its pages untouched
    before = resident()
    parser.weights = zeros
    assert resident() - before < (64 << 20)
    assert parser.weights.shape == (1 << 25,) and not parser.weights.flags.writeable


@pytest.mark.parametrize(("field", "value"), [("gamma", -5.0), ("gamma", float("nan")), ("gamma", "1e6"),
                                              ("beam_cap", -1), ("beam_cap", 1.5)])
def test_parser_refuses_a_beam_set_out_of_range_on_a_loaded_model(field: str, value: object) -> None:
    """``parser.config.gamma = -5`` (or NaN, or a cap of 1.5) decoded silently, ``"1e6"`` failed inside the kernel;
    a model file holding them is refused, so the same values set after loading are a ConfigError at the next parse."""
    from glmnlp.errors import ConfigError

    parser = _parser()
    setattr(parser.config, field, value)
    with pytest.raises(ConfigError, match="must be a number in \\[0, 1e300\\] and an integer in \\[0, 1000000\\]"):
        parser.parse(["the", "dog"], ["DT", "NN"])


@pytest.mark.parametrize("k", [1.5, "2", True])
def test_parser_nbest_k_must_be_an_integer(k: object) -> None:
    """``parse_nbest(words, tags, 1.5)`` gave one tree, silently."""
    from glmnlp.errors import ConfigError

    with pytest.raises(ConfigError, match="k must be an integer"):
        _parser().parse_nbest(["the", "dog"], ["DT", "NN"], k)  # type: ignore[arg-type]


def test_parser_nbest_k_beyond_the_decoders_integers_is_every_analysis() -> None:
    """``parse_nbest(words, tags, 10**20)`` was an OverflowError from the kernel's int; any k past the beam is every
    complete analysis, as k <= 0 is."""
    parser = _parser()
    words, tags = ["the", "cat", "saw", "dog", "."], ["DT", "NN", "VBD", "NN", "."]
    every = parser.parse_nbest(words, tags, 0)
    assert parser.parse_nbest(words, tags, 10**20) == every == parser.parse_nbest(words, tags, -(10**20))


def test_min_combined_trees_leaves_every_jackknifed_model_enough_trees_for_its_smoothing() -> None:
    """The fewest trees n such that a model trained without one of ``folds`` folds (ceil(n / folds) trees) still has
    ``smoothing_folds`` trees, checked against every smaller n (parser train and train-default refuse below it)."""
    from glmnlp.parser.combined import min_combined_trees

    for folds, smoothing in ((10, 10), (2, 10), (3, 5), (10, 2)):
        n = min_combined_trees(folds, smoothing)
        assert n - -(-n // folds) >= smoothing
        assert all(m - -(-m // folds) < smoothing for m in range(1, n)), (folds, smoothing)
    assert min_combined_trees() == 12


def test_punctuation_tags_count_a_bracket_escape_under_another_tag_as_punctuation() -> None:
    """A UD-style ``PUNCT`` tag whose tokens were 14% bracket escapes (``-LRB-`` has letters) was no punctuation tag,
    and the punctuation features never fired; the PTB's own bracket tags stay out of punctuation, as in Roark's
    rule, and a tag of words stays a tag of words."""
    from glmnlp.parser.model import punctuation_tags

    trees = [parse_tree("(TOP (S (NP (NOUN dog) (PUNCT -LRB-) (NOUN x) (PUNCT -RRB-)) (VERB ran) (PUNCT ,) "
                        "(VERB sat) (PUNCT .)))"),
             parse_tree("(TOP (S (NP (NN it) (-LRB- -LRB-) (NN y) (-RRB- -RRB-)) (VBD sat) (, ,) (NNS -LRB-) "
                        "(NNS dogs) (. .)))")]
    assert punctuation_tags(trees) == {"PUNCT", ",", "."}


@pytest.mark.parametrize(("which", "given", "message"), [
    ("training", ["(TOP (S (NN x)))"], "^training tree 1: expected a Tree, got str"),  # was an AttributeError
    ("training", "(TOP (S (NN x)))", "^training trees: expected a sequence of Trees, got a str"),
    ("dev", [None], "^dev tree 1: expected a Tree, got NoneType"),
])
def test_train_parser_refuses_what_is_not_a_tree_as_a_type_error(which: str, given: object, message: str) -> None:
    """A bracket string where a Tree goes was ``'str' object has no attribute 'label'`` from inside the grammar's
    check; a value of the wrong kind is a TypeError (docs/api.md), as score_trees and write_trees say it."""
    from glmnlp.parser.training import train_parser
    from glmnlp.treebank.trees import parse_tree

    trees = [parse_tree("(TOP (S (NP (DT a) (NN dog)) (VP (VBD barked))))")]
    train, dev = (given, trees) if which == "training" else (trees, given)
    with pytest.raises(TypeError, match=message):
        train_parser(train, dev, ParserConfig(n_bits=12, epochs=1),  # type: ignore[arg-type]
                     show_progress=False, jobs=1)


def test_train_parser_with_no_trees_is_an_input_error() -> None:
    """An empty training set was a plain ValueError (not a GlmnlpError: ``except glmnlp.GlmnlpError`` missed it)."""
    from glmnlp.errors import InputError
    from glmnlp.parser.training import train_parser

    with pytest.raises(InputError, match="no training examples"):
        train_parser([], [], ParserConfig(n_bits=12, epochs=1), show_progress=False, jobs=1)
