"""EVALB scorer: hand-worked cases, an oracle on random trees, counts and results, the scorer's parameters."""

from __future__ import annotations

import dataclasses
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from evalb_fixtures import EVALB
from glmnlp.errors import TreeSyntaxError
from glmnlp.treebank.evalb import (
    COLLINS_PARAMS,
    STATUS_ERROR,
    STATUS_OK,
    STATUS_SKIP,
    EvalbAbortError,
    EvalbCounts,
    EvalbParams,
    combine,
    format_report,
    parse_params,
    read_params,
    score_lines,
    score_trees,
)
from glmnlp.treebank.trees import Tree, parse_tree


# -- hand-worked cases ------------------------------------------------------------------------


def _one(gold: str, test: str | None, params: EvalbParams | None = None):
    result = score_trees([parse_tree(gold)], [None if test is None else parse_tree(test)], params)
    return result.sentences[0]


def test_evalb_label_equivalence_advp_prt() -> None:
    """ADVP and PRT match each other under COLLINS.prm (EQ_LABEL), not without the pair."""
    gold = "(S (NP (PRP he)) (VP (VBD gave) (PRT (RP up))))"
    test = "(S (NP (PRP he)) (VP (VBD gave) (ADVP (RP up))))"
    assert dataclasses.astuple(_one(gold, test))[3:6] == (4, 4, 4)
    plain = dataclasses.replace(COLLINS_PARAMS, eq_labels=())
    assert dataclasses.astuple(_one(gold, test, plain))[3:6] == (3, 4, 4)


def test_evalb_delete_label_extends_to_eq_partner() -> None:
    """Bracket deletion compares labels modulo EQ_LABEL (PRT goes with ADVP); tag deletion is exact."""
    tree = "(S (NP (PRP he)) (VP (VBD gave) (PRT (RP up))) (ADVP (PRT x)))"
    params = parse_params("DELETE_LABEL ADVP\nEQ_LABEL ADVP PRT\n")
    row = _one(tree, tree, params)
    assert (row.gold_brackets, row.words) == (3, 4)  # S NP VP kept; PRT and ADVP brackets gone; tag PRT kept
    row = _one(tree, tree, parse_params("DELETE_LABEL ADVP\n"))
    assert (row.gold_brackets, row.words) == (4, 4)


def test_evalb_deleted_punctuation_shrinks_spans() -> None:
    """Deleted punctuation takes no room: NP-with-comma = NP, a comma-only PRN vanishes, Len keeps it."""
    gold = "(TOP (S (NP (NP (DT the) (NN dog)) (, ,)) (VP (VBD ran)) (. .)))"
    test = "(TOP (S (NP (DT the) (NN dog)) (PRN (, ,)) (VP (VBD ran)) (. .)))"
    row = _one(gold, test)
    # gold kept: S(0,3) NP(0,2) NP(0,2) VP(2,3); test kept: S(0,3) NP(0,2) VP(2,3); PRN empty, TOP deleted
    assert (row.matched, row.gold_brackets, row.test_brackets) == (3, 4, 3)
    assert (row.length, row.words, row.correct_tags, row.status) == (5, 3, 3, STATUS_OK)


def test_evalb_none_elements_excluded_from_length_and_words() -> None:
    """-NONE- terminals count neither as words nor in Len.; a bracket over a trace only is dropped."""
    gold = "(S (NP-SBJ (-NONE- *)) (VP (VBD ran)) (. .))"
    row = _one(gold, "(S (VP (VBD ran)) (. .))")
    assert (row.length, row.words, row.matched, row.gold_brackets, row.test_brackets) == (2, 1, 2, 2, 2)


def test_evalb_function_tags_are_cut() -> None:
    """Bracket labels are cut at '-' or '=' (NP-SBJ-1, NP=2 -> NP); tags are compared uncut."""
    row = _one("(S (NP-SBJ-1 (DT a) (NN b)) (VP=2 (VB c)))", "(S (NP (DT a) (NN b)) (VP (VB c)))")
    assert (row.matched, row.gold_brackets, row.test_brackets, row.correct_tags) == (3, 3, 3, 3)


