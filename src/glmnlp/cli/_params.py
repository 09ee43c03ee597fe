"""Option values shared by several commands."""

from __future__ import annotations

import math

import click

__all__ = ["weight_list"]


def weight_list(text: str, option: str, *, zero_means_none: bool = False) -> tuple[float, ...]:
    """``"5,10,20"`` -> (5.0, 10.0, 20.0), every value finite and > 0.

    With ``zero_means_none`` a single ``0`` gives ``()`` (e.g. "no generative model").
    """
    try:
        values = tuple(float(x) for x in text.split(","))
    except ValueError:
        raise click.BadParameter(f"expected comma-separated numbers, got {text!r}", param_hint=option) from None
    if zero_means_none and values == (0.0,):
        return ()
    if any(not (v > 0 and math.isfinite(v)) for v in values):
        extra = " (or a single 0)" if zero_means_none else ""
        raise click.BadParameter(f"weights must be finite and > 0{extra}, got {text!r}", param_hint=option)
    return values
