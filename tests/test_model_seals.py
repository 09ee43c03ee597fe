"""A model's metadata.json is sealed by its own checksum and each sub-model pinned by its parent's
(glmnlp.glm.model_seals): an edited header, or a sub-model folder of another model, is a ModelFileError naming the
file, where both loaded and gave wrong results with status 0."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import numpy as np
import pytest

from glmnlp.cli import main
from glmnlp.errors import ModelFileError
from glmnlp.glm.model_io import ModelParts, load_model, load_submodel, read_metadata, save_model
from glmnlp.glm.model_seals import header_digest
from glmnlp.parser.combined import train_combined
from glmnlp.parser.generative import SmoothingConfig
from glmnlp.parser.model import Parser, ParserConfig
from glmnlp.treebank.trees import parse_tree

from toy_trees import TINY


def _sub(value: float) -> ModelParts:
    return ModelParts(kind="sub", metadata={"value": value}, arrays={"w": np.full(3, value)})


def _save(path: Path, value: float) -> Path:
    save_model(path, kind="top", metadata={"tags": ["NN", "DT"]}, arrays={"w": np.arange(4.0)},
               submodels={"part": _sub(value)})
    return path


def test_model_seals_every_header_is_sealed_and_its_sub_models_pinned(tmp_path: Path) -> None:
    model = _save(tmp_path / "m", 1.0)
    header, sub = read_metadata(model), read_metadata(model / "part")
    assert header["metadata_sha256"] == header_digest(header) and sub["metadata_sha256"] == header_digest(sub)
    assert header["submodel_sha256"] == {"part": sub["metadata_sha256"]} and sub["submodel_sha256"] == {}
    assert load_submodel(model, "part", kind="sub")[0] == {"value": 1.0}


@pytest.mark.parametrize("change", ["tags swapped", "whitespace only is not a change", "seal removed"])
def test_model_seals_an_edited_header_is_refused(tmp_path: Path, change: str) -> None:
    """A tagger whose tag list had two tags swapped tagged ``The/NN dog/DT`` with status 0."""
    model = _save(tmp_path / "m", 1.0)
    meta = model / "metadata.json"
    header = json.loads(meta.read_text())
    if change == "tags swapped":
        header["metadata"]["tags"] = ["DT", "NN"]
    elif change == "seal removed":  # a file written before seals existed: nothing to check it against
        del header["metadata_sha256"]
    meta.write_text(json.dumps(header, indent=4))
    if change == "tags swapped":
        with pytest.raises(ModelFileError) as info:
            load_model(model, kind="top")
        assert str(info.value).startswith(f"{meta}: changed after it was written")
    else:
        assert load_model(model, kind="top")[0]["tags"] == ["NN", "DT"]


def test_model_seals_a_sub_model_of_another_model_is_refused(tmp_path: Path) -> None:
    model, other = _save(tmp_path / "m", 1.0), _save(tmp_path / "o", 2.0)
    shutil.rmtree(model / "part")
    shutil.copytree(other / "part", model / "part")
    with pytest.raises(ModelFileError) as info:
        load_submodel(model, "part", kind="sub")
    assert str(info.value).startswith(f"{model / 'part'}: not the 'part' sub-model {model / 'metadata.json'} was")
    shutil.rmtree(model / "part")
    shutil.copytree(_save(tmp_path / "m2", 1.0) / "part", model / "part")  # the same sub-model saved again: the same
    assert load_submodel(model, "part", kind="sub")[0] == {"value": 1.0}


def test_model_seals_a_combined_parser_refuses_another_parsers_generative_model(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A combined parser given the ``generative/`` folder of another combined parser (another training set) parsed
    at F1 40.23 instead of 58.64 and gave ``The`` a surprisal of 30.78 bits instead of 2.37, with status 0."""
    trees = [parse_tree(t) for t in TINY] * 2
    cfg = ParserConfig(n_bits=12, epochs=1, gamma=1e3, beam_cap=20, train_gamma=1e3, train_cap=20)
    smoothing = SmoothingConfig(folds=0)
    for name, data in (("a", trees), ("b", trees[::-1][:8])):
        parser, _ = train_combined(data, trees[:3], cfg, weight=10.0, folds=3, smoothing=smoothing)
        parser.save(tmp_path / name)
    assert Parser.load(tmp_path / "a").generative is not None
    shutil.rmtree(tmp_path / "a" / "generative")
    shutil.copytree(tmp_path / "b" / "generative", tmp_path / "a" / "generative")
    with pytest.raises(ModelFileError, match="not the 'generative' sub-model"):
        Parser.load(tmp_path / "a")
    assert main(["measures", "-m", str(tmp_path / "a"), "--tokenized", "the dog barks ."]) == 1
    assert capsys.readouterr().err.startswith(f"error: {tmp_path / 'a' / 'generative'}: not the 'generative' sub")
