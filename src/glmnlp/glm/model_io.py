"""Model files: a directory holding ``metadata.json`` and ``weights.npz``, versioned and validated.

Why this format: pickled or unversioned binary models are a security hole and silently change
meaning between releases (NLTK's pickled tagger models led to CVE-2024-39705; thinc's binary format
has no version). A glmnlp model is instead

``metadata.json``
    ``{"format": "glmnlp-model", "format_version": 1, "kind": ..., "library_version": ...,
    "metadata": {...the caller's: config, vocabularies, templates, history...},
    "arrays": {name: {"shape": [...], "dtype": "<f8"}}, "weights_sha256": ...,
    "submodels": {name: kind}, "submodel_sha256": {name: ...}, "metadata_sha256": ...}``
``weights.npz``
    the named numpy arrays, loaded with ``allow_pickle=False`` (object arrays are refused on save).
``<name>/``
    optional sub-models (e.g. a parser model that carries its own tagger), each a complete model
    directory of its own, listed in the parent's ``submodels`` (``docs/model_files.md``: every field).

Our choices:

* **Determinism.** ``numpy.savez`` stamps each zip member with the current time, so two saves of the
  same weights differ. We write the zip ourselves with a fixed member date (1980-01-01) and
  sorted member names, and ``metadata.json`` with sorted keys and no timestamps: the same weights
  and metadata give byte-identical files.
* **Atomicity.** Everything (sub-models included) is written into a temporary directory next to the
  target and then renamed into place. An existing model at the target is first renamed aside and
  removed only after the new one is in place, so a crash never leaves a half-written model at the
  target path (at worst the old model survives under a hidden ``.name.glmnlp-old-PID-*`` name).
* **Never delete what glmnlp did not write** (:func:`check_output_dir`). The target must be absent,
  an empty directory, or a glmnlp model of the same kind that holds nothing but its own files
  (``metadata.json``, ``weights.npz`` and its listed sub-models; for a pipeline directory
  ``MODEL.json`` and the files its checksums list). Anything else (a folder with other files, a
  model of another kind, a file, a symbolic link, the current directory or one of its parents) is
  refused with a one-line error (kinds named as :func:`~glmnlp.glm.model_files.kind_name` names them: a tagger, a
  parser model), even with ``replace``/``--force``; so is a model that is a listed part of
  another (a pipeline's ``parser/``, a parser's ``generative/``), which replaced alone left the whole model
  unloadable (``glmnlp parser train --out my_model/parser --force``: ``MODEL.json``'s checksums named the old
  files). Replacing a model is allowed by default in the library (``save(path)`` twice) and needs ``--force`` on
  the command line.
* **Checked before the work.** :func:`check_output_dir` also creates (and removes) a probe file in
  the folder that will hold the target: a missing, read-only or immutable folder, or a file where
  the folder should be, is refused by the trainers before training, not after it.
* **Leftovers of killed runs.** Temporary folders are named ``.NAME.glmnlp-tmp-PID-*`` /
  ``.NAME.glmnlp-old-PID-*`` (NAME shortened for a long name: :func:`glmnlp.treebank.fileio.temp_stem`); the next
  save to NAME removes those whose process no longer runs (they were written by glmnlp, so removing them deletes
  nothing of the user's), except an ``old`` folder when NAME itself is missing: a run killed between its two
  renames left the user's only copy there, and the next save deleted it; it is put back at NAME first, and the
  save then finds it there as it would have.
* **Permissions.** ``tempfile.mkdtemp`` creates 0700 folders; the staging folder gets the usual
  ``0777 & ~umask`` so a model is ordinary readable data.
* **Compression: LZMA members.** Each array is an LZMA-compressed zip member (``zipfile.ZIP_LZMA``,
  Python's standard library, so reading needs nothing beyond it). Measured on the bundled default
  model before its 8-pass retraining: its arrays took 7.78 MB with LZMA against 11.15 MB with deflate
  level 6 (byte shuffling plus delta coding plus deflate: 9.18 MB; today's bundled arrays: 8.9 MB with
  LZMA); loading is about 0.2 s slower and saving a few seconds
  slower, paid once per training. Archives with deflated members (earlier releases) still load;
  any other zip method is refused.
* **Integrity.** ``load_model`` checks the format name, the format version, the kind, the sha256
  checksum of ``weights.npz``, every array's name (``names``), shape and dtype against ``metadata.json``, and
  ``metadata.json`` against its own checksum (:mod:`glmnlp.glm.model_seals`); :func:`load_submodel` also checks
  a sub-model's against the pin its parent holds (``load_model`` of a sub-model's folder alone cannot). Any
  mismatch, truncation, edit or foreign file raises :class:`~glmnlp.errors.ModelFileError` naming the file; a folder
  of another kind (a pipeline's too) is :func:`~glmnlp.glm.model_files.wrong_kind`'s refusal, naming the folder and
  the caller's name for the loader (``user``: ``glmnlp.Parser.load``), as every command's ``-m`` names it.
"""

