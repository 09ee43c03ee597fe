"""The incremental beam-search constituency parser (Collins & Roark 2004): the model a user loads and parses with.

Training lives in :mod:`glmnlp.parser.training` (perceptron) and :mod:`glmnlp.parser.combined`
(generative and combined); this module holds only what decoding needs, so a loaded model never
imports the training code.

What it implements (paper §3-§4; SPEC §0, §a, §b, §d):

* **Decoder** (:mod:`glmnlp.parser._beam`): word-synchronous beam search over the FSLC-transformed grammar
  (:mod:`glmnlp.parser.transform`, :mod:`glmnlp.parser.grammar`). ADV attaches every allowable chain of the next
  word at every legal site of the right frontier (closures checked against the triples); FILTER
  keeps h_k while ``score(h_k) >= score(h_0) - gamma / k**3`` (SPEC §a, [R] formula) with an optional
  hard cap on the beam size. ``gamma`` and the cap are configuration, tuned on dev (:func:`glmnlp.parser.selection.tune_beam`)
  and saved in the model.
* **Features**: every built node (chain nodes and END closures) fires the templates of
  :data:`TEMPLATES`, hashed into a ``2**n_bits`` weight table. Two switchable groups: ``baseline``
  (SPEC §b.3) and ``punct`` (= baseline + the three punctuation features of §b.4).
* **Robustness** (:meth:`Parser.parse`): if the beam empties or no hypothesis can be closed, the
  sentence is retried with a 10x wider gamma and no cap; if that fails too it gets the default
  structure ``(TOP (S (T1 w1) ... (Tn wn)))`` (flat over the first candidate tags; S: the grammar's
  :meth:`~glmnlp.parser.grammar.Grammar.root_phrase`, a label of the training trees). Such sentences
  are counted in :attr:`Parser.stats`.

* **Generative term** (optional, :mod:`glmnlp.parser.term`): ``Parser.generative`` (a
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
* COORD (SPEC §b.2 item 9) on FSLC trees: coordination X -> X CC X (CC: ``Grammar.coordination_tag``,
  also CCONJ or KON) is left-recursive, so the transform turns (NP (NP a b) (CC and) (NP c d)) into
  (NP a b (NP/NP (CC and) (NP c d))) and the CC has no left sibling. When the CC (punctuation skipped)
  is the first child of a slash node X/Y with Y = the parent's label, the earlier conjunct is X's prefix
  and COORD is X's first child. As in SPEC §b.3 [R], COORD enters the non-POS templates only, so it
  fires for a non-POS leftmost child of the later conjunct.
* Feature hashing: the 2**22 table (``n_bits`` = 22). The gold derivations of the sample training
  split (wsj_0001-0159, +punct) fire 340,976 distinct features (counted with 62-bit ids); masked to
  22 bits they occupy 327,417 slots, so 13,559 features (3.98%) share a slot with another (load
  0.078). The 13,620-tree proxy: 19.07%, at no measurable cost in F1 (``glmnlp.parser.feature_space``).
"""

from __future__ import annotations

import hashlib
import math
import threading
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import numpy as np

from glmnlp.errors import InputError, ModelFileError
from glmnlp.glm.model_io import ModelParts, load_model, load_submodel, read_metadata, save_model, verify_model
from glmnlp.parser._beam import BeamParser
from glmnlp.parser.derivation import Step, default_tree, derive, replay
from glmnlp.parser.grammar import Grammar
from glmnlp.parser.term import GEN_KIND, GenerativeTerm, prefix_logprobs, surprisal_bits
from glmnlp.parser.transform import FslcConfig, fslc_detransform
from glmnlp.treebank.trees import Tree

