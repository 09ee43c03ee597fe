"""glmnlp.measures API, its writers and plot, the `glmnlp measures` command, and docs/measures.md."""

from __future__ import annotations

import ast
import csv
import io
import json
import math
import re
import subprocess
import sys
import warnings
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import glmnlp
from glmnlp.cli import main
from glmnlp.errors import ConfigError
from glmnlp.parser.measures import COLUMNS, MeasureOptions
from glmnlp.text.inputs import line_numbers
from glmnlp.text.measures import numbered_sentences, text_sentences, write_measures

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
        # every float as it is (six significant digits lost a long sentence's prefix: 13793.2)
        assert [float(x[COLUMNS_INDEX["surprisal"]]) for x in table[1:]] == [r["surprisal"] for r in rows]
        assert [float(x[COLUMNS_INDEX["prefix"]]) for x in table[1:]] == [r["prefix"] for r in rows]
    out = io.StringIO()
    write_measures(rows, out, "json")
    back = [json.loads(line) for line in out.getvalue().splitlines()]
    assert [b["word"] for b in back] == [r["word"] for r in rows]
    with pytest.raises(ConfigError, match="format"):  # an invalid option (docs/api.md)
        write_measures(rows, io.StringIO(), "xml")


def test_measures_writers_keep_backslashes_and_quotes(rows: list[dict]) -> None:
    """The treebank's ``50\\/50`` came back as ``50\\\\/50`` and ``c"d`` as ``c\\"d`` from the CSV and TSV files
    (a backslash escape, which neither csv nor pandas reads): the words read back as written now. And TSV with the
    word ``"`` (``glmnlp measures --tokenized 'I know " hello " .'``) read by pandas (and R) merged the rows after it
    into one cell, since their TSV readers take a cell that begins with a quote as quoted: TSV is quoted as CSV is."""
    words = ["50\\/50", 'c"d', "a,b", '"', "\\", '"hi"', "x\ty"]
    odd = [dict(rows[0], word=w) for w in words]
    pd = pytest.importorskip("pandas")
    for fmt, delim in (("tsv", "\t"), ("csv", ",")):
        out = io.StringIO()
        write_measures(odd, out, fmt)
        table = list(csv.reader(io.StringIO(out.getvalue()), delimiter=delim))
        assert [line[COLUMNS_INDEX["word"]] for line in table[1:]] == words, fmt
        frame = pd.read_csv(io.StringIO(out.getvalue()), sep=delim)
        assert frame["word"].tolist() == words and len(frame) == len(words), fmt
    # docs/measures.md: how to read words spelled NA or None (pandas' defaults read them as missing)
    named = [dict(rows[0], word=w, entropy=math.nan) for w in ("NA", "None", "nan")]
    out = io.StringIO()
    write_measures(named, out, "tsv")
    text = {"word", "word_class", "units"}
    frame = pd.read_csv(io.StringIO(out.getvalue()), sep="\t", keep_default_na=False, dtype={c: str for c in text},
                        na_values={c: ["NA"] for c in COLUMNS if c not in text})
    assert frame["word"].tolist() == ["NA", "None", "nan"] and frame["entropy"].isna().all()
    # ... and words that all look like numbers (number stimuli without </s> rows) were read as numbers: 007 as 7.0
    numbers = ["1e5", "-0", "inf", "007", "3.10", "1"]
    for fmt in ("tsv", "json"):
        out = io.StringIO()
        write_measures([dict(rows[0], word=w) for w in numbers], out, fmt)
        frame = (pd.read_json(io.StringIO(out.getvalue()), lines=True, dtype={"word": str}) if fmt == "json" else
                 pd.read_csv(io.StringIO(out.getvalue()), sep="\t", keep_default_na=False, dtype={c: str for c in text},
                             na_values={c: ["NA"] for c in COLUMNS if c not in text}))
        assert frame["word"].tolist() == numbers, fmt


COLUMNS_INDEX = {c: k for k, c in enumerate(COLUMNS)}


