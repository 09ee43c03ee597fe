"""The Ray backend on a real local Ray instance: the same model files and outputs as local processes."""

from __future__ import annotations

import atexit
import hashlib
import os
import shutil
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

ray = pytest.importorskip("ray")

from glmnlp.tagger.model import Tagger, TaggerConfig  # noqa: E402
from glmnlp.treebank.corpus import sample_tagged  # noqa: E402


@pytest.fixture(scope="module", autouse=True)
def sigterm_action_kept() -> Iterator[None]:
    """``ray.shutdown()`` (the fixture's and the tests') puts back SIGTERM's action of before Ray's start below Python,
    which still names Ray's handler: a later test of the same pytest-xdist worker that sent itself SIGTERM ended the
    worker. Set up first, torn down last: the handler of before the module is installed again."""
    import signal

    before = signal.getsignal(signal.SIGTERM)
    yield
    signal.signal(signal.SIGTERM, signal.SIG_DFL if before is None else before)


@pytest.fixture(scope="module")
def ray_instance() -> Iterator[None]:
    # the actors' temporary folder (the models sent to them are written there) is the test's, not the machine's: the
    # local instance's processes inherit this environment. A short path of its own, not pytest's: Ray's sockets live
    # in it, and a Unix socket's path may not exceed 107 bytes (pytest's folders under a pytest-xdist worker do)
    # The folder is removed when the process ends, not after the module: this process's tempfile and multiprocessing
    # keep the temporary folder they first saw (the forkserver's socket is made there), and the later test files of
    # the same pytest-xdist worker found it gone (a worker's pools failed, and the worker died).
    previous = os.environ.get("TMPDIR")
    os.environ["TMPDIR"] = tempfile.mkdtemp(prefix="glmnlp-ray-", dir="/tmp" if os.path.isdir("/tmp") else None)
    atexit.register(shutil.rmtree, os.environ["TMPDIR"], True)
    try:
        ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
        yield
    finally:
        ray.shutdown()
        if previous is None:
            del os.environ["TMPDIR"]
        else:
            os.environ["TMPDIR"] = previous


def _digest(directory: Path) -> dict[str, str]:
    return {
        str(p.relative_to(directory)): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(directory.rglob("*"))
        if p.is_file()
    }


def test_tagger_trained_through_ray_matches_local(ray_instance: None, tmp_path: Path) -> None:
    """Two shards on Ray actors give the same model files as two local worker processes."""
    train, dev = sample_tagged("train")[:300], sample_tagged("dev")[:60]
    config = TaggerConfig(epochs=2, seed=3, shards=2)
    Tagger(config).fit(train, dev, show_progress=False, jobs=2, backend="ray").save(tmp_path / "ray")
    Tagger(config).fit(train, dev, show_progress=False, jobs=2, backend="local").save(tmp_path / "local")
    assert _digest(tmp_path / "ray") == _digest(tmp_path / "local")


def test_more_jobs_than_the_clusters_cpus_share_the_actors(ray_instance: None, tmp_path: Path) -> None:
    """Three shards with -j 3 on a 2-CPU Ray instance: the third actor was never placed and the first call on it
    waited for ever; each shard now has an actor holding a share of the CPUs, with the same model as local workers."""
    import threading

    train, dev = sample_tagged("train")[:150], sample_tagged("dev")[:30]
    config = TaggerConfig(epochs=1, seed=1, shards=3)
    done: list[Tagger] = []
    worker = threading.Thread(target=lambda: done.append(
        Tagger(config).fit(train, dev, show_progress=False, jobs=3, backend="ray")), daemon=True)
    worker.start()
    worker.join(120)
    assert done, "training with more actors than the cluster's CPUs did not end"
    done[0].save(tmp_path / "ray")
    Tagger(config).fit(train, dev, show_progress=False, jobs=3, backend="local").save(tmp_path / "local")
    assert _digest(tmp_path / "ray") == _digest(tmp_path / "local")


def test_parser_trained_through_ray_matches_local(ray_instance: None, tmp_path: Path) -> None:
    """A small parser trained by 2 shards on Ray actors equals the one trained on local processes."""
    from glmnlp.parser.model import ParserConfig
    from glmnlp.parser.training import train_parser
    from glmnlp.treebank.corpus import sample_trees

    train, dev = sample_trees("train")[:150], sample_trees("dev")[:30]
    for backend in ("ray", "local"):
        parser, _ = train_parser(
            train, dev, ParserConfig(epochs=2, seed=2, shards=2), show_progress=False, jobs=2, backend=backend
        )
        parser.save(tmp_path / backend, history=parser.history)
    assert _digest(tmp_path / "ray") == _digest(tmp_path / "local")


