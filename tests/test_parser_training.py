"""Parser training pieces against hand-worked references: multi-tag input, early update, the cache step, COORD."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from glmnlp.parser.derivation import derive
from glmnlp.parser.grammar import Grammar
from glmnlp.parser.model import Parser, ParserConfig, punctuation_tags
from glmnlp.glm._scoring import StoredCandidates, first_winner
from glmnlp.parser.training import _diff, _sweep
from glmnlp.glm.perceptron import AveragedPerceptron
from glmnlp.parser.transform import fslc_transform
from glmnlp.treebank.trees import Tree, parse_tree

from toy_trees import BASIC

TINY = BASIC + ["(TOP (S (NP (DT the) (NN saw)) (VP (VBD barked)) (. .)))"]
# two readings of the last "saw": a noun (NP the saw) or a verb (after NP the)
MULTI = TINY + [
    "(TOP (S (NP (DT the) (NN dog)) (VP (VBD saw) (NP (DT the) (NN saw))) (. .)))",
    "(TOP (S (NP (DT the) (NN dog)) (VP (VBD saw) (NP (DT the)) (VP (VBD saw))) (. .)))",
]
BITS = 12


def _train_decode(parser: Parser, ex: object, weights: np.ndarray) -> tuple[dict, np.ndarray]:
    """Decode as training does (train beam, gold marks, early update per config); also the perceptron update
    the training loop applies: Phi(gold prefix) - Phi(best member), via the loop's own ``_diff``."""
    cfg = parser.config
    res = parser._beam.decode(
        ex.atoms, ex.next_pos, ex.isq, parser._punct, ex.cand_off, ex.cand_chain, weights,  # type: ignore[attr-defined]
        cfg.train_gamma, cfg.train_cap, ex.gold_site, ex.gold_chain, cfg.early_update, 0,  # type: ignore[attr-defined]
    )
    complete = res["status"] == "complete"
    prefix = len(ex.words) if complete else res["word"] + 1  # type: ignore[attr-defined]
    gold_ids, gold_off = parser.features(ex, ex.gold_site[:prefix], ex.gold_chain[:prefix], complete)  # type: ignore
    best = res["beam"][0]
    delta = np.zeros(1 << BITS)
    if not best[1]:
        ids, signs = _diff(parser, ex, gold_ids, gold_off, best[2], best[3], complete)  # type: ignore[arg-type]
        np.add.at(delta, ids, -signs.astype(np.float64))
    return res, delta


def _parser(texts: list[str], weights: np.ndarray | None = None, **cfg_kw: object) -> Parser:
    cfg = ParserConfig(n_bits=BITS, gamma=1e18, beam_cap=0, **cfg_kw)  # type: ignore[arg-type]
    trees = [parse_tree(t) for t in texts]
    grammar = Grammar.induce([fslc_transform(t, cfg.fslc) for t in trees], long_chain_min_count=1)
    w = np.zeros(1 << BITS) if weights is None else weights
    return Parser(grammar, punctuation_tags(trees), w, cfg)


# -- multi-tag input -------------------------------------------------------------------------------------


@pytest.mark.parametrize("seed", range(6))
def test_parser_multitag_union_of_candidate_tags(seed: int) -> None:
    """With two candidate tags the (unpruned) beam returns exactly the union of the single-tag parses;
    the best parse takes whichever tag scores higher even when it is listed second."""
    w = np.random.default_rng(seed).normal(size=1 << BITS)
    parser = _parser(MULTI, w)
    words = ["the", "dog", "saw", "the", "saw", "."]
    fixed = ["DT", "NN", "VBD", "DT"]
    single = {tag: parser.parse_nbest(words, fixed + [tag, "."], 0) for tag in ("NN", "VBD")}
    assert all(single[t] and np.isfinite(single[t][0][0]) for t in single)
    loser, winner = sorted(single, key=lambda t: single[t][0][0])
    both = parser.parse_nbest(words, fixed + [[loser, winner], "."], 0)
    expected = sorted(single["NN"] + single["VBD"], key=lambda st: -st[0])
    assert [s for s, _ in both] == pytest.approx([s for s, _ in expected])
    assert sorted(map(str, (t for _, t in both))) == sorted(map(str, (t for _, t in expected)))
    best = parser.parse(words, fixed + [[loser, winner], "."])
    assert best == single[winner][0][1]
    assert best.tags()[4] == winner


