"""The benchmarks' arguments (benchmarks/_args.py): a malformed value, an unknown name, a number below its bound or a
missing path is a usage error naming the option, before any data is read or model loaded, not a traceback once the
work has begun (or a run of something else)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

BENCHMARKS = Path(__file__).resolve().parent.parent / "benchmarks"
#: a folder that exists, for the path arguments checked before the argument a case is about
DIR = str(BENCHMARKS)


@pytest.mark.parametrize(("script", "args", "message"), [
    ("feature_collisions.py", ["--sizes", "1000,x"],
     "argument --sizes: expected ints separated by commas, not '1000,x'"),
    ("frontier.py", ["--gum", DIR, "--model", "a=b", "--caps", "20,2.5"], "argument --caps: expected ints"),
    ("generative_gap.py", ["--gum", DIR, "--margins", "0,two"], "argument --margins: expected floats"),
    ("generative_gap.py", ["--gum", DIR, "--beams", "1e3"], "argument --beams: expected GAMMA:CAP"),
    ("generative_jobs.py", ["--gum", DIR, "--jobs", "1,"], "argument --jobs: expected ints"),
    ("lookahead.py", ["--model", "m", "--train", "t", "--dev", "d", "--weights", "0,w"], "argument --weights"),
    ("memory.py", ["--gum", DIR, "--sizes", "1k"], "argument --sizes: expected ints"),
    ("parsing.py", ["--one", "gold", "baseline", "--gen-weight", "10,x"], "argument --gen-weight: expected floats"),
    ("tag_bonus.py", ["--model", DIR, "--lambdas", "0,1,,4"], "argument --lambdas: expected floats"),
    ("memory.py", ["--gum", DIR, "--stages", "generative,tagger"], "'tagger' is not one of generative, combined"),
    ("measures.py", ["--configs", "default,nope"], "argument --configs: 'nope' is not one of default,"),
    ("scaling.py", ["--gum", DIR, "--configs", "2:x:uniform"], "argument --configs: expected fields like 2:2:uniform"),
    ("scaling.py", ["--gum", DIR, "--configs", "2:2"], "argument --configs: expected 3 fields like 2:2:uniform"),
    ("scaling.py", ["--gum", DIR, "--parts", "parse,train"], "argument --parts: 'train' is not one of tagger"),
    ("parsing.py", ["--conditions", "gold"], "argument --conditions: expected 2 fields like gold:punct, not 'gold'"),
    ("parsing.py", ["--conditions", "gold:fancy"], "argument --conditions: 'fancy' is not one of baseline"),
    # numbers with a lower bound, paths that must exist (KeyError, ModelFileError, FileNotFoundError tracebacks,
    # or a run of something else: --repeats 0 as 1, --seconds -5 as nothing with status 0)
    ("threads.py", ["0"], "argument threads: expected int >= 1, not '0'"),
    ("decoding.py", ["--model", "/nonexistent"], "argument --model: /nonexistent: no such model directory"),
    ("decoding.py", ["--repeat", "0"], "argument --repeat: expected int >= 1"),
    ("everyday.py", ["--model", "/nonexistent"], "argument --model: /nonexistent: no such file or folder"),
    ("measures_cost.py", ["--model", "/nonexistent"], "argument --model: /nonexistent: no such file or folder"),
    ("measures.py", ["--limit", "-1"], "argument --limit: expected int >= 0"),
    ("tokenize_quality.py", ["--ewt", "/nonexistent"], "argument --ewt: /nonexistent: no such file or folder"),
    ("tagger_features.py", ["--epochs", "0"], "argument --epochs: expected int >= 1"),
    ("tagger_features.py", ["--sets", "bogus"], "argument --sets: invalid choice: 'bogus'"),
    ("tagging.py", ["--repeats", "0"], "argument --repeats: expected int >= 1"),
    ("tagging.py", ["--data-dir", "/nonexistent"], "argument --data-dir: /nonexistent: no such file or folder"),
    ("fuzz.py", ["--seconds", "-5"], "argument --seconds: expected float >= 1"),
    ("fuzz.py", ["--hang", "nan"], "argument --hang: expected float >= 0.1"),
    ("training_curves.py", ["--epochs", "0"], "argument --epochs: expected int >= 1"),
    ("search_errors.py", ["--beams", "1e7:40,1e8"], "argument --beams: expected GAMMA:CAP"),
    ("search_errors.py", ["--tags", "silver"], "argument --tags: 'silver' is not one of gold, tagger"),
    # a missing data folder was a traceback once the work began (feature_collisions and generative_gap by default
    # from another folder than the repository's: their default was relative to the current folder)
    ("feature_collisions.py", ["--gum", "/nonexistent"], "argument --gum: /nonexistent: no such file or folder"),
    ("scaling.py", ["--gum", "/nonexistent"], "argument --gum: /nonexistent: no such file or folder"),
    ("frontier.py", ["--gum", "/nonexistent", "--model", "a=b"], "argument --gum: /nonexistent: no such file"),
    ("tag_bonus.py", ["--model", DIR, "--average", "/nonexistent"], "argument --average: /nonexistent: no such"),
])
def test_benchmark_list_arguments_are_usage_errors(script: str, args: list[str], message: str) -> None:
    run = subprocess.run([sys.executable, str(BENCHMARKS / script), *args], capture_output=True, text=True,
                         timeout=120)
    assert run.returncode == 2, run.stderr
    assert message in run.stderr.splitlines()[-1] and "Traceback" not in run.stderr


def test_benchmark_help_keeps_its_example_commands_whole() -> None:
    """training_curves.py's --help showed its example command with the line continuation gone (a backslash in a
    docstring that was not raw joined the lines)."""
    run = subprocess.run([sys.executable, str(BENCHMARKS / "training_curves.py"), "--help"], capture_output=True,
                         text=True, timeout=120)
    assert run.returncode == 0 and "training_curves.png \\\n" in run.stdout


@pytest.mark.parametrize("patch", sorted(p.name for p in (BENCHMARKS / "patches").glob("*.patch")))
def test_benchmark_patches_apply_to_the_sources(patch: str) -> None:
    """The result files tell a reader to apply these patches to a copy of the sources; two of them had stopped
    applying (the decoder's retry and the combined model's imports had changed under them)."""
    import shutil

    git = shutil.which("git")
    if git is None:
        pytest.skip("git is not installed")
    done = subprocess.run([git, "apply", "--check", str(BENCHMARKS / "patches" / patch)], cwd=BENCHMARKS.parent,
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


#: runs every benchmark as ``__main__`` with ArgumentParser.parse_args stopped before any work, and prints the
#: defaults of its options that name a file or folder inside benchmarks/results (one ``script: --option default``
#: line each), then the scripts whose parser it reached
_DEFAULTS_IN_RESULTS = r"""
import argparse, os, runpy, sys
from pathlib import Path

