"""Text to trees: tokenise, tag, parse, and collect the results in a :class:`~glmnlp.text.document.Document`.

The parser of Collins & Roark (2004) reads POS-tagged words (their footnote 3: the tags come from the
perceptron tagger of Collins 2002), so the user-facing pipeline is the chain

    raw text -> sentences -> PTB tokens (glmnlp.text.tokenize) -> tags (tagger) -> tree (parser)

:class:`Pipeline` holds a tagger and a parser behind two one-method protocols,
:class:`TaggerProtocol` and :class:`ParserProtocol`, so that any object with those methods plugs
in (the trained models, a gold-tag oracle in experiments, or small fakes in tests); they, :class:`Deferred` and
:data:`UNCHANGED` (:meth:`Pipeline.replace`'s default) live in :mod:`glmnlp.text.components`.

Our choices (what a call accepts, and the checks at the text boundary: :mod:`glmnlp.text.inputs`):

* **Given tags are kept.** Pre-tagged input reaches the parser as given (never widened by ``multitag_margin``;
  a bracket spelled as trees spell it, ``(`` as ``-LRB-``), so the tree's preterminals are the user's tags. A given
  tag the parser does not know is an InputError naming the document, the sentence, the word and the tag (a flat
  tree came back without a word; ``glmnlp parse --tagged`` refuses it too), checked as the parser checks every tag
  it is given (:func:`glmnlp.parser.tag_check.checked_tags`). The tagger's tags are not the user's: one the parser
  does not know (a tagger with a wider tagset, which :func:`glmnlp.text.loading.load` warns of) is left out of its
  word's candidates, and a word with none the parser knows gives the sentence the parser's flat default tree, as
  before the parser checked its tags; the pipeline does both itself, so that the parser is called as its protocol
  says, with nothing but the words, the tags and ``k`` (:mod:`glmnlp.text.parser_call`), and a parser's refusal of
  given tags names the sentence too. A parser that does not say its tags (no ``grammar``) gets them unchecked.
* **Optional components.** ``tagger`` or ``parser`` may be ``None``: without a parser the
  sentences carry tags and no tree (what ``glmnlp tag`` needs); without a tagger the input must be
  pre-tagged whenever a parser is present. A missing component is reported, never worked around.
* **Multi-tag input.** With ``multitag_margin=m`` the tagger's ``multitag(words, m)`` (every tag
  whose best full sequence scores within ``m`` of the best, C&R 2004 footnote 3) is passed to the parser instead
  of the single best tags; a tagger without ``multitag`` is a configuration error. Pre-tagged input
  is passed as given. A tagger with ``tag_and_multitag`` (glmnlp's) gives both the best tags and
  the multi-tags from one encoding of the sentence (its features computed once, not twice):
  raw text to trees with the bundled model 63.7-64.7 -> 66.3-67.5 sentences/s back to back
  (``benchmarks/parsing.py --model default``, quiet machine, when the change was made; these runs are not
  in ``parsing_default_model.md``, whose table has the later figures).
* **Final tags.** When a sentence is parsed, its tokens carry the tags of the tree's
  preterminals (the parser may choose among several tags per word), otherwise the tagger's tags.
* **Incremental surprisal.** ``surprisal=True`` scores word i with the tags the generative model
  itself gives each word from the word alone (:func:`glmnlp.parser.measures.candidate_tags`, what
  :func:`glmnlp.measures` uses), not with the tagger's, which are chosen with the whole sentence in
  view: with them the surprisal of "flies" differed between "Time flies." and "Time flies like an
  arrow." (17.63 and 23.14 bits), and ``Sentence.surprisal`` disagreed with the measures of the same
  sentence. Given tags (pre-tagged input, web tokens) are used as given, by the measures too
  (:func:`glmnlp.text.measures.incremental_tags`), so ``Sentence.surprisal`` is the measures' surprisal
  column (a web token's and a pre-tagged sentence's were not).
* **Scores.** ``Sentence.score`` is the score of the tree when the parser ranks its trees (``parse_nbest``,
  as glmnlp's does); a parser with ``parse`` alone (:class:`ParserProtocol`) leaves it ``None``.
* **Processes** (``pipe(..., n_process=N)``, spaCy's convention; ``glmnlp parse --jobs N``): a
  pipeline made by :func:`glmnlp.text.loading.load` (or any with a ``spec``: a module-level loader and its plain
  arguments) starts N workers (:mod:`glmnlp.glm.parallel`: local processes or Ray actors) that each
  load the model once; batches go to the workers in turn and the documents come back in input
  order, with the same trees as in this process. Input that fits in one batch is analysed in this
  process (starting workers, each loading the model, would only add their start-up to its time), so
  ``glmnlp parse`` can use every core by default without slowing down a one-sentence call. Only documents
  (strings, token lists), results (token tuples, trees as nested tuples) and a built parser's beam (set
  after loading: :func:`glmnlp.text.workers.parser_beam`) travel; the parser's counters of retried and
  fallback sentences are added to this pipeline's parser.
* **Loading on first use.** A component may be a :class:`Deferred` (what
  ``glmnlp.load(..., deferred=True)`` gives, :mod:`glmnlp.text.loading`): it is built when a sentence
  first needs it, and the questions asked before that ("has the parser a generative term?", its POS
  tags, its counters) are answered from the model's metadata (:meth:`Pipeline.parser_facts`,
  :attr:`Pipeline.stats`). Reading ``pipeline.tagger`` / ``pipeline.parser`` builds the component.
* **Threads.** One pipeline may be called from several threads: the parser keeps one decoder per
  thread (:class:`glmnlp.parser.model.Parser`) and the tagger's word cache is locked, so each thread
  gets the trees a lone thread would; memory grows by one decoder per thread.
* **Scores.** A parser with ``parse_nbest(words, tags, k) -> [(score, tree), ...]`` (the
  glmnlp parser) is asked for its best ``k`` trees (``k = 1`` unless ``nbest`` is asked for), so
  ``Sentence.score`` is the best tree's score; with :class:`ParserProtocol`'s ``parse`` alone it
  stays ``None``. The parser's default tree (no analysis found) has score ``-inf``, stored as ``None``.
* **Web tokens.** A token that :func:`glmnlp.text.web.web_tag` recognises (URL, e-mail
  address, @handle, #hashtag, emoticon, emoji only) gets that fixed PTB tag instead of the tagger's (its only
  candidate under multi-tag input); the WSJ-trained tagger has never seen such tokens. A tag the
  parser's grammar has no chain for (``UH`` is not in the WSJ sample) is not forced. Pre-tagged
  input keeps its given tags.
* **Bounded parsing** (linear work on any input). A sentence of more than ``max_words`` words
  (default :data:`MAX_PARSE_WORDS` = 150) is not given to the beam: it gets the parser's own fallback analysis, a
  flat phrase over its tagged words (:func:`glmnlp.parser.model.default_tree`), and a
  :class:`~glmnlp.text.tokenize.LongInputWarning`. On the bundled model a 150-word input took about 4 s (beam
  retried, then the fallback anyway); the longest sentence of the WSJ sample has 249 tokens (wsj_0096; the next
  longest 114), so that one gets the flat tree. Together with the tokenizer's bounded windows (every sentence is at
  most 2,000 characters) this bounds the work per sentence, so a 2 MB line without full stops is tagged and written
  in seconds instead of hanging.
* **Word-by-word measures** (``measures=True`` or a :class:`glmnlp.parser.measures.MeasureOptions`): each sentence's
  rows are those :func:`glmnlp.text.measures.measures` gives for its tokens (its own beam, the generative model's
  candidate tags: never the tagger's, which read ahead; given tags as given), numbered by the sentence's place in the
  document; a sentence over ``max_words`` too (its tree is the flat one, its measures need no tree), and one over
  :data:`glmnlp.text.measures.LONG_SENTENCE` is warned of as there.
* **Batches.** :meth:`Pipeline.pipe` reads ``batch_size`` documents at a time and analyses them before
  yielding them in input order. The stages are per-sentence today; the batch is the unit at which batched
  kernels can later plug in, and it bounds how far ``pipe`` reads ahead of what it has yielded. A document
  refused (``None``, given tags the parser does not know) is raised after the documents before it, its batch's
  included (they were dropped with the batch), with any ``n_process``.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable, Iterable, Iterator, Sequence
from itertools import chain
from typing import Any

from glmnlp.errors import ConfigError
from glmnlp.glm.locks import ForkSafeLock
from glmnlp.parser.explain import Explanation
from glmnlp.parser.model import Parser
from glmnlp.parser.tag_check import model_tag
from glmnlp.text.components import UNCHANGED, Deferred, ParserProtocol, TaggerProtocol, Unchanged
from glmnlp.text.document import Document, Sentence, Token
from glmnlp.text.parser_call import call_parser, flat_tree, parser_tags
from glmnlp.text.inputs import (MAX_BATCH, DocumentInput, PendingSentence, check_progress, model_words, read_document,
                                sentence_items, spell_as_written, tagset_mismatch, written_tags)
from glmnlp.text.tokenize import LongInputWarning, user_stacklevel
from glmnlp.text.web import web_tags
from glmnlp.treebank.trees import Tree, with_leaves

__all__ = ["MAX_PARSE_WORDS", "UNCHANGED", "Deferred", "DocumentInput", "ParserProtocol", "Pipeline", "TaggerProtocol",
           "Unchanged"]

#: Sentences longer than this get the flat fallback tree instead of a beam search.
MAX_PARSE_WORDS = 150


class Pipeline:
    """Tokeniser + tagger + parser. Call it on one document, or :meth:`pipe` a stream of them.

    Parameters
    ----------
    tagger:
        Any object with ``tag(words) -> tags`` (:class:`TaggerProtocol`), or ``None`` to accept
        only pre-tagged input (or to skip tagging when there is no parser either).
    parser:
        Any object with ``parse(words, tags) -> Tree`` (:class:`ParserProtocol`), or ``None`` to
        stop after tagging.
    lines:
        Raw text only: every non-blank line is exactly one sentence (one-sentence-per-line input; no
        sentence splitting inside a line) instead of single line breaks being spaces
        (:func:`glmnlp.text.tokenize.sentence_spans`).
    multitag_margin:
        If given, pass the parser every tag within this score margin of the best (the tagger must
        have ``multitag(words, margin)``); ``None`` passes the single best tag per word.
    max_words:
        Sentences with more words get the flat fallback tree without a beam search (module
        docstring, "Bounded parsing").

    Examples
    --------
    See ``docs/api.md``: a pipeline with stand-in components runs without trained models.
    """

    def __init__(
        self,
        tagger: TaggerProtocol | None = None,
        parser: ParserProtocol | None = None,
        *,
        lines: bool = False,
        multitag_margin: float | None = None,
        max_words: int = MAX_PARSE_WORDS,
    ) -> None:
        if tagger is not None and not isinstance(tagger, Deferred) and not callable(getattr(tagger, "tag", None)):
            raise ConfigError(f"tagger {type(tagger).__name__} has no tag(words) method")
        if parser is not None and not isinstance(parser, Deferred) and not callable(getattr(parser, "parse", None)):
            raise ConfigError(f"parser {type(parser).__name__} has no parse(words, tags) method")
        self._components: dict[str, Any] = {"tagger": tagger, "parser": parser}
        if parser is not None and isinstance(tags := getattr(tagger, "tags_", None), tuple | list):  # a UPOS tagger
            tagset_mismatch(tags, self.parser_facts()["pos_tags"], "tagger")  # beside a WSJ parser, as load() refuses
        self._building = ForkSafeLock()
        #: counters the workers reported while this process's parser was not built yet
        self._pending_stats: dict[str, int] = {}
        if multitag_margin is not None:
            number = isinstance(multitag_margin, int | float) and not isinstance(multitag_margin, bool)
            if not number or not multitag_margin >= 0:  # NaN too: it would keep no tag at all
                raise ConfigError(f"multitag_margin must be a number >= 0, got {multitag_margin!r}")
            if not self._offers("tagger", "multitag"):
                raise ConfigError("multitag_margin needs a tagger with a multitag(words, margin) method")
        self.lines = lines
        self.multitag_margin = multitag_margin
        if isinstance(max_words, bool) or not isinstance(max_words, int) or max_words < 1:
            raise ConfigError(f"max_words must be a positive integer, got {max_words!r}")
        self.max_words = max_words
        #: how a worker process loads this same pipeline: (module-level loader, plain arguments)
        self.spec: tuple[Callable[..., Pipeline], tuple[Any, ...]] | None = None

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled as how to load it, never as its models: the ``glmnlp.load()`` path and settings and the beam
        as they are now (what joblib, ``multiprocessing`` and spaCy's ``n_process`` send to their workers, which
        then load the model from that path; pickling gave ``cannot pickle '_thread.RLock' object``)."""
        from glmnlp.text.workers import parser_beam, pipeline_settings, restored_pipeline

        if self.spec is None:
            raise TypeError("a Pipeline made from components in memory cannot be pickled (its models would be): one "
                            "made by glmnlp.load() pickles as its model directory's path and its settings")
        return restored_pipeline, (self.spec, parser_beam(self._components["parser"]), pipeline_settings(self))

    def __copy__(self) -> Pipeline:
        """The same components (not loaded again, as pickling would), options and spec."""
        return self.replace()

    def __repr__(self) -> str:  # max_words too: two pipelines that parse differently printed alike
        return (f"Pipeline(tagger={self._components['tagger']!r}, parser={self._components['parser']!r}, "
                f"lines={self.lines}, multitag_margin={self.multitag_margin}, max_words={self.max_words})")

    # -- components ------------------------------------------------------------------------------
    @property
    def tagger(self) -> Any:
        """The tagger (built now if it was :class:`Deferred`), or ``None``."""
        return self._built("tagger")

    @property
    def parser(self) -> Any:
        """The parser (built now if it was :class:`Deferred`), or ``None``."""
        return self._built("parser")

    @property
    def has_tagger(self) -> bool:
        """Whether there is a tagger, built or not (reading it does not build it)."""
        return self._components["tagger"] is not None

    @property
    def has_parser(self) -> bool:
        """Whether there is a parser, built or not."""
        return self._components["parser"] is not None

    @property
    def stats(self) -> dict[str, int] | None:
        """The parser's counters (``sentences``, ``retried``, ``fallback``; ``too_long``: flat trees over max_words),
        those of worker processes included; ``None`` without a parser. Does not build a deferred parser."""
        component = self._components["parser"]
        if isinstance(component, Deferred):
            return self._pending_stats
        found = getattr(component, "stats", None)
        return found if isinstance(found, dict) else None

    def parser_facts(self) -> dict[str, Any]:
        """``generative`` (bool), ``nbest`` (bool: has ``parse_nbest``) and ``pos_tags`` (a set of tags, or
        ``None`` when the parser does not say) of the parser, built or not; false/``None`` without one."""
        component = self._components["parser"]
        if isinstance(component, Deferred):
            generative, tags = bool(component.facts.get("generative")), component.facts.get("pos_tags")
        else:
            generative = getattr(component, "generative", None) is not None
            tags = getattr(getattr(component, "grammar", None), "pos_tags", None)
        return {"generative": generative, "nbest": self._offers("parser", "parse_nbest"),
                "pos_tags": None if tags is None else frozenset(tags)}

    def replace(
        self, *, tagger: TaggerProtocol | None | Unchanged = UNCHANGED, parser: ParserProtocol | None | Unchanged =
        UNCHANGED, lines: bool | Unchanged = UNCHANGED, multitag_margin: float | None | Unchanged = UNCHANGED,
        max_words: int | Unchanged = UNCHANGED,
    ) -> Pipeline:
        """A new pipeline with the same components (built or deferred) and options but those given, checked as
        :class:`Pipeline` checks them; a parameter left out (:data:`UNCHANGED`) keeps this pipeline's
        (``tagger=None`` drops the tagger, ``multitag_margin=None`` gives the parser single tags), and a misspelt one
        is the ``TypeError`` of any unexpected keyword. With the same components it keeps how it was loaded
        (:attr:`spec`: workers and pickling load it from there with the new settings); a pipeline with another
        tagger or parser is one made from components in memory."""
        new = Pipeline(
            self._components["tagger"] if isinstance(tagger, Unchanged) else tagger,
            self._components["parser"] if isinstance(parser, Unchanged) else parser,
            lines=self.lines if isinstance(lines, Unchanged) else lines,
            multitag_margin=self.multitag_margin if isinstance(multitag_margin, Unchanged) else multitag_margin,
            max_words=self.max_words if isinstance(max_words, Unchanged) else max_words)
        if isinstance(tagger, Unchanged) and isinstance(parser, Unchanged):
            new.spec = self.spec
        return new

    def _offers(self, name: str, method: str) -> bool:
        """Whether component ``name`` has ``method`` (a deferred one: its facts say so under that name)."""
        component = self._components[name]
        if isinstance(component, Deferred):
            return bool(component.facts.get(method))
        return component is not None and callable(getattr(component, method, None))

    def _built(self, name: str) -> Any:
        component = self._components[name]
        if not isinstance(component, Deferred):
            return component
        with self._building:  # two threads asking at once build it once
            component = self._components[name]
            if isinstance(component, Deferred):
                component = component.loader(*component.args)
                if name == "parser" and isinstance(getattr(component, "stats", None), dict):
                    for key, value in self._pending_stats.items():
                        component.stats[key] = component.stats.get(key, 0) + value
                    self._pending_stats = {}
                self._components[name] = component
        return component

    def __call__(self, doc: DocumentInput, *, nbest: int = 1, surprisal: bool = False,
                 measures: bool | Any = False) -> Document:
        """Analyse one document (raw text, token lists, or ``(word, tag)`` lists).

        ``nbest=K`` > 1 also stores each sentence's K best ``(score, tree)`` in ``Sentence.nbest``;
        ``surprisal=True`` stores each word's surprisal in bits in ``Sentence.surprisal`` (the
        parser needs a generative component); ``measures=True`` (or a
        :class:`glmnlp.parser.measures.MeasureOptions`) stores each word's rows of
        :func:`glmnlp.measures` in ``Sentence.measures`` (``Document.measures_frame()``). See :meth:`pipe`.
        """
        return next(self.pipe([doc], batch_size=1, nbest=nbest, surprisal=surprisal, measures=measures))

    def pipe(
        self, docs: Iterable[DocumentInput], batch_size: int = 64, *, nbest: int = 1, surprisal: bool = False,
        progress: Callable[[int], object] | None = None, n_process: int = 1, backend: str | None = None,
        address: str | None = None, measures: bool | Any = False,
    ) -> Iterator[Document]:
        """Analyse a stream of documents lazily, ``batch_size`` documents at a time, in order.

        ``nbest``, ``surprisal`` and ``measures`` as for :meth:`__call__`: the best tree and its score
        are the same whatever ``nbest``; ``measures`` (``True``, or a
        :class:`glmnlp.parser.measures.MeasureOptions` for other options than :func:`glmnlp.measures`'
        defaults) fills ``Sentence.measures`` with each sentence's rows and needs a parser with a
        generative term. ``progress``, if given, is called with the number of sentences
        analysed (1 at a time in this process; the CLI's progress bar counts sentences, so a single
        long document shows progress too).

        ``n_process`` > 1 (or -1/0: all cores) analyses the batches on that many workers, each
        loading the model once (``backend`` ``"local"`` or ``"ray"``, ``address`` of a Ray cluster;
        unset: :mod:`glmnlp.config`'s); the output is the same as with one process (n-best lists,
        surprisal and measures included). Input of at most one batch is analysed in this process, input of fewer
        batches than workers on one worker per batch (each loads the model). ``docs`` is read on the caller's
        thread (a database cursor may need it), so a batch is sent when the next one has been read; given as a
        :class:`glmnlp.glm.streams.Prefetch` (read on a thread of its own, as ``glmnlp parse`` reads its input) it is
        looked at without waiting: results come while it waits, and a batch with nothing after it yet is analysed
        here (an input that waits for its answers).

        An error raised by ``docs`` (a reader at a malformed line) is raised after the documents read before it
        are yielded, with any ``n_process``."""
        if isinstance(batch_size, bool) or not isinstance(batch_size, int) or not 1 <= batch_size <= MAX_BATCH:
            raise ConfigError(f"batch_size must be an integer in [1, {MAX_BATCH}], got {batch_size!r}")
        if isinstance(nbest, bool) or not isinstance(nbest, int) or nbest < 1:
            raise ConfigError(f"nbest must be a positive integer, got {nbest!r}")
        check_progress(progress)
        if not isinstance(measures, bool):
            from glmnlp.parser.measures import MeasureOptions

            if not isinstance(measures, MeasureOptions):  # a dict or "nats" was taken for True, its options dropped
                raise ConfigError(f"measures must be True, False or a MeasureOptions, got {measures!r}")
        facts = self.parser_facts()
        if nbest > 1 and not facts["nbest"]:
            raise ConfigError("nbest > 1 needs a parser with a parse_nbest(words, tags, k) method")
        if surprisal and not facts["generative"]:
            raise ConfigError("surprisal needs a parser with a generative component; this one has none")
        if measures and not facts["generative"]:
            raise ConfigError("measures need a parser with a generative term (generative or combined); "
                              "this one has none")
        if isinstance(docs, str):
            raise TypeError("pipe() takes an iterable of documents; call the pipeline on a single text")
        if isinstance(n_process, bool) or not isinstance(n_process, int) or n_process < -1:  # it named "jobs"
            raise ConfigError(f"n_process must be an integer >= -1 (0 or -1: all cores), got {n_process!r}")
        from glmnlp.config import BACKENDS

        if backend is not None and backend not in BACKENDS:  # checked only when the input had two batches
            raise ConfigError(f"backend must be one of {', '.join(BACKENDS)}, got {backend!r}")
        if n_process != 1:
            yield from self._pipe_workers(docs, batch_size, n_process, backend, address, progress,
                                          (nbest, surprisal, measures))
            return
        yield from self._pipe_here(docs, batch_size, nbest, surprisal, progress, measures)

    def _pipe_workers(
        self, docs: Iterable[DocumentInput], batch_size: int, n_process: int, backend: str | None, address: str | None,
        progress: Callable[[int], object] | None = None, asks: tuple[int, bool, Any] = (1, False, False),
    ) -> Iterator[Document]:
        """``asks`` = (nbest, surprisal, measures), as for :meth:`pipe`; each worker gets them with its batch."""
        from glmnlp.glm.parallel import Executor, chunked
        from glmnlp.glm.streams import Prefetch, stream_of
        from glmnlp.text.workers import (STREAM_WAIT, PipeWorker, document_from_plain, first_batches, parser_beam,
                                         pipeline_settings, shipped)

        if self.spec is None:
            raise ConfigError("n_process > 1 needs a pipeline made by glmnlp.load(): workers load the model themselves")
        nbest, surprisal, measures = asks
        threaded = isinstance(docs, Prefetch)  # else read here, as the caller's own iterable may need to be
        with stream_of(chunked(docs, batch_size), threaded) as batches:
            done = 0  # batches answered here, each alone when it came
            head, failed, ended = first_batches(batches, 2)
            while len(head) == 1 and not ended:
                yield from self._pipe_here(head[0], batch_size, nbest, surprisal, progress, measures, done * batch_size)
                done += 1
                head, failed, ended = first_batches(batches, 2)
            executor = None
            if len(head) == 2:  # more than one batch (with one, no worker would get any other work)
                executor = Executor(0 if n_process in (0, -1) else n_process, backend, address)
                if executor.jobs > len(head) and failed is None:  # no more workers than batches: each loads the model
                    more, failed, _ended = first_batches(batches, executor.jobs - len(head), STREAM_WAIT)
                    head += more
            every = _batches(head, batches, failed)
            if executor is None or executor.jobs == 1:
                yield from self._pipe_here(chain.from_iterable(every), batch_size, nbest, surprisal, progress,
                                           measures, done * batch_size)
                return
            beam = parser_beam(self._components["parser"])
            workers = [(shipped(self.spec, executor.mode),)] * min(executor.jobs, len(head))  # its files read once
            with executor.hosts(PipeWorker, workers) as hosts:
                settings = pipeline_settings(self)
                jobs = stream_of(((chunk, asks, (done + k) * batch_size, beam, settings)
                                  for k, chunk in enumerate(every)), threaded)
                for plain_docs, stats, caught, failed in hosts.imap_any("run", jobs):
                    target = self.stats  # not self.parser.stats: that would build the model here
                    if isinstance(target, dict):
                        for key, value in stats.items():
                            target[key] = target.get(key, 0) + value
                    for k, doc in enumerate([*plain_docs, None]):  # warned again here, where the caller's filters
                        # are, before their document, as in one process (before the batch, an "error" filter lost it)
                        for category, message, cuts in (w[:3] for w in caught if min(w[3], len(plain_docs)) == k):
                            warnings.warn(LongInputWarning(message, cuts) if category is LongInputWarning else message,
                                          category, stacklevel=user_stacklevel())
                        if doc is not None:
                            document = document_from_plain(doc)
                            if progress is not None:
                                progress(len(document.sentences))
                            yield document
                    if failed is not None:  # a document the worker refused: after those before it, as in one process
                        raise failed

    def _pipe_here(
        self, docs: Iterable[DocumentInput], batch_size: int, nbest: int = 1, surprisal: bool = False,
        progress: Callable[[int], object] | None = None, measures: bool | Any = False, start: int = 0,
    ) -> Iterator[Document]:
        from glmnlp.glm.parallel import chunked

        index = start  # the number of documents before these in the whole input (for messages)
        for batch in chunked(docs, batch_size):  # an error of ``docs`` after the documents read before it
            done: list[Document] = []
            failed: Exception | None = None
            try:  # a document refused (None, unknown given tags) after the documents of its batch before it
                for i, doc in enumerate(batch):
                    text, pending = read_document(doc, index + i, self.lines)
                    items = sentence_items(text, pending, self.lines) if measures else []
                    for number, sent in enumerate(pending, start=1):
                        self._analyse(sent, nbest, surprisal, f"document {index + i + 1}, sentence {number}: ")
                        if measures:  # every sentence, as glmnlp.measures: over max_words too (they got no rows)
                            from glmnlp.text.measures import sentence_rows

                            sent.measures = sentence_rows(self.parser, [t.text for t in sent.tokens], measures,
                                                          number, sent.given, items[number - 1])
                        if progress is not None:
                            progress(1)
                    done.append(_document(text, pending))
            except Exception as exc:  # noqa: BLE001 (raised again below)
                failed = exc
            index += len(batch)
            yield from done
            if failed is not None:
                raise failed

    def explain(self, doc: DocumentInput) -> list[Explanation | None]:
        """Each sentence of ``doc`` (read as :meth:`__call__` reads it) as the parser scored it: an
        :class:`~glmnlp.parser.explain.Explanation` (:meth:`glmnlp.Parser.explain`, with the words and tags the
        pipeline gave the parser), or None for a sentence it did not parse (longer than ``max_words``, or the
        default structure). The sentences are analysed again, so they count in :attr:`stats` as parses do."""
        from glmnlp.text.explain import explain_document  # (whose docstring says how)

        return explain_document(self, doc)

    # -- stages ------------------------------------------------------------------------------
    def _known(self) -> frozenset[str] | None:
        """The POS tags the parser can be given, as it checks them (None when it does not say: no grammar); a grammar
        of glmnlp's computes them once (several lookups a sentence, one for each web token)."""
        grammar = getattr(self.parser, "grammar", None)
        if callable(parsable := getattr(grammar, "parsable_tags", None)):
            return frozenset(parsable()[1])
        known = getattr(grammar, "pos_tags", None)
        return None if known is None else frozenset(known)

    def _knows(self, tag: str) -> bool:
        """Whether the parser has chains for ``tag`` (true when it does not say: no grammar), spelled as its trees spell
        it (STTS ``$(`` as ``$-LRB-``: a tagger trained on word/TAG lines writes it as it is)."""
        known = self._known()
        return known is None or model_tag(tag, known) is not None

    def _parser_tags(self, written: list[str], lists: list[list[str]], where: str | None) -> list[list[str]]:
        """Each word's candidates as the parser spells them (module header, "Given tags are kept";
        :func:`glmnlp.text.parser_call.parser_tags`)."""
        return parser_tags(self._known(), written, lists, where)

    def _analyse(self, sent: PendingSentence, nbest: int = 1, surprisal: bool = False, where: str = "") -> None:
        # the models' spelling (inputs: "The models' spelling"), asking the tagger only when it tags (it may be
        # unbuilt); the parser's is the tagger's with ( ) escaped; trees go back over the words as written
        tagging = sent.tags is None and self.tagger is not None
        spell_as_written(sent, self.tagger if tagging else None)
        written = [tok.text for tok in sent.tokens]  # where ("document 3, sentence 2: ") begins errors and warnings
        tagger_words = model_words(written, self.tagger) if tagging else written
        words = model_words(tagger_words)
        tagged_here = False
        fixed: dict[int, str] = {}
        wide: list[list[str]] | None = None
        if tagging:
            joint = getattr(self.tagger, "tag_and_multitag", None)
            if self.parser is not None and self.multitag_margin is not None and callable(joint):
                # one encoding and one set of emission scores for the best tags and the multi-tags
                best, wide = joint(tagger_words, self.multitag_margin)
                tags = list(best)
            else:
                tags = list(self.tagger.tag(tagger_words))
            if len(tags) != len(words):
                raise RuntimeError(f"tagger returned {len(tags)} tags for {len(words)} words: {words}")
            fixed = web_tags(words, self._knows)
            for i, tag in fixed.items():
                tags[i] = tag
            sent.tags = tags
            sent.given = fixed
            tagged_here = True
        elif sent.tags is not None:  # as the parser spells them (surprisal and measures read them), checked
            sent.given = {i: t[0] for i, t in enumerate(self._parser_tags(written, [[t] for t in sent.tags], where))}
        if self.parser is None:
            return
        if sent.tags is None:
            raise ConfigError("this pipeline has a parser but no tagger: give pre-tagged input")
        if len(words) > self.max_words:
            from glmnlp.parser.model import default_tree

            warnings.warn(f"{where}a sentence of {len(words)} words (more than {self.max_words}) gets a flat tree "
                          "without parsing", LongInputWarning, stacklevel=user_stacklevel())  # where: in a stream
            if callable(tally := getattr(self.parser, "tally", None)):  # (a parser passing its attributes on too)
                tally("too_long")  # in stats: its flat tree was counted nowhere ("default structure: 0")
            sent.tree = default_tree(written, sent.tags, getattr(self.parser, "grammar", None))
            if nbest > 1:
                sent.nbest = [(float("-inf"), sent.tree)]
            if surprisal:
                sent.surprisal = [None] * len(words)
            return
        parser_tags: Sequence[str | Sequence[str]]
        if not tagged_here:
            parser_tags = [sent.given[i] for i in range(len(words))]  # checked above
        elif self.multitag_margin is None:
            parser_tags = [t[0] for t in self._parser_tags(written, [[t] for t in sent.tags], None)]
        else:  # the tagger's own tags widened, given tags kept
            wide = self.tagger.multitag(tagger_words, self.multitag_margin) if wide is None else wide
            parser_tags = self._parser_tags(written, [[fixed[i]] if i in fixed else list(c) for i, c in
                                                      enumerate(wide)], None)
        sent.parsed_from = (words, parser_tags)
        # the tagger's tags the parser knows; a word with none: its flat tree (glmnlp.text.parser_call)
        lists = [[t] if isinstance(t, str) else list(t) for t in parser_tags]
        if (flat := flat_tree(self.parser, self._known(), words, lists) if tagged_here else None) is None:
            ranked, tree = call_parser(self.parser, words, parser_tags, nbest, where)
        else:  # as the parser gives it: score -inf where it ranks its trees
            ranked, tree = ([(float("-inf"), flat)], None) if callable(getattr(self.parser, "parse_nbest", None)) else (
                None, flat)
        if ranked is not None:
            if not ranked:
                raise RuntimeError(f"parser returned no tree for the words {words}")
            sent.score, tree = ranked[0]
            if nbest > 1:
                for _, other in ranked[1:]:
                    if not isinstance(other, Tree) or other.leaves() != words:
                        raise RuntimeError(f"parser returned an n-best tree that is not over the words {words}")
                sent.nbest = [(score, with_leaves(t, written)) for score, t in ranked] if words != written else ranked
        if surprisal:
            from glmnlp.text.measures import incremental_surprisal

            # choice: incremental surprisal, the measures' tags; another parser's own surprisal with the tags here
            sent.surprisal = list[float | None](incremental_surprisal(self.parser, words, sent.given) if isinstance(
                self.parser, Parser) else self.parser.surprisal(words, parser_tags))
        if not isinstance(tree, Tree):
            raise RuntimeError(f"parser returned {type(tree).__name__}, not a Tree")
        if tree.leaves() != words:
            raise RuntimeError(f"parser returned a tree over {tree.leaves()} for the words {words}")
        sent.tree = tree if words == written else with_leaves(tree, written)


