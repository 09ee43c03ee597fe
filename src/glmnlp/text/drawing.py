"""Tree drawings: the tidy layout, standalone SVG and character (ASCII) drawings of one tree.

The layout rules, the compact variant and the ASCII drawings are described in
:mod:`glmnlp.text.render` (which re-exports these names); this module knows trees only, so the
document records (:mod:`glmnlp.text.document`) can draw themselves for notebooks without an import
circle.

Text in markup (our choice): every string written into SVG or HTML (words, labels, tags, titles, captions) goes
through :func:`markup_text`, which escapes ``&``, ``<`` and ``>`` (and quotes for HTML) and writes
U+FFFD REPLACEMENT CHARACTER for each character that XML 1.0 forbids (the C0 controls other than tab,
newline and carriage return, NUL included, and lone surrogates) or that HTML reports as a parse error
(DEL, the C1 controls and the noncharacters such as U+FFFE and U+FDD0). A word such as
``"Control\\x01char"`` would otherwise make the whole drawing unreadable for any XML parser (a browser
shows nothing); U+FFFD is visible, takes one character's place in the layout as the control would have,
and is what decoders already show for text they cannot represent. No escape can carry these
characters into XML 1.0, so the drawing shows that a character was there, not which one.
"""

from __future__ import annotations

import html
import re
import unicodedata
from dataclasses import dataclass

from glmnlp.errors import NLTK_MISSING, MissingPackageError
from glmnlp.graphemes import display_columns
from glmnlp.treebank.trees import Tree, not_a_tree, to_bracket

__all__ = ["NodeBox", "TreeLayout", "draw_ascii", "markup_text", "render_svg", "svg_body", "svg_class", "svg_style",
           "text_width", "tree_layout"]


# -- tree layout -----------------------------------------------------------------------------

FONT_SIZE = 14.0
WORD_PAD = 12.0  # horizontal padding added to every word and label box
SIBLING_GAP = 6.0  # extra space between sibling boxes
ROW_HEIGHT = 46.0
MARGIN = 16.0

# Advance widths in em by character class, for (regular, bold): the largest DejaVu Sans advance in
# each class, rounded up (measured from the font files; tests/test_render.py re-checks them). The ASCII classes are
# ASCII's own: the same sizes applied to other letters underestimated many (Cyrillic "ш" 0.92 em against 0.64, so
# the words of a compact Russian drawing ran together), which have classes of their own: the letters of the Latin,
# Greek and Cyrillic blocks by case (their digraphs such as "Ǆ" apart), combining marks, and for any other script,
# whose glyphs may come from another font, the widest DejaVu Sans glyph outside those blocks.
_NARROW = frozenset("ijlrtf.,;:!|'`()[]/\\- \"")
_WIDE = frozenset("mwMW@%&")
_DIGRAPHS = frozenset("\u01c4\u01c5\u01c6\u01c7\u01c8\u01c9\u01ca\u01cb\u01cc\u01f1\u01f2\u01f3")
_EM = {
    "narrow": (0.50, 0.53),
    "lower": (0.64, 0.72),  # ASCII lower-case letters and digits
    "upper": (0.79, 0.86),
    "wide": (1.00, 1.11),
    "symbol": (0.84, 0.90),  # other ASCII punctuation and symbols
    "cjk": (1.05, 1.10),  # east-asian wide or full-width characters but symbols (emoji)
    "mark": (0.50, 0.50),  # combining marks
    "latin_lower": (1.06, 1.22),  # other lower-case letters and digits of the Latin, Greek and Cyrillic blocks
    "latin_upper": (1.18, 1.41),  # their other letters (upper and title case)
    "latin_symbol": (1.00, 1.04),  # their symbols and punctuation, and general punctuation (U+2000-U+206F)
    "digraph": (1.43, 1.56),
    "other": (1.74, 2.02),  # any other character, and wide symbols (emoji; DejaVu's widest, 1.60 em)
}


