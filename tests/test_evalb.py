"""EVALB scorer: every figure of three reference evalb outputs, hand-worked cases, an oracle, the CLI."""

from __future__ import annotations

import dataclasses
import os
import re
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from glmnlp.cli import main
from glmnlp.errors import InputError, TreeSyntaxError
from glmnlp.treebank.evalb import (
    COLLINS_PARAMS,
    STATUS_ERROR,
    STATUS_OK,
    STATUS_SKIP,
    EvalbAbortError,
    EvalbCounts,
    EvalbParams,
    EvalbResult,
    combine,
    format_report,
    parse_params,
    read_params,
    score_files,
    score_lines,
    score_trees,
)
from glmnlp.treebank.trees import Tree, parse_tree, read_tree_file

EVALB = Path(__file__).parent / "data" / "evalb"

# (gold, test, parameter file or None for the built-in COLLINS settings, reference output)
REFERENCES = [
    ("sample.gld", "sample.tst", "sample.prm", "sample.rsl"),
    ("sample_test.gold", "sample_test.roark", None, "sample_test.roark.rsl"),
    ("sample_dev.gold", "sample_dev.roark", "COLLINS.prm", "sample_dev.roark.rsl"),
]
REF_IDS = [r[3] for r in REFERENCES]


# -- reading the reference outputs ------------------------------------------------------------


def _parse_rsl(path: Path) -> tuple[list[list[str]], list[str], dict[str, dict[str, str]]]:
    """Per-sentence rows (12 fields each), the totals line fields, summary blocks {title: {key: value}}."""
    lines = path.read_text().split("\n")
    rules = [i for i, line in enumerate(lines) if line.startswith("=" * 20)]
    assert len(rules) == 2
    rows = [line.split() for line in lines[rules[0] + 1 : rules[1]]]
    totals = lines[rules[1] + 1].split()
    blocks: dict[str, dict[str, str]] = {}
    title = None
    for line in lines[rules[1] + 2 :]:
        if m := re.fullmatch(r"-- (.*) --", line):
            title = m.group(1)
            blocks[title] = {}
        elif "=" in line and title is not None:
            key, value = line.split("=")
            blocks[title][key.strip()] = value.strip()
    return rows, totals, blocks


def _score_reference(gold: str, test: str, prm: str | None) -> EvalbResult:
    return score_files(EVALB / gold, EVALB / test, None if prm is None else EVALB / prm)


# -- the three reference outputs, figure by figure --------------------------------------------


@pytest.mark.parametrize(("gold", "test", "prm", "rsl"), REFERENCES, ids=REF_IDS)
def test_evalb_reference_rows_match_every_field(gold: str, test: str, prm: str | None, rsl: str) -> None:
    """Every per-sentence row (ID, Len., Stat., Recal, Prec., counts, Tags, Accracy) equals evalb's."""
    result = _score_reference(gold, test, prm)
    rows, _, _ = _parse_rsl(EVALB / rsl)
    assert len(result.sentences) == len(rows) > 0
    for row, ref in zip(result.sentences, rows):
        mine = [
            str(row.id), str(row.length), str(row.status), f"{row.recall:.2f}", f"{row.precision:.2f}",
            str(row.matched), str(row.gold_brackets), str(row.test_brackets), str(row.crossing),
            str(row.words), str(row.correct_tags), f"{row.tag_accuracy:.2f}",
        ]  # fmt: skip
        assert mine == ref, f"sentence {row.id}"


