"""Tree reader/writer: round trips on the bundled sample, typed errors on malformed brackets."""

from __future__ import annotations

import re
from importlib import resources
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import trees

from glmnlp.errors import ConfigError, InputError, TreeSyntaxError
from glmnlp.treebank.trees import (
    Tree,
    parse_tree,
    read_tree_file,
    read_trees,
    read_trees_with_lines,
    to_bracket,
    to_pretty,
    write_trees,
)


def _sample_files():
    folder = resources.files("glmnlp") / "data" / "ptb_sample"
    return sorted(p for p in folder.iterdir() if p.name.endswith(".mrg"))


def test_trees_sample_round_trip_every_tree():
    """read -> write -> read is the identity on all 3,914 trees of the bundled sample, both layouts."""
    count = 0
    for path in _sample_files():
        for tree in read_tree_file(path):
            assert parse_tree(to_bracket(tree)) == tree
            assert parse_tree(to_pretty(tree)) == tree
            count += 1
    assert count == 3914


def test_trees_mrg_root_is_unlabelled():
    """The .mrg wrapper bracket '( (S ...) )' is read as an empty-label root, not dropped."""
    tree = parse_tree("( (S (NP (DT the) (NN dog)) (VP (VBD barked))) )")
    assert tree.label == "" and tree.children[0].label == "S"
    assert tree.leaves() == ["the", "dog", "barked"]
    assert tree.pos() == [("the", "DT"), ("dog", "NN"), ("barked", "VBD")]


def test_trees_with_lines_name_the_line_of_each_opening_bracket():
    """read_trees_with_lines gives the trees of read_trees, each with the line its outer bracket opens on."""
    text = "\n( (S (NP (DT the)\n (NN dog))\n  (VP (VBD barked))) ) (TOP (NP (NN x)))\n\n\n(X\n(Y y))\n"
    assert [line for line, _ in read_trees_with_lines(text)] == [2, 4, 7]
    assert [tree for _, tree in read_trees_with_lines(text)] == list(read_trees(text))


@pytest.mark.parametrize(
    ("text", "line", "fragment"),
    [
        ("(S (NP (DT the)\n(NN dog)", 1, "unbalanced '('"),
        ("(S (NP x))\n)", 2, "unbalanced ')'"),
        ("(S ()\n)", 1, "empty bracket"),
        ("(S (NN x))\nstray", 2, "outside any bracket"),
        ("(S (NN x y))", 1, "second word"),
        ("(S (NP (NN x)) y)", 1, "word after subtrees"),
        ("(S\n\n(NN))", 3, "has no children"),
        ("(S ((NN x)))", 1, "without a label"),
    ],
)
def test_trees_malformed_raise_typed_error_with_line(text, line, fragment):
    """Each malformed input raises TreeSyntaxError naming the right line and reason."""
    with pytest.raises(TreeSyntaxError) as info:
        list(read_trees(text, "f.mrg"))
    assert info.value.line == line
    assert fragment in info.value.reason
    assert str(info.value).startswith(f"f.mrg:{line}: ")


@pytest.mark.parametrize(("text", "reason"), [
    ("(TOP (IP (NP (NN \u5168\u89d2\u3000\u7a7a\u683c))))", "node 'NN' has a second word ('\u7a7a\u683c') (the space "
     "before it is U+3000 ideographic space, which a reader takes for whitespace: a word holds none)"),
    ("(NP (CD 100\xa0km))", "node 'CD' has a second word ('km') (the space before it is U+00A0 no-break space, which "
     "a reader takes for whitespace: a word holds none)"),
    ("(NP (NN a b))", "node 'NN' has a second word ('b')"),
    ("( Ja )", "node 'Ja' has no children (a word is written under its tag: (TAG word))"),
    ("(S (NP ) (VP (VBD ran)))", "node 'NP' has no children"),  # an empty phrase, not a word without its tag
    ("(S (NN a\x85b))", "node 'NN' has a second word ('b') (the space before it is U+0085, which a reader takes for "
     "whitespace: a word holds none)"),  # (a character without a name)
    ("(S (NP (NN x))\xa0y)", "node 'S' has a word after subtrees ('y')"),
])
def test_trees_errors_name_a_space_no_one_sees_and_a_word_without_a_tag(text: str, reason: str) -> None:
    """A word holding an ideographic or no-break space was "a second word" with nothing to see where; ``( Ja )``, a
    word alone in a root bracket, was "node 'Ja' has no children". Each says what the reader saw."""
    with pytest.raises(TreeSyntaxError) as info:
        parse_tree(text)
    assert info.value.reason == reason


