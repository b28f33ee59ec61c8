"""The check page in Debian's Chromium against the stored verdicts: grades, speed, downloads.

    python benchmarks/browser_checker.py [--site DIR] [--time-limit 20] [--first N] FILE...

Builds the site (unless ``--site`` names a built one), serves it on the loopback address with
Range requests answered as a static host answers them, opens ``en/controleren/`` and measures
the time until the checker is ready (Pyodide, the project's Python and the WebAssembly search
loaded) and the bytes of that.  Then each problem of the files is loaded and checked on the
page at ``--time-limit`` seconds counted in work (the page's only way), and its grade is set
beside the stored verdict of the same problem (``problems/verdicts.jsonl``, made with
``rulebook check --json --deterministic --time-limit 20``), with the page's wall seconds, the
command line's on the same problem (run after the page's check, on the PDN the page writes:
the same count of nodes on both sides, so the ratio of the two wall times is the ratio of the
rates of the whole judgement), and the bytes of tables the check downloaded.  Prints one line
per problem and a summary.

    python benchmarks/browser_checker.py --home [--delay 50] [--mbit 40] [--site DIR] FILE...

With ``--home``, the site is served as a composer's home connection reaches a hosted site
(:class:`HomeHost`, this script's own server on 127.0.0.1, nothing else reached): every
request waits ``--delay`` milliseconds before its answer starts, all answers together go out
at ``--mbit`` megabits a second, and every file carries Netlify's default headers
(``Cache-Control: max-age=0, must-revalidate`` and an ETag; a request with that ETag in
``If-None-Match`` gets 304), so the browser must ask again for everything it kept.  As
Netlify (and the webmasters' guide's nginx) it compresses what is not compressed already:
text, JSON and WebAssembly go gzipped to a browser that accepts it (level 6, nginx's
``gzip_comp_level`` there), never a byte range and never the tables (``--no-compress``: every
file as it is, as the runs before 2026-11-29 were served).  Each
problem is opened by its link (``#pdn=...&run=1``, as a composer follows it) in a browser
with a new profile (cold), then again after the browser is closed and started on the same
profile (warm); per run: the seconds from opening the link to the grade on the page, and the
requests and bytes the server answered (Pyodide, the page, the tables, everything).
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import gzip
import http.server
import json
import os
import re
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
from pathlib import Path
from typing import Any, ClassVar

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from rulebook_build.checker.judge import problem_digest  # noqa: E402
from rulebook_build.notation.pdn import read_pdn_file, write_game  # noqa: E402
from rulebook_build.notation.replay import game_variant  # noqa: E402
from tests.site.test_browser import _QuietHandler  # noqa: E402
from tests.site.test_nginx import certificate  # noqa: E402


class Link:
    """The composer's line: one bandwidth shared by every answer under way (``mbit`` megabits
    a second), as a home connection is shared by the browser's parallel requests."""

    def __init__(self, mbit: float) -> None:
        self.rate = mbit * 1e6 / 8  # bytes a second
        self.lock = threading.Lock()
        self.free_at = 0.0  # when the line has sent everything queued so far

    def send(self, size: int) -> None:
        """Wait until ``size`` bytes would have gone through the line."""
        with self.lock:
            now = time.monotonic()
            self.free_at = max(self.free_at, now) + size / self.rate
            done = self.free_at
        time.sleep(max(0.0, done - time.monotonic()))


class Server(http.server.ThreadingHTTPServer):
    """The script's static server, with the listen queue of a real one: Python's default of
    five pending connections drops the rest of a burst (the HTTP/2 front opens one connection
    to it per request in flight), and a dropped connection is tried again by the kernel after
    1, 2, 4 ... seconds, so a burst of 40 requests could wait a minute on this machine where a
    host (nginx's backlog: 511) answers in one round trip."""

    request_queue_size = 1024
    daemon_threads = True


