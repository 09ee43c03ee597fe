"""Features of the trigram perceptron tagger (Collins 2002 §3, after Ratnaparkhi 1996): atoms of a history, templates,
feature sets, word shapes.

Atoms are computed from the words alone (tag-independent); each template is conjoined with the
current tag t_i by the tagger (:mod:`glmnlp.tagger.model`), which also documents the feature sets
and their measured accuracies. Two sets are kept: ``"collins2002"`` (the paper's) and
``"extended"`` (the default, the best measured). The alternatives that did not beat ``"extended"``
beyond the seed spread are re-run by ``benchmarks/tagger_features.py``. When tagging, a few words are read as others:
an unseen currency sign as ``$`` and an unseen run of ``!`` and ``?`` as its first mark (:func:`read_as`), a sentence
in capitals in lower case (:func:`sentence_read_as`).
"""

from __future__ import annotations

import re
import string
from collections.abc import Callable, Container, Mapping, Sequence

import numpy as np

from glmnlp.errors import ConfigError
from glmnlp.glm.features import ABSENT, Template
from glmnlp.graphemes import CURRENCY_SIGNS

__all__ = [
    "ATOM_NAMES",
    "DEFAULT_FEATURE_SET",
    "FEATURE_SETS",
    "history_atoms",
    "history_features",
    "read_as",
    "read_capitals",
    "sentence_read_as",
    "templates_for",
    "word_atoms_strings",
    "word_shape",
]

MAX_AFFIX = 5
AFFIX_LENGTHS = tuple(range(1, MAX_AFFIX + 1))
#: word-local atoms (depend on w_i alone), computed once per word type
LOCAL_ATOMS: tuple[str, ...] = (
    "bias",
    "w[i]",
    "lower[i]",
    "shape[i]",
    *(f"prefix{k}" for k in range(1, MAX_AFFIX + 1)),
    *(f"suffix{k}" for k in range(1, MAX_AFFIX + 1)),
    "has-digit",
    "has-upper",
    "has-hyphen",
    "all-caps",
    "has-period",
    "hyphen-last",
    "first-upper",
    "amb[i]",
    "lc-known",
)
#: context atoms: (name, local atom it copies, offset from i)
CONTEXT_ATOMS: tuple[tuple[str, str, int], ...] = (
    ("w[i-1]", "w[i]", -1),
    ("w[i-2]", "w[i]", -2),
    ("w[i+1]", "w[i]", 1),
    ("w[i+2]", "w[i]", 2),
    ("lower[i-1]", "lower[i]", -1),
    ("lower[i+1]", "lower[i]", 1),
    ("lower[i-2]", "lower[i]", -2),
    ("lower[i+2]", "lower[i]", 2),
    ("suffix3[i-1]", "suffix3", -1),
    ("suffix3[i+1]", "suffix3", 1),
    ("shape[i-1]", "shape[i]", -1),
    ("shape[i+1]", "shape[i]", 1),
    ("amb[i-1]", "amb[i]", -1),
    ("amb[i+1]", "amb[i]", 1),
    ("amb[i+2]", "amb[i]", 2),
)
#: atoms that depend on the position: "cap-init" is <init-cap> for a capitalised first word and
#: <mid-cap> for a capitalised word elsewhere
POSITION_ATOMS: tuple[str, ...] = ("cap-init",)
ATOM_NAMES: tuple[str, ...] = LOCAL_ATOMS + tuple(name for name, _, _ in CONTEXT_ATOMS) + POSITION_ATOMS
N_LOCAL = len(LOCAL_ATOMS)
N_ATOMS = len(ATOM_NAMES)
_PAPER = (
    "bias",
    "w[i]",
    *(f"prefix{k}" for k in range(1, 5)),
    *(f"suffix{k}" for k in range(1, 5)),
    "has-digit",
    "has-upper",
    "has-hyphen",
    "w[i-1]",
    "w[i-2]",
    "w[i+1]",
    "w[i+2]",
)
#: feature sets: templates by name; "a&b" conjoins atoms a and b; every template is conjoined with t_i
_EXTENDED = (
    "bias",
    "w[i]",
    "lower[i]",
    "shape[i]",
    *_PAPER[2:],
    "lower[i-1]",
    "lower[i+1]",
    "prefix5",
    "suffix5",
    "suffix3[i-1]",
    "suffix3[i+1]",
    "shape[i-1]",
    "shape[i+1]",
    "all-caps",
    "has-period",
    "hyphen-last",
    "cap-init",
    "lower[i-2]",
    "lower[i+2]",
    "lc-known",
    "lc-known&cap-init",
)
#: The feature sets that earned their place: the paper's and the default. The measured alternatives
#: (extended-v1, extended-prevtag, extended-bigrams, ...) are defined and re-run by
#: ``benchmarks/tagger_features.py``, which adds them to this registry for the run.
FEATURE_SETS: dict[str, tuple[str, ...]] = {
    "collins2002": _PAPER,
    "extended": _EXTENDED,
}
DEFAULT_FEATURE_SET = "extended"


