"""Local worker pools of :mod:`glmnlp.glm.parallel`: starting them, and stopping them on every way out.

The pools are the standard library's ``ProcessPoolExecutor`` started with ``forkserver`` (``spawn``
where forkserver does not exist). This module decides how their workers end.

Choice: **the caller owns Ctrl-C**. Every worker ignores SIGINT (the pool's initializer), so Ctrl-C
in a terminal, which signals the whole process group, interrupts only the caller, never a worker in
the middle of reading its queue: that printed worker tracebacks (``Process ForkServerProcess-1: ...
KeyboardInterrupt``) and could leave a queue half read, which hangs the pool's shutdown. The
alternative, workers that stop on SIGINT themselves, cannot be made quiet and safe wherever the
signal lands. The caller then stops the workers:

* :func:`stop_pools` waits for the running calls when nothing went wrong, and terminates the workers
  when an exception (Ctrl-C's ``KeyboardInterrupt``, an error, a generator closed early) is on its
  way out: nothing could use the running calls' results, and a worker that ignores SIGINT would
  otherwise finish a whole training pass first. ``Executor.close`` and ``Hosts.close`` (and their
  ``with`` blocks) stop their pools this way.
* Pools whose owner is dropped without ``close()`` terminate their workers when it is collected
  (:func:`stop_when_collected`), and pools still open when the interpreter exits are terminated
  before the standard library waits for their threads: an interrupted program always ends with its
  workers, and a finished one never races with ``concurrent.futures``' own exit-time cleanup
  (``Exception ignored ... OSError: [Errno 9] Bad file descriptor``).
* Ctrl-C is held back (:func:`interrupts_deferred`) while a pool may start a worker (``submit``) and
  while workers are terminated: a worker forked but not yet recorded by its pool could never be
  terminated, and, ignoring SIGINT, would wait for work forever.
* A worker that dies (the out-of-memory killer's SIGKILL, a crash) fails the calls waiting on its pool
  with :class:`~glmnlp.errors.WorkerError`, saying how it ended (:class:`LocalCall`), instead of the
  standard library's ``BrokenProcessPool``; and when it died half way through sending a result, which
  leaves the pool's thread reading the rest for ever (no call of the pool would ever end), the pool is
  broken by hand (:func:`_close_result_writer`).
* A worker ends with the process that started its pool, however that ends: killed by SIGKILL (the out-of-memory
  killer's signal, which no handler sees), the caller left its workers blocked on their queues for ever, each
  holding its memory (two of 266 MB after a killed ``glmnlp parser train -j 2``), and kept the forkserver and the
  resource tracker alive. Each worker reads a pipe that only the caller writes to (never written: its end of file
  comes when the caller's process is gone) on a thread of its own, and exits when it ends.
* A process forked from one whose pools had started the forkserver (a preloading web server's workers, gunicorn
  ``--preload``) kept the standard library's record of its parent's forkserver: every pool it started failed with
  ``ChildProcessError: No child processes`` (the server is not its child), for the life of the process. The child
  forgets it at the fork (:func:`_forget_parents_forkserver`, as :mod:`glmnlp.glm.locks` renews its locks) and
  starts its own when it needs one.
* A thread or a worker process that cannot be started (``can't start new thread``; a forkserver whose fork fails)
  lacks memory (``ulimit -v``) or processes (``ulimit -u``, which counts threads): a :class:`MemoryError` naming
  both (:data:`NO_ROOM`); it was a traceback, ``Aborted.`` (the forkserver's closed pipe, an ``EOFError``), "out of
  memory" alone, or a worker that "exited with status 0" (its initializer's traceback above it).
* A worker whose start would run out of file descriptors (``ulimit -n``) is an ``OSError`` (EMFILE) raised before
  the forkserver is asked for it (:func:`_room_for_a_worker`), which the command line says in one line: run out of
  half way through the request, the server printed a traceback of its own above that line (``ulimit -n`` 23 to 29
  for ``parse -j 2``).
* A program that owns its whole process, like the ``glmnlp`` command, also calls
  :func:`ignore_sigint_in_forkserver`: the forkserver, started with SIGINT ignored, cannot be stopped
  by Ctrl-C while it starts, and its workers ignore SIGINT from their first instruction instead of
  from their initializer; and they use one thread for linear algebra (:data:`_ONE_THREAD`). The library does
  not do it by itself: the forkserver is shared with the program's other process pools, whose workers would
  inherit the settings.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import sys
import threading
import time
import weakref
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from contextlib import contextmanager
from multiprocessing import connection
from typing import Any

from glmnlp.errors import WorkerError

__all__ = [
    "NO_ROOM",
    "LocalCall",
    "ignore_sigint_in_forkserver",
    "interrupts_deferred",
    "mp_context",
    "start_pool",
    "stop_pools",
    "stop_when_collected",
    "submit",
    "wait_any",
]

# Pools started and not yet shut down: those left open are stopped at interpreter exit (_stop_at_exit).
_LIVE: set[ProcessPoolExecutor] = set()
_LOCK = threading.Lock()
_FORKSERVER_IGNORES_SIGINT = False

#: Why a thread or a process could not be started, in the messages of the MemoryError that says so (module docstring)
NO_ROOM = "out of memory, or of processes (the limit ulimit -u counts threads too): use fewer jobs (--jobs 1)"
#: The exit status of a worker that could not start its thread (the standard library exits 0 after an initializer's
#: traceback, and the caller said "it exited with status 0")
_NO_THREAD_STATUS = 75


def _start_worker(caller: connection.Connection) -> None:
    """Initializer of every worker: SIGINT (Ctrl-C to the process group) is for the caller to handle, and the worker
    ends when the caller's process ends (``caller``: the reading end of a pipe that only the caller writes to)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        threading.Thread(target=_end_with_caller, args=(caller,), name="glmnlp-caller-watch", daemon=True).start()
    except RuntimeError:  # can't start new thread
        os._exit(_NO_THREAD_STATUS)


