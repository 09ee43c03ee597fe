"""glmnlp: global linear models for natural-language syntax.

A perceptron POS tagger (Collins 2002) and an incremental beam-search constituency parser
(Collins & Roark 2004) on one global-linear-model core, with treebank I/O and EVALB scoring.
"""

from __future__ import annotations

__version__ = "0.1.0"

from .errors import ConfigError, FormatError, GlmnlpError, InputError, ModelFileError, TreeSyntaxError
from .trees import Tree, parse_tree, read_tree_file, read_trees, to_bracket, to_pretty

__all__ = [
    "ConfigError",
    "FormatError",
    "GlmnlpError",
    "InputError",
    "ModelFileError",
    "Tree",
    "TreeSyntaxError",
    "__version__",
    "parse_tree",
    "read_tree_file",
    "read_trees",
    "to_bracket",
    "to_pretty",
]
