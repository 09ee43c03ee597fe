"""Token-level readers and writers: exact fixture output, every error with its line, round trips."""

from __future__ import annotations

import io
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from glmnlp.errors import ConfigError, FormatError, InputError, TreeSyntaxError
from glmnlp.treebank.formats import (
    TaggedSentence,
    iter_tagged,
    read_conllu,
    read_tab,
    read_tagged,
    read_tagged_as,
    read_tokens,
    read_word_tag,
    write_conllu,
    write_tab,
    write_word_tag,
)

from strategies import tagged_sentences

TINY = [
    TaggedSentence(("I", "do", "n't", "know", "1/2", "."), ("PRP", "VBP", "RB", "VB", "CD", ".")),
    TaggedSentence(("Yes",), ("UH",)),
]


@pytest.fixture()
def formats_dir(test_data: Path) -> Path:
    """Folder of the token-format fixtures."""
    return test_data / "formats"


# -- fixtures read exactly -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "reader"),
    [
        ("tiny.conllu", read_conllu),
        ("tiny.word_tag", read_word_tag),
        ("tiny.tab", read_tab),
        ("tiny.mrg", read_tagged),
        ("tiny.conllu", read_tagged),
        ("tiny.word_tag", read_tagged),
        ("tiny.tab", read_tagged),
    ],
)
def test_formats_tiny_fixtures_read_exactly(formats_dir: Path, name: str, reader) -> None:
    """Every format of the hand-written fixture yields the same two sentences (ranges, empty nodes, -NONE- skipped)."""
    assert reader(formats_dir / name) == TINY


def test_formats_conllu_upos_column(formats_dir: Path) -> None:
    """column='upos' takes the fourth field instead of XPOS."""
    assert read_conllu(formats_dir / "tiny.conllu", column="upos") == [
        TaggedSentence(TINY[0].words, ("PRON", "AUX", "PART", "VERB", "NUM", "PUNCT")),
        TaggedSentence(("Yes",), ("INTJ",)),
    ]


def test_formats_tokens_fixture(formats_dir: Path) -> None:
    """read_tokens splits on any whitespace, skips blank lines and leaves tags None."""
    expected = [TaggedSentence(TINY[0].words, None), TaggedSentence(("Yes",), None)]
    assert read_tokens(formats_dir / "tiny.tokens") == expected
    assert read_tokens(["I do n't  know 1/2 .", "", "  Yes "]) == expected
    assert read_tokens(io.StringIO("I do n't know 1/2 .\nYes\n")) == expected


def test_formats_ewt_excerpt(formats_dir: Path) -> None:
    """The UD EWT excerpt: 11 sentences, 226 words; the don't range and the 8.1 empty node are skipped."""
    sentences = read_conllu(formats_dir / "ewt_excerpt.conllu")
    assert len(sentences) == 11
    assert sum(len(s) for s in sentences) == 226
    assert sentences[0].words[:4] == ("Al", "-", "Zaman", ":")
    assert sentences[0].tags[:4] == ("NNP", "HYPH", "NNP", ":")
    assert sentences[1].tags[0] == "-LRB-"
    dont = sentences[8]
    assert dont.words[17:21] == ("I", "do", "n't", "find")
    assert dont.tags[17:21] == ("PRP", "VBP", "RB", "VB")
    assert "don't" not in dont.words
    assert sentences[10].words == tuple("Over 300 Iraqis are reported dead and 500 wounded in Fallujah alone .".split())
    assert sentences[10].tags == ("RB", "CD", "NNPS", "VBP", "VBN", "JJ", "CC", "CD", "JJ", "IN", "NNP", "RB", ".")


def test_formats_stream_and_path_agree(formats_dir: Path) -> None:
    """Readers accept str paths, Path objects and text streams alike."""
    path = formats_dir / "tiny.conllu"
    with path.open(encoding="utf-8") as stream:
        assert read_conllu(stream) == read_conllu(str(path)) == read_conllu(path) == TINY


def test_formats_word_tag_splits_on_last_separator() -> None:
    """'a/b/CD' is the word 'a/b'; a custom separator works the same way."""
    assert read_word_tag(io.StringIO("1/2/CD x/NN\n")) == [TaggedSentence(("1/2", "x"), ("CD", "NN"))]
    assert read_word_tag(io.StringIO("a/b_NN c_VB\n"), sep="_") == [TaggedSentence(("a/b", "c"), ("NN", "VB"))]


