"""Stopping local workers (glmnlp.glm.pools): Ctrl-C is the caller's, and an interrupted caller
terminates its workers at once, so ``glmnlp ... -j 2`` ends with ``Aborted.`` and nothing else."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import nullcontext, suppress
from pathlib import Path

import pytest
from cli_fixtures import wait_until_the_writer_waits

from glmnlp.glm.parallel import Executor
from glmnlp.treebank.corpus import sample_trees
from glmnlp.treebank.trees import to_bracket

_MAIN = "import sys; from glmnlp.__main__ import run; sys.exit(run())"  # the glmnlp script's entry point
# the command as a terminal starts it: SIGINT and SIGHUP at their defaults, whatever this test process inherited (a
# suite run in the background of a non-interactive shell ignores SIGINT, under nohup SIGHUP too, and a child keeps
# what its parent ignores, so the signals these tests send would be lost, whatever the command does)
_MAIN_FROM_A_TERMINAL = ("import signal; signal.signal(signal.SIGINT, signal.default_int_handler); "
                         "signal.signal(signal.SIGHUP, signal.SIG_DFL); " + _MAIN)


@pytest.fixture
def ctrl_c_raises() -> Iterator[None]:
    """SIGINT raises KeyboardInterrupt in this process while the test runs, as in a program started from a terminal
    (not so when the suite itself was started with SIGINT ignored, in the background)."""
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


class _Sleeper:
    def pid(self) -> int:
        return os.getpid()

    def sleep(self, seconds: float) -> int:
        time.sleep(seconds)
        return os.getpid()


def _pid(_item: object) -> int:
    return os.getpid()


def _nap(seconds: float) -> int:
    time.sleep(seconds)
    return os.getpid()


def _stat(pid: int) -> tuple[str, int, int] | None:
    """(state, parent, session) of a process, None once it is gone."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii", errors="replace") as f:
            fields = f.read().rpartition(")")[2].split()
    except OSError:
        return None
    return fields[0], int(fields[1]), int(fields[3])


def _alive(pid: int) -> bool:
    stat = _stat(pid)
    return stat is not None and stat[0] != "Z"  # a zombie has ended; only its exit status is left


def _gone(pids: list[int], within: float = 10.0) -> bool:
    deadline = time.monotonic() + within
    while any(_alive(p) for p in pids):
        if time.monotonic() > deadline:
            return False
        time.sleep(0.1)
    return True


def _session(leader: int) -> list[int]:
    """The live processes of the session ``leader`` started: itself, its helpers and their workers."""
    out = []
    for name in os.listdir("/proc"):
        if name.isdigit() and (stat := _stat(int(name))) is not None and stat[2] == leader and stat[0] != "Z":
            out.append(int(name))
    return out


def test_local_workers_ignore_sigint() -> None:
    """SIGINT to idle workers (Ctrl-C reaches the whole process group) neither kills them nor breaks the pool."""
    with Executor(2) as ex, ex.hosts(_Sleeper, [(), ()]) as hosts:
        pids = hosts.call("pid")
        mapped = set(ex.map(_pid, range(8)))
        for pid in {*pids, *mapped}:
            os.kill(pid, signal.SIGINT)
        time.sleep(0.5)
        assert hosts.call("pid") == pids
        assert len(ex.map(_pid, range(8))) == 8  # no BrokenProcessPool
        assert all(_alive(p) for p in {*pids, *mapped})


@pytest.mark.parametrize("how", ["with", "finally"])
def test_an_interrupted_caller_terminates_busy_hosts(how: str) -> None:
    """KeyboardInterrupt while the workers run long calls: leaving the block (``with``, or ``close()`` in a
    ``finally`` as the training loops do) terminates them instead of waiting for the calls to finish."""
    ex = Executor(2)
    started = time.monotonic()
    pids: list[int] = []
    with pytest.raises(KeyboardInterrupt):
        hosts = ex.hosts(_Sleeper, [(), ()])
        try:
            with hosts if how == "with" else nullcontext():
                pids = hosts.call("pid")
                hosts.submit(0, "sleep", 60)
                hosts.submit(1, "sleep", 60)
                time.sleep(0.3)
                raise KeyboardInterrupt
        finally:
            if how == "finally":
                hosts.close()
    assert time.monotonic() - started < 20
    assert _gone(pids, within=5)


