"""Wall time and memory of the combined model's generative stage (the 10 jackknifed models and the
full-data one, ``GenerativeTraining.prepare``) with 1 and with N workers.

Each (jobs, repeat) runs in its own process under ``/usr/bin/time -v``: the data (the first
``--size`` proxy trees, PTB sample train then GUM train) and ``prepare_training`` are done first and
not timed; then ``prepare(parser, examples, jobs=J)`` is timed (``--kind combined`` smoothing:
min_count 2, prune 0.05). Sampled every 50 ms from /proc: the CPU seconds (user + system) of the
process and its workers (at most 50 ms of a worker's last moments missed), those of the busiest
process (a lower bound of the wall time, about reached when each process has a core of its own),
and the peak of their summed RSS (shared pages counted in each process, so an upper bound); also
the "Maximum resident set size" of ``/usr/bin/time`` (the largest single process it waited for).
The last column is the sha256 of every trained array, its metadata, the trained-on ids and the
fold map: the same for every number of workers.

    python benchmarks/generative_jobs.py --gum ../shared/data/gum_const --size 3000 --jobs 1,2 --repeat 2
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import threading
import time
from pathlib import Path
from typing import Any

import numpy as np

from _args import existing, ints  # benchmarks/_args.py
from _measured import run_measured  # benchmarks/_measured.py

from glmnlp.glm.model_io import parts_digest

MB = 1 << 20
PAGE = os.sysconf("SC_PAGE_SIZE")


TICK = os.sysconf("SC_CLK_TCK")


def _tree(root: int) -> dict[int, tuple[int, float]]:
    """{pid: (RSS bytes, CPU seconds user + system)} of ``root`` and its descendants."""
    parent: dict[int, int] = {}
    usage: dict[int, tuple[int, float]] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
            fields = stat[stat.rindex(")") + 2:].split()
            pid = int(entry.name)
            parent[pid] = int(fields[1])
            usage[pid] = (int(fields[21]) * PAGE, (int(fields[11]) + int(fields[12])) / TICK)
        except (OSError, ValueError, IndexError):
            continue
    children: dict[int, list[int]] = {}
    for pid, ppid in parent.items():
        children.setdefault(ppid, []).append(pid)
    out, stack = {}, [root]
    while stack:
        pid = stack.pop()
        if pid in usage:
            out[pid] = usage[pid]
        stack.extend(children.get(pid, []))
    return out


def _digest(hook: Any) -> str:
    jk = hook.jackknife
    parts = [hook.full.to_parts()] + [t.to_parts() for t in jk.terms]
    parts.append(({"trained_on": [sorted(on) for on in jk.trained_on]}, {"fold_of": jk.fold_of}))
    return parts_digest(parts)


def _child(args: argparse.Namespace) -> None:
    from glmnlp.parser.combined import GenerativeTraining
    from glmnlp.parser.generative import SmoothingConfig
    from glmnlp.parser.model import ParserConfig
    from glmnlp.parser.training import prepare_training
    from glmnlp.treebank.gum import proxy_trees

    trees = proxy_trees(args.gum, "train")[: args.size]
    config = ParserConfig(features="punct", train_gamma=1e7, train_cap=30)
    parser, examples = prepare_training(trees, config, np.zeros(1 << config.n_bits))
    peak = [0]
    cpu: dict[int, float] = {}  # last CPU seconds seen of each process of the tree (workers included)
    done = threading.Event()

    def sample() -> None:
        while True:
            tree = _tree(os.getpid())
            peak[0] = max(peak[0], sum(rss for rss, _ in tree.values()))
            cpu.update((pid, c) for pid, (_, c) in tree.items())
            if done.wait(0.05):
                return

    start = dict((pid, c) for pid, (_, c) in _tree(os.getpid()).items())
    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    hook = GenerativeTraining(weight=10.0, folds=10, smoothing=SmoothingConfig(min_count=2, prune=0.05))
    t0 = time.perf_counter()
    hook.prepare(parser, examples, jobs=args.child_jobs)
    seconds = time.perf_counter() - t0
    done.set()
    sampler.join()
    used = [c - start.get(pid, 0.0) for pid, c in cpu.items()]
    print(json.dumps({"seconds": round(seconds, 1), "cpu_seconds": round(sum(used), 1),
                      "busiest_cpu_seconds": round(max(used), 1),
                      "tree_peak_mb": round(peak[0] / MB), "sha256": _digest(hook)}))


def measure(jobs: int, args: argparse.Namespace) -> dict[str, Any]:
    cmd = [sys.executable, __file__, "--gum", args.gum, "--size", str(args.size), "--child-jobs", str(jobs)]
    result, peak_mb = run_measured(cmd, f"jobs {jobs}")
    result["maxrss_mb"] = peak_mb
    return result


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--gum", type=existing, required=True, help="GUM constituency folder (../shared/data/gum_const)")
    ap.add_argument("--size", type=int, default=3000, help="train on the first N proxy trees (default 3000)")
    ap.add_argument("--jobs", type=ints, default="1,2",
                    help="numbers of workers to time, comma-separated (default 1,2)")
    ap.add_argument("--repeat", type=int, default=1, help="runs per number of jobs (interleaved)")
    ap.add_argument("--child-jobs", type=int, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child_jobs is not None:
        _child(args)
        return
    print(f"{args.size} proxy trees; start {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, "
          f"load {os.getloadavg()}")
    print("| jobs | seconds | CPU seconds (all processes) | CPU seconds (busiest process) "
          "| max RSS of one process (time -v) MB | peak summed RSS of the process tree MB | sha256 |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    for _ in range(args.repeat):
        for jobs in args.jobs:
            r = measure(jobs, args)
            print(f"| {jobs} | {r['seconds']} | {r['cpu_seconds']} | {r['busiest_cpu_seconds']} | {r['maxrss_mb']} "
                  f"| {r['tree_peak_mb']} | {r['sha256'][:16]} |", flush=True)
    print(f"\nend {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, load {os.getloadavg()}")


if __name__ == "__main__":
    main()
