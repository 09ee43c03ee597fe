"""Treebank cleaning: byte-exact reproduction of the reference gold files, hand-worked cases, oracles."""

from __future__ import annotations

from importlib import resources
from pathlib import Path

import pytest
from hypothesis import given

from glmnlp.errors import InputError
from glmnlp.treebank.preprocess import clean_label, clean_tree, strip_empty, tagged_words
from glmnlp.treebank.trees import Tree, parse_tree, read_tree_file, to_bracket

from strategies import trees_with_empties


def _mrg(number: int) -> Path:
    return Path(str(resources.files("glmnlp").joinpath("data", "ptb_sample", f"wsj_{number:04d}.mrg")))


@pytest.mark.parametrize(("first", "last", "gold"), [(160, 179, "sample_dev.gold"), (180, 199, "sample_test.gold")])
def test_preprocess_reproduces_gold_files_byte_for_byte(test_data: Path, first: int, last: int, gold: str) -> None:
    """Cleaning WSJ files first..last and writing one tree per line gives the reference gold file exactly."""
    text = "".join(
        to_bracket(clean_tree(tree)) + "\n" for n in range(first, last + 1) for tree in read_tree_file(_mrg(n))
    )
    assert text.encode("utf-8") == (test_data / "evalb" / gold).read_bytes()


@pytest.mark.parametrize(
    ("label", "expected"),
    [
        ("NP-SBJ-1", "NP"),
        ("PP-LOC=2", "PP"),
        ("NP-SBJ=1-3", "NP"),
        ("ADVP-LOC-PRD-TPC-1", "ADVP"),
        ("S-TPC-1", "S"),
        ("NP=3", "NP"),
        ("ADVP|PRT", "ADVP"),
        ("-LRB-", "-LRB-"),
        ("-RRB-", "-RRB-"),
        ("-NONE-", "-NONE-"),
        ("-LCB-", "-LCB-"),
        ("PRP$", "PRP$"),
        ("WHNP-260", "WHNP"),
        (",", ","),
        ("TOP", "TOP"),
    ],
)
def test_preprocess_clean_label_cases(label: str, expected: str) -> None:
    """Function tags and indices go; bracket tokens stay; A|B resolves to A."""
    assert clean_label(label) == expected


@pytest.mark.parametrize(("label", "expected"), [
    ("V-FIN", "V-FIN"), ("$-LRB-", "$-LRB-"), ("NN=X", "NN=X"), ("ADJ|PRED", "ADJ"), ("-LRB-", "-LRB-"),
    ("PRP$", "PRP$"),
])
def test_preprocess_clean_label_keeps_a_pos_tag_whole_but_its_alternatives(label: str, expected: str) -> None:
    """``data --clean`` cut POS tags as function-tagged phrases: STTS ``$(`` (written ``$-LRB-``) became ``$`` and
    ``V-FIN`` and ``V-INF`` both ``V``, without a word, and the parser refused them uncleaned. The Penn Treebank's
    tags carry no function tags; a POS keeps its label but for an annotator's alternative."""
    assert clean_label(label, pos=True) == expected
    tree = parse_tree(f"(S-TPC (NP-SBJ ({label} w)) (VP=2 (V-FIN x)))")
    assert clean_tree(tree) == parse_tree(f"(TOP (S (NP ({expected} w)) (VP (V-FIN x))))")


def test_preprocess_clean_tree_hand_worked_example() -> None:
    """A WSJ-style tree with traces, a null complementiser and function tags, cleaned by hand."""
    raw = parse_tree(
        """( (S (NP-SBJ-1 (NNS Investors)) (VP (VBD said)
              (SBAR (-NONE- 0) (S (NP-SBJ (-NONE- *T*-1)) (VP (VBD sold) (NP (-NONE- *))
              (ADVP|PRT (RB out)) (PP-TMP=2 (-LRB- -LRB-) (NN today) (-RRB- -RRB-))))))
              (. .)) )"""
    )
    expected = (
        "(TOP (S (NP (NNS Investors)) (VP (VBD said) (SBAR (S (VP (VBD sold) (ADVP (RB out)) "
        "(PP (-LRB- -LRB-) (NN today) (-RRB- -RRB-)))))) (. .)))"
    )
    assert to_bracket(clean_tree(raw)) == expected


