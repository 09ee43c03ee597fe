"""One loaded pipeline from several threads, and parsing on worker processes (glmnlp.text.pipeline)."""

from __future__ import annotations

import itertools
import subprocess
import sys
import threading
from pathlib import Path

import pytest

import glmnlp
from glmnlp.errors import ConfigError
from glmnlp.glm.streams import Prefetch
from glmnlp.text.pipeline import Pipeline
from glmnlp.treebank.corpus import sample_tagged


@pytest.fixture(scope="module")
def sentences() -> list[list[str]]:
    return [list(s.words) for s in sample_tagged("test")[:48]]


@pytest.fixture(scope="module")
def nlp() -> Pipeline:
    return glmnlp.load()


def test_four_threads_get_the_trees_of_one_thread(nlp: Pipeline, sentences: list[list[str]]) -> None:
    """4 threads x 48 sentences on one loaded pipeline: every thread gets the serial trees.

    The parser keeps one decoder per thread; sharing one (the former design) mixed the threads'
    beams and generative terms, so trees differed or memory ran away.
    """
    serial = [nlp([s]).sentences[0].tree for s in sentences]
    results: dict[int, list[object]] = {}
    errors: list[BaseException] = []
    barrier = threading.Barrier(4)

    def work(k: int) -> None:
        try:
            barrier.wait()
            order = sentences[k:] + sentences[:k]  # each thread starts elsewhere: decodes overlap
            trees = [nlp([s]).sentences[0].tree for s in order]
            results[k] = trees[len(sentences) - k :] + trees[: len(sentences) - k]
        except BaseException as exc:  # noqa: BLE001 (reported below)
            errors.append(exc)

    threads = [threading.Thread(target=work, args=(k,)) for k in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=300)
    assert not any(t.is_alive() for t in threads), "threads did not finish (shared decoder state?)"
    assert not errors
    for k in range(4):
        assert results[k] == serial
    assert nlp.parser.stats["sentences"] >= 5 * len(sentences)


def test_pipe_on_two_processes_gives_the_serial_documents(nlp: Pipeline) -> None:
    """pipe(n_process=2): same documents, in input order, as in this process."""
    texts = [f"Document {i}: the old man saw the dog. It barked {i} times." for i in range(9)]
    serial = [d.to_dict() for d in nlp.pipe(texts, batch_size=2)]
    parallel = [d.to_dict() for d in nlp.pipe(texts, batch_size=2, n_process=2)]
    assert parallel == serial


@pytest.mark.parametrize("burst", [4, 2])
def test_pipe_on_two_processes_answers_an_input_that_waits_for_its_answers(nlp: Pipeline, burst: int) -> None:
    """An input that gives its next document only once it has the answer to the one before (a service talking to
    ``glmnlp parse -j 2`` through a pipe): pipe(n_process=2) first read two batches to decide whether to start
    workers, then waited for the next item with trees in hand, so each side waited for the other (here: until the
    10 s guard gave up). ``burst`` documents come at once (workers start), then the rest one answer at a time; with
    two at once and three workers, reading a batch for the third worker waited too."""
    texts = [f"Document {i}: the old man saw the dog." for i in range(burst + 3)]
    answered = threading.Event()
    gave_up: list[int] = []

    def conversation() -> object:
        yield from texts[:burst]
        for k in range(burst, burst + 3):
            if not answered.wait(10):
                gave_up.append(k)
            answered.clear()
            yield texts[k]

    got = []
    source = Prefetch(conversation())  # read on a thread, as glmnlp parse reads its input
    for k, doc in enumerate(nlp.pipe(source, batch_size=1, n_process=2 if burst == 4 else 3)):
        got.append(doc.to_dict())
        if k >= burst - 1:
            answered.set()
    assert gave_up == [] and got == [d.to_dict() for d in nlp.pipe(texts, batch_size=1)]
    lone = threading.Event()
    waited: list[bool] = []

    def one_at_a_time() -> object:  # from the start: answered here, batch by batch, before the workers would be
        for text in texts[:3]:
            yield text
            waited.append(lone.wait(10))
            lone.clear()

    for doc in nlp.pipe(Prefetch(one_at_a_time()), batch_size=1, n_process=2):
        lone.set()
    assert waited == [True, True, True]