@pytest.mark.parametrize(("gold", "test", "prm", "rsl"), REFERENCES, ids=REF_IDS)
def test_evalb_reference_summaries_match_every_line(gold: str, test: str, prm: str | None, rsl: str) -> None:
    """The totals line and both summary blocks (all, len<=40) equal evalb's, line by line."""
    result = _score_reference(gold, test, prm)
    _, totals, blocks = _parse_rsl(EVALB / rsl)
    t = result.total
    assert totals == [
        f"{t.recall:.2f}", f"{t.precision:.2f}", str(t.matched), str(t.gold_brackets), str(t.test_brackets),
        str(t.crossing), str(t.words), str(t.correct_tags), f"{t.tagging_accuracy:.2f}",
    ]  # fmt: skip
    assert list(blocks) == ["All", "len<=40"]
    for title, counts in (("All", result.total), ("len<=40", result.cut)):
        assert blocks[title] == {
            "Number of sentence": str(counts.sentences),
            "Number of Error sentence": str(counts.error_sentences),
            "Number of Skip  sentence": str(counts.skip_sentences),
            "Number of Valid sentence": str(counts.valid_sentences),
            "Bracketing Recall": f"{counts.recall:.2f}",
            "Bracketing Precision": f"{counts.precision:.2f}",
            "Bracketing FMeasure": f"{counts.fmeasure:.2f}",
            "Complete match": f"{counts.complete_match_rate:.2f}",
            "Average crossing": f"{counts.average_crossing:.2f}",
            "No crossing": f"{counts.no_crossing_rate:.2f}",
            "2 or less crossing": f"{counts.two_or_less_crossing_rate:.2f}",
            "Tagging accuracy": f"{counts.tagging_accuracy:.2f}",
        }, title


@pytest.mark.parametrize(("gold", "test", "prm", "rsl"), REFERENCES, ids=REF_IDS)
def test_evalb_reference_report_is_identical(gold: str, test: str, prm: str | None, rsl: str) -> None:
    """format_report reproduces the reference evalb output byte for byte."""
    report = format_report(_score_reference(gold, test, prm))
    expected = (EVALB / rsl).read_text()
    assert report.split("\n") == expected.split("\n")
    assert report == expected


def test_evalb_reference_headline_counts() -> None:
    """The headline figures of the three references, as raw counts."""
    sample = _score_reference(*REFERENCES[0][:3])
    assert (sample.total.sentences, sample.total.error_sentences, sample.total.skip_sentences) == (24, 5, 2)
    assert (sample.total.matched, sample.total.gold_brackets, sample.total.test_brackets) == (86, 98, 95)
    test = _score_reference(*REFERENCES[1][:3])
    assert (test.total.matched, test.total.gold_brackets, test.total.test_brackets) == (3743, 4592, 4707)
    assert round(test.fmeasure, 2) == 80.50 and test.cut.sentences == 230
    dev = _score_reference(*REFERENCES[2][:3])
    assert (dev.total.matched, dev.total.gold_brackets, dev.total.test_brackets) == (4154, 4980, 5097)
    assert round(dev.f1, 2) == 82.45 and dev.total.crossing == 473


@pytest.mark.parametrize("name", ["sample_test", "sample_dev"])
def test_evalb_score_trees_equals_score_files(name: str) -> None:
    """Scoring Tree objects gives exactly the result of scoring the files line by line."""
    gold = read_tree_file(EVALB / f"{name}.gold")
    test = read_tree_file(EVALB / f"{name}.roark")
    assert score_trees(gold, test) == score_files(EVALB / f"{name}.gold", EVALB / f"{name}.roark")


# -- parameter files --------------------------------------------------------------------------


# -- hand-worked cases ------------------------------------------------------------------------


def _one(gold: str, test: str | None, params: EvalbParams | None = None):
    result = score_trees([parse_tree(gold)], [None if test is None else parse_tree(test)], params)
    return result.sentences[0]


def test_evalb_label_equivalence_advp_prt() -> None:
    """ADVP and PRT match each other under COLLINS.prm (EQ_LABEL), not without the pair."""
    gold = "(S (NP (PRP he)) (VP (VBD gave) (PRT (RP up))))"
    test = "(S (NP (PRP he)) (VP (VBD gave) (ADVP (RP up))))"
    assert dataclasses.astuple(_one(gold, test))[3:6] == (4, 4, 4)
    plain = dataclasses.replace(COLLINS_PARAMS, eq_labels=())
    assert dataclasses.astuple(_one(gold, test, plain))[3:6] == (3, 4, 4)


