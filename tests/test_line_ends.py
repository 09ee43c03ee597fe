"""Line ends: ``\\n``, ``\\r\\n`` and a lone ``\\r`` end a line for every line reader (glmnlp.treebank.fileio's
"Line ends"), and the line numbers of messages count them so. A file with lone ``\\r`` ends was one line to the
stream readers: ``parse --tokenized`` merged its lines into one sentence and every message named line 1."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from glmnlp.cli import main
from glmnlp.errors import InputError
from glmnlp.treebank.fileio import decoded_lines, decoded_text, split_lines
from glmnlp.treebank.trees import parse_tree

# (no Ctrl-Z: one that ends or begins a line is DOS's end-of-file mark, dropped: see the test of it below)
_LINE = st.text(st.characters(blacklist_characters="\r\n\x00\ufeff\x1a", blacklist_categories=("Cs",)), max_size=12)


def test_split_lines_hand_worked() -> None:
    assert split_lines("a\nb\r\nc\rd") == ["a", "b", "c", "d"]
    assert split_lines("a\r\r\nb\n") == ["a", "", "b"]  # a lone \r, then \r\n
    assert split_lines("a\n\n") == ["a", ""] and split_lines("") == [] and split_lines("\r") == [""]
    assert split_lines("a\x0bb\x1cc\u2028d\x85e\x0cf") == ["a\x0bb\x1cc\u2028d\x85e\x0cf"]  # not str.splitlines


@settings(max_examples=300, deadline=None)
@given(st.lists(_LINE, max_size=8), st.lists(st.sampled_from(["\n", "\r\n", "\r"]), min_size=8, max_size=8),
       st.booleans())
def test_split_and_decoded_lines_agree_for_any_line_ends(lines: list[str], ends: list[str], final: bool) -> None:
    """Any mix of the three line ends gives the lines back, by both readers, numbered from 1."""
    used = ends[: len(lines)]
    if not final and lines and lines[-1]:
        used[-1] = ""  # no end after the last line
    text = "".join(line + end for line, end in zip(lines, used))
    assume(text.count("\r\n") == used.count("\r\n"))  # a lone \r before an empty line's \n is a \r\n
    assert split_lines(text) == lines
    assert list(decoded_lines(io.BytesIO(text.encode("utf-8")), "f")) == list(enumerate(lines, start=1))


class _Dribble(io.RawIOBase):
    """A stream that returns its data a few bytes per read, as a pipe does when a writer writes in pieces."""

    def __init__(self, data: bytes, sizes: list[int]) -> None:
        self.data, self.sizes, self.at = data, sizes or [1], 0

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: bytearray) -> int:  # type: ignore[override]
        size = min(len(buffer), self.sizes[self.at % len(self.sizes)], len(self.data) - self.at)
        buffer[:size] = self.data[self.at:self.at + size]
        self.at += size
        return size


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(["a", "\u00e9", " ", "\r", "\n", "\r\n"]), max_size=14),
       st.lists(st.integers(1, 4), max_size=6))
def test_decoded_lines_are_the_same_however_the_reads_cut_the_stream(pieces: list[str], sizes: list[int]) -> None:
    """Reads that end between a \\r and its \\n (one line end, not two: a blank line ends a paragraph), or inside
    a character's bytes, give the lines of the whole text."""
    text = "".join(pieces)
    stream = io.BufferedReader(_Dribble(text.encode("utf-8"), sizes), buffer_size=2)
    assert [line for _, line in decoded_lines(stream, "f")] == split_lines(text)
    lines = io.BytesIO(text.encode("utf-8")).readlines()  # an iterable of byte lines, no read method: as before
    assert [line for _, line in decoded_lines(lines, "f")] == split_lines(text)  # type: ignore[arg-type]


def test_an_iterable_of_byte_lines_is_read_line_by_line() -> None:
    """Without a read method, each item is its own line (or lines): an empty one ended the input, and items without
    a line end were joined into one line."""
    assert list(decoded_lines([b"The dog.\n", b"", b"A cat.\r\n"], "f")) == [  # type: ignore[arg-type]
        (1, "The dog."), (2, ""), (3, "A cat.")]
    assert list(decoded_lines([b"The dog.", b"A cat.\rIt sat."], "f")) == [  # type: ignore[arg-type]
        (1, "The dog."), (2, "A cat."), (3, "It sat.")]


