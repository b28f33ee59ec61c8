"""The site's own stylesheets parse as written: every rule closes where it should.

A rule left open takes every later rule into its block as text a browser drops, so those rules
silently stop applying (the focused-button rule of ``draughts.css`` once lacked its ``}`` and
took the PDF link's and the engine opinions' rules with it).  Parsed with tinycss2 (which
WeasyPrint, the ``pdf`` extra, brings): no parse error anywhere, and inside a style rule only
declarations.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

tinycss2 = pytest.importorskip("tinycss2")

SITE = Path(__file__).resolve().parents[2] / "rulebook_build" / "site"
SHEETS = [SITE / "assets" / "draughts.css", SITE / "templates" / "print.css"]


def rules_of(nodes: list[Any]) -> list[Any]:
    """Every style rule, those inside @media blocks included."""
    found = []
    for node in nodes:
        kind = getattr(node, "type", "")
        assert kind != "error", f"{node}"
        if kind == "qualified-rule":
            found.append(node)
        elif (
            kind == "at-rule"
            and getattr(node, "content", None) is not None
            and node.lower_at_keyword in ("media", "supports")
        ):
            inner = tinycss2.parse_rule_list(
                node.content,
                skip_comments=True,
                skip_whitespace=True,
            )
            found += rules_of(inner)
    return found


@pytest.mark.parametrize("sheet", SHEETS, ids=[p.name for p in SHEETS])
def test_every_rule_holds_declarations_only(sheet: Path) -> None:
    text = sheet.read_text(encoding="utf-8")
    top = tinycss2.parse_stylesheet(text, skip_comments=True, skip_whitespace=True)
    rules = rules_of(top)
    assert rules, sheet
    for rule in rules:
        body = tinycss2.parse_declaration_list(
            rule.content,
            skip_comments=True,
            skip_whitespace=True,
        )
        for item in body:
            assert item.type == "declaration", (
                f"{sheet.name}: inside '{tinycss2.serialize(rule.prelude).strip()}': "
                f"{tinycss2.serialize([item])[:80]!r}"
            )
