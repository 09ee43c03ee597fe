"""The parser's model files (``kind = "glmnlp-parser"``, :mod:`glmnlp.glm.model_io`): config, grammar, punctuation
tags, extra chains, feature templates and training history in ``metadata.json``; the non-zero hashed weights (slots +
values) in ``weights.npz``; a generative term, if any, as the ``generative`` sub-model.

Reading validates the metadata and every array before anything is allocated from them (the config's types and
ranges, the table size, ascending in-range slots), so a damaged or foreign file is one
:class:`~glmnlp.errors.ModelFileError` naming the file. The functions take the parser (or its class) as an argument
and never import :mod:`glmnlp.parser.model`, whose ``Parser.save``/``load``/``describe`` call them.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import asdict
from pathlib import Path
from typing import Any

import numpy as np

from glmnlp.errors import ConfigError, ModelFileError
from glmnlp.glm.model_io import (
    ModelParts, load_model, load_submodel, read_metadata, save_model, verify_model, verify_submodel,
)
from glmnlp.parser.config import ATOM_DOC, RANGES, TEMPLATES, ParserConfig, check_values
from glmnlp.parser.grammar import Grammar
from glmnlp.parser.generative import NODE_MODEL
from glmnlp.parser.term import GEN_KIND, GenerativeTerm

__all__ = ["MODEL_KIND", "describe_parser", "load_parser", "save_parser"]

MODEL_KIND = "glmnlp-parser"
#: The arrays of a parser's files (``weights``: the dense table of older files), and of its generative term's
PARSER_ARRAYS = ("weight_index", "weight_value", "weights")
GENERATIVE_ARRAYS = ("hist_keys", "hist_vals", "pair_keys", "pair_vals", "floor_logprob", "lambdas", "bin_edges")


def save_parser(
    parser: Any, path: str | Path, *, history: Sequence[dict[str, Any]] = (), prune: float = 0.0,
    replace: bool = True,
) -> None:
    """Write the model directory (JSON metadata + npz arrays; no pickle) atomically.

    ``path`` must be absent, empty or (with ``replace``) a parser model and nothing else
    (:func:`glmnlp.glm.model_io.check_output_dir`); anything else is refused and left untouched.

    The hashed weight table is stored sparsely: ``weight_index`` (uint32, strictly ascending)
    lists the slots with ``|w| > prune`` and ``weight_value`` their weights, as float32 when every
    one of them is exactly a float32 (the default-model recipe rounds to float32 precision before
    it measures, for a file half the size) and float64 otherwise; :func:`load_parser` rebuilds the dense table.
    ``prune = 0`` keeps every non-zero weight, so the loaded model parses exactly as this one; ``prune > 0`` drops
    small weights for a smaller file.
    """
    if not (prune >= 0.0 and math.isfinite(prune)):
        raise ValueError(f"prune must be a finite number >= 0, got {prune!r}")
    index = np.flatnonzero(np.abs(parser.weights) > prune).astype(np.uint32)
    values: np.ndarray = np.ascontiguousarray(parser.weights[index], dtype=np.float64)  # float64 or float32
    single = values.astype(np.float32)
    if np.array_equal(single.astype(np.float64), values):
        values = single
    cfg = asdict(parser.config)
    cfg["fslc_extra_pairs"] = [list(p) for p in parser.config.fslc_extra_pairs]
    if parser.config.shards == 1:  # serially trained models keep the format they always had
        del cfg["shards"], cfg["mixing"]
    metadata = {
        "config": cfg,
        "grammar": parser.grammar.to_json(),
        "punct_tags": sorted(parser.punct_tags),
        "extra_chains": [list(c) for c in parser._chains],
        "templates": TEMPLATES,
        "template_groups_active": ["nonpos", "pos"] + (["punct"] if parser._punct else []),
        "atoms": ATOM_DOC,
        "hashing": f"64-bit multiply-xorshift fold, murmur3 finaliser, table of 2**{parser.config.n_bits}",
        "history": list(history),
        "weight_storage": {"format": "sparse", "table_size": int(parser.weights.shape[0]), "prune": prune,
                           "stored": int(index.shape[0])},
    }
    submodels = {}
    if parser.generative is not None:
        gen_meta, gen_arrays = parser.generative.to_parts()
        submodels["generative"] = ModelParts(kind=GEN_KIND, metadata=gen_meta, arrays=gen_arrays)
    save_model(path, kind=MODEL_KIND, metadata=metadata, arrays={"weight_index": index, "weight_value": values},
               submodels=submodels, replace=replace)


def load_parser(cls: Any, path: str | Path) -> Any:
    """A ``cls`` (:class:`~glmnlp.parser.model.Parser`) read from a model directory written by :func:`save_parser`."""
    metadata, arrays = load_model(path, kind=MODEL_KIND, names=PARSER_ARRAYS, user="glmnlp.Parser.load")
    meta_path = Path(path) / "metadata.json"
    try:
        cfg = dict(metadata["config"])
        _check_config(cfg)
        cfg["fslc_extra_pairs"] = tuple(tuple(p) for p in cfg["fslc_extra_pairs"])
        config = ParserConfig(**cfg)
        grammar = Grammar.from_json(metadata["grammar"])
        punct = metadata["punct_tags"]
        if not isinstance(punct, list) or not all(isinstance(t, str) for t in punct):
            raise ValueError("punct_tags must be a list of tag strings")
        chains = metadata["extra_chains"]
        n_cats = len(grammar.categories)
        if not isinstance(chains, list) or not all(
            isinstance(c, list) and c and all(type(x) is int and 0 <= x < n_cats for x in c) for c in chains
        ):
            raise ValueError(f"extra_chains must be non-empty lists of category ids in 0..{n_cats - 1}")
        parser = cls(
            grammar, set(punct), _dense_weights(arrays, 1 << config.n_bits, path, metadata), config,
            extra_chains=[tuple(c) for c in chains],
        )
        history = metadata.get("history", [])
        if not isinstance(history, list) or not all(isinstance(h, dict) for h in history):
            raise ValueError("history must be a list of objects")
        prune = metadata.get("weight_storage", {}).get("prune", 0.0)
        if isinstance(prune, bool) or not isinstance(prune, (int, float)) or not (0.0 <= prune < math.inf):
            raise ValueError(f"weight_storage.prune must be a finite number >= 0, got {prune!r}")
    except ModelFileError as exc:
        raise ModelFileError(f"{meta_path}: {exc}" if str(path) not in str(exc) else str(exc)) from None
    except (KeyError, TypeError, ValueError, IndexError, ConfigError) as exc:
        raise ModelFileError(f"{meta_path}: not a valid parser model: {exc}") from None
    parser.history = list(history)
    parser.weight_prune = float(prune)
    if "generative" in read_metadata(path).get("submodels", {}):
        gen_meta, gen_arrays = load_submodel(path, "generative", kind=GEN_KIND, names=GENERATIVE_ARRAYS)
        try:
            parser.generative = GenerativeTerm.from_parts(gen_meta, gen_arrays)
            if parser.generative.model.specs[NODE_MODEL].n_outcomes != len(parser.grammar.categories):
                # another grammar's node model: wrong trees and surprisals of NA, with status 0
                raise ModelFileError("generative term: node model size does not match the grammar's categories")
        except ModelFileError as exc:
            raise ModelFileError(f"{Path(path) / 'generative' / 'metadata.json'}: {exc}") from None
    return parser


def describe_parser(path: str | Path) -> dict[str, Any]:
    """``generative``, ``parse_nbest``, ``pos_tags`` of the model at ``path``, unbuilt (checksums checked)."""
    header = verify_model(path, kind=MODEL_KIND, user="glmnlp.Parser.load")
    if generative := "generative" in header.get("submodels", {}):
        verify_submodel(path, "generative", kind=GEN_KIND)
    tags = grammar.get("pos_tags") if isinstance(grammar := header["metadata"].get("grammar"), dict) else None
    if not isinstance(tags, list) or not all(isinstance(t, str) for t in tags):  # load_parser() says more
        raise ModelFileError(f"{Path(path) / 'metadata.json'}: not a valid parser model: no grammar pos_tags")
    return {"generative": generative, "parse_nbest": True, "pos_tags": frozenset(tags)}


def _check_config(cfg: dict[str, Any]) -> None:
    """Check a stored ParserConfig's fields (types and sane ranges) before anything is allocated from them."""

    try:  # the ranges ParserConfig's constructor checks (a missing field is None: refused)
        check_values({name: cfg.get(name) for name in (*RANGES, "early_update", "cache") if name != "shards"})
    except ConfigError as exc:
        raise ValueError(f"config {exc}") from None
    pairs = cfg.get("fslc_extra_pairs")
    if not isinstance(pairs, list) or not all(
        isinstance(p, list) and len(p) == 2 and all(isinstance(x, str) for x in p) for p in pairs
    ):
        raise ValueError("config fslc_extra_pairs must be a list of [label, label] pairs")


