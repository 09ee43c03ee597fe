"""Tests of glmnlp.parser.generative: smoothing, EM, the Cython kernel, serialisation, jackknife, surprisal."""

from __future__ import annotations

import dataclasses

import math
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from glmnlp.errors import ConfigError, ModelFileError
from glmnlp.parser.generative import (
    WORD_MODEL,
    GenerativeModel,
    ModelSpec,
    SmoothingConfig,
    prefix_logprobs,
    roark_specs,
    surprisals,
)
from glmnlp.parser.generative_training import (
    EventSet,
    em_lambdas,
    jackknife_folds,
    train_generative,
    train_jackknife,
)
from glmnlp.parser.lexicon import Lexicon
from glmnlp.glm.model_io import load_model, save_model

SPECS = (ModelSpec("labels", 4, 7), ModelSpec("words", 2, 11))
SMALL = SmoothingConfig(n_bins=4, min_bin_mass=5, folds=5, seed=3)

Event = tuple[int, int, tuple[int, ...], int, int]  # model, outcome, context, sentence, depth


def _toy_events(seed: int = 0, n_sentences: int = 30, per_sentence: int = 15) -> list[Event]:
    """Events whose outcome mostly depends on the first two context values (so levels matter)."""
    rng = np.random.default_rng(seed)
    events: list[Event] = []
    for s in range(n_sentences):
        for _ in range(per_sentence):
            c = tuple(int(v) for v in rng.integers(0, 4, size=4))
            y = 1 + (c[0] + 2 * c[1]) % 6 if rng.random() < 0.7 else int(rng.integers(1, 7))
            if y == 6 and c[0] != 3:
                y = 5  # outcome 6 only under c_1 = 3: elsewhere it is seen at level 0 only
            events.append((0, y, c, s, 4))
            c2 = tuple(int(v) for v in rng.integers(0, 3, size=2))
            y2 = 1 + (3 * c2[0] + c2[1]) % 9 if rng.random() < 0.6 else int(rng.integers(1, 11))
            y2 = min(y2, 9)  # outcome 10 is never seen: scored by the uniform floor
            events.append((1, y2, c2, s, 2 if rng.random() < 0.8 else int(rng.integers(0, 2))))
    return events


def _event_set(events: Sequence[Event], specs: Sequence[ModelSpec] = SPECS) -> EventSet:
    out = EventSet(specs)
    for m, y, c, s, d in events:
        out.add(m, y, c, s, depth=d)
    return out


class ReferenceModel:
    """Plain-dictionary Jelinek–Mercer interpolation, using the trained lambdas and bin edges."""

    def __init__(self, events: Sequence[Event], model: GenerativeModel) -> None:
        self.model = model
        self.hist: Counter[tuple[int, tuple[int, ...]]] = Counter()
        self.pair: Counter[tuple[int, tuple[int, ...], int]] = Counter()
        for m, y, c, _, d in events:
            for j in range(d + 1):
                self.hist[(m, c[:j])] += 1
                self.pair[(m, c[:j], y)] += 1
        self.distinct: Counter[tuple[int, tuple[int, ...]]] = Counter((m, h) for m, h, _ in self.pair)

    def lam(self, m: int, h: tuple[int, ...]) -> float:
        config = self.model.config
        ratio = self.hist[(m, h)] / self.distinct[(m, h)]
        n_levels = self.model.bin_edges.shape[1]
        if ratio < config.min_ratio:
            b = 0
        else:
            b = 1 + sum(1 for e in self.model.bin_edges[m, len(h)] if e < ratio)
        return float(self.model.lambdas[(m * n_levels + len(h)) * (config.n_bins + 1) + b])

    def prob(self, m: int, y: int, context: tuple[int, ...]) -> float:
        p = 1.0 / (self.model.specs[m].n_outcomes - 1)
        for j in range(len(context) + 1):
            h = context[:j]
            if self.hist[(m, h)] == 0 or (j >= 2 and self.hist[(m, h)] <= self.model.config.min_count):
                break
            lam = self.lam(m, h)
            p = lam * self.pair[(m, h, y)] / self.hist[(m, h)] + (1 - lam) * p
        return p


