"""Tests for glmnlp.parser.grammar: chain and triple induction, serialisation, Table 1 of C&R 2004."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from glmnlp.cli import main
from glmnlp.errors import ModelFileError
from glmnlp.parser.grammar import END, NULL, TOP, Grammar, GrammarError, chain_table, table1, tree_chains, tree_triples
from glmnlp.parser.transform import FslcConfig, fslc_transform
from glmnlp.treebank.trees import parse_tree

# A toy treebank whose Table 1 figures are counted by hand below.
TRAIN = [
    "(TOP (S (NP (DT the) (NN dog)) (VP (VBD barked))))",
    "(TOP (S (NP (DT the) (NN cat)) (VP (VBD saw) (NP (DT a) (NN dog)))))",
    "(TOP (S (NP (NP (NNS dogs)) (PP (IN with) (NP (NNS hats)))) (VP (VBD left))))",
]
HELDOUT = [
    "(TOP (S (NP (DT a) (NN cat)) (VP (VBD saw) (NP (NNS hats)))))",
    "(TOP (S (NP (NP (NNS dogs)) (PP (IN with) (NP (DT a) (NN hat)))) (VP (VBD left))))",
    "(TOP (S (NP (DT the) (NN dog)) (VP (VBD barked) (VP (VBD left)))))",
]
LEFT_ONLY = FslcConfig(extra_pairs=())


def _trees(texts: list[str]) -> list:
    return [parse_tree(t) for t in texts]


def _named(grammar: Grammar) -> tuple[set[tuple[bool, str]], set[tuple[str, str, str]]]:
    chains = {(first, " ".join(grammar.name(c) for c in chain)) for first, chain in grammar.all_chains()}
    triples = {tuple(grammar.name(c) for c in t) for t in grammar.triples}
    return chains, triples  # type: ignore[return-value]


def test_grammar_tree_chains_hand_example() -> None:
    """Chains and sites of the transformed third toy tree, worked by hand."""
    tree = fslc_transform(parse_tree(TRAIN[2]))
    got = [(site, " ".join(l if s is None else f"{l}/{s}" for l, s in chain)) for site, chain in tree_chains(tree)]
    assert got == [(-1, "TOP S NP NNS"), (2, "NP/NP PP IN"), (4, "NP NNS"), (1, "VP VBD")]


def test_grammar_induce_toy_treebank() -> None:
    """Categories, chains (with the filter) and triples of the toy treebank match a hand count."""
    g = Grammar.induce([fslc_transform(t) for t in _trees(TRAIN)])
    assert [g.name(i) for i in range(len(g.categories))] == [
        "<NULL>", "<END>", "TOP", "DT", "IN", "NN", "NNS", "NP", "NP/NP", "PP", "S", "VBD", "VP",
    ]  # fmt: skip
    assert (NULL, END, TOP) == (0, 1, 2)
    assert g.pos_tags == ["DT", "IN", "NN", "NNS", "VBD"]
    chains, triples = _named(g)
    # TOP S NP NNS and NP/NP PP IN are long and seen once: filtered out
    assert chains == {(True, "TOP S NP DT"), (False, "NN"), (False, "VP VBD"), (False, "NP DT"), (False, "NP NNS")}
    assert triples == {
        ("TOP", "S", "<END>"), ("S", "NP", "VP"), ("S", "VP", "<END>"), ("NP", "DT", "NN"),
        ("NP", "NN", "<END>"), ("VP", "VBD", "<END>"), ("VP", "VBD", "NP"), ("VP", "NP", "<END>"),
        ("NP", "NNS", "NP/NP"), ("NP", "NP/NP", "<END>"), ("NP/NP", "PP", "<END>"), ("PP", "IN", "NP"),
        ("PP", "NP", "<END>"), ("NP", "NNS", "<END>"),
    }  # fmt: skip
    assert g.chains_for("IN") == [] and g.chains_for("NNS", first=True) == []
    assert g.allows(g.category_id("S"), g.category_id("NP"), g.category_id("VP"))
    assert not g.allows(g.category_id("S"), g.category_id("VP"), g.category_id("NP"))


def test_grammar_filter_threshold() -> None:
    """min_count=1 keeps every chain; 3 also drops the twice-seen TOP S NP DT; short chains always stay."""
    trees = [fslc_transform(t) for t in _trees(TRAIN)]
    all_chains, _ = _named(Grammar.induce(trees, long_chain_min_count=1))
    assert {(True, "TOP S NP NNS"), (False, "NP/NP PP IN")} <= all_chains
    assert len(all_chains) == 7
    strict, _ = _named(Grammar.induce(trees, long_chain_min_count=3))
    assert strict == {(False, "NN"), (False, "VP VBD"), (False, "NP DT"), (False, "NP NNS")}
    with pytest.raises(GrammarError):
        Grammar.induce(trees, long_chain_min_count=0)


def test_grammar_induce_is_deterministic_and_json_round_trips() -> None:
    """Tree order does not change the grammar; to_json/from_json is lossless and JSON-serialisable."""
    trees = [fslc_transform(t) for t in _trees(TRAIN + HELDOUT)]
    a = Grammar.induce(trees).to_json()
    b = Grammar.induce(list(reversed(trees))).to_json()
    assert json.dumps(a) == json.dumps(b)
    back = Grammar.from_json(json.loads(json.dumps(a)))
    assert back.to_json() == a
    assert back == Grammar.induce(trees)


@pytest.mark.parametrize(
    ("mutate", "message"),
    [
        (lambda d: d.update(format="other"), "not a grammar"),
        (lambda d: d.update(version=99), "version"),
        (lambda d: d["triples"].append([0, 1, 999]), "out of range"),
        (lambda d: d.pop("chains"), "malformed"),
        (lambda d: d["categories"].pop(0), "reserved"),
        # a label with a space loaded and failed at the first tree written; an empty one wrote "( (DT A) ...)"
        (lambda d: d["categories"][-1].__setitem__(0, "N P"), "labels are non-empty, without whitespace"),
        (lambda d: d["categories"][-1].__setitem__(0, ""), "labels are non-empty, without whitespace"),
        (lambda d: d["categories"][-1].__setitem__(1, "\t"), "labels are non-empty, without whitespace"),
    ],
    ids=["format", "version", "id-range", "missing-key", "reserved", "spaced-label", "empty-label", "spaced-slash"],
)
def test_grammar_from_json_rejects_malformed(mutate, message: str) -> None:
    """A corrupt grammar dict raises ModelFileError, never a half-built grammar."""
    data = Grammar.induce([fslc_transform(t) for t in _trees(TRAIN)]).to_json()
    mutate(data)
    with pytest.raises(ModelFileError, match=message):
        Grammar.from_json(data)


def test_grammar_unknown_category_and_root() -> None:
    """Unknown categories and non-TOP roots raise GrammarError with a readable message."""
    g = Grammar.induce(_trees(TRAIN))
    assert g.lookup("ADJP") is None
    with pytest.raises(GrammarError, match="'ADJP' is not in the grammar"):
        g.category_id("ADJP")
    with pytest.raises(GrammarError, match="root must be 'TOP'"):
        Grammar.induce([parse_tree("(S (NN x))")])


def test_grammar_tree_problem_names_what_is_not_cleaned() -> None:
    """tree_problem passes cleaned TOP-rooted trees (every bundled split, cleaned) and names what a raw or
    malformed tree has instead; a root other than TOP in the grammar says how to get cleaned trees."""
    from glmnlp.parser.grammar import CLEAN_HINT, tree_problem
    from glmnlp.treebank.corpus import sample_trees
    from glmnlp.treebank.preprocess import clean_tree

    for split in ("train", "dev", "test"):
        assert all(tree_problem(t) is None for t in sample_trees(split))  # type: ignore[arg-type]
    raw = sample_trees("dev", clean=False)
    assert all(tree_problem(clean_tree(t)) is None for t in raw)
    assert tree_problem(raw[0]) == "the root is an unlabelled bracket '( (S ...) )', not 'TOP'"
    cases = {
        "(TOP (S (NP-SBJ (NN x)) (VP (VBD y))))": "label 'NP-SBJ' carries a function tag, index or alternative "
                                                  "(bare category 'NP')",
        "(TOP (S (NP=2 (NN x))))": "label 'NP=2' carries a function tag, index or alternative (bare category 'NP')",
        "(TOP (S (ADVP|PRT (RB up))))": "label 'ADVP|PRT' carries a function tag, index or alternative "
                                        "(bare category 'ADVP')",
        "(TOP (S (NP (NN x)) (VP (VBD y) (NP (-NONE- *T*-1)))))": "empty element (-NONE- *T*-1)",
        "(S (NN x))": "the root is 'S', not 'TOP'",
        "(TOP x)": "the root 'TOP' is over the word 'x', not over a phrase",
    }
    for text, reason in cases.items():
        assert tree_problem(parse_tree(text)) == reason, text
    assert tree_problem(parse_tree("(TOP (S (-LRB- -LRB-) (NP (PRP$ its) (NN x)) (-RRB- -RRB-)))")) is None
    # a POS tag is kept whole by the cleaning (another tagset's V-FIN, $-LRB-), and the parser takes it
    assert tree_problem(parse_tree("(TOP (S (NP (NN x)) (V-FIN y) ($-LRB- -LRB-)))")) is None
    assert tree_problem(parse_tree("(TOP (S (NP (NN|JJ x)) (V y)))")) == ("label 'NN|JJ' carries a function tag, "
                                                                          "index or alternative (bare category 'NN')")
    with pytest.raises(GrammarError) as caught:
        Grammar.induce([parse_tree("( (S (NN x)) )")])
    assert str(caught.value) == f"tree root must be 'TOP', got ''; {CLEAN_HINT}"
    assert "`glmnlp data`" in CLEAN_HINT


def test_grammar_tree_triples_include_end() -> None:
    """Every node contributes its sibling pairs and (X, last child, END)."""
    triples = tree_triples(parse_tree("(TOP (NP (DT a) (JJ big) (NN dog)))"))
    end = ("<END>", None)
    assert triples == [
        (("TOP", None), ("NP", None), end),
        (("NP", None), ("DT", None), ("JJ", None)),
        (("NP", None), ("JJ", None), ("NN", None)),
        (("NP", None), ("NN", None), end),
    ]


def test_grammar_chain_table_hand_counted() -> None:
    """Table 1 on the toy treebank equals the hand count (with and without FSLC)."""
    tables = table1(_trees(TRAIN), _trees(HELDOUT), config=LEFT_ONLY)
    plain, fslc = tables["no FSLC"], tables["FSLC"]
    assert (plain.train_words, plain.heldout_words) == (12, 13)
    # no FSLC: TOP S NP DT (x2), TOP S NP NP NNS (x1); held-out: TOP S NP DT (x2), TOP S NP NP NNS
    assert (plain.train_long, plain.train_long_repeated, plain.heldout_long, plain.heldout_long_repeated) == (2, 1, 2, 1)
    # FSLC: TOP S NP DT (x2), TOP S NP NNS, NP/NP PP IN; held-out the same three, TOP S NP DT twice
    assert (fslc.train_long, fslc.train_long_repeated, fslc.heldout_long, fslc.heldout_long_repeated) == (3, 1, 3, 1)
    # OOV: 'dogs' (and, with FSLC, 'with') need a chain seen once; 'left' in the last sentence a new triple
    assert plain.chain_oov == pytest.approx(1000 / 13)
    assert fslc.chain_oov == pytest.approx(2000 / 13)
    assert plain.chain_oov_unfiltered == fslc.chain_oov_unfiltered == 0.0
    assert plain.triple_oov == fslc.triple_oov == pytest.approx(1000 / 13)
    assert plain.sentences_covered == fslc.sentences_covered == pytest.approx(100 / 3)


def test_grammar_chain_table_min_count_one_has_no_chain_oov() -> None:
    """With no filter the held-out chain OOV equals the unfiltered rate."""
    t = chain_table(_trees(TRAIN), _trees(HELDOUT), min_count=1)
    assert t.chain_oov == t.chain_oov_unfiltered == 0.0


def test_grammar_cli_table1(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """`glmnlp grammar table1` prints the hand-counted figures for given tree files."""
    train, held = tmp_path / "train.trees", tmp_path / "held.trees"
    train.write_text("\n".join(TRAIN) + "\n")
    held.write_text("\n".join(HELDOUT) + "\n")
    status = main(["grammar", "table1", "--train", str(train), "--heldout", str(held), "--left-recursion-only"])
    out = capsys.readouterr().out
    assert status == 0
    assert "3 sentences, 12 words" in out and "3 sentences, 13 words" in out
    lines = {line[:38].strip(): line[38:].split() for line in out.splitlines() if len(line) > 38}
    assert lines["training set, all"] == ["2", "3"]
    assert lines["chain unseen (seen > 1 filter)"] == ["76.92", "153.85"]
    assert lines["triple unseen"] == ["76.92", "76.92"]


def test_grammar_cli_table1_notes_trees_put_under_a_new_top(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Trees rooted other than TOP or ROOT (S1 here) were put under a new TOP (their chains one level longer) without
    a word, where ``glmnlp data --clean`` notes it: the same note, on stderr, and the table on stdout. A ROOT root is
    relabelled TOP, without a note."""
    train = tmp_path / "train.trees"
    train.write_text("(S1 (S (NP (NN a)) (VP (VBZ b))))\n(ROOT (S (NP (NN c)) (VP (VBZ d))))\n"
                     "(ROOT (NP (NN e)) (VP (VBZ f)))\n", encoding="utf-8")  # a ROOT over two phrases is kept
    assert main(["grammar", "table1", "--train", str(train), "--heldout", str(train)]) == 0
    out, err = capsys.readouterr()
    note = ("note: 2 tree(s) had a root that is no root bracket (the unlabelled ( ... ), TOP, or ROOT over one "
            f"phrase): S1 (1), ROOT (1); each was put under a new TOP root, its root kept as a phrase (first at "
            f"{train}:1)\n")
    assert err == note * 2 and "Table 1" in out


def test_grammar_cli_table1_bad_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A malformed tree file exits 1 with file:line: reason."""
    bad = tmp_path / "bad.trees"
    bad.write_text("(TOP (S (NN x))\n")
    assert main(["grammar", "table1", "--train", str(bad)]) == 1
    assert "bad.trees:1" in capsys.readouterr().err
