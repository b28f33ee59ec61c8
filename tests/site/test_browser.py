"""The solution player in Debian's Chromium, driven by Playwright, on the tiny built site.

Skipped when ``/usr/bin/chromium`` is missing (``apt-get install chromium``); Playwright's
own browser downloads are never used.
"""

from __future__ import annotations

import functools
import http.server
import io
import os
import re
import threading
from collections.abc import Iterator
from typing import Any, ClassVar

import pytest

from rulebook_build.notation.pdn import read_pdn_file
from rulebook_build.notation.replay import replay
from rulebook_build.rules import Position

from .conftest import CHROMIUM, REPOSITORY, Site

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(
        not CHROMIUM.exists(),
        reason="Debian's Chromium is not installed at /usr/bin/chromium (apt-get install chromium)",
    ),
]

playwright_api = pytest.importorskip("playwright.sync_api")


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    """A static host as the site's are: it answers a single byte range (``Range: bytes=a-b``)
    with 206, which the check page's tables need, and ``.wasm`` as ``application/wasm``."""

    # as web servers do (nginx's tcp_nodelay): without it an answer's body may wait for the
    # acknowledgement of its headers (1 to 2 ms a request here, a connection each; some 40 ms
    # on a kept-alive one, benchmarks/browser_checker.py's home host)
    disable_nagle_algorithm = True
    extensions_map: ClassVar[dict[str, str]] = {
        **http.server.SimpleHTTPRequestHandler.extensions_map,
        ".wasm": "application/wasm",
        ".mjs": "text/javascript",
    }
    ranges: ClassVar[list[tuple[str, int]]] = []
    """Every range served (path, bytes), for the tests that count what the page fetched."""

    def log_message(self, format: str, *args: Any) -> None:
        pass

    def send_head(self) -> Any:
        wanted = re.fullmatch(r"bytes=(\d+)-(\d+)", self.headers.get("Range", ""))
        path = self.translate_path(self.path)
        if wanted is None or not os.path.isfile(path):
            return super().send_head()
        start, end = int(wanted.group(1)), int(wanted.group(2))
        size = os.path.getsize(path)
        if start > end or end >= size:
            self.send_error(416)
            return None
        with open(path, "rb") as stream:
            stream.seek(start)
            data = stream.read(end - start + 1)
        self.send_response(206)
        self.send_header("Content-Type", self.guess_type(path))
        self.send_header("Content-Range", f"bytes {start}-{end}/{size}")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        _QuietHandler.ranges.append((self.path, len(data)))
        return io.BytesIO(data)


def serve(site: Site) -> Iterator[str]:
    """Serve a built site on a free port of the loopback address."""
    assert site.result.returncode == 0, site.result.stderr
    handler = functools.partial(_QuietHandler, directory=str(site.site))
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}"
    httpd.shutdown()
    httpd.server_close()


@pytest.fixture(scope="module")
def server(tiny_site: Site) -> Iterator[str]:
    yield from serve(tiny_site)


@pytest.fixture(scope="module")
def real_server(real_site: Site) -> Iterator[str]:
    yield from serve(real_site)


class Console:
    def __init__(self, page: Any) -> None:
        self.problems: list[str] = []
        page.on("console", self._message)
        page.on("pageerror", lambda error: self.problems.append(f"page error: {error}"))
        page.on("requestfailed", lambda request: self.problems.append(f"failed: {request.url}"))

    def _message(self, message: Any) -> None:
        if message.type in ("error", "warning"):
            self.problems.append(f"{message.type}: {message.text}")


LIVE_PIECES = """(id) => [...document.querySelectorAll(`#${id} .rb-player-live .rb-piece`)]
    .map(p => p.getAttribute('data-square') + ':' + (p.classList.contains('rb-w') ? 'w' : 'b'))
    .sort()"""


def live_pieces(page: Any, element_id: str) -> list[str]:
    result = page.evaluate(LIVE_PIECES, element_id)
    assert isinstance(result, list)
    return sorted(result)


def status(page: Any, element_id: str) -> str:
    return str(page.locator(f"#{element_id} .rb-player-status").text_content())


def wait_status(page: Any, element_id: str, text: str) -> None:
    page.wait_for_function(
        "([id, text]) => document.querySelector(`#${id} .rb-player-status`).textContent === text",
        arg=[element_id, text],
        timeout=5000,
    )


