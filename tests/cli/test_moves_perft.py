"""The exact command-line contracts of ``rulebook moves`` and ``rulebook perft``."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from rulebook_build.cli import main


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "rulebook_build.cli", *args],
        capture_output=True,
        text=True,
        check=False,
    )


def test_moves_json_contract(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["moves", "--json", "W:W28,31:B23,K22,14", "start"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 2
    first = json.loads(lines[0])
    assert set(first) == {"fen", "variant", "moves", "result"}
    assert first["variant"] == "international"
    assert first["result"] is None
    assert first["moves"] == [{"notation": "28x10", "path": [28, 19, 10], "captured": [23, 14]}]
    assert len(json.loads(lines[1])["moves"]) == 9


def test_moves_play_then_list(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["moves", "--json", "--play", "32-28 19-23", "start"]) == 0
    record = json.loads(capsys.readouterr().out)
    assert record["played"] == ["32-28", "19-23"]
    assert record["moves"] == [{"notation": "28x19", "path": [28, 19], "captured": [23]}]


def test_moves_reports_the_end_of_the_game(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["moves", "--json", "--variant", "frisian", "W:WK47:BK4"]) == 0
    record = json.loads(capsys.readouterr().out)
    assert record["moves"] == []
    assert record["result"].startswith("draw: ")
    assert main(["moves", "--json", "B:W46:B"]) == 0
    assert json.loads(capsys.readouterr().out)["result"] == "white wins"


def test_moves_disambiguates_two_captures_with_the_same_ends(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # the king on 13 reaches 25 over two different sets of men: only those two get full routes
    assert main(["moves", "--json", "W:WK13:B8,16,18,28,30,38"]) == 0
    notations = {m["notation"] for m in json.loads(capsys.readouterr().out)["moves"]}
    assert notations == {"13x42", "13x47", "13x22x39x25", "13x27x43x25"}


@pytest.mark.parametrize(
    ("fen", "fragment", "column"),
    [
        ("W:W31-50:B1-20,51", "51", 16),
        ("W:W31-50:B0", "0", 11),
        ("W:W31,31:B1", "twice", 7),
        ("W:W3:B10", "3", 4),
        ("B:W31:B47", "47", 8),
        ("", "empty", 1),
        ("W:W12;B3", "';'", 6),
    ],
)
def test_bad_fen_gives_one_located_line_and_exit_2(fen: str, fragment: str, column: int) -> None:
    result = run("moves", fen)
    assert result.returncode == 2
    assert "Traceback" not in result.stderr
    first = result.stderr.splitlines()[0]
    assert fragment in first
    assert f":1:{column}:" in first
    assert result.stdout == ""


def test_illegal_play_move_is_located() -> None:
    result = run("moves", "--play", "32-28 19-24 28-19", "start")
    assert result.returncode == 2
    assert result.stderr.startswith("--play:1:13: illegal move 28-19")
    assert "Traceback" not in result.stderr


def test_perft_json_contract(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["perft", "start", "--variant", "frisian", "--depth", "4", "--json"]) == 0
    record = json.loads(capsys.readouterr().out)
    assert set(record) == {"variant", "fen", "depth", "nodes", "seconds"}
    assert (record["variant"], record["depth"], record["nodes"]) == ("frisian", 4, 3874)
    assert record["seconds"] >= 0


def test_perft_bad_fen_exit_2() -> None:
    result = run("perft", "W:W99", "--variant", "international", "--depth", "2")
    assert result.returncode == 2
    assert "Traceback" not in result.stderr


def test_a_reader_that_goes_away_is_not_reported_as_success(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import rulebook_build.cli as cli

    module = cli._load("perft")

    def broken(_args: object) -> int:
        raise BrokenPipeError

    monkeypatch.setattr(module, "run", broken)
    monkeypatch.setattr(cli.sys, "stdout", open(os.devnull, "w"))  # noqa: SIM115
    assert cli.main(["perft", "start", "--depth", "1"]) == 141
