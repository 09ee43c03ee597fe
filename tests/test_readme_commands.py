"""Every shell example in README.md runs as shown, with the bundled model, from a fresh folder.

The examples are read from README.md itself (indented lines that start with ``glmnlp``, ``echo ... |
glmnlp`` or ``pip install . && glmnlp``), so an example that is edited or added is tested as written.
The input files they name (story.txt, tokens.txt, train.trees, ...) are made here, small. Not run:
installation lines, and the ones :data:`NOT_RUN` names, each with its reason.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from glmnlp.treebank.corpus import sample_files, sample_trees
from glmnlp.treebank.formats import TaggedSentence, write_conllu
from glmnlp.treebank.trees import to_bracket

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
#: README examples that are not run here, and why.
NOT_RUN = {
    "glmnlp train-default": "trains the bundled model on PTB + GUM (an hour on 2 cores; GUM is not in the repository)",
}


def readme_commands() -> list[str]:
    """The shell examples of README.md, with their trailing ``# comments`` removed."""
    out = []
    for line in README.read_text(encoding="utf-8").splitlines():
        if not line.startswith("    ") or line.startswith("     "):
            continue
        command = re.sub(r"\s{2,}#.*$", "", line.strip())
        command = command.removeprefix("pip install . && ")  # the quick start: the package is installed
        runnable = command.startswith("glmnlp ") or re.match(r"echo .*\| glmnlp ", command)
        if runnable and not any(command.startswith(prefix) for prefix in NOT_RUN):
            out.append(command)
    return out


COMMANDS = readme_commands()


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder holding every input file the examples name."""
    where = tmp_path_factory.mktemp("readme")
    trees = sample_trees("train")
    (where / "train.trees").write_text("".join(to_bracket(t) + "\n" for t in trees[:40]), encoding="utf-8")
    (where / "dev.trees").write_text("".join(to_bracket(t) + "\n" for t in trees[40:50]), encoding="utf-8")
    tagged = [TaggedSentence(tuple(t.leaves()), tuple(t.tags())) for t in trees[:60]]
    (where / "train.conllu").write_text(write_conllu(tagged[:50]), encoding="utf-8")
    (where / "dev.conllu").write_text(write_conllu(tagged[50:]), encoding="utf-8")
    (where / "story.txt").write_text("A dog barked. Then the cat ran away.\n", encoding="utf-8")
    (where / "tokens.txt").write_text("The cat sat on the mat .\nIt purred .\n", encoding="utf-8")
    (where / "corpus.txt").write_text("The market fell.\nShares rose sharply on Monday.\n", encoding="utf-8")
    for raw in sample_files("train")[:2]:  # raw treebank files, as a user's own would be
        (where / raw.name).write_bytes(raw.read_bytes())
    return where


def _run(command: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, PATH=os.pathsep.join([str(Path(sys.executable).parent), os.environ.get("PATH", "")]))
    return subprocess.run(["bash", "-o", "pipefail", "-c", command], cwd=cwd, env=env, capture_output=True,
                          text=True, timeout=600)


def test_readme_lists_the_examples_this_file_runs() -> None:
    """The reader finds the quick-start, output, measures and parallel examples (a broken reader finds none)."""
    assert 'glmnlp parse "The old man saw the dog with a telescope."' in COMMANDS
    assert any("--backend ray" in c for c in COMMANDS) and any(c.startswith("echo ") for c in COMMANDS)
    assert len(COMMANDS) >= 10


@pytest.mark.parametrize("command", COMMANDS)
def test_readme_example_runs(command: str, folder: Path) -> None:
    """The example exits 0 without a traceback, and what it redirects to a file is not empty."""
    if "--backend ray" in command:
        pytest.importorskip("ray")
    result = _run(command, folder)
    assert result.returncode == 0, result.stderr[-2000:]
    assert "Traceback" not in result.stderr
    target = re.search(r">\s*(\S+)\s*$", command)
    if target:
        assert (folder / target.group(1)).stat().st_size > 0
    elif "--out-dir" not in command and "--out " not in command:
        assert result.stdout.strip()


def test_readme_first_command_prints_the_tree_it_shows(folder: Path) -> None:
    """The quick start's output is the tree printed under it in README.md."""
    text = README.read_text(encoding="utf-8")
    shown = re.search(r"The first command prints one Penn Treebank tree per sentence:\n\n    (\(TOP .*\))\n", text)
    assert shown is not None
    result = _run('glmnlp parse "The old man saw the dog with a telescope."', folder)
    assert result.stdout.strip() == shown.group(1)