def test_keyboard_steps_through_the_solution(browser: Any, server: str) -> None:
    context = browser.new_context(viewport={"width": 1000, "height": 900})
    page = context.new_page()
    console = Console(page)
    page.goto(f"{server}/")
    player = page.locator("#diagram-2")
    player.scroll_into_view_if_needed()
    # the script took over: still diagrams hidden, live board and buttons shown
    assert page.locator("#diagram-2 .rb-player-static").is_hidden()
    assert page.locator("#diagram-2 .rb-player-live svg").is_visible()
    assert status(page, "diagram-2") == "Beginstand"
    assert live_pieces(page, "diagram-2") == ["18:b", "27:b", "28:b", "32:w"]

    # record every square the moving piece stands on: captures go leg by leg
    page.evaluate(
        """() => {
        window.rbTrail = [];
        const layer = document.querySelector('#diagram-2 .rb-player-live .rb-pieces');
        new MutationObserver(records => {
            for (const r of records) {
                if (r.type === 'attributes' && r.target.classList.contains('rb-w'))
                    window.rbTrail.push(r.target.getAttribute('data-square'));
            }
        }).observe(layer, {attributes: true, subtree: true, attributeFilter: ['data-square']});
    }"""
    )
    player.focus()
    page.keyboard.press("ArrowRight")
    page.wait_for_function(
        "() => document.querySelectorAll('#diagram-2 .rb-player-live .rb-ghost').length === 2",
        timeout=5000,
    )  # both captured pieces still on the board, as ghosts, until the move is complete
    wait_status(page, "diagram-2", "Zet 1: 32x12")
    assert page.evaluate("() => window.rbTrail") == ["23", "12"]
    assert live_pieces(page, "diagram-2") == ["12:w", "27:b"]
    assert page.locator("#diagram-2 .rb-player-move.rb-current").text_content() == "1. 32x12"

    page.keyboard.press("ArrowRight")
    wait_status(page, "diagram-2", "Zet 2: 27-31")
    assert live_pieces(page, "diagram-2") == ["12:w", "31:b"]
    page.keyboard.press("ArrowLeft")
    wait_status(page, "diagram-2", "Zet 1: 32x12")
    assert live_pieces(page, "diagram-2") == ["12:w", "27:b"]
    page.keyboard.press("Home")
    wait_status(page, "diagram-2", "Beginstand")
    assert live_pieces(page, "diagram-2") == ["18:b", "27:b", "28:b", "32:w"]
    page.keyboard.press("End")
    wait_status(page, "diagram-2", "Zet 2: 27-31")
    assert (
        page.locator('#diagram-2 [data-action="forward"]').get_attribute("aria-disabled") == "true"
    )

    # Space plays from the start to the end
    page.keyboard.press("Home")
    page.keyboard.press("Space")
    assert page.locator('#diagram-2 [data-action="play"]').get_attribute("aria-label") == "Pauzeren"
    wait_status(page, "diagram-2", "Zet 2: 27-31")
    page.wait_for_function(
        "() => !document.querySelector('#diagram-2').classList.contains('rb-playing')"
    )
    assert live_pieces(page, "diagram-2") == ["12:w", "31:b"]
    assert page.locator("#diagram-2 .rb-player-status").get_attribute("aria-live") == "polite"
    assert console.problems == []
    context.close()


def test_buttons_reduced_motion_and_english(browser: Any, server: str) -> None:
    context = browser.new_context(reduced_motion="reduce")
    page = context.new_page()
    console = Console(page)
    page.goto(f"{server}/en/")
    page.locator('#diagram-1 [data-action="forward"]').click()
    wait_status(page, "diagram-1", "Move 1: 32x12")  # at once: no animation to wait for
    assert live_pieces(page, "diagram-1") == ["12:w", "27:b"]
    page.locator('#diagram-1 [data-action="first"]').click()
    wait_status(page, "diagram-1", "Starting position")
    assert console.problems == []
    context.close()


def test_without_javascript_and_in_print(browser: Any, server: str) -> None:
    context = browser.new_context(java_script_enabled=False)
    page = context.new_page()
    page.goto(f"{server}/")
    assert page.locator("#diagram-2 .rb-player-begin svg").is_visible()
    assert page.locator("#diagram-2 .rb-player-end svg").is_visible()
    assert page.locator("#diagram-2 .rb-player-moves").is_visible()
    assert page.locator("#diagram-2 .rb-player-bar").is_hidden()
    context.close()

    context = browser.new_context()
    page = context.new_page()
    page.goto(f"{server}/")
    page.emulate_media(media="print")
    assert page.locator("#diagram-2 .rb-player-end svg").is_visible()
    assert page.locator("#diagram-2 .rb-player-begin").is_hidden()
    assert page.locator("#diagram-2 .rb-player-live").is_hidden()
    assert page.locator("#diagram-2 .rb-player-bar").is_hidden()
    context.close()


