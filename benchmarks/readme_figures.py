"""The README's result tables, regenerated from the committed result files (``benchmarks/results/*.md``).

    python benchmarks/readme_figures.py            # print the two tables as the result files give them
    python benchmarks/readme_figures.py --check    # compare with README.md; exit 1 and list differences
    python benchmarks/readme_figures.py --write    # rewrite the figures of README.md's rows in place

Every figure row of the README's parser and tagger tables is listed in :data:`PARSER_ROWS` /
:data:`TAGGER_ROWS` with the result file and row it comes from (as a rule the last such row of the file,
its latest measurement); a figure no result file holds is
written ``-`` (never typed in by hand). The reference parser's row comes from ``glmnlp evalb --demo``
(the bundled reference parses of the test split). ``tests/test_readme_figures.py`` runs the check.
"""

from __future__ import annotations

import argparse
import io
import re
import sys
from contextlib import redirect_stdout
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "benchmarks" / "results"
README = ROOT / "README.md"

PARSER_COLUMNS = ["F1 all", "F1 <=40", "LR", "LP", "tag acc"]
TAGGER_COLUMNS = ["acc %", "unknown-word acc %", "reference (PEERS.md)", "train s", "tokens/s"]


@dataclass(frozen=True)
class Source:
    """A row of a markdown table in a result file: the table is the one whose header has ``has``,
    the row the one whose cells equal ``where`` (column -> value); ``columns`` maps README columns to
    that table's columns (absent: the README writes ``-``); ``gold`` marks gold-tag rows (tag acc 100.00); ``latest``
takes the file's last matching row (results grow at a file's end), else its first (a file that keeps the figures
of what it describes first, and older ones after, as parsing_default_model.md does)."""

    file: str
    where: dict[str, str]
    columns: dict[str, str]
    has: str = "F1 all"
    gold: bool = False
    latest: bool = True  # the last matching row of the file (its latest measurement); False: the first


_PARSER_SAME = {c: c for c in PARSER_COLUMNS}
_NO_TAG = {c: c for c in PARSER_COLUMNS if c != "tag acc"}

#: README parser rows (the "system" cell, then the "tags" cell) -> where their figures come from
PARSER_ROWS: list[tuple[str, str, Source | None]] = [
    ("glmnlp default model", "glmnlp tagger", Source("parsing_default_model.md", {"model": "default"}, _PARSER_SAME,
                                                    latest=False)),
    ("glmnlp combined, weight chosen on dev, pruned generative tables", "glmnlp tagger",
     Source("parsing_generative.md", {"generative tables": "cutoff 2, -t 0.05"}, {"F1 all": "test F1 (dev choices)"},
            has="test F1 (dev choices)")),
    ("glmnlp combined, weight 10, unpruned generative tables, beam grid to gamma 1e8 / cap 100", "glmnlp tagger",
     Source("parsing_generative.md", {"generative tables": "unpruned, beam grid to gamma 1e8 / cap 100"},
            _PARSER_SAME)),
    ("glmnlp perceptron, +punct features", "glmnlp tagger",
     Source("parsing_perceptron.md", {"tags": "tagger", "features": "punct"}, _PARSER_SAME)),
    ("glmnlp perceptron, baseline features", "glmnlp tagger",
     Source("parsing_perceptron.md", {"tags": "tagger", "features": "baseline"}, _PARSER_SAME)),
    ("glmnlp generative model alone", "glmnlp tagger",
     Source("parsing_generative.md", {"tags": "tagger", "model": "generative"}, _PARSER_SAME)),
    ("glmnlp generative model alone", "gold",
     Source("parsing_generative.md", {"tags": "gold", "generative tables": "unpruned"}, _NO_TAG, gold=True)),
    ("glmnlp combined, weight 10, unpruned generative tables, 6 passes", "gold",
     Source("parsing_generative.md", {"tags": "gold", "model": "combined (weight 10)"}, _PARSER_SAME)),
    ("glmnlp combined, weight chosen on dev, pruned generative tables, 4 passes", "gold",
     Source("parsing_generative.md", {"tags": "gold", "generative tables": "cutoff 2, -t 0.05"}, _NO_TAG,
            has="weight: best dev F1 (pass)", gold=True)),
    ("glmnlp perceptron, +punct features", "gold",
     Source("parsing_perceptron.md", {"tags": "gold", "features": "punct"}, _PARSER_SAME)),
    ("reference generative incremental parser, same split", "its own", None),  # glmnlp evalb --demo
]