@pytest.fixture(scope="module")
def toy() -> tuple[list[Event], GenerativeModel]:
    events = _toy_events()
    return events, train_generative(_event_set(events), SMALL)


def _contexts(rng: np.random.Generator, length: int, count: int) -> list[tuple[int, ...]]:
    """Random contexts over values 0..4 (4 never occurs in training) and random prefix lengths."""
    out = []
    for _ in range(count):
        full = tuple(int(v) for v in rng.integers(0, 5, size=length))
        out.append(full[: int(rng.integers(0, length + 1))])
    return out


def test_generative_distributions_sum_to_one(toy: tuple[list[Event], GenerativeModel]) -> None:
    """P(. | context) sums to one at every level, for seen and unseen contexts."""
    events, model = toy
    rng = np.random.default_rng(1)
    for m, spec in enumerate(model.specs):
        seen = [c for mm, _, c, _, _ in events if mm == m][:20]
        contexts = [c[:j] for c in seen for j in range(spec.context_length + 1)]
        contexts += _contexts(rng, spec.context_length, 40)
        contexts.append((9,) * spec.context_length)
        for context in contexts:
            total = math.fsum(math.exp(model.logprob(m, y, context)) for y in range(1, spec.n_outcomes))
            assert abs(total - 1.0) < 1e-9, (m, context, total)


def test_generative_sum_to_one_without_em() -> None:
    """Distributions stay normalised with the initial lambdas (folds=0) and a model without events."""
    specs = (ModelSpec("a", 3, 5), ModelSpec("empty", 2, 4))
    events = _event_set([(0, 1 + i % 4, (i % 2, i % 3, 0), i, 3) for i in range(12)], specs)
    model = train_generative(events, SmoothingConfig(folds=0))
    for m, spec in enumerate(specs):
        for context in [(), (0,), (1, 2), (5, 5)][: spec.context_length + 1]:
            context = context[: spec.context_length]
            total = math.fsum(math.exp(model.logprob(m, y, context)) for y in range(1, spec.n_outcomes))
            assert abs(total - 1.0) < 1e-12
    assert model.logprob(1, 2, (0, 0)) == pytest.approx(math.log(1 / 3), abs=1e-15)


@pytest.mark.parametrize(
    ("seed", "config"),
    [
        (0, SMALL),
        (11, SmoothingConfig(n_bins=2, min_bin_mass=20, folds=3, seed=1)),
        (12, SmoothingConfig(n_bins=1, folds=0, initial_lambda=0.7)),
        (13, SmoothingConfig(n_bins=4, min_bin_mass=5, folds=5, seed=3, min_count=2)),
    ],
)
def test_generative_kernel_matches_reference(seed: int, config: SmoothingConfig) -> None:
    """The Cython kernel equals a plain-dictionary interpolation on random contexts, to 1e-12."""
    events = _toy_events(seed=seed)
    model = train_generative(_event_set(events), config)
    reference = ReferenceModel(events, model)
    rng = np.random.default_rng(seed + 2)
    checked = 0
    for m, spec in enumerate(model.specs):
        contexts = _contexts(rng, spec.context_length, 150)
        contexts += [c for mm, _, c, _, _ in events[:100] if mm == m]
        for context in contexts:
            for y in range(1, spec.n_outcomes):
                expected = math.log(reference.prob(m, y, context))
                assert abs(model.logprob(m, y, context) - expected) < 1e-12, (m, y, context)
                checked += 1
    assert checked > 2000
    if config.folds:
        lambdas_used = {reference.lam(m, h) for (m, h) in reference.hist}
        assert len(lambdas_used) > 5, "the toy set should exercise several lambda buckets"


def _stored(model: GenerativeModel) -> tuple[int, int]:
    return int(np.count_nonzero(model.tables["hist_keys"])), int(np.count_nonzero(model.tables["pair_keys"]))


