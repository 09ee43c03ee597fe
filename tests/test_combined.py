"""Generative term in the beam: event replay vs. Python log-probs, brute-force oracles, jackknife, surprisal, I/O."""

from __future__ import annotations

import math
import re
from pathlib import Path

import numpy as np
import pytest

from glmnlp.config import Settings
from glmnlp.parser.combined import GenerativeTerm, prefix_logprobs, train_combined
from glmnlp.parser.generative_terms import sentence_events, train_jackknifed, train_term
from glmnlp.parser.generative import NODE_MODEL, SmoothingConfig
from glmnlp.parser.grammar import Grammar
from glmnlp.parser.model import Parser, ParserConfig, punctuation_tags
from glmnlp.parser.transform import fslc_transform
from glmnlp.treebank.trees import Tree, parse_tree

from derivation_oracle import all_derivations
from toy_trees import TINY

NO_EM = SmoothingConfig(folds=0)


def _setup() -> tuple[Parser, list[Tree], list]:
    """A generative-only parser (zero weights, weight 1) over TINY, its trees and their gold events."""
    cfg = ParserConfig(n_bits=1, gamma=1e18, beam_cap=0)
    trees = [parse_tree(t) for t in TINY]
    grammar = Grammar.induce([fslc_transform(t, cfg.fslc) for t in trees], long_chain_min_count=1)
    parser = Parser(grammar, punctuation_tags(trees), np.zeros(2), cfg)
    events = [sentence_events(parser, parser.example(t, fslc_transform(t, cfg.fslc))) for t in trees]
    term, _ = train_term(events, list(range(len(events))), len(grammar.categories), NO_EM)
    parser.generative = term
    return parser, trees, events


def _python_logprob(parser: Parser, words: list[str], log: list) -> float:
    """Sum of the model's log-probs of replayed events, word outcomes looked up in Python."""
    term: GenerativeTerm = parser.generative
    total = 0.0
    for model, _outcome, index, ctx, _lp in log:
        if model == NODE_MODEL:
            total += term.model.logprob(model, _outcome, list(ctx))
        else:
            tag = parser.grammar.categories[ctx[0]][0]
            wid = term.lexicon.word_id(words[index], tag, index == 0)
            total += term.model.logprob(model, wid, list(ctx))
    return total


def _score(parser: Parser, words: list[str], tags: list[str], steps: tuple, complete: bool) -> float:
    atoms, next_pos, _isq, _off, _cand = parser._inputs(words, [[t] for t in tags])
    sites = np.array([s for s, _ in steps], dtype=np.int32)
    chains = np.array([c for _, c in steps], dtype=np.int32)
    return _python_logprob(parser, words, parser._beam.gen_events(atoms, next_pos, sites, chains, complete))


def _count_nodes(tree: Tree) -> int:
    """Nodes of a transformed tree plus one END closure per non-POS node (every node is an event)."""
    if tree.is_preterminal:
        return 1
    return 2 + sum(_count_nodes(c) for c in tree.children if isinstance(c, Tree))


def test_combined_gold_beam_score_equals_python_event_sum() -> None:
    """The beam's generative score of each gold derivation is the sum of the model's log-probs of its events."""
    parser, trees, _ = _setup()
    for tree in trees:
        ex = parser.example(tree, fslc_transform(tree, parser.config.fslc))
        log = parser._beam.gen_events(ex.atoms, ex.next_pos, ex.gold_site, ex.gold_chain, True)
        assert sum(1 for e in log if e[0] == NODE_MODEL) == _count_nodes(fslc_transform(tree, parser.config.fslc))
        expected = _python_logprob(parser, ex.words, log)
        parser._configure_generative(ex.words, ex.tags)
        res = parser._beam.decode(ex.atoms, ex.next_pos, ex.isq, 0, ex.cand_off, ex.cand_chain, np.zeros(0),
                                  1e18, 0, ex.gold_site, ex.gold_chain, False, 0)
        gold = [score for score, flag, _s, _c in res["beam"] if flag]
        assert len(gold) == 1
        assert gold[0] == pytest.approx(expected, abs=1e-9)
        assert expected < 0.0


