"""A web token's text is its characters as written, brackets too (choice 7 of glmnlp.text.tokenize): ``:)`` was
``:-RRB-`` in the tokens of ``parse --format json``, the ``measures`` table and ``Document`` objects. The models still
get the treebank's spelling, and a bracketed tree writes its leaf so."""

from __future__ import annotations

import csv
import io
import json

import pytest

import glmnlp
from glmnlp.cli import main
from glmnlp.text.document import Document
from glmnlp.text.tokenize import tokenize

_EMOTICONS = [":)", ";)", ":(", ":-)", "(:"]
_TEXT = "I like it :) really. Oh ;) and :( or :-) and (: too."


@pytest.mark.parametrize(("text", "word"), [(f"I like it {e} really.", e) for e in _EMOTICONS]
                         + [("Read http://a.b/c_(d) now.", "http://a.b/c_(d)")])
def test_a_web_token_is_written_as_in_the_text(text: str, word: str) -> None:
    """The tokenizer gives the emoticon or URL as written (it gave ``:-RRB-``, ``http://a.b/c_-LRB-d-RRB-``)."""
    assert word in tokenize(text)


@pytest.fixture(scope="module")
def pipeline() -> glmnlp.Pipeline:
    return glmnlp.load()


def test_the_pipeline_writes_emoticons_as_written_and_trees_read_back(pipeline: glmnlp.Pipeline) -> None:
    """Tokens and a tree's leaves hold ``:)``; the bracketed tree writes ``:-RRB-`` and reads back to the same
    document; the parser saw the treebank's spelling, so the scores are those of the escaped words."""
    doc = pipeline(_TEXT)
    words = [t.text for s in doc.sentences for t in s.tokens]
    for emoticon in _EMOTICONS:
        assert emoticon in words
    tree = doc.sentences[0].tree
    assert tree is not None and ":)" in tree.leaves() and "(UH :-RRB-)" in str(tree)
    again = Document.from_dict(json.loads(json.dumps(doc.to_dict())))
    assert [t.text for s in again.sentences for t in s.tokens] == words
    assert [str(s.tree) for s in again.sentences] == [str(s.tree) for s in doc.sentences]
    escaped = pipeline([["I", "like", "it", ":-RRB-", "really", "."]])
    assert escaped.sentences[0].score == pytest.approx(doc.sentences[0].score)


@pytest.mark.parametrize("fmt", ["json", "conllu", "ascii"])
def test_parse_writes_emoticons_as_written(fmt: str, capsys: pytest.CaptureFixture[str]) -> None:
    """``glmnlp parse`` in the formats that write tokens (json, conllu, an ascii drawing) writes no ``-RRB-``."""
    assert main(["parse", "--format", fmt, _TEXT]) == 0
    out = capsys.readouterr().out
    if fmt == "json":
        out = "\n".join(t["text"] for line in out.splitlines() for s in json.loads(line)["sentences"]
                        for t in s["tokens"])
    assert "-RRB-" not in out and "-LRB-" not in out
    for emoticon in _EMOTICONS:
        assert emoticon in out


def test_measures_rows_write_emoticons_as_written(capsys: pytest.CaptureFixture[str]) -> None:
    """The ``word`` column of ``glmnlp measures`` and :func:`glmnlp.measures` holds ``:)`` (it held ``:-RRB-``),
    with the surprisal the model gives the treebank's spelling, as measured before."""
    assert main(["measures", "--format", "csv", _TEXT]) == 0
    table = list(csv.DictReader(io.StringIO(capsys.readouterr().out)))
    words = [row["word"] for row in table]
    for emoticon in _EMOTICONS:
        assert emoticon in words
    assert not any("RRB" in w or "LRB" in w for w in words)
    rows = glmnlp.measures("I like it :) really.")
    escaped = glmnlp.measures(["I like it :-RRB- really ."], tokenized=True)
    assert [r["word"] for r in rows][3] == ":)"
    assert [r["surprisal"] for r in rows] == pytest.approx([r["surprisal"] for r in escaped])