benchmarks = Path(sys.argv[1])
results = (benchmarks / "results").resolve()
sys.path.insert(0, str(benchmarks))


class Stop(Exception):
    pass


def stop(self, *args, **kwargs):
    reached.append(script)
    for action in self._actions:
        if isinstance(action.default, (str, os.PathLike)) and str(action.default):
            path = (benchmarks.parent / action.default).resolve()
            if path == results or results in path.parents:
                print(f"{script}: {'/'.join(action.option_strings)} {action.default}")
    raise Stop


argparse.ArgumentParser.parse_args = stop
argparse.ArgumentParser.parse_known_args = stop
reached = []
for script in sorted(p.name for p in benchmarks.glob("*.py") if not p.name.startswith("_")):
    sys.argv = [script]
    try:
        runpy.run_path(str(benchmarks / script), run_name="__main__")
    except Stop:
        pass
print("reached", *reached)
"""


def test_benchmarks_write_no_committed_result_by_default() -> None:
    """scaling.py without --out replaced the committed results/scaling.md (a file of dated sections written by hand)
    and its .json and .png, frontier.py wrote results/frontier.md and training_curves.py results/training_curves.png:
    no option of a benchmark defaults to a path inside benchmarks/results (a file is written when --out names it)."""
    run = subprocess.run([sys.executable, "-c", _DEFAULTS_IN_RESULTS, str(BENCHMARKS)], capture_output=True,
                         text=True, timeout=300, cwd=BENCHMARKS.parent)
    assert run.returncode == 0, run.stderr
    scripts = sorted(p.name for p in BENCHMARKS.glob("*.py") if not p.name.startswith("_"))
    assert run.stdout == f"reached {' '.join(scripts)}\n"


@pytest.mark.parametrize(("script", "args", "module"), [
    ("tagging.py", ["--systems", "glmnlp", "crfsuite-ap"], "pycrfsuite"),
    ("training_curves.py", ["--out", "curves.png"], "matplotlib"),
])
def test_benchmark_missing_package_is_one_line(tmp_path: Path, script: str, args: list[str], module: str) -> None:
    """tagging.py without crfsuite printed a worker's traceback and an empty table: a package of the bench extra
    that cannot be imported is one line naming pip install '.[bench]', before any training."""
    (tmp_path / module).mkdir()
    (tmp_path / module / "__init__.py").write_text(f'raise ImportError("No module named {module!r}")\n')
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(tmp_path), *sys.path])}
    run = subprocess.run([sys.executable, str(BENCHMARKS / script), *args], capture_output=True, text=True,
                         timeout=120, env=env, cwd=tmp_path)
    assert run.returncode == 1 and run.stdout == ""
    assert run.stderr.splitlines() == [f"{script}: cannot import {module} (No module named {module!r}); "
                                       "the benchmarks' packages: pip install '.[bench]'"]