class HomeHost(http.server.SimpleHTTPRequestHandler):
    """A static host reached over a home connection: a delay before every answer, a shared
    bandwidth, Netlify's default caching headers (revalidate every file: ETag, 304), single
    byte ranges answered with 206.  Counts every request and the bytes of every body."""

    protocol_version = "HTTP/1.1"  # kept-alive connections, as a browser uses them
    # as web servers do (nginx's tcp_nodelay): without it a short answer's body waits for the
    # acknowledgement of its headers, some 40 ms a request on top of the delay emulated
    disable_nagle_algorithm = True
    extensions_map: ClassVar[dict[str, str]] = {
        **http.server.SimpleHTTPRequestHandler.extensions_map,
        ".wasm": "application/wasm",
        ".mjs": "text/javascript",
    }
    delay = 0.05
    link = Link(40.0)
    counts_lock = threading.Lock()
    requests = 0
    bytes_sent = 0
    not_modified = 0
    began = 0.0
    active = 0
    most_active = 0
    """Requests answered at once, and the most at any time since :meth:`reset`."""
    timeline: ClassVar[list[tuple[float, str]]] = []
    """Per request: seconds since :meth:`reset` when its answer began, and the file's name."""
    CHUNK = 16_384
    compress = True
    COMPRESSED_TYPES: ClassVar[frozenset[str]] = frozenset(
        {
            "text/html",
            "text/css",
            "text/javascript",
            "application/javascript",
            "application/json",
            "application/wasm",
            "image/svg+xml",
            "application/xml",
        }
    )
    """What nginx's ``gzip_types`` names in guides/webmasters.md, and Netlify compresses."""
    gzipped: ClassVar[dict[tuple[str, int], bytes]] = {}
    """Each compressed file by its path and time, made once a run."""

    def log_message(self, format: str, *args: Any) -> None:
        pass

    @classmethod
    def reset(cls) -> None:
        with cls.counts_lock:
            cls.requests = cls.bytes_sent = cls.not_modified = 0
            cls.began = time.monotonic()
            cls.most_active = cls.active
            cls.timeline = []

    def _count(self, size: int, *, not_modified: bool = False) -> None:
        with HomeHost.counts_lock:
            HomeHost.requests += 1
            HomeHost.bytes_sent += size
            HomeHost.not_modified += not_modified
            name = self.path.split("?")[0].rsplit("/", 1)[-1]
            HomeHost.timeline.append((time.monotonic() - HomeHost.began, name))

    def handle(self) -> None:
        # a browser closes kept-alive connections it no longer needs, between requests
        with contextlib.suppress(BrokenPipeError, ConnectionResetError):
            super().handle()

    def do_HEAD(self) -> None:
        self._answer(body=False)

    def do_GET(self) -> None:
        # the browser may give a request up (a cancelled check, a closed page)
        with contextlib.suppress(BrokenPipeError, ConnectionResetError):
            self._answer(body=True)

    def _answer(self, *, body: bool) -> None:
        with HomeHost.counts_lock:
            HomeHost.active += 1
            HomeHost.most_active = max(HomeHost.most_active, HomeHost.active)
        try:
            self._answer_one(body=body)
        finally:
            with HomeHost.counts_lock:
                HomeHost.active -= 1

    def _answer_one(self, *, body: bool) -> None:
        if self.path.startswith("http://"):  # asked through the proxy (--many): a full URL
            self.path = "/" + self.path.split("/", 3)[3]
        time.sleep(self.delay)  # the round trip before the first byte
        path = self.translate_path(self.path)
        if os.path.isdir(path):
            path = os.path.join(path, "index.html")
        if not os.path.isfile(path):
            self._count(0)
            self.send_error(404)
            return
        stat = os.stat(path)
        etag = f'"{stat.st_size:x}-{stat.st_mtime_ns:x}"'
        asked = [
            t.strip().removeprefix("W/") for t in self.headers.get("If-None-Match", "").split(",")
        ]
        if etag in asked:
            self._count(0, not_modified=True)
            self.send_response(304)
            self.send_header("ETag", etag)
            self.send_header("Cache-Control", "max-age=0, must-revalidate")
            self.end_headers()
            return
        wanted = re.fullmatch(r"bytes=(\d+)-(\d*)", self.headers.get("Range", ""))
        kind = self.guess_type(path)
        if (
            self.compress
            and not wanted
            and kind.split(";")[0] in self.COMPRESSED_TYPES
            and "gzip" in self.headers.get("Accept-Encoding", "")
        ):
            self._answer_gzipped(path, stat, kind, body=body)
            return
        size = stat.st_size
        start, end = 0, size - 1
        if wanted:
            start = int(wanted.group(1))
            end = min(int(wanted.group(2)) if wanted.group(2) else size - 1, size - 1)
            if start > end:
                self._count(0)
                self.send_error(416)
                return
        self.send_response(206 if wanted else 200)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(end - start + 1))
        self.send_header("ETag", etag)
        self.send_header("Cache-Control", "max-age=0, must-revalidate")
        self.send_header("Accept-Ranges", "bytes")
        if wanted:
            self.send_header("Content-Range", f"bytes {start}-{end}/{size}")
        self.end_headers()
        if not body:
            self._count(0)
            return
        self._count(end - start + 1)
        with open(path, "rb") as stream:
            stream.seek(start)
            left = end - start + 1
            while left > 0:
                chunk = stream.read(min(self.CHUNK, left))
                self.link.send(len(chunk))
                self.wfile.write(chunk)
                left -= len(chunk)

    def _answer_gzipped(self, path: str, stat: os.stat_result, kind: str, *, body: bool) -> None:
        """The whole file gzipped, as a host compresses on the fly: its own ETag (a weak one,
        as nginx gives a compressed answer), ``Vary: Accept-Encoding``."""
        key = (path, stat.st_mtime_ns)
        with HomeHost.counts_lock:
            data = HomeHost.gzipped.get(key)
        if data is None:
            with open(path, "rb") as stream:
                data = gzip.compress(stream.read(), compresslevel=6, mtime=0)
            with HomeHost.counts_lock:
                HomeHost.gzipped[key] = data
        self.send_response(200)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Encoding", "gzip")
        self.send_header("Vary", "Accept-Encoding")
        self.send_header("Content-Length", str(len(data)))
        self.send_header("ETag", f'W/"{stat.st_size:x}-{stat.st_mtime_ns:x}"')
        self.send_header("Cache-Control", "max-age=0, must-revalidate")
        self.end_headers()
        if not body:
            self._count(0)
            return
        self._count(len(data))
        for at in range(0, len(data), self.CHUNK):
            chunk = data[at : at + self.CHUNK]
            self.link.send(len(chunk))
            self.wfile.write(chunk)


