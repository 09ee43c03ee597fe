"""Model files are a pure function of data, options and seed: training twice gives the same bytes in
every file (tagger, perceptron parser, generative model, combined model; no timings, no tie broken by
a measured time)."""

from __future__ import annotations

from pathlib import Path

import pytest

from glmnlp.cli import main
from glmnlp.treebank.corpus import sample_trees
from glmnlp.treebank.trees import to_bracket


@pytest.fixture(scope="module")
def splits(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    folder = tmp_path_factory.mktemp("determinism")
    train, dev = folder / "train.trees", folder / "dev.trees"
    train.write_text("".join(to_bracket(t) + "\n" for t in sample_trees("train")[:30]))
    dev.write_text("".join(to_bracket(t) + "\n" for t in sample_trees("dev")[:4]))
    return train, dev


def _files(model: Path) -> dict[str, bytes]:
    return {str(p.relative_to(model)): p.read_bytes() for p in sorted(model.rglob("*")) if p.is_file()}


@pytest.mark.parametrize("kind", ["tagger", "perceptron", "generative", "combined"])
def test_determinism_training_twice_gives_identical_files(
    splits: tuple[Path, Path], tmp_path: Path, kind: str, capsys: pytest.CaptureFixture[str]
) -> None:
    train, dev = splits
    runs = []
    for name in ("first", "second"):
        out = tmp_path / name
        if kind == "tagger":
            argv = ["tagger", "train", "--train", str(train), "--dev", str(dev), "--epochs", "2", "--quiet"]
        else:
            # each kind is given only the options it uses (the others are refused)
            argv = ["parser", "train", "--train", str(train), "--dev", str(dev), "--kind", kind,
                    *{"perceptron": ["--epochs", "1"], "generative": [],
                      "combined": ["--epochs", "1", "--generative-weights", "5,10"]}[kind]]
        assert main([*argv, "--out", str(out)]) == 0, capsys.readouterr().err
        runs.append(_files(out))
    first, second = runs
    assert set(first) == set(second) and "metadata.json" in first
    assert [name for name in first if first[name] != second[name]] == []
