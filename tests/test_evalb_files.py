"""EVALB's GOLD and TEST files and its command line: malformed lines, line counts, byte order marks, pipes, another
format, errors with their file and line, --help.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from evalb_fixtures import EVALB
from glmnlp.cli import main
from glmnlp.errors import InputError, TreeSyntaxError
from glmnlp.treebank.evalb import EvalbAbortError, format_report, parse_params, score_files, score_lines, score_trees
from glmnlp.treebank.trees import parse_tree


def test_evalb_cli_prints_the_line_of_the_error_sentence_it_stops_at(capsys, tmp_path: Path) -> None:
    """evalb.c prints ``12 : Words unmatch (a11|x11)`` for the error sentence past MAX_ERROR + 1, then stops; that line
    was missing (the error alone named it), so a script reading evalb's ``ID : reason`` lines missed one."""
    gold, test = tmp_path / "g4", tmp_path / "t4"
    gold.write_text("".join(f"(TOP (S (NN a{k})))\n" for k in range(14)), encoding="utf-8")
    test.write_text("".join(f"(TOP (S (NN x{k})))\n" for k in range(14)), encoding="utf-8")
    assert main(["evalb", str(gold), str(test)]) == 1
    err = capsys.readouterr().err.splitlines()
    assert err[:-1] == [f"{k + 1} : Words unmatch (a{k}|x{k})" for k in range(12)]
    assert err[-1].startswith(f"error: {test}:12: Words unmatch (a11|x11): error sentence number 12, more than")
    with pytest.raises(EvalbAbortError) as info:
        score_files(gold, test)
    assert info.value.stopped_at is not None and (info.value.stopped_at.id, info.value.stopped_at.reason) == (
        12, "Words unmatch (a11|x11)")
    assert len(info.value.rows) == 11


def test_evalb_cli_warns_when_no_sentence_is_scored(capsys, tmp_path: Path) -> None:
    """A test file of blank lines printed evalb's report (FMeasure -nan) with status 0 and nothing else, which a
    pipeline took for a successful evaluation, while the API gives 0.0: the report stays evalb's, and a warning says
    that no sentence was scored (the API's figures are 0.0 and its count of valid sentences 0, as documented)."""
    gold, blank, wrong = tmp_path / "g8", tmp_path / "t8", tmp_path / "t10"
    gold.write_text("(TOP (S (NP (NN a)) (VP (VB b) (NP (NN c)))))\n(TOP (S (NN d)))\n", encoding="utf-8")
    blank.write_text("\n\n", encoding="utf-8")
    wrong.write_text("\n(TOP (S (NN x)))\n", encoding="utf-8")
    assert main(["evalb", str(gold), str(blank)]) == 0
    out, err = capsys.readouterr()
    result = score_files(gold, blank)
    assert out == format_report(result) and "Bracketing FMeasure       =   -nan\n" in out
    assert err == (f"warning: {blank}: no sentence was scored: every test line is blank or has no word (a skipped "
                   "sentence); the F-measure is evalb's -nan\n")
    assert (result.fmeasure, result.total.valid_sentences) == (0.0, 0)
    assert main(["evalb", str(gold), str(wrong)]) == 0
    assert capsys.readouterr().err == ("2 : Words unmatch (d|x)\n"
                                       f"warning: {wrong}: no sentence was scored: 1 blank or wordless test line "
                                       "(skipped) and 1 error sentence; the F-measure is evalb's -nan\n")
    assert main(["evalb", str(gold), str(gold), "--summary-only"]) == 0
    assert capsys.readouterr().err == ""


@pytest.mark.parametrize(
    ("line", "fragment"),
    [
        ("(S (A (P x))", "unbalanced '('"),
        ("(S (A (P x))))", "unbalanced ')'"),
        ("(S (A (P x y)))", "holds two words"),
        ("(S (A x (P y)))", "word before a subtree"),
        ("S (A (P x))", "outside any bracket"),
        ("(S (A (P x)) y)", "word 'y' after a subtree"),
    ],
)
def test_evalb_malformed_line_raises_with_line(line: str, fragment: str) -> None:
    """Lines evalb cannot read are TreeSyntaxErrors naming the file and line, never scored."""
    with pytest.raises(TreeSyntaxError) as info:
        score_lines(["(S (A (P x)))"] * 2, ["(S (A (P x)))", line], test_source="t.txt")
    assert (info.value.source, info.value.line) == ("t.txt", 2) and fragment in info.value.reason


