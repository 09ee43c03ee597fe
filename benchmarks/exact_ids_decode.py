"""What exact feature ids would cost the decoder: the same parses with a key-table lookup instead of a slot.

The parser hashes each feature to 64 bits and reads the weight of its low ``n_bits`` (the slot).
Exact ids would instead look the feature's key up in a table of the keys the model has weights for.
This emulates that lookup on a trained model without retraining it, so the parses (and their digest)
stay those of the model:

1. an experimental decoder (``benchmarks/patches/exact_ids_decode.patch``, applied to a copy of this
   checkout's committed sources, ``git archive HEAD``, in a temporary directory and built there; the
   library itself is untouched; a later change of the decoder may need the patch redone)
   keeps each feature's 64-bit key next to its slot, and can collect the keys of every scored node;
2. one pass over the test split collects the keys; those whose slot holds a non-zero weight get that
   weight in an open-addressing table (linear probing, at most half full, key and value side by
   side: one cache line a probe);
3. when every such weight is a float32 number (the default recipe's models; round a model's weights
   to float32 to measure another), the same keys also go into **slot buckets** (mode 4): the table
   keeps, for every 4 consecutive slots, 4 entries of (the key's high 32 bits, its float32 weight),
   32 bytes, the size of the 4 float64 weights it replaces; a key is looked up behind the slot bitmap
   as today, reads the bucket of its slot (one cache line, as today's read of the slot's weight)
   and takes the entry whose 32 check bits equal its own, without a branch (none: +0.0); the keys of
   a bucket's slots beyond its 4 entries are found in the key table (a full bucket without a match
   looks there);
4. the test split is parsed again with the slots (mode 0), with the key table (mode 2), with the
   key table behind the slot bitmap as a filter (mode 3: a key whose slot is zero is not looked up)
   and with the slot buckets (mode 4), alternated, best of 5 parses each; the digests must equal the
   slots' one.

    python benchmarks/exact_ids_decode.py --model /tmp/p        # a perceptron-only pipeline model
    python benchmarks/exact_ids_decode.py --model default       # the bundled model

Needs a compiler, Cython and setuptools (``pip install '.[bench]'``; ``pip install .`` builds in an isolated
environment and leaves neither installed). Results in benchmarks/results/feature_collisions.md.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PATCH = ROOT / "benchmarks" / "patches" / "exact_ids_decode.patch"


def _table(keys, vals):  # type: ignore[no-untyped-def]
    import numpy as np

    cap = 16
    while cap < 2 * len(keys):
        cap *= 2
    tab = np.zeros(2 * cap, dtype=np.uint64)
    mask = cap - 1
    for k, v in zip(keys.tolist(), vals.view(np.uint64).tolist(), strict=True):
        i = k & mask
        while tab[2 * i] != 0:
            i = (i + 1) & mask
        tab[2 * i] = k
        tab[2 * i + 1] = v
    return tab


def _buckets(keys, single, mask):  # type: ignore[no-untyped-def]
    """(slot buckets, keys left over): per 4 slots 4 entries (key >> 32) << 32 | float32 bits (mode 4)."""
    import numpy as np

    bucket = ((keys & mask) >> np.uint64(2)).astype(np.int64)
    order = np.argsort(bucket, kind="stable")
    b = bucket[order]
    starts = np.r_[0, np.flatnonzero(np.diff(b)) + 1]
    rank = np.arange(len(b)) - np.repeat(starts, np.diff(np.r_[starts, len(b)]))
    entries = ((keys[order] >> np.uint64(32)) << np.uint64(32)) | single[order].view(np.uint32).astype(np.uint64)
    tab = np.zeros(int(mask) + 1, dtype=np.uint64)
    fit = rank < 4
    tab[b[fit] * 4 + rank[fit]] = entries[fit]
    return tab, int((~fit).sum())


def measure(model: str, rounds: int, parser_dir: str | None = None) -> None:
    import numpy as np

    sys.path.insert(0, str(ROOT / "benchmarks"))
    from decoding import digest, parse_all, workload

    parser, test, tags = workload(model, None, parser_dir)
    beam = parser._beam
    beam.set_key_mode(1)
    reference = digest(parse_all(parser, test, tags))
    keys = np.unique(beam.collected())
    mask = np.uint64((1 << parser.config.n_bits) - 1)
    nonzero = parser.nonzero_bits()
    slots = keys & mask
    has_weight = ((nonzero[(slots >> np.uint64(6)).astype(np.int64)] >> (slots & np.uint64(63))) & np.uint64(1)) == 1
    kept = keys[has_weight]
    values = np.asarray(parser.weights)[(kept & mask).astype(np.int64)]
    table = _table(kept, values)
    name = model if parser_dir is None else f"{model} + {parser_dir}"
    print(f"model {name}: {len(keys):,} distinct feature keys scored, {len(kept):,} of them on a non-zero slot; "
          f"table of {len(table) // 2:,} slots ({table.nbytes / 2**20:.0f} MB)", flush=True)
    single = values.astype(np.float32)
    modes = [0, 2, 3]
    if np.array_equal(single.astype(np.float64).view(np.uint64), values.view(np.uint64)):
        buckets, left = _buckets(kept, single, mask)
        beam.set_buckets(buckets)
        modes.append(4)
        print(f"slot buckets: {buckets.nbytes / 2**20:.0f} MB, {left:,} keys beyond their bucket's 4 entries",
              flush=True)
    else:
        print("slot buckets (mode 4) skipped: the weights are not all float32 numbers", flush=True)
    names = {0: "slots (mode 0) sent/s", 2: "key table (mode 2)", 3: "key table after the bitmap (mode 3)",
             4: "slot buckets after the bitmap (mode 4)"}
    print("| round | " + " | ".join(names[m] for m in modes) + " | digests equal |")
    print("| --- " * (len(modes) + 2) + "|")
    for r in range(rounds):
        rates, same = [], True
        for mode in modes:
            beam.set_key_mode(mode, table)
            best = float("inf")
            for _ in range(5):
                t0 = time.process_time()
                results = parse_all(parser, test, tags)
                best = min(best, time.process_time() - t0)
            rates.append(len(test) / best)
            same = same and digest(results) == reference
        print(f"| {r + 1} | " + " | ".join(f"{x:.1f}" for x in rates) + f" | {same} |", flush=True)


def _run(cmd: list[str], what: str, cwd: Path | None = None) -> bytes:
    """Run ``cmd`` quietly and return its output; if it fails, show its stderr (the build says what it lacks, e.g.
    Cython) and exit with one line."""
    done = subprocess.run(cmd, cwd=cwd, capture_output=True)
    if done.returncode != 0:
        sys.stderr.write(done.stderr.decode(errors="replace"))
        raise SystemExit(f"exact_ids_decode.py: {what} failed (status {done.returncode}); it needs a compiler, "
                         "Cython and setuptools: pip install '.[bench]'")
    return done.stdout


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--model", default="default", help="a pipeline model directory, or 'default' (bundled)")
    ap.add_argument("--parser", default=None, metavar="DIR",
                    help="parse with this parser model directory, with the tagger of --model (benchmarks/decoding.py)")
    ap.add_argument("--rounds", type=int, default=2,
                    help="rounds of timing; each round parses the test split 5 times in every mode (default 2)")
    ap.add_argument("--built", help=argparse.SUPPRESS)  # internal: run inside the patched build
    args = ap.parse_args()
    if args.built:
        measure(args.model, args.rounds, args.parser)
        return
    with tempfile.TemporaryDirectory() as tmp:
        src = Path(tmp)
        archive = _run(["git", "-C", str(ROOT), "archive", "HEAD"], "git archive HEAD")
        subprocess.run(["tar", "-x", "-C", str(src)], input=archive, check=True)
        subprocess.run(["patch", "-s", "-p1", "-i", str(PATCH)], cwd=src, check=True)
        _run([sys.executable, "setup.py", "-q", "build_ext", "--inplace"], "the patched build", cwd=src)
        env = {**os.environ, "PYTHONPATH": str(src / "src")}
        extra = [] if args.parser is None else ["--parser", args.parser]
        subprocess.run([sys.executable, __file__, "--model", args.model, "--rounds", str(args.rounds),
                        "--built", "1", *extra], env=env, check=True)


if __name__ == "__main__":
    main()
