"""Exceptions raised by glmnlp.

The hierarchy, so callers know what to catch::

    GlmnlpError                      every error glmnlp raises on purpose
    ├── InputError                   bad user data; carries file, line and reason (a ValueError too)
    │   ├── TreeSyntaxError          malformed Penn Treebank brackets
    │   └── FormatError              malformed CoNLL-U / word/TAG / tab-separated input
    ├── ModelFileError               a model file is missing, corrupt, truncated or foreign
    ├── ConfigError                  an invalid option or hyperparameter
    ├── WorkerError                  a worker (a local process, or Ray's) died before its work was done
    └── MissingPackageError          a package the work needs is not installed (an ImportError too)

Input errors print as ``file:line: reason`` so that editors and terminals can jump to them.
"""

from __future__ import annotations

from typing import Any


class GlmnlpError(Exception):
    """Base class of every error glmnlp raises on purpose."""


class InputError(GlmnlpError, ValueError):
    """Bad input data, located by file name and 1-based line number. A ``ValueError`` too: a bad value given to a
    function, which code catching ``ValueError`` around a call may expect."""

    def __init__(self, reason: str, *, source: str | None = None, line: int | None = None) -> None:
        self.reason = reason
        self.source = source if source is not None else "<input>"
        self.line = line
        super().__init__(str(self))

    def __str__(self) -> str:
        where = self.source if self.line is None else f"{self.source}:{self.line}"
        return f"{where}: {self.reason}"

    def __reduce__(self) -> tuple[Any, ...]:
        """Rebuilt from its attributes: pickle called ``__init__`` with the message as its reason (a worker's error
        came back as ``<input>: gold.trees:3: ...``, in its ``args`` and repr)."""
        return (_rebuilt, (type(self), dict(self.__dict__)))


def _rebuilt(cls: type[InputError], state: dict[str, Any]) -> InputError:
    error = cls.__new__(cls)
    error.__dict__.update(state)
    error.args = (str(error),)
    return error


def unreadable(exc: OSError, source: str, line: int | None = None) -> InputError:
    """The one :class:`InputError` of input that cannot be read (``source: cannot read file: REASON``, the system's
    reason), a path's or an open stream's alike: an open file whose read failed (EIO) was a :class:`FormatError`,
    ``cannot read: ...``, as if its data were malformed, where the same failure on its path was this."""
    return InputError(f"cannot read file: {exc.strerror or exc}", source=source, line=line)


class TreeSyntaxError(InputError):
    """Malformed bracketed tree (unbalanced, empty, stray text, missing label)."""


class FormatError(InputError):
    """Malformed token-level input (CoNLL-U, word/TAG lines, word<TAB>tag blocks)."""


class ModelFileError(GlmnlpError):
    """A model file that cannot be loaded: missing, corrupt, truncated, wrong version or foreign."""


class ConfigError(GlmnlpError):
    """An invalid configuration value."""


class WorkerError(GlmnlpError):
    """A worker died before its work was done, and its work is lost.

    A local worker process killed (the out-of-memory killer sends SIGKILL) or crashed: the other workers of its pool
    are stopped. On the Ray backend, a Ray worker or actor that died (crashed, or killed by Ray for lack of memory)
    or whose node was lost (:mod:`glmnlp.glm.parallel`)."""


class MissingPackageError(GlmnlpError, ImportError):
    """A package that the work needs is not installed: an optional extra (pandas, matplotlib, spaCy), or nltk, a
    dependency of glmnlp, in a broken installation. The message says what to install; an ``ImportError`` too, so
    code that catches the import's own error keeps working."""


#: What an installation without nltk (a dependency of glmnlp: a broken installation) says where nltk is needed, as a
#: missing extra is said; ``what`` names the work.
NLTK_MISSING = "{what} needs nltk, a dependency of glmnlp that is missing: pip install 'glmnlp[nltk]'"