def test_parser_multitag_second_tag_rescues_unparsable_first() -> None:
    """A first candidate tag with no chain in the grammar is skipped: the second tag's parse is used."""
    parser = _parser(TINY, np.random.default_rng(3).normal(size=1 << BITS))
    words = ["the", "dog", "barked", "."]
    assert parser.parse(words, ["DT", "NN", ["UH", "VBD"], "."]) == parser.parse(words, ["DT", "NN", "VBD", "."])
    assert parser.stats["fallback"] == 0


# -- early update -----------------------------------------------------------------------------------------


def _next_steps(parser: Parser, ex: object, prefix: list[tuple[int, int]], i: int) -> list[tuple[int, int]]:
    """Brute force: every legal (site, chain) for word i after the derivation ``prefix`` (independent frontier walk)."""
    g = parser.grammar
    ok = g.triples
    frontier: list[tuple[int, int]] = []
    for j, (site, c) in enumerate(prefix):
        chain = parser._chains[c]
        if j == 0:
            frontier = list(zip(chain, chain[1:]))
        else:
            x, _y = frontier[site]
            frontier = frontier[:site] + [(x, chain[0])] + list(zip(chain, chain[1:]))
    cands = ex.cand_chain[ex.cand_off[i]:ex.cand_off[i + 1]].tolist()  # type: ignore[attr-defined]
    if i == 0:
        return [(-1, c) for c in cands]
    out = []
    for site in range(len(frontier)):
        if not all((x, y, 1) in ok for x, y in frontier[site + 1:]):
            continue
        x, y = frontier[site]
        out += [(site, c) for c in cands if (x, y, parser._chains[c][0]) in ok]
    return out


@pytest.mark.parametrize("seed", range(8))
def test_parser_early_update_at_first_word_gold_leaves_greedy_beam(seed: int) -> None:
    """Beam of 1: decoding stops at the first word whose best extension of the gold prefix is not gold,
    and the training update is exactly Phi(gold prefix through that word) - Phi(that best extension)."""
    parser = _parser(TINY, None, train_gamma=1e18, train_cap=1, early_update=True, cache=False)
    tree = parse_tree(TINY[3])
    ex = parser.example(tree, fslc_transform(tree, parser.config.fslc))
    before = np.random.default_rng(seed).normal(size=1 << BITS)
    gold = list(zip(ex.gold_site.tolist(), ex.gold_chain.tolist()))
    # reference: walk the gold prefix, scoring every legal extension by replaying its features
    stop, best_ext = None, None
    for i in range(len(gold)):
        scored = []
        for step in _next_steps(parser, ex, gold[:i], i):
            d = gold[:i] + [step]
            ids, _ = parser.features(ex, np.array([s for s, _ in d]), np.array([c for _, c in d]), False)
            scored.append((float(before[ids].sum()), step))
        top = max(scored)
        if top[1] != gold[i]:
            stop, best_ext = i, gold[:i] + [top[1]]
            break
    res, update = _train_decode(parser, ex, before)
    if stop is None:  # gold survives the greedy walk: the decoder must not stop early
        assert res["status"] == "complete"
        return
    assert (res["status"], res["word"]) == ("early", stop)
    assert len(res["beam"]) == 1 and not res["beam"][0][1]
    assert list(zip(res["beam"][0][2].tolist(), res["beam"][0][3].tolist())) == best_ext
    g_ids, _ = parser.features(ex, ex.gold_site[: stop + 1], ex.gold_chain[: stop + 1], False)
    b_ids, _ = parser.features(ex, np.array([s for s, _ in best_ext]), np.array([c for _, c in best_ext]), False)
    delta = np.bincount(g_ids, minlength=1 << BITS) - np.bincount(b_ids, minlength=1 << BITS)
    assert np.array_equal(update, delta) and np.any(delta)


def test_parser_early_update_stops_some_and_not_all_seeds() -> None:
    """The greedy early-update test above exercises both outcomes (an early stop and a full parse)."""
    parser = _parser(TINY, None, train_gamma=1e18, train_cap=1, early_update=True, cache=False)
    tree = parse_tree(TINY[3])
    ex = parser.example(tree, fslc_transform(tree, parser.config.fslc))
    statuses = set()
    for seed in range(8):
        res, _ = _train_decode(parser, ex, np.random.default_rng(seed).normal(size=1 << BITS))
        statuses.add(res["status"])
    assert "early" in statuses


