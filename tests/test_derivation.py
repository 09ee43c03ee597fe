"""Tests for glmnlp.parser.derivation: the gold derivation oracle, replay and legality."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from glmnlp.treebank.corpus import sample_trees
from glmnlp.parser.derivation import DerivationError, Step, check_derivation, derive, replay
from glmnlp.parser.grammar import END, Grammar, step_needs, tree_chains, tree_triples
from glmnlp.parser.transform import FslcConfig, fslc_transform
from glmnlp.treebank.trees import Tree, parse_tree

TOY = [
    "(TOP (S (NP (DT the) (NN cat)) (VP (VBD saw) (NP (DT a) (NN dog)))))",
    "(TOP (S (NP (NP (NNS dogs)) (PP (IN with) (NP (NNS hats)))) (VP (VBD left))))",
]


def _toy_grammar() -> tuple[list[Tree], Grammar]:
    trees = [fslc_transform(parse_tree(t)) for t in TOY]
    return trees, Grammar.induce(trees, long_chain_min_count=1)


def _without(g: Grammar, *, chain: tuple[int, ...] | None = None, triple: tuple[int, int, int] | None = None) -> Grammar:
    chains = {t: [c for c in v if c != chain] for t, v in g.chains.items()}
    first = {t: [c for c in v if c != chain] for t, v in g.first_chains.items()}
    return Grammar(list(g.categories), list(g.pos_tags), chains, first, g.triples - {triple})


def test_derivation_hand_example() -> None:
    """Steps and checked triples of a small tree, worked by hand (the paper's Figure 2 pattern)."""
    trees, g = _toy_grammar()
    steps = derive(trees[0], g)
    named = [(s.site, g.chain_names(s.chain)) for s in steps]
    assert named == [
        (-1, "TOP -> S -> NP -> DT"),
        (2, "NN"),
        (1, "VP -> VBD"),
        (2, "NP -> DT"),
        (3, "NN"),
    ]
    per_word, final = step_needs([(s.site, s.chain) for s in steps], END)
    show = lambda ts: [" ".join(g.name(c) for c in t) for t in ts]  # noqa: E731
    assert [show(n) for n in per_word] == [
        [],
        ["NP DT NN"],
        ["NP NN <END>", "S NP VP"],  # attaching VP under S closes the NP first
        ["VP VBD NP"],
        ["NP DT NN"],
    ]
    assert show(final) == ["NP NN <END>", "VP NP <END>", "S VP <END>", "TOP S <END>"]
    assert replay(trees[0].leaves(), steps, g) == trees[0]


def test_derivation_slash_chain_site() -> None:
    """A slash category tops a chain attached under the flattened NP (NP/NP -> PP -> IN)."""
    trees, g = _toy_grammar()
    steps = derive(trees[1], g)
    assert [(s.site, g.chain_names(s.chain)) for s in steps] == [
        (-1, "TOP -> S -> NP -> NNS"),
        (2, "NP/NP -> PP -> IN"),
        (4, "NP -> NNS"),
        (1, "VP -> VBD"),
    ]
    per_word, _ = step_needs([(s.site, s.chain) for s in steps], END)
    # attaching VP under S closes four nodes first, deepest first
    assert [" ".join(g.name(c) for c in t) for t in per_word[3]] == [
        "NP NNS <END>", "PP NP <END>", "NP/NP PP <END>", "NP NP/NP <END>", "S NP VP",
    ]  # fmt: skip


def test_derivation_whole_training_split() -> None:
    """Every training tree's derivation replays exactly and is legal under the unfiltered training grammar;
    under the filtered grammar exactly the trees with a singleton long chain are illegal."""
    trees = [fslc_transform(t) for t in sample_trees("train")]
    full = Grammar.induce(trees, long_chain_min_count=1)
    filtered = Grammar.induce(trees)
    counts = Counter((site == -1, chain) for t in trees for site, chain in tree_chains(t))
    illegal = 0
    for tree in trees:
        steps = derive(tree, full)
        words, tags = tree.leaves(), tree.tags()
        assert replay(words, steps, full) == tree
        check_derivation(steps, tags, full, words)
        expect_ok = all(
            len(chain) <= 2 or counts[(site == -1, chain)] >= 2 for site, chain in tree_chains(tree)
        )
        try:
            check_derivation(derive(tree, filtered), tags, filtered, words)
            ok = True
        except DerivationError as exc:
            ok = False
            assert "is not allowed for tag" in str(exc)
        assert ok == expect_ok
        illegal += not ok
    assert 0 < illegal < len(trees) // 10


def test_derivation_missing_chain_is_reported() -> None:
    """Removing the chain a word needs fails with the word, its tag and the chain spelled out."""
    trees, g = _toy_grammar()
    steps = derive(trees[0], g)
    bad = _without(g, chain=steps[3].chain)
    with pytest.raises(DerivationError, match=r"word 4 of 5 \('a', tag DT\): chain NP -> DT is not allowed") as err:
        check_derivation(steps, trees[0].tags(), bad, trees[0].leaves())
    assert err.value.word_index == 3 and err.value.chain == steps[3].chain
    first = _without(g, chain=steps[0].chain)
    with pytest.raises(DerivationError, match="word 1 of 5 .*first-word chain TOP -> S -> NP -> DT"):
        check_derivation(steps, trees[0].tags(), first)


@pytest.mark.parametrize(
    ("triple", "message"),
    [
        (("S", "NP", "VP"), r"word 3 of 5 \(tag VBD\): triple <S, NP, VP> is not allowed"),
        (("NP", "NN", "<END>"), r"word 3 of 5 \(tag VBD\): triple <NP, NN, <END>> is not allowed"),
        (("TOP", "S", "<END>"), r"after the last word: closing triple <TOP, S, <END>>"),
    ],
)
def test_derivation_missing_triple_is_reported(triple: tuple[str, str, str], message: str) -> None:
    """Removing a needed triple (attachment, closing, final closing) fails and names it."""
    trees, g = _toy_grammar()
    ids = tuple(g.category_id(c) for c in triple)
    with pytest.raises(DerivationError, match=message) as err:
        check_derivation(derive(trees[0], g), trees[0].tags(), _without(g, triple=ids))  # type: ignore[arg-type]
    assert err.value.triple == ids


def test_derivation_wrong_tag_is_reported() -> None:
    """A chain looked up under a tag it does not end in is not allowed."""
    trees, g = _toy_grammar()
    tags = trees[0].tags()
    tags[1] = "NNS"
    with pytest.raises(DerivationError, match="word 2 of 5 .*chain NN is not allowed for tag NNS"):
        check_derivation(derive(trees[0], g), tags, g)


@pytest.mark.parametrize(
    ("steps", "message"),
    [
        ([Step(0, (2, 3))], "site must be -1"),
        ([Step(-1, (5,))], "must start with TOP"),
        ([Step(-1, (2, 10, 7, 3)), Step(4, (5,))], r"site 4 is not on the right frontier \(0..2\)"),
        ([Step(-1, (2, 10, 7, 3)), Step(1, (2, 5))], "only the first chain may contain TOP"),
        ([Step(-1, (2, 10, 7, 3)), Step(1, (1, 5))], "bad chain"),
    ],
    ids=["first-site", "first-top", "site-range", "late-top", "end-in-chain"],
)
def test_derivation_replay_rejects_malformed_steps(steps: list[Step], message: str) -> None:
    """replay raises DerivationError for structurally impossible steps."""
    _, g = _toy_grammar()
    words = ["w"] * len(steps)
    with pytest.raises(DerivationError, match=message):
        replay(words, steps, g)


def test_derivation_replay_length_mismatch() -> None:
    """Words and steps must pair up one to one."""
    trees, g = _toy_grammar()
    with pytest.raises(DerivationError, match="4 words but 5 steps"):
        replay(trees[0].leaves()[:4], derive(trees[0], g), g)
    with pytest.raises(DerivationError, match="5 tags but 4 steps"):
        check_derivation(derive(trees[0], g)[:4], trees[0].tags(), g)


# -- property tests ---------------------------------------------------------------------------
_LABELS = st.sampled_from(["A", "B", "C"])
_leaves = st.builds(lambda label, word: Tree(label, (word,)), st.sampled_from(["A", "x", "y"]), st.sampled_from("uvw"))
_bodies = st.recursive(
    _leaves,
    lambda kids: st.builds(lambda label, ch: Tree(label, tuple(ch)), _LABELS, st.lists(kids, min_size=1, max_size=3)),
    max_leaves=10,
)
rooted = _bodies.map(lambda body: Tree("TOP", (body,)))
configs = st.builds(FslcConfig, st.booleans(), st.lists(st.tuples(_LABELS, _LABELS), max_size=2).map(tuple))


@given(rooted, configs)
def test_derivation_property_replay(tree: Tree, config: FslcConfig) -> None:
    """Random transformed trees: derive then replay is the identity, and the derivation is legal."""
    t = fslc_transform(tree, config)
    g = Grammar.induce([t], long_chain_min_count=1)
    steps = derive(t, g)
    assert len(steps) == len(t.leaves())
    assert replay(t.leaves(), steps, g) == t
    check_derivation(steps, t.tags(), g, t.leaves())


@given(rooted, rooted, st.randoms(use_true_random=False))
def test_derivation_property_legality_matches_oracle(a: Tree, b: Tree, rnd) -> None:
    """check_derivation accepts exactly when every chain and every triple of the tree is in the grammar."""
    full = Grammar.induce([a, b], long_chain_min_count=1)
    chains = {t: [c for c in v if rnd.random() < 0.8] for t, v in full.chains.items()}
    first = {t: [c for c in v if rnd.random() < 0.8] for t, v in full.first_chains.items()}
    triples = {x for x in sorted(full.triples) if rnd.random() < 0.9}
    g = Grammar(list(full.categories), list(full.pos_tags), chains, first, triples)
    ids = lambda cats: tuple(g.category_id(*c) for c in cats)  # noqa: E731
    oracle = all(g.has_chain(chain[-1][0], ids(chain), first=site == -1) for site, chain in tree_chains(b)) and all(
        ids(t) in triples for t in tree_triples(b)
    )
    try:
        check_derivation(derive(b, g), b.tags(), g)
        verdict = True
    except DerivationError:
        verdict = False
    assert verdict == oracle
