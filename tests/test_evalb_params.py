"""EVALB parameter files: read as evalb.c reads them, written back by ``glmnlp evalb --show-params``."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from glmnlp.cli import main
from glmnlp.errors import InputError
from glmnlp.treebank.evalb import COLLINS_PARAMS, EvalbParams, format_params, parse_params, read_params

EVALB = Path(__file__).parent / "data" / "evalb"


def test_evalb_collins_prm_equals_builtin_default() -> None:
    """COLLINS.prm parses to COLLINS_PARAMS, the default of every scoring function."""
    assert read_params(EVALB / "COLLINS.prm") == COLLINS_PARAMS


def test_evalb_sample_prm_settings() -> None:
    """sample.prm: ':' but not '.' deleted, T = TT, This = this; evalb.c defaults for the rest."""
    params = read_params(EVALB / "sample.prm")
    assert params == EvalbParams(
        debug=0,
        max_error=10,
        cutoff_len=40,
        labeled=True,
        delete_labels=("TOP", "-NONE-", ",", ":", "``", "''"),
        delete_labels_for_length=("-NONE-",),
        eq_labels=(("T", "TT"),),
        eq_words=(("This", "this"),),
    )


@pytest.mark.parametrize(
    ("text", "line", "fragment"),
    [
        ("# c\nLABELED x\n", 2, "LABELED needs one integer"),
        ("DEBUG 0\n\nFOO 1\n", 3, "unknown keyword 'FOO'"),
        ("EQ_LABEL ADVP\n", 1, "requires two values"),
        ("DELETE_LABEL\n", 1, "needs exactly one label"),
        ("DEBUG 1\n", 1, "DEBUG above 0 (evalb's per-sentence debug listing) is not reproduced"),
        ("CUTOFF_LEN -3\n", 1, "must not be negative"),
        ("LABELED 1\n  DELETE_LABEL TOP\n", 2, "a keyword must begin the line"),  # was "unknown keyword 'DELETE_LABEL'"
        (" \u00a0\u00a0\u00a0\n", 1, "a keyword must begin the line"),  # was an IndexError
        # an old Mac's line ends: one comment line to evalb.c, so no setting at all, silently (TOP, . scored)
        ("# saved on a Mac\rDELETE_LABEL TOP\rDELETE_LABEL .\r", 1, "a lone carriage return ends this line"),
        ("DELETE_LABEL TOP\r\nDELETE_LABEL .\r\nDELETE_LABEL ,\rX 1\r\n", 3, "a lone carriage return ends this line"),
    ],
)
def test_evalb_params_errors_name_the_line(text: str, line: int, fragment: str) -> None:
    """A malformed parameter file raises InputError at the offending line."""
    with pytest.raises(InputError) as info:
        parse_params(text, "x.prm")
    assert info.value.line == line and info.value.source == "x.prm" and fragment in info.value.reason


def test_evalb_params_scalars_last_wins_lists_accumulate() -> None:
    """Repeated scalar keywords keep the last value, list keywords accumulate; LABELED 0 = unlabeled."""
    params = parse_params("CUTOFF_LEN 10\nCUTOFF_LEN 25\nLABELED 0\nDELETE_LABEL A\nDELETE_LABEL B\n")
    assert params.cutoff_len == 25 and not params.labeled and params.delete_labels == ("A", "B")


_LABEL = st.text(st.characters(min_codepoint=33, max_codepoint=0x2FF, blacklist_characters="#",
                                blacklist_categories=("Zs", "Cc")), min_size=1, max_size=6)  # a label holds no space


@given(st.builds(EvalbParams, max_error=st.integers(0, 10**6), cutoff_len=st.integers(0, 10**6), labeled=st.booleans(),
                 delete_labels=st.lists(_LABEL, max_size=4).map(tuple),
                 delete_labels_for_length=st.lists(_LABEL, max_size=2).map(tuple),
                 eq_labels=st.lists(st.tuples(_LABEL, _LABEL), max_size=3).map(tuple),
                 eq_words=st.lists(st.tuples(_LABEL, _LABEL), max_size=3).map(tuple),
                 quote_labels=st.lists(_LABEL, max_size=2).map(tuple)))
def test_written_parameters_read_back_as_the_same_settings(params: EvalbParams) -> None:
    """``format_params`` writes what ``parse_params`` reads back unchanged (the settings a .prm file can hold)."""
    assert parse_params(format_params(params)) == params


def test_evalb_show_params_writes_the_settings_in_use(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """``evalb --help`` showed ``-p COLLINS.prm``, a file glmnlp does not ship, and nothing printed the built-in
    settings a user with other punctuation tags (UD's PUNCT) must start a .prm file from: ``--show-params`` prints
    them (with -p, -c and -e applied), and scores nothing."""
    assert main(["evalb", "--show-params"]) == 0
    shown = capsys.readouterr().out
    assert parse_params(shown) == COLLINS_PARAMS == read_params(EVALB / "COLLINS.prm")
    mine = tmp_path / "mine.prm"
    mine.write_text(shown + "DELETE_LABEL PUNCT\n", encoding="utf-8")
    assert main(["evalb", "-p", str(mine), "-c", "100", "--show-params"]) == 0
    assert parse_params(capsys.readouterr().out) == EvalbParams(**{
        **{f: getattr(COLLINS_PARAMS, f) for f in EvalbParams.__slots__},  # type: ignore[attr-defined]
        "cutoff_len": 100, "delete_labels": (*COLLINS_PARAMS.delete_labels, "PUNCT")})
    assert main(["evalb", "--show-params", "--strip-punct"]) == 0  # no .prm keyword: said in a comment
    shown = capsys.readouterr().out
    assert shown.endswith("\n# and --strip-punct, given with the file (no .prm keyword)\n")
    assert parse_params(shown) == COLLINS_PARAMS
    assert main(["evalb", "--show-params", str(mine), str(mine)]) == 2
    assert "--show-params takes no GOLD/TEST files" in capsys.readouterr().err
    assert main(["evalb", "--help"]) == 0 and "COLLINS.prm gold" not in capsys.readouterr().out


def test_evalb_show_params_refuses_summary_only(capsys: pytest.CaptureFixture[str]) -> None:
    """``--show-params --summary-only`` printed the settings with status 0, the option doing nothing, where an option
    without effect with the others given is a usage error (docs/cli.md), as GOLD/TEST and --demo are there."""
    assert main(["evalb", "--show-params", "--summary-only"]) == 2
    out, err = capsys.readouterr()
    assert out == "" and "--summary-only applies to a report: --show-params scores nothing" in err
