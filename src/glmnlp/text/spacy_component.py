"""A spaCy pipeline component that adds glmnlp constituency parses to a ``Doc`` (benepar-style).

Install the optional extra (``pip install 'glmnlp[spacy]'``), then::

    import spacy
    nlp = spacy.blank("en")            # or any pipeline
    nlp.add_pipe("sentencizer")        # sentence boundaries (or a parser / senter)
    nlp.add_pipe("glmnlp_parser")      # found through the ``spacy_factories`` entry point
    doc = nlp("The old man saw the dog. It barked.")
    sent = next(doc.sents)
    sent._.parse_string                # '(S (NP (DT The) (JJ old) (NN man)) (VP ...) (. .))'
    sent._.labels                      # ('S',)
    [c.text for c in sent._.children]  # ['The old man', 'saw the dog', '.']

The extensions are the ones benepar users know, on ``Span`` and ``Token``:

* ``._.labels``: the phrase labels of the constituents whose extent is exactly this span's words
  (outermost first; several for a unary chain such as ``S`` over ``VP``; ``()`` when the span is
  not a constituent). POS tags are not labels (they are in ``token.tag_``) and ``TOP`` is left out.
  A span's words are its tokens without the whitespace tokens at its edges (see the choices below).
* ``._.parse_string``: the bracketed tree of the highest constituent over exactly this span's words
  (for a sentence, its tree without ``TOP``).
* ``._.constituents`` (spans): every constituent inside the span, pre-order (parents before
  children, left to right), one span per distinct extent, the span itself first if it is one.
* ``._.children`` (spans) / ``._.parent``: the constituents just below / the nearest constituent
  above with a larger extent (``None`` at the sentence).

On a ``Token``, ``._.labels``, ``._.parse_string`` and ``._.parent`` give what they give on the
token's one-token span (the same rule as for any span, so the two never disagree). A token's
``parse_string`` is therefore ``(TAG word)`` only when no phrase is exactly that word: in
*It barked.* ``It`` gives ``(NP (PRP It))`` and ``barked`` gives ``(VP (VBD barked))``, with
``labels`` ``('NP',)`` and ``('VP',)``; ``The`` in *The dog barked.* gives ``(DT The)`` and
``labels`` ``()``.

Our choices:

* **spaCy's tokens and sentences are used as they are** (``doc.sents`` when the doc has sentence
  boundaries, else the whole doc as one sentence). Their texts are spelled the PTB way for the
  models (brackets ``-LRB-`` ..., double quotes ````` / ``''`` by position, as
  :mod:`glmnlp.text.tokenize` does); whitespace tokens (``SPACE``) are not words and belong to no
  constituent. A sentence of whitespace only is skipped. A token with whitespace inside (merged by an earlier
  component: ``New York``, ``New\nYork``) is one word, each run of its whitespace written ``_`` (``New_York``);
  only a plain space was, and a line break, a tab or a no-break space in it failed the whole call.
* **Double quotes are spelled by glmnlp's tokenizer**: for a sentence with a quote, the sentence's text is run through
  glmnlp's tokenizer (as :func:`glmnlp.text.tokenize.tokenize_spans`) and each quote takes the spelling of the token at
  its place, so the component and glmnlp's own pipeline agree on the same text by construction. A straight quote opens
  (`````) at the start of the sentence, after a space or ``( [ { <``, and before a word after ``: ;`` or a dash; it
  closes (``''``) elsewhere; ``“``/``”`` keep their direction. The choice used to follow the previous word's text,
  which made every opening quote after a word closing (``said "yes"`` gave ``''`` twice). A tab or a line break counts
  as a space there. Open quotes are counted from the paragraph's start, as :func:`~glmnlp.text.tokenize.tokenize_text`
  counts them (a blank line between two of the Doc's sentences starts a paragraph): spaCy's sentencizer cuts inside a
  quotation, and each sentence began with none open, so the quote closing it was an opening one (``"It was late. I was
  tired, " he said.``, cut after ``late.``: the second ``"`` was tagged `````, an opening quote in the tree). The
  sentence is spaCy's: a quote that starts one and touches the word after it opens, even where glmnlp's own sentence
  splitter would have kept it inside a sentence (after a word, where it closes).
* **A span is compared with the constituents by its words**: whitespace tokens at its edges are left
  out first. spaCy's sentences often start or end with whitespace (the sentence after two spaces or
  a paragraph break starts with a ``SPACE`` token), and comparing exact token extents made every
  such sentence "not a constituent". The spans the extensions return are constituent extents, so
  they never start or end with whitespace.
* **A span with no word** (whitespace only, such as the sentence the ``sentencizer`` makes of a
  text's final newline) is no constituent's and has an empty tree: ``labels`` ``()``,
  ``parse_string`` ``""``, ``children`` and ``constituents`` ``[]``, ``parent`` ``None``. It gives
  these instead of raising so that code looping over ``doc.sents`` works on any text; a span that
  has words but is not a constituent still raises :class:`ValueError`.
* ``token.tag_`` is set to the sentence's tag (``Sentence.tags``: the tree's POS tag in the tagset's spelling, STTS
  ``$(`` where the tree has ``$-LRB-``) when the pipeline has not tagged the token already (a tag set by an earlier
  component is kept, and may then differ from the tree's, which is glmnlp's tagger's).
* **Single quotes are spelled as double quotes are**: an opening ``'`` (``‘``) is ````` where glmnlp's
  tokenizer spells it so, as in ``called it 'nonsense'``.
* The component wraps :func:`glmnlp.load` (``model``: a model directory, default the bundled
  one; ``multitag_margin`` and ``max_words`` as there) and parses each sentence as pre-tokenised input, so the
  bounded-work rules of the pipeline apply (sentences of more than ``max_words`` words get a flat tree).
* **A saved pipeline holds its model**: ``nlp.to_disk(DIR)`` copies a model folder given as ``model`` into
  ``DIR/<name>/model`` and ``spacy.load(DIR)`` reads that copy (``from_disk``), so the folder is self-contained and
  loads from any directory; the bundled model (``model = null``) is not copied. A relative ``model`` is read against
  the current directory when the component is made (``component.model`` is absolute). spaCy writes ``config.cfg``
  with ``model`` as it was given, before any component saves, and makes the components from it before they read
  their folders, so a pipeline saved with a relative path and loaded from elsewhere finds no model there: a
  ``model`` that does not exist when the component is made is therefore said at its first doc (a
  :class:`~glmnlp.errors.ModelFileError`), unless ``from_disk`` has read a copy; one that exists but cannot be
  loaded is said at once, as before. A model loaded when the component was made is kept if its ``MODEL.json``,
  which holds each file's checksum, is the copy's, so that ``spacy.load`` from the directory the pipeline was saved
  in, where the config's path finds the model too, loads it once (1.4 s for the bundled one), not twice.
  ``exclude=["model"]`` (the component's own ``to_disk``/``from_disk``) leaves the copy out, and unread.
* **A warning about a sentence names it in its Doc**: the sentence's number among ``doc.sents`` (from 1), the
  character offset of its first word and its first words, as in ``sentence 2 of the Doc (character 21, 'the big dog
  saw a cat ...'): a sentence of 177 words (more than 150) gets a flat tree without parsing``. Each sentence is
  parsed as a document of its own, so the pipeline's own words, ``document 1, sentence 1``, were those of every
  over-long sentence, and Python's once-per-place rule then showed only the first. The Doc's place in an
  ``nlp.pipe`` stream is not said: a component is not told it (its own count of calls would be wrong across
  ``nlp.pipe`` calls and in ``n_process`` workers). An over-long sentence is analysed with its place given to the
  pipeline, which warns so (no warning is caught and warned again: catching them changes the process's filters,
  and from several threads at once left them changed for good).
* Parses are stored in ``doc.user_data`` (plain tuples), so docs serialised with ``DocBin`` keep
  them when ``store_user_data=True``; the extensions are registered when this module is imported (a process
  reading such docs imports it: ``import glmnlp.text.spacy_component``), and their getters are module-level
  functions, so spaCy's ``n_process`` can send them to workers started by spawn or forkserver.
* **Parses are kept with the tokens they were made for**: the stored data holds the doc's length then and each
  token's offset and length, and a doc whose tokens were merged or split afterwards (``merge_entities``,
  ``doc.retokenize()``), or that holds another doc's data (``Span.as_doc(copy_user_data=True)``), raises
  :class:`ValueError` saying so, where its token positions named other words. Run the component after the
  components that change tokens. Every read checks every token of the span asked about and of the span it returns
  (``parent``'s; the others return spans inside the one asked about), not only the span's edges: a merge and a
  split inside a span keep the doc's length and the edges, and ``doc[:]._.children`` gave ``'The old man saw'``
  for a child. A read over tokens that did not change still answers, and the check costs time in the length of
  the spans read, not of the doc.
* **One set of extensions per pipeline**: two instances of the component (different ``name``, different
  ``model``) store their parses under the same key and serve the same ``._.`` extensions, so the parses read are
  those of the one that ran last, as a second tagger's tags replace the first's in ``token.tag_``. To compare two
  models, run two pipelines on the same text.
* **Another library's extensions of the same names are left alone, and said**: benepar registers ``labels``,
  ``parse_string``, ``children``, ... too; where one of these names is already registered by other code when the
  component is made, that code keeps it (replacing it would break the other library silently) and a
  :class:`ExtensionClashWarning` names the extensions that will not show this component's parses (they gave the
  other library's values without a word). Remove the other extensions (``Span.remove_extension(name)``) before
  ``add_pipe`` to get this component's.
* Reading an extension takes time in the size of the answer, not of the document: the stored nodes are read
  into an index (by extent, and by start for ``constituents``) once per doc and reused (reading the labels of
  every constituent of a 400-sentence doc took 13.3 s, four times its parsing). Each doc's index is kept with
  the doc, in a map that holds docs by weak reference (spaCy's ``Doc`` takes one), so that it goes with the doc
  and reads across many docs in turn cost what reads doc by doc do; a map of the last 4 docs read, which held
  them alive, rebuilt an index on every read across more (100 times slower).
"""

