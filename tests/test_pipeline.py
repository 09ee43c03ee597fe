"""Tests for glmnlp.text.pipeline with stand-in tagger/parser objects (no trained model needed)."""

from __future__ import annotations

import sys
import types
from collections.abc import Sequence
from pathlib import Path

import pytest

from glmnlp.text.document import Document
from glmnlp.errors import ConfigError, ModelFileError
from glmnlp.text.loading import load
from glmnlp.text.pipeline import ParserProtocol, Pipeline, TaggerProtocol
from glmnlp.treebank.trees import Tree


class FakeTagger:
    """Tags by shape: punctuation '.', capitalised 'NNP', everything else 'NN'; logs its calls."""

    def __init__(self) -> None:
        self.calls: list[list[str]] = []

    def tag(self, words: list[str]) -> list[str]:
        self.calls.append(list(words))
        return ["." if not w[0].isalnum() else "NNP" if w[0].isupper() else "NN" for w in words]

    def multitag(self, words: list[str], margin: float) -> list[list[str]]:
        return [[tag, "XX"] for tag in self.tag(words)]


class FakeParser:
    """Builds (TOP (S preterminals)) from the first candidate tag of each word; logs its inputs."""

    def __init__(self) -> None:
        self.calls: list[tuple[list[str], list]] = []

    def parse(self, words: list[str], tags: Sequence[str | Sequence[str]]) -> Tree:
        self.calls.append((list(words), list(tags)))
        first = [t if isinstance(t, str) else t[0] for t in tags]
        return Tree("TOP", (Tree("S", tuple(Tree(t, (w,)) for w, t in zip(words, first))),))


def test_pipeline_fakes_satisfy_the_protocols() -> None:
    """The minimal protocols are runtime-checkable and describe the fakes."""
    assert isinstance(FakeTagger(), TaggerProtocol)
    assert isinstance(FakeParser(), ParserProtocol)
    assert not isinstance(object(), TaggerProtocol)


def test_pipeline_raw_text_gives_sentences_tokens_tags_trees_offsets() -> None:
    """Raw text is split, tokenised in PTB style, tagged and parsed; offsets point into the text."""
    text = "Mr. Vinken sleeps. It (really) works."
    doc = Pipeline(FakeTagger(), FakeParser())(text)
    assert isinstance(doc, Document) and doc.text == text
    assert [s.words for s in doc.sentences] == [
        ["Mr.", "Vinken", "sleeps", "."],
        ["It", "-LRB-", "really", "-RRB-", "works", "."],
    ]
    assert doc.sentences[0].tags == ["NNP", "NNP", "NN", "."]
    assert str(doc.sentences[1].tree) == "(TOP (S (NNP It) (. -LRB-) (NN really) (. -RRB-) (NN works) (. .)))"
    assert [text[t.start : t.end] for t in doc.sentences[1].tokens] == ["It", "(", "really", ")", "works", "."]


def test_pipeline_pretokenised_input_skips_the_tokenizer() -> None:
    """Token lists are used verbatim (no splitting of 'cannot', the token stays '('), tagged and parsed; the models
    see '(' as they saw it in training, '-LRB-' (a tagger without ``knows``: trained on trees)."""
    tagger = FakeTagger()
    doc = Pipeline(tagger, FakeParser())([["I", "cannot", "("], ["Go", "."]])
    assert doc.text == ""
    assert tagger.calls == [["I", "cannot", "-LRB-"], ["Go", "."]]
    assert [s.words for s in doc.sentences] == [["I", "cannot", "("], ["Go", "."]]
    assert all(t.start is None and t.end is None for s in doc.sentences for t in s.tokens)
    assert doc.sentences[1].tree == Tree("TOP", (Tree("S", (Tree("NNP", ("Go",)), Tree(".", (".",)))),))


def test_pipeline_pretagged_input_skips_the_tagger() -> None:
    """(word, tag) pairs go to the parser as given; the tagger is never called."""
    tagger, parser = FakeTagger(), FakeParser()
    doc = Pipeline(tagger, parser)([[("the", "DT"), ("dog", "NN")]])
    assert tagger.calls == []
    assert parser.calls == [(["the", "dog"], ["DT", "NN"])]
    assert doc.sentences[0].tags == ["DT", "NN"]
    assert str(doc.sentences[0].tree) == "(TOP (S (DT the) (NN dog)))"


def test_pipeline_pretagged_input_without_tagger() -> None:
    """A parser-only pipeline accepts pre-tagged input and refuses untagged input."""
    nlp = Pipeline(None, FakeParser())
    assert nlp([[["a", "DT"]]]).sentences[0].tree is not None
    with pytest.raises(ConfigError, match="no tagger"):
        nlp("Untagged text.")


def test_pipeline_tagger_only_leaves_trees_empty() -> None:
    """Without a parser, sentences carry tags and no tree."""
    doc = Pipeline(FakeTagger())("Dogs bark.")
    assert doc.sentences[0].tags == ["NNP", "NN", "."] and doc.sentences[0].tree is None


def test_pipeline_no_components_tokenises_only() -> None:
    """An empty pipeline is a tokenizer producing untagged sentences."""
    doc = Pipeline()("It's here.")
    assert doc.sentences[0].words == ["It", "'s", "here", "."] and doc.sentences[0].tags == [None] * 4


def test_pipeline_final_tags_come_from_the_tree() -> None:
    """With multi-tag input the parser picks the tags, and the tokens report the parser's choice."""
    tagger, parser = FakeTagger(), FakeParser()
    doc = Pipeline(tagger, parser, multitag_margin=2.0)([["a", "B"]])
    assert parser.calls == [(["a", "B"], [["NN", "XX"], ["NNP", "XX"]])]
    assert doc.sentences[0].tags == ["NN", "NNP"]


def test_pipeline_multitag_keeps_pretagged_input() -> None:
    """Pre-tagged sentences are not widened to multi-tags."""
    parser = FakeParser()
    Pipeline(FakeTagger(), parser, multitag_margin=1.0)([[("a", "DT")]])
    assert parser.calls == [(["a"], ["DT"])]


