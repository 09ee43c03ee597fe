"""Tests for glmnlp.text.render: text formats read back, SVG is valid and its layout never overlaps."""

from __future__ import annotations

import io
import re
import unicodedata
import xml.etree.ElementTree as ET
from collections import Counter
from html.parser import HTMLParser

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from strategies import trees

from glmnlp.text.document import Document, Sentence, Token
from glmnlp.treebank.formats import read_conllu, read_word_tag
from glmnlp.text.drawing import MARGIN, SIBLING_GAP
from glmnlp.text.tokenize import tokenize_text_spans
from glmnlp.text.render import (
    render_brackets,
    render_conllu,
    render_html,
    render_json,
    render_pretty,
    render_svg,
    render_svg_document,
    render_word_tag,
    text_width,
    tree_layout,
)
from glmnlp.treebank.trees import Tree, parse_tree, read_trees

SVG_NS = "{http://www.w3.org/2000/svg}"
T1 = parse_tree("(TOP (S (NP (NNP Vinken)) (VP (VBZ sleeps)) (. .)))")
T2 = parse_tree("(TOP (S (NP (PRP It)) (VP (VBD cost) (NP ($ $) (CD 5))) (. .)))")


def _doc() -> Document:
    text = "Vinken sleeps. It cost $5."
    s1 = Sentence(
        (Token("Vinken", "NNP", 0, 6), Token("sleeps", "VBZ", 7, 13), Token(".", ".", 13, 14)), T1
    )
    offsets = [(15, 17), (18, 22), (23, 24), (24, 25), (25, 26)]
    s2 = Sentence(tuple(Token(w, t, a, b) for (w, t), (a, b) in zip(T2.pos(), offsets)), T2)
    return Document(text, (s1, s2))


def test_render_brackets_one_tree_per_line_reads_back() -> None:
    """render_brackets writes one line per sentence that the tree reader parses back."""
    out = render_brackets(_doc())
    assert out.splitlines() == [str(T1), str(T2)]
    assert list(read_trees(out)) == [T1, T2]


def test_render_pretty_reads_back() -> None:
    """Pretty trees are multi-line and parse back to the same trees."""
    out = render_pretty(_doc())
    assert out.count("\n") > 4
    assert list(read_trees(out)) == [T1, T2]


def test_render_tree_formats_refuse_unparsed_sentences() -> None:
    """An unparsed sentence is an error for tree formats, naming the sentence."""
    doc = Document("", (Sentence.from_words(["a", "b"]),))
    for render in (render_brackets, render_pretty):
        with pytest.raises(ValueError, match="sentence 1 .* has no tree"):
            render(doc)


def test_render_conllu_exact_and_read_back() -> None:
    """CoNLL-U fills ID, FORM, XPOS, adds sent_id/text comments, and read_conllu reads it back."""
    out = render_conllu(_doc())
    assert out.split("\n")[:6] == [
        "# sent_id = 1",
        "# text = Vinken sleeps.",
        "1\tVinken\t_\t_\tNNP\t_\t_\t_\t_\t_",
        "2\tsleeps\t_\t_\tVBZ\t_\t_\t_\t_\tSpaceAfter=No",
        "3\t.\t_\t_\t.\t_\t_\t_\t_\t_",
        "",
    ]
    back = read_conllu(io.StringIO(out))
    assert [(list(s.words), list(s.tags or ())) for s in back] == [
        (["Vinken", "sleeps", "."], ["NNP", "VBZ", "."]),
        (["It", "cost", "$", "5", "."], ["PRP", "VBD", "$", "CD", "."]),
    ]


def _rebuilt(block: str) -> tuple[str, str]:
    """A CoNLL-U sentence's ``# text`` and the text its forms and ``SpaceAfter=No`` marks rebuild."""
    lines = block.splitlines()
    text = next(line[len("# text = "):] for line in lines if line.startswith("# text = "))
    parts = []
    for line in lines:
        if line and not line.startswith("#"):
            fields = line.split("\t")
            parts.append(fields[1] + ("" if "SpaceAfter=No" in fields[9].split("|") else " "))
    return text, "".join(parts).rstrip(" ")


