"""glmnlp.measures API, its writers and plot, the `glmnlp measures` command, and docs/measures.md."""

from __future__ import annotations

import csv
import io
import json
import math
import re
from pathlib import Path

import pytest

import glmnlp
from glmnlp.cli import main
from glmnlp.parser.measures import COLUMNS, MeasureOptions
from glmnlp.text.measures import write_measures

ROOT = Path(__file__).parent.parent
SENT = "The horse raced past the barn fell."


@pytest.fixture(scope="module")
def rows() -> list[dict]:
    return glmnlp.measures([SENT, "It barked."])


def test_measures_api_rows_and_frame(rows: list[dict]) -> None:
    """Rows have every documented column; two texts give two numbered sentences; the frame matches the rows."""
    assert all(list(r) == list(COLUMNS) for r in rows)
    assert [r["sentence"] for r in rows] == [1] * 9 + [2] * 4
    assert [r["word"] for r in rows[9:]] == ["It", "barked", ".", "</s>"]
    pd = pytest.importorskip("pandas")
    frame = glmnlp.measures([["The", "horse", "raced", "."]], as_frame=True, units="nats")
    assert isinstance(frame, pd.DataFrame) and list(frame.columns) == list(COLUMNS)
    assert frame["units"].eq("nats").all() and len(frame) == 5
    bits = glmnlp.measures([["The", "horse", "raced", "."]])
    assert frame["surprisal"].tolist() == pytest.approx([r["surprisal"] * math.log(2) for r in bits])


def test_measures_writers_round_trip(rows: list[dict]) -> None:
    """TSV and CSV have a header and one line per row with the same values; JSON has one object per line."""
    for fmt, delim in (("tsv", "\t"), ("csv", ",")):
        out = io.StringIO()
        write_measures(rows, out, fmt)
        table = list(csv.reader(io.StringIO(out.getvalue()), delimiter=delim))
        assert table[0] == list(COLUMNS) and len(table) == len(rows) + 1
        assert [float(x[COLUMNS_INDEX["surprisal"]]) for x in table[1:]] == pytest.approx(
            [r["surprisal"] for r in rows], rel=1e-5)
    out = io.StringIO()
    write_measures(rows, out, "json")
    back = [json.loads(line) for line in out.getvalue().splitlines()]
    assert [b["word"] for b in back] == [r["word"] for r in rows]
    with pytest.raises(ValueError, match="format"):
        write_measures(rows, io.StringIO(), "xml")


COLUMNS_INDEX = {c: k for k, c in enumerate(COLUMNS)}


