"""Two ``rulebook check`` started together on a cache without its programs and without some of
its tables both finish with the right verdict: building the tables and compiling the C programs
are atomic or locked (cachedir.py)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from rulebook_build.cachedir import exclusive, lock_file
from rulebook_build.engine.tables.kinds import checker_tables
from rulebook_build.rules import INTERNATIONAL
from tests.tablecopy import copy_checker_tables

PROBLEM = """[Event "two at once"]
[SetUp "1"]
[FEN "W:W15,38:B16,31"]
[GameType "20"]

1. 15-10 31-36 *
"""


def seeded(cache: Path) -> list[str]:
    """``cache`` with the checker's International tables of up to 4 pieces, copied from the
    user's cache, but those with three men or more: the two commands find those missing (and
    every compiled program) and build them at the same time.  An empty cache would make them
    build all 41 classes, some 40 s of processor time, for the same race.  Returns the names
    of the classes left out."""
    left_out = copy_checker_tables(INTERNATIONAL, cache / "endgame", lambda m: m[0] + m[2] < 3)
    tables = checker_tables(INTERNATIONAL, cache_dir=cache / "endgame")
    return [kind.path(m).name for kind in (tables.pure, tables.rules) for m in left_out]


def test_two_checks_at_once_on_a_cache_missing_programs_and_tables(tmp_path: Path) -> None:
    problem = tmp_path / "problem.pdn"
    problem.write_text(PROBLEM, encoding="utf-8")
    cache = tmp_path / "cache"
    missing = seeded(cache)
    assert len(missing) >= 10  # both kinds
    command = [
        sys.executable,
        "-c",
        "from rulebook_build.cli import main; raise SystemExit(main())",
    ]
    command += [
        "check",
        "--table-pieces",
        "4",
        "--json",
        "--time-limit",
        "10",
        "--cache-dir",
        str(cache),
        str(problem),
    ]
    environment = {k: v for k, v in os.environ.items() if k != "RULEBOOK_CACHE_DIR"}
    processes = [
        subprocess.Popen(
            command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=environment
        )
        for _ in range(2)
    ]
    for process in processes:
        out, err = process.communicate(timeout=600)
        assert process.returncode == 0, err
        assert "Traceback" not in err
        record = json.loads(out)
        assert record["grade"] == "correct" and record["winning_keys"] == ["15-10"]
    # the missing tables were built, into the cache given, and nothing half-written is left
    folders = sorted(path.name for path in (cache / "endgame").iterdir())
    assert any(name.startswith("international-v") for name in folders)
    present = {path.name for path in (cache / "endgame").rglob("*.bin")}
    assert set(missing) <= present
    assert list((cache / "endgame" / "bin").glob("tablebuild-*"))
    leftovers = [p for p in (cache / "endgame").rglob("*") if p.suffix in (".tmp", ".body")]
    assert leftovers == []


@pytest.mark.parametrize("name", [None, "m0k1-m1k0"])
def test_a_lock_keeps_a_second_process_out_until_it_is_released(
    tmp_path: Path, name: str | None
) -> None:
    probe = (
        "import fcntl, os, sys\n"
        "handle = os.open(sys.argv[1], os.O_RDWR)\n"
        "try:\n"
        "    fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)\n"
        "except BlockingIOError:\n"
        "    raise SystemExit(3)\n"
    )
    folder = tmp_path / "tables"
    lock = str(lock_file(folder, name))
    with exclusive(folder, name):
        assert subprocess.run([sys.executable, "-c", probe, lock], check=False).returncode == 3
    assert subprocess.run([sys.executable, "-c", probe, lock], check=False).returncode == 0
