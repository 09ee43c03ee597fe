"""CLI consistency: an option that has no effect is refused like the others, the same things are spelled and
answered the same way in every command.

Run in-process through :func:`glmnlp.cli.main`; nothing here trains more than a few toy trees.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from cli_fixtures import _run


# -- options that do not apply ----------------------------------------------------------------------------


@pytest.mark.parametrize(("kind", "options", "message"), [
    ("generative", ["--generative-weights", "5,20"],
     "--generative-weights only applies to --kind combined (the weight of the generative feature); "
     "--kind generative does not use it"),
    ("generative", ["--epochs", "5", "--shards", "3", "--features", "baseline"],
     "--epochs, --shards and --features only apply to --kind perceptron or combined (the perceptron's "
     "training); --kind generative does not use them"),
    ("generative", ["--mixing", "updates", "--no-early-update", "--no-cache"],
     "--mixing, --no-early-update and --no-cache only apply to --kind perceptron or combined"),
    ("perceptron", ["--gen-cutoff", "3"], "--gen-cutoff only applies to --kind combined or generative"),
    ("perceptron", ["--gen-prune", "0.1"], "--gen-prune only applies to --kind combined or generative"),
    ("perceptron", ["--generative-weights", "10"], "--generative-weights only applies to --kind combined"),
])
def test_parser_train_refuses_options_its_kind_does_not_use(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, toy_trees: Path, kind: str, options: list[str], message: str
) -> None:
    """Each option the chosen --kind ignores is a usage error naming the kinds it applies to; no model."""
    rc, out, err = _run(capsys, ["parser", "train", "--train", str(toy_trees), "--dev", str(toy_trees),
                                 "--out", str(tmp_path / "m"), "--kind", kind, *options])
    assert (rc, out) == (2, "") and f"\nError: {message}" in err
    assert not (tmp_path / "m").exists()


def test_parser_train_accepts_the_defaults_of_options_its_kind_does_not_use(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, toy_trees: Path
) -> None:
    """Only options given on the command line are refused: --kind generative alone trains and saves."""
    rc, _, err = _run(capsys, ["parser", "train", "--train", str(toy_trees), "--dev", str(toy_trees),
                               "--out", str(tmp_path / "m"), "--kind", "generative", "-j", "1"])
    assert rc == 0 and (tmp_path / "m" / "metadata.json").is_file(), err


@pytest.mark.parametrize(("options", "message"), [
    (["--tokenized", "--tagged"], "--tokenized and --tagged exclude each other"),
    (["--tagged", "--tokenized"], "--tokenized and --tagged exclude each other"),
    (["--map-unknown-tags"], "--map-unknown-tags only applies to --tagged input"),
    (["--tokenized", "--map-unknown-tags"], "--map-unknown-tags only applies to --tagged input"),
    (["--compact"], "--compact is only used with --format svg or html"),
    (["-f", "ascii", "--compact"], "--compact is only used with --format svg or html"),
    (["--unicode-lines"], "--unicode-lines is only used with --format ascii"),
    (["-f", "pretty", "--unicode-lines"], "--unicode-lines is only used with --format ascii"),
    (["--tagged", "--multitag", "2"], "--multitag is not used with --tagged input"),
    (["--tagged", "--tagger", "some_tagger"], "--tagger is not used with --tagged input"),
])
def test_parse_refuses_options_that_have_no_effect(
    capsys: pytest.CaptureFixture[str], options: list[str], message: str
) -> None:
    """Each is a usage error saying what the option applies to, found before any model is loaded."""
    rc, out, err = _run(capsys, ["parse", "-m", "no_such_model", *options, "a/DT dog/NN"])
    assert (rc, out) == (2, "") and f"\nError: {message}" in err


def test_parse_keeps_the_options_where_they_have_an_effect(capsys: pytest.CaptureFixture[str]) -> None:
    """--tagger with --tagged input is what --map-unknown-tags asks for the unknown tags; --compact draws
    html and svg; --unicode-lines draws ascii (the models are looked for after the options are checked)."""
    for options in (["--tagged", "--map-unknown-tags", "--tagger", "some_tagger"], ["-f", "html", "--compact"],
                    ["-f", "svg", "--compact"], ["-f", "ascii", "--unicode-lines"]):
        rc, _, err = _run(capsys, ["parse", "-m", "no_such_model", *options, "a/DT dog/NN"])
        assert rc == 1 and err.startswith("error: ") and "Error:" not in err, options


def test_measures_refuses_sentence_without_plot(capsys: pytest.CaptureFixture[str]) -> None:
    """--sentence N chooses the sentence --plot draws; without --plot it is a usage error, not ignored."""
    rc, out, err = _run(capsys, ["measures", "--sentence", "2", "A dog barked. It ran."])
    assert (rc, out) == (2, "") and "\nError: --sentence only applies to --plot (the sentence it draws)\n" in err


# -- the same things said the same way ---------------------------------------------------------------------------


@pytest.mark.parametrize(("value", "shown"), [("-3", "-3"), ("abc", "abc")])
def test_a_bad_glmnlp_jobs_names_only_that_variable(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path, value: str, shown: str
) -> None:
    """GLMNLP_JOBS=-3 printed every variable (GLMNLP_JOBS='-3' GLMNLP_BACKEND='local' GLMNLP_ADDRESS=None: ...)."""
    from glmnlp import config

    monkeypatch.setenv("GLMNLP_JOBS", value)
    monkeypatch.delenv("GLMNLP_BACKEND", raising=False)
    monkeypatch.delenv("GLMNLP_ADDRESS", raising=False)
    monkeypatch.setattr(config, "_current", None)
    source = tmp_path / "in.txt"
    source.write_text("A dog.\n", encoding="utf-8")
    rc, out, err = _run(capsys, ["parse", "-i", str(source)])  # a file: workers may run, so the variable is read
    assert (rc, out, err) == (1, "", f"error: GLMNLP_JOBS={shown}: jobs must be an integer from 0 to 999999 (0 = all "
                                     "cores)\n")


def test_parser_train_quiet_prints_only_the_choices(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, toy_trees: Path
) -> None:
    """parser train had no --quiet/-q while tagger train and train-default do: with it, no step, epoch or
    beam lines, only what was chosen and saved."""
    dev = tmp_path / "dev.trees"  # the same trees in another file: dev as the --train file is warned of
    dev.write_bytes(toy_trees.read_bytes())
    rc, out, err = _run(capsys, ["parser", "train", "--train", str(toy_trees), "--dev", str(dev), "--epochs", "1",
                                 "-j", "1", "--shards", "1", "-q", "--out", str(tmp_path / "m")])
    assert (rc, out) == (0, ""), err
    lines = err.splitlines()
    assert len(lines) == 2 and lines[0].startswith("chosen epoch 1, gamma=") and lines[1] == f"saved {tmp_path / 'm'}"


def test_tagger_train_has_the_short_quiet_option(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, toy_trees: Path
) -> None:
    rc, out, err = _run(capsys, ["tagger", "train", "--train", str(toy_trees), "--epochs", "2", "-j", "1", "-q",
                                 "--out", str(tmp_path / "m")])
    assert (rc, out, err) == (0, "", f"best epoch 2; model written to {tmp_path / 'm'}\n")


@pytest.mark.parametrize(("text", "summary"), [("A dog barked.\n", "parsed 1 sentence;"),
                                               ("A dog barked. It ran.\n", "parsed 2 sentences;")])
def test_parse_summary_counts_in_the_singular_too(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, text: str, summary: str
) -> None:
    """It said 'parsed 1 sentences'."""
    source = tmp_path / "in.txt"
    source.write_text(text, encoding="utf-8")
    rc, _, err = _run(capsys, ["parse", "-j", "1", "-i", str(source)])
    assert rc == 0 and err.startswith(summary + " retried with a wider beam: ")


def test_parse_text_arguments_say_when_a_sentence_got_the_default_structure(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """With TEXT arguments the summary was never printed, so a sentence the parser found no analysis for came out
    as a flat tree with status 0 and nothing on stderr; a sentence it parses still prints nothing there."""
    import numpy as np

    from glmnlp.parser.grammar import Grammar
    from glmnlp.parser.model import Parser, ParserConfig, punctuation_tags
    from glmnlp.parser.transform import fslc_transform
    from glmnlp.treebank.trees import parse_tree

    tree = parse_tree("(TOP (S (NP (NN dogs)) (VP (VBP bark)) (. .)))")
    cfg = ParserConfig(n_bits=10)
    Parser(Grammar.induce([fslc_transform(tree, cfg.fslc)]), punctuation_tags([tree]), np.zeros(1 << 10),
           cfg).save(tmp_path / "p")
    rc, out, err = _run(capsys, ["parse", "-m", str(tmp_path / "p"), "--tagged", "bark/VBP dogs/NN ./."])
    assert (rc, out) == (0, "(TOP (S (VBP bark) (NN dogs) (. .)))\n")
    assert err == "parsed 1 sentence; retried with a wider beam: 0; default structure: 1\n"
    assert _run(capsys, ["parse", "-j", "1", "A dog barked."])[2] == ""
    assert _run(capsys, ["parse", "-q", "-m", str(tmp_path / "p"), "--tagged", "bark/VBP dogs/NN ./."])[2] == ""


def test_tagger_evaluate_takes_a_pipeline_directory_as_tag_does(
    capsys: pytest.CaptureFixture[str], toy_trees: Path
) -> None:
    """A model directory holding tagger/ and parser/ was 'DIR/metadata.json: missing' for tagger evaluate."""
    from glmnlp.text.default_model import default_model_path

    pipeline = default_model_path()
    rc, by_pipeline, err = _run(capsys, ["tagger", "evaluate", "--model", str(pipeline), "--test", str(toy_trees)])
    assert rc == 0 and by_pipeline.startswith("tokens            "), err
    rc, by_tagger, _ = _run(capsys, ["tagger", "evaluate", "--model", str(pipeline / "tagger"),
                                     "--test", str(toy_trees)])
    assert rc == 0 and by_pipeline == by_tagger


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_parse_warns_of_an_over_long_sentence_at_its_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, jobs: str
) -> None:
    """The warning gave no place; it names the line the sentence starts on, inside a paragraph too."""
    source = tmp_path / "story.txt"
    long_sentence = "Then " + " ".join(["words"] * 160) + " ."
    source.write_text(f"A dog barked.\n\nIt ran.\n{long_sentence}\n\nA cat sat.\n" + "It sat.\n\n" * 3,
                      encoding="utf-8")
    rc, out, err = _run(capsys, ["parse", "-q", "-j", jobs, "--batch-size", "1", "-i", str(source)])
    assert rc == 0 and len(out.splitlines()) == 7
    assert f"warning: {source}:4: a sentence of 162 words (more than 150) gets a flat tree without parsing\n" in err


def test_train_default_help_shows_the_recipe_defaults() -> None:
    """--help said the default weights were 'the recipe's 5,10,20' while the recipe's are (10.0,); the help now
    reads the recipe's values."""
    import click

    from glmnlp.cli import cli
    from glmnlp.text.default_recipe import DefaultRecipe

    recipe = DefaultRecipe()
    ctx = click.Context(cli.commands["train-default"], info_name="train-default", terminal_width=1000)
    text = " ".join(cli.commands["train-default"].get_help(ctx).split())
    weights = ",".join(f"{w:g}" for w in recipe.generative_weights)
    assert f"0 = perceptron parser only (default: the recipe's {weights})." in text
    assert f"Parser passes (default: the recipe's {recipe.parser_epochs})." in text
    assert "5,10,20" not in text