def test_pipe_on_two_processes_reads_the_callers_iterable_on_its_thread(nlp: Pipeline) -> None:
    """pipe(n_process=2) over a generator on an SQLite cursor failed ("SQLite objects created in a thread can only
    be used in that same thread") once the input was read on a thread of its own: the caller's iterable is read on
    the caller's thread; only a Prefetch is read on a thread."""
    import sqlite3

    db = sqlite3.connect(":memory:")
    db.execute("create table t (text)")
    texts = [f"Dog {k} barked." for k in range(9)]
    db.executemany("insert into t values (?)", [(t,) for t in texts])
    rows = (r[0] for r in db.execute("select text from t order by rowid"))
    got = [d.to_dict() for d in nlp.pipe(rows, batch_size=2, n_process=2)]
    assert got == [d.to_dict() for d in nlp.pipe(texts, batch_size=2)]


def test_pipe_on_a_prefetch_left_early_leaves_no_thread_and_raises_the_inputs_system_exit(nlp: Pipeline) -> None:
    """A consumer that stopped early after the workers had started left a reading thread waiting for ever on the
    input's closed reader (one more per call in a service); a SystemExit raised by the input ended the reading thread
    in silence and left the consumer waiting."""
    import time

    def texts() -> object:
        yield from [f"Dog {k} barked." for k in range(8)]
        time.sleep(2)  # a pause: the reading threads wait
        yield "Late."

    for _ in range(2):
        docs = nlp.pipe(Prefetch(texts()), batch_size=1, n_process=2)
        assert [d.text for d in itertools.islice(docs, 3)] == ["Dog 0 barked.", "Dog 1 barked.", "Dog 2 barked."]
        docs.close()  # type: ignore[attr-defined]
    deadline = time.monotonic() + 10
    while any(t.name == "glmnlp-input" for t in threading.enumerate()) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not any(t.name == "glmnlp-input" for t in threading.enumerate())

    def exits() -> object:
        yield from [f"Dog {k} barked." for k in range(4)]
        raise SystemExit(3)

    got = []
    with pytest.raises(SystemExit):  # at once (the program is to end), not after the documents before it
        for doc in nlp.pipe(Prefetch(exits()), batch_size=1, n_process=2):
            got.append(doc.text)
    assert got == [f"Dog {k} barked." for k in range(len(got))]


def test_pipe_on_two_processes_leaves_this_processs_model_unbuilt(nlp: Pipeline) -> None:
    """A glmnlp.load(deferred=True) piped through 2 workers never builds its tagger or parser here (each
    worker builds its own), yet the workers' counters reach it, and later serial use builds it with them."""
    from glmnlp.text.pipeline import Deferred

    fresh = glmnlp.load(deferred=True)
    texts = [f"Document {i}: the old man saw the dog." for i in range(5)]
    parallel = [d.to_dict() for d in fresh.pipe(texts, batch_size=2, n_process=2)]
    assert all(isinstance(fresh._components[k], Deferred) for k in ("tagger", "parser"))
    assert fresh.stats is not None and fresh.stats["sentences"] == 5
    assert parallel == [d.to_dict() for d in nlp.pipe(texts, batch_size=2)]
    fresh("A dog barked.")
    assert fresh.parser.stats["sentences"] == 6


def test_pipe_on_two_processes_keeps_nbest_surprisal_and_measures(nlp: Pipeline) -> None:
    """n-best lists, surprisal and word-by-word measures come back from the workers as serial gives them."""
    texts = ["The old man saw the dog. It barked.", "A dog barked.", "Time flies like an arrow."]
    kw = {"batch_size": 1, "nbest": 3, "surprisal": True, "measures": True}
    serial = list(nlp.pipe(texts, **kw))
    parallel = list(nlp.pipe(texts, n_process=2, **kw))
    assert [d.to_dict() for d in parallel] == [d.to_dict() for d in serial]
    for a, b in zip(serial, parallel):
        for x, y in zip(a.sentences, b.sentences):
            assert len(x.nbest) == 3 and x.nbest == y.nbest
            assert x.surprisal == y.surprisal and len(x.surprisal) == len(x.tokens)
            assert x.measures and x.measures == y.measures