def test_parse_through_ray_actors_matches_serial(ray_instance: None) -> None:
    """pipe(n_process=2, backend="ray"): Ray actors each load the model once; same documents as serial."""
    import glmnlp

    nlp = glmnlp.load()
    texts = [f"Text {i}: the old man saw the dog with a telescope. It barked." for i in range(6)]
    serial = [d.to_dict() for d in nlp.pipe(texts, batch_size=2)]
    assert [d.to_dict() for d in nlp.pipe(texts, batch_size=2, n_process=2, backend="ray")] == serial


def test_parser_dev_pass_on_ray_actors_matches_serial(ray_instance: None, tmp_path: Path) -> None:
    """One shard here, the dev set of each epoch decoded by 2 Ray actors: the dev F1s and model files of jobs=1."""
    from glmnlp.parser.model import ParserConfig
    from glmnlp.parser.training import train_parser
    from glmnlp.treebank.corpus import sample_trees

    train, dev = sample_trees("train")[:60], sample_trees("dev")[:31]
    f1s = {}
    for name, jobs, backend in (("ray", 2, "ray"), ("serial", 1, "local")):
        parser, logs = train_parser(
            train, dev, ParserConfig(epochs=2, seed=4), show_progress=False, jobs=jobs, backend=backend
        )
        parser.save(tmp_path / name, history=parser.history)
        f1s[name] = [log.dev_f1 for log in logs]
    assert f1s["ray"] == f1s["serial"]
    assert _digest(tmp_path / "ray") == _digest(tmp_path / "serial")


def test_generative_models_trained_on_ray_actors_match_serial(ray_instance: None) -> None:
    """The combined model's 10 fold terms and full term trained on 2 Ray actors: the recorded serial terms."""
    from glmnlp.treebank.corpus import sample_trees

    from test_generative_reproducible import COMBINED_HOOK, _combined_hook_digest

    assert _combined_hook_digest(sample_trees("train")[:300], jobs=2, backend="ray") in COMBINED_HOOK


def test_combined_parser_with_generative_models_from_ray_matches_serial(ray_instance: None, tmp_path: Path) -> None:
    """A combined parser whose generative models trained on Ray actors (their arrays came back through
    Ray's object store) and then scored its training decodes: the same files as the serial run."""
    from glmnlp.glm.parallel import Executor
    from glmnlp.parser.combined import train_combined
    from glmnlp.parser.model import ParserConfig
    from glmnlp.treebank.corpus import sample_trees

    train, dev = sample_trees("train")[:150], sample_trees("dev")[:30]
    for name, executor in (("ray", Executor(2, "ray")), ("serial", Executor(1))):
        with executor:
            parser, _ = train_combined(train, dev, ParserConfig(epochs=1, seed=2, train_gamma=1e7, train_cap=30),
                                       executor=executor)
        parser.save(tmp_path / name, history=parser.history)
    assert _digest(tmp_path / "ray") == _digest(tmp_path / "serial")


def test_a_ray_actor_that_dies_is_a_worker_error(ray_instance: None) -> None:
    """A host (Ray actor) that dies fails its call with glmnlp's WorkerError (one line from the command line), as a
    dead local worker does, not with Ray's own exception and traceback. (The host is ``partial(os._exit, 3)``: Ray's
    workers import the standard library, not this test module.)"""
    import functools
    import os

    from glmnlp.errors import WorkerError
    from glmnlp.glm.parallel import Executor

    ex = Executor(2, backend="ray")
    hosts = ex.hosts(functools.partial, [(os._exit, 3), (os._exit, 3)])
    with pytest.raises(WorkerError, match=r"^a Ray worker died before its work was done \(The actor died"):
        hosts.call("__call__")
    hosts.close(abort=True)