def test_parser_no_early_update_compares_full_parses() -> None:
    """Without early update the decoder runs to the end and the update uses the complete best parse."""
    parser = _parser(TINY, None, train_gamma=1e18, train_cap=1, early_update=False, cache=False)
    tree = parse_tree(TINY[3])
    ex = parser.example(tree, fslc_transform(tree, parser.config.fslc))
    seed = next(s for s in range(20) if not _train_decode(parser, ex, np.random.default_rng(s).normal(size=1 << BITS))[0]["beam"][0][1])
    res, update = _train_decode(parser, ex, np.random.default_rng(seed).normal(size=1 << BITS))
    assert res["status"] == "complete" and res["word"] == len(ex.words)
    sites, chains = res["beam"][0][2], res["beam"][0][3]
    assert len(sites) == len(ex.words) and not res["beam"][0][1]
    g_ids, _ = parser.features(ex, ex.gold_site, ex.gold_chain, True)
    b_ids, _ = parser.features(ex, sites, chains, True)
    delta = np.bincount(g_ids, minlength=1 << BITS) - np.bincount(b_ids, minlength=1 << BITS)
    assert np.array_equal(update, delta) and np.any(delta)


# -- the cache step (paper Figure 4, step 2) ----------------------------------------------------------


def _perc(values: dict[int, float]) -> AveragedPerceptron:
    perc = AveragedPerceptron(8)
    ids = np.array(sorted(values), dtype=np.int64)
    perc.update(ids, np.array([values[i] for i in ids]))
    return perc


def _entry(*cands: tuple[list[int], list[int]], offsets: tuple[float, ...] = ()) -> StoredCandidates:
    """A cache entry holding the given candidates (ids and signs of Phi(t) - Phi(g)), stored flat."""
    return StoredCandidates(
        np.array([i for ids, _ in cands for i in ids], dtype=np.int32),
        np.array([s for _, signs in cands for s in signs], dtype=np.int8),
        np.cumsum([0] + [len(ids) for ids, _ in cands], dtype=np.int64),
        np.array(offsets, dtype=np.float64),
    )


def test_parser_cache_step_updates_while_a_candidate_outscores_gold() -> None:
    """The best stored candidate (score of Phi(t) - Phi(g)) is used; updates stop once gold wins."""
    perc = _perc({0: 2.0, 1: 0.5, 2: 0.0})
    # candidate A: Phi(A)-Phi(g) = f0 - f2 (margin 2.0); candidate B: f1 - f2 (margin 0.5)
    entry = _entry(([0, 2], [1, -1]), ([1, 2], [1, -1]))
    assert _sweep(perc, [entry], 50) == 1  # A is best: w0 -= 1, w2 += 1
    assert perc.weights[:3].tolist() == [1.0, 0.5, 1.0]
    assert entry.count == 1
    # now A: 1 - 1 = 0 (a tie with gold), B: 0.5 - 1 = -0.5: gold is not outscored, no update
    assert _sweep(perc, [entry], 50) == 0
    assert perc.weights[:3].tolist() == [1.0, 0.5, 1.0] and entry.count == 1


def test_parser_cache_step_at_most_t2_updates() -> None:
    """An entry that stays inseparable updates at most T2 times until it is refreshed."""
    perc = _perc({0: 10.0})
    entry = _entry(([0], [1]))
    done = _sweep(perc, [entry] * 10, 3)
    assert done == 3 and entry.count == 3
    assert perc.weights[0] == 7.0  # still outscoring gold, but capped


def test_parser_cache_step_empty_entry_is_inert() -> None:
    """An entry with no non-gold candidate never updates."""
    perc = _perc({0: 1.0})
    assert _sweep(perc, [_entry()], 50) == 0 and perc.weights[0] == 1.0


def test_parser_cache_step_adds_each_candidates_generative_offset() -> None:
    """With the combined model each stored candidate carries its generative term: A's feature margin
    (2.0) loses to B's 0.5 + offset 3.0, so B's features are updated; a candidate below gold by its
    offset does not update."""
    perc = _perc({0: 2.0, 1: 0.5, 2: 0.0})
    entry = _entry(([0, 2], [1, -1]), ([1, 2], [1, -1]), offsets=(0.0, 3.0))
    assert _sweep(perc, [entry], 50) == 1
    assert perc.weights[:3].tolist() == [2.0, -0.5, 1.0]
    below = _entry(([0], [1]), offsets=(-5.0,))
    assert _sweep(_perc({0: 2.0}), [below], 50) == 0


