"""EVALB's parameter files, its result records and its printed report (the layout of evalb.c's output).

The scoring itself is :mod:`glmnlp.treebank.evalb`; this module holds what it is configured with and
what it produces, so the command line and the benchmarks can read, combine and print results
without the scoring code.

Our choices where evalb.c gives no usable behaviour:

* Parameter files are read strictly: an unknown keyword or a missing or malformed value raises
  :class:`~glmnlp.errors.InputError` with the line (evalb.c warns and carries on), and so does ``DEBUG``
  above 0: evalb.c's per-sentence debug listing is not reproduced, and a file asking for it was read as
  if it did not (its output differed without a word). ``QUOTE_LABEL`` (the 2013 distribution's
  ``new.prm``) is read, into ``quote_labels``: evalb.c re-inserts quotes only in a sentence whose two
  sides differ in length, and that re-insertion is not done here, so such a sentence stays a length
  error (the command line says how many; every other sentence is scored as evalb.c scores it; the
  whole file was refused before). evalb.c's fixed buffers (5000 characters a line, 200 words or
  brackets a sentence, 30-character labels) are not limits here.
* :class:`EvalbParams` field defaults are evalb.c's built-in defaults (what an empty ``.prm`` file
  gives). The scoring functions use :data:`COLLINS_PARAMS` (the settings of ``COLLINS.prm``) when
  no parameters are given. Figures are percentages (0-100), as evalb prints them.

One extension, off by default: ``EvalbParams.strip_punct`` (``glmnlp evalb --strip-punct``) removes
every token with no letter or digit from both sides before anything else, for treebanks whose
punctuation tags differ from the PTB's (GUM). Scores with it are not comparable to plain EVALB.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from typing import Any

from glmnlp.errors import InputError

__all__ = [
    "COLLINS_PARAMS",
    "EvalbAbortError",
    "EvalbCounts",
    "EvalbParams",
    "EvalbResult",
    "SentenceResult",
    "STATUS_ERROR",
    "STATUS_OK",
    "STATUS_SKIP",
    "combine",
    "format_report",
    "format_rows",
    "is_punct_word",
    "parse_params",
    "read_params",
    "read_text",
]

STATUS_OK = 0
STATUS_ERROR = 1
STATUS_SKIP = 2


class EvalbAbortError(InputError):
    """Too many error sentences: evalb.c stops the whole run at this point (see ``MAX_ERROR``). ``rows``: the
    sentences scored before it, which evalb.c has printed by then (:func:`format_rows`); ``stopped_at``: the error
    sentence it stops at, whose ``ID : reason`` line evalb.c prints before it stops."""

    rows: tuple[SentenceResult, ...] = ()
    stopped_at: SentenceResult | None = None


# -- parameters ------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class EvalbParams:
    """The settings of an EVALB ``.prm`` file. Field defaults are evalb.c's built-in defaults.

    ``eq_labels`` / ``eq_words`` hold unordered pairs (evalb: "non-directional"); they are not
    closed under transitivity, exactly as in evalb.c.

    ``strip_punct`` is not an evalb setting (no ``.prm`` keyword; ``glmnlp evalb --strip-punct``):
    when set, every terminal whose word has no letter or digit (:func:`is_punct_word`) is removed
    from both gold and test before scoring, as if it were not in either file: it counts in no
    span, word, tag or length. Used for corpora whose punctuation tags differ from the PTB's (GUM's
    ``HYPH``, ``NFP``, ...), where deleting punctuation by the gold tag (``DELETE_LABEL``) would turn
    tag disagreements on punctuation into length-mismatch error sentences.
    """

    debug: int = 0
    max_error: int = 10
    cutoff_len: int = 40
    labeled: bool = True
    delete_labels: tuple[str, ...] = ()
    delete_labels_for_length: tuple[str, ...] = ()
    eq_labels: tuple[tuple[str, str], ...] = ()
    eq_words: tuple[tuple[str, str], ...] = ()
    strip_punct: bool = False
    quote_labels: tuple[str, ...] = ()


COLLINS_PARAMS = EvalbParams(
    debug=0,
    max_error=10,
    cutoff_len=40,
    labeled=True,
    delete_labels=("TOP", "-NONE-", ",", ":", "``", "''", "."),
    delete_labels_for_length=("-NONE-",),
    eq_labels=(("ADVP", "PRT"),),
    eq_words=(),
)
"""The settings of the standard ``COLLINS.prm`` (the default of every scoring function)."""

_INT_KEYS = {"DEBUG": "debug", "MAX_ERROR": "max_error", "CUTOFF_LEN": "cutoff_len", "LABELED": "labeled"}
_LIST_KEYS = {"DELETE_LABEL": "delete_labels", "DELETE_LABEL_FOR_LENGTH": "delete_labels_for_length",
              "QUOTE_LABEL": "quote_labels"}
_PAIR_KEYS = {"EQ_LABEL": "eq_labels", "EQ_WORD": "eq_words"}
_INT_VALUE = re.compile(r"[+-]?\d+")
_C_SPACE = " \t\n\r\f\v"


def is_punct_word(word: str) -> bool:
    """True for a token without any letter or digit (Unicode ``str.isalnum``): what ``strip_punct`` removes.

    PTB bracket escapes such as ``-LRB-`` contain letters and are kept, as are ``1/2``, ``3.5``, ``n't``.
    """
    return not any(ch.isalnum() for ch in word)


def read_text(path: str | Path) -> str:
    """A whole UTF-8 file without a byte order mark, read as every reader reads one
    (:func:`glmnlp.treebank.fileio.read_text_file`: an InputError naming the file, and the line of a bad byte)."""
    from glmnlp.treebank.fileio import read_text_file

    return read_text_file(path)


def parse_params(text: str, source: str = "<params>") -> EvalbParams:
    """Parse the text of an EVALB parameter file (``KEYWORD value`` lines, ``#`` comments).

    Like evalb.c, a line starting with ``#`` or shorter than three characters is ignored, list
    keywords accumulate and scalar keywords keep their last value. Unlike evalb.c, anything it
    would warn about is an :class:`InputError` carrying ``source`` and the line number.
    """
    if "\r" in text and (lone := re.search("\r(?!\n)", text)):  # an old Mac's line ends: evalb.c read the whole
        # file as one comment line, so no setting at all (TOP and punctuation scored), without a word
        cr = lone.start()
        raise InputError("a lone carriage return ends this line (old Mac line ends): evalb reads lines to \\n only, "
                         "and would join it to the next: save the file with \\n line ends", source=source,
                         line=text.count("\n", 0, cr) + 1)
    scalars: dict[str, int | bool] = {}
    lists: dict[str, list[str]] = {name: [] for name in _LIST_KEYS.values()}
    pairs: dict[str, list[tuple[str, str]]] = {name: [] for name in _PAIR_KEYS.values()}
    for number, raw in enumerate(text.split("\n"), start=1):
        line = raw.rstrip(_C_SPACE)
        if line.startswith("#") or len(line) < 3:
            continue
        parts = line.split(None, 1)
        keyword = parts[0] if line[0] not in _C_SPACE else ""
        values = parts[1].split() if len(parts) > 1 and keyword else []
        if keyword in _INT_KEYS:
            if len(values) != 1 or not _INT_VALUE.fullmatch(values[0]):
                raise InputError(f"{keyword} needs one integer value", source=source, line=number)
            value = int(values[0])
            if keyword == "LABELED":
                scalars["labeled"] = value != 0
            elif keyword == "DEBUG" and value > 0:
                raise InputError("DEBUG above 0 (evalb's per-sentence debug listing) is not reproduced: set DEBUG 0",
                                 source=source, line=number)
            else:
                if keyword in ("MAX_ERROR", "CUTOFF_LEN") and value < 0:
                    raise InputError(f"{keyword} must not be negative", source=source, line=number)
                scalars[_INT_KEYS[keyword]] = value
        elif keyword in _LIST_KEYS:
            if len(values) != 1:
                raise InputError(f"{keyword} needs exactly one label", source=source, line=number)
            lists[_LIST_KEYS[keyword]].append(values[0])
        elif keyword in _PAIR_KEYS:
            if len(values) != 2:
                raise InputError(f"{keyword} requires two values", source=source, line=number)
            pairs[_PAIR_KEYS[keyword]].append((values[0], values[1]))
        elif not keyword:  # evalb.c reads a keyword at the line's start only ("unknown keyword 'DELETE_LABEL'")
            first = (line.split() or [line.strip(_C_SPACE)])[0]
            raise InputError(f"a keyword must begin the line (evalb reads {first!r} after a space as no keyword)",
                             source=source, line=number)
        else:
            raise InputError(f"unknown keyword {line.split()[0]!r} in parameter file", source=source, line=number)
    # every keyword map's field by its name, so a keyword added to a map reaches EvalbParams (or fails there)
    given: dict[str, Any] = {**scalars, **{name: tuple(values) for name, values in lists.items()},
                             **{name: tuple(values) for name, values in pairs.items()}}
    return EvalbParams(**given)


def format_params(params: EvalbParams) -> str:
    """``params`` as the text of an EVALB ``.prm`` file that :func:`parse_params` reads back as the same settings
    (``strip_punct`` is no ``.prm`` keyword and is left out): ``glmnlp evalb --show-params`` writes it, so that a
    user who needs other ``DELETE_LABEL`` lines (UD's ``PUNCT``) starts from the settings in use, not from a file
    glmnlp does not ship."""
    lines = ["# EVALB parameters (glmnlp evalb --show-params)", f"DEBUG {params.debug}",
             f"MAX_ERROR {params.max_error}", f"CUTOFF_LEN {params.cutoff_len}", f"LABELED {int(params.labeled)}"]
    for keyword, name in _LIST_KEYS.items():
        lines += [f"{keyword} {label}" for label in getattr(params, name)]
    for keyword, name in _PAIR_KEYS.items():
        lines += [f"{keyword} {a} {b}" for a, b in getattr(params, name)]
    return "\n".join(lines) + "\n"


def read_params(path: str | Path) -> EvalbParams:
    """Read an EVALB ``.prm`` file (see :func:`parse_params`)."""
    return parse_params(read_text(path), str(path))


# -- results ---------------------------------------------------------------------------------


def _pct(part: int, whole: int) -> float:
    return 100.0 * part / whole if whole > 0 else 0.0


@dataclass(frozen=True, slots=True)
class SentenceResult:
    """One row of the evalb table: counts for one sentence (all zero unless ``status`` is 0).

    ``length`` is the gold length used for the cut-off (terminals minus
    ``DELETE_LABEL_FOR_LENGTH`` ones); ``words`` the number of scored words (deleted terminals
    excluded). ``reason`` is evalb's message for an error sentence.
    """

    id: int
    length: int
    status: int
    matched: int = 0
    gold_brackets: int = 0
    test_brackets: int = 0
    crossing: int = 0
    words: int = 0
    correct_tags: int = 0
    reason: str | None = None

    @property
    def recall(self) -> float:
        """Bracket recall in percent (0 when there is no gold bracket)."""
        return _pct(self.matched, self.gold_brackets)

    @property
    def precision(self) -> float:
        """Bracket precision in percent (0 when there is no test bracket)."""
        return _pct(self.matched, self.test_brackets)

    @property
    def tag_accuracy(self) -> float:
        """Tagging accuracy in percent (0 when there is no word)."""
        return _pct(self.correct_tags, self.words)


@dataclass(frozen=True, slots=True)
class EvalbCounts:
    """Summed counts over a set of sentences; ``+`` adds them. Figures are evalb's percentages."""

    sentences: int = 0
    error_sentences: int = 0
    skip_sentences: int = 0
    matched: int = 0
    gold_brackets: int = 0
    test_brackets: int = 0
    complete_match: int = 0
    crossing: int = 0
    no_crossing: int = 0
    two_or_less_crossing: int = 0
    words: int = 0
    correct_tags: int = 0

    def __add__(self, other: EvalbCounts) -> EvalbCounts:
        if not isinstance(other, EvalbCounts):
            return NotImplemented
        return EvalbCounts(*(getattr(self, f.name) + getattr(other, f.name) for f in fields(self)))

    @classmethod
    def of(cls, rows: Iterable[SentenceResult]) -> EvalbCounts:
        """Sum the rows the way evalb.c's ``individual_result`` does."""
        values = dict.fromkeys((f.name for f in fields(cls)), 0)
        for row in rows:
            values["sentences"] += 1
            if row.status == STATUS_ERROR:
                values["error_sentences"] += 1
                continue
            if row.status == STATUS_SKIP:
                values["skip_sentences"] += 1
                continue
            values["matched"] += row.matched
            values["gold_brackets"] += row.gold_brackets
            values["test_brackets"] += row.test_brackets
            values["complete_match"] += row.gold_brackets == row.test_brackets == row.matched
            values["crossing"] += row.crossing
            values["no_crossing"] += row.crossing == 0
            values["two_or_less_crossing"] += row.crossing <= 2
            values["words"] += row.words
            values["correct_tags"] += row.correct_tags
        return cls(**values)

    @property
    def valid_sentences(self) -> int:
        """Sentences neither in error nor skipped."""
        return self.sentences - self.error_sentences - self.skip_sentences

    @property
    def recall(self) -> float:
        """Bracketing recall in percent."""
        return _pct(self.matched, self.gold_brackets)

    @property
    def precision(self) -> float:
        """Bracketing precision in percent."""
        return _pct(self.matched, self.test_brackets)

    @property
    def fmeasure(self) -> float:
        """Bracketing F-measure in percent, evalb's formula; 0.0 where evalb prints ``-nan``."""
        p, r = self.precision, self.recall
        return 2 * p * r / (p + r) if p + r > 0 else 0.0

    f1 = fmeasure

    @property
    def complete_match_rate(self) -> float:
        """Percent of valid sentences whose brackets all match."""
        return _pct(self.complete_match, self.valid_sentences)

    @property
    def average_crossing(self) -> float:
        """Crossing brackets per valid sentence."""
        n = self.valid_sentences
        return 1.0 * self.crossing / n if n > 0 else 0.0

    @property
    def no_crossing_rate(self) -> float:
        """Percent of valid sentences with no crossing bracket."""
        return _pct(self.no_crossing, self.valid_sentences)

    @property
    def two_or_less_crossing_rate(self) -> float:
        """Percent of valid sentences with at most two crossing brackets."""
        return _pct(self.two_or_less_crossing, self.valid_sentences)

    @property
    def tagging_accuracy(self) -> float:
        """Tagging accuracy in percent over the words of valid sentences."""
        return _pct(self.correct_tags, self.words)


@dataclass(frozen=True, slots=True)
class EvalbResult:
    """A scored set of sentences: the rows, the totals (``total``) and the ``len<=cutoff`` totals.

    ``a + b`` (or :func:`combine`) appends ``b``'s rows after ``a``'s (renumbered) and adds the
    counts, which equals scoring the concatenated inputs (``MAX_ERROR`` is checked per call).
    """

    sentences: tuple[SentenceResult, ...]
    params: EvalbParams = field(default=COLLINS_PARAMS)
    total: EvalbCounts = field(default_factory=EvalbCounts)
    cut: EvalbCounts = field(default_factory=EvalbCounts)

    @classmethod
    def from_rows(cls, rows: Sequence[SentenceResult], params: EvalbParams) -> EvalbResult:
        """Build the result and its two summary blocks from per-sentence rows."""
        return cls(
            sentences=tuple(rows),
            params=params,
            total=EvalbCounts.of(rows),
            cut=EvalbCounts.of(r for r in rows if r.length <= params.cutoff_len),
        )

    def __repr__(self) -> str:
        """``<EvalbResult: 245 sentences, F1 86.80 (LR 86.79, LP 86.81)>``: the generated repr printed every sentence's
        row on one line (81,000 characters for 559 sentences) and not the figures asked for (properties)."""
        total, n = self.total, len(self.sentences)
        return (f"<EvalbResult: {n} sentence{'s' * (n != 1)}, F1 {total.fmeasure:.2f} (LR {total.recall:.2f}, "
                f"LP {total.precision:.2f})>")

    def __add__(self, other: EvalbResult) -> EvalbResult:
        if not isinstance(other, EvalbResult):
            return NotImplemented
        if other.params != self.params:
            raise ValueError("cannot add EVALB results scored with different parameters")
        offset = len(self.sentences)
        shifted = tuple(replace(row, id=row.id + offset) for row in other.sentences)
        return EvalbResult(self.sentences + shifted, self.params, self.total + other.total, self.cut + other.cut)

    @property
    def recall(self) -> float:
        """Bracketing recall over all sentences, percent."""
        return self.total.recall

    @property
    def precision(self) -> float:
        """Bracketing precision over all sentences, percent."""
        return self.total.precision

    @property
    def fmeasure(self) -> float:
        """Bracketing F-measure over all sentences, percent; 0.0 where evalb prints ``-nan`` (no matched bracket, or
        no sentence scored: ``total.valid_sentences`` is 0)."""
        return self.total.fmeasure

    f1 = fmeasure


def combine(results: Iterable[EvalbResult]) -> EvalbResult:
    """Sum several results (same parameters), e.g. one per file; empty input gives an empty result."""
    items = list(results)
    if not items:
        return EvalbResult.from_rows((), COLLINS_PARAMS)
    out = items[0]
    for item in items[1:]:
        out = out + item
    return out


# -- sentence reading (evalb's read_line) ----------------------------------------------------


# -- report (evalb's output layout) ----------------------------------------------------------

_RULE = "=" * 76
_HEADER = (
    "  Sent.                        Matched  Bracket   Cross        Correct Tag\n"
    " ID  Len.  Stat. Recal  Prec.  Bracket gold test Bracket Words  Tags Accracy\n"
    f"{_RULE}\n"
)


def format_rows(rows: Iterable[SentenceResult]) -> str:
    """The header and per-sentence lines of the evalb table (what evalb.c has printed when it stops at MAX_ERROR)."""
    return _HEADER + "".join(_format_row(row) for row in rows)


def _format_row(row: SentenceResult) -> str:
    return (
        f"{row.id:4d}  {row.length:3d}    {row.status:d}  "
        f"{row.recall:6.2f} {row.precision:6.2f}   {row.matched:3d}    {row.gold_brackets:3d}  "
        f"{row.test_brackets:3d}    {row.crossing:3d}"
        f"   {row.words:4d}  {row.correct_tags:4d}   {row.tag_accuracy:6.2f}\n"
    )


def _format_block(title: str, c: EvalbCounts) -> str:
    p, r = c.precision, c.recall
    f = f"{2 * p * r / (p + r):6.2f}" if p + r > 0 else f"{'-nan':>6}"
    return (
        f"\n-- {title} --\n"
        f"Number of sentence        = {c.sentences:6d}\n"
        f"Number of Error sentence  = {c.error_sentences:6d}\n"
        f"Number of Skip  sentence  = {c.skip_sentences:6d}\n"
        f"Number of Valid sentence  = {c.valid_sentences:6d}\n"
        f"Bracketing Recall         = {r:6.2f}\n"
        f"Bracketing Precision      = {p:6.2f}\n"
        f"Bracketing FMeasure       = {f}\n"
        f"Complete match            = {c.complete_match_rate:6.2f}\n"
        f"Average crossing          = {c.average_crossing:6.2f}\n"
        f"No crossing               = {c.no_crossing_rate:6.2f}\n"
        f"2 or less crossing        = {c.two_or_less_crossing_rate:6.2f}\n"
        f"Tagging accuracy          = {c.tagging_accuracy:6.2f}\n"
    )


def format_report(result: EvalbResult, *, summary_only: bool = False) -> str:
    """The evalb output for ``result``: per-sentence table, totals line and the two summary blocks.

    With ``summary_only`` only the part from ``=== Summary ===`` on is returned.
    """
    parts: list[str] = []
    t = result.total
    if not summary_only:
        parts.append(_HEADER)
        parts.extend(_format_row(row) for row in result.sentences)
        parts.append(f"{_RULE}\n")
        if t.gold_brackets > 0 and t.test_brackets > 0:
            parts.append(
                f"                {t.recall:6.2f} {t.precision:6.2f} {t.matched:6d} {t.gold_brackets:5d} "
                f"{t.test_brackets:5d}  {t.crossing:5d}"
            )
        parts.append(f"  {t.words:5d} {t.correct_tags:5d}   {t.tagging_accuracy:6.2f}\n")
    parts.append("=== Summary ===\n")
    parts.append(_format_block("All", t))
    parts.append(_format_block(f"len<={result.params.cutoff_len}", result.cut))
    return "".join(parts)
