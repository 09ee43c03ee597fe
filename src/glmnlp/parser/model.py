"""The incremental beam-search constituency parser (Collins & Roark 2004): the model a user loads and parses with.

Training lives in :mod:`glmnlp.parser.training` (perceptron) and :mod:`glmnlp.parser.combined`
(generative and combined); this module holds only what decoding needs, so a loaded model never
imports the training code.

What it implements (paper §2.3-§4):

* **Decoder** (:mod:`glmnlp.parser._beam`): word-synchronous beam search over the FSLC-transformed grammar
  (:mod:`glmnlp.parser.transform`, :mod:`glmnlp.parser.grammar`). ADV attaches every allowable chain of the next
  word at every legal site of the right frontier (closures checked against the triples); FILTER
  keeps h_k while ``score(h_k) >= score(h_0) - gamma / k**3`` (C&R 2004 §3.1 parameterise the threshold
  θ_k by γ; this form of it is our reconstruction) with an optional hard cap on the beam size. ``gamma``
  and the cap are configuration, tuned on dev (:func:`glmnlp.parser.selection.tune_beam`) and saved in the model.
* **Features**: every built node (chain nodes and END closures) fires the templates of
  :data:`~glmnlp.parser.config.TEMPLATES`, hashed into a ``2**n_bits`` weight table. Two switchable groups:
  ``baseline`` (C&R 2004 §3.2, Table 2, reconstructed from the conditioning sequences of Roark's
  parser) and ``punct`` (= baseline + the three punctuation features of §3.2).
* **Files**: :meth:`Parser.save`, :meth:`Parser.load` and :meth:`Parser.describe` are those of
  :mod:`glmnlp.parser.files` (the format and its checks); the configuration a model records is
  :class:`~glmnlp.parser.config.ParserConfig`.
* **Robustness** (:meth:`Parser.parse`): if the beam empties or no hypothesis can be closed, the
  sentence is retried with a 10x wider gamma and a 10x larger cap (:data:`RETRY_CAP` if the first had none; with
  no cap, a model whose scores tie, as one trained on a few trees does, kept every analysis within gamma, all of
  them: 24 GB and the out-of-memory killer for a 50-word sentence); if that fails too it gets the default
  structure ``(TOP (S (T1 w1) ... (Tn wn)))`` (flat over the first candidate tags; S: the grammar's
  :meth:`~glmnlp.parser.grammar.Grammar.root_phrase`, a label of the training trees). Such sentences
  are counted in :attr:`Parser.stats`. These fallbacks are for failed searches: bad input raises an
  :class:`~glmnlp.errors.InputError` before the search (an empty sentence, a word with whitespace, a tag the model
  does not know: :mod:`glmnlp.parser.tag_check`, which also reads STTS ``$(`` as the model's ``$-LRB-``).

* **Explanations** (:meth:`Parser.explain`, :meth:`Parser.explain_tree`; :mod:`glmnlp.parser.explain`): the kernel
  replays a derivation (the parser's best, or any tree's) and reports every node it builds with its context atoms,
  feature slots and score, which the decoder's score is the sum of; the names come from the templates.

* **Generative term** (optional, :mod:`glmnlp.parser.term`): ``Parser.generative`` (a
  ``GenerativeTerm``) adds its fixed weight times the generative log-probability of every built node
  to the scores; it is saved as the ``generative`` sub-model of the model directory.
  :meth:`Parser.surprisal` gives per-word surprisal (bits) from it.

Our choices (documented deviations or reconstructions):

* Look-ahead (LK, LKP of C&R 2004 §3.2): nodes built while word i is absorbed (its chain and the closures
  before it) get LK = w_i and LKP = the POS at the bottom of the chain being attached, so multi-tag input
  needs no separate tagging decision. The closures after the last word get LK = LKP = end-of-sentence.
* Punctuation feature (ii) uses the first candidate tag of w_{i+1}; feature (iii) fires when the new
  node's left sibling L01 is itself preceded by a punctuation POS (L02 is punctuation); features are
  conjoined with L00 and with (L00, L10).
* QUESTION (punctuation feature (i)) fires when the sentence's last word is a question mark: the ASCII ``?``,
  the full-width ``？`` of Chinese and Japanese text or the Arabic ``؟`` (:data:`QUESTION_MARKS`; a Chinese
  treebank's questions never fired it when only ``?`` counted). The Greek question mark is not among them: it
  is a ``;`` after Unicode normalisation.
* A POS tag counts as punctuation when more than 90% of its training tokens contain no letter,
  digit, apostrophe, ``#`` or ``$`` (the rule of Roark's parser).
* Words enter features as a stable 64-bit hash of the word string (no vocabulary file).
* Training adds a gold chain to a sentence's candidates when the grammar's count filter dropped it
  (rare long chains), so the gold derivation is always reachable during training.
* COORD (the coordination feature of Roark's parser's node-label model) on FSLC trees: coordination
  X -> X CC X (CC: ``Grammar.coordination_tag``, also CCONJ or KON) is left-recursive, so the transform
  turns (NP (NP a b) (CC and) (NP c d)) into (NP a b (NP/NP (CC and) (NP c d))) and the CC has no left
  sibling. When the CC (punctuation skipped) is the first child of a slash node X/Y with Y = the parent's
  label, the earlier conjunct is X's prefix and COORD is X's first child. By our choice COORD enters the
  non-POS templates only, so it fires for a non-POS leftmost child of the later conjunct.
* Feature hashing: the 2**22 table (``n_bits`` = 22). The gold derivations of the sample training
  split (wsj_0001-0159, +punct) fire 340,976 distinct features (counted with 62-bit ids); masked to
  22 bits they occupy 327,417 slots: 26,739 features (7.84%) share a slot with another (load 0.081).
  The 13,620-tree proxy: 19.07% on the same measure, at no measurable cost in F1
  (``glmnlp.parser.feature_space``, ``benchmarks/results/feature_collisions.md``).
"""

