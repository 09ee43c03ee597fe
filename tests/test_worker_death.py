"""A local worker that dies (the out-of-memory killer's SIGKILL, a crash) fails the calls waiting on it with a
:class:`glmnlp.errors.WorkerError` saying how it ended, and never leaves them waiting for ever
(glmnlp.glm.pools.LocalCall)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from glmnlp.errors import WorkerError
from glmnlp.glm.parallel import Executor
from glmnlp.glm.streams import Prefetch

_MAIN = "import sys; from glmnlp.cli import main; sys.exit(main())"


def _dies_on_two(item: int) -> int:
    if item == 2:
        os._exit(3)
    time.sleep(0.2)
    return item


class _Fragile:
    def pid(self) -> int:
        return os.getpid()

    def die(self) -> None:
        os.kill(os.getpid(), signal.SIGKILL)


def _killed_while_sending(_item: object) -> None:
    """Begin sending a 1 MB result on the pool's result pipe, send a tenth of it, then be killed: what the
    out-of-memory killer does to a worker that is sending a large result."""
    import gc
    import struct
    from multiprocessing.queues import SimpleQueue

    (results,) = [o for o in gc.get_objects() if isinstance(o, SimpleQueue)]
    os.write(results._writer.fileno(), struct.pack("!i", 1_000_000) + b"\0" * 100_000)
    os.kill(os.getpid(), signal.SIGKILL)


def test_a_worker_that_exits_fails_the_map_with_a_worker_error() -> None:
    """The standard library's ``BrokenProcessPool`` (a traceback from the command line) is a WorkerError with
    the worker's exit status."""
    with Executor(2) as ex, pytest.raises(WorkerError, match=r"before its work was done \(it exited with status 3\)"):
        ex.map(_dies_on_two, range(6))


def test_a_killed_host_fails_its_calls_with_a_worker_error() -> None:
    """A stateful host killed by SIGKILL: its call raises WorkerError naming the signal and the likely cause."""
    with Executor(2) as ex:
        hosts = ex.hosts(_Fragile, [(), ()])
        with pytest.raises(WorkerError, match=r"killed by signal 9 \(SIGKILL\), as the system's out-of-memory"):
            hosts.call("die")
        hosts.close(abort=True)


_SENDING = (
    "import sys; sys.path.insert(0, sys.argv[1])\n"
    "from glmnlp.errors import WorkerError\n"
    "from glmnlp.glm.parallel import Executor\n"
    "from test_worker_death import _killed_while_sending\n"
    "with Executor(int(sys.argv[2])) as ex:\n"
    "    try:\n"
    "        ex.map(_killed_while_sending, [0])\n"
    "    except WorkerError as exc:\n"
    "        print(exc, flush=True)\n"
)


@pytest.mark.parametrize("workers", [2, 3])
def test_a_worker_killed_while_sending_its_result_is_a_worker_error(workers: int) -> None:
    """The pool's thread had read part of the result and waited for the rest for ever: the call never ended
    (``future.result()`` with no timeout) and neither did the command. Run in a child process, which the old
    code leaves waiting until the timeout."""
    try:
        run = subprocess.run([sys.executable, "-c", _SENDING, str(Path(__file__).parent), str(workers)],
                             capture_output=True, text=True, timeout=60)
    except subprocess.TimeoutExpired:
        raise AssertionError("the call was still waiting 60 s after its worker was killed") from None
    assert run.stderr == ""
    assert run.stdout.startswith("a worker process died before its work was done (killed by signal 9 (SIGKILL)")


def _children(pid: int) -> list[int]:
    """Processes whose parent is ``pid`` (Linux /proc)."""
    out = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat", encoding="ascii", errors="replace") as f:
                    if int(f.read().rpartition(")")[2].split()[1]) == pid:
                        out.append(int(entry))
            except OSError:
                continue
    return out


