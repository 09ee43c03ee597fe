"""Checksums that tie a model directory's files together: its ``metadata.json`` to itself, a sub-model to its parent
(and :func:`parts_digest`, a model's digest before it is written; :func:`json_problem`, where metadata to be
written holds what JSON cannot, so that the error names the place: ``metadata['config']['eps']``; :func:`json_keys`,
metadata with its keys as JSON writes them, before it is sealed).

``weights_sha256`` (:mod:`glmnlp.glm.model_io`) ties ``weights.npz`` to ``metadata.json``, but nothing tied
``metadata.json`` itself or a sub-model folder to the model, so content that still looked valid loaded and gave
wrong results with status 0: a tagger's tag list with two tags swapped tagged ``The/NN dog/DT``, a parser's
``features`` changed from ``punct`` to ``baseline`` changed 15 of 30 trees, and a combined parser with the
``generative/`` folder of another model (same kind, another training set) parsed at F1 40.23 instead of 58.64 and
gave ``The`` a surprisal of 30.78 bits instead of 2.37. Two fields close that:

``metadata_sha256``
    sha256 of the header's canonical JSON (sorted keys, no spaces) without this field; :func:`check_seal` compares.
``submodel_sha256``
    ``{name: the sub-model's metadata_sha256}``: a parent pins each sub-model's header, whose own seal pins its
    weights, so the whole tree is one chain of checksums (:func:`check_pin`).

Files written before these fields existed (they have neither) load as before; a file with them must match them.
They guard against accidents (an edit, a copied folder), not against someone who recomputes them.
"""

from __future__ import annotations

import hashlib
import json
import math
from pathlib import Path
from collections.abc import Mapping
from typing import Any

import numpy as np

from glmnlp.errors import ModelFileError

__all__ = ["header_digest", "check_seal", "check_pin", "json_problem", "json_keys", "parts_digest"]

SEAL = "metadata_sha256"
PINS = "submodel_sha256"


def header_digest(header: dict[str, Any]) -> str:
    """The ``metadata_sha256`` of a header: its canonical JSON without the field itself."""
    body = {key: value for key, value in header.items() if key != SEAL}
    text = json.dumps(body, sort_keys=True, ensure_ascii=False, separators=(",", ":"))  # NaN: a foreign file
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def check_seal(path: Path, header: dict[str, Any]) -> None:
    """Raise :class:`ModelFileError` if the header at ``path`` has a seal (or pins) that do not match it."""
    seal = header.get(SEAL)
    if seal is None:
        return
    if not isinstance(seal, str) or seal != header_digest(header):
        raise ModelFileError(f"{path}: changed after it was written ({SEAL} does not match): a model's files are "
                             "written by glmnlp and not edited; train it again, or give settings such as the beam "
                             "as options (glmnlp parse --gamma, --cap)")
    pins = header.get(PINS, {})
    if not isinstance(pins, dict) or not all(isinstance(k, str) and isinstance(v, str) for k, v in pins.items()):
        raise ModelFileError(f"{path}: field {PINS!r} must map sub-model names to checksums")


def check_pin(parent: Path, header: dict[str, Any], name: str, sub_header: dict[str, Any]) -> None:
    """Raise :class:`ModelFileError` unless the sub-model ``name`` (header ``sub_header``) is the one the model at
    ``parent`` (header ``header``) was saved with."""
    pin = header.get(PINS, {}).get(name) if isinstance(header.get(PINS), dict) else None
    if pin is None:
        return
    if sub_header.get(SEAL) != pin:
        raise ModelFileError(f"{parent / name}: not the {name!r} sub-model {parent / 'metadata.json'} was saved "
                             "with (another model's, or written apart from it): a model's sub-models are not "
                             "exchanged between models")


