"""Tests for glmnlp.text.pipeline with stand-in tagger/parser objects (no trained model needed)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import pytest

from glmnlp.text.document import Document
from glmnlp.errors import ConfigError, ModelFileError
from glmnlp.text.loading import load
from glmnlp.text.pipeline import ParserProtocol, Pipeline, TaggerProtocol
from glmnlp.treebank.trees import Tree


from pipeline_fakes import FakeParser, FakeTagger, fake_model_modules


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


def test_pipeline_load_reads_tagger_and_parser_subdirectories(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """load(dir) calls Tagger.load(dir/tagger) and Parser.load(dir/parser) and wires them up; with
    deferred=True it checks both at once (describe) and builds each when a sentence first needs it."""
    (tmp_path / "tagger").mkdir()
    (tmp_path / "parser").mkdir()
    seen: list[Path] = []
    described: list[Path] = []
    fake_model_modules(monkeypatch, seen, described)
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
    fake_model_modules(monkeypatch, seen)
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
    fake_model_modules(monkeypatch, seen)
    nlp = load(tmp_path, deferred=True, max_words=7)
    other = nlp.replace(lines=True, tagger=FakeTagger())
    assert other.lines and not nlp.lines and other.max_words == 7 and seen == []
    assert isinstance(other.tagger, FakeTagger) and seen == []
    assert other("Dogs bark.").sentences[0].tree is not None and seen == [tmp_path / "parser"]
    with pytest.raises(TypeError, match="unexpected keyword argument 'line'"):
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
    assert [tags["bob@example.com"], tags["@bob"], tags["https://example.com/x?y=1"], tags[":)"]] == \
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
    for part, reader in (("tagger", "Tagger"), ("parser", "Parser")):
        with pytest.raises(ModelFileError, match=rf"{part}: a {part} model; glmnlp\.load\(\) needs a pipeline "
                                                 rf"directory \(glmnlp\.{reader}\.load reads it\)$"):
            load(default_model_path() / part)


def test_pipeline_refuses_given_tags_the_parser_does_not_know() -> None:
    """A pre-tagged word with a tag outside the parser's grammar got a flat tree and score None, silently."""
    from glmnlp.errors import InputError

    nlp = load()
    with pytest.raises(InputError, match=r"word 2 \('bark'\): tag 'ZZ' is not one of the model's"):
        nlp([[("Dogs", "NNS"), ("bark", "ZZ"), (".", ".")]])
    assert nlp([[("Dogs", "NNS"), ("bark", "VBP"), (".", ".")]]).sents[0].score is not None


def test_pipeline_names_the_sentence_the_word_and_the_tag_it_refuses() -> None:
    """A pre-tagged word's unknown tag was refused naming the sentence's text and the tags, not the word: it is the
    parser's own check now (glmnlp.parser.tag_check), the word as written and its place named; the tags' written
    spelling (``(`` for the trees' ``-LRB-``) is read as the parser's."""
    from glmnlp.errors import InputError

    nlp = load()
    doc = [[("He", "PRP"), ("left", "VBD"), (".", ".")], [("He", "PRP"), ("(", "XX"), ("left", "VBD")]]
    with pytest.raises(InputError, match=r"^<input>: document 1, sentence 2: word 2 \('\('\): tag 'XX' is not one "
                                         r"of the model's \(it has no analysis with it\)$"):
        nlp(doc)
    sent = nlp([[("He", "PRP"), ("(", "("), ("left", "VBD"), (")", ")"), (".", ".")]]).sents[0]
    assert sent.score is not None and sent.tree.tags()[1] == "-LRB-" and sent.tags[1] == "("


def test_pipeline_long_input_warnings_point_at_the_callers_line() -> None:
    """The warnings of an over-long sentence and of text without sentence boundaries name the line of the code
    that called the pipeline, not a line inside it (the generators in between made a fixed level miss)."""
    import warnings

    nlp = load(max_words=4)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        nlp("The old man saw the dog with a telescope. " + "x" * 2500)
    assert caught and {w.filename for w in caught} == {__file__}


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


def test_a_pipeline_made_of_a_tagger_and_a_parser_of_two_tagsets_is_refused() -> None:
    """``Pipeline(tagger, parser)`` and ``replace(tagger=...)`` took a UPOS tagger beside the bundled WSJ parser
    without a word, and every sentence came out as a flat tree, where ``glmnlp.load`` and ``parse --tagger`` refuse
    the pair. The pipeline refuses it too; a tagger of the parser's tags is fine."""
    from glmnlp.tagger.model import Tagger, TaggerConfig
    from glmnlp.treebank.formats import TaggedSentence

    nlp = load()
    upos = Tagger(TaggerConfig(epochs=1)).fit([TaggedSentence(("the", "dog", "barks"), ("DET", "NOUN", "VERB"))] * 3,
                                              show_progress=False, jobs=1)
    for make in (lambda: Pipeline(upos, nlp.parser), lambda: nlp.replace(tagger=upos)):
        with pytest.raises(ConfigError, match="tagger: the parser does not know 3 of this tagger's 3 tags"):
            make()
    assert Pipeline(nlp.tagger, nlp.parser)("The dog barks.").sents[0].tree is not None


