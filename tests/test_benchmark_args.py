"""The benchmarks' list arguments (benchmarks/_args.py): a malformed value or an unknown name is a usage error naming
the option, before any data is read or model loaded, not a traceback once the work has begun."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

BENCHMARKS = Path(__file__).resolve().parent.parent / "benchmarks"


@pytest.mark.parametrize(("script", "args", "message"), [
    ("feature_collisions.py", ["--sizes", "1000,x"],
     "argument --sizes: expected ints separated by commas, not '1000,x'"),
    ("frontier.py", ["--gum", "g", "--model", "a=b", "--caps", "20,2.5"], "argument --caps: expected ints"),
    ("generative_gap.py", ["--gum", "g", "--margins", "0,two"], "argument --margins: expected floats"),
    ("generative_gap.py", ["--gum", "g", "--beams", "1e3"], "argument --beams: expected GAMMA:CAP"),
    ("generative_jobs.py", ["--gum", "g", "--jobs", "1,"], "argument --jobs: expected ints"),
    ("lookahead.py", ["--model", "m", "--train", "t", "--dev", "d", "--weights", "0,w"], "argument --weights"),
    ("memory.py", ["--gum", "g", "--sizes", "1k"], "argument --sizes: expected ints"),
    ("parsing.py", ["--one", "gold", "baseline", "--gen-weight", "10,x"], "argument --gen-weight: expected floats"),
    ("tag_bonus.py", ["--model", "m", "--lambdas", "0,1,,4"], "argument --lambdas: expected floats"),
    ("memory.py", ["--gum", "g", "--stages", "generative,tagger"], "'tagger' is not one of generative, combined"),
    ("measures.py", ["--configs", "default,nope"], "argument --configs: 'nope' is not one of default,"),
    ("scaling.py", ["--gum", "g", "--configs", "2:x:uniform"], "argument --configs: expected fields like 2:2:uniform"),
    ("scaling.py", ["--gum", "g", "--configs", "2:2"], "argument --configs: expected 3 fields like 2:2:uniform"),
    ("scaling.py", ["--gum", "g", "--parts", "parse,train"], "argument --parts: 'train' is not one of tagger"),
    ("parsing.py", ["--conditions", "gold"], "argument --conditions: expected 2 fields like gold:punct, not 'gold'"),
    ("parsing.py", ["--conditions", "gold:fancy"], "argument --conditions: 'fancy' is not one of baseline"),
])
def test_benchmark_list_arguments_are_usage_errors(script: str, args: list[str], message: str) -> None:
    run = subprocess.run([sys.executable, str(BENCHMARKS / script), *args], capture_output=True, text=True,
                         timeout=120)
    assert run.returncode == 2, run.stderr
    assert message in run.stderr.splitlines()[-1] and "Traceback" not in run.stderr
