"""Output formats for analysed documents: brackets, pretty trees, JSON, CoNLL-U, word/TAG, SVG, HTML.

Every function takes a :class:`~glmnlp.text.document.Document` (or, for the drawing functions, a
:class:`~glmnlp.treebank.trees.Tree`) and returns a ``str``; writing it to a file or stdout is the caller's
business (the CLI uses :func:`glmnlp.treebank.fileio.atomic_write_text`).

The text formats delegate to the existing writers so that what glmnlp writes, glmnlp reads back:
brackets and pretty trees to :mod:`glmnlp.treebank.trees`, CoNLL-U and word/TAG to :mod:`glmnlp.treebank.formats`,
JSON to :meth:`Document.to_dict`.

**Tree drawing** (:func:`tree_layout`, :func:`render_svg`) is a tidy layout computed here, with no
graphics library (our choices):

* Words sit on the bottom row, left to right in sentence order; each node is drawn on the row of
  its depth, so a constituent's label is above its span of words.
* Every node owns a horizontal box. A word's box is its text width plus padding; a node's box is
  the children's boxes side by side with a fixed gap, widened (symmetrically around the label)
  when the label is wider than that. Boxes of siblings never overlap, so no two labels on a row and
  no two words overlap.
* A node's label is centred over its children: midway between the centres of its first and last
  child (over the child itself for a unary node).
* Text widths are estimated from per-character classes, each sized by the widest DejaVu Sans glyph
  of the class (regular for words, bold for labels): ASCII's, the other letters of the Latin, Greek and Cyrillic
  blocks (by case), combining marks, East Asian wide characters, and any other character at the widest glyph.
  DejaVu Sans is wider than Arial or Helvetica, the fallbacks named in the SVG, so the estimate errs wide: another
  font makes the tree a little airier, never overlapping (a script DejaVu Sans lacks comes from another font,
  which the widest class is meant to cover, not measured).
* A drawing's style rules are scoped to its ``<svg>`` element's class (``glmnlp-tree-14``, ``-12`` for compact
  drawings), so that a drawing placed in an HTML page restyles nothing else on it.

**Compact drawings** (``compact=True``, ``glmnlp parse --format svg --compact``) for long
sentences: smaller type (12 px), tighter padding and gaps, and each word's POS tag written under
the word instead of on a row of its own (one row less, and a word box is only as wide as the
wider of word and tag). The first 41-word sentence of the sample's test split (wsj_0180-0199) lays out 2,381 px wide
normally and 1,593 px compact.

**ASCII drawings** (:func:`render_ascii`, ``--format ascii``) come from NLTK's
``TreePrettyPrinter`` (an installed dependency), one drawing per tree.

Our choices: an unparsed sentence is an error for the tree formats (brackets, pretty, SVG), because
writing a placeholder tree would look like a parser decision; the HTML page shows such sentences as
tagged tokens instead. CoNLL-U output carries ``# sent_id`` and, when the original text is known,
``# text`` comments, the words as written and ``SpaceAfter=No`` where a token touches the next, so that UD's
validator finds the forms rebuilding the text; pre-tokenised input has no text to give (UD's validator wants a ``#
text`` line there too, which glmnlp does not invent). Text written into SVG and HTML goes through
:func:`~glmnlp.text.drawing.markup_text`, so a control character in a word or in the text (a NUL, an
``\\x01``) shows as U+FFFD instead of making the drawing or page unreadable (details there).
"""

from __future__ import annotations

import json
import operator
from collections.abc import Iterable
from typing import Literal

from glmnlp.text.document import Document, Sentence
from glmnlp.text.drawing import (  # the drawing of one tree; re-exported here
    _COMPACT,
    _FONT,
    FONT_SIZE,
    NodeBox,
    TreeLayout,
    draw_ascii,
    markup_text,
    render_svg,
    svg_body,
    svg_class,
    svg_style,
    text_width,
    tree_layout,
)
from glmnlp.treebank.formats import TaggedSentence, write_conllu, write_word_tag
from glmnlp.treebank.trees import Tree, to_bracket, to_pretty

