"""``rulebook tables``: lists and builds the endgame tables, refuses what it cannot do."""

from __future__ import annotations

from pathlib import Path

import pytest

from rulebook_build.checker import endgame
from rulebook_build.cli import main


def test_list_names_every_class_and_whether_it_is_cached(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(endgame, "DEFAULT_CACHE_DIR", tmp_path)
    assert main(["tables", "--pieces", "2", "--list"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 4  # king or man against king or man
    assert all(line.endswith("pure not built, rules not built") for line in lines)
    assert main(["tables", "--pieces", "2"]) == 0
    assert "every class of up to 2 pieces" in capsys.readouterr().err
    assert main(["tables", "--pieces", "2", "--list"]) == 0
    assert all(
        line.endswith("pure cached, rules cached") for line in capsys.readouterr().out.splitlines()
    )


def test_an_impossible_piece_count_is_a_clear_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["tables", "--pieces", "7"]) == 2
    assert "--pieces must be 2, 3, 4 or 5, not 7" in capsys.readouterr().err


def test_five_piece_frisian_tables_are_refused_with_the_reason(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(endgame, "DEFAULT_CACHE_DIR", tmp_path)
    assert main(["tables", "--variant", "frisian", "--pieces", "5"]) == 2
    error = capsys.readouterr().err
    assert "5-piece tables for frisian need the compiled table builder" in error
    assert not list(tmp_path.rglob("*.bin"))
