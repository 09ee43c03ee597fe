"""Tests for glmnlp.text.document: records, validation, dict/JSON round trips and nltk conversion."""

from __future__ import annotations

import copy
import json
import pickle
import sys
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import document_trees

from glmnlp.text.document import Document, Sentence, Token, tree_from_nltk, tree_to_nltk
from glmnlp.errors import FormatError, TreeSyntaxError
from glmnlp.text.render import render_json
from glmnlp.treebank.trees import Tree, parse_tree, to_bracket

TREE = parse_tree("(TOP (S (NP (NNP Vinken)) (VP (VBZ sleeps)) (. .)))")


def _doc() -> Document:
    text = "Vinken sleeps. Fine"
    parsed = Sentence(
        (Token("Vinken", "NNP", 0, 6), Token("sleeps", "VBZ", 7, 13), Token(".", ".", 13, 14)), TREE, -3.25
    )
    unparsed = Sentence((Token("Fine", None, 15, 19),))
    return Document(text, (parsed, unparsed))


def test_document_sentence_from_tree_takes_words_and_tags() -> None:
    """Sentence.from_tree reads tokens and tags off the preterminals."""
    sent = Sentence.from_tree(TREE, score=1.5)
    assert sent.words == ["Vinken", "sleeps", "."]
    assert sent.tags == ["NNP", "VBZ", "."]
    assert sent.to_bracket() == "(TOP (S (NP (NNP Vinken)) (VP (VBZ sleeps)) (. .)))"
    assert sent.score == 1.5


def test_document_sentence_rejects_tree_over_other_words() -> None:
    """A tree whose leaves differ from the tokens is refused."""
    with pytest.raises(ValueError, match="differ from the sentence tokens"):
        Sentence((Token("Vinken"), Token("slept"), Token(".")), TREE)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"text": ""}, "non-empty"),
        ({"text": "a b"}, "without whitespace"),
        ({"text": "a", "start": 3}, "both start and end"),
        ({"text": "a", "start": 5, "end": 2}, "bad offsets"),
    ],
)
def test_document_token_validation(kwargs: dict, message: str) -> None:
    """Empty or spaced token texts and inconsistent offsets are refused."""
    with pytest.raises(ValueError, match=message):
        Token(**kwargs)


def test_document_rejects_offsets_past_the_text() -> None:
    """A token pointing beyond the document text is refused."""
    with pytest.raises(ValueError, match="past the end of the text"):
        Document("short", (Sentence((Token("word", None, 0, 9),)),))


def test_document_lists_become_tuples() -> None:
    """Lists given for tokens and sentences are stored as tuples (the records are immutable)."""
    doc = Document("", [Sentence([Token("a")])])
    assert isinstance(doc.sentences, tuple) and isinstance(doc.sentences[0].tokens, tuple)
    assert Sentence.from_words(["a", "b"], ["DT", "NN"]).tags == ["DT", "NN"]
    with pytest.raises(ValueError, match="2 words but 1 tags"):
        Sentence.from_words(["a", "b"], ["DT"])


def test_document_dict_round_trip_is_exact() -> None:
    """to_dict -> JSON -> from_dict gives back an equal document, trees included."""
    doc = _doc()
    data = json.loads(render_json(doc))
    assert data["sentences"][0]["tree"] == "(TOP (S (NP (NNP Vinken)) (VP (VBZ sleeps)) (. .)))"
    assert data["sentences"][1]["tree"] is None
    assert Document.from_dict(data) == doc
    assert doc.trees == [TREE, None]


@settings(max_examples=50, deadline=None)
@given(st.lists(document_trees, min_size=1, max_size=3), st.one_of(st.none(), st.floats(allow_nan=False)))
def test_document_round_trip_random_trees(tree_list: list[Tree], score: float | None) -> None:
    """Any tree survives the JSON form (labels and words with odd characters, brackets and slash
    categories included), and so do the n-best trees."""
    doc = Document("", tuple(Sentence.from_tree(t, score) for t in tree_list))
    assert Document.from_dict(json.loads(render_json(doc))) == doc
    with_nbest = Document("", tuple(replace(s, nbest=((score, s.tree), (None, Tree("TOP", (s.tree,)))))
                                    for s in doc.sentences))
    assert Document.from_dict(json.loads(render_json(with_nbest))) == with_nbest


