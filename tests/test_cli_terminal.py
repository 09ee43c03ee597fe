"""The command line as a terminal and a shell see it: a pipe given as an output file whose reader went away, Ctrl-C's
message, and what stderr shows under a locale whose terminal cannot show Unicode."""

from __future__ import annotations

import os
import select
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from cli_fixtures import wait_until_the_writer_waits

import glmnlp

_MAIN = "import sys; from glmnlp.cli import main; sys.exit(main())"


@pytest.mark.skipif(not Path("/dev/stdout").exists(), reason="needs /dev/stdout")
def test_a_pipe_given_as_the_output_file_ends_quietly_when_its_reader_goes() -> None:
    """``glmnlp data --clean FILE --out /dev/stdout | head -1`` ended with status 1 and ``error: /dev/stdout: cannot
    be written: Broken pipe``, where ``glmnlp parse ... | head -1`` ends quietly with status 0 (docs/cli.md)."""
    source = Path(__file__).parent.parent / "src" / "glmnlp" / "data" / "ptb_sample" / "wsj_0001.mrg"
    proc = subprocess.Popen([sys.executable, "-c", _MAIN, "data", "--clean", str(source), "--out", "/dev/stdout"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert proc.stdout is not None and proc.stderr is not None
    proc.stdout.close()  # before the command has written anything
    err = proc.stderr.read()
    assert (proc.wait(timeout=120), err) == (0, b"")


def test_ctrl_c_is_one_line_without_a_blank_line_before_it() -> None:
    """Ctrl-C: click wrote a blank line before ``Aborted.`` (for the ``^C`` a terminal echoes) into pipes and logs
    too, where stderr read ``\\nAborted.``; the command still ends by SIGINT (130 in a shell)."""
    proc = subprocess.Popen([sys.executable, "-m", "glmnlp", "tag", "--batch-size", "1"], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert proc.stdin is not None and proc.stdout is not None
    proc.stdin.write(b"The dog barked .\n")
    proc.stdin.flush()
    assert proc.stdout.readline() == b"The/DT dog/NN barked/VBD ./.\n"  # the command waits for its next line
    proc.send_signal(signal.SIGINT)
    _out, err = proc.communicate(timeout=120)
    assert (proc.returncode, err) == (-signal.SIGINT, b"Aborted.\n")


def _stderr_on_a_terminal(args: list[str], env: dict[str, str], cwd: Path,
                          launch: tuple[str, ...] = ("-m", "glmnlp")) -> bytes:
    """What ``python LAUNCH ARGS`` (``glmnlp ARGS``) writes to stderr on a terminal (a pseudo-terminal of 100 columns;
    stdout to /dev/null)."""
    pty = pytest.importorskip("pty")
    import fcntl
    import struct
    import termios

    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 100, 0, 0))
    proc = subprocess.Popen([sys.executable, *launch, *args], stdin=subprocess.DEVNULL,
                            stdout=subprocess.DEVNULL, stderr=slave, env=env, cwd=cwd)
    os.close(slave)
    seen = b""
    try:
        while select.select([master], [], [], 120)[0]:
            try:
                chunk = os.read(master, 1 << 16)
            except OSError:  # (EIO: the command has ended and closed the terminal)
                break
            if not chunk:
                break
            seen += chunk
    finally:
        os.close(master)
        proc.wait(timeout=120)
    return seen


def _environment(**locale: str) -> dict[str, str]:
    """The environment with the locale and encoding variables ``locale`` only, the glmnlp under test first on the path
    (the command runs elsewhere)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("LC_", "LANG", "PYTHONIOENCODING", "PYTHONUTF8"))}
    here = str(Path(glmnlp.__file__).resolve().parent.parent)
    return {**env, **locale, "PYTHONPATH": os.pathsep.join(filter(None, [here, env.get("PYTHONPATH")]))}


def _c_locale() -> dict[str, str]:
    """The environment under ``LC_ALL=C``, the glmnlp under test first on the path."""
    return _environment(LC_ALL="C")


#: the message of ``glmnlp evalb café→.trees x.trees`` as an ASCII and a UTF-8 terminal show it
_ESCAPED = b"error: caf\\xe9\\u2192.trees: cannot read file: No such file or directory\r\n"
_UTF8 = "error: café→.trees: cannot read file: No such file or directory\r\n".encode()


def test_stderr_on_an_ascii_terminal_is_ascii(tmp_path: Path) -> None:
    """Under ``LC_ALL=C`` (Python then writes UTF-8) a message naming ``café→.trees`` reached the terminal as UTF-8
    bytes, garbage on a terminal set up for ASCII; now it is written as the terminal can show it."""
    err = _stderr_on_a_terminal(["evalb", "café→.trees", "x.trees"], _c_locale(), tmp_path)
    assert err == _ESCAPED


@pytest.mark.parametrize(("python", "env", "expected"), [
    ((), {"LANG": "C.UTF-8", "PYTHONIOENCODING": "latin-1"}, _UTF8),
    (("-X", "utf8=0"), {"LC_ALL": "C"}, _ESCAPED),
    (("-X", "utf8=0"), {"LC_ALL": "C", "PYTHONUTF8": "1"}, _ESCAPED),
], ids=["pythonioencoding-on-utf8", "x-utf8-0", "x-utf8-0-over-pythonutf8"])
def test_the_terminal_encoding_is_the_locales(python: tuple[str, ...], env: dict[str, str], expected: bytes,
                                               tmp_path: Path) -> None:
    """A terminal shows its locale's encoding: ``PYTHONIOENCODING=latin-1`` on a UTF-8 terminal (``LANG=C.UTF-8``)
    had ``error: caf\\xe9\\u2192.trees`` written in latin-1 bytes, invalid there; ``-X utf8=0`` (``"0"`` in
    ``sys._xoptions``) was taken for UTF-8 mode asked for, and ``LC_ALL=C`` had UTF-8 written to an ASCII terminal."""
    environment = _environment(**env)
    if "LANG" in env:
        probe = subprocess.run([sys.executable, "-c", "import locale; print(locale.getencoding())"], env=environment,
                               capture_output=True, text=True, check=True)
        if probe.stdout.strip().lower().replace("-", "") != "utf8":
            pytest.skip(f"no {env['LANG']} locale here")
    launch = (*python, "-m", "glmnlp")
    assert _stderr_on_a_terminal(["evalb", "café→.trees", "x.trees"], environment, tmp_path, launch) == expected


#: glmnlp's main() under a tqdm whose clock moves a second at each reading: every update draws a frame (the bar's
#: mininterval of 0.5 s let a fast machine draw only the first one, an empty bar, before the work was done)
_TICKING = ("import itertools, sys, tqdm.std; tqdm.std.tqdm.monitor_interval = 0; clock = itertools.count(0.0, 1.0); "
            "tqdm.std.time = lambda: next(clock); from glmnlp.cli import main; sys.exit(main())")


def test_a_progress_bar_on_an_ascii_terminal_is_drawn_in_ascii(tmp_path: Path) -> None:
    """``LC_ALL=C glmnlp measures ...`` drew its bar in UTF-8 block characters (\\xe2\\x96\\x88...), garbage on a
    terminal set up for ASCII; tqdm draws it in ASCII where stderr's encoding cannot hold the blocks. The frames of
    a bar part-way are drawn whatever the machine's speed (_TICKING)."""
    source = tmp_path / "in.txt"
    source.write_text("The old man saw the dog with a telescope in the park .\n" * 20)
    err = _stderr_on_a_terminal(["measures", "--tokenized", "-i", str(source)], _c_locale(), tmp_path,
                                ("-c", _TICKING))
    assert b"sentences:" in err and b"%|#" in err and err.isascii(), err


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs named pipes")
def test_a_named_pipe_given_as_the_output_whose_reader_quits_is_an_error(tmp_path: Path) -> None:
    """Only standard output's own pipe (``--out /dev/stdout``) ends quietly when its reader goes: a named pipe read
    by ``head -c 5`` had ``glmnlp data --clean <40 files> --out ff`` end with status 0, no message and its output
    cut (it was, and is again, ``error: ff: cannot be written: Broken pipe``, status 1)."""
    fifo = tmp_path / "ff"
    os.mkfifo(fifo)
    sample = Path(__file__).parent.parent / "src" / "glmnlp" / "data" / "ptb_sample"
    files = [str(f) for f in sorted(sample.glob("wsj_00*.mrg"))[:40]]  # more than a pipe holds (64 KB)
    proc = subprocess.Popen([sys.executable, "-c", _MAIN, "data", "--clean", *files, "--out", str(fifo)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    reader = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)  # (not waiting for the command to open it)
    try:
        assert select.select([reader], [], [], 120)[0]
        assert len(os.read(reader, 5)) == 5
    finally:
        os.close(reader)
    _out, err = proc.communicate(timeout=120)
    assert (proc.returncode, err) == (1, f"error: {fifo}: cannot be written: Broken pipe\n".encode())


def test_ctrl_c_after_words_typed_on_a_terminal_that_does_not_echo_it_begins_a_line() -> None:
    """With ``stty -echoctl`` a terminal shows nothing for Ctrl-C: ``The dog`` typed into ``glmnlp tag`` and Ctrl-C
    showed ``The dogAborted.``, the line end left out for a terminal that does not echo ``^C``; the cursor is after
    the words typed, which this process cannot see, and ``Aborted.`` begins a line of its own."""
    pty = pytest.importorskip("pty")
    import termios

    env = _environment(LANG="C.UTF-8")
    pid, master = pty.fork()
    if pid == 0:  # the command, on a terminal of its own (Ctrl-C there is SIGINT to it)
        try:
            attrs = termios.tcgetattr(0)
            attrs[3] &= ~termios.ECHOCTL
            termios.tcsetattr(0, termios.TCSANOW, attrs)
            os.execve(sys.executable, [sys.executable, "-m", "glmnlp", "tag", "--batch-size", "1"], env)
        finally:
            os._exit(127)
    seen = b""

    def read_until(done: Callable[[bytes], bool]) -> None:
        nonlocal seen
        while not done(seen) and select.select([master], [], [], 120)[0]:
            try:
                chunk = os.read(master, 1 << 16)
            except OSError:  # (EIO: the command has ended)
                return
            if not chunk:
                return
            seen += chunk

    try:
        os.write(master, b"The dog barked .\n")
        read_until(lambda s: b"./." in s)  # tagged: the command waits for its next line
        os.write(master, b"The dog")
        read_until(lambda s: s.count(b"The dog") == 2)  # (the terminal's echo)
        os.write(master, b"\x03")
        read_until(lambda _s: False)
    finally:
        os.close(master)
        status = os.waitpid(pid, 0)[1]
    assert os.waitstatus_to_exitcode(status) == -signal.SIGINT
    assert seen.rpartition(b"The dog")[2].replace(b"\x03", b"").startswith(b"\r\nAborted.\r\n"), seen


@pytest.mark.parametrize(("signum", "ignored", "status"), [("SIGINT", "", 1), ("SIGTERM", "SIGINT", 143)])
def test_output_written_as_ctrl_c_came_is_not_written_again(tmp_path: Path, signum: str, ignored: str,
                                                            status: int) -> None:
    """A Ctrl-C just after standard output's write returned raised before the count reached Python's buffered writer,
    which kept the bytes and wrote them again at the command's last flush: the tags were on stdout twice (about one
    Ctrl-C in two on a terminal, after ``Aborted.``). The signal is sent here by the write itself, at that moment.
    Also a SIGTERM where SIGINT is ignored (a shell's background job), where the write held no signal."""
    source = tmp_path / "in.txt"
    source.write_text("The dog barked .\nA cat sat .\n", encoding="utf-8")
    script = (
        "import os, signal, sys\n"
        f"{f'signal.signal(signal.{ignored}, signal.SIG_IGN)' if ignored else ''}\n"
        "from glmnlp.cli import main\n"
        "real, sent = os.write, []\n"
        "def write(fd, data):\n"
        "    n = real(fd, data)\n"
        "    if fd == 1 and not sent:\n"
        "        sent.append(n)\n"
        f"        os.kill(os.getpid(), signal.{signum})\n"
        "    return n\n"
        "os.write = write\n"
        f"sys.exit(main(['tag', '--batch-size', '1', '-i', {str(source)!r}]))\n"
    )
    run = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=300,
                         env=_environment(**{k: v for k, v in os.environ.items() if k.startswith(("LC_", "LANG"))}))
    assert run.stderr.endswith("Aborted.\n") and run.returncode == status, run.stderr[-2000:]
    assert run.stdout == "The/DT dog/NN barked/VBD ./.\n", run.stdout


@pytest.mark.parametrize("batch", ["500", "1"])
def test_ctrl_c_ends_a_command_whose_output_pipe_is_full(tmp_path: Path, batch: str) -> None:
    """A write of standard output that held Ctrl-C until it was whole held it through a write blocked on a full pipe
    (a reader that stopped reading, ``| less`` not scrolled): Ctrl-C, SIGTERM and SIGHUP were noted and never raised,
    and only SIGKILL ended the command (a regression of this change's first version). With output left in the buffer
    (``--batch-size 1``) the last flush after ``Aborted.`` then waited for the reader for ever, as the code before the
    change did before ``Aborted.``: the rest is written as far as the reader takes it in a second."""
    source = tmp_path / "big.tok"
    source.write_text("The dog barked at the old man .\n" * 30000, encoding="utf-8")
    proc = subprocess.Popen([sys.executable, "-c", _MAIN, "tag", "--batch-size", batch, "-i", str(source)],
                            stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, env=_environment(**{k: v for k, v in os.environ.items()
                                                                        if k.startswith(("LC_", "LANG"))}))
    try:
        wait_until_the_writer_waits(proc.stdout, time.monotonic() + 120)  # the pipe full: it waits for its reader
        assert proc.poll() is None
        proc.send_signal(signal.SIGINT)
        assert proc.wait(timeout=60) == 1
        assert proc.stderr is not None and proc.stderr.read().endswith(b"Aborted.\n")
    finally:
        proc.kill()
        proc.communicate()


def test_bytes_of_an_interrupted_write_are_skipped_only_when_passed_again() -> None:
    """After a Ctrl-C the bytes an interrupted write made are not written again when the buffered writer passes them
    again; a first version kept their count and ate the start of the next, unrelated write when the buffered writer
    had passed a large write straight from its caller's data (and kept none of it)."""
    script = (
        "import io, os, signal\n"
        "from glmnlp.cli._whole_writes import WholeWrites\n"
        "r, w = os.pipe()\n"
        "real, sent = os.write, []\n"
        "def write(fd, data):\n"
        "    n = real(fd, data)\n"
        "    if fd == w and not sent:\n"
        "        sent.append(n)\n"
        "        os.kill(os.getpid(), signal.SIGINT)\n"
        "    return n\n"
        "os.write = write\n"
        "buf = io.BufferedWriter(WholeWrites(w))\n"
        "try:\n"
        "    buf.write(b'A' * 20000)\n"
        "except KeyboardInterrupt:\n"
        "    pass\n"
        "buf.write(b'after\\n'); buf.flush(); os.close(w)\n"
        "data = b''\n"
        "while chunk := os.read(r, 65536):\n"
        "    data += chunk\n"
        "print(data.count(b'A'), data.endswith(b'after\\n'))\n"
    )
    run = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120, env=_environment())
    assert run.returncode == 0 and run.stdout.split()[1] == "True", run.stdout + run.stderr[-2000:]


