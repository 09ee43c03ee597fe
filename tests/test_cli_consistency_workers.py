"""CLI consistency of where the work runs: --jobs, --backend, --address and --shards and their environment variables
are checked alike in every command, before any work.

Run in-process through :func:`glmnlp.cli.main`; nothing here trains more than a few toy trees.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from cli_fixtures import _run


@pytest.mark.parametrize("argv", [
    ["parse", "-q", "-j", "1", "A dog."],
    ["parse", "-q", "--backend", "local", "A dog."],
    ["tagger", "train", "--train", "TREES", "--out", "OUT"],
    ["parser", "train", "--train", "TREES", "--dev", "TREES", "--out", "OUT"],
    ["train-default", "--out", "OUT"],
], ids=lambda argv: " ".join(argv[:4]))
def test_address_without_the_ray_backend_is_a_usage_error_in_every_command(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, toy_trees: Path, tmp_path: Path,
    argv: list[str],
) -> None:
    """``--address`` without ``--backend ray`` was ignored by ``parse`` on input of one batch (a tree, status 0) and
    refused with status 1 by the trainers; docs/cli.md lists it among the usage errors (status 2): now in all."""
    from glmnlp import config

    monkeypatch.delenv("GLMNLP_BACKEND", raising=False)
    monkeypatch.setattr(config, "_current", None)
    names = {"TREES": str(toy_trees), "OUT": str(tmp_path / "out")}
    rc, out, err = _run(capsys, [names.get(a, a) for a in argv] + ["--address", "head:6379"])
    assert (rc, out) == (2, "") and err.endswith("Error: --address needs --backend ray (or GLMNLP_BACKEND=ray)\n")
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("argv", [
    ["parse", "-q", "-j", "1", "A dog."],
    ["parse", "-q", "-j", "2", "A dog."],
    ["tagger", "train", "--train", "TREES", "--out", "OUT", "-j", "1", "--shards", "2"],
    ["parser", "train", "--train", "TREES", "--dev", "TREES", "--out", "OUT", "-j", "1"],
], ids=lambda argv: " ".join(argv[:4]))
@pytest.mark.parametrize("from_env", [False, True])
def test_a_ray_address_where_nothing_answers_is_an_error_whatever_the_jobs(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, toy_trees: Path, tmp_path: Path,
    argv: list[str], from_env: bool,
) -> None:
    """``--backend ray --address`` with nothing there was refused only by work sent to the cluster: ``-j 1``, or
    input of one batch, ran here with status 0, so a mistyped address went unnoticed (README: an address where
    nothing answers is an error). Now one line, status 1, before any work, from the option or $GLMNLP_ADDRESS."""
    from glmnlp import config

    monkeypatch.setattr(config, "_current", None)
    if from_env:
        monkeypatch.setenv("GLMNLP_BACKEND", "ray")
        monkeypatch.setenv("GLMNLP_ADDRESS", "127.0.0.1:1")
        extra = []
    else:
        monkeypatch.delenv("GLMNLP_BACKEND", raising=False)
        monkeypatch.delenv("GLMNLP_ADDRESS", raising=False)
        extra = ["--backend", "ray", "--address", "127.0.0.1:1"]
    names = {"TREES": str(toy_trees), "OUT": str(tmp_path / "out")}
    rc, out, err = _run(capsys, [names.get(a, a) for a in argv] + extra)
    assert (rc, out) == (1, "") and err.startswith(
        "error: the ray backend could not join address '127.0.0.1:1': nothing answers at 127.0.0.1:1 ("), err
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("argv", [
    ["parse", "-q", "-j", "1", "A dog."],
    ["tagger", "train", "--train", "TREES", "--out", "OUT", "-j", "1"],
], ids=lambda argv: " ".join(argv[:4]))
def test_a_bad_backend_in_the_environment_is_no_error_for_work_that_stays_here(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, toy_trees: Path, tmp_path: Path,
    argv: list[str],
) -> None:
    """``GLMNLP_BACKEND=bogus glmnlp parse -j 1`` was refused (the address check read the backend of every command),
    where the settings' docs say a setting not needed is not read: work that stays in this process runs."""
    from glmnlp import config

    monkeypatch.setattr(config, "_current", None)
    monkeypatch.setenv("GLMNLP_BACKEND", "bogus")
    names = {"TREES": str(toy_trees), "OUT": str(tmp_path / "out")}
    rc, _out, err = _run(capsys, [names.get(a, a) for a in argv])
    assert rc == 0, err