from __future__ import annotations

import bisect
import os
import re
import shutil
import struct
import warnings
import weakref
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from glmnlp.errors import MissingPackageError, ModelFileError
from glmnlp.text.token_spelling import TYPOGRAPHIC_QUOTES, quotes_left_open
from glmnlp.text.tokenize import PTB_BRACKETS, paragraph_break, tokenize_spans, user_stacklevel
from glmnlp.treebank.trees import Tree, to_bracket

if TYPE_CHECKING:
    from glmnlp.text.pipeline import Pipeline

__all__ = ["ExtensionClashWarning", "GlmnlpParser", "make_glmnlp_parser"]

FACTORY = "glmnlp_parser"
_KEY = ("glmnlp", "constituents")  # doc.user_data key: tuple of per-sentence node tuples
_LENGTH = ("glmnlp", "tokens")  # doc.user_data key: the doc's number of tokens when it was parsed
_BOUNDS = ("glmnlp", "bounds")  # doc.user_data key: each token's offset and length then (two int64 each)
#: the factory's default ``max_words``: glmnlp.text.pipeline.MAX_PARSE_WORDS, written here because importing that
#: module takes 0.1 s, which a process that only reads saved docs (importing this module) need not spend
MAX_WORDS = 150
_COPY = "model"  # the model's copy in the component's folder of a saved pipeline (and the field to exclude)
# a node: (start token, end token, label, parent node index or -1, is_preterminal, bracket string)
Node = tuple[int, int, str, int, bool, str]