def test_ctrl_c_in_the_caller_terminates_the_executor_pool(ctrl_c_raises: None) -> None:
    """SIGINT to this process only while ``Executor.imap`` waits on long calls: leaving the ``with`` block
    terminates the workers instead of waiting for the calls to finish."""
    ex = Executor(2)
    timer = threading.Timer(1.0, os.kill, (os.getpid(), signal.SIGINT))
    started = time.monotonic()
    pids: list[int] = []
    with pytest.raises(KeyboardInterrupt), ex:
        pids = sorted(set(ex.map(_pid, range(8))))
        timer.start()
        list(ex.imap(_nap, [60, 60, 60, 60]))
    timer.join()
    assert time.monotonic() - started < 20
    assert _gone(pids, within=5)


def test_hosts_dropped_without_close_terminate_their_workers() -> None:
    """Hosts nobody can reach any more terminate their busy workers when collected (nothing can use the
    results), instead of leaving them to finish their calls."""
    import gc

    ex = Executor(2)
    hosts = ex.hosts(_Sleeper, [(), ()])
    pids = hosts.call("pid")
    hosts.submit(0, "sleep", 60)
    hosts.submit(1, "sleep", 60)
    del hosts
    gc.collect()
    assert _gone(pids, within=5)


def test_pools_left_open_at_exit_are_terminated(tmp_path: Path) -> None:
    """A program that exits with an executor's workers still busy (never closed) ends at once and quietly:
    the pools are stopped before the interpreter joins their threads."""
    code = (
        "import sys; sys.path.insert(0, sys.argv[1])\n"
        "from glmnlp.glm.parallel import Executor\n"
        "from test_worker_shutdown import _Sleeper\n"
        "ex = Executor(2)\n"
        "hosts = ex.hosts(_Sleeper, [(), ()])\n"
        "print(*hosts.call('pid'), flush=True)\n"
        "hosts.submit(0, 'sleep', 60)\n"
        "hosts.submit(1, 'sleep', 60)\n"
        "ex.map(abs, [-1, -2, -3])\n"
    )
    started = time.monotonic()
    run = subprocess.run([sys.executable, "-c", code, str(Path(__file__).parent)], capture_output=True, text=True,
                         timeout=120)
    assert time.monotonic() - started < 30
    assert (run.returncode, run.stderr) == (0, "")
    assert _gone([int(p) for p in run.stdout.split()], within=5)


