"""The generative terms a parser is trained with: events of the training derivations, and the generative models
trained on them, on all the training sentences and on k-fold jackknife folds (Collins & Roark 2004 §5, Table 4).

:mod:`glmnlp.parser.combined` trains generative and combined parsers with these terms; the trained term itself
(what a loaded parser scores with) is :mod:`glmnlp.parser.term`.

* **Events from derivations.** Every node of a gold derivation (chain nodes top-down, END closures,
  the closures after the last word) is a node-model event: outcome = its category id, context =
  (L10, L01, L02, L03, L20, L11, L30, L21, COORD, CL). Every POS node is also a word-model event:
  outcome = its glmnlp.parser.lexicon word id, context = (POS, L10, L01, L20*, CCP*, CC), * only for a
  leftmost child. The contexts come from :meth:`glmnlp.parser._beam.BeamParser.gen_events`, which replays
  the derivation through the same code that computes the perceptron features and the beam's
  generative score, so training and scoring cannot disagree. The models are trained with
  :func:`glmnlp.parser.generative_training.train_generative` (Jelinek–Mercer, EM-fitted lambda buckets).
* **Jackknifed terms** (:class:`JackknifedTerms`, :func:`train_jackknifed`): k generative models, each trained on
  (k-1)/k of the training sentences with a lexicon built from those sentences only (so unknown-word classes are
  exercised), each scoring only the sentences it did not see.

Our choices:

* CL and CC enter the generative contexts as the beam's word atoms (a hash of the raw word form),
  not as lexicon ids; unseen heads simply back off. The word model's *outcome* is the lexicon id
  (lowercasing, unknown-word classes: :mod:`glmnlp.parser.lexicon`).
* The root node TOP is an event too (context all NULL); it has the same probability in every
  analysis, so it never changes a ranking, and it keeps "every built node is an event" exact.
* Jackknife folds are the seeded partition of :func:`glmnlp.parser.generative_training.jackknife_folds`.
* **The 10 fold models and the full-data one train in parallel** (:func:`train_terms`), as 11
  independent jobs on the executor of :func:`glmnlp.parser.training.train_parser` (the CLI's and the
  default-model recipe's ``--jobs``): min(jobs, 11) workers (``Executor.hosts``) each receive every
  sentence's events once (arrays and word/tag lists), train jobs j = w (mod n) and send each term
  back as parts (:meth:`GenerativeTerm.to_parts`: JSON metadata and arrays), rebuilt here in input
  order. jobs = 1 is one worker in this process running the same functions, the parts and their
  rebuilding included. The full model is the last job and each worker frees its events once its last
  job's event set is built, so the serial run keeps the memory saving of ``train_term(release=True)``.
  Same models bit for bit on 1 worker, 2 local processes and 2 Ray actors (the recorded serial
  digests, tests/test_generative_reproducible.py and tests/test_ray.py). Measured with
  benchmarks/generative_jobs.py (2026-12-04, 2 cores shared with other training and test jobs, load
  average 1.2-3.0, so the wall times are noisy; the CPU seconds of the busiest process show how the
  work splits):

  | proxy trees | jobs | wall s | CPU s, all / busiest process | peak RSS MB, one process / all |
  | --- | --- | --- | --- | --- |
  | 3,000 | 1 (code before: 33.1, 37.4, 35.2 s; 403-406 MB) | 34.8, 35.1, 36.4, 36.7 | 34.5-36.0 | 398 |
  | 3,000 | 2 | 36.7, 37.6, 39.8, 31.4 | 37.2-41.0 / 19.2-21.2 | 404-412 / 729-736 |
  | 13,620 | 1 | 149.8, 127.4 | 150.0, 130.4 | 1,080 |
  | 13,620 | 2 | 80.7, 95.0 (1.86x, 1.34x the run beside it) | 145.9, 144.4 / 77.2, 76.2 | 938-941 / 1,965-1,967 |

  Each worker holds the events and the model it trains, so two workers take about twice the memory
  of one; the busiest worker trains 6 of the 11 models (5 folds and the full one).
"""

from __future__ import annotations

from array import array
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import Any

import numpy as np

from glmnlp.glm.memory import give_back
from glmnlp.glm.parallel import Executor
from glmnlp.parser.generative import NODE_MODEL, WORD_MODEL, SmoothingConfig, roark_specs
from glmnlp.parser.generative_events import EventSet
from glmnlp.parser.generative_training import jackknife_folds, train_generative
from glmnlp.parser.lexicon import Lexicon
from glmnlp.parser.term import GenerativeTerm

__all__ = [
    "JackknifedTerms", "SentenceEvents", "build_event_set", "build_lexicon", "sentence_events", "train_jackknifed",
    "train_jackknifed_and_full", "train_term", "train_terms",
]