from __future__ import annotations

import hashlib
import io
import json
import os
import re
import shutil
import tempfile
import zipfile
from collections.abc import Collection, Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from glmnlp._version import __version__
from glmnlp.errors import ConfigError, ModelFileError
from glmnlp.glm.model_files import (FORMAT_NAME, METADATA_FILE, PIPELINE_FILE, PIPELINE_KIND, WEIGHTS_FILE,
                                    check_model_directory, directory_kind, held_kind, holds_pipeline, kind_name,
                                    model_files, model_json, pipeline_files, read_member, read_model_file, wrong_kind)
from glmnlp.glm.model_seals import check_pin, check_seal, header_digest, json_keys, json_problem, parts_digest
from glmnlp.glm.pools import interrupts_deferred
from glmnlp.treebank.fileio import (check_name_length, check_writable_folder, dead_leftovers, missing_folders,
                                    remove_folders, temp_stem, umask)

__all__ = ["FORMAT_NAME", "FORMAT_VERSION", "ModelParts", "save_model", "load_model", "load_submodel",
           "verify_submodel", "read_metadata", "verify_model", "check_output_dir", "check_model_directory",
           "staged_output_dir", "PIPELINE_KIND", "PIPELINE_FILE", "parts_digest"]

FORMAT_VERSION = 1
_ZIP_DATE = (1980, 1, 1, 0, 0, 0)
_ZIP_METHOD = zipfile.ZIP_LZMA
#: The most a member can expand per compressed byte under each method a model file may use: bounds the
#: allocation for a member before it is read (deflate's limit is about 1032:1; LZMA measured 6,843:1 on
#: 200 MB of zeros).
_MAX_EXPANSION = {zipfile.ZIP_STORED: 1, zipfile.ZIP_DEFLATED: 1100, zipfile.ZIP_LZMA: 10_000}
Loaded = tuple[dict[str, Any], dict[str, np.ndarray]]  # a model's metadata and arrays, as load_model gives them
# DOTALL: a name may hold a newline (a killed run's folders of such a name were never removed, nor put back)
_STAGING = re.compile(r"\.(?P<name>.+)\.glmnlp-(?:tmp|old)-(?P<pid>[0-9]+)-[A-Za-z0-9_]+", re.DOTALL)


@dataclass(frozen=True)
class ModelParts:
    """One (sub-)model to save: its kind, JSON-able metadata, named arrays and nested sub-models."""

    kind: str
    metadata: Mapping[str, Any]
    arrays: Mapping[str, np.ndarray]
    submodels: Mapping[str, ModelParts] = field(default_factory=dict)


