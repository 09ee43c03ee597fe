"""Roark-style generative model over parser derivations, with Jelinek–Mercer smoothing.

What it implements (Roark 2001, 2004; Collins & Roark 2004 §3.2 and §5, "generative model" baseline
and the hybrid's generative feature): a family of conditional models P(y | c_1..c_n), each an
*events* model. An event is (model, outcome y, context c_1..c_n) where the context follows a
fixed conditioning order; the caller interns every value to an int id (0 = NULL/absent).
Two instances are predefined (:func:`roark_specs`), in the conditioning order of Roark's
released parser (its ``data/tree.functs.sfile``):

* the node-label model (``NODE_MODEL``): y = L00 (a category id incl. END), context =
  L10, L01, L02, L03, L20, L11, L30, L21, coord, CL;
* the word model (``WORD_MODEL``): y = word id (glmnlp.parser.lexicon), context =
  POS, L10, L01, L20-if-leftmost, CCP-if-leftmost, CC.

The model is generic: any number of models, each with its own context length and outcome
vocabulary size. A derivation's log-probability is the sum of its events' log-probabilities.

Training (smoothing, EM-fitted lambdas, pruning, jackknife folds) is
:mod:`glmnlp.parser.generative_training`; this module holds the trained model and what scoring
needs, so a loaded parser never imports the training code.

Our choices, and why:

* **Level 0 instead of an unsmoothed level 1.** Roark leaves P(y | c_1) unsmoothed, so a label
  never seen with its parent is impossible (a grammar constraint). Here level 1 interpolates
  with a level-0 unigram P^(y) of the model, itself interpolated with the uniform distribution
  over the model's outcome ids 1..V-1: P~_0(y) = lam_0 P^(y) + (1 - lam_0) / (V - 1), lam_0 fitted
  by EM like every other level. Every valid outcome thus has a non-zero probability and every
  conditional distribution sums to one. Reason: the grammar constraint is enforced by the
  parser (glmnlp.parser.grammar's triples and chains), and the jackknifed models (C&R 2004 §5) each see
  only 90% of the data, so a strict level 1 would give -inf to gold derivations of held-out
  sentences whose (parent, label) pair happens to occur only in that sentence.
Scoring is done by the Cython kernel in glmnlp.parser._generative on frozen hash tables; see that
module for the table layout (smoothed pair log-probabilities + cumulative backoff weights;
one call costs about 2 log2(n) hash probes, found by binary search over the levels; measured
3-6 million calls/s on the bundled PTB sample). The tables round-trip through
:meth:`GenerativeModel.to_arrays` / :meth:`GenerativeModel.from_arrays` (numpy arrays + JSON
metadata, for glmnlp.glm.model_io).

Also here: :func:`prefix_logprobs` / :func:`surprisals` for per-word prefix probabilities over a beam.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray

from glmnlp.errors import ConfigError, ModelFileError
from glmnlp.parser._generative import GenerativeKernel, build_table

__all__ = [
    "NODE_CONTEXT",
    "NODE_MODEL",
    "WORD_CONTEXT",
    "WORD_MODEL",
    "GenerativeModel",
    "bucket_of",
    "ModelSpec",
    "SmoothingConfig",
    "prefix_logprobs",
    "roark_specs",
    "surprisals",
    "table_capacity",
]

FORMAT_NAME = "glmnlp-generative"
FORMAT_VERSION = 2
#: Versions :meth:`GenerativeModel.from_arrays` reads: 1 stored the open-addressing tables whole
#: (empty slots included, float64 values); 2 stores only the occupied slots, keys ascending, values
#: as float32 when that is exact (see :func:`compact_table`), and the capacity in the metadata.
READABLE_VERSIONS = (1, 2)
HASH_NAME = "splitmix64-v1"
MAX_CONTEXT = 62  # GEN_MAX_CONTEXT in _generative.pxd
MAX_OUTCOMES = 2**62  # n_outcomes is an int64 in the kernel (a damaged file may say 1e308)
MAX_LOG_VALUE = 1e4  # the largest magnitude of a stored log-domain value (trained models: about 15)

NODE_MODEL = 0
WORD_MODEL = 1
NODE_CONTEXT: tuple[str, ...] = ("L10", "L01", "L02", "L03", "L20", "L11", "L30", "L21", "coord", "CL")
WORD_CONTEXT: tuple[str, ...] = ("POS", "L10", "L01", "L20", "CCP", "CC")

IntArray = NDArray[np.int64]
FloatArray = NDArray[np.float64]


@dataclass(frozen=True)
class ModelSpec:
    """One conditional model: outcome ids lie in [1, n_outcomes), contexts have context_length ids."""

    name: str
    context_length: int
    n_outcomes: int

    def __post_init__(self) -> None:
        for name in ("context_length", "n_outcomes"):
            value = getattr(self, name)
            if not isinstance(value, (int, np.integer)) or isinstance(value, bool):
                raise ConfigError(f"model {self.name!r}: {name} must be an integer, got {value!r}")
        if not 0 <= self.context_length <= MAX_CONTEXT:
            raise ConfigError(f"model {self.name!r}: context_length must lie in [0, {MAX_CONTEXT}]")
        if not 2 <= self.n_outcomes <= MAX_OUTCOMES:
            raise ConfigError(f"model {self.name!r}: n_outcomes must lie in [2, {MAX_OUTCOMES}] (id 0 is NULL)")


def roark_specs(n_categories: int, n_words: int) -> tuple[ModelSpec, ModelSpec]:
    """The node-label and word models of Roark's parser (ids NODE_MODEL = 0 and WORD_MODEL = 1).

    n_categories: number of category ids (Grammar.categories, NULL/END/TOP included);
    n_words: Lexicon.size.
    """
    return (
        ModelSpec("node", len(NODE_CONTEXT), n_categories),
        ModelSpec("word", len(WORD_CONTEXT), n_words),
    )


@dataclass(frozen=True)
class SmoothingConfig:
    """Hyperparameters of the smoothing (defaults are Roark's code's values).

    n_bins: lambda bins per (model, level) above the low-diversity bin 0 (``BINS 20``).
    min_bin_mass: least count mass of a bin (200).
    min_ratio: histories with c/u below this share bin 0 (2).
    folds: deleted-estimation folds over sentences (``XVALS 10``); 0 skips EM and keeps
        initial_lambda everywhere (for tiny data sets).
    initial_lambda: EM starting point (0.49).
    max_iterations / tolerance: EM stops after max_iterations or when the relative held-out
        log-likelihood gain is below tolerance (1000, 1e-4).
    max_lambda: cap on the averaged lambdas (0.999), so every level keeps some backoff.
    seed: seeds the fold partition.
    prune: relative threshold of Roark's ``-t`` (the standard training command in his README uses 0.05): pairs
        whose smoothed probability is less than this much above their backed-off estimate, and
        histories that only pass mass down at a cost below it, are left out of the frozen tables
        (see ``_prune``). 0 keeps everything (then every conditional distribution sums to one).
    min_count: histories of level >= 2 seen at most this often in training are left out of the
        frozen tables with their pairs (a count cutoff, our choice: it is what shrinks the tables, since on
        a small treebank most deep histories are singletons that ``prune`` keeps); distributions
        still sum to one. 0 keeps everything.
    """

    n_bins: int = 20
    min_bin_mass: int = 200
    min_ratio: float = 2.0
    folds: int = 10
    initial_lambda: float = 0.49
    max_iterations: int = 1000
    tolerance: float = 1e-4
    max_lambda: float = 0.999
    seed: int = 0
    prune: float = 0.0
    min_count: int = 0

    def __post_init__(self) -> None:
        if self.n_bins < 1:
            raise ConfigError("n_bins must be >= 1")
        if self.min_bin_mass < 1:
            raise ConfigError("min_bin_mass must be >= 1")
        if self.folds == 1 or self.folds < 0:
            raise ConfigError("folds must be 0 (no EM) or >= 2")
        if not 0.0 < self.initial_lambda < 1.0:
            raise ConfigError("initial_lambda must lie in (0, 1)")
        if not 0.0 < self.max_lambda < 1.0:
            raise ConfigError("max_lambda must lie in (0, 1)")
        if self.max_iterations < 0 or self.tolerance < 0:
            raise ConfigError("max_iterations and tolerance must be >= 0")
        if not (self.prune >= 0 and math.isfinite(self.prune)):
            raise ConfigError(f"prune must be a finite number >= 0, got {self.prune}")
        if self.min_count < 0:
            raise ConfigError(f"min_count must be >= 0, got {self.min_count}")



def bucket_of(
    models: IntArray, levels: IntArray, ratio: FloatArray, edges: FloatArray, config: SmoothingConfig
) -> IntArray:
    """Global lambda bucket of histories given their (model, level, c/u).

    The bin is 1 + the number of the (model, level)'s edges below c/u, found by a binary search per
    (model, level) (edges ascend, +inf padded): memory O(histories), not O(histories x bins).
    """
    models = np.asarray(models, dtype=np.int64)
    levels = np.asarray(levels, dtype=np.int64)
    ratio = np.asarray(ratio, dtype=np.float64)
    n_models, n_levels = edges.shape[:2]
    if len(ratio) and (models.min() < 0 or models.max() >= n_models or levels.min() < 0 or levels.max() >= n_levels):
        raise IndexError("bucket_of: model or level outside the bin edges")
    group = models * n_levels + levels
    below = np.zeros(len(ratio), dtype=np.int64)
    if len(ratio):
        order = np.argsort(group, kind="stable")
        starts = np.searchsorted(group[order], np.arange(n_models * n_levels + 1))
        for g in range(n_models * n_levels):
            at = order[starts[g]: starts[g + 1]]
            if len(at):
                r = ratio[at]
                # a NaN ratio is above no edge (as the element-wise comparison had it)
                below[at] = np.where(np.isnan(r), 0, np.searchsorted(edges[g // n_levels, g % n_levels], r, side="left"))
    bins = np.where(ratio < config.min_ratio, 0, 1 + below)
    return ((group * (config.n_bins + 1)) + bins).astype(np.int64)



# ---------------------------------------------------------------------------------------------
# The frozen model
# ---------------------------------------------------------------------------------------------


class GenerativeModel:
    """A trained, frozen model family; scores events through its Cython kernel.

    The Cython beam takes ``model.kernel`` (a glmnlp.parser._generative.GenerativeKernel) and calls
    ``gen_logprob(&kernel.tables, ...)`` without the GIL.
    """

    def __init__(
        self,
        specs: Sequence[ModelSpec],
        config: SmoothingConfig,
        tables: dict[str, NDArray[Any]],
        *,
        lambdas: FloatArray,
        bin_edges: FloatArray,
        em_traces: list[list[float]],
        n_events: int,
    ) -> None:
        self.specs: tuple[ModelSpec, ...] = tuple(specs)
        self.config = config
        self.tables = tables
        self.lambdas = lambdas
        self.bin_edges = bin_edges
        self.em_traces = em_traces
        self.n_events = n_events
        self.context_length = np.array([s.context_length for s in self.specs], dtype=np.int64)
        self.n_outcomes = np.array([s.n_outcomes for s in self.specs], dtype=np.int64)
        self.kernel = GenerativeKernel(
            tables["hist_keys"],
            tables["hist_vals"],
            tables["pair_keys"],
            tables["pair_vals"],
            tables["floor_logprob"],
            self.context_length,
            self.n_outcomes,
        )
        # the kernel holds the tables interleaved (key, value); ``tables`` views that copy instead
        # of keeping a second one (half the memory of a loaded or trained model's tables)
        views = dict(zip(("hist_keys", "hist_vals", "pair_keys", "pair_vals"), self.kernel.table_views()))
        self.tables = dict(tables, **views)

    def with_float32_tables(self) -> GenerativeModel:
        """This model with its table values rounded to float32 precision (keys and layout unchanged).

        What the default-model recipe ships: the file then stores 4 bytes a value exactly
        (:func:`compact_table`). The rounding moves each log-probability by at most 6e-8 of its size,
        so distributions sum to one only within ~1e-7; training keeps float64.
        """
        tables = dict(self.tables)
        for name in ("hist_vals", "pair_vals"):
            tables[name] = self.tables[name].astype(np.float32).astype(np.float64)
        return GenerativeModel(self.specs, self.config, tables, lambdas=self.lambdas, bin_edges=self.bin_edges,
                               em_traces=self.em_traces, n_events=self.n_events)

    def logprob(self, model: int, outcome: int, context: Sequence[int]) -> float:
        """ln P(outcome | context) under ``model``; ``context`` may be a prefix of the full sequence."""
        if not 0 <= model < len(self.specs):
            raise ValueError(f"model id {model} outside [0, {len(self.specs)})")
        spec = self.specs[model]
        if not 1 <= outcome < spec.n_outcomes:
            raise ValueError(f"model {spec.name!r}: outcome {outcome} outside [1, {spec.n_outcomes})")
        if len(context) > spec.context_length:
            raise ValueError(f"model {spec.name!r}: context longer than {spec.context_length}")
        return float(self.kernel.logprob(model, outcome, np.asarray(context, dtype=np.int64)))

    def logprob_many(
        self,
        models: IntArray,
        outcomes: IntArray,
        contexts: IntArray,
        lengths: IntArray | None = None,
    ) -> FloatArray:
        """Vectorised :meth:`logprob` over rows (contexts is 2-D; lengths default to the full width,
        capped at each model's context length). Invalid outcome ids give -inf."""
        contexts = np.ascontiguousarray(contexts, dtype=np.int64)
        m = np.ascontiguousarray(models, dtype=np.int64)
        if lengths is None:
            lengths = np.full(len(m), contexts.shape[1], dtype=np.int64)
        return np.asarray(
            self.kernel.logprob_many(
                m,
                np.ascontiguousarray(outcomes, dtype=np.int64),
                contexts,
                np.ascontiguousarray(lengths, dtype=np.int64),
            )
        )

    def lambda_of(self, model: int, level: int, count: float, distinct: int) -> float:
        """The lambda of a history of (model, level) with c(h) = count, u(h) = distinct."""
        ratio = np.array([count / distinct if distinct else 0.0])
        bucket = bucket_of(np.array([model]), np.array([level]), ratio, self.bin_edges, self.config)
        return float(self.lambdas[bucket[0]])

    # -- serialisation ------------------------------------------------------------------------

    def to_arrays(self) -> tuple[dict[str, Any], dict[str, NDArray[Any]]]:
        """(JSON-able metadata, named arrays) for glmnlp.glm.model_io.save_model.

        The two hash tables are written compactly (:func:`compact_table`); :meth:`from_arrays`
        rebuilds them slot for slot (training builds them from ascending keys too).
        """
        arrays: dict[str, NDArray[Any]] = {}
        capacity = {}
        for name in ("hist", "pair"):
            arrays[f"{name}_keys"], arrays[f"{name}_vals"] = compact_table(
                self.tables[f"{name}_keys"], self.tables[f"{name}_vals"]
            )
            capacity[name] = len(self.tables[f"{name}_keys"])
        metadata = {
            "format": FORMAT_NAME,
            "format_version": FORMAT_VERSION,
            "hash": HASH_NAME,
            "models": [asdict(spec) for spec in self.specs],
            "config": asdict(self.config),
            "n_events": self.n_events,
            "em_traces": self.em_traces,
            "capacity": capacity,
        }
        arrays["floor_logprob"] = self.tables["floor_logprob"]
        arrays["lambdas"] = self.lambdas
        arrays["bin_edges"] = self.bin_edges
        return metadata, arrays

    @classmethod
    def from_arrays(cls, metadata: dict[str, Any], arrays: dict[str, NDArray[Any]]) -> GenerativeModel:
        """Inverse of :meth:`to_arrays`; raises ModelFileError on foreign or inconsistent data."""
        if not isinstance(metadata, dict):
            raise ModelFileError(
                f"damaged generative model: its metadata is not an object (got {type(metadata).__name__})"
            )
        try:
            version = metadata.get("format_version")
            if metadata.get("format") != FORMAT_NAME or type(version) is not int or version not in READABLE_VERSIONS:
                raise ModelFileError(
                    f"not a {FORMAT_NAME} model of a version this glmnlp reads "
                    f"({', '.join(map(str, READABLE_VERSIONS))}): {metadata.get('format')!r} v{version!r}"
                )
            if metadata.get("hash") != HASH_NAME:
                raise ModelFileError(f"unsupported hash function {metadata.get('hash')!r}")
            specs = [ModelSpec(**spec) for spec in metadata["models"]]
            config = SmoothingConfig(**metadata["config"])
            expected = {
                "hist_keys": np.uint64,
                "hist_vals": np.float64,
                "pair_keys": np.uint64,
                "pair_vals": np.float64,
                "floor_logprob": np.float64,
                "lambdas": np.float64,
                "bin_edges": np.float64,
            }
            for name, dtype in expected.items():
                if name not in arrays:
                    raise ModelFileError(f"generative model: missing array {name!r}")
                # version 2 stores table values as float32 when that is exact
                ok = (dtype,) if not name.endswith("_vals") or version == 1 else (np.float32, np.float64)
                if arrays[name].dtype not in ok:
                    raise ModelFileError(f"generative model: array {name!r} has dtype {arrays[name].dtype}")
            if arrays["floor_logprob"].shape != (len(specs),):
                raise ModelFileError("generative model: floor_logprob does not match the model list")
            width = max(spec.context_length for spec in specs)
            if arrays["bin_edges"].shape[:2] != (len(specs), width + 1):
                raise ModelFileError("generative model: bin_edges does not match the model list")
            if arrays["lambdas"].shape != (len(specs) * (width + 1) * (config.n_bins + 1),):
                raise ModelFileError("generative model: lambdas does not match the bucket layout")
            # NaN in a table parsed to nonsense trees and surprisals of NA, with status 0
            for name in ("hist_vals", "pair_vals", "floor_logprob", "lambdas"):  # bin_edges end at infinity
                if not np.isfinite(arrays[name]).all():
                    raise ModelFileError(f"generative model: array {name!r} holds values that are not finite")
            # and values no trained model holds (1e308 is finite, and its sums overflowed to NA the same way):
            # log-domain tables within +-MAX_LOG_VALUE, backoff sums and floors <= 0, weights in [0, 1]
            for name, low, high in (("hist_vals", -MAX_LOG_VALUE, 0.0), ("pair_vals", -MAX_LOG_VALUE, MAX_LOG_VALUE),
                                    ("floor_logprob", -MAX_LOG_VALUE, 0.0), ("lambdas", 0.0, 1.0)):
                values = arrays[name]
                if values.size and not (low <= values.min() and values.max() <= high):
                    raise ModelFileError(f"generative model: array {name!r} holds values outside [{low:g}, {high:g}]")
            if version == 1:
                tables = {name: np.asarray(arrays[name]) for name in ("hist_keys", "hist_vals", "pair_keys",
                                                                       "pair_vals", "floor_logprob")}
            else:
                tables = {"floor_logprob": np.asarray(arrays["floor_logprob"])}
                for name in ("hist", "pair"):
                    tables[f"{name}_keys"], tables[f"{name}_vals"] = expand_table(
                        arrays[f"{name}_keys"], arrays[f"{name}_vals"], int(metadata["capacity"][name]), name
                    )
            return cls(
                specs,
                config,
                tables,
                lambdas=np.asarray(arrays["lambdas"]),
                bin_edges=np.asarray(arrays["bin_edges"]),
                em_traces=[list(map(float, t)) for t in metadata.get("em_traces", [])],
                n_events=int(metadata["n_events"]),
            )
        except (KeyError, TypeError, ValueError, AttributeError, OverflowError, ConfigError) as exc:
            raise ModelFileError(f"damaged generative model: {exc}") from exc


def compact_table(keys: NDArray[np.uint64], values: FloatArray) -> tuple[NDArray[np.uint64], NDArray[Any]]:
    """The occupied slots of an open-addressing table, keys ascending; values as float32 when exact.

    Why: a frozen table is 25-50% full (capacity = the power of two above twice the entries) and
    its keys are hashes that do not compress, so writing only the occupied slots and, when every
    value survives the round trip, 4-byte values is what shrinks the file (:meth:`GenerativeModel.with_float32_tables`
    rounds a trained model's values to float32 precision). On
    the bundled PTB-sample model: 4.84 MB -> 3.2 MB compressed.
    """
    occupied = keys != 0
    order = np.argsort(keys[occupied], kind="stable")
    k = np.ascontiguousarray(keys[occupied][order], dtype=np.uint64)
    v = np.ascontiguousarray(values[occupied][order], dtype=np.float64)
    v32 = v.astype(np.float32)
    return k, (v32 if np.array_equal(v32.astype(np.float64), v) else v)


def table_capacity(n: int) -> int:
    """The slots of a frozen table of ``n`` entries: the power of two above twice them (at least 8), so that a probe
    finds a key or an empty slot within a few steps."""
    return 1 << max(3, (2 * n).bit_length())


def expand_table(keys: NDArray[Any], values: NDArray[Any], capacity: int, name: str) -> tuple[Any, Any]:
    """Inverse of :func:`compact_table`: the open-addressing table of ``capacity`` slots.

    ``capacity`` is at most :func:`table_capacity` of the entries, what training builds: it is read from the
    metadata and sizes the allocation, so one edited number (2**30 for 450k entries) took 23 GB before anything
    else was checked."""
    if keys.dtype != np.uint64 or keys.ndim != 1 or values.shape != keys.shape:
        raise ModelFileError(f"generative model: {name} table keys and values do not match")
    if len(keys) and (keys[0] == 0 or not np.all(keys[1:] > keys[:-1])):
        raise ModelFileError(f"generative model: {name} table keys must be non-zero and strictly ascending")
    if capacity <= len(keys) or capacity & (capacity - 1) or capacity > table_capacity(len(keys)):
        raise ModelFileError(f"generative model: {name} table capacity {capacity} is not a power of two "
                             f"above its {len(keys)} entries and at most {table_capacity(len(keys))}")
    return build_table(keys, np.ascontiguousarray(values, dtype=np.float64), capacity)


# ---------------------------------------------------------------------------------------------
# Prefix probabilities and surprisal
# ---------------------------------------------------------------------------------------------


def prefix_logprobs(beams: Sequence[Sequence[float]]) -> FloatArray:
    """out[i] = ln sum_h P(h) over the beam after word i (log-sum-exp of its log-probabilities).

    With a beam holding every analysis of w_0..w_i, this is ln P(w_0..w_i) (Roark 2001).
    """
    out = np.empty(len(beams))
    for i, beam in enumerate(beams):
        values = np.asarray(beam, dtype=np.float64)
        if values.size == 0:
            raise ValueError(f"prefix_logprobs: empty beam at word {i}")
        if np.any(np.isnan(values)) or np.any(values == np.inf):
            raise ValueError(f"prefix_logprobs: invalid log-probability at word {i}")
        top = float(values.max())
        out[i] = top if top == -math.inf else top + math.log(float(np.sum(np.exp(values - top))))
    return out


def surprisals(beams: Sequence[Sequence[float]]) -> FloatArray:
    """Per-word surprisal -(ln P(prefix_i) - ln P(prefix_{i-1})), with ln P(empty prefix) = 0, in nats.

    The sum over a sentence telescopes to -ln P(prefix_n).
    """
    prefix = prefix_logprobs(beams)
    previous = np.concatenate([[0.0], prefix[:-1]])
    return -(prefix - previous)
