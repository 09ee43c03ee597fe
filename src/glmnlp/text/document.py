"""The document model returned by the pipeline: a text, its sentences, their tokens and trees.

A :class:`Document` is what :class:`glmnlp.text.pipeline.Pipeline` produces from raw or pre-tokenised
text and what every output format in :mod:`glmnlp.text.render` consumes. The records are frozen
dataclasses with tuple fields, like :class:`glmnlp.treebank.trees.Tree`, so a document can be shared and
cached without defensive copies.

Choices [R]:

* ``Token.text`` is the PTB token the models saw (``-LRB-``, ````` ``, ``n't``); ``start``/``end``
  are the ``[start, end)`` offsets of the original characters in ``Document.text`` (``(``,
  ``"``, ``n't``), or ``None`` for pre-tokenised input, which has no original text.
* A sentence's tree, when present, must have the sentence's tokens as its leaves; constructing a
  :class:`Sentence` whose tree disagrees raises ``ValueError`` rather than storing a document
  that no output format could print consistently.
* The dictionary / JSON form (:meth:`Document.to_dict`) stores each tree as its one-line bracket
  string, the format EVALB and every treebank tool read, and :meth:`Document.from_dict` reads it
  back exactly (tested as a round trip). It carries a ``"format"`` tag and a version, and a
  dictionary with another format or version is rejected with :class:`~glmnlp.errors.FormatError`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from glmnlp.errors import FormatError, TreeSyntaxError
from glmnlp.treebank.trees import Tree, parse_tree, to_bracket

__all__ = ["Document", "Sentence", "Token", "tree_to_nltk", "tree_from_nltk"]

DOCUMENT_FORMAT = "glmnlp.text.document"
DOCUMENT_VERSION = 1


@dataclass(frozen=True, slots=True)
class Token:
    """One PTB token: its text, its POS tag (if tagged) and its offsets in the document text."""

    text: str
    tag: str | None = None
    start: int | None = None
    end: int | None = None

    def __post_init__(self) -> None:
        if not self.text or any(ch.isspace() for ch in self.text):
            raise ValueError(f"token text must be non-empty and without whitespace: {self.text!r}")
        if (self.start is None) != (self.end is None):
            raise ValueError(f"token {self.text!r}: give both start and end offsets, or neither")
        if self.start is not None and self.end is not None and not 0 <= self.start <= self.end:
            raise ValueError(f"token {self.text!r}: bad offsets [{self.start}, {self.end})")


@dataclass(frozen=True, slots=True)
class Sentence:
    """A sentence: its tokens, its parse tree (or ``None``) and the parser's score (or ``None``)."""

    tokens: tuple[Token, ...]
    tree: Tree | None = None
    score: float | None = None

    def __post_init__(self) -> None:
        if not isinstance(self.tokens, tuple):
            object.__setattr__(self, "tokens", tuple(self.tokens))
        if not self.tokens:
            raise ValueError("a sentence needs at least one token")
        if self.tree is not None:
            leaves = self.tree.leaves()
            words = [tok.text for tok in self.tokens]
            if leaves != words:
                raise ValueError(f"tree leaves {leaves} differ from the sentence tokens {words}")

    @property
    def words(self) -> list[str]:
        """The token texts."""
        return [tok.text for tok in self.tokens]

    @property
    def tags(self) -> list[str | None]:
        """The POS tags (``None`` where untagged)."""
        return [tok.tag for tok in self.tokens]

    @classmethod
    def from_tree(cls, tree: Tree, score: float | None = None) -> Sentence:
        """A sentence whose tokens and tags are the tree's preterminals."""
        return cls(tuple(Token(word, tag) for word, tag in tree.pos()), tree, score)

    @classmethod
    def from_words(cls, words: Iterable[str], tags: Iterable[str] | None = None) -> Sentence:
        """An unparsed sentence from words (and optionally one tag per word)."""
        words = list(words)
        if tags is None:
            return cls(tuple(Token(w) for w in words))
        tags = list(tags)
        if len(tags) != len(words):
            raise ValueError(f"{len(words)} words but {len(tags)} tags")
        return cls(tuple(Token(w, t) for w, t in zip(words, tags)))

    def to_bracket(self) -> str | None:
        """The tree as one-line brackets, or ``None`` when the sentence is not parsed."""
        return None if self.tree is None else to_bracket(self.tree)

    def to_nltk(self) -> Any:
        """The tree as an ``nltk.Tree`` (needs the optional ``nltk`` package)."""
        if self.tree is None:
            raise ValueError("this sentence has no tree (it was not parsed)")
        return tree_to_nltk(self.tree)


