"""Process-wide defaults for where glmnlp runs independent work: ``glmnlp.config``.

Every training function and command that can use several cores (``Tagger.fit``,
``glmnlp.parser.training.train_parser``, ``glmnlp ... --jobs``) takes ``jobs``, ``backend`` and ``address``
(``train_default`` takes an ``executor``; left unset, each of its steps makes one from here); when the caller
leaves them unset (``None``) they come from here, so a program or a notebook can say once where its work runs::

    import glmnlp
    glmnlp.config.set(jobs=2)                       # from now on
    with glmnlp.config.using(backend="ray", address="auto"):
        ...                                         # only inside the block

Initial values come from the environment, then from the defaults below:

========================  ==================  ==========================================
setting                   environment         default
========================  ==================  ==========================================
``jobs``                  ``GLMNLP_JOBS``     ``0``: every core this process may use
                                              (``1``: everything in this process)
``backend``               ``GLMNLP_BACKEND``  ``"local"`` (worker processes; or ``"ray"``)
``address``               ``GLMNLP_ADDRESS``  ``None`` (Ray only: ``HOST:PORT`` or ``"auto"``)
========================  ==================  ==========================================

Our choices:

* **Every core by default** for training: the result never depends on ``jobs`` (only on the data,
  the options, the seed and ``shards``), so using the whole machine costs nothing but memory.
* ``Pipeline.pipe(n_process=1)`` keeps spaCy's convention (one process unless asked) and does not
  read ``jobs``: a library call that parses one sentence should not start worker processes.
* The settings are one immutable :class:`Settings` value per process, replaced as a whole, so a
  reader never sees half of an update. They are process-wide (not per thread): worker processes
  receive explicit values from their parent, never this module's state.
* A bad environment value is a :class:`~glmnlp.errors.ConfigError` naming the variable at fault and
  its value (``GLMNLP_JOBS=-3: jobs must be ...``), raised when that setting is needed: importing glmnlp
  never fails because of the environment, and a call that gives the setting (``jobs=2``), or runs in this
  process, does not read it. A command reads the settings its options leave unset before any work, whatever its
  input (``glmnlp parse "Hi."`` too, which is parsed in this process): a bad value stops it at once rather than
  on the first input large enough for workers; ``--jobs 1`` leaves ``GLMNLP_BACKEND`` unread, ``--jobs N``
  ``GLMNLP_JOBS``.
"""

from __future__ import annotations

import operator
import os
import shlex
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace
from typing import Any

from glmnlp.errors import ConfigError

__all__ = ["BACKENDS", "MAX_JOBS", "Settings", "get", "resolve", "set", "using"]

#: The most workers any setting asks for (six digits, as GLMNLP_JOBS reads them): --jobs, GLMNLP_JOBS and
#: ``set(jobs=...)`` follow one rule (``-j 99999999999999999999`` was taken, the variable refused)
MAX_JOBS = 999_999
_JOBS_RULE = f"jobs must be an integer from 0 to {MAX_JOBS} (0 = all cores)"

#: Where parallel work can run (glmnlp.glm.parallel).
BACKENDS = ("local", "ray")
_UNSET: Any = object()


@dataclass(frozen=True)
class Settings:
    """Where independent work runs: ``jobs`` workers (0 = all cores) on ``backend`` (Ray: at ``address``)."""

    jobs: int = 0
    backend: str = "local"
    address: str | None = None

    def __post_init__(self) -> None:
        if isinstance(self.jobs, bool) or not isinstance(self.jobs, int) or not 0 <= self.jobs <= MAX_JOBS:
            raise ConfigError(f"{_JOBS_RULE}, got {self.jobs!r}")
        if self.backend not in BACKENDS:
            raise ConfigError(f"backend must be one of {', '.join(BACKENDS)}, got {self.backend!r}")
        if self.address is not None and (not isinstance(self.address, str) or not self.address):
            raise ConfigError(f"address must be HOST:PORT or 'auto', got {self.address!r}")
        if self.address is not None and self.backend != "ray":
            raise ConfigError("an address needs the ray backend")


