"""``Pipeline.replace`` names what it may change: it took ``**changes``, which help() and type checkers could not
see (``replace(max_word=3)`` passed ``mypy --strict``, and help() showed ``replace(self, **changes)``)."""

from __future__ import annotations

import inspect
import os
import subprocess
import sys
from pathlib import Path

import pytest

from glmnlp.text.pipeline import Pipeline

ROOT = Path(__file__).resolve().parent.parent
FIELDS = ["tagger", "parser", "lines", "multitag_margin", "max_words"]


def test_replace_has_a_keyword_only_parameter_per_field_left_unchanged_by_default() -> None:
    """Each field a keyword-only parameter whose default keeps the pipeline's value (None is a value: no tagger);
    help() shows it as UNCHANGED; leaving one out, or giving UNCHANGED, keeps it."""
    from glmnlp.text.pipeline import UNCHANGED

    params = inspect.signature(Pipeline.replace).parameters
    assert list(params)[1:] == FIELDS
    assert all(p.kind is inspect.Parameter.KEYWORD_ONLY and p.default is UNCHANGED for p in list(params.values())[1:])
    assert "Unchanged' = UNCHANGED, parser" in str(inspect.signature(Pipeline.replace))
    nlp = Pipeline(lines=True, max_words=9)
    same = nlp.replace(lines=UNCHANGED, max_words=UNCHANGED)
    assert (same.lines, same.max_words, same.multitag_margin) == (True, 9, None)


def test_replace_is_typed_for_a_strict_user(tmp_path: Path) -> None:
    """``mypy --strict`` sees the parameters: a misspelt one and a value of the wrong type are errors, the right
    ones pass."""
    pytest.importorskip("mypy")
    if not (ROOT / "src" / "glmnlp").is_dir():
        pytest.skip("the sources (src/glmnlp) are not in this checkout")
    script = tmp_path / "user.py"
    script.write_text("from glmnlp.text.pipeline import Pipeline\n\n"
                      "nlp = Pipeline()\n"
                      "nlp.replace(lines=True, multitag_margin=None, max_words=40, tagger=None)\n"
                      "nlp.replace(max_word=3)\n"
                      "nlp.replace(max_words='3')\n", encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--follow-imports=silent", "--config-file",
         str(ROOT / "pyproject.toml"), "--cache-dir", str(tmp_path / "mypy_cache"), str(script)],
        cwd=ROOT, capture_output=True, text=True, timeout=600, env={**os.environ, "MYPYPATH": str(ROOT / "src")},
    )
    errors = [line for line in done.stdout.splitlines() if ": error:" in line]
    assert [line.split(":")[1] for line in errors] == ["5", "6"], done.stdout + done.stderr
    assert '"max_word"' in errors[0] and '"str"' in errors[1], done.stdout