def _document(text: str, pending: list[PendingSentence]) -> Document:
    """The analysed sentences of one document as the :class:`Document` :meth:`Pipeline.pipe` gives."""
    return Document(
        text,
        tuple(
            Sentence(
                tuple(_with_tag(tok, tag) for tok, tag in zip(p.tokens, _final_tags(p))),
                p.tree,
                p.score,
                nbest=tuple(p.nbest or ()),
                surprisal=tuple(p.surprisal or ()),
                measures=tuple(p.measures or ()),
            )
            for p in pending
        ),
    )


def _final_tags(p: PendingSentence) -> list[str | None]:  # STTS $( as tag outputs write it (written_tags)
    if p.tree is not None:
        return list(written_tags(p.tree.tags(), p.tags))
    if p.tags is not None:
        return list(written_tags(p.tags))
    return [None] * len(p.tokens)


def _with_tag(tok: Token, tag: str | None) -> Token:
    return Token(tok.text, tag, tok.start, tok.end)


def _batches(head: list[list[Any]], batches: Iterator[list[Any]], failed: Exception | None) -> Iterator[list[Any]]:
    """The batches read first (:func:`~glmnlp.text.workers.first_batches`), then the error met or the rest."""
    yield from head
    if failed is not None:
        raise failed
    yield from batches
