"""Parser.explain and Parser.explain_tree: a derivation node by node, with named features.

The stored combined model of tests/data/decoding_identity (its README) parses sentences of the bundled sample's
test split; the explanation must add up to the decoder's own score, bit for bit, and its names must be those of
the features the kernel hashed (one slot per name, hand-worked names of a known node).
"""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from glmnlp.errors import ConfigError, InputError
from glmnlp.parser.config import TEMPLATES
from glmnlp.parser.derivation import derive
from glmnlp.parser.explain import CONTEXT_ATOMS, Explanation
from glmnlp.parser.model import Parser
from glmnlp.parser.transform import fslc_transform
from glmnlp.treebank.corpus import sample_trees
from glmnlp.treebank.trees import Tree, parse_tree

MODEL = Path(__file__).parent / "data" / "decoding_identity" / "model"


@pytest.fixture(scope="module")
def parser() -> Parser:
    return Parser.load(MODEL)


@pytest.fixture(scope="module")
def perceptron(parser: Parser) -> Parser:
    """The same weights without the generative term: scores are the feature sums alone."""
    alone = copy.copy(parser)
    alone.generative = None
    return alone


@pytest.fixture(scope="module")
def test_trees() -> list[Tree]:
    return [t for t in sample_trees("test")[:30] if len(t.leaves()) <= 30]


@pytest.fixture(scope="module")
def parsed(parser: Parser, test_trees: list[Tree]) -> list[Tree]:
    """The test trees the small model finds an analysis of (it falls back on some, and knows not every tag of some:
    their gold tags are taken unchecked, as an evaluation takes them)."""
    return [t for t in test_trees
            if parser.parse_nbest(t.leaves(), t.tags(), 1, check_tags=False)[0][0] > float("-inf")]


def _node_sum(e: Explanation) -> float:
    total = 0.0
    for node in e.nodes:
        total += node.score
    return total


@pytest.mark.parametrize("which", ["combined", "perceptron"])
def test_explanation_adds_up_to_the_decoders_score(which: str, parser: Parser, perceptron: Parser,
                                                     test_trees: list[Tree]) -> None:
    p = parser if which == "combined" else perceptron
    for tree in test_trees:
        words, tags = tree.leaves(), tree.tags()
        score = p.parse_nbest(words, tags, 1, check_tags=False)[0][0]
        if score == float("-inf"):  # the default structure (a gold tag the model does not know): nothing it scored
            with pytest.raises(InputError, match="no analysis|is not one of the model's"):
                p.explain(words, tags)
            continue
        e = p.explain(words, tags)
        assert e.score == score  # the same node scores added in the same order: the same double
        assert _node_sum(e) == score
        for node in e.nodes:
            total = 0.0  # left to right, as the kernel adds them (sum() compensates from Python 3.12 on)
            for _name, w in node.features:
                total += w
            assert node.feature_score == total
            if which == "perceptron":
                assert node.generative is None and node.score == node.feature_score
            else:
                assert node.generative is not None and node.generative <= 0.0
                assert node.score == pytest.approx(node.feature_score + e.generative_weight * node.generative,
                                                   rel=1e-12, abs=1e-9)


def test_the_parsers_own_tree_explains_as_its_derivation(parser: Parser, parsed: list[Tree]) -> None:
    assert len(parsed) > 10
    for tree in parsed[:15]:
        words, tags = tree.leaves(), tree.tags()
        own = parser.explain(words, tags)
        again = parser.explain_tree(parser.parse(words, tags))
        assert again.score == own.score
        assert [(n.word, n.label, n.features) for n in again.nodes] == [
            (n.word, n.label, n.features) for n in own.nodes
        ]


def test_a_gold_tree_the_beam_missed_scores_no_higher_than_the_parse(parser: Parser, parsed: list[Tree]) -> None:
    """The decoder's best is the best of its last beam: a gold tree it did not return scores no higher, unless it
    fell out of the beam on the way (a search error); either way explain_tree scores it without parsing, as the
    decoder scored every tree of its n-best list."""
    compared = 0
    for tree in parsed:
        words, tags = tree.leaves(), tree.tags()
        for score, ranked in parser.parse_nbest(words, tags, 5):
            assert parser.explain_tree(ranked).score == score
        parse = parser.parse(words, tags)
        if parse == tree:
            continue
        try:
            gold = parser.explain_tree(tree)
        except InputError as exc:  # a chain the small model never saw
            assert "never seen" in str(exc)
            continue
        assert len(gold.nodes) >= len(words)
        assert gold.score <= parser.explain(words, tags).score or not _in_last_beam(parser, tree)
        compared += 1
    assert compared > 3


