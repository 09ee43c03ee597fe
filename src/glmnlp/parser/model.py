"""The incremental beam-search constituency parser trained with the averaged perceptron (Collins & Roark 2004).

What it implements (paper §3-§4; SPEC §0, §a, §b, §d):

* **Decoder** (:mod:`glmnlp.parser._beam`): word-synchronous beam search over the FSLC-transformed grammar
  (:mod:`glmnlp.parser.transform`, :mod:`glmnlp.parser.grammar`). ADV attaches every allowable chain of the next
  word at every legal site of the right frontier (closures checked against the triples); FILTER
  keeps h_k while ``score(h_k) >= score(h_0) - gamma / k**3`` (SPEC §a, [R] formula) with an optional
  hard cap on the beam size. ``gamma`` and the cap are configuration, tuned on dev (:func:`tune_beam`)
  and saved in the model.
* **Features**: every built node (chain nodes and END closures) fires the templates of
  :data:`TEMPLATES`, hashed into a ``2**n_bits`` weight table. Two switchable groups: ``baseline``
  (SPEC §b.3) and ``punct`` (= baseline + the three punctuation features of §b.4).
* **Training** (:func:`train_parser`): averaged perceptron on full parses with early update (§d.4;
  stop at the first word whose beam lost the gold prefix, update gold prefix against the best
  member) and the repeated use of hypotheses (cache, T1 = 5, T2 = 50), each switchable; per-epoch
  dev F1 and best-epoch selection; deterministic for a seed.
* **Robustness** (:meth:`Parser.parse`): if the beam empties or no hypothesis can be closed, the
  sentence is retried with a 10x wider gamma and no cap; if that fails too it gets the default
  structure ``(TOP (S (T1 w1) ... (Tn wn)))`` (flat S over the first candidate tags). Such sentences
  are counted in :attr:`Parser.stats`.

* **Generative term** (optional, :mod:`glmnlp.parser.combined`): ``Parser.generative`` (a
  ``GenerativeTerm``) adds its fixed weight times the generative log-probability of every built node
  to the scores; it is saved as the ``generative`` sub-model of the model directory.
  :meth:`Parser.surprisal` gives per-word surprisal (bits) from it.

Choices [R] (documented deviations or reconstructions):

* Look-ahead (SPEC §b.2): nodes built while word i is absorbed (its chain and the closures before
  it) get LK = w_i and LKP = the POS at the bottom of the chain being attached, so multi-tag input
  needs no separate tagging decision. The closures after the last word get LK = LKP = end-of-sentence.
* Punctuation feature (ii) uses the first candidate tag of w_{i+1}; feature (iii) fires when the new
  node's left sibling L01 is itself preceded by a punctuation POS (L02 is punctuation); features are
  conjoined with L00 and with (L00, L10).
* A POS tag counts as punctuation when more than 90% of its training tokens contain no letter,
  digit, apostrophe, ``#`` or ``$`` (Roark's rule, SPEC §b.5).
* Words enter features as a stable 64-bit hash of the word string (no vocabulary file).
* Training adds a gold chain to a sentence's candidates when the grammar's count filter dropped it
  (rare long chains), so the gold derivation is always reachable during training.
* Cache sweep (SPEC §d.4 cost warning): after each training sentence, step 2 visits the current
  entry and ``cache_sample`` (default 16) entries drawn with the seeded generator, T1 = 5 times,
  instead of all N entries (which costs O(N^2) per pass). Each entry keeps at most
  ``cache_members`` (default 8) best-scoring candidates, stored as signed feature-id vectors of the
  difference Phi(t) - Phi(gold) restricted to the steps after their first disagreement (the shared
  prefix's features cancel exactly). An entry updates only while a stored candidate strictly
  outscores gold (a tie goes to gold), at most T2 times until the entry is refreshed. Measured on the
  sample (benchmarks/results/training_curves.md, 6 passes, gold tags, +punct): the cache now helps
  (dev F1 85.51 vs 84.03 without it) at about 4x the training time per pass. Before ties were given
  to gold and before COORD saw across the FSLC slash node, the cache lost 82.0 vs 83.7 at pass 4;
  the two changes were not ablated separately on the full sample (on 1,200 trees, 3 passes, the
  tie rule alone moved dev F1 from 80.32 to 80.58, within noise; no cache: 79.61).
* COORD (SPEC §b.2 item 9) on FSLC trees: coordination X -> X CC X is left-recursive, so the
  transform turns (NP (NP a b) (CC and) (NP c d)) into (NP a b (NP/NP (CC and) (NP c d))) and the CC
  has no left sibling. When the CC (punctuation skipped) is the first child of a slash node X/Y with
  Y = the parent's label, the earlier conjunct is X's prefix and COORD is X's first child. As in
  SPEC §b.3 [R], COORD enters the non-POS templates only, so it fires for a non-POS leftmost child
  of the later conjunct.
* Feature hashing: the 2**22 table (``n_bits`` = 22). The gold derivations of the sample training
  split (wsj_0001-0159, +punct) fire 340,976 distinct features (counted with 62-bit ids); masked to
  22 bits they occupy 327,417 slots, so 13,559 features (3.98%) share a slot with another (load
  0.078). For comparison 2**20: 14.6%, 2**24: 0.99%. Features of the wrong parses met in training
  add to this; 2**22 keeps collisions at a few per cent for a model file of a few MB (sparse).
"""