def test_pipe_on_two_processes_warns_in_this_process() -> None:
    """A worker's warnings (here: sentences over max_words get a flat tree) are warned again in the caller's
    process, where its filters and handlers are; they were printed on the worker's stderr, out of reach."""
    from glmnlp.text.tokenize import LongInputWarning

    short = glmnlp.load(max_words=4)
    texts = [f"Document {i}: the old man saw the dog." for i in range(4)]
    with pytest.warns(LongInputWarning, match="more than 4"):
        parallel = [d.to_dict() for d in short.pipe(texts, batch_size=1, n_process=2)]
    with pytest.warns(LongInputWarning, match="more than 4"):
        assert parallel == [d.to_dict() for d in short.pipe(texts, batch_size=1)]


def test_pipe_on_two_processes_names_the_bad_document_by_its_place_in_the_input(nlp: Pipeline) -> None:
    """An item that is not a document is named by its number in the whole input, as in this process; each
    worker counted from 1 in its own batch, so the seventh item was reported as document 1."""
    texts: list[object] = ["A dog barked."] * 6 + [12345, "It ran."]
    with pytest.raises(TypeError, match="document 7: "):
        list(nlp.pipe(texts, batch_size=2))
    with pytest.raises(TypeError, match="document 7: "):
        list(nlp.pipe(texts, batch_size=2, n_process=2))


def test_pipe_on_processes_needs_a_loadable_pipeline(nlp: Pipeline) -> None:
    custom = Pipeline(nlp.tagger, nlp.parser)
    with pytest.raises(ConfigError, match="glmnlp.load"):
        list(custom.pipe(["A dog barked."], n_process=2))


def test_cli_parse_jobs_2_writes_the_bytes_of_jobs_1(tmp_path: Path, sentences: list[list[str]]) -> None:
    """glmnlp parse --jobs 2 prints exactly what --jobs 1 prints."""
    tagged = [" ".join(f"{w}/{t}" for w, t in zip(s.words, s.tags or ())) for s in sample_tagged("test")[:40]]
    src = tmp_path / "in.txt"
    src.write_text("\n".join(tagged) + "\n", encoding="utf-8")
    outs = []
    for jobs in ("1", "2"):
        run = subprocess.run(
            [sys.executable, "-c", "from glmnlp.cli import main; raise SystemExit(main())", "parse", "--tagged",
             "-q", "-i", str(src), "--batch-size", "4", "--jobs", jobs],
            capture_output=True, check=True,
        )
        outs.append(run.stdout)
    assert outs[0] == outs[1]
    assert outs[0].count(b"\n") == 40


def test_pipe_on_two_processes_parses_at_the_beam_set_after_loading(sentences: list[list[str]]) -> None:
    """A beam set on the loaded parser (``nlp.parser.config.gamma = ...``, docs/api.md) holds in the workers too:
    they load the model's files, and parsed at the files' beam while this process used the set one."""
    narrow = glmnlp.load()
    narrow.parser.config.gamma, narrow.parser.config.beam_cap = 0.0, 1
    docs = [[words] for words in sentences[:12]]
    here = [d.to_dict() for d in narrow.pipe(docs, batch_size=2)]
    assert [d.to_dict() for d in narrow.pipe(docs, batch_size=2, n_process=2)] == here
    assert here != [d.to_dict() for d in glmnlp.load().pipe(docs, batch_size=2)]  # the set beam parses otherwise


