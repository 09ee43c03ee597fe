"""The public API: ``glmnlp.__all__`` is frozen and importable, and the README's Python examples run."""

from __future__ import annotations

import doctest
import importlib
import re
from pathlib import Path
from typing import Any

import pytest

import glmnlp

ROOT = Path(__file__).parent.parent

#: The public names. Changing this list is an API change: update docs/api.md too.
PUBLIC_API = [
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


def test_api_all_is_frozen_sorted_and_importable() -> None:
    """__all__ equals the frozen list, is sorted, and every name imports from the package."""
    assert glmnlp.__all__ == PUBLIC_API
    assert PUBLIC_API == sorted(PUBLIC_API)
    namespace: dict[str, object] = {}
    exec("from glmnlp import *", namespace)  # noqa: S102 - the star import is what users do
    assert set(PUBLIC_API) - {"__version__"} <= set(namespace)
    for name in PUBLIC_API:
        assert getattr(importlib.import_module("glmnlp"), name) is not None


def test_api_public_names_come_from_their_modules() -> None:
    """The top-level names are the library's own objects, not copies."""
    from glmnlp import parser, tagger
    from glmnlp.text import loading, pipeline
    from glmnlp.treebank import evalb, trees

    assert glmnlp.load is loading.load and glmnlp.Pipeline is pipeline.Pipeline
    assert glmnlp.Tagger is tagger.Tagger and glmnlp.Parser is parser.Parser
    assert glmnlp.Tree is trees.Tree and glmnlp.score_trees is evalb.score_trees


def _run_pycon_blocks(path: Path, minimum: int) -> None:
    blocks = re.findall(r"^```pycon\n(.*?)^```", path.read_text(encoding="utf-8"), flags=re.S | re.M)
    assert len(blocks) >= minimum
    test = doctest.DocTestParser().get_doctest("\n".join(blocks), {}, path.name, str(path), 0)
    runner = doctest.DocTestRunner(optionflags=doctest.NORMALIZE_WHITESPACE | doctest.ELLIPSIS)
    runner.run(test)
    result = runner.summarize(verbose=False)
    assert result.failed == 0 and result.attempted == len(test.examples) > 0


def test_api_readme_examples_run() -> None:
    """Every ```pycon example in README.md runs (with the bundled model) and prints what it shows."""
    _run_pycon_blocks(ROOT / "README.md", 1)


@pytest.mark.parametrize(("call", "message"), [
    (lambda g: g.parse_tree(None), "expected a str of bracketed trees, got NoneType"),
    (lambda g: list(g.read_trees(Path("x.trees"))), "got PosixPath \\(read_tree_file reads a file\\)"),
    (lambda g: g.to_bracket("(S (A a))"), "expected a Tree, got str"),
    (lambda g: g.to_pretty("(S (A a))"), "expected a Tree, got str"),
    (lambda g: g.render_svg(None), "expected a Tree, got NoneType"),
    (lambda g: g.render_svg(g.Document("", ())), "got a Document: .* render_svg_document / render_html"),
    (lambda g: g.render_ascii("(S (A a))"), "expected a Tree, got str"),
    (lambda g: g.render_brackets(g.parse_tree("(S (A a))")), "expected a Document, got Tree"),
    (lambda g: g.render_html([None]), "expected a Document, got NoneType"),
    (lambda g: g.render_html(None), "expected a Document or an iterable of Documents, got NoneType"),
    (lambda g: g.render_html("text"), "expected a Document or an iterable of Documents, got str"),
    (lambda g: g.text.render.render_svg_document(None),
     "expected a Document or an iterable of Documents, got NoneType"),
    (lambda g: g.tokenize(None), "expected a str, got NoneType"),
    (lambda g: g.split_sentences(b"A dog."), "expected a str, got bytes"),
    (lambda g: g.score_trees("(S (A a))", "(S (A a))"), "gold: expected a sequence of Trees"),
    (lambda g: g.Tagger().fit("abc"), "expected sequences of TaggedSentence records"),
    (lambda g: g.load().parser.parse(None, None), "words and tags must be sequences of strings, got NoneType"),
    # a Sentence handed to the drawing functions (it iterates its tokens: "expected a Document, got Token")
    (lambda g: g.render_html(g.Document("", (g.Sentence.from_words(["a"]),)).sentences[0]),
     "got Sentence: pass its Document, or draw its tree with render_svg\\(sentence.tree\\)"),
    (lambda g: g.render_svg(g.Sentence.from_words(["a"])), "got a Sentence: draw its tree \\(sentence.tree\\)"),
    # options of the wrong type failed inside re or arithmetic
    (lambda g: g.render_html(g.Document("", ()), title=None), "title is a string, not None"),
    (lambda g: g.render_pretty(g.Document("", ()), indent="  "), "indent is an integer, not '  '"),
    (lambda g: g.render_conllu(g.Document("", ()), first_id="x"), "first_id is an integer, not 'x'"),
])
def test_api_functions_given_the_wrong_kind_of_value_say_so(call: Any, message: str) -> None:
    """Each gave an AttributeError from deep inside ('NoneType' object has no attribute 'replace', 'str' object has
    no attribute 'display_label'); now a TypeError naming what it expected and, where it helps, what reads it."""
    with pytest.raises(TypeError, match=message):
        call(glmnlp)


@pytest.mark.parametrize("sep", ["", " ", "/ ", "\t"])
def test_render_word_tag_refuses_a_separator_its_reader_refuses(sep: str) -> None:
    """``sep=""`` wrote ``RatesNNS`` and ``sep=" "`` ``Rates NNS``: lines no reader splits back (read_word_tag
    refuses such a separator), where the docstring promises an error for any line that could not be read back."""
    doc = glmnlp.load()("Rates rose.")
    with pytest.raises(glmnlp.ConfigError, match="separator must be non-empty and contain no whitespace"):
        glmnlp.render_word_tag(doc, sep=sep)


def test_score_trees_takes_generators() -> None:
    """Trees given as generators failed with "object of type 'generator' has no len()" (the type check had read
    them): any iterable of trees is scored as its list."""
    gold = [glmnlp.parse_tree("(S (NP (DT The) (NN dog)) (VP (VBD barked)))")] * 3
    assert glmnlp.score_trees((t for t in gold), iter(gold)) == glmnlp.score_trees(gold, gold)


@pytest.mark.parametrize("name", ["README.md", "docs/api.md", "docs/measures.md", "docs/model_files.md"])
def test_readme_passes_python_doctest_as_it_is(name: str) -> None:
    """``python -m doctest README.md`` failed on the CoNLL-U example (its tabs, which doctest expands, and its final
    blank line), and so did docs/api.md's: the docs' examples pass the standard tool, not only this suite's reading
    of them."""
    result = doctest.testfile(str(ROOT / name), module_relative=False, verbose=False, report=False)
    assert result.failed == 0 and result.attempted > 10


def test_tagger_and_parser_refuse_pickling_in_words() -> None:
    """A Tagger or a Parser given to pickle or deepcopy says how a model travels (its files), where it said
    "cannot pickle '_thread.RLock' object"."""
    import copy
    import pickle

    import glmnlp
    from glmnlp.text.default_model import default_model_path

    root = default_model_path()
    for model in (glmnlp.Tagger.load(root / "tagger"), glmnlp.Parser.load(root / "parser")):
        for attempt in (pickle.dumps, copy.deepcopy):
            with pytest.raises(TypeError, match=f"a {type(model).__name__} cannot be pickled or deep-copied: save it"):
                attempt(model)


def test_reprs_are_short_and_say_what_the_object_is() -> None:
    """The generated reprs spelled out every field of every token and node: 660 characters for a sentence of four
    words, megabytes for a Document in a notebook. A tree shows its brackets, a sentence and a document their text
    (cut to 60 characters) and counts (a notebook draws them: ``_repr_svg_``, ``_repr_html_``)."""
    doc = glmnlp.load()("The dog barked. " + "It ran away from the big bad wolf that lived in the forest near us.")
    sent = doc.sentences[0]
    assert repr(sent.tree) == "<Tree (TOP (S (NP (DT The) (NN dog)) (VP (VBD barked)) (. .)))>"
    assert repr(sent) == "<Sentence 'The dog barked.' (4 tokens, parsed)>"
    assert repr(doc) == "<Document 'The dog barked. It ran away from the big bad wolf that li...' (2 sentences)>"
    assert repr(glmnlp.Sentence.from_words(["a"])) == "<Sentence 'a' (1 token, not parsed)>"
    # a tree built wrongly in code has no brackets: its repr shows its fields (the first version raised ValueError,
    # in the REPL and in debuggers, where such a tree is inspected)
    for bad in (glmnlp.Tree("NN", "dog"), glmnlp.Tree("X", ()), glmnlp.Tree("N N", ("a",))):  # type: ignore[arg-type]
        assert repr(bad).startswith("Tree(label=")


def test_a_loaded_models_repr_says_what_it_is() -> None:
    """A pipeline's repr showed ``<glmnlp.tagger.model.Tagger object at 0x...>``: nothing of what was loaded."""
    from glmnlp.tagger.config import TaggerConfig
    from glmnlp.text.default_model import default_model_path

    pipeline = glmnlp.load()
    assert re.fullmatch(r"Tagger\(46 tags, [\d,]+ words seen, pass \d+ kept\)", repr(pipeline.tagger))
    assert repr(pipeline.parser) == ("Parser(combined, generative weight 10, 94 categories, 2**22 weight slots, punct "
                                     "features, beam gamma 1e+07 cap 40)")
    assert repr(pipeline.tagger) in repr(pipeline) and repr(pipeline.parser) in repr(pipeline)
    parser = glmnlp.Parser.load(default_model_path() / "parser")  # its own: the term removed here only
    parser.generative = None
    assert repr(parser).startswith("Parser(perceptron, 94 categories")
    assert repr(glmnlp.Tagger(TaggerConfig(epochs=3))).startswith("Tagger(untrained, TaggerConfig(epochs=3,")


def test_renderers_take_numpy_integers() -> None:
    """``indent`` and ``first_id`` given as numpy integers (a count from an array) were refused by the first version
    of the type checks; the rest of the API takes them (operator.index)."""
    import numpy as np

    doc = glmnlp.load()("It barked.")
    assert glmnlp.render_pretty(doc, indent=np.int64(4)) == glmnlp.render_pretty(doc, indent=4)
    assert glmnlp.render_conllu(doc, first_id=np.int32(5)) == glmnlp.render_conllu(doc, first_id=5)


def test_input_errors_pickle_whole() -> None:
    """A pickled InputError (an error a worker process sends back) was rebuilt by calling ``__init__`` with its
    message as the reason: ``args`` and ``repr`` read ``<input>: gold.trees:3: bad bracket``. Its message, args,
    attributes and class come back as they were, a subclass's own attributes too."""
    import pickle

    from glmnlp.errors import FormatError, InputError, TreeSyntaxError
    from glmnlp.treebank.evalb_report import EvalbAbortError

    abort = EvalbAbortError("more than MAX_ERROR error sentences", source="t", line=12)
    abort.rows = ()
    for error in (InputError("bad bracket", source="gold.trees", line=3), TreeSyntaxError("unbalanced"),
                  FormatError("no tag", source="a.txt"), abort):
        again = pickle.loads(pickle.dumps(error))
        assert type(again) is type(error) and repr(again) == repr(error) and again.args == error.args
        assert (again.reason, again.source, again.line, vars(again)) == (error.reason, error.source, error.line,
                                                                          vars(error))
