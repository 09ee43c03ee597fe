"""The bundled sample's split by file, and the `glmnlp data` command that writes it out."""

from __future__ import annotations

from pathlib import Path

import pytest

import glmnlp
from glmnlp.cli import main
from glmnlp.treebank.corpus import sample_dir, sample_files, sample_tagged, sample_trees
from glmnlp.treebank.formats import read_conllu, read_tab, read_word_tag
from glmnlp.treebank.trees import read_tree_file, to_bracket

# sentence and token counts per split (tokens exclude -NONE- leaves); the whole sample is 3,914 / 94,084
EXPECTED = {"train": (159, 3396, 81793), "dev": (20, 273, 6327), "test": (20, 245, 5964), "all": (199, 3914, 94084)}


@pytest.mark.parametrize("split", ["train", "dev", "test", "all"])
def test_corpus_split_sizes(split: str) -> None:
    """Files, sentences and tokens per split match the documented counts."""
    files, sentences, tokens = EXPECTED[split]
    assert len(sample_files(split)) == files  # type: ignore[arg-type]
    assert len(sample_trees(split)) == sentences  # type: ignore[arg-type]
    tagged = sample_tagged(split)  # type: ignore[arg-type]
    assert len(tagged) == sentences
    assert sum(len(s) for s in tagged) == tokens


def test_corpus_splits_partition_the_files() -> None:
    """train, dev and test are disjoint, contiguous, in order, and together make up 'all'."""
    names = {
        split: [p.name for p in sample_files(split)]  # type: ignore[arg-type]
        for split in ("train", "dev", "test", "all")
    }
    assert names["train"] + names["dev"] + names["test"] == names["all"]
    assert names["train"][0] == "wsj_0001.mrg" and names["train"][-1] == "wsj_0159.mrg"
    assert names["dev"][0] == "wsj_0160.mrg" and names["dev"][-1] == "wsj_0179.mrg"
    assert names["test"][0] == "wsj_0180.mrg" and names["test"][-1] == "wsj_0199.mrg"


def test_corpus_dev_test_equal_gold_files(test_data: Path) -> None:
    """sample_trees('dev'/'test') are exactly the trees of the reference gold files."""
    for split in ("dev", "test"):
        gold = (test_data / "evalb" / f"sample_{split}.gold").read_text(encoding="utf-8").splitlines()
        assert [to_bracket(t) for t in sample_trees(split)] == gold  # type: ignore[arg-type]


def test_corpus_raw_trees_and_tagged_agree() -> None:
    """clean=False gives the file trees; sample_tagged pairs each cleaned tree's words with its tags."""
    raw = sample_trees("dev", clean=False)
    assert raw == [t for p in sample_files("dev") for t in read_tree_file(p)]
    assert raw[0].label == "" and sample_trees("dev")[0].label == "TOP"
    for tree, sentence in zip(sample_trees("dev"), sample_tagged("dev")):
        assert list(sentence.words) == tree.leaves() and list(sentence.tags or ()) == tree.tags()
    assert "-NONE-" not in {tag for s in sample_tagged("all") for tag in s.tags or ()}


def test_corpus_sample_inside_package_and_unknown_split() -> None:
    """The sample is found inside the installed package; an unknown split name is refused."""
    assert sample_dir().parent.parent == Path(glmnlp.__file__).parent
    with pytest.raises(ValueError, match="unknown split"):
        sample_files("validation")  # type: ignore[arg-type]


def test_corpus_cli_data_writes_splits(tmp_path: Path, capsys: pytest.CaptureFixture[str], test_data: Path) -> None:
    """`glmnlp data` writes trees and tagged files per split and prints counts to stderr only."""
    out = tmp_path / "splits"
    assert main(["data", "--out", str(out), "--tagged", "word_tag", "--tagged", "conllu", "--tagged", "tab"]) == 0
    captured = capsys.readouterr()
    assert captured.out == ""
    assert "train   3396 sentences   81793 tokens" in captured.err
    assert "dev      273 sentences    6327 tokens" in captured.err
    assert "test     245 sentences    5964 tokens" in captured.err
    assert sorted(p.name for p in out.iterdir()) == sorted(
        f"{split}.{ext}" for split in ("train", "dev", "test") for ext in ("trees", "word_tag", "conllu", "tab")
    )
    assert (out / "dev.trees").read_bytes() == (test_data / "evalb" / "sample_dev.gold").read_bytes()
    assert (out / "test.trees").read_bytes() == (test_data / "evalb" / "sample_test.gold").read_bytes()
    for split in ("train", "dev", "test"):
        expected = sample_tagged(split)  # type: ignore[arg-type]
        assert read_word_tag(out / f"{split}.word_tag") == expected
        assert read_conllu(out / f"{split}.conllu") == expected
        assert read_tab(out / f"{split}.tab") == expected
    # each sentence opens with the # sent_id and # text lines UD's validator requires, as tag's and parse's output
    assert (out / "dev.conllu").read_text(encoding="utf-8").startswith("# sent_id = 1\n# text = Savin Corp. reported ")
    assert (out / "dev.conllu").read_text(encoding="utf-8").count("\n# sent_id = ") == 272


def test_corpus_cli_data_single_split_and_help(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """--split limits the output; --help shows examples; a bad --tagged value exits with status 2."""
    assert main(["data", "--out", str(tmp_path), "--split", "dev"]) == 0
    assert [p.name for p in tmp_path.iterdir()] == ["dev.trees"]
    assert not list(tmp_path.glob(".*.tmp"))
    capsys.readouterr()
    assert main(["data", "--help"]) == 0
    assert "glmnlp data --out splits/" in capsys.readouterr().out
    assert main(["data", "--out", str(tmp_path), "--tagged", "xml"]) == 2