def test_trees_slash_label_is_structured():
    """A slash category prints as A/B but keeps label and slash apart."""
    node = Tree("NP", (Tree("PP", (Tree("IN", ("of",)),)),), slash="NP")
    assert node.label == "NP" and node.slash == "NP"
    assert to_bracket(node) == "(NP/NP (PP (IN of)))"


@settings(max_examples=200, deadline=None)
@given(trees)
def test_tree_to_plain_round_trips_every_tree(tree: Tree) -> None:
    """The plain form that carries trees between processes (parsing workers, dev slices) gives back the
    same tree, words with brackets and slash categories included."""
    from glmnlp.treebank.trees import tree_from_plain, tree_to_plain

    assert tree_from_plain(tree_to_plain(tree)) == tree


def test_read_tree_file_with_lines_skips_a_bom_and_refuses_binary(tmp_path: Path) -> None:
    """A byte order mark is not a tree (it was stray text before the first bracket); a NUL byte is binary data at
    its line, as every text reader says; each tree comes with the line it starts on."""
    from glmnlp.treebank.trees import read_tree_file_with_lines

    good = tmp_path / "bom.trees"
    good.write_bytes(b"\xef\xbb\xbf(TOP (S (NN x)))\n\n(TOP\n (S (NN y)))\n")
    assert [(line, tree.leaves()) for line, tree in read_tree_file_with_lines(good)] == [(1, ["x"]), (3, ["y"])]
    bad = tmp_path / "bin.trees"
    bad.write_bytes(b"(TOP (S (NN x)))\n(TOP (S (NN \x00)))\n")
    with pytest.raises(InputError, match="binary data") as info:  # an encoding, not brackets: as every reader says
        read_tree_file_with_lines(bad)
    assert info.value.line == 2 and type(info.value) is InputError
    for unreadable in (tmp_path / "missing.trees", tmp_path):  # no malformed brackets: docs/api.md's InputError
        with pytest.raises(InputError, match="cannot read file") as missing:
            read_tree_file_with_lines(unreadable)
        assert type(missing.value) is InputError


def test_with_leaves_puts_words_back_under_the_same_labels() -> None:
    """The tree the models built over ``-LRB-`` given back over ``(``; its shape and labels (slashes too) unchanged;
    a word list of another length is refused."""
    from glmnlp.treebank.trees import with_leaves

    tree = parse_tree("(TOP (S (NP (PRP He)) (PRN (-LRB- -LRB-) (NN dog) (-RRB- -RRB-))))")
    back = with_leaves(tree, ["He", "(", "dog", ")"])
    assert back.leaves() == ["He", "(", "dog", ")"] and back.tags() == tree.tags()
    assert with_leaves(back, tree.leaves()) == tree
    slashed = Tree("S", (Tree("NP", (Tree("NN", ("a",)),), "NN"),))
    assert with_leaves(slashed, ["b"]) == Tree("S", (Tree("NP", (Tree("NN", ("b",)),), "NN"),))
    with pytest.raises(ValueError, match="3 words for a tree of 4 leaves"):
        with_leaves(tree, ["He", "(", "dog"])


