"""Reading a model's files without trusting them: the folder, each file, its JSON.

A model folder may be anything a user points at: a dangling or looping link, a file, a device or a FIFO where a
model file should be, bytes that are not UTF-8 or JSON nested deeper than Python's recursion limit. Each is a
:class:`~glmnlp.errors.ModelFileError` naming the path and the reason, raised before anything is read that could
block (a FIFO) or never end (a link to ``/dev/zero``). :mod:`glmnlp.glm.model_io` reads models through these.
A folder replaced while it is read (another program's ``--force``, a ``save`` over it: the new one is renamed into
place) gave a mix of both models' files, loaded without a word or refused as corrupt; what is read of a folder is
read again when the folder at the path changed meanwhile (:func:`read_unchanged`). A model also leaves a process
only as its files: :class:`TravelsAsFiles`, the models' base, refuses pickling, and
a worker that may run on another machine (a Ray actor) gets the files' bytes (:func:`folder_files`), which it
writes to a folder of its own (:func:`write_folder_files`). Messages name a model's kind as :func:`kind_name` does
(``tagger``, ``parser``), not as its files store it (``glmnlp-parser``). What a folder holds is found once
(:func:`held_kind`: a single model, a pipeline, nothing glmnlp can name), and a folder of a kind the loader or command
does not take is refused by one function for all of them (:func:`wrong_kind`): the folder, what it holds, what the
taker takes; a pipeline folder without the part a taker wants from it is :func:`missing_part`'s.

A pipeline whatever else lies there: a folder whose ``tagger/`` or ``parser/`` holds a model is a pipeline beside
any other file (a ``NOTICE.md``, the user's notes, another program's or a damaged ``metadata.json``) for every loader
and command (``glmnlp.load``, ``glmnlp.measures``, ``glmnlp parse``, ``tag``, ``measures``), unless its own
``metadata.json`` is a glmnlp model's and no ``MODEL.json`` lists the folder's files (:func:`holds_pipeline`): a
stray ``metadata.json`` in a copy of the bundled model made ``glmnlp.load`` refuse it (``not a glmnlp model``),
which it had loaded and ``glmnlp.measures`` still did, and ``glmnlp parse`` and ``tag`` had always refused it. A
pipeline's own ``MODEL.json`` wins over a model's ``metadata.json`` beside it, as :func:`directory_kind` has it.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import stat
import tempfile
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import IO, Any, TypeVar

import numpy as np

from glmnlp.errors import ConfigError, ModelFileError
from glmnlp.treebank.fileio import dead_leftovers

__all__ = ["FORMAT_NAME", "METADATA_FILE", "PIPELINE_FILE", "PIPELINE_KIND", "SCRATCH_PREFIXES", "TravelsAsFiles",
           "WEIGHTS_FILE", "check_kind", "check_model_directory", "checked_model_file", "directory_kind",
           "folder_files", "folder_identity", "held_kind", "holds_pipeline", "json_or_none", "kind_name",
           "check_part_kind", "missing_part", "model_files", "model_json",
           "pipeline_files", "read_member", "read_model_file", "read_unchanged", "remove_dead_scratch",
           "scratch_folder", "write_folder_files", "wrong_kind"]

T = TypeVar("T")


@contextmanager
def scratch_folder(prefix: str) -> Iterator[Path]:
    """A temporary folder ``PREFIX-PID-*`` for a model's files, removed when the block ends; those that processes no
    longer running left are removed first: a pool ends its workers by SIGTERM, which runs no clean-up, and a worker
    stopped inside the block (Ctrl-C while ``parser train -j 2`` tuned its beam) left its folder for good."""
    if prefix not in SCRATCH_PREFIXES:
        raise ValueError(f"a scratch folder's prefix is one of {SCRATCH_PREFIXES}, not {prefix!r}")
    remove_dead_scratch(prefix)
    folder = Path(tempfile.mkdtemp(prefix=f"{prefix}-{os.getpid()}-"))
    try:
        yield folder
    except ConfigError as exc:  # a full temporary folder was said by a path the user never gave, gone at once
        if str(folder) not in str(exc):
            raise
        raise ConfigError(f"{exc} (a temporary folder of glmnlp's, in {tempfile.gettempdir()}: set $TMPDIR to a "
                          "folder with room)") from exc
    finally:
        shutil.rmtree(folder, ignore_errors=True)


#: the prefixes of :func:`scratch_folder` (a model's files for a worker; a model sized by the default recipe)
SCRATCH_PREFIXES = ("glmnlp-beam", "glmnlp-size")
_SCRATCH = re.compile(rf"(?P<name>{'|'.join(SCRATCH_PREFIXES)})-(?P<pid>\d+)-\w+")


def remove_dead_scratch(prefix: str | None = None) -> None:
    """Remove the scratch folders ``PREFIX-PID-*`` (:func:`scratch_folder`; None: of every prefix) of processes that
    no longer run."""
    for old in dead_leftovers(Path(tempfile.gettempdir()), prefix, _SCRATCH):
        shutil.rmtree(old, ignore_errors=True)


def folder_identity(path: str | Path) -> tuple[int, ...] | None:
    """What tells the model folder at ``path`` from another put in its place: its device and inode, and the inode,
    size and modification time of the JSON file that describes it (``MODEL.json`` or ``metadata.json``: a file
    system hands a freed inode number out again at once, so ``rm -r m && cp -r new m`` gave both the same inodes);
    None where there is none. Not the folder's times: a ``chmod`` or an editor's swap file changes them, and a
    deferred pipeline then refused to build from a folder nobody replaced."""
    try:
        found = os.stat(path)
    except (OSError, ValueError):
        return None
    described: tuple[int, ...] = ()
    for name in ("MODEL.json", "metadata.json"):
        with suppress(OSError):
            json_file = os.stat(Path(path) / name)
            described = (json_file.st_ino, json_file.st_size, json_file.st_mtime_ns)
            break
    return (found.st_dev, found.st_ino, *described)


def read_unchanged(path: str | Path, read: Callable[[], T], tries: int = 3) -> T:
    """``read()`` of the model folder ``path``, done again when the folder at the path changed while it ran (its
    result, or its error, may then hold pieces of two models); a folder replaced during each of ``tries`` reads is a
    :class:`ModelFileError`."""
    for _ in range(tries):
        before = folder_identity(path)
        try:
            result = read()
        except Exception:  # any error of a read across a swap (a tagset check of two models' parts too) is read again
            if folder_identity(path) == before:
                raise
            continue
        if folder_identity(path) == before:
            return result
    raise ModelFileError(f"{path}: replaced by another program while it was read ({tries} times): load it once "
                         "that program has written it")


#: A model's files and kinds, as :mod:`glmnlp.glm.model_io` writes them (``docs/model_files.md``)
FORMAT_NAME = "glmnlp-model"
METADATA_FILE = "metadata.json"
WEIGHTS_FILE = "weights.npz"
#: The kind of a pipeline directory (``MODEL.json`` + ``tagger/`` + ``parser/``, glmnlp.text.default_model).
PIPELINE_KIND = "glmnlp-pipeline"
PIPELINE_FILE = "MODEL.json"


def kind_name(kind: str) -> str:
    """A model kind as messages name it: without glmnlp's prefix, its dashes as spaces (``glmnlp-parser`` a parser,
    ``glmnlp-generative-term`` a generative term, ``tagger`` a tagger). The files keep the stored kind; the
    refusals named it as stored, one folder ``'glmnlp-parser'`` and the other ``'tagger'``."""
    return kind.removeprefix("glmnlp-").replace("-", " ")


def held_kind(directory: str | Path) -> str | None:
    """The kind of model a folder given to a loader holds: ``PIPELINE_KIND`` for a pipeline (:func:`holds_pipeline`),
    else a single model's stored kind (its ``metadata.json``), else None: no glmnlp model, or one too damaged to say
    (its loader says why)."""
    directory = Path(directory)
    if holds_pipeline(directory):
        return PIPELINE_KIND
    header = json_or_none(directory / METADATA_FILE)
    return str(header["kind"]) if _model_header(header) else None


def holds_pipeline(directory: str | Path) -> bool:
    """Whether a folder is a pipeline (module header, "A pipeline whatever else lies there"): its ``tagger/`` or
    ``parser/`` holds a model, and either a ``MODEL.json`` lists its files or its own ``metadata.json`` is not a
    glmnlp model's (none, another program's, damaged). Cheap for a single model's folder (two ``stat`` calls)."""
    directory = Path(directory)
    if not any((directory / part / METADATA_FILE).is_file() for part in ("tagger", "parser")):
        return False
    if (directory / PIPELINE_FILE).is_file() and pipeline_files(directory) is not None:
        return True
    return not _model_header(json_or_none(directory / METADATA_FILE))