@pytest.mark.parametrize("address", ["notaport", "localhost:notanumber"])
def test_a_ray_address_that_cannot_be_joined_is_a_config_error(address: str) -> None:
    """An address Ray cannot read was a 50-line ValueError traceback from inside Ray; one ConfigError naming it now
    (with no Ray instance running in this process: ray.init would then not be called)."""
    from glmnlp.errors import ConfigError
    from glmnlp.glm.parallel import Executor

    ray.shutdown()
    with pytest.raises(ConfigError, match=f"could not start or join address '{address}'"):
        Executor(2, "ray", address).map(abs, [-1, -2])


@pytest.mark.parametrize("quiet", [True, False])
def test_quiet_commands_print_none_of_rays_own_lines(tmp_path: Path, quiet: bool) -> None:
    """``glmnlp parse -q --backend ray`` printed Ray's WARNING and INFO lines (token authentication, ``Started a local
    Ray instance``) on stderr, which ``-q`` keeps for errors; without ``-q`` Ray's INFO lines are left out too (the
    local backend says nothing of starting its workers) and only glmnlp's summary is certain."""
    import os
    import subprocess
    import sys

    source = tmp_path / "in.txt"
    source.write_text("the/DT dog/NN barked/VBD ./.\nA/DT cat/NN sat/VBD ./.\n", encoding="utf-8")
    argv = [sys.executable, "-c", "from glmnlp.cli import main; raise SystemExit(main())", "parse", "--tagged",
            "-j", "2", "--batch-size", "1", "--backend", "ray", "-i", str(source)] + (["-q"] if quiet else [])
    env = {k: v for k, v in os.environ.items() if not k.startswith(("GLMNLP_", "RAY_"))}
    done = subprocess.run(argv, capture_output=True, text=True, timeout=300, env=env)
    assert (done.returncode, done.stdout.count("(TOP")) == (0, 2), done.stderr
    if quiet:
        assert done.stderr == ""
    else:
        assert "Started a local Ray instance" not in done.stderr and "parsed 2 sentences" in done.stderr


def test_a_ray_address_where_nothing_answers_is_a_config_error_at_once() -> None:
    """Ray retries an address where nothing answers for ever (a typo in GLMNLP_ADDRESS hung a batch job, printing
    only Ray's retry lines); it is tried with a TCP connection first and refused in one line."""
    import time

    from glmnlp.errors import ConfigError
    from glmnlp.glm.parallel import Executor

    ray.shutdown()
    start = time.monotonic()
    with pytest.raises(ConfigError, match=r"could not join address '127.0.0.1:1': nothing answers at 127.0.0.1:1 \("):
        Executor(2, "ray", "127.0.0.1:1")
    assert time.monotonic() - start < 30 and not ray.is_initialized()


def test_joining_ray_keeps_the_callers_sigterm_handler() -> None:
    """``ray.init`` put its own SIGTERM handler in place (exit status 15, a C++ stack dump): a scheduler's SIGTERM did
    not end a command with ``Aborted.`` and status 143 as on the local backend. The caller's handler is put back."""
    import signal

    from glmnlp.glm.parallel import Executor

    def mine(signum: int, frame: object) -> None:  # pragma: no cover - never called
        raise AssertionError

    ray.shutdown()
    before = signal.signal(signal.SIGTERM, mine)
    try:
        Executor(2, "ray")
        assert ray.is_initialized() and signal.getsignal(signal.SIGTERM) is mine
    finally:
        signal.signal(signal.SIGTERM, before)
        ray.shutdown()


def test_sigterm_while_ray_starts_is_aborted_with_status_143(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
) -> None:
    """``ray.init`` puts in its own SIGTERM handler (``sys.exit(15)``) while it starts or joins a cluster: a SIGTERM
    then ended the command with status 15 and no word, where the docs promise "Aborted." and 143 on either backend.
    ``ray.init`` here does what Ray's does when the signal comes during it."""
    import signal
    import sys
    import time

    from glmnlp.cli import main

    def starting(**_kwargs: object) -> None:
        signal.signal(signal.SIGTERM, lambda signum, _frame: sys.exit(signum))  # Ray's handler, in place meanwhile
        os.kill(os.getpid(), signal.SIGTERM)
        time.sleep(10)  # pragma: no cover - the signal ends the wait

    source = tmp_path / "in.txt"
    source.write_text("the/DT dog/NN barked/VBD ./.\nA/DT cat/NN sat/VBD ./.\n", encoding="utf-8")
    ray.shutdown()
    monkeypatch.setattr(ray, "init", starting)
    before = signal.signal(signal.SIGTERM, signal.SIG_DFL)  # as in a new process (an earlier ray.init left Ray's)
    try:
        rc = main(["parse", "-q", "--tagged", "-j", "2", "--batch-size", "1", "--backend", "ray", "-i", str(source)])
        assert rc == 143 and capsys.readouterr().err.endswith("Aborted.\n")
        assert signal.getsignal(signal.SIGTERM) is signal.SIG_DFL
    finally:
        signal.signal(signal.SIGTERM, before)