def test_combined_generative_decoding_finds_highest_logprob_parse() -> None:
    """With no pruning, generative-only decoding returns the brute-force most probable parse."""
    parser, _, _ = _setup()
    for words, tags in [
        ("the dog saw the cat with a hat .".split(), ["DT", "NN", "VBD", "DT", "NN", "IN", "DT", "NN", "."]),
        ("dog saw the cat with the hat .".split(), ["NN", "VBD", "DT", "NN", "IN", "DT", "NN", "."]),
    ]:
        scored = [(_score(parser, words, tags, d, True), d) for d in all_derivations(parser, words, tags)]
        assert len(scored) > 1, len(scored)
        best_score, best = max(scored)
        (score, tree), = parser.parse_nbest(words, tags, 1)
        assert score == pytest.approx(best_score, abs=1e-9)
        assert tree == parser._tree(words, np.array([s for s, _ in best]), np.array([c for _, c in best]))


def test_combined_surprisal_matches_brute_force_prefix_sums() -> None:
    """With an unpruned beam, prefix log-probs are exact sums over all derivation prefixes; surprisals telescope."""
    parser, _, _ = _setup()
    words, tags = "the cat saw dog with a hat .".split(), ["DT", "NN", "VBD", "NN", "IN", "DT", "NN", "."]
    prefix = prefix_logprobs(parser, words, tags, gamma=1e18, cap=0)
    for i in range(1, len(words) + 1):
        scores = [_score(parser, words, tags, d, False) for d in all_derivations(parser, words, tags, stop=i)]
        top = max(scores)
        assert prefix[i - 1] == pytest.approx(top + math.log(sum(math.exp(s - top) for s in scores)), abs=1e-9)
    parser.generative.gamma, parser.generative.beam_cap = 1e18, 0
    bits = parser.surprisal(words, tags)
    assert len(bits) == len(words) and all(b > 0 for b in bits)
    assert sum(bits) == pytest.approx(-prefix[-1] / math.log(2), abs=1e-9)
    assert bits[3] == pytest.approx((prefix[2] - prefix[3]) / math.log(2), abs=1e-9)


def test_combined_jackknife_never_scores_a_sentence_with_a_model_that_saw_it() -> None:
    """Each fold model is trained exactly on the other folds' sentences (18 distinct sentences: TINY with
    every word suffixed 0, 1 or 2), its lexicon holds exactly its training words, and handing out a wrong
    fold's model raises."""
    parser, _, _ = _setup()
    cfg = parser.config
    trees = []
    for k in range(3):
        for text in TINY:
            tree = parse_tree(text)
            words = iter(f"{w}{k}" if w.isalpha() else w for w in tree.leaves())
            trees.append(parse_tree(re.sub(r"\(([^()\s]+) ([^()\s]+)\)", lambda m: f"({m[1]} {next(words)})", text)))
    events = [sentence_events(parser, parser.example(t, fslc_transform(t, cfg.fslc))) for t in trees]
    assert len({tuple(e.words) for e in events}) == len(events) == 18
    jk = train_jackknifed(events, len(parser.grammar.categories), NO_EM, k=4, seed=1)
    everything = set(range(len(events)))
    held_union: set[int] = set()
    for f, on in enumerate(jk.trained_on):
        held = {s for s in everything if jk.fold_of[s] == f}
        assert held and on == everything - held
        assert held.isdisjoint(on)
        held_union |= held
        for s in held:
            assert jk.term_for(s) is jk.terms[f]
        # the fold's lexicon is built from its own training sentences only: a held-out word is unknown to it
        assert set(jk.terms[f].lexicon.words) == {w for s in on for w in events[s].words}
        assert any(w not in jk.terms[f].lexicon.words for s in held for w in events[s].words)
    assert held_union == everything
    bad = jk.fold_of.copy()
    bad[0] = (bad[0] + 1) % 4
    jk.fold_of = bad
    with pytest.raises(RuntimeError, match="trained on it"):
        jk.term_for(0)