from __future__ import annotations

import hashlib
import math
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from glmnlp.parser._beam import BeamParser
from glmnlp.parser.derivation import Step, derive, replay
from glmnlp.errors import InputError, ModelFileError
from glmnlp.parser.grammar import END, TOP, Grammar
from glmnlp.glm.model_io import ModelParts, load_model, load_submodel, read_metadata, save_model
from glmnlp.glm.perceptron import AveragedPerceptron
from glmnlp.parser.transform import FslcConfig, fslc_detransform, fslc_transform
from glmnlp.treebank.trees import Tree

__all__ = [
    "TEMPLATES",
    "ParserConfig",
    "Parser",
    "EpochLog",
    "train_parser",
    "tune_beam",
    "word_atom",
]

MODEL_KIND = "glmnlp-parser"

#: Every feature template, by group. L00 is the new node's label; a conjunction "a+b+c" fires once
#: per built node. Non-POS nodes include the END closures. Kept in sync with ``_beam.pyx``.
TEMPLATES: dict[str, list[str]] = {
    "nonpos": [
        "L00",
        "L00+L10",
        "L00+L10+L01",
        "L00+L10+L01+L02",
        "L00+L10+L01+L02+L03",
        "L00+L10+L01+L02+L03+L20",
        "L00+L10+L01+L02+L03+L20+L11",
        "L00+L10+L01+L02+L03+L20+L11+L30",
        "L00+L10+L01+L02+L03+L20+L11+L30+L21",
        "L00+L10+L01+L02+L03+L20+L11+L30+L21+COORD",
        "L00+L10+L01+L02+L03+L20+L11+L30+L21+COORD+CL",
        "L00+LKP",
        "L00+LK",
        "L00+L10+LKP",
        "L00+L10+LK",
        "L00+L10+L01+LKP",
    ],
    "pos": [
        "L00",
        "L00+L10",
        "L00+L10+L01",
        "L00+L10+L01+L20",
        "L00+L10+L01+L20+CCP",
        "L00+L10+L01+L20+CCP+CC",
        "L00+LK",
        "L00+L10+LK",
        "L00+LK+CC",
    ],
    "punct": [
        "L00+QUESTION (final punctuation is '?')",
        "L00+L10+QUESTION",
        "L00+NEXTPOS (only when LK is punctuation or CC; NEXTPOS = tag of the word after LK)",
        "L00+L10+NEXTPOS (same condition)",
        "L00+LK_IS_PUNCT (only when L02, the word-position left of L01, is punctuation)",
        "L00+L10+LK_IS_PUNCT (same condition)",
    ],
}
FEATURE_SETS = ("baseline", "punct")
ATOM_DOC = (
    "L_ij: label i levels up and j siblings left of the new node (NULL when absent); COORD: for a "
    "leftmost child, the first child's label of the conjunct before a CC preceding the parent; CL: "
    "head word of the parent so far; CC/CCP: c-commanding head word/POS; LK/LKP: look-ahead word and "
    "POS (the word being absorbed and its chain's POS)."
)


def word_atom(word: str) -> int:
    """Stable nonzero 62-bit hash of a word (0 is the NULL atom, 1 the end-of-sentence atom)."""
    digest = hashlib.blake2b(word.encode("utf-8"), digest_size=8).digest()
    return (int.from_bytes(digest, "little") >> 2) | 2


