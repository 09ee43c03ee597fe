"""The dev pass of each training epoch split over the workers: the dev F1 of every epoch, the chosen epoch
and the model are those of the pass in one process."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from glmnlp.glm.parallel import Executor, Hosts
from glmnlp.glm.training import DevSlice, shard_indices, unshard
from glmnlp.parser.model import Parser, ParserConfig
from glmnlp.treebank.corpus import sample_trees
from glmnlp.treebank.trees import Tree


class _RecordingExecutor(Executor):
    """An executor that remembers which objects it placed on its workers, and how many."""

    def __init__(self, jobs: int) -> None:
        super().__init__(jobs)
        self.placed: list[tuple[str, int, str]] = []

    def hosts(self, factory: Any, args_list: Any) -> Hosts:
        hosts = super().hosts(factory, args_list)
        self.placed.append((factory.__name__, len(args_list), hosts.mode))
        return hosts


def test_unshard_puts_every_result_back_in_input_order() -> None:
    for n_total in range(0, 9):
        for n in range(1, 4):
            parts = [idx.tolist() for idx in shard_indices(n_total, n)]
            assert unshard(parts, n_total) == list(range(n_total))
    with pytest.raises(ValueError):
        unshard([[0], [1]], 3)


def _train(
    jobs: int, combined: bool, tagged_dev: bool = False, shards: int = 1
) -> tuple[Parser, list[Any], _RecordingExecutor]:
    from glmnlp.parser.training import train_parser

    train, dev = sample_trees("train")[:60], sample_trees("dev")[:31]
    dev_tags = [[[t] for t in tree.tags()] for tree in dev] if tagged_dev else None
    config = ParserConfig(epochs=3, seed=4, shards=shards)
    ex = _RecordingExecutor(jobs)
    try:
        if combined:
            from glmnlp.parser.combined import train_combined

            parser, logs = train_combined(train, dev, config, weight=10.0, folds=3, executor=ex)
        else:
            parser, logs = train_parser(train, dev, config, dev_tags=dev_tags, show_progress=False, executor=ex)
    finally:
        ex.close()
    return parser, logs, ex


@pytest.mark.parametrize("combined", [False, True], ids=["perceptron", "combined"])
def test_dev_pass_on_two_workers_gives_the_serial_f1s_and_model(combined: bool) -> None:
    """jobs=2: the dev set is decoded in two slices on two worker processes each epoch (the training
    pass itself, one shard, stays in this process); the per-epoch dev F1s, the best epoch and the
    model arrays are those of jobs=1. Slices merged out of order would pair trees with other
    sentences' gold trees and change the F1s."""
    serial, serial_logs, ex1 = _train(1, combined)
    parallel, parallel_logs, ex2 = _train(2, combined)
    assert ("DevSlice", 1, "inline") in ex1.placed
    assert ("DevSlice", 2, "local") in ex2.placed
    f1s = [log.dev_f1 for log in serial_logs]
    assert [log.dev_f1 for log in parallel_logs] == f1s
    assert len(set(f1s)) > 1 and min(f1s) > 0  # the F1s tell the epochs apart
    assert parallel.history == serial.history
    assert np.array_equal(parallel.weights, serial.weights)
    if combined:
        assert parallel.generative.weight == serial.generative.weight == 10.0
        meta_p, arrays_p = parallel.generative.to_parts()
        meta_s, arrays_s = serial.generative.to_parts()
        assert meta_p == meta_s
        assert arrays_p.keys() == arrays_s.keys()
        assert all(np.array_equal(arrays_p[k], arrays_s[k]) for k in arrays_s)


def test_dev_pass_with_input_tags_on_two_workers() -> None:
    """Dev input tags (a tag list per word) travel with their slice."""
    _, serial_logs, _ = _train(1, False, tagged_dev=True)
    _, parallel_logs, ex = _train(2, False, tagged_dev=True)
    assert ("DevSlice", 2, "local") in ex.placed
    assert [log.dev_f1 for log in parallel_logs] == [log.dev_f1 for log in serial_logs]


