"""The checker's front door: a Checker judges with its tables, hears progress through public
hooks, and says what it builds."""

from __future__ import annotations

import pytest

from rulebook_build.checker.front import Checker
from rulebook_build.engine.tables.kinds import checker_tables
from rulebook_build.errors import RulebookError
from rulebook_build.notation.pdn import read_pdn
from rulebook_build.rules import FRISIAN, INTERNATIONAL

# example frisian-01 of the site: 3 men against 3, decided in a moment with or without tables
PROBLEM = """[Event "frisian-01"]
[SetUp "1"]
[FEN "W:W26,31,36:B6,17,39"]
[GameType "40"]

1. 31-27 17x37 2. 36x40 6-11 3. 40-34 11-17 4. 34-29 17-22 5. 26-21 22-27 6. 21x32 *
"""


def game(text: str = PROBLEM):  # type: ignore[no-untyped-def]
    games, errors = read_pdn(text, source="<test>")
    assert not errors
    return games[0]


def test_a_checker_judges_by_the_problems_own_rules_and_reports_its_nodes() -> None:
    heard: list[int] = []
    said: list[str] = []
    checker = Checker(opened={FRISIAN.name: checker_tables(FRISIAN)}, compiled=False)
    judgement = checker.judge(
        game(), seconds=20, by_work=True, nodes=heard.append, progress=said.append
    )
    assert judgement.grade == "correct" and judgement.variant == "frisian"
    assert heard and heard == sorted(heard) and heard[-1] > 0
    assert checker.last_judge is not None and heard[-1] == checker.last_judge.nodes()
    assert said  # what is examined, as the page's progress line shows it
    # the same problem by the International rules is another problem
    other = checker.judge(game(), variant=INTERNATIONAL, seconds=5, by_work=True)
    assert other.variant == "international"


def test_without_tables_a_checker_opens_none() -> None:
    checker = Checker(tables=False, compiled=False)
    assert checker.tables_of(FRISIAN) is None
    assert checker.judge(game(), seconds=20, by_work=True).grade == "correct"
    assert checker.last_judge is not None and checker.last_judge.tables is None


def test_a_game_of_another_variant_is_refused_with_its_place() -> None:
    other = game(PROBLEM.replace('[GameType "40"]', '[GameType "30"]'))
    with pytest.raises(RulebookError, match="GameType") as raised:
        Checker(tables=False).judge(other, seconds=1)
    assert raised.value.line == 1