def punctuation_tags(trees: Iterable[Tree]) -> set[str]:
    """POS tags whose tokens are more than 90% free of letters, digits, ', # and $ (SPEC §b.5)."""
    total: dict[str, int] = {}
    plain: dict[str, int] = {}
    for tree in trees:
        for word, tag in tree.pos():
            total[tag] = total.get(tag, 0) + 1
            if not any(ch.isalnum() or ch in "'#$" for ch in word):
                plain[tag] = plain.get(tag, 0) + 1
    return {t for t, n in total.items() if plain.get(t, 0) > 0.9 * n}


@dataclass
class ParserConfig:
    """Training and decoding configuration (saved in the model)."""

    features: str = "punct"  # "baseline" or "punct"
    gamma: float = 1e4  # FILTER margin (SPEC §a); with the cap below the cap binds (dev: Figure 5 runs)
    beam_cap: int = 30  # hard cap on the beam (0 = none) when parsing
    train_gamma: float = 1e4  # training beam: the cap binds (measured setting of the benchmarks)
    train_cap: int = 30
    n_bits: int = 22
    early_update: bool = True
    cache: bool = True
    cache_t1: int = 5
    cache_t2: int = 50
    cache_sample: int = 16
    cache_members: int = 8
    epochs: int = 8
    seed: int = 0
    fslc_extra_pairs: tuple[tuple[str, str], ...] = (("SINV", "S"),)

    def __post_init__(self) -> None:
        if self.features not in FEATURE_SETS:
            raise ValueError(f"features must be one of {FEATURE_SETS}, got {self.features!r}")
        self.fslc_extra_pairs = tuple(tuple(p) for p in self.fslc_extra_pairs)  # type: ignore[misc]

    @property
    def fslc(self) -> FslcConfig:
        """The tree transform used for the grammar."""
        return FslcConfig(left_recursion=True, extra_pairs=self.fslc_extra_pairs)


@dataclass
class _Example:
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


