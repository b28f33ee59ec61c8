"""The check page on hosts unlike the loopback address the other browser tests use: a plain
HTTP origin that is not secure (a club's intranet, a test server), and a host that fails some
table requests.  The page must give the command line's verdict on the first, and on the second
the same verdict or a less decided one, saying in the page's language which tables it did
without.

A non-secure origin without a second machine: the site is served on the loopback address and
opened as ``http://checker.test:PORT/`` with Chromium's ``--host-resolver-rules`` mapping that
name to 127.0.0.1; Chromium treats only loopback names and addresses as secure, so there the
page has no ``crypto.subtle`` (checked in the test).
"""

from __future__ import annotations

import functools
import http.server
import io
import json
import os
import re
import threading
import urllib.parse
from collections.abc import Iterator
from typing import Any, ClassVar

import pytest

from rulebook_build.checkpage import pyodide_folder

from .conftest import ARGS, CHROMIUM, REPOSITORY, Site
from .test_browser import Console, _QuietHandler
from .test_checker_page import SAMPLE, command_line, same_judgement, wait_for_report

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(
        not CHROMIUM.exists(),
        reason="Debian's Chromium is not installed at /usr/bin/chromium (apt-get install chromium)",
    ),
]

HOST = "checker.test"


class _FaultyHandler(_QuietHandler):
    """The static host of the other tests, failing as told: a 404 for the table files whose
    name starts with one of ``missing``; the first range of a file starting with one of
    ``short`` cut short by ten bytes (a 206 whose body is shorter than its range); the whole
    file (200) where a range of a file starting with one of ``whole`` was asked; and a 503 for
    every other table request of the rest."""

    missing: ClassVar[tuple[str, ...]] = ()
    short: ClassVar[tuple[str, ...]] = ()
    whole: ClassVar[tuple[str, ...]] = ()
    table_requests: ClassVar[list[str]] = []
    answers: ClassVar[list[tuple[str, int]]] = []
    """Each table request's file and the status it was answered with (206 for a range)."""
    cut: ClassVar[set[str]] = set()
    lock: ClassVar[threading.Lock] = threading.Lock()

    def send_head(self) -> Any:
        name = self.path.rsplit("/", 1)[-1]
        if not name.endswith((".blocks", ".pages")):
            return super().send_head()
        with _FaultyHandler.lock:
            _FaultyHandler.table_requests.append(name)
            count = len(_FaultyHandler.table_requests)
        if name.startswith(self.missing):
            self.send_error(404)
            return None
        if name.startswith(self.short):
            if name in _FaultyHandler.cut:
                return super().send_head()
            _FaultyHandler.cut.add(name)
            return self.cut_short()
        if count % 2 == 0:
            _FaultyHandler.answers.append((name, 503))
            self.send_error(503)
            return None
        if name.startswith(self.whole):
            del self.headers["Range"]
        _FaultyHandler.answers.append((name, 206 if "Range" in self.headers else 200))
        return super().send_head()

    def cut_short(self) -> Any:
        wanted = re.fullmatch(r"bytes=(\d+)-(\d+)", self.headers.get("Range", ""))
        assert wanted is not None
        start, end = int(wanted.group(1)), int(wanted.group(2))
        path = self.translate_path(self.path)
        with open(path, "rb") as stream:
            stream.seek(start)
            data = stream.read(end - start + 1)[:-10]
        self.send_response(206)
        self.send_header("Content-Type", "application/octet-stream")
        self.send_header("Content-Range", f"bytes {start}-{end}/{os.path.getsize(path)}")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        return io.BytesIO(data)


def serving(site: Site, handler: type[http.server.SimpleHTTPRequestHandler]) -> Iterator[int]:
    assert site.result.returncode == 0, site.result.stderr
    if pyodide_folder(REPOSITORY) is None:
        pytest.fail("node_modules/pyodide is missing: run 'npm ci' (scripts/test.sh does)")
    httpd = http.server.ThreadingHTTPServer(
        ("127.0.0.1", 0), functools.partial(handler, directory=str(site.site))
    )
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield httpd.server_address[1]
    httpd.shutdown()
    httpd.server_close()


@pytest.fixture(scope="module")
def insecure_browser() -> Iterator[Any]:
    """Chromium resolving checker.test to the loopback address."""
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as p:
        launched = p.chromium.launch(
            executable_path=str(CHROMIUM),
            args=[*ARGS, f"--host-resolver-rules=MAP {HOST} 127.0.0.1"],
        )
        yield launched
        launched.close()


def open_sample(browser: Any, url: str) -> Any:
    context = browser.new_context(viewport={"width": 1100, "height": 1000})
    page = context.new_page()
    page.console = Console(page)  # type: ignore[attr-defined]
    page.goto(url + "#pdn=" + urllib.parse.quote(SAMPLE) + "&run=1")
    wait_for_report(page, timeout=180_000)
    return page