def test_render_conllu_forms_as_written_rebuild_the_text() -> None:
    """From raw text FORM is the token as written (the XPOS keeps the treebank's tag) and SpaceAfter=No marks each
    token the next one touches, across a sentence's end too; the forms rebuild ``# text`` (UD's validator)."""
    text = 'Say "hi" (twice).He left.'
    spans = [(0, 3, "Say", "VB"), (4, 5, "``", "``"), (5, 7, "hi", "UH"), (7, 8, "''", "''"),
             (9, 10, "-LRB-", "-LRB-"), (10, 15, "twice", "RB"), (15, 16, "-RRB-", "-RRB-"), (16, 17, ".", ".")]
    s1 = Sentence(tuple(Token(w, t, a, b) for a, b, w, t in spans))
    s2 = Sentence((Token("He", "PRP", 17, 19), Token("left", "VBD", 20, 24), Token(".", ".", 24, 25)))
    out = render_conllu(Document(text, (s1, s2)))
    first, second = out.split("\n\n")[:2]
    assert [[line.split("\t")[k] for k in (1, 4, 9)] for line in first.splitlines()[2:]] == [
        ["Say", "VB", "_"], ['"', "``", "SpaceAfter=No"], ["hi", "UH", "SpaceAfter=No"], ['"', "''", "_"],
        ["(", "-LRB-", "SpaceAfter=No"], ["twice", "RB", "SpaceAfter=No"], [")", "-RRB-", "SpaceAfter=No"],
        [".", ".", "SpaceAfter=No"],
    ]
    assert _rebuilt(first) == ('Say "hi" (twice).', 'Say "hi" (twice).')
    assert _rebuilt(second) == ("He left.", "He left.")


_PIECES = ["word", "(", ")", '"', "don't", "U.S.", "-", "5%", "e.g.", "?!", "\u00e9t\u00e9", ":-)", "...", "'s", "$3",
           "\x1b[31mword", "a\u200bb"]


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(_PIECES),
                          st.sampled_from(["", " ", "  ", "\n", " \t ", "\u00a0", "\u200b", " \x1b", "\ufeff "])),
                min_size=1, max_size=30))
def test_render_conllu_rebuilds_every_sentence_text(pieces: list[tuple[str, str]]) -> None:
    """Whatever the spacing, the tokenizer's sentences written as CoNLL-U have forms that rebuild ``# text``, also
    where the text holds invisible characters the tokenizer leaves out of every token (an ANSI escape's ESC, a
    zero-width space, a BOM: they were in ``# text`` and in no form)."""
    text = "".join(word + gap for word, gap in pieces)
    sentences = tuple(Sentence(tuple(Token(w, None, a, b) for w, a, b in spans))
                      for spans in tokenize_text_spans(text) if spans)
    if not sentences:
        return
    out = render_conllu(Document(text, sentences))
    blocks = [b for b in out.split("\n\n") if b.strip()]
    assert len(blocks) == len(sentences)
    for block in blocks:
        written, rebuilt = _rebuilt(block)
        assert written == rebuilt


def test_write_conllu_misc_column_checked() -> None:
    """MISC values must be one per word, non-empty and without whitespace."""
    from glmnlp.errors import FormatError
    from glmnlp.treebank.formats import TaggedSentence, write_conllu
    sent = TaggedSentence(("a", "b"), ("DT", "NN"))
    assert write_conllu([sent], misc=[["SpaceAfter=No", "_"]]).splitlines()[0].endswith("\tSpaceAfter=No")
    for bad in (["_"], ["a b", "_"], ["", "_"]):
        with pytest.raises(FormatError):
            write_conllu([sent], misc=[bad])
    with pytest.raises(FormatError, match="no MISC values"):  # fewer sequences than sentences
        write_conllu([sent, sent], misc=[["_", "_"]])


