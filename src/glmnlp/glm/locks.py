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
"""

from __future__ import annotations

import os
import threading
import weakref
from collections.abc import Callable
from types import TracebackType
from typing import Any

__all__ = ["ForkSafeLock"]

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


if hasattr(os, "register_at_fork"):  # POSIX; elsewhere processes are spawned, not forked
    os.register_at_fork(after_in_child=_renew_all)
