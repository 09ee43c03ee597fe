"""Standard output's descriptor under the command line, every write made whole and counted (:class:`WholeWrites`).

Our choices:

* **Whole writes.** On a nearly full disk a write can be short (8,192 of 20,000 bytes): Python's buffered writer
  returned the short count and its text layer dropped it, so ``glmnlp evalb ... > full/report`` ended with status 0
  and the first 8 KB of the report. Here the rest is written at once, and the write that cannot be made raises
  (ENOSPC, EFBIG), which the command reports in one line.
* **Counted before Ctrl-C.** A Ctrl-C just after the system's write returned raised before the count reached the
  buffered writer, which kept the bytes and wrote them again at the command's last flush: the output twice, after
  ``Aborted.`` (about one Ctrl-C in two on a terminal). In the main thread, while a write is under way a stop signal
  that Python handles (Ctrl-C; SIGTERM and SIGHUP, which the command turns into it, also where SIGINT is ignored, as
  in a shell's background job, whose SIGTERM spliced the output so) is noted and given to its handler between two
  system writes, once the last one is counted; a write never blocks with a signal noted: it waits for the descriptor
  to take a pipe's atomic amount (``select``) and writes at most that, so a command whose reader stopped reading
  (``| less`` not scrolled) still ends at once (a first version held the signal through a blocked write, and only
  SIGKILL ended it).
* **Bytes written once.** What an interrupted write wrote is not written again when the buffered writer passes the
  same bytes at its next flush; bytes that are not the same (a large write the buffered writer made straight from
  its caller's data, and kept nothing of) are written whole. (A later write that began with those very bytes would
  lose them; after an interrupt the command writes nothing but its last flush.)
* **A last flush that does not wait for ever.** Once the command is interrupted, the rest of its output is written
  for as long as the descriptor takes it within :attr:`WholeWrites.deadline` (a second), and dropped after it: a
  reader that stopped reading held the interrupted command for ever after ``Aborted.`` (only a second signal, or
  SIGKILL through ``main()``, ended it). A file takes it all.
"""

from __future__ import annotations

import io
import os
import select
import signal
import stat
import threading
import time
from typing import Any

__all__ = ["WholeWrites"]

#: the most a write of a pipe takes at once once ``select`` says it is writable (POSIX: at least 512; Linux 4,096)
_CHUNK = getattr(select, "PIPE_BUF", 512)
#: how long a wait for the descriptor lasts before a noted signal is looked at again (seconds)
_POLL = 0.2


class WholeWrites(io.RawIOBase):
    """The raw layer of standard output (an :class:`io.BufferedWriter` over it): see the module docstring."""

    def __init__(self, fd: int) -> None:
        super().__init__()
        self._fd = fd
        self._sent = b""  # what a write that Ctrl-C ended wrote, which the buffered writer passes again
        #: once set (a time of ``time.monotonic()``), what the descriptor does not take by then is dropped
        self.deadline: float | None = None
        try:  # a pipe, a terminal or a socket can block a write: watched; a file cannot
            self._watched = not stat.S_ISREG(os.fstat(fd).st_mode)
        except OSError:
            self._watched = True

    def writable(self) -> bool:
        return True

    def fileno(self) -> int:
        return self._fd

    def isatty(self) -> bool:
        return os.isatty(self._fd)

    def write(self, data: Any) -> int:
        view = memoryview(data).cast("B")
        done = 0
        if self._sent:
            if bytes(view[:len(self._sent)]) == self._sent:
                done = len(self._sent)
            self._sent = b""
        if self.deadline is not None:
            return self._write_by(view, done, self.deadline)
        handlers = _python_handlers() if threading.current_thread() is threading.main_thread() else {}
        if not handlers:  # no signal of Python's to hold: written as it comes
            while done < len(view):
                done += os.write(self._fd, view[done:])
            return done
        noted: list[tuple[int, Any]] = []
        try:
            for signum in handlers:
                signal.signal(signum, lambda signum, frame: noted.append((signum, frame)))
            try:
                while done < len(view) and not noted:
                    if not self._watched:
                        done += os.write(self._fd, view[done:])
                    elif self._wait(noted):
                        done += os.write(self._fd, view[done:done + _CHUNK])
            finally:
                for signum, handler in handlers.items():
                    signal.signal(signum, handler)
            if noted:  # the first signal, to its own handler (Ctrl-C's raises KeyboardInterrupt; the command line
                signum, frame = noted[0]  # turns SIGTERM and SIGHUP into Ctrl-C)
                handlers[signum](signum, frame)
        except KeyboardInterrupt:
            self._sent = bytes(view[:done])
            raise
        return done

    def _wait(self, noted: list[tuple[int, Any]]) -> bool:
        """Wait until the descriptor takes a write or a signal is noted; True when it may be written."""
        while not noted:
            try:
                _, ready, _ = select.select([], [self._fd], [], _POLL)
            except (OSError, ValueError):  # a descriptor select cannot watch: written as it is
                return True
            if ready:
                return True
        return False

    def _write_by(self, view: memoryview, done: int, deadline: float) -> int:
        """Write ``view`` from ``done`` as far as the descriptor takes it before ``deadline``; the rest is dropped
        (counted as written, so that the buffered writer keeps nothing)."""
        while done < len(view):
            if not self._watched:
                done += os.write(self._fd, view[done:])
                continue
            try:
                _, ready, _ = select.select([], [self._fd], [], max(0.0, deadline - time.monotonic()))
            except (OSError, ValueError):
                ready = [self._fd]
            if not ready:
                return len(view)
            done += os.write(self._fd, view[done:done + _CHUNK])
        return done


def _python_handlers() -> dict[int, Any]:
    """The stop signals (SIGINT, SIGTERM, SIGHUP) whose handler is a Python function, with it: the ones a write
    holds (one ignored or left to the system stays so: a shell's background job ignores SIGINT, and the command line
    still turns its SIGTERM into Ctrl-C)."""
    found = {}
    for name in ("SIGINT", "SIGTERM", "SIGHUP"):
        signum = getattr(signal, name, None)
        if signum is not None and callable(handler := signal.getsignal(signum)):
            found[signum] = handler
    return found