def test_pipe_on_two_processes_uses_the_pipeline_settings_set_after_loading() -> None:
    """``nlp.max_words``, ``nlp.multitag_margin`` and ``nlp.lines`` set after ``glmnlp.load()`` held in this process
    and not in the workers, which load the model as it was loaded: with ``max_words = 5`` one process gave every
    sentence its flat tree and two processes parsed them (4 of 4 differed); ``lines`` split text otherwise."""
    texts = ["The old man saw the dog with a telescope.", "It barked at the mailman loudly today.",
             "The dog\nbarked loudly.", "Colorless green ideas sleep furiously."]
    for change in ({"max_words": 5}, {"multitag_margin": None}, {"lines": True}):
        nlp = glmnlp.load()
        for name, value in change.items():
            setattr(nlp, name, value)
        here = [d.to_dict() for d in nlp.pipe(texts, batch_size=1)]
        assert [d.to_dict() for d in nlp.pipe(texts, batch_size=1, n_process=2)] == here, change
        if "max_words" in change:  # over 5 words: the flat tree, no score
            assert [d["sentences"][0]["score"] is None for d in here] == [True, True, False, True]


@pytest.mark.skipif(not hasattr(__import__("os"), "fork"), reason="os.fork is POSIX")
def test_a_child_forked_while_a_thread_holds_the_models_locks_can_tag_and_parse() -> None:
    """A process forked while another thread of the parent held the tagger's cache lock, the parser's counter lock
    or a deferred pipeline's build lock (a thread tagging at the moment of the fork: gunicorn --preload, Celery's
    prefork pool) waited in the child for ever at its first tag: 1-3 of 30-40 children hung."""
    import os
    import signal
    import time

    nlp = glmnlp.load(deferred=True)
    nlp("A dog barked.")  # builds the components: their locks exist
    fresh = glmnlp.load(deferred=True)  # not built: its first use takes the build lock
    held, release = threading.Event(), threading.Event()

    def hold() -> None:
        with nlp.tagger._cache_lock, nlp.parser._stats_lock, fresh._building:
            held.set()
            release.wait()

    holder = threading.Thread(target=hold)
    holder.start()
    held.wait()
    try:
        pid = os.fork()
        if pid == 0:  # the child: tag and parse with both pipelines, then leave at once
            try:
                ok = nlp("The old man saw the dog.").sentences[0].tree is not None
                ok = ok and fresh("It barked.").sentences[0].tree is not None
                os._exit(0 if ok else 3)
            finally:
                os._exit(4)
        deadline = time.monotonic() + 60
        while (done := os.waitpid(pid, os.WNOHANG))[0] == 0 and time.monotonic() < deadline:
            time.sleep(0.05)
        if done[0] == 0:
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
            pytest.fail("the forked child hung on a lock held by a parent thread at the fork")
        assert os.waitstatus_to_exitcode(done[1]) == 0
    finally:
        release.set()
        holder.join()


@pytest.mark.skipif(not hasattr(__import__("os"), "fork"), reason="os.fork is POSIX")
@pytest.mark.parametrize("reentrant", [False, True])
def test_a_child_forked_inside_a_locked_block_leaves_it_and_takes_the_lock_again(reentrant: bool) -> None:
    """The lock renewed in the child was released unheld when the forking thread, inside the block, left it there
    (``RuntimeError: release unlocked lock``): the forking thread's own lock is kept held, as it is."""
    import os

    from glmnlp.glm.locks import ForkSafeLock

    lock = ForkSafeLock(reentrant=reentrant)
    pid = -1
    try:
        with lock:
            pid = os.fork()
    except BaseException:
        if pid == 0:  # the child never returns to the test runner
            os._exit(4)
        raise
    if pid == 0:
        code = 3
        try:
            with lock:
                code = 0
        finally:
            os._exit(code)
    assert os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1]) == 0


def test_a_forked_child_starts_pools_of_its_own(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """A process forked from one that had used ``pipe(n_process=2)`` (a preloading web server's workers) failed every
    pool with ``ChildProcessError: No child processes``: it kept its parent's forkserver record. The child's pipe
    now gives the parent's documents. (A script file: the workers import its main module.)"""
    import subprocess
    import sys

    script = tmp_path / "forked.py"
    script.write_text(
        "import os\nimport glmnlp\n\nif __name__ == '__main__':\n"
        "    nlp = glmnlp.load()\n"
        "    texts = ['The dog barked.', 'It rained.', 'A man left.', 'We won.'] * 4\n"
        "    first = [d.to_dict() for d in nlp.pipe(texts, batch_size=4, n_process=2)]\n"
        "    pid = os.fork()\n"
        "    if pid == 0:\n"
        "        try:\n"
        "            os._exit(0 if [d.to_dict() for d in nlp.pipe(texts, batch_size=4, n_process=2)] == first else 3)\n"
        "        except BaseException as e:\n"
        "            print(type(e).__name__, e, flush=True)\n"
        "            os._exit(4)\n"
        "    print('child', os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1]), flush=True)\n")
    run = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=300, cwd=tmp_path)
    assert run.returncode == 0 and run.stdout.strip().endswith("child 0"), (run.stdout, run.stderr[-2000:])