def _timeline(timeline: list[tuple[float, str]], report: dict[str, Any], took: float) -> str:
    """Where a run's time went: when the page's own files (Pyodide, Python, the search) were
    all answered, when the tables began and ended, and the tables' requests by kind: fetched
    ahead several at a time (page lists, small classes, the scouts' ranges) or one after
    another by the judgement itself (the report's count, with the seconds it waited)."""
    tables = [t for t, name in timeline if name.endswith((".pages", ".blocks", ".json"))]
    own = [t for t, name in timeline if not name.endswith((".pages", ".blocks"))]
    ahead = report.get("prefetched") or {}
    during = report.get("scouted_during") or {}
    waited = (
        f"; scouts before {during.get('searches', 0)} searches: {during.get('requests', 0)} "
        f"requests, {during.get('seconds', 0):.1f} s"
        if report.get("scouts_waited")
        else "; no scouts during the judgement (no JSPI)"
    )
    early = ahead.get("early") or {}
    before_python = (
        f"; before Python: scouts of {early.get('wanted', 0)} blocks in "
        f"{early.get('seconds', 0):.1f} s, {early.get('requests', 0)} requests, "
        f"{early.get('bytes', 0) / 1e6:.1f} MB, rounds "
        + " ".join(f"{a:.1f}+{b:.1f}" for a, b in early.get("rounds", []))
        + f", from {early.get('began', 0):.1f} to {early.get('ended', 0):.1f} s of the "
        f"worker's life, Python there at {early.get('python', 0):.1f} s; gaps "
        f"{early.get('gap', 0)} before Python, {ahead.get('scout_gap', 0)} after"
        if early
        else ""
    )
    return (
        f"worker started at {report.get('worker_born', 0):.2f} s; "
        f"Python ready at {report.get('python_at', 0):.1f} s of the worker's life, judged "
        + "from {:.1f} to {:.1f} s; ".format(*(report.get("judged") or (0, 0)))
        + "Python's start: "
        + ", ".join(f"{k} {v:.2f}" for k, v in (report.get("python_stages") or {}).items())
        + "; "
        + f"page's files by {max(own, default=0):.1f} s; tables {min(tables, default=0):.1f}"
        f"-{max(tables, default=0):.1f} s; grade at {took:.1f} s; ahead "
        f"{ahead.get('requests', 0)} requests ({ahead.get('scouted', 0)} scouted in "
        f"{ahead.get('scout_rounds', 0)} rounds, {ahead.get('scout_seconds', 0):.1f} s of scouts; "
        f"{ahead.get('bytes', 0) / 1e6:.1f} MB), one after another {report.get('requests', 0)} "
        f"({report.get('fetch_seconds', 0):.1f} s waited, "
        f"{report.get('downloaded', 0) / 1e6:.1f} MB); scouts' rounds (s of scouts, s of "
        f"fetches after them) "
        + " ".join(f"{a:.1f}+{b:.1f}" for a, b in ahead.get("scout_rounds_seconds", []))
        + before_python
        + waited
    )