def test_generative_count_cutoff_keeps_distributions_normalised() -> None:
    """min_count drops rare deep histories (smaller tables); every distribution still sums to one."""
    events = _toy_events(seed=5)
    full = train_generative(_event_set(events), SMALL)
    cut = train_generative(_event_set(events), dataclasses.replace(SMALL, min_count=2))
    assert _stored(cut)[0] < 0.8 * _stored(full)[0] and _stored(cut)[1] < 0.8 * _stored(full)[1]
    rng = np.random.default_rng(4)
    for m, spec in enumerate(cut.specs):
        contexts = [c for mm, _, c, _, _ in events[:60] if mm == m] + _contexts(rng, spec.context_length, 30)
        for context in contexts:
            total = math.fsum(math.exp(cut.logprob(m, y, context)) for y in range(1, spec.n_outcomes))
            assert abs(total - 1.0) < 1e-9, (m, context, total)


@pytest.mark.parametrize("threshold", [0.05, 0.5, 3.0])
def test_generative_prune_threshold_bounds_the_change(threshold: float) -> None:
    """Roark's -t: each dropped pair or history moves a log-probability by less than ln(1 + t), so no
    score moves by more than (levels) x ln(1 + t); larger thresholds store fewer entries."""
    events = _toy_events(seed=6)
    full = train_generative(_event_set(events), SMALL)
    pruned = train_generative(_event_set(events), dataclasses.replace(SMALL, prune=threshold))
    assert sum(_stored(pruned)) < sum(_stored(full))
    rng = np.random.default_rng(8)
    worst = 0.0
    for m, spec in enumerate(full.specs):
        bound = (spec.context_length + 1) * math.log1p(threshold) + 1e-12
        contexts = [c for mm, _, c, _, _ in events[:80] if mm == m] + _contexts(rng, spec.context_length, 40)
        for context in contexts:
            for y in range(1, spec.n_outcomes):
                diff = abs(pruned.logprob(m, y, context) - full.logprob(m, y, context))
                assert diff < bound, (m, y, context, diff)
                worst = max(worst, diff)
    assert worst > 0


@pytest.mark.parametrize(("threshold", "min_count"), [(0.05, 0), (0.5, 0), (3.0, 0), (0.5, 2), (0.0, 3)])
def test_generative_pruned_tables_are_prefix_closed(threshold: float, min_count: int) -> None:
    """The kept pairs and histories are closed under prefixes (the kernel's binary searches need it):
    a kept pair's parent pair and history are kept, a kept history's parent is kept."""
    from glmnlp.parser.generative_training import _collect, _prune

    models, outcomes, _, depths, contexts = _event_set(_toy_events(seed=9)).arrays()
    stats = _collect(models, outcomes, depths, contexts)
    rng = np.random.default_rng(0)
    hist_lam = rng.uniform(0.0, 0.6, len(stats.hist_keys))
    smoothed = rng.uniform(0.01, 1.0, len(stats.pair_keys))
    pair_level = stats.hist_level[stats.pair_hist]
    keep_hist, keep_pair = _prune(stats, hist_lam, smoothed, pair_level, threshold, min_count)
    assert 0 < keep_pair.sum() < len(keep_pair)
    deep = keep_pair & (pair_level > 0)
    assert keep_pair[stats.pair_parent[deep]].all()
    assert keep_hist[stats.pair_hist[keep_pair]].all()
    assert keep_hist[stats.hist_parent[keep_hist & (stats.hist_level > 0)]].all()
    assert keep_hist[stats.hist_level == 0].all()


