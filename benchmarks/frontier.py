"""Accuracy/speed frontier: dev F1 against sentences/s over a beam grid, for trained parser models.

Each model directory (``--model NAME=DIR``, repeatable; a parser model as ``glmnlp parser train``
writes it, or a pipeline directory with a ``parser/`` sub-model) is loaded once; for every
(gamma, cap) of its grid the dev set is parsed on one core with gold tags (so the tagger does not
enter the figures) and scored with EVALB COLLINS.prm, punctuation-free (tokens without a letter or
digit removed from gold and parse, the GUM convention: ``glmnlp evalb --strip-punct``). Speed is
sentences per second of this process's CPU time (``time.process_time``), so another job on the
machine changes it less than wall time would; the model's own (dev-chosen) beam is marked.

The grid's gamma is in the units of the model's score: perceptron scores (1e2 .. 1e5), the
generative model's log-probabilities (``--kind generative``: 1e1 .. 1e3 and 1e6, i.e. no margin) and
the combined score (weight x log-probability + perceptron: 1e4 .. 1e8). Caps 10, 20, 40 (generative:
20, 100, 300; combined: also 100). ``--caps`` and ``--gammas`` replace every model's caps and gammas.

    python benchmarks/frontier.py --gum ../shared/data/gum_const \\
        --model perceptron=proxy/perceptron --model generative=proxy/generative \\
        --model combined=proxy/combined [--max-dev 600] [--out benchmarks/results/frontier.md]

Output: a table per model, printed; with ``--out PATH`` also written to PATH, with its rows as JSON and a plot of
F1 against sentences/s beside it (the same name with ``.json`` and ``.png``). Without ``--out`` no file is written.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import platform
import sys
import time
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from _args import existing, floats, ints, optional  # benchmarks/_args.py


GRIDS = {
    "perceptron": [1e2, 1e3, 1e4, 1e5],
    "generative": [1e1, 1e2, 1e3, 1e6],
    "combined": [1e4, 1e5, 1e6, 1e7, 1e8],
}
#: The generative model alone needs wider beams (its own grid, glmnlp.parser.combined, is caps 100/300); the
#: combined model's grid reaches cap 100 (glmnlp.parser.combined.COMBINED_CAPS).
CAPS = {"perceptron": [10, 20, 40], "generative": [20, 100, 300], "combined": [10, 20, 40, 100]}


def _kind(parser: Any) -> str:
    if parser.generative is None:
        return "perceptron"
    return "generative" if not parser.weights.any() else "combined"


def _load(path: Path) -> Any:
    from glmnlp.parser.model import Parser

    return Parser.load(path / "parser" if (path / "parser" / "metadata.json").exists() else path)


def measure(parser: Any, dev: list[Any], gammas: list[float], caps: list[int]) -> list[dict[str, Any]]:
    from glmnlp.treebank.evalb import score_trees
    from glmnlp.treebank.evalb_report import COLLINS_PARAMS

    params = dataclasses.replace(COLLINS_PARAMS, strip_punct=True, max_error=10**9)
    chosen = (float(parser.config.gamma), int(parser.config.beam_cap))
    rows = []
    for gamma in gammas:
        for cap in caps:
            parser.config.gamma, parser.config.beam_cap = gamma, cap
            t0 = time.process_time()
            out = [parser.parse(t.leaves(), t.tags()) for t in dev]
            cpu = time.process_time() - t0
            result = score_trees(dev, out, params)
            rows.append({"gamma": gamma, "cap": cap, "f1": result.fmeasure, "sent_per_s": len(dev) / cpu,
                         "chosen": (gamma, cap) == chosen})
            print(f"  gamma {gamma:g} cap {cap}: F1 {result.fmeasure:.2f}, {len(dev) / cpu:.1f} sent/s",
                  file=sys.stderr, flush=True)
    parser.config.gamma, parser.config.beam_cap = chosen
    if not any(r["chosen"] for r in rows):  # the model's own beam, when it is off the grid
        t0 = time.process_time()
        out = [parser.parse(t.leaves(), t.tags()) for t in dev]
        cpu = time.process_time() - t0
        result = score_trees(dev, out, params)
        rows.append({"gamma": chosen[0], "cap": chosen[1], "f1": result.fmeasure, "sent_per_s": len(dev) / cpu,
                     "chosen": True})
    return rows


def render(results: dict[str, dict[str, Any]], command: str, n_dev: int) -> str:
    load = " / ".join(f"{x:.2f}" for x in os.getloadavg())
    lines = [
        "# Accuracy/speed frontier over the beam grid",
        "",
        f"Command: `{command}`  ",
        f"Date: {datetime.now(timezone.utc):%Y-%m-%d %H:%M} UTC; {platform.machine()}, "
        f"{os.cpu_count()} cores, Python {platform.python_version()}; load average at the end {load}.  ",
        f"Dev: GUM dev, first {n_dev} trees, gold tags; EVALB COLLINS.prm with punctuation removed from both "
        "sides (GUM convention). Speed: sentences per CPU second of one process. * = the model's dev-chosen beam.",
        "Reference (../shared/PEERS.md): the C generative incremental parser trained on the same proxy (PTB sample "
        "train + GUM train) scores 81.33 on GUM dev, tagging for itself (94.78%), at its default beam.",
        "",
    ]
    for name, res in results.items():
        lines += [f"## {name} ({res['kind']}, {res['path']})", "",
                  "| gamma | cap | F1 | sentences/s | |", "| --- | --- | --- | --- | --- |"]
        for r in sorted(res["rows"], key=lambda r: (r["gamma"], r["cap"])):
            lines.append(f"| {r['gamma']:g} | {r['cap']} | {r['f1']:.2f} | {r['sent_per_s']:.1f} |"
                         f" {'*' if r['chosen'] else ''} |")
        best = max(res["rows"], key=lambda r: r["f1"])
        fastest_close = max((r for r in res["rows"] if r["f1"] >= best["f1"] - 0.5), key=lambda r: r["sent_per_s"])
        lines += ["", f"Best F1 {best['f1']:.2f} at gamma {best['gamma']:g}, cap {best['cap']} "
                  f"({best['sent_per_s']:.1f} sent/s); within 0.5 F1 of it the fastest is gamma "
                  f"{fastest_close['gamma']:g}, cap {fastest_close['cap']} ({fastest_close['f1']:.2f}, "
                  f"{fastest_close['sent_per_s']:.1f} sent/s).", ""]
    return "\n".join(lines)


def plot(results: dict[str, dict[str, Any]], path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 4.5))
    for name, res in results.items():
        rows = sorted(res["rows"], key=lambda r: r["sent_per_s"])
        ax.plot([r["sent_per_s"] for r in rows], [r["f1"] for r in rows], "o-", label=name, alpha=0.8)
        for r in rows:
            if r["chosen"]:
                ax.plot([r["sent_per_s"]], [r["f1"]], "k*", markersize=12)
    ax.set_xscale("log")
    ax.set_xlabel("sentences per CPU second (one core, log scale)")
    ax.set_ylabel("GUM dev F1 (punctuation removed)")
    ax.set_title("Accuracy/speed over the beam grid (* = dev-chosen beam)")
    ax.grid(True, alpha=0.3)
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=110)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--gum", type=existing, required=True, help="GUM constituency folder (with dev/)")
    ap.add_argument("--model", action="append", required=True, metavar="NAME=DIR",
                    help="a name for the model's table and a parser model directory (or a pipeline with parser/); "
                         "repeatable")
    ap.add_argument("--max-dev", type=int, default=None, help="parse only the first N GUM dev trees (default: all)")
    ap.add_argument("--caps", type=ints, default=None, help="comma-separated caps for every model (default: per kind)")
    ap.add_argument("--gammas", type=floats, default=None,
                    help="comma-separated gammas for every model (default: per kind)")
    ap.add_argument("--out", default=None,
                    help="also write the markdown table here, .json and .png beside it (default: print the table, "
                         "write no file)")
    args = ap.parse_args()
    out = Path(args.out) if args.out else None
    if out:  # before the measuring, not after it
        out.parent.mkdir(parents=True, exist_ok=True)
        optional("matplotlib")

    from glmnlp.treebank.gum import gum_trees

    dev = gum_trees(args.gum, "dev")
    if args.max_dev:
        dev = dev[: args.max_dev]
    results: dict[str, dict[str, Any]] = {}
    for spec in args.model:
        name, _, path = spec.partition("=")
        parser = _load(Path(path))
        kind = _kind(parser)
        print(f"{name}: {kind} model at {path}", file=sys.stderr, flush=True)
        rows = measure(parser, dev, args.gammas or GRIDS[kind], args.caps or CAPS[kind])
        results[name] = {"kind": kind, "path": path, "rows": rows}
    command = "python benchmarks/frontier.py " + " ".join(sys.argv[1:])
    text = render(results, command, len(dev))
    print(text)
    if out:
        out.write_text(text + "\n", encoding="utf-8")
        out.with_suffix(".json").write_text(json.dumps(results, indent=1), encoding="utf-8")
        plot(results, out.with_name(out.stem + ".png"))
        print(f"wrote {out}, {out.with_suffix('.json')}, {out.with_name(out.stem + '.png')}", file=sys.stderr)


if __name__ == "__main__":
    main()