def _by_link(
    playwright: Any, host: str, name: str, text: str, seconds: float, *, tls: bool = False
) -> dict[str, Any]:
    """The problem opened by its link, cold (a new profile) and warm (the browser started again
    on the same profile): seconds to the grade, the server's requests and bytes."""
    profile = Path(tempfile.mkdtemp(prefix="rulebook-profile-"))
    url = f"{host}/en/controleren/#pdn={urllib.parse.quote(text)}&seconds={int(seconds)}&run=1"
    row: dict[str, Any] = {"problem": name}
    try:
        for run in ("cold", "warm"):
            context = playwright.chromium.launch_persistent_context(
                str(profile),
                executable_path="/usr/bin/chromium",
                headless=True,
                args=[
                    "--no-sandbox",
                    "--disable-background-networking",
                    *(["--ignore-certificate-errors"] if tls else []),
                ],
            )
            page = context.new_page()
            HomeHost.reset()
            began = time.perf_counter()
            page.goto(url)
            page.wait_for_function(
                "() => document.querySelector('.rb-check-report').hasAttribute('data-grade')",
                timeout=900_000,
                polling=50,
            )
            took = time.perf_counter() - began
            grade = page.get_attribute(".rb-check-report", "data-grade")
            report = page.evaluate(
                "() => (document.querySelector('.rb-checker').rulebookChecker.lastRecord || {})"
                ".report || {}"
            )
            if report.get("worker_origin"):  # the worker's life from the page's
                born = report["worker_origin"] - page.evaluate("performance.timeOrigin")
                report["worker_born"] = born / 1000
            context.close()
            row[run] = {
                "grade": grade,
                "seconds": round(took, 2),
                "requests": HomeHost.requests,
                "not_modified": HomeHost.not_modified,
                "megabytes": round(HomeHost.bytes_sent / 1e6, 2),
            }
            print(
                f"{name:34} {run}: {grade:21} {took:6.1f} s, {HomeHost.requests:5} requests "
                f"({HomeHost.not_modified} answered 304), {HomeHost.bytes_sent / 1e6:7.2f} MB, "
                f"at most {HomeHost.most_active} at once",
                flush=True,
            )
            print("    " + _timeline(HomeHost.timeline, report, took), flush=True)
            if os.environ.get("TIMELINE"):
                Path(os.environ["TIMELINE"] + run).write_text(json.dumps(HomeHost.timeline))
            if os.environ.get("REPORT"):  # the check's whole report, as the page holds it
                Path(os.environ["REPORT"] + run).write_text(json.dumps(report))
    finally:
        shutil.rmtree(profile, ignore_errors=True)
    return row