def _dense_weights(arrays: dict[str, np.ndarray], size: int, path: str | Path, meta: dict[str, Any]) -> np.ndarray:
    """The dense weight table of a model file (sparse (index, value) arrays, or a dense ``weights`` array) of the
    size ``n_bits`` gives: any other recorded size means an edited file (weights in other features' slots)."""
    storage = meta.get("weight_storage", {})
    if not isinstance(storage, dict):
        raise ValueError(f"weight_storage must be an object, got {storage!r}")
    if (declared := storage.get("table_size", size)) != size:
        raise ValueError(f"the weight table's size ({declared!r}) is not 2**n_bits = {size}")
    if "weights" in arrays:  # dense tables written before the sparse format
        dense = arrays["weights"]
        if dense.shape != (size,) or dense.dtype not in (np.float32, np.float64):
            raise ValueError(f"the dense weight table must be float32 or float64 of shape ({size},), got "
                             f"{dense.dtype} of shape {dense.shape}")
        if not np.isfinite(dense).all():
            raise ValueError("the weight table holds values that are not finite numbers")
        return dense
    index, values = arrays.get("weight_index"), arrays.get("weight_value")
    if index is None or values is None:
        raise ModelFileError(f"{path}: parser model has no weight_index/weight_value arrays")
    if (index.ndim != 1 or index.shape != values.shape or index.dtype != np.uint32
            or values.dtype not in (np.float32, np.float64)):
        raise ModelFileError(f"{path}: weight_index must be uint32 and weight_value float32 or float64, both 1-D of "
                             "one length")
    if index.shape[0] and (int(index[-1]) >= size or bool(np.any(index[1:] <= index[:-1]))):
        raise ModelFileError(f"{path}: weight_index must be strictly ascending and below the table size {size}")
    if not np.isfinite(values).all():  # a NaN weight makes every hypothesis it touches rank as it may: wrong trees
        raise ModelFileError(f"{path}: weight_value holds values that are not finite numbers")
    dense = np.zeros(size, dtype=np.float64)
    dense[index] = values
    dense.flags.writeable = False  # finished: the parser takes it without a copy (Parser.weights)
    return dense