def _char_class(ch: str) -> str:
    if ch in _NARROW:
        return "narrow"
    if ch in _WIDE:
        return "wide"
    if unicodedata.east_asian_width(ch) in ("W", "F"):  # an emoji (a symbol) may be wider than an ideograph
        return "other" if unicodedata.category(ch) == "So" else "cjk"
    if ch.isascii():
        return "upper" if ch.isupper() else "lower" if ch.islower() or ch.isdigit() else "symbol"
    if unicodedata.category(ch).startswith("M"):
        return "mark"
    if ch in _DIGRAPHS:
        return "digraph"
    if ord(ch) < 0x530 or 0x1E00 <= ord(ch) < 0x2000:  # Latin, IPA, Greek, Cyrillic and their extensions
        if ch.islower() or ch.isdigit():
            return "latin_lower"
        return "latin_upper" if ch.isalpha() else "latin_symbol"
    if 0x2000 <= ord(ch) < 0x2070 and ch not in "\u2030\u2031":  # general punctuation (’ “ — …), but per mille
        return "latin_symbol"
    return "other"


def text_width(text: str, font_size: float = FONT_SIZE, bold: bool = False) -> float:
    """Estimated rendered width of ``text`` in user units (an estimate that errs wide)."""
    column = 1 if bold else 0
    return sum(_EM[_char_class(ch)][column] for ch in text) * font_size


@dataclass(frozen=True, slots=True)
class NodeBox:
    """One drawn item: a node label (``is_word=False``) or a word, with its position and box.

    ``x`` is the centre of the text, ``y`` its baseline row; ``left``/``right`` bound the box the
    item owns, and ``text_left``/``text_right`` bound the text itself. ``parent`` indexes the
    parent item in :attr:`TreeLayout.boxes` (``None`` for the root).
    """

    text: str
    is_word: bool
    x: float
    y: float
    left: float
    right: float
    text_left: float
    text_right: float
    depth: int
    parent: int | None
    tag: str | None = None


@dataclass(frozen=True, slots=True)
class TreeLayout:
    """Positions of every label and word of a tree, the canvas size and the font size."""

    boxes: tuple[NodeBox, ...]
    width: float
    height: float
    font_size: float = FONT_SIZE


@dataclass(slots=True)
class _Measure:
    width: float  # box width
    offset: float  # centre of the label relative to the box's left edge
    children: list[tuple[float, _Measure]]  # (left offset inside this box, child measure)
    node: Tree | str


@dataclass(frozen=True, slots=True)
class _Style:
    font: float = FONT_SIZE
    pad: float = WORD_PAD
    gap: float = SIBLING_GAP
    row: float = ROW_HEIGHT
    tags_under_words: bool = False


_NORMAL = _Style()
_COMPACT = _Style(font=12.0, pad=4.0, gap=2.0, row=34.0, tags_under_words=True)


def _measure(node: Tree | str, style: _Style = _NORMAL) -> _Measure:
    if isinstance(node, str):
        width = text_width(node, style.font) + style.pad
        return _Measure(width, width / 2, [], node)
    if style.tags_under_words and node.is_preterminal:
        word = node.children[0]
        assert isinstance(word, str)
        width = max(text_width(word, style.font), text_width(node.display_label, style.font * 0.8)) + style.pad
        return _Measure(width, width / 2, [], node)
    kids = [_measure(child, style) for child in node.children]
    placed: list[tuple[float, _Measure]] = []
    pos = 0.0
    for i, kid in enumerate(kids):
        if i:
            pos += style.gap
        placed.append((pos, kid))
        pos += kid.width
    span = pos
    centre = (placed[0][0] + placed[0][1].offset + placed[-1][0] + placed[-1][1].offset) / 2
    half = (text_width(node.display_label, style.font, bold=True) + style.pad) / 2
    shift = max(0.0, half - centre)  # label would stick out on the left
    extra_right = max(0.0, centre + half - span)  # ... or on the right
    placed = [(left + shift, kid) for left, kid in placed]
    return _Measure(span + shift + extra_right, centre + shift, placed, node)


def _not_a_tree(value: object) -> str:
    """What a drawing of one tree says of anything else; a document points at the functions that draw documents."""
    if hasattr(value, "sentences"):  # a Document (not imported: glmnlp.text.document draws with this module)
        return ("expected a Tree, got a Document: draw its sentences' trees, or the whole document with "
                "render_svg_document / render_html")
    if hasattr(value, "tree") and hasattr(value, "words"):  # a Sentence
        return "expected a Tree, got a Sentence: draw its tree (sentence.tree)"
    return not_a_tree(value)


