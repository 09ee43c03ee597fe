"""CLI: ``glmnlp parse``'s input (text arguments, stdin, --tagged, blank and invisible text) and its errors for bad
input, options and model folders.

Run in-process through :func:`glmnlp.cli.main`. The model is a tiny one trained by ``glmnlp train-default`` on a
few sample trees (the ``tiny_model`` fixture of tests/conftest.py; quality is irrelevant here: shapes are checked).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from cli_fixtures import _run, _stdin
from glmnlp.treebank.trees import parse_tree


def test_cli_parse_text_arguments_give_one_tree_per_sentence(tiny_model: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Each TEXT argument is a document; brackets output has one tree per sentence over its PTB tokens."""
    rc, out, _ = _run(capsys, ["parse", "-m", str(tiny_model), "The dog barked. It ran away.", "Prices (rose)."])
    assert rc == 0
    trees = [parse_tree(line) for line in out.splitlines()]
    assert [t.leaves() for t in trees] == [
        ["The", "dog", "barked", "."], ["It", "ran", "away", "."], ["Prices", "-LRB-", "rose", "-RRB-", "."]
    ]
    assert all(t.label == "TOP" for t in trees)


def test_cli_parse_stdin_paragraphs_and_lines(
    tiny_model: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """stdin raw text: a single line break is a space (one sentence); --lines makes each line a sentence."""
    _stdin(monkeypatch, b"The dog\nbarked .\n")
    rc, out, _ = _run(capsys, ["parse", "-m", str(tiny_model), "-q"])
    assert rc == 0 and len(out.splitlines()) == 1
    _stdin(monkeypatch, b"The dog\nbarked .\n")
    rc, out, _ = _run(capsys, ["parse", "-m", str(tiny_model), "-q", "--lines"])
    assert rc == 0 and [parse_tree(x).leaves() for x in out.splitlines()] == [["The", "dog"], ["barked", "."]]


def test_cli_parse_tagged_input_keeps_the_given_tags(
    tiny_model: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """--tagged reads word/TAG lines (last slash splits); the tree's preterminals carry those tags."""
    _stdin(monkeypatch, b"the/DT dog/NN barked/VBD ./.\n\n1/2/CD miles/NNS\n")
    rc, out, _ = _run(capsys, ["parse", "-m", str(tiny_model), "--tagged", "-q"])
    assert rc == 0
    trees = [parse_tree(line) for line in out.splitlines()]
    assert [t.pos() for t in trees] == [
        [("the", "DT"), ("dog", "NN"), ("barked", "VBD"), (".", ".")], [("1/2", "CD"), ("miles", "NNS")]
    ]


def test_cli_parse_binary_file_error(tiny_model: Path, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """A binary file is refused with file:line: reason and exit status 1."""
    path = tmp_path / "blob.bin"
    path.write_bytes(b"fine text\n\x7fELF\x00\x01\x02\n")
    rc, out, err = _run(capsys, ["parse", "-m", str(tiny_model), "-i", str(path)])
    assert (rc, out, err) == (1, "", f"error: {path}:2: binary data (NUL byte); expected UTF-8 text\n")


def test_cli_parse_invalid_utf8_error(tiny_model: Path, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """Latin-1 bytes are not silently decoded: the line and the byte are named."""
    path = tmp_path / "latin1.txt"
    path.write_bytes("caf\u00e9 au lait\n".encode("latin-1"))
    rc, _, err = _run(capsys, ["parse", "-m", str(tiny_model), "-i", str(path)])
    assert (rc, err) == (1, f"error: {path}:1: not valid UTF-8 text (byte 0xe9 at column 4)\n")


@pytest.mark.parametrize("data", [b"", b"\n   \n\n"])
def test_cli_parse_empty_input_error(
    tiny_model: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, data: bytes
) -> None:
    """Empty (or all-blank) stdin is an error, not an empty success."""
    _stdin(monkeypatch, data)
    rc, out, err = _run(capsys, ["parse", "-m", str(tiny_model)])
    assert (rc, out, err) == (1, "", "error: <stdin>: empty input: nothing to parse\n")


@pytest.mark.parametrize("blank", [" ", "\u200b", "\x01", "\u2028", "\ufeff \u200e"])
@pytest.mark.parametrize("options", [[], ["--lines"], ["--tokenized"], ["--tagged"], ["--format", "json"]])
def test_cli_parse_a_text_argument_that_looks_blank_is_blank(
    tiny_model: Path, capsys: pytest.CaptureFixture[str], blank: str, options: list[str]
) -> None:
    """A TEXT argument is blank by the test a file's line is (docs/cli.md): ``$'\\u200b'`` or a control character
    wrote nothing with status 0 (json: a document without sentences; --tokenized: ``document 1, sentence 1: empty
    sentence``), where ``' '`` and a file of that line are ``empty input``."""
    argv = ["parse", "-m", str(tiny_model), "-q", "-j", "1", *options]
    assert _run(capsys, [*argv, blank]) == (1, "", "error: <argument 1>: empty input: nothing to parse\n")
    first = "the/DT dog/NN" if "--tagged" in options else "the dog"
    rc, _, err = _run(capsys, [*argv, first, blank])  # after the first argument's tree, as for " "
    assert (rc, err) == (1, "error: <argument 2>: empty input: nothing to parse\n")


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_cli_parse_bad_tagged_token_error(
    tiny_model: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, jobs: str
) -> None:
    """A token without /TAG is reported with its line and position, after the trees of every line before it (the
    lines of the batch it ended were dropped: nothing was written here, where docs/cli.md says they are)."""
    _stdin(monkeypatch, b"the/DT dog/NN\n\nthe/DT cat/NN\nthe/DT dog\n")
    rc, out, err = _run(capsys, ["parse", "-m", str(tiny_model), "--tagged", "-q", "-j", jobs, "--batch-size", "1"])
    assert rc == 1 and err.endswith("error: <stdin>:4: token 2 'dog' has no /TAG\n")
    assert out.count("(TOP") == 2
    _stdin(monkeypatch, b"the/DT dog/NN\n\nthe/DT cat/NN\nthe/DT dog\n")
    rc, out, err = _run(capsys, ["parse", "-m", str(tiny_model), "--tagged", "-q", "-j", jobs])
    assert (rc, out.count("(TOP")) == (1, 2)


@pytest.mark.parametrize(("line", "reason"), [("the/DT dog/", "token 2 'dog/' has an empty tag"),
                                              ("/NN dog/NN", "token 1 '/NN' has an empty word")])
def test_cli_parse_tagged_reads_word_tag_as_tag_does(
    tiny_model: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], line: str, reason: str
) -> None:
    """``parse --tagged`` and ``tag`` read word/TAG lines with one reader (glmnlp.treebank.formats.word_tag_line):
    the same line is refused with the same reason by both."""
    path = tmp_path / "in.txt"
    path.write_text("the/DT dog/NN\n" + line + "\n", encoding="utf-8")
    rc, _, err = _run(capsys, ["parse", "-m", str(tiny_model), "--tagged", "-q", "-i", str(path)])
    assert (rc, err.splitlines()[-1]) == (1, f"error: {path}:2: {reason}")
    rc, _, err = _run(capsys, ["tag", "--model", str(tiny_model), "--input-format", "word_tag", str(path)])
    assert (rc, err.splitlines()[-1]) == (1, f"error: {path}:2: {reason}")


CONLLU = "# sent_id = 1\n1\tthe\t_\t_\tDT\t_\t_\t_\t_\t_\n2\tdog\t_\t_\tNN\t_\t_\t_\t_\t_\n\n"


NOT_PARSED = ("glmnlp parse reads no {fmt} file: glmnlp tag --input-format auto gives its words tags, as word/TAG "
              "lines that glmnlp parse --tagged reads; in Python glmnlp.treebank.formats.read_tagged reads its words "
              "and tags")


@pytest.mark.parametrize(("options", "read_as"), [([], "raw text (paragraphs)"),
                                                  (["--lines"], "raw text, a sentence a line (--lines)"),
                                                  (["--tokenized"], "one tokenised sentence a line (--tokenized)")])
@pytest.mark.parametrize(("name", "text", "fmt", "instead"), [
    ("dev.conllu", CONLLU, "conllu", NOT_PARSED.format(fmt="conllu")),
    ("dev.trees", "(TOP (NP (DT the) (NN dog)))\n", "trees", NOT_PARSED.format(fmt="trees")),
    ("dev.tab", "the\tDT\ndog\tNN\n\n", "tab", NOT_PARSED.format(fmt="tab")),
    ("dev.word_tag", "the/DT dog/NN\n", "word_tag", "--tagged reads word/TAG lines"),
])
def test_cli_parse_warns_of_a_file_named_as_another_format(
    tiny_model: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], options: list[str], read_as: str,
    name: str, text: str, fmt: str, instead: str
) -> None:
    """A CoNLL-U, tree, tab or word/TAG file parsed as text made a word of every bracket and column (6,454
    "sentences" of a 245-sentence CoNLL-U file, status 0, no word of it): it is parsed as asked, with the warning
    ``glmnlp tag`` gives, naming what reads that format."""
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    rc, _, err = _run(capsys, ["parse", "-m", str(tiny_model), "-q", "-j", "1", *options, "-i", str(path)])
    assert rc == 0 and err == f"warning: {path} is read as {read_as}, though its name says {fmt}: {instead}\n"


@pytest.mark.parametrize(("name", "text", "reason"), [
    ("x.conllu", CONLLU, "token 1 '#' has no /TAG; its name says conllu"),
    ("x.txt", CONLLU.split("\n", 1)[1], "token 1 '1' has no /TAG; its first line looks like conllu"),
    ("x.txt", "(TOP (NP (DT the) (NN dog)))\n", "token 1 '(TOP' has no /TAG; its first line looks like trees"),
    ("x.tab", "the\tDT\ndog\tNN\n\n", "token 1 'the' has no /TAG; its name says tab"),
])
def test_cli_parse_tagged_error_names_the_format_the_file_is_in(
    tiny_model: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str, text: str, reason: str
) -> None:
    """``parse --tagged -i x.conllu`` said only ``x.conllu:1: token 1 '#' has no /TAG``: where the file's name or
    its first line shows another format, the error says so and what reads it."""
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    rc, out, err = _run(capsys, ["parse", "-m", str(tiny_model), "--tagged", "-q", "-j", "1", "-i", str(path)])
    fmt = reason.rsplit(" ", 1)[1]
    assert (rc, out, err) == (1, "", f"error: {path}:1: {reason}: "
                              + NOT_PARSED.format(fmt=fmt).replace("glmnlp parse", "glmnlp parse --tagged", 1) + "\n")


def test_cli_parse_unknown_option_and_bad_combinations(tiny_model: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Unknown options and options that contradict each other are usage errors (exit 2)."""
    rc, _, err = _run(capsys, ["parse", "--bogus"])
    assert rc == 2 and re.search(r"Error: No such option:? '?--bogus'?", err)  # click's wording (8.4 quotes it)
    rc, _, err = _run(capsys, ["parse", "-m", str(tiny_model), "-f", "html", "--out-dir", "x", "A dog."])
    assert rc == 2 and err.endswith("\nError: --out-dir is only used with --format svg\n")
    rc, _, err = _run(capsys, ["parse", "-m", str(tiny_model), "-f", "pretty", "--nbest", "2", "A dog."])
    assert rc == 2 and err.endswith("\nError: --nbest K > 1 needs --format brackets or json\n")


def test_cli_parse_missing_model_error(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """A model directory that does not exist is named in the error."""
    rc, out, err = _run(capsys, ["parse", "-m", str(tmp_path / "nowhere"), "A dog."])
    assert (rc, out, err) == (1, "", f"error: {tmp_path / 'nowhere'}: model directory not found\n")


@pytest.mark.parametrize(("folder", "name", "reader"), [
    ("tagger", "a tagger model", "glmnlp tag -m reads it"),
    ("parser/generative", "a generative term model",
     "a parser's generative/ part: glmnlp parse -m reads the parser folder around it")])
def test_cli_parse_names_the_kind_of_a_folder_it_cannot_parse_with(
    folder: str, name: str, reader: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """A tagger folder was "a 'tagger' model" and a generative term's "a 'glmnlp-generative-term' model"; they are
    named as the other refusals name a kind (a tagger model, a parser model)."""
    from glmnlp.text.default_model import default_model_path

    model = default_model_path() / folder
    rc, out, err = _run(capsys, ["parse", "-m", str(model), "A dog."])
    assert (rc, out, err) == (1, "", f"error: {model}: {name}; glmnlp parse needs a parser or a pipeline directory "
                                     f"({reader})\n")


def test_cli_parse_parser_only_model_needs_tagged_input(tiny_model: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A bare parser model parses --tagged input; raw text needs a tagger, and says so."""
    rc, out, _ = _run(capsys, ["parse", "-m", str(tiny_model / "parser"), "--tagged", "a/DT dog/NN"])
    assert rc == 0 and parse_tree(out).pos() == [("a", "DT"), ("dog", "NN")]
    rc, _, err = _run(capsys, ["parse", "-m", str(tiny_model / "parser"), "a dog"])
    assert (rc, err) == (1, "error: this model has no tagger: give --tagged input or --tagger DIR\n")
    rc, out, _ = _run(capsys, ["parse", "-m", str(tiny_model / "parser"), "--tagger", str(tiny_model / "tagger"),
                               "a dog"])
    assert rc == 0 and parse_tree(out).leaves() == ["a", "dog"]


@pytest.mark.parametrize("mode", [["--lines"], ["--tokenized"], []])
def test_a_line_of_invisible_characters_is_blank(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tiny_model: Path, mode: list[str],
) -> None:
    """A line holding only a zero-width space, a BOM, a direction mark or a control character looks blank and was
    not: with --lines a document without sentences (JSON: ``"sentences": []``, brackets: no tree, so one tree a
    visible line no longer held), with --tokenized a sentence of one invisible token. It is blank, as a blank line
    (raw text in paragraphs gave the same documents before too)."""
    lines = ["A dog barked .", "\u200b", "\ufeff \u200e", "\x01", "", "A cat sat ."]
    _stdin(monkeypatch, ("\n".join(lines) + "\n").encode("utf-8"))
    rc, out, err = _run(capsys, ["parse", "-q", "-j", "1", "-m", str(tiny_model), "-f", "json", *mode])
    docs = [json.loads(line) for line in out.splitlines()]
    assert rc == 0 and [len(d["sentences"]) for d in docs] == [1, 1]  # raw text: the first blank line ends a paragraph
    words = [[t["text"] for t in s["tokens"]] for d in docs for s in d["sentences"]]
    assert words == [["A", "dog", "barked", "."], ["A", "cat", "sat", "."]]


@pytest.mark.parametrize("command", [["parse", "--tokenized"], ["tag"], ["measures", "-q", "--tokenized"]])
def test_a_given_token_of_zero_width_characters_is_no_word(capsys: pytest.CaptureFixture[str],
                                                           monkeypatch: pytest.MonkeyPatch, command: list[str]) -> None:
    """``The \\ufeff dog \\u200b barked .`` given as tokens: the BOM and the zero-width space were words of their own
    (``(JJ <U+FEFF>)``, ``barked`` a VBN after them), where raw text's tokenizer leaves them out and a line of them
    is blank. They are left out; the other tokens are read as they are."""
    _stdin(monkeypatch, "The \ufeff dog \u200b barked .\n".encode("utf-8"))
    rc, out, _err = _run(capsys, [*command, "-j", "1"] if command[0] == "parse" else command)
    assert rc == 0 and "\ufeff" not in out and "\u200b" not in out
    if command[0] == "parse":
        assert out == "(TOP (S (NP (DT The) (NN dog)) (VP (VBD barked)) (. .)))\n"


def test_cli_parse_and_measures_warn_of_a_text_argument_that_names_a_file(
    tiny_model: Path, capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``glmnlp parse story.txt`` (for ``-i story.txt``) gave ``(TOP (NP (NN story.txt)))`` and status 0 with no word
    that the file was never read. The text is still parsed as text, with a warning naming the option."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "story.txt").write_text("The dog barked.\n", encoding="utf-8")
    for command in (["parse", "-m", str(tiny_model)], ["measures"]):
        rc, out, err = _run(capsys, [*command, "story.txt"])
        assert rc == 0 and "story.txt" in out
        assert "warning: TEXT 'story.txt' is the name of a file here: it is read as text (the file is read with " \
               "-i story.txt)" in err, err
        rc, out, err = _run(capsys, [*command, "-q", "story", "The dog barked."])
        assert rc == 0 and "warning" not in err


def test_cli_parse_model_folders_that_are_no_pipeline_say_what_they_are(
    tiny_model: Path, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """``-m`` on an empty folder or another tool's said "no tagger/ sub-model in this model directory" (not a glmnlp
    model at all), and on a folder of a parser/ alone it said so even with --tagged input or --tagger, which a single
    parser model takes: the former are "not a glmnlp model directory", the latter parses."""
    import shutil

    (tmp_path / "empty").mkdir()
    (tmp_path / "other").mkdir()
    (tmp_path / "other" / "meta.json").write_text('{"name": "core_web_sm"}', encoding="utf-8")
    for folder in ("empty", "other"):
        rc, _out, err = _run(capsys, ["parse", "-m", str(tmp_path / folder), "Hi."])
        assert rc == 1 and err == f"error: {tmp_path / folder}: not a glmnlp model directory (no tagger/ and " \
                                  "parser/, nor the metadata.json of a single model)\n", err
    shutil.copytree(tiny_model / "parser", tmp_path / "alone" / "parser")
    source = tmp_path / "in.txt"
    source.write_text("the/DT dog/NN barked/VBD ./.\n", encoding="utf-8")
    rc, out, _err = _run(capsys, ["parse", "-q", "-m", str(tmp_path / "alone"), "--tagged", "-i", str(source)])
    assert rc == 0 and out.startswith("(TOP ")
    rc, out, _err = _run(capsys, ["parse", "-q", "-m", str(tmp_path / "alone"), "--tagger", str(tiny_model / "tagger"),
                                  "The dog barked."])
    assert rc == 0 and out.startswith("(TOP ")
    rc, _out, err = _run(capsys, ["parse", "-m", str(tmp_path / "alone"), "The dog barked."])
    assert rc == 1 and "give --tagged input or --tagger DIR" in err