def test_document_round_trip_keeps_bracket_words() -> None:
    """Pre-tokenised words with brackets read back as they were, the tree's leaves and the n-best trees
    included, while the JSON tree stays the PTB bracket string that treebank tools read."""
    tree = parse_tree("(TOP (S (NP (PRP He)) (PRN (-LRB- -LRB-) (RB really) (-RRB- -RRB-)) (VP (VBD left)) (. .)))")
    words = ["He", "(", "really", ")", "left", "."]
    tree = _with_words(tree, words)
    other = _with_words(parse_tree("(TOP (S (NP (PRP He) (-LRB- -LRB-) (RB really) (-RRB- -RRB-)) "
                                   "(VP (VBD left)) (. .)))"), words)
    sent = Sentence(tuple(Token(w, t) for w, t in tree.pos()), tree, -2.0, nbest=((-2.0, tree), (-3.0, other)))
    doc = Document("", (sent, Sentence.from_tree(parse_tree("(TOP (NP (NN a-RRB-b) (NN x-LRB-)))")),
                        Sentence.from_tree(_with_words(parse_tree("(TOP (NP (NN a-RRB-b) (NN x-LRB-)))"),
                                                       ["a)b", "x("]))))
    data = json.loads(render_json(doc))
    assert data["sentences"][0]["tree"] == to_bracket(tree)
    assert "-LRB-" in data["sentences"][0]["tree"] and "(really" not in data["sentences"][0]["tree"]
    assert not any("tree_exact" in sent for sent in data["sentences"])  # the tokens give the words back
    back = Document.from_dict(data)
    assert back == doc
    assert back.sents[0].tree.leaves() == words and back.sents[0].nbest[1][1] == other
    assert back.sents[1].words == ["a-RRB-b", "x-LRB-"] and back.sents[2].words == ["a)b", "x("]


def test_document_round_trip_keeps_bracket_labels_and_slash_categories() -> None:
    """Labels the bracket string cannot carry (a tag "(", an FSLC slash category) read back exactly too."""
    tree = Tree("TOP", (Tree("S", (Tree("(", ("x(",)), Tree("VP", (Tree("VBD", ("left",)),), slash="NP")),),))
    doc = Document("", (Sentence.from_tree(tree),))
    assert doc.sents[0].tags == ["(", "VBD"]
    data = json.loads(render_json(doc))
    assert data["sentences"][0]["tree"] == "(TOP (S (-LRB- x-LRB-) (VP/NP (VBD left))))"
    assert data["sentences"][0]["tree_exact"] == ["TOP", None, [["S", None, [["(", None, ["x("]],
                                                                         ["VP", "NP", [["VBD", None, ["left"]]]]]]]]
    back = Document.from_dict(data)
    assert back == doc and back.sents[0].tree == tree and back.sents[0].tree.children[0].children[1].slash == "NP"


def test_document_reads_dictionaries_that_carry_only_the_bracket_string() -> None:
    """A dictionary with only the bracket string (as written before the exact form existed) reads back with
    the tokens' words as leaves; a bracket leaf that is no escape of its token is still refused."""
    data = {"format": "glmnlp.text.document", "version": 1, "text": "", "sentences": [
        {"tokens": [{"text": "f(x)", "tag": "NN"}, {"text": "-LRB-", "tag": "-LRB-"}],
         "tree": "(TOP (NP (NN f-LRB-x-RRB-) (-LRB- -LRB-)))", "score": None}]}
    assert Document.from_dict(data).sents[0].tree == Tree("TOP", (Tree("NP", (Tree("NN", ("f(x)",)),
                                                                               Tree("-LRB-", ("-LRB-",)))),))
    data["sentences"][0]["tree"] = "(TOP (NP (NN fxx) (-LRB- -LRB-)))"
    with pytest.raises(FormatError, match="differ from the sentence tokens"):
        Document.from_dict(data)


