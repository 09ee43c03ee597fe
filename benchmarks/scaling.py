"""Scaling benchmark: serial training against iterative parameter mixing, and parallel parsing.

Trains on the proxy corpus (PTB sample train + GUM train, 13,620 trees; dev = GUM dev, 1,575 trees;
:func:`glmnlp.treebank.gum.proxy_trees`) and reports, per configuration and epoch, the wall time of
the training pass (shards included, dev decoding excluded), the cumulative wall time (dev decoding
included) and the dev score of the averaged weights:

* the tagger (accuracy) and the perceptron parser (EVALB F1, gold tags, +punct features) with
  S = 1 (serial, ``--jobs 1``) and S = 2 shards on 2 local worker processes, uniform and
  update-weighted mixing, and S = 4 shards simulated on 2 workers;
* ``glmnlp parse --jobs 2`` against ``--jobs 1`` on 2,000+ sentences (GUM dev + PTB sample dev and
  test; tagged input, so the timing is the parser's, and plain text, tokenizer and tagger included; model
  loading included; ``--parse-inputs``), output bytes compared.

The report is printed; with ``--out PATH`` it is also written to PATH (and beside it ``.json``, the runs so far,
and ``.png``: dev score against wall time); without ``--out`` no file is written. The machine is shared: speeds
are lower bounds, and the load is printed with the results.

Usage::

    python benchmarks/scaling.py --gum ../shared/data/gum_const [--epochs 3] [--max-train N]
        [--parts tagger,parser,parse] [--out benchmarks/results/scaling.md]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from _args import existing, fields, names, one_of, optional  # benchmarks/_args.py

REFERENCE = (
    "McDonald, Hall & Mann (2010, Table 2/Figure 4): iterative parameter mixing reaches the serial "
    "perceptron's accuracy after the same number of epochs (dependency parsing, NER), with a wall-time "
    "speed-up close to the number of shards for a few shards."
)


@dataclass
class Run:
    model: str
    label: str
    shards: int
    jobs: int
    mixing: str
    epochs: list[dict[str, float]] = field(default_factory=list)
    n_train: int | None = None  # the data the run had (a re-render from --from-json took its current arguments')
    n_dev: int | None = None


def _load() -> str:
    try:
        return " / ".join(f"{x:.2f}" for x in os.getloadavg())
    except OSError:
        return "n/a"


def run_tagger(train: list[Any], dev: list[Any], shards: int, jobs: int, mixing: str, epochs: int) -> Run:
    from glmnlp.tagger.model import Tagger, TaggerConfig
    from glmnlp.treebank.formats import TaggedSentence

    run = Run("tagger", f"S={shards}, {jobs} worker(s), {mixing}", shards, jobs, mixing)
    tr = [TaggedSentence(tuple(t.leaves()), tuple(t.tags())) for t in train]
    dv = [TaggedSentence(tuple(t.leaves()), tuple(t.tags())) for t in dev]
    start = time.perf_counter()

    def on_epoch(r: Any) -> None:
        run.epochs.append({"epoch": r.epoch, "train_s": r.seconds, "wall_s": time.perf_counter() - start,
                           "dev": 100 * (r.dev_score or 0.0)})
        print(f"  tagger {run.label} epoch {r.epoch}: {r.seconds:.1f}s dev {100 * (r.dev_score or 0):.2f}",
              file=sys.stderr, flush=True)

    Tagger(TaggerConfig(epochs=epochs, seed=0, shards=shards, mixing=mixing)).fit(
        tr, dv, show_progress=False, on_epoch=on_epoch, jobs=jobs
    )
    return run


def run_parser(train: list[Any], dev: list[Any], shards: int, jobs: int, mixing: str, epochs: int) -> Run:
    from glmnlp.parser.model import ParserConfig
    from glmnlp.parser.training import train_parser

    run = Run("parser", f"S={shards}, {jobs} worker(s), {mixing}", shards, jobs, mixing)
    start = time.perf_counter()

    def on_epoch(log: Any) -> None:
        run.epochs.append({"epoch": log.epoch, "train_s": log.seconds, "wall_s": time.perf_counter() - start,
                           "dev": log.dev_f1})
        print(f"  parser {run.label} epoch {log.epoch}: {log.seconds:.1f}s dev F1 {log.dev_f1:.2f}",
              file=sys.stderr, flush=True)

    config = ParserConfig(epochs=epochs, seed=0, shards=shards, mixing=mixing)
    train_parser(train, dev, config, show_progress=False, on_epoch=on_epoch, jobs=jobs)
    return run


def run_parse(dev: list[Any], model_dir: Path, jobs_list: list[int], inputs: list[str]) -> list[dict[str, Any]]:
    """glmnlp parse on the dev sentences with each --jobs, for each input kind: ``tagged`` (word/TAG lines,
    so the timing is the parser's) and ``text`` (the sentences detokenised, one per line, ``--lines``: the
    tokenizer and the tagger run too); wall time of the whole command (loading included) and output bytes."""
    from nltk.tokenize.treebank import TreebankWordDetokenizer

    plain = {"-LRB-": "(", "-RRB-": ")", "-LCB-": "{", "-RCB-": "}", "-LSB-": "[", "-RSB-": "]"}
    rows = []
    for kind in inputs:
        if kind == "tagged":
            lines = [" ".join(f"{w}/{t}" for w, t in zip(t.leaves(), t.tags())) for t in dev]
            flags = ["--tagged"]
        else:
            detok = TreebankWordDetokenizer()
            lines = [detok.detokenize([plain.get(w, w) for w in t.leaves()]) for t in dev]
            flags = ["--lines"]
        with tempfile.TemporaryDirectory() as tmp:
            src = Path(tmp) / "dev.txt"
            src.write_text("\n".join(lines) + "\n", encoding="utf-8")
            outputs = {}
            for jobs in jobs_list:
                t0 = time.perf_counter()
                proc = subprocess.run(
                    [sys.executable, "-c", "import sys; from glmnlp.cli import main; sys.exit(main())", "parse",
                     *flags, "-q", "-m", str(model_dir), "-i", str(src), "--jobs", str(jobs)],
                    check=False, capture_output=True,
                )
                seconds = time.perf_counter() - t0
                if proc.returncode != 0:
                    raise SystemExit(f"glmnlp parse {kind} --jobs {jobs} failed:\n{proc.stderr.decode()[-3000:]}")
                out = proc.stdout
                outputs[jobs] = out
                first = seconds if jobs == jobs_list[0] else first
                rows.append({"input": kind, "jobs": jobs, "sentences": len(lines), "seconds": seconds,
                             "rate": len(lines) / seconds, "same_as_jobs1": out == outputs[jobs_list[0]],
                             "speedup": first / seconds})
                print(f"  parse {kind} --jobs {jobs}: {seconds:.1f}s", file=sys.stderr, flush=True)
    return rows


def render(runs: list[Run], parse_rows: list[dict[str, Any]], args: argparse.Namespace, n_train: int,
           n_dev: int, loads: list[str]) -> str:
    now = datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    out = [
        "# Scaling: iterative parameter mixing and parallel parsing",
        "",
        f"Command: `python benchmarks/scaling.py {' '.join(sys.argv[1:])}`  ",
        f"Date: {now}; {platform.processor() or platform.machine()}, {os.cpu_count()} cores, Python "
        f"{platform.python_version()}.  ",
        f"Data: proxy corpus, {n_train} training trees (PTB sample train + GUM train), {n_dev} GUM dev trees.  ",
        "Caveat: the 2-core machine was shared with other jobs while this ran (load averages 1/5/15 min "
        f"sampled between runs: {'; '.join(loads)}), so every time is an upper bound and every speed-up a "
        "lower bound of what 2 free cores give.",
        "",
        f"Reference: {REFERENCE}",
        "",
    ]
    for model, score in (("tagger", "dev accuracy %"), ("parser", "dev F1 (gold tags)")):
        rows = [r for r in runs if r.model == model]
        if not rows:
            continue
        out += [f"## {model}", "", f"| configuration | epoch | pass s | cumulative wall s | {score} |",
                "| --- | --- | --- | --- | --- |"]
        for r in rows:
            for e in r.epochs:
                out.append(f"| {r.label} | {e['epoch']} | {e['train_s']:.1f} | {e['wall_s']:.1f} | {e['dev']:.2f} |")
        base = next((r for r in rows if r.shards == 1), None)
        if base and base.epochs:
            out += ["", "| configuration | mean pass s | speed-up vs serial | last-epoch dev − serial |",
                    "| --- | --- | --- | --- |"]
            b = sum(e["train_s"] for e in base.epochs) / len(base.epochs)
            for r in rows:
                if not r.epochs:
                    continue
                m = sum(e["train_s"] for e in r.epochs) / len(r.epochs)
                k = min(len(r.epochs), len(base.epochs)) - 1
                out.append(f"| {r.label} | {m:.1f} | {b / m:.2f}x | {r.epochs[k]['dev'] - base.epochs[k]['dev']:+.2f} |")
        out.append("")
    if parse_rows:
        out += ["## glmnlp parse --jobs", "", "Target: --jobs 2 at least 1.8x faster than --jobs 1 on 2,000+ sentences.", "",
                "| input | --jobs | sentences | seconds | sentences/s | speed-up | output identical to --jobs 1 |",
                "| --- | --- | --- | --- | --- | --- | --- |"]
        for p in parse_rows:
            out.append(f"| {p.get('input', 'tagged')} | {p['jobs']} | {p['sentences']} | {p['seconds']:.1f} | "
                       f"{p['rate']:.1f} | {p.get('speedup', 1.0):.2f}x | {p['same_as_jobs1']} |")
        out.append("")
    return "\n".join(out)


def plot(runs: list[Run], path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    models = sorted({r.model for r in runs})
    fig, axes = plt.subplots(1, len(models), figsize=(6 * len(models), 4), squeeze=False)
    for ax, model in zip(axes[0], models):
        for r in runs:
            if r.model == model and r.epochs:
                ax.plot([e["wall_s"] for e in r.epochs], [e["dev"] for e in r.epochs], marker="o", label=r.label)
        ax.set_xlabel("wall-clock seconds (training + dev decoding)")
        ax.set_ylabel("dev accuracy %" if model == "tagger" else "dev F1")
        ax.set_title(model)
        ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=100)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--gum", type=existing, required=True, help="GUM constituency folder (with train/ and dev/)")
    ap.add_argument("--epochs", type=int, default=3, help="training passes of every configuration")
    ap.add_argument("--max-train", type=int, default=None, help="train on the first N proxy trees (default: all)")
    ap.add_argument("--max-dev", type=int, default=None, help="use the first N GUM dev trees (default: all)")
    ap.add_argument("--parts", type=names("tagger", "parser", "parse"), default="tagger,parser,parse",
                    help="comma-separated among tagger, parser, parse")
    ap.add_argument("--configs", type=fields(int, int, one_of("uniform", "updates"), example="2:2:uniform"),
                    default="1:1:uniform,2:2:uniform,2:2:updates,4:2:uniform",
                    help="shards:jobs:mixing,...")
    ap.add_argument("--parse-inputs", type=names("tagged", "text"), default="tagged,text",
                    help="input kinds of the parse part: tagged, text")
    ap.add_argument("--parse-model", default=None, help="model for the parse part (default: the bundled model)")
    ap.add_argument("--out", default=None,
                    help="also write the markdown report here, the runs (.json) and the plot (.png) beside it "
                         "(default: print the report, write no file)")
    ap.add_argument("--from-json", default=None,
                    help="render the table from the training runs saved by an earlier (possibly interrupted) run "
                         "instead of training again; the parse part still runs if --parts names it (the default "
                         "does: --parts tagger,parser renders only)")
    ap.add_argument("--note", default="", help="a line added under the header (e.g. how the runs were made)")
    args = ap.parse_args()
    if args.out:  # the plot, drawn after the training
        optional("matplotlib")

    from glmnlp.treebank.gum import proxy_trees

    train = proxy_trees(args.gum, "train")[: args.max_train]
    dev = proxy_trees(args.gum, "dev")[: args.max_dev]
    parts, configs = set(args.parts), args.configs
    runs: list[Run] = []
    loads = [_load()]
    out = Path(args.out) if args.out else None
    raw = out.with_suffix(".json") if out else None
    if args.from_json:
        runs = [Run(**r) for r in json.loads(Path(args.from_json).read_text())]
    for model, fn in (("tagger", run_tagger), ("parser", run_parser)):
        if model not in parts or args.from_json:
            continue
        for shards, jobs, mixing in configs:
            runs.append(fn(train, dev, shards, jobs, mixing, args.epochs))
            runs[-1].n_train, runs[-1].n_dev = len(train), len(dev)
            loads.append(_load())
            if raw:
                raw.write_text(json.dumps([r.__dict__ for r in runs], indent=1))
    parse_rows: list[dict[str, Any]] = []
    if "parse" in parts:
        from glmnlp.text.default_model import default_model_path

        model_dir = Path(args.parse_model) if args.parse_model else default_model_path()
        from glmnlp.treebank.corpus import sample_trees

        # 2,000+ sentences: GUM dev, then the PTB sample's dev and test splits
        parse_rows = run_parse(dev + sample_trees("dev") + sample_trees("test"), model_dir, [1, 2],
                               args.parse_inputs)
        loads.append(_load())
    recorded = {(r.n_train, r.n_dev) for r in runs if r.n_train is not None}
    n_train, n_dev = recorded.pop() if len(recorded) == 1 else (len(train), len(dev))
    if args.from_json:  # the date and loads of the header are this re-render's
        loads = [f"{loads[0]} (re-rendered from {args.from_json}: not the runs' loads)"]
    text = render(runs, parse_rows, args, n_train, n_dev, loads)
    if args.note:
        head, _, rest = text.partition("\n\n")
        text = f"{head}\n\n{args.note}\n\n{rest}"
    print(text)
    if out:
        out.write_text(text + "\n", encoding="utf-8")
        written = [out]
        if runs:
            plot(runs, out.with_suffix(".png"))
            written += [raw, out.with_suffix(".png")] if not args.from_json else [out.with_suffix(".png")]
        print(f"wrote {', '.join(map(str, written))}", file=sys.stderr)


if __name__ == "__main__":
    main()
