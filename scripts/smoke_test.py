"""A smoke test of a deployed site: what a webmaster runs against the public address after
putting a build online (guides/webmasters.md, "After a deployment: the smoke test").

    python3 scripts/smoke_test.py https://dammen.example.org/
    python3 scripts/smoke_test.py https://example.org/dammen/ --no-security-headers

It asks the host what a browser will ask of it, and says for each answer whether it is what
the site needs (guides/webmasters.md, "Deploying to a static host"):

- pages: the home page and the check page of each language, the problems' index and the 404
  page, each ``text/html`` with the status it should have;
- types: Pyodide's module (``.mjs``) a JavaScript type, its WebAssembly and the proof search's
  ``application/wasm``, a style sheet ``text/css``, a search index ``application/json``;
- the security headers of SECURITY.md on a page and on the 404 page (``--no-security-headers``
  for a host that cannot send headers, such as GitHub Pages);
- a byte range of an endgame table: ``206 Partial Content``, the bytes asked for, no
  compression;
- a compressed answer says ``Vary: Accept-Encoding`` (nginx: ``gzip_vary on``), so that a
  cache between the host and a reader never gives compressed bytes to a client that did not
  ask for them;
- the check page's sample problem in headless Chromium, when Playwright and Chromium are there
  (``--chromium PATH``; ``--no-browser`` to leave it out): the page must judge it ``correct``.

Only the standard library is needed; the browser check uses Playwright's Python package with
a Chromium of the machine (Debian's ``/usr/bin/chromium`` by default). Every request goes to
the address given, and to nothing else. Exit status: 0 when every check passed, 1 when one
failed, 2 for a bad address or option.
"""

from __future__ import annotations

import argparse
import html.parser
import json
import ssl
import sys
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

SAMPLE = """[Event "Sacrifice on 1, shot to 13"]
[SetUp "1"]
[FEN "W:W6,11,18,22,28:B17,32,36,37,43"]
[GameType "20"]

1. 6-1 32x12 2. 1x31 36x18 3. 11x13 *
"""
"""The composers' guide's sample (guides/composers.md): correct, decided in a few seconds."""

SECURITY_HEADERS = ("content-security-policy", "x-content-type-options", "referrer-policy")
"""The headers SECURITY.md asks a host to send on every file."""

JAVASCRIPT = ("text/javascript", "application/javascript")
TIMEOUT = 60.0
"""Seconds to wait for one answer of the host."""


@dataclass(frozen=True, slots=True)
class Answer:
    """One answer of the host: its status, headers (names in lower case) and body."""

    status: int
    headers: Mapping[str, str]
    body: bytes

    def type(self) -> str:
        return self.headers.get("content-type", "").split(";")[0].strip().lower()


@dataclass(slots=True)
class Report:
    """The checks made so far, one line each, printed as they are made."""

    failed: int = 0
    passed: int = 0
    lines: list[str] = field(default_factory=list)

    def check(self, ok: bool, what: str, detail: str = "") -> bool:
        line = f"{'ok  ' if ok else 'FAIL'} {what}" + (f": {detail}" if detail else "")
        print(line, flush=True)
        self.lines.append(line)
        if ok:
            self.passed += 1
        else:
            self.failed += 1
        return ok


class Host:
    """Requests to one site, by paths relative to its address."""

    def __init__(self, base: str, context: ssl.SSLContext | None) -> None:
        self.base = base
        self.context = context
        # no redirect is followed: the site's own addresses answer without one
        handlers: list[urllib.request.BaseHandler] = [_NoRedirect()]
        if context is not None:
            handlers.append(urllib.request.HTTPSHandler(context=context))
        self.opener = urllib.request.build_opener(*handlers)

    def url(self, path: str) -> str:
        return urllib.parse.urljoin(self.base, path)

    def get(self, path: str, headers: Mapping[str, str] | None = None) -> Answer:
        request = urllib.request.Request(self.url(path), headers=dict(headers or {}))
        try:
            with self.opener.open(request, timeout=TIMEOUT) as response:
                return Answer(response.status, _lower(response.headers), response.read())
        except urllib.error.HTTPError as error:
            return Answer(error.code, _lower(error.headers), error.read())


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args: Any, **kwargs: Any) -> None:
        return None


def _lower(headers: Any) -> dict[str, str]:
    return {name.lower(): value for name, value in headers.items()}