@pytest.mark.parametrize("args", [["--epochs", "0"], ["--feature-bits", "15"], ["--feature-bits", "big"]])
def test_parser_train_bad_option_values_are_usage_errors(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, toy_trees: Path, args: list[str]
) -> None:
    """Bad option values are usage errors (status 2), as docs/cli.md says; these two exited 1."""
    rc, out, err = _run(capsys, ["parser", "train", "--train", str(toy_trees), "--dev", str(toy_trees),
                                 "--out", str(tmp_path / "m"), *args])
    assert (rc, out) == (2, "") and "Invalid value for" in err and not (tmp_path / "m").exists()


def test_parse_tagger_takes_a_pipeline_directory_as_tag_does(capsys: pytest.CaptureFixture[str]) -> None:
    """``parse --tagger DIR`` with a pipeline model (tagger/ and parser/) was 'DIR/metadata.json: missing (not a
    glmnlp model directory)'; ``tag -m`` and ``tagger evaluate -m`` took it. Now all three take its tagger/."""
    from glmnlp.text.default_model import default_model_path

    pipeline = default_model_path()
    rc, by_pipeline, err = _run(capsys, ["parse", "-q", "-j", "1", "--tagger", str(pipeline), "The dog barked."])
    assert rc == 0, err
    rc, by_tagger, _ = _run(capsys, ["parse", "-q", "-j", "1", "--tagger", str(pipeline / "tagger"),
                                     "The dog barked."])
    assert rc == 0 and by_pipeline == by_tagger and by_pipeline.startswith("(TOP")