def _problems(arguments: list[str], first: int | None) -> list[tuple[str, str, str]]:
    """(name, PDN text, digest) of every problem of the files."""
    found = []
    for argument in arguments:
        path = Path(argument)
        files = sorted(path.rglob("*.pdn")) if path.is_dir() else [path]
        for file in files:
            games, _errors = read_pdn_file(file)
            for game in games:
                variant = game_variant(game)
                if game.is_problem and variant is not None:
                    name = f"{file.name}:{game.line} {game.tag('Event') or ''}".strip()
                    found.append((name, write_game(game), problem_digest(game, variant)))
    return found[:first] if first else found


def _stored() -> dict[str, dict[str, object]]:
    records: dict[str, dict[str, object]] = {}
    for line in (ROOT / "problems" / "verdicts.jsonl").read_text(encoding="utf-8").splitlines():
        record = json.loads(line)
        records[str(record["digest"])] = record
    return records


def _command_line(page: object, seconds: float) -> tuple[float, int]:
    """``rulebook check --json --deterministic`` on the PDN the page writes of the problem it
    just checked, in a process of its own after the page's check (never beside it): its wall
    seconds and nodes."""
    problem = page.evaluate(  # type: ignore[attr-defined]
        "() => document.querySelector('.rb-checker').rulebookChecker.problem()"
    )
    from rulebook_build.checkpage import pdn

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "problem.pdn"
        path.write_text(json.loads(pdn(problem))["pdn"], encoding="utf-8")
        command = [sys.executable, "-m", "rulebook_build.cli", "check", "--json"]
        command += ["--deterministic", "--time-limit", f"{seconds:g}", str(path)]
        done = subprocess.run(command, capture_output=True, text=True, check=False)
    record = json.loads(done.stdout.splitlines()[0])
    return float(record["seconds"]), int(record["nodes"])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="+")
    parser.add_argument("--site", type=Path)
    parser.add_argument("--time-limit", type=float, default=20.0)
    parser.add_argument("--first", type=int)
    parser.add_argument(
        "--latency",
        type=float,
        default=0.0,
        help="milliseconds each request waits (Chromium's network emulation), as over the "
        "Internet; the loopback address has none",
    )
    parser.add_argument(
        "--host",
        help="the address of a static server already serving the built site (for example "
        "nginx: a real host answers Range requests faster than this script's own server)",
    )
    parser.add_argument(
        "--home",
        action="store_true",
        help="serve the site as over a home connection (--delay, --mbit, Netlify's headers) "
        "and open each problem by its link, cold and warm",
    )
    parser.add_argument("--delay", type=float, default=50.0, help="--home: ms a request")
    parser.add_argument("--mbit", type=float, default=40.0, help="--home: megabits a second")
    parser.add_argument(
        "--no-compress",
        action="store_true",
        help="--home: send every file as it is (by default text, JSON and WebAssembly go "
        "gzipped, as Netlify and the webmasters' guide's nginx send them)",
    )
    parser.add_argument(
        "--http2",
        action="store_true",
        help="--home: the browser reaches the site over HTTP/2 (as hosts serve it: many "
        "requests in flight at once, where HTTP/1.1 allows six), through a local nginx in "
        "front of this script's server, which still makes every request wait and shares the "
        "bandwidth",
    )
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    site = args.site
    if site is None:
        site = Path(tempfile.mkdtemp()) / "site"
        subprocess.run(
            [sys.executable, "-m", "rulebook_build.cli", "build", "--out", str(site)],
            cwd=ROOT,
            check=True,
        )
    if args.home:
        return _home(site, args)
    handler = functools.partial(_QuietHandler, directory=str(site))
    httpd = Server(("127.0.0.1", 0), handler)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    host = args.host or f"http://127.0.0.1:{httpd.server_address[1]}"
    url = f"{host.rstrip('/')}/en/controleren/"
    print(f"served by {'the host ' + host if args.host else 'this script (Python)'}")
    problems = _problems(args.files, args.first)
    stored = _stored()
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path="/usr/bin/chromium",
            args=["--headless", "--no-sandbox", "--disable-background-networking"],
        )
        page = browser.new_page()
        if args.latency:  # every request of the page and its worker waits this long
            cdp = page.context.new_cdp_session(page)
            cdp.send("Network.enable")
            conditions = {"latency": args.latency, "downloadThroughput": -1}
            cdp.send("Network.emulateNetworkConditions", {"offline": False, **conditions})
        transferred: list[int] = []
        page.on("requestfinished", lambda r: transferred.append(r.sizes()["responseBodySize"]))
        started = time.perf_counter()
        page.goto(url)
        page.wait_for_load_state("load")
        loaded = time.perf_counter() - started
        page.wait_for_function(
            "() => !document.querySelector('.rb-check').disabled", timeout=300_000
        )
        ready = time.perf_counter() - started
        print(
            f"page loaded in {loaded:.2f} s, checker ready in {ready:.2f} s, "
            f"{sum(transferred) / 1e6:.2f} MB in {len(transferred)} requests",
            flush=True,
        )
        page.fill(".rb-seconds", str(int(args.time_limit)))
        rows = []
        for name, text, digest in problems:
            record = page.evaluate(
                """async (text) => {
                    const app = document.querySelector('.rb-checker').rulebookChecker;
                    app.lastRecord = null;
                    await app.load(text);
                    await app.check();
                    return app.lastRecord;
                }""",
                text,
            )
            expected = stored.get(digest, {})
            cli_seconds, cli_nodes = _command_line(page, args.time_limit)
            grade = record["grade"] if record else "error"
            seconds = float(record["seconds"]) if record else float("nan")
            nodes = int(record["nodes"]) if record else 0
            downloaded = int(record["report"].get("downloaded", 0)) if record else 0
            requests = int(record["report"].get("requests", 0)) if record else 0
            fetching = float(record["report"].get("fetch_seconds", 0.0)) if record else 0.0
            same_nodes = bool(record) and cli_nodes == nodes
            row = {
                "problem": name,
                "page": grade,
                "stored": expected.get("grade", "none"),
                "seconds": round(seconds, 2),
                "command_line_seconds": cli_seconds,
                "nodes": nodes,
                "same_nodes": same_nodes,
                "rate_ratio": round(cli_seconds / seconds, 3) if seconds > 0 else None,
                "downloaded": downloaded,
                "requests": requests,
                "fetch_seconds": round(fetching, 2),
            }
            rows.append(row)
            mark = "" if row["page"] == row["stored"] else "   DIFFERS"
            print(
                f"{name:34} page {grade:21} stored {row['stored']:21} {seconds:6.1f} s "
                f"(command line {cli_seconds:5.1f} s) {downloaded / 1e6:6.1f} MB "
                f"in {requests:5} requests, {fetching:5.1f} s "
                f"{'same nodes' if same_nodes else 'other nodes'}{mark}",
                flush=True,
            )
        browser.close()
    httpd.shutdown()
    same = [r for r in rows if r["page"] == r["stored"]]
    ratios = [r["rate_ratio"] for r in rows if r["rate_ratio"]]
    sizes = [int(r["downloaded"]) for r in rows]
    print(
        f"{len(same)} of {len(rows)} grades as stored; "
        f"nodes a second, page / command line: median {statistics.median(ratios):.2f}; "
        f"tables downloaded per problem: median {statistics.median(sizes) / 1e6:.1f} MB, "
        f"max {max(sizes) / 1e6:.1f} MB; checker ready in {ready:.2f} s"
    )
    print(json.dumps({"ready_seconds": round(ready, 2), "rows": rows}))
    return 0