@dataclass(frozen=True, slots=True)
class Document:
    """A text and its analysed sentences. ``text`` is ``""`` for pre-tokenised input."""

    text: str
    sentences: tuple[Sentence, ...] = field(default=())

    def __post_init__(self) -> None:
        if not isinstance(self.sentences, tuple):
            object.__setattr__(self, "sentences", tuple(self.sentences))
        for i, sent in enumerate(self.sentences):
            for tok in sent.tokens:
                if tok.end is not None and tok.end > len(self.text):
                    raise ValueError(
                        f"sentence {i + 1}: token {tok.text!r} ends at {tok.end}, "
                        f"past the end of the text ({len(self.text)} characters)"
                    )

    @property
    def trees(self) -> list[Tree | None]:
        """Each sentence's tree (``None`` for unparsed sentences)."""
        return [sent.tree for sent in self.sentences]

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dictionary; :meth:`from_dict` reads it back exactly."""
        return {
            "format": DOCUMENT_FORMAT,
            "version": DOCUMENT_VERSION,
            "text": self.text,
            "sentences": [
                {
                    "tokens": [
                        {"text": t.text, "tag": t.tag, "start": t.start, "end": t.end}
                        for t in sent.tokens
                    ],
                    "tree": sent.to_bracket(),
                    "score": sent.score,
                }
                for sent in self.sentences
            ],
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], source: str = "<dict>") -> Document:
        """Rebuild a document from :meth:`to_dict` output; raise ``FormatError`` when malformed."""
        if data.get("format") != DOCUMENT_FORMAT:
            raise FormatError(f"not a glmnlp document (format {data.get('format')!r})", source=source)
        if data.get("version") != DOCUMENT_VERSION:
            raise FormatError(
                f"unsupported document version {data.get('version')!r} (expected {DOCUMENT_VERSION})",
                source=source,
            )
        text = data.get("text")
        if not isinstance(text, str) or not isinstance(data.get("sentences"), Sequence):
            raise FormatError("'text' must be a string and 'sentences' a list", source=source)
        sentences: list[Sentence] = []
        for i, raw in enumerate(data["sentences"], start=1):
            where = f"sentence {i}"
            try:
                tokens = tuple(
                    Token(t["text"], t.get("tag"), t.get("start"), t.get("end")) for t in raw["tokens"]
                )
                bracket = raw.get("tree")
                tree = None if bracket is None else parse_tree(bracket, source=f"{source} {where}")
                sentences.append(Sentence(tokens, tree, raw.get("score")))
            except TreeSyntaxError:
                raise
            except (KeyError, TypeError, ValueError) as exc:
                raise FormatError(f"{where}: {exc}", source=source) from None
        try:
            return cls(text, tuple(sentences))
        except ValueError as exc:
            raise FormatError(str(exc), source=source) from None


def _import_nltk() -> Any:
    try:
        import nltk
    except ImportError:
        raise ImportError(
            "converting to nltk.Tree needs the optional nltk package: pip install 'glmnlp[nltk]'"
        ) from None
    return nltk


def tree_to_nltk(tree: Tree) -> Any:
    """Convert a :class:`~glmnlp.treebank.trees.Tree` to an ``nltk.Tree`` (slash labels print as ``A/B``)."""
    nltk = _import_nltk()

    def convert(node: Tree) -> Any:
        children = [c if isinstance(c, str) else convert(c) for c in node.children]
        return nltk.Tree(node.display_label, children)

    return convert(tree)


def tree_from_nltk(tree: Any) -> Tree:
    """Convert an ``nltk.Tree`` back to a :class:`~glmnlp.treebank.trees.Tree` (labels kept verbatim)."""
    nltk = _import_nltk()
    if not isinstance(tree, nltk.Tree):
        raise TypeError(f"expected nltk.Tree, got {type(tree).__name__}")

    def convert(node: Any) -> Tree:
        children = tuple(c if isinstance(c, str) else convert(c) for c in node)
        return Tree(str(node.label()), children)

    return convert(tree)
