"""The grade and verdict a judgement's statuses give, its summary line and its JSON
(``checker/grade.py``): built by hand, without a search, so every row of the table in the
module's docstring is checked on its own, and each boundary from both sides.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

import pytest

from rulebook_build.checker.analysis import Dual
from rulebook_build.checker.grade import (
    CRITERIA,
    Cook,
    Criterion,
    Judgement,
    SolutionCheck,
    Status,
    Try,
    grade_of,
    verdict_of,
)
from rulebook_build.checker.opinion import Opinion
from rulebook_build.checker.verdict_json import judgement_from_json

WINS = SolutionCheck(legal=True, key="32-28", key_wins=True, error=None)


def judgement(
    statuses: dict[str, Status] | None = None, solution: SolutionCheck = WINS
) -> Judgement:
    """Every criterion passing, except those named."""
    chosen: dict[str, Status] = {name: "pass" for name in CRITERIA}
    chosen.update(statuses or {})
    criteria = {name: Criterion(status, f"detail of {name}") for name, status in chosen.items()}
    return Judgement(
        source="p.pdn:1",
        event="E",
        variant="international",
        fen="W:W32:B19",
        solution=solution,
        criteria=criteria,
    )


@pytest.mark.parametrize(
    ("statuses", "solution", "verdict", "grade"),
    [
        ({}, WINS, "sound", "correct"),
        ({"D": "remark"}, WINS, "sound", "correct with remarks"),
        ({"C": "remark", "G": "remark"}, WINS, "sound", "correct with remarks"),
        ({"B2": "fail"}, WINS, "unsound", "incorrect"),
        ({"B2": "fail", "D": "remark"}, WINS, "unsound", "incorrect"),
        ({"B2": "fail", "E": "undecided"}, WINS, "unsound", "incorrect"),  # a fault is final
        ({"E": "undecided"}, WINS, "undecided", "undecided"),
        ({"E": "undecided", "D": "remark"}, WINS, "undecided", "undecided"),
        ({}, SolutionCheck(True, "32-28", False, "refuted"), "unsound", "incorrect"),
        ({}, SolutionCheck(False, None, None, "illegal 32-27"), "unsound", "incorrect"),
        ({}, SolutionCheck(True, "32-28", None, None), "undecided", "undecided"),
        ({"E": "undecided"}, SolutionCheck(True, "32-28", False, None), "unsound", "incorrect"),
    ],
)
def test_the_grade_follows_from_the_statuses_and_the_solution(
    statuses: dict[str, Status], solution: SolutionCheck, verdict: str, grade: str
) -> None:
    found = judgement(statuses, solution)
    assert verdict_of(found) == verdict
    assert grade_of(found) == grade == found.grade


def test_the_summary_names_the_first_fault_or_remark_and_the_others() -> None:
    assert judgement().summary() == "correct"
    one = judgement({"D": "fail"})
    assert one.summary() == "incorrect: D detail of D"
    several = judgement({"B2": "fail", "D": "fail", "G": "fail", "C": "remark"})
    assert several.summary() == "incorrect: B2 detail of B2 (faults also in D, G)"
    remarks = judgement({"C": "remark", "F": "remark"})
    assert remarks.summary() == "correct with remarks: C detail of C (remarks also in F)"
    assert judgement({"G": "remark"}).summary() == "correct with remarks: G detail of G"


def test_the_summary_of_a_failed_solution_says_why() -> None:
    refuted = judgement({"D": "fail"}, SolutionCheck(True, "32-28", False, "Black draws"))
    assert refuted.summary() == "incorrect: Black draws"
    silent = judgement({}, SolutionCheck(True, "32-28", False, None))
    assert silent.summary() == "incorrect: the solution does not win"
    illegal = judgement({}, SolutionCheck(False, None, None, "illegal move 32-27"))
    assert illegal.summary() == "incorrect: illegal move 32-27"


def test_the_summary_of_an_undecided_judgement_names_what_is_open() -> None:
    assert judgement({"E": "undecided", "G": "undecided"}).summary() == (
        "undecided (time limit): E, G"
    )
    open_key = judgement({}, SolutionCheck(True, "32-28", None, None))
    assert open_key.summary() == "undecided (time limit): the key"


def test_findings_keep_the_order_of_the_rulebook() -> None:
    found = judgement({"G": "fail", "B1": "fail", "D": "remark"})
    assert [name for name, _c in found.findings("fail")] == ["B1", "G"]
    assert [name for name, _c in found.findings("remark")] == ["D"]
    assert found.findings("undecided") == []


def test_a_criterion_said_by_its_message_carries_the_message_and_its_arguments() -> None:
    said = Criterion.say("pass", "a_pass", keys="32-28")
    assert said.detail == "White wins (proved), key 32-28"
    assert said.as_json() == {
        "status": "pass",
        "detail": "White wins (proved), key 32-28",
        "message": "a_pass",
        "args": {"keys": "32-28"},
    }
    assert Criterion("fail", "by hand").as_json() == {"status": "fail", "detail": "by hand"}
    with pytest.raises(AssertionError):
        Criterion.say("pass", "no_such_message")


def test_the_json_of_a_judgement_is_the_contract() -> None:
    found = judgement({"C": "remark"})
    found.verdict = "sound"
    found.white_wins = "proved"
    found.winning_keys = ["32-28"]
    found.seconds = 1.23456
    found.nodes = 42
    found.digest = "abc"
    found.proof_line = ["32-28", "19-23"]
    found.solution.refutation = ()
    found.cooks = [Cook("33-29", ("33-29", "19-24"), combination=True)]
    found.duals = [Dual(("32-28", "19-23"), ("28x19", "28x17"), "variation", on_main=False)]
    found.tries = [Try("32-27", ("32-27", "19-23"), "19-23")]
    found.opinions = [
        Opinion("key", ("C",), ("33-28",), "no win", -35, 12, 1000, ("19-23", "28x19"), 1000)
    ]
    record = found.as_json()
    assert list(record) == [
        "source",
        "event",
        "variant",
        "verdict",
        "grade",
        "white_wins",
        "winning_keys",
        "solution",
        "criteria",
        "seconds",
        "summary",
        "fen",
        "proof_line",
        "nodes",
        "digest",
        "cooks",
        "duals",
        "tries",
        "opinions",
    ]
    assert record["source"] == "p.pdn:1" and record["event"] == "E"
    assert record["variant"] == "international" and record["fen"] == "W:W32:B19"
    assert record["verdict"] == "sound" and record["grade"] == "correct with remarks"
    assert record["white_wins"] == "proved" and record["winning_keys"] == ["32-28"]
    assert record["seconds"] == 1.235 and record["nodes"] == 42 and record["digest"] == "abc"
    assert record["summary"] == "correct with remarks: C detail of C"
    assert record["proof_line"] == ["32-28", "19-23"]
    assert record["solution"] == {
        "legal": True,
        "key": "32-28",
        "key_wins": True,
        "error": None,
        "refutation": None,
    }
    criteria = record["criteria"]
    assert isinstance(criteria, dict) and list(criteria) == list(CRITERIA)
    assert criteria["C"] == {"status": "remark", "detail": "detail of C"}
    assert record["cooks"] == [{"key": "33-29", "line": "33-29 19-24", "combination": True}]
    assert record["duals"] == [
        {
            "after": "32-28 19-23",
            "moves": ["28x19", "28x17"],
            "kind": "variation",
            "level": "remark",
            "on_main": False,
        }
    ]
    assert record["tries"] == [{"key": "32-27", "line": "32-27 19-23", "refutation": "19-23"}]
    assert record["opinions"] == [
        {
            "kind": "key",
            "criteria": ["C"],
            "after": "33-28",
            "says": "no win",
            "score": -35,
            "depth": 12,
            "nodes": 1000,
            "line": "19-23 28x19",
            "budget": 1000,
        }
    ]
    # and read back into the same judgement (item 2 of issue 38: the typed contract)
    found.seconds = record["seconds"]  # type: ignore[assignment]
    assert judgement_from_json(record) == found
    assert judgement_from_json(json.loads(json.dumps(record))).as_json() == record


@pytest.mark.parametrize(
    ("change", "field"),
    [
        (lambda r: r.pop("digest"), "no field 'digest'"),
        (lambda r: r.update(verdict="fine"), "verdict: 'fine' is none of"),
        (lambda r: r.update(nodes="42"), "nodes: unexpected value '42'"),
        (lambda r: r["criteria"].pop("G"), "expected the criteria"),
        (lambda r: r["criteria"]["C"].update(status="maybe"), "criteria.C.status"),
        (lambda r: r["duals"][0].update(level="fail"), "duals[0].level"),
        (lambda r: r["duals"][0].pop("on_main"), "duals[0]: no field 'on_main'"),
        (lambda r: r["opinions"][0].update(says="proved"), "opinions[0]"),
        (lambda r: r["solution"].update(key_wins="yes"), "solution.key_wins"),
    ],
)
def test_a_record_the_checker_did_not_write_is_refused_by_field(
    change: Callable[[dict[str, Any]], object], field: str
) -> None:
    found = judgement({"C": "remark"})
    found.duals = [Dual(("32-28",), ("28x19", "28x17"), "variation", on_main=True)]
    found.opinions = [Opinion("key", ("C",), ("33-28",), "win", 240, 12, 1000, (), 1000)]
    record = json.loads(json.dumps(found.as_json()))
    assert judgement_from_json(record).as_json() == record
    change(record)
    with pytest.raises(ValueError, match=re.escape(field)):
        judgement_from_json(record)


def test_a_refuted_solution_gives_its_line() -> None:
    solution = SolutionCheck(True, "32-28", False, "Black draws", ("32-28", "19-23", "28x19"))
    assert solution.as_json()["refutation"] == "32-28 19-23 28x19"


def test_a_new_judgement_is_undecided_and_empty() -> None:
    fresh = Judgement(source="s", event=None, variant="frisian", fen="W:W1:B2")
    assert fresh.verdict == "undecided" and fresh.white_wins == "undecided"
    assert fresh.winning_keys == [] and fresh.proof_line == [] and fresh.duals == []
    assert fresh.cooks == [] and fresh.tries == [] and fresh.criteria == {}
    assert fresh.seconds == 0.0 and fresh.nodes == 0 and fresh.digest == ""
    assert fresh.solution == SolutionCheck(False, None, None, None)
    assert fresh.grade == "incorrect"  # an illegal (unread) solution until it is checked
    # every judgement has a solution of its own
    assert Judgement("s", None, "frisian", "f").solution is not fresh.solution