def test_measures_cli_formats_units_and_errors(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """`glmnlp measures` prints a TSV table (default bits), CSV in nats, reads tokenised files, rejects empty input."""
    assert main(["measures", SENT]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].split("\t") == list(COLUMNS) and len(lines) == 10
    assert lines[7].split("\t")[2] == "fell" and lines[7].split("\t")[-1] == "bits"
    src = tmp_path / "toks.txt"
    src.write_text("The dog barked .\n\nIt ran .\n", encoding="utf-8")
    assert main(["measures", "--tokenized", "-i", str(src), "--format", "csv", "--units", "nats", "--no-eos"]) == 0
    table = list(csv.reader(io.StringIO(capsys.readouterr().out)))
    assert [r[2] for r in table[1:]] == ["The", "dog", "barked", ".", "It", "ran", "."]
    assert {r[-1] for r in table[1:]} == {"nats"}
    assert main(["measures", "--next-word", "--format", "csv", "It barked ."]) == 0
    table = list(csv.reader(io.StringIO(capsys.readouterr().out)))
    assert table[0][-5:] == ["total_entropy", "syntactic_entropy", "lexical_entropy", "word_entropy", "rank"]
    assert table[-1][-1] == "NA" and float(table[1][-1]) >= 1
    empty = tmp_path / "empty.txt"
    empty.write_text("\n", encoding="utf-8")
    assert main(["measures", "-i", str(empty)]) == 1
    assert "no text" in capsys.readouterr().err


def test_measures_cli_word_classes_override(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """--word-classes replaces the packaged list."""
    f = tmp_path / "wc.tsv"
    f.write_text("horse\tclosed\n", encoding="utf-8")
    assert main(["measures", "--word-classes", str(f), "--no-eos", SENT]) == 0
    classes = [line.split("\t")[3] for line in capsys.readouterr().out.splitlines()[1:]]
    assert classes == ["open", "closed", "open", "open", "open", "open", "open", "previous"]
    rules = tmp_path / "rules.tsv"
    rules.write_text(":punctuation:\tclosed\n", encoding="utf-8")
    assert main(["measures", "--word-class-rules", str(rules), "--no-eos", SENT]) == 0
    classes = [line.split("\t")[3] for line in capsys.readouterr().out.splitlines()[1:]]
    assert classes == ["closed", "open", "open", "open", "closed", "open", "open", "closed"]


def test_plot_measures_writes_an_image(rows: list[dict], tmp_path: Path) -> None:
    """plot_measures draws one line per column over the sentence's words and saves the figure."""
    pytest.importorskip("matplotlib")
    path = tmp_path / "gp.png"
    ax = glmnlp.plot_measures(rows, 1, path=path)
    assert path.stat().st_size > 1000 and len(ax.get_lines()) == 4
    assert [t.get_text() for t in ax.get_xticklabels()][-2:] == [".", "</s>"]
    with pytest.raises(glmnlp.InputError, match="sentence 7"):
        glmnlp.plot_measures(rows, 7)


def test_docs_measures_examples_run() -> None:
    """Every ```pycon example in docs/measures.md runs and prints what the page shows."""
    import doctest

    page = ROOT / "docs" / "measures.md"
    blocks = re.findall(r"^```pycon\n(.*?)^```", page.read_text(encoding="utf-8"), flags=re.S | re.M)
    assert len(blocks) >= 2
    test = doctest.DocTestParser().get_doctest("\n".join(blocks), {}, "docs/measures.md", str(page), 0)
    runner = doctest.DocTestRunner(optionflags=doctest.NORMALIZE_WHITESPACE)
    runner.run(test)
    result = runner.summarize(verbose=False)
    assert result.failed == 0 and result.attempted == len(test.examples) > 0


def test_pipeline_measures_equal_the_api() -> None:
    """nlp(text, measures=True): each sentence's rows are glmnlp.measures()'s for the same text, numbered
    within the document; the document's frame has the same columns; to_dict/from_dict keep them."""
    text = SENT + " It barked."
    nlp = glmnlp.load()
    doc = nlp(text, measures=True)
    expected = glmnlp.measures(text)
    assert [len(s.measures) for s in doc.sents] == [9, 4]
    assert doc.measures == expected
    assert [r["word"] for r in doc.sents[1].measures] == ["It", "barked", ".", "</s>"]
    assert doc.sents[1].measures[0]["sentence"] == 2
    assert glmnlp.Document.from_dict(doc.to_dict()) == doc
    nats = nlp([["It", "barked", "."]], measures=MeasureOptions(units="nats")).measures
    assert nats == glmnlp.measures([["It", "barked", "."]], units="nats")
    assert nlp(text).sents[0].measures == ()
    pd = pytest.importorskip("pandas")
    frame = doc.measures_frame()
    assert isinstance(frame, pd.DataFrame) and list(frame.columns) == list(COLUMNS) and len(frame) == 13
    assert frame["surprisal"].tolist() == pytest.approx([r["surprisal"] for r in expected])


def test_pipeline_measures_need_a_generative_term() -> None:
    """A parser without a generative term is refused with a clear error, before any work."""
    from glmnlp.text.pipeline import Pipeline

    class Flat:
        def parse(self, words, tags):
            return glmnlp.parse_tree("(TOP (S " + " ".join(f"({t} {w})" for w, t in zip(words, tags)) + "))")

    nlp = Pipeline(None, Flat())
    assert nlp([[("It", "PRP"), ("barked", "VBD")]]).sents[0].tree is not None
    with pytest.raises(glmnlp.ConfigError, match="generative term"):
        nlp([[("It", "PRP"), ("barked", "VBD")]], measures=True)
