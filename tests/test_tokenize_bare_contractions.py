"""Contractions written without their apostrophe (``dont``, ``Im``, ``thats``) split as UD English EWT splits them,
the models reading the treebanks' clitic (``n't``, ``'m``, ``'s``) and every output the characters as written:
choice 18 of glmnlp.text.tokenize, :func:`glmnlp.text.token_spelling.split_bare_contractions` and
:func:`~glmnlp.text.token_spelling.ptb_clitics`."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

import glmnlp
from glmnlp.text.inputs import model_words
from glmnlp.text.pipeline import Pipeline
from glmnlp.text.render import render_conllu, render_json
from glmnlp.text.token_spelling import ptb_clitics
from glmnlp.text.tokenize import tokenize, tokenize_spans, tokenize_text

from pipeline_fakes import FakeParser, FakeTagger
from tokenize_fixtures import _assert_every_character_in_one_token, assert_spans_exact


@pytest.mark.parametrize(("text", "expected"), [
    ("Im so tired today.", "I m so tired today ."),
    ("Thats a great idea.", "That s a great idea ."),
    ("Ive been there before.", "I ve been there before ."),
    ("Youre welcome.", "You re welcome ."),
    ("She doesnt like it.", "She does nt like it ."),
    ("I cant and I wont.", "I ca nt and I wo nt ."),
    ("It aint so, theyre sure.", "It ai nt so , they re sure ."),
    ("DONT go. Dont go.", "DO NT go . Do nt go ."),
    ("Youll see, itll work, thatd help.", "You ll see , it ll work , that d help ."),
    ("He couldve known whats next.", "He could ve known what s next ."),
    ("Hes here, shes there, heres why.", "He s here , she s there , here s why ."),
    ("(dont)", "-LRB- do nt -RRB-"),
    ('"Thats it," he said.', "`` That s it , '' he said ."),
    ("I dont've a clue.", "I do nt 've a clue ."),
])
def test_a_contraction_without_its_apostrophe_is_split_as_ewt_splits_it(text: str, expected: str) -> None:
    """NLTK kept ``dont`` whole, a word the models had never seen (the bundled model parsed ``She doesnt like it.``
    with ``(VBP doesnt) (PP (IN like) ...)``); the pieces are EWT's, each its characters as written."""
    assert tokenize(text) == expected.split()
    assert_spans_exact(text)
    _assert_every_character_in_one_token(text)


_AMBIGUOUS = ["its", "were", "well", "ill", "id", "hell", "shell", "wed", "shed", "lets", "IM"]


@pytest.mark.parametrize("word", _AMBIGUOUS)
def test_a_word_that_is_also_a_common_word_is_never_split(word: str) -> None:
    """``its``, ``were``, ``well``, ``ill``, ``id`` ... are words as often as contractions (EWT: 193 ``its`` PRP$
    against 84 ``it s``): left whole, in any case but ``IM`` (an instant message in GUM) itself, beside a contraction
    that is split."""
    for form in {word, word.capitalize(), word.upper()} - ({"Im"} if word == "IM" else set()):
        assert tokenize(f"So {form} here, dont go.") == ["So", form, "here", ",", "do", "nt", "go", "."]
        assert tokenize(f"{form} thats") == [form, "that", "s"]


@given(st.lists(st.sampled_from(_AMBIGUOUS), min_size=1, max_size=6), st.randoms(use_true_random=False))
def test_property_ambiguous_words_stay_whole(words: list[str], rnd: object) -> None:
    """Property: among contractions that are split, words that are also contractions' spellings (lower case or
    capitalised) are one token a word."""
    forms = [w.capitalize() if w != "IM" and rnd.random() < 0.5 else w for w in words]  # type: ignore[attr-defined]
    assert tokenize(" ".join(f"{form} ive" for form in forms)) == [t for form in forms for t in (form, "i", "ve")]


_CONTRACTIONS = {"dont": ("do", "nt"), "cant": ("ca", "nt"), "wont": ("wo", "nt"), "im": ("i", "m"),
                 "ive": ("i", "ve"), "thats": ("that", "s"), "youre": ("you", "re"), "theyll": ("they", "ll"),
                 "youd": ("you", "d"), "shouldve": ("should", "ve"), "didnt": ("did", "nt")}


