"""The problems index keeps its filters and its search in the address (``tables.js``,
``data-state="url"``): Back from a problem, a reload and a shared link show the same rows.

Debian's Chromium through Playwright, on the project's own site (``real_site``); skipped when
``/usr/bin/chromium`` is missing.
"""

from __future__ import annotations

import functools
import http.server
import threading
from collections.abc import Iterator
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest

from .conftest import CHROMIUM, Site

pytestmark = [
    pytest.mark.browser,
    pytest.mark.site_build,
    pytest.mark.skipif(
        not CHROMIUM.exists(),
        reason="Debian's Chromium is not installed at /usr/bin/chromium (apt-get install chromium)",
    ),
]

pytest.importorskip("playwright.sync_api")

ROWS = "#rb-problem-grid li"
VISIBLE = "#rb-problem-grid li:not([hidden])"
ATTRIBUTES = """rows => rows.map(r => ({
    grade: r.dataset.grade, variant: r.dataset.variant, collection: r.dataset.collection,
    pieces: r.dataset.pieces, text: r.dataset.text,
    href: r.querySelector('a').getAttribute('href')}))"""
HREFS = "rows => rows.map(r => r.querySelector('a').getAttribute('href'))"
CONTROLS = """() => Object.fromEntries([...document.querySelectorAll('.rb-filters [data-filter]')]
    .map(c => [c.dataset.filter, c.value]))"""


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:
        pass


@pytest.fixture(scope="module")
def server(real_site: Site) -> Iterator[str]:
    assert real_site.result.returncode == 0, real_site.result.stderr
    handler = functools.partial(_Quiet, directory=str(real_site.site))
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}"
    httpd.shutdown()
    httpd.server_close()


@pytest.fixture
def context(browser: Any) -> Iterator[Any]:
    made = browser.new_context(viewport={"width": 1280, "height": 900})
    yield made
    made.close()


def errors_of(page: Any) -> list[str]:
    problems: list[str] = []
    page.on("pageerror", lambda error: problems.append(str(error)))
    page.on(
        "console",
        lambda message: problems.append(message.text) if message.type == "error" else None,
    )
    return problems


def expected(rows: list[dict[str, str]], wanted: dict[str, str]) -> list[str]:
    """The links of the rows the filters keep, worked out here from the rows' data-
    attributes (not by the page's script)."""
    kept = []
    for row in rows:
        if wanted.get("variant") and row["variant"] != wanted["variant"]:
            continue
        if wanted.get("grade") and row["grade"] != wanted["grade"]:
            continue
        if wanted.get("collection") and row["collection"] != wanted["collection"]:
            continue
        if wanted.get("pieces"):
            low, high = (int(part) for part in wanted["pieces"].split("-"))
            if not low <= int(row["pieces"]) <= high:
                continue
        if not all(word in row["text"] for word in wanted.get("text", "").lower().split()):
            continue
        kept.append(row["href"])
    return kept


def query(page: Any) -> dict[str, list[str]]:
    return parse_qs(urlsplit(page.url).query)


def visible(page: Any) -> list[str]:
    result = page.locator(VISIBLE).evaluate_all(HREFS)
    assert isinstance(result, list)
    return result


def test_filters_and_search_survive_a_problem_and_back(context: Any, server: str) -> None:
    page = context.new_page()
    problems = errors_of(page)
    page.goto(f"{server}/en/problemen/")
    rows = page.locator(ROWS).evaluate_all(ATTRIBUTES)
    assert query(page) == {}
    page.locator('[data-filter="variant"]').select_option("international")
    page.locator('[data-filter="grade"]').select_option("correct")
    page.locator('[data-filter="text"]').fill("scheijen")
    wanted = {"variant": "international", "grade": "correct", "text": "scheijen"}
    shown = expected(rows, wanted)
    assert 0 < len(shown) < len(rows)
    assert visible(page) == shown
    assert query(page) == {
        "variant": ["international"],
        "grade": ["correct"],
        "search": ["scheijen"],
    }
    address = page.url

    page.locator(VISIBLE).first.locator("a").click()
    page.wait_for_url(lambda url: url.split("?")[0] != address.split("?")[0])
    assert page.locator(".rb-filters").count() == 0  # a problem's page, not the index
    page.go_back()
    assert page.url == address
    page.locator(f"{ROWS}[hidden]").first.wait_for(state="attached")
    controls = page.evaluate(CONTROLS)
    assert controls == {**dict.fromkeys(controls, ""), **wanted}
    assert visible(page) == shown
    count = f"{len(shown)} of {len(rows)} shown"
    assert page.locator(".rb-count").text_content() == count

    page.reload()
    assert page.evaluate(CONTROLS) == controls
    assert visible(page) == shown

    # a shared link: a reader who never touched the filters sees the same rows
    other = context.browser.new_context(viewport={"width": 390, "height": 844})
    shared = other.new_page()
    shared.goto(address)
    assert shared.evaluate(CONTROLS) == controls
    assert visible(shared) == shown
    other.close()
    assert problems == []


def test_a_link_with_filters_applies_them(context: Any, server: str) -> None:
    page = context.new_page()
    problems = errors_of(page)
    page.goto(f"{server}/problemen/?collection=pwcp-2&grade=incorrect&pieces=8-12#alle-problemen")
    rows = page.locator(ROWS).evaluate_all(ATTRIBUTES)
    wanted = {"collection": "pwcp-2", "grade": "incorrect", "pieces": "8-12"}
    shown = expected(rows, wanted)
    assert 0 < len(shown) < len(rows)
    controls = page.evaluate(CONTROLS)
    assert controls == {**dict.fromkeys(controls, ""), **wanted}
    assert visible(page) == shown
    assert page.locator(".rb-count").text_content() == f"{len(shown)} van {len(rows)} getoond"

    # a grade of more than one word, and a value the filter does not offer (dropped)
    page.goto(f"{server}/problemen/?grade=correct+with+remarks&variant=checkers")
    assert page.locator('[data-filter="grade"]').input_value() == "correct with remarks"
    assert page.locator('[data-filter="variant"]').input_value() == ""
    assert visible(page) == expected(rows, {"grade": "correct with remarks"})
    assert query(page) == {"grade": ["correct with remarks"]}

    # back to "all": the address loses the parameter and keeps its anchor
    page.goto(f"{server}/problemen/?variant=frisian#alle-problemen")
    assert visible(page) == expected(rows, {"variant": "frisian"})
    page.locator('[data-filter="variant"]').select_option("")
    assert query(page) == {}
    assert page.url.endswith("/problemen/#alle-problemen")
    assert len(visible(page)) == len(rows)
    assert problems == []


def test_without_javascript_a_link_with_filters_lists_everything(browser: Any, server: str) -> None:
    context = browser.new_context(java_script_enabled=False)
    page = context.new_page()
    page.goto(f"{server}/en/problemen/?variant=frisian&grade=incorrect&search=scheijen")
    total = page.locator(ROWS).count()
    assert total > 100
    assert page.locator(VISIBLE).count() == total
    assert page.locator(".rb-filters").is_hidden()
    context.close()
