"""The executor (glmnlp.glm.parallel) and iterative parameter mixing (glmnlp.glm.training)."""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from glmnlp.errors import ConfigError
from glmnlp.glm.parallel import Executor, chunked
from glmnlp.glm.streams import Prefetch
from glmnlp.glm.perceptron import AveragedPerceptron
from glmnlp.glm.training import mix_shards, train_perceptron
from glmnlp.tagger.model import Tagger, TaggerConfig
from glmnlp.treebank.corpus import sample_tagged

from toy_glm import ParityTask


def _square(x: int) -> int:
    return x * x


class _Counter:
    def __init__(self, start: int) -> None:
        self.value = start

    def add(self, k: int) -> int:
        self.value += k
        return self.value


@pytest.mark.parametrize("jobs", [1, 2])
def test_map_keeps_input_order(jobs: int) -> None:
    """Results come back in input order, inline and on worker processes."""
    with Executor(jobs) as ex:
        assert ex.map(_square, range(20)) == [i * i for i in range(20)]
        assert list(ex.imap(_square, range(7), window=2)) == [i * i for i in range(7)]


@pytest.mark.parametrize("jobs", [1, 2])
def test_hosts_keep_state_per_object(jobs: int) -> None:
    """Three stateful objects on (up to) two workers each keep their own state across calls."""
    with Executor(jobs) as ex, ex.hosts(_Counter, [(0,), (10,), (100,)]) as hosts:
        assert hosts.call("add", [(1,), (2,), (3,)]) == [1, 12, 103]
        assert hosts.call("add", [(1,), (1,), (1,)]) == [2, 13, 104]
        assert hosts.submit(1, "add", 5).result() == 18


class _Waiter:
    """Item 0 waits for a flag file that the last item writes: a slow item with work queued after it."""

    def __init__(self, flag: str, last: int) -> None:
        self.flag, self.last = Path(flag), last

    def run(self, k: int) -> tuple[int, bool]:
        import os
        import time

        if k == self.last:
            self.flag.write_text("done")
        if k == 0:
            deadline = time.monotonic() + 20.0
            while not self.flag.exists():
                if time.monotonic() > deadline:
                    return k, False
                time.sleep(0.01)
        return k, os.getpid() > 0


def test_imap_any_feeds_the_free_worker_and_keeps_input_order(tmp_path: Path) -> None:
    """With round-robin dispatch the items queued behind a slow item 0 (and the window) keep the last
    item from ever being sent, so item 0 would time out; imap_any sends the later items to the free
    worker, which reaches the last item and releases item 0. Results stay in input order. (Round
    robin: items 0-3 go out, item 0 blocks the in-order window of 4, item 5 is never sent.)"""
    last = 5
    with Executor(2) as ex, ex.hosts(_Waiter, [(str(tmp_path / "flag"), last)] * 2) as hosts:
        assert hosts.mode == "local"
        assert list(hosts.imap_any("run", range(last + 1))) == [(k, True) for k in range(last + 1)]



class _Square:
    def run(self, k: int) -> int:
        return k * k


def test_imap_any_answers_the_items_read_before_an_input_error() -> None:
    """An error raised by the items comes after the results of every item read before it, as inline; it used to
    leave at once, dropping the results in flight (glmnlp parse -j 2 wrote up to a window of batches fewer than
    -j 1 before the same bad input line)."""

    def items() -> Iterator[int]:
        yield from range(6)
        raise ValueError("item 7 is bad")

    for jobs in (1, 2):
        got: list[int] = []
        with Executor(jobs) as ex, ex.hosts(_Square, [()] * 2) as hosts:
            with pytest.raises(ValueError, match="item 7 is bad"):
                for value in hosts.imap_any("run", items()):
                    got.append(value)
        assert got == [k * k for k in range(6)], jobs

