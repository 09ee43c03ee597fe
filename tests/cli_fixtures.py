"""Running the CLI in-process, with a given stdin, and watching a command's output pipe: helpers shared by the CLI
test modules (tests/test_cli_parse*.py, tests/test_cli_commands.py, tests/test_cli_consistency*.py,
tests/test_cli_terminal.py, tests/test_worker_shutdown.py).
"""

from __future__ import annotations

import io
import sys
import time
from typing import Any

import pytest

from glmnlp.cli import main


def _stdin(monkeypatch: pytest.MonkeyPatch, data: bytes) -> None:
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data), encoding="utf-8"))


def _run(capsys: pytest.CaptureFixture[str], argv: list[str]) -> tuple[int, str, str]:
    capsys.readouterr()
    rc = main(argv)
    out, err = capsys.readouterr()
    return rc, out, err


def _held(read_end: Any) -> int:
    """How many bytes the pipe whose reading end is ``read_end`` holds unread."""
    import fcntl
    import struct
    import termios

    return int(struct.unpack("i", fcntl.ioctl(read_end.fileno(), termios.FIONREAD, b"\0\0\0\0"))[0])


def wait_until_the_writer_waits(read_end: Any, deadline: float) -> None:
    """Until the pipe of ``read_end`` holds bytes and has taken no more for a second: its writer then waits for
    room (in the kernel's ``pipe_write``, or in ``select`` as the command's stdout does; a pipe whose pages are
    partly filled takes no more before it holds its nominal size)."""
    last, since = -1, time.monotonic()
    while time.monotonic() < deadline:
        held, now = _held(read_end), time.monotonic()
        if held != last:
            last, since = held, now
        elif held > 0 and now - since >= 1.0:
            return
        time.sleep(0.1)
