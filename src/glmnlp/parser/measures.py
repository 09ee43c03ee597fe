"""Word-by-word incremental measures for psycholinguistic modelling, from the parser's left-to-right beam.

Roark, Bachrach, Cardenas & Pallier (2009), "Deriving lexical and syntactic expectation-based
measures for psycholinguistic modeling via incremental top-down parsing" (EMNLP), §3-§4; Roark
(2001) for prefix probabilities over a beam. The reference C parser prints the same columns with
its ``-p`` switch (its README defines them; our definitions below follow it).

Definitions
-----------
After word i the beam B_i holds partial derivations D, each ending with the emission of w_i by its
POS node. For the generative model P(D) is the product of its events' probabilities (node model and
word model, glmnlp.parser.generative); D = D' . (POS_i -> w_i), with P(D) = P(D') * P(w_i | POS_i, ctx).

* prefix probability (over the beam)  P(w_1..w_i) ~= sum_{D in B_i} P(D);  ``prefix`` = -log of it.
* surprisal                           S_i = -log P(w_1..w_i) + log P(w_1..w_{i-1})  (P(empty) = 1)
* syntactic surprisal                 SynS_i = -log sum_{D in B_i} P(D') + log P(w_1..w_{i-1})
  (everything up to and including the POS node of w_i, the word's own emission left out)
* lexical surprisal                   LexS_i = S_i - SynS_i = -log( sum_D P(D) / sum_D P(D') )
* beam weights                        p_i(D) = exp(score(D)) / sum_{D'' in B_i} exp(score(D''))
  (score = ln P(D) for the generative model)
* entropy ("ambiguity")               H_i = -sum_{D in B_i} p_i(D) log p_i(D)
* open brackets                       sum_D p_i(D) * open(D), open(D) = constituents still open after w_i,
  the root (TOP) not counted
* steps                               sum_D p_i(D) * steps(D), steps(D) = derivation moves made to reach
  w_i from w_{i-1}: END closures and new chain nodes, the POS included (for w_1 also TOP)
* rerank ("rernk")                    sum_{D in B_i extending T_{i-1}} p_i(D) / p_{i-1}(T_{i-1}),
  T_{i-1} = the best analysis after w_{i-1} (T_0 = the empty analysis, p = 1)
* top rerank ("toprr")                p_i(T_i) / p_{i-1}(T_{i-1}) if T_i extends T_{i-1}, else 0
* ``</s>`` row (end of sentence): the same quantities for the closed complete parses (the END
  closures after the last word); its lexical surprisal is 0 and it has no open brackets. The
  surprisals of all rows, ``</s>`` included, sum to -log sum_{complete D} P(D), the sentence's
  (beam) negative log probability.

Expected measures of a word before it is seen (``MeasureOptions(next_word=True)``, expensive; Roark et
al. 2009 §4, the reference parser's ``-a`` columns). For position i, let E_i be the one-word
syntactic extensions of B_{i-1}: every way to continue each member of the beam after w_{i-1} by END
closures and a chain down to some POS node (every POS of the grammar, no pruning), with
q(D'') = P(D'') / sum_{E_i} P(D''). Each D'' ends in a POS node whose word-model context c(D'')
gives a distribution P(w | c) over the lexicon's outcome ids (known forms and unknown-word classes).

* syntactic entropy                   SynH_i = -sum_{D'' in E_i} q(D'') log q(D'')
* total entropy                       H_i = entropy of (D'', w) = SynH_i + sum_{D''} q(D'') H(W | c(D''))
* lexical entropy                     LexH_i = H_i - SynH_i (the expected entropy of the word given its POS node)
* word entropy                        entropy of P(w | w_1..w_{i-1}) = sum_{D''} q(D'') P(w | c(D'')) over ids
* rank                                1 + the number of lexicon ids more probable than w_i under that
  distribution (w_i's own probability summed over the POS of each extension, under the same contexts)

The lexicon distributions are computed for the ``next_contexts`` (64) most probable distinct word
contexts of E_i; the others get the q-weighted mean entropy of those (exact when E_i has at most that
many contexts). The end of sentence is not among the outcomes, and the ``</s>`` row has no values.

Units: natural logarithms inside; ``units="bits"`` (default) divides every log-valued column
(prefix, surprisals, entropy) by ln 2. The reference C parser prints nats (its code uses exp/log; on
the sample its tree log probabilities match ours in nats, benchmarks/results/measures.md).

Which model
-----------
``kind="generative"`` (default) ranks and prunes the beam by the generative log-probability alone
(weight 1, no perceptron features): every column above is then a probability-based quantity of the
model. Any parser with a generative term can be used this way, the bundled combined model included.
``kind="combined"`` runs the combined model's own beam (perceptron score + weight x ln P): the
surprisals are still computed from the generative probabilities of that beam's members (a lower
bound of the prefix probability over a beam chosen by another score), but the beam weights p_i
are a softmax of the combined score, which is not a probability: entropy, open brackets, steps and
the two rerank ratios are then beam statistics without a probabilistic reading. Only the
generative kind gives probabilistic measures.

Our choices and their reasons
-----------------------------
* **Tags.** The generative parser of Roark picks up to 8 candidate POS per word by a look-ahead
  probability. Here, with ``tags="model"`` (default), the candidates of word i are the POS tags t
  ranked by ln P(w_i | t) + ln P(t) under the model's own word model (context = the POS only) and
  node model (no context), among the tags *seen with the word* (``tag_filter="seen"``), kept while
  within ``tag_margin`` (8) nats of the best, at most ``max_tags`` (8). This uses word i itself
  only, never a later word, so the measures of word i do not depend on the rest of the sentence
  (a tagger that reads ahead would break incrementality), unless the beam empties at a later word
  (FILTER below: the whole sentence is run again with a wider beam). Tags can also be given per word (e.g.
  gold tags), or ``tags="all"`` for every POS of the grammar (exact marginalisation over tags;
  used by the tests).
* **Why only seen tags.** Syntactic surprisal sums P(D') over the beam's analyses *up to their
  POS node*, whatever the word's probability under that POS: a tag under which the word only has
  its smoothed share adds syntactic mass and almost no lexical mass (with every tag of the
  grammar, "some POS comes next" is nearly certain and syntactic surprisal nearly vanishes). The
  reference parser proposes only tags its lexicon has seen with the word. Ours has no tag
  dictionary, but the word model says it: for a (word or unknown-word class, tag) pair never
  counted in training, P(w | t) = (1 - lambda_t) P(w), the level-0 share; a counted pair gets
  more. (1 - lambda_t) is the minimum of P(v | t) / P(v) over the lexicon (computed once per
  model). Measured against the reference parser on the sample test split
  (benchmarks/results/measures.md lists every attempt): Pearson r of syntactic surprisal 0.773
  (was 0.638 with every tag within 8 nats; 0.657 within 4), total 0.876, lexical 0.898; with
  ``unknown_words="pos"`` 0.788 / 0.915 / 0.933. 2.5 tags per word on average instead of 8:
  3.2 s of CPU for the 244 sentences instead of 5.9 s. ``tag_filter="margin"``: the margin alone.
* **No look-ahead in the ranking.** The reference parser ranks its beam with a look-ahead probability;
  this one does not. Measured with one (benchmarks/patches/lookahead.patch, benchmarks/results/
  measures.md): surprisal r 0.876 -> 0.875 / 0.863 (weight 0.5 / 1), syntactic 0.773 -> 0.766 / 0.723,
  entropy 0.629 -> 0.655 / 0.659: no closer to the reference, so it stays out.
* **FILTER.** The generative term's own gamma/cap (``GenerativeTerm.gamma``/``beam_cap``); if the
  beam empties at a word, one retry with 10x gamma and no cap (as parsing does); with the model's own tags,
  if it still empties, the words from the failing one on get every POS tag and the sentence is run
  again (on the sample test split one sentence of 244 needed it: its first word "H." got UH/FW/JJ
  only). If that fails too, the words from that point get ``inf`` surprisal and NaN elsewhere. A beam
  that measured every word but holds no analysis that can end the sentence (a fragment: "It cost a
  $") is not run again: its ``</s>`` row gets ``inf`` and NaN, and the words keep their measures (the
  retry, made for the end alone, changed every word's figures: the first halves of 19 of the 244 test
  sentences, by up to 1.6 nats, with the sample's model; 15 of them still ended in ``inf``).
* **Cost.** The beam is run once; with tracking on, the survivors of FILTER are scored a second
  time while they are rebuilt (glmnlp.parser._beam ``set_tracking``) to split their generative
  log-probability, and every beam's statistics are computed in one vectorised pass per sentence.
  Measured against parsing the same input with the same beam: 93-102% of its speed
  (benchmarks/results/measures.md). The 244 sentences of the sample test split take 2.4-3.2 s of
  CPU with the default tags (7.1 s with every tag within 8 nats; machine loaded), 15.6 G
  instructions under callgrind (benchmarks/measures_cost.py): about 88% of it is the beam itself. ``next_word``
  costs 0.3-1 s per word (200-500x).
* **Unknown words** (``unknown_words``). ``"model"`` (default): a word outside the lexicon is scored
  as the model scores it when parsing, its unknown-word class in the full word-model context; the
  class was counted at the POS level only in training, so deeper contexts reach it through every
  level's backoff weight. ``"pos"``: its class given the POS alone, as the reference parser scores an
  unknown word (the beam then ranks by these probabilities, so this option changes the measures'
  beam, never the parser's). On the sample test split ``"pos"`` raises Pearson r with the reference
  from 0.876 to 0.915 (total surprisal), 0.898 to 0.933 (lexical) and 0.773 to 0.788 (syntactic)
  (benchmarks/results/measures.md); when it was added (code 8013c00; these means are not in a results
  file) it lowered the unknown words' mean lexical surprisal from 6.05 to 4.30 nats (reference 3.81).
* **Known words** (the ``known`` column). A word outside the lexicon shares its surprisal with every word of
  its class (with the bundled model "cat", "mat" and "zorblax" all 8.90 bits after "The"), so a regression on
  surprisal filters such rows. ``known`` is true when the model scored the word by its own lexicon entry under
  at least one of its candidate tags: the word as the model spells it (treebank spelling, ``-LRB-`` for ``(``),
  looked up lowercased unless the tag is a capitalised one such as NNP, as the beam looks it up
  (:meth:`glmnlp.parser.lexicon.Lexicon.word_id`). ``Lexicon.knows`` asks about every tag instead, so it
  calls "Penn" known where the bundled model's candidates for it hold no NNP and the beam scores its class.
  Punctuation is a word like any other (``.`` known; a symbol never seen in training is not); the ``</s>``
  row is true (the end of a sentence is an event of the model, never an unknown-word class's).
* **Word classes**: :class:`glmnlp.parser.word_classes.WordClasses` (files in ``glmnlp/data/measures/``).
* **Candidate tags** (the model's own, given ones checked, every tag): :mod:`glmnlp.parser.measure_tags`.
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Literal, TypeAlias, TypedDict, cast

import numpy as np

from glmnlp.errors import ConfigError, InputError
from glmnlp.parser.config import check_beam
from glmnlp.parser.generative import WORD_MODEL
from glmnlp.parser.lexicon import UNKNOWN_CLASSES
from glmnlp.parser.measure_tags import candidate_tags, every_tag, every_tag_from, given_tags
from glmnlp.parser.word_classes import EOS, WordClasses

__all__ = [
    "COLUMNS",
    "NEXT_COLUMNS",
    "LOG_COLUMNS",
    "WordClasses",
    "MeasureOptions",
    "MeasureRow",
    "SentenceTags",
    "candidate_tags",
    "every_tag_from",
    "sentence_measures",
    "corpus_measures",
    "EOS",
]

LN2 = math.log(2.0)

#: Output columns, in order, with their meaning (docs/measures.md repeats this table).
COLUMNS: dict[str, str] = {
    "item": "the input item the sentence comes from, from 1 (a text or token list; a line with lines/tokenized)",
    "sentence": "sentence number, from 1",
    "index": "word position in the sentence, from 1 (the </s> row: n + 1)",
    "word": "the token (</s> for the end of the sentence)",
    "word_class": "open, closed, or previous (belongs to the previous token: punctuation, clitic, </s>)",
    "known": "whether the model scored the word by its own lexicon entry (false: its unknown-word class's; </s>: true)",
    "prefix": "-log prefix probability up to and including this word (sum over the beam)",
    "surprisal": "total surprisal of this word: -log P(w_i | w_1..w_{i-1})",
    "syntactic_surprisal": "the part before the word's own emission (derivation moves up to its POS)",
    "lexical_surprisal": "the part of the word's emission by its POS (surprisal - syntactic_surprisal)",
    "entropy": "entropy of the normalised beam after this word",
    "open_brackets": "weighted average number of open constituents after this word (root not counted)",
    "rerank": "beam mass of the extensions of the previous best analysis / its mass before",
    "top_rerank": "mass ratio of the new best analysis to the previous best if it extends it, else 0",
    "steps": "weighted average number of derivation moves since the previous word",
    "beam": "number of analyses in the beam after this word",
    "units": "bits or nats (for prefix, surprisals and entropy)",
}
#: Extra columns with ``next_word=True`` (before the word is seen; see the module docstring).
NEXT_COLUMNS: dict[str, str] = {
    "total_entropy": "entropy of the next (syntactic extension, word) pair given the words before",
    "syntactic_entropy": "entropy of the next word's syntactic extension (up to its POS node)",
    "lexical_entropy": "total_entropy - syntactic_entropy: expected entropy of the word given its POS node",
    "word_entropy": "entropy of the next word (over the lexicon's ids) given the words before",
    "rank": "rank of the actual word among the lexicon's ids by that probability (1 = most probable)",
}
LOG_COLUMNS = ("prefix", "surprisal", "syntactic_surprisal", "lexical_surprisal", "entropy", "total_entropy",
               "syntactic_entropy", "lexical_entropy", "word_entropy")


class _Row(TypedDict):
    """The columns of every row (:data:`COLUMNS`, in order)."""

    item: int
    sentence: int
    index: int
    word: str
    word_class: str
    known: bool
    prefix: float
    surprisal: float
    syntactic_surprisal: float
    lexical_surprisal: float
    entropy: float
    open_brackets: float
    rerank: float
    top_rerank: float
    steps: float
    beam: int
    units: Literal["bits", "nats"]


class MeasureRow(_Row, total=False):
    """One row of the measures: the keys of :data:`COLUMNS` and, with ``next_word``, of :data:`NEXT_COLUMNS` (a
    plain ``dict`` at run time; typed so that a type checker knows each column's type: ``row["known"]`` is a bool
    and a misspelt column an error, where every row was ``dict[str, Any]``). The next-word columns are a subclass
    with ``total=False``, not ``NotRequired``, which this module's postponed annotations hide from run-time
    introspection (``__optional_keys__`` came out empty)."""

    total_entropy: float
    syntactic_entropy: float
    lexical_entropy: float
    word_entropy: float
    rank: float


#: A sentence's tags for the measures: a tag or a list of candidate tags per word, or "model" (the model's own
#: candidates) or "all" (every tag of the grammar)
SentenceTags: TypeAlias = Sequence[str | Sequence[str]] | Literal["model", "all"]
MEASURE_COLUMNS = ("prefix", "surprisal", "syntactic_surprisal", "lexical_surprisal", "entropy", "open_brackets",
                   "rerank", "top_rerank", "steps")



# ----------------------------------------------------------------------------------------------
# Options and candidate tags
# ----------------------------------------------------------------------------------------------


#: the beam a model file may hold (glmnlp.parser.model checks gamma and cap against the same bounds)
MAX_GAMMA = 1e300
MAX_CAP = 10**6


@dataclass(frozen=True)
class MeasureOptions:
    """How the beam is run for the measures (see the module docstring)."""

    kind: Literal["generative", "combined"] = "generative"
    units: Literal["bits", "nats"] = "bits"
    tag_margin: float = 8.0
    max_tags: int = 8
    tag_filter: Literal["seen", "margin"] = "seen"
    gamma: float | None = None
    cap: int | None = None
    eos: bool = True
    next_word: bool = False
    next_contexts: int = 64
    unknown_words: Literal["model", "pos"] = "model"

    def __post_init__(self) -> None:
        if self.kind not in ("generative", "combined"):
            raise ValueError(f"kind must be 'generative' or 'combined', got {self.kind!r}")
        if self.units not in ("bits", "nats"):
            raise ValueError(f"units must be 'bits' or 'nats', got {self.units!r}")
        if self.tag_filter not in ("seen", "margin"):
            raise ValueError(f"tag_filter must be 'seen' or 'margin', got {self.tag_filter!r}")
        if self.unknown_words not in ("model", "pos"):
            raise ValueError(f"unknown_words must be 'model' or 'pos', got {self.unknown_words!r}")
        if not (isinstance(self.max_tags, numbers.Integral) and not isinstance(self.max_tags, bool)
                and self.max_tags >= 1) or not (isinstance(self.tag_margin, numbers.Real) and self.tag_margin >= 0):
            raise ValueError(f"max_tags must be an integer >= 1 and tag_margin a number >= 0 (not NaN), got "
                             f"{self.max_tags!r} and {self.tag_margin!r}")
        if self.gamma is not None and not (isinstance(self.gamma, numbers.Real) and 0 <= self.gamma <= MAX_GAMMA):
            raise ValueError(f"gamma must be a number in [0, {MAX_GAMMA:g}] (or None: the model's), got {self.gamma!r}")
        if self.cap is not None and not (isinstance(self.cap, numbers.Integral) and 0 <= self.cap <= MAX_CAP):
            raise ValueError(f"cap must be an integer in [0, {MAX_CAP}] (or None: the model's), got {self.cap!r}")


# ----------------------------------------------------------------------------------------------
# The measures
# ----------------------------------------------------------------------------------------------


def _weights(scores: np.ndarray) -> np.ndarray:
    top = float(np.max(scores))
    w = np.exp(scores - top)
    return w / w.sum()


def _entropy(p: np.ndarray) -> float:
    nz = p[p > 0]
    return float(-(nz * np.log(nz)).sum()) + 0.0


def _measured(result: dict, n_words: int, close: bool) -> bool:
    """Whether a decode measured every word (and closed the sentence, where ``close``): a beam that cannot end a
    fragment such as "It cost a $" has measured each of its words, and running the sentence again with a wider
    beam to get its ``</s>`` row changed the measures of every word before it (the end of the sentence would then
    influence them); the ``</s>`` row is infinite instead."""
    return result["status"] == "complete" or (not close and result["status"] == "failed" and result["word"] == n_words)


def _decode(parser: Any, words: Sequence[str], tag_lists: Sequence[Sequence[str]], opts: MeasureOptions,
            extend: bool = False) -> dict:
    term = parser.generative
    atoms, next_pos, isq, off, cand = parser._inputs(words, tag_lists)
    wids = term.word_ids(words, tag_lists, parser.grammar)
    none = np.zeros(0, dtype=np.int32)
    if opts.kind == "generative":
        weights, punct, weight = np.zeros(0, dtype=np.float64), 0, 1.0
        gamma = term.gamma if opts.gamma is None else opts.gamma
        cap = term.beam_cap if opts.cap is None else opts.cap
    else:
        weights, punct, weight = parser.weights, parser._punct, term.weight
        gamma = parser.config.gamma if opts.gamma is None else opts.gamma
        cap = parser.config.beam_cap if opts.cap is None else opts.cap
    check_beam(gamma, cap, "the beam's gamma and cap")  # a parser's config may have been changed after loading
    beam = parser._beam
    result: dict = {}
    try:
        beam.set_tracking(True)
        if opts.unknown_words == "pos":
            beam.set_unknown_by_pos(len(UNKNOWN_CLASSES))
        if extend:  # keep every one-word extension at the last word
            beam.set_last_filter(math.inf, 0)
        for g, c in ((gamma, cap), (gamma * 10, 0)):
            beam.set_generative(term.model.kernel, weight, wids)
            result = beam.decode(atoms, next_pos, isq, punct, off, cand, weights, g, c, none, none, False, 1)
            if _measured(result, len(words), extend):
                break
    finally:
        beam.set_tracking(False)
        beam.set_unknown_by_pos(0)
        beam.set_last_filter(0.0, -1)
        parser._configure_generative_off()
    return result


def _next_word(parser: Any, words: Sequence[str], tag_lists: Sequence[Sequence[str]], i: int,
               opts: MeasureOptions) -> dict[str, float]:
    """The expected measures of position i given words[:i] (natural logs; see the module docstring)."""
    term = parser.generative
    res = _decode(parser, list(words[: i + 1]), list(tag_lists[:i]) + [every_tag(parser)], opts, extend=True)
    tr = res["track"]
    starts = tr["word_start"]
    nan = {c: math.nan for c in NEXT_COLUMNS}
    if len(starts) - 1 <= i:
        return nan
    a, b = int(starts[i]), int(starts[i + 1])
    lex = tr["lex"][a:b]
    syn = tr["gen"][a:b] - lex
    q = _weights(syn)
    syn_h = _entropy(q)
    mass: dict[tuple[int, ...], float] = {}
    own: dict[tuple[int, ...], float] = {}  # P(w_i | c): the same for every extension with the context c
    for k, ctx in enumerate(tr["wctx"][a:b].tolist()):
        key = tuple(ctx)
        mass[key] = mass.get(key, 0.0) + float(q[k])
        own.setdefault(key, float(np.exp(lex[k])))
    top = sorted(mass.items(), key=lambda kv: -kv[1])[: opts.next_contexts]
    n_ids = term.lexicon.size
    ids = np.arange(1, n_ids, dtype=np.int64)
    models = np.full(len(ids), WORD_MODEL, dtype=np.int64)
    dist = np.zeros(len(ids))
    cond_h = 0.0
    covered = 0.0
    actual = 0.0
    for ctx, m in top:
        lp = term.model.logprob_many(models, ids, np.tile(np.array(ctx, dtype=np.int64), (len(ids), 1)))
        pr = np.exp(lp)
        cond_h += m * float(-(pr * lp).sum())
        dist += m * pr
        actual += m * own[ctx]
        covered += m
    cond_h /= covered
    dist /= covered
    # P(w_i | prefix) under the contexts of the distribution it is ranked in, summed over each extension's POS: over
    # every context, against one renormalised from the top ones, the most probable word ranked 2 (beneath its own id)
    actual /= covered
    nz = dist[dist > 0]
    return {
        "total_entropy": syn_h + cond_h,
        "syntactic_entropy": syn_h,
        "lexical_entropy": cond_h,
        "word_entropy": float(-(nz * np.log(nz)).sum()),
        "rank": float(1 + int(np.sum(dist > actual * (1 + 1e-9)))),  # the word's own id is not "more probable"
    }


#: Why kind "combined" is refused for a model without perceptron weights (a model option that does not suit the
#: model: a ConfigError, named by its directory where there is one).
COMBINED_NEEDS_WEIGHTS = ("kind 'combined' ranks the beam by the perceptron's score and the generative term, and this "
                          "model has no perceptron weights (a generative model): its measures are kind 'generative'")


def sentence_measures(
    parser: Any, words: Sequence[str], tags: SentenceTags = "model",
    *, options: MeasureOptions = MeasureOptions(), classes: WordClasses | None = None, sentence: int = 1,
    item: int | None = None,
) -> list[MeasureRow]:
    """One row (a dict with the keys of :data:`COLUMNS`) per word, and one for ``</s>`` if ``options.eos``;
    ``item`` (default: ``sentence``) is the input item the sentence came from."""
    if parser.generative is None:
        raise InputError("word-by-word measures need a model with a generative term (generative or combined)")
    if options.kind == "combined" and not parser.weights.any():  # the combined beam would be the generative one
        raise ConfigError(COMBINED_NEEDS_WEIGHTS)
    if not words:
        raise InputError("cannot compute measures for an empty sentence")
    if tags == "model":
        tag_lists = candidate_tags(parser, words, margin=options.tag_margin, max_tags=options.max_tags,
                                   seen=options.tag_filter == "seen")
    elif tags == "all":
        tag_lists = [every_tag(parser) for _ in words]
    else:
        tag_lists = given_tags(parser, words, tags)
    classes = WordClasses.default() if classes is None else classes
    res = _decode(parser, words, tag_lists, options)
    if not _measured(res, len(words), False) and tags == "model":
        tag_lists = every_tag_from(parser, tag_lists, res["word"])
        res = _decode(parser, words, tag_lists, options)
    known = _known(parser.generative.lexicon, words, tag_lists)
    tr = res["track"]
    starts = tr["word_start"]
    n_done = len(starts) - 1
    scale = LN2 if options.units == "bits" else 1.0
    complete = res["status"] == "complete"
    values = _segment_stats(tr, n_done, complete and options.eos)
    rows: list[MeasureRow] = []

    def row(i: int, word: str, k: int | None) -> MeasureRow:
        out: dict[str, Any] = {"item": sentence if item is None else item, "sentence": sentence, "index": i + 1,
                               "word": word, "word_class": classes(word) if i < len(words) else "previous",
                               "known": known[i] if i < len(words) else True}
        for col in MEASURE_COLUMNS:
            if k is None:
                v = math.inf if col in ("prefix", "surprisal") else math.nan
            else:
                v = float(values[col][k])
            out[col] = v / scale if col in LOG_COLUMNS else v
        out["beam"] = 0 if k is None else int(values["beam"][k])
        out["units"] = options.units
        if options.next_word:
            extra = (_next_word(parser, words, tag_lists, i, options) if i < len(words)
                     else {c: math.nan for c in NEXT_COLUMNS})
            for col in NEXT_COLUMNS:
                out[col] = extra[col] / scale if col in LOG_COLUMNS else extra[col]
        return cast(MeasureRow, out)

    for i in range(len(words)):
        rows.append(row(i, words[i], i if i < n_done else None))
    if options.eos:
        rows.append(row(len(words), EOS, n_done if complete else None))
    return rows


def _known(lexicon: Any, words: Sequence[str], tag_lists: Sequence[Sequence[str]]) -> list[bool]:
    """Whether each word has its own id under one of its tags (the ``known`` column, module docstring): ids
    1..len(UNKNOWN_CLASSES) are the unknown-word classes, the training words' come after them."""
    return [any(lexicon.word_id(word, tag, i == 0) > len(UNKNOWN_CLASSES) for tag in tags)
            for i, (word, tags) in enumerate(zip(words, tag_lists))]


