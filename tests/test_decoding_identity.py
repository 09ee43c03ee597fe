"""The decoder's output is frozen: a stored model parses fixed sentences into the recorded trees with
the recorded scores, bit for bit (float.hex), on every decoding path (combined and perceptron-only
scoring, single and multi-tag input, n-best, a wider beam, the prefix probabilities behind surprisal,
the gold-tracking decode of training with early update, and the per-hypothesis tracking of the
measures). Speed work on the decoder must keep all of them; a deliberate change of the model or the
features re-records them (``python tests/test_decoding_identity.py --record``) and says why.

The model in tests/data/decoding_identity/model was trained by glmnlp on the first 120 training
trees of the bundled Penn Treebank sample (see that folder's README.md)::

    glmnlp parser train --train tiny_train.trees --dev tiny_dev.trees --kind combined \
        --generative-weights 10 --epochs 2 --jobs 1 --out model
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from glmnlp.parser.model import Parser
from glmnlp.parser.term import prefix_logprobs
from glmnlp.parser.transform import fslc_transform
from glmnlp.treebank.corpus import sample_trees
from glmnlp.treebank.trees import to_bracket

HERE = Path(__file__).parent / "data" / "decoding_identity"
MODEL = HERE / "model"
EXPECTED = HERE / "expected.json"

#: a second candidate tag for some words (multi-tag input: several POS groups per word)
CONFUSABLE = {"NN": "JJ", "JJ": "NN", "VBD": "VBN", "VBN": "VBD", "IN": "RB", "RB": "IN", "VB": "NN",
              "NNS": "VBZ", "VBZ": "NNS", "VBP": "VB", "DT": "IN"}


def _hex(x: float) -> str:
    return float(x).hex()


def _nbest(parser: Parser, trees: list[Any], multitag: bool, k: int) -> list[list[list[str]]]:
    out = []
    for t in trees:
        tags: list[Any] = t.tags()
        if multitag:
            tags = [[g, CONFUSABLE[g]] if g in CONFUSABLE else [g] for g in tags]
        # gold tags of the sample's test split, some of which this small model never saw: unchecked, as recorded
        out.append([[_hex(s), to_bracket(tree)] for s, tree in parser.parse_nbest(t.leaves(), tags, k,
                                                                                   check_tags=False)])
    return out


def _members(beam: list[Any]) -> list[Any]:
    return [[_hex(s), bool(g), [int(x) for x in sites], [int(x) for x in chains]] for s, g, sites, chains in beam]


def _train_decodes(parser: Parser) -> list[Any]:
    """The training decode (gold marked, early update, every complete parse) at the training beam."""
    out = []
    cfg = parser.config
    term = parser.generative
    for tree in sample_trees("train")[:20]:
        ex = parser.example(tree, fslc_transform(tree, cfg.fslc))
        for gen in (False, True):
            if gen:
                wids = term.word_ids(ex.words, ex.tags, parser.grammar)
                parser._beam.set_generative(term.model.kernel, term.weight, wids)
            else:
                parser._configure_generative_off()
            res = parser._beam.decode(ex.atoms, ex.next_pos, ex.isq, parser._punct, ex.cand_off, ex.cand_chain,
                                      parser.weights, cfg.train_gamma, cfg.train_cap, ex.gold_site, ex.gold_chain,
                                      True, 0)
            out.append([res["status"], res["word"], bool(res["gold_in_beam"]), [_hex(p) for p in res["prefix"]],
                        _members(res["beam"])])
    parser._configure_generative_off()
    return out


def _tracked(parser: Parser, trees: list[Any]) -> list[str]:
    """Digests of the per-hypothesis arrays that glmnlp.parser.measures reads (tracking on)."""
    term = parser.generative
    none = np.zeros(0, dtype=np.int32)
    out = []
    beam = parser._beam
    try:
        beam.set_tracking(True)
        for t in trees:
            words, tags = t.leaves(), [[g] for g in t.tags()]
            atoms, next_pos, isq, off, cand = parser._inputs(words, tags)
            beam.set_generative(term.model.kernel, term.weight, term.word_ids(words, tags, parser.grammar))
            res = beam.decode(atoms, next_pos, isq, parser._punct, off, cand, parser.weights, parser.config.gamma,
                              parser.config.beam_cap, none, none, False, 1)
            h = hashlib.sha256(json.dumps([res["status"], _members(res["beam"])]).encode())
            for key in sorted(res["track"]):
                h.update(key.encode())
                h.update(np.ascontiguousarray(res["track"][key]).tobytes())
            out.append(h.hexdigest())
    finally:
        beam.set_tracking(False)
        parser._configure_generative_off()
    return out


def _digests(items: list[Any]) -> list[str]:
    """One short digest per item (the full values of the other cases would make a large file)."""
    return [hashlib.sha256(json.dumps(item).encode()).hexdigest()[:20] for item in items]


def compute() -> dict[str, Any]:
    test = sample_trees("test")[:40]
    combined = Parser.load(MODEL)
    perceptron = Parser.load(MODEL)
    perceptron.generative = None
    wide = Parser.load(MODEL)
    wide.config.gamma, wide.config.beam_cap = 1e7, 60
    return {
        "combined": _nbest(combined, test, False, 3),
        "combined_multitag": _digests(_nbest(combined, test, True, 3)),
        "perceptron": _nbest(perceptron, test, False, 1),
        "perceptron_nbest": _digests(_nbest(perceptron, test, False, 3)),
        "perceptron_multitag": _digests(_nbest(perceptron, test, True, 1)),
        "combined_wide": _digests(_nbest(wide, test[:15], True, 2)),
        "prefix": [[_hex(p) for p in prefix_logprobs(combined, t.leaves(), t.tags())] for t in test[:15]],
        "train_decode": _digests(_train_decodes(combined)),
        "tracked": _tracked(combined, test[:10]),
    }


@pytest.fixture(scope="module")
def results() -> tuple[dict[str, Any], dict[str, Any]]:
    return compute(), json.loads(EXPECTED.read_text())


CASES = ["combined", "combined_multitag", "perceptron", "perceptron_nbest", "perceptron_multitag", "combined_wide",
         "prefix", "train_decode", "tracked"]


@pytest.mark.parametrize("case", CASES)
def test_decoding_gives_the_recorded_trees_and_scores(results: tuple[dict[str, Any], dict[str, Any]],
                                                     case: str) -> None:
    got, expected = results
    assert len(got[case]) == len(expected[case])
    for i, (g, e) in enumerate(zip(got[case], expected[case])):
        assert g == e, f"{case}: item {i} differs"


if __name__ == "__main__" and sys.argv[1:] == ["--record"]:
    EXPECTED.write_text(json.dumps(compute(), indent=1) + "\n")
