"""The toy-grammar parser of the word-by-word measures' tests (tests/test_measures.py,
tests/test_measures_word_classes.py): ``_setup`` trains a generative term on a small treebank (tests/toy_trees.py)
and ``EXACT`` measures with an unpruned beam, in nats."""

from __future__ import annotations

import numpy as np

from glmnlp.parser.generative import SmoothingConfig
from glmnlp.parser.generative_terms import sentence_events, train_term
from glmnlp.parser.grammar import Grammar
from glmnlp.parser.measures import MeasureOptions
from glmnlp.parser.model import Parser, ParserConfig, punctuation_tags
from glmnlp.parser.transform import fslc_transform
from glmnlp.treebank.trees import parse_tree

from toy_trees import TINY

EXACT = MeasureOptions(units="nats", gamma=1e18, cap=0)


def _setup(treebank: list[str] = TINY) -> Parser:
    cfg = ParserConfig(n_bits=1, gamma=1e18, beam_cap=0)
    trees = [parse_tree(t) for t in treebank]
    grammar = Grammar.induce([fslc_transform(t, cfg.fslc) for t in trees], long_chain_min_count=1)
    parser = Parser(grammar, punctuation_tags(trees), np.zeros(2), cfg)
    events = [sentence_events(parser, parser.example(t, fslc_transform(t, cfg.fslc))) for t in trees]
    parser.generative, _ = train_term(events, list(range(len(events))), len(grammar.categories),
                                      SmoothingConfig(folds=0))
    return parser

