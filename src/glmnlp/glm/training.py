"""A generic perceptron training loop for any global linear model with any decoder.

The loop is the one of Collins (2002) and Collins & Roark (2004): for each pass, visit the training
examples in a (seeded) shuffled order, decode each with the current weights, and on a mistake apply
the global difference α += Φ(gold) − Φ(pred); after each pass, score the dev set with the
*averaged* weights and keep the best pass (C&R score §24 after each pass and use the best one).

A task plugs in through the small :class:`GLMTask` protocol: it owns GEN, the features and the
decoder, the loop owns the order of examples, the perceptron, evaluation and best-epoch selection.
The pieces are public so that a specialised loop (the parser's early update and cache) can reuse
them: :func:`epoch_order` (seeded shuffling), :class:`BestEpoch` (selection), :func:`progress`
(a tqdm bar on stderr, silent when stderr is not a terminal) and :class:`EpochRecord` (history).

Our choices: shuffling uses ``numpy.random.default_rng([seed, epoch])`` so each epoch's order is a
pure function of (seed, epoch) and a run can resume at any epoch; ties in dev score keep the
*earlier* epoch (fewer passes, same score).

**Iterative parameter mixing** (McDonald, Hall & Mann 2010, §3 "Iterative parameter mixing",
Figure 3). The training examples are split into S shards (example i goes to shard i mod S). Each
epoch, every shard runs one perceptron pass over its examples starting from the current mixed
weights m, the shards' weight vectors are mixed, m = Σ_s μ_s w_s, and m is sent back to every
shard. Serial training is the S = 1 case of the same code (mixing one shard with μ = 1 changes
nothing, and the bits of the model are exactly those of the plain loop). Details (our choices):

* Each shard is a :class:`PerceptronShard` living on a worker of :mod:`glmnlp.glm.parallel` for
  the whole run, so its examples are sent once and its task state (the parser's cache) persists
  across epochs. A shard visits its examples in the order they appear in the global permutation
  :func:`epoch_order` (so S = 1 visits exactly the serial order).
* Only the ids a shard updated travel back (sorted ids and their values: numpy arrays), and only
  the ids some shard updated travel out (``assign``); a weight equal to its new value is left
  alone, which is what makes S = 1 bit-identical.
* Mixing coefficients: ``"uniform"`` μ_s = 1/S, or ``"updates"`` μ_s = (updates of shard s in the
  epoch) / (all updates), McDonald et al.'s error-weighted mixing (uniform when no shard updated).
  Default uniform. Measured (``benchmarks/results/scaling.md``, proxy corpus, 3 epochs, S = 2): the
  tagger's dev accuracy 95.73 (uniform) vs 95.78 (updates) vs 96.05 serial, a difference within
  the noise of one seed, so the simpler rule stays the default; the parser with uniform mixing
  ends 0.14 F1 below serial (82.04 vs 82.18 dev F1).
* Averaging across shards and epochs: each shard keeps its own lazy averaging state over every
  weight vector it visits (its assigned mixed weights enter through ``assign``, which keeps the sums
  exact), so ᾱ = Σ_s Σ(weights after each example of shard s) / Σ_s (examples of shard s): the mean
  of all N·T weight vectors visited, which for S = 1 is the serial averaged perceptron.
* Same data, seed and S give the same model bit for bit, whatever the number of workers or the
  backend: shards are mixed in shard order and the floating-point sums are taken in that order.

**The dev pass on the workers** (our design). A task with ``dev_pack`` and ``dev_score`` (the parser) has the
dev set of each epoch decoded on the executor's workers, the averaged weights' dev score, the best
epoch and the model staying those of the pass in one process:

* Dev example i goes to slice i mod n (the rule of the shards, so long and short documents spread
  evenly); each slice is a :class:`DevSlice`, built once per run on its worker from plain data (the
  parser: its skeleton, the combined model's final generative term, the slice's words and tags).
  When the shards run here (S = 1, or jobs = 1) the slices get min(jobs, |dev|) workers of their
  own; when the shards occupy the workers, one slice lives next to the first shard of each worker
  (no second set of processes, and on Ray no actors waiting for the CPUs the shards hold). jobs = 1
  is one slice in this process, through the same objects.
* Each epoch the averaged weights travel as the ids and values of their non-zero entries (by bits,
  so a -0.0 travels too and the decoder sees the same bits): 87,252 of 2^22 after one epoch on 1,946
  trees, 1.0 MB instead of 32 MB. The predictions come back as plain data, are put back in dev order
  (:func:`unshard`) and scored once here.
* A task without them (the tagger: its dev pass takes seconds) is scored here by ``evaluate``.
* Memory: each slice holds a decoder for the whole run; for the parser a 2^22-entry float64 table
  (32 MB), its tables and, for the combined model, the final generative term (not the jackknifed
  ones): +56 MB resident for one slice of GUM dev with a combined model trained on 1,946 trees
  (term arrays 6.9 MB). With jobs = 1 that slice is kept in this process between epochs, where
  the former single-process pass built a parser per epoch.
* Memory of large tables: this process averages in place and keeps the best epochs as their non-zero
  entries (bit for bit, :func:`_sparse`/:func:`_dense`), and a dev slice is handed its own read-only
  table (the parser's decoder takes it without a copy and drops it after the pass): the proxy parser
  with a 2**27 table (glmnlp.parser.feature_space) peaked at 21.6 GB in use before, 15.3 GB after
  (with the parser's zero tables left unallocated, 11.9 GB), the same weights byte for byte.
* Measured: parser trained one epoch on every 7th tree of the proxy corpus (1,946), dev = GUM dev
  (1,575 trees), the dev pass (decoding and EVALB) timed alone, 6 alternating repeats, on a 2-core
  machine loaded by another training job and a benchmark (load average 3.6-4.0): median 3.13 s with
  jobs 1, 3.74 s with jobs 2 (0.84x), the same F1. The work splits evenly (CPU time 0.79-0.95 s per
  slice against 1.46-1.86 s for the whole set), but each worker got about a third of a core; EVALB
  (0.3-0.9 s) stays in this process. The decoding's speed-up on an idle machine is not measured.
  Through :func:`train_perceptron` (one epoch, same data and machine) the training pass took
  8.0-8.8 s and the dev pass 3.0-3.2 s with jobs 1, 3.5-4.3 s with jobs 2. The combined model (same
  trees, 2 jackknife folds, one epoch), 4 alternating repeats at load 3.0-3.4: median 4.40 s with
  jobs 1, 4.72 s with jobs 2 (best 3.82 s and 3.03 s), the same F1.
"""