def test_generative_logprob_many_matches_logprob(toy: tuple[list[Event], GenerativeModel]) -> None:
    """The vectorised scorer agrees with single calls; invalid outcomes give -inf."""
    _, model = toy
    rng = np.random.default_rng(5)
    models = rng.integers(0, 2, size=300)
    contexts = rng.integers(0, 5, size=(300, 4))
    lengths = rng.integers(0, 5, size=300)
    outcomes = rng.integers(1, 7, size=300)
    got = model.logprob_many(models, outcomes, contexts, lengths)
    for i in range(300):
        n = min(int(lengths[i]), model.specs[models[i]].context_length)
        assert got[i] == model.logprob(int(models[i]), int(outcomes[i]), contexts[i, :n].tolist())
    bad = model.logprob_many(np.array([0, 0]), np.array([0, 7]), np.zeros((2, 4), dtype=np.int64))
    assert np.all(bad == -np.inf)
    with pytest.raises(ValueError):
        model.logprob(0, 7, ())
    with pytest.raises(ValueError):
        model.logprob(0, 1, (0, 0, 0, 0, 0))


def test_generative_em_trace_never_decreases(toy: tuple[list[Event], GenerativeModel]) -> None:
    """Deleted-estimation EM raises (never lowers) the held-out log-likelihood in every fold."""
    _, model = toy
    assert len(model.em_traces) == SMALL.folds
    for trace in model.em_traces:
        assert len(trace) >= 3
        for before, after in zip(trace, trace[1:]):
            assert after >= before - 1e-9 * abs(before)
        assert trace[-1] > trace[0]


@given(st.integers(0, 10_000))
def test_generative_em_monotone_on_random_problems(seed: int) -> None:
    """em_lambdas is monotone on random held-out tables with random prefix-shaped seen masks."""
    rng = np.random.default_rng(seed)
    n, levels, n_buckets = 40, 4, 6
    depth = rng.integers(-1, levels, size=n)
    seen = np.arange(levels)[None, :] <= depth[:, None]
    p_hat = np.where(seen, rng.random((n, levels)) * (rng.random((n, levels)) < 0.7), 0.0)
    buckets = rng.integers(0, n_buckets, size=(n, levels))
    result = em_lambdas(p_hat, seen, buckets, np.full(n, 0.1), np.full(n_buckets, 0.49), max_iterations=30,
                        tolerance=0.0)
    for before, after in zip(result.trace, result.trace[1:]):
        assert after >= before - 1e-9 * abs(before)


def _em_reference(p_hat, seen, buckets, uniform, initial, max_iterations, tolerance):  # type: ignore[no-untyped-def]
    """em_lambdas written with whole-array numpy expressions: the definition the C E-step must match bit for bit."""
    lam = np.asarray(initial, dtype=np.float64).copy()
    safe = np.where(seen, buckets, 0)
    flat = safe[seen]
    trace: list[float] = []
    mass = np.zeros(len(lam))
    for iteration in range(max_iterations + 1):
        grid = np.where(seen, lam[safe], 0.0)
        levels = np.empty_like(p_hat)
        current = uniform.astype(np.float64).copy()
        for j in range(p_hat.shape[1]):
            current = grid[:, j] * p_hat[:, j] + (1.0 - grid[:, j]) * current
            levels[:, j] = current
        total = current
        trace.append(float(np.sum(np.log(total))))
        stop = iteration == max_iterations or (len(trace) > 1 and trace[-1] - trace[-2] <= tolerance * abs(trace[-2]))
        numer = np.empty_like(p_hat)
        denom = np.empty_like(p_hat)
        above = np.ones(p_hat.shape[0])
        for j in range(p_hat.shape[1] - 1, -1, -1):
            numer[:, j] = grid[:, j] * p_hat[:, j] * above / total
            denom[:, j] = above * levels[:, j] / total
            above = above * (1.0 - grid[:, j])
        num_b = np.bincount(flat, weights=numer[seen], minlength=len(lam))
        den_b = np.bincount(flat, weights=denom[seen], minlength=len(lam))
        mass = den_b
        if stop:
            break
        used = den_b > 0
        lam = lam.copy()
        lam[used] = np.clip(num_b[used] / den_b[used], 0.0, 1.0)
    return lam, trace, mass


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10_000), st.integers(1, 6), st.integers(1, 9))
def test_generative_em_one_pass_kernel_gives_the_numpy_definition_bit_for_bit(seed: int, levels: int, n_buckets: int) -> None:
    """The one-pass C E-step (em_sums) gives the lambdas, traces and masses of the numpy expressions exactly."""
    rng = np.random.default_rng(seed)
    n = int(rng.integers(1, 300))
    depth = rng.integers(-1, levels, size=n)
    seen = np.arange(levels)[None, :] <= depth[:, None]
    p_hat = np.where(seen, rng.random((n, levels)) * (rng.random((n, levels)) < 0.7), 0.0)
    buckets = rng.integers(0, n_buckets, size=(n, levels))
    uniform = 1.0 / rng.integers(2, 50, size=n).astype(np.float64)
    initial = rng.random(n_buckets)
    lam, trace, mass = _em_reference(p_hat, seen, buckets, uniform, initial, 40, 1e-6)
    result = em_lambdas(p_hat, seen, buckets, uniform, initial, max_iterations=40, tolerance=1e-6)
    assert result.lambdas.tobytes() == lam.tobytes()
    assert result.mass.tobytes() == mass.tobytes()
    assert result.trace == trace


