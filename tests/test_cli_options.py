"""Options given in ways click took without a word: a single-value option given twice, an output that is one of
the inputs, a bound the model holds and the option check did not, and errors found only after part of the work.

Run in-process through :func:`glmnlp.cli.main`; nothing here trains a model.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import click
import pytest

from glmnlp.cli import cli, main


def _run(capsys: pytest.CaptureFixture[str], argv: list[str]) -> tuple[int, str, str]:
    capsys.readouterr()
    rc = main(argv)
    out, err = capsys.readouterr()
    return rc, out, err


def _commands(group: click.Group, path: tuple[str, ...] = ()) -> Iterator[tuple[tuple[str, ...], click.Command]]:
    for name, command in sorted(group.commands.items()):
        if isinstance(command, click.Group):
            yield from _commands(command, (*path, name))
        else:
            yield (*path, name), command


def _single_value_options() -> list[tuple[tuple[str, ...], click.Option]]:
    return [(path, param) for path, command in _commands(cli) for param in command.params
            if isinstance(param, click.Option) and not (param.multiple or param.is_flag or param.count)]


# -- a single-value option given twice ----------------------------------------------------------------------


@pytest.mark.parametrize(("path", "option"), _single_value_options(),
                         ids=lambda x: " ".join(x) if isinstance(x, tuple) else x.opts[-1])
def test_every_single_value_option_given_twice_is_a_usage_error(
    capsys: pytest.CaptureFixture[str], path: tuple[str, ...], option: click.Option
) -> None:
    """``parser train --train a --train b`` trained on b alone, ``parse -i a -i b`` parsed b: click keeps the last
    value. Every option of every command that takes one value is now refused when given twice, spelled either way,
    whatever the values, before anything is read; the message names it as --help does."""
    short, long = min(option.opts, key=len), max(option.opts, key=len)
    value = ["x"] * option.nargs
    rc, out, err = _run(capsys, [*path, long, *value, short, *value])
    names = "/".join(sorted(option.opts, key=lambda name: len(name) - len(name.lstrip("-"))))
    assert (rc, out) == (2, ""), err
    assert err.endswith(f"\nError: {names} is given twice\n"), err


def test_a_repeated_input_file_names_the_option_before_the_file_is_read(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """The second of two --train files missing was ``cannot read file`` (status 1), the first never named."""
    rc, out, err = _run(capsys, ["tagger", "train", "--train", str(tmp_path / "a"), "--train", str(tmp_path / "b"),
                                 "--out", str(tmp_path / "m")])
    assert (rc, out) == (2, "") and err.endswith("\nError: --train is given twice\n")
    assert not (tmp_path / "m").exists()
    # a repeatable option is taken as before (grammar table1's --train files are read in turn), and -q -q is -q
    from toy_trees import TINY

    trees = tmp_path / "toy.trees"
    trees.write_text("\n".join(TINY) + "\n", encoding="utf-8")
    rc, out, err = _run(capsys, ["grammar", "table1", "--train", str(trees), "--train", str(trees),
                                 "--heldout", str(trees)])
    assert rc == 0 and "held-out" in out, err
    rc, out, err = _run(capsys, ["parse", "-q", "-q", "--tagged", "the/DT dog/NN barked/VBD ./."])
    assert rc == 0 and out.startswith("(TOP"), err


# -- an output that is one of the inputs, an input given twice ----------------------------------------------------


def _raw_treebank(folder: Path) -> Path:
    from glmnlp.treebank.corpus import sample_files

    raw = folder / "raw.mrg"
    raw.write_bytes(sample_files("train")[0].read_bytes())
    return raw


@pytest.mark.parametrize("spelling", ["same", "dot", "symlink", "hard link"])
def test_data_clean_refuses_to_write_over_one_of_its_files(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch, spelling: str
) -> None:
    """``data --clean --out raw.mrg raw.mrg`` replaced the raw treebank by its cleaned trees (function tags and
    -NONE- elements gone for good), status 0; now a usage error naming --out, the file unchanged, through a link or
    another spelling too."""
    raw = _raw_treebank(tmp_path)
    before = raw.read_bytes()
    monkeypatch.chdir(tmp_path)
    out = {"same": "raw.mrg", "dot": "./raw.mrg", "symlink": "link.mrg", "hard link": "hard.mrg"}[spelling]
    if spelling == "symlink":
        (tmp_path / out).symlink_to(raw)
    elif spelling == "hard link":
        (tmp_path / out).hardlink_to(raw)
    rc, out_text, err = _run(capsys, ["data", "--clean", "--out", out, "raw.mrg"])
    assert (rc, out_text) == (2, "") and raw.read_bytes() == before
    assert "Error: Invalid value for '--out': " in err and " is one of the FILEs: the cleaned trees would replace " \
        "the trees read from it" in err, err


@pytest.mark.parametrize("second", ["raw.mrg", "./raw.mrg", "link.mrg"])
def test_data_clean_refuses_a_file_given_twice(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch, second: str
) -> None:
    """``data --clean --out dup.trees w3.mrg w3.mrg`` wrote every tree twice; now a usage error naming the file,
    nothing written."""
    _raw_treebank(tmp_path)
    (tmp_path / "link.mrg").symlink_to(tmp_path / "raw.mrg")
    monkeypatch.chdir(tmp_path)
    rc, out, err = _run(capsys, ["data", "--clean", "--out", "dup.trees", "raw.mrg", second])
    assert (rc, out) == (2, "") and not (tmp_path / "dup.trees").exists()
    assert f"Error: Invalid value for 'FILE': {Path(second)} is given twice" in err, err
    assert err.rstrip().endswith("its trees would be written twice")


# -- the bound of a generative weight -------------------------------------------------------------------------


@pytest.mark.parametrize("command", [["parser", "train", "--kind", "combined"], ["train-default"]])
def test_a_generative_weight_above_the_models_bound_is_refused_before_any_work(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, command: list[str]
) -> None:
    """``--generative-weights 1e301`` passed the option check and failed after the training, as the model was saved
    (``damaged generative term: weight must be a number in (0, 1e300], got 1e+301``); the check takes the model's
    own bound (the largest weight passes it) and --help says it."""
    from glmnlp.parser.term import MAX_WEIGHT
    from toy_trees import TINY

    trees = tmp_path / "toy.trees"
    trees.write_text("\n".join(TINY * 2) + "\n", encoding="utf-8")
    taken = tmp_path / "a_file"  # --out a file: refused (status 1) after the options are checked, before any work
    taken.write_text("x\n", encoding="utf-8")
    files = ["--train", str(trees), "--dev", str(trees)] if command[0] == "parser" else []
    for weight, status in ((f"{MAX_WEIGHT * 10:g}", 2), (f"5,{MAX_WEIGHT:g}", 1), ("1e300", 1)):
        rc, out, err = _run(capsys, [*command, *files, "--generative-weights", weight, "--out", str(taken), "-j", "1"])
        assert (rc, out) == (status, ""), (weight, err)
        if status == 2:
            assert f"weights must be numbers in (0, {MAX_WEIGHT:g}]" in err, err
    rc, out, _ = _run(capsys, [*command[:2], "--help"])
    assert rc == 0 and f"(0, {MAX_WEIGHT:g}]" in " ".join(out.split())


# -- TEXT arguments checked before any output ---------------------------------------------------------------------


@pytest.mark.parametrize("argv", [
    ["parse", "-q", "-j", "1", "A cat sat.", "", "Dogs bark."],
    ["parse", "-q", "--tokenized", "A cat sat .", " ", "Dogs bark ."],
    ["parse", "-q", "--tagged", "a/DT dog/NN", "a/DT dog", "the/DT cat/NN"],
    ["parse", "-q", "--tagged", "a/DT dog/NN", "a/DT dog/XX"],
], ids=["blank", "blank tokens", "no tag", "unknown tag"])
def test_every_text_argument_is_checked_before_any_output(
    capsys: pytest.CaptureFixture[str], argv: list[str]
) -> None:
    """``parse -q -j1 "A cat sat." "" "Dogs bark."`` wrote the first tree, then ``error: <argument 2>: empty input``
    (status 1), the third never parsed: a bad argument is now found before any output."""
    rc, out, err = _run(capsys, argv)
    assert (rc, out) == (1, ""), out
    assert err.startswith("error: <argument 2>"), err


# -- the environment's settings checked before any work ------------------------------------------------------


@pytest.mark.parametrize(("variable", "value", "message"), [
    ("GLMNLP_JOBS", "abc", "error: GLMNLP_JOBS=abc: jobs must be an integer from 0 to 999999 (0 = all cores)\n"),
    ("GLMNLP_BACKEND", "foo", "error: GLMNLP_BACKEND=foo: backend must be one of local, ray\n"),
])
@pytest.mark.parametrize("argv", [["parse", "-q", "Hi."], ["parse", "-q", "--tagged", "the/DT dog/NN"],
                                  ["tagger", "train", "--train", "TRAIN", "--out", "OUT"],
                                  ["parser", "train", "--train", "TREES", "--dev", "TREES", "--out", "OUT"]],
                         ids=["parse text", "parse tagged", "tagger train", "parser train"])
def test_a_bad_environment_setting_is_refused_before_any_work_whatever_the_input(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path, variable: str, value: str,
    message: str, argv: list[str]
) -> None:
    """``GLMNLP_JOBS=abc glmnlp parse -q "Hi."`` passed (status 0) where the same command on a file of two batches was
    refused; the command reads what its options leave unset before any work, whatever the input."""
    from glmnlp import config
    from toy_trees import TINY

    trees = tmp_path / "toy.trees"
    trees.write_text("\n".join(TINY * 2) + "\n", encoding="utf-8")
    train = tmp_path / "train.word_tag"  # empty: an error of its own, once read (after the environment's)
    train.write_text("", encoding="utf-8")
    monkeypatch.setattr(config, "_current", None)
    monkeypatch.setenv(variable, value)
    names = {"TREES": str(trees), "TRAIN": str(train), "OUT": str(tmp_path / "m")}
    rc, out, err = _run(capsys, [names.get(a, a) for a in argv])
    assert (rc, out, err) == (1, "", message)
    assert not (tmp_path / "m").exists()
    if variable == "GLMNLP_BACKEND" and argv[0] == "parse":  # --jobs 1: the work stays here, the backend unread
        rc, out, err = _run(capsys, [*argv[:2], "-j", "1", *argv[2:]])
        assert rc == 0 and out.startswith("(TOP"), err


# -- every option a --kind does not use, in one message -------------------------------------------------------


@pytest.mark.parametrize(("kind", "options", "message"), [
    ("generative", ["--epochs", "1", "--feature-bits", "16"],
     "--epochs and --feature-bits only apply to --kind perceptron or combined (the perceptron's training); "
     "--kind generative does not use them"),
    ("generative", ["--feature-bits", "auto"],
     "--feature-bits only applies to --kind perceptron or combined (the perceptron's training); "
     "--kind generative does not use it"),
    ("generative", ["--no-cache", "--generative-weights", "5"],
     "--no-cache only applies to --kind perceptron or combined (the perceptron's training); --generative-weights "
     "only applies to --kind combined (the weight of the generative feature); --kind generative does not use them"),
    ("perceptron", ["--gen-prune", "0.1", "--generative-weights", "5"],
     "--gen-prune only applies to --kind combined or generative (the generative model's tables); "
     "--generative-weights only applies to --kind combined (the weight of the generative feature); "
     "--kind perceptron does not use them"),
])
def test_parser_train_names_every_option_its_kind_does_not_use_at_once(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, kind: str, options: list[str], message: str
) -> None:
    """``parser train --kind generative --epochs 1 --feature-bits 16`` named --epochs alone, and --feature-bits only
    once --epochs was taken away; every option the kind does not use is now in one message."""
    from toy_trees import TINY

    trees = tmp_path / "toy.trees"
    trees.write_text("\n".join(TINY * 2) + "\n", encoding="utf-8")
    rc, out, err = _run(capsys, ["parser", "train", "--train", str(trees), "--dev", str(trees), "--out",
                                 str(tmp_path / "m"), "--kind", kind, *options])
    assert (rc, out) == (2, "") and err.endswith(f"\nError: {message}\n"), err
    assert not (tmp_path / "m").exists()


@pytest.mark.parametrize("argv", [["parse", "--help", "-i", "a", "-i", "b"], ["parser", "train", "--train", "a",
                                                                            "--train", "b", "-h"]])
def test_help_is_given_whatever_options_are_repeated(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    """The repeat check ran before click's help: ``parse --help -i a -i b`` said ``-i/--input is given twice``
    (status 2) where help was asked for (and given before the check, as click gives it before any value)."""
    assert main(argv) == 0
    assert capsys.readouterr().out.startswith("Usage: glmnlp ")


@pytest.mark.parametrize("argv", [["parse", "-i", "-h", "-i", "b.txt"], ["tag", "-m", "--help", "-m", "m", "x"]])
def test_a_repeated_option_whose_value_reads_as_help_is_still_refused(argv: list[str],
                                                                      capsys: pytest.CaptureFixture[str]) -> None:
    """The help check matched ``-h`` anywhere among the arguments: ``parse -i -h -i b.txt`` (``-h`` a value of
    ``-i``) parsed b.txt with status 0 where the repeated ``-i`` is refused."""
    assert main(argv) == 2
    assert "is given twice" in capsys.readouterr().err