def test_combined_save_load_gives_identical_parses_and_surprisal(tmp_path: Path) -> None:
    """A combined model (jackknifed training, weight 10) survives save -> load with identical parses."""
    trees = [parse_tree(t) for t in TINY] * 2
    cfg = ParserConfig(n_bits=12, epochs=2, gamma=1e3, beam_cap=20, train_gamma=1e3, train_cap=20)
    parser, logs = train_combined(trees, trees[:3], cfg, weight=10.0, folds=3, smoothing=NO_EM)
    assert parser.generative is not None and parser.generative.weight == 10.0 and len(logs) == 2
    parser.save(tmp_path / "m")
    loaded = Parser.load(tmp_path / "m")
    assert loaded.generative is not None and loaded.generative.weight == 10.0
    for tree in trees[:6]:
        words, tags = tree.leaves(), tree.tags()
        assert loaded.parse_nbest(words, tags, 3) == parser.parse_nbest(words, tags, 3)
        assert loaded.surprisal(words, tags) == parser.surprisal(words, tags)
    plain = Parser(parser.grammar, parser.punct_tags, parser.weights, parser.config, extra_chains=parser._chains)
    words, tags = trees[3].leaves(), trees[3].tags()
    assert plain.parse_nbest(words, tags, 1)[0][0] != parser.parse_nbest(words, tags, 1)[0][0]


def test_tune_weight_trains_the_generative_models_once_and_keeps_the_best(monkeypatch: pytest.MonkeyPatch) -> None:
    """tune_weight: the full and jackknifed generative models are trained once for all candidates; the
    parser with the best dev F1 is returned carrying its own weight (later candidates do not change it)."""
    import glmnlp.parser.combined as combined
    import glmnlp.parser.generative_terms as terms

    calls: list[int] = []
    real = terms.train_term

    def counting(*args, **kwargs):  # type: ignore[no-untyped-def]
        calls.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(terms, "train_term", counting)
    monkeypatch.setattr("glmnlp.config._current", Settings(jobs=1))  # count the calls in this process
    trees = [parse_tree(t) for t in TINY] * 2
    cfg = ParserConfig(n_bits=12, epochs=2, gamma=1e3, beam_cap=20, train_gamma=1e3, train_cap=20)
    parser, logs, trials = combined.tune_weight(trees, trees[:4], cfg, [0.5, 10.0, 40.0], folds=3, smoothing=NO_EM)
    assert len(calls) == 1 + 3  # the full model and three folds, once
    assert [t.weight for t in trials] == [0.5, 10.0, 40.0] and len(logs) == 2
    best = max(trials, key=lambda t: t.dev_f1)
    assert parser.generative is not None and parser.generative.weight == best.weight
    assert max(log.dev_f1 for log in logs) == best.dev_f1
    assert parser.history[-1]["generative_weight_trials"][0]["weight"] == 0.5
    with pytest.raises(ValueError, match="positive and finite"):
        combined.tune_weight(trees, trees[:4], cfg, [10.0, 0.0], folds=3, smoothing=NO_EM)


