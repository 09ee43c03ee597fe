"""CLI: ``glmnlp parse``'s output formats (n-best, json, conllu, svg, html, ascii, surprisal) and the options of its
decoding (multitag margin, cuts of long text, --max-words, unknown tags, beam, batch size).

Run in-process through :func:`glmnlp.cli.main` on the ``tiny_model`` fixture of tests/conftest.py.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cli_fixtures import _run
from glmnlp.treebank.trees import parse_tree


def test_cli_parse_nbest_blocks_are_sorted(tiny_model: Path, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """--nbest K: per sentence up to K 'score<TAB>tree' lines, best first, then a blank line."""
    path = tmp_path / "tokens.txt"
    path.write_text("the dog barked .\nprices rose .\n")
    rc, out, _ = _run(capsys, ["parse", "-m", str(tiny_model), "--tokenized", "--nbest", "3", "-i", str(path), "-q"])
    assert rc == 0
    blocks = out.split("\n\n")
    assert blocks[-1] == "" and len(blocks) == 3
    for block, words in zip(blocks, (["the", "dog", "barked", "."], ["prices", "rose", "."])):
        rows = [line.split("\t") for line in block.splitlines()]
        assert 1 <= len(rows) <= 3
        scores = [float(s) for s, _ in rows]
        assert scores == sorted(scores, reverse=True)
        assert all(parse_tree(t).leaves() == words for _, t in rows)


def test_cli_parse_json_conllu_pretty(tiny_model: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """json: one document per line with offsets; conllu numbers sentences across documents; pretty re-reads."""
    rc, out, _ = _run(capsys, ["parse", "-m", str(tiny_model), "-f", "json", "A dog barked.", "A cat slept."])
    docs = [json.loads(line) for line in out.splitlines()]
    assert rc == 0 and [d["text"] for d in docs] == ["A dog barked.", "A cat slept."]
    assert docs[0]["sentences"][0]["tokens"][1] == {"text": "dog", "tag": docs[0]["sentences"][0]["tokens"][1]["tag"],
                                                    "start": 2, "end": 5}
    rc, out, _ = _run(capsys, ["parse", "-m", str(tiny_model), "-f", "conllu", "A dog barked.", "A cat slept."])
    assert rc == 0 and "# sent_id = 1\n# text = A dog barked.\n" in out and "# sent_id = 2\n# text = A cat slept.\n" in out
    rc, out, _ = _run(capsys, ["parse", "-m", str(tiny_model), "-f", "pretty", "A dog barked."])
    assert rc == 0 and parse_tree(out).leaves() == ["A", "dog", "barked", "."] and out.count("\n") > 3


def test_cli_parse_svg_files_and_html_page(tiny_model: Path, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """svg writes one drawing per sentence into --out-dir and prints the paths; html is one page."""
    rc, out, _ = _run(capsys, ["parse", "-m", str(tiny_model), "-f", "svg", "--out-dir", str(tmp_path / "d"),
                               "A dog barked. A cat slept."])
    paths = out.splitlines()
    assert rc == 0 and paths == [str(tmp_path / "d" / "sentence-0001.svg"), str(tmp_path / "d" / "sentence-0002.svg")]
    assert all(Path(p).read_text().startswith("<svg") for p in paths)
    rc, out, _ = _run(capsys, ["parse", "-m", str(tiny_model), "-f", "html", "A dog barked.", "A cat slept."])
    assert rc == 0 and out.startswith("<!DOCTYPE html>") and out.count("<svg") == 2 and 'id="s2"' in out


def test_cli_parse_surprisal_needs_json_and_a_generative_model(
    tiny_model: Path, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """--surprisal adds one finite, non-negative bit value per word to the json; it is refused elsewhere."""
    from glmnlp.text.default_model import DefaultRecipe, train_default

    rc, _, err = _run(capsys, ["parse", "-m", str(tiny_model), "-f", "json", "--surprisal", "A dog."])
    assert (rc, err) == (1, "error: --surprisal needs a model with a generative component; this parser has none\n")
    rc, _, err = _run(capsys, ["parse", "-m", str(tiny_model), "--surprisal", "A dog."])
    assert rc == 2 and err.endswith("\nError: --surprisal needs --format json\n")
    combined = tmp_path / "combined"
    train_default(combined, DefaultRecipe(max_train=60, max_dev=8, max_test=5, tagger_epochs=2, jackknife_folds=2,
                                          jackknife_epochs=1, parser_epochs=1, n_bits=14, gammas=(1e3,), caps=(20,),
                                          generative_weights=(10.0,), generative_folds=2))
    rc, out, _ = _run(capsys, ["parse", "-m", str(combined), "-f", "json", "--surprisal", "The dog barked."])
    sent = json.loads(out)["sentences"][0]
    assert rc == 0 and len(sent["surprisal"]) == 4
    assert all(v is not None and v >= 0 for v in sent["surprisal"])


def test_cli_parse_uses_the_model_margin_unless_told(tiny_model: Path, tmp_path: Path) -> None:
    """``glmnlp parse`` gives the parser the multi-tag margin recorded in MODEL.json; ``--multitag 0``
    means single best tags, ``--multitag M`` wins, and another ``--tagger`` does not inherit it."""
    import shutil

    from glmnlp.cli.parse_cmd import _load_pipeline

    model = tmp_path / "m"
    shutil.copytree(tiny_model, model)
    meta = json.loads((model / "MODEL.json").read_text())
    meta["multitag_margin"] = 0.0
    (model / "MODEL.json").write_text(json.dumps(meta))
    assert _load_pipeline(str(model), None, False, None).multitag_margin is None
    meta["multitag_margin"] = 3.0
    (model / "MODEL.json").write_text(json.dumps(meta))
    assert _load_pipeline(str(model), None, False, None).multitag_margin == 3.0
    assert _load_pipeline(str(model), None, False, 0.0).multitag_margin is None
    assert _load_pipeline(str(model), None, False, 1.5).multitag_margin == 1.5
    assert _load_pipeline(str(model), str(model / "tagger"), False, None).multitag_margin is None


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_cli_parse_counts_every_cut_whatever_the_jobs(
    tiny_model: Path, capsys: pytest.CaptureFixture[str], tmp_path: Path, jobs: str
) -> None:
    """Three paragraphs without sentence boundaries, two cuts each, one a batch: the count at the end is 6 with
    ``--jobs 2`` too. (A text's cuts are one warning with their count; the first version of that change sent the
    warnings back from worker processes as text, without the count, and said 3.)"""
    big = tmp_path / "big.txt"
    big.write_text("\n\n".join(["the cat sat on the mat and then " * 130] * 3) + "\n")  # 4,160 characters each
    rc, out, err = _run(capsys, ["parse", "-q", "-m", str(tiny_model), "-i", str(big), "-j", jobs, "--batch-size", "1"])
    assert rc == 0 and len(out.splitlines()) == 9
    assert "warning: 6 pieces cut from text without sentence boundaries in all" in err, err


def test_cli_parse_long_unpunctuated_line_is_cut_with_warnings(
    tiny_model: Path, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """A 40 kB line without sentence boundaries comes out as bounded pieces (one tree each, readable
    back), with one warning of each kind and a count at the end on stderr."""
    big = tmp_path / "big.txt"
    big.write_text("the cat sat on the mat and then " * 1250 + "\n")  # 40,000 characters
    rc, out, err = _run(capsys, ["parse", "-m", str(tiny_model), "-i", str(big)])
    assert rc == 0
    trees = [parse_tree(line) for line in out.splitlines()]
    assert len(trees) == 21 and all(len(t.leaves()) <= 2000 // 2 for t in trees)
    assert sum(len(t.leaves()) for t in trees) == 8 * 1250
    assert "warning: no sentence boundary within 2000 characters" in err
    assert f"warning: {big}:1: a sentence of 500 words (more than 150) gets a flat tree without parsing" in err
    assert "warning: 20 pieces cut from text without sentence boundaries in all" in err
    # the summary counts their flat trees (it said "default structure: 0" and no more)
    assert err.endswith("; over 150 words, flat: 20\n"), err


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_cli_parse_max_words_sets_the_length_above_which_a_sentence_is_not_parsed(
    tiny_model: Path, capsys: pytest.CaptureFixture[str], tmp_path: Path, jobs: str
) -> None:
    """Sentences of more than 150 words got a flat tree with no way to change that from the command line, while
    ``parser train`` scores dev on every sentence: ``--max-words N`` sets the length, on workers too."""
    source = tmp_path / "in.txt"
    source.write_text("the/DT dog/NN barked/VBD ./.\n" * 3, encoding="utf-8")
    argv = ["parse", "-m", str(tiny_model), "--tagged", "-i", str(source), "-j", jobs, "--batch-size", "1"]
    rc, out, err = _run(capsys, [*argv, "--max-words", "3"])
    assert rc == 0 and out == "(TOP (S (DT the) (NN dog) (VBD barked) (. .)))\n" * 3
    assert f"warning: {source}:1: a sentence of 4 words (more than 3) gets a flat tree without parsing" in err
    assert err.endswith("; over 3 words, flat: 3\n"), err
    rc, parsed, err = _run(capsys, [*argv, "--max-words", "4"])
    assert rc == 0 and parsed != out and len(parsed.splitlines()) == 3 and "flat" not in err
    rc, _out, err = _run(capsys, [*argv, "--max-words", "0"])
    assert rc == 2 and "--max-words" in err


def test_cli_parse_unknown_tagged_tags_are_errors_or_mapped(
    tiny_model: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A --tagged tag the parser does not know is file:line: reason (never a silent flat tree);
    --map-unknown-tags replaces it by the tagger's tag with a warning."""
    rc, out, err = _run(capsys, ["parse", "-m", str(tiny_model), "--tagged", "the/DT dog/NNZ barked/VBD ./."])
    assert rc == 1 and out == ""
    assert err.startswith("error: <argument 1>:1: token 2 dog/NNZ: unknown tag 'NNZ' (the model's tags: ")
    rc, out, err = _run(capsys, ["parse", "-m", str(tiny_model), "--tagged", "--map-unknown-tags",
                                 "the/DT dog/NNZ barked/VBD ./."])
    assert rc == 0 and parse_tree(out).leaves() == ["the", "dog", "barked", "."]
    tag = dict(parse_tree(out).pos())["dog"]
    assert tag != "NNZ" and f"warning: <argument 1>:1: token 2: unknown tag 'NNZ' replaced by '{tag}'" in err


