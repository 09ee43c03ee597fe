"""Longer fuzz run: random and mutated inputs through ``glmnlp parse`` (every input mode and output
format), random bracket texts through the tree reader and EVALB, damaged model directories through
``glmnlp.load``; prints, per target, the inputs tried, clean refusals, crashes, hangs and unreadable
outputs, and the first failing inputs.

    python benchmarks/fuzz.py                       # about 10 minutes on one core
    python benchmarks/fuzz.py --seconds 60 --seed 1 # shorter
    python benchmarks/fuzz.py --out benchmarks/results/fuzz.md
    python benchmarks/fuzz.py --target models --seconds 600 --seed 8   # one target for the whole budget

The targets are the ones of ``tests/test_fuzz.py`` (``tests/fuzz_targets.py``); inputs are drawn
with a seeded ``random.Random`` (reproducible for a seed), time is shared between the targets.
A hang is an input that takes longer than ``--hang`` seconds (SIGALRM; such inputs are reported,
the run goes on). The ``glmnlp parse`` inputs are at most 200 bytes: long inputs are the business
of the sentence-length limits and are measured elsewhere.
"""

from __future__ import annotations

import argparse
import datetime as _dt
import platform
import random
import signal
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from _args import at_least  # noqa: E402  # benchmarks/_args.py

from fuzz_targets import (  # noqa: E402
    FORMATS,
    MODES,
    SEEDS,
    Outcome,
    cached_pipelines,
    model_dir,
    mutate,
    parse_cli,
    tiny_pipeline_dir,
    tree_text,
)

_CHARS = list("()[]{}/\\ \t\n\r.?!,;:'\"`-_$#%&*0123456789aZé€\u00a0\u2028\ufeff\x00") + ["dog", "DT/", "the", "NN"]
_TREE_PIECES = ["(", ")", " ", "NP", "x", "-LRB-", "\n", "(S", "( (", "(NN dog)", "TOP", "é", "\t", "-NONE-", "*"]


class _Hang(Exception):
    pass


def _alarm(_signum: int, _frame: object) -> None:
    raise _Hang()


def _random_bytes(rng: random.Random) -> bytes:
    kind = rng.randrange(3)
    if kind == 0:
        return bytes(rng.randrange(256) for _ in range(rng.randrange(80)))
    if kind == 1:
        return "".join(rng.choice(_CHARS) for _ in range(rng.randrange(60))).encode("utf-8")
    edits = [(rng.randrange(4), rng.randrange(10**6), rng.randrange(256)) for _ in range(rng.randrange(1, 8))]
    return mutate(rng.choice(SEEDS), edits)[:200]


def _parse_case(rng: random.Random) -> tuple[str, Callable[[], Outcome]]:
    data = _random_bytes(rng)
    mode, fmt = rng.choice(sorted(MODES)), rng.choice(FORMATS)
    nbest = rng.choice([1, 1, 2]) if fmt in ("brackets", "json") else 1
    return f"parse mode={mode} format={fmt} nbest={nbest} input={data!r}", lambda: parse_cli(data, mode, fmt, nbest)


def _tree_case(rng: random.Random) -> tuple[str, Callable[[], Outcome]]:
    if rng.random() < 0.5:
        text = "".join(rng.choice(_TREE_PIECES) for _ in range(rng.randrange(40)))
    else:
        text = "".join(rng.choice(_CHARS) for _ in range(rng.randrange(40)))
    return f"tree text {text!r}", lambda: tree_text(text)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seconds", type=at_least(1, float), default=600,
                    help="Total time budget (split between the targets).")
    ap.add_argument("--seed", type=int, default=0, help="Seed of the random inputs (a seed reproduces a run).")
    ap.add_argument("--hang", type=at_least(0.1, float), default=30.0,
                    help="Seconds after which one input counts as a hang.")
    ap.add_argument("--out", type=Path, default=None, help="Also write the table (markdown) to this file.")
    ap.add_argument("--target", action="append", choices=["parse", "trees", "models"], default=None,
                    help="Fuzz only this target (repeatable; default: all three share the time).")
    args = ap.parse_args(argv)

    with tempfile.TemporaryDirectory(prefix="glmnlp-fuzz-") as tmp:  # the small model and its damaged copies
        return _run(args, argv, Path(tmp))