def _in_last_beam(parser: Parser, tree: Tree) -> bool:
    return any(t == tree for _s, t in parser.parse_nbest(tree.leaves(), tree.tags(), 0))


def test_every_name_is_one_slot_and_its_template_is_known(parser: Parser, parsed: list[Tree]) -> None:
    """A name determines the hashed feature: two nodes firing the same name fire the same slot. A template list
    out of step with the kernel (two templates swapped, say) names one slot by several atoms' values, which fails
    here."""
    known = {t.split(" (")[0] for group in TEMPLATES.values() for t in group}
    slot_of: dict[str, int] = {}
    weight_of: dict[str, float] = {}
    for tree in parsed:
        e = parser.explain(tree.leaves(), tree.tags())
        nodes, _events, _starts, _total = parser._beam.explain(*_kernel_inputs(parser, tree))
        assert len(nodes) == len(e.nodes)
        for named, raw in zip(e.nodes, nodes, strict=True):
            assert len(named.features) == len(raw[6])
            for (name, weight), slot in zip(named.features, raw[6], strict=True):
                assert name.split("=")[0] in known
                assert slot_of.setdefault(name, slot) == slot, name
                assert weight_of.setdefault(name, weight) == weight
    assert len(slot_of) > 500


def _kernel_inputs(parser: Parser, tree: Tree) -> tuple[Any, ...]:
    words = tree.leaves()
    parse = parser.parse(words, tree.tags())
    steps = derive(fslc_transform(parse, parser.config.fslc), parser.grammar)
    atoms, next_pos, isq, _off, _cand = parser._inputs(words, [[t] for t in tree.tags()])
    return (atoms, next_pos, isq, parser._punct, np.array([s.site for s in steps], dtype=np.int32),
            np.array([parser._chain_id[s.chain] for s in steps], dtype=np.int32), parser.weights)


def test_hand_worked_names_of_a_small_sentence(parser: Parser) -> None:
    """(TOP (S (NP (NNP Pierre) (NNP Vinken)) (VP (MD will) (VP (VB join))) (. .))): the nodes in build order
    and the names of features whose atoms can be read off the tree."""
    tree = parse_tree("(TOP (S (NP (NNP Pierre) (NNP Vinken)) (VP (MD will) (VP (VB join))) (. .)))")
    e = parser.explain_tree(tree)
    labels = [(n.word, n.label) for n in e.nodes]
    assert labels[:4] == [(0, "TOP"), (0, "S"), (0, "NP"), (0, "NNP")]
    assert labels[4] == (1, "NNP")
    assert labels[5] == (2, "<END>")  # NP closes before "will" attaches under S
    assert labels[-1][0] == len(tree.leaves())  # the closures after the last word
    vinken = e.nodes[4]
    assert vinken.context["L10"] == "NP" and vinken.context["L01"] == "NNP" and vinken.context["L20"] == "S"
    assert vinken.context["CC"] == "Pierre" and vinken.context["CCP"] == "NNP" and vinken.context["LK"] == "Vinken"
    assert vinken.context["L11"] is None and vinken.context["CL"] == "Pierre"  # NP's head so far
    names = [name for name, _w in vinken.features]
    assert names[:6] == ["L00=NNP", "L00+L10=NNP|NP", "L00+L10+L01=NNP|NP|NNP", "L00+L10+L01+L20=NNP|NP|NNP|S",
                         "L00+L10+L01+L20+CCP=NNP|NP|NNP|S|NNP",
                         "L00+L10+L01+L20+CCP+CC=NNP|NP|NNP|S|NNP|'Pierre'"]
    assert names[6:9] == ["L00+LK=NNP|'Vinken'", "L00+L10+LK=NNP|NP|'Vinken'", "L00+LK+CC=NNP|'Vinken'|'Pierre'"]
    close_np = e.nodes[5]
    assert close_np.context["L10"] == "NP" and close_np.context["L01"] == "NNP" and close_np.context["L02"] == "NNP"
    assert close_np.context["LK"] == "will" and close_np.context["LKP"] == "MD"
    assert close_np.context["CL"] == "Vinken"  # the head of NP so far
    assert close_np.features[0][0] == "L00=<END>"
    assert close_np.features[10][0] == ("L00+L10+L01+L02+L03+L20+L11+L30+L21+COORD+CL"
                                        "=<END>|NP|NNP|NNP|-|S|-|TOP|-|-|'Vinken'")
    assert "L00+QUESTION=<END>|no" in [name for name, _w in close_np.features]
    assert set(close_np.context) == set(CONTEXT_ATOMS) | {"LK", "LKP"}
    assert e.nodes[-1].context["LK"] == "</s>" and e.nodes[-1].context["LKP"] == "</s>"
    assert "score" in e.format(top=2) and len(e.format(top=0).splitlines()) > len(e.nodes)
    assert e.format(top=1).splitlines()[1 + 2 * 5].split()[2:4] == ["<END>", "NP"]  # a closure says what it closes
    for bad in (-1, 2.5, True):
        with pytest.raises(TypeError if isinstance(bad, bool | float) else ConfigError, match="top"):
            e.format(top=bad)