# spaCy token texts that are double quotes; ``_FIXED_QUOTES``: those whose spelling does not depend on position
_DOUBLE_QUOTES = frozenset({'"', "''", "``", "\u201c", "\u201d", "\u201e", "\u201f"})
_FIXED_QUOTES = {"``": "``", **{q: t for q, t in TYPOGRAPHIC_QUOTES.items() if len(t) == 2}}
#: single quotes: spelled as glmnlp's tokenizer spells the same extent (an opening one ```), else as here
_SINGLE_QUOTES = {"'": "'", "`": "`", "\u2018": "`", "\u2019": "'"}
#: a character that may be (part of) a quote as glmnlp's tokenizer reads them: a sentence without one opens and
#: closes none
_HAS_QUOTE = re.compile("[\"'`\u2018-\u201f\u02bc]")


def _spacy() -> Any:
    try:
        import spacy
    except ImportError:
        raise MissingPackageError("the spaCy component needs spaCy: pip install 'glmnlp[spacy]'") from None
    return spacy


def _ptb_word(text: str) -> str:
    """A spaCy token text spelled the PTB way: brackets (double quotes: :func:`_quote_spellings`)."""
    return PTB_BRACKETS.get(text, text)


def _quote_spellings(doc: Any, positions: list[int], open_before: tuple[bool, bool]
                     ) -> tuple[dict[int, str], tuple[bool, bool]]:
    """The PTB spelling (opening ````` or closing ``''``) of each double quote among a sentence's words, by token,
    and of each single quote (`````, ``'``); and whether a double and a single quote are open after the sentence,
    ``open_before`` saying so as it begins (:func:`glmnlp.text.token_spelling.quotes_left_open`).

    Read from glmnlp's tokenizer run on the sentence's text with the quotes left open before it, so that a quote is
    spelled as glmnlp's own pipeline spells it in the same paragraph (a quote closing a quotation that an earlier
    sentence of the Doc opened closes). The rule there (NLTK's and choice 5's) looks at what comes before
    the quote, not at the word before it: a straight quote opens at the start of the sentence, after a space or
    ``( [ { <`` and before a word after ``: ;`` or a dash (``said:"yes"``), and closes elsewhere (so after a word and
    a space, as in ``said "yes"``, it opens); typographic quotes keep their direction, and so does the PTB's opening
    `````. A quote the tokenizer does not return as a token of the same extent (when the two tokenizers cut a run such
    as ``'''`` differently) gets NLTK's rule, read from the character before it. A quote with spaces on both sides, as
    every token of a Doc made from words (``Doc(vocab, words=...)``) has, tells nothing by its place: a ``''`` is the
    PTB's closing quote and a straight ``"`` opens and closes by turns, from the state the sentence begins with (each
    closing one was taken for an opening one, and such sentences of EWT were tagged otherwise than glmnlp tags the
    same words). The state after the sentence is counted over the tokenizer's tokens, each quote that is a word of
    the sentence spelled as here: a quote spaCy keeps inside a token (``tired,"he``) counts as the tokenizer spells it.
    """
    base = doc[positions[0]].idx
    last = doc[positions[-1]]
    text = doc.text[base:last.idx + len(last.text)]
    if not _HAS_QUOTE.search(text):  # most sentences: no second tokenization, no quote opened or closed
        return {}, open_before
    tokens = tokenize_spans(text, open_before)
    spelled = {(start, end): word for word, start, end in tokens}
    out: dict[int, str] = {}
    opened = open_before[0]  # whether the last double quote opened one
    for i in positions:
        if doc[i].text not in _DOUBLE_QUOTES and doc[i].text not in _SINGLE_QUOTES:
            continue
        start = doc[i].idx - base
        end = start + len(doc[i].text)
        word = spelled.get((start, end))
        if doc[i].text in _SINGLE_QUOTES:
            out[i] = word if word in ("`", "'") else _SINGLE_QUOTES[doc[i].text]
            continue
        if doc[i].text in _FIXED_QUOTES:
            word = _FIXED_QUOTES[doc[i].text]
        elif doc[i].text in ('"', "''") and (not start or text[start - 1].isspace()) and text[end:end + 1] in ("", " "):
            word = "''" if opened or doc[i].text == "''" else "``"  # spaced: a PTB token, or " by turns
        elif word is None or word not in ("``", "''"):
            word = "``" if (text[start - 1] if start else " ") in " ([{<" else "''"
        opened = word == "``"
        out[i] = word
    mine = {(doc[i].idx - base, doc[i].idx - base + len(doc[i].text)): word for i, word in out.items()}
    return out, quotes_left_open([(mine.get((a, b), word), a, b) for word, a, b in tokens], open_before)