def test_evalb_delete_label_extends_to_eq_partner() -> None:
    """Bracket deletion compares labels modulo EQ_LABEL (PRT goes with ADVP); tag deletion is exact."""
    tree = "(S (NP (PRP he)) (VP (VBD gave) (PRT (RP up))) (ADVP (PRT x)))"
    params = parse_params("DELETE_LABEL ADVP\nEQ_LABEL ADVP PRT\n")
    row = _one(tree, tree, params)
    assert (row.gold_brackets, row.words) == (3, 4)  # S NP VP kept; PRT and ADVP brackets gone; tag PRT kept
    row = _one(tree, tree, parse_params("DELETE_LABEL ADVP\n"))
    assert (row.gold_brackets, row.words) == (4, 4)


def test_evalb_deleted_punctuation_shrinks_spans() -> None:
    """Deleted punctuation takes no room: NP-with-comma = NP, a comma-only PRN vanishes, Len keeps it."""
    gold = "(TOP (S (NP (NP (DT the) (NN dog)) (, ,)) (VP (VBD ran)) (. .)))"
    test = "(TOP (S (NP (DT the) (NN dog)) (PRN (, ,)) (VP (VBD ran)) (. .)))"
    row = _one(gold, test)
    # gold kept: S(0,3) NP(0,2) NP(0,2) VP(2,3); test kept: S(0,3) NP(0,2) VP(2,3); PRN empty, TOP deleted
    assert (row.matched, row.gold_brackets, row.test_brackets) == (3, 4, 3)
    assert (row.length, row.words, row.correct_tags, row.status) == (5, 3, 3, STATUS_OK)


def test_evalb_none_elements_excluded_from_length_and_words() -> None:
    """-NONE- terminals count neither as words nor in Len.; a bracket over a trace only is dropped."""
    gold = "(S (NP-SBJ (-NONE- *)) (VP (VBD ran)) (. .))"
    row = _one(gold, "(S (VP (VBD ran)) (. .))")
    assert (row.length, row.words, row.matched, row.gold_brackets, row.test_brackets) == (2, 1, 2, 2, 2)


def test_evalb_function_tags_are_cut() -> None:
    """Bracket labels are cut at '-' or '=' (NP-SBJ-1, NP=2 -> NP); tags are compared uncut."""
    row = _one("(S (NP-SBJ-1 (DT a) (NN b)) (VP=2 (VB c)))", "(S (NP (DT a) (NN b)) (VP (VB c)))")
    assert (row.matched, row.gold_brackets, row.test_brackets, row.correct_tags) == (3, 3, 3, 3)


def test_evalb_length_mismatch_is_error_sentence() -> None:
    """A different number of words is evalb's status 1 with 'Length unmatch (g|t)', scored as zeros."""
    result = score_lines(["(S (A (P this)) (B (Q is)))"], ["(S (A (P this)) (B (Q is) (R it)))"])
    row = result.sentences[0]
    assert (row.status, row.reason, row.length, row.matched, row.words) == (STATUS_ERROR, "Length unmatch (2|3)", 2, 0, 0)
    assert (result.total.error_sentences, result.total.valid_sentences, result.cut.error_sentences) == (1, 0, 1)


def test_evalb_word_mismatch_and_eq_word() -> None:
    """A differing word is an error sentence unless the pair is an EQ_WORD pair."""
    gold, test = "(S (A (P This)) (B (Q is)))", "(S (A (P this)) (B (Q is)))"
    row = _one(gold, test)
    assert (row.status, row.reason) == (STATUS_ERROR, "Words unmatch (This|this)")
    eq = dataclasses.replace(COLLINS_PARAMS, eq_words=(("this", "This"),))
    assert _one(gold, test, eq).status == STATUS_OK