_TAGGER_MAP = {"acc %": "acc %", "unknown-word acc %": "unk acc %", "reference (PEERS.md)": "reference (PEERS.md)",
               "train s": "train s", "tokens/s": "tok/s"}
_SYSTEMS = {"glmnlp": "glmnlp", "NLTK averaged perceptron": "nltk", "CRFsuite (averaged perceptron)": "crfsuite-ap",
            "CRFsuite (L-BFGS CRF)": "crfsuite-lbfgs"}
_DATA = {"sample (PTB)": "sample", "UD English EWT": "ewt"}


def _cells(line: str) -> list[str]:
    return [c.strip() for c in line.strip().strip("|").split("|")]


def _plain(cell: str) -> str:
    return cell.replace("**", "").replace("`", "").strip()


def read_tables(path: Path) -> list[tuple[list[str], list[list[str]]]]:
    """Every markdown table of a file: (header cells, rows of cells)."""
    tables: list[tuple[list[str], list[list[str]]]] = []
    lines = path.read_text(encoding="utf-8").splitlines()
    k = 0
    while k < len(lines):
        if lines[k].startswith("|") and k + 1 < len(lines) and re.fullmatch(r"\|[\s|:-]+\|?", lines[k + 1].strip()):
            header = [_plain(c) for c in _cells(lines[k])]
            rows = []
            k += 2
            while k < len(lines) and lines[k].startswith("|"):
                rows.append([_plain(c) for c in _cells(lines[k])])
                k += 1
            tables.append((header, rows))
        else:
            k += 1
    return tables


def _lookup(source: Source) -> dict[str, str]:
    path = RESULTS / source.file
    tables = read_tables(path)
    for header, rows in reversed(tables) if source.latest else tables:
        if source.has not in header or not all(col in header for col in source.where):
            continue
        for row in rows:
            cells = dict(zip(header, row))
            if all(cells.get(col) == value for col, value in source.where.items()):
                return cells
    raise LookupError(f"{path}: no table row with {source.where}")


def _demo_figures() -> dict[str, str]:
    from glmnlp.cli import main

    out = io.StringIO()
    with redirect_stdout(out):
        rc = main(["evalb", "--demo"])
    if rc != 0:
        raise RuntimeError("glmnlp evalb --demo failed")
    found: dict[str, list[str]] = {}
    for key, name in (("LR", "Bracketing Recall"), ("LP", "Bracketing Precision"), ("F1", "Bracketing FMeasure"),
                      ("tag acc", "Tagging accuracy")):
        found[key] = re.findall(rf"^{name}\s*=\s*([0-9.]+)", out.getvalue(), flags=re.M)
    return {"F1 all": found["F1"][0], "F1 <=40": found["F1"][1], "LR": found["LR"][0], "LP": found["LP"][0],
            "tag acc": found["tag acc"][0]}


def parser_figures() -> list[tuple[str, str, list[str]]]:
    """(system prefix, tags, figures in PARSER_COLUMNS order) of every README parser row."""
    out = []
    for system, tags, source in PARSER_ROWS:
        if source is None:
            values = _demo_figures()
            out.append((system, tags, [values[c] for c in PARSER_COLUMNS]))
            continue
        cells = _lookup(source)
        figures = [cells[source.columns[c]] if c in source.columns else "-" for c in PARSER_COLUMNS]
        if source.gold and "tag acc" not in source.columns:
            figures[PARSER_COLUMNS.index("tag acc")] = "100.00"  # gold tags: every tag is right
        out.append((system, tags, figures))
    return out


def tagger_figures() -> list[tuple[str, str, list[str]]]:
    """(data, system, figures in TAGGER_COLUMNS order) of every README tagger row (benchmarks/results/tagging.md)."""
    cells_by_key = {}
    for header, rows in read_tables(RESULTS / "tagging.md"):
        if "unk acc %" in header:
            for row in rows:
                cells = dict(zip(header, row))
                cells_by_key[(cells["dataset"], cells["system"])] = cells
    out = []
    for data, key_data in _DATA.items():
        for system, key_system in _SYSTEMS.items():
            cells = cells_by_key[(key_data, key_system)]
            figures = [cells[_TAGGER_MAP[c]] for c in TAGGER_COLUMNS]
            figures[4] = f"{int(figures[4]):,}"
            out.append((data, system, figures))
    return out