def test_ray_actors_load_a_relative_model_path_from_the_callers_directory(
    ray_instance: None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A model given by a path relative to the caller's directory (``glmnlp.load("mine")``, ``glmnlp parse -m mine
    --tagger mine``): Ray actors, which run in the cluster's directory, load that model, not whatever the path names
    from there (another model, used without a word, or none: their tracebacks)."""
    import shutil

    import glmnlp
    from glmnlp.cli import main
    from glmnlp.text.default_model import default_model_path

    shutil.copytree(default_model_path(), tmp_path / "mine")
    monkeypatch.chdir(tmp_path)
    texts = [f"Text {i}: the old man saw the dog. It barked." for i in range(4)]
    nlp = glmnlp.load("mine")
    serial = [d.to_dict() for d in nlp.pipe(texts, batch_size=1)]
    assert [d.to_dict() for d in nlp.pipe(texts, batch_size=1, n_process=2, backend="ray")] == serial
    (tmp_path / "in.txt").write_text("\n".join(texts) + "\n", encoding="utf-8")
    outputs = []
    for extra in (["--jobs", "1"], ["--jobs", "2", "--backend", "ray"]):
        capsys.readouterr()
        rc = main(["parse", "-q", "-m", "mine", "--tagger", "mine", "--lines", "-i", "in.txt", "--batch-size", "1",
                   *extra])
        outputs.append((rc, capsys.readouterr().out))
    assert outputs[0][0] == 0 and outputs[1] == outputs[0]


def test_a_ray_workers_own_error_is_raised_as_itself(ray_instance: None, capfd: pytest.CaptureFixture[str]) -> None:
    """An error the work raises on a Ray actor (here the model folder none of the actors can find) reaches the
    caller as that error with its one-line message, as from a local worker: it came as Ray's wrapper, whose message
    is the actor's traceback, and the second actor's error was logged with its traceback ("Unhandled error")."""
    import gc
    import time

    from glmnlp.errors import ModelFileError
    from glmnlp.glm.model_files import check_model_directory
    from glmnlp.glm.parallel import Executor

    with Executor(2, "ray") as ex, pytest.raises(ModelFileError) as caught:
        ex.hosts(check_model_directory, [("/nonexistent/a",), ("/nonexistent/b",)])
    assert str(caught.value) == "/nonexistent/a: model directory not found"
    gc.collect()
    time.sleep(1)
    assert "Unhandled error" not in capfd.readouterr().err


def test_the_command_stops_the_ray_it_started_and_ctrl_c_meanwhile_is_aborted(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
) -> None:
    """Ray's own handler at exit stopped the Ray a command had started: Ctrl-C during it printed a traceback
    ("Exception ignored in atexit callback") and the status was 0. The command stops it itself, where Ctrl-C is
    "Aborted." and status 1; a Ray the caller had running before is left running."""
    from glmnlp.cli import main

    source = tmp_path / "in.txt"
    source.write_text("the/DT dog/NN barked/VBD ./.\nA/DT cat/NN sat/VBD ./.\n", encoding="utf-8")
    argv = ["parse", "-q", "--tagged", "-j", "2", "--batch-size", "1", "--backend", "ray", "-i", str(source)]
    if not ray.is_initialized():
        ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    assert main(argv) == 0 and ray.is_initialized()  # the caller's instance: left as it is
    assert capsys.readouterr().out.count("(TOP") == 2
    ray.shutdown()
    stopped = []

    def interrupted() -> None:
        stopped.append(True)
        raise KeyboardInterrupt

    real = ray.shutdown
    monkeypatch.setattr(ray, "shutdown", interrupted)
    try:
        assert main(argv) == 1
    finally:
        monkeypatch.undo()
        real()
    out, err = capsys.readouterr()
    # interrupted, then tried once more on the way out, with signals ignored
    assert stopped == [True, True] and out.count("(TOP") == 2
    assert err.endswith("Aborted.\n") and "Traceback" not in err
    assert not ray.is_initialized()


def test_ctrl_c_after_ray_started_is_aborted_and_stops_ray(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
) -> None:
    """Ctrl-C while the command parsed on Ray left the Ray it had started to Ray's own handler at exit (a traceback
    there at a second Ctrl-C, the local processes left running for a minute); the command stops it on its way out,
    after "Aborted.", another Ctrl-C ignored meanwhile. A Ray the caller had running is left as it is."""
    from glmnlp.cli import main
    from glmnlp.text import workers

    source = tmp_path / "in.txt"
    source.write_text("the/DT dog/NN barked/VBD ./.\nA/DT cat/NN sat/VBD ./.\n", encoding="utf-8")
    argv = ["parse", "-q", "--tagged", "-j", "2", "--batch-size", "1", "--backend", "ray", "-i", str(source)]

    def interrupted(plain: object) -> object:
        raise KeyboardInterrupt

    monkeypatch.setattr(workers, "document_from_plain", interrupted)
    ray.shutdown()
    assert main(argv) == 1 and not ray.is_initialized()
    assert capsys.readouterr().err.endswith("Aborted.\n")
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    assert main(argv) == 1 and ray.is_initialized()
    ray.shutdown()


def test_the_clusters_messages_go_to_stderr_once_glmnlp_starts_ray() -> None:
    """Ray's driver printed the cluster's error messages (a worker killed, the raylet gone and its state dumps) to
    stdout even with ``log_to_driver=False``: 1 to 44 such lines landed among the trees of ``glmnlp parse``. Once
    glmnlp starts Ray they are printed on stderr (Ray's printing function called as its error listener calls it; in
    a child process, which starts its own Ray)."""
    import subprocess
    import sys

    code = (
        "from glmnlp.glm.parallel import Executor\n"
        "ex = Executor(2, backend='ray')\n"
        "ex.map(abs, [-1, -2])\n"
        "import ray._private.worker as w\n"
        "w.print_to_stdstream({'lines': ['A worker died or was killed'], 'pid': 'raylet', 'is_err': False}, False)\n"
        "import sys; sys.stderr.flush(); ex.close()\n"
    )
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr[-2000:]
    assert "A worker died" not in run.stdout and "A worker died or was killed" in run.stderr


def _until(condition: Callable[[], bool], seconds: float) -> bool:
    """Whether ``condition()`` holds within ``seconds`` (looked at every 0.2 s: Ray's resource view lags a little)."""
    import time

    end = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > end:
            return False
        time.sleep(0.2)
    return True


def test_hosts_wait_for_all_their_cpus_holding_none(
    ray_instance: None, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture,
) -> None:
    """Actors started one by one each held a CPU while waiting for the rest: three jobs of 2 actors on a 2-CPU
    cluster each got one and waited for ever. With one of the 2 CPUs held by other work, hosts of 2 wait holding
    none, say so once, and start when the CPU is free; closed, they give both back."""
    import functools
    import threading

    from ray.util.placement_group import placement_group, remove_placement_group

    from glmnlp.glm import ray_hosts
    from glmnlp.glm.parallel import Executor, Hosts

    monkeypatch.setattr(ray_hosts, "WAIT_NOTE", 1.0)
    blocker = placement_group([{"CPU": 1}])
    assert blocker.wait(30)
    made: list[Hosts] = []
    starting = threading.Thread(target=lambda: made.append(
        Executor(2, "ray").hosts(functools.partial, [(abs, -1), (abs, -2)])), daemon=True)
    try:
        with caplog.at_level("WARNING", logger="glmnlp"):
            starting.start()
            said = _until(lambda: any("Ctrl-C" in r.getMessage() for r in caplog.records), 20)
            assert ray.available_resources().get("CPU", 0) == 1 and not made
            assert said
            waits = [r.getMessage() for r in caplog.records if "waiting for" in r.getMessage()]
            assert len(waits) == 1 and "waiting for 2 CPUs of the Ray cluster for 2 workers: other work" in waits[0]
    finally:
        remove_placement_group(blocker)
    starting.join(60)
    assert made and made[0].call("__call__") == [1, 2]
    made[0].close()
    assert _until(lambda: ray.available_resources().get("CPU", 0) == 2, 20)


def test_an_address_of_another_cluster_than_rays_is_refused(ray_instance: None) -> None:
    """An address given while Ray is connected to a cluster in this process was ignored: the work ran on the
    earlier cluster without a word. Another port is refused, naming both; the cluster's own address is accepted,
    by the node's IP or by 127.0.0.1."""
    from glmnlp.errors import ConfigError
    from glmnlp.glm.parallel import Executor

    joined = ray.get_runtime_context().gcs_address
    host, _, port = joined.rpartition(":")
    other = f"127.0.0.1:{int(port) + 1}"
    with pytest.raises(ConfigError, match=f"could not join address '{other}': .* connected to the cluster at "
                                          f"'{joined}'"):
        Executor(2, "ray", other)
    for same in (joined, f"127.0.0.1:{port}", f"localhost:{port}"):
        assert Executor(2, "ray", same).map(abs, [-1, -2]) == [1, 2]


def test_more_jobs_than_the_clusters_cpus_are_warned_of_and_each_gets_an_actor(
    ray_instance: None, caplog: pytest.LogCaptureFixture,
) -> None:
    """-j 3 on a 2-CPU Ray cluster: no warning (the local backend warns of --jobs above its CPUs), and 2 actors where
    the command said "training on 3 shards, one per worker". Now a warning, and 3 actors sharing the 2 CPUs."""
    import functools

    from glmnlp.glm.parallel import Executor

    with caplog.at_level("WARNING", logger="glmnlp"):
        executor = Executor(3, "ray")
    said = [r.getMessage() for r in caplog.records]
    assert said == ["warning: 3 jobs are more than the 2 CPUs of the Ray cluster: up to 3 Ray actors share "
                    "them, each holding a model or a shard in memory, and no faster than 2"]
    with executor.hosts(functools.partial, [(os.getpid,)] * 3) as hosts:
        assert hosts.n_workers == 3 and len(set(hosts.call("__call__"))) == 3


def test_the_share_of_a_cpu_fits_each_node() -> None:
    """Bundles of a CPU each, or of the largest share that every node holds whole: two nodes of one CPU hold 2 bundles
    of 2/3 of a CPU, not 3."""
    from glmnlp.glm.ray_hosts import cpu_share

    assert cpu_share([2.0], 2) == cpu_share([4.0], 3) == cpu_share([1.0, 1.0], 2) == 1.0
    assert cpu_share([2.0], 3) == 0.6666 and cpu_share([1.0, 1.0], 3) == 0.5 and cpu_share([], 2) == 1.0


def test_a_ray_address_variable_where_nothing_answers_is_refused_at_once(tmp_path: Path) -> None:
    """``RAY_ADDRESS`` (read by ray.init when glmnlp gives it no address) skipped the check of an address given: a
    dead one was retried for ever, Ray's retry lines every 40 s. It is checked as an address given, and named."""
    import subprocess
    import sys

    source = tmp_path / "in.txt"
    source.write_text("the/DT dog/NN barked/VBD ./.\nA/DT cat/NN sat/VBD ./.\n", encoding="utf-8")
    argv = [sys.executable, "-c", "from glmnlp.cli import main; raise SystemExit(main())", "parse", "--tagged",
            "-j", "2", "--batch-size", "1", "--backend", "ray", "-i", str(source)]
    env = {k: v for k, v in os.environ.items() if not k.startswith(("GLMNLP_", "RAY_"))}
    try:
        done = subprocess.run(argv, capture_output=True, text=True, timeout=60,
                              env={**env, "RAY_ADDRESS": "127.0.0.1:1"})
    except subprocess.TimeoutExpired:
        pytest.fail("a RAY_ADDRESS where nothing answers was retried for a minute")
    assert done.returncode != 0 and done.stdout == ""
    assert "could not join address '127.0.0.1:1' ($RAY_ADDRESS): nothing answers at 127.0.0.1:1 (" in done.stderr
    # and before any work, as --address is: input that stays in this process (-j 1) never checked it
    done = subprocess.run([*argv[:5], "-j", "1", *argv[7:]], capture_output=True, text=True, timeout=60,
                          env={**env, "RAY_ADDRESS": "127.0.0.1:1"})
    assert done.returncode == 1 and done.stdout == "" and "($RAY_ADDRESS): nothing answers" in done.stderr


def test_hosts_closed_after_ray_shut_down_start_no_new_ray(ray_instance: None) -> None:
    """Closing Ray hosts after ``ray.shutdown()`` (or at the interpreter's exit, where a pipe() left open is closed)
    killed their actors through a new local Ray ("Started a local Ray instance", then ActorHandleNotFoundError):
    nothing is left to end then, and nothing is started."""
    import functools

    from glmnlp.glm.parallel import Executor

    hosts = Executor(2, "ray").hosts(functools.partial, [(os.getpid,)] * 2)
    ray.shutdown()
    try:
        hosts.close()
        assert not ray.is_initialized()
    finally:
        ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)  # the module's instance, for what follows