from __future__ import annotations

import copy
import sys
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

import numpy as np

from glmnlp.errors import ConfigError, InputError
from glmnlp.glm.parallel import Executor, Hosts, resolve_executor
from glmnlp.glm.perceptron import AveragedPerceptron
from glmnlp.glm.task import GLMTask, StepTask

__all__ = [
    "GLMTask",
    "StepTask",
    "EpochRecord",
    "TrainingResult",
    "BestEpoch",
    "epoch_order",
    "progress",
    "train_perceptron",
    "PerceptronShard",
    "MIXING",
    "check_shards",
    "mix_shards",
    "shard_indices",
    "unshard",
    "DevSlice",
]

MIXING = ("uniform", "updates")

T = TypeVar("T")


@dataclass(frozen=True)
class EpochRecord:
    """What happened in one pass over the training data."""

    epoch: int
    examples: int
    mistakes: int
    seconds: float
    dev_score: float | None
    updates: int = 0
    stats: dict[str, float] = field(default_factory=dict)
    dev_seconds: float = 0.0


@dataclass
class TrainingResult:
    """The outcome of training: the selected averaged weights and the per-epoch history.

    ``runners_up``: with ``keep`` > 1, the next best epochs as (epoch, dev score, averaged weights),
    best first, for a caller that chooses among them by another measure (the parser: its dev F1 at
    the beam it will parse with, :func:`glmnlp.parser.training.train_parser`)."""

    weights: np.ndarray
    best_epoch: int
    best_score: float | None
    history: list[EpochRecord] = field(default_factory=list)
    perceptron: AveragedPerceptron | None = None
    runners_up: list[tuple[int, float | None, np.ndarray]] = field(default_factory=list)


