"""The check page's words for what can go wrong with the site's tables or the browser, in
each of the page's languages (the browser tests read the English and Dutch ones on the page:
``test_checker_hosts.py``)."""

from __future__ import annotations

import html
import json
import re

import pytest

from rulebook_build.checkpage import LABELS, render_checker
from rulebook_build.site.problems import LABELS as SITE_LABELS

WORDS = ("table_faults", "fault_fetch", "fault_checksum", "needs_webassembly", "needs_worker")


def test_every_language_has_the_same_words() -> None:
    assert set(LABELS) == {"en", "nl", "fy"}
    assert set(LABELS["nl"]) == set(LABELS["en"]) == set(LABELS["fy"])


@pytest.mark.parametrize("lang", ["en", "nl", "fy"])
def test_the_page_carries_its_languages_words_for_tables_left_out(lang: str) -> None:
    labels = LABELS[lang]
    assert "{tables}" in labels["table_faults"]
    assert "'rulebook check'" in labels["table_faults"]
    assert "WebAssembly" in labels["needs_webassembly"] and "Web Workers" in labels["needs_worker"]
    if lang != "en":  # translated, not the English words
        assert all(labels[key] != LABELS["en"][key] for key in WORDS)
    page = render_checker(
        lang=lang,
        root="../",
        available=True,
        address="",
        home="../",
        grades=SITE_LABELS[lang],
        tables={"international": {"digest": "0" * 64, "pieces": 5}},
    )
    found = re.search(r'class="rb-checker-strings"[^>]*>(.*?)</script>', page, re.DOTALL)
    assert found is not None
    strings = json.loads(html.unescape(found.group(1)))
    assert {key: strings[key] for key in WORDS} == {key: labels[key] for key in WORDS}
