"""CLI: ``glmnlp train-default`` (the pipeline model it writes, its last line), ``glmnlp tag``'s models, ``--help`` on
every command and ``--version``.
"""

from __future__ import annotations

import json
from pathlib import Path

import click
import pytest

from cli_fixtures import _run, _stdin
from glmnlp import __version__
from glmnlp.cli import cli, main


def test_cli_train_default_writes_a_pipeline_model(tiny_model: Path) -> None:
    """train-default writes tagger/, parser/ and MODEL.json with the recipe and checksums."""
    meta = json.loads((tiny_model / "MODEL.json").read_text())
    assert (tiny_model / "tagger" / "weights.npz").is_file() and (tiny_model / "parser" / "weights.npz").is_file()
    assert meta["sentences"] == {"train": 60, "dev": 8, "test": 5}
    assert set(meta["checksums"]) == {"NOTICE.md", "parser/metadata.json", "parser/weights.npz",
                                      "tagger/metadata.json", "tagger/weights.npz"}
    # the options that made it: the command recorded was the bundled model's whatever the run's options
    assert meta["command"] == ("glmnlp train-default --out DIR --max-train 60 --max-dev 8 --max-test 5 "
                               "--parser-epochs 1 --generative-weights 0")
    assert meta["description"].endswith("; only the first trees of each split, per corpus: train 60, dev 8, test 5")