def tree_layout(tree: Tree, *, compact: bool = False) -> TreeLayout:
    """Compute the drawing positions of ``tree`` (module docstring: the layout rules).

    With ``compact`` each word's box also carries its POS tag (drawn under the word, so the tag is
    the word item's ``tag``) and there is no preterminal row.
    """
    if not isinstance(tree, Tree):
        raise TypeError(_not_a_tree(tree))
    style = _COMPACT if compact else _NORMAL
    root = _measure(tree, style)
    depth = _height(tree) - (1 if compact else 0)
    word_row = MARGIN + style.font + depth * style.row
    boxes: list[NodeBox] = []

    def place(m: _Measure, left: float, level: int, parent: int | None) -> None:
        node = m.node
        merged = style.tags_under_words and isinstance(node, Tree) and node.is_preterminal
        is_word = isinstance(node, str) or merged
        if isinstance(node, str):
            text, tag = node, None
        elif merged:
            text, tag = str(node.children[0]), node.display_label
        else:
            text, tag = node.display_label, None
        x = left + m.offset
        y = word_row if is_word else MARGIN + style.font + level * style.row
        half = text_width(text, style.font, bold=not is_word) / 2
        boxes.append(NodeBox(text, is_word, x, y, left, left + m.width, x - half, x + half, level, parent, tag))
        me = len(boxes) - 1
        for child_left, child in m.children:
            place(child, left + child_left, level + 1, me)

    place(root, MARGIN, 0, None)
    extra = style.font if compact else 0.0  # room for the tags under the words
    return TreeLayout(tuple(boxes), root.width + 2 * MARGIN, word_row + extra + MARGIN, style.font)


def _height(tree: Tree) -> int:
    """Number of label rows (the root's row is 0; words go below the deepest label row)."""
    best = 0
    stack: list[tuple[Tree, int]] = [(tree, 1)]
    while stack:
        node, d = stack.pop()
        best = max(best, d)
        stack.extend((c, d + 1) for c in node.children if isinstance(c, Tree))
    return best


# -- SVG / HTML ------------------------------------------------------------------------------

#: what markup cannot hold (module docstring): C0 controls but tab/LF/CR, DEL and C1, surrogates, noncharacters
_NOT_IN_MARKUP = re.compile(
    "[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ud800-\udfff\ufdd0-\ufdef"
    + "".join(f"{chr(plane + 0xFFFE)}{chr(plane + 0xFFFF)}" for plane in range(0, 0x110000, 0x10000))
    + "]"
)


def markup_text(text: str, *, quote: bool = False) -> str:
    """``text`` ready for SVG or HTML content: ``&<>`` (and with ``quote`` ``"'``) escaped, and each character
    XML or HTML cannot hold written as U+FFFD (module docstring), so the output stays well-formed."""
    return html.escape(_NOT_IN_MARKUP.sub("\ufffd", text), quote=quote)

_FONT = "DejaVu Sans, Arial, Helvetica, sans-serif"


def svg_body(layout: TreeLayout) -> list[str]:
    boxes = layout.boxes
    font = layout.font_size
    lines: list[str] = []
    for box in boxes:
        if box.parent is None:
            continue
        parent = boxes[box.parent]
        y1 = parent.y + 5
        y2 = box.y - font - 1
        cls = "lex" if box.is_word and box.tag is None else "edge"
        lines.append(
            f'<line class="{cls}" x1="{parent.x:.1f}" y1="{y1:.1f}" x2="{box.x:.1f}" y2="{y2:.1f}"/>'
        )
    texts = [
        f'<text class="{"word" if box.is_word else "label"}" x="{box.x:.1f}" y="{box.y:.1f}">'
        f"{markup_text(box.text)}</text>"
        for box in boxes
    ]
    tags = [
        f'<text class="tag" x="{box.x:.1f}" y="{box.y + font:.1f}">{markup_text(box.tag)}</text>'
        for box in boxes
        if box.tag is not None
    ]
    return [*lines, *texts, *tags]


