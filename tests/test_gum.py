"""GUM constituency reader: a real excerpt (tests/data/gum, CC BY 4.0, see its README), round trips, errors."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from glmnlp.errors import InputError, TreeSyntaxError
from glmnlp.treebank.gum import clean_gum_tree, gum_files, gum_trees, read_gum, read_gum_file
from glmnlp.treebank.preprocess import clean_tree
from glmnlp.treebank.trees import Tree, parse_tree, to_bracket, to_pretty

from strategies import trees

EXCERPT = Path(__file__).parent / "data" / "gum" / "GUM_excerpt.ptb"


def test_gum_excerpt_reads_every_tree_cleaned() -> None:
    """13 trees (one-line and pretty-printed, a word alone on its line); ROOT -> TOP, function labels gone."""
    cleaned = read_gum_file(EXCERPT)
    raw = read_gum_file(EXCERPT, clean=False)
    assert len(cleaned) == len(raw) == 13
    assert all(t.label == "ROOT" and len(t.children) == 1 for t in raw)
    assert all(t.label == "TOP" and len(t.children) == 1 for t in cleaned)
    assert to_bracket(cleaned[1]) == "(TOP (NP (NNP Pablo) (NNP Ruiz) (NNP Fabo)))"
    assert to_bracket(cleaned[0]).startswith("(TOP (NP (NP (JJ Distant) (NN Rhythm)) (: :) (NP (NP (JJ Automatic)")
    assert "(PP (IN on)" in to_bracket(cleaned[0])  # was PP-TMP
    labels = {node.label for tree in cleaned for node in tree.subtrees()}
    assert not {label for label in labels if "-" in label[1:-1] and label not in ("-LRB-", "-RRB-")}
    assert {"NP-SBJ", "PP-TMP"} <= {node.label for tree in raw for node in tree.subtrees()}
    last = cleaned[-1].leaves()
    assert last[:6] == ["He", "was", "not", "baptized", "until", "about"] and "hermit" in last
    assert [t.leaves() for t in cleaned] == [t.leaves() for t in raw]
    assert cleaned == [clean_tree(Tree("", t.children)) for t in raw]


def test_gum_split_folders(tmp_path: Path) -> None:
    """gum_trees reads root/split/*.ptb in name order; no folder or no file is an error naming it."""
    (tmp_path / "dev").mkdir()
    text = EXCERPT.read_text(encoding="utf-8")
    (tmp_path / "dev" / "b.ptb").write_text("(ROOT (NP (NN b)))\n", encoding="utf-8")
    (tmp_path / "dev" / "a.ptb").write_text(text, encoding="utf-8")
    (tmp_path / "dev" / "notes.txt").write_text("not a tree", encoding="utf-8")
    got = gum_trees(tmp_path, "dev")
    assert len(got) == 14 and to_bracket(got[-1]) == "(TOP (NP (NN b)))"
    assert [p.name for p in gum_files(tmp_path / "dev")] == ["a.ptb", "b.ptb"]
    with pytest.raises(InputError, match="not a folder"):
        gum_trees(tmp_path, "train")
    (tmp_path / "train").mkdir()
    with pytest.raises(InputError, match="no .ptb files"):
        gum_trees(tmp_path, "train")
    with pytest.raises(ValueError, match="unknown GUM split"):
        gum_trees(tmp_path, "test")  # type: ignore[arg-type]


_SEPARATORS = st.sampled_from(["\n\n", "\n", "", " ", "\n\n\n", "\r\n\r\n"])


@given(st.lists(trees, min_size=1, max_size=4), st.data())
def test_gum_round_trip_any_layout(phrases: list[Tree], data: st.DataObject) -> None:
    """Trees written as GUM writes them (ROOT over one phrase, pretty or one line, any separator) read back
    exactly, and cleaned they equal the WSJ cleaning of the same tree in an .mrg wrapper."""
    rooted = [Tree("ROOT", (phrase,)) for phrase in phrases]
    parts = []
    for tree in rooted:
        parts.append(to_pretty(tree) if data.draw(st.booleans()) else to_bracket(tree))
        parts.append(data.draw(_SEPARATORS))
    text = "".join(parts)
    assert read_gum(text, clean=False) == rooted
    try:
        expected = [clean_tree(Tree("", (phrase,))) for phrase in phrases]
    except InputError:  # a phrase made only of -NONE- elements: the reader rejects it too
        with pytest.raises(TreeSyntaxError):
            read_gum(text)
        return
    assert read_gum(text) == expected
    assert [clean_gum_tree(t) for t in rooted] == expected


@pytest.mark.parametrize(
    ("text", "line", "fragment"),
    [
        ("(ROOT (NP (NN a)))\n\n(S (NP (NN b)))\n", 3, "tree root is 'S', expected 'ROOT'"),
        ("(ROOT (NP (NN a)))\n\n(ROOT\n  (NP (NN a))\n  (NP (NN b)))\n", 3, "ROOT bracket holds 2 children"),
        ("(ROOT (NP (NN a)))\n\n\n(ROOT a)\n", 4, "ROOT bracket holds a word"),
        ("(ROOT (NP (NN a)))\n(ROOT\n  (NP (NN a))\n", 2, "unbalanced '('"),
        ("(ROOT (NP (NN a))))\n", 1, "unbalanced ')'"),
        ("(ROOT (NP (NN a)))\n\n(ROOT (NP (-NONE- *)))\n", 3, "only empty (-NONE-) elements"),
        ("(ROOT (NP (NN a)))\n\n( (S (NN b)))\n", 3, "tree root is '', expected 'ROOT'"),
    ],
)
def test_gum_errors_name_file_and_line(tmp_path: Path, text: str, line: int, fragment: str) -> None:
    """A bad tree raises an error with file:line of the tree (or the bad bracket) and the reason."""
    path = tmp_path / "bad.ptb"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(TreeSyntaxError) as info:
        read_gum_file(path)
    assert info.value.source == str(path) and info.value.line == line
    assert fragment in str(info.value)


def test_gum_empty_or_unreadable_file(tmp_path: Path) -> None:
    """A file without trees, a missing file or a non-UTF-8 file is an InputError naming it."""
    empty = tmp_path / "empty.ptb"
    empty.write_text("\n\n", encoding="utf-8")
    with pytest.raises(InputError, match="empty.ptb: no tree in file"):
        read_gum_file(empty)
    with pytest.raises(InputError, match="cannot read file"):
        read_gum_file(tmp_path / "missing.ptb")
    latin = tmp_path / "latin.ptb"
    latin.write_bytes(b"(ROOT (NP (NN a)))\n(ROOT (NP (NN caf\xe9)))\n")
    with pytest.raises(InputError, match=r"latin.ptb:2: not valid UTF-8 text \(byte 0xe9 at column 18\)"):
        read_gum_file(latin)


def test_clean_gum_tree_refuses_other_roots() -> None:
    with pytest.raises(InputError, match="expected 'ROOT'"):
        clean_gum_tree(parse_tree("(TOP (NP (NN a)))"))