@pytest.mark.parametrize("exact", [["TOP", None], ["TOP", 3, ["x("]], ["TOP", None, "x("], ["TOP", None, [7]]])
def test_document_from_dict_rejects_a_malformed_exact_tree(exact: list) -> None:
    """A "tree_exact" that is not [label, slash, children] raises FormatError naming the sentence."""
    data = Document("", (Sentence.from_tree(Tree("TOP", (Tree("(", ("x(",)),))),)).to_dict()
    data["sentences"][0]["tree_exact"] = exact
    with pytest.raises(FormatError, match="sentence 1"):
        Document.from_dict(data)


def _with_words(tree: Tree, words: list[str]) -> Tree:
    """``tree`` with its leaves replaced, left to right, by ``words``."""
    it = iter(words)

    def walk(node: Tree) -> Tree:
        if node.is_preterminal:
            return Tree(node.label, (next(it),), node.slash)
        return Tree(node.label, tuple(walk(c) for c in node.children), node.slash)  # type: ignore[arg-type]

    return walk(tree)


@pytest.mark.parametrize(
    ("mutate", "error", "message"),
    [
        (lambda d: d.update(format="other"), FormatError, "not a glmnlp document"),
        (lambda d: d.update(version=99), FormatError, "unsupported document version 99"),
        (lambda d: d["sentences"][0]["tokens"][0].pop("text"), FormatError, "sentence 1"),
        (lambda d: d["sentences"][0].update(tree="(TOP (S (NN x)"), TreeSyntaxError, "unbalanced"),
        (lambda d: d["sentences"][1]["tokens"][0].update(end=99), FormatError, "past the end"),
    ],
)
def test_document_from_dict_rejects_malformed_input(mutate, error, message) -> None:
    """Foreign, versioned, incomplete or inconsistent dictionaries raise a clear error."""
    data = _doc().to_dict()
    mutate(data)
    with pytest.raises(error, match=message):
        Document.from_dict(data, source="doc.json")


def test_document_to_nltk_and_back() -> None:
    """Sentence.to_nltk gives an nltk.Tree with the same brackets, and converting back is exact."""
    nltk = pytest.importorskip("nltk")
    converted = Sentence.from_tree(TREE).to_nltk()
    assert isinstance(converted, nltk.Tree)
    assert converted.label() == "TOP"
    assert converted.leaves() == ["Vinken", "sleeps", "."]
    assert " ".join(converted.pformat(margin=10_000).split()) == str(TREE)
    assert tree_from_nltk(converted) == TREE


def test_document_to_nltk_spells_slash_categories() -> None:
    """A slash node (FSLC) becomes the nltk label 'A/B'."""
    pytest.importorskip("nltk")
    tree = Tree("VP", (Tree("VBD", ("left",)), Tree("VP", (Tree("CC", ("and",)),), slash="VP")))
    assert tree_to_nltk(tree)[1].label() == "VP/VP"


def test_document_to_nltk_without_nltk_says_how_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    """Without nltk, the conversion raises ImportError naming the extra to install."""
    monkeypatch.setitem(sys.modules, "nltk", None)
    with pytest.raises(ImportError, match=r"pip install 'glmnlp\[nltk\]'"):
        Sentence.from_tree(TREE).to_nltk()


def test_document_to_nltk_needs_a_tree() -> None:
    """An unparsed sentence cannot be converted."""
    with pytest.raises(ValueError, match="no tree"):
        Sentence((Token("a"),)).to_nltk()


def test_document_and_sentence_are_sequences_of_tokens_with_text() -> None:
    """len / indexing / iteration over tokens, .sents, and each sentence's original text."""
    doc = _doc()
    assert len(doc) == 4 and doc[1].text == "sleeps" and [t.text for t in doc] == ["Vinken", "sleeps", ".", "Fine"]
    assert doc.sents == doc.sentences and len(doc.sents) == 2
    first = doc.sents[0]
    assert len(first) == 3 and first[0].text == "Vinken" and [t.tag for t in first] == ["NNP", "VBZ", "."]
    assert first.text == "Vinken sleeps." and doc.sents[1].text == "Fine"
    assert (first.start_char, first.end_char) == (0, 14)
    spaced = Document("Vinken   sleeps .", (Sentence((Token("Vinken", None, 0, 6), Token("sleeps", None, 9, 15),
                                                       Token(".", None, 16, 17))),))
    assert spaced.sents[0].text == "Vinken   sleeps ."
    assert Sentence.from_words(["a", "b"]).text == "a b"


