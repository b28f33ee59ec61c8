"""Shared fixtures of the notation tests."""

from __future__ import annotations

from pathlib import Path

import pytest

SHARED = Path(__file__).resolve().parents[2].parent / "shared"
"""``/work/shared``, next to the repository (the PDN conformance files live there)."""

CONFORMANCE = SHARED / "pdn-conformance" / "games"


def conformance_files(kind: str) -> list[Path]:
    """The conformance files of ``games/<kind>/``, or [] when the folder is absent."""
    folder = CONFORMANCE / kind
    return sorted(folder.glob("*.pdn")) if folder.is_dir() else []


@pytest.fixture
def conformance() -> Path:
    if not CONFORMANCE.is_dir():
        pytest.skip(f"PDN conformance files not found at {CONFORMANCE}")
    return CONFORMANCE