PAIR_PREFIX = "t[i-1]&"


def templates_for(feature_set: str, *, previous_tag: bool = False) -> tuple[Template, ...]:
    """The templates of a feature set (see :data:`FEATURE_SETS`).

    By default the emission templates (conjoined with t_i only); with ``previous_tag=True`` the
    templates named ``t[i-1]&atom`` (conjoined with the tag bigram), returned without the prefix.
    """
    if feature_set not in FEATURE_SETS:
        raise ConfigError(f"unknown feature set {feature_set!r} (choose from {sorted(FEATURE_SETS)})")
    out = []
    for full in FEATURE_SETS[feature_set]:
        if full.startswith(PAIR_PREFIX) != previous_tag:
            continue
        name = full[len(PAIR_PREFIX) :] if previous_tag else full
        parts = name.split("&")
        if previous_tag and len(parts) != 1:
            raise ConfigError(f"feature set {feature_set!r}: previous-tag template {full!r} must name one atom")
        if any(p not in ATOM_NAMES for p in parts):
            raise ConfigError(f"feature set {feature_set!r}: template {name!r} names an unknown atom")
        out.append(Template(name, tuple(ATOM_NAMES.index(p) for p in parts)))
    return tuple(out)


W0 = 1
BOS, EOS = "<s>", "</s>"
FLAG_STRINGS = (
    "<bias>",
    "<digit>",
    "<upper>",
    "<hyphen>",
    "<all-caps>",
    "<period>",
    "<first-upper>",
    "<init-cap>",
    "<mid-cap>",
    "<lc-known>",
    "<lc-unknown>",
)


_ASCII_SHAPE = str.maketrans(
    string.ascii_uppercase + string.ascii_lowercase + string.digits, "X" * 26 + "x" * 26 + "d" * 10
)
_RUNS = re.compile(r"(.)\1+", re.DOTALL)


def word_shape(word: str) -> str:
    """Character classes of ``word`` with runs collapsed: ``"McDonald's"`` -> ``"XxXx'x"``, ``"1,234"`` -> ``"d,d"``."""
    if word.isascii():
        return _RUNS.sub(r"\1", word.translate(_ASCII_SHAPE))
    out: list[str] = []
    for ch in word:
        c = "X" if ch.isupper() else "x" if ch.islower() else "d" if ch.isdigit() else ch
        if not out or out[-1] != c:
            out.append(c)
    return "".join(out)


def read_as(word: str, vocabulary: Container[str]) -> str:
    """The word whose atoms a tagger with training ``vocabulary`` reads for ``word`` when tagging: ``"$"`` for a
    currency sign it has not seen (:data:`~glmnlp.graphemes.CURRENCY_SIGNS`) when it has seen ``"$"``; its first mark
    for a run of ``!`` and ``?`` it has not seen (``!!!``, ``?!``: choice 16 of :mod:`glmnlp.text.tokenize`) when it
    has seen that mark; else ``word``.

    Why: as an unknown word an unseen sign could take only the open-class tags, none of them ``$`` (the bundled model
    tagged ``¥500`` ``JJ CD`` and ``₹2,000`` ``VBG CD``; now ``$ CD`` both), while EWT and GUM tag every sign ``$``
    and the tokenizer reads them all as ``$`` (choice 15 of :mod:`glmnlp.text.tokenize`). Training reads words as they
    are; a sign the tagger has seen keeps its own atoms, and :meth:`~glmnlp.tagger.model.Tagger.knows` still calls the
    unseen one unknown. EWT, GUM and the PTB sample have no sign in dev or test that their training data lacks: their
    figures are the same. A run of marks, unseen, was an unknown word too: the bundled model tagged ``!!!`` ``VB``; the
    treebanks (EWT) tag the run as they tag one mark. :func:`glmnlp.text.inputs.model_words` reads words so for the
    parser too (a tagger's ``knows`` as the vocabulary), so the measures do not call ``!!!`` an unknown word.
    """
    if word in vocabulary:
        return word
    if word in CURRENCY_SIGNS and "$" in vocabulary:
        return "$"
    if len(word) > 1 and not word.strip("!?") and word[0] in vocabulary:
        return word[0]
    return word


