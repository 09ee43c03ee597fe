"""Candidate POS tags for the word-by-word measures: the model's own choice from each word alone, given tags
checked, and every tag of the grammar (the fallback where the model's own leave no analysis).

Why only tags seen with the word, and no look-ahead: "Our choices" in :mod:`glmnlp.parser.measures`, which uses
these (the module was split from it to keep both readable).

Our choices
-----------
* **One table per model.** What :func:`candidate_tags` needs of a model (its POS tags, ln P(t), the lowercasing
  split and each tag's unseen share 1 - lambda_t) is computed once per generative term and kept while the term
  lives (a weak reference: the table held the last 8 models' terms, 27 MB each for the bundled model, after the
  pipelines that loaded them were dropped).
* **Given tags are checked.** A sentence's given tags are one entry per word, each a tag or a non-empty list of
  tags the model has: a string for the sentence was read as one tag a character, and an unknown tag gave every
  word an infinite surprisal, silently; both are an :class:`~glmnlp.errors.InputError`. A tag the grammar has
  only in the trees' spelling is taken in it (STTS ``$(`` as ``$-LRB-``: trees cannot hold a ``(``, and the library
  writes tags ``$(`` everywhere else, so ``Sentence.tags`` given back were refused). The tags themselves are checked
  and spelled as the parser's every other input of tags is, by :func:`glmnlp.parser.tag_check.checked_tags`.
"""

from __future__ import annotations

import weakref
from collections.abc import Sequence
from typing import Any

import numpy as np

from glmnlp.errors import InputError
from glmnlp.parser.generative import NODE_MODEL, WORD_MODEL
from glmnlp.parser.tag_check import checked_tags, known_tags

__all__ = ["candidate_tags", "every_tag", "every_tag_from", "given_tags", "given_entries"]


# id(term) -> (weak reference to the term, grammar, _tag_table(...)); an entry goes when its term does (the table
# held the last 8 models' terms, 27 MB each for the bundled model, after the pipelines that loaded them were dropped)
_TAG_TABLES: dict[int, tuple] = {}


def _tag_table(parser: Any) -> tuple:
    """What candidate_tags needs per model: POS tags, their ids, ln P(t) and the lowercasing split."""
    term, grammar = parser.generative, parser.grammar
    tags = [t for t in grammar.pos_tags if grammar.lookup(t) is not None]
    cats = np.array([grammar.lookup(t) for t in tags], dtype=np.int64)
    node = term.model.logprob_many(np.full(len(tags), NODE_MODEL), cats, np.zeros((len(tags), 1), dtype=np.int64),
                                   np.zeros(len(tags), dtype=np.int64))
    # the word id depends on the tag only through lowercasing (capitalised tags keep the case), so
    # two lookups per word give every tag's id: one for a capitalised tag, one for any other
    capitalised = np.array([t in term.lexicon.capitalised_pos for t in tags])
    cap_tag = next((t for t, c in zip(tags, capitalised) if c), None)
    low_tag = next((t for t, c in zip(tags, capitalised) if not c), None)
    # ln(1 - lambda_t): P(v | t) = (1 - lambda_t) P(v) for a word v never seen with t, more for a seen one
    ids = np.arange(1, term.lexicon.size, dtype=np.int64)
    models, v = np.full(len(ids), WORD_MODEL), len(ids)
    unigram = term.model.logprob_many(models, ids, np.zeros((v, 1), dtype=np.int64), np.zeros(v, dtype=np.int64))
    unseen = np.array([np.min(term.model.logprob_many(models, ids, np.full((v, 1), c), np.ones(v, dtype=np.int64))
                              - unigram) for c in cats])
    return tags, cats, node, capitalised, cap_tag, low_tag, unseen


