"""``glmnlp data --clean FILE... --out OUT.trees``: one's own treebank files cleaned exactly as the bundled sample.

The raw input is the bundled Penn Treebank sample itself (``.mrg`` files read where they are, or their text
copied into a temporary folder), so no treebank text is added to the repository.
"""

from __future__ import annotations

import contextlib
import io
import tempfile
from pathlib import Path

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from glmnlp.cli import main
from glmnlp.errors import InputError
from glmnlp.parser.grammar import tree_problem
from glmnlp.treebank.corpus import sample_files, sample_trees
from glmnlp.treebank.preprocess import clean_tree
from glmnlp.treebank.trees import Tree, parse_tree, read_tree_file, read_trees, to_bracket, to_pretty

from strategies import rooted_trees, trees_with_empties


def _run(argv: list[str]) -> tuple[int, str, str]:
    """Exit status, stdout and stderr of ``glmnlp ARGV`` run in this process."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        rc = main(argv)
    return rc, out.getvalue(), err.getvalue()


def _library_cleaning(paths: list[Path]) -> str:
    """What glmnlp.treebank.preprocess.clean_tree makes of the trees of ``paths``, one per line."""
    return "".join(to_bracket(clean_tree(tree)) + "\n" for path in paths for tree in read_tree_file(path))


def _files(tmp_path: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(tmp_path.iterdir()) if p.is_file()}


def test_data_clean_equals_the_library_cleaning_of_mrg_files(tmp_path: Path, test_data: Path) -> None:
    """Raw .mrg files (several trees each, unlabelled root brackets, -NONE-, NP-SBJ-1) cleaned by the command give
    the trees clean_tree gives, in order; the dev split's files give the reference gold file byte for byte."""
    raw = sample_files("train")[:5]
    out = tmp_path / "five.trees"
    rc, stdout, err = _run(["data", "--clean", *map(str, raw), "--out", str(out)])
    assert (rc, stdout) == (0, "")
    assert out.read_text(encoding="utf-8") == _library_cleaning(raw)
    count = len(out.read_text(encoding="utf-8").splitlines())
    assert err == f"read {count} tree(s) from 5 file(s); wrote {count} to {out}; dropped 0\n"
    text = "".join(path.read_text() for path in raw)
    assert text.count("-NONE-") > 10 and "NP-SBJ-1" in text and text.count("\n( (S") > 10

    dev = tmp_path / "dev.trees"
    assert _run(["data", "--clean", *map(str, sample_files("dev")), "--out", str(dev)])[0] == 0
    assert dev.read_bytes() == (test_data / "evalb" / "sample_dev.gold").read_bytes()
    assert list(read_trees(dev.read_text(encoding="utf-8"))) == sample_trees("dev")


def test_data_clean_leaves_cleaned_trees_as_they_are(tmp_path: Path, test_data: Path) -> None:
    """TOP-rooted cleaned trees (one per line) come out unchanged; --out that is the input file itself is refused
    (a usage error), the file left as it was."""
    gold = test_data / "evalb" / "sample_test.gold"
    out = tmp_path / "test.trees"
    rc, _, err = _run(["data", "--clean", str(gold), "--out", str(out)])
    assert rc == 0 and out.read_bytes() == gold.read_bytes()
    assert err == f"read 245 tree(s) from 1 file(s); wrote 245 to {out}; dropped 0\n"
    raw = tmp_path / "in_place.mrg"
    raw.write_bytes(sample_files("test")[0].read_bytes())
    assert _run(["data", "--clean", str(raw), "--out", str(raw)])[0] == 2
    assert raw.read_bytes() == sample_files("test")[0].read_bytes()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["in_place.mrg", "test.trees"]