def test_dev_slices_live_next_to_the_shards_on_their_workers() -> None:
    """Two shards on two workers: each worker also decodes one slice of dev (no second set of workers,
    which on Ray would wait for CPUs the shards hold); the F1s are those of the same shards inline."""
    _, serial_logs, ex1 = _train(1, False, shards=2)
    _, parallel_logs, ex2 = _train(2, False, shards=2)
    assert ex1.placed == [("PerceptronShard", 2, "inline"), ("DevSlice", 1, "inline")]
    assert ex2.placed == [("PerceptronShard", 2, "local")]
    assert [log.dev_f1 for log in parallel_logs] == [log.dev_f1 for log in serial_logs]


def test_dev_decoder_from_plain_data_parses_as_the_trained_parser() -> None:
    """A dev slice rebuilt from plain data (skeleton, final generative term, words and tags), given the
    weights as ids and values, returns exactly the trees and the F1 of the trained parser's own parse."""
    from glmnlp.glm.training import _sparse
    from glmnlp.parser.selection import evaluate
    from glmnlp.parser.training import _ParsingTask, prepare_training
    from glmnlp.treebank.trees import tree_from_plain

    train, dev = sample_trees("train")[:60], sample_trees("dev")[:20]
    parser, _, _ = _train(1, True)
    skeleton, _ = prepare_training(train, parser.config, np.zeros(1 << parser.config.n_bits))

    class _Hook:  # what the task needs of the generative hook for dev: the final term
        def final_term(self) -> Any:
            return parser.generative

    task = _ParsingTask(skeleton, parser.config, _Hook())
    examples: list[tuple[Tree, Any]] = [(t, None) for t in dev]
    weights = parser.weights.copy()
    weights[np.flatnonzero(weights)[:3]] *= -0.0  # a few signed zeros travel as they are
    parser.weights = weights
    expected, trees = evaluate(parser, dev)
    slices = shard_indices(len(dev), 3)
    hosted = [DevSlice(*task.dev_pack([examples[i] for i in idx.tolist()])) for idx in slices]
    seen: list[np.ndarray] = []  # the table the slice's parser decodes with (it is dropped after the pass)
    first = hosted[0].decoder.parser
    parse = first.parse
    first.parse = lambda words, tags, **kw: (seen.append(first.weights.view(np.int64).copy()),
                                             parse(words, tags, **kw))[1]
    decoded = unshard([h.decode(*_sparse(weights)) for h in hosted], len(dev))
    assert [tree_from_plain(d) for d in decoded] == trees
    assert task.dev_score(examples, decoded) == task.evaluate(examples, weights) == float(expected.fmeasure)
    assert seen and all(np.array_equal(s, weights.view(np.int64)) for s in seen)  # bit for bit, -0.0 included
    assert first.weights.shape == (0,)  # not kept between epochs


def test_dev_decoder_takes_a_fresh_read_only_table_without_a_copy() -> None:
    """The dev slice's own table (read-only, owning its memory) is decoded with as it is, not copied; a
    table someone could still write to is copied (the parser's bitmap of non-zero weights must not go
    stale); neither is kept after the pass."""
    from glmnlp.parser.training import _ParsingTask, prepare_training

    train, dev = sample_trees("train")[:60], sample_trees("dev")[:4]
    parser, _, _ = _train(1, True)
    skeleton, _ = prepare_training(train, parser.config, np.zeros(1 << parser.config.n_bits))

    class _Hook:
        def final_term(self) -> Any:
            return parser.generative

    builder, payload = _ParsingTask(skeleton, parser.config, _Hook()).dev_pack([(t, None) for t in dev])
    decoder = builder(payload)
    seen: list[np.ndarray] = []
    parse = decoder.parser.parse
    decoder.parser.parse = lambda words, tags, **kw: (seen.append(decoder.parser.weights), parse(words, tags, **kw))[1]
    frozen = parser.weights.copy()
    frozen.flags.writeable = False
    open_table = parser.weights.copy()
    out_frozen, out_open = decoder.decode(frozen), decoder.decode(open_table)
    assert out_frozen == out_open
    assert all(s is frozen for s in seen[: len(dev)])
    assert all(not np.shares_memory(s, open_table) for s in seen[len(dev):]) and len(seen) == 2 * len(dev)
    assert decoder.parser.weights.shape == (0,)