def _model_header(header: Any) -> bool:
    """Whether ``header`` (a ``metadata.json``'s JSON) names a glmnlp model and its kind."""
    return isinstance(header, dict) and header.get("format") == FORMAT_NAME and isinstance(header.get("kind"), str)


def wrong_kind(directory: str | Path, found: str, accepted: Sequence[str], user: str) -> ModelFileError:
    """The one refusal of a model folder of a kind that ``user`` (a command, ``glmnlp.load()``, ``glmnlp.Tagger.load``)
    does not take: the folder, what it holds and what ``user`` takes, kinds named by :func:`kind_name`
    (``m: a tagger model; glmnlp measures needs a parser or a pipeline directory``). The commands and the loaders
    each said it their own way (``metadata.json: this is a tagger model, expected a parser model`` beside
    ``a tagger model; glmnlp parse needs ...``). It ends with a hint of what reads the folder: where a pipeline's
    models are, or the loader (the command, for a command's user) of the one model found (``(glmnlp.Tagger.load
    reads it)``): ``glmnlp.load('tagger')`` had said so, and lost it when the refusals became one."""
    wanted = " or a ".join(kind_name(kind) for kind in accepted)
    where = ""
    if found == PIPELINE_KIND:  # where the pipeline's own models are, which is what a one-model loader wants
        parts = [f"{part}/" for part in ("tagger", "parser") if (Path(directory) / part / METADATA_FILE).is_file()]
        where = f" (glmnlp.load() reads it whole; its models are in {' and '.join(parts)})" if parts else ""
    elif found in _READERS and not user.startswith("the "):  # who reads the kind found (not for a model's part, where
        # it would name a loader for a folder in the wrong place): a command for a command's user, else a Python loader
        where = f" ({_READERS[found][1 if user.startswith('glmnlp ') else 0]})"
    return ModelFileError(f"{directory}: a {kind_name(found)} model; {user} needs a {wanted} directory{where}")