__all__ = ["TEMPLATES", "Example", "ParserConfig", "Parser", "default_tree", "punctuation_tags", "word_atom"]

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
    shards: int = 1  # iterative parameter mixing over this many shards (1 = the serial perceptron)
    mixing: str = "uniform"  # "uniform" or "updates" (glmnlp.glm.training)

    def __post_init__(self) -> None:
        if self.features not in FEATURE_SETS:
            raise ValueError(f"features must be one of {FEATURE_SETS}, got {self.features!r}")
        if self.shards < 1:
            raise ValueError(f"shards must be >= 1, got {self.shards}")
        if self.mixing not in ("uniform", "updates"):
            raise ValueError(f"mixing must be 'uniform' or 'updates', got {self.mixing!r}")
        self.fslc_extra_pairs = tuple(tuple(p) for p in self.fslc_extra_pairs)  # type: ignore[misc]

    @property
    def fslc(self) -> FslcConfig:
        """The tree transform used for the grammar."""
        return FslcConfig(left_recursion=True, extra_pairs=self.fslc_extra_pairs)


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


class Parser:
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
        self._stats_lock = threading.Lock()
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

    def _count(self, key: str) -> None:
        with self._stats_lock:
            self.stats[key] += 1

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
        self, words: Sequence[str], tags: Sequence[str | Sequence[str]], k: int = 1
    ) -> list[tuple[float, Tree]]:
        """The k best trees (de-transformed, TOP-rooted) with their scores, best first (``k`` <= 0: every
        complete analysis in the last beam). ``tags[i]`` is one POS tag or a list of candidate tags (multi-tag
        input: the chains of word i are the union over them). Never fails: see the module docstring for the
        fallbacks."""
        if not words:
            raise InputError("cannot parse an empty sentence")
        if len(words) != len(tags):
            raise InputError(f"{len(words)} words but {len(tags)} tag entries")
        tag_lists = [[t] if isinstance(t, str) else list(t) for t in tags]
        if any(not t for t in tag_lists):
            raise InputError("every word needs at least one candidate tag")
        self._count("sentences")
        atoms, next_pos, isq, off, cand = self._inputs(words, tag_lists)
        self._configure_generative(words, tag_lists)
        none = np.zeros(0, dtype=np.int32)
        nonzero = self.nonzero_bits()
        attempts = [(self.config.gamma, self.config.beam_cap), (self.config.gamma * 10, 0)]
        for attempt, (gamma, cap) in enumerate(attempts):
            result = self._beam.decode(
                atoms, next_pos, isq, self._punct, off, cand, self.weights, gamma, cap, none, none, False, k,
                nonzero,
            )
            if result["status"] == "complete":
                if attempt:
                    self._count("retried")
                return [
                    (score, self._tree(words, sites, chains)) for score, _gold, sites, chains in result["beam"]
                ]
        self._count("fallback")
        return [(float("-inf"), default_tree(words, [t[0] for t in tag_lists], self.grammar))]

    def parse(self, words: Sequence[str], tags: Sequence[str | Sequence[str]]) -> Tree:
        """The best tree for a tagged sentence."""
        return self.parse_nbest(words, tags, 1)[0][1]

    # -- generative term (glmnlp.parser.term) --------------------------------------------------------
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
        word i is the sum of the generative probabilities of the beam members (glmnlp.parser.term).
        """
        if not words:
            raise InputError("cannot compute surprisal for an empty sentence")
        if len(words) != len(tags):
            raise InputError(f"{len(words)} words but {len(tags)} tag entries")
        return surprisal_bits(prefix_logprobs(self, words, tags))

    def _tree(self, words: Sequence[str], sites: np.ndarray, chains: np.ndarray) -> Tree:
        steps = [Step(int(s), self._chains[int(c)]) for s, c in zip(sites, chains)]
        return fslc_detransform(replay(list(words), steps, self.grammar))

    # -- persistence ------------------------------------------------------------------------------
    def save(
        self, path: str | Path, *, history: Sequence[dict[str, Any]] = (), prune: float = 0.0, replace: bool = True
    ) -> None:
        """Write the model directory (JSON metadata + npz arrays; no pickle) atomically.

        ``path`` must be absent, empty or (with ``replace``) a parser model and nothing else
        (:func:`glmnlp.glm.model_io.check_output_dir`); anything else is refused and left untouched.

        The hashed weight table is stored sparsely: ``weight_index`` (uint32, strictly ascending)
        lists the slots with ``|w| > prune`` and ``weight_value`` their weights, as float32 when every
        one of them is exactly a float32 (the default-model recipe rounds to float32 precision before
        it measures, for a file half the size) and float64 otherwise; :meth:`load` rebuilds the dense table. ``prune = 0`` keeps every non-zero weight, so the loaded model
        parses exactly as this one; ``prune > 0`` drops small weights for a smaller file.
        """
        if not (prune >= 0.0 and math.isfinite(prune)):
            raise ValueError(f"prune must be a finite number >= 0, got {prune!r}")
        index = np.flatnonzero(np.abs(self.weights) > prune).astype(np.uint32)
        values = np.ascontiguousarray(self.weights[index], dtype=np.float64)
        single = values.astype(np.float32)
        if np.array_equal(single.astype(np.float64), values):
            values = single
        cfg = asdict(self.config)
        cfg["fslc_extra_pairs"] = [list(p) for p in self.config.fslc_extra_pairs]
        if self.config.shards == 1:  # serially trained models keep the format they always had
            del cfg["shards"], cfg["mixing"]
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
            submodels["generative"] = ModelParts(kind=GEN_KIND, metadata=gen_meta, arrays=gen_arrays)
        save_model(path, kind=MODEL_KIND, metadata=metadata, arrays={"weight_index": index, "weight_value": values},
                   submodels=submodels, replace=replace)

    @classmethod
    def load(cls, path: str | Path) -> Parser:
        """Read a model written by :meth:`save`."""
        metadata, arrays = load_model(path, kind=MODEL_KIND)
        meta_path = Path(path) / "metadata.json"
        try:
            cfg = dict(metadata["config"])
            _check_config(cfg)
            cfg["fslc_extra_pairs"] = tuple(tuple(p) for p in cfg["fslc_extra_pairs"])
            config = ParserConfig(**cfg)
            grammar = Grammar.from_json(metadata["grammar"])
            punct = metadata["punct_tags"]
            if not isinstance(punct, list) or not all(isinstance(t, str) for t in punct):
                raise ValueError("punct_tags must be a list of tag strings")
            chains = metadata["extra_chains"]
            n_cats = len(grammar.categories)
            if not isinstance(chains, list) or not all(
                isinstance(c, list) and c and all(type(x) is int and 0 <= x < n_cats for x in c) for c in chains
            ):
                raise ValueError(f"extra_chains must be non-empty lists of category ids in 0..{n_cats - 1}")
            parser = cls(
                grammar, set(punct), _dense_weights(arrays, 1 << config.n_bits, path, metadata), config,
                extra_chains=[tuple(c) for c in chains],
            )
            history = metadata.get("history", [])
            if not isinstance(history, list) or not all(isinstance(h, dict) for h in history):
                raise ValueError("history must be a list of objects")
        except ModelFileError as exc:
            raise ModelFileError(f"{meta_path}: {exc}" if str(path) not in str(exc) else str(exc)) from None
        except (KeyError, TypeError, ValueError, IndexError) as exc:
            raise ModelFileError(f"{meta_path}: not a valid parser model: {exc}") from None
        parser.history = list(history)
        if "generative" in read_metadata(path).get("submodels", {}):
            gen_meta, gen_arrays = load_submodel(path, "generative", kind=GEN_KIND)
            try:
                parser.generative = GenerativeTerm.from_parts(gen_meta, gen_arrays)
            except ModelFileError as exc:
                raise ModelFileError(f"{Path(path) / 'generative' / 'metadata.json'}: {exc}") from None
        return parser

    @staticmethod
    def describe(path: str | Path) -> dict[str, Any]:
        """``generative``, ``parse_nbest``, ``pos_tags`` of the model at ``path``, unbuilt (checksums checked)."""
        header = verify_model(path, kind=MODEL_KIND)
        if generative := "generative" in header.get("submodels", {}):
            verify_model(Path(path) / "generative", kind=GEN_KIND)
        tags = grammar.get("pos_tags") if isinstance(grammar := header["metadata"].get("grammar"), dict) else None
        if not isinstance(tags, list) or not all(isinstance(t, str) for t in tags):  # load() says more
            raise ModelFileError(f"{Path(path) / 'metadata.json'}: not a valid parser model: no grammar pos_tags")
        return {"generative": generative, "parse_nbest": True, "pos_tags": frozenset(tags)}

    history: list[dict[str, Any]] = []

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


#: Largest hashed table a model file may ask for: 2**28 float64 weights = 2 GiB (the default is 2**22).
MAX_N_BITS = 28


def _check_config(cfg: dict[str, Any]) -> None:
    """Check a stored ParserConfig's fields (types and sane ranges) before anything is allocated from them."""

    def number(name: str, low: float, high: float, *, integer: bool) -> None:
        value = cfg.get(name)
        ok = type(value) is int if integer else (type(value) in (int, float) and math.isfinite(value))
        if not ok or not low <= value <= high:
            kind = "an integer" if integer else "a finite number"
            raise ValueError(f"config {name} must be {kind} in [{low:g}, {high:g}], got {value!r}")

    number("n_bits", 1, MAX_N_BITS, integer=True)
    for name in ("gamma", "train_gamma"):
        number(name, 0, 1e300, integer=False)
    for name in ("beam_cap", "train_cap", "cache_t1", "cache_t2", "cache_sample", "cache_members"):
        number(name, 0, 10**6, integer=True)
    number("epochs", 0, 10**6, integer=True)
    number("seed", -(2**63), 2**63 - 1, integer=True)
    for name in ("early_update", "cache"):
        if type(cfg.get(name)) is not bool:
            raise ValueError(f"config {name} must be true or false, got {cfg.get(name)!r}")
    pairs = cfg.get("fslc_extra_pairs")
    if not isinstance(pairs, list) or not all(
        isinstance(p, list) and len(p) == 2 and all(isinstance(x, str) for x in p) for p in pairs
    ):
        raise ValueError("config fslc_extra_pairs must be a list of [label, label] pairs")


