"""Measures of a document saved before the ``known`` column existed (its rows lack it; the document format's
version did not change): written and put in a frame as a missing value, not a ``KeyError`` or a float column."""

from __future__ import annotations

import csv
import io
import json
from typing import Any

import pytest

import glmnlp
from glmnlp.text.document import Document
from glmnlp.text.measures import write_measures


@pytest.fixture(scope="module")
def saved() -> dict[str, Any]:
    """A document as a release before the ``known`` column saved it: its rows without ``known``."""
    data = glmnlp.load()("The zorblax sat. The dog sat.", measures=True).to_dict()
    for sent in data["sentences"]:
        for row in sent["measures"]:
            del row["known"]
    return data


def test_a_document_without_known_writes_it_missing(saved: dict[str, Any]) -> None:
    """``write_measures(doc.measures, out, "tsv")`` raised ``KeyError: 'known'``; TSV/CSV write NA, JSON null."""
    doc = Document.from_dict(saved)
    for fmt, delim in (("tsv", "\t"), ("csv", ",")):
        out = io.StringIO()
        write_measures(doc.measures, out, fmt)
        table = list(csv.reader(io.StringIO(out.getvalue()), delimiter=delim))
        at = table[0].index("known")
        assert [line[at] for line in table[1:]] == ["NA"] * len(doc.measures)
    out = io.StringIO()
    write_measures(doc.measures, out, "json")
    assert [json.loads(line)["known"] for line in out.getvalue().splitlines()] == [None] * len(doc.measures)


def test_a_document_without_known_has_a_nullable_boolean_column(saved: dict[str, Any]) -> None:
    """The frame's ``known`` was float64 NaN (``frame[frame.known]`` raised); it is pandas' ``boolean``, all NA, and
    a document whose rows all have it keeps ``bool``."""
    frame = Document.from_dict(saved).measures_frame()
    assert str(frame["known"].dtype) == "boolean" and frame["known"].isna().all()
    assert len(frame[frame.known]) == 0
    mixed = json.loads(json.dumps(saved))
    mixed["sentences"][1]["measures"] = glmnlp.load()("The dog sat.", measures=True).to_dict()[
        "sentences"][0]["measures"]
    frame = Document.from_dict(mixed).measures_frame()
    assert str(frame["known"].dtype) == "boolean"
    assert frame["known"].isna().tolist() == [True] * 5 + [False] * 5
    assert frame[frame.known]["word"].tolist() == ["The", "dog", "sat", ".", "</s>"]
    whole = glmnlp.load()("The zorblax sat.", measures=True).measures_frame()
    assert whole["known"].dtype == bool


def test_a_document_s_infinite_surprisal_is_written_inf() -> None:
    """A document keeps an infinite prefix or surprisal as None (JSON has no inf); TSV wrote ``None`` there, which
    neither pandas nor R reads as a number. It is ``Inf``, as ``measures_frame`` reads it, and another None NA."""
    doc = glmnlp.load()("The dog sat.", measures=True).to_dict()
    row = doc["sentences"][0]["measures"][1]
    row.update(prefix=None, surprisal=None, entropy=None)
    out = io.StringIO()
    write_measures(Document.from_dict(doc).measures, out, "tsv")
    table = list(csv.DictReader(io.StringIO(out.getvalue()), delimiter="\t"))
    assert (table[1]["prefix"], table[1]["surprisal"], table[1]["entropy"]) == ("Inf", "Inf", "NA")
