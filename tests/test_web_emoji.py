"""A token of emoji only is tagged ``UH`` as an emoticon is (choice 7 of glmnlp.text.tokenize, glmnlp.text.web): the
WSJ-trained tagger gave emoji open-class tags, so ``I love you ❤️`` parsed ``(NP (VB ❤️))`` and ``We won 🏆 again``
``(ADVP (RB 🏆))``; and ``glmnlp tag`` gives web tokens the fixed tags ``glmnlp parse`` gives them (it tagged
``:) ;) www.example.com`` ``SYM JJ NNP`` where parse gave ``UH UH NN``)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

import glmnlp
from cli_fixtures import _run
from glmnlp.graphemes import EMOJI_PRESENTATION
from glmnlp.text.web import web_tag

_EMOJI = ["❤️", "👋", "🏆", "👍🏽", "👨\u200d👩\u200d👧", "🇺🇸", "#️⃣", "1️⃣", "⭐", "✅", "🐈\u200d⬛", "😂😂😂", "☎️",
          "❤\u200d🔥", "✌🏽", "🏴\U000e0067\U000e0062\U000e0065\U000e006e\U000e0067\U000e007f"]
#: text symbols (no U+FE0F: GUM tags ☎ ✉ SYM, EWT ♥ '.'), a text-presentation star, and tokens with letters or digits
_NOT_EMOJI = ["☎", "✉", "♥", "★", "©", "⭐\ufe0e", "🎉win", "ok👍", "😀a", "1", "1\ufe0f", "#1"]


def test_a_token_of_emoji_only_is_tagged_uh_and_text_symbols_and_mixed_tokens_are_not() -> None:
    """Emoji, with their skin tones, selectors, ZWJ sequences, flags, tag sequences and keycaps, get ``UH`` (they got
    no fixed tag); a text symbol without U+FE0F and a token with a letter or digit get none."""
    assert {t: web_tag(t) for t in _EMOJI} == {t: "UH" for t in _EMOJI}
    assert {t: web_tag(t) for t in _NOT_EMOJI} == {t: None for t in _NOT_EMOJI}


_SMP = st.characters(min_codepoint=0x1F000, max_codepoint=0x1FAFF, categories=("So",))
_SUFFIX = st.one_of(st.just(""), st.just("\ufe0f"), st.sampled_from([chr(c) for c in range(0x1F3FB, 0x1F400)]),
                    _SMP.map(lambda ch: "\u200d" + ch))
_CLUSTER = st.one_of(
    st.builds(str.__add__, _SMP, _SUFFIX),
    st.builds(str.__add__, st.sampled_from(sorted(EMOJI_PRESENTATION)), _SUFFIX),
    st.characters(min_codepoint=0x2600, max_codepoint=0x27BF, categories=("So",)).map(lambda ch: ch + "\ufe0f"),
    st.builds(lambda base, sel: base + sel + "\u20e3", st.sampled_from("#*0123456789"),
              st.sampled_from(["", "\ufe0f"])),
)


@given(clusters=st.lists(_CLUSTER, min_size=1, max_size=4), extra=st.characters(categories=("L", "Nd")),
       where=st.integers(min_value=0))
def test_emoji_clusters_get_uh_and_never_with_a_letter_or_digit(clusters: list[str], extra: str, where: int) -> None:
    """Any token made of emoji clusters (a pictograph with a selector, a skin tone or a joined pictograph; a symbol
    shown as an emoji; a keycap) is tagged ``UH``; with a letter or a digit put anywhere in it, it is not."""
    token = "".join(clusters)
    assert web_tag(token) == "UH"
    where %= len(token) + 1
    assert web_tag(token[:where] + extra + token[where:]) != "UH"


_SENTENCES = ["I love you ❤️", "See you soon 👋", "We won 🏆 again", "The ❤️ emoji"]


@pytest.fixture(scope="module")
def nlp() -> glmnlp.Pipeline:
    return glmnlp.load()


def test_the_pipeline_and_the_measures_tag_emoji_uh(nlp: glmnlp.Pipeline) -> None:
    """The bundled model's trees had ``(VB ❤️)``, ``(VB 👋)``, ``(RB 🏆)``, ``(JJ ❤️)``; the emoji is ``UH`` now, in
    the tags, the tree and the JSON, and glmnlp.measures scores it with that tag as the pipeline does."""
    from glmnlp.text.measures import measures

    for text in _SENTENCES:
        doc = nlp(text, surprisal=True, measures=True)
        sent = doc.sents[0]
        emoji = next(i for i, w in enumerate(sent.words) if not w.isalpha())
        assert sent.tags[emoji] == "UH", text
        assert f"(UH {sent.words[emoji]})" in str(sent.tree), text
        assert doc.to_dict()["sentences"][0]["tokens"][emoji]["tag"] == "UH", text
        assert measures(text) == list(sent.measures), text


def test_parse_and_tag_give_web_tokens_and_emoji_the_same_fixed_tags(tmp_path: Path,
                                                                     capsys: pytest.CaptureFixture[str]) -> None:
    """``glmnlp tag`` of tokenised text, and of a CoNLL-U file, gives the tags ``glmnlp parse`` gives URLs, e-mail
    addresses, emoticons and emoji (it tagged ``:)/SYM ;)/JJ www.example.com/NNP``); a tagger of other tags (UPOS
    here) keeps its own: the fixed tags are given where the tagger has them."""
    from glmnlp.tagger.model import Tagger, TaggerConfig
    from glmnlp.treebank.formats import TaggedSentence

    text = "Thanks :) ;) email bob@example.com or visit www.example.com ❤️ @bob #win 👍🏽"
    words = text.split()
    web = {":)": "UH", ";)": "UH", "bob@example.com": "NN", "www.example.com": "NN", "❤️": "UH", "@bob": "NNP",
           "#win": "NNP", "👍🏽": "UH"}
    path = tmp_path / "web.txt"
    path.write_text(text + "\n", encoding="utf-8")
    rc, out, _ = _run(capsys, ["parse", "-f", "json", "-i", str(path)])
    assert rc == 0
    tokens = json.loads(out)["sentences"][0]["tokens"]
    assert {t["text"]: t["tag"] for t in tokens if t["text"] in web} == web
    rc, out, _ = _run(capsys, ["tag", str(path)])
    assert rc == 0
    tagged = dict(tok.rsplit("/", 1) for tok in out.split())
    assert {w: tagged[w] for w in web} == web
    conllu = tmp_path / "web.conllu"
    conllu.write_text("".join(f"{i}\t{w}\t_\t_\t_\t_\t_\t_\t_\t_\n" for i, w in enumerate(words, 1)) + "\n",
                      encoding="utf-8")
    rc, out, _ = _run(capsys, ["tag", "--input-format", "conllu", "--output-format", "conllu", str(conllu)])
    assert rc == 0
    rows = [line.split("\t") for line in out.splitlines() if line and not line.startswith("#")]
    assert {r[1]: r[4] for r in rows if r[1] in web} == web
    upos = Tagger(TaggerConfig(epochs=1)).fit(
        [TaggedSentence(("the", "dog", "barks", "!"), ("DET", "NOUN", "VERB", "PUNCT"))] * 3,
        show_progress=False, jobs=1)
    upos.save(tmp_path / "upos")
    rc, out, _ = _run(capsys, ["tag", "--model", str(tmp_path / "upos"), str(path)])
    assert rc == 0
    assert {tok.rsplit("/", 1)[1] for tok in out.split()} <= {"DET", "NOUN", "VERB", "PUNCT"}
