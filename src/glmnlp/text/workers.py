"""Parsing workers of :meth:`glmnlp.text.pipeline.Pipeline.pipe` (``n_process``, ``glmnlp parse --jobs``).

Each worker (a local process or a Ray actor of :mod:`glmnlp.glm.parallel`) loads the pipeline once
from the caller's ``spec`` (a module-level loader and its plain arguments, never a pickled model),
analyses the batches it is sent and returns the documents as plain data (:func:`document_to_plain`);
the caller rebuilds them (:func:`document_from_plain`) in input order.

A local worker loads the model folders the spec names (absolute paths) from this machine's disk. A Ray actor may
run on another machine, which has no such folder, or another model there (a relative path named the one in the
cluster's directory); so for Ray the folders travel with the spec (:func:`shipped`): their files' bytes, which the
actor writes to a folder of its machine and loads from, as training sends its data and models to Ray actors. The
bundled model's folder travels too: another machine's installation may keep it elsewhere, or be another release's.
On the actor's machine a model's files are written once, to a folder named by the sha256 of the model's name and
files inside a folder of the user's only (``$TMPDIR/glmnlp-models-UID``), and reused by later actors and calls; it
stays until removed, one copy per model sent there.

An input read on a thread (:class:`glmnlp.glm.streams.Prefetch`: the command line's) is looked at without waiting: a
batch with nothing after it yet (a program that writes a line and waits for its answer; a slow producer) is analysed
in the calling process as soon as :data:`STREAM_WAIT` has passed without a next one (:func:`first_batches`), instead
of waiting for a second batch to decide whether to start workers: that wait never ended for a program waiting for its
answer. Workers start once two batches are there at once; the output does not depend on where a batch was analysed.
Any other input is read on the caller's thread, each read as long as it takes.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import stat
import tempfile
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

from glmnlp.errors import ModelFileError
from glmnlp.glm.model_files import folder_files, write_folder_files
from glmnlp.glm.streams import NOT_YET, InPlace, Prefetch
from glmnlp.text.document import Document, Sentence, Token
from glmnlp.treebank.trees import tree_from_plain, tree_to_plain

__all__ = ["STREAM_WAIT", "PipeWorker", "document_from_plain", "document_to_plain", "first_batches", "parser_beam",
           "pipeline_settings", "restored_pipeline", "set_as_callers", "shipped"]

Spec = tuple[Callable[..., Any], tuple[Any, ...]]

#: Seconds a batch waits for the next one before it is analysed in the calling process (module docstring).
STREAM_WAIT = 0.1


def first_batches(batches: Prefetch[list[Any]] | InPlace[list[Any]], n: int, first: float | None = None,
                  ) -> tuple[list[list[Any]], Exception | None, bool]:
    """Up to ``n`` batches: the first waited for at most ``first`` seconds (None: as long as it takes), each next one
    at most :data:`STREAM_WAIT`; the error the input raised after them (None if none); and whether the input
    ended."""
    head: list[list[Any]] = []
    while len(head) < n:
        try:
            batch = batches.poll(STREAM_WAIT if head else first)
        except StopIteration:
            return head, None, True
        except Exception as exc:  # noqa: BLE001 (raised again after the batches before it)
            return head, exc, True
        if batch is NOT_YET:
            break
        head.append(batch)
    return head, None, False


def parser_beam(component: Any) -> tuple[float, int] | None:
    """(gamma, cap) of a built parser, sent with every batch so that the workers, which load the model's files,
    parse at the beam the caller's parser has now (``parser.config.gamma = ...`` after loading, as
    ``docs/api.md`` shows): without it ``pipe(n_process=2)`` parsed at the files' beam, and input of one batch,
    analysed in the caller's process, at the set one. None for a parser not built yet (a ``Deferred``: nothing
    can have changed it) or one without a beam."""
    config = getattr(component, "config", None)
    gamma, cap = getattr(config, "gamma", None), getattr(config, "beam_cap", None)
    return None if gamma is None or cap is None else (float(gamma), int(cap))


def pipeline_settings(pipeline: Any) -> tuple[bool, Any, int]:
    """A pipeline's ``lines``, ``multitag_margin`` and ``max_words`` as they are now, sent with every batch as the
    beam is: set after ``glmnlp.load()`` (``nlp.max_words = 5``), they reached the caller's own parses and not the
    workers', which load the model with the values it was loaded with (4 of 4 sentences parsed differently)."""
    return pipeline.lines, pipeline.multitag_margin, pipeline.max_words