def test_evalb_length_mismatch_is_error_sentence() -> None:
    """A different number of words is evalb's status 1 with 'Length unmatch (g|t)', scored as zeros."""
    result = score_lines(["(S (A (P this)) (B (Q is)))"], ["(S (A (P this)) (B (Q is) (R it)))"])
    row = result.sentences[0]
    assert (row.status, row.reason, row.length, row.matched, row.words) == (STATUS_ERROR, "Length unmatch (2|3)", 2, 0, 0)
    assert (result.total.error_sentences, result.total.valid_sentences, result.cut.error_sentences) == (1, 0, 1)


def test_evalb_word_mismatch_and_eq_word() -> None:
    """A differing word is an error sentence unless the pair is an EQ_WORD pair."""
    gold, test = "(S (A (P This)) (B (Q is)))", "(S (A (P this)) (B (Q is)))"
    row = _one(gold, test)
    assert (row.status, row.reason) == (STATUS_ERROR, "Words unmatch (This|this)")
    eq = dataclasses.replace(COLLINS_PARAMS, eq_words=(("this", "This"),))
    assert _one(gold, test, eq).status == STATUS_OK


def test_evalb_says_when_unmatched_words_are_one_word_in_two_unicode_forms() -> None:
    """``Words unmatch (résumé|résumé)``: an accent composed in one file and a combining mark in the other print
    alike, and the message gave no clue; EVALB's comparison of the bytes is kept, the message says what differs."""
    gold, test = "(S (A (P caf\u00e9)))", "(S (A (P cafe\u0301)))"
    row = _one(gold, test)
    assert (row.status, row.reason) == (
        STATUS_ERROR, "Words unmatch (caf\u00e9|cafe\u0301): the same characters, in two Unicode forms (NFC, NFD)")
    assert _one("(S (A (P cafe)))", test).reason == "Words unmatch (cafe|cafe\u0301)"


def test_evalb_missing_parse_is_skip_sentence() -> None:
    """A None tree or an empty test line is a skip sentence (status 2), outside the scores."""
    assert _one("(S (A (P x)))", None).status == STATUS_SKIP
    result = score_lines(["(S (A (P x)) (B (Q y)))", "(S (A (P x)) (B (Q y)))"], ["", "(S (A (P x)) (B (Q y)))"])
    assert [r.status for r in result.sentences] == [STATUS_SKIP, STATUS_OK]
    assert (result.total.skip_sentences, result.total.valid_sentences, result.total.gold_brackets) == (1, 1, 3)


def test_evalb_whitespace_after_a_label_makes_a_terminal_as_in_evalb() -> None:
    """As evalb.c reads a line, a label followed by a space holds a word: ``(ADVP )`` is a terminal with an empty word
    (a length mismatch; it was read as an empty bracket and the sentence scored 100), ``( dog)`` a terminal with an
    empty tag (it was an empty bracket labelled ``dog``: a length mismatch), ``( )`` a terminal with neither (an
    error sentence, not a skip); ``(ADVP)`` without the space stays an empty bracket."""

    def _line(gold: str, test: str):  # type: ignore[no-untyped-def]
        return score_lines([gold], [test]).sentences[0]

    gold = "(S (NP (DT The) (NN dog)) (VP (VBD barked)))"
    row = _line(gold, "(S (NP (DT The) (NN dog)) (VP (VBD barked) (ADVP )))")
    assert (row.status, row.reason) == (STATUS_ERROR, "Length unmatch (3|4)")
    assert (_line(gold, "( )").status, _line(gold, "( )").reason) == (STATUS_ERROR, "Length unmatch (3|1)")
    row = _line(gold, "(S (NP (DT The) ( dog)) (VP (VBD barked)))")
    assert (row.status, row.matched, row.gold_brackets, row.test_brackets, row.correct_tags) == (STATUS_OK, 3, 3, 3, 2)
    row = _line(gold, "(S (NP (DT The) (NN dog)) (VP (VBD barked) (ADVP)))")
    assert (row.status, row.matched, row.test_brackets) == (STATUS_OK, 3, 3)
    row = _line(gold, "(S (NP (DT The) (NN dog )) (VP (VBD barked)))")  # a space before ')' is no second word
    assert (row.status, row.matched) == (STATUS_OK, 3)
    with pytest.raises(TreeSyntaxError, match="two words"):
        _line(gold, "(S (NP (DT The) (NN big dog)) (VP (VBD barked)))")
    # only ASCII whitespace separates, as for evalb.c in the C locale: a no-break space is a word
    assert _line("(S (NN \u00a0) (VB x))", "(S (NN \u00a0) (VB x))").status == STATUS_OK


