"""Shared by the benchmarks that run a child process: time it under /usr/bin/time -v (what it trained is digested by
:func:`glmnlp.glm.model_io.parts_digest`)."""

from __future__ import annotations

import json
import re
import subprocess
from typing import Any


def run_measured(cmd: list[str], what: str) -> tuple[dict[str, Any], int]:
    """Run ``cmd`` under ``/usr/bin/time -v``; returns (the JSON of its last stdout line, peak RSS in MB).

    The peak is that of the largest single process (the child or one of the processes it waited for).
    """
    proc = subprocess.run(["/usr/bin/time", "-v", *cmd], capture_output=True, text=True, check=False)
    if proc.returncode != 0:
        raise SystemExit(f"{what} failed:\n{proc.stderr[-3000:]}")
    result = json.loads(proc.stdout.strip().splitlines()[-1])
    peak = re.search(r"Maximum resident set size \(kbytes\): (\d+)", proc.stderr)
    if peak is None:
        raise SystemExit(f"{what}: /usr/bin/time printed no peak memory")
    return result, round(int(peak.group(1)) / 1024)
