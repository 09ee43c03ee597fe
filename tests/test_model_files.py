"""Damaged model metadata is refused before anything is allocated from it, with one line naming the
file; a symbolic-link loop is reported as such (not as "not found")."""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from glmnlp.cli import main
from glmnlp.errors import ModelFileError
from glmnlp.treebank.trees import parse_tree
from model_fakes import tiny_parser_model, write_header


def _edit(path: Path, change: Callable[[dict[str, Any]], None]) -> None:
    header = json.loads((path / "metadata.json").read_text())
    change(header["metadata"])
    write_header(path / "metadata.json", header)


CASES: dict[str, Callable[[dict[str, Any]], None]] = {
    "n_bits 40 (8 TiB table)": lambda m: m["config"].__setitem__("n_bits", 40),
    "n_bits -1": lambda m: m["config"].__setitem__("n_bits", -1),
    "n_bits true": lambda m: m["config"].__setitem__("n_bits", True),
    "gamma text": lambda m: m["config"].__setitem__("gamma", "wide"),
    "gamma nan": lambda m: m["config"].__setitem__("gamma", float("nan")),
    "negative cap": lambda m: m["config"].__setitem__("beam_cap", -5),
    "grammar not a grammar": lambda m: m.__setitem__("grammar", {"categories": 5}),
    "grammar id out of range": lambda m: m["grammar"].__setitem__("triples", [[1, 2, 99999]]),
    "chain id out of range": lambda m: m.__setitem__("extra_chains", [[99999]]),
    "punct tags not a list": lambda m: m.__setitem__("punct_tags", 5),
    "history a number": lambda m: m.__setitem__("history", 0),
    "history of numbers": lambda m: m.__setitem__("history", [1, 2]),
    "n_bits 11, table of 2**10": lambda m: m["config"].__setitem__("n_bits", 11),
    "table size 7": lambda m: m["weight_storage"].__setitem__("table_size", 7),
    "weight_storage a string": lambda m: m.__setitem__("weight_storage", "sparse"),  # was an AttributeError
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_model_files_bad_parser_metadata_is_one_error_naming_the_file(tmp_path: Path, case: str) -> None:
    from glmnlp.parser.model import Parser

    model = tiny_parser_model(tmp_path / "m")
    _edit(model, CASES[case])
    with pytest.raises(ModelFileError) as info:
        Parser.load(model)
    message = str(info.value)
    assert message.startswith(f"{model / 'metadata.json'}: ") and "\n" not in message


def test_model_files_cli_reports_n_bits_40_in_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    model = tiny_parser_model(tmp_path / "m")
    _edit(model, CASES["n_bits 40 (8 TiB table)"])
    capsys.readouterr()
    assert main(["parse", "-m", str(model), "--tagged", "dogs/NNS bark/VBP"]) == 1
    err = capsys.readouterr().err
    assert err == f"error: {model / 'metadata.json'}: not a valid parser model: config n_bits must be an integer in [1, 28], got 40\n"


def test_model_files_parse_jobs_2_reports_a_damaged_model_from_its_workers(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """With --jobs 2 the main process only checks the files (checksums), and a worker builds the model: a
    metadata field out of range is still one clean error line, exit 1, and no tree is written."""
    import glmnlp.text.pipeline as pipeline_module

    built: list[str] = []
    build = pipeline_module.Pipeline._built

    def spy(self: Any, name: str) -> Any:
        if isinstance(self._components[name], pipeline_module.Deferred):
            built.append(name)
        return build(self, name)

    monkeypatch.setattr(pipeline_module.Pipeline, "_built", spy)
    model = tiny_parser_model(tmp_path / "m")
    _edit(model, CASES["n_bits 40 (8 TiB table)"])
    source = tmp_path / "in.txt"
    source.write_text("".join("dog/NN bark/VBP\n" for _ in range(5)), encoding="utf-8")
    capsys.readouterr()
    assert main(["parse", "-m", str(model), "--tagged", "-i", str(source), "--jobs", "2", "--batch-size", "2"]) == 1
    out, err = capsys.readouterr()
    assert out == "" and built == []  # the error came from a worker
    assert err == f"error: {model / 'metadata.json'}: not a valid parser model: config n_bits must be an integer in [1, 28], got 40\n"


def test_model_files_symlink_loop_and_dangling_link_are_not_not_found(tmp_path: Path) -> None:
    import glmnlp
    from glmnlp.parser.model import Parser

    os.symlink(tmp_path / "b", tmp_path / "a")
    os.symlink(tmp_path / "a", tmp_path / "b")
    os.symlink(tmp_path / "gone", tmp_path / "dangling")
    for load in (Parser.load, glmnlp.load):
        with pytest.raises(ModelFileError, match="Too many levels of symbolic links"):
            load(tmp_path / "a")
        with pytest.raises(ModelFileError, match="symbolic link to nothing"):
            load(tmp_path / "dangling")
    (tmp_path / "file").write_text("x")
    with pytest.raises(ModelFileError, match="is a file, not a model directory"):
        Parser.load(tmp_path / "file")


def test_model_files_describe_agrees_with_the_built_model_and_refuses_a_flipped_byte(tmp_path: Path) -> None:
    """A deferred pipeline answers from Parser.describe / Tagger.describe: their facts must be what the built
    models say, and a damaged weights archive must be refused there, before anything is built."""
    import shutil

    from glmnlp.parser.model import Parser
    from glmnlp.tagger.model import Tagger
    from glmnlp.text.default_model import default_model_path

    root = default_model_path()
    built = Parser.load(root / "parser")
    facts = Parser.describe(root / "parser")
    assert facts == {"generative": built.generative is not None, "parse_nbest": True,
                     "pos_tags": frozenset(built.grammar.pos_tags)}
    assert Tagger.describe(root / "tagger") == {"multitag": True}
    shutil.copytree(root, tmp_path / "m")
    weights = tmp_path / "m" / "parser" / "generative" / "weights.npz"
    data = bytearray(weights.read_bytes())
    data[len(data) // 2] ^= 1
    weights.write_bytes(bytes(data))
    with pytest.raises(ModelFileError, match="checksum mismatch"):
        Parser.describe(tmp_path / "m" / "parser")


def _slash_parser_model(path: Path) -> Path:
    """A parser whose grammar has slash categories (NP -> NP PP is left-recursive: NP/NP after NP)."""
    from glmnlp.parser.grammar import Grammar
    from glmnlp.parser.model import Parser, ParserConfig, punctuation_tags
    from glmnlp.parser.transform import fslc_transform

    tree = parse_tree("(TOP (S (NP (NP (NNS dogs)) (PP (IN of) (NP (NN war)))) (VP (VBP bark)) (. .)))")
    cfg = ParserConfig(n_bits=10)
    grammar = Grammar.induce([fslc_transform(tree, cfg.fslc)])
    assert any(slash is not None for _, slash in grammar.categories)
    Parser(grammar, punctuation_tags([tree]), np.zeros(1 << 10), cfg).save(path)
    return path


def test_model_files_grammar_breaking_the_slash_rule_is_refused_at_load(tmp_path: Path) -> None:
    """A slash category whose slash was changed (NP/NP -> NP/NN) loaded and then failed on the first
    parse with the inverse transform's error; it is refused at load, naming the rule."""
    from glmnlp.parser.model import Parser

    model = _slash_parser_model(tmp_path / "m")
    assert Parser.load(model).parse(["dogs", "of", "war", "bark", "."], ["NNS", "IN", "NN", "VBP", "."]) is not None

    def damage(m: dict[str, Any]) -> None:
        cats = m["grammar"]["categories"]
        k = next(i for i, (_, slash) in enumerate(cats) if slash is not None)
        cats[k][1] = "NN"

    _edit(model, damage)
    with pytest.raises(ModelFileError, match="slash-category rule") as info:
        Parser.load(model)
    assert str(info.value).startswith(f"{model / 'metadata.json'}: ")


def test_model_files_slash_rule_names_each_kind_of_break() -> None:
    """Each way a grammar can break the rule is found; a grammar induced from transformed trees has none."""
    from glmnlp.parser.grammar import Grammar
    from glmnlp.parser.transform import FslcConfig, fslc_transform

    tree = parse_tree("(TOP (S (NP (NP (NNS dogs)) (PP (IN of) (NP (NN war)))) (VP (VBP bark)) (. .)))")
    grammar = Grammar.induce([fslc_transform(tree, FslcConfig())])
    assert grammar.slash_rule_violation() is None
    cats = list(grammar.categories)
    slash = next(i for i, (_, s) in enumerate(cats) if s is not None)
    plain = next(i for i, (_, s) in enumerate(cats) if s is None and i > 2)
    x, y, _ = next(t for t in sorted(grammar.triples) if t[2] == slash)

    def variant(categories: list[Any], chains: dict[str, Any], triples: set[tuple[int, int, int]]) -> Grammar:
        return Grammar(categories, list(grammar.pos_tags), chains, dict(grammar.first_chains), triples)

    renamed = list(cats)
    renamed[slash] = (cats[slash][0], "NN")
    assert "expected" in (variant(renamed, dict(grammar.chains), {(x, y, slash)}).slash_rule_violation() or "")
    after = variant(cats, dict(grammar.chains), {(x, slash, plain)})
    assert "after the slash child" in (after.slash_rule_violation() or "")
    tag = sorted(grammar.chains)[0]
    low = variant(cats, {tag: [(2, slash, plain)]}, set())
    assert "below its top" in (low.slash_rule_violation() or "")


@pytest.mark.parametrize("deferred", [False, True])
def test_model_files_pipeline_refuses_a_file_changed_after_model_json(tmp_path: Path, deferred: bool) -> None:
    """MODEL.json records the sha256 of every file of a pipeline; a sub-model's metadata.json is not covered by
    its weights' checksum, so a changed one (here only its whitespace) would otherwise load silently."""
    import shutil

    import glmnlp
    from glmnlp.text.default_model import default_model_path

    shutil.copytree(default_model_path(), tmp_path / "m")
    meta = tmp_path / "m" / "parser" / "metadata.json"
    meta.write_text(meta.read_text() + " ")
    with pytest.raises(ModelFileError) as info:
        glmnlp.load(tmp_path / "m", deferred=deferred)
    assert str(info.value).startswith(f"{meta}: ") and "MODEL.json" in str(info.value)
    assert glmnlp.load(tmp_path / "m", parser=False, deferred=deferred).has_tagger  # the tagger's files are intact


def test_model_files_every_command_checks_a_pipelines_sub_model_against_model_json(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``tag -m``, ``tagger evaluate -m``, ``parse --tagger`` and ``measures -m`` loaded a pipeline's sub-model without
    its MODEL.json checksums (only ``glmnlp.load`` checked them): a tagger whose tag list was reversed tagged
    ``A/VB dog/POS`` with status 0. Each now refuses it, named by the pipeline's folder or by the sub-model's own."""
    import shutil

    from glmnlp.text.default_model import default_model_path

    root = tmp_path / "m"
    shutil.copytree(default_model_path(), root)
    (tmp_path / "t.wt").write_text("A/DT dog/NN barked/VBD ./.\n")
    header = json.loads((root / "tagger" / "metadata.json").read_text())
    header["metadata"]["tags"] = header["metadata"]["tags"][::-1]
    (root / "tagger" / "metadata.json").write_text(json.dumps(header))
    tagger_meta = root / "tagger" / "metadata.json"
    for argv in (["tag", "-m", str(root), str(tmp_path / "t.wt"), "--input-format", "word_tag"],
                 ["tag", "-m", str(root / "tagger"), str(tmp_path / "t.wt"), "--input-format", "word_tag"],
                 ["tagger", "evaluate", "-m", str(root), "--test", str(tmp_path / "t.wt")],
                 ["parse", "--tagger", str(root / "tagger"), "A dog barked."]):
        capsys.readouterr()
        assert main(argv) == 1, argv
        out, err = capsys.readouterr()
        assert out == "" and err.startswith(f"error: {tagger_meta}: changed since {root / 'MODEL.json'}"), argv
    generative = root / "parser" / "generative" / "metadata.json"
    generative.write_text(generative.read_text() + " ")
    capsys.readouterr()
    assert main(["measures", "-m", str(root), "A dog barked."]) == 1
    assert capsys.readouterr().err.startswith(f"error: {generative}: changed since")


@pytest.mark.parametrize("name", ["tagger/../../outside.bin", "/dev/zero", "tagger/dev", "tagger/a\x00b",
                                  "tagger/" + "a" * 300])
def test_model_files_checksums_name_only_files_of_the_model(tmp_path: Path, name: str) -> None:
    """A MODEL.json checksum entry is a file of the model: one leaving the folder or naming a device (``/dev/zero``
    was read until memory ran out) is a ModelFileError naming MODEL.json, before anything is read from it; so is a
    name no file can have (a NUL byte, 300 characters), which was a traceback from the existence check."""
    import shutil

    import glmnlp
    from glmnlp.text.default_model import default_model_path

    root = tmp_path / "m"
    shutil.copytree(default_model_path(), root)
    (tmp_path / "outside.bin").write_bytes(b"x")
    if name == "tagger/dev":
        os.symlink("/dev/zero", root / "tagger" / "dev")
    if name == "/dev/zero":
        name = "tagger/" + os.path.relpath("/dev/zero", root / "tagger")
    description = json.loads((root / "MODEL.json").read_text())
    description["checksums"][name] = "0" * 64
    (root / "MODEL.json").write_text(json.dumps(description))
    with pytest.raises(ModelFileError, match=r"MODEL.json: checksums list .* which is not a file of this model"):
        glmnlp.load(root)


def test_model_files_tagger_evaluate_spells_brackets_as_tag_does(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``tagger evaluate`` scored EWT's ``(`` against a WSJ tagger as an unknown word (0% on this file), where
    ``glmnlp tag`` gives the tagger ``-LRB-``: both now spell brackets as the tagger saw them."""
    from glmnlp.text.default_model import default_model_path

    test = tmp_path / "br.wt"
    test.write_text("(/-LRB- hi/UH )/-RRB-\n")
    capsys.readouterr()
    assert main(["tagger", "evaluate", "-m", str(default_model_path()), "--test", str(test)]) == 0
    assert "accuracy          100.00%" in capsys.readouterr().out


GENERATIVE_CASES: dict[str, Callable[[dict[str, Any]], None]] = {
    "weight nan": lambda m: m.__setitem__("weight", float("nan")),
    "weight inf": lambda m: m.__setitem__("weight", float("inf")),
    "weight -10": lambda m: m.__setitem__("weight", -10),
    "weight text": lambda m: m.__setitem__("weight", "10"),
    "gamma nan": lambda m: m.__setitem__("gamma", float("nan")),
    "beam_cap -5": lambda m: m.__setitem__("beam_cap", -5),
    "beam_cap 1.5": lambda m: m.__setitem__("beam_cap", 1.5),
    "capitalised_pos a string": lambda m: m["lexicon"].__setitem__("capitalised_pos", "NNP"),
    "lexicon version true": lambda m: m["lexicon"].__setitem__("version", True),
}


@pytest.mark.parametrize("case", sorted(GENERATIVE_CASES))
def test_model_files_generative_term_fields_are_checked_at_load(tmp_path: Path, case: str) -> None:
    """The generative term's weight, beam and lexicon lists are checked when the model is read: a NaN, infinite or
    negative weight loaded and parsed nonsense, a NaN gamma or a cap of -5 failed later naming no file."""
    import shutil

    from glmnlp.parser.model import Parser
    from glmnlp.text.default_model import default_model_path

    shutil.copytree(default_model_path() / "parser", tmp_path / "p")
    _edit(tmp_path / "p" / "generative", GENERATIVE_CASES[case])
    with pytest.raises(ModelFileError, match="generative"):
        Parser.load(tmp_path / "p")


@pytest.mark.parametrize("version", [True, 1.0])
def test_model_files_format_version_is_an_integer(tmp_path: Path, version: object) -> None:
    """``"format_version": true`` or ``1.0`` compare equal to 1 and were read as version 1."""
    from glmnlp.parser.model import Parser

    model = tiny_parser_model(tmp_path / "m")
    header = json.loads((model / "metadata.json").read_text())
    header["format_version"] = version
    (model / "metadata.json").write_text(json.dumps(header))
    with pytest.raises(ModelFileError, match="format version"):
        Parser.load(model)


def test_model_files_weights_that_are_not_finite_numbers_are_refused(tmp_path: Path) -> None:
    """A parser or tagger whose weights hold NaN loaded and gave wrong trees and tags with status 0; a dense table
    of the wrong shape or of integers was taken (the message said its size was not itself)."""
    from glmnlp.glm.model_io import load_model, save_model
    from glmnlp.parser.model import Parser
    from glmnlp.tagger.model import Tagger, TaggerConfig
    from glmnlp.treebank.formats import TaggedSentence

    model = tiny_parser_model(tmp_path / "m")
    metadata, arrays = load_model(model, kind="glmnlp-parser")
    nan = dict(arrays, weight_value=np.full_like(arrays["weight_value"], np.nan))
    save_model(tmp_path / "nan", kind="glmnlp-parser", metadata=metadata, arrays=nan)
    with pytest.raises(ModelFileError, match="not finite"):
        Parser.load(tmp_path / "nan")
    size = 1 << 10
    for name, dense in (("column", np.zeros((size, 1))), ("int8", np.zeros(size, dtype=np.int8)),
                        ("nan", np.full(size, np.nan))):
        save_model(tmp_path / name, kind="glmnlp-parser", metadata=metadata, arrays={"weights": dense})
        with pytest.raises(ModelFileError, match="not finite" if name == "nan" else "must be float32 or float64"):
            Parser.load(tmp_path / name)
    sentences = [TaggedSentence(("the", "dog", "barks"), ("DT", "NN", "VBZ"))] * 3
    Tagger(TaggerConfig(epochs=1)).fit(sentences, show_progress=False, jobs=1).save(tmp_path / "t")
    kind = json.loads((tmp_path / "t" / "metadata.json").read_text())["kind"]
    metadata, arrays = load_model(tmp_path / "t", kind=kind)
    for name, change in (("nan", {"weight_values": np.full_like(arrays["weight_values"], np.nan)}),
                         ("atom", {"feature_keys": _with_atom(arrays["feature_keys"], 2 * 10**8)})):
        save_model(tmp_path / f"t_{name}", kind=kind, metadata=metadata, arrays=dict(arrays, **change))
        with pytest.raises(ModelFileError, match="must be finite|beyond the"):
            Tagger.load(tmp_path / f"t_{name}")


def _with_atom(keys: np.ndarray, value: int) -> np.ndarray:
    """``keys`` with one atom value replaced: the lookup table of its template is sized by the largest (1.6 GB for
    2 * 10**8 before it was checked against the string table)."""
    keys = keys.copy()
    keys[0, 1] = value
    return keys


def test_model_files_a_pipeline_folder_of_two_tagsets_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A pipeline folder put together by hand (no MODEL.json) with a tagger of another tagset parsed every sentence
    as a flat tree with status 0, where ``parse --tagger`` refused the same tagger; ``glmnlp.load`` and ``parse -m``
    now refuse it too."""
    import shutil

    import glmnlp
    from glmnlp.errors import ConfigError
    from glmnlp.tagger.model import Tagger, TaggerConfig
    from glmnlp.text.default_model import default_model_path
    from glmnlp.treebank.formats import TaggedSentence

    root = tmp_path / "m"
    shutil.copytree(default_model_path(), root)
    (root / "MODEL.json").unlink()
    shutil.rmtree(root / "tagger")
    upos = [TaggedSentence(("the", "dog", "barks"), ("DET", "NOUN", "VERB"))] * 3
    Tagger(TaggerConfig(epochs=1)).fit(upos, show_progress=False, jobs=1).save(root / "tagger")
    with pytest.raises(ConfigError, match="the parser does not know 3 of this tagger's 3 tags"):
        glmnlp.load(root)
    capsys.readouterr()
    assert main(["parse", "-m", str(root), "The dog barks."]) == 1
    assert "the parser does not know 3 of this tagger's 3 tags" in capsys.readouterr().err
    assert glmnlp.load(root, parser=False).has_tagger  # a tagger alone is fine
    shutil.rmtree(root / "tagger")
    mixed = [TaggedSentence(("the", "dog", "barks", "now"), ("DT", "NN", "VBZ", "ADV"))] * 3
    Tagger(TaggerConfig(epochs=1)).fit(mixed, show_progress=False, jobs=1).save(root / "tagger")
    import warnings

    with warnings.catch_warnings():  # a few unknown tags (a small model's rare ones) load without a word
        warnings.simplefilter("error")
        assert glmnlp.load(root).has_tagger


def test_model_files_a_loaded_parser_saved_again_is_the_same_files(tmp_path: Path) -> None:
    """``Parser.load(d).save(d2)`` writes the bytes of ``d``: the bundled (pruned, combined) parser and a small one
    with a training history. ``save`` dropped the loaded history (4 passes -> none) and wrote the pruning threshold
    as 0.0 (the bundled model's 1.0), so the model file was no longer the one its training wrote."""
    import filecmp

    from glmnlp.parser.model import Parser
    from glmnlp.text.default_model import default_model_path

    first = Parser.load(tiny_parser_model(tmp_path / "first"))
    first.save(tmp_path / "small", history=[{"epoch": 1, "dev_f1": 12.5}, {"best_epoch": 1}], prune=0.5)
    small = tmp_path / "small"
    assert json.loads((small / "metadata.json").read_text())["metadata"]["history"][1] == {"best_epoch": 1}
    bundled = default_model_path() / "parser"
    assert json.loads((bundled / "metadata.json").read_text())["metadata"]["weight_storage"]["prune"] > 0
    for source in (small, bundled):
        again = tmp_path / f"again_{source.name}"
        Parser.load(source).save(again)
        names = sorted(p.relative_to(source).as_posix() for p in source.rglob("*") if p.is_file())
        assert names == sorted(p.relative_to(again).as_posix() for p in again.rglob("*") if p.is_file())
        for name in names:
            assert filecmp.cmp(source / name, again / name, shallow=False), (source, name)


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="POSIX devices")
def test_model_files_a_device_or_pipe_in_a_models_place_is_refused(tmp_path: Path) -> None:
    """A model folder from elsewhere with ``weights.npz`` or ``metadata.json`` a link to /dev/zero was read until
    memory ran out; a FIFO there waited for ever: refused, naming the file, before anything is read."""
    import subprocess
    import sys

    from glmnlp.parser.model import Parser

    for name in ("weights.npz", "metadata.json"):
        model = tiny_parser_model(tmp_path / f"zero_{name}")
        (model / name).unlink()
        (model / name).symlink_to("/dev/zero")
        with pytest.raises(ModelFileError, match=f"{name}: not a regular file"):
            Parser.load(model)
    model = tiny_parser_model(tmp_path / "fifo")
    (model / "metadata.json").unlink()
    os.mkfifo(model / "metadata.json")
    code = f"from glmnlp.parser.model import Parser\ntry:\n    Parser.load({str(model)!r})\nexcept Exception as e:\n    print(e)"
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert "metadata.json: not a regular file" in run.stdout, run
    # nor when a model is saved over that folder: the check of what the folder holds read the FIFO, for ever
    code = ("import numpy as np\nfrom glmnlp.glm.model_io import save_model\ntry:\n"
            f"    save_model({str(model)!r}, kind='toy', metadata={{}}, arrays={{'w': np.zeros(2)}})\n"
            "except Exception as e:\n    print(e)")
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert "is not a glmnlp model" in run.stdout, run


@pytest.mark.parametrize("text", ["[" * 100_000 + "]" * 100_000, '{"n": ' + "9" * 5000 + "}",
                                  "SEALED975", "SEALED65"])
def test_model_files_json_too_deep_or_an_integer_too_long_is_a_model_file_error(tmp_path: Path, text: str) -> None:
    """Deeply nested JSON or a 5,000-digit integer in ``metadata.json`` or ``MODEL.json`` was a RecursionError or a
    ValueError traceback; JSON nested just within what Python reads (975 levels) was read, then written again for
    the seal's check deeper in the stack, and failed there: no model's JSON nests more than 64 levels."""
    from glmnlp.parser.model import Parser
    from glmnlp.text.checksums import read_description

    model = tiny_parser_model(tmp_path / "m")
    if text.startswith("SEALED"):  # the model's own sealed header with one field nested that deep
        depth = int(text[6:])
        text = (model / "metadata.json").read_text().replace("{", '{"x": ' + "[" * depth + "]" * depth + ", ", 1)
    (model / "metadata.json").write_text(text)
    with pytest.raises(ModelFileError, match="metadata.json: not a model's JSON"):
        Parser.load(model)
    (tmp_path / "MODEL.json").write_text(text)
    with pytest.raises(ModelFileError, match="MODEL.json: not a model's JSON"):
        read_description(tmp_path / "MODEL.json")


def test_model_files_well_sealed_values_that_would_fail_later_are_refused_at_load(tmp_path: Path) -> None:
    """Sealed files from elsewhere (the seals are recomputed by whoever writes them) with values that loaded and then
    failed: a tagger's ``n_rows`` of 1e400 (an OverflowError traceback), a tag dictionary row allowing no tag (tagging
    the word failed: 'no candidate tag'), a grammar chain of 5,000 categories (a RecursionError at the first parse)."""
    from glmnlp.glm.model_io import load_model, save_model
    from glmnlp.parser.model import Parser
    from glmnlp.tagger.model import Tagger, TaggerConfig
    from glmnlp.treebank.formats import TaggedSentence

    sentences = [TaggedSentence(("the", "dog", "barks"), ("DT", "NN", "VBZ"))] * 60
    Tagger(TaggerConfig(epochs=1, tagdict_min_count=5)).fit(sentences, show_progress=False, jobs=1).save(tmp_path / "t")
    kind = json.loads((tmp_path / "t" / "metadata.json").read_text())["kind"]
    metadata, arrays = load_model(tmp_path / "t", kind=kind)
    assert arrays["tagdict_masks"].any(axis=1).all() and len(arrays["tagdict_masks"])
    save_model(tmp_path / "zero", kind=kind, metadata=metadata,
               arrays=dict(arrays, tagdict_masks=np.zeros_like(arrays["tagdict_masks"])))
    with pytest.raises(ModelFileError, match="a tag dictionary row allows no tag"):
        Tagger.load(tmp_path / "zero")
    # masks of another type: 256 as int16 and 0.5 as a float passed the row check and became 0 in the uint8 table
    for name, masks in (("wide", arrays["tagdict_masks"].astype(np.int16) * 256),
                        ("half", arrays["tagdict_masks"] * 0.5)):
        save_model(tmp_path / name, kind=kind, metadata=metadata, arrays=dict(arrays, tagdict_masks=masks))
        with pytest.raises(ModelFileError, match="tag dictionary masks must be 0/1 values"):
            Tagger.load(tmp_path / name)
    header = json.loads((tmp_path / "t" / "metadata.json").read_text())
    header["metadata"]["n_rows"] = float("inf")
    write_header(tmp_path / "t" / "metadata.json", header)
    with pytest.raises(ModelFileError, match="inconsistent tagger model"):
        Tagger.load(tmp_path / "t")
    model = tiny_parser_model(tmp_path / "p")
    header = json.loads((model / "metadata.json").read_text())
    grammar = header["metadata"]["grammar"]
    tag = next(iter(grammar["chains"]))
    grammar["chains"][tag].append([len(grammar["categories"]) - 1] * 5000)
    write_header(model / "metadata.json", header)
    with pytest.raises(ModelFileError, match="a grammar chain longer than 64"):
        Parser.load(model)


def test_model_files_generative_tables_that_are_not_finite_and_a_margin_too_large_are_refused(tmp_path: Path) -> None:
    """A generative table holding NaN parsed to nonsense trees and surprisals of NA with status 0; a MODEL.json
    multi-tag margin of 10**400 was an OverflowError traceback."""
    from glmnlp.glm.model_io import load_model
    from glmnlp.parser.term import GenerativeTerm
    from glmnlp.text.default_model import default_model_path
    from glmnlp.text.loading import recommended_margin

    folder = default_model_path() / "parser" / "generative"
    kind = json.loads((folder / "metadata.json").read_text())["kind"]
    metadata, arrays = load_model(folder, kind=kind)
    GenerativeTerm.from_parts(metadata, arrays)  # as shipped: loads
    bad = dict(arrays, pair_vals=np.where(np.arange(len(arrays["pair_vals"])) == 0, np.nan, arrays["pair_vals"]))
    with pytest.raises(ModelFileError, match="'pair_vals' holds values that are not finite"):
        GenerativeTerm.from_parts(metadata, bad)
    # finite values no trained model holds: 1e308 overflowed the same way (NA surprisals, status 0)
    for name, value in (("pair_vals", 1e308), ("hist_vals", 0.5), ("floor_logprob", 1.0), ("lambdas", 1.5)):
        wide = arrays[name].astype(np.float64)
        wide[0] = value
        with pytest.raises(ModelFileError, match=f"{name!r} holds values outside"):
            GenerativeTerm.from_parts(metadata, dict(arrays, **{name: wide}))
    (tmp_path / "MODEL.json").write_text('{"multitag_margin": ' + "1" + "0" * 400 + "}")
    with pytest.raises(ModelFileError, match="multitag_margin must be a number"):
        recommended_margin(tmp_path)


def test_model_files_a_generative_term_of_another_grammar_is_refused(tmp_path: Path) -> None:
    """A generative sub-model whose node model has another number of categories than the parser's grammar (2
    against 94) loaded and parsed ``(TOP (FRAG (DT A) (ADJP ...`` with surprisals of NA and status 0."""
    import shutil

    from glmnlp.glm.model_io import load_model, save_model
    from glmnlp.parser.model import Parser
    from glmnlp.text.default_model import default_model_path

    model = tmp_path / "p"
    shutil.copytree(default_model_path() / "parser", model)
    gen = model / "generative"
    kind = json.loads((gen / "metadata.json").read_text())["kind"]
    metadata, arrays = load_model(gen, kind=kind)
    metadata["generative"]["models"][0]["n_outcomes"] = 2
    save_model(tmp_path / "g", kind=kind, metadata=metadata, arrays=arrays)  # (a model's part is not replaced alone)
    shutil.rmtree(gen)
    shutil.move(tmp_path / "g", gen)
    header = json.loads((model / "metadata.json").read_text())
    header["submodel_sha256"]["generative"] = json.loads((gen / "metadata.json").read_text())["metadata_sha256"]
    write_header(model / "metadata.json", header)
    with pytest.raises(ModelFileError, match="node model size does not match the grammar's categories"):
        Parser.load(model)


