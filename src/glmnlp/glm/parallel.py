"""One executor for independent work: local processes (default) or a Ray cluster.

Every parallel step of glmnlp (data-parallel perceptron shards, jackknife folds, candidate
generative weights, dev decoding, parsing a corpus) goes through :class:`Executor`, with two
primitives:

* :meth:`Executor.map` runs a module-level function on each item and returns the results **in
  input order** (deterministic whatever finishes first).
* :meth:`Executor.hosts` places stateful objects on workers and calls their methods: the shards of
  iterative parameter mixing keep their examples, perceptron and cache across epochs, a parsing
  worker loads its model once. ``n`` objects share ``min(n, jobs)`` workers (round-robin), so more
  shards than cores still run (some one after the other), on every backend; when that is one
  worker, the objects live in this process (a lone worker would only add transfers).
  :meth:`Hosts.imap` sends item k to object k mod n (each shard owns its data);
  :meth:`Hosts.imap_any`, for interchangeable objects (the parsing workers of one model), sends
  each item to a worker with room (at most two calls in flight each) as soon as a call returns, so
  a long batch does not hold back the batches queued behind it; results still leave in input order.

Backends:

* ``jobs == 1`` (any backend name): everything runs **inline**, in this process, through the same
  functions and objects as with workers (no copy, no pickling): serial is one worker of the same
  code.
* ``backend="local"``: worker processes of the standard library's ``concurrent.futures``
  (``ProcessPoolExecutor``) started with ``forkserver`` (``spawn`` where forkserver does not
  exist). Choice: the standard library over loky/joblib because the two primitives above need only
  ordered futures and single-worker pools (a stateful host is a ``ProcessPoolExecutor`` with one
  worker, so calls to one host run in submission order); no extra dependency. ``fork`` is not used:
  forking a process that holds threads (tqdm, numpy, a caller's) is unsafe, and a forked worker
  would silently inherit the caller's state instead of rebuilding it from the data it is sent.
* ``backend="ray"`` (``pip install 'glmnlp[ray]'``): tasks are Ray remote functions, hosts are Ray
  actors (one CPU each); arrays travel through Ray's object store. ``address`` connects to a
  running cluster (``HOST:PORT`` or ``"auto"``); without it a local Ray instance is started (or the
  one already initialised in this process is used). No socket or cluster code of glmnlp's own.

Stopping local workers. Choice: **the caller owns Ctrl-C**. Worker processes ignore SIGINT (their
initializer), so Ctrl-C in a terminal, which signals the whole process group, interrupts only the
caller, never a worker in the middle of reading its queue (that printed worker tracebacks and could
leave a queue half read, which hangs the pool's shutdown); the alternative, workers that stop on
SIGINT themselves, cannot be made quiet and safe wherever the signal lands. A program that owns its
whole process, like the ``glmnlp`` command, also calls :func:`ignore_sigint_in_forkserver`: the
forkserver, started with SIGINT ignored, then cannot be stopped by Ctrl-C while it starts, and its
workers ignore SIGINT from their first instruction (the library does not do this by itself: the
forkserver is shared with the program's other process pools). The caller stops the workers:

* :meth:`Executor.close` / :meth:`Hosts.close` (and leaving their ``with`` blocks) wait for the
  running calls when nothing went wrong, and terminate the workers at once when an exception
  (Ctrl-C's ``KeyboardInterrupt``, an error, a generator closed early) is on its way out: nothing
  could use the running calls' results, and a worker that ignores SIGINT would otherwise finish a
  whole training pass first.
* An executor or hosts dropped without ``close()`` terminate their workers when collected, and any
  pool still open when the interpreter exits is terminated before the standard library waits for
  its threads; so an interrupted program always ends with its workers, and a finished one never
  races with ``concurrent.futures``' own exit-time cleanup (``OSError: Bad file descriptor``).

What travels: work items and results are numpy arrays and plain data (ints, strings, lists,
dicts). Functions and factories are passed by reference (module and name), so a worker runs the
installed glmnlp code; no trained model object is pickled (a parsing worker loads the model from
its directory). Results come back in a fixed order, so a run's output depends only on its inputs,
never on timing.
"""