def test_measures_cli_formats_units_and_errors(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """`glmnlp measures` prints a TSV table (default bits), CSV in nats, reads tokenised files, rejects empty input."""
    assert main(["measures", SENT]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].split("\t") == list(COLUMNS) and len(lines) == 10
    assert lines[7].split("\t")[COLUMNS_INDEX["word"]] == "fell" and lines[7].split("\t")[-1] == "bits"
    src = tmp_path / "toks.txt"
    src.write_text("The dog barked .\n\nIt ran .\n", encoding="utf-8")
    assert main(["measures", "--tokenized", "-i", str(src), "--format", "csv", "--units", "nats", "--no-eos"]) == 0
    table = list(csv.reader(io.StringIO(capsys.readouterr().out)))
    assert [r[COLUMNS_INDEX["word"]] for r in table[1:]] == ["The", "dog", "barked", ".", "It", "ran", "."]
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
    classes = [line.split("\t")[COLUMNS_INDEX["word_class"]] for line in capsys.readouterr().out.splitlines()[1:]]
    assert classes == ["open", "closed", "open", "open", "open", "open", "open", "previous"]
    rules = tmp_path / "rules.tsv"
    rules.write_text(":punctuation:\tclosed\n", encoding="utf-8")
    assert main(["measures", "--word-class-rules", str(rules), "--no-eos", SENT]) == 0
    classes = [line.split("\t")[COLUMNS_INDEX["word_class"]] for line in capsys.readouterr().out.splitlines()[1:]]
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
    # one column given by its name was read letter by letter: "unknown column 's'"
    ax = glmnlp.plot_measures(rows, 1, columns="surprisal", path=path)
    assert [line.get_label() for line in ax.get_lines()] == ["surprisal"]


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


def _run(capsys: pytest.CaptureFixture[str], argv: list[str]) -> tuple[int, str, str]:
    capsys.readouterr()
    rc = main(argv)
    out, err = capsys.readouterr()
    return rc, out, err


def test_measures_cli_plot_problems_are_found_before_any_output(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """A --plot suffix matplotlib does not write (usage error), a missing folder, a file used as a folder and
    --sentence past the last sentence: one line on stderr, nothing on stdout, no traceback."""
    pytest.importorskip("matplotlib")
    rc, out, err = _run(capsys, ["measures", "--plot", str(tmp_path / "x.xyz"), "A dog."])
    assert (rc, out) == (2, "") and "Invalid value for '--plot'" in err and "png" in err
    target = tmp_path / "nodir" / "x.png"
    rc, out, err = _run(capsys, ["measures", "--plot", str(target), "A dog."])
    assert (rc, out, err) == (1, "", f"error: {target}: folder {target.parent} does not exist\n")
    afile = tmp_path / "afile"
    afile.write_text("", encoding="utf-8")
    rc, out, err = _run(capsys, ["measures", "--plot", str(afile / "x.png"), "A dog."])
    assert (rc, out, err) == (1, "", f"error: {afile / 'x.png'}: {afile} is not a folder\n")
    rc, out, err = _run(capsys, ["measures", "--plot", str(tmp_path / "x.png"), "--sentence", "5", "A dog."])
    assert (rc, out, err) == (1, "", "error: --sentence 5: the input has 1 sentence\n")
    assert not (tmp_path / "x.png").exists()
    rc, out, err = _run(capsys, ["measures", "--plot", str(tmp_path / "x.svg"), "--sentence", "2", "A dog. It ran."])
    assert rc == 0 and err == f"{tmp_path / 'x.svg'}\n"
    assert out.splitlines()[-1].split("\t")[COLUMNS_INDEX["sentence"]] == "2"
    with pytest.raises(glmnlp.ConfigError, match="x.xyz"):
        glmnlp.plot_measures(glmnlp.measures("It ran."), 1, path=tmp_path / "x.xyz")


def _toy_parser_without_generative_term(path: Path) -> None:
    import numpy as np

    from glmnlp.parser.grammar import Grammar
    from glmnlp.parser.model import Parser, ParserConfig, punctuation_tags
    from glmnlp.parser.transform import fslc_transform
    from toy_trees import TINY

    cfg = ParserConfig(n_bits=1, gamma=1e18, beam_cap=0)
    trees = [glmnlp.parse_tree(t) for t in TINY]
    grammar = Grammar.induce([fslc_transform(t, cfg.fslc) for t in trees], long_chain_min_count=1)
    Parser(grammar, punctuation_tags(trees), np.zeros(2), cfg).save(path)


def test_measures_cli_errors_name_their_file_once(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """`error: PATH[:LINE]: reason`, never `<input>: PATH: ...`; input refused as glmnlp parse refuses it."""
    missing = tmp_path / "nonexist"
    rc, out, err = _run(capsys, ["measures", "-i", str(missing)])
    assert (rc, out) == (1, "") and err.startswith(f"error: {missing}: cannot read file: ")
    assert err.count(str(missing)) == 1
    classes = tmp_path / "wc.tsv"
    classes.write_text("horse\tbad\n", encoding="utf-8")
    rc, out, err = _run(capsys, ["measures", "--word-classes", str(classes), SENT])
    assert (rc, out) == (1, "") and err.startswith(f"error: {classes}:1: expected 'word<TAB>")
    model = tmp_path / "perceptron_only"
    _toy_parser_without_generative_term(model)
    rc, out, err = _run(capsys, ["measures", "--model", str(model), "the dog"])
    assert (rc, out) == (1, "") and err.startswith(f"error: {model}: word-by-word measures need a parser with a "
                                                   "generative term")
    assert "<input>" not in err
    binary = tmp_path / "nul.txt"
    binary.write_bytes(b"A dog.\nA\x00cat.\n")
    rc, out, err = _run(capsys, ["measures", "-i", str(binary)])
    assert (rc, out, err) == (1, "", f"error: {binary}:2: binary data (NUL byte); expected UTF-8 text\n")
    rc, out, err = _run(capsys, ["measures", "-i", str(binary), "A dog."])
    assert (rc, out) == (2, "") and err.endswith("\nError: give TEXT arguments or --input FILE, not both\n")


def test_measures_api_input_errors_are_clear(tmp_path: Path) -> None:
    """Lone surrogates are InputErrors; bytes, None and numbers TypeErrors (they were InputErrors, where the
    pipeline and the rest of the API raise a TypeError for a value of the wrong kind), each saying what was
    expected."""
    with pytest.raises(glmnlp.InputError, match=r"^item 1: character 2 is the lone surrogate U\+D[0-9A-F]{3}, not text"):
        glmnlp.measures("x\udc80")
    with pytest.raises(glmnlp.InputError, match="item 1: token 2: character 2 is the lone surrogate"):
        glmnlp.measures([["It", "x\udc80"]])
    with pytest.raises(TypeError, match=r"got bytes; decode bytes first"):
        glmnlp.measures(b"abc")
    with pytest.raises(TypeError, match="expected a text .*got None"):
        glmnlp.measures(None)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="item 2: expected a text .*got int"):
        glmnlp.measures(["It ran.", 5])  # type: ignore[list-item]
    with pytest.raises(glmnlp.ConfigError, match="gamma"):
        glmnlp.measures("It ran.", gamma=-1.0)
    with pytest.raises(glmnlp.ConfigError, match="cap"):
        glmnlp.measures("It ran.", cap=-5)


def test_measures_cli_warns_of_cut_text_in_one_line(tmp_path: Path) -> None:
    """Text without a sentence boundary for 2,000 characters is cut, and said so on stderr as glmnlp parse says it
    (one ``warning:`` line, then the count), not as a Python warning naming a line of click's source."""
    src = tmp_path / "long.txt"
    src.write_text(" ".join(["dogs bark"] * 460) + "\n", encoding="utf-8")  # 4,599 characters, no full stop
    run = subprocess.run([sys.executable, "-c", "from glmnlp.cli import main; raise SystemExit(main())", "measures",
                          "-i", str(src)], capture_output=True, text=True, check=True)
    assert run.stderr.splitlines() == [
        "warning: no sentence boundary within 2000 characters (at character 0, and 1 more cut after it): the text is "
        "cut into pieces of at most 2000 characters",
        "warning: 2 pieces cut from text without sentence boundaries in all",
    ]
    assert run.stdout.count("\t</s>\t") == 3  # three pieces, each a sentence with its end-of-sentence row


def test_measures_warns_of_a_sentence_long_enough_to_take_long(tmp_path: Path) -> None:
    """A tokenised line is one sentence however long, and the measures of a sentence take time growing faster
    than its length (6,000 words: over a minute, with nothing said): more than LONG_SENTENCE words are warned of
    before any work, by the library as a LongSentenceWarning naming the caller's line, by the command as one
    ``warning:`` line; a sentence of LONG_SENTENCE words is not."""
    from glmnlp.text.measures import LONG_SENTENCE, LongSentenceWarning, text_sentences

    words = ["dogs", "bark"] * (LONG_SENTENCE // 2)
    with pytest.warns(LongSentenceWarning, match=rf"sentence 2 has {LONG_SENTENCE + 1:,} words \(item 2\)") as caught:
        text_sentences([["Dogs", "bark", "."], [*words, "."]])
    assert len(caught) == 1 and caught[0].filename == __file__
    assert (caught[0].message.sentence, caught[0].message.item, caught[0].message.words) == (2, 2, LONG_SENTENCE + 1)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        text_sentences([words], tokenized=False)
    src = tmp_path / "one_line.txt"
    src.write_text("Dogs bark .\n\n\n" + " ".join([*words, "loudly"]) + "\n", encoding="utf-8")
    run = subprocess.run([sys.executable, "-c", "from glmnlp.cli import main; raise SystemExit(main())", "measures",
                          "--tokenized", "-i", str(src)], capture_output=True, text=True, check=True)
    # the line of the file, as glmnlp parse names it (the sentence's number alone said "sentence 2" of line 4)
    assert run.stderr.splitlines() == [
        f"warning: {src}:4: sentence 2 has {LONG_SENTENCE + 1:,} words (item 4): the measures of a sentence take "
        "time growing faster than its length (6,000 words: over a minute); tokenised input is one sentence a line"
    ]
    assert run.stdout.count("\n") == 1 + 4 + LONG_SENTENCE + 2  # header, the short sentence, the words, </s>s


def test_plot_measures_saving_leaves_matplotlib_as_it_was_and_takes_frames(tmp_path: Path) -> None:
    """Saving switched matplotlib's backend to Agg for the whole process and left the figure open in pyplot (a
    notebook lost its inline drawing and gathered figures); the ``as_frame`` DataFrame was a TypeError, the
    next_word columns 'unknown', and a document's rows (None for an infinite value) could not be drawn."""
    matplotlib = pytest.importorskip("matplotlib")
    pytest.importorskip("pandas")
    import matplotlib.pyplot as plt

    before = matplotlib.get_backend()
    matplotlib.use("svg")
    try:
        open_before = plt.get_fignums()
        glmnlp.plot_measures(glmnlp.measures("It ran.", as_frame=True), 1, path=tmp_path / "frame.png")
        glmnlp.plot_measures(glmnlp.measures("It ran.", next_word=True), 1, columns=("surprisal", "word_entropy"),
                             path=tmp_path / "next.png")
        glmnlp.plot_measures(glmnlp.load()("It ran.", measures=True).measures, 1, path=tmp_path / "doc.png")
        assert matplotlib.get_backend() == "svg" and plt.get_fignums() == open_before
        assert all((tmp_path / name).stat().st_size > 1000 for name in ("frame.png", "next.png", "doc.png"))
    finally:
        matplotlib.use(before)


def test_plot_measures_takes_a_document_and_says_what_else_it_takes(tmp_path: Path) -> None:
    """A Document was taken for a DataFrame ('to_dict() takes 1 positional argument'), a Sentence failed as
    ''Token' object is not subscriptable' and a path given for the sentence number as 'no rows for sentence
    p.png'; a document is now drawn from its rows, and the others are TypeErrors saying what was expected."""
    pytest.importorskip("matplotlib")
    doc = glmnlp.load()("It barked.", measures=True)
    glmnlp.plot_measures(doc, path=tmp_path / "doc.png")
    assert (tmp_path / "doc.png").stat().st_size > 1000
    with pytest.raises(TypeError, match="dicts with a 'sentence' column"):
        glmnlp.plot_measures(doc.sentences[0], path=tmp_path / "x.png")
    with pytest.raises(TypeError, match="sentence must be a sentence number"):
        glmnlp.plot_measures(glmnlp.measures("It barked."), str(tmp_path / "p.png"))  # type: ignore[arg-type]


def test_measures_lines_makes_each_stimulus_line_a_sentence(capsys: pytest.CaptureFixture[str],
                                                             tmp_path: Path) -> None:
    """A stimuli file of one item a line without full stops was read as one paragraph: two items became one
    sentence of 12 words, the second item conditioned on the first; ``--lines`` (``lines=True``) reads a sentence a
    line, as ``glmnlp parse --lines`` does. And ``--tokenized`` with a TEXT argument of two lines made one sentence
    where the same two lines from a file made two."""
    stimuli = tmp_path / "stimuli.txt"
    stimuli.write_text("The horse raced past the barn fell\nThe old man the boat\n", encoding="utf-8")

    def sentences(argv: list[str]) -> list[list[str]]:
        assert main(["measures", "--no-eos", "--format", "csv", *argv]) == 0
        table = list(csv.reader(io.StringIO(capsys.readouterr().out)))[1:]
        word, number = COLUMNS_INDEX["word"], COLUMNS_INDEX["sentence"]
        return [[r[word] for r in table if r[number] == k] for k in dict.fromkeys(r[number] for r in table)]

    assert [len(s) for s in sentences(["-i", str(stimuli)])] == [12]
    assert sentences(["--lines", "-i", str(stimuli)]) == [["The", "horse", "raced", "past", "the", "barn", "fell"],
                                                         ["The", "old", "man", "the", "boat"]]
    assert [len(s) for s in sentences(["--tokenized", "The dog barked .\nA cat slept ."])] == [4, 4]
    assert glmnlp.measures("a b\nc d", lines=True, eos=False)[-1]["sentence"] == 2
    with pytest.raises(ConfigError, match="lines applies to raw text"):
        glmnlp.measures("a b", lines=True, tokenized=True)
    assert main(["measures", "--lines", "--tokenized", "a b"]) == 2


def test_measures_report_progress_per_sentence_and_the_cli_shows_a_bar_on_a_terminal(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """``glmnlp measures --next-word`` ran for minutes with nothing on the terminal (the table comes at the end): the
    API calls ``progress`` after each sentence, and the command shows a bar on a terminal's stderr (not with -q)."""
    calls: list[int] = []
    rows = glmnlp.measures("The dog barked. It ran.", progress=calls.append)
    assert calls == [1, 1] and {r["sentence"] for r in rows} == {1, 2}
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True)
    assert main(["measures", "The dog barked. It ran. A cat sat."]) == 0
    captured = capsys.readouterr()
    assert "sentences:" in captured.err and "/3" in captured.err and captured.out.startswith("item\tsentence\t")
    assert main(["measures", "-q", "The dog barked. It ran. A cat sat."]) == 0
    assert capsys.readouterr().err == ""


def test_measures_plot_is_written_atomically_and_never_over_the_input(tmp_path: Path) -> None:
    """A drawing that could not be written whole (a full disk) left a truncated file in place of the old one; the
    --plot file being the --input file replaced the text by the drawing."""
    pytest.importorskip("matplotlib")
    old = tmp_path / "gp.svg"
    old.write_text("precious old drawing\n")
    code = ("import resource, signal, sys; signal.signal(signal.SIGXFSZ, signal.SIG_IGN); "
            "resource.setrlimit(resource.RLIMIT_FSIZE, (8192, 8192)); from glmnlp.cli import main; sys.exit(main())")
    run = subprocess.run([sys.executable, "-c", code, "measures", "--plot", str(old), "The horse raced past the barn "
                          "fell."], capture_output=True, text=True, timeout=300)
    assert run.returncode == 1 and "File too large" in run.stderr, run.stderr
    assert old.read_text() == "precious old drawing\n" and sorted(p.name for p in tmp_path.iterdir()) == ["gp.svg"]
    story = tmp_path / "story.svg"
    story.write_text("The dog barked.\n")
    assert main(["measures", "-i", str(story), "--plot", str(story)]) == 2
    assert story.read_text() == "The dog barked.\n"


def test_measures_item_column_maps_rows_to_stimuli(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Each row names the input item its sentence came from: an empty stimulus and a two-sentence one no longer
    shift the stimuli after them, a blank line of a --lines / --tokenized file keeps the line numbers, and a
    pipeline's rows number the same text as glmnlp.measures does (one text; with lines, its lines)."""
    rows = glmnlp.measures(["", "The old man the boat.", "It fell. It rose.", ["Dogs", "bark", "."]])
    assert sorted({(r["item"], r["sentence"]) for r in rows}) == [(2, 1), (3, 2), (3, 3), (4, 4)]
    stimuli = tmp_path / "stimuli.txt"
    stimuli.write_text("The dog barked\n\n  \nIt ran\n", encoding="utf-8")
    for flag in ("--lines", "--tokenized"):
        rc, out, _ = _run(capsys, ["measures", "-q", flag, "-i", str(stimuli)])
        table = list(csv.DictReader(io.StringIO(out), delimiter="\t"))
        assert rc == 0 and [(r["item"], r["sentence"], r["word"]) for r in table if r["index"] == "1"] == [
            ("1", "1", "The"), ("4", "2", "It")], flag
    text = "The dog barked.\r\nIt ran. It fell.\n\nA cat."
    for lines in (False, True):
        doc = glmnlp.load(lines=lines)(text, measures=True)
        by_pipeline = [(r["item"], r["sentence"]) for s in doc.sentences for r in s.measures]
        assert by_pipeline == [(r["item"], r["sentence"]) for r in glmnlp.measures(text, lines=lines)]
    assert sorted({r["item"] for r in glmnlp.measures(text, lines=True)}) == [1, 2, 4]


@settings(max_examples=120, deadline=None)
@given(st.lists(st.sampled_from(["", " ", "A dog barked.", "It ran. It fell.", "no stop here", "x\ny", "\n",
                                 "a b\x0cc d", "p q\r\nr s", "u\rv"]), min_size=1, max_size=8),
       st.sampled_from(["text", "lines", "tokenized"]))
def test_numbered_sentences_items_are_the_stimuli(texts: list[str], mode: str) -> None:
    """Each sentence's item is the text it came from (its position from 1), or with ``lines``/``tokenized`` its line
    in a file of the texts one after another (split as the command reads a file: a form feed is no line end, and a
    tokenised line holding one is one sentence, as glmnlp parse reads it); empty texts take their number with them."""
    from glmnlp.treebank.fileio import split_lines

    sentences, items = numbered_sentences(texts, tokenized=mode == "tokenized", lines=mode == "lines")
    assert len(items) == len(sentences) and items == sorted(items)
    file_lines = split_lines("".join(t if t.endswith(("\n", "\r")) else t + "\n" for t in texts))
    if mode == "lines":
        expected = [n for n, line in enumerate(file_lines, 1) for _ in text_sentences(line, lines=True)]
    elif mode == "tokenized":
        expected = [n for n, line in enumerate(file_lines, 1) if line.split()]
    else:
        expected = [k for k, text in enumerate(texts, 1) for _ in text_sentences(text)]
    assert items == expected


@given(st.text(alphabet="ab \r\n", max_size=40), st.data())
def test_line_numbers_brute_force(text: str, data: st.DataObject) -> None:
    """line_numbers agrees with counting the line ends before each offset (CRLF is one)."""
    offsets = sorted(data.draw(st.lists(st.integers(0, len(text)), max_size=10)))
    offsets = [k for k in offsets if text[k - 1:k + 1] != "\r\n"]  # no token begins inside a CRLF
    expected = [len(re.findall(r"\r\n?|\n", text[:k])) + 1 for k in offsets]
    assert line_numbers(text, offsets) == expected


def test_tokenized_lines_holding_a_form_feed_or_line_separator_are_one_sentence_each() -> None:
    """``--tokenized`` stimuli whose lines held U+2028, a form feed, a vertical tab or U+0085 were cut there into two
    sentences of one item (an end-of-sentence row inside it, the context reset), while glmnlp parse --tokenized
    read the line as one sentence: each is a space between tokens."""
    text = "A dog barked .\nThe cat\u2028sat .\nThe \x0cbird\x0bsang .\nFish\x85swim .\n"
    rows = glmnlp.measures(text, tokenized=True)
    words = [(r["item"], r["sentence"], r["word"]) for r in rows if r["word"] != "</s>"]
    assert [r["sentence"] for r in rows if r["word"] == "</s>"] == [1, 2, 3, 4]
    assert [w for i, s, w in words if i == 3] == ["The", "bird", "sang", "."]
    assert {(i, s) for i, s, _w in words} == {(1, 1), (2, 2), (3, 3), (4, 4)}


def test_a_blank_text_argument_is_an_item_without_rows(capsys: pytest.CaptureFixture[str]) -> None:
    """``glmnlp measures "A." "" "B."`` stopped at the blank argument (``<argument 2>: no text to analyse``) while
    ``glmnlp.measures(["A.", "", "B."])`` and a stimuli file's blank line give that item no rows
    (docs/measures.md, the item and sentence columns); only input that is all blank is refused."""
    for lines in ([], ["--lines"]):
        rc, out, err = _run(capsys, ["measures", "-q", *lines, "A.", "", "B."])
        rows = list(csv.DictReader(io.StringIO(out), delimiter="\t"))
        assert (rc, err) == (0, "") and [(r["item"], r["sentence"]) for r in rows if r["word"] == "</s>"] == [
            (str(r["item"]), str(r["sentence"])) for r in glmnlp.measures(["A.", "", "B."], lines=bool(lines))
            if r["word"] == "</s>"] == [("1", "1"), ("3", "2")]
    rc, out, err = _run(capsys, ["measures", "-q", "", " "])
    assert (rc, out, err) == (1, "", "error: <argument 1>: no text to analyse\n")


@pytest.mark.parametrize("blank", ["\u200b", "\x01", "\u2028 \ufeff"])
def test_a_text_argument_or_file_that_looks_blank_is_blank(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, blank: str
) -> None:
    """TEXT arguments and files use a file line's blank test (zero-width and control characters too): ``glmnlp
    measures $'\\u200b'`` and a file of that line wrote a header only, status 0; beside text it is an item
    without rows, as ``""`` is."""
    for options in ([], ["--tokenized"]):
        assert _run(capsys, ["measures", "-q", *options, blank]) == (
            1, "", "error: <argument 1>: no text to analyse\n")
    path = tmp_path / "blank.txt"
    path.write_text(blank + "\n\n", encoding="utf-8")
    assert _run(capsys, ["measures", "-q", "-i", str(path)]) == (1, "", f"error: {path}: no text to analyse\n")
    rc, out, err = _run(capsys, ["measures", "-q", blank, "It ran."])
    assert (rc, err) == (0, "") and {r["item"] for r in csv.DictReader(io.StringIO(out), delimiter="\t")} == {"2"}


def test_measures_plot_refuses_to_replace_the_stdin_or_word_class_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``--plot`` was checked against ``--input`` only: ``measures --plot a.png < a.png`` replaced the text read from
    stdin by the drawing, and ``--word-classes wc.png --plot wc.png`` the user's word-class list (status 0)."""
    import io
    import sys

    from glmnlp.cli import main

    listed = tmp_path / "wc.png"
    listed.write_text("the\tclosed\n")
    capsys.readouterr()
    assert main(["measures", "--word-classes", str(listed), "--plot", str(listed), "The dog barked."]) == 2
    assert "is the --word-classes file: the drawing would replace it" in capsys.readouterr().err
    text = tmp_path / "a.png"
    text.write_text("The dog barked.\n")
    with text.open("rb") as handle:
        monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(handle))
        assert main(["measures", "--plot", str(text)]) == 2
    assert "is standard input's file" in capsys.readouterr().err
    assert listed.read_text() == "the\tclosed\n" and text.read_text() == "The dog barked.\n"


def test_the_docs_read_the_reference_parsers_word_class_markers_as_the_benchmark_does() -> None:
    """docs/measures.md said the reference parser's ``:`` and ``+`` mark closed and open words; they mark open and
    closed ones (its README; ``pfix:2 spokesman``, ``pfix+4 a``), as ``benchmarks/measures.py``, which compares the
    two parsers' rows, reads them. A user merging the two by the docs swapped every word class."""
    page = (ROOT / "docs" / "measures.md").read_text(encoding="utf-8")
    said = re.search(r"word-class markers `(.)`, `(.)`, `(.)` are `(\w+)`, `(\w+)`, `(\w+)`", page)
    assert said is not None
    bench = (ROOT / "benchmarks" / "measures.py").read_text(encoding="utf-8")
    read = re.search(r"^CLASS_OF = (\{.*\})$", bench, re.M)
    assert read is not None
    assert dict(zip(said.groups()[:3], said.groups()[3:])) == ast.literal_eval(read.group(1))


def test_progress_that_is_not_a_callable_is_refused_before_any_work() -> None:
    """``progress=True`` (or a tqdm bar itself) was "'bool' object is not callable" from inside the loop, after the
    first sentence's work: a TypeError saying what progress takes, before any sentence is analysed."""
    for bad in (True, 1, "bar"):
        with pytest.raises(TypeError, match="progress must be a callable"):
            glmnlp.measures(["The dog barked."], progress=bad)
        with pytest.raises(TypeError, match="progress must be a callable"):
            list(glmnlp.load(parser=False).pipe(["The dog barked."], progress=bad))
