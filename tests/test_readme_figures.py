"""The README's parser and tagger tables agree with the committed result files (benchmarks/readme_figures.py)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _script():  # type: ignore[no-untyped-def]
    spec = importlib.util.spec_from_file_location("readme_figures", ROOT / "benchmarks" / "readme_figures.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["readme_figures"] = module  # dataclasses look their module up by name
    spec.loader.exec_module(module)
    return module


def test_readme_figures_agree_with_the_result_files() -> None:
    script = _script()
    assert script.check(script.README.read_text(encoding="utf-8")) == []


def test_readme_figures_check_catches_a_changed_figure() -> None:
    script = _script()
    text = script.README.read_text(encoding="utf-8")
    assert "| 82.09 | 82.05 |" in text
    problems = script.check(text.replace("| 82.09 | 82.05 |", "| 82.09 | 82.06 |", 1))
    assert len(problems) == 1 and "82.06" in problems[0]
    assert script.check(script.rewrite(text.replace("| 82.09 | 82.05 |", "| 82.09 | 82.06 |", 1))) == []
