"""Command-line reliability of the output: well-formed output that reads back (brackets escaped where the format
needs it, JSON lines whole), user tags kept in every mode, words that cannot be written refused.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from cli_fixtures import _run


def test_cli_parse_brackets_in_tokens_and_tags_are_escaped_and_read_back(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """Brackets inside pre-tokenised words and given tags come out as -LRB-/-RRB-; glmnlp reads the trees back."""
    import io

    from glmnlp.treebank.trees import parse_tree

    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"He said ( hello ) to f(x) .\n"), encoding="utf-8"))
    rc, out, _ = _run(capsys, ["parse", "--tokenized", "-q"])
    assert rc == 0
    tree = parse_tree(out)
    assert tree.leaves() == ["He", "said", "-LRB-", "hello", "-RRB-", "to", "f-LRB-x-RRB-", "."]
    # NN, not UH: the bundled model's parser has no UH (not in the WSJ sample), and a --tagged tag
    # the model does not know is an error, never a silent flat tree
    rc, out2, _ = _run(capsys, ["parse", "--tagged", "-q", "hi/NN a)b/( ./."])
    assert rc == 0
    assert parse_tree(out2).pos() == [("hi", "NN"), ("a-RRB-b", "-LRB-"), (".", ".")]
    (tmp_path / "t").write_text(out + out2)
    rc, report, _ = _run(capsys, ["evalb", str(tmp_path / "t"), str(tmp_path / "t")])
    assert rc == 0 and "Number of sentence        =      2" in report


@pytest.mark.parametrize("mode", ["--tokenized", "--tagged"])
def test_cli_parse_keeps_given_tokens_as_written_where_the_format_needs_no_escape(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, mode: str,
) -> None:
    """CoNLL-U and JSON output of ``--tokenized``/``--tagged`` input wrote ``(`` as ``-LRB-`` and ``a(b`` as
    ``a-LRB-b`` (a word that is ``a-LRB-b`` could no longer be told apart), where ``glmnlp tag``, ``measures`` and
    the Python API keep the words as given: they are kept, byte for byte the API's output; the tree escapes them."""
    import json

    import glmnlp
    from glmnlp.text.render import render_conllu, render_json

    words = ["He", "said", "(", "yes", ")", "a(b", ":-)", "."]
    tags = ["PRP", "VBD", "-LRB-", "NN", "-RRB-", "JJ", "NN", "."]
    line = " ".join(words if mode == "--tokenized" else [f"{w}/{t}" for w, t in zip(words, tags)])
    (tmp_path / "in.txt").write_text(line + "\n")
    given = [words] if mode == "--tokenized" else [list(zip(words, tags))]
    doc = glmnlp.load()(given)
    rc, conllu, _ = _run(capsys, ["parse", mode, "-q", "-j", "1", "-f", "conllu", "-i", str(tmp_path / "in.txt")])
    assert rc == 0 and conllu == render_conllu(doc)
    assert "# text = He said ( yes ) a(b :-) ." in conllu and "\ta(b\t" in conllu
    rc, js, _ = _run(capsys, ["parse", mode, "-q", "-j", "1", "-f", "json", "-i", str(tmp_path / "in.txt")])
    assert rc == 0 and js == render_json(doc)
    assert [t["text"] for t in json.loads(js)["sentences"][0]["tokens"]] == words
    rc, tree, _ = _run(capsys, ["parse", mode, "-q", "-j", "1", "-i", str(tmp_path / "in.txt")])
    assert rc == 0 and "(JJ a-LRB-b)" in tree


def test_cli_pipeline_rejects_empty_tags_bytes_and_lone_surrogates() -> None:
    """``nlp([[("a", "")]])``, ``nlp(b"...")`` and a lone surrogate are refused at the boundary, by name."""
    import glmnlp

    nlp = glmnlp.load()
    with pytest.raises(ValueError, match="tag '' must be non-empty"):
        nlp([[("a", "")]])
    with pytest.raises(TypeError, match="got bytes; decode it"):
        nlp(b"The dog barked.")
    with pytest.raises(ValueError, match="lone surrogate U\\+DC80"):
        nlp("The d\udc80g barked.")
    with pytest.raises(ValueError, match="lone surrogate"):
        nlp([["The", "d\ud800g"]])
    from glmnlp.treebank.trees import parse_tree

    written = nlp([[("a(", "DT"), ("dog", "NN")]]).sentences[0].to_bracket()
    assert parse_tree(written).leaves() == ["a-LRB-", "dog"]  # API tokens kept verbatim, written the PTB way


def test_cli_writer_escapes_brackets_and_refuses_unwritable_words() -> None:
    from glmnlp.treebank.trees import Tree, parse_tree, to_bracket, to_pretty

    tree = Tree("TOP", (Tree("(", ("f(x)",)), Tree("NN", (")",))))
    assert to_bracket(tree) == "(TOP (-LRB- f-LRB-x-RRB-) (NN -RRB-))"
    assert parse_tree(to_pretty(tree)) == parse_tree(to_bracket(tree))
    for bad in ("", "a b"):
        with pytest.raises(ValueError, match="cannot be written"):
            to_bracket(Tree("NN", (bad,)))


@pytest.mark.parametrize("fmt", ["brackets", "json"])
def test_cli_parse_nbest_keeps_the_given_tags(capsys: pytest.CaptureFixture[str], fmt: str) -> None:
    """``--tagged --nbest 2``: every tree has the user's tags (no re-tagging); json tokens agree with the tree."""
    import json

    from glmnlp.treebank.trees import parse_tree

    given = ["VB", "NNS", "IN", "DT", "NN", "."]
    rc, out, _ = _run(capsys, ["parse", "--tagged", "-q", "--nbest", "2", "-f", fmt,
                               "Time/VB flies/NNS like/IN an/DT arrow/NN ./."])
    assert rc == 0
    if fmt == "brackets":
        trees = [parse_tree(line.split("\t")[1]) for line in out.splitlines() if line]
        assert len(trees) == 2
    else:
        sent = json.loads(out)["sentences"][0]
        assert [t["tag"] for t in sent["tokens"]] == given
        trees = [parse_tree(sent["tree"])] + [parse_tree(n["tree"]) for n in sent["nbest"]]
    assert all(t.tags() == given for t in trees)


def test_cli_parse_nbest_json_tokens_agree_with_the_tree(capsys: pytest.CaptureFixture[str]) -> None:
    """Raw text with --nbest (multi-tag input): the json tokens carry the best tree's tags."""
    import json

    from glmnlp.treebank.trees import parse_tree

    rc, out, _ = _run(capsys, ["parse", "-q", "--nbest", "3", "-f", "json", "Time flies like an arrow."])
    assert rc == 0
    for sent in json.loads(out)["sentences"]:
        assert [t["tag"] for t in sent["tokens"]] == parse_tree(sent["tree"]).tags()
    # the brackets format's scores are the json's, every digit (they were rounded to 4 decimals)
    rc, brackets, _ = _run(capsys, ["parse", "-q", "--nbest", "3", "Time flies like an arrow."])
    scores = [float(line.split("\t")[0]) for line in brackets.splitlines() if line]
    assert rc == 0 and scores == [n["score"] for s in json.loads(out)["sentences"] for n in s["nbest"]]


def test_cli_parse_json_lines_survive_unicode_line_separators(capsys: pytest.CaptureFixture[str]) -> None:
    """U+2028/U+2029/U+0085 in the text are escaped in json output: one document is one line for every splitter."""
    import json

    rc, out, _ = _run(capsys, ["parse", "-q", "-f", "json", "The dog\u2028barked.\u2029It ran\x85away."])
    assert rc == 0
    assert len(out.splitlines()) == 1
    assert json.loads(out)["text"] == "The dog\u2028barked.\u2029It ran\x85away."
