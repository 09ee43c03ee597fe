"""Choices made on dev: how dev is scored for them, and the parse-time beam (C&R 2004 §3-§5).

Every trainer (:mod:`glmnlp.parser.training`, :mod:`glmnlp.parser.combined`, the default-model recipe) chooses
its pass, beam, generative weight and multi-tag margin by dev F1; this module is what they share.

* **Beam selection** (:func:`tune_beam`): every (gamma, cap) pair of a grid is scored on dev; the best
  F1 wins, F1 ties (to 0.01) go to the smaller beam (smaller cap, 0 = no cap counting as the largest,
  then the smaller gamma). The rule never looks at a measured time, so the chosen beam, and with it
  the model file, is a function of data, options and seed only.
* **Scoring for choices** (:data:`SELECTION_PARAMS`): COLLINS.prm without its ``MAX_ERROR`` stop.
  EVALB deletes punctuation by each tree's own POS tags, so with tagger tags a word the tagger calls
  punctuation and the gold tree does not (or the reverse) makes a "Length unmatch" sentence, which
  EVALB leaves out; after 11 of them it aborts the run. Dev decoding for epochs, beams, weights and
  margins always has the same words as gold, so such sentences are the only errors, and they are
  the same for every candidate (the tags come from one tagger): they are left out and the choice
  goes on. On PTB sample + GUM dev with a tagger trained without GUM's five CC BY-NC-SA genres, the
  run otherwise aborted at GUM dev sentence 1,415 (the 12th such sentence).
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from glmnlp.glm.model_files import folder_files, scratch_folder, write_folder_files
from glmnlp.glm.parallel import Executor, resolve_executor
from glmnlp.parser.model import Parser
from glmnlp.treebank.evalb import score_trees
from glmnlp.treebank.evalb_report import COLLINS_PARAMS, EvalbParams
from glmnlp.treebank.trees import Tree

__all__ = ["PERCEPTRON_CAPS", "PERCEPTRON_GAMMAS", "SELECTION_PARAMS", "evaluate", "tune_beam"]

#: FILTER grid of the perceptron (``glmnlp parser train`` without ``--kind``): the pass and the beam are chosen
#: from it on dev. Gamma 1e6 was measured and left out (``benchmarks/results/parsing_perceptron.md``): on the proxy
#: with gold tags it is lower (83.89 against 83.96 at 1e5) at 0.7x the sentences/s, and with tagger tags on the
#: PTB sample it gains hardly on dev (0.00-0.22). The combined model's grid is
#: :data:`glmnlp.parser.combined.COMBINED_GAMMAS` x :data:`~glmnlp.parser.combined.COMBINED_CAPS`.
PERCEPTRON_GAMMAS: tuple[float, ...] = (1e3, 1e4, 1e5)
PERCEPTRON_CAPS: tuple[int, ...] = (20, 40)

#: COLLINS.prm without the MAX_ERROR stop: what every choice made on dev is scored with (module header).
SELECTION_PARAMS: EvalbParams = replace(COLLINS_PARAMS, max_error=2**62)


def evaluate(parser: Parser, trees: Sequence[Tree], tags: Sequence[Sequence[Sequence[str]]] | None = None) -> Any:
    """Parse ``trees``' words (with their gold tags or the given tag lists) and score with EVALB
    (COLLINS.prm, no MAX_ERROR stop: :data:`SELECTION_PARAMS`). The tags are taken unchecked: a held-out tree's tag
    that training never saw gives its sentence the flat default tree, scored as it is, not an error."""
    out = []
    for i, tree in enumerate(trees):
        t = tags[i] if tags is not None else tree.tags()
        out.append(parser.parse(tree.leaves(), t, check_tags=False))
    return score_trees(list(trees), out, SELECTION_PARAMS), out


class _BeamTrial:
    """A worker of :func:`tune_beam`: the parser loaded once from the bytes of its saved files, and the dev set.

    The files travel as bytes, not as a path: on a Ray cluster a worker on another machine could not read the
    caller's temporary folder (``Parser.load`` of a folder that exists only where the caller runs)."""

    def __init__(self, files: dict[str, bytes], dev: list[str], dev_tags: Sequence[Sequence[Sequence[str]]] | None
                 ) -> None:
        from glmnlp.treebank.trees import parse_tree

        with scratch_folder("glmnlp-beam") as tmp:  # loaded whole: removed at once
            write_folder_files(tmp, files)
            self.parser = Parser.load(tmp)
        self.dev = [parse_tree(b) for b in dev]
        self.dev_tags = dev_tags

    def run(self, point: tuple[float, int]) -> tuple[float, float]:
        self.parser.config.gamma, self.parser.config.beam_cap = point
        t0 = time.perf_counter()
        result, _ = evaluate(self.parser, self.dev, self.dev_tags)
        return float(result.fmeasure), len(self.dev) / (time.perf_counter() - t0)