def test_first_winner_sums_left_to_right_and_keeps_the_earlier_of_ties() -> None:
    """Scores are the plain left-to-right sums; equal scores keep the earlier candidate; nothing due: (-1, -1, 0.0)."""
    w = np.array([0.1, 0.2, 0.3, 1e16, -1e16])
    signs = np.ones(7, dtype=np.int8)
    entry = StoredCandidates(np.array([0, 1, 2, 3, 0, 4, 2], dtype=np.int32), signs,
                             np.array([0, 3, 7], dtype=np.int64), np.zeros(0))
    assert first_winner(w, [entry], 0, 50) == (0, 0, (0.1 + 0.2) + 0.3)
    assert (0.1 + 0.2) + 0.3 != 0.1 + (0.2 + 0.3)  # so the value above shows the order of the sum
    tie = StoredCandidates(np.array([0, 1, 1, 0], dtype=np.int32), signs[:4], np.array([0, 2, 4], dtype=np.int64),
                           np.zeros(0))
    assert first_winner(w, [tie], 0, 50)[:2] == (0, 0)
    empty = StoredCandidates(np.zeros(0, dtype=np.int32), signs[:0], np.zeros(1, dtype=np.int64), np.zeros(0))
    assert first_winner(w, [empty, empty], 0, 50) == (-1, -1, 0.0)
    assert first_winner(w, [empty, entry, entry], 2, 50)[0] == 2  # from start on
    with pytest.raises(ValueError):
        StoredCandidates(entry.ids, entry.signs, entry.bounds, np.zeros(1))
    with pytest.raises(ValueError):
        StoredCandidates(entry.ids, entry.signs, np.array([0, 3, 6], dtype=np.int64), np.zeros(0))


def _sweep_one_by_one(perc: AveragedPerceptron, visits: list[StoredCandidates], t2: int) -> int:
    """The cache sweep as one scoring per visit in numpy (the definition _sweep must match)."""
    done = 0
    for entry in visits:
        K = len(entry.bounds) - 1
        if entry.count >= t2 or K < 1:
            continue
        scores = []
        for k in range(K):
            s = 0.0
            for f, g in zip(entry.ids[entry.bounds[k]:entry.bounds[k + 1]], entry.signs[entry.bounds[k]:entry.bounds[k + 1]]):
                s += float(perc.weights[f]) * float(g)
            scores.append(s + (float(entry.offsets[k]) if len(entry.offsets) else 0.0))
        k = int(np.argmax(scores))  # the first of the highest
        if scores[k] > 0.0:
            a, b = int(entry.bounds[k]), int(entry.bounds[k + 1])
            perc.update(entry.ids[a:b], -entry.signs[a:b].astype(np.float64))
            entry.count += 1
            done += 1
    return done


@settings(max_examples=80, deadline=None)
@given(st.integers(0, 100_000))
def test_sweep_matches_one_scoring_per_visit(seed: int) -> None:
    """On random entries and visit orders (repeats included), _sweep makes the updates, in the order
    and with the weights, of scoring every visit one by one: each visit sees the earlier updates."""
    rng = np.random.default_rng(seed)

    def entries() -> list[StoredCandidates]:
        r = np.random.default_rng(seed + 1)
        out = []
        for _ in range(int(r.integers(1, 6))):
            K = int(r.integers(0, 4))
            sizes = r.integers(1, 5, size=K)
            n = int(sizes.sum())
            out.append(StoredCandidates(r.integers(0, 8, size=n).astype(np.int32),
                                        r.choice(np.array([-1, 1], dtype=np.int8), size=n),
                                        np.concatenate([[0], np.cumsum(sizes)]).astype(np.int64),
                                        np.round(r.normal(size=K), 1) if r.random() < 0.5 else np.zeros(0)))
        return out

    start = {i: float(v) for i, v in enumerate(np.round(rng.normal(size=8), 1))}
    order = rng.integers(0, 5, size=int(rng.integers(1, 30)))
    t2 = int(rng.integers(1, 4))
    fast_entries, slow_entries = entries(), entries()
    fast, slow = _perc(start), _perc(start)
    k = len(fast_entries)
    done_fast = _sweep(fast, [fast_entries[i % k] for i in order], t2)
    done_slow = _sweep_one_by_one(slow, [slow_entries[i % k] for i in order], t2)
    assert done_fast == done_slow
    assert fast.weights.tobytes() == slow.weights.tobytes()
    assert [e.count for e in fast_entries] == [e.count for e in slow_entries]


# -- coordination feature ---------------------------------------------------------------------------------

COORD_TREES = {
    "DT": "(TOP (S (NP (NP (DT the) (NNS cats)) (CC and) (NP (ADJP (RB very) (JJ big)) (NNS dogs))) (VP (VBD slept)) (. .)))",
    "DT2": "(TOP (S (NP (NP (DT some) (NNS cats)) (CC and) (NP (ADJP (RB very) (JJ big)) (NNS dogs))) (VP (VBD slept)) (. .)))",
    "CD": "(TOP (S (NP (NP (CD two) (NNS cats)) (CC and) (NP (ADJP (RB very) (JJ big)) (NNS dogs))) (VP (VBD slept)) (. .)))",
}


