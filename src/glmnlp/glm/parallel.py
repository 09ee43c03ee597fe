"""One executor for independent work: local processes (default) or a Ray cluster.

Every parallel step of glmnlp (data-parallel perceptron shards, jackknife folds, the combined model's
generative models, the beam grid, dev decoding, parsing a corpus) goes through :class:`Executor`, with
two primitives:

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
  actors (one CPU each, or a share of one when the workers are more than the cluster's CPUs), all of one
  :class:`Hosts` placed together in a Ray placement group, so that jobs sharing a cluster take turns instead of
  each holding part of what it needs (:mod:`glmnlp.glm.ray_hosts`); arrays travel through Ray's object store.
  ``address`` connects to a running cluster (``HOST:PORT`` or ``"auto"``); without it Ray joins ``$RAY_ADDRESS``
  (Ray's own variable) if set, else a local Ray instance is started (or the one already initialised in this process
  is used: an address given that surely names another cluster is a :class:`~glmnlp.errors.ConfigError`, since Ray
  joins one cluster per process, where it was ignored without a word). Workers above the cluster's CPUs, and a wait
  for CPUs, are logged warnings (:data:`logger`), not Python warnings, which a command's own filter may hide.
  No cluster code of glmnlp's own; two things around
  ``ray.init``: a ``HOST:PORT`` address (given, or ``$RAY_ADDRESS``) is first tried with a plain TCP connection of
  a few seconds (:data:`.ray_driver.ADDRESS_TIMEOUT`), because Ray retries an address where nothing answers for
  ever (a typo in ``GLMNLP_ADDRESS`` hung a batch job with only Ray's own retry lines); and a SIGTERM handler of the
  caller's own that ``ray.init`` replaces with Ray's (exit status 15 and a C++ stack dump) is put back, so a
  scheduler's SIGTERM ends a command as it does on the local backend (``Aborted.``, status 143). A Ray that
  glmnlp starts or joins prints the cluster's error messages on stderr: Ray's driver prints them (a worker
  killed, the raylet gone and its state dumps) to ``sys.stdout`` even with ``log_to_driver=False``, where they
  landed among the trees of ``glmnlp parse`` (44 lines when the cluster was stopped) and corrupted its output;
  its printing function is wrapped (:mod:`glmnlp.glm.ray_driver`; a Ray without it is left as it is).

A worker that dies before its work is done raises :class:`glmnlp.errors.WorkerError` on either backend (a
local one: :mod:`glmnlp.glm.pools`; Ray's errors for a lost actor, worker or node are turned into it
(:class:`.ray_hosts.RayRef`), so
the command line says it in one line); an error raised by the work itself passes through unchanged (from Ray
as the error itself, not Ray's wrapper, whose message is the actor's traceback).

Stopping local workers. Choice: **the caller owns Ctrl-C** (:mod:`glmnlp.glm.pools`, which
starts and stops the local pools): workers ignore SIGINT, so Ctrl-C to the terminal's process group
interrupts only the caller; :meth:`Executor.close` / :meth:`Hosts.close` (and their ``with`` blocks)
wait for the running calls when nothing went wrong and terminate the workers when an exception
(Ctrl-C's ``KeyboardInterrupt``, an error, a generator closed early) is on its way out; an executor
or hosts dropped without ``close()`` terminate theirs when collected, and pools still open when the
interpreter exits are terminated before the standard library joins their threads.

What travels: work items and results are numpy arrays and plain data (ints, strings, lists,
dicts). Functions and factories are passed by reference (module and name), so a worker runs the
installed glmnlp code; no trained model object is pickled (a parsing worker loads the model from
its directory). Results come back in a fixed order, so a run's output depends only on its inputs,
never on timing.
"""

from __future__ import annotations

import itertools
import logging
import os
import signal
import threading
import uuid
import weakref
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from glmnlp.config import BACKENDS
from glmnlp.config import resolve as resolve_settings
from glmnlp.errors import ConfigError
from glmnlp.glm import pools
from glmnlp.glm.ray_driver import cluster_messages_to_stderr, joined_address, unreachable
from glmnlp.glm.ray_hosts import RayActors, RayRef, other_cluster
from glmnlp.glm.streams import NOT_YET, InPlace, Prefetch

