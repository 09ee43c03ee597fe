"""Grapheme clusters, terminal columns, currency signs and emoji: where a user-perceived character begins, how many
columns a text takes on a terminal, which characters are money, which tokens are emoji only. Plain functions and sets
of Unicode data, below every room (docs/architecture.md), so that the tokenizer's cuts (:mod:`glmnlp.text.tokenize`),
the tree drawings (:mod:`glmnlp.text.drawing`) and the parser's printed explanations
(:meth:`glmnlp.parser.explain.Explanation.format`) count characters one way, the tokenizer and the tagger
(:mod:`glmnlp.tagger.model`) know one set of currency signs, and a token's emoji are told by the clusters the
tokenizer keeps whole (:func:`emoji_only`, read by :func:`glmnlp.text.web.web_tag`).
"""

from __future__ import annotations

import unicodedata

__all__ = ["CURRENCY_SIGNS", "EMOJI_PRESENTATION", "cluster_start", "display_columns", "emoji_only",
           "joins_previous", "pad"]

#: The currency signs, Unicode's category Sc (Unicode 14, Python 3.11's: ``$ ¢ £ ¤ ¥ ₹ € ₩ ₽ ￡``...): tokens of their
#: own as NLTK splits ``$`` (choice 15 of :mod:`glmnlp.text.tokenize`), and read as ``$`` by a tagger that has not
#: seen them (:func:`glmnlp.tagger.features.read_as`)
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


#: The symbols below U+10000 that Unicode shows as emoji without a variation selector (its Emoji_Presentation
#: property, Unicode 14: ``⌚ ⏰ ☔ ♿ ⚡ ⚽ ✅ ✨ ❌ ❓ ➕ ⬛ ⭐ ⭕``...); the others (``☎ ✉ ♥ ★ © ↔``) are text symbols
#: unless a U+FE0F asks for an emoji (``❤️``). Every pictograph from U+1F000 on is a picture (:func:`emoji_only`).
EMOJI_PRESENTATION = frozenset(
    "\u231a\u231b\u23e9\u23ea\u23eb\u23ec\u23f0\u23f3\u25fd\u25fe\u2614\u2615\u2648\u2649\u264a\u264b"
    "\u264c\u264d\u264e\u264f\u2650\u2651\u2652\u2653\u267f\u2693\u26a1\u26aa\u26ab\u26bd\u26be\u26c4"
    "\u26c5\u26ce\u26d4\u26ea\u26f2\u26f3\u26f5\u26fa\u26fd\u2705\u270a\u270b\u2728\u274c\u274e\u2753"
    "\u2754\u2755\u2757\u2795\u2796\u2797\u27b0\u27bf\u2b1b\u2b1c\u2b50\u2b55")
_KEYCAP_BASES = frozenset("#*0123456789")


def emoji_only(text: str) -> bool:
    """Whether ``text`` is one emoji or more and nothing else: each of its grapheme clusters (:func:`joins_previous`,
    as the tokenizer keeps them whole: ``👍🏽``, a ZWJ family, ``❤️‍🔥``, a flag, ``🏴`` with its tag letters) begins with

    * a symbol (Unicode's category So) from U+1F000 to U+1FAFF, the blocks of the emoji pictographs, faces, flags'
      regional indicators, people, animals, food, transport, cards and tiles: pictures, whatever follows them;
    * a symbol (So or Sm) below U+10000 that is shown as an emoji: by default (:data:`EMOJI_PRESENTATION`: ``⭐``,
      ``✅``) unless a U+FE0E asks for text, or as its cluster asks, with a U+FE0F (``❤️``, ``☎️``) or a skin tone
      (``✌🏽``) or a pictograph joined to it (``❤‍🔥``). Without one, ``☎ ✉ ♥ ★ ✓ © →`` are text symbols, which the
      treebanks tag as symbols or punctuation (GUM ``☎ ✉`` SYM, EWT ``♥`` ``.``), and are not emoji here;
    * or ``#``, ``*`` or a digit with the keycap U+20E3 (``#️⃣``, ``1️⃣``): the picture of a key.

    A letter or a digit elsewhere makes a token no emoji (``#win🎉`` and ``🎉win`` are not: the tokenizer cuts the
    first in two). Linear: a run of regional indicators is counted here, not again for each (as
    :func:`display_columns` does)."""
    if not text:
        return False
    start, flags = 0, 0
    for i, ch in enumerate(text):
        flags = flags + 1 if _REGIONAL <= ch <= _REGIONAL_LAST else 0
        if i and not (flags % 2 == 0 if flags else joins_previous(text, i)):
            if not _emoji_cluster(text[start:i]):
                return False
            start = i
    return _emoji_cluster(text[start:])


def _emoji_cluster(cluster: str) -> bool:
    """Whether one grapheme cluster is an emoji (:func:`emoji_only`'s three kinds)."""
    base, rest = cluster[0], cluster[1:]
    if base in _KEYCAP_BASES:
        return rest in ("\u20e3", "\ufe0f\u20e3")
    if "\U0001f000" <= base <= "\U0001faff":
        return unicodedata.category(base) == "So"
    if base < "\u00a0" or unicodedata.category(base) not in ("So", "Sm") or rest[:1] == "\ufe0e":
        return False
    return base in EMOJI_PRESENTATION or any(
        ch == "\ufe0f" or "\U0001f3fb" <= ch <= "\U0001f3ff" or "\U0001f000" <= ch <= "\U0001faff" for ch in rest)


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
