"""The parser's configuration and feature templates: what training and decoding read and a model file records.

:class:`ParserConfig` is saved in every parser model (:mod:`glmnlp.parser.files`); :data:`TEMPLATES` documents the
features :mod:`glmnlp.parser._beam` computes (C&R 2004 §3.2: Table 2 and the punctuation features) and is written
into the model's metadata so that a file says what its weights mean.
"""

from __future__ import annotations

import numbers
from dataclasses import dataclass
from typing import Any

from glmnlp.errors import ConfigError
from glmnlp.parser.transform import FslcConfig

__all__ = ["ATOM_DOC", "FEATURE_SETS", "MAX_N_BITS", "RANGES", "TEMPLATES", "ParserConfig", "check_beam",
           "check_values"]

#: Every feature template, by group. L00 is the new node's label; a conjunction "a+b+c" fires once
#: per built node. Non-POS nodes include the END closures. Kept in sync with ``_beam.pyx``.
TEMPLATES: dict[str, list[str]] = {
    "nonpos": [
        "L00",
        "L00+L10",
        "L00+L10+L01",
        "L00+L10+L01+L02",
        "L00+L10+L01+L02+L03",
        "L00+L10+L01+L02+L03+L20",
        "L00+L10+L01+L02+L03+L20+L11",
        "L00+L10+L01+L02+L03+L20+L11+L30",
        "L00+L10+L01+L02+L03+L20+L11+L30+L21",
        "L00+L10+L01+L02+L03+L20+L11+L30+L21+COORD",
        "L00+L10+L01+L02+L03+L20+L11+L30+L21+COORD+CL",
        "L00+LKP",
        "L00+LK",
        "L00+L10+LKP",
        "L00+L10+LK",
        "L00+L10+L01+LKP",
    ],
    "pos": [
        "L00",
        "L00+L10",
        "L00+L10+L01",
        "L00+L10+L01+L20",
        "L00+L10+L01+L20+CCP",
        "L00+L10+L01+L20+CCP+CC",
        "L00+LK",
        "L00+L10+LK",
        "L00+LK+CC",
    ],
    "punct": [
        # the names are written into model files as they are; QUESTION fires for parser.model.QUESTION_MARKS
        "L00+QUESTION (final punctuation is '?')",
        "L00+L10+QUESTION",
        "L00+NEXTPOS (only when LK is punctuation or CC; NEXTPOS = tag of the word after LK)",
        "L00+L10+NEXTPOS (same condition)",
        "L00+LK_IS_PUNCT (only when L02, the word-position left of L01, is punctuation)",
        "L00+L10+LK_IS_PUNCT (same condition)",
    ],
}
FEATURE_SETS = ("baseline", "punct")
ATOM_DOC = (
    "L_ij: label i levels up and j siblings left of the new node (NULL when absent); COORD: for a "
    "leftmost child, the first child's label of the conjunct before a CC preceding the parent; CL: "
    "head word of the parent so far; CC/CCP: c-commanding head word/POS; LK/LKP: look-ahead word and "
    "POS (the word being absorbed and its chain's POS)."
)

#: Largest hashed table a model file may ask for: 2**28 float64 weights = 2 GiB (the default is 2**22).
MAX_N_BITS = 28


