"""The jury report as a reader sees it: every entry's findings whole, at a desktop's width and
on a phone, in the real site's PWCP-2 report."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from .conftest import CHROMIUM, Site
from .test_browser import serve

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(
        not CHROMIUM.exists(),
        reason="Debian's Chromium is not installed at /usr/bin/chromium (apt-get install chromium)",
    ),
]

FAULT = "meer dan één winnende sleutelzet"
"""The start of A4's fault line, which the report used to clip ("meer dan één winn…")."""


@pytest.fixture(scope="module")
def server(real_site: Site) -> Iterator[str]:
    yield from serve(real_site)


@pytest.mark.parametrize("width", [1280, 390])
def test_a4s_whole_fault_line_is_in_view(browser: Any, server: str, width: int) -> None:
    context = browser.new_context(viewport={"width": width, "height": 900})
    try:
        page = context.new_page()
        page.goto(f"{server}/problemen/pwcp-2/")
        cell = page.locator('tr[data-title="A4"] .rb-cell-findings')
        cell.scroll_into_view_if_needed()
        assert FAULT in cell.inner_text()
        shown = cell.evaluate(
            """cell => {
                const box = cell.getBoundingClientRect();
                const frame = cell.closest('.rb-table-scroll').getBoundingClientRect();
                const clipped = [...cell.querySelectorAll('li')]
                    .some(li => li.scrollWidth > li.clientWidth);
                return {inside: box.left >= frame.left - 0.5 && box.right <= frame.right + 0.5,
                        scrolls: cell.closest('.rb-table-scroll').scrollWidth
                                 > cell.closest('.rb-table-scroll').clientWidth + 0.5,
                        clipped: clipped, width: box.width};
            }"""
        )
        # the whole line within the report's frame, with no sideways scrolling to reach it
        assert shown["inside"] and not shown["scrolls"] and not shown["clipped"], shown
        assert shown["width"] > 150, shown  # a readable column, not one word a line
        thumb = page.locator('tr[data-title="A4"] img.rb-thumb').bounding_box()
        assert thumb is not None and thumb["width"] >= 64  # a diagram one can read
    finally:
        context.close()
