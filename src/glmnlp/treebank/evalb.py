"""EVALB-compatible bracket scoring, in-process (the semantics of evalb.c by Sekine & Collins).

Parsing accuracy in the paper (Collins & Roark 2004, section 5) and everywhere else is reported as
the labelled bracket recall / precision / F-measure printed by the EVALB program with the
``COLLINS.prm`` parameter file. Running the C program in a subprocess and scraping its output is
fragile, so this module re-implements its semantics and reproduces its output figure for figure (the
tests compare whole reports with reference outputs).

How a sentence is scored (what evalb.c does, restated):

* Input is line based: line *k* of the gold file is scored against line *k* of the test file. A
  line may hold one tree or a sequence of bracketed items; an empty test line is a parse failure.
* A preterminal ``(TAG word)`` is a *terminal*. Its length contribution is counted on the gold
  side unless TAG is a ``DELETE_LABEL_FOR_LENGTH`` label (exact string match); that count is the
  ``Len.`` column and decides the ``len<=CUTOFF_LEN`` block. A terminal whose TAG is a
  ``DELETE_LABEL`` (exact match) is dropped: it is not a word, not a tag, and takes no room in any
  span, so a bracket that only covers deleted terminals (e.g. ``(PRN (, ,))``) has an empty span.
* Every other bracket becomes ``(start, end, label)`` over the kept terminals. The label is cut at
  its first ``-`` or ``=`` (``NP-SBJ-1`` -> ``NP``; ``-NONE-`` -> the empty label). A bracket is
  dropped when its span is empty or its cut label equals a ``DELETE_LABEL`` (equality includes
  ``EQ_LABEL`` pairs). With ``COLLINS.prm`` the ``TOP`` root is dropped and the sentence-level
  ``S`` counts like any other bracket. An unlabelled root ``( (S ...) )`` is a bracket with the
  empty label: evalb keeps and scores it, so do we.
* Status 2 (*skip*): the test sentence has no kept terminal (empty line, ``None`` tree).
  Status 1 (*error*): the numbers of kept terminals differ ("Length unmatch (g|t)") or some pair of
  words differs, modulo ``EQ_WORD`` ("Words unmatch (g|t)"). Error and skip rows print zeros and
  count only in the sentence totals.
* Matching is greedy in bracket order: each gold bracket takes the first still unmatched test
  bracket with the same span and an equal label (``EQ_LABEL`` pairs are equal, non-directionally;
  any label when ``LABELED 0``). Duplicate brackets are therefore matched as a multiset.
* Crossing brackets are counted on the test side: a test bracket ``(s, e)`` crosses when some kept
  gold bracket ``(a, b)`` has ``a < s < b < e`` or ``s < a < e < b``.
* Tags are compared position by position (``EQ_LABEL`` pairs equal), on the uncut tag strings.
* ``MAX_ERROR``: evalb exits when an error is raised while more than ``MAX_ERROR`` errors have
  already been counted, i.e. it tolerates ``MAX_ERROR + 1`` error sentences and aborts at the
  next; :class:`EvalbAbortError` is raised at that point.
* Summary figures are computed with evalb's arithmetic (``100.0 * match / total``, F =
  ``2 * P * R / (P + R)`` on percentages) so the two-decimal rounding is identical; where evalb
  prints ``-nan`` (no matched bracket) the report prints ``-nan`` too.

Our choices where evalb.c gives no usable behaviour:

* Malformed input is an error, never scored: an unbalanced line, text outside brackets, a bracket
  holding two words or a word before a subtree raise :class:`~glmnlp.errors.TreeSyntaxError`
  (``file:line: reason``). evalb.c marks some of these as error sentences and loops or crashes on
  others. A space between a terminal's word and its ``)`` (``(NN dog )``) is read as the terminal (evalb.c
  reports "More than two elements in a bracket" and loops). A differing number of lines in the two files raises
  :class:`~glmnlp.errors.InputError` (evalb.c prints an error and scores the common prefix), unless the extra
  lines are blank (scored as evalb scores them: not at all).

Parameter files, the result records and the printed report are :mod:`glmnlp.treebank.evalb_report`;
this module reads the two sides and scores them.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from glmnlp.errors import InputError, TreeSyntaxError
# parameters, records and the report are re-exported: callers keep one import path for EVALB
from glmnlp.treebank.evalb_report import (
    COLLINS_PARAMS,
    STATUS_ERROR,
    STATUS_OK,
    STATUS_SKIP,
    EvalbAbortError,
    EvalbCounts,
    EvalbParams,
    EvalbResult,
    SentenceResult,
    combine,
    format_params,
    format_report,
    format_rows,
    is_punct_word,
    parse_params,
    read_params,
    read_text,
)
from glmnlp.treebank.trees import Tree, escape_brackets, with_bracket_hint

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
    "format_params",
    "format_report",
    "format_rows",
    "is_punct_word",
    "parse_params",
    "read_params",
    "score_files",
    "score_lines",
    "score_trees",
]

@dataclass(slots=True)
class _Sentence:
    """What evalb keeps of one line: kept terminals, all brackets (uncut labels), gold length."""

    words: list[str]
    tags: list[str]
    brackets: list[tuple[int, int, str]]
    length: int


_TOKEN = re.compile(r"\(|\)|[ \t\n\r\f\v]+|[^ \t\n\r\f\v()]+")


def _blank(token: str) -> bool:
    """Whether a :data:`_TOKEN` is whitespace as evalb.c (C locale) knows it: ASCII only (a no-break space is a word's
    character there, where ``str.isspace`` calls it a space)."""
    return token[0] in " \t\n\r\f\v"


def _read_line(text: str, params: EvalbParams, source: str, line: int) -> _Sentence:
    """One tree of an EVALB file; an error names a bracket glued to a label or word if the line has one
    (:func:`glmnlp.treebank.trees.with_bracket_hint`)."""
    try:
        return _read_bracketed_line(text, params, source, line)
    except TreeSyntaxError as exc:
        raise with_bracket_hint(exc, text) from None


def _read_bracketed_line(text: str, params: EvalbParams, source: str, line: int) -> _Sentence:
    """Read one line of bracketed items the way evalb.c's ``read_line`` does (strictly).

    As there, whitespace after a bracket's label decides what it is: ``(TAG word)`` and ``(TAG )`` are terminals
    (the second with an empty word), ``( word)`` a terminal with an empty tag, ``( )`` a terminal with neither, and
    a label followed at once by ``)``, as in ``(ADVP)``, an empty bracket (``(ADVP )`` was read as one, and scored
    where evalb finds a length mismatch)."""
    toks = _TOKEN.findall(text)
    words: list[str] = []
    tags: list[str] = []
    brackets: list[list[Any]] = []
    stack: list[int] = []
    length = 0
    delete = set(params.delete_labels)
    delete_len = set(params.delete_labels_for_length)
    strip = params.strip_punct
    i, n = 0, len(toks)

    def text_at(k: int) -> bool:
        return k < n and toks[k] not in ("(", ")") and not _blank(toks[k])

    while i < n:
        tok = toks[i]
        if _blank(tok):
            i += 1
            continue
        if tok == "(":
            i += 1
            label = ""
            if text_at(i):
                label = toks[i]
                i += 1
            if i < n and _blank(toks[i]) and not (i + 1 < n and toks[i + 1] == "("):  # a terminal
                i += 1
                word = ""
                if text_at(i):
                    word = toks[i]
                    i += 1
                    if i < n and _blank(toks[i]):  # "(TAG word )": our choice (evalb.c: "More than two elements")
                        i += 1
                if i >= n or toks[i] != ")":
                    what = "a word before a subtree" if i < n and toks[i] == "(" else "two words"
                    if i >= n:
                        what = "a word and no ')'"
                    raise TreeSyntaxError(f"bracket {label!r} holds {what}", source=source, line=line)
                i += 1
                if strip and is_punct_word(word):
                    continue
                if label not in delete_len:
                    length += 1
                if label not in delete:
                    words.append(word)
                    tags.append(label)
                continue
            if i < n and _blank(toks[i]):
                i += 1
            stack.append(len(brackets))
            brackets.append([len(words), -1, label])
        elif tok == ")":
            if not stack:
                raise TreeSyntaxError("unbalanced ')' with no open bracket", source=source, line=line)
            brackets[stack.pop()][1] = len(words)
            i += 1
        elif stack:
            raise TreeSyntaxError(
                f"word {tok!r} after a subtree (only a (TAG word) bracket holds a word)", source=source, line=line
            )
        else:
            raise TreeSyntaxError(f"text {tok!r} outside any bracket", source=source, line=line)
    if stack:
        raise TreeSyntaxError(
            f"unbalanced '(': {len(stack)} bracket(s) still open at end of line "
            "(EVALB reads one tree per line)",
            source=source,
            line=line,
        )
    return _Sentence(words, tags, [(s, e, lab) for s, e, lab in brackets], length)


def _read_tree(tree: Tree, params: EvalbParams, source: str, line: int) -> _Sentence:
    """The :class:`_Sentence` of a tree: what :func:`_read_line` gives for ``to_bracket(tree)``."""
    words: list[str] = []
    tags: list[str] = []
    brackets: list[tuple[int, int, str]] = []
    delete = set(params.delete_labels)
    delete_len = set(params.delete_labels_for_length)
    strip = params.strip_punct
    length = 0

    def walk(node: Tree) -> None:
        nonlocal length
        label = node.display_label
        if node.is_preterminal:
            # the word as to_bracket writes it: a pipeline's tree holds "(" as written, the file of it "-LRB-"
            word = escape_brackets(node.children[0])  # type: ignore[arg-type]
            if strip and is_punct_word(word):
                return
            if label not in delete_len:
                length += 1
            if label not in delete:
                words.append(word)
                tags.append(label)
            return
        if any(isinstance(child, str) for child in node.children):
            raise TreeSyntaxError(f"node {label!r} mixes words and subtrees", source=source, line=line)
        index = len(brackets)
        brackets.append((len(words), -1, label))
        for child in node.children:
            walk(child)  # type: ignore[arg-type]
        brackets[index] = (brackets[index][0], len(words), label)

    walk(tree)
    return _Sentence(words, tags, brackets, length)


# -- scoring (evalb's calc_result) -----------------------------------------------------------

_CUT = re.compile(r"[-=]")


class _Equal:
    """Equality modulo a set of unordered pairs (evalb's ``label_comp`` / ``word_comp``)."""

    __slots__ = ("pairs",)

    def __init__(self, pairs: Iterable[tuple[str, str]]) -> None:
        self.pairs = {(a, b) for a, b in pairs} | {(b, a) for a, b in pairs}

    def __call__(self, a: str, b: str) -> bool:
        return a == b or (a, b) in self.pairs


def _deleted_bracket_labels(params: EvalbParams, label_eq: _Equal) -> frozenset[str]:
    """Cut labels that evalb's ``massage_data`` deletes: a DELETE_LABEL or an EQ_LABEL partner of one."""
    deleted = set(params.delete_labels)
    deleted.update(a for a, b in label_eq.pairs if b in params.delete_labels)
    return frozenset(deleted)


def _match_count(gold_br: Sequence[tuple[int, int, str]], test_br: Sequence[tuple[int, int, str]],
                 params: EvalbParams, label_eq: _Equal) -> int:
    """Greedy matching in bracket order: each gold bracket takes the first unmatched test bracket with its span and
    label. Each span's test brackets are read from the first unmatched one on (from the first, a unary chain of n
    brackets took n**2 steps)."""
    by_span: dict[tuple[int, int], list[list[Any]]] = {}
    for start, end, label in test_br:
        by_span.setdefault((start, end), []).append([label, False])
    first: dict[tuple[int, int], int] = {}
    matched = 0
    for start, end, label in gold_br:
        cands = by_span.get((start, end), [])
        k = first.get((start, end), 0)
        while k < len(cands) and cands[k][1]:
            k += 1
        first[(start, end)] = k
        for cand in cands[k:]:
            if not cand[1] and (not params.labeled or label_eq(label, cand[0])):
                cand[1] = True
                matched += 1
                break
    return matched


def _span_bounds(brackets: Sequence[tuple[int, int, str]], n: int) -> tuple[list[int], list[int]]:
    """For :func:`_crosses`: per position, the furthest end of a bracket starting there and the earliest start of
    one ending there (-1 and n + 1 where none)."""
    furthest, earliest = [-1] * (n + 2), [n + 1] * (n + 2)
    for a, b, _ in brackets:
        furthest[a], earliest[b] = max(furthest[a], b), min(earliest[b], a)
    return furthest, earliest


def _crosses(s: int, e: int, furthest: list[int], earliest: list[int]) -> bool:
    """Whether a gold bracket (a, b) crosses the test bracket (s, e): a < s < b < e (one ends inside it having begun
    before) or s < a < e < b. Read by position inside (s, e), not bracket by bracket (every test bracket against
    every gold one: quadratic in the brackets of a deep tree, whose positions are few)."""
    return any(earliest[p] < s or furthest[p] > e for p in range(s + 1, e))


def _kept_brackets(sent: _Sentence, deleted: frozenset[str]) -> list[tuple[int, int, str]]:
    """evalb's ``massage_data``: cut labels at '-'/'=', drop empty spans and deleted labels."""
    kept = []
    for start, end, label in sent.brackets:
        if start == end:
            continue
        cut = _CUT.split(label, 1)[0] if "-" in label or "=" in label else label
        if cut not in deleted:
            kept.append((start, end, cut))
    return kept


def _score_sentence(
    ident: int,
    gold: _Sentence,
    test: _Sentence | None,
    params: EvalbParams,
    label_eq: _Equal,
    word_eq: _Equal,
    deleted: frozenset[str],
) -> SentenceResult:
    if test is None or not test.words:
        return SentenceResult(ident, gold.length, STATUS_SKIP)
    if len(gold.words) != len(test.words):
        reason = f"Length unmatch ({len(gold.words)}|{len(test.words)})"
        return SentenceResult(ident, gold.length, STATUS_ERROR, reason=reason)
    for gw, tw in zip(gold.words, test.words):
        if not word_eq(gw, tw):
            # two spellings of the same characters (an accent composed or as a combining mark) print alike
            same = unicodedata.normalize("NFC", gw) == unicodedata.normalize("NFC", tw)
            note = ": the same characters, in two Unicode forms (NFC, NFD)" if same else ""
            return SentenceResult(ident, gold.length, STATUS_ERROR, reason=f"Words unmatch ({gw}|{tw}){note}")

    gold_br = _kept_brackets(gold, deleted)
    test_br = _kept_brackets(test, deleted)

    matched = _match_count(gold_br, test_br, params, label_eq)
    bounds = _span_bounds(gold_br, max((b for _, b, _ in (*gold_br, *test_br)), default=0))
    crossing = sum(_crosses(s, e, *bounds) for s, e, _ in test_br)

    correct = sum(1 for gt, tt in zip(gold.tags, test.tags) if label_eq(gt, tt))
    return SentenceResult(
        ident,
        gold.length,
        STATUS_OK,
        matched=matched,
        gold_brackets=len(gold_br),
        test_brackets=len(test_br),
        crossing=crossing,
        words=len(gold.words),
        correct_tags=correct,
    )


def _score(
    pairs: Iterable[tuple[_Sentence, _Sentence | None]], params: EvalbParams, test_source: str
) -> EvalbResult:
    label_eq = _Equal(params.eq_labels)
    word_eq = _Equal(params.eq_words)
    deleted = _deleted_bracket_labels(params, label_eq)
    rows: list[SentenceResult] = []
    errors = 0
    for ident, (gold, test) in enumerate(pairs, start=1):
        row = _score_sentence(ident, gold, test, params, label_eq, word_eq, deleted)
        if row.status == STATUS_ERROR:
            if errors > params.max_error:  # evalb.c: if (Error_count++ > Max_error) exit(1)
                abort = EvalbAbortError(
                    f"{row.reason}: error sentence number {errors + 1}, more than MAX_ERROR + 1 = "
                    f"{params.max_error + 1}; evalb stops here (check the tokenization or raise MAX_ERROR)",
                    source=test_source,
                    line=ident,
                )
                abort.rows, abort.stopped_at = tuple(rows), row
                raise abort
            errors += 1
        rows.append(row)
    return EvalbResult.from_rows(rows, params)


def _tree_list(trees: Iterable[Tree | None], name: str) -> list[Tree | None]:
    """The trees given to :func:`score_trees` as a list (a generator too: its len() failed once the type check had
    read it), or a TypeError naming what was given."""
    items = list(trees) if isinstance(trees, Iterable) and not isinstance(trees, (str, bytes, Tree)) else None
    if items is None or not all(t is None or isinstance(t, Tree) for t in items):
        raise TypeError(f"{name}: expected a sequence of Trees (parse_tree reads a bracket string; score_lines "
                        "scores lines of brackets, score_files files)")
    return items


def score_trees(
    gold: Iterable[Tree], test: Iterable[Tree | None], params: EvalbParams | None = None
) -> EvalbResult:
    """Score test trees against gold trees, sentence by sentence, as evalb scores two files.

    ``test[i]`` may be ``None`` for a sentence the parser could not analyse: evalb's skip
    sentence (status 2), as for an empty line. Both must have the same length (lists, or any iterables).
    ``params`` defaults to :data:`COLLINS_PARAMS`.

    When no sentence is scored (every test tree ``None``, or every sentence an error), ``total.valid_sentences``
    is 0 and recall, precision and F-measure are 0.0, where evalb.c prints ``-nan`` (as :func:`format_report` does,
    and ``glmnlp evalb`` warns): a figure stays a number that compares, sums and is written to a table; the count
    of valid sentences says that nothing was scored.

    Raises :class:`InputError` on a length difference, :class:`TreeSyntaxError` on a tree evalb
    cannot read (a node mixing words and subtrees), :class:`EvalbAbortError` after too many
    error sentences.
    """
    params = _checked_params(params)
    gold_trees, test_trees = _tree_list(gold, "gold"), _tree_list(test, "test")
    if len(gold_trees) != len(test_trees):
        raise InputError(f"{len(gold_trees)} gold tree{'s' * (len(gold_trees) != 1)} but {len(test_trees)} test "
                         f"tree{'s' * (len(test_trees) != 1)}: EVALB needs one test per gold tree")
    pairs = []
    for i, (g, t) in enumerate(zip(gold_trees, test_trees), start=1):
        if g is None:
            raise InputError("gold tree is None", source="<gold>", line=i)
        pairs.append((_read_tree(g, params, "<gold>", i), None if t is None else _read_tree(t, params, "<test>", i)))
    return _score(pairs, params, "<test>")


def score_lines(
    gold_lines: Sequence[str],
    test_lines: Sequence[str],
    params: EvalbParams | None = None,
    *,
    gold_source: str = "<gold>",
    test_source: str = "<test>",
) -> EvalbResult:
    """Score line ``k`` of ``test_lines`` against line ``k`` of ``gold_lines`` (evalb's input model).

    Blank lines that end the longer file are left out (a file ending in an empty line was refused for its line
    count, where evalb scores the lines both files have: the same figures); other extra lines are an error."""
    params = _checked_params(params)
    common = min(len(gold_lines), len(test_lines))
    if all(not line.strip() for line in (*gold_lines[common:], *test_lines[common:])):
        gold_lines, test_lines = gold_lines[:common], test_lines[:common]
    if len(gold_lines) != len(test_lines):
        for i, (g, t) in enumerate(zip(gold_lines, test_lines), start=1):  # a file that holds no trees (CoNLL-U
            _read_line(g, params, gold_source, i)  # given as gold) is named for that first, not for its line count
            _read_line(t, params, test_source, i)
        raise _count_error(gold_lines, test_lines, gold_source, test_source)
    pairs = [
        (_read_line(g, params, gold_source, i), _read_line(t, params, test_source, i))
        for i, (g, t) in enumerate(zip(gold_lines, test_lines), start=1)
    ]
    return _score(pairs, params, test_source)


def _count_error(gold_lines: Sequence[str], test_lines: Sequence[str], gold_source: str, test_source: str
                 ) -> InputError:
    """The files' line counts differ: the error names the longer file at its first line without a partner (the
    shorter file's line of that number does not exist), and a shorter file holding a lone carriage return, whose
    lines evalb joins (it ends a line at \\n only), is named for it."""
    common = min(len(gold_lines), len(test_lines))
    gold_n, test_n = _lines(len(gold_lines)), _lines(len(test_lines))
    if len(gold_lines) > len(test_lines):
        shorter, shorter_source = test_lines, test_source
        message = f"{gold_n} in the gold file but {test_n} in the test file ({test_source})"
        source = gold_source
    else:
        shorter, shorter_source = gold_lines, gold_source
        message = f"{gold_n} in the gold file ({gold_source}) but {test_n} here"
        source = test_source
    message += ": EVALB needs one tree per line in both files"
    if any("\r" in line.rstrip("\r") for line in shorter):
        message += (f"; {shorter_source} holds a lone carriage return (old Mac line ends): evalb ends a line at \\n "
                    "only: save the file with \\n line ends")
    return InputError(message, source=source, line=common + 1)


def _lines(count: int) -> str:
    """``1 line``, ``2 lines``."""
    return f"{count} line{'s' * (count != 1)}"


def _checked_params(params: Any) -> EvalbParams:
    """``params``, or :data:`COLLINS_PARAMS` for None; anything else is a TypeError (an int was an AttributeError
    from inside the scorer)."""
    if params is None:
        return COLLINS_PARAMS
    if not isinstance(params, EvalbParams):
        raise TypeError(f"params must be an EvalbParams (evalb_report.read_params reads a .prm file) or None, "
                        f"got {type(params).__name__}")
    return params


def score_files(
    gold_path: str | Path, test_path: str | Path, params: EvalbParams | str | Path | None = None, *,
    read: Callable[[str, str], None] | None = None,
) -> EvalbResult:
    """Score two files with one tree per line, like ``evalb -p PRM GOLD TEST``.

    ``params`` is an :class:`EvalbParams`, the path of a ``.prm`` file, or ``None`` for
    :data:`COLLINS_PARAMS`. An empty test line is a skipped sentence (parse failure); a test file of blank lines
    only gives a result with no valid sentence and figures of 0.0 (see :func:`score_trees`). A gold file without a tree
    (empty, or blank lines only) is an :class:`InputError`, as every command that reads trees refuses one: its
    report was a ``-nan`` F-measure with status 0, which a pipeline took for a successful evaluation.
    ``read(path, text)``, if given, is called with each file's text as it is read (the command line looks there for
    spaces evalb does not take for one: each file is read once, a pipe too).
    """
    if isinstance(params, (str, Path)):
        params = read_params(params)

    def lines_of(path: str | Path) -> list[str]:
        text = read_text(path)
        if read is not None:
            read(str(path), text)
        return _split_lines(text)

    gold_lines = lines_of(gold_path)
    if not any(line.strip() for line in gold_lines):
        raise InputError("no trees in this file", source=str(gold_path))
    return score_lines(gold_lines, lines_of(test_path), params, gold_source=str(gold_path), test_source=str(test_path))


def _split_lines(text: str) -> list[str]:
    """Lines as C's ``fgets`` sees them: split on '\\n' only; no phantom line after a final '\\n'."""
    if not text:
        return []
    lines = text.split("\n")
    if text.endswith("\n"):
        lines.pop()
    return lines