def test_render_conllu_untagged_and_pretokenised() -> None:
    """Untagged tokens get '_' as XPOS; pre-tokenised input (no offsets) gets the '# text' line UD requires, its
    forms joined by spaces, which they rebuild."""
    out = render_conllu(Document("", (Sentence.from_words(["a", "b"]),)))
    assert out == "# sent_id = 1\n# text = a b\n1\ta\t_\t_\t_\t_\t_\t_\t_\t_\n2\tb\t_\t_\t_\t_\t_\t_\t_\t_\n\n"
    out = render_conllu(Document("", (Sentence.from_words(["Hi", "-LRB-", "."]),)))
    assert _rebuilt(out) == ("Hi -LRB- .", "Hi -LRB- .")


def test_render_conllu_refuses_partly_tagged_sentence() -> None:
    """A sentence with some tags missing cannot be written as if it were complete."""
    doc = Document("", (Sentence((Token("a", "DT"), Token("b"))),))
    with pytest.raises(ValueError, match="some tokens are tagged"):
        render_conllu(doc)


def test_render_word_tag_reads_back() -> None:
    """word/TAG output is one line per sentence and reads back exactly."""
    out = render_word_tag(_doc())
    assert out.splitlines()[0] == "Vinken/NNP sleeps/VBZ ./."
    back = read_word_tag(io.StringIO(out))
    assert [list(s.tags or ()) for s in back] == [T1.tags(), T2.tags()]


def test_render_json_is_one_line_unless_indented() -> None:
    """Default JSON is a single line (JSON Lines friendly); indent gives readable output."""
    assert render_json(_doc()).count("\n") == 1
    assert render_json(_doc(), indent=2).count("\n") > 10


def _svg_texts(svg: str) -> tuple[ET.Element, Counter[tuple[str, str]]]:
    root = ET.fromstring(svg)
    texts = Counter((el.get("class", ""), el.text or "") for el in root.iter(f"{SVG_NS}text"))
    return root, texts


def _expected_texts(tree: Tree) -> Counter[tuple[str, str]]:
    labels = Counter(("label", node.display_label) for node in tree.subtrees())
    words = Counter(("word", w) for w in tree.leaves())
    return labels + words


def test_render_svg_is_wellformed_and_has_every_word_and_label() -> None:
    """The SVG parses as XML, is an <svg> root with a size, and draws each label and word once."""
    root, texts = _svg_texts(render_svg(T2))
    assert root.tag == f"{SVG_NS}svg"
    assert float(root.get("width", "0")) > 0 and float(root.get("height", "0")) > 0
    assert texts == _expected_texts(T2)
    assert root.find(f"{SVG_NS}title").text == str(T2)  # type: ignore[union-attr]
    # one line per parent-child edge
    assert len(root.findall(f"{SVG_NS}line")) == sum(1 for _ in T2.subtrees()) - 1 + len(T2.leaves())


def test_render_svg_escapes_markup_characters() -> None:
    """Words and labels with <, & and quotes are escaped, not injected."""
    tree = Tree("S", (Tree("<X>", ("a&b",)), Tree("Y", ('"q"',))))
    _, texts = _svg_texts(render_svg(tree))
    assert texts == _expected_texts(tree)


def test_render_layout_hand_worked_example() -> None:
    """(S (NN aa) (NN bb)): preterminal boxes sized by their labels, root centred between them."""
    layout = tree_layout(parse_tree("(S (NN aa) (NN bb))"))
    nn = text_width("NN", bold=True) + 12.0  # label box: text + padding, wider than the word box
    assert nn == pytest.approx(2 * 0.86 * 14 + 12)
    xs = {(b.text, b.is_word): b.x for b in layout.boxes}
    first = MARGIN + nn / 2
    second = MARGIN + nn + SIBLING_GAP + nn / 2
    assert [b.x for b in layout.boxes if b.text == "NN"] == pytest.approx([first, second])
    assert xs[("aa", True)] == pytest.approx(first) and xs[("bb", True)] == pytest.approx(second)
    assert xs[("S", False)] == pytest.approx((first + second) / 2)
    assert layout.width == pytest.approx(2 * MARGIN + 2 * nn + SIBLING_GAP)