#: What reads a folder of each kind (:func:`wrong_kind`'s hint), in Python and on the command line; a generative term
#: is a parser's part (its ``generative/``), read with the parser around it
_READERS = {
    "tagger": ("glmnlp.Tagger.load reads it", "glmnlp tag -m reads it"),
    "glmnlp-parser": ("glmnlp.Parser.load reads it", "glmnlp parse -m reads it"),
    "glmnlp-generative-term": ("a parser's generative/ part: glmnlp.Parser.load reads the parser folder around it",
                               "a parser's generative/ part: glmnlp parse -m reads the parser folder around it"),
}


def missing_part(directory: str | Path, part: str, user: str) -> ModelFileError:
    """The refusal of a pipeline folder without the sub-model ``part`` (``tagger``, ``parser``) that ``user`` (a
    command, ``glmnlp.measures``) takes from it: a pipeline folder is of the kind it takes, so not
    :func:`wrong_kind`'s words (``tag -m`` of a folder holding only ``parser/`` said that ``glmnlp.Tagger.load`` needs
    a tagger directory, and that ``glmnlp.load()`` read it whole, which it does not)."""
    return ModelFileError(f"{directory}: no {part}/ sub-model in this model directory; {user} needs a {part} or a "
                          "pipeline directory with one")


def check_part_kind(directory: str | Path, part: str, kind: str, user: str) -> str | None:
    """:func:`check_kind` for ``user``, which takes a ``kind`` model or a pipeline folder's ``part`` (``tagger``,
    ``parser``): a pipeline folder without anything named ``part`` is :func:`missing_part`'s refusal (one that has
    it, damaged or not, goes to the loader, which says what is wrong with it). The commands and ``glmnlp.measures``
    each tested the part in a way of their own (exists, is a folder, any entry), and disagreed on a file so named."""
    found = check_kind(directory, (kind, PIPELINE_KIND), user)
    if found == PIPELINE_KIND and not os.path.lexists(Path(directory) / part):
        raise missing_part(directory, part, user)
    return found


def check_kind(directory: str | Path, accepted: Sequence[str], user: str) -> str | None:
    """The kind :func:`held_kind` finds in ``directory``, once it is one of ``accepted`` (else :func:`wrong_kind`'s
    error); None where the folder says none (missing, empty, foreign, damaged: the loader then says why)."""
    found = held_kind(directory)
    if found is not None and found not in accepted:
        raise wrong_kind(directory, found, accepted, user)
    return found