def test_explain_tree_names_what_it_cannot_explain(parser: Parser) -> None:
    with pytest.raises(InputError, match="root"):
        parser.explain_tree(parse_tree("(S (NP (NNP Pierre)) (VP (VBD slept)))"))
    with pytest.raises(InputError, match="ZZZ"):
        parser.explain_tree(parse_tree("(TOP (ZZZ (NNP Pierre)) (VP (VBD slept)))"))
    with pytest.raises(InputError, match="never seen"):
        parser.explain_tree(parse_tree("(TOP (S (NP (NNP Pierre)) (VP (VBD slept) (NP (VP (RB here))))))"))


def test_explain_refuses_what_parse_refuses(parser: Parser) -> None:
    with pytest.raises(InputError):
        parser.explain(["a", "b"], ["DT"])


def test_a_word_spelled_like_an_absent_atom_or_the_end_has_its_own_name(parser: Parser) -> None:
    """``-`` marks an absent atom and ``</s>`` the end of the sentence; the words ``-`` and ``</s>`` are quoted, so
    a name is still one slot (the same name with two slots before)."""
    slot_of: dict[str, int] = {}
    for words, tags in ((["Stocks", "fell", "."], ["NNS", "VBD", "."]),
                        (["Stocks", ",", "-", "fell", "."], ["NNS", ",", ":", "VBD", "."]),
                        (["Stocks", "fell", "</s>"], ["NNS", "VBD", "."])):
        tree = parser.parse(words, tags)
        e = parser.explain(words, tags)
        nodes, _events, _starts, _total = parser._beam.explain(*_kernel_inputs(parser, tree))
        for named, raw in zip(e.nodes, nodes, strict=True):
            for (name, _w), slot in zip(named.features, raw[6], strict=True):
                assert slot_of.setdefault(name, slot) == slot, name
    assert any("'-'" in name for name in slot_of) and any("'</s>'" in name for name in slot_of)


def test_removing_the_generative_term_takes_effect_on_a_decoder_that_used_it(parser: Parser) -> None:
    """``parser.generative = None`` after a parse left the term on the thread's decoder: parses and explanations
    still added it (and the explanation's node scores were not their features' sums)."""
    p = Parser.load(MODEL)
    words, tags = ["Pierre", "Vinken", "will", "join", "."], ["NNP", "NNP", "MD", "VB", "."]
    combined = p.parse_nbest(words, tags, 1)[0][0]
    p.generative = None
    fresh = Parser.load(MODEL)
    fresh.generative = None
    alone = fresh.parse_nbest(words, tags, 1)[0][0]
    assert alone != combined
    assert p.parse_nbest(words, tags, 1)[0][0] == alone
    e = p.explain(words, tags)
    assert e.score == alone and all(n.score == n.feature_score for n in e.nodes)


def test_explain_tree_scores_with_the_tags_the_parser_was_given(parser: Parser, parsed: list[Tree]) -> None:
    """With several candidate tags per word the decoder reads the next word's first candidate (NEXTPOS), so the
    parser's own tree scores as its analysis only with the same tags."""
    alternative = {"NN": "JJ", "JJ": "NN", "VBD": "VBN", "VBN": "VBD", "IN": "RB", "VB": "VBP", "VBP": "VB"}
    differ = 0
    for tree in parsed[:20]:
        words = tree.leaves()
        tags = [[alternative[t], t] if t in alternative else [t] for t in tree.tags()]
        best = parser.parse_nbest(words, tags, 1)[0]
        if best[0] == float("-inf"):
            continue
        own = parser.explain_tree(best[1], tags)
        assert own.score == best[0] == parser.explain(words, tags).score
        differ += parser.explain_tree(best[1]).score != best[0]
    assert differ > 0  # the preterminals alone score it otherwise
    with pytest.raises(InputError, match="not among the tags given"):  # (a tag the model knows: XX is refused as such)
        parser.explain_tree(parsed[0], [["DT"]] * len(parsed[0].leaves()))