def test_generative_em_reaches_likelihood_maximum() -> None:
    """With one bucket, the EM lambda maximises the held-out likelihood (grid-search oracle)."""
    rng = np.random.default_rng(7)
    n = 200
    p_hat = (rng.random((n, 1)) < 0.6) * rng.random((n, 1))
    seen = np.ones((n, 1), dtype=bool)
    uniform = np.full(n, 0.2)
    result = em_lambdas(p_hat, seen, np.zeros((n, 1), dtype=np.int64), uniform, np.array([0.49]),
                        max_iterations=10_000, tolerance=1e-15)
    grid = np.linspace(0.0, 1.0, 100_001)[:-1]
    loglik = np.sum(np.log(grid[:, None] * p_hat[:, 0][None, :] + (1 - grid[:, None]) * 0.2), axis=1)
    assert abs(result.lambdas[0] - grid[np.argmax(loglik)]) < 2e-5


def test_generative_roundtrip_through_model_io(toy: tuple[list[Event], GenerativeModel], tmp_path: Path) -> None:
    """to_arrays / save_model / load_model / from_arrays reproduce every score exactly."""
    _, model = toy
    metadata, arrays = model.to_arrays()
    save_model(tmp_path / "gen", kind="generative", metadata=metadata, arrays=arrays)
    loaded = GenerativeModel.from_arrays(*load_model(tmp_path / "gen", kind="generative"))
    rng = np.random.default_rng(4)
    for m, spec in enumerate(model.specs):
        for context in _contexts(rng, spec.context_length, 30):
            for y in range(1, spec.n_outcomes):
                assert loaded.logprob(m, y, context) == model.logprob(m, y, context)
    assert loaded.em_traces == model.em_traces
    broken = dict(metadata, format_version=99)
    with pytest.raises(ModelFileError):
        GenerativeModel.from_arrays(broken, arrays)
    with pytest.raises(ModelFileError):
        GenerativeModel.from_arrays(metadata, {k: v for k, v in arrays.items() if k != "pair_keys"})


def test_generative_training_is_deterministic() -> None:
    """Same events and seed give identical tables; event order does not matter."""
    events = _toy_events(seed=9, n_sentences=12)
    a = train_generative(_event_set(events), SMALL).to_arrays()[1]
    b = train_generative(_event_set(list(reversed(events))), SMALL).to_arrays()[1]
    for name in a:
        assert np.array_equal(a[name], b[name]), name


def test_generative_rejects_bad_events() -> None:
    """Out-of-range outcomes, wrong context lengths and bad depths raise clear errors."""
    events = EventSet(SPECS)
    with pytest.raises(ValueError, match="outcome"):
        events.add(0, 7, (0, 0, 0, 0), 0)
    with pytest.raises(ValueError, match="context"):
        events.add(0, 1, (0, 0), 0)
    with pytest.raises(ValueError, match="depth"):
        events.add(1, 1, (0, 0), 0, depth=3)
    with pytest.raises(ConfigError):
        train_generative(_event_set(_toy_events(n_sentences=3)), SmoothingConfig(folds=10))