def _interrupt_training(tmp_path: Path, delay: float, how: signal.Signals = signal.SIGINT,
                        group: bool = True) -> tuple[int, str, bool, float] | None:
    """Start ``glmnlp parser train -j 2`` in a session of its own, send SIGINT to its process group
    ``delay`` s after its first worker exists, as a terminal does on Ctrl-C. Returns (status, stderr, whether
    the session's processes all ended, seconds from the signal to exit), or None if training ended first."""
    args = ["parser", "train", "--train", str(tmp_path / "train.trees"), "--dev", str(tmp_path / "dev.trees"),
            "--tags", "tagger", "--kind", "combined", "--epochs", "1", "-j", "2", "--out", str(tmp_path / "m")]
    # -X faulthandler: a command still running 30 s after Ctrl-C is sent SIGABRT, which prints every thread's stack
    proc = subprocess.Popen([sys.executable, "-X", "faulthandler", "-c", _MAIN_FROM_A_TERMINAL, *args],
                            stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, start_new_session=True)
    try:
        deadline = time.monotonic() + 60
        # the workers are the forkserver's children, not the command's
        while not any((s := _stat(p)) is not None and s[1] != proc.pid for p in _session(proc.pid) if p != proc.pid):
            if proc.poll() is not None or time.monotonic() > deadline:
                break
            time.sleep(0.05)
        time.sleep(delay)
        if proc.poll() is not None:
            proc.communicate()
            return None
        (os.killpg if group else os.kill)(proc.pid, how)
        sent = time.monotonic()
        try:
            _, err = proc.communicate(timeout=30)
        except subprocess.TimeoutExpired:
            alive = [(p, _stat(p)) for p in _session(proc.pid)]
            os.kill(proc.pid, signal.SIGABRT)
            _, err = proc.communicate(timeout=30)
            raise AssertionError(f"no exit 30 s after Ctrl-C; processes {alive}; stderr:\n{err.decode()}") from None
        took = time.monotonic() - sent
        deadline = time.monotonic() + 10
        while _session(proc.pid) and time.monotonic() < deadline:
            time.sleep(0.1)
        return proc.returncode, err.decode(), not _session(proc.pid), took
    finally:
        if proc.poll() is None or _session(proc.pid):
            try:
                os.killpg(proc.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            proc.wait()


@pytest.mark.slow
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_cli_ctrl_c_during_parallel_training_prints_only_aborted(tmp_path: Path) -> None:
    """Ctrl-C during ``parser train -j 2`` (the jackknife folds, then the generative terms): the command says
    ``Aborted.``, prints no worker traceback, exits promptly and leaves no process behind."""
    (tmp_path / "train.trees").write_text("\n".join(to_bracket(t) for t in sample_trees("train")[:150]) + "\n")
    (tmp_path / "dev.trees").write_text("\n".join(to_bracket(t) for t in sample_trees("dev")[:30]) + "\n")
    interrupted = 0
    for delay in (0.5, 2.0, 0.2, 0.0):  # a later moment first; sooner if training ended before the signal
        result = _interrupt_training(tmp_path, delay)
        if result is None:
            continue
        rc, err, ended, took = result
        assert "Traceback" not in err and "Exception ignored" not in err, err
        # ended by SIGINT once it has cleaned up, as an interrupted program does (status 1 let a shell loop go on)
        assert err.endswith("Aborted.\n") and rc == -signal.SIGINT, err
        assert took < 15, (took, err)
        assert ended, f"processes of the interrupted command are still running; stderr: {err!r}"
        interrupted += 1
        if interrupted == 2:
            break
    assert interrupted, "training always ended before the signal"


@pytest.mark.slow
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_cli_sighup_to_the_whole_group_prints_only_aborted(tmp_path: Path) -> None:
    """A closed terminal hangs up the whole process group: the resource tracker died of it while the command stopped
    its workers, and a new one, which did not know their shared-memory names, printed ten KeyError tracebacks after
    ``Aborted.``. The tracker and the forkserver ignore SIGHUP now (the command ends them itself)."""
    (tmp_path / "train.trees").write_text("\n".join(to_bracket(t) for t in sample_trees("train")[:150]) + "\n")
    (tmp_path / "dev.trees").write_text("\n".join(to_bracket(t) for t in sample_trees("dev")[:30]) + "\n")
    for delay in (0.5, 0.2, 0.0):
        result = _interrupt_training(tmp_path, delay, signal.SIGHUP, group=True)
        if result is None:
            continue
        rc, err, ended, took = result
        assert "Traceback" not in err and "KeyError" not in err and err.endswith("Aborted.\n"), (rc, err)
        assert rc == 128 + signal.SIGHUP and took < 15 and ended, (rc, took, err)
        return
    pytest.fail("training always ended before the signal")


@pytest.mark.slow
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
@pytest.mark.parametrize("how", [signal.SIGTERM, signal.SIGHUP], ids=["SIGTERM", "SIGHUP"])
def test_cli_sigterm_and_sighup_end_parallel_training_as_ctrl_c_does(tmp_path: Path, how: signal.Signals) -> None:
    """``kill`` (SIGTERM) or a closed terminal (SIGHUP) to the command alone, not its workers: it ended at once and
    left its workers, the forkserver and the resource tracker running for ever; now it ends as Ctrl-C does (no
    process left behind), with the status a shell gives that signal (128 + its number)."""
    (tmp_path / "train.trees").write_text("\n".join(to_bracket(t) for t in sample_trees("train")[:150]) + "\n")
    (tmp_path / "dev.trees").write_text("\n".join(to_bracket(t) for t in sample_trees("dev")[:30]) + "\n")
    for delay in (0.5, 0.2, 0.0):
        result = _interrupt_training(tmp_path, delay, how, group=False)
        if result is None:
            continue
        rc, err, ended, took = result
        assert "Traceback" not in err and err.endswith("Aborted.\n") and rc == 128 + how, (rc, err)
        assert took < 15 and ended, (took, err)
        return
    pytest.fail("training always ended before the signal")


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
@pytest.mark.parametrize("second", [signal.SIGTERM, signal.SIGINT], ids=["SIGTERM", "SIGINT"])
def test_a_second_signal_while_the_command_ends_ends_it_with_the_first_one_s_status(
    tmp_path: Path, second: signal.Signals,
) -> None:
    """Ctrl-C to a command whose output pipe is full and unread: ``Aborted.``, then it waits to write the rest. A
    second signal then printed a traceback (``KeyboardInterrupt`` in ``main``'s clean-up) or ended it by itself
    (SIGTERM: status -15); ignored, it left a command that only SIGKILL could end. It ends the command at once, as
    the first signal would have: by SIGINT."""
    text = tmp_path / "in.txt"
    text.write_text("The old man saw the dog with a telescope near the river bank today.\n" * 2000, encoding="utf-8")
    proc = subprocess.Popen([sys.executable, "-c", _MAIN_FROM_A_TERMINAL, "parse", "--lines", "-q", "-j", "1",
                             "-f", "json", "--batch-size", "1", "-i", str(text)], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, start_new_session=True)
    try:
        deadline = time.monotonic() + 60  # until its output (about 2 KB a sentence) has filled the pipe nobody reads
        wait_until_the_writer_waits(proc.stdout, deadline)
        os.kill(proc.pid, signal.SIGINT)
        assert proc.stderr is not None
        err = b""
        while b"Aborted." not in err and (line := proc.stderr.readline()):  # its work stopped: it ends
            err += line
        with suppress(ProcessLookupError):
            os.kill(proc.pid, second)
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            pytest.fail("the command did not end after a second signal")
        err += proc.stderr.read()
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert err.decode().strip() == "Aborted." and proc.returncode == -signal.SIGINT, (proc.returncode, err)


def test_an_abort_that_is_no_signal_ends_the_command_with_status_1() -> None:
    """click turns an ``EOFError`` out of a command into the same ``Abort`` as Ctrl-C: that is an error (status 1),
    not an interrupted command ended by SIGINT."""
    code = ("import sys\nimport glmnlp.text.loading as loading\n"
            "def eof(*args, **kwargs): raise EOFError\n"
            "loading.load = eof\nfrom glmnlp.__main__ import run\nsys.exit(run())")
    run = subprocess.run([sys.executable, "-c", code, "parse", "A dog."], capture_output=True, text=True, timeout=120)
    assert (run.returncode, run.stderr.strip()) == (1, "Aborted."), run.stderr


def test_main_in_a_program_of_its_own_leaves_its_signal_handlers_as_they_were(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], ctrl_c_raises: None,
) -> None:
    """``glmnlp.cli.main()`` called by a program (no arguments: the process's) left, after a Ctrl-C, handlers that
    killed the process at its next signal (its own ``except KeyboardInterrupt`` and ``finally`` never ran), and
    raised the interrupt again. Only the ``glmnlp`` command (``console``) ends so; ``main`` returns 1."""
    from glmnlp import cli

    def interrupted(_argv: object) -> int:
        raise KeyboardInterrupt

    monkeypatch.setattr(cli, "_run", interrupted)
    before = {s: signal.getsignal(s) for s in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)}
    assert cli.main() == 1
    assert {s: signal.getsignal(s) for s in before} == before
    assert capsys.readouterr().err.endswith("Aborted.\n")