def test_explanations_are_not_parses_in_the_statistics(parser: Parser, parsed: list[Tree]) -> None:
    before = dict(parser.stats)
    parser.explain(parsed[0].leaves(), parsed[0].tags())
    parser.explain_tree(parsed[0])
    assert parser.stats == before


def test_explain_names_a_word_without_a_known_tag(parser: Parser) -> None:
    with pytest.raises(InputError, match=r"word 2 \('b'\): tag 'ZZZ' is not one of the model's"):
        parser.explain(["a", "b"], ["DT", "ZZZ"])
    with pytest.raises(InputError, match="word 1"):
        parser.explain(["a"], [["ZZZ"]])


def test_explain_tree_refuses_what_is_not_a_tree_of_words(parser: Parser) -> None:
    with pytest.raises(TypeError, match="Tree"):
        parser.explain_tree("(TOP (S (NN a)))")  # type: ignore[arg-type]
    with pytest.raises(InputError, match="no words"):
        parser.explain_tree(Tree("TOP", []))
    with pytest.raises(InputError, match="whitespace"):
        parser.explain_tree(Tree("TOP", [Tree("S", [Tree("NNP", ["Pierre Vinken"]), Tree("VBD", ["slept"])])]))
    with pytest.raises(InputError, match="empty"):
        parser.explain_tree(Tree("TOP", [Tree("S", [Tree("NNP", [""]), Tree("VBD", ["slept"])])]))


def test_a_unary_chain_of_one_category_is_one_node(parser: Parser) -> None:
    """The transform collapses ``(NP (NP ...))`` (the parser never builds it): the tree explains as without it."""
    plain = parser.explain_tree(parse_tree("(TOP (S (NP (NNP Pierre)) (VP (VBD slept)) (. .)))"))
    looped = parser.explain_tree(parse_tree("(TOP (S (NP (NP (NNP Pierre))) (VP (VBD slept)) (. .)))"))
    assert looped.score == plain.score and len(looped.nodes) == len(plain.nodes)


def test_differences_are_the_nodes_that_make_two_scores_differ(parser: Parser, parsed: list[Tree]) -> None:
    """gold.differences(parse): the nodes one derivation builds and the other does not; the shared nodes add the
    same score to both, so the two scores differ by the listed nodes' scores."""
    compared = 0
    for tree in parsed:
        words, tags = tree.leaves(), tree.tags()
        parse = parser.explain(words, tags)
        assert parse.differences(parse) == ((), ())
        try:
            gold = parser.explain_tree(tree, tags)
        except InputError:  # a chain the small model never saw
            continue
        mine, theirs = gold.differences(parse)
        assert sum(n.score for n in mine) - sum(n.score for n in theirs) == pytest.approx(gold.score - parse.score,
                                                                                          abs=1e-6)
        assert (mine == ()) == (theirs == ()) == (parser.parse(words, tags) == tree)
        assert all(any(n is g for g in gold.nodes) for n in mine)
        assert all(any(n is p for p in parse.nodes) for n in theirs)
        compared += 1
    assert compared > 5
    with pytest.raises(ValueError, match="different words"):
        parse.differences(parser.explain(["Stocks", "fell", "."], ["NNS", "VBD", "."]))


def test_a_pipeline_explains_its_sentences_with_the_words_and_tags_it_gave_the_parser() -> None:
    """Pipeline.explain: the parser's explanation of each sentence with the pipeline's own inputs (brackets spelled
    -LRB-, multi-tags, web tokens' tags, given tags), so its score is the sentence's score; None where the pipeline
    did not parse. explain_tree of the sentence's tree with the words as written scored brackets as unknown words."""
    import warnings

    import glmnlp

    nlp = glmnlp.load()
    text = 'He said (quietly) that stocks fell. Visit https://example.com now! Is it "done"?'
    doc = nlp(text)
    explained = nlp.explain(text)
    assert len(explained) == len(doc.sentences) == 3
    assert [e.score for e in explained] == [s.score for s in doc.sentences]
    assert "-LRB-" in explained[0].words
    given = [[("Dogs", "NNS"), ("bark", "VBP"), (".", ".")]]
    assert nlp.explain(given)[0].score == nlp(given).sentences[0].score
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert nlp.replace(max_words=3).explain("This sentence is too long for it.") == [None]
    with pytest.raises(ConfigError, match="no parser"):
        glmnlp.load(parser=False).explain("He agreed.")


