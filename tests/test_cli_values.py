"""Option values and input checks shared by the commands: number options refuse NaN (and values outside
their range) as usage errors, ``glmnlp tag`` refuses input as ``glmnlp parse`` does, ``tagger evaluate``
refuses an empty test file."""

from __future__ import annotations

import io
import math
import sys
from pathlib import Path

import click
import pytest

from glmnlp.cli import cli, main
from glmnlp.cli._params import NumberRange
from glmnlp.text.default_model import default_model_path
from toy_trees import TINY


def _run(capsys: pytest.CaptureFixture[str], argv: list[str]) -> tuple[int, str, str]:
    capsys.readouterr()
    rc = main(argv)
    out, err = capsys.readouterr()
    return rc, out, err


def _stdin(monkeypatch: pytest.MonkeyPatch, data: bytes) -> None:
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data), encoding="utf-8"))


BAD_NUMBERS = [
    (["measures", "--tag-margin", "nan"], "'nan' is not a number"),
    (["measures", "--tag-margin", "-1"], "not in the range"),
    (["measures", "--gamma", "-1"], "not in the range 0<=x<=1e+300"),
    (["measures", "--gamma", "nan"], "'nan' is not a number"),
    (["measures", "--gamma", "inf"], "'inf' is not a finite number"),
    (["measures", "--gamma", "1e301"], "not in the range 0<=x<=1e+300"),
    (["measures", "--cap", "-5"], "not in the range 0<=x<=1000000"),
    (["measures", "--cap", "1000001"], "not in the range 0<=x<=1000000"),
    (["measures", "--sentence", "0"], "not in the range x>=1"),
    (["parse", "--multitag", "nan"], "'nan' is not a number"),
    (["parse", "--multitag", "NaN"], "'NaN' is not a number"),
    (["parse", "--gamma", "nan"], "'nan' is not a number"),
    (["parse", "--gamma", "inf"], "'inf' is not a finite number"),
    (["parse", "--gamma", "1e301"], "not in the range 0<=x<=1e+300"),
    (["parse", "--cap", "1000001"], "not in the range 0<=x<=1000000"),
]


@pytest.mark.parametrize(("argv", "message"), BAD_NUMBERS, ids=[" ".join(a) for a, _ in BAD_NUMBERS])
def test_cli_bad_numbers_are_usage_errors(capsys: pytest.CaptureFixture[str], argv: list[str], message: str) -> None:
    """NaN, infinity where it has no meaning and values outside an option's range: status 2, nothing analysed."""
    rc, out, err = _run(capsys, [*argv, "A dog."])
    assert (rc, out) == (2, "")
    assert f"Invalid value for '{argv[1]}'" in err and message in err