def parts_digest(parts: list[tuple[dict[str, Any], Mapping[str, np.ndarray]]]) -> str:
    """sha256 over (JSON metadata, named arrays) parts, such as the ``to_parts()`` of a model: each
    array's name, dtype, shape and bytes. Two trainings that must give the same model are compared by
    it (tests/test_generative_reproducible.py, benchmarks/memory.py), without writing files."""
    digest = hashlib.sha256()
    for meta, arrays in parts:
        digest.update(json.dumps(meta, sort_keys=True).encode())
        for name in sorted(arrays):
            a = np.ascontiguousarray(arrays[name])
            digest.update(f"{name}:{a.dtype.str}:{a.shape}".encode())
            digest.update(a.tobytes())
    return digest.hexdigest()


def json_problem(value: Any, at: str = "metadata") -> str | None:
    """Where ``value`` holds what a model's JSON header cannot (NaN or infinity, a key JSON cannot write, text that
    is not UTF-8 (a lone surrogate), a value of another type than str, int, float, bool, None, list, tuple or dict),
    and why; None if nowhere."""
    if isinstance(value, dict):
        for key, item in value.items():
            if not isinstance(key, (str, int, float, bool)) and key is not None:
                return f"{at}: the key {key!r} is a {type(key).__name__}"
            if (found := _scalar_problem(key, f"{at}: the key {key!r}")) is not None:
                return found
            if (found := json_problem(item, f"{at}[{key!r}]")) is not None:
                return found
        return None
    if isinstance(value, (list, tuple)):
        return next((found for k, item in enumerate(value) if (found := json_problem(item, f"{at}[{k}]"))), None)
    if value is None or isinstance(value, (str, int, float)):
        return _scalar_problem(value, f"{at}: {value}" if isinstance(value, float) else f"{at}: the text")
    kind = type(value).__qualname__
    kind = kind if type(value).__module__ == "builtins" else f"{type(value).__module__}.{kind}"  # numpy.bool_
    return (f"{at}: a {kind} (JSON holds str, int, float, bool, None, lists and dicts; a numpy number is one after "
            ".item())")


def _scalar_problem(value: Any, what: str) -> str | None:
    """Why the key or value ``value`` (``what``: how the message names it) cannot be written to JSON, or None."""
    if isinstance(value, float) and not math.isfinite(value):
        return f"{what} is not a JSON number"
    if isinstance(value, str):
        try:
            value.encode("utf-8")
        except UnicodeEncodeError as exc:
            return f"{what} holds a lone surrogate {value[exc.start]!r} at character {exc.start} (not text)"
    return None


def _key_text(key: Any) -> Any:
    """The key as JSON writes it (``1`` -> ``"1"``, ``True`` -> ``"true"``, ``None`` -> ``"null"``); a key JSON
    cannot write is given back as it is, for :func:`json_problem` to name."""
    if isinstance(key, bool) or key is None:
        return json.dumps(key)
    if isinstance(key, int):
        return int.__repr__(key)
    if isinstance(key, float) and math.isfinite(key):
        return float.__repr__(key)
    return key


def json_keys(value: Any, at: str = "metadata", _inside: frozenset[int] = frozenset()) -> Any:
    """``value`` with every dict key as the string JSON writes for it, as the file reads back.

    The seal is computed over sorted keys: number keys sorted as numbers (2 before 10) when saved and as strings
    when read back gave a seal that did not match, so such a model could not be loaded; and keys of both kinds
    (``{0: ..., "name": ...}``) could not be sorted at all. Two keys that JSON writes alike (``1`` and ``"1"``)
    would lose one value: a ValueError naming them."""
    if isinstance(value, Mapping | list | tuple):
        if id(value) in _inside:  # a container within itself was a RecursionError
            raise ValueError(f"{at}: holds itself (a cycle JSON cannot write)")
        _inside = _inside | {id(value)}
    if isinstance(value, Mapping):
        out: dict[Any, Any] = {}
        given: dict[Any, Any] = {}
        for key, item in value.items():
            text = _key_text(key)
            if text in out:
                raise ValueError(f"{at}: the keys {given[text]!r} and {key!r} are both written {text!r} in JSON")
            given[text] = key
            out[text] = json_keys(item, f"{at}[{key!r}]", _inside)
        return out
    if isinstance(value, (list, tuple)):
        return [json_keys(item, f"{at}[{k}]", _inside) for k, item in enumerate(value)]
    return value