def _npz_bytes(arrays: Mapping[str, np.ndarray]) -> bytes:
    """Serialise ``arrays`` as a deterministic ``.npz`` archive of LZMA-compressed members."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=_ZIP_METHOD, allowZip64=True) as archive:
        for name in sorted(arrays):
            array = arrays[name]  # C-contiguous (_check_arrays)
            member = io.BytesIO()
            np.lib.format.write_array(member, array, allow_pickle=False)
            info = zipfile.ZipInfo(f"{name}.npy", date_time=_ZIP_DATE)
            info.compress_type = _ZIP_METHOD
            info.external_attr = 0o644 << 16
            archive.writestr(info, member.getvalue())
    return buffer.getvalue()


def _check_arrays(arrays: Mapping[str, np.ndarray]) -> dict[str, np.ndarray]:
    checked: dict[str, np.ndarray] = {}
    for name, value in arrays.items():
        if not isinstance(name, str) or not name or "/" in name or name.startswith(".") or not name.isprintable():
            raise ValueError(f"invalid array name {name!r}")  # "x\0y" was written as the member "x", never read
        array = np.require(np.asarray(value), requirements="C")  # not ascontiguousarray: it made 0-d arrays 1-d
        if array.dtype.hasobject:
            raise ValueError(f"array {name!r} has dtype object; model files never hold pickled objects")
        checked[name] = array
    return checked


def _write_tree(directory: Path, parts: ModelParts) -> str:
    """Write ``parts`` (recursively) into the existing empty directory ``directory``; return its header's seal."""
    arrays = _check_arrays(parts.arrays)
    blob = _npz_bytes(arrays)
    pins: dict[str, str] = {}
    for name, sub in sorted(parts.submodels.items()):
        if not name or "/" in name or name.startswith(".") or name in (METADATA_FILE, WEIGHTS_FILE):
            raise ValueError(f"invalid sub-model name {name!r}")
        (directory / name).mkdir()
        pins[name] = _write_tree(directory / name, sub)
    header: dict[str, Any] = {
        "format": FORMAT_NAME,
        "format_version": FORMAT_VERSION,
        "kind": parts.kind,
        "library_version": __version__,
        "metadata": json_keys(parts.metadata),
        "arrays": {
            name: {"shape": list(array.shape), "dtype": array.dtype.str} for name, array in sorted(arrays.items())
        },
        "weights_sha256": hashlib.sha256(blob).hexdigest(),
        "submodels": {name: sub.kind for name, sub in sorted(parts.submodels.items())},
        "submodel_sha256": pins,
    }
    try:
        header["metadata_sha256"] = header_digest(header)
        text = json.dumps(header, indent=1, sort_keys=True, ensure_ascii=False, allow_nan=False) + "\n"
    except (TypeError, ValueError) as exc:  # json's own message names the type, not where it is
        raise ValueError(json_problem(header["metadata"]) or f"metadata: {exc}") from None
    (directory / WEIGHTS_FILE).write_bytes(blob)
    (directory / METADATA_FILE).write_text(text, encoding="utf-8")
    return header["metadata_sha256"]


def _fsync_tree(directory: Path) -> None:
    for root, _dirs, files in os.walk(directory):
        for name in files:
            with open(os.path.join(root, name), "rb") as handle:
                os.fsync(handle.fileno())


# -- output directories: what may be replaced --------------------------------------------------------


def _entries(directory: Path) -> set[str]:
    found: set[str] = set()
    for root, dirs, files in os.walk(directory):
        rel = os.path.relpath(root, directory)
        for name in dirs + files:
            found.add(name if rel == "." else f"{rel}/{name}")
    return found


def _listing(names: set[str], limit: int = 3) -> str:
    shown = sorted(names)[:limit]
    return ", ".join(shown) + (f" and {len(names) - limit} more" if len(names) > limit else "")


#: How a refusal to replace a folder at save time names the way to replace it: the library's ``replace=True``, the
#: command line's ``--force`` (set by :func:`glmnlp.cli.main`; the commands check their ``--out`` with it before any
#: work, and a folder made meanwhile by another run was refused at the save with "use replace=True").
REPLACE_OPTION: ContextVar[str] = ContextVar("REPLACE_OPTION", default="replace=True")


def check_output_dir(target: str | Path, kind: str, *, replace: bool, option: str = "--force") -> None:
    """Raise :class:`ConfigError` unless a model of ``kind`` may be written to ``target``.

    Allowed: an absent path, an empty directory, and (only with ``replace``) a glmnlp model of the
    same ``kind`` that holds nothing but its own files. Everything else is refused with one line
    naming ``target`` and the reason; ``option`` is the flag named in the message. The folder that
    will hold ``target`` (or, when it does not exist yet, its nearest existing ancestor) must be a
    directory in which files can be created: a probe file is made there and removed
    (:func:`glmnlp.treebank.fileio.check_writable_folder`), so a trainer fails before training, not after. A
    ``target`` that exists must be writable too: a read-only folder is the user's "do not write here", not a
    folder to replace (the rename that replaces it needs only its parent's permission). A model that a run killed
    between its two renames left aside is first put back at ``target`` (module docstring, leftovers).
    """
    check_name_length(target)
    _restore_interrupted(Path(target))  # a model a killed run left aside is the user's, found at its place
    _check_target(Path(target), kind, replace=replace, option=option)
    check_writable_folder(Path(target).parent, target)
    if Path(target).is_dir():
        check_writable_folder(target)


