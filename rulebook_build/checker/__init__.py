from typing import TYPE_CHECKING

from rulebook_build import face

# The face: what the other rooms use, each loaded from its module on first use.
if TYPE_CHECKING:
    from rulebook_build.checker import opinion_words
    from rulebook_build.checker.front import FIVE_PIECE_COST, Checker, has_five
    from rulebook_build.checker.grade import CRITERIA, Criterion, Judgement
    from rulebook_build.checker.judge import problem_digest
    from rulebook_build.checker.messages import render
    from rulebook_build.checker.opinion import OPINION_NODES, calibration
    from rulebook_build.checker.opinion_words import calibration_text, describe, heading
    from rulebook_build.checker.verdict_json import judgement_from_json

__getattr__ = face(
    __name__,
    {
        "CRITERIA": ("rulebook_build.checker.grade", "CRITERIA"),
        "Checker": ("rulebook_build.checker.front", "Checker"),
        "Criterion": ("rulebook_build.checker.grade", "Criterion"),
        "FIVE_PIECE_COST": ("rulebook_build.checker.front", "FIVE_PIECE_COST"),
        "Judgement": ("rulebook_build.checker.grade", "Judgement"),
        "OPINION_NODES": ("rulebook_build.checker.opinion", "OPINION_NODES"),
        "calibration": ("rulebook_build.checker.opinion", "calibration"),
        "calibration_text": ("rulebook_build.checker.opinion_words", "calibration_text"),
        "describe": ("rulebook_build.checker.opinion_words", "describe"),
        "has_five": ("rulebook_build.checker.front", "has_five"),
        "heading": ("rulebook_build.checker.opinion_words", "heading"),
        "judgement_from_json": ("rulebook_build.checker.verdict_json", "judgement_from_json"),
        "opinion_words": ("rulebook_build.checker.opinion_words", None),
        "problem_digest": ("rulebook_build.checker.judge", "problem_digest"),
        "render": ("rulebook_build.checker.messages", "render"),
    },
)

__all__ = [
    "CRITERIA",
    "FIVE_PIECE_COST",
    "OPINION_NODES",
    "Checker",
    "Criterion",
    "Judgement",
    "calibration",
    "calibration_text",
    "describe",
    "has_five",
    "heading",
    "judgement_from_json",
    "opinion_words",
    "problem_digest",
    "render",
]