def test_document_constituents_are_benepar_like_spans() -> None:
    """One Span per node, pre-order, with token positions, original text and character offsets."""
    text = "Mr.  Vinken (61) sleeps."
    tree = parse_tree("(TOP (S (NP (NNP Mr.) (NNP Vinken) (PRN (-LRB- -LRB-) (CD 61) (-RRB- -RRB-))) "
                      "(VP (VBZ sleeps)) (. .)))")
    offsets = [(0, 3), (5, 11), (12, 13), (13, 15), (15, 16), (17, 23), (23, 24)]
    tokens = tuple(Token(w, t, a, b) for (w, t), (a, b) in zip(tree.pos(), offsets))
    sent = Document(text, (Sentence(tokens, tree),)).sents[0]
    spans = sent.constituents
    assert [(s.label, s.start, s.end) for s in spans][:4] == [("TOP", 0, 7), ("S", 0, 7), ("NP", 0, 5),
                                                              ("NNP", 0, 1)]
    prn = next(s for s in spans if s.label == "PRN")
    assert (prn.start, prn.end, prn.text, prn.start_char, prn.end_char, len(prn)) == (2, 5, "(61)", 12, 16, 3)
    np_ = spans[2]
    assert np_.text == "Mr.  Vinken (61)" and text[np_.start_char:np_.end_char] == np_.text
    assert len(spans) == sum(1 for _ in tree.subtrees())
    # without original text: words joined, no offsets
    bare = Sentence.from_tree(tree).constituents
    assert bare[2].text == "Mr. Vinken -LRB- 61 -RRB-" and bare[2].start_char is None
    assert Sentence.from_words(["a"]).constituents == []


def test_document_nbest_surprisal_and_scores_round_trip() -> None:
    """nbest and surprisal are stored and read back; impossible scores are None (JSON has no inf)."""
    other = parse_tree("(TOP (S (NNP Vinken) (VBZ sleeps) (. .)))")
    sent = Sentence(_doc().sents[0].tokens, TREE, -3.0, nbest=((-3.0, TREE), (float("-inf"), other)),
                    surprisal=(1.5, float("inf"), 0.25))
    assert sent.nbest[1][0] is None and sent.surprisal == (1.5, None, 0.25)
    assert Sentence.from_tree(TREE, score=float("-inf")).score is None
    doc = Document("Vinken sleeps.", (sent,))
    data = doc.to_dict()
    assert data["sentences"][0]["nbest"][1] == {"score": None, "tree": "(TOP (S (NNP Vinken) (VBZ sleeps) (. .)))"}
    assert Document.from_dict(json.loads(json.dumps(data))) == doc
    with pytest.raises(ValueError, match="2 surprisal values for 3 tokens"):
        Sentence(sent.tokens, TREE, surprisal=(1.0, 2.0))
    with pytest.raises(ValueError, match="differ from the sentence tokens"):
        Sentence(sent.tokens, TREE, nbest=((0.0, parse_tree("(TOP (X a))")),))


def test_document_notebook_displays_and_nltk() -> None:
    """_repr_svg_ draws a parsed sentence (None when unparsed), _repr_html_ the document; to_nltk for all."""
    doc = _doc()
    assert doc.sents[0]._repr_svg_().startswith("<svg") and doc.sents[1]._repr_svg_() is None
    assert doc._repr_html_().count("<svg") == 1
    parsed = Document("", (Sentence.from_tree(TREE),))
    assert [t.label() for t in parsed.to_nltk()] == ["TOP"]
    with pytest.raises(ValueError, match="not parsed"):
        doc.to_nltk()
    assert "Vinken" in doc.sents[0].to_ascii()