def test_render_layout_wide_label_spreads_its_children() -> None:
    """A label wider than its children gets a box wide enough, with the children centred below."""
    layout = tree_layout(parse_tree("(VERY-LONG-LABEL-HERE (X a))"))
    root, child, word = layout.boxes
    assert root.text_left >= root.left and root.text_right <= root.right
    assert child.x == pytest.approx(root.x) and word.x == pytest.approx(root.x)


def _check_layout(tree: Tree) -> None:
    layout = tree_layout(tree)
    boxes = layout.boxes
    rows: dict[float, list] = {}
    for box in boxes:
        rows.setdefault(box.y, []).append(box)
        assert 0 <= box.text_left and box.text_right <= layout.width
        assert box.left - 1e-6 <= box.text_left and box.text_right <= box.right + 1e-6
    for row in rows.values():
        row.sort(key=lambda b: b.x)
        for left, right in zip(row, row[1:]):
            assert left.right <= right.left + 1e-6, f"boxes overlap: {left.text!r} and {right.text!r}"
            assert left.text_right < right.text_left, f"texts overlap: {left.text!r} and {right.text!r}"
    words = [b for b in boxes if b.is_word]
    assert [b.text for b in sorted(words, key=lambda b: b.x)] == tree.leaves()
    assert len({b.y for b in words}) == 1
    for i, box in enumerate(boxes):
        kids = [b for b in boxes if b.parent == i]
        if kids:
            assert box.x == pytest.approx((kids[0].x + kids[-1].x) / 2)
            assert all(box.y < k.y for k in kids)


def test_render_layout_sample_tree_has_no_overlaps() -> None:
    """A long treebank sentence: no overlapping labels or words, parents centred over children."""
    tree = parse_tree(
        "(TOP (S (NP (NP (DT A) (NN form)) (PP (IN of) (NP (NN asbestos)))) (VP (VBZ has) (VP (VBN caused)"
        " (NP (NP (DT a) (JJ high) (NN percentage)) (PP (IN of) (NP (NN cancer) (NNS deaths)))))) (. .)))"
    )
    _check_layout(tree)


@settings(max_examples=80, deadline=None)
@given(trees)
def test_render_layout_random_trees_never_overlap(tree: Tree) -> None:
    """For any tree, texts on a row never overlap and each parent sits centred over its children."""
    _check_layout(tree)
    _, texts = _svg_texts(render_svg(tree))
    assert texts == _expected_texts(tree)


class _Collector(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.tags: Counter[str] = Counter()
        self.text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list) -> None:
        self.tags[tag] += 1

    def handle_data(self, data: str) -> None:
        self.text.append(data)


def test_render_html_embeds_one_svg_per_parsed_sentence() -> None:
    """The page has a figure per sentence, an SVG per parsed one and tagged tokens otherwise."""
    doc = _doc()
    unparsed = Sentence((Token("<b>", "SYM"), Token("&", "CC")))
    page = render_html(Document(doc.text, (*doc.sentences, unparsed)), title="A & B")
    assert page.startswith("<!DOCTYPE html>")
    parser = _Collector()
    parser.feed(page)
    assert parser.tags["figure"] == 3 and parser.tags["svg"] == 2
    assert parser.tags["b"] == 0  # the token "<b>" is escaped, not markup
    text = "".join(parser.text)
    assert "Vinken sleeps." in text and "It cost $5." in text and "<b>SYM" in text and "A & B" in text
    for svg in page.split("<svg")[1:]:
        ET.fromstring("<svg" + svg.split("</svg>")[0] + "</svg>")