def _check_target(target: Path, kind: str, *, replace: bool, option: str) -> None:
    if target.is_symlink():
        raise ConfigError(f"{target}: is a symbolic link; give the directory itself (not replaced)")
    if not target.exists():
        return
    if not target.is_dir():
        raise ConfigError(f"{target}: exists and is not a directory (not replaced)")
    here: Path | None
    there: Path | None
    try:  # a deleted working folder is not the target (Path.cwd() was a traceback)
        here, there = Path.cwd().resolve(), target.resolve()
    except OSError:
        here = there = None
    if here is not None and there is not None and (here == there or there in here.parents):
        raise ConfigError(f"{target}: is the current directory or one of its parents; give a new folder name")
    try:
        entries = _entries(target)
    except OSError as exc:
        raise ConfigError(f"{target}: cannot be read: {exc.strerror}") from None
    if not entries:
        return
    found = directory_kind(target)
    if found is None:
        top = {name + ("/" if (target / name).is_dir() else "") for name in entries if "/" not in name}
        raise ConfigError(
            f"{target}: already exists, is not empty and is not a glmnlp model (holds {_listing(top)}); "
            f"glmnlp never deletes what it did not write: choose a new folder"
        )
    if found != kind:
        raise ConfigError(f"{target}: holds a glmnlp {kind_name(found)} model, not a {kind_name(kind)} model "
                          "(not replaced)")
    owned = pipeline_files(target) if kind == PIPELINE_KIND else model_files(target)
    extra = entries - (owned or set())
    if extra:
        raise ConfigError(
            f"{target}: a glmnlp {kind_name(kind)} model with other files in it ({_listing(extra)}); not replaced"
        )
    if not replace:
        raise ConfigError(f"{target}: already exists and is not an empty directory (use {option} to replace it)")
    enclosing = _enclosing_model(target)
    if enclosing is not None:
        raise ConfigError(f"{target}: is part of the glmnlp model {enclosing}, which would no longer load with it "
                          f"replaced alone (its checksums name the old one); write to a new folder")


def _enclosing_model(target: Path) -> Path | None:
    """The model folder listing ``target`` as one of its parts (a pipeline's ``parser/``, a parser's
    ``generative/``), else None."""
    try:
        path = target.resolve()
    except OSError:
        return None
    return path.parent if path.name in (pipeline_files(path.parent) or model_files(path.parent) or ()) else None


def _clean_leftovers(parent: Path, name: str) -> None:
    """Remove ``.NAME.glmnlp-tmp/old-PID-*`` folders of processes that no longer run."""
    for path in dead_leftovers(parent, temp_stem(name), _STAGING):
        if path.is_dir():
            shutil.rmtree(path, ignore_errors=True)


def _restore_interrupted(target: Path) -> None:
    """Put back at ``target``, when it is missing, the newest ``old`` folder a killed run left for it (module
    docstring): the model the run was replacing, renamed aside just before the run was killed."""
    if os.path.lexists(target):
        return
    olds = [p for p in dead_leftovers(target.parent, temp_stem(target.name), _STAGING)
            if ".glmnlp-old-" in p.name and p.is_dir()]
    if olds:
        newest = max(olds, key=lambda p: p.stat().st_mtime_ns)
        try:
            os.rename(newest, target)
        except OSError:
            pass  # left where it is (and not removed: the save below refuses what it cannot check)


