"""glmnlp: global linear models for natural-language syntax.

A perceptron POS tagger (Collins 2002) and an incremental beam-search constituency parser
(Collins & Roark 2004) on one global-linear-model core, with treebank I/O and EVALB scoring.

Raw text to trees with the bundled default model::

    >>> import glmnlp
    >>> nlp = glmnlp.load()                       # doctest: +SKIP
    >>> doc = nlp("The old man saw the dog.")      # doctest: +SKIP
    >>> print(doc.sentences[0].tree)               # doctest: +SKIP

The names below are the public API (``__all__``); ``docs/api.md`` documents them with examples
that run as tests.
"""

from __future__ import annotations

from glmnlp import config
from glmnlp._version import __version__

from glmnlp.text.document import Document, Sentence, Span, Token, tree_from_nltk, tree_to_nltk
from glmnlp.errors import (
    ConfigError, FormatError, GlmnlpError, InputError, MissingPackageError, ModelFileError, TreeSyntaxError,
    WorkerError,
)
from glmnlp.treebank.evalb import score_files, score_trees
from glmnlp.parser.model import Parser
from glmnlp.text.measures import measures, plot_measures
from glmnlp.text.loading import load
from glmnlp.text.pipeline import Pipeline
from glmnlp.text.render import (
    render_ascii,
    render_brackets,
    render_conllu,
    render_html,
    render_json,
    render_pretty,
    render_svg,
    render_word_tag,
)
from glmnlp.tagger.model import Tagger
from glmnlp.text.tokenize import split_sentences, tokenize, tokenize_text, tokenize_text_spans
from glmnlp.treebank.trees import Tree, parse_tree, read_tree_file, read_trees, to_bracket, to_pretty, write_trees

__all__ = [
    "ConfigError",
    "Document",
    "FormatError",
    "GlmnlpError",
    "InputError",
    "MissingPackageError",
    "ModelFileError",
    "Parser",
    "Pipeline",
    "Sentence",
    "Span",
    "Tagger",
    "Token",
    "Tree",
    "TreeSyntaxError",
    "WorkerError",
    "__version__",
    "config",
    "load",
    "measures",
    "parse_tree",
    "plot_measures",
    "read_tree_file",
    "read_trees",
    "render_ascii",
    "render_brackets",
    "render_conllu",
    "render_html",
    "render_json",
    "render_pretty",
    "render_svg",
    "render_word_tag",
    "score_files",
    "score_trees",
    "split_sentences",
    "to_bracket",
    "to_pretty",
    "tokenize",
    "tokenize_text",
    "tokenize_text_spans",
    "tree_from_nltk",
    "tree_to_nltk",
    "write_trees",
]