def test_search_finds_a_move_and_a_word(browser: Any, server: str) -> None:
    context = browser.new_context(viewport={"width": 1200, "height": 900})
    page = context.new_page()
    console = Console(page)
    for path, query, expected in (
        ("/", "32-28", "regels/schijf/"),
        ("/", "meerslag", "#meerslag"),
        ("/en/", "majority", "/en/"),
    ):
        page.goto(f"{server}{path}")
        page.wait_for_load_state("networkidle")  # the search index is loaded
        page.locator("label.md-search__icon, .md-search__input").first.click()
        page.locator("input.md-search__input").fill("")
        page.keyboard.type(query)  # Material searches on key events
        # Material redraws the list after every key: wait for the expected result, then read
        # every link in one go (reading them one by one raced a redraw on a busy machine)
        links = ".md-search-result__item a"
        page.wait_for_function(
            "([links, expected]) => [...document.querySelectorAll(links)]"
            ".some(a => (a.getAttribute('href') || '').includes(expected))",
            arg=[links, expected],
            timeout=10000,
        )
        hrefs = page.locator(links).evaluate_all(
            "found => found.map(a => a.getAttribute('href') || '')"
        )
        assert any(expected in href for href in hrefs), (query, hrefs)
        if path == "/en/":
            assert all("/en/" in href for href in hrefs), hrefs
    assert console.problems == []
    context.close()


def test_keyboard_steps_through_a_problem_of_the_collection(browser: Any, real_server: str) -> None:
    games, errors = read_pdn_file(REPOSITORY / "problems" / "examples" / "frisian-01.pdn")
    assert not errors
    replayed = replay(games[0])
    steps = replayed.main.moves

    def pieces(position: Position) -> list[str]:
        return sorted(
            f"{square}:{'w' if piece.is_white else 'b'}"
            for square, piece in position.pieces().items()
        )

    context = browser.new_context(viewport={"width": 1000, "height": 900})
    page = context.new_page()
    console = Console(page)
    page.goto(f"{real_server}/problemen/examples/frisian-01/")
    player = page.locator("#diagram-1")
    player.scroll_into_view_if_needed()
    assert status(page, "diagram-1") == "Beginstand"
    assert live_pieces(page, "diagram-1") == pieces(replayed.start)
    player.focus()
    page.keyboard.press("ArrowRight")
    wait_status(page, "diagram-1", f"Zet 1: {steps[0].notation}")
    assert live_pieces(page, "diagram-1") == pieces(steps[0].after)
    page.keyboard.press("End")
    wait_status(page, "diagram-1", f"Zet {len(steps)}: {steps[-1].notation}")
    assert live_pieces(page, "diagram-1") == pieces(replayed.end)
    assert console.problems == []
    context.close()


def _first_with(found: str) -> tuple[str, str, dict[str, Any]]:
    """The first problem of the collections whose stored verdict has ``found`` ("cooks", or
    "refutation" of the solution): its page address, collection and verdict."""
    from rulebook_build.site.problems import ProblemSite

    site = ProblemSite(REPOSITORY / "problems")
    for collection in site.collections:
        for entry in collection.entries:
            judged = site.record(entry)
            assert judged is not None
            record = judged.as_json()  # the stored record, as the site reads it back
            solution = record["solution"]
            assert isinstance(solution, dict)
            if (found == "cooks" and record["cooks"]) or (
                found == "refutation" and solution["refutation"]
            ):
                return f"problemen/{collection.slug}/{entry.slug}/", collection.slug, record
    raise AssertionError(f"no problem of the collections has {found}")


