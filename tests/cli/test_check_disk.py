"""``rulebook check`` with a read-only cache: it judges with the tables there and says why it
built no others."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rulebook_build.cachedir import ENVIRONMENT
from rulebook_build.checker.front import has_five
from rulebook_build.cli import check as check_command
from rulebook_build.cli import main
from rulebook_build.engine import binaries
from rulebook_build.engine.tables.kinds import checker_tables
from rulebook_build.rules import FRISIAN
from tests.cli.test_check import SOUND
from tests.tmpfs import read_only_view


def test_a_read_only_cache_serves_check_and_the_build_it_wanted_is_said(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    if binaries.compiler() is None:
        pytest.skip("no C compiler: check builds no 5-piece tables")
    tables = checker_tables(FRISIAN)
    tables.prepare_missing()  # the 4-piece tables, in the user's cache (built once)
    if has_five(tables):
        pytest.skip("this cache holds the Frisian 5-piece tables: check would build none")
    monkeypatch.setenv(ENVIRONMENT, str(tmp_path))  # --cache-dir sets it: restored after
    monkeypatch.setattr(check_command, "_CHECKERS", {})  # this run's own, with its options
    problem = tmp_path / "problem.pdn"
    problem.write_text(SOUND, encoding="utf-8")
    with read_only_view(tables.pure.cache_dir, tmp_path / "cache" / "endgame"):
        command = ["check", "--table-pieces", "5", "--json", "--time-limit", "20"]
        code = main([*command, "--cache-dir", str(tmp_path / "cache"), str(problem)])
        out, error = capsys.readouterr()
    assert code == 0, error
    assert json.loads(out)["verdict"] == "sound"
    assert "the 5-piece tables were not built (" in error
    assert "cannot write tables here: Read-only file system" in error
    assert "judging with those of up to 4" in error
    assert "Traceback" not in error