@pytest.mark.slow
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_cli_parse_with_a_killed_worker_says_so_in_one_line(tmp_path: Path) -> None:
    """``glmnlp parse -j 2`` whose worker is killed (as by the out-of-memory killer) ends with status 1 and one
    line saying what happened, not a ``BrokenProcessPool`` traceback."""
    text = tmp_path / "in.txt"
    text.write_text("The old man saw the dog with a telescope in the park near the river.\n" * 3000, encoding="utf-8")
    proc = subprocess.Popen([sys.executable, "-c", _MAIN, "parse", "--lines", "-j", "2", "-q", "-i", str(text)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, start_new_session=True)
    try:
        deadline = time.monotonic() + 60
        workers: list[int] = []
        while not workers and time.monotonic() < deadline and proc.poll() is None:
            # the workers are the forkserver's children: the grandchildren of the command
            workers = [w for c in _children(proc.pid) for w in _children(c)]
            time.sleep(0.1)
        assert workers, "no worker started"
        time.sleep(3)  # the worker has loaded the model and parses
        os.kill(workers[0], signal.SIGKILL)
        _, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    lines = err.decode().splitlines()
    assert proc.returncode == 1, err
    assert "Traceback" not in err.decode()
    assert lines[-1].startswith("error: a worker process died before its work was done (killed by signal 9 (SIGKILL)")


def test_a_call_submitted_after_a_worker_died_is_a_worker_error() -> None:
    """Submitting to a pool that a dead worker broke raised the standard library's BrokenProcessPool (the map above
    met it when the worker died before its next item was sent)."""
    from glmnlp.glm import pools

    pool = pools.start_pool(1, pools.mp_context())
    try:
        with pytest.raises(WorkerError, match=r"it exited with status 3"):
            pools.submit(pool, _dies_on_two, 2).result()
        with pytest.raises(WorkerError, match=r"it exited with status 3"):
            pools.submit(pool, _dies_on_two, 0)
    finally:
        pools.stop_pools([pool], abort=True)


_UNAWAITED = (
    "import sys; sys.path.insert(0, sys.argv[1])\n"
    "from glmnlp.glm import pools\n"
    "from test_worker_death import _killed_while_sending\n"
    "pool = pools.start_pool(1, pools.mp_context())\n"
    "pools.submit(pool, _killed_while_sending, 0)\n"
    "pools.stop_pools([pool])\n"
    "print('stopped', flush=True)\n"
)


def test_a_normal_shutdown_after_a_worker_died_while_sending_returns() -> None:
    """A pool shut down without abort waits for its running calls: one nobody awaited whose worker was killed while
    sending its result left that wait joining the pool's thread for ever. Run in a child process, which the old code
    leaves waiting until the timeout."""
    try:
        run = subprocess.run([sys.executable, "-c", _UNAWAITED, str(Path(__file__).parent)],
                             capture_output=True, text=True, timeout=60)
    except subprocess.TimeoutExpired:
        raise AssertionError("the shutdown was still waiting 60 s after the worker was killed") from None
    assert (run.returncode, run.stdout, run.stderr) == (0, "stopped\n", "")


class _SendsThenDies:
    def run(self, k: int) -> int:
        if k == 1:
            _killed_while_sending(k)
        return k


def test_a_worker_killed_while_the_input_waits_is_a_worker_error_at_once() -> None:
    """imap_any polls its workers while its input waits for more (a producer writing a line at a time to
    ``glmnlp parse -j 2``): each wait was shorter than the one after which it looks for a dead worker, so a worker
    killed while sending its result was never found and the command waited as long as the input did (here 30 s)."""
    import threading

    release = threading.Event()

    def items() -> object:
        yield 0
        yield 1
        release.wait(30)

    start = time.monotonic()
    with Executor(2) as ex:
        hosts = ex.hosts(_SendsThenDies, [(), ()])
        try:
            with pytest.raises(WorkerError, match="killed by signal 9"):
                for _ in hosts.imap_any("run", Prefetch(items())):  # read on a thread, as glmnlp parse reads
                    pass
        finally:
            release.set()
            hosts.close(abort=True)
    assert time.monotonic() - start < 15


def test_a_worker_that_cannot_start_its_thread_says_so(tmp_path: Path) -> None:
    """A worker whose initializer could not start its thread (``ulimit -u``: "can't start new thread") printed the
    initializer's traceback and exited 0, and the caller said "it exited with status 0"; it exits with its own
    status, which the caller names: no memory or no processes left."""
    from glmnlp.glm import pools

    script = ("import threading, sys\nfrom glmnlp.glm import pools\n"
              "def refused(thread): raise RuntimeError(\"can't start new thread\")\n"
              "threading.Thread.start = refused\npools._start_worker(None)\n")
    run = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60)
    assert (run.returncode, run.stderr) == (pools._NO_THREAD_STATUS, "")
    with Executor(2) as ex, pytest.raises(WorkerError, match=r"\(it could not start a thread: out of memory, or of "
                                          r"processes \(the limit ulimit -u counts threads too\): use fewer jobs"):
        ex.map(_exits_as_without_a_thread, range(2))


def _exits_as_without_a_thread(_item: int) -> None:
    from glmnlp.glm import pools

    os._exit(pools._NO_THREAD_STATUS)