def test_generative_jackknife_folds_partition() -> None:
    """Held-out sets partition the sentences and no fold trains on its held-out sentences."""
    folds = jackknife_folds(103, k=10, seed=5)
    assert len(folds) == 10
    heldout = np.concatenate([f.heldout for f in folds])
    assert sorted(heldout.tolist()) == list(range(103))
    for fold in folds:
        assert not set(fold.train.tolist()) & set(fold.heldout.tolist())
        assert sorted(fold.train.tolist() + fold.heldout.tolist()) == list(range(103))
        assert len(fold.heldout) in (10, 11)
    again = jackknife_folds(103, k=10, seed=5)
    assert all(np.array_equal(f.heldout, g.heldout) for f, g in zip(folds, again))
    with pytest.raises(ConfigError):
        jackknife_folds(5, k=10)


def test_generative_jackknife_models_never_saw_heldout() -> None:
    """A sentence's private outcome is unseen by the fold model that scores it, seen by the others."""
    n_sentences = 12
    spec = ModelSpec("marker", 1, n_sentences + 3)
    events = EventSet([spec])
    for s in range(n_sentences):
        for _ in range(3):
            events.add(0, 1, (s % 2,), s)
        events.add(0, 2 + s, (s % 2,), s)  # outcome 2 + s occurs only in sentence s
    models, folds = train_jackknife(events, k=4, seed=1, config=SmoothingConfig(folds=2, min_bin_mass=1))
    never = n_sentences + 2  # an outcome id no sentence uses
    for model, fold in zip(models, folds):
        for s in range(n_sentences):
            own = model.logprob(0, 2 + s, (s % 2,))
            unseen = model.logprob(0, never, (s % 2,))
            if s in set(fold.heldout.tolist()):
                assert own == unseen
            else:
                assert own > unseen


def test_generative_unseen_word_scored_by_its_class() -> None:
    """An unseen word gets exactly its unknown-word class's probability, which carries real mass."""
    sentences = [
        [("The", "DT"), ("dog", "NN"), ("saw", "VBD"), ("Smith", "NNP")],
        [("The", "DT"), ("cat", "NN"), ("saw", "VBD"), ("Clark", "NNP")],
        [("A", "DT"), ("dog", "NN"), ("met", "VBD"), ("Baker", "NNP")],
        [("The", "DT"), ("cat", "NN"), ("saw", "VBD"), ("the", "DT"), ("dog", "NN")],
    ]
    lexicon = Lexicon.build(sentences)
    tags = {t: i + 3 for i, t in enumerate(sorted({t for s in sentences for _, t in s}))}
    _, word_spec = roark_specs(n_categories=10, n_words=lexicon.size)
    events = EventSet([ModelSpec("node", 1, 10), word_spec])
    for s, sentence in enumerate(sentences):
        for i, (word, pos) in enumerate(sentence):
            context = (tags[pos], 0, 0, 0, 0, 0)
            word_id, class_id = lexicon.training_ids(word, pos, i == 0)
            events.add(WORD_MODEL, word_id, context, s)
            if class_id:
                events.add(WORD_MODEL, class_id, context, s, depth=1)
    model = train_generative(events, SmoothingConfig(folds=0))
    context = (tags["NNP"], 0, 0, 0, 0, 0)
    unseen = lexicon.word_id("Brown", "NNP", False)
    assert unseen == lexicon.class_id("oovNNP")
    class_lp = model.logprob(WORD_MODEL, lexicon.class_id("oovNNP"), context)
    assert model.logprob(WORD_MODEL, unseen, context) == class_lp
    assert class_lp > model.logprob(WORD_MODEL, lexicon.class_id("oovORD"), context) + 2.0
    # Hand-worked at level 1 (context = the POS only), all lambdas 0.49 (no EM): the three rare
    # NNP tokens are counted as themselves and as oovNNP, so c(NNP) = 6 and c(NNP, oovNNP) = 3;
    # at level 0 oovNNP has 3 of the len(events) counts.
    lam = SmoothingConfig().initial_lambda
    p0 = lam * 3 / len(events) + (1 - lam) / (lexicon.size - 1)
    expected = math.log(lam * 3 / 6 + (1 - lam) * p0)
    assert model.logprob(WORD_MODEL, unseen, (tags["NNP"],)) == pytest.approx(expected, abs=1e-12)


