"""The files of a pipeline model directory against the sha256 its MODEL.json records, wherever a sub-model is loaded.

A sub-model's ``metadata.json`` is not covered by its own weights' checksum, so an edited one (a parser's ``n_bits``,
a tagger's tag list) loaded without a word; :func:`check_checksums` is what :func:`glmnlp.text.loading.load` checks a
pipeline with, and :func:`check_part` what every other loader of a pipeline's ``tagger/`` or ``parser/`` checks it
with (``tag -m``, ``tagger evaluate -m``, ``parse --tagger``, ``glmnlp.measures(model=...)``). A module of its own
so that those loaders (:mod:`glmnlp.text.measures` among them) need not import the pipeline.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

from glmnlp.errors import ModelFileError
from glmnlp.glm.model_files import checked_model_file, model_json, read_model_file
from glmnlp.glm.model_io import PIPELINE_FILE

__all__ = ["check_checksums", "check_part", "present", "read_description"]


def read_description(path: Path) -> dict:
    """The JSON object of a pipeline's ``MODEL.json`` at ``path``; :class:`ModelFileError` saying why it is not one."""
    try:
        description = model_json(read_model_file(path), path)
    except FileNotFoundError as exc:
        raise ModelFileError(f"{path}: cannot be read: {exc.strerror or exc}") from None
    if not isinstance(description, dict):
        kind = type(description).__name__
        raise ModelFileError(f"{path}: not a model description (a JSON object), but a JSON {kind}")
    return description


def present(path: Path) -> bool:
    """Whether there is something at ``path``, whatever it is (a link to nothing too): a ``MODEL.json`` that is a
    folder or a link to ``/dev/zero`` was taken for none, its checksums and margin ignored; it is read, and refused."""
    return path.is_symlink() or path.exists()


def check_checksums(root: str | Path, parts: list[str]) -> None:
    """Check every file of the sub-models ``parts`` against the sha256 that ``root/MODEL.json`` records for it.

    The description (recipe, figures, multi-tag margin) holds for those very files, and a sub-model's
    ``metadata.json`` is not covered by its own weights' checksum: an edited field (say the parser's
    ``n_bits``) would otherwise load without a word and parse differently. A pipeline without MODEL.json, or
    whose MODEL.json lists no checksums, is not checked here (each sub-model still checks its weights).
    """
    path = Path(root) / PIPELINE_FILE
    if not present(path):
        return
    sums = read_description(path).get("checksums", {})
    if not isinstance(sums, dict) or not all(isinstance(k, str) and isinstance(v, str) for k, v in sums.items()):
        raise ModelFileError(f"{path}: checksums must map file names to sha256 digests")
    for name in sorted(n for n in sums if n.split("/")[0] in parts):
        file = Path(root) / name
        try:
            special = file.exists() and not file.is_file()
        except (OSError, ValueError):  # a name no file has (a NUL byte, too long): a traceback from exists()
            special = True
        if Path(name).is_absolute() or ".." in Path(name).parts or "\0" in name or special:
            # a name that leaves the model, or a device (an entry of /dev/zero was read until memory ran out)
            raise ModelFileError(f"{path}: checksums list {name!r}, which is not a file of this model")
        try:
            checked_model_file(file, f"listed in {path} but ")  # /proc/kmsg: a file of size 0 whose read waits
            with open(file, "rb") as f:  # in pieces: a sparse file of gigabytes was read whole into memory
                digest = hashlib.file_digest(f, "sha256").hexdigest()
        except OSError as exc:
            raise ModelFileError(f"{file}: listed in {path} but unreadable: {exc.strerror or exc}") from None
        if digest != sums[name]:
            raise ModelFileError(f"{file}: changed since {path} was written (sha256 mismatch); if on purpose, "
                                 f"remove the file's entry from the checksums there")


def check_part(directory: str | Path) -> None:
    """Check the files of the sub-model at ``directory`` against its pipeline's checksums when it is the ``tagger/``
    or ``parser/`` of a model directory with a MODEL.json (:func:`check_checksums`), however it is named: by the
    pipeline's folder (``tag -m DIR``) or by its own (``--tagger DIR/tagger``). Only ``glmnlp.load`` checked them, so
    an edited ``tagger/metadata.json`` tagged ``A/VB dog/POS`` through ``tag -m`` and ``tagger evaluate -m``."""
    directory = Path(directory)
    if directory.name in ("tagger", "parser") and present(directory.parent / PIPELINE_FILE):
        check_checksums(directory.parent, [directory.name])