def test_formats_writers_exact_text() -> None:
    """The writers' exact output on the hand-written sentences."""
    assert write_word_tag(TINY) == "I/PRP do/VBP n't/RB know/VB 1/2/CD ./.\nYes/UH\n"
    assert write_tab(TINY[1:]) == "Yes\tUH\n\n"
    assert write_conllu(TINY[1:]) == "1\tYes\t_\t_\tUH\t_\t_\t_\t_\t_\n\n"
    assert write_conllu([TaggedSentence(("a", "b"), None)]) == (
        "1\ta\t_\t_\t_\t_\t_\t_\t_\t_\n2\tb\t_\t_\t_\t_\t_\t_\t_\t_\n\n"
    )


def test_formats_conllu_sent_id_and_text_lines() -> None:
    """With ``first_id`` each sentence opens with the ``# sent_id`` and ``# text`` lines UD's validator requires,
    numbered on from it; a text given for the ``# text`` line must be one non-empty line, or the file would not read
    back (a line break in it started a token line)."""
    two = [TaggedSentence(("a", "b"), ("DT", "NN")), TaggedSentence(("c",), ("NN",))]
    out = write_conllu(two, first_id=7, texts=["ab", "c"])
    assert out.split("\n")[:2] == ["# sent_id = 7", "# text = ab"]
    assert "# sent_id = 8\n# text = c\n1\tc\t" in out
    assert read_conllu(io.StringIO(out)) == two
    assert write_conllu(two[:1], first_id=1).startswith("# sent_id = 1\n# text = a b\n1\ta\t")
    assert read_conllu(io.StringIO(write_conllu(two, first_id=1, texts=["a\u2028b", "c"]))) == two  # no line end
    for bad in ("a\nb", "a\rb", ""):
        with pytest.raises(FormatError, match="text is empty or holds a line break") as info:
            write_conllu(two, first_id=1, texts=["ab", bad])
        assert info.value.line == 2
    with pytest.raises(FormatError, match="no text for this sentence"):
        write_conllu(two, first_id=1, texts=["ab"])
    with pytest.raises(ValueError, match="need first_id"):
        write_conllu(two, texts=["ab", "c"])



def test_formats_conllu_words_may_hold_spaces_but_no_tab_or_line_break() -> None:
    """UD's FORM may hold a space ("New York" as one token): such a file read and written back failed ('contains
    whitespace'); a tab or a line break, which would split the line, is still refused, and word/TAG keeps refusing
    any whitespace (its tokens are split on it)."""
    spaced = [TaggedSentence(("New York", "sleeps"), ("NNP", "VBZ"))]
    assert read_conllu(io.StringIO(write_conllu(spaced))) == spaced
    for word in ("a\tb", "a\nb", "a\rb"):
        with pytest.raises(FormatError, match="contains a tab or a line break"):
            write_conllu([TaggedSentence((word,), ("NN",))])
    # not a line end to any reader (glmnlp.treebank.fileio, "Line ends"): a file with one was read, and tagging it
    # failed at the output ("contains a tab or a line break", nothing written)
    odd = [TaggedSentence(("a\u2028b", "a\x85", "c\x0cd", "e\x0bf"), ("NN", "NN", "NN", "NN"))]
    assert read_conllu(io.StringIO(write_conllu(odd, first_id=1))) == odd
    with pytest.raises(FormatError, match="contains whitespace"):
        write_word_tag(spaced)

# -- errors with their lines -----------------------------------------------------------------

_W = "\t".join(["1", "dog", "dog", "NOUN", "NN", "_", "0", "root", "_", "_"])
_W2 = "\t".join(["2", "runs", "run", "VERB", "VBZ", "_", "1", "dep", "_", "_"])


_NBSP_TAG = "N\u00a0N"


def _conllu_line(*fields: str) -> str:
    return "\t".join(fields)


