"""Model files: round trip, byte-for-byte determinism, atomic replacement and rejection of bad files."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from glmnlp.errors import ModelFileError
from glmnlp.glm.model_io import ModelParts, load_model, load_submodel, save_model
from glmnlp.glm.model_seals import header_digest

ARRAYS = {"w": np.arange(12, dtype=np.float64).reshape(3, 4), "ids": np.array([1, 5, 7], dtype=np.uint32)}
META = {"config": {"epochs": 3}, "tags": ["NN", "VB"], "averaged": True}


def _save(path: Path) -> None:
    save_model(path, kind="tagger", metadata=META, arrays=ARRAYS)


def test_model_io_round_trip(tmp_path: Path) -> None:
    """What is saved is loaded back: metadata, array values, shapes and dtypes."""
    _save(tmp_path / "m")
    meta, arrays = load_model(tmp_path / "m", kind="tagger")
    assert meta == META
    assert set(arrays) == set(ARRAYS)
    for name, value in ARRAYS.items():
        assert arrays[name].dtype == value.dtype
        np.testing.assert_array_equal(arrays[name], value)
    header = json.loads((tmp_path / "m" / "metadata.json").read_text())
    assert header["format"] == "glmnlp-model" and header["arrays"]["w"]["shape"] == [3, 4]


def test_model_io_is_byte_for_byte_deterministic(tmp_path: Path) -> None:
    """Saving the same model twice gives identical files (no timestamps in the zip or JSON)."""
    _save(tmp_path / "a")
    _save(tmp_path / "b")
    for name in ("metadata.json", "weights.npz"):
        assert (tmp_path / "a" / name).read_bytes() == (tmp_path / "b" / name).read_bytes()


def test_model_io_replaces_atomically_and_keeps_old_model_on_failure(tmp_path: Path) -> None:
    """A failed save leaves the previous model intact and no temporary directory behind."""
    _save(tmp_path / "m")
    with pytest.raises(ValueError):
        save_model(tmp_path / "m", kind="tagger", metadata=META, arrays={"bad": np.array([object()])})
    load_model(tmp_path / "m", kind="tagger")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["m"]
    save_model(tmp_path / "m", kind="tagger", metadata={"v": 2}, arrays={})
    assert load_model(tmp_path / "m", kind="tagger")[0] == {"v": 2}
    assert sorted(p.name for p in tmp_path.iterdir()) == ["m"]


def test_model_io_submodels(tmp_path: Path) -> None:
    """A model may carry named sub-models, each loadable and checked on its own."""
    sub = ModelParts(kind="tagger", metadata=META, arrays=ARRAYS)
    save_model(tmp_path / "p", kind="parser", metadata={"beam": 3}, arrays={}, submodels={"tagger": sub})
    meta, arrays = load_submodel(tmp_path / "p", "tagger", kind="tagger")
    assert meta == META
    np.testing.assert_array_equal(arrays["w"], ARRAYS["w"])
    with pytest.raises(ModelFileError, match="no sub-model"):
        load_submodel(tmp_path / "p", "lexicon", kind="tagger")


def _corrupt_cases() -> list[tuple[str, str]]:
    return [
        ("truncate_npz", "weights.npz"),
        ("flip_byte_npz", "weights.npz"),
        ("delete_npz", "weights.npz"),
        ("delete_meta", "metadata.json"),
        ("truncate_meta", "metadata.json"),
        ("foreign_meta", "metadata.json"),
        ("future_version", "metadata.json"),
        ("wrong_shape", "weights.npz"),
        ("foreign_npz", "weights.npz"),
    ]


@pytest.mark.parametrize(("case", "culprit"), _corrupt_cases())
def test_model_io_rejects_corrupt_files(tmp_path: Path, case: str, culprit: str) -> None:
    """Every kind of damage raises ModelFileError naming the damaged file."""
    model = tmp_path / "m"
    _save(model)
    npz, meta = model / "weights.npz", model / "metadata.json"
    if case == "truncate_npz":
        npz.write_bytes(npz.read_bytes()[:-40])
    elif case == "flip_byte_npz":
        data = bytearray(npz.read_bytes())
        data[len(data) // 2] ^= 0xFF
        npz.write_bytes(bytes(data))
    elif case == "delete_npz":
        npz.unlink()
    elif case == "delete_meta":
        meta.unlink()
    elif case == "truncate_meta":
        meta.write_text(meta.read_text()[:30])
    elif case == "foreign_meta":
        meta.write_text(json.dumps({"name": "some other tool", "version": 1}))
    elif case == "future_version":
        header = json.loads(meta.read_text())
        header["format_version"] = 99
        meta.write_text(json.dumps(header))
    elif case in ("wrong_shape", "foreign_npz"):
        # a consistent checksum but arrays that disagree with the header / a non-zip file
        import hashlib

        if case == "wrong_shape":
            save_model(tmp_path / "other", kind="tagger", metadata=META, arrays={"w": np.zeros(5), "ids": ARRAYS["ids"]})
            npz.write_bytes((tmp_path / "other" / "weights.npz").read_bytes())
        else:
            npz.write_bytes(b"PK\x03\x04 this is not really a zip archive")
        header = json.loads(meta.read_text())
        header["weights_sha256"] = hashlib.sha256(npz.read_bytes()).hexdigest()
        header["metadata_sha256"] = header_digest(header)  # as a writer of these bytes would have sealed it
        meta.write_text(json.dumps(header))
    with pytest.raises(ModelFileError) as info:
        load_model(model, kind="tagger")
    assert culprit in str(info.value)


def test_model_io_rejects_wrong_kind_and_missing_directory(tmp_path: Path) -> None:
    """Loading a tagger as a parser, or a directory that does not exist, fails clearly."""
    _save(tmp_path / "m")
    with pytest.raises(ModelFileError,
                       match=r"m: a tagger model; load_model needs a parser directory \(glmnlp.Tagger.load reads it\)$"):
        load_model(tmp_path / "m", kind="parser")
    with pytest.raises(ModelFileError, match="model directory not found"):
        load_model(tmp_path / "nothing", kind="tagger")


def test_model_io_refuses_to_replace_a_part_of_a_model_alone(tmp_path: Path) -> None:
    """A pipeline's ``tagger/`` (listed in its MODEL.json checksums) or a model's sub-model is not replaced on its
    own, even with replace: the enclosing model would no longer load. A model beside them is replaced as before."""
    from glmnlp.errors import ConfigError
    from glmnlp.glm.model_io import check_output_dir
    from glmnlp.text.default_model import model_checksums

    _save(tmp_path / "pipe" / "tagger")
    (tmp_path / "pipe" / "MODEL.json").write_text(json.dumps({"checksums": model_checksums(tmp_path / "pipe")}))
    with pytest.raises(ConfigError, match="is part of the glmnlp model .*pipe"):
        save_model(tmp_path / "pipe" / "tagger", kind="tagger", metadata={"v": 2}, arrays={})
    assert load_model(tmp_path / "pipe" / "tagger", kind="tagger")[0] == META
    sub = ModelParts(kind="tagger", metadata=META, arrays=ARRAYS)
    save_model(tmp_path / "p", kind="parser", metadata={}, arrays={}, submodels={"tagger": sub})
    with pytest.raises(ConfigError, match="is part of the glmnlp model"):
        check_output_dir(tmp_path / "p" / "tagger", "tagger", replace=True)
    _save(tmp_path / "pipe" / "other")  # not listed in MODEL.json: a model of its own
    save_model(tmp_path / "pipe" / "other", kind="tagger", metadata={"v": 2}, arrays={})


def test_metadata_number_keys_come_back_as_strings(tmp_path: Path) -> None:
    """Number keys 2 and 10 were sealed sorted as numbers and read back sorted as strings: the saved model could not
    be loaded ("changed after it was written"). Keys of both kinds could not be saved at all ('<' not supported
    between int and str); two keys JSON writes alike are refused by name instead of one value lost."""
    save_model(tmp_path / "a", kind="task", metadata={2: "a", 10: "b", "c": {True: [{1.5: None}], None: 0}}, arrays={})
    assert load_model(tmp_path / "a", kind="task")[0] == {"2": "a", "10": "b", "c": {"true": [{"1.5": None}],
                                                                                    "null": 0}}
    save_model(tmp_path / "b", kind="task", metadata={"name": "bio", 0: "B-NP"}, arrays={})
    assert load_model(tmp_path / "b", kind="task")[0] == {"name": "bio", "0": "B-NP"}
    with pytest.raises(ValueError, match=r"metadata\['x'\]: the keys 1 and '1' are both written '1' in JSON"):
        save_model(tmp_path / "c", kind="task", metadata={"x": {1: "a", "1": "b"}}, arrays={})
    assert not (tmp_path / "c").exists()


_KEYS = st.one_of(st.text(max_size=4), st.integers(-20, 20), st.booleans(), st.none(),
                  st.floats(allow_nan=False, allow_infinity=False, width=32))
_VALUES = st.recursive(st.one_of(st.none(), st.booleans(), st.integers(-10**6, 10**6), st.text(max_size=6),
                                 st.floats(allow_nan=False, allow_infinity=False)),
                       lambda inner: st.lists(inner, max_size=3) | st.dictionaries(_KEYS, inner, max_size=4),
                       max_leaves=12)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.dictionaries(_KEYS, _VALUES, max_size=5))
def test_metadata_reads_back_as_json_reads_it(tmp_path: Path, metadata: dict[Any, Any]) -> None:
    """Any metadata JSON can hold saves and loads back as json.loads(json.dumps(...)) gives it, or is refused
    with a ValueError naming two keys that JSON writes alike (then nothing is left behind)."""
    path = tmp_path / "m"
    shutil.rmtree(path, ignore_errors=True)
    try:
        expected = json.loads(json.dumps(metadata))
    except ValueError:  # not reached: json.dumps keeps the last of two keys written alike
        return
    try:
        save_model(path, kind="task", metadata=metadata, arrays={})
    except ValueError as exc:
        assert "are both written" in str(exc) and not path.exists()
        return
    assert load_model(path, kind="task")[0] == expected


def test_a_model_left_aside_by_a_killed_replace_is_put_back(tmp_path: Path) -> None:
    """A run killed between its two renames (``--force``: the old model aside, the new one not yet in place) left
    the user's model only in ``.m.glmnlp-old-PID-*``, and the next save to ``m`` deleted it with the other leftovers.
    It is put back at ``m`` first: the next save without replace refuses (the model is there), with replace it
    replaces it as it would have; a dead run's staging folder is still removed."""
    target = tmp_path / "m"
    _save(target)
    before = {p.name: p.read_bytes() for p in target.iterdir()}
    from conftest import dead_pid

    pid = dead_pid()
    target.rename(tmp_path / f".m.glmnlp-old-{pid}-abc123")
    (tmp_path / f".m.glmnlp-tmp-{pid}-def456").mkdir()
    from glmnlp.errors import ConfigError
    from glmnlp.glm.model_io import check_output_dir

    with pytest.raises(ConfigError, match="--force"):
        check_output_dir(target, "tagger", replace=False)
    assert {p.name: p.read_bytes() for p in target.iterdir()} == before
    save_model(target, kind="tagger", metadata={"v": 3}, arrays={})
    assert load_model(target, kind="tagger")[0] == {"v": 3}
    assert sorted(p.name for p in tmp_path.iterdir()) == ["m"]


