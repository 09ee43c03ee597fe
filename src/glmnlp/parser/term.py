"""The generative term a parser composes (Collins & Roark 2004 §5, Table 4; Roark 2001, 2004): the
trained generative model with its lexicon, fixed weight and FILTER settings, and the prefix
probabilities and surprisal it gives.

The parser model (:mod:`glmnlp.parser.model`) holds an optional :class:`GenerativeTerm`; training
it is :mod:`glmnlp.parser.combined`'s job. This module imports neither, so the decoder never
depends on training code.

* **Generative term in the beam** (:class:`GenerativeTerm`): each built node adds
  ``weight * ln P(node | context)`` (+ ``ln P(word | ...)`` for a POS node) to the hypothesis score,
  through the nogil kernel.
* **Prefix probabilities and surprisal** (:func:`prefix_logprobs`, ``Parser.surprisal``): with the
  generative term alone, the prefix log-probability after word i is the log-sum-exp of the
  log-probabilities of the beam members after word i (a beam approximation of Roark 2001's prefix
  probability; exact when the beam keeps every hypothesis); surprisal_i = -(prefix_i - prefix_{i-1})
  in **bits**.

Our choices:

* The word-model outcome of word i depends on the POS it is conditioned on (lowercasing is per
  POS); :meth:`GenerativeTerm.word_ids` computes it for every candidate tag of the word.
* Surprisal when the beam loses every hypothesis (the grammar cannot continue the prefix) is
  ``inf`` for the remaining words, after one retry with a 10x wider gamma and no cap.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from glmnlp.errors import ConfigError, ModelFileError
from glmnlp.parser.config import check_beam
from glmnlp.parser.generative import WORD_MODEL, GenerativeModel
from glmnlp.parser.grammar import Grammar
from glmnlp.parser.lexicon import Lexicon

__all__ = ["GEN_KIND", "MAX_WEIGHT", "GenerativeTerm", "prefix_logprobs", "surprisal_bits"]

GEN_KIND = "glmnlp-generative-term"
#: The largest fixed weight of the generative term a model file may hold (the bound of a beam's gamma too): the
#: training options check it (``--generative-weights``), which took 1e301 and failed when the model was read back
MAX_WEIGHT = 1e300
LN2 = math.log(2.0)


@dataclass
class GenerativeTerm:
    """A trained generative model, its lexicon, its fixed weight and its own FILTER settings.

    ``gamma``/``beam_cap``: the FILTER of generative-only decoding (log-probability units), used
    by surprisal and by a generative-only parser. Defaults: the best of a small dev grid on the
    bundled sample (gamma 16..48 x cap 40..200: dev F1 rose from 84.96 to 86.17 with the widest).
    """

    model: GenerativeModel
    lexicon: Lexicon
    weight: float = 1.0
    gamma: float = 48.0
    beam_cap: int = 100

    def word_ids(self, words: Sequence[str], tag_lists: Sequence[Sequence[str]], grammar: Grammar) -> np.ndarray:
        """Word-model outcome of word i under POS category p at ``i * n_cats + p`` (int64)."""
        n_cats = len(grammar.categories)
        out = np.zeros((len(words), n_cats), dtype=np.int64)
        for i, (word, tags) in enumerate(zip(words, tag_lists)):
            initial = i == 0
            out[i, :] = self.lexicon.word_id(word, tags[0], initial)
            for tag in tags[1:]:
                cat = grammar.lookup(tag)
                if cat is not None:
                    out[i, cat] = self.lexicon.word_id(word, tag, initial)
        return out.reshape(-1)

    def to_parts(self) -> tuple[dict[str, Any], dict[str, np.ndarray]]:
        """(metadata, arrays) for a glmnlp.glm.model_io sub-model."""
        meta, arrays = self.model.to_arrays()
        metadata = {
            "generative": meta,
            "lexicon": self.lexicon.to_json(),
            "weight": self.weight,
            "gamma": self.gamma,
            "beam_cap": self.beam_cap,
        }
        return metadata, dict(arrays)

    @classmethod
    def from_parts(cls, metadata: dict[str, Any], arrays: dict[str, np.ndarray]) -> GenerativeTerm:
        """Inverse of :meth:`to_parts`; raises ModelFileError on damaged data."""
        try:
            model = GenerativeModel.from_arrays(metadata["generative"], arrays)
            lexicon = Lexicon.from_json(metadata["lexicon"])
            weight, gamma, cap = metadata["weight"], metadata["gamma"], metadata["beam_cap"]
            # the ranges of the training options: a NaN, infinite or negative weight parsed nonsense silently, a
            # NaN gamma failed later with no file named
            if isinstance(weight, bool) or not isinstance(weight, (int, float)) or not 0 < weight <= MAX_WEIGHT:
                raise ValueError(f"weight must be a number in (0, {MAX_WEIGHT:g}], got {weight!r}")
            check_beam(gamma, cap, "gamma and beam_cap")
            term = cls(model, lexicon, float(weight), float(gamma), int(cap))
        except (KeyError, TypeError, ValueError, ConfigError) as exc:
            raise ModelFileError(f"damaged generative term: {exc}") from None
        if len(model.specs) <= WORD_MODEL:  # one model spec: an IndexError below
            raise ModelFileError(f"generative term: {len(model.specs)} model(s), the node and word models are needed")
        if model.specs[WORD_MODEL].n_outcomes != lexicon.size:
            raise ModelFileError("generative term: word model size does not match the lexicon")
        return term


def prefix_logprobs(parser: Any, words: Sequence[str], tags: Sequence[str | Sequence[str]],
                    *, gamma: float | None = None, cap: int | None = None) -> np.ndarray:
    """ln P(w_0..w_i) per word, beam approximation, with the parser's generative term alone (weight 1).

    ``gamma``/``cap`` default to the term's own FILTER settings. Words after a point where the
    beam emptied (even after one retry with 10x gamma and no cap) get -inf.
    """
    term: GenerativeTerm | None = parser.generative
    if term is None:
        raise ConfigError("this parser has no generative model: prefix probabilities need one")
    tag_lists = [[t] if isinstance(t, str) else list(t) for t in tags]
    atoms, next_pos, isq, off, cand = parser._inputs(words, tag_lists)
    wids = term.word_ids(words, tag_lists, parser.grammar)
    g = term.gamma if gamma is None else gamma
    c = term.beam_cap if cap is None else cap
    check_beam(g, c, "gamma and cap")
    none = np.zeros(0, dtype=np.int32)
    empty = np.zeros(0, dtype=np.float64)
    best: list[float] = []
    try:
        for gg, cc in ((g, c), (g * 10, 0)):
            parser._beam.set_generative(term.model.kernel, 1.0, wids)
            res = parser._beam.decode(atoms, next_pos, isq, 0, off, cand, empty, gg, cc, none, none, False, 1)
            best = list(res["prefix"])
            if len(best) == len(words):
                break
    finally:
        parser._configure_generative_off()
    return np.array(best + [-math.inf] * (len(words) - len(best)), dtype=np.float64)


def surprisal_bits(prefix: np.ndarray) -> list[float]:
    """Per-word surprisal in bits from per-word prefix log-probabilities (nats)."""
    previous = np.concatenate([[0.0], prefix[:-1]])
    with np.errstate(invalid="ignore"):
        out = -(prefix - previous) / LN2
    return [math.inf if (math.isnan(v) or v == math.inf) else float(v) for v in out]