def _run(args: argparse.Namespace, argv: list[str] | None, work: Path) -> int:
    rng = random.Random(args.seed)
    signal.signal(signal.SIGALRM, _alarm)
    print("training a small combined model (perceptron + generative sub-model) for the damaged-model target ...",
          file=sys.stderr)
    source = tiny_pipeline_dir(work / "model", generative=True)

    def model_case(r: random.Random) -> tuple[str, Callable[[], Outcome]]:
        c, w, v = r.randrange(10**6), r.randrange(10**6), r.randrange(10**6)
        return f"model damage choice={c} which={w} value={v}", lambda: model_dir(source, c, w, v, work)

    every: dict[str, tuple[str, Callable[[random.Random], tuple[str, Callable[[], Outcome]]]]] = {
        "parse": ("glmnlp parse (4 input modes x 4 formats, n-best)", _parse_case),
        "trees": ("tree reader + writer round trip + EVALB", _tree_case),
        "models": ("damaged combined model directory -> glmnlp.load + parse", model_case),
    }
    targets = dict(every[k] for k in every if args.target is None or k in args.target)
    rows = []
    failures: list[str] = []
    with cached_pipelines():
        for name, make in targets.items():
            counts = {"tried": 0, "ok": 0, "rejected": 0, "crash": 0, "hang": 0, "unreadable": 0}
            deadline = time.monotonic() + args.seconds / len(targets)
            while time.monotonic() < deadline:
                label, run = make(rng)
                counts["tried"] += 1
                signal.setitimer(signal.ITIMER_REAL, args.hang)
                try:
                    outcome = run()
                except _Hang:
                    outcome = Outcome("hang", f"over {args.hang:g} s")
                finally:
                    signal.setitimer(signal.ITIMER_REAL, 0)
                counts[outcome.status] += 1
                if outcome.status not in ("ok", "rejected"):
                    failures.append(f"[{name}] {outcome.status}: {label}\n    {outcome.detail.strip()[:600]}")
            rows.append((name, counts))
            print(f"{name}: {counts}", file=sys.stderr)

    header = "| target | inputs tried | handled | clean refusals | crashes | hangs | unreadable outputs |"
    lines = [header, "| --- | --- | --- | --- | --- | --- | --- |"]
    for name, c in rows:
        lines.append(f"| {name} | {c['tried']} | {c['ok']} | {c['rejected']} | {c['crash']} | {c['hang']} | "
                     f"{c['unreadable']} |")
    total = {k: sum(c[k] for _, c in rows) for k in rows[0][1]}
    lines.append(f"| total | {total['tried']} | {total['ok']} | {total['rejected']} | {total['crash']} | "
                 f"{total['hang']} | {total['unreadable']} |")
    table = "\n".join(lines)
    print(table)
    for failure in failures[:20]:
        print(failure)
    if args.out is not None:
        command = "python benchmarks/fuzz.py " + " ".join(argv if argv is not None else sys.argv[1:])
        text = (
            "# Fuzzing glmnlp\n\n"
            f"Command: `{command.strip()}`  \n"
            f"Date: {_dt.date.today().isoformat()}; Python {platform.python_version()}, {platform.machine()}; "
            "the 2-core machine was shared with other jobs, so the input counts are lower bounds for the "
            "time budget.\n\n"
            "Handled = the input was processed and every output read back (glmnlp's tree reader, "
            "`glmnlp evalb`, the json and CoNLL-U readers); clean refusal = a one-line `error:` with exit "
            "status 1 (or a `ModelFileError` / `TreeSyntaxError`); crash = any other exception or exit "
            f"status; hang = one input over {args.hang:g} s; unreadable = exit status 0 with output glmnlp "
            "cannot read back. Inputs: random bytes, random text over the characters that matter to the "
            "readers and the tokenizer, and byte-level mutations of hand-picked seeds (at most 200 bytes); "
            "random bracket texts; one damaged file per model copy (a JSON field replaced by an odd value with "
            "the checksums kept consistent, a flipped byte with and without a matching checksum, a truncated "
            "or deleted file).\n\n" + table + "\n"
        )
        if failures:
            text += "\nFirst failures:\n\n" + "\n".join(f"    {f}" for f in failures[:20]) + "\n"
        args.out.write_text(text, encoding="utf-8")
        print(f"wrote {args.out}", file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