def test_a_long_model_name_is_written_and_a_too_long_one_refused_before_any_work(tmp_path: Path) -> None:
    """The temporary names add about 30 bytes to the model's: a name of 235 characters, which the file system takes,
    trained a whole model and then failed ("File name too long"). Long names are shortened in the temporary names;
    a name past the file system's limit is refused by the check the trainers run before training."""
    from glmnlp.errors import ConfigError
    from glmnlp.glm.model_io import check_output_dir
    from glmnlp.treebank.fileio import atomic_write_text

    for length in (235, 255):
        target = tmp_path / ("b" * length)
        check_output_dir(target, "tagger", replace=False)
        save_model(target, kind="tagger", metadata={"n": length}, arrays={})
        assert load_model(target, kind="tagger")[0] == {"n": length}
        atomic_write_text(tmp_path / ("t" * length), "text\n")
        assert (tmp_path / ("t" * length)).read_text() == "text\n"
    save_model(tmp_path / ("b" * 255), kind="tagger", metadata={"n": 0}, arrays={})  # replaced: the old folder too
    assert load_model(tmp_path / ("b" * 255), kind="tagger")[0] == {"n": 0}
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".")]
    with pytest.raises(ConfigError, match="File name too long"):
        check_output_dir(tmp_path / ("c" * 256), "tagger", replace=False)