def test_data_clean_output_trains_where_the_raw_file_is_refused(tmp_path: Path) -> None:
    """parser train refuses the raw .mrg text and names the command; the command's output trains (33 trees)."""
    raw = tmp_path / "raw.mrg"
    raw.write_bytes(b"".join(path.read_bytes() for path in sample_files("train")[:3]))
    assert len(read_tree_file(raw)) == 33
    rc, _, err = _run(["parser", "train", "--train", str(raw), "--dev", str(raw), "--out", str(tmp_path / "m0"),
                       "--epochs", "1", "-j", "1"])
    assert rc == 1 and err.startswith(f"error: {raw}:2: tree 1: the root is an unlabelled bracket")
    assert "`glmnlp data --clean FILE... --out OUT.trees`" in err and err.count("\n") == 1
    assert not (tmp_path / "m0").exists()

    cleaned = tmp_path / "clean.trees"
    assert _run(["data", "--clean", str(raw), "--out", str(cleaned)])[0] == 0
    rc, _, err = _run(["parser", "train", "--train", str(cleaned), "--dev", str(cleaned), "--out", str(tmp_path / "m"),
                       "--epochs", "1", "-j", "1"])
    assert rc == 0, err
    assert (tmp_path / "m" / "metadata.json").is_file() and (tmp_path / "m" / "weights.npz").is_file()


_GOOD = "( (S (NP-SBJ (NNP Pierre)) (VP (VBD left)) (. .)) )\n"


