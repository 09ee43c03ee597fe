"""glmnlp.glm.memory.give_back returns freed heap pages to the system (glibc), which training calls
between stages so that freed examples and events do not stay in the resident set."""

from __future__ import annotations

import os
import sys

import pytest

from glmnlp.glm.memory import _malloc_trim, give_back


def _rss_mb() -> float:
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / (1 << 20)


@pytest.mark.skipif(not sys.platform.startswith("linux") or _malloc_trim() is None, reason="needs glibc")
def test_give_back_returns_freed_heap_below_a_live_object() -> None:
    """200 MB of 1 kB objects freed while a later one stays alive: glibc cannot trim the heap's top by
    itself, so the pages stay resident until give_back."""
    blobs = [bytes(1000) + bytes([i % 256]) for i in range(200_000)]
    keep = blobs[-1]
    high = _rss_mb()
    del blobs
    assert _rss_mb() > high - 50  # still resident: the live object pins the heap's top
    assert give_back()
    assert _rss_mb() < high - 150
    assert keep[-1] == (200_000 - 1) % 256
