"""Command-line reliability: empty training files, a closed output pipe, well-formed output that
reads back, user tags kept in every mode."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from glmnlp.cli import main
from toy_trees import TINY

_MAIN = "import sys; from glmnlp.cli import main; sys.exit(main())"


@pytest.mark.parametrize("empty", ["train", "dev"])
def test_cli_parser_train_refuses_an_empty_tree_file(
    tmp_path: Path, empty: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """``parser train --train EMPTY`` (or --dev EMPTY) is an error naming the file; no model is written."""
    good, nothing = tmp_path / "toy.trees", tmp_path / "empty.trees"
    good.write_text("\n".join(TINY) + "\n")
    nothing.write_text("\n \n")
    files = {"train": good, "dev": good, empty: nothing}
    rc = main(["parser", "train", "--train", str(files["train"]), "--dev", str(files["dev"]),
               "--out", str(tmp_path / "m"), "--epochs", "1"])
    assert rc == 1
    assert capsys.readouterr().err == f"error: {nothing}: no trees in this file\n"
    assert not (tmp_path / "m").exists()


def test_cli_parse_into_a_closed_pipe_ends_quietly_with_status_0(tmp_path: Path) -> None:
    """``glmnlp parse ... | head -1``: the reader closes the pipe; glmnlp exits 0 and prints nothing on stderr."""
    source = tmp_path / "in.txt"
    source.write_text("the/DT dog/NN barked/VBD ./.\n" * 400)
    proc = subprocess.Popen(
        [sys.executable, "-c", _MAIN, "parse", "--tagged", "-q", "--batch-size", "1", "-i", str(source)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE,
    )
    assert proc.stdout is not None and proc.stderr is not None
    first = proc.stdout.readline()
    proc.stdout.close()
    err = proc.stderr.read()
    rc = proc.wait(timeout=300)
    assert first.startswith(b"(TOP ")
    assert (rc, err) == (0, b"")