def test_evalb_line_count_mismatch_raises() -> None:
    """Gold and test must have the same number of lines / trees."""
    with pytest.raises(InputError, match="2 lines in the gold file") as info:
        score_lines(["(S (A (P x)))"] * 2, ["(S (A (P x)))"])
    assert (info.value.source, info.value.line) == ("<gold>", 2)
    # blank lines ending the longer file are not scored, as evalb scores the common lines (they were an error)
    for gold, test in ((["(S (A (P x)))", ""], ["(S (A (P x)))"]), (["(S (A (P x)))"], ["(S (A (P x)))", " ", ""])):
        result = score_lines(gold, test)
        assert (result.total.sentences, result.total.valid_sentences) == (1, 1)
    with pytest.raises(InputError, match="1 gold tree but 0 test trees"):
        score_trees([parse_tree("(S (A (P x)))")], [])


def test_evalb_line_count_message_names_a_line_that_exists(tmp_path: Path) -> None:
    """A test file of 2 lines against a gold file of 3 was ``t:3: 3 lines in the gold file (g) but 2 here``: line 3
    of a 2-line file, and ``1 lines``. The longer file is named at its first line without a partner, counts take
    their number, and a shorter file of lone carriage returns (one line to evalb, which ends lines at \\n) is named."""
    tree = "(TOP (S (NP (NN a)) (VP (VB b))))"
    with pytest.raises(InputError) as info:
        score_lines([tree] * 3, [tree] * 2, gold_source="g", test_source="t")
    assert str(info.value) == "g:3: 3 lines in the gold file but 2 lines in the test file (t): EVALB needs one tree " \
                              "per line in both files"
    with pytest.raises(InputError) as info:
        score_lines([tree], [tree] * 2, gold_source="g", test_source="t")
    assert str(info.value) == "t:2: 1 line in the gold file (g) but 2 lines here: EVALB needs one tree per line in " \
                              "both files"
    gold, test = tmp_path / "g19", tmp_path / "t19"
    gold.write_bytes(f"{tree}\r{tree}\r".encode())
    test.write_bytes(f"{tree}\r\n{tree}\r\n".encode())  # \r\n line ends are no lone carriage return
    with pytest.raises(InputError) as info:
        score_files(gold, test)
    assert (info.value.source, info.value.line) == (str(test), 2)
    assert info.value.reason.endswith(f"; {gold} holds a lone carriage return (old Mac line ends): evalb ends a line "
                                      "at \\n only: save the file with \\n line ends")
    with pytest.raises(InputError) as info:
        score_files(test, gold)  # the longer file, the gold file here, is named; the hint is about the other
    assert (info.value.source, info.value.line) == (str(test), 2) and f"; {gold} holds a lone" in info.value.reason
    with pytest.raises(InputError, match="^<input>: 2 gold trees but 1 test tree: "):
        score_trees([parse_tree(tree)] * 2, [parse_tree(tree)])


def test_evalb_a_gold_file_of_another_format_is_named_before_the_line_counts(tmp_path: Path) -> None:
    """A CoNLL-U file given as gold was reported as ``parsed.trees:31: 2678 lines in the gold file ... but 30 here``:
    the test file blamed for the gold file's format. The gold file's first line that is not a tree comes first."""
    gold = tmp_path / "dev.conllu"
    gold.write_text("# sent_id = 1\n1\tDogs\t_\t_\tNNS\t_\t_\t_\t_\t_\n\n" * 3, encoding="utf-8")
    test = tmp_path / "parsed.trees"
    test.write_text("(S (NNS Dogs))\n" * 2, encoding="utf-8")
    with pytest.raises(TreeSyntaxError) as info:
        score_files(gold, test)
    assert (info.value.source, info.value.line) == (str(gold), 1) and "outside any bracket" in info.value.reason


def test_evalb_files_may_start_with_a_byte_order_mark(tmp_path: Path) -> None:
    """A treebank file saved with a byte order mark (which parser train, tagger train and data --clean read) and
    a parameter file with one are scored; the mark was "text '\\ufeff' outside any bracket"."""
    gold, test, prm = tmp_path / "gold.trees", tmp_path / "test.trees", tmp_path / "bom.prm"
    trees = "(TOP (S (NP (DT the) (NN dog)) (VP (VBZ barks))))\r\n(TOP (S (NP (PRP it)) (VP (VBD ran))))\r\n"
    gold.write_text("\ufeff" + trees, encoding="utf-8", newline="")
    test.write_text(trees, encoding="utf-8", newline="")
    prm.write_text("\ufeffDELETE_LABEL TOP\n", encoding="utf-8")
    for params in (None, prm):
        result = score_files(gold, test, params)
        assert result == score_files(test, gold, params) == score_files(test, test, params)