__all__ = ["BACKENDS", "Executor", "Hosts", "default_jobs", "resolve_executor", "unreachable"]

#: The lowest level of the lines Ray logs while glmnlp starts or joins it (``ray.init``'s ``logging_level``): its
#: warnings, not its INFO lines (``Started a local Ray instance``, which the local backend has no counterpart of);
#: the command line's ``--quiet`` raises it to errors only (:func:`glmnlp.cli._params.quiet_ray`).
ray_logging_level = logging.WARNING

#: The Ray backend's warnings (more jobs than the cluster's CPUs; :mod:`glmnlp.glm.ray_hosts`: a wait for CPUs):
#: logged, not Python warnings, so that they are seen wherever the work runs (a command's own warnings filter hides
#: the library's other warnings); without a logging set-up, Python prints a warning's line on stderr.
logger = logging.getLogger(__name__)

#: Seconds :meth:`Hosts.imap_any` waits for a result before it looks at the input again, while it could take an
#: item (the input arrives on a thread, :mod:`glmnlp.glm.streams`): an item that comes meanwhile waits at most this.
INPUT_POLL = 0.02

# Objects placed on this process by Executor.hosts (a worker process, or the caller when inline).
_OBJECTS: dict[str, Any] = {}


def default_jobs() -> int:
    """All cores this process may use."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return max(1, os.cpu_count() or 1)


def _host_create(key: str, factory: Callable[..., Any], args: tuple[Any, ...]) -> None:
    _OBJECTS[key] = factory(*args)


def _host_call(key: str, method: str, args: tuple[Any, ...]) -> Any:
    return getattr(_OBJECTS[key], method)(*args)


_HOST_OPS: dict[str, Callable[..., Any]] = {"create": _host_create, "call": _host_call}


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


class _Raised:
    """An error an item's call raised, kept until the results before it are given (:meth:`Hosts.imap_any`)."""

    __slots__ = ("error",)

    def __init__(self, error: Exception) -> None:
        self.error = error


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
        self._ray: RayActors | None = None
        # one worker would only add transfers: a single object (or jobs = 1) lives in this process
        self.mode = backend = "inline" if self.n_workers == 1 else executor.mode
        try:
            if backend == "local":
                ctx = executor._mp_context()
                for _ in range(self.n_workers):
                    self._workers.append(pools.start_pool(1, ctx))
                self._finalizer = pools.stop_when_collected(self, self._workers)
            elif backend == "ray":
                executor._ray_init()
                # all the actors or none (a placement group): actors started one by one each held a CPU while
                # waiting for the others, and jobs sharing a cluster deadlocked; more actors than the cluster's
                # CPUs get a share of one each, one actor per worker as on local processes (glmnlp.glm.ray_hosts)
                self._ray = RayActors(self, self.n_workers)
                self._workers = self._ray.start()
            pending = [self._submit_raw(i, "create", (self._keys[i], factory, tuple(args)))
                       for i, args in enumerate(args_list)]
            first: Exception | None = None
            for handle in pending:  # every one taken: Ray logs an error never taken ("Unhandled error") with its
                try:  # traceback, one per worker that failed as the first did (a model none of them could load)
                    handle.result()
                except Exception as exc:  # noqa: BLE001 (the first is raised below)
                    first = first or exc
            if first is not None:
                raise first
        except BaseException:
            self.close(abort=True)
            raise

    def _submit_raw(self, i: int, op: str, args: tuple[Any, ...]) -> Any:
        mode = self.mode
        if mode == "inline":
            fn = _HOST_OPS[op]
            return _Done(fn(*args))
        worker = self._workers[i % self.n_workers]
        if mode == "local":
            fn = _HOST_OPS[op]
            return pools.submit(worker, fn, *args)
        method = getattr(worker, op)
        return RayRef(method.remote(*args))

    def submit(self, i: int, method: str, *args: Any) -> Any:
        """Start ``objects[i].method(*args)``; returns a handle whose ``result()`` waits for it."""
        if self._closed:
            raise RuntimeError("these hosts are closed")
        return self._submit_raw(i, "call", (self._keys[i], method, args))

    def imap(self, method: str, items: Iterable[Any], *, window: int | None = None) -> Iterator[Any]:
        """``objects[k % n].method(item_k)`` for each item, streamed: results in input order, at most
        ``window`` (default 2 per object) in flight, so a long input is never read far ahead. An error raised
        by ``items`` comes after the results of the items read before it, and so does one raised by a call that
        runs as it is submitted (inline). Inline, each result is given as soon as it is computed: reading the next
        item first made an input that waits for the result of the one before (a conversation) wait for ever."""
        limit = 1 if self.mode == "inline" else window or 2 * self.n
        pending: deque[Any] = deque()
        stream = enumerate(items)
        while True:
            try:
                k, item = next(stream)
                handle = self.submit(k % self.n, method, item)
            except StopIteration:
                break
            except Exception:
                while pending:
                    yield pending.popleft().result()
                raise
            pending.append(handle)
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
        long input is never read far ahead. An error raised by ``items`` comes after the results of the items
        read before it, as in :meth:`imap` (the results in flight were dropped: ``glmnlp parse -j 2`` then printed
        up to a window of batches fewer than ``-j 1`` before the same input error), and so does an error raised by
        an item's call: the results of the items before it first, as :meth:`imap` gives them (it was raised when
        it arrived, so how many earlier results were given depended on which worker finished first).
        """
        if self.mode == "inline" or self.n == 1:
            yield from self.imap(method, items, window=window)
            return
        # a Prefetch (an input read on a thread) is looked at without waiting, so a result never waits for the next
        # item; any other iterable is read here (glmnlp.glm.streams), each read as long as it takes
        with items if isinstance(items, (Prefetch, InPlace)) else InPlace(items) as stream:
            yield from self._imap_any(method, stream, depth, max(window or 4 * self.n, self.n))

    def _imap_any(self, method: str, stream: Prefetch[Any] | InPlace[Any], depth: int, limit: int) -> Iterator[Any]:
        busy = [0] * self.n
        flying: dict[Any, tuple[int, int]] = {}  # handle -> (item number, object)
        ready: dict[int, Any] = {}
        submitted = emitted = 0
        more = True
        failed: Exception | None = None  # raised by the input: raised again once the items before it are answered
        while True:
            while more and len(flying) + len(ready) < limit and min(busy) < depth:
                try:  # waits for the input only when no call is in flight and no result waits to be given
                    item = stream.poll(0 if flying or ready else None)
                except StopIteration:
                    more = False
                    break
                except Exception as exc:  # noqa: BLE001 (raised again below)
                    more, failed = False, exc
                    break
                if item is NOT_YET:
                    break
                i = busy.index(min(busy))
                flying[self.submit(i, method, item)] = (submitted, i)
                busy[i] += 1
                submitted += 1
            if emitted in ready:
                value = ready.pop(emitted)
                if isinstance(value, _Raised):
                    raise value.error
                yield value
                emitted += 1
                continue
            if not flying:
                if failed is not None:
                    raise failed
                if not more:
                    return
                continue
            room = more and len(flying) + len(ready) < limit and min(busy) < depth  # an item could be taken now
            for handle in self._wait_any(list(flying), INPUT_POLL if room else None):
                k, i = flying.pop(handle)
                busy[i] -= 1
                try:
                    ready[k] = handle.result()
                except Exception as exc:  # noqa: BLE001 (raised in its turn, after the results before it)
                    ready[k] = _Raised(exc)
                    more = False  # nothing more is read: the error ends the stream once its turn comes

    def _wait_any(self, handles: list[Any], timeout: float | None = None) -> list[Any]:
        """The handles (of :meth:`submit`) that have finished, waiting until one has, or at most ``timeout``
        seconds (then possibly none)."""
        if self.mode == "local":
            return pools.wait_any(handles, timeout)  # in submission order
        import ray  # the ray mode (imap_any never gets here inline)

        by_ref = {h.ref: h for h in handles}
        finished, _ = ray.wait(list(by_ref), num_returns=1, timeout=timeout)
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
            pools.stop_pools(self._workers, abort)
        elif self._ray is not None:  # its actors ended and its CPUs given back (also before they were all placed)
            self._ray.close()
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
        (default: ``$RAY_ADDRESS`` if set, else start or reuse a local Ray instance).
    """

    def __init__(self, jobs: int | None = None, backend: str | None = None, address: str | None = None) -> None:
        if backend is None and address is None and resolve_settings(jobs, "local").jobs == 1:  # ($GLMNLP_JOBS read)
            backend = "local"  # all of it here: no backend is needed, and none is read (a bad $GLMNLP_BACKEND is no
            # error for work that stays in this process, glmnlp.config; an address given keeps the configured one)
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

            cpus = int(ray.cluster_resources().get("CPU", 0))
            self.jobs = max(cpus, 1) if not jobs else int(jobs)
            if self.jobs > max(cpus, 2) and cpus:  # as warn_of_jobs warns of the local CPUs (never of 2); the workers
                logger.warning(f"warning: {self.jobs} jobs are more than the {cpus} "  # share them
                               f"{'CPU' if cpus == 1 else 'CPUs'} of the Ray cluster: up to {self.jobs} Ray actors "
                               f"share them, each holding a model or a shard in memory, and no faster than {cpus}")
        else:
            self.jobs = default_jobs() if not jobs else int(jobs)
        self.mode = "inline" if self.jobs == 1 else backend

    # -- backends ---------------------------------------------------------------------------------
    @staticmethod
    def _mp_context() -> Any:
        return pools.mp_context()

    def _ray_init(self) -> None:
        try:
            import ray
        except ImportError:
            raise ConfigError("the ray backend needs Ray: pip install 'glmnlp[ray]'") from None
        if ray.is_initialized():  # Ray joins one cluster per process: another one named is refused, not ignored
            if self.address is not None and (joined := other_cluster(self.address)) is not None:
                raise ConfigError(f"the ray backend could not join address {self.address!r}: Ray in this process is "
                                  f"connected to the cluster at {joined!r} (one cluster per process: ray.shutdown() "
                                  "first to join another, or give no address)")
            return
        kwargs: dict[str, Any] = {"include_dashboard": False, "log_to_driver": False,
                                  "logging_level": ray_logging_level}
        where = joined_address(self.address)  # $RAY_ADDRESS too: ray.init joins it when given no address
        if self.address is not None:
            kwargs["address"] = self.address
        # a handler of the caller's own (the command line's) is put back; Ray's replaces only the default
        main_thread = threading.current_thread() is threading.main_thread()
        sigterm = signal.getsignal(signal.SIGTERM) if main_thread else None
        sigterm = sigterm if callable(sigterm) else None
        try:
            ray.init(**kwargs)
        except (ConnectionError, ValueError) as exc:  # no cluster there, or an address Ray cannot read
            raise ConfigError(f"the ray backend could not start or join {where}: "
                              f"{str(exc).splitlines()[0] if str(exc) else type(exc).__name__}") from None
        except SystemExit as exc:  # SIGTERM while Ray starts: its own handler's sys.exit(15), before the caller's
            if sigterm is None or exc.code != signal.SIGTERM:  # is back: status 15 and no word, not "Aborted."
                raise
            signal.signal(signal.SIGTERM, sigterm)
            sigterm(signal.SIGTERM, None)  # the caller's handler, as if the signal had come a moment later
            raise
        finally:
            if sigterm is not None:
                signal.signal(signal.SIGTERM, sigterm)
        cluster_messages_to_stderr()
        self._ray_started = True

    def _local_pool(self) -> ProcessPoolExecutor:
        if self._pool is None:
            self._pool = pools.start_pool(self.jobs, self._mp_context())
            self._pool_finalizer = pools.stop_when_collected(self, [self._pool])
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
            return lambda item: pools.submit(pool, fn, item)
        import ray

        remote = ray.remote(num_cpus=1)(_apply)
        return lambda item: RayRef(remote.remote(fn, item))

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
            pools.stop_pools([pool], abort)

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
    """Consecutive lists of ``size`` items (the last may be shorter). An error raised by ``items`` comes after a last
    list of the items read before it: a reader that stops at a malformed line leaves every item before the line to
    be answered (``glmnlp tag`` and ``glmnlp parse`` write every sentence before it; whole lists only dropped up to
    ``size - 1`` of them)."""
    it = iter(items)
    while True:
        chunk: list[Any] = []
        try:
            chunk.extend(itertools.islice(it, size))
        except Exception:
            if chunk:
                yield chunk
            raise
        if chunk:
            yield chunk
        if len(chunk) < size:
            return
