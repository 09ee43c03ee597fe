"""Giving freed memory back to the operating system between training stages.

Training frees large numbers of small objects between its stages (the parser's per-sentence
examples once their generative events are extracted, the sentences' events once an event set is
built). CPython and glibc keep such memory in their heaps, where the next stage's allocations,
mostly large numpy arrays that glibc places in fresh mappings, cannot reuse it, so it stays in the
process's resident set until the end. :func:`give_back` runs a garbage collection and asks glibc's
allocator to return its free pages (``malloc_trim(0)``, which releases free pages anywhere in the
heap, not only at its top). Where the C library is not glibc it only collects.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import gc
from functools import cache

__all__ = ["give_back"]


@cache
def _malloc_trim() -> object | None:
    name = ctypes.util.find_library("c")
    if name is None:
        return None
    try:
        return getattr(ctypes.CDLL(name), "malloc_trim", None)
    except OSError:
        return None


def give_back() -> bool:
    """Collect garbage, then return free heap pages to the system; True if glibc released some."""
    gc.collect()
    trim = _malloc_trim()
    if trim is None:
        return False
    return bool(trim(0))  # type: ignore[operator]
