"""Word-by-word measures (glmnlp.parser.measures) on a toy grammar: brute-force equality (next-word measures too),
identities, candidate tags, unknown words and options refused."""

from __future__ import annotations

import itertools
import math
from pathlib import Path

import numpy as np
import pytest

from glmnlp.errors import ConfigError
from glmnlp.parser.generative import NODE_MODEL, WORD_MODEL
from glmnlp.parser.lexicon import UNKNOWN_CLASSES
from glmnlp.parser.measures import EOS, MeasureOptions, candidate_tags, sentence_measures
from glmnlp.parser.model import Parser

from derivation_oracle import all_derivations
from measures_fixtures import EXACT, _setup
from toy_trees import TINY


def _events(parser: Parser, words: list[str], tags: list[str], steps: tuple, complete: bool) -> list:
    atoms, next_pos, _isq, _off, _cand = parser._inputs(words, [[t] for t in tags])
    sites = np.array([s for s, _ in steps], dtype=np.int32)
    chains = np.array([c for _, c in steps], dtype=np.int32)
    return parser._beam.gen_events(atoms, next_pos, sites, chains, complete)


def _logprob(parser: Parser, words: list[str], log: list, unknown_by_pos: bool = False) -> tuple[float, float]:
    """(total, last word's emission) log-probability of replayed events, outcomes looked up in Python.

    ``unknown_by_pos``: an unknown word's class is scored given its POS only (the context's first atom).
    """
    term = parser.generative
    total, last = 0.0, 0.0
    for model, outcome, index, ctx, _lp in log:
        if model == NODE_MODEL:
            total += term.model.logprob(model, outcome, list(ctx))
        else:
            tag = parser.grammar.categories[ctx[0]][0]
            wid = term.lexicon.word_id(words[index], tag, index == 0)
            unknown = wid <= len(UNKNOWN_CLASSES)
            last = term.model.logprob(WORD_MODEL, wid, list(ctx)[:1] if unknown and unknown_by_pos else list(ctx))
            total += last
    return total, last


def _frontier(parser: Parser, steps: tuple) -> list[int]:
    """Open-frontier length after each word and the moves each word took (independent of the beam)."""
    depth, sizes, moves = 0, [], []
    for k, (site, c) in enumerate(steps):
        chain = parser._chains[c]
        if k == 0:
            moves.append(len(chain))
            depth = len(chain) - 1
        else:
            moves.append(depth - 1 - site + len(chain))
            depth = site + len(chain)
        sizes.append(depth)
    return sizes, moves


def _brute(parser: Parser, words: list[str], tag_sets: list[list[str]], unknown_by_pos: bool = False
           ) -> list[dict[str, float]]:
    """Every measure from its definition, by enumerating all derivations (over every tag assignment)."""
    per_prefix = []
    for i in range(1, len(words) + 2):
        items = []  # ((tags, steps), logprob, lex, open, moves)
        seen = set()
        for tags in itertools.product(*tag_sets):
            tags = list(tags)
            stop = i if i <= len(words) else None
            for d in all_derivations(parser, words, tags, stop=stop):
                if (tuple(tags[:i]), d) in seen:  # the same prefix analysis under another later tag
                    continue
                seen.add((tuple(tags[:i]), d))
                lp, lex = _logprob(parser, words, _events(parser, words, tags, d, stop is None), unknown_by_pos)
                sizes, moves = _frontier(parser, d)
                if stop is None:
                    closures = sizes[-1]  # every open node, the root included
                    items.append(((tuple(tags), d), lp, 0.0, 0, closures))
                else:
                    items.append(((tuple(tags[:i]), d), lp, lex, sizes[-1] - 1, moves[-1]))
        per_prefix.append(items)
    rows = []
    prev_prefix, prev_best, prev_pb = 0.0, None, 1.0
    for i, items in enumerate(per_prefix):
        lps = np.array([it[1] for it in items])
        top = lps.max()
        prefix = top + math.log(np.exp(lps - top).sum())
        syn = np.array([it[1] - it[2] for it in items])
        syn_prefix = syn.max() + math.log(np.exp(syn - syn.max()).sum())
        p = np.exp(lps - prefix)
        b = int(np.argmax(lps))
        key = lambda it: (it[0][0][:i], it[0][1][:i])  # noqa: E731 -- the analysis of the previous word
        ext = np.array([prev_best is None or key(it) == prev_best for it in items])
        rows.append({
            "prefix": -prefix, "surprisal": prev_prefix - prefix, "syntactic_surprisal": prev_prefix - syn_prefix,
            "lexical_surprisal": syn_prefix - prefix, "entropy": float(-(p * np.log(p)).sum()),
            "open_brackets": float(np.dot(p, [it[3] for it in items])), "steps": float(np.dot(p, [it[4] for it in items])),
            "rerank": float(p[ext].sum()) / prev_pb, "top_rerank": float(p[b]) / prev_pb if ext[b] else 0.0,
        })
        prev_prefix, prev_pb = prefix, float(p[b])
        prev_best = (items[b][0][0][: i + 1], items[b][0][1][: i + 1])
    return rows


