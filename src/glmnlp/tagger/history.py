"""The history features of a sentence's positions by name (:meth:`glmnlp.tagger.model.Tagger.explain`): the rows of
the tagger's weight table that its encoding of the sentence reads, named by their templates and atom values."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from glmnlp.tagger.features import PAIR_PREFIX

__all__ = ["history_features"]


def history_features(tagger: Any, words: Sequence[str]) -> list[list[str]]:
    """``tagger.explain(words)``: each position's features as ``"template=value"`` strings, those conjoined with the
    tag bigram named ``t[i-1]&...``, then the others (their meaning: :meth:`Tagger.explain
    <glmnlp.tagger.model.Tagger.explain>`)."""
    tagger._check_fitted()
    enc = tagger._encode([words], add=False)
    keys = tagger.index_.to_array()
    pair_keys = tagger.pair_index_.to_array()
    pair0 = tagger._emission_offset + len(tagger.index_)
    T1 = len(tagger.tags_) + 1
    out: list[list[str]] = []
    for row, pair in zip(enc.rows.tolist(), enc.pair.tolist(), strict=True):
        names = []
        for r in pair:
            if r >= 0:
                template_id, atom = pair_keys[(r - pair0) // T1, :2].tolist()
                names.append(f"{PAIR_PREFIX}{tagger.pair_index_.templates[template_id].name}={tagger.store_[atom]}")
        for r in row:
            if r >= 0:
                key = keys[r - tagger._emission_offset].tolist()
                template = tagger.index_.templates[key[0]]
                value = "|".join(tagger.store_[a] for a in key[1 : 1 + len(template.atoms)])
                names.append(f"{template.name}={value}")
        out.append(names)
    return out
