"""The generative model's file format: version 2 (occupied slots only, float32 values when exact), version 1 still read."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from glmnlp.errors import ModelFileError
from glmnlp.glm.model_io import load_model, save_model
from glmnlp.parser.generative import GenerativeModel, compact_table
from glmnlp.parser.generative_training import train_generative

from test_generative import SMALL, _event_set, _toy_events


@pytest.fixture(scope="module")
def model() -> GenerativeModel:
    return train_generative(_event_set(_toy_events(seed=3, n_sentences=40)), SMALL)


def _tables_equal(a: GenerativeModel, b: GenerativeModel) -> None:
    for name in ("hist_keys", "hist_vals", "pair_keys", "pair_vals", "floor_logprob"):
        assert a.tables[name].dtype == b.tables[name].dtype
        assert np.array_equal(a.tables[name], b.tables[name]), name


def test_v2_file_rebuilds_the_trained_tables_slot_for_slot(model: GenerativeModel, tmp_path: Path) -> None:
    """Saved and loaded, the open-addressing tables are the trained ones, empty slots and probe order included."""
    metadata, arrays = model.to_arrays()
    assert metadata["format_version"] == 2
    assert len(arrays["pair_keys"]) == int((model.tables["pair_keys"] != 0).sum()) < len(model.tables["pair_keys"])
    save_model(tmp_path / "g", kind="generative", metadata=metadata, arrays=arrays)
    _tables_equal(GenerativeModel.from_arrays(*load_model(tmp_path / "g", kind="generative")), model)


def test_values_are_stored_as_float32_only_when_exact(model: GenerativeModel) -> None:
    """Trained float64 values stay float64; a float32-rounded model stores 4-byte values and loads back equal."""
    _, arrays = model.to_arrays()
    assert arrays["pair_vals"].dtype == np.float64
    rounded = model.with_float32_tables()
    metadata, arrays32 = rounded.to_arrays()
    assert arrays32["pair_vals"].dtype == np.float32 and arrays32["hist_vals"].dtype == np.float32
    _tables_equal(GenerativeModel.from_arrays(metadata, arrays32), rounded)
    # rounding moves a log-probability by at most float32's relative precision
    occupied = model.tables["pair_keys"] != 0
    old, new = model.tables["pair_vals"][occupied], rounded.tables["pair_vals"][occupied]
    assert np.all(np.abs(old - new) <= 6e-8 * np.abs(old))
    assert not np.array_equal(old, new)


def test_version_1_files_still_load(model: GenerativeModel) -> None:
    """A version-1 file (whole tables, float64) gives the same model."""
    metadata, _ = model.to_arrays()
    v1_meta = {k: v for k, v in metadata.items() if k != "capacity"} | {"format_version": 1}
    v1_arrays = dict(model.tables, lambdas=model.lambdas, bin_edges=model.bin_edges)
    _tables_equal(GenerativeModel.from_arrays(v1_meta, v1_arrays), model)


@pytest.mark.parametrize("damage", ["unsorted", "zero key", "capacity", "huge capacity", "float16", "length"])
def test_damaged_v2_tables_are_named_errors(model: GenerativeModel, damage: str) -> None:
    """Each damage is a named error; a capacity above what training builds too (2**32 slots: 96 GiB were asked for
    for a table of the model's few thousand entries, or the process was killed for memory)."""
    metadata, arrays = model.to_arrays()
    arrays = dict(arrays)
    keys = arrays["pair_keys"].copy()
    if damage == "unsorted":
        keys[[0, 1]] = keys[[1, 0]]
        arrays["pair_keys"] = keys
    elif damage == "zero key":
        keys[0] = 0
        arrays["pair_keys"] = keys
    elif damage == "capacity":
        metadata = dict(metadata, capacity={"hist": metadata["capacity"]["hist"], "pair": len(keys)})
    elif damage == "huge capacity":
        metadata = dict(metadata, capacity={"hist": metadata["capacity"]["hist"], "pair": 1 << 32})
    elif damage == "float16":
        arrays["pair_vals"] = arrays["pair_vals"].astype(np.float16)
    else:
        arrays["pair_vals"] = arrays["pair_vals"][:-1]
    with pytest.raises(ModelFileError, match="generative model"):
        GenerativeModel.from_arrays(metadata, arrays)


def test_compact_table_keeps_float64_when_one_value_is_not_a_float32() -> None:
    keys = np.array([0, 9, 0, 4], dtype=np.uint64)
    values = np.array([0.0, 0.5, 0.0, 0.1], dtype=np.float64)
    k, v = compact_table(keys, values)
    assert k.tolist() == [4, 9] and v.dtype == np.float64 and v.tolist() == [0.1, 0.5]
    k, v = compact_table(keys, np.array([0.0, 0.5, 0.0, 0.25]))
    assert v.dtype == np.float32 and v.tolist() == [0.25, 0.5]


@pytest.mark.parametrize("damage", ["metadata a number", "metadata a string", "n_outcomes 1e308", "n_outcomes 2**70",
                                    "n_outcomes true", "context_length 1.5"])
def test_damaged_generative_metadata_is_a_model_file_error(model: GenerativeModel, damage: str) -> None:
    """Metadata that is not an object, or a model spec whose sizes are not integers in range, is refused
    as a damaged file (they raised AttributeError and OverflowError)."""
    metadata, arrays = model.to_arrays()
    specs = [dict(s) for s in metadata["models"]]
    damaged: object = dict(metadata, models=specs)
    if damage == "metadata a number":
        damaged = -1
    elif damage == "metadata a string":
        damaged = "NN"
    elif damage == "n_outcomes 1e308":
        specs[0]["n_outcomes"] = 1e308
    elif damage == "n_outcomes 2**70":
        specs[1]["n_outcomes"] = 2**70
    elif damage == "n_outcomes true":
        specs[0]["n_outcomes"] = True
    else:
        specs[0]["context_length"] = 1.5
    with pytest.raises(ModelFileError, match="generative model"):
        GenerativeModel.from_arrays(damaged, arrays)  # type: ignore[arg-type]
    assert GenerativeModel.from_arrays(metadata, arrays).specs == model.specs