@pytest.mark.parametrize(
    ("text", "line", "fragment"),
    [
        (f"# c\n{_W}\n1\tx\tx\tX\n", 3, "expected 10 tab-separated fields, found 4"),
        (f"{_W}\n{_W}\n", 2, "word ID 1 out of sequence (expected 2)"),
        (f"{_W2}\n", 1, "word ID 2 out of sequence (expected 1)"),
        (f"{_W}\n\n{_conllu_line('1', '', '_', 'X', 'NN', '_', '0', 'r', '_', '_')}\n", 3, "empty FORM"),
        (f"{_W}\n{_conllu_line('2', 'x', '_', 'X', '_', '_', '0', 'r', '_', '_')}\n", 2, "no XPOS tag ('_')"),
        (f"{_W}\n{_conllu_line('2', 'x', '_', 'X', '', '_', '0', 'r', '_', '_')}\n", 2, "empty XPOS"),
        # a FORM of only spaces is empty (the tab reader's "empty word"); a tag with a space trained a tag of its own
        # ("NN " beside "NN") that no output could then write
        (f"{_W}\n{_conllu_line('2', ' ', '_', 'X', 'NN', '_', '0', 'r', '_', '_')}\n", 2, "empty FORM"),
        (f"{_W}\n{_conllu_line('2', 'x', '_', 'X', 'NN ', '_', '0', 'r', '_', '_')}\n", 2,
         "XPOS tag 'NN ' contains whitespace"),
        (f"{_W}\n{_conllu_line('2', 'x', '_', 'X', _NBSP_TAG, '_', '0', 'r', '_', '_')}\n", 2, "contains whitespace"),
        (f"{_W}\n# late comment\n{_W2}\n", 2, "comment line after the word lines"),
        (f"{_W}\n\n# only a comment\n\n{_W}\n", 3, "comment lines but no word lines"),
        (f"{_W}\n{_conllu_line('x1', *['_'] * 9)}\n", 2, "bad word ID 'x1'"),
        (f"{_W}\n{_conllu_line('0', *['_'] * 9)}\n", 2, "bad word ID '0'"),
        (f"{_W}\n{_conllu_line('3-2', *['_'] * 9)}\n", 2, "empty or reversed"),
        (f"{_W}\n{_conllu_line('3-4', *['_'] * 9)}\n", 2, "does not start at the next word"),
        (f"{_W}\n{_conllu_line('1.', *['_'] * 9)}\n", 2, "bad word ID"),
        # a range's words must all follow: before the blank line, the end of the file, the next range
        (f"{_W}\n{_conllu_line('2-4', *['_'] * 9)}\n{_W2}\n\n{_W}\n", 2,
         "range 2-4 is followed by its words up to 2 only"),
        (f"{_W}\n{_conllu_line('2-3', *['_'] * 9)}\n{_W2}\n", 2, "range 2-3 is followed by its words up to 2 only"),
        (f"{_conllu_line('1-2', *['_'] * 9)}\n{_W}\n{_conllu_line('2-3', *['_'] * 9)}\n", 1,
         "range 1-2 is followed by its words up to 1 only"),
    ],
)
def test_formats_conllu_errors(text: str, line: int, fragment: str) -> None:
    """Each malformed CoNLL-U input raises FormatError with the file, the line and the reason."""
    with pytest.raises(FormatError) as info:
        read_conllu(io.StringIO(text))
    assert info.value.line == line
    assert fragment in info.value.reason
    assert str(info.value).startswith(f"<stream>:{line}: ")


def test_formats_conllu_upos_underscore_is_error() -> None:
    """'_' in UPOS is an error when UPOS is requested, though XPOS is present."""
    text = f"{_W}\n{_conllu_line('2', 'x', '_', '_', 'NN', '_', '0', 'r', '_', '_')}\n"
    assert read_conllu(io.StringIO(text))[0].tags == ("NN", "NN")
    with pytest.raises(FormatError) as info:
        read_conllu(io.StringIO(text), column="upos")
    assert info.value.line == 2 and "no UPOS tag" in info.value.reason


def test_formats_conllu_blank_lines_and_missing_final_blank() -> None:
    """Runs of blank lines separate once; end of file closes the last sentence; CRLF is accepted."""
    text = f"\n{_W}\n\n\n\n{_W}\r\n{_W2}\r\n"
    assert read_conllu(io.StringIO(text)) == [
        TaggedSentence(("dog",), ("NN",)),
        TaggedSentence(("dog", "runs"), ("NN", "VBZ")),
    ]