@pytest.mark.parametrize("end", ["\r", "\r\n"])
def test_parse_answers_each_line_of_a_pipe_ended_by_a_carriage_return(end: str) -> None:
    """A program that writes lines ended by a lone \\r (old Mac) to ``glmnlp parse`` and waits for each tree got
    none until the end of its input: the stream was read to each \\n (here the watchdog ends the command after
    90 s). A \\r\\n end, whose \\n may come in a later read, gives one tree, not a blank line too."""
    from conftest import coprocess

    with coprocess("parse", "--lines", "-q", "--batch-size", "1", "-j", "1", "-f", "brackets") as proc:
        assert proc.stdin is not None and proc.stdout is not None
        trees = []
        for line in ("The dog barked.", "A cat sat.", "It rained."):
            proc.stdin.write(line + end)
            proc.stdin.flush()
            answer = proc.stdout.readline()
            assert answer, f"no tree after {len(trees)} trees (the watchdog ended the command)"
            trees.append(parse_tree(answer).leaves()[0])
        proc.stdin.close()
        rest = proc.stdout.read()
        proc.wait(timeout=60)
    assert proc.returncode == 0 and trees == ["The", "A", "It"] and rest == ""


def test_decoded_lines_name_the_line_of_bad_bytes_after_lone_carriage_returns() -> None:
    with pytest.raises(InputError, match=r"^f:3: binary data"):
        list(decoded_lines(io.BytesIO(b"a\rb\rc\x00d\r"), "f"))
    with pytest.raises(InputError, match=r"^f:4: not valid UTF-8 text \(byte 0xe9 at column 2\)$"):
        list(decoded_lines(io.BytesIO(b"one\ntwo\rthree\rx\xe9\n"), "f"))
    with pytest.raises(InputError, match=r"^f:4: not valid UTF-8 text \(byte 0xe9 at column 2\)$"):
        decoded_text(b"one\ntwo\rthree\rx\xe9\n", "f")
    with pytest.raises(InputError, match=r"^f:2: binary data"):
        decoded_text(b"one\r\ntwo\x00\r\n", "f")


@pytest.mark.parametrize(("data", "message"), [(b"a\rb\rc\x00d\re\n", "binary data"),
                                               (b"a\rb\rx\xe9\re\n", "not valid UTF-8"),
                                               (b"a\rb\rx\xe9\x00\n", "not valid UTF-8")])  # the earlier fault
def test_decoded_lines_give_the_lines_before_bad_bytes_after_lone_carriage_returns(data: bytes, message: str) -> None:
    """Lines ended by a lone \\r before a bad byte were lost with it: ``parse`` and ``tag`` wrote nothing for them,
    where with \\n ends the output of every line before the bad one comes before the error."""
    lines = decoded_lines(io.BytesIO(data), "f")
    assert [next(lines), next(lines)] == [(1, "a"), (2, "b")]
    with pytest.raises(InputError, match=rf"^f:3: {message}"):
        next(lines)


def _run(capsys: pytest.CaptureFixture[str], argv: list[str]) -> tuple[int, str, str]:
    capsys.readouterr()
    rc = main(argv)
    out, err = capsys.readouterr()
    return rc, out, err


@pytest.mark.parametrize(("argv", "text", "expected"), [
    (["parse", "-q", "-j", "1", "--tokenized", "-f", "brackets"], "the dog\rthe cat\r",
     "(TOP (NP (DT the) (NN dog)))\n(TOP (NP (DT the) (NN cat)))\n"),
    (["parse", "-q", "-j", "1", "--tagged", "-f", "brackets"], "the/DT dog/NN\rthe/DT cat/NN",
     "(TOP (NP (DT the) (NN dog)))\n(TOP (NP (DT the) (NN cat)))\n"),
    (["tag"], "the dog\rthe cat\r", "the/DT dog/NN\nthe/DT cat/NN\n"),
    (["tag", "--input-format", "word_tag"], "the/DT dog/NN\rthe/DT cat/NN\r", "the/DT dog/NN\nthe/DT cat/NN\n"),
])
def test_commands_read_lone_carriage_returns_as_line_ends(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, argv: list[str], text: str, expected: str
) -> None:
    source = tmp_path / "in.txt"
    source.write_bytes(text.encode("utf-8"))
    rc, out, err = _run(capsys, [*argv, *(["-i"] if argv[0] == "parse" else []), str(source)])
    assert (rc, out) == (0, expected), err


