"""The package's metadata: one version, and dependency floors that give the behaviour the docs describe."""

from __future__ import annotations

import importlib.metadata
import re
import tomllib
from pathlib import Path

import glmnlp

PYPROJECT = tomllib.loads((Path(__file__).resolve().parent.parent / "pyproject.toml").read_text(encoding="utf-8"))


def test_the_version_is_written_in_one_place() -> None:
    """pyproject.toml and glmnlp/_version.py each held "0.1.0": a release that changed one installed a package whose
    metadata said 0.2.0 and whose ``glmnlp --version`` said 0.1.0. The metadata's version is read from the module."""
    project = PYPROJECT["project"]
    assert "version" not in project and "version" in project["dynamic"]
    assert PYPROJECT["tool"]["setuptools"]["dynamic"]["version"] == {"attr": "glmnlp._version.__version__"}
    assert importlib.metadata.version("glmnlp") == glmnlp.__version__


def test_click_is_new_enough_for_the_end_by_sigint() -> None:
    """With click 8.1.0-8.1.3 (which ``click>=8.1`` let stay installed) Ctrl-C ended a command with status 1, not by
    SIGINT as docs/cli.md says (a shell loop of commands went on); 8.1.4 is the floor."""
    floor = next(d for d in PYPROJECT["project"]["dependencies"] if re.match(r"click\b", d))
    assert tuple(int(x) for x in floor.split(">=")[1].split(".")) >= (8, 1, 4)
