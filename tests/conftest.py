"""The whole suite: the endgame tables that many tests share are built once, before the tests.

``rulebook check`` builds every class of up to 4 pieces on first use (Frisian: 2 to 3 minutes
on 2 cores, its art. 17 runs multiply the positions). Left to the first test that needs them,
that build held up every test process that needed them too, waiting on the cache's locks,
while the build took the cores: the suite's time changed by minutes with the order the tests
happened to run in. Here the controller builds them into the user's cache with 'rulebook
tables --pieces 4' (the same files, compared in ``tests/cli/test_tables_side_by_side.py``),
in a process of its own that leaves nothing in the controller's memory, before it starts the
test processes (pytest-xdist starts them in its own ``pytest_sessionstart``, which runs last).
The tests that build tables themselves do so in their own temporary caches, as before (with
the compiled programs of the user's cache). The programs and the WebAssembly build of the
search are made there too, for the same reason. In one process
(``-n 0``, or a single test run) nothing waits, so nothing is built first.

The browser tests (marked ``browser``) skip where Debian's Chromium is missing, so that a
developer without it can run the rest; so that they cannot vanish unnoticed, the summary says
in one line how many were skipped and why, and under CI (``CI`` set, as ``.ci/run`` is run) a
skipped browser test fails the run.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from rulebook_build.engine import binaries
from rulebook_build.rules import VARIANTS

CHROMIUM = Path("/usr/bin/chromium")
"""Debian's Chromium, which the browser tests drive (never Playwright's own downloads)."""


def pytest_sessionstart(session: pytest.Session) -> None:
    if not getattr(session.config.option, "numprocesses", None):
        return  # one process: each table is built by the first test that needs it, as before
    if hasattr(session.config, "workerinput") or binaries.compiler() is None:
        return  # a test process (the controller built them), or no compiled builder
    started = time.perf_counter()
    for variant in VARIANTS:
        command = ["tables", "--variant", variant.name, "--pieces", "4"]
        done = subprocess.run(
            [sys.executable, "-m", "rulebook_build.cli", *command],
            capture_output=True,
            text=True,
        )
        if done.returncode != 0:  # the tests that need them will build them and say why not
            print(f"\nthe {variant.name} tables were not built first:\n{done.stderr}")
    print(f"\nendgame tables of up to 4 pieces ready in {time.perf_counter() - started:.0f} s")
    # the compiled programs, which tests with table caches of their own take from the user's
    # (binaries.py), and the search as WebAssembly, which the site build and the WebAssembly
    # tests share: Zig builds its C library for each place it is installed (a fresh clone's
    # .venv is a new place), so the first build of a run takes half a minute or more; made
    # here, they hold up no test
    started = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-c", PROGRAMS_FIRST], capture_output=True, text=True, check=False
    )
    if done.returncode != 0:  # the tests that need them build them and say why not
        print(f"\nthe compiled programs were not built first:\n{done.stderr}")
    print(f"the compiled programs ready in {time.perf_counter() - started:.0f} s")


PROGRAMS_FIRST = (
    "from rulebook_build.engine import binaries, wasm\n"
    "from rulebook_build.engine.tables.endgame import default_cache_dir\n"
    "for source in (binaries.SOURCE, binaries.PROVER_SOURCE, binaries.PACK_SOURCE):\n"
    "    binaries.executable(default_cache_dir(), source)\n"
    "wasm.wasm_build(default_cache_dir())\n"
)
"""Compile the table builder, the proof search and the packer, and build ``prover.wasm``,
into the user's cache (what is there already is kept; nothing without a compiler or Zig), in
a process of its own."""


def browser_skips(config: pytest.Config) -> list[pytest.TestReport]:
    """The skipped tests that needed a browser: marked ``browser``, or skipped for want of
    Chromium or Playwright."""
    reporter = config.pluginmanager.get_plugin("terminalreporter")
    if reporter is None:
        return []
    found = []
    for report in reporter.stats.get("skipped", []):
        reason = str(report.longrepr[-1]) if isinstance(report.longrepr, tuple) else ""
        keywords = getattr(report, "keywords", {})
        if "browser" in keywords or "chromium" in reason.lower() or "playwright" in reason:
            found.append(report)
    return found


def pytest_terminal_summary(
    terminalreporter: pytest.TerminalReporter, config: pytest.Config
) -> None:
    skipped = browser_skips(config)
    if not skipped:
        return
    first = skipped[0].longrepr
    reason = str(first[-1]).removeprefix("Skipped: ") if isinstance(first, tuple) else "skipped"
    why = f"Chromium missing at {CHROMIUM}" if not CHROMIUM.exists() else reason
    line = f"{len(skipped)} browser tests skipped: {why}"
    if os.environ.get("CI"):
        line += " (CI: this fails the run)"
    terminalreporter.write_sep("=", line, yellow=True, bold=True)


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    # under CI a browser test may not skip: the run that should have shown the pages in a
    # browser fails instead (scripts/test.sh installs Chromium as root)
    if hasattr(session.config, "workerinput") or not os.environ.get("CI"):
        return
    if browser_skips(session.config) and exitstatus == pytest.ExitCode.OK:
        session.exitstatus = pytest.ExitCode.TESTS_FAILED
