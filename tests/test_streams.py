"""glmnlp.glm.streams.Prefetch: an input read on a thread gives the same items, in order, its error in its turn, and
lets the reader look without waiting."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from glmnlp.glm.streams import NOT_YET, Prefetch


@settings(max_examples=100, deadline=None)
@given(st.lists(st.integers(), max_size=20), st.booleans(), st.integers(1, 3))
def test_prefetch_gives_the_items_then_the_error_in_its_turn(items: list[int], fails: bool, ahead: int) -> None:
    def source() -> Iterator[int]:
        yield from items
        if fails:
            raise ValueError("line 7 is bad")

    got: list[int] = []
    with Prefetch(source(), ahead) as stream:
        if fails:
            with pytest.raises(ValueError, match="line 7 is bad"):
                got.extend(stream)
        else:
            got.extend(stream)
        assert list(stream) == []  # ended: an error is raised once, as a generator's
    assert got == items


def test_prefetch_poll_waits_at_most_its_timeout_and_reads_only_ahead() -> None:
    release = threading.Event()
    read: list[int] = []

    def source() -> Iterator[int]:
        for k in range(3):
            read.append(k)
            yield k
        release.wait(10)
        yield 3

    with Prefetch(source(), ahead=1) as stream:
        assert stream.poll(None) == 0
        assert stream.poll(5) == 1
        assert stream.poll(5) == 2
        start = time.monotonic()
        assert stream.poll(0) is NOT_YET and stream.poll(0.05) is NOT_YET
        assert time.monotonic() - start < 5
        release.set()
        assert stream.poll(None) == 3
        with pytest.raises(StopIteration):
            stream.poll(None)
        with pytest.raises(StopIteration):  # and again
            stream.poll(0)


def test_prefetch_reads_no_further_than_ahead_and_close_ends_the_thread() -> None:
    read: list[int] = []

    def source() -> Iterator[int]:
        k = 0
        while True:
            read.append(k)
            yield k
            k += 1

    stream = Prefetch(source(), ahead=2)
    assert next(stream) == 0
    time.sleep(0.3)
    assert len(read) <= 4  # the one taken, two queued, one waiting to be put
    stream.close()
    stream._thread.join(5)
    assert not stream._thread.is_alive()
