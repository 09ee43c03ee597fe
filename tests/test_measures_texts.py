"""``glmnlp.measures`` and a Document's measures on texts with the bundled model: the model loaded once (threads
too), a fragment's words, pre-tokenised brackets, given tags and options refused, and the measures' frames."""

from __future__ import annotations

import math

import pytest

from glmnlp.errors import InputError
from glmnlp.parser.measures import EOS


def test_measures_of_the_bundled_model_load_it_once() -> None:
    """``glmnlp.measures(text)`` in a loop loaded the bundled parser again at every call (0.6-0.8 s each)."""
    from glmnlp.text.measures import load_parser

    assert load_parser() is load_parser(None)


def test_threads_asking_for_the_bundled_measures_parser_at_once_load_it_once() -> None:
    """Eight threads calling ``glmnlp.measures(text)`` for the first time each loaded the bundled parser (8 loads of
    3 s, 310 MB where one takes 0.73 s and 133 MB): ``lru_cache`` does not hold the others while one computes. In a
    new process, where nothing loaded it yet."""
    import subprocess
    import sys

    code = """
import threading
from glmnlp.text import measures
loads = []
real = measures.load_parser
measures.load_parser = lambda *a, **k: (loads.append(1), real(*a, **k))[1]
gate, got = threading.Barrier(4), []
def ask():
    gate.wait()
    got.append(measures._bundled_parser())
threads = [threading.Thread(target=ask) for _ in range(4)]
[t.start() for t in threads]
[t.join() for t in threads]
print(len(loads), len({id(p) for p in got}))
"""
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert run.stdout.split() == ["1", "1"], run.stderr


@pytest.mark.parametrize("eos", [True, False])
@pytest.mark.parametrize(("fragment", "sentence"), [
    ("It cost a $", "It cost a $ 5 fee ."),
    ("He bought a -LRB-", "He bought a -LRB- used -RRB- car ."),
])
def test_a_fragment_s_words_measure_as_in_the_whole_sentence(fragment: str, sentence: str, eos: bool) -> None:
    """A fragment the beam cannot end was run again with a 10x wider beam for its ``</s>`` row (even with
    ``eos=False``, which has none), and every word's measures changed: "It" 4.988 bits against 4.992 in the whole
    sentence. The words of a fragment now measure as they do in any sentence they begin; its end is infinite."""
    import glmnlp

    part, whole = (glmnlp.measures([text], tokenized=True, eos=eos) for text in (fragment, sentence))
    n = len(fragment.split())
    assert [r["word"] for r in part[:n]] == fragment.split()
    for a, b in zip(part[:n], whole[:n]):
        assert {k: v for k, v in a.items() if k not in ("item", "sentence")} == \
            {k: v for k, v in b.items() if k not in ("item", "sentence")}
    assert len(part) == n + eos
    if eos:
        assert part[-1]["word"] == EOS and part[-1]["surprisal"] == math.inf and math.isnan(part[-1]["entropy"])


def test_measures_of_pretokenised_brackets_are_those_of_their_treebank_spelling() -> None:
    """A pre-tokenised ``(`` reached the parser as written, a word no bracketed treebank holds (its surprisal was
    an unknown word's); it is read as ``-LRB-`` now, as raw text is, and the rows keep the word as written."""
    import glmnlp

    written = [["He", "(", "the", "dog", ")", "barked", "."]]
    spelled = [["He", "-LRB-", "the", "dog", "-RRB-", "barked", "."]]
    rows, expected = glmnlp.measures(written), glmnlp.measures(spelled)
    assert [r["word"] for r in rows] == written[0] + ["</s>"]
    for row, other in zip(rows, expected, strict=True):
        assert {k: v for k, v in row.items() if k != "word"} == {k: v for k, v in other.items() if k != "word"}
    nlp = glmnlp.load()
    sent = nlp(written, measures=True).sents[0]
    assert [r["surprisal"] for r in sent.measures] == [r["surprisal"] for r in expected]


@pytest.mark.parametrize(("texts", "tags", "message"), [
    ([["Dogs", "bark", "."]], ["NNS", "VBP", "."], "1 sentences but 3 tag entries"),  # was one tag a character: inf
    ([["Dogs", "bark", "."]], [["PRP", "XYZ", "."]], "word 2 \\('bark'\\): tag 'XYZ' is not one of the model's"),
    ([["Dogs", "bark", "."], ["It", "ran", "."]], [["NNS", "VBP", "."]], "2 sentences but 1 tag entries"),
    ([["Dogs", "bark", "."]], [["PRP", [], "."]], "word 2 \\('bark'\\): its tags are a tag or a non-empty list"),
    ([["Dogs", "bark", "."]], [None], "a sentence's tags are a list with one tag"),
    (["Dogs bark .", "", "It ran ."], [["NNS", "VBP", "."], ["X"], ["PRP", "VBD", "."]], "2 sentences but 3"),
])
def test_measures_refuses_given_tags_that_do_not_fit_the_sentences(texts: list, tags: list, message: str) -> None:
    """Tags given in the wrong shape gave silent nonsense (a sentence's tags as one string: one tag a character,
    every surprisal infinite; an unknown tag: infinite too) or a StopIteration / IndexError from inside; a blank
    tokenised line shifted every later sentence's tags. Each is an InputError now."""
    import glmnlp

    with pytest.raises(InputError, match=message):
        glmnlp.measures(texts, tags=tags, tokenized=isinstance(texts[0], str))