def test_pipeline_calls_its_parser_with_words_tags_and_k_alone() -> None:
    """The pipeline passed ``check_tags=False`` to any ``Parser`` for the tagger's tags: a subclass overriding
    ``parse_nbest(self, words, tags, k=1)``, the signature documented before, failed every sentence (``TypeError:
    Sub.parse_nbest() got an unexpected keyword argument 'check_tags'``), and a parser wrapping one refused a tagger's
    tag it does not know where the module header promises the flat tree. The pipeline leaves out such tags and gives
    the flat tree itself, counted as the parser counts a failed search; a parser's refusal of given tags names the
    sentence as the pipeline's own does."""
    from glmnlp.errors import InputError
    from glmnlp.parser.model import Parser

    nlp = load()
    calls: list[tuple[object, ...]] = []

    class Sub(Parser):
        def parse_nbest(self, words: Sequence[str], tags: Sequence[str | Sequence[str]],  # type: ignore[override]
                        k: int = 1) -> list[tuple[float, Tree]]:
            calls.append((list(words), k))
            return super().parse_nbest(words, tags, k)

    class Wrapper:  # a parser of another library's making around glmnlp's
        def __init__(self, parser: Parser) -> None:
            self.parser, self.grammar = parser, parser.grammar

        def parse_nbest(self, words: Sequence[str], tags: Sequence[str | Sequence[str]],
                        k: int = 1) -> list[tuple[float, Tree]]:
            return self.parser.parse_nbest(words, tags, k)

        def parse(self, words: Sequence[str], tags: Sequence[str | Sequence[str]]) -> Tree:
            return self.parser.parse(words, tags)

    class ParseOnly:
        def parse(self, words: Sequence[str], tags: Sequence[str | Sequence[str]]) -> Tree:
            return nlp.parser.parse(words, tags)

    class OddTagger:  # a tag the parser never saw for the second word
        def tag(self, words: Sequence[str]) -> list[str]:
            return ["DT", "XX", "VBD", "."][:len(words)]

    sub = object.__new__(Sub)
    sub.__dict__.update(nlp.parser.__dict__)
    sub.stats = {}
    words = ["The", "dog", "barked", "."]
    expected = nlp([words]).sents[0]
    got = Pipeline(nlp.tagger, sub)([words], nbest=2).sents[0]
    assert (got.score, str(got.tree)) == (expected.score, str(expected.tree)) and calls == [(words, 2)]
    flat = "(TOP (S (DT The) (XX dog) (VBD barked) (. .)))"
    for parser in (sub, Wrapper(nlp.parser)):
        sent = Pipeline(OddTagger(), parser)([words]).sents[0]
        assert (sent.score, str(sent.tree)) == (None, flat)
    assert calls == [(words, 2)] and sub.stats == {"sentences": 2, "fallback": 1}
    with pytest.raises(InputError, match=r"^<input>: document 1, sentence 2: word 2 \('dog'\): tag 'XX' is not one "):
        Pipeline(None, ParseOnly())([[("A", "DT")], [("The", "DT"), ("dog", "XX")]])


def test_a_parser_passing_its_attributes_on_counts_its_flat_trees_in_the_parser() -> None:
    """A parser wrapping glmnlp's and passing its attributes on (``__getattr__``) had its too-long sentences and the
    flat trees of tags the parser does not know counted in the parser's ``stats`` while the pipeline asked
    ``_count`` of any parser; asked only of a ``Parser``, they were counted nowhere."""
    from glmnlp.parser.model import Parser
    from glmnlp.text.tokenize import LongInputWarning

    nlp = load()
    inner = object.__new__(Parser)
    inner.__dict__.update(nlp.parser.__dict__)
    inner.stats = {}

    class Passing:
        def __init__(self, parser: Parser) -> None:
            self.inner = parser

        def __getattr__(self, name: str) -> object:
            return getattr(self.inner, name)

    class OddTagger:  # a tag the parser never saw for the second word
        def tag(self, words: Sequence[str]) -> list[str]:
            return ["DT", "XX", "VBD", "."][:len(words)]

    Pipeline(OddTagger(), Passing(inner))([["The", "dog", "barked", "."]])
    with pytest.warns(LongInputWarning):
        Pipeline(nlp.tagger, Passing(inner), max_words=3)([["The", "dog", "barked", "."]])
    assert inner.stats == {"sentences": 1, "fallback": 1, "too_long": 1}
