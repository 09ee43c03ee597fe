"""Shared fixtures. Tests read only files shipped in this repository (tests/data, package data)."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

settings.register_profile("ci", max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("ci")

TEST_DATA = Path(__file__).parent / "data"


@pytest.fixture(scope="session")
def test_data() -> Path:
    """Folder of the test fixtures (reference EVALB outputs, small corpora)."""
    return TEST_DATA
