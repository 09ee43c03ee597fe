"""Model writers never delete what glmnlp did not write: folders with other files, models of another
kind, the current directory; a same-kind model is replaced atomically (with --force on the command
line); leftovers of killed runs are cleaned; model folders get the usual permissions, not 0700."""

from __future__ import annotations

import io
import os
import stat
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from conftest import snapshot

from glmnlp.cli import main
from glmnlp.errors import ConfigError
from glmnlp.glm import model_io
from glmnlp.glm.model_io import ModelParts, load_model, save_model

META = {"v": 1}
ARRAYS = {"w": np.arange(3, dtype=np.float64)}


def _user_folder(path: Path) -> dict[str, bytes]:
    (path / "sub").mkdir(parents=True)
    (path / "thesis.txt").write_bytes(b"years of work\n")
    (path / "sub" / "data.csv").write_bytes(b"a,b\n1,2\n")
    return snapshot(path)




@pytest.mark.parametrize("command", ["tagger", "parser"])
def test_output_dirs_training_refuses_a_folder_of_other_files(
    tmp_path: Path, trees_file: Path, command: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """``tagger train`` / ``parser train --out`` a folder of user files: rc 1, one line, nothing deleted."""
    out = tmp_path / "v"
    before = _user_folder(out)
    argv = ["tagger", "train", "--train", str(trees_file), "--quiet"] if command == "tagger" else [
        "parser", "train", "--train", str(trees_file), "--dev", str(trees_file)]
    for force in ([], ["--force"]):
        capsys.readouterr()
        assert main([*argv, "--out", str(out), "--epochs", "1", *force]) == 1
        err = capsys.readouterr().err
        assert err.startswith(f"error: {out}: already exists, is not empty and is not a glmnlp model") and err.count("\n") == 1
        assert snapshot(out) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["toy.trees", "v"]


@pytest.mark.parametrize("command", ["tagger", "parser"])
def test_output_dirs_an_empty_folder_that_cannot_be_written_is_not_replaced(
    tmp_path: Path, trees_file: Path, command: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """An empty read-only ``--out`` folder was replaced by the model (a new folder, the user's owner and mode gone:
    the rename needs only the parent's permission); now one line before training and the folder stays. Files cannot
    be created in it: for a user, its mode 0555; here (the tests may run as root, whom modes do not bind) the probe's
    ``mkstemp`` in it fails as it would."""
    import tempfile

    out = tmp_path / "ro"
    out.mkdir()
    real = tempfile.mkstemp

    def read_only(*args: object, **kwargs: object) -> tuple[int, str]:
        if Path(str(kwargs.get("dir"))) == out:
            raise PermissionError(13, "Permission denied")
        return real(*args, **kwargs)  # type: ignore[call-overload,no-any-return]

    monkeypatch.setattr(tempfile, "mkstemp", read_only)
    argv = ["tagger", "train", "--train", str(trees_file), "--quiet"] if command == "tagger" else [
        "parser", "train", "--train", str(trees_file), "--dev", str(trees_file)]
    capsys.readouterr()
    assert main([*argv, "--out", str(out), "--epochs", "1"]) == 1
    err = capsys.readouterr().err
    assert err == f"error: {out}: cannot be written: cannot create files in {out} (Permission denied)\n"
    assert out.is_dir() and list(out.iterdir()) == []
    assert sorted(p.name for p in tmp_path.iterdir()) == ["ro", "toy.trees"]


def test_output_dirs_current_directory_is_refused(
    tmp_path: Path, trees_file: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """``--out .`` is a clear error, not an OSError traceback, and nothing is touched."""
    monkeypatch.chdir(tmp_path)
    assert main(["tagger", "train", "--train", str(trees_file), "--out", ".", "--epochs", "1", "--quiet"]) == 1
    assert "is the current directory" in capsys.readouterr().err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["toy.trees"]


def test_output_dirs_same_kind_model_is_replaced_only_with_force(
    tmp_path: Path, trees_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """An existing tagger model needs --force; a parser model is never replaced by a tagger."""
    out = tmp_path / "m"
    base = ["tagger", "train", "--train", str(trees_file), "--out", str(out), "--quiet"]
    assert main([*base, "--epochs", "1"]) == 0
    first = snapshot(out)
    assert main([*base, "--epochs", "2"]) == 1
    assert "use --force to replace it" in capsys.readouterr().err
    assert snapshot(out) == first
    assert main([*base, "--epochs", "2", "--force"]) == 0
    assert snapshot(out) != first and load_model(out, kind="tagger")[0]["config"]["epochs"] == 2
    assert sorted(p.name for p in tmp_path.iterdir()) == ["m", "toy.trees"]
    capsys.readouterr()
    rc = main(["parser", "train", "--train", str(trees_file), "--dev", str(trees_file), "--out", str(out),
               "--epochs", "1", "--force"])
    assert rc == 1 and "holds a glmnlp tagger model, not a parser model (not replaced)" in capsys.readouterr().err


def test_output_dirs_model_with_extra_files_is_not_replaced(tmp_path: Path) -> None:
    """A model folder into which the user put their own file is not replaced, even when asked to."""
    save_model(tmp_path / "m", kind="tagger", metadata=META, arrays=ARRAYS)
    (tmp_path / "m" / "notes.txt").write_text("keep me")
    with pytest.raises(ConfigError, match="other files in it"):
        save_model(tmp_path / "m", kind="tagger", metadata={"v": 2}, arrays=ARRAYS, replace=True)
    assert (tmp_path / "m" / "notes.txt").read_text() == "keep me"
    assert load_model(tmp_path / "m", kind="tagger")[0] == META


def test_output_dirs_files_and_symlinks_are_refused(tmp_path: Path) -> None:
    (tmp_path / "file").write_text("x")
    (tmp_path / "real").mkdir()
    (tmp_path / "link").symlink_to(tmp_path / "real")
    with pytest.raises(ConfigError, match="not a directory"):
        model_io.check_output_dir(tmp_path / "file", "tagger", replace=True)
    with pytest.raises(ConfigError, match="symbolic link"):
        model_io.check_output_dir(tmp_path / "link", "tagger", replace=True)
    model_io.check_output_dir(tmp_path / "real", "tagger", replace=False)  # empty: fine
    model_io.check_output_dir(tmp_path / "new" / "deeper", "tagger", replace=False)


def test_output_dirs_train_default_refuses_foreign_folder_even_with_force(tmp_path: Path) -> None:
    from glmnlp.text.default_model import DefaultRecipe, train_default

    out = tmp_path / "v"
    before = _user_folder(out)
    with pytest.raises(ConfigError, match="already exists, is not empty and is not a glmnlp model"):
        train_default(out, DefaultRecipe(max_train=5), overwrite=True)
    assert snapshot(out) == before


def test_output_dirs_models_are_not_private_and_leftovers_are_cleaned(tmp_path: Path) -> None:
    """Model folders get 0777 & ~umask (not mkdtemp's 0700); a dead run's temporary folders go away (an ``old`` one
    while the model is in place: one killed after its second rename; with the model missing it is put back,
    test_model_io.py)."""
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    pid = int(dead.stdout)
    save_model(tmp_path / "m", kind="parser", metadata=META, arrays=ARRAYS)
    for name in (f".m.glmnlp-tmp-{pid}-abc123", f".m.glmnlp-old-{pid}-x_9"):
        (tmp_path / name).mkdir()
        (tmp_path / name / "weights.npz").write_bytes(b"half")
    (tmp_path / f".other.glmnlp-tmp-{pid}-abc").mkdir()  # another target's: left alone
    mask = os.umask(0o022)
    try:
        save_model(tmp_path / "m", kind="parser", metadata=META, arrays=ARRAYS,
                   submodels={"sub": ModelParts(kind="t", metadata={}, arrays={})})
    finally:
        os.umask(mask)
    assert stat.S_IMODE((tmp_path / "m").stat().st_mode) == 0o755
    assert stat.S_IMODE((tmp_path / "m" / "sub").stat().st_mode) == 0o755
    assert sorted(p.name for p in tmp_path.iterdir()) == [f".other.glmnlp-tmp-{pid}-abc", "m"]


def test_output_dirs_svg_out_dir_keeps_other_files(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``parse --format svg --out-dir`` refuses a folder of other files; an earlier run's drawings are replaced."""
    out = tmp_path / "v"
    before = _user_folder(out)
    assert main(["parse", "-q", "-f", "svg", "--out-dir", str(out), "--tagged", "dogs/NNS bark/VBP ./."]) == 1
    assert "holds files that are not drawings of glmnlp parse" in capsys.readouterr().err
    assert snapshot(out) == before
    drawings = tmp_path / "trees"
    for _ in range(2):
        assert main(["parse", "-q", "-f", "svg", "--out-dir", str(drawings), "--tagged", "dogs/NNS bark/VBP ./."]) == 0
    assert sorted(p.name for p in drawings.iterdir()) == ["sentence-0001.svg"]


def test_a_second_run_into_an_out_dir_being_written_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Two ``parse --format svg --out-dir D`` at once left D with a mix of both runs' drawings, and both said they
    had written theirs. A run marks D while it writes (``.glmnlp-writing-PID``, holding its host): another run into D
    is refused while that process runs, or when it runs on another host (which cannot be told); a killed run's mark
    is removed; the mark goes when the run ends. Two runs that start together both see the other's mark (one mark
    that each took over let both write)."""
    import socket

    from glmnlp.cli import _svg_dir
    from glmnlp.treebank import fileio

    out = tmp_path / "trees"
    argv = ["parse", "-q", "-f", "svg", "--out-dir", str(out), "--tagged", "dogs/NNS bark/VBP ./."]
    marks: list[list[str]] = []
    write = fileio.atomic_write_text

    def looking(path: Path, text: str) -> None:
        marks.append(sorted(p.name for p in out.iterdir() if p.name.startswith(".glmnlp-writing")))
        write(path, text)

    monkeypatch.setattr(fileio, "atomic_write_text", looking)
    assert main(argv) == 0 and marks == [[f".glmnlp-writing-{os.getpid()}"]]
    assert sorted(p.name for p in out.iterdir()) == ["sentence-0001.svg"]
    host = socket.gethostname()
    (out / f".glmnlp-writing-{os.getppid()}").write_text(f"{host}\n", encoding="utf-8")  # a run that runs
    capsys.readouterr()
    assert main(argv) == 1
    assert capsys.readouterr().err == (
        f"error: {out}: another glmnlp parse (process {os.getppid()}) is writing its drawings there: wait for it to "
        f"end, or choose another --out-dir (if no run is, remove .glmnlp-writing-{os.getppid()})\n")
    (out / f".glmnlp-writing-{os.getppid()}").write_text("elsewhere\n", encoding="utf-8")
    assert main(argv) == 1 and f"(process {os.getppid()} on elsewhere)" in capsys.readouterr().err
    (out / f".glmnlp-writing-{os.getppid()}").write_text("", encoding="utf-8")  # read as its run wrote it: this host
    assert main(argv) == 1 and f"(process {os.getppid()}) is writing" in capsys.readouterr().err
    (out / f".glmnlp-writing-{os.getppid()}").unlink()
    from conftest import dead_pid

    gone = dead_pid()
    (out / f".glmnlp-writing-{gone}").write_text(f"{host}\n", encoding="utf-8")  # a run killed as it wrote
    assert main(argv) == 0 and sorted(p.name for p in out.iterdir()) == ["sentence-0001.svg"]
    # two runs starting together: each has made its mark when it looks at the other's
    (out / f".glmnlp-writing-{os.getppid()}").write_text(f"{host}\n", encoding="utf-8")
    with pytest.raises(ConfigError, match="another glmnlp parse"):
        _svg_dir.claim(out)
    assert sorted(p.name for p in out.iterdir()) == [f".glmnlp-writing-{os.getppid()}", "sentence-0001.svg"]


def test_a_model_is_replaced_from_a_working_folder_that_was_deleted(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With the working folder deleted (``cd g && rmdir ../g``), replacing a model by its absolute path was a
    traceback (``FileNotFoundError`` from ``Path.cwd()``): the folder checked against the target no longer exists,
    so it cannot be it."""
    from glmnlp.glm.model_io import load_model, save_model

    target = tmp_path / "m"
    save_model(target, kind="toy", metadata={"n": 1}, arrays={"w": np.zeros(3)})
    gone = tmp_path / "gone"
    gone.mkdir()
    monkeypatch.chdir(gone)
    gone.rmdir()
    save_model(target, kind="toy", metadata={"n": 2}, arrays={"w": np.ones(3)})
    assert load_model(target, kind="toy")[0] == {"n": 2}


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX links and modes")
def test_a_file_written_again_keeps_its_mode_and_a_link_is_written_through(tmp_path: Path) -> None:
    """``data --clean ... --out FILE`` (and every other atomic write) replaced a symbolic link by a file, leaving its
    target as it was, and gave a file of mode 600 the mode 644; as the shell's ``>``, the link's file is written and
    an existing file keeps its mode."""
    from glmnlp.treebank.fileio import atomic_write_bytes

    store = tmp_path / "store"
    store.mkdir()
    (store / "clean.trees").write_text("old\n")
    link = tmp_path / "clean.trees"
    link.symlink_to(store / "clean.trees")
    private = tmp_path / "private.trees"
    private.write_text("secret\n")
    private.chmod(0o600)
    atomic_write_bytes(link, b"new\n")
    mask = os.umask(0o022)  # a new file would be 644: the kept 600 is the file's own
    try:
        atomic_write_bytes(private, b"new\n")
    finally:
        os.umask(mask)
    assert link.is_symlink() and (store / "clean.trees").read_bytes() == b"new\n"
    assert stat.S_IMODE(private.stat().st_mode) == 0o600 and private.read_bytes() == b"new\n"
    assert sorted(p.name for p in store.iterdir()) == ["clean.trees"]
    loop = tmp_path / "loop1"
    loop.symlink_to(tmp_path / "loop2")
    (tmp_path / "loop2").symlink_to(loop)
    with pytest.raises(ConfigError, match="loop1: cannot be written"):  # a loop of links was replaced by a file
        atomic_write_bytes(loop, b"x")
    assert loop.is_symlink()


def test_a_temporary_file_of_a_killed_write_is_removed_by_the_next_write(tmp_path: Path) -> None:
    """``data --out`` killed (SIGKILL) between writing a file and renaming it left ``.test.trees.XXXX.tmp`` for good;
    the next write into the folder removes those of processes that no longer run (once per folder: a listing per
    write made 20,000 drawings quadratic), keeps a running one's and a file of another pattern."""
    from glmnlp.treebank.fileio import atomic_write_bytes

    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    stale = tmp_path / f".test.trees.glmnlp-tmp-{int(dead.stdout)}-abc.tmp"
    running = tmp_path / f".test.trees.glmnlp-tmp-{os.getppid()}-def.tmp"
    other = tmp_path / f".dev.trees.glmnlp-tmp-{int(dead.stdout)}-ghi.tmp"
    mine = tmp_path / f".notes.{int(dead.stdout)}.tmp"
    for path in (stale, running, other, mine):
        path.write_text("half a file")
    atomic_write_bytes(tmp_path / "test.trees", b"(TOP (NN x))\n")
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([running.name, mine.name, "test.trees"])
    stale.write_text("half a file")  # the folder is not listed again by this process
    atomic_write_bytes(tmp_path / "test.trees", b"(TOP (NN y))\n")
    assert stale.exists()


def test_a_probe_file_of_a_killed_run_is_removed_by_the_next_check(tmp_path: Path) -> None:
    """The check that a folder can be written creates a probe file and removes it; killed (SIGKILL) between the two,
    a run left ``.glmnlp-probe-XXXX`` in the user's folder for good. The probe is named as a temporary file now, and
    the check removes those of processes that no longer run, as the writes do."""
    from glmnlp.treebank.fileio import check_writable_folder

    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    stale = tmp_path / f".probe.glmnlp-tmp-{int(dead.stdout)}-abc.tmp"
    stale.write_text("")
    check_writable_folder(tmp_path / "model")
    assert list(tmp_path.iterdir()) == []


def test_a_model_folder_made_by_another_run_meanwhile_is_refused_naming_force(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
) -> None:
    """Two runs training into the same new ``--out``: the one that saves second was refused with "use replace=True",
    the library's keyword, where the command's option is ``--force``; the library still says replace=True."""
    from glmnlp.cli import main
    from glmnlp.errors import ConfigError
    from glmnlp.glm.model_io import save_model
    from glmnlp.tagger import model

    fit = model.Tagger.fit

    def fit_while_another_run_writes(self, *args, **kwargs):  # type: ignore[no-untyped-def]
        save_model(tmp_path / "m", kind="tagger", metadata={"run": "the other"}, arrays={})
        return fit(self, *args, **kwargs)

    monkeypatch.setattr(model.Tagger, "fit", fit_while_another_run_writes)
    train = tmp_path / "t.word_tag"
    train.write_text("The/DT dog/NN barked/VBD ./.\n")
    capsys.readouterr()
    assert main(["tagger", "train", "--train", str(train), "--out", str(tmp_path / "m"), "--epochs", "1",
                 "-j", "1", "-q"]) == 1
    assert capsys.readouterr().err == (f"error: {tmp_path / 'm'}: already exists and is not an empty directory (use "
                                       "--force to replace it)\n")
    with pytest.raises(ConfigError, match=r"\(use replace=True to replace it\)"):
        save_model(tmp_path / "m", kind="tagger", metadata={}, arrays={}, replace=False)


def test_parse_refuses_an_input_among_the_drawings_it_would_replace(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``parse --format svg --out-dir D -i D/sentence-0003.svg``: the input, named as a drawing, was removed as an
    earlier run's drawing, and the text was lost (status 0). Refused now, from -i or from stdin, nothing touched: the
    usage error of every output that would replace an input (status 2, glmnlp.cli._paths), before the model is read
    (a missing one is not reached)."""
    from glmnlp.cli import main

    out = tmp_path / "svg"
    out.mkdir()
    text = out / "sentence-0003.svg"
    text.write_text("The dog barked.\n\nA cat sat.\n")
    capsys.readouterr()
    missing = ["-m", str(tmp_path / "no_model")]
    assert main(["parse", "-q", "-j", "1", "--format", "svg", "--out-dir", str(out), "-i", str(text), *missing]) == 2
    assert capsys.readouterr().err.endswith(f"Error: Invalid value for '--out-dir': {text} is the --input file: a "
                                            "drawing would replace the text; write the drawings elsewhere\n")
    with text.open("rb") as handle:
        monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(handle))
        assert main(["parse", "-q", "-j", "1", "--format", "svg", "--out-dir", str(out), *missing]) == 2
    assert capsys.readouterr().err.endswith(f"Error: Invalid value for '--out-dir': {text} is standard input's file: "
                                            "a drawing would replace the text; write the drawings elsewhere\n")
    assert [p.name for p in out.iterdir()] == ["sentence-0003.svg"] and text.read_text().startswith("The dog")


def test_parse_refuses_a_linked_out_dir_as_a_link_whatever_the_input(
    tmp_path: Path, capsys: pytest.CaptureFixture[str],
) -> None:
    """``--out-dir E`` (a link to D) with ``-i D/sentence-0001.svg`` said ``E/sentence-0001.svg is the --input file``
    (status 2) where ``E: exists and is not a directory`` holds whatever the input: the folder is checked first."""
    from glmnlp.cli import main

    out = tmp_path / "D"
    out.mkdir()
    text = out / "sentence-0001.svg"
    text.write_text("The dog barked.\n")
    (tmp_path / "E").symlink_to(out, target_is_directory=True)
    capsys.readouterr()
    assert main(["parse", "-q", "-j", "1", "--format", "svg", "--out-dir", str(tmp_path / "E"), "-i", str(text)]) == 1
    assert capsys.readouterr().err == f"error: {tmp_path / 'E'}: exists and is not a directory (--out-dir)\n"
    assert [p.name for p in out.iterdir()] == ["sentence-0001.svg"] and text.read_text() == "The dog barked.\n"


def test_an_output_file_made_read_only_is_not_replaced(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    """``chmod 444 ro.trees; glmnlp data --clean x --out ro.trees`` replaced it (the rename needs only its folder's
    permission), where the shell's ``>`` and ``cp`` refuse it, and a read-only model folder is refused. Refused now;
    the file is as it was. (As root every file is writable, so ``os.access`` stands in for a user's here, and a
    subprocess without root's privileges runs when ``setpriv`` can drop them.)"""
    import shutil

    from glmnlp.treebank import fileio

    source = tmp_path / "in.mrg"
    source.write_text("(TOP (S (NP (DT The) (NN dog)) (VP (VBD barked))))\n", encoding="utf-8")
    precious = tmp_path / "ro.trees"
    precious.write_text("precious\n", encoding="utf-8")
    precious.chmod(0o444)
    real = os.access
    monkeypatch.setattr(fileio.os, "access", lambda p, m, **k: m != os.W_OK if Path(p) == precious else real(p, m, **k))
    assert main(["data", "--clean", str(source), "--out", str(precious)]) == 1
    assert "ro.trees: cannot be written: Permission denied (the file is read-only)" in capsys.readouterr().err
    assert precious.read_text(encoding="utf-8") == "precious\n"
    monkeypatch.undo()
    if os.geteuid() == 0 and shutil.which("setpriv"):
        run = subprocess.run(["setpriv", "--bounding-set=-all", "--inh-caps=-all", "--", sys.executable, "-c",
                              "import sys; from glmnlp.cli import main; sys.exit(main())", "data", "--clean",
                              str(source), "--out", str(precious)], capture_output=True, text=True, timeout=120)
        assert run.returncode == 1 and precious.read_text(encoding="utf-8") == "precious\n", run.stderr


@pytest.mark.parametrize("signum", ["SIGINT", "SIGTERM", "SIGHUP"])
def test_a_signal_between_the_renames_of_a_replacement_leaves_a_model_in_place(
    tmp_path: Path, trees_file: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, signum: str,
) -> None:
    """``--force`` renames the model aside, then the new one into its place; a Ctrl-C, SIGTERM or SIGHUP between the
    two renames left the user's model under a hidden name only (``.m.glmnlp-old-PID-...``) and nothing at ``m``.
    The signal is sent here by the first rename itself: it takes effect once the swap is done."""
    import signal

    out = tmp_path / "m"
    base = ["tagger", "train", "--train", str(trees_file), "--out", str(out), "--quiet"]
    assert main([*base, "--epochs", "1"]) == 0
    rename = os.rename
    signalled: list[str] = []

    def rename_then_signal(src: str | Path, dst: str | Path) -> None:
        rename(src, dst)
        if Path(src) == out and ".glmnlp-old-" in str(dst) and not signalled:
            signalled.append(str(dst))
            os.kill(os.getpid(), getattr(signal, signum))

    monkeypatch.setattr(model_io.os, "rename", rename_then_signal)
    # a run under nohup ignores SIGHUP, and the command leaves an ignored SIGHUP ignored, as it should: the signal
    # would end nothing, so the test gives it its default action first (the case of a terminal that closes)
    ignored = signal.getsignal(getattr(signal, signum)) is signal.SIG_IGN
    if ignored:
        signal.signal(getattr(signal, signum), signal.SIG_DFL)
    try:
        rc = main([*base, "--epochs", "2", "--force"])
    finally:
        if ignored:
            signal.signal(getattr(signal, signum), signal.SIG_IGN)
    assert signalled and rc == {"SIGINT": 1, "SIGTERM": 143, "SIGHUP": 129}[signum]
    assert "Aborted." in capsys.readouterr().err
    assert load_model(out, kind="tagger")[0]["config"]["epochs"] == 2  # the swap was done before the signal
    assert sorted(p.name for p in tmp_path.iterdir()) == ["m", "toy.trees"]  # nothing hidden left


def test_a_model_replaced_through_a_path_that_passes_through_it_stays_in_place(tmp_path: Path,
                                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """``--out m/../m --force``: the folder holding the model was reached through the model itself, gone once it was
    renamed aside, so the new model could not be renamed in nor the old one back: both were left under hidden names
    and nothing was at ``m`` ("cannot be written: No such file or directory"). The new model is in place."""
    monkeypatch.chdir(tmp_path)
    save_model("m", kind="parser", metadata=META, arrays=ARRAYS)
    save_model("m/../m", kind="parser", metadata={"v": 2}, arrays=ARRAYS, replace=True)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["m"] and load_model("m", kind="parser")[0] == {"v": 2}


def test_leftovers_of_a_model_whose_name_holds_a_newline_are_cleaned(tmp_path: Path) -> None:
    """The leftovers' pattern read no newline (``.`` without DOTALL): a killed run's folders of a model named so were
    never removed, nor a model it had renamed aside put back; and a file's temporary copy likewise."""
    from glmnlp.treebank.fileio import atomic_write_bytes

    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    pid = int(dead.stdout)
    (tmp_path / f".a\nb.glmnlp-tmp-{pid}-abc123").mkdir()
    (tmp_path / f".c\nd.glmnlp-tmp-{pid}-abc.tmp").write_text("half a file")
    save_model(tmp_path / "a\nb", kind="parser", metadata=META, arrays=ARRAYS)
    atomic_write_bytes(tmp_path / "c\nd", b"whole\n")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a\nb", "c\nd"]


def test_a_path_through_a_missing_folder_is_checked_as_the_folder_it_names(tmp_path: Path,
                                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    """``--out nodir/../m``: before ``nodir`` exists the path names nothing, and a save that took the folder holding
    it by its name on paper (``m``) renamed a user's ``m`` aside and deleted it, unchecked. It is checked as ``m``
    once ``nodir`` is made: refused, nothing of the user's touched."""
    monkeypatch.chdir(tmp_path)
    before = _user_folder(tmp_path / "m")
    with pytest.raises(ConfigError, match="is not a glmnlp model"):
        save_model("nodir/../m", kind="parser", metadata=META, arrays=ARRAYS)
    assert snapshot(tmp_path / "m") == before
    save_model("m2", kind="parser", metadata=META, arrays=ARRAYS)
    with pytest.raises(ConfigError, match="already exists and is not an empty"):  # not replaced without replace
        save_model("nodir2/../m2", kind="parser", metadata={"v": 2}, arrays=ARRAYS, replace=False)
    assert load_model("m2", kind="parser")[0] == META
