"""CLI: ``glmnlp parse`` on a terminal, a pipe and under signals: the progress bar and the warnings beside it, answers
line by line, a clean end on SIGTERM or Ctrl-C, escape sequences kept, a paragraph too large to stream.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from cli_fixtures import _run
from glmnlp.treebank.trees import parse_tree


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="a pseudo-terminal")
def test_cli_parse_draws_no_progress_bar_on_the_terminal_its_trees_go_to(tmp_path: Path) -> None:
    """With stdout and stderr on one terminal, the bar's text ran into the trees (``sentences: 0 sent [00:00, ?
    sent/s](TOP (S ...``); the bar is drawn only when the trees go elsewhere."""
    import os
    import pty
    import subprocess

    source = tmp_path / "in.txt"
    source.write_text("".join(f"The dog number {k} barked .\n" for k in range(40)), encoding="utf-8")
    command = [sys.executable, "-c", "import sys; from glmnlp.cli import main; sys.exit(main())", "parse",
               "--tokenized", "-j", "1", "--batch-size", "4", "-i", str(source)]

    def run(stdout_to_file: bool) -> str:
        import fcntl
        import struct
        import termios

        leader, follower = pty.openpty()
        fcntl.ioctl(follower, termios.TIOCSWINSZ, struct.pack("HHHH", 30, 120, 0, 0))  # 0 columns: tqdm draws nothing
        out = open(tmp_path / "out.txt", "wb") if stdout_to_file else follower
        with subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=out, stderr=follower) as proc:
            os.close(follower)
            seen = b""
            while True:
                try:
                    chunk = os.read(leader, 65536)
                except OSError:  # the other end closed
                    break
                if not chunk:
                    break
                seen += chunk
            proc.wait(timeout=120)
        os.close(leader)
        if stdout_to_file:
            out.close()
        return seen.decode("utf-8", "replace")

    on_terminal = run(False)
    assert on_terminal.count("(TOP") == 40 and "sent/s" not in on_terminal, on_terminal[:300]
    assert "sent/s" in run(True)  # trees to a file: the bar on the terminal


def test_cli_parse_warns_of_a_paragraph_too_large_to_stream(
    tiny_model: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """A file of one sentence a line and no blank line is one paragraph: one document, parsed in one piece on one
    worker and written at its end (625 KB: 71 s before the first tree, memory growing with the file), silently.
    Past LARGE_PARAGRAPH characters it is warned of once, with its place and the option that streams it."""
    from glmnlp.cli import parse_input

    monkeypatch.setattr(parse_input, "LARGE_PARAGRAPH", 40)
    source = tmp_path / "in.txt"
    source.write_text("The dog barked.\nThe cat sat.\nIt ran.\nA man came.\n\nIt ended.\n", encoding="utf-8")
    rc, out, err = _run(capsys, ["parse", "-m", str(tiny_model), "-q", "-j", "1", "-i", str(source)])
    assert rc == 0 and out.count("(TOP") == 5
    assert err.count("warning:") == 1 and f"warning: {source}:1: a paragraph of more than 40 characters" in err
    assert "--lines reads a sentence a line" in err
    rc, _, err = _run(capsys, ["parse", "-m", str(tiny_model), "-q", "-j", "1", "--lines", "-i", str(source)])
    assert rc == 0 and "warning" not in err


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_parse_answers_each_line_of_a_pipe_before_the_next_comes(jobs: str) -> None:
    """A program that writes a line to ``glmnlp parse --lines`` through a pipe and waits for its tree before writing
    the next: with ``-j 2`` (the default on two cores) the command waited for more input with the tree in hand and
    never answered (here the watchdog ends it after 90 s). Three lines come at once (workers start), then three one
    answer at a time."""
    from conftest import coprocess

    with coprocess("parse", "--lines", "-q", "--batch-size", "1", "-j", jobs) as proc:
        assert proc.stdin is not None and proc.stdout is not None
        trees = []
        proc.stdin.write("The dog barked.\nA cat sat.\nIt rained.\n")
        proc.stdin.flush()
        for line in ("", "", "", "Birds sing.", "Time flies.", "We left."):
            if line:
                proc.stdin.write(line + "\n")
                proc.stdin.flush()
            answer = proc.stdout.readline()
            assert answer, f"no tree after {len(trees)} trees (the watchdog ended the command)"
            trees.append(parse_tree(answer).leaves())
        proc.stdin.close()
        proc.wait(timeout=60)
    assert proc.returncode == 0 and [t[0] for t in trees] == ["The", "A", "It", "Birds", "Time", "We"]


@pytest.mark.parametrize("source", ["stdin", "fifo"])
@pytest.mark.parametrize("signum", [2, 15])
def test_a_signal_while_the_input_is_read_on_a_thread_ends_the_command_cleanly(
    tmp_path: Path, signum: int, source: str,
) -> None:
    """With ``-j 2`` the input is read on a thread; SIGTERM or Ctrl-C while that thread waited in a read of stdin
    (a producer still writing) ended in "Fatal Python error: could not acquire lock for <stdin>" at shutdown,
    status 134, the trees still buffered lost; with ``-i FIFO`` the command hung in closing the file the thread
    was reading. Now "Aborted.", status 143 (SIGTERM) or the end by SIGINT, and the tree answered."""
    import os
    import signal
    import subprocess
    import threading

    # faulthandler: a command that does not end is sent SIGABRT, and its threads' stacks are in the failure
    entry = "import sys; from glmnlp.__main__ import run; sys.exit(run())"  # the glmnlp script's
    command = [sys.executable, "-X", "faulthandler", "-c", entry,
               "parse", "--lines", "-q", "--batch-size", "1", "-j", "2"]
    fifo = tmp_path / "in.fifo"
    if source == "fifo":
        os.mkfifo(fifo)
        command += ["-i", str(fifo)]
    with subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          text=True, bufsize=1) as proc:
        assert proc.stdin is not None and proc.stdout is not None and proc.stderr is not None
        writer = open(fifo, "w", encoding="utf-8") if source == "fifo" else proc.stdin  # noqa: SIM115
        watchdog = threading.Timer(60, proc.kill)
        watchdog.start()
        try:
            writer.write("The dog barked.\n")
            writer.flush()
            tree = proc.stdout.readline()
            proc.send_signal(signal.Signals(signum))
            try:
                rc = proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                proc.send_signal(signal.SIGABRT)
                proc.wait(timeout=30)
                pytest.fail(f"the command did not end in 30 s after signal {signum}; its stacks:\n{proc.stderr.read()}")
            err = proc.stderr.read()
        finally:
            watchdog.cancel()
            writer.close()
    assert parse_tree(tree).leaves() == ["The", "dog", "barked", "."]
    # Ctrl-C: ended by SIGINT once cleaned up (status 1 let a shell's loop go on), as an interrupted program does
    assert rc == (143 if signum == 15 else -signum) and err.endswith("Aborted.\n") and "Fatal" not in err, err


def test_cli_parse_warnings_are_not_written_onto_the_progress_bar(monkeypatch: pytest.MonkeyPatch) -> None:
    """A warning during a parse with its progress bar on the terminal was written at the end of the bar's text
    (``sentences: 282 sent [00:03, 93.95 sent/s]warning: ...``): the bar is cleared first now, and drawn again."""
    import io

    from glmnlp.cli._params import sentence_bar
    from glmnlp.cli.parse_cmd import _Notices

    err = io.StringIO()
    monkeypatch.setattr(sys, "stderr", err)
    bar = sentence_bar()
    bar.update(282)
    bar.refresh()
    _Notices().note("flat", "mix.txt:302: a sentence of 249 words (more than 150) gets a flat tree without parsing")
    bar.close()
    text = err.getvalue()
    before = text[: text.index("warning: ")]
    assert "sent" in before and before.rstrip(" ").endswith("\r"), repr(text)


def test_cli_output_keeps_escape_sequences_of_the_input_when_stdout_is_no_terminal(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """click.echo removed what looks like an ANSI escape sequence from output to a file or a pipe: the token
    ``\\x1b[1mdog\\x1b[0m`` was tagged whole and written ``dog`` (kept on a terminal), and a raw-text CoNLL-U's
    ``# text`` lost it while its forms kept parts of it. Output is the input's text whatever stdout is."""
    word = "\x1b[1mdog\x1b[0m"
    rc, out, _ = _run(capsys, ["parse", "-q", "--tokenized", f"The {word} barked ."])
    assert rc == 0 and f" {word})" in out, repr(out)
    tokens = tmp_path / "tokens.txt"
    tokens.write_text(f"The {word} barked .\n")
    rc, out, _ = _run(capsys, ["tag", str(tokens)])
    assert rc == 0 and out.split()[1].startswith(word + "/"), repr(out)
    rc, out, _ = _run(capsys, ["parse", "-q", "-f", "conllu", "two car bombs \x1b[31mword were found."])
    # (the ESC itself is in no token: # text is what the forms rebuild, test_render.py)
    assert rc == 0 and "\t[\t" in out and "# text = two car bombs [31mword were found.\n" in out, repr(out)
