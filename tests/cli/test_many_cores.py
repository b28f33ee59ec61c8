"""The commands with their default options on a machine of many cores (faked: 128).

The ``--jobs`` defaults are the machine's cores (``cli/options.jobs_default``); a machine of more
than 64 cores used to be refused its own default by ``rulebook tables``.
"""

from __future__ import annotations

import json
import os
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

import pytest

import rulebook_build.cli.tables
from rulebook_build.cli import main
from rulebook_build.engine import binaries
from rulebook_build.rules import Variant
from tests.cli.test_check import COOKED, COOKED_LATER

CORES = 128


@pytest.fixture
def many_cores(monkeypatch: pytest.MonkeyPatch) -> None:
    """This process (and the workers it forks) sees a machine of ``CORES`` cores."""
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: set(range(CORES)), raising=False)
    monkeypatch.setattr(os, "cpu_count", lambda: CORES)
    assert binaries.machine_cores() == CORES


def test_tables_with_default_options_builds_on_128_cores(
    many_cores: None,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    pools: list[int] = []

    class Counted(ProcessPoolExecutor):
        def __init__(self, max_workers: int, **options: Any) -> None:
            pools.append(max_workers)
            super().__init__(max_workers=max_workers, **options)

    monkeypatch.setattr(rulebook_build.cli.tables, "ProcessPoolExecutor", Counted)
    # no --jobs: its default is read when main makes the parser, under the faked cores
    assert main(["tables", "--pieces", "2", "--cache-dir", str(tmp_path)]) == 0
    error = capsys.readouterr().err
    assert "every class of up to 2 pieces" in error and "--jobs" not in error
    # 128 jobs asked; the pool is as wide as the widest level of the build, no wider
    assert pools and all(1 < workers < CORES for workers in pools), pools
    assert main(["tables", "--pieces", "2", "--cache-dir", str(tmp_path), "--list"]) == 0
    listed = capsys.readouterr().out.splitlines()
    assert len(listed) == 4 and all(line.endswith("rules cached") for line in listed)


def test_check_with_default_options_judges_on_128_cores(
    many_cores: None,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    built: list[int] = []

    def build_tables(variant: Variant, pieces: int, *, jobs: int, pack: bool) -> None:
        built.append(jobs)  # the 5-piece build, if this cache lacks it, takes minutes

    monkeypatch.setattr(rulebook_build.cli.tables, "build_tables", build_tables)
    problems = tmp_path / "two.pdn"
    problems.write_text(COOKED + "\n" + COOKED_LATER, encoding="utf-8")
    assert main(["check", "--json", str(problems)]) == 1  # both are cooked
    records = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [r["verdict"] for r in records] == ["unsound", "unsound"]
    assert built in ([], [CORES])  # with every core, when the cache lacks the 5-piece tables