class ExtensionClashWarning(UserWarning):
    """Some of the component's ``._.`` extensions were registered by other code first and show that code's values."""


class GlmnlpParser:
    """The spaCy component: parses each sentence with a glmnlp pipeline and stores its constituents."""

    def __init__(self, nlp: Any, name: str = FACTORY, model: str | None = None,
                 multitag_margin: float | str | None = "model", max_words: int = MAX_WORDS) -> None:
        self.name = name
        #: the model folder, absolute (a relative one read against the current directory now), or None: the bundled
        self.model = os.path.abspath(model) if model else model  # (None, or "", which load() refuses)
        self._settings: dict[str, Any] = {"multitag_margin": multitag_margin, "max_words": max_words}
        self._pipeline: Pipeline | None = None
        self._description: bytes | None = None  # the loaded model's MODEL.json
        if not self.model or os.path.lexists(self.model):  # else maybe a saved pipeline's: from_disk reads it
            self._load(self.model)
        # registered when this module is imported; again here, for names another library has removed since
        if foreign := _register_extensions():
            warnings.warn(
                f"the extension{'s' if len(foreign) > 1 else ''} {', '.join(foreign)} "
                f"{'were' if len(foreign) > 1 else 'was'} registered by other code (another constituency parser "
                f"such as benepar?) and will show that code's values, not this component's parses; remove "
                f"{'them' if len(foreign) > 1 else 'it'} (Span.remove_extension / Token.remove_extension) before "
                f"adding the component", ExtensionClashWarning, stacklevel=user_stacklevel())

    def _load(self, model: str | None) -> None:
        from glmnlp.text.loading import load

        self._pipeline = load(model, **self._settings)
        self.model = model
        self._description = _description(Path(model)) if model is not None else None

    @property
    def glmnlp(self) -> Pipeline:
        """The glmnlp pipeline that parses: the model's, or after ``from_disk`` the saved pipeline's copy of it."""
        if self._pipeline is None:
            raise ModelFileError(f"{self.model}: model directory not found (not when the component was made, and no "
                                 "saved pipeline's copy of it was read since: nlp.from_disk or spacy.load reads one)")
        return self._pipeline

    def to_disk(self, path: str | Path, *, exclude: Iterable[str] = ()) -> None:
        """Save the model in ``path`` (spaCy's ``nlp.to_disk`` calls this with the component's folder): a copy of a
        model folder given as ``model``, nothing for the bundled model (module docstring)."""
        folder = Path(path)
        folder.mkdir(parents=True, exist_ok=True)
        copy = folder / _COPY
        if _COPY in exclude:
            return
        if self.model is None:
            shutil.rmtree(copy, ignore_errors=True)  # a copy saved there before the config named the bundled model
            return
        self.glmnlp  # noqa: B018 (a model never found is said here, not saved as a missing folder)
        if copy.exists() and os.path.samefile(copy, self.model):  # saved again where it was read from
            return
        if folder.resolve().is_relative_to(Path(self.model).resolve()):
            raise ValueError(f"{folder}: inside the model folder {self.model}, which would be copied into itself")
        partial = folder / (_COPY + ".partial")  # a copy cut short by an error is never taken for the model
        shutil.rmtree(partial, ignore_errors=True)
        shutil.copytree(self.model, partial)  # the files of links, as a model installed as links has them
        shutil.rmtree(copy, ignore_errors=True)
        partial.rename(copy)

    def from_disk(self, path: str | Path, *, exclude: Iterable[str] = ()) -> GlmnlpParser:
        """Read the model saved by :meth:`to_disk` (spaCy's ``spacy.load`` and ``nlp.from_disk`` call this with the
        component's folder); a folder without one (the bundled model, or saved before copies were) changes nothing."""
        copy = Path(path) / _COPY
        if self.model is None or _COPY in exclude or not copy.is_dir():
            return self
        known = _description(copy)
        if self._pipeline is None or known is None or known != self._description:
            self._load(os.path.abspath(copy))
        else:  # the same model's files (their checksums are in MODEL.json): the one loaded is kept, and workers
            self.model = os.path.abspath(copy)  # and pickles load the copy (they loaded the first folder, perhaps
            if (spec := self._pipeline.spec) is not None:  # gone since: n_process under spawn then hung)
                self._pipeline.spec = (spec[0], (Path(self.model), *spec[1][1:]))
        return self

    def __call__(self, doc: Any) -> Any:
        sentences = list(doc.sents) if doc.has_annotation("SENT_START") else [doc[:]]
        stored: list[tuple[Node, ...]] = []
        open_quotes, at = (False, False), 0  # quotes open as a sentence begins, counted from its paragraph's start
        for number, sent in enumerate(sentences, start=1):
            positions = [tok.i for tok in sent if not tok.is_space]
            if not positions:
                continue
            if paragraph_break(doc.text, at, doc[positions[0]].idx):  # a blank line, as glmnlp's tokenizer has it
                open_quotes = (False, False)
            quotes, open_quotes = _quote_spellings(doc, positions, open_quotes)
            at = doc[positions[-1]].idx + len(doc[positions[-1]].text)
            words = [quotes.get(i) or _ptb_word("_".join(doc[i].text.split())) for i in positions]
            parsed = self._parse(words, doc, number, positions)
            assert parsed.tree is not None
            stored.append(_nodes(parsed.tree, positions))
            for i, tag in zip(positions, parsed.tags):
                if not doc[i].tag_ and tag is not None:
                    doc[i].tag_ = tag
        doc.user_data[_KEY] = tuple(stored)
        doc.user_data[_LENGTH] = len(doc)
        doc.user_data[_BOUNDS] = b"".join(struct.pack("<qq", t.idx, len(t.text)) for t in doc)
        return doc

    def _parse(self, words: list[str], doc: Any, number: int, positions: list[int]) -> Any:
        """The parsed sentence of ``words``; an over-long one's warnings say where it is in ``doc`` (module
        docstring), not ``document 1, sentence 1``, which the pipeline says of every sentence given to it alone: it
        is analysed as the pipeline analyses a document's sentence, with that place given. (Its warnings were caught
        and warned again renamed: catching warnings changes the process's filters, and from two threads at once
        left them changed for good, every later warning of the process appended to a list nothing read.)"""
        if len(words) <= self.glmnlp.max_words:
            return self.glmnlp([words]).sentences[0]
        from glmnlp.text.inputs import read_document
        from glmnlp.text.pipeline import _document

        first = " ".join(doc[i].text for i in positions[:6]) + (" ..." if len(positions) > 6 else "")
        text, pending = read_document([words], 0)
        self.glmnlp._analyse(pending[0], where=f"sentence {number} of the Doc (character {doc[positions[0]].idx}, "
                                                f"{first!r}): ")
        return _document(text, pending).sentences[0]