CASES = [
    ("the cat saw dog with a hat .".split(), ["DT", "NN", "VBD", "NN", "IN", "DT", "NN", "."]),
    ("the dog saw the cat with the hat .".split(), ["DT", "NN", "VBD", "DT", "NN", "IN", "DT", "NN", "."]),
]


@pytest.mark.parametrize("words,tags", CASES)
def test_measures_equal_brute_force_with_an_exact_beam(words: list[str], tags: list[str]) -> None:
    """Unpruned beam, given tags: every column of every row equals its value computed by enumeration."""
    parser = _setup()
    rows = sentence_measures(parser, words, tags, options=EXACT)
    expected = _brute(parser, words, [[t] for t in tags])
    assert [r["word"] for r in rows] == words + [EOS]
    for row, exp in zip(rows, expected):
        for col, value in exp.items():
            assert row[col] == pytest.approx(value, abs=1e-9), (row["index"], col)


def test_measures_marginalise_over_candidate_tags_like_brute_force() -> None:
    """Several candidate tags per word: the beam sums over tag assignments exactly as enumeration does."""
    parser = _setup()
    words = "the dog saw a hat .".split()
    tag_sets = [["DT"], ["NN", "VB"], ["VBD", "NN"], ["DT"], ["NN"], ["."]]
    rows = sentence_measures(parser, words, tag_sets, options=EXACT)
    expected = _brute(parser, words, tag_sets)
    for row, exp in zip(rows, expected):
        for col, value in exp.items():
            assert row[col] == pytest.approx(value, abs=1e-9), (row["index"], col)


@pytest.mark.parametrize("units", ["bits", "nats"])
def test_measures_identities(units: str) -> None:
    """Surprisals sum to the sentence's -log P; syntactic + lexical = total; entropy >= 0; units scale logs."""
    parser = _setup()
    words, tags = CASES[1]
    rows = sentence_measures(parser, words, "all", options=MeasureOptions(units=units, gamma=1e18, cap=0))
    scale = math.log(2) if units == "bits" else 1.0
    for r in rows:
        assert r["syntactic_surprisal"] + r["lexical_surprisal"] == pytest.approx(r["surprisal"], abs=1e-9)
        assert r["entropy"] >= 0.0 and r["surprisal"] > 0 and r["units"] == units
        assert r["beam"] >= 1 and 0 <= r["rerank"] and 0 <= r["top_rerank"]
    assert sum(r["surprisal"] for r in rows) == pytest.approx(rows[-1]["prefix"], abs=1e-9)
    # the last row's prefix is the -log of the summed probability of every complete parse
    lps = []
    every = [[t for t in parser.grammar.pos_tags if parser.grammar.lookup(t) is not None]] * len(words)
    for tags_ in itertools.product(*[[t] for t in tags]):
        for d in all_derivations(parser, words, list(tags_)):
            lps.append(_logprob(parser, words, _events(parser, words, list(tags_), d, True))[0])
    given = sentence_measures(parser, words, tags, options=MeasureOptions(units=units, gamma=1e18, cap=0))
    top = max(lps)
    assert given[-1]["prefix"] * scale == pytest.approx(-(top + math.log(sum(math.exp(x - top) for x in lps))),
                                                        abs=1e-9)
    assert len(every[0]) > 1