def _adjp_ids(parser: Parser, tree: Tree) -> np.ndarray:
    """Feature ids of the ADJP node built with 'very' (chain NP > ADJP > RB attached under NP/NP)."""
    t = fslc_transform(tree, parser.config.fslc)
    steps = derive(t, parser.grammar)
    ex = parser.example(tree, t)
    g = parser.grammar
    assert parser._chains[ex.gold_chain[3]] == tuple(g.category_id(c) for c in ("NP", "ADJP", "RB"))
    assert steps[3].site == 3  # TOP S NP NP/NP: attached under the slash node after CC
    ids, off = parser.features(ex, ex.gold_site, ex.gold_chain, True)
    block = ids[off[3]:off[4]]
    assert len(block) == 16 + 16 + 9  # NP, ADJP (non-POS templates), RB (POS templates)
    return block[16:32]


@pytest.mark.parametrize("cc", ["CC", "CCONJ", "KON"])
def test_parser_coord_fires_for_np_coordination(cc: str) -> None:
    """(NP (NP the cats) (CC and) (NP (ADJP ..) ..)): the ADJP (leftmost child of the second conjunct) gets
    COORD = DT, the first child of the earlier conjunct, across the FSLC slash node; with the
    conjunction tagged as Universal Dependencies (CCONJ) or STTS (KON) do too (COORD was off but for CC)."""
    trees = {k: v.replace("(CC and)", f"({cc} and)") for k, v in COORD_TREES.items()}
    parser = _parser(list(trees.values()), features="baseline")
    assert parser.grammar.coordination_tag() == parser.grammar.category_id(cc)
    a = {k: _adjp_ids(parser, parse_tree(v)) for k, v in trees.items()}
    # templates 0-8 do not see COORD; 9 (COORD) and 10 (COORD + CL) do
    assert np.array_equal(a["DT"][:9], a["CD"][:9])
    assert a["DT"][9] == a["DT2"][9]  # same earlier-conjunct first child (DT): same COORD feature
    assert a["DT"][9] != a["CD"][9]  # DT vs CD: COORD differs
    # without the slash table the kernel would see no earlier conjunct (COORD = NULL): different ids
    plain = _parser(list(trees.values()), features="baseline")
    beam = plain._beam
    import glmnlp.parser._beam as kernel

    n, triples, is_pos, is_punct, first_letter = plain._tables
    flat = np.array([c for chain in plain._chains for c in chain], dtype=np.int32)
    off = np.zeros(len(plain._chains) + 1, dtype=np.int32)
    off[1:] = np.cumsum([len(c) for c in plain._chains])
    plain._beam = kernel.BeamParser(n, triples, is_pos, is_punct, first_letter, plain._cc, flat, off, BITS)
    b = {k: _adjp_ids(plain, parse_tree(v)) for k, v in trees.items()}
    assert b["DT"][9] == b["CD"][9]  # COORD is NULL in both
    assert b["DT"][9] != a["DT"][9]
    assert np.array_equal(b["DT"][:9], a["DT"][:9])
    assert beam is not plain._beam


# -- early update through train_parser ---------------------------------------------------------------------