def svg_class(font: float) -> str:
    """The class of a drawing's ``<svg>`` element, which its style rules are scoped to: a ``<style>`` inside an SVG
    placed in an HTML page applies to the whole page (its ``text``, ``line``, ``.tag`` rules restyled the page's
    own elements and charts, and a compact drawing's font size every drawing's); one class a font size, so that
    drawings of both sizes share a page."""
    return "glmnlp-tree-" + f"{font:g}".replace(".", "_")


def svg_style(font: float) -> str:
    scope = "." + svg_class(font)
    return (
        "<style>"
        f"{scope} text{{font-family:{_FONT};font-size:{font:g}px;text-anchor:middle}}"
        f"{scope} .label{{font-weight:bold;fill:#1f3b73}}{scope} .word{{fill:#111}}"
        f"{scope} .tag{{font-size:{0.8 * font:g}px;fill:#1f3b73}}"
        f"{scope} line{{stroke-width:1.2;stroke-linecap:round}}"
        f"{scope} .edge{{stroke:#6b7a99}}{scope} .lex{{stroke:#b8c0d0;stroke-dasharray:3 3}}"
        "</style>"
    )


def render_svg(tree: Tree, *, title: str | None = None, compact: bool = False) -> str:
    """A standalone SVG drawing of ``tree``: labels in rows, words along the bottom, lines between.

    ``title`` (default: the tree's bracket string) becomes the SVG ``<title>``, which screen
    readers and browsers' tooltips show. ``compact`` draws a narrower tree for long sentences
    (module docstring).
    """
    if title is not None and not isinstance(title, str):  # as render_html says it (it failed inside a regex)
        raise TypeError(f"title is a string, not {title!r}")
    layout = tree_layout(tree, compact=compact)
    label = title if title is not None else to_bracket(tree)
    return "\n".join(
        [
            f'<svg xmlns="http://www.w3.org/2000/svg" width="{layout.width:.0f}" '
            f'height="{layout.height:.0f}" viewBox="0 0 {layout.width:.1f} {layout.height:.1f}" '
            f'class="{svg_class(layout.font_size)}" role="img">',
            f"<title>{markup_text(label)}</title>",
            svg_style(layout.font_size),
            '<rect width="100%" height="100%" fill="#ffffff"/>',
            *svg_body(layout),
            "</svg>",
        ]
    ) + "\n"



def draw_ascii(tree: Tree, *, unicode_lines: bool = False) -> str:
    """The tree drawn in characters (NLTK's ``TreePrettyPrinter``); ``unicode_lines``: box-drawing lines."""
    if not isinstance(tree, Tree):
        raise TypeError(_not_a_tree(tree))
    try:
        from nltk.tree import Tree as NltkTree
        from nltk.tree import TreePrettyPrinter
    except ImportError:  # a dependency, so a broken installation: said as a missing extra is said
        raise MissingPackageError(NLTK_MISSING.format(what="drawing a tree in characters")) from None

    # NLTK places text by its len(): a CJK character takes two columns of a terminal and a combining mark none, so
    # the lines stood beside their words. Each label and word whose columns differ from its length is drawn as a
    # stand-in of as many characters as it takes columns, one private-use character repeated, then put back.
    used = {ch for node in tree.subtrees() for text in (node.display_label, *node.leaves()) for ch in text}
    free = (chr(c) for c in range(0xE000, 0xF900) if chr(c) not in used)
    stand_ins: dict[str, str] = {}

    def shown(text: str) -> str:
        columns = display_columns(text)
        if columns == len(text):
            return text
        if text not in stand_ins:
            stand_ins[text] = next(free, "?") * max(columns, 1)
        return stand_ins[text]

    def convert(node: Tree) -> NltkTree:
        return NltkTree(shown(node.display_label), [shown(c) if isinstance(c, str) else convert(c)
                                                    for c in node.children])

    drawn = convert(tree)
    # no stand-in wrapped (NLTK wraps text at 16 characters, and a wrapped one was not found again)
    widest = max((len(stand_in) for stand_in in stand_ins.values()), default=0)
    drawing = TreePrettyPrinter(drawn).text(unicodelines=unicode_lines, maxwidth=max(16, widest))
    for text, stand_in in stand_ins.items():
        drawing = drawing.replace(stand_in, text)
    return "\n".join(line.rstrip() for line in drawing.splitlines()) + "\n"
