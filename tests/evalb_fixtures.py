"""The folder of the reference evalb files (tests/data/evalb): what tests/test_evalb*.py share."""

from __future__ import annotations

from pathlib import Path


EVALB = Path(__file__).parent / "data" / "evalb"