def _description(folder: Path) -> bytes | None:
    """A model folder's ``MODEL.json`` as bytes, or None where it has none."""
    try:
        return (folder / "MODEL.json").read_bytes()
    except OSError:
        return None


def _nodes(tree: Tree, positions: list[int]) -> tuple[Node, ...]:
    """The tree's nodes below TOP as (doc start, doc end, label, parent, is_pos, brackets), pre-order."""
    out: list[Node] = []

    def walk(node: Tree, first: int, parent: int) -> int:
        index = len(out)
        out.append((0, 0, "", parent, False, ""))
        end = first
        for child in node.children:
            end = end + 1 if isinstance(child, str) else walk(child, end, index)
        out[index] = (positions[first], positions[end - 1] + 1, node.display_label, parent, node.is_preterminal,
                      to_bracket(node))
        return end

    top_children = tree.children if tree.label == "TOP" else (tree,)
    at = 0
    for child in top_children:
        if isinstance(child, Tree):
            at = walk(child, at, -1)
    return tuple(out)


# -- extensions ----------------------------------------------------------------------------------


class _Index:
    """A doc's nodes in one list (parent indices shifted to index it), by extent and by start (pre-order: the
    starts never decrease)."""

    def __init__(self, doc: Any) -> None:
        #: the stored parses indexed (told by identity from those of a later run of the component on the doc); not
        #: the doc, which the map of indexes holds weakly
        self.parses = doc.user_data[_KEY]
        self.nodes: list[Node] = []
        for sent in doc.user_data[_KEY]:
            shift = len(self.nodes)
            self.nodes.extend((a, b, label, parent + shift if parent >= 0 else -1, pos, text)
                              for a, b, label, parent, pos, text in sent)
        self.starts = [n[0] for n in self.nodes]
        self.by_extent: dict[tuple[int, int], list[int]] = {}
        for k, n in enumerate(self.nodes):
            self.by_extent.setdefault((n[0], n[1]), []).append(k)
        bounds = doc.user_data.get(_BOUNDS)  # docs stored before the bounds were: not checked
        #: each token's (offset, length) when parsed, or None
        self.bounds = list(struct.iter_unpack("<qq", bounds)) if bounds and len(bounds) == 16 * len(doc) else None