def test_evalb_cli_errors_exit_1_with_location(capsys, tmp_path: Path) -> None:
    """Missing files, malformed trees and bad parameter files exit 1 with 'file:line: reason'."""
    gold = EVALB / "sample.gld"
    assert main(["evalb", str(tmp_path / "none.gld"), str(gold)]) == 1
    assert capsys.readouterr().err == f"error: {tmp_path / 'none.gld'}: cannot read file: No such file or directory\n"
    bad = tmp_path / "bad.tst"
    lines = (EVALB / "sample.tst").read_text().split("\n")
    lines[2] = "(S (A (P this)) (B (Q is)"
    bad.write_text("\n".join(lines))
    assert main(["evalb", str(gold), str(bad)]) == 1
    assert f"error: {bad}:3: unbalanced '('" in capsys.readouterr().err
    prm = tmp_path / "bad.prm"
    prm.write_text("DEBUG 0\nNOPE 1\n")
    assert main(["evalb", "-p", str(prm), str(gold), str(gold)]) == 1
    assert f"error: {prm}:2: unknown keyword 'NOPE'" in capsys.readouterr().err
    assert main(["evalb", str(gold), str(EVALB / "sample.tst"), "-e", "2"]) == 1
    out, err = capsys.readouterr()
    assert "Length unmatch (4|6)" in err  # 4th error, MAX_ERROR 2: evalb stops
    # with what evalb.c has printed by then: the table's rows before it (nothing was printed) and their errors
    assert out.splitlines()[-1].startswith("  16    4    1") and "Summary" not in out and "13 : Length" in err
    assert main(["evalb", str(gold)]) == 2
    assert "GOLD and TEST" in capsys.readouterr().err


@pytest.mark.parametrize("content", ["", "\n\n  \n"])
def test_evalb_cli_refuses_a_gold_file_without_trees(capsys, tmp_path: Path, content: str) -> None:
    """An empty or blank gold file gave a full report with FMeasure ``-nan`` and status 0 (a pipeline whose parser
    wrote nothing got a "successful" evaluation), where every other command refuses a file without trees."""
    gold = tmp_path / "empty.trees"
    gold.write_text(content)
    assert main(["evalb", str(gold), str(gold)]) == 1
    out, err = capsys.readouterr()
    assert out == "" and err == f"error: {gold}: no trees in this file\n"


def test_evalb_cli_help_has_examples(capsys) -> None:
    """--help explains the command with examples."""
    assert main(["evalb", "--help"]) == 0
    out = capsys.readouterr().out
    assert "Examples:" in out and "glmnlp evalb --demo" in out and "COLLINS.prm" in out