@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(), max_size=30), st.integers(1, 7), st.booleans())
def test_chunked_gives_every_item_read_before_an_error(items: list[int], size: int, fails: bool) -> None:
    """``chunked`` dropped the items of a list the input's error cut short (up to ``size - 1``): ``glmnlp parse`` and
    ``glmnlp tag`` then wrote none of the sentences read since the last whole batch before a malformed line."""

    def source() -> Iterator[int]:
        yield from items
        if fails:
            raise ValueError("bad line")

    got: list[list[int]] = []
    if fails:
        with pytest.raises(ValueError, match="bad line"):
            got.extend(chunked(source(), size))
    else:
        got.extend(chunked(source(), size))
    assert [x for chunk in got for x in chunk] == items
    assert all(len(chunk) == size for chunk in got[:-1]) and all(0 < len(chunk) <= size for chunk in got)


class _SlowThenFailing:
    def run(self, k: int) -> int:
        import time

        if k == 5:
            raise ValueError("document 6 is bad")
        time.sleep(0.6 if k == 4 else 0.01)
        return k


def test_imap_any_answers_the_items_before_a_failing_call_first() -> None:
    """An error raised by an item's call left as soon as it arrived: ``pipe(n_process=2)`` gave 0, 2, 2 or 4 of the
    documents before a bad one over four runs (as many as had come back), where one process gives all 4. Here item
    5 fails at once while item 4 is still running on the other worker: the results of items 0-4 come first."""
    for jobs in (1, 2):
        got: list[int] = []
        with Executor(jobs) as ex, ex.hosts(_SlowThenFailing, [()] * 2) as hosts:
            with pytest.raises(ValueError, match="document 6 is bad"):
                for value in hosts.imap_any("run", range(10)):
                    got.append(value)
        assert got == [0, 1, 2, 3, 4], jobs


def test_imap_any_gives_each_result_while_the_input_waits_for_it() -> None:
    """A conversation: the input gives its next item only once the result of the one before has been received (a
    program that writes a line to ``glmnlp parse -j 2`` and waits for its tree). imap_any waited in ``next(items)``
    with finished results in hand, so each side waited for the other (here: until the 10 s guard gave up)."""
    import threading

    for jobs in (1, 2):
        answered = threading.Event()
        gave_up: list[int] = []

        def items() -> Iterator[int]:
            for k in range(4):
                answered.clear()
                yield k
                if not answered.wait(10):
                    gave_up.append(k)

        got: list[int] = []
        with Executor(jobs) as ex, ex.hosts(_Square, [()] * 2) as hosts:
            for value in hosts.imap_any("run", Prefetch(items())):  # read on a thread: looked at without waiting
                got.append(value)
                answered.set()
        assert (got, gave_up) == ([0, 1, 4, 9], []), jobs


def test_imap_any_reads_a_plain_iterable_on_the_callers_thread() -> None:
    """An iterable of the caller's own is read where it was made (a database cursor must be: an SQLite one refuses
    any other thread, and pipe(n_process=2) over one failed); only a Prefetch is read on a thread."""
    import threading

    readers: set[str] = set()

    def items() -> Iterator[int]:
        for k in range(6):
            readers.add(threading.current_thread().name)
            yield k

    with Executor(2) as ex, ex.hosts(_Square, [()] * 2) as hosts:
        assert list(hosts.imap_any("run", items())) == [k * k for k in range(6)]
    assert readers == {threading.current_thread().name}


def test_imap_any_inline_is_plain_imap() -> None:
    with Executor(1) as ex, ex.hosts(_Counter, [(0,)]) as hosts:
        assert list(hosts.imap_any("add", [1, 2, 3])) == [1, 3, 6]


def test_executor_rejects_bad_options() -> None:
    with pytest.raises(ConfigError):
        Executor(2, backend="spark")
    with pytest.raises(ConfigError):
        Executor(2, address="localhost:6379")