def test_an_output_file_that_is_a_fifo_is_written_into_not_replaced(tmp_path: Path) -> None:
    """The temporary file's rename replaced a FIFO (and, as root, a device such as /dev/full) given as the output
    with an ordinary file, status 0, its reader never getting a byte. It is written into, as the shell's ``>`` does,
    through a symbolic link too (``/dev/stdout`` is one)."""
    import os
    import stat
    import threading

    from glmnlp.treebank.fileio import atomic_write_text

    fifo = tmp_path / "out.fifo"
    os.mkfifo(fifo)
    link = tmp_path / "link"
    link.symlink_to(fifo)
    for path in (fifo, link):
        got: list[bytes] = []
        reader = threading.Thread(target=lambda: got.append(fifo.read_bytes()))
        reader.start()
        atomic_write_text(path, "(S (A a))\n")
        reader.join(10)
        assert got == [b"(S (A a))\n"] and stat.S_ISFIFO(os.lstat(fifo).st_mode) and link.is_symlink()


def test_a_pipeline_folder_given_for_one_model_says_where_its_models_are(tmp_path: Path) -> None:
    """``Parser.load`` / ``Tagger.load`` of a pipeline's folder said "metadata.json: missing (not a glmnlp model
    directory)" of a glmnlp model folder; it says what the folder is, what the reader takes and where its models are."""
    from glmnlp.errors import ModelFileError
    from glmnlp.glm.model_io import read_metadata

    save_model(tmp_path / "pipe" / "tagger", kind="tagger", metadata={}, arrays={})
    with pytest.raises(ModelFileError, match=r"pipe: a pipeline model; glmnlp.glm.model_io.read_metadata needs a "
                                             r"single model directory \(glmnlp.load\(\) reads it whole; its models "
                                             r"are in tagger/\)$"):
        read_metadata(tmp_path / "pipe")
    (tmp_path / "empty").mkdir()
    with pytest.raises(ModelFileError, match="missing \\(not a glmnlp model directory\\)"):
        read_metadata(tmp_path / "empty")