def test_evalb_unlabeled_mode_ignores_labels() -> None:
    """LABELED 0 matches brackets on spans alone."""
    gold, test = "(S (NP (DT a) (NN b)) (VP (VB c)))", "(X (Y (DT a) (NN b)) (Z (VB c)))"
    assert _one(gold, test).matched == 0
    assert _one(gold, test, dataclasses.replace(COLLINS_PARAMS, labeled=False)).matched == 3


def test_evalb_crossing_counted_on_test_brackets() -> None:
    """Each test bracket crossing some gold bracket counts once; nested or equal spans never cross."""
    gold = "(S (A (X a) (X b)) (X c) (X d))"  # S(0,4) A(0,2)
    test = "(S (X a) (B (X b) (X c)) (C (X d)))"  # S(0,4) B(1,3) C(3,4)
    row = _one(gold, test)  # B crosses A; C sits inside S
    assert (row.crossing, row.matched, row.gold_brackets, row.test_brackets) == (1, 1, 2, 3)
    both = _one("(S (A (X a) (X b)) (C (X c) (X d)))", "(S (X a) (B (X b) (X c)) (X d))")
    assert both.crossing == 1  # B(1,3) crosses A(0,2) and C(2,4): still one crossing test bracket
    assert _one(gold, gold).crossing == 0


def test_evalb_duplicate_brackets_match_as_multiset() -> None:
    """Unary chains of one label: each gold copy needs its own test copy."""
    gold = "(S (NP (NP (DT a) (NN b))) (VP (VB c)))"
    test = "(S (NP (DT a) (NN b)) (VP (VP (VP (VB c)))))"
    row = _one(gold, test)
    assert (row.matched, row.gold_brackets, row.test_brackets) == (3, 4, 5)


def test_evalb_root_brackets() -> None:
    """TOP is deleted by COLLINS.prm, the S below it counts; an unlabelled root bracket counts too."""
    assert _one("(TOP (S (A (P x)) (B (Q y))))", "(TOP (S (A (P x)) (B (Q y))))").gold_brackets == 3
    assert _one("( (S (A (P x)) (B (Q y))) )", "( (S (A (P x)) (B (Q y))) )").gold_brackets == 4
    forest = score_lines(["(S (P this) (Q is))"], ["(P this) (Q is)"]).sentences[0]
    assert (forest.status, forest.matched, forest.gold_brackets, forest.test_brackets) == (STATUS_OK, 0, 1, 0)


def test_evalb_cutoff_uses_gold_length() -> None:
    """The len<=CUTOFF_LEN block keeps sentences whose gold Len. is within the cut-off, errors included."""
    params = dataclasses.replace(COLLINS_PARAMS, cutoff_len=2)
    gold = ["(S (A (P a)) (B (Q b)))", "(S (A (P a)) (B (Q b)) (C (R c)))", "(S (A (P a)) (B (Q b)))"]
    test = ["(S (A (P a)) (B (Q b)))", "(S (A (P a)) (B (Q b)) (C (R c)))", "(S (A (P z)) (B (Q b)))"]
    result = score_lines(gold, test, params)
    assert (result.cut.sentences, result.cut.valid_sentences, result.cut.error_sentences) == (2, 1, 1)
    assert (result.cut.gold_brackets, result.total.gold_brackets) == (3, 7)
    assert format_report(result).count("-- len<=2 --") == 1