def test_assign_keeps_average_exact_and_own_weights_change_nothing() -> None:
    """assign() enters the new weights into the running average; assigning equal weights is a no-op."""
    p = AveragedPerceptron(3)
    p.update(np.array([0, 1]), np.array([1.0, 2.0]))
    p.tick(2)
    state = {k: v.copy() for k, v in p.state_arrays().items()}
    p.assign(np.array([0, 1]), p.weights[[0, 1]].copy())
    for k, v in p.state_arrays().items():
        np.testing.assert_array_equal(v, state[k])
    p.assign(np.array([1, 2]), np.array([5.0, -1.0]))
    p.tick(3)
    # weights after each of the 5 examples: (1,2,0) twice, then (1,5,-1) three times
    np.testing.assert_allclose(p.averaged(), [1.0, (2 * 2 + 3 * 5) / 5, -3 / 5])
    np.testing.assert_allclose(p.average_sum(), [5.0, 19.0, -3.0])


def test_mix_shards_uniform_and_weighted_by_updates() -> None:
    """Mixed weights = Σ μ_s w_s over the ids some shard changed; untouched ids keep the old value."""
    mixed = np.array([1.0, 1.0, 1.0, 1.0])
    results = [
        {"ids": np.array([0, 2]), "values": np.array([3.0, 5.0]), "updates": 3},
        {"ids": np.array([2]), "values": np.array([-1.0]), "updates": 1},
    ]
    ids, values = mix_shards(mixed.copy(), results, "uniform")
    assert ids.tolist() == [0, 2] and values.tolist() == [2.0, 2.0]
    m = mixed.copy()
    ids, values = mix_shards(m, results, "updates")
    assert values.tolist() == [0.75 * 3 + 0.25 * 1, 0.75 * 5 - 0.25]
    assert m.tolist() == [2.5, 1.0, 3.5, 1.0]


def _naive_ipm(task: ParityTask, train: list, epochs: int, seed: int, shards: int, mixing: str) -> np.ndarray:
    """McDonald et al. (2010) Figure 3 written out densely, averaging every weight vector visited."""
    from glmnlp.glm.training import epoch_order

    mixed = np.zeros(task.n_features())
    total = np.zeros(task.n_features())
    count = 0
    for epoch in range(1, epochs + 1):
        order = epoch_order(len(train), seed, epoch)
        finals, updates = [], []
        for s in range(shards):
            w = mixed.copy()
            n_up = 0
            for i in order[order % shards == s].tolist():
                pred = task.decode(train[i], w)
                ids, vals = task.feature_difference(train[i], pred)
                if len(ids):
                    np.add.at(w, ids, vals)
                    n_up += 1
                total += w
                count += 1
            finals.append(w)
            updates.append(n_up)
        mu = [u / sum(updates) for u in updates] if mixing == "updates" and sum(updates) else [1 / shards] * shards
        mixed = sum(m * w for m, w in zip(mu, finals))
    return total / count


@pytest.mark.parametrize("shards,mixing", [(1, "uniform"), (3, "uniform"), (3, "updates")])
def test_ipm_averages_every_visited_weight_vector(shards: int, mixing: str) -> None:
    """The averaged weights of IPM equal the mean of all N·T weight vectors of a dense re-statement."""
    rng = np.random.default_rng(3)
    data = [tuple(int(b) for b in rng.integers(0, 2, 5)) for _ in range(40)]
    train = [(x, x[0] ^ x[3]) for x in data]  # not separable: updates in every epoch
    result = train_perceptron(
        ParityTask(), train, None, epochs=3, seed=5, shards=shards, mixing=mixing, show_progress=False, jobs=1
    )
    np.testing.assert_allclose(result.weights, _naive_ipm(ParityTask(), train, 3, 5, shards, mixing), atol=1e-12)


def _digest(directory: Path) -> dict[str, str]:
    return {
        str(p.relative_to(directory)): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(directory.rglob("*"))
        if p.is_file()
    }


@pytest.fixture(scope="module")
def tagger_data() -> tuple[list, list]:
    return sample_tagged("train")[:300], sample_tagged("dev")[:60]


def _train_tagger(tagger_data: tuple[list, list], out: Path, shards: int, **kwargs: object) -> dict[str, str]:
    train, dev = tagger_data
    Tagger(TaggerConfig(epochs=2, seed=3, shards=shards)).fit(train, dev, show_progress=False, **kwargs).save(out)
    return _digest(out)


