"""docs/cli.md and ``--help`` agree: every option of every command is documented, and nothing else."""

from __future__ import annotations

import re
from pathlib import Path

import click
import pytest

from glmnlp.cli import cli

DOCS = Path(__file__).resolve().parent.parent / "docs"


def _commands(group: click.Group, prefix: tuple[str, ...] = ()) -> dict[tuple[str, ...], click.Command]:
    out: dict[tuple[str, ...], click.Command] = {}
    for name, command in group.commands.items():
        path = (*prefix, name)
        if isinstance(command, click.Group):
            out.update(_commands(command, path))
        else:
            out[path] = command
    return out


def _sections() -> dict[str, str]:
    """Heading text -> section body of every docs/*.md section titled with a `glmnlp ...` command."""
    sections: dict[str, str] = {}
    for page in sorted(DOCS.glob("*.md")):
        text = page.read_text(encoding="utf-8")
        for match in re.finditer(r"^#+ ([^\n]*`glmnlp [^`]+`[^\n]*)\n(.*?)(?=^#+ |\Z)", text, re.S | re.M):
            sections[match.group(1)] = match.group(2)
    return sections


def _documented(path: tuple[str, ...], sections: dict[str, str]) -> set[str] | None:
    name = "glmnlp " + " ".join(path)
    bodies = [body for heading, body in sections.items() if f"`{name}`" in heading]
    if not bodies:
        return None
    return set(re.findall(r"(?<![\w-])--[a-z][a-z0-9-]*", "\n".join(bodies))) - {"--help"}


COMMANDS = _commands(cli)


@pytest.mark.parametrize("path", sorted(COMMANDS), ids=" ".join)
def test_cli_docs_list_exactly_the_options_of_help(path: tuple[str, ...]) -> None:
    """The command's section in docs/ names every long option that --help lists, and no other."""
    command = COMMANDS[path]
    options = {opt for param in command.params if isinstance(param, click.Option)
               for opt in (*param.opts, *param.secondary_opts) if opt.startswith("--")} - {"--help"}
    documented = _documented(path, _sections())
    assert documented is not None, f"no docs section for glmnlp {' '.join(path)}"
    assert sorted(options - documented) == [], "options missing from the docs"
    assert sorted(documented - options) == [], "documented options that --help does not have"


def test_cli_help_lists_parse_first() -> None:
    """The top-level --help shows the main job, parse, first."""
    from click.testing import CliRunner

    out = CliRunner().invoke(cli, ["--help"]).output
    listed = re.findall(r"^  ([a-z][a-z-]*)\s", out.split("Commands:")[1], re.M)
    assert listed[0] == "parse" and sorted(listed) == sorted(cli.commands)


@pytest.mark.parametrize("path", sorted(p for p, c in COMMANDS.items()
                                        if any("--model" in getattr(q, "opts", ()) for q in c.params)), ids=" ".join)
def test_cli_short_options_are_the_same_everywhere(path: tuple[str, ...]) -> None:
    """A command that reads a model takes it as ``-m`` too, as ``glmnlp parse`` does (``tag``, ``measures`` and
    ``tagger evaluate`` took only ``--model``), and its docs section shows the short form."""
    (option,) = [q for q in COMMANDS[path].params if "--model" in getattr(q, "opts", ())]
    assert "-m" in option.opts
    bodies = [body for heading, body in _sections().items() if f"`glmnlp {' '.join(path)}`" in heading]
    assert any(re.search(r"(?<![\w-])-m\b", body) for body in bodies)