@pytest.mark.parametrize(
    ("text", "line", "fragment"),
    [
        ("a/DT b/NN\nc/DT dog\n", 2, "token 2 'dog' has no /TAG"),
        ("a/DT\n\n/NN\n", 3, "empty word"),
        ("a/DT b/\n", 1, "empty tag"),
    ],
)
def test_formats_word_tag_errors(text: str, line: int, fragment: str) -> None:
    """Each malformed word/TAG line raises FormatError with its line."""
    with pytest.raises(FormatError) as info:
        read_word_tag(io.StringIO(text))
    assert info.value.line == line
    assert fragment in info.value.reason


@pytest.mark.parametrize(
    ("text", "line", "fragment"),
    [
        ("a\tDT\nb\tNN\tX\n", 2, "found 3"),
        ("a\tDT\n\nb\n", 3, "found 1"),
        ("a\tDT\n\tNN\n", 2, "empty word"),
        ("a\tDT\nb\t \n", 2, "empty tag"),
        ("a b\tNN\n", 1, "contains whitespace"),
    ],
)
def test_formats_tab_errors(text: str, line: int, fragment: str) -> None:
    """Each malformed word<TAB>tag line raises FormatError with its line."""
    with pytest.raises(FormatError) as info:
        read_tab(io.StringIO(text))
    assert info.value.line == line
    assert fragment in info.value.reason


def test_formats_error_names_the_file(tmp_path: Path) -> None:
    """A reader given a path reports that path; undecodable bytes report their line."""
    bad = tmp_path / "bad.word_tag"
    bad.write_text("a/DT\nb\n", encoding="utf-8")
    with pytest.raises(FormatError) as info:
        read_word_tag(bad)
    assert str(info.value) == f"{bad}:2: token 1 'b' has no /TAG"
    latin = tmp_path / "latin.tab"
    latin.write_bytes(b"a\tDT\ncaf\xe9\tNN\n")
    with pytest.raises(InputError) as info:  # an encoding, not a format: the InputError of every reader
        read_tab(latin)
    assert info.value.line == 2 and info.value.reason == "not valid UTF-8 text (byte 0xe9 at column 4)"
    assert type(info.value) is InputError
    with pytest.raises(InputError, match="cannot read file") as missing:  # a missing file is no malformed format
        read_tab(tmp_path / "missing.tab")
    assert type(missing.value) is InputError


def test_formats_read_tagged_detection_and_errors(tmp_path: Path) -> None:
    """auto picks the format from suffix or content; undetectable or malformed trees are errors."""
    assert read_tagged(io.StringIO("\n(S (NN x) (-NONE- *))\n")) == [TaggedSentence(("x",), ("NN",))]
    assert read_tagged(io.StringIO("x\tNN\n")) == [TaggedSentence(("x",), ("NN",))]
    assert read_tagged(io.StringIO("x/NN y/VB\n")) == [TaggedSentence(("x", "y"), ("NN", "VB"))]
    assert read_tagged(io.StringIO(f"{_W}\n")) == [TaggedSentence(("dog",), ("NN",))]
    with pytest.raises(FormatError) as info:
        read_tagged(io.StringIO("\n\nplain words here\n"))
    assert info.value.line == 3 and "cannot tell the format" in info.value.reason
    with pytest.raises(FormatError, match="empty input"):
        read_tagged(io.StringIO("\n"))
    trees_file = tmp_path / "x.trees"
    trees_file.write_text("(S (NN x)\n", encoding="utf-8")
    with pytest.raises(TreeSyntaxError) as tree_info:
        read_tagged(trees_file)
    assert tree_info.value.source == str(trees_file) and tree_info.value.line == 1
    with pytest.raises(FormatError, match="no words besides empty elements") as info:
        read_tagged(io.StringIO("(S (NN x))\n(S (-NONE- *))\n"), fmt="trees")
    assert info.value.line == 2  # where the tree opens
    # an explicit format overrides sniffing: this word/TAG-looking line is read as tab and fails
    with pytest.raises(FormatError) as info:
        read_tagged(io.StringIO("x/NN\n"), fmt="tab")
    assert info.value.line == 1