class _Attributes(html.parser.HTMLParser):
    """The attributes of the first element that has a given attribute."""

    def __init__(self, wanted: str) -> None:
        super().__init__()
        self.wanted = wanted
        self.found: dict[str, str] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if self.found is None and any(name == self.wanted for name, _ in attrs):
            self.found = {name: value or "" for name, value in attrs}


def attributes(page: bytes, wanted: str) -> dict[str, str] | None:
    parser = _Attributes(wanted)
    parser.feed(page.decode("utf-8", "replace"))
    return parser.found


def check_pages(host: Host, report: Report, *, security_headers: bool) -> Answer | None:
    """The pages, the 404 page and the headers; returns the check page's answer."""
    checker: Answer | None = None
    for path in ("", "en/", "problemen/", "en/problemen/", "controleren/", "en/controleren/"):
        answer = host.get(path)
        report.check(
            answer.status == 200 and answer.type() == "text/html",
            f"page /{path}",
            f"{answer.status} {answer.type()}",
        )
        if path == "en/controleren/" and answer.status == 200:
            checker = answer
    missing = host.get("rb-smoke-test-no-such-page/")
    report.check(
        missing.status == 404 and b"<html" in missing.body.lower(),
        "a missing address gets the 404 page",
        f"{missing.status} {missing.type()}",
    )
    if security_headers:
        for path, answer in (("/", host.get("")), ("the 404 page", missing)):
            absent = [name for name in SECURITY_HEADERS if name not in answer.headers]
            report.check(
                not absent,
                f"security headers on {path}",
                "all three" if not absent else "missing " + ", ".join(absent),
            )
        policy = host.get("").headers.get("content-security-policy", "")
        report.check(
            "'wasm-unsafe-eval'" in policy,
            "the Content-Security-Policy lets the check page compile WebAssembly",
            "'wasm-unsafe-eval' " + ("given" if "'wasm-unsafe-eval'" in policy else "missing"),
        )
    return checker


def check_types(host: Host, report: Report, checker: Answer | None) -> None:
    """Each kind of file with the type the browser needs."""
    found = attributes(checker.body, "data-pyodide") if checker is not None else None
    if found is None:
        report.check(False, "the check page names Pyodide's folder (data-pyodide)", "not found")
        pyodide = None
    else:
        base = urllib.parse.urljoin(host.url("en/controleren/"), found.get("data-base", ""))
        pyodide = urllib.parse.urljoin(base, found["data-pyodide"])
    wanted: list[tuple[str, Callable[[str], bool], str]] = [
        ("assets/rulebook/checker.js", lambda t: t in JAVASCRIPT, "a JavaScript type"),
        ("assets/rulebook/draughts.css", lambda t: t == "text/css", "text/css"),
        ("search/search_index.json", lambda t: t == "application/json", "application/json"),
        ("assets/rulebook/prover.wasm", lambda t: t == "application/wasm", "application/wasm"),
    ]
    if pyodide is not None:
        wanted += [
            (pyodide + "pyodide.mjs", lambda t: t in JAVASCRIPT, "a JavaScript type"),
            (pyodide + "pyodide.asm.wasm", lambda t: t == "application/wasm", "application/wasm"),
        ]
    for path, good, expected in wanted:
        answer = host.get(path)
        shown = urllib.parse.urlparse(host.url(path)).path
        report.check(
            answer.status == 200 and good(answer.type()),
            f"{shown} is {expected}",
            f"{answer.status} {answer.type() or 'no Content-Type'}",
        )


def check_range(host: Host, report: Report) -> None:
    """A byte range of one endgame table's pages, as the check page's worker asks for it."""
    for variant in ("frisian", "international"):
        folder = f"assets/rulebook/tables/{variant}/"
        manifest = host.get(f"{folder}tables-{variant}.json")
        if manifest.status != 200:
            continue
        try:
            name = next(iter(json.loads(manifest.body)["classes"]))
        except (ValueError, KeyError, StopIteration, TypeError):
            report.check(False, f"the {variant} tables' manifest", "not a manifest")
            return
        path = f"{folder}{name}.pages"
        whole = host.get(path, {"Accept-Encoding": "identity"})
        # sixteen bytes from the middle of the header every pages file starts with
        part = host.get(path, {"Range": "bytes=8-23", "Accept-Encoding": "gzip"})
        shown = urllib.parse.urlparse(host.url(path)).path
        report.check(
            part.status == 206
            and part.headers.get("content-range", "") == f"bytes 8-23/{len(whole.body)}"
            and part.body == whole.body[8:24],
            f"a byte range of {shown}",
            f"{part.status} {part.headers.get('content-range', 'no Content-Range')}",
        )
        encoding = part.headers.get("content-encoding", "")
        report.check(
            encoding in ("", "identity"),
            "the tables are sent uncompressed",
            f"Content-Encoding {encoding}" if encoding else "no Content-Encoding",
        )
        return
    report.check(False, "the endgame tables", "neither manifest was found")


