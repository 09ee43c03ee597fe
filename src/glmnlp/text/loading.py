"""Loading a pipeline from a model directory, at once or (``deferred=True``) on first use.

:func:`load` reads a directory holding ``tagger/`` and ``parser/`` sub-models (the bundled default
model when no path is given) and, by default, builds both models at once, so that any damaged file is
reported by ``load`` itself. With ``deferred=True`` it checks what can be checked without building
(header, kind, format version, the weights' checksums) and builds each component when a sentence
first needs it (:class:`glmnlp.text.pipeline.Deferred`); damage that only building finds (a
metadata field out of range with the checksums made to agree) is then reported at that first use.
Either way every file of the loaded sub-models is first checked against the sha256 that the
directory's MODEL.json records (:func:`check_checksums`; 24 ms for the bundled model): a
sub-model's ``metadata.json`` is not covered by its weights' checksum, and an edited one loaded
without a word and parsed differently. A directory's tagger and parser are also compared (:func:`unknown_tags`):
a folder put together by hand from a tagger and a parser of different tagsets is refused.
Building the bundled model takes 0.7 s of CPU (tagger 0.29 s, parser 0.42 s; a deferred load takes
0.015 s; imports aside). Deferred loading is what a process that hands all its sentences to workers
wants: ``glmnlp parse --jobs N`` loads deferred in its main process (whose imports and build, 1.2 s,
were on the critical path: ``benchmarks/results/scaling.md``) and in each worker (pre-tagged input
never builds the tagger).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any, Literal

from glmnlp.errors import ModelFileError
from glmnlp.glm.model_files import (METADATA_FILE, PIPELINE_KIND, check_kind, check_part_kind, folder_identity,
                                     holds_pipeline)
from glmnlp.text.checksums import check_checksums, check_part
from glmnlp.text.inputs import tagset_mismatch
from glmnlp.text.pipeline import MAX_PARSE_WORDS, Deferred, Pipeline

__all__ = ["check_checksums", "check_part", "load", "parser_at", "recommended_margin", "tagger_at", "tagger_directory",
           "unknown_tags"]


def tagger_directory(directory: str | Path) -> Path:
    """The tagger model a path names: a tagger model's folder, or a pipeline model's (its ``tagger/``), as every
    option that takes a tagger (``--tagger``, ``tag -m``, ``tagger evaluate -m``) reads it: a pipeline whatever else
    lies there (:func:`glmnlp.glm.model_files.holds_pipeline`), or a folder holding a ``tagger/`` and no
    ``metadata.json``."""
    if holds_pipeline(directory) or (Path(directory) / "tagger").is_dir() and not os.path.lexists(
            Path(directory) / METADATA_FILE):
        return Path(directory) / "tagger"
    return Path(directory)


def tagger_at(directory: str | Path, *, deferred: bool = False, user: str = "tagger_at") -> Any:
    """The tagger model at ``directory`` (:func:`tagger_directory`; its files checked by :func:`check_part`): built
    now, or (``deferred``) checked now and built on first use. A folder of another kind, or a pipeline's without
    ``tagger/``, is refused naming ``user`` (the command or option that takes it:
    :func:`glmnlp.glm.model_files.wrong_kind`, :func:`~glmnlp.glm.model_files.missing_part`; the latter was
    ``Tagger.load``'s refusal of the folder as a pipeline, which these take)."""
    check_part_kind(directory, "tagger", "tagger", user)
    directory = tagger_directory(directory)
    check_part(directory)
    return _tagger(directory, deferred)


def parser_at(directory: str | Path, *, deferred: bool = False) -> Any:
    """The parser model at ``directory`` (its files checked by :func:`check_part`): built now, or (``deferred``)
    checked now and built on first use."""
    check_part(directory)
    return _parser(directory, deferred)


def _tagger(directory: Path, deferred: bool) -> Any:
    from glmnlp.tagger import Tagger

    # built later, from the folder checked now: a relative path taken after a chdir named another model
    return (Deferred(_built, (Tagger.load, directory.absolute(), folder_identity(directory)),
                     Tagger.describe(directory)) if deferred else Tagger.load(directory))


def _parser(directory: str | Path, deferred: bool) -> Any:
    from glmnlp.parser import Parser

    return (Deferred(_built, (Parser.load, Path(directory).absolute(), folder_identity(directory)),
                     Parser.describe(directory)) if deferred else Parser.load(directory))


def _built(load: Any, directory: Path, identity: tuple[int, ...] | None) -> Any:
    """A deferred component built by ``load(directory)``, from the folder that was checked when the pipeline was
    loaded (``identity``: :func:`glmnlp.glm.model_files.folder_identity`): another program's ``--force`` meanwhile
    gave a pipeline of the old model's tagger and the new one's parser, files never checked against each other."""
    model = load(directory) if folder_identity(directory) == identity else None
    if model is None or folder_identity(directory) != identity:
        raise ModelFileError(f"{directory}: replaced by another program since the pipeline was loaded: load it again")
    return model


def _load_for_worker(path: str | Path, parser: bool, lines: bool, multitag_margin: float | None,
                     max_words: int = MAX_PARSE_WORDS) -> Pipeline:
    return load(path, parser=parser, lines=lines, multitag_margin=multitag_margin, max_words=max_words,
                deferred=True)


def load(
    path: str | Path | None = None,
    *,
    parser: bool = True,
    lines: bool = False,
    multitag_margin: float | None | Literal["model"] = "model",
    max_words: int = MAX_PARSE_WORDS,
    deferred: bool = False,
) -> Pipeline:
    """Load a pipeline from a model directory holding ``tagger/`` and ``parser/`` sub-models.

    Parameters
    ----------
    path:
        The model directory; ``None`` loads the default model bundled with the package
        (:func:`glmnlp.text.default_model.default_model_path`).
    parser:
        If false, load only the tagger (a tagging pipeline; ``parser/`` need not exist).
    lines, multitag_margin, max_words:
        Passed to :class:`Pipeline`. ``multitag_margin="model"`` (the default) uses the margin the
        model's training recipe chose on dev (``multitag_margin`` in its MODEL.json, see
        :mod:`glmnlp.text.default_model`; 0 or absent = the single best tag per word).
    deferred:
        Check the files now (checksums included) but build the tagger and the parser when a sentence
        first needs them (module docstring): for a pipeline that will ``pipe(..., n_process=N)``
        everything to workers, or that only sees pre-tagged input.

    Raises
    ------
    ModelFileError
        The directory or a sub-model is missing, or one of its files is corrupt, truncated, of another
        kind or of an unsupported format version (with ``deferred``, what only building finds is
        raised at the first use).
    """
    from glmnlp.glm.model_files import read_unchanged
    from glmnlp.text.default_model import default_model_path

    if path is not None and not str(path):
        raise ModelFileError("'': an empty path is not a model directory (None loads the bundled model)")
    root = default_model_path() if path is None else Path(path)
    if path is None and not root.is_dir():
        raise ModelFileError(
            f"{root}: the bundled default model is missing (reinstall glmnlp, or train one with "
            "'glmnlp train-default --out DIR' and pass DIR)"
        )
    return read_unchanged(root, lambda: _load(root, parser, lines, multitag_margin, max_words, deferred))


def _load(root: Path, parser: bool, lines: bool, multitag_margin: float | None | Literal["model"], max_words: int,
          deferred: bool) -> Pipeline:
    """:func:`load` of the folder ``root``, read once (``load`` reads it again if it was replaced meanwhile)."""
    from glmnlp.glm.model_files import check_model_directory
    from glmnlp.glm.model_io import read_metadata

    check_model_directory(root)
    # a single model's folder: named as every loader names it; a damaged or foreign metadata.json: said by its reader
    if check_kind(root, (PIPELINE_KIND,), "glmnlp.load()") is None and os.path.lexists(root / METADATA_FILE):
        read_metadata(root)
    parts = ["tagger", "parser"] if parser else ["tagger"]
    for part in parts:
        if not (root / part).is_dir():
            if not any((root / other).is_dir() for other in ("tagger", "parser")):
                raise ModelFileError(f"{root}: not a glmnlp model directory (no tagger/ and parser/, nor the "
                                     "metadata.json of a single model)")
            raise ModelFileError(f"{root}: no {part}/ sub-model in this model directory" + (
                " (its parser/ alone parses tagged input: glmnlp.Parser.load reads it)"
                if part == "tagger" and (root / "parser").is_dir() else ""))
    check_checksums(root, parts)  # every part before any is built
    tagger_model = _tagger(root / "tagger", deferred)
    parser_model = _parser(root / "parser", deferred) if parser else None
    if multitag_margin == "model":
        multitag_margin = recommended_margin(root) if parser else None
    # a folder put together by hand may pair a tagger and a parser of different tagsets (refused, naming the folder,
    # before the pipeline's own check); a few tags the parser never saw are not worth a word here: a small
    # train-default run's rare tags (FW, RBS) are such
    if parser_model is not None:
        known = (parser_model.facts.get("pos_tags") if isinstance(parser_model, Deferred)
                 else getattr(getattr(parser_model, "grammar", None), "pos_tags", None))  # None: it does not say
        unknown_tags(root / "tagger", None if known is None else frozenset(known), root / "tagger")
    pipeline = Pipeline(tagger_model, parser_model, lines=lines, multitag_margin=multitag_margin, max_words=max_words)
    # a worker loads the folder by an absolute path (a Ray worker runs in another directory; its folders travel to
    # it: glmnlp.text.workers.shipped)
    pipeline.spec = (_load_for_worker, (Path(os.path.abspath(root)), parser, lines, multitag_margin, max_words))
    return pipeline


def unknown_tags(tagger_dir: str | Path, known: frozenset[str] | set[str] | None, name: str | Path) -> str:
    """The tagger at ``tagger_dir`` against the tags a parser knows (:func:`glmnlp.text.inputs.tagset_mismatch`: a
    :class:`ConfigError` for a tagger of another tagset, or the warning returned for a few unknown tags; ``name``:
    how the message names the tagger)."""
    from glmnlp.glm.model_io import read_metadata

    if not known:
        return ""  # a parser that does not say
    tags = read_metadata(tagger_dir)["metadata"].get("tags")
    if not isinstance(tags, list) or not all(isinstance(t, str) for t in tags):
        return ""  # a damaged tagger (building it says more)
    return tagset_mismatch(tags, known, name)


def recommended_margin(root: str | Path) -> float | None:
    """The multi-tag margin recorded in ``root/MODEL.json`` (None if absent or 0: single best tags)."""
    from glmnlp.text.checksums import present, read_description
    from glmnlp.text.default_model import MODEL_FILE

    path = Path(root) / MODEL_FILE
    if not present(path):
        return None
    margin = read_description(path).get("multitag_margin")
    if margin is None or margin == 0:
        return None
    if not isinstance(margin, (int, float)) or isinstance(margin, bool) or not margin > 0 or margin > 1e300:
        raise ModelFileError(f"{path}: multitag_margin must be a number >= 0, got {str(margin)[:40]} (1e300 at most)")
    return float(margin)  # an integer past 1e300 was an OverflowError here