def _from_environment() -> tuple[Settings, dict[str, ConfigError]]:
    """The settings the environment gives, and the error of each variable at fault, by setting. A setting whose
    variable is at fault holds its default until the error is raised, when (and only when) that setting is needed:
    a bad ``GLMNLP_JOBS`` stopped ``glmnlp parse -j 2`` and commands that run in this process, which never read it.
    An error names only its variable (``GLMNLP_JOBS=-3: jobs must be ...``), spelled as a shell would take it back."""
    errors: dict[str, ConfigError] = {}
    jobs_text = os.environ.get("GLMNLP_JOBS", "").strip()
    # ASCII digits only: int() also reads '1_0' and other scripts' digits; at most six of them
    ascii_number = jobs_text.isascii() and jobs_text.isdigit() and len(jobs_text) <= 6
    jobs = 0 if not jobs_text else int(jobs_text) if ascii_number else -1
    if jobs < 0:  # a number of seven digits or more was "must be an integer >= 0"
        errors["jobs"] = ConfigError(f"GLMNLP_JOBS={shlex.quote(jobs_text)}: {_JOBS_RULE}")
        jobs = 0
    backend = os.environ.get("GLMNLP_BACKEND", "").strip() or "local"
    if backend not in BACKENDS:
        errors["backend"] = ConfigError(
            f"GLMNLP_BACKEND={shlex.quote(backend)}: backend must be one of {', '.join(BACKENDS)}"
        )
        backend = "local"
    # an address without GLMNLP_BACKEND=ray is kept for the calls that choose the ray backend themselves
    # (glmnlp ... --backend ray): it was refused, although the docs give it as --address's default (resolve)
    return Settings(jobs, backend, _environment_address() if backend == "ray" else None), errors


def _environment_address() -> str | None:
    return os.environ.get("GLMNLP_ADDRESS", "").strip() or None


_current: Settings | None = None
# The environment's errors, by setting, and the settings value they belong to: they hold while ``_current`` is that
# value (a setting changed by set() or using() drops its error; a value put in ``_current`` any other way has none).
_faults: tuple[Settings | None, dict[str, ConfigError]] = (None, {})


def _load() -> Settings:
    """The current settings, read from the environment the first time; the environment's errors not raised."""
    global _current, _faults
    if _current is None:
        _current, errors = _from_environment()
        _faults = (_current, errors)
    return _current


def _check(*names: str) -> None:
    """Raise the environment's error of the first of the settings ``names`` whose variable is at fault."""
    owner, errors = _faults
    if owner is _current:
        for name in names:
            if name in errors:
                raise errors[name]


def get() -> Settings:
    """The current settings (read from the environment the first time; a variable at fault is its ConfigError)."""
    settings = _load()
    _check("jobs", "backend")
    return settings


def set(*, jobs: int = _UNSET, backend: str = _UNSET, address: str | None = _UNSET) -> Settings:
    """Change the given settings for the rest of the process; returns the previous settings."""
    global _current, _faults
    previous = _load()
    changes: dict[str, Any] = {k: v for k, v in (("jobs", jobs), ("backend", backend), ("address", address))
                               if v is not _UNSET}
    if "backend" in changes and changes["backend"] != "ray" and "address" not in changes:
        changes["address"] = None  # an address belongs to the ray backend it was given with
    owner, errors = _faults
    _current = replace(previous, **changes)
    if owner is previous:  # the environment's errors of the settings not changed still hold
        _faults = (_current, {k: e for k, e in errors.items() if k not in changes})
    return previous


@contextmanager
def using(*, jobs: int = _UNSET, backend: str = _UNSET, address: str | None = _UNSET) -> Iterator[Settings]:
    """The given settings inside a ``with`` block only (restored after it, even on an error)."""
    global _current, _faults
    faults = _faults
    previous = set(jobs=jobs, backend=backend, address=address)
    try:
        yield get()
    finally:
        _current, _faults = previous, faults


def resolve(jobs: int | None = None, backend: str | None = None, address: str | None = None) -> Settings:
    """Explicit values where given, the current settings elsewhere (an explicit backend other than
    ray drops the configured address). Only the settings taken from the environment are checked there: a bad
    ``GLMNLP_JOBS`` is no error for a call that gives ``jobs``."""
    current = _load()
    _check(*(name for name, value in (("jobs", jobs), ("backend", backend)) if value is None))
    if jobs is not None and not isinstance(jobs, bool):
        try:
            jobs = operator.index(jobs)  # numpy integers too
        except TypeError:
            raise ConfigError(f"{_JOBS_RULE}, got {jobs!r}") from None
    backend_value = current.backend if backend is None else backend
    if address is None:
        address = current.address if backend_value == current.backend else None
        if address is None and backend_value == "ray" and current.backend != "ray":
            address = _environment_address()  # the ray backend chosen by the call: $GLMNLP_ADDRESS, if set
    return Settings(current.jobs if jobs is None else jobs, backend_value, address)