#: each doc's index, kept while the doc lives (a map of the last 4 docs read rebuilt an index on every read of
#: more than 4 docs in turn: 1,600 sentences' labels read across 8 docs took 7.4 s, against 0.08 s doc by doc)
_INDEXES: weakref.WeakKeyDictionary[Any, _Index] = weakref.WeakKeyDictionary()


def _doc_index(doc: Any, start: int = 0, end: int = 0) -> _Index:
    """The index of the doc's stored parses, checked against its tokens (module docstring): their number, and the
    offset and length of every token from ``start`` to ``end`` (a merge and a split by later components kept the
    number, and a check of a span's edge tokens alone let one inside a span through: its children were spans over
    other words)."""
    if _KEY not in doc.user_data:
        raise ValueError("this Doc has no glmnlp parses: it was not parsed by the glmnlp_parser component, or its "
                         "user data was not kept (DocBin(store_user_data=True) keeps it; Doc.to_json, "
                         "Doc.from_docs and Span.as_doc without copy_user_data do not)")
    parsed = doc.user_data.get(_LENGTH, len(doc))  # docs stored before the length was: not checked
    if parsed != len(doc):
        raise ValueError(f"this Doc's tokens changed after glmnlp_parser parsed it ({parsed} tokens then, {len(doc)} "
                         "now: merged or split by a later component, or another Doc's user data copied by "
                         "Span.as_doc): its parses no longer apply; run glmnlp_parser after the components that "
                         "change tokens")
    index = _INDEXES.get(doc)
    if index is None or index.parses is not doc.user_data[_KEY]:  # (the length was checked above)
        index = _INDEXES[doc] = _Index(doc)
    if index.bounds is not None and start < end:
        now = [(token.idx, len(token)) for token in doc[start:end]]
        then = index.bounds[start:end]
        if now != then:
            i = start + next(k for k, (a, b) in enumerate(zip(now, then)) if a != b)
            raise ValueError(f"this Doc's tokens changed after glmnlp_parser parsed it (token {i}, {doc[i].text!r}, "
                             "was another then: merged or split by a later component): its parses no longer "
                             "apply; run glmnlp_parser after the components that change tokens")
    return index