def _end_with_caller(caller: connection.Connection) -> None:
    """Wait for the end of the caller's pipe, which comes when the caller's process ends however it ends (the
    out-of-memory killer's SIGKILL too), and end this worker then (module docstring)."""
    try:
        caller.recv_bytes()
    except (EOFError, OSError):
        pass
    os._exit(1)


def ignore_sigint_in_forkserver() -> None:
    """Start multiprocessing's forkserver, when glmnlp is the first to need it, with SIGINT ignored (and its workers
    with one linear-algebra thread each).

    For programs that own their whole process, such as the ``glmnlp`` command (module docstring).
    """
    global _FORKSERVER_IGNORES_SIGINT
    _FORKSERVER_IGNORES_SIGINT = True


#: The thread counts of numpy's linear algebra libraries, one in the workers of a program that owns its process (its
#: workers fill the cores): each started an idle pool of a thread per CPU, counted by ``ulimit -u`` (N workers on N
#: CPUs: N * N threads). Each is set unless a variable its library reads (the value) is set.
_ONE_THREAD = {"OPENBLAS_NUM_THREADS": ("OPENBLAS_NUM_THREADS", "GOTO_NUM_THREADS", "OMP_NUM_THREADS"),
               "MKL_NUM_THREADS": ("MKL_NUM_THREADS", "OMP_NUM_THREADS"), "OMP_NUM_THREADS": ("OMP_NUM_THREADS",)}


