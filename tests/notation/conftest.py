"""Shared fixtures of the notation tests."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.datafiles import CONFORMANCE


@pytest.fixture
def conformance() -> Path:
    """The conformance files' folder (in the repository, so never absent)."""
    return CONFORMANCE