def test_the_same_cluster_by_any_address_of_this_machine_is_not_refused(ray_instance: None) -> None:
    """An address of this machine the node's IP does not name (0.0.0.0, an IPv6 address of its own) was taken for
    another machine's, and the cluster Ray is connected to refused as another one."""
    from glmnlp.glm.ray_hosts import other_cluster

    port = str(ray.get_runtime_context().gcs_address).rpartition(":")[2]
    assert other_cluster(f"0.0.0.0:{port}") is None and other_cluster(f"127.0.0.1:{port}") is None
    assert other_cluster("192.0.2.77:" + port) is not None  # a documentation address: no machine here



def test_the_joined_address_is_read_from_the_environment_as_ray_init_reads_it(monkeypatch: pytest.MonkeyPatch) -> None:
    """Ray joins ``$RAY_ADDRESS`` when it is set and not empty and the address is None or ``auto``: a blank one
    (spaces) was named "a local Ray instance" while Ray tried it as an address, and with ``auto`` given the variable
    went unchecked. A blank variable is refused, naming it; ``auto`` is checked as the variable it stands for."""
    from glmnlp.errors import ConfigError
    from glmnlp.glm.ray_driver import joined_address

    monkeypatch.setenv("RAY_ADDRESS", "")
    assert joined_address(None) == "a local Ray instance"
    monkeypatch.setenv("RAY_ADDRESS", "  ")
    with pytest.raises(ConfigError, match=r"\$RAY_ADDRESS is blank \('  '\)"):
        joined_address(None)
    with pytest.raises(ConfigError, match=r"could not join address '127.0.0.1:1': nothing answers"):
        joined_address("127.0.0.1:1")  # an address given is Ray's, whatever the variable holds
    monkeypatch.setenv("RAY_ADDRESS", "127.0.0.1:1")
    with pytest.raises(ConfigError, match=r"could not join address '127.0.0.1:1' \(\$RAY_ADDRESS\)"):
        joined_address("auto")


