"""Why the parser scores an analysis as it does: every node of a derivation with its named features.

A derivation's score is the sum of the scores of the nodes it builds (C&R 2004 §3.2: "features fire whenever a
new node is built"): the chain nodes of each word and the END closures before it and after the last word. A
node's score is the sum of the weights of the features it fires, plus, in a generative or combined model, the
fixed weight times the generative log-probability of the node (and of its word, for a POS node; §5). The kernel
replays the derivation and reports, per node, its category, the context atoms its templates read, its feature
slots and its score (:meth:`glmnlp.parser._beam.BeamParser.explain`); this module names them.

The names come from :data:`glmnlp.parser.config.TEMPLATES`, whose order is the order in which the kernel computes
the features; the number of features each node fires is checked against it, so a template list that drifts from
the kernel is an error, not a mislabelled table. A name is ``template=value|value...``: categories bare, words
quoted as Python quotes them (``'Pierre'``, so that no word reads as a category or as ``|``), ``-`` for an absent
atom and ``</s>`` for the end of the sentence, so one name is one feature. Features are hashed (module header of
:mod:`glmnlp.parser.model`), so a weight is that of the feature's slot, which other features may share.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from glmnlp.errors import ConfigError
from glmnlp.graphemes import pad
from glmnlp.parser.config import TEMPLATES

__all__ = ["CONTEXT_ATOMS", "Explanation", "NodeScore", "name_nodes"]

#: The context atoms of a node, in the kernel's order (:meth:`~glmnlp.parser._beam.BeamParser.probe`); L<i><j> is the
#: category i levels up and j nodes left (§3.2), COORD the coordination atom, CL the head word of the parent so far,
#: CC the c-commanding head word and CCP its POS.
CONTEXT_ATOMS = ("L10", "L01", "L02", "L03", "L20", "L11", "L30", "L21", "COORD", "CL", "CC", "CCP")
_WORD_ATOMS = frozenset({"CL", "CC"})
_NONE = "-"
_END_OF_SENTENCE = "</s>"
_END_LABEL = "<END>"


@dataclass(frozen=True)
class NodeScore:
    """One node a derivation builds, and what it adds to the derivation's score.

    ``word``: the index of the word being absorbed when the node was built (its chain and the closures before it);
    ``len(words)`` for the closures after the last word. ``label``: the node's category in the transformed
    (FSLC) tree, ``<END>`` for a closure (whose parent, the constituent it closes, is ``context["L10"]``).
    ``context``: the atoms its templates read (:data:`CONTEXT_ATOMS` plus LK, the look-ahead word, and LKP, its
    POS), ``None`` where absent; after the last word LK and LKP are ``"</s>"``. ``features``: ``(name, weight)``
    in the kernel's order (names: module docstring).
    ``generative``: the node's natural-log probability in the generative model (its word's included for a POS
    node), ``None`` without one. ``score = feature_score + generative_weight * generative``, as the decoder adds
    it.
    """

    word: int
    label: str
    context: Mapping[str, str | None]
    features: tuple[tuple[str, float], ...]
    feature_score: float
    generative: float | None
    score: float

    def __hash__(self) -> int:
        """By what it compares by (:func:`_node_key`): the generated hash met the context's dict (``set(nodes)`` and
        ``hash(explanation)`` were ``TypeError: unhashable type: 'dict'``). The context stays a plain dict, which
        ``dataclasses.asdict`` and ``json.dumps`` write (a read-only mapping proxy would not); do not change it."""
        return hash(_node_key(self))

    def __repr__(self) -> str:
        """``<NodeScore word 0 DT: score -3.2100, 9 features>`` (the generated repr printed every feature and context
        atom: 100 KB for the nodes of a 31-word sentence in a notebook); the fields hold the detail."""
        return f"<NodeScore word {self.word} {self.label}: score {self.score:+.4f}, {len(self.features)} features>"


@dataclass(frozen=True)
class Explanation:
    """A derivation of ``words``, node by node (:meth:`glmnlp.Parser.explain`, :meth:`glmnlp.Parser.explain_tree`).

    ``score`` is the derivation's score: its nodes' scores summed in build order, as the decoder sums them, so the
    very number :meth:`glmnlp.Parser.parse_nbest` gives the same analysis with the same tags
    (tests/test_parser_explain.py); ``generative_weight`` the fixed weight of the generative term (0.0 without
    one).
    """

    words: tuple[str, ...]
    nodes: tuple[NodeScore, ...]
    score: float
    generative_weight: float

    def __repr__(self) -> str:
        """``<Explanation of 'He agreed .': score 12.3456, 9 nodes>``: the generated repr printed every node and
        feature on one line (160,000 characters for three sentences, a notebook cell flooded); :meth:`format` gives
        the nodes."""
        text = " ".join(self.words)
        text = text if len(text) <= 60 else text[:57] + "..."
        return f"<Explanation of {text!r}: score {self.score:.4f}, {len(self.nodes)} nodes>"

    def differences(self, other: Explanation) -> tuple[tuple[NodeScore, ...], tuple[NodeScore, ...]]:
        """The nodes of this derivation that ``other`` (another analysis of the same words) does not build, and
        those of ``other`` that this one does not, each in build order: where a gold tree lost to the parse
        (``gold.differences(parse)``). A node is the same in both when it is built at the same word with the same
        label, context, features and score, so it adds the same to both; the two scores differ by the nodes listed:
        ``self.score - other.score`` is ``sum(mine) - sum(theirs)`` of their scores, up to rounding."""
        if not isinstance(other, Explanation):
            raise TypeError(f"expected an Explanation, got {type(other).__name__}")
        if self.words != other.words:
            raise ValueError("the two explanations are of different words")
        return _unmatched(self.nodes, other.nodes), _unmatched(other.nodes, self.nodes)

    def format(self, top: int = 5) -> str:
        """The nodes as text, one line each (a closure as ``<END> X``, X the constituent it closes) with its ``top``
        features of largest weight magnitude (0: all)."""
        if isinstance(top, bool) or not isinstance(top, int):
            raise TypeError(f"top must be an integer >= 0 (0: every feature), got {top!r}")
        if top < 0:
            raise ConfigError(f"top must be an integer >= 0 (0: every feature), got {top!r}")
        lines = [f"score {self.score:.4f} (generative weight {self.generative_weight:g})"]
        for node in self.nodes:
            where = self.words[node.word] if node.word < len(self.words) else _END_OF_SENTENCE
            label = f"{node.label} {node.context['L10']}" if node.label == _END_LABEL else node.label
            gen = "" if node.generative is None else f"  ln P {node.generative:.3f}"
            lines.append(f"{node.word:>3} {pad(where, 15)} {pad(label, 12)} {node.score:+.4f}"
                         f"  features {node.feature_score:+.4f}{gen}")
            ranked = sorted(node.features, key=lambda f: -abs(f[1]))
            for name, weight in ranked[: top or len(ranked)]:
                lines.append(f"        {weight:+.4f}  {name}")
        return "\n".join(lines)


def _unmatched(nodes: Sequence[NodeScore], others: Sequence[NodeScore]) -> tuple[NodeScore, ...]:
    """The nodes of ``nodes`` that ``others`` has no copy of, counting copies (a node built twice is matched twice)."""
    left = Counter(map(_node_key, others))
    out: list[NodeScore] = []
    for node in nodes:
        key = _node_key(node)
        if left[key]:
            left[key] -= 1
        else:
            out.append(node)
    return tuple(out)


def _node_key(node: NodeScore) -> tuple[Any, ...]:
    """What makes a node the same in two derivations of one sentence: its place, label, context and features, and its
    score, since the generative model reads atoms the features do not (a POS node's COORD: the same ``$`` node scored
    -30.33 in one derivation and -62.41 in another, and the difference went missing from both lists)."""
    return (node.word, node.label, tuple(sorted(node.context.items(), key=lambda kv: kv[0])), node.features,
            node.score)


def name_nodes(
    nodes: Sequence[tuple[Any, ...]],
    events: Sequence[tuple[Any, ...]],
    starts: Sequence[int],
    *,
    words: Sequence[str],
    weights: np.ndarray,
    category: Any,
    is_pos: np.ndarray,
    is_punct: np.ndarray,
    cc_cat: int,
    word_atom: Any,
    isq: int,
    punct: bool,
    generative: bool,
) -> list[NodeScore]:
    """Name the kernel's node log (:meth:`~glmnlp.parser._beam.BeamParser.explain`'s ``nodes``, ``events`` and
    ``starts``).

    ``category``: category id -> name; ``word_atom``: the words' hash (:func:`glmnlp.parser.model.word_atom`);
    ``is_pos``/``is_punct``/``cc_cat``: the decoder's tables; ``isq``/``punct``: the sentence's question flag and
    whether the model has the punctuation features; ``generative``: whether the scores include a generative term.
    Raises RuntimeError when a node fires a number of features its templates do not account for.
    """
    atom_word: dict[int, str | None] = {word_atom(w): w for w in words}
    atom_word[0] = None
    atom_word[1] = _END_OF_SENTENCE
    # in names: a word quoted, the end of the sentence and an absent atom bare (a word "-" is not an absent one)
    named_word: dict[int, str] = {word_atom(w): repr(w) for w in words}
    named_word[0] = _NONE
    named_word[1] = _END_OF_SENTENCE

    def cat_name(c: int) -> str | None:
        return category(c) if c > 0 else None

    out: list[NodeScore] = []
    word = 0
    for k, (cat, lk, lkp, npos, score, atoms, ids, gen_to) in enumerate(nodes):
        gen_from = nodes[k - 1][7] if k else 0
        while word + 1 < len(starts) and starts[word + 1] <= k:
            word += 1
        context = {name: (atom_word.get(int(a), str(a)) if name in _WORD_ATOMS else cat_name(int(a)))
                   for name, a in zip(CONTEXT_ATOMS, atoms, strict=True)}
        context["LK"] = atom_word.get(int(lk), str(lk))
        context["LKP"] = _END_OF_SENTENCE if lk == 1 else cat_name(int(lkp))
        values = {name: _NONE if v is None else v for name, v in context.items()}
        for name, a in (("CL", atoms[9]), ("CC", atoms[10]), ("LK", lk)):
            values[name] = named_word.get(int(a), str(a))
        values.update(L00=category(int(cat)), QUESTION="yes" if isq else "no", NEXTPOS=cat_name(int(npos)) or _NONE,
                      LK_IS_PUNCT="yes" if lkp > 0 and is_punct[lkp] else "no")
        templates = list(TEMPLATES["pos" if is_pos[cat] else "nonpos"])
        if punct:
            group = [t.split(" (")[0] for t in TEMPLATES["punct"]]
            templates += group[:2]
            if lkp > 0 and (is_punct[lkp] or lkp == cc_cat):
                templates += group[2:4]
            if atoms[2] > 0 and is_punct[atoms[2]]:
                templates += group[4:6]
        if len(templates) != len(ids):
            raise RuntimeError(f"node {k} ({cat_name(int(cat))}) fired {len(ids)} features, its templates name "
                               f"{len(templates)}: glmnlp.parser.config.TEMPLATES and the kernel disagree")
        slots = np.asarray(ids, dtype=np.int64)
        node_weights = weights[slots].tolist() if len(slots) else []
        features = tuple(
            (f"{t}=" + "|".join(values[a] for a in t.split("+")), w)
            for t, w in zip(templates, node_weights, strict=True)
        )
        feature_score = 0.0
        for w in node_weights:
            feature_score += w
        logprob = sum(e[4] for e in events[gen_from:gen_to]) if generative else None
        out.append(NodeScore(word, category(int(cat)), context, features, feature_score, logprob, float(score)))
    return out