def mp_context() -> Any:
    """The multiprocessing context of the pools: forkserver, else spawn."""
    if "forkserver" not in multiprocessing.get_all_start_methods():
        return multiprocessing.get_context("spawn")
    if _FORKSERVER_IGNORES_SIGINT and threading.current_thread() is threading.main_thread():
        from multiprocessing import forkserver

        # SIGHUP too: a closed terminal hangs up the whole process group, and the resource tracker (started with
        # the forkserver) died of it while the command stopped its workers, whose shared-memory names a new
        # tracker then did not know: ten KeyError tracebacks after "Aborted." (the command ends them itself)
        ignored = [s for s in (signal.SIGINT, getattr(signal, "SIGHUP", None)) if s is not None]
        previous = {s: signal.getsignal(s) for s in ignored}
        if None not in previous.values():  # None: a handler installed outside Python, which could not be put back
            # ignored while it starts: an exec keeps ignored signals ignored (a Ctrl-C in these
            # milliseconds is lost); a forkserver already running is kept as it is
            for s in ignored:
                signal.signal(s, signal.SIG_IGN)
            # each library's own choice: OpenBLAS reads its variables, then OMP_NUM_THREADS; MKL likewise
            unset = [name for name, read in _ONE_THREAD.items() if not any(v in os.environ for v in read)]
            os.environ.update(dict.fromkeys(unset, "1"))
            try:
                forkserver.ensure_running()
            finally:
                for s, handler in previous.items():
                    signal.signal(s, handler)
                for name in unset:
                    os.environ.pop(name, None)
    return multiprocessing.get_context("forkserver")


@contextmanager
def interrupts_deferred() -> Iterator[None]:
    """Ctrl-C inside the block raises its ``KeyboardInterrupt`` when the block ends.

    Only in the main thread (where Python runs signal handlers) and when SIGINT has Python's default
    handler; otherwise the block runs as it is.
    """
    if threading.current_thread() is not threading.main_thread() or (
        signal.getsignal(signal.SIGINT) is not signal.default_int_handler
    ):
        yield
        return
    caught: list[Any] = []
    signal.signal(signal.SIGINT, lambda _signum, frame: caught.append(frame))
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, signal.default_int_handler)
        if caught:
            signal.default_int_handler(signal.SIGINT, caught[0])


def start_pool(workers: int, ctx: Any) -> ProcessPoolExecutor:
    """A pool of ``workers`` processes (started as work arrives) that ignore SIGINT."""
    reader, writer = ctx.Pipe(duplex=False)
    pool = ProcessPoolExecutor(max_workers=workers, mp_context=ctx, initializer=_start_worker, initargs=(reader,))
    pool._glmnlp_caller_pipe = (reader, writer)  # type: ignore[attr-defined]  # open as long as the pool
    with _LOCK:
        _LIVE.add(pool)
    return pool


def submit(pool: ProcessPoolExecutor, fn: Callable[..., Any], *args: Any) -> LocalCall:
    """``pool.submit(fn, *args)``, not interrupted half way (it may start a worker); a pool broken by a worker that
    died is a :class:`WorkerError`, here as in :meth:`LocalCall.result`."""
    with interrupts_deferred():
        try:
            if len(_workers(pool)) < getattr(pool, "_max_workers", 0):  # it may start a worker
                _room_for_a_worker()
            return LocalCall(pool.submit(fn, *args), pool)
        except BrokenProcessPool as exc:
            raise WorkerError(_how_workers_died(pool)) from exc
        except RuntimeError as exc:  # "can't start new thread": the pool's thread, out of memory or of threads
            if "thread" not in str(exc):
                raise
            raise MemoryError(f"cannot start a thread for the workers ({exc}): {NO_ROOM}") from None
        except EOFError:  # the forkserver closed its pipe without a process id: its fork failed (ulimit -u)
            raise MemoryError(f"cannot start a worker process (the forkserver could not fork): {NO_ROOM}") from None


#: Descriptors a worker's start holds at once beyond those it keeps: the forkserver's socket and two pipes
_START_DESCRIPTORS = 5


def _room_for_a_worker() -> None:
    """Raise ``OSError`` (EMFILE, ENFILE) if this process cannot open the descriptors a worker's start takes
    (:data:`_START_DESCRIPTORS`): run out of after the request to the forkserver was sent (``ulimit -n 28``), the
    request was cut short and the server printed a traceback (``EOFError`` in ``recvfds``) above the command's
    one-line error; now only that error."""
    opened: list[int] = []
    try:
        while len(opened) < _START_DESCRIPTORS:
            opened.extend(os.pipe() if _START_DESCRIPTORS - len(opened) > 1 else (os.open(os.devnull, os.O_RDONLY),))
    except OSError as exc:  # without the name of the probe's own file ('Too many open files: /dev/null')
        raise OSError(exc.errno, exc.strerror) from None
    finally:
        for fd in opened:
            os.close(fd)


