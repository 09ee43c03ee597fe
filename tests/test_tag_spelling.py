"""Tags are written in the tagset's spelling in every output of tags; trees keep their escapes.

STTS tags a bracket ``$(``, which a bracketed tree cannot hold: trees write ``$-LRB-``. ``glmnlp tag`` wrote
``$(`` while ``glmnlp parse --format conllu`` and ``json`` (and ``Sentence.tags``) wrote the tree's ``$-LRB-``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from glmnlp.cli import main
from glmnlp.text.inputs import written_tags
from glmnlp.text.pipeline import Pipeline
from glmnlp.text.render import render_conllu, render_json, render_word_tag
from glmnlp.treebank.trees import escape_brackets

from pipeline_fakes import FakeParser, FakeTagger
from stts_fixtures import SENTENCES as _SENTENCES
from stts_fixtures import stts_trees


@settings(max_examples=200, deadline=None)
@given(st.text(st.sampled_from("$(){}[]-LRBNV.x"), min_size=1, max_size=8).filter(
    lambda t: "-LRB-" not in t and "-RRB-" not in t))
def test_a_tag_written_in_a_tree_is_written_back_in_the_tagset_s_spelling(tag: str) -> None:
    assert written_tags([escape_brackets(tag)], [tag]) == (tag,)
    if tag not in ("(", ")"):  # the tree's -LRB- is the Penn Treebank's tag, kept without the tagger's own
        assert written_tags([escape_brackets(tag)]) == (tag,)


def test_the_penn_treebank_s_bracket_tags_are_their_own_names() -> None:
    assert written_tags(["-LRB-", "-RRB-", "$-LRB-", "NN", "$-RRB-"]) == ("-LRB-", "-RRB-", "$(", "NN", "$)")
    assert written_tags(["-LRB-", "$-LRB-"], ["(", "$-LRB-"]) == ("(", "$(")  # a tagset that tags ( as (


class _TreeSpelling(FakeTagger):
    """A tagger trained on trees: it knows STTS $( as the trees write it."""

    def tag(self, words: list[str]) -> list[str]:
        return ["$-LRB-" if w in ("-LRB-", "-RRB-") else "NN" for w in words]


@pytest.mark.parametrize("tagger", [_TreeSpelling(), None])
def test_a_sentence_s_tags_and_their_outputs_are_spelled_as_the_tagset(tagger: FakeTagger | None) -> None:
    nlp = Pipeline(tagger, FakeParser()) if tagger is not None else Pipeline(None, FakeParser())
    words = ["a", "(", "b", ")"]
    doc = nlp([words] if tagger is not None else [list(zip(words, ["NN", "$-LRB-", "NN", "$(" ]))])
    sent = doc.sentences[0]
    assert sent.tags == ["NN", "$(", "NN", "$("]
    assert sent.to_bracket() == "(TOP (S (NN a) ($-LRB- -LRB-) (NN b) ($-LRB- -RRB-)))"
    assert [line.split("\t")[4] for line in render_conllu(doc).splitlines() if line[:1].isdigit()] == sent.tags
    assert [t["tag"] for t in json.loads(render_json(doc))["sentences"][0]["tokens"]] == sent.tags
    assert render_word_tag(doc) == "a/NN (/$( b/NN )/$(\n"


def test_a_sentence_from_a_tree_has_its_tags_in_the_tagset_s_spelling() -> None:
    """``Sentence.from_tree`` kept the tree's ``$-LRB-`` in ``Sentence.tags`` (and word/TAG wrote ``-LRB-/$-LRB-``)
    where a parsed sentence has ``$(``; the tree keeps ``$-LRB-``, the Penn Treebank's ``-LRB-`` stays."""
    from glmnlp.text.document import Document, Sentence
    from glmnlp.treebank.trees import parse_tree

    tree = parse_tree("(TOP (S (PPER Er) ($-LRB- -LRB-) (NN x) (-LRB- -LRB-) ($-RRB- -RRB-)))")
    sent = Sentence.from_tree(tree)
    assert sent.tags == ["PPER", "$(", "NN", "-LRB-", "$)"] and sent.tree == tree
    assert render_word_tag(Document("", (sent,))) == "Er/PPER -LRB-/$( x/NN -LRB-/-LRB- -RRB-/$)\n"
    assert Document.from_dict(Document("", (sent,)).to_dict()).sentences[0] == sent


@pytest.fixture(scope="module")
def models(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A tagger and a parser trained on a few German-like trees whose brackets STTS tags $(."""
    folder = tmp_path_factory.mktemp("stts")
    (folder / "train.trees").write_text(stts_trees() * 8, encoding="utf-8")
    train = str(folder / "train.trees")
    assert main(["tagger", "train", "--train", train, "--out", str(folder / "tagger"), "--epochs", "2", "-j", "1",
                 "--quiet"]) == 0
    assert main(["parser", "train", "--train", train, "--dev", train, "--out", str(folder / "parser"), "--epochs",
                 "2", "-j", "1", "--quiet"]) == 0
    (folder / "in.txt").write_text("Er sagte ( nichts ) .\n", encoding="utf-8")
    return folder


def _out(capsys: pytest.CaptureFixture[str], argv: list[str]) -> str:
    capsys.readouterr()
    assert main(argv) == 0
    return capsys.readouterr().out


def test_parse_and_tag_write_the_tagset_s_spelling(models: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source = str(models / "in.txt")
    parse = ["parse", "-m", str(models / "parser"), "--tagger", str(models / "tagger"), "--tokenized", "-i", source]
    conllu = _out(capsys, [*parse, "--format", "conllu"])
    assert [line.split("\t")[4] for line in conllu.splitlines() if line[:1].isdigit()] == _SENTENCES[0][1].split()
    document = json.loads(_out(capsys, [*parse, "--format", "json"]))
    assert [t["tag"] for t in document["sentences"][0]["tokens"]] == _SENTENCES[0][1].split()
    assert "($-LRB- -LRB-)" in document["sentences"][0]["tree"]
    assert "($-LRB- -LRB-)" in _out(capsys, [*parse, "--format", "brackets"])
    tag = ["tag", "-m", str(models / "tagger"), source]
    assert _out(capsys, tag) == "Er/PPER sagte/VVFIN (/$( nichts/NN )/$( ./$.\n"
    conllu = _out(capsys, [*tag, "--output-format", "conllu"])
    assert [line.split("\t")[4] for line in conllu.splitlines() if line[:1].isdigit()] == _SENTENCES[0][1].split()


def test_the_tagger_gives_its_labels_and_with_written_the_spelling_glmnlp_tag_writes(
        models: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``Tagger.tag`` gave the trees' ``$-LRB-`` where ``glmnlp tag``, ``Sentence.tags`` and every output of tags write
    ``$(``, with no way to the tagset's spelling; ``written=True`` gives it (``tag``, ``tag_sentences``, ``multitag``,
    ``tag_and_multitag``),
    and without it the tagger gives the labels the parser reads, as docs/api.md passes them (``$(`` gave the
    parser's flat default tree)."""
    from glmnlp.parser.model import Parser
    from glmnlp.tagger.model import Tagger
    from glmnlp.text.inputs import model_words

    tagger = Tagger.load(models / "tagger")
    words = model_words(_SENTENCES[0][0].split(), tagger)
    line = _out(capsys, ["tag", "-m", str(models / "tagger"), str(models / "in.txt")])
    assert tagger.tag(words, written=True) == [pair.rsplit("/", 1)[1] for pair in line.split()] == [
        "PPER", "VVFIN", "$(", "NN", "$(", "$."]
    assert tagger.tag_sentences([words, words], written=True) == [tagger.tag(words, written=True)] * 2
    labels = tagger.tag(words)
    assert labels == [escape_brackets(t) for t in tagger.tag(words, written=True)] and set(labels) <= set(tagger.tags_)
    wide = tagger.multitag(words, float("inf"), written=True)
    assert wide[2][0] == "$(" and all("-LRB-" not in t for tags in wide for t in tags)
    assert tagger.multitag(words, float("inf")) == [[escape_brackets(t) for t in tags] for tags in wide]
    assert tagger.tag_and_multitag(words, float("inf"), written=True) == (tagger.tag(words, written=True), wide)
    tree = Parser.load(models / "parser").parse(words, labels)
    assert tree.tags() == labels and len(tree.children[0].children) < len(words)  # not the flat default tree


def test_the_parser_takes_the_tags_as_the_tagger_writes_them(models: Path) -> None:
    """``parse_nbest(words, tagger.tag(words, written=True))``, STTS ``$(`` for the model's ``$-LRB-``, gave the flat
    default tree scored -inf; it gives the tree and score of the labels, single tags or several a word, and explain
    reads them so too. A tag the model does not know is refused, the tagset's spelling of none of its tags too."""
    from glmnlp.errors import InputError
    from glmnlp.parser.model import Parser
    from glmnlp.tagger.model import Tagger
    from glmnlp.text.inputs import model_words

    tagger, parser = Tagger.load(models / "tagger"), Parser.load(models / "parser")
    words = model_words(_SENTENCES[0][0].split(), tagger)
    labels, written = tagger.tag(words), tagger.tag(words, written=True)
    assert written != labels and "$(" in written
    ranked = parser.parse_nbest(words, labels, 3)
    assert ranked[0][0] > float("-inf") and parser.parse_nbest(words, written, 3) == ranked
    assert parser.parse(words, written) == ranked[0][1] and parser.explain(words, written).score == ranked[0][0]
    wide = tagger.multitag(words, float("inf"), written=True)
    assert parser.parse_nbest(words, wide, 1) == parser.parse_nbest(words, tagger.multitag(words, float("inf")), 1)
    with pytest.raises(InputError, match=r"word 3 \('-LRB-'\): tag '\$\[' is not one of the model's"):
        parser.parse_nbest(words, [*written[:2], "$[", *written[3:]], 1)


@settings(max_examples=200, deadline=None)
@given(st.text(st.sampled_from("$(){}[]-LRBNV.x"), min_size=1, max_size=8))
def test_a_tag_as_written_is_read_back_as_the_model_s_label(tag: str) -> None:
    """The parser reads a tag written as its tagset writes it (written_tag) as the label a tree has."""
    from glmnlp.parser.tag_check import model_tag
    from glmnlp.treebank.trees import written_tag

    label = escape_brackets(tag)
    assert model_tag(written_tag(label), {label}) == label == model_tag(label, {label})
    assert model_tag(written_tag(label), {label + "x"}) is None