def test_evalb_max_error_tolerates_max_plus_one() -> None:
    """evalb stops at the error raised after MAX_ERROR + 1 errors: 2 errors pass with MAX_ERROR 1, a 3rd aborts."""
    params = dataclasses.replace(COLLINS_PARAMS, max_error=1)
    gold = ["(S (A (P a)) (B (Q b)))"] * 4
    bad = "(S (A (P x)) (B (Q b)))"
    assert score_lines(gold[:3], [bad, gold[0], bad], params).total.error_sentences == 2
    with pytest.raises(EvalbAbortError) as info:
        score_lines(gold, [bad, gold[0], bad, bad], params, test_source="t.txt")
    assert info.value.line == 4 and info.value.source == "t.txt" and "Words unmatch (a|x)" in info.value.reason


def test_evalb_no_match_prints_nan_like_evalb() -> None:
    """With no matched bracket evalb prints '-nan' for the F-measure; the API gives 0.0."""
    result = score_lines(["(S (A (P a)) (B (Q b)))"], ["(T (P a) (Q b))"])
    assert result.fmeasure == 0.0
    assert "Bracketing FMeasure       =   -nan\n" in format_report(result)


def test_evalb_sum_equals_scoring_concatenation() -> None:
    """a + b and combine() equal scoring the concatenated inputs (rows renumbered, all counts summed)."""
    gold = (EVALB / "sample_test.gold").read_text().splitlines()
    test = (EVALB / "sample_test.roark").read_text().splitlines()
    sgold = (EVALB / "sample.gld").read_text().splitlines()
    stest = (EVALB / "sample.tst").read_text().splitlines()
    params = read_params(EVALB / "sample.prm")
    parts = [score_lines(gold[:100], test[:100], params), score_lines(sgold, stest, params),
             score_lines(gold[100:], test[100:], params)]  # fmt: skip
    whole = score_lines(gold[:100] + sgold + gold[100:], test[:100] + stest + test[100:], params)
    assert parts[0] + parts[1] + parts[2] == whole
    assert combine(parts) == whole
    assert whole.total == parts[0].total + parts[1].total + parts[2].total
    assert whole.total.error_sentences == 5 and whole.sentences[-1].id == 245 + 24
    assert format_report(whole) == format_report(combine(parts))


def test_evalb_counts_add_is_fieldwise() -> None:
    """EvalbCounts + EvalbCounts adds every field."""
    a = EvalbCounts(*range(1, 13))
    assert dataclasses.astuple(a + a) == tuple(2 * v for v in range(1, 13))
    with pytest.raises(ValueError):
        _ = score_lines([], []) + score_lines([], [], dataclasses.replace(COLLINS_PARAMS, labeled=False))


# -- oracle: greedy matching vs multiset intersection on random trees ---------------------------

_WORDS = ("a", "b", "c", "d", "e", "f", "g")
_LABELS = ("S", "NP", "VP", "ADVP", "PRT", "TOP", "NP-SBJ")


@st.composite
def _tree(draw, tags: tuple[str, ...]) -> Tree:
    def build(lo: int, hi: int) -> Tree:
        if hi - lo == 1 and draw(st.booleans()):
            node = Tree(tags[lo], (_WORDS[lo],))
        else:
            cuts = [c for c in range(lo + 1, hi) if draw(st.booleans())]
            bounds = [lo, *cuts, hi]
            if len(bounds) == 2 and hi - lo > 1:
                bounds = [lo, lo + 1, hi]
            kids = [build(a, b) if b - a > 1 or draw(st.booleans()) else Tree(tags[a], (_WORDS[a],))
                    for a, b in zip(bounds, bounds[1:])]  # fmt: skip
            node = Tree(draw(st.sampled_from(_LABELS)), tuple(kids))
        while draw(st.integers(0, 3)) == 3:  # unary chains, sometimes of the same label
            node = Tree(draw(st.sampled_from(_LABELS)), (node,))
        return node

    return build(0, len(tags))