_FORK_DURING_FIRST_CALL = """
import os, sys, threading, time, faulthandler, glmnlp
nlp = glmnlp.load()
thread = threading.Thread(target=lambda: nlp("The old man saw the dog."))
thread.start()
time.sleep(float(sys.argv[1]))
pid = os.fork()
if pid == 0:
    faulthandler.dump_traceback_later(30, exit=True)
    os._exit(0 if nlp("It barked.").sentences[0].tree is not None else 3)
thread.join()
sys.exit(os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1]))
"""


@pytest.mark.skipif(not hasattr(__import__("os"), "fork"), reason="os.fork is POSIX")
@pytest.mark.parametrize("delay", ["0", "0.01", "0.03", "0.06"])
def test_a_child_forked_during_the_first_call_of_another_thread_can_parse(delay: str) -> None:
    """The first call of a pipeline imports the tokenizer's nltk and pysbd; a process forked from another thread
    meanwhile began with the module's import lock held, and its first call waited for ever (5 of 6 children, each a
    fresh process: those imports are done once a process). A fork waits for those imports (glmnlp.glm.locks)."""
    import subprocess
    import sys

    run = subprocess.run([sys.executable, "-c", _FORK_DURING_FIRST_CALL, delay], capture_output=True, text=True,
                         timeout=120)
    assert run.returncode == 0, run.stderr[-2000:]


_FORK_DURING_FIRST_IMPORT = """
import os, sys, threading, time, faulthandler, glmnlp
thread = threading.Thread(target=lambda: glmnlp.load(parser=False))  # glmnlp's first use imports the models
thread.start()
time.sleep(float(sys.argv[1]))
pid = os.fork()
if pid == 0:
    faulthandler.dump_traceback_later(30, exit=True)
    os._exit(0 if glmnlp.Tagger and glmnlp.parser.model else 3)
thread.join()
sys.exit(os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1]))
"""

_FORK_BESIDE_FORK_WAITS = """
import os, signal, sys, threading
from glmnlp.glm import locks
sys.setswitchinterval(1e-6)
locks.fork_waits()
def loop():
    while True:
        with locks.fork_waits():
            pass
threading.Thread(target=loop, daemon=True).start()
for _ in range(200):
    pid = os.fork()
    if pid == 0:
        signal.alarm(5)
        with locks.fork_waits():
            os._exit(0)
    if os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1]) != 0:
        sys.exit("a child hung in fork_waits()")
"""


@pytest.mark.skipif(not hasattr(__import__("os"), "fork"), reason="os.fork is POSIX")
@pytest.mark.parametrize(("script", "delay"), [(_FORK_DURING_FIRST_IMPORT, "0.001"),
                                               (_FORK_DURING_FIRST_IMPORT, "0.005"),
                                               (_FORK_DURING_FIRST_IMPORT, "0.05"), (_FORK_BESIDE_FORK_WAITS, "0")])
def test_a_child_forked_during_glmnlp_s_own_first_imports_can_go_on(script: str, delay: str) -> None:
    """``import glmnlp`` imports the models when first used: a child forked while another thread did so began with
    their modules' import locks held (4 of 5 children hung), and one forked while another thread was in
    ``fork_waits`` began with the lock that registers its hooks held (57 of 300); one forked 1-3 ms after the
    thread began, while it imported the fork-safety locks or logging, before any hook was registered, hung too (20
    of 90 at 1 and 3 ms: they are imported with the package now)."""
    import subprocess
    import sys

    run = subprocess.run([sys.executable, "-c", script, delay], capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr[-2000:]