from __future__ import annotations

import hashlib
import threading
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from glmnlp.errors import ConfigError, InputError
from glmnlp.glm.locks import ForkSafeLock
from glmnlp.glm.model_files import TravelsAsFiles, read_unchanged
from glmnlp.parser._beam import BeamParser
from glmnlp.parser.config import TEMPLATES, ParserConfig, check_beam
from glmnlp.parser.derivation import Step, default_tree, derive, replay
from glmnlp.parser.explain import Explanation, name_nodes
from glmnlp.parser.files import describe_parser, load_parser, save_parser
from glmnlp.parser.grammar import Grammar, GrammarError, tree_problem
from glmnlp.parser.tag_check import checked_tags, known_tags
from glmnlp.parser.term import prefix_logprobs, surprisal_bits
from glmnlp.parser.transform import fslc_detransform, fslc_transform
from glmnlp.treebank.fileio import lone_surrogate, surrogate_reason
from glmnlp.treebank.trees import Tree

# TEMPLATES and ParserConfig live in glmnlp.parser.config; they are named here too, where users have imported them
__all__ = ["RETRY_CAP", "TEMPLATES", "Example", "ParserConfig", "Parser", "default_tree", "punctuation_tags",
           "word_atom"]

#: The generative word ids of a decoder without a generative term (set before every sentence of such a parser).
_NO_WORD_IDS = np.zeros(0, dtype=np.int64)
_NO_WORD_IDS.flags.writeable = False

#: The beam cap of the retry (module header, "Robustness") of a parser whose own beam has no cap: the retry always
#: has one, so that its memory is bounded however the scores tie.
RETRY_CAP = 1000


def word_atom(word: str) -> int:
    """Stable nonzero 62-bit hash of a word (0 is the NULL atom, 1 the end-of-sentence atom)."""
    digest = hashlib.blake2b(word.encode("utf-8"), digest_size=8).digest()
    return (int.from_bytes(digest, "little") >> 2) | 2


def punctuation_tags(trees: Iterable[Tree]) -> set[str]:
    """POS tags whose tokens are more than 90% free of letters, digits, ', # and $ (Roark's parser's rule), a bracket
    escape (``-LRB-`` ..., :data:`PTB_ESCAPES`) counting as free of them under any tag but the PTB's bracket tags.

    The escapes are how the tree format writes brackets. Under the PTB's own bracket tags (named as the escapes:
    ``-LRB-``, ``-RRB-``) they count as words with letters, as in Roark's rule, which leaves those tags out of
    punctuation; under any other tag they are brackets among its words. Counted as words with letters there, they
    kept a tagset's one punctuation tag (UD-style ``PUNCT``, brackets 14% of its tokens in GUM's academic texts)
    from being one, without a word, and the punctuation features never fired (held-out F1 72.20 against 73.45 with
    ``PUNCT`` as punctuation, 491 trees). The tags found in the PTB sample and in GUM are the same as before the
    change (their escapes are all under the bracket tags).
    """
    total: dict[str, int] = {}
    plain: dict[str, int] = {}
    for tree in trees:
        for word, tag in tree.pos():
            total[tag] = total.get(tag, 0) + 1
            if (word in PTB_ESCAPES and tag not in PTB_ESCAPES) or not any(ch.isalnum() or ch in "'#$" for ch in word):
                plain[tag] = plain.get(tag, 0) + 1
    return {t for t, n in total.items() if plain.get(t, 0) > 0.9 * n}