@pytest.mark.parametrize(
    ("writer", "sentences", "fragment"),
    [
        (write_word_tag, [TINY[0], TaggedSentence(("a",), None)], "no tags"),
        (write_word_tag, [TaggedSentence(("a b",), ("NN",))], "contains whitespace"),
        (write_word_tag, [TaggedSentence(("a",), ("N/N",))], "contains the separator"),
        (write_word_tag, [TaggedSentence((), ())], "no words"),
        (write_tab, [TaggedSentence(("a",), ("",))], "is empty"),
        (write_conllu, [TaggedSentence(("a",), ("_",))], "reads as no tag"),
        (write_conllu, [TaggedSentence(("a\tb",), ("NN",))], "contains a tab or a line break"),
    ],
)
def test_formats_writers_refuse_unreadable_output(writer, sentences, fragment: str) -> None:
    """Writers raise FormatError (line = sentence number) instead of writing what cannot be read back."""
    with pytest.raises(FormatError) as info:
        writer(sentences)
    assert fragment in info.value.reason
    assert info.value.line == len(sentences)


def test_formats_tagged_sentence_checks_lengths() -> None:
    """A TaggedSentence with a different number of tags and words cannot be built."""
    with pytest.raises(ValueError, match="2 words but 1 tags"):
        TaggedSentence(("a", "b"), ("NN",))


# -- round trips -----------------------------------------------------------------------------


@given(st.lists(tagged_sentences(), max_size=6))
def test_formats_round_trip_all_writers(sentences: list[TaggedSentence]) -> None:
    """read(write(s)) == s for word/TAG, tab and CoNLL-U, and read_tagged sniffs each correctly."""
    for writer, reader in ((write_word_tag, read_word_tag), (write_tab, read_tab), (write_conllu, read_conllu)):
        text = writer(sentences)
        assert reader(io.StringIO(text)) == sentences
        if sentences:
            assert read_tagged(io.StringIO(text)) == sentences


@given(st.lists(tagged_sentences(), min_size=1, max_size=6))
def test_formats_conllu_upos_round_trip_and_read_tagged_as(sentences: list[TaggedSentence]) -> None:
    """write_conllu(column="upos") puts the tags where read_conllu(column="upos") finds them and leaves XPOS ``_``;
    read_tagged_as reads that column of CoNLL-U, any other format as it is, and says which format it read."""
    text = write_conllu(sentences, "upos")
    assert read_conllu(io.StringIO(text), column="upos") == sentences
    assert {line.split("\t")[4] for line in text.splitlines() if line} == {"_"}
    assert read_tagged_as(io.StringIO(text), conllu_column="upos") == (sentences, "conllu")
    assert read_tagged_as(io.StringIO(write_tab(sentences)), conllu_column="upos") == (sentences, "tab")
    with pytest.raises(ConfigError, match="column"):  # an invalid option (docs/api.md)
        write_conllu(sentences, "feats")  # type: ignore[arg-type]


@given(st.lists(tagged_sentences(tagged=False), max_size=6))
def test_formats_round_trip_tokens(sentences: list[TaggedSentence]) -> None:
    """Untagged sentences written one per line read back with read_tokens."""
    text = "".join(" ".join(s.words) + "\n" for s in sentences)
    assert read_tokens(io.StringIO(text)) == sentences


@pytest.mark.parametrize(
    ("text", "fmt"),
    [
        ("(/-LRB- a/DT )/-RRB-\n", "word_tag"),
        ("#/NN x/VB\n", "word_tag"),
        ("#\tNN\n", "tab"),
        (f"# sent_id = 1\n# text = dog\n{_W}\n", "conllu"),
        ("( (S \n    (NN x) ))\n", "trees"),
        ("(TOP (S (NN 1/2)))\n", "trees"),
    ],
)
def test_formats_detect_format_ambiguous_first_lines(text: str, fmt: str) -> None:
    """Lines that start like another format are classified by the full rule, not by their first character."""
    from glmnlp.treebank.formats import detect_format

    assert detect_format(text.splitlines()) == fmt


def test_formats_read_tagged_column(formats_dir: Path) -> None:
    """read_tagged reads a CoNLL-U file's UPOS column when asked (it took XPOS always), refuses the request for a
    format with one tag per word, and with ``column=None`` reads the words of a file with no tags at all."""
    upos = read_tagged(formats_dir / "tiny.conllu", column="upos")
    assert upos == read_conllu(formats_dir / "tiny.conllu", column="upos")
    assert read_tagged(formats_dir / "tiny.conllu") == TINY
    for name in ("tiny.word_tag", "tiny.tab", "tiny.mrg"):
        with pytest.raises(FormatError, match="UPOS column was asked for"):
            read_tagged(formats_dir / name, column="upos")
    untagged = f"{_conllu_line('1', 'Yes', '_', '_', '_', '_', '0', 'root', '_', '_')}\n"
    with pytest.raises(FormatError, match="no XPOS tag"):
        read_tagged(io.StringIO(untagged), "conllu")
    assert read_tagged(io.StringIO(untagged), "conllu", None) == [TaggedSentence(("Yes",), None)]
    assert read_tagged(formats_dir / "tiny.word_tag", column=None) == TINY  # other formats keep their tags