def test_save_model_names_what_json_cannot_hold_and_refuses_an_array_name_it_cannot_write(tmp_path: Path) -> None:
    """``save_model`` wrote the array ``"x\\0y"`` as the zip member ``x``, a model no load could read; a NaN key, a lone
    surrogate and a metadata dict holding itself were json's messages without a place (a position in the whole header
    text, a RecursionError), and a numpy bool "a bool" beside "JSON holds ... bool"."""
    import numpy as np

    from glmnlp.glm.model_io import save_model

    cycle: dict[str, object] = {}
    cycle["self"] = cycle
    for k, (metadata, arrays, message) in enumerate((
        ({}, {"x\0y": np.arange(2)}, "invalid array name 'x\\\\x00y'"),
        ({"a": {float("nan"): 1}}, {}, r"metadata\['a'\]: the key nan is not a JSON number"),
        ({"s": "a\ud800"}, {}, r"metadata\['s'\]: the text holds a lone surrogate '\\ud800' at character 1"),
        ({"k\udc80": 1}, {}, r"metadata: the key 'k\\udc80' holds a lone surrogate"),
        (cycle, {}, r"metadata\['self'\]: holds itself \(a cycle JSON cannot write\)"),
        ({"x": np.bool_(True)}, {}, r"metadata\['x'\]: a numpy.bool"),
    )):
        with pytest.raises(ValueError, match=message):
            save_model(tmp_path / str(k), kind="k", metadata=metadata, arrays=arrays)
        assert not (tmp_path / str(k)).exists()