def test_parse_names_the_line_of_a_bad_token_after_lone_carriage_returns(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    source = tmp_path / "in.txt"
    source.write_bytes(b"the/DT dog/NN\rthe/DT cat/NN\rthe/DT bird\r")
    rc, out, err = _run(capsys, ["parse", "-q", "-j", "1", "--tagged", "-i", str(source)])
    assert rc == 1 and err.startswith(f"error: {source}:3: token 2 'bird' has no /TAG"), err
    assert out == "(TOP (NP (DT the) (NN dog)))\n(TOP (NP (DT the) (NN cat)))\n"  # the lines before it, written


def test_word_class_files_read_lone_carriage_returns_and_a_byte_order_mark(tmp_path: Path) -> None:
    """A byte order mark was part of the first word (its entry lost: ``A`` was open); ``\\r`` ends a line here too."""
    from glmnlp.parser.measures import WordClasses

    classes = tmp_path / "wc.txt"
    classes.write_bytes(b"\xef\xbb\xbfA\tclosed\rdog\tprevious\r")
    rules = tmp_path / "rules.txt"
    rules.write_bytes(b"\xef\xbb\xbf^x+$\tclosed\r^y$\tprevious\r")
    mine = WordClasses.from_file(classes, rules)
    assert [mine(w) for w in ("A", "dog", "xx", "y")] == ["closed", "previous", "closed", "previous"]


def test_a_byte_order_mark_at_the_start_of_any_line_is_not_part_of_it(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """Files put together (``cat a.txt b.txt``) hold a byte order mark at the start of a later line: it stuck to
    that line's first word (the token ``\\ufeffSecond``), where the first file's was dropped."""
    source = tmp_path / "in.txt"
    source.write_bytes(b"\xef\xbb\xbfFirst/NN\n\xef\xbb\xbfSecond/NN\n")
    rc, out, _ = _run(capsys, ["tag", "--input-format", "word_tag", str(source)])
    assert rc == 0 and "\ufeff" not in out and [line.rpartition("/")[0] for line in out.splitlines()] == [
        "First", "Second"]
    rc, out, _ = _run(capsys, ["parse", "-q", "-j", "1", "--tagged", "-f", "json", "-i", str(source)])
    assert rc == 0 and "\\ufeff" not in out and "\ufeff" not in out and '"text": "Second"' in out


@pytest.mark.parametrize("suffix, first, second", [
    (".trees", "(TOP (NN First))", "(TOP (NN Second))"),
    (".word_tag", "First/NN", "Second/NN"),
    (".tab", "First\tNN\n", "Second\tNN\n"),
    (".conllu", "1\tFirst\t_\t_\tNN\t_\t_\t_\t_\t_\n", "1\tSecond\t_\t_\tNN\t_\t_\t_\t_\t_\n"),
])
def test_whole_file_readers_drop_a_byte_order_mark_at_the_start_of_a_later_line(
    tmp_path: Path, suffix: str, first: str, second: str
) -> None:
    """The readers that read a file whole (trees, and the tagged formats of ``tagger train``/``evaluate``) dropped
    only the mark at the start of the file: in files put together the second's became part of a word (word/TAG,
    tab) or an error (trees: "text outside any bracket"; CoNLL-U: "bad word ID"), where the line readers dropped it."""
    from glmnlp.treebank.formats import read_tagged
    from glmnlp.treebank.trees import read_tree_file

    joined = tmp_path / f"joined{suffix}"
    joined.write_bytes(("\ufeff" + first + "\n" + "\ufeff" + second + "\n").encode("utf-8"))
    if suffix == ".trees":
        assert [t.leaves() for t in read_tree_file(joined)] == [["First"], ["Second"]]
    else:
        assert [s.words for s in read_tagged(joined, suffix.lstrip("."))] == [("First",), ("Second",)]


def test_the_column_of_a_bad_byte_counts_characters() -> None:
    """An editor's column: the bad byte after curly quotes (three bytes each) was said at column 13, not 9, by both
    the whole-text and the line reader."""
    data = "\u201cHi\u201d caf".encode("utf-8") + b"\xe9 x\n"
    message = r"^f:1: not valid UTF-8 text \(byte 0xe9 at column 9\)$"
    with pytest.raises(InputError, match=message):
        decoded_text(data, "f")
    with pytest.raises(InputError, match=message):
        list(decoded_lines(io.BytesIO(data), "f"))


@pytest.mark.parametrize("data", [b"The/DT dog/NN ./.\x1a", b"The/DT dog/NN ./.\r\n\x1a", b"\x1aThe/DT dog/NN ./.\n",
                                  b"The/DT dog/NN ./.\x1a\r\n", b"\x1a\xef\xbb\xbfThe/DT dog/NN ./.\n"])
def test_a_dos_end_of_file_mark_is_not_text(data: bytes) -> None:
    """Ctrl-Z (0x1A), DOS's end-of-file mark, at the end of a file or where ``copy /b a+b`` put it: it stuck to the
    last token (``.^Z``, a tag the tagger learned) or was a token alone, taken by ``parse --tagged`` and refused by
    ``glmnlp tag`` and ``tagger evaluate``. Every reader drops it where a line ends or begins."""
    lines = [line for _n, line in decoded_lines(io.BytesIO(data), "f") if line]
    assert lines == ["The/DT dog/NN ./."]
    from glmnlp.treebank.fileio import without_byte_order_marks  # (read_text_file's, after decoded_text)

    assert without_byte_order_marks(decoded_text(data, "f")).split() == ["The/DT", "dog/NN", "./."]
    assert decoded_text(b"a\x1ab\n", "f") == "a\x1ab\n"  # inside a line it is the text's


@pytest.mark.parametrize("data", [b"\xff\xfeT\x00h\x00e\x00\n\x00", b"\xfe\xff\x00T\x00h",
                                  b"\xff\xfe\x00\x00T\x00\x00\x00"])
def test_a_utf16_file_is_named_as_such_by_every_reader(data: bytes) -> None:
    """A Notepad "Unicode" file was "byte 0xff at column 1" from the line readers and "binary data (NUL byte)" from
    the whole-file readers: both say what it is now."""
    with pytest.raises(InputError, match=r"^f:1: UTF-(16|32) text \(byte order mark [0-9A-F ]+\); expected UTF-8"):
        list(decoded_lines(io.BytesIO(data), "f"))
    with pytest.raises(InputError, match=r"^f:1: UTF-(16|32) text \(byte order mark [0-9A-F ]+\); expected UTF-8"):
        decoded_text(data, "f")


@pytest.mark.parametrize("blank", ["", " \t", "\u2028", "\u0085", "\u200b", "\x1a", "\x7f", "\x1c", "\u2029 \u00a0"])
def test_a_blank_line_ends_a_paragraph_alike_in_a_file_in_text_and_in_the_api(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], blank: str,
) -> None:
    """A line of only U+2028, a zero-width space, DEL, ... ended a paragraph in ``glmnlp parse -i FILE`` (which reads
    lines, and strips them of every blank character) but not in ``parse TEXT``, ``measures`` or the API, which
    joined the two lines into one sentence: the trees and the surprisals of one file covered different sentences."""
    from glmnlp.text.tokenize import split_sentences

    text = f"the dog barked\n{blank}\nthe cat sat\n"
    assert split_sentences(text) == ["the dog barked", "the cat sat"]
    assert split_sentences(text.replace("\n", "\r")) == ["the dog barked", "the cat sat"]
    assert split_sentences("the dog barked\r\nthe cat sat") == ["the dog barked\r\nthe cat sat"]  # one line end
    (tmp_path / "p.txt").write_text(text, encoding="utf-8")
    capsys.readouterr()
    assert main(["parse", "-q", "-j", "1", "-i", str(tmp_path / "p.txt")]) == 0
    from_file = capsys.readouterr().out
    assert main(["parse", "-q", "-j", "1", text]) == 0
    assert capsys.readouterr().out == from_file and from_file.count("(TOP") == 2
