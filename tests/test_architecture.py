"""The design guide's picture of the rooms and their imports is the code's (issue 38, item 7)."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[1]


def script() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "architecture", ROOT / "scripts" / "architecture.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_guides_picture_is_the_codes() -> None:
    drawn = script()
    held = drawn.in_guide((ROOT / "guides" / "design.md").read_text(encoding="utf-8"))
    assert held is not None, "guides/design.md lost its architecture markers"
    assert held == drawn.picture(), "run: python scripts/architecture.py --write"


def test_the_picture_follows_the_imports() -> None:
    drawn = script()
    arrows = drawn.edges()
    assert ("notation", "rules") in arrows and ("site", "similar") in arrows
    assert not any(target in ("site", "cli") for _source, target in arrows - {("cli", "site")})
    assert ("rules", "notation") not in arrows  # the layers point down
    assert "    checkpage --> checker" in drawn.picture()