def _segment_stats(tr: dict[str, np.ndarray], n_words: int, with_end: bool) -> dict[str, np.ndarray]:
    """Every measure of every beam (one segment per word, then the closed parses), vectorised.

    Segment j holds the analyses after word j, best first; ``parent`` points into the previous
    segment (-1 for word 0). Same equations as the module docstring.
    """
    starts = tr["word_start"][: n_words + 1].astype(np.int64)
    n_h = int(starts[-1])
    gen = tr["gen"][:n_h]
    syn = gen - tr["lex"][:n_h]
    score = tr["score"][:n_h]
    parent = tr["parent"][:n_h].astype(np.int64)
    opened = tr["open"][:n_h].astype(np.float64)
    steps = tr["steps"][:n_h].astype(np.float64)
    if with_end:
        m = len(tr["end_gen"])
        gen = np.concatenate([gen, tr["end_gen"]])
        syn = np.concatenate([syn, tr["end_gen"]])
        score = np.concatenate([score, tr["end_score"]])
        parent = np.concatenate([parent, tr["end_hyp"].astype(np.int64)])
        opened = np.concatenate([opened, np.zeros(m)])
        steps = np.concatenate([steps, tr["end_steps"].astype(np.float64)])
        starts = np.concatenate([starts, [n_h + m]])
    first = starts[:-1]
    sizes = np.diff(starts)
    seg = np.repeat(np.arange(len(first)), sizes)

    def lse(x: np.ndarray) -> np.ndarray:
        top = np.maximum.reduceat(x, first) if len(x) else np.zeros(0)
        return top + np.log(np.add.reduceat(np.exp(x - top[seg]), first)) if len(x) else top

    prefix = lse(gen)
    syn_prefix = lse(syn)
    p = np.exp(score - lse(score)[seg])
    with np.errstate(divide="ignore", invalid="ignore"):
        plogp = np.where(p > 0, p * np.log(p), 0.0)
    prev_prefix = np.concatenate([[0.0], prefix[:-1]])
    prev_best = np.concatenate([[-1], first[:-1]])        # T_{j-1} (the empty analysis for word 0)
    prev_p = np.concatenate([[1.0], p[first[:-1]]])
    extends = parent == prev_best[seg]
    sums = lambda x: np.add.reduceat(x, first) if len(x) else np.zeros(0)  # noqa: E731
    out = {
        "prefix": -prefix,
        "surprisal": prev_prefix - prefix,
        "syntactic_surprisal": prev_prefix - syn_prefix,
        "lexical_surprisal": syn_prefix - prefix,
        "entropy": -sums(plogp) + 0.0,
        "open_brackets": sums(p * opened),
        "rerank": sums(np.where(extends, p, 0.0)) / prev_p,
        "top_rerank": np.where(extends[first], p[first] / prev_p, 0.0),
        "steps": sums(p * steps),
        "beam": sizes,
    }
    if with_end:
        out["lexical_surprisal"][-1] = 0.0
    return out