@dataclass
class ParserConfig:
    """Training and decoding configuration (saved in the model)."""

    features: str = "punct"  # "baseline" or "punct"
    gamma: float = 1e4  # FILTER margin (C&R 2004 §3.1); with the cap below the cap binds (dev: Figure 5 runs)
    beam_cap: int = 30  # hard cap on the beam (0 = none) when parsing
    train_gamma: float = 1e4  # training beam: the cap binds (measured setting of the benchmarks)
    train_cap: int = 30
    n_bits: int = 22
    early_update: bool = True
    cache: bool = True
    cache_t1: int = 5
    cache_t2: int = 50
    cache_sample: int = 16
    cache_members: int = 8
    epochs: int = 8
    seed: int = 0
    fslc_extra_pairs: tuple[tuple[str, str], ...] = (("SINV", "S"),)
    shards: int = 1  # iterative parameter mixing over this many shards (1 = the serial perceptron)
    mixing: str = "uniform"  # "uniform" or "updates" (glmnlp.glm.training)

    def __post_init__(self) -> None:
        if self.features not in FEATURE_SETS:
            raise ConfigError(f"features must be one of {FEATURE_SETS}, got {self.features!r}")
        if self.mixing not in ("uniform", "updates"):
            raise ConfigError(f"mixing must be 'uniform' or 'updates', got {self.mixing!r}")
        check_values({name: getattr(self, name) for name in RANGES} | {
            "early_update": self.early_update, "cache": self.cache})
        self.fslc_extra_pairs = tuple(tuple(p) for p in self.fslc_extra_pairs)  # type: ignore[misc]

    @property
    def fslc(self) -> FslcConfig:
        """The tree transform used for the grammar."""
        return FslcConfig(left_recursion=True, extra_pairs=self.fslc_extra_pairs)


#: The numeric fields of a :class:`ParserConfig` and their ranges (integer or not, low, high): what the
#: constructor and a model file's reader (:mod:`glmnlp.parser.files`) accept. A seed below 0 is refused here, not
#: by numpy in the first pass; an epochs of 0 is the generative model's (no perceptron passes).
RANGES: dict[str, tuple[bool, float, float]] = {
    "n_bits": (True, 1, MAX_N_BITS), "gamma": (False, 0, 1e300), "train_gamma": (False, 0, 1e300),
    **{name: (True, 0, 10**6) for name in ("beam_cap", "train_cap", "cache_t1", "cache_t2", "cache_sample",
                                            "cache_members", "epochs")},
    "seed": (True, 0, 2**63 - 1), "shards": (True, 1, 10**6),
}


def check_values(values: dict[str, Any]) -> None:
    """ConfigError unless each of ``values`` (fields of :data:`RANGES`, and the flags ``early_update`` and
    ``cache``) has its kind and range: 1.5 passes, a NaN beam or a table of 2**100 slots failed far from the option,
    or not at all."""
    for name, value in values.items():
        if name in ("early_update", "cache"):
            if not isinstance(value, bool):
                raise ConfigError(f"{name} must be true or false, got {value!r}")
            continue
        integer, low, high = RANGES[name]
        if isinstance(value, bool) or not _in_range(value, integer, low, high):
            span = f"an integer in [{int(low)}, {int(high)}]" if integer else f"a number in [{low:g}, {high:g}]"
            raise ConfigError(f"{name} must be {span}, got {value!r}")


def _in_range(value: object, integer: bool, low: float, high: float) -> bool:
    """``value`` is an integer (``integer``) or a real number, in [``low``, ``high``]."""
    # an integer compared as an integer: as floats, 2**63 - 1 rounded to 2**63 and was out of its own range
    if integer:
        return isinstance(value, numbers.Integral) and low <= int(value) <= high
    return isinstance(value, numbers.Real) and low <= float(value) <= high


def check_beam(gamma: Any, cap: Any, what: str = "config.gamma and config.beam_cap") -> None:
    """ConfigError unless ``gamma`` is a number in [0, 1e300] and ``cap`` an integer in [0, 10**6] (0: no cap), the
    ranges a model file may hold: set on a loaded parser, -5, NaN or 1.5 decoded silently, "1e6" failed inside."""
    ok_gamma = not isinstance(gamma, bool) and _in_range(gamma, *RANGES["gamma"])
    ok_cap = not isinstance(cap, bool) and _in_range(cap, *RANGES["beam_cap"])
    if not (ok_gamma and ok_cap):
        raise ConfigError(f"{what} must be a number in [0, 1e300] and an integer in [0, 1000000] (0: no cap), "
                          f"got {gamma!r} and {cap!r}")