#: A sentence is read case-folded when at least CAPS_MIN_WORDS of its words of two letters or more are in capitals,
#: and at least CAPS_MIN_SHARE of them (:func:`sentence_read_as`)
CAPS_MIN_WORDS = 3
CAPS_MIN_SHARE = 0.8
_ALL_CAPS = LOCAL_ATOMS.index("all-caps")


def _letters(word: str) -> int:
    """The cased letters of ``word`` (a digit, a mark or a letter of a script without case is none)."""
    return sum(1 for c in word if c.isupper() or c.islower())


def sentence_read_as(words: Sequence[str], vocabulary: Container[str]) -> Sequence[str]:
    """The words a tagger with training ``vocabulary`` reads for the sentence ``words`` when tagging: a sentence
    written in capitals (at least :data:`CAPS_MIN_WORDS` of its words of two letters or more in capitals, and at
    least :data:`CAPS_MIN_SHARE` of them; a clitic, which the pipeline gives the tagger as the treebank spells it,
    ``n't`` for the ``NT`` of ``CANT``, is not counted) is read in lower case, its first word capitalised as a
    sentence's first word is; else ``words`` itself. Every word in capitals is read so (``A`` too) except ``I``, a
    word the tagger has seen in capitals and not in lower case (``NASA``, ``U.S.``), kept so, and a word it has seen
    neither way, read as a name (``JAXA`` as ``Jaxa``, ``SMITH`` as ``Smith``).

    Why: in training text capitals mark names, so every unknown word in capitals was a proper noun to the tagger
    (the bundled model tagged ``DO NOT ENTER .`` ``NN NNP NNP .`` and ``WHERE ARE YOU ?`` ``NN NNP NNP .``; now
    ``VB RB VB .`` and ``WRB VBP PRP .``). Single words in capitals (``I REALLY need it``) are read as written.

    Measured with the bundled model on the 108 sentences of UD English EWT (train, dev and test) in which at least
    80% of the words of two letters or more are in capitals (1,042 tokens; ADD, NFP, HYPH, GW, AFX, XX and brackets
    left out; ``tag_sentences`` of the tokens): as written 36.76%, this rule 87.14%; every word in lower case 87.52%
    (4 tokens more, at the price of names and acronyms read as common nouns: ``IBM , HP , DELL`` was ``NNP , NN ,
    NN``, ``SMITH`` ``NN``, ``FBI`` ``JJ``); EWT's other sentences (180,824 tokens) 93.55% either way. Other shares and
    counts, measured with an earlier form of the rule (first word capitalised, 85.32% then): share 0.6 84.84%, 0.7
    85.60%, 0.9 85.89% (the two sentences it leaves as written are of names), at least 2 words 84.55%, 4 words 82.44%.
    ``glmnlp tagger evaluate`` on EWT dev 90.43% -> 90.50% (5 sentences read), test 89.89% -> 90.01% (10 read), and
    ``benchmarks/everyday.py`` unchanged (F1 92.88, tags 95.10%), both with every word in lower case. Training reads
    words as they are; :meth:`~glmnlp.tagger.model.Tagger.knows` answers for the word as written, the known-word
    share of :meth:`~glmnlp.tagger.model.Tagger.evaluate` for the word read (EWT dev: 20 more known tokens), as with
    :func:`read_as`.
    """
    if sum(1 for w in words if w.isupper()) < CAPS_MIN_WORDS:  # most sentences: nothing more to look at
        return words
    lettered = [w for w in words if _letters(w) >= 2 and "'" not in w]  # not a clitic: n't of CANT, read so
    capitals = sum(1 for w in lettered if w.isupper())
    if capitals < CAPS_MIN_WORDS or capitals < CAPS_MIN_SHARE * len(lettered):
        return words
    out = [w if not w.isupper() or w == "I" or (w in vocabulary and w.lower() not in vocabulary)
           else w.lower() if w.lower() in vocabulary else w[:1] + w[1:].lower() for w in words]
    if out[0] != words[0] and not (out[0] in ("ca", "wo", "sha") and words[1:2] == ["n't"]):  # CANT: ca n't, a modal
        out[0] = out[0][:1].upper() + out[0][1:]
    return out


