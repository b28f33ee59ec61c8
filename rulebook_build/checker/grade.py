"""Faults and remarks, and the grade they give a problem; the judgement's JSON.

Every criterion ends with a status: ``pass``, ``remark`` (a blemish the jury should see, which
does not make the problem incorrect), ``fail`` (a fault: the problem is incorrect or breaks a
condition of the contest) or ``undecided`` (not settled in the time given).  The verdict and
the grade follow from them:

=====================  ===========  ==========================================================
grade                  verdict      when
=====================  ===========  ==========================================================
``incorrect``          unsound      a criterion fails, the composer's solution is illegal, or
                                    its key does not win
``undecided``          undecided    otherwise, while a criterion or the key is not settled
``correct with         sound        every criterion settled, some with a remark
remarks``
``correct``            sound        every criterion passes
=====================  ===========  ==========================================================

A problem is never called correct while anything is open: "undecided" is an honest answer.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from rulebook_build.checker.analysis import Dual
from rulebook_build.checker.messages import CRITERIA as CRITERIA  # re-exported
from rulebook_build.checker.messages import Argument, render
from rulebook_build.checker.opinion import Opinion
from rulebook_build.errors import Said

Status = Literal["pass", "remark", "fail", "undecided"]
Verdict = Literal["sound", "unsound", "undecided"]
Grade = Literal["correct", "correct with remarks", "incorrect", "undecided"]


@dataclass(slots=True)
class Criterion:
    status: Status
    detail: str
    message: str = ""
    """The id of the detail in ``messages.py`` (for the site's translations)."""
    args: dict[str, Argument] = field(default_factory=dict)

    @classmethod
    def say(cls, status: Status, message: str, **args: Argument) -> Criterion:
        detail = render(message, args)
        assert detail is not None, message
        return cls(status, detail, message, args)

    def as_json(self) -> dict[str, object]:
        found: dict[str, object] = {"status": self.status, "detail": self.detail}
        if self.message:
            found["message"] = self.message
            found["args"] = self.args
        return found


@dataclass(slots=True)
class SolutionCheck:
    legal: bool
    key: str | None
    key_wins: bool | None
    error: str | None
    refutation: tuple[str, ...] = ()
    """When the composer's solution fails: the line from the start to Black's refutation
    (the solution as published up to there, then Black's better reply)."""
    said: Said | None = None
    """The error's message id and arguments (not in the JSON: the check page says the error
    in its own language)."""

    def as_json(self) -> dict[str, object]:
        return {
            "legal": self.legal,
            "key": self.key,
            "key_wins": self.key_wins,
            "error": self.error,
            "refutation": " ".join(self.refutation) or None,
        }


@dataclass(frozen=True, slots=True)
class Cook:
    """A second winning key, with a line that wins and whether that line is itself a
    combination (for the exception of H art. 2C)."""

    key: str
    line: tuple[str, ...]
    combination: bool

    def as_json(self) -> dict[str, object]:
        return {"key": self.key, "line": " ".join(self.line), "combination": self.combination}


@dataclass(frozen=True, slots=True)
class Try:
    """A first move that looks like a solution and fails: White sacrifices (Black must
    capture), White captures back, and Black refutes.  ``line`` runs from the key through the
    forced moves to Black's refuting reply, ``refutation``."""

    key: str
    line: tuple[str, ...]
    refutation: str

    def as_json(self) -> dict[str, object]:
        return {"key": self.key, "line": " ".join(self.line), "refutation": self.refutation}


@dataclass(slots=True)
class Judgement:
    source: str
    event: str | None
    variant: str
    fen: str
    verdict: Verdict = "undecided"
    white_wins: Literal["proved", "refuted", "undecided"] = "undecided"
    winning_keys: list[str] = field(default_factory=list)
    solution: SolutionCheck = field(default_factory=lambda: SolutionCheck(False, None, None, None))
    criteria: dict[str, Criterion] = field(default_factory=dict)
    proof_line: list[str] = field(default_factory=list)
    seconds: float = 0.0
    nodes: int = 0
    digest: str = ""
    duals: list[Dual] = field(default_factory=list)
    """Every White turn of the walk with more than one winning move, each with its kind and
    level (criterion C shows the faults and remarks)."""
    cooks: list[Cook] = field(default_factory=list)
    tries: list[Try] = field(default_factory=list)
    """False solutions, information for the reader (never a fault)."""
    opinions: list[Opinion] = field(default_factory=list)
    """The engine's opinion on each question left open (``opinion.py``): never a proof, and
    nothing above depends on it."""

    @property
    def grade(self) -> Grade:
        return grade_of(self)

    def findings(self, status: Status) -> list[tuple[str, Criterion]]:
        """The criteria with this status, in the order of the rulebook."""
        return [(name, c) for name, c in self.criteria.items() if c.status == status]

    def summary(self) -> str:
        """One line for a jury: the grade, then the first fault or remark, and which other
        criteria have one."""
        grade = self.grade
        if grade == "incorrect":
            if not self.solution.legal or self.solution.key_wins is False:
                return f"incorrect: {self.solution.error or 'the solution does not win'}"
            return "incorrect: " + _first_of(self.findings("fail"), "faults")
        if grade == "correct with remarks":
            return "correct with remarks: " + _first_of(self.findings("remark"), "remarks")
        if grade == "undecided":
            open_ = [name for name, _c in self.findings("undecided")]
            return "undecided (time limit): " + (", ".join(open_) or "the key")
        return "correct"

    def as_json(self) -> dict[str, object]:
        return {
            "source": self.source,
            "event": self.event,
            "variant": self.variant,
            "verdict": self.verdict,
            "grade": self.grade,
            "white_wins": self.white_wins,
            "winning_keys": self.winning_keys,
            "solution": self.solution.as_json(),
            "criteria": {name: self.criteria[name].as_json() for name in CRITERIA},
            "seconds": round(self.seconds, 3),
            # extensions
            "summary": self.summary(),
            "fen": self.fen,
            "proof_line": self.proof_line,
            "nodes": self.nodes,
            "digest": self.digest,
            "cooks": [cook.as_json() for cook in self.cooks],
            "duals": [dual.as_json() for dual in self.duals],
            "tries": [found.as_json() for found in self.tries],
            "opinions": [opinion.as_json() for opinion in self.opinions],
        }


def _first_of(found: list[tuple[str, Criterion]], what: str) -> str:
    (name, criterion), others = found[0], [n for n, _c in found[1:]]
    also = f" ({what} also in {', '.join(others)})" if others else ""
    return f"{name} {criterion.detail}{also}"


def verdict_of(judgement: Judgement) -> Verdict:
    statuses = [c.status for c in judgement.criteria.values()]
    solution = judgement.solution
    if "fail" in statuses or solution.key_wins is False or not solution.legal:
        return "unsound"
    if "undecided" in statuses or solution.key_wins is not True:
        return "undecided"
    return "sound"


def grade_of(judgement: Judgement) -> Grade:
    verdict = verdict_of(judgement)
    if verdict == "unsound":
        return "incorrect"
    if verdict == "undecided":
        return "undecided"
    if any(c.status == "remark" for c in judgement.criteria.values()):
        return "correct with remarks"
    return "correct"
