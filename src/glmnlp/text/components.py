"""What a :class:`~glmnlp.text.pipeline.Pipeline` is made of: the two one-method protocols of its components, a
component built on first use (:class:`Deferred`), and :data:`UNCHANGED`, the default of ``Pipeline.replace``.

Split from glmnlp.text.pipeline (whose module docstring gives the choices: "Optional components", "Loading on first
use"), which re-exports these names, to keep it within the package's 600 lines a module.

Our choices
-----------
* **A sentinel for "unchanged".** ``Pipeline.replace`` takes each field it may change as a keyword-only parameter
  (it took ``**changes``, which help() and type checkers could not see); ``None`` is a value of two of them (no
  tagger, no multi-tag margin), so "keep this pipeline's" is :data:`UNCHANGED`, the one member of an enum (a type
  checker narrows it away by ``isinstance``, and help() prints it as ``UNCHANGED``).
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

from glmnlp.treebank.trees import Tree

__all__ = ["UNCHANGED", "Deferred", "ParserProtocol", "TaggerProtocol", "Unchanged"]


@runtime_checkable
class TaggerProtocol(Protocol):
    """What the pipeline needs of a tagger: one tag per word."""

    def tag(self, words: list[str]) -> list[str]:
        """Return the POS tag of each word."""


@runtime_checkable
class ParserProtocol(Protocol):
    """What the pipeline needs of a parser: a de-transformed PTB tree over the given words. ``tags`` holds one tag
    per word, or (multi-tag input, C&R 2004 footnote 3; only used when the pipeline has a ``multitag_margin``) a
    list of candidate tags per word."""

    def parse(self, words: list[str], tags: Sequence[str | Sequence[str]]) -> Tree:
        """Return the best tree; its leaves must be ``words``."""
        ...


@dataclass(frozen=True)
class Deferred:
    """A model component that a :class:`Pipeline` builds on first use, by ``loader(*args)``. ``facts`` answer,
    without building it, what the pipeline asks of a component before analysing anything: for a parser
    ``generative``, ``parse_nbest`` and ``pos_tags`` (:meth:`glmnlp.parser.model.Parser.describe`), for a tagger
    ``multitag`` (:meth:`glmnlp.tagger.model.Tagger.describe`). See "Loading on first use" in the module docstring."""

    loader: Callable[..., Any]
    args: tuple[Any, ...]
    facts: Mapping[str, Any] = field(default_factory=dict)

    def __repr__(self) -> str:  # the folder, not the loader's bound method and the folder's identity (473 characters)
        return f"<not built yet: {next((str(a) for a in self.args if hasattr(a, '__fspath__')), self.loader)}>"


class Unchanged(enum.Enum):
    """The type of :data:`UNCHANGED`: a parameter of ``Pipeline.replace`` left as the pipeline has it."""

    UNCHANGED = "unchanged"

    def __repr__(self) -> str:  # help(Pipeline.replace) shows "tagger=UNCHANGED", not "<Unchanged.UNCHANGED: ...>"
        return "UNCHANGED"


#: The default of every parameter of ``Pipeline.replace``: keep the pipeline's own value
UNCHANGED = Unchanged.UNCHANGED