def test_generative_training_prints_a_line_per_dev_beam_as_the_docs_say(
    capsys: pytest.CaptureFixture[str], toy_trees: Path, tmp_path: Path
) -> None:
    """docs/cli.md: progress is "a line per pass and per dev beam"; ``--kind generative`` printed none of its beam
    grid (8 points), only the choice."""
    import re

    argv = ["parser", "train", "--kind", "generative", "--train", str(toy_trees), "--dev", str(toy_trees),
            "--out", str(tmp_path / "m"), "-j", "1"]
    rc, _, err = _run(capsys, argv)
    assert rc == 0, err
    row = re.compile(r"beam gamma=\S+ cap=\d+: dev F1 [\d.]+, \d+ sentences/s")
    beams = [line for line in err.splitlines() if row.fullmatch(line)]
    assert len(beams) == 8
    rc, _, err = _run(capsys, [*argv, "--force", "-q"])
    assert rc == 0 and "beam gamma=" not in err


def test_python_m_glmnlp_runs_the_command_line() -> None:
    """``python -m glmnlp`` failed (no ``glmnlp.__main__``): a virtual environment used without activating it had no
    way to the command line but the script's path."""
    import subprocess
    import sys

    run = subprocess.run([sys.executable, "-m", "glmnlp", "--version"], capture_output=True, text=True, timeout=120)
    assert run.returncode == 0 and run.stdout.startswith("glmnlp, version "), run.stderr


