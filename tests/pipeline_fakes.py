"""Stand-in tagger and parser objects for the pipeline tests (no trained model needed)."""

from __future__ import annotations

import sys
import types
from collections.abc import Sequence
from pathlib import Path

import pytest

from glmnlp.treebank.trees import Tree


class FakeTagger:
    """Tags by shape: punctuation '.', capitalised 'NNP', everything else 'NN'; logs its calls."""

    def __init__(self) -> None:
        self.calls: list[list[str]] = []

    def tag(self, words: list[str]) -> list[str]:
        self.calls.append(list(words))
        return ["." if not w[0].isalnum() else "NNP" if w[0].isupper() else "NN" for w in words]

    def multitag(self, words: list[str], margin: float) -> list[list[str]]:
        return [[tag, "XX"] for tag in self.tag(words)]


class FakeParser:
    """Builds (TOP (S preterminals)) from the first candidate tag of each word; logs its inputs."""

    def __init__(self) -> None:
        self.calls: list[tuple[list[str], list]] = []

    def parse(self, words: list[str], tags: Sequence[str | Sequence[str]]) -> Tree:
        self.calls.append((list(words), list(tags)))
        first = [t if isinstance(t, str) else t[0] for t in tags]
        return Tree("TOP", (Tree("S", tuple(Tree(t, (w,)) for w, t in zip(words, first))),))


def fake_model_modules(monkeypatch: pytest.MonkeyPatch, seen: list[Path],
                       described: list[Path] | None = None) -> None:
    """glmnlp.tagger and glmnlp.parser replaced by modules whose Tagger/Parser load the fakes, noting each path."""
    class Loader:
        def __init__(self, kind: str) -> None:
            self.kind = kind

        def load(self, path: Path) -> object:
            seen.append(Path(path))
            return FakeTagger() if self.kind == "tagger" else FakeParser()

        def describe(self, path: Path) -> dict[str, object]:
            if described is not None:
                described.append(Path(path))
            return {"multitag": False} if self.kind == "tagger" else {"generative": False, "parse_nbest": False,
                                                                       "pos_tags": None}

    for kind, cls in (("tagger", "Tagger"), ("parser", "Parser")):
        module = types.ModuleType(f"glmnlp.{kind}")
        setattr(module, cls, Loader(kind))
        monkeypatch.setitem(sys.modules, f"glmnlp.{kind}", module)