def test_tune_weight_compares_candidates_at_their_own_beams(monkeypatch: pytest.MonkeyPatch) -> None:
    """With a beam grid each candidate gets its own tuned beam and the candidates are compared by dev F1
    at those beams (not at the shared training beam); the winner keeps its beam. The beam search is
    replaced by one whose best F1 grows with the weight, so the choice is known: 40, at gamma 1e6 (the
    others' best beam is gamma 1e5: tuning a later candidate must not move the first one's beam)."""
    import glmnlp.parser.combined as combined
    import glmnlp.parser.training as training

    def fake_tune_beam(parser, dev, gammas, caps, dev_tags=None, executor=None):  # type: ignore[no-untyped-def]
        w = parser.generative.weight
        own = 1e6 if w == 40.0 else 1e5  # a different best beam per candidate
        rows = [(g, c, w + (1.0 if g == own else 0.0), 100.0) for g in gammas for c in caps]
        best = max(rows, key=lambda r: (r[2], -r[1]))
        parser.config.gamma, parser.config.beam_cap = best[0], best[1]
        return rows

    monkeypatch.setattr(training, "tune_beam", fake_tune_beam)  # the beams are tuned where the epoch is chosen
    monkeypatch.setattr("glmnlp.config._current", Settings(jobs=1))
    trees = [parse_tree(t) for t in TINY] * 2
    cfg = ParserConfig(n_bits=12, epochs=1, gamma=1e3, beam_cap=20, train_gamma=1e3, train_cap=20)
    parser, _, trials = combined.tune_weight(trees, trees[:4], cfg, [40.0, 0.5, 10.0], folds=3, smoothing=NO_EM,
                                             beams=([1e5, 1e6], [20, 40]))
    assert [t.beam_dev_f1 for t in trials] == [41.0, 1.5, 11.0]
    assert parser.generative is not None and parser.generative.weight == 40.0
    assert (parser.config.gamma, parser.config.beam_cap) == (1e6, 20)
    assert [(t.gamma, t.cap) for t in trials] == [(1e6, 20), (1e5, 20), (1e5, 20)] and len(trials[0].beam_rows) == 4
    assert parser.history[-1]["generative_weight_trials"][1] == {  # F1 to 4 decimals, as the epoch trials' (they
        # were written whole: 81.27659574468085 beside the epoch trials' 81.2766)
        "weight": 0.5, "dev_f1": round(trials[1].dev_f1, 4), "best_epoch": 1, "beam_dev_f1": 1.5, "gamma": 1e5,
        "cap": 20}
    assert all(round(t[key], 4) == t[key] for t in parser.history[-1]["generative_weight_trials"]
               for key in ("dev_f1", "beam_dev_f1"))


def test_generative_hook_retrains_only_for_other_examples(monkeypatch: pytest.MonkeyPatch) -> None:
    """A prepared GenerativeTraining hook keeps its models for the same training examples and retrains them
    (full model + folds) when the examples differ, even in number-preserving ways."""
    import glmnlp.parser.combined as combined
    import glmnlp.parser.generative_terms as terms

    calls: list[int] = []
    real = terms.train_term
    monkeypatch.setattr(terms, "train_term", lambda *a, **k: (calls.append(1), real(*a, **k))[1])
    monkeypatch.setattr("glmnlp.config._current", Settings(jobs=1))  # count the calls in this process
    cfg = ParserConfig(n_bits=12, epochs=1, gamma=1e3, beam_cap=20, train_gamma=1e3, train_cap=20)
    hook = combined.GenerativeTraining(weight=10.0, folds=3, smoothing=NO_EM)
    trees = [parse_tree(t) for t in TINY] * 2
    combined.train_combined(trees, trees[:2], cfg, weight=10.0, hook=hook)
    combined.train_combined(trees, trees[:2], cfg, weight=5.0, hook=hook)
    assert len(calls) == 4
    other = trees[1:] + trees[:1]  # same sentences, same count, another order
    combined.train_combined(other, trees[:2], cfg, weight=5.0, hook=hook)
    assert len(calls) == 8


def test_surprisal_of_a_parser_without_a_generative_model_is_a_config_error() -> None:
    """``Parser.surprisal`` (and :func:`prefix_logprobs`) of a perceptron-only parser raised a plain ValueError,
    which ``except glmnlp.GlmnlpError`` missed; the pipeline and ``glmnlp.measures`` said ConfigError."""
    from glmnlp.errors import ConfigError

    parser, trees, _ = _setup()
    parser.generative = None
    with pytest.raises(ConfigError, match="no generative model"):
        parser.surprisal(trees[0].leaves(), trees[0].tags())