def restored_pipeline(spec: tuple[Callable[..., Any], tuple[Any, ...]], beam: tuple[float, int] | None,
                      settings: tuple[bool, Any, int]) -> Any:
    """A pickled pipeline in the process that unpickles it (:meth:`glmnlp.text.pipeline.Pipeline.__reduce__`): loaded
    from its ``spec`` as a worker loads it, with the beam and settings the pickled one had then."""
    loader, args = spec
    return set_as_callers(loader(*args), beam, settings)


def set_as_callers(pipeline: Any, beam: tuple[float, int] | None, settings: tuple[bool, Any, int]) -> Any:
    """``pipeline`` with the caller's beam (:func:`parser_beam`; None: the model's) and settings
    (:func:`pipeline_settings`), as a worker's batch and an unpickled pipeline get them."""
    if beam is not None:
        pipeline.parser.config.gamma, pipeline.parser.config.beam_cap = beam
    pipeline.lines, pipeline.multitag_margin, pipeline.max_words = settings
    return pipeline


def shipped(spec: Spec, mode: str) -> Spec:
    """The spec a worker of the executor ``mode`` loads from: on Ray, every model folder the spec names (an argument
    that is a :class:`~pathlib.Path` of a folder) replaced by its files' bytes (module docstring); as it is
    elsewhere."""
    loader, args = spec
    if mode != "ray":
        return spec
    folders = {i: _folder_files(arg) for i, arg in enumerate(args) if isinstance(arg, Path) and arg.is_dir()}
    return (_load_shipped, (loader, args, folders)) if folders else spec


def _folder_files(folder: Path) -> tuple[str, str, dict[str, bytes]]:
    """A folder's name, the sha256 of its name and files, and its files (relative path -> bytes)."""
    files = folder_files(folder)
    digest = hashlib.sha256(f"{folder.name}\0".encode())  # the name too: a copy of a model under another name
    for relative, data in files.items():
        digest.update(f"{relative}\0{len(data)}\0".encode())
        digest.update(data)
    return folder.name, digest.hexdigest(), files


def _load_shipped(loader: Callable[..., Any], args: tuple[Any, ...],
                  folders: dict[int, tuple[str, str, dict[str, bytes]]]) -> Any:
    """``loader(*args)`` with each shipped folder (:func:`shipped`) written on this machine
    (:func:`_shipped_folder`) and given in its place."""
    given = list(args)
    for i, (name, digest, files) in folders.items():
        given[i] = _shipped_folder(name, digest, files)
    return loader(*given)


def _shipped_folder(name: str, digest: str, files: dict[str, bytes]) -> Path:
    """Where a shipped model's files are on this machine: one folder per model (its name's and files' sha256) in a
    folder of this user's only, written once and read by every actor and call after (Ray kills an actor without
    closing it, so a folder of each actor's own would be left behind at every call); written whole, then renamed
    into place."""
    base = Path(tempfile.gettempdir()) / f"glmnlp-models-{getattr(os, 'getuid', lambda: 0)()}"
    base.mkdir(mode=0o700, exist_ok=True)
    st = base.lstat()
    if stat.S_ISLNK(st.st_mode) or st.st_uid != getattr(os, "getuid", lambda: st.st_uid)() or st.st_mode & 0o077:
        raise ModelFileError(f"{base}: not a folder of this user's only, where models sent here are written; "
                             "remove it")
    target = base / digest
    if not (target / name).is_dir():
        staging = Path(tempfile.mkdtemp(prefix=".staging-", dir=base))
        try:
            write_folder_files(staging / name, files)
            os.rename(staging, target)
        except BaseException:
            shutil.rmtree(staging, ignore_errors=True)
            if not (target / name).is_dir():  # not another actor's copy, written first: a disk full, say
                raise
    return target / name