def _http2_front(port: int) -> tuple[subprocess.Popen[bytes], str]:
    """nginx on another loopback port, serving HTTP/2 over TLS (a certificate made for the run;
    Chromium is told to accept it) and passing every request to this script's server on
    ``port`` unbuffered, over as many kept-alive connections as requests are in flight: the
    delay and the bandwidth stay the script's, the browser's limit of six connections to a
    host goes, as on a host that serves HTTP/2.  Returns the process and the site's address."""
    folder = Path(tempfile.mkdtemp(prefix="rulebook-h2-"))
    certificate(folder)  # the suite's, for its nginx (tests/site/test_nginx.py)
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        front_port = probe.getsockname()[1]
    (folder / "nginx.conf").write_text(
        f"""
daemon off;
worker_processes 1;
pid {folder}/nginx.pid;
error_log {folder}/error.log;
events {{ worker_connections 1024; }}
http {{
    access_log off;
    client_body_temp_path {folder}/body;
    proxy_temp_path {folder}/proxy;
    fastcgi_temp_path {folder}/fastcgi;
    uwsgi_temp_path {folder}/uwsgi;
    scgi_temp_path {folder}/scgi;
    upstream home {{ server 127.0.0.1:{port}; keepalive 64; }}
    server {{
        listen 127.0.0.1:{front_port} ssl http2;  # Debian 12's nginx 1.22: no "http2 on;"
        ssl_certificate {folder}/cert.pem;
        ssl_certificate_key {folder}/key.pem;
        location / {{
            proxy_pass http://home;
            proxy_http_version 1.1;
            proxy_set_header Connection "";
            proxy_buffering off;
        }}
    }}
}}
"""
    )
    front = subprocess.Popen(["nginx", "-p", str(folder), "-c", str(folder / "nginx.conf")])
    for _ in range(100):
        with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", front_port)):
            break
        time.sleep(0.05)
    return front, f"https://127.0.0.1:{front_port}"