def epoch_order(n_examples: int, seed: int, epoch: int, *, shuffle: bool = True) -> np.ndarray:
    """The visiting order of epoch ``epoch`` (1-based): a permutation determined by (seed, epoch)."""
    if not shuffle:
        return np.arange(n_examples, dtype=np.int64)
    rng = np.random.default_rng([int(seed), int(epoch)])
    return rng.permutation(n_examples).astype(np.int64)


def _beats(score: float, other: float) -> bool:
    """``score > other`` with NaN below every number (an epoch scored NaN first was kept for good: NaN > x is
    false for every x)."""
    return other != other and score == score or score > other


class BestEpoch(Generic[T]):
    """Keeps the best (score, epoch, payload) seen so far; ties keep the earlier epoch.

    With ``keep`` = k > 1 it also keeps the next k - 1 epochs in the same order (``runners_up``, best
    first); a payload that falls out of the k best is dropped, so at most k are held.
    """

    def __init__(self, keep: int = 1) -> None:
        if keep < 1:
            raise ValueError(f"keep must be >= 1, got {keep}")
        self.keep = keep
        self.score: float | None = None
        self.epoch = 0
        self.payload: T | None = None
        self.runners_up: list[tuple[int, float | None, T]] = []

    def offer(self, epoch: int, score: float | None, payload: T) -> bool:
        """Record ``payload`` if ``score`` beats the best so far (None = no dev set: the latest wins)."""
        first = self.payload is None  # a NaN score (an F1 of no predictions) ranks below every number
        if first or score is None or (self.score is not None and _beats(score, self.score)):
            if not first:
                assert self.payload is not None
                self.runners_up.insert(0, (self.epoch, self.score, self.payload))
            self.score, self.epoch, self.payload = score, epoch, payload
            del self.runners_up[self.keep - 1:]
            return True
        # below the best: its place among the runners-up (ties keep the earlier epoch ahead)
        at = next((i for i, (_e, s, _p) in enumerate(self.runners_up)
                   if s is not None and _beats(score, s)), len(self.runners_up))
        self.runners_up.insert(at, (epoch, score, payload))
        del self.runners_up[self.keep - 1:]
        return False


def progress(
    iterable: Iterable[T], *, total: int | None = None, desc: str = "", enabled: bool = True
) -> Iterator[T]:
    """Wrap ``iterable`` in a tqdm progress bar on stderr (off when disabled or stderr is not a TTY)."""
    show = enabled and hasattr(sys.stderr, "isatty") and sys.stderr.isatty()
    if not show:
        yield from iterable
        return
    from tqdm import tqdm

    yield from tqdm(iterable, total=total, desc=desc, file=sys.stderr, leave=False, mininterval=0.5)


def _check_task(task: Any, train: Any, dev: Any, epochs: Any, seed: Any = 0) -> None:
    """What :func:`train_perceptron` needs, checked before any work (a missing ``evaluate`` was found after a whole
    pass; an empty training set was an UnboundLocalError with one shard and a silent no-op with two)."""
    if isinstance(epochs, bool) or not isinstance(epochs, int) or epochs < 1:
        raise ConfigError(f"epochs must be an integer >= 1, got {epochs!r}")
    if isinstance(seed, bool) or not isinstance(seed, int | np.integer) or seed < 0:  # 1.5 trained as 1, silently
        raise ConfigError(f"seed must be an integer >= 0, got {seed!r}")
    for name, data in (("train", train), ("dev", dev)):
        if data is not None and not (hasattr(data, "__len__") and hasattr(data, "__getitem__")):
            raise TypeError(f"{name} must be a sequence of examples (a list), not a {type(data).__name__}")
    if len(train) == 0:
        raise InputError("no training examples")
    dev_scored = getattr(task, "dev_pack", None) is not None and getattr(task, "dev_score", None) is not None
    steps = any(callable(getattr(task, name, None)) for name in ("train_step", "pack"))  # its own training steps
    needed = ("n_features",) + (() if steps else ("decode", "feature_difference")) + (
        ("evaluate",) if dev is not None and len(dev) and not dev_scored else ())
    if missing := [f"{name}()" for name in needed if not callable(getattr(task, name, None))]:
        raise TypeError(f"the task {type(task).__name__} has no {', '.join(missing)} (glmnlp.glm.training.GLMTask)")
    n = task.n_features()
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < 0:
        raise TypeError(f"the task's n_features() must be an integer >= 0, got {n!r}")


