"""The engine's opinions on the contest page: beside each undecided criterion, each opinion
once on its row, the rest counted for the problem's page (``site/opinions.py``)."""

from __future__ import annotations

from rulebook_build.checker.grade import CRITERIA, Criterion, Judgement, SolutionCheck
from rulebook_build.checker.opinion import Opinion
from rulebook_build.site.problems import _findings


def judged(*opinions: Opinion) -> Judgement:
    criteria = {name: Criterion("pass", f"detail {name}") for name in CRITERIA}
    for name in ("C", "D", "G"):
        criteria[name] = Criterion("undecided", f"open {name}")
    return Judgement(
        source="p.pdn:1",
        event=None,
        variant="international",
        fen="W:W15,38:B16,31",
        white_wins="proved",
        winning_keys=["15-10"],
        solution=SolutionCheck(True, "15-10", True, None),
        criteria=criteria,
        opinions=list(opinions),
    )


def key(move: str, score: int, *criteria: str) -> Opinion:
    says = "win" if score >= 150 else "no win"
    return Opinion("key", criteria, (move,), says, score, 9, 1000, ("16-21",), 1000)  # type: ignore[arg-type]


def test_an_opinion_serving_two_criteria_is_shown_once_on_the_row() -> None:
    record = judged(
        key("38-32", -120, "C", "G"),
        key("38-33", 240, "C", "G"),
        Opinion("idle", ("D",), ("15-10",), "win", 300, 9, 1000, ("16-21",), 1000, 31),
    )
    found = {f["name"]: f for f in _findings(record, "en")}
    assert set(found) == {"C", "D", "G"}
    c, d, g = found["C"], found["D"], found["G"]
    assert c["opinions"] == [
        "not proved; the engine sees no win for White after the first move 38-32 at depth 9 "
        "(score -1.20 men): 16-21"
    ]
    assert c["more"] == 1  # 38-33, on the problem's page
    # G is served by the same two: the one not yet on the row
    assert g["opinions"] and "38-33" in str(g["opinions"][0]) and g["more"] == 1
    assert d["opinions"] and "without the man on 31" in str(d["opinions"][0])
    assert d["more"] == 0
    shown = [s for f in found.values() for s in f["opinions"]]  # type: ignore[attr-defined]
    assert len(shown) == len(set(shown)) == 3