def check_compression(host: Host, report: Report) -> None:
    """A compressed answer must say that it depends on Accept-Encoding."""
    for path in ("search/search_index.json", "assets/rulebook/checker.js"):
        answer = host.get(path, {"Accept-Encoding": "gzip"})
        encoding = answer.headers.get("content-encoding", "")
        if not encoding:
            report.check(True, f"/{path} without compression", "no Vary needed")
            continue
        vary = [part.strip().lower() for part in answer.headers.get("vary", "").split(",")]
        report.check(
            "accept-encoding" in vary,
            f"/{path} compressed ({encoding}) says Vary: Accept-Encoding",
            answer.headers.get("vary", "no Vary header"),
        )


def check_in_browser(host: Host, report: Report, chromium: Path, *, insecure: bool) -> None:
    """The check page judges the sample in headless Chromium."""
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        print("skip the check page in a browser: Playwright is not installed", flush=True)
        return
    if not chromium.exists():
        print(f"skip the check page in a browser: no Chromium at {chromium}", flush=True)
        return
    address = host.url("en/controleren/") + "#pdn=" + urllib.parse.quote(SAMPLE) + "&run=1"
    args = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run"]
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(chromium), args=args)
        try:
            context = browser.new_context(ignore_https_errors=insecure)
            page = context.new_page()
            failures: list[str] = []
            page.on("pageerror", lambda error: failures.append(str(error)))
            page.goto(address)
            page.wait_for_function(
                "() => document.querySelector('.rb-check-report')"
                " && document.querySelector('.rb-check-report').hasAttribute('data-grade')",
                timeout=180_000,
            )
            grade = page.locator(".rb-check-report").get_attribute("data-grade")
            progress = page.locator(".rb-progress").inner_text()
            report.check(
                grade == "correct" and not failures,
                "the check page judges the sample in Chromium",
                f"{grade}; {progress.strip()}" + (f"; errors: {failures}" if failures else ""),
            )
        except Exception as error:  # a time-out or a page that never loads is a failed check
            report.check(False, "the check page judges the sample in Chromium", str(error))
        finally:
            browser.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description="Check a deployed rulebook site: pages, types, headers, byte ranges and "
        "the check page."
    )
    parser.add_argument("url", help="the site's public address (https://dammen.example.org/)")
    parser.add_argument(
        "--no-security-headers",
        action="store_true",
        help="do not ask for SECURITY.md's headers (a host that cannot send them)",
    )
    parser.add_argument("--no-browser", action="store_true", help="leave out the browser check")
    parser.add_argument(
        "--chromium",
        type=Path,
        default=Path("/usr/bin/chromium"),
        help="the Chromium to drive (default: /usr/bin/chromium)",
    )
    parser.add_argument(
        "--cafile",
        type=Path,
        help="trust this certificate (a test server's own); Chromium then ignores HTTPS errors",
    )
    options = parser.parse_args(argv)
    address = urllib.parse.urlparse(options.url)
    if address.scheme not in ("http", "https") or not address.netloc:
        print(f"smoke_test: not a web address: {options.url!r}", file=sys.stderr)
        return 2
    if options.cafile is not None and not options.cafile.is_file():
        print(f"smoke_test: --cafile: no such file: {options.cafile}", file=sys.stderr)
        return 2
    base = options.url if options.url.endswith("/") else options.url + "/"
    context = None
    if options.cafile is not None:
        context = ssl.create_default_context(cafile=str(options.cafile))
    host = Host(base, context)
    report = Report()
    try:
        checker = check_pages(host, report, security_headers=not options.no_security_headers)
        check_types(host, report, checker)
        check_range(host, report)
        check_compression(host, report)
    except (urllib.error.URLError, OSError) as error:
        reason = getattr(error, "reason", error)
        report.check(False, f"the host at {base} answers", str(reason))
        print(f"smoke test: {report.passed} checks passed, {report.failed} failed")
        return 1
    if not options.no_browser:
        check_in_browser(host, report, options.chromium, insecure=options.cafile is not None)
    print(f"smoke test: {report.passed} checks passed, {report.failed} failed")
    return 0 if report.failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
