"""``glmnlp measures`` given a file whose name says another format (CoNLL-U, trees, word/TAG): measured as asked,
with a warning naming what reads that format, and the Python it prints runs as written."""

from __future__ import annotations

from pathlib import Path

import pytest

from glmnlp.cli import main


@pytest.mark.parametrize(("name", "text", "fmt"), [
    ("dev.conllu", "# sent_id = 1\n1\tIt\t_\t_\tPRP\t_\t_\t_\t_\t_\n2\tran\t_\t_\tVBD\t_\t_\t_\t_\t_\n\n", "conllu"),
    ("dev.trees", "(TOP (S (NP (PRP It)) (VP (VBD ran))))\n", "trees"),
    ("dev.word_tag", "It/PRP ran/VBD\n", "word_tag"),
])
@pytest.mark.parametrize(("options", "read_as"), [([], "raw text (paragraphs)"),
                                                  (["--tokenized"], "one tokenised sentence a line (--tokenized)")])
def test_measures_cli_warns_of_a_file_named_as_another_format(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, name: str, text: str, fmt: str, options: list[str],
    read_as: str
) -> None:
    """A CoNLL-U or tree file measured as text made a word of every bracket and column, status 0 and no word of it:
    it is read as asked, with ``glmnlp tag``'s and ``glmnlp parse``'s warning, naming what reads that format."""
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    capsys.readouterr()
    assert main(["measures", "-q", *options, "-i", str(path)]) == 0
    assert capsys.readouterr().err == (
        f"warning: {path} is read as {read_as}, though its name says {fmt}: glmnlp measures reads no {fmt} file; in "
        "Python from glmnlp.treebank.formats import read_tagged; glmnlp.measures([s.words for s in read_tagged(FILE, "
        "column=None)], tokenized=True) measures its words\n")


def test_measures_cli_advice_for_a_tagged_file_runs_as_written(tmp_path: Path) -> None:
    """The warning's Python for a CoNLL-U file measured as text failed as written after ``import glmnlp``
    (``glmnlp.treebank.formats`` was an AttributeError: the submodule is not imported by the package)."""
    import subprocess
    import sys

    from glmnlp.cli.measures_cmd import READ_TAGGED_ADVICE

    path = tmp_path / "dev.conllu"
    path.write_text("# sent_id = 1\n1\tIt\t_\t_\tPRP\t_\t_\t_\t_\t_\n2\tran\t_\t_\tVBD\t_\t_\t_\t_\t_\n\n",
                    encoding="utf-8")
    script = f"import glmnlp\nFILE = {str(path)!r}\n" + READ_TAGGED_ADVICE.replace("; ", "\nrows = ", 1) + (
        "\nprint(len(rows), rows[0]['word'])\n")
    run = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=300)
    assert (run.returncode, run.stdout) == (0, "3 It\n"), run.stderr[-2000:]
