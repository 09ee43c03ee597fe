"""Command-line reliability: empty training files, full disks, few file descriptors or little memory, closed pipes
and standard streams, an output that is its own input, missing packages, paths the system refuses; each is one
line, never a traceback.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from glmnlp.cli import main
from toy_trees import TINY


_MAIN = "import sys; from glmnlp.cli import main; sys.exit(main())"


@pytest.mark.parametrize("empty", ["train", "dev"])
def test_cli_parser_train_refuses_an_empty_tree_file(
    tmp_path: Path, empty: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """``parser train --train EMPTY`` (or --dev EMPTY) is an error naming the file; no model is written."""
    good, nothing = tmp_path / "toy.trees", tmp_path / "empty.trees"
    good.write_text("\n".join(TINY) + "\n")
    nothing.write_text("\n \n")
    files = {"train": good, "dev": good, empty: nothing}
    rc = main(["parser", "train", "--train", str(files["train"]), "--dev", str(files["dev"]),
               "--out", str(tmp_path / "m"), "--epochs", "1"])
    assert rc == 1
    assert capsys.readouterr().err == f"error: {nothing}: no trees in this file\n"
    assert not (tmp_path / "m").exists()


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full (every write fails: no space)")
@pytest.mark.parametrize("args", [["parse", "-q", "The dog barked."], ["tag"]])
def test_cli_output_to_a_full_disk_is_one_line(args: list[str]) -> None:
    """``glmnlp parse ... > file`` on a full disk (here /dev/full) printed a traceback from the write, or from Python's
    flush at exit (``Exception ignored ...``, status 120); now one line and status 1."""
    with open("/dev/full", "w") as full:
        run = subprocess.run([sys.executable, "-c", _MAIN, *args], input="The dog barked .\n", stdout=full,
                             stderr=subprocess.PIPE, text=True, timeout=120)
    assert (run.returncode, run.stderr) == (1, "error: the output cannot be written: No space left on device\n")


@pytest.mark.parametrize("args", [["parse", "-q", "The dog barked."], ["tag"], ["--version"]])
def test_cli_output_open_for_reading_only_is_one_line(tmp_path: Path, args: list[str]) -> None:
    """A standard output inherited open for reading (``glmnlp parse ... 1<file``): every write is EBADF, and every
    command printed a traceback. One line, as for a full disk."""
    (tmp_path / "out.txt").write_text("x\n")
    with open(tmp_path / "out.txt") as read_only:
        run = subprocess.run([sys.executable, "-c", _MAIN, *args], input="The dog barked .\n", stdout=read_only,
                             stderr=subprocess.PIPE, text=True, timeout=120)
    assert (run.returncode, run.stderr) == (1, "error: the output cannot be written: Bad file descriptor\n")


def test_cli_too_few_file_descriptors_for_the_workers_is_one_line(tmp_path: Path) -> None:
    """``ulimit -n 20`` and ``parse -j 2``: starting the workers ran out of file descriptors, a traceback from the
    pool. One line that says what to do."""
    import resource

    (tmp_path / "in.txt").write_text("The dog barked.\n" * 8)
    limit = lambda: resource.setrlimit(resource.RLIMIT_NOFILE, (20, 20))  # noqa: E731
    run = subprocess.run([sys.executable, "-c", _MAIN, "parse", "-q", "-j", "2", "--batch-size", "2", "--lines", "-i",
                          str(tmp_path / "in.txt")], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                         timeout=120, preexec_fn=limit)
    assert run.returncode == 1 and run.stderr.startswith(
        "error: Too many open files: raise the limit (ulimit -n) or use fewer jobs (--jobs 1)\n"), run.stderr


def test_cli_descriptors_run_out_of_as_a_worker_starts_is_the_one_line_alone(tmp_path: Path) -> None:
    """``ulimit -n 28`` and ``parse -j 2``: the descriptors ran out after the request for a worker reached the
    forkserver, which printed its traceback (``EOFError`` in ``recvfds``) above the command's one line. Each limit
    just under the one the command needs gives that line alone (or the command runs, where it is enough)."""
    import functools
    import resource

    (tmp_path / "in.txt").write_text("The dog barked.\n" * 8)
    outcomes = []
    for n in range(22, 31):
        run = subprocess.run([sys.executable, "-c", _MAIN, "parse", "-q", "-j", "2", "--batch-size", "2", "--lines",
                              "-i", str(tmp_path / "in.txt")], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                             text=True, timeout=120,
                             preexec_fn=functools.partial(resource.setrlimit, resource.RLIMIT_NOFILE, (n, n)))
        outcomes.append((n, run.returncode, run.stderr))
    line = "error: Too many open files: raise the limit (ulimit -n) or use fewer jobs (--jobs 1)\n"
    assert all((code, err) in ((1, line), (0, "")) for _, code, err in outcomes), [
        (n, code, err[-300:]) for n, code, err in outcomes if (code, err) not in ((1, line), (0, ""))]


def test_a_thread_the_workers_cannot_start_is_out_of_memory_and_the_pool_stops(monkeypatch: pytest.MonkeyPatch) -> None:
    """Under ``ulimit -v`` the pool's thread could not start ("can't start new thread", a traceback), and stopping the
    pool then failed in its turn ("cannot join thread before it is started"). It is a MemoryError, which the command
    line says in one line, and the pool stops."""
    import threading

    from glmnlp.glm import pools

    pool = pools.start_pool(1, pools.mp_context())
    start = threading.Thread.start

    def refused(thread: threading.Thread) -> None:
        if thread.name.startswith(("ThreadPoolExecutor", "Thread-")) or "manager" in thread.name.lower():
            raise RuntimeError("can't start new thread")
        start(thread)

    monkeypatch.setattr(threading.Thread, "start", refused)
    with pytest.raises(MemoryError, match="cannot start a thread for the workers"):
        pools.submit(pool, abs, -1)
    monkeypatch.undo()
    pools.stop_pools([pool], abort=True)


def test_a_call_whose_pool_thread_died_is_out_of_memory_not_a_wait_for_ever() -> None:
    """``parser train -j 2`` under ``ulimit -v 400000``: the pool's thread died starting the thread that feeds the
    workers ("can't start new thread" in Thread-2) and the command waited for ever, idle. A call whose pool's thread
    has ended without answering it is the one-line out-of-memory error."""
    import threading
    from concurrent.futures import Future

    from glmnlp.glm import pools

    class DeadPool:  # what LocalCall.result reads of a pool: its workers and its thread
        _processes: dict[int, object] = {}
        _broken = False
        _executor_manager_thread = threading.Thread(target=lambda: None)

    DeadPool._executor_manager_thread.start()
    DeadPool._executor_manager_thread.join()
    call = pools.LocalCall(Future(), DeadPool())  # type: ignore[arg-type]
    raised: list[BaseException] = []

    def wait() -> None:
        try:
            call.result()
        except BaseException as exc:  # noqa: BLE001 (looked at below)
            raised.append(exc)

    waiter = threading.Thread(target=wait, daemon=True)  # a wait for ever fails the test, not the run
    waiter.start()
    waiter.join(30)
    assert not waiter.is_alive(), "the call still waits"
    assert isinstance(raised[0], MemoryError) and "the pool's thread ended" in str(raised[0])


def test_memory_short_while_reading_a_model_is_not_a_damaged_file(monkeypatch: pytest.MonkeyPatch) -> None:
    """A model read under a low ``ulimit -v`` was "weights.npz: not a readable weights archive: Unable to allocate
    output buffer" (LZMA's MemoryError taken for a damaged file): the user was sent to reinstall. It is a MemoryError
    ("error: out of memory" on the command line)."""
    from glmnlp.glm import model_io
    from glmnlp.tagger.files import TAGGER_ARRAYS
    from glmnlp.text.default_model import default_model_path

    def short(*_args: object) -> None:
        raise MemoryError("Unable to allocate output buffer.")

    monkeypatch.setattr(model_io, "read_member", short)
    with pytest.raises(MemoryError, match="Unable to allocate"):
        model_io.load_model(default_model_path() / "tagger", kind="tagger", names=TAGGER_ARRAYS)


@pytest.mark.parametrize("out", ["m", "new/deeper/m"])
def test_cli_model_that_cannot_be_written_is_one_line_and_leaves_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, out: str
) -> None:
    """A model whose files cannot be written (a full disk: the write raises ENOSPC) is an error naming the model's
    folder, not a traceback, and neither the folder nor its staging folder is left behind, nor the new parent folders
    made for it (``new/deeper`` was left)."""
    import errno

    from glmnlp.glm import model_io

    def full(*_args: object, **_kwargs: object) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(model_io, "_write_tree", full)
    good = tmp_path / "toy.trees"
    good.write_text("\n".join(TINY) + "\n")
    rc = main(["tagger", "train", "--train", str(good), "--out", str(tmp_path / out), "--epochs", "1", "-j", "1"])
    assert rc == 1
    last = capsys.readouterr().err.splitlines()[-1]
    assert last == f"error: {tmp_path / out}: cannot be written: No space left on device"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["toy.trees"]


def test_cli_work_without_memory_for_it_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """An allocation that fails (``parser train --feature-bits 28`` under a 2.5 GB limit: numpy's MemoryError) printed a
    traceback; now one line with numpy's words, status 1, and no model."""
    from glmnlp.tagger import model

    def no_memory(*_args: object, **_kwargs: object) -> None:
        raise MemoryError("Unable to allocate 2.00 GiB for an array with shape (268435456,) and data type float64")

    monkeypatch.setattr(model.Tagger, "fit", no_memory)
    good = tmp_path / "toy.trees"
    good.write_text("\n".join(TINY) + "\n")
    rc = main(["tagger", "train", "--train", str(good), "--out", str(tmp_path / "m"), "--epochs", "1", "-j", "1"])
    assert rc == 1
    assert capsys.readouterr().err.splitlines()[-1] == (
        "error: out of memory: Unable to allocate 2.00 GiB for an array with shape (268435456,) and data type float64")
    assert not (tmp_path / "m").exists()


def test_cli_parse_into_a_closed_pipe_ends_quietly_with_status_0(tmp_path: Path) -> None:
    """``glmnlp parse ... | head -1``: the reader closes the pipe; glmnlp exits 0 and prints nothing on stderr."""
    source = tmp_path / "in.txt"
    source.write_text("the/DT dog/NN barked/VBD ./.\n" * 400)
    proc = subprocess.Popen(
        [sys.executable, "-c", _MAIN, "parse", "--tagged", "-q", "--batch-size", "1", "-i", str(source)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE,
    )
    assert proc.stdout is not None and proc.stderr is not None
    first = proc.stdout.readline()
    proc.stdout.close()
    err = proc.stderr.read()
    rc = proc.wait(timeout=300)
    assert first.startswith(b"(TOP ")
    assert (rc, err) == (0, b"")


def test_a_closed_stderr_pipe_does_not_end_the_work(tmp_path: Path) -> None:
    """``glmnlp tagger train ... 2>&1 | head -1``: the first progress line written to a stderr whose reader had gone
    raised BrokenPipeError, which the command took for a closed stdout: status 0 and no model (``parse 2> >(true)``:
    no trees). The messages are dropped and the work is done."""
    train = tmp_path / "toy.trees"
    train.write_text("\n".join(TINY * 20) + "\n")
    proc = subprocess.Popen(
        [sys.executable, "-c", _MAIN, "tagger", "train", "--train", str(train), "--out", str(tmp_path / "m"),
         "--epochs", "3", "-j", "1"], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
    )
    assert proc.stderr is not None
    proc.stderr.close()  # before the command has written anything
    assert proc.wait(timeout=300) == 0
    assert sorted(p.name for p in (tmp_path / "m").iterdir()) == ["metadata.json", "weights.npz"]
    source = tmp_path / "in.txt"
    source.write_text(" ".join(["w"] * 160) + "\n" + "The dog barked .\n" * 3)  # warned of first: 160 words
    proc = subprocess.Popen([sys.executable, "-c", _MAIN, "parse", "-j", "1", "--tokenized", "-i", str(source)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert proc.stdout is not None and proc.stderr is not None
    proc.stderr.close()
    out = proc.stdout.read()
    assert proc.wait(timeout=300) == 0 and out.count(b"(TOP ") == 4


@pytest.mark.parametrize("argv", [["--help"], ["--version"], ["parse", "--help"]])
def test_help_and_version_into_a_closed_pipe_end_with_status_0(argv: list[str]) -> None:
    """``glmnlp --help | true``: the group's own options print before a command is invoked, and click ended the closed
    pipe there with status 1 (a subcommand's ``--help`` with 0, as documented for a closed output pipe)."""
    proc = subprocess.Popen([sys.executable, "-c", _MAIN, *argv], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert proc.stdout is not None and proc.stderr is not None
    proc.stdout.close()  # before the command has written anything
    err = proc.stderr.read()
    assert (proc.wait(timeout=120), err) == (0, b"")


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="closes a file descriptor in the child")
def test_a_command_started_with_stdout_closed_says_so(tmp_path: Path) -> None:
    """``glmnlp parse ... >&-``: Python sets sys.stdout to None, click dropped every tree, the summary said ``parsed
    40 sentences`` and a traceback followed (``'NoneType' object has no attribute 'flush'``). One line now."""
    import os
    import subprocess

    source = tmp_path / "in.txt"
    source.write_text("The dog barked .\n", encoding="utf-8")
    for args in (["parse", "--tokenized", "-j", "1", "-i", str(source)], ["tag", str(source)]):
        run = subprocess.run([sys.executable, "-c", _MAIN, *args], stdin=subprocess.DEVNULL, capture_output=False,
                             stderr=subprocess.PIPE, preexec_fn=lambda: os.close(1), timeout=120)
        assert (run.returncode, run.stderr.decode()) == (
            1, "error: the output cannot be written: standard output is closed\n"), args


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="closes a file descriptor in the child")
def test_a_command_started_with_stdin_closed_says_so(tmp_path: Path) -> None:
    """``glmnlp parse <&-``: a traceback (``'NoneType' object has no attribute 'buffer'``) in every command that
    reads stdin. One line now."""
    import os

    model = str(Path(__file__).resolve().parent.parent / "src" / "glmnlp" / "data" / "default_model")
    for args in (["parse", "-j", "1"], ["tag"], ["measures"], ["tagger", "evaluate", "--model", model, "--test", "-"]):
        run = subprocess.run([sys.executable, "-c", _MAIN, *args], capture_output=True,
                             preexec_fn=lambda: os.close(0), timeout=120)
        expected = (1, "error: <stdin>: cannot read: standard input is closed\n")
        assert (run.returncode, run.stderr.decode()) == expected, args


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="closes a file descriptor in the child")
@pytest.mark.parametrize("args", [["parse", "--bogus"], ["parse", "--nbest", "0", "x"], ["data"],
                                  ["parse", "-i", "/no"]])
def test_a_command_started_with_stderr_closed_writes_no_message_into_its_output(args: list[str]) -> None:
    """``glmnlp parse --bogus 2>&- > trees``: click wrote its usage errors to stdout when stderr was closed, into the
    file of trees; the command's own messages were dropped. None reaches stdout now; the status is kept."""
    import os

    run = subprocess.run([sys.executable, "-c", _MAIN, *args], capture_output=False, stdout=subprocess.PIPE,
                         stdin=subprocess.DEVNULL, preexec_fn=lambda: os.close(2), timeout=120)
    assert (run.returncode, run.stdout) == (1 if "-i" in args else 2, b""), args


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="redirects a child's stdout")
def test_a_command_whose_output_is_its_input_file_refuses_to_start(tmp_path: Path) -> None:
    """``glmnlp tag a.txt >> a.txt`` read the tags it wrote, for ever: 15 KB grew to 132 MB in 10 s. The input being
    the file standard output writes to (by its path or as stdin) is refused, as cat refuses it, and nothing is
    written."""
    source = tmp_path / "a.txt"
    text = "The cat sat on the mat .\n" * 600
    source.write_text(text, encoding="utf-8")
    for args, stdin in ((["tag", str(source)], None), (["tag"], source), (["parse", "-j", "1", "--tokenized", "-i",
                                                                           str(source)], None)):
        with open(source, "ab") as out, (open(stdin, "rb") if stdin else open(os.devnull, "rb")) as inp:
            run = subprocess.run([sys.executable, "-c", _MAIN, *args], stdin=inp, stdout=out, stderr=subprocess.PIPE,
                                 timeout=120)
        assert run.returncode == 1 and "the input is also the output" in run.stderr.decode(), (args, run.stderr)
        assert source.read_text(encoding="utf-8") == text


@pytest.mark.skipif(not Path("/proc/self/mem").exists(), reason="a file whose reads fail (Linux)")
def test_a_read_that_fails_part_way_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    """Reading /proc/self/mem fails with EIO: ``parse``, ``tag`` and ``measures`` ended in a traceback
    (``OSError: [Errno 5] Input/output error``) where the other commands named the file."""
    for args in (["parse", "-j", "1", "-i", "/proc/self/mem"], ["tag", "/proc/self/mem"],
                 ["measures", "-i", "/proc/self/mem"]):
        assert main(args) == 1, args
        assert capsys.readouterr().err == "error: /proc/self/mem:1: cannot read file: Input/output error\n", args


def test_output_is_utf8_and_arguments_are_read_as_utf8_whatever_the_locale() -> None:
    """Under ``PYTHONIOENCODING=latin-1`` a word outside latin-1 was a traceback and the trees written were latin-1
    bytes that glmnlp's own readers refused; under ``LC_ALL=C PYTHONUTF8=0`` a UTF-8 TEXT argument was refused as
    not UTF-8 text."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("LC_", "LANG", "PYTHONIOENCODING", "PYTHONUTF8"))}
    for extra in ({"PYTHONIOENCODING": "latin-1"}, {"LC_ALL": "C", "PYTHONUTF8": "0"}):
        run = subprocess.run([sys.executable, "-c", _MAIN, "parse", "-q", "Zoë met Łukasz."], capture_output=True,
                             env={**env, **extra}, timeout=120)
        assert run.returncode == 0, (extra, run.stderr)
        assert "(NNP Zoë)" in run.stdout.decode("utf-8") and "Łukasz" in run.stdout.decode("utf-8"), extra


@pytest.mark.parametrize(("argv", "work"), [
    (["parse", "The dog barked."], "tokenising text"),
    (["parse", "--format", "ascii", "--tokenized", "The dog barked ."], "drawing a tree in characters"),
])
def test_cli_without_nltk_says_what_to_install(argv: list[str], work: str) -> None:
    """nltk is a dependency; an installation without it (broken) gave a traceback from the tokenizer or the ASCII
    drawing, where ``to_nltk()`` said what to install. One line, as a missing extra is said."""
    import subprocess
    import sys

    code = ("import sys; sys.modules['nltk'] = None\nfrom glmnlp.cli import main\n"
            f"raise SystemExit(main({argv!r}))")
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert run.returncode == 1 and run.stderr == (
        f"error: {work} needs nltk, a dependency of glmnlp that is missing: pip install 'glmnlp[nltk]'\n"), run.stderr


def test_a_missing_package_is_its_own_error_and_an_import_error() -> None:
    """A package the work needs and cannot import is :class:`glmnlp.MissingPackageError`: the command line told it
    from any other ImportError by looking for "pip install" in the message (a third-party ImportError saying so was
    printed as glmnlp's own error); code catching ``ImportError`` still catches it."""
    import subprocess
    import sys

    code = ("import sys; sys.modules['pandas'] = None\nimport glmnlp\n"
            "from glmnlp.text.document import Document\n"
            "try:\n    Document('').measures_frame()\n"
            "except glmnlp.MissingPackageError as exc:\n"
            "    assert isinstance(exc, ImportError) and isinstance(exc, glmnlp.GlmnlpError), exc\n"
            "    print(exc)\n")
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert run.returncode == 0 and run.stdout == "measures_frame() needs pandas: pip install 'glmnlp[measures]'\n", (
        run.stdout, run.stderr)
    from glmnlp.cli import _reported

    assert _reported(ImportError("cannot import x: pip install y")) is None  # not glmnlp's: a traceback


def test_the_stderr_wrapper_takes_a_stream_whose_write_returns_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    """Standard error is wrapped so that its reader leaving does not end the work; a stand-in stream whose write
    returns None (as many do) made every message a TypeError."""
    import io

    class Quiet(io.StringIO):
        def write(self, text: str) -> None:  # type: ignore[override]
            super().write(text)

    stand_in = Quiet()
    monkeypatch.setattr(sys, "stderr", stand_in)
    assert main(["parse", "--bogus-option"]) == 2
    assert "No such option '--bogus-option'" in stand_in.getvalue() and sys.stderr is stand_in


def test_a_path_the_file_system_refuses_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A name over 255 bytes met where no check named it (``data --out``, ``parse --format svg --out-dir``) was a
    traceback (``OSError: [Errno 36] File name too long``)."""
    long = tmp_path / ("Z" * 256)
    for argv in (["data", "--out", str(long)], ["parse", "-q", "--format", "svg", "--out-dir", str(long), "x"]):
        capsys.readouterr()
        assert main(argv) == 1, argv
        err = capsys.readouterr().err
        assert err.startswith(f"error: {long}") and err.endswith("File name too long\n") and err.count("\n") == 1


def test_a_report_appended_to_its_own_input_is_refused(tmp_path: Path) -> None:
    """``glmnlp evalb g.trees t.trees >> g.trees`` (and ``grammar table1``, ``tagger evaluate``) appended the report
    to the user's gold trees with status 0, where ``tag``, ``parse`` and ``measures`` refuse an input that is also the
    output, as documented; the files read whole are checked too now."""
    trees = tmp_path / "g.trees"
    trees.write_text("\n".join(TINY) + "\n")
    before = trees.read_bytes()
    for argv in (["evalb", str(trees), str(trees)], ["grammar", "table1", "--train", str(trees)]):
        with trees.open("ab") as out:
            run = subprocess.run([sys.executable, "-c", _MAIN, *argv], stdout=out, stderr=subprocess.PIPE,
                                 text=True, timeout=120)
        assert run.returncode == 1 and "the input is also the output" in run.stderr, (argv, run.stderr)
        assert trees.read_bytes() == before, argv


def test_a_file_name_of_bytes_that_are_not_utf8_is_shown_as_bytes(tmp_path: Path) -> None:
    """A file named with a byte that is not UTF-8 (``$'\\xfebad.txt'``) was shown as ``\\udcfebad.txt``, Python's
    stand-in that no one can type; a name decoded in an ASCII locale (``é`` as two stand-ins) too. The byte is
    shown as ``\\xfe``, the UTF-8 name as its text."""
    name = os.fsencode(tmp_path) + b"/\xfebad.txt"
    with open(name, "wb") as f:
        f.write(b"Caf\xe9 is nice.\n")
    run = subprocess.run([sys.executable, "-c", _MAIN, "parse", "-i", name], capture_output=True, timeout=120)
    assert run.returncode == 1
    shown = os.fsencode(tmp_path) + b"/\\xfebad.txt"
    assert run.stderr == b"error: " + shown + b":1: not valid UTF-8 text (byte 0xe9 at column 4)\n"
    env = {**os.environ, "PYTHONUTF8": "0", "LC_ALL": "C"}
    run = subprocess.run([sys.executable, "-c", _MAIN, "evalb", "missing\u00e9.txt".encode(), "x"], capture_output=True,
                         timeout=120, env=env)
    assert run.stderr.decode("utf-8").startswith("error: missing\u00e9.txt: cannot read file"), run.stderr


def test_the_command_line_imports_without_fcntl() -> None:
    """``fcntl`` (POSIX only) is imported where a read-only stdout is told, not with the command line."""
    code = "import sys; sys.modules['fcntl'] = None; import glmnlp.cli"
    assert subprocess.run([sys.executable, "-c", code], capture_output=True, timeout=120).returncode == 0


@pytest.mark.parametrize("args", [
    ["parse", "-i", "{bad}"],  # a library error naming the path
    ["evalb", "{bad}", "{bad}"],
    ["measures", "--plot", "{bad}.xyz", "--sentence", "1", "hi"],  # a usage error of the command's naming the path
    ["parser", "train", "--train", "{bad}", "--out", "{out}"],
])
def test_an_error_naming_a_path_shows_its_control_characters_escaped_on_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], args: list[str],
) -> None:
    """A file name holding an escape sequence coloured (or cleared) the terminal when an error named it, one holding a
    newline split the error line in two, and a right-to-left override showed the name reversed."""
    bad = str(tmp_path / "no\x1b[31mred\nsecond\u202etxt.trees")
    argv = [a.replace("{bad}", bad).replace("{out}", str(tmp_path / "m")) for a in args]
    assert main(argv) != 0
    err = capsys.readouterr().err
    error_line = err.strip().splitlines()[-1]
    assert error_line.lower().startswith("error:"), err
    assert "\\x1b[31m" in error_line and "\\nsecond\\u202etxt" in error_line, err
    assert "\x1b" not in err and "\u202e" not in err, err


@pytest.mark.parametrize("argv", [[], ["tagger"], ["parser"]], ids=lambda a: " ".join(a) or "glmnlp")
def test_a_group_called_bare_prints_its_help_in_lines(capsys: pytest.CaptureFixture[str], argv: list[str]) -> None:
    """A group called with no command shows its help through a usage error (click's NoArgsIsHelpError): the
    escaping of error lines printed the whole help as one line with literal \\n in a first version of it."""
    main(argv)
    captured = capsys.readouterr()
    shown = captured.out + captured.err
    assert "\\n" not in shown and shown.count("\n") > 5 and "Usage: glmnlp" in shown, shown


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="sets a child's file size limit")
@pytest.mark.parametrize("args", [["evalb", "--demo"], ["parse", "-q", "-j", "1", "-f", "html",
                                                         "The old man saw the dog with a telescope in the park. " * 3]])
def test_output_cut_short_by_a_full_disk_is_an_error(tmp_path: Path, args: list[str]) -> None:
    """On a disk with 8 KB left (here: a file size limit of 8 KB) the last large write was short, Python's buffered
    writer returned the short count and the text layer dropped it: status 0 and the first 8 KB of an evalb report or
    an HTML page, cut mid-tag, without a word. The rest is written or the write fails: one line, status 1."""
    import resource

    def limited() -> None:
        resource.setrlimit(resource.RLIMIT_FSIZE, (8192, 8192))

    with open(tmp_path / "out", "wb") as out:
        run = subprocess.run([sys.executable, "-c", _MAIN, *args], stdin=subprocess.DEVNULL, stdout=out,
                             stderr=subprocess.PIPE, preexec_fn=limited, timeout=300)
    assert (tmp_path / "out").stat().st_size == 8192
    assert (run.returncode, run.stderr.decode()) == (1, "error: the output cannot be written: File too large\n")
