"""EVALB --strip-punct: tokens without a letter or digit are removed from both sides before scoring."""

from __future__ import annotations

import dataclasses
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from glmnlp.cli import main
from glmnlp.treebank.evalb import (
    COLLINS_PARAMS,
    STATUS_ERROR,
    STATUS_OK,
    is_punct_word,
    read_params,
    score_files,
    score_lines,
    score_trees,
)
from glmnlp.treebank.trees import Tree, parse_tree, to_bracket

STRIP = dataclasses.replace(COLLINS_PARAMS, strip_punct=True)
EVALB = Path(__file__).parent / "data" / "evalb"

# GUM tags a hyphen HYPH; a PTB-trained parser tags it ':' (a COLLINS.prm DELETE_LABEL)
GOLD = "(TOP (S (NP (NN Eye) (HYPH -) (NN tracking)) (VP (VBZ works)) (. .)))"
TEST = "(TOP (S (NP (NN Eye)) (: -) (NP (NN tracking)) (VP (VBZ works)) (. .)))"


def test_is_punct_word() -> None:
    for word in ("-", "--", "...", ",", "``", "''", "(", "[", "%", "$", "—", "!?"):
        assert is_punct_word(word), word
    for word in ("-LRB-", "1/2", "3.5", "n't", "e-mail", "é", "²", "U.S.", "a"):
        assert not is_punct_word(word), word


def test_strip_punct_removes_tag_disagreement_on_punctuation() -> None:
    """Without it the differing punctuation tag is a length-mismatch error sentence; with it, scored."""
    plain = score_lines([GOLD], [TEST]).sentences[0]
    assert plain.status == STATUS_ERROR and plain.reason == "Length unmatch (4|3)"
    row = score_lines([GOLD], [TEST], STRIP).sentences[0]
    assert row.status == STATUS_OK
    assert (row.length, row.words, row.correct_tags) == (3, 3, 3)
    # gold: S(0,3) NP(0,2) VP(2,3); test: S(0,3) NP(0,1) NP(1,2) VP(2,3)
    assert (row.matched, row.gold_brackets, row.test_brackets, row.crossing) == (2, 3, 4, 0)


def test_strip_punct_removed_tokens_leave_length_and_spans() -> None:
    """A 41-token sentence with 2 punctuation tokens has length 39 (so counts in len<=40); a bracket over
    punctuation only has an empty span and disappears."""
    words = " ".join(f"(NN w{i})" for i in range(39))
    gold = parse_tree(f"(TOP (S (NP {words}) (PRN (HYPH --)) (NFP ...)))")
    result = score_trees([gold], [gold], STRIP)
    row = result.sentences[0]
    assert (row.length, row.words, row.gold_brackets, row.matched) == (39, 39, 2, 2)
    assert result.cut.sentences == 1
    plain = score_trees([gold], [gold]).sentences[0]
    assert (plain.length, plain.words, plain.gold_brackets) == (41, 41, 3)


def test_strip_punct_lines_equal_trees_and_files(tmp_path: Path) -> None:
    """The line reader, the tree reader and the file scorer strip alike."""
    gold_lines = (EVALB / "sample_test.gold").read_text().splitlines()
    test_lines = (EVALB / "sample_test.roark").read_text().splitlines()
    by_lines = score_lines(gold_lines, test_lines, STRIP)
    gold_trees = [parse_tree(line) for line in gold_lines]
    test_trees = [parse_tree(line) if line.strip() else None for line in test_lines]
    assert score_trees(gold_trees, test_trees, STRIP).sentences == by_lines.sentences
    assert score_files(EVALB / "sample_test.gold", EVALB / "sample_test.roark", STRIP).sentences == by_lines.sentences
    plain = score_lines(gold_lines, test_lines)
    assert by_lines.total.words < plain.total.words  # '%', '$' and '--' tokens are gone
    assert by_lines.total.fmeasure != plain.total.fmeasure


