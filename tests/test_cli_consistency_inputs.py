"""CLI consistency of input and output paths: every error names its file (no data, not UTF-8, cannot be read, a
file where a folder goes, a missing folder, an empty path), and ``-`` is stdin wherever a file is read.

Run in-process through :func:`glmnlp.cli.main`; nothing here trains more than a few toy trees.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from cli_fixtures import _run
from toy_trees import TINY


# -- every error names its file ------------------------------------------------------------------------------


@pytest.mark.parametrize(("command", "which", "reason"), [
    # an empty training file was 'error: no training sentences'; an empty dev file was silently no dev
    (["tagger", "train", "-j", "1"], "--train", "empty input: no tagged sentence to train on"),
    (["tagger", "train", "-j", "1"], "--dev", "empty input: no tagged sentence to choose the epoch on"),
    # it was '<input>: no trees in the training files'
    (["grammar", "table1"], "--train", "no trees in this file"),
    (["grammar", "table1"], "--heldout", "no trees in this file"),
])
def test_an_input_file_without_data_is_named(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, toy_trees: Path, command: list[str], which: str, reason: str
) -> None:
    """A training, dev or held-out file with nothing in it is an error naming that file; nothing is written."""
    empty = tmp_path / "empty.trees"
    empty.write_text("\n", encoding="utf-8")
    inputs = ("--train", "--dev") if command[0] == "tagger" else ("--train", "--heldout")
    args = [*command] + [x for option in inputs for x in (option, str(empty if option == which else toy_trees))]
    if command[0] == "tagger":
        args += ["--out", str(tmp_path / "m")]
    rc, out, err = _run(capsys, args)
    assert (rc, out, err) == (1, "", f"error: {empty}: {reason}\n")
    assert not (tmp_path / "m").exists()


def test_grammar_table1_gives_the_line_of_a_tree_it_cannot_clean(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, toy_trees: Path
) -> None:
    bad = tmp_path / "bad.trees"
    bad.write_text(TINY[0] + "\n\n(TOP (-NONE- *))\n", encoding="utf-8")
    rc, _, err = _run(capsys, ["grammar", "table1", "--train", str(bad), "--heldout", str(toy_trees)])
    assert (rc, err) == (1, f"error: {bad}:3: tree 2: tree 'TOP' contains only empty (-NONE-) elements\n")


def _not_utf8(path: Path) -> str:
    path.write_bytes((TINY[0] + "\n").encode() + b"(TOP (S (NP (NN caf\xe9)) (VP (VBD sat))))\n")
    return f"error: {path}:2: not valid UTF-8 text (byte 0xe9 at column 20)\n"


@pytest.mark.parametrize("command", ["evalb", "evalb-gold", "grammar", "parser train", "tagger train"])
def test_a_file_that_is_not_utf8_is_refused_at_its_line_and_column(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, toy_trees: Path, command: str
) -> None:
    """Every command that reads whole files says where the bad byte is, in the words of glmnlp parse."""
    bad = tmp_path / "latin1.trees"
    expected = _not_utf8(bad)
    argv = {
        "evalb": ["evalb", str(toy_trees), str(bad)],
        "evalb-gold": ["evalb", str(bad), str(toy_trees)],
        "grammar": ["grammar", "table1", "--train", str(bad), "--heldout", str(toy_trees)],
        "parser train": ["parser", "train", "--train", str(bad), "--dev", str(toy_trees), "--out", str(tmp_path / "m")],
        "tagger train": ["tagger", "train", "--train", str(bad), "--out", str(tmp_path / "m")],
    }[command]
    rc, out, err = _run(capsys, argv)
    assert (rc, out, err) == (1, "", expected)


@pytest.mark.parametrize("argv", [
    ["parse", "--model", "", "A dog."],
    ["parse", "--tagger", "", "A dog."],
    ["parse", "-f", "svg", "--out-dir", "", "A dog."],
    ["tag", "--model", ""],
    ["tagger", "evaluate", "--model", "", "--test", "TREES"],
    ["tagger", "train", "--train", "TREES", "--out", ""],
    ["parser", "train", "--train", "TREES", "--dev", "TREES", "--out", ""],
    ["train-default", "--out", ""],
    ["measures", "--model", "", "A dog."],
    ["parse", "-i", ""],
    ["measures", "-i", ""],
    ["tagger", "train", "--train", "", "--out", "OUT"],
    ["tagger", "train", "--train", "TREES", "--dev", "", "--out", "OUT"],
    ["tagger", "evaluate", "--model", "M", "--test", ""],
    ["evalb", "", ""],
    ["data", "--out", "", "--split", "dev"],
    ["data", "--clean", "TREES", "--out", ""],
    ["measures", "--plot", "", "A dog."],
], ids=lambda argv: " ".join(a or "''" for a in argv[:4]))
def test_an_empty_model_or_output_path_is_a_usage_error(
    capsys: pytest.CaptureFixture[str], toy_trees: Path, tmp_path: Path, argv: list[str]
) -> None:
    """--model '' was reported as '.' (the current directory) or as 'metadata.json: missing'; an empty input file
    name was ': cannot open' or '.: Is a directory' (an empty --dev was no dev: a model was trained)."""
    argv = [{"TREES": str(toy_trees), "OUT": str(tmp_path / "m")}.get(a, a) for a in argv]
    rc, out, err = _run(capsys, argv)
    assert (rc, out) == (2, "") and err.endswith("': the path is empty\n"), err
    assert not (tmp_path / "m").exists()


# -- input files that cannot be read, output folders where a file is ------------------------------------------


_INPUTS = [
    ["parse", "-i", "IN"],
    ["measures", "-i", "IN"],
    ["measures", "--word-classes", "IN", "A dog."],
    ["measures", "--word-class-rules", "IN", "A dog."],
    ["evalb", "IN", "TREES"],
    ["evalb", "TREES", "IN"],
    ["evalb", "-p", "IN", "TREES", "TREES"],
    ["grammar", "table1", "--train", "IN"],
    ["grammar", "table1", "--heldout", "IN"],
    ["parser", "train", "--train", "IN", "--dev", "TREES", "--out", "OUT"],
    ["parser", "train", "--train", "TREES", "--dev", "IN", "--out", "OUT"],
    ["tagger", "train", "--train", "IN", "--out", "OUT"],
    ["tagger", "train", "--train", "TREES", "--dev", "IN", "--out", "OUT"],
    ["tagger", "evaluate", "-m", "MODEL", "--test", "IN"],
    ["tag", "IN"],
    ["data", "--clean", "IN", "--out", "OUT"],
]


@pytest.mark.parametrize("case", ["missing", "folder", "unreadable"])
@pytest.mark.parametrize("argv", _INPUTS, ids=lambda argv: " ".join(argv[:4]))
def test_an_input_file_that_cannot_be_read_is_bad_input_in_every_command(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, toy_trees: Path, tmp_path: Path,
    argv: list[str], case: str,
) -> None:
    """A missing, unreadable or folder input was a usage error (status 2, click's words) in some commands and bad
    input (status 1) in others, each in its own words; now one line ``error: PATH: cannot read file: REASON``, status 1,
    in all, and nothing written."""
    import os

    from glmnlp.text.default_model import default_model_path

    path = tmp_path / "input.txt"
    reason = {"missing": "No such file or directory", "folder": "Is a directory", "unreadable": "Permission denied"}
    if case == "folder":
        path.mkdir()
    elif case == "unreadable":  # permission bits do not bind root: the check asks os.access, made to say no
        path.write_text("(TOP (S (NN a)))\n", encoding="utf-8")
        real = os.access
        monkeypatch.setattr(os, "access", lambda p, mode, **kw: False if Path(p) == path else real(p, mode, **kw))
    names = {"IN": str(path), "TREES": str(toy_trees), "OUT": str(tmp_path / "out"),
             "MODEL": str(default_model_path() / "tagger")}
    rc, out, err = _run(capsys, [names.get(a, a) for a in argv])
    assert (rc, out, err) == (1, "", f"error: {path}: cannot read file: {reason[case]}\n")
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("argv", [
    ["parse", "-f", "svg", "--out-dir", "FILE", "A dog."],
    ["parser", "train", "--train", "TREES", "--dev", "TREES", "--out", "FILE"],
    ["tagger", "train", "--train", "TREES", "--out", "FILE"],
    ["train-default", "--out", "FILE"],
], ids=lambda argv: " ".join(argv[:2]))
def test_a_file_where_an_output_folder_goes_is_one_line_in_every_command(
    capsys: pytest.CaptureFixture[str], toy_trees: Path, tmp_path: Path, argv: list[str]
) -> None:
    """``parse --out-dir``, ``parser train --out`` and ``train-default --out`` naming a file were click's usage error
    (status 2, ``Directory 'afile' is a file.``), ``tagger train --out`` one line with status 1, as the docs say of
    all; now all are the one line, and the file is left as it was."""
    target = tmp_path / "afile"
    target.write_text("mine", encoding="utf-8")
    rc, out, err = _run(capsys, [{"FILE": str(target), "TREES": str(toy_trees)}.get(a, a) for a in argv])
    assert (rc, out) == (1, "") and err.startswith(f"error: {target}: exists and is not a directory"), err
    assert target.read_text(encoding="utf-8") == "mine"


@pytest.mark.parametrize(("argv", "message"), [
    (["measures", "-m", "MISSING", "A dog."], "MISSING: model directory not found"),
    (["measures", "-m", "FILE", "A dog."], "FILE: is a file, not a model directory"),
    (["data", "--out", "OUT", "--gum", "MISSING"], "MISSING: not a folder"),
    (["train-default", "--out", "OUT", "--gum", "FILE"], "FILE: not a folder"),
], ids=lambda value: " ".join(value[:4]) if isinstance(value, list) else "")
def test_a_missing_model_or_data_folder_is_one_line_in_every_command(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, argv: list[str], message: str
) -> None:
    """``measures -m`` and ``--gum`` of ``data`` and ``train-default`` were click's usage errors (status 2) for a
    folder that is missing or a file; ``parse -m`` and ``tag -m`` said it in one line with status 1, now all do."""
    (tmp_path / "afile").write_text("mine", encoding="utf-8")
    names = {"MISSING": str(tmp_path / "nothing"), "FILE": str(tmp_path / "afile"), "OUT": str(tmp_path / "out")}
    rc, out, err = _run(capsys, [names.get(a, a) for a in argv])
    expected = message.replace("MISSING", names["MISSING"]).replace("FILE", names["FILE"])
    assert (rc, out, err) == (1, "", f"error: {expected}\n")
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("argv", [["parse", "-q", "-j", "1", "--tokenized", "-i", "-"],
                                  ["measures", "--tokenized", "-i", "-"], ["tag", "-"]], ids=lambda argv: argv[0])
def test_dash_reads_stdin_wherever_a_file_is_read(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, argv: list[str]
) -> None:
    """``measures -i -`` became 'cannot read file' when input files were checked as files; '-' is stdin."""
    import io
    import sys

    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"a dog barked .\n"), encoding="utf-8"))
    rc, out, err = _run(capsys, argv)
    assert rc == 0 and "dog" in out, err


def test_tagger_train_refuses_stdin_for_both_train_and_dev(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """``--train - --dev -`` trained on stdin and then found it empty for dev ('cannot tell the format of an empty
    input'); a usage error now, before anything is read."""
    rc, out, err = _run(capsys, ["tagger", "train", "--train", "-", "--dev", "-", "--out", str(tmp_path / "m")])
    assert (rc, out) == (2, "") and "--train and --dev cannot both be '-': stdin is read once" in err
    assert not (tmp_path / "m").exists()


@pytest.mark.parametrize("command", ["parse", "measures"])
def test_a_lone_dash_text_is_a_usage_error(command: str, capsys: pytest.CaptureFixture[str]) -> None:
    """``echo ... | glmnlp parse -`` parsed the text "-" (``(TOP (NP (: -)))``, status 0) and left stdin unread, where
    ``glmnlp tag -`` reads stdin; here stdin is ``-i -``."""
    rc, out, err = _run(capsys, [command, "-"])
    assert (rc, out) == (2, "") and "'-' is not read as standard input here: give -i - (or no TEXT)" in err
