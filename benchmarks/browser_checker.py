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

from rulebook_build.checker.judge import problem_digest  # noqa: E402
from rulebook_build.notation.pdn import read_pdn_file, write_game  # noqa: E402
from rulebook_build.notation.replay import game_variant  # noqa: E402
from tests.site.test_browser import _QuietHandler  # noqa: E402


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
    from rulebook_build.browser import pdn

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
    handler = functools.partial(_QuietHandler, directory=str(site))
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
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


if __name__ == "__main__":
    raise SystemExit(main())