def test_cli_parse_ascii_and_svg_to_stdout(tiny_model: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """--format ascii draws each tree; --format svg without --out-dir writes one SVG of all sentences."""
    import xml.etree.ElementTree as ET

    rc, out, _ = _run(capsys, ["parse", "-m", str(tiny_model), "-f", "ascii", "The dog barked."])
    assert rc == 0 and out.rstrip("\n").splitlines()[-1].split() == ["The", "dog", "barked", "."]
    rc, out, _ = _run(capsys, ["parse", "-m", str(tiny_model), "-f", "svg", "--compact", "A dog barked. It ran."])
    assert rc == 0 and out.count("<svg") == 1 and out.count("<g transform") == 2
    ET.fromstring(out)


def test_cli_parse_map_unknown_tags_picks_a_tag_the_parser_knows(
    tiny_model: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The tagger's best tag for a word may be one the parser does not know either (this model's parser has no RP,
    its tagger tags "up" RP): the replacement is the tagger's best tag that the parser knows, never a tag that then
    stops the run."""
    rc, out, err = _run(capsys, ["parse", "-m", str(tiny_model), "--tagged", "--map-unknown-tags",
                                 "It/PRP rained/VBD up/ZZ we/PRP left/VBD ./."])
    assert rc == 0, err
    tag = dict(parse_tree(out).pos())["up"]
    assert tag not in ("ZZ", "RP") and f"token 3: unknown tag 'ZZ' replaced by '{tag}'" in err


def test_cli_parse_gamma_and_cap_replace_the_models_beam_in_every_worker(
    tiny_model: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``--gamma`` and ``--cap`` replace the beam the model chose on dev, in this process and in each worker
    (``-j 2`` gives the ``-j 1`` output); either alone keeps the model's other setting; bad values are usage
    errors."""
    from glmnlp.cli.parse_cmd import _load_pipeline
    from glmnlp.parser import Parser
    from glmnlp.treebank.corpus import sample_trees

    own = Parser.load(tiny_model / "parser").config
    for deferred in (False, True):
        parser = _load_pipeline(str(tiny_model), None, False, None, deferred, (5.0, 3)).parser
        assert (parser.config.gamma, parser.config.beam_cap) == (5.0, 3)
        parser = _load_pipeline(str(tiny_model), None, False, None, deferred, (None, 7)).parser
        assert (parser.config.gamma, parser.config.beam_cap) == (own.gamma, 7)
        parser = _load_pipeline(str(tiny_model / "parser"), None, False, None, deferred, (2.0, None)).parser
        assert (parser.config.gamma, parser.config.beam_cap) == (2.0, own.beam_cap)
    tokens = tmp_path / "tokens.txt"
    tokens.write_text("".join(" ".join(t.leaves()) + "\n" for t in sample_trees("test")[:12]))
    common = ["parse", "--model", str(tiny_model), "--tokenized", "-i", str(tokens), "-q", "--batch-size", "2"]
    rc, default, _ = _run(capsys, common + ["-j", "1"])
    assert rc == 0
    rc, narrow, _ = _run(capsys, common + ["-j", "1", "--gamma", "0", "--cap", "1"])
    assert rc == 0 and narrow != default and len(narrow.splitlines()) == 12
    rc, workers, _ = _run(capsys, common + ["-j", "2", "--gamma", "0", "--cap", "1"])
    assert rc == 0 and workers == narrow
    for bad in (["--gamma", "-1"], ["--cap", "-1"], ["--gamma", "x"]):  # (nan, inf: test_cli_values.py)
        rc, _, err = _run(capsys, common + bad)
        assert rc == 2 and "Invalid value" in err, err


def test_cli_parse_batch_size_beyond_its_range_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    """``--batch-size 9223372036854775808`` was a traceback (islice's stop argument), status 1."""
    rc, out, err = _run(capsys, ["parse", "-q", "--batch-size", str(2**63), "A dog barked."])
    assert (rc, out) == (2, "") and "Invalid value for '--batch-size'" in err and "Traceback" not in err


def test_parse_conllu_puts_a_upos_taggers_tags_in_upos(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``glmnlp parse --format conllu`` wrote every tagger's tags in XPOS, a UPOS tagger's too (``glmnlp tag`` wrote
    them in UPOS, and ``tagger evaluate`` with that tagger could not read the file back); the column is read from
    the tagger's metadata, without building it."""
    import warnings

    from glmnlp.cli import main
    from glmnlp.parser.model import ParserConfig
    from glmnlp.parser.training import train_parser
    from glmnlp.tagger.model import Tagger, TaggerConfig
    from glmnlp.treebank.formats import TaggedSentence
    from glmnlp.treebank.trees import parse_tree

    trees = [parse_tree("(TOP (S (NP (DET the) (NOUN dog)) (VP (VERB barked)) (PUNCT .)))")] * 4
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        parser, _ = train_parser(trees, trees, ParserConfig(n_bits=12, epochs=1), show_progress=False, jobs=1)
    parser.save(tmp_path / "parser")
    tagger = Tagger(TaggerConfig(epochs=2)).fit(
        [TaggedSentence(tuple(t.leaves()), tuple(t.tags())) for t in trees], show_progress=False)
    tagger.tag_column_ = "upos"
    tagger.save(tmp_path / "tagger")
    capsys.readouterr()
    assert main(["parse", "-q", "-j", "1", "-m", str(tmp_path / "parser"), "--tagger", str(tmp_path / "tagger"),
                 "--format", "conllu", "--tokenized", "the dog barked ."]) == 0
    rows = [line.split("\t") for line in capsys.readouterr().out.splitlines() if line[:1].isdigit()]
    assert [(r[3], r[4]) for r in rows] == [("DET", "_"), ("NOUN", "_"), ("VERB", "_"), ("PUNCT", "_")]