#: How often a wait for a call looks at its pool's workers (seconds); a result ends the wait at once.
_POLL = 1.0


class LocalCall:
    """A call submitted to a local pool: a future whose :meth:`result` raises :class:`WorkerError` when a worker
    of the pool died, and does not wait for ever when it died while sending a result (module docstring)."""

    __slots__ = ("future", "pool")

    def __init__(self, future: Future[Any], pool: ProcessPoolExecutor) -> None:
        self.future = future
        self.pool = pool

    def result(self) -> Any:
        while True:
            try:
                return self.future.result(timeout=_POLL)
            except TimeoutError:
                if self.future.done():  # the call itself raised TimeoutError
                    raise
            except BrokenProcessPool as exc:
                raise WorkerError(_how_workers_died(self.pool)) from exc
            _unblock_if_a_worker_died(self.pool)
            thread = getattr(self.pool, "_executor_manager_thread", None)
            if thread is not None and not thread.is_alive() and not self.future.done():  # it died (it could not
                # start the thread that feeds the workers: ulimit -v), and the call would wait for ever
                raise MemoryError(f"cannot start a thread for the workers (the pool's thread ended): {NO_ROOM}")

    def cancel(self) -> bool:
        return self.future.cancel()


def wait_any(calls: Sequence[LocalCall], timeout: float | None = None) -> list[LocalCall]:
    """The calls that have finished (in the order given), waiting until one has, or at most ``timeout`` seconds
    (then possibly none); see :class:`LocalCall`."""
    while True:
        step = _POLL if timeout is None else min(_POLL, timeout)
        done, _ = wait([c.future for c in calls], timeout=step, return_when=FIRST_COMPLETED)
        if done:
            return [c for c in calls if c.future in done]
        for pool in {id(c.pool): c.pool for c in calls}.values():  # at every timeout too: a caller that polls
            _unblock_if_a_worker_died(pool)  # (imap_any while its input waits) never waited out a whole _POLL
        if timeout is not None:
            timeout -= step
            if timeout <= 0:
                return []


def _workers(pool: ProcessPoolExecutor) -> list[Any]:
    """The pool's worker processes: the standard library's own record of them (``ProcessPoolExecutor`` has no public
    way to reach them before Python 3.14), empty once the pool has been shut down."""
    return list((getattr(pool, "_processes", None) or {}).values())


def _ended(process: Any) -> bool:
    """Whether a worker process has ended, without reading its exit status while the pool's thread may: two readers
    of it race (the loser records status 255, so a SIGKILL was once reported as ``exited with status 255``). Its
    sentinel may lag the status by a moment (the forkserver writes the status, then closes the pipe): a later look
    sees it."""
    try:
        return bool(connection.wait([process.sentinel], 0))
    except (OSError, ValueError):  # its sentinel closed: long ended
        return True


def _dead_workers(pool: ProcessPoolExecutor) -> list[Any]:
    return [p for p in _workers(pool) if _ended(p)]


def _unblock_if_a_worker_died(pool: ProcessPoolExecutor) -> None:
    """Break ``pool`` when a worker died and its thread has not noticed within a second: the thread is then reading
    a result the worker never finished sending (it would for ever). Its other workers are terminated and this
    process's end of the result pipe closed, so the thread reads the end of the pipe and breaks the pool, as the
    standard library does when a worker dies at any other moment; the waiting calls then raise."""
    if not _dead_workers(pool) or getattr(pool, "_broken", True):
        return
    deadline = time.monotonic() + 1.0
    while not getattr(pool, "_broken", True) and time.monotonic() < deadline:
        time.sleep(0.01)
    if getattr(pool, "_broken", True):
        return
    results = getattr(pool, "_result_queue", None)
    with interrupts_deferred():
        for process in _workers(pool):
            if not _ended(process):
                process.terminate()
        _close_result_writer(results)