from __future__ import annotations

import itertools
import multiprocessing
import os
import signal
import sys
import threading
import uuid
import weakref
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from typing import Any

from glmnlp.config import BACKENDS
from glmnlp.config import resolve as resolve_settings
from glmnlp.errors import ConfigError

__all__ = ["BACKENDS", "Executor", "Hosts", "default_jobs", "ignore_sigint_in_forkserver", "resolve_executor"]

# Objects placed on this process by Executor.hosts (a worker process, or the caller when inline).
_OBJECTS: dict[str, Any] = {}


def default_jobs() -> int:
    """All cores this process may use."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return max(1, os.cpu_count() or 1)


# Local worker pools started and not yet shut down (stopped at interpreter exit: _stop_pools_at_exit).
_LIVE_POOLS: set[ProcessPoolExecutor] = set()
_POOLS_LOCK = threading.Lock()


def _ignore_interrupts() -> None:
    """Initializer of every local worker: SIGINT (Ctrl-C to the process group) is for the caller to handle."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


@contextmanager
def _interrupts_deferred() -> Iterator[None]:
    """Ctrl-C inside the block raises its ``KeyboardInterrupt`` when the block ends.

    Around what must not stop half way: a pool starts its worker processes inside ``submit``, and a
    worker forked but not yet recorded by its pool could never be terminated (it ignores SIGINT and
    would wait for work forever); likewise terminating the workers. Only in the main thread (where
    Python runs signal handlers) and when SIGINT has Python's default handler; otherwise a no-op.
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


def _submit(pool: ProcessPoolExecutor, fn: Callable[..., Any], *args: Any) -> Any:
    with _interrupts_deferred():  # submit may start a worker
        return pool.submit(fn, *args)


_FORKSERVER_IGNORES_SIGINT = False


def ignore_sigint_in_forkserver() -> None:
    """Start multiprocessing's forkserver, when glmnlp is the first to need it, with SIGINT ignored.

    For programs that own their whole process, such as the ``glmnlp`` command (see the module
    docstring): the forkserver is shared by every forkserver pool of the process, and its workers
    inherit this setting.
    """
    global _FORKSERVER_IGNORES_SIGINT
    _FORKSERVER_IGNORES_SIGINT = True


def _start_forkserver_ignoring_sigint() -> None:
    from multiprocessing import forkserver

    if threading.current_thread() is not threading.main_thread():
        return
    previous = signal.getsignal(signal.SIGINT)
    if previous is None:  # a handler installed outside Python: cannot be put back
        return
    # ignored while it starts (an exec keeps ignored signals ignored; a Ctrl-C in these milliseconds is lost);
    # a forkserver already running is kept as it is
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        forkserver.ensure_running()
    finally:
        signal.signal(signal.SIGINT, previous)


def _start_pool(workers: int, ctx: Any) -> ProcessPoolExecutor:
    pool = ProcessPoolExecutor(max_workers=workers, mp_context=ctx, initializer=_ignore_interrupts)
    with _POOLS_LOCK:
        _LIVE_POOLS.add(pool)
    return pool


def _stop_pools(pools: Sequence[ProcessPoolExecutor], abort: bool, wait: bool = True) -> None:
    """Shut the pools down: wait for their running calls, or with ``abort`` terminate their workers first.

    Queued calls are cancelled either way. A terminated worker makes its pool broken: the futures
    still pending fail with ``BrokenProcessPool`` and the pool's thread ends without waiting for them.
    ``wait=False`` returns without joining the pools' threads.
    """
    with _POOLS_LOCK:
        for pool in pools:
            _LIVE_POOLS.discard(pool)
    if not abort:
        try:
            for pool in pools:
                pool.shutdown(wait=wait, cancel_futures=True)
            return
        except BaseException:  # Ctrl-C while waiting for the running calls: stop them now
            _stop_pools(pools, abort=True, wait=wait)
            raise
    with _interrupts_deferred():
        for pool in pools:
            # the standard library's own record of the workers (ProcessPoolExecutor has no public way
            # to terminate them before Python 3.14)
            for process in list((getattr(pool, "_processes", None) or {}).values()):
                if process.is_alive():
                    process.terminate()
    for pool in pools:
        pool.shutdown(wait=wait, cancel_futures=True)


def _collected(pools: Sequence[ProcessPoolExecutor]) -> None:
    """The executor or hosts owning ``pools`` were dropped without ``close()``: nothing can use the running
    calls' results, so the workers are terminated. The garbage collector may run this on any thread, even
    the pool's own, which cannot join itself: only the main thread waits for the pools' threads."""
    _stop_pools(pools, abort=True, wait=threading.current_thread() is threading.main_thread())


def _unwinding() -> bool:
    """True while an exception propagates (``close()`` called from a ``finally`` or ``except`` block)."""
    return sys.exc_info()[0] is not None


def _stop_pools_at_exit() -> None:
    with _POOLS_LOCK:
        pools = list(_LIVE_POOLS)
    try:
        _stop_pools(pools, abort=True)
    except KeyboardInterrupt:  # a second Ctrl-C while exiting: the workers are terminated already
        pass


# Run when the interpreter exits, before it joins its threads: registered after concurrent.futures'
# own hook (imported above), so it runs first (these hooks run in reverse order) and the pools are
# already shut down when that hook wakes and joins their threads. atexit would run too late.
getattr(threading, "_register_atexit", lambda fn: None)(_stop_pools_at_exit)


def _host_create(key: str, factory: Callable[..., Any], args: tuple[Any, ...]) -> None:
    _OBJECTS[key] = factory(*args)


def _host_call(key: str, method: str, args: tuple[Any, ...]) -> Any:
    return getattr(_OBJECTS[key], method)(*args)


def _host_drop(keys: Sequence[str]) -> None:
    for key in keys:
        _OBJECTS.pop(key, None)


def _apply(fn: Callable[..., Any], item: Any) -> Any:
    return fn(item)


class _Done:
    """A result computed inline, with the interface of a future."""

    __slots__ = ("value",)

    def __init__(self, value: Any) -> None:
        self.value = value

    def result(self) -> Any:
        return self.value


class _RayRef:
    __slots__ = ("ref",)

    def __init__(self, ref: Any) -> None:
        self.ref = ref

    def result(self) -> Any:
        import ray

        return ray.get(self.ref)


def _ray_actor_class() -> Any:
    import ray

    @ray.remote(num_cpus=1)
    class _RayHost:
        def __init__(self) -> None:
            self.objects: dict[str, Any] = {}

        def create(self, key: str, factory: Callable[..., Any], args: tuple[Any, ...]) -> None:
            self.objects[key] = factory(*args)

        def call(self, key: str, method: str, args: tuple[Any, ...]) -> Any:
            return getattr(self.objects[key], method)(*args)

        def drop(self, keys: Sequence[str]) -> None:
            for key in keys:
                self.objects.pop(key, None)

    return _RayHost


class Hosts:
    """Stateful objects placed on the executor's workers (see :meth:`Executor.hosts`).

    Object ``i`` lives on worker ``i % n_workers``; calls to the objects of one worker run in the
    order they were submitted.
    """

    def __init__(self, executor: Executor, factory: Callable[..., Any], args_list: Sequence[tuple[Any, ...]]) -> None:
        self._executor = executor
        self._group = uuid.uuid4().hex
        self.n = len(args_list)
        self.n_workers = max(1, min(self.n, executor.jobs))
        self._keys = [f"{self._group}:{i}" for i in range(self.n)]
        self._workers: list[Any] = []
        self._closed = False
        self._finalizer: weakref.finalize | None = None
        # one worker would only add transfers: a single object (or jobs = 1) lives in this process
        self.mode = backend = "inline" if self.n_workers == 1 else executor.mode
        try:
            if backend == "local":
                ctx = executor._mp_context()
                for _ in range(self.n_workers):
                    self._workers.append(_start_pool(1, ctx))
                self._finalizer = weakref.finalize(self, _collected, list(self._workers))
                self._finalizer.atexit = False
            elif backend == "ray":
                executor._ray_init()
                actor = _ray_actor_class()
                self._workers = [actor.remote() for _ in range(self.n_workers)]
            pending = [self._submit_raw(i, "create", (self._keys[i], factory, tuple(args)))
                       for i, args in enumerate(args_list)]
            for handle in pending:
                handle.result()
        except BaseException:
            self.close(abort=True)
            raise

    def _submit_raw(self, i: int, op: str, args: tuple[Any, ...]) -> Any:
        mode = self.mode
        if mode == "inline":
            fn = {"create": _host_create, "call": _host_call}[op]
            return _Done(fn(*args))
        worker = self._workers[i % self.n_workers]
        if mode == "local":
            fn = {"create": _host_create, "call": _host_call}[op]
            return _submit(worker, fn, *args)
        method = getattr(worker, op)
        return _RayRef(method.remote(*args))

    def submit(self, i: int, method: str, *args: Any) -> Any:
        """Start ``objects[i].method(*args)``; returns a handle whose ``result()`` waits for it."""
        if self._closed:
            raise RuntimeError("these hosts are closed")
        return self._submit_raw(i, "call", (self._keys[i], method, args))

    def imap(self, method: str, items: Iterable[Any], *, window: int | None = None) -> Iterator[Any]:
        """``objects[k % n].method(item_k)`` for each item, streamed: results in input order, at most
        ``window`` (default 2 per object) in flight, so a long input is never read far ahead."""
        limit = window or 2 * self.n
        pending: deque[Any] = deque()
        for k, item in enumerate(items):
            pending.append(self.submit(k % self.n, method, item))
            if len(pending) >= limit:
                yield pending.popleft().result()
        while pending:
            yield pending.popleft().result()

    def imap_any(self, method: str, items: Iterable[Any], *, depth: int = 2, window: int | None = None) -> Iterator[Any]:
        """``method(item)`` on whichever object is free, for objects that are interchangeable (the parsing
        workers of one model): results in input order, like :meth:`imap`.

        :meth:`imap` sends item k to object k mod n, so one slow item holds back every item queued
        behind it and, since results leave in order, can idle the other workers. Here an item goes to
        an object with fewer than ``depth`` calls in flight (the least busy; one running and one
        waiting keeps a worker fed), the next as soon as any call returns; at most ``window``
        (default 4 per object) items are in flight or finished and waiting for an earlier one, so a
        long input is never read far ahead.
        """
        if self.mode == "inline" or self.n == 1:
            yield from self.imap(method, items, window=window)
            return
        limit = max(window or 4 * self.n, self.n)
        busy = [0] * self.n
        flying: dict[Any, tuple[int, int]] = {}  # handle -> (item number, object)
        ready: dict[int, Any] = {}
        stream = iter(items)
        submitted = emitted = 0
        more = True
        while True:
            while more and len(flying) + len(ready) < limit and min(busy) < depth:
                try:
                    item = next(stream)
                except StopIteration:
                    more = False
                    break
                i = busy.index(min(busy))
                flying[self.submit(i, method, item)] = (submitted, i)
                busy[i] += 1
                submitted += 1
            if emitted in ready:
                yield ready.pop(emitted)
                emitted += 1
                continue
            if not flying:
                return
            for handle in self._wait_any(list(flying)):
                k, i = flying.pop(handle)
                busy[i] -= 1
                ready[k] = handle.result()

    def _wait_any(self, handles: list[Any]) -> list[Any]:
        """The handles (of :meth:`submit`) that have finished, waiting until one has."""
        if self.mode == "local":
            done, _ = wait(handles, return_when=FIRST_COMPLETED)
            return [h for h in handles if h in done]  # in submission order
        import ray  # the ray mode (imap_any never gets here inline)

        by_ref = {h.ref: h for h in handles}
        finished, _ = ray.wait(list(by_ref), num_returns=1)
        return [by_ref[r] for r in finished]

    def call(self, method: str, args_list: Sequence[tuple[Any, ...]] | None = None) -> list[Any]:
        """Call ``method`` on every object (in parallel across workers); results in object order."""
        if args_list is None:
            args_list = [()] * self.n
        if len(args_list) != self.n:
            raise ValueError(f"{len(args_list)} argument tuples for {self.n} objects")
        handles = [self.submit(i, method, *args) for i, args in enumerate(args_list)]
        return [h.result() for h in handles]

    def close(self, *, abort: bool | None = None) -> None:
        """Drop the objects and stop the workers started for them.

        Local workers finish their running calls first, unless ``abort`` (default: when called while an
        exception propagates, e.g. from a ``finally`` block after Ctrl-C): then they are terminated.
        """
        if self._closed:
            return
        self._closed = True
        mode = self.mode
        if mode == "inline":
            _host_drop(self._keys)
        elif mode == "local":
            if self._finalizer is not None:
                self._finalizer.detach()
            _stop_pools(self._workers, _unwinding() if abort is None else abort)
        else:
            import ray

            for worker in self._workers:
                ray.kill(worker)
        self._workers = []

    def __enter__(self) -> Hosts:
        return self

    def __exit__(self, exc_type: type[BaseException] | None, *exc: object) -> None:
        self.close(abort=exc_type is not None)


class Executor:
    """Runs independent work inline, on local processes, or on Ray (see the module docstring).

    Parameters
    ----------
    jobs:
        Number of workers; ``0``: all cores of this machine (local) or all CPUs of the Ray cluster
        (ray); ``1`` runs everything inline in this process; ``None``: :mod:`glmnlp.config`'s
        ``jobs`` (default 0).
    backend:
        ``"local"`` (processes of this machine) or ``"ray"``; ``None``: :mod:`glmnlp.config`'s.
    address:
        Ray only: the cluster to join (``HOST:PORT`` or ``"auto"``); ``None``: :mod:`glmnlp.config`'s
        (default: start or reuse a local Ray instance).
    """

    def __init__(self, jobs: int | None = None, backend: str | None = None, address: str | None = None) -> None:
        settings = resolve_settings(jobs, backend, address)  # unset values: glmnlp.config; checked there
        jobs, backend, address = settings.jobs, settings.backend, settings.address
        self.backend = backend
        self.address = address
        self._pool: ProcessPoolExecutor | None = None
        self._pool_finalizer: weakref.finalize | None = None
        self._ray_started = False
        if backend == "ray" and jobs != 1:
            self._ray_init()
            import ray

            cpus = int(ray.cluster_resources().get("CPU", 1))
            self.jobs = cpus if not jobs else int(jobs)
        else:
            self.jobs = default_jobs() if not jobs else int(jobs)
        self.mode = "inline" if self.jobs == 1 else backend

    # -- backends ---------------------------------------------------------------------------------
    @staticmethod
    def _mp_context() -> Any:
        if "forkserver" not in multiprocessing.get_all_start_methods():
            return multiprocessing.get_context("spawn")
        if _FORKSERVER_IGNORES_SIGINT:
            _start_forkserver_ignoring_sigint()
        return multiprocessing.get_context("forkserver")

    def _ray_init(self) -> None:
        try:
            import ray
        except ImportError:
            raise ConfigError("the ray backend needs Ray: pip install 'glmnlp[ray]'") from None
        if not ray.is_initialized():
            kwargs: dict[str, Any] = {"include_dashboard": False, "log_to_driver": False}
            if self.address is not None:
                kwargs["address"] = self.address
            ray.init(**kwargs)
            self._ray_started = True

    def _local_pool(self) -> ProcessPoolExecutor:
        if self._pool is None:
            self._pool = _start_pool(self.jobs, self._mp_context())
            self._pool_finalizer = weakref.finalize(self, _collected, [self._pool])
            self._pool_finalizer.atexit = False
        return self._pool

    # -- primitives -------------------------------------------------------------------------------
    def map(self, fn: Callable[[Any], Any], items: Iterable[Any]) -> list[Any]:
        """``[fn(item) for item in items]``, run on the workers; results in input order.

        ``fn`` must be a module-level function (it is sent by reference) and items plain data.
        """
        return list(self.imap(fn, items))

    def imap(self, fn: Callable[[Any], Any], items: Iterable[Any], *, window: int | None = None) -> Iterator[Any]:
        """Like :meth:`map`, lazily: at most ``window`` items (default 2 per worker) in flight."""
        if self.mode == "inline":
            for item in items:
                yield fn(item)
            return
        limit = window or 2 * self.jobs
        pending: deque[Any] = deque()
        submit = self._submitter(fn)
        try:
            for item in items:
                pending.append(submit(item))
                if len(pending) >= limit:
                    yield pending.popleft().result()
            while pending:
                yield pending.popleft().result()
        finally:  # left early (an error, Ctrl-C, the caller stopped reading): the queued items are not run
            for handle in pending:
                cancel = getattr(handle, "cancel", None)
                if cancel is not None:
                    cancel()

    def _submitter(self, fn: Callable[[Any], Any]) -> Callable[[Any], Any]:
        if self.mode == "local":
            pool = self._local_pool()
            return lambda item: _submit(pool, fn, item)
        import ray

        remote = ray.remote(num_cpus=1)(_apply)
        return lambda item: _RayRef(remote.remote(fn, item))

    def hosts(self, factory: Callable[..., Any], args_list: Sequence[tuple[Any, ...]]) -> Hosts:
        """Create ``factory(*args)`` for each ``args`` on the workers; returns the :class:`Hosts`."""
        return Hosts(self, factory, args_list)

    def close(self, *, abort: bool | None = None) -> None:
        """Stop the local worker pool (Ray itself is left running for the caller).

        The workers finish their running calls first, unless ``abort`` (default: when called while an
        exception propagates, e.g. from a ``finally`` block after Ctrl-C): then they are terminated. The
        executor stays usable: its next call starts new workers.
        """
        if self._pool is not None:
            if self._pool_finalizer is not None:
                self._pool_finalizer.detach()
                self._pool_finalizer = None
            pool, self._pool = self._pool, None
            _stop_pools([pool], _unwinding() if abort is None else abort)

    def __enter__(self) -> Executor:
        return self

    def __exit__(self, exc_type: type[BaseException] | None, *exc: object) -> None:
        self.close(abort=exc_type is not None)

    def __repr__(self) -> str:
        return f"Executor(jobs={self.jobs}, backend={self.backend!r}, mode={self.mode!r})"


def resolve_executor(
    executor: Executor | None = None, *, jobs: int | None = None, backend: str | None = None,
    address: str | None = None,
) -> Executor:
    """The given executor, or a new one from (jobs, backend, address); unset values come from :mod:`glmnlp.config`."""
    if executor is not None:
        return executor
    return Executor(jobs, backend, address)


def chunked(items: Iterable[Any], size: int) -> Iterator[list[Any]]:
    """Consecutive lists of ``size`` items (the last may be shorter)."""
    it = iter(items)
    while chunk := list(itertools.islice(it, size)):
        yield chunk
