"""Property tests of the bracket reader/writer: random trees round-trip; mutated texts fail cleanly.

Every malformed text must raise TreeSyntaxError at the right line: never another exception, never a
(partial) tree. The expected lines come from independent oracles (a character-level bracket stack,
or the position of the inserted defect).
"""

from __future__ import annotations

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from glmnlp.errors import TreeSyntaxError
from glmnlp.treebank.trees import Tree, parse_tree, read_trees, to_bracket, to_pretty

from strategies import bracket_texts, rooted_trees, trees


def _line_at(text: str, position: int) -> int:
    return text.count("\n", 0, position) + 1


def _open_bracket_lines(text: str) -> list[int]:
    """Oracle: lines of the brackets still open at the end of ``text`` (character-level count)."""
    stack: list[int] = []
    line = 1
    for char in text:
        if char == "\n":
            line += 1
        elif char == "(":
            stack.append(line)
        elif char == ")" and stack:
            stack.pop()
    return stack


def _error_line(text: str) -> int:
    with pytest.raises(TreeSyntaxError) as info:
        list(read_trees(text, "m.mrg"))
    assert info.value.source == "m.mrg"
    assert info.value.line is not None
    return info.value.line


def _check_deletion_error(mutated: str, deleted_line: int) -> None:
    """The text before a deleted bracket is valid, so the reader fails at or after it, except that
    brackets left open at the end are reported where the innermost one opened (bracket-stack oracle)."""
    with pytest.raises(TreeSyntaxError) as info:
        list(read_trees(mutated, "m.mrg"))
    if info.value.reason.startswith("unbalanced '('"):
        assert info.value.line == _open_bracket_lines(mutated)[-1]
    else:
        assert info.value.line is not None and info.value.line >= deleted_line


@given(rooted_trees())
def test_trees_properties_bracket_round_trip(tree: Tree) -> None:
    """parse_tree(to_bracket(t)) == t for random trees, labels and words."""
    assert parse_tree(to_bracket(tree)) == tree


@given(rooted_trees())
def test_trees_properties_pretty_round_trip(tree: Tree) -> None:
    """parse_tree(to_pretty(t)) == t, and the pretty form has one line per preterminal at least."""
    text = to_pretty(tree)
    assert parse_tree(text) == tree
    assert text.count("\n") + 1 >= sum(1 for node in tree.subtrees() if node.is_preterminal)


@settings(max_examples=50)
@given(bracket_texts())
def test_trees_properties_multi_tree_text_round_trip(case: tuple[str, list[Tree]]) -> None:
    """A text of several trees in mixed layouts reads back as exactly those trees, in order."""
    text, expected = case
    assert list(read_trees(text)) == expected


@given(trees)
def test_trees_properties_leaves_and_pos_agree(tree: Tree) -> None:
    """leaves(), pos() and tags() agree with a direct recursive walk (brute-force oracle)."""

    def walk(node: Tree) -> list[tuple[str, str]]:
        if node.is_preterminal:
            return [(node.children[0], node.label)]  # type: ignore[list-item]
        return [pair for child in node.children for pair in walk(child)]  # type: ignore[arg-type]

    pairs = walk(tree)
    assert tree.pos() == pairs
    assert tree.leaves() == [w for w, _ in pairs]
    assert tree.tags() == [t for _, t in pairs]


@settings(max_examples=50)
@given(bracket_texts(), st.integers(min_value=1, max_value=3))
def test_trees_properties_extra_close_bracket_line(case: tuple[str, list[Tree]], newlines: int) -> None:
    """A stray ')' after valid trees is reported on its own line."""
    text = case[0] + "\n" * newlines + ")"
    assert _error_line(text) == _line_at(text, len(text) - 1)


@settings(max_examples=50)
@given(bracket_texts(), st.data())
def test_trees_properties_truncated_text_line(case: tuple[str, list[Tree]], data: st.DataObject) -> None:
    """Cutting a text inside a tree reports the innermost bracket left open, on its line."""
    text = case[0]
    cut = data.draw(st.integers(min_value=0, max_value=len(text)))
    prefix = text[:cut]
    still_open = _open_bracket_lines(prefix)
    assume(still_open)
    assert _error_line(prefix) == still_open[-1]


@settings(max_examples=50)
@given(bracket_texts(), st.data(), st.sampled_from(["()", "( )", "(\t)"]))
def test_trees_properties_inserted_empty_bracket_line(
    case: tuple[str, list[Tree]], data: st.DataObject, defect: str
) -> None:
    """An empty bracket inserted anywhere is an error on the line where it was inserted."""
    text = case[0]
    position = data.draw(st.integers(min_value=0, max_value=len(text)))
    mutated = text[:position] + defect + text[position:]
    assert _error_line(mutated) == _line_at(mutated, position)


@settings(max_examples=50)
@given(bracket_texts(), st.data(), st.sampled_from(["stray", "x", "-NONE-", "0"]))
def test_trees_properties_inserted_stray_word_line(
    case: tuple[str, list[Tree]], data: st.DataObject, word: str
) -> None:
    """A word inserted after any closing bracket (outside a tree, or after subtrees) fails on its line."""
    text = case[0]
    closes = [i + 1 for i, char in enumerate(text) if char == ")"]
    position = data.draw(st.sampled_from(closes))
    mutated = text[:position] + " " + word + " " + text[position:]
    assert _error_line(mutated) == _line_at(mutated, position)


@settings(max_examples=50)
@given(bracket_texts(), st.data())
def test_trees_properties_deleted_close_bracket_fails(case: tuple[str, list[Tree]], data: st.DataObject) -> None:
    """Deleting any ')' yields TreeSyntaxError at or after the deletion line, never a tree."""
    text = case[0]
    closes = [i for i, char in enumerate(text) if char == ")"]
    position = data.draw(st.sampled_from(closes))
    mutated = text[:position] + text[position + 1 :]
    _check_deletion_error(mutated, _line_at(text, position))


@settings(max_examples=50)
@given(bracket_texts(), st.data())
def test_trees_properties_deleted_open_bracket_fails(case: tuple[str, list[Tree]], data: st.DataObject) -> None:
    """Deleting any '(' yields TreeSyntaxError at or after the deletion line, never a tree."""
    text = case[0]
    opens = [i for i, char in enumerate(text) if char == "("]
    position = data.draw(st.sampled_from(opens))
    mutated = text[:position] + " " + text[position + 1 :]
    _check_deletion_error(mutated, _line_at(text, position))
