"""Word classes for the word-by-word measures: open class, closed class, or belongs to the previous token.

The reference parser of Roark et al. (2009) marks each word as open class, closed class (its list)
or "belonging to the previous token" (punctuation, contractions, end of string), and averages its
measures per class. :class:`WordClasses` does the same from two packaged files
(``glmnlp/data/measures/word_classes.tsv`` and ``word_class_rules.tsv``), either replaceable.
Used by :mod:`glmnlp.parser.measures`.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from importlib import resources
from pathlib import Path

from glmnlp.errors import FormatError
from glmnlp.treebank.fileio import read_text_file, split_lines
from glmnlp.treebank.trees import PTB_APOSTROPHES

__all__ = ["EOS", "WordClasses"]

EOS = "</s>"


class WordClasses:
    """Open class / closed class / belongs-to-previous, from a word list and a list of rules.

    The list (default: ``glmnlp/data/measures/word_classes.tsv``) has one ``word<TAB>class`` per
    line, class ``closed``, ``previous`` or ``open``, ``#`` comments allowed (but ``#<TAB>class``, the entry of the
    pound sign); lookups ignore case.
    A word is looked up lowercased, its typographic apostrophes (``’``) as ``'``.
    Words not listed go through the rules (default: ``glmnlp/data/measures/word_class_rules.tsv``),
    one ``pattern<TAB>class`` per line, first match wins: a pattern is a Python regular expression
    that must match the whole lowercased word, or ``:punctuation:`` (every character a Unicode
    punctuation mark). The default rules make punctuation, PTB bracket tokens (``-LRB-``) and clitics
    (``n't``, ``'s``, ``'ll``...) ``previous``. Anything else is ``open``; ``</s>`` is ``previous``.
    """

    def __init__(self, entries: dict[str, str], rules: Sequence[tuple[str, str]] | None = None) -> None:
        bad = {c for c in entries.values() if c not in ("closed", "previous", "open")}
        bad |= {c for _, c in rules or () if c not in ("closed", "previous", "open")}
        if bad:
            raise ValueError(f"word classes must be open, closed or previous, got {sorted(bad)}")
        self.entries = {w.lower().translate(_APOSTROPHES): c for w, c in entries.items()}
        if rules is None:
            rules = _parse_rules(_data_text("word_class_rules.tsv"), "glmnlp/data/measures/word_class_rules.tsv")
        self.rules = [(None if pat == ":punctuation:" else re.compile(pat), cls) for pat, cls in rules]

    @classmethod
    def default(cls) -> WordClasses:
        """The list and rules shipped with the package (read once)."""
        global _DEFAULT_CLASSES
        if _DEFAULT_CLASSES is None:
            _DEFAULT_CLASSES = cls(_parse_classes(_data_text("word_classes.tsv"), "glmnlp/data/measures/word_classes.tsv"))
        return _DEFAULT_CLASSES

    @classmethod
    def from_file(cls, path: str | Path | None = None, rules: str | Path | None = None) -> WordClasses:
        """A list and/or rules in the same formats; each replaces the packaged one (None: keep it)."""
        entries = (_parse_classes(_data_text("word_classes.tsv"), "glmnlp/data/measures/word_classes.tsv")
                   if path is None else _parse_classes(_read(path), str(path)))
        return cls(entries, None if rules is None else _parse_rules(_read(rules), str(rules)))

    def __call__(self, word: str) -> str:
        """``open``, ``closed`` or ``previous`` (the ``</s>`` row of the measures is ``previous`` by its place, not by
        this: a word ``</s>`` in the text is a word)."""
        low = word.lower().translate(_APOSTROPHES)  # n’t as n't: raw text is normalised so, given tokens are not
        found = self.entries.get(low)
        if found is not None:
            return found
        for pattern, cls in self.rules:
            if pattern is None:
                if all(unicodedata.category(ch).startswith("P") for ch in word):
                    return cls
            elif pattern.fullmatch(low):
                return cls
        return "open"


_DEFAULT_CLASSES: WordClasses | None = None
#: Typographic apostrophes read as ``'`` when a word is looked up: ``n’t`` and ``she’d`` of pre-tokenised stimuli
#: were ``open``, ``n't`` and ``'d`` ``previous``.
_APOSTROPHES = PTB_APOSTROPHES


def _data_text(name: str) -> str:
    return resources.files("glmnlp").joinpath(f"data/measures/{name}").read_text("utf-8")


def _read(path: str | Path) -> str:
    """The file's text as every reader reads it: without a byte order mark (it was part of the first word, whose
    entry was lost), an InputError at file:line for text that is not UTF-8
    (:func:`glmnlp.treebank.fileio.read_text_file`)."""
    return read_text_file(path)


_CLASSES = ("closed", "previous", "open")


def _comment(line: str, parts: list[str]) -> bool:
    """A blank line, or one that begins with ``#`` but for the entry of the PTB's pound sign itself, ``#<TAB>class``
    (the packaged list's ``#<TAB>open`` was read as a comment, and ``#`` took the punctuation rule's class); a
    commented-out entry, ``#that<TAB>closed``, stays a comment."""
    return not line.strip() or line.lstrip().startswith("#") and not (parts[0] == "#" and len(parts) == 2
                                                                      and parts[1] in _CLASSES)


def _parse_rules(text: str, where: str) -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    for number, line in enumerate(split_lines(text), start=1):
        line = line.rstrip("\n")
        parts = line.split("\t")
        if _comment(line, parts):
            continue
        if len(parts) != 2 or parts[1] not in _CLASSES or not parts[0]:
            raise FormatError(f"expected 'pattern<TAB>closed|previous|open', got {line!r}", source=where, line=number)
        if parts[0] != ":punctuation:":
            try:
                re.compile(parts[0])
            except re.error as exc:
                raise FormatError(f"bad regular expression {parts[0]!r}: {exc}", source=where, line=number) from None
        out.append((parts[0], parts[1]))
    return out


def _parse_classes(text: str, where: str) -> dict[str, str]:
    """The list's entries; a word listed again with another class (lookups ignore case: ``A closed`` and ``a open``)
    is a FormatError naming both lines, where the last silently won."""
    out: dict[str, str] = {}
    first: dict[str, tuple[int, str]] = {}
    for number, line in enumerate(split_lines(text), start=1):
        line = line.strip()
        parts = line.split("\t")
        if _comment(line, parts):
            continue
        if len(parts) != 2 or parts[1] not in _CLASSES or not parts[0]:
            raise FormatError(f"expected 'word<TAB>closed|previous|open', got {line!r}", source=where, line=number)
        key = parts[0].lower().translate(_APOSTROPHES)
        if key in first and first[key][1] != parts[1]:
            raise FormatError(f"{parts[0]!r} is {parts[1]} here and {first[key][1]} at line {first[key][0]} (the "
                              "list ignores case)", source=where, line=number)
        first.setdefault(key, (number, parts[1]))
        out[parts[0]] = parts[1]
    return out