def word_atoms_strings(
    word: str, ambiguity: Mapping[str, str] | None = None, vocabulary: Container[str] = ()
) -> list[str | None]:
    """The strings of the word-local atoms of ``word`` (None = absent), in :data:`LOCAL_ATOMS` order.

    ``ambiguity`` maps a word to its ambiguity class (its training tags joined by ``|``);
    ``vocabulary`` is the set of training words (for ``lc-known``: is the lowercased form of a
    capitalised word a training word?).
    """
    lower = word.lower()
    n = len(word)
    out: list[str | None] = ["<bias>", word, lower, word_shape(word)]
    out += [word[:k] if k <= n else None for k in AFFIX_LENGTHS]
    out += [word[-k:] if k <= n else None for k in AFFIX_LENGTHS]
    out.append("<digit>" if any(c.isdigit() for c in word) else None)
    out.append("<upper>" if any(c.isupper() for c in word) else None)
    out.append("<hyphen>" if "-" in word else None)
    out.append("<all-caps>" if n > 1 and word.isupper() else None)
    out.append("<period>" if "." in word else None)
    last = lower.rsplit("-", 1)[1] if "-" in word else ""
    out.append(last if last else None)
    out.append("<first-upper>" if word[:1].isupper() else None)
    out.append(ambiguity.get(word) if ambiguity else None)
    if word[:1].isupper():
        out.append("<lc-known>" if lower in vocabulary else "<lc-unknown>")
    else:
        out.append(None)
    return out


def history_atoms(
    words: Sequence[str], ambiguity: Mapping[str, str] | None = None, vocabulary: Container[str] = ()
) -> list[list[str | None]]:
    """The atom strings (None = absent) of every position, in :data:`ATOM_NAMES` order: the reference."""
    local = [word_atoms_strings(w, ambiguity, vocabulary) for w in words]
    n = len(words)
    out: list[list[str | None]] = []
    for i in range(n):
        values = list(local[i])
        for _name, source, shift in CONTEXT_ATOMS:
            j = i + shift
            if 0 <= j < n:
                values.append(local[j][LOCAL_ATOMS.index(source)])
            else:
                values.append(BOS if shift < 0 else EOS)
        first_upper = local[i][LOCAL_ATOMS.index("first-upper")] is not None
        values.append(None if not first_upper else "<init-cap>" if i == 0 else "<mid-cap>")
        out.append(values)
    return out


def history_features(
    words: Sequence[str],
    feature_set: str = DEFAULT_FEATURE_SET,
    ambiguity: Mapping[str, str] | None = None,
    vocabulary: Container[str] = (),
) -> list[list[str]]:
    """The tag-independent features of every position, as ``"template=value"`` strings (absent ones left out).

    Values of a conjunction are joined by ``|``. This is the reference definition the vectorised
    encoder is tested against; each listed feature is conjoined with the current tag t_i, and the tag
    bigram/trigram features come on top.
    """
    templates = templates_for(feature_set)
    pair_templates = templates_for(feature_set, previous_tag=True)
    out: list[list[str]] = []
    for values in history_atoms(words, ambiguity, vocabulary):
        feats = []
        for t in pair_templates:
            value = values[t.atoms[0]]
            if value is not None:
                feats.append(f"{PAIR_PREFIX}{t.name}={value}")
        for t in templates:
            parts = [values[a] for a in t.atoms]
            if all(p is not None for p in parts):
                feats.append(f"{t.name}={'|'.join(p for p in parts if p is not None)}")
        out.append(feats)
    return out


def read_capitals(sentences: Sequence[Sequence[str]], offsets: np.ndarray, local: np.ndarray,
                  vocabulary: Container[str], atoms: Callable[[Sequence[str]], np.ndarray]) -> np.ndarray:
    """``local``, the local atoms of the words of ``sentences`` as written (rows ``offsets[k]:offsets[k + 1]`` for
    sentence k), with the rows of every sentence in capitals replaced by ``atoms`` of the words it is read as
    (:func:`sentence_read_as`); the array is changed in place.

    Why so: the words' all-caps atoms pick the few sentences with three words in capitals or more (every word the
    rule counts has one), so the other sentences cost no Python loop over their words (calling
    :func:`sentence_read_as` on every sentence cost about 4% of the tagging speed); ``atoms`` reads the words read
    through the tagger's cache of atoms by word, so a word read otherwise is never cached as the word written.
    """
    in_capitals = local[:, _ALL_CAPS] != ABSENT
    if np.count_nonzero(in_capitals) < CAPS_MIN_WORDS:  # most batches, and most single sentences
        return local
    caps = np.zeros(local.shape[0] + 1, dtype=np.int64)
    np.cumsum(in_capitals, out=caps[1:])
    for k in np.flatnonzero(caps[offsets[1:]] - caps[offsets[:-1]] >= CAPS_MIN_WORDS).tolist():
        read = sentence_read_as(sentences[k], vocabulary)
        if read is not sentences[k]:
            local[offsets[k] : offsets[k + 1]] = atoms(read)
    return local