def _words_extent(span: Any) -> tuple[int, int]:
    """The span's token extent without the whitespace tokens at its edges (empty if it has no word).

    Whitespace tokens are not words and belong to no constituent, so a span that starts or ends with
    them (a spaCy sentence after two spaces or a paragraph break) is compared by its words alone.
    """
    doc = span.doc
    start, end = span.start, span.end
    while start < end and doc[start].is_space:
        start += 1
    while end > start and doc[end - 1].is_space:
        end -= 1
    return start, end


def _over_words(span: Any) -> tuple[list[Node], list[int]] | None:
    """The doc's nodes and the indices of those over exactly the span's words; ``None`` if it has no word."""
    index = _doc_index(span.doc, span.start, span.end)
    start, end = _words_extent(span)
    if start == end:
        return None
    return index.nodes, index.by_extent.get((start, end), [])


def _constituent(span: Any) -> tuple[list[Node], list[int]] | None:
    """As :func:`_over_words`, but a span whose words are not a constituent raises :class:`ValueError`."""
    found = _over_words(span)
    if found is not None and not found[1]:
        doc = span.doc
        sentence = doc.has_annotation("SENT_START") and (span.sent.start, span.sent.end) == (span.start, span.end)
        raise ValueError(f"{span.text!r} is not a constituent" + (
            " (a sentence of the Doc's that glmnlp_parser did not parse as one: were its boundaries set by a "
            "component after it?)" if sentence else ""))
    return found