def test_evalb_says_when_unmatched_words_are_one_word_in_two_unicode_forms() -> None:
    """``Words unmatch (résumé|résumé)``: an accent composed in one file and a combining mark in the other print
    alike, and the message gave no clue; EVALB's comparison of the bytes is kept, the message says what differs."""
    gold, test = "(S (A (P caf\u00e9)))", "(S (A (P cafe\u0301)))"
    row = _one(gold, test)
    assert (row.status, row.reason) == (
        STATUS_ERROR, "Words unmatch (caf\u00e9|cafe\u0301): the same characters, in two Unicode forms (NFC, NFD)")
    assert _one("(S (A (P cafe)))", test).reason == "Words unmatch (cafe|cafe\u0301)"


def test_evalb_missing_parse_is_skip_sentence() -> None:
    """A None tree or an empty test line is a skip sentence (status 2), outside the scores."""
    assert _one("(S (A (P x)))", None).status == STATUS_SKIP
    result = score_lines(["(S (A (P x)) (B (Q y)))", "(S (A (P x)) (B (Q y)))"], ["", "(S (A (P x)) (B (Q y)))"])
    assert [r.status for r in result.sentences] == [STATUS_SKIP, STATUS_OK]
    assert (result.total.skip_sentences, result.total.valid_sentences, result.total.gold_brackets) == (1, 1, 3)


def test_evalb_whitespace_after_a_label_makes_a_terminal_as_in_evalb() -> None:
    """As evalb.c reads a line, a label followed by a space holds a word: ``(ADVP )`` is a terminal with an empty word
    (a length mismatch; it was read as an empty bracket and the sentence scored 100), ``( dog)`` a terminal with an
    empty tag (it was an empty bracket labelled ``dog``: a length mismatch), ``( )`` a terminal with neither (an
    error sentence, not a skip); ``(ADVP)`` without the space stays an empty bracket."""

    def _line(gold: str, test: str):  # type: ignore[no-untyped-def]
        return score_lines([gold], [test]).sentences[0]

    gold = "(S (NP (DT The) (NN dog)) (VP (VBD barked)))"
    row = _line(gold, "(S (NP (DT The) (NN dog)) (VP (VBD barked) (ADVP )))")
    assert (row.status, row.reason) == (STATUS_ERROR, "Length unmatch (3|4)")
    assert (_line(gold, "( )").status, _line(gold, "( )").reason) == (STATUS_ERROR, "Length unmatch (3|1)")
    row = _line(gold, "(S (NP (DT The) ( dog)) (VP (VBD barked)))")
    assert (row.status, row.matched, row.gold_brackets, row.test_brackets, row.correct_tags) == (STATUS_OK, 3, 3, 3, 2)
    row = _line(gold, "(S (NP (DT The) (NN dog)) (VP (VBD barked) (ADVP)))")
    assert (row.status, row.matched, row.test_brackets) == (STATUS_OK, 3, 3)
    row = _line(gold, "(S (NP (DT The) (NN dog )) (VP (VBD barked)))")  # a space before ')' is no second word
    assert (row.status, row.matched) == (STATUS_OK, 3)
    with pytest.raises(TreeSyntaxError, match="two words"):
        _line(gold, "(S (NP (DT The) (NN big dog)) (VP (VBD barked)))")
    # only ASCII whitespace separates, as for evalb.c in the C locale: a no-break space is a word
    assert _line("(S (NN \u00a0) (VB x))", "(S (NN \u00a0) (VB x))").status == STATUS_OK


def test_evalb_unlabeled_mode_ignores_labels() -> None:
    """LABELED 0 matches brackets on spans alone."""
    gold, test = "(S (NP (DT a) (NN b)) (VP (VB c)))", "(X (Y (DT a) (NN b)) (Z (VB c)))"
    assert _one(gold, test).matched == 0
    assert _one(gold, test, dataclasses.replace(COLLINS_PARAMS, labeled=False)).matched == 3


