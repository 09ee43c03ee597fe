"""Grapheme clusters, terminal columns and currency signs: where a user-perceived character begins, how many columns
a text takes on a terminal, which characters are money. Plain functions and sets of Unicode data, below every room
(docs/architecture.md), so that the tokenizer's cuts (:mod:`glmnlp.text.tokenize`), the tree drawings
(:mod:`glmnlp.text.drawing`) and the parser's printed explanations (:meth:`glmnlp.parser.explain.Explanation.format`)
count characters one way, and the tokenizer and the tagger (:mod:`glmnlp.tagger.model`) know one set of currency
signs.
"""

from __future__ import annotations

import unicodedata

__all__ = ["CURRENCY_SIGNS", "cluster_start", "display_columns", "joins_previous", "pad"]

#: The currency signs, Unicode's category Sc (Unicode 14, Python 3.11's: ``$ ¢ £ ¤ ¥ ₹ € ₩ ₽ ￡``...): tokens of their
#: own as NLTK splits ``$`` (choice 15 of :mod:`glmnlp.text.tokenize`), and read as ``$`` by a tagger that has not
#: seen them (:meth:`glmnlp.tagger.model.Tagger.tag`)
CURRENCY_SIGNS = frozenset(
    "\u0024\u00a2\u00a3\u00a4\u00a5\u058f\u060b\u07fe\u07ff\u09f2\u09f3\u09fb\u0af1\u0bf9\u0e3f\u17db"
    "\u20a0\u20a1\u20a2\u20a3\u20a4\u20a5\u20a6\u20a7\u20a8\u20a9\u20aa\u20ab\u20ac\u20ad\u20ae\u20af"
    "\u20b0\u20b1\u20b2\u20b3\u20b4\u20b5\u20b6\u20b7\u20b8\u20b9\u20ba\u20bb\u20bc\u20bd\u20be\u20bf"
    "\u20c0\ua838\ufdfc\ufe69\uff04\uffe0\uffe1\uffe5\uffe6\U00011fdd\U00011fde\U00011fdf\U00011fe0"
    "\U0001e2ff\U0001ecb0")


def joins_previous(text: str, i: int, lo: int = 0) -> bool:
    """Whether ``text[i]`` goes on the grapheme cluster of the character before it (a user-perceived character:
    ``#️⃣``, ``👍🏽``, a ZWJ family, a flag, ``é`` written with a combining accent): a combining mark, a variation
    selector, a zero-width joiner or an emoji modifier; a pictograph after a joiner after a pictograph (a joiner
    between letters joins nothing); the second regional indicator of a pair (a flag), counted back to ``lo`` at
    most."""
    if not lo < i < len(text):
        return False
    ch = text[i]
    if (unicodedata.category(ch) in ("Mn", "Me", "Mc") or ch == "\u200d" or "\ufe00" <= ch <= "\ufe0f"
            or "\U0001f3fb" <= ch <= "\U0001f3ff" or "\U000e0020" <= ch <= "\U000e01ef"):
        return True
    if text[i - 1] == "\u200d":
        return i >= 2 and _pictograph(ch) and _pictograph(text[i - 2])
    if not _REGIONAL <= ch <= _REGIONAL_LAST:
        return False
    before = i  # a regional indicator goes on one before it when an odd number of them come just before it
    while before > lo and _REGIONAL <= text[before - 1] <= _REGIONAL_LAST:
        before -= 1
    return (i - before) % 2 == 1


_REGIONAL, _REGIONAL_LAST = "\U0001f1e6", "\U0001f1ff"


def _pictograph(ch: str) -> bool:
    """An emoji-like pictograph (the blocks of Unicode's Extended_Pictographic, roughly), or a modifier or variation
    selector that ends one (``👍🏽\u200d``)."""
    return ("\U0001f000" <= ch <= "\U0001faff" or "\u2600" <= ch <= "\u27bf" or "\u2300" <= ch <= "\u23ff"
            or "\ufe00" <= ch <= "\ufe0f")


def cluster_start(text: str, i: int, lo: int = 0) -> int:
    """The last place at or before ``i``, and after ``lo``, where a grapheme cluster of ``text`` begins; ``lo`` when
    there is none (a run of marks longer than the piece): where a text without spaces is cut (a window of the sentence
    splitter), so that no cut falls inside a flag, an emoji sequence or a letter and its marks (🇺🇸 was cut into 🇺 and
    🇸, a family into 👨 and 👩‍👧‍👦, a Thai vowel from its consonant). Linear in ``i - lo``."""
    while joins_previous(text, i, lo):
        i -= 1
    return i


def display_columns(text: str) -> int:
    """The columns ``text`` takes on a terminal: two for an East Asian wide or full-width character or a flag, none
    for a combining mark or a format character, one for any other; a grapheme cluster (an emoji ZWJ sequence, a
    skin tone, a flag) as its first character (a family of four took 8 columns, and the words after it stood
    left of their tags)."""
    columns, cluster, flags = 0, 0, 0  # the columns of the clusters before the present one and of it; indicators
    for i, ch in enumerate(text):
        flags = flags + 1 if "\U0001f1e6" <= ch <= "\U0001f1ff" else 0  # counted here: a run of flags stays linear
        if flags % 2 == 0 if flags else joins_previous(text, i):
            if ch == "\ufe0f" and cluster == 1:  # emoji presentation (❤️, #️⃣): wide
                cluster = 2
            continue
        columns += cluster
        cluster = (0 if unicodedata.category(ch) in ("Mn", "Me", "Cf") else 2 if unicodedata.east_asian_width(ch) in
                   ("W", "F") or "\U0001f1e6" <= ch <= "\U0001f1ff" else 1)
    return columns + cluster


def pad(text: str, width: int, right: bool = False) -> str:
    """``text`` padded with spaces to ``width`` terminal columns (:func:`display_columns`), on the left with
    ``right`` (an f-string's ``:<15`` counts characters: a Chinese word took twice the columns it was given, and
    the columns after it stood out of line)."""
    fill = " " * max(0, width - display_columns(text))
    return fill + text if right else text + fill