def _home(site: Path, args: argparse.Namespace) -> int:
    """``--home``: each problem by its link over the emulated home connection."""
    from playwright.sync_api import sync_playwright

    HomeHost.delay = args.delay / 1000
    HomeHost.link = Link(args.mbit)
    HomeHost.compress = not args.no_compress
    handler = functools.partial(HomeHost, directory=str(site))
    httpd = Server(("127.0.0.1", 0), handler)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    host = f"http://127.0.0.1:{httpd.server_address[1]}"
    front = None
    if args.http2:
        front, host = _http2_front(httpd.server_address[1])
    print(
        f"served by this script on {host}: {args.delay:g} ms a request, {args.mbit:g} Mbit/s, "
        "Cache-Control: max-age=0, must-revalidate, ETag and 304, "
        + ("nothing compressed" if args.no_compress else "text, JSON and WebAssembly gzipped"),
        flush=True,
    )
    stored = _stored()
    rows = []
    with sync_playwright() as playwright:
        for name, text, digest in _problems(args.files, args.first):
            row = _by_link(playwright, host, name, text, args.time_limit, tls=front is not None)
            row["stored"] = stored.get(digest, {}).get("grade", "none")
            rows.append(row)
    httpd.shutdown()
    if front is not None:
        front.terminate()
        front.wait()
    for run in ("cold", "warm"):
        same = sum(1 for r in rows if r[run]["grade"] == r["stored"])
        times = [r[run]["seconds"] for r in rows]
        sizes = [r[run]["megabytes"] for r in rows]
        print(
            f"{run}: {same} of {len(rows)} grades as stored; seconds median "
            f"{statistics.median(times):.1f}, max {max(times):.1f}; MB median "
            f"{statistics.median(sizes):.1f}, max {max(sizes):.1f}"
        )
    print(json.dumps({"delay_ms": args.delay, "mbit": args.mbit, "rows": rows}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
