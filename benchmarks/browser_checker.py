"""The in-browser checker ("check your problem" page) in Debian's Chromium: load time, bytes,
and check times per problem, beside the command line's Python search on the same machine.

    python benchmarks/browser_checker.py [--site DIR] [--time-limit 60] [--first N]
        [--cli] FILE_OR_FOLDER...

Builds the site (unless ``--site`` names a built one), serves it on the loopback address,
opens ``en/controleren/`` and measures: the time until the checker is ready (Pyodide and the
project's Python loaded: the page itself is interactive at once), the bytes transferred for
that, then for each problem of the files the grade and the seconds of the check in the browser.
With ``--cli`` each problem is also judged by ``rulebook check --python-only --no-tables`` (the
same search without a browser) in this process, for comparison.  Prints one line per problem
and a summary: how many were decided (every criterion settled) and the median time.
"""

from __future__ import annotations

import argparse
import functools
import http.server
import json
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from rulebook_build.notation.pdn import read_pdn_file, write_game  # noqa: E402


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:
        pass


def _problems(arguments: list[str], first: int | None) -> list[tuple[str, str]]:
    found = []
    for argument in arguments:
        path = Path(argument)
        files = sorted(path.rglob("*.pdn")) if path.is_dir() else [path]
        for file in files:
            games, _errors = read_pdn_file(file)
            found += [
                (f"{file.name}:{g.line} {g.tag('Event') or ''}".strip(), write_game(g))
                for g in games
                if g.is_problem
            ]
    return found[:first] if first else found


def _cli(text: str, seconds: float) -> tuple[str, float]:
    from rulebook_build.cli.check import _judge, _Task
    from rulebook_build.notation.pdn import read_pdn
    from rulebook_build.notation.replay import game_variant

    games, _ = read_pdn(text)
    variant = game_variant(games[0])
    assert variant is not None
    judgement = _judge(_Task(games[0], variant.name, seconds, True, False, False))
    return judgement.grade, judgement.seconds


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="+")
    parser.add_argument("--site", type=Path)
    parser.add_argument("--time-limit", type=float, default=60.0)
    parser.add_argument("--first", type=int)
    parser.add_argument("--cli", action="store_true")
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
    handler = functools.partial(_Quiet, directory=str(site))
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{httpd.server_address[1]}/en/controleren/"
    problems = _problems(args.files, args.first)
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path="/usr/bin/chromium", args=["--headless", "--no-sandbox"]
        )
        page = browser.new_page()
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
            f"{sum(transferred) / 1e6:.2f} MB in {len(transferred)} requests"
        )
        page.fill(".rb-seconds", str(int(args.time_limit)))
        rows = []
        for name, text in problems:
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
            grade = record["grade"] if record else "error"
            seconds = float(record["seconds"]) if record else float("nan")
            line = f"{name:40} browser {grade:21} {seconds:6.1f} s"
            cli = None
            if args.cli:
                cli = _cli(text, args.time_limit)
                line += f"   command line {cli[0]:21} {cli[1]:6.1f} s"
            print(line, flush=True)
            rows.append((grade, seconds, cli))
        browser.close()
    httpd.shutdown()
    decided = [r for r in rows if r[0] not in ("undecided", "error")]
    print(
        f"browser: {len(decided)} of {len(rows)} decided within {args.time_limit:.0f} s, "
        f"median {statistics.median(r[1] for r in rows):.1f} s"
    )
    if args.cli:
        cli_rows = [r[2] for r in rows if r[2] is not None]
        print(
            f"command line (Python search, no tables): "
            f"{sum(1 for g, _s in cli_rows if g != 'undecided')} of {len(cli_rows)} decided, "
            f"median {statistics.median(s for _g, s in cli_rows):.1f} s"
        )
    print(json.dumps({"ready_seconds": round(ready, 2), "bytes": sum(transferred)}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