def _how_workers_died(pool: ProcessPoolExecutor) -> str:
    """The message of a :class:`WorkerError`: how the first worker that was not terminated by its pool ended.

    Read once the pool's thread has ended (it reads every worker's exit status as it breaks the pool), so that
    the status is its record, not a second read of the same pipe."""
    thread = getattr(pool, "_executor_manager_thread", None)
    if thread is not None and thread is not threading.current_thread():
        thread.join(10.0)
    how = "it ended abruptly"
    for process in _workers(pool):
        code = process.exitcode  # the pool's thread has read it; nothing reads it beside this
        if code is None or code == -signal.SIGTERM:  # running, or the pool's own doing once another worker died
            continue
        if code < 0:
            try:
                name = signal.Signals(-code).name
            except ValueError:
                name = "an unknown signal"
            how = f"killed by signal {-code} ({name})"
            if -code == signal.SIGKILL:
                how += ", as the system's out-of-memory killer does: fewer workers (--jobs) use less memory"
        elif code == _NO_THREAD_STATUS:
            how = f"it could not start a thread: {NO_ROOM}"
        else:
            how = f"it exited with status {code}"
        break
    return f"a worker process died before its work was done ({how})"


def stop_pools(pools: Sequence[ProcessPoolExecutor], abort: bool | None = None, wait: bool = True) -> None:
    """Shut the pools down: wait for their running calls, or with ``abort`` terminate their workers first.

    ``abort`` unset: abort when called while an exception propagates (from a ``finally`` or ``except``
    block). Queued calls are cancelled either way; Ctrl-C while waiting aborts. A terminated worker
    makes its pool broken: the futures still pending fail with ``BrokenProcessPool`` and the pool's
    thread ends without waiting for them (the calls its caller cancelled are dropped first:
    :func:`_drop_cancelled`; a result a terminated worker was sending: :func:`_close_result_writer`).
    ``wait=False`` returns without joining the pools' threads.
    """
    if abort is None:
        abort = sys.exc_info()[0] is not None
    with _LOCK:
        for pool in pools:
            _LIVE.discard(pool)
    if not abort:
        try:
            for pool in pools:
                if wait:
                    _await_running(pool)
                pool.shutdown(wait=wait, cancel_futures=True)
            return
        except BaseException:  # Ctrl-C while waiting for the running calls: stop them now
            stop_pools(pools, abort=True, wait=wait)
            raise
    threads = []
    with interrupts_deferred():
        for pool in pools:
            # the workers, the pool's thread and its result pipe, taken before shutdown drops them
            processes = _workers(pool)
            thread = getattr(pool, "_executor_manager_thread", None)
            results = getattr(pool, "_result_queue", None)
            _drop_cancelled(pool, thread)
            for process in processes:
                if not _ended(process):
                    process.terminate()
            _close_result_writer(results)
            threads.append(thread)
    for thread in threads:
        if wait and thread is not None and thread.ident is not None:  # one that could not start is not joined
            thread.join()
    if wait:  # the workers are gone: what they left in their scratch folders goes too (a SIGTERM runs no clean-up)
        try:
            from glmnlp.glm.model_files import remove_dead_scratch
        except ImportError:  # at the interpreter's exit (a pipe() generator left open in a notebook or script is
            return  # closed then), when no module can be imported: the next run removes them
        remove_dead_scratch()


def _await_running(pool: ProcessPoolExecutor) -> None:
    """Cancel the pool's queued calls and wait for its running ones, as :class:`LocalCall` waits: a worker that died
    while sending a result nobody awaited would otherwise leave the shutdown joining the pool's thread for ever. The
    calls' results and errors are not wanted (whoever wanted them waited for them); Ctrl-C is not caught."""
    futures = [item.future for item in list((getattr(pool, "_pending_work_items", None) or {}).values())]
    for future in futures:
        future.cancel()
    for future in futures:
        if not future.cancelled():
            try:
                LocalCall(future, pool).result()
            except Exception:  # noqa: BLE001 (unwanted results, a dead worker's WorkerError included)
                pass


