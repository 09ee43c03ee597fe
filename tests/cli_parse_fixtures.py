"""Running the CLI in-process with a given stdin: what tests/test_cli_parse*.py and tests/test_cli_commands.py share."""

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