def test_reader_refuses_trees_nested_deeper_than_it_can_use() -> None:
    """A tree 20,000 brackets deep was read, and then ``==``, ``to_bracket`` or ``render_json`` raised RecursionError
    far from the input; deeper than MAX_DEPTH is now a TreeSyntaxError at its line, and MAX_DEPTH itself works."""
    from glmnlp.treebank.trees import MAX_DEPTH, to_bracket

    def nested(depth: int) -> str:
        return "(TOP\n" + "(X " * (depth - 2) + "(NN w)" + ")" * (depth - 2) + ")"

    deepest = parse_tree(nested(MAX_DEPTH))
    assert parse_tree(to_bracket(deepest)) == deepest
    with pytest.raises(TreeSyntaxError, match=f"^<string>:2: brackets nested more than {MAX_DEPTH} deep"):
        parse_tree(nested(MAX_DEPTH + 1))


@pytest.mark.parametrize(("tree", "message"), [
    (Tree("NN", "dog"), "children must be a tuple of Trees and words, got str"),  # type: ignore[arg-type]
    (Tree("X", ()), "has no children"),
    (Tree("S", ("w", Tree("NN", ("d",)))), "a word ('w') beside other children"),
    (Tree("S", (Tree("NN", ("d",)), 5)), "a child is a int"),  # type: ignore[arg-type]
])
def test_writers_refuse_a_tree_the_reader_would_refuse(tree: Tree, message: str, tmp_path: Path) -> None:
    """``to_bracket(Tree("NN", "dog"))`` wrote ``(NN d o g)`` and write_trees a file read_tree_file refused (a
    second word); an empty node or a word beside a subtree likewise: every writer refuses them now."""
    for write in (to_bracket, to_pretty, lambda t: write_trees([Tree("TOP", (t,))], tmp_path / "out.trees")):
        with pytest.raises(ValueError, match=re.escape(message)):
            write(tree)
    assert not (tmp_path / "out.trees").exists()
    assert to_bracket(Tree("S", [Tree("NN", ["dog"])])) == "(S (NN dog))"  # lists are sequences of children too


@settings(max_examples=60, deadline=None)
@given(st.lists(trees, min_size=2, max_size=5), st.data())
def test_read_trees_names_the_tree_missing_its_closing_bracket(forest: list[Tree], data: st.DataObject) -> None:
    """A file of indented trees (the .mrg layout) where one tree lacks its last ')': the error names the line that
    tree begins on and asks whether a ')' is missing, wherever the reader trips over it (the next tree's unlabelled
    bracket, a word beside subtrees, the end of the input), not the line of the next tree, which is right."""
    k = data.draw(st.integers(0, len(forest) - 2))
    texts = [to_pretty(t) for t in forest]
    texts[k] = texts[k][: texts[k].rindex(")")]
    if data.draw(st.booleans()):  # the treebank's unlabelled outermost bracket
        texts = ["( " + t + " )" if i != k else "( " + t for i, t in enumerate(texts)]
    starts = [1 + sum(t.count("\n") + 1 for t in texts[:i]) for i in range(len(texts))]
    with pytest.raises(TreeSyntaxError) as caught:
        list(read_trees("\n".join(texts)))
    assert caught.value.line == starts[k] and "is a ')' missing" in caught.value.reason


def test_read_trees_refuses_what_is_not_text_at_the_call() -> None:
    """``read_trees(None)`` returned a generator and failed only when iterated, so a ``try`` around the call caught
    nothing; the docs' rule is a TypeError where text goes."""
    from glmnlp.treebank.trees import read_trees

    with pytest.raises(TypeError, match="expected a str of bracketed trees, got NoneType"):
        read_trees(None)  # type: ignore[arg-type]