def test_tagger_ipm_same_files_inline_and_on_processes(tagger_data: tuple[list, list], tmp_path: Path) -> None:
    """Same data, seed and shards -> the same model files with 1 or 2 worker processes; S=2 differs from S=1."""
    two_inline = _train_tagger(tagger_data, tmp_path / "a", 2, jobs=1)
    two_procs = _train_tagger(tagger_data, tmp_path / "b", 2, jobs=2)
    assert two_inline == two_procs
    assert _train_tagger(tagger_data, tmp_path / "c", 1, jobs=1) != two_inline


def test_tagger_serial_metadata_has_no_shard_fields(tagger_data: tuple[list, list], tmp_path: Path) -> None:
    """A serially trained model keeps its former format; a sharded one records shards and mixing."""
    import json

    _train_tagger(tagger_data, tmp_path / "s", 1)
    _train_tagger(tagger_data, tmp_path / "p", 2)
    assert "shards" not in json.loads((tmp_path / "s" / "metadata.json").read_text())["metadata"]["config"]
    config = json.loads((tmp_path / "p" / "metadata.json").read_text())["metadata"]["config"]
    assert (config["shards"], config["mixing"]) == (2, "uniform")
    assert Tagger.load(tmp_path / "p").config.shards == 2


def _train_small_parser(out: Path, shards: int, jobs: int, backend: str = "local", combined: bool = False) -> dict[str, str]:
    from glmnlp.parser.model import ParserConfig
    from glmnlp.parser.training import train_parser
    from glmnlp.treebank.corpus import sample_trees

    train, dev = sample_trees("train")[:150], sample_trees("dev")[:30]
    config = ParserConfig(epochs=2, seed=2, shards=shards)
    if combined:
        from glmnlp.parser.combined import train_combined

        parser, _ = train_combined(train, dev, config, weight=10.0, folds=3, executor=Executor(jobs, backend))
    else:
        parser, _ = train_parser(train, dev, config, show_progress=False, jobs=jobs, backend=backend)
    parser.save(out, history=parser.history)
    return _digest(out)


def test_parser_ipm_same_files_inline_and_on_processes(tmp_path: Path) -> None:
    """Two parser shards (own cache each) give the same model files inline and on 2 processes."""
    inline = _train_small_parser(tmp_path / "a", 2, 1)
    assert _train_small_parser(tmp_path / "b", 2, 2) == inline
    assert _train_small_parser(tmp_path / "c", 1, 1) != inline


def test_combined_ipm_ships_generative_terms_to_workers(tmp_path: Path) -> None:
    """The combined model's jackknifed generative terms travel to the shard workers as arrays."""
    assert _train_small_parser(tmp_path / "a", 2, 1, combined=True) == _train_small_parser(
        tmp_path / "b", 2, 2, combined=True
    )


def test_jackknife_folds_in_parallel_give_the_serial_tags() -> None:
    from glmnlp.parser.jackknife import jackknife_tags
    from glmnlp.treebank.corpus import sample_trees

    trees = sample_trees("train")[:120]
    serial = jackknife_tags(trees, 4, epochs=1, executor=Executor(1))
    with Executor(2) as ex:
        assert jackknife_tags(trees, 4, epochs=1, executor=ex) == serial
    assert [len(t) for t in serial] == [len(t.leaves()) for t in trees]


