"""A model folder replaced while it is read (another program's ``--force``, a ``save`` over it: the new folder is
renamed into place) is read again, whole (glmnlp.glm.model_files.read_unchanged): a pipeline loaded across the
swap held the old model's tagger and the new one's parser (tags from one, trees from the other, without a word),
and a sub-model read across it was refused as corrupt ("checksum mismatch")."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path
from typing import Any

import pytest
from conftest import dead_pid

import glmnlp
from glmnlp.errors import ModelFileError
from glmnlp.glm.model_files import folder_identity, read_unchanged
from glmnlp.text.default_model import default_model_path


def _swap(target: Path, replacement: Path) -> None:
    """What ``staged_output_dir`` does: the new folder renamed into the place of the old one, which goes."""
    old = target.with_name(target.name + ".old")
    target.rename(old)
    replacement.rename(target)
    shutil.rmtree(old)


def test_read_unchanged_reads_again_a_folder_replaced_meanwhile(tmp_path: Path) -> None:
    folder, other, third = tmp_path / "m", tmp_path / "n", tmp_path / "o"
    for path, text in ((folder, "old"), (other, "new"), (third, "newer")):
        path.mkdir()
        (path / "f").write_text(text)
    seen: list[str] = []

    def read() -> str:
        seen.append((folder / "f").read_text())
        if len(seen) == 1:
            _swap(folder, other)  # replaced after the first read of it
        return seen[-1]

    assert read_unchanged(folder, read) == "new" and seen == ["old", "new"]

    def failing() -> str:  # an error met across the swap (a checksum that no longer matches) is read again too
        if not seen[2:]:
            seen.append("x")
            _swap(folder, third)
            raise ModelFileError("checksum mismatch")
        return (folder / "f").read_text()

    assert read_unchanged(folder, failing) == "newer"
    seen.clear()
    swapped = [tmp_path / "p"]
    swapped[0].mkdir()
    (swapped[0] / "f").write_text("newest")

    def mismatched() -> str:  # any error of two models' parts (a tagset check: ConfigError) is read again
        if swapped:
            _swap(folder, swapped.pop())
            raise ValueError("most sentences would get flat trees")
        return (folder / "f").read_text()

    assert read_unchanged(folder, mismatched) == "newest"
    (folder / "metadata.json").write_text("{}")
    other = tmp_path / "q"
    other.mkdir()
    (other / "metadata.json").write_text('{"another": "model"}')
    (other / "f").write_text("copied")
    copied: list[str] = []

    def removed_then_copied() -> str:  # rm -r m && cp -r new m: the inodes freed are handed out again at once
        if not copied:
            copied.append((folder / "f").read_text())
            shutil.rmtree(folder)
            shutil.copytree(other, folder)
        return (folder / "f").read_text()

    assert read_unchanged(folder, removed_then_copied) == "copied" and copied == ["newest"]
    with pytest.raises(ModelFileError, match="checksum mismatch"):  # an error of a folder left alone is the error
        read_unchanged(folder, lambda: (_ for _ in ()).throw(ModelFileError("checksum mismatch")))


def test_a_folder_replaced_during_every_read_is_an_error_saying_so(tmp_path: Path) -> None:
    folder = tmp_path / "m"
    folder.mkdir()
    count = [0]

    def read() -> None:
        count[0] += 1
        spare = tmp_path / f"n{count[0]}"
        spare.mkdir()
        _swap(folder, spare)

    with pytest.raises(ModelFileError, match=r"m: replaced by another program while it was read \(3 times\): load it "
                                             r"once that program has written it$"):
        read_unchanged(folder, read)
    assert count[0] == 3


def _two_pipelines(tmp_path: Path) -> tuple[Path, Path]:
    """The bundled model, and a copy that differs only in its MODEL.json's multi-tag margin (what tells them apart)."""
    first, second = tmp_path / "model", tmp_path / "incoming"
    shutil.copytree(default_model_path(), first)
    shutil.copytree(default_model_path(), second)
    meta = json.loads((second / "MODEL.json").read_text(encoding="utf-8"))
    meta["multitag_margin"] = 2.5
    (second / "MODEL.json").write_text(json.dumps(meta), encoding="utf-8")
    return first, second


