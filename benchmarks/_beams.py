"""Shared by the benchmarks that parse at given beams: the ``GAMMA:CAP`` argument (e.g. ``1e8:100``) as an argparse
type, so that a malformed one is a usage error."""

from __future__ import annotations

import argparse


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