@pytest.mark.parametrize("replace", [False, True])
def test_model_io_refusals_name_every_kind_one_way(tmp_path: Path, replace: bool) -> None:
    """``parser train --out`` onto a tagger folder said ``holds a glmnlp 'tagger' model, not a 'glmnlp-parser'
    model`` and ``tagger train --out`` onto a parser folder ``holds a glmnlp 'glmnlp-parser' model, not a 'tagger'
    model``: two spellings of kinds in one message. Every refusal and load names a kind as a reader would."""
    from glmnlp.errors import ConfigError
    from glmnlp.glm.model_io import check_output_dir

    save_model(tmp_path / "tagger", kind="tagger", metadata=META, arrays=ARRAYS)
    save_model(tmp_path / "parser", kind="glmnlp-parser", metadata=META, arrays=ARRAYS)
    for folder, kind, said in (("tagger", "glmnlp-parser", "a glmnlp tagger model, not a parser model"),
                               ("parser", "tagger", "a glmnlp parser model, not a tagger model"),
                               ("parser", "glmnlp-pipeline", "a glmnlp parser model, not a pipeline model")):
        with pytest.raises(ConfigError) as info:
            check_output_dir(tmp_path / folder, kind, replace=replace)
        assert str(info.value) == f"{tmp_path / folder}: holds {said} (not replaced)"
    (tmp_path / "parser" / "notes.txt").write_text("mine")
    with pytest.raises(ConfigError, match=r": a glmnlp parser model with other files in it \(notes.txt\)"):
        check_output_dir(tmp_path / "parser", "glmnlp-parser", replace=replace)
    with pytest.raises(ModelFileError, match=r"parser: a parser model; load_model needs a generative term directory "
                                             r"\(glmnlp.Parser.load reads it\)$"):
        load_model(tmp_path / "parser", kind="glmnlp-generative-term")


def test_the_python_loaders_refuse_a_folder_of_the_wrong_kind_as_the_commands_do() -> None:
    """``Tagger.load``, ``Parser.load`` and ``glmnlp.measures`` said ``.../metadata.json: this is a tagger model,
    expected a parser model`` (of a pipeline's folder: ``a pipeline model folder, not one model``), ``glmnlp.load``
    ``no tagger/ sub-model in this model directory (it is ...)``; each now says what the folder holds and what it
    takes, as the commands do."""
    import glmnlp
    from glmnlp.text.default_model import default_model_path

    bundled = default_model_path()
    for load, folder, said in (
        (glmnlp.Tagger.load, bundled / "parser", "a parser model; glmnlp.Tagger.load needs a tagger directory "
                                                 "(glmnlp.Parser.load reads it)"),
        (glmnlp.Tagger.load, bundled, "a pipeline model; glmnlp.Tagger.load needs a tagger directory (glmnlp.load() "
                                      "reads it whole; its models are in tagger/ and parser/)"),
        (glmnlp.Parser.load, bundled / "tagger", "a tagger model; glmnlp.Parser.load needs a parser directory "
                                                 "(glmnlp.Tagger.load reads it)"),
        (glmnlp.Parser.load, bundled, "a pipeline model; glmnlp.Parser.load needs a parser directory (glmnlp.load() "
                                      "reads it whole; its models are in tagger/ and parser/)"),
        (lambda d: glmnlp.measures("A dog.", model=d), bundled / "tagger",
         "a tagger model; glmnlp.measures needs a parser or a pipeline directory (glmnlp.Tagger.load reads it)"),
        (glmnlp.load, bundled / "parser" / "generative",
         "a generative term model; glmnlp.load() needs a pipeline directory (a parser's generative/ part: "
         "glmnlp.Parser.load reads the parser folder around it)"),
    ):
        with pytest.raises(ModelFileError) as info:
            load(folder)
        assert str(info.value) == f"{folder}: {said}"


def test_a_damaged_or_foreign_metadata_json_is_said_by_glmnlp_load_too(tmp_path: Path) -> None:
    """``glmnlp.load`` of a folder whose metadata.json is not JSON, or another program's, said ``not a glmnlp model
    directory (no tagger/ and parser/, nor the metadata.json of a single model)``, where the folder holds one; it
    says what is wrong with it, as ``Parser.load`` and ``parse -m`` do."""
    import glmnlp

    for name, text, said in (("corrupt", "xx", "metadata.json:1: not valid JSON (corrupt or truncated): "),
                             ("foreign", '{"a": 1}', "metadata.json: not a glmnlp model (format is not ")):
        (tmp_path / name).mkdir()
        (tmp_path / name / "metadata.json").write_text(text, encoding="utf-8")
        with pytest.raises(ModelFileError) as info:
            glmnlp.load(tmp_path / name)
        assert str(info.value).startswith(f"{tmp_path / name / said}"), info.value


