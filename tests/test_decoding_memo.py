"""The node and chain score memos of the decoder (glmnlp.parser._beam) change no number: with a wide
beam that keeps most candidates of every word, decoding with and without them gives the same members
with the same scores, bit for bit, for the combined and the perceptron-only scores, single and
multi-tag input, and the training decode with gold tracking."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from glmnlp.parser.model import Parser
from glmnlp.treebank.corpus import sample_trees

MODEL = Path(__file__).parent / "data" / "decoding_identity" / "model"
CONFUSABLE = {"NN": "JJ", "JJ": "NN", "VBD": "VBN", "VBN": "VBD", "IN": "RB", "RB": "IN", "VB": "NN",
              "NNS": "VBZ", "VBZ": "NNS", "VBP": "VB", "DT": "IN", "CC": "IN", ",": ":"}


def _decode(parser: Parser, words: list[str], tags: list[list[str]], memo: bool, gen: bool) -> Any:
    none = np.zeros(0, dtype=np.int32)
    atoms, next_pos, isq, off, cand = parser._inputs(words, tags)
    beam = parser._beam
    beam.set_memo(memo)
    try:
        if gen:
            term = parser.generative
            beam.set_generative(term.model.kernel, term.weight, term.word_ids(words, tags, parser.grammar))
        else:
            parser._configure_generative_off()
        res = beam.decode(atoms, next_pos, isq, parser._punct, off, cand, parser.weights, 1e12, 150, none, none,
                          False, 0)
    finally:
        beam.set_memo(True)
        parser._configure_generative_off()
    members = [(s.hex(), g, list(a), list(b)) for s, g, a, b in res["beam"]]
    return res["status"], res["word"], [p.hex() for p in res["prefix"]], members


@pytest.mark.parametrize("gen", [True, False])
def test_memos_change_no_score_of_any_surviving_candidate(gen: bool) -> None:
    parser = Parser.load(MODEL)
    trees = [t for t in sample_trees("test") if len(t.leaves()) <= 25][:25]
    assert len(trees) >= 10
    for tree in trees:
        words = tree.leaves()
        for tags in ([[g] for g in tree.tags()], [[g, CONFUSABLE[g]] if g in CONFUSABLE else [g]
                                                   for g in tree.tags()]):
            with_memo = _decode(parser, words, tags, True, gen)
            without = _decode(parser, words, tags, False, gen)
            assert with_memo == without, " ".join(words)


def test_memos_that_grow_change_no_score() -> None:
    """A 44-word sentence with the bundled model fills the memos past half of their first 4,096 slots
    within one word: they grow (each entry of the word moved into the larger table, its tag with it)
    and still change no score of any surviving candidate."""
    from glmnlp.text.default_model import default_model_path

    parser = Parser.load(default_model_path() / "parser")
    assert max(parser._beam.memo_slots()) == 4096
    tree = next(t for t in sample_trees("test") if len(t.leaves()) == 44)
    tags = [[g] for g in tree.tags()]
    with_memo = _decode(parser, tree.leaves(), tags, True, True)
    assert max(parser._beam.memo_slots()) > 4096
    assert with_memo == _decode(parser, tree.leaves(), tags, False, True)


def _wrap_decodes(first_stamp: int, second_stamp: int) -> tuple[Any, Any]:
    """Decode two sentences with the same tags and one other word, the memo stamps set before each; return the
    second sentence's result and that of a fresh decoder.

    A word scope's entries are stored from index 0, so a later word overwrites an earlier word's entries: a stale
    tag can only reach an entry that no later scope of the first sentence rewrote. The third word has eight
    candidate tags, so its scope makes far more entries than the words after it; the entries past theirs
    survive, and the second sentence, whose third word differs (other look-ahead scores, the same keys in the
    same order), would take them if the tags of the first were not cleared at the wrap."""
    tags = [["DT"], ["NN"], ["VBD", "VBN", "VBP", "VBZ", "NN", "JJ", "NNS", "VB"], ["PRP"], ["MD"], ["VB"], ["NNS"]]
    first = ["The", "company", "said", "it", "would", "sell", "shares"]
    second = ["The", "company", "reported", "it", "would", "sell", "shares"]
    expected = _decode(Parser.load(MODEL), second, tags, True, False)
    parser = Parser.load(MODEL)
    parser._beam.memo_stamp = first_stamp
    assert _decode(parser, first, tags, True, False) != expected
    parser._beam.memo_stamp = second_stamp
    return _decode(parser, second, tags, True, False), expected


def _in_child(first_stamp: int, second_stamp: int) -> None:
    """:func:`_wrap_decodes` in a child process, its second result checked against a fresh decoder's there: a
    memo probing forever (below) then fails the test by the timeout instead of hanging the suite."""
    code = (
        "import sys; sys.path.insert(0, sys.argv[1]); import test_decoding_memo as t; "
        f"got, expected = t._wrap_decodes({first_stamp}, {second_stamp}); assert got == expected"
    )
    subprocess.run([sys.executable, "-c", code, str(Path(__file__).parent)], check=True, timeout=120)


def test_memo_scopes_stay_apart_when_the_stamp_wraps() -> None:
    """A memo tag keeps the low 24 bits of the word scope's stamp. Here both sentences cross a wrap at
    their first word (decode's first scope is the setup's, memo off; the first word's is the first after
    the low bits came round to zero), so their words have the same scope bits word for word: without the
    tags cleared at the wrap the second sentence would probe the first's tags (same keys, other look-ahead
    words). Its result is that of a fresh decoder."""
    _in_child(2**24 - 2, 2**25 - 2)


def test_memo_scope_zero_is_never_used() -> None:
    """Cleared tags hold scope bits 0, so a scope whose stamp's low bits are 0 would find every slot taken
    and probe forever: the stamp steps over it (here the second sentence's second word is at the wrap)."""
    _in_child(0, 2**24 - 3)
