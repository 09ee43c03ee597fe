"""The measures' public API as a type checker sees it: ``glmnlp.measures(...)`` was typed ``-> Any``, so that
``mypy --strict`` let a misspelt column through and knew no column's type."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

import glmnlp
from glmnlp.parser.measures import COLUMNS, NEXT_COLUMNS, MeasureRow

ROOT = Path(__file__).resolve().parent.parent

#: a user's script; each ``reveal_type`` line is matched against what mypy must say of it
SCRIPT = '''\
import sys

import glmnlp
from glmnlp.parser.measures import MeasureRow
from glmnlp.text.measures import write_measures

rows = glmnlp.measures("The dog barked.")
reveal_type(rows)  # rows
reveal_type(rows[0]["known"])  # known
reveal_type(rows[0]["units"])  # units
first: MeasureRow = rows[0]
flag: bool = first["known"]
write_measures(rows, sys.stdout, "tsv")
rows[0]["knwon"]  # misspelt
'''
EXPECTED = {
    "rows": r'Revealed type is "builtins.list\[TypedDict\(.*MeasureRow|Revealed type is "list\[TypedDict\(.*MeasureRow',
    "known": r'Revealed type is "(builtins\.)?bool"',
    "units": r"Literal\['bits'\].*Literal\['nats'\]",
    "misspelt": r'has no key "knwon"',
}


@pytest.fixture(scope="module")
def mypy_said(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """What ``mypy --strict`` says of each marked line of :data:`SCRIPT` (the package read, not reported)."""
    pytest.importorskip("mypy")
    if not (ROOT / "src" / "glmnlp").is_dir():
        pytest.skip("the sources (src/glmnlp) are not in this checkout")
    folder = tmp_path_factory.mktemp("user")
    (folder / "user.py").write_text(SCRIPT, encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--follow-imports=silent", "--config-file",
         str(ROOT / "pyproject.toml"), "--cache-dir", str(folder / "mypy_cache"), str(folder / "user.py")],
        cwd=ROOT, capture_output=True, text=True, timeout=600, env={**os.environ, "MYPYPATH": str(ROOT / "src")},
    )
    lines = SCRIPT.splitlines()
    said: dict[str, str] = {}
    for out in done.stdout.splitlines():
        if (m := re.match(r".*user\.py:(\d+): (.*)", out)) and "#" in lines[int(m.group(1)) - 1]:
            mark = lines[int(m.group(1)) - 1].rsplit("# ", 1)[1]
            said[mark] = said.get(mark, "") + m.group(2) + "\n"
    return said | {"_all": done.stdout + done.stderr}


@pytest.mark.parametrize("mark", sorted(EXPECTED))
def test_measures_rows_are_typed_for_a_strict_user(mypy_said: dict[str, str], mark: str) -> None:
    """The rows are ``list[MeasureRow]``: ``known`` a bool, ``units`` bits or nats, a misspelt column an error;
    write_measures takes them."""
    assert re.search(EXPECTED[mark], mypy_said.get(mark, "")), mypy_said["_all"]
    errors = [line for line in mypy_said["_all"].splitlines() if ": error:" in line]
    assert len(errors) == 1 and "knwon" in errors[0], mypy_said["_all"]


def test_measure_row_names_every_column_and_the_next_word_ones_as_optional() -> None:
    """The typed row and the column tables say the same columns, in order; the next-word ones are optional (a
    ``NotRequired`` under postponed annotations read as required at run time)."""
    assert list(MeasureRow.__annotations__) == list(COLUMNS) + list(NEXT_COLUMNS)
    assert MeasureRow.__required_keys__ == frozenset(COLUMNS)
    assert MeasureRow.__optional_keys__ == frozenset(NEXT_COLUMNS)
    row = glmnlp.measures([["It", "barked", "."]])[0]
    declared = {k: getattr(t, "__forward_arg__", t) for k, t in MeasureRow.__annotations__.items() if k in COLUMNS}
    assert {k: type(v) for k, v in row.items()} == {
        k: {"int": int, "bool": bool, "float": float}.get(t, str) for k, t in declared.items()}


def test_plot_measures_saves_an_axes_of_a_subfigure(tmp_path: Path) -> None:
    """An Axes of a subfigure with ``path`` raised ``AttributeError: 'SubFigure' object has no attribute 'savefig'``
    (the Axes type, now declared, showed its figure may be a subfigure); the whole figure is saved."""
    pytest.importorskip("matplotlib")
    from matplotlib.figure import Figure

    rows = glmnlp.measures([["The", "dog", "."]])
    ax = Figure().subfigures(1, 2)[0].subplots()
    assert glmnlp.plot_measures(rows, 1, ax=ax, path=tmp_path / "sub.png") is ax
    assert (tmp_path / "sub.png").read_bytes().startswith(b"\x89PNG")