def test_differences_hold_where_the_generative_model_reads_more_than_the_features() -> None:
    """A POS node's generative probability reads COORD, which its features do not: two ``$`` nodes with the same
    context and features scored -30.33 and -62.41 in the bundled model's gold tree and parse of a test sentence,
    were matched as the same node, and 32 points went missing from both lists."""
    import glmnlp
    from glmnlp.parser.transform import fslc_detransform

    parser = glmnlp.load().parser
    checked = 0
    for tree in sample_trees("test")[200:235]:
        words, tags = tree.leaves(), tree.tags()
        gold_tree = fslc_detransform(fslc_transform(tree, parser.config.fslc))
        try:
            gold = parser.explain_tree(gold_tree, tags)
        except InputError:
            continue
        parse = parser.explain(words, tags)
        mine, theirs = gold.differences(parse)
        assert sum(n.score for n in mine) - sum(n.score for n in theirs) == pytest.approx(gold.score - parse.score,
                                                                                          abs=1e-6)
        checked += 1
    assert checked > 25
    with pytest.raises(TypeError, match="Explanation"):
        parse.differences(None)  # type: ignore[arg-type]


@pytest.mark.parametrize("mark", ["?", "\uff1f", "\u061f"])
def test_a_question_mark_of_any_script_makes_the_sentence_a_question(parser: Parser, mark: str) -> None:
    """The QUESTION feature fired only for a final ASCII ``?``: a Chinese treebank's ``？`` and an Arabic ``؟`` made
    no sentence a question. Each does, and a full stop does not."""
    def question(last: str) -> set[str]:
        e = parser.explain(["Pierre", "slept", last], ["NNP", "VBD", "."])
        return {name.rsplit("|", 1)[1] for node in e.nodes for name, _w in node.features if "QUESTION" in name}

    assert question(mark) == {"yes"} and question(".") == {"no"}


def test_a_numpy_array_of_words_is_parsed_as_a_list(parser: Parser) -> None:
    """Words from a DataFrame column (``df.word.values``, a numpy array) failed in ``parse`` with numpy's "truth value
    of an array is ambiguous", where the tagger takes them: every entry point reads them as the list they hold."""
    words, tags = ["Pierre", "slept", "."], ["NNP", "VBD", "."]
    tree = parser.parse(np.array(words), np.array(tags))
    assert tree == parser.parse(words, tags) and all(type(w) is str for w in tree.leaves())
    assert parser.parse_nbest(np.array(words), tags, 2) == parser.parse_nbest(words, tags, 2)
    assert parser.explain(np.array(words), tags).score == parser.explain(words, tags).score
    assert parser.surprisal(np.array(words), np.array(tags)) == parser.surprisal(words, tags)


def test_explanation_format_keeps_its_columns_under_wide_characters() -> None:
    """The word and label columns were padded by characters (``:<15``): a Chinese word took twice the terminal
    columns it was given and the scores after it stood out of line. Each line's score begins in one column."""
    from glmnlp.graphemes import display_columns
    from glmnlp.parser.explain import Explanation, NodeScore

    words = ("中华人民共和国", "Zoë", "e\u0301te\u0301")
    nodes = tuple(NodeScore(word=i, label=label, context={"L10": "S"}, features=(), feature_score=1.5,
                            generative=None, score=1.5)
                  for i, label in enumerate(["NR", "名词短语", "VV"]))
    lines = Explanation(words=words, nodes=nodes, score=4.5, generative_weight=0.0).format().splitlines()[1:]
    starts = {display_columns(line[:line.index("+1.5000")]) for line in lines}
    assert len(lines) == 3 and len(starts) == 1


def test_explanations_and_their_nodes_hash_as_they_compare(parser: Parser) -> None:
    """NodeScore and Explanation are frozen dataclasses, whose generated hash met a dict (``set(nodes)`` was
    ``TypeError: unhashable type: 'dict'``). The records hash as they compare, survive pickle and deepcopy, and
    ``dataclasses.asdict`` and JSON still write them (their context is a plain dict)."""
    import dataclasses
    import json
    import pickle

    words, tags = ["He", "agreed", "."], ["PRP", "VBD", "."]
    e = parser.explain(words, tags)
    assert json.loads(json.dumps(dataclasses.asdict(e)))["nodes"][0]["context"] == e.nodes[0].context
    again = parser.explain(words, tags)
    assert hash(e) == hash(again) and set(e.nodes) == set(again.nodes) and len(set(e.nodes)) > 1
    for copied in (pickle.loads(pickle.dumps(e)), copy.deepcopy(e)):
        assert copied == e and hash(copied) == hash(e)
        assert dict(copied.nodes[0].context) == dict(e.nodes[0].context)