class PipeWorker:
    """A worker's pipeline, loaded once from the caller's ``spec`` (see
    :meth:`glmnlp.text.pipeline.Pipeline.pipe`); runs batches and returns plain documents."""

    def __init__(self, spec: Spec) -> None:
        loader, args = spec
        with warnings.catch_warnings():  # the caller loaded the same spec and warned once: not once per worker
            warnings.simplefilter("ignore")
            self.pipeline = loader(*args)

    def run(
        self, job: tuple[list[Any], tuple[int, bool, Any], int, tuple[float, int] | None, tuple[bool, Any, int]],
    ) -> tuple[list[Any], dict[str, int], list[Any], Exception | None]:
        """The batch's plain documents, the parser's counters over it, the warnings it raised as (category,
        message): the caller warns them again in its own process (a worker's stderr is not the caller's warning
        machinery: ``glmnlp parse -j 2`` printed them raw beside its own located warnings), and the error that
        refused a document of the batch, if one did (None otherwise), raised by the caller after the documents
        before it. The job's third item is
        the number of documents before the batch in the whole input, so that messages name a document by its place
        there, not in the batch; then the caller's parser's beam (:func:`parser_beam`) and the caller's pipeline's
        ``lines``, ``multitag_margin`` and ``max_words`` as they are now (:func:`pipeline_settings`)."""
        docs, (nbest, surprisal, measures), start, beam, settings = job
        set_as_callers(self.pipeline, beam, settings)
        stats = getattr(self.pipeline.parser, "stats", None)
        before = dict(stats) if isinstance(stats, dict) else {}
        out: list[Any] = []
        failed: Exception | None = None
        came_with: list[int] = []  # each warning's document: the one made after it (len(out): none, the failure)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            try:  # a document refused: the batch's documents before it are returned with the error
                for i, one in enumerate(docs):  # one at a time: the warnings of each are told apart
                    for doc in self.pipeline._pipe_here([one], 1, nbest, surprisal, measures=measures, start=start + i):
                        came_with += [len(out)] * (len(caught) - len(came_with))
                        out.append(document_to_plain(doc))
            except Exception as exc:  # noqa: BLE001 (raised again by the caller, after these documents)
                failed = exc
        after = dict(stats) if isinstance(stats, dict) else {}
        came_with += [len(out)] * (len(caught) - len(came_with))
        # each warning as plain data, with a cut's count (LongInputWarning.cuts), which str() of it leaves out
        warned = [(w.category, str(w.message), getattr(w.message, "cuts", 1), k) for w, k in zip(caught, came_with)]
        return out, {k: after[k] - before.get(k, 0) for k in after}, warned, failed


def document_to_plain(doc: Document) -> Any:
    """``doc`` as tuples, lists, strings and numbers (what travels between processes)."""
    return (
        doc.text,
        [
            ([(t.text, t.tag, t.start, t.end) for t in s.tokens], None if s.tree is None else tree_to_plain(s.tree),
             s.score, [(score, tree_to_plain(tree)) for score, tree in s.nbest], list(s.surprisal),
             [dict(row) for row in s.measures])
            for s in doc.sentences
        ],
    )


def document_from_plain(plain: Any) -> Document:
    """Inverse of :func:`document_to_plain`."""
    text, sentences = plain
    return Document(
        text,
        tuple(
            Sentence(tuple(Token(*t) for t in toks), None if tree is None else tree_from_plain(tree), score,
                     nbest=tuple((sc, tree_from_plain(t)) for sc, t in nbest), surprisal=tuple(surprisal),
                     measures=tuple(measures))
            for toks, tree, score, nbest, surprisal, measures in sentences
        ),
    )