def test_preprocess_keeps_same_label_unary_chains() -> None:
    """(NP (NP x)) left behind by empty-element removal is kept as it is (as in the gold files)."""
    raw = parse_tree("( (S (NP-SBJ (NP (NNS investors)) (SBAR (-NONE- 0) (S (-NONE- *T*-1)))) (VP (VBD left))) )")
    assert to_bracket(clean_tree(raw)) == "(TOP (S (NP (NP (NNS investors))) (VP (VBD left))))"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("( (S (NN x)) )", "(TOP (S (NN x)))"),
        ("(TOP (S (NN x)))", "(TOP (S (NN x)))"),
        ("(S (NN x))", "(TOP (S (NN x)))"),
        ("(S-HLN (NN x))", "(TOP (S (NN x)))"),
        ("(NN x)", "(TOP (NN x))"),
        ("(TOP (TOP (S (NN x))))", "(TOP (TOP (S (NN x))))"),  # one root to the parser (unary loops collapse)
    ],
)
def test_preprocess_root_is_unary_top(text: str, expected: str) -> None:
    """The .mrg wrapper becomes TOP, TOP stays, any other root is wrapped."""
    assert to_bracket(clean_tree(parse_tree(text))) == expected


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("( (S (NN x)) (S (NN y)) )", "has 2 children"),
        ("(TOP (S (NN x)) (. .))", "has 2 children"),
        ("( (S (NP (-NONE- *)) (VP (-NONE- *T*-1))) )", "only empty"),
        ("(-NONE- *)", "only empty"),
        ("(TOP x)", "is over the word 'x'"),
        ("( (S (|PRT (RP up))) )", "label '|PRT' has no category"),
        ("(|PRT (RP up))", "label '|PRT' has no category"),
        ("( (S (NP (DT a)) (-NONE- (S the))) )", "-NONE- is over a phrase"),
        ("(<END> the)", "label '<END>' below the root"),
        ("(S (<NULL> x))", "label '<NULL>' below the root"),
        ("( (S (NP (TOP x))) )", "label 'TOP' below the root"),
        ("(TOP (S (TOP-1 (NN x))))", "label 'TOP' below the root"),
    ],
)
def test_preprocess_rejects_unusable_trees(text: str, fragment: str) -> None:
    """A multi-child root, TOP over a word, a label without a category, -NONE- over a phrase, a label the parser
    keeps for itself below the root or an all-empty tree is an error, never silently repaired (each would give a tree
    the parser cannot use or that does not read back once written)."""
    with pytest.raises(InputError) as info:
        clean_tree(parse_tree(text))
    assert fragment in info.value.reason


def _oracle_pairs(tree: Tree) -> list[tuple[str, str]]:
    """Brute force: (word, tag) of every preterminal not labelled -NONE-, left to right."""
    if tree.is_preterminal:
        return [] if tree.label == "-NONE-" else [(tree.children[0], tree.label)]  # type: ignore[list-item]
    return [pair for child in tree.children for pair in _oracle_pairs(child)]  # type: ignore[arg-type]


def _reserved_below_root(stripped: Tree | None) -> bool:
    """Brute force: whether a label the parser keeps for itself (TOP, <END>, <NULL>, once cleaned) is below the
    cleaned tree's root; a TOP or wrapper root's single child and a unary chain of TOP under it are the root."""
    if stripped is None:
        return False
    node = stripped
    if node.label in ("", "TOP"):
        if len(node.children) != 1 or isinstance(node.children[0], str):
            return False  # refused for another reason
        node = node.children[0]  # type: ignore[assignment]
    while clean_label(node.label) == "TOP" and len(node.children) == 1 and isinstance(node.children[0], Tree):
        node = node.children[0]
    return any(clean_label(n.label) in ("TOP", "<END>", "<NULL>") for n in node.subtrees())


def _labels_ok(tree: Tree) -> bool:
    return all(clean_label(node.label, pos=node.is_preterminal) == node.label for node in tree.subtrees())