def json_or_none(path: Path) -> Any:
    """The JSON of a file that may be a model's, None when it is not one (missing, unreadable, not JSON, a device or
    a pipe: a FIFO named ``metadata.json`` in a folder given to ``--force`` waited for ever)."""
    try:
        return model_json(read_model_file(path), path)
    except (OSError, ModelFileError):
        return None


def model_files(directory: Path, prefix: str = "") -> set[str] | None:
    """Relative paths of the files and folders a glmnlp model directory consists of (None: not a model)."""
    header = json_or_none(directory / METADATA_FILE)
    if not isinstance(header, dict) or header.get("format") != FORMAT_NAME:
        return None
    owned = {prefix + METADATA_FILE, prefix + WEIGHTS_FILE}
    submodels = header.get("submodels", {})
    if not isinstance(submodels, dict):
        return None
    for name in submodels:
        if not isinstance(name, str) or not name or "/" in name or name.startswith("."):
            return None
        sub = model_files(directory / name, f"{prefix}{name}/")
        if sub is None:
            return None
        owned |= sub | {prefix + name}
    return owned


def pipeline_files(directory: Path) -> set[str] | None:
    """The files of a pipeline directory: MODEL.json and every file its checksums list (None: not one)."""
    meta = json_or_none(directory / PIPELINE_FILE)
    checksums = meta.get("checksums") if isinstance(meta, dict) else None
    if not isinstance(checksums, dict):
        return None
    owned = {PIPELINE_FILE}
    for name in checksums:
        if not isinstance(name, str) or name.startswith("/") or ".." in name.split("/"):
            return None
        parts = name.split("/")
        owned |= {"/".join(parts[: k + 1]) for k in range(len(parts))}
    return owned


def directory_kind(directory: str | Path) -> str | None:
    """The kind of glmnlp model a directory holds (``PIPELINE_KIND`` for a pipeline), else None."""
    directory = Path(directory)
    if (directory / PIPELINE_FILE).is_file() and pipeline_files(directory) is not None:
        return PIPELINE_KIND
    header = json_or_none(directory / METADATA_FILE)
    if isinstance(header, dict) and header.get("format") == FORMAT_NAME and isinstance(header.get("kind"), str):
        return header["kind"]
    return None


def check_model_directory(directory: str | Path, missing: str = "model directory not found") -> None:
    """Raise :class:`ModelFileError` unless ``directory`` is a readable directory, saying why not.

    A dangling symbolic link, a symbolic-link loop, a file or a permission problem each get their
    own reason (not "not found"); ``missing`` is the message for a path that does not exist.
    """
    try:
        st = os.stat(directory)
    except FileNotFoundError:
        if os.path.islink(directory):
            raise ModelFileError(f"{directory}: is a symbolic link to nothing ({os.readlink(directory)})") from None
        raise ModelFileError(f"{directory}: {missing}") from None
    except OSError as exc:  # ELOOP (symbolic-link loop), EACCES, ENAMETOOLONG, ...
        raise ModelFileError(f"{directory}: cannot be opened: {exc.strerror}") from None
    except ValueError as exc:  # an embedded NUL character
        raise ModelFileError(f"{directory!r}: not a usable path: {exc}") from None
    if not stat.S_ISDIR(st.st_mode):
        raise ModelFileError(f"{directory}: is a file, not a model directory")


def checked_model_file(path: Path, what: str = "") -> os.stat_result:
    """The ``stat`` of a model's file (through links: a model installed as links to a cache, as Hugging Face's hub
    and ``cp -rs`` make one, is read as its files), once it is known to be one that can be read: a device, a pipe
    or a folder in its place is a :class:`ModelFileError` (a link to ``/dev/zero`` was read until memory ran out, a
    FIFO waited for ever), and so is an empty file (``/proc/kmsg`` is a regular file of size 0 whose read never
    ends). ``what``: how the message goes on after the path (``listed in ...``). OSError as ``os.stat`` raises it."""
    found = path.stat()
    if not stat.S_ISREG(found.st_mode):
        raise ModelFileError(f"{path}: {what}not a regular file (a device, a pipe or a folder in a model's place)")
    if found.st_size == 0:
        raise ModelFileError(f"{path}: {what}empty (a model's file never is)")
    return found