def test_aborting_a_pool_whose_caller_cancelled_queued_calls_raises_nothing_in_its_thread(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``Executor.imap`` left by Ctrl-C cancels its queued calls, then the pool is aborted. Python 3.11's pool
    thread, woken by the terminated worker, sets ``BrokenProcessPool`` on every call it holds, and a cancelled
    one raises ``InvalidStateError`` there: a traceback printed from the thread after ``Aborted.``, in about
    one Ctrl-C of four. Here each terminated worker is waited for, so the thread always sees it first."""
    from glmnlp.glm import pools

    pool = pools.start_pool(1, pools.mp_context())
    futures = [pools.submit(pool, _nap, 30).future for _ in range(6)]
    while not all(f.running() for f in futures[:2]):  # one call in the worker, the call queue full behind it
        time.sleep(0.01)
    assert [f.cancel() for f in futures] == [False, False, True, True, True, True]
    (process,) = pool._processes.values()
    terminate = type(process).terminate

    def terminate_and_wait(self: object) -> None:
        terminate(self)  # type: ignore[arg-type]
        self.join(5)  # type: ignore[attr-defined]
        time.sleep(0.2)  # the pool's thread wakes on the dead worker before anything else reaches it

    monkeypatch.setattr(type(process), "terminate", terminate_and_wait)
    errors: list[BaseException | None] = []
    monkeypatch.setattr(threading, "excepthook", lambda args: errors.append(args.exc_value))
    pools.stop_pools([pool], abort=True)
    assert errors == []
    assert all(f.done() for f in futures) and not process.is_alive()


def _half_sent_result(marker: str) -> None:
    """Begin sending a 1 MB result on the pool's result pipe, send a tenth of it, then wait: what a worker
    terminated while it sends a large result leaves behind (the pool's thread has read part of a message)."""
    import gc
    import struct
    from multiprocessing.queues import SimpleQueue

    (results,) = [o for o in gc.get_objects() if isinstance(o, SimpleQueue)]
    os.write(results._writer.fileno(), struct.pack("!i", 1_000_000) + b"\0" * 100_000)
    Path(marker).touch()
    time.sleep(120)


_HALF_SENT = (
    "import sys, time; sys.path.insert(0, sys.argv[1])\n"
    "from pathlib import Path\n"
    "from glmnlp.glm import pools\n"
    "from test_worker_shutdown import _half_sent_result\n"
    "pool = pools.start_pool(1, pools.mp_context())\n"
    "future = pools.submit(pool, _half_sent_result, sys.argv[2]).future\n"
    "while not Path(sys.argv[2]).exists():\n"
    "    time.sleep(0.01)\n"
    "time.sleep(0.2)\n"
    "pools.stop_pools([pool], abort=True)\n"
    "print(type(future.exception()).__name__, flush=True)\n"
)


def test_aborting_a_pool_whose_worker_was_sending_a_result_returns(tmp_path: Path) -> None:
    """A worker terminated half way through sending its result left the pool's thread reading the rest for
    ever (this process held the pipe's other end open), and ``stop_pools`` joining the thread never
    returned: ``parser train -j 2 --kind combined`` hung after Ctrl-C about one time in 25. Run in a child
    process, which the old code leaves hanging until the timeout."""
    try:
        run = subprocess.run([sys.executable, "-c", _HALF_SENT, str(Path(__file__).parent), str(tmp_path / "sent")],
                             capture_output=True, text=True, timeout=60)
    except subprocess.TimeoutExpired:
        raise AssertionError("stop_pools did not return within 60 s") from None
    assert (run.returncode, run.stdout, run.stderr) == (0, "BrokenProcessPool\n", "")


_KILLED_CALLER = """
import os, sys, time
from glmnlp.glm.parallel import Executor
with Executor(2) as ex, ex.hosts(Sleeper, [(), ()]) as hosts:
    print(*hosts.call("pid"), flush=True)
    hosts.submit(0, "sleep", 120)
    time.sleep(120)
"""


def test_workers_end_when_their_caller_is_killed(tmp_path: Path) -> None:
    """SIGKILL to the caller (the out-of-memory killer's signal, which no handler sees) ends its workers, busy and
    idle, and the forkserver with them: they waited on their queues for ever, holding their memory."""
    (tmp_path / "sleeper.py").write_text(
        "import os, time\n\nclass Sleeper:\n    def pid(self):\n        return os.getpid()\n\n"
        "    def sleep(self, seconds):\n        time.sleep(seconds)\n        return os.getpid()\n", encoding="utf-8")
    script = "from sleeper import Sleeper\n" + _KILLED_CALLER
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(tmp_path), *sys.path])}
    caller = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                              env=env, text=True, start_new_session=True)
    try:
        assert caller.stdout is not None
        pids = [int(p) for p in caller.stdout.readline().split()]
        assert len(pids) == 2 and all(_alive(p) for p in pids)
        time.sleep(0.5)
        caller.kill()
        caller.wait()
        assert _gone(pids, within=10), "the workers outlived their killed caller"
        assert _gone(_session(caller.pid), within=10), "the forkserver or the resource tracker outlived it"
    finally:
        for pid in _session(caller.pid):
            os.kill(pid, signal.SIGKILL)