def corpus_measures(
    parser: Any, sentences: Iterable[Sequence[str]],
    tags: Literal["model", "all"] | Iterable[SentenceTags] | None = None, *, options: MeasureOptions = MeasureOptions(),
    classes: WordClasses | None = None, first: int = 1,
    progress: Callable[[int], object] | None = None, items: Sequence[int] | None = None,
) -> list[MeasureRow]:
    """Rows of :func:`sentence_measures` for many sentences (numbered from ``first``); ``progress`` is called with
    1 after each sentence (a progress bar's ``update``); ``items``: each sentence's input item (default: each
    sentence is one).

    ``tags``: None (the model chooses, ``tags="model"``), ``"model"`` or ``"all"`` for every sentence, or one
    entry per sentence (a tag or a list of candidate tags per word, or ``"model"``/``"all"``); anything else, a
    count that is not the sentences', or a tag the model does not have is an :class:`InputError`.
    """
    classes = WordClasses.default() if classes is None else classes
    sents = list(sentences)
    entries: list[SentenceTags]
    if tags is None or tags in ("model", "all"):  # one choice for every sentence
        entries = [cast(SentenceTags, tags or "model")] * len(sents)
    elif isinstance(tags, str) or not isinstance(tags, Iterable):
        raise InputError(f"tags are None, 'model', 'all' or one entry per sentence, not {tags!r}")
    else:
        entries = list(tags)
    if len(entries) != len(sents):
        raise InputError(f"{len(sents)} sentences but {len(entries)} tag entries (one a sentence: its tags, or "
                         "'model' or 'all'; a blank tokenised line is no sentence)")
    if items is not None and len(items) != len(sents):
        raise ValueError(f"{len(sents)} sentences but {len(items)} item numbers")
    tag_iter = iter(entries)
    rows: list[MeasureRow] = []
    for k, words in enumerate(sents):
        rows.extend(sentence_measures(parser, list(words), next(tag_iter), options=options, classes=classes,
                                      sentence=first + k, item=None if items is None else items[k]))
        if progress is not None:
            progress(1)
    return rows