@given(st.lists(st.tuples(st.sampled_from(sorted(_CONTRACTIONS) + ["we", "dog", "its"]),
                          st.sampled_from(["lower", "title", "upper"]), st.sampled_from(["", ",", "!", ";"])),
                min_size=1, max_size=8))
def test_property_offsets_are_exact_and_pieces_are_as_written(words: list[tuple[str, str, str]]) -> None:
    """Property: contractions in any case among other words, with marks glued after them: each splits into its two
    pieces spelled as written, the spans cover exactly the text, and the models' spelling of the pieces is the
    treebanks' clitic after its stem."""
    parts: list[str] = []
    expected: list[str] = []
    split = 0
    forms = []
    for word, case, mark in words:
        form = word.upper() if case == "upper" else word.capitalize() if case == "title" else word
        forms.append("Im" if word == "im" and case == "upper" else form)  # IM is an instant message

    def titled(w: str) -> bool:  # a capitalised word of letters that begins no sentence (We, It, Its do)
        return len(w) > 1 and w.isalpha() and w[0].isupper() and w[1:].islower() and w not in ("We", "It", "Its")

    for k, ((word, case, mark), form) in enumerate(zip(words, forms)):
        parts.append(form + mark)
        before = expected[-1] if expected else None
        after = forms[k + 1] if k + 1 < len(forms) and not mark else mark
        # a capitalised one between a capitalised word and another, inside a sentence, is a name (Jony Ive)
        name = (before is not None and form[:1].isupper() and not form.isupper()
                and (titled(before) or titled(after)))
        if word in _CONTRACTIONS and not name:
            split += 1
            pieces = [form[:len(_CONTRACTIONS[word][0])], form[len(_CONTRACTIONS[word][0]):]]
        else:
            pieces = [form]
        expected += pieces + ([mark] if mark else [])
    text = " ".join(parts)
    spans = tokenize_spans(text)
    assert [t for t, _, _ in spans] == expected
    assert all(text[a:b] == t for t, a, b in spans)
    assert_spans_exact(text)
    clitics = ptb_clitics(expected)
    spellings = ("n't", "'m", "'s", "'re", "'ve", "'ll", "'d")
    # (the host of a sentence's first Can't, Won't is read in lower case before its clitic: Ca as ca)
    assert all(c == w or c in spellings or (w in ("Ca", "Wo") and c == w.lower()) for c, w in zip(clitics, expected))
    assert sum(c != w and c in spellings for c, w in zip(clitics, expected)) == split


def test_ptb_clitics_spells_a_piece_after_its_stem_alone() -> None:
    """Only the clitic of a contraction the tokenizer splits, after its stem, whatever tokenised it (EWT writes
    ``do nt``): ``nt`` alone, ``it s`` (``its`` is not split) and ``I M`` are as given."""
    assert ptb_clitics(["I", "m", "sure", "they", "re", "not", "DO", "NT"]) == [
        "I", "'m", "sure", "they", "'re", "not", "DO", "n't"]
    assert ptb_clitics(["nt", "it", "s", "I", "M", "we", "re", "m"]) == ["nt", "it", "s", "I", "M", "we", "re", "m"]
    assert ptb_clitics([]) == []


class _Knowing(FakeTagger):
    """A tagger that knows the treebanks' clitics (and every word), as a model trained on the WSJ does."""

    def knows(self, word: str) -> bool:
        return True


def test_the_models_read_the_clitic_and_every_output_writes_the_token_as_written() -> None:
    """The tagger and the parser are given ``n't`` and ``'m`` for ``nt`` and ``m``; the sentence's words, tokens,
    tree and its JSON and CoNLL-U write the characters of the text."""
    tagger, parser = _Knowing(), FakeParser()
    text = "Im sure she doesnt."
    doc = Pipeline(tagger, parser)(text)
    assert tagger.calls == [["I", "'m", "sure", "she", "does", "n't", "."]]
    assert parser.calls[0][0] == ["I", "'m", "sure", "she", "does", "n't", "."]
    sent = doc.sentences[0]
    assert sent.words == ["I", "m", "sure", "she", "does", "nt", "."]
    assert [text[t.start:t.end] for t in sent.tokens] == sent.words  # type: ignore[misc]
    assert sent.tree is not None and sent.tree.leaves() == sent.words
    assert [t["text"] for t in json.loads(render_json(doc))["sentences"][0]["tokens"]] == sent.words
    assert [line.split("\t")[1] for line in render_conllu(doc).splitlines() if line[:1].isdigit()] == sent.words
    assert model_words(sent.words) == sent.words  # the parser's view without a tagger: brackets only


