"""Decoding speed of the beam parser: sentences/s (CPU time), instructions per sentence, F1, output digest.

Workload: the 245 sentences of the bundled PTB sample's test split (wsj_0180-0199), gold tokens, tags
from the model's own tagger (multi-tag input with the model's ``multitag_margin`` when it has one, as
``glmnlp parse`` does); only ``Parser.parse_nbest(words, tags, 1)`` is timed (the tagging is done
first). The output digest is a SHA-256 of every tree and the exact bits of its score, so two builds
that print the same digest parsed the same trees with the same scores.

    python benchmarks/decoding.py --model default            # the bundled model (combined: perceptron + generative)
    python benchmarks/decoding.py --model /tmp/p             # any pipeline model directory (glmnlp train-default --out)
    python benchmarks/decoding.py --model default --callgrind       # + instructions per sentence (valgrind)
    python benchmarks/decoding.py --model default --profile         # + cProfile of the parse loop (top functions)

Instructions per sentence: the script runs itself twice under ``valgrind --tool=callgrind`` (load,
tag, then parse N sentences or none) and divides the difference of the two instruction totals by N;
callgrind counts instructions, so the figure does not depend on the load of the machine.
CPU time is ``time.process_time`` of the parse loop (the best of ``--repeat`` runs); on a machine
shared with other jobs it is still inflated by cache and frequency effects, so the sentences/s are
lower bounds.

To compare two builds, run the script of this checkout against the other build's sources, e.g.::

    mkdir -p /tmp/base && git -C REPO archive BASE_COMMIT | tar -x -C /tmp/base \\
        && (cd /tmp/base && python setup.py build_ext --inplace)
    PYTHONPATH=/tmp/base/src python benchmarks/decoding.py --model default --callgrind

Another parser model (a perceptron or generative model from ``glmnlp parser train``) parses the same
sentences with the pipeline's tagger and tags through ``--parser DIR``. Builds older than the float32
weight files read only float64 weight values: ``--widen OUT`` writes such a copy of ``--parser DIR``, or
of the whole pipeline ``--model DIR`` (the same numbers, so the same parses)::

    python benchmarks/decoding.py --model /tmp/p --parser proxy_parser --repeat 5
    python benchmarks/decoding.py --model /tmp/p --widen /tmp/p64     # the pipeline, its parser widened
    python benchmarks/decoding.py --parser proxy_parser --widen proxy_parser64
    PYTHONPATH=/tmp/base/src python benchmarks/decoding.py --model /tmp/p64 --parser proxy_parser64 --repeat 5

``--fill SHARE,OUT`` writes a stand-in for a full-size model's weight table: a float64 copy of ``--parser DIR``
with zero weights filled from its own non-zero ones until SHARE of the slots are non-zero (parses change, the
same in every build)::

    python benchmarks/decoding.py --parser proxy_parser --fill 0.6,proxy_dense64
"""

from __future__ import annotations

import argparse
import cProfile
import hashlib
import io
import json
import os
import pstats
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from _args import at_least, beam as beam_arg, model as model_arg  # benchmarks/_args.py


def workload(
    model: str, limit: int | None, parser_dir: str | None = None, beam: tuple[float, int] | None = None
) -> tuple[Any, list[Any], list[Any]]:
    """(parser, gold trees, input tags) of the test split, tagged by the model's own tagger.

    ``parser_dir``: parse with this parser model instead of the pipeline's (same tagger, same tags).
    ``beam``: (gamma, cap) to parse with instead of the parser's own.
    """
    import glmnlp
    from glmnlp.treebank.corpus import sample_trees

    nlp = glmnlp.load(None if model == "default" else model)
    parser = nlp.parser
    if parser_dir is not None:
        from glmnlp.parser import Parser

        parser = Parser.load(parser_dir)
    if beam is not None:
        parser.config.gamma, parser.config.beam_cap = beam
    test = sample_trees("test")[:limit]
    if nlp.multitag_margin:
        tags = [nlp.tagger.multitag(t.leaves(), nlp.multitag_margin) for t in test]
    else:
        tags = [[[t] for t in s] for s in nlp.tagger.tag_sentences([t.leaves() for t in test])]
    return parser, test, tags


def parse_all(parser: Any, test: list[Any], tags: list[Any]) -> list[tuple[float, Any]]:
    return [parser.parse_nbest(t.leaves(), g, 1)[0] for t, g in zip(test, tags)]


def digest(results: list[tuple[float, Any]]) -> str:
    from glmnlp.treebank.trees import to_bracket

    h = hashlib.sha256()
    for score, tree in results:
        h.update(f"{float(score).hex()} {to_bracket(tree)}\n".encode())
    return h.hexdigest()[:16]


