"""The POS tags a user gives the parser, checked against the model's and spelled as its grammar spells them.

Every public way of giving the parser tags goes through :func:`checked_tags` (:meth:`Parser.parse_nbest
<glmnlp.parser.model.Parser.parse_nbest>` and what calls it, :meth:`~glmnlp.parser.model.Parser.explain`,
:meth:`~glmnlp.parser.model.Parser.explain_tree`, :meth:`~glmnlp.parser.model.Parser.surprisal`, the measures' given
tags, :func:`glmnlp.parser.measure_tags.given_tags`, and a pipeline's pre-tagged input), or :func:`model_tag` where
the caller words its own message (``glmnlp parse --tagged``, which names the file and line).

Our choices
-----------
* **A tag the model does not know is an error.** The decoder finds no chain for it, and the sentence came back as
  the flat default tree with score ``-inf``, silently (``parse_nbest(['The', 'dog', 'barked', '.'], ['DT', 'XX',
  'VBD', '.'])``), as if the beam had failed; the measures gave every word an infinite surprisal. The tags known
  are those of the grammar with a category (:func:`known_tags`, what ``tags="all"`` of the measures gives every
  word); a known tag that has no chain where the word stands (no sentence of the WSJ sample begins with ``.``) is
  a search failure, left to the parser's fallbacks. Multi-tag input is checked tag by tag: an unknown candidate
  beside known ones is refused too (it added nothing to the search, and was most often a typing slip).
* **The tagset's spelling is taken.** A tag is written as its tagset writes it (STTS ``$(``:
  :func:`~glmnlp.treebank.trees.written_tag`, ``Tagger.tag(words, written=True)``, ``Sentence.tags``, ``glmnlp
  tag``) or as bracketed trees spell it (``$-LRB-``, the model's label: a tree cannot hold a ``(``), and both name
  the same tag: a tag the model does not have whose bracket escape (:func:`~glmnlp.treebank.trees.escape_brackets`,
  the inverse of ``written_tag``) it has is read as that. It is read so only then, so it is never ambiguous: a tag
  the model has is always itself, and a tag has one escape. The Penn Treebank's ``(`` tag is ``-LRB-`` by the same
  rule (the pipeline and ``glmnlp parse --tagged`` read it so already).
* **Once per sentence, before the decoder.** The check is a few set look-ups per word in Python, before the
  sentence's arrays are built; nothing of it runs in the decoder's loops.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import Any

from glmnlp.errors import InputError
from glmnlp.treebank.trees import escape_brackets

__all__ = ["checked_tags", "known_tags", "model_tag"]


def known_tags(grammar: Any) -> frozenset[str]:
    """The POS tags of a grammar that the parser can be given: those with a category (every one of a trained
    grammar's; :meth:`Grammar.parsable_tags <glmnlp.parser.grammar.Grammar.parsable_tags>`, computed once)."""
    return grammar.parsable_tags()[1]


def model_tag(tag: str, known: Collection[str]) -> str | None:
    """``tag`` as the model's label: itself if the model has it, else its bracket escape if the model has that
    (STTS ``$(`` as ``$-LRB-``: module header), else None (a tag the model does not know)."""
    if tag in known:
        return tag
    escaped = escape_brackets(tag)
    return escaped if escaped in known else None


def checked_tags(words: Sequence[str], tag_lists: Sequence[Sequence[str]], known: Collection[str]) -> list[list[str]]:
    """Each word's candidate tags as the model's labels (:func:`model_tag`), every one checked: a tag the model does
    not know is an :class:`~glmnlp.errors.InputError` naming the word's position and text and the tag (the caller
    names the sentence where there are several). ``tag_lists`` is one non-empty list of strings per word."""
    out: list[list[str]] = []
    for k, candidates in enumerate(tag_lists):
        labels: list[str] = []
        for tag in candidates:
            if (label := model_tag(tag, known)) is None:
                raise InputError(f"word {k + 1} ({words[k]!r}): tag {tag!r} is not one of the model's (it has no "
                                 "analysis with it)")
            labels.append(label)
        out.append(labels)
    return out