def _saved_files(parser: Parser) -> dict[str, bytes]:
    """The files ``parser.save`` writes, by path within the model folder (what :class:`_BeamTrial` loads)."""
    with scratch_folder("glmnlp-beam") as tmp:
        folder = tmp / "parser"
        parser.save(str(folder), history=parser.history)
        return folder_files(folder)


def tune_beam(
    parser: Parser, dev_trees: Sequence[Tree], gammas: Sequence[float], caps: Sequence[int],
    dev_tags: Sequence[Sequence[Sequence[str]]] | None = None, executor: Executor | None = None,
) -> list[tuple[float, int, float, float]]:
    """Try (gamma, cap) pairs on dev; set the best on ``parser``. Returns (gamma, cap, F1, sent/s) per pair.

    The best is the highest F1; F1 ties (to 0.01) go to the smaller beam: the smaller cap (0, no cap,
    counts as the largest), then the smaller gamma. Speeds are reported, never used to choose.
    The grid points are independent: with an ``executor`` of several workers (unset: one made from
    :mod:`glmnlp.config`, by default every core) each worker loads the parser once from its saved
    files (sent as bytes, so that a worker on another machine of a Ray cluster loads them too) and decodes
    dev for its points; the F1 figures, and so the choice, are those of the serial loop.
    """
    grid = [(float(g), int(c)) for g in gammas for c in caps]
    own = executor is None
    executor = resolve_executor(executor)  # unset: glmnlp.config (by default every core)
    try:
        rows = _beam_rows(parser, dev_trees, dev_tags, grid, executor)
    finally:
        if own:
            executor.close()
    best = max(rows, key=lambda r: (round(r[2], 2), -(r[1] if r[1] > 0 else float("inf")), -r[0]))
    parser.config.gamma, parser.config.beam_cap = best[0], best[1]
    return rows


def _beam_rows(
    parser: Parser, dev_trees: Sequence[Tree], dev_tags: Sequence[Sequence[Sequence[str]]] | None,
    grid: list[tuple[float, int]], executor: Executor,
) -> list[tuple[float, int, float, float]]:
    """(gamma, cap, F1, sent/s) of each grid point, in grid order (:func:`tune_beam`)."""
    if executor.jobs == 1 or len(grid) == 1:
        rows = []
        for gamma, cap in grid:
            parser.config.gamma, parser.config.beam_cap = gamma, cap
            t0 = time.perf_counter()
            result, _ = evaluate(parser, dev_trees, dev_tags)
            rate = len(dev_trees) / (time.perf_counter() - t0)
            rows.append((gamma, cap, result.fmeasure, rate))
    else:
        from glmnlp.treebank.trees import to_bracket

        files = _saved_files(parser)
        dev = [to_bracket(t) for t in dev_trees]
        n = min(executor.jobs, len(grid))
        with executor.hosts(_BeamTrial, [(files, dev, dev_tags)] * n) as hosts:
            scores = list(hosts.imap("run", grid))
        rows = [(g, c, f1, rate) for (g, c), (f1, rate) in zip(grid, scores)]
    return rows