def test_cli_train_default_refuses_existing_output(tiny_model: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """An existing model directory is not overwritten without --force."""
    rc, _, err = _run(capsys, ["train-default", "--out", str(tiny_model), "--max-train", "5"])
    assert rc == 1
    assert err == (f"error: {tiny_model}: already exists and is not an empty directory "
                   "(use --force to replace it)\n")


def _commands(group: click.Group, prefix: tuple[str, ...] = ()) -> list[tuple[str, ...]]:
    out = []
    for name, command in sorted(group.commands.items()):
        out.append((*prefix, name))
        if isinstance(command, click.Group):
            out += _commands(command, (*prefix, name))
    return out


def test_cli_every_command_has_help_with_examples(capsys: pytest.CaptureFixture[str]) -> None:
    """`--help` works on every command and group; every command and group shows an example invocation."""
    commands = _commands(cli)
    assert ("parse",) in commands and ("train-default",) in commands
    for path in [(), *commands]:
        rc, out, _ = _run(capsys, [*path, "--help"])
        assert rc == 0 and out.startswith("Usage: glmnlp"), path
        command: click.Command = cli
        for name in path:
            assert isinstance(command, click.Group)
            command = command.commands[name]
        if isinstance(command, click.Group):
            assert "Commands:" in out, path
        if path:
            assert "Example" in out and "  glmnlp " in out, f"no example in: glmnlp {' '.join(path)} --help"


def test_cli_version(capsys: pytest.CaptureFixture[str]) -> None:
    """--version prints the package version."""
    rc, out, _ = _run(capsys, ["--version"])
    assert (rc, out) == (0, f"glmnlp, version {__version__}\n")


def test_cli_tag_uses_the_bundled_tagger_and_model_directories(
    tiny_model: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """glmnlp tag without --model uses the bundled model's tagger; --model accepts a pipeline directory."""
    _stdin(monkeypatch, b"The cat sat on the mat .\n")
    rc, out, _ = _run(capsys, ["tag"])
    assert rc == 0 and out.split()[0] == "The/DT" and len(out.split()) == 7
    _stdin(monkeypatch, b"The cat sat .\n")
    rc, out, _ = _run(capsys, ["tag", "--model", str(tiny_model)])
    assert rc == 0 and [tok.rpartition("/")[0] for tok in out.split()] == ["The", "cat", "sat", "."]


def test_cli_train_default_names_what_its_last_comparison_compares(capsys: pytest.CaptureFixture[str],
                                                                   tmp_path: Path) -> None:
    """The last line said ``test F1 53.14 (unpruned 49.45)`` when nothing was pruned: the 3.7 were multitagging's
    (single tags against tags within margin 4). It now names both choices; the figures are MODEL.json's."""
    import json

    out = tmp_path / "model"
    rc = main(["train-default", "--out", str(out), "--max-train", "40", "--max-dev", "5", "--max-test", "5",
               "--parser-epochs", "1", "--generative-weights", "0", "-j", "1"])
    err = capsys.readouterr().err
    assert rc == 0, err
    meta = json.loads((out / "MODEL.json").read_text(encoding="utf-8"))
    shipped, before = meta["test_f1"]["shipped"], meta["test_f1"]["unpruned"]
    assert (f"test F1 {shipped:.2f} (before pruning and multitagging, with every weight and single tags: "
            f"{before:.2f}); written to {out}") in err.splitlines()


_TAKES = {"parser": ("glmnlp-parser", "glmnlp-pipeline"), "tagger": ("tagger", "glmnlp-pipeline")}
#: the hint of what reads a folder of each kind, which a command names (glmnlp.glm.model_files.wrong_kind)
_READS = {"tagger": "glmnlp tag -m reads it", "glmnlp-parser": "glmnlp parse -m reads it",
          "glmnlp-generative-term": "a parser's generative/ part: glmnlp parse -m reads the parser folder around it"}


@pytest.mark.parametrize(("command", "user", "takes"), [
    (["parse", "--tagger", "{}", "A dog."], "glmnlp parse --tagger", "tagger"),
    (["measures", "-m", "{}", "A dog."], "glmnlp measures", "parser"),
    (["tag", "-m", "{}"], "glmnlp tag", "tagger"),
    (["tagger", "evaluate", "-m", "{}", "--test", "{test}"], "glmnlp tagger evaluate", "tagger"),
])
def test_cli_a_model_folder_of_the_wrong_kind_is_refused_in_one_wording(
    command: list[str], user: str, takes: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
) -> None:
    """``parse -m TAGGER`` said ``TAGGER: a tagger model; glmnlp parse needs a parser or a pipeline directory`` and
    ``measures -m TAGGER``, ``tag -m PARSER`` said ``.../metadata.json: this is a tagger model, expected a parser
    model``. Every option that takes a model folder says it as parse does, from one function: the folder, what it
    holds, what the command takes."""
    from glmnlp.glm.model_files import wrong_kind
    from glmnlp.text.default_model import default_model_path

    test = tmp_path / "test.word_tag"
    test.write_text("The/DT dog/NN ./.\n", encoding="utf-8")
    bundled = default_model_path()
    for folder, kind in ((bundled / "tagger", "tagger"), (bundled / "parser", "glmnlp-parser"),
                         (bundled / "parser" / "generative", "glmnlp-generative-term")):
        if kind in _TAKES[takes]:
            continue
        _stdin(monkeypatch, b"The dog .\n")
        rc, out, err = _run(capsys, [a.format(folder, test=test) for a in command])
        assert (rc, out, err) == (1, "", f"error: {wrong_kind(folder, kind, _TAKES[takes], user)}\n")
        assert err == f"error: {folder}: a {kind.removeprefix('glmnlp-').replace('-', ' ')} model; {user} needs a " \
                      f"{takes} or a pipeline directory ({_READS[kind]})\n"


@pytest.mark.parametrize(("command", "user", "part"), [
    (["tag", "-m", "{}"], "glmnlp tag", "tagger"),
    (["tagger", "evaluate", "-m", "{}", "--test", "{test}"], "glmnlp tagger evaluate", "tagger"),
    (["parse", "-m", "{parser}", "--tagger", "{}", "A dog."], "glmnlp parse --tagger", "tagger"),
    (["parse", "-m", "{}", "A dog."], "glmnlp parse", "parser"),
    (["measures", "-m", "{}", "A dog."], "glmnlp measures", "parser"),
])
def test_cli_a_pipeline_folder_without_the_part_a_command_takes_is_refused_naming_the_command(
    command: list[str], user: str, part: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
) -> None:
    """``tag -m``, ``tagger evaluate -m`` and ``parse --tagger`` of a pipeline folder holding only ``parser/`` said
    ``a pipeline model; glmnlp.Tagger.load needs a tagger directory (glmnlp.load() reads it whole; its models are in
    parser/)``: no command named, a pipeline folder said to be the wrong kind where they take one, and a loader named
    that refuses it too; ``parse -m`` of one holding only ``tagger/`` named no command either."""
    from glmnlp.text.default_model import default_model_path

    bundled = default_model_path()
    folder = tmp_path / "only"
    folder.mkdir()
    (folder / ("parser" if part == "tagger" else "tagger")).symlink_to(
        bundled / ("parser" if part == "tagger" else "tagger"), target_is_directory=True)
    test = tmp_path / "test.word_tag"
    test.write_text("The/DT dog/NN ./.\n", encoding="utf-8")
    _stdin(monkeypatch, b"The dog .\n")
    rc, out, err = _run(capsys, [a.format(folder, test=test, parser=bundled / "parser") for a in command])
    assert (rc, out, err) == (1, "", f"error: {folder}: no {part}/ sub-model in this model directory; {user} needs a "
                                     f"{part} or a pipeline directory with one\n")


@pytest.mark.parametrize(("command", "out"), [
    (["parse", "-m", "{}", "-i", "{text}"], "(TOP (S (NP (DT The) (NN dog)) (VP (VBD barked)) (. .)))\n"),
    (["tag", "-m", "{}", "-i", "{text}"], "The/DT dog/NN barked/VBD ./.\n"),
    (["parse", "--tagger", "{}", "-i", "{text}"], "(TOP (S (NP (DT The) (NN dog)) (VP (VBD barked)) (. .)))\n"),
])
def test_cli_takes_a_pipeline_folder_whatever_else_lies_there(
    command: list[str], out: str, capsys: pytest.CaptureFixture[str], tmp_path: Path,
) -> None:
    """``parse -m`` and ``tag -m`` of a copy of the bundled model holding another program's ``metadata.json`` said
    ``.../metadata.json: not a glmnlp model (format is not 'glmnlp-model')``, where ``glmnlp.measures`` loaded it;
    every command takes it as the pipeline it is, as ``glmnlp.load`` does (glmnlp.glm.model_files' header)."""
    from glmnlp.text.default_model import default_model_path

    bundled = default_model_path()
    folder = tmp_path / "pipe"
    folder.mkdir()
    for part in ("tagger", "parser"):
        (folder / part).symlink_to(bundled / part, target_is_directory=True)
    (folder / "MODEL.json").write_bytes((bundled / "MODEL.json").read_bytes())
    (folder / "metadata.json").write_text('{"note": "my notes"}', encoding="utf-8")
    text = tmp_path / "in.txt"
    text.write_text("The dog barked .\n", encoding="utf-8")
    rc, got, err = _run(capsys, [a.format(folder, text=text) for a in command])
    assert (rc, got) == (0, out), err
