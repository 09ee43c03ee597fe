"""An input read on a thread of its own, so that waiting for it never holds back the results of what was read.

``glmnlp parse -j 2`` reading a pipe called ``next(input)`` with finished trees waiting in its workers' results: a
producer writing a line a second got each tree four or five lines late, and a program that writes a line and waits
for its tree before the next (a service talking to the command through a pipe) waited for ever, since the command
also read a second batch before deciding whether to start workers at all. With the input read here, the reader of
the results can look at the input without blocking (:meth:`Prefetch.poll` with a timeout) and at the results while
the input is still to come (:meth:`glmnlp.glm.parallel.Hosts.imap_any`).

What moves to the thread is the iteration of the input only (a file's lines, the batches made of them): at most
``ahead`` items are read before they are taken, as the loops that read it themselves kept their input from being read
far ahead; an error the input raises is given in its turn, after the items before it. The thread is a daemon: one
blocked on a terminal or a pipe that never ends does not keep the interpreter alive, and a reader that stops early
(:meth:`Prefetch.close`) lets it end at its next item; a reader waiting on a closed Prefetch (the thread of another
one) stops too.

Only an input known to be safe to read on another thread is read so: the command line's files and standard input
(the caller wraps it in a :class:`Prefetch`). An iterable of the caller's own is read where it was made
(:class:`InPlace`, the same interface, whose waits are as long as the reads): a generator over a database cursor
must be read on the thread that opened it (an SQLite cursor refuses any other), and a generator may rely on the
caller's thread-local state.
"""

from __future__ import annotations

import queue
import threading
from collections.abc import Iterable, Iterator
from typing import Any, Generic, TypeVar

from glmnlp.glm.pools import NO_ROOM

__all__ = ["NOT_YET", "InPlace", "Prefetch", "stream_of"]

T = TypeVar("T")

#: What :meth:`Prefetch.poll` gives when no item came within its timeout.
NOT_YET: Any = type("NotYet", (), {"__repr__": lambda self: "NOT_YET"})()

_ITEM, _END, _ERROR = 0, 1, 2


class Prefetch(Generic[T], Iterator[T]):
    """``items``, read on a thread of its own at most ``ahead`` items ahead of the caller.

    Iterating blocks as iterating ``items`` would; :meth:`poll` waits at most a given time."""

    def __init__(self, items: Iterable[T], ahead: int = 1) -> None:
        self._queue: queue.Queue[tuple[int, Any]] = queue.Queue(maxsize=max(1, ahead))
        self._stop = threading.Event()
        self._finished: tuple[int, Any] | None = None  # the end or the error, once taken (given again after it)
        self._thread = threading.Thread(target=self._run, args=(iter(items),), name="glmnlp-input", daemon=True)
        try:
            self._thread.start()
        except RuntimeError as exc:  # can't start new thread (ulimit -u with workers): it was a traceback
            raise MemoryError(f"cannot start a thread to read the input ({exc}): {NO_ROOM}") from None

    def _run(self, stream: Iterator[T]) -> None:
        try:
            for item in stream:
                if not self._put((_ITEM, item)):
                    return
            self._put((_END, None))
        except BaseException as exc:  # noqa: BLE001 (given to the reader in its turn: a SystemExit too, which
            self._put((_ERROR, exc))  # otherwise ended the thread in silence and left the reader waiting)
        finally:
            if self._stop.is_set() and hasattr(stream, "close"):  # a generator's cleanup (its open files)
                stream.close()

    def _put(self, entry: tuple[int, Any]) -> bool:
        while not self._stop.is_set():
            try:
                self._queue.put(entry, timeout=0.1)
                return True
            except queue.Full:
                continue
        return False

    def poll(self, timeout: float | None = None) -> T:
        """The next item, waiting at most ``timeout`` seconds (None: as long as it takes; 0: not at all) for it:
        :data:`NOT_YET` when none came; StopIteration at the end; the input's error, in its turn."""
        if self._finished is None:
            try:
                kind, value = self._get(timeout)
            except queue.Empty:
                return NOT_YET  # type: ignore[no-any-return]
            if kind == _ITEM:
                return value  # type: ignore[no-any-return]
            self._finished = (kind, value)
        kind, value = self._finished
        if kind == _ERROR:
            self._finished = (_END, None)  # raised once, as a generator's error ends it
            raise value
        raise StopIteration

    def _get(self, timeout: float | None) -> tuple[int, Any]:
        if timeout == 0:
            return self._queue.get_nowait()
        if timeout is not None:
            return self._queue.get(timeout=timeout)
        while True:  # as long as it takes, but not for ever once closed (the reader may be another Prefetch's thread)
            try:
                return self._queue.get(timeout=0.1)
            except queue.Empty:
                if self._stop.is_set():
                    return _END, None

    def __next__(self) -> T:
        return self.poll(None)

    def close(self) -> None:
        """Stop reading: the thread ends when its current item comes (at once if it is waiting to hand one over)."""
        self._stop.set()

    def __enter__(self) -> Prefetch[T]:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class InPlace(Generic[T], Iterator[T]):
    """``items`` read on the caller's thread, with :class:`Prefetch`'s interface: :meth:`poll` reads the next item
    whatever its timeout (so it never gives :data:`NOT_YET`)."""

    def __init__(self, items: Iterable[T]) -> None:
        self._items = iter(items)

    def poll(self, timeout: float | None = None) -> T:
        return next(self._items)

    def __next__(self) -> T:
        return next(self._items)

    def close(self) -> None:
        """Nothing to stop: the items are read as they are asked for."""

    def __enter__(self) -> InPlace[T]:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def stream_of(items: Iterable[T], threaded: bool) -> Prefetch[T] | InPlace[T]:
    """``items`` as a :class:`Prefetch` (``threaded``) or an :class:`InPlace`."""
    return Prefetch(items) if threaded else InPlace(items)