def _oracle(gold: Tree, test: Tree) -> tuple[int, int, int, int]:
    """Independent count: leaf ranges mapped to kept-word ranges, Counter intersection, brute-force crossing."""
    deleted = set(COLLINS_PARAMS.delete_labels)

    def brackets(tree: Tree) -> list[tuple[int, int, str]]:
        leaves = tree.pos()
        before = [0]
        for _, tag in leaves:
            before.append(before[-1] + (tag not in deleted))
        out = []

        def walk(node: Tree, start: int) -> int:
            if node.is_preterminal:
                return start + 1
            end = start
            for child in node.children:
                end = walk(child, end)  # type: ignore[arg-type]
            label = node.label.split("-")[0]
            label = "ADVP" if label == "PRT" else label
            if before[start] < before[end] and label not in deleted:
                out.append((before[start], before[end], label))
            return end

        walk(tree, 0)
        return out

    g, t = brackets(gold), brackets(test)
    matched = sum((Counter(g) & Counter(t)).values())
    crossing = sum(any(a < s < b < e or s < a < e < b for a, b, _ in g) for s, e, _ in t)
    return matched, len(g), len(t), crossing


@given(data=st.data(), n=st.integers(1, 7))
def test_evalb_matching_equals_multiset_oracle(data: st.DataObject, n: int) -> None:
    """On random tree pairs over one word string, evalb's counts equal the independent oracle's."""
    tags = tuple(data.draw(st.sampled_from(("NN", "DT", ",", "."))) for _ in range(n))
    if all(tag in (",", ".") for tag in tags):
        tags = ("NN", *tags[1:])
    gold, test = data.draw(_tree(tags)), data.draw(_tree(tags))
    row = score_trees([gold], [test]).sentences[0]
    assert row.status == STATUS_OK
    assert (row.matched, row.gold_brackets, row.test_brackets, row.crossing) == _oracle(gold, test)
    assert row.length == n and row.words == sum(tag not in (",", ".") for tag in tags)


def test_scoring_refuses_params_that_are_not_evalb_params(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """``score_files(g, t, params=5)`` was ``AttributeError: 'int' object has no attribute 'delete_labels'``."""
    from glmnlp.treebank.evalb import score_files, score_trees
    from glmnlp.treebank.trees import parse_tree

    tree = parse_tree("(TOP (S (NN dog)))")
    path = tmp_path / "g.trees"
    path.write_text("(TOP (S (NN dog)))\n", encoding="utf-8")
    with pytest.raises(TypeError, match="params must be an EvalbParams"):
        score_files(path, path, 5)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="params must be an EvalbParams"):
        score_trees([tree], [tree], {"delete_labels": []})  # type: ignore[arg-type]
    assert score_trees([tree], [tree]).fmeasure == 100.0


