"""Running the CLI in-process, with a given stdin: helpers shared by the CLI test modules (tests/test_cli_parse*.py,
tests/test_cli_commands.py, tests/test_cli_consistency*.py).
"""

from __future__ import annotations

import io
import sys

import pytest

from glmnlp.cli import main


def _stdin(monkeypatch: pytest.MonkeyPatch, data: bytes) -> None:
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data), encoding="utf-8"))


def _run(capsys: pytest.CaptureFixture[str], argv: list[str]) -> tuple[int, str, str]:
    capsys.readouterr()
    rc = main(argv)
    out, err = capsys.readouterr()
    return rc, out, err