def test_pipeline_multitag_needs_capable_tagger() -> None:
    """A margin without a multitag-capable tagger, or a negative margin, is a configuration error."""

    class OnlyTag:
        def tag(self, words: list[str]) -> list[str]:
            return ["NN"] * len(words)

    with pytest.raises(ConfigError, match="multitag"):
        Pipeline(OnlyTag(), FakeParser(), multitag_margin=1.0)
    with pytest.raises(ConfigError, match=">= 0"):
        Pipeline(FakeTagger(), FakeParser(), multitag_margin=-1.0)


def test_pipeline_pipe_batches_preserve_order_and_laziness() -> None:
    """pipe yields one document per input, in order, reading at most batch_size inputs ahead."""
    consumed: list[int] = []

    def source():
        for i in range(7):
            consumed.append(i)
            yield f"Sentence number {i}." if i % 2 else [[f"tok{i}"]]

    stream = Pipeline(FakeTagger(), FakeParser()).pipe(source(), batch_size=3)
    first = next(stream)
    assert first.sentences[0].words == ["tok0"] and consumed == [0, 1, 2]
    rest = list(stream)
    assert consumed == list(range(7))
    assert [d.sentences[0].words[0] for d in [first, *rest]] == [
        "tok0", "Sentence", "tok2", "Sentence", "tok4", "Sentence", "tok6"
    ]
    texts = [first.text] + [d.text for d in rest]
    assert texts == ["", "Sentence number 1.", "", "Sentence number 3.", "", "Sentence number 5.", ""]


@pytest.mark.parametrize("bad", [0, -1, 1.5, True, 2**63, 10**9 + 1])
def test_pipeline_pipe_rejects_bad_batch_size(bad) -> None:
    """batch_size must be a positive integer, and at most 10**9: 2**63 failed inside islice with a ValueError about
    its stop argument (``glmnlp parse --batch-size 2**63``: a traceback)."""
    with pytest.raises(ConfigError, match=r"batch_size must be an integer in \[1, 1000000000\]"):
        list(Pipeline().pipe(["x"], batch_size=bad))


@pytest.mark.parametrize(
    ("doc", "error", "message"),
    [
        (["a", "flat", "list"], TypeError, "wrap a single tokenised sentence"),
        ([["a", ("b", "NN")]], TypeError, "mixes plain tokens"),
        ([[]], ValueError, "empty sentence"),
        ([["two words"]], ValueError, "whitespace"),
        (42, TypeError, "expected a str or a list of sentences"),
    ],
)
def test_pipeline_rejects_malformed_input(doc, error, message) -> None:
    """Ambiguous or malformed documents raise a clear error naming the sentence."""
    with pytest.raises(error, match=message):
        Pipeline(FakeTagger())(doc)


def test_pipeline_pipe_rejects_a_bare_string() -> None:
    """pipe('text') would iterate characters; it is refused."""
    with pytest.raises(TypeError, match="iterable of documents"):
        list(Pipeline().pipe("some text"))


def test_pipeline_detects_misbehaving_components() -> None:
    """A tagger returning the wrong number of tags or a parser changing the words is reported."""

    class ShortTagger:
        def tag(self, words: list[str]) -> list[str]:
            return ["NN"]

    class WrongParser:
        def parse(self, words: list[str], tags: Sequence[str]) -> Tree:
            return Tree("TOP", (Tree("NN", ("other",)),))

    with pytest.raises(RuntimeError, match="1 tags for 2 words"):
        Pipeline(ShortTagger())([["a", "b"]])
    with pytest.raises(RuntimeError, match="tree over"):
        Pipeline(FakeTagger(), WrongParser())([["a"]])
    with pytest.raises(ConfigError, match="no tag"):
        Pipeline(object())  # type: ignore[arg-type]


def _fake_model_modules(monkeypatch: pytest.MonkeyPatch, seen: list[Path],
                        described: list[Path] | None = None) -> None:
    class Loader:
        def __init__(self, kind: str) -> None:
            self.kind = kind

        def load(self, path: Path) -> object:
            seen.append(Path(path))
            return FakeTagger() if self.kind == "tagger" else FakeParser()

        def describe(self, path: Path) -> dict[str, object]:
            if described is not None:
                described.append(Path(path))
            return {"multitag": False} if self.kind == "tagger" else {"generative": False, "parse_nbest": False,
                                                                       "pos_tags": None}

    for kind, cls in (("tagger", "Tagger"), ("parser", "Parser")):
        module = types.ModuleType(f"glmnlp.{kind}")
        setattr(module, cls, Loader(kind))
        monkeypatch.setitem(sys.modules, f"glmnlp.{kind}", module)


