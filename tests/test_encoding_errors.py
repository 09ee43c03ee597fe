"""Input that is not UTF-8 is one error from every reader: an InputError at the file and line of the bad byte.

``read_tree_file`` said TreeSyntaxError and ``read_tagged`` FormatError for the same bytes; an encoding is neither
malformed brackets nor a malformed format (docs/api.md, "Errors")."""

from __future__ import annotations

import tempfile
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from glmnlp.errors import InputError
from glmnlp.parser.word_classes import WordClasses
from glmnlp.treebank.formats import read_conllu, read_tab, read_tagged, read_word_tag
from glmnlp.treebank.trees import read_tree_file

_LINES = {
    "trees": (b"(TOP (S (NN x)))", b"(TOP (S (NN caf%s)))"),
    "word_tag": (b"x/NN y/VB", b"caf%s/NN"),
    "tab": (b"x\tNN\n", b"caf%s\tNN"),
    "conllu": (b"1\tx\t_\t_\tNN\t_\t_\t_\t_\t_\n", b"1\tcaf%s\t_\t_\tNN\t_\t_\t_\t_\t_"),
}
_READERS = {
    "trees": [read_tree_file, read_tagged],
    "word_tag": [read_word_tag, read_tagged],
    "tab": [read_tab, read_tagged],
    "conllu": [read_conllu, read_tagged],
}
_BAD = st.sampled_from([b"\xe9", b"\xff", b"\x80", b"\xc3(", b"\xed\xa0\x80", b"\x00"])


@settings(max_examples=60, deadline=None)
@given(fmt=st.sampled_from(sorted(_LINES)), good=st.integers(0, 4), bad=_BAD)
def test_every_reader_says_input_error_at_the_line_of_a_byte_that_is_not_utf8(fmt: str, good: int, bad: bytes) -> None:
    fine, broken = _LINES[fmt]
    data = b"\n".join([fine] * good + [broken % bad]) + b"\n"
    line = data[: data.index(broken % bad)].count(b"\n") + 1
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder, f"bad.{fmt}")
        path.write_bytes(data)
        for reader in _READERS[fmt]:
            try:
                reader(path)
            except InputError as exc:
                assert type(exc) is InputError, (reader.__name__, type(exc).__name__, str(exc))
                assert (exc.source, exc.line) == (str(path), line), (reader.__name__, str(exc))
                assert exc.reason.startswith(("not valid UTF-8 text (byte 0x", "binary data (NUL byte)")), str(exc)
            else:
                raise AssertionError(f"{reader.__name__} read {data!r}")


def test_a_word_class_file_that_is_not_utf8_is_the_input_error_of_every_reader(tmp_path: Path) -> None:
    path = tmp_path / "classes.tsv"
    path.write_bytes(b"caf\xe9\tclosed\n")
    try:
        WordClasses.from_file(path)
    except InputError as exc:
        assert type(exc) is InputError and str(exc) == f"{path}:1: not valid UTF-8 text (byte 0xe9 at column 4)"
    else:
        raise AssertionError("read")