def test_measures_deterministic_grammar_has_zero_entropy() -> None:
    """A grammar with one analysis per prefix: entropy 0, rerank ratios 1, steps = moves of the one parse."""
    parser = _setup(["(TOP (S (NP (DT the) (NN dog)) (VP (VBD barked)) (. .)))"])
    rows = sentence_measures(parser, "the dog barked .".split(), ["DT", "NN", "VBD", "."], options=EXACT)
    assert all(r["beam"] == 1 for r in rows)
    assert all(r["entropy"] == 0.0 and r["rerank"] == 1.0 and r["top_rerank"] == 1.0 for r in rows)
    # TOP S NP DT | NN | close NP, VP VBD | close VP, . | close S, close TOP
    assert [r["steps"] for r in rows] == [4, 1, 3, 2, 2]
    assert [r["open_brackets"] for r in rows] == [2, 2, 2, 1, 0]


def test_measures_tracking_leaves_parses_unchanged() -> None:
    """Tracking only records: the parse and its score are the same with it on."""
    parser = _setup()
    parser.generative.weight = 1.0
    words, tags = CASES[1]
    before = parser.parse_nbest(words, tags, 3)
    sentence_measures(parser, words, tags, options=MeasureOptions(gamma=5.0, cap=3))
    parser._beam.set_tracking(True)
    try:
        during = parser.parse_nbest(words, tags, 3)
    finally:
        parser._beam.set_tracking(False)
    assert during == before == parser.parse_nbest(words, tags, 3)


def test_measures_combined_kind_and_pruned_beam() -> None:
    """A pruned beam gives a lower prefix probability than the exact one; the combined kind runs too."""
    parser = _setup()
    words, tags = CASES[1]
    exact = sentence_measures(parser, words, tags, options=EXACT)
    pruned = sentence_measures(parser, words, tags, options=MeasureOptions(units="nats", gamma=2.0, cap=2))
    assert all(p["prefix"] >= e["prefix"] - 1e-12 for p, e in zip(pruned, exact))
    assert max(p["beam"] for p in pruned) <= 2
    with pytest.raises(ConfigError, match="no perceptron weights"):  # zero weights: the generative beam, refused
        sentence_measures(parser, words, tags, options=MeasureOptions(kind="combined", units="nats"))
    parser.weights = np.array([0.0, 0.25])
    comb = sentence_measures(parser, words, tags, options=MeasureOptions(kind="combined", units="nats"))
    assert comb[-1]["prefix"] == pytest.approx(exact[-1]["prefix"], abs=1e-9)  # no pruning: every analysis counts


def test_combined_measures_of_a_generative_model_name_the_model(tmp_path: Path,
                                                                 capsys: pytest.CaptureFixture[str]) -> None:
    """``measures --kind combined`` with a generative model was ``error: <input>: ...`` and an InputError (the text
    was blamed); the option does not suit the model: a ConfigError naming the model's directory, as a model without
    a generative term is."""
    import glmnlp
    from glmnlp.cli import main

    model = tmp_path / "generative_only"
    _setup().save(model)
    with pytest.raises(ConfigError, match=f"^{model}: kind 'combined' ranks the beam .* no perceptron weights"):
        glmnlp.measures("the dog barked", model=str(model), kind="combined")
    assert glmnlp.measures("the dog barked", model=str(model))[0]["word"] == "the"
    assert main(["measures", "-q", "--model", str(model), "--kind", "combined", "the dog barked"]) == 1
    out, err = capsys.readouterr()
    assert out == "" and err.startswith(f"error: {model}: kind 'combined' ranks the beam") and "<input>" not in err


def test_candidate_tags_use_the_word_only() -> None:
    """The model's candidate tags of a word do not depend on the words after it."""
    parser = _setup()
    a = candidate_tags(parser, "the dog saw the cat .".split())
    b = candidate_tags(parser, "the dog barked .".split())
    assert a[:2] == b[:2] and all(t for t in a)
    assert "DT" in a[0] and "NN" in a[1]


def test_candidate_tag_tables_go_with_their_model() -> None:
    """A model's candidate-tag table is kept while the model lives and dropped with it: the tables were held by id
    for the last 8 models, keeping their generative terms (27 MB each for the bundled model) after the pipelines
    that loaded them were dropped."""
    import gc
    import weakref

    from glmnlp.parser.measure_tags import _TAG_TABLES

    parser = _setup()
    candidate_tags(parser, "the dog barked .".split())
    term = weakref.ref(parser.generative)
    assert id(term()) in _TAG_TABLES
    key = id(term())
    del parser
    gc.collect()
    assert term() is None and key not in _TAG_TABLES