@pytest.mark.parametrize(("data", "line", "reason"), [
    (_GOOD.encode() + b"( (S (NP (NN x)) (VP (VBD y)) )\n", 2,
     "unbalanced '(': 1 bracket(s) still open at end of input"),
    (_GOOD.encode() + b"\n(S (NN x)))\n", 3, "unbalanced ')' with no open bracket"),
    (_GOOD.encode() + b"stray (S (NN x))\n", 2, "text 'stray' outside any bracket"),
    (_GOOD.encode() + b"( (S (NN x\x00y)) )\n", 2, "binary data (NUL byte); expected UTF-8 text"),
    (_GOOD.encode() + b"\n\n( (S (NN caf\xe9)) )\n", 4, "not valid UTF-8 text (byte 0xe9 at column 13)"),
    (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", 1, "not valid UTF-8 text (byte 0x89 at column 1)"),
    (b"GIF89a\x01\x00\x00\x00", 1, "binary data (NUL byte); expected UTF-8 text"),
    (b"", None, "no trees in this file"),
    (b"\n  \n", None, "no trees in this file"),
], ids=["unclosed", "extra-close", "stray-text", "nul", "latin-1", "png", "gif", "empty", "blank"])
def test_data_clean_malformed_input_is_one_line_and_writes_nothing(
    tmp_path: Path, data: bytes, line: int | None, reason: str
) -> None:
    """Bad input, in any of the FILEs, is ``error: file:line: reason`` (status 1); the output is left as it was."""
    good, bad, out = tmp_path / "good.mrg", tmp_path / "bad.mrg", tmp_path / "out.trees"
    good.write_text(_GOOD)
    bad.write_bytes(data)
    out.write_text("earlier\n")
    before = _files(tmp_path)
    rc, stdout, err = _run(["data", "--clean", str(good), str(bad), "--out", str(out)])
    where = f"{bad}:{line}" if line is not None else f"{bad}"
    assert (rc, stdout, err) == (1, "", f"error: {where}: {reason}\n")
    assert _files(tmp_path) == before


def test_data_clean_unreadable_files_and_unwritable_output(tmp_path: Path) -> None:
    """A missing FILE or a folder as FILE is one line; an unwritable --out is found before any FILE is read (a FILE
    that cannot be read at all is found first, when the command line is read)."""
    good = tmp_path / "good.mrg"
    good.write_text(_GOOD)
    out = tmp_path / "out.trees"
    assert _run(["data", "--clean", str(good), str(tmp_path / "none.mrg"), "--out", str(out)]) == (
        1, "", f"error: {tmp_path / 'none.mrg'}: cannot read file: No such file or directory\n")
    assert _run(["data", "--clean", str(tmp_path), "--out", str(out)]) == (
        1, "", f"error: {tmp_path}: cannot read file: Is a directory\n")
    assert _run(["data", "--clean", str(good), "--out", str(tmp_path)]) == (
        1, "", f"error: {tmp_path}: cannot be written: is a directory\n")
    assert _run(["data", "--clean", str(good), "--out", str(good / "sub.trees")]) == (
        1, "", f"error: {good / 'sub.trees'}: {good} is not a folder\n")
    assert _run(["data", "--clean", str(tmp_path / "none.mrg"), "--out", str(good / "sub.trees")]) == (
        1, "", f"error: {tmp_path / 'none.mrg'}: cannot read file: No such file or directory\n")
    # an output file's folder is never made (docs/cli.md: a missing folder is an error before anything is written)
    assert _run(["data", "--clean", str(good), "--out", str(tmp_path / "new" / "sub" / "out.trees")]) == (
        1, "", f"error: {tmp_path / 'new' / 'sub' / 'out.trees'}: folder {tmp_path / 'new' / 'sub'} does not exist\n")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["good.mrg"]


def test_data_clean_drops_trees_it_cannot_clean_and_says_where(tmp_path: Path) -> None:
    """A tree made only of empty elements, a root over two phrases, TOP over a word or a label with no category is
    dropped and listed at the line where it starts; a ROOT root is relabelled TOP (Stanford's and GUM's name for it:
    put under a new TOP, every parse of a model trained on it had a ROOT bracket more); another root is put under
    TOP, with a note; if nothing is left, that is an error and nothing is written."""
    mixed = tmp_path / "mixed.mrg"
    mixed.write_text(
        _GOOD
        + "( (S (NP-SBJ (-NONE- *))\n     (VP (-NONE- *T*-1))) )\n"
        + "(ROOT (S (NN x)))\n(S1 (S (NN w)))\n"
        + "( (S (NN x)) (S (NN y)) )\n(TOP y)\n(S (|PRT (RP up)))\n"
        + "(TOP (S (NP-SBJ-1 (NN z))))\n"
    )
    out = tmp_path / "out.trees"
    rc, stdout, err = _run(["data", "--clean", str(mixed), "--out", str(out)])
    assert (rc, stdout) == (0, "")
    assert out.read_text() == (
        "(TOP (S (NP (NNP Pierre)) (VP (VBD left)) (. .)))\n(TOP (S (NN x)))\n(TOP (S1 (S (NN w))))\n"
        "(TOP (S (NP (NN z))))\n"
    )
    assert err.splitlines() == [
        f"{mixed}:2: tree 2 dropped: tree '( ... )' contains only empty (-NONE-) elements",
        f"{mixed}:6: tree 5 dropped: root bracket '( ... )' has 2 children; expected exactly one",
        f"{mixed}:7: tree 6 dropped: root bracket 'TOP' is over the word 'y', not over a phrase",
        f"{mixed}:8: tree 7 dropped: label '|PRT' has no category (nothing before '|')",
        "note: 1 tree(s) had a root that is no root bracket (the unlabelled ( ... ), TOP, or ROOT over one phrase): "
        f"S1 (1); each was put under a new TOP root, its root kept as a phrase (first at {mixed}:5)",
        f"read 8 tree(s) from 1 file(s); wrote 4 to {out}; dropped 4 (listed above)",
    ]
    empty = tmp_path / "empty.mrg"
    empty.write_text("( (S (-NONE- *)) )\n")
    out.unlink()
    rc, _, err = _run(["data", "--clean", str(empty), "--out", str(out)])
    assert rc == 1 and err.splitlines() == [
        f"{empty}:1: tree 1 dropped: tree '( ... )' contains only empty (-NONE-) elements",
        f"error: {out}: not written: all 1 tree(s) read were dropped (listed above)",
    ]
    assert not out.exists()


@pytest.mark.parametrize(("argv", "message"), [
    (["--clean"], "--clean needs the treebank FILEs to clean"),
    (["IN"], "FILE arguments are cleaned with --clean"),
    (["--clean", "IN", "--split", "dev"], "not with --clean"),
    (["--clean", "IN", "--tagged", "conllu"], "not with --clean"),
], ids=["no-files", "files-without-clean", "split", "tagged"])
def test_data_clean_usage_errors(tmp_path: Path, argv: list[str], message: str) -> None:
    """--clean without FILEs, FILEs without --clean, --clean with the sample's options: status 2, nothing written."""
    good = tmp_path / "good.mrg"
    good.write_text(_GOOD)
    out = tmp_path / "out"
    rc, _, err = _run(["data", *[str(good) if a == "IN" else a for a in argv], "--out", str(out)])
    assert rc == 2 and message in err
    assert not out.exists()


def test_data_clean_help_names_the_mode() -> None:
    """--help lists --clean and ends with an example of it."""
    rc, out, _ = _run(["data", "--help"])
    assert rc == 0 and "--clean" in out and "glmnlp data --clean wsj/22/*.mrg --out dev.trees" in out


#: trees that clean_tree must refuse or that test its edges: TOP over a word, a label with no category, only -NONE-
_AWKWARD = st.sampled_from([
    parse_tree(text) for text in (
        "(TOP x)", "(S (|PRT (RP up)))", "( (S (-NONE- *)) )", "(TOP (S (NN x)))", "(ROOT (S-1 (NN x)))", "(NN x)",
        "(TOP (NP-SBJ=2 (-NONE- *T*-1) (NN x)))", "(TOP (S (-LRB- -LRB-) (ADVP|PRT (RB x))))",
    )
])


@st.composite
def _raw_files(draw: st.DrawFn) -> tuple[str, list[Tree]]:
    """A treebank file: trees with -NONE- elements and function tags, some in the .mrg wrapper bracket."""
    chosen: list[Tree] = []
    for tree in draw(st.lists(st.one_of(trees_with_empties, rooted_trees(), _AWKWARD), min_size=1, max_size=4)):
        chosen.append(Tree("", (tree,)) if tree.label and draw(st.booleans()) else tree)
    parts = [to_pretty(tree) if draw(st.booleans()) else to_bracket(tree) for tree in chosen]
    return "\n".join(parts) + "\n", chosen


def _cleanable(tree: Tree) -> Tree | None:
    try:
        return clean_tree(tree)
    except InputError:
        return None


@given(_raw_files())
@example(("(S the)\n(<END> the)\n", [parse_tree("(S the)"), parse_tree("(<END> the)")]))  # a label the parser keeps
def test_data_clean_is_idempotent_on_its_output(raw: tuple[str, list[Tree]]) -> None:
    """Cleaning the command's output again changes nothing, and its output is clean_tree of every tree clean_tree
    accepts, in order, each a tree parser train accepts; with no such tree, nothing is written."""
    text, trees = raw
    expected = [cleaned for cleaned in map(_cleanable, trees) if cleaned is not None]
    with tempfile.TemporaryDirectory() as folder:
        source, once, twice = Path(folder) / "raw.mrg", Path(folder) / "once.trees", Path(folder) / "twice.trees"
        source.write_text(text, encoding="utf-8")
        rc, _, err = _run(["data", "--clean", str(source), "--out", str(once)])
        if not expected:
            assert rc == 1 and "not written: all" in err and not once.exists()
            return
        assert rc == 0, err
        assert list(read_trees(once.read_text(encoding="utf-8"))) == expected
        assert all(tree_problem(tree) is None for tree in expected)
        rc, _, err = _run(["data", "--clean", str(once), "--out", str(twice)])
        assert rc == 0 and err == f"read {len(expected)} tree(s) from 1 file(s); wrote {len(expected)} to {twice}; " \
                                   "dropped 0\n"
        assert twice.read_bytes() == once.read_bytes()


def test_data_clean_never_replaces_a_raw_treebank_file_it_was_not_given(tmp_path: Path) -> None:
    """``glmnlp data --clean --out wsj/*.mrg``: the shell made the first file ``--out`` and the others the inputs, and
    the raw wsj_0001.mrg (traces, function tags) was replaced by their cleaned trees with status 0. A raw treebank
    file that is not one of the FILEs is refused, and so is one that is (it lost its raw trees for good). ``--out -``
    made a file named ``-`` (and ``data --out - --split test`` a folder)."""
    import shutil

    raw = sample_files("train")[:3]
    for path in raw:
        shutil.copy(path, tmp_path / path.name)
    first, *rest = sorted(tmp_path.glob("*.mrg"))
    before = first.read_bytes()
    assert main(["data", "--clean", "--out", str(first), *map(str, rest)]) == 2
    assert first.read_bytes() == before
    assert main(["data", "--clean", str(first), "--out", str(first)]) == 2 and first.read_bytes() == before
    again = tmp_path / "clean.mrg"  # a cleaned file so named, written again by a re-run (a review found it refused)
    assert main(["data", "--clean", *map(str, rest), "--out", str(again)]) == 0
    assert main(["data", "--clean", *map(str, rest), "--out", str(again)]) == 0
    for argv in (["data", "--clean", str(rest[0]), "--out", "-"], ["data", "--out", "-", "--split", "test"]):
        with contextlib.chdir(tmp_path):
            assert main(argv) == 2
        assert not (tmp_path / "-").exists()