def _labels(span: Any) -> tuple[str, ...]:
    found = _over_words(span)
    if found is None:
        return ()
    nodes, exact = found
    return tuple(nodes[k][2] for k in exact if not nodes[k][4])


def _parse_string(span: Any) -> str:
    found = _constituent(span)
    if found is None:
        return ""
    nodes, exact = found
    return nodes[exact[0]][5]


def _constituents(span: Any) -> list[Any]:
    out = []
    seen: set[tuple[int, int]] = set()
    index = _doc_index(span.doc, span.start, span.end)  # the spans returned are inside it
    first, last = bisect.bisect_left(index.starts, span.start), bisect.bisect_left(index.starts, span.end)
    for start, end, *_ in index.nodes[first:last]:
        if end <= span.end and (start, end) not in seen:
            seen.add((start, end))
            out.append(span.doc[start:end])
    return out


def _children(span: Any) -> list[Any]:
    found = _constituent(span)
    if found is None:
        return []
    nodes, exact = found
    k = exact[-1]  # its descendants follow it in pre-order, up to the first node that starts at or after its end
    stop = bisect.bisect_left(_doc_index(span.doc).starts, nodes[k][1], lo=k + 1)
    return [span.doc[n[0]:n[1]] for n in nodes[k + 1:stop] if n[3] == k]


def _parent(span: Any) -> Any:
    found = _constituent(span)
    if found is None:
        return None
    nodes, exact = found
    parent = nodes[exact[0]][3]
    if parent < 0:
        return None
    _doc_index(span.doc, nodes[parent][0], nodes[parent][1])  # its words outside the span's checked too
    return span.doc[nodes[parent][0]:nodes[parent][1]]


# a token's extensions are its one-token span's; module-level functions (a lambda cannot be pickled, and spaCy's
# n_process sends every registered extension to workers started by spawn or forkserver)
def _token_labels(token: Any) -> tuple[str, ...]:
    return _labels(token.doc[token.i:token.i + 1])


def _token_parse_string(token: Any) -> str:
    return _parse_string(token.doc[token.i:token.i + 1])


def _token_parent(token: Any) -> Any:
    return _parent(token.doc[token.i:token.i + 1])


def _register_extensions() -> list[str]:
    """Register the extensions not registered yet; return those registered by other code (``Span._.labels``...)."""
    from spacy.tokens import Span, Token

    foreign: list[str] = []
    getter: Callable[[Any], Any]
    for kind, names in ((Span, (("labels", _labels), ("parse_string", _parse_string),
                                ("constituents", _constituents), ("children", _children), ("parent", _parent))),
                        (Token, (("labels", _token_labels), ("parse_string", _token_parse_string),
                                 ("parent", _token_parent)))):
        for name, getter in names:
            if not kind.has_extension(name):
                kind.set_extension(name, getter=getter)
            elif not _ours(kind.get_extension(name)[2], getter):
                foreign.append(f"{kind.__name__}._.{name}")
    return foreign


def _ours(registered: Any, getter: Callable[[Any], Any]) -> bool:
    """Whether a registered getter is this module's (compared by name: a reloaded module makes new functions)."""
    return (getattr(registered, "__module__", None) == getter.__module__
            and getattr(registered, "__qualname__", None) == getter.__qualname__)


def make_glmnlp_parser(nlp: Any, name: str, model: str | None, multitag_margin: Any,
                       max_words: int = MAX_WORDS) -> GlmnlpParser:
    """The spaCy factory (entry point ``spacy_factories: glmnlp_parser``)."""
    return GlmnlpParser(nlp, name, model, multitag_margin, max_words)


def _register_factory() -> None:
    spacy = _spacy()
    if not spacy.language.Language.has_factory(FACTORY):
        spacy.language.Language.factory(
            FACTORY, default_config={"model": None, "multitag_margin": "model", "max_words": MAX_WORDS},
            func=make_glmnlp_parser,
        )


_register_factory()
_register_extensions()