@contextmanager
def staged_output_dir(target: str | Path, kind: str, *, replace: bool, option: str = "--force") -> Iterator[Path]:
    """Yield an empty staging folder next to ``target``; on success it replaces ``target`` atomically.

    ``target`` is checked with :func:`check_output_dir` before and again just before the rename.
    On any error the staging folder is removed, and so are the folders made for it, and ``target`` is left as it
    was. Ctrl-C is held back (in the main thread; SIGTERM and SIGHUP too under the command line, which turns them into
    Ctrl-C) while a replaced model is renamed aside and the new one into its place: one between the two renames left
    the user's model under a hidden name only.
    """
    target = Path(target)
    check_output_dir(target, kind, replace=replace, option=option)
    made = missing_folders(target.parent)
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        # the folder that holds it found once it exists (so that "nodir/../m" is checked below as the m it is):
        # "m/../m" reaches it through m itself, which is gone once renamed aside (the new model was left under a
        # hidden name, the old one too, and nothing at m)
        parent = Path(os.path.realpath(target.parent))
        place = parent / target.name
        _clean_leftovers(parent, target.name)
        tmp = Path(tempfile.mkdtemp(prefix=f".{temp_stem(target.name)}.glmnlp-tmp-{os.getpid()}-", dir=parent))
    except OSError as exc:
        raise ConfigError(f"{target}: cannot be written: {exc.strerror or exc}") from exc
    try:
        os.chmod(tmp, 0o777 & ~umask())
        yield tmp
        check_output_dir(target, kind, replace=replace, option=option)
        if place.exists():
            old = Path(tempfile.mkdtemp(prefix=f".{temp_stem(target.name)}.glmnlp-old-{os.getpid()}-", dir=parent))
            os.rmdir(old)
            with interrupts_deferred():  # raised after the swap or its undoing, not between the two renames
                os.rename(place, old)
                try:
                    os.rename(tmp, place)
                except BaseException:
                    os.rename(old, place)
                    raise
                shutil.rmtree(old, ignore_errors=True)
        else:
            os.rename(tmp, place)
    except OSError as exc:  # the model's files could not be written (a full disk, a quota): named by the target
        _remove_staging(tmp, made)
        raise ConfigError(f"{target}: cannot be written: {exc.strerror or exc}") from exc
    except BaseException:
        _remove_staging(tmp, made)
        raise


def _remove_staging(tmp: Path, made: list[Path]) -> None:
    """Remove the staging folder ``tmp`` and the folders ``made`` for it (deepest first), as far as they are empty:
    a model that could not be written leaves nothing behind, new parents included."""
    shutil.rmtree(tmp, ignore_errors=True)
    remove_folders(made)


def save_model(
    directory: str | Path,
    *,
    kind: str,
    metadata: Mapping[str, Any],
    arrays: Mapping[str, np.ndarray],
    submodels: Mapping[str, ModelParts] | None = None,
    replace: bool = True,
) -> None:
    """Write a model directory atomically.

    Parameters
    ----------
    directory:
        Target directory: absent, empty, or (with ``replace``) a glmnlp model of the same kind and
        nothing else, which is then replaced as a whole (:func:`check_output_dir`).
    kind:
        What the model is (``"tagger"``, ``"parser"``, ...); checked again by :func:`load_model`.
    metadata:
        JSON-serialisable configuration, vocabularies, templates, ``averaged`` flag, etc.
    arrays:
        Named numpy arrays (no object dtype) stored in ``weights.npz``.
    submodels:
        Optional named sub-models, each written to ``directory/<name>/``.
    replace:
        Allow replacing an existing model of the same kind (default).

    Raises
    ------
    ConfigError
        ``directory`` holds something that is not a model of this kind (it is left untouched).
    """
    if not isinstance(kind, str) or not kind or "/" in kind:  # read back, any other kind is refused
        raise ValueError(f"kind must be a non-empty string (a name such as 'tagger'), got {kind!r}")
    if not isinstance(metadata, Mapping):
        raise ValueError(f"metadata must be a dict, got a {type(metadata).__name__}")
    parts = ModelParts(kind=kind, metadata=metadata, arrays=arrays, submodels=submodels or {})
    with staged_output_dir(directory, kind, replace=replace, option=REPLACE_OPTION.get()) as tmp:
        _write_tree(tmp, parts)
        _fsync_tree(tmp)


