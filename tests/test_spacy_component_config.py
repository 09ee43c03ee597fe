"""The spaCy component (optional extra glmnlp[spacy]): its settings from spaCy's config, its warnings, and a
pipeline saved with ``nlp.to_disk``."""

from __future__ import annotations

import re
import warnings

import pytest

spacy = pytest.importorskip("spacy")

from glmnlp.errors import ModelFileError  # noqa: E402
from glmnlp.text import spacy_component  # noqa: E402
from glmnlp.text.tokenize import LongInputWarning  # noqa: E402

_LONG = ("A big old dog saw a small cat in the park today.", "The man who sold the car saw the cat run home.")


def test_spacy_component_max_words_from_config_and_warnings_name_the_sentence() -> None:
    """The factory took no ``max_words`` (glmnlp.load does), so the limit could not be set from a spaCy config; and
    each sentence is parsed alone, so every over-long sentence's warning began ``document 1, sentence 1`` and
    Python's default filter showed the first only. Each names its sentence in its Doc now, at the caller's line."""
    from glmnlp.text.pipeline import MAX_PARSE_WORDS

    nlp = spacy.blank("en")
    nlp.add_pipe("sentencizer")
    nlp.add_pipe("glmnlp_parser", config={"max_words": 8})
    assert nlp.config["components"]["glmnlp_parser"]["max_words"] == 8
    assert nlp.get_pipe("glmnlp_parser").glmnlp.max_words == 8
    texts = [f"It ran. {_LONG[0]} {_LONG[1]}", f"{_LONG[1]} It ran. {_LONG[0]}"]
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("default")
        docs = list(nlp.pipe(texts))
    long = [w for w in caught if issubclass(w.category, LongInputWarning)]
    assert [w.filename for w in long] == [__file__] * 4
    where = [re.match(r"sentence (\d) of the Doc \(character (\d+), '(\w+) .*\): a sentence of 1[23] words \(more than "
                      r"8\) gets a flat tree", str(w.message)) for w in long]
    assert all(where), [str(w.message) for w in long]
    found = [(int(m[1]), int(m[2]), m[3]) for m in where if m]
    assert found == [(2, 8, "A"), (3, 57, "The"), (1, 0, "The"), (3, 55, "A")]
    for doc, (number, start, _) in zip([docs[0], docs[0], docs[1], docs[1]], found):
        sent = list(doc.sents)[number - 1]
        assert sent.start_char == start and sent._.labels  # the flat tree's root
    assert spacy_component.MAX_WORDS == MAX_PARSE_WORDS  # the factory's default, the pipeline's


def test_spacy_component_saved_pipeline_holds_its_model(  # type: ignore[no-untyped-def]
    tmp_path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``nlp.to_disk`` saved only ``model = "mymodel"`` (as given) in config.cfg: the pipeline failed to load from
    another directory, and its folder was not self-contained. The model is copied into the component's folder and
    read from there; a relative path is read against the directory the component was made in; loaded where the
    model is found both ways, it is loaded once."""
    import shutil

    from glmnlp.text import loading
    from glmnlp.text.default_model import default_model_path

    loads = []
    load = loading.load
    monkeypatch.setattr(loading, "load", lambda path, **kw: loads.append(path) or load(path, **kw))
    shutil.copytree(default_model_path(), tmp_path / "mymodel")
    monkeypatch.chdir(tmp_path)
    nlp = spacy.blank("en")
    nlp.add_pipe("glmnlp_parser", config={"model": "mymodel", "max_words": 40})
    assert nlp.get_pipe("glmnlp_parser").model == str(tmp_path / "mymodel")
    nlp.to_disk("saved")
    assert (tmp_path / "saved" / "glmnlp_parser" / "model" / "MODEL.json").is_file()
    same = spacy.load("saved")  # here, where "mymodel" is found too: the model is not loaded twice
    assert same.get_pipe("glmnlp_parser").model == str(tmp_path / "saved" / "glmnlp_parser" / "model")
    assert len(loads) == 2
    shutil.rmtree(tmp_path / "mymodel")  # the saved folder needs it no more
    # workers and pickles load the copy too (they loaded the folder the config named, gone now: spawned workers hung)
    spec = same.get_pipe("glmnlp_parser").glmnlp.spec
    assert spec is not None and spec[1][0] == tmp_path / "saved" / "glmnlp_parser" / "model"
    (tmp_path / "elsewhere").mkdir()
    monkeypatch.chdir(tmp_path / "elsewhere")
    again = spacy.load(tmp_path / "saved")
    component = again.get_pipe("glmnlp_parser")
    assert component.model == str(tmp_path / "saved" / "glmnlp_parser" / "model") and component.glmnlp.max_words == 40
    text = "The old man saw the dog in the park."
    assert again(text)[:]._.parse_string == nlp(text)[:]._.parse_string == same(text)[:]._.parse_string
    assert len(loads) == 3
    # the bundled model is not copied; a model folder never found is said at the first doc
    bundled = spacy.blank("en")
    bundled.add_pipe("glmnlp_parser")
    bundled.to_disk(tmp_path / "bundled")
    assert not (tmp_path / "bundled" / "glmnlp_parser" / "model").exists()
    with pytest.raises(ModelFileError, match="an empty path is not a model directory"):  # (it was the current one)
        spacy.blank("en").add_pipe("glmnlp_parser", config={"model": ""})
    missing = spacy.blank("en")
    missing.add_pipe("glmnlp_parser", config={"model": "nowhere"})
    with pytest.raises(ModelFileError, match="nowhere: model directory not found"):
        missing("A dog.")


def test_spacy_component_used_from_threads_leaves_the_warning_filters_as_they_were() -> None:
    """An over-long sentence's warnings were caught (``warnings.catch_warnings``) and warned again renamed: from two
    threads at once, the second to leave restored the first one's state, and the process's filters stayed
    ``always`` with every later warning appended to a list nothing read. The filters and the way warnings are shown
    are those of before, and every sentence's warning is there, naming its sentence."""
    from concurrent.futures import ThreadPoolExecutor

    nlp = spacy.blank("en")
    nlp.add_pipe("sentencizer")
    nlp.add_pipe("glmnlp_parser", config={"max_words": 8})
    nlp("It ran.")  # the model loaded before the threads start
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        filters, shown = list(warnings.filters), warnings.showwarning
        with ThreadPoolExecutor(4) as pool:
            list(pool.map(lambda i: nlp(_LONG[i % 2]), range(200)))
        assert warnings.filters == filters and warnings.showwarning is shown
        long = [w for w in caught if issubclass(w.category, LongInputWarning)]
        assert len(long) == 200 and all(str(w.message).startswith("sentence 1 of the Doc (character 0, ")
                                        for w in long)
        warnings.warn("after the threads")
        assert str(caught[-1].message) == "after the threads"


def test_spacy_component_refuses_a_model_folder_of_the_wrong_kind_as_glmnlp_load_does() -> None:
    """A tagger's folder as the component's ``model`` said ``no tagger/ sub-model in this model directory (it is a
    tagger model, ...)``; it is refused as every loader refuses a folder of another kind."""
    from glmnlp.text.default_model import default_model_path

    folder = default_model_path() / "tagger"
    with pytest.raises(ModelFileError) as info:
        spacy.blank("en").add_pipe("glmnlp_parser", config={"model": str(folder)})
    assert str(info.value) == (f"{folder}: a tagger model; glmnlp.load() needs a pipeline directory "
                               "(glmnlp.Tagger.load reads it)")