__all__ = [
    "NodeBox",
    "render_ascii",
    "render_svg_document",
    "TreeLayout",
    "render_brackets",
    "render_conllu",
    "render_html",
    "render_json",
    "render_pretty",
    "render_svg",
    "render_word_tag",
    "text_width",
    "tree_layout",
]


# -- text formats ----------------------------------------------------------------------------


def _document(doc: Document) -> Document:
    """``doc``, or a TypeError naming what was given instead (a tree, a string: the renderers take documents)."""
    if not isinstance(doc, Document):
        raise TypeError(f"expected a Document, got {type(doc).__name__}{_hint(doc)}")
    return doc


def _hint(value: object) -> str:
    """What to pass instead of a tree or a sentence, which users hand to the renderers of documents."""
    if isinstance(value, Tree):
        return " (to_bracket and to_pretty write a Tree)"
    if isinstance(value, Sentence):
        return ": pass its Document, or draw its tree with render_svg(sentence.tree)"
    return ""


def _documents(doc: Document | Iterable[Document]) -> list[Document]:
    """One document or several as a list; anything else (None, a string, a tree) a TypeError naming it."""
    if isinstance(doc, Document):
        return [doc]
    if isinstance(doc, (str, bytes, Tree, Sentence)) or not isinstance(doc, Iterable):  # a Sentence iterates tokens
        raise TypeError(f"expected a Document or an iterable of Documents, got {type(doc).__name__}{_hint(doc)}")
    return [_document(d) for d in doc]


def _tree_of(sent: Sentence, index: int) -> Tree:
    if sent.tree is None:
        raise ValueError(f"sentence {index} ({' '.join(sent.words)!r}) has no tree: it was not parsed")
    return sent.tree


def render_brackets(doc: Document) -> str:
    """One tree per line in Penn Treebank brackets (the EVALB input format)."""
    return "".join(to_bracket(_tree_of(s, i)) + "\n" for i, s in enumerate(_document(doc).sentences, 1))


def render_pretty(doc: Document, indent: int = 2) -> str:
    """Indented multi-line trees separated by blank lines (:func:`~glmnlp.treebank.trees.to_pretty`).

    ``indent`` is the number of spaces each level of a tree is indented by, relative to its parent.
    """
    _check_int(indent, "indent")
    return "\n".join(to_pretty(_tree_of(s, i), indent) + "\n" for i, s in enumerate(_document(doc).sentences, 1))


def _check_int(value: object, name: str) -> None:
    """An option that is a number of something (numpy integers too): a str or a float failed later inside an
    arithmetic operation."""
    try:
        operator.index(value)  # type: ignore[arg-type]
    except TypeError:
        raise TypeError(f"{name} is an integer, not {value!r}") from None
    if isinstance(value, bool):
        raise TypeError(f"{name} is an integer, not {value!r}")


#: characters Python's str.splitlines (and some editors) take as line ends; JSON allows them raw in strings
_LINE_BREAKS = {"\x85": "\\u0085", "\u2028": "\\u2028", "\u2029": "\\u2029"}


def json_line(data: object) -> str:
    """``data`` as one line of JSON (no trailing newline) that every line splitter keeps whole.

    Non-ASCII text is written as is, except U+0085, U+2028 and U+2029, which are written as
    ``\\uXXXX`` escapes: raw, they end a line for ``str.splitlines`` and the document would be cut.
    """
    text = json.dumps(data, ensure_ascii=False, allow_nan=False)
    for raw, escaped in _LINE_BREAKS.items():
        if raw in text:
            text = text.replace(raw, escaped)
    return text


def render_json(doc: Document, indent: int | None = None) -> str:
    """The document as JSON (:meth:`Document.to_dict`); one line (:func:`json_line`) unless ``indent`` is given."""
    if indent is None:
        return json_line(_document(doc).to_dict()) + "\n"
    if isinstance(indent, bool) or not isinstance(indent, int | str):  # json.dumps' own: a number or a string
        raise TypeError(f"indent is an integer or a string, not {indent!r}")
    return json.dumps(_document(doc).to_dict(), ensure_ascii=False, indent=indent) + "\n"


