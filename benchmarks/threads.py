"""One loaded pipeline shared by N threads: same trees as one thread, and the peak memory.

Each of N threads parses the first 200 sentences of the PTB sample's test split (pre-tokenised)
with the bundled model; the script checks that every thread got the trees of thread 0 and prints
the process's peak resident memory. Run it once per N (peak memory is per process)::

    python benchmarks/threads.py 1
    python benchmarks/threads.py 4
"""

from __future__ import annotations

import argparse
import hashlib
import resource
import threading

import glmnlp
from _args import at_least  # benchmarks/_args.py
from glmnlp.treebank.corpus import sample_tagged


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("threads", type=at_least(1), nargs="?", default=4, help="threads sharing the pipeline (default 4)")
    n_threads = ap.parse_args().threads
    sentences = [list(s.words) for s in sample_tagged("test")[:200]]
    nlp = glmnlp.load()
    out: dict[int, list[str]] = {}

    def work(k: int) -> None:
        out[k] = [str(nlp([s]).sentences[0].tree) for s in sentences]

    threads = [threading.Thread(target=work, args=(k,)) for k in range(n_threads)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    same = all(trees == out[0] for trees in out.values())
    digest = hashlib.sha256("\n".join(out[0]).encode()).hexdigest()[:16]
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024
    print(f"{n_threads} threads x {len(sentences)} sentences: identical trees {same} (sha256 {digest}), "
          f"peak RSS {peak} MB")


if __name__ == "__main__":
    main()
