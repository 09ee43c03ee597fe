"""The tagger's command line: ``glmnlp tagger train``, ``tagger evaluate`` and ``glmnlp tag`` on word/TAG and CoNLL-U
files (the UPOS column, bracket and quote tags as written).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from glmnlp.cli import main
from glmnlp.treebank.corpus import sample_tagged
from glmnlp.treebank.formats import write_word_tag
from glmnlp.tagger.model import Tagger


def test_tagger_cli_train_evaluate_tag(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The CLI trains, evaluates and tags in-process; bad input exits 1 with file:line: reason."""
    (tmp_path / "train.word_tag").write_text(write_word_tag(sample_tagged("train")[:200]))
    (tmp_path / "dev.word_tag").write_text(write_word_tag(sample_tagged("dev")[:30]))
    model = str(tmp_path / "model")
    train = str(tmp_path / "train.word_tag")
    dev = str(tmp_path / "dev.word_tag")
    assert main(["tagger", "train", "--train", train, "--dev", dev, "--out", model, "--epochs", "1", "--quiet"]) == 0
    capsys.readouterr()
    assert main(["tagger", "evaluate", "--model", model, "--test", dev, "--margin", "5"]) == 0
    out = capsys.readouterr().out
    assert "accuracy" in out and "unknown words" in out and "margin 5" in out
    (tmp_path / "in.txt").write_text("The company said it would buy shares .\n\nIt rose .\n")
    assert main(["tag", "--model", model, str(tmp_path / "in.txt")]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 2 and lines[0].startswith("The/DT company/NN")
    assert main(["tag", "--model", model, "--output-format", "conllu", str(tmp_path / "in.txt")]) == 0
    assert "1\tThe\t_\t_\tDT" in capsys.readouterr().out
    (tmp_path / "bad.word_tag").write_text("The/DT cat/NN\nsat\n")
    assert main(["tagger", "evaluate", "--model", model, "--test", str(tmp_path / "bad.word_tag"), "--format", "word_tag"]) == 1
    assert f"{tmp_path / 'bad.word_tag'}:2:" in capsys.readouterr().err
    assert main(["tag", "--model", str(tmp_path / "nothing"), str(tmp_path / "in.txt")]) == 1
    assert main(["tagger", "train", "--help"]) == 0
    assert "Examples" in capsys.readouterr().out


def _upos_conllu(n: int, xpos: bool) -> str:
    """The first ``n`` training sentences of the sample as CoNLL-U with a coarse UPOS column (and XPOS, or ``_``)."""
    upos = {"DT": "DET", "NN": "NOUN", "NNS": "NOUN", "VBD": "VERB", "IN": "ADP", "JJ": "ADJ", ".": "PUNCT"}
    lines = []
    for sent in sample_tagged("train")[:n]:
        assert sent.tags is not None
        for i, (word, tag) in enumerate(zip(sent.words, sent.tags), 1):
            lines.append(f"{i}\t{word}\t_\t{upos.get(tag, 'X')}\t{tag if xpos else '_'}\t_\t_\t_\t_\t_")
        lines.append("")
    return "\n".join(lines) + "\n"


def test_tagger_cli_reads_the_upos_column_and_tags_untagged_conllu(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A CoNLL-U file tagged in UPOS only trains with --tag-column upos (it could not be read: 'no XPOS tag'; the
    error now names the option), and ``glmnlp tag`` reads the words of a CoNLL-U file with no tags (it refused
    it, although it ignores the tags)."""
    train = tmp_path / "upos.conllu"
    train.write_text(_upos_conllu(150, xpos=False))
    model = str(tmp_path / "model")
    args = ["tagger", "train", "--train", str(train), "--out", model, "--epochs", "1", "--quiet", "-j", "1"]
    capsys.readouterr()
    assert main(args) == 1
    assert capsys.readouterr().err == f"error: {train}:1: word 'Pierre' has no XPOS tag ('_') (a file tagged in UPOS " \
        "only: --tag-column upos reads it)\n"
    assert main([*args, "--tag-column", "upos"]) == 0
    assert main(["tagger", "evaluate", "--model", model, "--test", str(train), "--tag-column", "upos"]) == 0
    assert "accuracy" in capsys.readouterr().out
    plain = tmp_path / "words.conllu"
    plain.write_text("1\tThe\t_\t_\t_\t_\t_\t_\t_\t_\n2\tcompany\t_\t_\t_\t_\t_\t_\t_\t_\n\n")
    assert main(["tag", "--model", model, "--input-format", "conllu", str(plain)]) == 0
    assert capsys.readouterr().out == "The/DET company/NOUN\n"
    word_tag = tmp_path / "t.word_tag"
    word_tag.write_text("The/DT dog/NN\n")
    assert main(["tagger", "evaluate", "--model", model, "--test", str(word_tag), "--tag-column", "upos"]) == 1
    assert "the UPOS column was asked for, but this is a word_tag file" in capsys.readouterr().err
    # with the format given, --tag-column contradicts it: a usage error, in both commands, for either column
    for column in ("upos", "xpos"):
        assert main(["tagger", "evaluate", "--model", model, "--test", str(word_tag), "--format", "word_tag",
                     "--tag-column", column]) == 2
        assert "--tag-column chooses a CoNLL-U column; not with --format word_tag" in capsys.readouterr().err
        assert main(["tagger", "train", "--train", str(word_tag), "--out", str(tmp_path / "m2"), "--format", "tab",
                     "--tag-column", column]) == 2
        assert "not with --format tab" in capsys.readouterr().err
    assert not (tmp_path / "m2").exists()


def test_a_tagger_trained_on_a_conllu_column_reads_and_writes_that_column(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A tagger trained with --tag-column upos was scored on the XPOS column unless told again (an error, the other
    tagset) and wrote its UPOS tags into CoNLL-U's XPOS column: it records the column, and both use it."""
    both = tmp_path / "both.conllu"
    both.write_text(_upos_conllu(120, xpos=True))
    model = tmp_path / "upos_model"
    base = ["tagger", "train", "--train", str(both), "--epochs", "1", "--quiet", "-j", "1"]
    assert main([*base, "--out", str(model), "--tag-column", "upos"]) == 0
    assert json.loads((model / "metadata.json").read_text())["metadata"]["tag_column"] == "upos"
    capsys.readouterr()
    assert main(["tagger", "evaluate", "--model", str(model), "--test", str(both)]) == 0
    assert "accuracy" in capsys.readouterr().out
    assert main(["tagger", "evaluate", "--model", str(model), "--test", str(both), "--tag-column", "xpos"]) == 1
    assert "another column than --tag-column xpos" in capsys.readouterr().err
    words = tmp_path / "words.txt"
    words.write_text("The company said .\n")
    assert main(["tag", "--model", str(model), "--output-format", "conllu", str(words)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[:2] == ["# sent_id = 1", "# text = The company said ."]  # what UD's validator requires
    rows = [line.split("\t") for line in lines if line and not line.startswith("#")]
    assert [r[3] for r in rows] == ["DET", "NOUN", "VERB", "PUNCT"] and {r[4] for r in rows} == {"_"}
    # the XPOS column and other formats: as before (XPOS written; no column recorded for a word/TAG file)
    xpos_model, plain_model = tmp_path / "xpos_model", tmp_path / "plain_model"
    assert main([*base, "--out", str(xpos_model)]) == 0
    assert json.loads((xpos_model / "metadata.json").read_text())["metadata"]["tag_column"] == "xpos"
    word_tag = tmp_path / "train.word_tag"
    word_tag.write_text("The/DT dog/NN barked/VBD ./.\n" * 3)
    assert main(["tagger", "train", "--train", str(word_tag), "--out", str(plain_model), "--epochs", "1", "--quiet",
                 "-j", "1"]) == 0
    assert "tag_column" not in json.loads((plain_model / "metadata.json").read_text())["metadata"]
    capsys.readouterr()
    # a word/TAG test file of the other tagset: the hint names no column (there is none, and none was given)
    assert main(["tagger", "evaluate", "--model", str(model), "--test", str(word_tag)]) == 1
    assert capsys.readouterr().err.endswith("(the tagger's tags are another tagset)\n")
    assert main(["tagger", "evaluate", "--model", str(xpos_model), "--test", str(both)]) == 0
    capsys.readouterr()
    assert main(["tag", "--model", str(xpos_model), "--output-format", "conllu", str(words)]) == 0
    rows = [line.split("\t") for line in capsys.readouterr().out.splitlines() if line and line[0] != "#"]
    assert rows[0][3:5] == ["_", "DT"]


def test_tagger_cli_scores_a_bracket_tag_spelled_the_other_way_as_the_same_tag(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """STTS ``$(`` is ``$-LRB-`` in bracketed trees and ``$(`` in word/TAG files: a tagger trained on trees scored on
    word/TAG lines counted every bracket as an error (``confusions: $( -> $-LRB-``), and a dev file spelled the
    other way chose the epoch on those errors. They are one tag now, as the words' brackets are."""
    sentences = [("Er sagte ( nichts ) .", "PPER VVFIN $( NN $( $."),
                 ("Sie kam ( spät ) .", "PPER VVFIN $( ADJD $( $.")]
    trees = "".join(
        "(TOP (S " + " ".join(f"({t.replace('(', '-LRB-')} {w.replace('(', '-LRB-').replace(')', '-RRB-')})"
                              for w, t in zip(words.split(), tags.split())) + "))\n"
        for words, tags in sentences) * 10
    (tmp_path / "train.trees").write_text(trees, encoding="utf-8")
    lines = "".join(" ".join(f"{w}/{t}" for w, t in zip(words.split(), tags.split())) + "\n"
                    for words, tags in sentences)
    (tmp_path / "test.word_tag").write_text(lines, encoding="utf-8")
    model = str(tmp_path / "model")
    assert main(["tagger", "train", "--train", str(tmp_path / "train.trees"), "--dev", str(tmp_path / "test.word_tag"),
                 "--out", model, "--epochs", "2", "--quiet", "-j", "1"]) == 0
    history = json.loads((tmp_path / "model" / "metadata.json").read_text())["metadata"]["history"]
    assert history[-1]["dev_accuracy"] == 1
    capsys.readouterr()
    assert main(["tagger", "evaluate", "--model", model, "--test", str(tmp_path / "test.word_tag")]) == 0
    out = capsys.readouterr().out
    assert "100.00%" in out and "$( -> $-LRB-" not in out, out


def test_tagger_cli_warns_when_dev_is_the_training_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``--dev`` naming the ``--train`` file (or a link to it) chose the pass on the training sentences without a
    word, where ``parser train`` warns; a dev file of other sentences warns of nothing."""
    train = tmp_path / "train.word_tag"
    train.write_text(write_word_tag(sample_tagged("train")[:40]))
    (tmp_path / "link.word_tag").symlink_to(train)
    (tmp_path / "dev.word_tag").write_text(write_word_tag(sample_tagged("dev")[:10]))
    for dev, warned in (("train.word_tag", True), ("link.word_tag", True), ("dev.word_tag", False)):
        capsys.readouterr()
        assert main(["tagger", "train", "--train", str(train), "--dev", str(tmp_path / dev), "--out",
                     str(tmp_path / f"m-{dev}"), "--epochs", "1", "-j", "1", "--quiet"]) == 0
        said = f"warning: {tmp_path / dev} is the --train file: the pass is chosen on the training sentences"
        assert (said in capsys.readouterr().err) is warned


def test_tagger_evaluate_scores_quotes_as_written_as_tagger_evaluate_does(
    tmp_path: Path, capsys: pytest.CaptureFixture[str],
) -> None:
    """A tagger whose treebank tags a straight ``"`` QUOTE and knows ``''`` too: ``tagger evaluate`` gave the words
    the tokenizer's spelling first (the second ``"`` as ``''``, tagged SYM) and scored 91.67% on the training file,
    where ``Tagger.evaluate`` gives 100%. A gold-tagged file is scored as written, at train's dev too."""
    from glmnlp.treebank.formats import read_tagged

    gold = tmp_path / "quotes.tab"
    gold.write_text('He\tPRP\nsaid\tVBD\n"\t``\nhi\tUH\n"\tQUOTE\n.\t.\n\n'
                    "The\tDT\nsymbol\tNN\n''\tSYM\nis\tVBZ\nodd\tJJ\n.\t.\n\n")
    model = tmp_path / "m"
    assert main(["tagger", "train", "--train", str(gold), "--dev", str(gold), "--out", str(model), "--epochs", "5",
                 "-j", "1", "-q"]) == 0
    tagger = Tagger.load(model)
    assert tagger.evaluate(read_tagged(gold)).accuracy == 1.0
    assert tagger.history_[-1].dev_score == 1.0  # train's dev, scored as written too
    capsys.readouterr()
    assert main(["tagger", "evaluate", "-m", str(model), "--test", str(gold)]) == 0
    out = capsys.readouterr().out
    assert "accuracy          100.00%" in out and "QUOTE -> SYM" not in out


def test_tagger_evaluate_scores_quotes_tagged_as_quotes_as_glmnlp_tag_reads_them(
    tmp_path: Path, capsys: pytest.CaptureFixture[str],
) -> None:
    """The common convention (the PTB's, EWT's XPOS): a straight ``"`` in the file, tagged `````/``''``. ``glmnlp
    tag`` reads it as the tokenizer spells raw text's quotes, and ``tagger evaluate`` must score those same words:
    a first version of the quote mend above scored them as written, 84.62% where tag's own output scores 92.31%."""
    from glmnlp.text.default_model import default_model_path

    gold = tmp_path / "q.tab"
    rows = [("He", "PRP"), ("said", "VBD"), ('"', "``"), ("hello", "UH"), ("there", "RB"), ('"', "''"), (".", "."),
            None, ("She", "PRP"), ("wrote", "VBD"), ('"', "``"), ("no", "DT"), ('"', "''"), (".", ".")]
    gold.write_text("".join("\n" if r is None else f"{r[0]}\t{r[1]}\n" for r in rows) + "\n")
    capsys.readouterr()
    assert main(["tagger", "evaluate", "-m", str(default_model_path()), "--test", str(gold)]) == 0
    accuracy = capsys.readouterr().out.split("accuracy")[1].split("%")[0].strip()
    (tmp_path / "q.txt").write_text('He said " hello there " .\nShe wrote " no " .\n')
    assert main(["tag", "-m", str(default_model_path()), str(tmp_path / "q.txt")]) == 0
    tagged = [token.rsplit("/", 1)[1] for token in capsys.readouterr().out.split()]
    expected = [r[1] for r in rows if r is not None]
    assert float(accuracy) == round(100 * sum(a == b for a, b in zip(tagged, expected)) / len(expected), 2)


def test_tagger_cli_standard_input_that_cannot_be_read_is_said_as_a_files(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """``tagger evaluate --test -`` whose standard input failed to read (EIO) said ``<stdin>: cannot read: ...``, where
    every other input that cannot be read, stdin's lines too, says ``cannot read file: REASON``."""
    import errno
    import io
    import sys

    class Failing(io.BytesIO):
        def read(self, size: int | None = -1) -> bytes:
            raise OSError(errno.EIO, "Input/output error")

    from glmnlp.text.default_model import default_model_path

    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(Failing()))
    capsys.readouterr()
    assert main(["tagger", "evaluate", "-m", str(default_model_path()), "--test", "-"]) == 1
    assert capsys.readouterr().err == "error: <stdin>: cannot read file: Input/output error\n"
