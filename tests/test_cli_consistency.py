"""CLI consistency: an option that has no effect is refused like the others, every error names its file,
the same things are spelled and answered the same way in every command.

Run in-process through :func:`glmnlp.cli.main`; nothing here trains more than a few toy trees.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from glmnlp.cli import main
from toy_trees import TINY


def _run(capsys: pytest.CaptureFixture[str], argv: list[str]) -> tuple[int, str, str]:
    capsys.readouterr()
    rc = main(argv)
    out, err = capsys.readouterr()
    return rc, out, err


@pytest.fixture
def toy_trees(tmp_path: Path) -> Path:
    path = tmp_path / "toy.trees"
    path.write_text("\n".join(TINY * 2) + "\n", encoding="utf-8")  # 12: deleted estimation needs 10
    return path


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


# -- every error names its file ------------------------------------------------------------------------------


@pytest.mark.parametrize(("command", "which", "reason"), [
    # an empty training file was 'error: no training sentences'; an empty dev file was silently no dev
    (["tagger", "train", "-j", "1"], "--train", "empty input: no tagged sentence to train on"),
    (["tagger", "train", "-j", "1"], "--dev", "empty input: no tagged sentence to choose the epoch on"),
    # it was '<input>: no trees in the training files'
    (["grammar", "table1"], "--train", "no trees in this file"),
    (["grammar", "table1"], "--heldout", "no trees in this file"),
])
def test_an_input_file_without_data_is_named(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, toy_trees: Path, command: list[str], which: str, reason: str
) -> None:
    """A training, dev or held-out file with nothing in it is an error naming that file; nothing is written."""
    empty = tmp_path / "empty.trees"
    empty.write_text("\n", encoding="utf-8")
    inputs = ("--train", "--dev") if command[0] == "tagger" else ("--train", "--heldout")
    args = [*command] + [x for option in inputs for x in (option, str(empty if option == which else toy_trees))]
    if command[0] == "tagger":
        args += ["--out", str(tmp_path / "m")]
    rc, out, err = _run(capsys, args)
    assert (rc, out, err) == (1, "", f"error: {empty}: {reason}\n")
    assert not (tmp_path / "m").exists()


def test_grammar_table1_gives_the_line_of_a_tree_it_cannot_clean(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, toy_trees: Path
) -> None:
    bad = tmp_path / "bad.trees"
    bad.write_text(TINY[0] + "\n\n(TOP (-NONE- *))\n", encoding="utf-8")
    rc, _, err = _run(capsys, ["grammar", "table1", "--train", str(bad), "--heldout", str(toy_trees)])
    assert (rc, err) == (1, f"error: {bad}:3: tree 2: tree 'TOP' contains only empty (-NONE-) elements\n")


def _not_utf8(path: Path) -> str:
    path.write_bytes((TINY[0] + "\n").encode() + b"(TOP (S (NP (NN caf\xe9)) (VP (VBD sat))))\n")
    return f"error: {path}:2: not valid UTF-8 text (byte 0xe9 at column 20)\n"


@pytest.mark.parametrize("command", ["evalb", "evalb-gold", "grammar", "parser train", "tagger train"])
def test_a_file_that_is_not_utf8_is_refused_at_its_line_and_column(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, toy_trees: Path, command: str
) -> None:
    """Every command that reads whole files says where the bad byte is, in the words of glmnlp parse."""
    bad = tmp_path / "latin1.trees"
    expected = _not_utf8(bad)
    argv = {
        "evalb": ["evalb", str(toy_trees), str(bad)],
        "evalb-gold": ["evalb", str(bad), str(toy_trees)],
        "grammar": ["grammar", "table1", "--train", str(bad), "--heldout", str(toy_trees)],
        "parser train": ["parser", "train", "--train", str(bad), "--dev", str(toy_trees), "--out", str(tmp_path / "m")],
        "tagger train": ["tagger", "train", "--train", str(bad), "--out", str(tmp_path / "m")],
    }[command]
    rc, out, err = _run(capsys, argv)
    assert (rc, out, err) == (1, "", expected)


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


@pytest.mark.parametrize("argv", [
    ["parse", "--model", "", "A dog."],
    ["parse", "--tagger", "", "A dog."],
    ["parse", "-f", "svg", "--out-dir", "", "A dog."],
    ["tag", "--model", ""],
    ["tagger", "evaluate", "--model", "", "--test", "TREES"],
    ["tagger", "train", "--train", "TREES", "--out", ""],
    ["parser", "train", "--train", "TREES", "--dev", "TREES", "--out", ""],
    ["train-default", "--out", ""],
    ["measures", "--model", "", "A dog."],
    ["parse", "-i", ""],
    ["measures", "-i", ""],
    ["tagger", "train", "--train", "", "--out", "OUT"],
    ["tagger", "train", "--train", "TREES", "--dev", "", "--out", "OUT"],
    ["tagger", "evaluate", "--model", "M", "--test", ""],
    ["evalb", "", ""],
    ["data", "--out", "", "--split", "dev"],
    ["data", "--clean", "TREES", "--out", ""],
    ["measures", "--plot", "", "A dog."],
], ids=lambda argv: " ".join(a or "''" for a in argv[:4]))
def test_an_empty_model_or_output_path_is_a_usage_error(
    capsys: pytest.CaptureFixture[str], toy_trees: Path, tmp_path: Path, argv: list[str]
) -> None:
    """--model '' was reported as '.' (the current directory) or as 'metadata.json: missing'; an empty input file
    name was ': cannot open' or '.: Is a directory' (an empty --dev was no dev: a model was trained)."""
    argv = [{"TREES": str(toy_trees), "OUT": str(tmp_path / "m")}.get(a, a) for a in argv]
    rc, out, err = _run(capsys, argv)
    assert (rc, out) == (2, "") and err.endswith("': the path is empty\n"), err
    assert not (tmp_path / "m").exists()


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


# -- input files that cannot be read, output folders where a file is ------------------------------------------


_INPUTS = [
    ["parse", "-i", "IN"],
    ["measures", "-i", "IN"],
    ["measures", "--word-classes", "IN", "A dog."],
    ["measures", "--word-class-rules", "IN", "A dog."],
    ["evalb", "IN", "TREES"],
    ["evalb", "TREES", "IN"],
    ["evalb", "-p", "IN", "TREES", "TREES"],
    ["grammar", "table1", "--train", "IN"],
    ["grammar", "table1", "--heldout", "IN"],
    ["parser", "train", "--train", "IN", "--dev", "TREES", "--out", "OUT"],
    ["parser", "train", "--train", "TREES", "--dev", "IN", "--out", "OUT"],
    ["tagger", "train", "--train", "IN", "--out", "OUT"],
    ["tagger", "train", "--train", "TREES", "--dev", "IN", "--out", "OUT"],
    ["tagger", "evaluate", "-m", "MODEL", "--test", "IN"],
    ["tag", "IN"],
    ["data", "--clean", "IN", "--out", "OUT"],
]


@pytest.mark.parametrize("case", ["missing", "folder", "unreadable"])
@pytest.mark.parametrize("argv", _INPUTS, ids=lambda argv: " ".join(argv[:4]))
def test_an_input_file_that_cannot_be_read_is_bad_input_in_every_command(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, toy_trees: Path, tmp_path: Path,
    argv: list[str], case: str,
) -> None:
    """A missing, unreadable or folder input was a usage error (status 2, click's words) in some commands and bad
    input (status 1) in others, each in its own words; now one line ``error: PATH: cannot read file: REASON``, status 1,
    in all, and nothing written."""
    import os

    from glmnlp.text.default_model import default_model_path

    path = tmp_path / "input.txt"
    reason = {"missing": "No such file or directory", "folder": "Is a directory", "unreadable": "Permission denied"}
    if case == "folder":
        path.mkdir()
    elif case == "unreadable":  # permission bits do not bind root: the check asks os.access, made to say no
        path.write_text("(TOP (S (NN a)))\n", encoding="utf-8")
        real = os.access
        monkeypatch.setattr(os, "access", lambda p, mode, **kw: False if Path(p) == path else real(p, mode, **kw))
    names = {"IN": str(path), "TREES": str(toy_trees), "OUT": str(tmp_path / "out"),
             "MODEL": str(default_model_path() / "tagger")}
    rc, out, err = _run(capsys, [names.get(a, a) for a in argv])
    assert (rc, out, err) == (1, "", f"error: {path}: cannot read file: {reason[case]}\n")
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("argv", [
    ["parse", "-f", "svg", "--out-dir", "FILE", "A dog."],
    ["parser", "train", "--train", "TREES", "--dev", "TREES", "--out", "FILE"],
    ["tagger", "train", "--train", "TREES", "--out", "FILE"],
    ["train-default", "--out", "FILE"],
], ids=lambda argv: " ".join(argv[:2]))
def test_a_file_where_an_output_folder_goes_is_one_line_in_every_command(
    capsys: pytest.CaptureFixture[str], toy_trees: Path, tmp_path: Path, argv: list[str]
) -> None:
    """``parse --out-dir``, ``parser train --out`` and ``train-default --out`` naming a file were click's usage error
    (status 2, ``Directory 'afile' is a file.``), ``tagger train --out`` one line with status 1, as the docs say of
    all; now all are the one line, and the file is left as it was."""
    target = tmp_path / "afile"
    target.write_text("mine", encoding="utf-8")
    rc, out, err = _run(capsys, [{"FILE": str(target), "TREES": str(toy_trees)}.get(a, a) for a in argv])
    assert (rc, out) == (1, "") and err.startswith(f"error: {target}: exists and is not a directory"), err
    assert target.read_text(encoding="utf-8") == "mine"


@pytest.mark.parametrize(("argv", "message"), [
    (["measures", "-m", "MISSING", "A dog."], "MISSING: model directory not found"),
    (["measures", "-m", "FILE", "A dog."], "FILE: is a file, not a model directory"),
    (["data", "--out", "OUT", "--gum", "MISSING"], "MISSING: not a folder"),
    (["train-default", "--out", "OUT", "--gum", "FILE"], "FILE: not a folder"),
], ids=lambda value: " ".join(value[:4]) if isinstance(value, list) else "")
def test_a_missing_model_or_data_folder_is_one_line_in_every_command(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, argv: list[str], message: str
) -> None:
    """``measures -m`` and ``--gum`` of ``data`` and ``train-default`` were click's usage errors (status 2) for a
    folder that is missing or a file; ``parse -m`` and ``tag -m`` said it in one line with status 1, now all do."""
    (tmp_path / "afile").write_text("mine", encoding="utf-8")
    names = {"MISSING": str(tmp_path / "nothing"), "FILE": str(tmp_path / "afile"), "OUT": str(tmp_path / "out")}
    rc, out, err = _run(capsys, [names.get(a, a) for a in argv])
    expected = message.replace("MISSING", names["MISSING"]).replace("FILE", names["FILE"])
    assert (rc, out, err) == (1, "", f"error: {expected}\n")
    assert not (tmp_path / "out").exists()


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


@pytest.mark.parametrize("argv", [["parse", "-q", "-j", "1", "--tokenized", "-i", "-"],
                                  ["measures", "--tokenized", "-i", "-"], ["tag", "-"]], ids=lambda argv: argv[0])
def test_dash_reads_stdin_wherever_a_file_is_read(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, argv: list[str]
) -> None:
    """``measures -i -`` became 'cannot read file' when input files were checked as files; '-' is stdin."""
    import io
    import sys

    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"a dog barked .\n"), encoding="utf-8"))
    rc, out, err = _run(capsys, argv)
    assert rc == 0 and "dog" in out, err


def test_tagger_train_refuses_stdin_for_both_train_and_dev(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """``--train - --dev -`` trained on stdin and then found it empty for dev ('cannot tell the format of an empty
    input'); a usage error now, before anything is read."""
    rc, out, err = _run(capsys, ["tagger", "train", "--train", "-", "--dev", "-", "--out", str(tmp_path / "m")])
    assert (rc, out) == (2, "") and "--train and --dev cannot both be '-': stdin is read once" in err
    assert not (tmp_path / "m").exists()


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


@pytest.mark.parametrize("command", ["parse", "measures"])
def test_a_lone_dash_text_is_a_usage_error(command: str, capsys: pytest.CaptureFixture[str]) -> None:
    """``echo ... | glmnlp parse -`` parsed the text "-" (``(TOP (NP (: -)))``, status 0) and left stdin unread, where
    ``glmnlp tag -`` reads stdin; here stdin is ``-i -``."""
    rc, out, err = _run(capsys, [command, "-"])
    assert (rc, out) == (2, "") and "'-' is not read as standard input here: give -i - (or no TEXT)" in err