def _task_copy(task: Any) -> Any:
    """A shard's own copy of ``task`` (module docstring); a task that cannot be copied is the ConfigError below."""
    try:
        return copy.deepcopy(task)
    except (TypeError, AttributeError, copy.Error) as exc:  # a file handle, a lock, a generator, ...
        raise ConfigError(_uncopyable(task, f"cannot be copied ({exc})")) from None


def _uncopyable(task: Any, why: str) -> str:
    return (f"with shards > 1 each shard gets a copy of the task, and {type(task).__name__} {why}: hold no open file, "
            "lock, lambda or generator in it, or give it pack() (module docstring)")


class _Holds:
    """What :func:`_travels` sends the task alone in, to a worker."""

    def __init__(self, value: Any) -> None:
        self.value = value


def _travels(ex: Executor, value: Any) -> bool:
    """Whether ``ex``'s transport to its workers can send ``value`` (the task: else an example could not be sent,
    and the error blamed the task). Asked of the transport itself, on two workers (one object would stay here)."""
    try:
        with ex.hosts(_Holds, [(value,), (value,)]):
            return True
    except Exception:  # noqa: BLE001 (whatever the transport raises)
        return False


def check_shards(shards: int, n_examples: int) -> None:
    """ConfigError unless 1 <= ``shards`` <= ``n_examples`` (when there are examples): a shard without examples
    would hold a whole perceptron (its weights, sums and stamps) for nothing, and mix unchanged weights in."""
    if shards < 1:
        raise ConfigError(f"shards must be >= 1, got {shards}")
    if 0 < n_examples < shards:
        raise ConfigError(f"{shards} shards for {n_examples} training example{'s' * (n_examples != 1)}: a shard "
                          f"would have none (at most {n_examples})")


def shard_indices(n_examples: int, n_shards: int) -> list[np.ndarray]:
    """Example ids of each shard: example i goes to shard i mod S."""
    return [np.arange(s, n_examples, n_shards, dtype=np.int64) for s in range(n_shards)]


