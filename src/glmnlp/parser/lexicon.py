"""Word lexicon of the generative model: word normalisation, rare words and unknown-word classes.

Follows ``find_nword()`` / ``make_unkcat()`` of Roark's parser (the parser of Roark 2001, 2004): the
word model predicts a word id given its POS node. Words are interned here; a word never seen in training is scored
through its *unknown-word class*, whose estimates come from the rare training tokens: a rare
token is counted as itself at every level of the word model and, in addition, as its class at
the coarsest level only (glmnlp.parser.generative_training does the counting; this module decides who is rare
and which class a word belongs to).

Rules (those of Roark's parser; the details are our choices):

* **Lowercasing.** A POS tag is *capitalised* if more than 90% of its non-sentence-initial
  training tokens start with an upper-case letter. A word is lowercased unless its POS tag is
  capitalised, so "The"/"the" (DT) share an entry while "Bush" (NNP) keeps its case. At scoring
  time the normalisation uses the POS the word is conditioned on.
* **Rare tokens.** Counts are of the normalised form over the whole training set. A token is
  rare if its form occurs at most once (at most 3 times when the token's POS is capitalised), or
  if it starts with a digit.
* **Classes** (checked in this order, on the raw token, first match wins):

  1. ``oovSYM``   no letter and no digit ("--", "%", "$");
  2. ``oovORD``   digits followed by st/nd/rd/th ("21st");
  3. ``oovCD``    a numeral: only digits and the characters ``.,:/-+`` and at least one digit
     ("3.5", "1,000", "1987-88");
  4. ``oovNNPS`` / ``oovNNP``  starts with an upper-case letter and is not sentence-initial
     (``oovNNPS`` if it ends in "s");
  5. ``oovHYP``   contains a hyphen ("well-known", "3-year-old");
  6. ``oovCD``    any other token starting with a digit ("1980s", "10am");
  7. ``oovSHORT`` fewer than 3 characters;
  8. ``oovSUF0``..``oovSUF7`` by the lowercased suffix: -ble/-ful/-ous/-al; -ing; -ly; -ss;
     -ll/-ar/-ry; -ed; -s; anything else.

  Ordering numerals before capitalisation and hyphens keeps "1987-88" a number; checking
  capitalisation before the suffix keeps "Americans" a proper noun.
* **Ids.** 0 = NULL, 1..len(UNKNOWN_CLASSES) = the classes (fixed order), then the training word
  forms in sorted order, so ids are deterministic. ``size`` is the word model's outcome count.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from glmnlp.errors import ConfigError, ModelFileError

__all__ = [
    "UNKNOWN_CLASSES",
    "Lexicon",
    "LexiconConfig",
    "word_class",
]

UNKNOWN_CLASSES: tuple[str, ...] = (
    "oovNNP",
    "oovNNPS",
    "oovSYM",
    "oovCD",
    "oovHYP",
    "oovORD",
    "oovSHORT",
    "oovSUF0",
    "oovSUF1",
    "oovSUF2",
    "oovSUF3",
    "oovSUF4",
    "oovSUF5",
    "oovSUF6",
    "oovSUF7",
)

_ORDINAL = re.compile(r"^\d+(st|nd|rd|th)$", re.IGNORECASE)
_NUMERAL = re.compile(r"^[\d.,:/+\-]*\d[\d.,:/+\-]*$")
_SUFFIX_CLASSES: tuple[tuple[tuple[str, ...], str], ...] = (
    (("ble", "ful", "ous", "al"), "oovSUF0"),
    (("ing",), "oovSUF1"),
    (("ly",), "oovSUF2"),
    (("ss",), "oovSUF3"),
    (("ll", "ar", "ry"), "oovSUF4"),
    (("ed",), "oovSUF5"),
    (("s",), "oovSUF6"),
)


def word_class(word: str, sentence_initial: bool) -> str:
    """The unknown-word class of ``word`` (one of UNKNOWN_CLASSES), by the ordered rules above."""
    if not word:
        raise ValueError("word_class: empty word")
    if not any(ch.isalnum() for ch in word):
        return "oovSYM"
    if _ORDINAL.match(word):
        return "oovORD"
    if _NUMERAL.match(word):
        return "oovCD"
    if word[0].isupper() and not sentence_initial:
        return "oovNNPS" if word.endswith("s") else "oovNNP"
    if "-" in word:
        return "oovHYP"
    if word[0].isdigit():
        return "oovCD"
    if len(word) < 3:
        return "oovSHORT"
    lower = word.lower()
    for suffixes, name in _SUFFIX_CLASSES:
        if lower.endswith(suffixes):
            return name
    return "oovSUF7"


@dataclass(frozen=True)
class LexiconConfig:
    """Thresholds of the rules above.

    capitalised_share: a POS is capitalised if more than this share of its non-initial tokens
        start upper-case (0.9 in Roark's code).
    rare_count: a form seen at most this often is rare (1).
    rare_count_capitalised: the same for tokens with a capitalised POS (3).
    """

    capitalised_share: float = 0.9
    rare_count: int = 1
    rare_count_capitalised: int = 3

    def __post_init__(self) -> None:
        if not 0.0 <= self.capitalised_share <= 1.0:
            raise ConfigError(f"capitalised_share must lie in [0, 1], got {self.capitalised_share}")
        if self.rare_count < 0 or self.rare_count_capitalised < 0:
            raise ConfigError("rare counts must be >= 0")


class Lexicon:
    """Maps (word, POS, sentence-initial) to word-model outcome ids, with the class fallback.

    Build with :meth:`build` from POS-tagged training sentences; then use :meth:`training_ids`
    while collecting training events and :meth:`word_id` when scoring.
    """

    def __init__(
        self,
        words: Sequence[str],
        capitalised_pos: Iterable[str],
        rare: Iterable[str],
        config: LexiconConfig = LexiconConfig(),
    ) -> None:
        self.config = config
        self.capitalised_pos: frozenset[str] = frozenset(capitalised_pos)
        self.rare: frozenset[str] = frozenset(rare)
        self.words: tuple[str, ...] = tuple(words)
        self._ids: dict[str, int] = {}
        for offset, name in enumerate(UNKNOWN_CLASSES):
            self._ids["\0" + name] = 1 + offset
        first = 1 + len(UNKNOWN_CLASSES)
        for offset, form in enumerate(self.words):
            if form in self._ids:
                raise ValueError(f"Lexicon: duplicate word {form!r}")
            self._ids[form] = first + offset
        unknown_rare = self.rare.difference(self.words)
        if unknown_rare:
            raise ValueError(f"Lexicon: rare forms not in the word list: {sorted(unknown_rare)[:5]}")

    # -- construction ------------------------------------------------------------------------

    @classmethod
    def build(
        cls, sentences: Iterable[Sequence[tuple[str, str]]], config: LexiconConfig = LexiconConfig()
    ) -> Lexicon:
        """Build from training sentences given as sequences of (word, POS) pairs."""
        sentences = [list(s) for s in sentences]
        upper: Counter[str] = Counter()
        seen: Counter[str] = Counter()
        for sentence in sentences:
            for position, (word, pos) in enumerate(sentence):
                if not word:
                    raise ValueError(f"Lexicon.build: empty word (POS {pos!r})")
                if position > 0:
                    seen[pos] += 1
                    upper[pos] += word[0].isupper()
        capitalised = {pos for pos, n in seen.items() if upper[pos] > config.capitalised_share * n}
        counts: Counter[str] = Counter()
        for sentence in sentences:
            for word, pos in sentence:
                counts[word if pos in capitalised else word.lower()] += 1
        rare: set[str] = set()
        for sentence in sentences:
            for word, pos in sentence:
                form = word if pos in capitalised else word.lower()
                limit = config.rare_count_capitalised if pos in capitalised else config.rare_count
                if counts[form] <= limit or form[0].isdigit():
                    rare.add(form)
        return cls(sorted(counts), capitalised, rare, config)

    # -- lookups -----------------------------------------------------------------------------

    @property
    def size(self) -> int:
        """Number of outcome ids, NULL included (ids lie in [0, size))."""
        return 1 + len(UNKNOWN_CLASSES) + len(self.words)

    def normalize(self, word: str, pos: str) -> str:
        """The lexicon form of ``word``: lowercased unless ``pos`` is a capitalised tag."""
        return word if pos in self.capitalised_pos else word.lower()

    def knows(self, word: str) -> bool:
        """Whether ``word`` has an id of its own under some POS (as written or lowercased), not only its class's:
        the spelling :func:`glmnlp.text.inputs.model_words` gives a word of the measures' input."""
        return not word.startswith("\0") and (word in self._ids or word.lower() in self._ids)

    def class_id(self, name: str) -> int:
        """Id of an unknown-word class name."""
        try:
            return self._ids["\0" + name]
        except KeyError:
            raise ValueError(f"unknown word class {name!r}; expected one of {UNKNOWN_CLASSES}") from None

    def word_id(self, word: str, pos: str, sentence_initial: bool) -> int:
        """Id to score ``word``: its own id if the form was seen in training, else its class id."""
        form = self.normalize(word, pos)
        found = self._ids.get(form)
        if found is not None:
            return found
        return self.class_id(word_class(word, sentence_initial))

    def training_ids(self, word: str, pos: str, sentence_initial: bool) -> tuple[int, int]:
        """(word id, class id) of a training token; the class id is 0 unless the token is rare.

        A rare token is counted as its word id at every level and as its class id at the
        coarsest level only (glmnlp.parser.generative_training.EventSet.add with depth=1).
        """
        form = self.normalize(word, pos)
        found = self._ids.get(form)
        if found is None:
            raise ValueError(f"training word {word!r} (form {form!r}) is not in the lexicon")
        if form in self.rare:
            return found, self.class_id(word_class(word, sentence_initial))
        return found, 0

    # -- serialisation -----------------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        """JSON-able description; ``from_json(to_json())`` gives an identical lexicon."""
        return {
            "format": "glmnlp-lexicon",
            "version": 1,
            "config": {
                "capitalised_share": self.config.capitalised_share,
                "rare_count": self.config.rare_count,
                "rare_count_capitalised": self.config.rare_count_capitalised,
            },
            "classes": list(UNKNOWN_CLASSES),
            "capitalised_pos": sorted(self.capitalised_pos),
            "words": list(self.words),
            "rare": sorted(self.rare),
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Lexicon:
        """Inverse of :meth:`to_json`; raises ModelFileError on a foreign or damaged description."""
        try:
            if data["format"] != "glmnlp-lexicon" or type(data["version"]) is not int or data["version"] != 1:
                raise ModelFileError(f"not a version-1 glmnlp lexicon: {data.get('format')!r}")
            if list(data["classes"]) != list(UNKNOWN_CLASSES):
                raise ModelFileError("lexicon was written with a different unknown-word class list")
            config = LexiconConfig(**data["config"])
            for name in ("words", "capitalised_pos", "rare"):  # a string would be read as its letters
                if not isinstance(data[name], list) or not all(isinstance(x, str) for x in data[name]):
                    raise ModelFileError(f"lexicon {name} must be a list of strings")
            return cls(list(data["words"]), data["capitalised_pos"], data["rare"], config)
        except (KeyError, TypeError, ValueError, ConfigError) as exc:
            raise ModelFileError(f"damaged lexicon description: {exc}") from exc
