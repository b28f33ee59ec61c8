"""Commands that are stopped leave no process behind (``rulebook_build/lifetime.py``).

Each test starts a real command, waits until it has started its workers and compiled
programs, stops it the way a CI time-out (SIGTERM) or the out-of-memory killer (SIGKILL)
does, and then looks at every process the command had started: after 10 s none may be left.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from rulebook_build.engine import binaries
from rulebook_build.engine.tables.kinds import checker_tables
from rulebook_build.rules import INTERNATIONAL
from tests.tablecopy import copy_checker_tables

ROOT = Path(__file__).resolve().parents[2]
GRACE = 10.0
"""How long the stopped command's processes may take to end."""

pytestmark = [
    pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc (Linux)"),
    pytest.mark.skipif(binaries.compiler() is None, reason="no C compiler: no compiled programs"),
]


def alive(pid: int) -> bool:
    """Whether ``pid`` runs (a zombie, dead but not yet reaped, does not)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat[stat.rindex(")") + 2] != "Z"


def descendants(pid: int) -> dict[int, str]:
    """Every living process below ``pid``, with its command line."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        parent = int(stat[stat.rindex(")") + 2 :].split()[1])
        children.setdefault(parent, []).append(int(entry.name))
    found: dict[int, str] = {}
    todo = list(children.get(pid, []))
    while todo:
        child = todo.pop()
        try:
            command = (Path(f"/proc/{child}/cmdline").read_bytes().replace(b"\0", b" ")).decode()
        except OSError:
            continue
        if alive(child):
            found[child] = command
        todo += children.get(child, [])
    return found


def wait_for(command: subprocess.Popen[bytes], ready: Callable[[dict[int, str]], bool]) -> None:
    deadline = time.monotonic() + 240
    while time.monotonic() < deadline:
        assert command.poll() is None, "the command ended before it could be stopped"
        if ready(descendants(command.pid)):
            return
        time.sleep(0.2)
    raise AssertionError(f"the command never got going: {descendants(command.pid)}")


def stop_and_watch(command: subprocess.Popen[bytes], how: signal.Signals) -> dict[int, str]:
    """Stop the command with ``how``; what it had started that still runs after GRACE."""
    started = descendants(command.pid)
    command.send_signal(how)
    command.wait(timeout=60)
    deadline = time.monotonic() + GRACE
    left = started
    while left and time.monotonic() < deadline:
        time.sleep(0.2)
        left = {pid: line for pid, line in left.items() if alive(pid)}
    for pid in left:  # leave the machine as it was for the other tests
        os.kill(pid, signal.SIGKILL)
    return left


def rulebook(*arguments: str, cache: Path | None = None) -> subprocess.Popen[bytes]:
    env = dict(os.environ)
    if cache is not None:
        env["RULEBOOK_CACHE_DIR"] = str(cache)
    return subprocess.Popen(
        [sys.executable, "-m", "rulebook_build.cli", *arguments],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )


def searching(found: dict[int, str]) -> bool:
    """Both workers run and at least one has started its compiled search."""
    workers = [line for line in found.values() if "rulebook_build" in line or "python" in line]
    provers = [line for line in found.values() if "prover-" in line]
    return len(workers) >= 2 and len(provers) >= 1


@pytest.mark.parametrize("how", [signal.SIGTERM, signal.SIGKILL], ids=["SIGTERM", "SIGKILL"])
def test_check_with_two_jobs_leaves_nothing_running(how: signal.Signals) -> None:
    command = rulebook(
        "check", "--jobs", "2", "--table-pieces", "4", "--time-limit", "60", "problems/pwcp-2/"
    )
    try:
        wait_for(command, searching)
        assert stop_and_watch(command, how) == {}
    finally:
        command.kill()


def test_a_killed_table_build_leaves_nothing_running_and_the_next_run_completes(
    tmp_path: Path,
) -> None:
    # the cache holds the checker's 4-piece tables but those with three men or more: the
    # command builds those (every class from scratch, twice over, was 40 s and more of the
    # suite's processor time for the same kill)
    left_out = copy_checker_tables(INTERNATIONAL, tmp_path / "endgame", lambda m: m[0] + m[2] < 3)
    assert len(left_out) >= 5
    arguments = ("tables", "--variant", "international", "--pieces", "4", "--jobs", "2")
    command = rulebook(*arguments, cache=tmp_path)
    try:
        wait_for(command, lambda found: any("tablebuild-" in line for line in found.values()))
        assert stop_and_watch(command, signal.SIGKILL) == {}
    finally:
        command.kill()
    again = rulebook(*arguments, cache=tmp_path)
    assert again.wait(timeout=600) == 0
    tables = checker_tables(INTERNATIONAL, cache_dir=tmp_path / "endgame")
    for kind in (tables.pure, tables.rules):
        assert all(kind.path(m).is_file() for m in left_out)


ORPHAN = """
import sys
from pathlib import Path
from rulebook_build.engine import binaries
from rulebook_build.engine.tables.endgame import default_cache_dir
from rulebook_build.rules import INTERNATIONAL, Position
from rulebook_build.rules.drawrules import DrawClocks

program = binaries.executable(default_cache_dir(), binaries.PROVER_SOURCE)
empty = Path(sys.argv[1])
prover = binaries.NativeProver(program, empty, empty, variant=INTERNATIONAL)
start = Position.initial(INTERNATIONAL).state()
prover.solve(start, DrawClocks(None, 0, 0, None, 0), seconds=300, node_limit=10**12)
"""
"""A process that starts a long compiled search (the opening position, five minutes) and waits."""


def test_a_compiled_search_ends_when_the_process_that_started_it_is_killed(
    tmp_path: Path,
) -> None:
    # the search is started as every compiled program is (lifetime.program_options: no function
    # between fork and exec, the program asks the kernel itself); its parent is killed outright,
    # as the out-of-memory killer does, so nothing of ours runs in the parent and the search's
    # pipes stay open with no one reading: only the kernel's signal can end it
    parent = subprocess.Popen(
        [sys.executable, "-c", ORPHAN, str(tmp_path)], cwd=ROOT, stderr=subprocess.PIPE
    )
    try:
        wait_for(parent, lambda found: any("prover-" in line for line in found.values()))
        assert stop_and_watch(parent, signal.SIGKILL) == {}
    finally:
        parent.kill()
