"""Decoding as the parser's training decodes: multi-tag input, early update (in the decoder and through
:func:`train_parser`), the coordination feature, the weights' read-only table and bitmap.
"""

from __future__ import annotations

import numpy as np
import pytest

from glmnlp.parser.derivation import derive
from glmnlp.parser.grammar import Grammar
from glmnlp.parser.model import Parser, ParserConfig, punctuation_tags
from glmnlp.parser.training import _diff
from glmnlp.parser.transform import fslc_transform
from glmnlp.treebank.trees import Tree, parse_tree
from parser_training_fixtures import BITS, MULTI, TINY


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
    """A first candidate tag with no chain in the grammar (given unchecked: checked, the model refuses a tag it does
    not know) is skipped: the second tag's parse is used."""
    parser = _parser(TINY, np.random.default_rng(3).normal(size=1 << BITS))
    words = ["the", "dog", "barked", "."]
    assert parser.parse(words, ["DT", "NN", ["UH", "VBD"], "."], check_tags=False) == parser.parse(
        words, ["DT", "NN", "VBD", "."])
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