# -- surprisal ------------------------------------------------------------------------------

TOY_PCFG: dict[str, list[tuple[tuple[str, ...], float]]] = {
    "S": [(("NP", "VP"), 1.0)],
    "NP": [(("D", "N"), 0.6), (("N",), 0.4)],
    "VP": [(("V",), 0.5), (("V", "NP"), 0.5)],
    "D": [(("the",), 1.0)],
    "N": [(("dog",), 0.5), (("cat",), 0.5)],
    "V": [(("runs",), 0.3), (("sees",), 0.7)],
}


def _advance(states: list[tuple[tuple[str, ...], float]], word: str) -> list[tuple[tuple[str, ...], float]]:
    """Extend every partial leftmost derivation until it has generated ``word`` (the full 'beam')."""
    out = []
    agenda = list(states)
    while agenda:
        stack, lp = agenda.pop()
        if not stack:
            continue
        top, rest = stack[0], stack[1:]
        if top in TOY_PCFG:
            for rhs, p in TOY_PCFG[top]:
                agenda.append((rhs + rest, lp + math.log(p)))
        elif top == word:
            out.append((rest, lp))
    return out


def _complete_derivations(stack: tuple[str, ...], words: tuple[str, ...], p: float):  # type: ignore[no-untyped-def]
    if not stack:
        yield words, p
        return
    top, rest = stack[0], stack[1:]
    if top in TOY_PCFG:
        for rhs, q in TOY_PCFG[top]:
            yield from _complete_derivations(rhs + rest, words, p * q)
    else:
        yield from _complete_derivations(rest, words + (top,), p)


@pytest.mark.parametrize(
    "sentence", [("the", "dog", "sees", "the", "cat"), ("cat", "runs"), ("the", "cat", "sees", "dog")]
)
def test_generative_prefix_probability_matches_brute_force(sentence: tuple[str, ...]) -> None:
    """With every hypothesis in the beam, prefix probabilities equal sums over complete derivations."""
    language = list(_complete_derivations(("S",), (), 1.0))
    assert math.fsum(p for _, p in language) == pytest.approx(1.0, abs=1e-12)
    states: list[tuple[tuple[str, ...], float]] = [(("S",), 0.0)]
    beams = []
    for word in sentence:
        states = _advance(states, word)
        beams.append([lp for _, lp in states])
    got = prefix_logprobs(beams)
    for i in range(len(sentence)):
        brute = math.fsum(p for words, p in language if words[: i + 1] == sentence[: i + 1])
        assert got[i] == pytest.approx(math.log(brute), abs=1e-12)
    per_word = surprisals(beams)
    assert np.all(per_word >= -1e-12)
    assert math.fsum(per_word) == pytest.approx(-math.log(
        math.fsum(p for words, p in language if words[: len(sentence)] == sentence)), abs=1e-12)


def test_generative_surprisal_sums_to_sentence_surprisal() -> None:
    """Per-word surprisals telescope to -log P(whole prefix); hand-worked two-word example."""
    beams = [[math.log(0.3), math.log(0.2)], [math.log(0.1), math.log(0.05), math.log(0.05)]]
    s = surprisals(beams)
    assert s[0] == pytest.approx(-math.log(0.5), abs=1e-15)
    assert s[1] == pytest.approx(-math.log(0.2 / 0.5), abs=1e-15)
    assert math.fsum(s) == pytest.approx(-prefix_logprobs(beams)[-1], abs=1e-15)
    with pytest.raises(ValueError, match="empty beam"):
        surprisals([[0.0], []])