def test_train_parser_early_update_stops_at_the_pp_attachment(monkeypatch: pytest.MonkeyPatch) -> None:
    """Through :func:`train_parser` itself: on MULTI (each tree twice, so every chain passes the count
    filter) the only word of 'the dog saw the cat with a hat .' with two legal steps is 'with' (word 5:
    PP under the VP or under the NP). Starting from weights under which the wrong attachment wins,
    with a beam of 1, the first training step stops at word 5 and updates by exactly
    Phi(gold prefix through 'with') - Phi(the wrong extension)."""
    from glmnlp.glm import training
    from glmnlp.glm.perceptron import AveragedPerceptron
    from glmnlp.glm.training import epoch_order
    from glmnlp.parser.training import prepare_training, train_parser

    trees = [parse_tree(t) for t in MULTI * 2]
    cfg = ParserConfig(n_bits=BITS, train_gamma=1e18, train_cap=1, early_update=True, cache=False, epochs=1)
    first = int(epoch_order(len(trees), cfg.seed, 1)[0])
    before = np.random.default_rng(6).normal(size=1 << BITS)
    parser, examples = prepare_training(trees, cfg, before)
    ex = examples[first]
    assert ex.words == ["the", "dog", "saw", "the", "cat", "with", "a", "hat", "."]
    gold = list(zip(ex.gold_site.tolist(), ex.gold_chain.tolist()))
    options = [_next_steps(parser, ex, gold[:i], i) for i in range(len(gold))]
    assert [len(o) for o in options] == [1, 1, 1, 1, 1, 2, 1, 1, 1]

    def score(steps: list[tuple[int, int]]) -> float:
        ids, _ = parser.features(ex, np.array([s for s, _ in steps]), np.array([c for _, c in steps]), False)
        return float(before[ids].sum())

    wrong = next(step for step in options[5] if step != gold[5])
    assert score(gold[:5] + [wrong]) > score(gold[:6])  # under these weights gold falls off at 'with'
    g_ids, _ = parser.features(ex, ex.gold_site[:6], ex.gold_chain[:6], False)
    w_ids, _ = parser.features(ex, np.array([s for s, _ in gold[:5]] + [wrong[0]]),
                               np.array([c for _, c in gold[:5]] + [wrong[1]]), False)
    expected = np.bincount(g_ids, minlength=1 << BITS) - np.bincount(w_ids, minlength=1 << BITS)
    assert np.any(expected)

    updates: list[np.ndarray] = []

    class Seeded(AveragedPerceptron):
        def __init__(self, n: int) -> None:
            super().__init__(n)
            self._weights[:n] = before

        def update(self, feature_ids: np.ndarray, values: np.ndarray) -> None:
            delta = np.zeros(1 << BITS)
            np.add.at(delta, np.asarray(feature_ids, dtype=np.int64), np.asarray(values, dtype=np.float64))
            updates.append(delta)
            super().update(feature_ids, values)

    monkeypatch.setattr(training, "AveragedPerceptron", Seeded)
    _parser_out, logs = train_parser(trees, trees[:2], cfg, show_progress=False)
    assert logs[0].early_stops >= 1 and updates
    assert np.array_equal(updates[0], expected)


def test_dev_scoring_for_choices_does_not_stop_at_evalb_max_error() -> None:
    """Twelve sentences whose punctuation the parser tags otherwise ("Length unmatch" in EVALB) would abort
    COLLINS.prm scoring; the scoring used for every dev choice leaves them out and scores the rest."""
    from glmnlp.treebank.evalb_report import EvalbAbortError
    from glmnlp.parser.selection import SELECTION_PARAMS, evaluate
    from glmnlp.treebank.evalb import score_trees

    gold = [parse_tree("(TOP (S (NP (NN dogs)) (VP (VBP bark)) (. .)))")] * 12 + [
        parse_tree("(TOP (S (NP (NNS cats)) (VP (VBP sleep))))")]

    class Retagging:
        """Parses every sentence right but tags a final '.' as a noun (not a deleted label)."""

        def parse(self, words, tags):  # type: ignore[no-untyped-def]
            if words[-1] == ".":
                return parse_tree("(TOP (S (NP (NN dogs)) (VP (VBP bark)) (NN .)))")
            return parse_tree("(TOP (S (NP (NNS cats)) (VP (VBP sleep))))")

    parsed = [Retagging().parse(t.leaves(), None) for t in gold]
    with pytest.raises(EvalbAbortError):
        score_trees(gold, parsed)
    result, _ = evaluate(Retagging(), gold)  # type: ignore[arg-type]
    assert result.fmeasure == 100.0
    assert score_trees(gold, parsed, SELECTION_PARAMS).fmeasure == 100.0


def test_parser_weights_are_read_only_and_the_nonzero_bitmap_follows_assignment() -> None:
    """The decoder skips the weights whose bit is clear, so the bitmap must match the table: bit f is set
    exactly when weight f is not +0.0 (a -0.0 counts as set: it is read), the table cannot be changed in
    place, and assigning a new table rebuilds the bitmap."""
    trees = [parse_tree(t) for t in TINY]
    cfg = ParserConfig(n_bits=7)
    grammar = Grammar.induce([fslc_transform(t, cfg.fslc) for t in trees])
    w = np.zeros(1 << 7)
    w[[0, 5, 63, 64, 127]] = [1.0, -2.0, 3.0, -0.0, 0.5]
    parser = Parser(grammar, punctuation_tags(trees), w, cfg)
    bits = parser.nonzero_bits()
    assert bits.dtype == np.uint64 and bits.shape == (2,)
    on = [f for f in range(128) if int(bits[f >> 6]) >> (f & 63) & 1]
    assert on == [0, 5, 63, 64, 127]
    with pytest.raises(ValueError):
        parser.weights[1] = 1.0
    w[1] = 4.0  # the caller's array is not the parser's
    assert parser.weights[1] == 0.0
    parser.weights = w
    assert [f for f in range(128) if int(parser.nonzero_bits()[f >> 6]) >> (f & 63) & 1] == [0, 1, 5, 63, 64, 127]
    words, tags = trees[0].leaves(), trees[0].tags()
    with_bits = parser.parse_nbest(words, tags, 3)
    parser.nonzero_bits = lambda: np.zeros(0, dtype=np.uint64)  # type: ignore[method-assign]
    assert [(float(s).hex(), str(t)) for s, t in parser.parse_nbest(words, tags, 3)] == [
        (float(s).hex(), str(t)) for s, t in with_bits]