def test_evalb_crossing_counted_on_test_brackets() -> None:
    """Each test bracket crossing some gold bracket counts once; nested or equal spans never cross."""
    gold = "(S (A (X a) (X b)) (X c) (X d))"  # S(0,4) A(0,2)
    test = "(S (X a) (B (X b) (X c)) (C (X d)))"  # S(0,4) B(1,3) C(3,4)
    row = _one(gold, test)  # B crosses A; C sits inside S
    assert (row.crossing, row.matched, row.gold_brackets, row.test_brackets) == (1, 1, 2, 3)
    both = _one("(S (A (X a) (X b)) (C (X c) (X d)))", "(S (X a) (B (X b) (X c)) (X d))")
    assert both.crossing == 1  # B(1,3) crosses A(0,2) and C(2,4): still one crossing test bracket
    assert _one(gold, gold).crossing == 0


def test_evalb_duplicate_brackets_match_as_multiset() -> None:
    """Unary chains of one label: each gold copy needs its own test copy."""
    gold = "(S (NP (NP (DT a) (NN b))) (VP (VB c)))"
    test = "(S (NP (DT a) (NN b)) (VP (VP (VP (VB c)))))"
    row = _one(gold, test)
    assert (row.matched, row.gold_brackets, row.test_brackets) == (3, 4, 5)


def test_evalb_root_brackets() -> None:
    """TOP is deleted by COLLINS.prm, the S below it counts; an unlabelled root bracket counts too."""
    assert _one("(TOP (S (A (P x)) (B (Q y))))", "(TOP (S (A (P x)) (B (Q y))))").gold_brackets == 3
    assert _one("( (S (A (P x)) (B (Q y))) )", "( (S (A (P x)) (B (Q y))) )").gold_brackets == 4
    forest = score_lines(["(S (P this) (Q is))"], ["(P this) (Q is)"]).sentences[0]
    assert (forest.status, forest.matched, forest.gold_brackets, forest.test_brackets) == (STATUS_OK, 0, 1, 0)


def test_evalb_cutoff_uses_gold_length() -> None:
    """The len<=CUTOFF_LEN block keeps sentences whose gold Len. is within the cut-off, errors included."""
    params = dataclasses.replace(COLLINS_PARAMS, cutoff_len=2)
    gold = ["(S (A (P a)) (B (Q b)))", "(S (A (P a)) (B (Q b)) (C (R c)))", "(S (A (P a)) (B (Q b)))"]
    test = ["(S (A (P a)) (B (Q b)))", "(S (A (P a)) (B (Q b)) (C (R c)))", "(S (A (P z)) (B (Q b)))"]
    result = score_lines(gold, test, params)
    assert (result.cut.sentences, result.cut.valid_sentences, result.cut.error_sentences) == (2, 1, 1)
    assert (result.cut.gold_brackets, result.total.gold_brackets) == (3, 7)
    assert format_report(result).count("-- len<=2 --") == 1


def test_evalb_max_error_tolerates_max_plus_one() -> None:
    """evalb stops at the error raised after MAX_ERROR + 1 errors: 2 errors pass with MAX_ERROR 1, a 3rd aborts."""
    params = dataclasses.replace(COLLINS_PARAMS, max_error=1)
    gold = ["(S (A (P a)) (B (Q b)))"] * 4
    bad = "(S (A (P x)) (B (Q b)))"
    assert score_lines(gold[:3], [bad, gold[0], bad], params).total.error_sentences == 2
    with pytest.raises(EvalbAbortError) as info:
        score_lines(gold, [bad, gold[0], bad, bad], params, test_source="t.txt")
    assert info.value.line == 4 and info.value.source == "t.txt" and "Words unmatch (a|x)" in info.value.reason


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


def test_evalb_no_match_prints_nan_like_evalb() -> None:
    """With no matched bracket evalb prints '-nan' for the F-measure; the API gives 0.0."""
    result = score_lines(["(S (A (P a)) (B (Q b)))"], ["(T (P a) (Q b))"])
    assert result.fmeasure == 0.0
    assert "Bracketing FMeasure       =   -nan\n" in format_report(result)


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