@pytest.mark.parametrize("bold", [False, True])
def test_render_text_width_never_underestimates_dejavu_sans(bold: bool) -> None:
    """The width estimate is at least the real DejaVu Sans advance of every printable ASCII text."""
    font_manager = pytest.importorskip("matplotlib.font_manager")
    ft2font = pytest.importorskip("matplotlib.ft2font")
    props = font_manager.FontProperties(family="DejaVu Sans", weight="bold" if bold else "normal")
    font = ft2font.FT2Font(font_manager.findfont(props, fallback_to_default=False))
    font.set_size(100, 72)

    def real(text: str) -> float:
        return sum(font.load_char(ord(ch)).linearHoriAdvance / 65536 for ch in text) * 14 / 100

    samples = [chr(c) for c in range(33, 127)] + ["NP-SBJ", "WHADVP", "nonexecutive", "-LRB-", "$1,234.50", "``"]
    for text in samples:
        assert text_width(text, bold=bold) >= real(text), text


def test_render_ascii_draws_every_label_and_word_in_order() -> None:
    """The ASCII drawing has the labels above and the words on the last line, left to right."""
    from glmnlp.text.render import render_ascii

    tree = parse_tree("(TOP (S (NP (DT The) (NN dog)) (VP (VBD barked)) (. .)))")
    drawing = render_ascii(tree)
    lines = drawing.rstrip("\n").splitlines()
    assert lines[-1].split() == ["The", "dog", "barked", "."]
    assert lines[0].strip() == "TOP" and all(label in drawing for label in ("S", "NP", "VP", "DT", "VBD"))
    assert all(ord(ch) < 128 for ch in drawing)
    assert "\u2502" in render_ascii(tree, unicode_lines=True)


def test_render_compact_layout_is_narrower_and_keeps_every_word_and_tag() -> None:
    """compact=True: no preterminal row (tags under the words), no overlapping word boxes, narrower."""
    from glmnlp.text.render import render_svg, tree_layout
    from glmnlp.treebank.corpus import sample_trees

    tree = next(t for t in sample_trees("test") if len(t.leaves()) == 41)
    wide, compact = tree_layout(tree), tree_layout(tree, compact=True)
    assert compact.width < 0.75 * wide.width
    words = [b for b in compact.boxes if b.is_word]
    assert [b.text for b in words] == tree.leaves() and [b.tag for b in words] == tree.tags()
    assert all(a.right <= b.left + 1e-6 for a, b in zip(words, words[1:]))
    svg = render_svg(tree, compact=True)
    ET.fromstring(svg)
    assert svg.count('class="tag"') == 41


def test_render_svg_document_stacks_every_sentence() -> None:
    """One SVG with one group per sentence, heights adding up; unparsed sentences are refused."""
    from glmnlp.text.render import render_svg_document, tree_layout

    doc = Document("", (Sentence.from_tree(T1), Sentence.from_tree(T1)))
    svg = render_svg_document(doc)
    root = ET.fromstring(svg)
    assert svg.count("<g transform") == 2
    assert float(root.get("height")) == pytest.approx(2 * tree_layout(T1).height, abs=1)
    with pytest.raises(ValueError, match="has no tree"):
        render_svg_document(Document("", (Sentence.from_words(["a"]),)))


def _shown(text: str) -> str:
    """``text`` as the drawings show it: characters XML 1.0 forbids or HTML flags (other controls,
    surrogates, noncharacters) become U+FFFD."""
    def bad(ch: str) -> bool:
        code = ord(ch)
        return ((unicodedata.category(ch) in ("Cc", "Cs") and ch not in "\t\n\r")
                or 0xFDD0 <= code <= 0xFDEF or code & 0xFFFE == 0xFFFE)

    return "".join("\ufffd" if bad(ch) else ch for ch in text)


