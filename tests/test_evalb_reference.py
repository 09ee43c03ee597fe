"""EVALB scorer against three reference evalb outputs: every figure, every summary line, the report as the CLI
prints it.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from evalb_fixtures import EVALB
from glmnlp.cli import main
from glmnlp.treebank.evalb import EvalbResult, format_report, score_files, score_trees
from glmnlp.treebank.trees import read_tree_file


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
