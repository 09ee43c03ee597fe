"""The command line as a terminal and a shell see it: a pipe given as an output file whose reader went away, Ctrl-C's
message, and what stderr shows under a locale whose terminal cannot show Unicode."""

from __future__ import annotations

import signal
import subprocess
import sys
from pathlib import Path

import pytest

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