def _tagged(sent: Sentence, index: int) -> TaggedSentence:
    tags = sent.tags
    if all(tag is None for tag in tags):
        return TaggedSentence(tuple(sent.words), None)
    if any(tag is None for tag in tags):
        raise ValueError(f"sentence {index}: some tokens are tagged and some are not")
    return TaggedSentence(tuple(sent.words), tuple(tags))  # type: ignore[arg-type]


def render_conllu(doc: Document, first_id: int = 1, column: Literal["xpos", "upos"] = "xpos") -> str:
    """CoNLL-U: ID, FORM and the tags (``_`` when untagged) in ``column``, XPOS or, for the tags of a tagger trained
    on UPOS (``Tagger.tag_column_``), UPOS, MISC's ``SpaceAfter=No`` where known, the other columns ``_``.

    Sentences get ``# sent_id`` numbers from ``first_id`` on (for numbering across documents). When every token of
    a sentence has its offsets in the document's text (raw-text input), FORM is the token as written (a quote as
    ``"``, a bracket as ``(``; the XPOS column keeps the treebank's tags, as UD English does), ``# text`` is the
    sentence's text with each run of whitespace written as one space (and without the invisible characters the
    tokenizer leaves out of every token), and a token that the next token touches gets
    ``SpaceAfter=No`` (the last of a sentence too, when the next sentence begins right after it), so that the forms
    rebuild the ``# text`` line, which is what UD's validator checks. Without offsets (pre-tokenised input, whose
    text is its tokens) ``# text`` is the forms joined by single spaces, which they rebuild with no ``SpaceAfter``
    marks: UD's validator requires the line in every sentence.
    """
    d = _document(doc)
    _check_int(first_id, "first_id")
    starts = [t.start for s in d.sentences for t in s.tokens][1:] + [None]
    out: list[str] = []
    seen = 0
    for index, sent in enumerate(d.sentences, first_id):
        text = _sentence_text(doc, sent)
        tagged = _tagged(sent, index)
        misc = None
        line = None
        if text is not None:
            spans = [(t.start, t.end) for t in sent.tokens]
            line = " ".join(text.split())
            if all(a is not None and b is not None for a, b in spans):
                tagged = TaggedSentence(tuple(doc.text[a:b] for a, b in spans), tagged.tags)
                touching = [starts[seen + k] == b for k, (_a, b) in enumerate(spans)]
                misc = [["SpaceAfter=No" if t else "_" for t in touching]]
                # the forms and their spaces: the text but for the invisible characters the tokenizer leaves out of
                # every token (an ANSI escape's ESC was in # text and in no form, which UD's validator refuses)
                line = "".join(f + ("" if t else " ") for f, t in zip(tagged.words, touching)).rstrip(" ")
        seen += len(sent.tokens)
        out.append(write_conllu([tagged], column, misc, first_id=index, texts=None if line is None else [line]))
    return "".join(out)


def render_word_tag(doc: Document, sep: str = "/") -> str:
    """One sentence per line as ``word/TAG`` tokens (the tagger's usual output).

    ``sep`` is written between a word and its tag (a reader splits at the last one, so a word may contain it); a
    tag that contains it (the line could not be read back) or an untagged sentence raises
    :class:`~glmnlp.errors.FormatError`.
    """
    return write_word_tag([_tagged(s, i) for i, s in enumerate(_document(doc).sentences, 1)], sep)


def _sentence_text(doc: Document, sent: Sentence) -> str | None:
    start, end = sent.tokens[0].start, sent.tokens[-1].end
    if start is None or end is None or not doc.text:
        return None
    return doc.text[start:end]


