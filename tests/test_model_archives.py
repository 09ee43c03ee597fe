"""A model's array archive (weights.npz) and its files, damaged or unusual: refused by name before anything is
allocated from them (a flipped byte, an oversized .npy header, an unsupported zip method, an array the model does
not have), read where they are sound (lzma or deflated members, files installed as links)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from glmnlp.errors import ModelFileError
from model_fakes import tiny_parser_model, write_header


def _rehash(model: Path) -> None:
    import hashlib

    header = json.loads((model / "metadata.json").read_text())
    header["weights_sha256"] = hashlib.sha256((model / "weights.npz").read_bytes()).hexdigest()
    write_header(model / "metadata.json", header)


@pytest.mark.parametrize("where", range(30, 400, 23))
def test_model_files_damaged_archive_with_matching_checksum_is_a_model_file_error(tmp_path: Path, where: int) -> None:
    """A flipped byte inside the compressed arrays (checksum updated to match) is refused by name, never a zlib error."""
    from glmnlp.parser.model import Parser

    model = tiny_parser_model(tmp_path / "m")
    data = bytearray((model / "weights.npz").read_bytes())
    data[where % len(data)] ^= 0x5A
    (model / "weights.npz").write_bytes(bytes(data))
    _rehash(model)
    try:
        Parser.load(model)
    except ModelFileError as exc:
        assert "\n" not in str(exc) and str(model) in str(exc)


def test_model_files_array_header_is_checked_before_allocation(tmp_path: Path) -> None:
    """An .npy header claiming 2**40 elements (metadata.json agreeing) is refused without allocating them."""
    import io
    import zipfile

    from glmnlp.glm.model_io import load_model, save_model

    save_model(tmp_path / "m", kind="x", metadata={}, arrays={"w": np.zeros(4)})
    header = b"{'descr': '<f8', 'fortran_order': False, 'shape': (1099511627776,), }"
    header += b" " * (63 - len(header) % 64) + b"\n"
    npy = b"\x93NUMPY\x01\x00" + len(header).to_bytes(2, "little") + header + bytes(32)
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("w.npy", npy)
    (tmp_path / "m" / "weights.npz").write_bytes(buffer.getvalue())
    meta = json.loads((tmp_path / "m" / "metadata.json").read_text())
    meta["arrays"]["w"]["shape"] = [1099511627776]
    (tmp_path / "m" / "metadata.json").write_text(json.dumps(meta))
    _rehash(tmp_path / "m")
    with pytest.raises(ModelFileError, match="larger than the archive can hold"):
        load_model(tmp_path / "m", kind="x")


def _rewrite_archive(model: Path, method: int) -> None:
    """Rewrite a model's weights.npz with every member compressed by ``method`` (checksum updated)."""
    import io
    import zipfile

    with zipfile.ZipFile(model / "weights.npz") as old:
        members = {name: old.read(name) for name in old.namelist()}
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=method) as archive:
        for name, data in members.items():
            archive.writestr(name, data)
    (model / "weights.npz").write_bytes(buffer.getvalue())
    _rehash(model)


def test_model_files_members_are_lzma_and_deflated_archives_still_load(tmp_path: Path) -> None:
    """Arrays are written as LZMA members; a model whose archive is deflated (earlier releases) loads the same arrays."""
    import zipfile

    from glmnlp.glm.model_io import load_model, save_model

    arrays = {"w": np.arange(1000, dtype=np.float32) % 7, "ids": np.arange(50, dtype=np.int64)}
    save_model(tmp_path / "m", kind="x", metadata={"a": 1}, arrays=arrays)
    with zipfile.ZipFile(tmp_path / "m" / "weights.npz") as archive:
        assert {info.compress_type for info in archive.infolist()} == {zipfile.ZIP_LZMA}
    _rewrite_archive(tmp_path / "m", zipfile.ZIP_DEFLATED)
    metadata, loaded = load_model(tmp_path / "m", kind="x")
    assert metadata == {"a": 1}
    for name, array in arrays.items():
        assert loaded[name].dtype == array.dtype and np.array_equal(loaded[name], array)


def test_model_files_an_oversized_npy_header_is_one_line_without_numpys_pickle_advice(tmp_path: Path) -> None:
    """A member whose .npy header is 200 KB gave numpy's three-line message, ending in the advice to load it with
    ``allow_pickle=True``: wrong for a format that never holds pickles, and an error is one line."""
    import io
    import zipfile

    from glmnlp.glm.model_io import load_model, save_model

    save_model(tmp_path / "m", kind="x", metadata={"a": 1}, arrays={"w": np.zeros(3)})
    header = "{'descr': '<f8', 'fortran_order': False, 'shape': (3,), " + " " * 200_000 + "}"
    header += " " * (-(len(header) + 13) % 64) + "\n"
    member = b"\x93NUMPY\x02\x00" + len(header).to_bytes(4, "little") + header.encode("latin1") + bytes(24)
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_LZMA) as archive:
        archive.writestr("w.npy", member)
    (tmp_path / "m" / "weights.npz").write_bytes(buffer.getvalue())
    _rehash(tmp_path / "m")
    with pytest.raises(ModelFileError) as caught:
        load_model(tmp_path / "m", kind="x")
    message = str(caught.value)
    assert "not a readable weights archive" in message and "\n" not in message and "pickle" not in message, message


