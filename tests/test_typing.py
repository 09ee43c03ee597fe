"""The package type-checks: ``python -m mypy`` with the configuration in pyproject.toml ([tool.mypy]) finds nothing.

Skipped where mypy is not installed, and where the tests run without the sources (against an installed wheel).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def test_package_type_checks(tmp_path: Path) -> None:
    pytest.importorskip("mypy")
    if not (ROOT / "src" / "glmnlp").is_dir() or not (ROOT / "pyproject.toml").is_file():
        pytest.skip("the sources (src/glmnlp and pyproject.toml) are not in this checkout")
    # the cache under tmp_path: nothing is written into the repository
    done = subprocess.run(
        [sys.executable, "-m", "mypy", "--config-file", str(ROOT / "pyproject.toml"),
         "--cache-dir", str(tmp_path / "mypy_cache")],
        cwd=ROOT, capture_output=True, text=True, timeout=600,
    )
    assert done.returncode == 0, f"mypy found problems (exit {done.returncode}):\n{done.stdout}{done.stderr}"


def test_the_examples_type_check_strictly_against_the_package(tmp_path: Path) -> None:
    """``examples/glm_segmentation.py``, the template of a new task, failed ``mypy --strict`` where a typed user
    copies it: its ``evaluate`` took ``list[Example]`` where the GLMTask protocol gives a ``Sequence``. The package's
    own modules are read (not reported: the package's check is the test above)."""
    pytest.importorskip("mypy")
    examples = sorted((ROOT / "examples").glob("*.py"))
    if not examples or not (ROOT / "src" / "glmnlp").is_dir():
        pytest.skip("the sources (src/glmnlp and examples/) are not in this checkout")
    done = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--follow-imports=silent",
         "--config-file", str(ROOT / "pyproject.toml"), "--cache-dir", str(tmp_path / "mypy_cache"),
         *map(str, examples)],
        cwd=ROOT, capture_output=True, text=True, timeout=600, env={**os.environ, "MYPYPATH": str(ROOT / "src")},
    )
    assert done.returncode == 0, f"mypy --strict found problems (exit {done.returncode}):\n{done.stdout}{done.stderr}"
