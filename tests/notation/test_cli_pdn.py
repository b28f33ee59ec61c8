"""``rulebook pdn``: summaries, JSON lines and exit codes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rulebook_build.cli import main

GOOD = '[Event "a"]\n[GameType "20"]\n1. 32-28 19-23 2. 28x19 14x23 *\n'
ILLEGAL = '[Event "b"]\n1. 32-28 19-23 2. 28-22 *\n'
SYNTAX = "1. 32-28 { a { b } } *\n"
CHECKERS = '[GameType "21"]\n1. 11-15 24-20 *\n'


def write(tmp_path: Path, name: str, text: str) -> str:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


def test_all_well(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    good = write(tmp_path, "good.pdn", GOOD + CHECKERS)
    assert main(["pdn", good]) == 0
    out = capsys.readouterr().out
    assert out.strip() == (
        f"{good}: 2 games, 1 replayed, 1 not replayed (GameType 21 (English draughts))"
    )


def test_illegal_move_exits_1(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = write(tmp_path, "bad.pdn", ILLEGAL)
    assert main(["pdn", bad]) == 1
    captured = capsys.readouterr()
    assert "1 error" in captured.out
    assert f"{bad}:2:19: illegal move 28-22" in captured.err


def test_syntax_error_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = write(tmp_path, "bad.pdn", SYNTAX)
    illegal = write(tmp_path, "illegal.pdn", ILLEGAL)
    assert main(["pdn", illegal, bad]) == 2
    assert "cannot be nested" in capsys.readouterr().err


def test_missing_file_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    missing = str(tmp_path / "missing.pdn")
    assert main(["pdn", missing]) == 2
    assert f"{missing}: no such file" in capsys.readouterr().err


def test_json_lines(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    good = write(tmp_path, "good.pdn", GOOD)
    bad = write(tmp_path, "bad.pdn", ILLEGAL)
    assert main(["pdn", "--json", good, bad]) == 1
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert lines == [
        {"file": good, "games": 1, "replayed": 1, "errors": []},
        {
            "file": bad,
            "games": 1,
            "replayed": 0,
            "errors": [
                {
                    "line": 2,
                    "column": 19,
                    "message": lines[1]["errors"][0]["message"],
                }
            ],
        },
    ]
    assert lines[1]["errors"][0]["message"].startswith("illegal move 28-22 for White in W:")
