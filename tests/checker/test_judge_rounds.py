"""A judgement left undecided is made again with the time it left unused (judge.py rounds)."""

from __future__ import annotations

import time

import pytest

from rulebook_build.checker import judge as judge_module
from rulebook_build.checker.judge import CRITERIA, Criterion, Judge, Judgement
from rulebook_build.notation.fen import parse_fen
from rulebook_build.notation.pdn import read_pdn
from rulebook_build.rules import INTERNATIONAL

PROBLEM = '[SetUp "1"]\n[FEN "W:W12,18:B9,25"]\n\n1. 12-7 9-13 2. 18x9 *\n'


def judge_with_rounds(
    monkeypatch: pytest.MonkeyPatch, outcomes: list[str], seconds: float, pause: float = 0.0
) -> tuple[Judgement, list[dict[str, Criterion]], list[str]]:
    """Judge PROBLEM with a round that returns the next verdict of ``outcomes``; returns the
    judgement, the criteria each round started from, and the progress messages."""
    started_with: list[dict[str, Criterion]] = []
    told: list[str] = []

    def fake_round(self: Judge, game, position, search, root, judgement, clock, full) -> None:  # type: ignore[no-untyped-def]
        started_with.append(dict(judgement.criteria))
        time.sleep(pause)
        verdict = outcomes[len(started_with) - 1]
        for name in CRITERIA:
            judgement.criteria.setdefault(name, Criterion.say("undecided", "not_examined"))
        judgement.verdict = verdict

    monkeypatch.setattr(Judge, "_judge_round", fake_round)
    games, _ = read_pdn(PROBLEM)
    position = parse_fen(games[0].fen or "", variant=INTERNATIONAL)
    judge = Judge(INTERNATIONAL, progress=told.append)
    return judge.judge(games[0], position, seconds=seconds), started_with, told


def test_a_decided_round_is_the_last(monkeypatch: pytest.MonkeyPatch) -> None:
    judgement, rounds, _ = judge_with_rounds(monkeypatch, ["sound"], seconds=5)
    assert len(rounds) == 1 and judgement.verdict == "sound"


def test_an_undecided_round_is_followed_by_another_with_the_time_left(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    judgement, rounds, told = judge_with_rounds(monkeypatch, ["undecided", "unsound"], seconds=5)
    assert len(rounds) == 2 and judgement.verdict == "unsound"
    assert any("judging again" in message for message in told)
    # the static criteria are judged once and kept; what a round decides is not carried over
    assert set(rounds[1]) == {"B1", "B2", "B3", "B4"}
    assert rounds[1]["B4"].status == "pass"
    assert list(judgement.criteria) == list(CRITERIA)


def test_no_new_round_without_time_left(monkeypatch: pytest.MonkeyPatch) -> None:
    # the first round uses the whole limit: nothing is left for a second one
    judgement, rounds, _ = judge_with_rounds(
        monkeypatch, ["undecided", "sound"], seconds=0.2, pause=0.25
    )
    assert len(rounds) == 1 and judgement.verdict == "undecided"


def test_rounds_stop_at_the_most_allowed(monkeypatch: pytest.MonkeyPatch) -> None:
    outcomes = ["undecided"] * (judge_module.MAX_ROUNDS + 2)
    judgement, rounds, _ = judge_with_rounds(monkeypatch, outcomes, seconds=60)
    assert len(rounds) == judge_module.MAX_ROUNDS and judgement.verdict == "undecided"