def test_measures_tags_model_or_all_stand_for_every_sentence() -> None:
    """``tags="all"`` was read as one tag entry a letter ('3 words but 1 tag entries'); it and ``"model"`` now mean
    every sentence's, as they do one sentence's."""
    import glmnlp

    texts = [["Dogs", "bark", "."], ["It", "ran", "."]]
    for choice in ("all", "model"):
        assert glmnlp.measures(texts, tags=choice) == glmnlp.measures(texts, tags=[choice, choice])


@pytest.mark.parametrize(("kwargs", "error", "message"), [
    ({"max_tags": 2.5}, "ConfigError", "max_tags must be an integer >= 1"),  # a slice's TypeError from inside
    ({"max_tags": None}, "ConfigError", "max_tags must be an integer >= 1"),
    ({"tag_margin": None}, "ConfigError", "tag_margin a number >= 0"),
    ({"model": 3}, "TypeError", "model: expected None, a model directory"),  # pathlib's TypeError
    ({"texts": [[""]]}, "InputError", "token 1 \\(''\\) is empty or holds whitespace"),  # word_class's ValueError
    ({"texts": [["a b"]]}, "InputError", "token 1 \\('a b'\\) is empty or holds whitespace"),  # was measured
])
def test_measures_refuses_bad_options_and_tokens_before_any_work(kwargs: dict, error: str, message: str) -> None:
    import glmnlp
    from glmnlp import errors

    texts = kwargs.pop("texts", "It ran.")
    with pytest.raises(getattr(errors, error, TypeError), match=message):
        glmnlp.measures(texts, **kwargs)


def test_measures_of_the_combined_kind_refuse_a_beam_set_out_of_range() -> None:
    """``parser.config.gamma = nan`` on a loaded model was used by ``measures(kind="combined")`` silently, while
    ``Parser.parse`` refuses it: both are a ConfigError now."""
    import glmnlp
    from glmnlp.errors import ConfigError

    nlp = glmnlp.load()
    nlp.parser.config.gamma = float("nan")
    with pytest.raises(ConfigError, match="the beam's gamma and cap must be a number in"):
        glmnlp.measures("the dog barked.", model=nlp, kind="combined")


def test_a_documents_measures_frame_keeps_infinite_surprisal() -> None:
    """``Document.measures_frame()`` showed an infinite surprisal (a sentence its beam cannot end) as NaN, where
    ``glmnlp.measures(..., as_frame=True)`` keeps ``inf``: a row keeps None there (JSON has no infinity)."""
    import glmnlp

    words = ["It", "cost", "a", "$"]
    frame = glmnlp.load()([words], measures=True).measures_frame()
    direct = glmnlp.measures([words], as_frame=True)
    assert frame["surprisal"].iloc[-1] == math.inf == frame["prefix"].iloc[-1]
    for column in ("prefix", "surprisal", "entropy"):
        assert frame[column].tolist() == pytest.approx(direct[column].tolist(), nan_ok=True)


def test_an_empty_texts_measures_frame_has_the_columns_types() -> None:
    """An empty text's frame (``glmnlp.measures("", as_frame=True)``, ``Document.measures_frame()``) had every column
    ``object``; concatenated with other texts' (one empty cell in a stimuli column) it made their numbers ``object``
    too: ``describe()`` left them out. It has the types a frame of rows has."""
    import glmnlp
    import pandas as pd

    full = glmnlp.measures("The dog barked.", as_frame=True)
    nlp = glmnlp.load()
    for empty in (glmnlp.measures("", as_frame=True), nlp("", measures=True).measures_frame()):
        assert empty.empty and empty.dtypes.to_dict() == full.dtypes.to_dict()
        both = pd.concat([full, empty], ignore_index=True)
        assert both.dtypes.to_dict() == full.dtypes.to_dict() and "entropy" in both.describe().columns


def test_the_measures_frame_of_a_document_analysed_without_measures_says_so() -> None:
    """A document analysed without ``measures=True`` gave an empty frame with every column and no word of why (in a
    loop over stimuli, a merge came back empty later); a measured sentence always has rows (its end at least)."""
    import glmnlp
    from glmnlp.errors import ConfigError

    nlp = glmnlp.load()
    with pytest.raises(ConfigError, match="analysed without measures: call the pipeline with measures=True"):
        nlp("The horse raced past the barn fell.").measures_frame()
    assert len(nlp("It ran.", measures=True).measures_frame()) == 4  # It, ran, ., </s>
    assert len(glmnlp.Document("").measures_frame()) == 0  # no sentence, no rows