def test_model_files_member_with_an_unsupported_zip_method_is_refused(tmp_path: Path) -> None:
    """A bzip2 member (not a method model files use) is a one-line ModelFileError, not an attempt to inflate it."""
    import zipfile

    from glmnlp.glm.model_io import load_model, save_model

    save_model(tmp_path / "m", kind="x", metadata={}, arrays={"w": np.zeros(4)})
    _rewrite_archive(tmp_path / "m", zipfile.ZIP_BZIP2)
    with pytest.raises(ModelFileError, match="unsupported zip method 12"):
        load_model(tmp_path / "m", kind="x")


def test_an_array_a_model_does_not_have_is_refused_before_it_is_read(tmp_path: Path) -> None:
    """A tagger folder of 1.6 MB with an extra array of 1.5 GB of zeros (LZMA packs them 6,843:1), its checksums
    written again, loaded with 3.3 GB of memory taken and no word: an array the kind does not have is refused, by
    name, before any array is read (a parser's here would be 2 GB of zeros if it were; a tagger's, a generative
    model's)."""
    import zipfile

    from glmnlp.glm.model_io import load_model, read_metadata, save_model
    from glmnlp.parser.files import MODEL_KIND, PARSER_ARRAYS
    from glmnlp.parser.model import Parser

    model = tiny_parser_model(tmp_path / "p")
    metadata, arrays = load_model(model, kind=MODEL_KIND, names=PARSER_ARRAYS)
    save_model(tmp_path / "extra", kind=MODEL_KIND, metadata=metadata, arrays={**arrays, "zzz": np.zeros(3)})
    with zipfile.ZipFile(tmp_path / "extra" / "weights.npz") as archive:  # a member claiming 2 GB: never opened
        assert "zzz.npy" in archive.namelist()
    header = read_metadata(tmp_path / "extra")
    header["arrays"]["zzz"]["shape"] = [1 << 28]
    write_header(tmp_path / "extra" / "metadata.json", header)
    with pytest.raises(ModelFileError, match=r"weights.npz: 'zzz': not an array a parser model has"):
        Parser.load(tmp_path / "extra")
    assert Parser.load(model).weights[3] == 1.0  # the arrays it has, read in pieces, as they were written
    # the tagger and the generative model: each list holds every array the bundled model's files have
    from glmnlp.parser.files import GENERATIVE_ARRAYS
    from glmnlp.tagger.files import TAGGER_ARRAYS
    from glmnlp.tagger.model import Tagger
    from glmnlp.text.default_model import default_model_path

    generative = ("parser/generative", "glmnlp-generative-term", GENERATIVE_ARRAYS, "generative term")
    for sub, kind, names, named in (("tagger", "tagger", TAGGER_ARRAYS, "tagger"), generative):
        metadata, arrays = load_model(default_model_path() / sub, kind=kind, names=names)
        save_model(tmp_path / kind, kind=kind, metadata=metadata, arrays={**arrays, "zzz": np.zeros(2)})
        with pytest.raises(ModelFileError, match=rf"weights.npz: 'zzz': not an array a {named} model has"):
            load_model(tmp_path / kind, kind=kind, names=names)
    with pytest.raises(ModelFileError, match=r"'zzz': not an array a tagger model has"):
        Tagger.load(tmp_path / "tagger")


def test_a_model_installed_as_links_loads_and_an_empty_file_is_refused(tmp_path: Path) -> None:
    """A model file linked to a cache out of the folder (Hugging Face's hub, ``cp -rs``) is read as its file; an
    empty regular file is refused before it is opened: a file of ``/proc`` such as ``/proc/kmsg`` has size 0 and
    its read never ends (the command hung)."""
    import shutil

    from glmnlp.parser.model import Parser

    model = tiny_parser_model(tmp_path / "p")
    (tmp_path / "blobs").mkdir()
    shutil.move(model / "weights.npz", tmp_path / "blobs" / "0123abcd")
    (model / "weights.npz").symlink_to(Path("..") / "blobs" / "0123abcd")
    assert Parser.load(model).weights[3] == 1.0
    (model / "weights.npz").unlink()
    (model / "weights.npz").write_bytes(b"")
    with pytest.raises(ModelFileError, match=r"weights.npz: empty"):
        Parser.load(model)


@pytest.mark.parametrize("what", ["folder", "/dev/zero"])
def test_a_model_json_that_is_no_file_is_refused_not_taken_for_none(tmp_path: Path, what: str) -> None:
    """A pipeline's MODEL.json that is a folder or a link to /dev/zero was taken for a missing one: its checksums
    were not checked and its multi-tag margin dropped, status 0. It is read as MODEL.json, and refused."""
    import shutil

    import glmnlp
    from glmnlp.text.default_model import default_model_path

    root = tmp_path / "m"
    shutil.copytree(default_model_path(), root)
    (root / "MODEL.json").unlink()
    if what == "folder":
        (root / "MODEL.json").mkdir()
    else:
        (root / "MODEL.json").symlink_to(what)
    with pytest.raises(ModelFileError, match=r"MODEL.json: not a regular file"):
        glmnlp.load(root)

