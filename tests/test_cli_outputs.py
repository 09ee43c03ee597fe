"""Output locations and inputs that fail are found before any work, as one line ``error: PATH: reason``:
a folder that cannot be written or a file in the way (trainers check before training), --extra-test files of
train-default, an earlier run's drawings in --out-dir, a --tagger whose tags the parser does not know."""

from __future__ import annotations

import errno
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

import pytest
from conftest import snapshot

from glmnlp.cli import main
from glmnlp.errors import InputError
from toy_trees import TINY


def _run(capsys: pytest.CaptureFixture[str], argv: list[str]) -> tuple[int, str, str]:
    capsys.readouterr()
    rc = main(argv)
    out, err = capsys.readouterr()
    return rc, out, err




@pytest.fixture()
def no_training(monkeypatch: pytest.MonkeyPatch) -> None:
    """Any training (or reading of training data) fails the test: the output must be refused first."""

    def refuse(*_args: Any, **_kwargs: Any) -> Any:
        raise AssertionError("work started before the output location was checked")

    import glmnlp.cli.parser_cmd
    import glmnlp.text.default_model
    from glmnlp.tagger.model import Tagger

    monkeypatch.setattr(Tagger, "fit", refuse)
    monkeypatch.setattr(glmnlp.cli.parser_cmd, "read_tree_file_with_lines", refuse)
    monkeypatch.setattr(glmnlp.text.default_model, "load_corpora", refuse)