def _dense_weights(arrays: dict[str, np.ndarray], size: int, path: str | Path, meta: dict[str, Any]) -> np.ndarray:
    """The dense weight table of a model file (sparse (index, value) arrays, or a dense ``weights`` array) of the
    size ``n_bits`` gives: any other recorded size means an edited file (weights in other features' slots)."""
    if (declared := meta.get("weight_storage", {}).get("table_size", size)) != size or (
            "weights" in arrays and arrays["weights"].shape != (size,)):
        raise ValueError(f"the weight table's size ({declared!r}) is not 2**n_bits = {size}")
    if "weights" in arrays:  # dense tables written before the sparse format
        return arrays["weights"]
    index, values = arrays.get("weight_index"), arrays.get("weight_value")
    if index is None or values is None:
        raise ModelFileError(f"{path}: parser model has no weight_index/weight_value arrays")
    if (index.ndim != 1 or index.shape != values.shape or index.dtype != np.uint32
            or values.dtype not in (np.float32, np.float64)):
        raise ModelFileError(f"{path}: weight_index must be uint32 and weight_value float32 or float64, both 1-D of "
                             "one length")
    if index.shape[0] and (int(index[-1]) >= size or bool(np.any(index[1:] <= index[:-1]))):
        raise ModelFileError(f"{path}: weight_index must be strictly ascending and below the table size {size}")
    dense = np.zeros(size, dtype=np.float64)
    dense[index] = values
    dense.flags.writeable = False  # finished: the parser takes it without a copy (Parser.weights)
    return dense