def _brute_next(parser: Parser, words: list[str], tags: list[str], i: int, contexts: int = 10**6) -> dict[str, float]:
    """Expected measures of position i from every one-word extension of every analysis of words[:i]; the lexicon
    distributions of the ``contexts`` most probable word contexts, renormalised (the others share their entropy)."""
    term = parser.generative
    every = [t for t in parser.grammar.pos_tags if parser.grammar.lookup(t) is not None]
    syn, lexp, ctxs = [], [], []
    for t in every:
        ws, ts = words[: i + 1], tags[:i] + [t]
        for d in all_derivations(parser, ws, ts, stop=i + 1):
            log = _events(parser, ws, ts, d, False)
            total, last = _logprob(parser, ws, log)
            syn.append(total - last)
            lexp.append(last)
            ctxs.append([e[3] for e in log if e[0] == WORD_MODEL and e[2] == i][0])
    syn_a = np.array(syn)
    q = np.exp(syn_a - syn_a.max())
    q /= q.sum()
    n_ids = term.lexicon.size
    mass: dict[tuple[int, ...], float] = {}
    for qk, ctx in zip(q, ctxs):
        mass[tuple(ctx)] = mass.get(tuple(ctx), 0.0) + float(qk)
    kept = set(sorted(mass, key=lambda c: -mass[c])[:contexts])
    covered = sum(mass[c] for c in kept)
    dist = np.zeros(n_ids - 1)
    cond = 0.0
    actual = 0.0
    for qk, ctx, lx in zip(q, ctxs, lexp):
        if tuple(ctx) not in kept:
            continue
        lp = np.array([term.model.logprob(WORD_MODEL, w, list(ctx)) for w in range(1, n_ids)])
        cond += qk * float(-(np.exp(lp) * lp).sum()) / covered
        dist += qk * np.exp(lp) / covered
        actual += qk * math.exp(lx) / covered
    return {"syntactic_entropy": float(-(q * np.log(q)).sum()), "total_entropy": float(-(q * np.log(q)).sum()) + cond,
            "lexical_entropy": cond, "word_entropy": float(-(dist * np.log(dist)).sum()),
            "rank": float(1 + np.sum(dist > actual * (1 + 1e-9)))}


def test_next_word_measures_equal_brute_force() -> None:
    """next_word=True: syntactic/total/lexical/word entropy and rank equal their enumerated values."""
    parser = _setup()
    words, tags = "the dog saw the cat .".split(), ["DT", "NN", "VBD", "DT", "NN", "."]
    opts = MeasureOptions(units="nats", gamma=1e18, cap=0, next_word=True, next_contexts=10**6)
    rows = sentence_measures(parser, words, tags, options=opts)
    for i in range(len(words)):
        exp = _brute_next(parser, words, tags, i)
        for col, value in exp.items():
            assert rows[i][col] == pytest.approx(value, abs=1e-9), (i, col)
        assert rows[i]["total_entropy"] >= rows[i]["syntactic_entropy"] >= 0.0
    assert math.isnan(rows[-1]["rank"])
    assert min(r["rank"] for r in rows[:-1]) == 1.0
    plain = sentence_measures(parser, words, tags, options=EXACT)
    assert [r["surprisal"] for r in plain] == [r["surprisal"] for r in rows]


def test_next_word_rank_counts_no_id_of_the_word_under_fewer_contexts() -> None:
    """With the lexicon distribution taken from the most probable word contexts only (``next_contexts``, 64 by
    default), the word's own probability was taken over every context, smaller than its renormalised entry in the
    distribution: the word counted as more probable than itself, and the most probable word ranked 2."""
    parser = _setup()
    words, tags = "the dog saw the cat .".split(), ["DT", "NN", "VBD", "DT", "NN", "."]
    opts = MeasureOptions(units="nats", gamma=1e18, cap=0, next_word=True, next_contexts=1)
    rows = sentence_measures(parser, words, tags, options=opts)
    for i in range(len(words)):
        exp = _brute_next(parser, words, tags, i, contexts=1)
        assert rows[i]["rank"] == exp["rank"], i
        assert rows[i]["lexical_entropy"] == pytest.approx(exp["lexical_entropy"], abs=1e-9), i
    assert min(r["rank"] for r in rows[:-1]) == 1.0