def read_model_file(path: Path) -> bytes:
    """The bytes of a model's file (FileNotFoundError when none), once :func:`checked_model_file` took it; one too
    large for memory is a :class:`ModelFileError` naming it (a MemoryError without the file's name)."""
    try:
        found = checked_model_file(path)
        return path.read_bytes()
    except FileNotFoundError:
        raise
    except MemoryError:
        raise ModelFileError(f"{path}: out of memory reading it ({found.st_size:,} bytes)") from None  # (it was "too
        # large", which sent the user after a 1.3 MB file where the process's memory was short: ulimit -v)
    except OSError as exc:
        raise ModelFileError(f"{path}: cannot be read: {exc.strerror or exc}") from None


#: The deepest nesting of a model file's JSON: a model's own nests 6 levels; JSON read whole at a depth near
#: Python's recursion limit was written again deeper in the stack (the seal's check) and failed there
MAX_JSON_DEPTH = 64


def model_json(data: bytes, path: Path) -> Any:
    """The JSON of a model file's bytes; not UTF-8, not JSON, too deep or too long an integer: a ModelFileError."""
    try:
        value = json.loads(data.decode("utf-8"))
        if _depth(value) > MAX_JSON_DEPTH:
            raise ModelFileError(f"{path}: not a model's JSON (nested more than {MAX_JSON_DEPTH} levels deep)")
        return value
    except UnicodeDecodeError:
        raise ModelFileError(f"{path}: not UTF-8 text (corrupt, or not a model's file)") from None
    except json.JSONDecodeError as exc:
        raise ModelFileError(f"{path}:{exc.lineno}: not valid JSON (corrupt or truncated): {exc.msg}") from None
    except (RecursionError, ValueError) as exc:
        raise ModelFileError(f"{path}: not a model's JSON ({str(exc)[:100]})") from None


def _depth(value: Any) -> int:
    """How deeply lists and objects nest in ``value`` (a scalar: 0), found without recursion."""
    deepest, stack = 0, [(value, 1)]
    while stack:
        item, level = stack.pop()
        children = item.values() if isinstance(item, dict) else item if isinstance(item, list) else None
        if children is not None:
            deepest = max(deepest, level)
            stack.extend((child, level + 1) for child in children)
    return deepest


def folder_files(folder: Path) -> dict[str, bytes]:
    """The files under ``folder``, by their path within it (``/``-separated), in sorted order."""
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def write_folder_files(root: Path, files: dict[str, bytes]) -> None:
    """Write :func:`folder_files`' ``files`` under ``root`` (made, with the folders they need)."""
    for relative, data in files.items():
        path = root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)


class TravelsAsFiles:
    """Base of the models (:class:`~glmnlp.tagger.model.Tagger`, :class:`~glmnlp.parser.model.Parser`): a model
    travels as its files. ``copy.copy`` is a shallow copy (the same arrays and configuration objects); pickling and
    ``copy.deepcopy`` are refused in words (they said ``cannot pickle '_thread.RLock' object``, a model's lock)."""

    def __copy__(self) -> Any:
        new = object.__new__(type(self))
        new.__dict__.update(self.__dict__)
        return new

    def __reduce_ex__(self, protocol: Any) -> Any:
        name = type(self).__name__
        raise TypeError(f"a {name} cannot be pickled or deep-copied: save it ({name.lower()}.save(DIR)) and load it "
                        f"(glmnlp.{name}.load(DIR)); glmnlp.load(DIR) gives a pipeline that pickles as its path")


def read_member(member: IO[bytes], count: int, dtype: np.dtype[Any], path: Path, name: str) -> np.ndarray:
    """``count`` items of ``dtype`` read from ``member`` (the array ``name`` of the weights archive ``path``) into a
    new array, 16 MiB at a time: one copy of it in memory (reading it whole, then copying it, took twice its size);
    a member of more or fewer bytes is a ModelFileError."""
    array = np.empty(count, dtype=dtype)
    view = array.view(np.uint8)
    done = 0
    while done < len(view):
        piece = member.read(min(len(view) - done, 1 << 24))
        if not piece:
            break
        view[done:done + len(piece)] = np.frombuffer(piece, dtype=np.uint8)
        done += len(piece)
    if done != len(view) or member.read(1):
        raise ModelFileError(f"{path}: array {name!r} has the wrong number of bytes")
    return array