def _readme_rows(text: str) -> list[tuple[int, list[str]]]:
    return [(k, _cells(line)) for k, line in enumerate(text.splitlines()) if line.startswith("| ")]


def check(text: str) -> list[str]:
    """Differences between README ``text`` and the figures the result files give (empty: they agree)."""
    problems = []
    rows = _readme_rows(text)
    parser_rows = [(k, c) for k, c in rows if len(c) == 2 + len(PARSER_COLUMNS) and c[0].startswith(("glmnlp", "reference"))]
    tagger_rows = [(k, c) for k, c in rows if len(c) == 2 + len(TAGGER_COLUMNS) and c[0] in _DATA]
    expected = parser_figures()
    if len(parser_rows) != len(expected):
        problems.append(f"README has {len(parser_rows)} parser rows, the result files give {len(expected)}")
    for (k, cells), (system, tags, figures) in zip(parser_rows, expected):
        if not cells[0].startswith(system) or cells[1] != tags:
            problems.append(f"README line {k + 1}: row {cells[0]!r}/{cells[1]!r} where {system!r}/{tags!r} was expected")
        elif cells[2:] != figures:
            problems.append(f"README line {k + 1}: {cells[0][:50]!r} says {cells[2:]}, the result files give {figures}")
    expected_t = tagger_figures()
    if len(tagger_rows) != len(expected_t):
        problems.append(f"README has {len(tagger_rows)} tagger rows, tagging.md gives {len(expected_t)}")
    for (k, cells), (data, system, figures) in zip(tagger_rows, expected_t):
        if cells[0] != data or not cells[1].startswith(system):
            problems.append(f"README line {k + 1}: row {cells[:2]} where {[data, system]} was expected")
        elif cells[2:] != figures:
            problems.append(f"README line {k + 1}: {cells[:2]} says {cells[2:]}, tagging.md gives {figures}")
    return problems


def rewrite(text: str) -> str:
    """README ``text`` with the figures of its parser and tagger rows replaced by the result files' figures."""
    lines = text.splitlines(keepends=True)
    rows = _readme_rows(text)
    parser_rows = [k for k, c in rows if len(c) == 2 + len(PARSER_COLUMNS) and c[0].startswith(("glmnlp", "reference"))]
    tagger_rows = [k for k, c in rows if len(c) == 2 + len(TAGGER_COLUMNS) and c[0] in _DATA]
    for k, (_s, _t, figures) in zip(parser_rows, parser_figures()):
        cells = _cells(lines[k])
        lines[k] = "| " + " | ".join(cells[:2] + figures) + " |\n"
    for k, (_d, _s, figures) in zip(tagger_rows, tagger_figures()):
        cells = _cells(lines[k])
        lines[k] = "| " + " | ".join(cells[:2] + figures) + " |\n"
    return "".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    group = ap.add_mutually_exclusive_group()
    group.add_argument("--check", action="store_true", help="Compare with README.md; exit 1 on a difference.")
    group.add_argument("--write", action="store_true", help="Rewrite README.md's figures in place.")
    args = ap.parse_args(argv)
    text = README.read_text(encoding="utf-8")
    if args.check:
        problems = check(text)
        for p in problems:
            print(p)
        print("README figures agree with the result files" if not problems else f"{len(problems)} difference(s)")
        return 1 if problems else 0
    if args.write:
        README.write_text(rewrite(text), encoding="utf-8")
        return 0
    print("| system | tags | " + " | ".join(PARSER_COLUMNS) + " |")
    for system, tags, figures in parser_figures():
        print(f"| {system} | {tags} | " + " | ".join(figures) + " |")
    print()
    print("| data | system | " + " | ".join(TAGGER_COLUMNS) + " |")
    for data, system, figures in tagger_figures():
        print(f"| {data} | {system} | " + " | ".join(figures) + " |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
