"""``glmnlp parse --format svg --out-dir DIR``: the folder its drawings go to, checked before any work.

The folder must be new, empty or hold only regular files named ``sentence-NNNN.svg`` (an earlier run's drawings,
and their temporary files), which the run replaces (:mod:`glmnlp.cli.parse_cmd`'s header says when). Our choices:

* **A drawing that is the input is the usage error of every output that would replace an input**
  (:func:`glmnlp.cli._paths.check_not_an_input`, status 2, before anything is read; ``-`` is the file stdin reads).
  It had a check of its own, an error of status 1 after the model was loaded. Unlike ``data --clean --out`` or
  ``measures --plot``, the outputs are several files: each earlier drawing the run would replace is compared.
* **The folder is checked first**: a link or a file as ``--out-dir`` is refused whatever the input (``ConfigError``,
  status 1, as before), before its drawings are compared with the input (a link to the input's folder was said to
  be the input's, status 2, where the reason that holds for any input went unsaid).
* **Anything else in the folder is an error of status 1** (``ConfigError``), as before: the folder's contents
  (a stranger's file, another run writing there: :func:`claim`) are its state when the command runs, not two names
  on the command line that contradict each other.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from glmnlp.cli._params import some_of
from glmnlp.cli._paths import check_not_an_input
from glmnlp.errors import ConfigError

__all__ = ["check_drawings_not_input", "check_svg_dir", "claim"]


_SVG_NAME = re.compile(r"sentence-[0-9]{4,}\.svg")
#: the temporary file of a drawing being written (glmnlp.treebank.fileio.atomic_write_bytes), left by a run killed
#: (SIGKILL) in the middle of one: this command's own, removed as an earlier drawing is, not a stranger's file
#: (earlier releases named it without the pid)
_SVG_TEMPORARY = re.compile(r"\.sentence-[0-9]{4,}\.svg\.(?:glmnlp-tmp-[0-9]+-)?[a-z0-9_]{8}\.tmp")


def _is_drawing(path: Path) -> bool:
    """Whether ``path`` in --out-dir is an earlier run's drawing (or its temporary file), which this run replaces."""
    return bool(_SVG_NAME.fullmatch(path.name) or _SVG_TEMPORARY.fullmatch(path.name)) and path.is_file() and (
        not path.is_symlink())


def check_drawings_not_input(out_dir: Path, input_path: str | None) -> None:
    """A usage error, before anything is read, when one of the drawings in ``out_dir`` that this run would replace is
    the input (``input_path``: a file, ``-`` for stdin, None for TEXT arguments): :func:`check_not_an_input`, every
    drawing being an output of the run. A folder refused whatever the input (a link, a file) is refused first, as
    :func:`check_svg_dir` refuses it: a link to the input's folder was said to be the input's (status 2), the reason
    that holds for any input left unsaid."""
    _check_folder(out_dir)
    try:
        drawings = [p for p in sorted(out_dir.iterdir()) if _is_drawing(p)] if out_dir.is_dir() else []
    except OSError:
        return  # a folder that cannot be listed: check_svg_dir says so
    for drawing in drawings:
        check_not_an_input(drawing, "--out-dir", [("the --input file", input_path)],
                           "a drawing would replace the text; write the drawings elsewhere")


def _check_folder(out_dir: Path) -> None:
    """--out-dir is a folder or nothing yet: not a link (the drawings went where it pointed), not a file."""
    if out_dir.is_symlink() or (out_dir.exists() and not out_dir.is_dir()):
        raise ConfigError(f"{out_dir}: exists and is not a directory (--out-dir)")


def check_svg_dir(out_dir: Path) -> list[Path]:
    """--out-dir must be new, empty, or hold only drawings of an earlier run (``sentence-NNNN.svg`` regular files,
    replaced; none of them the input: :func:`check_drawings_not_input`, earlier); returns those drawings. Files can be
    created in it (or where it will be created)."""
    from glmnlp.treebank.fileio import check_writable_folder

    _check_folder(out_dir)
    check_writable_folder(out_dir)
    if not out_dir.exists():
        return []
    earlier: list[Path] = []
    others: list[str] = []
    for path in sorted(out_dir.iterdir()):
        if _WRITING.fullmatch(path.name):
            continue  # another run's mark: claim, before any work, refuses it while that run writes
        if _is_drawing(path):
            earlier.append(path)
        else:
            others.append(path.name)
    if others:
        raise ConfigError(
            f"{out_dir}: already exists and holds files that are not drawings of glmnlp parse ({some_of(others, 3)}); "
            "choose a new or empty --out-dir"
        )
    return earlier


_WRITING = re.compile(r"\.glmnlp-writing-(?P<pid>[0-9]+)")  # in --out-dir while a run writes there; holds its host


def claim(out_dir: Path) -> Path:
    """Mark ``out_dir`` as written by this run (``.glmnlp-writing-PID``, holding the host's name), and return the
    mark; a :class:`ConfigError` if another run's mark is there and its process runs (on another host: it cannot be
    told, so it counts as running). Each run makes a mark of its own name, so that two runs started together each
    see the other's and neither writes (one mark taken over by both let both write); a mark of a process gone is
    removed."""
    import socket

    from glmnlp.treebank.fileio import process_alive

    mine = out_dir / f".glmnlp-writing-{os.getpid()}"
    host = socket.gethostname()
    mine.write_text(f"{host}\n", encoding="utf-8")
    for mark in sorted(out_dir.iterdir()):
        if (found := _WRITING.fullmatch(mark.name)) is None or mark == mine:
            continue
        try:
            where = mark.read_text(encoding="utf-8").strip() or host  # (empty: read as it was being written)
        except (OSError, UnicodeDecodeError):
            where = host
        pid = int(found["pid"])
        if where != host or process_alive(pid):
            mine.unlink(missing_ok=True)
            at = "" if where == host else f" on {where}"
            raise ConfigError(f"{out_dir}: another glmnlp parse (process {pid}{at}) is writing its drawings there: "
                              f"wait for it to end, or choose another --out-dir (if no run is, remove {mark.name})")
        mark.unlink(missing_ok=True)  # a dead run's
    return mine