#: any text without whitespace (tokens cannot hold it): controls, NUL, noncharacters, markup characters
_ANY_TOKENS = st.text(min_size=1, max_size=6).map(lambda s: "".join(c for c in s if not c.isspace())).filter(bool)


@settings(max_examples=100, deadline=None)
@given(st.lists(st.tuples(_ANY_TOKENS, _ANY_TOKENS), min_size=1, max_size=5), st.booleans())
@example([("Control\x01char", "NN"), ("here.", "\x00")], False)
@example([("\x7f\x80\x9f", "\ufffe"), ("a\ud800&<\"'", "\U0010ffff\ufdd0")], True)
def test_render_drawings_are_wellformed_whatever_the_words(pairs: list[tuple[str, str]], compact: bool) -> None:
    """SVG drawings and the notebook's HTML fragment parse as XML for any words and tags, controls
    included, and show them (forbidden characters as U+FFFD); the HTML page holds no raw control character."""
    words = [w for w, _ in pairs]
    text = "\x02 ".join(words) + "\x00"
    starts = [sum(len(w) + 2 for w in words[:i]) for i in range(len(words))]
    tree = Tree("TOP", (Tree("S\x0e", tuple(Tree(tag, (word,)) for word, tag in pairs)),))
    sent = Sentence(tuple(Token(w, t, a, a + len(w)) for (w, t), a in zip(pairs, starts)), tree)
    doc = Document(text, (sent, Sentence.from_words(words)))
    phrases = [("label", "TOP"), ("label", _shown("S\x0e"))] + [("word", _shown(w)) for w in words]
    tag_class = "tag" if compact else "label"
    expected = Counter(phrases + [(tag_class, _shown(t)) for _, t in pairs])
    root, texts = _svg_texts(render_svg(tree, compact=compact))
    assert texts == expected
    assert root.find(f"{SVG_NS}title").text == _shown(str(tree))  # type: ignore[union-attr]
    assert _svg_texts(sent._repr_svg_())[0].find(f"{SVG_NS}title") is not None
    titled = _svg_texts(render_svg(tree, title=text))[0]
    assert titled.find(f"{SVG_NS}title").text == _shown(text)  # type: ignore[union-attr]
    ET.fromstring(render_svg_document(Document(text, (sent,)), compact=compact))
    fragment = ET.fromstring(doc._repr_html_())
    assert [_shown(s.text) for s in doc.sents] == [el.text for el in fragment.iter("figcaption")]
    page = render_html(doc, title=text, compact=compact)
    assert page == _shown(page)
    parser = _Collector()
    parser.feed(page)
    parser.close()
    assert parser.tags["figure"] == 2 and parser.tags["svg"] == 1
    for part in page.split("<svg")[1:]:
        ET.fromstring("<svg" + part.split("</svg>")[0] + "</svg>")


@pytest.mark.parametrize("bold", [False, True])
def test_render_text_width_never_underestimates_dejavu_sans_beyond_ascii(bold: bool) -> None:
    """ASCII's class sizes were applied to every script: Cyrillic "ш" is 0.92 em where "lower" said 0.64, and the
    words of a compact Russian drawing overlapped. Every glyph of the font is now at most its class's estimate."""
    font_manager = pytest.importorskip("matplotlib.font_manager")
    ft2font = pytest.importorskip("matplotlib.ft2font")
    props = font_manager.FontProperties(family="DejaVu Sans", weight="bold" if bold else "normal")
    font = ft2font.FT2Font(font_manager.findfont(props, fallback_to_default=False))
    font.set_size(100, 72)
    short = [chr(c) for c in font.get_charmap() if c >= 128
             and text_width(chr(c), bold=bold) < font.load_char(c).linearHoriAdvance / 65536 * 14 / 100]
    assert short == []