def record_of(page: Any) -> tuple[dict[str, Any], dict[str, Any]]:
    record = page.evaluate("() => document.querySelector('.rb-checker').rulebookChecker.lastRecord")
    problem = page.evaluate("() => document.querySelector('.rb-checker').rulebookChecker.problem()")
    return record, json.loads(problem)


@pytest.fixture(scope="module")
def plain_http(insecure_browser: Any, real_site: Site) -> Iterator[tuple[Any, int]]:
    """The sample judged on the page opened as http://checker.test:PORT/ (the page, and the
    port of the site's server)."""
    for port in serving(real_site, _QuietHandler):
        page = open_sample(insecure_browser, f"http://{HOST}:{port}/en/controleren/")
        yield page, port
        page.context.close()


def test_the_sample_is_judged_correct_over_plain_http_from_a_non_secure_origin(
    plain_http: tuple[Any, int],
) -> None:
    page, port = plain_http
    # the origin is not secure: the browser's own cryptography is not there
    assert page.evaluate("() => [window.isSecureContext, typeof crypto.subtle]") == [
        False,
        "undefined",
    ]
    assert page.url.startswith(f"http://{HOST}:{port}/")
    record, problem = record_of(page)
    assert record["grade"] == "correct"
    assert record["report"]["tables_error"] is None and record["report"]["table_faults"] == []
    assert record["report"]["downloaded"] > 0 and record["report"]["compiled"] is True
    # the command line's JSON; the nodes searched aside, which the loopback test compares
    # (``test_checker_page``): here only the origin differs
    expected = command_line(problem, 20.0)
    same_judgement({**record, "nodes": None}, {**expected, "nodes": None})
    assert page.console.problems == []  # type: ignore[attr-defined]


def test_a_failing_host_costs_tables_not_a_grade_and_the_page_says_which(
    insecure_browser: Any, real_site: Site, plain_http: tuple[Any, int]
) -> None:
    """A 404 for the class the sample reads most, a body cut short, a 503 for every other
    table request, and the whole file where ranges of another class were asked: the grade is
    the one the page gives from a sound host, or undecided, and the page names the class it
    did without (in English here; the Dutch and Frisian words: ``test_checker_strings``)."""
    clean, _problem = record_of(plain_http[0])
    _FaultyHandler.missing = ("m0k1-m2k2.",)
    _FaultyHandler.short = ("m0k2-m1k2.",)
    _FaultyHandler.whole = ("m1k1-m1k1.",)
    _FaultyHandler.table_requests.clear()
    _FaultyHandler.answers.clear()
    _FaultyHandler.cut.clear()
    for port in serving(real_site, _FaultyHandler):
        page = open_sample(insecure_browser, f"http://{HOST}:{port}/en/controleren/")
        record, _problem = record_of(page)
        assert record["grade"] in (clean["grade"], "undecided")
        for name, criterion in record["criteria"].items():
            assert criterion["status"] in (clean["criteria"][name]["status"], "undecided")
        # every 503 was tried again and served: only the class the host does not have is out
        assert record["report"]["table_faults"] == [
            {
                "class": "m0k1-m2k2",
                "kind": "fetch",
                "reason": "m0k1-m2k2.pages could not be fetched (HTTP 404)",
            }
        ]
        assert (
            "Endgame tables this check had to do without: m0k1-m2k2 (could not be fetched from "
            "the site). A table left out can leave undecided what 'rulebook check' decides"
        ) in page.locator(".rb-progress").inner_text()
        # the whole file, where ranges were asked, was sent once and kept, where the sample
        # reads it in dozens of ranges from a host that answers them; the requests of it
        # before met a 503 (every other table request does, whatever its file) and were
        # tried again one at a time
        asked = _FaultyHandler.table_requests
        sent = [status for name, status in _FaultyHandler.answers if name == "m1k1-m1k1.blocks"]
        assert sent.count(200) == 1 and set(sent) <= {200, 503}, sent
        assert asked.count("m0k1-m2k2.pages") == 1  # a 404 is not asked again
        # the body cut short was asked again, and served
        assert _FaultyHandler.cut and asked.count("m0k2-m1k2.blocks") >= 2
        page.context.close()


def test_a_browser_without_webassembly_is_told_what_is_missing_in_its_language(
    insecure_browser: Any, real_site: Site
) -> None:
    """Nothing else the checker needs is missing on plain HTTP; a browser that lacks
    WebAssembly (switched off) is told so, and why, instead of a checker that never starts."""
    for port in serving(real_site, _QuietHandler):
        for path, said in [
            ("en/controleren/", "This browser cannot run the checker: it has no WebAssembly"),
            ("controleren/", "Deze browser kan de controle niet uitvoeren: hij heeft geen WebAs"),
        ]:
            context = insecure_browser.new_context()
            page = context.new_page()
            page.add_init_script("delete globalThis.WebAssembly")
            page.goto(f"http://{HOST}:{port}/{path}")
            page.wait_for_function(
                "() => document.querySelector('.rb-checker').hasAttribute('data-missing')"
            )
            assert page.locator(".rb-progress").inner_text().startswith(said)
            assert page.locator(".rb-check").is_disabled()
            context.close()
