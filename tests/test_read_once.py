"""Each problem is read once: one check of a problem parses its FEN tag once and computes its
digest once, on the command line (``rulebook check``) and on the check page
(``checkpage/entry.py``), however many rounds its judgement takes; the parsed position and
the replayed solution are handed along, never read again."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from rulebook_build.checker.front import Checker
from rulebook_build.checker.judge import Judge
from rulebook_build.checkpage import entry as browser
from rulebook_build.cli import main
from rulebook_build.notation.pdn import read_pdn
from tests.reads import count_reads

# example frisian-01 of the site: 3 men against 3, decided in a moment without tables
PROBLEM = """[Event "frisian-01"]
[SetUp "1"]
[FEN "W:W26,31,36:B6,17,39"]
[GameType "40"]

1. 31-27 17x37 2. 36x40 6-11 3. 40-34 11-17 4. 34-29 17-22 5. 26-21 22-27 6. 21x32 *
"""


@pytest.fixture
def counted(monkeypatch: pytest.MonkeyPatch) -> Counter[str]:
    return count_reads(monkeypatch)


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


def test_a_judgement_of_many_rounds_reads_its_problem_once(
    monkeypatch: pytest.MonkeyPatch, counted: Counter[str]
) -> None:
    """Each round of a judgement reads the solution the judgement was given (here every round
    is told it left the problem undecided, so that the judge goes again)."""
    one_round = Judge._judge_round
    rounds = []

    def undecided(self: Judge, *args: object) -> None:
        one_round(self, *args)  # type: ignore[arg-type]
        rounds.append(self._judgement)
        assert self._judgement is not None
        self._judgement.verdict = "undecided"

    monkeypatch.setattr(Judge, "_judge_round", undecided)
    (game,), _errors = read_pdn(PROBLEM)
    judgement = Checker(tables=False, compiled=False).judge(game, seconds=2, by_work=True)
    assert len(rounds) > 1 and judgement.verdict == "undecided"
    assert counted == {"fen": 1, "digest": 1}
