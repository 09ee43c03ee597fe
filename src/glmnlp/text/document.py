"""The document model returned by the pipeline: a text, its sentences, their tokens and trees.

A :class:`Document` is what :class:`glmnlp.text.pipeline.Pipeline` produces from raw or pre-tokenised
text and what every output format in :mod:`glmnlp.text.render` consumes. The records are frozen
dataclasses with tuple fields, like :class:`glmnlp.treebank.trees.Tree`, so a document can be shared and
cached without defensive copies.

Our choices:

* ``Token.text`` is the PTB token the models saw (``-LRB-``, ````` ``, ``n't``); ``start``/``end``
  are the ``[start, end)`` offsets of the original characters in ``Document.text`` (``(``,
  ``"``, ``n't``), or ``None`` for pre-tokenised input, which has no original text.
* **Tags as tag outputs write them**: a token's tag is its tagset's spelling (STTS ``$(``), its tree's the brackets'
  (``$-LRB-``), from a pipeline and :meth:`Sentence.from_tree` alike (:func:`written_tags`).
* A sentence's tree, when present, must have the sentence's tokens as its leaves; constructing a
  :class:`Sentence` whose tree disagrees raises ``ValueError`` rather than storing a document
  that no output format could print consistently.
* **Sequences, like spaCy's.** A :class:`Document` is a sequence of its tokens (``len(doc)``,
  ``doc[i]``, iteration), and ``doc.sents`` (also ``doc.sentences``) its sentences; a
  :class:`Sentence` is a sequence of its tokens. ``Sentence.text`` is the sentence's original text
  when the pipeline read raw text (``Sentence.original``), else its words joined by spaces;
  ``Document.text`` is the raw text (``""`` for pre-tokenised input). A slice (``doc[i:j]``,
  ``sent[i:j]``) is a tuple of tokens for both, immutable like the records (a document's slice was
  a list, a sentence's a tuple); spaCy's slices are ``Span`` objects, here :meth:`Sentence.span` makes one.
* **Constituents like benepar's.** :attr:`Sentence.constituents` lists a :class:`Span` for every
  node of the tree (``TOP`` and preterminals included), in pre-order (parents before children, left
  to right): its label, its ``[start, end)`` token positions in the sentence, its text and its
  ``[start_char, end_char)`` offsets in ``Document.text`` (``None`` without original text).
* **Scores, n-best, surprisal.** ``Sentence.score`` is the parser's score of the tree (``None``
  when the parser does not give one or fell back to its default tree); ``Sentence.nbest`` holds
  the ``(score, tree)`` list of ``nlp(text, nbest=K)`` and ``Sentence.surprisal`` the per-word
  surprisal (bits) of ``nlp(text, surprisal=True)``; ``Sentence.measures`` the word-by-word rows of
  ``nlp(text, measures=True)`` (the records of :func:`glmnlp.measures`, one per word and one for
  ``</s>``; :meth:`Document.measures_frame` puts a document's rows in a ``pandas.DataFrame``); all
  are empty unless asked for.
* **Measures rows are read-only dicts** (:class:`FrozenRow`). Plain dicts inside the frozen records
  made every document with measures unhashable (``hash(doc)`` raised ``TypeError``) and let anyone
  holding a shared document change it through a row, against the promise above. A ``dict`` subclass
  keeps what callers use (indexing, ``json.dumps``, ``==`` with dicts, ``pandas``) while refusing
  changes and hashing by content, so every record hashes.
* **Notebooks.** A sentence shows as its drawn tree (``_repr_svg_``), a document as its sentences'
  texts and drawings (``_repr_html_``), from :mod:`glmnlp.text.drawing`. Both are well-formed XML
  whatever the text: characters XML cannot hold (controls such as ``\\x01``) show as U+FFFD
  (:func:`glmnlp.text.drawing.markup_text`).
* The dictionary / JSON form (:meth:`Document.to_dict`) stores each tree as its one-line bracket
  string, the format EVALB and every treebank tool read, and :meth:`Document.from_dict` reads it
  back exactly (tested as a round trip). It carries a ``"format"`` tag and a version, and a
  dictionary with another format or version is rejected with :class:`~glmnlp.errors.FormatError`.
* **Brackets in words and labels.** The bracket string writes ``(``/``)`` as ``-LRB-``/``-RRB-``,
  which loses the difference between a pre-tokenised word ``(`` (or ``f(x)``) and a word ``-LRB-``.
  The tokens are stored with their exact texts and a tree's leaves are its tokens, so the reader
  gives each leaf that is the bracket escape of its token the token's text: the words come back
  without storing the tree twice, dictionaries written before this rule read back too, and
  ``"tree"`` stays the PTB string. What the tokens cannot restore (a label with a bracket such as a
  user's tag ``(``, a slash category ``A/B``, a shape brackets cannot hold) is carried by an extra
  ``"tree_exact"`` field, written only for such trees (and n-best trees): the tree as nested
  ``[label, slash, children]`` lists, which the reader prefers. The field is optional, so the
  version stays 1. A label with whitespace cannot be written in brackets at all: :meth:`to_dict`
  raises ``ValueError`` for it, as every bracket output does.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, NoReturn, overload

from glmnlp.errors import ConfigError, FormatError, MissingPackageError, TreeSyntaxError
from glmnlp.treebank.nltk_trees import tree_from_nltk, tree_to_nltk
from glmnlp.treebank.trees import Tree, escape_brackets, not_a_tree, parse_tree, to_bracket, written_tag

__all__ = ["Document", "FrozenRow", "Sentence", "Span", "Token", "tree_to_nltk", "tree_from_nltk", "written_tags"]

DOCUMENT_FORMAT = "glmnlp.text.document"
DOCUMENT_VERSION = 1
#: The sentences a document's notebook display draws (``Document._repr_html_``).
NOTEBOOK_SENTENCES = 20


def written_tags(tags: Sequence[str], own: Sequence[str | None] | None = None) -> tuple[str, ...]:
    """``tags`` (a tree's or a tagger's) as outputs of tags write them (a sentence's tags, CoNLL-U, JSON, word/TAG,
    tab): ``own[i]``, the tagger's or the user's tag, where the tree's tag is its escape (``(`` of a tagset that
    tags ``(`` so), and any other tag as :func:`~glmnlp.treebank.trees.written_tag` writes it (STTS ``$-LRB-`` as
    ``$(``; the Penn Treebank's ``-LRB-`` kept), as :meth:`Tagger.tag(words, written=True) <glmnlp.Tagger.tag>`.
    ``parse --format conllu`` and ``json`` wrote the trees' ``$-LRB-`` where ``glmnlp tag`` wrote ``$(``."""
    own = own if own is not None and len(own) == len(tags) else [None] * len(tags)
    out = []
    for tag, mine in zip(tags, own):
        if mine is not None and escape_brackets(mine) == tag:
            tag = mine
        out.append(written_tag(tag))
    return tuple(out)


@dataclass(frozen=True, slots=True)
class Token:
    """One PTB token: its text, its POS tag (if tagged) and its offsets in the document text."""

    text: str
    tag: str | None = None
    start: int | None = None
    end: int | None = None

    def __post_init__(self) -> None:
        if not isinstance(self.text, str):
            raise TypeError(f"a token's text is a str, not {type(self.text).__name__}")
        if not (_offset(self.start) and _offset(self.end)):  # a float offset failed later, slicing the text
            raise TypeError(f"token {self.text!r}: its offsets are ints or None, not {self.start!r}, {self.end!r}")
        if not self.text or any(ch.isspace() for ch in self.text):
            raise ValueError(f"token text must be non-empty and without whitespace: {self.text!r}")
        if self.tag is not None and not isinstance(self.tag, str):
            raise ValueError(f"token {self.text!r}: its tag is a string or None, not {self.tag!r}")
        if (self.start is None) != (self.end is None):
            raise ValueError(f"token {self.text!r}: give both start and end offsets, or neither")
        if self.start is not None and self.end is not None and not 0 <= self.start <= self.end:
            raise ValueError(f"token {self.text!r}: bad offsets [{self.start}, {self.end})")


def _offset(value: object) -> bool:
    """An offset a token may hold: None or an int (not a bool)."""
    return value is None or (isinstance(value, int) and not isinstance(value, bool))


def _finite(value: float | None) -> float | None:
    """A score or surprisal as stored: finite floats, None for none or an impossible analysis (JSON has no inf)."""
    return None if value is None or not math.isfinite(value) else float(value)


class FrozenRow(dict[str, Any]):
    """A read-only, hashable ``dict``: one row of :attr:`Sentence.measures` (module docstring).

    Reading works as for any dict (and ``json.dumps`` writes it as one); changing it raises
    ``TypeError``, and :meth:`dict.copy` gives a plain dict to change. Equal rows hash alike, whatever
    the order of their keys.
    """

    __slots__ = ()

    def __hash__(self) -> int:  # type: ignore[override]
        return hash(frozenset(self.items()))

    def __reduce__(self) -> tuple[type[FrozenRow], tuple[dict[str, Any]]]:
        return (type(self), (dict(self),))  # pickle and copy rebuild it whole, never item by item

    def _read_only(self, *args: Any, **kwargs: Any) -> NoReturn:
        raise TypeError("measures rows are read-only; row.copy() gives a dict to change")

    __setitem__ = __delitem__ = __ior__ = _read_only
    update = pop = popitem = clear = setdefault = _read_only


@dataclass(frozen=True, slots=True)
class Span:
    """A constituent: its label, token positions ``[start, end)`` in its sentence, text and character offsets.

    ``start_char``/``end_char`` are offsets into :attr:`Document.text` (``None`` without original
    text); ``text`` is the original text of the span, or its words joined by spaces.
    """

    label: str
    start: int
    end: int
    text: str
    start_char: int | None = None
    end_char: int | None = None

    def __len__(self) -> int:
        return self.end - self.start


@dataclass(frozen=True, slots=True)
class Sentence:
    """A sentence: its tokens, its parse tree (or ``None``) and the parser's score (or ``None``).

    ``original`` is the sentence's text as it was in the document (``None`` for pre-tokenised
    input); ``nbest`` the k best ``(score, tree)`` pairs when they were asked for; ``surprisal`` one
    value in bits per word when asked for; ``measures`` the word-by-word rows (read-only dicts,
    :class:`FrozenRow`, with the columns of :data:`glmnlp.parser.measures.COLUMNS`; ``None`` for an
    infinite or undefined value, as in ``surprisal``) when asked for.
    """

    tokens: tuple[Token, ...]
    tree: Tree | None = None
    score: float | None = None
    original: str | None = None
    nbest: tuple[tuple[float | None, Tree], ...] = ()
    surprisal: tuple[float | None, ...] = ()
    measures: tuple[Mapping[str, Any], ...] = ()

    def __post_init__(self) -> None:
        if isinstance(self.tokens, (str, bytes)) or not isinstance(self.tokens, Iterable):
            raise TypeError(f"a sentence's tokens are Token objects, not a {type(self.tokens).__name__}")
        if not isinstance(self.tokens, tuple):
            object.__setattr__(self, "tokens", tuple(self.tokens))
        if not all(isinstance(tok, Token) for tok in self.tokens):
            kind = next(type(t).__name__ for t in self.tokens if not isinstance(t, Token))
            raise TypeError(f"a sentence's tokens are Token objects, not {kind} (Sentence.from_words takes words)")
        if not self.tokens:
            raise ValueError("a sentence needs at least one token")
        if self.score is not None and not math.isfinite(self.score):
            object.__setattr__(self, "score", None)
        if self.nbest:
            object.__setattr__(self, "nbest", tuple((_finite(s), t) for s, t in self.nbest))
        if self.surprisal:
            object.__setattr__(self, "surprisal", tuple(_finite(v) for v in self.surprisal))
        words = [tok.text for tok in self.tokens]
        for tree in ([self.tree] if self.tree is not None else []) + [t for _, t in self.nbest]:
            if not isinstance(tree, Tree):
                raise TypeError(f"a sentence's tree is a Tree or None, not {type(tree).__name__} (parse_tree reads "
                                "brackets)")
            leaves = tree.leaves()
            if leaves != words:
                raise ValueError(f"tree leaves {leaves} differ from the sentence tokens {words}")
        if self.surprisal and len(self.surprisal) != len(self.tokens):
            raise ValueError(f"{len(self.surprisal)} surprisal values for {len(self.tokens)} tokens")
        if self.measures:
            object.__setattr__(self, "measures", tuple(
                FrozenRow((k, _finite(v) if isinstance(v, float) else v) for k, v in r.items())
                for r in self.measures))
            if [r.get("word") for r in self.measures[: len(words)]] != words:
                raise ValueError("measures rows do not follow the sentence tokens")

    def __repr__(self) -> str:
        """``<Sentence 'The dog barked.' (4 tokens, parsed)>`` (the generated repr printed every token and every
        node of the tree: 660 characters for a sentence of four words)."""
        n, state = len(self.tokens), "parsed" if self.tree is not None else "tagged" if any(self.tags) else "not parsed"
        return f"<Sentence {_short(self.text)} ({n} token{'' if n == 1 else 's'}, {state})>"

    # -- sequence of tokens ------------------------------------------------------------------
    def __len__(self) -> int:
        return len(self.tokens)

    def __iter__(self) -> Iterator[Token]:
        return iter(self.tokens)

    @overload
    def __getitem__(self, index: int) -> Token: ...
    @overload
    def __getitem__(self, index: slice) -> tuple[Token, ...]: ...
    def __getitem__(self, index: int | slice) -> Token | tuple[Token, ...]:
        """A token, or a tuple of tokens for a slice (module docstring)."""
        return self.tokens[index]

    @property
    def text(self) -> str:
        """The sentence's original text, or its words joined by spaces (pre-tokenised input)."""
        return self.original if self.original is not None else " ".join(self.words)

    @property
    def words(self) -> list[str]:
        """The token texts."""
        return [tok.text for tok in self.tokens]

    @property
    def tags(self) -> list[str | None]:
        """The POS tags (``None`` where untagged)."""
        return [tok.tag for tok in self.tokens]

    @property
    def start_char(self) -> int | None:
        """Offset of the sentence's first character in the document text (``None`` if unknown)."""
        return self.tokens[0].start

    @property
    def end_char(self) -> int | None:
        """Offset just past the sentence's last character in the document text (``None`` if unknown)."""
        return self.tokens[-1].end

    def span(self, label: str, start: int, end: int) -> Span:
        """The :class:`Span` of tokens ``[start, end)`` with ``label`` (text and character offsets filled in)."""
        if not 0 <= start < end <= len(self.tokens):
            raise IndexError(f"span [{start}, {end}) outside a sentence of {len(self.tokens)} tokens")
        first, last = self.tokens[start], self.tokens[end - 1]
        base = self.tokens[0].start
        if self.original is not None and first.start is not None and last.end is not None and base is not None:
            text = self.original[first.start - base:last.end - base]
            return Span(label, start, end, text, first.start, last.end)
        return Span(label, start, end, " ".join(self.words[start:end]), first.start, last.end)

    @property
    def constituents(self) -> list[Span]:
        """A :class:`Span` for every node of the tree, in pre-order (``[]`` if unparsed)."""
        if self.tree is None:
            return []
        out: list[Span] = []

        def walk(node: Tree, start: int) -> int:
            index = len(out)
            out.append(self.span(node.display_label, start, start + 1))  # placeholder, fixed below
            end = start
            for child in node.children:
                end = end + 1 if isinstance(child, str) else walk(child, end)
            out[index] = self.span(node.display_label, start, end)
            return end

        walk(self.tree, 0)
        return out

    @classmethod
    def from_tree(cls, tree: Tree, score: float | None = None) -> Sentence:
        """A sentence whose tokens and tags are the tree's preterminals, each tag as tag outputs write it
        (:func:`written_tags`: STTS ``$(`` where the tree has ``$-LRB-``, as a parsed sentence's; it kept the
        tree's ``$-LRB-``, and word/TAG, CoNLL-U and JSON wrote that)."""
        if not isinstance(tree, Tree):
            raise TypeError(not_a_tree(tree))
        pos = tree.pos()
        tags = written_tags([tag for _, tag in pos])
        return cls(tuple(Token(word, tag) for (word, _), tag in zip(pos, tags)), tree, score)

    @classmethod
    def from_words(cls, words: Iterable[str], tags: Iterable[str] | None = None) -> Sentence:
        """An unparsed sentence from words (and optionally one tag per word)."""
        if isinstance(words, (str, bytes)):  # a str is an iterable of characters: "hello" gave five tokens
            raise TypeError(f"expected a list of words, not a {type(words).__name__} (split it first)")
        words = list(words)
        if tags is None:
            return cls(tuple(Token(w) for w in words))
        tags = list(tags)
        if len(tags) != len(words):
            raise ValueError(f"{len(words)} words but {len(tags)} tags")
        return cls(tuple(Token(w, t) for w, t in zip(words, tags)))

    def to_bracket(self) -> str | None:
        """The tree as one-line brackets, or ``None`` when the sentence is not parsed."""
        return None if self.tree is None else to_bracket(self.tree)

    def to_nltk(self) -> Any:
        """The tree as an ``nltk.Tree`` (nltk is installed with glmnlp); ``ValueError`` if the sentence is unparsed.
        Its leaves are the sentence's words (``(`` stays ``(``, :mod:`glmnlp.treebank.nltk_trees`), which its
        ``pformat()`` writes as they are and ``nltk.Tree.fromstring`` cannot read back: ``fromstring`` reads
        :meth:`to_bracket`'s string, with the treebank's ``-LRB-``."""
        if self.tree is None:
            raise ValueError("this sentence has no tree (it was not parsed)")
        return tree_to_nltk(self.tree)

    def to_ascii(self) -> str:
        """The tree drawn with ASCII characters (:func:`glmnlp.text.drawing.draw_ascii`)."""
        from glmnlp.text.drawing import draw_ascii

        if self.tree is None:
            raise ValueError("this sentence has no tree (it was not parsed)")
        return draw_ascii(self.tree)

    def _repr_svg_(self) -> str | None:
        """The drawn tree, for notebooks (``None`` when unparsed: the notebook shows the repr)."""
        from glmnlp.text.drawing import render_svg

        return None if self.tree is None else render_svg(self.tree)


@dataclass(frozen=True, slots=True)
class Document:
    """A text and its analysed sentences. ``text`` is ``""`` for pre-tokenised input."""

    text: str
    sentences: tuple[Sentence, ...] = field(default=())

    def __post_init__(self) -> None:
        if not isinstance(self.text, str):  # None was kept, and its to_dict() did not read back
            raise TypeError(f"a document's text is a str ('' for pre-tokenised input), not {type(self.text).__name__}")
        if not isinstance(self.sentences, tuple):
            object.__setattr__(self, "sentences", tuple(self.sentences))
        for i, sent in enumerate(self.sentences):
            if not isinstance(sent, Sentence):
                raise TypeError(f"a document's sentences are Sentence objects, not {type(sent).__name__}")
            for tok in sent.tokens:
                if tok.end is not None and tok.end > len(self.text):
                    raise ValueError(
                        f"sentence {i + 1}: token {tok.text!r} ends at {tok.end}, "
                        f"past the end of the text ({len(self.text)} characters)"
                    )
        # each sentence knows its original text when the document has it (Sentence.text, spans)
        if self.text and any(s.original is None and s.start_char is not None for s in self.sentences):
            object.__setattr__(self, "sentences", tuple(
                replace(s, original=self.text[s.start_char:s.end_char])
                if s.original is None and s.start_char is not None and s.end_char is not None else s
                for s in self.sentences
            ))

    @property
    def trees(self) -> list[Tree | None]:
        """Each sentence's tree (``None`` for unparsed sentences)."""
        return [sent.tree for sent in self.sentences]

    # -- sequence of tokens, like spaCy's Doc ------------------------------------------------
    @property
    def sents(self) -> tuple[Sentence, ...]:
        """The sentences (the same as :attr:`sentences`)."""
        return self.sentences

    @property
    def tokens(self) -> list[Token]:
        """Every token of every sentence, in order."""
        return [tok for sent in self.sentences for tok in sent.tokens]

    def __len__(self) -> int:
        return sum(len(sent.tokens) for sent in self.sentences)

    def __iter__(self) -> Iterator[Token]:
        for sent in self.sentences:
            yield from sent.tokens

    @overload
    def __getitem__(self, index: int) -> Token: ...
    @overload
    def __getitem__(self, index: slice) -> tuple[Token, ...]: ...
    def __getitem__(self, index: int | slice) -> Token | tuple[Token, ...]:
        """A token, or a tuple of tokens for a slice (which may span sentences), as for a sentence."""
        if isinstance(index, slice):
            return tuple(self.tokens[index])
        return self.tokens[index]

    def to_nltk(self) -> list[Any]:
        """Each sentence's tree as an ``nltk.Tree``; raises ``ValueError`` if a sentence is unparsed."""
        return [sent.to_nltk() for sent in self.sentences]

    @property
    def measures(self) -> list[Mapping[str, Any]]:
        """Every sentence's word-by-word rows (``nlp(text, measures=True)``), in order; empty if not asked for."""
        return [row for sent in self.sentences for row in sent.measures]

    def measures_frame(self) -> Any:
        """:attr:`measures` as a ``pandas.DataFrame`` with the columns of :func:`glmnlp.measures` (needs pandas)."""
        try:
            import pandas as pd
        except ImportError:
            raise MissingPackageError("measures_frame() needs pandas: pip install 'glmnlp[measures]'") from None
        from glmnlp.parser.measures import COLUMNS, NEXT_COLUMNS
        from glmnlp.text.frames import rows_frame

        rows = self.measures
        if self.sentences and not rows:  # a measured sentence has rows (its end at least): an empty frame said nothing
            raise ConfigError("this document was analysed without measures: call the pipeline with measures=True")
        frame = rows_frame(pd, rows, list(COLUMNS) + (list(NEXT_COLUMNS) if rows and "rank" in rows[0] else []))
        for column in ("prefix", "surprisal"):  # None there is infinite (a row keeps None: JSON has no inf), as in
            frame[column] = frame[column].astype(float).fillna(math.inf)  # glmnlp.measures(as_frame=True)
        return frame

    def __repr__(self) -> str:
        """``<Document 'The dog barked. It ran.' (2 sentences)>`` (the generated repr printed every token and node
        of every sentence: megabytes for a long text in a notebook)."""
        n = len(self.sentences)
        text = self.text or " ".join(" ".join(s.words) for s in self.sentences)
        return f"<Document {_short(text)} ({n} sentence{'' if n == 1 else 's'})>"

    def _repr_html_(self) -> str:
        """The first :data:`NOTEBOOK_SENTENCES` sentences' texts and drawn trees (or tagged words when unparsed), for
        notebooks, and how many more there are: every sentence was drawn (4 MB of HTML for 2,000 sentences, kept in
        the notebook's file too); ``glmnlp.render_html(doc)`` draws them all."""
        more = len(self.sentences) - NOTEBOOK_SENTENCES
        rest = (f"<p>&#8230; and {more:,} more sentence{'s' * (more > 1)} (glmnlp.render_html(doc) draws them "
                "all)</p>") if more > 0 else ""
        return "<div>" + "".join(_figure(sent) for sent in self.sentences[:NOTEBOOK_SENTENCES]) + rest + "</div>"

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dictionary; :meth:`from_dict` reads it back exactly."""
        return {
            "format": DOCUMENT_FORMAT,
            "version": DOCUMENT_VERSION,
            "text": self.text,
            "sentences": [
                {
                    "tokens": [
                        {"text": t.text, "tag": t.tag, "start": t.start, "end": t.end}
                        for t in sent.tokens
                    ],
                    **_tree_fields(sent.tree, sent.words),
                    "score": sent.score,
                    **({"nbest": [{"score": sc, **_tree_fields(t, sent.words)} for sc, t in sent.nbest]}
                       if sent.nbest else {}),
                    **({"surprisal": list(sent.surprisal)} if sent.surprisal else {}),
                    **({"measures": [dict(r) for r in sent.measures]} if sent.measures else {}),
                    **({"original": sent.original} if sent.original not in (  # one the text gives not: it was lost
                        None, self.text[sent.start_char:sent.end_char] if self.text and sent.start_char is not None
                        else None) else {}),
                }
                for sent in self.sentences
            ],
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], source: str = "<dict>") -> Document:
        """Rebuild a document from :meth:`to_dict` output; raise ``FormatError`` when malformed."""
        if not isinstance(data, Mapping):
            hint = " (json.loads reads render_json's text)" if isinstance(data, str) else ""
            raise FormatError(f"expected the dictionary to_dict gives, got {type(data).__name__}{hint}", source=source)
        if data.get("format") != DOCUMENT_FORMAT:
            raise FormatError(f"not a glmnlp document (format {data.get('format')!r})", source=source)
        if type(data.get("version")) is not int or data.get("version") != DOCUMENT_VERSION:  # True == 1 too
            raise FormatError(f"unsupported document version {data.get('version')!r} (expected {DOCUMENT_VERSION})",
                              source=source)
        text = data.get("text")
        if not isinstance(text, str) or not isinstance(data.get("sentences"), Sequence):
            raise FormatError("'text' must be a string and 'sentences' a list", source=source)
        sentences: list[Sentence] = []
        for i, raw in enumerate(data["sentences"], start=1):
            where = f"sentence {i}"
            try:
                tokens = tuple(
                    Token(t["text"], t.get("tag"), t.get("start"), t.get("end")) for t in raw["tokens"]
                )
                words = [t.text for t in tokens]
                tree = None if raw.get("tree") is None else _read_tree(raw, words, f"{source} {where}")
                nbest = tuple((item.get("score"), _read_tree(item, words, f"{source} {where}"))
                              for item in raw.get("nbest", ()))
                if not isinstance(original := raw.get("original"), (str, type(None))):
                    raise TypeError(f"'original' is a string, not {original!r}")
                sentences.append(Sentence(tokens, tree, raw.get("score"), original, nbest,
                                          tuple(raw.get("surprisal", ())), tuple(raw.get("measures", ()))))
            except TreeSyntaxError:
                raise
            except (KeyError, TypeError, ValueError, AttributeError) as exc:  # a str or a number where a dict goes
                raise FormatError(f"{where}: {exc}", source=source) from None
            except RecursionError:  # a 'tree_exact' nested deeper than any tree the reader takes
                raise FormatError(f"{where}: a tree nested too deep", source=source) from None
        try:
            return cls(text, tuple(sentences))
        except (TypeError, ValueError, AttributeError) as exc:
            raise FormatError(str(exc), source=source) from None


# -- trees in the dictionary form -------------------------------------------------------------


def _tree_fields(tree: Tree | None, words: Sequence[str]) -> dict[str, Any]:
    """``{"tree": brackets}``, plus ``"tree_exact"`` (nested lists) when the brackets and ``words`` do not
    give ``tree`` back (module docstring)."""
    if tree is None:
        return {"tree": None}
    bracket = to_bracket(tree)
    try:
        exact = _tree_from_bracket(bracket, words) == tree
    except TreeSyntaxError:  # a shape brackets cannot hold (a node without children, an inner empty label)
        exact = False
    return {"tree": bracket} if exact else {"tree": bracket, "tree_exact": _plain(tree)}


def _plain(tree: Tree) -> list[Any]:
    return [tree.label, tree.slash, [c if isinstance(c, str) else _plain(c) for c in tree.children]]


def _read_tree(item: Mapping[str, Any], words: Sequence[str], source: str) -> Tree:
    """The tree of a sentence or n-best entry: its ``"tree_exact"`` when present, else its brackets."""
    if "tree_exact" in item:
        return _from_plain(item["tree_exact"])
    return _tree_from_bracket(item["tree"], words, source)


def _from_plain(plain: Any) -> Tree:
    if not (isinstance(plain, Sequence) and len(plain) == 3 and isinstance(plain[0], str)
            and (plain[1] is None or isinstance(plain[1], str)) and isinstance(plain[2], Sequence)
            and not isinstance(plain[2], str)):
        raise ValueError(f"'tree_exact' holds {plain!r}, not [label, slash, children]")
    return Tree(plain[0], tuple(c if isinstance(c, str) else _from_plain(c) for c in plain[2]), plain[1])


def _tree_from_bracket(bracket: str, words: Sequence[str], source: str = "<string>") -> Tree:
    """Parse ``bracket`` and give each leaf that is the bracket escape of its token (``-LRB-`` for ``(``,
    ``f-LRB-x-RRB-`` for ``f(x)``) the token's own text; any other leaf is left for validation to judge."""
    tree = parse_tree(bracket, source)
    leaves = tree.leaves()
    if leaves == list(words) or len(leaves) != len(words):
        return tree
    position = 0

    def restore(node: Tree) -> Tree:
        nonlocal position
        if node.is_preterminal:
            leaf, word = node.children[0], words[position]
            position += 1
            return Tree(node.label, (word,)) if leaf != word and escape_brackets(word) == leaf else node
        return Tree(node.label, tuple(restore(c) for c in node.children))  # type: ignore[arg-type]

    return restore(tree)


def _short(text: str, limit: int = 60) -> str:
    """``text`` quoted for a repr, cut to ``limit`` characters with an ellipsis (its line breaks as spaces)."""
    flat = " ".join(text.split())
    return repr(flat if len(flat) <= limit else flat[: limit - 3] + "...")


def _figure(sent: Sentence) -> str:
    """A sentence's text and drawn tree (or its words with their tags when unparsed: a tagger's document showed its
    words alone) as an HTML figure."""
    from glmnlp.text.drawing import markup_text, render_svg

    words = " ".join(markup_text(t.text, quote=True) + (f"<sub>{markup_text(t.tag, quote=True)}</sub>" if t.tag else "")
                     for t in sent.tokens)
    body = render_svg(sent.tree) if sent.tree is not None else f"<p>{words}</p>"
    return f"<figure><figcaption>{markup_text(sent.text, quote=True)}</figcaption>{body}</figure>"
