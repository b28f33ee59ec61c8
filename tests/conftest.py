"""The whole suite: the endgame tables that many tests share are built once, before the tests.

``rulebook check`` builds every class of up to 4 pieces on first use (Frisian: 2 to 3 minutes
on 2 cores, its art. 17 runs multiply the positions). Left to the first test that needs them,
that build held up every test process that needed them too, waiting on the cache's locks,
while the build took the cores: the suite's time changed by minutes with the order the tests
happened to run in. Here the controller builds them into the user's cache with 'rulebook
tables --pieces 4' (the same files, compared in ``tests/cli/test_tables_side_by_side.py``),
in a process of its own that leaves nothing in the controller's memory, before it starts the
test processes (pytest-xdist starts them in its own ``pytest_sessionstart``, which runs last).
The tests that build tables themselves do so in their own temporary caches, as before. In
one process (``-n 0``, or a single test run) nothing waits, so nothing is built first.
"""

from __future__ import annotations

import subprocess
import sys
import time

import pytest

from rulebook_build.checker import native
from rulebook_build.rules import VARIANTS


def pytest_sessionstart(session: pytest.Session) -> None:
    if not getattr(session.config.option, "numprocesses", None):
        return  # one process: each table is built by the first test that needs it, as before
    if hasattr(session.config, "workerinput") or native.compiler() is None:
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