def test_beam_grid_on_workers_gives_the_serial_rows_and_choice(tmp_path: Path) -> None:
    """tune_beam with 2 workers (each loading the saved parser) scores the grid as the serial loop does."""
    from glmnlp.parser.model import ParserConfig
    from glmnlp.parser.selection import tune_beam
    from glmnlp.parser.training import train_parser
    from glmnlp.treebank.corpus import sample_trees

    train, dev = sample_trees("train")[:120], sample_trees("dev")[:25]
    parser, _ = train_parser(train, dev, ParserConfig(epochs=1, seed=1), show_progress=False, jobs=1)
    serial = tune_beam(parser, dev, [1e2, 1e4], [2, 20], executor=Executor(1))
    chosen = (parser.config.gamma, parser.config.beam_cap)
    sent: list[object] = []
    hosts = Executor.hosts

    def watched(self: Executor, factory: object, args_list: list[tuple]) -> object:
        sent.extend(a for args in args_list for a in args)
        return hosts(self, factory, args_list)

    with Executor(2) as ex, pytest.MonkeyPatch.context() as patch:
        patch.setattr(Executor, "hosts", watched)
        parallel = tune_beam(parser, dev, [1e2, 1e4], [2, 20], executor=ex)
    assert [r[:3] for r in parallel] == [r[:3] for r in serial]
    assert (parser.config.gamma, parser.config.beam_cap) == chosen
    # the workers get the model's files, not the path of a folder of this process's machine: a Ray worker on
    # another machine could not load the caller's temporary folder (every trial failed there)
    assert sent and not [a for a in sent if isinstance(a, str | Path)]


def test_a_ray_address_is_tried_before_ray_is_asked(monkeypatch: pytest.MonkeyPatch) -> None:
    """HOST:PORT where a gRPC server (a Ray head) answers passes, and so does a TLS server (a head with RAY_USE_TLS); a
    closed port or an unknown host is why not, and so is a server of another kind there (a mistyped port on a web
    server: Ray retried for 14 minutes), one that accepts and answers nothing (a gRPC server sends its SETTINGS at
    once: Ray retried such an address for over ten minutes, deaf to Ctrl-C and SIGTERM) and an address without a
    host (Ray's traceback); other forms (auto) are Ray's to resolve."""
    import contextlib
    import socket
    import threading

    from glmnlp.glm import ray_driver
    from glmnlp.glm.parallel import unreachable

    def serve(server: socket.socket, answer: bytes | None) -> None:
        while True:
            try:
                connection, _ = server.accept()
            except OSError:  # closed
                return
            with connection, contextlib.suppress(OSError):  # reset by a client gone with the answer unread
                connection.recv(64)
                if answer is not None:
                    connection.sendall(answer)
                while connection.recv(64):  # (silent: the connection held open until the client gives up)
                    pass

    monkeypatch.setattr(ray_driver, "ADDRESS_TIMEOUT", 1.0)
    settings = bytes([0, 0, 6, 4, 0, 0, 0, 0, 0]) + bytes(6)  # HTTP/2's SETTINGS frame, as a gRPC server's first
    web = b"HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n"
    tls = bytes([0x15, 3, 3, 0, 2, 2, 70])  # a TLS alert: the preface is no ClientHello
    found = {}
    for name, answer in (("grpc", settings), ("web", web), ("silent", None), ("tls", tls)):
        server = socket.create_server(("127.0.0.1", 0))
        threading.Thread(target=serve, args=(server, answer), daemon=True).start()
        found[name] = (server, f"127.0.0.1:{server.getsockname()[1]}")
    try:
        grpc, web_address = found["grpc"][1], found["web"][1]
        assert unreachable(grpc) is None and unreachable(f"ray://{grpc}") is None
        assert f"something answers at {web_address}, but not a Ray cluster's head node" in unreachable(web_address)
        assert unreachable(f"ray://{found['tls'][1]}") is None
        assert unreachable(found["silent"][1]) == (f"something accepts connections at {found['silent'][1]} but answers "
                                                   "nothing in 1 s: not a Ray cluster's head node (another port?)")
    finally:
        for server, _ in found.values():
            with contextlib.suppress(OSError):
                server.shutdown(socket.SHUT_RDWR)  # wakes the accept() of its thread, which close() does not
            server.close()
    assert unreachable(grpc).startswith(f"nothing answers at {grpc} (")  # closed now
    assert "nothing answers at nosuchhost.invalid:6379" in unreachable("nosuchhost.invalid:6379")
    assert unreachable("auto") is None and unreachable("notaport") is None
    assert unreachable(":6391") == "':6391' names no host (HOST:PORT)"