def read_metadata(directory: str | Path) -> dict[str, Any]:
    """Read and check the header (``metadata.json``) of a model directory; return the whole header."""
    path = Path(directory) / METADATA_FILE
    check_model_directory(directory)
    try:
        data = read_model_file(path)
    except FileNotFoundError:
        if held_kind(directory) == PIPELINE_KIND:  # a pipeline's folder (tagger/, parser/) where one model goes
            raise wrong_kind(directory, PIPELINE_KIND, ["single model"], "glmnlp.glm.model_io.read_metadata") from None
        raise ModelFileError(f"{path}: missing (not a glmnlp model directory)") from None
    header = model_json(data, path)
    if not isinstance(header, dict) or header.get("format") != FORMAT_NAME:
        raise ModelFileError(f"{path}: not a glmnlp model (format is not {FORMAT_NAME!r})")
    version = header.get("format_version")
    if type(version) is not int or version != FORMAT_VERSION:  # true and 1.0 are == 1, and are not version 1
        raise ModelFileError(
            f"{path}: format version {version!r} is not supported (this glmnlp reads version {FORMAT_VERSION})"
        )
    for key, kind in (("kind", str), ("metadata", dict), ("arrays", dict), ("weights_sha256", str)):
        if not isinstance(header.get(key), kind):
            raise ModelFileError(f"{path}: field {key!r} is missing or has the wrong type")
    for name, spec in header["arrays"].items():
        shape = spec.get("shape") if isinstance(spec, dict) else None
        if not (isinstance(shape, list) and all(type(n) is int and n >= 0 for n in shape)
                and isinstance(spec.get("dtype"), str)):
            raise ModelFileError(f"{path}: array {name!r} needs a shape (list of sizes) and a dtype")
    submodels = header.get("submodels", {})
    if not isinstance(submodels, dict) or not all(
        isinstance(k, str) and k and "/" not in k and not k.startswith(".") and isinstance(v, str)
        for k, v in submodels.items()
    ):
        raise ModelFileError(f"{path}: field 'submodels' must map sub-folder names to kinds")
    check_seal(path, header)
    return header


def _checked_blob(directory: Path, kind: str, user: str) -> tuple[dict[str, Any], bytes]:
    """The header and the weights archive's bytes, once the kind (a folder of another: :func:`wrong_kind`, naming
    ``user``, who asked for it) and the archive's checksum are checked."""
    if holds_pipeline(directory):  # (whatever else lies there: glmnlp.glm.model_files)
        raise wrong_kind(directory, PIPELINE_KIND, [kind], user)
    header = read_metadata(directory)
    if header["kind"] != kind:
        raise wrong_kind(directory, header["kind"], [kind], user)
    weights_path = directory / WEIGHTS_FILE
    try:
        blob = read_model_file(weights_path)
    except FileNotFoundError:
        raise ModelFileError(f"{weights_path}: missing") from None
    if hashlib.sha256(blob).hexdigest() != header["weights_sha256"]:
        raise ModelFileError(f"{weights_path}: checksum mismatch (corrupt, truncated or not written with this "
                             "metadata)")
    return header, blob


def verify_model(directory: str | Path, *, kind: str, user: str = "verify_model") -> dict[str, Any]:
    """Check a model directory as :func:`load_model` does up to the archive's checksum (header, kind,
    format version, the weights' sha256), without decompressing the arrays; return the whole header
    (as :func:`read_metadata`: the caller's metadata under ``"metadata"``, the sub-models listed).

    A deferred load (:class:`glmnlp.text.pipeline.Deferred`) calls it so that a missing, foreign,
    corrupt or truncated model is still reported when the pipeline is loaded, not at its first sentence. ``user``: who
    asked for it, as a folder of another kind names it (``glmnlp.Tagger.load``: :func:`wrong_kind`).
    """
    return _checked_blob(Path(directory), kind, user)[0]