def test_score_trees_reads_brackets_in_words_as_the_file_of_the_trees_does() -> None:
    """A tree whose words hold "(" or ")" as written (the pipeline gives them back so) scores as its file does,
    where to_bracket writes them -LRB- / -RRB-: it was a word mismatch against the gold -LRB- (an error sentence,
    and with punctuation stripped a length mismatch)."""
    from glmnlp.treebank.evalb import COLLINS_PARAMS, score_lines, score_trees
    from glmnlp.treebank.trees import Tree, parse_tree, to_bracket

    gold = parse_tree("(TOP (S (NP (PRP He)) (PRN (-LRB- -LRB-) (ADVP (RB really)) (-RRB- -RRB-)) (VP (VBD left))"
                      " (. .)))")
    written = {"-LRB-": "(", "-RRB-": ")"}

    def as_written(node: Tree | str) -> Tree | str:
        if isinstance(node, str):
            return written.get(node, node)
        return Tree(node.label, tuple(as_written(c) for c in node.children))

    test = as_written(gold)
    assert isinstance(test, Tree) and "(" in test.leaves()
    for params in (COLLINS_PARAMS, dataclasses.replace(COLLINS_PARAMS, strip_punct=True)):
        by_trees = score_trees([gold], [test], params)
        by_lines = score_lines([to_bracket(gold)], [to_bracket(test)], params)
        assert by_trees.sentences[0].status == 0 and by_trees.total.error_sentences == 0
        assert by_trees == by_lines and (by_trees.recall, by_trees.precision) == (100.0, 100.0)


@settings(max_examples=500, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 8), st.integers(1, 8), st.sampled_from("ABC")), max_size=12),
       st.lists(st.tuples(st.integers(0, 8), st.integers(1, 8), st.sampled_from("ABC")), max_size=12),
       st.booleans())
def test_matching_and_crossing_are_those_of_every_pair(gold: list, test: list, labeled: bool) -> None:
    """Matching read each span's test brackets from the first, and crossing compared every test bracket with every
    gold one: quadratic in a deep tree's brackets (a unary chain of 20,000 took minutes). Both are read otherwise
    now; the counts are those of the pairwise definitions (EVALB's)."""
    from glmnlp.treebank.evalb import _crosses, _span_bounds

    gold_br = [(a, a + w, x) for a, w, x in gold]
    test_br = [(a, a + w, x) for a, w, x in test]
    bounds = _span_bounds(gold_br, 16)
    assert [_crosses(s, e, *bounds) for s, e, _ in test_br] == [
        any(a < s < b < e or s < a < e < b for a, b, _ in gold_br) for s, e, _ in test_br]
    from glmnlp.treebank import evalb

    params = dataclasses.replace(COLLINS_PARAMS, labeled=labeled)
    used = [False] * len(test_br)
    expected = 0
    for a, b, x in gold_br:  # first unused test bracket of the span (and label), in order
        for k, (s, e, y) in enumerate(test_br):
            if not used[k] and (s, e) == (a, b) and (not labeled or x == y):
                used[k], expected = True, expected + 1
                break
    assert evalb._match_count(gold_br, test_br, params, lambda p, q: p == q) == expected


def test_an_evalb_result_and_an_explanation_print_short() -> None:
    """``score_trees(gold, test)`` and ``nlp.explain(text)`` as a notebook cell's last line printed the generated
    reprs on one line: every sentence's row (81,000 characters for 559 sentences) without the F-measure asked for,
    every node and feature (160,000 characters for three sentences). Each says what it is in one short line."""
    import glmnlp

    tree = glmnlp.parse_tree("(TOP (S (NP (DT The) (NN dog)) (VP (VBD barked)) (. .)))")
    result = glmnlp.score_trees([tree] * 600, [tree] * 600)
    assert repr(result) == "<EvalbResult: 600 sentences, F1 100.00 (LR 100.00, LP 100.00)>"
    explanation = glmnlp.load().explain(" ".join(["The dog barked and the cat ran ."] * 6))[0]
    assert explanation is not None and len(repr(explanation)) < 120
    shown = repr(explanation)
    assert shown.startswith("<Explanation of 'The dog barked") and f"{len(explanation.nodes)} nodes" in shown
    # one sentence is a sentence; a node is one line too (its generated repr: 781 characters, 100 KB for 85 nodes)
    assert repr(glmnlp.score_trees([tree], [tree])) == "<EvalbResult: 1 sentence, F1 100.00 (LR 100.00, LP 100.00)>"
    node = explanation.nodes[0]
    assert repr(node) == f"<NodeScore word 0 {node.label}: score {node.score:+.4f}, {len(node.features)} features>"