@dataclass
class SentenceEvents:
    """The generative events of one gold derivation (word outcomes still as (word, POS) pairs)."""

    node_outcomes: np.ndarray  # (k,) category ids
    node_contexts: np.ndarray  # (k, 10)
    word_index: np.ndarray  # (m,) position of each POS node's word
    word_contexts: np.ndarray  # (m, 6); column 0 = the POS category
    words: list[str]
    tags: list[str]  # POS tag of each word event


def sentence_events(parser: Any, ex: Any) -> SentenceEvents:
    """Replay the gold derivation of a parser training example (glmnlp.parser.model.Example)."""
    log = parser._beam.gen_events(
        ex.atoms, ex.next_pos, np.ascontiguousarray(ex.gold_site, dtype=np.int32),
        np.ascontiguousarray(ex.gold_chain, dtype=np.int32), True,
    )
    node = [(e[1], e[3]) for e in log if e[0] == NODE_MODEL]
    word = [(e[2], e[3]) for e in log if e[0] == WORD_MODEL]
    cats = parser.grammar.categories
    return SentenceEvents(
        np.array([o for o, _ in node], dtype=np.int64),
        np.array([c for _, c in node], dtype=np.int64).reshape(len(node), 10),
        np.array([i for i, _ in word], dtype=np.int64),
        np.array([c for _, c in word], dtype=np.int64).reshape(len(word), 6),
        list(ex.words),
        [cats[c[0]][0] for _, c in word],
    )


def build_lexicon(events: Sequence[SentenceEvents], ids: Sequence[int]) -> Lexicon:
    """A lexicon from the (word, POS) pairs of the given sentences only."""
    return Lexicon.build(
        [[(ev.words[i], t) for i, t in zip(ev.word_index.tolist(), ev.tags)] for ev in (events[s] for s in ids)]
    )


def build_event_set(events: Sequence[SentenceEvents], ids: Sequence[int], lexicon: Lexicon, n_cats: int) -> EventSet:
    """The EventSet of the given sentences (sentence ids kept), rare words also counted as their class.

    Built from whole arrays (the sentences' concatenated contexts; word ids in compact int64 buffers),
    the rare words' class events after all word events: the order of events does not change the
    trained model (:func:`glmnlp.parser.generative_training.train_generative` sorts them).
    """
    out = EventSet(roark_specs(n_cats, lexicon.size))
    ids = [int(s) for s in ids]
    if not ids:
        return out
    sid = np.array(ids, dtype=np.int64)
    out.extend(
        NODE_MODEL,
        np.concatenate([events[s].node_outcomes for s in ids]),
        np.concatenate([events[s].node_contexts for s in ids]),
        np.repeat(sid, [len(events[s].node_outcomes) for s in ids]),
        copy=False,
    )
    wids, cids = array("q"), array("q")
    for s in ids:
        ev = events[s]
        for i, tag in zip(ev.word_index.tolist(), ev.tags):
            wid, cid = lexicon.training_ids(ev.words[i], tag, i == 0)
            wids.append(wid)
            cids.append(cid)
    word_sid = np.repeat(sid, [len(events[s].word_index) for s in ids])
    contexts = np.concatenate([events[s].word_contexts for s in ids])
    cid_all = np.frombuffer(cids, dtype=np.int64)
    rare = np.nonzero(cid_all)[0]
    n_words, n_rare = len(word_sid), len(rare)
    out.extend(
        WORD_MODEL,
        np.concatenate([np.frombuffer(wids, dtype=np.int64), cid_all[rare]]),
        np.concatenate([contexts, contexts[rare]]),
        np.concatenate([word_sid, word_sid[rare]]),
        np.concatenate([np.full(n_words, 6, dtype=np.int64), np.full(n_rare, 1, dtype=np.int64)]),
        copy=False,
    )
    return out


def train_term(
    events: Sequence[SentenceEvents], ids: Sequence[int], n_cats: int, smoothing: SmoothingConfig,
    weight: float = 1.0, *, release: bool = False,
) -> tuple[GenerativeTerm, frozenset[int]]:
    """Train on the given sentences only; returns the term and the sentence ids it was trained on.

    ``release=True`` empties the list ``events`` once the event set is built, so the sentences'
    events are freed before the model is trained (the caller must not need them any more).
    """
    lexicon = build_lexicon(events, ids)
    event_set = build_event_set(events, ids, lexicon, n_cats)
    if release and isinstance(events, list):
        events.clear()
        give_back()
    trained_on = frozenset(np.unique(event_set.arrays()[2]).tolist())
    return GenerativeTerm(train_generative(event_set, smoothing), lexicon, weight), trained_on


@dataclass
class JackknifedTerms:
    """k generative terms; sentence s is scored only by the term of the fold that held it out.

    ``trained_on[f]`` records the sentence ids whose events (and lexicon entries) trained term f;
    :meth:`term_for` refuses to hand out a term that saw the sentence.
    """

    terms: list[GenerativeTerm]
    trained_on: list[frozenset[int]]
    fold_of: np.ndarray

    def term_for(self, sentence: int) -> GenerativeTerm:
        """The term that scores training sentence ``sentence`` (raises if that term saw it)."""
        fold = int(self.fold_of[sentence])
        if fold < 0 or sentence in self.trained_on[fold]:
            raise RuntimeError(f"jackknife: sentence {sentence} would be scored by a model trained on it")
        return self.terms[fold]