@pytest.mark.parametrize("linked", [False, True])
def test_glmnlp_load_of_one_models_folder_says_which_loader_reads_it(tmp_path: Path, linked: bool) -> None:
    """``glmnlp.load(TAGGER)`` said ``no tagger/ sub-model ... (it is a tagger model, ...: glmnlp.tagger.Tagger.load
    reads it)``, and then only ``TAGGER: a tagger model; glmnlp.load() needs a pipeline directory``, a parser's folder
    and a link to either alike; the refusal names the loader that reads the folder again."""
    import glmnlp
    from glmnlp.text.default_model import default_model_path

    for part, reader in (("tagger", "glmnlp.Tagger.load"), ("parser", "glmnlp.Parser.load")):
        folder = default_model_path() / part
        if linked:
            (tmp_path / part).symlink_to(folder, target_is_directory=True)
            folder = tmp_path / part
        for parser in (True, False):
            with pytest.raises(ModelFileError) as info:
                glmnlp.load(folder, parser=parser)
            assert str(info.value) == (f"{folder}: a {part} model; glmnlp.load() needs a pipeline directory "
                                       f"({reader} reads it)")


def _pipeline_with_notes(root: Path, described: bool, notes: str) -> Path:
    """The bundled model's parts (links) in ``root``, its MODEL.json when ``described``, and a ``metadata.json``
    that is not a glmnlp model's (``notes``)."""
    from glmnlp.text.default_model import default_model_path

    bundled = default_model_path()
    root.mkdir()
    for part in ("tagger", "parser"):
        (root / part).symlink_to(bundled / part, target_is_directory=True)
    if described:
        for name in ("MODEL.json", "NOTICE.md"):
            shutil.copyfile(bundled / name, root / name)
    (root / "metadata.json").write_text(notes, encoding="utf-8")
    return root


@pytest.mark.parametrize(("described", "notes"), [(True, '{"note": "my notes"}'), (True, "xx"), (False, "[]")])
def test_a_pipeline_folder_is_a_pipeline_whatever_else_lies_there(tmp_path: Path, described: bool,
                                                                  notes: str) -> None:
    """A copy of the bundled model with another program's ``metadata.json`` in it loaded with ``glmnlp.load()``, and
    then was refused (``pipemeta/metadata.json: not a glmnlp model (format is not 'glmnlp-model')``) while
    ``glmnlp.measures(model=...)`` loaded it; ``glmnlp parse`` and ``tag`` refused it all along. Every loader takes it
    as the pipeline it is (glmnlp.glm.model_files' header), and a one-model loader refuses it as one."""
    import glmnlp

    folder = _pipeline_with_notes(tmp_path / "pipe", described, notes)
    doc = glmnlp.load(folder)("The dog barked.")
    assert [t.tag for t in doc.tokens] == ["DT", "NN", "VBD", "."]
    assert glmnlp.measures("The dog barked.", model=folder)[0]["word"] == "The"
    with pytest.raises(ModelFileError, match=r"pipe: a pipeline model; glmnlp.Tagger.load needs a tagger directory"):
        glmnlp.Tagger.load(folder)


def test_a_parser_whose_generative_part_is_another_kind_is_refused_without_a_loaders_hint(tmp_path: Path) -> None:
    """A parser folder whose ``generative/`` holds a tagger was refused with the hint of what reads a tagger
    (``the parser model P needs a generative term directory (glmnlp.Tagger.load reads it)``): a loader for a folder in
    the wrong place, named inside a command's error; a model's part gets the refusal alone."""
    import shutil

    import glmnlp
    from glmnlp.text.default_model import default_model_path

    bundled = default_model_path()
    shutil.copytree(bundled / "parser", tmp_path / "p", ignore=shutil.ignore_patterns("generative"))
    shutil.copytree(bundled / "tagger", tmp_path / "p" / "generative")
    with pytest.raises(ModelFileError) as info:
        glmnlp.Parser.load(tmp_path / "p")
    assert str(info.value) == (f"{tmp_path / 'p' / 'generative'}: a tagger model; the parser model {tmp_path / 'p'} "
                               "needs a generative term directory")