def test_render_compact_russian_words_do_not_overlap() -> None:
    """The helper's sentence: "Жужжащие" ended 2 px past where "шмели" began at 12 px in DejaVu Sans."""
    from glmnlp.text.render import tree_layout

    tree = parse_tree("(TOP (S (NP (JJ Жужжащие) (NNS шмели)) (VP (VBP шуршат)) (. .)))")
    words = sorted((b for b in tree_layout(tree, compact=True).boxes if b.is_word), key=lambda b: b.x)
    assert all(a.text_right <= b.text_left for a, b in zip(words, words[1:]))


def test_render_svg_styles_are_scoped_to_their_drawing() -> None:
    """A drawing's ``<style>`` applies to the whole HTML page it is placed in: its ``text``, ``line`` and ``.tag``
    rules restyled the page's own tagged tokens and charts, and a compact drawing's font size every drawing's."""
    tree = parse_tree("(TOP (S (NN dog) (. .)))")
    for svg, size in ((render_svg(tree), "14"), (render_svg(tree, compact=True), "12")):
        root = ET.fromstring(svg)
        assert root.get("class") == f"glmnlp-tree-{size}"
        style = root.find("{http://www.w3.org/2000/svg}style").text
        rules = [r for r in style.split("}") if r]
        assert rules and all(r.startswith(f".glmnlp-tree-{size} ") for r in rules), rules
    with pytest.raises(TypeError, match="title is a string, not 5"):
        render_svg(tree, title=5)  # type: ignore[arg-type]
    from glmnlp.text.render import render_json  # its indent: json.dumps' own, a number or a string; not a str doc

    assert render_json(_doc(), indent="\t").startswith('{\n\t"format"')
    with pytest.raises(TypeError, match="expected a Document"):
        render_json("x", indent=2)  # type: ignore[arg-type]


@pytest.mark.parametrize("words", [["東京タワー", "is", "in", "日本", "."], ["The", "cafe\u0301", "saw", "Zoe\u0308", "."],
                                   ["東京スカイツリー展望台", "is", "tall", "."],  # wider than NLTK's 16 columns
                                   ["The", "de\u0301sinte\u0301resse\u0301es-de\u0301c\u0327ues", "ok", "."]])
def test_render_ascii_lines_stand_over_their_words_of_any_width(words: list[str]) -> None:
    """NLTK places text by its length: a CJK character takes two columns and a combining mark none, so each line
    stood columns away from its word ("is" at columns 12-13 under a line at column 7)."""
    from glmnlp.graphemes import display_columns
    from glmnlp.text.render import render_ascii

    tree = parse_tree("(TOP (S " + " ".join(f"(X {w})" for w in words) + "))")
    *_, bars, last = render_ascii(tree).rstrip("\n").splitlines()
    spans, column = [], 0
    for piece in re.split(r"( +)", last):
        if piece.strip():
            spans.append((column, column + display_columns(piece)))
        column += display_columns(piece)
    bar_columns = [display_columns(bars[:i]) for i, ch in enumerate(bars) if ch == "|"]
    assert len(spans) == len(bar_columns) == len(words)
    assert all(a <= c < b for (a, b), c in zip(spans, bar_columns)), (spans, bar_columns)


def test_render_conllu_writes_a_upos_taggers_tags_in_upos() -> None:
    """A UPOS tagger's tags went to XPOS in the Python API's CoNLL-U (``glmnlp tag`` wrote UPOS), so the file did
    not evaluate back with that tagger ("word has no UPOS tag")."""
    from glmnlp.text.render import render_conllu

    doc = Document("", (Sentence((Token("The", "DET"), Token("dog", "NOUN"))),))
    lines = [line.split("\t") for line in render_conllu(doc, column="upos").splitlines() if line[:1].isdigit()]
    assert [(f[3], f[4]) for f in lines] == [("DET", "_"), ("NOUN", "_")]
    assert [line.split("\t")[4] for line in render_conllu(doc).splitlines() if line[:1].isdigit()] == ["DET", "NOUN"]