def _drop_cancelled(pool: ProcessPoolExecutor, thread: threading.Thread | None) -> None:
    """Have the pool's thread forget the calls its caller cancelled, before its workers are terminated.

    When a worker dies, Python 3.11's pool thread sets ``BrokenProcessPool`` on every call it still holds,
    and on a call cancelled meanwhile (``Executor.imap`` cancels its queued calls when it is left, by Ctrl-C
    or an error, just before the pool is aborted) that raises ``InvalidStateError``: a traceback printed
    from the thread after ``Aborted.`` (Python 3.12 ignores the error). ``shutdown(cancel_futures=True)``
    makes the thread drop the cancelled calls, and it clears the pool's flag when it has; wait for that,
    at most a second (``thread``, the pool's, wakes at once when it is alive).
    """
    pool.shutdown(wait=False, cancel_futures=True)
    deadline = time.monotonic() + 1.0
    while (
        thread is not None and thread.is_alive() and getattr(pool, "_cancel_pending_futures", False)
        and time.monotonic() < deadline
    ):
        time.sleep(0.001)


def _close_result_writer(results: Any) -> None:
    """Close this process's write end of a pool's result pipe, once its workers are terminated.

    The pool's thread reads a worker's result whole: a worker terminated half way through sending a
    large one (a generative term's tables, megabytes) left the thread waiting for the rest for ever, and
    :func:`stop_pools` joining it hung (the likely cause of a ``parser train -j 2 --kind combined`` seen
    still running 30 s after Ctrl-C). The workers' ends close as they die; this process keeps its own
    (it hands it to the workers it starts), so the thread saw no end of file. With it closed, the
    thread's read ends, the pool breaks as for any terminated worker and its thread returns. Nothing
    writes there any more: the pool is shut down and starts no worker.
    """
    writer = getattr(results, "_writer", None)
    if writer is not None:
        writer.close()


def _collected(pools: Sequence[ProcessPoolExecutor]) -> None:
    # The garbage collector may run this on any thread, even a pool's own, which cannot join itself:
    # only the main thread waits for the pools' threads.
    stop_pools(pools, abort=True, wait=threading.current_thread() is threading.main_thread())


def stop_when_collected(owner: object, pools: Sequence[ProcessPoolExecutor]) -> weakref.finalize:
    """Terminate the workers of ``pools`` when ``owner`` is collected (nothing can use their results then).

    Returns the finalizer; ``detach()`` it when the owner stops the pools itself.
    """
    finalizer = weakref.finalize(owner, _collected, list(pools))
    finalizer.atexit = False  # at exit, _stop_at_exit has stopped them, before the threads are joined
    return finalizer


def _stop_at_exit() -> None:
    with _LOCK:
        pools = list(_LIVE)
    try:
        stop_pools(pools, abort=True)
    except KeyboardInterrupt:  # a second Ctrl-C while exiting: the workers are terminated already
        pass


# Run when the interpreter exits, before it joins its threads: registered after concurrent.futures'
# own hook (imported above), so it runs first (these hooks run in reverse order) and the pools are
# shut down when that hook wakes and joins their threads. atexit would run too late.
getattr(threading, "_register_atexit", lambda fn: None)(_stop_at_exit)


def _forget_parents_forkserver() -> None:
    """In a forked child: the standard library's forkserver record names the parent's server, which this process
    cannot wait for (module docstring); cleared, with the child's copy of the parent's "alive" descriptor closed
    (left open, it kept the parent's server running after the parent ended), so that the next pool starts a
    server of this process's own. Python versions whose record has other fields are left as they are."""
    try:
        from multiprocessing import forkserver
    except ImportError:  # no forkserver on this platform
        return
    server = getattr(forkserver, "_forkserver", None)
    fields = ("_forkserver_pid", "_forkserver_address", "_forkserver_alive_fd", "_lock")
    if server is None or not all(hasattr(server, f) for f in fields) or server._forkserver_pid is None:
        return
    if server._forkserver_alive_fd is not None:
        try:
            os.close(server._forkserver_alive_fd)
        except OSError:
            pass
    server._forkserver_pid = server._forkserver_address = server._forkserver_alive_fd = None
    server._lock = threading.Lock()  # a lock a thread of the parent held at the fork stays held here


if hasattr(os, "register_at_fork"):  # POSIX; elsewhere processes are spawned, not forked
    os.register_at_fork(after_in_child=_forget_parents_forkserver)
