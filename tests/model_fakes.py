"""Small model files for the tests that damage them (tests/test_model_files.py, tests/test_model_archives.py)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np

from glmnlp.treebank.trees import parse_tree


def tiny_parser_model(path: Path) -> Path:
    """A parser model of one tree and a 2**10 weight table, saved at ``path``: what the damage tests damage."""
    from glmnlp.parser.grammar import Grammar
    from glmnlp.parser.model import Parser, ParserConfig, punctuation_tags
    from glmnlp.parser.transform import fslc_transform

    tree = parse_tree("(TOP (S (NP (NN dogs)) (VP (VBP bark)) (. .)))")
    cfg = ParserConfig(n_bits=10)
    weights = np.zeros(1 << 10)
    weights[3] = 1.0
    Parser(Grammar.induce([fslc_transform(tree, cfg.fslc)]), punctuation_tags([tree]), weights, cfg).save(path)
    return path


def write_header(meta: Path, header: dict[str, Any]) -> None:
    """Write a changed header with its seal computed again: a file whose writer put these values in, which the
    loader must check for itself (an edit that leaves the seal is refused by the seal: test_model_seals.py)."""
    from glmnlp.glm.model_seals import header_digest

    header["metadata_sha256"] = header_digest(header)
    meta.write_text(json.dumps(header))