def test_a_pipeline_replaced_while_loading_is_loaded_again_whole(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The folder is replaced once its tagger has been read: the load starts again, so the tagger, the parser and
    the margin all come from the new folder (the tagger was the old one's, the margin the new one's)."""
    from glmnlp.tagger import Tagger

    model, incoming = _two_pipelines(tmp_path)
    load = Tagger.load
    loads: list[Any] = []

    def swapping(directory: str | Path) -> Tagger:
        tagger = load(directory)
        loads.append(folder_identity(model / "tagger"))
        if len(loads) == 1:
            _swap(model, incoming)
        return tagger

    monkeypatch.setattr(Tagger, "load", staticmethod(swapping))
    nlp = glmnlp.load(model)
    assert len(loads) == 2 and loads[1] == folder_identity(model / "tagger") and nlp.multitag_margin == 2.5


def test_a_deferred_pipeline_whose_folder_was_replaced_is_not_built_from_the_new_one(tmp_path: Path) -> None:
    """Loaded deferred, checked, then replaced before its first sentence: building it then read the new folder's
    files, never checked against the old MODEL.json or against each other."""
    model, incoming = _two_pipelines(tmp_path)
    nlp = glmnlp.load(model, deferred=True)
    os.chmod(model / "tagger", 0o750)  # a change of the folder that replaces nothing (its ctime was compared)
    (model / "tagger" / ".metadata.json.swp").write_text("an editor's", encoding="utf-8")
    assert nlp("A dog.").sentences[0].tags == ["DT", "NN", "."]
    nlp = glmnlp.load(model, deferred=True)
    _swap(model, incoming)
    with pytest.raises(ModelFileError, match=r"tagger: replaced by another program since the pipeline was loaded: "
                                             r"load it again$"):
        nlp("The dog barked.")
    assert glmnlp.load(model)("The dog barked.").sentences[0].tags == ["DT", "NN", "VBD", "."]
    assert os.path.isdir(model)


def test_scratch_folders_of_processes_gone_are_removed_by_the_next(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A worker that the pool ended by SIGTERM inside its scratch folder (Ctrl-C while ``parser train -j 2`` tuned
    its beam) left ``/tmp/glmnlp-beam-*`` with the model's files for good: the next scratch folder of that prefix
    removes those of processes that no longer run, and keeps a running one's and other prefixes'."""
    import tempfile

    from glmnlp.glm.model_files import scratch_folder

    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    dead = dead_pid()
    for name in (f"glmnlp-beam-{dead}-ab_c1", f"glmnlp-beam-{os.getppid()}-x", f"glmnlp-size-{dead}-y"):
        (tmp_path / name).mkdir()
        (tmp_path / name / "weights.npz").write_bytes(b"x")
    with scratch_folder("glmnlp-beam") as folder:
        assert folder.parent == tmp_path and folder.name.startswith(f"glmnlp-beam-{os.getpid()}-")
        names = sorted(p.name for p in tmp_path.iterdir())
    assert names == sorted([folder.name, f"glmnlp-beam-{os.getppid()}-x", f"glmnlp-size-{dead}-y"])
    assert not folder.exists()


def test_an_aborted_pool_removes_what_its_terminated_workers_left(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The scratch folder of a worker that the pool terminated was there after the command ended (SIGTERM runs no
    clean-up): stopping a pool by aborting it removes the scratch folders of processes gone."""
    import tempfile

    from glmnlp.glm import pools

    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    dead = dead_pid()
    (tmp_path / f"glmnlp-beam-{dead}-q1").mkdir()
    pool = pools.start_pool(1, pools.mp_context())
    assert pools.submit(pool, abs, -2).result() == 2
    pools.stop_pools([pool], abort=True)
    assert not (tmp_path / f"glmnlp-beam-{dead}-q1").exists()


def test_no_process_is_signalled_to_learn_whether_it_runs_on_windows(monkeypatch: pytest.MonkeyPatch) -> None:
    """``os.kill(pid, 0)`` on Windows is ``CTRL_C_EVENT``: a Ctrl-C to the process group ``pid``. Every process
    counts as running there (leftovers stay), and no signal is sent."""
    from glmnlp.treebank import fileio

    sent: list[tuple[int, int]] = []
    monkeypatch.setattr(fileio.sys, "platform", "win32")
    monkeypatch.setattr(fileio.os, "kill", lambda pid, sig: sent.append((pid, sig)))
    assert fileio.process_alive(2**22 + 7) and sent == []


def test_a_model_that_cannot_be_written_in_a_scratch_folder_says_it_is_a_temporary_folder(tmp_path: Path) -> None:
    """``train-default`` sizes its model in a scratch folder under $TMPDIR after all its training: a full temporary
    folder was said as ``/tmp/glmnlp-size-7599-fjfqxm4r/tagger: cannot be written: File too large``, a path the user
    never gave, gone at once, naming nothing to change. It says what the folder is and how to move it."""
    import tempfile

    from glmnlp.errors import ConfigError
    from glmnlp.glm.model_files import scratch_folder

    with pytest.raises(ConfigError, match=r"/tagger: cannot be written: File too large \(a temporary folder of "
                                          rf"glmnlp's, in {tempfile.gettempdir()}: set \$TMPDIR to a folder with room"):
        with scratch_folder("glmnlp-size") as folder:
            raise ConfigError(f"{folder / 'tagger'}: cannot be written: File too large")
    with pytest.raises(ConfigError, match=r"^elsewhere$"):  # another error is left as it is
        with scratch_folder("glmnlp-size"):
            raise ConfigError("elsewhere")
