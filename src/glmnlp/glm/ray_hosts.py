"""The Ray side of :class:`glmnlp.glm.parallel.Hosts`: the actors of one set of hosts, and the checks of a cluster.

Design choices (no cluster code of glmnlp's own: Ray schedules, places and reports deaths):

* **A job's actors are all or nothing: a placement group.** An actor holds its CPU for its life, and actors made one
  by one each took a CPU as soon as one was free: three jobs of 2 actors on a 2-CPU cluster each got one and waited
  for the second for ever. :class:`RayActors` first asks Ray for a placement group of one bundle per actor (Ray
  reserves a group whole or not at all) and only then starts the actors in its bundles
  (``PlacementGroupSchedulingStrategy``), so a job holds no CPU until it can hold all it needs. Waiting longer than
  :data:`WAIT_NOTE` seconds is said once (a warning on this module's logger: which CPUs, that other work holds them,
  that Ctrl-C stops the wait). The group is removed when the hosts close, on abort (Ctrl-C, an error) too, and when
  they are collected unclosed; Ray ends the actors placed in it.
* **More workers than the cluster's CPUs share them**: a bundle is one CPU, or a share of one (:func:`cpu_share`,
  a fraction Ray can count, fitted to each node's CPUs) when the workers asked for are more than the cluster's
  CPUs. The local backend starts ``--jobs`` processes whatever the cores, and the shards of a training command, which
  make its model, follow ``--jobs``: ``-j 3`` on a 2-CPU cluster is 3 actors, one per shard, as the command says (a
  group of 3 whole CPUs would never be placed). :class:`glmnlp.glm.parallel.Executor` warns of it.
* **One cluster per process** (:func:`other_cluster`): Ray joins one cluster per process, and an address given while
  it is connected to another was ignored without a word. The address given is compared with the cluster's own
  (its GCS address): another port is another cluster; the same port on an address of this machine (``127.0.0.1``,
  ``0.0.0.0``, the node's IP, any a socket here can be bound to) and on another machine's are two clusters;
  anything else (``auto``, a host name that resolves elsewhere, a Ray client) is not refused.
* **A dead worker is a WorkerError** (:class:`RayRef`): Ray's errors for a lost actor, worker or node become
  :class:`glmnlp.errors.WorkerError`, said in one line; the work's own error is raised as itself, not as Ray's
  wrapper, whose message is the actor's traceback.
"""

from __future__ import annotations

import ipaddress
import logging
import socket
import time
import weakref
from collections.abc import Callable, Sequence
from typing import Any

from glmnlp.errors import WorkerError

__all__ = ["RAY_DEATHS", "WAIT_NOTE", "RayActors", "RayRef", "cpu_share", "other_cluster"]

logger = logging.getLogger(__name__)

#: Seconds the actors of a set of hosts wait for their CPUs before the wait is said (once).
WAIT_NOTE = 5.0

#: Seconds between two looks at the placement group while it waits: Ctrl-C is taken between them.
_WAIT_STEP = 0.5

#: Ray counts resources in steps of 1/10000 (a bundle's fraction of a CPU is rounded down to one).
_RESOURCE_STEP = 10_000

#: Ray's errors for a worker, actor or node that died (an error raised by the work itself passes through as it is).
RAY_DEATHS = ("RayActorError", "WorkerCrashedError", "NodeDiedError", "OutOfMemoryError")


class RayRef:
    """A call's result on Ray, with the interface of a future."""

    __slots__ = ("ref",)

    def __init__(self, ref: Any) -> None:
        self.ref = ref

    def result(self) -> Any:
        import ray

        died = tuple(getattr(ray.exceptions, name) for name in RAY_DEATHS if hasattr(ray.exceptions, name))
        try:
            return ray.get(self.ref)
        except died as exc:  # as a dead local worker (glmnlp.glm.pools): one line, not Ray's traceback
            reason = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
            raise WorkerError(f"a Ray worker died before its work was done ({reason})") from exc
        except ray.exceptions.RayTaskError as exc:  # the work's own error, as a local worker raises it: Ray's
            # wrapper is an instance of it too, but says the actor's traceback where the error says its message
            # (a worker that could not load the model printed two tracebacks instead of "error: DIR: reason")
            if isinstance(exc.cause, Exception):
                raise exc.cause from exc
            raise


def _actor_class() -> Any:
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