def test_pipeline_load_reads_tagger_and_parser_subdirectories(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """load(dir) calls Tagger.load(dir/tagger) and Parser.load(dir/parser) and wires them up; with
    deferred=True it checks both at once (describe) and builds each when a sentence first needs it."""
    (tmp_path / "tagger").mkdir()
    (tmp_path / "parser").mkdir()
    seen: list[Path] = []
    described: list[Path] = []
    _fake_model_modules(monkeypatch, seen, described)
    nlp = load(tmp_path)
    assert seen == [tmp_path / "tagger", tmp_path / "parser"]
    assert nlp("Dogs bark.").sentences[0].tree is not None
    seen.clear()
    assert load(tmp_path, parser=False).parser is None and seen == [tmp_path / "tagger"]
    seen.clear()
    lazy = load(tmp_path, deferred=True)
    assert described == [tmp_path / "tagger", tmp_path / "parser"] and seen == []
    assert lazy("Dogs bark.").sentences[0].tree is not None
    lazy("Cats purr.")
    assert seen == [tmp_path / "tagger", tmp_path / "parser"]  # built once each


def test_pipeline_built_on_first_use_skips_what_the_input_does_not_need(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Pre-tagged input never builds the tagger; asking what the parser offers, its counters or whether
    there is a tagger builds nothing (a process whose workers parse never loads the model itself)."""
    (tmp_path / "tagger").mkdir()
    (tmp_path / "parser").mkdir()
    seen: list[Path] = []
    _fake_model_modules(monkeypatch, seen)
    nlp = load(tmp_path, deferred=True)
    assert nlp.has_tagger and nlp.has_parser and nlp.stats == {}
    assert nlp.parser_facts() == {"generative": False, "nbest": False, "pos_tags": None}
    assert seen == []
    nlp([[("Dogs", "NNS"), ("bark", "VBP")]])
    assert seen == [tmp_path / "parser"]


def test_pipeline_replace_keeps_the_components_unbuilt_and_refuses_unknown_fields(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """replace() gives a new pipeline over the same (deferred) components with the changed options; what
    it does not change stays; it builds nothing; a misspelt field is a TypeError."""
    (tmp_path / "tagger").mkdir()
    (tmp_path / "parser").mkdir()
    seen: list[Path] = []
    _fake_model_modules(monkeypatch, seen)
    nlp = load(tmp_path, deferred=True, max_words=7)
    other = nlp.replace(lines=True, tagger=FakeTagger())
    assert other.lines and not nlp.lines and other.max_words == 7 and seen == []
    assert isinstance(other.tagger, FakeTagger) and seen == []
    assert other("Dogs bark.").sentences[0].tree is not None and seen == [tmp_path / "parser"]
    with pytest.raises(TypeError, match="unknown fields"):
        nlp.replace(line=True)


def test_pipeline_load_reports_missing_parts(tmp_path: Path) -> None:
    """A missing model directory or sub-model raises ModelFileError naming it."""
    with pytest.raises(ModelFileError, match="model directory not found"):
        load(tmp_path / "nowhere")
    (tmp_path / "tagger").mkdir()
    with pytest.raises(ModelFileError, match="no parser/ sub-model"):
        load(tmp_path)


def test_pipeline_api_docs_examples_run() -> None:
    """Every ```pycon example in docs/api.md runs and prints what the page shows."""
    import doctest
    import re

    page = Path(__file__).parent.parent / "docs" / "api.md"
    blocks = re.findall(r"^```pycon\n(.*?)^```", page.read_text(encoding="utf-8"), flags=re.S | re.M)
    assert len(blocks) >= 8
    test = doctest.DocTestParser().get_doctest("\n".join(blocks), {}, "docs/api.md", str(page), 0)
    runner = doctest.DocTestRunner(optionflags=doctest.NORMALIZE_WHITESPACE)
    runner.run(test)
    result = runner.summarize(verbose=False)
    assert result.failed == 0 and result.attempted == len(test.examples)


def test_pipeline_web_tokens_get_their_fixed_tag_single_and_multitag() -> None:
    """URL / e-mail / @handle / emoticon tokens carry NN / NN / NNP / UH whatever the tagger says, as the
    only candidate under multi-tag input; pre-tagged input keeps the user's tags."""
    text = "mail bob@example.com or @bob at https://example.com/x?y=1 :)"
    doc = Pipeline(FakeTagger(), FakeParser())(text)
    tags = dict(zip(doc.sentences[0].words, doc.sentences[0].tags))
    assert [tags["bob@example.com"], tags["@bob"], tags["https://example.com/x?y=1"], tags[":-RRB-"]] == \
        ["NN", "NNP", "NN", "UH"]
    assert tags["mail"] == "NN"
    parser = FakeParser()
    Pipeline(FakeTagger(), parser, multitag_margin=1.0)(text)
    words, given = parser.calls[0]
    assert given[words.index("@bob")] == ["NNP"] and given[words.index("mail")] == ["NN", "XX"]
    doc = Pipeline(FakeTagger(), FakeParser())([[("@bob", "NN"), ("hi", "UH")]])
    assert doc.sentences[0].tags == ["NN", "UH"]


def test_pipeline_over_long_sentences_get_the_flat_fallback_without_the_parser() -> None:
    """A sentence longer than max_words is never given to the parser: flat TOP/S tree, LongInputWarning."""
    from glmnlp.text.pipeline import MAX_PARSE_WORDS
    from glmnlp.text.tokenize import LongInputWarning

    parser = FakeParser()
    nlp = Pipeline(FakeTagger(), parser, max_words=5)
    with pytest.warns(LongInputWarning, match="a sentence of 6 words"):
        doc = nlp([["a", "b", "c", "d", "e", "f"], ["g", "h"]])
    assert [w for w, _ in parser.calls] == [["g", "h"]]
    tree = doc.sentences[0].tree
    assert tree is not None and tree.label == "TOP" and [c.label for c in tree.children] == ["S"]
    assert tree.leaves() == ["a", "b", "c", "d", "e", "f"]
    assert Pipeline(FakeTagger(), FakeParser()).max_words == MAX_PARSE_WORDS == 150
    with pytest.raises(ConfigError, match="max_words must be a positive integer"):
        Pipeline(FakeTagger(), FakeParser(), max_words=0)


def test_pipeline_pipe_reports_progress_per_sentence() -> None:
    """pipe(progress=...) is called once per analysed sentence, also inside a single document."""
    ticks: list[int] = []
    list(Pipeline(FakeTagger(), FakeParser()).pipe(["One. Two. Three.", "Four."], progress=ticks.append))
    assert ticks == [1, 1, 1, 1]


class RankingParser(FakeParser):
    """FakeParser with parse_nbest (k flat trees, scores -1, -2, ...) and surprisal (one bit per word)."""

    generative = object()

    def parse_nbest(self, words: list[str], tags: Sequence[str | Sequence[str]], k: int) -> list[tuple[float, Tree]]:
        best = self.parse(words, tags)
        return [(-1.0 - i, best) for i in range(k)]

    def surprisal(self, words: list[str], tags: Sequence[str | Sequence[str]]) -> list[float]:
        return [1.0] * len(words)


def test_pipeline_surprisal_is_incremental_and_that_of_the_measures() -> None:
    """A word's surprisal, -log2 P(w_i | w_1..w_i-1), cannot depend on the words after it: the pipeline scores
    it with the generative model's own tags of each word (those of glmnlp.measures), not with the tagger's,
    which are chosen with the whole sentence in view. So it is also the measures' surprisal column."""
    nlp = load()
    short = nlp("Time flies.", surprisal=True).sents[0].surprisal
    longer = nlp("Time flies like an arrow.", surprisal=True).sents[0].surprisal
    assert longer[:2] == short[:2]
    sent = nlp("The horse raced past the barn fell.", surprisal=True, measures=True).sents[0]
    assert list(sent.surprisal) == [row["surprisal"] for row in sent.measures if row["word"] != "</s>"]
    # punctuation alone: the model's tags (".") leave the grammar no analysis, and the measures give every POS from
    # there on; the surprisal was None (infinite) for every word where the measures were finite
    for text in ("!!!", "."):
        sent = nlp(text, surprisal=True, measures=True).sents[0]
        assert sent.surprisal[0] is not None
        assert list(sent.surprisal) == [row["surprisal"] for row in sent.measures if row["word"] != "</s>"]


def test_measures_give_web_tokens_the_pipelines_fixed_tags() -> None:
    """A URL, e-mail address, handle or emoticon gets a fixed tag in the pipeline (Sentence.surprisal and
    ``measures=True`` rows), and glmnlp.measures scored it with the model's own candidates: 9.23 bits for the URL
    against the pipeline's 13.14, and every word after it otherwise too. Now the same numbers."""
    from glmnlp.text.measures import measures

    nlp = load()
    for text in ("Visit http://x.org now.", "Mail me at a.b@c.com :) today."):
        sent = nlp(text, surprisal=True, measures=True).sents[0]
        rows = measures(text)
        assert [row["surprisal"] for row in rows if row["word"] != "</s>"] == list(sent.surprisal), text
        assert rows == list(sent.measures), text


def test_pipeline_scores_nbest_and_surprisal() -> None:
    """nlp(text, nbest=K, surprisal=True) fills Sentence.score, .nbest and .surprisal; a parser without
    parse_nbest / a generative part gives no score and refuses nbest > 1 / surprisal."""
    nlp = Pipeline(FakeTagger(), RankingParser())
    plain = nlp("Vinken sleeps.")
    assert plain.sents[0].score == -1.0 and plain.sents[0].nbest == () and plain.sents[0].surprisal == ()
    doc = nlp("Vinken sleeps. It works.", nbest=3, surprisal=True)
    assert [s for s, _ in doc.sents[1].nbest] == [-1.0, -2.0, -3.0]
    assert doc.sents[0].surprisal == (1.0, 1.0, 1.0) and doc.sents[0].score == -1.0
    assert [d.sents[0].score for d in nlp.pipe(["A b.", "C d."], nbest=2)] == [-1.0, -1.0]
    simple = Pipeline(FakeTagger(), FakeParser())
    assert simple("Vinken sleeps.").sents[0].score is None
    with pytest.raises(ConfigError, match="nbest > 1 needs a parser with a parse_nbest"):
        simple("Vinken sleeps.", nbest=2)
    with pytest.raises(ConfigError, match="surprisal needs a parser with a generative component"):
        simple("Vinken sleeps.", surprisal=True)
    with pytest.raises(ConfigError, match="nbest must be a positive integer"):
        nlp("Vinken sleeps.", nbest=0)


@pytest.mark.parametrize("margin", [float("nan"), -1.0, "x", True])
def test_pipeline_refuses_a_multitag_margin_that_is_not_a_number_at_least_zero(margin: object) -> None:
    """NaN passed `margin < 0` and then kept no tag at all (an input error on the first sentence)."""
    with pytest.raises(ConfigError, match="multitag_margin must be a number >= 0"):
        load(multitag_margin=margin)  # type: ignore[arg-type]


def test_pipeline_tagger_refuses_a_string_for_a_sentence() -> None:
    """A string is a sequence (of characters): Tagger.tag("He agreed") tagged nine characters. A TypeError (a value of
    the wrong kind, as docs/api.md says; it was an InputError, and the parser's bytes a TypeError)."""
    tagger = load(parser=False).tagger
    for call in (tagger.tag, lambda w: tagger.multitag(w, 2.0), tagger.max_marginals):
        with pytest.raises(TypeError, match="not a string"):
            call("He agreed")
    with pytest.raises(ConfigError, match="margin must be >= 0"):
        tagger.multitag(["He", "agreed"], float("nan"))


def test_pipeline_load_names_what_a_wrong_path_is() -> None:
    """An empty path meant the current directory; a sub-model's directory said only "no tagger/ sub-model"."""
    from glmnlp.text.default_model import default_model_path

    with pytest.raises(ModelFileError, match="an empty path is not a model directory"):
        load("")
    with pytest.raises(ModelFileError, match=r"it is a tagger model, not a pipeline .*Tagger\.load reads it"):
        load(default_model_path() / "tagger")
    with pytest.raises(ModelFileError, match=r"it is a parser model, .* glmnlp\.Parser\.load reads it"):
        load(default_model_path() / "parser")


def test_pipeline_refuses_given_tags_the_parser_does_not_know() -> None:
    """A pre-tagged word with a tag outside the parser's grammar got a flat tree and score None, silently."""
    from glmnlp.errors import InputError

    nlp = load()
    with pytest.raises(InputError, match="tags the parser does not know: ZZ"):
        nlp([[("Dogs", "NNS"), ("bark", "ZZ"), (".", ".")]])
    assert nlp([[("Dogs", "NNS"), ("bark", "VBP"), (".", ".")]]).sents[0].score is not None


def test_pipeline_long_input_warnings_point_at_the_callers_line() -> None:
    """The warnings of an over-long sentence and of text without sentence boundaries name the line of the code
    that called the pipeline, not a line inside it (the generators in between made a fixed level miss)."""
    import warnings

    nlp = load(max_words=4)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        nlp("The old man saw the dog with a telescope. " + "x" * 2500)
    assert caught and {w.filename for w in caught} == {__file__}


def test_pipeline_pretokenised_brackets_are_spelled_as_the_models_saw_them() -> None:
    """A pre-tokenised ``(`` reached the bundled tagger and parser as written, a word they never saw (trees spell it
    ``-LRB-``): tagged VBZ, ``)`` RB. Now they see the treebank's spelling, as for raw text and ``parse --tokenized``,
    and the tokens and the tree keep the words as written."""
    import glmnlp

    nlp = load()
    written = ["He", "(", "the", "dog", ")", "barked", "{", "x", "}", "."]
    sent = nlp([written]).sents[0]
    assert [t.text for t in sent.tokens] == written and sent.tree is not None and sent.tree.leaves() == written
    assert [t.tag for t in sent.tokens][1:9] == ["-LRB-", "DT", "NN", "-RRB-", "VBD", "-LRB-", "NN", "-RRB-"]
    assert glmnlp.render_brackets(nlp("He (the dog) barked.")) == glmnlp.render_brackets(
        nlp([["He", "(", "the", "dog", ")", "barked", "."]]))
    nbest = nlp([written], nbest=3).sents[0].nbest
    assert nbest is not None and len(nbest) == 3 and all(tree.leaves() == written for _, tree in nbest)


def test_pipeline_model_words_keep_a_bracket_a_tagger_knows_as_written() -> None:
    """Each bracket as the tagger knows it alone: a tagger trained on CoNLL-U knows ``(`` and not ``-LRB-``; one trained
    on GUM's trees knows ``[`` and not ``-LSB-`` (the bundled tagger: ``[1]`` was given as ``-LSB-1-RSB-`` and tagged
    UH); an escape already there (the tokenizer's) counts as its bracket. The parser, trained on trees, always gets
    ``-LRB-`` for ``(``; without a tagger only ``(`` and ``)`` are escaped."""
    from glmnlp.text.inputs import model_words

    class Knows:
        def __init__(self, *words: str) -> None:
            self.words = set(words)

        def knows(self, word: str) -> bool:
            return word in self.words

    words = ["f(x)", "(", "[1]", "-LSB-", "{", "-LRB-", "dog"]
    assert model_words(words) == model_words(words, FakeTagger()) == [
        "f-LRB-x-RRB-", "-LRB-", "[1]", "-LSB-", "{", "-LRB-", "dog"]
    conllu = Knows("(", ")", "[", "]", "{", "}", "dog")
    assert model_words(words, conllu) == ["f(x)", "(", "[1]", "[", "{", "(", "dog"]
    gum = Knows("-LRB-", "-RRB-", "[", "]", "-LCB-", "-RCB-", "dog")
    assert model_words(words, gum) == ["f-LRB-x-RRB-", "-LRB-", "[1]", "[", "-LCB-", "-LRB-", "dog"]
    both = Knows("[", "-LSB-", ":)")  # a bracket known both ways is escaped; a word known as written stays
    assert model_words(["[1]", "[", ":)"], both) == ["-LSB-1-RSB-", "[", ":)"]
    parser = FakeParser()
    Pipeline(tagger=FakeTagger(), parser=parser)([["a", "(", "b", ")"]])
    assert parser.calls[0][0] == ["a", "-LRB-", "b", "-RRB-"]


def test_pipeline_square_brackets_reach_the_bundled_models_as_they_were_trained() -> None:
    """The bundled models' training trees (GUM's) write ``[`` as it is; raw text spelled it ``-LSB-`` and pre-tokenised
    input too, which the tagger never saw: ``See [1] for details.`` parsed as ``(QP (UH -LSB-) (CD 1)) (NN -RSB-)``.
    Both now reach the models as ``[``, and get the same tree (over the tokens as written)."""
    import glmnlp

    nlp = load()
    raw = nlp("See [1] for details.").sents[0]
    given = nlp([["See", "[", "1", "]", "for", "details", "."]]).sents[0]
    assert [t.tag for t in raw.tokens] == [t.tag for t in given.tokens] and raw.tokens[2].tag == "CD"
    assert glmnlp.to_bracket(raw.tree).replace("-LSB-", "[").replace("-RSB-", "]") == glmnlp.to_bracket(given.tree)


def test_decomposed_accents_reach_the_models_composed_and_come_back_as_written() -> None:
    """The same text with its accents as combining marks (NFD, as some macOS file names and PDF copies give it) was
    unknown words to the models: "café" NN in NFC, JJ in NFD (4 of 18 tags of one sentence changed). A word the
    tagger does not know as written is given in NFC (one it knows stays); the tokens and tree keep the text's."""
    import unicodedata

    from glmnlp.text.inputs import model_words

    class Knows:
        def knows(self, word: str) -> bool:
            return word in ("caf\u00e9", "re\u0301sume\u0301")

    nfd = unicodedata.normalize("NFD", "She sent her r\u00e9sum\u00e9 to the caf\u00e9 owner in Montr\u00e9al.")
    assert model_words(["cafe\u0301", "re\u0301sume\u0301", "a("], Knows()) == [
        "caf\u00e9", "re\u0301sume\u0301", "a-LRB-"]
    assert model_words(["cafe\u0301", "(x)"]) == ["cafe\u0301", "-LRB-x-RRB-"]  # the parser's view: as given
    nlp = load()
    composed = nlp(unicodedata.normalize("NFC", nfd)).sents[0]
    decomposed = nlp(nfd).sents[0]
    assert [t.tag for t in decomposed.tokens] == [t.tag for t in composed.tokens]
    assert decomposed.tree.leaves() == [t.text for t in decomposed.tokens] and "cafe\u0301" in decomposed.words


def test_given_quotes_and_apostrophes_reach_the_models_as_raw_text_s_tokens_do() -> None:
    """Raw text's ``“Stop,” she`` and ``don’t`` reach the models as `` `` `` ``''`` and ``n't``; given tokens kept their
    spelling: the bundled model tagged a straight ``"`` closing a quote ````` `` and parsed ``Stop`` as an SBAR's
    NN, and the measures scored ``n’t`` in ``Do n’t go .`` at 5.20 nats where ``n't`` has 1.90. Given tokens get
    the tokenizer's spelling where the model knows it (a straight ``"`` opens and closes by turns), the words as
    written."""
    import glmnlp
    from glmnlp.text.inputs import model_words
    from glmnlp.text.token_spelling import ptb_quotes

    assert ptb_quotes(['"', "a", '"', "b", '"', "\u201c", "\u201d", "\u2018", "n\u2019t", "O\u2019Neil", "'"]) == [
        "``", "a", "''", "b", "``", "``", "''", "`", "n't", "O'Neil", "'"]

    class Knows:
        def __init__(self, *words: str) -> None:
            self.words = set(words)

        def knows(self, word: str) -> bool:
            return word in self.words

    words = ['"', "Go", '"', "do", "n\u2019t"]
    assert model_words(words, Knows("``", "''", "n't")) == ["``", "Go", "''", "do", "n't"]
    assert model_words(words, Knows('"', "n\u2019t")) == words  # a treebank that spells them so keeps them
    # a straight " is directed only for a model that knows both directions: UD English EWT writes " 1,290 times and
    # '' 18, and its closing quotes were all respelled '' (tagger evaluate then differed from Tagger.evaluate)
    assert model_words(words + ["\u201d"], Knows('"', "''")) == ['"', "Go", '"', "do", "n\u2019t", "''"]
    nlp = load()
    given = nlp([['"', "Stop", ",", '"', "she", "said", "."], ["I", "do", "n\u2019t", "know", "."]])
    raw = nlp("\u201cStop,\u201d she said. I don\u2019t know.")
    assert [t.tag for s in given.sents for t in s.tokens] == [t.tag for s in raw.sents for t in s.tokens]
    assert given.sents[0].tokens[3].tag == "''" and given.sents[1].words[2] == "n\u2019t"
    assert glmnlp.to_bracket(given.sents[0].tree).count('"') == 2  # the tree over the words as written
    typographic = glmnlp.measures([["I", "do", "n\u2019t", "know", "."]], units="nats")
    ascii_rows = glmnlp.measures([["I", "do", "n't", "know", "."]], units="nats")
    assert [r["surprisal"] for r in typographic] == [r["surprisal"] for r in ascii_rows]
    assert typographic[2]["word"] == "n\u2019t"


def test_a_bracket_tag_reaches_the_parser_as_its_trees_spell_it() -> None:
    """STTS ``$(`` is ``$-LRB-`` in bracketed trees (which cannot hold a ``(``) and ``$(`` in word/TAG files: a tagger
    trained on those beside a parser trained on trees sent ``$(``, which the parser did not know (the sentences with
    one flat), and a pre-tagged ``$(`` was refused. The parser gets its trees' spelling (and
    the sentence's tags are its tree's)."""
    from types import SimpleNamespace

    from glmnlp.text.inputs import model_tags

    assert model_tags(["$(", "$-LRB-", "NN", "-LRB-x"], {"$-LRB-", "(x"}) == ("$-LRB-", "$-LRB-", "NN", "(x")

    class Stts(FakeTagger):
        def tag(self, words: list[str]) -> list[str]:
            return ["$(" if w in ("-LRB-", "-RRB-") else "NN" for w in words]

    parser = FakeParser()
    parser.grammar = SimpleNamespace(pos_tags=frozenset({"NN", "$-LRB-"}))  # type: ignore[attr-defined]
    doc = Pipeline(Stts(), parser)([["a", "(", "b", ")"]])
    assert parser.calls[-1][1] == ["NN", "$-LRB-", "NN", "$-LRB-"] == doc.sentences[0].tags  # the tree's
    Pipeline(Stts(), parser)([[("a", "NN"), ("(", "$(")]])  # given tags: no "tags the parser does not know"
    assert parser.calls[-1][1] == ["NN", "$-LRB-"]
    Pipeline(Stts(), parser, multitag_margin=1.0)([["a", "("]])
    assert parser.calls[-1][1] == [["NN", "XX"], ["$-LRB-", "XX"]]
    # the bundled model: given ( ) tags parse, and their surprisal and measures read them as the parser's -LRB-
    nlp = load()
    tagged = [("He", "PRP"), ("left", "VBD"), ("(", "("), ("again", "RB"), (")", ")"), (".", ".")]
    sentence = nlp([tagged], surprisal=True).sents[0]
    assert sentence.surprisal is not None and None not in sentence.surprisal
    assert [r["word"] for r in nlp([tagged], measures=True).measures][:6] == [w for w, _ in tagged]


def test_glmnlp_tag_spells_brackets_for_the_tagger_and_writes_them_as_given(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """``glmnlp tag`` gave the bundled tagger a bare ``(`` (tagged VBZ); now ``-LRB-``, the word written as given."""
    from glmnlp.cli import main

    source = tmp_path / "in.txt"
    source.write_text("He ( the dog ) barked { x } .\n", encoding="utf-8")
    assert main(["tag", str(source)]) == 0
    assert capsys.readouterr().out == "He/PRP (/-LRB- the/DT dog/NN )/-RRB- barked/VBD {/-LRB- x/NN }/-RRB- ./.\n"


@pytest.mark.parametrize("doc", [[[]], [["a b"]], [["x\udc80"]], [[("a", "")]]])
def test_pipeline_bad_input_is_an_input_error_and_still_a_value_error(doc: object) -> None:
    """Bad input to a pipeline was a plain ValueError, outside GlmnlpError ("every error glmnlp raises on purpose");
    it is an InputError, which is also a ValueError, so code catching either still does."""
    from glmnlp.errors import GlmnlpError, InputError

    with pytest.raises(InputError) as caught:
        Pipeline(FakeTagger(), FakeParser())(doc)  # type: ignore[arg-type]
    assert isinstance(caught.value, GlmnlpError) and isinstance(caught.value, ValueError)
    assert str(caught.value).startswith("document 1, sentence 1")


@pytest.mark.parametrize("measures", [{"units": "nats"}, "nats", 1])
def test_pipeline_measures_option_is_true_false_or_measure_options(measures: object) -> None:
    """``measures={"units": "nats"}`` and ``measures="nats"`` gave rows in bits: any true value was True, its options
    dropped. Only a bool or a MeasureOptions is taken now."""
    with pytest.raises(ConfigError, match="measures must be True, False or a MeasureOptions"):
        Pipeline(FakeTagger(), FakeParser())("A dog barked.", measures=measures)


@pytest.mark.parametrize("doc", ["Email me at a@b.com :) now.",
                                 [[("The", "DT"), ("dog", "NN"), ("barked", "VBD"), (".", ".")]]])
def test_pipeline_surprisal_is_the_measures_column_with_given_tags_too(doc: object) -> None:
    """A web token's fixed tag and a pre-tagged sentence's tags were used as given by ``Sentence.surprisal`` and not
    by the measures' rows (28.13 against 16.39 bits for ':)'); docs/api.md says the two are equal: both use them."""
    sent = load()(doc, surprisal=True, measures=True).sents[0]  # type: ignore[arg-type]
    assert list(sent.surprisal) == [row["surprisal"] for row in sent.measures if row["word"] != "</s>"]


def test_pipeline_pipe_answers_every_document_before_an_input_error(monkeypatch: pytest.MonkeyPatch) -> None:
    """An error raised by the input came before the documents of its batch (up to ``batch_size - 1``, and with
    workers up to two batches): ``glmnlp parse`` wrote nothing of a file whose third line was malformed. Now every
    document read before it is answered first, in one process and on workers; and ``n_process`` larger than the
    input's batches starts one worker per batch (each loads the model), not ``n_process``."""
    from glmnlp.glm.parallel import Executor

    workers: list[int] = []
    hosts = Executor.hosts

    def counted(self: Executor, factory: object, args_list: Sequence[tuple]) -> object:
        workers.append(len(args_list))
        return hosts(self, factory, args_list)

    monkeypatch.setattr(Executor, "hosts", counted)

    def source(n: int, fails: bool):  # type: ignore[no-untyped-def]
        for k in range(n):
            yield [["Dogs", "bark", f"{k}", "."]]
        if fails:
            raise ValueError("line 9: malformed")

    nlp = load()
    for n_process in (1, 4):
        got: list[Document] = []
        with pytest.raises(ValueError, match="line 9: malformed"):
            got.extend(nlp.pipe(source(5, True), batch_size=2, n_process=n_process))
        assert [d.sentences[0].words[2] for d in got] == ["0", "1", "2", "3", "4"], n_process
    assert workers == [3]  # three batches (2, 2, 1): three workers of the four asked for
    assert [d.sentences[0].words[2] for d in nlp.pipe(source(3, False), batch_size=1, n_process=4)] == ["0", "1", "2"]
    assert workers == [3, 3]


class _WarningParser(FakeParser):
    def parse(self, words: list[str], tags: Sequence[str | Sequence[str]]) -> Tree:
        import warnings

        warnings.warn(f"parsed {len(words)} words", UserWarning, stacklevel=1)
        return super().parse(words, tags)


def _warning_loader() -> Pipeline:
    import warnings

    warnings.warn("the tagger knows 3 tags the parser does not", UserWarning, stacklevel=1)
    return Pipeline(FakeTagger(), _WarningParser())


def test_pipe_workers_do_not_repeat_the_callers_load_warnings() -> None:
    """A parsing worker loads the model the caller loaded (and warned about, once): each of ``-j N`` workers printed
    the same load warning again. The worker's load is silent; the warnings its batches raise still reach the caller."""
    import warnings

    from glmnlp.text.workers import PipeWorker

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        worker = PipeWorker((_warning_loader, ()))
    assert caught == []
    _, _, raised, failed = worker.run(([[["Dogs", "bark", "."]]], (1, False, False), 0, None, (False, None, 150)))
    # (category, text, cuts of a cut, the document of the batch it came with)
    assert raised == [(UserWarning, "parsed 3 words", 1, 0)] and failed is None


def test_pipeline_pipe_on_workers_answers_the_documents_before_a_bad_one() -> None:
    """A document a worker refuses (None) ended ``pipe(n_process=2)`` as soon as its error came back: 0, 2, 2 or 4
    of the 5 documents before it were given over four runs, and one process gave 4 (the fifth, in the bad one's
    batch, was dropped with it). Now all 5, in one process and on workers, in every run."""
    nlp = load(deferred=True)
    docs = ["The dog barked."] * 5 + [None] + ["It ran."] * 5
    for n_process in (1, 2):
        got: list[Document] = []
        with pytest.raises(TypeError, match="document 6"):
            got.extend(nlp.pipe(docs, batch_size=2, n_process=n_process))
        assert len(got) == 5, n_process


def test_pipeline_refuses_one_tagged_sentence_given_as_the_document() -> None:
    """``nlp(nltk.pos_tag(words))`` (a bare list of (word, tag) tuples) parsed each pair as a two-word sentence,
    the tags as words, with no error: (TOP (NP (NNS Dogs) (NNP NNS))). Refused, saying how to wrap it."""
    nlp = Pipeline(FakeTagger(), FakeParser())
    pairs = [("Dogs", "NNS"), ("bark", "VBP"), (".", ".")]
    with pytest.raises(TypeError, match=r"one tagged sentence, not a document: wrap it as \[pairs\]"):
        nlp(pairs)
    assert nlp([pairs]).sentences[0].tags == ["NNS", "VBP", "."]
    assert [s.words for s in nlp([["Dogs", "NNS"], ["bark", "VBP"]]).sentences] == [["Dogs", "NNS"], ["bark", "VBP"]]


def test_pipeline_measures_of_a_sentence_over_max_words_are_those_of_glmnlp_measures() -> None:
    """A sentence over ``max_words`` (150) got its flat tree and, silently, no measures: 0 rows where
    glmnlp.measures gives one a word (docs/measures.md: the same records). The measures need no tree."""
    from glmnlp.text.measures import measures

    nlp = load()
    nlp.max_words = 6
    text = "The old man saw the dog with a telescope."
    with pytest.warns(UserWarning, match="flat tree"):
        sent = nlp(text, measures=True).sents[0]
    assert sent.score is None and len(sent.measures) == 11
    assert list(sent.measures) == measures(text)


@pytest.mark.parametrize(("options", "message"), [
    ({"n_process": "2"}, "n_process must be an integer >= -1"), ({"n_process": True}, "n_process must be"),
    ({"n_process": -2}, "n_process must be"), ({"n_process": 2.5}, "n_process must be"),
    ({"backend": "dask"}, "backend must be one of local, ray"),
])
def test_pipeline_pipe_refuses_bad_worker_options_whatever_the_input(options: dict, message: str) -> None:
    """``n_process="2"`` was refused as ``jobs must be ...`` (an option the call does not have), ``True`` taken for 1,
    and ``backend="dask"`` refused only when the input had more than one batch."""
    with pytest.raises(ConfigError, match=message):
        list(Pipeline(FakeTagger(), FakeParser()).pipe(["One sentence."], **options))


def test_pipeline_pickles_as_how_to_load_it() -> None:
    """Pickling a pipeline (joblib, multiprocessing, spaCy's n_process) failed with ``cannot pickle '_thread.RLock'
    object``; a loaded one pickles as its path, settings and beam as they are now, and unpickles to the same
    analyses; one made from components in memory says why it cannot be pickled."""
    import pickle

    nlp = load(deferred=True)
    nlp.max_words, nlp.lines = 50, True
    nlp.parser.config.gamma, nlp.parser.config.beam_cap = 1e3, 7
    data = pickle.dumps(nlp)
    assert len(data) < 2000  # no weights
    again = pickle.loads(data)
    assert (again.max_words, again.lines, again.multitag_margin) == (50, True, nlp.multitag_margin)
    assert (again.parser.config.gamma, again.parser.config.beam_cap) == (1e3, 7)
    text = "A dog barked at the old man.\nIt ran."
    assert again(text).to_dict() == nlp(text).to_dict()
    with pytest.raises(TypeError, match="made from components in memory cannot be pickled"):
        pickle.dumps(Pipeline())
    import copy

    shallow = copy.copy(nlp)  # shares the components, as before pickling was defined
    assert shallow.parser is nlp.parser and shallow.spec == nlp.spec and shallow.max_words == 50
    # replace() with new settings keeps how the pipeline was loaded (it pickled as "made from components in
    # memory", and n_process > 1 refused it), with another component it does not
    changed = nlp.replace(max_words=30, lines=False)
    again = pickle.loads(pickle.dumps(changed))
    assert (again.max_words, again.lines) == (30, False) and changed.spec == nlp.spec
    with pytest.raises(TypeError, match="made from components in memory"):
        pickle.dumps(nlp.replace(tagger=None, multitag_margin=None))


def test_ray_workers_get_the_model_folders_files_not_their_paths(tmp_path: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """For Ray actors, which may run on a machine without the caller's folder, the spec carries the model folders'
    files (``shipped``): a worker built from it after the folder is gone loads the same model and parses as the
    caller does; its machine keeps one copy of each model in a folder of the user's only, which a second worker
    reuses, and a folder others may write to is refused. Local workers keep the spec as it is."""
    import os
    import shutil
    import tempfile

    from glmnlp.text.default_model import default_model_path
    from glmnlp.text.workers import PipeWorker, document_from_plain, parser_beam, pipeline_settings, shipped

    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path / "tmp"))
    (tmp_path / "tmp").mkdir()
    shutil.copytree(default_model_path(), tmp_path / "mine")
    nlp = load(tmp_path / "mine")
    assert shipped(nlp.spec, "local") is nlp.spec
    spec = shipped(nlp.spec, "ray")
    shutil.rmtree(tmp_path / "mine")  # as on a machine without it
    text = "The old man saw the dog with a telescope. It barked."
    job = ([text], (1, False, False), 0, parser_beam(nlp.parser), pipeline_settings(nlp))
    plain, _stats, _caught, failed = PipeWorker(spec).run(job)
    assert failed is None and document_from_plain(plain[0]).to_dict() == nlp(text).to_dict()
    (base,) = (tmp_path / "tmp").iterdir()
    (copy,) = base.iterdir()
    written = {p: p.stat().st_mtime_ns for p in copy.rglob("*")}
    assert PipeWorker(spec).run(job)[0] == plain and {p: p.stat().st_mtime_ns for p in copy.rglob("*")} == written
    shutil.copytree(default_model_path(), tmp_path / "same_files")  # the same files under another name
    assert PipeWorker(shipped(load(tmp_path / "same_files").spec, "ray")).run(job)[0] == plain
    os.chmod(base, 0o777)
    with pytest.raises(ModelFileError, match="not a folder of this user's only"):
        PipeWorker(spec)


def test_a_shipped_model_half_written_leaves_nothing_and_says_why(tmp_path: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """A disk that fills while a shipped model is written: the write's own error, and no half-written folder (it
    was removed and the model then said missing, or a later actor would have loaded half a model)."""
    import errno
    import tempfile

    from glmnlp.text import workers

    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    written: list[Path] = []

    def full(path: Path, data: bytes) -> int:
        if written:
            raise OSError(errno.ENOSPC, "No space left on device")
        written.append(path)
        return 0

    monkeypatch.setattr(Path, "write_bytes", full)
    with pytest.raises(OSError, match="No space left"):
        workers._shipped_folder("mine", "0" * 64, {"metadata.json": b"{}", "weights.npz": b"x"})
    (base,) = tmp_path.iterdir()
    assert list(base.iterdir()) == []


def test_a_deferred_pipeline_builds_the_model_it_checked_after_a_chdir(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``glmnlp.load("pipe", deferred=True)`` checked ./pipe and built, on first use, whatever "pipe" named from the
    current folder of that moment: after a chdir another model, silently. It builds the folder it checked."""
    for where in (tmp_path, tmp_path / "other"):
        (where / "pipe" / "tagger").mkdir(parents=True)
        (where / "pipe" / "parser").mkdir()
    seen: list[Path] = []
    _fake_model_modules(monkeypatch, seen, [])
    monkeypatch.chdir(tmp_path)
    lazy = load("pipe", deferred=True)
    monkeypatch.chdir(tmp_path / "other")
    lazy("Dogs bark.")
    assert [p.resolve() for p in seen] == [tmp_path / "pipe" / "tagger", tmp_path / "pipe" / "parser"]


def test_a_pipelines_repr_shows_its_settings() -> None:
    """Two pipelines that parse differently (``max_words``) printed alike: the repr gives every setting."""
    import glmnlp

    lazy = glmnlp.load(deferred=True)
    assert repr(lazy) != repr(lazy.replace(max_words=20)) and "max_words=20" in repr(lazy.replace(max_words=20))