@pytest.mark.parametrize("delay", [0.15, 0.3])
def test_ctrl_c_while_the_command_starts_is_aborted_not_a_traceback(delay: float) -> None:
    """A Ctrl-C in the first few tenths of a second (the command's modules loading) printed the traceback of the
    import (docs/cli.md: Ctrl-C ends any command with ``Aborted.`` and nothing else). ``import glmnlp`` now loads
    the names it offers when first used, and the script's entry point (``glmnlp.__main__:run``) imports the command
    line inside its Ctrl-C handling."""
    import signal
    import subprocess
    import sys
    import time

    entry = ("import signal, sys; signal.signal(signal.SIGINT, signal.default_int_handler)\n"
             "from glmnlp.__main__ import run\nsys.exit(run())")  # what pip's script does, SIGINT at its default
    proc = subprocess.Popen([sys.executable, "-c", entry, "parse", "A dog barked."], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    time.sleep(delay)
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=120)
    if proc.returncode == 0:
        pytest.skip("the command ended before the signal")
    assert (proc.returncode, err) == (-signal.SIGINT, "Aborted.\n") or "Traceback" not in err and (
        err.endswith("Aborted.\n")), (proc.returncode, err)


def test_import_glmnlp_loads_only_what_is_used() -> None:
    """``import glmnlp`` imported numpy, both models and the tokenizer (0.3 s); the names load when first used."""
    import subprocess
    import sys

    code = ("import sys, glmnlp; heavy = [m for m in ('numpy', 'glmnlp.parser.model', 'nltk') if m in sys.modules]\n"
            "assert not heavy, heavy\nassert glmnlp.parse_tree('(S (NN x))').leaves() == ['x']\n"
            "assert 'glmnlp.parser.model' not in sys.modules and callable(glmnlp.load)")
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
