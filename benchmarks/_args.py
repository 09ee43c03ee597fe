"""Argparse types shared by the benchmarks, so that a malformed value is a usage error (status 2, one line), not a
traceback or a run of something else: the ``GAMMA:CAP`` beam (e.g. ``1e8:100``) and comma-separated lists of
numbers (``--margins 0,2,4``), of names (``--stages generative,combined``) and of colon-separated fields
(``--configs 2:2:uniform``); numbers with a lower bound (``--repeat``, ``--epochs``), paths that must exist and
model directories; and :func:`optional`, the import of a package of the ``bench`` extra."""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Callable
from pathlib import Path
from types import ModuleType


def beam(text: str) -> tuple[float, int]:
    """GAMMA:CAP, e.g. 1e8:100: the FILTER margin and the cap on the beam's size."""
    try:
        gamma, cap = text.split(":")
        return float(gamma), int(cap)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected GAMMA:CAP, e.g. 1e8:100, not {text!r}") from None


def beams(text: str) -> list[tuple[float, int]]:
    """GAMMA:CAP,GAMMA:CAP,..."""
    return [beam(b) for b in text.split(",")]


def numbers(kind: type[int] | type[float]) -> Callable[[str], list]:
    """A comma-separated list of ``kind`` (``4,8,16``); the empty string is the empty list."""

    def parse(text: str) -> list:
        try:
            return [kind(x) for x in text.split(",")] if text else []
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected {kind.__name__}s separated by commas, not {text!r}") from None

    parse.__name__ = f"{kind.__name__} list"  # argparse names the type in its message
    return parse


ints = numbers(int)
floats = numbers(float)


def one_of(*allowed: str) -> Callable[[str], str]:
    """One of the names ``allowed``."""

    def parse(text: str) -> str:
        if text not in allowed:
            raise argparse.ArgumentTypeError(f"{text!r} is not one of {', '.join(allowed)}")
        return text

    return parse


def names(*allowed: str) -> Callable[[str], list[str]]:
    """A comma-separated list of names among ``allowed``."""
    check = one_of(*allowed)

    def parse(text: str) -> list[str]:
        return [check(name) for name in text.split(",")]

    parse.__name__ = "name list"
    return parse


def fields(*kinds: Callable[[str], object], example: str) -> Callable[[str], list[tuple]]:
    """A comma-separated list of ``A:B:...`` items, field i read by ``kinds[i]`` (``int``, ``float``,
    :func:`one_of`)."""

    def item(text: str) -> tuple:
        parts = text.split(":")
        if len(parts) != len(kinds):
            raise argparse.ArgumentTypeError(f"expected {len(kinds)} fields like {example}, not {text!r}")
        try:
            return tuple(kind(part) for kind, part in zip(kinds, parts))
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected fields like {example}, not {text!r}") from None

    def parse(text: str) -> list[tuple]:
        return [item(x) for x in text.split(",")]

    parse.__name__ = "field list"
    return parse


def at_least(low: float, kind: type[int] | type[float] = int) -> Callable[[str], float]:
    """A ``kind`` number >= ``low`` (``--repeat 0``, ``--epochs -1`` and ``--seconds -5`` were run as something
    else, or failed once the work had begun)."""

    def parse(text: str) -> float:
        try:
            value = kind(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected {kind.__name__} >= {low:g}, not {text!r}") from None
        if not value >= low:  # NaN too
            raise argparse.ArgumentTypeError(f"expected {kind.__name__} >= {low:g}, not {text!r}")
        return value

    parse.__name__ = kind.__name__
    return parse


def existing(text: str) -> Path:
    """A path that exists (a data folder, a reference file): a missing one was a traceback once the work began."""
    path = Path(text)
    if not path.exists():
        raise argparse.ArgumentTypeError(f"{text}: no such file or folder")
    return path


def model(text: str) -> str:
    """A model directory that exists, or ``default`` (the bundled model)."""
    if text != "default" and not Path(text).is_dir():
        raise argparse.ArgumentTypeError(f"{text}: no such model directory (or 'default': the bundled model)")
    return text


def optional(module: str) -> ModuleType:
    """Import ``module``, a package of the ``bench`` extra (pycrfsuite, matplotlib); if it cannot be, exit with one
    line naming ``pip install '.[bench]'`` (a missing crfsuite was a worker's traceback and an empty table). A
    script calls this before the work whose end needs the package."""
    try:
        return importlib.import_module(module)
    except ImportError as error:
        raise SystemExit(f"{Path(sys.argv[0]).name}: cannot import {module} ({error}); "
                         "the benchmarks' packages: pip install '.[bench]'") from None
