"""Locks that a forked child process can take.

A model shared by threads guards its caches with a lock (the tagger's per-type atom cache, the parser's counters,
a deferred pipeline's first build). ``os.fork`` copies a lock in the state it has at that moment, and only the
forking thread into the child: a lock another thread held then is held in the child for ever, and the child's
first tag or parse waited on it without end (gunicorn ``--preload``, Celery's prefork pool and ``multiprocessing``
with ``fork`` fork processes whose parent may be parsing on another thread; 1-3 of 30-40 children hung when a
parent thread tagged in a loop). :class:`ForkSafeLock` is renewed in the child right after a fork, while the
child has one thread, so no two threads of the child can see two different locks. The data the lock guarded may
have been left between two steps of an update by the other thread; the guarded data here are caches and
counters, which stay usable (a cache entry written twice, a counter short by one batch).

Python's own locks are not renewed: a module that one thread was importing when another forked stays locked in
the child, whose first import of it waited for ever (the tokenizer's nltk and pysbd, imported by a pipeline's first
call: 5 of 6 children hung). A fork waits for the imports glmnlp does on first use (:func:`fork_waits`).
"""

from __future__ import annotations

import importlib
import os
import threading
import weakref
from collections.abc import Callable
from types import TracebackType
from typing import Any

__all__ = ["ForkSafeLock", "fork_waits"]

importlib.import_module("logging")  # at import, with the package: fork_waits registers its fork hook after logging's

_LIVE: weakref.WeakSet[ForkSafeLock] = weakref.WeakSet()


class ForkSafeLock:
    """A lock (``threading.Lock``, or ``threading.RLock`` with ``reentrant``) used as a context manager, replaced
    by a new, free one in a child process after ``os.fork``."""

    __slots__ = ("_factory", "_lock", "_owner", "_depth", "__weakref__")

    def __init__(self, reentrant: bool = False) -> None:
        self._factory: Callable[[], Any] = threading.RLock if reentrant else threading.Lock
        self._lock = self._factory()
        self._owner: int | None = None  # the thread holding it, so that a fork inside the block keeps it held
        self._depth = 0
        _LIVE.add(self)

    def __enter__(self) -> bool:
        taken = bool(self._lock.__enter__())
        me = threading.get_ident()
        self._depth = self._depth + 1 if self._owner == me else 1
        self._owner = me
        return taken

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self._depth -= 1
        if self._depth == 0:
            self._owner = None
        self._lock.__exit__(exc_type, exc, tb)

    def _renew(self) -> None:
        """In a forked child: a new lock, unless the forking thread itself holds this one (it leaves the block in
        the child too, releasing it: a new lock would be released unheld)."""
        if self._owner != threading.get_ident():
            self._lock = self._factory()
            self._owner, self._depth = None, 0


def _renew_all() -> None:
    for lock in list(_LIVE):
        lock._renew()


#: held by a block that a fork waits for (reentrant: a fork inside such a block does not wait for itself)
_FORK_WAITS = threading.RLock()
_HOOKED = threading.Lock()  # taken to register the fork hooks once
_HOOKS: list[bool] = []  # [True] once registered
_FORKING = threading.local()  # per forking thread: whether its fork took _FORK_WAITS
#: the longest a fork waits for such a block (a bound, should a lock the block needs be one another fork hook holds);
#: (at 10 s a child hung once on a machine loaded by other work, where a first import can take that long)
FORK_WAIT_SECONDS = 60.0


def fork_waits() -> Any:
    """A context manager: a block (an import on first use) that ``os.fork`` in another thread waits for, so that no
    child begins with the block half done (module docstring).

    The hooks are registered at the first use, after those of the modules imported by then (``logging``'s takes its
    lock before a fork): hooks run last registered first, so a fork waits for the block before it takes any of those
    locks, which the block may need (the importing thread waited on ``logging``'s lock, held by the forking one)."""
    if not _HOOKS and hasattr(os, "register_at_fork"):  # POSIX; elsewhere processes are spawned, not forked
        with _HOOKED:  # once (no lock taken afterwards: a fork while another thread held it left it held)
            if not _HOOKS:
                importlib.import_module("logging")  # its hook registered before ours, so run after it
                os.register_at_fork(before=_wait_for_blocks, after_in_parent=_blocks_go_on,
                                    after_in_child=_blocks_go_on)
                _HOOKS.append(True)
    return _FORK_WAITS


def _wait_for_blocks() -> None:
    _FORKING.took = _FORK_WAITS.acquire(timeout=FORK_WAIT_SECONDS)


def _blocks_go_on() -> None:
    if getattr(_FORKING, "took", False):
        _FORKING.took = False
        _FORK_WAITS.release()


def _renew_hooked() -> None:  # in a child: free, whoever held it in the parent
    global _HOOKED
    _HOOKED = threading.Lock()


if hasattr(os, "register_at_fork"):  # POSIX; elsewhere processes are spawned, not forked
    os.register_at_fork(after_in_child=_renew_all)
    os.register_at_fork(after_in_child=_renew_hooked)