def test_cli_tagger_evaluate_margin_nan_is_a_usage_error(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """tagger evaluate --margin nan used to report 'margin nan: 0.000 tags/word'; now a usage error."""
    test = tmp_path / "one.trees"
    test.write_text("(TOP (S (NP (DT the) (NN dog)) (VP (VBD barked)) (. .)))\n", encoding="utf-8")
    model = str(default_model_path() / "tagger")
    rc, out, err = _run(capsys, ["tagger", "evaluate", "--model", model, "--test", str(test), "--margin", "nan"])
    assert (rc, out) == (2, "") and "'nan' is not a number" in err
    rc, out, _ = _run(capsys, ["tagger", "evaluate", "--model", model, "--test", str(test), "--margin", "inf"])
    assert rc == 0 and "margin inf:" in out  # an infinite margin keeps every tag


def test_number_range_refuses_nan_and_infinity_unless_allowed() -> None:
    """NumberRange: a click.FloatRange that never passes NaN, and infinity only with infinite=True."""
    margin, beam = NumberRange(min=0, infinite=True), NumberRange(min=0, max=1e300)
    assert margin.convert("inf", None, None) == math.inf and margin.convert("2.5", None, None) == 2.5
    assert beam.convert("1e300", None, None) == 1e300
    for kind, text in ((margin, "nan"), (margin, "-inf"), (margin, "-1"), (beam, "inf"), (beam, "1e999"),
                       (beam, "nan"), (beam, "x")):
        with pytest.raises(click.BadParameter):
            kind.convert(text, None, None)


def _float_options() -> list[tuple[str, str]]:
    out = []

    def walk(group: click.Group, prefix: str) -> None:
        for name, command in sorted(group.commands.items()):
            if isinstance(command, click.Group):
                walk(command, f"{prefix}{name} ")
                continue
            for param in command.params:
                if isinstance(param.type, click.types.FloatParamType):
                    out.append((f"{prefix}{name}", param.opts[0]))

    walk(cli, "")
    return out


@pytest.mark.parametrize(("command", "option"), _float_options(), ids=lambda x: x)
def test_cli_every_float_option_refuses_nan(command: str, option: str) -> None:
    """Every float option of every command takes NumberRange, so `nan` is refused where it is typed."""
    group: click.Command = cli
    for name in command.split():
        group = group.commands[name]  # type: ignore[attr-defined]
    param = next(p for p in group.params if p.opts[0] == option)
    assert isinstance(param.type, NumberRange)
    with pytest.raises(click.BadParameter, match="not a number"):
        param.type.convert("nan", param, None)


def test_cli_tag_refuses_binary_and_empty_input_as_parse_does(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """A NUL byte used to be printed as part of a token, empty input gave no output and status 0."""
    _stdin(monkeypatch, b"The c\x00at sat .\n")
    rc, out, err = _run(capsys, ["tag"])
    assert (rc, out, err) == (1, "", "error: <stdin>:1: binary data (NUL byte); expected UTF-8 text\n")
    _stdin(monkeypatch, b"")
    rc, out, err = _run(capsys, ["tag"])
    assert (rc, out, err) == (1, "", "error: <stdin>: empty input: nothing to tag\n")
    blank = tmp_path / "blank.txt"
    blank.write_bytes(b"\n  \n")
    rc, out, err = _run(capsys, ["tag", str(blank)])
    assert (rc, out, err) == (1, "", f"error: {blank}: empty input: nothing to tag\n")
    binary = tmp_path / "nul.trees"
    binary.write_bytes(b"(TOP (S (NN a\x00b)))\n")
    rc, out, err = _run(capsys, ["tag", "--input-format", "trees", str(binary)])
    assert (rc, out, err) == (1, "", f"error: {binary}:1: binary data (NUL byte); expected UTF-8 text\n")
    _stdin(monkeypatch, b"caf\xe9 .\n")
    rc, out, err = _run(capsys, ["tag"])
    assert (rc, out) == (1, "") and err.startswith("error: <stdin>:1: not valid UTF-8 text")
    _stdin(monkeypatch, b"(TOP (S (NP (DT The) (NN cat)) (VP (VBD sat)) (. .)))\n")
    rc, out, _ = _run(capsys, ["tag", "--input-format", "auto"])
    assert rc == 0 and [token.rpartition("/")[0] for token in out.split()] == ["The", "cat", "sat", "."]


def test_cli_tag_reads_tags_and_writes_a_chunk_at_a_time(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """glmnlp tag tagged its whole input in one batch, whose arrays took memory in proportion to the input (peak
    RSS 204 MB for 1,000 sentences, 477 MB for 9,000); it reads, tags and writes TAG_CHUNK sentences at a time, with
    the same output, and a sentence the writer refuses is still numbered in the whole output."""
    from glmnlp.cli import tagger_cmd
    from glmnlp.tagger.model import Tagger

    text = "".join(f"The cat number {k} sat .\n\n" for k in range(5)).encode()
    _stdin(monkeypatch, text)
    rc, whole, _ = _run(capsys, ["tag"])
    assert rc == 0 and len(whole.splitlines()) == 5
    sizes: list[int] = []
    tag_sentences = Tagger.tag_sentences

    def counted(self: Tagger, sentences: list[list[str]]) -> list[list[str]]:
        sizes.append(len(sentences))
        return tag_sentences(self, sentences)

    monkeypatch.setattr(Tagger, "tag_sentences", counted)
    _stdin(monkeypatch, text)
    assert _run(capsys, ["tag"])[:2] == (0, whole)
    assert sizes == [5] and tagger_cmd.TAG_CHUNK == 500  # the default --batch-size
    sizes.clear()
    _stdin(monkeypatch, text)
    assert _run(capsys, ["tag", "--batch-size", "2"])[:2] == (0, whole)
    assert sizes == [2, 2, 1]
    conllu = tmp_path / "in.conllu"
    conllu.write_text("".join(f"1\t{w}\t_\t_\tNN\t_\t_\t_\t_\t_\n\n" for w in ("cats", "dogs", "New York")))
    # CoNLL-U output holds a spaced FORM as UD does; word/TAG output cannot, and names the sentence in the whole output
    assert _run(capsys, ["tag", "--input-format", "conllu", "--output-format", "conllu", str(conllu)])[0] == 0
    rc, out, err = _run(capsys, ["tag", "--input-format", "conllu", "--output-format", "word_tag", str(conllu)])
    assert (rc, out.split(), err) == (1, ["cats/NNS", "dogs/NNS"], "error: <output>:3: word 1 ('New York') contains "
                                      "whitespace: word/TAG lines cannot hold it (--output-format conllu can)\n")

def test_cli_tag_reads_its_file_with_i_as_parse_and_measures_do(capsys: pytest.CaptureFixture[str],
                                                                  tmp_path: Path) -> None:
    """``glmnlp tag -i FILE`` was "No such option: -i", where parse and measures take it: the same as INPUT."""
    source = tmp_path / "in.txt"
    source.write_text("The cat sat .\n", encoding="utf-8")
    rc, out, _err = _run(capsys, ["tag", "-i", str(source)])
    assert rc == 0 and out == _run(capsys, ["tag", "--input", str(source)])[1] == _run(capsys, ["tag", str(source)])[1]
    for given in (str(source), "-"):  # an explicit '-' too, which is INPUT's default
        rc, _out, err = _run(capsys, ["tag", given, "-i", str(source)])
        assert rc == 2 and "give INPUT or -i/--input FILE, not both" in err


def test_cli_tag_answers_each_sentence_of_a_pipe_with_batch_size_1() -> None:
    """A program that writes a sentence to ``glmnlp tag`` and waits for its tags waited for ever: the command tagged
    500 sentences at a time and wrote them into a pipe's buffer. With ``--batch-size 1`` each is answered at once."""
    from conftest import coprocess

    with coprocess("tag", "--batch-size", "1") as proc:
        assert proc.stdin is not None and proc.stdout is not None
        answers = []
        for line in ("The dog barked .", "A cat sat ."):
            proc.stdin.write(line + "\n")
            proc.stdin.flush()
            answers.append(proc.stdout.readline())
            assert answers[-1], "no tags before the next sentence (the watchdog ended the command)"
        proc.stdin.close()
        proc.wait(timeout=60)
    assert proc.returncode == 0 and answers == ["The/DT dog/NN barked/VBD ./.\n", "A/DT cat/NN sat/NN ./.\n"]


def test_cli_tag_warns_when_a_file_named_as_a_format_is_read_as_tokens(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """``glmnlp tag file.conllu`` read it as tokens (the default) and tagged its comment lines as words
    (``#/# newdoc/JJ``), silently: it still does as asked, and says so; ``--input-format auto`` reads CoNLL-U."""
    conllu = tmp_path / "in.conllu"
    conllu.write_text("# sent_id = 1\n1\tdogs\t_\t_\tNNS\t_\t_\t_\t_\t_\n\n")
    rc, out, err = _run(capsys, ["tag", str(conllu)])
    assert rc == 0 and out.startswith("#/") and err == (
        f"warning: {conllu} is read as one tokenised sentence a line (--input-format tokens, the default), though "
        "its name says conllu: --input-format auto reads it as that\n")
    assert _run(capsys, ["tag", "--input-format", "auto", str(conllu)]) == (0, "dogs/NNS\n", "")
    plain = tmp_path / "in.txt"
    plain.write_text("dogs bark .\n")
    assert _run(capsys, ["tag", str(plain)])[2] == ""


@pytest.mark.parametrize(("name", "text", "fmt"), [("dev.word_tag", "Savin/NNP Co./NNP\n", "word_tag"),
                                                   ("dev.tab", "Savin\tNNP\nCo.\tNNP\n\n", "tab")])
def test_cli_tag_warns_of_the_files_glmnlp_data_writes_read_as_tokens(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, name: str, text: str, fmt: str
) -> None:
    """``.word_tag`` and ``.tab``, the files ``glmnlp data --tagged`` writes, name a format as ``.conllu`` does: read
    as tokens, ``Savin/NNP`` was tagged as one word (``Savin/NNP/NNP``) without a warning."""
    path = tmp_path / name
    path.write_text(text)
    rc, _, err = _run(capsys, ["tag", str(path)])
    assert rc == 0 and err == (
        f"warning: {path} is read as one tokenised sentence a line (--input-format tokens, the default), though "
        f"its name says {fmt}: --input-format auto reads it as that\n")
    rc, out, err = _run(capsys, ["tag", "--input-format", "auto", str(path)])
    assert (rc, out.split(), err) == (0, ["Savin/NNP", "Co./NNP"], "")
    # those two suffixes leave the format to the content: a file of plain tokens is read as asked, without a warning
    # (it was warned of as tab, which --input-format auto then refused: "cannot tell the format")
    path.write_text("Savin Co. said .\n")
    assert _run(capsys, ["tag", str(path)])[2] == ""


def test_cli_tag_streams_tagged_input_and_stops_at_a_bad_line(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """glmnlp tag read every format but token input whole before tagging anything; CoNLL-U, word/TAG and tab input
    is now read as it is tagged (the format decided by the suffix or the first lines), so a malformed line late in a
    file stops the command at file:line after the sentences before it were written."""
    from glmnlp.cli import tagger_cmd

    monkeypatch.setattr(tagger_cmd, "TAG_CHUNK", 2, raising=False)
    good = "".join(f"# sent_id = {k}\n1\tcats\t_\t_\tNNS\t_\t_\t_\t_\t_\n2\tsat\t_\t_\tVBD\t_\t_\t_\t_\t_\n\n"
                   for k in range(4))
    conllu = tmp_path / "in.conllu"
    conllu.write_text(good + "1\tbroken\n", encoding="utf-8")  # line 17
    for argv in (["tag", "--input-format", "auto", str(conllu)], ["tag", "--input-format", "conllu", str(conllu)]):
        rc, out, err = _run(capsys, argv)
        assert (rc, err) == (1, f"error: {conllu}:17: expected 10 tab-separated fields, found 2\n")
        assert [line.split()[0].rpartition("/")[0] for line in out.splitlines()] == ["cats"] * 4
    _stdin(monkeypatch, (good + "1\tbroken\n").encode())  # no suffix: the first lines decide
    rc, out, err = _run(capsys, ["tag", "--input-format", "auto"])
    assert (rc, err, len(out.splitlines())) == (1, "error: <stdin>:17: expected 10 tab-separated fields, found 2\n", 4)
    word_tag = tmp_path / "in.txt"
    word_tag.write_text("cats/NNS sat/VBD\n" * 3 + "sat\n", encoding="utf-8")
    rc, out, err = _run(capsys, ["tag", "--input-format", "auto", str(word_tag)])
    # every sentence before the bad line, not only the full chunks (the third was dropped with the chunk it began)
    assert (rc, err, len(out.splitlines())) == (1, f"error: {word_tag}:4: token 1 'sat' has no /TAG\n", 3)
    monkeypatch.setattr(tagger_cmd, "TAG_CHUNK", 500, raising=False)
    _stdin(monkeypatch, b"a/DT b/NN\nc/DT d/NN\ne/DT f\n")  # docs/cli.md: fewer sentences than a chunk
    rc, out, err = _run(capsys, ["tag", "--input-format", "word_tag"])
    assert (rc, err, len(out.splitlines())) == (1, "error: <stdin>:3: token 2 'f' has no /TAG\n", 2)
    # a CoNLL-U word with a space (UD allows it): written as CoNLL-U; word/TAG cannot hold it, and the sentences
    # before it are written (they were dropped with their chunk)
    spaced = "1\tHe\t_\t_\tPRP\t_\t_\t_\t_\t_\n\n1\tNew York\t_\t_\tNNP\t_\t_\t_\t_\t_\n\n"
    # (CoNLL-U: each sentence with its "# sent_id" and "# text" lines, four words and two blank lines: 8 lines)
    for output, expected in (("conllu", (0, "", 8)), ("word_tag", (1, "error: <output>:2: word 1 ('New York') contains "
                             "whitespace: word/TAG lines cannot hold it (--output-format conllu can)\n", 1))):
        _stdin(monkeypatch, spaced.encode())
        rc, out, err = _run(capsys, ["tag", "--input-format", "conllu", "--output-format", output])
        assert (rc, err, len(out.splitlines())) == expected, output


def test_cli_tag_points_at_conllu_only_for_a_word_with_a_space(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A tag with a space (a model trained through the API on one) cannot be written in any format: word/TAG's error
    pointed at ``--output-format conllu``, which then refused it too."""
    from glmnlp.tagger.model import Tagger

    monkeypatch.setattr(Tagger, "tag_sentences", lambda self, sentences: [["N N"] * len(s) for s in sentences])
    for output in ("word_tag", "conllu"):
        _stdin(monkeypatch, b"cats sat\n")
        rc, out, err = _run(capsys, ["tag", "--output-format", output])
        assert (rc, out) == (1, "") and "tag 1 ('N N') contains whitespace" in err and "conllu can" not in err, err


def test_cli_tagger_evaluate_refuses_an_empty_test_file(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """An empty .trees file used to score 'accuracy 0.00%' with status 0."""
    empty = tmp_path / "empty.trees"
    empty.write_text("", encoding="utf-8")
    model = str(default_model_path() / "tagger")
    rc, out, err = _run(capsys, ["tagger", "evaluate", "--model", model, "--test", str(empty)])
    assert (rc, out, err) == (1, "", f"error: {empty}: empty input: no tagged sentence to score\n")


@pytest.mark.parametrize("name", ["empty.txt", "empty.trees"])
def test_cli_tagger_train_refuses_an_empty_file_as_documented(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, name: str
) -> None:
    """An empty file whose suffix does not fix the format said "cannot tell the format of an empty input", where
    docs/cli.md gives ``FILE: empty input: no tagged sentence to train on`` (said only for a .trees file)."""
    empty = tmp_path / name
    empty.write_text("", encoding="utf-8")
    rc, out, err = _run(capsys, ["tagger", "train", "--train", str(empty), "--out", str(tmp_path / "m"), "-j", "1"])
    assert (rc, out, err) == (1, "", f"error: {empty}: empty input: no tagged sentence to train on\n")


@pytest.mark.parametrize("group", ["parser", "tagger"])
def test_cli_negative_seed_is_a_usage_error(capsys: pytest.CaptureFixture[str], tmp_path: Path, group: str) -> None:
    """``--seed -1`` was a numpy traceback from the first pass (numpy's generators take no negative seed); now a usage
    error naming the option, before any data is read."""
    trees = tmp_path / "one.trees"
    trees.write_text("(TOP (S (NP (DT the) (NN dog)) (VP (VBD barked)) (. .)))\n", encoding="utf-8")
    argv = [group, "train", "--train", str(trees), "--out", str(tmp_path / "m"), "--seed", "-1"]
    if group == "parser":
        argv += ["--dev", str(trees)]
    rc, out, err = _run(capsys, argv)
    assert (rc, out) == (2, "") and "Invalid value for '--seed'" in err
    assert ("0<=x<=9223372036854775807" if group == "parser" else "x>=0") in err  # the parser's seed is an int64


@pytest.mark.parametrize("argv", [
    ["tagger", "train", "--mixing", "updates"],  # the default one shard
    ["tagger", "train", "--mixing", "uniform", "--shards", "1"],
    ["parser", "train", "--mixing", "updates", "--shards", "1"],
    ["train-default", "--mixing", "updates"],
], ids=" ".join)
def test_cli_mixing_with_one_shard_is_a_usage_error(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, argv: list[str]
) -> None:
    """``--mixing`` with one shard mixes nothing (the model was the same bits with or without it): a usage error
    (docs/cli.md: an option with no effect with the others given), before any data is read or folder made."""
    trees = tmp_path / "one.trees"
    trees.write_text("(TOP (S (NP (DT the) (NN dog)) (VP (VBD barked)) (. .)))\n", encoding="utf-8")
    argv = [*argv, "--out", str(tmp_path / "m")]
    if argv[0] != "train-default":
        argv += ["--train", str(trees)] + (["--dev", str(trees)] if argv[0] == "parser" else [])
    rc, out, err = _run(capsys, argv)
    assert (rc, out) == (2, "") and "--mixing mixes the weights of several shards; not with one" in err
    assert not (tmp_path / "m").exists()


def test_cli_parser_mixing_with_the_default_shards_of_one_worker_is_a_usage_error(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """``parser train -j 1 --mixing updates`` (``--shards`` defaults to one a worker: 1) trained the same model bits
    as without --mixing, status 0, where ``--shards 1 --mixing updates`` is a usage error; the same now."""
    trees = tmp_path / "t.trees"
    trees.write_text("(TOP (S (NP (DT the) (NN dog)) (VP (VBD barked)) (. .)))\n" * 3, encoding="utf-8")
    argv = ["parser", "train", "--train", str(trees), "--dev", str(trees), "-j", "1", "--mixing", "updates",
            "--epochs", "1", "-q", "--out", str(tmp_path / "m")]
    rc, out, err = _run(capsys, argv)
    assert (rc, out) == (2, "") and "--shards defaults to one per worker, here 1: give --shards N to mix" in err
    assert not (tmp_path / "m").exists()


def test_configs_refuse_a_negative_seed() -> None:
    """The library's configurations refuse it too, as a ConfigError, when they are made."""
    from glmnlp.errors import ConfigError
    from glmnlp.parser import ParserConfig
    from glmnlp.tagger import TaggerConfig

    for config in (ParserConfig, TaggerConfig):
        with pytest.raises(ConfigError, match="^seed must be (>= 0|an integer in \\[0, 9223372036854775807\\]), "
                                              "got -1$"):
            config(seed=-1)


def test_parser_seed_at_the_top_of_its_range_is_taken_and_above_it_a_usage_error(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """``parser train --seed 9223372036854775807`` was refused with 'seed must be an integer in [0,
    9223372036854775807], got 9223372036854775807' (the bound compared as floats), status 1; a seed past it was
    status 1 too, where a bad option value is a usage error."""
    from glmnlp.parser import ParserConfig

    assert ParserConfig(seed=2**63 - 1).seed == 2**63 - 1 and ParserConfig(seed=2**63 - 300).seed == 2**63 - 300
    trees = tmp_path / "t.trees"
    trees.write_text("(TOP (S (NP (DT the) (NN dog)) (VP (VBD barked)) (. .)))\n", encoding="utf-8")
    rc, out, err = _run(capsys, ["parser", "train", "--train", str(trees), "--dev", str(trees), "--out",
                                 str(tmp_path / "m"), "--seed", str(2**63)])
    assert (rc, out) == (2, "") and "Invalid value for '--seed'" in err


def test_data_gum_with_only_the_test_split_is_a_usage_error(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """``glmnlp data --split test --gum DIR`` wrote the sample's test split and ignored --gum (even a DIR that does not
    exist), status 0: GUM has no test partition here, so the option had no effect."""
    rc, out, err = _run(capsys, ["data", "--out", str(tmp_path / "d"), "--split", "test", "--gum", str(tmp_path / "no")])
    assert (rc, out) == (2, "") and "--gum writes GUM's train and dev partitions; not with --split test alone" in err
    assert not (tmp_path / "d").exists()


def test_tagger_evaluate_refuses_a_test_file_of_another_tagset(capsys: pytest.CaptureFixture[str],
                                                                tmp_path: Path) -> None:
    """A WSJ tagger scored on a CoNLL-U file's UPOS column (or a UPOS tagger on XPOS) printed ``accuracy 0.00%`` and
    confusions such as ``ADV -> RB``, status 0: an error naming the unknown tags and the column now."""
    test = tmp_path / "t.conllu"
    test.write_text("1\tDogs\t_\tNOUN\tNNS\t_\t_\t_\t_\t_\n2\tbark\t_\tVERB\tVBP\t_\t_\t_\t_\t_\n"
                    "3\t.\t_\tPUNCT\t.\t_\t_\t_\t_\t_\n\n", encoding="utf-8")
    rc, out, err = _run(capsys, ["tagger", "evaluate", "--test", str(test), "--tag-column", "upos",
                                 "-m", str(default_model_path())])
    assert (rc, out) == (1, "")
    assert err == (f"error: {test}: 3 of the 3 test tokens have tags the tagger does not have: NOUN, PUNCT, VERB (the "
                   "tagger's tags are another tagset, or another column than --tag-column upos)\n")
    rc, out, _ = _run(capsys, ["tagger", "evaluate", "--test", str(test), "-m", str(default_model_path())])
    assert rc == 0 and "tokens            3\n" in out  # its own tagset: scored


@pytest.mark.parametrize("argv", [["train-default"], ["parser", "train", "--kind", "combined"]], ids=" ".join)
def test_cli_a_generative_weight_given_twice_is_a_usage_error(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, argv: list[str]
) -> None:
    """``--generative-weights 10,10`` trained the same candidate twice (each is a whole training run)."""
    trees = tmp_path / "t.trees"
    trees.write_text("(TOP (S (NP (DT the) (NN dog)) (VP (VBD barked)) (. .)))\n", encoding="utf-8")
    extra = [] if argv[0] == "train-default" else ["--train", str(trees), "--dev", str(trees)]
    rc, out, err = _run(capsys, [*argv, *extra, "--generative-weights", "10,5,10", "--out", str(tmp_path / "m")])
    assert (rc, out) == (2, "") and "the weight 10 is given twice, got '10,5,10'" in err
    assert not (tmp_path / "m").exists()


def test_tagger_train_and_evaluate_read_stdin_as_utf8_and_refuse_bad_bytes(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """``--test -`` / ``--train -`` read Python's text stream: a NUL byte was a word (an accuracy, status 0) and an
    undecodable byte trained a model that failed with a traceback as it was saved; as every file, now."""
    _stdin(monkeypatch, b"the/DT d\x00g/NN\n")
    rc, out, err = _run(capsys, ["tagger", "evaluate", "-m", str(default_model_path()), "--test", "-"])
    assert (rc, out, err) == (1, "", "error: <stdin>:1: binary data (NUL byte); expected UTF-8 text\n")
    _stdin(monkeypatch, b"the/DT caf\xe9/NN\n")
    rc, out, err = _run(capsys, ["tagger", "train", "--train", "-", "--out", str(tmp_path / "m"), "-q", "-j", "1"])
    assert (rc, err) == (1, "error: <stdin>:1: not valid UTF-8 text (byte 0xe9 at column 11)\n")
    assert not (tmp_path / "m").exists()


def test_tagger_train_scores_dev_as_evaluate_does(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """A dev file of another tagset scored 0.00% at every pass (the first pass kept, status 0): refused as
    ``tagger evaluate`` refuses it. A dev file spelling brackets ``(`` against training trees' ``-LRB-`` scored them as
    unknown words: the accuracy a pass is chosen by differed from ``tagger evaluate``'s on the same file."""
    train, dev, other = tmp_path / "train.wt", tmp_path / "dev.wt", tmp_path / "upos.wt"
    train.write_text("the/DT dog/NN -LRB-/-LRB- barks/VBZ -RRB-/-RRB- ./.\n" * 3 + "a/DT cat/NN sat/VBD ./.\n")
    dev.write_text("the/DT cat/NN (/-LRB- sat/VBD )/-RRB- ./.\n")
    other.write_text("the/DET dog/NOUN barks/VERB ./PUNCT\n")
    rc, _, err = _run(capsys, ["tagger", "train", "--train", str(train), "--dev", str(other), "--out",
                               str(tmp_path / "x"), "-j", "1"])
    assert rc == 1 and "4 of the 4 dev tokens have tags the training file does not have: DET, NOUN" in err, err
    rc, _, err = _run(capsys, ["tagger", "train", "--train", str(train), "--dev", str(dev), "--out",
                               str(tmp_path / "m"), "-j", "1", "--epochs", "1"])
    assert rc == 0, err
    trained = float(err.split("dev accuracy ")[1].split("%")[0])
    rc, out, _ = _run(capsys, ["tagger", "evaluate", "-m", str(tmp_path / "m"), "--test", str(dev)])
    assert rc == 0 and f"accuracy          {trained:.2f}%" in out, (trained, out)


def test_tagger_evaluate_shows_no_accuracy_of_no_words(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """A test file without unknown words printed ``unknown words     0.00% of 0``, read as 0% accuracy: ``-``."""
    train = tmp_path / "train.wt"
    train.write_text("the/DT dog/NN barks/VBZ ./.\n" * 3)
    rc, _, err = _run(capsys, ["tagger", "train", "--train", str(train), "--out", str(tmp_path / "m"), "-j", "1",
                               "--epochs", "1"])
    assert rc == 0, err
    rc, out, _ = _run(capsys, ["tagger", "evaluate", "-m", str(tmp_path / "m"), "--test", str(train)])
    assert rc == 0 and "known words       100.00% of 12\nunknown words     - of 0\n" in out, out


@pytest.mark.parametrize("argv", [
    ["parser", "train", "--train", "-", "--dev", "-", "--out", "OUT"],
    ["data", "--clean", "-", "--out", "OUT"],
    ["evalb", "-", "-"],
    ["grammar", "table1", "--train", "-"],
])
def test_cli_file_only_inputs_say_they_do_not_read_stdin(
    argv: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A command that reads named files given ``-``: one line saying it does not read stdin (it said "-: cannot read
    file: No such file or directory"), status 1, nothing written."""
    monkeypatch.chdir(tmp_path)
    rc, out, err = _run(capsys, argv)
    assert rc == 1 and out == ""
    assert err == "error: -: this command reads named files, not stdin: give the file's name\n"
    assert list(tmp_path.iterdir()) == []


def test_cli_tag_conllu_numbers_its_sentences_across_chunks(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    """``glmnlp tag --output-format conllu`` wrote no ``# sent_id`` or ``# text`` (UD's validator requires both): each
    sentence has them now, numbered on across the chunks the command writes, and a sentence that cannot be written
    is named by its number in the whole output, after the sentences before it."""
    from glmnlp.cli import tagger_cmd

    monkeypatch.setattr(tagger_cmd, "TAG_CHUNK", 2, raising=False)
    tokens = tmp_path / "tokens.txt"
    tokens.write_text("The dog barked .\nIt ran .\nA cat sat .\n")
    rc, out, _ = _run(capsys, ["tag", "--output-format", "conllu", str(tokens)])
    ids = [line for line in out.splitlines() if line.startswith("# sent_id")]
    assert rc == 0 and ids == ["# sent_id = 1", "# sent_id = 2", "# sent_id = 3"]
    assert "# text = A cat sat .\n1\tA\t" in out


@pytest.mark.parametrize("argv", [["parser", "train", "--epochs"], ["train-default", "--parser-epochs"]], ids=" ".join)
def test_parser_passes_above_the_configs_range_are_a_usage_error(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, argv: list[str],
) -> None:
    """``--epochs 1000001`` was taken, the tagger trained and jackknifed (minutes on a treebank), and then the
    parser's config refused it in the library's words (``[0, 1000000]``, where the command refuses 0)."""
    trees = tmp_path / "t.trees"
    trees.write_text("\n".join(TINY) + "\n")
    rc, out, err = _run(capsys, [*argv, "1000001", "--out", str(tmp_path / "m"),
                                 *(["--train", str(trees), "--tags", "tagger"] if argv[0] == "parser" else [])])
    assert (rc, out) == (2, "") and "not in the range 1<=x<=1000000" in err, err
    assert not (tmp_path / "m").exists()


def test_a_path_given_after_an_equals_sign_reads_a_leading_tilde_as_the_home_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], trees_file: Path
) -> None:
    """``--out=~/models/t``: the shell expands ``~`` in a word of its own, not after ``=``, and glmnlp never did: a
    folder named ``~`` was made in the working folder and the command said "written to ~/models/t", which reads as
    the home folder. A leading ``~`` is the home folder, for every path option, read and written."""
    home, work = tmp_path / "home", tmp_path / "work"
    work.mkdir()
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.chdir(work)
    assert main(["tagger", "train", "--train", str(trees_file), "--out=~/models/t", "--epochs", "1", "-q"]) == 0
    assert (home / "models" / "t" / "metadata.json").is_file() and list(work.iterdir()) == []
    (home / "in.txt").write_text("the dog barked\n", encoding="utf-8")
    capsys.readouterr()
    assert main(["tag", "--model=~/models/t", "--input=~/in.txt"]) == 0
    assert capsys.readouterr().out.count("/") == 3


def test_tag_names_its_input_argument_as_the_docs_do(capsys: pytest.CaptureFixture[str]) -> None:
    """``glmnlp tag --help`` said ``[INPUT_PATH]`` where docs/cli.md says ``[INPUT | -i FILE]``."""
    assert main(["tag", "--help"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Usage: glmnlp tag [OPTIONS] [INPUT]\n") and "INPUT_PATH" not in out