def test_a_documents_notebook_display_draws_20_sentences_and_shows_a_taggers_tags() -> None:
    """A notebook drew every sentence of a document (4 MB of HTML for 2,000), and a tagger's document showed its
    words without their tags: the first 20 are drawn and the rest counted, and unparsed words carry their tags."""
    import xml.etree.ElementTree as ET

    from glmnlp.text.document import NOTEBOOK_SENTENCES

    many = Document("", (Sentence.from_tree(TREE),) * 25)
    html = many._repr_html_()
    assert NOTEBOOK_SENTENCES == 20 and html.count("<svg") == 20 and ET.fromstring(html) is not None
    assert html.endswith("<p>&#8230; and 5 more sentences (glmnlp.render_html(doc) draws them all)</p></div>")
    assert "more sentence" not in Document("", (Sentence.from_tree(TREE),) * 20)._repr_html_()
    tagged = Document("", (Sentence((Token("Dogs", "NNS"), Token("&", "CC"), Token("bark", None))),))
    assert "<p>Dogs<sub>NNS</sub> &amp;<sub>CC</sub> bark</p>" in tagged._repr_html_()


def _measured(order: int = 1) -> Document:
    rows = [{"sentence": 1, "word": w, "surprisal": s} for w, s in (("Vinken", 1.5), ("sleeps", float("inf")),
                                                                     (".", 0.25), ("</s>", 0.5))]
    rows = [dict(reversed(r.items())) if order < 0 else r for r in rows]
    return Document("Vinken sleeps.", (Sentence(_doc().sents[0].tokens, TREE, -3.0, measures=rows),))


def test_document_with_measures_is_hashable_and_its_rows_are_frozen() -> None:
    """A document with measures rows hashes (equal documents alike, whatever the key order of the rows);
    the rows are read-only dicts, so a shared or cached document cannot be changed through them."""
    doc = _measured()
    assert hash(doc) == hash(_measured()) == hash(_measured(order=-1)) and {doc: 1}[_measured(order=-1)] == 1
    assert hash(doc.sents[0]) == hash(_measured().sents[0])
    row = doc.sents[0].measures[1]
    assert isinstance(row, dict) and row == {"sentence": 1, "word": "sleeps", "surprisal": None}
    for change in (lambda r: r.__setitem__("word", "x"), lambda r: r.__delitem__("word"), lambda r: r.update(a=1),
                   lambda r: r.pop("word"), lambda r: r.popitem(), lambda r: r.clear(),
                   lambda r: r.setdefault("a", 1), lambda r: r.__ior__({"a": 1})):
        with pytest.raises(TypeError, match="read-only"):
            change(row)
    assert row["word"] == "sleeps" and doc.sents[0].measures[1]["word"] == "sleeps"
    mutable = row.copy()
    mutable["word"] = "x"
    assert type(mutable) is dict and row["word"] == "sleeps"
    assert json.loads(json.dumps(doc.measures))[1] == {"sentence": 1, "word": "sleeps", "surprisal": None}
    assert pickle.loads(pickle.dumps(doc)) == doc and copy.deepcopy(doc) == doc and copy.copy(row) == row
    assert Document.from_dict(json.loads(render_json(doc))) == doc


def test_document_and_sentence_slices_are_tuples_of_tokens() -> None:
    """doc[i:j] and sent[i:j] are both tuples of tokens (immutable, like the records), across sentences too."""
    doc = _doc()
    assert doc[1:3] == (doc[1], doc[2]) and isinstance(doc[1:3], tuple)
    assert doc[2:] == (Token(".", ".", 13, 14), Token("Fine", None, 15, 19)) and doc[::-1][0].text == "Fine"
    assert doc[-1].text == "Fine" and doc[5:] == ()
    sent = doc.sents[0]
    assert sent[1:3] == (sent[1], sent[2]) and isinstance(sent[1:3], tuple) and sent[-1].text == "."
    with pytest.raises(IndexError):
        doc[4]