def _without_punct(tree: Tree) -> Tree | None:
    """Independent reference: the tree with punctuation leaves and then-empty constituents removed."""
    if tree.is_preterminal:
        return None if is_punct_word(tree.children[0]) else tree  # type: ignore[arg-type]
    kids = [k for k in (_without_punct(c) for c in tree.children) if k is not None]  # type: ignore[arg-type]
    return Tree(tree.label, tuple(kids)) if kids else None


_WORDS = ("a", "b", ",", "-", "1", "...", "-LRB-", "c")
_TAGS = ("NN", ",", ":", "HYPH", "CD", ".", "NFP")
_PHRASES = ("S", "NP", "VP", "PRN", "ADVP", "PRT")


@st.composite
def _tree(draw: st.DrawFn, leaves: list[tuple[str, str]]) -> Tree:
    # every step joins at least two nodes (so the loop ends within len(leaves) - 1 steps; a step that
    # joined one node could repeat until the example outgrew Hypothesis's budget), and may put a
    # unary node above the join
    nodes: list[Tree] = [Tree(tag, (word,)) for word, tag in leaves]
    while len(nodes) > 1:
        i = draw(st.integers(0, len(nodes) - 2))
        j = draw(st.integers(i + 2, len(nodes)))
        joined = Tree(draw(st.sampled_from(_PHRASES)), tuple(nodes[i:j]))
        if draw(st.booleans()):
            joined = Tree(draw(st.sampled_from(_PHRASES)), (joined,))
        nodes[i:j] = [joined]
    return Tree("TOP", (Tree("S", (nodes[0],)),))


@given(st.data(), st.lists(st.sampled_from(_WORDS), min_size=1, max_size=8))
def test_strip_punct_equals_scoring_trees_without_punctuation(data: st.DataObject, words: list[str]) -> None:
    """Scoring with strip_punct = plain scoring of the trees with punctuation tokens pruned (any tags)."""
    if all(is_punct_word(w) for w in words):
        words = ["a", *words]
    gold_leaves = [(w, data.draw(st.sampled_from(_TAGS))) for w in words]
    test_leaves = [(w, data.draw(st.sampled_from(_TAGS))) for w in words]
    gold, test = data.draw(_tree(gold_leaves)), data.draw(_tree(test_leaves))
    stripped = score_trees([gold], [test], STRIP).sentences[0]
    pruned = score_trees([_without_punct(gold)], [_without_punct(test)]).sentences[0]  # type: ignore[list-item]
    assert stripped == pruned
    assert stripped.length == sum(not is_punct_word(w) for w in words)


def test_evalb_cli_strip_punct(tmp_path: Path, capsys) -> None:
    """`glmnlp evalb --strip-punct` scores the GUM-style pair that plain evalb rejects; a .prm keeps it off."""
    gold, test = tmp_path / "gold", tmp_path / "test"
    gold.write_text(GOLD + "\n")
    test.write_text(TEST + "\n")
    assert main(["evalb", str(gold), str(test), "--summary-only"]) == 0
    out = capsys.readouterr()
    assert "1 : Length unmatch (4|3)" in out.err and "Number of Error sentence  =      1" in out.out
    assert main(["evalb", "--strip-punct", str(gold), str(test), "--summary-only"]) == 0
    out = capsys.readouterr()
    assert out.err == "" and "Number of Valid sentence  =      1" in out.out
    assert "Bracketing Recall         =  66.67" in out.out and "Bracketing Precision      =  50.00" in out.out
    assert main(["evalb", "--strip-punct", "-p", str(EVALB / "COLLINS.prm"), str(gold), str(test)]) == 0
    assert "Number of Valid sentence  =      1" in capsys.readouterr().out
    assert read_params(EVALB / "COLLINS.prm").strip_punct is False
    assert to_bracket(parse_tree(GOLD)) == GOLD