@pytest.mark.parametrize(
    ("fmt", "text", "lines_of_first"),
    [
        ("conllu", "# id = 1\n1\tcats\t_\t_\tNNS\t_\t_\t_\t_\t_\n\n1\tdogs\t_\t_\tNNS\t_\t_\t_\t_\t_\n", 3),
        ("tab", "cats\tNNS\n\ndogs\tNNS\n", 2),
        ("word_tag", "cats/NNS\ndogs/NNS\n", 1),
        ("trees", "(S (NP\n  (NNS cats)))\n(S (NNS dogs))\n", 2),  # a tree once its closing bracket is read
    ],
)
@pytest.mark.parametrize("given", ["auto", "explicit"])
def test_formats_iter_tagged_yields_a_sentence_before_reading_on(fmt: str, text: str, lines_of_first: int,
                                                                given: str) -> None:
    """iter_tagged (what glmnlp tag streams with) gives each sentence once its own lines are read, the format
    decided by the first lines alone under "auto", and over the whole input what read_tagged gives."""
    lines = text.splitlines()
    read: list[str] = []

    def source() -> Iterator[str]:
        for line in lines:
            read.append(line)
            yield line

    sentences = iter_tagged(source(), "auto" if given == "auto" else fmt)  # type: ignore[arg-type]
    assert next(sentences) == TaggedSentence(("cats",), ("NNS",))
    assert len(read) == lines_of_first
    assert [next(sentences)] + list(sentences) == [TaggedSentence(("dogs",), ("NNS",))]
    assert read_tagged(io.StringIO(text)) == [TaggedSentence(("cats",), ("NNS",)), TaggedSentence(("dogs",), ("NNS",))]


def test_formats_iter_tagged_refuses_a_bad_request_at_the_call() -> None:
    """A format or column iter_tagged does not know is a ConfigError when it is called, before a line is read (a
    generator would raise it only at the first sentence asked for)."""
    def never() -> Iterator[str]:
        raise AssertionError("a line was read")
        yield ""

    with pytest.raises(ConfigError, match="unknown format"):
        iter_tagged(never(), "csv")  # type: ignore[arg-type]
    with pytest.raises(ConfigError, match="column must be"):
        iter_tagged(never(), "conllu", "lemma")  # type: ignore[arg-type]


def test_formats_read_tagged_refuses_a_bad_request_before_reading_the_file(tmp_path: Path) -> None:
    """read_tagged checks the format and column before it reads the file: a bad request is refused even when the
    file is missing (it was the missing file's InputError, the file being read first); a ConfigError, as docs/api.md
    says an invalid option is."""
    with pytest.raises(ConfigError, match="unknown format"):
        read_tagged(tmp_path / "missing.txt", "csv")  # type: ignore[arg-type]
    with pytest.raises(ConfigError, match="column must be"):
        read_tagged(tmp_path / "missing.txt", "conllu", "lemma")  # type: ignore[arg-type]


def test_writers_refuse_a_word_beginning_a_line_with_a_byte_order_mark() -> None:
    """Word/TAG and tab lines wrote a first word beginning with U+FEFF, which the readers skip at a line's start
    (``\\ufeffx`` read back as ``x``): refused now; elsewhere in a line, and in CoNLL-U, it reads back."""
    bom = TaggedSentence(("\ufeffx", "y"), ("NN", "NN"))
    for write in (write_word_tag, write_tab):
        with pytest.raises(FormatError, match="begins with U\\+FEFF"):
            write([bom])
    later = TaggedSentence(("x", "\ufeffy"), ("NN", "NN"))
    assert read_word_tag(io.StringIO(write_word_tag([later]))) == [later]
    assert read_conllu(io.StringIO(write_conllu([bom]))) == [bom]


