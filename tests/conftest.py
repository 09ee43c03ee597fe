"""Shared fixtures. Tests read only files shipped in this repository (tests/data, package data)."""

from __future__ import annotations

import contextlib
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

settings.register_profile("ci", max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("ci")

TEST_DATA = Path(__file__).parent / "data"


@pytest.fixture(scope="session")
def test_data() -> Path:
    """Folder of the test fixtures (reference EVALB outputs, small corpora)."""
    return TEST_DATA


def snapshot(path: Path) -> dict[str, bytes]:
    """Every file and folder under ``path`` with its bytes: what a test compares to show nothing was changed."""
    return {str(p.relative_to(path)): (p.read_bytes() if p.is_file() else b"<dir>") for p in sorted(path.rglob("*"))}


@pytest.fixture()
def trees_file(tmp_path: Path) -> Path:
    """The small hand-written treebank (tests/toy_trees.py) as a one-tree-per-line file."""
    from toy_trees import TINY

    path = tmp_path / "toy.trees"
    path.write_text("\n".join(TINY) + "\n")
    return path


@contextlib.contextmanager
def coprocess(*args: str, timeout: float = 90) -> Iterator[subprocess.Popen[str]]:
    """``glmnlp ARGS`` as a co-process (a program that writes a line and reads its answer before the next): its pipes
    in text mode, line-buffered, and a watchdog that ends it after ``timeout`` seconds, so that a command that never
    answers fails the test instead of hanging it."""
    command = [sys.executable, "-c", "import sys; from glmnlp.cli import main; sys.exit(main())", *args]
    with subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          text=True, bufsize=1) as proc:
        watchdog = threading.Timer(timeout, proc.kill)
        watchdog.start()
        try:
            yield proc
        finally:
            watchdog.cancel()


def dead_pid() -> int:
    """The process id of a process that has ended (a child run and waited for): what a killed run's leftovers name."""
    return int(subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True,
                              text=True, check=True).stdout)


@pytest.fixture(scope="session")
def tiny_model(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A perceptron-only pipeline model written by ``glmnlp train-default`` on 60 training trees: the model of the CLI
    tests of tests/test_cli_parse*.py and tests/test_cli_commands.py, trained once for all of them (about 10 s; a
    module that defines its own ``tiny_model``, as tests/test_fuzz.py does, uses that one)."""
    from glmnlp.cli import main

    out = tmp_path_factory.mktemp("cli") / "model"
    rc = main(["train-default", "--out", str(out), "--max-train", "60", "--max-dev", "8", "--max-test", "5",
               "--parser-epochs", "1", "--generative-weights", "0", "--quiet"])
    assert rc == 0
    return out


@pytest.fixture
def toy_trees(tmp_path: Path) -> Path:
    """The small hand-written treebank twice (12 trees) as a one-tree-per-line file: the training file of
    tests/test_cli_consistency*.py."""
    from toy_trees import TINY

    path = tmp_path / "toy.trees"
    path.write_text("\n".join(TINY * 2) + "\n", encoding="utf-8")  # 12: deleted estimation needs 10
    return path
