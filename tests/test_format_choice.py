"""How ``--input-format auto`` chooses a format, and how the warning of a file read as another format looks at it.

The first lines decide, and where they cannot (a tagless or one-token first line), the file's suffix, as
``read_tagged`` decides: ``glmnlp tag --input-format auto`` ignored the suffix there. The warning reads the first
line from the command's own stream: it opened the file a second time, and judged no named pipe."""

from __future__ import annotations

import os
import threading
from pathlib import Path

import pytest

from glmnlp.cli import main
from glmnlp.errors import FormatError
from glmnlp.treebank.formats import iter_tagged, read_tagged


def _run(capsys: pytest.CaptureFixture[str], argv: list[str]) -> tuple[int, str, str]:
    capsys.readouterr()
    rc = main(argv)
    out, err = capsys.readouterr()
    return rc, out, err


@pytest.mark.parametrize(("name", "text", "said"), [
    ("x.word_tag", "\nHello\nthe/DT dog/NN\n", "2: token 1 'Hello' has no /TAG"),
    ("x.word_tag", "Hello\n", "1: token 1 'Hello' has no /TAG"),
    ("x.tab", "\n\nHello\n\nthe\tDT\n", "3: expected 2 tab-separated fields (word, tag), found 1"),
])
def test_tag_auto_takes_the_suffix_where_the_first_line_cannot_tell(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, name: str, text: str, said: str
) -> None:
    """The suffix's format reads the file, and its reader says what is wrong in its own words, as read_tagged's
    (it was "cannot tell the format (not CoNLL-U, ...); this line has no tags (plain tokens)")."""
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    with pytest.raises(FormatError) as info:
        read_tagged(path)
    assert str(info.value) == f"{path}:{said}"
    rc, out, err = _run(capsys, ["tag", "--input-format", "auto", str(path)])
    assert (rc, out, err) == (1, "", f"error: {path}:{said}\n")


def test_iter_tagged_takes_the_named_format_where_the_lines_cannot_tell() -> None:
    lines = ["", "Hello", "the/DT"]
    with pytest.raises(FormatError, match="cannot tell the format"):
        list(iter_tagged(lines, "auto", None, "x"))
    with pytest.raises(FormatError, match="token 1 'Hello' has no /TAG"):
        list(iter_tagged(lines, "auto", None, "x", "word_tag"))
    assert [s.words for s in iter_tagged(["the/DT"], "auto", None, "x", "tab")] == [("the",)]  # the lines decide


def test_the_warning_reads_the_first_line_of_the_command_s_own_stream(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """A named pipe called x.word_tag read as tokens: its first line was not judged (reading it apart from the command
    would have lost it), so it was tagged as tokens without a warning; every line is tagged, and warned of."""
    fifo = tmp_path / "x.word_tag"
    os.mkfifo(fifo)
    lines = "\n\nthe/DT dog/NN\nit/PRP\n"

    def write() -> None:
        with open(fifo, "w", encoding="utf-8") as handle:
            handle.write(lines)

    writer = threading.Thread(target=write)
    writer.start()
    try:
        rc, out, err = _run(capsys, ["tag", str(fifo)])
    finally:
        writer.join(10)
    assert rc == 0 and len(out.splitlines()) == 2 and out.startswith("the/DT/"), out
    assert err == (f"warning: {fifo} is read as one tokenised sentence a line (--input-format tokens, the default), "
                   "though its name says word_tag: --input-format auto reads it as that\n")


def test_the_warning_opens_the_input_once(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import builtins

    path = tmp_path / "x.word_tag"
    path.write_text("the/DT dog/NN\n", encoding="utf-8")
    opened: list[str] = []
    real = builtins.open

    def counting(file: object, *args: object, **kwargs: object) -> object:
        if str(file) == str(path):
            opened.append(str(file))
        return real(file, *args, **kwargs)  # type: ignore[call-overload]

    monkeypatch.setattr(builtins, "open", counting)
    rc, _out, err = _run(capsys, ["tag", str(path)])
    assert rc == 0 and "its name says word_tag" in err and opened == [str(path)]