def render_svg_document(doc: Document | Iterable[Document], *, compact: bool = False) -> str:
    """One standalone SVG holding the drawing of every sentence, one under the other.

    What ``glmnlp parse --format svg`` writes to stdout without ``--out-dir``. Every sentence must
    be parsed.
    """
    docs = _documents(doc)
    sentences = [s for d in docs for s in d.sentences]
    if not sentences:
        raise ValueError("no sentences to draw")
    parts: list[str] = []
    y = 0.0
    width = 0.0
    font = _COMPACT.font if compact else FONT_SIZE
    for index, sent in enumerate(sentences, 1):
        layout = tree_layout(_tree_of(sent, index), compact=compact)
        parts.append(f'<g transform="translate(0 {y:.1f})">')
        parts.append(f"<title>{markup_text(to_bracket(sent.tree))}</title>")  # type: ignore[arg-type]
        parts.extend(svg_body(layout))
        parts.append("</g>")
        y += layout.height
        width = max(width, layout.width)
    return "\n".join(
        [
            f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0f}" height="{y:.0f}" '
            f'viewBox="0 0 {width:.1f} {y:.1f}" class="{svg_class(font)}" role="img">',
            f"<title>{markup_text(' / '.join(s.text for s in sentences))}</title>",
            svg_style(font),
            '<rect width="100%" height="100%" fill="#ffffff"/>',
            *parts,
            "</svg>",
        ]
    ) + "\n"


def render_ascii(tree: Tree | Document, *, unicode_lines: bool = False) -> str:
    """The tree drawn in characters (NLTK's ``TreePrettyPrinter``), or every tree of a document.

    ``unicode_lines`` draws with box-drawing characters instead of ``_``, ``/`` and ``|``.
    """
    if isinstance(tree, Document):
        return "\n".join(draw_ascii(_tree_of(s, i), unicode_lines=unicode_lines)
                         for i, s in enumerate(tree.sentences, 1))
    return draw_ascii(tree, unicode_lines=unicode_lines)


def render_html(doc: Document | Iterable[Document], *, title: str = "glmnlp parses", compact: bool = False) -> str:
    """A standalone HTML page: each sentence's text and its drawn tree (or its tags if unparsed).

    ``doc`` is one document or several (their sentences are numbered on, in order). ``title`` is the page's
    title and heading. ``compact`` draws the trees as :func:`render_svg` does with ``compact=True``: smaller
    type and each POS tag under its word, narrower for long sentences (module docstring).
    """
    docs = _documents(doc)
    if not isinstance(title, str):
        raise TypeError(f"title is a string, not {title!r}")
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en">',
        "<head>",
        '<meta charset="utf-8">',
        f"<title>{markup_text(title, quote=True)}</title>",
        "<style>body{font-family:" + _FONT + ";margin:2em;color:#111}"
        "figure{margin:0 0 2.5em 0;overflow-x:auto}figcaption{margin-bottom:.6em}"
        ".tag{color:#1f3b73;font-size:.8em;vertical-align:sub}</style>",
        "</head>",
        "<body>",
        f"<h1>{markup_text(title, quote=True)}</h1>",
    ]
    pairs = [(d, sent) for d in docs for sent in d.sentences]
    for index, (d, sent) in enumerate(pairs, 1):
        text = _sentence_text(d, sent) or " ".join(sent.words)
        parts.append(f'<figure id="s{index}">')
        parts.append(f"<figcaption><strong>{index}.</strong> {markup_text(text, quote=True)}</figcaption>")
        if sent.tree is not None:
            parts.append(render_svg(sent.tree, compact=compact).rstrip("\n"))
        else:
            parts.append("<p>" + " ".join(_tagged_span(tok.text, tok.tag) for tok in sent.tokens) + "</p>")
        parts.append("</figure>")
    parts += ["</body>", "</html>"]
    return "\n".join(parts) + "\n"


def _tagged_span(word: str, tag: str | None) -> str:
    if tag is None:
        return markup_text(word, quote=True)
    return f'{markup_text(word, quote=True)}<span class="tag">{markup_text(tag, quote=True)}</span>'