# -- one beam: the pass chosen at the beam it will parse with ---------------------------------------------------


def test_train_parser_keeps_the_runner_up_pass_when_it_is_better_at_its_own_beam(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """With a beam grid, the two best passes by dev F1 at the selection beam each get their own beam, and
    the better one at that beam is kept with its beam; ties to 0.01 keep the pass that was better at the
    training beam. The beam search of tune_beam is replaced by one whose F1 is chosen per candidate, so
    the expected choice is known; the returned weights must be the kept pass's averaged weights."""
    import glmnlp.parser.training as training
    from glmnlp.glm.training import train_perceptron
    from glmnlp.parser.training import EPOCH_CANDIDATES, train_parser

    assert EPOCH_CANDIDATES == 2
    trees = [parse_tree(t) for t in MULTI * 2]
    cfg = ParserConfig(n_bits=BITS, epochs=3, train_gamma=1e3, train_cap=4)
    kept: dict[str, object] = {}

    def recording(*args, **kwargs):  # type: ignore[no-untyped-def]
        result = train_perceptron(*args, **kwargs)
        kept["result"] = result
        return result

    monkeypatch.setattr(training, "train_perceptron", recording)

    def run(f1s: list[float]) -> tuple[Parser, list[Parser]]:
        seen: list[Parser] = []

        def fake_tune_beam(parser, dev, gammas, caps, dev_tags=None, executor=None):  # type: ignore[no-untyped-def]
            f1 = f1s[len(seen)]
            seen.append(parser)
            rows = [(g, c, f1 - (0.5 if (g, c) != (gammas[-1], caps[len(seen) % len(caps)]) else 0.0), 1.0)
                    for g in gammas for c in caps]
            best = max(rows, key=lambda r: r[2])
            parser.config.gamma, parser.config.beam_cap = best[0], best[1]
            return rows

        monkeypatch.setattr(training, "tune_beam", fake_tune_beam)
        parser, _logs = train_parser(trees, trees[:4], cfg, show_progress=False, jobs=1,
                                     beams=([1e2, 1e3], [5, 10]))
        return parser, seen

    parser, seen = run([80.0, 81.0])  # the runner-up is better at its own beam
    result = kept["result"]
    assert len(seen) == 2 and result.runners_up  # type: ignore[attr-defined]
    runner_epoch, _f1, runner_weights = result.runners_up[0]  # type: ignore[attr-defined]
    assert parser is seen[1] and np.array_equal(parser.weights, runner_weights)
    assert (parser.config.gamma, parser.config.beam_cap) == (1e3, 5)  # the runner-up's own beam
    assert seen[0].config is not seen[1].config  # tuning one candidate's beam leaves the other's alone
    history = {k: v for h in parser.history for k, v in h.items() if k in ("best_epoch", "epoch_trials")}
    assert history["best_epoch"] == runner_epoch
    assert [t["beam_dev_f1"] for t in history["epoch_trials"]] == [80.0, 81.0]
    assert history["epoch_trials"][0]["epoch"] == result.best_epoch  # type: ignore[attr-defined]

    parser, seen = run([80.0, 80.004])  # a tie to 0.01: the better pass at the selection beam stays
    assert parser is seen[0] and np.array_equal(parser.weights, kept["result"].weights)  # type: ignore[attr-defined]
    assert next(h["best_epoch"] for h in parser.history if "best_epoch" in h) == kept["result"].best_epoch  # type: ignore


def test_best_epoch_keeps_the_next_best_in_order_and_no_more() -> None:
    """BestEpoch(keep=3): the best, then the next two by score (ties: the earlier epoch first); older
    payloads that fall out are dropped."""
    from glmnlp.glm.training import BestEpoch

    best: BestEpoch[str] = BestEpoch(keep=3)
    for epoch, score in enumerate([0.5, 0.7, 0.6, 0.7, 0.4, 0.65, 0.8], start=1):
        best.offer(epoch, score, f"w{epoch}")
    assert (best.epoch, best.payload) == (7, "w7")
    assert best.runners_up == [(2, 0.7, "w2"), (4, 0.7, "w4")]
    one: BestEpoch[str] = BestEpoch()
    for epoch, score in enumerate([0.5, 0.7, 0.6], start=1):
        one.offer(epoch, score, f"w{epoch}")
    assert one.runners_up == [] and one.payload == "w2"
    with pytest.raises(ValueError):
        BestEpoch(keep=0)


@pytest.mark.parametrize("which, raw", [
    ("training", "(TOP (S (NP-SBJ (DT the) (NN dog)) (VP (VBD barked)) (. .)))"),
    ("training", "( (S (NP (DT the) (NN dog)) (VP (VBD barked)) (. .)) )"),
    ("dev", "(TOP (S (NP (-NONE- *)) (NP (DT the) (NN dog)) (VP (VBD barked)) (. .)))"),
])
def test_train_parser_refuses_uncleaned_trees(which: str, raw: str) -> None:
    """The library's trainer refuses raw treebank trees as the command does (it put NP-SBJ and -NONE- into the
    grammar and the model as a category and a tag), naming the tree's position and how to clean it."""
    from glmnlp.parser.grammar import GrammarError
    from glmnlp.parser.training import train_parser

    trees = [parse_tree(t) for t in BASIC]
    bad = [*trees[:2], parse_tree(raw)]
    train, dev = (bad, trees) if which == "training" else (trees, bad)
    with pytest.raises(GrammarError, match=rf"^{which} tree 3: .*glmnlp data --clean"):
        train_parser(train, dev, ParserConfig(n_bits=12, epochs=1), show_progress=False, jobs=1)


def test_prepare_training_warns_when_many_trees_need_a_dropped_chain() -> None:
    """On a handful of trees every chain of more than two categories is seen once, the grammar drops it (the
    paper's rule) and the parser gives the flat default structure to most of its own training sentences, where
    training said nothing. A tree given twice has its chains seen twice: no warning."""
    import warnings

    from glmnlp.parser.training import RareChainWarning, prepare_training

    one = [parse_tree(BASIC[0])]  # TOP S NP DT: a first chain of four categories
    with pytest.warns(RareChainWarning, match=r"^1 of the 1 training trees use a chain"):
        prepare_training(one, ParserConfig(n_bits=12), np.zeros(1 << 12))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        prepare_training(one * 2, ParserConfig(n_bits=12), np.zeros(1 << 12))
        prepare_training(one, ParserConfig(n_bits=12), np.zeros(1 << 12), warn=False)


def test_train_parser_refuses_zero_epochs_and_records_no_dev_f1_without_dev() -> None:
    """``ParserConfig(epochs=0)`` is valid (the generative model alone's) but trained the perceptron into a plain
    ValueError from the generic loop; a run without a dev set recorded a dev F1 of 0.0 (the tagger: None)."""
    import warnings

    from glmnlp.errors import ConfigError
    from glmnlp.parser.training import train_parser

    trees = [parse_tree(t) for t in BASIC]
    with pytest.raises(ConfigError, match="needs epochs >= 1, got 0"):
        train_parser(trees, trees, ParserConfig(n_bits=12, epochs=0), show_progress=False, jobs=1)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        parser, logs = train_parser(trees, [], ParserConfig(n_bits=12, epochs=1), show_progress=False, jobs=1)
    assert logs[0].dev_f1 is None and parser.history[0]["dev_f1"] is None


def test_jackknife_makes_a_fold_a_tree_for_fewer_trees_than_folds(monkeypatch: pytest.MonkeyPatch) -> None:
    """Ten folds over three trees trained seven taggers on all three for nothing (and ``parser train`` said "10
    folds"); one tree cannot be jackknifed, which trained a tagger on no sentence."""
    from glmnlp.errors import ConfigError
    from glmnlp.glm.parallel import Executor
    from glmnlp.parser import jackknife

    seen: list[int] = []
    real = jackknife._jackknife_fold

    def counted(item: tuple) -> list[list[str]]:
        seen.append(item[3])
        return real(item)

    monkeypatch.setattr(jackknife, "_jackknife_fold", counted)
    trees = [parse_tree(t) for t in BASIC[:3]]
    with Executor(1) as ex:
        tags = jackknife.jackknife_tags(trees, 10, epochs=1, executor=ex)
        assert seen == [0, 1, 2] and [len(t) for t in tags] == [len(t.leaves()) for t in trees]
        with pytest.raises(ConfigError, match="at least 2 training trees"):
            jackknife.jackknife_tags(trees[:1], 10, epochs=1, executor=ex)
        for folds in (1, 0):  # the fold count at fault, not the trees
            with pytest.raises(ConfigError, match=f"at least 2 folds, got {folds}"):
                jackknife.jackknife_tags(trees, folds, epochs=1, executor=ex)