#: how the Penn Treebank's format spells brackets as words (``(`` ``)`` ``{`` ``}`` ``[`` ``]``); its bracket tags
#: are named so too
PTB_ESCAPES = frozenset({"-LRB-", "-RRB-", "-LCB-", "-RCB-", "-LSB-", "-RSB-"})


def _checked_sentence(words: Sequence[str], tags: Sequence[str | Sequence[str]], what: str) -> list[list[str]]:
    """The candidate tag lists of a sentence given to the parser; InputError for what it cannot be, TypeError for a
    value of the wrong kind (as the tagger's). A string is a sequence too, of characters, and was parsed as one word a
    character."""
    if isinstance(words, str) or isinstance(tags, str):
        raise TypeError("words and tags must be sequences of strings, not a string (split it into words first)")
    if words is None or tags is None:  # None was "cannot parse an empty sentence"
        raise TypeError(f"words and tags must be sequences of strings, got {type(words).__name__} and "
                        f"{type(tags).__name__}")
    if not hasattr(words, "__len__") or not hasattr(tags, "__len__"):  # 42 or a generator: len()'s own TypeError
        raise TypeError(f"words and tags must be sequences of strings, got {type(words).__name__} and "
                        f"{type(tags).__name__}")
    if len(words) == 0:  # (a numpy array of words has no truth value)
        raise InputError(f"cannot {what} an empty sentence")
    if len(words) != len(tags):
        raise InputError(f"{len(words)} words but {len(tags)} tag entries")
    if bad := next((k for k, w in enumerate(words, start=1) if not isinstance(w, str)), 0):
        raise TypeError(f"word {bad} is a {type(words[bad - 1]).__name__}, not a str")
    if bad := next((k for k, w in enumerate(words, start=1) if not w or any(c.isspace() for c in w)), 0):
        raise InputError(f"word {bad} ({words[bad - 1]!r}) is empty or holds whitespace: a word is one token")
    if found := next(((k, why) for k, w in enumerate(words, start=1) if (why := surrogate_reason(w))), None):
        raise InputError(f"word {found[0]}: {found[1]}")  # (its hash encodes it: a UnicodeEncodeError from inside)
    if bad := next((k for k, t in enumerate(tags, start=1) if not isinstance(t, str | Iterable)), 0):
        raise TypeError(f"the tag of word {bad} is a {type(tags[bad - 1]).__name__}, not a str or a list of str")
    tag_lists = [[t] if isinstance(t, str) else list(t) for t in tags]
    if any(not t for t in tag_lists):
        raise InputError("every word needs at least one candidate tag")
    if bad := next((k for k, ts in enumerate(tag_lists, start=1) if not all(isinstance(t, str) for t in ts)), 0):
        wrong = next(t for t in tag_lists[bad - 1] if not isinstance(t, str))
        raise TypeError(f"the tag of word {bad} is a {type(wrong).__name__}, not a str")
    if any(not t or any(c.isspace() for c in t) or lone_surrogate(t) is not None
           for candidates in tag_lists for t in candidates):
        raise InputError("a tag is empty, holds whitespace or a lone surrogate (the tree could not be written)")
    return tag_lists


#: The last words that make a sentence a question for the QUESTION feature (module header).
QUESTION_MARKS = frozenset({"?", "\uff1f", "\u061f"})


@dataclass
class Example:
    """A training sentence ready for the beam: arrays and gold steps."""

    words: list[str]
    tags: list[list[str]]
    atoms: np.ndarray
    next_pos: np.ndarray
    isq: int
    cand_off: np.ndarray
    cand_chain: np.ndarray
    gold_site: np.ndarray
    gold_chain: np.ndarray


