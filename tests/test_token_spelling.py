"""Words and tags reach the models spelt as their training trees spell them (brackets, accents, quotes) and come
back as written."""

from __future__ import annotations

from pathlib import Path

import pytest

from glmnlp.text.loading import load
from glmnlp.text.pipeline import Pipeline
from pipeline_fakes import FakeParser, FakeTagger


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
    the sentence's tags are its tree's, spelled as the tagset spells them: written_tags)."""
    from types import SimpleNamespace

    from glmnlp.text.inputs import model_tags

    assert model_tags(["$(", "$-LRB-", "NN", "-LRB-x"], {"$-LRB-", "(x"}) == ("$-LRB-", "$-LRB-", "NN", "(x")

    class Stts(FakeTagger):
        def tag(self, words: list[str]) -> list[str]:
            return ["$(" if w in ("-LRB-", "-RRB-") else "NN" for w in words]

    parser = FakeParser()
    parser.grammar = SimpleNamespace(pos_tags=frozenset({"NN", "$-LRB-"}))  # type: ignore[attr-defined]
    doc = Pipeline(Stts(), parser)([["a", "(", "b", ")"]])
    assert parser.calls[-1][1] == ["NN", "$-LRB-", "NN", "$-LRB-"] == doc.sentences[0].tree.tags()  # the tree's
    assert doc.sentences[0].tags == ["NN", "$(", "NN", "$("]
    Pipeline(Stts(), parser)([[("a", "NN"), ("(", "$(")]])  # given tags: no "tags the parser does not know"
    assert parser.calls[-1][1] == ["NN", "$-LRB-"]
    Pipeline(Stts(), parser, multitag_margin=1.0)([["a", "("]])  # the tagger's XX, unknown to the parser, left out
    assert parser.calls[-1][1] == [["NN"], ["$-LRB-"]]
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


def test_invisible_format_characters_inside_a_known_word_do_not_make_it_unknown() -> None:
    """A soft hyphen or a zero-width space inside a word (copied from a word processor or a web page) made it an
    unknown word: "hor\\xadse" had a surprisal of 8.90 bits against "horse"'s 10.31, and the words after it changed.
    The models get the word without them where they know it so; the rows keep the word as written."""
    import glmnlp

    clean = glmnlp.measures(["The horse raced past the barn fell ."], tokenized=True)
    for word, written in (("horse", "hor\xadse"), ("raced", "ra\u200bced"), ("raced", "raced\u200b")):
        rows = glmnlp.measures(["The horse raced past the barn fell .".replace(word, written, 1)], tokenized=True)
        assert [r["word"] for r in rows] == [written if r["word"] == word and k < 3 else r["word"]
                                             for k, r in enumerate(clean)]
        assert [r["surprisal"] for r in rows] == [r["surprisal"] for r in clean]
    nlp = load()
    tree = nlp("The hor\xadse raced past the barn fell.").sents[0].tree
    assert tree is not None and tree.leaves()[1] == "hor\xadse"
    assert str(nlp("The horse raced past the barn fell.").sents[0].tree) == str(tree).replace("hor\xadse", "horse")


class _Knowing(FakeTagger):
    """A stand-in tagger that knows the words given."""

    def __init__(self, known: set[str]) -> None:
        super().__init__()
        self.known = known

    def knows(self, word: str) -> bool:
        return word in self.known


def test_raw_text_tokens_are_spelt_as_written_for_a_model_that_knows_only_that() -> None:
    """The tokenizer spells raw text's „ “ – … the Penn Treebank's way (`` -- ...): a German model, which knows
    them only as written, tagged them as unknown words (… as VAFIN) and its trees lost the text's characters.
    Each is spelt as written where the tagger knows that and not the treebank's spelling; a model that knows the
    treebank's spelling gets it, as the bundled one does."""
    text = "„Zoë“ – der Bär … grüßt."
    german = _Knowing({"„", "“", "–", "…", "Zoë"})
    doc = Pipeline(tagger=german, parser=FakeParser())(text)
    words = ["„", "Zoë", "“", "–", "der", "Bär", "…", "grüßt", "."]
    assert [t.text for t in doc.sents[0].tokens] == words and german.calls == [words]
    tree = doc.sents[0].tree
    assert tree is not None and tree.leaves() == words
    assert [text[t.start:t.end] for t in doc.sents[0].tokens] == words  # the offsets are those of the text
    english = _Knowing({"``", "''", "--", "...", "„", "–"})
    assert [t.text for t in Pipeline(tagger=english)(text).sents[0].tokens] == [
        "``", "Zoë", "``", "--", "der", "Bär", "...", "grüßt", "."]
    assert [t.text for t in load()("He said “no” — then… left.").sents[0].tokens] == [
        "He", "said", "``", "no", "''", "--", "then", "...", "left", "."]


GERMAN_TREES = [
    "(TOP (S (NP (ART der) (NN Bär)) (VP (VVFIN grüßt)) ($. .)))",
    "(TOP (S ($-LRB- „) (NP (NE Zoë)) ($-LRB- “) (VP (VVFIN lacht)) ($. .)))",
    "(TOP (S (NP (NE Zoë)) (VP (VVFIN grüßt) ($-LRB- …)) ($. .)))",
    "(TOP (S ($-LRB- „) (NP (ART der) (NN Bär)) ($-LRB- “) (VP (VVFIN lacht) ($-LRB- …)) ($. .)))",
]


def test_measures_of_raw_text_spell_its_tokens_as_written_for_a_model_that_knows_only_that(tmp_path: Path) -> None:
    """``measures`` on raw text gave a German model the tokenizer's ```` `` ````, ``''`` and ``...`` for the text's
    „ “ …, words it never saw (the pipeline spells them as written: the test above): the rows said ```` `` ```` and
    the model scored an unknown word. They are spelt as a pipeline spells them, so raw text's rows are those of the
    same tokens given as written."""
    from glmnlp.cli import main
    from glmnlp.text.measures import measures

    trees = tmp_path / "de.trees"
    trees.write_text("\n".join(GERMAN_TREES * 3) + "\n", encoding="utf-8")  # 10 folds need 10 trees
    model = tmp_path / "de"
    argv = ["parser", "train", "--kind", "generative", "--train", str(trees), "--dev", str(trees),
            "--out", str(model), "-j", "1", "-q"]
    assert main(argv) == 0
    words = ["„", "der", "Bär", "“", "grüßt", "…", "."]
    raw = measures("„der Bär“ grüßt….", str(model))
    given = measures([words], str(model))
    assert [row["word"] for row in raw][:-1] == words  # the last row is the end of the sentence
    assert [row["surprisal"] for row in raw] == [row["surprisal"] for row in given]