def test_evalb_reads_quote_labels_and_refuses_two_parameter_files(tmp_path: Path,
                                                                 capsys: pytest.CaptureFixture[str]) -> None:
    """The 2013 distribution's ``new.prm`` (with ``QUOTE_LABEL`` lines) was refused whole, though evalb.c re-inserts
    quotes only in a sentence whose sides differ in length: it is read, every other sentence scored as evalb scores
    it, and a sentence of different lengths stays an error, counted in a warning. ``-p a.prm -p b.prm`` used b.prm
    alone (evalb.c adds them up): a usage error. ``DEBUG 1`` was read as if it were 0 (its listing not printed): an
    error (the parametrized case above)."""
    from glmnlp.cli import main

    params = parse_params("DELETE_LABEL TOP\nQUOTE_LABEL ``\nQUOTE_LABEL ''\nQUOTE_LABEL POS\n")
    assert params.quote_labels == ("``", "''", "POS") and params.delete_labels == ("TOP",)
    prm = tmp_path / "new.prm"
    prm.write_text("DELETE_LABEL TOP\nDELETE_LABEL ``\nQUOTE_LABEL ``\n", encoding="utf-8")
    gold, test = tmp_path / "g", tmp_path / "t"
    gold.write_text("(TOP (S (NP (NN a)) (VP (VB b))))\n(TOP (S (`` ``) (NP (NN c)) (VP (VB d))))\n", encoding="utf-8")
    test.write_text("(TOP (S (NP (NN a)) (VP (VB b))))\n(TOP (S (NP (NN c)) (NN ``) (VP (VB d))))\n", encoding="utf-8")
    assert main(["evalb", "-p", str(prm), str(gold), str(test)]) == 0
    err = capsys.readouterr().err
    assert "2 : Length unmatch (2|3)" in err and "warning: 1 sentence of different lengths: errors here; evalb" in err
    # stopped by MAX_ERROR at such a sentence: the error says what QUOTE_LABEL would have tried
    prm.write_text("DELETE_LABEL TOP\nDELETE_LABEL ``\nQUOTE_LABEL ``\nMAX_ERROR 0\n", encoding="utf-8")
    gold.write_text("(TOP (S (`` ``) (NP (NN c)) (VP (VB d))))\n" * 3, encoding="utf-8")
    test.write_text("(TOP (S (NP (NN c)) (NN ``) (VP (VB d))))\n" * 3, encoding="utf-8")
    assert main(["evalb", "-p", str(prm), str(gold), str(test)]) == 1
    assert "Length unmatch (2|3)" in (err := capsys.readouterr().err) and "re-inserting quotes first" in err, err
    assert main(["evalb", "-p", str(prm), "-p", str(prm), str(gold), str(test)]) == 2
    assert "-p/--params is given once" in capsys.readouterr().err


@pytest.mark.parametrize("space", ["\u00a0", "\u2028", "\u202f"])
def test_evalb_warns_of_a_space_only_the_other_readers_take_for_one(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], space: str,
) -> None:
    """``(NP\\u00a0(DT A) ...)``: evalb.c reads the no-break space as part of the label ``NP\\u00a0`` and so does this
    scorer (66.67 against the same tree spaced), while ``read_tree_file`` and every other command read it as a space
    and the two files as the same trees; the score came without a word. A warning names the line now."""
    gold, test = tmp_path / "g.trees", tmp_path / "t.trees"
    gold.write_text("(TOP (S (NP (DT A) (NN cat)) (VP (VBD sat)) (. .)))\n" * 2
                    + f"(TOP (S (NP{space}(DT A) (NN cat)) (VP (VBD sat)) (. .)))\n", encoding="utf-8")
    test.write_text("(TOP (S (NP (DT A) (NN cat)) (VP (VBD sat)) (. .)))\n" * 3, encoding="utf-8")
    capsys.readouterr()
    assert main(["evalb", str(gold), str(test), "--summary-only"]) == 0
    err = capsys.readouterr().err
    assert err.startswith(f"warning: {gold}:3: U+{ord(space):04X} (") and "only ASCII whitespace" in err, err
    assert err.count("warning") == 1
    assert main(["evalb", str(test), str(test), "--summary-only"]) == 0 and capsys.readouterr().err == ""


@pytest.mark.skipif(not os.path.isdir("/dev/fd"), reason="/dev/fd (a pipe named as process substitution names it)")
def test_evalb_reads_a_pipe_once(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``glmnlp evalb gold.trees <(...)``: the warning of spaces outside ASCII read the files before the scorer, so a
    pipe was empty when scored ("0 here"), in a first version of it; a pipe is read once, by the scorer. A file's
    warning names it as the terminal shows other text (its escape sequence escaped)."""
    tree = "(TOP (S (NP (DT A) (NN cat)) (VP (VBD sat)) (. .)))\n"
    gold = tmp_path / "g.trees"
    gold.write_text(tree)
    reader, writer = os.pipe()
    try:
        os.write(writer, tree.encode())
        os.close(writer)
        assert main(["evalb", str(gold), f"/dev/fd/{reader}", "--summary-only"]) == 0, capsys.readouterr().err
    finally:
        os.close(reader)
    assert "Bracketing FMeasure       = 100.00" in capsys.readouterr().out
    odd = tmp_path / "g\x1b[31m.trees"
    odd.write_text(tree.replace("(NP ", "(NP\u00a0"), encoding="utf-8")
    assert main(["evalb", str(odd), str(gold), "--summary-only"]) == 0
    err = capsys.readouterr().err
    assert "g\\x1b[31m.trees:1: U+00A0" in err and "\x1b" not in err