def test_evalb_sum_equals_scoring_concatenation() -> None:
    """a + b and combine() equal scoring the concatenated inputs (rows renumbered, all counts summed)."""
    gold = (EVALB / "sample_test.gold").read_text().splitlines()
    test = (EVALB / "sample_test.roark").read_text().splitlines()
    sgold = (EVALB / "sample.gld").read_text().splitlines()
    stest = (EVALB / "sample.tst").read_text().splitlines()
    params = read_params(EVALB / "sample.prm")
    parts = [score_lines(gold[:100], test[:100], params), score_lines(sgold, stest, params),
             score_lines(gold[100:], test[100:], params)]  # fmt: skip
    whole = score_lines(gold[:100] + sgold + gold[100:], test[:100] + stest + test[100:], params)
    assert parts[0] + parts[1] + parts[2] == whole
    assert combine(parts) == whole
    assert whole.total == parts[0].total + parts[1].total + parts[2].total
    assert whole.total.error_sentences == 5 and whole.sentences[-1].id == 245 + 24
    assert format_report(whole) == format_report(combine(parts))


def test_evalb_counts_add_is_fieldwise() -> None:
    """EvalbCounts + EvalbCounts adds every field."""
    a = EvalbCounts(*range(1, 13))
    assert dataclasses.astuple(a + a) == tuple(2 * v for v in range(1, 13))
    with pytest.raises(ValueError):
        _ = score_lines([], []) + score_lines([], [], dataclasses.replace(COLLINS_PARAMS, labeled=False))


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


# -- oracle: greedy matching vs multiset intersection on random trees ---------------------------

_WORDS = ("a", "b", "c", "d", "e", "f", "g")
_LABELS = ("S", "NP", "VP", "ADVP", "PRT", "TOP", "NP-SBJ")


@st.composite
def _tree(draw, tags: tuple[str, ...]) -> Tree:
    def build(lo: int, hi: int) -> Tree:
        if hi - lo == 1 and draw(st.booleans()):
            node = Tree(tags[lo], (_WORDS[lo],))
        else:
            cuts = [c for c in range(lo + 1, hi) if draw(st.booleans())]
            bounds = [lo, *cuts, hi]
            if len(bounds) == 2 and hi - lo > 1:
                bounds = [lo, lo + 1, hi]
            kids = [build(a, b) if b - a > 1 or draw(st.booleans()) else Tree(tags[a], (_WORDS[a],))
                    for a, b in zip(bounds, bounds[1:])]  # fmt: skip
            node = Tree(draw(st.sampled_from(_LABELS)), tuple(kids))
        while draw(st.integers(0, 3)) == 3:  # unary chains, sometimes of the same label
            node = Tree(draw(st.sampled_from(_LABELS)), (node,))
        return node

    return build(0, len(tags))


def _oracle(gold: Tree, test: Tree) -> tuple[int, int, int, int]:
    """Independent count: leaf ranges mapped to kept-word ranges, Counter intersection, brute-force crossing."""
    deleted = set(COLLINS_PARAMS.delete_labels)

    def brackets(tree: Tree) -> list[tuple[int, int, str]]:
        leaves = tree.pos()
        before = [0]
        for _, tag in leaves:
            before.append(before[-1] + (tag not in deleted))
        out = []

        def walk(node: Tree, start: int) -> int:
            if node.is_preterminal:
                return start + 1
            end = start
            for child in node.children:
                end = walk(child, end)  # type: ignore[arg-type]
            label = node.label.split("-")[0]
            label = "ADVP" if label == "PRT" else label
            if before[start] < before[end] and label not in deleted:
                out.append((before[start], before[end], label))
            return end

        walk(tree, 0)
        return out

    g, t = brackets(gold), brackets(test)
    matched = sum((Counter(g) & Counter(t)).values())
    crossing = sum(any(a < s < b < e or s < a < e < b for a, b, _ in g) for s, e, _ in t)
    return matched, len(g), len(t), crossing


