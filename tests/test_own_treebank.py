"""A treebank of one's own: labels and tags other than the Penn Treebank's come back as they were trained."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from glmnlp.parser.grammar import Grammar, tree_problem
from glmnlp.parser.model import Parser, ParserConfig, punctuation_tags
from glmnlp.parser.transform import fslc_transform
from glmnlp.text.pipeline import Pipeline
from glmnlp.text.tokenize import LongInputWarning
from glmnlp.treebank.trees import parse_tree

#: Universal POS tags and no S: the clauses are SENT, the root's child a phrase named ROOT
UD_TREES = [
    "(TOP (ROOT (SENT (NP (DET the) (NOUN dog)) (VP (VERB barks)) (PUNCT .))))",
    "(TOP (ROOT (SENT (NP (PRON it)) (VP (VERB sees) (NP (DET a) (NOUN cat))) (PUNCT .))))",
    "(TOP (ROOT (NP (DET a) (ADJ big) (NOUN dog))))",
]


def _parser(texts: list[str]) -> Parser:
    cfg = ParserConfig(n_bits=12, gamma=1e18, beam_cap=0)
    trees = [parse_tree(t) for t in texts]
    grammar = Grammar.induce([fslc_transform(t, cfg.fslc) for t in trees], long_chain_min_count=1)
    return Parser(grammar, punctuation_tags(trees), np.zeros(1 << 12), cfg)


def test_fallback_tree_has_a_label_of_the_training_trees() -> None:
    """A sentence the beam cannot analyse gets a flat tree under the phrase the training trees have below TOP
    (it was always ``S``, a label this treebank does not have)."""
    parser = _parser(UD_TREES)
    assert parser.grammar.root_phrase() == "ROOT"
    tree = parser.parse(["wow", "dog"], ["INTJ", "NOUN"], check_tags=False)  # INTJ: no chain
    assert parser.stats["fallback"] == 1
    assert tree == parse_tree("(TOP (ROOT (INTJ wow) (NOUN dog)))")
    no_root = [t.replace("(TOP (ROOT ", "(TOP ")[:-1] for t in UD_TREES]
    assert _parser(no_root).grammar.root_phrase() == "SENT"


def test_over_long_sentence_gets_the_parsers_fallback_label() -> None:
    """The pipeline's flat tree for a sentence over ``max_words`` has the parser's fallback label too."""
    nlp = Pipeline(None, _parser(UD_TREES), max_words=2)
    with pytest.warns(LongInputWarning):
        doc = nlp([[("the", "DET"), ("big", "ADJ"), ("dog", "NOUN")]])
    assert doc.sentences[0].tree == parse_tree("(TOP (ROOT (DET the) (ADJ big) (NOUN dog)))")


def test_ptb_fallback_stays_s() -> None:
    """On Penn Treebank trees the fallback phrase is S, as before."""
    from toy_trees import TINY

    assert _parser(TINY).grammar.root_phrase() == "S"


@pytest.mark.parametrize("label", ["TOP", "<END>", "<NULL>"])
def test_parser_train_refuses_a_reserved_label_below_the_root(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], label: str
) -> None:
    """A tree using a label the parser keeps for itself below the root is refused at its file and line (it
    stopped training with "word 3 ('x'): only the first chain may contain TOP", or "bad chain (0, 3)")."""
    from glmnlp.cli import main

    good = "(TOP (S (NP (N cat)) (VP (V sleeps))))"
    path = tmp_path / "train.trees"
    path.write_text(f"{good}\n(TOP (S (NP (N dog)) (VP (V runs) (NP ({label} x)))))\n")
    capsys.readouterr()
    rc = main(["parser", "train", "--train", str(path), "--dev", str(path), "--epochs", "1", "-j", "1",
               "--out", str(tmp_path / "m")])
    err = capsys.readouterr().err
    assert rc == 1 and err.startswith(f"error: {path}:2: tree 2: label {label!r} below the root: "), err
    assert err.count("\n") == 1 and not (tmp_path / "m").exists()
    assert tree_problem(parse_tree(f"(TOP (TOP {good[5:-1]}))")) is None  # one TOP to the parser
