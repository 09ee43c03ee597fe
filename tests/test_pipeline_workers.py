"""Pipelines on worker processes and Ray actors: order, errors, warnings, pickling, model files."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import pytest

from glmnlp.text.document import Document
from glmnlp.errors import ConfigError, ModelFileError
from glmnlp.text.loading import load
from glmnlp.text.pipeline import Pipeline
from glmnlp.treebank.trees import Tree
from pipeline_fakes import FakeParser, FakeTagger, fake_model_modules


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
    fake_model_modules(monkeypatch, seen, [])
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
    # a component not built yet is its folder (it printed the loader's bound method and the folder's identity)
    folder = glmnlp.text.default_model.default_model_path()
    assert repr(lazy).startswith(f"Pipeline(tagger=<not built yet: {folder / 'tagger'}>, parser=<not built yet: "
                                 f"{folder / 'parser'}>, ")


def test_a_pipe_on_workers_left_open_ends_the_program_without_a_traceback(tmp_path: Path) -> None:
    """A ``pipe(n_process=2)`` generator left unfinished (``for doc in nlp.pipe(...): break`` in a notebook) is
    closed at the interpreter's exit, whose clean-up imported a module then: "Exception ignored in ... import of
    glmnlp.glm.model_files halted" on stderr. It ends quietly, its workers gone."""
    import subprocess
    import sys

    script = tmp_path / "left_open.py"
    script.write_text("import glmnlp\n"
                      "if __name__ == '__main__':\n"
                      "    nlp = glmnlp.load()\n"
                      "    g = nlp.pipe(['The old man saw the dog near the barn.'] * 200, n_process=2, batch_size=16)\n"
                      "    print(len(next(g).sentences))\n", encoding="utf-8")
    run = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=300)
    assert (run.returncode, run.stdout, run.stderr) == (0, "1\n", "")