def test_threads_and_processes_that_cannot_start_are_one_line_errors_naming_both_causes(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path,
) -> None:
    """Under ``ulimit -u``, ``parse -j 2`` ended in a traceback (the input's thread), ``Aborted.`` (the forkserver's
    fork failed: its pipe closed, an EOFError, which click takes for Ctrl-D) or "out of memory" alone."""
    import threading
    from concurrent.futures import ProcessPoolExecutor

    from glmnlp.cli import main
    from glmnlp.glm import pools

    start = threading.Thread.start

    def refused(thread: threading.Thread) -> None:
        if thread.name == "glmnlp-input":
            raise RuntimeError("can't start new thread")
        start(thread)

    monkeypatch.setattr(threading.Thread, "start", refused)
    with pytest.raises(MemoryError, match=r"^cannot start a thread to read the input \(can't start new thread\): "
                                          r"out of memory, or of processes"):
        Prefetch(iter([1]))
    text = tmp_path / "in.txt"
    text.write_text("The dog barked.\n\nA cat sat.\n", encoding="utf-8")
    assert main(["parse", "-q", "-j", "2", "--batch-size", "1", "-i", str(text)]) == 1
    assert capsys.readouterr().err == f"error: cannot start a thread to read the input (can't start new thread): " \
                                      f"{pools.NO_ROOM}\n"
    monkeypatch.undo()

    def no_fork(*_args: object) -> None:
        raise EOFError

    pool = pools.start_pool(1, pools.mp_context())
    monkeypatch.setattr(ProcessPoolExecutor, "submit", no_fork)
    with pytest.raises(MemoryError, match=r"^cannot start a worker process \(the forkserver could not fork\): out of"):
        pools.submit(pool, abs, -1)
    monkeypatch.undo()
    pools.stop_pools([pool], abort=True)


def test_the_pool_thread_that_cannot_start_a_thread_leaves_the_message_to_the_command(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
) -> None:
    """Under ``ulimit -v`` the process pool's own thread died starting a thread and Python printed its traceback
    before the command's one-line error (which the waiting call raises for it); another thread's death is printed as
    Python prints it, and the hook is put back when the command ends."""
    import threading

    from glmnlp import cli

    class _ExecutorManagerThread(threading.Thread):  # the standard library's name for a process pool's thread
        def run(self) -> None:
            raise RuntimeError("can't start new thread")

    class Other(threading.Thread):
        def run(self) -> None:
            raise RuntimeError("can't start new thread")

    def run(_argv: object) -> int:
        for thread in (_ExecutorManagerThread(name="pool"), Other(name="other")):
            thread.start()
            thread.join()
        return 0

    monkeypatch.setattr(threading, "excepthook", threading.__excepthook__)  # Python's own (not pytest's)
    before = threading.excepthook
    monkeypatch.setattr(cli, "_run", run)
    assert cli.main(["parse", "x"]) == 0
    err = capsys.readouterr().err
    assert err.count("Traceback") == 1 and "Exception in thread other:" in err and threading.excepthook is before, err


@pytest.mark.parametrize(("variable", "given"), [("OPENBLAS_NUM_THREADS", None), ("OPENBLAS_NUM_THREADS", "3"),
                                               ("OMP_NUM_THREADS", "2"), ("MKL_NUM_THREADS", "4")])
def test_the_command_s_workers_use_one_linear_algebra_thread(variable: str, given: str | None) -> None:
    """Each worker of the command started an idle OpenBLAS pool of a thread per CPU (N workers on N CPUs: N * N
    threads against ``ulimit -u``); they get one, unless the user set the number (OpenBLAS reads OMP_NUM_THREADS
    after its own variable: setting OPENBLAS_NUM_THREADS over a user's OMP_NUM_THREADS=2 overrode it), and the
    command's own environment is left as it was."""
    script = ("import os\nfrom glmnlp.glm import pools\npools.ignore_sigint_in_forkserver()\n"
              "pool = pools.start_pool(1, pools.mp_context())\n"
              "name = 'OPENBLAS_NUM_THREADS'\nprint(pools.submit(pool, os.getenv, name).result(), os.getenv(name))\n"
              "pools.stop_pools([pool])\n")
    env = {k: v for k, v in os.environ.items() if k not in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS",
                                                            "MKL_NUM_THREADS")}
    if given is not None:
        env[variable] = given
    run = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120, env=env)
    # (the script prints OPENBLAS_NUM_THREADS: OpenBLAS reads OMP_NUM_THREADS after it, not MKL's, so a cluster
    # profile's MKL_NUM_THREADS turned the one thread off)
    worker = "None" if variable == "OMP_NUM_THREADS" else given if variable == "OPENBLAS_NUM_THREADS" and given else 1
    mine = given if variable == "OPENBLAS_NUM_THREADS" else None
    assert (run.returncode, run.stdout) == (0, f"{worker} {mine}\n"), run.stderr