@pytest.mark.parametrize("found", ["cooks", "refutation"])
def test_keyboard_switches_to_a_cook_or_a_false_solution_and_steps_through_it(
    browser: Any, real_server: str, found: str
) -> None:
    path, _collection, record = _first_with(found)
    if found == "cooks":
        cook = record["cooks"][0]
        label, moves = f"Cook {cook['key']}", str(cook["line"]).split()
    else:
        label, moves = "Solution refuted", str(record["solution"]["refutation"]).split()
    context = browser.new_context(viewport={"width": 1000, "height": 900})
    page = context.new_page()
    console = Console(page)
    page.goto(f"{real_server}/en/{path}")
    player = page.locator("#diagram-1")
    player.scroll_into_view_if_needed()
    buttons = page.locator("#diagram-1 .rb-player-line")
    names = buttons.all_text_contents()
    assert names[0] == "Solution" and label in names, names
    start = live_pieces(page, "diagram-1")
    player.focus()
    # Down switches line by line; the status line (aria-live) says which line is shown
    for _ in range(names.index(label)):
        page.keyboard.press("ArrowDown")
    page.wait_for_function(
        "(text) => document.querySelector('#diagram-1 .rb-player-status').textContent"
        ".startsWith(text)",
        arg=f"Line: {label}.",
        timeout=5000,
    )
    assert buttons.nth(names.index(label)).get_attribute("aria-pressed") == "true"
    assert buttons.nth(0).get_attribute("aria-pressed") == "false"
    assert live_pieces(page, "diagram-1") == start  # the line starts at the start position
    shown = page.locator("#diagram-1 .rb-player-move").all_text_contents()
    assert [m.split(". ")[-1].replace("… ", "") for m in shown] == moves
    # step through the whole line: each move changes the board and is announced
    before = start
    for number, move in enumerate(moves, start=1):
        page.keyboard.press("ArrowRight")
        wait_status(page, "diagram-1", f"Move {number}: {move}")
        now = live_pieces(page, "diagram-1")
        assert now != before, move
        before = now
    assert page.locator('#diagram-1 [data-action="forward"]').get_attribute("aria-disabled") == (
        "true"
    )
    # Up goes back to the solution
    for _ in range(names.index(label)):
        page.keyboard.press("ArrowUp")
    wait_status(page, "diagram-1", "Solution.")
    assert live_pieces(page, "diagram-1") == start
    assert console.problems == []
    context.close()


def test_the_lines_are_written_out_without_javascript(browser: Any, real_server: str) -> None:
    path, _collection, record = _first_with("cooks")
    context = browser.new_context(java_script_enabled=False)
    page = context.new_page()
    page.goto(f"{real_server}/en/{path}")
    alternative = page.locator("#diagram-1 .rb-player-alt").first
    assert alternative.is_visible()
    assert f"Cook {record['cooks'][0]['key']}" in alternative.inner_text()
    assert alternative.locator("svg").is_visible()  # the position the line leads to
    context.close()


def test_the_contest_table_filters_and_sorts_without_a_reload(
    browser: Any, real_server: str
) -> None:
    context = browser.new_context(viewport={"width": 1200, "height": 900})
    page = context.new_page()
    console = Console(page)
    page.goto(f"{real_server}/en/problemen/pwcp-2/")
    rows = page.locator("#rb-report tbody tr")
    total = rows.count()
    assert total == 59
    page.evaluate("() => { window.rbSamePage = true; }")  # gone if the page reloads
    page.locator('[data-filter="grade"]').select_option("incorrect")
    visible = page.locator("#rb-report tbody tr:not([hidden])")
    grades = set(visible.evaluate_all("rows => rows.map(r => r.dataset.grade)"))
    assert grades == {"incorrect"}
    assert page.locator(".rb-count").text_content() == f"{visible.count()} of {total} shown"
    page.locator('[data-filter="grade"]').select_option("")
    page.locator('th[data-sort="pieces"] button').click()
    pieces = rows.evaluate_all("rows => rows.map(r => Number(r.dataset.pieces))")
    assert pieces == sorted(pieces)
    assert page.locator('th[data-sort="pieces"]').get_attribute("aria-sort") == "ascending"
    page.locator('th[data-sort="pieces"] button').click()
    pieces = rows.evaluate_all("rows => rows.map(r => Number(r.dataset.pieces))")
    assert pieces == sorted(pieces, reverse=True)
    assert page.evaluate("() => window.rbSamePage === true")
    assert console.problems == []
    context.close()


def test_the_index_finds_a_problem_by_composer(browser: Any, real_server: str) -> None:
    context = browser.new_context(viewport={"width": 390, "height": 844})
    page = context.new_page()
    console = Console(page)
    page.goto(f"{real_server}/en/problemen/")
    page.locator('[data-filter="text"]').fill("fedorov")
    visible = page.locator("#rb-problem-grid li:not([hidden])")
    assert visible.count() >= 1
    assert all("Fedorov" in text for text in visible.all_inner_texts())
    page.locator('[data-filter="text"]').fill("")
    page.locator('[data-filter="collection"]').select_option("pwcp-2")
    assert page.locator("#rb-problem-grid li:not([hidden])").count() == 59
    # usable at phone width: nothing wider than the screen
    width = page.evaluate("() => document.documentElement.scrollWidth")
    assert width <= 390, width
    assert console.problems == []
    context.close()