def test_model_tags_dead_end_reruns_with_every_tag() -> None:
    """If the model's own tags leave no analysis, the words from the dead end get every tag; given tags do not."""
    parser = _setup()
    opts = MeasureOptions(units="nats", gamma=1e18, cap=0, max_tags=1, tag_margin=0.0)
    words = "the dog dog .".split()
    assert candidate_tags(parser, words, margin=0.0, max_tags=1) == [["DT"], ["NN"], ["NN"], ["."]]
    given = sentence_measures(parser, words, [["DT"], ["NN"], ["NN"], ["."]], options=opts)
    assert [math.isinf(r["surprisal"]) for r in given] == [False, False, True, True, True]
    assert math.isnan(given[2]["entropy"]) and given[2]["beam"] == 0
    model = sentence_measures(parser, words, "model", options=opts)
    assert all(math.isfinite(r["surprisal"]) for r in model)
    assert [r["surprisal"] for r in model[:2]] == pytest.approx([r["surprisal"] for r in given[:2]], abs=1e-12)


@pytest.mark.parametrize("unknown", ["model", "pos"])
def test_measures_unknown_words_scored_in_context_or_by_pos(unknown: str) -> None:
    """unknown_words='pos' scores an unknown word's class given its POS alone; both equal brute force."""
    parser = _setup()
    words, tags = "the zebra saw the cat .".split(), ["DT", "NN", "VBD", "DT", "NN", "."]
    assert parser.generative.lexicon.word_id("zebra", "NN", False) <= len(UNKNOWN_CLASSES)
    before = parser.parse_nbest(words, tags, 2)
    opts = MeasureOptions(units="nats", gamma=1e18, cap=0, unknown_words=unknown)
    rows = sentence_measures(parser, words, tags, options=opts)
    expected = _brute(parser, words, [[t] for t in tags], unknown_by_pos=unknown == "pos")
    for row, exp in zip(rows, expected):
        for col, value in exp.items():
            assert row[col] == pytest.approx(value, abs=1e-9), (row["index"], col)
    other = sentence_measures(parser, words, tags, options=MeasureOptions(units="nats", gamma=1e18, cap=0,
                              unknown_words="pos" if unknown == "model" else "model"))
    assert rows[1]["lexical_surprisal"] != pytest.approx(other[1]["lexical_surprisal"], abs=1e-6)
    assert rows[0]["surprisal"] == pytest.approx(other[0]["surprisal"], abs=1e-12)
    assert parser.parse_nbest(words, tags, 2) == before  # parsing never uses it


def test_candidate_tags_are_the_tags_seen_with_the_word() -> None:
    """By default a word's candidates are the tags it was seen with in training (smoothing gives every tag
    some probability, so without the filter the margin lets unseen tags in)."""
    parser = _setup(TINY + ["(TOP (S (NP (DT the) (NN saw)) (VP (VBD barked)) (. .)))"])
    words = "the saw barked .".split()
    seen = candidate_tags(parser, words)
    assert seen[0] == ["DT"] and sorted(seen[1]) == ["NN", "VBD"] and seen[2] == ["VBD"] and seen[3] == ["."]
    every = candidate_tags(parser, words, seen=False)
    assert all(len(t) > 2 for t in every)
    rows = sentence_measures(parser, words, options=MeasureOptions(units="nats", gamma=1e18, cap=0))
    assert all(math.isfinite(r["surprisal"]) for r in rows)
    assert rows == sentence_measures(parser, words, seen, options=MeasureOptions(units="nats", gamma=1e18, cap=0))
    with pytest.raises(ValueError, match="tag_filter"):
        MeasureOptions(tag_filter="none")  # type: ignore[arg-type]


@pytest.mark.parametrize("field, value", [("gamma", -1.0), ("gamma", float("nan")), ("gamma", 1e301),
                                          ("cap", -5), ("cap", 10**7), ("tag_margin", float("nan"))])
def test_measure_options_refuse_a_beam_outside_a_model_files_range(field: str, value: float) -> None:
    """MeasureOptions(gamma=-1) collapsed the beam (and NaN acted as no threshold) through the Python API."""
    from glmnlp.parser.measures import MeasureOptions

    with pytest.raises(ValueError, match=field):
        MeasureOptions(**{field: value})


