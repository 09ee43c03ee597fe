"""The tagger's model files (``kind = "tagger"``, :mod:`glmnlp.glm.model_io`): config, tags, templates
and training history in ``metadata.json``; the string table, feature keys, the tag dictionary and
the non-zero averaged weights (ids + values) in ``weights.npz``.

Reading validates every array against the metadata before it is used (sizes, id ranges, the
templates of this version), so a damaged or foreign file is one :class:`~glmnlp.errors.ModelFileError`
naming the file. The functions take the tagger (or its class) as an argument and never import
:mod:`glmnlp.tagger.model`, which calls them from ``Tagger.to_parts``/``Tagger.from_parts``.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import numpy as np

from glmnlp.errors import ConfigError, ModelFileError
from glmnlp.glm.features import FeatureIndex, StringStore, Template
from glmnlp.glm.training import EpochRecord
from glmnlp.tagger.config import TaggerConfig
from glmnlp.tagger.features import ATOM_NAMES, N_ATOMS, templates_for

__all__ = ["TAGGER_ARRAYS", "tagger_from_parts", "tagger_to_parts"]

#: The arrays of a tagger's files
TAGGER_ARRAYS = ("strings_blob", "strings_ends", "feature_keys", "pair_feature_keys", "weight_ids", "weight_values",
                 "tagdict_word_ids", "tagdict_masks", "ambiguity_word_ids", "ambiguity_class_ids")


def tagger_to_parts(self: Any) -> tuple[dict[str, Any], dict[str, np.ndarray]]:
    """(metadata, arrays) of a trained tagger for :func:`glmnlp.glm.model_io.save_model` (also a sub-model)."""
    self._check_fitted()
    flat = self._weights.reshape(-1)
    nonzero = np.flatnonzero(flat)
    id_dtype = np.uint32 if flat.shape[0] < 2**32 else np.int64
    words = np.flatnonzero(self._known)
    config = dataclasses.asdict(self.config)
    if self.config.shards == 1:  # serially trained models keep the format they always had
        del config["shards"], config["mixing"]
    metadata: dict[str, Any] = {
        "config": config,
        "tags": list(self.tags_),
        "open_tags": list(self.open_tags_),
        "atoms": list(ATOM_NAMES),
        "templates": [[t.name, list(t.atoms)] for t in self.index_.templates],
        "averaged": True,
        "best_epoch": self.best_epoch_,
        "history": [
            {"epoch": r.epoch, "examples": r.examples, "mistakes": r.mistakes, "dev_accuracy": r.dev_score}
            for r in self.history_
        ],
        "n_rows": int(self._weights.shape[0]),
    }
    if self.tag_column_ is not None:  # written only when known, so that every other model keeps its bytes
        if self.tag_column_ not in ("xpos", "upos"):  # it saved, and the load refused it
            raise ConfigError(f"tag_column_ must be 'xpos', 'upos' or None, not {self.tag_column_!r}")
        metadata["tag_column"] = self.tag_column_
    arrays = {
        **self.store_.to_arrays("strings"),
        "feature_keys": self.index_.to_array(),
        "pair_feature_keys": self.pair_index_.to_array(),
        "weight_ids": nonzero.astype(id_dtype),
        "weight_values": flat[nonzero],
        "tagdict_word_ids": words.astype(np.int64),
        "tagdict_masks": self._cand_table[words],
        "ambiguity_word_ids": np.array([self.store_.get(w) for w in self._ambiguity], dtype=np.int64),
        "ambiguity_class_ids": np.array([self.store_.get(c) for c in self._ambiguity.values()], dtype=np.int64),
    }
    return metadata, arrays


def _tag_list(value: Any, name: str, source: str) -> list[str]:
    """``value`` as a non-empty list of tag strings; ModelFileError otherwise (an empty open-tag list
    would leave unknown words without a candidate tag at parse time, a string would be read as letters)."""
    if not isinstance(value, list) or not value or not all(isinstance(t, str) and t for t in value):
        raise ModelFileError(f"{source}: {name} must be a non-empty list of tag names")
    return list(value)


def tagger_from_parts(cls: Any, metadata: dict[str, Any], arrays: dict[str, np.ndarray], source: str = "<model>") -> Any:
    """Rebuild a tagger of class ``cls`` from :func:`tagger_to_parts` output, validating every array."""
    try:
        config = TaggerConfig(**metadata["config"])
        tags = _tag_list(metadata["tags"], "tags", source)
        open_tags = _tag_list(metadata["open_tags"], "open_tags", source)
        if len(set(tags)) != len(tags):
            raise ModelFileError(f"{source}: the tag set repeats a tag")
        if not set(open_tags) <= set(tags):
            raise ModelFileError(f"{source}: open_tags names tags outside the model's tag set")
        templates = [Template(str(name), tuple(int(a) for a in atoms)) for name, atoms in metadata["templates"]]
        expected = templates_for(config.feature_set)
        if tuple(templates) != expected or list(metadata["atoms"]) != list(ATOM_NAMES):
            raise ModelFileError(f"{source}: feature templates differ from this version's tagger")
        if metadata.get("averaged") is not True:
            raise ModelFileError(f"{source}: weights are not averaged")
        T = len(tags)
        store = StringStore.from_arrays(arrays, "strings")
        index = FeatureIndex.from_array(expected, N_ATOMS, arrays["feature_keys"], atom_values=len(store))
        pair_index = FeatureIndex.from_array(
            templates_for(config.feature_set, previous_tag=True), N_ATOMS, arrays["pair_feature_keys"],
            atom_values=len(store),
        )
        tagger = cls(config)
        tagger._init_tables(store, index, pair_index, tags, open_tags)
        n_rows = int(metadata["n_rows"])
        if n_rows != tagger._n_rows():
            raise ModelFileError(f"{source}: weight table size does not match the feature index")
        flat = np.zeros(n_rows * T, dtype=np.float64)
        ids = arrays["weight_ids"].astype(np.int64)
        if ids.size and (ids.min() < 0 or ids.max() >= flat.shape[0]):
            raise ModelFileError(f"{source}: weight ids out of range")
        values = arrays["weight_values"]
        if values.shape != ids.shape or values.dtype.kind != "f" or not np.isfinite(values).all():
            # a NaN weight ranks every tag as no tag at all: wrong tags, silently
            raise ModelFileError(f"{source}: weight values must be finite floats, one for each weight id")
        flat[ids] = values
        tagger._weights = flat.reshape(n_rows, T)
        words = arrays["tagdict_word_ids"]
        masks = arrays["tagdict_masks"]
        if masks.shape != (words.shape[0], T) or (words.size and (words.min() < 2 or words.max() >= len(store))):
            raise ModelFileError(f"{source}: tag dictionary arrays are inconsistent")
        if masks.dtype.kind not in "bu" or (masks.size and masks.max() > 1):  # 256 as int16, 0.5 as a float: both
            # passed the check below and became 0 in the table (no candidate tag: a traceback at the first word)
            raise ModelFileError(f"{source}: tag dictionary masks must be 0/1 values (bool or unsigned integers)")
        if masks.size and not masks.any(axis=1).all():  # it loaded, and tagging the word failed ("no candidate tag")
            raise ModelFileError(f"{source}: a tag dictionary row allows no tag")
        table = np.repeat(tagger._open_mask[None, :], len(store), axis=0)
        table[words] = masks
        known = np.zeros(len(store), dtype=bool)
        known[words] = True
        tagger._cand_table = table
        tagger._known = known
        tagger._vocabulary = frozenset(store[w] for w in words.tolist())
        amb_words, amb_classes = arrays["ambiguity_word_ids"], arrays["ambiguity_class_ids"]
        if amb_words.shape != amb_classes.shape or (
            amb_words.size and min(amb_words.min(), amb_classes.min()) < 2
        ) or (amb_words.size and max(amb_words.max(), amb_classes.max()) >= len(store)):
            raise ModelFileError(f"{source}: ambiguity-class arrays are inconsistent")
        tagger._ambiguity = {
            store[w]: store[c] for w, c in zip(amb_words.tolist(), amb_classes.tolist(), strict=True)
        }
        vocabulary = [store[w] for w in words.tolist()]
        tagger._local_atoms(vocabulary, add=False)  # cache the training vocabulary's atoms
        tagger._n_vocab_types = len(vocabulary)
        tagger.best_epoch_ = int(metadata.get("best_epoch", 0))
        column = metadata.get("tag_column")
        if column not in (None, "xpos", "upos"):
            raise ModelFileError(f"{source}: tag_column must be 'xpos' or 'upos', not {column!r}")
        tagger.tag_column_ = column
        # kept, so that a loaded tagger saved again writes the same file (seconds were never stored)
        tagger.history_ = [EpochRecord(epoch=int(r["epoch"]), examples=int(r["examples"]), mistakes=int(r["mistakes"]),
                                       seconds=0.0, dev_score=r["dev_accuracy"]) for r in metadata.get("history", [])]
        tagger._fitted = True
        return tagger
    except ModelFileError:
        raise
    except (KeyError, TypeError, ValueError, IndexError, OverflowError, ConfigError) as exc:  # n_rows 1e400: inf
        raise ModelFileError(f"{source}: inconsistent tagger model: {exc!r}") from None
