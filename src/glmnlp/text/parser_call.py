"""A sentence's words and tags given to a :class:`~glmnlp.text.pipeline.Pipeline`'s parser, and what comes back.

Split from glmnlp.text.pipeline (whose module docstring gives the choices: "Given tags are kept", "Scores"), to keep
it within the package's 600 lines a module.

Our choices
-----------
* **The parser is called as its protocol says, with no keyword of glmnlp's own**: ``parse_nbest(words, tags, k)``
  or ``parse(words, tags)``, so that a subclass or a wrapper of :class:`~glmnlp.parser.model.Parser` with that
  signature works (a ``check_tags=False`` passed to every Parser failed such a subclass on every sentence). The
  pipeline leaves out the tagger's tags the parser does not know (:func:`parser_tags`), so the parser's own check
  passes, and gives a sentence with a word left with none the parser's flat default tree itself (:func:`flat_tree`):
  the same tree, score ``-inf`` and counters as the parser's failed search (``sentences`` and ``fallback``, through
  :meth:`Parser.tally <glmnlp.parser.model.Parser.tally>` wherever the parser has it; a parser without it counts
  nothing).
* **The parser's refusal names the sentence.** A parser that does not say its tags (no ``grammar``) is given the
  tags unchecked; its InputError (a tag it does not know, pre-tagged) comes back after the pipeline's
  ``document N, sentence M: ``, as the pipeline's own refusals of given tags do (it named no sentence).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from glmnlp.errors import InputError
from glmnlp.parser.derivation import default_tree
from glmnlp.parser.tag_check import checked_tags, model_tag
from glmnlp.treebank.trees import Tree, escape_brackets

__all__ = ["call_parser", "flat_tree", "parser_tags"]


def parser_tags(known: frozenset[str] | None, written: list[str], lists: list[list[str]],
                where: str | None) -> list[list[str]]:
    """Each word's candidates as the parser spells them (its tags ``known``; None: it does not say): given tags
    checked (``where`` names their sentence in the InputError, which names the word), the tagger's (``where`` None)
    without those the parser does not know where the word has another (a word with none keeps its own, which
    :func:`flat_tree` sees); with a parser that does not say its tags, each with its brackets escaped."""
    if known is None:
        return [[escape_brackets(t) for t in ts] for ts in lists]
    if where is not None:
        try:
            return checked_tags(written, lists, known)
        except InputError as exc:
            raise InputError(f"{where}{exc.reason}") from None
    kept = [[m for t in ts if (m := model_tag(t, known)) is not None] for ts in lists]
    return [k or [escape_brackets(t) for t in ts] for k, ts in zip(kept, lists)]


def flat_tree(parser: Any, known: frozenset[str] | None, words: Sequence[str],
              lists: Sequence[Sequence[str]]) -> Tree | None:
    """The parser's flat default tree over ``words`` and each word's first tag when a word has no tag the parser
    knows (``lists`` from :func:`parser_tags` of the tagger's tags), counted as the parser counts a failed search;
    None when every word has one, or the parser does not say its tags."""
    if known is None or all(ts[0] in known for ts in lists):
        return None
    if callable(tally := getattr(parser, "tally", None)):  # a Parser, or a parser passing its attributes on to one
        tally("sentences")
        tally("fallback")
    return default_tree(words, [ts[0] for ts in lists], getattr(parser, "grammar", None))


def call_parser(parser: Any, words: list[str], tags: Sequence[str | Sequence[str]], nbest: int,
                where: str) -> tuple[list[tuple[float, Tree]] | None, Any]:
    """``(ranked, None)`` from a parser with ``parse_nbest`` (its ``nbest`` best), else ``(None, tree)`` from its
    ``parse``; an InputError it raises comes back after ``where`` (the sentence)."""
    ranker = getattr(parser, "parse_nbest", None)
    try:
        if callable(ranker):
            return list(ranker(words, tags, nbest)), None
        return None, parser.parse(words, tags)
    except InputError as exc:
        raise InputError(f"{where}{exc.reason}", source=exc.source, line=exc.line) from None