def test_a_program_s_sigterm_handler_is_called_after_a_command_on_the_ray_backend(tmp_path: Path) -> None:
    """A program that runs a command through ``glmnlp.cli.main`` on the Ray backend, with a SIGTERM handler of its own:
    the command's ``ray.shutdown()`` put back SIGTERM's action of before Ray below Python, so a later SIGTERM ended the
    program (status -15) without calling its handler, which Python still named."""
    import subprocess
    import sys

    source = tmp_path / "in.txt"
    source.write_text("the/DT dog/NN barked/VBD ./.\nA/DT cat/NN sat/VBD ./.\n", encoding="utf-8")
    script = (
        "import os, signal, sys, time\n"
        "from glmnlp.cli import main\n"
        "signal.signal(signal.SIGTERM, lambda signum, frame: os._exit(7))\n"
        "rc = main(['parse', '-q', '--tagged', '-j', '2', '--batch-size', '1', '--backend', 'ray', '-i', 'in.txt'])\n"
        "assert rc == 0 and 'ray' in sys.modules, rc\n"
        "os.kill(os.getpid(), signal.SIGTERM)\n"
        "time.sleep(30)\n"
    )
    # a short folder of its own for Ray's sockets (a Unix socket's path may not exceed 107 bytes)
    scratch = tempfile.mkdtemp(prefix="glmnlp-ray-", dir="/tmp" if os.path.isdir("/tmp") else None)
    try:
        env = {**os.environ, "TMPDIR": scratch}
        for name in ("RAY_ADDRESS", "GLMNLP_ADDRESS", "GLMNLP_BACKEND"):
            env.pop(name, None)
        run = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=300, env=env,
                             cwd=tmp_path)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    assert run.returncode == 7, run.stderr[-3000:]
