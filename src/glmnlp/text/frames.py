"""The measures' rows as a ``pandas.DataFrame``: one place that knows the columns' types, for
:func:`glmnlp.measures` (``as_frame=True``) and :meth:`glmnlp.text.document.Document.measures_frame`.

An empty text's frame had every column ``object`` (pandas cannot tell a type from no rows), and concatenated with other
texts' frames (one empty cell in a column of stimuli) it made their numbers ``object`` too: ``describe()`` left them
out and group means came back as objects. A frame without rows has the types a frame of rows has.

``known`` is ``bool`` when every row has it, pandas' nullable ``boolean`` (``<NA>`` where a row lacks it) when some
row does not: a document saved before the column existed read back as float64 NaN, and ``frame[frame.known]`` raised.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

__all__ = ["rows_frame"]

#: The columns that are not floats, and their types
_NOT_FLOAT = {"item": "int64", "sentence": "int64", "index": "int64", "beam": "int64", "word": "str",
              "word_class": "str", "known": "bool", "units": "str"}


def rows_frame(pd: Any, rows: Sequence[Mapping[str, Any]], columns: Sequence[str]) -> Any:
    """The measures ``rows`` as a ``pandas.DataFrame`` (``pd``: pandas) of ``columns``, typed when it has no row."""
    frame = pd.DataFrame(rows, columns=list(columns))
    if not rows:
        return frame.astype({c: _NOT_FLOAT.get(c, "float64") for c in columns})
    if "known" in frame.columns and frame["known"].isna().any():  # saved before it existed
        frame["known"] = frame["known"].astype("boolean")
    return frame