@given(data=st.data(), n=st.integers(1, 7))
def test_evalb_matching_equals_multiset_oracle(data: st.DataObject, n: int) -> None:
    """On random tree pairs over one word string, evalb's counts equal the independent oracle's."""
    tags = tuple(data.draw(st.sampled_from(("NN", "DT", ",", "."))) for _ in range(n))
    if all(tag in (",", ".") for tag in tags):
        tags = ("NN", *tags[1:])
    gold, test = data.draw(_tree(tags)), data.draw(_tree(tags))
    row = score_trees([gold], [test]).sentences[0]
    assert row.status == STATUS_OK
    assert (row.matched, row.gold_brackets, row.test_brackets, row.crossing) == _oracle(gold, test)
    assert row.length == n and row.words == sum(tag not in (",", ".") for tag in tags)


# -- command line -----------------------------------------------------------------------------


@pytest.mark.parametrize(("gold", "test", "prm", "rsl"), REFERENCES, ids=REF_IDS)
def test_evalb_cli_prints_reference_report(capsys, gold: str, test: str, prm: str | None, rsl: str) -> None:
    """`glmnlp evalb [-p PRM] GOLD TEST` prints exactly the reference output and exits 0."""
    args = ["evalb", str(EVALB / gold), str(EVALB / test)] + ([] if prm is None else ["-p", str(EVALB / prm)])
    assert main(args) == 0
    out, err = capsys.readouterr()
    assert out == (EVALB / rsl).read_text()
    if rsl == "sample.rsl":
        assert err.splitlines() == [
            "12 : Words unmatch (is|was)", "13 : Length unmatch (4|5)", "16 : Length unmatch (4|5)",
            "17 : Length unmatch (4|6)", "20 : Words unmatch (this|That)",
        ]  # fmt: skip


def test_evalb_cli_summary_only_and_demo(capsys) -> None:
    """--summary-only prints the summary blocks; --demo scores the bundled reference parses."""
    assert main(["evalb", "--demo", "--summary-only"]) == 0
    out, _ = capsys.readouterr()
    expected = (EVALB / "sample_test.roark.rsl").read_text()
    assert out == expected[expected.index("=== Summary ===") :]
    assert main(["evalb", "--demo"]) == 0
    assert capsys.readouterr().out == expected
    assert main(["evalb", "--demo", "-c", "10", "--summary-only"]) == 0
    assert "-- len<=10 --" in capsys.readouterr().out


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


def test_scoring_refuses_params_that_are_not_evalb_params(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """``score_files(g, t, params=5)`` was ``AttributeError: 'int' object has no attribute 'delete_labels'``."""
    from glmnlp.treebank.evalb import score_files, score_trees
    from glmnlp.treebank.trees import parse_tree

    tree = parse_tree("(TOP (S (NN dog)))")
    path = tmp_path / "g.trees"
    path.write_text("(TOP (S (NN dog)))\n", encoding="utf-8")
    with pytest.raises(TypeError, match="params must be an EvalbParams"):
        score_files(path, path, 5)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="params must be an EvalbParams"):
        score_trees([tree], [tree], {"delete_labels": []})  # type: ignore[arg-type]
    assert score_trees([tree], [tree]).fmeasure == 100.0


