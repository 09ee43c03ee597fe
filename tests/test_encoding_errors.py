"""Input that is not UTF-8 is one error from every reader: an InputError at the file and line of the bad byte.

``read_tree_file`` said TreeSyntaxError and ``read_tagged`` FormatError for the same bytes; an encoding is neither
malformed brackets nor a malformed format (docs/api.md, "Errors")."""

from __future__ import annotations

import io
import tempfile
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from glmnlp.errors import InputError
from glmnlp.parser.word_classes import WordClasses
from glmnlp.treebank.formats import iter_tagged, read_conllu, read_tab, read_tagged, read_word_tag
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


def _bad_lines(fmt: str, good: int, bad: bytes) -> tuple[bytes, int]:
    """``good`` lines of format ``fmt`` then one holding the bytes ``bad``, and that line's number."""
    fine, broken = _LINES[fmt]
    data = b"\n".join([fine] * good + [broken % bad]) + b"\n"
    return data, data[: data.index(broken % bad)].count(b"\n") + 1


@settings(max_examples=60, deadline=None)
@given(fmt=st.sampled_from(sorted(_LINES)), good=st.integers(0, 4), bad=_BAD)
def test_every_reader_says_input_error_at_the_line_of_a_byte_that_is_not_utf8(fmt: str, good: int, bad: bytes) -> None:
    data, line = _bad_lines(fmt, good, bad)
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


class _Pipe(io.BytesIO):
    """Bytes that cannot be read again (a pipe's)."""

    def seekable(self) -> bool:
        return False


@settings(max_examples=40, deadline=None)
@given(fmt=st.sampled_from(sorted(_LINES)), good=st.integers(0, 4), bad=_BAD.filter(lambda b: b != b"\x00"))
def test_an_open_text_stream_with_a_bad_byte_is_an_input_error(fmt: str, good: int, bad: bytes) -> None:
    """``read_tagged(open(path, encoding="utf-8"))`` raised a bare UnicodeDecodeError (Python decodes a text stream
    as it reads it); it is the InputError a path gives, at the line, and naming the byte where the stream's bytes
    cannot be read again."""
    data, line = _bad_lines(fmt, good, bad)
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder, f"bad.{fmt}")
        path.write_bytes(data)
        readers = [r for r in _READERS[fmt] if r is not read_tree_file]  # a path's reader: TypeError for a stream
        readers.append(lambda s: list(iter_tagged(s, name=path.name)))
        for reader in readers:
            with open(path, encoding="utf-8") as stream:
                with pytest.raises(InputError) as caught:
                    reader(stream)
            exc = caught.value
            assert type(exc) is InputError and exc.source in (str(path), path.name) and exc.line == line, str(exc)
            assert exc.reason.startswith("not valid UTF-8 text (byte 0x"), str(exc)
        with pytest.raises(InputError) as caught:
            read_tagged(io.TextIOWrapper(_Pipe(data), encoding="utf-8"))
        assert caught.value.line is None and caught.value.reason == f"not valid UTF-8 text (byte 0x{bad[0]:02x})"


def test_an_open_stream_s_error_names_its_file_or_no_number(tmp_path: Path) -> None:
    """``iter_tagged`` of an open file said ``<input>:2`` where ``read_tagged`` of the same stream said the file's name;
    a stream opened on a descriptor (a ``subprocess`` pipe) was named by its number (``3: not valid ...``), which reads
    as a line number."""
    import subprocess

    path = tmp_path / "bad.word_tag"
    path.write_bytes(b"ok/NN\nHello/UH caf\xe9/NN\n")
    with open(path, encoding="utf-8") as stream, pytest.raises(InputError) as caught:
        list(iter_tagged(stream, "word_tag"))
    assert (caught.value.source, caught.value.line) == (str(path), 2)
    with subprocess.Popen(["cat", str(path)], stdout=subprocess.PIPE, text=True) as proc:
        assert proc.stdout is not None
        with pytest.raises(InputError) as caught:
            read_tagged(proc.stdout)
    assert caught.value.source == "<stream>" and str(caught.value).startswith("<stream>: not valid UTF-8 text")