class Parser:
    """A trained parser: grammar, chain table, hashed weights and beam settings."""

    def __init__(
        self, grammar: Grammar, punct_tags: set[str], weights: np.ndarray, config: ParserConfig,
        extra_chains: Sequence[tuple[int, ...]] = (),
    ) -> None:
        self.grammar = grammar
        self.config = config
        self.punct_tags = set(punct_tags)
        self.weights = np.ascontiguousarray(weights, dtype=np.float64)
        if self.weights.shape[0] != 1 << config.n_bits:
            raise ValueError("weight table size does not match n_bits")
        self.stats = {"sentences": 0, "retried": 0, "fallback": 0}
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
        triples = np.zeros(n * n * n, dtype=np.uint8)
        for x, y, z in grammar.triples:
            triples[(x * n + y) * n + z] = 1
        pos_set = set(grammar.pos_tags)
        is_pos = np.array([1 if (c[1] is None and c[0] in pos_set) else 0 for c in cats], dtype=np.uint8)
        is_punct = np.array([1 if (c[1] is None and c[0] in self.punct_tags) else 0 for c in cats], dtype=np.uint8)
        first_letter = np.array([ord(c[0][0]) if c[0] else 0 for c in cats], dtype=np.int32)
        self._cc = grammar.lookup("CC")
        self._tables = (n, triples, is_pos, is_punct, first_letter)
        self._beam = self._make_beam()

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
        isq = 1 if words and words[-1] == "?" else 0
        off = np.zeros(n + 1, dtype=np.int32)
        ids: list[int] = []
        for i in range(n):
            table = self._first_by_tag if i == 0 else self._by_tag
            chosen: set[int] = set()
            for tag in tags[i]:
                chosen.update(table.get(tag, ()))
            if extra is not None and i in extra:
                chosen.add(extra[i])
            ids.extend(sorted(chosen, key=lambda c: (self.chain_pos(c), c)))
            off[i + 1] = len(ids)
        return atoms, next_pos, isq, off, np.array(ids, dtype=np.int32)

    @property
    def _punct(self) -> int:
        return 1 if self.config.features == "punct" else 0

    # -- parsing ----------------------------------------------------------------------------------
    def parse_nbest(
        self, words: Sequence[str], tags: Sequence[str | Sequence[str]], k: int = 1
    ) -> list[tuple[float, Tree]]:
        """The k best trees (de-transformed, TOP-rooted) with their scores, best first.

        ``tags[i]`` is one POS tag or a list of candidate tags (multi-tag input: the chains of word
        i are the union over them). Never fails: see the module docstring for the fallbacks.
        """
        if not words:
            raise InputError("cannot parse an empty sentence")
        if len(words) != len(tags):
            raise InputError(f"{len(words)} words but {len(tags)} tag entries")
        tag_lists = [[t] if isinstance(t, str) else list(t) for t in tags]
        if any(not t for t in tag_lists):
            raise InputError("every word needs at least one candidate tag")
        self.stats["sentences"] += 1
        atoms, next_pos, isq, off, cand = self._inputs(words, tag_lists)
        self._configure_generative(words, tag_lists)
        none = np.zeros(0, dtype=np.int32)
        attempts = [(self.config.gamma, self.config.beam_cap), (self.config.gamma * 10, 0)]
        for attempt, (gamma, cap) in enumerate(attempts):
            result = self._beam.decode(
                atoms, next_pos, isq, self._punct, off, cand, self.weights, gamma, cap, none, none, False, k
            )
            if result["status"] == "complete":
                if attempt:
                    self.stats["retried"] += 1
                return [
                    (score, self._tree(words, sites, chains)) for score, _gold, sites, chains in result["beam"]
                ]
        self.stats["fallback"] += 1
        return [(float("-inf"), default_tree(words, [t[0] for t in tag_lists]))]

    def parse(self, words: Sequence[str], tags: Sequence[str | Sequence[str]]) -> Tree:
        """The best tree for a tagged sentence."""
        return self.parse_nbest(words, tags, 1)[0][1]

    # -- generative term (glmnlp.parser.combined) --------------------------------------------------------
    generative: Any = None

    def _configure_generative(self, words: Sequence[str], tag_lists: Sequence[Sequence[str]]) -> None:
        term = self.generative
        if term is not None:
            self._beam.set_generative(term.model.kernel, term.weight, term.word_ids(words, tag_lists, self.grammar))

    def _configure_generative_off(self) -> None:
        self._beam.set_generative(None, 0.0, np.zeros(0, dtype=np.int64))

    def surprisal(self, words: Sequence[str], tags: Sequence[str | Sequence[str]]) -> list[float]:
        """Per-word surprisal in bits, -log2 P(w_i | w_0..w_{i-1}), from the generative model's beam.

        Needs a model with a generative term (generative or combined). The prefix probability after
        word i is the sum of the generative probabilities of the beam members (glmnlp.parser.combined).
        """
        from glmnlp.parser.combined import prefix_logprobs, surprisal_bits

        if not words:
            raise InputError("cannot compute surprisal for an empty sentence")
        if len(words) != len(tags):
            raise InputError(f"{len(words)} words but {len(tags)} tag entries")
        return surprisal_bits(prefix_logprobs(self, words, tags))

    def _tree(self, words: Sequence[str], sites: np.ndarray, chains: np.ndarray) -> Tree:
        steps = [Step(int(s), self._chains[int(c)]) for s, c in zip(sites, chains)]
        return fslc_detransform(replay(list(words), steps, self.grammar))

    # -- persistence ------------------------------------------------------------------------------
    def save(self, path: str | Path, *, history: Sequence[dict[str, Any]] = (), prune: float = 0.0) -> None:
        """Write the model directory (JSON metadata + npz arrays; no pickle).

        The hashed weight table is stored sparsely: ``weight_index`` (uint32, strictly ascending)
        lists the slots with ``|w| > prune`` and ``weight_value`` (float64) their weights; :meth:`load`
        rebuilds the dense table. ``prune = 0`` keeps every non-zero weight, so the loaded model
        parses exactly as this one; ``prune > 0`` drops small weights for a smaller file.
        """
        if not (prune >= 0.0 and math.isfinite(prune)):
            raise ValueError(f"prune must be a finite number >= 0, got {prune!r}")
        index = np.flatnonzero(np.abs(self.weights) > prune).astype(np.uint32)
        values = np.ascontiguousarray(self.weights[index], dtype=np.float64)
        cfg = asdict(self.config)
        cfg["fslc_extra_pairs"] = [list(p) for p in self.config.fslc_extra_pairs]
        metadata = {
            "config": cfg,
            "grammar": self.grammar.to_json(),
            "punct_tags": sorted(self.punct_tags),
            "extra_chains": [list(c) for c in self._chains],
            "templates": TEMPLATES,
            "template_groups_active": ["nonpos", "pos"] + (["punct"] if self._punct else []),
            "atoms": ATOM_DOC,
            "hashing": f"64-bit multiply-xorshift fold, murmur3 finaliser, table of 2**{self.config.n_bits}",
            "history": list(history),
            "weight_storage": {"format": "sparse", "table_size": int(self.weights.shape[0]), "prune": prune,
                               "stored": int(index.shape[0])},
        }
        submodels = {}
        if self.generative is not None:
            gen_meta, gen_arrays = self.generative.to_parts()
            submodels["generative"] = ModelParts(kind="glmnlp-generative-term", metadata=gen_meta, arrays=gen_arrays)
        save_model(path, kind=MODEL_KIND, metadata=metadata, arrays={"weight_index": index, "weight_value": values},
                   submodels=submodels)

    @classmethod
    def load(cls, path: str | Path) -> Parser:
        """Read a model written by :meth:`save`."""
        metadata, arrays = load_model(path, kind=MODEL_KIND)
        try:
            cfg = dict(metadata["config"])
            cfg["fslc_extra_pairs"] = tuple(tuple(p) for p in cfg["fslc_extra_pairs"])
            config = ParserConfig(**cfg)
            grammar = Grammar.from_json(metadata["grammar"])
            parser = cls(
                grammar, set(metadata["punct_tags"]), _dense_weights(arrays, 1 << config.n_bits, path), config,
                extra_chains=[tuple(c) for c in metadata["extra_chains"]],
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise ModelFileError(f"{path}: not a valid parser model: {exc}") from None
        parser.history = list(metadata.get("history", []))
        if "generative" in read_metadata(path).get("submodels", {}):
            from glmnlp.parser.combined import GenerativeTerm

            gen_meta, gen_arrays = load_submodel(path, "generative", kind="glmnlp-generative-term")
            parser.generative = GenerativeTerm.from_parts(gen_meta, gen_arrays)
        return parser

    history: list[dict[str, Any]] = []

    # -- training helpers ---------------------------------------------------------------------------
    def example(self, tree: Tree, transformed: Tree, tags: Sequence[Sequence[str]] | None = None) -> _Example:
        """Arrays and gold steps of a training tree (``transformed`` = its FSLC form)."""
        words = tree.leaves()
        tag_lists = [list(t) for t in tags] if tags is not None else [[t] for t in tree.tags()]
        steps = derive(transformed, self.grammar)
        gold_chain = np.array([self._add_chain_known(s.chain) for s in steps], dtype=np.int32)
        gold_site = np.array([s.site for s in steps], dtype=np.int32)
        extra = {i: int(c) for i, c in enumerate(gold_chain)}
        atoms, next_pos, isq, off, cand = self._inputs(words, tag_lists, extra)
        return _Example(words, tag_lists, atoms, next_pos, isq, off, cand, gold_site, gold_chain)

    def _add_chain_known(self, chain: tuple[int, ...]) -> int:
        found = self._chain_id.get(tuple(chain))
        if found is None:
            raise ValueError(f"chain {self.grammar.chain_names(chain)} missing from the chain table")
        return found

    def features(self, ex: _Example, sites: np.ndarray, chains: np.ndarray, complete: bool) -> tuple[np.ndarray, np.ndarray]:
        """Feature ids (and per-step offsets) of a derivation of ``ex``."""
        return self._beam.features(
            ex.atoms, ex.next_pos, ex.isq, self._punct, np.ascontiguousarray(sites, dtype=np.int32),
            np.ascontiguousarray(chains, dtype=np.int32), complete,
        )


def _dense_weights(arrays: dict[str, np.ndarray], size: int, path: str | Path) -> np.ndarray:
    """The dense weight table of a model file: sparse (index, value) arrays, or a dense ``weights`` array."""
    if "weights" in arrays:  # dense tables written before the sparse format
        return arrays["weights"]
    index, values = arrays.get("weight_index"), arrays.get("weight_value")
    if index is None or values is None:
        raise ModelFileError(f"{path}: parser model has no weight_index/weight_value arrays")
    if index.ndim != 1 or index.shape != values.shape or index.dtype != np.uint32 or values.dtype != np.float64:
        raise ModelFileError(f"{path}: weight_index must be uint32 and weight_value float64, both 1-D of one length")
    if index.shape[0] and (int(index[-1]) >= size or bool(np.any(index[1:] <= index[:-1]))):
        raise ModelFileError(f"{path}: weight_index must be strictly ascending and below the table size {size}")
    dense = np.zeros(size, dtype=np.float64)
    dense[index] = values
    return dense


def default_tree(words: Sequence[str], tags: Sequence[str]) -> Tree:
    """The fallback analysis: a flat S over the POS-tagged words under TOP."""
    return Tree("TOP", (Tree("S", tuple(Tree(t, (w,)) for w, t in zip(words, tags))),))


# ----------------------------------------------------------------------------------------------------
# training


@dataclass
class EpochLog:
    """One training pass: dev F1 of the averaged weights, updates, early stops, time."""

    epoch: int
    dev_f1: float
    updates: int
    early_stops: int
    cache_updates: int
    seconds: float
    seconds_per_sentence: float
    mean_beam: float


@dataclass
class _CacheEntry:
    ids: list[np.ndarray] = field(default_factory=list)  # per candidate: signed ids of Phi(t) - Phi(g)
    signs: list[np.ndarray] = field(default_factory=list)
    offsets: list[float] = field(default_factory=list)  # generative term of Phi(t) - Phi(g) (fixed weight)
    count: int = 0


def _diff(
    parser: Parser, ex: _Example, gold_ids: np.ndarray, gold_off: np.ndarray, sites: np.ndarray, chains: np.ndarray,
    complete: bool,
) -> tuple[np.ndarray, np.ndarray]:
    """Phi(t) - Phi(gold prefix of the same length) as (ids, signs), restricted to the disagreeing suffix."""
    n = len(sites)
    d = 0
    while d < n and ex.gold_site[d] == sites[d] and ex.gold_chain[d] == chains[d]:
        d += 1
    t_ids, t_off = parser.features(ex, sites, chains, complete)
    g_from = gold_off[d] if d < len(gold_off) else gold_off[-1]
    ids = np.concatenate([t_ids[t_off[d]:], gold_ids[g_from:]])
    signs = np.concatenate([np.ones(len(t_ids) - t_off[d], dtype=np.int8), -np.ones(len(gold_ids) - g_from, dtype=np.int8)])
    return ids, signs


def evaluate(parser: Parser, trees: Sequence[Tree], tags: Sequence[Sequence[Sequence[str]]] | None = None) -> Any:
    """Parse ``trees``' words (with their gold tags or the given tag lists) and score with EVALB (COLLINS.prm)."""
    from glmnlp.treebank.evalb import score_trees

    out = []
    for i, tree in enumerate(trees):
        t = tags[i] if tags is not None else tree.tags()
        out.append(parser.parse(tree.leaves(), t))
    return score_trees(list(trees), out), out


def prepare_training(
    train_trees: Sequence[Tree],
    config: ParserConfig,
    weights: np.ndarray,
    train_tags: Sequence[Sequence[Sequence[str]]] | None = None,
) -> tuple[Parser, list[_Example]]:
    """Grammar, punctuation tags and beam-ready examples of a training set (shared by every trainer).

    ``train_tags`` (optional) replaces the POS tags of the training trees (the first tag of each
    word becomes the preterminal label). Every gold chain gets an id, even one the grammar's count
    filter dropped (rare long chains), so each gold derivation is reachable during training.
    """
    from glmnlp.parser.grammar import tree_chains

    if train_tags is not None:
        train_trees = [retag(t, [tl[0] for tl in tags]) for t, tags in zip(train_trees, train_tags)]
    transformed = [fslc_transform(t, config.fslc) for t in train_trees]
    grammar = Grammar.induce(transformed)
    parser = Parser(grammar, punctuation_tags(train_trees), weights, config)
    for tree in transformed:
        for _site, chain in tree_chains(tree):
            parser._add_chain(tuple(grammar.category_id(lab, sl) for lab, sl in chain))
    parser._beam = parser._make_beam()
    examples = [
        parser.example(t, tt, None if train_tags is None else train_tags[i])
        for i, (t, tt) in enumerate(zip(train_trees, transformed))
    ]
    return parser, examples


def train_parser(
    train_trees: Sequence[Tree],
    dev_trees: Sequence[Tree],
    config: ParserConfig,
    *,
    train_tags: Sequence[Sequence[Sequence[str]]] | None = None,
    dev_tags: Sequence[Sequence[Sequence[str]]] | None = None,
    on_epoch: Callable[[EpochLog], None] | None = None,
    show_progress: bool = True,
    generative: Any = None,
) -> tuple[Parser, list[EpochLog]]:
    """Train a parser; returns the best-epoch (dev F1) parser and the per-epoch log.

    ``train_trees``/``dev_trees`` are cleaned TOP-rooted trees. ``train_tags`` (optional) replaces
    the POS tags of the training trees (e.g. jackknifed tagger tags, one list per word; the first
    tag replaces the preterminal label); ``dev_tags`` gives the parser's dev input tags.
    ``generative`` (a glmnlp.parser.combined.GenerativeTraining) adds the fixed-weight generative feature.
    """
    from glmnlp.glm.training import epoch_order, progress

    perc = AveragedPerceptron(1 << config.n_bits)
    parser, examples = prepare_training(train_trees, config, perc.weights, train_tags)
    grammar, punct = parser.grammar, parser.punct_tags
    if generative is not None:
        generative.prepare(parser, examples)
    rng = np.random.default_rng(config.seed)
    cache: dict[int, _CacheEntry] = {}
    none = np.zeros(0, dtype=np.int32)
    logs: list[EpochLog] = []
    best_f1, best_weights, best_epoch = -1.0, None, 0
    for epoch in range(1, config.epochs + 1):
        started = time.perf_counter()
        updates = early = cache_updates = 0
        beam0, cand0 = parser._beam.n_beam, parser._beam.n_candidates
        words_seen = 0
        order = epoch_order(len(examples), config.seed, epoch)
        bar = progress(order.tolist(), total=len(examples), desc=f"epoch {epoch}", enabled=show_progress)
        for idx in bar:
            ex = examples[idx]
            weights = perc.weights
            if generative is not None:
                generative.before_decode(parser, idx, ex)
            res = parser._beam.decode(
                ex.atoms, ex.next_pos, ex.isq, parser._punct, ex.cand_off, ex.cand_chain, weights,
                config.train_gamma, config.train_cap, ex.gold_site, ex.gold_chain, config.early_update, 0,
            )
            words_seen += res["word"]
            status, beam = res["status"], res["beam"]
            complete = status == "complete"
            if status == "early":
                early += 1
            prefix = len(ex.words) if complete else (res["word"] + 1 if status == "early" else res["word"])
            if prefix == 0 or not beam:
                perc.tick()
                continue
            gold_ids, gold_off = parser.features(ex, ex.gold_site[:prefix], ex.gold_chain[:prefix], complete)
            best = beam[0]
            if not best[1]:
                ids, signs = _diff(parser, ex, gold_ids, gold_off, best[2], best[3], complete)
                perc.update(ids, -signs.astype(np.float64))
                updates += 1
            if config.cache:
                entry = _CacheEntry()
                weights = perc.weights
                gold_gen = 0.0
                if generative is not None:
                    gold_gen = generative.score(parser, ex, ex.gold_site[:prefix], ex.gold_chain[:prefix], complete)
                for member in beam[: config.cache_members]:
                    if member[1]:
                        continue
                    ids, signs = _diff(parser, ex, gold_ids, gold_off, member[2], member[3], complete)
                    entry.ids.append(ids.astype(np.int32))
                    entry.signs.append(signs)
                    if generative is not None:
                        entry.offsets.append(generative.score(parser, ex, member[2], member[3], complete) - gold_gen)
                cache[idx] = entry
                keys = list(cache)
                for _ in range(config.cache_t1):
                    sample = [idx]
                    if len(keys) > 1:
                        sample += [keys[j] for j in rng.integers(0, len(keys), size=config.cache_sample)]
                    for key in sample:
                        cache_updates += _cache_step(perc, cache[key], config.cache_t2)
            perc.tick()
        seconds = time.perf_counter() - started
        averaged = perc.averaged()
        trial = Parser(grammar, punct, averaged, config, extra_chains=parser._chains)
        trial.generative = None if generative is None else generative.final_term()
        result, _ = evaluate(trial, dev_trees, dev_tags)
        mean_beam = (parser._beam.n_beam - beam0) / max(1, words_seen)
        log = EpochLog(
            epoch, result.fmeasure, updates, early, cache_updates, seconds, seconds / max(1, len(examples)), mean_beam
        )
        logs.append(log)
        if on_epoch is not None:
            on_epoch(log)
        if result.fmeasure > best_f1:
            best_f1, best_weights, best_epoch = result.fmeasure, averaged, epoch
    assert best_weights is not None
    final = Parser(grammar, punct, best_weights, config, extra_chains=parser._chains)
    final.generative = None if generative is None else generative.final_term()
    final.history = [asdict(log) for log in logs] + [{"best_epoch": best_epoch}]
    return final, logs


def _cache_step(perc: AveragedPerceptron, entry: _CacheEntry, t2: int) -> int:
    """One visit of a cache entry (paper Figure 4, step 2): update if the best stored candidate beats gold."""
    if entry.count >= t2 or not entry.ids:
        return 0
    w = perc.weights
    best_k, best_s = -1, 0.0
    for k, (ids, signs) in enumerate(zip(entry.ids, entry.signs)):
        s = float(np.dot(w[ids], signs)) + (entry.offsets[k] if entry.offsets else 0.0)
        if best_k < 0 or s > best_s:
            best_k, best_s = k, s
    # z != g: update only when a stored candidate strictly outscores gold (difference 0); ties go to gold.
    if best_s <= 0.0:
        return 0
    perc.update(entry.ids[best_k], -entry.signs[best_k].astype(np.float64))
    entry.count += 1
    return 1


def retag(tree: Tree, tags: Sequence[str]) -> Tree:
    """A copy of ``tree`` with its preterminal labels replaced by ``tags`` (left to right)."""
    it = iter(tags)

    def walk(node: Tree) -> Tree:
        if node.is_preterminal:
            return Tree(next(it), node.children)
        return Tree(node.label, tuple(walk(c) if isinstance(c, Tree) else c for c in node.children), node.slash)

    return walk(tree)


def tune_beam(
    parser: Parser, dev_trees: Sequence[Tree], gammas: Sequence[float], caps: Sequence[int],
    dev_tags: Sequence[Sequence[Sequence[str]]] | None = None,
) -> list[tuple[float, int, float, float]]:
    """Try (gamma, cap) pairs on dev; set the best F1 (ties: faster) on ``parser``. Returns (gamma, cap, F1, sent/s)."""
    rows = []
    for gamma in gammas:
        for cap in caps:
            parser.config.gamma, parser.config.beam_cap = gamma, cap
            t0 = time.perf_counter()
            result, _ = evaluate(parser, dev_trees, dev_tags)
            rate = len(dev_trees) / (time.perf_counter() - t0)
            rows.append((gamma, cap, result.fmeasure, rate))
    best = max(rows, key=lambda r: (round(r[2], 2), r[3]))
    parser.config.gamma, parser.config.beam_cap = best[0], best[1]
    return rows


def jackknife_tags(
    trees: Sequence[Tree], folds: int = 10, *, epochs: int = 5, seed: int = 0, show_progress: bool = False
) -> list[list[str]]:
    """Tagger tags for training trees by ``folds``-fold jackknifing (paper footnote 3; SPEC §c).

    Fold f (every tree whose index is f modulo ``folds``) is tagged by a glmnlp tagger trained on
    the other folds, so no sentence is tagged by a model that saw it.
    """
    from glmnlp.treebank.formats import TaggedSentence
    from glmnlp.tagger.model import Tagger, TaggerConfig

    sents = [TaggedSentence(tuple(t.leaves()), tuple(t.tags())) for t in trees]
    out: list[list[str]] = [[] for _ in trees]
    for f in range(folds):
        held = [i for i in range(len(sents)) if i % folds == f]
        rest = [s for i, s in enumerate(sents) if i % folds != f]
        tagger = Tagger(TaggerConfig(epochs=epochs, seed=seed)).fit(rest, None, show_progress=show_progress)
        tagged = tagger.tag_sentences([sents[i].words for i in held])
        for i, tags in zip(held, tagged):
            out[i] = list(tags)
    return out