def test_document_from_dict_refuses_what_is_not_to_dicts_form_with_a_format_error() -> None:
    """The JSON text instead of the dictionary, a list, or a str / number where a dict goes in a sentence raised an
    AttributeError ('str' object has no attribute 'get'), not the FormatError from_dict's docstring promises."""
    import copy

    import glmnlp
    from glmnlp.errors import FormatError
    from glmnlp.text.document import Document

    doc = glmnlp.load()("It barked.", nbest=2)
    good = doc.to_dict()
    bad: list[object] = [glmnlp.render_json(doc), [1, 2]]
    deep: list = ["NN", None, ["It"]]
    for _ in range(5000):  # a RecursionError
        deep = ["X", None, [deep]]
    for field, value in (("nbest", ["x"]), ("measures", [1, 2]), ("tokens", [1]), ("tree_exact", deep),
                         ("tokens", [{"text": "It", "tag": 3}, {"text": "barked"}, {"text": "."}])):  # was taken
        changed = copy.deepcopy(good)
        changed["sentences"][0][field] = value
        bad.append(changed)
    bad.append({**good, "version": True})  # True == 1: was taken as version 1
    for data in bad:
        with pytest.raises(FormatError):
            Document.from_dict(data)  # type: ignore[arg-type]
    assert Document.from_dict(good) == doc


def test_tree_from_nltk_reads_chunker_leaves_as_preterminals() -> None:
    """nltk's chunkers and ne_chunk write tagged words as (word, tag) leaves: tree_from_nltk failed on them with
    ``AttributeError: 'tuple' object has no attribute 'label'``; they are preterminals now, other leaves a TypeError."""
    nltk = pytest.importorskip("nltk")
    chunked = nltk.Tree("S", [("Kim", "NNP"), nltk.Tree("NP", [("the", "DT"), ("dog", "NN")])])
    assert tree_from_nltk(chunked) == Tree("S", (Tree("NNP", ("Kim",)), Tree("NP", (Tree("DT", ("the",)),
                                                                                    Tree("NN", ("dog",))))))
    with pytest.raises(TypeError, match="a str or a \\(word, tag\\) pair, got 5"):
        tree_from_nltk(nltk.Tree("S", [5]))


@pytest.mark.parametrize("make, expected", [
    (lambda: Token(5), "a token's text is a str, not int"),
    (lambda: Token("a", None, 0.5, 1.5), "its offsets are ints or None, not 0.5, 1.5"),
    (lambda: Token("a", None, True, True), "its offsets are ints or None, not True, True"),
    (lambda: Sentence(("a", "b")), "tokens are Token objects, not str"),
    (lambda: Sentence("ab"), "tokens are Token objects, not a str"),
    (lambda: Sentence((Token("a"),), "(TOP (NN a))"), "tree is a Tree or None, not str"),
    (lambda: Sentence.from_tree("(TOP (NN a))"), "expected a Tree, got str"),
    (lambda: Sentence.from_words("hello"), "expected a list of words, not a str"),
    (lambda: Document(None), "text is a str .*, not NoneType"),
    (lambda: Document(5), "text is a str .*, not int"),
    (lambda: Document("", ["a"]), "sentences are Sentence objects, not str"),
])
def test_document_records_refuse_the_wrong_kind(make, expected: str) -> None:  # type: ignore[no-untyped-def]
    """A value of the wrong kind (a str where a tree or tokens go, a float offset, None as a text) is a TypeError
    naming what was expected (docs/api.md, Errors): they gave AttributeError deep inside, a token per character of
    a word, or a document whose to_dict() did not read back."""
    with pytest.raises(TypeError, match=expected):
        make()


def test_document_round_trips_a_sentences_own_text_and_a_tree_given_list_children() -> None:
    """A sentence built with its own text (``original``, which ``Sentence.text`` and spans read) lost it in
    ``to_dict``; a tree whose children were given as a list (``to_bracket`` takes one) made the document unhashable
    and unequal to its own round trip."""
    import json

    from glmnlp.text.document import Document, Sentence, Token
    from glmnlp.treebank.trees import Tree

    own = Document("", (Sentence((Token("a"),), original="A!"),))
    back = Document.from_dict(json.loads(json.dumps(own.to_dict())))
    assert back == own and back.sents[0].text == "A!"
    listed = Document("", (Sentence.from_tree(Tree("S", [Tree("NN", ("x",))])),))
    assert hash(listed) == hash(Document.from_dict(listed.to_dict())) and Document.from_dict(listed.to_dict()) == listed
    with pytest.raises(FormatError, match="'original' is a string"):
        Document.from_dict({**own.to_dict(), "sentences": [{**own.to_dict()["sentences"][0], "original": 5}]})
