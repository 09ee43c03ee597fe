"""Hosts created without waiting (Executor.hosts(..., wait=False)): used once ready, errors not lost."""

from __future__ import annotations

import time

import pytest

from glmnlp.glm.parallel import Executor


class _Slow:
    """Takes a while to build (as a parsing worker loading its model does)."""

    def __init__(self, value: int, delay: float) -> None:
        time.sleep(delay)
        self.value = value

    def get(self, k: int) -> int:
        return self.value + k


class _Broken:
    def __init__(self) -> None:
        raise ValueError("this model directory is damaged")

    def get(self, k: int) -> int:  # pragma: no cover - never built
        return k


@pytest.mark.parametrize("jobs", [1, 2])
def test_hosts_without_waiting_return_before_the_objects_exist(jobs: int) -> None:
    with Executor(jobs) as ex:
        t0 = time.perf_counter()
        hosts = ex.hosts(_Slow, [(10, 2.0), (20, 2.0)], wait=False)
        started = time.perf_counter() - t0
        with hosts:
            assert hosts.call("get", [(1,), (2,)]) == [11, 22]
            assert list(hosts.imap("get", range(4))) == [10, 21, 12, 23]
        if jobs == 2:
            assert started < 1.5  # returned while the workers were still building their objects


@pytest.mark.parametrize("jobs", [1, 2])
def test_hosts_without_waiting_raise_the_creation_error_at_first_use(jobs: int) -> None:
    with Executor(jobs) as ex:
        try:
            hosts = ex.hosts(_Broken, [(), ()], wait=False)
        except ValueError as exc:  # inline: created (and failed) on the spot
            assert jobs == 1 and "damaged" in str(exc)
            return
        with hosts, pytest.raises(ValueError, match="damaged"):
            hosts.call("get", [(1,), (2,)])