def test_auto_reads_the_suffixes_glmnlp_data_writes(tmp_path) -> None:
    """``glmnlp data --tagged`` writes SPLIT.word_tag and SPLIT.tab, which ``auto`` judged by content only: a bad
    first line was "cannot tell the format" instead of the format's own message."""
    from glmnlp.treebank.formats import read_tagged

    bad = tmp_path / "x.word_tag"
    bad.write_text("word_without_tag other/NN\n", encoding="utf-8")
    with pytest.raises(FormatError, match="x.word_tag:1: token 1 'word_without_tag' has no /TAG"):
        read_tagged(bad)
    trailing = tmp_path / "x.tab"
    trailing.write_text("The\tDT\t\ndog\tNN\n\n", encoding="utf-8")
    with pytest.raises(FormatError, match="x.tab:1: expected 2 tab-separated fields"):
        read_tagged(trailing)
    conllu = tmp_path / "conllu_named.tab"  # a name that only hints: the content decides where it can
    conllu.write_text("1\tdog\t_\tNOUN\tNN\t_\t_\t_\t_\t_\n\n", encoding="utf-8")
    assert read_tagged(conllu) == [TaggedSentence(("dog",), ("NN",))]


def test_named_format_is_every_suffix_format_by_suffix_the_deciding_ones() -> None:
    """One table of suffixes: ``named_format`` (what ``glmnlp tag``, ``parse`` and ``measures`` warn of) names the
    ``.word_tag`` and ``.tab`` files ``glmnlp data`` writes as ``.conllu`` and ``.trees``; ``format_by_suffix`` leaves
    those two to the content, as ``auto`` reads them."""
    from glmnlp.treebank.formats import format_by_suffix, named_format

    names = {"a.conllu": "conllu", "a.CONLL": "conllu", "a.mrg": "trees", "a.tree": "trees", "a.trees": "trees",
             "a.word_tag": "word_tag", "a.tab": "tab", "a.txt": "auto", "-": "auto"}
    assert {name: named_format(name) for name in names} == names
    assert {name: format_by_suffix(name) for name in names} == {
        name: "auto" if fmt in ("word_tag", "tab") else fmt for name, fmt in names.items()}
    assert named_format(io.StringIO("x")) == "auto"


def test_a_file_of_plain_tokens_is_said_to_have_no_tags() -> None:
    """Plain tokens given where tagged text is read said "cannot tell the format ...; pass it explicitly", which sent
    users to an option no format could satisfy: such a line is said to have no tags; another unknown line says how
    to name the format."""
    with pytest.raises(FormatError) as info:
        list(iter_tagged(["Genetics is fun ."], name="tok.txt"))
    assert info.value.reason.endswith("; this line has no tags (plain tokens)")
    with pytest.raises(FormatError) as info:
        list(iter_tagged(["Genetics/NN is VBZ"], name="tok.txt"))
    assert info.value.reason.endswith("; name its format") and info.value.line == 1


class _FailingStream(io.TextIOBase):
    """An open text file whose reads fail as a disk's bad sector or a pipe's lost device makes them fail (EIO)."""

    def __init__(self, name: str) -> None:
        self.name = name

    def readable(self) -> bool:
        return True

    def read(self, size: int | None = -1) -> str:
        import errno

        raise OSError(errno.EIO, "Input/output error")

    def readline(self, size: int | None = -1) -> str:
        return self.read()


@pytest.mark.parametrize("name", ["bad.word_tag", "<stdin>"])
def test_formats_an_open_stream_that_cannot_be_read_is_a_paths_input_error(name: str) -> None:
    """``read_tagged`` of an open file whose read fails (EIO) said ``FormatError: bad.word_tag: cannot read: ...``, as
    if its lines were malformed, and ``iter_tagged`` gave a bare ``OSError``, where the same failure on a path
    (``/proc/self/mem``) is ``InputError: PATH: cannot read file: Input/output error``. Each is a path's error now,
    naming the stream."""
    with pytest.raises(InputError) as path_error:
        read_tagged("/proc/self/mem")
    assert type(path_error.value) is InputError and path_error.value.reason == "cannot read file: Input/output error"
    for reader in (read_tagged, read_conllu, read_word_tag, read_tab, read_tokens,
                   lambda s: list(iter_tagged(s, "word_tag"))):
        with pytest.raises(InputError) as caught:
            reader(_FailingStream(name))
        assert type(caught.value) is InputError and str(caught.value) == f"{name}: {path_error.value.reason}"