def test_the_bundled_model_parses_the_pieces_as_the_clitics() -> None:
    """The bundled model's trees of the five sentences that showed it (``(NP (NNP Im))``, ``(SINV (VP (VBZ
    Thats)) ...``, ``(ADVP (RB Ive))``, ``(FRAG (UH Youre) (UH welcome) (. .))``, ``(VBP doesnt) (PP (IN like)``): each
    piece is tagged as the clitic is, and the measures of ``doesnt`` are those of ``does n't``."""
    import glmnlp

    nlp = glmnlp.load(lines=True)
    doc = nlp("Im so tired today.\nThats a great idea.\nIve been there before.\nYoure welcome.\nShe doesnt like it.")
    assert [list(zip(s.words, s.tags))[:3] for s in doc.sentences] == [
        [("I", "PRP"), ("m", "VBP"), ("so", "RB")], [("That", "DT"), ("s", "VBZ"), ("a", "DT")],
        [("I", "PRP"), ("ve", "VBP"), ("been", "VBN")], [("You", "PRP"), ("re", "VBP"), ("welcome", "JJ")],
        [("She", "PRP"), ("does", "VBZ"), ("nt", "RB")]]
    assert all(str(s.tree).startswith("(TOP (S (NP (") for s in doc.sentences)  # (SINV, (FRAG, (ADVP (RB Ive)) before
    assert "(VP (VBZ does) (RB nt) (VP (VB like) (NP (PRP it))))" in str(doc.sentences[4].tree)
    raw = glmnlp.measures("She doesnt like it.")
    given_tokens = glmnlp.measures([["She", "does", "n't", "like", "it", "."]])
    assert [r["word"] for r in raw] == ["She", "does", "nt", "like", "it", ".", "</s>"]
    assert [r["surprisal"] for r in raw] == [r["surprisal"] for r in given_tokens]


@pytest.mark.parametrize(("text", "expected"), [
    ("Jony Ive designed the iPhone.", "Jony Ive designed the iPhone ."),
    ("As is his wont, he left early.", "As is his wont , he left early ."),
    ("Cant Street and Heres Lane are near.", "Ca nt Street and Heres Lane are near ."),
    ("Walk down Cant Street.", "Walk down Cant Street ."),
    ("Wont you come?", "Wo nt you come ?"),
    ("and Im tired, so Ive left", "and I m tired , so I ve left"),
    ('He said "Dont go."', "He said `` Do nt go . ''"),
    ("I Dont know.", "I Do nt know ."),
    ("We Cant go.", "We Ca nt go ."),
    ("1. Dont go there.", "1 . Do nt go there ."),
    ("- Dont go there.", "- Do nt go there ."),
])
def test_a_capitalised_contraction_inside_a_sentence_is_a_name_and_wont_after_a_possessive_a_noun(text: str,
                                                                                                  expected: str) -> None:
    """``Jony Ive`` was ``Jony I ve`` (parsed with a pronoun and a verb), ``his wont`` ``his wo nt`` and ``Cant
    Street`` ``Ca nt Street``: a capitalised one after a capitalised word that is no pronoun, or before a capitalised
    word, is a name; a sentence's first word is split, and so is one after a pronoun, a mark or a list number (``I
    Dont know``, ``1. Dont go``)."""
    assert [" ".join(sentence) for sentence in tokenize_text(text)] == expected.split(" | ")


def test_a_can_t_host_is_read_in_lower_case_only_before_its_clitic() -> None:
    """``Ca`` of a sentence's first ``Can't`` is read as ``ca`` (the tagger had never seen ``Ca``: ``NNP`` or ``VB``);
    California in an address stays ``Ca`` (it was read as the modal there too)."""
    assert ptb_clitics(["Ca", "n't", "stop"]) == ["ca", "n't", "stop"]
    assert ptb_clitics(["Ca", "nt", "stop"]) == ["ca", "n't", "stop"]
    assert ptb_clitics(["San", "Diego", ",", "Ca", "is", "sunny"]) == ["San", "Diego", ",", "Ca", "is", "sunny"]
    nlp = glmnlp.load()
    assert nlp("Can't stop now.").sentences[0].tags[:2] == ["MD", "RB"]
    assert nlp("We moved to San Diego, Ca last year.").sentences[0].tags[6] == "NNP"
