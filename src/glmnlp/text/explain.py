"""A pipeline's sentences explained as its parser scored them (:meth:`glmnlp.text.pipeline.Pipeline.explain`).

The parser's explanation (:mod:`glmnlp.parser.explain`) needs the words and tags the parser was given, which the
pipeline chose: the treebank's spelling of the words (``-LRB-`` for ``(``: :func:`glmnlp.text.inputs.model_words`),
the tagger's candidate tags within the pipeline's multi-tag margin, and the tags it fixes (web tokens, tags given
with the input). Each sentence is analysed by the pipeline's own stage, which records them, and its tree is then
replayed with them, so the explanation's score is the sentence's :attr:`~glmnlp.text.document.Sentence.score`, bit
for bit.
"""

from __future__ import annotations

from typing import Any

from glmnlp.errors import ConfigError
from glmnlp.text.inputs import DocumentInput, read_document
from glmnlp.treebank.trees import with_leaves

__all__ = ["explain_document"]


def explain_document(pipeline: Any, doc: DocumentInput) -> list[Any]:
    """:meth:`Pipeline.explain`: one explanation per sentence of ``doc``, None for a sentence the parser did not
    parse (longer than the pipeline's ``max_words``) or gave the default structure (no analysis in its beam). The
    sentence's tree is replayed (:meth:`glmnlp.Parser.explain_tree`), not searched for again."""
    if not pipeline.has_parser:
        raise ConfigError("this pipeline has no parser to explain")
    explain = getattr(pipeline.parser, "explain_tree", None)
    if not callable(explain):
        raise ConfigError(f"the pipeline's parser ({type(pipeline.parser).__name__}) cannot explain its scores")
    _text, pending = read_document(doc, 0, pipeline.lines)
    out: list[Any] = []
    for sent in pending:
        pipeline._analyse(sent)
        if sent.parsed_from is None or sent.tree is None or sent.score is None or sent.score == float("-inf"):
            out.append(None)
            continue
        words, tags = sent.parsed_from
        out.append(explain(with_leaves(sent.tree, words), tags))
    return out