def load_model(directory: str | Path, *, kind: str, names: Collection[str] | None = None,
               user: str = "load_model") -> Loaded:
    """Load and validate a model directory written by :func:`save_model`.

    Returns ``(metadata, arrays)``: the caller's metadata dict and the named arrays. Raises
    :class:`~glmnlp.errors.ModelFileError` (naming the offending file) if anything is missing,
    corrupt, truncated, of another kind or of an unsupported format version, or holds an array ``names``
    (the arrays a ``kind`` model has; None: any) does not list, before any is read: a 1.6 MB tagger folder
    with an extra array of 1.5 GB of zeros (LZMA packs them 6,843:1) loaded, 3.3 GB taken, no word. ``user`` as for
    :func:`verify_model`.
    """
    directory = Path(directory)
    header, blob = _checked_blob(directory, kind, user)
    weights_path = directory / WEIGHTS_FILE
    expected: dict[str, Any] = header["arrays"]
    if names is not None and (unknown := sorted(set(expected) - set(names))):
        raise ModelFileError(f"{weights_path}: {', '.join(map(repr, unknown))}: not an array a {kind_name(kind)} model "
                             f"has (it has {', '.join(sorted(names))})")
    arrays: dict[str, np.ndarray] = {}
    try:
        with zipfile.ZipFile(io.BytesIO(blob)) as archive:
            members = {m[: -len(".npy")] if m.endswith(".npy") else m: m for m in archive.namelist()}
            if set(members) != set(expected) or len(members) != len(archive.namelist()):
                raise ModelFileError(
                    f"{weights_path}: arrays {sorted(members)} do not match metadata.json {sorted(expected)}"
                )
            for name in sorted(members):
                spec = expected[name]
                info = archive.getinfo(members[name])
                expansion = _MAX_EXPANSION.get(info.compress_type)
                if expansion is None:
                    raise ModelFileError(
                        f"{weights_path}: array {name!r} uses unsupported zip method {info.compress_type}"
                    )
                with archive.open(info) as member:
                    # the .npy header (shape, dtype) is checked against metadata.json before any allocation
                    version = np.lib.format.read_magic(member)
                    if version == (1, 0):
                        shape, fortran, dtype = np.lib.format.read_array_header_1_0(member)
                    elif version == (2, 0):
                        shape, fortran, dtype = np.lib.format.read_array_header_2_0(member)
                    else:
                        raise ModelFileError(f"{weights_path}: array {name!r} has .npy format version {version}")
                    if list(shape) != list(spec["shape"]) or dtype.str != spec["dtype"] or dtype.hasobject:
                        raise ModelFileError(
                            f"{weights_path}: array {name!r} has shape {list(shape)} dtype {dtype.str},"
                            f" metadata.json says {spec['shape']} {spec['dtype']}"
                        )
                    count = int(np.prod(shape, dtype=np.int64)) if shape else 1
                    if count * dtype.itemsize > (info.compress_size + 1024) * expansion:
                        raise ModelFileError(f"{weights_path}: array {name!r} is larger than the archive can hold")
                    array = read_member(member, count, dtype, weights_path, name).reshape(
                        shape, order="F" if fortran else "C")
                arrays[name] = array
    except (ModelFileError, MemoryError):  # memory short is not a damaged file (LZMA's "Unable to allocate ...")
        raise
    except Exception as exc:  # noqa: BLE001 (zipfile/zlib/numpy raise many types for a damaged archive)
        # the reason's first line: numpy's advice on a header too large goes on to allow_pickle=True, for a format
        # that never holds pickles (and an error is one line)
        reason = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise ModelFileError(f"{weights_path}: not a readable weights archive: {reason}") from None
    return header["metadata"], arrays


def load_submodel(directory: str | Path, name: str, *, kind: str, names: Collection[str] | None = None) -> Loaded:
    """Load the sub-model ``name`` of the model at ``directory`` (it must be listed in its header, and be the one
    saved with it: :mod:`glmnlp.glm.model_seals`); ``names`` as for :func:`load_model`."""
    verify_submodel(directory, name, kind=kind)
    return load_model(Path(directory) / name, kind=kind, names=names)


def verify_submodel(directory: str | Path, name: str, *, kind: str) -> dict[str, Any]:
    """:func:`verify_model` of the sub-model ``name`` of the model at ``directory``, which must list it and have
    been saved with it; return the sub-model's header."""
    header = read_metadata(directory)
    if name not in header.get("submodels", {}):
        raise ModelFileError(f"{Path(directory) / METADATA_FILE}: has no sub-model {name!r}")
    sub_header = verify_model(Path(directory) / name, kind=kind, user=f"the {kind_name(header['kind'])} model "
                              f"{directory}")
    check_pin(Path(directory), header, name, sub_header)
    return sub_header