def test_work_that_stays_here_keeps_a_given_address_and_reads_jobs_from_the_environment(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The first version of the rule above made ``Executor(1, None, "auto")`` with ``GLMNLP_BACKEND=ray`` an error
    ("an address needs the ray backend": ``parser train -j 1 --address auto`` had passed the command's checks), and
    still read a bad backend when ``GLMNLP_JOBS=1`` said the work stays here."""
    from glmnlp import config
    from glmnlp.glm.parallel import Executor

    monkeypatch.setattr(config, "_current", None)
    monkeypatch.setenv("GLMNLP_BACKEND", "ray")
    ex = Executor(1, None, "auto")
    assert (ex.mode, ex.backend, ex.address) == ("inline", "ray", "auto")
    monkeypatch.setattr(config, "_current", None)
    monkeypatch.setenv("GLMNLP_BACKEND", "bogus")
    monkeypatch.setenv("GLMNLP_JOBS", "1")
    assert Executor().mode == "inline"


def test_an_empty_address_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    """``--address ''`` was status 1 (``error: address must be HOST:PORT``); a bad option value is status 2."""
    rc, out, err = _run(capsys, ["parse", "-q", "-j", "2", "--backend", "ray", "--address", "", "A dog."])
    assert (rc, out) == (2, "") and "Invalid value for '--address': address must be HOST:PORT or 'auto', got ''" in err


@pytest.mark.parametrize("group", ["parser", "tagger"])
def test_more_shards_than_training_trees_is_refused_before_any_work(
    capsys: pytest.CaptureFixture[str], toy_trees: Path, tmp_path: Path, group: str
) -> None:
    """``--shards 1000`` on 12 trees trained 988 perceptrons over no examples (each a whole weight table: with
    ``--shards 1000`` the process was killed for memory, without a word); now one line, status 1, no model."""
    argv = [group, "train", "--train", str(toy_trees), "--out", str(tmp_path / "m"), "--shards", "1000", "-j", "1"]
    if group == "parser":
        argv += ["--dev", str(toy_trees)]
    rc, out, err = _run(capsys, argv)
    assert (rc, out) == (1, "") and err.endswith(
        "error: 1000 shards for 12 training examples: a shard would have none (at most 12)\n"), err
    assert not (tmp_path / "m").exists()


def test_the_memory_estimate_counts_every_shard_not_the_workers(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, toy_trees: Path, tmp_path: Path
) -> None:
    """With ``-j 1`` every shard's perceptron (weights, sums, stamps) lives in this process: 97 MB a shard at 2**22
    (``--shards 40``: 4.0 GB). The estimate counted min(jobs, shards) = 1 of them, so no warning came."""
    from glmnlp.cli import parser_cmd

    seen: list[tuple[int, int]] = []
    monkeypatch.setattr(parser_cmd, "_warn_memory", lambda bits, shards: seen.append((bits, shards)))
    argv = ["parser", "train", "--train", str(toy_trees), "--dev", str(toy_trees), "--out", str(tmp_path / "m"),
            "--shards", "3", "-j", "1", "--epochs", "1", "--feature-bits", "16"]
    rc, _, err = _run(capsys, argv)
    assert rc == 0, err
    assert seen == [(16, 3)]


def test_jobs_above_the_cores_are_warned_of(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """``-j 10000`` on a 2-core machine started a worker process per batch or shard, each loading a model, silently;
    it is warned of on the local backend (not on Ray's, whose cluster has its own CPUs), and -j 2 never."""
    from glmnlp.glm import parallel

    monkeypatch.setattr(parallel, "default_jobs", lambda: 1)  # taskset -c 0 on a machine of 2 CPUs
    monkeypatch.setattr(os, "cpu_count", lambda: 2)
    assert _run(capsys, ["parse", "-q", "-j", "3", "A dog."])[2].startswith(  # it said "this machine's 1 cores"
        "warning: --jobs 3 is more than the 1 CPU this process may use of the machine's 2: up to 3 worker processes")
    monkeypatch.setattr(parallel, "default_jobs", lambda: 2)
    rc, out, err = _run(capsys, ["parse", "-q", "-j", "10000", "A dog."])
    assert (rc, out) == (0, "(TOP (NP (DT A) (NN dog) (. .)))\n") and err == (
        "warning: --jobs 10000 is more than the 2 CPUs this process may use: up to 10000 worker processes, each "
        "holding a model or a shard in memory, and no faster than 2 (--backend ray for more machines)\n")
    assert _run(capsys, ["parse", "-q", "-j", "2", "A dog."])[2] == ""
    assert _run(capsys, ["parse", "-q", "-j", "10000", "--backend", "ray", "A dog."])[2] == ""
    (tmp_path / "empty.trees").write_text("")  # refused after the warning: no worker is started
    rc, _, err = _run(capsys, ["tagger", "train", "--train", str(tmp_path / "empty.trees"), "--out",
                               str(tmp_path / "m"), "-j", "3"])
    assert rc == 1 and err.startswith("warning: --jobs 3 is more than the 2 CPUs this process may use")
    from glmnlp import config  # the same number from $GLMNLP_JOBS, without --jobs: it was never warned of

    monkeypatch.setenv("GLMNLP_JOBS", "5")
    monkeypatch.setattr(config, "_current", None)
    (tmp_path / "in.txt").write_text("A dog.\n")
    rc, out, err = _run(capsys, ["parse", "-q", "-i", str(tmp_path / "in.txt")])
    assert rc == 0 and err.startswith("warning: $GLMNLP_JOBS 5 is more than the 2 CPUs this process may use"), err
    assert _run(capsys, ["parse", "-q", "-j", "1", "-i", str(tmp_path / "in.txt")])[2] == ""
    assert _run(capsys, ["parse", "-q", "A dog."])[2] == ""  # TEXT arguments are parsed here: no worker to warn of
    rc, _, err = _run(capsys, ["tagger", "train", "--train", str(tmp_path / "empty.trees"), "--out",
                               str(tmp_path / "m")])
    assert rc == 1 and err.startswith("warning: $GLMNLP_JOBS 5 is more than the 2 CPUs this process may use"), err


@pytest.mark.parametrize("extra", [[], ["--address", "127.0.0.1:6379"]])
def test_the_ray_backend_without_ray_installed_says_what_to_install(extra: list[str]) -> None:
    """Without Ray, ``parse --backend ray -j 2`` on input of one batch ran here with status 0 and no word, and with an
    address blamed the network ("nothing answers"); it says first what to install, whatever the input."""
    import subprocess
    import sys

    argv = ["parse", "-q", "--backend", "ray", "-j", "2", *extra, "The dog barked."]
    code = f"import sys; sys.modules['ray'] = None\nfrom glmnlp.cli import main\nraise SystemExit(main({argv!r}))"
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert (run.returncode, run.stdout) == (1, "")
    assert run.stderr == "error: the ray backend needs Ray: pip install 'glmnlp[ray]'\n", run.stderr
