"""Each problem is read once: one check of a problem parses its FEN tag once and computes its
digest once, on the command line (``rulebook check``) and on the check page (``browser.py``);
the parsed position and the replayed solution are handed along, never read again."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from rulebook_build import browser
from rulebook_build.checker import judge
from rulebook_build.cli import main
from rulebook_build.notation import _grammar, fen

# example frisian-01 of the site: 3 men against 3, decided in a moment without tables
PROBLEM = """[Event "frisian-01"]
[SetUp "1"]
[FEN "W:W26,31,36:B6,17,39"]
[GameType "40"]

1. 31-27 17x37 2. 36x40 6-11 3. 40-34 11-17 4. 34-29 17-22 5. 26-21 22-27 6. 21x32 *
"""


class _CountingParser:
    """The FEN grammar's parser, counting the texts it parses."""

    def __init__(self, parser: Any, counted: Counter[str]) -> None:
        self.parser = parser
        self.counted = counted

    def parse(self, text: str) -> Any:
        self.counted["fen"] += 1
        return self.parser.parse(text)


@pytest.fixture
def counted(monkeypatch: pytest.MonkeyPatch) -> Iterator[Counter[str]]:
    """How often a FEN is parsed (the FEN grammar's parser, as ``notation/fen.py`` asks for it)
    and a problem's digest computed (the strict PDN that ``problem_digest`` hashes)."""
    found: Counter[str] = Counter()

    def load_grammar(name: str, start: str) -> Any:
        parser = _grammar.load_grammar(name, start)
        return _CountingParser(parser, found) if (name, start) == ("fen", "fen") else parser

    write_game: Callable[..., str] = judge.write_game

    def written(game: Any) -> str:
        found["digest"] += 1
        return write_game(game)

    monkeypatch.setattr(fen, "load_grammar", load_grammar)
    monkeypatch.setattr(judge, "write_game", written)
    yield found


def test_one_check_of_a_file_reads_its_problem_once(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], counted: Counter[str]
) -> None:
    path = tmp_path / "problem.pdn"
    path.write_text(PROBLEM, encoding="utf-8")
    arguments = ["check", "--json", "--no-tables", "--python-only", "--jobs", "1"]
    code = main([*arguments, "--time-limit", "10", str(path)])
    (record,) = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert code == 0 and record["grade"] == "correct"  # judged in full
    assert counted == {"fen": 1, "digest": 1}


def test_the_check_page_reads_its_problem_once(counted: Counter[str]) -> None:
    loaded = json.loads(browser.load(PROBLEM))
    assert loaded["fen"] == "W:W26,31,36:B6,17,39"
    assert counted == {"fen": 1}  # the pasted problem: read once, no digest
    counted.clear()
    record = json.loads(browser.check(json.dumps(loaded), 10, "en"))
    assert record["grade"] == "correct"
    assert counted == {"fen": 1, "digest": 1}