def cpu_share(node_cpus: Sequence[float], n: int) -> float:
    """The CPUs of each of ``n`` bundles: 1, or the largest share of a CPU (a multiple of Ray's 1/10000) of which
    the nodes (``node_cpus``, each node's CPUs) hold ``n`` (a node holds whole bundles only, so the cluster's CPUs
    divided by ``n`` may not fit: two nodes of one CPU hold two bundles of 2/3, not three). 1 for a cluster with no
    CPU (the group then waits, and says so)."""
    units = [int(round(c * _RESOURCE_STEP)) for c in node_cpus if c > 0]
    fits = [u for u in {min(c // k, _RESOURCE_STEP) for c in units for k in range(1, n + 1)} if u > 0
            and sum(c // u for c in units) >= n]
    return max(fits) / _RESOURCE_STEP if fits else 1.0


def _remove_group(group: Any) -> None:
    import ray
    from ray.util.placement_group import remove_placement_group

    if ray.is_initialized():
        try:
            remove_placement_group(group)
        except Exception:  # noqa: BLE001 (removed already, or the cluster is gone: nothing is held any more)
            pass


class RayActors:
    """``n`` Ray actors placed all together in a placement group (module docstring); :meth:`start` waits for it."""

    def __init__(self, owner: object, n: int) -> None:
        import ray
        from ray.util.placement_group import placement_group

        nodes = [node.get("Resources", {}).get("CPU", 0.0) for node in ray.nodes() if node.get("Alive")]
        self.n = n
        self.share = cpu_share(nodes, n)
        self.actors: list[Any] = []
        self._group = placement_group([{"CPU": self.share}] * n)
        self._finalizer = weakref.finalize(owner, _remove_group, self._group)  # hosts dropped without close()

    def start(self) -> list[Any]:
        """The actors, once the cluster holds the whole group (the wait said once after :data:`WAIT_NOTE` s)."""
        import ray
        from ray.util.scheduling_strategies import PlacementGroupSchedulingStrategy

        ready, since, said = self._group.ready(), time.monotonic(), False
        while not ray.wait([ready], timeout=_WAIT_STEP)[0]:
            if not said and time.monotonic() - since >= WAIT_NOTE:
                said = True
                cpus = round(self.n * self.share, 2)  # (shares of a CPU are rounded down to Ray's steps)
                has = ray.cluster_resources().get("CPU", 0)
                why = ("other work on the cluster holds them, and this work starts when they are free" if has >= cpus
                       else f"the cluster has {has:g} now, and this work starts when it has them")
                logger.warning(f"warning: waiting for {cpus:g} {'CPU' if cpus == 1 else 'CPUs'} of the Ray cluster "
                               f"for {self.n} workers: {why} (Ctrl-C stops it)")
        actor = _actor_class()
        self.actors = [actor.options(num_cpus=self.share, scheduling_strategy=PlacementGroupSchedulingStrategy(
            placement_group=self._group, placement_group_bundle_index=i)).remote() for i in range(self.n)]
        return self.actors

    def close(self) -> None:
        """End the actors and give their CPUs back to the cluster."""
        import ray

        if ray.is_initialized():  # (ray.kill after ray.shutdown, or at the interpreter's exit, started a new Ray)
            for actor in self.actors:
                try:
                    ray.kill(actor)
                except Exception:  # noqa: BLE001 (gone already, with its cluster: nothing is held any more)
                    pass
        self.actors = []
        self._finalizer()


def _ips(host: str) -> set[ipaddress.IPv4Address | ipaddress.IPv6Address] | None:
    try:
        return {ipaddress.ip_address(str(info[4][0]).split("%")[0]) for info in socket.getaddrinfo(host, None)}
    except (OSError, ValueError):
        return None


def _bindable(ip: ipaddress.IPv4Address | ipaddress.IPv6Address) -> bool:
    """Whether ``ip`` is one of this machine's addresses (its IPv6 ones too, which the node's IP does not say)."""
    try:
        with socket.socket(socket.AF_INET6 if ip.version == 6 else socket.AF_INET) as probe:
            probe.bind((str(ip), 0))
        return True
    except OSError:
        return False


def other_cluster(address: str) -> str | None:
    """The GCS address of the cluster Ray is connected to in this process, when ``address`` surely names another
    (module docstring); None when it is the same one or cannot be told."""
    import ray

    host, colon, port = address.removeprefix("ray://").rpartition(":")
    if address.startswith("ray://") or not colon or not port.isdigit():
        return None
    try:
        joined = str(ray.get_runtime_context().gcs_address)
    except Exception:  # noqa: BLE001 (a Ray client, an older Ray: not told)
        return None
    joined_host, _, joined_port = joined.rpartition(":")
    if not joined_port.isdigit():
        return None
    if int(joined_port) != int(port):
        return joined
    given, there = _ips(host.strip("[]")), _ips(joined_host.strip("[]"))
    if not given or not there or given & there:
        return None
    try:
        here = _ips(ray.util.get_node_ip_address()) or set()
    except Exception:  # noqa: BLE001
        here = set()

    def local(ips: set[Any]) -> bool:  # an address of this machine: one a socket here can be bound to
        return all(ip.is_loopback or ip.is_unspecified or ip in here or _bindable(ip) for ip in ips)

    return joined if local(given) != local(there) else None