class Parser(TravelsAsFiles):
    """A trained parser: grammar, chain table, hashed weights and beam settings."""

    def __init__(
        self, grammar: Grammar, punct_tags: set[str], weights: np.ndarray, config: ParserConfig,
        extra_chains: Sequence[tuple[int, ...]] = (),
    ) -> None:
        self.grammar = grammar
        self.config = config
        self.punct_tags = set(punct_tags)
        self.weights = weights
        if self.weights.shape[0] != 1 << config.n_bits:
            raise ValueError("weight table size does not match n_bits")
        self.stats = {"sentences": 0, "retried": 0, "fallback": 0}
        self._stats_lock = ForkSafeLock()  # a forked child gets a free one (glmnlp.glm.locks)
        self._local = threading.local()  # one decoder (beam buffers, generative term) per thread
        cats = grammar.categories
        n = len(cats)
        self._chains: list[tuple[int, ...]] = []
        self._chain_id: dict[tuple[int, ...], int] = {}
        for table in (grammar.first_chains, grammar.chains):
            for tag in sorted(table):
                for chain in table[tag]:
                    self._add_chain(tuple(chain))
        for chain in extra_chains:
            self._add_chain(tuple(chain))
        self._first_by_tag = {t: sorted(self._chain_id[tuple(c)] for c in v) for t, v in grammar.first_chains.items()}
        self._by_tag = {t: sorted(self._chain_id[tuple(c)] for c in v) for t, v in grammar.chains.items()}
        # (sentence-initial, candidate tags) -> their chains in decoding order; _by_tag never changes after here
        self._chain_sets: dict[tuple[bool, tuple[str, ...]], list[int]] = {}
        triples = np.zeros(n * n * n, dtype=np.uint8)
        for x, y, z in grammar.triples:
            triples[(x * n + y) * n + z] = 1
        pos_set = set(grammar.pos_tags)
        is_pos = np.array([1 if (c[1] is None and c[0] in pos_set) else 0 for c in cats], dtype=np.uint8)
        is_punct = np.array([1 if (c[1] is None and c[0] in self.punct_tags) else 0 for c in cats], dtype=np.uint8)
        first_letter = np.array([ord(c[0][0]) if c[0] else 0 for c in cats], dtype=np.int32)
        self._cc = grammar.coordination_tag()
        self._tables = (n, triples, is_pos, is_punct, first_letter)
        self._beam = self._make_beam()

    # -- decoder per thread -------------------------------------------------------------------------
    @property
    def _beam(self) -> BeamParser:
        """This thread's decoder: the beam's buffers and its generative term are per-call mutable state,
        so threads sharing one parser each get their own (built on first use, then reused). The decoder
        releases the GIL while it scores a word's candidates, so such threads parse in parallel."""
        beam = getattr(self._local, "beam", None)
        if beam is None:
            beam = self._local.beam = self._make_beam()
        return beam

    @_beam.setter
    def _beam(self, beam: BeamParser) -> None:
        self._local.beam = beam

    def tally(self, key: str) -> None:
        """Add one to the counter ``key`` of :attr:`stats` (under its lock): the parser's own counts, and those of a
        pipeline for the flat trees it gives without asking the parser, a sentence over its ``max_words``
        (``too_long``) and one with a word of no tag the parser knows (``sentences`` and ``fallback``, as the parser's
        failed search)."""
        with self._stats_lock:
            self.stats[key] = self.stats.get(key, 0) + 1

    # -- chain table ------------------------------------------------------------------------------
    def _add_chain(self, chain: tuple[int, ...]) -> int:
        found = self._chain_id.get(chain)
        if found is None:
            found = len(self._chains)
            self._chains.append(chain)
            self._chain_id[chain] = found
        return found

    def _make_beam(self) -> BeamParser:
        n, triples, is_pos, is_punct, first_letter = self._tables
        flat = np.array([c for chain in self._chains for c in chain], dtype=np.int32)
        off = np.zeros(len(self._chains) + 1, dtype=np.int32)
        off[1:] = np.cumsum([len(c) for c in self._chains])
        beam = BeamParser(
            n, triples, is_pos, is_punct, first_letter, -1 if self._cc is None else self._cc, flat, off,
            self.config.n_bits,
        )
        slash_base = [-1 if sl is None else (self.grammar.lookup(sl) or -1) for _lab, sl in self.grammar.categories]
        beam.set_slash_base(np.array(slash_base, dtype=np.int32))
        return beam

    def chain_pos(self, chain_id: int) -> int:
        """The POS category at the bottom of a chain."""
        return self._chains[chain_id][-1]

    # -- sentence inputs --------------------------------------------------------------------------
    def _inputs(
        self, words: Sequence[str], tags: Sequence[Sequence[str]], extra: dict[int, int] | None = None
    ) -> tuple[np.ndarray, np.ndarray, int, np.ndarray, np.ndarray]:
        n = len(words)
        atoms = np.array([word_atom(w) for w in words], dtype=np.int64)
        next_pos = np.zeros(n, dtype=np.int32)
        for i in range(n - 1):
            cat = self.grammar.lookup(tags[i + 1][0]) if tags[i + 1] else None
            next_pos[i] = cat if cat is not None else 0
        isq = 1 if words and words[-1] in QUESTION_MARKS else 0
        off = np.zeros(n + 1, dtype=np.int32)
        ids: list[int] = []
        for i in range(n):
            key = (i == 0, tuple(tags[i]))
            found = self._chain_sets.get(key)
            if found is None or (extra is not None and i in extra):
                table = self._first_by_tag if i == 0 else self._by_tag
                chosen: set[int] = set()
                for tag in tags[i]:
                    chosen.update(table.get(tag, ()))
                if extra is not None and i in extra:
                    chosen.add(extra[i])
                found = sorted(chosen, key=lambda c: (self.chain_pos(c), c))
                if extra is None or i not in extra:
                    if len(self._chain_sets) >= 65536:  # bounded: tag lists seen recently
                        self._chain_sets.clear()
                    self._chain_sets[key] = found
            ids.extend(found)
            off[i + 1] = len(ids)
        return atoms, next_pos, isq, off, np.array(ids, dtype=np.int32)

    def __repr__(self) -> str:  # it was <glmnlp.parser.model.Parser object at 0x...>, in a pipeline's repr too
        term = self.generative
        kind = "perceptron" if term is None else f"combined, generative weight {term.weight:g}"
        return (f"Parser({kind}, {len(self.grammar.categories)} categories, 2**{self.config.n_bits} weight slots, "
                f"{self.config.features} features, beam gamma {self.config.gamma:g} cap {self.config.beam_cap})")

    @property
    def _punct(self) -> int:
        return 1 if self.config.features == "punct" else 0

    # -- parsing ----------------------------------------------------------------------------------
    @property
    def weights(self) -> np.ndarray:
        """The weight table (read-only: assign a new table to change it). An assigned table is copied unless all
        zero (allocated anew) or a read-only array owning its memory (taken as it is: freeze only a finished table)."""
        return self._weights

    @weights.setter
    def weights(self, value: np.ndarray) -> None:
        # a table no one writes to (the decoder's bitmap, nonzero_bits, is built once per table), without
        # copies of large tables the caller is done with; an all-zero one (training skeletons') is allocated:
        # its untouched pages take no memory (benchmarks/results/feature_collisions.md: 1 GiB at 2**27)
        value = np.asarray(value, dtype=np.float64)
        if not value.view(np.uint64).any():
            table = np.zeros(len(value))
        elif value.flags.writeable or value.base is not None or not value.flags.c_contiguous:
            table = np.array(value, order="C", copy=True)
        else:
            table = value
        table.flags.writeable = False
        self._weights = table
        self._nonzero: np.ndarray | None = None

    def nonzero_bits(self) -> np.ndarray:
        """Bit f (word f >> 6, bit f & 63) set when weight f is not +0.0: a feature with a clear bit adds
        nothing, so the decoder does not read its weight (most of a hashed table is zero, and each read
        is a cache miss: see the module docstring). Built on first use, once per table."""
        bits = self._nonzero
        if bits is None:
            flags = self._weights.view(np.uint64) != 0
            pad = (-flags.shape[0]) % 64
            if pad:
                flags = np.concatenate([flags, np.zeros(pad, dtype=bool)])
            bits = np.packbits(flags, bitorder="little").view("<u8").astype(np.uint64)
            self._nonzero = bits
        return bits

    def parse_nbest(
        self, words: Sequence[str], tags: Sequence[str | Sequence[str]], k: int = 1, *, check_tags: bool = True
    ) -> list[tuple[float, Tree]]:
        """The k best trees (de-transformed, TOP-rooted) with their scores, best first (``k`` <= 0: every
        complete analysis in the last beam). ``tags[i]`` is one POS tag or a list of candidate tags (multi-tag
        input: the chains of word i are the union over them), each a tag of the model, as the model spells it
        (``Tagger.tag(words)``) or as its tagset writes it (STTS ``$(`` for ``$-LRB-``: ``Tagger.tag(words,
        written=True)``; :mod:`glmnlp.parser.tag_check`).

        Bad input raises: a tag the model does not know (it has no analysis with it: the sentence was the flat
        default tree, silently) is an :class:`~glmnlp.errors.InputError` naming the word and the tag, as are an
        empty sentence and a word with whitespace. A search that fails never does: the sentence gets the fallbacks
        of the module docstring ("Robustness"). ``check_tags=False`` takes the tags unchecked, as given (an
        evaluation on gold tags with a tag unseen in training: a word with no tag the model knows has no analysis,
        and the sentence gets the default structure)."""
        tag_lists = _checked_sentence(words, tags, "parse")
        words = [str(w) for w in words]  # plain strings: a numpy array's are numpy.str_ (and the array no list)
        if check_tags:
            tag_lists = checked_tags(words, tag_lists, known_tags(self.grammar))
        if isinstance(k, bool) or not isinstance(k, (int, np.integer)):
            raise ConfigError(f"k must be an integer (<= 0: every complete analysis), got {k!r}")
        k = min(max(int(k), 0), 2**31 - 1)  # the decoder's int: any k past the beam is every analysis anyway
        found = self._derivations(words, tag_lists, k)
        if found is None:
            return [(float("-inf"), default_tree(words, [t[0] for t in tag_lists], self.grammar))]
        return [(score, self._tree(words, sites, chains)) for score, sites, chains in found]

    def _derivations(
        self, words: Sequence[str], tag_lists: Sequence[Sequence[str]], k: int, count: bool = True
    ) -> list[tuple[float, np.ndarray, np.ndarray]] | None:
        """The k best complete derivations as (score, sites, chains), best first, with the retry of the module
        header (counted in :attr:`stats` when ``count``); None when both attempts fail (the caller falls back to the
        default structure)."""
        check_beam(self.config.gamma, self.config.beam_cap)  # the config can be changed between calls
        if count:
            self.tally("sentences")
        atoms, next_pos, isq, off, cand = self._inputs(words, tag_lists)
        self._configure_generative(words, tag_lists)
        none = np.zeros(0, dtype=np.int32)
        nonzero = self.nonzero_bits()
        cap = self.config.beam_cap
        attempts = [(self.config.gamma, cap), (self.config.gamma * 10, min(10 * cap, 10**6) if cap else RETRY_CAP)]
        for attempt, (gamma, cap) in enumerate(attempts):
            result = self._beam.decode(
                atoms, next_pos, isq, self._punct, off, cand, self.weights, gamma, cap, none, none, False, k,
                nonzero,
            )
            if result["status"] == "complete":
                if attempt and count:
                    self.tally("retried")
                return [(score, sites, chains) for score, _gold, sites, chains in result["beam"]]
        if count:
            self.tally("fallback")
        return None

    def parse(self, words: Sequence[str], tags: Sequence[str | Sequence[str]], *, check_tags: bool = True) -> Tree:
        """The best tree for a tagged sentence (tags, their checks and the fallbacks as for :meth:`parse_nbest`)."""
        return self.parse_nbest(words, tags, 1, check_tags=check_tags)[0][1]

    # -- taking a score apart (glmnlp.parser.explain) -------------------------------------------------
    def explain(self, words: Sequence[str], tags: Sequence[str | Sequence[str]]) -> Explanation:
        """The best analysis of a tagged sentence (as :meth:`parse` finds it), node by node: each node's named
        features with their weights, its generative log-probability and its score (:mod:`glmnlp.parser.explain`).
        Words are read as :meth:`parse` reads them (the treebank's spelling: ``-LRB-`` for ``(``); an explanation
        is not counted in :attr:`stats`.

        Tags are read and checked as :meth:`parse` reads them (a tag the model does not know is an
        :class:`~glmnlp.errors.InputError`), and so is a sentence the beam finds no analysis of (:meth:`parse` then
        returns the default structure, which the model does not score)."""
        tag_lists = _checked_sentence(words, tags, "explain")
        words = [str(w) for w in words]
        tag_lists = checked_tags(words, tag_lists, known_tags(self.grammar))
        found = self._derivations(words, tag_lists, 1, count=False)
        if found is None:
            raise InputError("the beam found no analysis of this sentence (parse() returns the default structure, "
                             "which the model does not score)")
        _score, sites, chains = found[0]
        return self._explain(words, tag_lists, sites, chains)

    def explain_tree(self, tree: Tree, tags: Sequence[str | Sequence[str]] | None = None) -> Explanation:
        """A tree (a treebank's gold tree, say) scored node by node as :meth:`explain` scores the parser's own
        analysis, so that the two can be compared: give ``tags`` as given to :meth:`parse` or :meth:`explain`
        (candidate tags per word; each must include the tree's preterminal), or none to take the preterminals.
        The tags matter: a feature reads the first candidate tag of the next word (NEXTPOS).

        The tree must be a cleaned, ``TOP``-rooted tree (:func:`glmnlp.parser.grammar.tree_problem`) whose
        categories and chains (after the transform, :mod:`glmnlp.parser.transform`) the model's grammar knows; it
        may be one the beam cannot build (a triple the grammar never saw), whose score is still the sum of its
        nodes'. A unary chain of one category (``(NP (NP ...))``) is one node, as the parser builds it. Words are
        read as :meth:`parse` reads them: a pipeline's tree holds them as written (``(``), so spell them first
        (``with_leaves(tree, model_words(tree.leaves()))``, :mod:`glmnlp.text.inputs`). Anything else is an
        :class:`~glmnlp.errors.InputError` saying what."""
        if not isinstance(tree, Tree):
            raise TypeError(f"expected a glmnlp Tree, got {type(tree).__name__}")
        if not tree.children or (problem := tree_problem(tree)) is not None:
            raise InputError(f"cannot explain this tree: {problem if tree.children else 'it has no words'}")
        words = tree.leaves()
        preterminals = tree.tags()
        tag_lists = checked_tags(words, _checked_sentence(words, preterminals if tags is None else tags, "explain"),
                                 known_tags(self.grammar))
        if (bad := next((i for i, (t, c) in enumerate(zip(preterminals, tag_lists)) if t not in c), None)) is not None:
            raise InputError(f"word {bad + 1} ({words[bad]!r}): its tag in the tree, {preterminals[bad]!r}, is not "
                             f"among the tags given for it, {tag_lists[bad]}")
        try:
            steps = derive(fslc_transform(tree, self.config.fslc), self.grammar)
        except GrammarError as exc:
            raise InputError(f"cannot explain this tree: after the transform, {exc}") from None
        chains = []
        for i, step in enumerate(steps):
            try:
                chains.append(self._add_chain_known(step.chain))
            except ValueError:
                raise InputError(f"cannot explain this tree: word {i + 1} ({words[i]!r}) hangs from the chain "
                                 f"{self.grammar.chain_names(step.chain)}, which the model has never seen") from None
        return self._explain(words, tag_lists, np.array([s.site for s in steps], dtype=np.int32),
                             np.array(chains, dtype=np.int32))

    def _explain(self, words: Sequence[str], tag_lists: Sequence[Sequence[str]], sites: np.ndarray,
                 chains: np.ndarray) -> Explanation:
        atoms, next_pos, isq, _off, _cand = self._inputs(words, tag_lists)
        self._configure_generative(words, tag_lists)
        nodes, events, starts, total = self._beam.explain(
            atoms, next_pos, isq, self._punct, np.ascontiguousarray(sites, dtype=np.int32),
            np.ascontiguousarray(chains, dtype=np.int32), self.weights,
        )
        _n, _triples, is_pos, is_punct, _first = self._tables
        term = self.generative
        named = name_nodes(
            nodes, events, starts, words=words, weights=self.weights, category=self.grammar.name, is_pos=is_pos,
            is_punct=is_punct, cc_cat=-1 if self._cc is None else self._cc, word_atom=word_atom, isq=isq,
            punct=bool(self._punct), generative=term is not None,
        )
        return Explanation(tuple(words), tuple(named), float(total), 0.0 if term is None else float(term.weight))

    # -- generative term (glmnlp.parser.term) --------------------------------------------------------
    generative: Any = None

    def _configure_generative(self, words: Sequence[str], tag_lists: Sequence[Sequence[str]]) -> None:
        term = self.generative
        if term is not None:
            self._beam.set_generative(term.model.kernel, term.weight, term.word_ids(words, tag_lists, self.grammar))
        else:  # the term may have been removed since this thread's decoder last parsed (``parser.generative = None``)
            self._configure_generative_off()

    def _configure_generative_off(self) -> None:
        self._beam.set_generative(None, 0.0, _NO_WORD_IDS)

    def surprisal(self, words: Sequence[str], tags: Sequence[str | Sequence[str]]) -> list[float]:
        """Per-word surprisal in bits, -log2 P(w_i | w_0..w_{i-1}), from the generative model's beam.

        Needs a model with a generative term (generative or combined). The prefix probability after
        word i is the sum of the generative probabilities of the beam members (glmnlp.parser.term). Tags are read
        and checked as :meth:`parse` reads them.
        """
        tag_lists = _checked_sentence(words, tags, "compute surprisal for")
        words = [str(w) for w in words]
        tag_lists = checked_tags(words, tag_lists, known_tags(self.grammar))
        return surprisal_bits(prefix_logprobs(self, words, tag_lists))

    def _tree(self, words: Sequence[str], sites: np.ndarray, chains: np.ndarray) -> Tree:
        steps = [Step(int(s), self._chains[int(c)]) for s, c in zip(sites, chains)]
        return fslc_detransform(replay(list(words), steps, self.grammar))

    # -- persistence (glmnlp.parser.files) ----------------------------------------------------------
    def save(
        self, path: str | Path, *, history: Sequence[dict[str, Any]] | None = None, prune: float | None = None,
        replace: bool = True,
    ) -> None:
        """Write the model directory (JSON metadata + npz arrays; no pickle) atomically
        (:func:`glmnlp.parser.files.save_parser`: the format, ``prune``, and what ``path`` may already hold).

        ``history`` and ``prune`` default to the parser's own (:attr:`history`, :attr:`weight_prune`: those of the
        file it was loaded from, or of its training), so a loaded model saved again is the same files; they were
        ``()`` and 0.0, and a load and save dropped the training history and the pruning threshold."""
        save_parser(self, path, history=self.history if history is None else history,
                    prune=self.weight_prune if prune is None else prune, replace=replace)

    @classmethod
    def load(cls, path: str | Path) -> Parser:
        """Read a model written by :meth:`save`; a damaged or foreign one is a :class:`ModelFileError` (a folder
        replaced while it was read is read again: :func:`glmnlp.glm.model_files.read_unchanged`)."""
        return read_unchanged(path, lambda: load_parser(cls, path))

    @staticmethod
    def describe(path: str | Path) -> dict[str, Any]:
        """``generative``, ``parse_nbest``, ``pos_tags`` of the model at ``path``, unbuilt (checksums checked)."""
        return describe_parser(path)

    history: list[dict[str, Any]] = []
    #: the threshold below which the weights were dropped when the model file was written (0.0: none)
    weight_prune: float = 0.0

    # -- training helpers ---------------------------------------------------------------------------
    def example(self, tree: Tree, transformed: Tree, tags: Sequence[Sequence[str]] | None = None) -> Example:
        """Arrays and gold steps of a training tree (``transformed`` = its FSLC form)."""
        words = tree.leaves()
        tag_lists = [list(t) for t in tags] if tags is not None else [[t] for t in tree.tags()]
        steps = derive(transformed, self.grammar)
        gold_chain = np.array([self._add_chain_known(s.chain) for s in steps], dtype=np.int32)
        gold_site = np.array([s.site for s in steps], dtype=np.int32)
        extra = {i: int(c) for i, c in enumerate(gold_chain)}
        atoms, next_pos, isq, off, cand = self._inputs(words, tag_lists, extra)
        return Example(words, tag_lists, atoms, next_pos, isq, off, cand, gold_site, gold_chain)

    def _add_chain_known(self, chain: tuple[int, ...]) -> int:
        found = self._chain_id.get(tuple(chain))
        if found is None:
            raise ValueError(f"chain {self.grammar.chain_names(chain)} missing from the chain table")
        return found

    def features(self, ex: Example, sites: np.ndarray, chains: np.ndarray, complete: bool) -> tuple[np.ndarray, np.ndarray]:
        """Feature ids (and per-step offsets) of a derivation of ``ex``."""
        return self._beam.features(
            ex.atoms, ex.next_pos, ex.isq, self._punct, np.ascontiguousarray(sites, dtype=np.int32),
            np.ascontiguousarray(chains, dtype=np.int32), complete,
        )
