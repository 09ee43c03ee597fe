"""Head finding on partial and complete trees (Roark's heuristic): hand-worked cases and kernel agreement."""

from __future__ import annotations

import numpy as np

from glmnlp.treebank.corpus import sample_trees
from glmnlp.parser.derivation import derive
from glmnlp.parser.grammar import Grammar
from glmnlp.parser.heads import head_index, lexical_heads
from glmnlp.parser.model import Parser, ParserConfig, punctuation_tags, word_atom
from glmnlp.parser.transform import fslc_transform
from glmnlp.treebank.trees import parse_tree


def _h(label: str, kids: list[str], punct: tuple[str, ...] = (",", ".")) -> int | None:
    phrases = {"NP", "VP", "PP", "S", "SBAR", "ADJP", "ADVP"}
    pos = [("/" not in k and k not in phrases) for k in kids]
    return head_index(label, kids, pos, [k in punct for k in kids])


def test_heads_verb_heads_vp_before_object() -> None:
    """VP -> VBD NP PP: the NP follows a POS, so the nearest V-initial POS (VBD) heads the VP."""
    assert _h("VP", ["VBD", "NP", "PP"]) == 0


def test_heads_preposition_heads_pp() -> None:
    """PP -> IN NP: no P-initial POS, so the nearest POS (IN) is the head."""
    assert _h("PP", ["IN", "NP"]) == 0


def test_heads_flat_np_takes_rightmost_noun() -> None:
    """NP -> DT JJ NN: no non-POS child, so the rightmost child heads it."""
    assert _h("NP", ["DT", "JJ", "NN"]) == 2


def test_heads_punctuation_is_skipped() -> None:
    """S -> NP VP . : the final period is ignored, the VP (rightmost non-punctuation) heads S."""
    assert _h("S", ["NP", "VP", "."]) == 1


def test_heads_partial_head_follows_latest_child_until_decided() -> None:
    """An open NP's head so far moves right with each POS, then freezes once NP/NP follows NN."""
    assert _h("NP", ["DT"]) == 0
    assert _h("NP", ["DT", "NN"]) == 1
    assert _h("NP", ["DT", "NN", "NP/NP"]) == 1
    assert _h("NP", ["DT", "NN", "NP/NP", "NN"]) == 1


def test_heads_only_punctuation_takes_first_child() -> None:
    """A node over punctuation only is headed by its first child; no children means no head."""
    assert _h("X", [",", "."]) == 0
    assert _h("X", []) is None


def test_heads_lexical_heads_on_hand_tree() -> None:
    """Lexical heads percolate: PP->with, NP->man (via the FSLC NP/NP), VP->saw, S->saw."""
    tree = parse_tree(
        "(TOP (S (NP (DT the) (NN man) (NP/NP (PP (IN with) (NP (DT a) (NN hat))))) (VP (VBD saw) (NP (PRP it))) (. .)))"
    )
    heads = dict(lexical_heads(tree, {"."}))
    assert heads["PP"] == "with"
    assert heads["VP"] == "saw"
    assert heads["S"] == "saw"
    assert heads["TOP"] == "saw"
    assert [h for lab, h in lexical_heads(tree, {"."}) if lab == "NP"] == ["hat", "man", "it"]


def test_heads_kernel_agrees_with_reference_on_sample() -> None:
    """The beam kernel's incremental heads equal the reference rule on 60 transformed sample trees."""
    trees = sample_trees("dev")[:60]
    cfg = ParserConfig(n_bits=12)
    transformed = [fslc_transform(t, cfg.fslc) for t in trees]
    grammar = Grammar.induce(transformed, long_chain_min_count=1)
    punct = punctuation_tags(trees)
    parser = Parser(grammar, punct, np.zeros(1 << 12), cfg)
    for tree, tt in zip(trees, transformed):
        ex = parser.example(tree, tt)
        got = parser._beam.closed_heads(ex.atoms, ex.next_pos, ex.gold_site, ex.gold_chain)
        want = lexical_heads(tt, punct)
        assert [grammar.name(c) for c, _w, _p in got] == [lab for lab, _ in want]
        assert [w for _c, w, _p in got] == [word_atom(w) for _, w in want]
        steps = derive(tt, grammar)
        assert len(steps) == len(tree.leaves())