def candidate_tags(parser: Any, words: Sequence[str], *, margin: float = 8.0, max_tags: int = 8,
                   seen: bool = True) -> list[list[str]]:
    """Candidate POS tags of each word from the generative model alone (:mod:`glmnlp.parser.measures`, "Tags").

    Score of tag t for word w (sentence-initial or not): ln P(w | t) + ln P(t), word model with
    the POS as its only context and node model with no context; with ``seen`` only tags seen with
    the word (or its unknown-word class) in training count, P(w | t) > (1 - lambda_t) P(w), or the
    best tag if there is none; tags within ``margin`` nats of the best are kept, best first, at
    most ``max_tags``. Only tags with chains in the grammar count.
    """
    term = parser.generative
    ref, grammar, table = _TAG_TABLES.get(id(term), (None, None, None))
    if ref is None or ref() is not term or grammar is not parser.grammar:
        table = _tag_table(parser)
        _TAG_TABLES[id(term)] = (weakref.ref(term), parser.grammar, table)
        weakref.finalize(term, _TAG_TABLES.pop, id(term), None)
    tags, cats, node, capitalised, cap_tag, low_tag, unseen = table
    n = len(words)
    wids = np.zeros((n, len(tags)), dtype=np.int64)
    for i, word in enumerate(words):
        if cap_tag is not None:
            wids[i, capitalised] = term.lexicon.word_id(word, cap_tag, i == 0)
        if low_tag is not None:
            wids[i, ~capitalised] = term.lexicon.word_id(word, low_tag, i == 0)
    m = n * len(tags)
    lex = term.model.logprob_many(np.full(m, WORD_MODEL), wids.reshape(-1), np.tile(cats, n).reshape(-1, 1),
                                  np.ones(m, dtype=np.int64)).reshape(n, len(tags))
    score = lex + node
    if seen:
        unigram = term.model.logprob_many(np.full(m, WORD_MODEL), wids.reshape(-1), np.zeros((m, 1), dtype=np.int64),
                                          np.zeros(m, dtype=np.int64)).reshape(n, len(tags))
        ok = lex > unigram + unseen + 1e-6
        ok[~ok.any(axis=1), np.argmax(score[~ok.any(axis=1)], axis=1)] = True
        score = np.where(ok, score, -np.inf)
    order = np.argsort(-score, axis=1, kind="stable")[:, :max_tags]
    ranked = np.take_along_axis(score, order, axis=1)
    keep = ranked >= ranked[:, :1] - margin
    return [[tags[j] for j, k in zip(o, kp) if k] for o, kp in zip(order.tolist(), keep.tolist())]


def given_tags(parser: Any, words: Sequence[str], tags: Any) -> list[list[str]]:
    """A sentence's given tags as candidate lists, checked: one entry per word, each a tag or a non-empty list of
    tags the model has (a string for the sentence was read as one tag a character; an unknown tag gave every word
    an infinite surprisal, silently), each spelled as the grammar spells it (``$(`` as the trees' ``$-LRB-``)."""
    if isinstance(tags, str) or not isinstance(tags, Sequence):
        raise InputError(f"a sentence's tags are a list with one tag (or a list of tags) per word, not {tags!r}")
    if len(tags) != len(words):
        raise InputError(f"{len(words)} words but {len(tags)} tag entries")
    out: list[list[str]] = []
    for k, entry in enumerate(tags, start=1):
        candidates = [entry] if isinstance(entry, str) else list(entry) if isinstance(entry, Sequence) else []
        if not candidates or not all(isinstance(t, str) for t in candidates):
            raise InputError(f"word {k} ({words[k - 1]!r}): its tags are a tag or a non-empty list of tags, "
                             f"not {entry!r}")
        out.append(candidates)
    return checked_tags(words, out, known_tags(parser.grammar))


def given_entries(parser: Any, sentences: Sequence[Sequence[str]], entries: Sequence[Any]) -> list[Any]:
    """Every sentence's tags entry checked by :func:`given_tags` against its words as the user wrote them (the
    measures see ``(`` as ``-LRB-``, and their refusal named that word), an error naming the sentence too;
    ``"model"`` and ``"all"`` kept. Entries that are not one a sentence are left for the measures to refuse."""
    if len(entries) != len(sentences):
        return list(entries)
    out: list[Any] = []
    for k, (words, entry) in enumerate(zip(sentences, entries), start=1):
        if isinstance(entry, str) and entry in ("model", "all"):
            out.append(entry)
            continue
        try:
            out.append(given_tags(parser, words, entry))
        except InputError as exc:
            raise InputError(exc.reason, source=f"sentence {k}") from None
    return out


def every_tag_from(parser: Any, tag_lists: Sequence[Sequence[str]], stop: int) -> list[list[str]]:
    """The model's own candidate tags left the grammar no analysis at word ``stop`` (a sentence of punctuation
    alone: no sentence of the treebank begins with ``.``): every POS for the words from there on, the rest kept
    (the measures' rule, and ``Sentence.surprisal``'s, :func:`glmnlp.text.measures.incremental_surprisal`)."""
    return [list(t) if i < stop else every_tag(parser) for i, t in enumerate(tag_lists)]


def every_tag(parser: Any) -> list[str]:
    """Every POS tag of the grammar that has chains (the tags ``tags="all"`` gives each word; the tags
    :func:`~glmnlp.parser.tag_check.known_tags` gives, in the grammar's order)."""
    return list(parser.grammar.parsable_tags()[0])
