"""Fuzzing with Hypothesis, bounded for CI (about 30 s in all; ``benchmarks/fuzz.py`` runs longer).

Random and mutated bytes through ``glmnlp parse`` in every input mode and output format (each
output read back by glmnlp's reader and ``glmnlp evalb``), random bracket texts through the tree
reader and EVALB, damaged model directories through ``glmnlp.load``. Every input must end in a
clean one-line refusal or in output that reads back (:mod:`fuzz_targets`).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from fuzz_targets import FORMATS, MODES, SEEDS, cached_pipelines, model_dir, mutate, parse_cli, tiny_pipeline_dir, tree_text

_FUZZ = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                       HealthCheck.function_scoped_fixture])

#: characters that matter to the readers and the tokenizer, plus some text
_ALPHABET = st.sampled_from(list("()[]{}/\\ \t\n\r.?!,;:'\"`-_$#%&*0123456789aZé€\u00a0\u2028\ufeff\x00") + ["dog", "DT/"])
_TEXT = st.lists(_ALPHABET, max_size=40).map("".join)
_EDITS = st.lists(st.tuples(st.integers(0, 3), st.integers(0, 10**6), st.integers(0, 255)), max_size=6)


@pytest.fixture(scope="module")
def pipelines() -> Iterator[None]:
    with cached_pipelines():
        yield


def _inputs() -> st.SearchStrategy[bytes]:
    return st.one_of(
        st.binary(max_size=60),
        _TEXT.map(lambda s: s.encode("utf-8")),
        st.builds(mutate, st.sampled_from(SEEDS), _EDITS),
    )


@_FUZZ
@given(data=_inputs(), mode=st.sampled_from(sorted(MODES)), fmt=st.sampled_from(FORMATS),
       nbest=st.sampled_from([1, 1, 2]))
def test_fuzz_parse_cli_refuses_cleanly_or_writes_readable_output(
    pipelines: None, data: bytes, mode: str, fmt: str, nbest: int
) -> None:
    if nbest > 1 and fmt not in ("brackets", "json"):
        nbest = 1
    outcome = parse_cli(data, mode, fmt, nbest)
    assert outcome.status in ("ok", "rejected"), outcome.detail


@settings(max_examples=300, deadline=None)
@given(text=st.one_of(_TEXT, st.lists(st.sampled_from(["(", ")", " ", "NP", "x", "-LRB-", "\n", "(S", "( ("]),
                                         max_size=30).map("".join)))
def test_fuzz_tree_reader_and_evalb(text: str) -> None:
    outcome = tree_text(text)
    assert outcome.status in ("ok", "rejected"), outcome.detail


@pytest.fixture(scope="module")
def tiny_model(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tiny_pipeline_dir(tmp_path_factory.mktemp("fuzz") / "model")


@_FUZZ
@given(choice=st.integers(0, 10**6), which=st.integers(0, 10**6), value=st.integers(0, 10**6))
def test_fuzz_damaged_model_directories_load_cleanly_or_refuse(
    tiny_model: Path, tmp_path: Path, choice: int, which: int, value: int
) -> None:
    outcome = model_dir(tiny_model, choice, which, value, tmp_path)
    assert outcome.status in ("ok", "rejected"), outcome.detail


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(tokens=st.lists(st.text(st.characters(exclude_categories=("Cs", "Z", "Cc")), min_size=1, max_size=5),
                       min_size=1, max_size=8))
@example(tokens=["0", "\xad"]).via("a soft hyphen alone: a blank token")
@example(tokens=["\xad"]).via("a line of it: no sentence")
def test_fuzz_random_tokens_parse_to_trees_that_read_back(pipelines: None, tokens: list[str]) -> None:
    """Property: any line of tokens (--tokenized) parses to one readable tree over the PTB-spelled tokens."""
    from glmnlp.treebank.fileio import INVISIBLE
    from glmnlp.treebank.trees import escape_brackets

    line = " ".join(tokens)
    # Unicode spaces inside a "token" split it, as on the command line; a token of invisible characters only (a soft
    # hyphen, a zero-width space) is blank, as the tokenizer documents (its choice 10), and a line of them no sentence
    words = [w for w in line.split() if w.strip(INVISIBLE)]
    outcome = parse_cli((line + "\n").encode("utf-8"), "tokens", "brackets")
    if not words:
        assert outcome.status == "rejected" and "empty input: nothing to parse" in outcome.detail, outcome.detail
        return
    assert outcome.status == "ok", outcome.detail
    with cached_pipelines():
        from fuzz_targets import _run_main

        rc, out, _ = _run_main(["parse", "-q", "--tokenized"], (line + "\n").encode("utf-8"))
    from glmnlp.treebank.trees import parse_tree

    assert rc == 0 and parse_tree(out).leaves() == [escape_brackets(w) for w in words]