@pytest.fixture()
def locked(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A folder in which nothing can be created, whoever runs the tests (as ``chattr +i`` does, even for root)."""
    folder = tmp_path / "locked"
    folder.mkdir()
    real_mkstemp, real_mkdtemp = tempfile.mkstemp, tempfile.mkdtemp

    def guard(real: Any) -> Any:
        def make(*args: Any, **kwargs: Any) -> Any:
            if kwargs.get("dir") is not None and Path(kwargs["dir"]).resolve() == folder.resolve():
                raise PermissionError(errno.EPERM, "Operation not permitted", str(kwargs["dir"]))
            return real(*args, **kwargs)
        return make

    monkeypatch.setattr(tempfile, "mkstemp", guard(real_mkstemp))
    monkeypatch.setattr(tempfile, "mkdtemp", guard(real_mkdtemp))
    return folder


def _commands(out: Path, trees: Path) -> dict[str, list[str]]:
    return {
        "data": ["data", "--out", str(out), "--split", "dev"],
        "svg": ["parse", "-q", "-f", "svg", "--out-dir", str(out), "--tagged", "dogs/NNS bark/VBP ./."],
        "tagger": ["tagger", "train", "--train", str(trees), "--out", str(out), "--epochs", "1", "-j", "1", "--quiet"],
        "parser": ["parser", "train", "--train", str(trees), "--dev", str(trees), "--out", str(out), "--epochs", "1",
                   "-j", "1"],
        "train-default": ["train-default", "--out", str(out), "--max-train", "5", "--max-dev", "2",
                          "--parser-epochs", "1", "-j", "1", "-q"],
    }


@pytest.mark.parametrize("command", ["data", "svg", "tagger", "parser", "train-default"])
def test_cli_outputs_a_file_in_the_path_is_one_line_before_training(
    tmp_path: Path, trees_file: Path, command: str, no_training: None, capsys: pytest.CaptureFixture[str]
) -> None:
    """``--out afile/sub``: a one-line error naming the file in the way, status 1, before any training."""
    afile = tmp_path / "afile"
    afile.write_text("mine\n")
    rc, out, err = _run(capsys, _commands(afile / "sub", trees_file)[command])
    assert (rc, out, err) == (1, "", f"error: {afile / 'sub'}: cannot be written: {afile} is not a directory\n")
    assert afile.read_text() == "mine\n"


@pytest.mark.parametrize("command", ["data", "svg", "tagger", "parser", "train-default"])
def test_cli_outputs_a_folder_that_refuses_new_files_is_one_line_before_training(
    tmp_path: Path, trees_file: Path, locked: Path, command: str, no_training: None,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """An immutable or read-only folder (permission bits aside) is found by a probe file, before training."""
    target = locked if command == "data" else locked / "t"
    rc, out, err = _run(capsys, _commands(target, trees_file)[command])
    assert (rc, out) == (1, "")
    assert err == f"error: {target}: cannot be written: cannot create files in {locked} (Operation not permitted)\n"
    assert list(locked.iterdir()) == []


def test_cli_outputs_data_refuses_a_folder_where_a_file_goes_and_writes_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A folder at DIR/dev.trees: one line, and no other split is written either (all paths checked first)."""
    out = tmp_path / "splits"
    (out / "dev.trees").mkdir(parents=True)
    (out / "dev.trees" / "keep.txt").write_text("mine")
    before = snapshot(out)
    rc, _, err = _run(capsys, ["data", "--out", str(out), "--split", "test", "--split", "dev"])
    assert (rc, err) == (1, f"error: {out / 'dev.trees'}: cannot be written: is a directory\n")
    assert snapshot(out) == before


@pytest.mark.parametrize("existed", [False, True, "nested"])
def test_cli_outputs_data_that_runs_out_of_room_leaves_no_new_folder_behind(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, existed: bool | str
) -> None:
    """The second split cannot be written (a full disk): a folder this run made goes, with the split written before
    it (it was left, holding part of the splits), and so do the new parents it made for it (``nested``: they were
    left); in a folder that existed, what was there and what was written stay."""
    from glmnlp.cli import data_cmd
    from glmnlp.errors import ConfigError

    real = data_cmd.atomic_write_text
    calls: list[Path] = []

    def second_fails(path: Path, text: str) -> None:
        calls.append(path)
        if len(calls) == 2:
            raise ConfigError(f"{path}: cannot be written: No space left on device")
        real(path, text)

    monkeypatch.setattr(data_cmd, "atomic_write_text", second_fails)
    out = tmp_path / "new" / "deeper" / "splits" if existed == "nested" else tmp_path / "splits"
    if existed is True:
        out.mkdir()
        (out / "mine.txt").write_text("mine")
    rc, _, err = _run(capsys, ["data", "--out", str(out), "--split", "test", "--split", "dev"])
    assert (rc, err) == (1, f"error: {calls[1]}: cannot be written: No space left on device\n")
    if existed is True:
        assert sorted(p.name for p in out.iterdir()) == sorted(["mine.txt", calls[0].name])
    else:
        assert list(tmp_path.iterdir()) == []


def test_cli_outputs_trainer_still_creates_missing_folders(tmp_path: Path, trees_file: Path) -> None:
    """The probe is made in the nearest existing folder: a new nested output path still works."""
    out = tmp_path / "new" / "deeper" / "m"
    assert main(_commands(out, trees_file)["tagger"]) == 0
    assert (out / "metadata.json").is_file()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["new", "toy.trees"]
    assert [p.name for p in out.parent.iterdir()] == ["m"]


def test_cli_outputs_read_tree_file_names_a_file_it_cannot_read(tmp_path: Path) -> None:
    from glmnlp.treebank.trees import read_tree_file

    with pytest.raises(InputError, match=f"^{tmp_path / 'nothing'}: cannot read file: No such file or directory$"):
        read_tree_file(tmp_path / "nothing")
    with pytest.raises(InputError, match=f"^{tmp_path}: cannot read file: Is a directory$"):
        read_tree_file(tmp_path)


@pytest.mark.parametrize("case", ["missing", "folder", "malformed", "empty"])
def test_cli_outputs_train_default_checks_extra_tests_before_training(
    tmp_path: Path, case: str, no_training: None, capsys: pytest.CaptureFixture[str]
) -> None:
    """``--extra-test NAME=FILE`` is read and checked first: a bad FILE costs no training and writes no model."""
    path = tmp_path / "extra.trees"
    expected = {
        "missing": f"{path}: cannot read file: No such file or directory",
        "folder": f"{path}: cannot read file: Is a directory",
        "malformed": f"{path}:2: unbalanced '(': 2 bracket(s) still open at end of input",
        "empty": f"{path}: no trees in this file",
    }[case]
    if case == "folder":
        path.mkdir()
    elif case == "malformed":
        path.write_text(TINY[0] + "\n(TOP (S\n")
    elif case == "empty":
        path.write_text("\n")
    out = tmp_path / "model"
    argv = _commands(out, path)["train-default"] + ["--extra-test", f"questions={path}"]
    rc, _, err = _run(capsys, argv)
    assert (rc, err) == (1, f"error: {expected}\n")
    assert not out.exists()


@pytest.mark.parametrize("name", ["gum_dev", "ptb_sample_dev"])
def test_cli_outputs_train_default_refuses_a_dev_figures_name_as_a_usage_error(
    tmp_path: Path, name: str, no_training: None, capsys: pytest.CaptureFixture[str]
) -> None:
    """An --extra-test name the dev figures take was status 1 (from the library), where the same option's name given
    twice is status 2: both are bad option values, status 2, before any work."""
    path = tmp_path / "extra.trees"
    path.write_text(TINY[0] + "\n")
    out = tmp_path / "model"
    rc, _, err = _run(capsys, _commands(out, path)["train-default"] + ["--extra-test", f"{name}={path}"])
    assert rc == 2 and err.endswith(f"Invalid value for --extra-test: the name '{name}' is taken by the dev figures; "
                                    "choose another\n"), err
    assert not out.exists()


def _svg(out: Path, *sentences: str) -> list[str]:
    return ["parse", "-q", "-f", "svg", "--out-dir", str(out), "--tagged", *sentences]


def test_cli_outputs_svg_out_dir_removes_the_earlier_runs_drawings(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Three drawings, then one: only the new sentence-0001.svg is left (docs: the earlier run's are replaced)."""
    out = tmp_path / "trees"
    rc, printed, _ = _run(capsys, _svg(out, "dogs/NNS bark/VBP ./.", "cats/NNS sleep/VBP ./.", "a/DT dog/NN ./."))
    assert rc == 0 and sorted(p.name for p in out.iterdir()) == [f"sentence-000{k}.svg" for k in (1, 2, 3)]
    first = (out / "sentence-0001.svg").read_bytes()
    # a run that fails before its first drawing leaves the earlier run whole
    rc, _, err = _run(capsys, _svg(out, "one/ZZZ"))
    assert rc == 1 and "unknown tag 'ZZZ'" in err
    assert sorted(p.name for p in out.iterdir()) == [f"sentence-000{k}.svg" for k in (1, 2, 3)]
    rc, printed, _ = _run(capsys, _svg(out, "birds/NNS sing/VBP ./."))
    assert (rc, printed) == (0, f"{out / 'sentence-0001.svg'}\n")
    assert sorted(p.name for p in out.iterdir()) == ["sentence-0001.svg"]
    assert (out / "sentence-0001.svg").read_bytes() != first
    # a drawing's temporary file left by a killed run (SIGKILL) is this command's own: removed, not a stranger's
    (out / ".sentence-0007.svg.k2j_9xq0.tmp").write_text("<sv")  # as an earlier release named it
    dead = int(subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True,
                              text=True).stdout)
    (out / f".sentence-0008.svg.glmnlp-tmp-{dead}-k2j_9xq0.tmp").write_text("<sv")  # as atomic_write_bytes does
    (out / ".notes.tmp").write_text("mine")
    rc, _, err = _run(capsys, _svg(out, "birds/NNS sing/VBP ./."))
    assert rc == 1 and "(.notes.tmp)" in err  # a file of another name still refuses the folder
    (out / ".notes.tmp").unlink()
    assert _run(capsys, _svg(out, "birds/NNS sing/VBP ./."))[0] == 0
    assert sorted(p.name for p in out.iterdir()) == ["sentence-0001.svg"]


def test_cli_outputs_svg_out_dir_never_removes_what_it_did_not_write(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A symbolic link named like a drawing is not a drawing of glmnlp parse: refused, and its target kept."""
    out = tmp_path / "trees"
    out.mkdir()
    (tmp_path / "mine.svg").write_text("<svg/>")
    (out / "sentence-0002.svg").symlink_to(tmp_path / "mine.svg")
    rc, _, err = _run(capsys, _svg(out, "dogs/NNS bark/VBP ./."))
    assert rc == 1 and "holds files that are not drawings of glmnlp parse (sentence-0002.svg)" in err
    assert (tmp_path / "mine.svg").read_text() == "<svg/>" and (out / "sentence-0002.svg").is_symlink()
    assert sorted(p.name for p in out.iterdir()) == ["sentence-0002.svg"]


def _tagger(tmp_path: Path, name: str, lines: list[str]) -> Path:
    data = tmp_path / f"{name}.word_tag"
    data.write_text("\n".join(lines) + "\n")
    assert main(["tagger", "train", "--train", str(data), "--out", str(tmp_path / name), "--epochs", "1",
                 "-j", "1", "--quiet"]) == 0
    return tmp_path / name


def test_cli_outputs_parse_refuses_a_tagger_with_tags_the_parser_does_not_know(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A UD tagger before a PTB parser would give every sentence a flat tree: an error at load time naming the
    unknown tags. A few unknown tags are a warning naming them; a subset of the parser's tags is fine."""
    ud = _tagger(tmp_path, "ud", ["The/DET dog/NOUN barked/VERB ./PUNCT", "A/DET cat/NOUN sat/SYM ./PUNCT"])
    rc, out, err = _run(capsys, ["parse", "-q", "--tagger", str(ud), "The dog barked."])
    assert (rc, out) == (1, "")
    assert err.startswith(f"error: {ud}: the parser does not know 4 of this tagger's 5 tags (DET NOUN PUNCT VERB): ")
    assert err.count("\n") == 1
    mixed = _tagger(tmp_path, "mixed", ["The/DT dog/NN barked/VBD ./XPUNCT"])
    rc, out, err = _run(capsys, ["parse", "-q", "--tagger", str(mixed), "The dog barked"])
    assert rc == 0 and out.startswith("(TOP ")
    assert err == (f"warning: {mixed}: the parser does not know 1 of this tagger's 4 tags (XPUNCT): "
                   "a sentence tagged with one of them gets a flat tree\n")
    subset = _tagger(tmp_path, "subset", ["The/DT dog/NN barked/VBD ./.", "A/DT cat/NN sat/VBD ./."])
    rc, out, err = _run(capsys, ["parse", "-q", "--tagger", str(subset), "The dog barked."])
    assert (rc, err) == (0, "") and out.startswith("(TOP (S (NP (DT The) (NN dog)) (VP (VBD barked)) (. .)))")