def test_sigterm_to_a_background_job_leaves_a_prefix_of_the_output(tmp_path: Path) -> None:
    """A shell's background job ignores SIGINT; there the write held no signal, and a SIGTERM (which the command
    turns into Ctrl-C) just after a write returned lost its count: the last flush wrote the bytes again, splicing
    the output mid-token (``mat/Nfuriously/RB``). What the reader gets is a prefix of the whole output."""
    source = tmp_path / "big.tok"
    source.write_text("".join(f"The dog {i} barked at the old man .\n" for i in range(20000)), encoding="utf-8")
    argv = [sys.executable, "-c", _MAIN, "tag", "--batch-size", "60", "-i", str(source)]
    env = _environment(**{k: v for k, v in os.environ.items() if k.startswith(("LC_", "LANG"))})
    whole = subprocess.run(argv, capture_output=True, timeout=300, env=env).stdout
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_IGN))
    try:
        assert proc.stdout is not None and proc.stderr is not None
        wait_until_the_writer_waits(proc.stdout, time.monotonic() + 120)
        got = os.read(proc.stdout.fileno(), 4096)
        time.sleep(0.5)  # the command writes again, into the room read
        proc.send_signal(signal.SIGTERM)
        got += proc.stdout.read()
        assert proc.wait(timeout=60) == 143 and proc.stderr.read().endswith(b"Aborted.\n")
    finally:
        proc.kill()
        proc.communicate()
    assert len(got) < len(whole) and whole.startswith(got)
