"""The criterion details in every language: the same messages, the same arguments."""

from __future__ import annotations

import string

import pytest

from rulebook_build.checker.messages import IDS, render
from rulebook_build.words import text


def fields(template: str) -> list[str]:
    return sorted(name for _, name, _, _ in string.Formatter().parse(template) if name is not None)


@pytest.mark.parametrize("lang", ["nl", "fy"])
def test_every_message_is_translated_with_the_same_arguments(lang: str) -> None:
    """The catalog's text of each message has the English text's arguments (that each is
    translated at all is tests/words/test_catalogs.py's)."""
    wrong = [m for m in sorted(IDS) if fields(text(m, lang)) != fields(text(m, "en"))]
    assert wrong == []


def test_list_arguments_are_written_item_by_item_with_translated_colours() -> None:
    men: list[list[str | int]] = [["white", 50], ["black", 5]]
    assert render("d_fail", {"men": men}) == (
        "idle: white man on 50; black man on 5 (the solution works without it, with no second "
        "solution and a legal start)"
    )
    assert render("d_fail", {"men": men}, "nl") == (
        "overbodig: witte schijf op 50; zwarte schijf op 5 (de oplossing werkt ook zonder, "
        "zonder nevenoplossing en met een reglementaire beginstand)"
    )


def test_an_unknown_message_or_language_gives_none() -> None:
    assert render("no such message", {}) is None
    assert render("b3_pass", {}, "de") is None
    assert render("b3_fail", {}) is None  # its argument is missing
