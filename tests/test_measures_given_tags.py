"""Tags given to the measures in the spelling the library writes them: STTS ``$(``, which a bracketed tree (and so
the grammar) spells ``$-LRB-``. ``Sentence.tags`` given back to ``glmnlp.measures`` were refused."""

from __future__ import annotations

from pathlib import Path

import pytest

import glmnlp
from glmnlp.errors import InputError
from glmnlp.parser.model import Parser
from glmnlp.text.pipeline import Pipeline

from stts_fixtures import SENTENCES as _SENTENCES
from stts_fixtures import stts_trees


@pytest.fixture(scope="module")
def parser(tmp_path_factory: pytest.TempPathFactory) -> Parser:
    """A generative model of a few German-like trees whose brackets STTS tags $( (the trees' $-LRB-)."""
    from glmnlp.cli import main

    folder = tmp_path_factory.mktemp("stts")
    (folder / "train.trees").write_text(stts_trees() * 4, encoding="utf-8")
    train = str(folder / "train.trees")
    assert main(["parser", "train", "--kind", "generative", "--train", train, "--dev", train,
                 "--out", str(folder / "gen"), "-j", "1", "-q"]) == 0
    return Parser.load(Path(folder / "gen"))


def test_the_sentence_s_tags_given_back_are_the_trees_tags(parser: Parser) -> None:
    """``tags=[s.tags]`` with ``s.tags`` as the library writes them raised "word 3 ('-LRB-'): tag '$(' is not one
    of the model's"; they measure as the trees' spelling does."""
    words, tags = _SENTENCES[0][0].split(), _SENTENCES[0][1].split()
    sent = Pipeline(None, parser)([list(zip(words, tags))]).sentences[0]
    assert sent.tags == tags
    written = glmnlp.measures([sent.words], model=parser, tokenized=True, tags=[sent.tags])
    trees = glmnlp.measures([sent.words], model=parser, tokenized=True,
                            tags=[[t.replace("(", "-LRB-") for t in tags]])
    assert [r["word"] for r in written][:-1] == words
    assert [r["surprisal"] for r in written] == [r["surprisal"] for r in trees]
    assert all(r["surprisal"] < float("inf") for r in written)


def test_a_refused_tag_names_the_sentence_and_the_word_as_written(parser: Parser) -> None:
    """The refusal named the word ``(`` as the model's ``-LRB-`` and no sentence."""
    words = _SENTENCES[0][0].split()
    tags = [t.split() for _, t in _SENTENCES[:1]] * 2
    tags[1] = ["PPER", "VVFIN", "XY", "NN", "$(", "$."]
    with pytest.raises(InputError, match=r"^sentence 2: word 3 \('\('\): tag 'XY' is not one of the model's"):
        glmnlp.measures([words, words], model=parser, tokenized=True, tags=tags)
