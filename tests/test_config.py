"""glmnlp.config: process-wide defaults for jobs/backend/address, read by every executor and command."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

import glmnlp
from glmnlp import config
from glmnlp.cli import cli
from glmnlp.errors import ConfigError
from glmnlp.glm.parallel import Executor, resolve_executor


@pytest.fixture(autouse=True)
def fresh_settings(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Each test starts from the environment (the module reads it on first use) and leaves no trace."""
    for name in ("GLMNLP_JOBS", "GLMNLP_BACKEND", "GLMNLP_ADDRESS"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setattr(config, "_current", None)
    yield


def test_config_defaults_are_all_cores_on_local_processes() -> None:
    assert config.get() == config.Settings(jobs=0, backend="local", address=None)
    assert glmnlp.config is config


def test_config_reads_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GLMNLP_JOBS", "3")
    monkeypatch.setenv("GLMNLP_BACKEND", "ray")
    monkeypatch.setenv("GLMNLP_ADDRESS", "head:6379")
    assert config.get() == config.Settings(jobs=3, backend="ray", address="head:6379")


_RULE = "jobs must be an integer from 0 to 999999 (0 = all cores)"


@pytest.mark.parametrize(
    ("name", "value", "message"),
    [("GLMNLP_JOBS", "two", f"GLMNLP_JOBS=two: {_RULE}"),
     ("GLMNLP_JOBS", "-1", f"GLMNLP_JOBS=-1: {_RULE}"),
     ("GLMNLP_JOBS", "1 2", f"GLMNLP_JOBS='1 2': {_RULE}"),
     ("GLMNLP_JOBS", "1_0", f"GLMNLP_JOBS=1_0: {_RULE}"),  # int() read 10
     ("GLMNLP_JOBS", "\u0663", f"GLMNLP_JOBS='\u0663': {_RULE}"),  # Arabic-Indic 3
     ("GLMNLP_JOBS", "9" * 20, f"GLMNLP_JOBS={'9' * 20}: {_RULE}"),
     ("GLMNLP_JOBS", "1000000", f"GLMNLP_JOBS=1000000: {_RULE}"),
     ("GLMNLP_BACKEND", "spark", "GLMNLP_BACKEND=spark: backend must be one of local, ray")],
)
def test_config_bad_environment_is_an_error_naming_the_variable(
    monkeypatch: pytest.MonkeyPatch, name: str, value: str, message: str
) -> None:
    """Only the variable at fault is named, with its value as a shell would take it back."""
    monkeypatch.setenv(name, value)
    with pytest.raises(ConfigError) as info:
        config.get()
    assert str(info.value) == message


def test_jobs_follow_one_rule_in_the_variable_the_option_and_the_call(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
) -> None:
    """``GLMNLP_JOBS`` of seven digits was refused while ``-j 99999999999999999999`` and ``set(jobs=10**20)`` were
    taken: one bound, 999999, for all three."""
    from glmnlp.cli import main

    monkeypatch.setenv("GLMNLP_JOBS", "999999")
    assert config.get().jobs == config.MAX_JOBS == 999_999
    with pytest.raises(ConfigError, match=rf"^{re.escape(_RULE)}, got 100000000000000000000$"):
        config.set(jobs=10**20)
    assert main(["parse", "-j", "1000000", "A dog."]) == 2
    assert "Invalid value for '--jobs' / '-j': 1000000 is not in the range 0<=x<=999999." in capsys.readouterr().err


def test_a_bad_variable_is_an_error_only_where_its_setting_is_needed(monkeypatch: pytest.MonkeyPatch) -> None:
    """A bad GLMNLP_JOBS was refused by every call, even one giving jobs (``glmnlp parse -j 2``): the whole
    environment was checked at the first read. Now a setting's variable is checked where that setting is taken."""
    monkeypatch.setenv("GLMNLP_JOBS", "two")
    monkeypatch.setenv("GLMNLP_BACKEND", "spark")
    monkeypatch.setenv("GLMNLP_ADDRESS", "head:6379")
    assert config.resolve(jobs=2, backend="ray") == config.Settings(2, "ray", "head:6379")
    with pytest.raises(ConfigError, match="^GLMNLP_JOBS=two: "):
        config.resolve(backend="local")
    with pytest.raises(ConfigError, match="^GLMNLP_BACKEND=spark: "):
        config.resolve(jobs=1)
    with pytest.raises(ConfigError, match="^GLMNLP_JOBS=two: "):
        config.get()
    with config.using(jobs=3, backend="local"):  # both replaced: nothing at fault inside the block
        assert config.get() == config.Settings(3, "local", None)
    with pytest.raises(ConfigError, match="^GLMNLP_JOBS=two: "):  # and at fault again after it
        config.resolve(backend="local")
    config.set(jobs=1)
    assert config.resolve(backend="ray").jobs == 1
    with pytest.raises(ConfigError, match="^GLMNLP_BACKEND=spark: "):  # the setting not replaced keeps its error
        config.get()


def test_cli_a_bad_glmnlp_jobs_stops_no_command_that_does_not_read_it(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """``GLMNLP_JOBS=two glmnlp parse -j 1 ...`` ended with ``error: GLMNLP_JOBS=two ...``, status 1; a command
    whose workers come from the variable still does, ``glmnlp parse "A dog barked."`` (parsed in this process, but
    the variable is what the command line leaves the jobs to) included, before any output."""
    monkeypatch.setenv("GLMNLP_JOBS", "two")
    source = tmp_path / "in.txt"
    source.write_text("the/DT dog/NN barked/VBD ./.\n", encoding="utf-8")
    runner = CliRunner()
    for command in (["parse", "--tagged", "-q", "-i", str(source), "-j", "1"], ["parse", "-q", "-j", "1", "A dog."]):
        result = runner.invoke(cli, command)
        assert (result.exit_code, result.output.count("(TOP")) == (0, 1), (command, result.output)
    for command in (["parse", "--tagged", "-q", "-i", str(source)], ["parse", "-q", "A dog barked."]):
        result = runner.invoke(cli, command)
        assert result.exit_code == 1 and "GLMNLP_JOBS=two: jobs must be" in result.output, command
        assert "(TOP" not in result.output


def test_config_set_and_using_restore_the_previous_settings() -> None:
    previous = config.set(jobs=3)
    assert previous.jobs == 0 and config.get().jobs == 3
    with pytest.raises(RuntimeError), config.using(jobs=1, backend="ray", address="auto"):
        assert config.get() == config.Settings(1, "ray", "auto")
        raise RuntimeError("inside the block")
    assert config.get() == config.Settings(3, "local", None)
    config.set(backend="ray", address="auto")
    config.set(backend="local")  # the address went with the ray backend
    assert config.get().address is None


@pytest.mark.parametrize("bad", [{"jobs": -2}, {"jobs": 1.5}, {"jobs": True}, {"backend": "spark"},
                                 {"address": "head:6379"}])
def test_config_refuses_bad_values_and_keeps_the_old_ones(bad: dict) -> None:
    with pytest.raises(ConfigError):
        config.set(**bad)
    assert config.get() == config.Settings()


def test_executor_takes_unset_values_from_config() -> None:
    with config.using(jobs=1):
        assert Executor().mode == "inline" and resolve_executor().jobs == 1
        assert Executor(2).jobs == 2  # an explicit value wins
    with config.using(jobs=2):
        ex = Executor()
        assert (ex.jobs, ex.mode) == (2, "local")
        assert Executor(0).jobs >= 1  # 0 = all cores, whatever the configuration


def test_cli_parse_takes_jobs_from_the_environment(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Unset --jobs: $GLMNLP_JOBS reaches the pipeline, else all cores (0); an explicit --jobs wins."""
    from glmnlp.text.pipeline import Pipeline

    seen: list[int] = []
    original = Pipeline.pipe

    def spy(self: Pipeline, docs, *args, **kwargs):  # type: ignore[no-untyped-def]
        seen.append(kwargs["n_process"])
        return original(self, docs, *args, **{**kwargs, "n_process": 1})

    monkeypatch.setattr(Pipeline, "pipe", spy)
    source = tmp_path / "in.txt"
    source.write_text("the/DT dog/NN barked/VBD ./.\nA/DT cat/NN sat/VBD ./.\n", encoding="utf-8")
    runner = CliRunner()
    command = ["parse", "--tagged", "-q", "-i", str(source)]
    monkeypatch.setenv("GLMNLP_JOBS", "3")
    assert runner.invoke(cli, command).exit_code == 0
    assert runner.invoke(cli, [*command, "--jobs", "2"]).exit_code == 0
    monkeypatch.delenv("GLMNLP_JOBS")
    monkeypatch.setattr(config, "_current", None)
    result = runner.invoke(cli, command)
    assert result.exit_code == 0 and result.output.count("(TOP") == 2
    assert runner.invoke(cli, ["parse", "A dog barked."]).exit_code == 0  # TEXT arguments: this process
    assert seen == [3, 2, 0, 1]


def test_pipe_with_one_batch_of_input_starts_no_workers(monkeypatch: pytest.MonkeyPatch) -> None:
    """n_process=2 on input that fits in one batch parses in this process (same documents)."""
    def no_workers(*args: object, **kwargs: object) -> None:
        raise AssertionError("workers were started for one batch of input")

    nlp = glmnlp.load()
    texts = ["A dog barked.", "Open the window."]
    serial = [d.to_dict() for d in nlp.pipe(texts, batch_size=2)]
    monkeypatch.setattr(Executor, "hosts", no_workers)
    assert [d.to_dict() for d in nlp.pipe(texts, batch_size=2, n_process=2)] == serial
    with pytest.raises(AssertionError, match="workers were started"):
        list(nlp.pipe(texts, batch_size=1, n_process=2))


def test_training_functions_leave_unset_values_to_config(monkeypatch: pytest.MonkeyPatch) -> None:
    """Tagger.fit and train_parser without jobs/backend build their executor from glmnlp.config."""
    import glmnlp.glm.training as training
    from glmnlp.parser.model import ParserConfig
    from glmnlp.parser.training import train_parser
    from glmnlp.tagger.model import Tagger, TaggerConfig
    from glmnlp.treebank.corpus import sample_tagged, sample_trees

    made: list[tuple[int, str]] = []
    original = training.resolve_executor

    def spy(executor=None, **kwargs):  # type: ignore[no-untyped-def]
        ex = original(executor, **kwargs)
        made.append((ex.jobs, ex.backend))
        return ex

    monkeypatch.setattr(training, "resolve_executor", spy)
    with config.using(jobs=1):
        Tagger(TaggerConfig(epochs=1)).fit(sample_tagged("train")[:20], None, show_progress=False)
        train_parser(sample_trees("train")[:10], [], ParserConfig(epochs=1), show_progress=False)
    assert made == [(1, "local"), (1, "local")]
    with config.using(jobs=2):
        Tagger(TaggerConfig(epochs=1)).fit(sample_tagged("train")[:20], None, show_progress=False)
    assert made[-1] == (2, "local")


@pytest.mark.parametrize(("field", "value"), [("seed", 1.5), ("seed", "2"), ("epochs", -1), ("n_bits", 100),
                                              ("gamma", float("nan")), ("beam_cap", 1.5), ("cache", "yes")])
def test_parser_config_checks_its_fields_as_a_model_file_is_checked(field: str, value: object) -> None:
    """``ParserConfig(seed=1.5)`` or ``n_bits=100`` was taken and failed in training (numpy's TypeError, 'Maximum
    allowed dimension exceeded'); a NaN gamma or a cap of 1.5 decoded silently. The constructor checks the ranges a
    model file's reader checks (one table, glmnlp.parser.config.RANGES)."""
    from glmnlp.errors import ConfigError
    from glmnlp.parser import ParserConfig

    with pytest.raises(ConfigError, match=f"^{field} must be"):
        ParserConfig(**{field: value})  # type: ignore[arg-type]


def test_config_environment_address_serves_a_call_that_chooses_ray(monkeypatch: pytest.MonkeyPatch) -> None:
    """``GLMNLP_ADDRESS`` without ``GLMNLP_BACKEND=ray`` was refused, even for ``glmnlp ... --backend ray``, whose
    ``--address`` the docs say defaults to it: it is the address of the calls that choose the ray backend now, and
    local work has none."""
    monkeypatch.setattr(config, "_current", None)
    monkeypatch.delenv("GLMNLP_BACKEND", raising=False)
    monkeypatch.setenv("GLMNLP_ADDRESS", "head:6379")
    assert config.get() == config.Settings(jobs=config.get().jobs, backend="local", address=None)
    assert config.resolve(backend="ray").address == "head:6379"
    assert config.resolve(backend="ray", address="other:1").address == "other:1"
    assert config.resolve().address is None and config.resolve(backend="local").address is None
