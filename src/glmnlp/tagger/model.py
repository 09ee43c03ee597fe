"""The trigram perceptron POS tagger of Collins (2002).

Model, as in the paper: a history is h_i = ⟨t_{i−2}, t_{i−1}, w_{[1:n]}, i⟩; the score of a tag sequence is
Σ_i α·g(h_i, t_i), decoded exactly by second-order Viterbi over tag-pair states (``_viterbi.pyx``),
and α is trained with the averaged perceptron on whole sentences (the paper's training algorithm with averaged
parameters, :mod:`glmnlp.glm.training`).

Features (the templates of Ratnaparkhi 1996, as in the paper's tagging experiments; each conjoined with t_i):

* tag-independent atoms of the history (:data:`ATOM_NAMES`): a bias (i.e. the tag unigram), the words
  w_i, w_{i−1}, w_{i−2}, w_{i+1}, w_{i+2} (``<s>``/``</s>`` beyond the sentence), the prefixes and
  suffixes of w_i (only lengths ≤ len(w_i)), flags (w_i contains a digit, an uppercase letter, a
  hyphen), and the extra atoms of the extended sets below;
* the tag bigram (t_{i−1}, t_i) and the tag trigram (t_{i−2}, t_{i−1}, t_i).

A template is named by its atoms: ``"suffix3"`` is one atom, ``"lower[i-1]&lower[i]"`` a
conjunction (looked up through packed int64 keys, :mod:`glmnlp.glm.features`), and ``"t[i-1]&w[i]"`` an
atom conjoined with the tag *bigram* (t_{i−1}, t_i): a block of T+1 rows per atom value that Viterbi
adds per (u, v) (``pair`` argument of ``_viterbi.viterbi``), kept only for atom values seen at least
``pair_min_count`` (= 20) times in training.

Feature sets, our choice (:data:`glmnlp.tagger.features.FEATURE_SETS`; ``TaggerConfig.feature_set``; atoms and
templates in :mod:`glmnlp.tagger.features`):

* ``"collins2002"``: exactly the paper's list (affixes of length 1..4, three flags, five words):
  the paper's configuration.
* ``"extended"`` (the default, the best measured): + lowercased w_i, w_{i±1} and w_{i±2}, a collapsed
  character shape (``Xx``, ``d,d``) of w_i and w_{i±1}, prefix/suffix of length 5, suffix3 of w_{i±1},
  all-caps, contains-period, the lowercased part after the last hyphen (``co-Founder`` →
  ``founder``); ``cap-init`` (capitalised and sentence-initial vs capitalised elsewhere);
  ``lc-known`` (for a capitalised word: is its lowercased form a training word?) and its
  conjunction with ``cap-init``.

The other sets measured (``extended-v1``, the previous default; ``extended-prevtag`` = extended +
(t_{i−1}, w_i); ``extended-bigrams`` = extended without lc-known, + lowercased word bigrams) did not
beat ``extended`` beyond the seed spread; they are not library options any more and are re-run by
``python benchmarks/tagger_features.py`` (``benchmarks/results/tagger_features.md``).

Measured on UD English EWT (XPOS; 10 epochs, best epoch on dev, seed 0; selection on dev only):
collins2002 dev 94.18 / test 94.34, extended (default) 94.50 / 94.57; the dev spread between seeds
is about 0.2 points (extended, seeds 0/1/2: 94.50/94.42/94.29). Every alternative measured (feature
sets, the rare-word rule, ambiguity classes, tag-dictionary thresholds, weight averaging over
seeds) stayed within that spread or cost memory or speed: the full table, with what each change
was and why it was not adopted, is ``benchmarks/results/tagger_features.md``. The rare-word rule
(``rare_word_count``) and the conjunction count cut-off (``min_count``) stay available as options, off by
default; ambiguity-class atoms (``ambiguity_min_count``) and previous-tag templates (``pair_min_count``) are read
only by the experimental feature sets of ``benchmarks/tagger_features.py``: with ``collins2002`` or ``extended``
they change nothing.
The target of 95.3% test accuracy is **not** reached. Latest benchmark (``benchmarks/tagging.py --datasets ewt
sample --repeats 3``, ``benchmarks/results/tagging.md``, quiet machine): EWT test 94.57% (unknown words 79.32%),
392,236 tokens/s wall-clock (394,522 per CPU second), training 9.7 s, peak memory 745 MB.

Our choices:

* Same features for every word by default (no rare/non-rare split), as the CSLU re-implementation
  (PerceptronixPointNever) says Collins (2002) did (not confirmed from the paper; the split is measured
  above as ``rare_word_count=1``); no count cut-off ("cc=0"); no end-of-sentence transition (GEN = T^n
  and Φ sums over positions 1..n, as in Collins's lecture notes on global linear models for tagging).
* **Weight layout.** Every feature is a *row* of T weights (one per tag); the weight of
  (row, tag) has id ``row·T + tag`` in the perceptron's 1-D array, so the array reshapes to a
  (rows, T) table. Rows ``0..T`` are the bigram rows (previous tag u, T = start), rows
  ``T+1 .. T+1+(T+1)²−1`` the trigram rows (r, u), then one row per (template, atoms) conjunction
  from the :class:`~glmnlp.glm.features.FeatureIndex`, then the blocks of T+1 rows of the previous-tag
  features. All rows are known after one pass over the training data (they depend only on the
  words), so the weight array is allocated once.
* **Speed**: per token, the scores of all tag-independent features are summed once into an
  "emission" vector over tags (``_scoring.score_rows``); Viterbi then adds only the bigram/trigram
  (and previous-tag) weights, for all sentences of a batch in one call (``viterbi_batch``). Atoms
  for a word type are computed once and cached (:meth:`Tagger.clear_cache` forgets those of words met while
  tagging; the training vocabulary's stay).
* **Tag dictionary** (our choice: a common speed-up, not in the paper). A word seen at least
  ``tagdict_min_count`` (= 50) times in training may only take the tags it was seen with. A rarer
  training word may take its seen tags plus the open-class tags; an unknown word takes the
  open-class tags. A tag is *open-class* if it accounts for at least ``open_class_min_share``
  (= 0.2%) of the tokens of hapax words (words seen once) in training: on UD EWT this keeps 21 of
  49 XPOS tags. Every training token's gold tag is inside its candidate set, so training updates
  are well defined, and Viterbi is exact within the candidate space.
* **Unseen currency signs read as ``$``, runs of ``!?`` as a mark** when tagging (``features.read_as``).
* **Sentences in capitals read in lower case** (``features.sentence_read_as``): EWT's 108 36.76 -> 87.14%.
* **Max-marginal multi-tagging.** For each word, the tags whose best complete sequence scores
  within ``margin`` (absolute score units) of the best sequence, best first; computed exactly by
  forward + backward Viterbi (``_viterbi.max_marginals``).
* **Tags as the model learnt them.** :meth:`Tagger.tag`, :meth:`~Tagger.tag_sentences` and :meth:`~Tagger.multitag`
  give the model's own labels (:attr:`tags_`), which :meth:`Parser.parse <glmnlp.parser.model.Parser.parse>` reads
  (docs/api.md passes ``tagger.tag(words)`` to it): a tagger trained on trees has STTS ``$(`` as ``$-LRB-``.
  ``written=True`` gives them as every output of tags writes them (``$(``, :func:`~glmnlp.treebank.trees.written_tag`:
  ``glmnlp tag``, ``Sentence.tags``, CoNLL-U, JSON), which the parser reads too (:mod:`glmnlp.parser.tag_check`).
* Model files: :mod:`glmnlp.tagger.files` (format and validation); the GLM task the training loop
  drives and the evaluation records: :mod:`glmnlp.tagger.task`; the scores against gold tags:
  :mod:`glmnlp.tagger.evaluation`; the configuration: :mod:`glmnlp.tagger.config`.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence, Set
from pathlib import Path
from typing import Any

import numpy as np

from glmnlp.glm._scoring import score_rows
from glmnlp.tagger._viterbi import max_marginals, viterbi_batch
from glmnlp.errors import ConfigError, InputError
from glmnlp.glm.features import ABSENT, UNKNOWN, FeatureIndex, StringStore
from glmnlp.glm.locks import ForkSafeLock
from glmnlp.glm.model_files import TravelsAsFiles, read_unchanged
from glmnlp.glm.model_io import load_model, save_model, verify_model
from glmnlp.glm.parallel import Executor
from glmnlp.glm.training import EpochRecord, TrainingResult, train_perceptron
from glmnlp.tagger.features import (BOS, CONTEXT_ATOMS, EOS, FLAG_STRINGS, LOCAL_ATOMS, N_ATOMS, N_LOCAL, W0,
                                    read_as, read_capitals, templates_for, word_atoms_strings)
from glmnlp.tagger.config import TaggerConfig
from glmnlp.tagger.evaluation import multitag_scores, tagging_score
from glmnlp.tagger.files import TAGGER_ARRAYS, tagger_from_parts, tagger_to_parts
from glmnlp.tagger.history import history_features
from glmnlp.tagger.task import Encoded, Example, MultitagScore, TaggingScore, TaggingTask, split_examples
from glmnlp.treebank.fileio import lone_surrogate, surrogate_reason
from glmnlp.treebank.formats import TaggedSentence
from glmnlp.treebank.trees import written_tag

# TaggerConfig and the score records are re-exported: they are part of the tagger's API
__all__ = ["TaggerConfig", "Tagger", "TaggingScore", "MultitagScore"]


#: Word types outside the training vocabulary whose atoms are kept while tagging (about 30 MB; then forgotten)
MAX_NEW_TYPES = 100_000


class Tagger(TravelsAsFiles):
    """Trigram averaged-perceptron POS tagger (Collins 2002).

    Parameters
    ----------
    config:
        Hyperparameters (:class:`TaggerConfig`); the constructor does no work.

    Examples
    --------
    >>> tagger = Tagger(TaggerConfig(epochs=5)).fit(train_sentences, dev_sentences)  # doctest: +SKIP
    >>> tagger.tag(["The", "cat", "sat", "."])  # doctest: +SKIP
    ['DT', 'NN', 'VBD', '.']
    """

    def __init__(self, config: TaggerConfig | None = None) -> None:
        self.config = config or TaggerConfig()
        self.tags_: tuple[str, ...] = ()
        self.open_tags_: tuple[str, ...] = ()
        self.history_: list[EpochRecord] = []
        self.best_epoch_ = 0
        #: the CoNLL-U column ("xpos" or "upos") of the training file, when it was one (``glmnlp tagger train``
        #: records it; evaluating and tagging read and write that column); None otherwise
        self.tag_column_: str | None = None
        self._fitted = False
        self._cache_lock = ForkSafeLock(reentrant=True)  # the per-type atom cache is shared by threads

    def __repr__(self) -> str:  # it was <glmnlp.tagger.model.Tagger object at 0x...>, in a pipeline's repr too
        return (f"Tagger(untrained, {self.config!r})" if not self._fitted else
                f"Tagger({len(self.tags_)} tags, {len(self._vocabulary):,} words seen, pass {self.best_epoch_} kept)")

    # -- state helpers ---------------------------------------------------------------------------
    def _init_tables(self, store: StringStore, index: FeatureIndex, pair_index: FeatureIndex, tags: Sequence[str],
                     open_tags: Sequence[str]) -> None:
        self.store_ = store
        self.index_ = index
        self.pair_index_ = pair_index
        self._needed_atoms = {a for t in index.templates + pair_index.templates for a in t.atoms}
        self.tags_ = tuple(tags)
        self.open_tags_ = tuple(open_tags)
        self._tag_ids = {t: i for i, t in enumerate(self.tags_)}
        T = len(self.tags_)
        self._emission_offset = (T + 1) + (T + 1) ** 2
        self._open_mask = np.zeros(T, dtype=np.uint8)
        self._open_mask[[self._tag_ids[t] for t in self.open_tags_]] = 1
        self._type_ids: dict[str, int] = {}
        self._n_vocab_types = 0
        self._ambiguity: dict[str, str] = {}
        self._vocabulary: frozenset[str] = frozenset()
        self._type_atoms = np.zeros((1024, N_LOCAL), dtype=np.int64)
        self._bos = store.add(BOS) if not index.frozen else store.get(BOS)
        self._eos = store.add(EOS) if not index.frozen else store.get(EOS)
        self._init_cap = store.add("<init-cap>") if not index.frozen else store.get("<init-cap>")
        self._mid_cap = store.add("<mid-cap>") if not index.frozen else store.get("<mid-cap>")

    def _n_rows(self) -> int:
        """Rows of the weight table: transitions, emission features, previous-tag feature blocks."""
        return self._emission_offset + len(self.index_) + (len(self.tags_) + 1) * len(self.pair_index_)

    def _local_atoms(self, words: Sequence[str], add: bool) -> np.ndarray:
        """The local atoms of every token, from the per-type cache (filled for new types). The cache is shared by
        the threads that use this tagger: one lock makes each fill (and the read after it) atomic, so a thread never
        sees another's half-grown table."""
        with self._cache_lock:
            return self._local_atoms_locked(words, add)

    def _local_atoms_locked(self, words: Sequence[str], add: bool) -> np.ndarray:
        type_ids = self._type_ids
        # bound the cache when tagging huge inputs: types met beyond the training vocabulary (it was a million of
        # them in all, 0.4 GB more for text of unique tokens, where the docs said memory grows with the longest
        # sentence only)
        if not add and len(type_ids) + len(words) > self._n_vocab_types + MAX_NEW_TYPES:
            self.clear_cache()
            type_ids = self._type_ids
        get = type_ids.get
        ids = [get(w, -1) for w in words]
        if -1 in ids:
            new_types = list(dict.fromkeys(w for w, i in zip(words, ids, strict=True) if i < 0))
            start = len(type_ids)
            end = start + len(new_types)
            if end > self._type_atoms.shape[0]:
                grown = np.zeros((max(end, 2 * self._type_atoms.shape[0]), N_LOCAL), dtype=np.int64)
                grown[:start] = self._type_atoms[:start]
                self._type_atoms = grown
            ambiguity, vocabulary = self._ambiguity, self._vocabulary
            strings = [s for w in new_types
                       for s in word_atoms_strings(w if add else read_as(w, vocabulary), ambiguity, vocabulary)]
            if add:
                intern = self.store_.add
                flat = [ABSENT if s is None else intern(s) for s in strings]
            else:
                known = self.store_.mapping.get
                flat = [ABSENT if s is None else known(s, UNKNOWN) for s in strings]
            self._type_atoms[start:end] = np.array(flat, dtype=np.int64).reshape(len(new_types), N_LOCAL)
            type_ids.update(zip(new_types, range(start, end), strict=True))
            ids = [get(w, -1) for w in words]
        return self._type_atoms[np.array(ids, dtype=np.int64)]

    def _encode(
        self,
        sentences: Sequence[Sequence[str]],
        *,
        add: bool,
        tags: Sequence[Sequence[str]] | None = None,
        rare: np.ndarray | None = None,
    ) -> Encoded:
        if bad := [type(s) for s in sentences
                   if isinstance(s, str | bytes | Set | Mapping) or not hasattr(s, "__getitem__")]:
            raise TypeError("a sentence must be a sequence of words, not a string (split it into words first)"
                            if bad[0] is str else f"a sentence is a list of words, not {bad[0].__name__}")
        lengths = np.array([len(s) for s in sentences], dtype=np.int64)
        offsets = np.zeros(len(sentences) + 1, dtype=np.int64)
        np.cumsum(lengths, out=offsets[1:])
        flat = [w for s in sentences for w in s]
        if not all(isinstance(w, str) and w and lone_surrogate(w) is None for w in flat):  # None: an AttributeError
            k = next(k for k, w in enumerate(flat) if not (isinstance(w, str) and w and lone_surrogate(w) is None))
            sent = int(np.searchsorted(offsets, k, side="right"))  # 1-based: offsets[sent - 1] <= k < offsets[sent]
            where = f"sentence {sent}, word {k - int(offsets[sent - 1]) + 1}"
            if isinstance(flat[k], str):  # a lone surrogate (not text) was tagged as an unknown word
                raise InputError(f"{where}: {surrogate_reason(flat[k])}" if flat[k] else
                                 f"{where} is empty: a word is one token")
            raise TypeError(f"{where} is a {type(flat[k]).__name__}, not a str")
        n = len(flat)
        atoms = np.zeros((n, N_ATOMS), dtype=np.int64)
        local = self._local_atoms(flat, add)
        if not add:  # tagging: a sentence in capitals is read in lower case
            read_capitals(sentences, offsets, local, self._vocabulary, lambda words: self._local_atoms(words, False))
        atoms[:, :N_LOCAL] = local
        if n:
            sent_of = np.repeat(np.arange(len(sentences)), lengths)
            pos = np.arange(n, dtype=np.int64) - offsets[sent_of]
            length = lengths[sent_of]
            inside: dict[int, np.ndarray] = {}
            for k, (_name, source, shift) in enumerate(CONTEXT_ATOMS, start=N_LOCAL):
                if k not in self._needed_atoms:  # no template reads it: leave it absent
                    continue
                if shift not in inside:
                    inside[shift] = (pos + shift >= 0) & (pos + shift < length)
                shifted = np.roll(local[:, LOCAL_ATOMS.index(source)], -shift)
                atoms[:, k] = np.where(inside[shift], shifted, self._bos if shift < 0 else self._eos)
            first_upper = local[:, LOCAL_ATOMS.index("first-upper")] != ABSENT
            atoms[:, N_LOCAL + len(CONTEXT_ATOMS)] = np.where(
                first_upper, np.where(pos == 0, self._init_cap, self._mid_cap), ABSENT
            )
        w_ids = atoms[:, W0].copy()
        if rare is not None:  # rare training words: no word-identity features (Ratnaparkhi 1996's rule)
            atoms[rare, W0] = ABSENT
            atoms[rare, LOCAL_ATOMS.index("lower[i]")] = ABSENT
        rows = self.index_.rows(atoms, add=add, min_count=self.config.min_count if add else 1)
        pair_atoms = atoms
        if add and self.pair_index_.templates:  # count cut-off on the atom values of previous-tag templates
            pair_atoms = atoms.copy()
            for t in self.pair_index_.templates:
                column = pair_atoms[:, t.atoms[0]]
                values, inverse, counts = np.unique(column, return_inverse=True, return_counts=True)
                column[counts[inverse] < self.config.pair_min_count] = ABSENT
        pair_rows = self.pair_index_.rows(pair_atoms, add=add)
        T1 = len(self.tags_) + 1
        pair = np.where(pair_rows >= 0, self._emission_offset + len(self.index_) + pair_rows * T1, -1)
        rows = np.where(rows >= 0, rows + self._emission_offset, -1)
        if hasattr(self, "_cand_table"):
            in_table = w_ids < self._cand_table.shape[0]
            safe = np.where(in_table, w_ids, 0)
            mask = np.where(in_table[:, None], self._cand_table[safe], self._open_mask[None, :]).astype(np.uint8)
            known = np.where(in_table, self._known[safe], False)
        else:
            mask = np.ones((n, len(self.tags_)), dtype=np.uint8)
            known = np.ones(n, dtype=bool)
        gold = None
        if tags is not None:
            gold = np.array([self._tag_ids.get(t, -1) for s in tags for t in s], dtype=np.int64)
        return Encoded(
            rows=np.ascontiguousarray(rows),
            pair=np.ascontiguousarray(pair),
            mask=np.ascontiguousarray(mask),
            known=known,
            offsets=offsets,
            gold=gold,
        )

    def _build_tag_dictionary(self, sentences: Sequence[TaggedSentence]) -> None:
        cfg = self.config
        T = len(self.tags_)
        word_counts: Counter[str] = Counter(w for s in sentences for w in s.words)
        seen: dict[str, set[int]] = {}
        for s in sentences:
            assert s.tags is not None
            for w, t in zip(s.words, s.tags, strict=True):
                seen.setdefault(w, set()).add(self._tag_ids[t])
        table = np.repeat(self._open_mask[None, :], len(self.store_), axis=0)
        known = np.zeros(len(self.store_), dtype=bool)
        for w, tag_ids in seen.items():
            wid = self.store_.get(w)
            row = np.zeros(T, dtype=np.uint8) if word_counts[w] >= cfg.tagdict_min_count else self._open_mask.copy()
            row[list(tag_ids)] = 1
            table[wid] = row
            known[wid] = True
        self._cand_table = table
        self._known = known

    # -- training ------------------------------------------------------------------------------
    def fit(
        self,
        train: Sequence[TaggedSentence],
        dev: Sequence[TaggedSentence] | None = None,
        *,
        show_progress: bool = True,
        on_epoch: Callable[[EpochRecord], None] | None = None,
        jobs: int | None = None,
        backend: str | None = None,
        address: str | None = None,
        executor: Executor | None = None,
    ) -> Tagger:
        """Train on ``train`` (tagged sentences); pick the epoch with the best accuracy on ``dev``.

        ``config.shards > 1`` trains by iterative parameter mixing; the shards run on ``executor`` or on one made
        from (``jobs``, ``backend``, ``address``) (:mod:`glmnlp.glm.parallel`; unset: :mod:`glmnlp.config`, by
        default every core). The model depends on the shards, never on where they run.

        ``show_progress`` draws a progress bar over each pass's sentences on stderr, when stderr is a terminal and
        the passes run in this process (``jobs=1``). ``on_epoch``, if given, is called after each pass with its
        :class:`~glmnlp.glm.training.EpochRecord` (the pass, its mistakes and seconds, and ``dev_score``, the
        accuracy on ``dev`` as a fraction, or ``None`` without dev), e.g. to log it."""
        cfg = self.config
        strings = isinstance(train, str) or isinstance(dev, str)
        train, dev = list(train), None if dev is None else list(dev)  # read once: iterators are taken too
        if strings or not all(isinstance(s, TaggedSentence) for s in train + (dev or [])):
            raise TypeError("expected sequences of TaggedSentence records (formats.read_tagged reads them from a file)")
        train = [s for s in train if len(s)]
        if not train:
            raise ConfigError("no training sentences")
        if dev is not None and not any(len(s) for s in dev):  # it trained as without dev, the last epoch kept
            raise ConfigError("no dev sentence with words to choose the epoch on (dev=None keeps the last epoch)")
        for s in train + (dev or []):
            if s.tags is None:
                raise ConfigError("training and dev sentences must be tagged")
        tags = sorted({t for s in train for t in s.tags or ()})
        word_counts: Counter[str] = Counter(w for s in train for w in s.words)
        hapax_tags: Counter[str] = Counter(
            t for s in train for w, t in zip(s.words, s.tags or (), strict=True) if word_counts[w] == 1
        )
        n_hapax = sum(hapax_tags.values())
        open_tags = [t for t in tags if n_hapax and hapax_tags[t] >= cfg.open_class_min_share * n_hapax]
        if not open_tags:
            open_tags = list(tags)
        self._init_tables(
            StringStore(),
            FeatureIndex(templates_for(cfg.feature_set), N_ATOMS),
            FeatureIndex(templates_for(cfg.feature_set, previous_tag=True), N_ATOMS),
            tags,
            open_tags,
        )
        if hasattr(self, "_cand_table"):
            del self._cand_table
        for flag in FLAG_STRINGS:
            self.store_.add(flag)
        self._vocabulary = frozenset(word_counts)
        if cfg.ambiguity_min_count > 0:
            word_tags: dict[str, set[str]] = {}
            for s in train:
                for w, t in zip(s.words, s.tags or (), strict=True):
                    word_tags.setdefault(w, set()).add(t)
            self._ambiguity = {
                w: "|".join(sorted(ts)) for w, ts in word_tags.items() if word_counts[w] >= cfg.ambiguity_min_count
            }
        rare = None
        if cfg.rare_word_count > 0:
            rare = np.array([word_counts[w] <= cfg.rare_word_count for s in train for w in s.words], dtype=bool)
        encoded = self._encode([s.words for s in train], add=True, tags=[s.tags or () for s in train], rare=rare)
        self._n_vocab_types = len(self._type_ids)  # the training vocabulary's atoms stay cached
        self.index_.freeze()
        self.pair_index_.freeze()
        self._build_tag_dictionary(train)
        # the mask of the training data, now that the tag dictionary exists
        w_ids = self._type_atoms[[self._type_ids[w] for s in train for w in s.words], W0]
        encoded.mask = np.ascontiguousarray(self._cand_table[w_ids])
        T = len(self.tags_)
        task = TaggingTask(T, self._n_rows())
        examples = split_examples(encoded)
        dev_examples: list[Example] | None = None
        if dev:
            dev_list = [s for s in dev if len(s)]
            dev_enc = self._encode([s.words for s in dev_list], add=False, tags=[s.tags or () for s in dev_list])
            assert dev_enc.gold is not None
            dev_enc.gold[dev_enc.gold < 0] = T  # a tag unseen in training can never be predicted
            dev_examples = split_examples(dev_enc)
        result: TrainingResult = train_perceptron(
            task,
            examples,
            dev_examples,
            epochs=cfg.epochs,
            seed=cfg.seed,
            shuffle=cfg.shuffle,
            show_progress=show_progress,
            on_epoch=on_epoch,
            shards=cfg.shards,
            mixing=cfg.mixing,
            executor=executor,
            jobs=jobs,
            backend=backend,
            address=address,
        )
        self._weights = np.ascontiguousarray(result.weights.reshape(-1, T))
        self.history_ = result.history
        self.best_epoch_ = result.best_epoch
        self._fitted = True
        return self

    # -- tagging -------------------------------------------------------------------------------
    def _check_fitted(self) -> None:
        if not self._fitted:
            raise ConfigError("the tagger is not trained or loaded")

    def _emissions(self, enc: Encoded) -> np.ndarray:
        emis = np.empty((enc.rows.shape[0], len(self.tags_)), dtype=np.float64)
        score_rows(self._weights, enc.rows, emis)
        return emis

    def _best_ids(self, enc: Encoded, emis: np.ndarray) -> np.ndarray:
        """Viterbi's best tag ids of every sentence of ``enc`` (flat)."""
        out = np.empty(enc.rows.shape[0], dtype=np.int64)
        viterbi_batch(emis, self._weights, 0, len(self.tags_) + 1, enc.mask, enc.offsets, out, pair=enc.pair)
        return out

    def _max_marginals(self, enc: Encoded, emis: np.ndarray) -> np.ndarray:
        """(n, T) max-marginals of the one sentence of ``enc`` (see :meth:`max_marginals`)."""
        out = np.empty((enc.rows.shape[0], len(self.tags_)), dtype=np.float64)
        if enc.rows.shape[0]:
            max_marginals(emis, self._weights, 0, len(self.tags_) + 1, enc.mask, out, pair=enc.pair)
        return out

    def tag_ids(self, sentences: Sequence[Sequence[str]]) -> tuple[Encoded, np.ndarray]:
        """Encode ``sentences`` and return (encoding, best tag ids for all tokens, flat)."""
        self._check_fitted()
        enc = self._encode(sentences, add=False)
        return enc, self._best_ids(enc, self._emissions(enc))

    def clear_cache(self) -> None:
        """Forget the cached atoms of word types met while tagging (results are unchanged). The atoms of the training
        vocabulary stay cached: they are part of the trained (or loaded) model, so tagging only computes the atoms
        of words it has not seen before."""
        with self._cache_lock:  # (none without a model: an AttributeError; while loading or fitting, none yet)
            if self._fitted and len(self._type_ids) > self._n_vocab_types:
                self._type_ids = dict(itertools.islice(self._type_ids.items(), self._n_vocab_types))
                self._type_atoms = self._type_atoms[: max(self._n_vocab_types, 1)].copy()  # the rows given back too

    def tag_id(self, tag: str) -> int:
        """The row of ``tag`` in the tag set (``tags_``), or -1 for a tag the tagger does not have."""
        self._check_fitted()
        return self._tag_ids.get(tag, -1)

    def knows(self, word: str) -> bool:
        """Whether ``word`` occurred in the training data, spelled so (``"("`` and ``"-LRB-"`` are two words)."""
        self._check_fitted()
        return word in self._vocabulary

    def tag_sentences(self, sentences: Sequence[Sequence[str]], *, written: bool = False) -> list[list[str]]:
        """Best tag sequence for each sentence (batched: faster than calling :meth:`tag` in a loop); ``written`` as
        for :meth:`tag`."""
        enc, out = self.tag_ids(sentences)
        names = self._names(written)
        flat, offsets = [names[t] for t in out.tolist()], enc.offsets.tolist()
        return [flat[offsets[s] : offsets[s + 1]] for s in range(len(sentences))]

    def tag(self, words: Sequence[str], *, written: bool = False) -> list[str]:
        """The best tag sequence for one tokenised sentence: the model's own labels (:attr:`tags_`: STTS ``$-LRB-``
        from trees), or with ``written=True`` as every output of tags writes them (``$(``, as ``glmnlp tag`` and
        ``Sentence.tags``); :meth:`Parser.parse <glmnlp.parser.model.Parser.parse>` reads either.

        A word is any non-empty string, a space inside it too (a CoNLL-U FORM may hold one, and the tagger's features
        read it as they read any character); :meth:`Parser.parse <glmnlp.parser.model.Parser.parse>` refuses one,
        since a tree's bracket notation cannot write it, and so does the ``word/TAG`` writer."""
        return self.tag_sentences([words], written=written)[0]

    def max_marginals(self, words: Sequence[str]) -> np.ndarray:
        """(n, T) array: the score of the best full sequence with tag v at position i (-inf if excluded)."""
        self._check_fitted()
        enc = self._encode([words], add=False)
        return self._max_marginals(enc, self._emissions(enc))

    def multitag(self, words: Sequence[str], margin: float, *, written: bool = False) -> list[list[str]]:
        """For each word, the tags whose best full sequence scores within ``margin`` of the best; best first. A tag
        with no full sequence (one the tag dictionary rules out for the word: max-marginal ``-inf``) is never among
        them, at ``margin=inf`` either. ``written`` as for :meth:`tag`."""
        return self._within(self.max_marginals(words), margin, written)

    def tag_and_multitag(self, words: Sequence[str], margin: float, *, written: bool = False
                         ) -> tuple[list[str], list[list[str]]]:
        """:meth:`tag` and :meth:`multitag` of one sentence from one encoding and one set of emission
        scores (what a pipeline with a multi-tag margin needs: the features are computed once); ``written`` as for
        :meth:`tag`."""
        self._check_fitted()
        enc = self._encode([words], add=False)
        emis = self._emissions(enc)
        names = self._names(written)
        return [names[t] for t in self._best_ids(enc, emis).tolist()], self._within(self._max_marginals(enc, emis),
                                                                                    margin, written)

    def _names(self, written: bool) -> Sequence[str]:
        """The tags by id: the model's labels, or (``written``) as outputs of tags write them (:meth:`tag`)."""
        return [written_tag(t) for t in self.tags_] if written else self.tags_

    def _within(self, mm: np.ndarray, margin: float, written: bool = False) -> list[list[str]]:
        """Per row of max-marginals, the tags within ``margin`` of the row's best, best first (ties in
        tag order): a prefix of the row's stable descending order, found for all rows at once; ``written`` as for
        :meth:`tag`."""
        if not margin >= 0:  # NaN too: it would keep no tag at all
            raise ConfigError(f"margin must be >= 0, got {margin}")
        if not len(mm):
            return []
        order = np.argsort(-mm, axis=1, kind="stable")
        ranked = np.take_along_axis(mm, order, axis=1)  # -inf >= best - inf: a tag without a sequence is left out
        kept = ((ranked >= mm.max(axis=1, keepdims=True) - margin) & (ranked > -np.inf)).sum(axis=1)
        names = self._names(written)
        return [[names[t] for t in row[:k]] for row, k in zip(order.tolist(), kept.tolist())]

    def explain(self, words: Sequence[str]) -> list[list[str]]:
        """The history features of each position, as ``"template=value"`` strings: the features that do not read
        the tags, each of which the model conjoins with every candidate tag t_i (rows of the weight table, one
        weight per tag), and those conjoined with the tag bigram, named ``t[i-1]&...`` (a block per previous
        tag). Not listed: the tag bigram (t_{i-1}, t_i) and trigram (t_{i-2}, t_{i-1}, t_i) features, which
        fire at every position and which Viterbi adds for each pair of tags, so a tag is chosen by these
        features and those together (module header)."""
        return history_features(self, words)

    # -- evaluation ----------------------------------------------------------------------------
    def evaluate(self, sentences: Sequence[TaggedSentence], *, top_confusions: int = 10) -> TaggingScore:
        """Accuracy of :meth:`tag` against the gold tags of ``sentences`` (known/unknown split;
        :func:`glmnlp.tagger.evaluation.tagging_score`)."""
        return tagging_score(self, sentences, top_confusions)

    def multitag_scores(self, sentences: Sequence[TaggedSentence], margins: Iterable[float]) -> list[MultitagScore]:
        """Tags per word and oracle accuracy (gold tag among the multitags) at each margin
        (:func:`glmnlp.tagger.evaluation.multitag_scores`)."""
        return multitag_scores(self, sentences, margins)

    # -- model files (the format: glmnlp.tagger.files) -----------------------------------------------
    def to_parts(self) -> tuple[dict[str, Any], dict[str, np.ndarray]]:
        """(metadata, arrays) for :func:`glmnlp.glm.model_io.save_model` (also usable as a sub-model)."""
        return tagger_to_parts(self)

    def save(self, directory: str | Path, *, replace: bool = True) -> None:
        """Write the model directory atomically (:mod:`glmnlp.glm.model_io`): ``directory`` must be absent, empty or
        (with ``replace``) a tagger model and nothing else; else a ConfigError, and it is left untouched."""
        metadata, arrays = self.to_parts()
        save_model(directory, kind="tagger", metadata=metadata, arrays=arrays, replace=replace)

    @classmethod
    def from_parts(cls, metadata: dict[str, Any], arrays: dict[str, np.ndarray], source: str = "<model>") -> Tagger:
        """Rebuild a tagger from :meth:`to_parts` output (validated)."""
        return tagger_from_parts(cls, metadata, arrays, source)

    @staticmethod
    def describe(directory: str | Path) -> dict[str, Any]:
        """What a pipeline asks of the tagger at ``directory`` before it tags (``multitag``: true),
        without loading it; the files are checked as far as their checksums."""
        verify_model(directory, kind="tagger", user="glmnlp.Tagger.load")
        return {"multitag": True}

    @classmethod
    def load(cls, directory: str | Path) -> Tagger:
        """Load a model directory written by :meth:`save`."""
        return read_unchanged(directory, lambda: cls.from_parts(  # the error may be in either file; a folder
            *load_model(directory, kind="tagger", names=TAGGER_ARRAYS, user="glmnlp.Tagger.load"),  # replaced: again
            source=str(Path(directory))))