TermParts = tuple[dict[str, Any], dict[str, np.ndarray]]


class _TermTrainer:
    """A worker of :func:`train_terms`: the training sentences' events, received once as plain data
    (arrays and word/tag lists), and the terms it is asked to train, returned as plain parts."""

    def __init__(self, events: list[tuple[Any, ...]], n_cats: int, smoothing: dict[str, Any], weight: float) -> None:
        self.events = [SentenceEvents(*fields) for fields in events]
        self.n_cats = n_cats
        self.smoothing = SmoothingConfig(**smoothing)
        self.weight = weight

    def train(self, item: tuple[np.ndarray, bool]) -> tuple[TermParts, np.ndarray]:
        """(the term's parts, the sorted ids it was trained on) for item = (sentence ids, release);
        ``release``: this is the worker's last term, so its events go as soon as its event set is built."""
        ids, release = item
        term, on = train_term(self.events, ids.tolist(), self.n_cats, self.smoothing, self.weight, release=release)
        return term.to_parts(), np.array(sorted(on), dtype=np.int64)


def _event_fields(ev: SentenceEvents) -> tuple[Any, ...]:
    return (ev.node_outcomes, ev.node_contexts, ev.word_index, ev.word_contexts, ev.words, ev.tags)


def train_terms(
    events: list[SentenceEvents], id_sets: Sequence[np.ndarray], n_cats: int, smoothing: SmoothingConfig,
    weight: float = 1.0, *, executor: Executor | None = None, release: bool = False,
) -> list[tuple[GenerativeTerm, frozenset[int]]]:
    """One term per set of sentence ids (:func:`train_term`), trained on the executor's workers.

    min(jobs, len(id_sets)) workers each receive every sentence's events once; term j trains on
    worker j % n and comes back as parts (:meth:`GenerativeTerm.to_parts`: JSON metadata and
    arrays), in input order. Each worker frees its events once its last term's event set is built.
    With one worker (``executor`` None or of one job) that worker is this process, through the same
    functions. ``release=True`` empties the list ``events`` as its contents are handed to the workers
    (the caller must not need them any more): inline, the last term's event set is then built from
    the only copy, which is freed before that term trains, as :func:`train_term` does with ``release``.
    """
    if not id_sets:
        return []
    ex = executor if executor is not None else Executor(1)
    n = max(1, min(ex.jobs, len(id_sets)))
    payload = [_event_fields(ev) for ev in events]
    if release:
        events.clear()
    hosts = ex.hosts(_TermTrainer, [(payload, n_cats, asdict(smoothing), float(weight))] * n)
    del payload
    try:
        last = {j % n: j for j in range(len(id_sets))}
        items = ((np.asarray(ids, dtype=np.int64), last[j % n] == j) for j, ids in enumerate(id_sets))
        return [
            (GenerativeTerm.from_parts(*parts), frozenset(on.tolist())) for parts, on in hosts.imap("train", items)
        ]
    finally:
        hosts.close()


def train_jackknifed(
    events: Sequence[SentenceEvents], n_cats: int, smoothing: SmoothingConfig, *, k: int = 10, seed: int = 0,
    weight: float = 1.0, executor: Executor | None = None,
) -> JackknifedTerms:
    """k terms, term f trained (lexicon included) on every sentence outside fold f's held-out set.

    The folds train on ``executor``'s workers (:func:`train_terms`); the terms do not depend on where.
    """
    jk, _ = train_jackknifed_and_full(list(events), n_cats, smoothing, k, seed, weight, full=False,
                                       executor=executor, release=False)
    assert jk is not None
    return jk


def train_jackknifed_and_full(
    events: list[SentenceEvents], n_cats: int, smoothing: SmoothingConfig, k: int, seed: int, weight: float, *,
    full: bool, executor: Executor | None, release: bool,
) -> tuple[JackknifedTerms | None, GenerativeTerm | None]:
    """The k fold terms (none if k == 0) and, if ``full``, the term trained on every sentence, as one
    batch of :func:`train_terms` (the full term last: inline it is the one that frees the events)."""
    n = len(events)
    folds = jackknife_folds(n, k, seed) if k else []
    id_sets = [fold.train for fold in folds] + ([np.arange(n, dtype=np.int64)] if full else [])
    trained = train_terms(events, id_sets, n_cats, smoothing, weight, executor=executor, release=release)
    jk = None
    if folds:
        fold_of = np.full(n, -1, dtype=np.int64)
        for fold in folds:
            fold_of[fold.heldout] = fold.index
        jk = JackknifedTerms([t for t, _ in trained[:k]], [on for _, on in trained[:k]], fold_of)
    return jk, (trained[-1][0] if full else None)