def measure(
    model: str, repeat: int, profile: bool, parser_dir: str | None = None, beam: tuple[float, int] | None = None
) -> dict[str, Any]:
    from glmnlp.treebank.evalb import score_trees

    parser, test, tags = workload(model, None, parser_dir, beam)
    best = float("inf")
    results: list[tuple[float, Any]] = []
    for _ in range(repeat):
        t0 = time.process_time()
        results = parse_all(parser, test, tags)
        best = min(best, time.process_time() - t0)
    f1 = score_trees(test, [tree for _s, tree in results]).total.fmeasure
    out = {"model": model if parser_dir is None else f"{model} + {parser_dir}", "sentences": len(test),
           "words": sum(len(t.leaves()) for t in test), "cpu_s": best, "sent_per_s": len(test) / best, "f1": f1,
           "digest": digest(results),
           "gen_weight": parser.generative.weight if parser.generative is not None else 0.0,
           "gamma": parser.config.gamma, "cap": parser.config.beam_cap}
    if profile:
        prof = cProfile.Profile()
        prof.enable()
        parse_all(parser, test, tags)
        prof.disable()
        buf = io.StringIO()
        pstats.Stats(prof, stream=buf).sort_stats("tottime").print_stats(15)
        out["profile"] = buf.getvalue()
    return out


def inner(model: str, n: int, parser_dir: str | None, beam: tuple[float, int] | None = None) -> None:
    """Load, tag, then parse the first n sentences (n = 0: nothing): the body run under callgrind."""
    parser, test, tags = workload(model, None, parser_dir, beam)
    parse_all(parser, test[:n], tags[:n])


def callgrind_total(
    model: str, n: int, env: dict[str, str], parser_dir: str | None, beam: tuple[float, int] | None = None
) -> int:
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "callgrind.out")
        extra = [] if parser_dir is None else ["--parser", parser_dir]
        extra += [] if beam is None else ["--beam", f"{beam[0]!r}:{beam[1]}"]
        subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", sys.executable, __file__,
                        "--model", model, "--inner", str(n), *extra], check=True, env=env,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        with open(out) as f:
            for line in f:
                if line.startswith("summary:") or line.startswith("totals:"):
                    return int(line.split()[1])
    raise RuntimeError("no instruction total in the callgrind output")


def fill(source: str, out: str, share: float) -> None:
    """Copy the parser model ``source`` to ``out`` (float64 values, readable by every build) with zero weights
    replaced, seeded, by values drawn from its own non-zero weights until ``share`` of the slots are non-zero:
    a stand-in for the table of a full-size treebank (the feature counts of ``feature_collisions.md``
    extrapolate to 2.7 M non-zero weights at 40k sentences, 64% of 2**22 slots), whose speed is that of its
    memory traffic and of the work per node, not of its parses."""
    import numpy as np

    from glmnlp.parser import Parser

    parser = Parser.load(source)
    weights = np.array(parser.weights)
    nonzero = np.flatnonzero(weights)
    need = int(share * weights.size) - nonzero.size
    if need <= 0:
        raise SystemExit(f"{source} already has {nonzero.size / weights.size:.1%} non-zero weights")
    rng = np.random.default_rng(0)
    weights[rng.choice(np.flatnonzero(weights == 0), size=need, replace=False)] = rng.choice(weights[nonzero], need)
    parser.weights = weights
    with tempfile.TemporaryDirectory() as tmp:
        parser.save(Path(tmp) / "filled", history=parser.history)
        widen(str(Path(tmp) / "filled"), out)
    print(f"{out}: {nonzero.size / weights.size:.1%} -> {np.count_nonzero(weights) / weights.size:.1%} non-zero",
          file=sys.stderr)