def test_score_trees_reads_brackets_in_words_as_the_file_of_the_trees_does() -> None:
    """A tree whose words hold "(" or ")" as written (the pipeline gives them back so) scores as its file does,
    where to_bracket writes them -LRB- / -RRB-: it was a word mismatch against the gold -LRB- (an error sentence,
    and with punctuation stripped a length mismatch)."""
    from glmnlp.treebank.evalb import COLLINS_PARAMS, score_lines, score_trees
    from glmnlp.treebank.trees import Tree, parse_tree, to_bracket

    gold = parse_tree("(TOP (S (NP (PRP He)) (PRN (-LRB- -LRB-) (ADVP (RB really)) (-RRB- -RRB-)) (VP (VBD left))"
                      " (. .)))")
    written = {"-LRB-": "(", "-RRB-": ")"}

    def as_written(node: Tree | str) -> Tree | str:
        if isinstance(node, str):
            return written.get(node, node)
        return Tree(node.label, tuple(as_written(c) for c in node.children))

    test = as_written(gold)
    assert isinstance(test, Tree) and "(" in test.leaves()
    for params in (COLLINS_PARAMS, dataclasses.replace(COLLINS_PARAMS, strip_punct=True)):
        by_trees = score_trees([gold], [test], params)
        by_lines = score_lines([to_bracket(gold)], [to_bracket(test)], params)
        assert by_trees.sentences[0].status == 0 and by_trees.total.error_sentences == 0
        assert by_trees == by_lines and (by_trees.recall, by_trees.precision) == (100.0, 100.0)


@settings(max_examples=500, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 8), st.integers(1, 8), st.sampled_from("ABC")), max_size=12),
       st.lists(st.tuples(st.integers(0, 8), st.integers(1, 8), st.sampled_from("ABC")), max_size=12),
       st.booleans())
def test_matching_and_crossing_are_those_of_every_pair(gold: list, test: list, labeled: bool) -> None:
    """Matching read each span's test brackets from the first, and crossing compared every test bracket with every
    gold one: quadratic in a deep tree's brackets (a unary chain of 20,000 took minutes). Both are read otherwise
    now; the counts are those of the pairwise definitions (EVALB's)."""
    from glmnlp.treebank.evalb import _crosses, _span_bounds

    gold_br = [(a, a + w, x) for a, w, x in gold]
    test_br = [(a, a + w, x) for a, w, x in test]
    bounds = _span_bounds(gold_br, 16)
    assert [_crosses(s, e, *bounds) for s, e, _ in test_br] == [
        any(a < s < b < e or s < a < e < b for a, b, _ in gold_br) for s, e, _ in test_br]
    from glmnlp.treebank import evalb

    params = dataclasses.replace(COLLINS_PARAMS, labeled=labeled)
    used = [False] * len(test_br)
    expected = 0
    for a, b, x in gold_br:  # first unused test bracket of the span (and label), in order
        for k, (s, e, y) in enumerate(test_br):
            if not used[k] and (s, e) == (a, b) and (not labeled or x == y):
                used[k], expected = True, expected + 1
                break
    assert evalb._match_count(gold_br, test_br, params, lambda p, q: p == q) == expected


def test_an_evalb_result_and_an_explanation_print_short() -> None:
    """``score_trees(gold, test)`` and ``nlp.explain(text)`` as a notebook cell's last line printed the generated
    reprs on one line: every sentence's row (81,000 characters for 559 sentences) without the F-measure asked for,
    every node and feature (160,000 characters for three sentences). Each says what it is in one short line."""
    import glmnlp

    tree = glmnlp.parse_tree("(TOP (S (NP (DT The) (NN dog)) (VP (VBD barked)) (. .)))")
    result = glmnlp.score_trees([tree] * 600, [tree] * 600)
    assert repr(result) == "<EvalbResult: 600 sentences, F1 100.00 (LR 100.00, LP 100.00)>"
    explanation = glmnlp.load().explain(" ".join(["The dog barked and the cat ran ."] * 6))[0]
    assert explanation is not None and len(repr(explanation)) < 120
    shown = repr(explanation)
    assert shown.startswith("<Explanation of 'The dog barked") and f"{len(explanation.nodes)} nodes" in shown
    # one sentence is a sentence; a node is one line too (its generated repr: 781 characters, 100 KB for 85 nodes)
    assert repr(glmnlp.score_trees([tree], [tree])) == "<EvalbResult: 1 sentence, F1 100.00 (LR 100.00, LP 100.00)>"
    node = explanation.nodes[0]
    assert repr(node) == f"<NodeScore word 0 {node.label}: score {node.score:+.4f}, {len(node.features)} features>"


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
