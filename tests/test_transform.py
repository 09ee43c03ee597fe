"""Tests for glmnlp.parser.transform: the FSLC transform and its inverse."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from glmnlp.treebank.corpus import sample_trees
from glmnlp.parser.transform import (
    FslcConfig,
    TransformError,
    collapse_unary_loops,
    fslc_detransform,
    fslc_transform,
    selected_left_recursions,
)
from glmnlp.treebank.trees import Tree, parse_tree, to_bracket

LEFT_ONLY = FslcConfig(extra_pairs=())
SINV = FslcConfig(extra_pairs=(("SINV", "S"),))

# Worked examples (original, transformed), as Roark's released parser transforms them; the bracket reader
# keeps "NP/NP" as a plain label, so the expected transformed side is compared through to_bracket (which
# prints slash categories).
SPEC_EXAMPLES = [
    pytest.param(
        LEFT_ONLY,
        "(NP (NP (NP (DT the) (NN man)) (PP (IN with) (NP (DT a) (NN hat)))) (PP (IN in) (NP (DT the) (NN park))))",
        "(NP (DT the) (NN man) (NP/NP (PP (IN with) (NP (DT a) (NN hat)))) (NP/NP (PP (IN in) (NP (DT the) (NN park)))))",
        id="np-two-pps",
    ),
    pytest.param(
        LEFT_ONLY,
        "(VP (VP (VBD left)) (CC and) (VP (VBD barked)))",
        "(VP (VBD left) (VP/VP (CC and) (VP (VBD barked))))",
        id="vp-coordination",
    ),
    pytest.param(
        SINV,
        "(SINV (S (NP (DT the) (NN cat)) (VP (VBD left))) (, ,) (VP (VBD said)) (NP (DT the) (NN man)) (. .))",
        "(S (NP (DT the) (NN cat)) (VP (VBD left)) (SINV/S (, ,) (VP (VBD said)) (NP (DT the) (NN man)) (. .)))",
        id="sinv",
    ),
]


@pytest.mark.parametrize(("config", "original", "transformed"), SPEC_EXAMPLES)
def test_transform_spec_examples(config: FslcConfig, original: str, transformed: str) -> None:
    """The worked examples transform and de-transform exactly as shown."""
    tree = parse_tree(original)
    out = fslc_transform(tree, config)
    assert to_bracket(out) == transformed
    assert fslc_detransform(out) == tree


def test_transform_slash_is_structured() -> None:
    """Slash categories live in Tree.slash, never inside the label string."""
    out = fslc_transform(parse_tree("(VP (VP (VBD left)) (CC and) (VP (VBD barked)))"))
    slash_node = out.children[1]
    assert isinstance(slash_node, Tree)
    assert (slash_node.label, slash_node.slash) == ("VP", "VP")
    assert all("/" not in node.label for node in out.subtrees())


def test_transform_sinv_only_when_selected() -> None:
    """(SINV, S) is flattened by the default config but not by the left-recursion-only one."""
    tree = parse_tree("(SINV (S (NP (NNS cats)) (VP (VBD left))) (VP (VBD said)) (NP (NNP Al)))")
    assert fslc_transform(tree, LEFT_ONLY) == tree
    assert fslc_transform(tree).label == "S"
    assert FslcConfig() == SINV


def test_transform_unary_collapse_is_the_documented_loss() -> None:
    """(NP (NP the man)) collapses to (NP the man); the inverse returns the collapsed form."""
    tree = parse_tree("(NP (NP (DT the) (NN man)))")
    collapsed = parse_tree("(NP (DT the) (NN man))")
    assert fslc_transform(tree) == collapsed
    assert fslc_detransform(fslc_transform(tree)) == collapsed
    assert collapse_unary_loops(parse_tree("(S (NP (NP (NP (NN x)))) (VP (VB y)))")) == parse_tree(
        "(S (NP (NN x)) (VP (VB y)))"
    )


def test_transform_unary_other_label_untouched() -> None:
    """A unary A -> B with A != B is not transformed even when (A, B) is selected."""
    tree = parse_tree("(TOP (SINV (S (NP (NN x)) (VP (VB y)))))")
    assert fslc_transform(tree, SINV) == tree


def test_transform_selection_uses_transformed_left_child() -> None:
    """S -> SINV where the SINV becomes an S is flattened too, so no S -> S is left."""
    tree = parse_tree(
        "(S (SINV (S (NP (NN x)) (VP (VB y))) (VP (VBD said)) (NP (NNP Al))) (CC and) (S (NP (NN z)) (VP (VB w))))"
    )
    out = fslc_transform(tree, SINV)
    assert to_bracket(out) == (
        "(S (NP (NN x)) (VP (VB y)) (SINV/S (VP (VBD said)) (NP (NNP Al)))"
        " (S/SINV (CC and) (S (NP (NN z)) (VP (VB w)))))"
    )
    assert list(selected_left_recursions(out, SINV)) == []
    assert fslc_detransform(out) == tree


def test_transform_preterminal_left_child_untouched() -> None:
    """A selected pair whose left child is a POS node is not flattened (a word cannot sit beside subtrees)."""
    tree = parse_tree("(TOP (X (X a) (Y b)))")
    assert fslc_transform(tree) == tree


def test_transform_rejects_slash_input() -> None:
    """Transforming a tree that already has slash categories is an error."""
    with pytest.raises(TransformError, match="already has slash"):
        fslc_transform(Tree("NP", (Tree("NN", ("x",)), Tree("NP", (Tree("PP", (Tree("IN", ("y",)),)),), "NP"))))


@pytest.mark.parametrize(
    ("tree", "message"),
    [
        (Tree("NP", (Tree("NP", (Tree("NN", ("x",)),), "NP"), Tree("NN", ("y",)))), "not among the final"),
        (Tree("NP", (Tree("NN", ("x",)), Tree("VP", (Tree("NN", ("y",)),), "S"))), "expected VP/NP"),
        (Tree("NP", (Tree("NP", (Tree("NN", ("x",)),), "NP"),)), "only slash children"),
        (Tree("NP", (Tree("NN", ("x",)),), "NP"), "at the root"),
    ],
    ids=["misplaced", "mismatched", "only-slash", "root"],
)
def test_transform_detransform_rejects_bad_slash_nodes(tree: Tree, message: str) -> None:
    """The inverse raises a clear error on malformed slash structure instead of guessing."""
    with pytest.raises(TransformError, match=message):
        fslc_detransform(tree)


@pytest.mark.parametrize("config", [FslcConfig(), LEFT_ONLY], ids=["default", "left-recursion-only"])
def test_transform_round_trip_on_whole_sample(config: FslcConfig) -> None:
    """Transform then inverse is the identity (up to unary collapse) on all 3,914 sample trees."""
    trees = sample_trees("all")
    assert len(trees) == 3914
    flattened = 0
    for tree in trees:
        out = fslc_transform(tree, config)
        assert list(selected_left_recursions(out, config)) == []
        assert fslc_detransform(out) == collapse_unary_loops(tree)
        flattened += sum(1 for node in out.subtrees() if node.slash is not None)
    assert flattened > 1000  # the transform really does something on the sample


def test_transform_sample_has_left_recursion_before() -> None:
    """The check above is not vacuous: the raw sample trees contain selected left recursion."""
    assert sum(1 for t in sample_trees("dev") for _ in selected_left_recursions(t)) > 50


# -- property tests ---------------------------------------------------------------------------
# A small label alphabet, shared by phrases and POS tags, so left recursion, selected extra pairs,
# unary loops and POS/phrase clashes are all frequent.
_LABELS = st.sampled_from(["A", "B", "C"])
_leaves = st.builds(lambda label, word: Tree(label, (word,)), st.sampled_from(["A", "x", "y"]), st.sampled_from("uvw"))
small_trees = st.recursive(
    _leaves,
    lambda kids: st.builds(lambda label, ch: Tree(label, tuple(ch)), _LABELS, st.lists(kids, min_size=1, max_size=3)),
    max_leaves=10,
)
configs = st.builds(
    FslcConfig,
    st.booleans(),
    st.lists(st.tuples(_LABELS, _LABELS), max_size=3).map(lambda ps: tuple(sorted(set(ps)))),
)


@given(small_trees, configs)
def test_transform_property_round_trip(tree: Tree, config: FslcConfig) -> None:
    """Random trees round-trip through transform/inverse and keep their words and tags; no node's first child is a
    slash category (no chain of the grammar could hold it), and a selected pair is left only where flattening it
    would make one (its parent's second child is a slash category: a rewrite repeated through a unary left child)."""
    out = fslc_transform(tree, config)
    assert fslc_detransform(out) == collapse_unary_loops(tree)
    assert out.pos() == tree.pos()
    for node in out.subtrees():
        first = node.children[0]
        assert not (isinstance(first, Tree) and first.slash is not None), to_bracket(out)
        if (isinstance(first, Tree) and not first.is_preterminal and node.slash is None and len(node.children) > 1
                and config.selects(node.label, first.label)):
            second = node.children[1]
            assert isinstance(second, Tree) and second.slash is not None, to_bracket(out)


def test_transform_config_json_round_trip() -> None:
    """FslcConfig survives to_json/from_json (it is stored in model headers)."""
    for config in (FslcConfig(), LEFT_ONLY, FslcConfig(False, (("A", "B"), ("C", "D")))):
        assert FslcConfig.from_json(config.to_json()) == config


def test_transform_does_not_repeat_the_rewrite_into_a_slash_first_child() -> None:
    """C -> B(unary) A with (C, B) and (B, A) selected: the rewritten B -> A C/B was rewritten again into
    ``(A (A u) (A u) (B/A (C/B (A u))))``, whose B/A begins with a slash category, which no chain of the grammar may
    hold (training stopped on the grammar's slash rule). The rewrite stops there; the tree still inverts."""
    config = FslcConfig(False, (("B", "A"), ("C", "B")))
    tree = parse_tree("(C (B (A (A u) (A u))) (A u))")
    out = fslc_transform(tree, config)
    assert to_bracket(out) == "(B (A (A u) (A u)) (C/B (A u)))"
    assert list(selected_left_recursions(out, config)) == [("B", "A")]
    assert fslc_detransform(out) == tree


@pytest.mark.parametrize("pair", [("", ""), ("S X", "NP"), ("SINV",), ("SINV", 3)])
def test_fslc_config_refuses_a_pair_that_is_not_two_labels(pair: tuple) -> None:
    """``grammar table1 --pair '' ''`` ran with a pair that flattens nothing; a label is never empty or spaced."""
    from glmnlp.errors import ConfigError

    with pytest.raises(ConfigError, match="an FSLC pair is two labels without spaces"):
        FslcConfig(extra_pairs=(pair,))  # type: ignore[arg-type]


def test_grammar_table1_refuses_an_empty_pair_as_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    from glmnlp.cli import main

    assert main(["grammar", "table1", "--pair", "", ""]) == 2
    assert "Invalid value for '--pair': an FSLC pair is two labels without spaces" in capsys.readouterr().err


def test_grammar_table1_refuses_a_pair_of_labels_the_trees_do_not_have(capsys: pytest.CaptureFixture[str]) -> None:
    """``--pair FOO BAR`` printed "FSLC: left recursion + FOO/BAR" over a table that flattened nothing (the same as
    with no pair); a label no training node has is a usage error naming it."""
    from glmnlp.cli import main

    assert main(["grammar", "table1", "--pair", "FOO", "S", "--pair", "SINV", "BAR"]) == 2
    assert "Invalid value for '--pair': BAR, FOO: no node of the training trees has these labels" in \
        capsys.readouterr().err


def test_grammar_table1_names_a_pair_given_twice_once(capsys: pytest.CaptureFixture[str]) -> None:
    """``--pair S NP --pair S NP`` printed "FSLC: left recursion + S/NP, S/NP": one pair, flattened once."""
    from glmnlp.cli import main

    assert main(["grammar", "table1", "--pair", "S", "NP", "--pair", "VP", "VB", "--pair", "S", "NP"]) == 0
    assert "FSLC: left recursion + S/NP, VP/VB; gold POS tags\n" in capsys.readouterr().out


@pytest.mark.parametrize("text", ["(TOP (S (S (SINV (S (VBD w)) (NN w))) (NN w)))",
                                  "(TOP (S (S (SINV (S (VBD a) (NN b)) (VBD c))) (CC d) (S (NN e))))"])
def test_a_rewrite_repeated_through_a_flattened_sinv_keeps_the_tree_and_the_slash_rule(text: str) -> None:
    """An S over a unary S over an SINV that begins with an S: with the default pairs, the rewrite repeated through
    the unary S made a slash category the first child of a slash node and named it after the SINV's new label, so
    the inverse failed and ``parser train`` stopped on a grammar "breaking the slash-category rule"."""
    from glmnlp.parser.grammar import Grammar

    tree = parse_tree(text)
    transformed = fslc_transform(tree)
    assert fslc_detransform(transformed) == collapse_unary_loops(tree)
    assert Grammar.induce([transformed], long_chain_min_count=1).slash_rule_violation() is None
