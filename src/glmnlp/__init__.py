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

import importlib
from typing import TYPE_CHECKING, Any

from glmnlp import config
from glmnlp._version import __version__
from glmnlp.errors import (
    ConfigError, FormatError, GlmnlpError, InputError, MissingPackageError, ModelFileError, TreeSyntaxError,
    WorkerError,
)

# the fork-safety locks, and logging, which they import, with the package, before a thread of the user's can import
# them on first use: a child forked meanwhile began with that module's import lock held and hung at its first use
importlib.import_module("glmnlp.glm.locks")

if TYPE_CHECKING:  # what a type checker sees (a misspelt name is an error there, not Any from __getattr__)
    from glmnlp import cli, glm, parser, tagger, text, treebank
    from glmnlp.parser.model import Parser
    from glmnlp.tagger.model import Tagger
    from glmnlp.text.document import Document, Sentence, Span, Token
    from glmnlp.text.loading import load
    from glmnlp.text.measures import measures, plot_measures
    from glmnlp.text.pipeline import Pipeline
    from glmnlp.text.render import (
        render_ascii, render_brackets, render_conllu, render_html, render_json, render_pretty, render_svg,
        render_word_tag,
    )
    from glmnlp.text.tokenize import split_sentences, tokenize, tokenize_text, tokenize_text_spans
    from glmnlp.treebank.evalb import score_files, score_trees
    from glmnlp.treebank.nltk_trees import tree_from_nltk, tree_to_nltk
    from glmnlp.treebank.trees import Tree, parse_tree, read_tree_file, read_trees, to_bracket, to_pretty, write_trees

    _TYPED_SUBPACKAGES = (cli, glm, parser, tagger, text, treebank)  # (glmnlp.parser etc. typed as modules)

#: Where each public name is defined: imported when first asked for (PEP 562), so that ``import glmnlp`` takes
#: milliseconds (it took 0.3 s: numpy, the models, the tokenizer), and the ``glmnlp`` command starts its Ctrl-C
#: handling before the heavy imports (a Ctrl-C in that time was a traceback)
_HOMES = {
    **dict.fromkeys(["Parser"], "glmnlp.parser.model"),
    **dict.fromkeys(["Tagger"], "glmnlp.tagger.model"),
    **dict.fromkeys(["Document", "Sentence", "Span", "Token"], "glmnlp.text.document"),
    **dict.fromkeys(["load"], "glmnlp.text.loading"),
    **dict.fromkeys(["measures", "plot_measures"], "glmnlp.text.measures"),
    **dict.fromkeys(["Pipeline"], "glmnlp.text.pipeline"),
    **dict.fromkeys(["render_ascii", "render_brackets", "render_conllu", "render_html", "render_json", "render_pretty",
                     "render_svg", "render_word_tag"], "glmnlp.text.render"),
    **dict.fromkeys(["split_sentences", "tokenize", "tokenize_text", "tokenize_text_spans"], "glmnlp.text.tokenize"),
    **dict.fromkeys(["score_files", "score_trees"], "glmnlp.treebank.evalb"),
    **dict.fromkeys(["tree_from_nltk", "tree_to_nltk"], "glmnlp.treebank.nltk_trees"),
    **dict.fromkeys(["Tree", "parse_tree", "read_tree_file", "read_trees", "to_bracket", "to_pretty", "write_trees"],
                    "glmnlp.treebank.trees"),
}


if not TYPE_CHECKING:
    def __getattr__(name: str) -> Any:
        """A public name, or a subpackage (``glmnlp.parser`` after ``import glmnlp``), imported on first use; a
        fork meanwhile waits for the import (:func:`glmnlp.glm.locks.fork_waits`: a child forked as another thread
        imported the models began with their modules' import locks held, and its first use waited for ever)."""
        from glmnlp.glm.locks import fork_waits

        home = _HOMES.get(name)
        with fork_waits():
            if home is not None:
                value = getattr(importlib.import_module(home), name)
            elif name in _SUBPACKAGES:
                value = importlib.import_module(f"glmnlp.{name}")
            else:
                raise AttributeError(f"module 'glmnlp' has no attribute {name!r}")
        globals()[name] = value  # found at once from now on
        return value


_SUBPACKAGES = frozenset({"cli", "glm", "parser", "tagger", "text", "treebank"})  # (errors, config: imported)


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})


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