def widen(source: str, out: str) -> None:
    """Copy ``source`` (a parser model directory, or a pipeline directory with a ``parser/``) to ``out`` with
    the parser's weight values as float64 (the same numbers): the builds before float32 weight files read
    only float64. The parser header's checksum is recomputed."""
    import hashlib
    import shutil

    import numpy as np

    from glmnlp.glm import model_io

    shutil.copytree(source, out)
    target = Path(out) / "parser" if (Path(out) / "parser").is_dir() else Path(out)
    with np.load(target / model_io.WEIGHTS_FILE) as z:
        arrays = {name: z[name] for name in z.files}
    arrays["weight_value"] = arrays["weight_value"].astype(np.float64)
    blob = model_io._npz_bytes(arrays)
    header = json.loads((target / model_io.METADATA_FILE).read_text(encoding="utf-8"))
    header["arrays"]["weight_value"]["dtype"] = "<f8"
    header["weights_sha256"] = hashlib.sha256(blob).hexdigest()
    if "metadata_sha256" in header:  # a sealed header (glmnlp.glm.model_seals): sealed again, as a save would
        from glmnlp.glm.model_seals import header_digest

        header["metadata_sha256"] = header_digest(header)
    (target / model_io.WEIGHTS_FILE).write_bytes(blob)
    (target / model_io.METADATA_FILE).write_text(
        json.dumps(header, indent=1, sort_keys=True, ensure_ascii=False, allow_nan=False) + "\n", encoding="utf-8")
    description = Path(out) / "MODEL.json"
    if target != Path(out) and description.is_file():
        # a pipeline's MODEL.json records its files' sha256 and size: refresh the parser's entries, else this
        # build refuses the copy
        meta = json.loads(description.read_text(encoding="utf-8"))
        for name in (model_io.WEIGHTS_FILE, model_io.METADATA_FILE):
            key, data = f"parser/{name}", (target / name).read_bytes()
            if key in meta.get("checksums", {}):
                meta["checksums"][key] = hashlib.sha256(data).hexdigest()
            if key in meta.get("bytes", {}):
                meta["bytes"][key] = len(data)
        description.write_text(json.dumps(meta, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    print(f"wrote {out}", file=sys.stderr)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--model", type=model_arg, default="default",
                    help="pipeline model directory, or 'default' (bundled)")
    ap.add_argument("--repeat", type=at_least(1), default=3,
                    help="parse the test split this many times, keep the fastest")
    ap.add_argument("--callgrind", action="store_true", help="also count instructions per sentence (valgrind)")
    ap.add_argument("--profile", action="store_true", help="also print a cProfile of one parse of the test split")
    ap.add_argument("--label", default="", help="a name for this build in the table (e.g. before/after)")
    ap.add_argument("--parser", default=None, metavar="DIR",
                    help="parse with this parser model directory (e.g. one from 'glmnlp parser train'), tagging "
                         "with the tagger of --model")
    ap.add_argument("--widen", default=None, metavar="OUT",
                    help="write a copy of --parser DIR (else of the pipeline --model DIR) to OUT with the parser's "
                         "weight values as float64 (the same numbers; builds before float32 weight files read "
                         "only float64), then stop")
    ap.add_argument("--fill", default=None, metavar="SHARE,OUT",
                    help="write a copy of --parser DIR to OUT (float64) with zero weights filled from its non-zero "
                         "ones until SHARE (e.g. 0.6) of the slots are non-zero, then stop")
    ap.add_argument("--beam", type=beam_arg, default=None, metavar="GAMMA:CAP",
                    help="parse at this beam instead of the parser's own (dev-chosen) one, e.g. 1e8:100")
    ap.add_argument("--inner", type=int, default=None, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.inner is not None:
        inner(args.model, args.inner, args.parser, args.beam)
        return
    if args.fill is not None:
        if args.parser is None:
            ap.error("--fill needs --parser DIR")
        share, out = args.fill.split(",", 1)
        fill(args.parser, out, float(share))
        return
    if args.widen is not None:
        if args.parser is None and args.model == "default":
            ap.error("--widen copies a model directory: give --parser DIR or --model DIR (not the bundled 'default', "
                     "which it would not write over)")
        widen(args.parser or args.model, args.widen)
        return
    import glmnlp

    r = measure(args.model, args.repeat, args.profile, args.parser, args.beam)
    r["label"] = args.label
    r["source"] = os.path.dirname(glmnlp.__file__)
    if args.callgrind:
        env = dict(os.environ)
        full = callgrind_total(args.model, r["sentences"], env, args.parser, args.beam)
        empty = callgrind_total(args.model, 0, env, args.parser, args.beam)
        r["instr_per_sent"] = (full - empty) / r["sentences"]
        r["instr_per_word"] = (full - empty) / r["words"]
    profile = r.pop("profile", None)
    print(json.dumps(r), file=sys.stderr)
    print("| build | model | gen weight | gamma, cap | sentences | F1 | sent/s (CPU) | instructions/sentence "
          "| digest |")
    print("|---|---|---|---|---|---|---|---|---|")
    ips = f"{r['instr_per_sent'] / 1e6:.2f} M" if "instr_per_sent" in r else "-"
    print(f"| {r['label']} | {r['model']} | {r['gen_weight']:g} | {r['gamma']:g}, {r['cap']} | {r['sentences']} "
          f"| {r['f1']:.2f} | {r['sent_per_s']:.1f} | {ips} | `{r['digest']}` |")
    if profile:
        print("\n```\n" + profile + "```")


if __name__ == "__main__":
    main()