@pytest.mark.parametrize("text", [
    "(TOP (S (NP (NN x)) ($( ``) (VP (VVFIN y)) ($. .)))",  # STTS $( written as it is
    "( (SENT (NP (DET le) (NC chat)) (PONCT () (NC x) (PONCT )) (PONCT .)))",  # a bracket as a word
])
def test_a_tree_with_a_bracket_written_as_it_is_says_how_brackets_are_written(text: str, tmp_path: Path) -> None:
    """TIGER and FTB exports write ``$(`` and a word ``(`` as they are: the errors were "node '``' has no
    children", "empty bracket" and "1 bracket(s) still open", naming no cause; they say how a bracket is written in
    a bracketed tree now (the tree reader and EVALB's), and an error of a line without one stays as it was."""
    from glmnlp.errors import TreeSyntaxError
    from glmnlp.treebank.evalb import score_files

    with pytest.raises(TreeSyntaxError, match=r"written -LRB- or -RRB- in a bracketed tree"):
        list(read_trees(text, "t.mrg"))
    path = tmp_path / "g.trees"
    path.write_text(text + "\n", encoding="utf-8")
    if "$(" in text:  # (EVALB's reader takes "(PONCT ()" as a bracket PONCT holding an empty one)
        with pytest.raises(TreeSyntaxError, match=r"g.trees:1: .*written -LRB- or -RRB- in a bracketed tree"):
            score_files(path, path)
    with pytest.raises(TreeSyntaxError) as plain:
        list(read_trees("(TOP (S (NP (NN x)) (VP (VB y)))", "t.mrg"))
    assert "-LRB-" not in str(plain.value)


def test_the_writers_refuse_what_the_reader_refuses() -> None:
    """An unlabelled node below the root was written ``(S ( x))``, read back as "node 'x' has no children"; a tree
    5,000 deep was a RecursionError from inside; ``to_pretty(indent=-2)`` was taken as 0. Each is a ValueError now;
    an unlabelled root is written, and so is a tree deeper than the reader takes (a parse of a long sentence may be
    one: 151 levels for 150 words of "I think that ..."), which the reader refuses with its line."""
    from glmnlp.errors import TreeSyntaxError
    from glmnlp.treebank.trees import MAX_DEPTH, Tree, to_bracket, to_pretty

    def nested(depth: int) -> Tree:
        tree = Tree("NN", ("x",))
        for _ in range(depth):
            tree = Tree("S", (tree,))
        return Tree("TOP", (tree,))

    for write in (to_bracket, to_pretty):
        with pytest.raises(ValueError, match="nested too deep to be written"):
            write(nested(5000))
    assert parse_tree(to_bracket(nested(MAX_DEPTH - 2))) == nested(MAX_DEPTH - 2)
    with pytest.raises(TreeSyntaxError, match=f"nested more than {MAX_DEPTH} deep"):
        parse_tree(to_bracket(nested(MAX_DEPTH + 50)))
    unlabelled = Tree("TOP", (Tree("S", (Tree("", ("x",)),)),))
    for write in (to_bracket, to_pretty):
        with pytest.raises(ValueError, match="a node below the root has no label"):
            write(unlabelled)
    assert to_bracket(Tree("", (Tree("S", (Tree("NN", ("x",)),)),))) == "( (S (NN x)))"
    with pytest.raises(ConfigError, match="indent must be an integer >= 0, got -2"):  # an invalid option (docs/api.md)
        to_pretty(parse_tree("(TOP (S (NN x)))"), indent=-2)
    with pytest.raises(TypeError, match="indent must be an integer >= 0, got 'x'"):  # a value of the wrong kind
        to_pretty(parse_tree("(TOP (S (NN x)))"), indent="x")  # type: ignore[arg-type]


def test_a_tree_holding_a_lone_surrogate_is_refused_where_it_is_read() -> None:
    """``parse_tree("(TOP (NN caf\\udce9))")`` (text decoded with surrogateescape) was accepted, and writing the tree
    then failed with a bare UnicodeEncodeError; the pipeline refuses such text with an InputError naming the
    character, and so does the tree reader now, at its line."""
    with pytest.raises(InputError, match=r"^t:2: character 13 is the lone surrogate U\+DCE9, not text") as caught:
        list(read_trees("(TOP (NN a))\n(TOP (NN caf\udce9))", source="t"))
    assert caught.value.line == 2