def unshard(parts: Sequence[Sequence[T]], n_total: int) -> list[T]:
    """Inverse of :func:`shard_indices` for per-shard results: item i is ``parts[i % S][i // S]``."""
    n = len(parts)
    if sum(len(p) for p in parts) != n_total:
        raise ValueError(f"{sum(len(p) for p in parts)} results for {n_total} items")
    return [parts[i % n][i // n] for i in range(n_total)]


def _pass_through(payload: tuple[Any, Sequence[Any]]) -> tuple[Any, Sequence[Any]]:
    return payload


class PerceptronShard:
    """One shard of iterative parameter mixing: a task, its examples and a perceptron.

    Created on a worker by :func:`train_perceptron` (through :meth:`Executor.hosts`); ``builder``
    rebuilds the task and the shard's examples from ``payload``.
    """

    def __init__(
        self,
        builder: Callable[[Any], tuple[Any, Sequence[Any]]],
        payload: Any,
        shard: int,
        n_shards: int,
        n_total: int,
        n_features: int,
        seed: int,
        shuffle: bool,
        show_progress: bool,
    ) -> None:
        self.task, self.examples = builder(payload)
        self.shard, self.n_shards, self.n_total = shard, n_shards, n_total
        self.seed, self.shuffle, self.show_progress = seed, shuffle, show_progress
        self.perceptron = AveragedPerceptron(n_features)
        self.perceptron.grow(self.task.n_features())
        self.dev: DevSlice | None = None

    def assign(self, ids: np.ndarray, values: np.ndarray) -> None:
        """Start the next pass from the mixed weights (given where they changed)."""
        self.perceptron.assign(ids, values)

    def run_epoch(self, epoch: int) -> dict[str, Any]:
        """One perceptron pass over this shard's examples; returns counters and the changed weights."""
        started = time.perf_counter()
        order = epoch_order(self.n_total, self.seed, epoch, shuffle=self.shuffle)
        if self.n_shards > 1:
            order = order[order % self.n_shards == self.shard] // self.n_shards
        model = self.perceptron
        updates0 = model.n_updates
        step = getattr(self.task, "train_step", None)
        mistakes = 0
        desc = f"epoch {epoch}" if self.n_shards == 1 else f"epoch {epoch} shard {self.shard + 1}"
        for i in progress(order.tolist(), total=len(order), desc=desc, enabled=self.show_progress):
            example = self.examples[i]
            if step is not None:
                mistakes += bool(step(example, i * self.n_shards + self.shard, model))
            else:
                predicted = self.task.decode(example, model.weights)
                if not isinstance(diff := self.task.feature_difference(example, predicted), tuple) or len(diff) != 2:
                    raise TypeError(f"the task's feature_difference() must return (ids, values), got {diff!r}")
                ids, values = diff
                if len(ids):
                    mistakes += 1
                    model.update(ids, values)
            model.tick()
        stats = getattr(self.task, "epoch_stats", None)
        changed = model.take_changed()
        return {
            "examples": len(order),
            "mistakes": mistakes,
            "updates": model.n_updates - updates0,
            "seconds": time.perf_counter() - started,
            "stats": stats() if stats is not None else {},
            "ids": changed,
            "values": model.weights[changed].copy(),
        }

    def set_dev(self, builder: Callable[[Any], Any], payload: Any) -> None:
        """Host a slice of the dev set next to this shard (a :class:`DevSlice`, used by :meth:`decode_dev`)."""
        self.dev = DevSlice(builder, payload)

    def decode_dev(self, size: int, ids: np.ndarray, values: np.ndarray) -> list[Any]:
        """:meth:`DevSlice.decode` of the slice given to :meth:`set_dev`."""
        if self.dev is None:
            raise RuntimeError("this shard holds no dev slice")
        return self.dev.decode(size, ids, values)

    def average_sum(self) -> tuple[int, np.ndarray, np.ndarray, int]:
        """The sum of the weight vectors after each example of this shard, sparse: (size, ids,
        values, number of examples). Most weights of a large model are never updated: only the
        others travel."""
        ids, values = self.perceptron.average_sum_sparse()
        return self.perceptron.n_features, ids, values, self.perceptron.n_examples


class DevSlice:
    """A slice of the dev set with the task's decoder for it, created on a worker by
    :func:`train_perceptron` when the task has ``dev_pack``; ``builder`` rebuilds the decoder from
    ``payload``. It lives for the whole run, so the decoder (the parser's tables and generative term)
    is built once and each epoch only the averaged weights travel."""

    def __init__(self, builder: Callable[[Any], Any], payload: Any) -> None:
        self.decoder = builder(payload)

    def decode(self, size: int, ids: np.ndarray, values: np.ndarray) -> list[Any]:
        """Predictions of this slice with the weights that are ``values`` at ``ids`` and 0 elsewhere."""
        weights = _dense((size, ids, values))
        weights.flags.writeable = False  # no one writes to it again: the decoder may keep it without a copy
        return list(self.decoder.decode(weights))


def _dense(sparse: tuple[int, np.ndarray, np.ndarray]) -> np.ndarray:
    """The weights :func:`_sparse` took apart, bit for bit."""
    size, ids, values = sparse
    weights = np.zeros(size, dtype=np.float64)
    weights[ids] = values
    return weights


def _sparse(weights: np.ndarray) -> tuple[int, np.ndarray, np.ndarray]:
    """(size, ids, values) of the entries of ``weights`` whose bits are not all zero (so -0.0 travels
    too and the weights rebuilt by :meth:`DevSlice.decode` are the same bits)."""
    weights = np.ascontiguousarray(weights, dtype=np.float64)
    ids = np.flatnonzero(weights.view(np.int64))
    if weights.shape[0] <= np.iinfo(np.int32).max:
        ids = ids.astype(np.int32)
    return int(weights.shape[0]), ids, weights[ids]


def mix_shards(
    mixed: np.ndarray, results: Sequence[dict[str, Any]], mixing: str = "uniform"
) -> tuple[np.ndarray, np.ndarray]:
    """Mix the shards' weights into ``mixed`` (in place) where some shard changed them.

    ``mixed`` holds the weights every shard started the pass from; ``results[s]["ids"/"values"]``
    are the weights shard s changed. Returns (ids, new values) to send to every shard.
    """
    if mixing not in MIXING:
        raise ConfigError(f"mixing must be one of {', '.join(MIXING)}, got {mixing!r}")
    n = len(results)
    total_updates = sum(int(r["updates"]) for r in results)
    if mixing == "updates" and total_updates > 0:
        mu = [int(r["updates"]) / total_updates for r in results]
    else:
        mu = [1.0 / n] * n
    parts = [r["ids"] for r in results if len(r["ids"])]
    if not parts:
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.float64)
    ids = np.unique(np.concatenate(parts))
    acc = np.zeros(ids.shape[0], dtype=np.float64)
    base = mixed[ids]
    for r, m in zip(results, mu, strict=True):
        values = base.copy()
        values[np.searchsorted(ids, r["ids"])] = r["values"]
        acc += m * values
    mixed[ids] = acc
    return ids, acc


def train_perceptron(
    task: GLMTask[Any, Any] | StepTask,
    train: Sequence[Any],
    dev: Sequence[Any] | None = None,
    *,
    epochs: int = 10,
    seed: int = 0,
    shuffle: bool = True,
    show_progress: bool = True,
    on_epoch: Callable[[EpochRecord], None] | None = None,
    shards: int = 1,
    mixing: str = "uniform",
    executor: Executor | None = None,
    jobs: int | None = None,
    backend: str | None = None,
    address: str | None = None,
    keep: int = 1,
) -> TrainingResult:
    """Train ``task`` with the averaged perceptron and return the best epoch's averaged weights.

    Parameters
    ----------
    task:
        Supplies decoding, global feature differences and evaluation (:class:`GLMTask`), or its own training
        steps and evaluation (:class:`StepTask`).
    train, dev:
        Training examples and optional dev examples (no dev: the last epoch is kept).
    epochs:
        Number of passes T (picked on the dev set, as in C&R 2004 §5; 10 is a typical upper end for tagging).
    seed:
        Seed of the per-epoch shuffling (:func:`epoch_order`).
    on_epoch:
        Called with each :class:`EpochRecord` (e.g. to log to stderr).
    shards, mixing:
        Iterative parameter mixing over ``shards`` shards (1 = the serial perceptron) with
        ``"uniform"`` or ``"updates"``-weighted mixing (module docstring).
    executor, jobs, backend, address:
        Where the shards run: an :class:`~glmnlp.glm.parallel.Executor`, or one made from
        (jobs, backend, address; unset: :mod:`glmnlp.config`, by default every core); ``jobs=1``
        runs the shards inline. The model does not depend on
        them.
    keep:
        Also return the averaged weights of the next ``keep - 1`` epochs by dev score
        (:attr:`TrainingResult.runners_up`).
    """
    _check_task(task, train, dev, epochs, seed)
    check_shards(shards, len(train))
    if mixing not in MIXING:
        raise ConfigError(f"mixing must be one of {', '.join(MIXING)}, got {mixing!r}")
    own = executor is None
    ex = resolve_executor(executor, jobs=jobs, backend=backend, address=address)
    n_features = task.n_features()
    pack = getattr(task, "pack", None)
    args = []
    for s, idx in enumerate(shard_indices(len(train), shards)):
        part = [train[i] for i in idx.tolist()] if shards > 1 else train
        if shards == 1 and (ex.mode == "inline" or pack is None):
            builder, payload = _pass_through, (task, part)  # the caller's task object itself
        elif pack is not None:
            builder, payload = pack(part)  # each shard rebuilds its own task state
        else:
            builder, payload = _pass_through, (_task_copy(task), part)
        inline_bar = show_progress and ex.mode == "inline"
        args.append((builder, payload, s, shards, len(train), n_features, seed, shuffle, inline_bar))
    best: BestEpoch[tuple[int, np.ndarray, np.ndarray]] = BestEpoch(keep)  # averaged weights, _sparse
    history: list[EpochRecord] = []
    mixed = np.zeros(n_features, dtype=np.float64)
    has_dev = dev is not None and len(dev) > 0
    dev_hosts: Hosts | None = None
    dev_slices: list[tuple[Hosts, int, str]] = []  # where each slice of dev lives: (hosts, object, method)
    try:
        hosts = ex.hosts(PerceptronShard, args)
    except Exception as exc:  # without pack() only n_features() of the task's ran (above): the transport raised it,
        sent = isinstance(exc, TypeError | AttributeError) or type(exc).__name__ == "PicklingError"
        if sent and pack is None and shards > 1 and ex.mode != "inline":  # as for any object it cannot send
            raise ConfigError(_uncopyable(task, f"cannot be sent to a worker process ({exc})")
                              if not _travels(ex, task) else "with shards > 1 the training examples are sent to worker "
                              f"processes, and one of them cannot be ({exc}): hold no lambda, open file or lock in "
                              "them, or give the task pack()") from None
        raise
    try:
        dev_pack = getattr(task, "dev_pack", None)
        if has_dev and dev_pack is not None and getattr(task, "dev_score", None) is not None:
            assert dev is not None
            if hosts.mode == "inline":  # the shards run here: the slices get workers of their own
                slices = shard_indices(len(dev), max(1, min(ex.jobs, len(dev))))
                dev_hosts = ex.hosts(DevSlice, [dev_pack([dev[i] for i in idx.tolist()]) for idx in slices])
                dev_slices = [(dev_hosts, i, "decode") for i in range(len(slices))]
            else:  # next to the first shard of each worker (shard i < n_workers lives on worker i)
                slices = shard_indices(len(dev), min(hosts.n_workers, len(dev)))
                placed = [hosts.submit(i, "set_dev", *dev_pack([dev[j] for j in idx.tolist()]))
                          for i, idx in enumerate(slices)]
                for handle in placed:
                    handle.result()
                dev_slices = [(hosts, i, "decode_dev") for i in range(len(slices))]
        for epoch in range(1, epochs + 1):
            started = time.perf_counter()
            results = hosts.call("run_epoch", [(epoch,)] * shards)
            if shards > 1:
                size = max([n_features] + [int(r["ids"][-1]) + 1 for r in results if len(r["ids"])])
                if size > mixed.shape[0]:
                    mixed = np.concatenate([mixed, np.zeros(size - mixed.shape[0])])
                ids, values = mix_shards(mixed, results, mixing)
                hosts.call("assign", [(ids, values)] * shards)
            sums = hosts.call("average_sum")
            total = np.zeros(max(size for size, _, _, _ in sums), dtype=np.float64)
            for _size, ids, values, _n in sums:
                total[ids] += values  # ids are unique within a shard; shards added in shard order
            n_seen = sum(n for _, _, _, n in sums)
            if n_seen:
                total *= 1.0 / n_seen  # in place: the same products, one dense table fewer
                averaged = total
            else:
                averaged = mixed[:size].copy()
            sparse = _sparse(averaged)
            dev_started = time.perf_counter()
            seconds = dev_started - started
            score: float | None = None
            if has_dev:
                assert dev is not None
                if dev_slices:
                    handles = [where.submit(i, method, *sparse) for where, i, method in dev_slices]
                    parts = [handle.result() for handle in handles]
                    score = task.dev_score(dev, unshard(parts, len(dev)))  # type: ignore[union-attr]  # optional method
                else:
                    score = task.evaluate(dev, averaged)
                # None too: a dev score that is None ranked as no dev set, and that pass beat every scored one
                if isinstance(score, bool | complex | np.complexfloating) or not isinstance(
                        score, int | float | np.number):
                    raise TypeError(f"the task's dev score must be a number (higher is better), got {score!r}")
                score = float(score)
            dev_seconds = time.perf_counter() - dev_started
            stats: dict[str, float] = {}
            for r in results:
                for key, value in r["stats"].items():
                    stats[key] = stats.get(key, 0) + value
            record = EpochRecord(
                epoch=epoch,
                examples=sum(int(r["examples"]) for r in results),
                mistakes=sum(int(r["mistakes"]) for r in results),
                seconds=seconds,
                dev_score=score,
                updates=sum(int(r["updates"]) for r in results),
                stats=stats,
                dev_seconds=dev_seconds,
            )
            history.append(record)
            del averaged, total  # kept below as their non-zero entries only (_sparse: bit-exact)
            best.offer(epoch, score, sparse)
            if on_epoch is not None:
                on_epoch(record)
    finally:
        hosts.close()
        if dev_hosts is not None:
            dev_hosts.close()
        if own:
            ex.close()
    assert best.payload is not None
    return TrainingResult(weights=_dense(best.payload), best_epoch=best.epoch, best_score=best.score,
                          history=history, runners_up=[(e, s, _dense(p)) for e, s, p in best.runners_up])
