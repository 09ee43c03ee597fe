"""Trees to and from ``nltk.Tree`` (glmnlp.treebank.nltk_trees): what NLTK holds as a tree and a glmnlp tree cannot
is refused naming the node, as the bracket reader refuses it, instead of losing words; the round trip is exact."""

from __future__ import annotations

import nltk
import pytest
from hypothesis import given, settings

import glmnlp
from glmnlp.errors import TreeSyntaxError
from glmnlp.treebank.nltk_trees import tree_from_nltk, tree_to_nltk
from glmnlp.treebank.preprocess import clean_tree
from strategies import trees


def _deep(levels: int) -> nltk.Tree:
    tree = nltk.Tree("NN", ["x"])
    for _ in range(levels - 1):
        tree = nltk.Tree("NP", [tree])
    return tree


@pytest.mark.parametrize(("tree", "message"), [
    # NLTK's own reader takes a word beside subtrees: "barked" was dropped from the leaves, the POS and a Sentence
    (nltk.Tree.fromstring("(S (NP (DT the) (NN dog)) barked)"), "node 'S' has a word beside subtrees ('barked')"),
    (nltk.Tree("S", ["the", "dog", "barked"]), "node 'S' has several words"),  # had no leaves at all
    (nltk.Tree("S", []), "node 'S' has no children"),
    (nltk.Tree("S", [nltk.Tree("NP SBJ", ["x"])]), "label is a non-empty string without whitespace"),
    (nltk.Tree("S", [nltk.Tree("", [nltk.Tree("NN", ["x"])])]), "got ''"),  # an unlabelled node below the root
    (nltk.Tree(None, [nltk.Tree("NN", ["x"])]), "got a NoneType"),  # became the label "None"
    (nltk.Tree("S", [nltk.Tree("NN", ["New York"])]), "node 'NN' has the word 'New York'"),
    (nltk.Tree("S", [nltk.Tree("NN", [""])]), "node 'NN' has the word ''"),
    (nltk.Tree("S", [("New York", "NNP")]), "node 'NNP' has the word 'New York'"),
    (nltk.Tree("S", [("dog", "")]), "got ''"),  # a (word, tag) leaf's tag is a label like any other
    (nltk.Tree("S", [("dog", "N N")]), "got 'N N'"),
    (nltk.Tree("", ["dog"]), "the unlabelled root has the word 'dog'"),  # written "( dog)", which the reader refuses
    (nltk.Tree("", [nltk.Tree("NN", ["x"]), "dog"]), "the unlabelled root has the word 'dog'"),
    (nltk.Tree(3, [nltk.Tree("NN", ["x"])]), "a node's label is a string, got a int"),
    (_deep(201), "nested more than 200 deep"),  # comparing two such trees was a RecursionError
    (_deep(600), "nested more than 200 deep"),  # converting one was
])
def test_a_tree_glmnlp_cannot_hold_is_refused_naming_the_node(tree: nltk.Tree, message: str) -> None:
    with pytest.raises(TreeSyntaxError, match="^<nltk.Tree>: .*" + message.replace("(", r"\(").replace(")", r"\)")):
        tree_from_nltk(tree)


def test_what_the_reader_takes_converts() -> None:
    """The deepest tree the reader takes, an unlabelled root (a treebank file's), brackets kept verbatim."""
    assert tree_from_nltk(_deep(200)) == glmnlp.parse_tree(glmnlp.to_bracket(tree_from_nltk(_deep(200))))
    root = tree_from_nltk(nltk.Tree("", [nltk.Tree("S", [nltk.Tree("-LRB-", ["("]), ("x", "NN")])]))
    assert root.label == "" and root.leaves() == ["(", "x"] and root.pos() == [("(", "-LRB-"), ("x", "NN")]


def test_a_cfg_parser_s_tree_is_labelled_by_its_nonterminals() -> None:
    grammar = nltk.CFG.fromstring("S -> NP VP\nNP -> 'dogs'\nVP -> 'bark'")
    (parsed,) = nltk.ChartParser(grammar).parse(["dogs", "bark"])
    assert glmnlp.to_bracket(tree_from_nltk(parsed)) == "(S (NP dogs) (VP bark))"
    labelled = nltk.Tree(nltk.grammar.Nonterminal("S"), [nltk.Tree(nltk.grammar.Nonterminal("NN"), ["x"])])
    assert glmnlp.to_bracket(tree_from_nltk(labelled)) == "(S (NN x))"


def test_an_nltk_tree_where_a_glmnlp_tree_is_needed_is_named_as_such() -> None:
    """It said "expected a Tree, got Tree" (to_bracket and the drawings) or was an AttributeError (tree_to_nltk,
    clean_tree)."""
    theirs = nltk.Tree.fromstring("(S (NN x))")
    for call in (glmnlp.to_bracket, glmnlp.to_pretty, tree_to_nltk, clean_tree, glmnlp.render_svg,
                 glmnlp.Sentence.from_tree):
        with pytest.raises(TypeError, match=r"^expected a glmnlp Tree, got an nltk\.tree\.tree\.Tree \(tree_from_nltk "
                                            r"converts it\)$"):
            call(theirs)
    with pytest.raises(TypeError, match=r"^expected a Tree, got str \(parse_tree reads a bracket string\)$"):
        tree_to_nltk("(S (NN x))")  # type: ignore[arg-type]


@settings(max_examples=200, deadline=None)
@given(trees)
def test_the_round_trip_through_nltk_is_exact(tree: glmnlp.Tree) -> None:
    assert tree_from_nltk(tree_to_nltk(tree)) == tree
