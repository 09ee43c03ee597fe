"""CLI: ``glmnlp parse`` (input modes, output formats, n-best, errors), ``train-default``, --help, --version.

Run in-process through :func:`glmnlp.cli.main`. The model is a tiny one trained by
``glmnlp train-default`` on a few sample trees (quality is irrelevant here: shapes are checked).
"""

from __future__ import annotations

import io
import json
import re
import sys
from pathlib import Path

import click
import pytest

from glmnlp import __version__
from glmnlp.cli import cli, main
from glmnlp.treebank.trees import parse_tree


@pytest.fixture(scope="module")
def tiny_model(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A perceptron-only pipeline model written by ``glmnlp train-default`` on 60 training trees."""
    out = tmp_path_factory.mktemp("cli") / "model"
    rc = main(["train-default", "--out", str(out), "--max-train", "60", "--max-dev", "8", "--max-test", "5",
               "--parser-epochs", "1", "--generative-weights", "0", "--quiet"])
    assert rc == 0
    return out


def _stdin(monkeypatch: pytest.MonkeyPatch, data: bytes) -> None:
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data), encoding="utf-8"))


def _run(capsys: pytest.CaptureFixture[str], argv: list[str]) -> tuple[int, str, str]:
    capsys.readouterr()
    rc = main(argv)
    out, err = capsys.readouterr()
    return rc, out, err


def test_cli_train_default_writes_a_pipeline_model(tiny_model: Path) -> None:
    """train-default writes tagger/, parser/ and MODEL.json with the recipe and checksums."""
    meta = json.loads((tiny_model / "MODEL.json").read_text())
    assert (tiny_model / "tagger" / "weights.npz").is_file() and (tiny_model / "parser" / "weights.npz").is_file()
    assert meta["sentences"] == {"train": 60, "dev": 8, "test": 5}
    assert set(meta["checksums"]) == {"NOTICE.md", "parser/metadata.json", "parser/weights.npz",
                                      "tagger/metadata.json", "tagger/weights.npz"}
    # the options that made it: the command recorded was the bundled model's whatever the run's options
    assert meta["command"] == ("glmnlp train-default --out DIR --max-train 60 --max-dev 8 --max-test 5 "
                               "--parser-epochs 1 --generative-weights 0")
    assert meta["description"].endswith("; only the first trees of each split, per corpus: train 60, dev 8, test 5")


def test_cli_train_default_refuses_existing_output(tiny_model: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """An existing model directory is not overwritten without --force."""
    rc, _, err = _run(capsys, ["train-default", "--out", str(tiny_model), "--max-train", "5"])
    assert rc == 1
    assert err == (f"error: {tiny_model}: already exists and is not an empty directory "
                   "(use --force to replace it)\n")


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


def test_cli_parse_nbest_blocks_are_sorted(tiny_model: Path, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """--nbest K: per sentence up to K 'score<TAB>tree' lines, best first, then a blank line."""
    path = tmp_path / "tokens.txt"
    path.write_text("the dog barked .\nprices rose .\n")
    rc, out, _ = _run(capsys, ["parse", "-m", str(tiny_model), "--tokenized", "--nbest", "3", "-i", str(path), "-q"])
    assert rc == 0
    blocks = out.split("\n\n")
    assert blocks[-1] == "" and len(blocks) == 3
    for block, words in zip(blocks, (["the", "dog", "barked", "."], ["prices", "rose", "."])):
        rows = [line.split("\t") for line in block.splitlines()]
        assert 1 <= len(rows) <= 3
        scores = [float(s) for s, _ in rows]
        assert scores == sorted(scores, reverse=True)
        assert all(parse_tree(t).leaves() == words for _, t in rows)


def test_cli_parse_json_conllu_pretty(tiny_model: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """json: one document per line with offsets; conllu numbers sentences across documents; pretty re-reads."""
    rc, out, _ = _run(capsys, ["parse", "-m", str(tiny_model), "-f", "json", "A dog barked.", "A cat slept."])
    docs = [json.loads(line) for line in out.splitlines()]
    assert rc == 0 and [d["text"] for d in docs] == ["A dog barked.", "A cat slept."]
    assert docs[0]["sentences"][0]["tokens"][1] == {"text": "dog", "tag": docs[0]["sentences"][0]["tokens"][1]["tag"],
                                                    "start": 2, "end": 5}
    rc, out, _ = _run(capsys, ["parse", "-m", str(tiny_model), "-f", "conllu", "A dog barked.", "A cat slept."])
    assert rc == 0 and "# sent_id = 1\n# text = A dog barked.\n" in out and "# sent_id = 2\n# text = A cat slept.\n" in out
    rc, out, _ = _run(capsys, ["parse", "-m", str(tiny_model), "-f", "pretty", "A dog barked."])
    assert rc == 0 and parse_tree(out).leaves() == ["A", "dog", "barked", "."] and out.count("\n") > 3


def test_cli_parse_svg_files_and_html_page(tiny_model: Path, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """svg writes one drawing per sentence into --out-dir and prints the paths; html is one page."""
    rc, out, _ = _run(capsys, ["parse", "-m", str(tiny_model), "-f", "svg", "--out-dir", str(tmp_path / "d"),
                               "A dog barked. A cat slept."])
    paths = out.splitlines()
    assert rc == 0 and paths == [str(tmp_path / "d" / "sentence-0001.svg"), str(tmp_path / "d" / "sentence-0002.svg")]
    assert all(Path(p).read_text().startswith("<svg") for p in paths)
    rc, out, _ = _run(capsys, ["parse", "-m", str(tiny_model), "-f", "html", "A dog barked.", "A cat slept."])
    assert rc == 0 and out.startswith("<!DOCTYPE html>") and out.count("<svg") == 2 and 'id="s2"' in out


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


def test_cli_parse_parser_only_model_needs_tagged_input(tiny_model: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A bare parser model parses --tagged input; raw text needs a tagger, and says so."""
    rc, out, _ = _run(capsys, ["parse", "-m", str(tiny_model / "parser"), "--tagged", "a/DT dog/NN"])
    assert rc == 0 and parse_tree(out).pos() == [("a", "DT"), ("dog", "NN")]
    rc, _, err = _run(capsys, ["parse", "-m", str(tiny_model / "parser"), "a dog"])
    assert (rc, err) == (1, "error: this model has no tagger: give --tagged input or --tagger DIR\n")
    rc, out, _ = _run(capsys, ["parse", "-m", str(tiny_model / "parser"), "--tagger", str(tiny_model / "tagger"),
                               "a dog"])
    assert rc == 0 and parse_tree(out).leaves() == ["a", "dog"]


def _commands(group: click.Group, prefix: tuple[str, ...] = ()) -> list[tuple[str, ...]]:
    out = []
    for name, command in sorted(group.commands.items()):
        out.append((*prefix, name))
        if isinstance(command, click.Group):
            out += _commands(command, (*prefix, name))
    return out


def test_cli_every_command_has_help_with_examples(capsys: pytest.CaptureFixture[str]) -> None:
    """`--help` works on every command and group; every command and group shows an example invocation."""
    commands = _commands(cli)
    assert ("parse",) in commands and ("train-default",) in commands
    for path in [(), *commands]:
        rc, out, _ = _run(capsys, [*path, "--help"])
        assert rc == 0 and out.startswith("Usage: glmnlp"), path
        command: click.Command = cli
        for name in path:
            assert isinstance(command, click.Group)
            command = command.commands[name]
        if isinstance(command, click.Group):
            assert "Commands:" in out, path
        if path:
            assert "Example" in out and "  glmnlp " in out, f"no example in: glmnlp {' '.join(path)} --help"


def test_cli_version(capsys: pytest.CaptureFixture[str]) -> None:
    """--version prints the package version."""
    rc, out, _ = _run(capsys, ["--version"])
    assert (rc, out) == (0, f"glmnlp, version {__version__}\n")


def test_cli_parse_surprisal_needs_json_and_a_generative_model(
    tiny_model: Path, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """--surprisal adds one finite, non-negative bit value per word to the json; it is refused elsewhere."""
    from glmnlp.text.default_model import DefaultRecipe, train_default

    rc, _, err = _run(capsys, ["parse", "-m", str(tiny_model), "-f", "json", "--surprisal", "A dog."])
    assert (rc, err) == (1, "error: --surprisal needs a model with a generative component; this parser has none\n")
    rc, _, err = _run(capsys, ["parse", "-m", str(tiny_model), "--surprisal", "A dog."])
    assert rc == 2 and err.endswith("\nError: --surprisal needs --format json\n")
    combined = tmp_path / "combined"
    train_default(combined, DefaultRecipe(max_train=60, max_dev=8, max_test=5, tagger_epochs=2, jackknife_folds=2,
                                          jackknife_epochs=1, parser_epochs=1, n_bits=14, gammas=(1e3,), caps=(20,),
                                          generative_weights=(10.0,), generative_folds=2))
    rc, out, _ = _run(capsys, ["parse", "-m", str(combined), "-f", "json", "--surprisal", "The dog barked."])
    sent = json.loads(out)["sentences"][0]
    assert rc == 0 and len(sent["surprisal"]) == 4
    assert all(v is not None and v >= 0 for v in sent["surprisal"])


def test_cli_parse_uses_the_model_margin_unless_told(tiny_model: Path, tmp_path: Path) -> None:
    """``glmnlp parse`` gives the parser the multi-tag margin recorded in MODEL.json; ``--multitag 0``
    means single best tags, ``--multitag M`` wins, and another ``--tagger`` does not inherit it."""
    import shutil

    from glmnlp.cli.parse_cmd import _load_pipeline

    model = tmp_path / "m"
    shutil.copytree(tiny_model, model)
    meta = json.loads((model / "MODEL.json").read_text())
    meta["multitag_margin"] = 0.0
    (model / "MODEL.json").write_text(json.dumps(meta))
    assert _load_pipeline(str(model), None, False, None).multitag_margin is None
    meta["multitag_margin"] = 3.0
    (model / "MODEL.json").write_text(json.dumps(meta))
    assert _load_pipeline(str(model), None, False, None).multitag_margin == 3.0
    assert _load_pipeline(str(model), None, False, 0.0).multitag_margin is None
    assert _load_pipeline(str(model), None, False, 1.5).multitag_margin == 1.5
    assert _load_pipeline(str(model), str(model / "tagger"), False, None).multitag_margin is None


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_cli_parse_counts_every_cut_whatever_the_jobs(
    tiny_model: Path, capsys: pytest.CaptureFixture[str], tmp_path: Path, jobs: str
) -> None:
    """Three paragraphs without sentence boundaries, two cuts each, one a batch: the count at the end is 6 with
    ``--jobs 2`` too. (A text's cuts are one warning with their count; the first version of that change sent the
    warnings back from worker processes as text, without the count, and said 3.)"""
    big = tmp_path / "big.txt"
    big.write_text("\n\n".join(["the cat sat on the mat and then " * 130] * 3) + "\n")  # 4,160 characters each
    rc, out, err = _run(capsys, ["parse", "-q", "-m", str(tiny_model), "-i", str(big), "-j", jobs, "--batch-size", "1"])
    assert rc == 0 and len(out.splitlines()) == 9
    assert "warning: 6 pieces cut from text without sentence boundaries in all" in err, err


def test_cli_parse_long_unpunctuated_line_is_cut_with_warnings(
    tiny_model: Path, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """A 40 kB line without sentence boundaries comes out as bounded pieces (one tree each, readable
    back), with one warning of each kind and a count at the end on stderr."""
    big = tmp_path / "big.txt"
    big.write_text("the cat sat on the mat and then " * 1250 + "\n")  # 40,000 characters
    rc, out, err = _run(capsys, ["parse", "-m", str(tiny_model), "-i", str(big)])
    assert rc == 0
    trees = [parse_tree(line) for line in out.splitlines()]
    assert len(trees) == 21 and all(len(t.leaves()) <= 2000 // 2 for t in trees)
    assert sum(len(t.leaves()) for t in trees) == 8 * 1250
    assert "warning: no sentence boundary within 2000 characters" in err
    assert f"warning: {big}:1: a sentence of 500 words (more than 150) gets a flat tree without parsing" in err
    assert "warning: 20 pieces cut from text without sentence boundaries in all" in err
    # the summary counts their flat trees (it said "default structure: 0" and no more)
    assert err.endswith("; over 150 words, flat: 20\n"), err


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_cli_parse_max_words_sets_the_length_above_which_a_sentence_is_not_parsed(
    tiny_model: Path, capsys: pytest.CaptureFixture[str], tmp_path: Path, jobs: str
) -> None:
    """Sentences of more than 150 words got a flat tree with no way to change that from the command line, while
    ``parser train`` scores dev on every sentence: ``--max-words N`` sets the length, on workers too."""
    source = tmp_path / "in.txt"
    source.write_text("the/DT dog/NN barked/VBD ./.\n" * 3, encoding="utf-8")
    argv = ["parse", "-m", str(tiny_model), "--tagged", "-i", str(source), "-j", jobs, "--batch-size", "1"]
    rc, out, err = _run(capsys, [*argv, "--max-words", "3"])
    assert rc == 0 and out == "(TOP (S (DT the) (NN dog) (VBD barked) (. .)))\n" * 3
    assert f"warning: {source}:1: a sentence of 4 words (more than 3) gets a flat tree without parsing" in err
    assert err.endswith("; over 3 words, flat: 3\n"), err
    rc, parsed, err = _run(capsys, [*argv, "--max-words", "4"])
    assert rc == 0 and parsed != out and len(parsed.splitlines()) == 3 and "flat" not in err
    rc, _out, err = _run(capsys, [*argv, "--max-words", "0"])
    assert rc == 2 and "--max-words" in err


def test_cli_parse_unknown_tagged_tags_are_errors_or_mapped(
    tiny_model: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A --tagged tag the parser does not know is file:line: reason (never a silent flat tree);
    --map-unknown-tags replaces it by the tagger's tag with a warning."""
    rc, out, err = _run(capsys, ["parse", "-m", str(tiny_model), "--tagged", "the/DT dog/NNZ barked/VBD ./."])
    assert rc == 1 and out == ""
    assert err.startswith("error: <argument 1>:1: token 2 dog/NNZ: unknown tag 'NNZ' (the model's tags: ")
    rc, out, err = _run(capsys, ["parse", "-m", str(tiny_model), "--tagged", "--map-unknown-tags",
                                 "the/DT dog/NNZ barked/VBD ./."])
    assert rc == 0 and parse_tree(out).leaves() == ["the", "dog", "barked", "."]
    tag = dict(parse_tree(out).pos())["dog"]
    assert tag != "NNZ" and f"warning: <argument 1>:1: token 2: unknown tag 'NNZ' replaced by '{tag}'" in err


def test_cli_parse_ascii_and_svg_to_stdout(tiny_model: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """--format ascii draws each tree; --format svg without --out-dir writes one SVG of all sentences."""
    import xml.etree.ElementTree as ET

    rc, out, _ = _run(capsys, ["parse", "-m", str(tiny_model), "-f", "ascii", "The dog barked."])
    assert rc == 0 and out.rstrip("\n").splitlines()[-1].split() == ["The", "dog", "barked", "."]
    rc, out, _ = _run(capsys, ["parse", "-m", str(tiny_model), "-f", "svg", "--compact", "A dog barked. It ran."])
    assert rc == 0 and out.count("<svg") == 1 and out.count("<g transform") == 2
    ET.fromstring(out)


def test_cli_tag_uses_the_bundled_tagger_and_model_directories(
    tiny_model: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """glmnlp tag without --model uses the bundled model's tagger; --model accepts a pipeline directory."""
    _stdin(monkeypatch, b"The cat sat on the mat .\n")
    rc, out, _ = _run(capsys, ["tag"])
    assert rc == 0 and out.split()[0] == "The/DT" and len(out.split()) == 7
    _stdin(monkeypatch, b"The cat sat .\n")
    rc, out, _ = _run(capsys, ["tag", "--model", str(tiny_model)])
    assert rc == 0 and [tok.rpartition("/")[0] for tok in out.split()] == ["The", "cat", "sat", "."]


def test_cli_parse_map_unknown_tags_picks_a_tag_the_parser_knows(
    tiny_model: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The tagger's best tag for a word may be one the parser does not know either (this model's parser has no RP,
    its tagger tags "up" RP): the replacement is the tagger's best tag that the parser knows, never a tag that then
    stops the run."""
    rc, out, err = _run(capsys, ["parse", "-m", str(tiny_model), "--tagged", "--map-unknown-tags",
                                 "It/PRP rained/VBD up/ZZ we/PRP left/VBD ./."])
    assert rc == 0, err
    tag = dict(parse_tree(out).pos())["up"]
    assert tag not in ("ZZ", "RP") and f"token 3: unknown tag 'ZZ' replaced by '{tag}'" in err


def test_cli_parse_gamma_and_cap_replace_the_models_beam_in_every_worker(
    tiny_model: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``--gamma`` and ``--cap`` replace the beam the model chose on dev, in this process and in each worker
    (``-j 2`` gives the ``-j 1`` output); either alone keeps the model's other setting; bad values are usage
    errors."""
    from glmnlp.cli.parse_cmd import _load_pipeline
    from glmnlp.parser import Parser
    from glmnlp.treebank.corpus import sample_trees

    own = Parser.load(tiny_model / "parser").config
    for deferred in (False, True):
        parser = _load_pipeline(str(tiny_model), None, False, None, deferred, (5.0, 3)).parser
        assert (parser.config.gamma, parser.config.beam_cap) == (5.0, 3)
        parser = _load_pipeline(str(tiny_model), None, False, None, deferred, (None, 7)).parser
        assert (parser.config.gamma, parser.config.beam_cap) == (own.gamma, 7)
        parser = _load_pipeline(str(tiny_model / "parser"), None, False, None, deferred, (2.0, None)).parser
        assert (parser.config.gamma, parser.config.beam_cap) == (2.0, own.beam_cap)
    tokens = tmp_path / "tokens.txt"
    tokens.write_text("".join(" ".join(t.leaves()) + "\n" for t in sample_trees("test")[:12]))
    common = ["parse", "--model", str(tiny_model), "--tokenized", "-i", str(tokens), "-q", "--batch-size", "2"]
    rc, default, _ = _run(capsys, common + ["-j", "1"])
    assert rc == 0
    rc, narrow, _ = _run(capsys, common + ["-j", "1", "--gamma", "0", "--cap", "1"])
    assert rc == 0 and narrow != default and len(narrow.splitlines()) == 12
    rc, workers, _ = _run(capsys, common + ["-j", "2", "--gamma", "0", "--cap", "1"])
    assert rc == 0 and workers == narrow
    for bad in (["--gamma", "-1"], ["--cap", "-1"], ["--gamma", "x"]):  # (nan, inf: test_cli_values.py)
        rc, _, err = _run(capsys, common + bad)
        assert rc == 2 and "Invalid value" in err, err


def test_cli_train_default_names_what_its_last_comparison_compares(capsys: pytest.CaptureFixture[str],
                                                                   tmp_path: Path) -> None:
    """The last line said ``test F1 53.14 (unpruned 49.45)`` when nothing was pruned: the 3.7 were multitagging's
    (single tags against tags within margin 4). It now names both choices; the figures are MODEL.json's."""
    import json

    out = tmp_path / "model"
    rc = main(["train-default", "--out", str(out), "--max-train", "40", "--max-dev", "5", "--max-test", "5",
               "--parser-epochs", "1", "--generative-weights", "0", "-j", "1"])
    err = capsys.readouterr().err
    assert rc == 0, err
    meta = json.loads((out / "MODEL.json").read_text(encoding="utf-8"))
    shipped, before = meta["test_f1"]["shipped"], meta["test_f1"]["unpruned"]
    assert (f"test F1 {shipped:.2f} (before pruning and multitagging, with every weight and single tags: "
            f"{before:.2f}); written to {out}") in err.splitlines()


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="a pseudo-terminal")
def test_cli_parse_draws_no_progress_bar_on_the_terminal_its_trees_go_to(tmp_path: Path) -> None:
    """With stdout and stderr on one terminal, the bar's text ran into the trees (``sentences: 0 sent [00:00, ?
    sent/s](TOP (S ...``); the bar is drawn only when the trees go elsewhere."""
    import os
    import pty
    import subprocess

    source = tmp_path / "in.txt"
    source.write_text("".join(f"The dog number {k} barked .\n" for k in range(40)), encoding="utf-8")
    command = [sys.executable, "-c", "import sys; from glmnlp.cli import main; sys.exit(main())", "parse",
               "--tokenized", "-j", "1", "--batch-size", "4", "-i", str(source)]

    def run(stdout_to_file: bool) -> str:
        import fcntl
        import struct
        import termios

        leader, follower = pty.openpty()
        fcntl.ioctl(follower, termios.TIOCSWINSZ, struct.pack("HHHH", 30, 120, 0, 0))  # 0 columns: tqdm draws nothing
        out = open(tmp_path / "out.txt", "wb") if stdout_to_file else follower
        with subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=out, stderr=follower) as proc:
            os.close(follower)
            seen = b""
            while True:
                try:
                    chunk = os.read(leader, 65536)
                except OSError:  # the other end closed
                    break
                if not chunk:
                    break
                seen += chunk
            proc.wait(timeout=120)
        os.close(leader)
        if stdout_to_file:
            out.close()
        return seen.decode("utf-8", "replace")

    on_terminal = run(False)
    assert on_terminal.count("(TOP") == 40 and "sent/s" not in on_terminal, on_terminal[:300]
    assert "sent/s" in run(True)  # trees to a file: the bar on the terminal


def test_cli_parse_warns_of_a_paragraph_too_large_to_stream(
    tiny_model: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """A file of one sentence a line and no blank line is one paragraph: one document, parsed in one piece on one
    worker and written at its end (625 KB: 71 s before the first tree, memory growing with the file), silently.
    Past LARGE_PARAGRAPH characters it is warned of once, with its place and the option that streams it."""
    from glmnlp.cli import parse_input

    monkeypatch.setattr(parse_input, "LARGE_PARAGRAPH", 40)
    source = tmp_path / "in.txt"
    source.write_text("The dog barked.\nThe cat sat.\nIt ran.\nA man came.\n\nIt ended.\n", encoding="utf-8")
    rc, out, err = _run(capsys, ["parse", "-m", str(tiny_model), "-q", "-j", "1", "-i", str(source)])
    assert rc == 0 and out.count("(TOP") == 5
    assert err.count("warning:") == 1 and f"warning: {source}:1: a paragraph of more than 40 characters" in err
    assert "--lines reads a sentence a line" in err
    rc, _, err = _run(capsys, ["parse", "-m", str(tiny_model), "-q", "-j", "1", "--lines", "-i", str(source)])
    assert rc == 0 and "warning" not in err


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_parse_answers_each_line_of_a_pipe_before_the_next_comes(jobs: str) -> None:
    """A program that writes a line to ``glmnlp parse --lines`` through a pipe and waits for its tree before writing
    the next: with ``-j 2`` (the default on two cores) the command waited for more input with the tree in hand and
    never answered (here the watchdog ends it after 90 s). Three lines come at once (workers start), then three one
    answer at a time."""
    from conftest import coprocess

    with coprocess("parse", "--lines", "-q", "--batch-size", "1", "-j", jobs) as proc:
        assert proc.stdin is not None and proc.stdout is not None
        trees = []
        proc.stdin.write("The dog barked.\nA cat sat.\nIt rained.\n")
        proc.stdin.flush()
        for line in ("", "", "", "Birds sing.", "Time flies.", "We left."):
            if line:
                proc.stdin.write(line + "\n")
                proc.stdin.flush()
            answer = proc.stdout.readline()
            assert answer, f"no tree after {len(trees)} trees (the watchdog ended the command)"
            trees.append(parse_tree(answer).leaves())
        proc.stdin.close()
        proc.wait(timeout=60)
    assert proc.returncode == 0 and [t[0] for t in trees] == ["The", "A", "It", "Birds", "Time", "We"]


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


@pytest.mark.parametrize("source", ["stdin", "fifo"])
@pytest.mark.parametrize("signum", [2, 15])
def test_a_signal_while_the_input_is_read_on_a_thread_ends_the_command_cleanly(
    tmp_path: Path, signum: int, source: str,
) -> None:
    """With ``-j 2`` the input is read on a thread; SIGTERM or Ctrl-C while that thread waited in a read of stdin
    (a producer still writing) ended in "Fatal Python error: could not acquire lock for <stdin>" at shutdown,
    status 134, the trees still buffered lost; with ``-i FIFO`` the command hung in closing the file the thread
    was reading. Now "Aborted.", status 143 (SIGTERM) or the end by SIGINT, and the tree answered."""
    import os
    import signal
    import subprocess
    import threading

    # faulthandler: a command that does not end is sent SIGABRT, and its threads' stacks are in the failure
    entry = "import sys; from glmnlp.__main__ import run; sys.exit(run())"  # the glmnlp script's
    command = [sys.executable, "-X", "faulthandler", "-c", entry,
               "parse", "--lines", "-q", "--batch-size", "1", "-j", "2"]
    fifo = tmp_path / "in.fifo"
    if source == "fifo":
        os.mkfifo(fifo)
        command += ["-i", str(fifo)]
    with subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          text=True, bufsize=1) as proc:
        assert proc.stdin is not None and proc.stdout is not None and proc.stderr is not None
        writer = open(fifo, "w", encoding="utf-8") if source == "fifo" else proc.stdin  # noqa: SIM115
        watchdog = threading.Timer(60, proc.kill)
        watchdog.start()
        try:
            writer.write("The dog barked.\n")
            writer.flush()
            tree = proc.stdout.readline()
            proc.send_signal(signal.Signals(signum))
            try:
                rc = proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                proc.send_signal(signal.SIGABRT)
                proc.wait(timeout=30)
                pytest.fail(f"the command did not end in 30 s after signal {signum}; its stacks:\n{proc.stderr.read()}")
            err = proc.stderr.read()
        finally:
            watchdog.cancel()
            writer.close()
    assert parse_tree(tree).leaves() == ["The", "dog", "barked", "."]
    # Ctrl-C: ended by SIGINT once cleaned up (status 1 let a shell's loop go on), as an interrupted program does
    assert rc == (143 if signum == 15 else -signum) and err.endswith("Aborted.\n") and "Fatal" not in err, err


def test_cli_parse_warnings_are_not_written_onto_the_progress_bar(monkeypatch: pytest.MonkeyPatch) -> None:
    """A warning during a parse with its progress bar on the terminal was written at the end of the bar's text
    (``sentences: 282 sent [00:03, 93.95 sent/s]warning: ...``): the bar is cleared first now, and drawn again."""
    import io

    from glmnlp.cli._params import sentence_bar
    from glmnlp.cli.parse_cmd import _Notices

    err = io.StringIO()
    monkeypatch.setattr(sys, "stderr", err)
    bar = sentence_bar()
    bar.update(282)
    bar.refresh()
    _Notices().note("flat", "mix.txt:302: a sentence of 249 words (more than 150) gets a flat tree without parsing")
    bar.close()
    text = err.getvalue()
    before = text[: text.index("warning: ")]
    assert "sent" in before and before.rstrip(" ").endswith("\r"), repr(text)


def test_cli_output_keeps_escape_sequences_of_the_input_when_stdout_is_no_terminal(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """click.echo removed what looks like an ANSI escape sequence from output to a file or a pipe: the token
    ``\\x1b[1mdog\\x1b[0m`` was tagged whole and written ``dog`` (kept on a terminal), and a raw-text CoNLL-U's
    ``# text`` lost it while its forms kept parts of it. Output is the input's text whatever stdout is."""
    word = "\x1b[1mdog\x1b[0m"
    rc, out, _ = _run(capsys, ["parse", "-q", "--tokenized", f"The {word} barked ."])
    assert rc == 0 and f" {word})" in out, repr(out)
    tokens = tmp_path / "tokens.txt"
    tokens.write_text(f"The {word} barked .\n")
    rc, out, _ = _run(capsys, ["tag", str(tokens)])
    assert rc == 0 and out.split()[1].startswith(word + "/"), repr(out)
    rc, out, _ = _run(capsys, ["parse", "-q", "-f", "conllu", "two car bombs \x1b[31mword were found."])
    # (the ESC itself is in no token: # text is what the forms rebuild, test_render.py)
    assert rc == 0 and "\t[\t" in out and "# text = two car bombs [31mword were found.\n" in out, repr(out)


def test_cli_parse_batch_size_beyond_its_range_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    """``--batch-size 9223372036854775808`` was a traceback (islice's stop argument), status 1."""
    rc, out, err = _run(capsys, ["parse", "-q", "--batch-size", str(2**63), "A dog barked."])
    assert (rc, out) == (2, "") and "Invalid value for '--batch-size'" in err and "Traceback" not in err


def test_parse_conllu_puts_a_upos_taggers_tags_in_upos(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``glmnlp parse --format conllu`` wrote every tagger's tags in XPOS, a UPOS tagger's too (``glmnlp tag`` wrote
    them in UPOS, and ``tagger evaluate`` with that tagger could not read the file back); the column is read from
    the tagger's metadata, without building it."""
    import warnings

    from glmnlp.cli import main
    from glmnlp.parser.model import ParserConfig
    from glmnlp.parser.training import train_parser
    from glmnlp.tagger.model import Tagger, TaggerConfig
    from glmnlp.treebank.formats import TaggedSentence
    from glmnlp.treebank.trees import parse_tree

    trees = [parse_tree("(TOP (S (NP (DET the) (NOUN dog)) (VP (VERB barked)) (PUNCT .)))")] * 4
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        parser, _ = train_parser(trees, trees, ParserConfig(n_bits=12, epochs=1), show_progress=False, jobs=1)
    parser.save(tmp_path / "parser")
    tagger = Tagger(TaggerConfig(epochs=2)).fit(
        [TaggedSentence(tuple(t.leaves()), tuple(t.tags())) for t in trees], show_progress=False)
    tagger.tag_column_ = "upos"
    tagger.save(tmp_path / "tagger")
    capsys.readouterr()
    assert main(["parse", "-q", "-j", "1", "-m", str(tmp_path / "parser"), "--tagger", str(tmp_path / "tagger"),
                 "--format", "conllu", "--tokenized", "the dog barked ."]) == 0
    rows = [line.split("\t") for line in capsys.readouterr().out.splitlines() if line[:1].isdigit()]
    assert [(r[3], r[4]) for r in rows] == [("DET", "_"), ("NOUN", "_"), ("VERB", "_"), ("PUNCT", "_")]


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