@given(trees_with_empties)
def test_preprocess_clean_tree_properties(tree: Tree) -> None:
    """Words/tags survive exactly minus -NONE-; no empties or empty nodes; labels clean; idempotent."""
    pairs = _oracle_pairs(tree)
    stripped = strip_empty(tree)
    no_category = any(not clean_label(n.label) for n in tree.subtrees() if n is not tree or n.label not in ("", "TOP"))
    top_over_word = tree.label == "TOP" and tree.is_preterminal
    none_over_phrase = any(n.label == "-NONE-" and not n.is_preterminal for n in tree.subtrees())
    if not pairs or no_category or top_over_word or none_over_phrase or _reserved_below_root(stripped) or (
        tree.label == "TOP" and stripped is not None and len(stripped.children) > 1
    ):
        with pytest.raises(InputError):
            clean_tree(tree)
        return
    cleaned = clean_tree(tree)
    assert cleaned.label == "TOP" and len(cleaned.children) == 1
    assert [w for w, _ in cleaned.pos()] == [w for w, _ in pairs]
    assert [clean_label(t, pos=True) for _, t in pairs] == cleaned.tags()  # a POS keeps all but alternatives
    assert all(node.children for node in cleaned.subtrees())
    assert "-NONE-" not in cleaned.tags()
    assert _labels_ok(cleaned)
    assert clean_tree(cleaned) == cleaned
    assert tagged_words(tree) == (tuple(w for w, _ in pairs), tuple(t for _, t in pairs))


def test_preprocess_strip_empty_shares_untouched_subtrees() -> None:
    """strip_empty returns the very same object when there is nothing to remove (no needless copies)."""
    tree = parse_tree("(S (NP (DT the) (NN dog)) (VP (VBD barked)))")
    assert strip_empty(tree) is tree
    with_trace = parse_tree("(S (NP (DT the) (NN dog)) (VP (VBD barked) (NP (-NONE- *))))")
    stripped = strip_empty(with_trace)
    assert stripped is not None and stripped.children[0] is with_trace.children[0]
    assert to_bracket(stripped) == "(S (NP (DT the) (NN dog)) (VP (VBD barked)))"


@pytest.mark.parametrize(("raw", "cleaned"), [
    ("(ROOT (S (NN x)))", "(TOP (S (NN x)))"),  # Stanford's and GUM's root bracket
    ("( (ROOT (S (NN x))))", "(TOP (S (NN x)))"),  # the same in the .mrg wrapper: one root
    ("(ROOT (S (NN x)) (-NONE- *))", "(TOP (S (NN x)))"),  # one phrase once cleaned
    ("(ROOT (NP (NN a)) (VP (VB b)))", "(TOP (ROOT (NP (NN a)) (VP (VB b))))"),  # a phrase of its own: wrapped
    ("(TOP (ROOT (S (NN x))))", "(TOP (ROOT (S (NN x))))"),  # a TOP root keeps what is under it
    ("(S1 (S (NN x)))", "(TOP (S1 (S (NN x))))"),
])
def test_preprocess_a_root_bracket_named_root_becomes_top(raw: str, cleaned: str) -> None:
    """A ``ROOT`` root over one phrase is the root bracket (wrapped as a phrase, every parse of a model trained on it
    had a ``ROOT`` bracket more); one over several phrases is a phrase, wrapped as any other root (relabelled, it
    was refused as a root bracket of two phrases)."""
    assert to_bracket(clean_tree(parse_tree(raw))) == cleaned


@pytest.mark.parametrize("depth", [2_000, 20_000])
def test_a_tree_too_deep_to_walk_is_an_input_error(depth: int) -> None:
    """A tree built in Python thousands of levels deep (the reader refuses one over 200) was a RecursionError from
    inside clean_tree; it is an InputError that says why, as the writers' ValueError does."""
    tree = Tree("NN", ("x",))
    for _ in range(depth):
        tree = Tree("NP", (tree,))
    with pytest.raises(InputError, match="nested too deep to be cleaned"):
        clean_tree(Tree("TOP", (tree,)))
