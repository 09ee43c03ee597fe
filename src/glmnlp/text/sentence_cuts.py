"""Where pysbd's sentence cuts are corrected: the boundaries it misses and the cuts it makes where no sentence
ends (choice 2 of :mod:`glmnlp.text.tokenize`, whose module header gives the rules with their measurements), apart
from the splitter's windows and pieces so that each rule reads on its own. The functions take and give ``[start,
end)`` spans into one paragraph.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Mapping

from glmnlp.graphemes import emoji_only
from glmnlp.text.token_spelling import SENTENCE_STARTERS

__all__ = ["NOT_AN_END", "join_wrong_cuts", "split_missed"]

Span = tuple[int, int]

#: lowercase abbreviations of units after a number (``3 oz.``, ``500 sq. ft.``) and of everyday words that are no
#: words themselves, after which a lowercase word goes on the sentence (choice 2)
_UNITS = ("oz", "lb", "lbs", "yr", "yrs", "hr", "hrs", "min", "mins", "tbsp", "tsp", "gal", "pc", "pcs", "sq", "ft",
          "wk", "wks", "mo", "mos", "pkg")
_EVERYDAY = ("qty", "est", "appt", "mgr", "asst", "dept")
# lowercase abbreviations that a full stop inside a sentence leaves whole (choices 2 and 11)
NOT_AN_END = (r"(?!(?:etc|vs|viz|cf|al|approx|esp|incl|vol|vols|ch|chap|pt|pts|fig|figs|sec|secs|ed|eds|pp|ca|para"
               r"|paras|op|cit|ibid|seq|eq|eqs)\.)")
# after an emoticon or emoji, a word that begins sentences begins one (a name goes on the sentence: ``Thanks 👍 Mike``)
_BEFORE_A_CAPITAL = re.compile(r"(?<=\S)(?=[ \t]+[\"'`(\[]*(?:" + "|".join(sorted(SENTENCE_STARTERS)) + r")\b)")
_MISSED_BOUNDARY = re.compile(  # choice 2: where a sentence ends that pysbd leaves whole
    r"(?<![A-Za-z.])" + NOT_AN_END + r"[a-z]{2,}\.(?=[ \t]+I\b)"
    r"|[!?]{3,}(?=[ \t]+[\"'`(\[]*[A-Z])"
)
# choice 2: what a piece pysbd cut off may begin with, or the piece before it end with, when no sentence ends there
_CONTINUES = re.compile(r"\s*[;,]")
_LIST_MARKER = re.compile(r"\s*(?:\([0-9]{1,2}\)|\([a-z]\)|\([ivx]{1,4}\)|[0-9]{1,2}\)|[a-z]\))\s")
_BEFORE_AN_ITEM = re.compile(r"(?:[;:,]|\b(?:and|or|nor|but|that|either|shall|may|must|will|to|are|is|include|"
                             r"includes|including))$")
_TITLE = re.compile(r"(?<![A-Za-z.])(?:Mr|Mrs|Ms|Messrs|Mmes|Dr|Prof|Gov|Sen|Rep|Gen|Lt|Col|Capt|Sgt|Rev|Hon|Ft"
                    r"|vs|viz|cf)\.$")
_REFERENCE = re.compile(r"(?<![A-Za-z.])(?:Vol|Vols|Fig|Figs|Eq|Eqs|Approx|Chap|Sec|Secs"
                        r"|approx|esp|incl|vol|vols|fig|figs|eq|eqs|chap)\.$")
_REFERENCED = re.compile(r"\s*(?:[0-9a-z(\[]|[IVXLC]+\b)")  # what follows a _REFERENCE that does not end a sentence
_NUMBER_ABBREVIATION = re.compile(r"(?<![A-Za-z.])(?:No|Nos|pp|p|Apt|Tel|Ext|ext|Rm|Ste|Bldg)\.$")
_NUMBER = re.compile(r"\s*[0-9]")
_UNIT = re.compile(r"(?:[0-9][ \t]*|sq\.[ \t]*)(?:" + "|".join(_UNITS) + r")\.$|(?<![A-Za-z.])(?:"
                   + "|".join(_EVERYDAY) + r")\.$")
_LOWER = re.compile(r"\s*(?!i\b)[a-z]")  # (a lowercase ``i`` begins a sentence of informal text)
_WEEKDAY = re.compile(r"(?<![A-Za-z.])(?:Mon|Tue|Tues|Wed|Thu|Thur|Thurs|Fri|Sat|Sun)\.$")
_DATE = re.compile(r"\s*(?:(?:Jan|Feb|Mar|Apr|May|Jun|June|Jul|July|Aug|Sep|Sept|Oct|Nov|Dec)\b|[0-9])")


def _emote_start(paragraph: str, end: int, emoticons: Mapping[int, int], offset: int) -> int:
    """Where the emoticon or the word of emoji only (:func:`glmnlp.graphemes.emoji_only`, as the tagger tags it
    ``UH``) that ends at ``end`` begins, or -1 if none ends there."""
    if end + offset in emoticons:
        return emoticons[end + offset] - offset
    start = end
    while start > 0 and not paragraph[start - 1].isspace():  # (each word once: a cut is tried at a word's end)
        start -= 1
    return start if emoji_only(paragraph[start:end]) else -1


def split_missed(paragraph: str, pieces: Iterable[Span], emoticons: Mapping[int, int] | None = None, offset: int = 0
                 ) -> Iterator[Span]:
    """``pieces`` cut again where :data:`_MISSED_BOUNDARY` finds a sentence's end in one, or after an emoticon
    (``emoticons`` maps each one's end to its start, in the text of which ``paragraph`` begins at ``offset``: they
    are masked in ``paragraph``) or a word of emoji after a word and before a word that begins sentences (``I love
    this place :) The staff``, ``Great 👍 I will``: :data:`~glmnlp.text.token_spelling.SENTENCE_STARTERS`; not before
    a name, ``Thanks 👍 Mike will call``; ``Thanks. ;) See you.`` keeps ``;)`` on the sentence it begins), and a cut
    that pysbd made inside a run of full stops moved to its end (``it..thats``: ``it .`` + ``.thats``, a word
    beginning with a full stop; now ``it ..`` + ``thats``) (choice 2)."""
    emoticons = emoticons or {}
    held: Span | None = None
    for at, stop in pieces:
        if held is not None and held[1] == at and paragraph.startswith(".", at) and paragraph[at - 1] == ".":
            dots = at
            while dots < stop and paragraph[dots] == ".":
                dots += 1
            held, at = (held[0], dots), dots
            if at == stop:
                continue
        if held is not None:
            yield held
        held = None
        ends = [match.end() for match in _MISSED_BOUNDARY.finditer(paragraph, at, stop)]
        first = at + len(paragraph[at:stop]) - len(paragraph[at:stop].lstrip())  # the piece's first character
        ends += [match.start() for match in _BEFORE_A_CAPITAL.finditer(paragraph, at, stop)
                 if _emote_start(paragraph, match.start(), emoticons, offset) > first]
        for end in sorted(set(ends)):
            yield at, end
            at = end
        held = (at, stop)
    if held is not None:
        yield held


def join_wrong_cuts(paragraph: str, original: str, pieces: Iterable[Span], limit: int) -> Iterator[Span]:
    """``pieces`` with the cuts pysbd makes where no sentence ends joined again (choice 2): before a list marker after
    ``; : ,``, a conjunction or a verb that announces a list (``are: (a) no smoking; (b) no pets.``, ``focus, and 3)
    a level``, ``shall (a) pay``; after any other word a list item may be a sentence of its own, as in web text),
    before a piece that begins with ``;`` or ``,``, after a title (``--Mrs. Yeargin``, ``Ft. Worth``, ``vs.``), and
    after a reference abbreviation before a number, a lowercase word or a bracket (``Vol. II``, ``Approx. 30``,
    ``incl. tax``; ``No.``, ``Apt.``, ``Tel.``, ``ext.`` before a number), after a unit's abbreviation after a number
    or an everyday word's before a lowercase word but ``i`` (``3 oz. of``, ``2 hrs. later``, ``the mgr. said``, ``an
    appt. tomorrow``: :data:`_UNITS`, :data:`_EVERYDAY`; not ``the info.``, a word), after a weekday's before a
    month or a number (``Tues. Jan. 5``), where no sentence ends (``... 3 hours approx. We leave.`` is two), and inside
    a run of ``!`` and ``?`` (``wait!!!!!!!wait`` was cut after its sixth mark; the run is one token).
    ``original``: the paragraph before normalisation and masking (choice 3), where a dash, an ellipsis or an emoticon
    that the splitter saw as something else is itself: a sentence may begin with one. A cut that made a sentence of
    ``limit`` characters (the tokenizer's :data:`~glmnlp.text.tokenize.WINDOW_CHARS`) is never joined (choice 9), and
    each cut is looked at once, near it (linear time)."""
    held: Span | None = None
    for at, stop in pieces:
        if held is not None and held[1] == at and stop - held[0] <= limit:
            end = held[1]
            while end > held[0] and paragraph[end - 1].isspace():  # the held piece's own trailing blanks only
                end -= 1
            near = max(held[0], end - 16)  # the patterns end at the cut; a lookbehind still sees before it
            if (
                (_CONTINUES.match(original, at, stop) and _CONTINUES.match(paragraph, at, stop))
                or (_LIST_MARKER.match(paragraph, at, stop) and _BEFORE_AN_ITEM.search(paragraph, near, end))
                or _TITLE.search(paragraph, near, end)
                or (_REFERENCE.search(paragraph, near, end) and _REFERENCED.match(paragraph, at, stop))
                or (_NUMBER_ABBREVIATION.search(paragraph, near, end) and _NUMBER.match(paragraph, at, stop))
                or (_UNIT.search(paragraph, near, end) and _LOWER.match(paragraph, at, stop))
                or (_WEEKDAY.search(paragraph, near, end) and _DATE.match(paragraph, at, stop))
                or (end == at and paragraph[at - 1] in "!?" and paragraph[at] in "!?")  # inside a run (choice 16)
            ):
                held = (held[0], stop)
                continue
        if held is not None:
            yield held
        held = (at, stop)
    if held is not None:
        yield held
