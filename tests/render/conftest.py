"""Golden files: ``RULEBOOK_REGEN_GOLDEN=1 pytest tests/render`` rewrites them."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import pytest

GOLDEN = Path(__file__).resolve().parent / "golden"
REGENERATE = os.environ.get("RULEBOOK_REGEN_GOLDEN") == "1"


@pytest.fixture
def golden() -> Callable[[str, str], None]:
    """``golden(name, text)``: compare ``text`` with ``golden/<name>`` (or rewrite it)."""

    def check(name: str, text: str) -> None:
        path = GOLDEN / name
        if REGENERATE:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
            return
        if not path.exists():
            pytest.fail(f"missing golden file {path}; run with RULEBOOK_REGEN_GOLDEN=1")
        expected = path.read_text(encoding="utf-8")
        assert text == expected, (
            f"{name} differs from its golden file; if the change is wanted, "
            "rerun with RULEBOOK_REGEN_GOLDEN=1 and review the diff"
        )

    return check
